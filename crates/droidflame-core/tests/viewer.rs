//! What the web app reads from the core: per-thread method tables with named call edges,
//! the thread to open on, notes as sentences, and totals that leave tracks out.

use droidflame_core::analyze;
use droidflame_core::products::{self, frame_table_of};
use droidflame_core::Analysis;
use droidflame_testkit::{corpus_file, Layout, MethodDef, Record, ThreadDef, Trace, ENTER, EXIT};
use serde_json::Value;

fn rec(tid: u32, method: u64, action: u8, t: u64) -> Record {
    Record { tid, method, action, wall: t, cpu: t }
}

fn profile(threads: &[(u32, &str)], records: Vec<Record>, pid: Option<u32>) -> Analysis {
    let mut trace = Trace {
        threads: threads.iter().map(|&(tid, name)| ThreadDef { tid, name: name.into() }).collect(),
        methods: vec![
            MethodDef::new(0, "A", "a", "()V"),
            MethodDef::new(4, "B", "b", "()V"),
            MethodDef::new(8, "C", "c", "()V"),
        ],
        records,
        ..Trace::default()
    };
    if let Some(pid) = pid {
        trace.options.push(("pid".into(), pid.to_string()));
    }
    analyze(&trace.write(&Layout::ART_REGULAR)).unwrap()
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

#[test]
fn a_recursive_edge_shows_what_it_cost_and_says_it_is_recursive() {
    // A [0,100] → B [10,90] → A [20,80] → B [30,70]. The edge A → B counts its outer call
    // (80 µs); adding the inner one (40 µs, inside it) would count that time twice.
    let p = profile(
        &[(1, "main")],
        vec![
            rec(1, 0, ENTER, 0),
            rec(1, 4, ENTER, 10),
            rec(1, 0, ENTER, 20),
            rec(1, 4, ENTER, 30),
            rec(1, 4, EXIT, 70),
            rec(1, 0, EXIT, 80),
            rec(1, 4, EXIT, 90),
            rec(1, 0, EXIT, 100),
        ],
        None,
    );
    let table = json(&products::methods_json(&p.profile, Some(0)).unwrap());
    let names: Vec<&str> = table["methods"].as_array().unwrap().iter().map(|m| m["name"].as_str().unwrap()).collect();
    let index = |name: &str| names.iter().position(|n| *n == name).unwrap();
    let edge = |caller: Option<usize>, callee: usize| {
        table["edges"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["caller"].as_u64().map(|c| c as usize) == caller && e["callee"] == callee)
            .cloned()
            .unwrap()
    };
    let (a, b) = (index("A.a"), index("B.b"));
    let a_to_b = edge(Some(a), b);
    assert_eq!(a_to_b["calls"], 2);
    assert_eq!(a_to_b["recursive_calls"], 1, "the inner A → B runs inside B");
    assert_eq!(a_to_b["incl_wall_us"], 80, "the outer call's 80 µs, the inner one inside it");
    let b_to_a = edge(Some(b), a);
    assert_eq!(b_to_a["calls"], 1);
    assert_eq!(b_to_a["recursive_calls"], 1);
    assert_eq!(b_to_a["incl_wall_us"], 60, "a recursive call still shows its cost, never 0");
    assert_eq!(edge(None, a)["incl_wall_us"], 100);
    // The methods' own inclusive time still counts recursion once.
    assert_eq!(table["methods"][a]["incl_wall_us"], 100);
    assert_eq!(table["methods"][b]["incl_wall_us"], 80);
    assert_eq!(table["total_wall_us"], 100);
}

#[test]
fn one_threads_table_leaves_other_threads_out() {
    let p = profile(
        &[(1, "main"), (2, "worker")],
        vec![
            rec(1, 0, ENTER, 0),
            rec(2, 8, ENTER, 0),
            rec(1, 4, ENTER, 10),
            rec(1, 4, EXIT, 20),
            rec(2, 8, EXIT, 500),
            rec(1, 0, EXIT, 30),
        ],
        None,
    );
    let main = json(&products::methods_json(&p.profile, Some(0)).unwrap());
    let names: Vec<&str> = main["methods"].as_array().unwrap().iter().map(|m| m["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["A.a", "B.b"], "C.c runs only on the worker");
    assert_eq!(main["thread"], 0);
    assert_eq!(main["total_wall_us"], 30);
    let all = json(&products::methods_json(&p.profile, None).unwrap());
    assert_eq!(all["methods"].as_array().unwrap().len(), 3);
    assert_eq!(all["thread"], Value::Null);
    assert_eq!(all["total_wall_us"], 530);
    let worker = frame_table_of(&p.profile, &[&p.profile.stacks().threads[1]]);
    assert_eq!(worker.rows.len(), 1);
    let error = products::methods_json(&p.profile, Some(7)).unwrap_err();
    assert!(error.to_string().contains("thread index 7 is out of range (2 threads)"), "{error}");
}

#[test]
fn the_default_thread_is_the_main_thread_else_the_busiest_on_the_cpu() {
    // The worker has the most wall time (it waits); main is the app's main thread.
    let records = vec![
        rec(2, 8, ENTER, 0),
        rec(7, 0, ENTER, 10),
        rec(7, 0, EXIT, 40),
        rec(3, 4, ENTER, 50),
        rec(3, 4, EXIT, 60),
        rec(2, 8, EXIT, 1000),
    ];
    let named = profile(&[(2, "waiter"), (7, "main"), (3, "other")], records.clone(), None);
    assert_eq!(named.profile.stacks().threads[named.profile.default_thread().unwrap()].name, "main");
    // The header's pid wins over the name.
    let by_pid = profile(&[(2, "waiter"), (7, "main"), (3, "other")], records.clone(), Some(3));
    assert_eq!(by_pid.profile.stacks().threads[by_pid.profile.default_thread().unwrap()].tid, 3);
    // Without either, the thread with the most CPU time (these records give CPU = wall,
    // so the waiter would win on wall time; give it no CPU time instead).
    let mut idle = records;
    for r in idle.iter_mut().filter(|r| r.tid == 2) {
        r.cpu = 5;
    }
    let busiest = profile(&[(2, "waiter"), (7, "ui"), (3, "other")], idle, None);
    assert_eq!(busiest.profile.stacks().threads[busiest.profile.default_thread().unwrap()].name, "ui");
    let summary = json(&products::summary_json(&busiest));
    assert_eq!(summary["threads"][summary["default_thread"].as_u64().unwrap() as usize]["name"], "ui");
}

#[test]
fn a_thread_known_only_from_the_scheduler_is_not_the_one_to_open_on() {
    // `main` runs for 8 ms but has no slice: it is listed, with its states and no stack;
    // `app` runs 2 ms with one slice, the only stack to show.
    const MS: u64 = 1_000_000;
    let mut c = droidflame_testkit::atrace::Capture::new();
    c.switch(0, 0, ("swapper/0", 0), "R", ("main", 6))
        .switch(0, 8 * MS, ("main", 6), "S", ("app", 5))
        .mark("app", 5, 5, 9 * MS, "B|5|work")
        .mark("app", 5, 5, 10 * MS, "E|5");
    let p = analyze(&c.text()).unwrap();
    let main = p.profile.stacks().threads.iter().find(|t| t.tid == 6).unwrap();
    assert_eq!((main.name.as_str(), main.tree.len()), ("main", 1), "listed, with only the root");
    assert_eq!(p.profile.stacks().threads[p.profile.default_thread().unwrap()].tid, 5);
    // Each thread once, named by the scheduler: the frames of their states before the
    // first slice were let go with the threads that held them.
    let mut tids: Vec<u32> = p.profile.stacks().threads.iter().map(|t| t.tid).collect();
    tids.sort();
    assert_eq!((tids, p.profile.facts.repairs.unknown_threads), (vec![5, 6], 0));
}

#[test]
fn corpus_traces_open_on_their_main_thread() {
    if !droidflame_testkit::corpus_present("viewer::corpus_traces_open_on_their_main_thread") {
        return;
    }
    for (trace, name, tid) in [
        ("tracereader-test1.trace", "main", 1),
        ("toolsbase-streaming.trace", "main", 15362),
        ("ffprof-art-streaming.trace.gz", "main", 15983),
        ("ffprof-art-regular.trace", "main", 21491),
    ] {
        let p = analyze(&corpus_file(trace)).unwrap();
        let t = &p.profile.stacks().threads[p.profile.default_thread().unwrap()];
        assert_eq!((t.name.as_str(), t.tid), (name, tid), "{trace}");
    }
}

#[test]
fn notes_merge_what_one_repair_says_and_name_no_limit_twice() {
    if !droidflame_testkit::corpus_present("viewer::notes_merge_what_one_repair_says_and_name_no_limit_twice") {
        return;
    }
    let bytes = corpus_file("ffprof-art-streaming.trace.gz");
    let p = analyze(&bytes[..100_000]).unwrap();
    let summary = json(&products::summary_json(&p));
    let notes = summary["notes"].as_array().unwrap();
    let truncation: Vec<&Value> = notes.iter().filter(|n| n["text"].as_str().unwrap().contains("cut short")).collect();
    assert_eq!(truncation.len(), 1, "one note tells of the cut: {notes:#?}");
    assert_eq!(truncation[0]["key"], "truncated");
    assert!(truncation[0]["text"].as_str().unwrap().contains("the gzip data ends early"));
    // Every warning is still in `warnings`, as before.
    assert_eq!(summary["warnings"].as_array().unwrap().len(), 3);
    for note in notes {
        let text = note["text"].as_str().unwrap();
        assert!(text.starts_with(|c: char| c.is_uppercase() || c.is_ascii_digit()), "{text}");
        assert!(text.ends_with('.'), "{text}");
    }
    assert_eq!(summary["limits"]["max_drawn_depth"], 1024);
    assert_eq!(summary["format"]["clocks"], serde_json::json!(["wall", "cpu"]));
    // A method trace's clocks: elapsed time, and the thread's time on a CPU.
    assert_eq!(summary["format"]["clock_words"], serde_json::json!({"wall": "wall time", "cpu": "thread CPU time"}));
    assert_eq!(summary["format"]["description"], "Method trace, streaming v3, gzip");
}

#[test]
fn tracks_have_no_cpu_time_and_stay_out_of_the_totals() {
    if !droidflame_testkit::corpus_present("viewer::tracks_have_no_cpu_time_and_stay_out_of_the_totals") {
        return;
    }
    let p = analyze(&corpus_file("toolsbase-atrace.ctrace")).unwrap();
    let summary = json(&products::summary_json(&p));
    let threads = summary["threads"].as_array().unwrap();
    let tracks: Vec<&Value> = threads.iter().filter(|t| t["track"] == true).collect();
    assert!(!tracks.is_empty());
    assert!(tracks.iter().all(|t| t["cpu_us"].is_null()), "a track has no CPU clock");
    let sum =
        |key: &str| -> u64 { threads.iter().filter(|t| t["track"] != true).map(|t| t[key].as_u64().unwrap()).sum() };
    assert_eq!(summary["totals"]["wall_us"], sum("wall_us"));
    assert_eq!(summary["totals"]["cpu_us"], sum("cpu_us"));
    assert_eq!(summary["format"]["frame_kind"], "slice");
}

#[test]
fn past_fifty_warnings_the_rest_are_counted_in_one() {
    // Thread 1 listed under 60 names: the id was reused 59 times, a warning each.
    let threads: Vec<(u32, String)> = (0..60).map(|i| (1, format!("t{i}"))).collect();
    let threads: Vec<(u32, &str)> = threads.iter().map(|(tid, name)| (*tid, name.as_str())).collect();
    let p = profile(&threads, vec![rec(1, 0, ENTER, 0), rec(1, 0, EXIT, 10)], None);
    assert_eq!(p.profile.facts.warnings.len(), 51, "{:?}", p.profile.facts.warnings);
    assert!(p.profile.facts.warnings[..50].iter().all(|w| w.contains("is listed twice")));
    assert_eq!(p.profile.facts.warnings[50].to_string(), "9 more warnings not shown");
}
