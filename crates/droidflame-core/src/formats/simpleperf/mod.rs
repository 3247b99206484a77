//! simpleperf's report-sample files (Android Studio's "Callstack Sample" `.trace`,
//! `simpleperf report-sample --protobuf`): `SIMPLEPERF`, a u16 version, then records, each
//! a u32 size and one protobuf `Record`, ended by a size of 0. Records are cut out as bytes
//! stream in, samples become stacks as they come (`samples`), and the names of frames and
//! threads, which simpleperf writes after every sample, are put on them at the end.

mod events;
mod frames;
mod framing;
mod notes;
mod proto;
mod samples;
mod symbols;

use crate::error::Result;
use crate::feed::ChunkFeeder;
use crate::importer::{Format, Imported, Importer, Sniff};
use crate::profile::ProfileBuilder;
use framing::{read_records, End, MAGIC};
use samples::SampleReader;

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
    split: None,
    stages: None,
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
