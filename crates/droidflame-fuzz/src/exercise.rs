//! One input through the analysis, every product and a read of part of it again.

use droidflame_core::profile::ThreadCalls;
use droidflame_core::{analyze_in_pieces, analyze_with, Analysis, Analyzer, Options};

/// Analyses one input, fed in chunks of `chunk` bytes, with every call kept, makes every
/// product, and reads a window of each thread again.
pub fn exercise(bytes: &[u8], chunk: usize) {
    if droidflame_testkit::exercise::exercise(bytes, chunk).is_ok() {
        reread_a_window(bytes, chunk);
    }
}

/// Read in pieces, with and without calls kept and with so few kept that short ones are
/// let go, the input must say what it says read once (the chunk size picks how many
/// pieces), and a window of each thread read again must hold the same calls.
pub fn in_pieces(bytes: &[u8], chunk: usize) {
    let pieces = 2 + chunk % 6;
    for keep_calls in [false, true] {
        let options = Options { keep_calls, ..Options::default() };
        droidflame_testkit::pieces::same_in(bytes, &options, pieces, "a mutated method trace");
    }
    let few = few_calls();
    droidflame_testkit::pieces::same_in(bytes, &few, pieces, "a mutated method trace, calls let go");
    let (Ok(once), Ok((split, _))) = (analyze_with(bytes, few.clone()), analyze_in_pieces(&bytes, few, pieces)) else {
        return;
    };
    for thread in 0..once.profile.stacks().threads.len().min(4) {
        let shown = |calls: Option<ThreadCalls>| {
            calls.map(|c| c.iter().map(|(d, c)| (d, c.start, c.end, c.cpu, c.frame)).collect::<Vec<_>>())
        };
        let want = shown(first_half(&once, bytes, thread, chunk));
        assert_eq!(shown(first_half(&split, bytes, thread, chunk)), want, "thread {thread} read again after pieces");
    }
}

/// Read with the format's front on a thread of its own ahead of its back, with and
/// without calls kept, the input must say what it says read once.
pub fn in_stages(bytes: &[u8], chunk: usize) {
    let options = Options { keep_calls: chunk % 2 == 1, ..Options::default() };
    droidflame_testkit::pieces::same_in(bytes, &options, 2, "a mutated Perfetto capture");
}

/// So few calls kept that short ones are let go, a checkpoint every 256 bytes.
fn few_calls() -> Options {
    Options { keep_calls: true, max_calls: 8, checkpoint_bytes: 256, ..Options::default() }
}

/// With so few calls kept that short ones are let go, each thread's first half is read
/// again from its checkpoints: it must end, and give calls that end after they start.
fn reread_a_window(bytes: &[u8], chunk: usize) {
    let mut analyzer = Analyzer::new(few_calls());
    for piece in bytes.chunks(chunk.max(1)) {
        if analyzer.push(piece).is_err() {
            return;
        }
    }
    let Ok(profile) = analyzer.finish() else { return };
    for thread in 0..profile.profile.stacks().threads.len().min(4) {
        for (_, call) in first_half(&profile, bytes, thread, chunk).unwrap_or_default().iter() {
            assert!(call.start <= call.end, "a call read again ends before it starts");
        }
    }
}

/// `thread`'s calls in the first half of the timeline, short ones read again in chunks of
/// `chunk` bytes; `None` where they cannot be read again.
fn first_half(profile: &Analysis, bytes: &[u8], thread: usize, chunk: usize) -> Option<ThreadCalls> {
    if !profile.profile.can_reread() {
        return None;
    }
    let (start, end) = (profile.profile.system.timeline.start, profile.profile.system.timeline.end);
    let mut reread = profile.reread(thread, start, start + end.saturating_sub(start) / 2).ok()?;
    let mut at = reread.offset() as usize;
    while at < bytes.len() {
        let next = at.saturating_add(chunk.max(1)).min(bytes.len());
        match reread.push(&bytes[at..next]) {
            Ok(false) => at = next,
            Ok(true) | Err(_) => break,
        }
    }
    Some(reread.calls(&profile.profile, thread))
}
