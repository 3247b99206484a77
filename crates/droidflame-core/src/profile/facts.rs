//! The trace's facts: what the input was and what reading it found.

use super::format::FormatInfo;
use super::repairs::{Repairs, Warning};
use crate::options::Options;

/// What the trace is and what reading it found: its format and header, every repair and
/// warning, the limits it was read under and how many events it held.
#[derive(Debug, Clone)]
pub struct Facts {
    /// What the input was.
    pub format: FormatInfo,
    /// Every `key=value` of the trace's header or summary, in file order.
    pub header: Vec<(String, String)>,
    /// Every repair made while reading.
    pub repairs: Repairs,
    /// Plain-language notes about what was repaired or guessed, for the user.
    pub warnings: Vec<Warning>,
    /// The limits the analysis ran under.
    pub limits: Options,
    /// Events of all threads.
    pub records: u64,
    /// The calls left out for being short (`shortest_call`) can be read again from the
    /// input (see `Analysis::reread`).
    pub(crate) rereadable: bool,
}
