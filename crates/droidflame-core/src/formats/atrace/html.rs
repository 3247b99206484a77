//! Systrace HTML in its three forms (legacy `linuxPerfData`, `trace-data` blocks and
//! base64 `viewer-data`), undone as the bytes stream in. The viewer JavaScript around the
//! data is skipped line by line; it mentions the markers we look for inside its own code,
//! so markers count only as whole lines.

use super::json::JsonText;
use super::line::parse_event_line;
use crate::error::{Error, ErrorKind, Result};
use crate::formats::system::InflateBudget;
use crate::lines::LineSplitter;
use flate2::write::MultiGzDecoder;
use std::io::Write;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Html {
    Outside,
    /// `var linuxPerfData = "\` … `\n";` (legacy systrace).
    Legacy,
    /// Just inside `<script class="trace-data">`: the first line tells what the block is.
    BlockStart,
    Ftrace,
    Json,
    Skip,
    /// `<script id="viewer-data">`: base64 of (usually gzip'd) JSON.
    Viewer,
}

/// Which HTML form held the trace, for the format description.
pub fn form_name(legacy: bool, viewer: bool) -> &'static str {
    match (legacy, viewer) {
        (true, _) => "html-legacy",
        (_, true) => "html-viewer-data",
        _ => "html",
    }
}

#[derive(Debug)]
pub struct HtmlExtractor {
    raw: LineSplitter,
    inner: HtmlLines,
}

#[derive(Debug)]
struct HtmlLines {
    state: Html,
    json: JsonText,
    base64: Base64,
    gzip: Option<Box<MultiGzDecoder<Vec<u8>>>>,
    budget: InflateBudget,
    failed: Option<Error>,
    pub legacy: bool,
    pub viewer: bool,
    pub blocks: u32,
}

impl HtmlExtractor {
    pub fn new(limit: u64) -> Self {
        HtmlExtractor {
            raw: LineSplitter::default(),
            inner: HtmlLines {
                state: Html::Outside,
                json: JsonText::default(),
                base64: Base64::default(),
                gzip: None,
                budget: InflateBudget { inflated: 0, limit },
                failed: None,
                legacy: false,
                viewer: false,
                blocks: 0,
            },
        }
    }

    pub fn form(&self) -> &'static str {
        form_name(self.inner.legacy, self.inner.viewer)
    }

    /// Trace blocks found (ftrace text or JSON with system trace events).
    pub fn found(&self) -> bool {
        self.inner.blocks > 0 || self.inner.json.found
    }

    pub fn push(&mut self, bytes: &[u8], on_line: &mut dyn FnMut(&[u8])) -> Result<()> {
        let inner = &mut self.inner;
        self.raw.push(bytes, &mut |line| inner.line(line, on_line))?;
        inner.failed.take().map_or(Ok(()), Err)
    }

    pub fn finish(&mut self, on_line: &mut dyn FnMut(&[u8])) -> Result<()> {
        let inner = &mut self.inner;
        self.raw.finish(&mut |line| inner.line(line, on_line));
        if let Some(error) = inner.failed.take() {
            return Err(error);
        }
        inner.json.finish(on_line);
        Ok(())
    }
}

impl HtmlLines {
    fn line(&mut self, line: &[u8], on_line: &mut dyn FnMut(&[u8])) {
        if self.failed.is_some() {
            return;
        }
        if let Err(error) = self.step(line, on_line) {
            self.failed = Some(error);
        }
    }

    fn step(&mut self, line: &[u8], on_line: &mut dyn FnMut(&[u8])) -> Result<()> {
        let trimmed = crate::text::trim(line);
        match self.state {
            Html::Outside => {
                if trimmed == br#"var linuxPerfData = "\"# {
                    self.state = Html::Legacy;
                    self.legacy = true;
                    self.blocks += 1;
                } else if trimmed.starts_with(br#"<script class="trace-data""#) {
                    self.state = Html::BlockStart;
                } else if trimmed.starts_with(br#"<script id="viewer-data""#) {
                    self.state = Html::Viewer;
                    self.viewer = true;
                }
            }
            Html::Legacy => {
                if let Some(body) = line.strip_suffix(br#"\n\"#) {
                    on_line(body);
                } else if let Some(body) = trimmed.strip_suffix(br#"\n";"#) {
                    on_line(body);
                    self.state = Html::Outside;
                } else if trimmed == br#"";"# {
                    self.state = Html::Outside;
                } else {
                    on_line(line);
                }
            }
            Html::BlockStart | Html::Ftrace | Html::Json | Html::Skip | Html::Viewer => {
                let (body, ends) = match find(line, b"</script>") {
                    Some(at) => (&line[..at], true),
                    None => (line, false),
                };
                self.block_line(body, on_line)?;
                if ends {
                    if self.state == Html::Viewer {
                        self.viewer_bytes(&[], true, on_line)?;
                    }
                    self.state = Html::Outside;
                }
            }
        }
        Ok(())
    }

    fn block_line(&mut self, body: &[u8], on_line: &mut dyn FnMut(&[u8])) -> Result<()> {
        if self.state == Html::BlockStart {
            let first = crate::text::trim(body);
            if first.is_empty() {
                return Ok(());
            }
            self.state = if first.starts_with(b"#") || parse_event_line(first).is_ok() {
                self.blocks += 1;
                Html::Ftrace
            } else if first.starts_with(b"{") || first.starts_with(b"[") {
                Html::Json
            } else {
                // A PROCESS DUMP, CGROUP DUMP or other side block.
                Html::Skip
            };
        }
        match self.state {
            Html::Ftrace => on_line(body),
            Html::Json => {
                self.json.push(body, on_line)?;
                self.json.push(b"\n", on_line)?;
            }
            Html::Viewer => {
                let decoded = self.base64.decode(body)?;
                self.viewer_bytes(&decoded, false, on_line)?;
            }
            _ => {}
        }
        Ok(())
    }

    /// Decoded viewer data: gzip'd JSON (trace2html) or plain JSON.
    fn viewer_bytes(&mut self, bytes: &[u8], end: bool, on_line: &mut dyn FnMut(&[u8])) -> Result<()> {
        if self.gzip.is_none() && !bytes.is_empty() && bytes.starts_with(&[0x1F, 0x8B]) {
            self.gzip = Some(Box::new(MultiGzDecoder::new(Vec::new())));
        }
        let Some(gzip) = &mut self.gzip else {
            return self.json.push(bytes, on_line);
        };
        let damaged = |e: std::io::Error| {
            Error::new(ErrorKind::Corrupt, format!("the gzip data in the HTML's viewer-data block is damaged ({e})"))
        };
        for piece in bytes.chunks(16 << 10) {
            gzip.write_all(piece).map_err(damaged)?;
            let out = std::mem::take(gzip.get_mut());
            self.budget.spend(out.len())?;
            self.json.push(&out, on_line)?;
        }
        if end {
            gzip.try_finish().map_err(damaged)?;
            let out = std::mem::take(gzip.get_mut());
            self.json.push(&out, on_line)?;
            self.gzip = None;
        }
        Ok(())
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(haystack, needle)
}

/// Base64 across lines (whitespace ignored).
#[derive(Debug, Default)]
struct Base64 {
    bits: u32,
    count: u8,
}

impl Base64 {
    fn decode(&mut self, text: &[u8]) -> Result<Vec<u8>> {
        let mut out = Vec::with_capacity(text.len() * 3 / 4 + 3);
        for &c in text {
            let value = match c {
                b'A'..=b'Z' => c - b'A',
                b'a'..=b'z' => c - b'a' + 26,
                b'0'..=b'9' => c - b'0' + 52,
                b'+' | b'-' => 62,
                b'/' | b'_' => 63,
                b'=' | b' ' | b'\t' | b'\r' | b'\n' => continue,
                _ => {
                    return Err(Error::new(
                        ErrorKind::Corrupt,
                        format!(
                            "the HTML's viewer-data block is not base64 (found {:?})",
                            char::from(c).escape_default().to_string()
                        ),
                    ))
                }
            };
            self.bits = self.bits << 6 | u32::from(value);
            self.count += 1;
            if self.count == 4 {
                out.extend_from_slice(&self.bits.to_be_bytes()[1..]);
                self.bits = 0;
                self.count = 0;
            }
        }
        // A group cut by `=` padding ends here; groups never span the `=`.
        if self.count > 0 && text.contains(&b'=') {
            let bytes = (self.bits << (6 * (4 - u32::from(self.count)))).to_be_bytes();
            out.extend_from_slice(&bytes[1..usize::from(self.count)]);
            self.bits = 0;
            self.count = 0;
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_across_lines() {
        let mut b = Base64::default();
        let mut out = b.decode(b"aGVsbG8g").unwrap();
        out.extend(b.decode(b"d29y").unwrap());
        out.extend(b.decode(b"bGQ=").unwrap());
        assert_eq!(out, b"hello world");
    }
}
