//! What ftrace lines mean: each event line becomes an event of the format-neutral system
//! model (`system`): markers (`tracing_mark_write`, the old `0`, `print`) through `marker`,
//! and `sched_switch` / `sched_wakeup` / `sched_waking` as scheduling. The comment lines
//! give the header.

use super::container::Framed;
use super::line::{parse_event_line, EventLine, LineError};
use crate::formats::system::marker;
use crate::formats::system::SystemTrace;
use crate::profile::{ProfileBuilder, SchedState};
use crate::text::parse_u32;

/// What the capture's lines held, for its notes and errors.
#[derive(Debug, Default)]
pub struct Stats {
    /// Lines that are ftrace events.
    pub event_lines: u64,
    /// Not-event lines before the first event line (`capturing trace...`, a blank
    /// header): expected, not repairs.
    pub preamble_lines: u64,
    /// Event lines with integer timestamps (a raw counter clock), skipped.
    pub raw_clock_lines: u64,
    /// `tracing_mark_write` payloads that are no marker (free text).
    pub other_markers: u64,
    /// `##### CPU N buffer started` lines: that CPU's ring buffer overflowed.
    pub buffers_restarted: u64,
    /// Events the ring buffer overwrote, from `entries-in-buffer/entries-written`.
    pub overwritten: u64,
}

/// Gives ftrace lines their meaning, one line at a time.
#[derive(Debug, Default)]
pub struct EventReader {
    /// What the capture held so far.
    pub stats: Stats,
    /// What the capture's comment lines say (tracer, clock, buffer entries, CPUs).
    pub header: Vec<(String, String)>,
    /// The model the events go to.
    pub system: SystemTrace,
}

impl EventReader {
    /// Reads what the text framing hands on.
    pub fn framed(&mut self, framed: Framed<'_>, b: &mut ProfileBuilder) {
        match framed {
            Framed::Line(line) => self.line(line, b),
            Framed::DumpEnd => self.system.dump_end(),
        }
    }

    /// Reads one line (without its line break).
    pub fn line(&mut self, line: &[u8], b: &mut ProfileBuilder) {
        let Some(first) = line.iter().position(|c| !c.is_ascii_whitespace()) else {
            return;
        };
        if line[first] == b'#' {
            self.comment(&line[first..]);
            return;
        }
        match parse_event_line(line) {
            Ok(event) => self.event(&event, b),
            Err(LineError::RawClock) => self.stats.raw_clock_lines += 1,
            Err(LineError::Unrecognised) if self.stats.event_lines == 0 => self.stats.preamble_lines += 1,
            Err(LineError::Unrecognised) => b.facts.repairs.unparsed_lines += 1,
        }
    }

    fn comment(&mut self, line: &[u8]) {
        let text = String::from_utf8_lossy(line);
        if text.starts_with("#####") && text.contains("buffer started") {
            self.stats.buffers_restarted += 1;
        } else if let Some(tracer) = text.strip_prefix("# tracer:") {
            self.set_header("tracer", tracer.trim());
        } else if let Some(clock) = text.strip_prefix("# clock_type=") {
            self.set_header("clock_type", clock.trim());
        } else if let Some(rest) = text.strip_prefix("# entries-in-buffer/entries-written:") {
            let mut parts = rest.split_whitespace();
            if let Some((kept, written)) = parts.next().and_then(|p| p.split_once('/')) {
                if let (Ok(k), Ok(w)) = (kept.parse::<u64>(), written.parse::<u64>()) {
                    self.stats.overwritten += w.saturating_sub(k);
                }
                self.set_header("entries-in-buffer", kept);
                self.set_header("entries-written", written);
            }
            if let Some(cpus) = parts.find_map(|p| p.strip_prefix("#P:")) {
                self.set_header("cpus", cpus);
            }
        }
    }

    fn set_header(&mut self, key: &str, value: &str) {
        if !self.header.iter().any(|(k, _)| k == key) {
            self.header.push((key.to_owned(), value.to_owned()));
        }
    }

    fn event(&mut self, e: &EventLine<'_>, b: &mut ProfileBuilder) {
        let ts = e.ts_ns;
        if e.payload.starts_with(b"trace_event_clock_sync") {
            // Writers add these anywhere, even with a dummy time 0.
            self.stats.event_lines += 1;
            return;
        }
        let Some(t) = self.system.event(e.tid, ts, b) else {
            b.facts.repairs.unparsed_lines += 1;
            return;
        };
        self.stats.event_lines += 1;
        let sys = &mut self.system;
        sys.name_thread(t, e.task);
        if let Some(tgid) = e.tgid {
            sys.set_pid(t, tgid);
        }
        sys.on_cpu(e.cpu, t, ts, b);
        match e.event {
            b"tracing_mark_write" | b"0" | b"print" => self.marker(e, t, b),
            b"sched_switch" => self.sched_switch(e, b),
            b"sched_waking" => self.wakeup(e, true, b),
            b"sched_wakeup" | b"sched_wakeup_new" => self.wakeup(e, false, b),
            b"sched_blocked_reason" => self.blocked_reason(e),
            b"cpu_frequency" => self.cpu_frequency(e, b),
            _ => {}
        }
        self.system.touch(t, ts, b);
    }

    // Inlined: every marker line goes through it.
    #[inline(always)]
    fn marker(&mut self, e: &EventLine<'_>, t: usize, b: &mut ProfileBuilder) {
        let mut p = e.payload;
        if p.starts_with(b"trace_event_clock_sync:") {
            return;
        }
        if e.event == b"print" && p.get(1) != Some(&b'|') {
            // `print` events may carry the writer's address before the text.
            if let Some(at) = memchr::memmem::rfind(p, b": ") {
                p = &p[at + 2..];
            }
        }
        if !marker::apply(&mut self.system, p, e.ts_ns, t, b) {
            self.stats.other_markers += 1;
        }
    }

    /// `prev_comm=… prev_pid=… prev_prio=… prev_state=… ==> next_comm=… next_pid=… next_prio=…`,
    /// found by its markers: comms may hold spaces.
    fn sched_switch(&mut self, e: &EventLine<'_>, b: &mut ProfileBuilder) {
        let p = e.payload;
        let field = |from: &[u8], to: &[u8]| -> Option<&[u8]> {
            let start = memchr::memmem::find(p, from)? + from.len();
            let end = memchr::memmem::find(&p[start..], to).map_or(p.len(), |n| start + n);
            Some(&p[start..end])
        };
        let (Some(prev_comm), Some(prev_pid), Some(state), Some(next_comm), Some(next_pid)) = (
            field(b"prev_comm=", b" prev_pid="),
            field(b" prev_pid=", b" "),
            field(b" prev_state=", b" ==> "),
            field(b"==> next_comm=", b" next_pid="),
            field(b" next_pid=", b" "),
        ) else {
            return;
        };
        let (Some(prev), Some(next)) = (parse_u32(prev_pid), parse_u32(next_pid)) else {
            return;
        };
        // `R` / `R+`: still runnable (preempted); `D` (also `D|K`): uninterruptible.
        let left_in = match state.first() {
            Some(b'R') => SchedState::Preempted,
            Some(b'D') => SchedState::Uninterruptible,
            _ => SchedState::Sleeping,
        };
        self.system.switch(e.cpu, (prev, prev_comm, left_in), (next, next_comm), e.ts_ns, b);
    }

    /// `waking`: written by the waker (a wakeup may be written on the woken thread's CPU).
    fn wakeup(&mut self, e: &EventLine<'_>, waking: bool, b: &mut ProfileBuilder) {
        let p = e.payload;
        let Some(at) = memchr::memmem::find(p, b"pid=").filter(|&at| at == 0 || p[at - 1] == b' ') else {
            return;
        };
        let digits = &p[at + 4..];
        let end = digits.iter().position(|c| !c.is_ascii_digit()).unwrap_or(digits.len());
        if let Some(pid) = parse_u32(&digits[..end]) {
            self.system.wakeup(pid, waking.then_some(e.tid), e.ts_ns, b);
        }
    }

    /// `state=… cpu_id=…`: a CPU's clock in kHz from now on. Out of line, as the other
    /// rare events: the line loop stays small enough to inline what every line does.
    #[inline(never)]
    fn cpu_frequency(&mut self, e: &EventLine<'_>, b: &mut ProfileBuilder) {
        let p = e.payload;
        let number = |key: &[u8]| -> Option<u32> {
            let at = memchr::memmem::find(p, key)? + key.len();
            let end = p[at..].iter().position(|c| !c.is_ascii_digit()).map_or(p.len(), |n| at + n);
            parse_u32(&p[at..end])
        };
        if let (Some(khz), Some(cpu)) = (number(b"state="), number(b"cpu_id=")) {
            self.system.cpu_frequency(cpu, i64::from(khz), e.ts_ns, b);
        }
    }

    /// `pid=… iowait=… caller=function+0x…/0x…`: where a thread switched out
    /// uninterruptible blocked.
    #[inline(never)]
    fn blocked_reason(&mut self, e: &EventLine<'_>) {
        let p = e.payload;
        let value = |key: &[u8]| -> Option<&[u8]> {
            let at = memchr::memmem::find(p, key).filter(|&at| at == 0 || p[at - 1] == b' ')? + key.len();
            let end = memchr::memchr(b' ', &p[at..]).map_or(p.len(), |n| at + n);
            Some(&p[at..end])
        };
        let Some(pid) = value(b"pid=").and_then(parse_u32) else {
            return;
        };
        let io_wait = value(b"iowait=").is_some_and(|v| v != b"0");
        let function = value(b"caller=").map(|c| memchr::memchr(b'+', c).map_or(c, |plus| &c[..plus]));
        self.system.blocked(pid, function, io_wait);
    }
}
