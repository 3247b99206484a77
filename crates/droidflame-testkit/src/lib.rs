//! Test and benchmark support for droidflame: a writer that emits Android method traces in
//! every layout from a described trace ([`Trace`]), and a seeded generator of random call
//! structures with their expected profile computed independently ([`scenario`]).

pub mod adversarial;
pub mod atrace;
pub mod exercise;
pub mod large;
pub mod mapping;
pub mod perfetto;
pub mod scenario;
pub mod simpleperf;
mod writer;

pub use writer::{gzip, zlib, Clocks, Layout, MethodDef, Record, ThreadDef, TimeFirst, Trace};

pub const ENTER: u8 = 0;
pub const EXIT: u8 = 1;
pub const UNWIND: u8 = 2;

/// The shared trace corpus (`../shared/traces` beside the project root), read in place.
/// `DROIDFLAME_TRACES` overrides it.
pub fn corpus_dir() -> std::path::PathBuf {
    if let Some(dir) = std::env::var_os("DROIDFLAME_TRACES") {
        return dir.into();
    }
    let mut dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    loop {
        let candidate = dir.join("../shared/traces");
        if candidate.is_dir() {
            return candidate;
        }
        if !dir.pop() {
            panic!("../shared/traces was not found above {}; set DROIDFLAME_TRACES", env!("CARGO_MANIFEST_DIR"));
        }
    }
}

/// Reads a corpus file by name.
pub fn corpus_file(name: &str) -> Vec<u8> {
    let path = corpus_dir().join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}
