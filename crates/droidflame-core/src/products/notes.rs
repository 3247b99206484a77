//! The summary's `notes`: every repair the analysis made and every warning, each as a count
//! and one sentence, so that a viewer shows them without knowing what any counter means.
//! A warning that details a repair (the byte where a file was cut, say) is told inside that
//! repair's note, not again on its own.

use super::frames::DEFAULT_MAX_DEPTH;
use crate::analysis::Analysis;
use crate::profile::{sentence, Clock, Repair, RepairContext};
use crate::text::group_digits;
use serde::Serialize;

/// One note for the user.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Note {
    /// The `repairs` field it reports, `merged_depth` for stacks merged in graphs,
    /// `warning`, `mapping` for what a mapping renamed, or `mapping_warning`.
    pub key: &'static str,
    /// How many times it happened (1 for a warning or a yes/no repair).
    pub count: u64,
    /// One or more sentences, starting with a capital letter.
    pub text: String,
}

/// Where the source shown covers less than half of the trace's timeline (a capture whose
/// scheduling or samples fill its ring buffer's last seconds while a few events of other
/// kinds reach back further), where its records run, so that empty time is not read as
/// threads at rest.
fn coverage(profile: &crate::profile::Profile) -> Option<String> {
    if !profile.has(Clock::Wall) || profile.in_range || profile.source().kind.is_heap() {
        return None;
    }
    let recorded = profile.stacks().threads.iter().filter(|t| t.records > 0 && !t.track);
    let first = recorded.clone().map(|t| t.first.wall).min()?;
    let last = recorded.map(|t| t.last.wall).max()?;
    let (start, length) = (profile.system.timeline.start, profile.system.timeline.length());
    let covered = last.saturating_sub(first);
    // A second of the timeline left empty at least: less is no time a person reads as rest.
    if covered * 2 >= length || profile.micros(length - covered) < 1_000_000 {
        return None;
    }
    let seconds = |ticks: u64| format!("{:.2} s", profile.stacks().time_unit.micros_f64(ticks) / 1e6);
    let what = match (profile.count(), profile.stacks().frame_kind) {
        (crate::profile::Count::Samples, _) => "The CPU samples",
        (_, crate::profile::FrameKind::Slice) => "The threads' slices",
        _ => "The calls",
    };
    Some(format!(
        "{what} cover {} to {} of the trace's {}: the rest of its timeline holds events of other kinds only, \
         not threads at rest.",
        seconds(first.saturating_sub(start)),
        seconds(last.saturating_sub(start)),
        seconds(length)
    ))
}

/// The notes of a profile: repairs first (in the order of `Repairs`), then warnings.
/// `deep_threads`: how many threads have stacks deeper than the drawn depth (the summary
/// has already walked every tree for its `max_depth`).
pub fn notes(analysis: &Analysis, deep_threads: u64) -> Vec<Note> {
    let profile = &analysis.profile;
    let context = RepairContext {
        wall: profile.has(Clock::Wall),
        lost_at_end: profile.facts.repairs.truncated || profile.facts.repairs.overflow,
        max_name_bytes: profile.facts.limits.max_name_bytes,
    };
    let mut out = Vec::new();
    for repair in Repair::NOTE_ORDER {
        let count = profile.facts.repairs.count(repair);
        if count == 0 {
            continue;
        }
        let details: Vec<&str> =
            profile.facts.warnings.iter().filter(|w| w.repair == Some(repair)).map(|w| w.text.as_str()).collect();
        out.push(Note { key: repair.key(), count, text: repair.sentence(count, &context, &details) });
    }
    let deep = deep_threads;
    if deep > 0 {
        out.push(Note {
            key: "merged_depth",
            count: deep,
            text: format!(
                "Stacks deeper than {} frames (threads affected: {}) are merged below that depth into one \
                 \"[frames below depth {DEFAULT_MAX_DEPTH}, merged]\" frame in the graphs and folded stacks; \
                 the tables keep every frame.",
                group_digits(DEFAULT_MAX_DEPTH as u64),
                group_digits(deep)
            ),
        });
    }
    for warning in profile.facts.warnings.iter().filter(|w| w.repair.is_none()) {
        out.push(Note { key: "warning", count: 1, text: sentence(warning) });
    }
    if let Some(text) = coverage(profile) {
        out.push(Note { key: "coverage", count: 1, text });
    }
    if let Some(report) = &analysis.mapping {
        out.push(Note { key: "mapping", count: report.methods.mapped, text: report.describe() });
        for warning in &report.warnings {
            out.push(Note { key: "mapping_warning", count: 1, text: sentence(warning) });
        }
    }
    out
}
