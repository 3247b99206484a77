//! Repairs: what reading a damaged or unusual trace had to reconstruct. Each repair is
//! declared once below, which gives its counter in `Repairs`, its variant of `Repair`, its
//! key (the counter's name in the summary) and its count; `Repair::sentence` says it in
//! words. Warnings that detail a repair carry it.

use std::fmt;
use std::ops::Deref;

/// Slices nested deeper than this are dropped and counted (Perfetto's limit; real slices
/// nest a few deep, but begin/end pairs that damage left unbalanced can nest without end).
pub const MAX_SLICE_DEPTH: usize = 512;

/// A repair's counter made of two halves' counters.
trait Tally {
    fn tally(self, later: Self) -> Self;
}

impl Tally for u64 {
    fn tally(self, later: u64) -> u64 {
        self + later
    }
}

impl Tally for bool {
    fn tally(self, later: bool) -> bool {
        self || later
    }
}

/// Declares every repair once: the counter, the variant and the key come from one line.
/// Counters marked `("is_zero")` are left out of the summary while zero.
macro_rules! repairs {
    ($($(#[doc = $doc:literal])* $field:ident: $ty:ident $(($skip:literal))? => $variant:ident,)*) => {
        /// Every repair the builder made; non-zero counters mean the numbers were
        /// reconstructed. Serialised as is into the summary's `repairs`.
        #[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
        #[serde(default)]
        pub struct Repairs {
            $($(#[doc = $doc])* $(#[serde(skip_serializing_if = $skip)])? pub $field: $ty,)*
        }

        /// One kind of repair.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
        pub enum Repair {
            $($(#[doc = $doc])* $variant,)*
        }

        impl Repair {
            /// Every repair, in the order of `Repairs`' fields.
            pub const ALL: &'static [Repair] = &[$(Repair::$variant),*];

            /// Its counter's name in `Repairs` and the summary.
            pub const fn key(self) -> &'static str {
                match self {
                    $(Repair::$variant => stringify!($field),)*
                }
            }
        }

        impl Repairs {
            /// Adds `later`'s repairs, made reading what came after this one's input: counts
            /// add up, a yes/no repair was made where either half made it.
            pub(crate) fn add(&mut self, later: &Repairs) {
                $(self.$field = Tally::tally(self.$field, later.$field);)*
            }

            /// How many times `repair` was made (1 for a yes/no repair that was).
            pub fn count(&self, repair: Repair) -> u64 {
                match repair {
                    $(Repair::$variant => self.$field as u64,)*
                }
            }
        }
    };
}

repairs! {
    /// Exits of frames not on the stack: entered before tracing began, rebuilt from the
    /// thread's first event.
    unmatched_exits: u64 => UnmatchedExits,
    /// Exits of a frame deeper in the stack; the frames above were closed at that time.
    mismatched_exits: u64 => MismatchedExits,
    /// Frames still open at the end, closed at their thread's last event.
    open_at_end: u64 => OpenAtEnd,
    /// Slices still open where the capture lost events (the end of one of several dumps),
    /// closed at the last event before the loss.
    closed_at_gap: u64 ("is_zero") => ClosedAtGap,
    /// Frames entered but never described (shown by their id).
    unknown_methods: u64 => UnknownMethods,
    /// Threads with events but no name.
    unknown_threads: u64 => UnknownThreads,
    /// The input ended early (a partial record or chunk, a missing summary or end marker).
    truncated: bool => Truncated,
    /// The recorder ran out of buffer and dropped later events.
    overflow: bool => Overflow,
    /// Records that neither enter nor exit (an invalid action), skipped.
    invalid_records: u64 => InvalidRecords,
    /// Times that wrapped around 2^32 ticks and were unwrapped.
    time_wraps: u64 => TimeWraps,
    /// Thread ids that named two threads in one trace (id reuse).
    reused_thread_ids: u64 => ReusedThreadIds,
    /// Ends of slices with no open slice on their thread (or no matching begin), ignored.
    unmatched_ends: u64 ("is_zero") => UnmatchedEnds,
    /// Text lines after the first event that are not events (multi-line prints, damage),
    /// skipped.
    unparsed_lines: u64 ("is_zero") => UnparsedLines,
    /// Events earlier than the one before them (merged or concatenated dumps).
    out_of_order: u64 ("is_zero") => OutOfOrder,
    /// Slice begins beyond the slice-depth limit, dropped.
    too_deep: u64 ("is_zero") => TooDeep,
    /// Samples the recorder lost (it says how many).
    lost_samples: u64 ("is_zero") => LostSamples,
    /// Names longer than the name-length limit, cut.
    long_names: u64 ("is_zero") => LongNames,
    /// Damaged parts of the input (a compressed dump, a packet), each skipped from the
    /// damage on to where reading can resume.
    damaged_parts: u64 ("is_zero") => DamagedParts,
    /// A heap dump's objects whose class (or a superclass) it never describes: kept, by
    /// the class's id, without a size where the class's layout is missing.
    objects_without_class: u64 ("is_zero") => ObjectsWithoutClass,
    /// A heap dump's references to objects it does not hold, dropped.
    dangling_references: u64 ("is_zero") => DanglingReferences,
    /// A heap dump's GC roots of objects it does not hold, dropped.
    dangling_roots: u64 ("is_zero") => DanglingRoots,
    /// A heap dump's objects given twice (by one id); the first is kept.
    duplicate_objects: u64 ("is_zero") => DuplicateObjects,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// What a repair's sentence depends on besides its count.
#[derive(Debug, Clone, Copy)]
pub struct RepairContext {
    /// The trace has a wall clock: frames open at its edges span to the timeline's edges.
    pub wall: bool,
    /// Data was lost at the end (cut short, or the buffer overflowed).
    pub lost_at_end: bool,
    /// `Options::max_name_bytes`.
    pub max_name_bytes: usize,
}

impl Repair {
    /// The order in which notes tell repairs: the worst (data lost) first.
    pub const NOTE_ORDER: [Repair; 22] = [
        Repair::Truncated,
        Repair::Overflow,
        Repair::UnmatchedExits,
        Repair::MismatchedExits,
        Repair::OpenAtEnd,
        Repair::ClosedAtGap,
        Repair::UnknownMethods,
        Repair::UnknownThreads,
        Repair::InvalidRecords,
        Repair::TimeWraps,
        Repair::ReusedThreadIds,
        Repair::UnmatchedEnds,
        Repair::UnparsedLines,
        Repair::OutOfOrder,
        Repair::TooDeep,
        Repair::LongNames,
        Repair::DamagedParts,
        Repair::ObjectsWithoutClass,
        Repair::DanglingReferences,
        Repair::DanglingRoots,
        Repair::DuplicateObjects,
        Repair::LostSamples,
    ];

    /// The repair in one or more sentences for the user, made `count` times; `details`
    /// are the warnings that detail it (where a file was cut, say).
    pub fn sentence(self, count: u64, context: &RepairContext, details: &[&str]) -> String {
        let n = group_digits(count);
        // `1 thread has`, `3 threads have`: the count with its words, one or many.
        let of = |one: &str, many: &str| format!("{n} {}", if count == 1 { one } else { many });
        let (each, they, them, their, were) = if count == 1 {
            ("it is", "it is", "it", "its", "was")
        } else {
            ("each is", "they are", "them", "their", "were")
        };
        let RepairContext { wall, lost_at_end, max_name_bytes } = *context;
        let lead = match self {
            Repair::Truncated => "The trace is incomplete (cut short); everything before the cut is shown".to_owned(),
            // The reader's own warning says what overflowed and what to do.
            Repair::Overflow if !details.is_empty() => return sentence(&details.join("; ")),
            Repair::Overflow => "The recording buffer overflowed: later events were dropped".to_owned(),
            // Where the trace has a wall clock, calls from before tracing and calls still
            // open span to its timeline's edges on it; after lost data, open calls end
            // with their thread's data.
            Repair::UnmatchedExits if wall => format!(
                "{} already running when tracing began; {} shown from the start of the trace \
                 (from its thread's first record on the CPU clock)",
                of("frame was", "frames were"),
                each
            ),
            Repair::UnmatchedExits => format!(
                "{} already running when tracing began; {each} shown from its thread's first record",
                of("frame was", "frames were")
            ),
            Repair::MismatchedExits => {
                format!("{} frames above {} that had no exit of their own", of("exit closed", "exits closed"), them)
            }
            Repair::OpenAtEnd if wall && !lost_at_end => format!(
                "{} still running at the end; {} closed at the end of the trace (at {} thread's last record on the \
                 CPU clock)",
                of("frame was", "frames were"),
                they,
                their
            ),
            Repair::OpenAtEnd => format!(
                "{} still running at the end; {they} closed at {their} thread's last record",
                of("frame was", "frames were")
            ),
            Repair::ClosedAtGap => format!(
                "{} still open where the capture lost events (between two of its dumps); {each} closed at the last \
                 event before the gap, so that it does not swallow the slices after it",
                of("slice was", "slices were")
            ),
            Repair::UnknownMethods => {
                format!(
                    "{} no name in the trace; {they} shown as <unknown 0x…>",
                    of("method id has", "method ids have")
                )
            }
            Repair::UnknownThreads => {
                format!("{} no name in the trace; {they} shown by id", of("thread has", "threads have"))
            }
            Repair::InvalidRecords => format!("{} with an invalid action {were} skipped", of("record", "records")),
            Repair::TimeWraps => {
                format!("Times wrapped around the 32-bit range {} and were unwrapped", of("time", "times"))
            }
            Repair::ReusedThreadIds => format!("{} reused by another thread", of("thread id was", "thread ids were")),
            Repair::UnmatchedEnds => format!(
                "{} no open slice (it began before the capture) and {were} ignored",
                of("slice end had", "slice ends had")
            ),
            Repair::UnparsedLines => {
                format!("{} and {were} skipped", of("line was not a trace event", "lines were not trace events"))
            }
            Repair::OutOfOrder => format!("{} earlier than the event before {}", of("event was", "events were"), them),
            Repair::TooDeep => format!("{} nested deeper than {MAX_SLICE_DEPTH} {were} dropped", of("slice", "slices")),
            Repair::LongNames => format!(
                "{} longer than {} bytes {were} cut short; {} in \"…\"",
                of("name", "names"),
                group_digits(max_name_bytes as u64),
                if count == 1 { "it ends" } else { "they end" }
            ),
            Repair::DamagedParts => format!("{} of the file {were} skipped", of("damaged part", "damaged parts")),
            Repair::LostSamples => format!("{} lost while recording", of("sample was", "samples were")),
            Repair::ObjectsWithoutClass => format!(
                "{} of a class the dump does not describe; {they} counted under the class's id, with no size where \
                 its fields are unknown",
                of("object is", "objects are")
            ),
            Repair::DanglingReferences => {
                format!("{} to objects not in the dump {were} dropped", of("reference", "references"))
            }
            Repair::DanglingRoots => format!("{} of objects not in the dump {were} dropped", of("GC root", "GC roots")),
            Repair::DuplicateObjects => {
                format!("{} given twice in the dump; the first of each is kept", of("object was", "objects were"))
            }
        };
        if details.is_empty() {
            format!("{lead}.")
        } else {
            format!("{lead}: {}.", details.join("; ").trim_end_matches('.'))
        }
    }
}

/// A plain-language note about what was repaired or guessed, for the user.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Warning {
    /// What happened, in words.
    pub text: String,
    /// The repair it details, if any: notes then tell it with that repair, not on its own.
    pub repair: Option<Repair>,
}

impl Deref for Warning {
    type Target = str;

    fn deref(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// A warning as a sentence: capitalised, ending in a full stop.
pub fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    let mut out: String = chars.next().map(|c| c.to_uppercase().collect()).unwrap_or_default();
    out.push_str(chars.as_str());
    if !out.ends_with(['.', '!', '?']) {
        out.push('.');
    }
    out
}

/// A count and what it counts, one or many: `counted(1, "byte", "bytes")` is `1 byte`,
/// `counted(1234, …)` `1,234 bytes`.
pub fn counted(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", group_digits(n), if n == 1 { one } else { many })
}

/// `was` after a count of one, else `were`.
pub fn were(n: u64) -> &'static str {
    if n == 1 {
        "was"
    } else {
        "were"
    }
}

/// `1234567` as `1,234,567`, for numbers in messages.
pub fn group_digits(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_and_many_read_as_sentences() {
        let context = RepairContext { wall: true, lost_at_end: false, max_name_bytes: 4096 };
        let say = |repair: Repair, count| repair.sentence(count, &context, &[]);
        assert_eq!(say(Repair::UnknownThreads, 1), "1 thread has no name in the trace; it is shown by id.");
        assert_eq!(say(Repair::UnknownThreads, 4), "4 threads have no name in the trace; they are shown by id.");
        assert_eq!(
            say(Repair::UnmatchedExits, 1),
            "1 frame was already running when tracing began; it is shown from the start of the trace (from its \
             thread's first record on the CPU clock)."
        );
        assert_eq!(say(Repair::InvalidRecords, 1), "1 record with an invalid action was skipped.");
        assert_eq!(say(Repair::UnparsedLines, 2), "2 lines were not trace events and were skipped.");
        assert_eq!(say(Repair::LongNames, 1), "1 name longer than 4,096 bytes was cut short; it ends in \"…\".");
        assert_eq!(say(Repair::TimeWraps, 1), "Times wrapped around the 32-bit range 1 time and were unwrapped.");
        // No sentence of any repair counts one thing as many ("1 frames were").
        for &repair in Repair::ALL {
            let text = say(repair, 1);
            let counted = text.split_once("1 ").map_or("", |(_, rest)| rest);
            assert!(!counted.contains("s were") && !counted.contains("s have"), "{repair:?}: {text}");
        }
    }

    #[test]
    fn warnings_become_sentences() {
        assert_eq!(sentence("the trace was cut"), "The trace was cut.");
        assert_eq!(sentence("Already one."), "Already one.");
        assert_eq!(sentence("élan"), "Élan.");
        assert_eq!(sentence(""), ".");
    }

    #[test]
    fn notes_tell_every_repair_once() {
        let mut order = Repair::NOTE_ORDER.to_vec();
        order.sort_by_key(|r| Repair::ALL.iter().position(|a| a == r));
        assert_eq!(order, Repair::ALL);
    }

    #[test]
    fn keys_are_the_summary_names_and_counts_read_their_counter() {
        let repairs = Repairs { truncated: true, too_deep: 7, ..Repairs::default() };
        let json = serde_json::to_value(&repairs).unwrap();
        let object = json.as_object().unwrap();
        for &repair in Repair::ALL {
            let expected = match repair {
                Repair::Truncated => 1,
                Repair::TooDeep => 7,
                _ => 0,
            };
            assert_eq!(repairs.count(repair), expected, "{repair:?}");
            // Optional counters are left out while zero; every other key is there.
            let shown = object.get(repair.key());
            assert!(shown.is_some() || expected == 0, "{} missing", repair.key());
        }
        assert_eq!(object.len(), 10 + 1, "the ten always-shown counters and too_deep");
        let text = serde_json::to_string(&repairs).unwrap();
        assert!(text.starts_with("{\"unmatched_exits\":0,"), "{text}");
    }
}

/// Repairs sent elsewhere (a piece read on another worker) as the summary writes them:
/// the summary leaves zero counters out, which a format without names cannot follow.
pub(crate) mod as_text {
    use super::Repairs;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub(crate) fn serialize<S: Serializer>(repairs: &Repairs, s: S) -> Result<S::Ok, S::Error> {
        serde_json::to_string(repairs).map_err(serde::ser::Error::custom)?.serialize(s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Repairs, D::Error> {
        serde_json::from_str(&String::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}
