//! Heap dumps in HPROF (`JAVA PROFILE 1.0.2` and `1.0.3`, 4- or 8-byte ids): what ART,
//! `hprof-conv` and HotSpot write. The framing cuts the bytes into whole pieces
//! (`framing`); the graph reader writes each object, reference and root through the heap
//! graph sink (`graph`). Nothing but the objects' sizes and references is kept: memory
//! grows with objects, not with bytes.

mod framing;
#[cfg(test)]
mod framing_tests;
mod graph;
#[cfg(test)]
mod graph_tests;

use crate::error::{Error, ErrorKind, Result};
use crate::feed::ChunkFeeder;
use crate::importer::{Format, Imported, Importer, Sniff};
use crate::profile::{
    ClockSet, ClockWords, Detail, FinishSpec, FormatInfo, FrameKind, ProfileBuilder, Repair, SourceKind, SourceSpec,
    TimeUnit, Unit,
};
use crate::text::{counted, group_digits};
use framing::{Damage, Framing, Piece};
use graph::GraphReader;

/// What every HPROF file starts with, before its version's last digit.
const MAGIC: &[u8] = b"JAVA PROFILE 1.0.";

/// Recognises a heap dump from its first bytes; `None`: not sure yet.
pub fn sniff(head: &[u8], complete: bool) -> Option<bool> {
    let n = head.len().min(MAGIC.len());
    if head[..n] != MAGIC[..n] {
        Some(false)
    } else if n == MAGIC.len() {
        Some(true)
    } else if complete {
        Some(false)
    } else {
        None
    }
}

/// The registry's entry: HPROF heap dumps.
pub(crate) const FORMAT: Format = Format {
    family: "hprof",
    sniff: |head, complete| Sniff::from_answer(sniff(head, complete)),
    start: |_head, input| Box::new(HprofDecoder { gzip: input.gzip, ..HprofDecoder::default() }),
    pair: None,
    split: None,
    stages: None,
};

/// What the header says.
#[derive(Debug, Clone, Default)]
struct Header {
    version: String,
    id_size: u8,
    millis: u64,
}

/// The damaged parts met, and where the first was.
#[derive(Debug, Default)]
struct Damaged {
    count: u64,
    first: Option<(u64, Damage)>,
}

/// Reads one HPROF dump, in chunks, into the heap-graph sink.
#[derive(Debug)]
pub struct HprofDecoder {
    feeder: ChunkFeeder,
    framing: Framing,
    reader: GraphReader,
    header: Option<Header>,
    damaged: Damaged,
    gzip: bool,
}

impl Default for HprofDecoder {
    fn default() -> Self {
        HprofDecoder {
            feeder: ChunkFeeder::default(),
            framing: Framing::new(),
            reader: GraphReader::default(),
            header: None,
            damaged: Damaged::default(),
            gzip: false,
        }
    }
}

impl Importer for HprofDecoder {
    fn push(&mut self, bytes: &[u8], builder: &mut ProfileBuilder) -> Result<()> {
        let Self { feeder, framing, reader, header, damaged, .. } = self;
        let sink = &mut builder.graph;
        feeder.push(bytes, |data, offset| {
            framing.decode(data, offset, &mut |piece| {
                match piece {
                    Piece::Header { version, id_size, millis } => {
                        let version = String::from_utf8_lossy(version).into_owned();
                        *header = Some(Header { version, id_size, millis });
                    }
                    Piece::Damaged { at, why } => {
                        damaged.count += 1;
                        damaged.first.get_or_insert((at, why));
                    }
                    _ => {}
                }
                reader.piece(sink, piece);
            })
        })
    }

    fn finish(self: Box<Self>, builder: &mut ProfileBuilder) -> Result<Imported> {
        let HprofDecoder { feeder, framing, reader, header, damaged, gzip } = *self;
        let (rest, at) = feeder.rest();
        let end = at + rest.len() as u64;
        let Some(header) = header else {
            return Err(Error::at(ErrorKind::Truncated, end, "the heap dump ends inside its header"));
        };
        let cut = !framing.between_records() || !rest.is_empty();
        let classless = reader.finish(&mut builder.graph);
        if builder.graph.is_empty() {
            let why = if cut { "the dump ends before its first object" } else { "the dump holds no objects" };
            return Err(Error::at(ErrorKind::Truncated, end, format!("{why}: there is no heap to show")));
        }
        let facts = &mut builder.facts;
        if cut {
            facts.repairs.truncated = true;
            facts.warn_about(
                Repair::Truncated,
                format!("the dump ends at byte {} inside a record; the objects before it are shown", group_digits(end)),
            );
        }
        if damaged.count > 0 {
            facts.repairs.damaged_parts += damaged.count;
            let (first, why) = damaged.first.expect("a damaged part was met");
            let why = match why {
                Damage::UnknownSubRecord(tag) => format!("an unknown sub-record tag {tag:#04x}"),
                Damage::UnknownType(code) => format!("an unknown basic type {code}"),
                Damage::PastItsRecord => "a sub-record longer than its record".to_owned(),
            };
            facts.warn_about(
                Repair::DamagedParts,
                format!(
                    "{} skipped to the next record, the first at byte {} ({why})",
                    counted(damaged.count, "heap-dump record was", "heap-dump records were"),
                    group_digits(first)
                ),
            );
        }
        facts.repairs.objects_without_class += classless;
        Ok(finish_spec(&header, gzip).into())
    }
}

/// What the dump was: its version and id size, and when it was taken.
fn finish_spec(header: &Header, gzip: bool) -> FinishSpec {
    let version = header.version.rsplit('.').next().and_then(|v| v.parse().ok()).unwrap_or(0);
    let format = FormatInfo {
        family: "hprof",
        layout: "hprof",
        kind: "heap dump",
        version,
        gzip,
        ends_known: false,
        split: false,
        pid: None,
        recorded_us: None,
        details: vec![
            ("id_size", Detail::Number(u64::from(header.id_size))),
            ("dumped_at_ms", Detail::Number(header.millis)),
        ],
        sampling_interval_us: None,
        description: format!(
            "Heap dump (HPROF {}, {}-byte ids){}",
            header.version.trim_start_matches("JAVA PROFILE "),
            header.id_size,
            if gzip { ", gzip" } else { "" }
        ),
    };
    FinishSpec {
        format,
        header: vec![
            ("version".to_owned(), header.version.clone()),
            ("id_size".to_owned(), header.id_size.to_string()),
            ("time_ms".to_owned(), header.millis.to_string()),
        ],
        time_unit: TimeUnit::MICROS,
        counters: Vec::new(),
        group_by_process: false,
        timeline: Some((0, 0)),
        gaps: Vec::new(),
        main: SourceSpec {
            kind: SourceKind::Calls,
            unit: Unit::Micros,
            clocks: ClockSet::Wall,
            frame_kind: FrameKind::Class,
            clock_words: ClockWords { wall: "wall time", cpu: "" },
            preferred_clock: None,
            states_as_frames: false,
        },
        more: Vec::new(),
        main_first: true,
    }
}
