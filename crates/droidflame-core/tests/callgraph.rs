//! The call graph as DOT: every call path worth its threshold, with the call tree's own
//! numbers, names escaped, and clear refusals.

use droidflame_core::products::{write_callgraph_dot, CallGraphOptions};
use droidflame_core::{analyze, Clock, Profile};
use droidflame_testkit::atrace::Capture;
use droidflame_testkit::scenario::{generate, Config};
use droidflame_testkit::Layout;

fn dot(profile: &Profile, options: &CallGraphOptions) -> String {
    let mut out = Vec::new();
    write_callgraph_dot(profile, options, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

/// `  n12 [label=...]`.
fn is_node(line: &str) -> bool {
    let id = line.trim_start().strip_prefix('n').unwrap_or("");
    id.starts_with(|c: char| c.is_ascii_digit()) && !line.contains(" -> ")
}

/// The labels of the nodes, in order.
fn labels(dot: &str) -> Vec<String> {
    dot.lines()
        .filter(|l| is_node(l))
        .map(|l| l.split_once("[label=\"").unwrap().1.trim_end_matches("\"];").to_owned())
        .collect()
}

#[test]
fn a_zero_threshold_keeps_every_path_with_time_and_a_full_one_keeps_the_sole_heirs() {
    let scenario = generate(5, &Config { threads: 2, events_per_thread: 200, ..Config::default() });
    let profile = analyze(&scenario.trace.write(&Layout::ART_REGULAR)).unwrap();
    for clock in Clock::ALL {
        let everything = CallGraphOptions { threshold_percent: 0.0, clock: Some(clock), ..Default::default() };
        let text = dot(&profile.profile, &everything);
        assert!(text.starts_with("digraph callgraph {\n") && text.ends_with("}\n"));
        let with_time: usize = profile
            .profile
            .stacks()
            .threads
            .iter()
            .filter(|t| t.tree.nodes().iter().skip(1).any(|n| n.incl[clock] > 0))
            .map(|t| 1 + t.tree.nodes().iter().skip(1).filter(|n| n.incl[clock] > 0).count())
            .sum();
        assert_eq!(labels(&text).len(), with_time, "{clock} clock");
        // Every node but a thread has one edge in.
        assert_eq!(text.matches(" -> ").count(), with_time - profile.profile.stacks().threads.len());

        // At 100%, a call is kept only when it is all of its caller's time.
        let strict = CallGraphOptions { threshold_percent: 100.0, ..everything.clone() };
        let kept = labels(&dot(&profile.profile, &strict));
        assert!(kept.len() < with_time);
        assert!(dot(&profile.profile, &strict)
            .lines()
            .filter(|l| l.contains(" -> "))
            .all(|l| l.contains("label=\"100%\"")));
    }
}

#[test]
fn node_labels_carry_the_call_trees_numbers() {
    if !droidflame_testkit::corpus_present("callgraph::node_labels_carry_the_call_trees_numbers") {
        return;
    }
    let profile = analyze(&droidflame_testkit::corpus_file("perflib-basic.trace")).unwrap();
    let thread = &profile.profile.stacks().threads.iter().find(|t| !t.tree.is_empty()).unwrap();
    let text = dot(
        &profile.profile,
        &CallGraphOptions { thread: Some(thread.tid), threshold_percent: 0.0, ..Default::default() },
    );
    let labels = labels(&text);
    let tree = &thread.tree;
    // The thread's first node is its busiest call (the first of equals).
    let top: Vec<u32> = tree.children(0).collect();
    let busiest = top.iter().map(|&c| tree.node(c).incl.wall).max().unwrap();
    let node = tree.node(*top.iter().find(|&&c| tree.node(c).incl.wall == busiest).unwrap());
    let total: u64 = top.iter().map(|&c| tree.node(c).incl.wall).sum();
    let share = node.incl.wall as f64 * 100.0 / total as f64;
    let want = format!(
        "{}\\nincl {} µs ({share:.1}%)\\nexcl {} µs\\n{} call{}",
        profile.profile.frame_name(node.frame),
        profile.profile.micros(node.incl.wall),
        profile.profile.micros(node.self_time.wall),
        node.calls,
        if node.calls == 1 { "" } else { "s" }
    );
    assert_eq!(labels[0], format!("{}\\n{} µs", thread.label(), profile.profile.micros(total)));
    assert_eq!(labels[1], want);
}

#[test]
fn names_are_escaped_for_dot_and_bad_requests_refused() {
    let mut capture = Capture::new();
    capture
        .mark("app", 10, 10, 1_000_000, "B|10|say \"hi\" to C:\\dir")
        .mark("app", 10, 10, 2_000_000, "B|10|inner")
        .mark("app", 10, 10, 3_000_000, "E|10")
        .mark("app", 10, 10, 4_000_000, "E|10");
    let profile = analyze(&capture.text()).unwrap();
    let text = dot(&profile.profile, &CallGraphOptions::default());
    assert!(text.contains("[label=\"say \\\"hi\\\" to C:\\\\dir\\nincl 3,000 µs (100.0%)"), "{text}");
    // Every quote in a label is escaped: the label ends at the line's last quote.
    for line in text.lines().filter(|l| is_node(l)) {
        let inner = line.split_once("[label=\"").unwrap().1.rsplit_once('"').unwrap().0;
        let bare = inner.replace("\\\\", "").replace("\\\"", "");
        assert!(!bare.contains('"'), "{line}");
    }
    let error = |options: CallGraphOptions| {
        let mut out = Vec::new();
        write_callgraph_dot(&profile.profile, &options, &mut out).unwrap_err().to_string()
    };
    assert!(error(CallGraphOptions { threshold_percent: 120.0, ..Default::default() })
        .contains("the threshold is a percentage from 0 to 100 (got 120)"));
    assert!(error(CallGraphOptions { thread: Some(77), ..Default::default() }).contains("no thread with id 77"));
}
