//! Perfetto traces' CPU samples and heap dumps against an independent decoder of the same
//! bytes: a protobuf walker written here from `profile_packet.proto` and
//! `interned_data.proto`'s field numbers, sharing no code with the importer.

use droidflame_core::products::{self, FoldedOptions};
use droidflame_core::{analyze, Analysis, Clock, SourceKind, Unit};
use droidflame_testkit::corpus_file;
use droidflame_testkit::proto_fields::{fields, get, Field};
use std::collections::BTreeMap;

/// One sequence's interned function names, frames (-> function name id) and callstacks.
#[derive(Default)]
struct Interned {
    names: BTreeMap<u64, String>,
    frames: BTreeMap<u64, u64>,
    stacks: BTreeMap<u64, Vec<u64>>,
}

impl Interned {
    fn take(&mut self, interned: &[u8]) {
        for (field, value) in fields(interned) {
            let entry = fields(value.bytes());
            let iid = get(&entry, 1).map_or(0, Field::int);
            match field {
                5 => {
                    let text = get(&entry, 2).map_or(&[][..], Field::bytes);
                    self.names.insert(iid, String::from_utf8_lossy(text).into_owned());
                }
                6 => {
                    self.frames.insert(iid, get(&entry, 2).map_or(0, Field::int));
                }
                7 => {
                    let ids = entry.iter().filter(|(f, _)| *f == 2).map(|(_, v)| v.int()).collect();
                    self.stacks.insert(iid, ids);
                }
                _ => {}
            }
        }
    }

    /// The innermost frame's function name of callstack `iid`.
    fn leaf(&self, iid: u64) -> String {
        let frame = *self.stacks[&iid].last().unwrap();
        self.names[&self.frames[&frame]].clone()
    }
}

/// Per tid, samples with a callstack; per leaf function, samples.
fn decode_samples(bytes: &[u8]) -> (BTreeMap<u64, u64>, BTreeMap<String, u64>) {
    let mut sequences: BTreeMap<u64, Interned> = BTreeMap::new();
    let (mut per_tid, mut per_leaf) = (BTreeMap::new(), BTreeMap::new());
    for (_, packet) in fields(bytes) {
        let packet = fields(packet.bytes());
        let seq = get(&packet, 10).map_or(0, Field::int);
        let interned = sequences.entry(seq).or_default();
        if get(&packet, 13).is_some_and(|f| f.int() & 1 != 0) {
            *interned = Interned::default();
        }
        if let Some(data) = get(&packet, 12) {
            interned.take(data.bytes());
        }
        if let Some(sample) = get(&packet, 66) {
            let sample = fields(sample.bytes());
            let Some(stack) = get(&sample, 4) else { continue };
            *per_tid.entry(get(&sample, 3).map_or(0, Field::int)).or_default() += 1;
            *per_leaf.entry(interned.leaf(stack.int())).or_default() += 1;
        }
    }
    (per_tid, per_leaf)
}

/// Per pid, bytes allocated and freed at the last dump (values are running totals).
fn decode_heap(bytes: &[u8]) -> BTreeMap<u64, (u64, u64)> {
    let mut last: BTreeMap<u64, BTreeMap<u64, (u64, u64)>> = BTreeMap::new();
    for (_, packet) in fields(bytes) {
        let packet = fields(packet.bytes());
        let Some(profile) = get(&packet, 37) else { continue };
        for (field, dump) in fields(profile.bytes()) {
            if field != 5 {
                continue;
            }
            let dump = fields(dump.bytes());
            let pid = get(&dump, 1).map_or(0, Field::int);
            let rows = last.entry(pid).or_default();
            for (field, sample) in &dump {
                if *field == 2 {
                    let sample = fields(sample.bytes());
                    let value = |f| get(&sample, f).map_or(0, Field::int);
                    rows.insert(value(1), (value(2), value(3)));
                }
            }
        }
    }
    last.into_iter().map(|(pid, rows)| (pid, rows.values().fold((0, 0), |a, r| (a.0 + r.0, a.1 + r.1)))).collect()
}

fn perfetto(name: &str) -> (Vec<u8>, Analysis) {
    let bytes = corpus_file(&format!("perfetto/{name}"));
    let analysis = analyze(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    (bytes, analysis)
}

#[test]
fn cpu_samples_equal_an_independent_decoders() {
    if !droidflame_testkit::corpus_present("perfetto_sources::cpu_samples_equal_an_independent_decoders") {
        return;
    }
    let (bytes, p) = perfetto("mstools-perfetto_android12_cpuschedstack.pftrace");
    let (per_tid, per_leaf) = decode_samples(&bytes);
    // SOURCES.md: 5,003 samples with a callstack; busiest tids 1451 (871), 409 (501), 9651 (430).
    assert_eq!(per_tid.values().sum::<u64>(), 5_003);
    assert_eq!((per_tid[&1451], per_tid[&409], per_tid[&9651]), (871, 501, 430));
    // It has no slices, so it opens on its samples, counted (their event is sched_switch).
    assert_eq!(p.profile.source().kind, SourceKind::CpuSamples);
    assert_eq!(p.profile.unit(), Unit::Samples);
    assert_eq!(p.profile.default_clock(), Clock::Cpu);
    let kinds: Vec<_> = p.profile.sources().iter().map(|s| s.kind).collect();
    assert_eq!(kinds, [SourceKind::CpuSamples, SourceKind::Calls]);
    // Each thread's samples.
    let ours: BTreeMap<u64, u64> = p
        .profile
        .stacks()
        .threads
        .iter()
        .map(|t| (u64::from(t.tid), p.profile.micros(t.tree.total_self(Clock::Cpu))))
        .collect();
    assert_eq!(ours, per_tid);
    // The leaf functions, as the folded stacks end (kernel frames carry their mark).
    let folded = products::folded(&p.profile, &FoldedOptions::default()).unwrap();
    let mut leaves: BTreeMap<String, u64> = BTreeMap::new();
    for line in folded.lines() {
        let (stack, value) = line.rsplit_once(' ').unwrap();
        let leaf = stack.rsplit(';').next().unwrap();
        *leaves.entry(leaf.trim_end_matches("_[k]").to_owned()).or_default() += value.parse::<u64>().unwrap();
    }
    assert_eq!(leaves, per_leaf);
    assert_eq!(per_leaf.get("__traceiter_sched_switch"), Some(&5_003), "SOURCES.md: the leaf is always it");
    // Samples count once per stack that holds a function: the leaf of every one is in
    // 5,003, and nothing is in more.
    let s = products::summary(&p);
    let heap: Vec<_> = s.sources.iter().map(|s| (s.name, s.heap)).collect();
    assert_eq!(heap, [("cpu-samples", false), ("calls", false)], "neither is a heap profile");
    assert_eq!((s.count, s.counted), ("samples", Some(5_003)));
    // SOURCES.md: 11.7 s of ftrace in a capture whose packets span 40 s: a note says where
    // the samples are, so that the empty time before is not read as threads at rest.
    let coverage = s.notes.iter().find(|n| n.key == "coverage").expect("a note of what the samples cover");
    let numbers: Vec<f64> = coverage.text.split(' ').filter_map(|w| w.parse::<f64>().ok()).collect();
    assert_eq!(numbers.len(), 3, "{}", coverage.text);
    assert!((numbers[1] - numbers[0] - 11.7).abs() < 0.1, "{}", coverage.text);
    assert!(numbers[2] > 39.0 && numbers[2] <= 40.0, "{}", coverage.text);
    // One sample's thread the recorder did not know: tid -1, as the trace wrote it.
    let unknown = s.threads.iter().find(|t| t.tid < 0).unwrap();
    assert_eq!((unknown.tid, unknown.name), (-1, "Thread -1"));
    let calls = |name: &str| s.methods.iter().find(|m| m.name == name).and_then(|m| m.calls);
    assert_eq!(calls("__traceiter_sched_switch_[k]").or(calls("__traceiter_sched_switch")), Some(5_003));
    assert!(s.methods.iter().all(|m| m.calls.unwrap() <= 5_003 && m.recursive_calls == 0));
    // What the recorder skipped and lost (SOURCES.md): 152 at the read stage, 45 at the
    // unwind stage; 2,777 reports of kernel records lost.
    let said = |text: &str| p.profile.facts.warnings.iter().any(|w| w.contains(text));
    assert!(
        said("skipped 197 samples (152 at the read stage, 45 at the unwind stage)"),
        "{:?}",
        p.profile.facts.warnings
    );
    assert!(said("(2,777 reports)"), "{:?}", p.profile.facts.warnings);
    // The sampling event is named: these samples show where threads were as they left a CPU.
    assert!(
        said("the CPU samples were taken at each sched:sched_switch event, not at a steady rate"),
        "{:?}",
        p.profile.facts.warnings
    );
    // A dark graph's subtitle is in the dark theme's text colour.
    let dark = products::FlameOptions { theme: products::Theme::Dark, ..Default::default() };
    let svg = products::flame_svg(&p.profile, products::GraphScope::Thread(0), &dark).unwrap();
    assert!(svg.contains(r#"<text id="subtitle" fill="rgb(228,231,234)""#));
}

#[test]
fn heap_dumps_equal_an_independent_decoders() {
    if !droidflame_testkit::corpus_present("perfetto_sources::heap_dumps_equal_an_independent_decoders") {
        return;
    }
    let (bytes, mut p) = perfetto("toolsbase-tpd-empty_sched_table.trace");
    let decoded = decode_heap(&bytes);
    // SOURCES.md: pid 13927, 428,480 bytes allocated, 2,640 freed.
    assert_eq!(decoded.get(&13927), Some(&(428_480, 2_640)));
    let kinds: Vec<_> = p.profile.sources().iter().map(|s| s.kind).collect();
    assert_eq!(kinds, [SourceKind::HeapUnreleased, SourceKind::HeapAllocated], "no slices, no samples");
    assert_eq!(p.profile.dumps(), Some((0, 1)));
    // What it holds and what it lacks, said (a Java heap dump alone would need no such note).
    let said = "the trace has no slices (atrace markers or track events); droidflame read its 1 heap dump (the \
                heap-unreleased and heap-allocated sources)";
    assert!(p.profile.facts.warnings.iter().any(|w| w.contains(said)), "{:?}", p.profile.facts.warnings);
    let bytes_of = |p: &Analysis| -> BTreeMap<u64, u64> {
        p.profile.stacks().threads.iter().map(|t| (u64::from(t.tid), t.tree.total_self(Clock::Wall))).collect()
    };
    let unreleased = bytes_of(&p);
    p.profile.select_source(SourceKind::HeapAllocated).unwrap();
    let allocated = bytes_of(&p);
    for (pid, (alloc, freed)) in &decoded {
        assert_eq!(unreleased[pid], alloc - freed, "pid {pid}");
        assert_eq!(allocated[pid], *alloc, "pid {pid}");
    }
    // Bytes not freed are the difference of the sums only where no callstack freed more
    // than it allocated: nothing to note.
    assert!(p.profile.facts.warnings.iter().all(|w| !w.contains("freed more bytes")), "{:?}", p.profile.facts.warnings);
    // Allocations beside bytes: 19,917 made (SOURCES.md), and no function has more: each
    // allocation counts once for every function on its stack, however often it is there.
    let s = products::summary(&p);
    assert_eq!((s.count, s.counted), ("allocations", Some(19_917)));
    // Each source says what its numbers are: the sums checked above.
    let words = |p: &Analysis| {
        let summary: serde_json::Value = serde_json::from_str(&products::summary_json(p)).unwrap();
        summary["format"]["clock_words"]["wall"].as_str().unwrap().to_owned()
    };
    assert_eq!(words(&p), "bytes allocated");
    assert!(s.methods.iter().all(|m| m.calls.unwrap() <= 19_917 && m.recursive_calls == 0));
    // Not freed: 19,917 allocations less the 146 frees (SOURCES.md).
    p.profile.select_source(SourceKind::HeapUnreleased).unwrap();
    assert_eq!(products::summary(&p).counted, Some(19_917 - 146));
    assert_eq!(words(&p), "bytes not freed");
    p.profile.select_source(SourceKind::HeapAllocated).unwrap();
    // The heaviest stack (SOURCES.md): 235,424 bytes, ending in TrivialKotlinBenchmark.nothing
    // -> art_quick_alloc_object_initialized_region_tlab.
    let folded = products::folded(&p.profile, &FoldedOptions::default()).unwrap();
    let heaviest = folded
        .lines()
        .filter(|l| l.contains("TrivialKotlinBenchmark.nothing;art_quick_alloc_object_initialized_region_tlab"))
        .map(|l| l.rsplit_once(' ').unwrap().1.parse::<u64>().unwrap())
        .sum::<u64>();
    assert_eq!(heaviest, 235_424);
    assert!(folded.lines().all(|l| l.starts_with("Process 13927 [13927];")), "the first frame is the process");
}

#[test]
fn exports_name_the_sources_units() {
    if !droidflame_testkit::corpus_present("perfetto_sources::exports_name_the_sources_units") {
        return;
    }
    use droidflame_core::products::ExportOptions;
    let (_, mut p) = perfetto("toolsbase-tpd-empty_sched_table.trace");
    let speedscope = |p: &Analysis| {
        let mut out = Vec::new();
        products::write_speedscope(&p.profile, &ExportOptions::default(), &mut out).unwrap();
        let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
        json["profiles"][0]["unit"].as_str().unwrap().to_owned()
    };
    let pprof_strings = |p: &Analysis| {
        let mut out = Vec::new();
        products::write_pprof(&p.profile, &ExportOptions::default(), &mut out).unwrap();
        let mut raw = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&out[..]), &mut raw).unwrap();
        String::from_utf8_lossy(&raw).into_owned()
    };
    assert_eq!(speedscope(&p), "bytes");
    assert!(pprof_strings(&p).contains("inuse_space"));
    p.profile.select_source(SourceKind::HeapAllocated).unwrap();
    assert!(pprof_strings(&p).contains("alloc_space"));
    let (_, samples) = perfetto("mstools-perfetto_android12_cpuschedstack.pftrace");
    assert_eq!(speedscope(&samples), "none", "counted samples");
    assert!(pprof_strings(&samples).contains("samples"));
}

#[test]
fn app_frames_equal_an_independent_decoders() {
    if !droidflame_testkit::corpus_present("perfetto_sources::app_frames_equal_an_independent_decoders") {
        return;
    }
    let (bytes, p) = perfetto("nowinandroid-fork-trace.perfetto-trace");
    // The walker: actual surface frames (field 4 of `frame_timeline_event`, 76) by jank bits.
    let mut jank_bits: BTreeMap<u64, u64> = BTreeMap::new();
    // (frames, janky) by layer name (field 5).
    let mut by_layer: BTreeMap<String, (u64, u64)> = BTreeMap::new();
    // Actual display frames (field 2) by jank bits.
    let mut display_bits: BTreeMap<u64, u64> = BTreeMap::new();
    for (_, packet) in fields(&bytes) {
        let packet = fields(packet.bytes());
        let Some(event) = get(&packet, 76) else { continue };
        if let Some(display) = get(&fields(event.bytes()), 2) {
            *display_bits.entry(get(&fields(display.bytes()), 7).map_or(0, Field::int)).or_default() += 1;
        }
        if let Some(actual) = get(&fields(event.bytes()), 4) {
            let actual = fields(actual.bytes());
            let bits = get(&actual, 9).map_or(0, Field::int);
            *jank_bits.entry(bits).or_default() += 1;
            let layer = get(&actual, 5).map(|l| String::from_utf8_lossy(l.bytes()).into_owned()).unwrap_or_default();
            let entry = by_layer.entry(layer).or_default();
            entry.0 += 1;
            entry.1 += u64::from(bits > 1);
        }
    }
    // SOURCES.md: 1,068 actual surface frames: None 1,004, Buffer Stuffing 47, App Deadline
    // Missed 12, both 5; 739 on the nowinandroid MainActivity layer; pid 9305's last never ends.
    assert_eq!(jank_bits, BTreeMap::from([(1, 1_004), (128, 47), (64, 12), (64 | 128, 5)]));
    assert_eq!(p.profile.system.app_frames.len(), 1_068);
    let mut jank: BTreeMap<&str, u64> = BTreeMap::new();
    for f in &p.profile.system.app_frames {
        *jank.entry(f.jank.as_str()).or_default() += 1;
    }
    assert_eq!(
        jank,
        BTreeMap::from([
            ("None", 1_004),
            ("Buffer Stuffing", 47),
            ("App Deadline Missed", 12),
            ("App Deadline Missed, Buffer Stuffing", 5)
        ])
    );
    let main = "TX - com.google.samples.apps.nowinandroid.demo/com.google.samples.apps.nowinandroid.MainActivity#50010";
    assert_eq!(p.profile.system.app_frames.iter().filter(|f| f.layer == main).count(), 739);
    let unfinished: Vec<_> = p.profile.system.app_frames.iter().filter(|f| f.end.is_none()).collect();
    assert_eq!((unfinished.len(), unfinished[0].pid), (1, 9305));
    assert!(
        p.profile.facts.warnings.iter().any(|w| w.contains("1 app frame of the frame timeline never ended")),
        "{:?}",
        p.profile.facts.warnings
    );
    // The listing: a header, then every frame; janky ones only on request.
    let mut out = Vec::new();
    products::write_frames(
        &p.profile.system,
        &products::FramesQuery { pid: None, jank_only: true, display: false, derived: false },
        &mut out,
    )
    .unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with("pid\tlayer\ttoken\tstart_us\tdur_us\texpected_dur_us\tjank\tpresent\n"));
    assert_eq!(text.lines().count(), 1 + 47 + 12 + 5);
    // Each layer's figures: its frames and janky ones as the walker counts them, and
    // nearest-rank percentiles of its durations.
    let layers = products::frame_layers(&p.profile.system);
    let figures: BTreeMap<String, (u64, u64)> =
        layers.iter().filter(|l| !l.display).map(|l| (l.layer.clone(), (l.frames, l.janky))).collect();
    assert_eq!(figures, by_layer);
    let top = &layers[0];
    assert_eq!((top.layer.as_str(), top.frames), (main, 739));
    let mut durations: Vec<u64> = p
        .profile
        .system
        .app_frames
        .iter()
        .filter(|f| f.layer == main)
        .filter_map(|f| f.duration())
        .map(|d| d / 1_000)
        .collect();
    durations.sort_unstable();
    let n = durations.len();
    assert_eq!(top.p50_us, Some(durations[(n * 50).div_ceil(100) - 1]));
    assert_eq!(top.p99_us, Some(durations[(n * 99).div_ceil(100) - 1]));
    assert_eq!(top.max_us, durations.last().copied());
    let janky_types: u64 = top.jank_types.iter().map(|(_, n)| n).sum();
    assert!(janky_types >= top.janky);
    // SOURCES.md: 801 actual display frames; each ends, and its jank is the walker's.
    assert_eq!(display_bits.values().sum::<u64>(), 801);
    assert_eq!(p.profile.system.display_frames.len(), 801);
    assert!(p.profile.system.display_frames.iter().all(|f| f.end.is_some() && f.layer.is_empty()));
    let janky_display = display_bits.iter().filter(|(&bits, _)| bits > 1).map(|(_, n)| n).sum::<u64>();
    assert_eq!(p.profile.system.display_frames.iter().filter(|f| f.janky).count() as u64, janky_display);
    let display = layers.last().unwrap();
    assert!(display.display && display.frames == 801);
    let mut out = Vec::new();
    products::write_frames(
        &p.profile.system,
        &products::FramesQuery { pid: None, jank_only: false, display: true, derived: false },
        &mut out,
    )
    .unwrap();
    assert_eq!(String::from_utf8(out).unwrap().lines().count(), 1 + 801);
}

/// A frame as the test keys it: pid, token, layer (one vsync's token names a frame of each
/// layer it drew).
type FrameKey = (u64, u64, String);

/// Every actual surface frame as the walker reads it: (pid, token, layer) to (jank bits,
/// duration in ns or none where no end has its cookie), from its start and the `FrameEnd`
/// of its cookie (packet times, field 8, on the boot clock both traces use for these).
fn walked_frames(bytes: &[u8]) -> Vec<(FrameKey, u64, Option<u64>)> {
    let mut starts: BTreeMap<u64, (FrameKey, u64, u64)> = BTreeMap::new();
    let mut ends: BTreeMap<u64, u64> = BTreeMap::new();
    for (_, packet) in fields(bytes) {
        let packet = fields(packet.bytes());
        let (Some(event), Some(ts)) = (get(&packet, 76), get(&packet, 8).map(Field::int)) else { continue };
        let event = fields(event.bytes());
        if let Some(actual) = get(&event, 4) {
            let a = fields(actual.bytes());
            let int = |f| get(&a, f).map_or(0, Field::int);
            let layer = get(&a, 5).map(|l| String::from_utf8_lossy(l.bytes()).into_owned()).unwrap_or_default();
            starts.insert(int(1), ((int(4), int(2), layer), int(9), ts));
        }
        if let Some(end) = get(&event, 5) {
            ends.insert(get(&fields(end.bytes()), 1).map_or(0, Field::int), ts);
        }
    }
    starts
        .into_iter()
        .map(|(cookie, (key, bits, start))| (key, bits, ends.get(&cookie).map(|end| end - start)))
        .collect()
}

/// Both captures with a frame timeline (Android 13 on a Pixel 7 Pro, Android 12 on an
/// emulator): each app frame's process, token, jank types and duration equal the walker's.
#[test]
fn every_app_frame_equals_the_walkers() {
    if !droidflame_testkit::corpus_present("perfetto_sources::every_app_frame_equals_the_walkers") {
        return;
    }
    for (name, frames) in
        [("nowinandroid-fork-trace.perfetto-trace", 1_068), ("mstools-perfetto_android12_cpuschedstack.pftrace", 87)]
    {
        let (bytes, p) = perfetto(name);
        let walked = walked_frames(&bytes);
        assert_eq!(walked.len(), frames, "{name}");
        // Jank bits as Perfetto names them (the walker keeps bits; names are checked by count).
        // As sorted lists: a layer may draw two frames for one token.
        let mut ours: Vec<(FrameKey, bool, Option<u64>)> = p
            .profile
            .system
            .app_frames
            .iter()
            .map(|f| ((u64::from(f.pid), f.token as u64, f.layer.clone()), f.janky, f.duration()))
            .collect();
        let mut theirs: Vec<(FrameKey, bool, Option<u64>)> =
            walked.iter().map(|(key, bits, duration)| (key.clone(), *bits > 1, *duration)).collect();
        ours.sort();
        theirs.sort();
        assert_eq!(ours, theirs, "{name}");
        let named = |bit: u64, words: &str| {
            let walker = walked.iter().filter(|(_, bits, _)| bits & bit != 0).count();
            let core = p.profile.system.app_frames.iter().filter(|f| f.jank.split(", ").any(|w| w == words)).count();
            assert_eq!(core, walker, "{name}: {words}");
        };
        for (bit, words) in [
            (4, "Prediction Error"),
            (64, "App Deadline Missed"),
            (128, "Buffer Stuffing"),
            (256, "Unknown Jank"),
            (512, "SurfaceFlinger Stuffing"),
            (16, "SurfaceFlinger CPU Deadline Missed"),
        ] {
            named(bit, words);
        }
    }
}

/// Every actual surface frame's display frame token (field 3) and every actual display
/// frame's token, as the walker reads them.
fn walked_display_tokens(bytes: &[u8]) -> (Vec<(FrameKey, Option<u64>)>, std::collections::BTreeSet<u64>) {
    let (mut surfaces, mut displays) = (Vec::new(), std::collections::BTreeSet::new());
    for (_, packet) in fields(bytes) {
        let packet = fields(packet.bytes());
        let Some(event) = get(&packet, 76) else { continue };
        let event = fields(event.bytes());
        if let Some(actual) = get(&event, 4) {
            let a = fields(actual.bytes());
            let int = |f| get(&a, f).map_or(0, Field::int);
            let layer = get(&a, 5).map(|l| String::from_utf8_lossy(l.bytes()).into_owned()).unwrap_or_default();
            surfaces.push(((int(4), int(2), layer), get(&a, 3).map(Field::int)));
        }
        if let Some(actual) = get(&event, 2) {
            displays.insert(get(&fields(actual.bytes()), 2).map_or(0, Field::int));
        }
    }
    surfaces.sort();
    (surfaces, displays)
}

/// Each app frame names the display frame that presented it, as the capture does, and the
/// frames view links the two; each layer names its app's main thread and RenderThreads.
#[test]
fn app_frames_name_their_display_frames_and_threads() {
    if !droidflame_testkit::corpus_present("perfetto_sources::app_frames_name_their_display_frames_and_threads") {
        return;
    }
    for (name, linked) in
        [("nowinandroid-fork-trace.perfetto-trace", 1_068), ("mstools-perfetto_android12_cpuschedstack.pftrace", 87)]
    {
        let (bytes, p) = perfetto(name);
        let (walked, displays) = walked_display_tokens(&bytes);
        let mut ours: Vec<(FrameKey, Option<u64>)> = p
            .profile
            .system
            .app_frames
            .iter()
            .map(|f| ((u64::from(f.pid), f.token as u64, f.layer.clone()), f.display_token.map(|t| t as u64)))
            .collect();
        ours.sort();
        assert_eq!(ours, walked, "{name}");
        let json: serde_json::Value = serde_json::from_str(&products::frames_json(&p.profile)).unwrap();
        let frames = json["frames"].as_array().unwrap();
        let mut links = 0;
        for f in frames.iter().filter(|f| !f["display_token"].is_null()) {
            let token = f["display_token"].as_u64().unwrap();
            match f["display_frame"].as_u64() {
                Some(at) => {
                    links += 1;
                    assert_eq!(frames[at as usize]["token"].as_u64(), Some(token), "{name}");
                    assert!(displays.contains(&token));
                }
                None => assert!(!displays.contains(&token), "{name}: display frame {token} is in the capture"),
            }
        }
        assert_eq!(links, linked, "{name}: app frames whose display frame the capture has");
    }
    // The apps' threads: android12 names its threads by their sched comms.
    let (_, p) = perfetto("mstools-perfetto_android12_cpuschedstack.pftrace");
    let threads = |pid| products::app_threads(&p.profile, pid);
    // 9664's process is known only from its CPU samples (the scheduler names no process).
    assert_eq!(threads(1323), (Some(1323), vec![2328, 9664]), "the launcher, two RenderThreads");
    assert_eq!(threads(4692), (Some(4692), vec![7956]), "chrome");
    assert_eq!(threads(2262), (Some(2262), vec![2524, 9663]), "the search app, two RenderThreads");
    // nowinandroid names no threads: its main thread is known by its tid, no RenderThread.
    let (_, p) = perfetto("nowinandroid-fork-trace.perfetto-trace");
    assert_eq!(products::app_threads(&p.profile, 9305), (Some(9305), vec![]));
    // perflib's frames are derived from systemui's slices; its threads are named.
    let (_, p) = perfetto("toolsbase-perflib-perfetto.trace");
    assert_eq!(products::app_threads(&p.profile, 2211), (Some(2211), vec![2453]));
}
