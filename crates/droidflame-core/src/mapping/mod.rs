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
mod reader;
mod report;
mod resolve;

pub use reader::MappingReader;
pub use report::{ClassCounts, MappingReport, MethodCounts};

use crate::error::Result;
use crate::profile::Profile;
use rustc_hash::{FxHashMap, FxHashSet};

/// The part of a mapping file that some profiles need, read by [`MappingReader`] and
/// applied with [`Profile::deobfuscate`].
#[derive(Debug, Default)]
pub struct Mapping {
    /// The classes the profiles use, by obfuscated name.
    classes: FxHashMap<String, ClassEntry>,
    facts: MappingFacts,
}

/// What the file says beyond the classes kept.
#[derive(Debug, Default)]
struct MappingFacts {
    compiler: Option<String>,
    compiler_version: Option<String>,
    map_id: Option<String>,
    /// Lines in the file.
    lines: u64,
    /// Class lines in the file.
    class_lines: u64,
    /// Lines that are no mapping record, skipped; and the number of the first.
    skipped_lines: u64,
    first_skipped: Option<u64>,
    /// Classes the profiles use that the file names as the original of a renamed class:
    /// the trace may carry original names already.
    seen_as_original: FxHashSet<String>,
    /// Packages of the profiles' classes that hold renamed classes in the file: a class of
    /// such a package that the file does not list looks obfuscated, by another build.
    obfuscated_packages: FxHashSet<String>,
}

/// What the mapping says of one obfuscated class.
#[derive(Debug)]
struct ClassEntry {
    original: String,
    /// From R8's `sourceFile` comment.
    source_file: Option<String>,
    /// Its methods by obfuscated name, inlined callees left out.
    methods: FxHashMap<String, Vec<MethodEntry>>,
}

/// One method line (not an inlined callee): one line range of one method.
#[derive(Debug, Clone, PartialEq, Eq)]
struct MethodEntry {
    original: String,
    /// The class the method came from, where R8 moved it (`com.Foo.bar()`).
    moved_from: Option<String>,
    /// Parameter types as Java spells them, comma-separated.
    arguments: String,
    returns: String,
    /// R8's residual signature (the descriptor after optimisation), where it gives one.
    residual: Option<String>,
    lines: Option<LineRange>,
}

/// A method line's line numbers: `start:end` in the output, and the original line(s).
/// ProGuard's own format gives original lines only (`original` is then `None`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct LineRange {
    start: u32,
    end: u32,
    original: Option<(u32, Option<u32>)>,
}

/// The classes some profiles use (by the name they carry in them) and their packages.
#[derive(Debug, Default)]
struct Wanted {
    classes: FxHashSet<String>,
    packages: FxHashSet<String>,
}

impl Wanted {
    fn of(profiles: &[&Profile]) -> Wanted {
        let mut wanted = Wanted::default();
        for profile in profiles {
            wanted.add_profile(profile);
        }
        wanted
    }

    fn add_profile(&mut self, profile: &Profile) {
        for frame in profile.obfuscated_frames() {
            if frame.unknown || frame.class.is_empty() {
                continue;
            }
            self.add(&frame.class);
            descriptor::for_each_class(&frame.signature, |class| self.add(class));
        }
    }

    fn add(&mut self, class: &str) {
        if !self.classes.contains(class) {
            self.packages.insert(package(class).to_owned());
            self.classes.insert(class.to_owned());
        }
    }
}

/// `a.b` of `a.b.C`; empty for a class in no package.
fn package(class: &str) -> &str {
    class.rfind('.').map_or("", |dot| &class[..dot])
}

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
