//! The Call tree tab and a transform in headless Chromium (`browser-tree.mjs`): each
//! measure's median over runs, and the table the report prints of them.

use crate::measure::{child, f, median, root, spread, COMPARE_RUNS};
use serde_json::Value;
use std::fmt::Write as _;

/// What `browser-tree.mjs` times, in the order the table shows them, with the target each
/// has (ms; none where the issue set none).
const MEASURES: [(&str, &str, Option<f64>); 6] = [
    ("thread_tree_ms", "default thread's tree", Some(100.0)),
    ("all_bottom_up_ms", "every thread bottom-up", Some(300.0)),
    ("transform_tree_ms", "a transform: tree", Some(200.0)),
    ("transform_graph_ms", "then the flame graph", Some(200.0)),
    ("transform_methods_ms", "then the methods", None),
    ("transform_timeline_ms", "then every thread's timeline", None),
];

/// The main-thread's longest task during each step.
const LONGEST: [&str; 4] = [
    "thread_tree_longest_task_ms",
    "all_bottom_up_longest_task_ms",
    "transform_longest_task_ms",
    "transform_timeline_longest_task_ms",
];

/// `COMPARE_RUNS` runs of `browser-tree.mjs` on `file`: each measure's median and range.
pub fn runs(file: &str) -> Result<Value, String> {
    let script = root().join("crates/droidflame-bench/browser-tree.mjs");
    let mut runs = Vec::new();
    for _ in 0..COMPARE_RUNS {
        runs.push(child("node", &[script.to_str().unwrap_or_default(), file])?);
    }
    let mut out = serde_json::Map::new();
    for (key, _, _) in MEASURES {
        let (min, max) = spread(&runs, key);
        out.insert(key.into(), serde_json::json!({ "median": median(&runs, key), "min": min, "max": max }));
    }
    let longest = LONGEST.iter().map(|key| spread(&runs, key).1).fold(0.0, f64::max);
    out.insert("longest_task_ms".into(), longest.into());
    out.insert("runs".into(), runs.len().into());
    Ok(Value::Object(out))
}

/// The report's table of the rows that have `tree` runs.
pub fn table(rows: &[Value]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "\n### The Call tree and a transform in headless Chromium (hosted build; median of {COMPARE_RUNS}, min–max; \
         from the action to the page saying it is ready)\n"
    );
    let heads: Vec<String> = MEASURES
        .iter()
        .map(|(_, words, target)| match target {
            Some(ms) => format!("{words} (< {ms:.0} ms)"),
            None => (*words).to_owned(),
        })
        .collect();
    let _ = writeln!(s, "| case | {} | longest main-thread task |", heads.join(" | "));
    let _ = writeln!(s, "|---|{}---|", "---|".repeat(MEASURES.len()));
    for row in rows.iter().filter(|r| r.get("tree").is_some()) {
        let t = &row["tree"];
        let cells: Vec<String> = MEASURES
            .iter()
            .map(|(key, _, _)| {
                let ms = |part: &str| f(t, &[key, part]).map_or("—".into(), |v| format!("{v:.0}"));
                format!("{} ms ({}–{})", ms("median"), ms("min"), ms("max"))
            })
            .collect();
        let _ = writeln!(
            s,
            "| {} | {} | {} ms |",
            row["case"].as_str().unwrap_or(""),
            cells.join(" | "),
            f(t, &["longest_task_ms"]).unwrap_or(0.0)
        );
    }
    s
}
