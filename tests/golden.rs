//! Golden outputs: the products of small corpus traces, byte for byte. A change to any of
//! them is a change users see; review the diff, then re-bless with
//! `DROIDFLAME_BLESS=1 cargo test -p droidflame-tests`.

use droidflame_core::products::{self, FlameOptions, FoldedOptions, GraphScope, Theme};
use droidflame_core::{analyze, Clock};
use droidflame_testkit::corpus_file;
use std::path::PathBuf;

fn check(name: &str, actual: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("golden").join(name);
    let expected = std::fs::read_to_string(&path);
    if std::env::var_os("DROIDFLAME_BLESS").is_some() {
        // Blessing shows what it accepts, so a change cannot slip in unseen; written to
        // stderr directly, which the test harness does not capture.
        use std::io::Write;
        let shown = match &expected {
            Ok(old) if old == actual => String::new(),
            Ok(old) => format!("blessed {name}:\n{}\n", line_diff(old, actual)),
            Err(_) => format!("blessed {name}: a new golden file of {} lines\n", actual.lines().count()),
        };
        let _ = std::io::stderr().write_all(shown.as_bytes());
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = expected.unwrap_or_else(|e| panic!("{}: {e} (bless with DROIDFLAME_BLESS=1)", path.display()));
    if expected != actual {
        panic!("{name} differs from its golden file (- golden, + actual):\n{}", line_diff(&expected, actual));
    }
}

/// The lines that differ between two texts, `-` for `old`'s and `+` for `new`'s, each with
/// its line number, from their longest common subsequence of lines; at most 40 lines are
/// shown, then how many more differ.
fn line_diff(old: &str, new: &str) -> String {
    let (a, b): (Vec<&str>, Vec<&str>) = (old.lines().collect(), new.lines().collect());
    // common[i][j]: the longest common subsequence of a[i..] and b[j..].
    let mut common = vec![vec![0u32; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            common[i][j] = if a[i] == b[j] { common[i + 1][j + 1] + 1 } else { common[i + 1][j].max(common[i][j + 1]) };
        }
    }
    let mut changes = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            (i, j) = (i + 1, j + 1);
        } else if j == b.len() || i < a.len() && common[i + 1][j] >= common[i][j + 1] {
            changes.push(format!("-{:>5} {}", i + 1, a[i]));
            i += 1;
        } else {
            changes.push(format!("+{:>5} {}", j + 1, b[j]));
            j += 1;
        }
    }
    let shown = changes.len().min(40);
    let mut out = changes[..shown].join("\n");
    if changes.len() > shown {
        out += &format!("\n… and {} more changed lines", changes.len() - shown);
    }
    out
}

#[test]
fn the_diff_shows_each_changed_line_once_with_its_number() {
    let diff = line_diff("a\nb\nc\nd\n", "a\nc\nx\nd\ne\n");
    assert_eq!(diff, "-    2 b\n+    3 x\n+    5 e");
    let many: String = (0..50).map(|n| format!("{n}\n")).collect();
    let diff = line_diff(&many, "");
    assert_eq!(diff.lines().count(), 41);
    assert!(diff.ends_with("… and 10 more changed lines"), "{diff}");
}

#[test]
fn folded_stacks() {
    if !droidflame_testkit::corpus_present("golden::folded_stacks") {
        return;
    }
    for (trace, clock) in [
        ("perflib-basic.trace", Clock::Wall),
        ("perflib-mismatched.trace", Clock::Wall),
        ("perflib-exception.trace", Clock::Cpu),
        ("perflib-basic-api10.trace", Clock::Cpu),
        ("tracecompass-atrace-test.txt", Clock::Wall),
        ("tracecompass-atrace-test.txt", Clock::Cpu),
    ] {
        let profile = analyze(&corpus_file(trace)).unwrap();
        let folded = products::folded(
            &profile.profile,
            &FoldedOptions { clock: Some(clock), thread: None, ..Default::default() },
        )
        .unwrap();
        check(&format!("{trace}.{clock}.folded"), &folded);
    }
}

#[test]
fn thread_table_of_a_real_app() {
    if !droidflame_testkit::corpus_present("golden::thread_table_of_a_real_app") {
        return;
    }
    for trace in ["ffprof-art-streaming.trace.gz", "ffprof-art-regular.trace"] {
        let profile = analyze(&corpus_file(trace)).unwrap();
        let summary = products::summary(&profile);
        let mut table = String::from("tid\trecords\twall_us\tcpu_us\tmax_depth\tname\n");
        for t in &summary.threads {
            let (wall, cpu) = (t.wall_us.unwrap(), t.cpu_us.unwrap());
            table.push_str(&format!("{}\t{}\t{wall}\t{cpu}\t{}\t{}\n", t.tid, t.records, t.max_depth, t.name));
        }
        check(&format!("{trace}.threads.tsv"), &table);
    }
}

#[test]
fn simpleperf_samples() {
    if !droidflame_testkit::corpus_present("golden::simpleperf_samples") {
        return;
    }
    // A small thread of a device recording without off-CPU samples, on its default clock
    // (on-CPU), and one of a recording with them, on the wall clock; then each summary
    // with the start of its methods table.
    let device = analyze(&corpus_file("simpleperf/aosp-simpleperf-display_bitmaps.proto_data")).unwrap();
    let on_cpu = FoldedOptions { thread: Some(31864), ..Default::default() };
    check("aosp-simpleperf-display_bitmaps.31864.cpu.folded", &products::folded(&device.profile, &on_cpu).unwrap());
    let studio = analyze(&corpus_file("simpleperf/ffprof-simpleperf-cpu-clock.trace")).unwrap();
    let wall = FoldedOptions { clock: Some(Clock::Wall), thread: Some(7668), ..Default::default() };
    check("ffprof-simpleperf-cpu-clock.7668.wall.folded", &products::folded(&studio.profile, &wall).unwrap());
    for (name, profile) in [("aosp-simpleperf-display_bitmaps", &device), ("ffprof-simpleperf-cpu-clock", &studio)] {
        let mut summary: serde_json::Value = serde_json::from_str(&products::summary_json(profile)).unwrap();
        summary["methods"].as_array_mut().unwrap().truncate(25);
        check(&format!("{name}.summary-head.json"), &(serde_json::to_string_pretty(&summary).unwrap() + "\n"));
    }
}

#[test]
fn summary_json() {
    if !droidflame_testkit::corpus_present("golden::summary_json") {
        return;
    }
    for trace in ["perflib-exception.trace", "perflib-basic-api10.trace"] {
        let profile = analyze(&corpus_file(trace)).unwrap();
        check(&format!("{trace}.summary.json"), &(products::summary_json(&profile) + "\n"));
    }
    // A system trace: slices, async tracks, counters, processes.
    let profile = analyze(&corpus_file("atrace/catapult-systrace-decompressed_atrace_data.txt")).unwrap();
    check("catapult-systrace-decompressed_atrace_data.summary.json", &(products::summary_json(&profile) + "\n"));
}

#[test]
fn flame_graph_svg() {
    if !droidflame_testkit::corpus_present("golden::flame_graph_svg") {
        return;
    }
    let profile = analyze(&corpus_file("perflib-exception.trace")).unwrap();
    let svg = products::flame_svg(&profile.profile, GraphScope::Thread(0), &FlameOptions::default()).unwrap();
    check("perflib-exception.wall.svg", &svg);
    let dark = FlameOptions { theme: Theme::Dark, ..FlameOptions::default() };
    let svg = products::flame_svg(&profile.profile, GraphScope::Thread(0), &dark).unwrap();
    check("perflib-exception.wall.dark.svg", &svg);
}

#[test]
fn methods_table_of_one_thread_and_of_all() {
    if !droidflame_testkit::corpus_present("golden::methods_table_of_one_thread_and_of_all") {
        return;
    }
    let profile = analyze(&corpus_file("perflib-exception.trace")).unwrap();
    check(
        "perflib-exception.methods.thread-0.json",
        &(products::methods_json(&profile.profile, Some(0)).unwrap() + "\n"),
    );
    let profile = analyze(&corpus_file("atrace/catapult-systrace-decompressed_atrace_data.txt")).unwrap();
    check(
        "catapult-systrace-decompressed_atrace_data.methods.all.json",
        &(products::methods_json(&profile.profile, None).unwrap() + "\n"),
    );
}

/// Two runs of one app (Firefox Profiler's fixtures, recorded apart): one thread of theirs
/// compared as differential stacks, method deltas and a normalised differential graph.
#[test]
fn comparison_of_two_runs() {
    if !droidflame_testkit::corpus_present("golden::comparison_of_two_runs") {
        return;
    }
    let before = analyze(&corpus_file("ffprof-art-regular.trace")).unwrap();
    let after = analyze(&corpus_file("ffprof-art-streaming.trace")).unwrap();
    // Both traces open on their app's main thread, so the comparison does too.
    let whole = products::compare(&before, &after, &products::DiffOptions::default()).unwrap();
    assert_eq!(whole.default_thread.as_deref(), Some("main"));
    const THREAD: &str = "DefaultDispatcher-worker-1";
    let options = products::DiffOptions { thread: Some(THREAD.into()), ..Default::default() };
    let comparison = products::compare(&before, &after, &options).unwrap();
    // The second run's worker lasted half as long again: the one warning says what that does
    // to the colours.
    assert_eq!(comparison.warnings.len(), 1, "{:?}", comparison.warnings);
    assert!(
        comparison.warnings[0].starts_with("after holds 51% more than before in all (9,429,599 against 6,224,196 µs)")
    );
    let mut folded = Vec::new();
    products::write_diff_folded(&comparison, &mut folded).unwrap();
    check("ffprof-art.worker-1.diff.folded", &String::from_utf8(folded).unwrap());
    let rows =
        products::method_deltas(&before.profile, &after.profile, comparison.clock, Some(THREAD), &Default::default())
            .unwrap();
    let mut table = Vec::new();
    products::write_method_deltas(&rows, &mut table).unwrap();
    check("ffprof-art.worker-1.methods-delta.tsv", &String::from_utf8(table).unwrap());
    let graph = products::DiffGraphOptions { thread: Some(THREAD.into()), normalize: true, ..Default::default() };
    check("ffprof-art.worker-1.diff.svg", &products::diff_svg(&comparison, &graph).unwrap());
}

#[test]
fn call_graph_dot() {
    if !droidflame_testkit::corpus_present("golden::call_graph_dot") {
        return;
    }
    let profile = analyze(&corpus_file("perflib-exception.trace")).unwrap();
    let mut dot = Vec::new();
    products::write_callgraph_dot(&profile.profile, &products::CallGraphOptions::default(), &mut dot).unwrap();
    check("perflib-exception.callgraph.dot", &String::from_utf8(dot).unwrap());
    let profile = analyze(&corpus_file("ffprof-art-regular.trace")).unwrap();
    let options = products::CallGraphOptions { thread: Some(21491), ..Default::default() };
    let mut dot = Vec::new();
    products::write_callgraph_dot(&profile.profile, &options, &mut dot).unwrap();
    check("ffprof-art-regular.main.callgraph.dot", &String::from_utf8(dot).unwrap());
}

#[test]
fn deobfuscated_names() {
    use droidflame_testkit::mapping::{app_trace, obfuscate, MappingStyle};
    use droidflame_testkit::Layout;
    let obfuscated = obfuscate(&app_trace(7), MappingStyle::R8);
    check("obfuscated-r8.mapping.txt", &obfuscated.mapping);
    let mut profile = analyze(&obfuscated.trace.write(&Layout::ART_REGULAR)).unwrap();
    let mapping = droidflame_core::mapping::read_mapping(obfuscated.mapping.as_bytes(), &[&profile.profile]).unwrap();
    profile.deobfuscate(&mapping);
    let summary = serde_json::to_value(products::summary(&profile)).unwrap();
    let methods: Vec<serde_json::Value> = summary["methods"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| serde_json::json!([m["name"], m["signature"], m["source"], m["obfuscated"]]))
        .collect();
    let report = serde_json::json!({ "mapping": summary["mapping"], "methods": methods });
    check("obfuscated-r8.deobfuscated.json", &(serde_json::to_string_pretty(&report).unwrap() + "\n"));
    let folded = products::folded(&profile.profile, &FoldedOptions::default()).unwrap();
    check("obfuscated-r8.deobfuscated.folded", &folded);
}
