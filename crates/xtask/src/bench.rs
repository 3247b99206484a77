//! `cargo xtask bench [--quick]`: builds what the benchmarks need (the release bench binary,
//! dist/ for the wasm and browser runs, Chromium) and runs the suite. The full run writes
//! BENCHMARKS.md; `--quick` (small sizes, part of `cargo xtask test`) writes
//! target/bench/BENCHMARKS-quick.md.

use crate::tools::{ensure_chromium, ensure_npm};
use crate::{root, run};

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
