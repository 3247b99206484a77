//! The builder's own rules: warnings past the cap, names cut to the limit, which calls are
//! kept.

use super::facts_sink::MAX_WARNINGS;
use super::keep::CallLengths;
use super::names::NameLimit;
use super::*;
use crate::profile::clock::{ClockSet, ClockWords, PerClock, TimeUnit};
use crate::profile::format::FormatInfo;
use crate::profile::frame::FrameKind;
use crate::profile::repairs::Repair;
use crate::profile::source::{SourceKind, Unit};

fn spec() -> FinishSpec {
    spec_of(SourceKind::Calls, ClockSet::Wall)
}

/// What a test decoder hands over: its threads are `kind`, on `clocks`.
pub(super) fn spec_of(kind: SourceKind, clocks: ClockSet) -> FinishSpec {
    FinishSpec {
        format: FormatInfo {
            family: "test",
            layout: "calls",
            kind: "method trace",
            version: 0,
            gzip: false,
            ends_known: true,
            split: false,
            pid: None,
            recorded_us: None,
            details: Vec::new(),
            sampling_interval_us: None,
            description: "a test".into(),
        },
        header: Vec::new(),
        time_unit: TimeUnit::MICROS,
        counters: Vec::new(),
        group_by_process: false,
        timeline: None,
        gaps: Vec::new(),
        main: SourceSpec {
            kind,
            unit: Unit::Micros,
            clocks,
            frame_kind: FrameKind::Method,
            clock_words: ClockWords::ELAPSED_AND_THREAD_CPU,
            preferred_clock: None,
            states_as_frames: false,
        },
        more: Vec::new(),
        main_first: true,
    }
}

#[test]
fn past_fifty_warnings_the_rest_are_counted() {
    let mut b = ProfileBuilder::new(&Options::default());
    (0..MAX_WARNINGS + 3).for_each(|i| b.facts.warn(format!("warning {i}")));
    let profile = b.finish(spec());
    let texts: Vec<&str> = profile.facts.warnings.iter().map(|w| w.text.as_str()).collect();
    assert_eq!(texts.len(), 51);
    assert_eq!((texts[0], texts[49]), ("warning 0", "warning 49"));
    assert_eq!(texts[50], "3 more warnings not shown");
}

#[test]
fn long_names_are_cut_on_a_character_boundary_to_the_limit() {
    let mut names = NameLimit::new(10);
    assert_eq!(names.clip("abcdefghij".into()), "abcdefghij", "10 bytes fit");
    assert_eq!(names.cut, 0);
    assert_eq!(names.clip("abcdefghijk".into()), "abcdefg\u{2026}", "7 bytes and the 3 of `…`");
    // `é` is 2 bytes: 7 would split the fourth.
    assert_eq!(names.clip("\u{e9}".repeat(7)), "\u{e9}\u{e9}\u{e9}\u{2026}");
    assert_eq!(names.cut, 2);
    // Below 4 bytes the limit is 4: one byte and `…`.
    assert_eq!(NameLimit::new(0).clip("abcde".into()), "a\u{2026}");
}

#[test]
fn each_sink_counts_the_names_it_cut_and_the_profile_sums_them() {
    let mut b = ProfileBuilder::new(&Options { max_name_bytes: 5, ..Options::default() });
    let thread = b.stacks.add_thread(1, Some("a long thread name".into()));
    let frame = b.frames.add_frame(1, Some(FrameInfo::named("a long method name".into())));
    b.stacks.name_process(7, "a long process name".into());
    b.stacks.enter(thread, frame, PerClock::new(0, 0));
    b.stacks.exit(thread, frame, PerClock::new(5, 5));
    let profile = b.finish(spec());
    assert_eq!(profile.facts.repairs.long_names, 3);
    assert_eq!(profile.stacks().threads[0].name, "a \u{2026}");
}

#[test]
fn past_the_call_limit_the_longest_half_is_kept() {
    let mut b = ProfileBuilder::new(&Options { keep_calls: true, max_calls: 6, ..Options::default() });
    let thread = b.stacks.add_thread(1, None);
    let frame = b.frames.add_frame(1, None);
    let mut t = 0;
    // Lengths in buckets of their own, back to back.
    for length in [1, 2, 3, 5, 8, 12, 20, 40, 100, 1000] {
        b.stacks.enter(thread, frame, PerClock::new(t, t));
        t += length;
        b.stacks.exit(thread, frame, PerClock::new(t, t));
    }
    b.stacks.check_calls();
    // At most 3 calls (half of 6) reach 24, the start of the bucket above 20's (20 to 23).
    assert_eq!(b.stacks.keep.shortest, 24);
    let kept: Vec<u64> = b.stacks.threads[0].calls.iter().map(|(_, c)| c.duration()).collect();
    assert_eq!(kept, [40, 100, 1000]);
}

#[test]
fn calls_are_kept_where_asked_and_only_there() {
    let one_call_each = |b: &mut ProfileBuilder| {
        let frame = b.frames.add_frame(1, None);
        for tid in [1, 2] {
            let thread = b.stacks.add_thread(tid, None);
            b.stacks.enter(thread, frame, PerClock::new(0, 0));
            b.stacks.exit(thread, frame, PerClock::new(5, 5));
        }
        b.stacks.threads.iter().map(|t| t.calls.len()).collect::<Vec<_>>()
    };
    assert_eq!(one_call_each(&mut ProfileBuilder::new(&Options::default())), [0, 0]);
    let every = Options { keep_calls: true, ..Options::default() };
    assert_eq!(one_call_each(&mut ProfileBuilder::new(&every)), [1, 1]);
    // Reading one thread again keeps its calls alone, whatever the options said.
    let mut b = ProfileBuilder::new(&Options::default());
    b.stacks.keep_only(1);
    assert_eq!(one_call_each(&mut b), [0, 1]);
}

#[test]
fn each_length_falls_in_the_bucket_that_bounds_it() {
    for length in (0..5000).chain([1 << 40, (1 << 40) + 12345, u64::MAX - 1, u64::MAX]) {
        let bucket = CallLengths::bucket(length);
        assert!(CallLengths::lower_bound(bucket) <= length, "{length}");
        if bucket + 1 < CallLengths::BUCKETS {
            assert!(length < CallLengths::lower_bound(bucket + 1), "{length}");
        }
    }
    assert_eq!(CallLengths::bucket(u64::MAX), CallLengths::BUCKETS - 1);
    let mut lengths = CallLengths::default();
    [1, 2, 3, 100, 200, 300].iter().for_each(|&l| lengths.add(l));
    assert_eq!(lengths.shortest_within(3), 4);
    assert_eq!(lengths.shortest_within(6), 0);
    assert_eq!(lengths.shortest_within(0), 320);
    // Calls in the last bucket: no length is long enough to keep fewer.
    lengths.add(u64::MAX);
    assert_eq!(lengths.shortest_within(0), u64::MAX);
    assert_eq!(lengths.shortest_within(1), 320);
}

#[test]
fn the_facts_of_two_parts_add_up_in_order() {
    let mut earlier = ProfileBuilder::new(&Options::default());
    (0..MAX_WARNINGS - 1).for_each(|i| earlier.facts.warn(format!("earlier {i}")));
    earlier.facts.repairs.damaged_parts = 2;
    let mut later = earlier.continuing();
    assert!(later.facts.warnings.is_empty(), "a later part says only what it read");
    later.facts.warn_about(Repair::DamagedParts, "a damaged part");
    (0..MAX_WARNINGS).for_each(|i| later.facts.warn(format!("later {i}")));
    later.facts.repairs.damaged_parts = 3;
    later.facts.rereadable = true;
    let merged = earlier.merge(later).expect("no heap dumps");
    assert!(merged.facts.rereadable);
    let profile = merged.finish(spec());
    assert_eq!(profile.facts.repairs.damaged_parts, 5);
    let warnings = &profile.facts.warnings;
    // 49 of the earlier part's, the later part's first: then the cap (50); the later part
    // dropped one of its 51 itself, and the merge 49 more.
    assert_eq!(warnings.len(), MAX_WARNINGS + 1);
    assert_eq!(warnings[MAX_WARNINGS - 2].text, format!("earlier {}", MAX_WARNINGS - 2));
    assert_eq!(
        (warnings[MAX_WARNINGS - 1].text.as_str(), warnings[MAX_WARNINGS - 1].repair),
        ("a damaged part", Some(Repair::DamagedParts))
    );
    assert_eq!(warnings[MAX_WARNINGS].text, "50 more warnings not shown");
}

#[test]
fn a_frame_is_named_by_its_last_description_and_its_id_until_then() {
    let mut b = ProfileBuilder::new(&Options { max_methods: 2, ..Options::default() });
    let described = b.frames.add_frame(7, None);
    let never = b.frames.add_frame(0x1a4, None);
    assert_eq!((b.frames.frame_id(described), b.frames.frame_id(never)), (7, 0x1a4));
    assert!(!b.frames.is_described(described));
    b.frames.describe_frame(described, FrameInfo::named("first".into()));
    b.frames.describe_frame(described, FrameInfo::named("last".into()));
    assert!(b.frames.is_described(described) && !b.frames.is_described(never));
    assert_eq!(b.frames.slot_ids(), [7, 0x1a4]);
    let thread = b.stacks.add_thread(1, None);
    for frame in [described, never] {
        b.stacks.enter(thread, frame, PerClock::new(0, 0));
        b.stacks.exit(thread, frame, PerClock::new(5, 5));
    }
    assert!(b.limit_error().is_none());
    let profile = b.finish(spec());
    let names: Vec<&str> = profile.frames.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["last", ""]);
    assert!(profile.frames[1].unknown && profile.frames[1].id == 0x1a4);
}

#[test]
fn past_the_frame_limit_a_frame_is_slot_0_and_the_reading_stops() {
    let mut b = ProfileBuilder::new(&Options { max_methods: 1, ..Options::default() });
    assert_eq!(b.frames.add_frame(1, None), 0);
    assert_eq!(b.frames.add_frame(2, None), 0, "beyond the limit");
    let error = b.limit_error().expect("the frame limit was reached");
    assert!(error.to_string().contains("more than 1 distinct methods"), "{error}");
}

#[test]
fn call_lengths_added_together_count_both() {
    let mut a = CallLengths::default();
    a.add(5);
    a.add(100);
    let mut b = CallLengths::default();
    b.add(5);
    b.add(1000);
    a.add_all(&b);
    assert_eq!(a.total(), 4);
    // From the longest down: 1000, then 100 (two reached), then both 5s (four).
    assert_eq!(a.shortest_within(1), CallLengths::lower_bound(CallLengths::bucket(100) + 1));
    assert_eq!(a.shortest_within(2), 6);
    assert_eq!(a.shortest_within(4), 0);
}
