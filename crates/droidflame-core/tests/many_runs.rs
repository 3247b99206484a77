//! Many runs in two groups: a method made slower is found among the first rows, with
//! hardly a false alarm where nothing changed; the figures equal medians worked out from
//! each run's own summary; one run a side is the two-trace comparison.

use droidflame_core::products::{
    compare, compare_groups, group_call_tree, group_flame_svg, group_summary_json, summary, write_diff_folded,
    write_group_folded, write_group_methods, CallTreeTable, DiffOptions, Group, GroupTest, MethodComparison,
    RunOptions, Runs, Stat, Verdict, GROUP_METHOD_COLUMN_NAMES,
};
use droidflame_core::{analyze, Analysis, Clock};
use droidflame_testkit::runs::{method_name, run, RunSpec, METHODS, SLOWED};
use droidflame_testkit::{Clocks, Layout};
use std::collections::BTreeMap;

fn analysed(spec: &RunSpec) -> Analysis {
    analyze(&run(spec).write(&Layout::ART_STREAMING)).unwrap()
}

/// `n` runs a side from seeds `first..`, after's `SLOWED` by `factor`.
fn groups(first: u64, n: u64, factor: Option<f64>, options: RunOptions) -> Runs {
    let mut runs = Runs::new(options);
    for i in 0..n {
        let before = RunSpec { seed: first + i, slower: None, spread: 0.1 };
        let after = RunSpec { seed: first + 1000 + i, slower: factor.map(|f| (SLOWED, f)), spread: 0.1 };
        runs.add(&format!("before-{i}.trace"), Group::Before, &analysed(&before)).unwrap();
        runs.add(&format!("after-{i}.trace"), Group::After, &analysed(&after)).unwrap();
    }
    runs
}

fn significant(rows: &[MethodComparison]) -> Vec<&str> {
    rows.iter().filter(|r| r.significant).map(|r| r.name.name.as_str()).collect()
}

#[test]
fn a_method_made_slower_is_significant_among_the_first_rows() {
    let runs = groups(1, 10, Some(1.3), RunOptions::default());
    for share in [false, true] {
        let rows = compare_groups(&runs, &GroupTest { share, ..GroupTest::default() }).unwrap();
        let slowed = method_name(SLOWED);
        let at = rows.iter().position(|r| r.name.name == slowed).unwrap();
        assert!(at < 3 && rows[at].significant, "share {share}: {slowed} is row {at}: {:?}", rows[at]);
        assert_eq!(rows[at].verdict, Verdict::Slower);
        assert!(rows[at].p_value < 0.001, "{}", rows[at].p_value);
        let alarms: Vec<&str> = significant(&rows).into_iter().filter(|&n| n != slowed).collect();
        // Its callers' inclusive time grew, not their own: none of them may be named.
        assert!(alarms.len() <= 1, "share {share}: false alarms {alarms:?}");
    }
}

#[test]
fn where_nothing_changed_hardly_anything_is_called_significant() {
    // Five experiments of ten runs a side, 42 methods each: at a false-discovery rate of
    // 5%, an experiment with no change at all calls something significant about 5% of the
    // time.
    let mut alarms = 0;
    for experiment in 0..5 {
        let runs = groups(50 + experiment * 20, 10, None, RunOptions::default());
        let rows = compare_groups(&runs, &GroupTest::default()).unwrap();
        assert_eq!(rows.len(), METHODS + 2);
        alarms += significant(&rows).len();
    }
    assert!(alarms <= 1, "{alarms} false alarms in five experiments");
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

#[test]
fn medians_and_spread_equal_those_of_each_runs_own_summary() {
    let specs: Vec<RunSpec> = (0..7).map(|seed| RunSpec { seed, slower: None, spread: 0.2 }).collect();
    let mut runs = Runs::new(RunOptions::default());
    let mut summaries = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        let analysis = analysed(spec);
        runs.add(&format!("run-{i}"), Group::Before, &analysis).unwrap();
        runs.add(&format!("run-{i}"), Group::After, &analysis).unwrap();
        // Each method's exclusive µs and calls, overloads added.
        let mut own = std::collections::BTreeMap::<String, (u64, u64)>::new();
        for m in summary(&analysis).methods {
            let entry = own.entry(m.name.clone()).or_default();
            entry.0 += m.times.excl_wall_us.unwrap();
            entry.1 += m.calls.unwrap();
        }
        summaries.push(own);
    }
    let rows = compare_groups(&runs, &GroupTest::default()).unwrap();
    assert!(rows.iter().all(|r| !r.significant && r.before == r.after), "one group against itself");
    for row in &rows {
        let mut excl: Vec<f64> = summaries.iter().map(|s| s.get(&row.name.name).map_or(0.0, |m| m.0 as f64)).collect();
        let mut calls: Vec<f64> = summaries.iter().map(|s| s.get(&row.name.name).map_or(0.0, |m| m.1 as f64)).collect();
        assert_eq!(row.before.excl_median_us, median(&mut excl), "{}", row.name.name);
        assert_eq!(row.before.calls_median, median(&mut calls), "{}", row.name.name);
        assert_eq!((row.before.excl_min_us, row.before.excl_max_us), (excl[0], excl[6]));
        // Type 7 quartiles of seven values: halfway from the second to the third, and from
        // the fifth to the sixth.
        let q1 = excl[1] + (excl[2] - excl[1]) / 2.0;
        let q3 = excl[4] + (excl[5] - excl[4]) / 2.0;
        assert_eq!((row.before.excl_q1_us, row.before.excl_q3_us), (q1, q3), "{}", row.name.name);
    }
    let json: serde_json::Value = serde_json::from_str(&group_summary_json(&runs, Group::Before).unwrap()).unwrap();
    assert_eq!(json["runs"].as_array().unwrap().len(), 7);
    let first = &json["methods"][0];
    let per_run: Vec<u64> = first["excl_us"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
    let name = first["name"].as_str().unwrap();
    let from_summaries: Vec<u64> = summaries.iter().map(|s| s.get(name).map_or(0, |m| m.0)).collect();
    assert_eq!(per_run, from_summaries);
}

fn folded_lines(write: impl FnOnce(&mut Vec<u8>)) -> String {
    let mut out = Vec::new();
    write(&mut out);
    String::from_utf8(out).unwrap()
}

#[test]
fn one_run_a_side_is_the_two_trace_comparison() {
    let before = analysed(&RunSpec { seed: 3, slower: None, spread: 0.1 });
    let after = analysed(&RunSpec { seed: 4, slower: Some((SLOWED, 2.0)), spread: 0.1 });
    let mut runs = Runs::new(RunOptions::default());
    runs.add("b", Group::Before, &before).unwrap();
    runs.add("a", Group::After, &after).unwrap();
    let medians = runs.median_comparison().unwrap();
    let pair = compare(&before, &after, &DiffOptions::default()).unwrap();
    assert_eq!(medians.stacks(), pair.stacks());
    assert_eq!(medians.clock, Clock::Wall);
    let text = folded_lines(|out| write_diff_folded(&medians, out).unwrap());
    assert!(text.lines().all(|l| l.starts_with("main;") || l.starts_with("prefetch;")), "{text}");
}

#[test]
fn a_groups_folded_stacks_are_each_stacks_median_mean_or_sum_over_its_runs() {
    let analyses: Vec<Analysis> = (0..4).map(|seed| analysed(&RunSpec { seed, slower: None, spread: 0.3 })).collect();
    let mut runs = Runs::new(RunOptions::default());
    let mut per_stack: std::collections::BTreeMap<String, Vec<u64>> = Default::default();
    for (i, analysis) in analyses.iter().enumerate() {
        runs.add(&format!("run-{i}"), Group::Before, analysis).unwrap();
        for stack in compare(analysis, analysis, &DiffOptions::default()).unwrap().stacks() {
            per_stack.entry(stack.stack).or_insert_with(|| vec![0; 4])[i] = stack.before;
        }
    }
    for stat in [Stat::Sum, Stat::Mean, Stat::Median] {
        let text = folded_lines(|out| write_group_folded(&runs, Group::Before, stat, out).unwrap());
        let expected: String = per_stack
            .iter()
            .filter_map(|(stack, values)| {
                let mut sorted = values.clone();
                sorted.sort();
                let value = match stat {
                    Stat::Sum => values.iter().sum::<u64>(),
                    Stat::Mean => (values.iter().sum::<u64>() as f64 / 4.0).round() as u64,
                    Stat::Median => ((sorted[1] + sorted[2]) as f64 / 2.0).round() as u64,
                };
                (value > 0).then(|| format!("{stack} {value}\n"))
            })
            .collect();
        assert_eq!(text, expected, "{}", stat.name());
    }
}

#[test]
fn the_methods_table_names_the_contracts_columns_and_puts_significant_rows_first() {
    let runs = groups(200, 8, Some(1.5), RunOptions::default());
    let rows = compare_groups(&runs, &GroupTest::default()).unwrap();
    let text = folded_lines(|out| write_group_methods(&rows, out).unwrap());
    let header: Vec<&str> = text.lines().next().unwrap().split('\t').collect();
    assert_eq!(header, GROUP_METHOD_COLUMN_NAMES);
    for column in ["method", "excl_median_before_us", "excl_median_after_us", "p_value", "significant"] {
        assert!(header.contains(&column), "{column}");
    }
    let significant_at = header.iter().position(|&c| c == "significant").unwrap();
    let flags: Vec<&str> = text.lines().skip(1).map(|l| l.split('\t').nth(significant_at).unwrap()).collect();
    assert_eq!(flags[0], "yes");
    assert!(flags.windows(2).all(|w| w[0] == "yes" || w[1] == "no"), "{flags:?}");
    assert_eq!(flags.len(), rows.len());
}

#[test]
fn runs_that_cannot_be_compared_are_refused_with_the_reason() {
    let dual = analysed(&RunSpec { seed: 1, slower: None, spread: 0.1 });
    let mut wall_only = run(&RunSpec { seed: 2, slower: None, spread: 0.1 });
    wall_only.clocks = Clocks::Wall;
    let wall_only = analyze(&wall_only.write(&Layout::ART_STREAMING)).unwrap();
    let mut cpu_first = Runs::new(RunOptions { clock: Some(Clock::Cpu), ..RunOptions::default() });
    cpu_first.add("dual.trace", Group::Before, &dual).unwrap();
    assert_eq!(cpu_first.clocks(), [Clock::Wall, Clock::Cpu]);
    let mut wall_first = Runs::new(RunOptions::default());
    wall_first.add("dual.trace", Group::Before, &dual).unwrap();
    wall_first.add("wall.trace", Group::After, &wall_only).unwrap();
    assert_eq!(wall_first.clocks(), [Clock::Wall], "the clocks every run has");
    let error = cpu_first.add("wall.trace", Group::After, &wall_only).unwrap_err().to_string();
    assert!(error.contains("wall.trace") && error.contains("cpu clock"), "{error}");
    // The group that has no runs, and a thread no run has, are named.
    let error = compare_groups(&cpu_first, &GroupTest::default()).unwrap_err().to_string();
    assert!(error.contains("after group has no runs"), "{error}");
    let mut missing = Runs::new(RunOptions { thread: Some("RenderThread".into()), ..RunOptions::default() });
    missing.add("b", Group::Before, &dual).unwrap();
    missing.add("a", Group::After, &dual).unwrap();
    let error = compare_groups(&missing, &GroupTest::default()).unwrap_err().to_string();
    assert!(error.contains("no run has a thread named \"RenderThread\""), "{error}");
    let error = compare_groups(&cpu_first, &GroupTest { alpha: 1.5, share: false }).unwrap_err().to_string();
    assert!(error.contains("alpha 1.5"), "{error}");
}

#[test]
fn a_groups_flame_graph_draws_its_stat_per_stack() {
    let runs = groups(300, 3, None, RunOptions::default());
    let options = droidflame_core::products::FlameOptions::default();
    let all = group_flame_svg(&runs, Group::Before, Stat::Median, None, &options).unwrap();
    assert!(all.contains("All threads — wall clock, median of the 3 runs before"), "the title says what it shows");
    assert!(
        all.contains("each stack&apos;s median over the runs") || all.contains("each stack's median over the runs")
    );
    let main = group_flame_svg(&runs, Group::After, Stat::Sum, Some("main"), &options).unwrap();
    assert!(main.contains("main — wall clock, sum of the 3 runs after"));
    assert!(main.contains(&method_name(SLOWED)));
    assert!(!main.contains("Prefetcher"), "only main's stacks");
    let error = group_flame_svg(&runs, Group::Before, Stat::Median, Some("binder"), &options).unwrap_err();
    assert!(error.to_string().contains("no run has a thread named \"binder\""));
}

/// Each node's path from node 0 (`;`-joined) with its self and total µs on the wall clock.
fn tree_paths(table: &CallTreeTable) -> BTreeMap<String, (u64, u64)> {
    let mut paths: Vec<String> = Vec::with_capacity(table.parent.len());
    let mut out = BTreeMap::new();
    for n in 0..table.parent.len() {
        let path = if n == 0 {
            String::new()
        } else {
            let name = &table.names[table.name[n] as usize];
            let up = &paths[table.parent[n] as usize];
            if up.is_empty() {
                name.clone()
            } else {
                format!("{up};{name}")
            }
        };
        out.insert(path.clone(), (table.self_wall[n], table.total_wall[n]));
        paths.push(path);
    }
    out
}

#[test]
fn a_groups_call_tree_holds_each_stacks_stat_as_self_time_and_adds_totals_up() {
    let mut runs = Runs::new(RunOptions::default());
    for seed in 0..5 {
        runs.add(&format!("run-{seed}"), Group::After, &analysed(&RunSpec { seed, slower: None, spread: 0.3 }))
            .unwrap();
    }
    runs.add("other", Group::Before, &analysed(&RunSpec { seed: 9, slower: None, spread: 0.3 })).unwrap();
    let text = folded_lines(|out| write_group_folded(&runs, Group::After, Stat::Median, out).unwrap());
    let lines: Vec<(&str, u64)> =
        text.lines().map(|l| l.rsplit_once(' ').map(|(s, v)| (s, v.parse().unwrap())).unwrap()).collect();
    let under = |prefix: &str| -> u64 {
        lines.iter().filter(|(s, _)| *s == prefix || s.starts_with(&format!("{prefix};"))).map(|(_, v)| v).sum()
    };

    let every = group_call_tree(&runs, Group::After, Stat::Median, None).unwrap();
    let paths = tree_paths(&every);
    assert_eq!(paths[""].1, lines.iter().map(|(_, v)| v).sum::<u64>());
    for (path, &(own, total)) in paths.iter().filter(|(p, _)| !p.is_empty()) {
        let line = lines.iter().find(|(s, _)| s == path).map_or(0, |(_, v)| *v);
        assert_eq!((own, total), (line, under(path)), "{path}");
        assert!(total > 0, "{path} has no time but is in the tree");
    }
    // Every stack with time is a node.
    for (stack, _) in &lines {
        assert!(paths.contains_key(*stack), "{stack}");
    }
    assert!(every.total_cpu.iter().chain(&every.calls).all(|&v| v == 0));

    let main = group_call_tree(&runs, Group::After, Stat::Median, Some("main")).unwrap();
    assert_eq!(main.parent[0], u32::MAX);
    assert_eq!(main.total_wall[0], under("main"));
    for (path, &(own, total)) in tree_paths(&main).iter().filter(|(p, _)| !p.is_empty()) {
        assert_eq!((own, total), paths[&format!("main;{path}")], "{path}");
    }

    let missing = group_call_tree(&runs, Group::After, Stat::Median, Some("no such")).unwrap_err();
    assert_eq!(missing.to_string(), "no run has a thread named \"no such\"");
}

#[test]
fn a_run_cut_short_is_compared_with_a_warning_that_names_it() {
    let whole = run(&RunSpec { seed: 5, slower: None, spread: 0.1 }).write(&Layout::ART_STREAMING);
    let cut = analyze(&whole[..whole.len() * 2 / 3]).unwrap();
    let mut runs = Runs::new(RunOptions::default());
    runs.add("whole.trace", Group::Before, &analyze(&whole).unwrap()).unwrap();
    assert!(runs.warnings().is_empty(), "{:?}", runs.warnings());
    runs.add("cut.trace", Group::After, &cut).unwrap();
    let warning =
        runs.warnings().iter().find(|w| w.starts_with("cut.trace lost data")).expect("a warning names the run");
    assert!(warning.contains("cut short"), "{warning}");
    assert!(runs.runs()[1].total_us < runs.runs()[0].total_us);
}

/// A run of methods on one thread, one after the other: `Steady.tick` for `steady` µs,
/// `Work.load` for `load` µs.
fn two_method_run(steady: u64, load: u64) -> Analysis {
    run_of(&[("Steady", "tick", steady), ("Work", "load", load)])
}

/// A run of `methods` (class, name, µs) on one thread, one after the other.
fn run_of(methods: &[(&str, &str, u64)]) -> Analysis {
    use droidflame_testkit::{MethodDef, Record, ThreadDef, Trace, ENTER, EXIT};
    let record = |method, action, wall| Record { tid: 1, method, action, wall, cpu: wall };
    let mut trace = Trace { threads: vec![ThreadDef { tid: 1, name: "main".into() }], ..Trace::default() };
    let mut clock = 0;
    for (i, &(class, name, micros)) in methods.iter().enumerate() {
        let id = 4 * (i as u64 + 1);
        trace.methods.push(MethodDef::new(id, class, name, "()V"));
        trace.records.push(record(id, ENTER, clock));
        clock += micros;
        trace.records.push(record(id, EXIT, clock));
    }
    analyze(&trace.write(&Layout::ART_STREAMING)).unwrap()
}

#[test]
fn a_method_the_same_in_every_run_is_left_out_of_the_correction() {
    // `Steady.tick` takes 100 µs in all six runs: no test can find anything, and counting
    // it in the correction would double `Work.load`'s q-value (two tests, not one). Work's
    // runs lie apart, one ordering of the twenty each way as extreme: its p is 2/20 and,
    // tested alone, its q is the same.
    let mut runs = Runs::new(RunOptions::default());
    for (i, load) in [1000, 1010, 1020].into_iter().enumerate() {
        runs.add(&format!("before-{i}"), Group::Before, &two_method_run(100, load)).unwrap();
        runs.add(&format!("after-{i}"), Group::After, &two_method_run(100, load + 500)).unwrap();
    }
    let rows = compare_groups(&runs, &GroupTest::default()).unwrap();
    let row = |name: &str| rows.iter().find(|r| r.name.name.ends_with(name)).unwrap();
    assert_eq!((row("Steady.tick").p_value, row("Steady.tick").q_value), (1.0, 1.0));
    assert!((row("Work.load").p_value - 0.1).abs() < 1e-12, "{}", row("Work.load").p_value);
    assert!((row("Work.load").q_value - 0.1).abs() < 1e-12, "{}", row("Work.load").q_value);
    // Alpha is a probability strictly between 0 and 1.
    for alpha in [0.0, 1.0] {
        let err = compare_groups(&runs, &GroupTest { alpha, ..GroupTest::default() }).unwrap_err();
        assert_eq!(err.to_string(), format!("alpha {alpha} is not between 0 and 1"));
    }
}

#[test]
fn a_method_that_took_no_time_before_has_no_ratio() {
    // `Steady.tick` 0 µs in every run before, 100 after: after's median over before's has
    // no value (not infinity).
    let mut runs = Runs::new(RunOptions::default());
    for i in 0..3 {
        runs.add(&format!("before-{i}"), Group::Before, &two_method_run(0, 1000)).unwrap();
        runs.add(&format!("after-{i}"), Group::After, &two_method_run(100, 1000)).unwrap();
    }
    let rows = compare_groups(&runs, &GroupTest::default()).unwrap();
    let steady = rows.iter().find(|r| r.name.name.ends_with("Steady.tick")).unwrap();
    assert_eq!((steady.before.excl_median_us, steady.after.excl_median_us, steady.ratio), (0.0, 100.0, None));
}

#[test]
fn on_shares_a_change_is_named_only_where_the_time_moved_the_same_way() {
    use droidflame_core::products::Evidence;
    // Five runs a side; `Steady.tick` 100 + i µs before. Its share moves in every case (the
    // corrected test finds it: p 2/252 for both methods), and the verdict keeps the way of
    // its share only where its µs interval (the 3rd least to the 3rd greatest of the 25
    // differences, 1 - 8/252) leaves out 0 on that side. By hand: after at 97 + j the
    // differences run -7 to 1 and the 3rd greatest is 0; at 103 + j they run -1 to 7 and
    // the 3rd least is 0.
    let verdict_of = |steady_after: u64, work_after: u64| {
        let mut runs = Runs::new(RunOptions::default());
        for i in 0..5 {
            runs.add(&format!("before-{i}"), Group::Before, &two_method_run(100 + i, 1000 + 10 * i)).unwrap();
            let after = two_method_run(steady_after + i, work_after + 10 * i);
            runs.add(&format!("after-{i}"), Group::After, &after).unwrap();
        }
        let rows = compare_groups(&runs, &GroupTest { share: true, ..GroupTest::default() }).unwrap();
        let steady = rows.iter().find(|r| r.name.name.ends_with("Steady.tick")).unwrap();
        assert!(steady.significant, "{steady:?}");
        (steady.verdict, steady.evidence, steady.shift_us.low, steady.shift_us.high)
    };
    // Work doubles: Steady's share falls.
    assert_eq!(verdict_of(50, 2000), (Verdict::Faster, Evidence::CorrectedTest, -53.0, -47.0));
    assert_eq!(verdict_of(97, 2000), (Verdict::Unchanged, Evidence::ShareOnly, -6.0, 0.0));
    // Work halves: Steady's share grows.
    assert_eq!(verdict_of(150, 500), (Verdict::Slower, Evidence::CorrectedTest, 47.0, 53.0));
    assert_eq!(verdict_of(103, 500), (Verdict::Unchanged, Evidence::ShareOnly, 0.0, 6.0));
}

#[test]
fn a_change_every_run_shows_comes_before_larger_changes_no_test_finds() {
    // Five a side. `Small.step` grows by 20 µs in every run (p 2/252, but eight methods are
    // tested, so its q is 8 * 2/252 = 0.063: not significant; named on every run). `Big.step`
    // moves its median by 600 µs but its runs overlap: unnamed. `Base.wait` is 100 ms in
    // every run (not tested) and keeps the shares steady. The named change comes first.
    let noise = [[500, 700, 600, 800, 400], [600, 500, 800, 400, 700]];
    let big = [[1000, 3000, 1500, 2500, 2000], [1200, 3500, 1000, 2800, 2600]];
    let mut runs = Runs::new(RunOptions::default());
    for (g, group) in [Group::Before, Group::After].into_iter().enumerate() {
        for i in 0..5 {
            let mut methods = vec![("Base", "wait", 100_000), ("Small", "step", 100 + 20 * g as u64 + i as u64)];
            methods.push(("Big", "step", big[g][i]));
            let names = ["n1", "n2", "n3", "n4", "n5", "n6"];
            methods.extend(names.iter().enumerate().map(|(k, n)| ("Noise", *n, noise[g][(i + k) % 5])));
            runs.add(&format!("{g}-{i}"), group, &run_of(&methods)).unwrap();
        }
    }
    let rows = compare_groups(&runs, &GroupTest::default()).unwrap();
    let order: Vec<&str> = rows.iter().take(2).map(|r| r.name.name.as_str()).collect();
    assert_eq!(order, ["Small.step", "Big.step"], "{rows:#?}");
    assert_eq!((rows[0].verdict, rows[0].significant), (Verdict::Slower, false));
    assert!((rows[0].q_value - 8.0 * 2.0 / 252.0).abs() < 1e-12, "{}", rows[0].q_value);
    assert_eq!(rows[1].verdict, Verdict::Unchanged);
}

#[test]
fn the_methods_table_writes_changes_shares_and_ratios_as_worked_by_hand() {
    // Three runs a side of 1000 µs. Steady 100 -> 150 µs: +50.0%, 10% -> 15% of its run,
    // ratio 1.50. New.call not called before, 30 µs after: `new`, no ratio. Idle.call 0 µs
    // on both sides: `-`.
    let mut runs = Runs::new(RunOptions::default());
    for i in 0..3 {
        let before = [("Steady", "tick", 100), ("Idle", "call", 0), ("Work", "load", 900)];
        let after = [("Steady", "tick", 150), ("New", "call", 30), ("Idle", "call", 0), ("Work", "load", 820)];
        runs.add(&format!("before-{i}"), Group::Before, &run_of(&before)).unwrap();
        runs.add(&format!("after-{i}"), Group::After, &run_of(&after)).unwrap();
    }
    let rows = compare_groups(&runs, &GroupTest::default()).unwrap();
    let mut out = Vec::new();
    write_group_methods(&rows, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let column = |name: &str| GROUP_METHOD_COLUMN_NAMES.iter().position(|c| *c == name).unwrap();
    let cells = |method: &str| -> Vec<String> {
        let line = text.lines().find(|l| l.starts_with(method)).unwrap();
        let cells: Vec<&str> = line.split('\t').collect();
        [
            "runs_called_before",
            "runs_called_after",
            "excl_change",
            "excl_share_before_pct",
            "excl_share_after_pct",
            "ratio",
        ]
        .map(|c| cells[column(c)].to_owned())
        .to_vec()
    };
    assert_eq!(cells("Steady.tick"), ["3", "3", "+50.0%", "10.000", "15.000", "1.50"]);
    assert_eq!(cells("New.call"), ["0", "3", "new", "0.000", "3.000", "-"]);
    assert_eq!(cells("Idle.call"), ["3", "3", "-", "0.000", "0.000", "-"]);
    assert_eq!(cells("Work.load"), ["3", "3", "-8.9%", "90.000", "82.000", "0.911"]);
}

#[test]
fn tested_on_shares_the_rows_run_by_the_change_of_their_share() {
    // Three runs a side of 1000 µs (three cannot name anything). Shares by hand: Fill 50% ->
    // 44% (6 points), Grow 10% -> 15% (5), Steady 40% -> 41% (1): that order, not the order
    // of the shares' sums (94, 81, 25) or of their ratios (1.5, 1.025, 0.88).
    let mut runs = Runs::new(RunOptions::default());
    for i in 0..3 {
        let before = [("Grow", "step", 100), ("Steady", "step", 400), ("Fill", "step", 500)];
        let after = [("Grow", "step", 150), ("Steady", "step", 410), ("Fill", "step", 440)];
        runs.add(&format!("before-{i}"), Group::Before, &run_of(&before)).unwrap();
        runs.add(&format!("after-{i}"), Group::After, &run_of(&after)).unwrap();
    }
    let rows = compare_groups(&runs, &GroupTest { share: true, ..GroupTest::default() }).unwrap();
    let order: Vec<&str> = rows.iter().map(|r| r.name.name.as_str()).collect();
    assert_eq!(order, ["Fill.step", "Grow.step", "Steady.step"]);
}

#[test]
fn the_methods_table_writes_small_p_values_in_three_figures() {
    // Seven runs a side. Steady.tick: every run after above every run before, exact p
    // 2 / C(14, 7) = 2/3432 = 0.000583, written `5.83e-4`. Mixed.call interleaves (10, 20,
    // .. 70 against 15, 25, .. 75): 2,438 of the 3,432 orderings are as extreme, p 0.7104.
    // Medians 103 and 203 µs are written whole.
    let mut runs = Runs::new(RunOptions::default());
    for i in 0..7 {
        let before = run_of(&[("Steady", "tick", 100 + i), ("Mixed", "call", 10 + 10 * i)]);
        let after = run_of(&[("Steady", "tick", 200 + i), ("Mixed", "call", 15 + 10 * i)]);
        runs.add(&format!("before-{i}"), Group::Before, &before).unwrap();
        runs.add(&format!("after-{i}"), Group::After, &after).unwrap();
    }
    let rows = compare_groups(&runs, &GroupTest::default()).unwrap();
    let mut out = Vec::new();
    write_group_methods(&rows, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let written = |method: &str| {
        let cells: Vec<&str> = text.lines().find(|l| l.starts_with(method)).unwrap().split('\t').collect();
        let column = |name: &str| cells[GROUP_METHOD_COLUMN_NAMES.iter().position(|c| *c == name).unwrap()];
        ["excl_median_before_us", "excl_median_after_us", "p_value"].map(column).map(str::to_owned)
    };
    assert_eq!(written("Steady.tick"), ["103", "203", "5.83e-4"]);
    assert_eq!(written("Mixed.call"), ["40", "45", "0.7104"]);
}
