//! The decoder of one method trace: the stages the input goes through (the key, the
//! header, fixed-size records, the escape stream or V2's packets), and the facts and notes
//! it ends with.

use super::key::KeyParser;
use super::records::{ArtRecords, PieceResume};
use super::resume::ArtResume;
use super::v1::{RecordLayout, StreamEnd};
use super::v2::{V2Decoder, V2Step};
use super::{v1, v2};
use crate::error::{Error, ErrorKind, Result};
use crate::profile::Repair;
use crate::profile::{ClockSet, ClockWords, Detail, FormatInfo, FrameKind, ProfileBuilder, TimeUnit};
use crate::profile::{Doubt, FinishSpec, Piece, PieceMark, SourceKind, SourceSpec, ThreadMark, Unit};
use crate::text::{counted, were};

use super::v1::MAGIC;

/// A text line longer than this in the key section is taken as corruption.
const MAX_KEY_LINE: usize = 16 << 20;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stage {
    /// Regular files: the text key, up to `*end`.
    Key,
    /// Regular files: the `SLOW` header after `*end`.
    DataHeader,
    /// Files that start with `SLOW`: streaming or V2 header.
    SlowHeader,
    Records,
    Stream,
    V2Packets,
    /// After the summary (or damage): nothing more is read.
    Trailing,
}

/// Reads one method trace, in chunks, into a `ProfileBuilder`.
#[derive(Debug, Clone)]
pub struct ArtDecoder {
    stage: Stage,
    /// The key of a regular file, or the summary of a streaming/V2 file.
    key: KeyParser,
    /// Ids, actions and times to builder events.
    pub(super) art: ArtRecords,
    summary_seen: bool,
    /// The V1 record layout, once the data header was read.
    layout: Option<RecordLayout>,
    /// The V2 packet reader, for V2 files.
    v2: Option<V2Decoder>,
    version: u32,
    streaming: bool,
    /// The versions of the key and of the data header, where they disagree.
    header_version_mismatch: Option<(u32, u32)>,
    /// Bytes after the closing summary, ignored.
    trailing_bytes: u64,
    /// Why the rest of the file was not read, where damage stopped it.
    damage: Option<String>,
    /// The input was a `.key` file and a `.data` file, read as one.
    pub split: bool,
    /// Where the fixed-size records (or the stream) begin in the input.
    records_start: Option<u64>,
    /// Reads the key and header only, stopping before the first fixed-size record.
    head_only: bool,
}

impl ArtDecoder {
    /// A decoder for input that starts with `head`, if it is a method trace: a text key
    /// (`*version`) or a binary header (`SLOW`). Needs the first 8 bytes.
    pub fn sniff(head: &[u8]) -> Option<Self> {
        if head.starts_with(b"*version") {
            Some(Self::with_stage(Stage::Key))
        } else if head.starts_with(MAGIC) {
            Some(Self::with_stage(Stage::SlowHeader))
        } else {
            None
        }
    }

    fn with_stage(stage: Stage) -> Self {
        ArtDecoder {
            stage,
            key: KeyParser::new(),
            art: ArtRecords::new(),
            summary_seen: false,
            layout: None,
            v2: None,
            version: 0,
            streaming: false,
            header_version_mismatch: None,
            trailing_bytes: 0,
            damage: None,
            split: false,
            records_start: None,
            head_only: false,
        }
    }

    /// Consumes every complete item of `data` (which starts at absolute `offset`) and
    /// returns how many bytes that was.
    pub fn decode(&mut self, data: &[u8], offset: u64, builder: &mut ProfileBuilder) -> Result<usize> {
        let mut at = 0;
        loop {
            let rest = &data[at..];
            match self.stage {
                Stage::Key => {
                    let Some(end) = rest.iter().position(|&b| b == b'\n') else {
                        if rest.len() > MAX_KEY_LINE {
                            return Err(Error::at(
                                ErrorKind::Corrupt,
                                offset + at as u64,
                                "a line of the text key section is longer than 16 MiB",
                            ));
                        }
                        return Ok(at);
                    };
                    self.key.line(&rest[..=end], &mut self.art, builder);
                    at += end + 1;
                    if self.key.is_done() {
                        self.stage = Stage::DataHeader;
                    }
                }
                Stage::DataHeader => {
                    let Some(header) = v1::parse_data_header(rest, offset + at as u64)? else {
                        return Ok(at);
                    };
                    self.start_v1(header, builder);
                    at += header.data_offset as usize;
                    self.records_start = Some(offset + at as u64);
                }
                Stage::SlowHeader => {
                    if rest.len() < 6 {
                        return Ok(at);
                    }
                    let raw = u16::from_le_bytes([rest[4], rest[5]]);
                    match raw {
                        0x04 | 0x05 | 0xF4 | 0xF5 => {
                            if rest.len() < v2::HEADER_SIZE {
                                return Ok(at);
                            }
                            self.start_v2(rest);
                            at += v2::HEADER_SIZE;
                        }
                        0x06 | 0xF6 => {
                            return Err(Error::at(
                                ErrorKind::Unsupported,
                                offset + 4,
                                "this is an ART long-running (low-overhead, version 6) method trace, which droidflame \
                                 does not read yet",
                            ))
                        }
                        0x01..=0x03 => {
                            return Err(Error::at(
                                ErrorKind::Unsupported,
                                offset,
                                format!(
                                    "this is only the .data half of a split method trace (SLOW version {raw} with no \
                                     text key): open it together with its matching .key file"
                                ),
                            ))
                        }
                        _ => {
                            let Some(header) = v1::parse_data_header(rest, offset + at as u64)? else {
                                return Ok(at);
                            };
                            self.start_v1(header, builder);
                            at += header.data_offset as usize;
                            self.records_start = Some(offset + at as u64);
                        }
                    }
                }
                Stage::Records if self.head_only => return Ok(at),
                Stage::Records => {
                    let layout = self.layout.expect("layout is set with the Records stage");
                    return Ok(at + v1::decode_records(rest, layout, &mut self.art, builder));
                }
                Stage::Stream => {
                    let layout = self.layout.expect("layout is set with the Stream stage");
                    let (used, end) = v1::decode_stream(rest, layout, &mut self.key, &mut self.art, builder);
                    at += used;
                    if end == StreamEnd::NeedMore {
                        return Ok(at);
                    }
                    self.summary_seen = true;
                    self.stage = Stage::Trailing;
                }
                Stage::V2Packets => {
                    let v2 = self.v2.as_mut().expect("v2 decoder is set with the V2Packets stage");
                    match v2.packet(rest, &mut self.key, &mut self.art, builder) {
                        V2Step::NeedMore => return Ok(at),
                        V2Step::Packet(used) => at += used,
                        V2Step::Summary(used) => {
                            at += used;
                            self.summary_seen = true;
                            self.stage = Stage::Trailing;
                        }
                        V2Step::BadPacket(kind) => {
                            let where_ = offset + at as u64;
                            if builder.stacks.events() == 0 {
                                return Err(Error::at(
                                    ErrorKind::Corrupt,
                                    where_,
                                    format!("unknown V2 packet type {kind} (expected 0-3)"),
                                ));
                            }
                            self.damage = Some(format!(
                                "unknown V2 packet type {kind} at byte {where_}: the rest of the file was not read"
                            ));
                            self.stage = Stage::Trailing;
                        }
                    }
                }
                Stage::Trailing => {
                    self.trailing_bytes += rest.len() as u64;
                    return Ok(data.len());
                }
            }
        }
    }

    fn start_v1(&mut self, header: v1::DataHeader, builder: &mut ProfileBuilder) {
        self.version = u32::from(header.version);
        self.streaming = header.streaming;
        if let Some(key_version) = self.key.version {
            if key_version != self.version && self.key.started() {
                self.header_version_mismatch = Some((key_version, self.version));
            }
        }
        let size = header.record_size as usize;
        let declared = self.key.option("clock").map(str::to_owned);
        let dual = if header.streaming {
            size >= 14
        } else {
            match declared.as_deref() {
                Some("dual") => size >= 14,
                Some(_) => false,
                None => size >= 14,
            }
        };
        if declared.as_deref() == Some("dual") && !dual {
            builder
                .facts
                .warn(format!("the trace says clock=dual but its records are {size} bytes: read as one clock"));
        }
        // A single clock known to be thread-CPU is unwrapped per thread. Streaming files name
        // their clock only in the closing summary: their single clock is unwrapped as wall,
        // which differs only for threads more than 35 minutes of CPU time apart.
        self.art.cpu_only = !dual && declared.as_deref() == Some("thread-cpu");
        self.layout = Some(RecordLayout { size, wide_tid: header.version >= 2 || header.streaming, dual });
        self.stage = if header.streaming { Stage::Stream } else { Stage::Records };
    }

    fn start_v2(&mut self, header: &[u8]) {
        let raw = u16::from_le_bytes([header[4], header[5]]);
        self.version = u32::from(raw & 0x0F);
        self.streaming = raw & 0xF0 == 0xF0;
        self.v2 = Some(V2Decoder::new(self.version == 5, header));
        self.stage = Stage::V2Packets;
    }

    /// The input ended; `rest` (at absolute `offset`) is what `decode` could not use.
    pub fn finish(mut self, rest: &[u8], offset: u64, gzip: bool, builder: &mut ProfileBuilder) -> Result<FinishSpec> {
        let end = offset + rest.len() as u64;
        let mut truncated = None;
        match self.stage {
            Stage::Key => {
                let what =
                    if self.key.started() { "the text key section has no *end line" } else { "no *version line" };
                return Err(Error::at(ErrorKind::Truncated, end, what));
            }
            Stage::DataHeader if rest.is_empty() => {
                return Err(Error::at(
                    ErrorKind::Truncated,
                    end,
                    "the text key section is complete but the binary data part (SLOW header and records) is missing",
                ));
            }
            Stage::DataHeader | Stage::SlowHeader => {
                return Err(Error::at(
                    ErrorKind::Truncated,
                    end,
                    format!("the binary data header is incomplete ({} bytes)", rest.len()),
                ));
            }
            Stage::Records => {
                let announced = self.key.option("num-method-calls").and_then(|n| n.trim().parse::<u64>().ok());
                if !rest.is_empty() {
                    let size = self.layout.map_or(0, |l| l.size);
                    truncated = Some(format!(
                        "the last record is partial ({} of {size} bytes at byte {offset}): the trace was cut short",
                        rest.len()
                    ));
                } else if let Some(announced) = announced.filter(|&n| n > builder.stacks.events()) {
                    truncated = Some(format!(
                        "the key announces {announced} records but the file ends after {} (at byte {end}): the \
                         trace was cut short",
                        builder.stacks.events()
                    ));
                }
            }
            Stage::Stream | Stage::V2Packets => {
                truncated = Some(format!(
                    "the trace ends at byte {end} without its closing summary{}: it was cut short (or the app \
                     stopped before tracing did)",
                    if rest.is_empty() {
                        String::new()
                    } else {
                        format!(", in the middle of an item at byte {offset}")
                    }
                ));
            }
            Stage::Trailing => {}
        }
        if let Some(damage) = &self.damage {
            truncated = Some(damage.clone());
        }
        if truncated.is_some() && builder.stacks.events() == 0 {
            return Err(Error::at(ErrorKind::Truncated, end, "the trace ends before its first complete method record"));
        }
        if let Some(message) = truncated {
            builder.facts.repairs.truncated = true;
            builder.facts.warn_about(Repair::Truncated, message);
        }
        self.finish_notes(builder);
        let clocks = self.clocks(builder);
        let time_unit = self.time_unit(builder);
        let sampling =
            if clocks.has(crate::profile::Clock::Wall) { self.art.sampling_interval(time_unit) } else { None };
        let sampling_interval_us = sampling.map(|ticks| time_unit.micros(ticks));
        if let Some(us) = sampling_interval_us {
            builder.facts.warn(format!(
                "this looks like a sampling trace (records about every {us} µs, not at each call): times are \
                 approximate and calls are counted per sample"
            ));
        }
        let layout_name = if self.v2.is_some() {
            "v2"
        } else if self.streaming {
            "streaming"
        } else {
            "regular"
        };
        let mut details = vec![("streaming", Detail::Flag(self.streaming))];
        if let Some(vm) = self.key.option("vm") {
            details.push(("vm", Detail::Text(vm.to_owned())));
        }
        if let Some(layout) = self.layout {
            details.push(("record_size", Detail::Number(layout.size as u64)));
        }
        let format = FormatInfo {
            family: "art",
            layout: layout_name,
            kind: "method trace",
            version: self.version,
            gzip,
            ends_known: true,
            split: self.split,
            pid: self.key.option("pid").and_then(|v| v.trim().parse().ok()),
            recorded_us: self.recorded_us(),
            details,
            sampling_interval_us,
            description: description(layout_name, self.version, gzip, self.split),
        };
        self.art.name_threads(builder);
        Ok(FinishSpec {
            format,
            header: self.key.options,
            time_unit,
            counters: Vec::new(),
            group_by_process: false,
            timeline: None,
            gaps: Vec::new(),
            main: SourceSpec {
                kind: SourceKind::Calls,
                unit: Unit::Micros,
                clocks,
                frame_kind: FrameKind::Method,
                clock_words: ClockWords::ELAPSED_AND_THREAD_CPU,
                preferred_clock: None,
                states_as_frames: false,
            },
            more: Vec::new(),
            main_first: true,
        })
    }

    fn finish_notes(&self, builder: &mut ProfileBuilder) {
        if self.key.option("data-file-overflow") == Some("true") {
            builder.facts.repairs.overflow = true;
            builder.facts.warn_about(
                Repair::Overflow,
                "the trace buffer overflowed while recording (data-file-overflow=true): events after that point \
                 were dropped, so the end of each thread is missing; record with a larger buffer",
            );
        }
        if let Some((key, header)) = self.header_version_mismatch {
            builder
                .facts
                .warn(format!("the key says version {key} but the data header says {header}; the header was used"));
        }
        if self.key.bad_lines > 0 {
            let lines = counted(self.key.bad_lines, "malformed line", "malformed lines");
            builder.facts.warn(format!("{lines} in the text sections {} skipped", were(self.key.bad_lines)));
        }
        if self.trailing_bytes > 0 && self.damage.is_none() {
            let bytes = counted(self.trailing_bytes, "byte", "bytes");
            builder.facts.warn(format!("{bytes} after the closing summary {} ignored", were(self.trailing_bytes)));
        }
        if let Some(v2) = &self.v2 {
            if v2.carried_blocks > 0 {
                builder.facts.warn(format!(
                    "{} the previous block's deltas (an ART writer bug) and {} decoded so",
                    counted(v2.carried_blocks, "V2 entry block continued", "V2 entry blocks continued"),
                    were(v2.carried_blocks)
                ));
            }
            let damaged = [
                (v2.damaged_blocks, "ended in a damaged record; the rest of each was skipped"),
                (
                    v2.miscounted_blocks,
                    "held another number of records than their header says: they are damaged, and their records \
                     are shown as read",
                ),
            ];
            for (blocks, what) in damaged.into_iter().filter(|&(blocks, _)| blocks > 0) {
                builder.facts.repairs.damaged_parts += blocks;
                builder.facts.warn_about(Repair::DamagedParts, format!("{blocks} V2 entry blocks {what}"));
            }
        }
    }

    /// How long the key or summary says tracing ran, in µs.
    fn recorded_us(&self) -> Option<u64> {
        let said = |key: &str| self.key.option(key).and_then(|v| v.trim().parse::<u64>().ok());
        said("elapsed-time-usec").or_else(|| said("elapsed-time-nsec").map(|ns| ns / 1000))
    }

    fn clocks(&self, builder: &mut ProfileBuilder) -> ClockSet {
        if let Some(v2) = self.v2.as_ref().filter(|v2| v2.time_first()) {
            if v2.dual {
                builder.facts.warn(
                    "this V2 trace's thread-CPU times use an undocumented encoding and are not read; \
                     only the wall clock is shown",
                );
            }
            return ClockSet::Wall;
        }
        let dual = match (&self.layout, &self.v2) {
            (Some(layout), _) => layout.dual,
            (None, Some(v2)) => v2.dual,
            _ => false,
        };
        if dual {
            return ClockSet::Dual;
        }
        match self.key.option("clock") {
            Some("wall") => ClockSet::Wall,
            Some("thread-cpu") => ClockSet::Cpu,
            other => {
                // ART starts every thread's CPU clock at 0 at its first event.
                let all_zero = self.art.first_times(builder).all(|v| v == 0);
                let guess = if all_zero && builder.stacks.events() > 0 { ClockSet::Cpu } else { ClockSet::Wall };
                let said = match other {
                    Some(value) => format!("an unknown clock={value}"),
                    None => "no clock".to_owned(),
                };
                builder.facts.warn(format!(
                    "the trace names {said}; read its single clock as {} because {}",
                    guess.name(),
                    if guess == ClockSet::Cpu { "every thread starts at 0" } else { "threads do not all start at 0" }
                ));
                guess
            }
        }
    }

    fn time_unit(&self, builder: &mut ProfileBuilder) -> TimeUnit {
        let Some(v2) = &self.v2 else {
            return TimeUnit::MICROS;
        };
        if let Some(unit) = v2.time_unit() {
            return unit;
        }
        if self.key.option("elapsed-time-nsec").is_some() {
            TimeUnit::NANOS
        } else if self.key.option("elapsed-time-usec").is_some() {
            TimeUnit::MICROS
        } else {
            builder
                .facts
                .warn("this V2 trace has no summary to say its time unit; nanoseconds (ART 2025+) were assumed");
            TimeUnit::NANOS
        }
    }
}

/// Which of two files is the `.key` half of a split trace: `Ok(true)` when the second is.
pub fn split_key_is_second(first_head: &[u8], second_head: &[u8]) -> Result<bool> {
    let is_key = |h: &[u8]| h.starts_with(b"*version");
    // A streaming trace (version 0xF_) also starts with the magic, but is always one
    // whole file: with a regular trace beside it, they are two traces.
    let is_data = |h: &[u8]| h.starts_with(MAGIC) && h.len() >= 6 && h[5] == 0 && h[4] & 0xF0 != 0xF0;
    match (is_key(first_head), is_data(first_head), is_key(second_head), is_data(second_head)) {
        (true, _, _, true) => Ok(false),
        (_, true, true, _) => Ok(true),
        _ => Err(Error::new(
            ErrorKind::NotATrace,
            "two files make a split trace only as a .key file (starting with \"*version\") and a .data file \
             (starting with \"SLOW\")",
        )),
    }
}

/// The format in words, e.g. `Method trace, streaming v3, gzip`.
fn description(layout: &str, version: u32, gzip: bool, split: bool) -> String {
    let mut text = format!("Method trace, {layout} v{version}");
    if gzip {
        text.push_str(", gzip");
    }
    if split {
        text.push_str(", split .key + .data");
    }
    text
}

/// Reading in pieces at once (`pieces.rs`).
impl ArtDecoder {
    /// Stops (or no longer stops) before the first fixed-size record.
    pub(super) fn read_head_only(&mut self, on: bool) {
        self.head_only = on;
    }

    /// Where the fixed-size records begin and their layout, once the header is read;
    /// `None` before, and for streaming and V2 files, whose items differ in size.
    pub(super) fn fixed_records(&self) -> Option<(u64, RecordLayout)> {
        (self.stage == Stage::Records).then_some((self.records_start?, self.layout?))
    }

    /// Whether the decoder is past the key and header.
    pub(super) fn past_head(&self) -> bool {
        !matches!(self.stage, Stage::Key | Stage::DataHeader | Stage::SlowHeader)
    }

    /// Puts a piece read apart by `later` (a copy of this decoder as it stood after the
    /// header) after what this one read; see `ArtRecords::join_piece`.
    pub(super) fn join_piece(
        &mut self,
        later: ArtDecoder,
        piece: Piece,
        first_wall: u32,
        marked: &[(Vec<PieceMark>, PieceResume)],
        b: &mut ProfileBuilder,
    ) -> std::result::Result<Vec<(Vec<ThreadMark>, ArtResume)>, Doubt> {
        let joined = self.art.join_piece(later.art, piece, first_wall, marked, b)?;
        Ok(joined
            .into_iter()
            .map(|(marks, clocks)| (marks, ArtResume { wall: clocks.wall, threads: clocks.threads }))
            .collect())
    }

    /// Where a piece's clocks stand now, for a checkpoint of the piece.
    pub(super) fn piece_resume(&self) -> PieceResume {
        self.art.piece_resume()
    }
}

/// Reading again from the middle (`resume.rs`).
impl ArtDecoder {
    /// Where the fixed-size records (or the stream) begin in the input, once known.
    pub fn records_start(&self) -> Option<u64> {
        self.records_start
    }

    /// Where the decoder stands, if reading can resume there: between records of the
    /// fixed-size layouts (V2's packets carry state from block to block, and are not
    /// resumed).
    pub fn resume_point(&self) -> Option<ArtResume> {
        if !matches!(self.stage, Stage::Records | Stage::Stream) {
            return None;
        }
        Some(ArtResume { wall: self.art.wall, threads: self.art.per_thread.iter().map(|t| t.unwrap).collect() })
    }

    /// A copy of this decoder (at the end of the input) set back to `point`.
    pub fn resumed(&self, point: &ArtResume) -> ArtDecoder {
        let mut decoder = self.clone();
        decoder.stage = if decoder.streaming { Stage::Stream } else { Stage::Records };
        decoder.art.wall = point.wall;
        for (slot, state) in decoder.art.per_thread.iter_mut().enumerate() {
            state.unwrap = point.threads.get(slot).copied().unwrap_or_default();
        }
        decoder
    }
}
