//! What the input was: the facts every format has, and the few only some have.

/// What the input was, as detected from its bytes: facts every format has, and a list of
/// the facts only some formats have.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatInfo {
    /// The importer's name for its format (`art`, `atrace`, `perfetto`, `simpleperf`).
    pub family: &'static str,
    /// The form within the family (`regular`, `streaming`, `ctrace`, `protobuf`…).
    pub layout: &'static str,
    /// What kind of recording it is, in words for people (`method trace`, `system trace`).
    pub kind: &'static str,
    /// The format's version number (0 where it has none).
    pub version: u32,
    /// The input was gzip-compressed.
    pub gzip: bool,
    /// The input says where it ends (a record count, a closing marker, a compressed
    /// stream's end), so a cut is noticed and counted (`repairs.truncated`); a text or a
    /// stream of packets can end after any line or packet.
    pub ends_known: bool,
    /// The input was two files read as one.
    pub split: bool,
    /// The process the trace was recorded for, where it says.
    pub pid: Option<u32>,
    /// How long the recorder says it recorded, in µs, where it says.
    pub recorded_us: Option<u64>,
    /// Facts only some formats have, by name (a method trace's `vm`, say).
    pub details: Vec<(&'static str, Detail)>,
    /// The trace looks sampled (its records come at a steady interval, not at each call):
    /// the estimated interval in µs. Times are then quantised to it.
    pub sampling_interval_us: Option<u64>,
    /// The format in words, e.g. `Method trace, streaming v3, gzip`.
    pub description: String,
}

/// A fact about the input that only some formats have.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Detail {
    /// Yes or no.
    Flag(bool),
    /// A count or size.
    Number(u64),
    /// Words, as the trace gives them.
    Text(String),
}

impl FormatInfo {
    /// The detail called `name`, if the format has it.
    pub fn detail(&self, name: &str) -> Option<&Detail> {
        self.details.iter().find(|(n, _)| *n == name).map(|(_, d)| d)
    }

    /// Whether the flag `name` is set (false where the format has no such flag).
    pub fn flag(&self, name: &str) -> bool {
        matches!(self.detail(name), Some(Detail::Flag(true)))
    }

    /// The number called `name`, if the format has it.
    pub fn number(&self, name: &str) -> Option<u64> {
        match self.detail(name) {
            Some(Detail::Number(n)) => Some(*n),
            _ => None,
        }
    }

    /// The words called `name`, if the format has them.
    pub fn text(&self, name: &str) -> Option<&str> {
        match self.detail(name) {
            Some(Detail::Text(text)) => Some(text),
            _ => None,
        }
    }
}
