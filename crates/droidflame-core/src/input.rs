//! `Analyzer`: the incremental entry point. Bytes arrive in chunks of any size; the first
//! bytes decide the format (never the file name), gzip is undone on the fly, and the
//! format's importer feeds the profile builder. Memory holds the profile, not the records.

use crate::analysis::Analysis;
use crate::error::{Error, ErrorKind, Result};
use crate::formats::{self, SNIFF_AT_LEAST};
use crate::importer::{Imported, Importer, Input};
use crate::mapping::MappingReader;
use crate::options::Options;
use crate::profile::{counted, ClockSet, ProfileBuilder, Repair, Warning};
use crate::reread::Rereading;
use flate2::write::MultiGzDecoder;
use std::io::Write;
use std::sync::Arc;

/// Compressed input is inflated this much at a time, which bounds the output of one step.
const GZIP_STEP: usize = 16 << 10;

/// Analyses one trace: `push` its bytes in order, then `finish`.
pub struct Analyzer {
    options: Options,
    builder: ProfileBuilder,
    outer: Outer,
    inner: Inner,
    input_bytes: u64,
    /// The input is gzip-compressed (known from its first two bytes).
    gzip: bool,
    failed: Option<Error>,
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

/// The (decompressed) trace bytes: sniffed, then imported.
struct Inner {
    head: Vec<u8>,
    importer: Option<Box<dyn Importer>>,
    /// The registry's name of the importer's format.
    family: &'static str,
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
            inner: Inner { head: Vec::new(), importer: None, family: "" },
            input_bytes: 0,
            gzip: false,
            failed: None,
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

    /// For a trace written as two files (a method trace's `.key` and `.data`): call after
    /// the whole first file was pushed, before the second. The two then read as one trace.
    pub fn end_of_key_file(&mut self) -> Result<()> {
        if let Some(error) = &self.failed {
            return Err(error.clone());
        }
        let result = self.end_of_part();
        if let Err(error) = &result {
            self.failed = Some(error.clone());
        }
        result
    }

    fn end_of_part(&mut self) -> Result<()> {
        if let Outer::Sniffing(head) = &mut self.outer {
            // Fewer than two bytes: not gzip, and too short for any format, as `start` says.
            let head = std::mem::take(head);
            self.outer = Outer::Plain;
            self.push_inner(&head)?;
        }
        if self.inner.importer.is_none() {
            // The first file is whole: its format is known now or never.
            let head = std::mem::take(&mut self.inner.head);
            self.start(&head, true)?;
        }
        let importer = self.inner.importer.as_mut().expect("started above");
        importer.end_of_part(&mut self.builder)
    }

    /// Starts the importer of the format `head` is in, and feeds it `head`; nothing while
    /// a sniffer is not sure yet.
    fn start(&mut self, head: &[u8], complete: bool) -> Result<()> {
        let Some(format) = formats::recognise(head, complete)? else {
            self.inner.head = head.to_vec();
            return Ok(());
        };
        let input = Input { gzip: self.gzip, options: &self.options };
        self.inner.importer = Some((format.start)(head, &input));
        self.inner.family = format.family;
        self.feed(head)
    }

    fn push_outer(&mut self, chunk: &[u8]) -> Result<()> {
        self.input_bytes += chunk.len() as u64;
        let Outer::Sniffing(head) = &mut self.outer else {
            return self.push_plain_or_gzip(chunk);
        };
        // A chunk that holds the first two bytes is read where it is: copying a whole
        // input given at once cost a tenth of its reading.
        let mut joined = std::mem::take(head);
        let first: &[u8] = if joined.is_empty() {
            chunk
        } else {
            joined.extend_from_slice(chunk);
            &joined
        };
        if first.len() < 2 {
            self.outer = Outer::Sniffing(first.to_vec());
            return Ok(());
        }
        self.gzip = first.starts_with(&[0x1F, 0x8B]);
        self.outer = if self.gzip {
            Outer::Gzip { decoder: Box::new(MultiGzDecoder::new(Vec::new())), inflated: 0 }
        } else {
            Outer::Plain
        };
        self.push_plain_or_gzip(first)
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
        if self.inner.importer.is_none() {
            if self.inner.head.is_empty() && bytes.len() >= SNIFF_AT_LEAST {
                return self.start(bytes, false);
            }
            let mut head = std::mem::take(&mut self.inner.head);
            head.extend_from_slice(bytes);
            if head.len() < SNIFF_AT_LEAST {
                self.inner.head = head;
                return Ok(());
            }
            return self.start(&head, false);
        }
        self.feed(bytes)
    }

    fn feed(&mut self, bytes: &[u8]) -> Result<()> {
        let importer = self.inner.importer.as_mut().expect("started before feeding");
        importer.push(bytes, &mut self.builder)?;
        let builder = &mut self.builder;
        builder.stacks.check_calls();
        match builder.limit_error() {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }

    /// Ends the input and returns the analysed trace.
    pub fn finish(mut self) -> Result<Analysis> {
        if let Some(error) = self.failed.take() {
            return Err(error);
        }
        match std::mem::replace(&mut self.outer, Outer::Plain) {
            Outer::Sniffing(head) => {
                if head.is_empty() {
                    return Err(Error::new(ErrorKind::NotATrace, "the input is empty"));
                }
                self.push_inner(&head)?;
            }
            Outer::Gzip { mut decoder, .. } => {
                if let Err(e) = decoder.try_finish() {
                    self.builder.facts.repairs.truncated = true;
                    self.builder.facts.warn_about(
                        Repair::Truncated,
                        format!("the gzip data ends early ({e}); everything before that point was read"),
                    );
                }
                let out = std::mem::take(decoder.get_mut());
                self.push_inner(&out)?;
            }
            Outer::Plain => {}
        }
        if self.inner.importer.is_none() {
            let head = std::mem::take(&mut self.inner.head);
            if head.is_empty() {
                return Err(Error::new(ErrorKind::NotATrace, "the compressed input is empty"));
            }
            self.start(&head, true)?;
        }
        let importer = self.inner.importer.take().expect("started above");
        let imported = importer.finish(&mut self.builder)?;
        debug_assert_eq!(imported.spec.format.family, self.inner.family, "an importer names its own family");
        finish_analysis(self.builder, imported, self.options)
    }
}

/// The analysis of what `builder` read, once its importer finished: the profile, what
/// reading again needs, and the trace's own mapping applied.
pub(crate) fn finish_analysis(mut builder: ProfileBuilder, imported: Imported, options: Options) -> Result<Analysis> {
    let Imported { spec, read_again } = imported;
    builder.stacks.check_calls();
    if let Some(error) = builder.limit_error() {
        return Err(error);
    }
    let (threads, frames) = (builder.stacks.thread_slots(), builder.frames.slot_ids());
    builder.facts.rereadable = read_again.is_some();
    let mut profile = builder.finish(spec);
    let mut reread = None;
    if let Some(source) = read_again.filter(|_| profile.stacks().shortest_call > 0) {
        profile.facts.rereadable = true;
        reread = Some(Arc::new(Rereading {
            source,
            threads,
            frames,
            options,
            lost_at_end: profile.facts.repairs.truncated || profile.facts.repairs.overflow,
            cpu_only: profile.stacks().clocks == ClockSet::Cpu,
        }));
    }
    let renames = std::mem::take(&mut profile.renames);
    let mut analysis = Analysis::new(profile, reread);
    if !renames.is_empty() {
        // The trace carries its own mapping: applied as a mapping file would be.
        let mut reader = MappingReader::new(&[&analysis.profile]);
        reader.renames(&renames);
        if let Ok(mapping) = reader.finish() {
            let mapped = analysis.deobfuscate(&mapping).methods.mapped;
            let text = format!(
                "the trace gives the original names of its obfuscated code (a deobfuscation mapping of {}): {} \
                 renamed",
                counted(renames.len() as u64, "class", "classes"),
                counted(mapped, "method was", "methods were")
            );
            analysis.profile.facts.warnings.push(Warning { text, repair: None });
        }
    }
    Ok(analysis)
}
