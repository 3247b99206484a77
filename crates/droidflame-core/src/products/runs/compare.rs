//! Two groups of runs compared method by method: each side's medians over its runs, a
//! two-sided Mann-Whitney U test over the runs' exclusive times (or their shares of each
//! run's time), and a Benjamini-Hochberg correction over every method that can be tested,
//! so that of the methods called significant, the expected share of false alarms is at
//! most `alpha`.
//!
//! With 3 to 10 runs a side, as benchmarks are run, no corrected test can reach
//! significance over dozens of methods (six a side: no p below 2/924). So each method's
//! change is also given as an effect with its uncertainty (the ratio of medians, the
//! Hodges-Lehmann shift with its distribution-free interval), and the verdict names a
//! change where the corrected test finds one, or where the runs leave no doubt of their
//! own: the interval leaves out 0, every run after lies beyond every run before, and the
//! medians differ by at least `MIN_CHANGE`.

use super::reduced::{by_key, Group, MethodName, Runs};
use crate::error::{Error, ErrorKind, Result};
use crate::products::delta::MethodTotals;
use crate::stats::{benjamini_hochberg, hodges_lehmann, mann_whitney, quantile, Shift};
use std::io::Write;

/// How the groups are tested.
#[derive(Debug, Clone, Copy)]
pub struct GroupTest {
    /// The false-discovery rate: a method is significant where its q-value is at most this.
    pub alpha: f64,
    /// Test each run's share of its time instead of its µs: for runs of different lengths.
    pub share: bool,
}

/// The false-discovery rate used unless another is asked for.
pub const DEFAULT_ALPHA: f64 = 0.05;

/// The least change of median (a share of before's) that runs apart without the corrected
/// test may be called a change: smaller ones are within what a device's speed varies by
/// from run to run.
pub const MIN_CHANGE: f64 = 0.05;

/// What a comparison concludes of one method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// It takes longer after.
    Slower,
    /// It takes less time after.
    Faster,
    /// No change the runs show.
    Unchanged,
}

impl Verdict {
    /// `slower`, `faster` or `unchanged`.
    pub const fn name(self) -> &'static str {
        match self {
            Verdict::Slower => "slower",
            Verdict::Faster => "faster",
            Verdict::Unchanged => "unchanged",
        }
    }
}

/// What a verdict of a change rests on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Evidence {
    /// The corrected test: the q-value is at most alpha.
    CorrectedTest,
    /// Too few runs for the corrected test, but every run moved: every run after lies
    /// beyond every run before, the shift's interval leaves out 0, the medians differ by
    /// at least `MIN_CHANGE`.
    EveryRun,
    /// Tested on shares of run time, the share moved but the time did not (its interval
    /// holds 0): shares add up to a whole, so one method's growth moves every other's share.
    /// The verdict is `unchanged`.
    ShareOnly,
    /// Nothing: the verdict is `unchanged`.
    None,
}

impl Evidence {
    /// `corrected test`, `every run`, `share only` or `-`.
    pub const fn name(self) -> &'static str {
        match self {
            Evidence::CorrectedTest => "corrected test",
            Evidence::EveryRun => "every run",
            Evidence::ShareOnly => "share only",
            Evidence::None => "-",
        }
    }
}

impl Default for GroupTest {
    fn default() -> Self {
        GroupTest { alpha: DEFAULT_ALPHA, share: false }
    }
}

/// One method's figures over the runs of one group.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct SideFigures {
    /// Runs in the group.
    pub runs: usize,
    /// Runs that called the method.
    pub called_in: usize,
    /// The median number of calls over the runs (a run that never called it counts 0, as
    /// in every figure here).
    pub calls_median: f64,
    /// The median inclusive time, µs.
    pub incl_median_us: f64,
    /// The median exclusive time, µs.
    pub excl_median_us: f64,
    /// The first quartile of exclusive time, µs.
    pub excl_q1_us: f64,
    /// The third quartile of exclusive time, µs.
    pub excl_q3_us: f64,
    /// The least exclusive time of a run, µs.
    pub excl_min_us: f64,
    /// The most exclusive time of a run, µs.
    pub excl_max_us: f64,
    /// The median share of each run's time spent in the method itself (0 to 1).
    pub excl_share_median: f64,
}

/// A method in both groups, tested.
#[derive(Debug, Clone, PartialEq)]
pub struct MethodComparison {
    /// Its id among `Runs::methods`.
    pub id: u32,
    /// What it is called.
    pub name: MethodName,
    /// Its figures over the runs before.
    pub before: SideFigures,
    /// Its figures over the runs after.
    pub after: SideFigures,
    /// The test's two-sided p-value; 1 where every run has the same value (not tested).
    pub p_value: f64,
    /// The p-value adjusted for the number of methods tested.
    pub q_value: f64,
    /// How far after lies above before (-0.5 to 0.5; see `stats::MannWhitney::shift`).
    pub dominance: f64,
    /// Whether the q-value is at most the test's alpha.
    pub significant: bool,
    /// After's median exclusive time over before's; `None` where before's is 0.
    pub ratio: Option<f64>,
    /// The Hodges-Lehmann shift of exclusive µs, after over before, with its interval.
    pub shift_us: Shift,
    /// Every run after lies beyond every run before, on the side the shift says, in what
    /// was tested.
    pub every_run: bool,
    /// What the runs show.
    pub verdict: Verdict,
    /// On what the verdict rests.
    pub evidence: Evidence,
    /// Whether the test was on shares (else on µs).
    share: bool,
}

impl MethodComparison {
    /// After's median less before's, of what was tested: exclusive µs, or share of the run.
    pub fn change(&self) -> f64 {
        if self.share {
            self.after.excl_share_median - self.before.excl_share_median
        } else {
            self.after.excl_median_us - self.before.excl_median_us
        }
    }
}

/// Every value of `after` lies beyond every value of `before`, on the side `dominance`
/// points to.
fn apart(before: &[f64], after: &[f64], dominance: f64) -> bool {
    let least = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    let most = |v: &[f64]| v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (dominance > 0.0 && least(after) > most(before)) || (dominance < 0.0 && most(after) < least(before))
}

/// The verdict on one method: the corrected test's where it is significant (which way, by
/// the test's dominance), else a change only where every run moved (`Evidence::EveryRun`)
/// and the shift's interval, at 95% at least, leaves out 0. Three runs a side cannot give
/// a 95% interval (their widest is 90%): where every one of a method's three runs moves by
/// chance, one in ten times, nothing is named.
fn verdict(
    significant: bool,
    dominance: f64,
    tested: &Shift,
    every_run: bool,
    ratio: Option<f64>,
) -> (Verdict, Evidence) {
    let way = if dominance > 0.0 { Verdict::Slower } else { Verdict::Faster };
    if significant {
        return (way, Evidence::CorrectedTest);
    }
    let sure = tested.confidence >= 0.95;
    let clear = sure
        && match way {
            Verdict::Slower => tested.low > 0.0 && ratio.is_none_or(|r| r >= 1.0 + MIN_CHANGE),
            _ => tested.high < 0.0 && ratio.is_some_and(|r| r <= 1.0 - MIN_CHANGE),
        };
    if every_run && clear {
        (way, Evidence::EveryRun)
    } else {
        (Verdict::Unchanged, Evidence::None)
    }
}

/// Every method either group called, tested; significant rows first, then the other
/// changes named (every run moved), then by the size of the change of the tested measure's
/// median, then by name.
pub fn compare_groups(runs: &Runs, test: &GroupTest) -> Result<Vec<MethodComparison>> {
    if !(test.alpha > 0.0 && test.alpha < 1.0) {
        return Err(Error::new(ErrorKind::Request, format!("alpha {} is not between 0 and 1", test.alpha)));
    }
    runs.ready(&[Group::Before, Group::After])?;
    let count = runs.methods.len();
    let [before, after] = [Group::Before, Group::After].map(|group| figures(runs, group));
    let mut rows: Vec<MethodComparison> = Vec::with_capacity(count);
    let mut tested: Vec<(usize, f64)> = Vec::new();
    // Each method's shift in what was tested (µs, or shares of run time).
    let mut tested_shifts: Vec<Shift> = Vec::with_capacity(count);
    for (id, ((b, b_runs), (a, a_runs))) in before.into_iter().zip(after).enumerate() {
        let micros =
            |runs: &[(MethodTotals, f64)]| -> Vec<f64> { runs.iter().map(|&(t, _)| t.excl_us as f64).collect() };
        let shares = |runs: &[(MethodTotals, f64)]| -> Vec<f64> { runs.iter().map(|&(_, share)| share).collect() };
        let (b_micros, a_micros) = (micros(&b_runs), micros(&a_runs));
        let (b_shares, a_shares) = (shares(&b_runs), shares(&a_runs));
        let shift_us = hodges_lehmann(&b_micros, &a_micros).expect("both groups have runs");
        let (b_values, a_values) = if test.share { (&b_shares, &a_shares) } else { (&b_micros, &a_micros) };
        let all_tied = b_values.iter().chain(a_values).all(|&v| v == b_values[0]);
        let result = mann_whitney(b_values, a_values);
        if !all_tied {
            tested.push((id, result.p));
        }
        tested_shifts.push(if test.share {
            hodges_lehmann(b_values, a_values).expect("both have runs")
        } else {
            shift_us
        });
        // Apart in µs and in shares of each run's time: a device that ran every run of
        // one group slower moves every method's µs together, but not their shares.
        let every_run = apart(&b_micros, &a_micros, result.shift) && apart(&b_shares, &a_shares, result.shift);
        rows.push(MethodComparison {
            id: id as u32,
            name: runs.methods[id].clone(),
            before: b,
            after: a,
            p_value: if all_tied { 1.0 } else { result.p },
            q_value: 1.0,
            dominance: result.shift,
            significant: false,
            ratio: (b.excl_median_us > 0.0).then(|| a.excl_median_us / b.excl_median_us),
            shift_us,
            every_run,
            verdict: Verdict::Unchanged,
            evidence: Evidence::None,
            share: test.share,
        });
    }
    // Methods whose runs all agree cannot be significant, whatever the groups: leaving them
    // out of the correction does not depend on the groups, so it keeps its guarantee.
    let p: Vec<f64> = tested.iter().map(|&(_, p)| p).collect();
    for (&(id, _), q) in tested.iter().zip(benjamini_hochberg(&p)) {
        rows[id].q_value = q;
        rows[id].significant = q <= test.alpha;
    }
    for (row, tested) in rows.iter_mut().zip(&tested_shifts) {
        (row.verdict, row.evidence) = verdict(row.significant, row.dominance, tested, row.every_run, row.ratio);
        // Shares add up to a whole: where one method grows, every other's share falls
        // though its time did not. A change of share counts only where time agrees.
        let time_agrees = match row.verdict {
            Verdict::Slower => row.shift_us.low > 0.0,
            Verdict::Faster => row.shift_us.high < 0.0,
            Verdict::Unchanged => true,
        };
        if test.share && !time_agrees {
            (row.verdict, row.evidence) = (Verdict::Unchanged, Evidence::ShareOnly);
        }
    }
    rows.sort_by(|x, y| {
        y.significant
            .cmp(&x.significant)
            .then_with(|| (y.verdict != Verdict::Unchanged).cmp(&(x.verdict != Verdict::Unchanged)))
            .then_with(|| y.change().abs().total_cmp(&x.change().abs()))
            .then_with(|| x.name.name.cmp(&y.name.name))
            .then_with(|| x.name.signature.cmp(&y.name.signature))
    });
    Ok(rows)
}

/// Each method's figures over `group`'s runs, with each run's totals and share of its time.
pub(super) fn figures(runs: &Runs, group: Group) -> Vec<(SideFigures, Vec<(MethodTotals, f64)>)> {
    let count = runs.methods.len();
    let members: Vec<&super::reduced::Run> = runs.of(group).collect();
    let lists: Vec<&[(u32, MethodTotals)]> = members.iter().map(|r| r.methods.as_slice()).collect();
    let mut out = Vec::with_capacity(count);
    by_key(&lists, count, |_, totals| {
        let values: Vec<(MethodTotals, f64)> = totals
            .iter()
            .zip(&members)
            .map(|(t, run)| (*t, if run.total_us == 0 { 0.0 } else { t.excl_us as f64 / run.total_us as f64 }))
            .collect();
        let sorted = |f: &dyn Fn(&(MethodTotals, f64)) -> f64| {
            let mut v: Vec<f64> = values.iter().map(f).collect();
            v.sort_by(f64::total_cmp);
            v
        };
        let excl = sorted(&|(t, _)| t.excl_us as f64);
        let figures = SideFigures {
            runs: values.len(),
            called_in: values.iter().filter(|(t, _)| t.calls > 0).count(),
            calls_median: quantile(&sorted(&|(t, _)| t.calls as f64), 0.5),
            incl_median_us: quantile(&sorted(&|(t, _)| t.incl_us as f64), 0.5),
            excl_median_us: quantile(&excl, 0.5),
            excl_q1_us: quantile(&excl, 0.25),
            excl_q3_us: quantile(&excl, 0.75),
            excl_min_us: excl.first().copied().unwrap_or(0.0),
            excl_max_us: excl.last().copied().unwrap_or(0.0),
            excl_share_median: quantile(&sorted(&|&(_, share)| share), 0.5),
        };
        out.push((figures, values));
    });
    out
}

/// One value of a row of the methods table, typed: what the text table writes in words
/// and other tables keep as numbers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Cell<'a> {
    /// Text.
    Text(&'a str),
    /// A count.
    Count(u64),
    /// A median or quartile (µs or calls).
    Number(f64),
    /// A change in percent of before; `None` where before is 0 (`new` where after is not).
    Change(Option<f64>, bool),
    /// A percentage.
    Percent(f64),
    /// A p- or q-value.
    Probability(f64),
    /// Yes or no.
    Flag(bool),
    /// A ratio of medians; `None` where the one below is 0.
    Ratio(Option<f64>),
}

/// The names of the methods table's columns, in order: `MethodComparison::cells`' order.
pub const GROUP_METHOD_COLUMN_NAMES: [&str; 28] = [
    "method",
    "signature",
    "runs_called_before",
    "runs_called_after",
    "calls_median_before",
    "calls_median_after",
    "incl_median_before_us",
    "incl_median_after_us",
    "excl_median_before_us",
    "excl_median_after_us",
    "excl_change",
    "excl_q1_before_us",
    "excl_q3_before_us",
    "excl_q1_after_us",
    "excl_q3_after_us",
    "excl_share_before_pct",
    "excl_share_after_pct",
    "p_value",
    "q_value",
    "significant",
    "verdict",
    "ratio",
    "shift_us",
    "shift_low_us",
    "shift_high_us",
    "shift_confidence",
    "every_run",
    "evidence",
];

impl MethodComparison {
    /// The row's values, in the order of `GROUP_METHOD_COLUMN_NAMES`.
    pub fn cells(&self) -> [Cell<'_>; 28] {
        let (b, a) = (&self.before, &self.after);
        let change = (b.excl_median_us > 0.0).then(|| (a.excl_median_us - b.excl_median_us) * 100.0 / b.excl_median_us);
        [
            Cell::Text(&self.name.name),
            Cell::Text(&self.name.signature),
            Cell::Count(b.called_in as u64),
            Cell::Count(a.called_in as u64),
            Cell::Number(b.calls_median),
            Cell::Number(a.calls_median),
            Cell::Number(b.incl_median_us),
            Cell::Number(a.incl_median_us),
            Cell::Number(b.excl_median_us),
            Cell::Number(a.excl_median_us),
            Cell::Change(change, a.excl_median_us > 0.0),
            Cell::Number(b.excl_q1_us),
            Cell::Number(b.excl_q3_us),
            Cell::Number(a.excl_q1_us),
            Cell::Number(a.excl_q3_us),
            Cell::Percent(b.excl_share_median * 100.0),
            Cell::Percent(a.excl_share_median * 100.0),
            Cell::Probability(self.p_value),
            Cell::Probability(self.q_value),
            Cell::Flag(self.significant),
            Cell::Text(self.verdict.name()),
            Cell::Ratio(self.ratio),
            Cell::Number(self.shift_us.estimate),
            Cell::Number(self.shift_us.low),
            Cell::Number(self.shift_us.high),
            Cell::Probability(self.shift_us.confidence),
            Cell::Flag(self.every_run),
            Cell::Text(self.evidence.name()),
        ]
    }
}

/// Writes the comparison as a tab-separated table with a header line. Medians and
/// quartiles are µs (halves where two runs sit in the middle); a change is a signed
/// percentage of before's median (`new` where before's is 0 and after's is not, `-` where
/// both are); a ratio is after's median over before's (`-` where before's is 0); the
/// shift and its interval are µs, the interval's confidence a fraction.
pub fn write_group_methods(rows: &[MethodComparison], out: &mut impl Write) -> Result<()> {
    let failed = |e: std::io::Error| Error::new(ErrorKind::Output, e.to_string());
    writeln!(out, "{}", GROUP_METHOD_COLUMN_NAMES.join("\t")).map_err(failed)?;
    let mut line = String::new();
    for row in rows {
        line.clear();
        for (i, cell) in row.cells().into_iter().enumerate() {
            if i > 0 {
                line.push('\t');
            }
            match cell {
                Cell::Text(text) => line.push_str(&text.replace(['\t', '\n', '\r'], " ")),
                Cell::Count(n) => line.push_str(&n.to_string()),
                Cell::Number(v) => line.push_str(&number(v)),
                Cell::Change(Some(p), _) => line.push_str(&format!("{p:+.1}%")),
                Cell::Change(None, true) => line.push_str("new"),
                Cell::Change(None, false) => line.push('-'),
                Cell::Percent(p) => line.push_str(&format!("{p:.3}")),
                Cell::Probability(p) => line.push_str(&probability(p)),
                Cell::Flag(yes) => line.push_str(if yes { "yes" } else { "no" }),
                Cell::Ratio(Some(r)) => line.push_str(&ratio(r)),
                Cell::Ratio(None) => line.push('-'),
            }
        }
        writeln!(out, "{line}").map_err(failed)?;
    }
    out.flush().map_err(failed)
}

/// A median or quartile: whole where it is, else to two decimals.
pub(crate) fn number(value: f64) -> String {
    if value.fract() == 0.0 {
        format!("{value:.0}")
    } else {
        let text = format!("{value:.2}");
        text.trim_end_matches('0').to_owned()
    }
}

/// A ratio to three significant digits (`1.03`, `16.6`, `0.512`).
pub(crate) fn ratio(value: f64) -> String {
    if value >= 100.0 {
        format!("{value:.0}")
    } else if value >= 10.0 {
        format!("{value:.1}")
    } else if value >= 1.0 {
        format!("{value:.2}")
    } else {
        format!("{value:.3}")
    }
}

/// A p- or q-value: four decimals, or three significant digits below 0.001.
fn probability(p: f64) -> String {
    if p >= 0.001 || p == 0.0 {
        format!("{p:.4}")
    } else {
        format!("{p:.2e}")
    }
}

#[cfg(test)]
mod tests {
    use super::{apart, verdict, Evidence, Verdict};
    use crate::stats::Shift;

    fn shift(low: f64, high: f64, confidence: f64) -> Shift {
        Shift { estimate: (low + high) / 2.0, low, high, confidence }
    }

    #[test]
    fn a_verdict_without_the_corrected_test_needs_every_run_a_sure_interval_and_five_percent() {
        use Evidence::{CorrectedTest, EveryRun};
        use Verdict::{Faster, Slower, Unchanged};
        let none = (Unchanged, Evidence::None);
        let sure_up = shift(10.0, 30.0, 0.95);
        let sure_down = shift(-30.0, -10.0, 0.95);
        // The corrected test decides alone, the way the dominance points.
        assert_eq!(verdict(true, 0.3, &shift(-1.0, 1.0, 0.9), false, Some(1.0)), (Slower, CorrectedTest));
        assert_eq!(verdict(true, -0.3, &shift(-1.0, 1.0, 0.9), false, Some(1.0)), (Faster, CorrectedTest));
        // Slower on every run: the interval above 0 at 95%, the ratio at least 1.05 (or
        // before's median 0).
        assert_eq!(verdict(false, 0.5, &sure_up, true, Some(1.05)), (Slower, EveryRun));
        assert_eq!(verdict(false, 0.5, &sure_up, true, None), (Slower, EveryRun));
        assert_eq!(verdict(false, 0.5, &sure_up, true, Some(1.04)), none, "under 5%");
        assert_eq!(verdict(false, 0.5, &sure_up, false, Some(2.0)), none, "not every run");
        assert_eq!(verdict(false, 0.5, &shift(0.0, 30.0, 0.95), true, Some(2.0)), none, "the interval holds 0");
        assert_eq!(verdict(false, 0.5, &shift(10.0, 30.0, 0.9), true, Some(2.0)), none, "only 90%");
        // Faster likewise: the interval below 0, the ratio at most 0.95; a ratio unknown
        // (before's median 0) cannot be faster.
        assert_eq!(verdict(false, -0.5, &sure_down, true, Some(0.95)), (Faster, EveryRun));
        assert_eq!(verdict(false, -0.5, &sure_down, true, Some(0.96)), none, "under 5%");
        assert_eq!(verdict(false, -0.5, &sure_down, true, None), none);
        assert_eq!(verdict(false, -0.5, &shift(-30.0, 0.0, 0.95), true, Some(0.5)), none, "the interval holds 0");
        assert_eq!(verdict(false, -0.5, &sure_down, false, Some(0.5)), none, "not every run");
    }

    #[test]
    fn apart_means_every_run_beyond_every_other_on_the_side_named() {
        // Slower: after's least above before's most; touching is not apart.
        assert!(apart(&[1.0, 2.0], &[3.0, 4.0], 0.5));
        assert!(!apart(&[1.0, 3.0], &[3.0, 4.0], 0.5));
        assert!(!apart(&[1.0, 2.0], &[3.0, 4.0], -0.5), "apart, but on the other side");
        // Faster: after's most below before's least.
        assert!(apart(&[3.0, 4.0], &[1.0, 2.0], -0.5));
        assert!(!apart(&[3.0, 4.0], &[1.0, 3.0], -0.5));
        assert!(!apart(&[3.0, 4.0], &[1.0, 2.0], 0.5));
        // No side named (the groups' orderings balance): never apart.
        assert!(!apart(&[1.0, 2.0], &[3.0, 4.0], 0.0));
        assert!(!apart(&[3.0, 4.0], &[1.0, 2.0], 0.0));
    }
}
