//! The containers around ftrace text, undone as the bytes stream in: every
//! stage takes chunks of any size and hands complete text lines on. Nothing here knows
//! what a line means.
//!
//! - `TextFraming`: plain text, and `TRACE:` followed by one or more zlib streams
//!   (`atrace -z`, Android Studio `.ctrace`); a line cut at a chunk edge is stitched.
//! - `HtmlExtractor`: the three systrace HTML forms.
//! - `JsonText`: the `systemTraceEvents` string of a JSON trace.

use crate::lines::{strip_cr, LineSplitter};
use crate::{Error, ErrorKind, Result};
use flate2::{Decompress, FlushDecompress, Status};

const INFLATE_STEP: usize = 64 << 10;

/// Counts inflated bytes against the decompressed-size limit (a decompression bomb
/// stops here with an error instead of filling memory).
#[derive(Debug)]
pub struct InflateBudget {
    pub inflated: u64,
    pub limit: u64,
}

impl InflateBudget {
    pub fn spend(&mut self, bytes: usize) -> Result<()> {
        self.inflated += bytes as u64;
        if self.inflated > self.limit {
            return Err(Error::new(
                ErrorKind::Limit,
                format!(
                    "the compressed capture inflates to more than {} bytes (the decompressed-size limit)",
                    self.limit
                ),
            ));
        }
        Ok(())
    }
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
    pub zlib_streams: u32,
    pub trailing_bytes: u64,
    after_stream: bool,
    pub budget: InflateBudget,
    /// Absolute input offset, for errors.
    offset: u64,
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
            zlib_streams: 0,
            trailing_bytes: 0,
            after_stream: false,
            budget: InflateBudget { inflated: 0, limit },
            offset: 0,
        }
    }

    pub fn push(&mut self, mut input: &[u8], on_line: &mut dyn FnMut(&[u8])) -> Result<()> {
        while !input.is_empty() {
            match &mut self.mode {
                Mode::Text => {
                    let used = self.text(input, on_line)?;
                    self.offset += used as u64;
                    input = &input[used..];
                }
                Mode::Trailing => {
                    self.trailing_bytes += input.len() as u64;
                    return Ok(());
                }
                Mode::Deciding => {
                    // A byte at a time: deciding never needs more than 8.
                    self.peek.push(input[0]);
                    input = &input[1..];
                    if self.decide() {
                        let peeked = std::mem::take(&mut self.peek);
                        self.push(&peeked, on_line)?;
                    }
                }
                Mode::Zlib(decompress) => {
                    let (before_in, before_out) = (decompress.total_in(), decompress.total_out());
                    let mut out = vec![0u8; INFLATE_STEP];
                    let status = decompress.decompress(input, &mut out, FlushDecompress::None).map_err(|e| {
                        Error::at(
                            ErrorKind::Corrupt,
                            self.offset,
                            format!("the zlib data of the capture is damaged ({e})"),
                        )
                    })?;
                    let used = (decompress.total_in() - before_in) as usize;
                    let made = (decompress.total_out() - before_out) as usize;
                    self.offset += used as u64;
                    input = &input[used..];
                    self.budget.spend(made)?;
                    self.lines.push(&out[..made], on_line)?;
                    if status == Status::StreamEnd {
                        self.mode = Mode::Deciding;
                        self.after_stream = true;
                    }
                }
            }
        }
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
    fn text(&mut self, input: &[u8], on_line: &mut dyn FnMut(&[u8])) -> Result<usize> {
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
            self.mode = Mode::Deciding;
        } else {
            self.lines.push(&input[..=nl], on_line)?;
        }
        Ok(nl + 1)
    }

    pub fn finish(&mut self, on_line: &mut dyn FnMut(&[u8])) -> Result<()> {
        if matches!(self.mode, Mode::Deciding) {
            let peek = std::mem::take(&mut self.peek);
            self.mode = Mode::Text;
            self.push(&peek, on_line)?;
        }
        let unfinished_zlib = matches!(self.mode, Mode::Zlib(_));
        self.lines.finish(on_line);
        if unfinished_zlib {
            return Err(Error::at(
                ErrorKind::Truncated,
                self.offset,
                "the capture's zlib data ends early (the file was cut short)",
            ));
        }
        Ok(())
    }
}
