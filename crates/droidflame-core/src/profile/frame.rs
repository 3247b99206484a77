//! What a call-tree node is a call of.

use rustc_hash::FxHashMap;

/// The mark a kernel function's name ends with, as Linux perf's flame graph tools write it.
pub const KERNEL_MARK: &str = "_[k]";

/// What a format's frames are, for naming them to the user.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameKind {
    /// A method of a method trace.
    Method,
    /// A named slice of a system trace.
    Slice,
    /// A function of sampled call stacks: Java, native or kernel code.
    Function,
    /// A class of a heap dump's objects (a heap graph's stacks: dominators, paths).
    Class,
}

impl FrameKind {
    /// Every kind, for work that must cover all of them (the graph scripts a page allows).
    pub const ALL: [FrameKind; 4] = [FrameKind::Method, FrameKind::Slice, FrameKind::Function, FrameKind::Class];

    /// `method`, `slice`, `function` or `class`, as the summary's `format.frame_kind` says it.
    pub const fn name(self) -> &'static str {
        match self {
            FrameKind::Method => "method",
            FrameKind::Slice => "slice",
            FrameKind::Function => "function",
            FrameKind::Class => "class",
        }
    }

    /// `Method`, `Slice`, `Function` or `Class`, to begin a sentence or a label with.
    pub const fn title(self) -> &'static str {
        match self {
            FrameKind::Method => "Method",
            FrameKind::Slice => "Slice",
            FrameKind::Function => "Function",
            FrameKind::Class => "Class",
        }
    }
}

/// One frame of a profile: a method (class, name, signature) or a named slice (a name
/// only). Frames of one profile are distinct; overloads are distinct frames that share
/// a [`Frame::display_name`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    /// Class in dotted form (`java.lang.String`); empty when there is none.
    pub class: String,
    /// The method's or slice's name.
    pub name: String,
    /// The method's signature; empty when there is none.
    pub signature: String,
    /// Source file; `None` when the trace has none.
    pub source: Option<String>,
    /// Line number; `None` when unknown.
    pub line: Option<i32>,
    /// The id the trace gave it (the first, if several ids name it). Formats without ids
    /// number their frames in order of appearance.
    pub id: u64,
    /// The trace used this id but never said what it is.
    pub unknown: bool,
}

impl Frame {
    /// `Class.method`, a slice's name, or `<unknown 0x1a4>`: its name in flame graphs,
    /// folded stacks and tables.
    pub fn display_name(&self) -> String {
        if self.unknown {
            format!("<unknown {:#x}>", self.id)
        } else if self.class.is_empty() {
            self.name.clone()
        } else {
            format!("{}.{}", self.class, self.name)
        }
    }
}

/// An obfuscated class's original name and its methods', as a trace may carry them.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct ClassRename {
    pub obfuscated: String,
    pub original: String,
    /// `(obfuscated, original)`; a method moved from another class is `Class.method`.
    pub methods: Vec<(String, String)>,
}

/// Each distinct display name once, and the frame -> name map: overloads share a name.
pub(crate) fn display_names(frames: &[Frame]) -> (Vec<String>, Vec<u32>) {
    let mut names = Vec::new();
    let mut index: FxHashMap<String, u32> = FxHashMap::default();
    let name_of = frames
        .iter()
        .map(|f| {
            *index.entry(f.display_name()).or_insert_with_key(|name| {
                names.push(name.clone());
                (names.len() - 1) as u32
            })
        })
        .collect();
    (names, name_of)
}
