//! Writes traces byte for byte as ART and Dalvik do.

use std::io::Write;

/// The actions of a method trace's records.
pub const ENTER: u8 = 0;
pub const EXIT: u8 = 1;
pub const UNWIND: u8 = 2;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Clocks {
    Wall,
    Cpu,
    Dual,
}

impl Clocks {
    pub fn key(self) -> &'static str {
        match self {
            Clocks::Wall => "wall",
            Clocks::Cpu => "thread-cpu",
            Clocks::Dual => "dual",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MethodDef {
    pub id: u64,
    pub class: String,
    pub name: String,
    pub signature: String,
    /// Empty: no source file (`(null)` in V1, `""` in V2).
    pub source: String,
    /// Written as a 6th field (Dalvik style) when set.
    pub line: Option<i32>,
}

impl MethodDef {
    pub fn new(id: u64, class: &str, name: &str, signature: &str) -> Self {
        MethodDef {
            id,
            class: class.into(),
            name: name.into(),
            signature: signature.into(),
            source: format!("{}.java", class.rsplit(['.', '/']).next().unwrap_or(class)),
            line: None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThreadDef {
    pub tid: u32,
    pub name: String,
}

/// One record. Times are absolute ticks (µs, or ns for V2 with `nanos`); V1 layouts
/// store them modulo 2^32, as ART does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Record {
    pub tid: u32,
    pub method: u64,
    pub action: u8,
    pub wall: u64,
    pub cpu: u64,
}

/// A trace to write: definitions plus records in file order.
#[derive(Debug, Clone)]
pub struct Trace {
    pub clocks: Clocks,
    pub vm: String,
    pub threads: Vec<ThreadDef>,
    pub methods: Vec<MethodDef>,
    pub records: Vec<Record>,
    /// More `key=value` lines for the key or summary.
    pub options: Vec<(String, String)>,
    pub start_us: u64,
}

impl Default for Trace {
    fn default() -> Self {
        Trace {
            clocks: Clocks::Dual,
            vm: "art".into(),
            threads: Vec::new(),
            methods: Vec::new(),
            records: Vec::new(),
            options: Vec::new(),
            start_us: 749_848_949_749,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Layout {
    /// Text key + `SLOW` records. `version` 1 (9-byte records, u8 tid), 2 (10 bytes) or
    /// 3 (14 bytes dual, or `record_size`). `data_offset` is 32 from ART, 16 from
    /// dmtracedump's test writer.
    Regular { version: u16, data_offset: u16, record_size: Option<u16> },
    /// `SLOW` 0xF2/0xF3 with inline method and thread packets.
    Streaming {
        /// Write the closing summary (a truncated stream has none).
        summary: bool,
        /// The summary lists the threads with full ids (ART before 2023).
        summary_threads: bool,
    },
    /// V2 packets (4/5, or 0xF4/0xF5 when streaming).
    V2 {
        streaming: bool,
        /// Times in ns (`elapsed-time-nsec`, ART 2025+) instead of µs.
        nanos: bool,
        summary: bool,
        /// Records per entry block before a new block starts.
        block_records: usize,
        /// Reproduce the ART writer bug: continuation blocks of one thread keep the delta
        /// state and carry a cumulative count.
        carry_state: bool,
    },
}

/// V2's "time-first" record layout (what Perfetto reads): a separate layout because its
/// records differ, though the version numbers are the same.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimeFirst {
    /// Times count ticks of a counter at this frequency, written in the header; 0 writes
    /// an all-zero header tail and nanosecond times.
    pub counter_hz: u64,
    pub block_records: usize,
}

impl Layout {
    pub const ART_REGULAR: Layout = Layout::Regular { version: 3, data_offset: 32, record_size: None };
    pub const ART_STREAMING: Layout = Layout::Streaming { summary: true, summary_threads: true };
    pub const V2_FILE: Layout =
        Layout::V2 { streaming: false, nanos: true, summary: true, block_records: 1000, carry_state: false };
}

fn format_id(id: u64) -> String {
    // ART prints ids with %#x, which writes a bare 0 for zero.
    if id == 0 {
        "0".into()
    } else {
        format!("{id:#x}")
    }
}

impl Trace {
    pub(crate) fn method_line(&self, m: &MethodDef) -> String {
        let source = if m.source.is_empty() { "(null)" } else { &m.source };
        let mut line = format!("{}\t{}\t{}\t{}\t{}", format_id(m.id), m.class, m.name, m.signature, source);
        if let Some(n) = m.line {
            line.push_str(&format!("\t{n}"));
        }
        line.push('\n');
        line
    }

    pub(crate) fn options_text(&self, version: u16, records: Option<usize>, elapsed_key: &str) -> String {
        let mut text = format!("*version\n{version}\ndata-file-overflow=false\nclock={}\n", self.clocks.key());
        let elapsed = self.records.iter().map(|r| r.wall).max().unwrap_or(0);
        text.push_str(&format!("{elapsed_key}={elapsed}\n"));
        if let Some(n) = records {
            text.push_str(&format!("num-method-calls={n}\n"));
        }
        text.push_str(&format!("clock-call-overhead-nsec=500\nvm={}\npid=4242\n", self.vm));
        for (k, v) in &self.options {
            text.push_str(&format!("{k}={v}\n"));
        }
        text
    }

    /// The text key of a regular file (also the `.key` half of a split pair).
    pub fn key_text(&self, version: u16) -> Vec<u8> {
        self.key_text_with_count(version, self.records.len() as u64)
    }

    /// The text key announcing `records` records (for writers that stream records).
    pub fn key_text_with_count(&self, version: u16, records: u64) -> Vec<u8> {
        let mut text = self.options_text(version, Some(records as usize), "elapsed-time-usec");
        text.push_str("*threads\n");
        for t in &self.threads {
            text.push_str(&format!("{}\t{}\n", t.tid, t.name));
        }
        text.push_str("*methods\n");
        for m in &self.methods {
            text.push_str(&self.method_line(m));
        }
        text.push_str("*end\n");
        text.into_bytes()
    }

    pub fn write(&self, layout: &Layout) -> Vec<u8> {
        match *layout {
            Layout::Regular { version, data_offset, record_size } => {
                let (key, data) = self.write_split_with(version, data_offset, record_size);
                [key, data].concat()
            }
            Layout::Streaming { summary, summary_threads } => self.write_streaming(summary, summary_threads),
            Layout::V2 { streaming, nanos, summary, block_records, carry_state } => {
                self.write_v2(streaming, nanos, summary, block_records.max(1), carry_state)
            }
        }
    }

    /// A legacy split pair: (`.key`, `.data`) of a version 3 file.
    pub fn write_split(&self) -> (Vec<u8>, Vec<u8>) {
        self.write_split_with(3, 32, None)
    }

    fn write_split_with(&self, version: u16, data_offset: u16, record_size: Option<u16>) -> (Vec<u8>, Vec<u8>) {
        let dual = self.clocks == Clocks::Dual && version >= 3;
        let size = record_size.unwrap_or(match version {
            1 => 9,
            2 => 10,
            _ if dual => 14,
            _ => 10,
        });
        let mut data = header(version, data_offset, self.start_us, (version >= 3).then_some(size));
        for r in &self.records {
            self.push_v1_record(&mut data, r, version == 1, dual, size);
        }
        (self.key_text(version), data)
    }

    fn push_v1_record(&self, out: &mut Vec<u8>, r: &Record, narrow_tid: bool, dual: bool, size: u16) {
        let start = out.len();
        if narrow_tid {
            out.push(r.tid as u8);
        } else {
            out.extend_from_slice(&(r.tid as u16).to_le_bytes());
        }
        out.extend_from_slice(&((r.method as u32) | u32::from(r.action)).to_le_bytes());
        if dual {
            out.extend_from_slice(&(r.cpu as u32).to_le_bytes());
            out.extend_from_slice(&(r.wall as u32).to_le_bytes());
        } else {
            let t = if self.clocks == Clocks::Cpu { r.cpu } else { r.wall };
            out.extend_from_slice(&(t as u32).to_le_bytes());
        }
        out.resize(start + size as usize, 0);
    }

    fn write_streaming(&self, summary: bool, summary_threads: bool) -> Vec<u8> {
        let dual = self.clocks == Clocks::Dual;
        let (version, size) = if dual { (3u16, 14u16) } else { (2, 10) };
        let mut out = header(0xF0 | version, 32, self.start_us, Some(size));
        let mut seen_methods = std::collections::HashSet::new();
        let mut seen_threads = std::collections::HashSet::new();
        for r in &self.records {
            if seen_threads.insert(r.tid as u16) {
                if let Some(t) = self.threads.iter().find(|t| t.tid as u16 == r.tid as u16) {
                    out.extend_from_slice(&[0, 0, 2]);
                    out.extend_from_slice(&(t.tid as u16).to_le_bytes());
                    out.extend_from_slice(&(t.name.len() as u16).to_le_bytes());
                    out.extend_from_slice(t.name.as_bytes());
                }
            }
            if seen_methods.insert(r.method) {
                if let Some(m) = self.methods.iter().find(|m| m.id == r.method) {
                    let line = self.method_line(m);
                    out.extend_from_slice(&[0, 0, 1]);
                    out.extend_from_slice(&(line.len() as u16).to_le_bytes());
                    out.extend_from_slice(line.as_bytes());
                }
            }
            self.push_v1_record(&mut out, r, false, dual, size);
        }
        if summary {
            let mut text = self.options_text(version, None, "elapsed-time-usec");
            text.push_str("*threads\n");
            if summary_threads {
                for t in &self.threads {
                    text.push_str(&format!("{}\t{}\n", t.tid, t.name));
                }
            }
            text.push_str("*methods\n*end\n");
            out.extend_from_slice(&[0, 0, 3]);
            out.extend_from_slice(&(text.len() as u32).to_le_bytes());
            out.extend_from_slice(text.as_bytes());
        }
        out
    }

    fn write_v2(&self, streaming: bool, nanos: bool, summary: bool, block_records: usize, carry: bool) -> Vec<u8> {
        let dual = self.clocks == Clocks::Dual;
        let version: u16 = if dual { 5 } else { 4 };
        let mut out = Vec::new();
        out.extend_from_slice(b"SLOW");
        out.extend_from_slice(&(version | if streaming { 0xF0 } else { 0 }).to_le_bytes());
        out.extend_from_slice(&self.start_us.to_le_bytes());
        out.resize(32, 0);
        // Like ART, method infos for everything loaded come first, then thread infos.
        for m in &self.methods {
            method_packet(&mut out, m, m.line);
        }
        let mut seen_threads = std::collections::HashSet::new();
        if !streaming {
            for t in &self.threads {
                thread_packet(&mut out, t);
            }
        }
        // Entry blocks: runs of one thread's records, split every `block_records`.
        for run in self.records.chunk_by(|a, b| a.tid == b.tid) {
            let tid = run[0].tid;
            if streaming && seen_threads.insert(tid) {
                if let Some(t) = self.threads.iter().find(|t| t.tid == tid) {
                    thread_packet(&mut out, t);
                }
            }
            let mut state = (0u64, 0u64, 0u64);
            let mut cumulative = 0usize;
            for block in run.chunks(block_records) {
                if !carry {
                    state = (0, 0, 0);
                }
                let mut payload = Vec::new();
                for r in block {
                    let word = r.method | u64::from(r.action);
                    write_sleb(&mut payload, word.wrapping_sub(state.0) as i64);
                    state.0 = word;
                    if self.clocks != Clocks::Cpu {
                        write_uleb(&mut payload, r.wall - state.1);
                        state.1 = r.wall;
                    }
                    if self.clocks != Clocks::Wall {
                        write_uleb(&mut payload, r.cpu - state.2);
                        state.2 = r.cpu;
                    }
                }
                cumulative += block.len();
                let count = if carry { cumulative } else { block.len() };
                out.push(2);
                out.extend_from_slice(&tid.to_le_bytes());
                // The writer keeps only 16 bits of the count in its 3 bytes.
                out.extend_from_slice(&[(count & 0xFF) as u8, ((count >> 8) & 0xFF) as u8, 0]);
                out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
                out.extend_from_slice(&payload);
            }
        }
        if summary {
            let key = if nanos { "elapsed-time-nsec" } else { "elapsed-time-usec" };
            let mut text = self.options_text(version, (!streaming).then_some(self.records.len()), key);
            text.push_str("*end\n");
            out.push(3);
            out.extend_from_slice(&(text.len() as u16).to_le_bytes());
            out.extend_from_slice(text.as_bytes());
        }
        out
    }
}

/// A V2 method-info packet (type 1): id, then `class\tname\tsignature\tsource[\tline]\n`.
pub(crate) fn method_packet(out: &mut Vec<u8>, m: &MethodDef, line_number: Option<i32>) {
    let mut line = format!("{}\t{}\t{}\t{}", m.class, m.name, m.signature, m.source);
    if let Some(n) = line_number {
        line.push_str(&format!("\t{n}"));
    }
    line.push('\n');
    out.push(1);
    out.extend_from_slice(&m.id.to_le_bytes());
    out.extend_from_slice(&(line.len() as u16).to_le_bytes());
    out.extend_from_slice(line.as_bytes());
}

/// A V2 thread-info packet (type 0): full tid and name.
pub(crate) fn thread_packet(out: &mut Vec<u8>, t: &ThreadDef) {
    out.push(0);
    out.extend_from_slice(&t.tid.to_le_bytes());
    out.extend_from_slice(&(t.name.len() as u16).to_le_bytes());
    out.extend_from_slice(t.name.as_bytes());
}

pub(crate) fn header(version: u16, data_offset: u16, start_us: u64, record_size: Option<u16>) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(b"SLOW");
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&data_offset.to_le_bytes());
    out.extend_from_slice(&start_us.to_le_bytes());
    if let Some(size) = record_size {
        out.extend_from_slice(&size.to_le_bytes());
    }
    out.resize(data_offset as usize, 0);
    out
}

pub(crate) fn write_uleb(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let byte = (v & 0x7F) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

pub(crate) fn write_sleb(out: &mut Vec<u8>, mut v: i64) {
    loop {
        let byte = (v & 0x7F) as u8;
        v >>= 7;
        let done = (v == 0 && byte & 0x40 == 0) || (v == -1 && byte & 0x40 != 0);
        out.push(if done { byte } else { byte | 0x80 });
        if done {
            return;
        }
    }
}

impl Trace {
    /// A V2 file in the time-first layout. Exits carry no method id; methods have a line.
    pub fn write_time_first(&self, layout: &TimeFirst) -> Vec<u8> {
        let dual = self.clocks == Clocks::Dual;
        let mut out = Vec::new();
        out.extend_from_slice(b"SLOW");
        out.extend_from_slice(&(if dual { 5u16 } else { 4 }).to_le_bytes());
        out.extend_from_slice(&self.start_us.to_le_bytes());
        let start_counter: u64 = if layout.counter_hz > 0 { 123_456_789 } else { 0 };
        out.extend_from_slice(&start_counter.to_le_bytes());
        out.extend_from_slice(&layout.counter_hz.to_le_bytes());
        out.resize(32, 0);
        // This layout always carries a line field.
        for m in &self.methods {
            method_packet(&mut out, m, Some(m.line.unwrap_or(1)));
        }
        for t in &self.threads {
            thread_packet(&mut out, t);
        }
        for run in self.records.chunk_by(|a, b| a.tid == b.tid) {
            let tid = run[0].tid;
            for block in run.chunks(layout.block_records.max(1)) {
                let (mut time_action, mut cpu, mut method) = (0u64, 0u64, 0u64);
                let mut payload = Vec::new();
                for r in block {
                    let value = (r.wall << 2) | u64::from(r.action);
                    write_sleb(&mut payload, value.wrapping_sub(time_action) as i64);
                    time_action = value;
                    if dual {
                        write_sleb(&mut payload, r.cpu.wrapping_sub(cpu) as i64);
                        cpu = r.cpu;
                    }
                    if r.action == 0 {
                        write_sleb(&mut payload, r.method.wrapping_sub(method) as i64);
                        method = r.method;
                    }
                }
                out.push(2);
                out.extend_from_slice(&tid.to_le_bytes());
                out.extend_from_slice(&[(block.len() & 0xFF) as u8, ((block.len() >> 8) & 0xFF) as u8, 0]);
                out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
                out.extend_from_slice(&payload);
            }
        }
        let mut text = self.options_text(if dual { 5 } else { 4 }, Some(self.records.len()), "elapsed-time-nsec");
        text.push_str("*end\n");
        out.push(3);
        out.extend_from_slice(&(text.len() as u16).to_le_bytes());
        out.extend_from_slice(text.as_bytes());
        out
    }
}

/// Gzip-compresses bytes (as users often ship traces).
/// A zlib (RFC 1950) stream, as `atrace -z` writes after `TRACE:`.
pub fn zlib(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(bytes).expect("writing to a Vec cannot fail");
    encoder.finish().expect("writing to a Vec cannot fail")
}

pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(bytes).expect("writing to a Vec cannot fail");
    encoder.finish().expect("writing to a Vec cannot fail")
}
