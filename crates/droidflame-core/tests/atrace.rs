//! atrace / systrace captures: the corpus files with the facts their SOURCES.md rows
//! give, and synthetic captures (testkit `atrace` writer) for each line variant, each
//! container and each known edge case of captures.

use droidflame_core::products::{self, FoldedOptions};
use droidflame_core::profile::FrameKind;
use droidflame_core::{analyze, analyze_with, Analyzer, Clock, ClockSet, ErrorKind, Options, Profile};
use droidflame_testkit::atrace::{Capture, Columns};
use droidflame_testkit::{corpus_dir, corpus_file, gzip};

fn folded(p: &Profile) -> String {
    products::folded(p, &FoldedOptions::default()).unwrap()
}

fn folded_cpu(p: &Profile) -> String {
    products::folded(p, &FoldedOptions { clock: Some(Clock::Cpu), thread: None, ..Default::default() }).unwrap()
}

/// Calls of every slice on real threads (not async tracks).
fn thread_calls(p: &Profile) -> u64 {
    p.stacks().threads.iter().filter(|t| !t.track).flat_map(|t| t.tree.nodes().iter().skip(1)).map(|n| n.calls).sum()
}

fn counter_samples(p: &Profile) -> u64 {
    p.system.counters.iter().map(|c| c.samples).sum()
}

// ---- the corpus -------------------------------------------------------------------

#[test]
fn toolsbase_ctrace_ten_zlib_chunks() {
    if !droidflame_testkit::corpus_present("atrace::toolsbase_ctrace_ten_zlib_chunks") {
        return;
    }
    let p = analyze(&corpus_file("toolsbase-atrace.ctrace")).unwrap();
    assert_eq!((p.profile.facts.format.family, p.profile.facts.format.layout), ("atrace", "ctrace"));
    assert_eq!(p.profile.stacks().clocks, ClockSet::Dual, "it has sched_switch");
    assert_eq!(p.profile.header_value("cpus"), Some("4"));
    // SOURCES.md: B 21534 / E 21524 (bare) / C 3414 / S 60 / F 62.
    assert_eq!(thread_calls(&p.profile), 21_534);
    assert_eq!(counter_samples(&p.profile), 3_414);
    // Checked independently (per-TID stacks over each dump's inflated text): 38 E with
    // nothing open, 46 slices open at the end of dumps 1-9, 2 at the end of dump 10; 59
    // S/F pairs, 3 F without S, 1 S without F.
    assert_eq!(p.profile.facts.repairs.unmatched_ends, 38 + 3);
    assert_eq!(p.profile.facts.repairs.closed_at_gap, 46);
    assert_eq!(p.profile.facts.repairs.open_at_end, 2 + 1);
    assert_eq!(p.profile.system.gaps.len(), 9, "ten dumps");
    let spans: u64 = p
        .profile
        .stacks()
        .threads
        .iter()
        .filter(|t| t.track)
        .flat_map(|t| t.tree.nodes().iter().skip(1))
        .map(|n| n.calls)
        .sum();
    assert_eq!(spans, 59 + 1);
    assert_eq!(p.profile.facts.repairs.unparsed_lines, 0);
    // 13.3 s from first to last slice event.
    let sliced = || p.profile.stacks().threads.iter().filter(|t| t.records > 0);
    let first = sliced().map(|t| t.first.wall).min().unwrap();
    let last = sliced().map(|t| t.last.wall).max().unwrap();
    assert!((13_000..13_400).contains(&(p.profile.micros(last - first) / 1000)), "{}", p.profile.micros(last - first));
    // Threads are grouped by process and know their scheduling.
    assert!(p
        .profile
        .stacks()
        .threads
        .windows(2)
        .all(|w| w[0].pid.unwrap_or(u32::MAX) <= w[1].pid.unwrap_or(u32::MAX)));
    let busy = p.profile.stacks().threads.iter().find(|t| t.name == "hwservicemanage").unwrap();
    let sched = busy.sched.unwrap();
    assert!(sched.running > 0 && sched.sleeping > 0);
    assert_eq!(busy.process.as_deref(), Some("hwservicemanage"));
}

/// Counters over ranges that cut the trace in pieces: the values written in the pieces add
/// up to those of the whole (SOURCES.md: C 3414), and the values in force in them span
/// the whole trace's range, each piece starting from the value in force at its start.
#[test]
fn ctrace_counters_over_ranges_add_up_to_the_whole() {
    if !droidflame_testkit::corpus_present("atrace::ctrace_counters_over_ranges_add_up_to_the_whole") {
        return;
    }
    let p = analyze_with(&corpus_file("toolsbase-atrace.ctrace"), Options { keep_calls: true, ..Options::default() })
        .unwrap()
        .profile;
    let timeline = p.system.timeline;
    let cuts = [timeline.start, timeline.start + 1_000_000_000, timeline.start + 6_500_000_000, timeline.end + 1];
    let pieces: Vec<Profile> = cuts.windows(2).map(|w| p.within(w[0], w[1]).unwrap()).collect();
    let written: u64 = pieces.iter().flat_map(|piece| &piece.system.counters).map(|c| c.samples).sum();
    assert_eq!(written, 3_414);
    for whole in &p.system.counters {
        let parts: Vec<_> = pieces
            .iter()
            .filter_map(|piece| piece.system.counters.iter().find(|c| (c.pid, &c.name) == (whole.pid, &whole.name)))
            .collect();
        let name = &whole.name;
        assert_eq!(parts.iter().map(|c| c.samples).sum::<u64>(), whole.samples, "{name}");
        assert_eq!(parts.iter().map(|c| c.min).min(), Some(whole.min), "{name}");
        assert_eq!(parts.iter().map(|c| c.max).max(), Some(whole.max), "{name}");
        assert_eq!(parts.last().map(|c| c.last), Some(whole.last), "{name}");
    }
    // VSYNC-sf starts 2.6 s in: the first piece has no value of it, not a value of 0; it
    // flips between 0 and 1 in the others.
    let vsync: Vec<_> =
        pieces.iter().map(|piece| piece.system.counters.iter().find(|c| c.name == "VSYNC-sf")).collect();
    assert!(vsync[0].is_none());
    assert!(vsync[1..].iter().flatten().all(|c| (c.min, c.max) == (0, 1) && c.samples > 0), "{vsync:?}");
    assert_eq!(vsync[1..].iter().flatten().count(), 2);
}

#[test]
fn tracecompass_text_and_its_html_excerpt() {
    if !droidflame_testkit::corpus_present("atrace::tracecompass_text_and_its_html_excerpt") {
        return;
    }
    let p = analyze(&corpus_file("tracecompass-atrace-test.txt")).unwrap();
    assert_eq!(p.profile.facts.format.layout, "text");
    // B 164, E 166 (163 bare plus 3 Chrome `E|pid|name|args`): two ends with nothing open.
    assert_eq!(thread_calls(&p.profile), 164);
    assert_eq!(p.profile.facts.repairs.unmatched_ends, 2);
    assert_eq!(p.profile.stacks().clocks, ClockSet::Dual);
    let p = analyze(&corpus_file("tracecompass-android_trace.html")).unwrap();
    assert_eq!(p.profile.facts.format.layout, "html");
    assert_eq!(thread_calls(&p.profile), 16);
    assert_eq!(p.profile.facts.repairs.unmatched_ends, 2);
}

#[test]
fn legacy_html_reads_like_its_extracted_payload() {
    if !droidflame_testkit::corpus_present("atrace::legacy_html_reads_like_its_extracted_payload") {
        return;
    }
    let html = analyze(&corpus_file("catapult-tracing-android_systrace.html")).unwrap();
    let text = analyze(&corpus_file("atrace/catapult-tracing-android_systrace_html.payload.txt")).unwrap();
    assert_eq!(html.profile.facts.format.layout, "html-legacy");
    // B 5984, E 5982, C 1611, all on the old event name `0:`.
    assert_eq!(thread_calls(&html.profile), 5_984);
    assert_eq!(html.profile.facts.repairs.open_at_end, 2);
    assert_eq!(counter_samples(&html.profile), 1_611);
    // The closing dummy clock-sync line at time 0.0 is no event and no reorder.
    assert_eq!(html.profile.facts.repairs.out_of_order, 0);
    assert_eq!(folded(&html.profile), folded(&text.profile));
    assert_eq!(folded_cpu(&html.profile), folded_cpu(&text.profile));
}

#[test]
fn compressed_and_decompressed_catapult_capture_agree() {
    if !droidflame_testkit::corpus_present("atrace::compressed_and_decompressed_catapult_capture_agree") {
        return;
    }
    let z = analyze(&corpus_file("atrace/catapult-systrace-compressed_atrace_data.ctrace")).unwrap();
    let text = analyze(&corpus_file("atrace/catapult-systrace-decompressed_atrace_data.txt")).unwrap();
    assert_eq!((z.profile.facts.format.layout, text.profile.facts.format.layout), ("ctrace", "text"));
    assert_eq!(folded(&z.profile), folded(&text.profile));
    assert_eq!(thread_calls(&text.profile), 463);
    assert_eq!(counter_samples(&text.profile), 88);
    assert_eq!(text.profile.facts.repairs.unparsed_lines, 0);
    // 17,600 bytes follow the zlib stream in this file; they are skipped, and said so.
    assert!(z.profile.facts.warnings.iter().any(|w| w.contains("17,600 bytes")), "{:?}", z.profile.facts.warnings);
    assert_eq!(z.profile.facts.repairs.unparsed_lines, 0);
}

#[test]
fn every_capture_in_the_corpus_parses() {
    if !droidflame_testkit::corpus_present("atrace::every_capture_in_the_corpus_parses") {
        return;
    }
    let mut names = vec![
        "toolsbase-atrace.ctrace".to_owned(),
        "tracecompass-atrace-test.txt".to_owned(),
        "tracecompass-android_trace.html".to_owned(),
        "petra-systrace-example-2.html".to_owned(),
        "catapult-tracing-android_systrace.html".to_owned(),
    ];
    for entry in std::fs::read_dir(corpus_dir().join("atrace")).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name != "SOURCES.md" {
            names.push(format!("atrace/{name}"));
        }
    }
    assert_eq!(names.len(), 5 + 13);
    for name in names {
        let p = analyze(&corpus_file(&name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(p.profile.facts.format.family, "atrace", "{name}");
        products::summary_json(&p);
        no_track_outlasts_the_trace(&p.profile, &name);
    }
    for name in
        ["perfetto/toolsbase-perflib-perfetto.trace", "perfetto/mstools-perfetto_android12_cpuschedstack.pftrace"]
    {
        let p = analyze(&corpus_file(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        no_track_outlasts_the_trace(&p.profile, name);
    }
}

/// A track's spans lie on rows where none overlaps another, so none holds more wall time
/// than the trace lasts (the perflib capture's `animator` spans overlapped 2.0 s in its
/// 0.69 s on one row).
fn no_track_outlasts_the_trace(p: &Profile, name: &str) {
    let length = p.system.timeline.length();
    for t in p.stacks().threads.iter().filter(|t| t.track) {
        let wall: u64 =
            t.tree.children(droidflame_core::profile::CallTree::ROOT).map(|n| t.tree.node(n).incl.wall).sum();
        assert!(wall <= length, "{name}: track {} holds {wall} ticks in a trace of {length}", t.name);
    }
}

#[test]
fn kernel_only_captures_draw_scheduler_states_or_say_why_nothing_is_drawn() {
    if !droidflame_testkit::corpus_present(
        "atrace::kernel_only_captures_draw_scheduler_states_or_say_why_nothing_is_drawn",
    ) {
        return;
    }
    // petra: cpu_idle and clock events only: nothing to draw.
    let p = analyze(&corpus_file("petra-systrace-example-2.html")).unwrap();
    assert!(p.profile.stacks().threads.is_empty());
    assert!(
        p.profile.facts.warnings.iter().any(|w| w.contains("no slices (atrace B/E markers), and no scheduler events")),
        "{:?}",
        p.profile.facts.warnings
    );
    // catapult atrace_data: 72 sched_switch and nothing else. Every thread the scheduler
    // saw is listed, its frames its states; on the CPU clock only Running remains.
    let p = analyze(&corpus_file("atrace/catapult-systrace-atrace_data.txt")).unwrap();
    assert!(
        p.profile.facts.warnings.iter().any(|w| w.contains("frames are its scheduler states")),
        "{:?}",
        p.profile.facts.warnings
    );
    assert_eq!(p.profile.stacks().clocks, ClockSet::Dual);
    let threads = p.profile.stacks().threads.len();
    assert!(threads >= 20, "{threads} threads");
    assert!(p.profile.stacks().threads.iter().all(|t| t.sched.is_some() && !t.track));
    let folded = folded(&p.profile);
    assert!(
        folded.lines().all(|l| [";Running ", ";Runnable ", ";Sleeping "].iter().any(|s| l.contains(s))),
        "{folded}"
    );
    // Binder_1 [780]: 537 µs switched in (summed from its sched_switch lines by hand).
    assert!(folded_cpu(&p.profile).contains("Binder_1 [780];Running 537\n"), "{}", folded_cpu(&p.profile));
    let binder = p.profile.stacks().threads.iter().find(|t| t.tid == 780).unwrap();
    let sched = binder.sched.unwrap();
    // One switch out in D (at 1213.327763, woken at .327781): 18 µs uninterruptible.
    let us = |t| p.profile.micros(t);
    assert_eq!(
        (us(sched.running), us(sched.runnable), us(sched.sleeping), us(sched.uninterruptible)),
        (537, 117, 136_781, 18)
    );
    // The states are calls in time, for the timeline.
    let summary: serde_json::Value = serde_json::from_str(&products::summary_json(&p)).unwrap();
    assert_eq!(summary["threads"].as_array().unwrap().len(), threads);
    // The four catapult variants of one capture (blank first line, TGID columns) agree.
    let base = analyze(&corpus_file("atrace/catapult-systrace-atrace_data.txt")).unwrap();
    for name in ["atrace_data_raw", "atrace_missing_tgids", "atrace_fixed_tgids"] {
        let p = analyze(&corpus_file(&format!("atrace/catapult-systrace-{name}.txt"))).unwrap();
        assert_eq!(
            (p.profile.facts.repairs.unparsed_lines, p.profile.stacks().clocks),
            (base.profile.facts.repairs.unparsed_lines, base.profile.stacks().clocks),
            "{name}"
        );
    }
}

#[test]
fn perfetto_bad_print_skips_continuation_lines() {
    if !droidflame_testkit::corpus_present("atrace::perfetto_bad_print_skips_continuation_lines") {
        return;
    }
    let p = analyze(&corpus_file("atrace/perfetto-bad_print.systrace")).unwrap();
    assert_eq!(p.profile.facts.repairs.unparsed_lines, 2);
    assert_eq!(thread_calls(&p.profile), 1);
}

// ---- synthetic captures -------------------------------------------------------------

const MS: u64 = 1_000_000;

/// Thread 100 "main" of process 100: draw (10 ms) containing measure (4 ms); thread 101
/// "RenderThread": flush (3 ms).
fn basic() -> Capture {
    let mut c = Capture::new();
    c.mark("main", 100, 100, 1_000 * MS, "B|100|draw")
        .mark("main", 100, 100, 1_002 * MS, "B|100|measure")
        .mark("RenderThread", 101, 100, 1_003 * MS, "B|100|flush")
        .mark("main", 100, 100, 1_006 * MS, "E|100")
        .mark("RenderThread", 101, 100, 1_006 * MS, "E")
        .mark("main", 100, 100, 1_010 * MS, "E|100|draw|k=v|cat");
    c
}

const BASIC_FOLDED: &str = "RenderThread [101];flush 3000\nmain [100];draw 6000\nmain [100];draw;measure 4000\n";

#[test]
fn every_column_layout_gives_the_same_profile() {
    for tgid in [None, Some(false), Some(true)] {
        for wide in [false, true] {
            for flags in [0, 4, 5] {
                for fraction_digits in [6, 9] {
                    let mut c = basic();
                    c.columns = Columns { tgid, wide, flags, fraction_digits };
                    for header in [false, true] {
                        c.header = header;
                        let p = analyze(&c.text()).unwrap_or_else(|e| panic!("{:?}: {e}", c.columns));
                        assert_eq!(folded(&p.profile), BASIC_FOLDED, "{:?} header {header}", c.columns);
                        assert_eq!(p.profile.facts.repairs.unparsed_lines, 0);
                        assert_eq!(p.profile.stacks().threads[0].pid, Some(100), "{:?}", c.columns);
                    }
                }
            }
        }
    }
}

#[test]
fn every_container_gives_the_same_profile() {
    let c = basic();
    let plain = folded(&analyze(&c.text()).unwrap().profile);
    assert_eq!(plain, BASIC_FOLDED);
    let forms: Vec<(&str, Vec<u8>)> = vec![
        ("ctrace", c.ctrace(1)),
        ("html-legacy", c.html_legacy()),
        ("html", c.html_trace_data()),
        ("json", c.json()),
        ("html-viewer-data", c.html_viewer_data()),
        ("text", gzip(&c.text())),
    ];
    for (layout, bytes) in forms {
        for chunk in [1, 2, 7, 64, 4096, usize::MAX] {
            let mut analyzer = Analyzer::default();
            for piece in bytes.chunks(chunk.min(bytes.len())) {
                analyzer.push(piece).unwrap();
            }
            let p = analyzer.finish().unwrap_or_else(|e| panic!("{layout} in chunks of {chunk}: {e}"));
            assert_eq!(p.profile.facts.format.layout, layout);
            assert_eq!(folded(&p.profile), plain, "{layout} in chunks of {chunk}");
            assert!(p.profile.facts.warnings.is_empty() || layout != "ctrace", "{:?}", p.profile.facts.warnings);
        }
    }
}

#[test]
fn junk_before_trace_crlf_and_a_missing_final_newline() {
    let c = basic();
    let mut bytes = b"capturing trace... done\nTRACE:\n".to_vec();
    bytes.extend(c.text());
    assert_eq!(folded(&analyze(&bytes).unwrap().profile), BASIC_FOLDED, "E18");
    let mut z = b"capturing trace...\r\n done\r\n".to_vec();
    z.extend(c.ctrace(1));
    assert_eq!(folded(&analyze(&z).unwrap().profile), BASIC_FOLDED);
    let mut crlf = basic();
    crlf.crlf = true;
    let mut text = b"\r\n".to_vec();
    text.extend(crlf.text());
    text.truncate(text.len() - 2);
    assert_eq!(folded(&analyze(&text).unwrap().profile), BASIC_FOLDED, "E17, E19");
}

#[test]
fn tasks_with_spaces_dashes_and_unknown_names() {
    let mut c = Capture::new();
    c.mark("Jit thread pool", 7, 7, MS, "B|7|compile")
        .mark("<...>", 7, 7, 2 * MS, "E|7")
        .mark("a-b-c", 8, 7, 3 * MS, "B|7|x|y")
        .mark("a-b-c", 8, 7, 4 * MS, "E|7");
    let p = analyze(&c.text()).unwrap();
    // `<...>` never renames a thread; `|` stays in names.
    assert_eq!(folded(&p.profile), "Jit thread pool [7];compile 1000\na-b-c [8];x|y 1000\n");
    assert_eq!(p.profile.stacks().threads[0].process.as_deref(), Some("Jit thread pool"));
}

#[test]
fn old_event_names_and_print() {
    let mut c = Capture::new();
    c.event("app", 5, 5, 0, MS, "0", "B|5|a").event("app", 5, 5, 0, 2 * MS, "print", "B|5|b");
    c.event("app", 5, 5, 0, 3 * MS, "print", "0xffffff: E").event("app", 5, 5, 0, 4 * MS, "0", "E");
    assert_eq!(folded(&analyze(&c.text()).unwrap().profile), "app [5];a 2000\napp [5];a;b 1000\n");
}

#[test]
fn e1_e2_unmatched_ends_and_slices_open_at_the_end() {
    let mut c = Capture::new();
    c.mark("t", 1, 1, MS, "E") // before anything opened: ignored, counted
        .mark("t", 1, 1, 2 * MS, "B|1|a")
        .mark("t", 1, 1, 3 * MS, "B|1|b")
        .mark("t", 1, 1, 4 * MS, "E")
        .event("t", 1, 1, 0, 9 * MS, "sched_wakeup", "comm=x pid=2 prio=120 target_cpu=000");
    let p = analyze(&c.text()).unwrap();
    assert_eq!(p.profile.facts.repairs.unmatched_ends, 1);
    assert_eq!(p.profile.facts.repairs.open_at_end, 1);
    // `a` closes at the thread's last event (9 ms), not its last marker.
    assert_eq!(folded(&p.profile), "t [1];a 6000\nt [1];a;b 1000\n");
}

#[test]
fn e6_e14_empty_names_and_the_depth_cap() {
    let mut c = Capture::new();
    c.mark("t", 1, 1, MS, "B|1|").mark("t", 1, 1, 2 * MS, "E");
    assert_eq!(folded(&analyze(&c.text()).unwrap().profile), "t [1];[empty slice name] 1000\n");
    let mut c = Capture::new();
    for i in 0..600u64 {
        c.mark("t", 1, 1, MS + i, "B|1|deep");
    }
    let p = analyze(&c.text()).unwrap();
    assert_eq!(p.profile.facts.repairs.too_deep, 600 - 512);
    assert_eq!(p.profile.stacks().threads[0].tree.max_depth(), 512);
}

#[test]
fn e12_events_out_of_order_are_counted() {
    let mut c = Capture::new();
    c.mark("t", 1, 1, 5 * MS, "B|1|a").mark("t", 1, 1, 4 * MS, "E");
    let p = analyze(&c.text()).unwrap();
    assert_eq!(p.profile.facts.repairs.out_of_order, 1);
    assert_eq!(folded(&p.profile), "", "a negative duration counts as 0");
    assert!(p.profile.facts.warnings.iter().any(|w| w.contains("earlier than")));
}

#[test]
fn e15_e16_timestamps_exact_and_raw_clock_refused() {
    let mut c = basic();
    c.columns.fraction_digits = 9;
    c.events[1].ns += 1; // measure starts 1 ns later: 3999.999 µs
    let p = analyze(&c.text()).unwrap();
    assert_eq!(
        p.profile.micros(p.profile.stacks().threads[0].tree.nodes().iter().map(|n| n.incl.wall).max().unwrap()),
        10_000
    );
    let raw = b"t-1 [000] ...1 123456789: tracing_mark_write: B|1|a\n";
    let err = analyze(raw).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Unsupported);
    assert!(err.to_string().contains("raw counter"), "{err}");
}

#[test]
fn e21_clock_sync_and_free_text_markers() {
    let mut c = basic();
    c.mark("main", 100, 100, 0, "trace_event_clock_sync: parent_ts=0.0");
    c.mark("main", 100, 100, 1_011 * MS, "hello, world");
    let p = analyze(&c.text()).unwrap();
    assert_eq!(folded(&p.profile), BASIC_FOLDED);
    assert_eq!(p.profile.facts.repairs.out_of_order, 0);
    assert!(
        p.profile.facts.warnings.iter().any(|w| w.contains("1 tracing_mark_write payload was not an atrace marker")),
        "{:?}",
        p.profile.facts.warnings
    );
}

#[test]
fn async_slices_and_android_13_tracks() {
    let mut c = Capture::new();
    c.mark("t", 1, 10, MS, "S|10|load|1")
        .mark("t", 1, 10, 2 * MS, "S|10|load|2")
        .mark("u", 2, 10, 4 * MS, "F|10|load|1") // ends on another thread
        .mark("t", 1, 10, 5 * MS, "S|10|load|3")
        .mark("t", 1, 10, 6 * MS, "F|10|load|3")
        .mark("t", 1, 10, 7 * MS, "F|10|load|2")
        .mark("t", 1, 10, 8 * MS, "G|10|Network|fetch|5")
        .mark("t", 1, 10, 9 * MS, "H|10|Network|5")
        .mark("t", 1, 10, 10 * MS, "G|10|Network|parse|6")
        .mark("t", 1, 10, 12 * MS, "H|10|Network|parse|6")
        .mark("t", 1, 10, 12 * MS, "N|10|Network|retry")
        .mark("t", 1, 10, 13 * MS, "I|10|tick")
        .mark("t", 1, 10, 14 * MS, "F|10|never|9");
    let p = analyze(&c.text()).unwrap();
    let tracks: Vec<(&str, Option<u32>)> =
        p.profile.stacks().threads.iter().filter(|t| t.track).map(|t| (t.name.as_str(), t.pid)).collect();
    // Spans of one name that overlap go on rows of their own, each on the first free when it
    // begins: load 1 (1-4 ms) and then load 3 (5-6 ms) on the first, load 2 (2-7 ms) beside.
    assert_eq!(tracks, [("load", Some(10)), ("load (row 2)", Some(10)), ("Network", Some(10))]);
    let row = |name: &str| {
        let t = p.profile.stacks().threads.iter().find(|t| t.name == name).unwrap();
        (p.profile.micros(t.tree.nodes()[1].incl.wall), t.tree.nodes()[1].calls)
    };
    assert_eq!(row("load"), (3_000 + 1_000, 2));
    assert_eq!(row("load (row 2)"), (5_000, 1));
    let network = products::folded(
        &p.profile,
        &FoldedOptions { clock: None, thread: Some(network_tid(&p.profile)), ..Default::default() },
    )
    .unwrap();
    assert_eq!(network, "fetch 1000\nparse 2000\n");
    // The instant and the named-track instant count as calls of zero length.
    let calls: u64 =
        p.profile.stacks().threads.iter().flat_map(|t| t.tree.nodes().iter().skip(1)).map(|n| n.calls).sum();
    assert_eq!(calls, 3 + 2 + 1 + 1);
    assert_eq!(p.profile.facts.repairs.unmatched_ends, 1);
}

fn network_tid(p: &Profile) -> u32 {
    p.stacks().threads.iter().find(|t| t.name == "Network").unwrap().tid
}

#[test]
fn counters_are_summarised_per_process() {
    let mut c = basic();
    c.mark("main", 100, 100, 1_001 * MS, "C|100|queue|3")
        .mark("main", 100, 100, 1_002 * MS, "C|100|queue|-2")
        .mark("main", 100, 100, 1_003 * MS, "C|100|queue|7")
        .mark("main", 100, 200, 1_004 * MS, "C|200|queue|1|category");
    let p = analyze(&c.text()).unwrap();
    let summary: Vec<_> =
        p.profile.system.counters.iter().map(|c| (c.pid, c.name.as_str(), c.samples, c.min, c.max, c.last)).collect();
    assert_eq!(summary, [(100, "queue", 3, -2, 7, 7), (200, "queue", 1, 1, 1, 1)]);
    let json: serde_json::Value = serde_json::from_str(&products::summary_json(&p)).unwrap();
    assert_eq!(json["counters"][0]["max"], 7);
}

/// Thread 5 runs on CPU 0 from 0 to 2 ms, is preempted (runnable) until 3 ms, runs to
/// 6 ms, then sleeps until woken at 8 ms and runs again from 9 ms to the end (10 ms). Its
/// slice spans 1 ms to 10 ms: 9 ms of wall, 1 + 3 + 1 = 5 ms on the CPU.
#[test]
fn sched_switch_gives_slices_cpu_time_and_threads_their_states() {
    let mut c = Capture::new();
    c.switch(0, 0, ("swapper/0", 0), "R", ("app", 5))
        .mark("app", 5, 5, MS, "B|5|work")
        .switch(0, 2 * MS, ("app", 5), "R+", ("other", 6))
        .switch(0, 3 * MS, ("other", 6), "S", ("app", 5))
        .switch(0, 6 * MS, ("app", 5), "S", ("swapper/0", 0))
        .event("swapper/0", 0, 0, 0, 8 * MS, "sched_wakeup", "comm=app pid=5 prio=120 target_cpu=000")
        .switch(0, 9 * MS, ("swapper/0", 0), "R", ("app", 5))
        .mark("app", 5, 5, 10 * MS, "E|5");
    let p = analyze(&c.text()).unwrap();
    assert_eq!(p.profile.stacks().clocks, ClockSet::Dual);
    assert_eq!(folded(&p.profile), "app [5];work 9000\n");
    assert_eq!(folded_cpu(&p.profile), "app [5];work 5000\n");
    let sched = p.profile.stacks().threads[0].sched.unwrap();
    assert_eq!(
        (p.profile.micros(sched.running), p.profile.micros(sched.runnable), p.profile.micros(sched.sleeping)),
        (2_000 + 3_000 + 1_000, 1_000 + 1_000, 2_000)
    );
    let json: serde_json::Value = serde_json::from_str(&products::summary_json(&p)).unwrap();
    assert_eq!(json["threads"][0]["running_us"], 6_000);
    assert_eq!(json["threads"][0]["cpu_us"], 5_000);
    assert_eq!(json["format"]["family"], "atrace");
}

#[test]
fn hostile_containers_fail_clearly() {
    // A decompression bomb stops at the limit with a clear error.
    let mut big = Capture::new();
    for i in 0..2000 {
        big.mark("t", 1, 1, i * MS, if i % 2 == 0 { "B|1|a" } else { "E" });
    }
    let options = Options { max_decompressed_bytes: 10_000, ..Options::default() };
    let err = analyze_with(&big.ctrace(1), options.clone()).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Limit);
    assert!(err.to_string().contains("decompressed-size limit"), "{err}");
    assert_eq!(analyze_with(&big.html_viewer_data(), options).unwrap_err().kind(), ErrorKind::Limit);
    // A thread id no kernel hands out would collide with track ids: skipped, counted.
    let mut c = basic();
    c.mark("x", 3_000_000_000, 1, 1_001 * MS, "B|1|evil");
    let p = analyze(&c.text()).unwrap();
    assert_eq!((folded(&p.profile).as_str(), p.profile.facts.repairs.unparsed_lines), (BASIC_FOLDED, 1));
    let err = analyze(b"<!DOCTYPE html><html><body>hello</body></html>").unwrap_err();
    assert!(err.to_string().contains("no systrace data"), "{err}");
    let err = analyze(br#"{"traceEvents": []}"#).unwrap_err();
    assert!(err.to_string().contains("no systemTraceEvents"), "{err}");
}

#[test]
fn the_flame_graph_script_is_the_same_for_every_graph_of_a_kind_of_frame() {
    if !droidflame_testkit::corpus_present(
        "atrace::the_flame_graph_script_is_the_same_for_every_graph_of_a_kind_of_frame",
    ) {
        return;
    }
    // The page's Content-Security-Policy allows one script per kind of frame by its hash;
    // only the tooltip's label differs between them.
    let script = |kind| products::flame_script(&products::FlameOptions::default(), kind);
    let (methods, slices) = (script(FrameKind::Method), script(FrameKind::Slice));
    assert!(methods.contains("function init"), "{}", &methods[..methods.len().min(200)]);
    assert!(methods.contains("'Method:'") && slices.contains("'Slice:'"));
    assert_eq!(methods.replace("'Method:'", "'Slice:'"), slices);
    for (name, expected) in [("tracecompass-atrace-test.txt", &slices), ("perflib-exception.trace", &methods)] {
        let p = analyze(&corpus_file(name)).unwrap();
        for clock in [Clock::Wall, Clock::Cpu] {
            for theme in [products::Theme::Light, products::Theme::Dark] {
                let options = products::FlameOptions { clock: Some(clock), theme, ..Default::default() };
                let svg = products::flame_svg(&p.profile, products::GraphScope::AllThreads, &options).unwrap();
                assert_eq!(products::script_of(&svg).as_deref(), Some(expected.as_str()), "{name} {clock} {theme:?}");
            }
        }
    }
}

/// Each thread's uninterruptible sleep (`D`, `D|K`) in a real capture, read from its text
/// apart from the importer: from a switch out in D to the thread's next wakeup or switch
/// in, or to the capture's last event. The summary gives it per thread, apart from sleeping.
#[test]
fn uninterruptible_sleep_per_thread_is_the_text_s() {
    if !droidflame_testkit::corpus_present("atrace::uninterruptible_sleep_per_thread_is_the_text_s") {
        return;
    }
    let bytes = corpus_file("tracecompass-atrace-test.txt");
    let text = String::from_utf8_lossy(&bytes);
    let field = |line: &str, key: &str| -> Option<String> {
        let at = line.find(key)? + key.len();
        Some(line[at..].split_whitespace().next()?.to_owned())
    };
    let (mut switches_in_d, mut last) = (0, 0u64);
    let mut since: std::collections::BTreeMap<u64, u64> = Default::default();
    let mut d_us: std::collections::BTreeMap<u64, u64> = Default::default();
    for line in text.lines() {
        // `… [002] d..3 214168.484950: sched_switch: …`: the time in µs.
        let Some(colon) = line.find(": ") else { continue };
        let Some(ts) = line[..colon].rsplit(' ').next().filter(|t| t.len() > 7 && t.as_bytes()[t.len() - 7] == b'.')
        else {
            continue;
        };
        let us: u64 = ts.replace('.', "").parse().unwrap();
        last = last.max(us);
        let mut end = |tid: u64| {
            if let Some(from) = since.remove(&tid) {
                *d_us.entry(tid).or_default() += us - from;
            }
        };
        if line.contains(" sched_wakeup: ") {
            end(field(line, " pid=").unwrap().parse().unwrap());
        } else if line.contains(" sched_switch: ") {
            let state = field(line, "prev_state=").unwrap();
            let (prev, next): (u64, u64) = (
                field(line, "prev_pid=").unwrap().parse().unwrap(),
                field(line, "next_pid=").unwrap().parse().unwrap(),
            );
            end(next);
            if state.starts_with('D') {
                switches_in_d += 1;
                since.insert(prev, us);
            }
        }
    }
    for (tid, from) in since {
        *d_us.entry(tid).or_default() += last - from;
    }
    assert_eq!(switches_in_d, 125);
    assert_eq!(d_us[&430], 1_426_588, "msm-core:sampli, the most");
    let p = analyze(&bytes).unwrap();
    let json: serde_json::Value = serde_json::from_str(&products::summary_json(&p)).unwrap();
    let threads = json["threads"].as_array().unwrap();
    let given: std::collections::BTreeMap<u64, u64> = threads
        .iter()
        .filter(|t| t["uninterruptible_us"].as_u64().is_some_and(|d| d > 0))
        .map(|t| (t["tid"].as_u64().unwrap(), t["uninterruptible_us"].as_u64().unwrap()))
        .collect();
    assert_eq!(given, d_us);
    // Sleeping does not hold it too: counted twice, the four states would pass the
    // capture's 1.45 s.
    let t430 = threads.iter().find(|t| t["tid"] == 430).unwrap();
    let sum: u64 = ["running_us", "runnable_us", "sleeping_us", "uninterruptible_us"]
        .iter()
        .map(|k| t430[k].as_u64().unwrap())
        .sum();
    assert!((1_426_588..=1_450_000).contains(&sum), "{t430}");
}
