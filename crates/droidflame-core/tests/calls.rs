//! The calls products: the tab-separated listing (every call, a window, the longest) and
//! the Chrome trace-event export, checked against the calls the testkit's scenarios know,
//! and their refusals of impossible requests.

use droidflame_core::products::{self, CallQuery, View};
use droidflame_core::Analysis;
use droidflame_core::{analyze_with, Analyzer, ErrorKind, Options, Profile};
use droidflame_testkit::atrace::Capture;
use droidflame_testkit::scenario::{generate, Config, ExpectedCall, Scenario};
use droidflame_testkit::{Clocks, Layout};

fn with_calls() -> Options {
    Options { keep_calls: true, ..Options::default() }
}

fn scenario(seed: u64, clocks: Clocks) -> Scenario {
    generate(seed, &Config { threads: 4, clocks, events_per_thread: 300, wrap: seed % 2 == 0, ..Config::default() })
}

fn profile_of(scenario: &Scenario) -> Analysis {
    analyze_with(
        &scenario.trace.write(&Layout::Regular { version: 3, data_offset: 32, record_size: None }),
        with_calls(),
    )
    .unwrap()
}

/// One listed line, parsed: (tid, call).
fn parse(line: &str) -> (u32, ExpectedCall, Option<u64>) {
    let f: Vec<&str> = line.splitn(7, '\t').collect();
    assert_eq!(f.len(), 7, "{line}");
    let n = |s: &str| s.parse::<u64>().unwrap();
    let (start, end) = (n(f[2]), n(f[3]));
    assert_eq!(n(f[4]), end - start, "wall_us = end_us - start_us in {line}");
    let call = ExpectedCall {
        start,
        depth: f[1].parse().unwrap(),
        end,
        frame: f[6].to_string(),
        cpu: if f[5].is_empty() { 0 } else { n(f[5]) },
    };
    (n(f[0]) as u32, call, (!f[5].is_empty()).then(|| n(f[5])))
}

fn listing(profile: &Profile, query: &CallQuery) -> Vec<(u32, ExpectedCall)> {
    let mut out = Vec::new();
    products::write_calls(profile, query, &mut out).unwrap();
    String::from_utf8(out).unwrap().lines().map(parse).map(|(tid, call, _)| (tid, call)).collect()
}

/// The scenario's calls of every thread, in µs (the regular layout's ticks).
fn expected(scenario: &Scenario) -> Vec<(u32, ExpectedCall)> {
    sorted(
        scenario
            .expected(false)
            .calls
            .iter()
            .flat_map(|(tid, calls)| calls.iter().map(move |c| (*tid, c.clone())))
            .collect(),
    )
}

fn sorted(mut calls: Vec<(u32, ExpectedCall)>) -> Vec<(u32, ExpectedCall)> {
    calls.sort_by_key(|(tid, c)| (c.start, c.depth, *tid, c.end));
    calls
}

#[test]
fn every_call_is_listed_in_start_order_with_its_times() {
    for seed in 0..12 {
        let scenario = scenario(seed, Clocks::Dual);
        let profile = profile_of(&scenario);
        let got = listing(&profile.profile, &CallQuery::default());
        // Start order: callers before the calls they make.
        for pair in got.windows(2) {
            assert!(pair[0].1.start <= pair[1].1.start, "seed {seed}: not in start order");
        }
        assert_eq!(sorted(got), expected(&scenario), "seed {seed}");
    }
}

#[test]
fn a_window_keeps_exactly_the_calls_that_overlap_it() {
    let scenario = scenario(7, Clocks::Dual);
    let profile = profile_of(&scenario);
    let length = profile.profile.system.timeline.length();
    for (from, to) in [(0, 0), (length / 3, length / 2), (length / 2, length / 2), (length - 1, length + 50)] {
        let query = CallQuery { from_us: Some(from), to_us: Some(to), ..Default::default() };
        let want: Vec<_> = expected(&scenario).into_iter().filter(|(_, c)| c.start <= to && c.end >= from).collect();
        assert!(!want.is_empty());
        assert_eq!(sorted(listing(&profile.profile, &query)), want, "{from}..={to}");
    }
}

#[test]
fn the_longest_calls_come_longest_first() {
    let scenario = scenario(3, Clocks::Dual);
    let profile = profile_of(&scenario);
    let tid = profile.profile.stacks().threads[1].tid;
    let query = CallQuery { thread: Some(tid), longest: Some(10), ..Default::default() };
    let got = listing(&profile.profile, &query);
    let mut want: Vec<(u32, ExpectedCall)> = expected(&scenario).into_iter().filter(|(t, _)| *t == tid).collect();
    want.sort_by(|(_, a), (_, b)| (b.end - b.start).cmp(&(a.end - a.start)).then(a.start.cmp(&b.start)));
    let lengths = |calls: &[(u32, ExpectedCall)]| calls.iter().map(|(_, c)| c.end - c.start).collect::<Vec<_>>();
    assert_eq!(got.len(), 10);
    assert_eq!(lengths(&got), lengths(&want[..10]));
    for (_, call) in &got {
        assert!(want.iter().any(|(_, c)| c == call), "{call:?} is one of the thread's calls");
    }

    // Of one method: only its calls, still longest first.
    let frame = want[0].1.frame.clone();
    let query = CallQuery { frame: Some(frame.clone()), longest: Some(3), ..Default::default() };
    let got = listing(&profile.profile, &query);
    assert!(!got.is_empty() && got.iter().all(|(_, c)| c.frame == frame));
    assert!(got.windows(2).all(|w| w[0].1.end - w[0].1.start >= w[1].1.end - w[1].1.start));
}

#[test]
fn a_clock_the_trace_lacks_leaves_its_column_empty() {
    let wall_only = scenario(5, Clocks::Wall);
    let profile = profile_of(&wall_only);
    let mut out = Vec::new();
    products::write_calls(&profile.profile, &CallQuery::default(), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.lines().all(|l| parse(l).2.is_none()), "no CPU column values");
    assert_eq!(sorted(text.lines().map(parse).map(|(t, c, _)| (t, c)).collect()), expected(&wall_only));

    // Only a CPU clock: no wall times at all; start and end are on each thread's CPU clock.
    let cpu_only = scenario(5, Clocks::Cpu);
    let profile = profile_of(&cpu_only);
    let mut out = Vec::new();
    products::write_calls(&profile.profile, &CallQuery::default(), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    for line in text.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        assert!(f[4].is_empty(), "no wall time in {line}");
        let n = |s: &str| s.parse::<u64>().unwrap();
        assert_eq!(n(f[5]), n(f[3]) - n(f[2]), "{line}");
    }
}

#[test]
fn impossible_requests_say_what_is_wrong() {
    let scenario = scenario(1, Clocks::Dual);
    let profile = profile_of(&scenario);
    let length = profile.profile.micros(profile.profile.system.timeline.length());
    let error = |query: CallQuery| products::select_calls(&profile.profile, &query).unwrap_err();
    let e = error(CallQuery { from_us: Some(500), to_us: Some(100), ..Default::default() });
    assert_eq!(e.kind(), ErrorKind::Request);
    assert!(e.to_string().contains("the range starts (500 µs) after it ends (100 µs)"), "{e}");
    let e = error(CallQuery { from_us: Some(length + 1), ..Default::default() });
    assert!(e.to_string().contains("after the trace's timeline ends"), "{e}");
    let e = error(CallQuery { thread: Some(999_999), ..Default::default() });
    assert!(e.to_string().contains("no thread with id 999999"), "{e}");
    let e = error(CallQuery { longest: Some(0), ..Default::default() });
    assert!(e.to_string().contains("at least 1"), "{e}");
    let e = error(CallQuery { frame: Some("m1".into()), ..Default::default() });
    assert!(
        e.to_string().contains("no frame in this trace is named `m1`; names containing it: com.example.C0.m1"),
        "{e}"
    );

    // A profile read without its calls cannot list them, and says how to get them.
    let bytes = scenario.trace.write(&Layout::Regular { version: 3, data_offset: 32, record_size: None });
    let plain = analyze_with(&bytes, Options::default()).unwrap();
    let e = products::select_calls(&plain.profile, &CallQuery::default()).unwrap_err();
    assert!(e.to_string().contains("keep_calls"), "{e}");
    assert!(products::write_chrome_trace(&plain.profile, &View::default(), &mut Vec::new()).is_err());
}

#[test]
fn chrome_trace_events_hold_every_call_with_thread_names() {
    let scenario = scenario(9, Clocks::Dual);
    let profile = profile_of(&scenario);
    let mut out = Vec::new();
    products::write_chrome_trace(&profile.profile, &View::default(), &mut out).unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let events = json["traceEvents"].as_array().unwrap();
    for thread in &profile.profile.stacks().threads {
        let named = events.iter().any(|e| {
            e["ph"] == "M" && e["name"] == "thread_name" && e["tid"] == thread.tid && e["args"]["name"] == *thread.name
        });
        assert!(named, "thread {} is named", thread.tid);
    }
    let mut got: Vec<(u32, ExpectedCall)> = events
        .iter()
        .filter(|e| e["ph"] == "X")
        .map(|e| {
            let us = |v: &serde_json::Value| v.as_u64().unwrap();
            let start = us(&e["ts"]);
            let call = ExpectedCall {
                start,
                depth: 0,
                end: start + us(&e["dur"]),
                frame: e["name"].as_str().unwrap().to_string(),
                cpu: us(&e["tdur"]),
            };
            (e["tid"].as_u64().unwrap() as u32, call)
        })
        .collect();
    // Depth is not part of the format: viewers nest by time.
    let mut want = expected(&scenario);
    for (_, c) in &mut want {
        c.depth = 0;
    }
    got = sorted(got);
    assert_eq!(got, sorted(want));
}

#[test]
fn chrome_times_keep_nanoseconds_and_slices_open_at_the_end_close_at_the_last_event() {
    // A system trace: nanosecond ticks. `outer` is still open when the capture ends at
    // its last event (another thread's, 2.5 ms later).
    let mut capture = Capture::new();
    capture.columns.fraction_digits = 9;
    capture
        .mark("app", 10, 10, 1_000_000_123, "B|10|outer")
        .mark("app", 10, 10, 1_000_500_456, "B|10|inner")
        .mark("app", 10, 10, 1_001_000_789, "E|10")
        .mark("other", 11, 10, 1_003_000_000, "B|10|late")
        .mark("other", 11, 10, 1_003_500_000, "E|10");
    let profile = analyze_with(&capture.text(), with_calls()).unwrap();
    let mut out = Vec::new();
    products::write_chrome_trace(&profile.profile, &View::default(), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains(r#""name":"outer","pid":10,"tid":10,"ts":0.000,"dur":3499.877"#), "{text}");
    assert!(text.contains(r#""name":"inner","pid":10,"tid":10,"ts":500.333,"dur":500.333"#), "{text}");
    let listed = listing(&profile.profile, &CallQuery { thread: Some(10), ..Default::default() });
    let spans: Vec<(u64, u64, u32, &str)> =
        listed.iter().map(|(_, c)| (c.start, c.end, c.depth, c.frame.as_str())).collect();
    assert_eq!(spans, [(0, 3499, 0, "outer"), (500, 1000, 1, "inner")]);
}

#[test]
fn a_range_counts_the_part_of_each_call_inside_it() {
    use droidflame_core::products::frame_table;
    for seed in 20..26 {
        let scenario = scenario(seed, Clocks::Dual);
        let profile = profile_of(&scenario);
        let (start, end) = (profile.profile.system.timeline.start, profile.profile.system.timeline.end);
        // The whole timeline is the whole profile.
        let whole = profile.within(start, end).unwrap();
        for (a, b) in profile.profile.stacks().threads.iter().zip(&whole.profile.stacks().threads) {
            let incl = |t: &droidflame_core::profile::ThreadProfile| {
                t.tree.nodes().iter().map(|n| (n.calls, n.incl, n.self_time)).collect::<Vec<_>>()
            };
            assert_eq!(incl(a), incl(b), "seed {seed}, thread {}", a.tid);
        }
        assert_eq!(frame_table(&whole.profile).rows.len(), frame_table(&profile.profile).rows.len());
        // Two halves add up to the whole on the wall clock, node by node.
        let middle = start + (end - start) / 3;
        let (left, right) = (profile.within(start, middle).unwrap(), profile.within(middle, end).unwrap());
        for ((t, l), r) in profile
            .profile
            .stacks()
            .threads
            .iter()
            .zip(&left.profile.stacks().threads)
            .zip(&right.profile.stacks().threads)
        {
            for ((n, a), b) in t.tree.nodes().iter().zip(l.tree.nodes()).zip(r.tree.nodes()) {
                assert_eq!(a.incl.wall + b.incl.wall, n.incl.wall, "seed {seed}");
                assert!(a.incl.cpu + b.incl.cpu <= n.incl.cpu, "seed {seed}");
                // A frame that spent no CPU time of its own (all of it in its calls) spends
                // none in a range either: only its own time is shared out by wall time.
                if n.self_time.cpu == 0 {
                    assert_eq!((a.self_time.cpu, b.self_time.cpu), (0, 0), "seed {seed}");
                }
                // Each call's own CPU time is shared out whole ticks at a time: a node loses
                // less than a tick per call of it and of the frames below it.
                let below =
                    |t: &droidflame_core::profile::ThreadProfile| t.tree.nodes().iter().map(|n| n.calls).sum::<u64>();
                assert!(a.incl.cpu + b.incl.cpu + below(t) >= n.incl.cpu, "seed {seed}");
            }
        }
        let total = |p: &Profile| {
            p.stacks().threads.iter().map(|t| t.tree.total_self(droidflame_core::Clock::Wall)).sum::<u64>()
        };
        assert!(total(&left.profile) < total(&profile.profile) && total(&left.profile) > 0, "seed {seed}");
        assert_eq!(left.profile.system.timeline.end, middle);
    }
    let plain = analyze_with(&scenario(1, Clocks::Dual).trace.write(&Layout::ART_REGULAR), Options::default()).unwrap();
    assert!(plain.within(0, 10).unwrap_err().to_string().contains("keep_calls"));
}

#[test]
fn timeline_boxes_stay_within_the_pixels_and_cover_every_call() {
    let scenario = scenario(31, Clocks::Dual);
    let profile = profile_of(&scenario);
    let length = profile.profile.system.micros_at(profile.profile.system.timeline.end);
    for thread in &profile.profile.stacks().threads {
        for pixels in [50u32, 400, 100_000] {
            let boxes = products::timeline_boxes(&profile.profile.system, &thread.calls, 0.0, length, pixels, 64);
            for depth in 0..thread.calls.depth_count() {
                let at: Vec<_> = boxes.iter().filter(|b| b.depth as usize == depth).collect();
                assert!(at.len() <= 2 * pixels as usize + 2, "{} boxes in {pixels} px", at.len());
                // Every call lies inside some box of its depth: its own, or a merged one.
                for call in thread.calls.at_depth(depth) {
                    let (s, e) =
                        (profile.profile.system.micros_at(call.start), profile.profile.system.micros_at(call.end));
                    assert!(at.iter().any(|b| b.start_us <= s && e <= b.end_us), "call {s}..{e} at depth {depth}");
                }
            }
            // At a tick per pixel, every call that lasts a tick is its own box.
            if pixels == 100_000 {
                let own = boxes.iter().filter(|b| b.frame.is_some()).count();
                assert_eq!(own, thread.calls.iter().filter(|(_, c)| c.duration() > 0).count());
            }
        }
        // The call under a point is the one that runs there.
        let (depth, call) = thread.calls.iter().nth(thread.calls.len() / 2).unwrap();
        let middle = profile.profile.system.micros_at(call.start + call.duration() / 2);
        assert_eq!(products::call_at(&profile.profile.system, &thread.calls, depth as usize, middle), Some(call));
    }
}

#[test]
fn past_the_call_limit_the_longest_calls_stay_and_the_rest_is_unchanged() {
    for seed in [4, 5, 6] {
        let bytes = scenario(seed, Clocks::Dual).trace.write(&Layout::ART_REGULAR);
        let every = listing(&analyze_with(&bytes, with_calls()).unwrap().profile, &CallQuery::default());
        let every_profile = analyze_with(&bytes, with_calls()).unwrap().profile;
        let lengths: Vec<u64> =
            every_profile.stacks().threads.iter().flat_map(|t| t.calls.iter().map(|(_, c)| c.duration())).collect();
        for max_calls in [0, 10, 100, 400] {
            let read_in = |chunk: usize| {
                let mut analyzer = Analyzer::new(Options { keep_calls: true, max_calls, ..Options::default() });
                bytes.chunks(chunk).for_each(|chunk| analyzer.push(chunk).unwrap());
                analyzer.finish().unwrap()
            };
            // Small chunks: the limit is checked after each, so it is passed more than once.
            let profile = read_in(97);
            // Whatever the chunks, the same calls: those at least as long as the shortest
            // length that at most half the limit reach, counting every call.
            for chunk in [1 << 12, bytes.len()] {
                let other = read_in(chunk);
                assert_eq!(
                    listing(&other.profile, &CallQuery::default()),
                    listing(&profile.profile, &CallQuery::default())
                );
                assert_eq!(other.profile.stacks().shortest_call, profile.profile.stacks().shortest_call);
            }
            let ticks = profile.profile.stacks().shortest_call;
            let reach = |from: u64| lengths.iter().filter(|&&d| d >= from).count() as u64;
            assert!(reach(ticks) <= max_calls / 2, "seed {seed}, limit {max_calls}: {} reach {ticks}", reach(ticks));
            // Its buckets are four to an octave: the one below starts above three quarters of it.
            assert!(reach(ticks * 3 / 4) > max_calls / 2, "seed {seed}, limit {max_calls}: threshold {ticks} too high");
            let shortest = profile.profile.micros(profile.profile.stacks().shortest_call);
            assert!(shortest > 0, "seed {seed}: {} calls, limit {max_calls}", every.len());
            let kept = listing(&profile.profile, &CallQuery::default());
            let long: Vec<_> = every.iter().filter(|(_, c)| c.end - c.start >= shortest).cloned().collect();
            let also: Vec<_> = kept.iter().filter(|call| !long.contains(call)).collect();
            let missing: Vec<_> = long.iter().filter(|call| !kept.contains(call)).collect();
            assert!(missing.is_empty(), "seed {seed}, limit {max_calls}: {missing:?} {kept:?} shortest {shortest}");
            // Beside them, only calls from before tracing, kept whatever their length.
            assert!(also.iter().all(|(_, c)| c.start == 0 && every.iter().any(|(_, e)| e == c)), "{also:?}");
            assert!(
                long.len() as u64 <= max_calls / 2,
                "seed {seed}, limit {max_calls}: {} long calls kept",
                long.len()
            );
            let note = profile.profile.calls_left_out().unwrap();
            assert!(profile.profile.facts.warnings.iter().any(|w| w.text == note));
            assert!(
                note.starts_with(&format!(
                    "this trace has more than {max_calls} calls, more than the timeline keeps: calls shorter than "
                )),
                "{note}"
            );
            // Ranges and the export need every call; flame graphs do not.
            assert_eq!(profile.within(0, 10).unwrap_err().message(), note);
            assert!(products::write_chrome_trace(&profile.profile, &View::default(), &mut Vec::new()).is_err());
            let plain = analyze_with(&bytes, Options::default()).unwrap();
            let folded = |p: &Profile| products::folded(p, &Default::default()).unwrap();
            assert_eq!(folded(&profile.profile), folded(&plain.profile));
        }
    }
}

#[test]
fn a_calls_path_is_the_calls_around_it_not_a_neighbour_that_ends_as_it_begins() {
    use droidflame_core::profile::{Call, ThreadCalls};
    let profile =
        analyze_with(&generate(1, &Config::default()).trace.write(&Layout::ART_REGULAR), Options::default()).unwrap();
    // Ticks from the profile's timeline start.
    let base = profile.profile.system.timeline.start;
    let call = |start, end, frame| Call { start: base + start, end: base + end, cpu: 0, frame, node: u32::MAX };
    // A runs 0–100; under it B (0–50) then C (50–100), back to back as samples are; D in C.
    let calls = ThreadCalls::from_calls([
        (0, call(0, 100, 0)),
        (1, call(0, 50, 1)),
        (1, call(50, 100, 2)),
        (2, call(50, 80, 3)),
    ]);
    let d = &calls.at_depth(2)[0];
    let path: Vec<u32> = products::callers_of(&calls, 2, d).iter().map(|c| c.frame).collect();
    assert_eq!(path, [0, 2], "C holds D, not B, which ends where D begins");
    // The moment where B ends and C begins is C's; at the very end, the call ending there.
    let at = |ticks: u64| profile.profile.system.micros_at(base + ticks);
    assert_eq!(products::call_at(&profile.profile.system, &calls, 1, at(50)).map(|c| c.frame), Some(2));
    assert_eq!(products::call_at(&profile.profile.system, &calls, 1, at(100)).map(|c| c.frame), Some(2));
    assert_eq!(products::call_at(&profile.profile.system, &calls, 1, at(101)).map(|c| c.frame), None);
}

#[test]
fn a_ranges_table_has_an_edge_for_each_call_in_it_and_none_for_the_others() {
    use droidflame_testkit::{MethodDef, Record, ThreadDef, Trace, ENTER, EXIT};
    // A [0, 100] calls B [10, 20], C [30, 30] (no time at all) and D [40, 60]; µs.
    let rec = |method, action, t| Record { tid: 1, method, action, wall: t, cpu: t };
    let trace = Trace {
        threads: vec![ThreadDef { tid: 1, name: "main".into() }],
        methods: ["a", "b", "c", "d"]
            .iter()
            .enumerate()
            .map(|(i, m)| MethodDef::new(4 * i as u64, "X", m, "()V"))
            .collect(),
        records: vec![
            rec(0, ENTER, 0),
            rec(4, ENTER, 10),
            rec(4, EXIT, 20),
            rec(8, ENTER, 30),
            rec(8, EXIT, 30),
            rec(12, ENTER, 40),
            rec(12, EXIT, 60),
            rec(0, EXIT, 100),
        ],
        ..Trace::default()
    };
    let p = analyze_with(&trace.write(&Layout::ART_REGULAR), with_calls()).unwrap();
    let edges = |from: u64, to: u64| {
        let cut = p.within(p.profile.system.ticks_at(from as f64), p.profile.system.ticks_at(to as f64)).unwrap();
        let name = |f: u32| {
            if f == droidflame_core::profile::NONE {
                "-".to_owned()
            } else {
                cut.profile.frame_name(f).to_owned()
            }
        };
        let table = products::frame_table(&cut.profile);
        table.edges.iter().map(|e| (name(e.caller), name(e.callee), e.calls, e.incl.wall)).collect::<Vec<_>>()
    };
    let edge = |caller: &str, callee: &str, calls, wall| (caller.to_owned(), callee.to_owned(), calls, wall);
    // Edges by caller (the top level last). From 50 µs: A for its last 50 µs and D for its last 10; B and C ran before.
    assert_eq!(edges(50, 100), [edge("X.a", "X.d", 1, 10), edge("-", "X.a", 1, 50)]);
    // Around C: a call of no time is still a call.
    assert_eq!(edges(25, 35), [edge("X.a", "X.c", 1, 0), edge("-", "X.a", 1, 10)]);
    // B ends where the range starts: it only touches it, and is not in it.
    assert_eq!(edges(20, 35), [edge("X.a", "X.c", 1, 0), edge("-", "X.a", 1, 15)]);
    // One instant is a range, where calls running through it spend no time: each only
    // touches it. A call of no time at that instant is in it.
    assert_eq!(edges(45, 45), []);
    assert_eq!(edges(30, 30), [edge("X.a", "X.c", 1, 0)]);
    let error = p.within(p.profile.system.ticks_at(46.0), p.profile.system.ticks_at(45.0)).unwrap_err();
    assert!(error.to_string().contains("the range starts after it ends"), "{error}");
}

/// One thread of hand-written calls (method id, start, end; µs) on `clocks`, calls kept.
fn hand_written(calls: &[(u64, u64, u64)], clocks: Clocks) -> Analysis {
    use droidflame_testkit::{MethodDef, Record, ThreadDef, Trace, ENTER, EXIT};
    let mut records: Vec<Record> = calls
        .iter()
        .flat_map(|&(method, start, end)| {
            [
                Record { tid: 1, method, action: ENTER, wall: start, cpu: start },
                Record { tid: 1, method, action: EXIT, wall: end, cpu: end },
            ]
        })
        .collect();
    // Exits before enters at one time, so back-to-back calls stay apart; enters at one time
    // in the order given (callers first).
    records.sort_by_key(|r| (r.wall, r.action == ENTER));
    let trace = Trace {
        clocks,
        threads: vec![ThreadDef { tid: 1, name: "main".into() }],
        methods: ["a", "b", "c"].iter().enumerate().map(|(i, m)| MethodDef::new(4 * i as u64, "X", m, "()V")).collect(),
        records,
        ..Trace::default()
    };
    analyze_with(&trace.write(&Layout::ART_REGULAR), with_calls()).unwrap()
}

#[test]
fn back_to_back_calls_keep_their_own_cpu_time_in_a_range() {
    // A [0, 100] calls B [10, 20] and, straight after, B [20, 30], which calls C [20, 25]
    // at once: C is the second B's alone.
    let p = hand_written(&[(0, 0, 100), (4, 10, 20), (4, 20, 30), (8, 20, 25)], Clocks::Dual);
    let incl_cpu = |p: &Profile, name: &str| {
        let t = &p.stacks().threads[0];
        t.tree.nodes().iter().skip(1).filter(|n| p.frame_name(n.frame) == name).map(|n| n.incl.cpu).sum::<u64>()
    };
    let whole = p.within(p.profile.system.timeline.start, p.profile.system.timeline.end).unwrap();
    assert_eq!(
        [incl_cpu(&whole.profile, "X.a"), incl_cpu(&whole.profile, "X.b"), incl_cpu(&whole.profile, "X.c")],
        [100, 20, 5]
    );
    let first = whole.within(whole.profile.system.timeline.start, whole.profile.system.timeline.start);
    assert!(first.unwrap_err().to_string().contains("keep_calls"), "a range keeps no calls to cut again");
    let cut = p.within(p.profile.system.ticks_at(10.0), p.profile.system.ticks_at(20.0)).unwrap();
    // From 10 to 20 µs: A's own 80 µs of CPU shared out by wall time (8 in 10 of its 100)
    // and the first B's 10; the second B and C only touch the range.
    assert_eq!(
        [incl_cpu(&cut.profile, "X.a"), incl_cpu(&cut.profile, "X.b"), incl_cpu(&cut.profile, "X.c")],
        [18, 10, 0]
    );
}

#[test]
fn a_range_of_a_cpu_clock_trace_counts_cpu_time_inside_it() {
    // The same calls on the CPU clock alone: the range is on that clock.
    let p = hand_written(&[(0, 0, 100), (4, 10, 20), (4, 20, 30), (8, 20, 25)], Clocks::Cpu);
    let cut = p.within(p.profile.system.ticks_at(15.0), p.profile.system.ticks_at(22.0)).unwrap();
    let t = &cut.profile.stacks().threads[0];
    let incl: Vec<(&str, u64)> = t
        .tree
        .nodes()
        .iter()
        .skip(1)
        .map(|n| (cut.profile.frame_name(n.frame), n.incl.cpu))
        .filter(|(_, c)| *c > 0)
        .collect();
    let mut incl = incl;
    incl.sort();
    // A 15..22, the first B 15..20 and the second 20..22, C 20..22.
    assert_eq!(incl, [("X.a", 7), ("X.b", 7), ("X.c", 2)]);
}

/// Before a capture's first slice its threads show their scheduler states as calls; at the
/// first slice those are let go with their threads. Past the call limit they still count
/// towards which calls are kept, as they did while they were there: the same calls
/// whether the capture is pushed whole or its states first.
#[test]
fn scheduler_states_let_go_at_the_first_slice_count_however_the_capture_is_pushed() {
    let mut capture = Capture::new();
    let ms = 1_000_000;
    // 24 switches a millisecond apart between two threads: states of about a millisecond.
    for i in 0..24u64 {
        let (prev, next) = if i % 2 == 0 { (("a", 10), ("b", 11)) } else { (("b", 11), ("a", 10)) };
        capture.switch(0, 1_000 * ms + i * ms, prev, "S", next);
    }
    // Then slices of 100 µs and of 5 ms.
    for (i, length) in [100_000, 100_000, 5 * ms, 100_000].into_iter().enumerate() {
        let at = 1_030 * ms + i as u64 * 10 * ms;
        capture.mark("a", 10, 10, at, "B|10|work").mark("a", 10, 10, at + length, "E|10");
    }
    let text = capture.text();
    let slices = text.windows(18).position(|w| w == b"tracing_mark_write").unwrap();
    let slices = text[..slices].iter().rposition(|&b| b == b'\n').unwrap() + 1;
    let options = Options { keep_calls: true, max_calls: 8, ..Options::default() };
    let read = |chunks: &[&[u8]]| {
        let mut analyzer = Analyzer::new(options.clone());
        chunks.iter().for_each(|chunk| analyzer.push(chunk).unwrap());
        let profile = analyzer.finish().unwrap();
        (listing(&profile.profile, &CallQuery::default()), profile.profile.stacks().shortest_call)
    };
    let whole = read(&[&text]);
    assert_eq!(read(&[&text[..slices], &text[slices..]]), whole, "the states pushed first");
    let small: Vec<&[u8]> = text.chunks(97).collect();
    assert_eq!(read(&small), whole, "in chunks of 97 bytes");
    // About 46 states of a millisecond and four slices: at most 4 calls reach the
    // threshold, so it lies above a millisecond and only the 5 ms slice stays.
    assert_eq!(whole.0.iter().map(|(_, c)| c.end - c.start).collect::<Vec<_>>(), [5000], "{whole:?}");
}

/// At the limit every call is kept; one past it, counting the frames still open at the end
/// (which close after the last chunk's check), the shortest are let go.
#[test]
fn calls_up_to_the_limit_are_all_kept_and_one_more_lets_go() {
    let bytes = scenario(4, Clocks::Dual).trace.write(&Layout::ART_REGULAR);
    let every = analyze_with(&bytes, with_calls()).unwrap();
    let all = listing(&every.profile, &CallQuery::default());
    let made: usize = every.profile.stacks().threads.iter().map(|t| t.calls.len()).sum();
    assert!(every.profile.facts.repairs.open_at_end > 0, "frames open at the end");
    let at =
        |max_calls: u64| analyze_with(&bytes, Options { keep_calls: true, max_calls, ..Options::default() }).unwrap();
    let limit = at(made as u64);
    assert_eq!(limit.profile.stacks().shortest_call, 0);
    assert_eq!(listing(&limit.profile, &CallQuery::default()), all);
    let past = at(made as u64 - 1);
    assert!(past.profile.stacks().shortest_call > 0, "one call past the limit");
    assert!(listing(&past.profile, &CallQuery::default()).len() <= made / 2 + 1);
}
