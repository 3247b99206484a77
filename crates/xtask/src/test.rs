//! `cargo xtask test`: everything CI checks, ending with one line
//! `tests: N passed, M failed` that adds up every test runner's counts.

use crate::command::{root, run};
use crate::counts::{cargo_line, counted, counted_with, node_line, Counts};
use crate::tools::{ensure_chromium, ensure_npm, ensure_wasm_target};

pub fn test() -> Result<(), String> {
    let mut counts = Counts::default();
    let result = all(&mut counts);
    // One closing line for the whole run, in the plain form CI reads.
    println!("tests: {} passed, {} failed", counts.passed, counts.failed);
    if result.is_ok() {
        eprintln!("xtask: every check passed");
    }
    result
}

fn all(counts: &mut Counts) -> Result<(), String> {
    run("cargo", &["fmt", "--all", "--", "--check"])?;
    run("cargo", &["clippy", "--workspace", "--all-targets", "--quiet", "--", "-D", "warnings"])?;
    let skipped_list = root().join("target/corpus-skipped.txt");
    let _ = std::fs::remove_file(&skipped_list);
    counted("cargo", &["test", "--workspace"], counts, cargo_line)?;
    // The Python package, installed as the README says, against the CLI just built.
    crate::python::test_python(counts)?;
    ensure_wasm_target()?;
    // The core must keep building for the browser without wasm-bindgen.
    run("cargo", &["build", "--release", "--target", "wasm32-unknown-unknown", "-p", "droidflame-core"])?;
    let dist = crate::dist::dist()?;
    // The page's modules, without a browser; the request table against the wasm module's
    // generated types, which must be there.
    let types = dist.join("pkg/droidflame.d.ts");
    let types = types.to_str().ok_or("the dist path is not UTF-8")?;
    counted_with(
        "node",
        &["--test", "--test-reporter=tap", "www/test/"],
        &[("DROIDFLAME_WASM_TYPES", types)],
        counts,
        node_line,
    )?;
    let corpus = corpus_here();
    if corpus {
        ensure_chromium()?;
        let browser = root().join("tests/browser");
        ensure_npm(&browser)?;
        counted("node", &["--test", "--test-reporter=tap", "tests/browser/"], counts, node_line)?;
    }
    // The benchmark suite at small sizes, so it keeps working between full runs.
    crate::bench::run_suite(true)?;
    if !corpus {
        let skipped = std::fs::read_to_string(&skipped_list).unwrap_or_default();
        eprintln!(
            "\nxtask: SKIPPED, the trace corpus (../shared/traces) is missing: the browser tests (they open its \
             traces) and these corpus tests:\n{}xtask: every generated test ran; CI has the corpus and fails without it\n",
            skipped.lines().collect::<std::collections::BTreeSet<_>>().iter().map(|t| format!("  - {t}\n")).collect::<String>()
        );
    }
    Ok(())
}

/// Whether the shared trace corpus is where the tests look for it. CI sets
/// `DROIDFLAME_REQUIRE_CORPUS`: then a missing corpus is not skipped but fails.
fn corpus_here() -> bool {
    // Where the testkit looks: DROIDFLAME_TRACES, else `../shared/traces` above the project.
    let here = match std::env::var_os("DROIDFLAME_TRACES") {
        Some(dir) => std::path::Path::new(&dir).is_dir(),
        None => root().ancestors().any(|dir| dir.join("../shared/traces").is_dir()),
    };
    here || std::env::var_os("DROIDFLAME_REQUIRE_CORPUS").is_some()
}
