//! `FrameTree`: a thread's call tree merged by frame name (overloads, and methods that
//! several ids name, share a frame). Folded lines and flame graphs are its paths; building
//! it once keeps string work to one path per line, and totals need no strings at all.

use crate::profile::{CallTree, Clock, Profile, ThreadProfile, NONE};
use rustc_hash::FxHashMap;

struct FrameNode {
    frame: u32,
    first_child: u32,
    next_sibling: u32,
    self_time: [u64; 2],
}

pub(crate) struct FrameTree {
    /// Node 0 is the thread itself.
    nodes: Vec<FrameNode>,
}

impl FrameTree {
    pub fn of(profile: &Profile, thread: &ThreadProfile) -> FrameTree {
        let tree = &thread.tree;
        let mut nodes = vec![FrameNode { frame: NONE, first_child: NONE, next_sibling: NONE, self_time: [0; 2] }];
        let mut index: FxHashMap<(u32, u32), u32> = FxHashMap::default();
        let mut merged = vec![0u32; tree.len()];
        // Pre-order, so a node's parent is always merged before it.
        tree.walk(|n, _| {
            let node = tree.node(n);
            let parent = if node.parent == CallTree::ROOT { 0 } else { merged[node.parent as usize] };
            let frame = profile.frame_of[node.method as usize];
            let next = nodes.len() as u32;
            let at = *index.entry((parent, frame)).or_insert(next);
            if at == next {
                let sibling = nodes[parent as usize].first_child;
                nodes.push(FrameNode { frame, first_child: NONE, next_sibling: sibling, self_time: [0; 2] });
                nodes[parent as usize].first_child = at;
            }
            let target = &mut nodes[at as usize].self_time;
            target[0] = target[0].saturating_add(node.self_time[0]);
            target[1] = target[1].saturating_add(node.self_time[1]);
            merged[n as usize] = at;
        });
        FrameTree { nodes }
    }

    /// The sum of this thread's folded values on `clock`.
    pub fn total_micros(&self, profile: &Profile, clock: Clock) -> u64 {
        let slot = clock.slot();
        self.nodes.iter().skip(1).fold(0, |sum: u64, n| sum.saturating_add(profile.micros(n.self_time[slot])))
    }

    /// `(frames joined by ';', self µs)` for every stack worth at least 1 µs, sorted.
    /// `frames` are the profile's frame names, already made safe for folded text.
    pub fn stacks(&self, profile: &Profile, frames: &[String], clock: Clock) -> Vec<(String, u64)> {
        let slot = clock.slot();
        let mut out = Vec::new();
        let mut path = String::new();
        // (node, length of `path` before this node's frame)
        let mut stack: Vec<(u32, usize)> = Vec::new();
        let mut child = self.nodes[0].first_child;
        while child != NONE {
            stack.push((child, 0));
            child = self.nodes[child as usize].next_sibling;
        }
        while let Some((n, start)) = stack.pop() {
            let node = &self.nodes[n as usize];
            path.truncate(start);
            if start > 0 {
                path.push(';');
            }
            path.push_str(&frames[node.frame as usize]);
            let micros = profile.micros(node.self_time[slot]);
            if micros > 0 {
                out.push((path.clone(), micros));
            }
            let end = path.len();
            let mut child = node.first_child;
            while child != NONE {
                stack.push((child, end));
                child = self.nodes[child as usize].next_sibling;
            }
        }
        out.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        out
    }
}
