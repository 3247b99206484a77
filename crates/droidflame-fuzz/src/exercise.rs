//! One input through the analysis, every product and a read of part of it again.

use droidflame_core::{Analyzer, Options};

/// Analyses one input, fed in chunks of `chunk` bytes, with every call kept, makes every
/// product, and reads a window of each thread again.
pub fn exercise(bytes: &[u8], chunk: usize) {
    if droidflame_testkit::exercise::exercise(bytes, chunk).is_ok() {
        reread_a_window(bytes, chunk);
    }
}

/// Read in pieces, with and without calls kept, the input must say what it says read
/// once (the chunk size picks how many pieces).
pub fn in_pieces(bytes: &[u8], chunk: usize) {
    let pieces = 2 + chunk % 6;
    for keep_calls in [false, true] {
        let options = Options { keep_calls, ..Options::default() };
        droidflame_testkit::pieces::same_in(bytes, &options, pieces, "a mutated method trace");
    }
}

/// Read with the format's front on a thread of its own ahead of its back, with and
/// without calls kept, the input must say what it says read once.
pub fn in_stages(bytes: &[u8], chunk: usize) {
    let options = Options { keep_calls: chunk % 2 == 1, ..Options::default() };
    droidflame_testkit::pieces::same_in(bytes, &options, 2, "a mutated Perfetto capture");
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
    if !profile.profile.can_reread() {
        return;
    }
    let (start, end) = (profile.profile.system.timeline.start, profile.profile.system.timeline.end);
    for thread in 0..profile.profile.stacks().threads.len().min(4) {
        let Ok(mut reread) = profile.reread(thread, start, start + end.saturating_sub(start) / 2) else { continue };
        let mut at = reread.offset() as usize;
        while at < bytes.len() {
            let next = at.saturating_add(chunk.max(1)).min(bytes.len());
            match reread.push(&bytes[at..next]) {
                Ok(false) => at = next,
                Ok(true) | Err(_) => break,
            }
        }
        for (_, call) in reread.calls(&profile.profile, thread).iter() {
            assert!(call.start <= call.end, "a call read again ends before it starts");
        }
    }
}
