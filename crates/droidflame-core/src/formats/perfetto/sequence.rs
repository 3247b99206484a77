//! What each packet sequence (one writer: a thread of an app using the Perfetto SDK, or
//! a data source of the tracing service) carries from packet to packet: interned names,
//! defaults, clocks of its own, and whether that state can still be trusted after a loss.
//! Clocks shared by the whole trace are converted to the boot clock here too.

use super::code::CodeTables;
use super::proto::{
    ClockSnapshot, Timebase, TracePacket, CLOCK_BOOTTIME, CLOCK_MONOTONIC, FIRST_SEQUENCE_CLOCK,
    SEQ_INCREMENTAL_STATE_CLEARED, SEQ_NEEDS_INCREMENTAL_STATE,
};
use bytes::Bytes;
use rustc_hash::FxHashMap;

/// A clock of one sequence, as its last snapshot left it.
#[derive(Debug, Clone, Copy)]
struct SequenceClock {
    /// Its latest value, in its own units (incremental clocks add each packet's time to it).
    value: u64,
    incremental: bool,
    multiplier: u64,
    /// A value of this clock and the boot time at the same instant.
    anchor: Option<(u64, u64)>,
}

/// One sequence's state.
#[derive(Debug, Default)]
pub struct Sequence {
    /// Packets have been seen on it (a first packet that says packets were dropped lost
    /// nothing that came before it).
    seen: bool,
    /// Its interned data since the last clear is all there (false after a loss, until the
    /// writer clears its state again).
    lost_state: bool,
    names: FxHashMap<u64, Bytes>,
    pub default_track: Option<u64>,
    default_clock: Option<u32>,
    clocks: FxHashMap<u32, SequenceClock>,
    /// The thread a legacy SDK sequence writes for.
    pub thread: Option<u32>,
    /// Interned code of profiling packets.
    pub code: CodeTables,
    /// What takes its CPU samples, where it says.
    pub timebase: Option<Timebase>,
    /// Kernel function names by the ids its blocked reasons use.
    kernel_symbols: FxHashMap<u64, Bytes>,
    /// The values incremental counters (by index in the track table) have reached on it.
    pub counter_totals: FxHashMap<u32, i64>,
}

/// How a packet stands with its sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    Readable,
    /// It follows packets the sequence lost: the events in them are gone.
    AfterLoss,
    /// It needs interned data lost with earlier packets: it cannot be read.
    Unreadable,
}

impl Sequence {
    /// Takes in a packet's sequence-level fields.
    pub fn start(&mut self, packet: &TracePacket) -> Standing {
        let flags = packet.sequence_flags.unwrap_or(0);
        let lost = self.seen && packet.previous_packet_dropped.is_some_and(|n| n > 0);
        self.seen = true;
        if lost {
            self.lost_state = true;
        }
        if flags & SEQ_INCREMENTAL_STATE_CLEARED != 0 || packet.incremental_state_cleared == Some(true) {
            self.names.clear();
            self.kernel_symbols.clear();
            self.default_track = None;
            self.default_clock = None;
            self.clocks.clear();
            self.code.clear();
            self.counter_totals.clear();
            self.lost_state = false;
        }
        if self.lost_state && flags & SEQ_NEEDS_INCREMENTAL_STATE != 0 {
            return Standing::Unreadable;
        }
        if let Some(interned) = &packet.interned_data {
            for name in &interned.event_names {
                if let (Some(iid), Some(text)) = (name.iid, &name.name) {
                    self.names.insert(iid, text.clone());
                }
            }
            for symbol in &interned.kernel_symbols {
                if let (Some(iid), Some(text)) = (symbol.iid, &symbol.str) {
                    self.kernel_symbols.insert(iid, text.clone());
                }
            }
            self.code.intern(interned);
        }
        if let Some(defaults) = &packet.trace_packet_defaults {
            self.default_clock = defaults.timestamp_clock_id;
            self.default_track = defaults.track_event_defaults.as_ref().and_then(|d| d.track_uuid);
            if let Some(perf) = &defaults.perf_sample_defaults {
                self.timebase = perf.timebase.clone();
            }
        }
        if lost {
            Standing::AfterLoss
        } else {
            Standing::Readable
        }
    }

    /// An interned kernel function name.
    pub fn kernel_symbol(&self, iid: u64) -> Option<&Bytes> {
        self.kernel_symbols.get(&iid)
    }

    /// An interned event name.
    pub fn name(&self, iid: u64) -> Option<&Bytes> {
        self.names.get(&iid)
    }

    /// Takes in the clocks of this sequence from a snapshot (`boot`: the snapshot's boot time).
    fn snapshot(&mut self, snapshot: &ClockSnapshot, boot: Option<u64>) {
        for clock in &snapshot.clocks {
            let (Some(id), Some(value)) = (clock.clock_id, clock.timestamp) else {
                continue;
            };
            if id >= FIRST_SEQUENCE_CLOCK {
                let multiplier = clock.unit_multiplier_ns.unwrap_or(1).max(1);
                let incremental = clock.is_incremental == Some(true);
                self.clocks
                    .insert(id, SequenceClock { value, incremental, multiplier, anchor: boot.map(|b| (value, b)) });
            }
        }
    }
}

/// Clocks shared by the trace: how far each is from the boot clock, as of the latest
/// snapshot read closely enough.
///
/// A snapshot reads its clocks one after another, the boot clock first; on a busy or
/// emulated device the reads can be hundreds of µs apart. `CLOCK_MONOTONIC` cannot run
/// ahead of the boot clock (they differ by time spent suspended), so a snapshot whose
/// monotonic reading is ahead shows at least that delay. A snapshot read further apart than
/// the one in use is not taken, and the delay a taken one shows comes off the clocks it read
/// from the monotonic one on: a capture's samples then land on the scheduler's times rather
/// than half a millisecond early.
#[derive(Debug, Default)]
pub struct TraceClocks {
    /// Boot time minus the clock's time.
    offsets: FxHashMap<u32, i128>,
    /// The read delay of the snapshot in use, in ns; `None` before one.
    delay: Option<u64>,
    /// Snapshots that showed a read delay of `NOTABLE_DELAY` or more, and the longest, in ns.
    pub delayed: (u32, u64),
    /// The read delay of the snapshot in use, where it showed one, in ns.
    pub corrected: u64,
}

/// One trace-wide clock as it relates to the boot clock, for times read on it later.
#[derive(Debug, Clone, Copy, Default)]
pub struct BootClock {
    /// Boot time minus the clock's time; `None` where no snapshot related the two.
    offset: Option<i128>,
}

impl BootClock {
    /// Time `ts` of this clock on the boot clock.
    pub fn to_boot(self, ts: u64) -> Option<u64> {
        u64::try_from(ts as i128 + self.offset?).ok()
    }
}

/// A read delay worth a note, in ns: two clock reads in a row take well under a µs.
const NOTABLE_DELAY: u64 = 10_000;

impl TraceClocks {
    /// Takes in a snapshot, for the trace and for the sequence it came on.
    pub fn snapshot(&mut self, snapshot: &ClockSnapshot, sequence: &mut Sequence) {
        let reading = |id: u32| snapshot.clocks.iter().find(|c| c.clock_id == Some(id)).and_then(|c| c.timestamp);
        let boot = reading(CLOCK_BOOTTIME);
        if let Some(boot) = boot {
            let delay = reading(CLOCK_MONOTONIC).map_or(0, |mono| mono.saturating_sub(boot));
            if delay >= NOTABLE_DELAY {
                self.delayed = (self.delayed.0 + 1, self.delayed.1.max(delay));
            }
            if self.delay.is_none_or(|used| delay <= used) {
                self.delay = Some(delay);
                self.corrected = delay;
                // Clocks read from the monotonic one on were read at least `delay` after boot.
                let mono_at = snapshot.clocks.iter().position(|c| c.clock_id == Some(CLOCK_MONOTONIC));
                for (at, clock) in snapshot.clocks.iter().enumerate() {
                    if let (Some(id), Some(value)) = (clock.clock_id, clock.timestamp) {
                        if id < FIRST_SEQUENCE_CLOCK && clock.is_incremental != Some(true) {
                            let late = if mono_at.is_some_and(|m| at >= m) { delay } else { 0 };
                            self.offsets.insert(id, boot as i128 + late as i128 - value as i128);
                        }
                    }
                }
            }
        }
        sequence.snapshot(snapshot, boot);
    }

    /// The trace-wide clock `id` as it now relates to the boot clock.
    pub fn clock(&self, id: u32) -> BootClock {
        BootClock { offset: if id == CLOCK_BOOTTIME { Some(0) } else { self.offsets.get(&id).copied() } }
    }

    /// A packet's time on the boot clock, or `None` when its clock cannot be converted.
    pub fn boot_time(&self, packet: &TracePacket, sequence: &mut Sequence) -> Option<u64> {
        let ts = packet.timestamp?;
        let id = packet.timestamp_clock_id.or(sequence.default_clock).unwrap_or(CLOCK_BOOTTIME);
        if id == CLOCK_BOOTTIME {
            return Some(ts);
        }
        if id >= FIRST_SEQUENCE_CLOCK {
            let clock = sequence.clocks.get_mut(&id)?;
            clock.value = if clock.incremental { clock.value.saturating_add(ts) } else { ts };
            let (value, boot) = clock.anchor?;
            let ns = (clock.value as i128 - value as i128) * clock.multiplier as i128 + boot as i128;
            return u64::try_from(ns).ok();
        }
        let offset = self.offsets.get(&id)?;
        u64::try_from(ts as i128 + offset).ok()
    }
}
