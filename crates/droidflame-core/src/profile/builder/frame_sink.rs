//! The frame sink: frames as decoders describe them, each in a slot the events name, and
//! the original names of obfuscated classes that a trace itself gives.

use super::frames::{FrameInfo, FrameSlot};
use super::names::NameLimit;
use super::Limit;
use crate::options::Options;
use crate::profile::frame::ClassRename;

#[derive(Debug, Clone)]
pub(crate) struct FrameSink {
    pub(super) slots: Vec<FrameSlot>,
    /// Original names of obfuscated classes and methods the trace itself gives.
    pub(super) renames: Vec<ClassRename>,
    max_methods: usize,
    /// The frame limit, once the trace went beyond it.
    pub(super) refused: Option<Limit>,
    pub(super) names: NameLimit,
}

impl FrameSink {
    pub fn new(options: &Options) -> Self {
        FrameSink {
            slots: Vec::new(),
            renames: Vec::new(),
            max_methods: options.max_methods.max(1),
            refused: None,
            names: NameLimit::new(options.max_name_bytes),
        }
    }

    /// A new frame, described or (as yet) not; `id` is the trace's id for it, which names
    /// it if it is never described. Beyond the frame limit, slot 0 (the analysis then stops).
    #[cold]
    pub fn add_frame(&mut self, id: u64, info: Option<FrameInfo>) -> u32 {
        if self.slots.len() >= self.max_methods {
            self.refused.get_or_insert(Limit::Frames);
            return 0;
        }
        let info = info.map(|info| self.clip_frame(info));
        self.slots.push(FrameSlot { id, info });
        (self.slots.len() - 1) as u32
    }

    /// Describes a frame, replacing any earlier description: the last one wins.
    pub fn describe_frame(&mut self, frame: u32, info: FrameInfo) {
        let info = self.clip_frame(info);
        self.slots[frame as usize].info = Some(info);
    }

    pub fn is_described(&self, frame: u32) -> bool {
        self.slots[frame as usize].info.is_some()
    }

    /// The trace's id of a frame slot.
    pub(crate) fn frame_id(&self, frame: u32) -> u64 {
        self.slots[frame as usize].id
    }

    /// Each slot's id in the trace: what a sink re-reading the trace starts from.
    pub(crate) fn slot_ids(&self) -> Vec<u64> {
        self.slots.iter().map(|f| f.id).collect()
    }

    /// The trace gives class `obfuscated`'s original name and its methods' (`(obfuscated,
    /// original)`; a method moved from another class is `Class.method`).
    pub fn rename_class(&mut self, obfuscated: String, original: String, methods: Vec<(String, String)>) {
        self.renames.push(ClassRename { obfuscated, original, methods });
    }

    /// A sink that reads on from this one: the same slots (and limit reached, if one
    /// was), no renames or names cut yet.
    pub(super) fn continuing(&self) -> FrameSink {
        FrameSink { renames: Vec::new(), names: self.names.fresh(), ..self.clone() }
    }

    /// This sink with `later`, made by `continuing` and fed what came after: its slots
    /// are this sink's and then its own.
    pub(super) fn merge(&mut self, later: FrameSink) {
        self.slots = later.slots;
        self.renames.extend(later.renames);
        self.refused = self.refused.or(later.refused);
        self.names.cut += later.names.cut;
    }

    /// Each of a frame's names as the profile keeps it.
    fn clip_frame(&mut self, info: FrameInfo) -> FrameInfo {
        FrameInfo {
            class: self.names.clip(info.class),
            name: self.names.clip(info.name),
            signature: self.names.clip(info.signature),
            source: info.source.map(|s| self.names.clip(s)),
            line: info.line,
        }
    }
}
