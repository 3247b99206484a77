//! The containers around ftrace text, undone as the bytes stream in: every
//! stage takes chunks of any size and hands complete text lines on. Nothing here knows
//! what a line means.
//!
//! - `TextFraming`: plain text, and `TRACE:` followed by one or more zlib streams
//!   (`atrace -z`, Android Studio `.ctrace`); a line cut at a chunk edge is stitched.
//! - `HtmlExtractor`: the three systrace HTML forms.
//! - `JsonText`: the `systemTraceEvents` string of a JSON trace.

use crate::error::Result;
use crate::formats::system::InflateBudget;
use crate::lines::{strip_cr, LineSplitter};
use flate2::{Decompress, FlushDecompress, Status};

const INFLATE_STEP: usize = 64 << 10;
/// The line that starts each dump of `atrace -z` and `.ctrace`.
const DUMP_MARKER: &[u8] = b"TRACE:\n";

/// What the text framing hands on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framed<'a> {
    /// A complete text line, without its line break.
    Line(&'a [u8]),
    /// One dump of a capture made of several ended (a zlib stream, or text before another
    /// `TRACE:` line): events between it and the next dump were never recorded.
    DumpEnd,
}

#[derive(Debug)]
enum Mode {
    Text,
    /// Just after a `TRACE:` line (or a zlib stream's end): is a zlib stream next?
    Deciding,
    Zlib(Box<Decompress>),
    /// Binary bytes after a zlib stream that start neither text nor another stream:
    /// skipped (seen in a real capture: 17,600 such bytes).
    Trailing,
    /// After a damaged zlib stream: skipped up to the next dump's `TRACE:` line.
    Damaged {
        /// The marker's bytes matched so far.
        matched: usize,
    },
}

/// Plain ftrace text, with `TRACE:` + zlib streams anywhere in it.
#[derive(Debug)]
pub struct TextFraming {
    mode: Mode,
    /// Raw bytes held while `Deciding` (at most a few).
    peek: Vec<u8>,
    lines: LineSplitter,
    /// Raw (not inflated) text line being assembled, to spot `TRACE:`.
    raw_line: Vec<u8>,
    /// The compressed bytes of the stream being checked.
    held: Vec<u8>,
    /// Inflated bytes, one step at a time.
    out: Vec<u8>,
    pub zlib_streams: u32,
    pub trailing_bytes: u64,
    /// Damaged zlib streams, each skipped whole up to the next dump: where the first was
    /// found damaged, and how many.
    pub damaged: Option<(u64, u64)>,
    /// Where the input ended inside a zlib stream (the file was cut short).
    pub cut_at: Option<u64>,
    after_stream: bool,
    pub budget: InflateBudget,
    /// Absolute input offset, for errors.
    offset: u64,
}

/// Bytes of `input` up to and including the end of the next dump marker (`matched`: its
/// bytes already seen, carried across chunks); all of it when the marker is not complete.
fn skip_to_marker(input: &[u8], matched: &mut usize) -> usize {
    for (at, &byte) in input.iter().enumerate() {
        *matched = if byte == DUMP_MARKER[*matched] { *matched + 1 } else { usize::from(byte == DUMP_MARKER[0]) };
        if *matched == DUMP_MARKER.len() {
            return at + 1;
        }
    }
    input.len()
}

fn is_zlib_header(a: u8, b: u8) -> bool {
    a & 0x0F == 8 && (u16::from(a) << 8 | u16::from(b)) % 31 == 0
}

impl TextFraming {
    pub fn new(limit: u64) -> Self {
        TextFraming {
            mode: Mode::Text,
            peek: Vec::new(),
            lines: LineSplitter::default(),
            raw_line: Vec::new(),
            held: Vec::new(),
            out: vec![0; INFLATE_STEP],
            zlib_streams: 0,
            trailing_bytes: 0,
            damaged: None,
            cut_at: None,
            after_stream: false,
            budget: InflateBudget { inflated: 0, limit },
            offset: 0,
        }
    }

    pub fn push(&mut self, mut input: &[u8], sink: &mut dyn FnMut(Framed<'_>)) -> Result<()> {
        while !input.is_empty() {
            match &mut self.mode {
                Mode::Text => {
                    let used = self.text(input, sink)?;
                    self.offset += used as u64;
                    input = &input[used..];
                }
                Mode::Trailing => {
                    self.trailing_bytes += input.len() as u64;
                    return Ok(());
                }
                Mode::Damaged { matched } => {
                    let used = skip_to_marker(input, matched);
                    self.offset += used as u64;
                    input = &input[used..];
                    if *matched == DUMP_MARKER.len() {
                        self.mode = Mode::Deciding;
                    }
                }
                Mode::Deciding => {
                    // A byte at a time: deciding never needs more than 8.
                    self.peek.push(input[0]);
                    input = &input[1..];
                    if self.decide() {
                        let peeked = std::mem::take(&mut self.peek);
                        self.push(&peeked, sink)?;
                    }
                }
                Mode::Zlib(decompress) => {
                    // A first pass only checks the stream: damaged deflate data can inflate
                    // to plausible garbage up to the checksum at its end, so no line of a
                    // dump is used before its stream is known whole.
                    let (before_in, before_out) = (decompress.total_in(), decompress.total_out());
                    let result = decompress.decompress(input, &mut self.out, FlushDecompress::None);
                    let used = (decompress.total_in() - before_in) as usize;
                    let made = (decompress.total_out() - before_out) as usize;
                    self.held.extend_from_slice(&input[..used]);
                    self.offset += used as u64;
                    input = &input[used..];
                    self.budget.spend(made)?;
                    match result {
                        Ok(Status::StreamEnd) => {
                            self.release(sink)?;
                            self.lines.finish(&mut |line| sink(Framed::Line(line)));
                            sink(Framed::DumpEnd);
                            self.mode = Mode::Deciding;
                            self.after_stream = true;
                        }
                        Ok(_) => {}
                        Err(_) => {
                            self.held.clear();
                            self.damaged.get_or_insert((self.offset, 0)).1 += 1;
                            self.mode = Mode::Damaged { matched: 0 };
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Inflates the held stream again, this time handing its lines on; stops where its
    /// bytes end (a stream cut short).
    fn release(&mut self, sink: &mut dyn FnMut(Framed<'_>)) -> Result<()> {
        let held = std::mem::take(&mut self.held);
        let mut inflater = Decompress::new(true);
        let mut input = &held[..];
        loop {
            let (before_in, before_out) = (inflater.total_in(), inflater.total_out());
            let result = inflater.decompress(input, &mut self.out, FlushDecompress::None);
            let used = (inflater.total_in() - before_in) as usize;
            let made = (inflater.total_out() - before_out) as usize;
            input = &input[used..];
            self.lines.push(&self.out[..made], &mut |line| sink(Framed::Line(line)))?;
            if !matches!(result, Ok(Status::Ok)) || (used == 0 && made == 0) {
                break;
            }
        }
        self.held = held;
        self.held.clear();
        Ok(())
    }

    /// Looks at the peeked bytes: true once the next mode is known (then the peeked
    /// bytes belong to it), false to wait for more. `TRACE:` lines are dropped here.
    fn decide(&mut self) -> bool {
        for marker in [&b"TRACE:\n"[..], b"TRACE:\r\n"] {
            if self.peek.len() < marker.len() && marker.starts_with(&self.peek) {
                return false;
            }
            if self.peek.starts_with(marker) {
                self.offset += marker.len() as u64;
                self.peek.drain(..marker.len());
                return false;
            }
        }
        if self.peek.len() < 2 {
            return false;
        }
        // Right after a stream, text would be `TRACE:` or `# tracer`: plain ASCII.
        let binary = self.peek.iter().any(|&b| b < 0x09 || (0x0E..0x20).contains(&b) || b >= 0x7F);
        if is_zlib_header(self.peek[0], self.peek[1]) {
            self.zlib_streams += 1;
            self.mode = Mode::Zlib(Box::new(Decompress::new(true)));
        } else if self.after_stream && (binary || self.peek.len() < 8) {
            // Text after a stream would show within a few bytes; wait for 8 to be sure.
            if !binary {
                return false;
            }
            self.mode = Mode::Trailing;
        } else {
            self.mode = Mode::Text;
        }
        self.after_stream = false;
        true
    }

    /// Text up to and including a `TRACE:` line (then `Deciding`); returns bytes used.
    fn text(&mut self, input: &[u8], sink: &mut dyn FnMut(Framed<'_>)) -> Result<usize> {
        let on_line = &mut |line: &[u8]| sink(Framed::Line(line));
        let Some(nl) = memchr::memchr(b'\n', input) else {
            self.raw_line.extend_from_slice(input);
            self.lines.push(input, on_line)?;
            return Ok(input.len());
        };
        let line = &input[..nl];
        let is_trace = if self.raw_line.is_empty() {
            strip_cr(line) == b"TRACE:"
        } else {
            self.raw_line.extend_from_slice(line);
            strip_cr(&self.raw_line) == b"TRACE:"
        };
        self.raw_line.clear();
        if is_trace {
            // A `TRACE:` line is framing, not text: drop what of it was passed on.
            self.lines.partial_drop();
            sink(Framed::DumpEnd);
            self.mode = Mode::Deciding;
        } else {
            self.lines.push(&input[..=nl], on_line)?;
        }
        Ok(nl + 1)
    }

    /// The input ended. A zlib stream cut short keeps what inflated up to the cut
    /// (`cut_at`), as every whole dump before it.
    pub fn finish(&mut self, sink: &mut dyn FnMut(Framed<'_>)) -> Result<()> {
        if matches!(self.mode, Mode::Deciding) {
            let peek = std::mem::take(&mut self.peek);
            self.mode = Mode::Text;
            self.push(&peek, sink)?;
        }
        if matches!(self.mode, Mode::Zlib(_)) {
            self.cut_at = Some(self.offset);
            self.release(sink)?;
            // The line the cut went through is incomplete.
            self.lines.partial_drop();
        }
        self.lines.finish(&mut |line| sink(Framed::Line(line)));
        Ok(())
    }
}
