//! The analysed trace: its stack profiles, system timeline, heap profiles and facts.

use super::clock::Clock;
use super::cpu_overview::CpuOverview;
use super::facts::Facts;
use super::frame::{ClassRename, Frame};
use super::heap::HeapProfiles;
use super::heap_graph::HeapGraph;
use super::heap_graph_stacks::graph_stacks;
use super::repairs::group_digits;
use super::source::Source;
use super::source::SourceKind;
use super::stacks::StackProfile;
use super::system::SystemTimeline;
use std::sync::OnceLock;

/// The analysed trace.
#[derive(Debug, Clone)]
pub struct Profile {
    /// What the trace is and what reading it found: its format and header, the repairs and
    /// warnings, the limits it was read under.
    pub facts: Facts,
    /// What happened over time beside the stacks: the trace's span and gaps, counters, app
    /// and display frames, the CPUs and the kernel functions threads blocked in.
    pub system: SystemTimeline,
    /// Every frame some call used; `Node::frame` indexes it.
    pub frames: Vec<Frame>,
    /// `frame_name_of[frame]` indexes `frame_names`: overloads share one name.
    pub frame_name_of: Vec<u32>,
    /// Each distinct display name of a frame once.
    pub frame_names: Vec<String>,
    /// The frames as the trace named them, where a mapping renamed them; else empty.
    pub(crate) unmapped_frames: Vec<Frame>,
    /// The frame (index into `frames`) of each frame slot of the builder.
    pub(crate) frame_of_slot: Vec<u32>,
    /// Every source the trace has, in order of preference.
    pub(crate) sources: Vec<Source>,
    /// The stack profile of each source but the heap ones, in the order of `sources`; a
    /// heap source's is made from `heap` at the chosen dump when it is shown.
    pub(crate) stack_profiles: Vec<StackProfile>,
    /// The source shown: every product reads its stack profile (`Profile::stacks`).
    pub(crate) shown: Shown,
    /// The trace's heap dumps, where it has any.
    pub heap: Option<HeapProfiles>,
    /// The trace's heap dump as a graph of objects, where it is one.
    pub heap_graph: Option<HeapGraph>,
    /// The dump heap sources show; `None`: the last.
    pub(crate) dump: Option<usize>,
    /// Original names the trace itself gives for obfuscated classes and methods (applied
    /// as a mapping when the analysis ends).
    pub(crate) renames: Vec<ClassRename>,
    /// A time range of a profile (`Profile::within`): its timeline is the range.
    pub in_range: bool,
    /// What each CPU ran, in buckets, made when a wide window first asks.
    pub(crate) cpu_overview: OnceLock<CpuOverview>,
}

/// Which stack profile a profile shows.
#[derive(Debug, Clone)]
pub(crate) enum Shown {
    /// `stack_profiles[at]`.
    Stacks(usize),
    /// A heap source's, made from the heap dumps.
    Heap(Box<StackProfile>),
    /// A heap dump's source (`heap-dominators`, `heap-paths`), made from its graph when a
    /// product first reads it: tables of a dump need none.
    Dump(SourceKind, OnceLock<Box<StackProfile>>),
}

impl Profile {
    /// The stack profile of the source shown: its threads, clocks and how to read their
    /// values.
    pub fn stacks(&self) -> &StackProfile {
        match &self.shown {
            Shown::Stacks(at) => &self.stack_profiles[*at],
            Shown::Heap(stacks) => stacks,
            Shown::Dump(kind, stacks) => stacks.get_or_init(|| {
                let graph = self.heap_graph.as_ref().expect("a dump's source has its graph");
                Box::new(graph_stacks(graph, *kind))
            }),
        }
    }

    /// The stack profile whose threads carry scheduler states (the calls source's), whichever
    /// source is shown; `None` where the trace has no states or they were not kept.
    pub fn states_stacks(&self) -> Option<&StackProfile> {
        self.stack_profiles.iter().find(|s| s.threads.iter().any(|t| !t.states.is_empty()))
    }

    /// What each CPU ran, in buckets of the timeline (made at the first call); `None` where
    /// no thread has states.
    pub fn cpu_overview(&self) -> Option<&CpuOverview> {
        let stacks = self.states_stacks()?;
        let timeline = &self.system.timeline;
        Some(self.cpu_overview.get_or_init(|| CpuOverview::of(stacks, self.system.cpus, timeline.start, timeline.end)))
    }

    /// Whole microseconds for a tick count (truncating).
    pub fn micros(&self, ticks: u64) -> u64 {
        self.stacks().time_unit.micros(ticks)
    }

    /// Whether the trace recorded `clock`.
    pub fn has(&self, clock: Clock) -> bool {
        self.stacks().clocks.has(clock)
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
                    self.stacks().clocks.name(),
                    self.default_clock()
                ),
            ))
        }
    }

    /// The clock a reader sees when they name none.
    pub fn default_clock(&self) -> Clock {
        self.stacks().preferred_clock.filter(|&clock| self.has(clock)).unwrap_or(self.stacks().clocks.default_clock())
    }

    /// Checks that calls were kept (`Options::keep_calls`), or explains that they were not.
    pub fn require_calls(&self) -> crate::error::Result<()> {
        if self.facts.limits.keep_calls {
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
        self.stacks().shortest_call > 0 && self.facts.rereadable
    }

    /// Where short calls were left out (`shortest_call`), what that means for the user.
    pub fn calls_left_out(&self) -> Option<String> {
        (self.facts.limits.keep_calls && self.stacks().shortest_call > 0).then(|| {
            calls_left_out(self.facts.limits.max_calls, self.micros(self.stacks().shortest_call), self.can_reread())
        })
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
        self.facts.header.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
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
    /// Tracks are never chosen. A heap dump opens on its `app` heap. `None` when there is
    /// no thread.
    pub fn default_thread(&self) -> Option<usize> {
        let candidates = || self.stacks().threads.iter().enumerate().filter(|(_, t)| !t.track && !t.tree.is_empty());
        if let Some(pid) = self.facts.format.pid {
            if let Some((i, _)) = candidates().find(|(_, t)| t.tid == pid) {
                return Some(i);
            }
        }
        if let Some((i, _)) = candidates().find(|(_, t)| t.name == "main") {
            return Some(i);
        }
        // A dump's "threads" are its heaps: an Android app's objects are in `app` (the
        // zygote's and the boot image's are larger, and shared by every app).
        if self.heap_graph.is_some() && self.stacks().source.kind.is_heap() {
            if let Some((i, _)) = candidates().find(|(_, t)| t.name == "app") {
                return Some(i);
            }
        }
        let clock = if self.has(Clock::Cpu) { Clock::Cpu } else { Clock::Wall };
        let busiest = candidates()
            .max_by(|(a, x), (b, y)| x.tree.total_self(clock).cmp(&y.tree.total_self(clock)).then_with(|| b.cmp(a)));
        busiest.map(|(i, _)| i).or_else(|| (!self.stacks().threads.is_empty()).then_some(0))
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

/// What the timeline and range selections lose where calls were left out; `rereadable`:
/// the short calls of one thread can be read again from the input.
pub(crate) fn calls_left_out(max_calls: u64, shortest_us: u64, rereadable: bool) -> String {
    let timeline = if rereadable {
        "of the slowest calls and of the timeline, except in one thread zoomed in far enough to show them \
         (they are then read again from the file)"
    } else {
        "of the timeline and of the slowest calls"
    };
    format!(
        "this trace has more than {} calls, more than the timeline keeps: calls shorter than {} µs are left \
         out {timeline}; range selections are off (the command line's `droidflame calls` lists every call)",
        group_digits(max_calls),
        group_digits(shortest_us.max(1))
    )
}
