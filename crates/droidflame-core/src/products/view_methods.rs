//! The methods table of a transformed view: rows and the calls between them read off the
//! view's top-down call tree, so that a merged frame's time is its caller's, a dropped
//! frame's stacks are gone, and a collapsed package is one row, as in the view's graphs.
//!
//! Frames are the view's (named as folded stacks name them: overloads are one row). A
//! row's inclusive time counts only nodes with no ancestor of its name, so recursion is
//! counted once; exclusive time and calls count every node. An edge's inclusive time counts
//! only nodes with no ancestor edge of the same caller and callee, as `Edge::incl` does.
//! Samples and allocations count as inclusive time does (`table.rs`).

use super::frames::{FrameNames, FrameTree, DEFAULT_MAX_DEPTH};
use super::summary::{wholes, EdgeJson, MethodJson, MethodTimes, MethodsJson};
use super::transform::View;
use crate::error::{Error, ErrorKind, Result};
use crate::profile::{Clock, PerClock, Profile, ThreadProfile, NONE};
use rustc_hash::FxHashMap;

/// One frame's totals in a view, in whole µs.
#[derive(Default, Clone)]
pub(crate) struct Row {
    /// Some node of the tree has this name.
    pub present: bool,
    pub calls: u64,
    pub recursive_calls: u64,
    pub incl: PerClock,
    pub excl: PerClock,
}

#[derive(Default)]
struct EdgeSum {
    calls: u64,
    recursive_calls: u64,
    incl: PerClock,
}

/// The methods table (as `methods_json` writes it) of `view`'s transforms; the view's
/// inversion is left out: a table of methods is the same read either way.
pub fn methods_json_of_view(profile: &Profile, thread: Option<usize>, view: &View) -> Result<String> {
    let threads: Vec<&ThreadProfile> = match thread {
        None => profile.stacks().threads.iter().collect(),
        Some(index) => vec![profile.stacks().threads.get(index).ok_or_else(|| {
            Error::new(
                ErrorKind::Request,
                format!("thread index {index} is out of range ({} threads)", profile.stacks().threads.len()),
            )
        })?],
    };
    view.check(profile)?;
    let (names, tree) = view_tree(profile, &threads, view);
    let (rows, edges) = sums(&tree, names.len());

    let (frame_of, shared) = representatives(profile, &names);
    let mut order: Vec<u32> = (0..names.len() as u32).filter(|&n| rows[n as usize].present).collect();
    let clock = profile.default_clock();
    order.sort_by(|&a, &b| {
        rows[b as usize].incl[clock].cmp(&rows[a as usize].incl[clock]).then_with(|| names.name(a).cmp(names.name(b)))
    });
    let mut position = vec![NONE; names.len()];
    for (i, &n) in order.iter().enumerate() {
        position[n as usize] = i as u32;
    }
    let in_clock = |clock: Clock, us: u64| profile.has(clock).then_some(us);
    let methods = order
        .iter()
        .map(|&n| {
            let row = &rows[n as usize];
            let frame = frame_of[n as usize];
            let known = (frame != NONE).then(|| &profile.frames[frame as usize]);
            MethodJson {
                name: names.name(n).to_owned(),
                class: known.map_or("", |f| f.class.as_str()),
                method: known.map_or(names.name(n), |f| f.name.as_str()),
                signature: known.filter(|_| !shared[n as usize]).map_or("", |f| f.signature.as_str()),
                source: known.and_then(|f| f.source.as_deref()),
                calls: profile.counts_known().then_some(row.calls),
                recursive_calls: row.recursive_calls,
                // The view's tree is in whole µs already.
                times: MethodTimes::of(profile, row.incl, row.excl, |us| us),
                obfuscated: (frame != NONE).then(|| profile.obfuscated_name(frame)).flatten(),
            }
        })
        .collect();
    let at = |n: u32| (n != NONE).then(|| position[n as usize] as usize);
    let mut edge_list: Vec<((u32, u32), EdgeSum)> = edges.into_iter().collect();
    edge_list.sort_by_key(|((caller, callee), _)| (at(*caller).map_or(0, |p| p + 1), position[*callee as usize]));
    let total = |clock: Clock| rows.iter().fold(0u64, |sum, r| sum.saturating_add(r.excl[clock]));
    let json = MethodsJson {
        thread,
        total_wall_us: in_clock(Clock::Wall, total(Clock::Wall)),
        total_cpu_us: in_clock(Clock::Cpu, total(Clock::Cpu)),
        wholes: wholes(profile, thread.is_some(), total),
        methods,
        edges: edge_list
            .into_iter()
            .map(|((caller, callee), e)| EdgeJson {
                caller: at(caller),
                callee: position[callee as usize] as usize,
                calls: profile.counts_known().then_some(e.calls),
                recursive_calls: e.recursive_calls,
                incl_wall_us: in_clock(Clock::Wall, e.incl.wall),
                incl_cpu_us: in_clock(Clock::Cpu, e.incl.cpu),
            })
            .collect(),
    };
    Ok(serde_json::to_string(&json).expect("the methods table serialises to JSON"))
}

/// A frame of a view's table: its name, a frame of the profile it stands for (`NONE` for a
/// made one, a collapsed package), whether overloads share the name, and its totals.
pub(crate) struct ViewRow {
    pub name: String,
    pub frame: u32,
    pub overloads: bool,
    pub row: Row,
}

/// Each frame of `threads` in `view` (top-down) with its totals: what a table of methods
/// in that view lists. A transform naming a frame the profile lacks changes nothing (a
/// focus on it keeps nothing), as on one side of a comparison.
pub(crate) fn view_rows(profile: &Profile, threads: &[&ThreadProfile], view: &View) -> Vec<ViewRow> {
    let (names, tree) = view_tree(profile, threads, view);
    let (rows, _) = sums(&tree, names.len());
    let (frame_of, shared) = representatives(profile, &names);
    rows.into_iter()
        .enumerate()
        .filter(|(_, r)| r.present)
        .map(|(n, row)| ViewRow {
            name: names.name(n as u32).to_owned(),
            frame: frame_of[n],
            overloads: shared[n],
            row,
        })
        .collect()
}

/// A frame of the profile for each name (`NONE` for a made one), for its class, signature
/// and source, and whether several frames (overloads) share the name: they then show no
/// signature.
fn representatives(profile: &Profile, names: &FrameNames) -> (Vec<u32>, Vec<bool>) {
    let mut frame_of = vec![NONE; names.len()];
    let mut shared = vec![false; names.len()];
    for (frame, &name) in profile.frame_name_of.iter().enumerate() {
        let id = names.of_frame[name as usize] as usize;
        if frame_of[id] == NONE {
            frame_of[id] = frame as u32;
        } else {
            shared[id] = true;
        }
    }
    (frame_of, shared)
}

/// The top-down tree of `threads` merged, transformed by `view`: stacks of different
/// threads merge, which changes no frame's totals, as each stack counts on its own.
fn view_tree(profile: &Profile, threads: &[&ThreadProfile], view: &View) -> (FrameNames, FrameTree) {
    let top_down = View { transforms: view.transforms.clone(), invert: false };
    let names = FrameNames::of_view(profile, DEFAULT_MAX_DEPTH, &top_down);
    let tree = FrameTree::merged(profile, &names, threads).transformed(profile, &names, &top_down);
    (names, tree)
}

/// Rows by name id and edges by (caller name or `NONE` at a thread's top, callee name),
/// from one depth-first walk with the names and edges open on the current path counted.
fn sums(tree: &FrameTree, frames: usize) -> (Vec<Row>, FxHashMap<(u32, u32), EdgeSum>) {
    let nodes = &tree.nodes;
    let per_stack = tree.per_stack;
    // Children come after their parents: one backward pass sums the totals (and the
    // samples or allocations, where those count per stack).
    let mut total: Vec<PerClock> = nodes.iter().map(|n| n.self_time).collect();
    let mut counts: Vec<u64> = if per_stack { nodes.iter().map(|n| n.calls).collect() } else { Vec::new() };
    for n in (1..nodes.len()).rev() {
        let mut child = nodes[n].first_child;
        while child != NONE {
            let below = total[child as usize];
            total[n].add(below);
            if per_stack {
                counts[n] += counts[child as usize];
            }
            child = nodes[child as usize].next_sibling;
        }
    }
    let mut rows = vec![Row::default(); frames];
    let mut edges: FxHashMap<(u32, u32), EdgeSum> = FxHashMap::default();
    let mut open_names = vec![0u32; frames];
    let mut open_edges: FxHashMap<(u32, u32), u32> = FxHashMap::default();
    // (node, its caller's name, leaving): each node is popped once to enter, once to leave.
    let mut pending: Vec<(u32, u32, bool)> = Vec::new();
    let mut child = nodes[0].first_child;
    while child != NONE {
        pending.push((child, NONE, false));
        child = nodes[child as usize].next_sibling;
    }
    while let Some((n, caller, leaving)) = pending.pop() {
        let node = &nodes[n as usize];
        let name = node.name;
        if leaving {
            open_names[name as usize] -= 1;
            *open_edges.get_mut(&(caller, name)).expect("an edge left was entered") -= 1;
            continue;
        }
        let recursive = open_names[name as usize] > 0;
        let row = &mut rows[name as usize];
        row.present = true;
        row.excl.add(node.self_time);
        if !recursive {
            row.incl.add(total[n as usize]);
        }
        let open = open_edges.entry((caller, name)).or_insert(0);
        let edge = edges.entry((caller, name)).or_default();
        if per_stack {
            // Each stack through the frame (the pair) once, as inclusive time.
            row.calls += if recursive { 0 } else { counts[n as usize] };
            edge.calls += if *open == 0 { counts[n as usize] } else { 0 };
        } else {
            row.calls += node.calls;
            edge.calls += node.calls;
            if recursive {
                row.recursive_calls += node.calls;
                edge.recursive_calls += node.calls;
            }
        }
        if *open == 0 {
            edge.incl.add(total[n as usize]);
        }
        *open += 1;
        open_names[name as usize] += 1;
        pending.push((n, caller, true));
        let mut child = node.first_child;
        while child != NONE {
            pending.push((child, name, false));
            child = nodes[child as usize].next_sibling;
        }
    }
    (rows, edges)
}
