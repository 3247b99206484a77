//! Writes Perfetto's profiling packets, by the field numbers of `profile_packet.proto`,
//! `profile_common.proto` and `interned_data.proto`: CPU samples (`perf_sample`) with the
//! code they name interned per sequence, and heap dumps (`profile_packet`) spread over
//! several packets.

use crate::perfetto::SEQ_NEEDS_INCREMENTAL_STATE as SEQ_NEEDS_STATE;
use crate::perfetto::{on_sequence, Message, SEQ_INCREMENTAL_STATE_CLEARED as SEQ_CLEARED};
use std::collections::BTreeMap;

/// `TracePacket` fields.
const TIMESTAMP: u32 = 8;
const INTERNED_DATA: u32 = 12;
const DEFAULTS: u32 = 59;
const PERF_SAMPLE: u32 = 66;
const PROFILE_PACKET: u32 = 37;

/// A frame of sampled code: a function of a mapping (or an address in it, without a name).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct CodeFrame {
    pub function: Option<String>,
    /// The mapping's path, one part per folder (`["system", "lib64", "libc.so"]`).
    pub mapping: Vec<String>,
    pub rel_pc: u64,
}

impl CodeFrame {
    /// Function `name` of the file at `path` (`/system/lib64/libc.so`).
    pub fn function(name: &str, path: &str) -> CodeFrame {
        CodeFrame { function: Some(name.to_owned()), mapping: parts(path), rel_pc: 0x100 }
    }

    /// Code at `rel_pc` in the file at `path` that no function covers.
    pub fn address(path: &str, rel_pc: u64) -> CodeFrame {
        CodeFrame { function: None, mapping: parts(path), rel_pc }
    }
}

fn parts(path: &str) -> Vec<String> {
    path.split('/').filter(|p| !p.is_empty()).map(str::to_owned).collect()
}

/// Interns code as one sequence's writer does: each string, mapping, frame and callstack
/// gets an id the first time, and goes out in the next `InternedData`.
#[derive(Debug, Default)]
pub struct CodeInterner {
    /// Ids start here, so that two interners (sequences) give different ids.
    base: u64,
    strings: BTreeMap<String, u64>,
    paths: BTreeMap<String, u64>,
    mappings: BTreeMap<Vec<String>, u64>,
    frames: BTreeMap<CodeFrame, u64>,
    stacks: BTreeMap<Vec<CodeFrame>, u64>,
    pending: Message,
    next: u64,
}

impl CodeInterner {
    /// An interner whose ids count up from `base` + 1.
    pub fn new(base: u64) -> CodeInterner {
        CodeInterner { base, next: base, ..CodeInterner::default() }
    }

    fn id(&mut self) -> u64 {
        self.next += 1;
        self.next
    }

    /// Forgets every id (after the sequence cleared its state); ids go on counting up.
    pub fn clear(&mut self) {
        let next = self.next;
        *self = CodeInterner { base: self.base, next, ..CodeInterner::default() };
    }

    fn interned(table: &mut BTreeMap<String, u64>, next: &mut u64, text: &str, field: u32, out: &mut Message) -> u64 {
        if let Some(&id) = table.get(text) {
            return id;
        }
        *next += 1;
        table.insert(text.to_owned(), *next);
        out.message(field, Message::new().varint(1, *next).bytes(2, text.as_bytes()));
        *next
    }

    /// The id of the callstack `frames` (outermost first), interned where new.
    pub fn stack(&mut self, frames: &[CodeFrame]) -> u64 {
        if let Some(&id) = self.stacks.get(frames) {
            return id;
        }
        let ids: Vec<u64> = frames.iter().map(|f| self.frame(f)).collect();
        let id = self.id();
        self.stacks.insert(frames.to_vec(), id);
        let mut stack = Message::new();
        stack.varint(1, id);
        for frame in ids {
            stack.varint(2, frame);
        }
        self.pending.message(7, &stack);
        id
    }

    fn frame(&mut self, frame: &CodeFrame) -> u64 {
        if let Some(&id) = self.frames.get(frame) {
            return id;
        }
        let name =
            frame.function.as_ref().map(|f| Self::interned(&mut self.strings, &mut self.next, f, 5, &mut self.pending));
        let mapping = self.mapping(&frame.mapping);
        let id = self.id();
        self.frames.insert(frame.clone(), id);
        let mut m = Message::new();
        m.varint(1, id);
        if let Some(name) = name {
            m.varint(2, name);
        }
        m.varint(3, mapping).varint(4, frame.rel_pc);
        self.pending.message(6, &m);
        id
    }

    fn mapping(&mut self, path: &[String]) -> u64 {
        if let Some(&id) = self.mappings.get(path) {
            return id;
        }
        let parts: Vec<u64> =
            path.iter().map(|p| Self::interned(&mut self.paths, &mut self.next, p, 17, &mut self.pending)).collect();
        let id = self.id();
        self.mappings.insert(path.to_vec(), id);
        let mut m = Message::new();
        m.varint(1, id).varint(4, 0x7000_0000).varint(5, 0x7100_0000);
        for part in parts {
            m.varint(7, part);
        }
        self.pending.message(19, &m);
        id
    }

    /// Puts what was interned since the last call into `packet` (as its `interned_data`).
    pub fn flush_into(&mut self, packet: &mut Message) {
        let pending = std::mem::take(&mut self.pending);
        if !pending.0.is_empty() {
            packet.message(INTERNED_DATA, &pending);
        }
    }
}

/// What takes a sequence's samples (`PerfEvents.Timebase`).
#[derive(Debug, Clone, Copy)]
pub enum Timebase {
    /// A tracepoint (sched_switch): samples are counted.
    Tracepoint,
    /// The CPU clock every `ns` ns.
    CpuClockPeriod(u64),
    /// The CPU clock `hz` times a second.
    CpuClockFrequency(u64),
}

/// The first packet of a samples sequence: it clears the state and says what takes samples.
pub fn samples_start(sequence: u32, timebase: Timebase) -> Message {
    let mut packet = on_sequence(sequence, SEQ_CLEARED);
    let mut tb = Message::new();
    match timebase {
        Timebase::Tracepoint => {
            tb.varint(1, 1).message(3, Message::new().bytes(1, b"sched:sched_switch"));
        }
        Timebase::CpuClockPeriod(ns) => {
            tb.varint(1, ns).varint(4, 1);
        }
        Timebase::CpuClockFrequency(hz) => {
            tb.varint(2, hz).varint(4, 1);
        }
    }
    packet.message(DEFAULTS, Message::new().message(12, Message::new().message(1, &tb)));
    packet
}

/// A sample of `tid` (of `pid`) on `cpu` at `ts` ns (boot clock), of callstack `stack`; the
/// interner's new entries go with it.
pub fn perf_sample(
    sequence: u32,
    code: &mut CodeInterner,
    ts: u64,
    (pid, tid, cpu): (u32, u32, u32),
    stack: u64,
) -> Message {
    let mut packet = on_sequence(sequence, SEQ_NEEDS_STATE);
    packet.varint(TIMESTAMP, ts);
    code.flush_into(&mut packet);
    let mut sample = Message::new();
    sample.varint(1, u64::from(cpu)).varint(2, u64::from(pid)).varint(3, u64::from(tid)).varint(4, stack).varint(5, 2);
    packet.message(PERF_SAMPLE, &sample);
    packet
}

/// A sample the recorder skipped (`reason`: 1 read stage, 2 unwind stage, …).
pub fn skipped_sample(sequence: u32, ts: u64, tid: u32, reason: u64) -> Message {
    let mut packet = on_sequence(sequence, 0);
    packet.varint(TIMESTAMP, ts);
    packet.message(PERF_SAMPLE, Message::new().varint(1, 0).varint(3, u64::from(tid)).varint(18, reason));
    packet
}

/// A report that the kernel lost `records` records of samples.
pub fn records_lost(sequence: u32, ts: u64, records: u64) -> Message {
    let mut packet = on_sequence(sequence, 0);
    packet.varint(TIMESTAMP, ts);
    packet.message(PERF_SAMPLE, Message::new().varint(1, 0).varint(17, records));
    packet
}

/// One callstack's running totals at a dump.
#[derive(Debug, Clone, Copy, Default)]
pub struct HeapRow {
    pub allocated: u64,
    pub freed: u64,
    pub allocations: u64,
    pub frees: u64,
}

/// One heap of one process at one dump.
#[derive(Debug, Clone)]
pub struct HeapDumpSpec {
    pub pid: u32,
    /// `None`: written without a heap name (older recorders).
    pub heap: Option<String>,
    /// On the boot clock, ns.
    pub ts: u64,
    pub rows: Vec<(Vec<CodeFrame>, HeapRow)>,
}

/// One dump of every heap in `heaps`, as heapprofd writes it: `ProfilePacket`s of at most
/// `rows_per_packet` rows, all but the last `continued`, the callstacks interned on the
/// sequence in the last packet (so rows refer to stacks not yet given until the dump ends).
pub fn heap_dump(
    sequence: u32,
    code: &mut CodeInterner,
    heaps: &[HeapDumpSpec],
    rows_per_packet: usize,
    index: &mut u64,
) -> Vec<Message> {
    let mut rows: Vec<(u32, Option<&str>, u64, u64, HeapRow)> = Vec::new();
    for heap in heaps {
        for (stack, row) in &heap.rows {
            rows.push((heap.pid, heap.heap.as_deref(), heap.ts, code.stack(stack), *row));
        }
    }
    let chunks: Vec<_> = rows.chunks(rows_per_packet.max(1)).collect();
    let mut packets = Vec::new();
    for (i, chunk) in chunks.iter().enumerate() {
        let last = i + 1 == chunks.len();
        let mut profile = Message::new();
        let mut dumps: Vec<(u32, Option<&str>, u64, Message)> = Vec::new();
        for &(pid, heap, ts, stack, row) in chunk.iter() {
            let mut sample = Message::new();
            sample
                .varint(1, stack)
                .varint(2, row.allocated)
                .varint(3, row.freed)
                .varint(5, row.allocations)
                .varint(6, row.frees);
            match dumps.iter_mut().find(|d| d.0 == pid && d.1 == heap) {
                Some(d) => {
                    d.3.message(2, &sample);
                }
                None => {
                    let mut dump = Message::new();
                    dump.varint(1, u64::from(pid)).message(2, &sample);
                    dumps.push((pid, heap, ts, dump));
                }
            }
        }
        for (_, heap, ts, mut dump) in dumps {
            // The dump's own time is on the coarse monotonic clock: here it equals boot time.
            dump.varint(9, ts);
            if let Some(heap) = heap {
                dump.bytes(11, heap.as_bytes());
            }
            profile.message(5, &dump);
        }
        if !last {
            profile.varint(6, 1);
        }
        profile.varint(7, *index);
        *index += 1;
        let mut packet = on_sequence(sequence, 0);
        packet.varint(TIMESTAMP, heaps.first().map_or(0, |h| h.ts));
        if last {
            code.flush_into(&mut packet);
        }
        packet.message(PROFILE_PACKET, &profile);
        packets.push(packet);
    }
    packets
}

/// A class's obfuscated and original names, and its methods' (`(obfuscated, original)`).
pub type ClassNames<'a> = (&'a str, &'a str, &'a [(&'a str, &'a str)]);

/// A `deobfuscation_mapping` packet of `classes`.
pub fn deobfuscation_mapping(classes: &[ClassNames]) -> Message {
    let mut mapping = Message::new();
    mapping.bytes(1, b"com.example.app").varint(2, 42);
    for (obfuscated, original, methods) in classes {
        let mut class = Message::new();
        class.bytes(1, obfuscated.as_bytes()).bytes(2, original.as_bytes());
        for (obfuscated, original) in methods.iter() {
            class.message(4, Message::new().bytes(1, obfuscated.as_bytes()).bytes(2, original.as_bytes()));
        }
        mapping.message(3, &class);
    }
    let mut packet = on_sequence(99, 0);
    packet.message(64, &mapping);
    packet
}
