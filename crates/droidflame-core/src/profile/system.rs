//! The system timeline: what a trace says happened over time beside its stacks.

use super::app_frames::AppFrame;
use super::clock::TimeUnit;

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

/// A counter track of a system trace, summarised.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Counter {
    /// The process that wrote it.
    pub pid: u32,
    /// Its name.
    pub name: String,
    /// What one of its values counts (`kHz`, `ns`, `bytes`, or the writer's own name);
    /// empty for a plain count, or where the trace does not say.
    pub unit: String,
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

impl Counter {
    /// Its summary over `[from, to)` (ticks), without its series: the values written in
    /// that span, the range of the values in force in it (the one in force at `from`
    /// included) and the one in force at its end; `None` where it had no value yet at the
    /// span's end. Without a series (calls not kept) the whole trace's summary is all
    /// there is.
    pub fn within(&self, from: u64, to: u64) -> Option<Counter> {
        let mut cut = Counter { series: Vec::new(), name: self.name.clone(), unit: self.unit.clone(), ..*self };
        if self.series.is_empty() {
            return Some(cut);
        }
        // Written in the span: from the first at `from` or later. In force at `from`: the last
        // written at `from` or before; then the ones written after it.
        let written = self.series.partition_point(|&(ts, _)| ts < from);
        let after = self.series.partition_point(|&(ts, _)| ts <= from);
        let end = self.series.partition_point(|&(ts, _)| ts < to).max(written);
        let at_from = after.checked_sub(1).map(|i| self.series[i].1);
        let mut values = at_from.into_iter().chain(self.series[after.min(end)..end].iter().map(|&(_, v)| v));
        let start = values.next()?;
        (cut.min, cut.max) = values.fold((start, start), |(lo, hi), v| (lo.min(v), hi.max(v)));
        cut.samples = (end - written) as u64;
        cut.last = self.series[end - 1].1;
        Some(cut)
    }
}

/// What a trace says happened over time beside its stacks: its span and the gaps in it,
/// counters, the frames apps and the display produced, the CPUs threads ran on and the
/// kernel functions they blocked in. Method traces have only the span.
#[derive(Debug, Clone)]
pub struct SystemTimeline {
    /// How long one tick of its times is (of the span, gaps, counters' values and frames),
    /// whichever source is shown: a heap source's values are bytes, not ticks.
    pub time_unit: TimeUnit,
    /// The trace's timeline: from the earliest to the latest wall time of any record (a
    /// capture's first and last event), in ticks. Where the trace has no wall clock, the
    /// same over its single clock, which then is no shared timeline (each thread's CPU
    /// clock runs on its own).
    pub timeline: Timeline,
    /// Spans of the timeline where the capture lost every event (between the dumps of a
    /// capture made of several), in ticks, in time order.
    pub gaps: Vec<(u64, u64)>,
    /// Counter tracks (system traces), by pid then name; empty for method traces.
    pub counters: Vec<Counter>,
    /// The frames apps produced, where the trace has a frame timeline; by start.
    pub app_frames: Vec<AppFrame>,
    /// The compositor's display frames (no layer), where the trace has them; by start.
    pub display_frames: Vec<AppFrame>,
    /// Kernel functions threads blocked in (`StateEntry::blocked` indexes it).
    pub blocked_functions: Vec<String>,
    /// CPUs the scheduler ran threads on (their numbers are below it); 0 without
    /// scheduling.
    pub cpus: u32,
}

impl SystemTimeline {
    /// Ticks for `us` µs after the timeline's start.
    pub fn ticks_at(&self, us: f64) -> u64 {
        let unit = self.time_unit;
        let ticks = us.max(0.0) * unit.den as f64 / unit.num as f64;
        self.timeline.start.saturating_add(ticks.min(u64::MAX as f64 / 2.0) as u64)
    }

    /// µs after the timeline's start for a time in ticks (fractional where ticks are finer).
    pub fn micros_at(&self, ticks: u64) -> f64 {
        let unit = self.time_unit;
        ticks.saturating_sub(self.timeline.start) as f64 * unit.num as f64 / unit.den as f64
    }
}
