//! Instructions a run executes, counted by valgrind's cachegrind: a count that does not move
//! with the machine's load, where wall times on a shared machine spread by 30% from one run
//! to the next. The kernel here gives no hardware counters to `perf stat` (it answers
//! `<not supported>`), so cachegrind simulates the run instead: some 30 to 60 times slower,
//! which is why the guard counts on inputs a tenth of the size it times.

use crate::measure::root;
use std::process::Command;

/// The program that counts.
const VALGRIND: &str = "valgrind";

/// Instructions `program args` executes, all of its threads together, or why they were not
/// counted.
pub fn count(program: &str, args: &[&str]) -> Result<u64, String> {
    eprintln!("bench: counting instructions of {program} {}", args.join(" "));
    let out = Command::new(VALGRIND)
        .args(["--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", program])
        .args(args)
        .current_dir(root())
        .output()
        .map_err(|e| format!("{VALGRIND} (install valgrind to count instructions): {e}"))?;
    let report = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        let last = report.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("");
        return Err(format!("{program} under cachegrind: {last}"));
    }
    refs_of(&report).ok_or_else(|| format!("cachegrind printed no instruction count for {program}"))
}

/// The count in cachegrind's summary line, `==123== I refs:      9,597,238,663` (older
/// releases) or `==123== I   refs:      9,597,238,663`.
pub fn refs_of(report: &str) -> Option<u64> {
    report.lines().find_map(|line| {
        let after = line.split("==").nth(2).unwrap_or(line).trim_start();
        let rest = after.strip_prefix('I')?.trim_start().strip_prefix("refs:")?;
        rest.trim().replace(',', "").parse().ok()
    })
}

/// Whether valgrind can be run here.
pub fn available() -> bool {
    Command::new(VALGRIND).arg("--version").output().is_ok_and(|o| o.status.success())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_count_is_read_from_cachegrinds_summary_in_either_spacing() {
        let report = "==4242== Cachegrind, a high-precision tracing profiler\n==4242== \n\
                      ==4242== I refs:        9,597,238,663\n";
        assert_eq!(refs_of(report), Some(9_597_238_663));
        assert_eq!(refs_of("==7== I   refs:      840,815,946\n==7== I1  misses: 12\n"), Some(840_815_946));
        assert_eq!(refs_of("==7== I1  misses: 12\n"), None);
        assert_eq!(refs_of(""), None);
    }
}
