//! Spans that live on tracks of their own rather than on a thread's stack (async slices,
//! named tracks), and counters, summarised per process and name (and, with calls kept, over time).

use crate::profile::{Counter, PerClock, ProfileBuilder};
use rustc_hash::FxHashMap;

/// Track slots get thread ids from here up, clear of real ids (Linux pids < 2^22).
pub const TRACK_ID_BASE: u32 = 1 << 31;
/// The name a slice with none is shown by.
pub(super) const EMPTY_NAME: &[u8] = b"[empty slice name]";

/// What a track groups.
#[derive(Debug, Clone, Copy, Hash, PartialEq, Eq)]
pub enum TrackKind {
    /// Async spans of one name: the track is named by its spans.
    Async,
    /// A named track holding spans of any name.
    Named,
    /// A track whose slices nest like a thread's, told apart by the trace's id for it.
    Nested(u64),
}

/// One track: its process, kind and name.
#[derive(Debug, Hash, PartialEq, Eq, Clone)]
pub struct TrackKey {
    pub pid: u32,
    pub kind: TrackKind,
    pub name: Box<[u8]>,
}

#[derive(Debug)]
struct OpenSpan {
    start: u64,
    frame: u32,
    /// The row of its track it is drawn on.
    row: u32,
}

/// Spans of one track that overlap (async spans told apart by their cookies) go on rows of
/// their own, each span on the first row free when it begins, so that no row holds two
/// spans at once and a row's time is time on the wall clock. Row 0 is the track itself;
/// the others are tracks beside it, named `name (row 2)` and so on.
#[derive(Debug, Default)]
pub struct Tracks {
    slots: FxHashMap<(TrackKey, u32), u32>,
    open: FxHashMap<(TrackKey, i64), OpenSpan>,
    /// Per track, which of its rows hold an open span.
    busy_rows: FxHashMap<TrackKey, Vec<bool>>,
    counters: FxHashMap<(u32, Box<[u8]>), Counter>,
}

impl Tracks {
    /// A span of `key` and `cookie` begins; events come in time order, so a row whose
    /// spans have all ended is free.
    pub fn begin(&mut self, key: TrackKey, cookie: i64, frame: u32, ts: u64) {
        let rows = self.busy_rows.entry(key.clone()).or_default();
        // The same cookie again replaces its span: its row is free again first.
        if let Some(before) = self.open.get(&(key.clone(), cookie)) {
            rows[before.row as usize] = false;
        }
        let row = rows.iter().position(|busy| !busy).unwrap_or(rows.len());
        if row == rows.len() {
            rows.push(true);
        } else {
            rows[row] = true;
        }
        self.open.insert((key, cookie), OpenSpan { start: ts, frame, row: row as u32 });
    }

    /// Closes the span of `key` and `cookie`; false when none is open.
    pub fn end(&mut self, key: TrackKey, cookie: i64, track_name: &[u8], ts: u64, b: &mut ProfileBuilder) -> bool {
        let Some(open) = self.open.remove(&(key.clone(), cookie)) else {
            return false;
        };
        if let Some(busy) = self.busy_rows.get_mut(&key).and_then(|rows| rows.get_mut(open.row as usize)) {
            *busy = false;
        }
        let slot = self.row_slot(key, open.row, track_name, b);
        b.stacks.enter(slot, open.frame, PerClock::new(open.start, 0));
        b.stacks.exit_top(slot, PerClock::new(ts.max(open.start), 0));
        true
    }

    /// The builder slot of a track: a thread-like slot of its own, marked as a track.
    pub fn slot(&mut self, key: TrackKey, name: &[u8], b: &mut ProfileBuilder) -> u32 {
        self.row_slot(key, 0, name, b)
    }

    /// The builder slot of row `row` of a track.
    fn row_slot(&mut self, key: TrackKey, row: u32, name: &[u8], b: &mut ProfileBuilder) -> u32 {
        if let Some(&slot) = self.slots.get(&(key.clone(), row)) {
            return slot;
        }
        let id = TRACK_ID_BASE + self.slots.len() as u32;
        let slot = b.stacks.add_thread(id, None);
        let name = String::from_utf8_lossy(if name.is_empty() { EMPTY_NAME } else { name });
        let name = if row == 0 { name.into_owned() } else { format!("{name} (row {})", row + 1) };
        b.stacks.name_thread(slot, name, true);
        b.stacks.mark_track(slot);
        b.stacks.set_process(slot, key.pid);
        self.slots.insert((key, row), slot);
        slot
    }

    /// Closes every span still open at `end`; returns how many.
    pub fn close_all(&mut self, end: u64, b: &mut ProfileBuilder) -> u64 {
        let mut open: Vec<_> = self.open.drain().collect();
        self.busy_rows.clear();
        // In time order, so that track ids do not depend on hashing.
        open.sort_by(|a, b| (a.1.start, &a.0 .0.name, a.0 .1).cmp(&(b.1.start, &b.0 .0.name, b.0 .1)));
        for ((key, _), span) in &open {
            let slot = self.row_slot(key.clone(), span.row, &key.name, b);
            b.stacks.enter(slot, span.frame, PerClock::new(span.start, 0));
            b.stacks.exit_top(slot, PerClock::new(end.max(span.start), 0));
        }
        open.len() as u64
    }

    pub fn count(&mut self, pid: u32, name: &[u8], unit: &str, value: i64, at: Option<u64>) {
        let counter = self.counters.entry((pid, name.into())).or_insert_with(|| Counter {
            pid,
            name: String::from_utf8_lossy(name).into_owned(),
            unit: unit.to_owned(),
            samples: 0,
            min: value,
            max: value,
            last: value,
            series: Vec::new(),
        });
        if let Some(ts) = at {
            counter.series.push((ts, value));
        }
        counter.samples += 1;
        counter.min = counter.min.min(value);
        counter.max = counter.max.max(value);
        counter.last = value;
    }

    /// Every counter, by process and name.
    pub fn counters(&mut self) -> Vec<Counter> {
        let mut counters: Vec<Counter> = self.counters.drain().map(|(_, c)| c).collect();
        for counter in &mut counters {
            // Values come in time order but across CPUs' buffers; a stable sort keeps ties.
            counter.series.sort_by_key(|&(ts, _)| ts);
            counter.series.shrink_to_fit();
        }
        counters.sort_by(|a, b| (a.pid, &a.name).cmp(&(b.pid, &b.name)));
        counters
    }
}
