//! The limits and settings of one analysis, which the analyzer, the importers and the
//! builder read.

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
    /// (`StackProfile::shortest_call` says how short a call may now be). The timeline of the
    /// whole trace loses nothing it could draw; ranges, which need every call, are refused.
    /// The default, about 4 million calls, is 128 MB (up to twice that while vectors grow),
    /// which keeps a browser's wasm heap far from its limit. A method trace read in pieces
    /// on several cores keeps up to this many in each piece until they are joined, in at
    /// most 4 pieces where calls will be let go.
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
