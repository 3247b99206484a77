//! Two traces compared: the differential stacks of generated pairs against the stacks each
//! scenario's oracle derived, threads matched by name across different tids and layouts.

use droidflame_core::products::{
    compare, diff_svg, flame_script, method_deltas, script_of, ChangeOf, DiffGraphOptions, DiffOptions, DiffStack,
    FlameOptions, MethodDelta, MethodTotals, Theme, View, Widths,
};
use droidflame_core::Analysis;
use droidflame_core::{analyze, Clock};
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

fn profile(scenario: &Scenario, layout: &Layout) -> Analysis {
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
            assert_eq!(got.stacks(), expected(&before, &after, clock), "seed {seed}, {clock} clock");
            assert!(got.stacks().iter().any(|s| s.stack.starts_with("only-after;") && s.before == 0));
            assert!(got.stacks().iter().any(|s| s.stack.starts_with("worker-2;") && s.after == 0));
            let (before_total, after_total) = got.totals();
            assert!(before_total > 0 && after_total > 0);
            // After ran twice the events: where it holds 20% more in all, the warning says
            // how much more and what to do; nothing else is said.
            let more = (after_total as f64 / before_total as f64 - 1.0) * 100.0;
            let said: Vec<&String> = got.warnings.iter().filter(|w| !w.starts_with("after holds ")).collect();
            assert!(said.is_empty(), "{said:?}");
            if more >= 20.0 {
                let expected = format!("after holds {more:.0}% more than before in all");
                assert!(
                    got.warnings.iter().any(|w| w.starts_with(&expected) && w.contains("Same total")),
                    "{:?}",
                    got.warnings
                );
            } else {
                assert!(got.warnings.is_empty(), "{:?}", got.warnings);
            }
        }
    }
}

#[test]
fn the_same_trace_twice_is_said_and_sides_without_a_shared_clock_refused() {
    if !droidflame_testkit::corpus_present(
        "diff::the_same_trace_twice_is_said_and_sides_without_a_shared_clock_refused",
    ) {
        return;
    }
    let scenario = generate(7, &Config::default());
    let dual = profile(&scenario, &Layout::ART_REGULAR);
    let same = compare(&dual, &dual, &DiffOptions::default()).unwrap();
    assert!(same.stacks().iter().all(|s| s.before == s.after));
    assert_eq!(
        same.warnings,
        ["the two traces have the same stacks and times: nothing changed (the same trace twice?)"]
    );

    let wall_only = profile(&generate(9, &Config { clocks: Clocks::Wall, ..Config::default() }), &Layout::ART_REGULAR);
    let cpu_only = profile(&generate(8, &Config { clocks: Clocks::Cpu, ..Config::default() }), &Layout::ART_REGULAR);
    // Without a clock asked for: wall where both have it (saying when one side lacks the
    // CPU clock), else CPU, said.
    let wall = compare(&dual, &wall_only, &DiffOptions::default()).unwrap();
    assert_eq!(wall.clock, Clock::Wall);
    assert_eq!(wall.warnings[0], "the after trace has no CPU clock: only the wall clock can be compared");
    let cpu = compare(&cpu_only, &dual, &DiffOptions::default()).unwrap();
    assert_eq!(cpu.clock, Clock::Cpu);
    assert_eq!(cpu.warnings[0], "the before trace has no wall clock: compared on the CPU clock");
    // Beside it, only what the runs' lengths do to the colours, where they differ.
    assert!(
        wall.warnings[1..].iter().chain(&cpu.warnings[1..]).all(|w| w.contains(" more than ")),
        "{:?}",
        wall.warnings
    );
    let asked = DiffOptions { clock: Some(Clock::Cpu), ..DiffOptions::default() };
    let error = compare(&dual, &wall_only, &asked).unwrap_err().to_string();
    assert!(error.contains("the after trace has no cpu clock; compare on the wall clock instead"), "{error}");
    // A method trace against a system trace: compared, with a warning.
    let system = analyze(&droidflame_testkit::corpus_file("tracecompass-atrace-test.txt")).unwrap();
    let mixed = compare(&dual, &system, &DiffOptions::default()).unwrap();
    assert_eq!(
        mixed.warnings[..1],
        ["before is a method trace and after a system trace: their frames name different things, so few stacks match"]
    );
    assert!(mixed.totals().0 > 0 && mixed.totals().1 > 0);
    let error = compare(&wall_only, &cpu_only, &DiffOptions::default()).unwrap_err().to_string();
    assert!(error.contains("share no clock: before has only the wall clock, after has only the CPU clock"), "{error}");
}

/// Each method's totals over all threads, from the scenario's oracle, keyed like the
/// deltas (display name, signature), with its class and method.
fn expected_methods(scenario: &Scenario, clock: Clock) -> BTreeMap<(String, String), (String, String, MethodTotals)> {
    let c = usize::from(clock == Clock::Cpu);
    let mut out = BTreeMap::new();
    for ((class, name, signature), stats) in &scenario.expected(false).methods {
        let display = if class.is_empty() { name.clone() } else { format!("{class}.{name}") };
        let totals = MethodTotals { calls: stats.calls, incl_us: stats.incl[c], excl_us: stats.excl[c] };
        // An unknown method id has no name of its own, only its display name.
        let method = if class.is_empty() && name.starts_with("<unknown ") { String::new() } else { name.clone() };
        out.insert((display, signature.clone()), (class.clone(), method, totals));
    }
    out
}

#[test]
fn method_deltas_are_both_sides_method_totals_by_name_and_signature() {
    for seed in 0..8 {
        let config = Config { threads: 3, events_per_thread: 400, ..Config::default() };
        let before = generate(seed, &config);
        let after = second_run(seed + 500, &Config { events_per_thread: 800, ..config.clone() });
        let (b, a) = (profile(&before, &Layout::ART_STREAMING), profile(&after, &Layout::ART_REGULAR));
        for clock in Clock::ALL {
            let rows = method_deltas(&b.profile, &a.profile, clock, None, &View::default()).unwrap();
            let (eb, ea) = (expected_methods(&before, clock), expected_methods(&after, clock));
            let mut keys: Vec<_> = eb.keys().chain(ea.keys()).cloned().collect();
            keys.sort();
            keys.dedup();
            assert_eq!(rows.len(), keys.len(), "seed {seed}");
            for row in &rows {
                let key = (row.name.clone(), row.signature.clone());
                let (class, method, _) = eb.get(&key).or_else(|| ea.get(&key)).cloned().unwrap();
                let want = MethodDelta {
                    name: row.name.clone(),
                    class,
                    method,
                    signature: row.signature.clone(),
                    before: eb.get(&key).map(|e| e.2).unwrap_or_default(),
                    after: ea.get(&key).map(|e| e.2).unwrap_or_default(),
                };
                assert_eq!(row, &want, "seed {seed}, {clock} clock");
            }
            // Largest change of inclusive time first, either way.
            let changes: Vec<u64> = rows.iter().map(|r| r.incl_delta().unsigned_abs()).collect();
            assert!(changes.windows(2).all(|w| w[0] >= w[1]), "seed {seed}");
        }
    }
}

#[test]
fn method_deltas_of_one_thread_name_cover_its_threads_on_both_sides() {
    let config = Config { threads: 4, events_per_thread: 300, ..Config::default() };
    let before = generate(3, &config);
    let after = second_run(4, &config);
    let (b, a) = (profile(&before, &Layout::ART_REGULAR), profile(&after, &Layout::ART_REGULAR));
    // Self time by leaf frame, from the oracle's stacks of the threads of one name.
    let excl_of = |scenario: &Scenario, name: &str, shift: u32| {
        let mut out: BTreeMap<String, u64> = BTreeMap::new();
        for (tid, stacks) in &scenario.expected(false).stacks {
            let thread = scenario.trace.threads.iter().find(|t| t.tid - shift == *tid).unwrap();
            if thread.name == name {
                for (stack, ticks) in stacks {
                    *out.entry(stack.rsplit(';').next().unwrap().to_owned()).or_default() += ticks[0];
                }
            }
        }
        out
    };
    let first = before.trace.threads[0].name.clone();
    for name in [first.as_str(), "only-after", "worker-2"] {
        let rows = method_deltas(&b.profile, &a.profile, Clock::Wall, Some(name), &View::default()).unwrap();
        let got = |side: fn(&MethodDelta) -> u64| -> BTreeMap<String, u64> {
            let mut out = BTreeMap::new();
            for r in &rows {
                if side(r) > 0 {
                    *out.entry(r.name.clone()).or_default() += side(r);
                }
            }
            out
        };
        let drop_zero = |mut m: BTreeMap<String, u64>| {
            m.retain(|_, v| *v > 0);
            m
        };
        assert_eq!(got(|r| r.before.excl_us), drop_zero(excl_of(&before, name, 0)), "{name}: before");
        assert_eq!(got(|r| r.after.excl_us), drop_zero(excl_of(&after, name, NEW_TIDS)), "{name}: after");
    }
    let error =
        method_deltas(&b.profile, &a.profile, Clock::Wall, Some("nobody"), &View::default()).unwrap_err().to_string();
    assert!(error.contains("neither trace has a thread named \"nobody\""), "{error}");
}

#[test]
fn the_differential_graph_draws_one_side_coloured_by_the_other() {
    let config = Config { threads: 3, events_per_thread: 300, ..Config::default() };
    let before = generate(11, &config);
    let after = second_run(12, &Config { events_per_thread: 600, ..config.clone() });
    let (b, a) = (profile(&before, &Layout::ART_REGULAR), profile(&after, &Layout::ART_STREAMING));
    let comparison = compare(&b, &a, &DiffOptions::default()).unwrap();
    let (before_total, after_total) = comparison.totals();
    let all = diff_svg(&comparison, &DiffGraphOptions::default()).unwrap();
    let digits = group;
    assert!(all.contains(&format!("Widths: after, {} µs.", digits(after_total))), "{all:.2000}");
    assert!(
        all.contains(&format!("against before ({} µs), deeper with its share of the whole", digits(before_total))),
        "{all:.3000}"
    );
    assert!(all.contains("<svg data-differential=\"true\" "), "a search there keeps the colours");
    // inferno's root frame is as wide as the width side's total.
    assert!(all.contains(&format!("all ({} µs, 100%; self 0 → 0 µs, no change)", digits(after_total))), "{all:.3000}");
    // Every frame drawn is found and coloured by its change, which its tooltip tells.
    let frames = all.matches("<g><title>").count();
    assert!(frames > 10);
    assert_eq!(all.matches("; self ").count(), frames, "every frame recoloured");
    let total = diff_svg(&comparison, &DiffGraphOptions { colour: ChangeOf::TotalTime, ..Default::default() }).unwrap();
    assert!(total.contains("Colour: total time change against before"));
    assert!(
        total.contains(&format!(
            "all ({} µs, 100%; total {} → {} µs,",
            digits(after_total),
            digits(before_total),
            digits(after_total)
        )),
        "{total:.3000}"
    );
    assert_eq!(total.matches("; total ").count(), total.matches("<g><title>").count());
    let widths_before =
        diff_svg(&comparison, &DiffGraphOptions { widths: Widths::Before, ..Default::default() }).unwrap();
    assert!(widths_before.contains(&format!("all ({} µs, 100%;", digits(before_total))));
    let normalized = diff_svg(&comparison, &DiffGraphOptions { normalize: true, ..Default::default() }).unwrap();
    assert!(normalized.contains("µs, scaled to the same total)"));

    // One thread: its stacks without the thread frame; the thread's own name is no frame.
    let name = before.trace.threads[0].name.clone();
    let one = diff_svg(&comparison, &DiffGraphOptions { thread: Some(name.clone()), ..Default::default() }).unwrap();
    let thread_after: u64 =
        comparison.stacks().iter().filter(|s| s.stack.starts_with(&format!("{name};"))).map(|s| s.after).sum();
    assert!(one.contains(&format!("all ({} µs, 100%;", digits(thread_after))));
    assert!(!one.contains(&format!("<title>{name} (")));
    // A thread with no time on the width side says which side to draw instead.
    let gone =
        diff_svg(&comparison, &DiffGraphOptions { thread: Some("worker-2".into()), ..Default::default() }).unwrap();
    assert!(
        gone.contains("The after trace recorded no time here on the wall clock; draw the widths of before."),
        "{gone}"
    );

    // The graph frame's Content-Security-Policy allows graphs by their script's hash.
    for theme in [Theme::Light, Theme::Dark] {
        let svg = diff_svg(&comparison, &DiffGraphOptions { theme, ..Default::default() }).unwrap();
        let flame = FlameOptions { theme, ..FlameOptions::default() };
        assert_eq!(script_of(&svg), Some(flame_script(&flame, comparison.frame_kind)));
    }
}

/// Each drawn frame's name and fill, from a differential graph's SVG.
fn fills(svg: &str) -> Vec<(String, (u8, u8, u8), bool)> {
    svg.split("<g><title>")
        .skip(1)
        .filter_map(|frame| {
            let name = frame[..frame.find(" (")?].to_owned();
            let fill = &frame[frame.find("fill=\"rgb(")? + 10..];
            let rgb: Vec<u8> = fill[..fill.find(')')?].split(',').map(|v| v.parse().unwrap()).collect();
            let faded = fill[..fill.find("/>").unwrap_or(fill.len())].contains("fill-opacity");
            Some((name, (rgb[0], rgb[1], rgb[2]), faded))
        })
        .collect()
}

#[test]
fn the_slowed_frame_of_two_runs_is_coloured_strongest_and_noise_stays_neutral() {
    use droidflame_testkit::runs::{method_name, run, RunSpec, SLOWED};
    let slowed = method_name(SLOWED);
    for (seed, factor) in [(1, 1.3), (2, 1.3), (3, 2.0)] {
        let before = analyze(&run(&RunSpec { seed, slower: None, spread: 0.1 }).write(&Layout::ART_STREAMING)).unwrap();
        let after = RunSpec { seed: seed + 100, slower: Some((SLOWED, factor)), spread: 0.1 };
        let after = analyze(&run(&after).write(&Layout::ART_STREAMING)).unwrap();
        let comparison = compare(&before, &after, &DiffOptions::default()).unwrap();
        let options = DiffGraphOptions { thread: Some("main".into()), ..Default::default() };
        let frames = fills(&diff_svg(&comparison, &options).unwrap());
        // The deepest red is the one with the least green (red frames are 255, g, g).
        let reddest =
            frames.iter().filter(|(_, c, _)| c.0 == 255 && c.1 == c.2 && c.1 < 222).min_by_key(|(_, c, _)| c.1);
        let (name, colour, _) = reddest.unwrap_or_else(|| panic!("seed {seed}: nothing red in {frames:?}"));
        assert_eq!(name, &slowed, "seed {seed} x{factor}: the reddest is {name} {colour:?}");
        let slowed_colour = frames.iter().find(|(n, _, _)| n == &slowed).unwrap().1;
        assert!(
            frames
                .iter()
                .filter(|(n, _, _)| n != &slowed)
                .all(|(_, c, _)| c.1 > slowed_colour.1 && c.2 > slowed_colour.2.min(slowed_colour.1)),
            "seed {seed}: another frame as deep as {slowed_colour:?}: {frames:?}"
        );
        // Changed only: the neutral frames fade, the slowed one does not.
        let changed = DiffGraphOptions { changed_only: true, ..options.clone() };
        let frames = fills(&diff_svg(&comparison, &changed).unwrap());
        assert!(frames.iter().any(|(n, _, faded)| n == &slowed && !faded));
        assert!(frames.iter().filter(|(_, c, _)| *c == (222, 222, 222)).all(|(_, _, faded)| *faded));
    }
}

#[test]
fn a_sampled_trace_against_a_traced_one_is_said() {
    if !droidflame_testkit::corpus_present("diff::a_sampled_trace_against_a_traced_one_is_said") {
        return;
    }
    let traced = profile(&generate(3, &Config::default()), &Layout::ART_REGULAR);
    // Firefox Profiler's fixture was recorded by sampling (records about every 5.7 ms).
    let sampled = analyze(&droidflame_testkit::corpus_file("ffprof-art-regular.trace")).unwrap();
    let us = sampled.profile.facts.format.sampling_interval_us.expect("the fixture looks sampled");
    let got = compare(&sampled, &traced, &DiffOptions::default()).unwrap();
    assert_eq!(
        got.warnings[..1],
        [format!(
            "before was sampled (about every {} µs) and after traced at every call: times compare, but call counts \
             and frames shorter than the interval do not",
            group(us)
        )]
    );
    // A trace of seconds against one of a tenth of a second: what that does to the colours.
    assert!(got.warnings[1].starts_with("before holds 158085% more than after in all (202,892,358 against 128,263 µs)"));
    assert!(compare(&sampled, &sampled, &DiffOptions::default())
        .unwrap()
        .warnings
        .iter()
        .all(|w| !w.contains("sampled")));
}

/// `1234567` as the core writes it in texts, `1,234,567`.
fn group(n: u64) -> String {
    let digits = n.to_string().into_bytes();
    let groups: Vec<String> = digits.rchunks(3).rev().map(|c| String::from_utf8_lossy(c).into_owned()).collect();
    groups.join(",")
}
