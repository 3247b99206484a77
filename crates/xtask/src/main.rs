//! `cargo xtask <task>`: the project's build and test entry points.
//!
//! - `test`: every check CI runs. Formatting, clippy, all workspace tests, and the wasm32
//!   builds of the core and the bindings. Installs the wasm32 target if it is missing.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("test") => test(),
        Some("help") | Some("--help") | Some("-h") | None => {
            println!("usage: cargo xtask <task>\n\ntasks:\n  test   run every test and check (what CI runs)");
            Ok(())
        }
        Some(other) => Err(format!("unknown task {other:?}; try `cargo xtask help`")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("crates/xtask is two levels down")
        .to_path_buf()
}

/// Runs a command in the workspace root; fails with the command line if it fails.
fn run(program: &str, args: &[&str]) -> Result<(), String> {
    eprintln!("xtask: $ {program} {}", args.join(" "));
    let status = Command::new(program)
        .args(args)
        .current_dir(root())
        .status()
        .map_err(|e| format!("cannot start {program}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{program} {}` failed ({status})", args.join(" ")))
    }
}

fn output(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

fn ensure_wasm_target() -> Result<(), String> {
    let installed = output("rustup", &["target", "list", "--installed"]).unwrap_or_default();
    if installed
        .lines()
        .any(|l| l.trim() == "wasm32-unknown-unknown")
    {
        return Ok(());
    }
    run("rustup", &["target", "add", "wasm32-unknown-unknown"])
}

fn test() -> Result<(), String> {
    run("cargo", &["fmt", "--all", "--", "--check"])?;
    run(
        "cargo",
        &[
            "clippy",
            "--workspace",
            "--all-targets",
            "--quiet",
            "--",
            "-D",
            "warnings",
        ],
    )?;
    let (passed, failed) = cargo_test(&["test", "--workspace"])?;
    ensure_wasm_target()?;
    // The core must keep building for the browser; the bindings too.
    run(
        "cargo",
        &[
            "build",
            "--release",
            "--target",
            "wasm32-unknown-unknown",
            "-p",
            "droidflame-core",
            "-p",
            "droidflame-wasm",
        ],
    )?;
    eprintln!("xtask: every check passed");
    // One closing line for the whole run, in the plain form CI reads.
    println!("tests: {passed} passed, {failed} failed");
    Ok(())
}

/// Runs `cargo test`, echoing its output and adding up its "test result" lines.
fn cargo_test(args: &[&str]) -> Result<(u64, u64), String> {
    eprintln!("xtask: $ cargo {}", args.join(" "));
    let mut child = Command::new("cargo")
        .args(args)
        .current_dir(root())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start cargo: {e}"))?;
    let (mut passed, mut failed) = (0, 0);
    let stdout = child.stdout.take().expect("stdout is piped");
    for line in BufReader::new(stdout).lines() {
        let line = line.map_err(|e| format!("cannot read cargo's output: {e}"))?;
        println!("{line}");
        if let Some(rest) = line.strip_prefix("test result: ") {
            let count = |word: &str| -> u64 {
                rest.split(';')
                    .find_map(|part| {
                        part.trim()
                            .strip_suffix(word)?
                            .trim()
                            .rsplit(' ')
                            .next()?
                            .parse()
                            .ok()
                    })
                    .unwrap_or(0)
            };
            passed += count("passed");
            failed += count("failed");
        }
    }
    let status = child
        .wait()
        .map_err(|e| format!("cargo did not finish: {e}"))?;
    if !status.success() {
        println!("tests: {passed} passed, {failed} failed");
        return Err(format!("`cargo {}` failed ({status})", args.join(" ")));
    }
    Ok((passed, failed))
}
