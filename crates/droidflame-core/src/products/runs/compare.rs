//! Two groups of runs compared method by method: each side's medians over its runs, a
//! two-sided Mann-Whitney U test over the runs' exclusive times (or their shares of each
//! run's time), and a Benjamini-Hochberg correction over every method that can be tested,
//! so that of the methods called significant, the expected share of false alarms is at
//! most `alpha`.

use super::{by_key, Group, MethodName, Runs};
use crate::products::delta::MethodTotals;
use crate::stats::{benjamini_hochberg, mann_whitney, quantile};
use crate::{Error, ErrorKind, Result};
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
    pub shift: f64,
    /// Whether the q-value is at most the test's alpha.
    pub significant: bool,
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

    /// `slower` or `faster` where significant (which way the runs moved, by the test's
    /// shift), else `-`.
    pub fn verdict(&self) -> &'static str {
        match (self.significant, self.shift > 0.0) {
            (false, _) => "-",
            (true, true) => "slower",
            (true, false) => "faster",
        }
    }
}

/// Every method either group called, tested; significant rows first, then by the size of
/// the change of the tested measure's median, then by name.
pub fn compare_groups(runs: &Runs, test: &GroupTest) -> Result<Vec<MethodComparison>> {
    if !(test.alpha > 0.0 && test.alpha < 1.0) {
        return Err(Error::new(ErrorKind::Request, format!("alpha {} is not between 0 and 1", test.alpha)));
    }
    runs.ready(&[Group::Before, Group::After])?;
    let count = runs.methods.len();
    let [before, after] = [Group::Before, Group::After].map(|group| figures(runs, group));
    let mut rows: Vec<MethodComparison> = Vec::with_capacity(count);
    let mut tested: Vec<(usize, f64)> = Vec::new();
    for (id, ((b, b_values), (a, a_values))) in before.into_iter().zip(after).enumerate() {
        let pick = |values: &[(MethodTotals, f64)]| -> Vec<f64> {
            values.iter().map(|&(t, share)| if test.share { share } else { t.excl_us as f64 }).collect()
        };
        let (b_values, a_values) = (pick(&b_values), pick(&a_values));
        let all_tied = b_values.iter().chain(&a_values).all(|&v| v == b_values[0]);
        let result = mann_whitney(&b_values, &a_values);
        if !all_tied {
            tested.push((id, result.p));
        }
        rows.push(MethodComparison {
            id: id as u32,
            name: runs.methods[id].clone(),
            before: b,
            after: a,
            p_value: if all_tied { 1.0 } else { result.p },
            q_value: 1.0,
            shift: result.shift,
            significant: false,
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
    rows.sort_by(|x, y| {
        y.significant
            .cmp(&x.significant)
            .then_with(|| y.change().abs().total_cmp(&x.change().abs()))
            .then_with(|| x.name.name.cmp(&y.name.name))
            .then_with(|| x.name.signature.cmp(&y.name.signature))
    });
    Ok(rows)
}

/// Each method's figures over `group`'s runs, with each run's totals and share of its time.
pub(super) fn figures(runs: &Runs, group: Group) -> Vec<(SideFigures, Vec<(MethodTotals, f64)>)> {
    let count = runs.methods.len();
    let members: Vec<&super::Run> = runs.of(group).collect();
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
}

/// The names of the methods table's columns, in order: `MethodComparison::cells`' order.
pub const GROUP_METHOD_COLUMN_NAMES: [&str; 21] = [
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
];

impl MethodComparison {
    /// The row's values, in the order of `GROUP_METHOD_COLUMN_NAMES`.
    pub fn cells(&self) -> [Cell<'_>; 21] {
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
            Cell::Text(self.verdict()),
        ]
    }
}

/// Writes the comparison as a tab-separated table with a header line. Medians and
/// quartiles are µs (halves where two runs sit in the middle); a change is a signed
/// percentage of before's median (`new` where before's is 0 and after's is not, `-` where
/// both are).
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

/// A p- or q-value: four decimals, or three significant digits below 0.001.
fn probability(p: f64) -> String {
    if p >= 0.001 || p == 0.0 {
        format!("{p:.4}")
    } else {
        format!("{p:.2e}")
    }
}
