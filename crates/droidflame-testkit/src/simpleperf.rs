//! Writes simpleperf report-sample files (`SIMPLEPERF`, a u16 version, size-prefixed
//! `Record` messages, a size of 0), encoded here by hand from the field numbers of
//! simpleperf's `cmd_report_sample.proto`, so tests of the core's decoder do not share its
//! declarations.

use crate::perfetto::Message;

/// `Record` fields.
pub const SAMPLE: u32 = 1;
pub const LOST: u32 = 2;
pub const FILE: u32 = 3;
pub const THREAD: u32 = 4;
pub const META_INFO: u32 = 5;
pub const CONTEXT_SWITCH: u32 = 6;

/// One call-chain entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    pub file: u32,
    /// -1 where the function is unknown.
    pub symbol: i32,
    pub vaddr: u64,
    /// 1 interpreted, 2 JIT; `None`: not written.
    pub execution_type: Option<u32>,
}

impl Entry {
    /// Function `symbol` of `file`.
    pub fn function(file: u32, symbol: i32) -> Entry {
        Entry { file, symbol, vaddr: 0x1000 + symbol.max(0) as u64 * 16, execution_type: None }
    }

    /// An address of `file` no known function covers.
    pub fn address(file: u32, vaddr: u64) -> Entry {
        Entry { file, symbol: -1, vaddr, execution_type: None }
    }
}

/// One sample.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SampleSpec {
    pub tid: u32,
    pub time: u64,
    pub event: u32,
    pub count: u64,
    /// Leaf first, as simpleperf writes it.
    pub chain: Vec<Entry>,
}

/// A recording, written in the order simpleperf writes one: meta info, samples (with
/// context switches among them), the lost situation, files, threads.
#[derive(Debug, Clone, Default)]
pub struct Recording {
    pub events: Vec<String>,
    pub trace_offcpu: Option<bool>,
    pub app: Option<String>,
    pub samples: Vec<SampleSpec>,
    /// `(path, symbols)`; a file's id is its index.
    pub files: Vec<(String, Vec<String>)>,
    /// `(tid, pid, name)`.
    pub threads: Vec<(u32, u32, String)>,
    /// `(sample_count, lost_count)`.
    pub lost: Option<(u64, u64)>,
    /// `(switch_on, time, tid)`, written before the first sample at or after its time.
    pub switches: Vec<(bool, u64, u32)>,
}

impl Recording {
    /// Every record's message, in file order.
    pub fn records(&self) -> Vec<Message> {
        let mut records = Vec::new();
        let record = |field: u32, body: &Message| {
            let mut r = Message::new();
            r.message(field, body);
            r
        };
        if !self.events.is_empty() || self.app.is_some() {
            let mut meta = Message::new();
            for event in &self.events {
                meta.bytes(1, event.as_bytes());
            }
            if let Some(app) = &self.app {
                meta.bytes(2, app.as_bytes());
            }
            if let Some(offcpu) = self.trace_offcpu {
                meta.varint(6, u64::from(offcpu));
            }
            records.push(record(META_INFO, &meta));
        }
        let mut switches = self.switches.iter().peekable();
        for sample in &self.samples {
            while let Some(&&(on, time, tid)) = switches.peek().filter(|s| s.1 <= sample.time) {
                let mut switch = Message::new();
                switch.varint(1, u64::from(on)).varint(2, time).varint(3, u64::from(tid));
                records.push(record(CONTEXT_SWITCH, &switch));
                switches.next();
            }
            records.push(record(SAMPLE, &sample_message(sample)));
        }
        if let Some((count, lost)) = self.lost {
            let mut situation = Message::new();
            situation.varint(1, count).varint(2, lost);
            records.push(record(LOST, &situation));
        }
        for (id, (path, symbols)) in self.files.iter().enumerate() {
            records.push(record(FILE, &file_message(id as u32, path, symbols)));
        }
        for (tid, pid, name) in &self.threads {
            let mut thread = Message::new();
            thread.varint(1, u64::from(*tid)).varint(2, u64::from(*pid)).bytes(3, name.as_bytes());
            records.push(record(THREAD, &thread));
        }
        records
    }

    /// The file's bytes.
    pub fn bytes(&self) -> Vec<u8> {
        file_of(&self.records())
    }
}

/// A `Sample` message.
pub fn sample_message(sample: &SampleSpec) -> Message {
    let mut m = Message::new();
    m.varint(1, sample.time).varint(2, u64::from(sample.tid));
    for entry in &sample.chain {
        let mut e = Message::new();
        // int32 -1 is written as a ten-byte varint, as protobuf writes negative int32s.
        e.varint(1, entry.vaddr).varint(2, u64::from(entry.file)).varint(3, entry.symbol as i64 as u64);
        if let Some(kind) = entry.execution_type {
            e.varint(4, u64::from(kind));
        }
        m.message(3, &e);
    }
    m.varint(4, sample.count).varint(5, u64::from(sample.event));
    m
}

/// A `File` message.
pub fn file_message(id: u32, path: &str, symbols: &[String]) -> Message {
    let mut file = Message::new();
    file.varint(1, u64::from(id)).bytes(2, path.as_bytes());
    for symbol in symbols {
        file.bytes(3, symbol.as_bytes());
    }
    file
}

/// The bytes of a file of `records`: header, each record with its size, the end marker.
pub fn file_of(records: &[Message]) -> Vec<u8> {
    let mut out = header();
    for r in records {
        push_record(&mut out, r);
    }
    out.extend_from_slice(&0u32.to_le_bytes());
    out
}

/// The magic and version 1.
pub fn header() -> Vec<u8> {
    let mut out = b"SIMPLEPERF".to_vec();
    out.extend_from_slice(&1u16.to_le_bytes());
    out
}

/// Appends one record with its size.
pub fn push_record(out: &mut Vec<u8>, record: &Message) {
    out.extend_from_slice(&(record.0.len() as u32).to_le_bytes());
    out.extend_from_slice(&record.0);
}
