//! The fuzzer's parts, shared by its binary and by the replay of past findings.

pub mod mapping;
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
    reread_a_window(bytes, chunk);
    if profile.records < 20_000 {
        let _ = products::flame_svg(&profile, GraphScope::AllThreads, &FlameOptions::default());
        let shallow = FlameOptions { max_depth: 2, ..Default::default() };
        let _ = products::flame_svg(&profile, GraphScope::Thread(0), &shallow);
    }
}

/// With so few calls kept that short ones are let go, each thread's first half is read
/// again from its checkpoints: it must end, and give calls that end after they start.
fn reread_a_window(bytes: &[u8], chunk: usize) {
    let options = Options { keep_calls: true, max_calls: 8, checkpoint_bytes: 256, ..Options::default() };
    let mut analyzer = Analyzer::new(options);
    for piece in bytes.chunks(chunk.max(1)) {
        if analyzer.push(piece).is_err() {
            return;
        }
    }
    let Ok(profile) = analyzer.finish() else { return };
    if !profile.can_reread() {
        return;
    }
    let (start, end) = (profile.timeline.start, profile.timeline.end);
    for thread in 0..profile.threads.len().min(4) {
        let Ok(mut reread) = profile.reread(thread, start, start + end.saturating_sub(start) / 2) else { continue };
        let mut at = reread.offset() as usize;
        while at < bytes.len() {
            let next = at.saturating_add(chunk.max(1)).min(bytes.len());
            match reread.push(&bytes[at..next]) {
                Ok(false) => at = next,
                Ok(true) | Err(_) => break,
            }
        }
        for (_, call) in reread.calls(&profile, thread).iter() {
            assert!(call.start <= call.end, "a call read again ends before it starts");
        }
    }
}
