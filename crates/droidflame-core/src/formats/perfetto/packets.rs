//! What Perfetto packets mean: ftrace events (atrace markers in `print`, scheduling,
//! thread names) and track events go through the time sorter to the format-neutral system
//! model; process trees and descriptors name processes and threads at once; compressed
//! packets are inflated and read as packets again.

use super::code::CodeFrames;
use super::cpu_samples::{CpuSamples, Read};
use super::frame_timeline::FrameTimeline;
use super::heap_dumps::HeapDumps;
use super::java_heaps::JavaHeaps;
use super::proto::ftrace_event::Event as FtraceKind;
use super::proto::CLOCK_MONOTONIC_COARSE;
use super::proto::{CompactSched, FtraceEventBundle, PerfSample, ProcessTree, TracePacket, TrackEvent};
use super::proto::{TYPE_COUNTER, TYPE_INSTANT, TYPE_SLICE_BEGIN, TYPE_SLICE_END};
use super::sequence::{Sequence, Standing, TraceClocks};
use super::sorted::Sorted;
use super::sorter::{Event, Held, Lane, TimeSorter, NO_THREAD, ON_CPU};
use super::stats::PacketStats;
use super::track_events::{self, Target, TrackTable};
use super::unpack;
use crate::error::Result;
use crate::formats::system::InflateBudget;
use crate::formats::system::SystemTrace;
use crate::profile::{ProfileBuilder, SchedState};
use bytes::Bytes;
use prost::Message;
use rustc_hash::FxHashMap;

/// Reads packets into the system model.
#[derive(Debug, Default)]
pub struct PacketReader {
    pub stats: PacketStats,
    pub system: SystemTrace,
    sorter: TimeSorter,
    sequences: FxHashMap<u32, Sequence>,
    pub(super) clocks: TraceClocks,
    tracks: TrackTable,
    /// The latest ftrace event time read from each sequence (where a loss begins).
    ftrace_last: FxHashMap<u32, u64>,
    /// The code profiling packets name, resolved to frames and stacks.
    pub code: CodeFrames,
    pub samples: CpuSamples,
    pub heap: HeapDumps,
    pub java_heaps: JavaHeaps,
    pub frames: FrameTimeline,
}

impl PacketReader {
    /// Reads one packet (`at`: its input offset, for the notes).
    pub fn packet(&mut self, bytes: Bytes, at: u64, budget: &mut InflateBudget, b: &mut ProfileBuilder) -> Result<()> {
        let decoded = TracePacket::decode(bytes.clone()).ok();
        self.decoded(bytes, decoded, at, budget, b)
    }

    /// Reads one packet, decoded (`None`: damaged).
    pub fn decoded(
        &mut self,
        bytes: Bytes,
        decoded: Option<TracePacket>,
        at: u64,
        budget: &mut InflateBudget,
        b: &mut ProfileBuilder,
    ) -> Result<()> {
        self.stats.packets += 1;
        let Some(packet) = decoded else {
            self.damaged(at, b);
            return Ok(());
        };
        let id = packet.trusted_packet_sequence_id.unwrap_or(0);
        match self.sequences.entry(id).or_default().start(&packet) {
            Standing::Readable => {}
            Standing::AfterLoss => {
                self.stats.dropped_packets += 1;
                // Whole packets of ftrace events are gone: every open slice closes at the
                // last event before them, as at the end of a dump.
                if let Some(&last) = self.ftrace_last.get(&id) {
                    self.push(last, 0, NO_THREAD, Event::Loss, b);
                }
            }
            Standing::Unreadable => {
                self.stats.unreadable_packets += 1;
                return Ok(());
            }
        }
        // Interned data and defaults serve the packet's other fields, or later packets.
        let mut used = false;
        let sequence = self.sequences.entry(id).or_default();
        if let Some(snapshot) = &packet.clock_snapshot {
            self.clocks.snapshot(snapshot, sequence);
            used = true;
        }
        if let Some(d) = &packet.track_descriptor {
            self.tracks.declare(d, &mut self.system);
            used = true;
        }
        if let Some(thread) = &packet.thread_descriptor {
            sequence.thread = track_events::name_thread(thread, &mut self.system).1;
            used = true;
        }
        if let Some(process) = &packet.process_descriptor {
            track_events::name_process(process, &mut self.system);
            used = true;
        }
        if let Some(event) = &packet.track_event {
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
            self.track_event(event, ts, track, name.as_deref().unwrap_or_default(), id, b);
            used = true;
        }
        if let Some(bundle) = &packet.ftrace_events {
            self.bundle(bundle, id, b);
            used = true;
        }
        if let Some(sample) = &packet.perf_sample {
            self.perf_sample(sample, &packet, id, b);
            used = true;
        }
        if let Some(profile) = &packet.profile_packet {
            let sequence = self.sequences.entry(id).or_default();
            let ts = self.clocks.boot_time(&packet, sequence);
            let clocks = &self.clocks;
            // A dump's own time is on the coarse monotonic clock; else the packet's is taken.
            let time = |t: Option<u64>| t.and_then(|t| clocks.to_boot(CLOCK_MONOTONIC_COARSE, t)).or(ts).unwrap_or(0);
            self.heap.packet(id, profile, time, &mut sequence.code, &mut self.code, b);
            used = true;
        }
        if let Some(graph) = &packet.heap_graph {
            self.java_heaps.packet(id, packet.timestamp.unwrap_or(0), graph.clone(), b);
            used = true;
        }
        if let Some(event) = &packet.frame_timeline_event {
            let sequence = self.sequences.entry(id).or_default();
            match self.clocks.boot_time(&packet, sequence) {
                Some(ts) => {
                    self.frames.event(event, ts);
                    self.system.cover(ts);
                }
                None => self.stats.unconvertible_times += 1,
            }
            used = true;
        }
        if let Some(mapping) = &packet.deobfuscation_mapping {
            let text = |b: &Option<Bytes>| String::from_utf8_lossy(b.as_deref().unwrap_or_default()).into_owned();
            for class in &mapping.obfuscated_classes {
                let methods =
                    class.obfuscated_methods.iter().map(|m| (text(&m.obfuscated_name), text(&m.deobfuscated_name)));
                b.frames.rename_class(text(&class.obfuscated_name), text(&class.deobfuscated_name), methods.collect());
            }
            used = true;
        }
        if let Some(tree) = &packet.process_tree {
            self.process_tree(tree);
            used = true;
        }
        if let Some(compressed) = &packet.compressed_packets {
            let out = unpack::inflate(compressed, budget)?;
            self.unpacked(out, at, budget, b)?;
            used = true;
        }
        if let Some(compressed) = &packet.zstd_compressed_packets {
            let out = unpack::unzstd(compressed, budget)?;
            self.unpacked(out, at, budget, b)?;
            used = true;
        }
        if !used {
            if let Some(kind) = content_field(&bytes) {
                *self.stats.other_kinds.entry(kind).or_default() += 1;
            }
        }
        Ok(())
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
        b: &mut ProfileBuilder,
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
                self.push(ts, 0, NO_THREAD, Event::Count { counter, value }, b);
                return;
            }
        };
        let event = match event.r#type.unwrap_or(0) {
            TYPE_SLICE_BEGIN => Event::Begin { lane, name: self.sorter.text(name) },
            TYPE_SLICE_END => Event::End { lane },
            TYPE_INSTANT => Event::Instant { lane, name: self.sorter.text(name) },
            _ => return,
        };
        self.push(ts, 0, tid, event, b);
    }

    /// A CPU sample, its stack resolved, to the sorter.
    fn perf_sample(&mut self, sample: &PerfSample, packet: &TracePacket, id: u32, b: &mut ProfileBuilder) {
        let sequence = self.sequences.entry(id).or_default();
        let Read::Sample { tid, cpu, callstack } = self.samples.packet(sample, sequence.timebase.as_ref()) else {
            return;
        };
        let Some(ts) = self.clocks.boot_time(packet, sequence) else {
            self.samples.stats.unconvertible_times += 1;
            return;
        };
        let stack = callstack.and_then(|iid| sequence.code.stack(iid, &mut self.code, b));
        let stack = stack.unwrap_or_else(|| {
            self.samples.stats.unknown_callstacks += 1;
            self.code.unknown_stack(b)
        });
        self.push(ts, cpu, tid, Event::Sample { stack }, b);
    }

    /// The sorter, and where the events it lets go are applied.
    fn sorting(&mut self) -> (&mut TimeSorter, Sorted<'_>) {
        let to = Sorted {
            system: &mut self.system,
            stats: &mut self.stats,
            tracks: &self.tracks,
            samples: &mut self.samples,
            code: &self.code,
        };
        (&mut self.sorter, to)
    }

    /// One event to the sorter.
    fn push(&mut self, ts: u64, cpu: u32, tid: u32, event: Event, b: &mut ProfileBuilder) {
        let (sorter, mut to) = self.sorting();
        sorter.push(ts, cpu, tid, event, &mut |s: &TimeSorter, h: &Held| to.apply(s, h, b));
    }

    fn bundle(&mut self, bundle: &FtraceEventBundle, sequence: u32, b: &mut ProfileBuilder) {
        let cpu = bundle.cpu.unwrap_or(0);
        if bundle.lost_events == Some(true) {
            self.stats.lost_bundles += 1;
        }
        self.stats.ftrace_events += bundle.event.len() as u64;
        let mut read = 0;
        let mut last = 0;
        // Out of the map while the sorter holds the reader, where blocked reasons name their
        // functions from it.
        let blocking = bundle.event.iter().any(|e| matches!(e.event, Some(FtraceKind::SchedBlockedReason(_))));
        let writer = if blocking { self.sequences.remove(&sequence) } else { None };
        let (sorter, mut to) = self.sorting();
        let on_event = &mut |s: &TimeSorter, h: &Held| to.apply(s, h, b);
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
                    let symbol = blocked.caller.and_then(|iid| writer.as_ref()?.kernel_symbol(iid));
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
            sorter.push(ts, cpu, tid, event, on_event);
        }
        let mut compact_events = 0;
        if let Some(compact) = &bundle.compact_sched {
            let (events, compact_last) = compact_sched(compact, cpu, sorter, on_event);
            compact_events = events;
            read += events;
            last = last.max(compact_last);
        }
        if let Some(writer) = writer {
            self.sequences.insert(sequence, writer);
        }
        self.stats.ftrace_events += compact_events;
        self.stats.read_events += read;
        if read > 0 {
            let latest = self.ftrace_last.entry(sequence).or_default();
            *latest = (*latest).max(last);
        }
    }

    fn process_tree(&mut self, tree: &ProcessTree) {
        for process in &tree.processes {
            let (Some(pid), Some(cmdline)) = (process.pid, process.cmdline.first()) else {
                continue;
            };
            if pid > 0 && !cmdline.is_empty() {
                self.system.name_process(pid as u32, cmdline);
            }
        }
        for thread in &tree.threads {
            let Some(tid) = thread.tid.filter(|&tid| tid > 0) else {
                continue;
            };
            let t = self.system.thread(tid as u32);
            if let Some(pid) = thread.tgid.filter(|&pid| pid > 0) {
                self.system.set_pid(t, pid as u32);
            }
            if let Some(name) = &thread.name {
                self.system.name_thread(t, name);
            }
        }
    }

    /// A `Trace` of more packets, compressed (zlib or zstd: the bytes `unpack` gives, or
    /// `None` for a damaged stream).
    fn unpacked(
        &mut self,
        out: Option<Vec<u8>>,
        at: u64,
        budget: &mut InflateBudget,
        b: &mut ProfileBuilder,
    ) -> Result<()> {
        let Some(out) = out else {
            self.damaged(at, b);
            return Ok(());
        };
        let mut framing = super::framing::PacketFraming::default();
        let mut inner = Vec::new();
        framing.push(&out, &mut |packet, _| inner.push(packet));
        for packet in inner {
            self.packet(packet, at, budget, b)?;
        }
        if framing.broken.is_some() || framing.unfinished().is_some() {
            self.damaged(at, b);
        }
        Ok(())
    }

    /// A damaged packet (at byte `at`), skipped.
    fn damaged(&mut self, at: u64, b: &mut ProfileBuilder) {
        self.stats.damaged += 1;
        self.stats.first_damaged_at.get_or_insert(at);
        b.facts.repairs.damaged_parts += 1;
    }

    /// The input ended: every held event is read.
    pub fn finish(&mut self, b: &mut ProfileBuilder) {
        let (sorter, mut to) = self.sorting();
        sorter.finish(&mut |s: &TimeSorter, h: &Held| to.apply(s, h, b));
        self.heap.finish(&mut self.sequences, &mut self.code, b);
        self.java_heaps.finish(b);
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
fn compact_sched(
    compact: &CompactSched,
    cpu: u32,
    sorter: &mut TimeSorter,
    on_event: &mut dyn FnMut(&TimeSorter, &Held),
) -> (u64, u64) {
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
        sorter.push(ts, cpu, ON_CPU, event, on_event);
    }
    let last = ts;
    ts = 0;
    let wakings = compact.waking_timestamp.len().min(compact.waking_pid.len());
    for i in 0..wakings {
        ts = ts.wrapping_add(compact.waking_timestamp[i]);
        sorter.push(ts, cpu, ON_CPU, Event::Wakeup { tid: compact.waking_pid[i] as u32, waking: true }, on_event);
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
