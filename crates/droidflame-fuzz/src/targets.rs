//! The fuzz targets: one per decoder entry point, each with its seeds (corpus files read in
//! place plus testkit-written inputs) and, for compressed containers, a wrapper so that
//! mutations hit the decoder behind the decompressor and not only the checksum.

use droidflame_testkit::atrace::Capture;
use droidflame_testkit::perfetto::{self as pf, FromCapture};
use droidflame_testkit::scenario::{generate, Config};
use droidflame_testkit::simpleperf as sp;
use droidflame_testkit::{corpus_dir, gzip, Layout, TimeFirst};

pub struct Target {
    pub name: &'static str,
    pub seeds: Vec<Vec<u8>>,
    /// Applied to a mutated seed before it is analysed (compression, framing).
    pub wrap: fn(&[u8]) -> Vec<u8>,
    /// Runs one input, fed in chunks of the given size.
    pub exercise: fn(&[u8], usize),
}

/// How a finding of the target named `name` is run again.
pub fn exercise_of(name: &str) -> fn(&[u8], usize) {
    all().into_iter().find(|t| t.name == name).map_or(crate::exercise::exercise as fn(&[u8], usize), |t| t.exercise)
}

fn same(bytes: &[u8]) -> Vec<u8> {
    bytes.to_vec()
}

fn gzipped(bytes: &[u8]) -> Vec<u8> {
    gzip(bytes)
}

/// `TRACE:` + zlib chunks around mutated text, cut in three like a .ctrace.
fn ctrace(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for piece in text.chunks(text.len().div_ceil(3).max(1)) {
        out.extend_from_slice(b"TRACE:\n");
        out.extend(droidflame_testkit::zlib(piece));
    }
    out
}

/// Mutated packets inside one zlib-compressed packet, as Perfetto's `compressed_packets`.
fn perfetto_compressed(packets: &[u8]) -> Vec<u8> {
    pf::Trace { bytes: packets.to_vec() }.compressed().bytes
}

/// Mutated packets inside zstd-compressed packets, as Perfetto's `zstd_compressed_packets`.
fn perfetto_zstd(packets: &[u8]) -> Vec<u8> {
    pf::Trace { bytes: packets.to_vec() }.zstd_compressed(4096, 2).bytes
}

/// Written app and display frames of a frame timeline (every jank type, a frame never
/// ended, an end of no start) beside scheduling with blocked reasons, CPU frequency and
/// doFrame slices.
fn frame_seeds() -> Vec<Vec<u8>> {
    use droidflame_testkit::perfetto_frames::{app_frame, display_frame, frame_end, SurfaceFrame};
    const MS: u64 = 1_000_000;
    let mut c = Capture::new();
    c.switch(1, 0, ("swapper/1", 0), "R", ("app", 5))
        .mark("app", 5, 5, MS, "B|5|Choreographer#doFrame 77")
        .switch(1, 2 * MS, ("app", 5), "D", ("swapper/1", 0))
        .event("swapper/1", 0, 0, 1, 2 * MS + 1000, "sched_blocked_reason", "pid=5 iowait=1 caller=io_schedule+0x1/0x2")
        .event("swapper/1", 0, 0, 1, 3 * MS, "cpu_frequency", "state=1800000 cpu_id=1")
        .event("waker", 7, 7, 2, 4 * MS, "sched_waking", "comm=app pid=5 prio=120 target_cpu=001")
        .switch(1, 5 * MS, ("swapper/1", 0), "R", ("app", 5))
        .mark("app", 5, 5, 6 * MS, "E|5")
        .mark("RenderThread", 6, 5, 7 * MS, "B|5|DrawFrame")
        .mark("RenderThread", 6, 5, 9 * MS, "E|5")
        .mark("surfaceflinger", 9, 9, 8 * MS, "C|9|VSYNC-app|1");
    let mut packets = pf::from_capture(&c, FromCapture::default());
    for (i, bits) in [1u64, 64 | 128, 2 | 4 | 8 | 16 | 32, 256 | 512 | 1024 | 2048, 4096 | 8192].iter().enumerate() {
        let i = i as u64;
        let frame = SurfaceFrame {
            cookie: 10 * (i + 1),
            token: 100 + i,
            display_token: 200 + i,
            pid: 5,
            layer: "com.example/com.example.Main#0",
            jank: *bits,
            present: 1 + i % 5,
            prediction: 1 + i % 3,
        };
        let end = (i != 3).then_some((i * 17 + 12) * MS);
        packets.extend(app_frame(&frame, (i * 17 * MS, (i * 17 + 16) * MS), (i * 17 * MS, end)));
    }
    packets.push(frame_end(99 * MS, 12345));
    packets.push(display_frame(0, 500, 7, 9, None));
    packets.push(frame_end(16 * MS, 500));
    packets.push(display_frame(MS, 500, 7, 9, Some((16, 2))));
    packets.push(frame_end(20 * MS, 501));
    vec![pf::Trace::of(&packets).bytes]
}

/// Java heap graphs in Perfetto packets, as ART writes them: one object a packet or many,
/// ids packed or not, and two dumps interleaved (of which one is read).
fn heap_graph_seeds() -> Vec<Vec<u8>> {
    use droidflame_testkit::perfetto_heap::Encoding;
    let one = |per_packet, packed| droidflame_testkit::app_heap::heap_graph(Encoding { per_packet, packed });
    let mut two = one(1, true);
    two.extend(one(2, false));
    vec![one(1, true), one(4, false), one(100, true), two]
}

/// Written heap dumps, 4- and 8-byte ids: classes with statics and a superclass chain, a
/// `WeakReference` subclass, a destroyed activity, a detached fragment, heaps, arrays,
/// roots of several kinds, an instance before its class, two segments.
fn hprof_seeds() -> Vec<Vec<u8>> {
    use droidflame_testkit::hprof::{HprofWriter, Value::*};
    [4, 8]
        .map(|id_size| {
            let mut w = HprofWriter::new(id_size);
            let classes = [
                (0x100, "java/lang/Object"),
                (0x101, "java/lang/Class"),
                (0x102, "java/lang/ref/Reference"),
                (0x103, "java/lang/ref/WeakReference"),
                (0x110, "android/app/Activity"),
                (0x120, "androidx/fragment/app/Fragment"),
                (0x140, "leakcanary/KeyedWeakReference"),
                (0x150, "[Ljava/lang/Object;"),
                (0x151, "[B"),
            ];
            classes.iter().for_each(|&(id, name)| w.load_class(id, name));
            w.heap("zygote");
            w.instance(0x1009, 0x120, &[Object(0x1000)]);
            w.class_dump(0x100, 0, 8, &[], &[]);
            w.class_dump(0x101, 0x100, 50, &[("count", Int(2)), ("all", Object(0x1010))], &[]);
            w.class_dump(0x102, 0x100, 16, &[], &[("referent", 2), ("queue", 2)]);
            w.class_dump(0x103, 0x102, 16, &[], &[]);
            w.class_dump(0x110, 0x100, 20, &[], &[("mDestroyed", 4), ("fragment", 2)]);
            w.class_dump(0x120, 0x100, 12, &[], &[("mFragmentManager", 2)]);
            w.class_dump(0x140, 0x103, 16, &[("serial", Long(7))], &[]);
            w.end_segment();
            w.heap("app");
            w.object_array(0x1010, 0x150, &[0x1000, 0, 0x1002]);
            w.instance(0x1000, 0x110, &[Bool(true), Object(0x1001)]);
            w.instance(0x1001, 0x120, &[Object(0)]);
            w.instance(0x1002, 0x140, &[Object(0x1000), Object(0x1003)]);
            w.byte_array(0x1003, &[9; 40]);
            w.root(0x05, 0x101);
            w.root(0x01, 0x1002);
            w.root(0x03, 0x1009);
            w.root(0x89, 0x1003);
            w.finish()
        })
        .to_vec()
}

/// Written CPU samples (two sequences, a clear, skipped and lost reports) and heap dumps
/// (several packets, two dumps, two heaps, frees beyond allocations).
fn profiling_seeds() -> Vec<Vec<u8>> {
    use droidflame_testkit::perfetto_profiling::*;
    let libc = |name: &str| CodeFrame::function(name, "/system/lib64/libc.so");
    let stacks = [
        vec![libc("main"), libc("work")],
        vec![libc("main"), CodeFrame::function("void com.example.A.b(int)", "/data/app/base.odex")],
        vec![
            libc("main"),
            CodeFrame::address("/system/lib64/libhwui.so", 0x1a2b),
            CodeFrame::function("schedule", "kernel"),
        ],
    ];
    let mut samples = vec![samples_start(1, Timebase::Tracepoint), samples_start(2, Timebase::CpuClockFrequency(100))];
    let (mut one, mut two) = (CodeInterner::new(0), CodeInterner::new(1000));
    for i in 0..12u64 {
        let (sequence, code) = if i % 3 == 0 { (2, &mut two) } else { (1, &mut one) };
        let stack = code.stack(&stacks[i as usize % 3]);
        samples.push(perf_sample(sequence, code, 1_000_000 * (20 - i), (7, 7 + (i % 2) as u32, 0), stack));
    }
    samples.push(skipped_sample(1, 30_000_000, 7, 2));
    samples.push(records_lost(1, 31_000_000, 9));
    let row = |allocated, freed| HeapRow { allocated, freed, allocations: allocated / 8, frees: freed / 8 };
    let dump = |heap: &str, ts, rows: Vec<(Vec<CodeFrame>, HeapRow)>| HeapDumpSpec {
        pid: 7,
        heap: Some(heap.to_owned()),
        ts,
        rows,
    };
    let mut code = CodeInterner::new(0);
    let mut index = 0;
    let mut heap = Vec::new();
    for (ts, grow) in [(10_000_000, 1), (20_000_000, 2)] {
        let dumps = [
            dump("malloc", ts, vec![(stacks[0].clone(), row(800 * grow, 100)), (stacks[2].clone(), row(64, 128))]),
            dump("com.android.art", ts, vec![(stacks[1].clone(), row(480 * grow, 0))]),
        ];
        heap.extend(heap_dump(1, &mut code, &dumps, 2, &mut index));
    }
    vec![pf::Trace::of(&samples).bytes, pf::Trace::of(&heap).bytes]
}

/// Corpus files whose names pass `keep`, up to `max` bytes each.
fn corpus(keep: impl Fn(&str) -> bool, max: u64) -> Vec<Vec<u8>> {
    if !droidflame_testkit::corpus_present("fuzz seeds from the corpus") {
        return Vec::new();
    }
    let mut out = Vec::new();
    for dir in ["", "atrace", "hprof", "mapping", "perfetto", "simpleperf"].map(|d| corpus_dir().join(d)) {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for path in paths {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned();
            let small = path.metadata().is_ok_and(|m| m.is_file() && m.len() <= max);
            if small && keep(&name) {
                out.push(std::fs::read(&path).expect("corpus file is readable"));
            }
        }
    }
    out
}

fn capture() -> Capture {
    let mut c = Capture::new();
    let ms = 1_000_000;
    c.switch(0, 0, ("swapper/0", 0), "R", ("app", 5));
    let payloads =
        ["B|5|a", "S|5|load|1", "B|5|b c", "C|5|n|3", "E|5", "I|5|i", "G|5|T|x|2", "F|5|load|1", "H|5|T|2", "N|5|T|y"];
    for (i, payload) in payloads.iter().enumerate() {
        c.mark("app", 5, 5, (i as u64 + 1) * ms, payload);
    }
    c.mark("app", 5, 5, 15 * ms, "E");
    c.switch(0, 20 * ms, ("app", 5), "S", ("swapper/0", 0));
    c
}

/// Small written recordings: every record kind, off-CPU samples, unknown functions.
fn simpleperf_seeds() -> Vec<Vec<u8>> {
    let chain = |leaf: i32| vec![sp::Entry::function(0, leaf), sp::Entry::address(1, 0x40), sp::Entry::function(0, 0)];
    let sample = |tid, time, event, count, leaf| sp::SampleSpec { tid, time, event, count, chain: chain(leaf) };
    let on_and_off = sp::Recording {
        events: vec!["cpu-clock".into(), "sched:sched_switch".into()],
        trace_offcpu: Some(true),
        app: Some("app".into()),
        samples: vec![
            sample(5, 1_000, 0, 250_000, 1),
            sample(6, 1_100, 0, 250_000, 2),
            sample(5, 1_300, 1, 1, 2),
            sample(5, 9_000, 0, 250_000, 1),
        ],
        files: vec![
            ("/data/app/base.apk!/classes.dex".into(), vec!["a.b.c".into(), "a.b.d".into(), "a.e.f".into()]),
            ("[kernel.kallsyms]".into(), vec!["schedule".into()]),
        ],
        threads: vec![(5, 5, "main".into()), (6, 5, "RenderThread".into())],
        lost: Some((4, 1)),
        switches: vec![(false, 1_300, 5), (true, 8_000, 5)],
    };
    let cycles = sp::Recording { events: vec!["cpu-cycles".into()], trace_offcpu: None, ..on_and_off.clone() };
    vec![on_and_off.bytes(), cycles.bytes()]
}

pub fn all() -> Vec<Target> {
    let config = Config { threads: 3, events_per_thread: 60, ..Config::default() };
    let trace = generate(11, &config).trace;
    let v2 = generate(11, &Config { pointer_ids: true, ..config }).trace;
    let regular = trace.write(&Layout::ART_REGULAR);
    let (key, data) = trace.write_split();
    let mut split = key;
    split.extend(data);
    let c = capture();
    let text = c.text();
    let full = pf::Trace::of(&pf::from_capture(&c, FromCapture { compact_sched: false, events_per_bundle: 4 })).bytes;
    let compact = pf::Trace::of(&pf::from_capture(&c, FromCapture { compact_sched: true, events_per_bundle: 4 })).bytes;
    let sdk = pf::Trace::of(&pf::sdk_sample()).bytes;
    vec![
        Target {
            name: "art-regular",
            seeds: [
                vec![
                    regular.clone(),
                    trace.write(&Layout::Regular { version: 1, data_offset: 16, record_size: None }),
                    split,
                ],
                corpus(|n| n.starts_with("perflib"), 1 << 20),
            ]
            .concat(),
            wrap: same,
            exercise: crate::exercise::exercise,
        },
        Target {
            name: "art-pieces",
            seeds: [
                vec![trace.write(&Layout::Regular { version: 2, data_offset: 16, record_size: None })],
                corpus(|n| n.starts_with("perflib"), 1 << 20),
            ]
            .concat(),
            wrap: same,
            exercise: crate::exercise::in_pieces,
        },
        Target {
            name: "art-streaming",
            seeds: [vec![trace.write(&Layout::ART_STREAMING)], corpus(|n| n.ends_with("streaming.trace"), 1 << 20)]
                .concat(),
            wrap: same,
            exercise: crate::exercise::exercise,
        },
        Target {
            name: "art-v2",
            seeds: vec![
                v2.write(&Layout::V2_FILE),
                v2.write(&Layout::V2 {
                    streaming: true,
                    nanos: false,
                    summary: true,
                    block_records: 7,
                    carry_state: true,
                }),
                v2.write_time_first(&TimeFirst { counter_hz: 19_200_000, block_records: 9 }),
            ],
            wrap: same,
            exercise: crate::exercise::exercise,
        },
        Target {
            name: "gzip",
            seeds: vec![regular, trace.write(&Layout::ART_STREAMING), text.clone()],
            wrap: gzipped,
            exercise: crate::exercise::exercise,
        },
        Target {
            name: "atrace-text",
            seeds: [
                vec![text.clone()],
                corpus(|n| n.ends_with(".systrace") || n.ends_with("data.txt") || n.ends_with("tgids.txt"), 1 << 20),
            ]
            .concat(),
            wrap: same,
            exercise: crate::exercise::exercise,
        },
        Target { name: "atrace-zlib", seeds: vec![text.clone()], wrap: ctrace, exercise: crate::exercise::exercise },
        Target {
            name: "atrace-html",
            seeds: [
                vec![c.html_legacy(), c.html_trace_data(), c.html_viewer_data(), c.json()],
                corpus(|n| n.ends_with("trivial_systrace.html"), 1 << 20),
            ]
            .concat(),
            wrap: same,
            exercise: crate::exercise::exercise,
        },
        Target {
            name: "perfetto",
            seeds: [
                vec![full.clone(), compact.clone(), sdk.clone()],
                corpus(
                    |n| n.ends_with(".trace") && n.starts_with("toolsbase-tpd") || n.ends_with(".perfetto-trace"),
                    1 << 20,
                ),
            ]
            .concat(),
            wrap: same,
            exercise: crate::exercise::exercise,
        },
        // The front (framing, decoding, sorting) on a thread of its own, ahead of the back.
        Target {
            name: "perfetto-stages",
            seeds: [vec![full.clone(), compact.clone(), sdk.clone()], profiling_seeds(), frame_seeds()].concat(),
            wrap: same,
            exercise: crate::exercise::in_stages,
        },
        // CPU samples and heap dumps: interned code, callstacks, dumps over packets.
        Target {
            name: "perfetto-profiling",
            seeds: [
                profiling_seeds(),
                corpus(|n| n.contains("cpuschedstack") || n.contains("empty_sched_table"), 4 << 20),
            ]
            .concat(),
            wrap: same,
            exercise: crate::exercise::exercise,
        },
        // App frames and thread states: the frame timeline, scheduling with its details.
        Target {
            name: "perfetto-frames",
            seeds: [frame_seeds(), corpus(|n| n.contains("nowinandroid") || n.contains("perflib-perfetto"), 4 << 20)]
                .concat(),
            wrap: same,
            exercise: crate::exercise::exercise,
        },
        Target {
            name: "hprof",
            seeds: [hprof_seeds(), corpus(|n| n.ends_with(".hprof"), 4 << 20)].concat(),
            wrap: same,
            exercise: crate::exercise::exercise,
        },
        Target {
            name: "perfetto-heap-graph",
            seeds: heap_graph_seeds(),
            wrap: same,
            exercise: crate::exercise::exercise,
        },
        Target {
            name: "perfetto-zlib",
            seeds: vec![full.clone(), compact.clone(), sdk.clone()],
            wrap: perfetto_compressed,
            exercise: crate::exercise::exercise,
        },
        Target {
            name: "perfetto-zstd",
            seeds: vec![full.clone(), compact.clone(), sdk.clone()],
            wrap: perfetto_zstd,
            exercise: crate::exercise::exercise,
        },
        // The zstd frames themselves mutated: the decoder meets hostile bytes.
        Target {
            name: "perfetto-zstd-frames",
            seeds: [full, compact, sdk].iter().map(|p| perfetto_zstd(p)).collect(),
            wrap: same,
            exercise: crate::exercise::exercise,
        },
        Target {
            name: "simpleperf",
            seeds: [simpleperf_seeds(), corpus(|n| n.contains("simpleperf") && !n.ends_with(".gz"), 1 << 20)].concat(),
            wrap: same,
            exercise: crate::exercise::exercise,
        },
        Target {
            name: "mapping",
            seeds: [crate::mapping::seeds(), corpus(|n| n.starts_with("rustproguard-mapping"), 1 << 20)].concat(),
            wrap: same,
            exercise: crate::mapping::exercise,
        },
    ]
}
