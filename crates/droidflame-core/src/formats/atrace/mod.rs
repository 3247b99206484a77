//! atrace / systrace captures: plain ftrace text, `atrace -z` and `.ctrace` (`TRACE:` +
//! zlib streams), systrace HTML in its three forms and JSON traces with
//! `systemTraceEvents`. Containers are undone as bytes stream in (`container`, `html`,
//! `json`), lines are tokenised (`line`) and given meaning (`events`, `sched`); slices
//! reach the same `ProfileBuilder` as method records.

mod container;
mod events;
mod html;
mod json;
mod line;

use crate::error::{Error, ErrorKind, Result};
use crate::formats::system::SystemEnd;
use crate::importer::{Format, Imported, Importer, Input, Sniff};
use crate::profile::ProfileBuilder;
use crate::profile::Repair;
use crate::text::{counted, group_digits, were};
use container::TextFraming;
use events::EventReader;

use html::HtmlExtractor;
use json::JsonText;

/// Bytes looked at to recognise a capture (Perfetto looks at 128; junk before `TRACE:`
/// can be longer).
pub const SNIFF_BYTES: usize = 4096;

/// The outermost form of a capture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// ftrace text, or `TRACE:` + zlib chunks.
    Text,
    /// Systrace HTML.
    Html,
    /// JSON with `systemTraceEvents`.
    Json,
}

/// Recognises a capture from its first bytes. `None` with `complete == false`: not sure
/// yet, look again with more bytes; `None` with `complete`: not a capture.
pub fn sniff(head: &[u8], complete: bool) -> Option<Kind> {
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let start = head.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(head.len());
    let body = &head[start..];
    let lower: Vec<u8> = body.iter().take(16).map(u8::to_ascii_lowercase).collect();
    if lower.starts_with(b"<!doctype html") || lower.starts_with(b"<html") {
        return Some(Kind::Html);
    }
    if body.starts_with(b"{") && is_text(&body[..body.len().min(64)]) {
        return Some(Kind::Json);
    }
    // A line of text has no control bytes: a binary input may begin with `#` or `{` by
    // chance (a Perfetto trace whose first packet is 35 bytes long: 0x0A, 0x23).
    let line_end = memchr::memchr(b'\n', body).unwrap_or(body.len());
    let text_line = is_text(&body[..line_end]);
    if body.starts_with(b"TRACE:") || (text_line && (body.starts_with(b"#") || body.starts_with(b"cpus="))) {
        return Some(Kind::Text);
    }
    let window = &head[..head.len().min(SNIFF_BYTES)];
    if memchr::memmem::find(window, b"\nTRACE:\n").is_some() || memchr::memmem::find(window, b"\nTRACE:\r\n").is_some()
    {
        return Some(Kind::Text);
    }
    // A header-less dump: its first line must be an event line (catapult's rule).
    let first_line = match memchr::memchr(b'\n', body) {
        Some(nl) => &body[..nl],
        None if complete || head.len() >= SNIFF_BYTES => body,
        None => return None,
    };
    // A raw-clock line is still an event line; it is refused later, with the reason.
    (line::parse_event_line(crate::text::trim(first_line)) != Err(line::LineError::Unrecognised)).then_some(Kind::Text)
}

/// Text: no control bytes in the first bytes, and UTF-8 (a character cut at the end of
/// `bytes` aside).
fn is_text(bytes: &[u8]) -> bool {
    !is_binary(bytes) && std::str::from_utf8(bytes).map_or_else(|e| e.error_len().is_none(), |_| true)
}

/// Control bytes in the first bytes: no text capture starts like that.
pub fn is_binary(head: &[u8]) -> bool {
    head.iter().take(64).any(|&b| b < 0x09 || (0x0E..0x20).contains(&b))
}

/// What the framing repaired: a cut-short or damaged zlib stream, bytes after the last one.
fn framing_notes(framing: &TextFraming, builder: &mut ProfileBuilder) {
    if let Some(at) = framing.cut_at {
        builder.facts.repairs.truncated = true;
        builder.facts.warn_about(
            Repair::Truncated,
            format!(
                "the input ends at byte {}, inside compressed dump {} of the capture: the dumps before it are \
                 whole",
                group_digits(at),
                framing.zlib_streams
            ),
        );
    }
    if let Some((at, count)) = framing.damaged {
        builder.facts.repairs.damaged_parts += count;
        builder.facts.warn_about(
            Repair::DamagedParts,
            format!(
                "each is a compressed dump (the first found at byte {}), left out whole because damaged \
                 compressed data inflates to garbage that cannot be told from events",
                group_digits(at)
            ),
        );
    }
    if framing.trailing_bytes > 0 {
        builder.facts.warn(format!(
            "{} after the compressed capture {} neither text nor another compressed chunk and {} ignored",
            counted(framing.trailing_bytes, "byte", "bytes"),
            if framing.trailing_bytes == 1 { "is" } else { "are" },
            were(framing.trailing_bytes)
        ));
    }
}

enum Container {
    Text(TextFraming),
    Html(HtmlExtractor),
    Json(JsonText),
}

/// Reads one capture, in chunks, into a `ProfileBuilder`.
pub struct AtraceDecoder {
    container: Container,
    events: EventReader,
    gzip: bool,
}

/// The registry's entry: captures in every container (ftrace text, `.ctrace`, systrace
/// HTML and JSON).
pub(crate) const FORMAT: Format =
    Format { family: "atrace", sniff: sniff_input, start, pair: None, split: None, stages: None };

/// A capture says so in its first bytes, or its first line is an event line; control bytes
/// say it is none.
fn sniff_input(head: &[u8], complete: bool) -> Sniff {
    if sniff(head, complete).is_some() {
        Sniff::Yes
    } else if complete || head.len() >= SNIFF_BYTES || is_binary(head) {
        Sniff::No
    } else {
        Sniff::NeedMore
    }
}

fn start(head: &[u8], input: &Input) -> Box<dyn Importer> {
    let kind = sniff(head, true).unwrap_or(Kind::Text);
    let mut decoder = AtraceDecoder::new(kind, input.options.max_decompressed_bytes);
    decoder.gzip = input.gzip;
    Box::new(decoder)
}

impl AtraceDecoder {
    /// A decoder for a capture of `kind`; compressed parts may inflate to at most
    /// `max_decompressed_bytes`.
    pub fn new(kind: Kind, max_decompressed_bytes: u64) -> Self {
        let container = match kind {
            Kind::Text => Container::Text(TextFraming::new(max_decompressed_bytes)),
            Kind::Html => Container::Html(HtmlExtractor::new(max_decompressed_bytes)),
            Kind::Json => Container::Json(JsonText::default()),
        };
        AtraceDecoder { container, events: EventReader::default(), gzip: false }
    }
}

impl Importer for AtraceDecoder {
    fn push(&mut self, bytes: &[u8], builder: &mut ProfileBuilder) -> Result<()> {
        let events = &mut self.events;
        match &mut self.container {
            Container::Text(framing) => framing.push(bytes, &mut |framed| events.framed(framed, builder)),
            Container::Html(html) => html.push(bytes, &mut |line| events.line(line, builder)),
            Container::Json(json) => json.push(bytes, &mut |line| events.line(line, builder)),
        }
    }

    fn finish(mut self: Box<Self>, builder: &mut ProfileBuilder) -> Result<Imported> {
        let gzip = self.gzip;
        let events = &mut self.events;
        let layout = match &mut self.container {
            Container::Text(framing) => {
                framing.finish(&mut |framed| events.framed(framed, builder))?;
                framing_notes(framing, builder);
                if framing.zlib_streams > 0 {
                    "ctrace"
                } else {
                    "text"
                }
            }
            Container::Html(html) => {
                html.finish(&mut |line| events.line(line, builder))?;
                if !html.found() {
                    return Err(Error::new(
                        ErrorKind::NotATrace,
                        "this HTML file holds no systrace data (no linuxPerfData string, trace-data block or \
                         viewer-data block)",
                    ));
                }
                html.form()
            }
            Container::Json(json) => {
                json.finish(&mut |line| events.line(line, builder));
                if !json.found {
                    let why = if json.not_a_string {
                        "its systemTraceEvents is not a string"
                    } else {
                        "it has no systemTraceEvents"
                    };
                    return Err(Error::new(
                        ErrorKind::Unsupported,
                        format!(
                            "this JSON file is not a systrace capture: {why} (Chrome JSON traces without ftrace text \
                             are not read)"
                        ),
                    ));
                }
                "json"
            }
        };
        self.no_events_error()?;
        let end = self.events.system.finish(builder);
        self.notes(builder, &end);
        let description = format!("System trace (atrace), {layout}");
        // A zlib stream says where it ends; plain text can end after any line.
        let ends_known = layout == "ctrace";
        Ok(end.finish_spec(("atrace", layout, description), (gzip, ends_known), self.events.header).into())
    }
}

impl AtraceDecoder {
    fn no_events_error(&self) -> Result<()> {
        let stats = &self.events.stats;
        if stats.event_lines > 0 {
            return Ok(());
        }
        if stats.raw_clock_lines > 0 {
            return Err(Error::new(
                ErrorKind::Unsupported,
                format!(
                    "the capture's {} event lines have integer timestamps: it was recorded with a raw counter \
                     trace_clock, whose ticks cannot be turned into time; record with the default clock",
                    stats.raw_clock_lines
                ),
            ));
        }
        Err(Error::at(
            ErrorKind::NotATrace,
            0,
            format!(
                "found text with no ftrace event lines ({} lines); expected an Android method trace (starting \
                 with \"*version\" or \"SLOW\") or an atrace/systrace capture (lines like \"task-123 [000] \
                 1.000000: tracing_mark_write: B|123|name\")",
                stats.preamble_lines
            ),
        ))
    }

    fn notes(&self, builder: &mut ProfileBuilder, end: &SystemEnd) {
        let stats = &self.events.stats;
        if self.events.system.stats.slices == 0 {
            let instead = if end.scheduled {
                "only kernel events: each thread's frames are its scheduler states (running, runnable, sleeping and so on)"
            } else {
                "and no scheduler events: there is nothing to draw"
            };
            builder.facts.warn(format!(
                "the capture has no slices (atrace B/E markers), {instead}; capture with app or framework categories \
                 (for example `atrace gfx view am`) for slices"
            ));
        }
        if stats.overwritten > 0 || stats.buffers_restarted > 0 {
            builder.facts.warn(format!(
                "the kernel's ring buffer overwrote {} events before the capture was read{}: slices that began \
                 before the first surviving event show up as unmatched ends",
                stats.overwritten,
                if stats.buffers_restarted > 0 { " (some CPU buffers restarted)" } else { "" }
            ));
        }
        let gaps = &end.gaps;
        if !gaps.is_empty() {
            let lost: u64 = gaps.iter().map(|(from, to)| to - from).sum();
            builder.facts.warn(format!(
                "the capture is {} separate dumps: nothing was recorded in the {} gaps between them ({} ms in \
                 all), which the timeline shows",
                gaps.len() + 1,
                gaps.len(),
                group_digits(lost / 1_000_000)
            ));
        }
        if stats.raw_clock_lines > 0 {
            builder.facts.warn(format!(
                "{} integer timestamps (a raw counter trace_clock) and {} skipped",
                counted(stats.raw_clock_lines, "event line has", "event lines have"),
                were(stats.raw_clock_lines)
            ));
        }
        if stats.other_markers > 0 {
            builder.facts.warn(format!(
                "{} (B, E, C, S, F, I, N, G, H) and {} skipped",
                counted(
                    stats.other_markers,
                    "tracing_mark_write payload was not an atrace marker",
                    "tracing_mark_write payloads were not atrace markers"
                ),
                were(stats.other_markers)
            ));
        }
        if builder.facts.repairs.out_of_order > 0 {
            builder.facts.warn(format!(
                "{} events are earlier than the event before them (merged or concatenated dumps): durations that \
                 would be negative count as 0",
                builder.facts.repairs.out_of_order
            ));
        }
    }
}
