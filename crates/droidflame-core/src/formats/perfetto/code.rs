//! The code profiling packets name: each sequence's interned function names, mappings,
//! frames and callstacks (`CodeTables`, cleared with the sequence's state), and the
//! builder's frames and stacks they resolve to (`CodeFrames`, for the whole trace: the
//! same function interned again after a clear is the same frame).

use super::profiling_proto::{Callstack, Frame, InternedString, Mapping};
use super::proto::InternedData;
use crate::formats::code_names::CodeFile;
use crate::profile::{FrameInfo, ProfileBuilder};
use bytes::Bytes;
use rustc_hash::FxHashMap;

/// A frame as a table holds it: function name, mapping and offset in it (ids; 0 for none).
#[derive(Debug, Clone, Copy)]
struct FrameEntry {
    function: u64,
    mapping: u64,
    rel_pc: u64,
}

/// One sequence's (or one heap dump's) interned code.
#[derive(Debug, Default)]
pub struct CodeTables {
    function_names: FxHashMap<u64, Bytes>,
    mapping_paths: FxHashMap<u64, Bytes>,
    /// Each mapping's path, as ids of `mapping_paths`.
    mappings: FxHashMap<u64, Vec<u64>>,
    frames: FxHashMap<u64, FrameEntry>,
    callstacks: FxHashMap<u64, Vec<u64>>,
    /// Callstacks already resolved: index into `CodeFrames::stacks`.
    resolved: FxHashMap<u64, u32>,
    /// Frames already resolved: builder slot.
    frame_slots: FxHashMap<u64, u32>,
}

fn strings(table: &mut FxHashMap<u64, Bytes>, entries: &[InternedString]) {
    for entry in entries {
        if let Some(iid) = entry.iid {
            table.insert(iid, entry.str.clone().unwrap_or_default());
        }
    }
}

impl CodeTables {
    /// Forgets everything (the sequence cleared its state).
    pub fn clear(&mut self) {
        *self = CodeTables::default();
    }

    /// Takes in a sequence's interned code.
    pub fn intern(&mut self, code: &InternedData) {
        strings(&mut self.function_names, &code.function_names);
        strings(&mut self.mapping_paths, &code.mapping_paths);
        self.intern_parts(&code.mappings, &code.frames, &code.callstacks);
    }

    /// Takes in the tables an older heap dump carries itself (one table of strings for
    /// names and paths alike).
    pub fn intern_own(
        &mut self,
        strings_: &[InternedString],
        mappings: &[Mapping],
        frames: &[Frame],
        stacks: &[Callstack],
    ) {
        strings(&mut self.function_names, strings_);
        strings(&mut self.mapping_paths, strings_);
        self.intern_parts(mappings, frames, stacks);
    }

    fn intern_parts(&mut self, mappings: &[Mapping], frames: &[Frame], callstacks: &[Callstack]) {
        for m in mappings {
            if let Some(iid) = m.iid {
                self.mappings.insert(iid, m.path_string_ids.clone());
            }
        }
        for f in frames {
            if let Some(iid) = f.iid {
                let entry = FrameEntry {
                    function: f.function_name_id.unwrap_or(0),
                    mapping: f.mapping_id.unwrap_or(0),
                    rel_pc: f.rel_pc.unwrap_or(0),
                };
                self.frames.insert(iid, entry);
                self.frame_slots.remove(&iid);
            }
        }
        for c in callstacks {
            if let Some(iid) = c.iid {
                self.callstacks.insert(iid, c.frame_ids.clone());
                self.resolved.remove(&iid);
            }
        }
    }

    /// The stack (index for `CodeFrames::stack`) of callstack `iid`, `None` where the tables
    /// do not hold it.
    pub fn stack(&mut self, iid: u64, code: &mut CodeFrames, b: &mut ProfileBuilder) -> Option<u32> {
        if let Some(&stack) = self.resolved.get(&iid) {
            return Some(stack);
        }
        // Resolved once: its ids are not needed again (interning it anew resolves it anew).
        let frames = self.callstacks.remove(&iid)?;
        let start = code.frames.len();
        for frame in frames {
            let slot = self.frame_slot(frame, code, b);
            code.frames.push(slot);
        }
        let stack = code.push_stack(start);
        self.resolved.insert(iid, stack);
        Some(stack)
    }

    fn frame_slot(&mut self, iid: u64, code: &mut CodeFrames, b: &mut ProfileBuilder) -> u32 {
        if let Some(&slot) = self.frame_slots.get(&iid) {
            return slot;
        }
        let identity = match self.frames.get(&iid) {
            None => {
                code.unknown_frames += 1;
                Identity { path: String::new(), name: Bytes::new(), rel_pc: iid, known: false }
            }
            Some(entry) => {
                let name = self.function_names.get(&entry.function).cloned().unwrap_or_default();
                let path = self.path(entry.mapping);
                let rel_pc = if name.is_empty() { entry.rel_pc } else { 0 };
                Identity { path, name, rel_pc, known: true }
            }
        };
        let slot = code.slot(identity, b);
        self.frame_slots.insert(iid, slot);
        slot
    }

    /// A mapping's path, its parts joined by `/` (a file's path begins with one).
    fn path(&self, mapping: u64) -> String {
        let Some(parts) = self.mappings.get(&mapping) else {
            return String::new();
        };
        let mut path = String::new();
        for (i, id) in parts.iter().enumerate() {
            let part = self.mapping_paths.get(id).map(|p| String::from_utf8_lossy(p)).unwrap_or_default();
            if i > 0 || !part.starts_with('[') {
                path.push('/');
            }
            path.push_str(&part);
        }
        path
    }
}

/// What makes two frames the same function.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Identity {
    path: String,
    name: Bytes,
    /// The offset in the mapping, where there is no name (else 0); the frame id where the
    /// frame is unknown.
    rel_pc: u64,
    known: bool,
}

/// The builder's frames and stacks of every sequence's code.
#[derive(Debug, Default)]
pub struct CodeFrames {
    slot_of: FxHashMap<Identity, u32>,
    /// Every stack's frame slots, outermost first, one after another.
    frames: Vec<u32>,
    /// Where each stack begins in `frames`, and where the last ends.
    starts: Vec<u32>,
    /// Frames a callstack named that no table held.
    pub unknown_frames: u64,
    /// The stack of a sample whose callstack no table held, once made.
    unknown: Option<u32>,
}

impl CodeFrames {
    fn slot(&mut self, identity: Identity, b: &mut ProfileBuilder) -> u32 {
        if let Some(&slot) = self.slot_of.get(&identity) {
            return slot;
        }
        let code = CodeFile(&identity.path);
        let info = match (&identity, identity.path.is_empty()) {
            (Identity { known: false, rel_pc, .. }, _) => FrameInfo::named(format!("<unknown frame {rel_pc}>")),
            (Identity { name, .. }, true) if !name.is_empty() => {
                FrameInfo::named(String::from_utf8_lossy(name).into_owned())
            }
            (Identity { name, .. }, _) if !name.is_empty() => code.function(name, false),
            (_, true) => FrameInfo::named(format!("<unknown mapping>+{:#x}", identity.rel_pc)),
            _ => code.address(identity.rel_pc),
        };
        let slot = b.frames.add_frame(self.slot_of.len() as u64, Some(info));
        self.slot_of.insert(identity, slot);
        slot
    }

    /// The stack of a sample whose callstack no table held: one frame that says so.
    pub fn unknown_stack(&mut self, b: &mut ProfileBuilder) -> u32 {
        if let Some(stack) = self.unknown {
            return stack;
        }
        let identity =
            Identity { path: String::new(), name: Bytes::from_static(b"<unknown callstack>"), rel_pc: 0, known: true };
        let start = self.frames.len();
        let slot = self.slot(identity, b);
        self.frames.push(slot);
        let stack = self.push_stack(start);
        self.unknown = Some(stack);
        stack
    }

    /// The frames from `start` on as a stack; its index.
    fn push_stack(&mut self, start: usize) -> u32 {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        debug_assert_eq!(*self.starts.last().unwrap() as usize, start);
        self.starts.push(self.frames.len() as u32);
        (self.starts.len() - 2) as u32
    }

    /// Stack `index`'s frame slots, outermost first.
    #[inline]
    pub fn stack(&self, index: u32) -> &[u32] {
        let i = index as usize;
        &self.frames[self.starts[i] as usize..self.starts[i + 1] as usize]
    }
}
