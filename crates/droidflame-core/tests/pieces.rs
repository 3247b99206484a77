//! Reading in pieces at once gives what reading once gives, byte for byte: every corpus
//! file and every written scenario, read in 1, 2, 3 and 7 pieces, has the same summary,
//! folded stacks, method table, facts, frames, every thread's call tree node for node
//! (numbering, parents, siblings, counts and times) and, where calls are kept, every call
//! at its depth in order. Inputs a format cannot split are read
//! once, which gives the same too; the scenarios that can be split are checked to have
//! been.

use droidflame_core::Options;
use droidflame_testkit::large::{write_large, LargeLayout, Shape};
use droidflame_testkit::pieces::same_in_pieces;
use droidflame_testkit::scenario::{generate, Config};
use droidflame_testkit::{Clocks, Layout};

#[test]
fn every_corpus_file_reads_the_same_in_pieces() {
    if !droidflame_testkit::corpus_present("pieces") {
        return;
    }
    let mut split = 0;
    for path in droidflame_testkit::corpus_traces() {
        let bytes = std::fs::read(&path).unwrap();
        let used = same_in_pieces(&bytes, &Options::default(), &path.display().to_string());
        split += usize::from(used.iter().any(|&n| n > 1));
    }
    // The regular method traces among them.
    assert!(split >= 5, "only {split} corpus files were read in pieces");
}

/// The scenario's layouts that a split reads in pieces, and one it does not.
fn layouts() -> Vec<Layout> {
    vec![
        Layout::Regular { version: 1, data_offset: 32, record_size: None },
        Layout::Regular { version: 2, data_offset: 16, record_size: None },
        Layout::Regular { version: 3, data_offset: 32, record_size: None },
        Layout::Regular { version: 3, data_offset: 32, record_size: Some(20) },
        Layout::Streaming { summary: true, summary_threads: false },
    ]
}

#[test]
fn written_scenarios_read_the_same_in_pieces() {
    for seed in 0..40u64 {
        let clocks = [Clocks::Dual, Clocks::Wall, Clocks::Cpu][seed as usize % 3];
        let config = Config {
            threads: 1 + seed as usize % 5,
            events_per_thread: 50 + (seed as usize * 37) % 400,
            clocks,
            chunked: seed % 2 == 1,
            narrow_tids: true,
            unknown_methods: seed % 4 == 0,
            wrap: seed % 10 == 9,
            ..Config::default()
        };
        let scenario = generate(seed, &config);
        for layout in layouts() {
            let bytes = scenario.trace.write(&layout);
            let what = format!("seed {seed}, {layout:?}");
            let used = same_in_pieces(&bytes, &Options::default(), &what);
            let splits = matches!(layout, Layout::Regular { .. }) && !config.unknown_methods && !config.wrap;
            if splits {
                assert!(used.iter().all(|&n| n > 1), "{what}: read in pieces {used:?}");
            }
        }
    }
}

#[test]
fn a_large_written_trace_reads_the_same_in_pieces() {
    for shape in [Shape::app_start(60_000), Shape::interleaved(60_000)] {
        let mut bytes = Vec::new();
        write_large(&mut bytes, &shape, LargeLayout::Regular).unwrap();
        let used = same_in_pieces(&bytes, &Options::default(), "a large trace");
        assert_eq!(used, [2, 3, 7]);
    }
}

#[test]
fn calls_kept_read_the_same_in_pieces() {
    let keep = Options { keep_calls: true, ..Options::default() };
    for shape in [Shape::app_start(30_000), Shape::interleaved(30_000)] {
        let mut bytes = Vec::new();
        write_large(&mut bytes, &shape, LargeLayout::Regular).unwrap();
        assert_eq!(same_in_pieces(&bytes, &keep, "calls kept"), [2, 3, 7]);
    }
    for seed in 0..40u64 {
        let config =
            Config { threads: 1 + seed as usize % 4, chunked: seed % 2 == 0, narrow_tids: true, ..Config::default() };
        let config = Config { unknown_methods: false, ..config };
        let bytes =
            generate(seed, &config).trace.write(&Layout::Regular { version: 2, data_offset: 16, record_size: None });
        let used = same_in_pieces(&bytes, &keep, &format!("seed {seed} with calls kept"));
        assert!(used.iter().all(|&n| n > 1), "seed {seed}: read in pieces {used:?}");
    }
}

#[test]
fn calls_let_go_past_the_limit_read_the_same_in_pieces() {
    let mut bytes = Vec::new();
    write_large(&mut bytes, &Shape::app_start(20_000), LargeLayout::Regular).unwrap();
    let few_calls = Options { keep_calls: true, max_calls: 2_000, ..Options::default() };
    // Each piece keeps up to the limit until the join: four pieces at most.
    assert_eq!(same_in_pieces(&bytes, &few_calls, "calls let go"), [2, 3, 4]);
    // An exit of a frame below the top closes the frames above it too, so a trace can
    // return more calls than half its records. One call past the limit, the calls are let
    // go only after the join (frames still open at the end close after it, as after one
    // reading's last push).
    let keep = Options { keep_calls: true, ..Options::default() };
    let mut found = 0;
    for seed in 0..20u64 {
        let config = Config { unknown_methods: false, narrow_tids: true, events_per_thread: 400, ..Config::default() };
        let bytes =
            generate(seed, &config).trace.write(&Layout::Regular { version: 2, data_offset: 16, record_size: None });
        let once = droidflame_core::analyze_with(&bytes, keep.clone()).unwrap();
        let calls: usize = once.profile.stacks().threads.iter().map(|t| t.calls.len()).sum();
        let returned = calls as u64 - once.profile.facts.repairs.open_at_end;
        if returned > once.profile.facts.records / 2 + 1 {
            let edge = Options { keep_calls: true, max_calls: returned - 1, ..Options::default() };
            let used = same_in_pieces(&bytes, &edge, &format!("seed {seed}, one call past the limit"));
            assert!(used.iter().all(|&n| n > 1), "seed {seed}: read in pieces {used:?}");
            found += 1;
        }
    }
    assert!(found > 0, "no scenario returns more calls than half its records");
}

#[test]
fn a_limit_reached_reads_once() {
    let mut bytes = Vec::new();
    write_large(&mut bytes, &Shape::app_start(20_000), LargeLayout::Regular).unwrap();
    let few = Options { max_call_stacks: 50, ..Options::default() };
    same_in_pieces(&bytes, &few, "few stacks allowed");
    let shallow = Options { max_stack_depth: 4, ..Options::default() };
    same_in_pieces(&bytes, &shallow, "shallow stacks allowed");
}

/// A sampling trace is told by the gaps between each thread's first 500 records, which the
/// pieces see only in part. The worker's gaps grow by a µs each, so the smallest fifth of
/// them, whose mean the warning gives, are its first ones only when all of them are seen;
/// an invalid record comes first.
#[test]
fn a_sampling_traces_rhythm_reads_the_same_in_pieces() {
    use droidflame_testkit::{MethodDef, Record, ThreadDef, Trace};
    let mut trace = Trace {
        threads: vec![ThreadDef { tid: 1, name: "main".into() }, ThreadDef { tid: 2, name: "worker".into() }],
        methods: vec![MethodDef::new(4, "a.B", "run", "()V"), MethodDef::new(8, "a.B", "step", "()V")],
        ..Trace::default()
    };
    let record = |tid, method, action, us: u64| Record { tid, method, action, wall: us, cpu: us / 2 };
    for i in 0..30u64 {
        trace.records.push(record(1, 8, (i % 2) as u8, i * 5_000));
    }
    let mut us = 200_000;
    trace.records.push(record(2, 8, 3, us));
    for i in 0..499u64 {
        us += 1_000 + i;
        trace.records.push(record(2, 4, (i % 2) as u8, us));
        if i == 10 {
            // Two more records at the same time: no gaps.
            trace.records.push(record(2, 4, 1, us));
            trace.records.push(record(2, 4, 0, us));
        }
    }
    let bytes = trace.write(&Layout::Regular { version: 3, data_offset: 32, record_size: None });
    let once = droidflame_core::analyze(&bytes).unwrap();
    // 29 gaps of 5 ms and, in the worker's first 500 records, 496 of 1,001 to 1,496 µs
    // (three records at one time make no gap): the smallest fifth, 105 of them, are 1,001
    // to 1,105 µs, a mean of 1,053.
    let warned = once.profile.facts.warnings.iter().any(|w| w.text.contains("records about every 1053 µs"));
    assert!(warned, "{:?}", once.profile.facts.warnings);
    assert_eq!(same_in_pieces(&bytes, &Options::default(), "a sampling trace"), [2, 3, 7]);
}

/// A sampling trace whose records are now and then not valid (an action no method has),
/// in every piece and past a thread's first 500: the rhythm is measured on the valid ones
/// among the first 500, however the pieces cut them.
#[test]
fn invalid_records_in_a_sampling_traces_first_500_read_the_same_in_pieces() {
    use droidflame_testkit::{MethodDef, Record, ThreadDef, Trace};
    let mut trace = Trace {
        threads: vec![ThreadDef { tid: 2, name: "worker".into() }],
        methods: vec![MethodDef::new(4, "a.B", "run", "()V")],
        ..Trace::default()
    };
    let mut us = 200_000;
    for i in 0..800u64 {
        us += 1_000 + i * 3;
        let action = if i % 23 == 11 || i == 500 { 3 } else { (i % 2) as u8 };
        trace.records.push(Record { tid: 2, method: 4, action, wall: us, cpu: us / 2 });
    }
    let bytes = trace.write(&Layout::Regular { version: 3, data_offset: 32, record_size: None });
    let once = droidflame_core::analyze(&bytes).unwrap();
    assert!(once.profile.facts.repairs.invalid_records > 30, "{:?}", once.profile.facts.repairs);
    let warned = once.profile.facts.warnings.iter().any(|w| w.text.contains("records about every"));
    assert!(warned, "{:?}", once.profile.facts.warnings);
    assert_eq!(same_in_pieces(&bytes, &Options::default(), "invalid records in the window"), [2, 3, 7]);
}

/// A thread the key does not name, met first in the last part of the records: each piece
/// that meets it makes it a thread of its own, and the join gives it the slot one reading
/// gives it.
#[test]
fn a_thread_first_met_in_a_later_piece_reads_the_same_in_pieces() {
    use droidflame_testkit::{MethodDef, Record, ThreadDef, Trace};
    let mut trace = Trace {
        threads: vec![ThreadDef { tid: 1, name: "main".into() }],
        methods: vec![MethodDef::new(4, "a.B", "run", "()V")],
        ..Trace::default()
    };
    for i in 0..400u64 {
        // The last eighth of the records alternate with thread 9, which the key never names.
        let tid = if i >= 350 && i % 2 == 1 { 9 } else { 1 };
        trace.records.push(Record { tid, method: 4, action: ((i / 2) % 2) as u8, wall: 1000 + i * 10, cpu: i * 5 });
    }
    let bytes = trace.write(&Layout::Regular { version: 3, data_offset: 32, record_size: None });
    let once = droidflame_core::analyze(&bytes).unwrap();
    assert!(once.profile.stacks().threads.iter().any(|t| t.tid == 9), "thread 9 is read");
    assert_eq!(same_in_pieces(&bytes, &Options::default(), "a thread met late"), [2, 3, 7]);
}

/// A thread's CPU clock that wraps inside the first piece, the wall clock not at all: the
/// later pieces read that clock from fresh, so the input is read once.
#[test]
fn a_cpu_clock_wrapping_inside_a_piece_is_read_once() {
    use droidflame_testkit::{MethodDef, Record, ThreadDef, Trace};
    let mut trace = Trace {
        threads: vec![ThreadDef { tid: 1, name: "main".into() }],
        methods: vec![MethodDef::new(4, "a.B", "run", "()V")],
        ..Trace::default()
    };
    // 200 records; the CPU clock passes 2^32 at the 21st, inside the first of 2, 3 or 7.
    for i in 0..200u64 {
        let cpu = (1 << 32) - 100 + i * 5;
        trace.records.push(Record { tid: 1, method: 4, action: (i % 2) as u8, wall: 1000 + i * 10, cpu });
    }
    let bytes = trace.write(&Layout::Regular { version: 3, data_offset: 32, record_size: None });
    let once = droidflame_core::analyze(&bytes).unwrap();
    assert_eq!(once.profile.facts.repairs.time_wraps, 1, "one reading unwraps it once");
    assert_eq!(same_in_pieces(&bytes, &Options::default(), "a CPU clock wrapping in a piece"), [1, 1, 1]);
}

/// A 32-bit clock that wraps exactly where the pieces meet: each piece alone sees no wrap,
/// one reading does, so the join must notice it at the seam and read once. First the wall
/// clock, then only one thread's CPU clock.
#[test]
fn a_clock_wrapping_where_the_pieces_meet_is_read_once() {
    use droidflame_testkit::{MethodDef, Record, ThreadDef, Trace};
    for wall_wraps in [true, false] {
        let mut trace = Trace {
            threads: vec![ThreadDef { tid: 1, name: "main".into() }],
            methods: vec![MethodDef::new(4, "a.B", "run", "()V")],
            ..Trace::default()
        };
        // 200 records; two pieces meet at the 101st, where the clock passes 2^32.
        let base: u64 = (1 << 32) - 100 * 10;
        for i in 0..200u64 {
            let t = base + i * 10;
            let (wall, cpu) = if wall_wraps { (t, i * 5) } else { (i * 10, t) };
            trace.records.push(Record { tid: 1, method: 4, action: (i % 2) as u8, wall, cpu });
        }
        let bytes = trace.write(&Layout::Regular { version: 3, data_offset: 32, record_size: None });
        let once = droidflame_core::analyze(&bytes).unwrap();
        assert_eq!(once.profile.facts.repairs.time_wraps, 1, "one reading unwraps it once");
        let what = if wall_wraps { "the wall clock wrapping at the seam" } else { "a CPU clock wrapping at the seam" };
        assert_eq!(same_in_pieces(&bytes, &Options::default(), what), [1, 1, 1]);
    }
}

/// Bytes of a piece go only where they came from: another piece's, another reading's (other
/// options) or another file's are refused with an error, as is a piece read twice or one
/// past the last; never a panic, never a wrong join.
#[test]
fn a_piece_sent_as_bytes_joins_only_where_it_came_from() {
    use droidflame_core::Pieces;
    let bytes = generate(3, &Config { events_per_thread: 600, unknown_methods: false, ..Config::default() })
        .trace
        .write(&Layout::ART_REGULAR);
    let source: &[u8] = &bytes;
    let options = Options::default();
    let sent = |options: &Options, at: usize, input: &[u8]| {
        let pieces = Pieces::cut(&input, options.clone(), 3).expect("cut");
        let mut reader = pieces.reader(at).unwrap();
        while !reader.step(&input, u64::MAX).unwrap() {}
        pieces.to_bytes(reader).unwrap().expect("joinable")
    };
    let mut joined = Pieces::cut(&source, options.clone(), 3).unwrap();
    assert_eq!(joined.count(), 3);
    let refused = |r: droidflame_core::Result<()>| r.unwrap_err().to_string();
    assert!(refused(joined.add_bytes(1, &sent(&options, 2, source))).contains("another piece"));
    let calls = Options { keep_calls: true, ..options.clone() };
    assert!(refused(joined.add_bytes(1, &sent(&calls, 1, source))).contains("another piece, file or reading"));
    let mut longer = bytes.clone();
    longer.extend_from_slice(&bytes[bytes.len() - 14 * 30..]);
    assert!(refused(joined.add_bytes(1, &sent(&options, 1, &longer))).contains("another piece"));
    assert!(refused(joined.add_bytes(1, &[1, 2, 3])).contains("does not decode"));
    assert!(refused(joined.add_bytes(3, &sent(&options, 2, source))).contains("cannot be added"));
    assert!(joined.range(3).is_none());
    // The right bytes still join after all that was refused.
    joined.add_bytes(1, &sent(&options, 1, source)).unwrap();
    assert!(refused(joined.add_bytes(1, &sent(&options, 1, source))).contains("cannot be added"));
    joined.add_bytes(2, &sent(&options, 2, source)).unwrap();
    assert!(joined.reader(1).is_err(), "a piece taken as bytes is not read again");
    let mut first = joined.reader(0).unwrap();
    assert!(joined.reader(0).is_err(), "nor is one being read");
    // Only a later piece read to its end goes as bytes, and only a piece read to its end
    // is added.
    let elsewhere = Pieces::cut(&source, options.clone(), 3).unwrap();
    let unfinished = elsewhere.reader(1).unwrap();
    assert!(elsewhere.to_bytes(unfinished).unwrap_err().to_string().contains("read to its end"));
    let mut whole_first = elsewhere.reader(0).unwrap();
    while !whole_first.step(&source, u64::MAX).unwrap() {}
    assert!(elsewhere.to_bytes(whole_first).is_err(), "the first piece is joined where it is read");
    // Checkpoints every 512 bytes: a step of the format's own is that short.
    let small_steps = Options { keep_calls: true, checkpoint_bytes: 512, ..options.clone() };
    let mut other = Pieces::cut(&source, small_steps, 3).unwrap();
    let mut begun = other.reader(0).unwrap();
    assert!(!begun.step(&source, 1).unwrap() && !begun.done());
    assert!(other.add(begun).unwrap_err().to_string().contains("read to its end"));
    while !first.step(&source, u64::MAX).unwrap() {}
    joined.add(first).unwrap();
    let apart = joined.join(&source).unwrap().expect("joined");
    let once = droidflame_core::analyze_in_pieces(&source, options, 1).unwrap().0;
    assert_eq!(droidflame_testkit::pieces::said(&apart), droidflame_testkit::pieces::said(&once));
}
