//! Reading one input on every core. The format's split (`importer::Split`) cuts the input
//! into pieces, each piece is read on a thread of its own, and the pieces are joined in
//! order into what reading once gives. Where the format cannot split the input, or the
//! join is in doubt, the input is read once, as `Analyzer` reads it; the answer is the
//! same either way, only the time differs.

use crate::analysis::Analysis;
use crate::error::Result;
use crate::formats;
use crate::importer::{PieceRead, Split};
use crate::input::{finish_analysis, Analyzer};
use crate::options::Options;
use crate::source::{read_steps, read_vec, ReadAt};

/// Inputs smaller than this are read once: splitting a smaller one saves less than the
/// threads and the join cost (BENCHMARKS.md, "Reading on every core").
pub const PIECES_FROM_BYTES: u64 = 16 << 20;
/// Pieces at most, whatever the machine has.
pub const MAX_PIECES: usize = 16;
/// Bytes sniffed before a format is chosen.
const SNIFF_BYTES: u64 = 64 << 10;
/// Bytes read at a time when the input is read once.
const READ_STEP: u64 = 1 << 20;

/// Analyses `source`: in pieces on every core where it is large enough and its format can
/// split it, else read once. The same analysis either way.
pub fn analyze_source(source: &dyn ReadAt, options: Options) -> Result<Analysis> {
    let pieces = if source.size() >= PIECES_FROM_BYTES { cores() } else { 1 };
    analyze_in_pieces(source, options, pieces).map(|(analysis, _)| analysis)
}

/// Analyses `source` in at most `pieces` pieces (and at most `MAX_PIECES`) read at once,
/// whatever its size, and says how many it was read in (1 where it was read once).
pub fn analyze_in_pieces(source: &dyn ReadAt, options: Options, pieces: usize) -> Result<(Analysis, usize)> {
    let pieces = pieces.min(MAX_PIECES);
    if pieces > 1 {
        if let Some(read) = read_in_pieces(source, &options, pieces) {
            return Ok(read);
        }
    }
    Ok((read_once(source, options)?, 1))
}

/// The cores this machine gives the program.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()).min(MAX_PIECES)
}

/// The analysis in pieces; `None` where the input is to be read once (any error included:
/// reading once reports it where it is).
fn read_in_pieces(source: &dyn ReadAt, options: &Options, pieces: usize) -> Option<(Analysis, usize)> {
    let head = read_vec(source, 0, SNIFF_BYTES.min(source.size())).ok()?;
    let complete = head.len() as u64 == source.size();
    // Compressed input reads only from its start.
    if head.starts_with(&[0x1F, 0x8B]) {
        return None;
    }
    let format = formats::recognise(&head, complete).ok()??;
    let split = (format.split?)(source, options, pieces).ok()??;
    let count = split.pieces();
    let reads = read_all(&*split, source).ok()?;
    let (builder, imported) = split.join(source, reads).ok()??;
    if builder.limit_error().is_some() {
        return None;
    }
    finish_analysis(builder, imported, options.clone()).ok().map(|analysis| (analysis, count))
}

/// Every piece, read at once: the first on this thread, each other on one of its own.
#[cfg(not(target_arch = "wasm32"))]
fn read_all(split: &dyn Split, source: &dyn ReadAt) -> Result<Vec<PieceRead>> {
    std::thread::scope(|scope| {
        let later: Vec<_> = (1..split.pieces()).map(|at| scope.spawn(move || split.read(source, at))).collect();
        let mut reads = vec![split.read(source, 0)?];
        for handle in later {
            reads.push(handle.join().expect("a piece's reader does not panic")?);
        }
        Ok(reads)
    })
}

/// Every piece, one after another (wasm has no threads of its own; the page's workers
/// each read a piece).
#[cfg(target_arch = "wasm32")]
fn read_all(split: &dyn Split, source: &dyn ReadAt) -> Result<Vec<PieceRead>> {
    (0..split.pieces()).map(|at| split.read(source, at)).collect()
}

/// The analysis of `source` read once, from its start: in memory, pushed whole (as
/// `analyze_with` always did: where calls are let go, when depends on the pushes).
fn read_once(source: &dyn ReadAt, options: Options) -> Result<Analysis> {
    let mut analyzer = Analyzer::new(options);
    let step = if source.as_slice().is_some() { source.size() } else { READ_STEP };
    read_steps(source, 0, source.size(), step, |bytes, _| analyzer.push(bytes))?;
    analyzer.finish()
}
