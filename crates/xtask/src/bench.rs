//! `cargo xtask bench [--quick]`: builds what the benchmarks need (the release bench binary,
//! dist/ for the wasm and browser runs, Chromium) and runs the suite. The full run writes
//! BENCHMARKS.md; `--quick` (small sizes, part of `cargo xtask test`) writes
//! target/bench/BENCHMARKS-quick.md.
//!
//! `cargo xtask bench --against REV [--quick] [--pairs N]` builds REV's bench binary in a
//! target directory of its own (`target/against/SHA`, kept for the next time) and runs the
//! guard's suite alternately with today's build: a table of ratios, and a failure if any
//! measure is more than 3% slower today.

use crate::command::{output, root, run, run_in};
use crate::tools::{ensure_chromium, ensure_npm};
use std::path::Path;
use std::process::{Command, Stdio};

pub fn bench(quick: bool) -> Result<(), String> {
    crate::dist::dist()?;
    run_suite(quick)
}

/// The suite, with dist/ already built (as `cargo xtask test` has it by then).
pub fn run_suite(quick: bool) -> Result<(), String> {
    ensure_chromium()?;
    ensure_npm(&root().join("tests/browser"))?;
    run("cargo", &["build", "--release", "--quiet", "-p", "droidflame-bench"])?;
    let binary = root().join("target/release/droidflame-bench");
    let binary = binary.to_str().ok_or("the target path is not UTF-8")?;
    let mut args = vec!["report"];
    if quick {
        args.push("--quick");
    }
    run(binary, &args)
}

/// Today's build against REV's (see the module's documentation).
pub fn against(rev: &str, rest: &[String]) -> Result<(), String> {
    let sha =
        output("git", &["-C", root().to_str().unwrap_or("."), "rev-parse", "--verify", &format!("{rev}^{{commit}}")])
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty())
            .ok_or_else(|| format!("{rev:?} is not a commit of this repository (git rev-parse found none)"))?;
    let short = &sha[..sha.len().min(7)];
    let old = build_at(&sha)?;
    run("cargo", &["build", "--release", "--quiet", "-p", "droidflame-bench"])?;
    let today = root().join("target/release/droidflame-bench");
    let mut args = vec!["against", old.to_str().ok_or("the target path is not UTF-8")?, "--label", short];
    args.extend(rest.iter().map(String::as_str));
    run(today.to_str().ok_or("the target path is not UTF-8")?, &args)
}

/// REV's bench binary, built from `git archive` of it into `target/against/SHA`.
fn build_at(sha: &str) -> Result<std::path::PathBuf, String> {
    let dir = root().join("target/against").join(sha);
    let binary = dir.join("droidflame-bench");
    if binary.exists() {
        eprintln!("xtask: {} is built already", &sha[..7]);
        return Ok(binary);
    }
    let src = dir.join("src");
    if src.exists() {
        std::fs::remove_dir_all(&src).map_err(|e| format!("{}: {e}", src.display()))?;
    }
    std::fs::create_dir_all(&src).map_err(|e| format!("{}: {e}", src.display()))?;
    unpack(sha, &src)?;
    let target = dir.join("target");
    let target_arg = target.to_str().ok_or("the target path is not UTF-8")?;
    run_in(&src, "cargo", &["build", "--release", "--quiet", "-p", "droidflame-bench", "--target-dir", target_arg])?;
    std::fs::copy(target.join("release/droidflame-bench"), &binary)
        .map_err(|e| format!("{}: {e}", binary.display()))?;
    // The binary is all that is needed again; its build takes a gigabyte.
    let _ = std::fs::remove_dir_all(&target);
    let _ = std::fs::remove_dir_all(&src);
    Ok(binary)
}

/// `git archive SHA | tar -x -C into`.
fn unpack(sha: &str, into: &Path) -> Result<(), String> {
    eprintln!("xtask: $ git archive {sha} | tar -x -C {}", into.display());
    let mut archive = Command::new("git")
        .args(["archive", "--format=tar", sha])
        .current_dir(root())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start git: {e}"))?;
    let stdout = archive.stdout.take().ok_or("git archive gave no output")?;
    let tar = Command::new("tar").arg("-x").arg("-C").arg(into).stdin(stdout).status();
    let archived = archive.wait().map_err(|e| e.to_string())?;
    match tar {
        Ok(status) if status.success() && archived.success() => Ok(()),
        Ok(_) | Err(_) => Err(format!("could not unpack {sha} into {} with git archive and tar", into.display())),
    }
}
