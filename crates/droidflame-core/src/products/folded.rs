//! Folded stacks (`frame;frame;frame value`): one line per unique stack of frame names,
//! value = self time in whole microseconds. Overloads share a frame, so their stacks merge.

use super::frames::FrameTree;
use crate::profile::{Clock, Profile, ThreadProfile};
use crate::{Error, ErrorKind, Result};

/// What `folded` prints.
#[derive(Debug, Clone, Default)]
pub struct FoldedOptions {
    /// `None`: wall where the trace has it, else its only clock.
    pub clock: Option<Clock>,
    /// Only this thread id, without the thread frame. `None`: all threads, each line
    /// starting with the thread's frame (`name [tid]`).
    pub thread: Option<u32>,
}

/// The folded text for `options`. Lines are sorted; lines worth 0 µs are left out.
pub fn folded(profile: &Profile, options: &FoldedOptions) -> Result<String> {
    let clock = options.clock.unwrap_or(profile.clocks.default_clock());
    profile.require(clock)?;
    let mut out = String::new();
    let threads: Vec<&ThreadProfile> = match options.thread {
        Some(tid) => {
            let matching: Vec<_> = profile.threads.iter().filter(|t| t.tid == tid).collect();
            if matching.is_empty() {
                return Err(no_such_thread(profile, tid));
            }
            matching
        }
        None => profile.threads.iter().collect(),
    };
    let mut lines = Vec::new();
    let frames = folded_frames(profile);
    for thread in threads {
        let prefix = options.thread.is_none().then(|| sanitize(&thread.label()));
        for (stack, value) in FrameTree::of(profile, thread).stacks(profile, &frames, clock) {
            match &prefix {
                Some(p) => lines.push((format!("{p};{stack}"), value)),
                None => lines.push((stack, value)),
            }
        }
    }
    // Two logical threads can share a tid (id reuse): merge their equal stacks.
    lines.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    lines.dedup_by(|later, kept| {
        let same = later.0 == kept.0;
        if same {
            kept.1 = kept.1.saturating_add(later.1);
        }
        same
    });
    for (stack, value) in lines {
        out.push_str(&stack);
        out.push(' ');
        out.push_str(&value.to_string());
        out.push('\n');
    }
    Ok(out)
}

fn no_such_thread(profile: &Profile, tid: u32) -> Error {
    let mut known: Vec<String> = profile.threads.iter().take(12).map(|t| t.tid.to_string()).collect();
    if profile.threads.len() > 12 {
        known.push("...".into());
    }
    Error::new(
        ErrorKind::Request,
        format!("no thread with id {tid} has records in this trace (thread ids: {})", known.join(", ")),
    )
}

/// One thread's stacks without a thread frame: `(frames joined by ';', self µs)`, sorted
/// by stack, equal stacks merged, zero values left out.
pub fn thread_stacks(profile: &Profile, thread: &ThreadProfile, clock: Clock) -> Vec<(String, u64)> {
    FrameTree::of(profile, thread).stacks(profile, &folded_frames(profile), clock)
}

/// The profile's frame names made safe for folded text.
pub(crate) fn folded_frames(profile: &Profile) -> Vec<String> {
    profile.frames.iter().map(|f| sanitize(f)).collect()
}

/// Folded text cannot hold `;` inside a frame or a line break; replace them.
pub(crate) fn sanitize(name: &str) -> String {
    if name.contains([';', '\n', '\r']) {
        name.replace(';', ":").replace(['\n', '\r'], " ")
    } else {
        name.to_owned()
    }
}
