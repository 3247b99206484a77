//! R8 / ProGuard `mapping.txt`: the original names of an obfuscated build, applied to a
//! profile's frames before any product is made.
//!
//! A mapping of a large app is 50–200 MB, so it is read as its bytes stream in
//! ([`MappingReader`]) and only the classes the profiles use are kept: the class of each
//! frame and every class its signature names. Each line is parsed by the `proguard` crate
//! (both formats, R8's `# {json}` comments); which lines matter, and what a method trace's
//! frame resolves to, is decided here, because a method trace has no line numbers to pick
//! among a mapping's candidates:
//! - classes are renamed everywhere, inside signatures too;
//! - a method name R8 gave to several methods of a class is told apart by the signature's
//!   parameter types, deobfuscated (or by R8's residual signature, where it gives one);
//! - one method listed over several line ranges is one method;
//! - lines that share an obfuscated name and line range, each followed by one whose
//!   original line is a single line (`:42`), are callees inlined into that last one: a
//!   traced method is always the outer method, never an inlined callee;
//! - classes the mapping does not list (the framework) are left as they are;
//! - what cannot be resolved to one original keeps its obfuscated name and is counted.

mod apply;
mod descriptor;
mod heap;
mod kept;
mod reader;
mod report;
mod resolve;

pub use kept::Mapping;
pub use reader::MappingReader;
pub use report::{ClassCounts, MappingReport, MethodCounts};

use crate::error::Result;
use crate::profile::Profile;

/// Whether some first bytes of a file are a mapping file's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sniff {
    /// Its first line that is not a `#` comment is a class line (`com.Foo -> a.b:`).
    Mapping,
    /// It is not a mapping file.
    NotMapping,
    /// Only comments so far: more bytes are needed.
    NotSureYet,
}

/// Tells a mapping file from its first bytes (a few kilobytes are plenty). System traces
/// start with `#` comments too (`# tracer: nop`), so the first other line decides.
pub fn sniff(head: &[u8]) -> Sniff {
    let mut lines = head.split(|&b| b == b'\n').peekable();
    while let Some(line) = lines.next() {
        let complete = lines.peek().is_some();
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.trim_ascii().is_empty() || line.starts_with(b"#") {
            continue;
        }
        if !complete {
            return Sniff::NotSureYet;
        }
        return match proguard::ProguardRecord::try_parse(line) {
            Ok(proguard::ProguardRecord::Class { .. }) => Sniff::Mapping,
            _ => Sniff::NotMapping,
        };
    }
    Sniff::NotSureYet
}

/// Reads a whole mapping file held in memory, keeping what `profiles` need.
pub fn read_mapping(bytes: &[u8], profiles: &[&Profile]) -> Result<Mapping> {
    let mut reader = MappingReader::new(profiles);
    reader.push(bytes)?;
    reader.finish()
}
