//! The calls as Chrome trace-event JSON: one complete event (`"ph":"X"`) per call, with
//! thread and process names as metadata events. Perfetto UI, chrome://tracing, Firefox
//! Profiler and speedscope open it. Written as it goes, one thread at a time, so the
//! output never has to fit in memory.

use crate::profile::{Clock, Profile, TimeUnit};
use crate::{Error, ErrorKind, Result};
use std::collections::BTreeSet;
use std::io::Write;

/// Writes every call of `profile` (analysed with `keep_calls`) as Chrome trace-event
/// JSON. Times are µs from the start of the trace's timeline, to the nanosecond where
/// the trace's clock is finer than a microsecond; `tdur` is a call's thread-CPU time
/// where the trace has that clock.
pub fn write_chrome_trace(profile: &Profile, out: &mut impl Write) -> Result<()> {
    profile.require_every_call()?;
    write_events(profile, out).map_err(|e| Error::new(ErrorKind::Output, e.to_string()))
}

fn write_events(profile: &Profile, out: &mut impl Write) -> std::io::Result<()> {
    let header_pid = profile.format.pid;
    let pid_of = |i: usize| profile.threads[i].pid.or(header_pid).unwrap_or(0);
    let cpu = profile.has(Clock::Cpu) && profile.has(Clock::Wall);
    let time = Micros(profile.time_unit);
    let origin = profile.timeline.start;
    out.write_all(b"{\"displayTimeUnit\":\"ms\",\"traceEvents\":[")?;
    let mut first = true;
    let mut separator = |out: &mut dyn Write| -> std::io::Result<()> {
        if !std::mem::take(&mut first) {
            out.write_all(b",")?;
        }
        out.write_all(b"\n")
    };
    let mut named = BTreeSet::new();
    for (i, thread) in profile.threads.iter().enumerate() {
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
    for (i, thread) in profile.threads.iter().enumerate() {
        let pid = pid_of(i);
        // Start order with callers first: viewers nest calls that begin together by it.
        for (_, call) in thread.calls.in_start_order() {
            separator(out)?;
            out.write_all(b"{\"ph\":\"X\",\"name\":")?;
            json_string(out, profile.frame_name(call.frame))?;
            write!(out, ",\"pid\":{pid},\"tid\":{},\"ts\":", thread.tid)?;
            time.write(out, call.start.saturating_sub(origin))?;
            out.write_all(b",\"dur\":")?;
            time.write(out, call.duration())?;
            if cpu {
                out.write_all(b",\"tdur\":")?;
                time.write(out, call.cpu)?;
            }
            out.write_all(b"}")?;
        }
    }
    out.write_all(b"\n]}\n")?;
    out.flush()
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
