//! A measurement runs in a fresh process and prints one JSON line; these read it, and the
//! median and spread of several.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs of the comparison in the browser, alternating with one trace opened alone.
pub(crate) const COMPARE_RUNS: usize = 3;

pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).ancestors().nth(2).expect("crates/droidflame-bench is two levels down").into()
}

/// Runs a measurement in a fresh process and parses its JSON line.
pub(crate) fn child(program: &str, args: &[&str]) -> Result<Value, String> {
    child_with_env(program, args, &[])
}

/// `child` with more variables in its environment.
pub(crate) fn child_with_env(program: &str, args: &[&str], env: &[(&str, &str)]) -> Result<Value, String> {
    eprintln!("bench: {program} {}", args.join(" "));
    let out = Command::new(program)
        .args(args)
        .envs(env.iter().copied())
        .current_dir(root())
        .output()
        .map_err(|e| format!("{program}: {e}"))?;
    if !out.status.success() {
        return Err(format!("{program} {}: {}", args.join(" "), String::from_utf8_lossy(&out.stderr).trim()));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().rev().find(|l| l.starts_with('{')).ok_or_else(|| format!("{program} printed no JSON"))?;
    serde_json::from_str(line).map_err(|e| format!("{program}: {e}"))
}

/// The median of `key` over measurement runs.
pub(crate) fn median(runs: &[Value], key: &str) -> Option<f64> {
    let mut v: Vec<f64> = runs.iter().filter_map(|r| r[key].as_f64()).collect();
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied()
}

/// The smallest and largest `key` over measurement runs.
pub(crate) fn spread(runs: &[Value], key: &str) -> (f64, f64) {
    let v: Vec<f64> = runs.iter().filter_map(|r| r[key].as_f64()).collect();
    (v.iter().copied().fold(f64::INFINITY, f64::min), v.iter().copied().fold(0.0, f64::max))
}

pub(crate) fn f(v: &Value, path: &[&str]) -> Option<f64> {
    let mut v = v;
    for key in path {
        v = v.get(key)?;
    }
    v.as_f64()
}
