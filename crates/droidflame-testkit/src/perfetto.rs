//! Writes Perfetto protobuf traces, encoded here by hand from the field numbers of
//! Perfetto's protos (so tests of the core's decoder do not share its declarations): an
//! atrace capture's events as ftrace bundles (markers as `print`, scheduling as full
//! events or as `compact_sched` columns), process trees, and SDK track events with their
//! descriptors, interned names and sequence clocks.

use crate::atrace::{Capture, Event};
use flate2::write::ZlibEncoder;
use flate2::Compression;
use std::collections::BTreeMap;
use std::io::Write;

/// One protobuf message being written.
#[derive(Debug, Clone, Default)]
pub struct Message(pub Vec<u8>);

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

impl Message {
    pub fn new() -> Self {
        Message::default()
    }

    fn key(&mut self, field: u32, wire: u8) {
        put_varint(&mut self.0, (u64::from(field) << 3) | u64::from(wire));
    }

    /// A varint field (int32/int64 negatives as ten-byte two's complement, as protobuf does).
    pub fn varint(&mut self, field: u32, value: u64) -> &mut Self {
        self.key(field, 0);
        put_varint(&mut self.0, value);
        self
    }

    pub fn bytes(&mut self, field: u32, bytes: &[u8]) -> &mut Self {
        self.key(field, 2);
        put_varint(&mut self.0, bytes.len() as u64);
        self.0.extend_from_slice(bytes);
        self
    }

    pub fn message(&mut self, field: u32, message: &Message) -> &mut Self {
        self.bytes(field, &message.0)
    }

    pub fn double(&mut self, field: u32, value: f64) -> &mut Self {
        self.key(field, 1);
        self.0.extend_from_slice(&value.to_le_bytes());
        self
    }

    /// A packed repeated varint field.
    pub fn packed(&mut self, field: u32, values: &[u64]) -> &mut Self {
        let mut body = Vec::new();
        for &v in values {
            put_varint(&mut body, v);
        }
        self.bytes(field, &body)
    }
}

/// A trace being written: packets, each field 1 of `Trace`.
#[derive(Debug, Clone, Default)]
pub struct Trace {
    pub bytes: Vec<u8>,
}

impl Trace {
    pub fn new() -> Self {
        Trace::default()
    }

    pub fn of(packets: &[Message]) -> Trace {
        let mut trace = Trace::new();
        for packet in packets {
            trace.packet(packet);
        }
        trace
    }

    pub fn packet(&mut self, packet: &Message) -> &mut Self {
        let mut m = Message(std::mem::take(&mut self.bytes));
        m.message(1, packet);
        self.bytes = m.0;
        self
    }

    /// The packets written so far, zlib-compressed into one `compressed_packets` packet.
    pub fn compressed(&self) -> Trace {
        let mut z = ZlibEncoder::new(Vec::new(), Compression::default());
        z.write_all(&self.bytes).unwrap();
        let mut packet = Message::new();
        packet.bytes(50, &z.finish().unwrap());
        let mut trace = Trace::new();
        trace.packet(&packet);
        trace
    }

    /// The packets written so far, zstd-compressed into `zstd_compressed_packets` packets of
    /// at most `per_packet` bytes of packets each (split between packets, as Perfetto
    /// writes them), each packet's bytes `frames` zstd frames one after another.
    pub fn zstd_compressed(&self, per_packet: usize, frames: usize) -> Trace {
        let mut trace = Trace::new();
        let mut at = 0;
        let mut framing = Vec::new();
        // Whole packets per chunk: each chunk must be a `Trace` on its own. Bytes that are
        // no packets (a fuzzer's) go whole into the last chunk.
        let mut reader = &self.bytes[..];
        while !reader.is_empty() {
            let whole = match read_len(&reader[1..]) {
                Some((len, n)) if 1 + n + len <= reader.len() => 1 + n + len,
                _ => reader.len(),
            };
            framing.push(at..at + whole);
            at += whole;
            reader = &reader[whole..];
        }
        let mut chunks: Vec<std::ops::Range<usize>> = Vec::new();
        for packet in framing {
            match chunks.last_mut() {
                Some(last) if packet.end - last.start <= per_packet.max(1) => last.end = packet.end,
                _ => chunks.push(packet),
            }
        }
        for chunk in chunks {
            let bytes = &self.bytes[chunk];
            let step = bytes.len().div_ceil(frames.max(1)).max(1);
            let mut z = Vec::new();
            for part in bytes.chunks(step) {
                z.extend(ruzstd::encoding::compress_to_vec(part, ruzstd::encoding::CompressionLevel::Fastest));
            }
            let mut packet = Message::new();
            packet.bytes(133, &z);
            trace.packet(&packet);
        }
        trace
    }
}

/// A varint length and its size in bytes; `None` where the bytes end inside it or it is
/// longer than a length can be.
fn read_len(bytes: &[u8]) -> Option<(usize, usize)> {
    let mut value = 0usize;
    for (i, &b) in bytes.iter().enumerate().take(9) {
        value |= ((b & 0x7f) as usize) << (7 * i);
        if b < 0x80 {
            return Some((value, i + 1));
        }
    }
    None
}

// TracePacket fields.
const TIMESTAMP: u32 = 8;
const SEQUENCE_ID: u32 = 10;
const SEQUENCE_FLAGS: u32 = 13;
const PREVIOUS_PACKET_DROPPED: u32 = 42;
/// `sequence_flags` bits.
pub const SEQ_INCREMENTAL_STATE_CLEARED: u64 = 1;
pub const SEQ_NEEDS_INCREMENTAL_STATE: u64 = 2;

/// How an atrace capture is written as a Perfetto trace.
#[derive(Debug, Clone, Copy)]
pub struct FromCapture {
    /// Scheduling events as `compact_sched` columns instead of full events.
    pub compact_sched: bool,
    /// Events of one CPU per bundle: bundles of the CPUs take turns, so the file goes
    /// back and forth in time as real traces do.
    pub events_per_bundle: usize,
}

impl Default for FromCapture {
    fn default() -> Self {
        FromCapture { compact_sched: false, events_per_bundle: 64 }
    }
}

/// `key=value` pairs of an ftrace event's text.
fn fields(payload: &str) -> BTreeMap<&str, &str> {
    payload.split_whitespace().filter_map(|w| w.split_once('=')).collect()
}

fn int(fields: &BTreeMap<&str, &str>, key: &str) -> u64 {
    fields.get(key).and_then(|v| v.parse::<i64>().ok()).unwrap_or(0) as u64
}

/// The kernel's task state bits of an ftrace state letter (R and R+ are 0: preempted).
fn prev_state(letter: &str) -> u64 {
    match letter.trim_end_matches('+') {
        "R" => 0,
        "S" => 1,
        "D" => 2,
        "T" => 4,
        "t" => 8,
        "X" => 16,
        "Z" => 32,
        _ => 1,
    }
}

/// A capture's events as the packets of a Perfetto trace: a process tree naming every
/// thread and process, then the events as ftrace bundles, all on sequence 1.
pub fn from_capture(capture: &Capture, options: FromCapture) -> Vec<Message> {
    let mut packets = Vec::new();
    let mut tree = Message::new();
    let mut threads: BTreeMap<u32, (&str, u32)> = BTreeMap::new();
    for e in &capture.events {
        threads.insert(e.tid, (&e.task, e.pid));
    }
    for (&tid, &(task, pid)) in &threads {
        if tid == pid {
            let mut process = Message::new();
            process.varint(1, u64::from(pid)).bytes(3, task.as_bytes());
            tree.message(1, &process);
        }
    }
    for (&tid, &(task, pid)) in &threads {
        let mut thread = Message::new();
        thread.varint(1, u64::from(tid)).bytes(2, task.as_bytes()).varint(3, u64::from(pid));
        tree.message(2, &thread);
    }
    let mut packet = Message::new();
    packet.message(2, &tree).varint(SEQUENCE_ID, 1);
    packets.push(packet);

    let mut per_cpu: BTreeMap<u32, Vec<&Event>> = BTreeMap::new();
    for e in &capture.events {
        per_cpu.entry(e.cpu).or_default().push(e);
    }
    let mut at: BTreeMap<u32, usize> = per_cpu.keys().map(|&cpu| (cpu, 0)).collect();
    loop {
        let mut wrote = false;
        for (&cpu, events) in &per_cpu {
            let from = at[&cpu];
            if from >= events.len() {
                continue;
            }
            let to = (from + options.events_per_bundle.max(1)).min(events.len());
            at.insert(cpu, to);
            let mut packet = Message::new();
            let (events, symbols) = bundle(cpu, &events[from..to], options.compact_sched);
            packet.message(1, &events).varint(SEQUENCE_ID, 1);
            if !symbols.is_empty() {
                // The kernel functions its blocked reasons name, by the ids they use.
                let mut interned = Message::new();
                for (iid, name) in &symbols {
                    let mut symbol = Message::new();
                    symbol.varint(1, *iid).bytes(2, name.as_bytes());
                    interned.message(26, &symbol);
                }
                packet.message(12, &interned);
            }
            packets.push(packet);
            wrote = true;
        }
        if !wrote {
            return packets;
        }
    }
}

/// One CPU's events as an `FtraceEventBundle`, and the kernel functions (by id) its
/// `sched_blocked_reason` events name.
fn bundle(cpu: u32, events: &[&Event], compact: bool) -> (Message, Vec<(u64, String)>) {
    let mut bundle = Message::new();
    let mut symbols: Vec<(u64, String)> = Vec::new();
    bundle.varint(1, u64::from(cpu));
    let mut columns = CompactColumns::default();
    for e in events {
        let f = fields(&e.payload);
        let mut event = Message::new();
        event.varint(1, e.ns).varint(2, u64::from(e.tid));
        match e.name.as_str() {
            "sched_switch" if compact => columns.switch(e.ns, &f),
            "sched_waking" | "sched_wakeup" if compact => columns.waking(e.ns, &f),
            "sched_switch" => {
                let mut switch = Message::new();
                switch
                    .bytes(1, f.get("prev_comm").unwrap_or(&"").as_bytes())
                    .varint(2, int(&f, "prev_pid"))
                    .varint(3, int(&f, "prev_prio"))
                    .varint(4, prev_state(f.get("prev_state").unwrap_or(&"S")))
                    .bytes(5, f.get("next_comm").unwrap_or(&"").as_bytes())
                    .varint(6, int(&f, "next_pid"))
                    .varint(7, int(&f, "next_prio"));
                event.message(4, &switch);
                bundle.message(2, &event);
            }
            "sched_waking" | "sched_wakeup" => {
                let mut wake = Message::new();
                wake.bytes(1, f.get("comm").unwrap_or(&"").as_bytes()).varint(2, int(&f, "pid"));
                event.message(if e.name == "sched_waking" { 20 } else { 17 }, &wake);
                bundle.message(2, &event);
            }
            "sched_blocked_reason" => {
                // The caller is an id of the packet's interned kernel symbols.
                let function = f.get("caller").map_or("", |c| c.split('+').next().unwrap_or(c));
                let iid = match symbols.iter().find(|(_, name)| name == function) {
                    Some((iid, _)) => *iid,
                    None => {
                        symbols.push((symbols.len() as u64 + 1, function.to_owned()));
                        symbols.len() as u64
                    }
                };
                let mut blocked = Message::new();
                blocked.varint(1, int(&f, "pid")).varint(2, iid).varint(3, int(&f, "iowait"));
                event.message(18, &blocked);
                bundle.message(2, &event);
            }
            "cpu_frequency" => {
                let mut frequency = Message::new();
                frequency.varint(1, int(&f, "state")).varint(2, int(&f, "cpu_id"));
                event.message(11, &frequency);
                bundle.message(2, &event);
            }
            _ => {
                let mut print = Message::new();
                print.bytes(2, format!("{}\n", e.payload).as_bytes());
                event.message(3, &print);
                bundle.message(2, &event);
            }
        }
    }
    if !columns.switch_ts.is_empty() || !columns.waking_ts.is_empty() {
        bundle.message(4, &columns.message());
    }
    (bundle, symbols)
}

/// `CompactSched` columns being filled.
#[derive(Default)]
struct CompactColumns {
    intern: Vec<String>,
    switch_ts: Vec<u64>,
    last_switch: u64,
    prev_state: Vec<u64>,
    next_pid: Vec<u64>,
    next_prio: Vec<u64>,
    next_comm: Vec<u64>,
    waking_ts: Vec<u64>,
    last_waking: u64,
    waking_pid: Vec<u64>,
    waking_cpu: Vec<u64>,
    waking_prio: Vec<u64>,
    waking_comm: Vec<u64>,
    waking_flags: Vec<u64>,
}

impl CompactColumns {
    fn interned(&mut self, comm: &str) -> u64 {
        match self.intern.iter().position(|c| c == comm) {
            Some(i) => i as u64,
            None => {
                self.intern.push(comm.to_owned());
                self.intern.len() as u64 - 1
            }
        }
    }

    fn switch(&mut self, ns: u64, f: &BTreeMap<&str, &str>) {
        self.switch_ts.push(ns - self.last_switch);
        self.last_switch = ns;
        self.prev_state.push(prev_state(f.get("prev_state").unwrap_or(&"S")));
        self.next_pid.push(int(f, "next_pid"));
        self.next_prio.push(int(f, "next_prio"));
        let comm = self.interned(f.get("next_comm").unwrap_or(&""));
        self.next_comm.push(comm);
    }

    fn waking(&mut self, ns: u64, f: &BTreeMap<&str, &str>) {
        self.waking_ts.push(ns - self.last_waking);
        self.last_waking = ns;
        self.waking_pid.push(int(f, "pid"));
        self.waking_cpu.push(int(f, "target_cpu"));
        self.waking_prio.push(int(f, "prio"));
        let comm = self.interned(f.get("comm").unwrap_or(&""));
        self.waking_comm.push(comm);
        self.waking_flags.push(1);
    }

    fn message(&self) -> Message {
        let mut m = Message::new();
        for comm in &self.intern {
            m.bytes(5, comm.as_bytes());
        }
        m.packed(1, &self.switch_ts)
            .packed(2, &self.prev_state)
            .packed(3, &self.next_pid)
            .packed(4, &self.next_prio)
            .packed(6, &self.next_comm)
            .packed(7, &self.waking_ts)
            .packed(8, &self.waking_pid)
            .packed(9, &self.waking_cpu)
            .packed(10, &self.waking_prio)
            .packed(11, &self.waking_comm)
            .packed(12, &self.waking_flags);
        m
    }
}

/// A packet on sequence `sequence`, with `flags` (`SEQ_*`).
pub fn on_sequence(sequence: u32, flags: u64) -> Message {
    let mut packet = Message::new();
    packet.varint(SEQUENCE_ID, u64::from(sequence));
    if flags != 0 {
        packet.varint(SEQUENCE_FLAGS, flags);
    }
    packet
}

/// Marks a packet as following packets its sequence dropped.
pub fn after_drop(packet: &mut Message) -> &mut Message {
    packet.varint(PREVIOUS_PACKET_DROPPED, 1)
}

/// What a track descriptor declares.
#[derive(Debug, Clone, Copy)]
pub enum TrackOf<'a> {
    /// A process (pid, name).
    Process(u32, &'a str),
    /// A thread (pid, tid, name).
    Thread(u32, u32, &'a str),
    /// A named track under `parent` (0: none).
    Named(u64, &'a str),
    /// A counter track under `parent`.
    Counter(u64, &'a str),
    /// A counter track under `parent` that says how its values are written.
    ShapedCounter(u64, &'a str, CounterSpec<'a>),
}

/// A `CounterDescriptor`'s fields (0 or empty: not written).
#[derive(Debug, Clone, Copy, Default)]
pub struct CounterSpec<'a> {
    /// 1 thread time, 2 instructions.
    pub builtin: u64,
    /// 1 ns, 2 a count, 3 bytes.
    pub unit: u64,
    pub unit_name: &'a str,
    pub multiplier: i64,
    pub incremental: bool,
}

/// A `track_descriptor` packet.
pub fn track_descriptor(sequence: u32, uuid: u64, of: TrackOf) -> Message {
    let mut d = Message::new();
    d.varint(1, uuid);
    match of {
        TrackOf::Process(pid, name) => {
            let mut p = Message::new();
            p.varint(1, u64::from(pid)).bytes(6, name.as_bytes());
            d.message(3, &p);
        }
        TrackOf::Thread(pid, tid, name) => {
            let mut t = Message::new();
            t.varint(1, u64::from(pid)).varint(2, u64::from(tid)).bytes(5, name.as_bytes());
            d.message(4, &t);
        }
        TrackOf::Named(parent, name) | TrackOf::Counter(parent, name) | TrackOf::ShapedCounter(parent, name, _) => {
            if parent != 0 {
                d.varint(5, parent);
            }
            d.bytes(2, name.as_bytes());
            match of {
                TrackOf::Counter(..) => {
                    d.message(8, &Message::new());
                }
                TrackOf::ShapedCounter(_, _, spec) => {
                    let mut c = Message::new();
                    if spec.builtin != 0 {
                        c.varint(1, spec.builtin);
                    }
                    if spec.unit != 0 {
                        c.varint(3, spec.unit);
                    }
                    if spec.multiplier != 0 {
                        c.varint(4, spec.multiplier as u64);
                    }
                    if spec.incremental {
                        c.varint(5, 1);
                    }
                    if !spec.unit_name.is_empty() {
                        c.bytes(6, spec.unit_name.as_bytes());
                    }
                    d.message(8, &c);
                }
                _ => {}
            }
        }
    }
    let mut packet = on_sequence(sequence, 0);
    packet.message(60, &d);
    packet
}

/// Interned event names (`iid`, name) for a sequence's later packets.
pub fn interned_names<'p>(packet: &'p mut Message, names: &[(u64, &str)]) -> &'p mut Message {
    let mut interned = Message::new();
    for (iid, name) in names {
        let mut n = Message::new();
        n.varint(1, *iid).bytes(2, name.as_bytes());
        interned.message(2, &n);
    }
    packet.message(12, &interned)
}

/// A track event's name: given, or interned.
#[derive(Debug, Clone, Copy)]
pub enum Name<'a> {
    Text(&'a str),
    Iid(u64),
    None,
}

/// A track event (`kind`: 1 begin, 2 end, 3 instant, 4 counter) at `ts` on the packet's
/// clock (`clock`: `None` for the default), on track `track` (`None`: the sequence's
/// default track).
pub struct TrackEventSpec<'a> {
    pub ts: u64,
    pub clock: Option<u32>,
    pub kind: u64,
    pub track: Option<u64>,
    pub name: Name<'a>,
    pub value: Option<i64>,
}

/// Adds a track event to a packet.
pub fn track_event<'p>(packet: &'p mut Message, e: &TrackEventSpec) -> &'p mut Message {
    let mut event = Message::new();
    event.varint(9, e.kind);
    if let Some(track) = e.track {
        event.varint(11, track);
    }
    match e.name {
        Name::Text(name) => {
            event.bytes(23, name.as_bytes());
        }
        Name::Iid(iid) => {
            event.varint(10, iid);
        }
        Name::None => {}
    }
    if let Some(value) = e.value {
        event.varint(30, value as u64);
    }
    packet.varint(TIMESTAMP, e.ts);
    if let Some(clock) = e.clock {
        packet.varint(58, u64::from(clock));
    }
    packet.message(11, &event)
}

/// Sequence defaults: the track events leave out (`trace_packet_defaults`).
pub fn default_track(packet: &mut Message, track: u64) -> &mut Message {
    let mut defaults = Message::new();
    let mut te = Message::new();
    te.varint(11, track);
    defaults.message(11, &te);
    packet.message(59, &defaults)
}

/// A clock snapshot: boot time `boot` is value `value` of clock `clock`, which counts in
/// units of `multiplier` ns and is incremental or not.
pub fn clock_snapshot(
    packet: &mut Message,
    boot: u64,
    clock: u32,
    value: u64,
    multiplier: u64,
    incremental: bool,
) -> &mut Message {
    let mut snapshot = Message::new();
    let mut b = Message::new();
    b.varint(1, 6).varint(2, boot);
    snapshot.message(1, &b);
    let mut c = Message::new();
    c.varint(1, u64::from(clock)).varint(2, value).varint(4, multiplier);
    if incremental {
        c.varint(3, 1);
    }
    snapshot.message(1, &c);
    packet.message(6, &snapshot)
}

/// An SDK sequence (2): a process, its main thread, a named track in the process and a
/// counter; times on an incremental clock counting in µs.
pub fn sdk_sample() -> Vec<Message> {
    let boot = 5_000_000_000;
    let mut packets = vec![
        track_descriptor(2, 10, TrackOf::Process(300, "com.example.app")),
        track_descriptor(2, 11, TrackOf::Thread(300, 301, "main")),
        track_descriptor(2, 12, TrackOf::Named(10, "Network")),
        track_descriptor(2, 13, TrackOf::Counter(10, "bytes in flight")),
    ];
    let mut first = on_sequence(2, SEQ_INCREMENTAL_STATE_CLEARED);
    clock_snapshot(&mut first, boot, 64, boot / 1_000, 1_000, true);
    interned_names(&mut first, &[(1, "onCreate"), (2, "inflate"), (3, "fetch")]);
    default_track(&mut first, 11);
    packets.push(first);
    // Times are µs after the previous event's.
    let event = |ts, kind, track, name, value| TrackEventSpec { ts, clock: Some(64), kind, track, name, value };
    let events = [
        event(100, 1, None, Name::Iid(1), None),
        event(50, 1, None, Name::Iid(2), None),
        event(0, 1, Some(12), Name::Iid(3), None),
        event(0, 4, Some(13), Name::None, Some(4096)),
        event(200, 2, None, Name::None, None),
        event(25, 3, None, Name::Text("first frame"), None),
        event(25, 4, Some(13), Name::None, Some(0)),
        event(100, 2, Some(12), Name::None, None),
        event(300, 2, None, Name::None, None),
    ];
    for e in &events {
        let mut packet = on_sequence(2, SEQ_NEEDS_INCREMENTAL_STATE);
        track_event(&mut packet, e);
        packets.push(packet);
    }
    packets
}
