//! The summary's `notes`: every repair the analysis made and every warning, each as a count
//! and one sentence, so that a viewer shows them without knowing what any counter means.
//! A warning that details a repair (the byte where a file was cut, say) is told inside that
//! repair's note, not again on its own.

use super::frames::DEFAULT_MAX_DEPTH;
use crate::profile::{Clock, Profile};
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

/// The notes of a profile: repairs first (in the order of `Repairs`), then warnings.
/// `deep_threads`: how many threads have stacks deeper than the drawn depth (the summary
/// has already walked every tree for its `max_depth`).
pub fn notes(profile: &Profile, deep_threads: u64) -> Vec<Note> {
    let r = &profile.repairs;
    let counts: [(&'static str, u64); 18] = [
        ("truncated", r.truncated as u64),
        ("overflow", r.overflow as u64),
        ("unmatched_exits", r.unmatched_exits),
        ("mismatched_exits", r.mismatched_exits),
        ("open_at_end", r.open_at_end),
        ("closed_at_gap", r.closed_at_gap),
        ("unknown_methods", r.unknown_methods),
        ("unknown_threads", r.unknown_threads),
        ("invalid_records", r.invalid_records),
        ("time_wraps", r.time_wraps),
        ("reused_thread_ids", r.reused_thread_ids),
        ("unmatched_ends", r.unmatched_ends),
        ("unparsed_lines", r.unparsed_lines),
        ("out_of_order", r.out_of_order),
        ("too_deep", r.too_deep),
        ("long_names", r.long_names),
        ("damaged_parts", r.damaged_parts),
        ("lost_samples", r.lost_samples),
    ];
    let mut out = Vec::new();
    for (key, count) in counts {
        if count == 0 {
            continue;
        }
        let details: Vec<&str> = profile
            .warnings
            .iter()
            .zip(&profile.warning_repairs)
            .filter(|(_, repair)| **repair == Some(key))
            .map(|(text, _)| text.as_str())
            .collect();
        out.push(Note { key, count, text: repair_text(profile, key, count, &details) });
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
    for (text, repair) in profile.warnings.iter().zip(&profile.warning_repairs) {
        if repair.is_none() {
            out.push(Note { key: "warning", count: 1, text: sentence(text) });
        }
    }
    if let Some(report) = &profile.mapping {
        out.push(Note { key: "mapping", count: report.methods.mapped, text: report.describe() });
        for warning in &report.warnings {
            out.push(Note { key: "mapping_warning", count: 1, text: sentence(warning) });
        }
    }
    out
}

fn repair_text(profile: &Profile, key: &str, count: u64, details: &[&str]) -> String {
    let n = group_digits(count);
    // Where the trace has a wall clock, calls from before tracing and calls still open span
    // to its timeline's edges on it; after lost data, open calls end with their thread's data.
    let wall = profile.has(Clock::Wall);
    let lost_at_end = profile.repairs.truncated || profile.repairs.overflow;
    let lead = match key {
        "truncated" => "The trace is incomplete (cut short); everything before the cut is shown".to_owned(),
        // The decoder's own warning says what overflowed and what to do.
        "overflow" if !details.is_empty() => return sentence(&details.join("; ")),
        "overflow" => "The recording buffer overflowed: later events were dropped".to_owned(),
        "unmatched_exits" if wall => format!(
            "{n} frames were already running when tracing began; each is shown from the start of the trace (from \
             its thread's first record on the CPU clock)"
        ),
        "unmatched_exits" => {
            format!("{n} frames were already running when tracing began; each is shown from its thread's first record")
        }
        "mismatched_exits" => format!("{n} exits closed frames above them that had no exit of their own"),
        "open_at_end" if wall && !lost_at_end => format!(
            "{n} frames were still running at the end; they are closed at the end of the trace (at their thread's \
             last record on the CPU clock)"
        ),
        "open_at_end" => {
            format!("{n} frames were still running at the end; they are closed at their thread's last record")
        }
        "closed_at_gap" => format!(
            "{n} slices were still open where the capture lost events (between two of its dumps); each is closed at \
             the last event before the gap, so that it does not swallow the slices after it"
        ),
        "unknown_methods" => format!("{n} method ids have no name in the trace; they are shown as <unknown 0x…>"),
        "unknown_threads" => format!("{n} threads have no name in the trace; they are shown by id"),
        "invalid_records" => format!("{n} records with an invalid action were skipped"),
        "time_wraps" => format!("Times wrapped around the 32-bit range {n} times and were unwrapped"),
        "reused_thread_ids" => format!("{n} thread ids were reused by another thread"),
        "unmatched_ends" => {
            format!("{n} slice ends had no open slice (it began before the capture) and were ignored")
        }
        "unparsed_lines" => format!("{n} lines were not trace events and were skipped"),
        "out_of_order" => format!("{n} events were earlier than the event before them"),
        "too_deep" => format!("{n} slices nested deeper than {} were dropped", crate::system::MAX_DEPTH),
        "long_names" => format!(
            "{n} names longer than {} bytes were cut short; they end in \"…\"",
            group_digits(profile.limits.max_name_bytes as u64)
        ),
        "damaged_parts" => format!("{n} damaged parts of the file were skipped"),
        "lost_samples" => format!("{n} samples were lost while recording"),
        other => format!("{other}: {n}"),
    };
    if details.is_empty() {
        format!("{lead}.")
    } else {
        format!("{lead}: {}.", details.join("; ").trim_end_matches('.'))
    }
}

/// A warning as a sentence: capitalised, ending in a full stop.
fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    let mut out: String = chars.next().map(|c| c.to_uppercase().collect()).unwrap_or_default();
    out.push_str(chars.as_str());
    if !out.ends_with(['.', '!', '?']) {
        out.push('.');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::sentence;

    #[test]
    fn warnings_become_sentences() {
        assert_eq!(sentence("the trace was cut"), "The trace was cut.");
        assert_eq!(sentence("Already one."), "Already one.");
        assert_eq!(sentence("élan"), "Élan.");
        assert_eq!(sentence(""), ".");
    }
}
