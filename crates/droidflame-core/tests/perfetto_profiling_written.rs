//! Perfetto CPU samples and heap dumps written by the testkit, with what each must give:
//! stacks across sequences and state clears, samples out of file order, weights from the
//! sampling event, the notes of skipped and lost samples; dumps over several packets,
//! several dumps and heaps, frees beyond allocations, Java frames a mapping renames.

use droidflame_core::products::{self, summary, FoldedOptions};
use droidflame_core::{analyze, Analysis, Clock, SourceKind, Unit};
use droidflame_testkit::perfetto::{Message, Trace};
use droidflame_testkit::perfetto_profiling::{
    heap_dump, perf_sample, records_lost, samples_start, skipped_sample, CodeFrame, CodeInterner, HeapDumpSpec,
    HeapRow, Timebase,
};
use std::collections::BTreeMap;

const MS: u64 = 1_000_000;

fn folded(p: &Analysis, clock: Clock) -> BTreeMap<String, u64> {
    let text = products::folded(&p.profile, &FoldedOptions { clock: Some(clock), ..FoldedOptions::default() }).unwrap();
    text.lines().map(|l| l.rsplit_once(' ').unwrap()).map(|(s, v)| (s.to_owned(), v.parse().unwrap())).collect()
}

fn libc(name: &str) -> CodeFrame {
    CodeFrame::function(name, "/apex/com.android.runtime/lib64/bionic/libc.so")
}

fn kernel(name: &str) -> CodeFrame {
    CodeFrame::function(name, "kernel")
}

#[test]
fn samples_become_each_threads_stacks_across_sequences_and_clears() {
    let main =
        vec![libc("__start_thread"), CodeFrame::function("void com.example.app.Feed.bind(int)", "/data/app/base.odex")];
    let sleep = vec![libc("__start_thread"), libc("nanosleep"), kernel("schedule"), kernel("__schedule")];
    let raw = vec![libc("__start_thread"), CodeFrame::address("/system/lib64/libhwui.so", 0x1a2b)];
    let mut packets = Vec::new();
    let (mut one, mut two) = (CodeInterner::new(0), CodeInterner::new(1000));
    packets.push(samples_start(1, Timebase::Tracepoint));
    packets.push(samples_start(2, Timebase::Tracepoint));
    // Sequence 1 samples thread 10; sequence 2 thread 20; file order is not time order.
    let mut expected: BTreeMap<String, u64> = BTreeMap::new();
    let mut add = |thread: &str, stack: &str| *expected.entry(format!("{thread};{stack}")).or_default() += 1;
    for i in 0..6u64 {
        let stack = if i % 2 == 0 { &main } else { &sleep };
        let id = one.stack(stack);
        packets.push(perf_sample(1, &mut one, (10 - i) * MS, (10, 10, 0), id));
        add(
            "Thread 10 [10]",
            if i % 2 == 0 {
                "__start_thread;com.example.app.Feed.bind"
            } else {
                "__start_thread;nanosleep;schedule_[k];__schedule_[k]"
            },
        );
    }
    // Sequence 2 clears its state halfway: ids it gives again are new ones.
    for i in 0..4u64 {
        if i == 2 {
            two.clear();
            packets.push(samples_start(2, Timebase::Tracepoint));
        }
        let id = two.stack(&raw);
        packets.push(perf_sample(2, &mut two, (20 + i) * MS, (20, 21, 1), id));
        add("Thread 21 [21]", "__start_thread;libhwui.so+0x1a2b");
    }
    let p = analyze(&Trace::of(&packets).bytes).unwrap();
    assert_eq!(p.profile.source().kind, SourceKind::CpuSamples);
    assert_eq!(p.profile.unit(), Unit::Samples);
    assert_eq!(folded(&p, Clock::Cpu), expected);
    assert_eq!(p.profile.stacks().threads.iter().find(|t| t.tid == 21).unwrap().pid, Some(20));
    // Samples count once per stack that holds a function: `__start_thread` is in all ten
    // (of both threads), bind in thread 10's even three; each node counts the samples
    // whose stack ends there.
    let t10 = p.profile.stacks().threads.iter().find(|t| t.tid == 10).unwrap();
    let at_node = |name: &str| {
        t10.tree.nodes().iter().skip(1).filter(|n| p.profile.frame_name(n.frame) == name).map(|n| n.calls).sum::<u64>()
    };
    assert_eq!((at_node("__start_thread"), at_node("com.example.app.Feed.bind")), (0, 3));
    let s = summary(&p);
    let calls = |name: &str| s.methods.iter().find(|m| m.name == name).and_then(|m| m.calls);
    assert_eq!((calls("__start_thread"), calls("com.example.app.Feed.bind")), (Some(10), Some(3)));
    assert_eq!((s.count, s.counted), ("samples", Some(10)));
    assert!(s.methods.iter().all(|m| m.recursive_calls == 0));
    // The Java frame is a method of its class, so a mapping can rename it.
    assert!(p.profile.frames.iter().any(|f| f.class == "com.example.app.Feed" && f.name == "bind"));
}

#[test]
fn a_cpu_clock_timebase_weighs_samples_in_time() {
    for (timebase, per_sample_us) in
        [(Timebase::CpuClockPeriod(250_000), 250), (Timebase::CpuClockFrequency(100), 10_000)]
    {
        let mut code = CodeInterner::new(0);
        let stack = code.stack(&[libc("main"), libc("work")]);
        let mut packets = vec![samples_start(1, timebase)];
        for i in 0..8 {
            packets.push(perf_sample(1, &mut code, (1 + i) * MS, (5, 5, 0), stack));
        }
        let p = analyze(&Trace::of(&packets).bytes).unwrap();
        assert_eq!(p.profile.unit(), Unit::Micros);
        assert_eq!(folded(&p, Clock::Cpu)["Thread 5 [5];main;work"], 8 * per_sample_us, "{timebase:?}");
    }
}

#[test]
fn skipped_lost_and_unknown_samples_are_told() {
    let mut code = CodeInterner::new(0);
    let stack = code.stack(&[libc("main")]);
    let mut packets = vec![samples_start(1, Timebase::Tracepoint), perf_sample(1, &mut code, MS, (5, 5, 0), stack)];
    packets.push(skipped_sample(1, 2 * MS, 5, 1));
    packets.push(skipped_sample(1, 3 * MS, 5, 2));
    packets.push(skipped_sample(1, 3 * MS, 5, 2));
    packets.push(records_lost(1, 4 * MS, 40));
    packets.push(perf_sample(1, &mut code, 5 * MS, (5, 5, 0), 999));
    let p = analyze(&Trace::of(&packets).bytes).unwrap();
    let said = |text: &str| p.profile.facts.warnings.iter().any(|w| w.contains(text));
    assert!(said("skipped 3 samples (1 at the read stage, 2 at the unwind stage)"), "{:?}", p.profile.facts.warnings);
    assert!(said("lost 40 records of samples (1 report)"), "{:?}", p.profile.facts.warnings);
    assert!(said("1 samples name a callstack their sequence never gave"), "{:?}", p.profile.facts.warnings);
    assert_eq!(folded(&p, Clock::Cpu).get("Thread 5 [5];<unknown callstack>"), Some(&1));
}

fn dump(pid: u32, heap: &str, ts: u64, rows: &[(&[CodeFrame], u64, u64)]) -> HeapDumpSpec {
    HeapDumpSpec {
        pid,
        heap: Some(heap.to_owned()),
        ts,
        rows: rows
            .iter()
            .map(|(stack, allocated, freed)| {
                let row =
                    HeapRow { allocated: *allocated, freed: *freed, allocations: allocated / 16, frees: freed / 16 };
                (stack.to_vec(), row)
            })
            .collect(),
    }
}

#[test]
fn heap_dumps_over_several_packets_give_each_dumps_bytes() {
    let a = [libc("main"), libc("malloc")];
    let b = [libc("main"), libc("load"), libc("malloc")];
    let java = [libc("main"), CodeFrame::function("com.example.a.b", "/data/app/base.odex")];
    let mut code = CodeInterner::new(0);
    let mut index = 0;
    let mut packets = Vec::new();
    // Dump 1; dump 2 later, totals running on. Process 7 has two heaps; in dump 2 stack b
    // freed more than it allocated (sampling), which counts as nothing left.
    packets.extend(heap_dump(
        1,
        &mut code,
        &[
            dump(7, "malloc", 10 * MS, &[(&a, 1600, 0), (&b, 320, 160)]),
            dump(7, "com.android.art", 10 * MS, &[(&java, 480, 0)]),
        ],
        1,
        &mut index,
    ));
    packets.extend(heap_dump(
        1,
        &mut code,
        &[
            dump(7, "malloc", 20 * MS, &[(&a, 3200, 1600), (&b, 320, 480)]),
            dump(7, "com.android.art", 20 * MS, &[(&java, 960, 480)]),
        ],
        2,
        &mut index,
    ));
    let mut p = analyze(&Trace::of(&packets).bytes).unwrap();
    let kinds: Vec<_> = p.profile.sources().iter().map(|s| (s.kind, s.unit)).collect();
    assert_eq!(kinds, [(SourceKind::HeapUnreleased, Unit::Bytes), (SourceKind::HeapAllocated, Unit::Bytes)]);
    assert_eq!(p.profile.dumps(), Some((1, 2)), "the last dump by default");
    let expect = |pairs: &[(&str, u64)]| {
        pairs.iter().map(|(s, v)| (format!("Process 7 [7];{s}"), *v)).collect::<BTreeMap<_, _>>()
    };
    assert_eq!(
        folded(&p, Clock::Wall),
        expect(&[("malloc heap;main;malloc", 1600), ("com.android.art heap;main;com.example.a.b", 480)])
    );
    p.profile.select_dump(0).unwrap();
    assert_eq!(
        folded(&p, Clock::Wall),
        expect(&[
            ("malloc heap;main;malloc", 1600),
            ("malloc heap;main;load;malloc", 160),
            ("com.android.art heap;main;com.example.a.b", 480)
        ])
    );
    p.profile.select_source(SourceKind::HeapAllocated).unwrap();
    assert_eq!(
        folded(&p, Clock::Wall),
        expect(&[
            ("malloc heap;main;malloc", 1600),
            ("malloc heap;main;load;malloc", 320),
            ("com.android.art heap;main;com.example.a.b", 480)
        ])
    );
    p.profile.select_dump(1).unwrap();
    let s = summary(&p);
    let heap: Vec<_> = s.sources.iter().map(|s| (s.name, s.heap)).collect();
    assert_eq!(heap, [("heap-unreleased", true), ("heap-allocated", true)], "the summary says each is a heap profile");
    assert_eq!((s.count, s.counted), ("allocations", Some((3200 + 320 + 960) / 16)));
    let calls = |name: &str| s.methods.iter().find(|m| m.name == name).and_then(|m| m.calls);
    assert_eq!(calls("main"), Some((3200 + 320 + 960) / 16));
    assert_eq!(calls("load"), Some(320 / 16));
    assert!(
        p.profile
            .facts
            .warnings
            .iter()
            .any(|w| w.contains("1 callstack's totals of heap dumps freed more bytes than they allocated")),
        "{:?}",
        p.profile.facts.warnings
    );
    assert!(p.profile.select_dump(2).is_err());
    assert!(p.profile.select_source(SourceKind::CpuSamples).is_err());
}

#[test]
fn a_first_packet_that_reads_as_a_text_character_is_still_perfetto() {
    // 0x0A (a packet) then its length: 35 is `#`, 123 is `{`, each a text format's start.
    for len in [35usize, 123] {
        let mut code = CodeInterner::new(0);
        let stack = code.stack(&[libc("main")]);
        // A packet of one field no reader knows: a 2-byte key, a 1-byte length, the rest.
        let mut first = Message::new();
        first.bytes(1000, &vec![b'x'; len - 3]);
        assert_eq!(first.0.len(), len);
        let packets = [first, samples_start(1, Timebase::Tracepoint), perf_sample(1, &mut code, MS, (5, 5, 0), stack)];
        let p = analyze(&Trace::of(&packets).bytes).unwrap_or_else(|e| panic!("{len}: {e}"));
        assert_eq!(p.profile.facts.format.family, "perfetto");
    }
}

#[test]
fn a_deobfuscation_mapping_in_the_trace_renames_its_java_frames() {
    use droidflame_testkit::perfetto_profiling::deobfuscation_mapping;
    let odex = "/data/app/com.example.app/oat/arm64/base.odex";
    let mut code = CodeInterner::new(0);
    let stack = code.stack(&[libc("main"), CodeFrame::function("a.b.c", odex), CodeFrame::function("a.b.d", odex)]);
    let packets = [
        samples_start(1, Timebase::Tracepoint),
        perf_sample(1, &mut code, MS, (5, 5, 0), stack),
        deobfuscation_mapping(&[(
            "a.b",
            "com.example.app.Feed",
            &[("c", "bind"), ("d", "com.example.app.Images.load")],
        )]),
    ];
    let p = analyze(&Trace::of(&packets).bytes).unwrap();
    assert_eq!(
        folded(&p, Clock::Cpu).keys().collect::<Vec<_>>(),
        ["Thread 5 [5];main;com.example.app.Feed.bind;com.example.app.Images.load"]
    );
    assert!(
        p.profile
            .facts
            .warnings
            .iter()
            .any(|w| w.contains("a deobfuscation mapping of 1 class): 2 methods were renamed")),
        "{:?}",
        p.profile.facts.warnings
    );
    assert_eq!(p.mapping.as_ref().map(|m| m.methods.mapped), Some(2));
}

/// Four samples of thread 10: start;X;A;B, start;Y;A;B, start;A;B;A;B (the pair A → B
/// twice on one stack) and start;X;A.
fn four_samples() -> Analysis {
    let f = |name: &str| libc(name);
    let stacks = [
        vec![f("start"), f("X"), f("A"), f("B")],
        vec![f("start"), f("Y"), f("A"), f("B")],
        vec![f("start"), f("A"), f("B"), f("A"), f("B")],
        vec![f("start"), f("X"), f("A")],
    ];
    let mut interner = CodeInterner::new(0);
    let mut packets = vec![samples_start(1, Timebase::Tracepoint)];
    for (i, stack) in stacks.iter().enumerate() {
        let id = interner.stack(stack);
        packets.push(perf_sample(1, &mut interner, (i as u64 + 1) * MS, (10, 10, 0), id));
    }
    analyze(&Trace::of(&packets).bytes).unwrap()
}

#[test]
fn a_caller_callee_pair_counts_each_sample_that_holds_it_once() {
    let p = four_samples();
    let table = products::frame_table(&p.profile);
    let name = |frame: u32| if frame == droidflame_core::profile::NONE { "-" } else { p.profile.frame_name(frame) };
    let edges: BTreeMap<(&str, &str), (u64, u64)> =
        table.edges.iter().map(|e| ((name(e.caller), name(e.callee)), (e.calls, e.incl.cpu))).collect();
    let sample = edges[&("-", "start")].1 / 4;
    assert!(sample > 0);
    let expected: BTreeMap<(&str, &str), (u64, u64)> = [
        (("-", "start"), 4),
        (("start", "X"), 2),
        (("start", "Y"), 1),
        (("start", "A"), 1),
        (("X", "A"), 2),
        (("Y", "A"), 1),
        (("A", "B"), 3),
        (("B", "A"), 1),
    ]
    .into_iter()
    .map(|(pair, samples)| (pair, (samples, samples * sample)))
    .collect();
    assert_eq!(edges, expected);
    let calls = |frame: &str| table.rows.iter().find(|r| p.profile.frame_name(r.frame) == frame).map(|r| r.calls);
    assert_eq!((calls("A"), calls("B")), (Some(4), Some(3)));
}

#[test]
fn a_views_methods_table_counts_each_sample_that_holds_a_method_or_pair_once() {
    // With X merged into its caller: start;A;B, start;Y;A;B, start;A;B;A;B and start;A.
    let p = four_samples();
    let view = products::View { transforms: vec![products::Transform::Merge("X".into())], invert: false };
    let json: serde_json::Value =
        serde_json::from_str(&products::methods_json_of_view(&p.profile, Some(0), &view).unwrap()).unwrap();
    let methods = json["methods"].as_array().unwrap();
    let rows: BTreeMap<&str, (u64, u64)> = methods
        .iter()
        .map(|m| (m["name"].as_str().unwrap(), (m["calls"].as_u64().unwrap(), m["recursive_calls"].as_u64().unwrap())))
        .collect();
    assert_eq!(rows, BTreeMap::from([("start", (4, 0)), ("A", (4, 0)), ("B", (3, 0)), ("Y", (1, 0))]));
    let name = |i: &serde_json::Value| i.as_u64().map_or("-", |i| methods[i as usize]["name"].as_str().unwrap());
    let edges: BTreeMap<(&str, &str), u64> = json["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| ((name(&e["caller"]), name(&e["callee"])), e["calls"].as_u64().unwrap()))
        .collect();
    let expected = [
        (("-", "start"), 4),
        (("start", "A"), 3),
        (("start", "Y"), 1),
        (("Y", "A"), 1),
        (("A", "B"), 3),
        (("B", "A"), 1),
    ];
    assert_eq!(edges, BTreeMap::from(expected));
}

#[test]
fn a_process_of_one_heap_and_allocations_of_no_bytes() {
    let a = [libc("main"), libc("malloc")];
    let zero = [libc("main"), libc("calloc0")];
    let even = [libc("main"), libc("free_all")];
    let sampled = [libc("main"), libc("realloc")];
    let mut code = CodeInterner::new(0);
    let mut index = 0;
    // Process 8 has one heap: its stacks start at their first frame. `calloc0` made 3
    // allocations of no bytes, none freed; `free_all` freed all it allocated; `realloc`'s
    // sampled totals freed both its allocations but only 32 of its 160 bytes.
    let row = |allocated, freed, allocations, frees| HeapRow { allocated, freed, allocations, frees };
    let spec = HeapDumpSpec {
        pid: 8,
        heap: Some("malloc".to_owned()),
        ts: 30 * MS,
        rows: vec![
            (a.to_vec(), row(640, 160, 4, 1)),
            (zero.to_vec(), row(0, 0, 3, 0)),
            (even.to_vec(), row(96, 96, 2, 2)),
            (sampled.to_vec(), row(160, 32, 2, 2)),
        ],
    };
    let packets = heap_dump(1, &mut code, &[spec], 1, &mut index);
    let mut p = analyze(&Trace::of(&packets).bytes).unwrap();
    // Not freed: 480 bytes in 3 allocations at malloc, no bytes in 3 at calloc0, 128 bytes
    // in no allocation at realloc; free_all has nothing left and is no row of the tree.
    let left = [("Process 8 [8];main;malloc".to_owned(), 480), ("Process 8 [8];main;realloc".to_owned(), 128)];
    assert_eq!(folded(&p, Clock::Wall), BTreeMap::from(left));
    let calls = |p: &Analysis| -> BTreeMap<String, Option<u64>> {
        summary(p).methods.iter().map(|m| (m.name.clone(), m.calls)).collect()
    };
    let named = |pairs: &[(&str, u64)]| -> BTreeMap<String, Option<u64>> {
        pairs.iter().map(|&(n, c)| (n.to_owned(), Some(c))).collect()
    };
    assert_eq!(calls(&p), named(&[("main", 6), ("malloc", 3), ("calloc0", 3), ("realloc", 0)]));
    // Freeing all it allocated is not freeing more.
    assert!(p.profile.facts.warnings.iter().all(|w| !w.contains("freed more")), "{:?}", p.profile.facts.warnings);
    // The process's four rows, at the dump's time.
    let process = &p.profile.stacks().threads[0];
    assert_eq!((process.records, process.first.wall, process.last.wall), (4, 30 * MS, 30 * MS));
    p.profile.select_source(SourceKind::HeapAllocated).unwrap();
    assert_eq!(summary(&p).counted, Some(4 + 3 + 2 + 2));
    assert_eq!(calls(&p), named(&[("main", 11), ("malloc", 4), ("free_all", 2), ("realloc", 2), ("calloc0", 3)]));
}

/// The frames a trace's apps produced are timed on the trace's timeline whichever source is
/// shown: a heap source's values are bytes, and its stacks' tick is no time at all.
#[test]
fn app_frames_keep_their_times_while_a_heap_source_is_shown() {
    use droidflame_testkit::perfetto_frames::{app_frame, SurfaceFrame};
    let java = [libc("main"), CodeFrame::function("com.example.a.b", "/data/app/base.odex")];
    let mut code = CodeInterner::new(0);
    let mut index = 0;
    let frame = SurfaceFrame {
        cookie: 10,
        token: 1,
        display_token: 101,
        pid: 7,
        layer: "com.example/com.example.MainActivity#0",
        jank: 0,
        present: 1,
        prediction: 1,
    };
    let mut packets: Vec<Message> = app_frame(&frame, (2 * MS, 18 * MS), (3 * MS, Some(12 * MS)));
    packets.extend(heap_dump(1, &mut code, &[dump(7, "malloc", 20 * MS, &[(&java, 1600, 0)])], 1, &mut index));
    let mut p = analyze(&Trace::of(&packets).bytes).unwrap();
    let times = |p: &Analysis| {
        let json: serde_json::Value = serde_json::from_str(&products::frames_json(&p.profile)).unwrap();
        let f = &json["frames"][0];
        (f["start_us"].as_f64(), f["end_us"].as_f64())
    };
    // The frame's actual span runs from 3 ms to 12 ms, 1 ms after the trace's first event.
    p.profile.select_source(SourceKind::HeapAllocated).unwrap();
    assert_eq!(p.profile.source().kind, SourceKind::HeapAllocated);
    assert_eq!(times(&p), (Some(1_000.0), Some(10_000.0)));
    p.profile.select_source(SourceKind::HeapUnreleased).unwrap();
    assert_eq!(times(&p), (Some(1_000.0), Some(10_000.0)));
}

/// A heap profile opens on its largest process, whatever the processes are called: a
/// process named `app` is no heap dump's app heap.
#[test]
fn a_heap_profile_opens_on_its_largest_process_even_beside_one_named_app() {
    let mut code = CodeInterner::new(0);
    let mut index = 0;
    let row = |allocated| HeapRow { allocated, freed: 0, allocations: 1, frees: 0 };
    let spec = |pid, bytes| HeapDumpSpec {
        pid,
        heap: Some("malloc".to_owned()),
        ts: 30 * MS,
        rows: vec![(vec![libc("main"), libc("malloc")], row(bytes))],
    };
    let mut packets = Vec::new();
    for (pid, name) in [(8u64, "app"), (9, "com.example.big")] {
        let mut process = Message::new();
        process.varint(1, pid).varint(2, 1).bytes(3, name.as_bytes());
        let mut tree = Message::new();
        tree.message(1, &process);
        let mut packet = Message::new();
        packet.varint(8, 10 * MS).message(2, &tree);
        packets.push(packet);
    }
    packets.extend(heap_dump(1, &mut code, &[spec(8, 64), spec(9, 4096)], 1, &mut index));
    let p = analyze(&Trace::of(&packets).bytes).unwrap();
    let names: Vec<_> = p.profile.stacks().threads.iter().map(|t| t.name.as_str()).collect();
    assert!(names.contains(&"app"), "{names:?}");
    assert_eq!(p.profile.stacks().threads[p.profile.default_thread().unwrap()].name, "com.example.big");
}
