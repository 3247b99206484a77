//! A Perfetto trace read in two halves. The front cuts packets out of the bytes
//! (`framing`), decodes them (`proto`) and puts what they say happened in time order
//! (`events`, `sorter`); the back gives the rest of each packet its meaning and reads the
//! events the front let go, each where one reading lets it go (`packets`). One thread
//! composes them (`PerfettoDecoder`); a large input runs the front on a core of its own,
//! ahead of the back.

use super::events::{EventFront, Step};
use super::framing::{Broken, PacketFraming};
use super::notes;
use super::packets::{FrontEnd, PacketReader};
use super::proto::TracePacket;
use super::sorter::Released;
use crate::error::{Error, ErrorKind, Result};
use crate::formats::system::InflateBudget;
use crate::importer::{Back, Decoded, Front, Imported, Input};
use crate::profile::{ProfileBuilder, Repair};
use crate::text::group_digits;
use prost::Message;

/// Cuts, decodes and sorts.
#[derive(Debug)]
pub struct PacketFront {
    framing: PacketFraming,
    events: EventFront,
    budget: InflateBudget,
}

/// A batch of the front's steps, and at the end how the input ended.
#[derive(Debug, Default)]
pub struct Steps {
    pub steps: Vec<Step>,
    pub end: Option<(FramingEnd, FrontEnd)>,
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
    pub fn new(input: &Input) -> Self {
        PacketFront {
            framing: PacketFraming::default(),
            events: EventFront::default(),
            budget: InflateBudget { inflated: 0, limit: input.options.max_decompressed_bytes },
        }
    }

    /// Reads the next bytes: each packet they complete gives its steps to `on_steps`,
    /// which hands back the batches of events it read, their space to fill again.
    pub fn each(&mut self, bytes: &[u8], on_steps: &mut dyn FnMut(&mut Vec<Step>) -> Vec<Released>) {
        let (events, budget) = (&mut self.events, &mut self.budget);
        let mut steps = Vec::new();
        self.framing.push(bytes, &mut |packet, at| {
            let decoded = TracePacket::decode(packet.clone()).ok();
            events.packet(packet, decoded, at, budget, &mut steps);
            on_steps(&mut steps).into_iter().for_each(|spent| events.recycle(spent));
        });
    }

    /// The input has ended: the last events, and how it ended.
    pub fn end(&mut self) -> Steps {
        let mut steps = Vec::new();
        self.events.finish(&mut steps);
        let framing = FramingEnd {
            unfinished: self.framing.unfinished(),
            broken: self.framing.broken,
            read: self.framing.read(),
        };
        let front =
            FrontEnd { stats: std::mem::take(&mut self.events.stats), clocks: std::mem::take(&mut self.events.clocks) };
        Steps { steps, end: Some((framing, front)) }
    }
}

impl Front for PacketFront {
    fn push(&mut self, bytes: &[u8]) -> Decoded {
        let mut all = Vec::new();
        self.each(bytes, &mut |steps| {
            all.append(steps);
            Vec::new()
        });
        Box::new(Steps { steps: all, end: None })
    }

    fn finish(mut self: Box<Self>) -> Decoded {
        Box::new(self.end())
    }

    fn recycle(&mut self, spent: Decoded) {
        if let Ok(spent) = spent.downcast::<Vec<Released>>() {
            spent.into_iter().for_each(|spent| self.events.recycle(spent));
        }
    }

    fn ahead(&self) -> usize {
        self.events.ahead()
    }
}

/// Gives packets their meaning and reads the events the front let go, in order.
#[derive(Debug)]
pub struct PacketBack {
    reader: PacketReader,
    gzip: bool,
}

impl PacketBack {
    pub fn new(input: &Input) -> Self {
        PacketBack { reader: PacketReader::default(), gzip: input.gzip }
    }

    /// The batches of events read, their space for the front to fill again.
    pub fn spent(&mut self) -> Vec<Released> {
        std::mem::take(&mut self.reader.spent)
    }

    /// Reads steps in order; the first error ends them.
    pub fn read(&mut self, steps: &mut Vec<Step>, builder: &mut ProfileBuilder) -> Result<()> {
        for step in steps.drain(..) {
            self.reader.step(step, builder)?;
        }
        Ok(())
    }

    /// The input has ended as `end` says.
    pub fn finish_with(mut self, mut last: Steps, builder: &mut ProfileBuilder) -> Result<Imported> {
        self.read(&mut last.steps, builder)?;
        let (end, front) = last.end.expect("the front's last steps say how the input ended");
        let gzip = self.gzip;
        self.reader.finish(front, builder);
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
fn steps(decoded: Decoded) -> Steps {
    *decoded.downcast::<Steps>().expect("a Perfetto back takes its own front's steps")
}

impl Back for PacketBack {
    fn take(&mut self, decoded: Decoded, builder: &mut ProfileBuilder) -> Result<()> {
        self.read(&mut steps(decoded).steps, builder)
    }

    fn finish(self: Box<Self>, last: Decoded, builder: &mut ProfileBuilder) -> Result<Imported> {
        self.finish_with(steps(last), builder)
    }

    fn spent(&mut self) -> Option<Decoded> {
        let spent = PacketBack::spent(self);
        (!spent.is_empty()).then(|| Box::new(spent) as Decoded)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::importer::Stages;
    use crate::input::finish_analysis;
    use crate::options::Options;
    use crate::source::ReadAt;
    use crate::Analysis;
    use droidflame_testkit::large::{write_large, LargeLayout, Shape};

    /// The halves with a sorter of 64 events: a batch every 32, so the front runs far
    /// ahead of the back unless it waits for the batches handed back.
    fn small_window(_head: &[u8], input: &Input) -> Stages {
        let front = PacketFront { events: EventFront::with_window(64), ..PacketFront::new(input) };
        Stages { front: Box::new(front), back: Box::new(PacketBack::new(input)) }
    }

    /// The two halves composed on one thread, as one reading composes them: pushed `step`
    /// bytes at a time, calls let go and limits checked after each push.
    fn composed(bytes: &[u8], options: &Options, step: usize) -> crate::error::Result<Analysis> {
        let Stages { mut front, mut back } = small_window(bytes, &Input { gzip: false, options });
        let mut builder = ProfileBuilder::new(options);
        for chunk in bytes.chunks(step) {
            back.take(front.push(chunk), &mut builder)?;
            if let Some(spent) = back.spent() {
                front.recycle(spent);
            }
            builder.stacks.check_calls();
            if let Some(error) = builder.limit_error() {
                return Err(error);
            }
        }
        let imported = back.finish(front.finish(), &mut builder)?;
        finish_analysis(builder, imported, options.clone())
    }

    /// Bytes read as from a file: not in memory as a whole.
    struct File<'a>(&'a [u8]);

    impl ReadAt for File<'_> {
        fn size(&self) -> u64 {
            self.0.len() as u64
        }

        fn read_at(&self, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
            buf.copy_from_slice(&self.0[offset as usize..offset as usize + buf.len()]);
            Ok(())
        }
    }

    #[test]
    fn a_front_far_ahead_waits_for_the_batches_handed_back_and_says_the_same() {
        let mut bytes = Vec::new();
        write_large(&mut bytes, &Shape::app_start(100_000), LargeLayout::PerfettoSched).unwrap();
        for options in [Options::default(), Options { keep_calls: true, ..Options::default() }] {
            let once = composed(&bytes, &options, 1 << 20).unwrap();
            let staged = crate::parallel::read_in_stages(&bytes.as_slice(), options, small_window, &bytes).unwrap();
            assert!(once.profile.facts.records >= 100_000, "{} records", once.profile.facts.records);
            assert_eq!(format!("{:?}", staged.profile), format!("{:?}", once.profile));
        }
    }

    /// A limit reached at the first releases and a compressed packet past the
    /// decompressed-size limit near the end: read from a file, one reading checks the
    /// limit after the first mebibyte and stops there; in memory it pushes the input whole
    /// and meets the packet first. Two stages stop with the same error each way.
    #[test]
    fn a_limit_and_a_later_error_stop_where_reading_once_stops() {
        let mut plain = Vec::new();
        write_large(&mut plain, &Shape::app_start(200_000), LargeLayout::PerfettoSched).unwrap();
        let options =
            Options { max_threads: 2, max_decompressed_bytes: plain.len() as u64 * 19 / 20, ..Options::default() };
        let bytes = droidflame_testkit::perfetto::Trace { bytes: plain }.zstd_compressed(256 << 10, 1).bytes;
        assert!(bytes.len() > 2 << 20, "{} bytes", bytes.len());
        let whole = composed(&bytes, &options, usize::MAX).unwrap_err();
        let stepped = composed(&bytes, &options, 1 << 20).unwrap_err();
        assert!(whole.to_string().contains("decompressed-size limit"), "{whole}");
        assert!(stepped.to_string().contains("thread limit"), "{stepped}");
        let in_memory = crate::parallel::read_in_stages(&bytes.as_slice(), options.clone(), small_window, &bytes);
        assert_eq!(in_memory.unwrap_err(), whole);
        let from_file = crate::parallel::read_in_stages(&File(&bytes), options, small_window, &bytes);
        assert_eq!(from_file.unwrap_err(), stepped);
    }
}
