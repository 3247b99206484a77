//! What a Perfetto trace held, counted while its packets are read, for its notes.

use rustc_hash::FxHashMap;

/// What the trace held, for its notes.
#[derive(Debug, Default)]
pub struct PacketStats {
    pub packets: u64,
    /// Packets that are not a `TracePacket` (damage), skipped.
    pub damaged: u64,
    /// Where the first damaged packet began.
    pub first_damaged_at: Option<u64>,
    pub ftrace_events: u64,
    /// Events of kinds droidflame reads.
    pub read_events: u64,
    /// `print` texts that are no atrace marker.
    pub other_prints: u64,
    /// Bundles whose CPU lost events before them, and packets a sequence says it dropped.
    pub lost_bundles: u64,
    pub dropped_packets: u64,
    /// Packets that need interned data their sequence lost, skipped.
    pub unreadable_packets: u64,
    /// Track events read; those whose name was not interned; those on a clock that
    /// cannot be converted to the boot clock (skipped).
    pub track_events: u64,
    pub unknown_names: u64,
    pub unconvertible_times: u64,
    /// Events of thread ids no kernel hands out, skipped.
    pub bad_thread_ids: u64,
    /// Packets of kinds droidflame does not draw (heap profiles, power rails, logs, …),
    /// by their field number in `TracePacket`.
    pub other_kinds: FxHashMap<u32, u64>,
}

impl PacketStats {
    /// Adds what only the front counts (the packets' events, their names and times, and
    /// the kinds of packet nothing reads) to these, the back's.
    pub fn add_front(&mut self, front: &PacketStats) {
        self.ftrace_events += front.ftrace_events;
        self.read_events += front.read_events;
        self.lost_bundles += front.lost_bundles;
        self.track_events += front.track_events;
        self.unknown_names += front.unknown_names;
        self.unconvertible_times += front.unconvertible_times;
        for (&kind, &count) in &front.other_kinds {
            *self.other_kinds.entry(kind).or_default() += count;
        }
    }
}
