//! Both sides of a comparison in one tree: under the root, one node per thread name; below
//! it, frames merged by name, each with its self time (whole µs) before and after. Built
//! from the two profiles' frame trees without spelling out a stack, so comparing costs
//! about what the trees themselves do; stacks are written out only when asked for.

use super::frames::{sanitize, FrameNames, FrameTree};
use super::sorted_walk::{walk_sorted, NamedTree};
use super::transform::View;
use super::tree::CallTreeTable;
use crate::profile::{Clock, PerClock, Profile, ThreadProfile, NONE};
use rustc_hash::FxHashMap;
use std::collections::BTreeMap;

#[derive(Debug, Clone)]
struct DiffNode {
    name: u32,
    first_child: u32,
    next_sibling: u32,
    /// Self µs on each side: `[before, after]`.
    own: [u64; 2],
}

/// Two profiles' stacks merged by frame names, threads by their names.
#[derive(Debug, Clone)]
pub(crate) struct DiffTree {
    names: Vec<String>,
    /// Node 0 is the root; a parent always comes before its children.
    nodes: Vec<DiffNode>,
}

impl DiffTree {
    /// The tree of `sides` (before, after) on `clock`; frames deeper than `max_depth` are
    /// merged; `only`: the threads of that name alone.
    pub fn build(sides: [&Profile; 2], clock: Clock, max_depth: usize, only: Option<&str>, view: &View) -> DiffTree {
        let mut merger = StackMerger::default();
        for (side, profile) in sides.into_iter().enumerate() {
            merger.add(profile, clock, (max_depth, view), only, |tree, _, node, micros| {
                let own = &mut tree.nodes[node as usize].own[side];
                *own = own.saturating_add(micros);
            });
        }
        merger.tree
    }

    /// The number of nodes, the root included.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Sets each node's self µs on both sides.
    pub fn set_own(&mut self, own: impl Iterator<Item = [u64; 2]>) {
        for (node, value) in self.nodes.iter_mut().zip(own) {
            node.own = value;
        }
    }

    /// The thread-name nodes, each with its name.
    pub fn threads(&self) -> impl Iterator<Item = (u32, &str)> {
        let mut child = self.nodes[0].first_child;
        std::iter::from_fn(move || {
            let at = child;
            (at != NONE).then(|| {
                child = self.nodes[at as usize].next_sibling;
                (at, self.name(at))
            })
        })
    }

    /// The node of the threads named `name`, if any run has one.
    pub fn thread_node(&self, name: &str) -> Option<u32> {
        self.threads().find(|(_, n)| *n == name).map(|(node, _)| node)
    }

    /// `side`'s stacks below `root` (a thread's node, or 0 for every thread) as a call tree
    /// on `clock`: node 0 is `root`, each node's time its own µs and its subtree's; nodes
    /// without time on that side are left out. No calls: the merged stacks keep none.
    pub fn call_tree(&self, root: u32, side: usize, clock: Clock) -> CallTreeTable {
        let incl = self.inclusive();
        let mut table = CallTreeTable { names: self.names.clone(), ..CallTreeTable::default() };
        let on = |v: u64| match clock {
            Clock::Wall => PerClock::new(v, 0),
            Clock::Cpu => PerClock::new(0, v),
        };
        table.push(NONE, NONE, on(self.nodes[root as usize].own[side]), 0);
        // (tree node, table node), parents before their children.
        let mut pending = vec![(root, 0u32)];
        while let Some((n, at)) = pending.pop() {
            let mut child = self.nodes[n as usize].first_child;
            while child != NONE {
                if incl[child as usize][side] > 0 {
                    let c = &self.nodes[child as usize];
                    pending.push((child, table.push(at, c.name, on(c.own[side]), 0)));
                }
                child = self.nodes[child as usize].next_sibling;
            }
        }
        table.add_totals();
        table
    }

    /// Every node's self µs on each side, summed.
    pub fn totals(&self) -> [u64; 2] {
        self.nodes.iter().fold([0, 0], |[b, a], n| [b.saturating_add(n.own[0]), a.saturating_add(n.own[1])])
    }

    /// Whether every node has the same time on both sides.
    pub fn unchanged(&self) -> bool {
        self.nodes.iter().all(|n| n.own[0] == n.own[1])
    }

    /// Inclusive µs of every node on each side.
    pub fn inclusive(&self) -> Vec<[u64; 2]> {
        let mut incl: Vec<[u64; 2]> = self.nodes.iter().map(|n| n.own).collect();
        // Children come after their parents: one backward pass sums them.
        for n in (0..self.nodes.len()).rev() {
            let mut child = self.nodes[n].first_child;
            while child != NONE {
                let c = incl[child as usize];
                incl[n] = [incl[n][0].saturating_add(c[0]), incl[n][1].saturating_add(c[1])];
                child = self.nodes[child as usize].next_sibling;
            }
        }
        incl
    }

    /// Calls `line(stack, before, after)` for every stack below `root` with time on either
    /// side, in the byte order of the stacks; the first frame is a child of `root` (a
    /// thread's name, for the root of all). Below `root`'s children, a frame that
    /// `kept(frame)` refuses is left out with its subtree, its time (`incl`, from
    /// `inclusive`) added to its parent's line.
    pub fn for_each_line<E>(
        &self,
        root: u32,
        incl: &[[u64; 2]],
        kept: impl Fn(u32) -> bool,
        mut line: impl FnMut(&str, u64, u64) -> Result<(), E>,
    ) -> Result<(), E> {
        // `root`'s children have no line to give their time to.
        let keeps = |parent: u32, n: u32| parent == root || kept(n);
        walk_sorted(self, root, None, keeps, |stack, n| {
            let mut value = self.nodes[n as usize].own;
            let mut child = self.nodes[n as usize].first_child;
            while child != NONE {
                if !keeps(n, child) {
                    let c = incl[child as usize];
                    value = [value[0].saturating_add(c[0]), value[1].saturating_add(c[1])];
                }
                child = self.nodes[child as usize].next_sibling;
            }
            if value != [0, 0] {
                line(stack, value[0], value[1])?;
            }
            Ok(())
        })
    }
}

impl NamedTree for DiffTree {
    fn first_child(&self, n: u32) -> u32 {
        self.nodes[n as usize].first_child
    }

    fn next_sibling(&self, n: u32) -> u32 {
        self.nodes[n as usize].next_sibling
    }

    fn name(&self, n: u32) -> &str {
        &self.names[self.nodes[n as usize].name as usize]
    }
}

/// Merges the stacks of any number of profiles into one tree, by frame names under thread
/// names, and says where each profile's time goes.
#[derive(Debug)]
pub(crate) struct StackMerger {
    /// Its own times are whatever the callers of `add` made them.
    pub tree: DiffTree,
    name_ids: FxHashMap<String, u32>,
    /// `(parent, name)` -> node.
    children: FxHashMap<(u32, u32), u32>,
}

impl Default for StackMerger {
    fn default() -> Self {
        let root = DiffNode { name: NONE, first_child: NONE, next_sibling: NONE, own: [0, 0] };
        StackMerger {
            tree: DiffTree { names: Vec::new(), nodes: vec![root] },
            name_ids: FxHashMap::default(),
            children: FxHashMap::default(),
        }
    }
}

impl StackMerger {
    fn name(&mut self, text: &str) -> u32 {
        if let Some(&id) = self.name_ids.get(text) {
            return id;
        }
        let id = self.tree.names.len() as u32;
        self.tree.names.push(text.to_owned());
        self.name_ids.insert(text.to_owned(), id);
        id
    }

    fn child(&mut self, parent: u32, name: u32) -> u32 {
        let nodes = &mut self.tree.nodes;
        *self.children.entry((parent, name)).or_insert_with(|| {
            let at = nodes.len() as u32;
            let next_sibling = nodes[parent as usize].first_child;
            nodes.push(DiffNode { name, first_child: NONE, next_sibling, own: [0, 0] });
            nodes[parent as usize].first_child = at;
            at
        })
    }

    /// Merges `profile`'s stacks (the threads named `only`, or all) on `clock` into the
    /// tree, calling `time(tree, thread, node, micros)` for each of its frame-tree nodes'
    /// self time, `thread` the node of its thread's name (a node may be told several times:
    /// threads of one name merge).
    pub fn add(
        &mut self,
        profile: &Profile,
        clock: Clock,
        (max_depth, view): (usize, &View),
        only: Option<&str>,
        mut time: impl FnMut(&mut DiffTree, u32, u32, u64),
    ) {
        let names = FrameNames::of_view(profile, max_depth, view);
        let global: Vec<u32> = (0..names.len() as u32).map(|id| self.name(names.name(id))).collect();
        let mut by_name: BTreeMap<String, Vec<&ThreadProfile>> = BTreeMap::new();
        for thread in &profile.stacks().threads {
            let name = sanitize(&thread.name);
            if only.is_none_or(|only| only == name) {
                by_name.entry(name).or_default().push(thread);
            }
        }
        for (name, threads) in &by_name {
            let thread_name = self.name(name);
            let thread = self.child(0, thread_name);
            let frames = FrameTree::merged(profile, &names, threads).viewed(profile, &names, view);
            // The comparison's node of each frame-tree node; node 0 is the thread.
            let mut at = vec![NONE; frames.len()];
            at[0] = thread;
            frames.for_each_node(|n, parent, name, self_time| {
                let node = self.child(at[parent as usize], global[name as usize]);
                at[n as usize] = node;
                time(&mut self.tree, thread, node, frames.micros_of(profile, self_time, clock));
            });
        }
    }
}
