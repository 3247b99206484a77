//! Perfetto protobuf traces (`.perfetto-trace`, `.pftrace`, Android Studio's system
//! trace `.trace`): packets are cut out as bytes stream in (`framing`), decoded with only
//! the fields droidflame reads (`proto`), put back in time order (`sorter`) and given
//! meaning (`packets`) in the same system model as atrace text, so the same events give the
//! same profile whichever way they were recorded.

mod code;
mod cpu_samples;
mod frame_timeline;
mod framing;
mod heap_dumps;
mod java_heap_proto;
mod java_heaps;
mod notes;
mod packets;
mod profiling_proto;
mod proto;
mod sequence;
mod sorted;
mod sorter;
mod stats;
mod track_events;
mod unpack;

use crate::error::{Error, ErrorKind, Result};
use crate::formats::system::InflateBudget;
use crate::importer::{Format, Imported, Importer, Input, Sniff};
use crate::profile::ProfileBuilder;
use crate::profile::Repair;
use crate::text::group_digits;
use framing::{Broken, PacketFraming, MAX_PACKET};
use packets::PacketReader;

/// Recognises a Perfetto trace from its first bytes: field 1 (a packet) whose first fields
/// are well formed. `None`: not sure yet.
pub fn sniff(head: &[u8], complete: bool) -> Option<bool> {
    let unsure = || if complete { Some(false) } else { None };
    if head.first() != Some(&0x0A) {
        return Some(false);
    }
    let Some((len, n)) = read_varint(&head[1..]) else {
        return if head.len() > 11 { Some(false) } else { unsure() };
    };
    if len == 0 || len > MAX_PACKET {
        return Some(false);
    }
    // Up to three fields of the first packet, as far as the head holds them.
    let end = (1 + n + len as usize).min(head.len());
    let mut at = 1 + n;
    for _ in 0..3 {
        if at >= end {
            break;
        }
        let Some((key, k)) = read_varint(&head[at..end]) else {
            return if end == head.len() { unsure() } else { Some(false) };
        };
        let (field, wire) = (key >> 3, key & 7);
        if field == 0 || ![0, 1, 2, 5].contains(&wire) {
            return Some(false);
        }
        at += k;
        at += match wire {
            0 => match read_varint(&head[at.min(end)..end]) {
                Some((_, v)) => v,
                None => break,
            },
            1 => 8,
            5 => 4,
            _ => match read_varint(&head[at.min(end)..end]) {
                Some((l, v)) if l <= len => v + l as usize,
                Some(_) => return Some(false),
                None => break,
            },
        };
    }
    Some(true)
}

/// A whole varint at the start of `bytes`, if there is one.
fn read_varint(bytes: &[u8]) -> Option<(u64, usize)> {
    framing::varint(bytes).flatten()
}

/// Reads one Perfetto trace, in chunks, into a `ProfileBuilder`.
pub struct PerfettoDecoder {
    framing: PacketFraming,
    reader: PacketReader,
    budget: InflateBudget,
    gzip: bool,
}

/// The registry's entry: protobuf traces (a stream of `TracePacket`s).
pub(crate) const FORMAT: Format = Format {
    family: "perfetto",
    sniff: |head, complete| Sniff::from_answer(sniff(head, complete)),
    start,
    pair: None,
    split: None,
};

fn start(_head: &[u8], input: &Input) -> Box<dyn Importer> {
    let mut decoder = PerfettoDecoder::new(input.options.max_decompressed_bytes);
    decoder.gzip = input.gzip;
    Box::new(decoder)
}

impl PerfettoDecoder {
    /// A decoder whose compressed packets may inflate to at most `max_decompressed_bytes`.
    pub fn new(max_decompressed_bytes: u64) -> Self {
        PerfettoDecoder {
            framing: PacketFraming::default(),
            reader: PacketReader::default(),
            budget: InflateBudget { inflated: 0, limit: max_decompressed_bytes },
            gzip: false,
        }
    }
}

impl Importer for PerfettoDecoder {
    fn push(&mut self, bytes: &[u8], builder: &mut ProfileBuilder) -> Result<()> {
        let (reader, budget) = (&mut self.reader, &mut self.budget);
        let mut failed = None;
        self.framing.push(bytes, &mut |packet, at| {
            if failed.is_none() {
                failed = reader.packet(packet, at, budget, builder).err();
            }
        });
        failed.map_or(Ok(()), Err)
    }

    fn finish(mut self: Box<Self>, builder: &mut ProfileBuilder) -> Result<Imported> {
        let gzip = self.gzip;
        self.reader.finish(builder);
        let java_heap = self.reader.java_heaps.dump_read();
        if let Some((at, bytes)) = self.framing.unfinished() {
            builder.facts.repairs.truncated = true;
            builder.facts.warn_about(
                Repair::Truncated,
                format!(
                    "the input ends inside the packet that begins at byte {} ({} bytes of it are there): every \
                     packet before it was read",
                    group_digits(at),
                    group_digits(bytes)
                ),
            );
        }
        if let Some(Broken::Damaged { at }) = self.framing.broken {
            builder.facts.repairs.damaged_parts += 1;
            builder.facts.warn_about(
                Repair::DamagedParts,
                format!(
                    "the trace's packet framing is damaged at byte {}: the {} bytes from there on could not be cut \
                     into packets and were not read",
                    group_digits(at),
                    group_digits(self.framing.read() - at)
                ),
            );
        }
        let stats = &self.reader.stats;
        if stats.packets == 0 {
            return Err(Error::at(ErrorKind::NotATrace, 0, "the Perfetto trace holds no packets"));
        }
        let end = self.reader.system.finish(builder);
        let samples = self.reader.samples.finish(&self.reader.system, builder);
        let unfinished = self.reader.frames.finish(builder);
        if unfinished > 0 {
            builder.facts.warn(format!(
                "{} of the frame timeline never ended in the trace: kept, with no end",
                crate::text::counted(unfinished, "app frame", "app frames")
            ));
        }
        let unmatched = self.reader.frames.unmatched_ends;
        if unmatched > 0 {
            builder.facts.warn(format!(
                "{} of the frame timeline named no frame the trace started, and {} skipped",
                crate::text::counted(unmatched, "frame end", "frame ends"),
                if unmatched == 1 { "was" } else { "were" }
            ));
        }
        let slices = self.reader.system.stats.slices;
        notes::warn(&self.reader, slices, &end, builder);
        let header = vec![
            ("packets".to_owned(), stats.packets.to_string()),
            ("ftrace_events".to_owned(), stats.ftrace_events.to_string()),
        ];
        let mut spec =
            end.finish_spec(("perfetto", "protobuf", "System trace (Perfetto)".to_owned()), (gzip, false), header);
        spec.more.extend(samples);
        // A capture whose only calls are scheduler states opens on its samples or heap.
        spec.main_first = slices > 0;
        if let (Some((pid, _)), 0, 0) = (java_heap, slices, self.reader.samples.stats.samples) {
            spec.format.kind = "heap dump";
            spec.format.description = format!("Java heap dump of pid {pid} (Perfetto heap graph)");
        }
        Ok(spec.into())
    }
}
