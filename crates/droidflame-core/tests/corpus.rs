//! Every ART trace of the shared corpus, checked against the facts in traces/SOURCES.md and
//! the expected call trees of perflib's own tests.

use droidflame_core::products::{self, FoldedOptions};
use droidflame_core::profile::{CallTree, Profile};
use droidflame_core::Analysis;
use droidflame_core::{analyze, Analyzer, ClockSet, ErrorKind};
use droidflame_testkit::corpus_file;

struct Facts {
    file: &'static str,
    layout: &'static str,
    version: u32,
    clocks: ClockSet,
    records: u64,
    /// Threads with at least one record.
    threads: usize,
    /// Enter records, where SOURCES.md states them.
    enters: Option<u64>,
}

const FACTS: &[Facts] = &[
    Facts {
        file: "ffprof-art-regular.trace",
        layout: "regular",
        version: 3,
        clocks: ClockSet::Dual,
        records: 13295,
        threads: 40,
        enters: Some(6777),
    },
    Facts {
        file: "ffprof-art-streaming.trace",
        layout: "streaming",
        version: 3,
        clocks: ClockSet::Dual,
        records: 39377,
        threads: 52,
        enters: Some(19885),
    },
    Facts {
        file: "toolsbase-streaming.trace",
        layout: "streaming",
        version: 3,
        clocks: ClockSet::Dual,
        records: 44339,
        threads: 19,
        enters: Some(22229),
    },
    Facts {
        file: "toolsbase-char_2_bytes.trace",
        layout: "regular",
        version: 3,
        clocks: ClockSet::Dual,
        records: 70341,
        threads: 17,
        enters: None,
    },
    Facts {
        file: "tracereader-test1.trace",
        layout: "regular",
        version: 3,
        clocks: ClockSet::Dual,
        records: 247266,
        threads: 7,
        enters: None,
    },
    Facts {
        file: "perflib-basic.trace",
        layout: "regular",
        version: 3,
        clocks: ClockSet::Dual,
        records: 9,
        threads: 1,
        enters: None,
    },
    Facts {
        file: "perflib-mismatched.trace",
        layout: "regular",
        version: 3,
        clocks: ClockSet::Dual,
        records: 9,
        threads: 1,
        enters: Some(3),
    },
    Facts {
        file: "perflib-exception.trace",
        layout: "regular",
        version: 3,
        clocks: ClockSet::Dual,
        records: 23,
        threads: 1,
        enters: None,
    },
    Facts {
        file: "perflib-basic-api10.trace",
        layout: "regular",
        version: 1,
        clocks: ClockSet::Cpu,
        records: 10,
        threads: 1,
        enters: None,
    },
];

fn profile_of(file: &str) -> Analysis {
    analyze(&corpus_file(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

#[test]
fn every_art_file_has_its_documented_counts() {
    if !droidflame_testkit::corpus_present("corpus::every_art_file_has_its_documented_counts") {
        return;
    }
    for facts in FACTS {
        let profile = profile_of(facts.file);
        assert_eq!(profile.profile.facts.format.family, "art", "{}", facts.file);
        assert_eq!(profile.profile.facts.format.layout, facts.layout, "{}", facts.file);
        assert_eq!(profile.profile.facts.format.version, facts.version, "{}", facts.file);
        assert_eq!(profile.profile.stacks().clocks, facts.clocks, "{}", facts.file);
        assert_eq!(profile.profile.facts.records, facts.records, "{}", facts.file);
        assert_eq!(
            profile.profile.stacks().threads.iter().map(|t| t.records).sum::<u64>(),
            facts.records,
            "{}",
            facts.file
        );
        assert_eq!(profile.profile.stacks().threads.len(), facts.threads, "{}", facts.file);
    }
}

#[test]
fn enters_exits_and_unwinds_add_up_to_calls() {
    if !droidflame_testkit::corpus_present("corpus::enters_exits_and_unwinds_add_up_to_calls") {
        return;
    }
    // Every enter is a call; calls without an enter are the unmatched-exit repairs.
    for facts in FACTS {
        let Some(enters) = facts.enters else { continue };
        let profile = profile_of(facts.file);
        let calls: u64 =
            profile.profile.stacks().threads.iter().flat_map(|t| t.tree.nodes().iter().skip(1)).map(|n| n.calls).sum();
        assert_eq!(calls, enters + profile.profile.facts.repairs.unmatched_exits, "{}", facts.file);
    }
}

#[test]
fn firefox_fixtures_match_the_format_reference() {
    if !droidflame_testkit::corpus_present("corpus::firefox_fixtures_match_the_format_reference") {
        return;
    }
    // What Firefox Profiler's own fixtures are known to hold, counted byte by byte.
    let regular = profile_of("ffprof-art-regular.trace");
    assert_eq!(regular.profile.facts.repairs.unknown_methods, 18);
    assert_eq!(regular.profile.facts.repairs.open_at_end, 259);
    assert_eq!((regular.profile.facts.repairs.unmatched_exits, regular.profile.facts.repairs.mismatched_exits), (0, 0));
    assert_eq!(regular.profile.header_value("pid"), Some("21491"));
    assert_eq!(regular.profile.header_value("num-method-calls"), Some("13295"));
    assert_eq!(regular.profile.facts.format.text("vm"), Some("art"));
    assert!(regular.profile.frames.iter().filter(|m| m.source.is_none() && !m.unknown).count() <= 2);

    let streaming = profile_of("ffprof-art-streaming.trace");
    assert_eq!(streaming.profile.facts.repairs.unknown_methods, 9);
    assert_eq!(streaming.profile.facts.repairs.open_at_end, 393);
    assert_eq!(
        (streaming.profile.facts.repairs.unmatched_exits, streaming.profile.facts.repairs.mismatched_exits),
        (0, 0)
    );
    assert!(!streaming.profile.facts.repairs.truncated);
    assert_eq!(streaming.profile.header_value("pid"), Some("15983"));
    assert_eq!(streaming.profile.header_value("elapsed-time-usec"), Some("9561246"));
}

#[test]
fn gzip_copies_give_identical_results() {
    if !droidflame_testkit::corpus_present("corpus::gzip_copies_give_identical_results") {
        return;
    }
    for name in ["ffprof-art-regular.trace", "ffprof-art-streaming.trace"] {
        let plain = profile_of(name);
        let gz = profile_of(&format!("{name}.gz"));
        assert!(gz.profile.facts.format.gzip && !plain.profile.facts.format.gzip);
        let opts = FoldedOptions::default();
        assert_eq!(products::folded(&plain.profile, &opts).unwrap(), products::folded(&gz.profile, &opts).unwrap());
        assert_eq!(plain.profile.facts.records, gz.profile.facts.records);
    }
}

#[test]
fn chunk_size_never_changes_the_result() {
    if !droidflame_testkit::corpus_present("corpus::chunk_size_never_changes_the_result") {
        return;
    }
    let bytes = corpus_file("ffprof-art-streaming.trace.gz");
    let whole = products::summary_json(&analyze(&bytes).unwrap());
    for size in [1, 7, 4096, 65_537] {
        let mut analyzer = Analyzer::default();
        for chunk in bytes.chunks(size) {
            analyzer.push(chunk).unwrap();
        }
        assert_eq!(products::summary_json(&analyzer.finish().unwrap()), whole, "chunk size {size}");
    }
}

/// Each root-to-leaf path of a thread's tree as `Class.method: signature` joined by " -> ",
/// in the slash form perflib's tests print.
fn leaf_paths(profile: &Profile, tree: &CallTree) -> Vec<String> {
    let mut out = Vec::new();
    let mut path: Vec<String> = Vec::new();
    tree.walk(|index, depth| {
        path.truncate(depth - 1);
        let m = &profile.frames[tree.node(index).frame as usize];
        path.push(format!("{}.{}: {}", m.class.replace('.', "/"), m.name, m.signature));
        if tree.children(index).next().is_none() {
            out.push(path.join(" -> "));
        }
    });
    out.sort();
    out
}

#[test]
fn perflib_basic_call_tree() {
    if !droidflame_testkit::corpus_present("corpus::perflib_basic_call_tree") {
        return;
    }
    let p = profile_of("perflib-basic.trace");
    assert_eq!(p.profile.stacks().threads[0].name, "AsyncTask #1");
    assert_eq!(
        leaf_paths(&p.profile, &p.profile.stacks().threads[0].tree),
        [
            "android/os/Debug.startMethodTracing: (Ljava/lang/String;)V -> android/os/Debug.startMethodTracing: (Ljava/lang/String;II)V -> dalvik/system/VMDebug.startMethodTracing: (Ljava/lang/String;II)V",
            "android/os/Debug.stopMethodTracing: ()V -> dalvik/system/VMDebug.stopMethodTracing: ()V",
            "com/test/android/traceview/Basic.foo: ()V -> com/test/android/traceview/Basic.bar: ()I",
        ]
    );
}

#[test]
fn perflib_mismatched_call_tree() {
    if !droidflame_testkit::corpus_present("corpus::perflib_mismatched_call_tree") {
        return;
    }
    let p = profile_of("perflib-mismatched.trace");
    assert_eq!(
        leaf_paths(&p.profile, &p.profile.stacks().threads[0].tree),
        [
            "android/os/Debug.stopMethodTracing: ()V -> dalvik/system/VMDebug.stopMethodTracing: ()V",
            "com/test/android/traceview/MisMatched.foo: ()V -> com/test/android/traceview/MisMatched.bar: ()V -> android/os/Debug.startMethodTracing: (Ljava/lang/String;)V -> android/os/Debug.startMethodTracing: (Ljava/lang/String;II)V -> dalvik/system/VMDebug.startMethodTracing: (Ljava/lang/String;II)V",
            "com/test/android/traceview/MisMatched.foo: ()V -> com/test/android/traceview/MisMatched.bar: ()V -> com/test/android/traceview/MisMatched.baz: ()I",
        ]
    );
    assert_eq!(p.profile.facts.repairs.unmatched_exits, 5);
}

#[test]
fn perflib_exception_call_tree() {
    if !droidflame_testkit::corpus_present("corpus::perflib_exception_call_tree") {
        return;
    }
    let p = profile_of("perflib-exception.trace");
    let exc = "com/test/android/traceview/Exceptions.foo: ()V -> com/test/android/traceview/Exceptions.bar: ()V -> com/test/android/traceview/Exceptions.baz: ()V -> java/lang/RuntimeException.<init>: ()V -> java/lang/Exception.<init>: ()V -> java/lang/Throwable.<init>: ()V";
    assert_eq!(
        leaf_paths(&p.profile, &p.profile.stacks().threads[0].tree),
        [
            "android/os/Debug.startMethodTracing: (Ljava/lang/String;)V -> android/os/Debug.startMethodTracing: (Ljava/lang/String;II)V -> dalvik/system/VMDebug.startMethodTracing: (Ljava/lang/String;II)V".to_string(),
            "android/os/Debug.stopMethodTracing: ()V -> dalvik/system/VMDebug.stopMethodTracing: ()V".to_string(),
            format!("{exc} -> java/lang/Throwable.fillInStackTrace: ()Ljava/lang/Throwable; -> java/lang/Throwable.nativeFillInStackTrace: ()Ljava/lang/Object;"),
            format!("{exc} -> java/util/Collections.emptyList: ()Ljava/util/List;"),
        ]
    );
}

#[test]
fn perflib_api10_is_a_version_1_thread_cpu_trace() {
    if !droidflame_testkit::corpus_present("corpus::perflib_api10_is_a_version_1_thread_cpu_trace") {
        return;
    }
    let p = profile_of("perflib-basic-api10.trace");
    assert_eq!(p.profile.facts.format.number("record_size"), Some(9));
    assert!(!p.profile.has(droidflame_core::Clock::Wall));
    // A clock the trace lacks is refused with a message naming the clock it has.
    let err = products::folded(
        &p.profile,
        &FoldedOptions { clock: Some(droidflame_core::Clock::Wall), thread: None, ..Default::default() },
    )
    .unwrap_err();
    assert!(err.to_string().contains("no wall clock"), "{err}");
    assert!(err.to_string().contains("thread-cpu"), "{err}");
    assert!(!products::folded(&p.profile, &FoldedOptions::default()).unwrap().is_empty());
}

#[test]
fn perflib_header_only_file_is_a_clear_error() {
    if !droidflame_testkit::corpus_present("corpus::perflib_header_only_file_is_a_clear_error") {
        return;
    }
    let err = analyze(&corpus_file("perflib-header.trace")).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Corrupt);
    assert_eq!(err.offset(), Some(557 + 4));
    assert!(err.to_string().contains("version field is 0x640a"), "{err}");
}

#[test]
fn text_resaved_file_is_a_clear_error_with_the_likely_cause() {
    if !droidflame_testkit::corpus_present("corpus::text_resaved_file_is_a_clear_error_with_the_likely_cause") {
        return;
    }
    let err = analyze(&corpus_file("toolsbase-basic-special_char.trace")).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Corrupt);
    let text = err.to_string();
    assert!(text.contains("record size is 1186"), "{text}");
    assert!(text.contains("saved as text"), "{text}");
}

#[test]
fn utf8_method_names_survive() {
    if !droidflame_testkit::corpus_present("corpus::utf8_method_names_survive") {
        return;
    }
    let p = profile_of("toolsbase-char_2_bytes.trace");
    assert!(p.profile.frames.iter().any(|m| !m.name.is_ascii()));
}

#[test]
fn every_truncation_of_a_real_trace_gives_a_result_or_a_clear_error() {
    if !droidflame_testkit::corpus_present("corpus::every_truncation_of_a_real_trace_gives_a_result_or_a_clear_error") {
        return;
    }
    let bytes = corpus_file("perflib-exception.trace");
    for cut in 0..bytes.len() {
        match analyze(&bytes[..cut]) {
            Ok(p) => assert!(p.profile.facts.repairs.truncated || cut == bytes.len(), "cut {cut}"),
            Err(e) => assert!(
                matches!(e.kind(), ErrorKind::Truncated | ErrorKind::NotATrace | ErrorKind::Corrupt),
                "cut {cut}: {e}"
            ),
        }
    }
    let streaming = corpus_file("toolsbase-streaming.trace");
    for cut in (0..streaming.len()).step_by(9973) {
        if let Ok(p) = analyze(&streaming[..cut]) {
            assert!(p.profile.facts.repairs.truncated, "cut {cut}");
            assert!(p.profile.facts.warnings.iter().any(|w| w.contains("without its closing summary")), "cut {cut}");
        }
    }
}

#[test]
fn a_file_that_is_no_trace_is_refused_with_what_was_expected() {
    if !droidflame_testkit::corpus_present("corpus::a_file_that_is_no_trace_is_refused_with_what_was_expected") {
        return;
    }
    let err = analyze(&corpus_file("SOURCES.md")).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NotATrace, "{err}");
    assert!(err.to_string().contains("no ftrace event lines"), "{err}");
}

#[test]
fn sampling_traces_are_told_from_method_tracing() {
    if !droidflame_testkit::corpus_present("corpus::sampling_traces_are_told_from_method_tracing") {
        return;
    }
    // No two records of a thread in these files are closer than 1.4 ms: ART's sampling
    // mode (the sampler's interval), though the format has no marker for it.
    for (name, sampled) in [
        ("ffprof-art-regular.trace", true),
        ("ffprof-art-streaming.trace", true),
        ("toolsbase-streaming.trace", true),
        ("toolsbase-char_2_bytes.trace", false),
        ("tracereader-test1.trace", false),
        ("perflib-exception.trace", false),
    ] {
        let interval = profile_of(name).profile.facts.format.sampling_interval_us;
        assert_eq!(interval.is_some(), sampled, "{name}: {interval:?}");
        if let Some(us) = interval {
            assert!((1000..10_000).contains(&us), "{name}: {us}");
        }
    }
}

/// `java.lang.ProcessManager` (tid 13) begins with the exit of `Object.wait` (wall 5,559,775
/// µs after the trace's origin) and of `waitForMoreChildren` (5,559,786): that call was
/// running when tracing began. dmtracedump enters such calls at the origin (record time
/// 0) and reports 5,559,803 µs; the timeline starts at the earliest record of any thread,
/// 4,363 µs after the origin, so here the call lasts 5,559,786 - 4,363 µs. Its second call
/// is still open at the end and lasts to the timeline's end.
#[test]
fn a_wait_from_before_tracing_lasts_from_the_timelines_start() {
    if !droidflame_testkit::corpus_present("corpus::a_wait_from_before_tracing_lasts_from_the_timelines_start") {
        return;
    }
    let options = droidflame_core::Options { keep_calls: true, ..Default::default() };
    let profile = droidflame_core::analyze_with(&corpus_file("tracereader-test1.trace"), options).unwrap();
    assert_eq!(profile.profile.system.timeline.start, 4_363, "the earliest record, in µs from the trace's origin");
    let query = products::CallQuery {
        thread: Some(13),
        frame: Some("java.lang.ProcessManager.waitForMoreChildren".into()),
        ..Default::default()
    };
    let calls = products::select_calls(&profile.profile, &query).unwrap();
    let spans: Vec<(u64, u64, u32)> = calls.iter().map(|c| (c.start_us, c.end_us, c.depth)).collect();
    let end = profile.profile.micros(profile.profile.system.timeline.length());
    assert_eq!(spans, [(0, 5_559_786 - 4_363, 0), (5_800_607, end, 0)]);
    assert_eq!(end, 17_781_079);
}

/// Whether each kind of input says where it ends, so that a cut is noticed: a method trace
/// (its record count or closing summary), simpleperf's end marker, a zlib or gzip stream; not
/// ftrace text or a stream of Perfetto packets, which can end after any line or packet. The
/// damage tests read this to know when a cut must show as `repairs.truncated`.
#[test]
fn each_input_says_whether_it_knows_where_it_ends() {
    if !droidflame_testkit::corpus_present("corpus::each_input_says_whether_it_knows_where_it_ends") {
        return;
    }
    for (file, known) in [
        ("ffprof-art-regular.trace", true),
        ("ffprof-art-streaming.trace", true),
        ("simpleperf/ffprof-simpleperf-cpu-clock.trace", true),
        ("simpleperf/ffprof-simpleperf-cpu-clock.trace.gz", true),
        ("atrace/catapult-systrace-compressed_atrace_data.ctrace", true),
        ("atrace/catapult-systrace-atrace_data.txt", false),
        ("tracecompass-atrace-test.txt", false),
        ("perfetto/mstools-test_trace.perfetto-trace", false),
    ] {
        assert_eq!(profile_of(file).profile.facts.format.ends_known, known, "{file}");
    }
}

/// A capture of kernel events alone draws each thread's scheduler states as its frames,
/// and says so of its calls source; one with slices does not.
#[test]
fn a_capture_without_slices_says_its_frames_are_states() {
    if !droidflame_testkit::corpus_present("corpus::a_capture_without_slices_says_its_frames_are_states") {
        return;
    }
    for (file, states) in
        [("atrace/perfetto-sched_blocked_systrace.systrace", true), ("tracecompass-atrace-test.txt", false)]
    {
        let analysis = profile_of(file);
        let calls = analysis.profile.stacks_of(droidflame_core::SourceKind::Calls).expect("a calls source");
        assert_eq!(calls.states_as_frames, states, "{file}");
        let named: Vec<&str> = calls
            .threads
            .iter()
            .flat_map(|t| t.tree.nodes().iter().skip(1).map(|n| analysis.profile.frame_name(n.frame)))
            .collect();
        let only_states = named.iter().all(|n| ["Running", "Runnable", "Sleeping"].contains(n));
        assert_eq!(only_states, states, "{file}: {:?}", &named[..named.len().min(5)]);
    }
}
