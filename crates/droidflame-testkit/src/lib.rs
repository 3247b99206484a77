//! Test and benchmark support for droidflame: a writer that emits Android method traces in
//! every layout from a described trace ([`Trace`]), and a seeded generator of random call
//! structures with their expected profile computed independently ([`scenario`]).

pub mod adversarial;
pub mod app_heap;
pub mod atrace;
pub mod exercise;
pub mod hprof;
pub mod large;
pub mod large_heap;
pub mod mapping;
pub mod perfetto;
pub mod perfetto_frames;
pub mod perfetto_heap;
pub mod perfetto_profiling;
pub mod pieces;
pub mod proto_fields;
pub mod runs;
pub mod scenario;
pub mod simpleperf;
mod writer;

pub use writer::{gzip, zlib, Clocks, Layout, MethodDef, Record, ThreadDef, TimeFirst, Trace, ENTER, EXIT, UNWIND};

/// The shared trace corpus (`../shared/traces` beside the project root), read in place.
/// `DROIDFLAME_TRACES` overrides it.
pub fn corpus_dir() -> std::path::PathBuf {
    find_corpus().unwrap_or_else(|| {
        panic!("../shared/traces was not found above {}; set DROIDFLAME_TRACES", env!("CARGO_MANIFEST_DIR"))
    })
}

fn find_corpus() -> Option<std::path::PathBuf> {
    if let Some(dir) = std::env::var_os("DROIDFLAME_TRACES") {
        let dir = std::path::PathBuf::from(dir);
        return dir.is_dir().then_some(dir);
    }
    let mut dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    loop {
        let candidate = dir.join("../shared/traces");
        if candidate.is_dir() {
            return Some(candidate);
        }
        if !dir.pop() {
            return None;
        }
    }
}

/// Set (as CI sets it) to fail corpus tests when the corpus is missing, instead of
/// skipping them.
pub const REQUIRE_CORPUS: &str = "DROIDFLAME_REQUIRE_CORPUS";

/// Whether the corpus is here for the corpus test `test`. A clone without it runs every
/// generated test and skips the corpus tests: each notes its name in
/// `target/corpus-skipped.txt`, which `cargo xtask test` prints. With `REQUIRE_CORPUS` set,
/// a missing corpus fails the test.
pub fn corpus_present(test: &str) -> bool {
    if find_corpus().is_some() {
        return true;
    }
    if std::env::var_os(REQUIRE_CORPUS).is_some() {
        panic!("{test}: the trace corpus (../shared/traces) is missing and {REQUIRE_CORPUS} is set");
    }
    let list = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/corpus-skipped.txt");
    if let Ok(mut file) = std::fs::OpenOptions::new().create(true).append(true).open(list) {
        use std::io::Write;
        let _ = writeln!(file, "{test}");
    }
    eprintln!("SKIPPED {test}: the trace corpus (../shared/traces) is missing");
    false
}

/// Every trace of the corpus (its folders of traces and heap dumps; not mappings), sorted.
pub fn corpus_traces() -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for dir in ["", "atrace", "hprof", "perfetto", "simpleperf"].map(|d| corpus_dir().join(d)) {
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display())) {
            let path = entry.expect("a directory entry").path();
            if path.is_file() && path.extension().is_none_or(|e| e != "md") {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(files.len() >= 30, "the corpus is at {}", corpus_dir().display());
    files
}

/// Reads a corpus file by name.
pub fn corpus_file(name: &str) -> Vec<u8> {
    let path = corpus_dir().join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}
