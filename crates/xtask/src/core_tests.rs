//! The core's test targets and the corpus they read, as mutant runs (cargo-mutants' and
//! the seeded bugs') build and run them in a copy of the tree.

use crate::command::root;

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
