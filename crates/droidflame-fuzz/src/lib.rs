//! The fuzzer's parts, shared by its binary and by the replay of past findings.

pub mod mutate;
pub mod targets;

use droidflame_core::products::{self, CallQuery, FlameOptions, FoldedOptions, GraphScope};
use droidflame_core::{Analyzer, Clock, Options};

/// Analyses one input, fed in chunks of `chunk` bytes, with every call kept, and runs
/// every product.
pub fn exercise(bytes: &[u8], chunk: usize) {
    let mut analyzer = Analyzer::new(Options { keep_calls: true, ..Options::default() });
    for piece in bytes.chunks(chunk.max(1)) {
        if analyzer.push(piece).is_err() {
            return;
        }
    }
    let Ok(profile) = analyzer.finish() else { return };
    let _ = products::summary_json(&profile);
    let _ = products::methods_json(&profile, None);
    let _ = products::methods_json(&profile, Some(0));
    for clock in [Clock::Wall, Clock::Cpu] {
        let _ = products::folded(&profile, &FoldedOptions { clock: Some(clock), thread: None, ..Default::default() });
    }
    // One thread, with the depth merge at a depth fuzzed traces reach.
    let thread = profile.threads.first().map(|t| t.tid);
    let _ = products::folded(&profile, &FoldedOptions { thread, max_depth: 3, ..Default::default() });
    for thread in &profile.threads {
        for (_, call) in thread.calls.iter() {
            assert!(call.start <= call.end, "a call ends before it starts");
        }
    }
    let _ = products::write_calls(&profile, &CallQuery::default(), &mut std::io::sink());
    let _ =
        products::write_calls(&profile, &CallQuery { longest: Some(5), ..Default::default() }, &mut std::io::sink());
    let _ = products::write_chrome_trace(&profile, &mut std::io::sink());
    if profile.records < 20_000 {
        let _ = products::flame_svg(&profile, GraphScope::AllThreads, &FlameOptions::default());
        let shallow = FlameOptions { max_depth: 2, ..Default::default() };
        let _ = products::flame_svg(&profile, GraphScope::Thread(0), &shallow);
    }
}
