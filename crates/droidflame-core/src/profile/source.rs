//! Sources: the kinds of stack data one trace can hold (calls, CPU samples, heap profiles).
//! A profile shows one source at a time: its `threads` and the facts that say how to read
//! their values are the selected source's, so every product works on every source without
//! knowing which it is. The others wait in the profile until one is selected.

use super::clock::{Clock, ClockSet, ClockWords, TimeUnit};
use super::frame::FrameKind;
use super::heap::HeapView;
use super::repairs::counted;
use super::{Profile, ThreadProfile};
use crate::error::{Error, ErrorKind, Result};

/// A kind of stack data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SourceKind {
    /// Method-trace calls and system-trace slices.
    Calls,
    /// CPU callstack samples.
    CpuSamples,
    /// Bytes allocated and not yet freed at a heap dump.
    HeapUnreleased,
    /// Bytes allocated in all, freed or not, up to a heap dump.
    HeapAllocated,
}

impl SourceKind {
    /// Every kind, in order of preference.
    pub const ALL: [SourceKind; 4] =
        [SourceKind::Calls, SourceKind::CpuSamples, SourceKind::HeapUnreleased, SourceKind::HeapAllocated];

    /// The name the CLI, the summary and the bindings use.
    pub const fn name(self) -> &'static str {
        match self {
            SourceKind::Calls => "calls",
            SourceKind::CpuSamples => "cpu-samples",
            SourceKind::HeapUnreleased => "heap-unreleased",
            SourceKind::HeapAllocated => "heap-allocated",
        }
    }

    /// The kind `text` names.
    pub fn parse(text: &str) -> Option<SourceKind> {
        Self::ALL.into_iter().find(|kind| kind.name() == text)
    }

    /// The kind named `text`, or an error that lists the names there are.
    pub fn named(text: &str) -> Result<SourceKind> {
        Self::parse(text).ok_or_else(|| {
            let names: Vec<&str> = Self::ALL.iter().map(|k| k.name()).collect();
            Error::new(ErrorKind::Request, format!("{text}: no such source; the sources are {}", names.join(", ")))
        })
    }

    /// A heap profile: its first frame is a process, not a thread, and it has dumps.
    pub const fn is_heap(self) -> bool {
        matches!(self, SourceKind::HeapUnreleased | SourceKind::HeapAllocated)
    }

    /// What its nodes' counts (`Node::calls`) count.
    pub const fn count(self) -> Count {
        match self {
            SourceKind::Calls => Count::Calls,
            SourceKind::CpuSamples => Count::Samples,
            SourceKind::HeapUnreleased | SourceKind::HeapAllocated => Count::Allocations,
        }
    }
}

/// What a source counts beside its values, and how.
///
/// Calls are events in time: a node counts the calls that ended on its stack, a method
/// every call of it, recursive ones too, so a recursive method's calls can outnumber the
/// calls that reached it from outside. Samples and allocations are stacks: a node counts
/// those whose stack ends there (its self count, as self time is), a frame the ones whose
/// stack holds it, once per stack however often the stack holds it, so no frame's count
/// exceeds the source's total.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Count {
    /// Calls made.
    Calls,
    /// CPU callstack samples taken.
    Samples,
    /// Allocations made.
    Allocations,
}

impl Count {
    /// `calls`, `samples` or `allocations`, as the summary spells it.
    pub const fn name(self) -> &'static str {
        match self {
            Count::Calls => "calls",
            Count::Samples => "samples",
            Count::Allocations => "allocations",
        }
    }

    /// `n` of them in words: `1 call`, `5,003 samples`.
    pub fn counted(self, n: u64) -> String {
        let (one, many) = match self {
            Count::Calls => ("call", "calls"),
            Count::Samples => ("sample", "samples"),
            Count::Allocations => ("allocation", "allocations"),
        };
        counted(n, one, many)
    }

    /// Counted once per stack, at the stack's last frame: samples and allocations.
    pub const fn per_stack(self) -> bool {
        !matches!(self, Count::Calls)
    }
}

/// What a source's values count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Microseconds of time.
    Micros,
    /// Samples taken.
    Samples,
    /// Bytes of memory.
    Bytes,
}

impl Unit {
    /// `us`, `samples` or `bytes`, as the summary spells it.
    pub const fn name(self) -> &'static str {
        match self {
            Unit::Micros => "us",
            Unit::Samples => "samples",
            Unit::Bytes => "bytes",
        }
    }

    /// `µs`, `samples` or `bytes`, as text for people writes it after a number.
    pub const fn symbol(self) -> &'static str {
        match self {
            Unit::Micros => "µs",
            Unit::Samples => "samples",
            Unit::Bytes => "bytes",
        }
    }
}

/// A source a trace has: its kind, the unit of its values and what they are, in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    /// Which kind it is.
    pub kind: SourceKind,
    /// What its values count.
    pub unit: Unit,
    /// What its values are, e.g. `CPU callstack samples of 38 threads (5,003 samples)`.
    pub description: String,
}

impl Source {
    /// A source of `count` threads (processes, for a heap source) whose frames are
    /// `frames`, described in words.
    pub(crate) fn new(kind: SourceKind, unit: Unit, frames: FrameKind, count: usize) -> Source {
        let threads = counted(count as u64, "thread", "threads");
        let processes = counted(count as u64, "process", "processes");
        let calls = match frames {
            FrameKind::Method => "Method calls",
            FrameKind::Slice => "Slices",
            FrameKind::Function => "Calls",
        };
        let description = match (kind, unit) {
            (SourceKind::Calls, _) => format!("{calls} of {threads}"),
            (SourceKind::CpuSamples, Unit::Samples) => format!("CPU callstack samples of {threads}, counted"),
            (SourceKind::CpuSamples, _) => format!("On-CPU time of {threads}, from callstack samples"),
            (SourceKind::HeapUnreleased, _) => {
                format!("Bytes allocated and not freed at the heap dump, in {processes}")
            }
            (SourceKind::HeapAllocated, _) => format!("Bytes allocated up to the heap dump, in {processes}"),
        };
        Source { kind, unit, description }
    }
}

/// Everything that reads a source's values and differs from source to source.
#[derive(Debug, Clone)]
pub(crate) struct SourceData {
    pub source: Source,
    pub threads: Vec<ThreadProfile>,
    pub clocks: ClockSet,
    pub time_unit: TimeUnit,
    pub frame_kind: FrameKind,
    pub clock_words: ClockWords,
    pub preferred_clock: Option<Clock>,
    pub shortest_call: u64,
}

impl Profile {
    /// The sources this trace has, in order of preference: the first is shown by default.
    pub fn sources(&self) -> &[Source] {
        &self.sources
    }

    /// The source the profile shows now.
    pub fn source(&self) -> &Source {
        &self.source
    }

    /// Shows `kind` from now on: every product reads its threads, unit and clocks. A heap
    /// source shows the dump chosen with [`Profile::select_dump`] (the last by default).
    pub fn select_source(&mut self, kind: SourceKind) -> Result<()> {
        if kind == self.source.kind {
            return Ok(());
        }
        if !self.sources.iter().any(|s| s.kind == kind) {
            let have = self.sources.iter().map(|s| s.kind.name()).collect::<Vec<_>>().join(", ");
            return Err(Error::new(
                ErrorKind::Request,
                format!("this trace has no {} source; it has: {have}", kind.name()),
            ));
        }
        let data = if kind.is_heap() {
            let heap = self.heap.as_ref().expect("a heap source has heap dumps");
            let view = HeapView { kind, dump: self.dump };
            heap.source_data(view, &self.sources)
        } else {
            let at = self.stashed.iter().position(|d| d.source.kind == kind).expect("a listed source is kept");
            self.stashed.swap_remove(at)
        };
        let old = self.put_in(data);
        if !old.source.kind.is_heap() {
            self.stashed.push(old);
        }
        Ok(())
    }

    /// The heap dump heap sources show, by its place in time (the last where none is
    /// chosen), and how many dumps there are; `None` where the trace has no heap profile.
    pub fn dumps(&self) -> Option<(usize, usize)> {
        let heap = self.heap.as_ref()?;
        let count = heap.dump_count();
        Some((self.dump.unwrap_or(count.saturating_sub(1)).min(count.saturating_sub(1)), count))
    }

    /// When each heap dump was taken (the latest of its heaps'), in µs from the start of the
    /// trace's timeline.
    pub fn dump_times_us(&self) -> Vec<u64> {
        let Some(heap) = &self.heap else { return Vec::new() };
        (0..heap.dump_count())
            .map(|i| {
                let latest =
                    heap.processes.iter().flat_map(|p| &p.heaps).filter_map(|h| h.dumps.get(i)).map(|d| d.time).max();
                let ns = latest.unwrap_or(self.timeline.start).saturating_sub(self.timeline.start);
                heap.time_unit.micros(ns)
            })
            .collect()
    }

    /// Heap sources show dump `dump` (counted from 0 in time order) from now on.
    pub fn select_dump(&mut self, dump: usize) -> Result<()> {
        let Some((_, count)) = self.dumps() else {
            return Err(Error::new(ErrorKind::Request, "this trace has no heap profile, so no dumps to choose from"));
        };
        if dump >= count {
            let choose =
                if count == 1 { "its only one is 0".to_owned() } else { format!("choose one from 0 to {}", count - 1) };
            return Err(Error::new(
                ErrorKind::Request,
                format!("this trace's heap profile has {}: {choose}", counted(count as u64, "dump", "dumps")),
            ));
        }
        self.dump = Some(dump);
        let kind = self.source.kind;
        if kind.is_heap() {
            let heap = self.heap.as_ref().expect("a heap source has heap dumps");
            let data = heap.source_data(HeapView { kind, dump: self.dump }, &self.sources);
            self.put_in(data);
        }
        Ok(())
    }

    /// Puts `data` in place of the selected source's, and returns that.
    fn put_in(&mut self, data: SourceData) -> SourceData {
        SourceData {
            source: std::mem::replace(&mut self.source, data.source),
            threads: std::mem::replace(&mut self.threads, data.threads),
            clocks: std::mem::replace(&mut self.clocks, data.clocks),
            time_unit: std::mem::replace(&mut self.time_unit, data.time_unit),
            frame_kind: std::mem::replace(&mut self.format.frame_kind, data.frame_kind),
            clock_words: std::mem::replace(&mut self.format.clock_words, data.clock_words),
            preferred_clock: std::mem::replace(&mut self.format.preferred_clock, data.preferred_clock),
            shortest_call: std::mem::replace(&mut self.shortest_call, data.shortest_call),
        }
    }

    /// The length of a tick of the trace's timeline (of `timeline`, `gaps` and calls),
    /// whichever source is shown: a heap source's values are bytes, not ticks.
    pub fn trace_time_unit(&self) -> TimeUnit {
        match (&self.heap, self.source.kind.is_heap()) {
            (Some(heap), true) => heap.time_unit,
            _ => self.time_unit,
        }
    }

    /// What the selected source's nodes count (`Node::calls`).
    pub fn count(&self) -> Count {
        self.source.kind.count()
    }

    /// Whether the nodes' counts are known: not within a time range of samples, whose
    /// samples are not kept one by one.
    pub fn counts_known(&self) -> bool {
        !self.counts_unknown
    }

    /// The unit of the selected source's values (on its default clock).
    pub fn unit(&self) -> Unit {
        self.source.unit
    }

    /// The unit of the selected source's values on `clock`: the source's on its default
    /// clock; µs on the other, which is time (CPU samples counted have a wall clock).
    pub fn unit_of(&self, clock: Clock) -> Unit {
        if clock == self.default_clock() {
            self.source.unit
        } else {
            Unit::Micros
        }
    }
}
