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
//! let profile = droidflame_core::analyze(&bytes).unwrap();
//! let folded = droidflame_core::products::folded(&profile, &Default::default()).unwrap();
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
pub mod products;
pub mod profile;
mod reread;
pub mod stats;
mod text;
#[cfg(target_arch = "wasm32")]
mod wasm_entropy;

pub use analysis::Analysis;
pub use error::{Error, ErrorKind, Result};
pub use input::Analyzer;
pub use profile::{Clock, ClockSet, Count, Profile, Source, SourceKind, Unit};
pub use reread::Reread;

/// Limits and settings of one analysis. The defaults suit any real trace by a wide margin;
/// they exist so that a hostile or broken file ends in a clear error instead of exhausting
/// memory (a wasm page has at most 4 GiB).
#[derive(Debug, Clone)]
pub struct Options {
    /// A deeper stack is refused with an error (real Java stacks stay far below this).
    pub max_stack_depth: usize,
    /// Compressed input that inflates to more than this is refused.
    pub max_decompressed_bytes: u64,
    /// Unique call stacks (call-tree nodes, all threads together) before the trace is
    /// refused. Memory grows with them, at about 100 bytes each (see BENCHMARKS.md).
    pub max_call_stacks: u64,
    /// Threads (and atrace tracks) before the trace is refused.
    pub max_threads: usize,
    /// Distinct method ids (defined or only used) before the trace is refused.
    pub max_methods: usize,
    /// Longer names (methods, classes, signatures, threads, processes) are cut to this
    /// many bytes and end in `…`; each cut is counted (`repairs.long_names`).
    pub max_name_bytes: usize,
    /// Keep every call with its start and end (`ThreadProfile::calls`), for call listings
    /// and the timeline. Off by default: memory then grows with the calls (32 bytes
    /// each), where without them it grows only with unique call stacks.
    pub keep_calls: bool,
    /// With `keep_calls`: past this many calls, the shortest are let go and shorter ones
    /// are no longer kept, about half the limit remaining each time
    /// (`Profile::shortest_call` says how short a call may now be). The timeline of the
    /// whole trace loses nothing it could draw; ranges, which need every call, are refused.
    /// The default, about 4 million calls, is 128 MB (up to twice that while vectors grow),
    /// which keeps a browser's wasm heap far from its limit.
    pub max_calls: u64,
    /// With `keep_calls`: input bytes between two checkpoints, from which the calls too
    /// short to keep are read again (`Profile::reread`). Smaller reads less again per
    /// window and keeps more checkpoints (each holds every thread's open frames).
    pub checkpoint_bytes: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_stack_depth: 1 << 20,
            max_decompressed_bytes: 16 << 30,
            max_call_stacks: 1 << 23,
            max_threads: 1 << 16,
            max_methods: 1 << 22,
            max_name_bytes: 4096,
            keep_calls: false,
            max_calls: 1 << 22,
            checkpoint_bytes: 4 << 20,
        }
    }
}

/// Analyses a whole trace held in memory.
pub fn analyze(bytes: &[u8]) -> Result<Analysis> {
    analyze_with(bytes, Options::default())
}

/// Analyses a whole trace held in memory, within `options`' limits.
pub fn analyze_with(bytes: &[u8], options: Options) -> Result<Analysis> {
    let mut analyzer = Analyzer::new(options);
    analyzer.push(bytes)?;
    analyzer.finish()
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
