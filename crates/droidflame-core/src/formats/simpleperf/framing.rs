//! The record stream of a report-sample file: `SIMPLEPERF`, a u16 version, then records,
//! each a u32 size and one protobuf `Record`, ended by a size of 0. Each whole record is
//! handed to the sample reader as it arrives.

use super::samples::SampleReader;
use crate::profile::ProfileBuilder;

/// The file's first bytes.
pub(super) const MAGIC: &[u8] = b"SIMPLEPERF";
/// The magic and the version.
const HEADER_BYTES: usize = MAGIC.len() + 2;
/// A record longer than this only comes from damage: the largest, a file's symbol table,
/// stays far below it.
const MAX_RECORD: u32 = 256 << 20;

/// How the record stream ended, if it did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum End {
    /// The record of size 0; `trailing` bytes followed it.
    Marker { trailing: u64 },
    /// A size no record has, at this offset: nothing after it can be read.
    Damaged { at: u64, size: u32 },
}

/// Reads the whole records at the start of `data` (at input offset `offset`); returns the
/// bytes used. After the end, every byte is used and counted.
pub(super) fn read_records(
    data: &[u8],
    offset: u64,
    version: &mut Option<u16>,
    records: &mut u64,
    end: &mut Option<End>,
    reader: &mut SampleReader,
    builder: &mut ProfileBuilder,
) -> usize {
    let mut at = 0;
    if version.is_none() {
        if data.len() < HEADER_BYTES {
            return 0;
        }
        *version = Some(u16::from_le_bytes([data[MAGIC.len()], data[MAGIC.len() + 1]]));
        at = HEADER_BYTES;
    }
    loop {
        match end {
            Some(End::Marker { trailing }) => {
                *trailing += (data.len() - at) as u64;
                return data.len();
            }
            Some(End::Damaged { .. }) => return data.len(),
            None => {}
        }
        let Some(size) = data.get(at..at + 4) else {
            return at;
        };
        let size = u32::from_le_bytes(size.try_into().expect("four bytes"));
        if size == 0 {
            *end = Some(End::Marker { trailing: 0 });
            at += 4;
            continue;
        }
        if size > MAX_RECORD {
            *end = Some(End::Damaged { at: offset + at as u64, size });
            continue;
        }
        let Some(body) = data.get(at + 4..at + 4 + size as usize) else {
            return at;
        };
        reader.record(body, offset + at as u64, builder);
        *records += 1;
        at += 4 + size as usize;
    }
}
