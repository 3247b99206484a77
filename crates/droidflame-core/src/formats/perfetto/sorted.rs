//! Events in time order, to where they belong: samples to the CPU samples, the rest to
//! the system model.

use super::code::CodeFrames;
use super::cpu_samples::CpuSamples;
use super::sorter::{text_of, Event, Held, Lane, NO_THREAD, ON_CPU};
use super::stats::PacketStats;
use super::track_events::TrackTable;
use crate::formats::system::marker;
use crate::formats::system::SystemTrace;
use crate::profile::ProfileBuilder;
use rustc_hash::FxHashMap;

/// Where sorted events go, and what they need.
pub struct Sorted<'a> {
    pub system: &'a mut SystemTrace,
    pub stats: &'a mut PacketStats,
    pub tracks: &'a TrackTable,
    pub samples: &'a mut CpuSamples,
    pub code: &'a CodeFrames,
    /// The stack of each CPU sample held, by its number.
    pub sample_stacks: &'a mut FxHashMap<u64, u32>,
}

impl Sorted<'_> {
    /// One event, in time order (`texts`: the arena its texts are in).
    pub fn apply(&mut self, texts: &[u8], h: &Held, b: &mut ProfileBuilder) {
        let (system, stats, tracks) = (&mut *self.system, &mut *self.stats, self.tracks);
        if let Event::Sample { number } = h.event {
            system.tick(h.ts, b);
            let stack = self.sample_stacks.remove(&number).expect("a sample's stack is resolved before it is let go");
            self.samples.apply(h.tid, self.code.stack(stack), h.ts, b);
            return;
        }
        apply(system, stats, tracks, &Texts(texts), h, b);
    }
}

/// The arena an event's texts are in.
struct Texts<'a>(&'a [u8]);

impl Texts<'_> {
    fn bytes(&self, text: super::sorter::Text) -> &[u8] {
        text_of(self.0, text)
    }
}

/// One event, in time order, to the system model.
fn apply(
    system: &mut SystemTrace,
    stats: &mut PacketStats,
    tracks: &TrackTable,
    s: &Texts,
    h: &Held,
    b: &mut ProfileBuilder,
) {
    let tid = match h.tid {
        // Compact scheduling events were written by whoever ran on the CPU (the idle
        // thread, 0, when that is not known yet).
        ON_CPU => system.running(h.cpu).unwrap_or(0),
        NO_THREAD => {
            system.tick(h.ts, b);
            on_track(system, tracks, s, h, b);
            return;
        }
        tid => tid,
    };
    let Some(t) = system.event(tid, h.ts, b) else {
        stats.bad_thread_ids += 1;
        return;
    };
    system.on_cpu(h.cpu, t, h.ts, b);
    match h.event {
        Event::Print { text } => {
            if !marker::apply(system, s.bytes(text), h.ts, t, b) {
                stats.other_prints += 1;
            }
        }
        Event::Switch { prev, prev_comm, prev_state, next, next_comm } => {
            let prev = if prev == ON_CPU { tid } else { prev };
            system.switch(h.cpu, (prev, s.bytes(prev_comm), prev_state), (next, s.bytes(next_comm)), h.ts, b);
        }
        Event::Wakeup { tid: woken, waking } => system.wakeup(woken, waking.then_some(tid), h.ts, b),
        Event::Frequency { cpu, khz } => system.cpu_frequency(cpu, i64::from(khz), h.ts, b),
        Event::Blocked { tid: blocked, function, io_wait } => {
            system.blocked(blocked, Some(s.bytes(function)), io_wait);
        }
        Event::Rename { tid, name } => {
            let renamed = system.thread(tid);
            system.name_thread(renamed, s.bytes(name));
        }
        Event::Begin { name, .. } => system.begin(t, s.bytes(name), h.ts, b),
        Event::End { .. } => system.end(t, h.ts, b),
        Event::Instant { name, .. } => system.instant(t, s.bytes(name), h.ts, b),
        Event::Count { .. } | Event::Loss | Event::Sample { .. } => {}
    }
    system.touch(t, h.ts, b);
}

/// An event of no thread: on a track of its own, a counter, or a loss.
fn on_track(system: &mut SystemTrace, tracks: &TrackTable, s: &Texts, h: &Held, b: &mut ProfileBuilder) {
    let lane = |lane: Lane| match lane {
        Lane::Track(index) => tracks.lanes.get(index as usize),
        Lane::Thread => None,
    };
    match h.event {
        Event::Begin { lane: l, name } => {
            if let Some((key, track)) = lane(l) {
                system.nested_begin(key.clone(), track, s.bytes(name), h.ts, b);
            }
        }
        Event::End { lane: l } => {
            if let Some((key, track)) = lane(l) {
                system.nested_end(key.clone(), track, h.ts, b);
            }
        }
        Event::Instant { lane: l, name } => {
            if let Some((key, track)) = lane(l) {
                system.nested_begin(key.clone(), track, s.bytes(name), h.ts, b);
                system.nested_end(key.clone(), track, h.ts, b);
            }
        }
        Event::Count { counter, value } => {
            if let Some(c) = tracks.counters.get(counter as usize) {
                system.count(c.pid, &c.name, &c.shape.unit, value, h.ts, b);
            }
        }
        Event::Loss => system.dump_end(),
        Event::Print { .. }
        | Event::Switch { .. }
        | Event::Wakeup { .. }
        | Event::Blocked { .. }
        | Event::Frequency { .. }
        | Event::Rename { .. }
        | Event::Sample { .. } => {}
    }
}
