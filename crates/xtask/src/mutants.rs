//! `cargo xtask mutants [--file PATH]... [--in-diff BASE] [--tests T,T] [-- CARGO_TEST_ARGS]`:
//! mutation testing of the core with cargo-mutants (installed at `VERSION` where another is
//! found). Each mutant changes one place where a number is made (an operator, a constant, a
//! function's result) and runs the core's tests; one that every test passes is a test
//! missing, or a change that cannot alter a result (which `.cargo/mutants.toml` then lists
//! with its reason). Without `--file`, the modules where numbers are made (`NUMBER_MODULES`),
//! each into its own report; `--in-diff BASE` keeps the mutants on lines changed since BASE,
//! quick enough before each commit. Reports land in `target/mutants/`.

use crate::{root, run};
use std::process::Command;

/// The cargo-mutants release the reports were made with.
const VERSION: &str = "27.1.0";

/// The core's modules where the numbers users read are made, in the order to run them:
/// statistics, the model's call trees and ranges, the products' tables and comparisons,
/// each format's time and weight conversions. Each names the test targets that exercise it
/// (`lib` is the unit tests), or none for every target but `SLOW_TESTS`: a narrower set
/// builds and runs in a third of the time, and a mutant it misses is tried again with
/// every target before it counts as missed.
const NUMBER_MODULES: &[(&str, &[&str])] = &[
    ("crates/droidflame-core/src/stats.rs", &["lib", "verdicts", "many_runs"]),
    ("crates/droidflame-core/src/products/runs/compare.rs", &["lib", "verdicts", "many_runs", "diff"]),
    ("crates/droidflame-core/src/profile/tree.rs", &[]),
    ("crates/droidflame-core/src/profile/range.rs", &[]),
    ("crates/droidflame-core/src/products/table.rs", &[]),
    ("crates/droidflame-core/src/products/view_methods.rs", &[]),
    ("crates/droidflame-core/src/products/diff_colour.rs", &["lib", "diff", "viewer"]),
    ("crates/droidflame-core/src/formats/sampled.rs", &[]),
    ("crates/droidflame-core/src/profile/clock.rs", &[]),
];

/// Test targets left out of mutant runs. `corpus_damage` cuts every corpus file at many
/// places to check that nothing panics (57 s, four times the rest together); the numbers
/// it could catch wrong are checked by the other targets.
const SLOW_TESTS: &[&str] = &["corpus_damage"];

/// The shared trace corpus, where the testkit finds it from the project: mutants are built
/// and tested in a copy elsewhere, which is told where it is.
pub(crate) fn corpus_dir() -> Option<std::path::PathBuf> {
    match std::env::var_os("DROIDFLAME_TRACES") {
        Some(dir) => Some(std::path::PathBuf::from(dir)).filter(|d| d.is_dir()),
        None => root().ancestors().map(|dir| dir.join("../shared/traces")).find(|d| d.is_dir()),
    }
}

/// Installs cargo-mutants at `VERSION` unless that one is on the PATH.
fn ensure_cargo_mutants() -> Result<(), String> {
    let found = Command::new("cargo").args(["mutants", "--version"]).output();
    if found.is_ok_and(|o| o.status.success() && String::from_utf8_lossy(&o.stdout).contains(VERSION)) {
        return Ok(());
    }
    eprintln!("xtask: installing cargo-mutants {VERSION} (a few minutes, once)");
    run("cargo", &["install", "cargo-mutants", "--locked", "--version", &format!("={VERSION}")])
}

/// Every test target of the core but `SLOW_TESTS`: `lib` and the files of `tests/`.
pub(crate) fn every_test_target() -> Result<Vec<String>, String> {
    let dir = root().join("crates/droidflame-core/tests");
    let entries = std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut targets: Vec<String> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str()?.strip_suffix(".rs").map(str::to_owned))
        .filter(|name| !SLOW_TESTS.contains(&name.as_str()))
        .collect();
    targets.sort();
    targets.insert(0, "lib".to_owned());
    Ok(targets)
}

/// cargo arguments that build and run only these test targets, in both of cargo-mutants'
/// phases (its `--` arguments reach `cargo test` but not the build before it).
fn target_args(targets: &[String]) -> Vec<String> {
    targets
        .iter()
        .map(|t| if t == "lib" { "--cargo-arg=--lib".to_owned() } else { format!("--cargo-arg=--test={t}") })
        .collect()
}

/// One cargo-mutants run: `selection` picks the mutants, reports go to `target/mutants/NAME`.
fn run_mutants(name: &str, selection: &[String], targets: &[String], test_args: &[String]) -> Result<(), String> {
    let out = root().join("target/mutants").join(name);
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut pass: Vec<String> =
        ["mutants", "--package", "droidflame-core", "--test-workspace=false", "--no-shuffle", "--profile", "mutation"]
            .map(str::to_owned)
            .to_vec();
    pass.extend(["--output".to_owned(), out.to_string_lossy().into_owned()]);
    pass.extend(selection.iter().cloned());
    pass.extend(target_args(targets));
    if !test_args.is_empty() {
        pass.push("--".to_owned());
        pass.extend(test_args.iter().cloned());
    }
    eprintln!("xtask: mutants of {name}, tested by {}", targets.join(" "));
    let corpus = corpus_dir().ok_or("the core's tests read ../shared/traces: set DROIDFLAME_TRACES")?;
    eprintln!("xtask: $ cargo {}", pass.join(" "));
    let status = Command::new("cargo")
        .args(&pass)
        .current_dir(root())
        .env("DROIDFLAME_TRACES", &corpus)
        .status()
        .map_err(|e| format!("cannot start cargo: {e}"))?;
    // cargo-mutants fails when a mutant is missed; the narrower set's misses are tried again.
    let outcome = if status.success() { Ok(()) } else { Err(format!("cargo mutants: {status}")) };
    let every = every_test_target()?;
    if outcome.is_ok() || targets == every.as_slice() {
        return outcome;
    }
    let missed_file = out.join("mutants.out/missed.txt");
    let missed = std::fs::read_to_string(&missed_file).map_err(|e| format!("{}: {e}", missed_file.display()))?;
    let names: Vec<String> = missed.lines().filter(|l| !l.is_empty()).map(regex_escape).collect();
    if names.is_empty() {
        return outcome;
    }
    eprintln!("xtask: {} missed by {}; trying them with every test target", names.len(), targets.join(" "));
    let again = [format!("--re=^({})$", names.join("|"))];
    run_mutants(&format!("{name}.every"), &again, &every, test_args)
}

/// `text` matched literally in cargo-mutants' `--re`.
fn regex_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if "\\.+*?()|[]{}^$".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

pub fn mutants(args: &[String]) -> Result<(), String> {
    let mut files: Vec<String> = Vec::new();
    let mut base: Option<String> = None;
    let mut tests: Option<Vec<String>> = None;
    let mut test_args: Vec<String> = Vec::new();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        match flag.as_str() {
            "--file" => files.push(it.next().ok_or("--file needs a path")?.clone()),
            "--in-diff" => base = Some(it.next().ok_or("--in-diff needs a revision (the change's base)")?.clone()),
            "--tests" => {
                let list = it.next().ok_or("--tests needs test targets, as lib,counts,verdicts")?;
                tests = Some(list.split(',').map(str::to_owned).collect());
            }
            "--seeded" => return crate::seeded::seeded(),
            "--" => test_args.extend(it.by_ref().cloned()),
            other => {
                return Err(format!(
                    "mutants takes --file PATH, --in-diff BASE, --tests T,T, --seeded and -- CARGO_TEST_ARGS, not {other:?}"
                ))
            }
        }
    }
    ensure_cargo_mutants()?;
    let every = every_test_target()?;
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
        let patch = root().join("target/mutants/in-diff.patch");
        std::fs::create_dir_all(patch.parent().unwrap()).map_err(|e| format!("target/mutants: {e}"))?;
        std::fs::write(&patch, &diff.stdout).map_err(|e| format!("{}: {e}", patch.display()))?;
        let selection = ["--in-diff".to_owned(), patch.to_string_lossy().into_owned()];
        return run_mutants("in-diff", &selection, tests.as_deref().unwrap_or(&every), &test_args);
    }
    if !files.is_empty() {
        let selection: Vec<String> = files.iter().flat_map(|f| ["--file".to_owned(), f.clone()]).collect();
        let name = if files.len() == 1 { report_name(&files[0]) } else { "files".to_owned() };
        return run_mutants(&name, &selection, tests.as_deref().unwrap_or(&every), &test_args);
    }
    for (file, own) in NUMBER_MODULES {
        let own: Vec<String> = own.iter().map(|t| t.to_string()).collect();
        let targets = tests.clone().unwrap_or(if own.is_empty() { every.clone() } else { own });
        run_mutants(&report_name(file), &["--file".to_owned(), file.to_string()], &targets, &test_args)?;
    }
    Ok(())
}

/// A report's folder: the module's path inside the core's `src`, `/` made `.`.
fn report_name(file: &str) -> String {
    let inside = file.strip_prefix("crates/droidflame-core/src/").unwrap_or(file);
    inside.trim_end_matches(".rs").replace('/', ".")
}
