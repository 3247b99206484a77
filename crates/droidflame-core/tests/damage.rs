//! Damaged input: every layout and small corpus files, truncated, with bytes flipped,
//! header fields overwritten and garbage appended. Each case ends in an error that says
//! what is wrong, or in a profile whose products all work and which reports no more than
//! the whole input did unless a repair counts the difference; a cut the format can tell
//! is marked. Test builds check arithmetic overflow, so this also catches wrapping on
//! garbage values.

use droidflame_core::{Analysis, Error};
use droidflame_testkit::atrace::Capture;
use droidflame_testkit::exercise::{assert_damage_told, exercise, Damage};
use droidflame_testkit::scenario::{generate, Config, Rng};
use droidflame_testkit::{corpus_file, gzip, Layout, TimeFirst};

/// Chunks of this many bytes: small enough that damage falls across chunk edges.
const CHUNK: usize = 997;

/// Each sample with what it gives whole: a profile that needed no repair for being cut,
/// except for the corpus file that is only a header (its damage need only not panic).
fn wholes() -> Vec<(Vec<u8>, Option<Analysis>)> {
    samples()
        .into_iter()
        .enumerate()
        .map(|(i, bytes)| {
            let whole = match exercise(&bytes, CHUNK) {
                Ok(whole) => Some(whole),
                Err(error) if bytes == corpus_file("perflib-header.trace") => {
                    assert!(error.message().contains("version"), "{error}");
                    None
                }
                Err(error) => panic!("sample {i} whole: {error}"),
            };
            assert!(whole.as_ref().is_none_or(|w| !w.profile.facts.repairs.truncated), "sample {i} is whole");
            (bytes, whole)
        })
        .collect()
}

/// Errors and profiles seen, so that a test shows it reached both.
#[derive(Default)]
struct Seen {
    errors: u32,
    profiles: u32,
}

impl Seen {
    fn check(
        &mut self,
        case: &str,
        bytes: &[u8],
        whole: &Option<Analysis>,
        damage: Damage,
        result: &Result<Analysis, Error>,
    ) {
        if let Some(whole) = whole {
            assert_damage_told(case, bytes, whole, damage, result);
        }
        match result {
            Ok(_) => self.profiles += 1,
            Err(_) => self.errors += 1,
        }
    }

    fn reached_both(&self, test: &str) {
        assert!(self.errors > 0 && self.profiles > 0, "{test}: {} errors, {} profiles", self.errors, self.profiles);
    }
}

fn samples() -> Vec<Vec<u8>> {
    let config = Config { threads: 3, events_per_thread: 120, ..Config::default() };
    let trace = generate(7, &config).trace;
    let v2 = generate(7, &Config { pointer_ids: true, ..config }).trace;
    let mut out = vec![
        trace.write(&Layout::ART_REGULAR),
        trace.write(&Layout::Regular { version: 1, data_offset: 16, record_size: None }),
        trace.write(&Layout::ART_STREAMING),
        v2.write(&Layout::V2_FILE),
        v2.write(&Layout::V2 { streaming: true, nanos: false, summary: true, block_records: 7, carry_state: true }),
        v2.write_time_first(&TimeFirst { counter_hz: 19_200_000, block_records: 9 }),
        gzip(&trace.write(&Layout::ART_REGULAR)),
    ];
    // Corpus files join the generated samples where the corpus is here.
    let corpus = droidflame_testkit::corpus_present("damage::samples (the corpus files among them)");
    let names = ["perflib-basic.trace", "perflib-exception.trace", "perflib-basic-api10.trace", "perflib-header.trace"];
    out.extend(names.into_iter().filter(|_| corpus).map(corpus_file));
    let capture = every_marker_kind();
    out.extend([
        capture.text(),
        capture.ctrace(1),
        capture.ctrace(3),
        capture.html_legacy(),
        capture.html_trace_data(),
        capture.html_viewer_data(),
        capture.json(),
    ]);
    let names = [
        "atrace/catapult-systrace-compressed_atrace_data.ctrace",
        "atrace/perfetto-bad_print.systrace",
        "atrace/perfetto-sched_blocked_systrace.systrace",
        "atrace/catapult-tracing-trivial_systrace.html",
    ];
    out.extend(names.into_iter().filter(|_| corpus).map(corpus_file));
    out
}

/// A system trace with every marker kind, scheduler events and a counter.
fn every_marker_kind() -> Capture {
    let mut c = Capture::new();
    let ms = 1_000_000;
    c.switch(0, 0, ("swapper/0", 0), "R", ("app", 5));
    for (i, payload) in [
        "B|5|a",
        "S|5|load|1",
        "B|5|b",
        "C|5|n|3",
        "E|5",
        "I|5|i",
        "G|5|T|x|2",
        "F|5|load|1",
        "H|5|T|2",
        "N|5|T|y",
        "E",
    ]
    .iter()
    .enumerate()
    {
        c.mark("app", 5, 5, (i as u64 + 1) * ms, payload);
    }
    c.switch(0, 20 * ms, ("app", 5), "S", ("swapper/0", 0));
    c
}

#[test]
fn truncations_give_an_error_or_less_marked_as_cut() {
    let mut seen = Seen::default();
    for (i, (bytes, whole)) in wholes().iter().enumerate() {
        let step = (bytes.len() / 300).max(1);
        let parts = *bytes == every_marker_kind().ctrace(3);
        for cut in (0..bytes.len()).step_by(step) {
            let result = exercise(&bytes[..cut], CHUNK);
            let damage = if parts { Damage::CutBetweenParts(cut) } else { Damage::CutAt(cut) };
            seen.check(&format!("sample {i} cut at {cut}"), bytes, whole, damage, &result);
        }
    }
    seen.reached_both("truncations");
}

#[test]
fn flipped_bytes_give_an_error_or_their_repairs() {
    let mut rng = Rng::new(42);
    let mut seen = Seen::default();
    for (i, (bytes, whole)) in wholes().iter().enumerate() {
        for round in 0..300 {
            let mut damaged = bytes.clone();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(damaged.len() as u64) as usize;
                damaged[at] = rng.next_u64() as u8;
            }
            let result = exercise(&damaged, CHUNK);
            seen.check(&format!("sample {i} flip round {round}"), bytes, whole, Damage::Changed, &result);
        }
    }
    seen.reached_both("flipped bytes");
}

#[test]
fn header_fields_overwritten_give_an_error_or_their_repairs() {
    let mut rng = Rng::new(7);
    let mut seen = Seen::default();
    for (i, (bytes, whole)) in wholes().iter().enumerate() {
        // The binary header starts at `SLOW`; overwrite each of its first 32 bytes with
        // extreme values.
        let Some(slow) = bytes.windows(4).position(|w| w == b"SLOW") else {
            continue;
        };
        for offset in 4..32 {
            for value in [0x00, 0xFF, 0x80, 0x7F, rng.next_u64() as u8] {
                let mut damaged = bytes.clone();
                if let Some(b) = damaged.get_mut(slow + offset) {
                    *b = value;
                }
                let result = exercise(&damaged, CHUNK);
                seen.check(
                    &format!("sample {i} header byte {offset} = {value:#x}"),
                    bytes,
                    whole,
                    Damage::Changed,
                    &result,
                );
            }
        }
    }
    seen.reached_both("header fields");
}

#[test]
fn garbage_appended_or_alone_gives_an_error_or_its_repairs() {
    let mut rng = Rng::new(9);
    let mut seen = Seen::default();
    for (i, (bytes, whole)) in wholes().iter().enumerate() {
        for len in [1, 3, 14, 100, 5000] {
            let mut damaged = bytes.clone();
            damaged.extend((0..len).map(|_| rng.next_u64() as u8));
            let result = exercise(&damaged, CHUNK);
            seen.check(&format!("sample {i} with {len} bytes of garbage"), bytes, whole, Damage::Changed, &result);
        }
    }
    seen.reached_both("garbage appended");
    for prefix in
        [&b"*version\n"[..], b"SLOW\x03\x00", b"SLOW\xf3\x00\x20\x00", b"SLOW\x05\x00", b"SLOW\xf5\x00", b"\x1f\x8b"]
    {
        for _ in 0..200 {
            let mut junk = prefix.to_vec();
            junk.extend((0..rng.below(400)).map(|_| rng.next_u64() as u8));
            // Garbage alone has no whole to compare with: it must end in an error or a
            // profile whose products work.
            let _ = exercise(&junk, CHUNK);
        }
    }
}

/// The offset of the first entry block of a V2 file (after the 32-byte header, thread and
/// method packets).
fn first_v2_block(bytes: &[u8]) -> usize {
    let mut at = 32;
    loop {
        let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]) as usize;
        at += match bytes[at] {
            0 => 7 + u16_at(at + 5),
            1 => 11 + u16_at(at + 9),
            2 => return at,
            other => panic!("packet type {other} before the first block"),
        };
    }
}

#[test]
fn a_v2_block_holding_another_count_than_its_header_says_is_counted_as_damaged() {
    let config = Config { threads: 2, events_per_thread: 40, pointer_ids: true, ..Config::default() };
    let trace = generate(3, &config).trace;
    for bytes in [trace.write(&Layout::V2_FILE), trace.write_time_first(&TimeFirst { counter_hz: 0, block_records: 9 })]
    {
        let whole = exercise(&bytes, CHUNK).unwrap();
        assert_eq!(whole.profile.facts.repairs.damaged_parts, 0);
        let mut damaged = bytes.clone();
        damaged[first_v2_block(&bytes) + 5] ^= 1;
        let read = exercise(&damaged, CHUNK).unwrap();
        assert_eq!(read.profile.facts.records, whole.profile.facts.records, "the records are kept as read");
        assert_eq!(read.profile.facts.repairs.damaged_parts, 1);
        assert!(read
            .profile
            .facts
            .warnings
            .iter()
            .any(|w| w.contains("another number of records than their header says")));
    }
}
