//! What ftrace lines mean. Markers nest per thread (the line's TID, never the payload
//! pid); `sched_switch` gives each thread a CPU clock, so slices get CPU time as well as
//! wall time through the same dual-clock model method traces use; async slices become
//! named tracks; counters are summarised.

use super::container::Framed;
use super::line::{parse_event_line, parse_i64, parse_u32, trim, EventLine, LineError};
use super::sched::{Sched, SchedState};
use crate::profile::{Counter, FrameInfo, PerClock, ProfileBuilder, NONE};
use rustc_hash::FxHashMap;

/// Deeper `B`s are dropped and counted (Perfetto's limit; real slices nest a few deep).
pub const MAX_DEPTH: usize = 512;
/// Track slots get thread ids from here up, clear of real ids (Linux pids < 2^22).
const TRACK_ID_BASE: u32 = 1 << 31;
/// CPUs beyond this are not tracked for scheduling (no device comes near).
const MAX_CPUS: u32 = 4096;
const EMPTY_NAME: &[u8] = b"[empty slice name]";

/// What the capture held, for its notes and errors.
#[derive(Debug, Default)]
pub struct Stats {
    /// Lines that are ftrace events.
    pub event_lines: u64,
    /// Not-event lines before the first event line (`capturing trace...`, a blank
    /// header): expected, not repairs.
    pub preamble_lines: u64,
    /// Event lines with integer timestamps (a raw counter clock), skipped.
    pub raw_clock_lines: u64,
    /// atrace markers applied.
    pub markers: u64,
    /// `tracing_mark_write` payloads that are no marker (free text).
    pub other_markers: u64,
    /// `sched_switch` events read.
    pub sched_switches: u64,
    /// `##### CPU N buffer started` lines: that CPU's ring buffer overflowed.
    pub buffers_restarted: u64,
    /// Events the ring buffer overwrote, from `entries-in-buffer/entries-written`.
    pub overwritten: u64,
    /// Async slices closed (`S`/`F`, `G`/`H`).
    pub async_spans: u64,
}

#[derive(Debug)]
struct Tid {
    tid: u32,
    /// Builder slot, once the thread has a marker.
    slot: u32,
    name: Vec<u8>,
    pid: Option<u32>,
    sched: Sched,
}

#[derive(Debug, Hash, PartialEq, Eq, Clone)]
struct TrackKey {
    pid: u32,
    /// `S` (async slice, named by its slice) or `G` (named track).
    kind: u8,
    name: Box<[u8]>,
}

#[derive(Debug)]
struct OpenSpan {
    start: u64,
    frame: u32,
}

/// Gives ftrace lines their meaning, one line at a time, and hands slices, threads and
/// their scheduling to a `ProfileBuilder`.
#[derive(Debug, Default)]
pub struct EventReader {
    /// What the capture held so far.
    pub stats: Stats,
    /// What the capture's comment lines say (tracer, clock, buffer entries, CPUs).
    pub header: Vec<(String, String)>,
    /// Slice name -> frame.
    names: FxHashMap<Box<[u8]>, u32>,
    tid_index: FxHashMap<u32, u32>,
    tids: Vec<Tid>,
    /// The thread running on each CPU, where known.
    cpus: Vec<u32>,
    counters: FxHashMap<(u32, Box<[u8]>), Counter>,
    tracks: FxHashMap<TrackKey, u32>,
    open_spans: FxHashMap<(TrackKey, i64), OpenSpan>,
    last_ts: u64,
    /// The earliest event time so far, in ns.
    min_ts: Option<u64>,
    /// The latest event time so far, in ns.
    pub max_ts: u64,
    /// The latest event time of the dump being read, `None` before its first event.
    dump_last: Option<u64>,
    /// A dump ended at this time; what it left open is closed when another dump's events
    /// follow (after the last dump, open slices run to the end of the capture).
    dump_ended: Option<u64>,
    /// Where the capture lost every event: from one dump's last event to the next one's first.
    pub gaps: Vec<(u64, u64)>,
}

impl EventReader {
    /// Reads what the text framing hands on.
    pub fn framed(&mut self, framed: Framed<'_>, b: &mut ProfileBuilder) {
        match framed {
            Framed::Line(line) => self.line(line, b),
            Framed::DumpEnd => self.dump_end(),
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
            Err(LineError::Unrecognised) => b.repairs.unparsed_lines += 1,
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
        if e.tid >= TRACK_ID_BASE {
            // No kernel hands out such ids; they would collide with track slots.
            b.repairs.unparsed_lines += 1;
            return;
        }
        self.stats.event_lines += 1;
        let ts = e.ts_ns;
        if e.payload.starts_with(b"trace_event_clock_sync") {
            // Writers add these anywhere, even with a dummy time 0.
            return;
        }
        if let Some(end) = self.dump_ended.take() {
            self.after_gap(end, ts, b);
        }
        self.dump_last = Some(self.dump_last.map_or(ts, |last| last.max(ts)));
        if ts < self.last_ts {
            b.repairs.out_of_order += 1;
        }
        self.last_ts = ts;
        self.max_ts = self.max_ts.max(ts);
        self.min_ts = Some(self.min_ts.map_or(ts, |min| min.min(ts)));
        let t = self.tid(e.tid);
        self.rename(t, e.task);
        if let Some(tgid) = e.tgid {
            self.tids[t].pid = Some(tgid);
        }
        self.first_on_cpu(e.cpu, t, ts);
        match e.event {
            b"tracing_mark_write" | b"0" | b"print" => self.marker(e, t, b),
            b"sched_switch" => self.sched_switch(e),
            b"sched_wakeup" | b"sched_waking" | b"sched_wakeup_new" => self.wakeup(e),
            _ => {}
        }
        let slot = self.tids[t].slot;
        if slot != NONE {
            b.touch(slot, PerClock::new(ts, self.tids[t].sched.cpu_clock(ts)));
        }
    }

    /// One dump of a capture made of several ended: events until the next dump are lost.
    fn dump_end(&mut self) {
        if let Some(last) = self.dump_last.take() {
            self.dump_ended = Some(last);
        }
    }

    /// The first event after a loss: slices still open before it close at `end` (they
    /// would swallow every later slice of their thread), scheduler states are unknown
    /// through the gap, and the gap is recorded for the timeline.
    fn after_gap(&mut self, end: u64, next: u64, b: &mut ProfileBuilder) {
        for entry in &mut self.tids {
            if entry.slot != NONE {
                let clock = PerClock::new(end, entry.sched.cpu_clock(end));
                b.repairs.closed_at_gap += b.close_open(entry.slot, clock);
            }
            entry.sched.enter(SchedState::Unknown, end);
        }
        self.cpus.fill(NONE);
        if next > end {
            self.gaps.push((end, next));
        }
    }

    fn tid(&mut self, tid: u32) -> usize {
        let next = self.tids.len() as u32;
        let index = *self.tid_index.entry(tid).or_insert(next);
        if index == next {
            self.tids.push(Tid { tid, slot: NONE, name: Vec::new(), pid: None, sched: Sched::default() });
        }
        index as usize
    }

    /// `<...>` (comm unknown to the kernel) never replaces a real name.
    fn rename(&mut self, t: usize, task: &[u8]) {
        let entry = &mut self.tids[t];
        if entry.name != task && !task.is_empty() && task != b"<...>" && task != b"<unknown>" {
            entry.name.clear();
            entry.name.extend_from_slice(task);
        }
    }

    /// Before a CPU's first `sched_switch`, whoever writes an event on it is running there.
    fn first_on_cpu(&mut self, cpu: u32, t: usize, ts: u64) {
        if cpu >= MAX_CPUS {
            return;
        }
        if self.cpus.len() <= cpu as usize {
            self.cpus.resize(cpu as usize + 1, NONE);
        }
        if self.cpus[cpu as usize] == NONE {
            self.cpus[cpu as usize] = t as u32;
            let tid = self.tids[t].tid;
            if tid != 0 && self.tids[t].sched.state == SchedState::Unknown {
                self.tids[t].sched.enter(SchedState::Running, ts);
            }
        }
    }

    /// The builder's thread for a tid, made when its first slice begins.
    fn slot(&mut self, t: usize, b: &mut ProfileBuilder) -> u32 {
        if self.tids[t].slot == NONE {
            self.tids[t].slot = b.add_thread(self.tids[t].tid, None);
        }
        self.tids[t].slot
    }

    /// The frame of a slice name; frames are numbered in order of appearance.
    fn frame(&mut self, name: &[u8], b: &mut ProfileBuilder) -> u32 {
        let name = if name.is_empty() { EMPTY_NAME } else { name };
        if let Some(&frame) = self.names.get(name) {
            return frame;
        }
        let info = FrameInfo::named(String::from_utf8_lossy(name).into_owned());
        let frame = b.add_frame(self.names.len() as u64, Some(info));
        self.names.insert(name.into(), frame);
        frame
    }

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
        if self.apply_marker(p, e.ts_ns, t, b) {
            self.stats.markers += 1;
        } else {
            self.stats.other_markers += 1;
        }
    }

    /// Applies one marker payload; false when it is none (free text, a bad pid or value).
    fn apply_marker(&mut self, p: &[u8], ts: u64, t: usize, b: &mut ProfileBuilder) -> bool {
        let Some(&kind) = p.first().filter(|_| p.len() == 1 || p[1] == b'|') else {
            return false;
        };
        let fields = p.get(2..).unwrap_or_default();
        let (pid_text, rest) = split_once(fields, b'|');
        if kind == b'E' {
            // The pid, if any, is ignored: `E` closes the line thread's top slice.
            let slot = self.tids[t].slot;
            let clock = PerClock::new(ts, self.tids[t].sched.cpu_clock(ts));
            if slot == NONE || !b.exit_top(slot, clock) {
                b.repairs.unmatched_ends += 1;
            }
            return true;
        }
        let Some(pid) = parse_u32(trim(pid_text)) else {
            return false;
        };
        match kind {
            b'B' | b'I' => {
                if pid > 0 && self.tids[t].pid.is_none() {
                    self.tids[t].pid = Some(pid);
                }
                let slot = self.slot(t, b);
                if b.depth(slot) >= MAX_DEPTH {
                    b.repairs.too_deep += 1;
                    return true;
                }
                let frame = self.frame(rest, b);
                let clock = PerClock::new(ts, self.tids[t].sched.cpu_clock(ts));
                b.enter(slot, frame, clock);
                if kind == b'I' {
                    b.exit_top(slot, clock);
                }
            }
            b'C' => {
                let (name, tail) = split_once(rest, b'|');
                let (value, _category) = split_once(tail, b'|');
                let Some(value) = parse_i64(trim(value)) else {
                    return false;
                };
                self.count(pid, name, value);
            }
            b'S' | b'F' => {
                let (name, cookie) = rsplit_cookie(rest);
                let key = TrackKey { pid, kind: b'S', name: name.into() };
                if kind == b'S' {
                    let frame = self.frame(name, b);
                    self.open_spans.insert((key, cookie), OpenSpan { start: ts, frame });
                } else {
                    self.end_span(key, cookie, name, ts, b);
                }
            }
            b'G' => {
                let (track_and_name, cookie) = rsplit_cookie(rest);
                let (track, name) = split_once(track_and_name, b'|');
                let frame = self.frame(name, b);
                let key = TrackKey { pid, kind: b'G', name: track.into() };
                self.open_spans.insert((key, cookie), OpenSpan { start: ts, frame });
            }
            b'H' => {
                // `H|pid|track|cookie`, or with the name repeated before the cookie.
                let (track_and_name, cookie) = rsplit_cookie(rest);
                let (track, _) = split_once(track_and_name, b'|');
                let key = TrackKey { pid, kind: b'G', name: track.into() };
                self.end_span(key, cookie, track, ts, b);
            }
            b'N' => {
                let (track, name) = split_once(rest, b'|');
                let frame = self.frame(name, b);
                let slot = self.track(TrackKey { pid, kind: b'G', name: track.into() }, track, b);
                b.enter(slot, frame, PerClock::new(ts, 0));
                b.exit_top(slot, PerClock::new(ts, 0));
            }
            _ => return false,
        }
        true
    }

    fn end_span(&mut self, key: TrackKey, cookie: i64, track_name: &[u8], ts: u64, b: &mut ProfileBuilder) {
        let Some(open) = self.open_spans.remove(&(key.clone(), cookie)) else {
            b.repairs.unmatched_ends += 1;
            return;
        };
        let slot = self.track(key, track_name, b);
        b.enter(slot, open.frame, PerClock::new(open.start, 0));
        b.exit_top(slot, PerClock::new(ts.max(open.start), 0));
        self.stats.async_spans += 1;
    }

    /// The slot of a named track: a thread-like slot of its own, marked as a track.
    fn track(&mut self, key: TrackKey, name: &[u8], b: &mut ProfileBuilder) -> u32 {
        if let Some(&slot) = self.tracks.get(&key) {
            return slot;
        }
        let id = TRACK_ID_BASE + self.tracks.len() as u32;
        let slot = b.add_thread(id, None);
        let name = if name.is_empty() { EMPTY_NAME } else { name };
        b.name_thread(slot, String::from_utf8_lossy(name).into_owned(), true);
        b.mark_track(slot);
        b.set_process(slot, key.pid);
        self.tracks.insert(key, slot);
        slot
    }

    fn count(&mut self, pid: u32, name: &[u8], value: i64) {
        let counter = self.counters.entry((pid, name.into())).or_insert_with(|| Counter {
            pid,
            name: String::from_utf8_lossy(name).into_owned(),
            samples: 0,
            min: value,
            max: value,
            last: value,
        });
        counter.samples += 1;
        counter.min = counter.min.min(value);
        counter.max = counter.max.max(value);
        counter.last = value;
    }

    /// `prev_comm=… prev_pid=… prev_prio=… prev_state=… ==> next_comm=… next_pid=… next_prio=…`,
    /// found by its markers: comms may hold spaces.
    fn sched_switch(&mut self, e: &EventLine<'_>) {
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
        self.stats.sched_switches += 1;
        let ts = e.ts_ns;
        if prev != 0 {
            let t = self.tid(prev);
            self.rename(t, prev_comm);
            let runnable = state.first() == Some(&b'R');
            self.tids[t].sched.enter(if runnable { SchedState::Runnable } else { SchedState::Sleeping }, ts);
        }
        let t = self.tid(next);
        if next != 0 {
            self.rename(t, next_comm);
            self.tids[t].sched.enter(SchedState::Running, ts);
        }
        if e.cpu < MAX_CPUS {
            self.cpus[e.cpu as usize] = t as u32;
        }
    }

    fn wakeup(&mut self, e: &EventLine<'_>) {
        let p = e.payload;
        let Some(at) = memchr::memmem::find(p, b"pid=").filter(|&at| at == 0 || p[at - 1] == b' ') else {
            return;
        };
        let digits = &p[at + 4..];
        let end = digits.iter().position(|c| !c.is_ascii_digit()).unwrap_or(digits.len());
        let Some(pid) = parse_u32(&digits[..end]).filter(|&pid| pid != 0) else {
            return;
        };
        let t = self.tid(pid);
        let sched = &mut self.tids[t].sched;
        if matches!(sched.state, SchedState::Sleeping | SchedState::Unknown) {
            sched.enter(SchedState::Runnable, e.ts_ns);
        }
    }

    /// The capture's timeline: its first and last event of any kind, in ns.
    pub fn timeline(&self) -> Option<(u64, u64)> {
        self.min_ts.map(|min| (min, self.max_ts))
    }

    /// Hands names, processes, scheduling and counters to the builder; closes async spans
    /// still open at the end of the trace (and counts them).
    pub fn finish(&mut self, b: &mut ProfileBuilder) -> Vec<Counter> {
        let end = self.max_ts;
        let open: Vec<_> = self.open_spans.drain().collect();
        b.repairs.open_at_end += open.len() as u64;
        for ((key, _), span) in open {
            let name = key.name.clone();
            let slot = self.track(key, &name, b);
            b.enter(slot, span.frame, PerClock::new(span.start, 0));
            b.exit_top(slot, PerClock::new(end, 0));
        }
        let sched_known = self.stats.sched_switches > 0;
        for entry in &mut self.tids {
            entry.sched.enter(SchedState::Unknown, end);
            if entry.pid == Some(entry.tid) && !entry.name.is_empty() {
                b.name_process(entry.tid, String::from_utf8_lossy(&entry.name).into_owned());
            }
            if entry.slot == NONE {
                continue;
            }
            if !entry.name.is_empty() {
                b.name_thread(entry.slot, String::from_utf8_lossy(&entry.name).into_owned(), true);
            }
            if let Some(pid) = entry.pid.filter(|&p| p != 0) {
                b.set_process(entry.slot, pid);
            }
            if sched_known {
                b.set_sched(entry.slot, entry.sched.times);
            }
        }
        let mut counters: Vec<Counter> = self.counters.drain().map(|(_, c)| c).collect();
        counters.sort_by(|a, b| (a.pid, &a.name).cmp(&(b.pid, &b.name)));
        counters
    }
}

fn split_once(bytes: &[u8], sep: u8) -> (&[u8], &[u8]) {
    match memchr::memchr(sep, bytes) {
        Some(at) => (&bytes[..at], &bytes[at + 1..]),
        None => (bytes, &[]),
    }
}

/// `name|cookie` → (name, cookie); a missing or non-numeric cookie is 0.
fn rsplit_cookie(bytes: &[u8]) -> (&[u8], i64) {
    match memchr::memrchr(b'|', bytes) {
        Some(at) => match parse_i64(trim(&bytes[at + 1..])) {
            Some(cookie) => (&bytes[..at], cookie),
            None => (bytes, 0),
        },
        None => (bytes, 0),
    }
}
