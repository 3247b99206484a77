//! `cargo xtask mutants [--file PATH]... [--in-diff BASE] [-- CARGO_TEST_ARGS]`: mutation
//! testing of the core with cargo-mutants (installed at `VERSION` where another is found).
//! Each mutant changes one place where a number is made (an operator, a constant, a
//! function's result) and runs the core's tests; one that every test passes is a test
//! missing, or a change that cannot alter a result (which `.cargo/mutants.toml` then lists
//! with its reason). Without `--file`, the modules where numbers are made (`NUMBER_MODULES`);
//! `--in-diff BASE` keeps the mutants on lines changed since BASE, quick enough before each
//! commit. Reports land in `target/mutants/`.

use crate::{root, run};
use std::process::Command;

/// The cargo-mutants release the reports were made with.
const VERSION: &str = "27.1.0";

/// The core's modules where the numbers users read are made, in the order to run them:
/// statistics, the model's call trees and ranges, the products' tables and comparisons,
/// each format's time and weight conversions.
const NUMBER_MODULES: &[&str] = &[
    "crates/droidflame-core/src/stats.rs",
    "crates/droidflame-core/src/products/runs/compare.rs",
    "crates/droidflame-core/src/profile/tree.rs",
    "crates/droidflame-core/src/profile/range.rs",
    "crates/droidflame-core/src/products/table.rs",
    "crates/droidflame-core/src/products/view_methods.rs",
    "crates/droidflame-core/src/products/diff_colour.rs",
    "crates/droidflame-core/src/formats/sampled.rs",
    "crates/droidflame-core/src/profile/clock.rs",
];

/// Installs cargo-mutants at `VERSION` unless that one is on the PATH.
fn ensure_cargo_mutants() -> Result<(), String> {
    let found = Command::new("cargo").args(["mutants", "--version"]).output();
    if found.is_ok_and(|o| o.status.success() && String::from_utf8_lossy(&o.stdout).contains(VERSION)) {
        return Ok(());
    }
    eprintln!("xtask: installing cargo-mutants {VERSION} (a few minutes, once)");
    run("cargo", &["install", "cargo-mutants", "--locked", "--version", &format!("={VERSION}")])
}

pub fn mutants(args: &[String]) -> Result<(), String> {
    let mut files: Vec<String> = Vec::new();
    let mut base: Option<String> = None;
    let mut test_args: Vec<String> = Vec::new();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        match flag.as_str() {
            "--file" => files.push(it.next().ok_or("--file needs a path")?.clone()),
            "--in-diff" => base = Some(it.next().ok_or("--in-diff needs a revision (the change's base)")?.clone()),
            "--" => test_args.extend(it.by_ref().cloned()),
            other => {
                return Err(format!("mutants takes --file PATH, --in-diff BASE and -- CARGO_TEST_ARGS, not {other:?}"))
            }
        }
    }
    ensure_cargo_mutants()?;
    let out = root().join("target/mutants");
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut pass: Vec<String> = ["mutants", "--package", "droidflame-core", "--test-workspace=false", "--no-shuffle"]
        .map(str::to_owned)
        .to_vec();
    pass.extend(["--output".to_owned(), out.to_string_lossy().into_owned()]);
    if let Some(base) = base {
        // The change: what the working tree holds against BASE.
        let diff = Command::new("git")
            .args(["diff", &base, "--", "crates/droidflame-core/src"])
            .current_dir(root())
            .output()
            .map_err(|e| format!("git diff {base}: {e}"))?;
        if !diff.status.success() {
            return Err(format!("git diff {base}: {}", String::from_utf8_lossy(&diff.stderr).trim()));
        }
        let patch = out.join("in-diff.patch");
        std::fs::write(&patch, &diff.stdout).map_err(|e| format!("{}: {e}", patch.display()))?;
        pass.extend(["--in-diff".to_owned(), patch.to_string_lossy().into_owned()]);
    } else {
        let chosen: Vec<String> =
            if files.is_empty() { NUMBER_MODULES.iter().map(|f| f.to_string()).collect() } else { files };
        for file in chosen {
            pass.extend(["--file".to_owned(), file]);
        }
    }
    if !test_args.is_empty() {
        pass.push("--".to_owned());
        pass.extend(test_args);
    }
    let pass: Vec<&str> = pass.iter().map(String::as_str).collect();
    run("cargo", &pass)
}
