//! Reading a method trace again from the middle. Between two records, all that changes
//! from record to record is where the clocks stand; ids, names and the record layout are
//! the same as at the end (a definition read again changes nothing). So a resume point is
//! the clocks' unwrap state, and the decoder at the end does the rest
//! (`ArtDecoder::resumed`).

use super::records::Unwrap;

/// The clocks between two records.
#[derive(Debug, Clone)]
pub struct ArtResume {
    pub(super) wall: Unwrap,
    /// By thread slot.
    pub(super) threads: Vec<[Unwrap; 2]>,
}

impl ArtResume {
    /// Before the first record.
    pub fn initial() -> ArtResume {
        ArtResume { wall: Unwrap::default(), threads: Vec::new() }
    }
}
