//! V1 binary data: the `SLOW` data header, fixed-size records (regular files) and the
//! record/escape stream of streaming files.

use super::key::KeyParser;
use super::names::parse_method_line;
use super::records::ArtRecords;
use crate::error::{Error, ErrorKind, Result};
use crate::profile::ProfileBuilder;
use crate::text::decode_java;

pub const MAGIC: &[u8; 4] = b"SLOW";
/// Larger records have never been written; a larger field means a damaged header.
const MAX_RECORD_SIZE: u16 = 64;
const MAX_DATA_OFFSET: u16 = 4096;
/// A summary packet longer than this is taken as corruption, not waited for.
const MAX_SUMMARY_BYTES: usize = 64 << 20;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DataHeader {
    pub version: u16,
    pub streaming: bool,
    pub data_offset: u16,
    pub start_us: u64,
    pub record_size: u16,
}

/// Reads the data header at the start of `bytes` (found at absolute `offset`).
/// `Ok(None)`: not enough bytes yet.
pub fn parse_data_header(bytes: &[u8], offset: u64) -> Result<Option<DataHeader>> {
    if bytes.len() < 8 {
        return Ok(None);
    }
    if &bytes[..4] != MAGIC {
        return Err(Error::at(
            ErrorKind::Corrupt,
            offset,
            format!(
                "expected the binary data header (\"SLOW\") after the *end line, found \"{}\"",
                crate::text::describe_bytes(&bytes[..8])
            ),
        ));
    }
    let raw_version = u16::from_le_bytes([bytes[4], bytes[5]]);
    let streaming = raw_version & 0xF0 == 0xF0 && raw_version <= 0xFF;
    let version = if streaming { raw_version & 0x0F } else { raw_version };
    if !(1..=3).contains(&version) {
        return Err(Error::at(
            ErrorKind::Corrupt,
            offset + 4,
            format!(
                "the data header's version field is {raw_version:#06x}; expected 1, 2 or 3{}",
                reencoded_hint(bytes)
            ),
        ));
    }
    let data_offset = u16::from_le_bytes([bytes[6], bytes[7]]);
    let fixed = if version >= 3 || streaming { 18 } else { 16 };
    if data_offset < fixed || data_offset > MAX_DATA_OFFSET {
        return Err(Error::at(
            ErrorKind::Corrupt,
            offset + 6,
            format!(
                "the data header's offset-to-data field is {data_offset}; expected {fixed} to {MAX_DATA_OFFSET}{}",
                reencoded_hint(bytes)
            ),
        ));
    }
    if bytes.len() < data_offset as usize {
        return Ok(None);
    }
    let start_us = u64::from_le_bytes(bytes[8..16].try_into().expect("8 bytes"));
    let record_size = match version {
        1 if !streaming => 9,
        2 if !streaming => 10,
        _ => u16::from_le_bytes([bytes[16], bytes[17]]),
    };
    let min = if version == 1 { 9 } else { 10 };
    let record_size = if record_size == 0 && streaming { default_size(version) } else { record_size };
    if record_size < min || record_size > MAX_RECORD_SIZE {
        return Err(Error::at(
            ErrorKind::Corrupt,
            offset + 16,
            format!(
                "the data header's record size is {record_size} bytes; version {version} records are {min} to \
                 {MAX_RECORD_SIZE}{}",
                reencoded_hint(bytes)
            ),
        ));
    }
    Ok(Some(DataHeader { version, streaming, data_offset, start_us, record_size }))
}

fn default_size(version: u16) -> u16 {
    match version {
        1 => 9,
        2 => 10,
        _ => 14,
    }
}

/// A common accident: the trace was opened as text and saved as UTF-8, so every byte
/// >= 0x80 of the binary part became `C2 xx` / `C3 xx`. Say so when it looks like that.
fn reencoded_hint(bytes: &[u8]) -> &'static str {
    let window = &bytes[..bytes.len().min(64)];
    let pairs = window.windows(2).filter(|w| (w[0] == 0xC2 || w[0] == 0xC3) && (0x80..0xC0).contains(&w[1])).count();
    if pairs >= 2 {
        " (bytes above 0x7f appear as UTF-8 pairs: the file was probably opened and saved as text, which \
         damages the binary part; use the original file)"
    } else {
        ""
    }
}

/// How one record is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordLayout {
    pub size: usize,
    /// Thread ids are 1 byte in version 1 files, 2 bytes otherwise.
    pub wide_tid: bool,
    /// Two clocks: thread-CPU then wall (V1 order).
    pub dual: bool,
}

/// Decodes every complete record in `data`; returns the bytes consumed.
pub fn decode_records(data: &[u8], layout: RecordLayout, art: &mut ArtRecords, b: &mut ProfileBuilder) -> usize {
    match (layout.wide_tid, layout.dual) {
        (true, true) => records::<2, true>(data, layout.size, art, b),
        (true, false) => records::<2, false>(data, layout.size, art, b),
        (false, true) => records::<1, true>(data, layout.size, art, b),
        (false, false) => records::<1, false>(data, layout.size, art, b),
    }
}

/// The per-record loop: no allocation, no strings, no hashing of names. The thread is
/// looked up only when the record's thread id differs from the previous record's (ART
/// writes per-thread runs, older ART one record of each thread in turn); regular files
/// define no threads between records, so a thread id cannot change meaning meanwhile.
fn records<const TID: usize, const DUAL: bool>(
    data: &[u8],
    size: usize,
    art: &mut ArtRecords,
    b: &mut ProfileBuilder,
) -> usize {
    let mut chunks = data.chunks_exact(size);
    let (mut last_tid, mut thread) = (u32::MAX, 0);
    for record in &mut chunks {
        let tid = tid_of::<TID>(record);
        if tid != last_tid {
            last_tid = tid;
            thread = art.thread(tid, b);
        }
        record_of::<TID, DUAL>(record, thread, art, b);
    }
    data.len() - chunks.remainder().len()
}

/// A record's raw wall time (or its only clock's).
pub fn raw_wall(record: &[u8], layout: RecordLayout) -> u32 {
    let tid = if layout.wide_tid { 2 } else { 1 };
    u32_at(record, if layout.dual { tid + 8 } else { tid + 4 })
}

#[inline(always)]
fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

#[inline(always)]
fn tid_of<const TID: usize>(record: &[u8]) -> u32 {
    if TID == 2 {
        u32::from(u16::from_le_bytes([record[0], record[1]]))
    } else {
        u32::from(record[0])
    }
}

#[inline(always)]
fn record_of<const TID: usize, const DUAL: bool>(
    record: &[u8],
    thread: u32,
    art: &mut ArtRecords,
    b: &mut ProfileBuilder,
) {
    let word = u32_at(record, TID);
    // V1 order for dual clocks is CPU then wall; wall comes first here (or the only clock).
    let raw = if DUAL { [u32_at(record, TID + 8), u32_at(record, TID + 4)] } else { [u32_at(record, TID + 4), 0] };
    art.record32::<DUAL>(thread, u64::from(word & !3), (word & 3) as u8, raw, b);
}

/// One record of a streaming file, where any record may be of another thread.
#[inline(always)]
fn decode_record<const TID: usize, const DUAL: bool>(record: &[u8], art: &mut ArtRecords, b: &mut ProfileBuilder) {
    let thread = art.thread(tid_of::<TID>(record), b);
    record_of::<TID, DUAL>(record, thread, art, b);
}

/// What a streaming decode step ended on.
#[derive(Debug, PartialEq, Eq)]
pub enum StreamEnd {
    /// Needs more bytes.
    NeedMore,
    /// The summary packet was read; nothing meaningful follows.
    Summary,
}

/// Decodes streaming items (records and `00 00 op` escapes) from `data`. Returns the bytes
/// consumed and why it stopped.
pub fn decode_stream(
    data: &[u8],
    layout: RecordLayout,
    summary: &mut KeyParser,
    art: &mut ArtRecords,
    b: &mut ProfileBuilder,
) -> (usize, StreamEnd) {
    let size = layout.size;
    let mut at = 0;
    loop {
        let rest = &data[at..];
        if rest.len() < 2 {
            return (at, StreamEnd::NeedMore);
        }
        if rest[0] != 0 || rest[1] != 0 {
            if rest.len() < size {
                return (at, StreamEnd::NeedMore);
            }
            decode_stream_record(rest, layout, art, b);
            at += size;
            continue;
        }
        if rest.len() < 3 {
            return (at, StreamEnd::NeedMore);
        }
        match escape(rest) {
            Escape::NeedMore => return (at, StreamEnd::NeedMore),
            Escape::Method(len) => {
                if let Some((id, info)) = parse_method_line(&rest[5..5 + len]) {
                    art.define_method(id, info, b);
                }
                at += 5 + len;
            }
            Escape::Thread(id, len) => {
                art.define_thread(id, decode_java(&rest[7..7 + len]), b);
                at += 7 + len;
            }
            Escape::Summary(len) => {
                summary.parse_all(&rest[7..7 + len], art, b);
                return (at + 7 + len, StreamEnd::Summary);
            }
            Escape::Record => {
                if rest.len() < size {
                    return (at, StreamEnd::NeedMore);
                }
                decode_stream_record(rest, layout, art, b);
                at += size;
            }
        }
    }
}

#[inline]
fn decode_stream_record(rest: &[u8], layout: RecordLayout, art: &mut ArtRecords, b: &mut ProfileBuilder) {
    if layout.dual {
        decode_record::<2, true>(rest, art, b)
    } else {
        decode_record::<2, false>(rest, art, b)
    }
}

enum Escape {
    NeedMore,
    Method(usize),
    Thread(u32, usize),
    Summary(usize),
    /// Not a plausible escape: a record of a thread whose 16-bit id is 0.
    Record,
}

/// Classifies `00 00 op ...`. Older ART truncated thread ids to 16 bits, so a thread whose
/// id is a multiple of 65536 writes records that start like escapes: accept an escape
/// only when its payload has the right shape.
fn escape(rest: &[u8]) -> Escape {
    match rest[2] {
        1 => {
            let Some(len) = u16_at(rest, 3) else {
                return Escape::NeedMore;
            };
            if rest.len() < 5 + len {
                return Escape::NeedMore;
            }
            let payload = &rest[5..5 + len];
            let id_digits = payload.iter().take_while(|b| b.is_ascii_alphanumeric()).count();
            if len > 2 && payload.get(id_digits) == Some(&b'\t') && payload.last() == Some(&b'\n') {
                Escape::Method(len)
            } else {
                Escape::Record
            }
        }
        2 => {
            let (Some(id), Some(len)) = (u16_at(rest, 3), u16_at(rest, 5)) else {
                return Escape::NeedMore;
            };
            if rest.len() < 7 + len {
                return Escape::NeedMore;
            }
            Escape::Thread(id as u32, len)
        }
        3 => {
            if rest.len() < 7 {
                return Escape::NeedMore;
            }
            let len = u32::from_le_bytes([rest[3], rest[4], rest[5], rest[6]]) as usize;
            if len > MAX_SUMMARY_BYTES {
                return Escape::Record;
            }
            if rest.len() < 7 + len {
                return Escape::NeedMore;
            }
            if rest[7..].starts_with(b"*version") {
                Escape::Summary(len)
            } else {
                Escape::Record
            }
        }
        _ => Escape::Record,
    }
}

fn u16_at(b: &[u8], at: usize) -> Option<usize> {
    Some(u16::from_le_bytes([*b.get(at)?, *b.get(at + 1)?]) as usize)
}
