//! Transforms: a view's ordered stack of changes to its stacks (merge a function, focus on
//! one, drop one, collapse recursion), and the inverted (bottom-up) tree. They are defined
//! on folded stacks, root first, the thread frame never transformed: each applies in turn,
//! then equal stacks merge, their values added. So they apply here to the frame tree the
//! stack products are drawn from, after each stack's value is cut to whole µs, and every
//! stack product (folded stacks, trees, flame graphs, comparisons) reads the result.

use super::frames::{FrameNames, FrameNode, FrameTree};
use crate::error::{Error, ErrorKind, Result};
use crate::profile::{Clock, FrameKind, PerClock, Profile, KERNEL_MARK, NONE};
use rustc_hash::FxHashMap;

/// One change to a view's stacks. Frames are named as folded stacks name them (or as a
/// flame graph shows them: a kernel function without its `_[k]`). In JSON
/// (the page's view state): `{"merge": "a.B.c"}`, `{"focus_subtree": ["a.B.c", "d.E.f"]}`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Transform {
    /// Every frame of this name is taken out of every stack; its time goes to its caller.
    Merge(String),
    /// Only stacks through a frame of this name, each cut to begin at its outermost one.
    Focus(String),
    /// Only stacks that begin with this path of frames (root first), each cut to begin at
    /// the path's last frame.
    FocusSubtree(Vec<String>),
    /// Only stacks through a frame of this name, each cut to end at its outermost one:
    /// inverted, the callers' half of a sandwich (the callees' half is `Focus`).
    CallersOf(String),
    /// Stacks through a frame of this name are left out.
    Drop(String),
    /// In each stack, everything after the outermost frame of this name up to and
    /// including its innermost one is taken out (`A;F;B;F;C` becomes `A;F;C`).
    CollapseRecursion(String),
    /// Runs of this frame calling itself directly become one frame (`F;F;F` becomes `F`;
    /// `F;B;F` stays).
    CollapseDirectRecursion(String),
    /// Frames whose names begin with this (a package such as `android.`) become one frame
    /// named after it (`android.*`) wherever they call each other in a run.
    CollapsePackage(String),
    /// Frames of this library (its file name, `libc.so`, or `[kernel.kallsyms]`) become one
    /// frame named after it wherever they call each other in a run. Only sampled functions
    /// are in a library: a method's source is its Java source file.
    CollapseLibrary(String),
    /// Every frame of this kind of code is taken out of every stack, its time going to its
    /// caller (as `Merge` takes out one): `{"hide": "kernel"}`.
    Hide(Code),
}

/// Kinds of code a view can hide.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Code {
    /// The kernel's functions (a sampled stack's `_[k]` frames): every sample taken in a
    /// system call or at a scheduler event ends in them.
    Kernel,
    /// Functions of native libraries (`*.so`): what is left is Java and Kotlin code (and the
    /// kernel's, unless hidden too).
    Native,
}

impl Code {
    /// Every kind, in the order the page offers them.
    pub const ALL: [Code; 2] = [Code::Kernel, Code::Native];

    /// Its name in JSON and on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Code::Kernel => "kernel",
            Code::Native => "native",
        }
    }
}

impl Transform {
    /// The name of the frame it makes, where it makes one.
    pub(crate) fn made_name(&self) -> Option<String> {
        match self {
            Transform::CollapsePackage(prefix) => Some(format!("{prefix}*")),
            Transform::CollapseLibrary(library) => Some(library.clone()),
            _ => None,
        }
    }

    /// The frame names it refers to (none for a collapse, which names code, not frames).
    fn names(&self) -> &[String] {
        match self {
            Transform::CollapsePackage(_) | Transform::CollapseLibrary(_) | Transform::Hide(_) => &[],
            Transform::Merge(f)
            | Transform::Focus(f)
            | Transform::CallersOf(f)
            | Transform::Drop(f)
            | Transform::CollapseRecursion(f)
            | Transform::CollapseDirectRecursion(f) => std::slice::from_ref(f),
            Transform::FocusSubtree(path) => path,
        }
    }
}

/// How a view shows its stacks: the transforms in order, then optionally inverted. In JSON:
/// `{"transforms": [...], "invert": false}`, both keys optional.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct View {
    /// Applied in this order.
    pub transforms: Vec<Transform>,
    /// Each stack reversed (leaf first) after the transforms: the bottom-up tree.
    pub invert: bool,
}

impl View {
    /// The view a JSON text describes (`{"transforms": [...], "invert": bool}`), or why the
    /// text is none: views come from the page's address, which anyone can write.
    pub fn from_json(text: &str) -> Result<View> {
        serde_json::from_str(text)
            .map_err(|e| Error::new(ErrorKind::Request, format!("this view cannot be read ({e}); it is left out")))
    }

    /// Shows the stacks as they are.
    pub fn is_plain(&self) -> bool {
        self.transforms.is_empty() && !self.invert
    }

    /// Checks that every frame the transforms name is in `profile`, or says which is not.
    pub fn check(&self, profile: &Profile) -> Result<()> {
        if self.transforms.is_empty() {
            return Ok(());
        }
        // The names the products print, the frame that stands for stacks below the depth
        // cap included.
        let names = FrameNames::of(profile, super::frames::DEFAULT_MAX_DEPTH);
        for transform in &self.transforms {
            if let Transform::Hide(code) = transform {
                if !in_code(profile, &names, *code).contains(&true) {
                    return Err(Error::new(
                        ErrorKind::Request,
                        format!("no frame of this trace is {} code", code.name()),
                    ));
                }
            }
            let collapses = match transform {
                Transform::CollapsePackage(prefix) => Some(in_package(&names, prefix)),
                Transform::CollapseLibrary(library) => Some(in_library(profile, &names, library)),
                _ => None,
            };
            if collapses.is_some_and(|frames| !frames.contains(&true)) {
                return Err(Error::new(
                    ErrorKind::Request,
                    format!("no frame of this trace is in {:?}", transform.made_name().unwrap_or_default()),
                ));
            }
            for name in transform.names() {
                if names.id_of_named(name).is_none() {
                    return Err(Error::new(ErrorKind::Request, format!("no frame is named {name:?} in this trace")));
                }
            }
        }
        Ok(())
    }
}

/// The transforms of `view` with their frame names as ids.
fn steps(profile: &Profile, names: &FrameNames, view: &View) -> Vec<Step> {
    let id = |name: &String| names.id_of_named(name).unwrap_or(NONE);
    let made = |transform: &Transform| id(&transform.made_name().unwrap_or_default());
    view.transforms
        .iter()
        .map(|transform| match transform {
            Transform::Merge(f) => Step::Merge(id(f)),
            Transform::Focus(f) => Step::Focus(id(f)),
            Transform::FocusSubtree(path) => Step::FocusSubtree(path.iter().map(id).collect()),
            Transform::CallersOf(f) => Step::CallersOf(id(f)),
            Transform::Drop(f) => Step::Drop(id(f)),
            Transform::CollapseRecursion(f) => Step::CollapseRecursion(id(f)),
            Transform::CollapseDirectRecursion(f) => Step::CollapseDirectRecursion(id(f)),
            Transform::CollapsePackage(prefix) => Step::Collapse(in_package(names, prefix), made(transform)),
            Transform::CollapseLibrary(library) => Step::Collapse(in_library(profile, names, library), made(transform)),
            Transform::Hide(code) => Step::MergeAll(in_code(profile, names, *code)),
        })
        .collect()
}

/// Where an old node went in the tree being made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum At {
    /// Its stack is this node's.
    Node(u32),
    /// Not placed yet: a focus has not found its frame (or its path's frame `.0`) on the
    /// way here. Its own time belongs to no kept stack.
    Pending(usize),
    /// Left out with everything below it.
    Gone,
    /// On the way to a frame that decides whether the stack is kept (`CallersOf`): its path
    /// is this node's, and its own time belongs to no kept stack.
    Before(u32),
}

/// A transform with its frame names as ids (`NONE` for a name the tree does not have).
enum Step {
    Merge(u32),
    Focus(u32),
    FocusSubtree(Vec<u32>),
    CallersOf(u32),
    Drop(u32),
    CollapseRecursion(u32),
    CollapseDirectRecursion(u32),
    /// Name ids in the package or library, and the id of the frame they become.
    Collapse(Vec<bool>, u32),
    /// Name ids each merged as `Merge` merges one.
    MergeAll(Vec<bool>),
}

/// Which name ids begin with `prefix`.
fn in_package(names: &FrameNames, prefix: &str) -> Vec<bool> {
    (0..names.len() as u32).map(|id| names.name(id).starts_with(prefix)).collect()
}

/// The libraries of `profile`'s frames, by frame (the file name of the binary their code is
/// in: `libc.so`, `[kernel.kallsyms]`, `base.apk`). Only sampled functions have one: a
/// method's source is its Java source file, a slice has none.
fn frame_libraries(profile: &Profile) -> impl Iterator<Item = Option<&str>> {
    let binaries = profile.stacks().frame_kind == FrameKind::Function;
    profile.frames.iter().map(move |info| {
        let source = info.source.as_deref().filter(|_| binaries)?;
        Some(source.rsplit('/').next().unwrap_or(source))
    })
}

/// Which name ids are frames of `library`.
fn in_library(profile: &Profile, names: &FrameNames, library: &str) -> Vec<bool> {
    let mut inside = vec![false; names.len()];
    for (frame, found) in frame_libraries(profile).enumerate() {
        if found == Some(library) {
            inside[names.of_frame[profile.frame_name_of[frame] as usize] as usize] = true;
        }
    }
    inside
}

/// Which name ids are frames of `code`: the kernel's are named with its mark (`_[k]`);
/// native ones are in a shared library (`*.so`).
fn in_code(profile: &Profile, names: &FrameNames, code: Code) -> Vec<bool> {
    match code {
        Code::Kernel => (0..names.len() as u32).map(|id| names.name(id).ends_with(KERNEL_MARK)).collect(),
        Code::Native => {
            let mut inside = vec![false; names.len()];
            for (frame, found) in frame_libraries(profile).enumerate() {
                if found.is_some_and(|library| library.ends_with(".so") || library.contains(".so.")) {
                    inside[names.of_frame[profile.frame_name_of[frame] as usize] as usize] = true;
                }
            }
            inside
        }
    }
}

/// The kinds of code a view can hide in `profile`: those some frame of it is.
pub fn hideable(profile: &Profile) -> Vec<Code> {
    let names = FrameNames::of(profile, super::frames::DEFAULT_MAX_DEPTH);
    Code::ALL.into_iter().filter(|&code| in_code(profile, &names, code).contains(&true)).collect()
}

/// The libraries frames named `name` (as the products print it) come from, sorted: what
/// `CollapseLibrary` could fold such a frame into. None for a name no frame has, or frames
/// of no library.
pub fn libraries_of(profile: &Profile, name: &str) -> Vec<String> {
    let names = FrameNames::of(profile, super::frames::DEFAULT_MAX_DEPTH);
    let Some(id) = names.id_of_named(name) else { return Vec::new() };
    let mut found: Vec<String> = frame_libraries(profile)
        .zip(&profile.frame_name_of)
        .filter(|(_, &name)| names.of_frame[name as usize] == id)
        .filter_map(|(library, _)| library.map(str::to_owned))
        .collect();
    found.sort_unstable();
    found.dedup();
    found
}

/// A frame tree being made: children found by `(parent, name)`.
struct Builder {
    nodes: Vec<FrameNode>,
    index: FxHashMap<(u32, u32), u32>,
    /// The node `child` gave last: a node placed there is a call of its own frame.
    last_child: u32,
    per_stack: bool,
}

impl Builder {
    fn new(per_stack: bool) -> Self {
        let root = FrameNode { name: NONE, first_child: NONE, next_sibling: NONE, self_time: PerClock::ZERO, calls: 0 };
        Builder { nodes: vec![root], index: FxHashMap::default(), last_child: NONE, per_stack }
    }

    fn child(&mut self, parent: u32, name: u32) -> u32 {
        let next = self.nodes.len() as u32;
        let at = *self.index.entry((parent, name)).or_insert(next);
        if at == next {
            let next_sibling = self.nodes[parent as usize].first_child;
            self.nodes.push(FrameNode { name, first_child: NONE, next_sibling, self_time: PerClock::ZERO, calls: 0 });
            self.nodes[parent as usize].first_child = at;
        }
        self.last_child = at;
        at
    }

    /// A child of `parent` made without looking for one of its name: the caller knows
    /// there is none.
    fn new_child(&mut self, parent: u32, name: u32) -> u32 {
        let at = self.nodes.len() as u32;
        let next_sibling = self.nodes[parent as usize].first_child;
        self.nodes.push(FrameNode { name, first_child: NONE, next_sibling, self_time: PerClock::ZERO, calls: 0 });
        self.nodes[parent as usize].first_child = at;
        at
    }

    fn add(&mut self, node: u32, time: PerClock) {
        self.nodes[node as usize].self_time.add(time);
    }

    fn finish(self) -> FrameTree {
        FrameTree { nodes: self.nodes, micros: true, per_stack: self.per_stack }
    }
}

impl FrameTree {
    /// This tree as `view` shows it: each stack's value cut to whole µs, the transforms
    /// applied in order, equal stacks merged, then inverted if asked.
    pub(crate) fn transformed(&self, profile: &Profile, names: &FrameNames, view: &View) -> FrameTree {
        if view.is_plain() {
            return self.in_micros(profile);
        }
        let mut tree = self.in_micros(profile);
        for step in steps(profile, names, view) {
            tree = tree.step(&step).0;
        }
        if view.invert {
            tree = tree.inverted();
        }
        tree
    }

    /// The tree `view`'s transforms make of this one (times as they were, not inverted),
    /// and for each node of this one, the node of that tree its stack became (`NONE` where
    /// the stack is left out, or kept by no transform yet).
    pub(crate) fn placed(&self, profile: &Profile, names: &FrameNames, view: &View) -> (FrameTree, Vec<u32>) {
        let mut place: Vec<u32> = (0..self.nodes.len() as u32).collect();
        let mut tree = FrameTree { nodes: self.copy_nodes(), micros: self.micros, per_stack: self.per_stack };
        for step in steps(profile, names, view) {
            let (next, moved) = tree.step(&step);
            for at in &mut place {
                if *at != NONE {
                    *at = moved[*at as usize];
                }
            }
            tree = next;
        }
        (tree, place)
    }

    /// The same tree with its times in whole µs, node by node (each node is one stack).
    fn in_micros(&self, profile: &Profile) -> FrameTree {
        if self.micros {
            return FrameTree { nodes: self.copy_nodes(), micros: true, per_stack: self.per_stack };
        }
        let mut nodes = self.copy_nodes();
        for node in &mut nodes {
            let time = node.self_time;
            node.self_time =
                PerClock { wall: profile.micros(time[Clock::Wall]), cpu: profile.micros(time[Clock::Cpu]) };
        }
        FrameTree { nodes, micros: true, per_stack: self.per_stack }
    }

    fn copy_nodes(&self) -> Vec<FrameNode> {
        self.nodes
            .iter()
            .map(|n| FrameNode {
                name: n.name,
                first_child: n.first_child,
                next_sibling: n.next_sibling,
                self_time: n.self_time,
                calls: n.calls,
            })
            .collect()
    }

    /// Each node's parent (the root's is `NONE`).
    fn parents(&self) -> Vec<u32> {
        let mut parent = vec![NONE; self.nodes.len()];
        for (n, node) in self.nodes.iter().enumerate() {
            let mut child = node.first_child;
            while child != NONE {
                parent[child as usize] = n as u32;
                child = self.nodes[child as usize].next_sibling;
            }
        }
        parent
    }

    /// One transform: every old node's stack mapped to the new tree's, parents first (a
    /// parent always comes before its children in `nodes`). Also gives the new node of each
    /// old one (`NONE` where its stack is not kept).
    fn step(&self, step: &Step) -> (FrameTree, Vec<u32>) {
        let parent = self.parents();
        let mut out = Builder::new(self.per_stack);
        let mut at = vec![At::Gone; self.nodes.len()];
        // For a recursion collapse: the new node of the outermost frame on the way here.
        let mut outermost = vec![NONE; self.nodes.len()];
        at[0] = match step {
            Step::Focus(_) | Step::FocusSubtree(_) => At::Pending(0),
            Step::CallersOf(_) => At::Before(0),
            _ => At::Node(0),
        };
        for old in 1..self.nodes.len() {
            let name = self.nodes[old].name;
            let up = parent[old] as usize;
            let from = at[up];
            out.last_child = NONE;
            at[old] = match (step, from) {
                (_, At::Gone) => At::Gone,
                (Step::Focus(f), At::Pending(_)) if name == *f => At::Node(out.child(0, name)),
                (Step::Focus(_), At::Pending(i)) => At::Pending(i),
                (Step::FocusSubtree(path), At::Pending(i)) if path.get(i) == Some(&name) => {
                    if i + 1 == path.len() {
                        At::Node(out.child(0, name))
                    } else {
                        At::Pending(i + 1)
                    }
                }
                (Step::FocusSubtree(_), At::Pending(_)) => At::Gone,
                (_, At::Pending(_)) => unreachable!("only a focus leaves nodes pending"),
                (Step::CallersOf(f), At::Before(new)) if name == *f => At::Node(out.child(new, name)),
                (_, At::Before(new)) => At::Before(out.child(new, name)),
                // Below the outermost frame: the stack ends there.
                (Step::CallersOf(_), At::Node(new)) => At::Node(new),
                (Step::Merge(f), At::Node(new)) if name == *f => At::Node(new),
                (Step::MergeAll(hidden), At::Node(new)) if hidden.get(name as usize) == Some(&true) => At::Node(new),
                (Step::Drop(f), At::Node(_)) if name == *f => At::Gone,
                (Step::CollapseRecursion(f), At::Node(new)) if name == *f => match outermost[up] {
                    NONE => {
                        let node = out.child(new, name);
                        outermost[old] = node;
                        At::Node(node)
                    }
                    outer => {
                        outermost[old] = outer;
                        At::Node(outer)
                    }
                },
                (Step::CollapseDirectRecursion(f), At::Node(new)) if name == *f && self.nodes[up].name == *f => {
                    At::Node(new)
                }
                (Step::Collapse(inside, into), At::Node(new)) if inside.get(name as usize) == Some(&true) => {
                    if out.nodes[new as usize].name == *into {
                        At::Node(new)
                    } else {
                        At::Node(out.child(new, *into))
                    }
                }
                (_, At::Node(new)) => {
                    outermost[old] = outermost[up];
                    At::Node(out.child(new, name))
                }
            };
            if let At::Node(new) = at[old] {
                out.add(new, self.nodes[old].self_time);
                // Merged into another frame's node (a caller, an outer recursion): not a
                // call of that frame; but a sample or allocation of its stack.
                if self.per_stack || new == out.last_child {
                    out.nodes[new as usize].calls += self.nodes[old].calls;
                }
            }
        }
        if let At::Node(root) = at[0] {
            out.add(root, self.nodes[0].self_time);
            // Samples or allocations whose every frame an earlier step merged away.
            if self.per_stack {
                out.nodes[root as usize].calls += self.nodes[0].calls;
            }
        }
        let moved = at.iter().map(|a| if let At::Node(new) = a { *new } else { NONE }).collect();
        (out.finish(), moved)
    }

    /// The bottom-up tree: each stack reversed, its leaf first, under the same root. Calls
    /// are not counted in it: a row there is a path of callers, not a call. Samples and
    /// allocations are: each stack's at the end of its reversed path, as its time is.
    ///
    /// Made a level at a time, not a stack at a time: the stacks under one bottom-up node
    /// are a run of cursors (each at the next frame up its stack), sorted by that frame's
    /// name, and each run of one name is a child. So no node is looked up by (parent, name):
    /// a bottom-up tree of millions of nodes took most of its time in those lookups.
    fn inverted(&self) -> FrameTree {
        let parent = self.parents();
        let name = |n: u32| self.nodes[n as usize].name;
        let mut out = Builder::new(self.per_stack);
        out.add(0, self.nodes[0].self_time);
        // Each stack that ends in a frame: its node (a cursor moving up), its time, and its
        // samples or allocations where those are counted per stack.
        let count = |n: u32| if self.per_stack { self.nodes[n as usize].calls } else { 0 };
        let mut cursors: Vec<(u32, PerClock, u64)> = (1..self.nodes.len() as u32)
            .filter(|&n| self.nodes[n as usize].self_time != PerClock::ZERO || count(n) > 0)
            .map(|n| (n, self.nodes[n as usize].self_time, count(n)))
            .collect();
        // Runs of cursors still to place, with the bottom-up node they go under.
        let mut runs = vec![(0u32, 0usize, cursors.len())];
        while let Some((under, start, end)) = runs.pop() {
            cursors[start..end].sort_unstable_by_key(|&(n, _, _)| name(n));
            let mut at = start;
            while at < end {
                let frame = name(cursors[at].0);
                let node = out.new_child(under, frame);
                // The run of this name moves up a frame; stacks that end here are done.
                let run = at;
                let mut kept = at;
                while at < end && name(cursors[at].0) == frame {
                    let (n, time, samples) = cursors[at];
                    match parent[n as usize] {
                        0 => {
                            out.add(node, time);
                            out.nodes[node as usize].calls += samples;
                        }
                        up => {
                            cursors[kept] = (up, time, samples);
                            kept += 1;
                        }
                    }
                    at += 1;
                }
                if kept > run {
                    runs.push((node, run, kept));
                }
            }
        }
        out.finish()
    }
}
/// The frame names a view's products print.
impl FrameNames {
    /// The names of `profile` and those `view`'s transforms make (a collapsed package's
    /// frame): every name a product of that view prints.
    pub fn of_view(profile: &Profile, max_depth: usize, view: &View) -> FrameNames {
        let mut names = FrameNames::of(profile, max_depth);
        for name in view.transforms.iter().filter_map(Transform::made_name) {
            names.add(name);
        }
        names
    }
}

/// A frame tree as a view shows it.
impl FrameTree {
    /// This tree as `view` shows it; itself when the view changes nothing.
    pub fn viewed(self, profile: &Profile, names: &FrameNames, view: &View) -> FrameTree {
        if view.is_plain() {
            self
        } else {
            self.transformed(profile, names, view)
        }
    }
}
