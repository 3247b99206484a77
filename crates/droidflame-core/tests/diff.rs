//! Two traces compared: the differential stacks of generated pairs against the stacks each
//! scenario's oracle derived, threads matched by name across different tids and layouts.

use droidflame_core::products::{compare, DiffOptions, DiffStack};
use droidflame_core::{analyze, Clock, Profile};
use droidflame_testkit::scenario::{generate, Config, Scenario};
use droidflame_testkit::{Clocks, Layout};
use std::collections::BTreeMap;

/// Added to the thread ids of the second run.
const NEW_TIDS: u32 = 100;

/// The stacks a comparison should give for one side: each thread's expected stacks (µs
/// ticks) led by its name, threads of one name added up. The oracle knows threads by the
/// ids they were generated with, `shift` less than the trace's.
fn expected_side(scenario: &Scenario, clock: Clock, shift: u32) -> BTreeMap<String, u64> {
    let names: BTreeMap<u32, &str> = scenario.trace.threads.iter().map(|t| (t.tid - shift, t.name.as_str())).collect();
    let mut out = BTreeMap::new();
    for (tid, stacks) in &scenario.expected(false).stacks {
        for (stack, ticks) in stacks {
            let value = ticks[usize::from(clock == Clock::Cpu)];
            *out.entry(format!("{};{stack}", names[tid])).or_insert(0) += value;
        }
    }
    out.retain(|_, v| *v > 0);
    out
}

fn expected(before: &Scenario, after: &Scenario, clock: Clock) -> Vec<DiffStack> {
    let mut merged: BTreeMap<String, (u64, u64)> = BTreeMap::new();
    for (stack, v) in expected_side(before, clock, 0) {
        merged.entry(stack).or_default().0 = v;
    }
    for (stack, v) in expected_side(after, clock, NEW_TIDS) {
        merged.entry(stack).or_default().1 = v;
    }
    merged.into_iter().map(|(stack, (before, after))| DiffStack { stack, before, after }).collect()
}

/// The "after" run: new thread ids; its second thread named like its first (they merge),
/// and the before run's third thread missing (renamed).
fn second_run(seed: u64, config: &Config) -> Scenario {
    let mut scenario = generate(seed, config);
    let trace = &mut scenario.trace;
    for record in &mut trace.records {
        record.tid += NEW_TIDS;
    }
    let first = trace.threads[0].name.clone();
    for (i, thread) in trace.threads.iter_mut().enumerate() {
        thread.tid += NEW_TIDS;
        match i {
            1 => thread.name = first.clone(),
            2 => thread.name = "only-after".into(),
            _ => {}
        }
    }
    scenario
}

fn profile(scenario: &Scenario, layout: &Layout) -> Profile {
    analyze(&scenario.trace.write(layout)).unwrap()
}

#[test]
fn differential_stacks_are_both_sides_stacks_matched_by_thread_name() {
    for seed in 0..12 {
        let config = Config { threads: 4, events_per_thread: 300, ..Config::default() };
        let longer = Config { events_per_thread: 600, ..config.clone() };
        let before = generate(seed, &config);
        let after = second_run(seed + 1000, &longer);
        let (b, a) = (profile(&before, &Layout::ART_REGULAR), profile(&after, &Layout::ART_STREAMING));
        for clock in Clock::ALL {
            let options = DiffOptions { clock: Some(clock), ..DiffOptions::default() };
            let got = compare(&b, &a, &options).unwrap();
            assert_eq!(got.clock, clock);
            assert_eq!(got.stacks, expected(&before, &after, clock), "seed {seed}, {clock} clock");
            assert!(got.stacks.iter().any(|s| s.stack.starts_with("only-after;") && s.before == 0));
            assert!(got.stacks.iter().any(|s| s.stack.starts_with("worker-2;") && s.after == 0));
            assert!(got.warnings.is_empty(), "{:?}", got.warnings);
            let (before_total, after_total) = got.totals();
            assert!(before_total > 0 && after_total > 0);
        }
    }
}

#[test]
fn the_same_trace_twice_is_said_and_sides_without_a_shared_clock_refused() {
    let scenario = generate(7, &Config::default());
    let dual = profile(&scenario, &Layout::ART_REGULAR);
    let same = compare(&dual, &dual, &DiffOptions::default()).unwrap();
    assert!(same.stacks.iter().all(|s| s.before == s.after));
    assert_eq!(
        same.warnings,
        ["the two traces have the same stacks and times: nothing changed (the same trace twice?)"]
    );

    let wall_only = profile(&generate(7, &Config { clocks: Clocks::Wall, ..Config::default() }), &Layout::ART_REGULAR);
    let cpu_only = profile(&generate(8, &Config { clocks: Clocks::Cpu, ..Config::default() }), &Layout::ART_REGULAR);
    // Without a clock asked for: wall where both have it, else CPU, said.
    assert_eq!(compare(&dual, &wall_only, &DiffOptions::default()).unwrap().clock, Clock::Wall);
    let cpu = compare(&cpu_only, &dual, &DiffOptions::default()).unwrap();
    assert_eq!(cpu.clock, Clock::Cpu);
    assert_eq!(cpu.warnings, ["the before trace has no wall clock: compared on the CPU clock"]);
    let asked = DiffOptions { clock: Some(Clock::Cpu), ..DiffOptions::default() };
    let error = compare(&dual, &wall_only, &asked).unwrap_err().to_string();
    assert!(error.contains("the after trace has no cpu clock; compare on the wall clock instead"), "{error}");
    // A method trace against a system trace: compared, with a warning.
    let system = analyze(&droidflame_testkit::corpus_file("tracecompass-atrace-test.txt")).unwrap();
    let mixed = compare(&dual, &system, &DiffOptions::default()).unwrap();
    assert_eq!(
        mixed.warnings,
        ["before is a method trace and after a system trace: their frames name different things, so few stacks match"]
    );
    assert!(mixed.totals().0 > 0 && mixed.totals().1 > 0);
    let error = compare(&wall_only, &cpu_only, &DiffOptions::default()).unwrap_err().to_string();
    assert!(error.contains("share no clock: before has only the wall clock, after has only the CPU clock"), "{error}");
}
