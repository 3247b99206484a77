//! Heap dumps (`profile_packet`, written by heapprofd and by ART's Java heap sampling):
//! each process's heaps, a dump at a time, with every callstack's totals since profiling
//! began. A dump can span several packets (`continued`), and its callstacks resolve only
//! once it is whole: against the tables the dump carries itself (older recorders) or its
//! sequence's interned code.

use super::code::{CodeFrames, CodeTables};
use super::proto::{ProcessHeapSamples, ProfilePacket};
use super::sequence::Sequence;
use crate::profile::{HeapRow, ProfileBuilder};
use rustc_hash::FxHashMap;

/// What the heap packets held, for the notes.
#[derive(Debug, Default)]
pub struct HeapStats {
    /// Dumps of one heap of one process.
    pub dumps: u64,
    /// Rows whose callstack no table held, left out.
    pub unknown_callstacks: u64,
    /// Dumps whose process's buffer overran or was damaged (allocations are missing), whose
    /// process disconnected, or that hit the recorder's memory guardrail.
    pub overran: u64,
    pub corrupted: u64,
    pub disconnected: u64,
    pub guardrail: u64,
    /// Dumps whose process stopped sending before the end, by pid, for the notes.
    pub pids_cut_short: Vec<u32>,
}

/// One heap of one process, as the packets of a dump give it.
#[derive(Debug)]
struct Pending {
    pid: u32,
    heap: String,
    time: u64,
    /// Rows by callstack iid.
    rows: Vec<(u64, HeapRow)>,
}

/// The heap dumps of one trace.
#[derive(Debug, Default)]
pub struct HeapDumps {
    pub stats: HeapStats,
    /// The dump being read on each sequence.
    pending: FxHashMap<u32, (Vec<Pending>, CodeTables)>,
    /// Stacks already given to the builder, by their index in `CodeFrames::stacks`.
    heap_stack_of: FxHashMap<u32, u32>,
}

impl HeapDumps {
    /// Reads a `profile_packet` of sequence `id`; `time` gives a dump's time on the boot
    /// clock from its own (`None` where it gives none).
    pub fn packet(
        &mut self,
        id: u32,
        packet: &ProfilePacket,
        time: impl Fn(Option<u64>) -> u64,
        sequence_code: &mut CodeTables,
        code: &mut CodeFrames,
        b: &mut ProfileBuilder,
    ) {
        let (pending, own) = self.pending.entry(id).or_default();
        own.intern_own(&packet.strings, &packet.mappings, &packet.frames, &packet.callstacks);
        for dump in &packet.process_dumps {
            let pid = dump.pid.unwrap_or(0) as u32;
            let heap = dump.heap_name.as_deref().map_or("unnamed".into(), String::from_utf8_lossy).into_owned();
            let at = time(dump.timestamp);
            let rows = dump.samples.iter().map(|s| {
                let row = HeapRow {
                    stack: 0,
                    allocated: s.self_allocated.unwrap_or(0),
                    freed: s.self_freed.unwrap_or(0),
                    allocations: s.alloc_count.unwrap_or(0),
                    frees: s.free_count.unwrap_or(0),
                };
                (s.callstack_id.unwrap_or(0), row)
            });
            match pending.iter_mut().find(|p| p.pid == pid && p.heap == heap) {
                Some(p) => p.rows.extend(rows),
                None => pending.push(Pending { pid, heap, time: at, rows: rows.collect() }),
            }
            count_flags(&mut self.stats, dump);
        }
        if packet.continued != Some(true) {
            let (pending, mut own) = self.pending.remove(&id).unwrap_or_default();
            for dump in pending {
                self.emit(dump, &mut own, sequence_code, code, b);
            }
        }
    }

    /// A whole dump of one heap to the builder, its callstacks resolved.
    fn emit(
        &mut self,
        dump: Pending,
        own: &mut CodeTables,
        sequence: &mut CodeTables,
        code: &mut CodeFrames,
        b: &mut ProfileBuilder,
    ) {
        self.stats.dumps += 1;
        let mut rows = Vec::with_capacity(dump.rows.len());
        for (iid, mut row) in dump.rows {
            let Some(stack) = own.stack(iid, code, b).or_else(|| sequence.stack(iid, code, b)) else {
                self.stats.unknown_callstacks += 1;
                continue;
            };
            row.stack = match self.heap_stack_of.get(&stack) {
                Some(&id) => id,
                None => {
                    let id = b.heap.stack(code.stack(stack));
                    self.heap_stack_of.insert(stack, id);
                    id
                }
            };
            rows.push(row);
        }
        b.heap.dump(&mut b.frames, dump.pid, &dump.heap, dump.time, rows);
    }

    /// The input ended: a dump still waiting for its last packet is taken as it is.
    pub fn finish(&mut self, sequences: &mut FxHashMap<u32, Sequence>, code: &mut CodeFrames, b: &mut ProfileBuilder) {
        let mut waiting: Vec<_> = self.pending.drain().collect();
        waiting.sort_by_key(|(id, _)| *id);
        for (id, (dumps, mut own)) in waiting {
            let sequence = &mut sequences.entry(id).or_default().code;
            for dump in dumps {
                self.emit(dump, &mut own, sequence, code, b);
            }
        }
    }
}

fn count_flags(stats: &mut HeapStats, dump: &ProcessHeapSamples) {
    let pid = dump.pid.unwrap_or(0) as u32;
    let flags = [
        (dump.buffer_overran, &mut stats.overran),
        (dump.buffer_corrupted, &mut stats.corrupted),
        (dump.disconnected, &mut stats.disconnected),
        (dump.hit_guardrail, &mut stats.guardrail),
    ];
    let mut cut = false;
    for (flag, count) in flags {
        if flag == Some(true) {
            *count += 1;
            cut = true;
        }
    }
    if cut && !stats.pids_cut_short.contains(&pid) {
        stats.pids_cut_short.push(pid);
    }
}
