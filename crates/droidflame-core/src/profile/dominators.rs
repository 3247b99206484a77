//! Dominators of a graph with millions of nodes: the semi-NCA algorithm (semidominators by
//! path compression, then each immediate dominator as the nearest common ancestor in the
//! depth-first tree), near-linear and without recursion, so that no dump's depth can
//! overflow a stack. The heap graph's retained sizes are read off the tree it gives.

/// No node: the dominator of an unreachable node, and an empty link.
pub(crate) const NONE: u32 = u32::MAX;

/// A graph as the dominator tree reads it: nodes `0..nodes()`, each with a range of edge
/// numbers, of which some lead nowhere (a view that leaves edges out, without copying).
pub(crate) trait Graph {
    fn nodes(&self) -> usize;
    /// The numbers of node `v`'s edges.
    fn edges(&self, v: u32) -> std::ops::Range<usize>;
    /// Where edge `e` leads; `None`: the view leaves it out.
    fn target(&self, e: usize) -> Option<u32>;
}

/// Adjacency lists of `n` nodes from `(from, to)` pairs: `to`s in the order given, by
/// `from` (the pairs are read twice: once to count, once to place).
pub(crate) fn adjacency(n: usize, pairs: impl Iterator<Item = (u32, u32)> + Clone) -> (Vec<u32>, Vec<u32>) {
    let mut first = vec![0u32; n + 1];
    pairs.clone().for_each(|(from, _)| first[from as usize + 1] += 1);
    for i in 0..n {
        first[i + 1] += first[i];
    }
    let mut fill = first.clone();
    let mut targets = vec![0u32; first[n] as usize];
    for (from, to) in pairs {
        let at = &mut fill[from as usize];
        targets[*at as usize] = to;
        *at += 1;
    }
    (first, targets)
}

/// The dominator tree of the nodes reachable from a root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DominatorTree {
    /// The reachable nodes in depth-first preorder, the root first (successors in their
    /// order): a node's dominators all come before it.
    pub order: Vec<u32>,
    /// Each node's immediate dominator; the root's is itself, an unreachable node's `NONE`.
    pub idom: Vec<u32>,
}

impl DominatorTree {
    /// The tree of `graph` from `root`.
    pub(crate) fn of(graph: &impl Graph, root: u32) -> DominatorTree {
        let n = graph.nodes();
        // Depth-first preorder: `pre[v]` is v's number, `order[i]` the node numbered i, and
        // `parent[i]` the number of its parent in the depth-first tree.
        let mut pre = vec![NONE; n];
        let mut order = Vec::new();
        let mut parent: Vec<u32> = Vec::new();
        // Edge numbers fit in `u32` (adjacency lists begin at `u32`s); a stack as deep as a
        // chain of every node stays small.
        let mut stack: Vec<(u32, u32)> = vec![(root, graph.edges(root).start as u32)];
        pre[root as usize] = 0;
        order.push(root);
        parent.push(0);
        while let Some(&mut (v, ref mut next)) = stack.last_mut() {
            if *next as usize == graph.edges(v).end {
                stack.pop();
                continue;
            }
            let e = *next as usize;
            *next += 1;
            let Some(w) = graph.target(e) else { continue };
            if pre[w as usize] == NONE {
                pre[w as usize] = order.len() as u32;
                parent.push(pre[v as usize]);
                order.push(w);
                stack.push((w, graph.edges(w).start as u32));
            }
        }
        let m = order.len();
        // Predecessors of each reachable node, by number.
        let number = &pre;
        let arcs = order.iter().enumerate().flat_map(|(i, &v)| {
            graph.edges(v).filter_map(move |e| Some((number[graph.target(e)? as usize], i as u32)))
        });
        let (pred_first, preds) = adjacency(m, arcs);
        // Semidominators, by number, in reverse preorder, through a forest of the nodes
        // done so far (`ancestor`) whose paths are compressed as they are walked.
        let mut semi: Vec<u32> = (0..m as u32).collect();
        let mut label: Vec<u32> = (0..m as u32).collect();
        // The forest takes the numbering's memory, which is not read again.
        let mut ancestor = pre;
        ancestor.truncate(m);
        ancestor.fill(NONE);
        let mut path = Vec::new();
        for w in (1..m).rev() {
            for &v in &preds[pred_first[w] as usize..pred_first[w + 1] as usize] {
                let u = eval(v, &mut ancestor, &mut label, &semi, &mut path);
                semi[w] = semi[w].min(semi[u as usize]);
            }
            ancestor[w] = parent[w];
        }
        // Each immediate dominator: the nearest ancestor of the depth-first parent whose
        // number is at most the semidominator's.
        // What is done with is let go before more is taken: the peak of a dump's reading.
        drop((preds, pred_first, label));
        let mut idom_pre = parent;
        for w in 1..m {
            while idom_pre[w] > semi[w] {
                idom_pre[w] = idom_pre[idom_pre[w] as usize];
            }
        }
        drop(semi);
        let mut idom = ancestor;
        idom.clear();
        idom.resize(n, NONE);
        for (i, &v) in order.iter().enumerate() {
            idom[v as usize] = order[idom_pre[i] as usize];
        }
        DominatorTree { order, idom }
    }

    /// Each node's retained size: its own size and that of every node it dominates
    /// (0 for a node the root does not reach).
    pub(crate) fn retained(&self, size: impl Fn(u32) -> u64) -> Vec<u64> {
        let mut retained = vec![0u64; self.idom.len()];
        for &v in &self.order {
            retained[v as usize] = size(v);
        }
        // A node's dominated nodes all come after it in preorder.
        for &v in self.order.iter().skip(1).rev() {
            let d = self.idom[v as usize] as usize;
            retained[d] += retained[v as usize];
        }
        retained
    }
}

/// The node of least semidominator on the forest path from `v` up to (not including) its
/// tree's root; `v` itself when it is a root. The path is compressed on the way, without
/// recursion.
fn eval(v: u32, ancestor: &mut [u32], label: &mut [u32], semi: &[u32], path: &mut Vec<u32>) -> u32 {
    if ancestor[v as usize] == NONE {
        return v;
    }
    path.clear();
    let mut x = v;
    while ancestor[ancestor[x as usize] as usize] != NONE {
        path.push(x);
        x = ancestor[x as usize];
    }
    // From the top down: each node takes its ancestor's label if that one's is better,
    // and links straight to the tree's root.
    for &x in path.iter().rev() {
        let a = ancestor[x as usize] as usize;
        if semi[label[a] as usize] < semi[label[x as usize] as usize] {
            label[x as usize] = label[a];
        }
        ancestor[x as usize] = ancestor[a];
    }
    label[v as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A graph as adjacency lists: node `v`'s successors are `targets[first[v]..first[v + 1]]`.
    #[derive(Debug, Clone, Copy)]
    struct Edges<'a> {
        first: &'a [u32],
        targets: &'a [u32],
    }

    impl Graph for Edges<'_> {
        fn nodes(&self) -> usize {
            self.first.len() - 1
        }

        fn edges(&self, v: u32) -> std::ops::Range<usize> {
            self.first[v as usize] as usize..self.first[v as usize + 1] as usize
        }

        fn target(&self, e: usize) -> Option<u32> {
            Some(self.targets[e])
        }
    }

    fn lists(n: usize, edges: &[(u32, u32)]) -> (Vec<u32>, Vec<u32>) {
        adjacency(n, edges.iter().copied())
    }

    /// Immediate dominators by definition: d dominates v when v cannot be reached from
    /// the root without d; the immediate one is the strict dominator that all others
    /// dominate (the one with the most dominators itself).
    fn by_definition(n: usize, edges: &[(u32, u32)], root: u32) -> Vec<u32> {
        let reach = |without: u32| {
            let mut seen = vec![false; n];
            let mut stack = vec![root];
            seen[root as usize] = root != without;
            if root == without {
                return seen;
            }
            while let Some(v) = stack.pop() {
                for &(a, b) in edges {
                    if a == v && b != without && !seen[b as usize] {
                        seen[b as usize] = true;
                        stack.push(b);
                    }
                }
            }
            seen
        };
        let reachable = reach(NONE);
        let dominated: Vec<Vec<bool>> = (0..n as u32).map(reach).collect();
        let dominators = |v: usize| -> Vec<u32> {
            (0..n as u32).filter(|&d| d as usize != v && reachable[v] && !dominated[d as usize][v]).collect()
        };
        (0..n)
            .map(|v| match v as u32 == root {
                true => root,
                false if !reachable[v] => NONE,
                false => dominators(v).into_iter().max_by_key(|&d| dominators(d as usize).len()).expect("the root"),
            })
            .collect()
    }

    #[test]
    fn immediate_dominators_are_those_of_the_definition_on_random_graphs() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move |below: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % below
        };
        for round in 0..300 {
            let n = 1 + next(40) as usize;
            let edge_count = next(3 * n as u64 + 1) as usize;
            let edges: Vec<(u32, u32)> =
                (0..edge_count).map(|_| (next(n as u64) as u32, next(n as u64) as u32)).collect();
            let root = next(n as u64) as u32;
            let (first, targets) = lists(n, &edges);
            let tree = DominatorTree::of(&Edges { first: &first, targets: &targets }, root);
            assert_eq!(tree.idom, by_definition(n, &edges, root), "round {round}: {n} nodes, root {root}, {edges:?}");
            assert_eq!(tree.order[0], root);
            for (i, &v) in tree.order.iter().enumerate().skip(1) {
                let d = tree.idom[v as usize];
                assert!(tree.order[..i].contains(&d), "a dominator comes first in preorder");
            }
        }
    }

    #[test]
    fn retained_sizes_sum_what_each_node_dominates() {
        // 0 -> 1 -> 2, 0 -> 3 -> 2: 2 is dominated by 0 alone; 1 and 3 keep only themselves.
        // 3 -> 4 -> 5: 3 retains 4 and 5. 6 is not reachable.
        let (first, targets) = lists(7, &[(0, 1), (1, 2), (0, 3), (3, 2), (3, 4), (4, 5), (6, 0)]);
        let tree = DominatorTree::of(&Edges { first: &first, targets: &targets }, 0);
        assert_eq!(tree.idom, [0, 0, 0, 0, 3, 4, NONE]);
        let sizes = [1, 10, 100, 1_000, 10_000, 100_000, 7];
        let retained = tree.retained(|v| sizes[v as usize]);
        assert_eq!(retained, [111_111, 10, 100, 111_000, 110_000, 100_000, 0]);
    }

    #[test]
    fn a_chain_of_a_million_nodes_needs_no_deep_stack() {
        let n = 1_000_000u32;
        let first: Vec<u32> = (0..=n).map(|v| v.min(n - 1)).collect();
        let targets: Vec<u32> = (1..n).collect();
        let tree = DominatorTree::of(&Edges { first: &first, targets: &targets }, 0);
        assert_eq!(tree.order.len(), n as usize);
        assert_eq!(tree.idom[n as usize - 1], n - 2);
        assert_eq!(tree.retained(|_| 1)[0], u64::from(n));
    }
}
