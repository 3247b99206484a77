//! Folded stacks (`frame;frame;frame value`): one line per unique stack of frame names,
//! value = self time in whole microseconds. Overloads share a frame, so their stacks merge.
//! Lines stream out one at a time in sorted order, so output of any size needs no more
//! memory than the profile.

use super::frames::{sanitize, FrameNames, FrameTree, DEFAULT_MAX_DEPTH};
use super::transform::View;
use crate::error::{Error, ErrorKind, Result};
use crate::profile::{Clock, Profile, ThreadProfile};
use std::collections::BTreeMap;
use std::io::Write;

/// Folded text held in memory (`folded`) stops here: a browser cannot hold a longer
/// string (V8's limit is 2^29 characters), and a file this large belongs to the CLI,
/// which streams.
pub const MAX_FOLDED_TEXT: usize = 512 << 20;

/// What `folded` prints.
#[derive(Debug, Clone)]
pub struct FoldedOptions {
    /// `None`: wall where the trace has it, else its only clock.
    pub clock: Option<Clock>,
    /// Only this thread id, without the thread frame. `None`: all threads, each line
    /// starting with the thread's frame (`name [tid]`).
    pub thread: Option<u32>,
    /// Frames deeper than this merge into one `[frames below depth N, merged]` frame
    /// that carries their time.
    pub max_depth: usize,
    /// The transforms, and whether the stacks are inverted.
    pub view: View,
}

impl Default for FoldedOptions {
    fn default() -> Self {
        FoldedOptions { clock: None, thread: None, max_depth: DEFAULT_MAX_DEPTH, view: View::default() }
    }
}

/// The folded text for `options`, at most `MAX_FOLDED_TEXT` bytes. Lines are sorted;
/// lines worth 0 µs are left out.
pub fn folded(profile: &Profile, options: &FoldedOptions) -> Result<String> {
    let mut out = String::new();
    for_each_folded_line(profile, options, |stack, value| {
        if out.len() + stack.len() + 22 > MAX_FOLDED_TEXT {
            return Err(Error::new(
                ErrorKind::Limit,
                format!(
                    "the folded stacks are larger than {} MiB, more than a browser can hold as text; the \
                     droidflame CLI (`droidflame folded`) writes them out as a stream",
                    MAX_FOLDED_TEXT >> 20
                ),
            ));
        }
        out.push_str(stack);
        out.push(' ');
        out.push_str(itoa(value, &mut [0; 20]));
        out.push('\n');
        Ok(())
    })?;
    Ok(out)
}

/// Writes the folded text for `options` to `out` as it is produced.
pub fn write_folded(profile: &Profile, options: &FoldedOptions, out: &mut impl Write) -> Result<()> {
    let failed = |e: std::io::Error| Error::new(ErrorKind::Output, e.to_string());
    for_each_folded_line(profile, options, |stack, value| {
        out.write_all(stack.as_bytes())
            .and_then(|()| out.write_all(b" "))
            .and_then(|()| out.write_all(itoa(value, &mut [0; 20]).as_bytes()))
            .and_then(|()| out.write_all(b"\n"))
            .map_err(failed)
    })?;
    out.flush().map_err(failed)
}

/// Calls `line(stack, value)` for every folded line `options` asks for, in the order
/// `write_folded` writes them.
pub fn for_each_folded_line(
    profile: &Profile,
    options: &FoldedOptions,
    mut line: impl FnMut(&str, u64) -> Result<()>,
) -> Result<()> {
    let clock = options.clock.unwrap_or(profile.default_clock());
    profile.require(clock)?;
    options.view.check(profile)?;
    let names = FrameNames::of_view(profile, options.max_depth, &options.view);
    if let Some(tid) = options.thread {
        let matching: Vec<&ThreadProfile> = profile.stacks().threads.iter().filter(|t| t.tid == tid).collect();
        if matching.is_empty() {
            return Err(no_such_thread(profile, tid));
        }
        let tree = FrameTree::merged(profile, &names, &matching).viewed(profile, &names, &options.view);
        return tree.for_each_stack(profile, &names, clock, None, 0, &mut line);
    }
    // Threads in the order of their lines. Keyed by `label;`: labels hold no `;`, so all
    // of a label's lines sort together in this order. Two logical threads can share a
    // label (id reuse): their trees merge, and so do their equal stacks.
    let mut by_label: BTreeMap<String, Vec<&ThreadProfile>> = BTreeMap::new();
    for thread in &profile.stacks().threads {
        by_label.entry(sanitize(&thread.label()) + ";").or_default().push(thread);
    }
    for (key, threads) in &by_label {
        let tree = FrameTree::merged(profile, &names, threads).viewed(profile, &names, &options.view);
        tree.for_each_stack(profile, &names, clock, Some(&key[..key.len() - 1]), 0, &mut line)?;
    }
    Ok(())
}

fn itoa(value: u64, buffer: &mut [u8; 20]) -> &str {
    let mut at = buffer.len();
    let mut v = value;
    loop {
        at -= 1;
        buffer[at] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    std::str::from_utf8(&buffer[at..]).expect("digits are ASCII")
}

pub(super) fn no_such_thread(profile: &Profile, tid: u32) -> Error {
    let mut known: Vec<String> = profile.stacks().threads.iter().take(12).map(|t| t.tid.to_string()).collect();
    if profile.stacks().threads.len() > 12 {
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
    let names = FrameNames::of(profile, DEFAULT_MAX_DEPTH);
    let tree = FrameTree::merged(profile, &names, &[thread]);
    let mut out = Vec::new();
    let _ = tree.for_each_stack(profile, &names, clock, None, 0, |stack, value| {
        out.push((stack.to_owned(), value));
        Ok::<(), ()>(())
    });
    out
}
