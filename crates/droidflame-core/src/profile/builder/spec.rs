//! What a decoder hands over when its input ends: the facts only it knows, and how to read
//! each source's threads.

use crate::profile::clock::{Clock, ClockSet, ClockWords, TimeUnit};
use crate::profile::format::FormatInfo;
use crate::profile::frame::FrameKind;
use crate::profile::source::{SourceKind, Unit};
use crate::profile::system::Counter;

/// What only the decoder knows, handed over when the input ends.
#[derive(Debug, Clone)]
pub(crate) struct FinishSpec {
    pub format: FormatInfo,
    pub header: Vec<(String, String)>,
    pub time_unit: TimeUnit,
    pub counters: Vec<Counter>,
    /// Order threads by process (the trace says which process each belongs to).
    pub group_by_process: bool,
    /// The trace's timeline on the wall clock, where the decoder knows it better than the
    /// events do (a capture's first and last event of any kind); `None`: from the earliest
    /// to the latest event of any thread.
    pub timeline: Option<(u64, u64)>,
    /// Where the capture lost every event, in time order (`SystemTimeline::gaps`).
    pub gaps: Vec<(u64, u64)>,
    /// What the threads no decoder put in another source hold (`calls` for most formats),
    /// and how to read them.
    pub main: SourceSpec,
    /// How to read the threads put in other sources ([`StackSink::set_source`](super::stack_sink::StackSink::set_source)).
    pub more: Vec<SourceSpec>,
    /// The main source is shown first where the others have something too; false where it
    /// holds less than they do (a capture whose only calls are scheduler states).
    pub main_first: bool,
}

/// What a source's threads hold and how to read them.
#[derive(Debug, Clone)]
pub(crate) struct SourceSpec {
    pub kind: SourceKind,
    pub unit: Unit,
    pub clocks: ClockSet,
    pub frame_kind: FrameKind,
    pub clock_words: ClockWords,
    pub preferred_clock: Option<Clock>,
    /// Its threads' frames are their scheduler states (a capture without slices).
    pub states_as_frames: bool,
}
