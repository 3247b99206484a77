//! What applying a mapping did, counted, for the summary and the user.

use crate::text::{group_digits, were};
use serde::Serialize;

/// Methods left obfuscated that a report names, at most.
pub(super) const EXAMPLES: usize = 5;

/// What applying a mapping to a profile did. Serialised as the summary's `mapping`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct MappingReport {
    /// The compiler that wrote the mapping (`R8`), where its header says.
    pub compiler: Option<String>,
    /// Its version, where the header says.
    pub compiler_version: Option<String>,
    /// R8's `pg_map_id`: the build the mapping belongs to.
    pub map_id: Option<String>,
    /// The profile's classes (of methods and their signatures' types), each once.
    pub classes: ClassCounts,
    /// The profile's methods of classes the mapping lists.
    pub methods: MethodCounts,
    /// Lines of the mapping that are no mapping record, skipped.
    pub skipped_lines: u64,
    /// The line number of the first of them.
    pub first_skipped_line: Option<u64>,
    /// Some of the methods left obfuscated for having several originals, as they are
    /// named (at most five).
    pub ambiguous_examples: Vec<String>,
    /// Signs that the mapping belongs to another build or app, in words.
    pub warnings: Vec<String>,
    /// A heap dump's classes the mapping lists (renamed, with their fields); absent for
    /// other traces.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heap_classes: Option<u64>,
}

/// Classes, by what the mapping says of them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct ClassCounts {
    /// Listed in the mapping (renamed, or kept under their own name).
    pub mapped: u64,
    /// Not listed (the framework's, the platform's, or another build's).
    pub not_found: u64,
}

/// Methods of listed classes, by what the mapping says of them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct MethodCounts {
    /// Resolved to one original method.
    pub mapped: u64,
    /// Several originals that the signature cannot tell apart: left obfuscated.
    pub ambiguous: u64,
    /// Not listed under their class: left as they are.
    pub not_found: u64,
}

impl MappingReport {
    /// What was mapped and what was left, in one or more sentences.
    pub fn describe(&self) -> String {
        let by = match (&self.compiler, &self.compiler_version) {
            (Some(compiler), Some(version)) => format!("a mapping written by {compiler} {version}"),
            (Some(compiler), None) => format!("a mapping written by {compiler}"),
            _ => "a mapping".to_owned(),
        };
        let (c, m) = (self.classes, self.methods);
        if c.mapped == 0 {
            return format!("No name was changed by {by}.");
        }
        let mut text = format!(
            "Names deobfuscated with {by}: {} and {} mapped to their original names.",
            count(c.mapped, "class", "classes"),
            count(m.mapped, "method", "methods")
        );
        if m.ambiguous > 0 {
            text += &format!(
                " {} several originals that the signature cannot tell apart ({}).",
                count(
                    m.ambiguous,
                    "method keeps its obfuscated name: it has",
                    "methods keep their obfuscated names: each has"
                ),
                self.ambiguous_examples.join(", ")
            );
        }
        if m.not_found > 0 {
            let what = count(m.not_found, "method of mapped classes is", "methods of mapped classes are");
            text += &format!(" {what} not in the mapping and {}.", keep(m.not_found));
        }
        if c.not_found > 0 {
            let what = count(c.not_found, "class is", "classes are");
            text +=
                &format!(" {what} not in the mapping (the platform's, or never obfuscated) and {}.", keep(c.not_found));
        }
        if self.skipped_lines > 0 {
            let what = count(self.skipped_lines, "line of the mapping is", "lines of the mapping are");
            let were = were(self.skipped_lines);
            let first = group_digits(self.first_skipped_line.unwrap_or(0));
            text += &format!(" {what} no mapping record and {were} skipped (the first is line {first}).");
        }
        text
    }
}

/// `1 class` or `2 classes`: the number and the words that agree with it.
fn count(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", group_digits(n), if n == 1 { one } else { many })
}

/// What things the mapping does not rename do.
fn keep(n: u64) -> &'static str {
    if n == 1 {
        "keeps its name"
    } else {
        "keep their names"
    }
}
