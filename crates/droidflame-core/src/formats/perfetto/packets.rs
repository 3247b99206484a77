//! The back's half of reading packets: what they mean beside the events the front put in
//! time order. Process trees and descriptors name processes and threads; CPU samples have
//! their stacks resolved; heap profiles, heap graphs, the frame timeline and deobfuscation
//! mappings go to their readers; and the events the front let go, in time order, go to the
//! format-neutral system model, each at the point one reading lets it go.

use super::code::CodeFrames;
use super::cpu_samples::{CpuSamples, Read};
use super::events::{BackPacket, Step};
use super::frame_timeline::FrameTimeline;
use super::heap_dumps::HeapDumps;
use super::java_heaps::JavaHeaps;
use super::proto::ProcessTree;
use super::sequence::{Sequence, Standing, TraceClocks};
use super::sorted::Sorted;
use super::sorter::Released;
use super::stats::PacketStats;
use super::track_events::{self, TrackTable};
use crate::error::Result;
use crate::formats::system::SystemTrace;
use crate::profile::ProfileBuilder;
use bytes::Bytes;
use rustc_hash::FxHashMap;

/// Reads what the front made of packets into the system model and the other sinks.
#[derive(Debug, Default)]
pub struct PacketReader {
    pub stats: PacketStats,
    pub system: SystemTrace,
    /// Each sequence's interned code and sampling defaults.
    sequences: FxHashMap<u32, Sequence>,
    /// The front's clocks, taken at the end for the notes.
    pub(super) clocks: TraceClocks,
    /// The tracks and counters events went to (the front decides which).
    tracks: TrackTable,
    /// The stack of each CPU sample the front holds, by its number.
    sample_stacks: FxHashMap<u64, u32>,
    /// The batches of events read, for the front to fill again.
    pub spent: Vec<Released>,
    /// The code profiling packets name, resolved to frames and stacks.
    pub code: CodeFrames,
    pub samples: CpuSamples,
    pub heap: HeapDumps,
    pub java_heaps: JavaHeaps,
    pub frames: FrameTimeline,
}

impl PacketReader {
    /// Reads one of the front's steps.
    pub fn step(&mut self, step: Step, b: &mut ProfileBuilder) -> Result<()> {
        match step {
            Step::Packet(packet) => self.packet(*packet, b),
            Step::Damaged { at, packet } => {
                self.stats.packets += u64::from(packet);
                self.damaged(at, b);
            }
            Step::Events(released) => self.apply(released, b),
            Step::Fail(error) => return Err(error),
        }
        Ok(())
    }

    /// Reads one packet, with the events its pushes let go where one reading lets them go.
    fn packet(&mut self, back: BackPacket, b: &mut ProfileBuilder) {
        self.stats.packets += 1;
        let BackPacket { packet, lanes, counters, after_loss, after_events, after_sample, .. } = back;
        self.tracks.lanes.extend(lanes);
        self.tracks.counters.extend(counters);
        let id = packet.trusted_packet_sequence_id.unwrap_or(0);
        match self.sequences.entry(id).or_default().start(&packet) {
            Standing::Readable => {}
            Standing::AfterLoss => self.stats.dropped_packets += 1,
            Standing::Unreadable => {
                self.stats.unreadable_packets += 1;
                return;
            }
        }
        after_loss.into_iter().for_each(|r| self.apply(r, b));
        if let Some(d) = &packet.track_descriptor {
            track_events::name_owners(d, &mut self.system);
        }
        if let Some(thread) = &packet.thread_descriptor {
            track_events::name_thread(thread, &mut self.system);
        }
        if let Some(process) = &packet.process_descriptor {
            track_events::name_process(process, &mut self.system);
        }
        after_events.into_iter().for_each(|r| self.apply(r, b));
        if let Some(sample) = &packet.perf_sample {
            let sequence = self.sequences.entry(id).or_default();
            if let Read::Sample { callstack, .. } = self.samples.packet(sample, sequence.timebase.as_ref()) {
                match back.sample {
                    Some(number) => {
                        let stack = callstack.and_then(|iid| sequence.code.stack(iid, &mut self.code, b));
                        let stack = stack.unwrap_or_else(|| {
                            self.samples.stats.unknown_callstacks += 1;
                            self.code.unknown_stack(b)
                        });
                        self.sample_stacks.insert(number, stack);
                    }
                    None => self.samples.stats.unconvertible_times += 1,
                }
            }
        }
        after_sample.into_iter().for_each(|r| self.apply(r, b));
        if let Some(profile) = &packet.profile_packet {
            let sequence = self.sequences.entry(id).or_default();
            let (ts, coarse) = (back.profile_time, back.coarse);
            // A dump's own time is on the coarse monotonic clock; else the packet's is taken.
            let time = |t: Option<u64>| t.and_then(|t| coarse.to_boot(t)).or(ts).unwrap_or(0);
            self.heap.packet(id, profile, time, &mut sequence.code, &mut self.code, b);
        }
        if let Some(graph) = &packet.heap_graph {
            self.java_heaps.packet(id, packet.timestamp.unwrap_or(0), graph.clone(), b);
        }
        if let Some(event) = &packet.frame_timeline_event {
            match back.frame_time {
                Some(ts) => {
                    self.frames.event(event, ts);
                    self.system.cover(ts);
                }
                None => self.stats.unconvertible_times += 1,
            }
        }
        if let Some(mapping) = &packet.deobfuscation_mapping {
            let text = |b: &Option<Bytes>| String::from_utf8_lossy(b.as_deref().unwrap_or_default()).into_owned();
            for class in &mapping.obfuscated_classes {
                let methods =
                    class.obfuscated_methods.iter().map(|m| (text(&m.obfuscated_name), text(&m.deobfuscated_name)));
                b.frames.rename_class(text(&class.obfuscated_name), text(&class.deobfuscated_name), methods.collect());
            }
        }
        if let Some(tree) = &packet.process_tree {
            self.process_tree(tree);
        }
    }

    /// Events the front let go, in time order, to the system model and the CPU samples.
    fn apply(&mut self, released: Released, b: &mut ProfileBuilder) {
        let mut to = Sorted {
            system: &mut self.system,
            stats: &mut self.stats,
            tracks: &self.tracks,
            samples: &mut self.samples,
            code: &self.code,
            sample_stacks: &mut self.sample_stacks,
        };
        for held in &released.events {
            to.apply(&released.texts, held, b);
        }
        self.spent.push(released);
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

    /// A damaged packet (at byte `at`), skipped.
    fn damaged(&mut self, at: u64, b: &mut ProfileBuilder) {
        self.stats.damaged += 1;
        self.stats.first_damaged_at.get_or_insert(at);
        b.facts.repairs.damaged_parts += 1;
    }

    /// The input ended and the front's last events were read: the heap dumps end.
    pub fn finish(&mut self, front: FrontEnd, b: &mut ProfileBuilder) {
        self.stats.add_front(&front.stats);
        self.clocks = front.clocks;
        self.heap.finish(&mut self.sequences, &mut self.code, b);
        self.java_heaps.finish(b);
    }
}

/// What the front counted and kept that the notes read.
#[derive(Debug, Default)]
pub struct FrontEnd {
    pub stats: PacketStats,
    pub clocks: TraceClocks,
}
