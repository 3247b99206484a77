//! Each thread's scheduler states over time: running on a CPU, runnable (woken, or preempted
//! and still wanting a CPU), sleeping, or in uninterruptible sleep (with the kernel function
//! it blocked in, where the trace says). Kept with calls (`Options::keep_calls`).
//!
//! A busy capture switches threads millions of times, so a thread's states are a byte
//! log: each entry is the time since the previous entry and the state with its details, in
//! variable-length integers (about 4 bytes an entry). Every `MARK_EVERY` entries a mark
//! notes the entry's time and offset, so a window is found without decoding from the start.

use super::SchedTimes;

/// Entries between two marks.
const MARK_EVERY: u32 = 64;

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

fn put(bytes: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        bytes.push(v as u8 | 0x80);
        v >>= 7;
    }
    bytes.push(v as u8);
}

fn get(bytes: &[u8], at: &mut usize) -> u64 {
    let mut v = 0u64;
    let mut shift = 0;
    while let Some(&b) = bytes.get(*at) {
        *at += 1;
        if shift < 64 {
            v |= u64::from(b & 0x7F) << shift;
        }
        shift += 7;
        if b & 0x80 == 0 {
            break;
        }
    }
    v
}

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

    /// No state logged.
    pub fn is_empty(&self) -> bool {
        self.entries == 0
    }

    /// Entries logged.
    pub fn len(&self) -> usize {
        self.entries as usize
    }

    /// Bytes held.
    pub fn size(&self) -> usize {
        self.bytes.capacity() + self.marks.capacity() * std::mem::size_of::<(u64, u32, u64)>()
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

    /// The totals a thread's scheduling row shows: runnable with preempted, sleeping with
    /// uninterruptible.
    pub fn sched(&self) -> SchedTimes {
        SchedTimes {
            running: self.of(SchedState::Running),
            runnable: self.of(SchedState::Runnable) + self.of(SchedState::Preempted),
            sleeping: self.of(SchedState::Sleeping) + self.of(SchedState::Uninterruptible),
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
        assert_eq!(log.times(15, 60).sched(), SchedTimes { running: 5, runnable: 0, sleeping: 10 });
    }
}
