//! Reading one input in pieces apart, where the readers share no memory (the page's
//! workers, each with its own wasm instance): each reads its piece from the same input and
//! sends it as bytes to the one that joins them. The join gives what reading once gives,
//! as reading in pieces on threads does (`parallel.rs`); where it is in doubt the caller
//! reads once.

use crate::analysis::Analysis;
use crate::error::{Error, ErrorKind, Result};
use crate::importer::{PieceRead, PieceReading, Split};
use crate::input::finish_analysis;
use crate::options::Options;
use crate::parallel::{format_of, MAX_PIECES};
use crate::source::ReadAt;

/// An input cut into pieces, each read apart. Every reader cuts the same input with the
/// same options into the same pieces.
pub struct Pieces {
    split: Box<dyn Split>,
    options: Options,
    /// What each piece read, once it is here.
    read: Vec<Option<PieceRead>>,
}

/// One piece being read, in steps.
pub struct PieceReader {
    at: usize,
    reading: Box<dyn PieceReading>,
    done: bool,
}

impl Pieces {
    /// `source` cut into at most `pieces` (at least 2), where its format can be read in
    /// pieces and they pay; `None` where it is to be read once.
    pub fn cut(source: &dyn ReadAt, options: Options, pieces: usize) -> Option<Pieces> {
        let split = split_of(source, &options, pieces)?;
        let count = split.pieces();
        (count >= 2).then(|| Pieces { split, options, read: (0..count).map(|_| None).collect() })
    }

    /// How many pieces.
    pub fn count(&self) -> usize {
        self.read.len()
    }

    /// Where piece `at` starts and ends in the input; `None` past the last.
    pub fn range(&self, at: usize) -> Option<(u64, u64)> {
        self.split.piece_range(at)
    }

    /// Starts reading piece `at` (each once, and not one given as bytes).
    pub fn reader(&self, at: usize) -> Result<PieceReader> {
        if at >= self.count() {
            return Err(Error::new(ErrorKind::Request, format!("there is no piece {at}: there are {}", self.count())));
        }
        Ok(PieceReader { at, reading: self.split.start(at)?, done: false })
    }

    /// Later piece `reader`, read to its end, as bytes for `add_bytes` where the pieces
    /// are joined; `None` where it cannot be joined (read the input once).
    pub fn to_bytes(&self, reader: PieceReader) -> Result<Option<Vec<u8>>> {
        if !reader.done || reader.at == 0 {
            return Err(Error::new(ErrorKind::Request, "only a later piece read to its end goes as bytes"));
        }
        Ok(self.split.to_bytes(reader.reading.done()))
    }

    /// Piece `reader`, read here to its end.
    pub fn add(&mut self, reader: PieceReader) -> Result<()> {
        if !reader.done {
            return Err(Error::new(ErrorKind::Request, "a piece is added once it is read to its end"));
        }
        self.read[reader.at] = Some(reader.reading.done());
        Ok(())
    }

    /// Later piece `at`, read apart and sent as `to_bytes` gave it.
    pub fn add_bytes(&mut self, at: usize, bytes: &[u8]) -> Result<()> {
        if at == 0 || at >= self.count() || self.read[at].is_some() {
            return Err(Error::new(ErrorKind::Request, format!("piece {at} cannot be added as bytes")));
        }
        self.read[at] = Some(self.split.read_from_bytes(at, bytes)?);
        Ok(())
    }

    /// Every piece joined: what reading once gives; `Ok(None)` where that is in doubt
    /// (read the input once, which reports any error where it is).
    pub fn join(self, source: &dyn ReadAt) -> Result<Option<Analysis>> {
        let Some(reads) = self.read.into_iter().collect::<Option<Vec<_>>>() else {
            return Err(Error::new(ErrorKind::Request, "a piece is missing: every piece is added before the join"));
        };
        let Ok(Some((builder, imported))) = self.split.join(source, reads) else { return Ok(None) };
        if builder.limit_error().is_some() {
            return Ok(None);
        }
        Ok(finish_analysis(builder, imported, self.options).ok())
    }
}

impl PieceReader {
    /// Reads about `bytes` more of the piece; `true` once it is read to its end.
    pub fn step(&mut self, source: &dyn ReadAt, bytes: u64) -> Result<bool> {
        if !self.done {
            self.done = self.reading.step(source, bytes)?;
        }
        Ok(self.done)
    }

    /// Whether the piece is read to its end.
    pub fn done(&self) -> bool {
        self.done
    }

    /// Where in the input the piece is read to so far.
    pub fn position(&self) -> u64 {
        self.reading.position()
    }

    /// Where in the input the next step ends (at least one record past `position()`):
    /// a caller that hands the input over in blocks steps on while it holds that far.
    pub fn next_end(&self) -> u64 {
        self.reading.next_end()
    }
}

/// The split of `source` into at most `pieces`, where its format has one; `None` for any
/// doubt (reading once reports errors).
fn split_of(source: &dyn ReadAt, options: &Options, pieces: usize) -> Option<Box<dyn Split>> {
    if pieces < 2 {
        return None;
    }
    let split = format_of(source)?.0.split?;
    split(source, options, pieces.min(MAX_PIECES)).ok()?
}
