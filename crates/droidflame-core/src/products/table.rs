//! The frame table (Traceview's profile panel, the methods or slices table): per frame,
//! calls, recursive calls and inclusive/exclusive time on each clock, with callers and
//! callees, for the whole trace or for some of its threads. Inclusive time counts only the
//! outermost activation of a frame, so recursion is not counted twice; exclusive time and
//! calls count every activation. Samples and allocations (`Count::per_stack`) count as
//! inclusive time does: each stack that holds the frame once.

use crate::profile::{CallTree, PerClock, Profile, ThreadProfile, NONE};
use rustc_hash::FxHashMap;

/// One frame's totals over the threads of a table. Times are in ticks (`Profile::micros`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FrameRow {
    /// Index into `Profile::frames`.
    pub frame: u32,
    /// Calls, recursive ones included; or the samples or allocations whose stack holds
    /// the frame, each once.
    pub calls: u64,
    /// Calls made while the frame was already running further up the stack (0 for
    /// samples and allocations).
    pub recursive_calls: u64,
    /// Inclusive time, each outermost call once.
    pub incl: PerClock,
    /// Exclusive (self) time of every call.
    pub excl: PerClock,
}

/// Calls from one frame (or a thread's top level, `caller == NONE`) to another.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Edge {
    /// The calling frame, `NONE` for a thread's top level.
    pub caller: u32,
    /// The called frame.
    pub callee: u32,
    /// Calls made; or the samples or allocations whose stack holds the pair, each once.
    pub calls: u64,
    /// Calls in which the callee was already running further up the stack (0 for samples
    /// and allocations).
    pub recursive_calls: u64,
    /// The time spent in the callee when this caller called it, counting only the
    /// outermost of these calls on a stack (`A → B → A → B` counts the outer `A → B`
    /// once). A recursive call therefore still shows what it cost; the callee's own
    /// inclusive time (`FrameRow::incl`) is what never counts recursion twice.
    pub incl: PerClock,
}

/// The frames of some threads with their totals, and the calls between them.
#[derive(Debug, Clone, Default)]
pub struct FrameTable {
    /// Frames with at least one call, by inclusive time on the default clock (most first),
    /// then by name.
    pub rows: Vec<FrameRow>,
    /// By caller, then callee (frame indices; a thread's top level, `NONE`, last).
    pub edges: Vec<Edge>,
}

/// The table of every thread.
pub fn frame_table(profile: &Profile) -> FrameTable {
    let threads: Vec<&ThreadProfile> = profile.stacks().threads.iter().collect();
    frame_table_of(profile, &threads)
}

/// The table of some threads only.
pub fn frame_table_of(profile: &Profile, threads: &[&ThreadProfile]) -> FrameTable {
    let mut edges = FxHashMap::default();
    let rows = rows_of(profile, threads, Some(&mut edges));
    // A range leaves stacks with no call in it: no edge for them.
    let mut edges: Vec<Edge> = edges.into_values().filter(|e| e.calls > 0 || e.incl != PerClock::ZERO).collect();
    edges.sort_unstable_by_key(|e| (e.caller, e.callee));
    FrameTable { rows, edges }
}

/// The rows of every thread's table without the calls between frames, which cost more
/// than the rows (a map entry per stack) and which a summary does not show.
pub fn frame_rows(profile: &Profile) -> Vec<FrameRow> {
    let threads: Vec<&ThreadProfile> = profile.stacks().threads.iter().collect();
    rows_of(profile, &threads, None)
}

type Edges = FxHashMap<(u32, u32), Edge>;

fn rows_of(profile: &Profile, threads: &[&ThreadProfile], mut edges: Option<&mut Edges>) -> Vec<FrameRow> {
    let mut rows: Vec<FrameRow> =
        (0..profile.frames.len() as u32).map(|frame| FrameRow { frame, ..Default::default() }).collect();
    let mut on_path = vec![0u32; profile.frames.len()];
    let per_stack = profile.count().per_stack();
    for thread in threads {
        add_thread(&thread.tree, per_stack, &mut rows, edges.as_deref_mut(), &mut on_path);
    }
    // A frame with time but no count known (samples in a time range) is still there.
    let mut rows: Vec<FrameRow> = rows.into_iter().filter(|r| r.calls > 0 || r.incl != PerClock::ZERO).collect();
    let clock = profile.default_clock();
    rows.sort_by(|a, b| {
        b.incl[clock].cmp(&a.incl[clock]).then_with(|| profile.frame_name(a.frame).cmp(profile.frame_name(b.frame)))
    });
    rows
}

fn add_thread(
    tree: &CallTree,
    per_stack: bool,
    rows: &mut [FrameRow],
    mut edges: Option<&mut Edges>,
    on_path: &mut [u32],
) {
    // Samples and allocations count as inclusive time does: each stack through a frame once.
    let below = if per_stack { tree.counts_below() } else { Vec::new() };
    // The current stack as (caller, frame) pairs, and how often each pair is on it.
    let mut path: Vec<(u32, u32)> = Vec::new();
    let mut edges_on_path: FxHashMap<(u32, u32), u32> = FxHashMap::default();
    tree.walk(|index, depth| {
        while path.len() >= depth {
            let left = path.pop().expect("path is at least `depth` long");
            leave(left, on_path, &mut edges_on_path);
        }
        let node = tree.node(index);
        let frame = node.frame;
        let outermost = on_path[frame as usize] == 0;
        let caller = if node.parent == CallTree::ROOT { NONE } else { tree.node(node.parent).frame };
        let row = &mut rows[frame as usize];
        row.excl.add(node.self_time);
        if outermost {
            row.incl.add(node.incl);
        }
        if per_stack {
            row.calls += if outermost { below[index as usize] } else { 0 };
        } else {
            row.calls += node.calls;
            if !outermost {
                row.recursive_calls += node.calls;
            }
        }
        if let Some(edges) = edges.as_deref_mut() {
            let edge =
                edges.entry((caller, frame)).or_insert_with(|| Edge { caller, callee: frame, ..Default::default() });
            let edge_depth = edges_on_path.entry((caller, frame)).or_insert(0);
            if *edge_depth == 0 {
                edge.incl.add(node.incl);
            }
            if per_stack {
                edge.calls += if *edge_depth == 0 { below[index as usize] } else { 0 };
            } else {
                edge.calls += node.calls;
                if !outermost {
                    edge.recursive_calls += node.calls;
                }
            }
            *edge_depth += 1;
        }
        on_path[frame as usize] += 1;
        path.push((caller, frame));
    });
    for left in path {
        leave(left, on_path, &mut edges_on_path);
    }
}

fn leave(pair: (u32, u32), on_path: &mut [u32], edges_on_path: &mut FxHashMap<(u32, u32), u32>) {
    on_path[pair.1 as usize] -= 1;
    if let Some(n) = edges_on_path.get_mut(&pair) {
        *n -= 1;
    }
}
