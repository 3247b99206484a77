//! The registry: every input format, in the order their sniffers are asked. This is the
//! only file that names a format's folder; the analyzer reaches formats through `FORMATS`.
//!
//! Adding a format: a folder here whose `mod.rs` exports a `FORMAT` (the `Importer`
//! contract in `importer.rs`), a line in `FORMATS`, its tests and its fuzz seeds.
//! `system` is no format: it is the model that system-trace formats share (threads,
//! slices, tracks, counters, the atrace marker syntax that Perfetto carries too).

mod art;
mod atrace;
mod code_names;
mod hprof;
mod perfetto;
mod sampled;
mod simpleperf;
mod system;

use crate::error::{Error, ErrorKind, Result};
use crate::importer::{Format, Sniff};
use crate::text::describe_bytes;

/// Every format, in sniff order. simpleperf's and HPROF's magics are text, which a
/// capture's sniffer would weigh as ftrace text, so they go first; atrace's sniffer waits
/// for whole lines.
pub(crate) const FORMATS: [Format; 5] =
    [simpleperf::FORMAT, hprof::FORMAT, art::FORMAT, atrace::FORMAT, perfetto::FORMAT];

/// The fewest bytes sniffed at first (a method trace's `*version`), unless the input is
/// shorter.
pub(crate) const SNIFF_AT_LEAST: usize = 8;

/// The format of an input that starts with `head` (all of it, when `complete`): the first
/// in order to say yes; `Ok(None)` while none does and one is not sure yet. A sniffer says
/// yes only to bytes that no other format starts with, so a yes need not wait for a format
/// that is still unsure (a capture's sniffer waits for whole lines).
pub(crate) fn recognise(head: &[u8], complete: bool) -> Result<Option<&'static Format>> {
    let mut unsure = false;
    for format in &FORMATS {
        match (format.sniff)(head, complete) {
            Sniff::Yes => return Ok(Some(format)),
            Sniff::NeedMore => unsure = true,
            Sniff::No => {}
        }
    }
    if unsure && !complete {
        return Ok(None);
    }
    Err(not_a_trace(head))
}

/// Which of two files is the first part of a trace written as two files: `Ok(true)` when
/// the second is. An error says why they are no such pair.
pub(crate) fn pair_first_is_second(first_head: &[u8], second_head: &[u8]) -> Result<bool> {
    let mut why = None;
    for pair in FORMATS.iter().filter_map(|f| f.pair) {
        match pair(first_head, second_head) {
            Ok(second) => return Ok(second),
            Err(error) => why = Some(error),
        }
    }
    Err(why.unwrap_or_else(|| Error::new(ErrorKind::NotATrace, "no format is written as two files")))
}

/// Why `head` is no trace, and what it looks like instead where that is recognisable.
pub(crate) fn not_a_trace(head: &[u8]) -> Error {
    let looks_like = if head.starts_with(b"PK\x03\x04") {
        Some("a zip archive; unzip it and open the trace file inside")
    } else if head.starts_with(&[0x1F, 0x8B]) {
        Some("gzip data inside gzip data; decompress it once first")
    } else if head.starts_with(&[0x78, 0x9C]) || head.starts_with(&[0x78, 0xDA]) || head.starts_with(&[0x78, 0x01]) {
        Some("raw zlib data; an atrace -z capture starts with a \"TRACE:\" line before it")
    } else {
        None
    };
    let message = match looks_like {
        Some(what) => format!("this looks like {what}"),
        None => format!(
            "expected an Android method trace (starting with \"*version\" or \"SLOW\"), an atrace/systrace \
             capture (ftrace text, TRACE: + zlib, systrace HTML), a Perfetto trace, simpleperf samples \
             (starting with \"SIMPLEPERF\") or a heap dump (starting with \"JAVA PROFILE\"), found \"{}\"",
            describe_bytes(head)
        ),
    };
    let kind = if head.starts_with(&[0x1F, 0x8B]) { ErrorKind::Unsupported } else { ErrorKind::NotATrace };
    Error::at(kind, 0, message)
}
