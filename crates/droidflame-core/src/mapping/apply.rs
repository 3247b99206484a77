//! A mapping applied to a profile's frames: every product made afterwards carries the
//! original names.

use super::descriptor;
use super::kept::package;
use super::kept::Mapping;
use super::report::EXAMPLES;
use super::report::{ClassCounts, MappingReport};
use super::resolve::{original_line, resolve, Resolution};
use crate::profile::{display_names, Profile};
use crate::text::group_digits;

impl Mapping {
    /// Renames `profile`'s frames with the original names, and says what it did. Applying
    /// another mapping later starts again from the names the trace gave.
    pub(crate) fn apply(&self, profile: &mut Profile) -> MappingReport {
        let mapping = self;
        if !profile.unmapped_frames.is_empty() {
            profile.frames = std::mem::take(&mut profile.unmapped_frames);
        }
        let rename = |class: &str| mapping.classes.get(class).map(|c| c.original.clone());
        let mut report = MappingReport {
            compiler: mapping.facts.compiler.clone(),
            compiler_version: mapping.facts.compiler_version.clone(),
            map_id: mapping.facts.map_id.clone(),
            skipped_lines: mapping.facts.skipped_lines,
            first_skipped_line: mapping.facts.first_skipped,
            ..MappingReport::default()
        };
        let mut frames = profile.frames.clone();
        for frame in frames.iter_mut().filter(|f| !f.unknown && !f.class.is_empty()) {
            let Some(class) = mapping.classes.get(&frame.class) else { continue };
            match resolve(class, &frame.name, &frame.signature, &rename) {
                Resolution::Mapped { moved_from, name, entries } => {
                    report.methods.mapped += 1;
                    frame.name = name.to_owned();
                    frame.line = frame.line.and_then(|line| original_line(&entries, line));
                    match moved_from {
                        Some(from) => frame.class = from.to_owned(),
                        None => {
                            frame.class = class.original.clone();
                            if let Some(source) = &class.source_file {
                                frame.source = Some(source.clone());
                            }
                        }
                    }
                }
                Resolution::Ambiguous => {
                    report.methods.ambiguous += 1;
                    frame.class = class.original.clone();
                    if report.ambiguous_examples.len() < EXAMPLES {
                        report.ambiguous_examples.push(frame.display_name());
                    }
                }
                Resolution::NotFound => {
                    report.methods.not_found += 1;
                    frame.class = class.original.clone();
                }
            }
        }
        for frame in &mut frames {
            if let Some(signature) = descriptor::rename_classes(&frame.signature, &rename) {
                frame.signature = signature;
            }
        }
        report.classes = count_classes(profile, mapping);
        report.warnings = other_build_warnings(mapping, &report, profile);
        if let Some(graph) = &mut profile.heap_graph {
            report.heap_classes = Some(mapping.apply_to_heap(graph, &mut frames));
        }
        profile.unmapped_frames = std::mem::replace(&mut profile.frames, frames);
        (profile.frame_names, profile.frame_name_of) = display_names(&profile.frames);
        report
    }
}

/// Every class a method frame or its signature names, once each: listed or not.
fn count_classes(profile: &Profile, mapping: &Mapping) -> ClassCounts {
    let mut classes: Vec<String> = Vec::new();
    for frame in profile.frames.iter().filter(|f| !f.unknown && !f.class.is_empty()) {
        classes.push(frame.class.clone());
        descriptor::for_each_class(&frame.signature, |c| classes.push(c.to_owned()));
    }
    classes.extend(heap_classes(profile).map(str::to_owned));
    classes.sort_unstable();
    classes.dedup();
    let mapped = classes.iter().filter(|c| mapping.classes.contains_key(c.as_str())).count() as u64;
    ClassCounts { mapped, not_found: classes.len() as u64 - mapped }
}

/// A heap dump's classes as the dump names them (an array class by its element's).
fn heap_classes(profile: &Profile) -> impl Iterator<Item = &str> {
    let names = profile.heap_graph.as_ref().map_or(&[][..], |g| g.dump_class_names());
    names.iter().map(|name| name.trim_end_matches("[]"))
}

/// Signs that the mapping is not this trace's: few of the trace's classes in the
/// mapping's obfuscated packages are listed, few of the mapped classes' methods are, or
/// the trace names its classes as the mapping's originals already.
fn other_build_warnings(mapping: &Mapping, report: &MappingReport, profile: &Profile) -> Vec<String> {
    let facts = &mapping.facts;
    let mut warnings = Vec::new();
    let frames = profile.frames.iter().filter(|f| !f.unknown && !f.class.is_empty());
    let mut classes: Vec<&str> = frames.map(|f| f.class.as_str()).chain(heap_classes(profile)).collect();
    classes.sort_unstable();
    classes.dedup();
    let missing_obfuscated = classes
        .iter()
        .filter(|c| !mapping.classes.contains_key(**c) && facts.obfuscated_packages.contains(package(c)))
        .count() as u64;
    let listed = classes.iter().filter(|c| mapping.classes.contains_key(**c)).count() as u64;
    if listed == 0 {
        let all = report.classes.mapped + report.classes.not_found;
        let mut text = format!(
            "This mapping lists none of the trace's {} classes: it belongs to another app or build",
            group_digits(all)
        );
        if !facts.seen_as_original.is_empty() {
            text += &format!(
                "; {} of the trace's classes are original names in it, so the trace may not be obfuscated at all",
                group_digits(facts.seen_as_original.len() as u64)
            );
        }
        warnings.push(text);
        return warnings;
    }
    let expected = listed + missing_obfuscated;
    if expected >= 4 && missing_obfuscated * 2 > expected {
        warnings.push(format!(
            "This mapping may belong to another build: of the trace's {} classes in its obfuscated packages, only {} \
             are listed",
            group_digits(expected),
            group_digits(listed)
        ));
    }
    let m = report.methods;
    let methods = m.mapped + m.ambiguous + m.not_found;
    if methods >= 4 && m.not_found * 2 > methods {
        warnings.push(format!(
            "This mapping may belong to another build: of the {} methods of listed classes, {} are not in it",
            group_digits(methods),
            group_digits(m.not_found)
        ));
    }
    warnings
}
