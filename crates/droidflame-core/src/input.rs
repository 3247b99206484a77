//! `Analyzer`: the incremental entry point. Bytes arrive in chunks of any size; the first
//! bytes decide the format (never the file name), gzip is undone on the fly, and the
//! format decoder feeds the profile builder. Memory holds the profile, not the records.

use crate::art::{ArtDecoder, ArtResume};
use crate::atrace::{self, AtraceDecoder};
use crate::feed::ChunkFeeder;
use crate::perfetto::{self, PerfettoDecoder};
use crate::profile::ClockSet;
use crate::profile::Repair;
use crate::profile::{Profile, ProfileBuilder};
use crate::reread::{Checkpoint, Rereading};
use crate::simpleperf::{self, SimpleperfDecoder};
use crate::text::describe_bytes;
use crate::{Error, ErrorKind, Options, Result};
use flate2::write::MultiGzDecoder;
use std::io::Write;
use std::sync::Arc;

/// Compressed input is inflated this much at a time, which bounds the output of one step.
const GZIP_STEP: usize = 16 << 10;
/// Bytes needed to recognise a method trace; captures may need up to
/// `atrace::SNIFF_BYTES`.
const SNIFF_BYTES: usize = 8;

/// Analyses one trace: `push` its bytes in order, then `finish`.
pub struct Analyzer {
    options: Options,
    builder: ProfileBuilder,
    outer: Outer,
    inner: Inner,
    input_bytes: u64,
    split: bool,
    failed: Option<Error>,
    /// Where reading can start again, kept with calls: short calls may be let go.
    checkpoints: Vec<Checkpoint>,
}

enum Outer {
    /// The first bytes, until we know whether they are gzip.
    Sniffing(Vec<u8>),
    Plain,
    Gzip {
        decoder: Box<MultiGzDecoder<Vec<u8>>>,
        inflated: u64,
    },
}

/// The (decompressed) trace bytes: sniffed, then decoded.
struct Inner {
    head: Vec<u8>,
    decoder: Option<Decoder>,
    feeder: ChunkFeeder,
}

/// One decoder per input family.
enum Decoder {
    Art(Box<ArtDecoder>),
    Atrace(Box<AtraceDecoder>),
    Perfetto(Box<PerfettoDecoder>),
    Simpleperf(Box<SimpleperfDecoder>),
}

impl Default for Analyzer {
    fn default() -> Self {
        Analyzer::new(Options::default())
    }
}

impl Analyzer {
    /// An analyzer that works within `options`' limits.
    pub fn new(options: Options) -> Self {
        Analyzer {
            builder: ProfileBuilder::new(&options),
            options,
            outer: Outer::Sniffing(Vec::new()),
            inner: Inner { head: Vec::new(), decoder: None, feeder: ChunkFeeder::default() },
            input_bytes: 0,
            split: false,
            failed: None,
            checkpoints: Vec::new(),
        }
    }

    /// Input bytes pushed so far (compressed, if the input is compressed).
    pub fn bytes_read(&self) -> u64 {
        self.input_bytes
    }

    /// Feeds the next chunk. After an error, every later call returns the same error.
    pub fn push(&mut self, chunk: &[u8]) -> Result<()> {
        if let Some(error) = &self.failed {
            return Err(error.clone());
        }
        let result = self.push_outer(chunk);
        if let Err(error) = &result {
            self.failed = Some(error.clone());
        }
        result
    }

    /// For a split trace: call after the whole `.key` file was pushed, before the `.data`
    /// file. The two halves then read as one regular trace.
    pub fn end_of_key_file(&mut self) -> Result<()> {
        self.split = true;
        let ends_in_newline = match &self.inner.decoder {
            None => self.inner.head.last() == Some(&b'\n'),
            Some(Decoder::Art(_)) => self.inner.feeder.rest().0.last().is_none_or(|&b| b == b'\n'),
            Some(Decoder::Atrace(_) | Decoder::Perfetto(_) | Decoder::Simpleperf(_)) => true,
        };
        if !ends_in_newline {
            self.push(b"\n")?;
        }
        Ok(())
    }

    fn push_outer(&mut self, chunk: &[u8]) -> Result<()> {
        self.input_bytes += chunk.len() as u64;
        if let Outer::Sniffing(head) = &mut self.outer {
            head.extend_from_slice(chunk);
            if head.len() < 2 {
                return Ok(());
            }
            let head = std::mem::take(head);
            self.outer = if head.starts_with(&[0x1F, 0x8B]) {
                Outer::Gzip { decoder: Box::new(MultiGzDecoder::new(Vec::new())), inflated: 0 }
            } else {
                Outer::Plain
            };
            return self.push_plain_or_gzip(&head);
        }
        self.push_plain_or_gzip(chunk)
    }

    fn push_plain_or_gzip(&mut self, chunk: &[u8]) -> Result<()> {
        match &mut self.outer {
            Outer::Gzip { .. } => {
                for piece in chunk.chunks(GZIP_STEP) {
                    let inflated = self.inflate(piece)?;
                    self.push_inner(&inflated)?;
                }
                Ok(())
            }
            _ => self.push_inner(chunk),
        }
    }

    fn inflate(&mut self, piece: &[u8]) -> Result<Vec<u8>> {
        let Outer::Gzip { decoder, inflated } = &mut self.outer else {
            return Ok(Vec::new());
        };
        decoder
            .write_all(piece)
            .map_err(|e| Error::new(ErrorKind::Corrupt, format!("the gzip data is damaged ({e})")))?;
        let out = std::mem::take(decoder.get_mut());
        *inflated += out.len() as u64;
        if *inflated > self.options.max_decompressed_bytes {
            return Err(Error::new(
                ErrorKind::Limit,
                format!(
                    "the gzip data inflates to more than {} bytes (the decompressed-size limit)",
                    self.options.max_decompressed_bytes
                ),
            ));
        }
        Ok(out)
    }

    fn push_inner(&mut self, bytes: &[u8]) -> Result<()> {
        let inner = &mut self.inner;
        if inner.decoder.is_none() {
            inner.head.extend_from_slice(bytes);
            if inner.head.len() < SNIFF_BYTES {
                return Ok(());
            }
            let Some(decoder) = sniff(&inner.head, false, &self.options)? else {
                return Ok(());
            };
            inner.decoder = Some(decoder);
            let head = std::mem::take(&mut inner.head);
            return self.feed(&head);
        }
        self.feed(bytes)
    }

    fn feed(&mut self, bytes: &[u8]) -> Result<()> {
        let Inner { decoder, feeder, .. } = &mut self.inner;
        let builder = &mut self.builder;
        match decoder.as_mut().expect("sniffed before feeding") {
            Decoder::Art(decoder) => feeder.push(bytes, |data, offset| decoder.decode(data, offset, builder))?,
            Decoder::Atrace(decoder) => decoder.push(bytes, builder)?,
            Decoder::Perfetto(decoder) => decoder.push(bytes, builder)?,
            Decoder::Simpleperf(decoder) => decoder.push(bytes, builder)?,
        }
        self.checkpoint();
        let builder = &mut self.builder;
        builder.check_calls();
        match builder.limit_error() {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }

    /// Notes where reading can start again, every `Options::checkpoint_bytes`: only with
    /// calls kept, for a method trace read uncompressed and in one piece.
    fn checkpoint(&mut self) {
        if !self.options.keep_calls || self.split || !matches!(self.outer, Outer::Plain) {
            return;
        }
        let Some(Decoder::Art(decoder)) = &self.inner.decoder else {
            return;
        };
        let Some(resume) = decoder.resume_point() else {
            return;
        };
        if self.checkpoints.is_empty() {
            let Some(offset) = decoder.records_start() else {
                return;
            };
            self.checkpoints.push(Checkpoint { offset, resume: ArtResume::initial(), marks: Vec::new() });
        }
        let offset = self.inner.feeder.rest().1;
        if self.checkpoints.last().is_some_and(|c| offset - c.offset >= self.options.checkpoint_bytes.max(1)) {
            self.checkpoints.push(Checkpoint { offset, resume, marks: self.builder.marks() });
        }
    }

    /// Ends the input and returns the profile.
    pub fn finish(mut self) -> Result<Profile> {
        if let Some(error) = self.failed.take() {
            return Err(error);
        }
        let gzip = matches!(self.outer, Outer::Gzip { .. });
        match std::mem::replace(&mut self.outer, Outer::Plain) {
            Outer::Sniffing(head) => {
                if head.is_empty() {
                    return Err(Error::new(ErrorKind::NotATrace, "the input is empty"));
                }
                self.push_inner(&head)?;
            }
            Outer::Gzip { mut decoder, .. } => {
                if let Err(e) = decoder.try_finish() {
                    self.builder.repairs.truncated = true;
                    self.builder.warn_about(
                        Repair::Truncated,
                        format!("the gzip data ends early ({e}); everything before that point was read"),
                    );
                }
                let out = std::mem::take(decoder.get_mut());
                self.push_inner(&out)?;
            }
            Outer::Plain => {}
        }
        if self.inner.decoder.is_none() {
            let head = std::mem::take(&mut self.inner.head);
            if head.is_empty() {
                return Err(Error::new(ErrorKind::NotATrace, "the compressed input is empty"));
            }
            let decoder = sniff(&head, true, &self.options)?.ok_or_else(|| not_a_trace(&head))?;
            self.inner.decoder = Some(decoder);
            self.feed(&head)?;
        }
        let mut rereading = None;
        let spec = match self.inner.decoder.take().expect("decoder was set above") {
            Decoder::Art(mut decoder) => {
                decoder.split = self.split;
                let (rest, offset) = self.inner.feeder.rest();
                if !self.checkpoints.is_empty() {
                    rereading = Some(decoder.clone());
                }
                decoder.finish(rest, offset, gzip, &mut self.builder)?
            }
            Decoder::Atrace(decoder) => decoder.finish(gzip, &mut self.builder)?,
            Decoder::Perfetto(decoder) => decoder.finish(gzip, &mut self.builder)?,
            Decoder::Simpleperf(decoder) => decoder.finish(gzip, &mut self.builder)?,
        };
        self.builder.check_calls();
        if let Some(error) = self.builder.limit_error() {
            return Err(error);
        }
        let (threads, frames) = self.builder.slots();
        self.builder.rereadable = rereading.is_some();
        let mut profile = self.builder.finish(spec);
        if let Some(decoder) = rereading.filter(|_| profile.shortest_call > 0) {
            profile.reread = Some(Arc::new(Rereading {
                checkpoints: self.checkpoints,
                decoder: *decoder,
                threads,
                frames,
                options: self.options,
                lost_at_end: profile.repairs.truncated || profile.repairs.overflow,
                cpu_only: profile.clocks == ClockSet::Cpu,
            }));
        }
        Ok(profile)
    }
}

/// Recognises the format from the first bytes: `Ok(None)` while unsure (only before the
/// input is `complete`).
fn sniff(head: &[u8], complete: bool, options: &Options) -> Result<Option<Decoder>> {
    // Its magic is text, which a capture's sniffing would weigh as ftrace text.
    match simpleperf::sniff(head, complete) {
        Some(true) => return Ok(Some(Decoder::Simpleperf(Box::default()))),
        None => return Ok(None),
        Some(false) => {}
    }
    if let Some(decoder) = ArtDecoder::sniff(head) {
        return Ok(Some(Decoder::Art(Box::new(decoder))));
    }
    if let Some(kind) = atrace::sniff(head, complete) {
        return Ok(Some(Decoder::Atrace(Box::new(AtraceDecoder::new(kind, options.max_decompressed_bytes)))));
    }
    match perfetto::sniff(head, complete) {
        Some(true) => {
            return Ok(Some(Decoder::Perfetto(Box::new(PerfettoDecoder::new(options.max_decompressed_bytes)))))
        }
        None => return Ok(None),
        Some(false) => {}
    }
    if complete || head.len() >= atrace::SNIFF_BYTES || atrace::is_binary(head) {
        return Err(not_a_trace(head));
    }
    Ok(None)
}

fn not_a_trace(head: &[u8]) -> Error {
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
             capture (ftrace text, TRACE: + zlib, systrace HTML), a Perfetto trace or simpleperf samples \
             (starting with \"SIMPLEPERF\"), found \"{}\"",
            describe_bytes(head)
        ),
    };
    let kind = if head.starts_with(&[0x1F, 0x8B]) { ErrorKind::Unsupported } else { ErrorKind::NotATrace };
    Error::at(kind, 0, message)
}
