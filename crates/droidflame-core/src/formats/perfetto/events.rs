//! The front's half of reading packets: what they say happened, put in time order. ftrace
//! bundles and track events become events; CPU samples are held as events too, their
//! stacks resolved by the back. Every packet goes on to the back (`BackPacket`) with what
//! only the front can work out (its times, on clocks only the front keeps), and the events
//! its pushes let go, each where the back must read them to do what one reading does.

use super::cpu_samples::Read;
use super::proto::ftrace_event::Event as FtraceKind;
use super::proto::{CompactSched, FtraceEventBundle, TracePacket, TrackEvent};
use super::proto::{CLOCK_MONOTONIC_COARSE, TYPE_COUNTER, TYPE_INSTANT, TYPE_SLICE_BEGIN, TYPE_SLICE_END};
use super::sequence::{BootClock, Sequence, Standing, TraceClocks};
use super::sorter::{Event, Lane, Released, TimeSorter, NO_THREAD, ON_CPU};
use super::stats::PacketStats;
use super::track_events::{self, CounterTrack, Target, TrackTable};
use super::unpack;
use crate::error::Error;
use crate::formats::system::{InflateBudget, TrackKey};
use crate::profile::SchedState;
use bytes::Bytes;
use prost::Message;
use rustc_hash::FxHashMap;

/// What the back reads, in order.
#[derive(Debug)]
pub enum Step {
    /// A packet, and the events its pushes let go.
    Packet(Box<BackPacket>),
    /// A packet (`packet`: one of the input's; else what a compressed one held) that is
    /// damaged, at input offset `at`.
    Damaged { at: u64, packet: bool },
    /// Events in time order (the last ones, at the end).
    Events(Released),
    /// What stops the reading there.
    Fail(Error),
}

/// A packet for the back, without what the front read of it (its ftrace events, track
/// event and compressed packets), with what only the front can work out.
#[derive(Debug)]
pub struct BackPacket {
    pub packet: TracePacket,
    /// Tracks and counters events went to for the first time in this packet, in order.
    pub lanes: Vec<(TrackKey, Box<[u8]>)>,
    pub counters: Vec<CounterTrack>,
    /// Events let go by the loss this packet shows, by its track event and ftrace events,
    /// and by its CPU sample.
    pub after_loss: Vec<Released>,
    pub after_events: Vec<Released>,
    pub after_sample: Vec<Released>,
    /// The CPU sample's number where it went to the sorter (none where its time could
    /// not be read on the boot clock).
    pub sample: Option<u64>,
    /// The packet's time on the boot clock, as its profile and its frame timeline event
    /// read it, and the coarse monotonic clock's relation to the boot clock.
    pub profile_time: Option<u64>,
    pub frame_time: Option<u64>,
    pub coarse: BootClock,
}

/// The front's state: sequences, clocks, tracks and the sorter.
#[derive(Debug, Default)]
pub struct EventFront {
    pub stats: PacketStats,
    sorter: TimeSorter,
    sequences: FxHashMap<u32, Sequence>,
    pub clocks: TraceClocks,
    tracks: TrackTable,
    /// The latest ftrace event time read from each sequence (where a loss begins).
    ftrace_last: FxHashMap<u32, u64>,
    /// CPU samples sent to the sorter so far.
    samples: u64,
    lanes_sent: usize,
    counters_sent: usize,
    /// Set when a step failed: nothing more is read.
    failed: bool,
}

impl EventFront {
    /// A front whose sorter holds `window` events at most (tests: many small batches).
    #[cfg(test)]
    pub fn with_window(window: usize) -> Self {
        EventFront { sorter: TimeSorter::with_window(window), ..EventFront::default() }
    }

    /// Reads one packet (`at`: its input offset), decoded (`None`: damaged), into `steps`.
    pub fn packet(
        &mut self,
        bytes: Bytes,
        decoded: Option<TracePacket>,
        at: u64,
        budget: &mut InflateBudget,
        steps: &mut Vec<Step>,
    ) {
        if self.failed {
            return;
        }
        let Some(mut packet) = decoded else {
            steps.push(Step::Damaged { at, packet: true });
            return;
        };
        let id = packet.trusted_packet_sequence_id.unwrap_or(0);
        let mut after_loss = Vec::new();
        match self.sequences.entry(id).or_default().start(&packet) {
            Standing::Readable => {}
            Standing::AfterLoss => {
                if let Some(&last) = self.ftrace_last.get(&id) {
                    self.sorter.push(last, 0, NO_THREAD, Event::Loss);
                    after_loss = std::mem::take(&mut self.sorter.released);
                }
            }
            Standing::Unreadable => {
                steps.push(Step::Packet(Box::new(BackPacket::of(packet))));
                return;
            }
        }
        let mut used = false;
        let sequence = self.sequences.entry(id).or_default();
        if let Some(snapshot) = &packet.clock_snapshot {
            self.clocks.snapshot(snapshot, sequence);
            used = true;
        }
        if let Some(d) = &packet.track_descriptor {
            self.tracks.declare(d);
            used = true;
        }
        if let Some(thread) = &packet.thread_descriptor {
            sequence.thread = track_events::thread_of(thread).1;
            used = true;
        }
        used |= packet.process_descriptor.is_some();
        if let Some(event) = packet.track_event.take() {
            let ts = self.clocks.boot_time(&packet, sequence);
            let track = event.track_uuid.or(sequence.default_track).map(Ok).unwrap_or(Err(sequence.thread));
            let name = match (&event.name, event.name_iid) {
                (Some(name), _) => Some(name.clone()),
                (None, Some(iid)) => sequence.name(iid).cloned().or_else(|| {
                    self.stats.unknown_names += 1;
                    Some(Bytes::from_static(UNKNOWN_NAME))
                }),
                (None, None) => None,
            };
            self.track_event(&event, ts, track, name.as_deref().unwrap_or_default(), id);
            used = true;
        }
        if let Some(bundle) = packet.ftrace_events.take() {
            self.bundle(&bundle, id);
            used = true;
        }
        let after_events = std::mem::take(&mut self.sorter.released);
        let mut sample = None;
        if let Some(perf) = &packet.perf_sample {
            let sequence = self.sequences.entry(id).or_default();
            if let Read::Sample { tid, cpu, .. } = Read::of(perf) {
                if let Some(ts) = self.clocks.boot_time(&packet, sequence) {
                    sample = Some(self.samples);
                    self.sorter.push(ts, cpu, tid, Event::Sample { number: self.samples });
                    self.samples += 1;
                }
            }
            used = true;
        }
        let after_sample = std::mem::take(&mut self.sorter.released);
        // A profile's and a frame timeline event's times, each read as one reading reads it.
        let sequence = self.sequences.entry(id).or_default();
        let profile_time = packet.profile_packet.as_ref().and_then(|_| self.clocks.boot_time(&packet, sequence));
        let frame_time = packet.frame_timeline_event.as_ref().and_then(|_| self.clocks.boot_time(&packet, sequence));
        used |= packet.profile_packet.is_some()
            || packet.heap_graph.is_some()
            || packet.frame_timeline_event.is_some()
            || packet.deobfuscation_mapping.is_some()
            || packet.process_tree.is_some();
        let compressed = (packet.compressed_packets.take(), packet.zstd_compressed_packets.take());
        used |= compressed.0.is_some() || compressed.1.is_some();
        if !used {
            if let Some(kind) = content_field(&bytes) {
                *self.stats.other_kinds.entry(kind).or_default() += 1;
            }
        }
        let back = BackPacket {
            lanes: self.tracks.lanes[self.lanes_sent..].to_vec(),
            counters: self.tracks.counters[self.counters_sent..].to_vec(),
            after_loss,
            after_events,
            after_sample,
            sample,
            profile_time,
            frame_time,
            coarse: self.clocks.clock(CLOCK_MONOTONIC_COARSE),
            ..BackPacket::of(packet)
        };
        (self.lanes_sent, self.counters_sent) = (self.tracks.lanes.len(), self.tracks.counters.len());
        steps.push(Step::Packet(Box::new(back)));
        // What the compressed packets held comes after the packet, as one reading reads it.
        if let Some(compressed) = compressed.0 {
            let out = unpack::inflate(&compressed, budget);
            self.unpacked(out, at, budget, steps);
        }
        if let Some(compressed) = compressed.1.filter(|_| !self.failed) {
            let out = unpack::unzstd(&compressed, budget);
            self.unpacked(out, at, budget, steps);
        }
    }

    /// Keeps the space of a batch of events that was read, for the next.
    pub fn recycle(&mut self, spent: Released) {
        self.sorter.recycle(spent);
    }

    /// Batches of events let go and not taken back yet.
    pub fn ahead(&self) -> usize {
        self.sorter.ahead()
    }

    /// The input ended: every held event goes.
    pub fn finish(&mut self, steps: &mut Vec<Step>) {
        if self.failed {
            return;
        }
        self.sorter.finish();
        steps.extend(self.sorter.released.drain(..).map(Step::Events));
    }

    /// A track event at `ts` (boot clock) to the sorter, on track `track` (a uuid, or
    /// else the sequence's thread, if any).
    fn track_event(
        &mut self,
        event: &TrackEvent,
        ts: Option<u64>,
        track: std::result::Result<u64, Option<u32>>,
        name: &[u8],
        sequence: u32,
    ) {
        self.stats.track_events += 1;
        let Some(ts) = ts else {
            self.stats.unconvertible_times += 1;
            return;
        };
        let target = match track {
            Ok(uuid) => self.tracks.target(uuid),
            Err(Some(tid)) => Target::Thread(tid),
            Err(None) => self.tracks.target(0),
        };
        let (tid, lane) = match target {
            Target::Thread(tid) => (tid, Lane::Thread),
            Target::Lane(index) => (NO_THREAD, Lane::Track(index)),
            Target::Counter(counter) => {
                let value = event.counter_value.or(event.double_counter_value.map(|v| v.round() as i64));
                let (Some(value), Some(TYPE_COUNTER)) = (value, event.r#type) else {
                    return;
                };
                let shape = &self.tracks.counters[counter as usize].shape;
                let mut value = value.saturating_mul(shape.multiplier);
                if shape.incremental {
                    // Deltas in sequence order, which is the order packets of one sequence
                    // come in: the sorter sees the values they add up to.
                    let total = self.sequences.entry(sequence).or_default().counter_totals.entry(counter).or_insert(0);
                    *total = total.saturating_add(value);
                    value = *total;
                }
                self.sorter.push(ts, 0, NO_THREAD, Event::Count { counter, value });
                return;
            }
        };
        let event = match event.r#type.unwrap_or(0) {
            TYPE_SLICE_BEGIN => Event::Begin { lane, name: self.sorter.text(name) },
            TYPE_SLICE_END => Event::End { lane },
            TYPE_INSTANT => Event::Instant { lane, name: self.sorter.text(name) },
            _ => return,
        };
        self.sorter.push(ts, 0, tid, event);
    }

    fn bundle(&mut self, bundle: &FtraceEventBundle, sequence: u32) {
        let cpu = bundle.cpu.unwrap_or(0);
        if bundle.lost_events == Some(true) {
            self.stats.lost_bundles += 1;
        }
        self.stats.ftrace_events += bundle.event.len() as u64;
        let mut read = 0;
        let mut last = 0;
        let writer = self.sequences.get(&sequence);
        let sorter = &mut self.sorter;
        for e in &bundle.event {
            let (Some(ts), Some(tid), Some(kind)) = (e.timestamp, e.pid, &e.event) else {
                continue;
            };
            let event = match kind {
                FtraceKind::Print(print) => {
                    Event::Print { text: sorter.text(print.buf.as_deref().unwrap_or_default()) }
                }
                FtraceKind::SchedSwitch(switch) => {
                    let prev_comm = sorter.text(switch.prev_comm.as_deref().unwrap_or_default());
                    let next_comm = sorter.text(switch.next_comm.as_deref().unwrap_or_default());
                    Event::Switch {
                        prev: switch.prev_pid.unwrap_or(0) as u32,
                        prev_comm,
                        prev_state: left_in(switch.prev_state.unwrap_or(0)),
                        next: switch.next_pid.unwrap_or(0) as u32,
                        next_comm,
                    }
                }
                FtraceKind::SchedWaking(wake) => Event::Wakeup { tid: wake.pid.unwrap_or(0) as u32, waking: true },
                FtraceKind::SchedWakeup(wake) | FtraceKind::SchedWakeupNew(wake) => {
                    Event::Wakeup { tid: wake.pid.unwrap_or(0) as u32, waking: false }
                }
                FtraceKind::CpuFrequency(frequency) => {
                    Event::Frequency { cpu: frequency.cpu_id.unwrap_or(0), khz: frequency.state.unwrap_or(0) }
                }
                FtraceKind::SchedBlockedReason(blocked) => {
                    let symbol = blocked.caller.and_then(|iid| writer?.kernel_symbol(iid));
                    let function = sorter.text(symbol.map_or(&[][..], |s| &s[..]));
                    let io_wait = blocked.io_wait.unwrap_or(0) != 0;
                    Event::Blocked { tid: blocked.pid.unwrap_or(0) as u32, function, io_wait }
                }
                FtraceKind::TaskRename(rename) => {
                    let name = sorter.text(rename.newcomm.as_deref().unwrap_or_default());
                    Event::Rename { tid: rename.pid.unwrap_or(0) as u32, name }
                }
                FtraceKind::TaskNewtask(task) => {
                    let name = sorter.text(task.comm.as_deref().unwrap_or_default());
                    Event::Rename { tid: task.pid.unwrap_or(0) as u32, name }
                }
            };
            read += 1;
            last = last.max(ts);
            sorter.push(ts, cpu, tid, event);
        }
        let mut compact_events = 0;
        if let Some(compact) = &bundle.compact_sched {
            let (events, compact_last) = compact_sched(compact, cpu, sorter);
            compact_events = events;
            read += events;
            last = last.max(compact_last);
        }
        self.stats.ftrace_events += compact_events;
        self.stats.read_events += read;
        if read > 0 {
            let latest = self.ftrace_last.entry(sequence).or_default();
            *latest = (*latest).max(last);
        }
    }

    /// The packets a compressed packet held (the bytes `unpack` gives, `None` for a
    /// damaged stream), read as packets again.
    fn unpacked(
        &mut self,
        out: crate::error::Result<Option<Vec<u8>>>,
        at: u64,
        budget: &mut InflateBudget,
        steps: &mut Vec<Step>,
    ) {
        if self.failed {
            return;
        }
        let out = match out {
            Ok(Some(out)) => out,
            Ok(None) => return steps.push(Step::Damaged { at, packet: false }),
            Err(error) => {
                self.failed = true;
                return steps.push(Step::Fail(error));
            }
        };
        let mut framing = super::framing::PacketFraming::default();
        let mut inner = Vec::new();
        framing.push(&out, &mut |packet, _| inner.push(packet));
        for packet in inner {
            let decoded = TracePacket::decode(packet.clone()).ok();
            self.packet(packet, decoded, at, budget, steps);
        }
        if !self.failed && (framing.broken.is_some() || framing.unfinished().is_some()) {
            steps.push(Step::Damaged { at, packet: false });
        }
    }
}

impl BackPacket {
    /// `packet` with nothing the front worked out.
    fn of(packet: TracePacket) -> BackPacket {
        BackPacket {
            packet,
            lanes: Vec::new(),
            counters: Vec::new(),
            after_loss: Vec::new(),
            after_events: Vec::new(),
            after_sample: Vec::new(),
            sample: None,
            profile_time: None,
            frame_time: None,
            coarse: BootClock::default(),
        }
    }
}

/// The name of a slice whose interned name its sequence never gave.
const UNKNOWN_NAME: &[u8] = b"[unknown interned name]";

/// The state a thread left its CPU in, from the kernel's task state bits: none of the
/// sleeping or dead ones set means it was preempted and is still runnable; bit 2 is
/// uninterruptible sleep (`D`).
fn left_in(prev_state: i64) -> SchedState {
    if prev_state & 0xFF == 0 {
        SchedState::Preempted
    } else if prev_state & 2 != 0 {
        SchedState::Uninterruptible
    } else {
        SchedState::Sleeping
    }
}

/// A bundle's compact scheduling events to the sorter: how many, and the latest time.
fn compact_sched(compact: &CompactSched, cpu: u32, sorter: &mut TimeSorter) -> (u64, u64) {
    let comm =
        |index: Option<&u32>| index.and_then(|&i| compact.intern_table.get(i as usize)).map_or(&[][..], |c| &c[..]);
    let mut ts = 0u64;
    let switches = compact.switch_timestamp.len().min(compact.switch_next_pid.len());
    for i in 0..switches {
        ts = ts.wrapping_add(compact.switch_timestamp[i]);
        let next_comm = sorter.text(comm(compact.switch_next_comm_index.get(i)));
        let event = Event::Switch {
            prev: ON_CPU,
            prev_comm: sorter.text(b""),
            prev_state: left_in(compact.switch_prev_state.get(i).copied().unwrap_or(0)),
            next: compact.switch_next_pid[i] as u32,
            next_comm,
        };
        sorter.push(ts, cpu, ON_CPU, event);
    }
    let last = ts;
    ts = 0;
    let wakings = compact.waking_timestamp.len().min(compact.waking_pid.len());
    for i in 0..wakings {
        ts = ts.wrapping_add(compact.waking_timestamp[i]);
        sorter.push(ts, cpu, ON_CPU, Event::Wakeup { tid: compact.waking_pid[i] as u32, waking: true });
    }
    ((switches + wakings) as u64, last.max(ts))
}

/// Fields of a packet that say nothing of what it holds.
const PACKET_FRAME_FIELDS: [u32; 11] = [3, 8, 10, 12, 13, 41, 42, 58, 59, 79, 87];

/// The field number of what a packet holds (its first field that is not framing).
fn content_field(bytes: &[u8]) -> Option<u32> {
    let varint = |bytes: &[u8]| super::framing::varint(bytes).flatten();
    let mut at = 0;
    while at < bytes.len() {
        let (key, n) = varint(&bytes[at..])?;
        at += n;
        let (field, wire) = ((key >> 3) as u32, key & 7);
        if !PACKET_FRAME_FIELDS.contains(&field) {
            return Some(field);
        }
        at += match wire {
            0 => varint(&bytes[at..])?.1,
            1 => 8,
            5 => 4,
            2 => {
                let (len, n) = varint(&bytes[at..])?;
                n.checked_add(usize::try_from(len).ok()?)?
            }
            _ => return None,
        };
    }
    None
}
