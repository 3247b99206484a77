//! The calls listing: each call with its thread, depth, start, end and times, one per line,
//! tab-separated; all of them in start order, those in a time window, or the longest.

use super::folded::no_such_thread;
use crate::error::{Error, ErrorKind, Result};
use crate::profile::{Call, Clock, Profile};
use crate::text::group_digits;
use std::io::Write;

/// Which calls to list. Times are whole microseconds from the start of the trace's
/// timeline.
#[derive(Debug, Clone, Default)]
pub struct CallQuery {
    /// Only this thread id. `None`: every thread.
    pub thread: Option<u32>,
    /// Only calls of frames with this display name (`Class.method`, a slice's name).
    pub frame: Option<String>,
    /// Only calls that end at or after this time.
    pub from_us: Option<u64>,
    /// Only calls that start at or before this time.
    pub to_us: Option<u64>,
    /// The this many calls with the longest wall time, longest first, instead of every
    /// call in start order.
    pub longest: Option<usize>,
}

/// One call of [`select_calls`]'s answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListedCall {
    /// Index into `StackProfile::threads`.
    pub thread: usize,
    /// The call, in ticks.
    pub call: Call,
    /// Its depth: 0 for the thread's outermost frames.
    pub depth: u32,
    /// Its start in whole µs from the timeline's start.
    pub start_us: u64,
    /// Its end, likewise.
    pub end_us: u64,
}

/// The calls `query` asks for: in start order (callers before the calls they make, then
/// threads in profile order), or the longest first.
pub fn select_calls(profile: &Profile, query: &CallQuery) -> Result<Vec<ListedCall>> {
    profile.require_calls()?;
    let length = profile.micros(profile.system.timeline.length());
    let from = query.from_us.unwrap_or(0);
    let to = query.to_us.unwrap_or(u64::MAX);
    if from > to {
        return Err(request(format!(
            "the range starts ({} µs) after it ends ({} µs)",
            group_digits(from),
            group_digits(to)
        )));
    }
    if from > length {
        return Err(request(format!(
            "the range starts at {} µs, after the trace's timeline ends ({} µs)",
            group_digits(from),
            group_digits(length)
        )));
    }
    if query.longest == Some(0) {
        return Err(request("asked for the 0 longest calls: ask for at least 1".into()));
    }
    let threads: Vec<usize> = match query.thread {
        Some(tid) => {
            let matching: Vec<usize> =
                (0..profile.stacks().threads.len()).filter(|&i| profile.stacks().threads[i].tid == tid).collect();
            if matching.is_empty() {
                return Err(no_such_thread(profile, tid));
            }
            matching
        }
        None => (0..profile.stacks().threads.len()).collect(),
    };
    let frames = match &query.frame {
        Some(name) => Some(frames_named(profile, name)?),
        None => None,
    };
    let origin = profile.system.timeline.start;
    let mut out = Vec::new();
    for &thread in &threads {
        for (depth, call) in profile.stacks().threads[thread].calls.iter() {
            if frames.as_ref().is_some_and(|f| !f[call.frame as usize]) {
                continue;
            }
            let start_us = profile.micros(call.start.saturating_sub(origin));
            let end_us = profile.micros(call.end.saturating_sub(origin));
            if start_us <= to && end_us >= from {
                out.push(ListedCall { thread, call: *call, depth, start_us, end_us });
            }
        }
    }
    match query.longest {
        Some(n) => {
            let longest_first = |a: &ListedCall, b: &ListedCall| {
                b.call
                    .duration()
                    .cmp(&a.call.duration())
                    .then(a.start_us.cmp(&b.start_us))
                    .then(a.thread.cmp(&b.thread))
            };
            if out.len() > n {
                out.select_nth_unstable_by(n - 1, longest_first);
                out.truncate(n);
            }
            out.sort_by(longest_first);
        }
        None => out.sort_by_key(|c| (c.call.start, c.thread, c.depth)),
    }
    Ok(out)
}

/// Writes `tid depth start_us end_us wall_us cpu_us frame` lines. A clock the trace lacks
/// leaves its column empty; a trace with only a CPU clock has no wall times, so its start
/// and end are on each thread's CPU clock. Tabs and line breaks in names are written as
/// `\t`, `\n` and `\r`.
pub fn write_calls(profile: &Profile, query: &CallQuery, out: &mut impl Write) -> Result<()> {
    let failed = |e: std::io::Error| Error::new(ErrorKind::Output, e.to_string());
    let calls = select_calls(profile, query)?;
    let wall = profile.has(Clock::Wall);
    let cpu = profile.has(Clock::Cpu);
    let mut line = String::new();
    for listed in &calls {
        use std::fmt::Write as _;
        line.clear();
        let thread = &profile.stacks().threads[listed.thread];
        let c = &listed.call;
        let _ = write!(line, "{}\t{}\t{}\t{}\t", thread.tid, listed.depth, listed.start_us, listed.end_us);
        if wall {
            let _ = write!(line, "{}", listed.end_us - listed.start_us);
        }
        line.push('\t');
        if cpu {
            let _ = write!(line, "{}", profile.micros(c.cpu));
        }
        line.push('\t');
        push_escaped(&mut line, profile.frame_name(c.frame));
        line.push('\n');
        out.write_all(line.as_bytes()).map_err(failed)?;
    }
    out.flush().map_err(failed)
}

fn push_escaped(line: &mut String, name: &str) {
    for ch in name.chars() {
        match ch {
            '\t' => line.push_str("\\t"),
            '\n' => line.push_str("\\n"),
            '\r' => line.push_str("\\r"),
            _ => line.push(ch),
        }
    }
}

/// Which frames are called `name`, or an error that suggests names like it.
fn frames_named(profile: &Profile, name: &str) -> Result<Vec<bool>> {
    let wanted: Vec<bool> = (0..profile.frames.len()).map(|f| profile.frame_name(f as u32) == name).collect();
    if wanted.iter().any(|&w| w) {
        return Ok(wanted);
    }
    let lower = name.to_lowercase();
    let mut like: Vec<&str> =
        profile.frame_names.iter().filter(|n| n.to_lowercase().contains(&lower)).map(String::as_str).collect();
    like.sort_unstable();
    let hint = match like.len() {
        0 => String::new(),
        n => {
            let shown: Vec<&str> = like.into_iter().take(5).collect();
            let more = if n > 5 { format!(" and {} more", n - 5) } else { String::new() };
            format!("; names containing it: {}{more}", shown.join(", "))
        }
    };
    Err(request(format!("no frame in this trace is named `{name}`{hint}")))
}

fn request(message: String) -> Error {
    Error::new(ErrorKind::Request, message)
}
