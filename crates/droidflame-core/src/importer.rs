//! The contract every input format implements. The analyzer knows formats only through
//! it: the registry (`formats`) lists one `Format` per input format in sniff order, and
//! the format that recognises the first bytes reads the rest through the profile's sinks
//! (`ProfileBuilder`: stacks, frames, system timeline, heap profiles, facts).
//!
//! What an importer must do:
//! - **Sniff** from the first bytes alone, never a file name: `Yes`, `No`, or `NeedMore`
//!   while the bytes so far could go either way. Given the whole input (`complete`), it
//!   must decide. `Yes` only to bytes no other format starts with: the first format in
//!   the registry's order to say yes reads the input, whoever is still unsure.
//! - **Push**: accept the (decompressed) input in chunks of any size, one byte or all of
//!   it, with the same result; keep what a chunk ends in the middle of.
//! - **Write each kind of data through its sink**: threads and their events to `stacks`,
//!   frames to `frames`, scheduler and frame-timeline data to `system`, heap dumps to
//!   `heap`, the decoder's own repairs and warnings to `facts`.
//! - **Repair, never guess in silence**: damage that can be read past is counted in the
//!   facts sink's repairs (`warn_about` says where); damage that cannot is an error naming
//!   the problem and its byte offset. The stack sink repairs what every format shares
//!   (exits of frames not on top, frames open at the end) and counts it itself.
//! - **Finish**: say what the input was (`FinishSpec`), and optionally how to read parts
//!   of it again (`ReadAgain`), for inputs that can resume mid-way.
//! - Optionally, **split**: read an input that can be read at any offset in pieces at once
//!   (`Split`), giving exactly what pushing it whole gives, or decline.
//! - Optionally, **stage**: read in two halves (`Stages`), a front that cuts and decodes
//!   records and needs no builder, and a back that writes them through the sinks, so the
//!   front can run on another core ahead of the back. The importer must be exactly its
//!   front and back composed, so both ways give the same profile.

use crate::error::Result;
use crate::options::Options;
use crate::profile::{FinishSpec, ProfileBuilder, ThreadMark};
use crate::source::ReadAt;

/// What the first bytes say of an input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Sniff {
    /// This format reads it.
    Yes,
    /// Not this format.
    No,
    /// Could still go either way: sniff again with more bytes.
    NeedMore,
}

impl Sniff {
    /// `Some(true)`, `Some(false)` or `None` (not sure yet), as the formats' own sniffers
    /// answer.
    pub fn from_answer(answer: Option<bool>) -> Sniff {
        match answer {
            Some(true) => Sniff::Yes,
            Some(false) => Sniff::No,
            None => Sniff::NeedMore,
        }
    }
}

/// What the analyzer knows of the input when an importer starts on it.
#[derive(Debug, Clone)]
pub(crate) struct Input<'a> {
    /// The input was gzip-compressed (undone before the importer sees it).
    pub gzip: bool,
    pub options: &'a Options,
}

/// One input format, as the registry lists it.
pub(crate) struct Format {
    /// Its family's name, as `FormatInfo::family` gives it.
    pub family: &'static str,
    /// Whether `head` (the first bytes; all of the input when `complete`) is this format.
    pub sniff: fn(head: &[u8], complete: bool) -> Sniff,
    /// An importer for an input this format said `Yes` to, starting with `head`.
    pub start: fn(head: &[u8], input: &Input) -> Box<dyn Importer>,
    /// For formats written as two files: which of two files (by their first bytes) comes
    /// first, `Ok(true)` when it is the second; an error says why they are no pair.
    pub pair: Option<PairOrder>,
    /// For formats that can read one input in pieces at once: the pieces of `source`, or
    /// `Ok(None)` where this input cannot be split (`parallel.rs` reads it once).
    pub split: Option<SplitInput>,
    /// For formats whose reading has a front and a back: the two halves of an importer for
    /// an input this format said `Yes` to, as `start` would make it whole.
    pub stages: Option<StagesOf>,
}

/// The front and back of an importer for `head`'s input.
pub(crate) type StagesOf = fn(head: &[u8], input: &Input) -> Stages;

/// An importer in two halves: `back.take(front.push(bytes))` for each chunk, then
/// `back.finish(front.finish())`, does what the importer's `push` and `finish` do.
pub(crate) struct Stages {
    pub front: Box<dyn Front>,
    pub back: Box<dyn Back>,
}

/// What a front hands its back: one chunk's records, cut and decoded (the format's own
/// type, which only its back reads).
pub(crate) type Decoded = Box<dyn std::any::Any + Send>;

/// The half of an importer that cuts and decodes; it needs no builder, so it may run on
/// a thread of its own.
pub(crate) trait Front: Send {
    /// Cuts and decodes the next bytes of the input.
    fn push(&mut self, bytes: &[u8]) -> Decoded;

    /// The input has ended: what is left, and what the back must know of the end.
    fn finish(self: Box<Self>) -> Decoded;

    /// Takes back what the back has read (`Back::spent`), its space to fill again.
    fn recycle(&mut self, spent: Decoded) {
        let _ = spent;
    }

    /// How many of its large batches (a format's own measure) the back has not handed
    /// back yet: the caller lets the back catch up before pushing more where they are many.
    fn ahead(&self) -> usize {
        0
    }
}

/// The half of an importer that writes what its front decoded through the sinks.
pub(crate) trait Back {
    /// Reads one of the front's batches, in the order the front made them.
    fn take(&mut self, decoded: Decoded, builder: &mut ProfileBuilder) -> Result<()>;

    /// Reads the front's last batch (from `Front::finish`) and finishes as
    /// `Importer::finish` does.
    fn finish(self: Box<Self>, last: Decoded, builder: &mut ProfileBuilder) -> Result<Imported>;

    /// What it has read that the front may fill again (fresh memory costs more than
    /// reusing it); nothing by default.
    fn spent(&mut self) -> Option<Decoded> {
        None
    }
}

/// Splits `source` into at most `pieces` pieces, within `options`.
pub(crate) type SplitInput =
    fn(source: &dyn ReadAt, options: &Options, pieces: usize) -> Result<Option<Box<dyn Split>>>;

/// One input cut into pieces, each read on its own (at once, on as many cores), then joined
/// in order.
///
/// What a split must do: cut only where its format makes the rest readable without what
/// came before; read the first piece as one reading from the start does, and each other
/// piece into a builder made for a piece (`ProfileBuilder::piece`); join them so that the
/// profile is the one reading once gives, byte for byte, or answer `Ok(None)` where that
/// is in doubt (a limit reached, a clock that wrapped, a frame made in a later piece).
pub(crate) trait Split: Send + Sync {
    /// How many pieces.
    fn pieces(&self) -> usize;

    /// Where piece `at` starts and ends in the input; `None` past the last.
    fn piece_range(&self, at: usize) -> Option<(u64, u64)>;

    /// Starts reading piece `at`; an error for a piece started (or taken as bytes) before.
    fn start(&self, at: usize) -> Result<Box<dyn PieceReading>>;

    /// A later piece's reading as bytes, to be joined where it was not read (the page's
    /// workers share no memory); `None` where it cannot go so (its join would refuse it).
    fn to_bytes(&self, read: PieceRead) -> Option<Vec<u8>>;

    /// Later piece `at` as `to_bytes` gave it from the same split of the same input (this
    /// split has not read that piece); an error where the bytes are not such a piece.
    fn read_from_bytes(&self, at: usize, bytes: &[u8]) -> Result<PieceRead>;

    /// Joins every piece, in order, and finishes as `Importer::finish` does; `Ok(None)`
    /// where the joined profile could differ from reading once.
    fn join(self: Box<Self>, source: &dyn ReadAt, pieces: Vec<PieceRead>)
        -> Result<Option<(ProfileBuilder, Imported)>>;
}

/// One piece being read, in steps: between steps a caller can do other work (the page's
/// worker hears from the others). However it is stepped, the piece reads the same.
pub(crate) trait PieceReading: Send {
    /// Reads about `bytes` more (at least one step of the format's own); `true` once the
    /// piece is read.
    fn step(&mut self, source: &dyn ReadAt, bytes: u64) -> Result<bool>;

    /// Where in the input the piece is read to so far.
    fn position(&self) -> u64;

    /// Where in the input the next step of the format's own ends: reading on from
    /// `position()` to there needs those bytes and no more.
    fn next_end(&self) -> u64;

    /// What was read, for the split's `join` or `to_bytes`.
    fn done(self: Box<Self>) -> PieceRead;
}

/// Reads piece `at` of `split` whole.
pub(crate) fn read_piece(split: &dyn Split, source: &dyn ReadAt, at: usize) -> Result<PieceRead> {
    let mut reading = split.start(at)?;
    while !reading.step(source, u64::MAX)? {}
    Ok(reading.done())
}

/// What reading one piece gave, for its split's `join` alone.
pub(crate) type PieceRead = Box<dyn std::any::Any + Send>;

/// Given the first bytes of two files, whether the second is the first part of the pair.
pub(crate) type PairOrder = fn(first_head: &[u8], second_head: &[u8]) -> Result<bool>;

/// Reads one input into the profile builder.
pub(crate) trait Importer {
    /// Reads the next bytes of the input.
    fn push(&mut self, bytes: &[u8], builder: &mut ProfileBuilder) -> Result<()>;

    /// For formats written as two files: the first file has ended, the second follows.
    fn end_of_part(&mut self, builder: &mut ProfileBuilder) -> Result<()> {
        let _ = builder;
        Ok(())
    }

    /// The input has ended.
    fn finish(self: Box<Self>, builder: &mut ProfileBuilder) -> Result<Imported>;
}

/// What an importer hands over at the end.
pub(crate) struct Imported {
    /// What only the importer knows about the profile.
    pub spec: FinishSpec,
    /// How to read parts of the input again, where the importer kept checkpoints.
    pub read_again: Option<Box<dyn ReadAgain>>,
}

impl From<FinishSpec> for Imported {
    fn from(spec: FinishSpec) -> Self {
        Imported { spec, read_again: None }
    }
}

/// Where reading can start again.
#[derive(Debug, Clone)]
pub(crate) struct Checkpoint {
    /// Offset in the input of the next record.
    pub offset: u64,
    /// Where each thread stood, by thread slot; threads made later have no mark.
    pub marks: Vec<ThreadMark>,
}

/// An importer's checkpoints, and how to read on from each.
pub(crate) trait ReadAgain: std::fmt::Debug + Send + Sync {
    /// In input order; never empty.
    fn checkpoints(&self) -> &[Checkpoint];

    /// An importer that reads the input on from checkpoint `at`.
    fn resume(&self, at: usize) -> Box<dyn Importer>;
}
