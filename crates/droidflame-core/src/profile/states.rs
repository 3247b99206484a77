//! Each thread's scheduler states over time: running on a CPU, runnable (woken, or preempted
//! and still wanting a CPU), sleeping, or in uninterruptible sleep (with the kernel function
//! it blocked in, where the trace says). Kept with calls (`Options::keep_calls`).
//!
//! A busy capture switches threads millions of times, so a thread's states are a byte
//! log: each entry is the time since the previous entry and the state with its details, in
//! variable-length integers (about 4 bytes an entry). Every `MARK_EVERY` entries a mark
//! notes the entry's time and offset, so a window is found without decoding from the start.

/// A thread's time in each scheduler state, in ticks, over the part of the trace where
/// its state is known.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SchedTimes {
    /// On a CPU.
    pub running: u64,
    /// Ready to run, waiting for a CPU.
    pub runnable: u64,
    /// Asleep (interruptible).
    pub sleeping: u64,
    /// In uninterruptible sleep (`D`, `DK`): blocked in the kernel, I/O wait included.
    pub uninterruptible: u64,
}

impl std::ops::Add for SchedTimes {
    type Output = SchedTimes;

    fn add(self, other: SchedTimes) -> SchedTimes {
        SchedTimes {
            running: self.running + other.running,
            runnable: self.runnable + other.runnable,
            sleeping: self.sleeping + other.sleeping,
            uninterruptible: self.uninterruptible + other.uninterruptible,
        }
    }
}

use super::time_log::{get, put, MARK_EVERY};

/// Where a thread is, as the scheduler sees it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
#[repr(u8)]
pub enum SchedState {
    /// Not known (before the scheduler saw the thread, after it exited, through a loss).
    #[default]
    Unknown = 0,
    /// On a CPU.
    Running = 1,
    /// Woken, waiting for a CPU.
    Runnable = 2,
    /// Switched out while it still wanted to run: waiting for a CPU again.
    Preempted = 3,
    /// Asleep or blocked, wakeable.
    Sleeping = 4,
    /// Blocked in the kernel, not wakeable by signals (I/O, locks in the kernel).
    Uninterruptible = 5,
}

impl SchedState {
    /// Every known state, in the order tables list them.
    pub const KNOWN: [SchedState; 5] = [
        SchedState::Running,
        SchedState::Runnable,
        SchedState::Preempted,
        SchedState::Sleeping,
        SchedState::Uninterruptible,
    ];

    /// The state in words.
    pub fn words(self) -> &'static str {
        match self {
            SchedState::Unknown => "Unknown",
            SchedState::Running => "Running",
            SchedState::Runnable => "Runnable",
            SchedState::Preempted => "Runnable (preempted)",
            SchedState::Sleeping => "Sleeping",
            SchedState::Uninterruptible => "Uninterruptible sleep",
        }
    }

    fn from_bits(bits: u8) -> SchedState {
        match bits {
            1 => SchedState::Running,
            2 => SchedState::Runnable,
            3 => SchedState::Preempted,
            4 => SchedState::Sleeping,
            5 => SchedState::Uninterruptible,
            _ => SchedState::Unknown,
        }
    }
}

/// A state a thread entered, with what the trace says of it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StateEntry {
    /// When, in ticks of the timeline.
    pub start: u64,
    /// The state.
    pub state: SchedState,
    /// Running: the CPU.
    pub cpu: Option<u32>,
    /// Runnable: the thread (tid) that woke it.
    pub waker: Option<u32>,
    /// Uninterruptible: the function it blocked in (an index into
    /// `Profile::blocked_functions`).
    pub blocked: Option<u32>,
    /// Uninterruptible: it waits for I/O.
    pub io_wait: bool,
}

/// A state over a span of time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StateSpan {
    /// The state, with its start.
    pub entry: StateEntry,
    /// When it was left, in ticks of the timeline.
    pub end: u64,
}

impl StateSpan {
    /// Its length in ticks.
    pub fn duration(&self) -> u64 {
        self.end.saturating_sub(self.entry.start)
    }
}

/// One thread's states, in time order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StateLog {
    bytes: Vec<u8>,
    /// `(start, byte offset, time of the entry before)` of every `MARK_EVERY`th entry.
    marks: Vec<(u64, u32, u64)>,
    entries: u32,
    last: u64,
}

const HAS_CPU: u8 = 1 << 3;
const HAS_WAKER: u8 = 1 << 4;
const HAS_BLOCKED: u8 = 1 << 5;
const IO_WAIT: u8 = 1 << 6;

impl StateLog {
    /// Appends `entry`; entries come in time order (an earlier one is taken as at the last).
    pub fn push(&mut self, entry: StateEntry) {
        let start = entry.start.max(self.last);
        if self.entries % MARK_EVERY == 0 {
            self.marks.push((start, self.bytes.len() as u32, self.last));
        }
        put(&mut self.bytes, start - self.last);
        let mut head = entry.state as u8;
        head |= if entry.cpu.is_some() { HAS_CPU } else { 0 };
        head |= if entry.waker.is_some() { HAS_WAKER } else { 0 };
        head |= if entry.blocked.is_some() { HAS_BLOCKED } else { 0 };
        head |= if entry.io_wait { IO_WAIT } else { 0 };
        self.bytes.push(head);
        for v in [entry.cpu, entry.waker, entry.blocked].into_iter().flatten() {
            put(&mut self.bytes, u64::from(v));
        }
        self.entries += 1;
        self.last = start;
    }

    /// Appends every entry of `later`, a log of what came after this one's last entry: two
    /// halves of one run of states, appended, are the log of the whole.
    pub(crate) fn append(&mut self, later: &StateLog) {
        for entry in later.entries_from(0) {
            self.push(entry);
        }
    }

    /// No state logged.
    pub fn is_empty(&self) -> bool {
        self.entries == 0
    }

    /// Entries logged.
    pub fn len(&self) -> usize {
        self.entries as usize
    }

    /// The first and the last entry's start, where any is logged.
    pub fn span(&self) -> Option<(u64, u64)> {
        Some((self.marks.first()?.0, self.last))
    }

    pub(crate) fn shrink(&mut self) {
        self.bytes.shrink_to_fit();
        self.marks.shrink_to_fit();
    }

    /// Entries from the last mark at or before `from` on.
    fn entries_from(&self, from: u64) -> Entries<'_> {
        let mark = self.marks.partition_point(|m| m.0 <= from).saturating_sub(1);
        let (at, before) = self.marks.get(mark).map_or((0, 0), |m| (m.1 as usize, m.2));
        Entries { bytes: &self.bytes, at, time: before }
    }

    /// The known states overlapping `from..to`, cut to it.
    pub fn spans(&self, from: u64, to: u64) -> impl Iterator<Item = StateSpan> + '_ {
        let mut entries = self.entries_from(from).peekable();
        std::iter::from_fn(move || loop {
            let entry = entries.next()?;
            let end = entries.peek()?.start;
            if entry.start >= to {
                return None;
            }
            if end <= from || end == entry.start || entry.state == SchedState::Unknown {
                continue;
            }
            let entry = StateEntry { start: entry.start.max(from), ..entry };
            return Some(StateSpan { entry, end: end.min(to) });
        })
    }

    /// The entries that begin within `from..to`, zero-length ones too (a wakeup at the
    /// moment its thread was switched in still counts as a wakeup).
    pub fn entries(&self, from: u64, to: u64) -> impl Iterator<Item = StateEntry> + '_ {
        self.entries_from(from).skip_while(move |e| e.start < from).take_while(move |e| e.start < to)
    }

    /// The whole known state `at` was in.
    pub fn at(&self, at: u64) -> Option<StateSpan> {
        let mut entries = self.entries_from(at).peekable();
        while let Some(entry) = entries.next() {
            let end = entries.peek()?.start;
            if entry.start > at {
                return None;
            }
            if at < end {
                return (entry.state != SchedState::Unknown).then_some(StateSpan { entry, end });
            }
        }
        None
    }

    /// Time in each state within `from..to`.
    pub fn times(&self, from: u64, to: u64) -> StateTimes {
        let mut times = StateTimes::default();
        for span in self.spans(from, to) {
            times.add(span.entry.state, span.duration());
        }
        times
    }
}

struct Entries<'a> {
    bytes: &'a [u8],
    at: usize,
    time: u64,
}

impl Iterator for Entries<'_> {
    type Item = StateEntry;

    fn next(&mut self) -> Option<StateEntry> {
        if self.at >= self.bytes.len() {
            return None;
        }
        self.time += get(self.bytes, &mut self.at);
        let head = *self.bytes.get(self.at)?;
        self.at += 1;
        let mut field = |bit: u8| (head & bit != 0).then(|| get(self.bytes, &mut self.at) as u32);
        let cpu = field(HAS_CPU);
        let waker = field(HAS_WAKER);
        let blocked = field(HAS_BLOCKED);
        let state = SchedState::from_bits(head & 7);
        Some(StateEntry { start: self.time, state, cpu, waker, blocked, io_wait: head & IO_WAIT != 0 })
    }
}

/// Time in each known state, in ticks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StateTimes(pub [u64; 5]);

impl StateTimes {
    /// Adds time in `state`.
    pub fn add(&mut self, state: SchedState, ticks: u64) {
        if state != SchedState::Unknown {
            self.0[state as usize - 1] += ticks;
        }
    }

    /// The time in `state`.
    pub fn of(&self, state: SchedState) -> u64 {
        if state == SchedState::Unknown {
            0
        } else {
            self.0[state as usize - 1]
        }
    }

    /// The totals a thread's scheduling row shows: runnable with preempted.
    pub fn sched(&self) -> SchedTimes {
        SchedTimes {
            running: self.of(SchedState::Running),
            runnable: self.of(SchedState::Runnable) + self.of(SchedState::Preempted),
            sleeping: self.of(SchedState::Sleeping),
            uninterruptible: self.of(SchedState::Uninterruptible),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(start: u64, state: SchedState) -> StateEntry {
        StateEntry { start, state, ..StateEntry::default() }
    }

    #[test]
    fn spans_come_back_as_logged_from_any_point() {
        let mut log = StateLog::default();
        let mut expected = Vec::new();
        for i in 0..1000u64 {
            let state = SchedState::KNOWN[(i % 5) as usize];
            let e = StateEntry {
                start: i * 1000 + i % 7,
                state,
                cpu: (state == SchedState::Running).then_some((i % 8) as u32),
                waker: (state == SchedState::Runnable).then_some(40_000 + i as u32),
                blocked: (state == SchedState::Uninterruptible).then_some(3),
                io_wait: state == SchedState::Uninterruptible && i % 2 == 0,
            };
            log.push(e);
            expected.push(e);
        }
        log.push(entry(1_000_000, SchedState::Unknown));
        let all: Vec<StateEntry> = log.spans(0, u64::MAX).map(|s| s.entry).collect();
        assert_eq!(all, expected);
        // A window in the middle, cut at both ends.
        let window: Vec<StateSpan> = log.spans(500_500, 502_000).collect();
        assert_eq!(window.len(), 2);
        assert_eq!((window[0].entry.start, window[0].end), (500_500, 501_004));
        assert_eq!(window[0].entry.state, expected[500].state);
        assert_eq!((window[1].entry.start, window[1].end), (501_004, 502_000));
        let times = log.times(0, u64::MAX);
        assert_eq!(times.0.iter().sum::<u64>(), 1_000_000);
        let whole = log.at(500_700).unwrap();
        assert_eq!((whole.entry, whole.end), (expected[500], 501_004));
        assert_eq!(log.at(1_000_000), None);
    }

    #[test]
    fn unknown_time_is_no_state() {
        let mut log = StateLog::default();
        log.push(entry(10, SchedState::Running));
        log.push(entry(20, SchedState::Unknown));
        log.push(entry(50, SchedState::Sleeping));
        log.push(entry(80, SchedState::Unknown));
        let spans: Vec<(u64, u64)> = log.spans(0, 100).map(|s| (s.entry.start, s.end)).collect();
        assert_eq!(spans, [(10, 20), (50, 80)]);
        assert_eq!(log.times(15, 60).sched(), SchedTimes { running: 5, runnable: 0, sleeping: 10, uninterruptible: 0 });
    }

    /// Each number is written in 7-bit groups: 127 takes one byte, 128 two, 16,384 three;
    /// every one comes back exact, up to the largest time and id.
    #[test]
    fn numbers_at_the_byte_boundaries_come_back_exact() {
        let mut log = StateLog::default();
        let mut expected = Vec::new();
        let mut start = 0u64;
        for (i, delta) in [0u64, 127, 128, 129, 16_383, 16_384, u64::from(u32::MAX), 1 << 40].into_iter().enumerate() {
            start += delta;
            let id = [0u32, 127, 128, 16_383, 16_384, u32::MAX][i % 6];
            let e = StateEntry {
                start,
                state: SchedState::KNOWN[i % 5],
                cpu: Some(id),
                waker: Some(id ^ 1),
                blocked: Some(u32::MAX - id),
                io_wait: i % 2 == 1,
            };
            log.push(e);
            expected.push(e);
        }
        let last = entry(u64::MAX, SchedState::Unknown);
        log.push(last);
        expected.push(last);
        let back: Vec<StateEntry> = log.entries_from(0).collect();
        assert_eq!(back, expected);
        // Time since the entry before: 0 and 127 one byte each, 128 two.
        let mut one = StateLog::default();
        one.push(entry(127, SchedState::Running));
        assert_eq!(one.bytes, [127, 1]);
        one.push(entry(255, SchedState::Sleeping));
        assert_eq!(one.bytes, [127, 1, 0x80, 1, 4]);
        one.push(StateEntry { cpu: Some(16_384), ..entry(255, SchedState::Running) });
        assert_eq!(one.bytes[5..], [0, 1 | HAS_CPU, 0x80, 0x80, 1]);
    }

    /// A mark every 64th entry, and a window starts decoding at the last mark at or before
    /// it: the mark's own entry first.
    #[test]
    fn a_window_starts_at_the_mark_before_it() {
        let mut log = StateLog::default();
        for i in 0..200u64 {
            log.push(entry(i * 10, SchedState::KNOWN[(i % 5) as usize]));
        }
        let starts: Vec<u64> = log.marks.iter().map(|m| m.0).collect();
        assert_eq!(starts, [0, 640, 1280, 1920]);
        assert_eq!(log.len(), 200);
        let first = |from| log.entries_from(from).next().map(|e| e.start);
        assert_eq!(first(0), Some(0));
        assert_eq!(first(639), Some(0));
        assert_eq!(first(640), Some(640));
        assert_eq!(first(1919), Some(1280));
        assert_eq!(first(5000), Some(1920));
        let spans: Vec<(u64, u64)> = log.spans(1275, 1295).map(|s| (s.entry.start, s.end)).collect();
        assert_eq!(spans, [(1275, 1280), (1280, 1290), (1290, 1295)]);
    }

    /// A state that ends where a window starts, or starts where it ends, is not in it; the
    /// state at an entry's start is that entry's.
    #[test]
    fn windows_and_instants_at_their_edges() {
        let mut log = StateLog::default();
        log.push(entry(10, SchedState::Running));
        log.push(entry(20, SchedState::Sleeping));
        log.push(entry(30, SchedState::Runnable));
        log.push(entry(40, SchedState::Unknown));
        let spans = |from, to| log.spans(from, to).map(|s| (s.entry.start, s.end)).collect::<Vec<_>>();
        assert_eq!(spans(20, 30), [(20, 30)]);
        assert_eq!(spans(0, 10), []);
        assert_eq!(spans(40, 50), []);
        let at = |t| log.at(t).map(|s| (s.entry.start, s.end, s.entry.state));
        assert_eq!(at(9), None);
        assert_eq!(at(10), Some((10, 20, SchedState::Running)));
        assert_eq!(at(19), Some((10, 20, SchedState::Running)));
        assert_eq!(at(20), Some((20, 30, SchedState::Sleeping)));
        assert_eq!(at(39), Some((30, 40, SchedState::Runnable)));
        assert_eq!(at(40), None);
    }

    /// An entry earlier than the last is taken as at the last: the one before lasts no time
    /// and is no span.
    #[test]
    fn an_entry_out_of_order_is_taken_as_at_the_last() {
        let mut log = StateLog::default();
        log.push(entry(10, SchedState::Running));
        log.push(entry(50, SchedState::Sleeping));
        log.push(entry(30, SchedState::Runnable));
        log.push(entry(60, SchedState::Unknown));
        let spans: Vec<(u64, u64, SchedState)> =
            log.spans(0, 100).map(|s| (s.entry.start, s.end, s.entry.state)).collect();
        assert_eq!(spans, [(10, 50, SchedState::Running), (50, 60, SchedState::Runnable)]);
    }
}
