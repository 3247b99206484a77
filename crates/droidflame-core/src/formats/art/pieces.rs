//! A regular method trace read in pieces at once. After the key and the data header every
//! record is the same size and names its own thread, so the records cut at any record
//! boundary. Each piece is read by a copy of the decoder as it stood after the header,
//! into a builder made for a piece, and joined onto the pieces before it
//! (`ArtRecords::join_piece`, `ProfileBuilder::join_piece`).

use super::decoder::ArtDecoder;
use super::import::Checkpoints;
use super::records::{PieceClocks, PieceResume};
use super::v1::{raw_wall, RecordLayout};
use crate::error::{Error, ErrorKind, Result};
use crate::feed::ChunkFeeder;
use crate::importer::{Checkpoint, Imported, PieceRead, PieceReading, Split};
use crate::options::Options;
use crate::profile::{Piece, PieceMark, PieceParts, ProfileBuilder};
use crate::source::{read_steps, read_vec, ReadAt};
use serde::{Deserialize, Serialize};
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
        options: format!("{options:?}"),
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
    /// The options, as `Debug` writes them: a piece read elsewhere says it was read so.
    options: String,
}

/// What a piece is read into.
enum Target {
    /// The first piece: read as one reading from the start reads it, checkpoints included.
    First(ProfileBuilder, Option<Checkpoints>),
    /// A later piece, and its checkpoints: where each is, and where the piece stood there.
    Later(Piece, Vec<u64>, Vec<(Vec<PieceMark>, PieceResume)>),
}

/// A piece read: its decoder at its end, what it read into, and where it lies.
struct ArtPiece(ArtDecoder, Target, (u64, u64));

/// A later piece as bytes: what its join reads, and which piece of which reading it is.
#[derive(Serialize, Deserialize)]
struct LaterPieceParts {
    range: (u64, u64),
    size: u64,
    /// The options it was read with, as `Debug` writes them.
    options: String,
    clocks: PieceClocks,
    piece: PieceParts,
    offsets: Vec<u64>,
    marked: Vec<(Vec<PieceMark>, PieceResume)>,
}

/// One piece being read, step by step.
struct ArtReading {
    decoder: ArtDecoder,
    target: Target,
    /// Where the piece starts, the next record's offset, and where the piece ends.
    start: u64,
    next: u64,
    end: u64,
    step: u64,
    checkpoint_bytes: Option<u64>,
    /// The last checkpoint's offset.
    marked: u64,
}

impl PieceReading for ArtReading {
    fn step(&mut self, source: &dyn ReadAt, bytes: u64) -> Result<bool> {
        // Whole steps, so chunks (and so checkpoints) fall where reading at once puts them.
        let steps = bytes.div_ceil(self.step).max(1);
        let until = self.end.min(self.next.saturating_add(steps.saturating_mul(self.step)));
        let ArtReading { decoder, target, end, checkpoint_bytes, marked, .. } = self;
        read_steps(source, self.next, until, self.step, |data, offset| -> Result<()> {
            let b = match target {
                Target::First(builder, _) => &mut *builder,
                Target::Later(piece, ..) => &mut piece.builder,
            };
            decoder.decode(data, offset, b)?;
            // As one reading does between chunks; what is kept in the end is the same.
            b.stacks.check_calls();
            let next = offset + data.len() as u64;
            // Not at the piece's end: the next piece starts there.
            if checkpoint_bytes.is_some_and(|every| next - *marked >= every && next < *end) {
                checkpoint(target, next, decoder);
                *marked = next;
            }
            Ok(())
        })?;
        self.next = until;
        Ok(self.next >= self.end)
    }

    fn position(&self) -> u64 {
        self.next
    }

    fn next_end(&self) -> u64 {
        self.end.min(self.next + self.step)
    }

    fn done(self: Box<Self>) -> PieceRead {
        Box::new(ArtPiece(self.decoder, self.target, (self.start, self.end)))
    }
}

/// Notes a checkpoint at `offset`: where the piece's threads and clocks stand.
fn checkpoint(target: &mut Target, offset: u64, decoder: &ArtDecoder) {
    match target {
        Target::First(b, Some(checkpoints)) => {
            if let Some(resume) = decoder.resume_point() {
                checkpoints.places.push(Checkpoint { offset, marks: b.stacks.marks() });
                checkpoints.resumes.push(resume);
            }
        }
        Target::First(_, None) => {}
        Target::Later(piece, offsets, marked) => {
            offsets.push(offset);
            marked.push((piece.builder.stacks.piece_marks(), decoder.piece_resume()));
        }
    }
}

impl Split for ArtSplit {
    fn pieces(&self) -> usize {
        self.bounds.len() - 1
    }

    fn piece_range(&self, at: usize) -> Option<(u64, u64)> {
        Some((*self.bounds.get(at)?, *self.bounds.get(at + 1)?))
    }

    fn start(&self, at: usize) -> Result<Box<dyn PieceReading>> {
        let taken = || Error::new(ErrorKind::Request, format!("piece {at} is being read already, or there is none"));
        let mut target = if at == 0 {
            let builder = self.first.lock().expect("no reader panicked").take().ok_or_else(taken)?;
            Target::First(builder, self.checkpoint_bytes.map(|_| Checkpoints::starting_at(self.bounds[0])))
        } else {
            let mut later = self.later.lock().expect("no reader panicked");
            let piece = later.get_mut(at.wrapping_sub(1)).and_then(Option::take).ok_or_else(taken)?;
            Target::Later(piece, Vec::new(), Vec::new())
        };
        // A later piece's start is a checkpoint too: every thread stands where the pieces
        // before left it.
        if at > 0 && self.checkpoint_bytes.is_some() {
            checkpoint(&mut target, self.bounds[at], &self.decoder);
        }
        Ok(Box::new(ArtReading {
            decoder: self.decoder.clone(),
            target,
            start: self.bounds[at],
            next: self.bounds[at],
            end: self.bounds[at + 1],
            step: self.step,
            checkpoint_bytes: self.checkpoint_bytes,
            marked: self.bounds[at],
        }))
    }

    fn to_bytes(&self, read: PieceRead) -> Option<Vec<u8>> {
        let ArtPiece(decoder, Target::Later(piece, offsets, marked), range) = *read.downcast::<ArtPiece>().ok()? else {
            return None;
        };
        let clocks = decoder.art.piece_clocks();
        let (piece, options) = (piece.into_parts().ok()?, self.options.clone());
        postcard::to_allocvec(&LaterPieceParts { range, size: self.size, options, clocks, piece, offsets, marked }).ok()
    }

    fn read_from_bytes(&self, at: usize, bytes: &[u8]) -> Result<PieceRead> {
        let refused = |why: String| Error::new(ErrorKind::Request, format!("piece {at} read elsewhere {why}"));
        let parts: LaterPieceParts =
            postcard::from_bytes(bytes).map_err(|error| refused(format!("does not decode: {error}")))?;
        // Bytes of another piece, file or reading join into a wrong profile, or none.
        if Some(parts.range) != self.piece_range(at) || parts.size != self.size || parts.options != self.options {
            return Err(refused("is of another piece, file or reading".into()));
        }
        let fresh = self.later.lock().expect("no reader panicked").get_mut(at.wrapping_sub(1)).and_then(Option::take);
        let fresh = fresh.ok_or_else(|| Error::new(ErrorKind::Request, format!("there is no piece {at} to join")))?;
        let mut decoder = self.decoder.clone();
        decoder.art.set_piece_clocks(parts.clocks);
        let target = Target::Later(fresh.with_parts(parts.piece), parts.offsets, parts.marked);
        Ok(Box::new(ArtPiece(decoder, target, parts.range)))
    }

    fn join(
        self: Box<Self>,
        source: &dyn ReadAt,
        pieces: Vec<PieceRead>,
    ) -> Result<Option<(ProfileBuilder, Imported)>> {
        let mut pieces = pieces.into_iter();
        let first = pieces.next().and_then(|p| p.downcast::<ArtPiece>().ok()).expect("the first piece first");
        let ArtPiece(mut decoder, Target::First(mut builder, mut checkpoints), _) = *first else {
            unreachable!("the first piece first")
        };
        for (at, read) in pieces.enumerate() {
            let Ok(ArtPiece(later, Target::Later(piece, offsets, marked), _)) = read.downcast::<ArtPiece>().map(|p| *p)
            else {
                unreachable!("later pieces follow the first")
            };
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
