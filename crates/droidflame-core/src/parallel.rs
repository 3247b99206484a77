//! Reading one input on every core. The format's split (`importer::Split`) cuts the input
//! into pieces, each piece is read on a thread of its own, and the pieces are joined in
//! order into what reading once gives. A format that cannot split but reads in two halves
//! (`importer::Stages`) runs its front on a second thread, ahead of its back. Where
//! neither applies, or the join is in doubt, the input is read once, as `Analyzer` reads
//! it; the answer is the same every way, only the time differs.

use crate::analysis::Analysis;
use crate::error::Result;
use crate::error::{Error, ErrorKind};
use crate::formats;
use crate::importer::{read_piece, Decoded, Format, Input, PieceRead, Split, Stages, StagesOf};
use crate::input::{finish_analysis, Analyzer};
use crate::options::Options;
use crate::profile::ProfileBuilder;
use crate::source::{read_steps, read_vec, ReadAt};

/// Inputs smaller than this are read once: splitting a smaller one saves less than the
/// threads and the join cost (BENCHMARKS.md, "Reading on every core").
pub const PIECES_FROM_BYTES: u64 = 16 << 20;
/// Pieces at most, whatever the machine has.
pub const MAX_PIECES: usize = 16;
/// Bytes sniffed before a format is chosen.
const SNIFF_BYTES: u64 = 64 << 10;
/// Bytes read at a time when the input is read once or by a front.
const READ_STEP: u64 = 1 << 20;
/// A front's batches decoded ahead of its back, at most (each of `READ_STEP` bytes).
const AHEAD: usize = 32;
/// A front's large batches (`Front::ahead`) the back may not have handed back, at most.
const LARGE_AHEAD: usize = 8;

/// Analyses `source`: in pieces on every core where it is large enough and its format can
/// split it, else read once. The same analysis either way.
pub fn analyze_source(source: &dyn ReadAt, options: Options) -> Result<Analysis> {
    let pieces = if source.size() >= PIECES_FROM_BYTES { cores() } else { 1 };
    analyze_in_pieces(source, options, pieces).map(|(analysis, _)| analysis)
}

/// Analyses `source` on at most `pieces` threads (and at most `MAX_PIECES`), whatever its
/// size, and says how many read it: the pieces it was split into, 2 where a front read
/// ahead of its back, 1 where it was read once.
pub fn analyze_in_pieces(source: &dyn ReadAt, options: Options, pieces: usize) -> Result<(Analysis, usize)> {
    let pieces = pieces.min(MAX_PIECES);
    if pieces > 1 {
        match plan(source, &options, pieces) {
            Plan::Split(read) => return Ok(*read),
            Plan::Staged(stages, head) => return Ok((read_in_stages(source, options, stages, &head)?, 2)),
            Plan::Once => {}
        }
    }
    Ok((read_once(source, options)?, 1))
}

/// The cores this machine gives the program.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()).min(MAX_PIECES)
}

/// How an input is read.
enum Plan {
    /// In pieces: the analysis and the count of pieces.
    Split(Box<(Analysis, usize)>),
    /// In two halves, by the format's stages; the input's first bytes.
    Staged(StagesOf, Vec<u8>),
    Once,
}

/// The analysis in pieces, or how else to read the input (any error reading in pieces
/// included: reading once reports it where it is).
fn plan(source: &dyn ReadAt, options: &Options, pieces: usize) -> Plan {
    let Some((format, head)) = format_of(source) else { return Plan::Once };
    if let Some(split) = format.split {
        return read_in_pieces(source, options, pieces, split).map_or(Plan::Once, |read| Plan::Split(Box::new(read)));
    }
    match format.stages {
        Some(stages) if cfg!(not(target_arch = "wasm32")) => Plan::Staged(stages, head),
        _ => Plan::Once,
    }
}

/// The input's format and first bytes, where it can be read from anywhere: not compressed
/// (that reads only from its start), and recognised.
pub(crate) fn format_of(source: &dyn ReadAt) -> Option<(&'static Format, Vec<u8>)> {
    let head = read_vec(source, 0, SNIFF_BYTES.min(source.size())).ok()?;
    let complete = head.len() as u64 == source.size();
    if head.starts_with(&[0x1F, 0x8B]) {
        return None;
    }
    Some((formats::recognise(&head, complete).ok()??, head))
}

/// The analysis in pieces; `None` where the input is to be read once.
fn read_in_pieces(
    source: &dyn ReadAt,
    options: &Options,
    pieces: usize,
    split: crate::importer::SplitInput,
) -> Option<(Analysis, usize)> {
    let split = split(source, options, pieces).ok()??;
    let count = split.pieces();
    if count < 2 {
        return None;
    }
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
        let later: Vec<_> = (1..split.pieces()).map(|at| scope.spawn(move || read_piece(split, source, at))).collect();
        let mut reads = vec![read_piece(split, source, 0)?];
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
    (0..split.pieces()).map(|at| read_piece(split, source, at)).collect()
}

/// What a front sends its back.
enum Step {
    Batch(Decoded),
    /// The front's last batch: the input has ended.
    End(Decoded),
}

/// The analysis of `source` with the format's front reading ahead on a thread of its own
/// and its back on this one: what reading once gives, as the importer is the two composed.
pub(crate) fn read_in_stages(source: &dyn ReadAt, options: Options, stages: StagesOf, head: &[u8]) -> Result<Analysis> {
    let mut builder = ProfileBuilder::new(&options);
    let Stages { mut front, mut back } = stages(head, &Input { gzip: false, options: &options });
    let whole = source.as_slice().is_some();
    let check = |builder: &mut ProfileBuilder| {
        builder.stacks.check_calls();
        builder.limit_error().map_or(Ok(()), Err)
    };
    let (to_back, from_front) = std::sync::mpsc::sync_channel::<Step>(AHEAD);
    // What the back has read goes back for the front to fill again.
    let (to_front, from_back) = std::sync::mpsc::channel::<Decoded>();
    let imported = std::thread::scope(|scope| {
        let reading = scope.spawn(move || -> Result<()> {
            read_steps(source, 0, source.size(), READ_STEP, |bytes, _| {
                while let Ok(spent) = from_back.try_recv() {
                    front.recycle(spent);
                }
                // Far enough ahead: the back hands batches back as it reads them (or has
                // stopped, and the next send fails).
                while front.ahead() > LARGE_AHEAD {
                    match from_back.recv() {
                        Ok(spent) => front.recycle(spent),
                        Err(_) => break,
                    }
                }
                // A back that stopped (at an error of its own, which it reports) takes no more.
                let stopped = |_| Error::from(std::io::Error::from(std::io::ErrorKind::BrokenPipe));
                to_back.send(Step::Batch(front.push(bytes))).map_err(stopped)
            })?;
            let _ = to_back.send(Step::End(front.finish()));
            Ok(())
        });
        // The channels go with this closure: a front still sending or waiting then stops.
        let to_front = to_front;
        let mut last = None;
        for step in from_front {
            match step {
                Step::Batch(decoded) => {
                    back.take(decoded, &mut builder)?;
                    if let Some(spent) = back.spent() {
                        // A front that has ended takes nothing back.
                        let _ = to_front.send(spent);
                    }
                    // Where reading once pushes the input in steps, limits are checked (and
                    // calls let go) after each; an input in memory it pushes whole.
                    if !whole {
                        check(&mut builder)?;
                    }
                }
                Step::End(decoded) => {
                    if whole {
                        check(&mut builder)?;
                    }
                    last = Some(decoded);
                }
            }
        }
        // The front ends with its last batch, or with an error reading the input.
        let read = reading.join().expect("a front does not panic");
        match (last, read) {
            (Some(last), _) => back.finish(last, &mut builder),
            (None, Err(error)) => Err(error),
            (None, Ok(())) => Err(Error::new(ErrorKind::Truncated, "the input could not be read to its end")),
        }
    })?;
    finish_analysis(builder, imported, options)
}

/// The analysis of `source` read once, from its start: in memory, pushed whole (as
/// `analyze_with` always did: where a limit stops the reading depends on the pushes).
fn read_once(source: &dyn ReadAt, options: Options) -> Result<Analysis> {
    let mut analyzer = Analyzer::new(options);
    let step = if source.as_slice().is_some() { source.size() } else { READ_STEP };
    read_steps(source, 0, source.size(), step, |bytes, _| analyzer.push(bytes))?;
    analyzer.finish()
}
