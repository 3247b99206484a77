//! A group's stacks and methods over its runs: each stack's median (or mean, or sum) of
//! self time, as folded stacks or as one side of a differential graph of medians, and the
//! group's summary JSON with every method's per-run values.

use super::reduced::{by_key, Group, Runs};
use crate::error::{Error, ErrorKind, Result};
use crate::products::diff::Comparison;
use crate::products::diff_tree::DiffTree;
use crate::products::tree::CallTreeTable;
use crate::stats::quantile;
use serde_json::json;
use std::io::Write;

/// What a group's value of a stack is, from its runs' values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Stat {
    /// The median over the runs (a run without the stack counts 0): a typical run. Medians
    /// do not add up: a frame's total is the sum of its stacks' medians, not the median of
    /// its totals.
    #[default]
    Median,
    /// The mean over the runs, rounded: adds up, and keeps stacks that only some runs have.
    Mean,
    /// The sum over the runs.
    Sum,
}

impl Stat {
    /// `median`, `mean` or `sum`.
    pub const fn name(self) -> &'static str {
        match self {
            Stat::Median => "median",
            Stat::Mean => "mean",
            Stat::Sum => "sum",
        }
    }

    fn of(self, values: &[u64], sorted: &mut Vec<f64>) -> u64 {
        match self {
            Stat::Sum => values.iter().fold(0u64, |s, &v| s.saturating_add(v)),
            Stat::Mean => {
                let sum: f64 = values.iter().map(|&v| v as f64).sum();
                (sum / values.len().max(1) as f64).round() as u64
            }
            Stat::Median => {
                sorted.clear();
                sorted.extend(values.iter().map(|&v| v as f64));
                sorted.sort_by(f64::total_cmp);
                quantile(sorted, 0.5).round() as u64
            }
        }
    }
}

impl Runs {
    /// Each stack-tree node's `stat` over `group`'s runs, by node.
    pub(super) fn node_values(&self, group: Group, stat: Stat) -> Vec<u64> {
        let lists: Vec<&[(u32, u64)]> = self.of(group).map(|r| r.stacks.as_slice()).collect();
        let mut out = Vec::with_capacity(self.stacks.tree.len());
        let mut sorted = Vec::with_capacity(lists.len());
        by_key(&lists, self.stacks.tree.len(), |_, values| out.push(stat.of(values, &mut sorted)));
        out
    }

    /// The two groups as one comparison: each stack's median self time on each side, the
    /// input of the differential folded stacks and graph.
    pub fn median_comparison(&self) -> Result<Comparison> {
        let kind = self.ready(&[Group::Before, Group::After])?.clone();
        let [before, after] = [Group::Before, Group::After].map(|g| self.node_values(g, Stat::Median));
        let mut tree: DiffTree = self.stacks.tree.clone();
        tree.set_own(before.into_iter().zip(after).map(|(b, a)| [b, a]));
        let mut warnings = self.warnings.clone();
        if tree.totals() != [0, 0] && tree.unchanged() {
            warnings.push("the medians of both groups are the same in every stack: nothing changed".into());
        }
        let measured = format!(
            "{}, medians of {} and {} runs",
            kind.measured,
            self.count(Group::Before),
            self.count(Group::After)
        );
        let mut comparison = Comparison {
            clock: kind.clock,
            warnings,
            frame_kind: kind.frame_kind,
            unit: kind.unit,
            measured,
            default_thread: None,
            tree,
        };
        comparison.default_thread = comparison.threads().into_iter().next().map(|t| t.name);
        Ok(comparison)
    }
}

/// Writes `group`'s folded stacks (`stack value`, the thread's name first), each stack's
/// value its `stat` over the runs; stacks whose value is 0 are left out.
pub fn write_group_folded(runs: &Runs, group: Group, stat: Stat, out: &mut impl Write) -> Result<()> {
    runs.ready(&[group])?;
    let mut tree = runs.stacks.tree.clone();
    tree.set_own(runs.node_values(group, stat).into_iter().map(|v| [v, 0]));
    let failed = |e: std::io::Error| Error::new(ErrorKind::Output, e.to_string());
    tree.for_each_line(0, &[], |_| true, |stack, value, _| writeln!(out, "{stack} {value}")).map_err(failed)?;
    out.flush().map_err(failed)
}

/// `group`'s call tree, each stack's `stat` over the runs as its self time, on the runs'
/// clock (the other clock's columns hold 0): of the threads named `thread` (node 0 that
/// thread), or of every thread (node 0's children the threads by name) when `None`.
pub fn group_call_tree(runs: &Runs, group: Group, stat: Stat, thread: Option<&str>) -> Result<CallTreeTable> {
    let clock = runs.ready(&[group])?.clock;
    let root = thread.map_or(Ok(0), |name| runs.thread_node(name))?;
    let mut tree = runs.stacks.tree.clone();
    tree.set_own(runs.node_values(group, stat).into_iter().map(|v| [v, 0]));
    Ok(tree.call_tree(root, 0, clock))
}

/// `group`'s runs and methods as JSON: `{schema, clock, unit, runs[{label, total_us}],
/// threads[{name, median_us}], methods[{name, class, method, signature, runs_called,
/// calls_median, incl_median_us, excl_median_us, excl_q1_us, excl_q3_us, excl_min_us,
/// excl_max_us, excl_share_median, calls[], incl_us[], excl_us[]}]}`, the arrays one value
/// per run in `runs` order; methods by median exclusive time, most first.
pub fn group_summary_json(runs: &Runs, group: Group) -> Result<String> {
    let kind = runs.ready(&[group])?;
    let figures = super::compare::figures(runs, group);
    let members: Vec<&super::reduced::Run> = runs.of(group).collect();
    let mut order: Vec<usize> = (0..figures.len()).collect();
    order.sort_by(|&x, &y| figures[y].0.excl_median_us.total_cmp(&figures[x].0.excl_median_us).then_with(|| x.cmp(&y)));
    let methods: Vec<serde_json::Value> = order
        .into_iter()
        .filter(|&id| figures[id].0.called_in > 0)
        .map(|id| {
            let (f, values) = &figures[id];
            let name = &runs.methods[id];
            json!({
                "name": name.name, "class": name.class, "method": name.method, "signature": name.signature,
                "runs_called": f.called_in, "calls_median": f.calls_median,
                "incl_median_us": f.incl_median_us, "excl_median_us": f.excl_median_us,
                "excl_q1_us": f.excl_q1_us, "excl_q3_us": f.excl_q3_us,
                "excl_min_us": f.excl_min_us, "excl_max_us": f.excl_max_us,
                "excl_share_median": f.excl_share_median,
                "calls": values.iter().map(|(t, _)| t.calls).collect::<Vec<_>>(),
                "incl_us": values.iter().map(|(t, _)| t.incl_us).collect::<Vec<_>>(),
                "excl_us": values.iter().map(|(t, _)| t.excl_us).collect::<Vec<_>>(),
            })
        })
        .collect();
    // Each thread name's median over the runs of its time in each.
    let lists: Vec<&[(u32, u64)]> = members.iter().map(|r| r.threads.as_slice()).collect();
    let mut medians = vec![0; runs.stacks.tree.len()];
    let mut sorted = Vec::new();
    by_key(&lists, medians.len(), |node, values| medians[node as usize] = Stat::Median.of(values, &mut sorted));
    let mut threads: Vec<(&str, u64)> =
        runs.stacks.tree.threads().map(|(node, name)| (name, medians[node as usize])).collect();
    threads.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    let threads: Vec<serde_json::Value> =
        threads.into_iter().map(|(name, median)| json!({"name": name, "median_us": median})).collect();
    let summary = json!({
        "schema": 1,
        "clock": kind.clock.name(),
        "unit": kind.unit.name(),
        "runs": members.iter().map(|r| json!({"label": r.label, "total_us": r.total_us})).collect::<Vec<_>>(),
        "threads": threads,
        "methods": methods,
        "warnings": runs.warnings,
    });
    Ok(summary.to_string())
}
