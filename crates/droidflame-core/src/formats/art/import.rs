//! A method trace as the analyzer sees it: one importer over the decoder, which also
//! reads the two halves of a split trace (`.key` then `.data`) as one input and keeps
//! checkpoints where reading can resume.

use super::decoder::ArtDecoder;
use super::resume::ArtResume;
use crate::error::Result;
use crate::feed::ChunkFeeder;
use crate::importer::{Checkpoint, Imported, Importer, Input, ReadAgain, Sniff};
use crate::profile::ProfileBuilder;

/// Needs the first 8 bytes: a text key (`*version`) or a binary header (`SLOW`).
pub(super) fn sniff(head: &[u8], complete: bool) -> Sniff {
    if ArtDecoder::sniff(head).is_some() {
        Sniff::Yes
    } else if !complete && head.len() < 8 && [&b"*version"[..], super::v1::MAGIC].iter().any(|m| m.starts_with(head)) {
        Sniff::NeedMore
    } else {
        Sniff::No
    }
}

pub(super) fn start(head: &[u8], input: &Input) -> Box<dyn Importer> {
    let decoder = ArtDecoder::sniff(head).expect("started on input it recognised");
    // Re-reading seeks in the input, which compressed input cannot.
    let checkpoints = (input.options.keep_calls && !input.gzip).then(Checkpoints::default);
    Box::new(ArtImporter {
        decoder,
        feeder: ChunkFeeder::default(),
        gzip: input.gzip,
        checkpoints,
        checkpoint_bytes: input.options.checkpoint_bytes.max(1),
    })
}

/// Where reading can start again, and the decoder's state at each place.
#[derive(Debug, Default)]
pub(super) struct Checkpoints {
    pub(super) places: Vec<Checkpoint>,
    pub(super) resumes: Vec<ArtResume>,
}

impl Checkpoints {
    /// Before the first record, at `offset`: nothing open, no clock started.
    pub(super) fn starting_at(offset: u64) -> Checkpoints {
        Checkpoints { places: vec![Checkpoint { offset, marks: Vec::new() }], resumes: vec![ArtResume::initial()] }
    }

    /// What re-reading needs, `decoder` being the decoder at the end of the input.
    pub(super) fn read_again(self, decoder: &ArtDecoder) -> Box<dyn ReadAgain> {
        Box::new(ArtReadAgain { checkpoints: self, decoder: decoder.clone() })
    }
}

struct ArtImporter {
    decoder: ArtDecoder,
    feeder: ChunkFeeder,
    gzip: bool,
    /// Kept with calls, for input read uncompressed and in one piece.
    checkpoints: Option<Checkpoints>,
    checkpoint_bytes: u64,
}

impl ArtImporter {
    /// Notes where reading can start again, every `checkpoint_bytes` of records.
    fn checkpoint(&mut self, builder: &ProfileBuilder) {
        let Some(checkpoints) = &mut self.checkpoints else {
            return;
        };
        let Some(resume) = self.decoder.resume_point() else {
            return;
        };
        if checkpoints.places.is_empty() {
            let Some(offset) = self.decoder.records_start() else {
                return;
            };
            *checkpoints = Checkpoints::starting_at(offset);
        }
        let offset = self.feeder.rest().1;
        if checkpoints.places.last().is_some_and(|c| offset - c.offset >= self.checkpoint_bytes) {
            checkpoints.places.push(Checkpoint { offset, marks: builder.stacks.marks() });
            checkpoints.resumes.push(resume);
        }
    }
}

impl Importer for ArtImporter {
    fn push(&mut self, bytes: &[u8], builder: &mut ProfileBuilder) -> Result<()> {
        let decoder = &mut self.decoder;
        self.feeder.push(bytes, |data, offset| decoder.decode(data, offset, builder))?;
        self.checkpoint(builder);
        Ok(())
    }

    /// The key file ended: its last line ends there even without a newline.
    fn end_of_part(&mut self, builder: &mut ProfileBuilder) -> Result<()> {
        self.decoder.split = true;
        // Offsets in a split input are not offsets in either file.
        self.checkpoints = None;
        if self.feeder.rest().0.last().is_some_and(|&b| b != b'\n') {
            self.push(b"\n", builder)?;
        }
        Ok(())
    }

    fn finish(self: Box<Self>, builder: &mut ProfileBuilder) -> Result<Imported> {
        let ArtImporter { decoder, feeder, gzip, checkpoints, .. } = *self;
        let read_again =
            checkpoints.filter(|c| !c.places.is_empty()).map(|checkpoints| checkpoints.read_again(&decoder));
        let (rest, offset) = feeder.rest();
        let spec = decoder.finish(rest, offset, gzip, builder)?;
        Ok(Imported { spec, read_again })
    }
}

/// A method trace's checkpoints, and its decoder at the end of the input: ids, names and
/// the record layout stay as they were there; only the clocks are set back.
#[derive(Debug)]
struct ArtReadAgain {
    checkpoints: Checkpoints,
    decoder: ArtDecoder,
}

impl ReadAgain for ArtReadAgain {
    fn checkpoints(&self) -> &[Checkpoint] {
        &self.checkpoints.places
    }

    fn resume(&self, at: usize) -> Box<dyn Importer> {
        let offset = self.checkpoints.places[at].offset;
        Box::new(ArtImporter {
            decoder: self.decoder.resumed(&self.checkpoints.resumes[at]),
            feeder: ChunkFeeder::at(offset),
            gzip: false,
            checkpoints: None,
            checkpoint_bytes: u64::MAX,
        })
    }
}
