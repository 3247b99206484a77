//! droidflame-core: Android traces in, a profile and flame graphs out.
//!
//! Data flows one way: bytes (in chunks) -> gunzip and the registry's sniffers
//! ([`Analyzer`]) -> one importer per format (method traces, atrace/systrace captures,
//! Perfetto traces, simpleperf samples) -> the format-neutral profile builder -> an
//! [`Analysis`]: the [`Profile`] (the model, which knows no format), what a mapping applied to
//! it did, and how to read its input again -> products ([`products`]).
//! Nothing here does I/O, so the same code runs natively and in wasm32.
//!
//! ```no_run
//! let bytes = std::fs::read("app.trace").unwrap();
//! let analysis = droidflame_core::analyze(&bytes).unwrap();
//! let folded = droidflame_core::products::folded(&analysis.profile, &Default::default()).unwrap();
//! ```

#![warn(missing_docs)]

mod analysis;
mod error;
mod feed;
mod formats;
mod importer;
mod input;
mod lines;
pub mod mapping;
mod options;
mod parallel;
mod pieces;
pub mod products;
pub mod profile;
mod reread;
mod source;
pub mod stats;
mod text;
#[cfg(target_arch = "wasm32")]
mod wasm_entropy;

pub use analysis::Analysis;
pub use error::{Error, ErrorKind, Result};
pub use input::Analyzer;
pub use options::Options;
pub use parallel::{analyze_in_pieces, analyze_source, cores, PIECES_FROM_BYTES};
pub use pieces::{PieceReader, Pieces};
pub use profile::{Clock, ClockSet, Count, Profile, Source, SourceKind, Unit};
pub use reread::Reread;
pub use source::ReadAt;

/// Analyses a whole trace held in memory.
pub fn analyze(bytes: &[u8]) -> Result<Analysis> {
    analyze_with(bytes, Options::default())
}

/// Analyses a whole trace held in memory, within `options`' limits; on every core where
/// it is large enough and its format can split it (`analyze_source`).
pub fn analyze_with(bytes: &[u8], options: Options) -> Result<Analysis> {
    analyze_source(&bytes, options)
}

/// Analyses a split trace (`.key` + `.data`), given in either order.
pub fn analyze_split(first: &[u8], second: &[u8]) -> Result<Analysis> {
    analyze_split_with(first, second, Options::default())
}

/// Analyses a split trace (`.key` + `.data`), given in either order, within `options`'
/// limits.
pub fn analyze_split_with(first: &[u8], second: &[u8], options: Options) -> Result<Analysis> {
    let (key, data) = if split_key_is_second(first, second)? { (second, first) } else { (first, second) };
    let mut analyzer = Analyzer::new(options);
    analyzer.push(key)?;
    analyzer.end_of_key_file()?;
    analyzer.push(data)?;
    analyzer.finish()
}

/// Whether two files are the `.key` and `.data` halves of one split trace (in either
/// order), from their first bytes; two files that are not are two traces.
pub fn is_split_pair(first_head: &[u8], second_head: &[u8]) -> bool {
    split_key_is_second(first_head, second_head).is_ok()
}

/// Which of two files is the `.key` half of a split trace, from their first bytes (8 are
/// enough): `Ok(true)` when the second is. An error says why they are no such pair.
pub fn split_key_is_second(first_head: &[u8], second_head: &[u8]) -> Result<bool> {
    formats::pair_first_is_second(first_head, second_head)
}
