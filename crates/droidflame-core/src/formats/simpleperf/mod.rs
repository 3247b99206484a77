//! simpleperf's report-sample files (Android Studio's "Callstack Sample" `.trace`,
//! `simpleperf report-sample --protobuf`): `SIMPLEPERF`, a u16 version, then records, each
//! a u32 size and one protobuf `Record`, ended by a size of 0. Records are cut out as bytes
//! stream in, samples become stacks as they come (`samples`), and the names of frames and
//! threads, which simpleperf writes after every sample, are put on them at the end.

mod events;
mod frames;
mod notes;
mod proto;
mod samples;
mod symbols;

use crate::error::Result;
use crate::feed::ChunkFeeder;
use crate::importer::{Format, Imported, Importer, Sniff};
use crate::profile::ProfileBuilder;
use samples::SampleReader;

/// The file's first bytes.
pub const MAGIC: &[u8] = b"SIMPLEPERF";
/// The magic and the version.
const HEADER_BYTES: usize = MAGIC.len() + 2;
/// A record longer than this only comes from damage: the largest, a file's symbol table,
/// stays far below it.
const MAX_RECORD: u32 = 256 << 20;

/// Recognises simpleperf's samples from their first bytes; `None`: not sure yet.
pub fn sniff(head: &[u8], complete: bool) -> Option<bool> {
    let n = head.len().min(MAGIC.len());
    if head[..n] != MAGIC[..n] {
        return Some(false);
    }
    if n == MAGIC.len() {
        Some(true)
    } else if complete {
        Some(false)
    } else {
        None
    }
}

/// How the record stream ended, if it did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    /// The record of size 0; `trailing` bytes followed it.
    Marker { trailing: u64 },
    /// A size no record has, at this offset: nothing after it can be read.
    Damaged { at: u64, size: u32 },
}

/// Reads one report-sample file, in chunks, into a `ProfileBuilder`.
#[derive(Debug, Default)]
pub struct SimpleperfDecoder {
    feeder: ChunkFeeder,
    version: Option<u16>,
    records: u64,
    end: Option<End>,
    reader: SampleReader,
    gzip: bool,
}

/// The registry's entry: simpleperf's report-sample protobuf records.
pub(crate) const FORMAT: Format = Format {
    family: "simpleperf",
    sniff: |head, complete| Sniff::from_answer(sniff(head, complete)),
    start: |_head, input| Box::new(SimpleperfDecoder { gzip: input.gzip, ..SimpleperfDecoder::default() }),
    pair: None,
};

impl Importer for SimpleperfDecoder {
    fn push(&mut self, bytes: &[u8], builder: &mut ProfileBuilder) -> Result<()> {
        let Self { feeder, version, records, end, reader, .. } = self;
        feeder.push(bytes, |data, offset| Ok(read_records(data, offset, version, records, end, reader, builder)))
    }

    fn finish(self: Box<Self>, builder: &mut ProfileBuilder) -> Result<Imported> {
        let gzip = self.gzip;
        let (rest, at) = self.feeder.rest();
        let cut = match self.end {
            Some(_) => None,
            None => Some((at, rest.len() as u64)),
        };
        self.reader.threads.finish(builder);
        let ending = notes::Ending { version: self.version, records: self.records, cut, end: self.end };
        Ok(notes::finish(self.reader, ending, gzip, builder).into())
    }
}

/// Reads the whole records at the start of `data` (at input offset `offset`); returns the
/// bytes used. After the end, every byte is used and counted.
fn read_records(
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
