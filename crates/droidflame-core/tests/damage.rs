//! Damaged input never panics: every layout and small corpus files, truncated, with bytes
//! flipped, header fields overwritten and garbage appended, end in a profile (whose
//! products all work) or an error. Test builds check arithmetic overflow, so this also
//! catches wrapping on garbage values.

use droidflame_core::products::{self, FlameOptions, FoldedOptions, GraphScope};
use droidflame_core::{analyze, Clock};
use droidflame_testkit::atrace::Capture;
use droidflame_testkit::scenario::{generate, Config, Rng};
use droidflame_testkit::{corpus_file, gzip, Layout, TimeFirst};

fn exercise(bytes: &[u8]) {
    let Ok(profile) = analyze(bytes) else { return };
    let _ = products::summary_json(&profile);
    let _ = products::frame_table(&profile);
    for clock in [Clock::Wall, Clock::Cpu] {
        let _ = products::folded(&profile, &FoldedOptions { clock: Some(clock), thread: None, ..Default::default() });
    }
    if profile.records < 5_000 {
        let _ = products::flame_svg(&profile, GraphScope::AllThreads, &FlameOptions::default());
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
    for name in ["perflib-basic.trace", "perflib-exception.trace", "perflib-basic-api10.trace", "perflib-header.trace"]
    {
        out.push(corpus_file(name));
    }
    let capture = every_marker_kind();
    out.extend([
        capture.text(),
        capture.ctrace(3),
        capture.html_legacy(),
        capture.html_trace_data(),
        capture.html_viewer_data(),
        capture.json(),
    ]);
    for name in [
        "atrace/catapult-systrace-compressed_atrace_data.ctrace",
        "atrace/perfetto-bad_print.systrace",
        "atrace/perfetto-sched_blocked_systrace.systrace",
        "atrace/catapult-tracing-trivial_systrace.html",
    ] {
        out.push(corpus_file(name));
    }
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
fn truncations_never_panic() {
    for bytes in samples() {
        let step = (bytes.len() / 300).max(1);
        for cut in (0..bytes.len()).step_by(step) {
            exercise(&bytes[..cut]);
        }
    }
}

#[test]
fn flipped_bytes_never_panic() {
    let mut rng = Rng::new(42);
    for bytes in samples() {
        for _ in 0..300 {
            let mut damaged = bytes.clone();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(damaged.len() as u64) as usize;
                damaged[at] = rng.next_u64() as u8;
            }
            exercise(&damaged);
        }
    }
}

#[test]
fn header_fields_overwritten_never_panic() {
    let mut rng = Rng::new(7);
    for bytes in samples() {
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
                exercise(&damaged);
            }
        }
    }
}

#[test]
fn garbage_appended_or_alone_never_panics() {
    let mut rng = Rng::new(9);
    for bytes in samples() {
        for len in [1, 3, 14, 100, 5000] {
            let mut damaged = bytes.clone();
            damaged.extend((0..len).map(|_| rng.next_u64() as u8));
            exercise(&damaged);
        }
    }
    for prefix in
        [&b"*version\n"[..], b"SLOW\x03\x00", b"SLOW\xf3\x00\x20\x00", b"SLOW\x05\x00", b"SLOW\xf5\x00", b"\x1f\x8b"]
    {
        for _ in 0..200 {
            let mut junk = prefix.to_vec();
            junk.extend((0..rng.below(400)).map(|_| rng.next_u64() as u8));
            exercise(&junk);
        }
    }
}
