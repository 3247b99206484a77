//! `ProfileBuilder`: the sinks a decoder writes through, one per kind of data, finished
//! together into one `Profile`. Each sink is the one place where its kind of data becomes
//! a part of the model, for every format:
//!
//! - [`StackSink`] (`stacks`): threads, their calls or samples, folded as they come into
//!   call trees; finished into the stack profiles, one per source.
//! - [`FrameSink`] (`frames`): the frames events name, merged where two describe the same
//!   method; finished into the profile's frames.
//! - [`SystemSink`] (`system`): app and display frames, scheduler states and times, CPUs;
//!   finished into the system timeline.
//! - [`HeapSink`] (`heap`): heap dumps by callstack; finished into the heap profiles.
//! - [`HeapGraphSink`] (`graph`): a heap dump's objects, references and GC roots;
//!   finished into the heap graph, analysed.
//! - [`FactsSink`] (`facts`): the repairs a decoder counts, warnings and limits; finished,
//!   with every sink's own repairs summed, into the trace's facts.
//!
//! Each sink counts the repairs it makes and the limits it reaches itself. Two builders fed
//! two halves of one event stream merge, sink by sink, into what one fed all of it makes
//! (`merge.rs`): the unit of reading in parts.

mod facts_sink;
mod finish;
mod frame_sink;
mod frames;
mod heap_graph_sink;
mod heap_sink;
mod keep;
mod merge;
#[cfg(test)]
mod merge_tests;
mod names;
mod piece;
mod piece_wire;
pub(crate) mod seed;
#[cfg(test)]
mod sink_tests;
mod spec;
mod stack_sink;
mod system_sink;
#[cfg(test)]
mod tests;
mod thread_state;

pub use frames::FrameInfo;
pub(crate) use heap_graph_sink::HeapGraphSink;
pub(crate) use piece::{Doubt, Piece, PieceMark};
pub(crate) use piece_wire::PieceParts;
pub(crate) use spec::{FinishSpec, SourceSpec};

use crate::error::Error;
use crate::options::Options;
use facts_sink::FactsSink;
use frame_sink::FrameSink;
use heap_sink::HeapSink;
use stack_sink::StackSink;
use system_sink::SystemSink;

/// A limit of `Options` that the trace went beyond.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) enum Limit {
    Depth,
    CallStacks,
    Threads,
    Frames,
}

/// Every sink of one reading.
#[derive(Debug)]
pub(crate) struct ProfileBuilder {
    pub facts: FactsSink,
    pub frames: FrameSink,
    pub stacks: StackSink,
    pub system: SystemSink,
    pub heap: HeapSink,
    pub graph: HeapGraphSink,
}

impl ProfileBuilder {
    pub fn new(options: &Options) -> Self {
        ProfileBuilder {
            facts: FactsSink::new(options),
            frames: FrameSink::new(options),
            stacks: StackSink::new(options),
            system: SystemSink::new(options),
            heap: HeapSink::new(options),
            graph: HeapGraphSink::default(),
        }
    }

    /// The error for the first limit the trace reached, if it reached one: the `Analyzer`
    /// stops with it after the chunk.
    pub fn limit_error(&self) -> Option<Error> {
        let exhausted = self.stacks.budget.exhausted || self.heap.budget.exhausted;
        let limit = (self.stacks.refused)
            .or(self.frames.refused)
            .or(self.heap.refused)
            .or(exhausted.then_some(Limit::CallStacks))?;
        Some(facts_sink::limit_error(limit, &self.facts.limits))
    }
}
