//! Counting the tests every runner reports (cargo, node, pytest), for the one closing line
//! of `cargo xtask test`.

use crate::command::root;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

#[derive(Default)]
pub(crate) struct Counts {
    pub passed: u64,
    pub failed: u64,
}

/// Runs a test command, echoing its output and adding up what `parse` finds in it.
pub(crate) fn counted(
    program: &str,
    args: &[&str],
    counts: &mut Counts,
    parse: fn(&str, &mut Counts),
) -> Result<(), String> {
    counted_with(program, args, &[], counts, parse)
}

/// `counted`, with these variables set for the command.
pub(crate) fn counted_with(
    program: &str,
    args: &[&str],
    vars: &[(&str, &str)],
    counts: &mut Counts,
    parse: fn(&str, &mut Counts),
) -> Result<(), String> {
    eprintln!("xtask: $ {program} {}", args.join(" "));
    let mut child = Command::new(program)
        .args(args)
        .envs(vars.iter().copied())
        .current_dir(root())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {program}: {e}"))?;
    let stdout = child.stdout.take().expect("stdout is piped");
    for line in BufReader::new(stdout).lines() {
        let line = line.map_err(|e| format!("cannot read {program}'s output: {e}"))?;
        println!("{line}");
        parse(&line, counts);
    }
    let status = child.wait().map_err(|e| format!("{program} did not finish: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{program} {}` failed ({status})", args.join(" ")))
    }
}

/// `test result: ok. 14 passed; 0 failed; ...`
pub(crate) fn cargo_line(line: &str, counts: &mut Counts) {
    let Some(rest) = line.strip_prefix("test result: ") else {
        return;
    };
    let count = |word: &str| -> u64 {
        rest.split(';')
            .find_map(|part| part.trim().strip_suffix(word)?.trim().rsplit(' ').next()?.parse().ok())
            .unwrap_or(0)
    };
    counts.passed += count("passed");
    counts.failed += count("failed");
}

/// node's TAP summary: `# pass 12`, `# fail 0`.
pub(crate) fn node_line(line: &str, counts: &mut Counts) {
    if let Some(n) = line.strip_prefix("# pass ").and_then(|n| n.trim().parse::<u64>().ok()) {
        counts.passed += n;
    }
    if let Some(n) = line.strip_prefix("# fail ").and_then(|n| n.trim().parse::<u64>().ok()) {
        counts.failed += n;
    }
}
