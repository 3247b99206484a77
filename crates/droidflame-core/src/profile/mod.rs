//! The one profile model every importer feeds and every product reads. Nothing here
//! knows which file format a profile came from.

mod app_frames;
mod builder;
mod calls;
mod clock;
mod format;
mod frame;
mod heap;
mod range;
mod repairs;
mod source;
mod states;
mod tree;

pub use app_frames::AppFrame;
pub(crate) use builder::{
    display_names, FinishSpec, FrameInfo, Limit, ProfileBuilder, ReadCalls, SourceSpec, ThreadMark,
};
pub use calls::{Call, ThreadCalls};
pub use clock::{Clock, ClockSet, ClockWords, PerClock, TimeUnit};
pub use format::{Detail, FormatInfo};
pub use frame::{Frame, FrameKind};
pub use heap::{Heap, HeapDump, HeapProcess, HeapProfiles, HeapRow};
pub use repairs::{counted, group_digits, sentence, were, Repair, RepairContext, Repairs, Warning, MAX_SLICE_DEPTH};
pub(crate) use source::SourceData;
pub use source::{Count, Source, SourceKind, Unit};
pub use states::{SchedState, StateEntry, StateLog, StateSpan, StateTimes};
pub use tree::{CallTree, Children, Node, NONE};

/// One thread's part of the profile.
#[derive(Debug, Clone)]
pub struct ThreadProfile {
    /// The thread's id (a track's is 2^31 and up).
    pub tid: u32,
    /// Its name; `Thread 12` where the trace gives none.
    pub name: String,
    /// Events the trace recorded for it (method records, slice markers).
    pub records: u64,
    /// Its calls, merged by stack.
    pub tree: CallTree,
    /// Time of its first event, in ticks.
    pub first: PerClock,
    /// Time of its last event (or later sign of life), in ticks.
    pub last: PerClock,
    /// The process it belongs to, where the trace says.
    pub pid: Option<u32>,
    /// That process's name, where the trace says.
    pub process: Option<String>,
    /// A named track of spans (async slices), not a thread of execution.
    pub track: bool,
    /// Time in each scheduler state, where the trace has scheduler events.
    pub sched: Option<SchedTimes>,
    /// Its scheduler states over time; empty unless `Options::keep_calls` asked.
    pub states: StateLog,
    /// Each call with its start and end; empty unless `Options::keep_calls` asked.
    pub calls: ThreadCalls,
    /// Its slot while the trace was read: what reading part of it again needs.
    pub(crate) slot: u32,
}

/// A thread's time in each scheduler state, in ticks, over the part of the trace where
/// its state is known.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SchedTimes {
    /// On a CPU.
    pub running: u64,
    /// Ready to run, waiting for a CPU.
    pub runnable: u64,
    /// Blocked or asleep.
    pub sleeping: u64,
}

/// A counter track of a system trace, summarised.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Counter {
    /// The process that wrote it.
    pub pid: u32,
    /// Its name.
    pub name: String,
    /// Values written.
    pub samples: u64,
    /// The smallest value.
    pub min: i64,
    /// The largest value.
    pub max: i64,
    /// The value written last.
    pub last: i64,
    /// Each value with its time (ticks), in time order; empty unless calls were kept.
    #[serde(skip)]
    pub series: Vec<(u64, i64)>,
}

impl ThreadProfile {
    /// `name [tid]`: the thread's frame in "all threads" graphs and folded output.
    pub fn label(&self) -> String {
        format!("{} [{}]", self.name, self.shown_tid())
    }

    /// The thread's id as the trace wrote it: see [`shown_tid`].
    pub fn shown_tid(&self) -> i64 {
        shown_tid(self.tid, self.track)
    }
}

/// A thread id as the trace wrote it: a thread's is a signed 32-bit number (recorders write
/// -1 for a thread they did not know, which the model holds as 2^32 - 1); a track's is 2^31
/// and up.
pub fn shown_tid(tid: u32, track: bool) -> i64 {
    if track {
        i64::from(tid)
    } else {
        i64::from(tid as i32)
    }
}

/// A span of the wall clock, in ticks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Timeline {
    /// The earliest time of any record.
    pub start: u64,
    /// The latest.
    pub end: u64,
}

impl Timeline {
    /// Its length in ticks.
    pub fn length(&self) -> u64 {
        self.end.saturating_sub(self.start)
    }
}

/// The analysed trace.
#[derive(Debug, Clone)]
pub struct Profile {
    /// What the input was.
    pub format: FormatInfo,
    /// Every `key=value` of the trace's header or summary, in file order.
    pub header: Vec<(String, String)>,
    /// The clocks the trace recorded.
    pub clocks: ClockSet,
    /// The trace's timeline: from the earliest to the latest wall time of any record (a
    /// capture's first and last event), in ticks. Where the trace has no wall clock, the
    /// same over its single clock, which then is no shared timeline (each thread's CPU
    /// clock runs on its own).
    pub timeline: Timeline,
    /// Spans of the timeline where the capture lost every event (between the dumps of a
    /// capture made of several), in ticks, in time order.
    pub gaps: Vec<(u64, u64)>,
    /// How long one tick of the raw times in the call trees is.
    pub time_unit: TimeUnit,
    /// Threads (and tracks) with at least one event.
    pub threads: Vec<ThreadProfile>,
    /// Every frame some call used; `Node::frame` indexes it.
    pub frames: Vec<Frame>,
    /// `frame_name_of[frame]` indexes `frame_names`: overloads share one name.
    pub frame_name_of: Vec<u32>,
    /// Each distinct display name of a frame once.
    pub frame_names: Vec<String>,
    /// Every repair made while reading.
    pub repairs: Repairs,
    /// Plain-language notes about what was repaired or guessed, for the user.
    pub warnings: Vec<Warning>,
    /// The limits the analysis ran under.
    pub limits: crate::options::Options,
    /// With calls kept: calls shorter than this many ticks on the timeline clock were let
    /// go, the trace having more than `Options::max_calls`; 0 when every call was kept.
    /// Calls from before tracing are kept whatever their length.
    pub shortest_call: u64,
    /// Events of all threads.
    pub records: u64,
    /// Counter tracks (system traces), by pid then name; empty for method traces.
    pub counters: Vec<Counter>,
    /// The frames as the trace named them, where a mapping renamed them; else empty.
    pub(crate) unmapped_frames: Vec<Frame>,
    /// The calls left out for being short (`shortest_call`) can be read again from the
    /// input (see `Analysis::reread`).
    pub(crate) rereadable: bool,
    /// The frame (index into `frames`) of each frame slot of the builder.
    pub(crate) frame_of_slot: Vec<u32>,
    /// The source shown now: `threads`, `clocks`, `time_unit`, `shortest_call` and the
    /// format's frame kind and clock words are its.
    pub(crate) source: Source,
    /// Every source the trace has, in order of preference.
    pub(crate) sources: Vec<Source>,
    /// The sources not shown now, but heap sources (made from `heap` when selected).
    pub(crate) stashed: Vec<SourceData>,
    /// The trace's heap dumps, where it has any.
    pub heap: Option<HeapProfiles>,
    /// The dump heap sources show; `None`: the last.
    pub(crate) dump: Option<usize>,
    /// Original names the trace itself gives for obfuscated classes and methods (applied
    /// as a mapping when the analysis ends).
    pub(crate) renames: Vec<ClassRename>,
    /// The frames apps produced, where the trace has a frame timeline; by start.
    pub app_frames: Vec<AppFrame>,
    /// The compositor's display frames (no layer), where the trace has them; by start.
    pub display_frames: Vec<AppFrame>,
    /// Kernel functions threads blocked in (`StateEntry::blocked` indexes it).
    pub blocked_functions: Vec<String>,
    /// CPUs the scheduler ran threads on (their numbers are below it); 0 without
    /// scheduling.
    pub cpus: u32,
    /// The nodes' counts are not known: a time range of samples (the samples in it are
    /// not kept one by one, only the runs of them that calls are).
    pub(crate) counts_unknown: bool,
    /// A time range of a profile (`Profile::within`): its timeline is the range.
    pub in_range: bool,
}

/// An obfuscated class's original name and its methods', as a trace may carry them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ClassRename {
    pub obfuscated: String,
    pub original: String,
    /// `(obfuscated, original)`; a method moved from another class is `Class.method`.
    pub methods: Vec<(String, String)>,
}

impl Profile {
    /// Whole microseconds for a tick count (truncating).
    pub fn micros(&self, ticks: u64) -> u64 {
        self.time_unit.micros(ticks)
    }

    /// Whether the trace recorded `clock`.
    pub fn has(&self, clock: Clock) -> bool {
        self.clocks.has(clock)
    }

    /// Checks that the trace has `clock`, or explains that it does not.
    pub fn require(&self, clock: Clock) -> crate::error::Result<()> {
        if self.has(clock) {
            Ok(())
        } else {
            Err(crate::error::Error::new(
                crate::error::ErrorKind::Request,
                format!(
                    "this trace has no {clock} clock (it recorded clock={}); choose the {} clock",
                    self.clocks.name(),
                    self.default_clock()
                ),
            ))
        }
    }

    /// The clock a reader sees when they name none.
    pub fn default_clock(&self) -> Clock {
        self.format.preferred_clock.filter(|&clock| self.has(clock)).unwrap_or(self.clocks.default_clock())
    }

    /// Checks that calls were kept (`Options::keep_calls`), or explains that they were not.
    pub fn require_calls(&self) -> crate::error::Result<()> {
        if self.limits.keep_calls {
            Ok(())
        } else {
            Err(crate::error::Error::new(
                crate::error::ErrorKind::Request,
                "calls were not kept for this profile: analyse it with `keep_calls` set",
            ))
        }
    }

    /// Checks that every call was kept, none left out for being short, or explains why not.
    pub fn require_every_call(&self) -> crate::error::Result<()> {
        self.require_calls()?;
        match self.calls_left_out() {
            None => Ok(()),
            Some(why) => Err(crate::error::Error::new(crate::error::ErrorKind::Request, why)),
        }
    }

    /// Whether calls left out for being short (`shortest_call`) can be read again from the
    /// input: where its importer kept checkpoints (method traces with fixed-size records,
    /// read uncompressed and in one piece).
    pub fn can_reread(&self) -> bool {
        self.shortest_call > 0 && self.rereadable
    }

    /// Where short calls were left out (`shortest_call`), what that means for the user.
    pub fn calls_left_out(&self) -> Option<String> {
        (self.limits.keep_calls && self.shortest_call > 0)
            .then(|| builder::calls_left_out(self.limits.max_calls, self.micros(self.shortest_call), self.can_reread()))
    }

    /// The clock of the timeline and of calls' start and end: wall where the trace has it,
    /// else its CPU clock (which then runs per thread).
    pub fn timeline_clock(&self) -> Clock {
        if self.has(Clock::Wall) {
            Clock::Wall
        } else {
            Clock::Cpu
        }
    }

    /// The last value of `key` in the header or summary.
    pub fn header_value(&self, key: &str) -> Option<&str> {
        self.header.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// The display name of a frame (`Class.method`, a slice's name).
    pub fn frame_name(&self, frame: u32) -> &str {
        &self.frame_names[self.frame_name_of[frame as usize] as usize]
    }

    /// The thread a viewer should open on, as an index into `threads`: the traced app's
    /// main thread (its tid is the process id the trace names, or it is called `main`,
    /// as Android names every app's main thread), else the thread with the most time on
    /// the CPU clock (the wall clock where there is none). Idle threads often have the
    /// most wall time, blocked in a wait, so wall time does not tell the busy ones.
    /// Tracks are never chosen. `None` when there is no thread.
    pub fn default_thread(&self) -> Option<usize> {
        let candidates = || self.threads.iter().enumerate().filter(|(_, t)| !t.track && !t.tree.is_empty());
        if let Some(pid) = self.format.pid {
            if let Some((i, _)) = candidates().find(|(_, t)| t.tid == pid) {
                return Some(i);
            }
        }
        if let Some((i, _)) = candidates().find(|(_, t)| t.name == "main") {
            return Some(i);
        }
        let clock = if self.has(Clock::Cpu) { Clock::Cpu } else { Clock::Wall };
        let busiest = candidates()
            .max_by(|(a, x), (b, y)| x.tree.total_self(clock).cmp(&y.tree.total_self(clock)).then_with(|| b.cmp(a)));
        busiest.map(|(i, _)| i).or_else(|| (!self.threads.is_empty()).then_some(0))
    }

    /// The frames as the trace named them, before any mapping was applied.
    pub fn obfuscated_frames(&self) -> &[Frame] {
        if self.unmapped_frames.is_empty() {
            &self.frames
        } else {
            &self.unmapped_frames
        }
    }

    /// A frame's name as the trace gave it, where a mapping changed it.
    pub fn obfuscated_name(&self, frame: u32) -> Option<String> {
        let before = self.unmapped_frames.get(frame as usize)?.display_name();
        (before != self.frame_name(frame)).then_some(before)
    }
}
