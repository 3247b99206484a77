//! The many-runs verdict at the numbers of runs benchmarks have (3, 5, 10 and 30 a side),
//! on the testkit's program: a method made slower must be named with its size and an
//! interval; where nothing changed, hardly anything may be. Each case is an experiment of
//! its own seeds; what each found is printed (`--nocapture`) for the README's table.

use droidflame_core::products::{
    compare_groups, write_group_methods, Evidence, Group, GroupTest, MethodComparison, RunOptions, Runs, Verdict,
};
use droidflame_core::{analyze, Analysis};
use droidflame_testkit::runs::{method_name, run, RunSpec, METHODS, SLOWED};
use droidflame_testkit::Layout;

fn analysed(spec: &RunSpec) -> Analysis {
    analyze(&run(spec).write(&Layout::ART_STREAMING)).unwrap()
}

/// `n` runs a side from seeds `first..`, after's `SLOWED` by `factor`.
fn experiment(first: u64, n: u64, factor: Option<f64>) -> Vec<MethodComparison> {
    experiment_on(first, n, factor, false)
}

/// The same, tested on each run's share of its time where `share`.
fn experiment_on(first: u64, n: u64, factor: Option<f64>, share: bool) -> Vec<MethodComparison> {
    let mut runs = Runs::new(RunOptions::default());
    for i in 0..n {
        let before = RunSpec { seed: first + i, slower: None, spread: 0.1 };
        let after = RunSpec { seed: first + 5000 + i, slower: factor.map(|f| (SLOWED, f)), spread: 0.1 };
        runs.add(&format!("before-{i}.trace"), Group::Before, &analysed(&before)).unwrap();
        runs.add(&format!("after-{i}.trace"), Group::After, &analysed(&after)).unwrap();
    }
    compare_groups(&runs, &GroupTest { share, ..GroupTest::default() }).unwrap()
}

fn changed(rows: &[MethodComparison]) -> Vec<&MethodComparison> {
    rows.iter().filter(|r| r.verdict != Verdict::Unchanged).collect()
}

#[test]
fn a_sixteen_fold_regression_in_six_runs_a_side_is_named_with_its_size_and_interval() {
    // The method's own time goes from about 0.5 ms to about 8 ms in every run: no p below
    // 2/924 can survive the correction over 42 methods, but every run moved.
    let rows = experiment(7, 6, Some(16.6));
    let slowed = rows.iter().find(|r| r.name.name == method_name(SLOWED)).unwrap();
    assert_eq!(slowed.verdict, Verdict::Slower, "{slowed:?}");
    assert!(slowed.every_run);
    assert!(!slowed.significant, "six a side cannot pass the corrected test: {slowed:?}");
    assert_eq!(slowed.evidence, Evidence::EveryRun);
    assert!(slowed.p_value < 0.0022 + 1e-9, "2/924 is the least p of six a side");
    let ratio = slowed.ratio.unwrap();
    assert!((14.0..19.0).contains(&ratio), "about 16.6x: {ratio}");
    // The interval is around the shift and leaves out 0; the shift is about 15.6 times
    // before's median.
    let shift = slowed.shift_us;
    assert!(shift.low > 0.0 && shift.low <= shift.estimate && shift.estimate <= shift.high, "{shift:?}");
    let expected = 15.6 * slowed.before.excl_median_us;
    assert!((shift.estimate / expected - 1.0).abs() < 0.2, "{shift:?} against {expected}");
    assert!(shift.confidence >= 0.95, "six a side reach 95%: {}", shift.confidence);
    // It is the first row, and nothing else is named.
    assert_eq!(rows[0].name.name, method_name(SLOWED));
    let others: Vec<&str> = changed(&rows).iter().skip(1).map(|r| r.name.name.as_str()).collect();
    assert!(others.is_empty(), "false alarms: {others:?}");
    // The rest by the size of the change of their exclusive medians, largest first.
    let sizes: Vec<f64> = rows[1..].iter().map(|r| (r.after.excl_median_us - r.before.excl_median_us).abs()).collect();
    assert!(sizes.windows(2).all(|w| w[0] >= w[1]), "{sizes:?}");
    // The table says it in its words: `slower` on `every run`, the rest `unchanged` on `-`.
    let table = table_of(&rows);
    assert_eq!(table[0], ("slower".to_owned(), "every run".to_owned()));
    assert!(table[1..].iter().all(|(v, e)| (v.as_str(), e.as_str()) == ("unchanged", "-")), "{table:?}");
}

/// Each row's `verdict` and `evidence` columns, as `write_group_methods` writes them.
fn table_of(rows: &[MethodComparison]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    write_group_methods(rows, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let mut lines = text.lines().map(|l| l.split('\t').collect::<Vec<_>>());
    let header = lines.next().unwrap();
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (verdict, evidence) = (column("verdict"), column("evidence"));
    lines.map(|cells| (cells[verdict].to_owned(), cells[evidence].to_owned())).collect()
}

#[test]
fn on_shares_a_large_regression_does_not_make_every_other_method_faster() {
    // The slowed method's share grows from about 2% to 25%, so every other method's share
    // falls in every run, and the test on shares finds most of them significant: where
    // their time did not change, the verdict says so.
    let rows = experiment_on(7, 6, Some(16.6), true);
    let named: Vec<&str> = changed(&rows).iter().map(|r| r.name.name.as_str()).collect();
    // The slowed method first; any other named is one whose time moved too (its µs interval
    // leaves out 0 on the same side), not only its share.
    assert_eq!(named[0], method_name(SLOWED));
    for r in changed(&rows).iter().skip(1) {
        let time_moved = if r.verdict == Verdict::Faster { r.shift_us.high < 0.0 } else { r.shift_us.low > 0.0 };
        assert!(time_moved, "{} named on its share alone: {:?}", r.name.name, r.shift_us);
    }
    assert!(named.len() <= 3, "{named:?}");
    let share_only = rows.iter().filter(|r| r.evidence == Evidence::ShareOnly).count();
    assert!(share_only >= 10, "{share_only} methods' shares fell without their time changing");
    assert!(rows.iter().filter(|r| r.evidence == Evidence::ShareOnly).all(|r| r.verdict == Verdict::Unchanged));
    let table = table_of(&rows);
    for (row, words) in rows.iter().zip(&table) {
        if row.evidence == Evidence::ShareOnly {
            assert_eq!(words, &("unchanged".to_owned(), "share only".to_owned()));
        }
    }
    // Tested on shares, the rows not named run by the size of their share's change.
    let quiet: Vec<f64> = rows
        .iter()
        .filter(|r| !r.significant && r.verdict == Verdict::Unchanged)
        .map(|r| (r.after.excl_share_median - r.before.excl_share_median).abs())
        .collect();
    assert!(quiet.windows(2).all(|w| w[0] >= w[1]), "{quiet:?}");
}

/// Over ten experiments of `n` runs a side: how often the slowed method (by `factor`) was
/// named slower, and how many of the others (unchanged) were named anything.
fn power_and_alarms(n: u64, factor: f64) -> (usize, usize) {
    let (mut found, mut alarms) = (0, 0);
    for e in 0..10 {
        let rows = experiment(100 + 97 * e, n, Some(factor));
        for r in changed(&rows) {
            if r.name.name == method_name(SLOWED) && r.verdict == Verdict::Slower {
                found += 1;
            } else {
                alarms += 1;
            }
        }
    }
    (found, alarms)
}

#[test]
fn unchanged_methods_at_five_runs_a_side_raise_at_most_one_false_alarm_in_ten_experiments() {
    // Ten experiments with nothing changed: every one of their 42 methods (420 in all)
    // counts, not just ten of each.
    let mut alarms = Vec::new();
    for e in 0..10 {
        let rows = experiment(3000 + 53 * e, 5, None);
        assert_eq!(rows.len(), METHODS + 2);
        alarms.extend(changed(&rows).iter().map(|r| format!("experiment {e}: {} {:?}", r.name.name, r.ratio)));
    }
    println!("5 runs a side, nothing changed: {} false alarms of 420 methods", alarms.len());
    assert!(alarms.len() <= 1, "{alarms:?}");
}

#[test]
fn what_the_verdict_finds_at_three_five_ten_and_thirty_runs_a_side() {
    // Rows of the README's table: runs a side, factor, found of 10, false alarms among the
    // 410 unchanged methods of those experiments.
    let mut table = Vec::new();
    for n in [3, 5, 10, 30] {
        for factor in [1.1, 1.3, 2.0] {
            let (found, alarms) = power_and_alarms(n, factor);
            println!("{n} runs a side, x{factor}: found in {found} of 10, {alarms} false alarms of 410");
            table.push((n, factor, found, alarms));
        }
    }
    let row = |n, factor: f64| table.iter().find(|r| r.0 == n && r.1 == factor).map(|r| (r.2, r.3)).unwrap();
    // Three runs a side give no 95% interval: nothing is named, not even a doubling.
    for factor in [1.1, 1.3, 2.0] {
        assert_eq!(row(3, factor), (0, 0), "x{factor} at 3 a side");
    }
    // Doubling is found from five runs a side on; 1.3x in most experiments of five, in
    // every one of ten; 10% only with thirty.
    for n in [5, 10, 30] {
        assert_eq!(row(n, 2.0).0, 10, "x2 at {n} a side");
    }
    assert!(row(5, 1.3).0 >= 8, "x1.3 at 5 a side: {:?}", row(5, 1.3));
    assert_eq!(row(10, 1.3).0, 10, "x1.3 at 10 a side");
    assert!(row(30, 1.1).0 >= 8, "x1.1 at 30 a side: {:?}", row(30, 1.1));
    // False alarms: at most one in 410.
    for n in [5, 10, 30] {
        for factor in [1.1, 1.3, 2.0] {
            assert!(row(n, factor).1 <= 1, "{n} a side, x{factor}: {:?}", row(n, factor));
        }
    }
}
