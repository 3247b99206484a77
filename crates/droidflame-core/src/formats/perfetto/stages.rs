//! A Perfetto trace read in two halves: the front cuts packets out of the bytes and
//! decodes them (`framing`, `proto`), which needs nothing but the bytes; the back gives
//! them meaning in order (`packets`). One thread composes them (`PerfettoDecoder`); a
//! large input runs the front on a core of its own, ahead of the back.

use super::framing::{Broken, PacketFraming};
use super::notes;
use super::packets::PacketReader;
use super::proto::TracePacket;
use crate::error::{Error, ErrorKind, Result};
use crate::formats::system::InflateBudget;
use crate::importer::{Back, Decoded, Front, Imported, Input};
use crate::profile::{ProfileBuilder, Repair};
use crate::text::group_digits;
use bytes::Bytes;
use prost::Message;

/// Cuts and decodes packets.
#[derive(Debug, Default)]
pub struct PacketFront {
    framing: PacketFraming,
}

/// One chunk's packets, in input order: each one's bytes, input offset, and decoded
/// message (`None`: damaged).
#[derive(Debug, Default)]
pub struct Packets {
    pub packets: Vec<(Bytes, u64, Option<TracePacket>)>,
    /// Set in the last batch: how the input ended.
    pub end: Option<FramingEnd>,
}

/// How the framing ended, for the notes.
#[derive(Debug, Clone, Copy)]
pub struct FramingEnd {
    /// Where the packet the input ended inside began, and how many of its bytes are there.
    unfinished: Option<(u64, u64)>,
    broken: Option<Broken>,
    /// Input bytes read.
    read: u64,
}

impl PacketFront {
    /// Each packet the next bytes complete, decoded, to `on_packet` with its offset.
    pub fn each(&mut self, bytes: &[u8], on_packet: &mut dyn FnMut(Bytes, u64, Option<TracePacket>)) {
        self.framing.push(bytes, &mut |packet, at| {
            let decoded = TracePacket::decode(packet.clone()).ok();
            on_packet(packet, at, decoded);
        });
    }

    /// How the input ended.
    pub fn end(&self) -> FramingEnd {
        FramingEnd { unfinished: self.framing.unfinished(), broken: self.framing.broken, read: self.framing.read() }
    }
}

impl Front for PacketFront {
    fn push(&mut self, bytes: &[u8]) -> Decoded {
        let mut packets = Vec::new();
        self.each(bytes, &mut |packet, at, decoded| packets.push((packet, at, decoded)));
        Box::new(Packets { packets, end: None })
    }

    fn finish(self: Box<Self>) -> Decoded {
        Box::new(Packets { packets: Vec::new(), end: Some(self.end()) })
    }
}

/// Gives decoded packets their meaning, in order.
#[derive(Debug)]
pub struct PacketBack {
    reader: PacketReader,
    budget: InflateBudget,
    gzip: bool,
}

impl PacketBack {
    pub fn new(input: &Input) -> Self {
        PacketBack {
            reader: PacketReader::default(),
            budget: InflateBudget { inflated: 0, limit: input.options.max_decompressed_bytes },
            gzip: input.gzip,
        }
    }

    /// Reads one packet (`at`: its input offset), decoded (`None`: damaged).
    pub fn read(&mut self, bytes: Bytes, at: u64, decoded: Option<TracePacket>, b: &mut ProfileBuilder) -> Result<()> {
        self.reader.decoded(bytes, decoded, at, &mut self.budget, b)
    }

    /// Reads one batch of packets; the first error ends it.
    fn read_all(&mut self, packets: Packets, builder: &mut ProfileBuilder) -> Result<()> {
        for (bytes, at, decoded) in packets.packets {
            self.read(bytes, at, decoded, builder)?;
        }
        Ok(())
    }

    /// The input has ended as `end` says.
    pub fn finish_with(mut self, end: FramingEnd, builder: &mut ProfileBuilder) -> Result<Imported> {
        let gzip = self.gzip;
        self.reader.finish(builder);
        let java_heap = self.reader.java_heaps.dump_read();
        if let Some((at, bytes)) = end.unfinished {
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
        if let Some(Broken::Damaged { at }) = end.broken {
            builder.facts.repairs.damaged_parts += 1;
            builder.facts.warn_about(
                Repair::DamagedParts,
                format!(
                    "the trace's packet framing is damaged at byte {}: the {} bytes from there on could not be cut \
                     into packets and were not read",
                    group_digits(at),
                    group_digits(end.read - at)
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

/// Only a `PacketFront`'s batches reach a `PacketBack`.
fn packets(decoded: Decoded) -> Packets {
    *decoded.downcast::<Packets>().expect("a Perfetto back takes its own front's packets")
}

impl Back for PacketBack {
    fn take(&mut self, decoded: Decoded, builder: &mut ProfileBuilder) -> Result<()> {
        self.read_all(packets(decoded), builder)
    }

    fn finish(mut self: Box<Self>, last: Decoded, builder: &mut ProfileBuilder) -> Result<Imported> {
        let mut last = packets(last);
        let end = last.end.take().expect("a front's last batch says how the input ended");
        self.read_all(last, builder)?;
        self.finish_with(end, builder)
    }
}
