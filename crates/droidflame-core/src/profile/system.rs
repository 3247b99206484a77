//! The system timeline's parts: the span of the trace and its counter tracks.

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
