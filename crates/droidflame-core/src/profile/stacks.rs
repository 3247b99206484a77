//! A stack profile: one source's stacks, by thread (by process, for a heap source), with
//! what it takes to read their values. A profile holds one for each source it has.

use super::clock::{Clock, ClockSet, ClockWords, TimeUnit};
use super::frame::FrameKind;
use super::source::Source;
use super::thread::ThreadProfile;

/// One source's stacks and how to read their values. Read once, never changed: showing
/// another source chooses another stack profile.
#[derive(Debug, Clone)]
pub struct StackProfile {
    /// Which source it is, its unit and its description.
    pub source: Source,
    /// Threads (and tracks; processes, for a heap source) with at least one event.
    pub threads: Vec<ThreadProfile>,
    /// The clocks its values were recorded on.
    pub clocks: ClockSet,
    /// How long one tick of the raw times in the call trees is.
    pub time_unit: TimeUnit,
    /// What its frames are.
    pub frame_kind: FrameKind,
    /// What each clock measures, in words for people.
    pub clock_words: ClockWords,
    /// The clock to show first where it has it (`None`: wall where there is wall): the CPU
    /// clock where that is what it measures (samples).
    pub preferred_clock: Option<Clock>,
    /// With calls kept: calls shorter than this many ticks on the timeline clock were let
    /// go, the trace having more than `Options::max_calls`; 0 when every call was kept.
    /// Calls from before tracing are kept whatever their length.
    pub shortest_call: u64,
    /// Its threads' frames are their scheduler states (`Running`, `Runnable`, `Sleeping`):
    /// a system trace without slices.
    pub states_as_frames: bool,
    /// The nodes' counts are not known: a time range of samples (the samples in it are
    /// not kept one by one, only the runs of them that calls are).
    pub counts_unknown: bool,
}

impl StackProfile {
    /// A copy with no threads: how to read the values, for a profile made from this one.
    pub(crate) fn clone_without_threads(&self) -> StackProfile {
        StackProfile { threads: Vec::new(), source: self.source.clone(), ..*self }
    }
}
