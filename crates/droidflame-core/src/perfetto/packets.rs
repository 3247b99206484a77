//! What Perfetto packets mean: ftrace events (atrace markers in `print`, scheduling,
//! thread names) go through the time sorter to the format-neutral system model; process
//! trees name processes and threads at once; compressed packets are inflated and read as
//! packets again.

use super::proto::{FtraceEventBundle, ProcessTree, TracePacket};
use super::sorter::{Event, Held, TimeSorter};
use crate::atrace::marker;
use crate::atrace::InflateBudget;
use crate::profile::ProfileBuilder;
use crate::system::SystemTrace;
use crate::Result;
use bytes::Bytes;
use flate2::{Decompress, FlushDecompress, Status};
use prost::Message;
use rustc_hash::FxHashSet;

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
    /// Events of thread ids no kernel hands out, skipped.
    pub bad_thread_ids: u64,
    /// zstd-compressed packets, not read.
    pub zstd_packets: u64,
    /// Packets of kinds droidflame does not draw (heap profiles, power rails, logs, …).
    pub other_packets: u64,
}

/// Reads packets into the system model.
#[derive(Debug, Default)]
pub struct PacketReader {
    pub stats: PacketStats,
    pub system: SystemTrace,
    sorter: TimeSorter,
    /// Packet sequences seen so far.
    sequences: FxHashSet<u32>,
}

impl PacketReader {
    /// Reads one packet (`at`: its input offset, for the notes).
    pub fn packet(&mut self, bytes: Bytes, at: u64, budget: &mut InflateBudget, b: &mut ProfileBuilder) -> Result<()> {
        self.stats.packets += 1;
        let packet = match TracePacket::decode(bytes) {
            Ok(packet) => packet,
            Err(_) => {
                self.damaged(at, b);
                return Ok(());
            }
        };
        // Writers set the flag on a sequence's first packet too, where nothing can be lost.
        let sequence = packet.trusted_packet_sequence_id.unwrap_or(0);
        let seen = !self.sequences.insert(sequence);
        if seen && packet.previous_packet_dropped.is_some_and(|n| n > 0) {
            self.stats.dropped_packets += 1;
        }
        let mut used = false;
        if let Some(bundle) = &packet.ftrace_events {
            self.bundle(bundle, b);
            used = true;
        }
        if let Some(tree) = &packet.process_tree {
            self.process_tree(tree);
            used = true;
        }
        if let Some(compressed) = &packet.compressed_packets {
            self.compressed(compressed, at, budget, b)?;
            used = true;
        }
        if packet.zstd_compressed_packets.is_some() {
            self.stats.zstd_packets += 1;
            used = true;
        }
        if !used {
            self.stats.other_packets += 1;
        }
        Ok(())
    }

    fn bundle(&mut self, bundle: &FtraceEventBundle, b: &mut ProfileBuilder) {
        let cpu = bundle.cpu.unwrap_or(0);
        if bundle.lost_events == Some(true) {
            self.stats.lost_bundles += 1;
        }
        self.stats.ftrace_events += bundle.event.len() as u64;
        let mut read = 0;
        let (sorter, system, stats) = (&mut self.sorter, &mut self.system, &mut self.stats);
        let on_event = &mut |s: &TimeSorter, h: &Held| apply(system, stats, s, h, b);
        for e in &bundle.event {
            let (Some(ts), Some(tid)) = (e.timestamp, e.pid) else {
                continue;
            };
            let event = if let Some(print) = &e.print {
                let text = sorter.text(print.buf.as_deref().unwrap_or_default());
                Event::Print { text }
            } else if let Some(switch) = &e.sched_switch {
                let prev_comm = sorter.text(switch.prev_comm.as_deref().unwrap_or_default());
                let next_comm = sorter.text(switch.next_comm.as_deref().unwrap_or_default());
                Event::Switch {
                    prev: switch.prev_pid.unwrap_or(0) as u32,
                    prev_comm,
                    // Task state bits: none of the sleeping or dead ones set means the
                    // thread was preempted and is still runnable.
                    prev_runnable: switch.prev_state.unwrap_or(0) & 0xFF == 0,
                    next: switch.next_pid.unwrap_or(0) as u32,
                    next_comm,
                }
            } else if let Some(wake) =
                e.sched_waking.as_ref().or(e.sched_wakeup.as_ref()).or(e.sched_wakeup_new.as_ref())
            {
                Event::Wakeup { tid: wake.pid.unwrap_or(0) as u32 }
            } else if let Some(rename) = &e.task_rename {
                let name = sorter.text(rename.newcomm.as_deref().unwrap_or_default());
                Event::Rename { tid: rename.pid.unwrap_or(0) as u32, name }
            } else if let Some(task) = &e.task_newtask {
                let name = sorter.text(task.comm.as_deref().unwrap_or_default());
                Event::Rename { tid: task.pid.unwrap_or(0) as u32, name }
            } else {
                continue;
            };
            read += 1;
            sorter.push(ts, cpu, tid, event, on_event);
        }
        self.stats.read_events += read;
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

    /// A `Trace` of more packets, zlib-compressed.
    fn compressed(&mut self, bytes: &[u8], at: u64, budget: &mut InflateBudget, b: &mut ProfileBuilder) -> Result<()> {
        let mut inflater = Decompress::new(true);
        let mut out = Vec::new();
        loop {
            out.reserve(64 << 10);
            let before = out.len();
            let read = inflater.total_in() as usize;
            let status = inflater.decompress_vec(&bytes[read..], &mut out, FlushDecompress::Finish);
            budget.spend(out.len() - before)?;
            match status {
                Ok(Status::StreamEnd) => break,
                Ok(_) if out.len() > before || (inflater.total_in() as usize) < bytes.len() => {}
                _ => {
                    self.damaged(at, b);
                    return Ok(());
                }
            }
        }
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
        b.repairs.damaged_parts += 1;
    }

    /// The input ended: every held event is read.
    pub fn finish(&mut self, b: &mut ProfileBuilder) {
        let (system, stats) = (&mut self.system, &mut self.stats);
        self.sorter.finish(&mut |s: &TimeSorter, h: &Held| apply(system, stats, s, h, b));
    }
}

/// One event, in time order, to the system model.
fn apply(system: &mut SystemTrace, stats: &mut PacketStats, s: &TimeSorter, h: &Held, b: &mut ProfileBuilder) {
    let Some(t) = system.event(h.tid, h.ts, b) else {
        stats.bad_thread_ids += 1;
        return;
    };
    system.on_cpu(h.cpu, t, h.ts, b);
    match h.event {
        Event::Print { text } => {
            if !marker::apply(system, s.bytes(text), h.ts, t, b) {
                stats.other_prints += 1;
            }
        }
        Event::Switch { prev, prev_comm, prev_runnable, next, next_comm } => {
            system.switch(h.cpu, (prev, s.bytes(prev_comm), prev_runnable), (next, s.bytes(next_comm)), h.ts, b);
        }
        Event::Wakeup { tid } => system.wakeup(tid, h.ts, b),
        Event::Rename { tid, name } => {
            let renamed = system.thread(tid);
            system.name_thread(renamed, s.bytes(name));
        }
    }
    system.touch(t, h.ts, b);
}
