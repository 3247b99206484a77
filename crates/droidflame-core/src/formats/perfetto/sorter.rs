//! Puts events back in time order. A Perfetto trace stores each CPU's ftrace events in
//! bundles read one CPU at a time, so the file goes back and forth in time (by up to
//! 3.2 s in a real capture), while slices and scheduling must be read in time order. The
//! sorter holds up to a window of events, and when it is full lets the older half go in
//! order; an event older than one already let go is still read, and counted as out of
//! order. Memory is bounded by the window, whatever the trace's size.

use crate::profile::SchedState;

/// Events held before the older half is let go (about 40 bytes each, plus their text).
pub const WINDOW: usize = 1 << 20;

/// Text of an event, in the sorter's arena.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Text {
    start: u32,
    len: u32,
}

/// `Held::tid` of an event whose thread is whoever runs on its CPU (compact scheduling
/// events do not name the thread that wrote them).
pub const ON_CPU: u32 = u32::MAX;
/// `Held::tid` of an event on a track of its own, written by no thread.
pub const NO_THREAD: u32 = u32::MAX - 1;

/// Where a track event's slice goes: the stack of the thread in `Held::tid`, or a track
/// of its own (an index the reader keeps).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lane {
    Thread,
    Track(u32),
}

/// What happened, with its text in the arena.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// Text written to `trace_marker` by `tid`.
    Print {
        text: Text,
    },
    /// The CPU switched from `prev` (leaving in `prev_state`) to `next`.
    Switch {
        prev: u32,
        prev_comm: Text,
        prev_state: SchedState,
        next: u32,
        next_comm: Text,
    },
    /// `tid` was woken; by the event's writer where `waking` (a wakeup event may be
    /// written on the woken thread's CPU).
    Wakeup {
        tid: u32,
        waking: bool,
    },
    /// `tid`, switched out uninterruptible, blocked in `function` (empty: not named).
    Blocked {
        tid: u32,
        function: Text,
        io_wait: bool,
    },
    /// `tid` has a (new) name.
    Rename {
        tid: u32,
        name: Text,
    },
    /// A slice begins, ends, or is an instant.
    Begin {
        lane: Lane,
        name: Text,
    },
    End {
        lane: Lane,
    },
    Instant {
        lane: Lane,
        name: Text,
    },
    /// A counter (an index the reader keeps) has a value.
    Count {
        counter: u32,
        value: i64,
    },
    /// CPU `cpu` runs at `khz` from now on (32 bits, as the kernel writes it: a wider
    /// field would widen every held event).
    Frequency {
        cpu: u32,
        khz: u32,
    },
    /// The recorder lost whole packets after this event.
    Loss,
    /// A CPU sample of `Held::tid`, numbered in the order samples came: the back resolves
    /// its stack when it reads the sample's packet, and keeps it by that number.
    Sample {
        number: u64,
    },
}

/// One held event: when, on which CPU, by which thread, and what.
#[derive(Debug, Clone, Copy)]
pub struct Held {
    pub ts: u64,
    pub cpu: u32,
    pub tid: u32,
    pub event: Event,
}

/// Events let go together, in time order, and the arena their texts are in.
#[derive(Debug, Default)]
pub struct Released {
    pub events: Vec<Held>,
    pub texts: Vec<u8>,
}

/// The bytes of `text` in `texts` (a `Released` batch's arena).
pub fn text_of(texts: &[u8], text: Text) -> &[u8] {
    &texts[text.start as usize..(text.start + text.len) as usize]
}

/// Holds events and lets the older half go in order whenever the window is full. The
/// events let go wait in `released` for whoever reads them in order.
#[derive(Debug)]
pub struct TimeSorter {
    held: Vec<Held>,
    arena: Vec<u8>,
    window: usize,
    pub released: Vec<Released>,
    /// Batches let go so far, and taken back (`recycle`) so far.
    made: usize,
    recycled: usize,
    /// A batch already read, its space kept for the next (fresh pages cost more than
    /// the events themselves).
    spare: Option<Released>,
}

impl Default for TimeSorter {
    fn default() -> Self {
        TimeSorter::with_window(WINDOW)
    }
}

impl TimeSorter {
    pub fn with_window(window: usize) -> Self {
        TimeSorter {
            held: Vec::new(),
            arena: Vec::new(),
            window: window.max(2),
            released: Vec::new(),
            made: 0,
            recycled: 0,
            spare: None,
        }
    }

    /// Keeps `bytes` for an event about to be pushed.
    pub fn text(&mut self, bytes: &[u8]) -> Text {
        // Text past 4 GiB of arena cannot be addressed: it is cut (never reached: the
        // window lets events go long before).
        let start = self.arena.len().min(u32::MAX as usize) as u32;
        let len = bytes.len().min((u32::MAX - start) as usize);
        self.arena.extend_from_slice(&bytes[..len]);
        Text { start, len: len as u32 }
    }

    /// Holds an event; when the window is full, the older half goes to `released` in order.
    pub fn push(&mut self, ts: u64, cpu: u32, tid: u32, event: Event) {
        self.held.push(Held { ts, cpu, tid, event });
        if self.held.len() >= self.window {
            self.release(self.window / 2);
        }
    }

    /// Lets every held event go, in order.
    pub fn finish(&mut self) {
        self.release(self.held.len());
    }

    /// Keeps the space of a batch that was read, for the next.
    pub fn recycle(&mut self, mut spent: Released) {
        spent.events.clear();
        spent.texts.clear();
        self.spare = Some(spent);
        self.recycled += 1;
    }

    /// Batches let go and not taken back yet.
    pub fn ahead(&self) -> usize {
        self.made - self.recycled
    }

    fn release(&mut self, count: usize) {
        // A stable sort finds runs: the half kept from the last release is one sorted run
        // and each bundle's events another, so this merges runs more than it sorts. Being
        // stable, it keeps events at one time in the order they came: the half kept, all
        // earlier, lies before every later event.
        self.held.sort_by_key(|h| h.ts);
        let count = count.min(self.held.len());
        // The events let go leave in the window's own vector; those still held move to
        // another, as many as moved down within one vector before.
        let spare = self.spare.take();
        let Released { events: mut kept, texts: arena } =
            spare.unwrap_or_else(|| Released { events: Vec::with_capacity(self.window), texts: Vec::new() });
        kept.extend_from_slice(&self.held[count..]);
        self.held.truncate(count);
        let events = std::mem::replace(&mut self.held, kept);
        // The arena goes with the events let go; the texts of the events still held move
        // to another.
        let texts = std::mem::replace(&mut self.arena, arena);
        for held in &mut self.held {
            let mut keep = |text: &mut Text| {
                let bytes = text_of(&texts, *text);
                text.start = self.arena.len() as u32;
                self.arena.extend_from_slice(bytes);
            };
            match &mut held.event {
                Event::Print { text }
                | Event::Rename { name: text, .. }
                | Event::Begin { name: text, .. }
                | Event::Instant { name: text, .. }
                | Event::Blocked { function: text, .. } => keep(text),
                Event::Switch { prev_comm, next_comm, .. } => {
                    keep(prev_comm);
                    keep(next_comm);
                }
                Event::Wakeup { .. }
                | Event::End { .. }
                | Event::Count { .. }
                | Event::Frequency { .. }
                | Event::Loss
                | Event::Sample { .. } => {}
            }
        }
        if !events.is_empty() {
            self.released.push(Released { events, texts });
            self.made += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_come_out_in_time_order_with_their_text() {
        let mut sorter = TimeSorter::with_window(4);
        for (ts, word) in [(30, "c"), (10, "a"), (20, "b"), (25, "b2"), (40, "d"), (35, "c2"), (5, "late")] {
            let text = sorter.text(word.as_bytes());
            sorter.push(ts, 0, 1, Event::Print { text });
        }
        sorter.finish();
        let mut out = Vec::new();
        for batch in &sorter.released {
            for h in &batch.events {
                let Event::Print { text } = h.event else { unreachable!() };
                out.push((h.ts, String::from_utf8(text_of(&batch.texts, text).to_vec()).unwrap()));
            }
        }
        let times: Vec<u64> = out.iter().map(|(ts, _)| *ts).collect();
        // The window of 4 let 10 and 20 go before 5 arrived: 5 comes late, out of order.
        assert_eq!(times, vec![10, 20, 25, 30, 5, 35, 40]);
        assert_eq!(out[4].1, "late");
        assert_eq!(out[6].1, "d");
    }

    #[test]
    fn events_at_one_time_keep_the_order_they_came_in_across_releases() {
        let mut sorter = TimeSorter::with_window(4);
        for (ts, word) in [(10, "a"), (10, "b"), (5, "c"), (10, "d"), (10, "e"), (7, "late"), (10, "f")] {
            let text = sorter.text(word.as_bytes());
            sorter.push(ts, 0, 1, Event::Print { text });
        }
        sorter.finish();
        let words: Vec<String> = sorter
            .released
            .iter()
            .flat_map(|batch| {
                batch.events.iter().map(|h| {
                    let Event::Print { text } = h.event else { unreachable!() };
                    String::from_utf8(text_of(&batch.texts, text).to_vec()).unwrap()
                })
            })
            .collect();
        // c and a go at the first release; late (7) and b at the second, the rest at the
        // end: b, d, e and f at 10 in the order they came, whichever release they left in.
        assert_eq!(words, ["c", "a", "late", "b", "d", "e", "f"]);
    }

    #[test]
    fn a_batch_handed_back_is_filled_again_and_ahead_counts_those_not_handed_back() {
        let mut sorter = TimeSorter::with_window(4);
        let push = |sorter: &mut TimeSorter, n: u64| {
            for ts in 0..n {
                let text = sorter.text(b"x");
                sorter.push(ts, 0, 1, Event::Print { text });
            }
        };
        // The window fills at 4 events and lets 2 go, then at every 2 more.
        push(&mut sorter, 4);
        assert_eq!(sorter.ahead(), 1);
        push(&mut sorter, 2);
        assert_eq!(sorter.ahead(), 2);
        let spent = sorter.released.remove(0);
        let space = spent.events.as_ptr();
        sorter.recycle(spent);
        assert_eq!(sorter.ahead(), 1);
        // The next release keeps the held events in the handed-back vector.
        push(&mut sorter, 2);
        assert_eq!(sorter.ahead(), 2);
        assert_eq!(sorter.held.as_ptr(), space, "the spent batch's space holds the events kept");
    }
}
