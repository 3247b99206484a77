//! A heap dump's objects as stacks, so that every stack product reads a dump: down the
//! dominator tree (`heap-dominators`) or down the shortest paths from the GC roots
//! (`heap-paths`). Each strongly reachable object is one stack: the objects above it,
//! outermost first, then itself, each by its class (a class object as
//! `java.lang.Class<NAME>`); its value is its shallow size, its count one object. A node's
//! inclusive value is then the bytes the objects below it keep alive (dominators) or
//! hang from (paths). Each heap is a "thread", holding the objects that live in it.

use super::clock::{ClockSet, ClockWords, PerClock, TimeUnit};
use super::frame::{Frame, FrameKind};
use super::heap_graph::{HeapGraph, ObjectKind, Strength};
use super::source::{Source, SourceKind, Unit};
use super::stacks::StackProfile;
use super::thread::ThreadProfile;
use super::tree::{CallTree, NONE};
use rustc_hash::FxHashMap;

/// The stack profile of `kind` (`HeapDominators` or `HeapPaths`) of `graph`.
pub(crate) fn graph_stacks(graph: &HeapGraph, kind: SourceKind) -> StackProfile {
    let n = graph.len();
    let strong = |v: usize| graph.reached.reach[v] == Some(Strength::Strong);
    let parent = |v: usize| match kind {
        SourceKind::HeapPaths => graph.reached.path_parent[v].0,
        _ => graph.reached.dominator[v],
    };
    let frame = |v: usize| {
        let frames = graph.frames[graph.objects.class[v] as usize];
        match graph.objects.kind[v] {
            ObjectKind::Class => frames.class_object,
            _ => frames.instances,
        }
    };
    let threads = (0..graph.heaps.len())
        .filter_map(|heap| {
            let objects = (0..n).filter(|&v| strong(v) && graph.objects.heap[v] as usize == heap);
            let (tree, records) = heap_tree(n, objects, parent, frame, |v| graph.objects.shallow(v));
            (records > 0).then(|| heap_thread(heap as u32, &graph.heaps[heap], records, tree))
        })
        .collect::<Vec<_>>();
    let words = match kind {
        SourceKind::HeapPaths => "bytes of objects on paths from GC roots",
        _ => "bytes retained",
    };
    StackProfile {
        source: Source::new(kind, Unit::Bytes, FrameKind::Class, threads.len()),
        threads,
        clocks: ClockSet::Wall,
        time_unit: TimeUnit::MICROS,
        frame_kind: FrameKind::Class,
        clock_words: ClockWords { wall: words, cpu: "" },
        preferred_clock: None,
        shortest_call: 0,
        states_as_frames: false,
        counts_unknown: false,
    }
}

/// One heap's tree: each of `objects` adds its shallow size and one count to the node of
/// its chain of frames (the frames of the objects above it, outermost first, then its
/// own), and the tree's number of objects. The nodes are numbered first (chains walked up
/// to an object whose node is known, then down again: no recursion, chains can be
/// millions long), then made at once, so that the tree takes no more memory than its
/// nodes.
fn heap_tree(
    n: usize,
    objects: impl Iterator<Item = usize> + Clone,
    parent: impl Fn(usize) -> u32,
    frame: impl Fn(usize) -> u32,
    shallow: impl Fn(usize) -> u64,
) -> (CallTree, u64) {
    let mut node_of = vec![NONE; n];
    // Each node's parent and frame, the root first.
    let mut links: Vec<(u32, u32)> = vec![(NONE, NONE)];
    let mut index: FxHashMap<(u32, u32), u32> = FxHashMap::default();
    let mut up = Vec::new();
    for v in objects.clone() {
        let mut at = v as u32;
        while at != NONE && node_of[at as usize] == NONE {
            up.push(at);
            at = parent(at as usize);
        }
        let mut node = if at == NONE { CallTree::ROOT } else { node_of[at as usize] };
        for &w in up.iter().rev() {
            let frame = frame(w as usize);
            node = *index.entry((node, frame)).or_insert_with(|| {
                links.push((node, frame));
                (links.len() - 1) as u32
            });
            node_of[w as usize] = node;
        }
        up.clear();
    }
    drop(index);
    let mut tree = CallTree::of_links(&links);
    drop(links);
    let nodes = tree.nodes_mut();
    let mut records = 0;
    for v in objects {
        let node = &mut nodes[node_of[v] as usize];
        node.self_time.wall += shallow(v);
        node.calls += 1;
        records += 1;
    }
    (tree, records)
}

/// One heap's tree as a thread: inclusive values summed up from the self values (a child
/// is always made after its parent).
fn heap_thread(heap: u32, name: &str, records: u64, mut tree: CallTree) -> ThreadProfile {
    let nodes = tree.nodes_mut();
    for node in nodes.iter_mut() {
        node.incl.wall = node.self_time.wall;
    }
    for index in (1..nodes.len()).rev() {
        let (incl, parent) = (nodes[index].incl.wall, nodes[index].parent as usize);
        nodes[parent].incl.wall += incl;
    }
    ThreadProfile {
        tid: heap,
        name: name.to_owned(),
        records,
        tree,
        first: PerClock::ZERO,
        last: PerClock::ZERO,
        pid: None,
        process: None,
        track: false,
        heap: true,
        sched: None,
        states: Default::default(),
        sample_times: Default::default(),
        calls: Default::default(),
        slot: NONE,
    }
}

/// How many heaps hold a strongly reachable object: the threads of a dump's sources.
pub(crate) fn graph_heaps(graph: &HeapGraph) -> usize {
    let mut used = vec![false; graph.heaps.len()];
    (0..graph.len()).filter(|&v| graph.is_strong(v)).for_each(|v| used[graph.objects.heap[v] as usize] = true);
    used.iter().filter(|&&u| u).count()
}

/// Gives each class its frames in `frames`, made for the classes whose objects are
/// strongly reachable: one per name, however many classes share it.
pub(crate) fn make_class_frames(graph: &mut HeapGraph, frames: &mut Vec<Frame>) {
    let mut by_name: FxHashMap<String, u32> = FxHashMap::default();
    let mut frame_of = |name: std::borrow::Cow<'_, str>, id: u64| match by_name.get(name.as_ref()) {
        Some(&frame) => frame,
        None => {
            frames.push(Frame {
                class: String::new(),
                name: name.clone().into_owned(),
                signature: String::new(),
                source: None,
                line: None,
                id,
                unknown: false,
            });
            let frame = (frames.len() - 1) as u32;
            by_name.insert(name.into_owned(), frame);
            frame
        }
    };
    for v in 0..graph.len() {
        if !graph.is_strong(v) {
            continue;
        }
        let class = graph.objects.class[v] as usize;
        let slot = match graph.objects.kind[v] {
            ObjectKind::Class => &graph.frames[class].class_object,
            _ => &graph.frames[class].instances,
        };
        if *slot == NONE {
            let frame = frame_of(graph.object_class(v), class as u64);
            let frames = &mut graph.frames[class];
            match graph.objects.kind[v] {
                ObjectKind::Class => frames.class_object = frame,
                _ => frames.instances = frame,
            }
        }
    }
}
