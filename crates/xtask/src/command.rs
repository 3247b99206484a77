//! Where the project is, and running the commands the tasks are made of.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The workspace's root folder.
pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).ancestors().nth(2).expect("crates/xtask is two levels down").to_path_buf()
}

/// Runs a command in the workspace root; fails with the command line if it fails.
pub(crate) fn run(program: &str, args: &[&str]) -> Result<(), String> {
    run_in(&root(), program, args)
}

pub(crate) fn run_in(folder: &Path, program: &str, args: &[&str]) -> Result<(), String> {
    eprintln!("xtask: $ {program} {}", args.join(" "));
    let status = Command::new(program)
        .args(args)
        .current_dir(folder)
        .status()
        .map_err(|e| format!("cannot start {program}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{program} {}` failed ({status})", args.join(" ")))
    }
}

pub(crate) fn output(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}
