//! Frames as decoders describe them, and the builder's frame slots.

/// A frame as a decoder describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrameInfo {
    /// Class in dotted form; empty when there is none.
    pub class: String,
    /// The method's or slice's name.
    pub name: String,
    /// Empty when there is none.
    pub signature: String,
    /// Source file, if the trace names one.
    pub source: Option<String>,
    /// Line number, if known.
    pub line: Option<i32>,
}

impl FrameInfo {
    /// A frame that is a name and nothing else (a slice).
    pub fn named(name: String) -> FrameInfo {
        FrameInfo { class: String::new(), name, signature: String::new(), source: None, line: None }
    }
}

#[derive(Debug, Clone)]
pub(super) struct FrameSlot {
    pub(super) id: u64,
    pub(super) info: Option<FrameInfo>,
}
