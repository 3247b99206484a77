//! The documented limits (README "Limits"): a million-deep stack works through every
//! product; unique stacks, threads and methods beyond their limits end in a clear error;
//! long names are cut and counted. Traces are generated in code (testkit).

use droidflame_core::products::{self, FlameOptions, FoldedOptions, GraphScope};
use droidflame_core::{analyze, analyze_with, ErrorKind, Options, Profile};
use droidflame_testkit::adversarial::{write_adversarial, Adversary};
use droidflame_testkit::atrace::Capture;
use droidflame_testkit::{Layout, MethodDef, Record, ThreadDef, Trace, ENTER, EXIT};

fn adversarial(adversary: Adversary) -> Vec<u8> {
    let mut bytes = Vec::new();
    write_adversarial(&mut bytes, adversary).unwrap();
    bytes
}

fn limit_error(bytes: &[u8], options: Options) -> String {
    let err = analyze_with(bytes, options).expect_err("a limit was passed");
    assert_eq!(err.kind(), ErrorKind::Limit, "{err}");
    err.to_string()
}

fn folded(p: &Profile) -> String {
    products::folded(p, &FoldedOptions::default()).unwrap()
}

#[test]
fn a_million_deep_stack_works_through_every_product() {
    let p = analyze(&adversarial(Adversary::DeepChain { depth: 1_000_000, methods: 1000 })).unwrap();
    let summary: serde_json::Value = serde_json::from_str(&products::summary_json(&p)).unwrap();
    let thread = &summary["threads"][0];
    assert_eq!(thread["max_depth"], 1_000_000);

    // Folded: the first 1024 frames of the stack, then one frame holding the rest.
    let text = folded(&p.profile);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1025);
    let last = lines.last().unwrap();
    assert_eq!(last.matches(';').count(), 1025, "thread frame, 1024 frames, the merged frame");
    assert!(last.contains(";[frames below depth 1024, merged] "), "{}", &last[last.len() - 80..]);
    // Each level has 2 µs of self time; nothing is lost in the merge.
    let values: u64 = lines.iter().map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(Some(values), thread["wall_us"].as_u64());
    assert_eq!(values, 2 * 1_000_000 - 1);

    let svg = products::flame_svg(&p.profile, GraphScope::Thread(0), &FlameOptions::default()).unwrap();
    assert!(svg.contains("[frames below depth 1024, merged]"));
    assert!(svg.len() < 2 << 20, "the graph stays small: {} bytes", svg.len());
    products::flame_svg(&p.profile, GraphScope::AllThreads, &FlameOptions::default()).unwrap();
    let table = products::frame_table(&p.profile);
    assert_eq!(table.rows.len(), 1000);
    assert_eq!(table.rows.iter().map(|r| r.calls).sum::<u64>(), 1_000_000);
    products::methods_json(&p.profile, None).unwrap();
    products::render_site(&p, None, &Default::default()).unwrap();
}

#[test]
fn the_merge_depth_is_an_option() {
    let p = analyze(&adversarial(Adversary::DeepChain { depth: 50, methods: 5 })).unwrap();
    let options = FoldedOptions { max_depth: 10, ..Default::default() };
    let text = products::folded(&p.profile, &options).unwrap();
    assert_eq!(text.lines().count(), 11);
    assert!(text.ends_with(";[frames below depth 10, merged] 79\n"), "{text}");
    assert_eq!(folded(&p.profile).lines().count(), 50, "below the default depth nothing merges");
}

#[test]
fn unique_stacks_beyond_the_limit_are_refused() {
    let fresh = Adversary::FreshStacks { fanout: 4, depth: 4 };
    assert_eq!(fresh.unique_stacks(), 340);
    let bytes = adversarial(fresh);
    let p = analyze_with(&bytes, Options { max_call_stacks: 340, ..Default::default() }).unwrap();
    assert_eq!(p.profile.stacks().threads[0].tree.len(), 341, "every enter made a stack, plus the root");
    let message = limit_error(&bytes, Options { max_call_stacks: 339, ..Default::default() });
    assert!(message.contains("more than 339 unique call stacks (the call-stack limit)"), "{message}");
}

#[test]
fn exits_of_methods_never_entered_count_against_the_stack_limit() {
    // Each exit of a method not on the stack re-roots the thread under a new frame: a
    // trace of nothing else grows one node per record.
    let records: Vec<Record> = (0..500).map(|i| Record { tid: 1, method: 0, action: EXIT, wall: i, cpu: i }).collect();
    let trace = Trace {
        threads: vec![ThreadDef { tid: 1, name: "main".into() }],
        methods: vec![MethodDef::new(0, "A", "a", "()V")],
        records,
        ..Trace::default()
    };
    let bytes = trace.write(&Layout::ART_REGULAR);
    let p = analyze(&bytes).unwrap();
    assert_eq!(p.profile.facts.repairs.unmatched_exits, 500);
    let message = limit_error(&bytes, Options { max_call_stacks: 100, ..Default::default() });
    assert!(message.contains("more than 100 unique call stacks"), "{message}");
}

#[test]
fn threads_beyond_the_limit_are_refused() {
    let mut capture = Capture::new();
    for tid in 1..=40u32 {
        capture.mark("app", tid, 1, 1_000_000 + u64::from(tid) * 10, "B|1|work");
        capture.mark("app", tid, 1, 1_000_005 + u64::from(tid) * 10, "E|1");
    }
    let text = capture.text();
    assert_eq!(
        analyze_with(&text, Options { max_threads: 40, ..Default::default() }).unwrap().profile.stacks().threads.len(),
        40
    );
    let message = limit_error(&text, Options { max_threads: 39, ..Default::default() });
    assert!(message.contains("more than 39 threads (the thread limit)"), "{message}");

    // Threads listed in an ART key count too.
    let trace = Trace {
        threads: (1..=30).map(|tid| ThreadDef { tid, name: format!("t{tid}") }).collect(),
        methods: vec![MethodDef::new(0, "A", "a", "()V")],
        records: vec![Record { tid: 1, method: 0, action: ENTER, wall: 0, cpu: 0 }],
        ..Trace::default()
    };
    let message = limit_error(&trace.write(&Layout::ART_REGULAR), Options { max_threads: 20, ..Default::default() });
    assert!(message.contains("more than 20 threads"), "{message}");
}

#[test]
fn methods_beyond_the_limit_are_refused() {
    let trace = Trace {
        threads: vec![ThreadDef { tid: 1, name: "main".into() }],
        methods: (0..64).map(|i| MethodDef::new(i << 2, "A", &format!("m{i}"), "()V")).collect(),
        records: vec![Record { tid: 1, method: 0, action: ENTER, wall: 0, cpu: 0 }],
        ..Trace::default()
    };
    let bytes = trace.write(&Layout::ART_REGULAR);
    analyze_with(&bytes, Options { max_methods: 64, ..Default::default() }).unwrap();
    let message = limit_error(&bytes, Options { max_methods: 63, ..Default::default() });
    assert!(message.contains("more than 63 distinct methods (the method limit)"), "{message}");

    // Ids used without a definition count as well.
    let records = (0..64).map(|i| Record { tid: 1, method: (i << 2) + 4096, action: ENTER, wall: i, cpu: i }).collect();
    let bytes = Trace { records, ..trace }.write(&Layout::ART_REGULAR);
    let message = limit_error(&bytes, Options { max_methods: 100, ..Default::default() });
    assert!(message.contains("more than 100 distinct methods"), "{message}");
}

#[test]
fn long_names_are_cut_and_counted() {
    let long_class = "c".repeat(10_000);
    let long_thread = "é".repeat(5_000); // 2 bytes each: the cut must fall on a boundary
    let trace = Trace {
        threads: vec![ThreadDef { tid: 1, name: long_thread }],
        methods: vec![MethodDef::new(0, &long_class, "run", "()V")],
        records: vec![
            Record { tid: 1, method: 0, action: ENTER, wall: 0, cpu: 0 },
            Record { tid: 1, method: 0, action: EXIT, wall: 9, cpu: 9 },
        ],
        ..Trace::default()
    };
    let p = analyze(&trace.write(&Layout::ART_REGULAR)).unwrap();
    let method = &p.profile.frames[0];
    assert!(method.class.len() <= 4096 && method.class.ends_with('…'), "{}", method.class.len());
    assert!(p.profile.stacks().threads[0].name.len() <= 4096 && p.profile.stacks().threads[0].name.ends_with("é…"));
    // The class (in the method) and the source file named after it, and the thread.
    assert_eq!(p.profile.facts.repairs.long_names, 3);
    let summary = products::summary_json(&p);
    assert!(summary.contains("\"long_names\": 3"), "shown in the summary");

    let mut capture = Capture::new();
    capture.mark("app", 7, 7, 1_000_000, &format!("B|7|{}", "s".repeat(20_000)));
    capture.mark("app", 7, 7, 1_000_100, "E|7");
    let p = analyze(&capture.text()).unwrap();
    assert_eq!(p.profile.facts.repairs.long_names, 1);
    assert!(folded(&p.profile).len() < 4200);
}

#[test]
fn folded_lines_stream_in_byte_order_even_when_names_prefix_each_other() {
    // Siblings `run`, `run 3`, `run$1` and `run2`: the `run;…` lines sort after all of
    // theirs, but `run` itself sorts before them.
    let names = ["run", "run$1", "run2", "run 3"];
    let methods = names.iter().enumerate().map(|(i, n)| MethodDef::new((i as u64 + 1) << 2, "p.C", n, "()V"));
    let mut records = Vec::new();
    let mut t = 0;
    let mut call = |records: &mut Vec<Record>, method: u64, action: u8| {
        t += 3;
        records.push(Record { tid: 1, method, action, wall: t, cpu: t });
    };
    call(&mut records, 0, ENTER);
    for i in 1..=4u64 {
        call(&mut records, i << 2, ENTER);
        call(&mut records, 0, ENTER); // each calls A.a
        call(&mut records, 0, EXIT);
        call(&mut records, i << 2, EXIT);
    }
    call(&mut records, 0, EXIT);
    let trace = Trace {
        threads: vec![ThreadDef { tid: 1, name: "main".into() }],
        methods: std::iter::once(MethodDef::new(0, "A", "a", "()V")).chain(methods).collect(),
        records,
        ..Trace::default()
    };
    let p = analyze(&trace.write(&Layout::ART_REGULAR)).unwrap();
    let text = folded(&p.profile);
    // Sorted by stack (the text before the value), as a whole-output sort would give.
    let mut sorted: Vec<&str> = text.lines().collect();
    sorted.sort_unstable_by_key(|line| line.rsplit_once(' ').unwrap().0);
    assert_eq!(text.lines().collect::<Vec<_>>(), sorted);
    assert_eq!(
        text,
        // `run 3` ends in a number, which folded text would read as a count: it is written
        // with a no-break space, which sorts after `;`.
        "main [1];A.a 15\n\
         main [1];A.a;p.C.run 6\n\
         main [1];A.a;p.C.run$1 6\n\
         main [1];A.a;p.C.run$1;A.a 3\n\
         main [1];A.a;p.C.run2 6\n\
         main [1];A.a;p.C.run2;A.a 3\n\
         main [1];A.a;p.C.run;A.a 3\n\
         main [1];A.a;p.C.run\u{a0}3 6\n\
         main [1];A.a;p.C.run\u{a0}3;A.a 3\n"
    );
}

#[test]
fn the_folded_stream_and_string_agree() {
    let p = analyze(&adversarial(Adversary::DeepChain { depth: 10, methods: 10 })).unwrap();
    let mut out = Vec::new();
    products::write_folded(&p.profile, &FoldedOptions::default(), &mut out).unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), folded(&p.profile), "the stream and the string agree");
}
