//! The `droidflame` binary as scripts use it: exit codes, one-line errors, outputs.

use droidflame_testkit::{corpus_dir, Layout, MethodDef, Record, ThreadDef, Trace};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

fn droidflame(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_droidflame")).args(args).output().expect("the binary runs")
}

fn corpus(name: &str) -> String {
    corpus_dir().join(name).display().to_string()
}

fn scratch(name: &str) -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "droidflame-cli-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn stderr_line(out: &Output) -> String {
    let text = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(text.lines().count(), 1, "one line on stderr, got: {text}");
    text
}

fn summary(path: &str) -> serde_json::Value {
    let out = droidflame(&["summary", path]);
    assert!(out.status.success(), "{path}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn summary_reports_the_documented_record_counts() {
    if !droidflame_testkit::corpus_present("cli::summary_reports_the_documented_record_counts") {
        return;
    }
    let facts = [
        ("ffprof-art-regular.trace", 13295),
        ("ffprof-art-regular.trace.gz", 13295),
        ("ffprof-art-streaming.trace", 39377),
        ("ffprof-art-streaming.trace.gz", 39377),
        ("toolsbase-streaming.trace", 44339),
        ("toolsbase-char_2_bytes.trace", 70341),
        ("tracereader-test1.trace", 247266),
        ("perflib-basic.trace", 9),
        ("perflib-mismatched.trace", 9),
        ("perflib-exception.trace", 23),
        ("perflib-basic-api10.trace", 10),
    ];
    for (file, records) in facts {
        let json = summary(&corpus(file));
        assert_eq!(json["schema"], 1);
        assert_eq!(json["records"], records, "{file}");
        let per_thread: u64 = json["threads"].as_array().unwrap().iter().map(|t| t["records"].as_u64().unwrap()).sum();
        assert_eq!(per_thread, records, "{file}");
    }
}

#[test]
fn summary_json_follows_schema_1() {
    if !droidflame_testkit::corpus_present("cli::summary_json_follows_schema_1") {
        return;
    }
    let json = summary(&corpus("perflib-basic-api10.trace"));
    let format = &json["format"];
    for key in ["family", "layout", "version", "streaming", "clock", "vm"] {
        assert!(format.get(key).is_some(), "format.{key}");
    }
    assert_eq!(format["clock"], "thread-cpu");
    assert_eq!(json["header"]["vm"], "dalvik");
    let thread = &json["threads"][0];
    for key in ["tid", "name", "records", "wall_us", "cpu_us", "max_depth"] {
        assert!(thread.get(key).is_some(), "threads[].{key}");
    }
    // A clock the trace lacks is null, never 0.
    assert!(thread["wall_us"].is_null());
    assert!(thread["cpu_us"].as_u64().unwrap() > 0);
    let method = &json["methods"][0];
    for key in ["name", "class", "method", "signature", "source", "calls", "recursive_calls"] {
        assert!(method.get(key).is_some(), "methods[].{key}");
    }
    assert!(method["incl_wall_us"].is_null() && method["excl_wall_us"].is_null());
    assert!(method["incl_cpu_us"].is_u64());
    for key in [
        "unmatched_exits",
        "mismatched_exits",
        "open_at_end",
        "unknown_methods",
        "unknown_threads",
        "truncated",
        "overflow",
    ] {
        assert!(json["repairs"].get(key).is_some(), "repairs.{key}");
    }
}

#[test]
fn thread_wall_time_is_the_sum_of_its_folded_values() {
    if !droidflame_testkit::corpus_present("cli::thread_wall_time_is_the_sum_of_its_folded_values") {
        return;
    }
    let path = corpus("ffprof-art-regular.trace");
    let json = summary(&path);
    let thread = &json["threads"][0];
    let tid = thread["tid"].as_u64().unwrap().to_string();
    let out = droidflame(&["folded", &path, "--thread", &tid]);
    let sum: u64 = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.rsplit_once(' ').unwrap().1.parse::<u64>().unwrap())
        .sum();
    assert_eq!(thread["wall_us"].as_u64().unwrap(), sum);
}

#[test]
fn folded_has_thread_frames_unless_one_thread_is_asked_for() {
    if !droidflame_testkit::corpus_present("cli::folded_has_thread_frames_unless_one_thread_is_asked_for") {
        return;
    }
    let path = corpus("perflib-basic.trace");
    let all = String::from_utf8(droidflame(&["folded", &path]).stdout).unwrap();
    assert!(all.lines().all(|l| l.starts_with("AsyncTask #1 [11];")), "{all}");
    let one = String::from_utf8(droidflame(&["folded", &path, "--thread", "11", "--clock", "cpu"]).stdout).unwrap();
    assert!(!one.is_empty() && one.lines().all(|l| !l.contains("AsyncTask")), "{one}");
    assert!(one.lines().all(|l| l.rsplit_once(' ').unwrap().1.parse::<u64>().is_ok()));
}

#[test]
fn asking_for_a_missing_clock_or_thread_is_exit_2() {
    if !droidflame_testkit::corpus_present("cli::asking_for_a_missing_clock_or_thread_is_exit_2") {
        return;
    }
    let out = droidflame(&["folded", &corpus("perflib-basic-api10.trace"), "--clock", "wall"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr_line(&out).contains("no wall clock"));
    let out = droidflame(&["folded", &corpus("perflib-basic.trace"), "--thread", "4"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr_line(&out).contains("no thread with id 4"));
}

#[test]
fn bad_input_is_exit_2_with_one_line_naming_the_problem_and_where() {
    if !droidflame_testkit::corpus_present("cli::bad_input_is_exit_2_with_one_line_naming_the_problem_and_where") {
        return;
    }
    let junk = scratch("junk.bin");
    std::fs::write(&junk, b"\x00\x01not a trace at all").unwrap();
    let out = droidflame(&["summary", junk.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr_line(&out).contains("not an Android trace at byte 0"));

    let bytes = std::fs::read(corpus("perflib-basic.trace")).unwrap();
    let cut = scratch("cut.trace");
    std::fs::write(&cut, &bytes[..840]).unwrap();
    let out = droidflame(&["summary", cut.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr_line(&out).contains("truncated at byte 840"));

    let out = droidflame(&["summary", "/nonexistent/x.trace"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr_line(&out).contains("cannot open /nonexistent/x.trace"));
}

#[test]
fn a_cut_trace_still_gives_what_it_holds() {
    if !droidflame_testkit::corpus_present("cli::a_cut_trace_still_gives_what_it_holds") {
        return;
    }
    let bytes = std::fs::read(corpus("ffprof-art-streaming.trace")).unwrap();
    let cut = scratch("cut-streaming.trace");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let json = summary(cut.to_str().unwrap());
    assert_eq!(json["repairs"]["truncated"], true);
    assert_eq!(json["format"]["clock"], "dual");
    assert!(json["records"].as_u64().unwrap() > 10_000);
}

fn files_below(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files_below(&path, out);
        } else {
            out.push(path);
        }
    }
}

#[test]
fn no_corpus_file_crashes_the_cli() {
    if !droidflame_testkit::corpus_present("cli::no_corpus_file_crashes_the_cli") {
        return;
    }
    let mut files = Vec::new();
    files_below(&corpus_dir(), &mut files);
    assert!(files.len() > 30);
    for file in files {
        let path = file.to_str().unwrap();
        for command in ["summary", "folded", "calls"] {
            let out = droidflame(&[command, path]);
            let stderr = String::from_utf8_lossy(&out.stderr);
            match out.status.code() {
                // A capture with only kernel events has no stacks: empty folded output, no calls.
                Some(0) => assert!(command != "summary" || !out.stdout.is_empty(), "{path}"),
                Some(2) => assert_eq!(stderr.lines().count(), 1, "{path}: {stderr}"),
                other => panic!("{path}: exit {other:?}: {stderr}"),
            }
            assert!(!stderr.contains("panicked") && !stderr.contains("internal error"), "{path}: {stderr}");
        }
    }
}

#[test]
fn render_writes_summary_svgs_and_an_offline_index() {
    if !droidflame_testkit::corpus_present("cli::render_writes_summary_svgs_and_an_offline_index") {
        return;
    }
    let dir = scratch("report");
    let out = droidflame(&["render", &corpus("ffprof-art-regular.trace"), "-o", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let svgs: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with("thread-") && n.ends_with(".svg"))
        .collect();
    assert_eq!(svgs.len(), 40);
    let index = std::fs::read_to_string(dir.join("index.html")).unwrap();
    for svg in &svgs {
        assert!(index.contains(&format!("href=\"{svg}\"")), "index links {svg}");
    }
    assert!(!index.contains("http://") && !index.contains("https://"), "the index loads nothing from the network");
    let main = std::fs::read_to_string(dir.join("thread-001-21491.svg")).unwrap();
    assert!(main.contains("main [21491] — wall clock"));
    assert!(main.contains("µs"));
    assert!(dir.join("summary.json").is_file() && dir.join("all-threads.svg").is_file());
}

#[test]
fn split_key_and_data_files_are_one_trace() {
    let trace = Trace {
        threads: vec![ThreadDef { tid: 3, name: "main".into() }],
        methods: vec![MethodDef::new(4, "com/a/B", "c", "()V")],
        records: vec![
            Record { tid: 3, method: 4, action: 0, wall: 10, cpu: 0 },
            Record { tid: 3, method: 4, action: 1, wall: 25, cpu: 9 },
        ],
        ..Trace::default()
    };
    let (key, data) = trace.write_split();
    let key_path = scratch("app.key");
    let data_path = key_path.with_file_name("app.data");
    std::fs::write(&key_path, key).unwrap();
    std::fs::write(&data_path, data).unwrap();
    for args in [
        [key_path.to_str().unwrap(), data_path.to_str().unwrap()],
        [data_path.to_str().unwrap(), key_path.to_str().unwrap()],
    ] {
        let out = droidflame(&["folded", args[0], args[1]]);
        assert_eq!(String::from_utf8_lossy(&out.stdout), "main [3];com.a.B.c 15\n");
    }
    let out = droidflame(&["summary", data_path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr_line(&out).contains(".key"));
    let streaming = scratch("s.trace");
    std::fs::write(&streaming, trace.write(&Layout::ART_STREAMING)).unwrap();
    assert_eq!(summary(streaming.to_str().unwrap())["format"]["layout"], "streaming");
}

#[test]
fn calls_lists_each_call_with_its_times() {
    if !droidflame_testkit::corpus_present("cli::calls_lists_each_call_with_its_times") {
        return;
    }
    let trace = corpus("tracereader-test1.trace");
    let out =
        droidflame(&["calls", &trace, "--thread", "13", "--method", "java.lang.ProcessManager.waitForMoreChildren"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text,
        "13\t0\t0\t5555423\t5555423\t11\tjava.lang.ProcessManager.waitForMoreChildren\n\
         13\t0\t5800607\t17781079\t11980472\t17\tjava.lang.ProcessManager.waitForMoreChildren\n"
    );
    let out = droidflame(&["calls", &trace, "--longest", "3", "--from", "1000000", "--to", "2000000"]);
    assert!(out.status.success());
    let lines: Vec<Vec<String>> =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| l.split('\t').map(str::to_owned).collect()).collect();
    assert_eq!(lines.len(), 3);
    let wall: Vec<u64> = lines.iter().map(|f| f[4].parse().unwrap()).collect();
    assert!(wall.windows(2).all(|w| w[0] >= w[1]), "longest first: {wall:?}");
    for f in &lines {
        let (start, end): (u64, u64) = (f[2].parse().unwrap(), f[3].parse().unwrap());
        assert!(start <= 2_000_000 && end >= 1_000_000, "overlaps the window: {f:?}");
    }
    // Every call of every thread.
    let all = droidflame(&["calls", &trace]);
    assert!(all.status.success());
    assert!(String::from_utf8_lossy(&all.stdout).lines().count() > 100_000);
}

#[test]
fn impossible_call_requests_are_exit_2_with_one_line() {
    if !droidflame_testkit::corpus_present("cli::impossible_call_requests_are_exit_2_with_one_line") {
        return;
    }
    let trace = corpus("tracereader-test1.trace");
    for (args, says) in [
        (vec!["--from", "10", "--to", "5"], "the range starts (10 µs) after it ends (5 µs)"),
        (vec!["--from", "99999999"], "after the trace's timeline ends (17,781,079 µs)"),
        (vec!["--thread", "99"], "no thread with id 99"),
        (
            vec!["--method", "waitFor"],
            "names containing it: java.lang.Daemons$FinalizerWatchdogDaemon.waitForFinalization",
        ),
        (vec!["--longest", "0"], "at least 1"),
    ] {
        let mut full = vec!["calls", trace.as_str()];
        full.extend(&args);
        let out = droidflame(&full);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr_line(&out).contains(says), "{args:?}: {}", stderr_line(&out));
    }
}

#[test]
fn export_writes_chrome_trace_events() {
    if !droidflame_testkit::corpus_present("cli::export_writes_chrome_trace_events") {
        return;
    }
    let file = scratch("test1.json");
    let out =
        droidflame(&["export", &corpus("tracereader-test1.trace"), "--format", "chrome", "-o", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    let events = json["traceEvents"].as_array().unwrap();
    let calls = events.iter().filter(|e| e["ph"] == "X").count();
    let listed = String::from_utf8(droidflame(&["calls", &corpus("tracereader-test1.trace")]).stdout).unwrap();
    assert_eq!(calls, listed.lines().count());
    let wait =
        events.iter().find(|e| e["ph"] == "X" && e["name"] == "java.lang.ProcessManager.waitForMoreChildren").unwrap();
    assert_eq!((wait["ts"].as_u64(), wait["dur"].as_u64(), wait["tdur"].as_u64()), (Some(0), Some(5555423), Some(11)));
    assert!(events
        .iter()
        .any(|e| e["name"] == "thread_name" && e["tid"] == 13 && e["args"]["name"] == "java.lang.ProcessManager"));
    let out = droidflame(&["export", &corpus("tracereader-test1.trace"), "--format", "pdf", "-o", "x"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn diff_prints_both_sides_by_thread_name_and_warns_on_stderr() {
    if !droidflame_testkit::corpus_present("cli::diff_prints_both_sides_by_thread_name_and_warns_on_stderr") {
        return;
    }
    let (regular, streaming) = (corpus("ffprof-art-regular.trace"), corpus("ffprof-art-streaming.trace"));
    let out = droidflame(&["diff", &regular, &streaming]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.windows(2).all(|w| w[0] < w[1]), "sorted, one line a stack");
    let (mut before, mut after) = (0u64, 0u64);
    for line in &lines {
        let mut fields = line.rsplitn(3, ' ');
        after += fields.next().unwrap().parse::<u64>().unwrap();
        before += fields.next().unwrap().parse::<u64>().unwrap();
        assert!(!fields.next().unwrap().contains(" ["), "thread names, no tids: {line}");
    }
    // Each side's total is its folded total: every stack of it appears, once.
    let folded_total = |path: &str| -> u64 {
        let out = droidflame(&["folded", path]);
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
            .sum()
    };
    assert_eq!((before, after), (folded_total(&regular), folded_total(&streaming)));
    // The same trace twice: every line equal on both sides, and a warning.
    let same = droidflame(&["diff", &regular, &regular]);
    assert!(same.status.success());
    assert!(stderr_line(&same).contains("nothing changed (the same trace twice?)"));
    let bad = droidflame(&["diff", &regular, &corpus("SOURCES.md")]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr_line(&bad).contains("SOURCES.md: not an Android trace"));
}

#[test]
fn diff_writes_method_deltas_and_a_differential_graph_of_one_thread_name() {
    if !droidflame_testkit::corpus_present("cli::diff_writes_method_deltas_and_a_differential_graph_of_one_thread_name")
    {
        return;
    }
    let (regular, streaming) = (corpus("ffprof-art-regular.trace"), corpus("ffprof-art-streaming.trace"));
    let out = droidflame(&["diff", &regular, &streaming, "--format", "methods", "--thread", "main"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next().unwrap(), droidflame_core::products::METHOD_DELTA_COLUMNS);
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split('\t').collect()).collect();
    assert!(rows.iter().all(|r| r.len() == 12));
    // Sorted by the size of the inclusive change; each delta is after less before.
    let delta = |r: &Vec<&str>| r[6].parse::<i64>().unwrap();
    assert!(rows.windows(2).all(|w| delta(&w[0]).abs() >= delta(&w[1]).abs()));
    for r in &rows {
        assert_eq!(delta(r), r[5].parse::<i64>().unwrap() - r[4].parse::<i64>().unwrap());
    }
    let looper = rows.iter().find(|r| r[0] == "android.os.Looper.loop").expect("the main thread's loop");
    assert_eq!(looper[4], "6224530", "as the callgraph and folded stacks of before's main thread have it");
    // In a view: a merged method leaves both sides, its time its callers'.
    let dispatch = "android.os.Handler.dispatchMessage";
    let out =
        droidflame(&["diff", &regular, &streaming, "--format", "methods", "--thread", "main", "--merge", dispatch]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let merged = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains(dispatch) && !merged.contains(dispatch), "merged away");
    let self_before = |text: &str| -> u64 {
        let row = text.lines().find(|l| l.starts_with("android.os.Looper.loop\t")).expect("the loop");
        row.split('\t').nth(8).unwrap().parse().unwrap()
    };
    assert!(self_before(&merged) > self_before(&text), "the loop's own time took the merged method's");

    let svg = scratch("diff.svg");
    let out = droidflame(&[
        "diff",
        &regular,
        &streaming,
        "--format",
        "svg",
        "--thread",
        "main",
        "--normalize",
        "-o",
        svg.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains("main — wall clock, before → after"));
    assert!(text.contains("scaled to the same total"));

    let missing = droidflame(&["diff", &regular, &streaming, "--thread", "nobody"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr_line(&missing).contains("neither trace has a thread named \"nobody\""));
}

#[test]
fn callgraph_writes_dot_with_a_threshold() {
    if !droidflame_testkit::corpus_present("cli::callgraph_writes_dot_with_a_threshold") {
        return;
    }
    let trace = corpus("ffprof-art-regular.trace");
    let dot = scratch("graph.dot");
    let out = droidflame(&["callgraph", &trace, "--thread", "21491", "-o", dot.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let default = std::fs::read_to_string(&dot).unwrap();
    assert!(default.starts_with("digraph callgraph {"));
    assert!(default.contains("calls under 20% of their caller's time left out"));
    let loose = droidflame(&["callgraph", &trace, "--thread", "21491", "--threshold", "5", "-o", "-"]);
    assert!(loose.status.success());
    let loose = String::from_utf8(loose.stdout).unwrap();
    assert!(loose.matches(" -> ").count() > default.matches(" -> ").count());
    let bad = droidflame(&["callgraph", &trace, "--threshold", "150", "-o", "-"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr_line(&bad).contains("the threshold is a percentage from 0 to 100 (got 150)"));
}

/// An obfuscated trace and its mapping written to a scratch folder, with the trace before
/// obfuscation: `(original, obfuscated, mapping)`.
fn obfuscated_pair(seed: u64, build: usize) -> (String, String, String) {
    use droidflame_testkit::mapping::{app_trace, obfuscate_build, MappingStyle};
    let trace = app_trace(seed);
    let obfuscated = obfuscate_build(&trace, MappingStyle::R8, build);
    let paths = [scratch("original.trace"), scratch("obfuscated.trace"), scratch("mapping.txt")];
    std::fs::write(&paths[0], trace.write(&Layout::ART_REGULAR)).unwrap();
    std::fs::write(&paths[1], obfuscated.trace.write(&Layout::ART_REGULAR)).unwrap();
    std::fs::write(&paths[2], &obfuscated.mapping).unwrap();
    let [a, b, c] = paths.map(|p| p.display().to_string());
    (a, b, c)
}

fn stdout_of(args: &[&str]) -> String {
    let out = droidflame(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn mapping_gives_every_command_the_original_names() {
    let (original, obfuscated, mapping) = obfuscated_pair(3, 0);
    for command in [&["folded"][..], &["calls"], &["calls", "--longest", "5"], &["folded", "--clock", "cpu"]] {
        let plain = stdout_of(&[command, &[original.as_str()]].concat());
        let mapped = stdout_of(&[command, &[obfuscated.as_str(), "--mapping", &mapping]].concat());
        assert_eq!(mapped, plain, "{command:?}");
        assert_ne!(stdout_of(&[command, &[obfuscated.as_str()]].concat()), plain, "{command:?}");
    }
    for command in ["callgraph", "export"] {
        let extra: &[&str] = if command == "export" { &["--format", "chrome"] } else { &[] };
        let plain = stdout_of(&[&[command, original.as_str(), "-o", "-"], extra].concat());
        let mapped = stdout_of(&[&[command, obfuscated.as_str(), "-o", "-", "--mapping", &mapping], extra].concat());
        assert_eq!(mapped, plain, "{command}");
    }
    let out = droidflame(&["summary", &obfuscated, "--mapping", &mapping]);
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("Names deobfuscated with a mapping written by R8 8.5.35"), "{stderr}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let plain = summary(&original);
    assert_eq!(json["mapping"]["methods"]["ambiguous"], 0);
    assert!(json["mapping"]["classes"]["mapped"].as_u64().unwrap() >= 6, "{}", json["mapping"]);
    let name = |m: &serde_json::Value| m["name"].as_str().unwrap().to_owned();
    let names: Vec<String> = json["methods"].as_array().unwrap().iter().map(name).collect();
    assert_eq!(names, plain["methods"].as_array().unwrap().iter().map(name).collect::<Vec<_>>());
    assert!(json["methods"].as_array().unwrap().iter().any(|m| m["obfuscated"].is_string()));
    assert!(json["notes"].as_array().unwrap().iter().any(|n| n["key"] == "mapping"));
    // render: the graphs carry the original names.
    let dir = scratch("site");
    let out = droidflame(&["render", &obfuscated, "--mapping", &mapping, "-o", &dir.display().to_string()]);
    assert!(out.status.success());
    let svgs: String = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "svg"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    assert!(svgs.contains("com.exämple.Ünïcode."), "original names in the graphs");
}

#[test]
fn diff_takes_one_mapping_for_both_builds_or_one_each() {
    let (before, before_obf, before_map) = obfuscated_pair(4, 0);
    let (after, after_obf, after_map) = obfuscated_pair(5, 1);
    let plain = stdout_of(&["diff", &before, &after]);
    let mapped = droidflame(&["diff", &before_obf, &after_obf, "--mapping", &before_map, "--mapping", &after_map]);
    assert!(mapped.status.success(), "{}", String::from_utf8_lossy(&mapped.stderr));
    assert_eq!(String::from_utf8(mapped.stdout).unwrap(), plain);
    // One build's mapping for both: the other side is told to be another build's.
    let out = droidflame(&["diff", &before_obf, &after_obf, "--mapping", &before_map]);
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("warning") && stderr.contains("another app or build"), "{stderr}");
    let three = droidflame(&[
        "diff",
        &before_obf,
        &after_obf,
        "--mapping",
        &before_map,
        "--mapping",
        &after_map,
        "--mapping",
        &after_map,
    ]);
    assert_eq!(three.status.code(), Some(2));
    assert!(stderr_line(&three).contains("give --mapping once (both traces) or twice (before, then after)"));
}

#[test]
fn a_file_that_is_no_mapping_is_exit_2_naming_the_file_and_line() {
    if !droidflame_testkit::corpus_present("cli::a_file_that_is_no_mapping_is_exit_2_naming_the_file_and_line") {
        return;
    }
    let (_, obfuscated, _) = obfuscated_pair(6, 0);
    let out = droidflame(&["folded", &obfuscated, "--mapping", &corpus("SOURCES.md")]);
    assert_eq!(out.status.code(), Some(2));
    let line = stderr_line(&out);
    assert!(line.contains("SOURCES.md: not a mapping file: line 3 is no mapping line"), "{line}");
    let out = droidflame(&["folded", &obfuscated, "--mapping", "/no/such/mapping.txt"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr_line(&out).contains("cannot open /no/such/mapping.txt"));
}

/// `A` calls `F`, which calls `B`, which calls `F` again, which calls `C`: 10 µs in each.
fn recursive_trace() -> PathBuf {
    let methods =
        ["A", "F", "B", "C"].iter().enumerate().map(|(i, m)| MethodDef::new(4 * (i as u64 + 1), "p/K", m, "()V"));
    let calls = [4, 8, 12, 8, 16];
    let mut records = Vec::new();
    let mut wall = 0;
    for &method in &calls {
        records.push(Record { tid: 3, method, action: 0, wall, cpu: 0 });
        wall += 10;
    }
    for &method in calls.iter().rev() {
        records.push(Record { tid: 3, method, action: 1, wall, cpu: 0 });
    }
    let trace = Trace {
        threads: vec![ThreadDef { tid: 3, name: "main".into() }],
        methods: methods.collect(),
        records,
        ..Trace::default()
    };
    let path = scratch("recursive.trace");
    std::fs::write(&path, trace.write(&Layout::ART_REGULAR)).unwrap();
    path
}

#[test]
fn transforms_apply_in_the_order_given_and_invert_last() {
    let path = recursive_trace();
    let trace = path.to_str().unwrap();
    let folded = |args: &[&str]| {
        let out = droidflame(&[&["folded", trace], args].concat());
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(
        folded(&["--collapse-recursion", "p.K.F"]),
        "main [3];p.K.A 10\nmain [3];p.K.A;p.K.F 20\nmain [3];p.K.A;p.K.F;p.K.B 10\nmain [3];p.K.A;p.K.F;p.K.C 10\n"
    );
    // Merging B, then collapsing F's recursion, is not collapsing, then merging.
    assert_eq!(
        folded(&["--merge", "p.K.B", "--collapse-recursion", "p.K.F"]),
        "main [3];p.K.A 10\nmain [3];p.K.A;p.K.F 30\nmain [3];p.K.A;p.K.F;p.K.C 10\n"
    );
    assert_eq!(
        folded(&["--collapse-recursion", "p.K.F", "--merge", "p.K.B"]),
        "main [3];p.K.A 10\nmain [3];p.K.A;p.K.F 30\nmain [3];p.K.A;p.K.F;p.K.C 10\n"
    );
    assert_eq!(
        folded(&["--focus", "p.K.B", "--invert"]),
        "main [3];p.K.B 10\nmain [3];p.K.C;p.K.F;p.K.B 10\nmain [3];p.K.F;p.K.B 10\n"
    );
    assert_eq!(
        folded(&["--drop", "p.K.C", "--merge", "p.K.A"]),
        // A's own time, A merged, stays on the thread's frame alone.
        "main [3] 10\nmain [3];p.K.F 10\nmain [3];p.K.F;p.K.B 10\nmain [3];p.K.F;p.K.B;p.K.F 10\n"
    );
}

#[test]
fn tree_prints_depth_total_self_and_frame() {
    let path = recursive_trace();
    let out = droidflame(&["tree", path.to_str().unwrap(), "--format", "tsv"]);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "depth\ttotal\tself\tframe\n0\t50\t0\tmain [3]\n1\t50\t10\tp.K.A\n2\t40\t10\tp.K.F\n3\t30\t10\tp.K.B\n4\t20\t10\tp.K.F\n5\t10\t10\tp.K.C\n"
    );
    let out = droidflame(&["tree", path.to_str().unwrap(), "--format", "tsv", "--invert", "--thread", "3"]);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "depth\ttotal\tself\tframe\n0\t50\t0\tmain [3]\n1\t20\t0\tp.K.F\n2\t10\t10\tp.K.A\n2\t10\t0\tp.K.B\n3\t10\t0\tp.K.F\n4\t10\t10\tp.K.A\n1\t10\t10\tp.K.A\n1\t10\t0\tp.K.B\n2\t10\t0\tp.K.F\n3\t10\t10\tp.K.A\n1\t10\t0\tp.K.C\n2\t10\t0\tp.K.F\n3\t10\t0\tp.K.B\n4\t10\t0\tp.K.F\n5\t10\t10\tp.K.A\n"
    );
    let out = droidflame(&["tree", path.to_str().unwrap(), "--focus", "p.K.Nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr_line(&out).contains("no frame is named \"p.K.Nope\""));
}

#[test]
fn export_writes_speedscope_and_pprof_of_the_view() {
    let path = recursive_trace();
    let trace = path.to_str().unwrap();
    let json = scratch("view.speedscope.json");
    let out =
        droidflame(&["export", trace, "--format", "speedscope", "--merge", "p.K.B", "-o", json.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let file: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let names: Vec<&str> =
        file["shared"]["frames"].as_array().unwrap().iter().map(|f| f["name"].as_str().unwrap()).collect();
    assert!(!names.contains(&"p.K.B"), "merged frames are gone: {names:?}");
    assert_eq!(file["profiles"][0]["endValue"], 50);
    let pprof = scratch("view.pb.gz");
    let out = droidflame(&["export", trace, "--format", "pprof", "-o", pprof.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(&std::fs::read(&pprof).unwrap()[..2], [0x1F, 0x8B]);
    // The Chrome trace is the view's timeline: the merged frame has no event of its own.
    let out = droidflame(&["export", trace, "--format", "chrome", "--merge", "p.K.B", "-o", "-"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let events: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<&str> = events["traceEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["ph"] == "X")
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert!(!names.is_empty() && !names.contains(&"p.K.B"), "{names:?}");
    let out = droidflame(&["export", trace, "--format", "chrome", "--invert", "-o", "-"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr_line(&out).contains("no bottom-up"));
}

#[test]
fn source_chooses_which_stacks_every_command_prints() {
    if !droidflame_testkit::corpus_present("cli::source_chooses_which_stacks_every_command_prints") {
        return;
    }
    let heap = corpus("perfetto/toolsbase-tpd-empty_sched_table.trace");
    let s = summary(&heap);
    let names: Vec<&str> = s["sources"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["heap-unreleased", "heap-allocated"]);
    assert_eq!((s["source"].as_str(), s["unit"].as_str()), (Some("heap-unreleased"), Some("bytes")));
    let total = |args: &[&str]| -> u64 {
        let out = droidflame(args);
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| l.rsplit_once(' ').unwrap().1.parse::<u64>().unwrap())
            .sum()
    };
    // SOURCES.md: 428,480 bytes allocated, 2,640 freed; the first frame is the process.
    assert_eq!(total(&["folded", &heap]), 425_840);
    assert_eq!(total(&["folded", &heap, "--source", "heap-allocated"]), 428_480);
    let out = droidflame(&["tree", &heap, "--source", "heap-allocated"]);
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("   total bytes     self bytes  frame"));
    // A source the trace lacks, a name no source has, a dump it lacks: exit 2, one line.
    for (args, says) in [
        (
            vec!["folded", &heap, "--source", "cpu-samples"],
            "this trace has no cpu-samples source; it has: heap-unreleased, heap-allocated",
        ),
        (vec!["folded", &heap, "--source", "gpu"], "no such source; the sources are calls, cpu-samples"),
        (vec!["folded", &heap, "--dump", "3"], "this trace's heap profile has 1 dump: its only one is 0"),
    ] {
        let out = droidflame(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr_line(&out).contains(says), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
    // Two captures' samples compared: the same source on both sides.
    let samples = corpus("perfetto/mstools-perfetto_android12_cpuschedstack.pftrace");
    let out = droidflame(&["diff", &samples, &samples, "--source", "calls"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = droidflame(&["diff", &samples, &heap]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr_line(&out).contains("compare the same source of both"));
}

#[test]
fn frames_lists_app_frames_or_says_the_trace_has_none() {
    if !droidflame_testkit::corpus_present("cli::frames_lists_app_frames_or_says_the_trace_has_none") {
        return;
    }
    let trace = corpus("perfetto/nowinandroid-fork-trace.perfetto-trace");
    let out = droidflame(&["frames", &trace, "--pid", "9305", "--jank-only"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.lines().next(), Some("pid\tlayer\ttoken\tstart_us\tdur_us\texpected_dur_us\tjank\tpresent"));
    assert!(text.lines().skip(1).all(|l| l.starts_with("9305\t") && !l.contains("\tNone\t")), "{text}");
    let out = droidflame(&["frames", &corpus("perfetto/toolsbase-tpd-power.trace")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr_line(&out).contains("this trace has no frame timeline"));
}

/// Standard output's lines, split at tabs.
fn table(out: &Output) -> Vec<Vec<String>> {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines().map(|l| l.split('\t').map(str::to_owned).collect()).collect()
}

#[test]
fn heap_commands_print_their_tables_and_refuse_what_is_no_dump() {
    if !droidflame_testkit::corpus_present("cli::heap_commands_print_their_tables_and_refuse_what_is_no_dump") {
        return;
    }
    let dump = corpus("hprof/leakcanary-leak_service_binder.hprof");
    let other = corpus("hprof/leakcanary-leak_service_binder_ignored.hprof");
    let classes = table(&droidflame(&["heap", "classes", &dump]));
    assert_eq!(classes[0], ["class", "count", "shallow", "retained"]);
    assert_eq!(classes[1], ["java.lang.Class", "3645", "657876", "1970105"]);
    let app = table(&droidflame(&["heap", "classes", &dump, "--heap", "app"]));
    let counted: u64 = app[1..].iter().map(|r| r[1].parse::<u64>().unwrap()).sum();
    assert_eq!(counted, 3_109, "the app heap's reachable objects");
    let objects = table(&droidflame(&["heap", "objects", &dump, "--top", "2"]));
    assert_eq!(objects[0], ["id", "class", "heap", "shallow", "retained", "dominator"]);
    assert_eq!(objects[2], ["0xb0d4da78", "android.util.LongSparseArray[]", "zygote", "8", "249880", "0xb0cc6c78"]);
    let path = table(&droidflame(&["heap", "path", &dump, "0xb0fa7cb0"]));
    assert_eq!(path[1][2], "root:jni-global");
    assert_eq!(path[2], ["0xb0fa7cb0", "com.example.leakcanary.LeakyService", ".service"]);
    let leaks = table(&droidflame(&["heap", "leaks", &dump, "--grouped"]));
    assert_eq!(leaks[1][..4], ["1", "com.example.leakcanary.LeakyService", "378", "watched"]);
    let copies = table(&droidflame(&["heap", "duplicates", &dump, "--top", "1"]));
    assert_eq!(copies[0], ["kind", "class", "count", "bytes", "wasted", "example", "preview"]);
    assert_eq!(copies.len(), 2);
    // 50 strings "Cipher", as ahat counts them (heap_values.rs), each 24 bytes and 12 of text.
    assert_eq!(copies[1], ["string", "java.lang.String", "50", "36", "1752", "0xb0e37890", "Cipher"]);
    // Three dumps: a column per dump; nothing grows at every step of these.
    let series = table(&droidflame(&["heap", "series", &other, &dump, &dump]));
    assert_eq!(series[0].len(), 1 + 3 + 3 + 2);
    assert_eq!(series.len(), 1, "{series:?}");
    let diff = table(&droidflame(&["heap", "diff", &dump, &other]));
    assert_eq!(diff[0].len(), 7);
    assert_eq!(diff[1][0], "java.lang.Object[]");
    for (args, says) in [
        (vec!["heap", "classes", &corpus("ffprof-art-regular.trace")], "this is no heap dump"),
        (vec!["heap", "path", &dump, "0x1"], "this dump holds no object 0x1"),
        (vec!["heap", "path", &dump, "xyz"], "not an object id"),
        (vec!["heap", "classes", &dump, "--heap", "image"], "its heaps are zygote, app"),
    ] {
        let out = droidflame(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr_line(&out).contains(says), "{args:?}");
    }
}

#[test]
fn hide_takes_kernel_or_native_frames_out_of_every_stack() {
    if !droidflame_testkit::corpus_present("cli::hide_takes_kernel_or_native_frames_out_of_every_stack") {
        return;
    }
    let trace = corpus("simpleperf/ffprof-simpleperf-cpu-clock.trace");
    let folded = |args: &[&str]| {
        let out = droidflame(&[&["folded", trace.as_str()], args].concat());
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let total = |text: &str| text.lines().map(|l| l.rsplit_once(' ').unwrap().1.parse::<u64>().unwrap()).sum::<u64>();
    let plain = folded(&[]);
    let hidden = folded(&["--hide", "kernel"]);
    assert!(plain.contains("_[k]") && !hidden.contains("_[k]"));
    assert_eq!(total(&hidden), total(&plain));
    // The same as the core's transform, in the order given with the others.
    let view = droidflame_core::products::View {
        transforms: vec![
            droidflame_core::products::Transform::Hide(droidflame_core::products::Code::Native),
            droidflame_core::products::Transform::Hide(droidflame_core::products::Code::Kernel),
        ],
        invert: false,
    };
    let profile = droidflame_core::analyze(&std::fs::read(&trace).unwrap()).unwrap();
    let options = droidflame_core::products::FoldedOptions { view, ..Default::default() };
    assert_eq!(
        folded(&["--hide", "native", "--hide", "kernel"]),
        droidflame_core::products::folded(&profile.profile, &options).unwrap()
    );
    let out = droidflame(&["folded", &trace, "--hide", "java"]);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
}
