//! `cargo xtask mutants --seeded`: wrong-number bugs made by hand, each put into a copy of
//! the core in turn, and the core's tests run against it; each must fail. cargo-mutants
//! changes one operator at a time; these are the bugs a person writes (a unit one step
//! off, a condition that forgets a case, a range one line short), in code whose result a
//! user reads. A bug whose text is no longer in its file is reported, not skipped: the code
//! moved, and the bug is to be written again where it went.

use crate::command::root;
use crate::core_tests::{corpus_dir, every_test_target};
use std::path::Path;
use std::process::Command;

/// One bug: in `file` (under the core's `src`), `find` (found exactly once) becomes `put`.
pub struct SeededBug {
    /// The kind of number it makes wrong.
    pub kind: &'static str,
    /// What a user would read, wrong.
    pub wrong: &'static str,
    pub file: &'static str,
    pub find: &'static str,
    pub put: &'static str,
}

pub const SEEDED_BUGS: &[SeededBug] = &[
    SeededBug {
        kind: "self time",
        wrong: "a method's self time is its inclusive time: its callees' time is not taken off",
        file: "profile/builder/finish.rs",
        find: "node.self_time = clocks(node.incl.since(children_incl[index]));",
        put: "node.self_time = clocks(node.incl);",
    },
    SeededBug {
        kind: "recursion",
        wrong: "a recursive method's inclusive time counts each nested activation again",
        file: "products/table.rs",
        find: "        if outermost {\n            row.incl.add(node.incl);\n        }",
        put: "        row.incl.add(node.incl);",
    },
    SeededBug {
        kind: "a statistic",
        wrong: "the Mann-Whitney p-value's normal approximation without its continuity correction",
        file: "stats.rs",
        find: "let z = ((mean - u) - 0.5).max(0.0) / variance.sqrt();",
        put: "let z = (mean - u).max(0.0) / variance.sqrt();",
    },
    SeededBug {
        kind: "a statistic",
        wrong: "Benjamini-Hochberg q-values without the running minimum from the largest p down",
        file: "stats.rs",
        find: "smallest = smallest.min(p[i] * m as f64 / (rank + 1) as f64);",
        put: "smallest = p[i] * m as f64 / (rank + 1) as f64;",
    },
    SeededBug {
        kind: "clock unwrapping",
        wrong: "a method trace's late tick from just before its 32-bit clock wrapped is put after the wrap",
        file: "formats/art/records.rs",
        find: "            return self.high - (1 << 32) + u64::from(raw);",
        put: "            return self.high + u64::from(raw);",
    },
    SeededBug {
        kind: "a sample's weight",
        wrong: "a CPU-clock sample recorded at a frequency weighs its period in µs, not ns",
        file: "formats/perfetto/cpu_samples.rs",
        find: "(1_000_000_000 / f).max(1)",
        put: "(1_000_000 / f).max(1)",
    },
    SeededBug {
        kind: "a sample's weight",
        wrong: "a simpleperf sample weighs 1 instead of its event count (the CPU time since the last)",
        file: "formats/simpleperf/samples.rs",
        find: "let on_cpu = (role == Role::OnCpu).then(|| self.sample.event_count.unwrap_or(0));",
        put: "let on_cpu = (role == Role::OnCpu).then_some(1);",
    },
    SeededBug {
        kind: "a frame's lateness",
        wrong: "a frame derived from slices ends with its doFrame, not with the RenderThread's DrawFrame after it",
        file: "formats/system/frames.rs",
        find: "let janky = end - frame.start > period;",
        put: "let janky = frame.end - frame.start > period;",
    },
    SeededBug {
        kind: "a frame's lateness",
        wrong: "a frame's overrun is measured from its expected start, not its expected end",
        file: "products/app_frames.rs",
        find: "(Some(end), Some((_, expected))) => Some(at(end) - at(expected)),",
        put: "(Some(end), Some((expected, _))) => Some(at(end) - at(expected)),",
    },
    SeededBug {
        kind: "thread states",
        wrong: "a Perfetto switch's prev_state reads bit 0 (interruptible) as uninterruptible sleep",
        file: "formats/perfetto/events.rs",
        find: "} else if prev_state & 2 != 0 {",
        put: "} else if prev_state & 1 != 0 {",
    },
    SeededBug {
        kind: "thread states",
        wrong: "a thread woken from uninterruptible sleep stays uninterruptible until it runs, not runnable",
        file: "formats/system/sched.rs",
        find: "SchedState::Sleeping | SchedState::Uninterruptible | SchedState::Unknown",
        put: "SchedState::Sleeping | SchedState::Unknown",
    },
    SeededBug {
        kind: "a mapped line",
        wrong: "an R8 line range ends one line early: a frame on its last line loses its original line",
        file: "mapping/resolve.rs",
        find: "if (range.start..=range.end).contains(&at) {",
        put: "if (range.start..range.end).contains(&at) {",
    },
    SeededBug {
        kind: "a time range",
        wrong: "a call begun before a selected range counts its time from its start, not the range's",
        file: "profile/range.rs",
        find: "let inside = call.end.min(to) - call.start.max(from);",
        put: "let inside = call.end.min(to) - call.start;",
    },
    SeededBug {
        kind: "a timestamp",
        wrong: "an atrace timestamp's six fraction digits are read as nanoseconds, not microseconds",
        file: "formats/atrace/line.rs",
        find: "    for _ in frac.len()..9 {",
        put: "    for _ in frac.len()..6 {",
    },
    SeededBug {
        kind: "an allocation count",
        wrong: "a heap profile's allocations not freed count the freed ones too",
        file: "profile/heap.rs",
        find: "self.allocations.saturating_sub(self.frees)",
        put: "self.allocations",
    },
];

/// Copies the working tree's files that git knows (as they are now, changes included)
/// into `to`, leaving what is already there (its `target` keeps the builds).
fn copy_tree(to: &Path) -> Result<(), String> {
    let listed = Command::new("git")
        .args(["ls-files", "-z", "--cached", "--others", "--exclude-standard"])
        .current_dir(root())
        .output()
        .map_err(|e| format!("git ls-files: {e}"))?;
    for name in listed.stdout.split(|&b| b == 0).filter(|n| !n.is_empty()) {
        let name = std::str::from_utf8(name).map_err(|_| "a file name that is not UTF-8".to_owned())?;
        let (from, into) = (root().join(name), to.join(name));
        if !from.is_file() {
            continue; // deleted in the working tree
        }
        if let Some(dir) = into.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        let same = std::fs::read(&into).ok() == std::fs::read(&from).ok();
        if !same {
            std::fs::copy(&from, &into).map_err(|e| format!("{name}: {e}"))?;
        }
    }
    Ok(())
}

/// The names of the tests that failed, from `cargo test`'s output.
fn failed_tests(output: &str) -> Vec<String> {
    output.lines().filter_map(|l| l.strip_prefix("test ")?.strip_suffix(" ... FAILED")).map(str::to_owned).collect()
}

pub fn seeded() -> Result<(), String> {
    let corpus =
        corpus_dir().ok_or("the seeded bugs are caught by tests that read ../shared/traces: set DROIDFLAME_TRACES")?;
    let tree = root().join("target/seeded/tree");
    copy_tree(&tree)?;
    let mut args: Vec<String> =
        ["test", "--package", "droidflame-core", "--profile", "mutation"].map(str::to_owned).to_vec();
    for target in every_test_target()? {
        if target == "lib" {
            args.push("--lib".to_owned());
        } else {
            args.extend(["--test".to_owned(), target]);
        }
    }
    let cargo_test = || {
        Command::new("cargo")
            .args(&args)
            .current_dir(&tree)
            .env("DROIDFLAME_TRACES", &corpus)
            // The project's own target: the dependencies are built once for both trees.
            .env("CARGO_TARGET_DIR", root().join("target"))
            .output()
            .map_err(|e| format!("cannot start cargo: {e}"))
    };
    eprintln!("xtask: the tests on the unchanged copy first");
    let clean = cargo_test()?;
    if !clean.status.success() {
        let text = String::from_utf8_lossy(&clean.stdout);
        return Err(format!("the core's tests fail without any seeded bug: {:?}", failed_tests(&text)));
    }
    let mut missed = Vec::new();
    let mut stale = Vec::new();
    for (n, bug) in SEEDED_BUGS.iter().enumerate() {
        let path = tree.join("crates/droidflame-core/src").join(bug.file);
        let original = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        if original.matches(bug.find).count() != 1 {
            eprintln!("xtask: bug {} ({}): its text is not once in {}: write it again", n + 1, bug.kind, bug.file);
            stale.push(n + 1);
            continue;
        }
        std::fs::write(&path, original.replacen(bug.find, bug.put, 1))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let outcome = cargo_test();
        std::fs::write(&path, &original).map_err(|e| format!("{}: {e}", path.display()))?;
        let outcome = outcome?;
        let text = String::from_utf8_lossy(&outcome.stdout);
        let failed = failed_tests(&text);
        if outcome.status.success() {
            eprintln!("xtask: bug {} ({}) MISSED: {}", n + 1, bug.kind, bug.wrong);
            missed.push(n + 1);
        } else if failed.is_empty() {
            // A build error: the bug no longer compiles where it is.
            eprintln!("xtask: bug {} ({}): the copy does not build with it: write it again", n + 1, bug.kind);
            stale.push(n + 1);
        } else {
            eprintln!("xtask: bug {} ({}) caught by {}: {}", n + 1, bug.kind, failed.join(", "), bug.wrong);
        }
    }
    match (missed.is_empty(), stale.is_empty()) {
        (true, true) => {
            eprintln!("xtask: every one of the {} seeded bugs was caught", SEEDED_BUGS.len());
            Ok(())
        }
        _ => Err(format!("seeded bugs missed: {missed:?}; to write again: {stale:?}")),
    }
}
