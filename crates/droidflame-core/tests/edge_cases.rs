//! One test per edge case of method traces that concerns the core; the `eN_` prefix of a
//! test is the case's number in the format reference. Traces are built in code with the
//! testkit writer.

use droidflame_core::products::{self, frame_table, FoldedOptions};
use droidflame_core::Analysis;
use droidflame_core::{analyze, Analyzer, Clock, ClockSet, ErrorKind, Profile};
use droidflame_testkit::{gzip, Clocks, Layout, MethodDef, Record, ThreadDef, TimeFirst, Trace, ENTER, EXIT, UNWIND};

fn rec(tid: u32, method: u64, action: u8, wall: u64, cpu: u64) -> Record {
    Record { tid, method, action, wall, cpu }
}

/// Methods A.a (id 0), B.b (4), C.c (8), D.d (12); threads 1 "main" and 2 "worker".
fn trace(records: Vec<Record>) -> Trace {
    Trace {
        threads: vec![ThreadDef { tid: 1, name: "main".into() }, ThreadDef { tid: 2, name: "worker".into() }],
        methods: vec![
            MethodDef::new(0, "A", "a", "()V"),
            MethodDef::new(4, "B", "b", "()V"),
            MethodDef::new(8, "C", "c", "()V"),
            MethodDef::new(12, "D", "d", "()V"),
        ],
        records,
        ..Trace::default()
    }
}

fn regular(t: &Trace) -> Analysis {
    analyze(&t.write(&Layout::ART_REGULAR)).unwrap()
}

fn folded(p: &Profile) -> String {
    products::folded(p, &FoldedOptions::default()).unwrap()
}

fn folded_cpu(p: &Profile) -> String {
    products::folded(p, &FoldedOptions { clock: Some(Clock::Cpu), thread: None, ..Default::default() }).unwrap()
}

/// A.a calls B.b: a = [0, 10] wall, b = [2, 6].
fn simple() -> Vec<Record> {
    vec![rec(1, 0, ENTER, 0, 0), rec(1, 4, ENTER, 2, 1), rec(1, 4, EXIT, 6, 3), rec(1, 0, EXIT, 10, 5)]
}

#[test]
fn e01_method_id_zero_written_bare() {
    let bytes = trace(simple()).write(&Layout::ART_REGULAR);
    assert!(String::from_utf8_lossy(&bytes).contains("\n0\tA\ta\t()V"), "the writer prints id 0 as ART does");
    assert_eq!(folded(&analyze(&bytes).unwrap().profile), "main [1];A.a 6\nmain [1];A.a;B.b 4\n");
}

#[test]
fn e02_undefined_method_ids_are_kept_and_named() {
    let p = regular(&trace(vec![rec(1, 0x1a4, ENTER, 0, 0), rec(1, 0x1a4, EXIT, 5, 5)]));
    assert_eq!(folded(&p.profile), "main [1];<unknown 0x1a4> 5\n");
    assert_eq!(p.profile.facts.repairs.unknown_methods, 1);
}

#[test]
fn e03_null_source_is_no_source() {
    let mut t = trace(simple());
    t.methods[0].source = String::new();
    let p = regular(&t);
    let a = p.profile.frames.iter().find(|m| m.name == "a").unwrap();
    assert_eq!(a.source, None);
    assert!(products::summary_json(&p).contains("\"source\": null"));
}

#[test]
fn e04_thread_ids_truncated_to_16_bits_match_their_listed_thread() {
    let mut t = trace(vec![rec(70000, 0, ENTER, 0, 0), rec(70000, 0, EXIT, 5, 5)]);
    t.threads.push(ThreadDef { tid: 70000, name: "RenderThread".into() });
    let p = regular(&t);
    assert_eq!(
        (p.profile.stacks().threads[0].tid, p.profile.stacks().threads[0].name.as_str()),
        (70000, "RenderThread")
    );
    // Two listed threads share the low 16 bits: say so instead of guessing.
    t.threads.push(ThreadDef { tid: 70000 + 65536, name: "Other".into() });
    let p = regular(&t);
    assert_eq!(p.profile.stacks().threads[0].name, format!("Thread {}", 70000 & 0xFFFF));
    assert!(p.profile.facts.warnings.iter().any(|w| w.contains("low 16 bits")), "{:?}", p.profile.facts.warnings);
}

#[test]
fn e05_streaming_record_of_thread_zero_is_not_an_escape() {
    // Thread 65536 truncates to 0: its records start with 00 00 like escapes.
    let mut t = trace(vec![
        rec(1, 0, ENTER, 0, 0),
        rec(65536, 4, ENTER, 1, 0),
        rec(65536, 4, EXIT, 3, 2),
        rec(1, 0, EXIT, 9, 9),
    ]);
    t.threads.push(ThreadDef { tid: 65536, name: "zero".into() });
    let p = analyze(&t.write(&Layout::ART_STREAMING)).unwrap();
    assert_eq!(p.profile.facts.records, 4);
    assert!(folded(&p.profile).contains(";B.b 2\n"), "{}", folded(&p.profile));
    assert!(!p.profile.facts.repairs.truncated);
}

#[test]
fn e06_threads_missing_from_the_list_are_named_by_id() {
    let p = regular(&trace(vec![rec(9, 0, ENTER, 0, 0), rec(9, 0, EXIT, 5, 5)]));
    assert_eq!(p.profile.stacks().threads[0].name, "Thread 9");
    assert_eq!(p.profile.facts.repairs.unknown_threads, 1);
}

/// Two streaming records of thread 2: B (4) entered at 10 and left at 17 on both clocks.
fn thread_2_runs_b_from_10_to_17(bytes: &mut Vec<u8>) {
    for (action, wall) in [(ENTER, 10u32), (EXIT, 17)] {
        bytes.extend_from_slice(&2u16.to_le_bytes());
        bytes.extend_from_slice(&(4u32 | u32::from(action)).to_le_bytes());
        bytes.extend_from_slice(&wall.to_le_bytes());
        bytes.extend_from_slice(&wall.to_le_bytes());
    }
}

#[test]
fn e07_thread_id_reuse_starts_a_new_thread_when_the_stack_is_empty() {
    // Streaming: a second kOpNewThread for id 2 with a new name after its stack emptied.
    let mut bytes = trace(vec![rec(2, 0, ENTER, 0, 0), rec(2, 0, EXIT, 4, 4)])
        .write(&Layout::Streaming { summary: false, summary_threads: false });
    bytes.extend_from_slice(&[0, 0, 2, 2, 0, 5, 0]);
    bytes.extend_from_slice(b"later");
    thread_2_runs_b_from_10_to_17(&mut bytes);
    let p = analyze(&bytes).unwrap();
    let names: Vec<_> = p.profile.stacks().threads.iter().map(|t| (t.tid, t.name.as_str())).collect();
    assert_eq!(names, [(2, "worker"), (2, "later")]);
    assert_eq!(p.profile.facts.repairs.reused_thread_ids, 1);
    // A regular file listing one id twice: one thread, both names, a warning.
    let mut t = trace(simple());
    t.threads.push(ThreadDef { tid: 1, name: "main-2".into() });
    let p = regular(&t);
    assert_eq!(p.profile.stacks().threads[0].name, "main / main-2");
    assert!(!p.profile.facts.warnings.is_empty());
}

#[test]
fn e07_a_thread_renamed_before_its_first_event_stays_one_thread() {
    // Streaming: id 2 is defined "early", renamed "later" before any event, then runs B.
    let mut bytes = trace(simple()).write(&Layout::Streaming { summary: false, summary_threads: false });
    for name in ["early", "later"] {
        bytes.extend_from_slice(&[0, 0, 2, 2, 0, 5, 0]);
        bytes.extend_from_slice(name.as_bytes());
    }
    thread_2_runs_b_from_10_to_17(&mut bytes);
    let p = analyze(&bytes).unwrap();
    let names: Vec<_> = p.profile.stacks().threads.iter().map(|t| (t.tid, t.name.as_str())).collect();
    assert_eq!(names, [(1, "main"), (2, "later")]);
    assert_eq!(p.profile.facts.repairs.reused_thread_ids, 0, "no events were on the old name");
}

#[test]
fn e08_cpu_clock_base_need_not_be_zero() {
    let shifted: Vec<Record> = simple().into_iter().map(|r| Record { cpu: r.cpu + 5_000_000, ..r }).collect();
    assert_eq!(folded_cpu(&regular(&trace(shifted)).profile), folded_cpu(&regular(&trace(simple())).profile));
}

#[test]
fn e09_missing_clock_is_inferred() {
    let without_clock = |bytes: Vec<u8>| -> Vec<u8> {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let at = text.find("clock=").unwrap();
        let end = at + text[at..].find('\n').unwrap() + 1;
        [&bytes[..at], &bytes[end..]].concat()
    };
    // 14-byte records: dual.
    let p = analyze(&without_clock(trace(simple()).write(&Layout::ART_REGULAR))).unwrap();
    assert_eq!(p.profile.stacks().clocks, ClockSet::Dual);
    // 10-byte records, every thread starting at 0: thread-cpu (ART starts CPU there).
    let mut t = trace(simple());
    t.clocks = Clocks::Cpu;
    let layout = Layout::Regular { version: 2, data_offset: 32, record_size: None };
    let p = analyze(&without_clock(t.write(&layout))).unwrap();
    assert_eq!(p.profile.stacks().clocks, ClockSet::Cpu);
    assert!(p.profile.facts.warnings.iter().any(|w| w.contains("no clock")));
    // ... starting elsewhere: wall.
    let mut t = trace(simple().into_iter().map(|r| Record { wall: r.wall + 100, ..r }).collect());
    t.clocks = Clocks::Wall;
    assert_eq!(analyze(&without_clock(t.write(&layout))).unwrap().profile.stacks().clocks, ClockSet::Wall);
}

#[test]
fn e10_truncated_file_keeps_what_is_complete() {
    let bytes = trace(simple()).write(&Layout::ART_REGULAR);
    let p = analyze(&bytes[..bytes.len() - 20]).unwrap();
    assert!(p.profile.facts.repairs.truncated);
    assert_eq!(p.profile.facts.records, 2);
    assert_eq!(p.profile.facts.repairs.open_at_end, 2);
    assert_eq!(folded(&p.profile), "main [1];A.a 2\n");
    let err = analyze(&bytes[..40]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Truncated);
    assert!(err.to_string().starts_with("truncated at byte 40: "), "{err}");
}

#[test]
fn e11_writer_overflow_is_flagged() {
    let mut t = trace(simple());
    t.options.push(("data-file-overflow".into(), "true".into()));
    let p = regular(&t);
    assert!(p.profile.facts.repairs.overflow);
    assert!(p.profile.facts.warnings.iter().any(|w| w.contains("overflow")));
}

#[test]
fn e12_modified_utf8_names_are_decoded() {
    let mut t = trace(simple());
    t.threads[0].name = "caf\u{e9}".into();
    let mut bytes = t.write(&Layout::ART_REGULAR);
    // Replace the 'B' class name with a CESU-8 surrogate pair for U+1F600.
    let at = bytes.windows(4).position(|w| w == b"\tB\tb").unwrap() + 1;
    bytes.splice(at..at + 1, [0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80]);
    let p = analyze(&bytes).unwrap();
    assert_eq!(p.profile.stacks().threads[0].name, "café");
    assert!(p.profile.frames.iter().any(|m| m.class == "\u{1F600}"));
}

#[test]
fn e13_tabs_and_newlines_in_thread_names() {
    let mut t = trace(simple());
    t.threads[0].name = "tab\there\nand a second line".into();
    let p = regular(&t);
    assert_eq!(p.profile.stacks().threads[0].name, "tab\there\nand a second line");
    // Folded output cannot hold a line break or ';' inside a frame.
    assert!(folded(&p.profile).starts_with("tab\there and a second line [1];A.a"));
}

#[test]
fn e14_section_names_inside_names_do_not_end_sections() {
    let mut t = trace(simple());
    t.threads[0].name = "*end SLOW *methods".into();
    t.methods[0].class = "SLOW".into();
    t.methods[1].name = "*end".into();
    let p = regular(&t);
    assert_eq!(folded(&p.profile), "*end SLOW *methods [1];SLOW.a 6\n*end SLOW *methods [1];SLOW.a;B.*end 4\n");
}

#[test]
fn e15_header_offset_and_record_size_are_honoured() {
    let t = trace(simple());
    let reference = folded(&regular(&t).profile);
    let layout = Layout::Regular { version: 3, data_offset: 48, record_size: Some(20) };
    assert_eq!(folded(&analyze(&t.write(&layout)).unwrap().profile), reference);
    // The text says version 2, the header 3: warn and trust the header.
    let mut bytes = t.write(&Layout::ART_REGULAR);
    bytes[9] = b'2';
    let p = analyze(&bytes).unwrap();
    assert_eq!(folded(&p.profile), reference);
    assert!(p.profile.facts.warnings.iter().any(|w| w.contains("the header was used")));
}

#[test]
fn e16_action_3_records_are_counted_and_skipped() {
    let mut records = simple();
    records.insert(2, rec(1, 8, 3, 4, 2));
    let p = regular(&trace(records));
    assert_eq!(p.profile.facts.repairs.invalid_records, 1);
    assert_eq!(p.profile.facts.records, 5, "the skipped record is one of the trace's records");
    assert_eq!(folded(&p.profile), "main [1];A.a 6\nmain [1];A.a;B.b 4\n");
}

#[test]
fn e17_mismatched_exit_closes_the_frames_above() {
    // a > b > c; then "exit a" closes c and b at 8.
    let p = regular(&trace(vec![
        rec(1, 0, ENTER, 0, 0),
        rec(1, 4, ENTER, 2, 0),
        rec(1, 8, ENTER, 4, 0),
        rec(1, 0, EXIT, 8, 0),
    ]));
    assert_eq!(p.profile.facts.repairs.mismatched_exits, 1);
    assert_eq!(folded(&p.profile), "main [1];A.a 2\nmain [1];A.a;B.b 2\nmain [1];A.a;B.b;C.c 4\n");
}

#[test]
fn e18_exit_with_empty_stack_rebuilds_the_caller_from_the_timelines_start() {
    // b runs 2..6 at top level on main, then a exits at 10: a was running since before
    // tracing began. The timeline starts at 1 (worker's first record): on the wall clock a
    // starts there, on main's CPU clock at main's first record (CPU 2).
    let p = regular(&trace(vec![
        rec(2, 8, ENTER, 1, 0),
        rec(2, 8, EXIT, 3, 1),
        rec(1, 4, ENTER, 2, 2),
        rec(1, 4, EXIT, 6, 5),
        rec(1, 0, EXIT, 10, 9),
    ]));
    assert_eq!(p.profile.facts.repairs.unmatched_exits, 1);
    assert_eq!(folded(&p.profile), "main [1];A.a 5\nmain [1];A.a;B.b 4\nworker [2];C.c 2\n");
    assert_eq!(folded_cpu(&p.profile), "main [1];A.a 4\nmain [1];A.a;B.b 3\nworker [2];C.c 1\n");
}

/// Thread 1's last record is at 7, thread 2's at 30; the timeline ends at 30.
fn open_at_end(overflow: bool) -> Analysis {
    let mut t = trace(vec![
        rec(1, 0, ENTER, 0, 0),
        rec(2, 4, ENTER, 1, 0),
        rec(1, 8, ENTER, 3, 1),
        rec(1, 8, EXIT, 7, 2),
        rec(2, 12, ENTER, 30, 4),
    ]);
    if overflow {
        t.options.push(("data-file-overflow".into(), "true".into()));
    }
    regular(&t)
}

#[test]
fn e19_open_frames_close_at_the_timelines_end() {
    // On the wall clock at the timeline's end, on the CPU clock at their thread's last record.
    let p = open_at_end(false);
    assert_eq!(p.profile.facts.repairs.open_at_end, 3);
    assert_eq!(folded(&p.profile), "main [1];A.a 26\nmain [1];A.a;C.c 4\nworker [2];B.b 29\n");
    assert_eq!(folded_cpu(&p.profile), "main [1];A.a 1\nmain [1];A.a;C.c 1\nworker [2];B.b 4\n");
}

#[test]
fn e19_after_lost_data_open_frames_close_at_their_threads_last_record() {
    // The buffer overflowed: each thread's data may stop at a different time.
    let p = open_at_end(true);
    assert!(p.profile.facts.repairs.overflow);
    assert_eq!(folded(&p.profile), "main [1];A.a 3\nmain [1];A.a;C.c 4\nworker [2];B.b 29\n");
}

#[test]
fn e20_u32_times_unwrap() {
    let base = u64::from(u32::MAX) - 3;
    let records = simple().into_iter().map(|r| Record { wall: r.wall + base, cpu: r.cpu + base, ..r }).collect();
    let p = regular(&trace(records));
    assert_eq!(folded(&p.profile), "main [1];A.a 6\nmain [1];A.a;B.b 4\n");
    assert_eq!(p.profile.facts.repairs.time_wraps, 2);
}

#[test]
fn e20_wall_times_unwrap_on_one_timeline_across_threads() {
    // main runs across the wrap; worker's first record comes after it, in its own chunk.
    // Unwrapped per thread, worker would sit 2^32 µs (71 minutes) before main.
    let near = u64::from(u32::MAX) - 50;
    let records = vec![
        rec(1, 0, ENTER, near, 0),
        rec(1, 0, EXIT, near + 100, 40),
        rec(2, 4, ENTER, near + 60, 0),
        rec(2, 4, EXIT, near + 90, 10),
    ];
    let p = regular(&trace(records));
    let first: Vec<u64> = p.profile.stacks().threads.iter().map(|t| t.first.wall).collect();
    assert_eq!(first, [near, near + 60]);
    assert_eq!(folded(&p.profile), "main [1];A.a 100\nworker [2];B.b 30\n");
    assert_eq!(folded_cpu(&p.profile), "main [1];A.a 40\nworker [2];B.b 10\n");
    assert_eq!(p.profile.facts.repairs.time_wraps, 1);
}

#[test]
fn e21_per_thread_chunks_are_not_in_global_order() {
    let interleaved =
        vec![rec(1, 0, ENTER, 0, 0), rec(2, 4, ENTER, 1, 0), rec(1, 0, EXIT, 5, 0), rec(2, 4, EXIT, 9, 0)];
    let chunked = vec![interleaved[0], interleaved[2], interleaved[1], interleaved[3]];
    assert_eq!(folded(&regular(&trace(chunked)).profile), folded(&regular(&trace(interleaved)).profile));
}

#[test]
fn e22_identical_timestamps_and_zero_length_calls() {
    let p = regular(&trace(vec![
        rec(1, 0, ENTER, 5, 0),
        rec(1, 4, ENTER, 5, 0),
        rec(1, 4, EXIT, 5, 0),
        rec(1, 4, ENTER, 5, 0),
        rec(1, 4, EXIT, 5, 0),
        rec(1, 0, EXIT, 8, 0),
    ]));
    let table = frame_table(&p.profile);
    let b = table.rows.iter().find(|r| p.profile.frames[r.frame as usize].name == "b").unwrap();
    assert_eq!((b.calls, b.incl.wall), (2, 0));
    assert_eq!(folded(&p.profile), "main [1];A.a 3\n");
}

const POINTER_BASE: u64 = 0x7A3C_0000_0000;

/// The same trace with pointer-sized method ids, as V2 writes them.
fn v2_trace(records: Vec<Record>) -> Trace {
    let shift = |id: u64| {
        if id < POINTER_BASE {
            id + POINTER_BASE
        } else {
            id
        }
    };
    let mut t = trace(records.into_iter().map(|r| Record { method: shift(r.method), ..r }).collect());
    for m in &mut t.methods {
        m.id = shift(m.id);
    }
    t
}

fn v2_records(n: usize) -> Vec<Record> {
    let base = POINTER_BASE;
    (0..n)
        .map(|i| {
            rec(1, base + if i % 2 == 0 { 0 } else { 4 }, if i % 4 < 2 { ENTER } else { EXIT }, i as u64, i as u64)
        })
        .collect()
}

#[test]
fn e23_v2_blocks_decode_by_size_not_by_the_truncated_count() {
    // 70,000 records in one block: the writer stores the count modulo 65536.
    let t = v2_trace(v2_records(70_000));
    let layout =
        Layout::V2 { streaming: false, nanos: false, summary: true, block_records: 100_000, carry_state: false };
    let p = analyze(&t.write(&layout)).unwrap();
    assert_eq!(p.profile.facts.records, 70_000);
    // Split streaming blocks that carry their delta state over (ART writer bug).
    let layout = Layout::V2 { streaming: true, nanos: false, summary: true, block_records: 333, carry_state: true };
    let p = analyze(&t.write(&layout)).unwrap();
    assert_eq!(p.profile.facts.records, 70_000);
    assert_eq!(p.profile.facts.repairs.unknown_methods, 0);
    assert!(p.profile.facts.warnings.iter().any(|w| w.contains("continued the previous block")));
}

#[test]
fn e23_a_v2_block_that_starts_afresh_is_not_read_as_continuing() {
    // Blocks of two records of one thread, each starting from a zero delta state. The
    // second block's first word, B's exit (4 | 1), added to the state the first block left
    // (B's enter, 4), would be 9: an exit of C, a defined method. The block's first word
    // names a defined method as written, so it starts afresh.
    let layout = Layout::V2 { streaming: false, nanos: false, summary: true, block_records: 2, carry_state: false };
    let p = analyze(&trace(simple()).write(&layout)).unwrap();
    assert_eq!(folded(&p.profile), "main [1];A.a 6\nmain [1];A.a;B.b 4\n");
    assert!(
        !p.profile.facts.warnings.iter().any(|w| w.contains("continued the previous block")),
        "{:?}",
        p.profile.facts.warnings
    );
}

#[test]
fn e23_a_v2_block_that_continues_reads_on_though_its_first_word_names_a_method_seen_undefined() {
    // Blocks of two records of one thread, the state carried. The first block enters U,
    // a method never defined, and D (12); the second's first word, A's enter (0) less 12,
    // is -12: read from a fresh state it names U, which has a frame but no definition, so
    // it names no method, and the block continues from D.
    let u = 0u64.wrapping_sub(12);
    let records = vec![rec(1, u, ENTER, 0, 0), rec(1, 12, ENTER, 1, 1), rec(1, 0, ENTER, 2, 2), rec(1, 0, EXIT, 3, 3)];
    let layout = Layout::V2 { streaming: false, nanos: false, summary: true, block_records: 2, carry_state: true };
    let p = analyze(&trace(records).write(&layout)).unwrap();
    let u = "main [1];<unknown 0xfffffffffffffff4>";
    assert_eq!(folded(&p.profile), format!("{u} 1\n{u};D.d 1\n{u};D.d;A.a 1\n"));
}

#[test]
fn e24_v2_time_units_follow_the_summary() {
    let t = v2_trace(simple().into_iter().map(|r| Record { wall: r.wall * 1000, cpu: r.cpu * 1000, ..r }).collect());
    let ns = Layout::V2 { streaming: false, nanos: true, summary: true, block_records: 10, carry_state: false };
    assert_eq!(folded(&analyze(&t.write(&ns)).unwrap().profile), "main [1];A.a 6\nmain [1];A.a;B.b 4\n");
    let t = v2_trace(simple());
    let us = Layout::V2 { streaming: false, nanos: false, summary: true, block_records: 10, carry_state: false };
    assert_eq!(folded(&analyze(&t.write(&us)).unwrap().profile), "main [1];A.a 6\nmain [1];A.a;B.b 4\n");
}

#[test]
fn e24_v2_time_first_layout_counts_clock_counter_ticks() {
    // A 24 MHz counter: 24 ticks are 1 µs. Exits carry no method id.
    let ticks = |us: u64| us * 24;
    let records = simple().into_iter().map(|r| Record { wall: ticks(r.wall), cpu: ticks(r.cpu), ..r }).collect();
    let t = v2_trace(records);
    let bytes = t.write_time_first(&TimeFirst { counter_hz: 24_000_000, block_records: 3 });
    let p = analyze(&bytes).unwrap();
    assert_eq!(folded(&p.profile), "main [1];A.a 6\nmain [1];A.a;B.b 4\n");
    // Its CPU field's encoding is undocumented: only the wall clock is offered, and said so.
    assert_eq!(p.profile.stacks().clocks, ClockSet::Wall);
    assert!(p.profile.facts.warnings.iter().any(|w| w.contains("thread-CPU")));
    // Exported in time, the calls open and close at their µs: A at 0 and 10, B at 2 and 6.
    let options = droidflame_core::Options { keep_calls: true, ..droidflame_core::Options::default() };
    let p = droidflame_core::analyze_with(&bytes, options).unwrap();
    let mut out = Vec::new();
    products::write_speedscope(&p.profile, &products::ExportOptions::default(), &mut out).unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let events = json["profiles"][0]["events"].as_array().unwrap();
    let at: Vec<f64> = events.iter().map(|e| e["at"].as_f64().unwrap()).collect();
    assert_eq!(at, [0.0, 2.0, 6.0, 10.0]);
    assert_eq!(json["profiles"][0]["endValue"], 10.0);
    // Without a counter in the header, the first block shows which layout it is.
    let bytes = v2_trace(simple()).write_time_first(&TimeFirst { counter_hz: 0, block_records: 10 });
    assert_eq!(analyze(&bytes).unwrap().profile.facts.records, 4);
}

#[test]
fn e25_large_method_tables_keep_only_methods_that_ran() {
    let mut t = v2_trace(simple());
    t.methods.extend((100..50_100u64).map(|i| MethodDef::new(POINTER_BASE + i * 8, "Unused", "m", "()V")));
    let p = analyze(&t.write(&Layout::V2_FILE)).unwrap();
    assert_eq!(p.profile.frames.len(), 2);
}

#[test]
fn e26_64_bit_method_ids() {
    let micros = Layout::V2 { streaming: true, nanos: false, summary: true, block_records: 2, carry_state: false };
    let p = analyze(&v2_trace(simple()).write(&micros)).unwrap();
    assert!(p.profile.frames.iter().all(|m| m.id > u64::from(u32::MAX)));
    assert_eq!(folded(&p.profile), "main [1];A.a 6\nmain [1];A.a;B.b 4\n");
}

#[test]
fn e27_split_key_and_data_and_a_lone_data_half() {
    let t = trace(simple());
    let (key, data) = t.write_split();
    let p = droidflame_core::analyze_split(&key, &data).unwrap();
    assert!(p.profile.facts.format.split);
    assert_eq!(folded(&p.profile), folded(&regular(&t).profile));
    // A .key file without its final newline still joins.
    let p = droidflame_core::analyze_split(&data, &key[..key.len() - 1]).unwrap();
    assert_eq!(p.profile.facts.records, 4);
    let err = analyze(&data).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Unsupported);
    assert!(err.to_string().contains(".key"), "{err}");
    // Two files are a split pair only as a key and a non-streaming data file. A regular
    // trace (which starts like a key) beside a streaming one (which starts like data) is
    // two traces, to be compared.
    assert!(droidflame_core::is_split_pair(&key, &data) && droidflame_core::is_split_pair(&data, &key));
    let streaming = t.write(&Layout::ART_STREAMING);
    assert!(!droidflame_core::is_split_pair(&t.write(&Layout::ART_REGULAR), &streaming));
    assert!(!droidflame_core::is_split_pair(&streaming, &t.write(&Layout::ART_REGULAR)));
    assert!(!droidflame_core::is_split_pair(&t.write(&Layout::ART_REGULAR), &t.write(&Layout::ART_REGULAR)));
}

#[test]
fn e28_dalvik_slash_names_and_line_numbers() {
    let mut t = trace(simple());
    t.vm = "dalvik".into();
    t.methods[0] = MethodDef { line: Some(42), ..MethodDef::new(0, "com/example/Foo$Bar", "a", "()V") };
    t.methods[1] = MethodDef { line: Some(-1), ..MethodDef::new(4, "java/lang/String", "b", "()V") };
    let p = regular(&t);
    assert_eq!(
        folded(&p.profile),
        "main [1];com.example.Foo$Bar.a 6\nmain [1];com.example.Foo$Bar.a;java.lang.String.b 4\n"
    );
    let lines: Vec<_> = p.profile.frames.iter().map(|m| m.line).collect();
    assert_eq!(lines, [Some(42), None]);
    assert_eq!(p.profile.facts.format.text("vm"), Some("dalvik"));
}

#[test]
fn e29_sampling_traces_are_recognised() {
    // A sampler diffs stacks every 1 ms: bursts of records sharing one timestamp.
    let mut records = Vec::new();
    for s in 0..60u64 {
        let t = s * 1000;
        records.push(rec(1, 0, ENTER, t, t / 2));
        records.push(rec(1, 4, ENTER, t, t / 2));
        records.push(rec(1, 4, EXIT, t + 1000, t / 2 + 500));
        records.push(rec(1, 0, EXIT, t + 1000, t / 2 + 500));
    }
    let p = regular(&trace(records));
    assert_eq!(p.profile.facts.format.sampling_interval_us, Some(1000));
    assert!(p.profile.facts.warnings.iter().any(|w| w.contains("sampling")));
    assert_eq!(regular(&trace(simple())).profile.facts.format.sampling_interval_us, None);
}

/// Enter and exit A.a in turn at 0, 100, 200, ... µs: 500 records whose 499 gaps are all
/// 100 µs, the least a sampling rhythm has; then a 501st record 1 µs after the 500th.
fn sampling_window_edge() -> Vec<Record> {
    let mut records: Vec<Record> =
        (0..500u64).map(|i| rec(1, 0, if i % 2 == 0 { ENTER } else { EXIT }, i * 100, i * 50)).collect();
    records.push(rec(1, 0, ENTER, 499 * 100 + 1, 499 * 50 + 1));
    records.push(rec(1, 0, EXIT, 500 * 100, 500 * 50));
    records
}

#[test]
fn e29_only_a_threads_first_500_records_tell_its_rhythm() {
    // The first 500 records: the lowest fifth of their 499 gaps (99 of them) are 100 µs, a
    // mean of 100, so sampling. Counting the 501st record too would add a gap of 1 µs and
    // make the lowest hundred gaps' mean (99 * 100 + 1) / 100 = 99, so not sampling.
    let t = trace(sampling_window_edge());
    let v2 =
        |block_records| Layout::V2 { streaming: false, nanos: false, summary: true, block_records, carry_state: false };
    let layouts = [("V1", Layout::ART_REGULAR), ("V2", v2(1000)), ("V2, blocks of 7", v2(7))];
    for (name, layout) in &layouts {
        let p = analyze(&t.write(layout)).unwrap();
        assert_eq!(p.profile.facts.format.sampling_interval_us, Some(100), "{name}");
    }
    // The 499th record 1 µs after the 498th, a gap of 1 µs among the first 500 records:
    // (98 * 100 + 1) / 99 = 99.
    let mut records = sampling_window_edge();
    records[498].wall = records[497].wall + 1;
    for (name, layout) in &layouts {
        let p = analyze(&trace(records.clone()).write(layout)).unwrap();
        assert_eq!(p.profile.facts.format.sampling_interval_us, None, "{name}");
    }
}

#[test]
fn e29_twenty_gaps_are_enough_to_tell_a_rhythm() {
    // Records every 1000 µs, the last two at one time: 20 non-zero gaps, the fewest the
    // rule reads; the lowest fifth (4 gaps) has a mean of 1000 µs. With the last two records
    // moved onto the 20th's time, 19 gaps are too few to tell.
    let mut records: Vec<Record> =
        (0..21u64).map(|i| rec(1, 0, if i % 2 == 0 { ENTER } else { EXIT }, i * 1000, i * 500)).collect();
    records.push(rec(1, 0, EXIT, 20_000, 10_000));
    let v2 = Layout::V2 { streaming: false, nanos: false, summary: true, block_records: 1000, carry_state: false };
    for layout in [Layout::ART_REGULAR, v2.clone()] {
        assert_eq!(
            written_as(&trace(records.clone()), &layout).profile.facts.format.sampling_interval_us,
            Some(1000),
            "{layout:?}"
        );
    }
    records[20].wall = 19_000;
    records[21].wall = 19_000;
    for layout in [Layout::ART_REGULAR, v2] {
        assert_eq!(
            written_as(&trace(records.clone()), &layout).profile.facts.format.sampling_interval_us,
            None,
            "{layout:?}"
        );
    }
}

fn written_as(t: &Trace, layout: &Layout) -> Analysis {
    analyze(&t.write(layout)).unwrap()
}

#[test]
fn e30_recursion_counts_inclusive_time_once() {
    // a(0..10) > a(2..8) > b(3..5)
    let p = regular(&trace(vec![
        rec(1, 0, ENTER, 0, 0),
        rec(1, 0, ENTER, 2, 0),
        rec(1, 4, ENTER, 3, 0),
        rec(1, 4, EXIT, 5, 0),
        rec(1, 0, EXIT, 8, 0),
        rec(1, 0, EXIT, 10, 0),
    ]));
    let table = frame_table(&p.profile);
    let a = table.rows.iter().find(|r| p.profile.frames[r.frame as usize].name == "a").unwrap();
    assert_eq!((a.calls, a.recursive_calls, a.incl.wall, a.excl.wall), (2, 1, 10, 8));
    assert_eq!(folded(&p.profile), "main [1];A.a 4\nmain [1];A.a;A.a 4\nmain [1];A.a;A.a;B.b 2\n");
}

#[test]
fn e31_start_time_epoch_does_not_change_times() {
    let a = trace(simple());
    let b = Trace { start_us: 1_500_000_000_000_000, ..a.clone() };
    assert_eq!(products::summary_json(&regular(&a)), products::summary_json(&regular(&b)));
}

#[test]
fn e32_repeated_method_definitions_last_wins() {
    let mut t = trace(simple());
    t.methods.push(MethodDef::new(4, "B", "renamed", "()V"));
    let p = regular(&t);
    assert_eq!(folded(&p.profile), "main [1];A.a 6\nmain [1];A.a;B.renamed 4\n");
}

#[test]
fn e33_gzip_input_is_detected_from_the_bytes() {
    let t = trace(simple());
    let p = analyze(&gzip(&t.write(&Layout::ART_STREAMING))).unwrap();
    assert!(p.profile.facts.format.gzip);
    assert_eq!(folded(&p.profile), folded(&regular(&t).profile));
    // A damaged gzip stream is an error; a cut one keeps what was inflated.
    let gz = gzip(&t.write(&Layout::ART_REGULAR));
    let mut bad = gz.clone();
    bad[12] ^= 0xFF;
    bad[13] ^= 0xFF;
    assert!(analyze(&bad).is_err());
    assert!(analyze(&gz[..gz.len() - 8]).is_ok_and(|p| p.profile.facts.records == 4));
}

#[test]
fn unwind_is_an_exit() {
    let mut records = simple();
    records[2].action = UNWIND;
    assert_eq!(folded(&regular(&trace(records)).profile), "main [1];A.a 6\nmain [1];A.a;B.b 4\n");
}

#[test]
fn not_a_trace_names_what_it_found() {
    let err = analyze(b"hello world, not a trace").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NotATrace);
    assert_eq!(err.to_string(), "not an Android trace at byte 0: expected an Android method trace (starting with \"*version\" or \"SLOW\"), an atrace/systrace capture (ftrace text, TRACE: + zlib, systrace HTML), a Perfetto trace, simpleperf samples (starting with \"SIMPLEPERF\") or a heap dump (starting with \"JAVA PROFILE\"), found \"hello world, not\"");
    assert_eq!(analyze(b"").unwrap_err().to_string(), "not an Android trace: the input is empty");
    let mut zip = b"PK\x03\x04".to_vec();
    zip.extend_from_slice(&[0; 20]);
    assert!(analyze(&zip).unwrap_err().to_string().contains("unzip"));
}

#[test]
fn errors_stick_after_the_first() {
    let mut analyzer = Analyzer::default();
    // Binary bytes are refused at once; text waits for a whole first line.
    assert!(analyzer.push(b"garbage\x00\x01garbage").is_err());
    assert!(analyzer.push(b"more").is_err());
    assert!(analyzer.finish().is_err());
}

#[test]
fn stack_depth_limit_is_a_clean_error() {
    let records: Vec<Record> = (0..300).map(|i| rec(1, 0, ENTER, i, i)).collect();
    let options = droidflame_core::Options { max_stack_depth: 100, ..Default::default() };
    let err = droidflame_core::analyze_with(&trace(records).write(&Layout::ART_REGULAR), options).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Limit);
    assert!(err.to_string().contains("deeper than 100 frames"), "{err}");
}

#[test]
fn memory_grows_with_unique_stacks_not_records() {
    // A streaming trace of 2,000,000 records generated chunk by chunk, never held whole:
    // the profile keeps one node per unique stack (root, A.a, A.a;B.b).
    let head = trace(vec![rec(1, 0, ENTER, 0, 0), rec(1, 0, EXIT, 1, 1)])
        .write(&Layout::Streaming { summary: false, summary_threads: false });
    let mut analyzer = Analyzer::default();
    analyzer.push(&head).unwrap();
    let mut t = 2u32;
    let mut chunk = Vec::with_capacity(14 * 4 * 4096);
    for _ in 0..122 {
        chunk.clear();
        for _ in 0..4096 {
            for (method, action) in [(0u32, ENTER), (4, ENTER), (4, EXIT), (0, EXIT)] {
                chunk.extend_from_slice(&1u16.to_le_bytes());
                chunk.extend_from_slice(&(method | u32::from(action)).to_le_bytes());
                chunk.extend_from_slice(&t.to_le_bytes());
                chunk.extend_from_slice(&t.to_le_bytes());
                t = t.wrapping_add(3);
            }
        }
        analyzer.push(&chunk).unwrap();
    }
    let p = analyzer.finish().unwrap();
    assert_eq!(p.profile.facts.records, 2 + 122 * 4096 * 4);
    assert_eq!(p.profile.stacks().threads[0].tree.len(), 3);
    let a = frame_table(&p.profile).rows.into_iter().find(|r| p.profile.frames[r.frame as usize].name == "a").unwrap();
    assert_eq!(a.calls, 1 + 122 * 4096);
}
