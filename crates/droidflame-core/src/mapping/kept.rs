//! What is kept of a mapping file: the classes some profiles use, with their methods, and
//! what the file says of itself.

use super::descriptor;
use crate::profile::Profile;
use rustc_hash::{FxHashMap, FxHashSet};

/// The part of a mapping file that some profiles need, read by [`MappingReader`](super::MappingReader) and
/// applied with [`Analysis::deobfuscate`](crate::Analysis::deobfuscate).
#[derive(Debug, Default)]
pub struct Mapping {
    /// The classes the profiles use, by obfuscated name.
    pub(super) classes: FxHashMap<String, ClassEntry>,
    pub(super) facts: MappingFacts,
}

/// What the file says beyond the classes kept.
#[derive(Debug, Default)]
pub(super) struct MappingFacts {
    pub(super) compiler: Option<String>,
    pub(super) compiler_version: Option<String>,
    pub(super) map_id: Option<String>,
    /// Lines in the file.
    pub(super) lines: u64,
    /// Class lines in the file.
    pub(super) class_lines: u64,
    /// Lines that are no mapping record, skipped; and the number of the first.
    pub(super) skipped_lines: u64,
    pub(super) first_skipped: Option<u64>,
    /// Classes the profiles use that the file names as the original of a renamed class:
    /// the trace may carry original names already.
    pub(super) seen_as_original: FxHashSet<String>,
    /// Packages of the profiles' classes that hold renamed classes in the file: a class of
    /// such a package that the file does not list looks obfuscated, by another build.
    pub(super) obfuscated_packages: FxHashSet<String>,
}

/// What the mapping says of one obfuscated class.
#[derive(Debug)]
pub(super) struct ClassEntry {
    pub(super) original: String,
    /// From R8's `sourceFile` comment.
    pub(super) source_file: Option<String>,
    /// Its methods by obfuscated name, inlined callees left out.
    pub(super) methods: FxHashMap<String, Vec<MethodEntry>>,
    /// Its fields' original names, by obfuscated name.
    pub(super) fields: FxHashMap<String, String>,
}

/// One method line (not an inlined callee): one line range of one method.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct MethodEntry {
    pub(super) original: String,
    /// The class the method came from, where R8 moved it (`com.Foo.bar()`).
    pub(super) moved_from: Option<String>,
    /// Parameter types as Java spells them, comma-separated.
    pub(super) arguments: String,
    pub(super) returns: String,
    /// R8's residual signature (the descriptor after optimisation), where it gives one.
    pub(super) residual: Option<String>,
    pub(super) lines: Option<LineRange>,
}

/// A method line's line numbers: `start:end` in the output, and the original line(s).
/// ProGuard's own format gives original lines only (`original` is then `None`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct LineRange {
    pub(super) start: u32,
    pub(super) end: u32,
    pub(super) original: Option<(u32, Option<u32>)>,
}

/// The classes some profiles use (by the name they carry in them) and their packages.
#[derive(Debug, Default)]
pub(super) struct Wanted {
    pub(super) classes: FxHashSet<String>,
    pub(super) packages: FxHashSet<String>,
}

impl Wanted {
    pub(super) fn of(profiles: &[&Profile]) -> Wanted {
        let mut wanted = Wanted::default();
        for profile in profiles {
            wanted.add_profile(profile);
        }
        wanted
    }

    pub(super) fn add_profile(&mut self, profile: &Profile) {
        for frame in profile.obfuscated_frames() {
            if frame.unknown || frame.class.is_empty() {
                continue;
            }
            self.add(&frame.class);
            descriptor::for_each_class(&frame.signature, |class| self.add(class));
        }
        if let Some(graph) = &profile.heap_graph {
            for class in graph.dump_class_names() {
                self.add(class.trim_end_matches("[]"));
            }
        }
    }

    pub(super) fn add(&mut self, class: &str) {
        if !self.classes.contains(class) {
            self.packages.insert(package(class).to_owned());
            self.classes.insert(class.to_owned());
        }
    }
}

/// `a.b` of `a.b.C`; empty for a class in no package.
pub(super) fn package(class: &str) -> &str {
    class.rfind('.').map_or("", |dot| &class[..dot])
}
