//! The method table (Traceview's profile panel): per method, calls, recursive calls and
//! inclusive/exclusive time on each clock, with callers and callees, for the whole trace or
//! for some of its threads. Inclusive time counts only the outermost activation of a
//! method, so recursion is not counted twice; exclusive time and calls count every
//! activation.

use crate::profile::{CallTree, Profile, ThreadProfile, NONE};
use rustc_hash::FxHashMap;

/// One method's totals over the threads of a table. Times are in ticks (`Profile::micros`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MethodRow {
    pub method: u32,
    pub calls: u64,
    pub recursive_calls: u64,
    pub incl: [u64; 2],
    pub excl: [u64; 2],
}

/// Calls from one method (or a thread's top level, `caller == NONE`) to another.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Edge {
    pub caller: u32,
    pub callee: u32,
    pub calls: u64,
    /// Calls in which the callee was already running further up the stack.
    pub recursive_calls: u64,
    /// The time spent in the callee when this caller called it, counting only the
    /// outermost of these calls on a stack (`A → B → A → B` counts the outer `A → B`
    /// once). A recursive call therefore still shows what it cost; the callee's own
    /// inclusive time (`MethodRow::incl`) is what never counts recursion twice.
    pub incl: [u64; 2],
}

#[derive(Debug, Clone, Default)]
pub struct MethodTable {
    /// Methods with at least one call, by inclusive time on the default clock (most first),
    /// then by name.
    pub rows: Vec<MethodRow>,
    /// By caller, then callee.
    pub edges: Vec<Edge>,
}

impl MethodTable {
    pub fn callers(&self, method: u32) -> impl Iterator<Item = &Edge> {
        self.edges.iter().filter(move |e| e.callee == method)
    }

    pub fn callees(&self, method: u32) -> impl Iterator<Item = &Edge> {
        self.edges.iter().filter(move |e| e.caller == method)
    }
}

/// The table of every thread.
pub fn method_table(profile: &Profile) -> MethodTable {
    let threads: Vec<&ThreadProfile> = profile.threads.iter().collect();
    method_table_of(profile, &threads)
}

/// The table of some threads only.
pub fn method_table_of(profile: &Profile, threads: &[&ThreadProfile]) -> MethodTable {
    let mut rows: Vec<MethodRow> =
        (0..profile.methods.len() as u32).map(|method| MethodRow { method, ..Default::default() }).collect();
    let mut edges: FxHashMap<(u32, u32), Edge> = FxHashMap::default();
    let mut on_path = vec![0u32; profile.methods.len()];
    for thread in threads {
        add_thread(&thread.tree, &mut rows, &mut edges, &mut on_path);
    }
    let mut rows: Vec<MethodRow> = rows.into_iter().filter(|r| r.calls > 0).collect();
    let slot = profile.clocks.default_clock().slot();
    rows.sort_by(|a, b| {
        b.incl[slot].cmp(&a.incl[slot]).then_with(|| profile.frame(a.method).cmp(profile.frame(b.method)))
    });
    let mut edges: Vec<Edge> = edges.into_values().collect();
    edges.sort_unstable_by_key(|e| (e.caller, e.callee));
    MethodTable { rows, edges }
}

fn add_thread(tree: &CallTree, rows: &mut [MethodRow], edges: &mut FxHashMap<(u32, u32), Edge>, on_path: &mut [u32]) {
    // The current stack as (caller, method) pairs, and how often each pair is on it.
    let mut path: Vec<(u32, u32)> = Vec::new();
    let mut edges_on_path: FxHashMap<(u32, u32), u32> = FxHashMap::default();
    tree.walk(|index, depth| {
        while path.len() >= depth {
            let left = path.pop().expect("path is at least `depth` long");
            leave(left, on_path, &mut edges_on_path);
        }
        let node = tree.node(index);
        let method = node.method;
        let outermost = on_path[method as usize] == 0;
        let caller = if node.parent == CallTree::ROOT { NONE } else { tree.node(node.parent).method };
        let row = &mut rows[method as usize];
        row.calls += node.calls;
        row.excl[0] = row.excl[0].saturating_add(node.self_time[0]);
        row.excl[1] = row.excl[1].saturating_add(node.self_time[1]);
        let edge =
            edges.entry((caller, method)).or_insert_with(|| Edge { caller, callee: method, ..Default::default() });
        edge.calls += node.calls;
        let edge_depth = edges_on_path.entry((caller, method)).or_insert(0);
        if *edge_depth == 0 {
            edge.incl[0] = edge.incl[0].saturating_add(node.incl[0]);
            edge.incl[1] = edge.incl[1].saturating_add(node.incl[1]);
        }
        *edge_depth += 1;
        if outermost {
            row.incl[0] = row.incl[0].saturating_add(node.incl[0]);
            row.incl[1] = row.incl[1].saturating_add(node.incl[1]);
        } else {
            row.recursive_calls += node.calls;
            edge.recursive_calls += node.calls;
        }
        on_path[method as usize] += 1;
        path.push((caller, method));
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
