//! A regular method trace read in pieces at once. After the key and the data header every
//! record is the same size and names its own thread, so the records cut at any record
//! boundary. Each piece is read by a copy of the decoder as it stood after the header,
//! into a builder made for a piece, and joined onto the pieces before it
//! (`ArtRecords::join_piece`, `ProfileBuilder::join_piece`).

use super::decoder::ArtDecoder;
use super::import::Checkpoints;
use super::records::PieceResume;
use super::v1::{raw_wall, RecordLayout};
use crate::error::Result;
use crate::feed::ChunkFeeder;
use crate::importer::{Checkpoint, Imported, PieceRead, Split};
use crate::options::Options;
use crate::profile::{Piece, PieceMark, ProfileBuilder};
use crate::source::{read_steps, read_vec, ReadAt};
use std::sync::Mutex;

/// The key and header are read this much at a time.
const HEAD_STEP: u64 = 64 << 10;
/// Records are read this much at a time (rounded down to whole records).
const RECORD_STEP: u64 = 4 << 20;
/// Pieces at most where calls are kept and will be let go: each piece keeps up to
/// `Options::max_calls` of its own until the join, so memory stays within four times one
/// reading's.
const PIECES_LETTING_CALLS_GO: u64 = 4;

/// Cuts a regular method trace's records into `pieces`; `Ok(None)` for any other input,
/// and for one whose key or header does not read (reading once reports it).
pub(crate) fn split(source: &dyn ReadAt, options: &Options, pieces: usize) -> Result<Option<Box<dyn Split>>> {
    let size = source.size();
    if pieces < 2 || size < 8 {
        return Ok(None);
    }
    let Some(mut decoder) = ArtDecoder::sniff(&read_vec(source, 0, 8)?) else {
        return Ok(None);
    };
    let mut builder = ProfileBuilder::new(options);
    decoder.read_head_only(true);
    let mut feeder = ChunkFeeder::default();
    let mut offset = 0;
    let (start, layout) = loop {
        if let Some(records) = decoder.fixed_records() {
            break records;
        }
        if decoder.past_head() || offset >= size {
            return Ok(None);
        }
        let step = HEAD_STEP.min(size - offset);
        let chunk = read_vec(source, offset, step)?;
        // A head that does not read is reported by reading once.
        if feeder.push(&chunk, |data, at| decoder.decode(data, at, &mut builder)).is_err() {
            return Ok(None);
        }
        offset += step;
    };
    decoder.read_head_only(false);
    let record = layout.size as u64;
    let records = (size - start) / record;
    let mut pieces = (pieces as u64).min(records);
    // A call takes two records.
    if options.keep_calls && records / 2 > options.max_calls {
        pieces = pieces.min(PIECES_LETTING_CALLS_GO);
    }
    if pieces < 2 || builder.limit_error().is_some() {
        return Ok(None);
    }
    let bounds: Vec<u64> = (0..=pieces).map(|i| start + records * i / pieces * record).collect();
    let later = (1..pieces).map(|_| Some(builder.piece())).collect();
    // Checkpoints as one reading keeps them: with calls, every `checkpoint_bytes` or so.
    let checkpoint_bytes = options.keep_calls.then_some(options.checkpoint_bytes.max(1));
    let step = RECORD_STEP.min(checkpoint_bytes.unwrap_or(u64::MAX));
    Ok(Some(Box::new(ArtSplit {
        decoder,
        first: Mutex::new(Some(builder)),
        later: Mutex::new(later),
        bounds,
        size,
        step: (step / record).max(1) * record,
        layout,
        checkpoint_bytes,
    })))
}

/// A method trace's records in pieces.
struct ArtSplit {
    /// The decoder after the header.
    decoder: ArtDecoder,
    /// The builder after the header, for the first piece.
    first: Mutex<Option<ProfileBuilder>>,
    /// A builder for each later piece.
    later: Mutex<Vec<Option<Piece>>>,
    /// Where each piece begins, and where the last whole record ends.
    bounds: Vec<u64>,
    size: u64,
    step: u64,
    layout: RecordLayout,
    /// Bytes between checkpoints, where calls are kept (and may be read again).
    checkpoint_bytes: Option<u64>,
}

/// The first piece: read as one reading from the start reads it, checkpoints included.
struct FirstPiece(ArtDecoder, ProfileBuilder, Option<Checkpoints>);
/// A later piece, and its checkpoints: where each is, and where the piece stood there.
struct LaterPiece(ArtDecoder, Piece, Vec<u64>, Vec<(Vec<PieceMark>, PieceResume)>);

impl ArtSplit {
    /// Reads piece `at`'s records, calling `checkpoint` with the offset of the next record
    /// every `checkpoint_bytes` or so (not at the piece's end: the next piece starts there).
    fn read_records(
        &self,
        source: &dyn ReadAt,
        at: usize,
        decoder: &mut ArtDecoder,
        b: &mut ProfileBuilder,
        mut checkpoint: impl FnMut(u64, &ArtDecoder, &ProfileBuilder),
    ) -> Result<()> {
        let (mut marked, end) = (self.bounds[at], self.bounds[at + 1]);
        read_steps(source, marked, end, self.step, |data, offset| {
            decoder.decode(data, offset, b)?;
            // As one reading does between chunks; what is kept in the end is the same.
            b.stacks.check_calls();
            let next = offset + data.len() as u64;
            if self.checkpoint_bytes.is_some_and(|every| next - marked >= every && next < end) {
                checkpoint(next, decoder, b);
                marked = next;
            }
            Ok(())
        })
    }
}

impl Split for ArtSplit {
    fn pieces(&self) -> usize {
        self.bounds.len() - 1
    }

    fn read(&self, source: &dyn ReadAt, at: usize) -> Result<PieceRead> {
        let mut decoder = self.decoder.clone();
        if at == 0 {
            let mut builder = self.first.lock().expect("no reader panicked").take().expect("read once");
            let mut checkpoints = self.checkpoint_bytes.map(|_| Checkpoints::starting_at(self.bounds[0]));
            self.read_records(source, at, &mut decoder, &mut builder, |offset, decoder, b| {
                if let (Some(checkpoints), Some(resume)) = (&mut checkpoints, decoder.resume_point()) {
                    checkpoints.places.push(Checkpoint { offset, marks: b.stacks.marks() });
                    checkpoints.resumes.push(resume);
                }
            })?;
            return Ok(Box::new(FirstPiece(decoder, builder, checkpoints)));
        }
        let mut piece = self.later.lock().expect("no reader panicked")[at - 1].take().expect("read once");
        // The piece's start is a checkpoint too: every thread stands where the pieces
        // before left it.
        let (mut offsets, mut marked) = (Vec::new(), Vec::new());
        let mut checkpoint = |offset, decoder: &ArtDecoder, b: &ProfileBuilder| {
            offsets.push(offset);
            marked.push((b.stacks.piece_marks(), decoder.piece_resume()));
        };
        if self.checkpoint_bytes.is_some() {
            checkpoint(self.bounds[at], &decoder, &piece.builder);
        }
        self.read_records(source, at, &mut decoder, &mut piece.builder, checkpoint)?;
        Ok(Box::new(LaterPiece(decoder, piece, offsets, marked)))
    }

    fn join(
        self: Box<Self>,
        source: &dyn ReadAt,
        pieces: Vec<PieceRead>,
    ) -> Result<Option<(ProfileBuilder, Imported)>> {
        let mut pieces = pieces.into_iter();
        let first = pieces.next().and_then(|p| p.downcast::<FirstPiece>().ok()).expect("the first piece first");
        let FirstPiece(mut decoder, mut builder, mut checkpoints) = *first;
        for (at, read) in pieces.enumerate() {
            let LaterPiece(later, piece, offsets, marked) =
                *read.downcast::<LaterPiece>().unwrap_or_else(|_| unreachable!("later pieces follow the first"));
            let record = read_vec(source, self.bounds[at + 1], self.layout.size as u64)?;
            let Ok(joined) = decoder.join_piece(later, piece, raw_wall(&record, self.layout), &marked, &mut builder)
            else {
                return Ok(None);
            };
            if let Some(checkpoints) = &mut checkpoints {
                for (offset, (marks, resume)) in offsets.into_iter().zip(joined) {
                    checkpoints.places.push(Checkpoint { offset, marks });
                    checkpoints.resumes.push(resume);
                }
            }
        }
        // What one reading would hand its finish: the bytes after the last whole record.
        let end = *self.bounds.last().expect("bounds are never empty");
        let rest = read_vec(source, end, self.size - end)?;
        let read_again = checkpoints.map(|checkpoints| checkpoints.read_again(&decoder));
        let spec = decoder.finish(&rest, end, false, &mut builder)?;
        Ok(Some((builder, Imported { spec, read_again })))
    }
}
