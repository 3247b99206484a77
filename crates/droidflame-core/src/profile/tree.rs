//! `CallTree`: one node per unique stack (path of frames from the thread's root), with
//! call counts and inclusive/self time on both clocks. Memory grows with unique
//! stacks, never with the number of records.

use super::clock::{Clock, PerClock};
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use std::collections::hash_map::Entry;

/// Marks "no node" in the intrusive child/sibling links.
pub const NONE: u32 = u32::MAX;

/// One unique stack. Times are raw trace ticks; `Profile` knows the unit.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Node {
    /// The node of the stack one frame shorter (`NONE` for the root).
    pub parent: u32,
    /// Index into `Profile::frames` (a builder slot until the profile is finished).
    pub frame: u32,
    /// The first child, `NONE` if none; the rest follow through `next_sibling`.
    pub first_child: u32,
    /// The next child of the same parent, `NONE` after the last.
    pub next_sibling: u32,
    /// What the source counts (`Count`): calls that ended on this stack, or the samples or
    /// allocations whose stack this is.
    pub calls: u64,
    /// Inclusive time.
    pub incl: PerClock,
    /// Self time = inclusive minus the children's inclusive; filled in by `finish`.
    pub self_time: PerClock,
    /// The child entered last from here, as `(frame, node)`: calls repeat, and this
    /// spares the hash lookup for them.
    hint: (u32, u32),
}

impl Node {
    /// A node without children or values, before sibling `next_sibling`.
    fn leaf(parent: u32, frame: u32, next_sibling: u32) -> Node {
        Node {
            parent,
            frame,
            first_child: NONE,
            next_sibling,
            calls: 0,
            incl: PerClock::ZERO,
            self_time: PerClock::ZERO,
            hint: (NONE, NONE),
        }
    }
}

/// One thread's calls, merged by stack: the root stands for the thread.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CallTree {
    nodes: Vec<Node>,
}

impl CallTree {
    /// The root is a pseudo node for the thread itself; it has no frame and no calls.
    pub const ROOT: u32 = 0;

    fn new() -> Self {
        CallTree { nodes: vec![Node::leaf(NONE, NONE, NONE)] }
    }

    /// The tree of these nodes' `(parent, frame)`, the root's first and each node after
    /// its parent, as a `TreeBuilder` would make it from them in this order; its memory is
    /// taken at once, for exactly these nodes.
    pub(crate) fn of_links(links: &[(u32, u32)]) -> CallTree {
        let mut tree = CallTree { nodes: Vec::with_capacity(links.len().max(1)) };
        tree.nodes.push(Node::leaf(NONE, NONE, NONE));
        for &(parent, frame) in links.iter().skip(1) {
            let index = tree.nodes.len() as u32;
            let first = std::mem::replace(&mut tree.nodes[parent as usize].first_child, index);
            tree.nodes.push(Node::leaf(parent, frame, first));
        }
        tree
    }

    /// Every node, the root first; a node's index is its id.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The node with id `index`.
    pub fn node(&self, index: u32) -> &Node {
        &self.nodes[index as usize]
    }

    /// Nodes, the root included.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// No call was recorded: only the root.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() == 1
    }

    /// The children of a node, newest first.
    pub fn children(&self, index: u32) -> Children<'_> {
        Children { tree: self, next: self.nodes[index as usize].first_child }
    }

    /// Visits every node except the root in depth-first pre-order, without recursion
    /// (stacks can be a million frames deep). `visit(node, depth)`; depth 1 = top frame.
    pub fn walk(&self, mut visit: impl FnMut(u32, usize)) {
        let mut stack: Vec<(u32, usize)> = self.children(Self::ROOT).map(|c| (c, 1)).collect();
        stack.reverse();
        while let Some((node, depth)) = stack.pop() {
            visit(node, depth);
            let start = stack.len();
            stack.extend(self.children(node).map(|c| (c, depth + 1)));
            stack[start..].reverse();
        }
    }

    /// How many frames every stack of the tree begins with: the depth of the chain of
    /// only children from the root (`__libc_init; main; …; Looper.loop` for an app's
    /// sampled main thread).
    pub fn shared_depth(&self) -> usize {
        let mut depth = 0;
        let mut at = Self::ROOT;
        loop {
            let mut children = self.children(at);
            match (children.next(), children.next()) {
                (Some(only), None) => {
                    at = only;
                    depth += 1;
                }
                _ => return depth,
            }
        }
    }

    /// The thread's time on one clock: the sum of every node's self time.
    pub fn total_self(&self, clock: Clock) -> u64 {
        self.nodes.iter().fold(0u64, |sum, n| sum.saturating_add(n.self_time[clock]))
    }

    /// Each node's count with those of every node below it (indexed by node): for counts
    /// per stack (`Count::per_stack`), the samples or allocations whose stack holds it.
    pub fn counts_below(&self) -> Vec<u64> {
        let mut total: Vec<u64> = self.nodes.iter().map(|n| n.calls).collect();
        let mut add = |n: usize| {
            let up = self.nodes[n].parent as usize;
            total[up] = total[up].saturating_add(total[n]);
        };
        // Parents come before their children but after a re-rooting (calls from before
        // tracing): then the order of a walk, backwards.
        if self.nodes.iter().enumerate().skip(1).all(|(i, n)| (n.parent as usize) < i) {
            (1..self.nodes.len()).rev().for_each(&mut add);
        } else {
            let mut order = Vec::with_capacity(self.nodes.len());
            self.walk(|n, _| order.push(n));
            order.iter().rev().for_each(|&n| add(n as usize));
        }
        total
    }

    /// Frames on the deepest stack.
    pub fn max_depth(&self) -> usize {
        let mut depth = vec![0usize; self.nodes.len()];
        let mut max = 0;
        // Parents are always created before their children, except after a re-rooting
        // (see `TreeBuilder::adopt_top_level`), so walk instead of scanning in order.
        self.walk(|n, d| {
            depth[n as usize] = d;
            max = max.max(d);
        });
        max
    }

    pub(crate) fn nodes_mut(&mut self) -> &mut [Node] {
        &mut self.nodes
    }
}

/// The children of one node (`CallTree::children`).
pub struct Children<'a> {
    tree: &'a CallTree,
    next: u32,
}

impl Iterator for Children<'_> {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        if self.next == NONE {
            return None;
        }
        let current = self.next;
        self.next = self.tree.nodes[current as usize].next_sibling;
        Some(current)
    }
}

/// How many more call-tree nodes may be made, across all threads; `exhausted` once one
/// more was needed.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub(crate) struct NodeBudget {
    pub left: u64,
    pub exhausted: bool,
}

/// Builds a `CallTree`; finds or creates the child of a node for a frame in O(1).
#[derive(Debug, Clone)]
pub(crate) struct TreeBuilder {
    tree: CallTree,
    index: FxHashMap<u64, u32>,
}

#[inline]
fn key(parent: u32, frame: u32) -> u64 {
    (u64::from(parent) << 32) | u64::from(frame)
}

impl TreeBuilder {
    pub fn new() -> Self {
        TreeBuilder { tree: CallTree::new(), index: FxHashMap::default() }
    }

    /// The child node of `parent` for `frame`. With the budget spent, a new child is
    /// not made and `parent` itself is returned (the analysis then stops with an error).
    #[inline(always)]
    pub fn child(&mut self, parent: u32, frame: u32, budget: &mut NodeBudget) -> u32 {
        let hint = self.tree.nodes[parent as usize].hint;
        if hint.0 == frame {
            return hint.1;
        }
        self.child_slow(parent, frame, budget)
    }

    #[inline(never)]
    fn child_slow(&mut self, parent: u32, frame: u32, budget: &mut NodeBudget) -> u32 {
        let next = self.tree.nodes.len() as u32;
        let index = match self.index.entry(key(parent, frame)) {
            Entry::Occupied(entry) => *entry.get(),
            Entry::Vacant(_) if budget.left == 0 => {
                budget.exhausted = true;
                return parent;
            }
            Entry::Vacant(entry) => {
                budget.left -= 1;
                entry.insert(next);
                self.push_node(parent, frame);
                next
            }
        };
        self.tree.nodes[parent as usize].hint = (frame, index);
        index
    }

    fn push_node(&mut self, parent: u32, frame: u32) -> u32 {
        let index = self.tree.nodes.len() as u32;
        let first = self.tree.nodes[parent as usize].first_child;
        self.tree.nodes.push(Node::leaf(parent, frame, first));
        self.tree.nodes[parent as usize].first_child = index;
        index
    }

    /// Re-roots the thread under a new top frame for `frame`: every current top-level
    /// node becomes its child. Used when a frame exits that was already running when
    /// tracing began: it was below everything recorded so far.
    pub fn adopt_top_level(&mut self, frame: u32) -> u32 {
        let root = CallTree::ROOT;
        // Hints of the root no longer hold: its children move.
        self.tree.nodes[root as usize].hint = (NONE, NONE);
        let adopted = std::mem::replace(&mut self.tree.nodes[root as usize].first_child, NONE);
        let mut child = adopted;
        while child != NONE {
            let node = &self.tree.nodes[child as usize];
            self.index.remove(&key(root, node.frame));
            child = node.next_sibling;
        }
        let top = self.push_node(root, frame);
        self.index.insert(key(root, frame), top);
        self.tree.nodes[top as usize].first_child = adopted;
        let mut child = adopted;
        while child != NONE {
            let node = &mut self.tree.nodes[child as usize];
            node.parent = top;
            self.index.insert(key(top, node.frame), child);
            child = node.next_sibling;
        }
        top
    }

    #[inline]
    pub fn node_mut(&mut self, index: u32) -> &mut Node {
        &mut self.tree.nodes[index as usize]
    }

    pub fn into_tree(self) -> CallTree {
        self.tree
    }
}

/// A tree sent elsewhere (a piece read on another worker) goes as its nodes; the index is
/// made again from them: it holds every node but the root by its parent and frame.
impl Serialize for TreeBuilder {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.tree.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for TreeBuilder {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let tree = CallTree::deserialize(deserializer)?;
        if tree.nodes.is_empty() {
            return Err(serde::de::Error::custom("a call tree without its root"));
        }
        let index = tree.nodes.iter().enumerate().skip(1).map(|(i, n)| (key(n.parent, n.frame), i as u32)).collect();
        Ok(TreeBuilder { tree, index })
    }
}

impl TreeBuilder {
    pub fn nodes(&self) -> &[Node] {
        &self.tree.nodes
    }
}
