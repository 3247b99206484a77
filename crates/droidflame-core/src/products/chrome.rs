//! The calls as Chrome trace-event JSON: one complete event (`"ph":"X"`) per call, with
//! thread and process names as metadata events. Perfetto UI, chrome://tracing, Firefox
//! Profiler and speedscope open it. Written as it goes, one thread at a time, so the
//! output never has to fit in memory. In a view, the events are the view's timeline: each
//! moment's stack as its transforms make it.

use super::transform::View;
use super::view_calls::{viewed_calls, NO_CPU};
use crate::error::{Error, ErrorKind, Result};
use crate::profile::{Clock, Profile, TimeUnit};
use std::collections::BTreeSet;
use std::io::Write;

/// Writes every call of `profile` (analysed with `keep_calls`) as Chrome trace-event
/// JSON, as `view`'s transforms show them on a timeline (a timeline is never inverted:
/// `view.invert` does not apply). Times are µs from the start of the trace's timeline, to
/// the nanosecond where the trace's clock is finer than a microsecond; `tdur` is a call's
/// thread-CPU time where the trace has that clock (and the event is one whole call).
pub fn write_chrome_trace(profile: &Profile, view: &View, out: &mut impl Write) -> Result<()> {
    profile.require_every_call()?;
    view.check(profile)?;
    write_events(profile, view, out)
}

fn output(e: std::io::Error) -> Error {
    Error::new(ErrorKind::Output, e.to_string())
}

fn write_events(profile: &Profile, view: &View, out: &mut impl Write) -> Result<()> {
    write_metadata(profile, out).map_err(output)?;
    let header_pid = profile.facts.format.pid;
    let cpu = profile.has(Clock::Cpu) && profile.has(Clock::Wall);
    let event = Event { time: Micros(profile.stacks().time_unit), origin: profile.system.timeline.start, cpu };
    for (i, thread) in profile.stacks().threads.iter().enumerate() {
        let pid = thread.pid.or(header_pid).unwrap_or(0);
        let tid = thread.tid;
        if view.transforms.is_empty() {
            // Start order with callers first: viewers nest calls that begin together by it.
            for (_, call) in thread.calls.in_start_order() {
                event.write(out, profile.frame_name(call.frame), pid, tid, call).map_err(output)?;
            }
        } else {
            let viewed = viewed_calls(profile, i, &thread.calls, view)?;
            for (_, call) in viewed.calls.in_start_order() {
                event.write(out, viewed.name(profile, call.frame), pid, tid, call).map_err(output)?;
            }
        }
    }
    out.write_all(b"\n]}\n").and_then(|()| out.flush()).map_err(output)
}

/// One call as a complete event.
struct Event {
    time: Micros,
    origin: u64,
    /// The trace has thread-CPU time beside wall time.
    cpu: bool,
}

impl Event {
    fn write(
        &self,
        out: &mut impl Write,
        name: &str,
        pid: u32,
        tid: u32,
        call: &crate::profile::Call,
    ) -> std::io::Result<()> {
        out.write_all(b",\n{\"ph\":\"X\",\"name\":")?;
        json_string(out, name)?;
        write!(out, ",\"pid\":{pid},\"tid\":{tid},\"ts\":")?;
        self.time.write(out, call.start.saturating_sub(self.origin))?;
        out.write_all(b",\"dur\":")?;
        self.time.write(out, call.duration())?;
        if self.cpu && call.cpu != NO_CPU {
            out.write_all(b",\"tdur\":")?;
            self.time.write(out, call.cpu)?;
        }
        out.write_all(b"}")
    }
}

/// The header and the process and thread names: an event per thread at least, so each
/// call's event (which only a thread has) follows a comma.
fn write_metadata(profile: &Profile, out: &mut impl Write) -> std::io::Result<()> {
    let header_pid = profile.facts.format.pid;
    let pid_of = |i: usize| profile.stacks().threads[i].pid.or(header_pid).unwrap_or(0);
    out.write_all(b"{\"displayTimeUnit\":\"ms\",\"traceEvents\":[")?;
    let mut first = true;
    let mut separator = |out: &mut dyn Write| -> std::io::Result<()> {
        if !std::mem::take(&mut first) {
            out.write_all(b",")?;
        }
        out.write_all(b"\n")
    };
    let mut named = BTreeSet::new();
    for (i, thread) in profile.stacks().threads.iter().enumerate() {
        let pid = pid_of(i);
        if let Some(process) = &thread.process {
            if named.insert(pid) {
                separator(out)?;
                write!(out, "{{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":{pid},\"args\":{{\"name\":")?;
                json_string(out, process)?;
                out.write_all(b"}}")?;
            }
        }
        separator(out)?;
        let tid = thread.tid;
        write!(out, "{{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":{pid},\"tid\":{tid},\"args\":{{\"name\":")?;
        json_string(out, &thread.name)?;
        out.write_all(b"}}")?;
        separator(out)?;
        write!(
            out,
            "{{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":{pid},\"tid\":{tid},\"args\":{{\"sort_index\":{i}}}}}"
        )?;
    }
    Ok(())
}

/// Ticks written as µs: whole where a tick is a whole µs, else to the nanosecond.
struct Micros(TimeUnit);

impl Micros {
    fn write(&self, out: &mut impl Write, ticks: u64) -> std::io::Result<()> {
        if self.0 == TimeUnit::MICROS {
            return write!(out, "{ticks}");
        }
        let nanos = u128::from(ticks) * u128::from(self.0.num) * 1000 / u128::from(self.0.den);
        write!(out, "{}.{:03}", nanos / 1000, nanos % 1000)
    }
}

fn json_string(out: &mut impl Write, s: &str) -> std::io::Result<()> {
    serde_json::to_writer(out, s).map_err(std::io::Error::other)
}
