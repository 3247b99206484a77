//! Reading a method trace again from the middle. Between two records, all that changes
//! from record to record is where the clocks stand; ids, names and the record layout are
//! the same as at the end (a definition read again changes nothing). So a resume point is
//! the clocks' unwrap state, and the decoder at the end does the rest.

use super::records::Unwrap;
use super::{ArtDecoder, Stage};

/// The clocks between two records.
#[derive(Debug, Clone)]
pub struct ArtResume {
    wall: Unwrap,
    /// By thread slot.
    threads: Vec<[Unwrap; 2]>,
}

impl ArtResume {
    /// Before the first record.
    pub fn initial() -> ArtResume {
        ArtResume { wall: Unwrap::default(), threads: Vec::new() }
    }
}

impl ArtDecoder {
    /// Where the fixed-size records (or the stream) begin in the input, once known.
    pub fn records_start(&self) -> Option<u64> {
        self.records_start
    }

    /// Where the decoder stands, if reading can resume there: between records of the
    /// fixed-size layouts (V2's packets carry state from block to block, and are not
    /// resumed).
    pub fn resume_point(&self) -> Option<ArtResume> {
        if !matches!(self.stage, Stage::Records | Stage::Stream) {
            return None;
        }
        Some(ArtResume { wall: self.art.wall, threads: self.art.per_thread.iter().map(|t| t.unwrap).collect() })
    }

    /// A copy of this decoder (at the end of the input) set back to `point`.
    pub fn resumed(&self, point: &ArtResume) -> ArtDecoder {
        let mut decoder = self.clone();
        decoder.stage = if decoder.streaming { Stage::Stream } else { Stage::Records };
        decoder.art.wall = point.wall;
        for (slot, state) in decoder.art.per_thread.iter_mut().enumerate() {
            state.unwrap = point.threads.get(slot).copied().unwrap_or_default();
        }
        decoder
    }
}
