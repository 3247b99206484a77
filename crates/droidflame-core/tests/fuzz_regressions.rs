//! Every input in tests/fuzz/ (past fuzzer findings) ends in a profile or an error,
//! fed whole and in small chunks, and every product works on what it gives.

use droidflame_core::products::{self, FlameOptions, FoldedOptions, GraphScope};
use droidflame_core::{Analyzer, Clock};

fn exercise(bytes: &[u8], chunk: usize) {
    let mut analyzer = Analyzer::default();
    for piece in bytes.chunks(chunk) {
        if analyzer.push(piece).is_err() {
            return;
        }
    }
    let Ok(profile) = analyzer.finish() else { return };
    let _ = products::summary_json(&profile);
    let _ = products::call_graph_json(&profile);
    for clock in [Clock::Wall, Clock::Cpu] {
        let _ = products::folded(&profile, &FoldedOptions { clock: Some(clock), thread: None });
    }
    let _ = products::flame_svg(&profile, GraphScope::AllThreads, &FlameOptions::default());
}

#[test]
fn past_fuzzer_findings_stay_fixed() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "bin") {
            let bytes = std::fs::read(&path).unwrap();
            for chunk in [bytes.len().max(1), 7, 1] {
                exercise(&bytes, chunk);
            }
        }
    }
}
