//! Captures made of several dumps (`.ctrace`: one `TRACE:` + zlib stream per read of the
//! kernel's buffer, with events lost between them), cut short or damaged: what a dump left
//! open closes at its last event, the gaps are kept for the timeline, and every whole dump
//! is read.

use droidflame_core::products::{self, FoldedOptions};
use droidflame_core::{analyze, Analyzer, Profile};
use droidflame_testkit::atrace::Capture;
use droidflame_testkit::corpus_file;

const MS: u64 = 1_000_000;

fn folded(p: &Profile) -> String {
    products::folded(p, &FoldedOptions::default()).unwrap()
}

fn thread_calls(p: &Profile) -> u64 {
    p.stacks().threads.iter().filter(|t| !t.track).flat_map(|t| t.tree.nodes().iter().skip(1)).map(|n| n.calls).sum()
}

/// Two dumps of five events each: `measure` and `flush` are open when the first ends, and
/// their ends fell in the gap.
fn two_dumps() -> Capture {
    let mut c = Capture::new();
    c.mark("main", 100, 100, 1_000 * MS, "B|100|draw")
        .mark("main", 100, 100, 1_002 * MS, "E|100")
        .mark("main", 100, 100, 1_003 * MS, "B|100|measure")
        .mark("RenderThread", 101, 100, 1_004 * MS, "B|100|flush")
        .mark("main", 100, 100, 1_005 * MS, "C|100|frames|1")
        .mark("main", 100, 100, 1_020 * MS, "E|100")
        .mark("main", 100, 100, 1_021 * MS, "B|100|layout")
        .mark("main", 100, 100, 1_023 * MS, "E|100")
        .mark("main", 100, 100, 1_024 * MS, "C|100|frames|2")
        .mark("RenderThread", 101, 100, 1_025 * MS, "E");
    c
}

#[test]
fn a_range_keeps_the_part_of_each_gap_inside_it() {
    // The gap runs from 5 to 20 ms after the start.
    let options = droidflame_core::Options { keep_calls: true, ..droidflame_core::Options::default() };
    let p = droidflame_core::analyze_with(&two_dumps().ctrace(2), options).unwrap();
    let start = p.profile.system.timeline.start;
    let gaps = |from: u64, to: u64| -> Vec<(u64, u64)> {
        let cut = p.within(start + from * MS, start + to * MS).unwrap();
        cut.profile.system.gaps.iter().map(|&(s, e)| ((s - start) / MS, (e - start) / MS)).collect()
    };
    assert_eq!(gaps(0, 25), [(5, 20)]);
    assert_eq!(gaps(10, 25), [(10, 20)]);
    assert_eq!(gaps(0, 12), [(5, 12)]);
    assert_eq!(gaps(0, 5), [], "a range that ends where the gap starts has none of it");
    assert_eq!(gaps(21, 25), []);
}

#[test]
fn slices_open_at_a_dumps_end_close_at_its_last_event() {
    let c = two_dumps();
    let p = analyze(&c.ctrace(2)).unwrap();
    // `layout` is a top-level slice, not nested inside `measure` across the gap.
    assert_eq!(
        folded(&p.profile),
        "RenderThread [101];flush 1000\nmain [100];draw 2000\nmain [100];layout 2000\nmain [100];measure 2000\n"
    );
    assert_eq!(p.profile.facts.repairs.closed_at_gap, 2);
    assert_eq!(p.profile.facts.repairs.unmatched_ends, 2, "the Es at 1,020 and 1,025 ms close nothing");
    assert_eq!(p.profile.facts.repairs.open_at_end, 0);
    let start = p.profile.system.timeline.start;
    assert_eq!(p.profile.system.gaps, vec![(start + 5 * MS, start + 20 * MS)]);
    let summary: serde_json::Value = serde_json::from_str(&products::summary_json(&p)).unwrap();
    let texts: Vec<&str> = summary["notes"].as_array().unwrap().iter().map(|n| n["text"].as_str().unwrap()).collect();
    assert!(texts.iter().any(|t| t.starts_with("2 slices were still open where the capture lost events")), "{texts:?}");
    assert!(texts.iter().any(|t| t.contains("2 separate dumps") && t.contains("15 ms")), "{texts:?}");
    // One dump, or plain text: no gap, and the ends after it close `measure` and `flush`.
    for bytes in [c.ctrace(1), c.text()] {
        let p = analyze(&bytes).unwrap();
        assert!(p.profile.system.gaps.is_empty());
        assert_eq!(p.profile.facts.repairs.closed_at_gap, 0);
        assert!(folded(&p.profile).contains("main [100];measure 17000"), "{}", folded(&p.profile));
    }
}

#[test]
fn a_thread_with_nothing_open_at_a_gap_ends_at_its_last_event() {
    // The first dump ends at 1,005 ms with `measure` open on main; `worker` ran `parse` from
    // 1,001 to 1,002 ms and nothing after, so the gap closes nothing of it.
    let mut c = Capture::new();
    c.mark("worker", 102, 100, 1_001 * MS, "B|100|parse")
        .mark("worker", 102, 100, 1_002 * MS, "E|100")
        .mark("main", 100, 100, 1_005 * MS, "B|100|measure")
        .mark("main", 100, 100, 1_020 * MS, "B|100|layout")
        .mark("main", 100, 100, 1_023 * MS, "E|100")
        .mark("main", 100, 100, 1_024 * MS, "C|100|frames|2");
    let p = analyze(&c.ctrace(2)).unwrap();
    assert_eq!(p.profile.facts.repairs.closed_at_gap, 1);
    assert_eq!(p.profile.facts.records, 5, "two slices' begin and end, and one begin on main");
    let last = |name: &str| p.profile.stacks().threads.iter().find(|t| t.name == name).map(|t| t.last.wall);
    assert_eq!(last("worker"), Some(1_002 * MS));
    assert_eq!(last("main"), Some(1_024 * MS));
}

#[test]
fn a_threads_data_ends_at_its_last_line_of_any_kind() {
    // main's `draw` is open at the end; main's last line, an event of no slice, is at
    // 1,010 ms, and the capture goes on to 1,020 ms on another thread.
    let mut c = Capture::new();
    c.mark("main", 100, 100, 1_000 * MS, "B|100|draw")
        .event("main", 100, 100, 0, 1_010 * MS, "irq_handler_entry", "irq=5 name=x")
        .mark("worker", 102, 100, 1_020 * MS, "B|100|parse");
    let p = analyze(&c.text()).unwrap();
    let last = |name: &str| p.profile.stacks().threads.iter().find(|t| t.name == name).map(|t| t.last.wall);
    assert_eq!(last("main"), Some(1_010 * MS));
    assert_eq!(last("worker"), Some(1_020 * MS));
}

#[test]
fn dumps_give_the_same_profile_in_chunks_of_any_size() {
    let bytes = two_dumps().ctrace(2);
    let whole = folded(&analyze(&bytes).unwrap().profile);
    for chunk in [1, 2, 7, 64, 4096] {
        let mut analyzer = Analyzer::default();
        for piece in bytes.chunks(chunk) {
            analyzer.push(piece).unwrap();
        }
        let p = analyzer.finish().unwrap();
        assert_eq!(folded(&p.profile), whole, "chunks of {chunk}");
        assert_eq!(p.profile.system.gaps.len(), 1);
    }
}

#[test]
fn text_dumps_after_trace_lines_are_dumps_too() {
    let c = two_dumps();
    let (first, second) = c.events.split_at(5);
    let mut bytes = Vec::new();
    for part in [first, second] {
        bytes.extend_from_slice(b"TRACE:\n");
        bytes.extend(Capture { events: part.to_vec(), ..c.clone() }.text());
    }
    let p = analyze(&bytes).unwrap();
    assert_eq!(p.profile.facts.format.layout, "text");
    assert_eq!((p.profile.facts.repairs.closed_at_gap, p.profile.system.gaps.len()), (2, 1));
}

#[test]
fn the_real_ten_dump_capture_has_no_false_recursion() {
    if !droidflame_testkit::corpus_present("atrace_dumps::the_real_ten_dump_capture_has_no_false_recursion") {
        return;
    }
    let p = analyze(&corpus_file("toolsbase-atrace.ctrace")).unwrap();
    let summary: serde_json::Value = serde_json::from_str(&products::summary_json(&p)).unwrap();
    let method =
        |name: &str| summary["methods"].as_array().unwrap().iter().find(|m| m["name"] == name).unwrap().clone();
    // Before dumps were told apart: 322 calls, 226 of them "recursive", 9.96 s inclusive.
    let on_message = method("onMessageReceived");
    assert_eq!((on_message["calls"].as_u64(), on_message["recursive_calls"].as_u64()), (Some(322), Some(0)));
    assert!(on_message["incl_wall_us"].as_u64().unwrap() < 2_200_000, "{on_message}");
    // It topped the methods at 13.1 s, holding every later slice of its thread.
    let sysprops = method("HIDL::IAllocator::notifySyspropsChanged::server");
    assert!(sysprops["incl_wall_us"].as_u64().unwrap() < 400_000, "{sysprops}");
    // 9 gaps, 3.53 s in all, each 0.23-0.67 s long.
    let lost: u64 = p.profile.system.gaps.iter().map(|(from, to)| to - from).sum();
    assert_eq!(lost / MS, 3_530);
    assert!(
        p.profile.system.gaps.iter().all(|(from, to)| (200 * MS..700 * MS).contains(&(to - from))),
        "{:?}",
        p.profile.system.gaps
    );
}

#[test]
fn a_capture_cut_short_keeps_every_whole_dump() {
    if !droidflame_testkit::corpus_present("atrace_dumps::a_capture_cut_short_keeps_every_whole_dump") {
        return;
    }
    let bytes = corpus_file("toolsbase-atrace.ctrace");
    // `head -c 1000000`: dumps 1-4 whole, dump 5 cut 22,046 bytes in.
    let p = analyze(&bytes[..1_000_000]).unwrap();
    assert!(p.profile.facts.repairs.truncated);
    // B markers (checked by inflating each dump): 174 + 276 + 320 + 5,119 whole, and 255
    // in the lines of dump 5 inflated before the cut.
    assert_eq!(thread_calls(&p.profile), 174 + 276 + 320 + 5_119 + 255);
    assert_eq!(p.profile.system.gaps.len(), 4);
    let summary: serde_json::Value = serde_json::from_str(&products::summary_json(&p)).unwrap();
    let note = &summary["notes"][0];
    assert_eq!(note["key"], "truncated");
    assert!(note["text"].as_str().unwrap().contains("ends at byte 1,000,000, inside compressed dump 5"), "{note}");
    // A synthetic capture cut inside each of its dumps: never an error once a line is whole.
    let z = two_dumps().ctrace(2);
    let second = memchr_last(&z, b"TRACE:\n");
    for cut in [second + 20, z.len() - 1] {
        let p = analyze(&z[..cut]).unwrap();
        assert!(p.profile.facts.repairs.truncated, "cut at {cut}");
        assert!(folded(&p.profile).contains("main [100];draw 2000"), "cut at {cut}: {}", folded(&p.profile));
    }
}

#[test]
fn a_damaged_dump_is_left_out_whole() {
    let mut c = two_dumps();
    c.events.truncate(5);
    let tail = two_dumps().events[5..].to_vec();
    let mut three = c.clone();
    three.events.extend(tail.iter().cloned());
    three.events.extend(tail.iter().map(|e| {
        let mut e = e.clone();
        e.ns += 100 * MS;
        e
    }));
    let mut z = three.ctrace(3);
    let dumps: Vec<usize> = memchr::memmem::find_iter(&z, b"TRACE:\n").collect();
    assert_eq!(dumps.len(), 3);
    // Damage the middle dump's deflate data.
    for byte in &mut z[dumps[1] + 12..dumps[2] - 6] {
        *byte ^= 0x5A;
    }
    let p = analyze(&z).unwrap();
    assert_eq!(p.profile.facts.repairs.damaged_parts, 1);
    let summary: serde_json::Value = serde_json::from_str(&products::summary_json(&p)).unwrap();
    assert!(summary["notes"].as_array().unwrap().iter().any(|n| n["key"] == "damaged_parts"), "{summary}");
    // Dumps 1 and 3 are read; dump 2 (the first `layout`) is left out whole.
    assert_eq!(
        folded(&p.profile),
        "RenderThread [101];flush 1000\nmain [100];draw 2000\nmain [100];layout 2000\nmain [100];measure 2000\n"
    );
    assert_eq!(p.profile.system.gaps.len(), 1);
}

fn memchr_last(haystack: &[u8], needle: &[u8]) -> usize {
    memchr::memmem::rfind(haystack, needle).unwrap()
}
