//! The heap graph of a heap dump: its objects (class, heap, shallow size), the references
//! between them and the GC roots, in flat arrays indexed by dense object numbers (objects in
//! ascending id order). Read once: how each object is reachable, its shortest path from a
//! root, the dominator tree of the strongly reachable objects and their retained sizes.
//!
//! The rules are those of AOSP's heap analyser: every GC root is held by one super-root;
//! an object's reachability is the best, over its paths from the super-root, of the
//! weakest reference on the path (strong, then soft, finalizer, weak, phantom); dominators
//! and retained sizes count strongly reachable objects only.

use super::dominators::{DominatorTree, Graph, NONE};
use super::heap_values::{FieldType, Values};

/// How a reference holds what it points to, strongest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Strength {
    Strong,
    Soft,
    Finalizer,
    Weak,
    Phantom,
}

/// Through what a reference holds its target: a field (its name's number in
/// `HeapGraph::names`) or an array's element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    Field(u32),
    Element(u32),
}

/// A `Via` in four bytes, as the graph's columns keep it (there is one per reference):
/// the top bit tells an element from a field, the others hold the number (a field name's
/// number and an array's index both stay below 2^31).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PackedVia(u32);

impl PackedVia {
    const ELEMENT: u32 = 1 << 31;

    pub fn get(self) -> Via {
        match self.0 & Self::ELEMENT {
            0 => Via::Field(self.0),
            _ => Via::Element(self.0 & !Self::ELEMENT),
        }
    }
}

impl From<Via> for PackedVia {
    fn from(via: Via) -> PackedVia {
        match via {
            Via::Field(name) => PackedVia(name & !PackedVia::ELEMENT),
            Via::Element(index) => PackedVia(index.min(!PackedVia::ELEMENT) | PackedVia::ELEMENT),
        }
    }
}

/// The kinds of GC root a dump names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RootKind {
    Unknown,
    JniGlobal,
    JniLocal,
    JavaFrame,
    NativeStack,
    StickyClass,
    ThreadBlock,
    MonitorUsed,
    ThreadObject,
    InternedString,
    Finalizing,
    Debugger,
    ReferenceCleanup,
    VmInternal,
    JniMonitor,
    Unreachable,
}

impl RootKind {
    /// Every kind, in the order of their bits.
    pub const ALL: [RootKind; 16] = [
        RootKind::Unknown,
        RootKind::JniGlobal,
        RootKind::JniLocal,
        RootKind::JavaFrame,
        RootKind::NativeStack,
        RootKind::StickyClass,
        RootKind::ThreadBlock,
        RootKind::MonitorUsed,
        RootKind::ThreadObject,
        RootKind::InternedString,
        RootKind::Finalizing,
        RootKind::Debugger,
        RootKind::ReferenceCleanup,
        RootKind::VmInternal,
        RootKind::JniMonitor,
        RootKind::Unreachable,
    ];

    /// Its bit in a root's set of kinds.
    pub fn bit(self) -> u32 {
        1 << self as u32
    }

    /// Its name in paths and tables (`jni-global`).
    pub fn words(self) -> &'static str {
        match self {
            RootKind::Unknown => "unknown",
            RootKind::JniGlobal => "jni-global",
            RootKind::JniLocal => "jni-local",
            RootKind::JavaFrame => "java-frame",
            RootKind::NativeStack => "native-stack",
            RootKind::StickyClass => "sticky-class",
            RootKind::ThreadBlock => "thread-block",
            RootKind::MonitorUsed => "monitor-used",
            RootKind::ThreadObject => "thread-object",
            RootKind::InternedString => "interned-string",
            RootKind::Finalizing => "finalizing",
            RootKind::Debugger => "debugger",
            RootKind::ReferenceCleanup => "reference-cleanup",
            RootKind::VmInternal => "vm-internal",
            RootKind::JniMonitor => "jni-monitor",
            RootKind::Unreachable => "unreachable",
        }
    }
}

/// What kind of object it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ObjectKind {
    Instance,
    /// A class's own object (its statics).
    Class,
    ObjectArray,
    PrimitiveArray,
}

/// The objects, by number: column `i` of each is object `i`'s.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Objects {
    /// Ids as the dump gives them, ascending.
    pub ids: Vec<u64>,
    /// The class of each (an index into `HeapGraph::classes`); a class object's is the
    /// class it is the object of.
    pub class: Vec<u32>,
    /// The heap of each (an index into `HeapGraph::heaps`).
    pub heap: Vec<u8>,
    /// Bytes of each, as the dump sizes it; `u32::MAX` for one of 4 GiB or more, whose
    /// size `large` holds.
    pub(crate) small: Vec<u32>,
    /// The objects of 4 GiB or more, ascending, with their sizes.
    pub(crate) large: Vec<(u32, u64)>,
    pub kind: Vec<ObjectKind>,
}

impl Objects {
    /// Bytes of object `v`, as the dump sizes it.
    pub fn shallow(&self, v: usize) -> u64 {
        match self.small[v] {
            u32::MAX => self
                .large
                .binary_search_by_key(&(v as u32), |&(w, _)| w)
                .map_or(u64::from(u32::MAX), |at| self.large[at].1),
            small => u64::from(small),
        }
    }
}

/// References as adjacency lists: object `v`'s are at `first[v]..first[v + 1]`, the last
/// list being the super-root's (the roots, ascending).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct References {
    pub first: Vec<u32>,
    pub target: Vec<u32>,
    pub strength: Vec<Strength>,
    pub via: Vec<PackedVia>,
}

/// What the graph's analysis found for each object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reached {
    /// How each object is held at best; `None`: no root reaches it.
    pub reach: Vec<Option<Strength>>,
    /// The object before each on its shortest path from a root, and how it holds it;
    /// `NONE` for a root itself and for an unreachable object.
    pub path_parent: Vec<(u32, PackedVia)>,
    /// Each strongly reachable object's immediate dominator (`NONE`: the super-root);
    /// `NONE` too for the others.
    pub dominator: Vec<u32>,
    /// Bytes each strongly reachable object keeps alive (itself and what it dominates).
    pub retained: Vec<u64>,
}

/// The frames (indexes into `Profile::frames`) that name a class's objects in stacks;
/// `NONE` for a class that no strongly reachable object needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClassFrames {
    /// Its instances' (or arrays').
    pub instances: u32,
    /// Its class object's (`java.lang.Class<NAME>`).
    pub class_object: u32,
}

/// A heap dump's objects and references, with what its analysis found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeapGraph {
    /// The heaps' names, in the order the dump first gives them.
    pub heaps: Vec<String>,
    /// The classes' names (a class loaded twice is two classes of one name).
    pub classes: Vec<String>,
    /// Field names that references go through: each a field or static of one class.
    pub names: Vec<String>,
    /// The class whose field or static each name is.
    pub name_class: Vec<u32>,
    pub objects: Objects,
    pub references: References,
    /// Each root object's kinds of GC root, as a bit set of `RootKind`s.
    pub roots: Vec<(u32, u32)>,
    /// The dump's GC root records of each kind (by `RootKind as usize`), those of objects
    /// it lacks included.
    pub root_records: [u64; RootKind::ALL.len()],
    pub reached: Reached,
    /// Each class's frames, by class number: made when the profile is finished.
    pub frames: Vec<ClassFrames>,
    /// The classes' and names' names as the dump gives them, where a mapping renamed them.
    pub(crate) unmapped: Option<(Vec<String>, Vec<String>)>,
    /// Each class's superclass, by class number (`NONE`: none, or not known).
    pub superclass: Vec<u32>,
    /// The activities (`android.app.Activity` and its subclasses) whose `mDestroyed` is
    /// true, ascending.
    pub destroyed: Vec<u32>,
    /// What each object holds besides references (`heap_values`).
    pub values: Values,
    /// Each class's own instance fields, in the order of their values: name and type.
    pub fields: Vec<Vec<(u32, FieldType)>>,
    /// Whether the dump records its objects' primitive values (an HPROF dump does; a
    /// Perfetto heap graph records references alone).
    pub field_values: bool,
}

impl HeapGraph {
    /// The graph of these objects and references, analysed. `references` ends with the
    /// super-root's list (every root object, ascending).
    pub(crate) fn new(
        heaps: Vec<String>,
        classes: Vec<String>,
        names: Vec<String>,
        objects: Objects,
        references: References,
        roots: Vec<(u32, u32)>,
    ) -> HeapGraph {
        let reached = analyse(&objects, &references);
        let frames = vec![ClassFrames { instances: NONE, class_object: NONE }; classes.len()];
        let superclass = vec![NONE; classes.len()];
        let classes_len = classes.len();
        let name_class = vec![NONE; names.len()];
        HeapGraph {
            heaps,
            classes,
            names,
            name_class,
            objects,
            references,
            roots,
            root_records: [0; RootKind::ALL.len()],
            reached,
            frames,
            superclass,
            destroyed: Vec::new(),
            unmapped: None,
            values: Values::default(),
            fields: vec![Vec::new(); classes_len],
            field_values: false,
        }
    }

    /// The number of objects.
    pub fn len(&self) -> usize {
        self.objects.ids.len()
    }

    /// Whether the dump has no objects.
    pub fn is_empty(&self) -> bool {
        self.objects.ids.is_empty()
    }

    /// What names object `v`'s kind: its class's name, or for a class object
    /// `java.lang.Class<NAME>`.
    pub fn object_class(&self, v: usize) -> std::borrow::Cow<'_, str> {
        let class = &self.classes[self.objects.class[v] as usize];
        match self.objects.kind[v] {
            ObjectKind::Class => format!("java.lang.Class<{class}>").into(),
            _ => class.into(),
        }
    }

    /// The classes' names as the dump gives them (before any mapping).
    pub fn dump_class_names(&self) -> &[String] {
        self.unmapped.as_ref().map_or(&self.classes, |(classes, _)| classes)
    }

    /// Whether object `v` is strongly reachable: what tables, dominators and retained
    /// sizes count.
    pub fn is_strong(&self, v: usize) -> bool {
        self.reached.reach[v] == Some(Strength::Strong)
    }
}

/// Reachability and shortest paths by one breadth-first search per strength (an object
/// first met through a weaker reference waits for that strength's turn), then dominators
/// and retained sizes over the strong references.
fn analyse(objects: &Objects, refs: &References) -> Reached {
    let n = objects.ids.len();
    let root = n as u32;
    let (reach, path_parent) = shortest_paths(n, refs);
    // Dominators over strong references only, from the super-root.
    let strong = StrongEdges(refs);
    let tree = DominatorTree::of(&strong, root);
    let mut retained = tree.retained(|v| if (v as usize) < n { objects.shallow(v as usize) } else { 0 });
    retained.truncate(n);
    let mut dominator = tree.idom;
    dominator.truncate(n);
    for d in &mut dominator {
        if *d == root {
            *d = NONE;
        }
    }
    Reached { reach, path_parent, dominator, retained }
}

/// The references that count for dominators: the strong ones.
struct StrongEdges<'a>(&'a References);

impl Graph for StrongEdges<'_> {
    fn nodes(&self) -> usize {
        self.0.first.len() - 1
    }

    fn edges(&self, v: u32) -> std::ops::Range<usize> {
        self.0.first[v as usize] as usize..self.0.first[v as usize + 1] as usize
    }

    fn target(&self, e: usize) -> Option<u32> {
        (self.0.strength[e] == Strength::Strong).then(|| self.0.target[e])
    }
}

/// How each object is held at best, and the object before it on its shortest path, by
/// one breadth-first search per strength from the super-root (`refs`' last list).
fn shortest_paths(n: usize, refs: &References) -> (Vec<Option<Strength>>, Vec<(u32, PackedVia)>) {
    let mut search = Search {
        waits: vec![None; n],
        path_parent: vec![(NONE, PackedVia::from(Via::Element(0))); n],
        queues: Default::default(),
    };
    let mut reach: Vec<Option<Strength>> = vec![None; n];
    let edges = |v: usize| refs.first[v] as usize..refs.first[v + 1] as usize;
    for e in edges(n) {
        search.meet(refs.target[e], NONE, refs.via[e], Strength::Strong);
    }
    for strength in Search::STRENGTHS {
        let mut next = 0;
        while let Some(&v) = search.queues[strength as usize].get(next) {
            next += 1;
            if reach[v as usize].is_some() {
                continue;
            }
            reach[v as usize] = Some(strength);
            for e in edges(v as usize) {
                let w = refs.target[e];
                if reach[w as usize].is_none() {
                    search.meet(w, v, refs.via[e], refs.strength[e].max(strength));
                }
            }
        }
        search.queues[strength as usize] = Vec::new();
    }
    (reach, search.path_parent)
}

/// The breadth-first searches' state. Each object waits in at most one queue per
/// strength, and its parent so far is kept with it rather than in the queue: a reference
/// of a stronger strength replaces it, one of an equal or weaker one does not (the first
/// of a strength is the one the search would take, queues being first in, first out).
/// Every object met is reached, at the strength it last waited at.
struct Search {
    /// The strength each object waits at; `None`: not met yet.
    waits: Vec<Option<Strength>>,
    path_parent: Vec<(u32, PackedVia)>,
    queues: [Vec<u32>; 5],
}

impl Search {
    const STRENGTHS: [Strength; 5] =
        [Strength::Strong, Strength::Soft, Strength::Finalizer, Strength::Weak, Strength::Phantom];

    /// Object `w` is met from `from` through `via`, held at `strength` at best.
    fn meet(&mut self, w: u32, from: u32, via: PackedVia, strength: Strength) {
        let at = w as usize;
        if self.waits[at].is_none_or(|waits| strength < waits) {
            self.waits[at] = Some(strength);
            self.path_parent[at] = (from, via);
            self.queues[strength as usize].push(w);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Eight objects: 0x10 (a JNI global) holds 0x20 and 0x30, 0x20 holds 0x30 too and
    /// softly 0x60; 0x40 (a sticky class) holds 0x50 weakly, which holds 0x30 and 0x80;
    /// nothing holds 0x70.
    fn graph() -> HeapGraph {
        let ids = vec![0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x80];
        let shallow = vec![16, 24, 8, 32, 100, 50, 7, 5];
        let n = ids.len();
        let objects = Objects {
            ids,
            class: vec![0, 1, 2, 3, 4, 4, 0, 0],
            heap: vec![0; n],
            small: shallow,
            large: Vec::new(),
            kind: vec![ObjectKind::Instance; n],
        };
        let (s, w, f) = (Strength::Strong, Strength::Weak, Via::Field);
        // (from, to, strength, via), by from; the super-root (8) last.
        let edges = [
            (0, 1, s, f(0)),
            (0, 2, s, f(1)),
            (1, 2, s, Via::Element(0)),
            (1, 5, Strength::Soft, f(2)),
            (3, 4, w, f(3)),
            (4, 2, s, f(4)),
            (4, 7, s, f(5)),
            (8, 0, s, Via::Element(0)),
            (8, 3, s, Via::Element(1)),
        ];
        let mut first = vec![0u32; n + 2];
        edges.iter().for_each(|&(from, ..)| first[from + 1] += 1);
        (0..=n).for_each(|i| first[i + 1] += first[i]);
        let references = References {
            first,
            target: edges.iter().map(|e| e.1).collect(),
            strength: edges.iter().map(|e| e.2).collect(),
            via: edges.iter().map(|e| e.3.into()).collect(),
        };
        let names = ["b", "c", "s", "referent", "x", "y"].map(String::from).to_vec();
        let roots = vec![(0, RootKind::JniGlobal.bit()), (3, RootKind::StickyClass.bit())];
        HeapGraph::new(vec!["app".into()], vec!["A".into(); 5], names, objects, references, roots)
    }

    #[test]
    fn reachability_is_the_weakest_reference_on_the_best_path() {
        let g = graph();
        let (s, soft, weak) = (Some(Strength::Strong), Some(Strength::Soft), Some(Strength::Weak));
        // 0x80 is held strongly, but by what is held weakly.
        assert_eq!(g.reached.reach, [s, s, s, s, weak, soft, None, weak]);
        // 0x30 is first met through 0x10's `.c`, before 0x20's element.
        assert_eq!(g.reached.path_parent[2], (0, Via::Field(1).into()));
        assert_eq!(g.reached.path_parent[5], (1, Via::Field(2).into()));
        assert_eq!(g.reached.path_parent[4], (3, Via::Field(3).into()));
        assert_eq!(g.reached.path_parent[0].0, NONE);
        assert_eq!(g.reached.path_parent[6].0, NONE);
    }

    #[test]
    fn dominators_and_retained_sizes_count_strong_references_alone() {
        let g = graph();
        assert_eq!(g.reached.dominator, [NONE, 0, 0, NONE, NONE, NONE, NONE, NONE]);
        assert_eq!(g.reached.retained, [48, 24, 8, 32, 0, 0, 0, 0]);
    }
}
