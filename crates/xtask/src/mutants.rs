//! `cargo xtask mutants [--file PATH]... [--in-diff BASE] [--tests T,T] [-- CARGO_TEST_ARGS]`:
//! mutation testing of the core with cargo-mutants (installed at `VERSION` where another is
//! found). Each mutant changes one place where a number is made (an operator, a constant, a
//! function's result) and runs the core's tests; one that every test passes is a test
//! missing, or a change that cannot alter a result (which `.cargo/mutants.toml` then lists
//! with its reason). Without `--file`, the modules where numbers are made (`NUMBER_MODULES`),
//! each into its own report; `--in-diff BASE` keeps the mutants on lines changed since BASE,
//! quick enough before each commit. Reports land in `target/mutants/`.

use crate::command::{root, run};
use crate::core_tests::{corpus_dir, every_test_target};
use std::process::Command;

/// The cargo-mutants release the reports were made with.
const VERSION: &str = "27.1.0";

/// The core's modules (under its `src`) where the numbers users read are made, in the
/// order to run them: statistics, the model's call trees and ranges, the products' tables
/// and comparisons, each format's time, weight and count conversions. Each names the test
/// targets that exercise it (`lib` is the unit tests): a narrower set builds and runs in a
/// third of the time, and a mutant it misses is tried again with every target but
/// `SLOW_TESTS` before it counts as missed.
const NUMBER_MODULES: &[(&str, &[&str])] = &[
    ("stats.rs", &["lib", "verdicts", "many_runs"]),
    ("products/runs/compare.rs", &["lib", "verdicts", "many_runs", "diff"]),
    ("profile/tree.rs", &["lib", "counts", "transforms", "edge_cases", "viewer", "simpleperf", "limits"]),
    (
        "profile/builder/finish.rs",
        &[
            "lib",
            "counts",
            "edge_cases",
            "corpus",
            "simpleperf",
            "perfetto_sources",
            "viewer",
            "calls",
            "limits",
            "perfetto_profiling_written",
        ],
    ),
    ("profile/builder/stack_sink.rs", &["lib", "counts", "edge_cases", "corpus", "calls", "limits", "damage"]),
    ("profile/builder/mod.rs", &["lib", "limits"]),
    ("profile/builder/thread_state.rs", &["lib", "counts", "edge_cases", "corpus", "calls", "limits", "damage"]),
    ("profile/builder/keep.rs", &["lib", "calls", "limits"]),
    ("profile/builder/piece.rs", &["lib", "pieces"]),
    ("profile/builder/facts_sink.rs", &["lib", "limits", "viewer", "damage"]),
    ("profile/builder/names.rs", &["lib", "limits", "damage"]),
    ("profile/builder/system_sink.rs", &["lib", "thread_states", "perfetto_frames_written", "derived_frames"]),
    ("profile/range.rs", &["lib", "counts", "calls", "viewer", "edge_cases", "thread_states"]),
    (
        "products/table.rs",
        &["lib", "counts", "transforms", "callgraph", "viewer", "calls", "perfetto_profiling_written"],
    ),
    ("products/view_methods.rs", &["lib", "counts", "transforms", "viewer", "mapping", "perfetto_profiling_written"]),
    ("products/diff_colour.rs", &["lib", "diff", "viewer"]),
    ("products/app_frames.rs", &["lib", "perfetto_frames_written", "derived_frames", "perfetto_sources"]),
    ("profile/heap.rs", &["lib", "perfetto_sources", "perfetto_profiling_written", "counts"]),
    ("profile/states.rs", &["lib", "thread_states", "perfetto_frames_written", "perfetto_sched"]),
    ("profile/time_log.rs", &["lib", "perfetto_sched"]),
    ("profile/cpu_overview.rs", &["lib", "cpu_overview", "perfetto_sched"]),
    ("products/scheduling.rs", &["lib", "perfetto_sched", "atrace"]),
    ("products/sample_marks.rs", &["lib", "perfetto_sched"]),
    ("products/tracks.rs", &["lib", "perfetto_sched"]),
    ("products/cpu_lanes.rs", &["lib", "cpu_overview", "thread_states", "perfetto_sched"]),
    ("formats/perfetto/sequence.rs", &["lib", "perfetto_sched", "perfetto", "perfetto_profiling_written"]),
    ("profile/clock.rs", &["lib", "edge_cases", "corpus", "counts"]),
    ("formats/sampled.rs", &["lib", "simpleperf", "simpleperf_written", "perfetto_sources", "counts"]),
    ("formats/art/records.rs", &["lib", "corpus", "edge_cases", "damage", "reread", "pieces"]),
    ("formats/art/pieces.rs", &["lib", "pieces"]),
    ("formats/atrace/line.rs", &["lib", "atrace", "atrace_dumps"]),
    ("formats/system/sched.rs", &["lib", "thread_states", "atrace", "perfetto_frames_written", "perfetto"]),
    ("formats/system/thread_sched.rs", &["lib", "thread_states", "atrace", "perfetto_frames_written", "perfetto"]),
    ("formats/system/frames.rs", &["lib", "atrace", "derived_frames", "perfetto_frames_written"]),
    ("formats/perfetto/cpu_samples.rs", &["lib", "perfetto_profiling_written", "perfetto_sources"]),
    ("formats/perfetto/frame_timeline.rs", &["lib", "perfetto_frames_written", "perfetto"]),
    ("formats/simpleperf/samples.rs", &["lib", "simpleperf", "simpleperf_written"]),
    ("mapping/resolve.rs", &["lib", "mapping"]),
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
    // A mutant's build is mostly one rustc on one core; two at once keep two cores busy.
    // Each job has its own copy of the tree and its build (under 1 GB): at most four.
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get()).min(4);
    pass.push(format!("--jobs={jobs}"));
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
    // cargo-mutants' exit codes: 0 all caught, 2 some missed, 3 some timed out (caught: the
    // loop no longer ends); others, the run failed. A run with both misses and timeouts
    // exits 3, so the list of misses decides; they are tried again with every target.
    match status.code() {
        Some(0) => return Ok(()),
        Some(2 | 3) => {}
        _ => return Err(format!("cargo mutants: {status}")),
    }
    let missed_file = out.join("mutants.out/missed.txt");
    let missed = std::fs::read_to_string(&missed_file).map_err(|e| format!("{}: {e}", missed_file.display()))?;
    let names: Vec<String> = missed.lines().filter(|l| !l.is_empty()).map(regex_escape).collect();
    if names.is_empty() {
        return Ok(());
    }
    let outcome = Err(format!("cargo mutants: mutants missed, listed in {}", missed_file.display()));
    let every = every_test_target()?;
    if targets == every.as_slice() {
        return outcome;
    }
    eprintln!("xtask: {} missed by {}; trying them with every test target", names.len(), targets.join(" "));
    // The same files, and of them only the mutants missed.
    let mut again: Vec<String> = selection.chunks(2).filter(|p| p[0] == "--file").flatten().cloned().collect();
    again.push(format!("--re=^({})$", names.join("|")));
    run_mutants(&format!("{name}+every"), &again, &every, test_args)
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
            "--report" => return report(),
            "--recheck" => return recheck(it.next().ok_or("--recheck needs a report's name, as stats")?),
            "--" => test_args.extend(it.by_ref().cloned()),
            other => {
                return Err(format!(
                    "mutants takes --file PATH, --in-diff BASE, --tests T,T, --seeded, --report, --recheck NAME and -- CARGO_TEST_ARGS, not {other:?}"
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
        let known = || {
            let [file] = files.as_slice() else { return None };
            let (_, own) = NUMBER_MODULES.iter().find(|(m, _)| file.ends_with(m))?;
            Some(own.iter().map(|t| t.to_string()).collect::<Vec<_>>())
        };
        let targets = tests.clone().or_else(known).unwrap_or(every);
        return run_mutants(&name, &selection, &targets, &test_args);
    }
    // Every module runs; the ones with mutants missed are named at the end.
    let mut missed = Vec::new();
    for (file, own) in NUMBER_MODULES {
        let targets = tests.clone().unwrap_or_else(|| own.iter().map(|t| t.to_string()).collect());
        let path = format!("crates/droidflame-core/src/{file}");
        if let Err(e) = run_mutants(&report_name(&path), &["--file".to_owned(), path.clone()], &targets, &test_args) {
            eprintln!("xtask: {file}: {e}");
            missed.push(*file);
        }
    }
    match missed.is_empty() {
        true => Ok(()),
        false => Err(format!("mutants missed or runs failed in {missed:?} (cargo xtask mutants --report)")),
    }
}

/// A report's folder: the module's path inside the core's `src`, `/` made `.`.
fn report_name(file: &str) -> String {
    let inside = file.strip_prefix("crates/droidflame-core/src/").unwrap_or(file);
    inside.trim_end_matches(".rs").replace('/', ".")
}

/// The mutants of one report, by outcome (cargo-mutants' `caught.txt`, …: a line each).
fn outcome(report: &std::path::Path, list: &str) -> Vec<String> {
    let text = std::fs::read_to_string(report.join("mutants.out").join(list)).unwrap_or_default();
    text.lines().filter(|l| !l.is_empty()).map(str::to_owned).collect()
}

/// One report's mutants by outcome.
struct Outcomes {
    caught: Vec<String>,
    timeout: Vec<String>,
    unviable: Vec<String>,
    missed: Vec<String>,
}

impl Outcomes {
    fn read(report: &std::path::Path) -> Outcomes {
        Outcomes {
            caught: outcome(report, "caught.txt"),
            timeout: outcome(report, "timeout.txt"),
            unviable: outcome(report, "unviable.txt"),
            missed: outcome(report, "missed.txt"),
        }
    }

    /// The misses a later run of the same code (`+every`) caught or timed out on. Only the
    /// misses count from it: cargo-mutants adds field deletions its `--re` does not filter.
    fn rescue(&mut self, later: &Outcomes) {
        for m in std::mem::take(&mut self.missed) {
            if later.caught.contains(&m) {
                self.caught.push(m);
            } else if later.timeout.contains(&m) {
                self.timeout.push(m);
            } else {
                self.missed.push(m);
            }
        }
    }

    /// A recheck's outcomes (of changed code, whose lines moved) replace these for the
    /// functions where these missed.
    fn supersede(&mut self, recheck: &Outcomes) {
        let functions: Vec<String> = self.missed.iter().map(|m| function_of(m).to_owned()).collect();
        let of_them = |m: &String| functions.iter().any(|f| f == function_of(m));
        for (list, again) in [
            (&mut self.caught, &recheck.caught),
            (&mut self.timeout, &recheck.timeout),
            (&mut self.unviable, &recheck.unviable),
            (&mut self.missed, &recheck.missed),
        ] {
            list.retain(|m| !of_them(m));
            list.extend(again.iter().filter(|m| of_them(m)).cloned());
        }
    }
}

/// `--report`: the score of each report in `target/mutants/` as a Markdown table (for
/// `TESTING.md`); then the mutants still missed. Follow-ups count with their module, in
/// order: `NAME+every` (the misses tried with every test target), `NAME+recheck`
/// (`--recheck`: the functions missed in, mutated again once tests were added) and
/// `NAME+recheck+every`.
pub fn report() -> Result<(), String> {
    let dir = root().join("target/mutants");
    let entries = std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.path().join("mutants.out").is_dir())
        .filter_map(|e| e.file_name().to_str().map(str::to_owned))
        // Follow-ups are counted with their module; a change's own run is not a module.
        .filter(|n| !n.contains('+') && n != "in-diff")
        .collect();
    names.sort();
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    // A closed pipe (`| head`) ends the table quietly.
    let _ = writeln!(out, "| module | tried | caught | timed out | unviable | equivalent | missed |");
    let _ = writeln!(out, "|---|---|---|---|---|---|---|");
    let mut still_missed = Vec::new();
    for name in names {
        let mut outcomes = Outcomes::read(&dir.join(&name));
        let follow_up = |suffix: &str| Some(dir.join(format!("{name}{suffix}"))).filter(|d| d.is_dir());
        if let Some(every) = follow_up("+every") {
            outcomes.rescue(&Outcomes::read(&every));
        }
        if let Some(recheck) = follow_up("+recheck") {
            let mut again = Outcomes::read(&recheck);
            if let Some(every) = follow_up("+recheck+every") {
                again.rescue(&Outcomes::read(&every));
            }
            outcomes.supersede(&again);
        }
        let Outcomes { caught, timeout, unviable, mut missed } = outcomes;
        let mut listed = excluded_by_config(&format!("crates/droidflame-core/src/{}.rs", name.replace('.', "/")))?;
        let before = missed.len();
        missed.retain(|m| !take_one(&mut listed, without_place(m)));
        let equivalent = before - missed.len();
        let tried = caught.len() + timeout.len() + unviable.len() + equivalent + missed.len();
        let _ = writeln!(
            out,
            "| `{name}` | {tried} | {} | {} | {} | {equivalent} | {} |",
            caught.len(),
            timeout.len(),
            unviable.len(),
            missed.len()
        );
        still_missed.extend(missed);
    }
    if !still_missed.is_empty() {
        let _ = writeln!(out, "\nmissed:");
        for m in still_missed {
            let _ = writeln!(out, "- {m}");
        }
    }
    Ok(())
}

/// A mutant's name without its file, line and column: `replace < with <= in f`.
fn without_place(mutant: &str) -> &str {
    mutant.split_once(": ").map_or(mutant, |(_, what)| what)
}

/// The mutants of `file` that `.cargo/mutants.toml` excludes (equivalent, each with its
/// reason there), by `without_place` name: those listed without the settings and not with
/// them. A report made before an exclusion was written counts its misses among them as
/// equivalent.
fn excluded_by_config(file: &str) -> Result<Vec<String>, String> {
    let list = |settings: &[&str]| -> Result<Vec<String>, String> {
        let mut args = vec!["mutants", "--list", "--package", "droidflame-core", "--file", file];
        args.extend(settings);
        let out = Command::new("cargo")
            .args(&args)
            .current_dir(root())
            .output()
            .map_err(|e| format!("cannot start cargo mutants --list: {e}"))?;
        if !out.status.success() {
            return Err(format!("cargo {}: {}", args.join(" "), String::from_utf8_lossy(&out.stderr).trim()));
        }
        Ok(String::from_utf8_lossy(&out.stdout).lines().map(|l| without_place(l).to_owned()).collect())
    };
    let mut all = list(&["--no-config"])?;
    for kept in list(&[])? {
        take_one(&mut all, &kept);
    }
    // `impl Debug` is excluded as output no user reads, not as equivalent.
    all.retain(|m| !m.contains("impl Debug for"));
    Ok(all)
}

/// Removes one `name` from `names` (which may hold it more than once): whether there was one.
fn take_one(names: &mut Vec<String>, name: &str) -> bool {
    let found = names.iter().position(|n| n == name);
    found.map(|i| names.swap_remove(i)).is_some()
}

/// The function a mutant is in, from its name: `…: replace - with + in f` or
/// `…: replace f -> u64 with 0`.
fn function_of(mutant: &str) -> &str {
    let what = without_place(mutant);
    if let Some((_, function)) = what.rsplit_once(" in ") {
        return function;
    }
    let named = what.strip_prefix("replace ").unwrap_or(what);
    named.split(" -> ").next().unwrap_or(named).split(" with ").next().unwrap_or(named)
}

/// `--recheck NAME`: the functions where report `NAME` missed mutants, mutated again (the
/// code as it is now, after tests were added) into `NAME+recheck`, tested as the first
/// run was.
fn recheck(name: &str) -> Result<(), String> {
    let report = root().join("target/mutants").join(name);
    let missed = outcome(&report, "missed.txt");
    let mut functions: Vec<&str> = missed.iter().map(|m| function_of(m)).collect();
    functions.sort();
    functions.dedup();
    if functions.is_empty() {
        return Err(format!("report {name} has no missed mutants to try again"));
    }
    let names: Vec<String> = functions.iter().map(|f| regex_escape(f)).collect();
    let either = names.join("|");
    let file = format!("crates/droidflame-core/src/{}.rs", name.replace('.', "/"));
    let selection = ["--file".to_owned(), file, format!("--re=( in ({either})$)|(: replace ({either}) -> )")];
    let own = NUMBER_MODULES.iter().find(|(m, _)| report_name(m) == name);
    let targets = match own {
        Some((_, own)) => own.iter().map(|t| t.to_string()).collect(),
        None => every_test_target()?,
    };
    run_mutants(&format!("{name}+recheck"), &selection, &targets, &[])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mutants_name_gives_its_change_and_function() {
        let operator = "crates/droidflame-core/src/profile/tree.rs:112:83: replace < with == in CallTree::counts_below";
        assert_eq!(without_place(operator), "replace < with == in CallTree::counts_below");
        assert_eq!(function_of(operator), "CallTree::counts_below");
        let result = "crates/droidflame-core/src/stats.rs:40:5: replace median -> Option<f64> with None";
        assert_eq!(function_of(result), "median");
        let method = "crates/droidflame-core/src/profile/tree.rs:9:5: replace CallTree::is_empty -> bool with false";
        assert_eq!(function_of(method), "CallTree::is_empty");
    }

    #[test]
    fn every_module_and_seeded_bug_names_code_that_is_there() {
        let src = root().join("crates/droidflame-core/src");
        for (file, targets) in NUMBER_MODULES {
            assert!(src.join(file).is_file(), "NUMBER_MODULES names {file}, which is not there");
            assert!(targets.contains(&"lib"), "{file}: its unit tests are among its targets");
        }
        for bug in crate::seeded::SEEDED_BUGS {
            let text = std::fs::read_to_string(src.join(bug.file)).unwrap_or_default();
            assert_eq!(
                text.matches(bug.find).count(),
                1,
                "the seeded bug \"{}\" is to find its text once in {}",
                bug.wrong,
                bug.file
            );
        }
    }

    #[test]
    fn a_name_is_escaped_to_match_only_itself() {
        assert_eq!(regex_escape("replace | with ^ in key"), "replace \\| with \\^ in key");
        assert_eq!(regex_escape("f -> Option<(u64, u32)>"), "f -> Option<\\(u64, u32\\)>");
    }
}
