//! Many runs in two groups: each finished session is reduced into `RunGroups` and can be
//! freed at once, so the page holds the reductions, never the runs' profiles.

use crate::convert::{clock, js_error, theme_of};
use crate::session::Session;
use droidflame_core::products::{self, FlameOptions, Group, GroupTest, RunOptions, Runs, Stat, Verdict};
use serde_json::json;
use wasm_bindgen::prelude::*;

/// Runs of one scenario in groups `before` and `after`.
#[wasm_bindgen]
pub struct RunGroups {
    inner: Runs,
}

fn group_of(name: &str) -> Result<Group, JsError> {
    match name {
        "before" => Ok(Group::Before),
        "after" => Ok(Group::After),
        _ => Err(JsError::new(&format!("unknown group {name:?}; use before or after"))),
    }
}

fn stat_of(name: Option<String>) -> Result<Stat, JsError> {
    match name.as_deref() {
        None | Some("") | Some("median") => Ok(Stat::Median),
        Some("mean") => Ok(Stat::Mean),
        Some("sum") => Ok(Stat::Sum),
        Some(other) => Err(JsError::new(&format!("unknown statistic {other:?}; use median, mean or sum"))),
    }
}

#[wasm_bindgen]
impl RunGroups {
    /// No runs yet; `clock` (`wall` or `cpu`; the first run's choice when not given).
    #[wasm_bindgen(constructor)]
    pub fn new(clock_name: Option<String>) -> Result<RunGroups, JsError> {
        Ok(RunGroups { inner: Runs::new(RunOptions { clock: clock(clock_name)?, ..RunOptions::default() }) })
    }

    /// Reduces the finished `run` into `group` under `label`; the session may be freed after.
    pub fn add(&mut self, label: &str, group: &str, run: &Session) -> Result<(), JsError> {
        self.inner.add(label, group_of(group)?, run.profile()?).map_err(js_error)
    }

    /// `{clock, clocks, clock_words: {wall, cpu}, unit, warnings, threads: [name], runs:
    /// [{label, group, total_us}]}`; `clocks`: those every run has.
    #[wasm_bindgen(js_name = factsJson)]
    pub fn facts_json(&self) -> String {
        let runs: Vec<_> = self
            .inner
            .runs()
            .iter()
            .map(|r| json!({ "label": r.label, "group": r.group.name(), "total_us": r.total_us }))
            .collect();
        json!({
            "clock": self.inner.clock().map(|c| c.name()),
            "clocks": self.inner.clocks().iter().map(|c| c.name()).collect::<Vec<_>>(),
            "clock_words": self.inner.clock_words().map(|w| json!({ "wall": w.wall, "cpu": w.cpu })),
            "unit": self.inner.unit().map(|u| u.name()),
            "warnings": self.inner.warnings(),
            "threads": self.inner.thread_names(),
            "runs": runs,
        })
        .to_string()
    }

    /// Every method tested, as a JSON array of `{id, name: {name, class, method,
    /// signature}, before, after, p_value, q_value, significant, verdict, evidence,
    /// every_run, ratio, shift_us, shift_low_us, shift_high_us, shift_confidence, change}`
    /// (`before`/`after`: the side's figures), in the core's order.
    #[wasm_bindgen(js_name = methodsJson)]
    pub fn methods_json(&self, alpha: f64, share: bool) -> Result<String, JsError> {
        let rows = products::compare_groups(&self.inner, &GroupTest { alpha, share }).map_err(js_error)?;
        let list: Vec<_> = rows
            .iter()
            .map(|r| {
                json!({ "id": r.id, "name": r.name, "before": r.before, "after": r.after, "p_value": r.p_value,
                        "q_value": r.q_value, "significant": r.significant, "verdict": r.verdict.name(),
                        "evidence": r.evidence.name(), "every_run": r.every_run, "ratio": r.ratio,
                        "shift_us": r.shift_us.estimate, "shift_low_us": r.shift_us.low,
                        "shift_high_us": r.shift_us.high, "shift_confidence": r.shift_us.confidence,
                        "change": r.change() })
            })
            .collect();
        Ok(serde_json::Value::Array(list).to_string())
    }

    /// The names of the methods whose change the runs show (their verdict is not
    /// `unchanged`), at false-discovery rate `alpha`, tested on shares where `share`: what a
    /// differential graph of the medians colours.
    #[wasm_bindgen(js_name = changedNames)]
    pub fn changed_names(&self, alpha: f64, share: bool) -> Result<Vec<String>, JsError> {
        let rows = products::compare_groups(&self.inner, &GroupTest { alpha, share }).map_err(js_error)?;
        Ok(rows.into_iter().filter(|r| r.verdict != Verdict::Unchanged).map(|r| r.name.name).collect())
    }

    /// Method `id`'s totals in each run: `{before: [{label, calls, incl_us, excl_us,
    /// total_us}], after: [...]}`.
    #[wasm_bindgen(js_name = methodRunsJson)]
    pub fn method_runs_json(&self, id: u32) -> String {
        let side = |group| -> Vec<_> {
            self.inner
                .method_runs(id, group)
                .map(|(run, t)| {
                    json!({ "label": run.label, "calls": t.calls, "incl_us": t.incl_us, "excl_us": t.excl_us,
                            "total_us": run.total_us })
                })
                .collect()
        };
        json!({ "before": side(Group::Before), "after": side(Group::After) }).to_string()
    }

    /// The flame graph of `group`'s `stat` (`median`, `mean`, `sum`) per stack, of the
    /// threads named `thread` (all when not given), in `theme`.
    #[wasm_bindgen(js_name = groupSvg)]
    pub fn group_svg(
        &self,
        group: &str,
        stat: Option<String>,
        thread: Option<String>,
        theme: Option<String>,
    ) -> Result<String, JsError> {
        let options = FlameOptions { theme: theme_of(theme)?, ..FlameOptions::default() };
        products::group_flame_svg(&self.inner, group_of(group)?, stat_of(stat)?, thread.as_deref(), &options)
            .map_err(js_error)
    }

    /// The call tree of `group`'s `stat` per stack (as `groupSvg`), of the threads named
    /// `thread` (node 0 that thread) or of all (node 0's children the threads), on the
    /// runs' clock; no calls.
    #[wasm_bindgen(js_name = groupTree)]
    pub fn group_tree(
        &self,
        group: &str,
        stat: Option<String>,
        thread: Option<String>,
    ) -> Result<crate::columns::CallTreeColumns, JsError> {
        let table = products::group_call_tree(&self.inner, group_of(group)?, stat_of(stat)?, thread.as_deref())
            .map_err(js_error)?;
        Ok(crate::columns::CallTreeColumns { table })
    }

    /// The groups' medians as one comparison (`Comparison`: its graph and stacks).
    #[wasm_bindgen(js_name = medianComparison)]
    pub fn median_comparison(&self) -> Result<super::compare::Comparison, JsError> {
        Ok(super::compare::Comparison::from(self.inner.median_comparison().map_err(js_error)?))
    }
}
