//! `FrameTree`: call trees merged by display name (overloads share one), the shape folded
//! lines and flame graphs are drawn from.
//!
//! Two bounds keep every product finite whatever the trace: frames deeper than a depth
//! cap merge into one named frame (a million-deep stack would otherwise give a million
//! lines of up to a million frames each), and lines are produced one at a time, already in
//! sorted order, so a product never holds more than one path in memory.

use super::sorted_walk::{walk_sorted, NamedTree};
use crate::profile::{CallTree, Clock, PerClock, Profile, ThreadProfile, NONE};
use rustc_hash::FxHashMap;

/// Stacks deeper than this are merged below it by default. No real Java or atrace stack
/// comes near; a graph of more frames than this is unreadable anyway.
pub const DEFAULT_MAX_DEPTH: usize = 1024;

/// Frame names made safe for folded text (no `;`, no line breaks), each spelled once:
/// frames that the same text names share an id, so their stacks merge. The last name is
/// the frame that stands for everything below the depth cap.
pub(crate) struct FrameNames {
    names: Vec<String>,
    /// Index into `Profile::frame_names` -> index into `names`.
    pub(super) of_frame: Vec<u32>,
    merged: u32,
    /// Frames deeper than this are drawn as the `merged` frame.
    max_depth: usize,
}

impl FrameNames {
    pub fn of(profile: &Profile, max_depth: usize) -> FrameNames {
        let max_depth = max_depth.max(1);
        let mut names: Vec<String> = Vec::with_capacity(profile.frame_names.len() + 1);
        let mut seen: FxHashMap<String, u32> = FxHashMap::default();
        let mut id_of = |name: String, names: &mut Vec<String>| {
            *seen.entry(name).or_insert_with_key(|name| {
                names.push(name.clone());
                names.len() as u32 - 1
            })
        };
        let of_frame = profile.frame_names.iter().map(|f| id_of(sanitize(f), &mut names)).collect();
        let merged = id_of(format!("[frames below depth {max_depth}, merged]"), &mut names);
        FrameNames { names, of_frame, merged, max_depth }
    }

    /// Adds `name` unless it is there already (a frame a transform makes).
    pub(super) fn add(&mut self, name: String) {
        if self.id_of(&name).is_none() {
            self.names.push(name);
        }
    }

    pub fn name(&self, id: u32) -> &str {
        &self.names[id as usize]
    }

    /// The id of the frame named `name`, if any frame is (a transform names frames so).
    pub fn id_of(&self, name: &str) -> Option<u32> {
        self.names.iter().position(|n| n == name).map(|i| i as u32)
    }

    /// The id of the frame a person names `name`: as folded stacks print it, as the trace
    /// spells it (before `sanitize`), or as a flame graph shows it, where inferno draws
    /// `f_[k]` (a kernel function; `_[w]`, `_[i]`, `_[j]` alike) as `f`. The name as printed
    /// wins.
    pub fn id_of_named(&self, name: &str) -> Option<u32> {
        self.id_of(name)
            .or_else(|| self.id_of(&sanitize(name)))
            .or_else(|| GRAPH_MARKS.iter().find_map(|mark| self.id_of(&format!("{name}{mark}"))))
    }

    /// Names, the merged frame's included: ids run from 0 to this.
    pub fn len(&self) -> usize {
        self.names.len()
    }
}

/// What a frame whose name is blank is called.
const BLANK_NAME: &str = "[blank name]";

/// The marks at the end of a frame's name that inferno colours by and leaves out of its
/// graph's labels and tooltips.
const GRAPH_MARKS: [&str; 4] = ["_[k]", "_[w]", "_[i]", "_[j]"];

/// Folded text cannot hold `;` inside a frame or a line break; replace them.
/// Folded text (and inferno, which reads it) has two more traps, each closed with a
/// no-break space, which looks the same:
/// - a line that begins `# ` is a comment: a frame named `#`, or `# …`, would vanish at the
///   start of one;
/// - a line's last word that is a number is a count, and the one before it too where it is
///   one (a differential graph's two columns): a last frame such as `Launcher: 0` or
///   `doFrame 1234` would lose its number and turn the graph differential.
///
/// A name of nothing but blanks (lines are trimmed: a stack of it is empty) is
/// `[blank name]`.
pub(crate) fn sanitize(name: &str) -> String {
    // Each test looks at one end first: every graph names every frame again.
    let starts_blank = name.as_bytes().first().is_none_or(|b| b.is_ascii_whitespace() || *b >= 0x80);
    if starts_blank && name.trim().is_empty() {
        return BLANK_NAME.to_owned();
    }
    let mut name = if name.contains([';', '\n', '\r']) {
        name.replace(';', ":").replace(['\n', '\r'], " ")
    } else {
        name.to_owned()
    };
    if name == "#" {
        name.push('\u{a0}');
    } else if name.starts_with("# ") {
        name.replace_range(1..2, "\u{a0}");
    }
    // The last word, read back from the end only as far as it is digits and dots.
    if !matches!(name.as_bytes().last(), Some(b'0'..=b'9' | b'.')) {
        return name;
    }
    let bytes = name.as_bytes();
    let word = bytes.iter().rev().take_while(|b| b.is_ascii_digit() || **b == b'.').count();
    let space = bytes.len() - word;
    let number = &name[space..];
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let is_number = match number.split_once('.') {
        Some((whole, part)) => !part.contains('.') && (digits(whole) || digits(part)),
        None => digits(number),
    };
    if is_number && space > 0 && bytes[space - 1] == b' ' {
        name.replace_range(space - 1..space, "\u{a0}");
    }
    name
}

pub(super) struct FrameNode {
    pub name: u32,
    pub first_child: u32,
    pub next_sibling: u32,
    /// Self time, in ticks (whole µs in a transformed tree).
    pub self_time: PerClock,
    /// Calls that ended on this stack (of its own frame: a call merged into another
    /// frame's node by a transform does not count there); or, counted per stack
    /// (`FrameTree::per_stack`), the samples or allocations whose stack ends here, which
    /// go wherever the stack goes, as self time does.
    pub calls: u64,
}

pub(crate) struct FrameTree {
    /// Node 0 stands for the thread; a parent always comes before its children.
    pub(super) nodes: Vec<FrameNode>,
    /// Times are whole µs, each stack's cut to whole µs before stacks were merged (a
    /// transformed tree: transforms are defined on folded stacks), not ticks.
    pub(super) micros: bool,
    /// The counts are samples or allocations, one per stack (`Count::per_stack`).
    pub(super) per_stack: bool,
}

impl FrameTree {
    /// The trees of `threads` merged into one (logical threads that share a label),
    /// with frames deeper than `names`' depth merged into its merged frame.
    pub fn merged(profile: &Profile, names: &FrameNames, threads: &[&ThreadProfile]) -> FrameTree {
        let mut tree = FrameTree::empty(profile.count().per_stack());
        let mut index: FxHashMap<(u32, u32), u32> = FxHashMap::default();
        for thread in threads {
            tree.merge_in(profile, names, thread, &mut index);
        }
        tree
    }

    /// One thread's tree, and the node each node of its `CallTree` became.
    pub fn of_thread(profile: &Profile, names: &FrameNames, thread: &ThreadProfile) -> (FrameTree, Vec<u32>) {
        let mut tree = FrameTree::empty(profile.count().per_stack());
        let placed = tree.merge_in(profile, names, thread, &mut FxHashMap::default());
        (tree, placed)
    }

    fn empty(per_stack: bool) -> FrameTree {
        let root = FrameNode { name: NONE, first_child: NONE, next_sibling: NONE, self_time: PerClock::ZERO, calls: 0 };
        FrameTree { nodes: vec![root], micros: false, per_stack }
    }

    /// The frame `name` below `parent`, made if it is not there (children found by
    /// `(parent, name)` in `index`).
    pub(super) fn child(&mut self, parent: u32, name: u32, index: &mut FxHashMap<(u32, u32), u32>) -> u32 {
        let next = self.nodes.len() as u32;
        let at = *index.entry((parent, name)).or_insert(next);
        if at == next {
            let sibling = self.nodes[parent as usize].first_child;
            let self_time = PerClock::ZERO;
            self.nodes.push(FrameNode { name, first_child: NONE, next_sibling: sibling, self_time, calls: 0 });
            self.nodes[parent as usize].first_child = at;
        }
        at
    }

    /// Adds `thread`'s tree into this one: the node each of its nodes went to.
    fn merge_in(
        &mut self,
        profile: &Profile,
        names: &FrameNames,
        thread: &ThreadProfile,
        index: &mut FxHashMap<(u32, u32), u32>,
    ) -> Vec<u32> {
        let max_depth = names.max_depth;
        let tree = &thread.tree;
        let mut merged = vec![0u32; tree.len()];
        // Pre-order, so a node's parent is always placed before it.
        tree.walk(|n, depth| {
            let node = tree.node(n);
            let parent = if node.parent == CallTree::ROOT { 0 } else { merged[node.parent as usize] };
            let at = if depth > max_depth + 1 {
                parent
            } else {
                let name = if depth > max_depth {
                    names.merged
                } else {
                    names.of_frame[profile.frame_name_of[node.frame as usize] as usize]
                };
                self.child(parent, name, index)
            };
            self.nodes[at as usize].self_time.add(node.self_time);
            self.nodes[at as usize].calls += node.calls;
            merged[n as usize] = at;
        });
        merged
    }

    /// A node's time on `clock` in whole µs.
    fn node_micros(&self, profile: &Profile, node: &FrameNode, clock: Clock) -> u64 {
        if self.micros {
            node.self_time[clock]
        } else {
            profile.micros(node.self_time[clock])
        }
    }

    /// Calls `visit(node, parent, name, self_ticks)` for every node but the thread's (node
    /// 0), each after its parent.
    pub fn for_each_node(&self, mut visit: impl FnMut(u32, u32, u32, PerClock)) {
        let mut pending: Vec<u32> = Vec::new();
        let mut child = self.nodes[0].first_child;
        while child != NONE {
            pending.push(child);
            child = self.nodes[child as usize].next_sibling;
        }
        let mut parent_of = vec![0u32; self.nodes.len()];
        while let Some(n) = pending.pop() {
            let node = &self.nodes[n as usize];
            visit(n, parent_of[n as usize], node.name, node.self_time);
            let mut child = node.first_child;
            while child != NONE {
                parent_of[child as usize] = n;
                pending.push(child);
                child = self.nodes[child as usize].next_sibling;
            }
        }
    }

    /// The sum of the folded values on `clock`.
    pub fn total_micros(&self, profile: &Profile, clock: Clock) -> u64 {
        self.nodes.iter().fold(0, |sum: u64, n| sum.saturating_add(self.node_micros(profile, n, clock)))
    }

    /// Calls `line(path, micros)` for every stack worth at least 1 µs, in the byte order of
    /// the lines (as a sort of the finished text would give). `prefix` starts every path
    /// (a thread frame). A frame worth less than `prune_below` µs inclusive is left out with
    /// its subtree, its time added to its parent's line: what a graph too narrow to show it
    /// needs, with every drawn frame's width unchanged. Without a prefix, top-level frames
    /// are always kept: there is no parent line to give their time to.
    pub fn for_each_stack<E>(
        &self,
        profile: &Profile,
        names: &FrameNames,
        clock: Clock,
        prefix: Option<&str>,
        prune_below: u64,
        mut line: impl FnMut(&str, u64) -> Result<(), E>,
    ) -> Result<(), E> {
        let own: Vec<u64> = self.nodes.iter().map(|n| self.node_micros(profile, n, clock)).collect();
        // Inclusive µs: children come after their parents, so one backward pass sums them.
        let mut incl = own.clone();
        for n in (1..self.nodes.len()).rev() {
            let mut child = self.nodes[n].first_child;
            while child != NONE {
                incl[n] = incl[n].saturating_add(incl[child as usize]);
                child = self.nodes[child as usize].next_sibling;
            }
        }
        // Children of `n` narrower than this are left out.
        let threshold = |n: u32| if n == 0 && prefix.is_none() { 1 } else { prune_below.max(1) };
        let kept = |parent: u32, n: u32| incl[n as usize] >= threshold(parent);
        // A node's line value: its own time plus that of the children too narrow to keep.
        let value = |n: u32| {
            let mut v = own[n as usize];
            let mut child = self.nodes[n as usize].first_child;
            while child != NONE {
                if !kept(n, child) {
                    v = v.saturating_add(incl[child as usize]);
                }
                child = self.nodes[child as usize].next_sibling;
            }
            v
        };
        if let Some(prefix) = prefix {
            // The thread frame's own line (time of top-level frames left out) sorts first.
            let v = value(0);
            if v > 0 {
                line(prefix, v)?;
            }
        }
        let named = Named { tree: self, names };
        walk_sorted(&named, 0, prefix, kept, |path, node| {
            let v = value(node);
            if v > 0 {
                line(path, v)?;
            }
            Ok(())
        })
    }

    /// Frames in the tree.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// A node's self time (as `for_each_node` gives it) on `clock`, in whole µs.
    pub fn micros_of(&self, profile: &Profile, self_time: PerClock, clock: Clock) -> u64 {
        if self.micros {
            self_time[clock]
        } else {
            profile.micros(self_time[clock])
        }
    }
}

/// A frame tree with its names, for the sorted walk.
struct Named<'a> {
    tree: &'a FrameTree,
    names: &'a FrameNames,
}

impl NamedTree for Named<'_> {
    fn first_child(&self, n: u32) -> u32 {
        self.tree.nodes[n as usize].first_child
    }

    fn next_sibling(&self, n: u32) -> u32 {
        self.tree.nodes[n as usize].next_sibling
    }

    fn name(&self, n: u32) -> &str {
        self.names.name(self.tree.nodes[n as usize].name)
    }
}

#[cfg(test)]
mod tests {
    use super::sanitize;

    #[test]
    fn no_frame_makes_a_line_of_folded_text_a_comment() {
        assert_eq!(sanitize("#"), "#\u{a0}");
        assert_eq!(sanitize("# draw"), "#\u{a0}draw");
        assert_eq!(sanitize("Launcher: 0"), "Launcher:\u{a0}0");
        assert_eq!(sanitize("Choreographer#doFrame 2391712"), "Choreographer#doFrame\u{a0}2391712");
        assert_eq!(sanitize("scale 1.5"), "scale\u{a0}1.5");
        assert_eq!(sanitize("draw v2"), "draw v2", "a word that is no number stays");
        assert_eq!(sanitize(" "), "[blank name]");
        assert_eq!(sanitize(""), "[blank name]");
        assert_eq!(sanitize("#draw"), "#draw", "only `# ` begins a comment");
        assert_eq!(sanitize("Choreographer#doFrame"), "Choreographer#doFrame");
        assert_eq!(sanitize("a;b\nc"), "a:b c");
        for name in ["#", "# x", "#;y"] {
            assert!(!format!("{} 1", sanitize(name)).starts_with("# "), "{name}");
        }
        // Before the count, inferno finds no second number.
        for name in ["a 1", "b 2.5", "c 1 2", "x y 3"] {
            let line = format!("{} 7", sanitize(name));
            let before = &line[..line.rfind(' ').unwrap()];
            let word = before.rsplit(' ').next().unwrap();
            assert!(before == word || !word.bytes().all(|b| b.is_ascii_digit() || b == b'.'), "{name}: {line}");
        }
    }
}
