//! A regular method trace read in pieces at once. After the key and the data header every
//! record is the same size and names its own thread, so the records cut at any record
//! boundary. Each piece is read by a copy of the decoder as it stood after the header,
//! into a builder made for a piece, and joined onto the pieces before it
//! (`ArtRecords::join_piece`, `ProfileBuilder::join_piece`).

use super::decoder::ArtDecoder;
use super::v1::{raw_wall, RecordLayout};
use crate::error::Result;
use crate::feed::ChunkFeeder;
use crate::importer::{Imported, PieceRead, Split};
use crate::options::Options;
use crate::profile::{Piece, ProfileBuilder};
use crate::source::{read_steps, read_vec, ReadAt};
use std::sync::Mutex;

/// The key and header are read this much at a time.
const HEAD_STEP: u64 = 64 << 10;
/// Records are read this much at a time (rounded down to whole records).
const RECORD_STEP: u64 = 4 << 20;

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
    let pieces = (pieces as u64).min(records);
    // A call takes two records: past twice the calls kept, one reading lets the shortest
    // go as it reads, which pieces cannot do alike, and the join would be in doubt.
    let calls_let_go = options.keep_calls && records / 2 > options.max_calls;
    if pieces < 2 || calls_let_go || builder.limit_error().is_some() {
        return Ok(None);
    }
    let bounds: Vec<u64> = (0..=pieces).map(|i| start + records * i / pieces * record).collect();
    let later = (1..pieces).map(|_| Some(builder.piece())).collect();
    Ok(Some(Box::new(ArtSplit {
        decoder,
        first: Mutex::new(Some(builder)),
        later: Mutex::new(later),
        bounds,
        size,
        step: RECORD_STEP / record * record,
        layout,
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
}

/// The first piece: read as one reading from the start reads it.
struct FirstPiece(ArtDecoder, ProfileBuilder);
/// A later piece.
struct LaterPiece(ArtDecoder, Piece);

impl ArtSplit {
    fn read_records(
        &self,
        source: &dyn ReadAt,
        at: usize,
        decoder: &mut ArtDecoder,
        b: &mut ProfileBuilder,
    ) -> Result<()> {
        read_steps(source, self.bounds[at], self.bounds[at + 1], self.step, |data, offset| {
            // A piece past the calls kept puts the join in doubt: reading on is waste.
            if b.stacks.past_max_calls() {
                return Ok(());
            }
            decoder.decode(data, offset, b).map(|_| ())
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
            self.read_records(source, at, &mut decoder, &mut builder)?;
            return Ok(Box::new(FirstPiece(decoder, builder)));
        }
        let mut piece = self.later.lock().expect("no reader panicked")[at - 1].take().expect("read once");
        self.read_records(source, at, &mut decoder, &mut piece.builder)?;
        Ok(Box::new(LaterPiece(decoder, piece)))
    }

    fn join(
        self: Box<Self>,
        source: &dyn ReadAt,
        pieces: Vec<PieceRead>,
    ) -> Result<Option<(ProfileBuilder, Imported)>> {
        let mut pieces = pieces.into_iter();
        let first = pieces.next().and_then(|p| p.downcast::<FirstPiece>().ok()).expect("the first piece first");
        let FirstPiece(mut decoder, mut builder) = *first;
        for (at, read) in pieces.enumerate() {
            let LaterPiece(later, piece) =
                *read.downcast::<LaterPiece>().unwrap_or_else(|_| unreachable!("later pieces follow the first"));
            let record = read_vec(source, self.bounds[at + 1], self.layout.size as u64)?;
            if decoder.join_piece(later, piece, raw_wall(&record, self.layout), &mut builder).is_err() {
                return Ok(None);
            }
        }
        // What one reading would hand its finish: the bytes after the last whole record.
        let end = *self.bounds.last().expect("bounds are never empty");
        let rest = read_vec(source, end, self.size - end)?;
        let spec = decoder.finish(&rest, end, false, &mut builder)?;
        Ok(Some((builder, Imported::from(spec))))
    }
}
