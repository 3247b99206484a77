//! The format-neutral model of a system trace: threads and their processes, slices that
//! nest per thread, async spans and named tracks, counters, scheduling, and where the
//! capture lost events. Each system-trace format (`atrace` text, `perfetto` protobuf) reads
//! its own bytes and tells this model what happened; the model hands slices to the
//! `ProfileBuilder` and knows nothing of any format.
//!
//! Slices nest per thread (never per process); a thread's CPU clock runs while the
//! scheduler has it on a CPU, so slices get CPU time as well as wall time. A capture without
//! slices shows each thread's scheduler states as its frames instead (`sched`).

mod frames;
mod inflate;
pub(crate) mod marker;
mod sched;
mod thread_sched;
mod tracks;

pub(crate) use inflate::InflateBudget;

use crate::profile::SchedState;
use crate::profile::{
    ClockSet, ClockWords, Counter, FinishSpec, FormatInfo, FrameInfo, FrameKind, PerClock, ProfileBuilder, SourceKind,
    SourceSpec, TimeUnit, Unit, NONE,
};
use rustc_hash::FxHashMap;
use thread_sched::Sched;
use tracks::Tracks;
use tracks::EMPTY_NAME;
pub use tracks::TRACK_ID_BASE;
pub(crate) use tracks::{TrackKey, TrackKind};

use crate::profile::MAX_SLICE_DEPTH as MAX_DEPTH;

/// What the capture held, for its notes.
#[derive(Debug, Default)]
pub struct SystemStats {
    /// Slices begun (thread slices, instants, async spans).
    pub slices: u64,
    /// `sched_switch` events applied.
    pub sched_switches: u64,
}

#[derive(Debug)]
struct Thread {
    tid: u32,
    /// Builder slot of its slices, once it has one.
    slot: u32,
    /// Builder slot of its scheduler states, while the capture has no slices.
    state_slot: u32,
    name: Vec<u8>,
    pid: Option<u32>,
    sched: Sched,
}

/// The model, fed one event at a time.
#[derive(Debug, Default)]
pub struct SystemTrace {
    /// What the capture held so far.
    pub stats: SystemStats,
    /// Slice name -> frame.
    names: FxHashMap<Box<[u8]>, u32>,
    tid_index: FxHashMap<u32, u32>,
    threads: Vec<Thread>,
    /// The thread running on each CPU, where known.
    cpus: Vec<u32>,
    tracks: Tracks,
    last_ts: u64,
    min_ts: Option<u64>,
    max_ts: u64,
    /// The latest event time of the dump being read, `None` before its first event.
    dump_last: Option<u64>,
    /// A dump ended at this time; what it left open is closed when another dump's events
    /// follow (after the last dump, open slices run to the end of the capture).
    dump_ended: Option<u64>,
    gaps: Vec<(u64, u64)>,
    /// Process names the trace gives outright (not from a thread named like its process).
    process_names: FxHashMap<u32, Box<[u8]>>,
    /// Kernel functions threads blocked in, numbered in order of appearance.
    blocked_functions: FxHashMap<Box<[u8]>, u32>,
    /// Slices that mark app frames, for a capture without a frame timeline.
    frame_slices: frames::FrameSlices,
}

/// What the model gives the profile when the capture ends.
#[derive(Debug)]
pub struct SystemEnd {
    /// Counters, by process and name.
    pub counters: Vec<Counter>,
    /// The first and last event of any kind, in ns.
    pub timeline: Option<(u64, u64)>,
    /// Where the capture lost every event.
    pub gaps: Vec<(u64, u64)>,
    /// Whether any thread was seen by the scheduler (then slices have a CPU clock).
    pub scheduled: bool,
    /// The capture has no slices but scheduler events: each thread's frames are its
    /// scheduler states.
    pub states_as_frames: bool,
}

impl SystemEnd {
    /// What the builder needs to finish the profile of a system trace: `family` and
    /// `layout` name the input (`description` says it for people), `header` is what the
    /// trace says of itself; `ends_known`: the container says where the capture ends.
    pub fn finish_spec(
        self,
        (family, layout, description): (&'static str, &'static str, String),
        (gzip, ends_known): (bool, bool),
        header: Vec<(String, String)>,
    ) -> FinishSpec {
        let format = FormatInfo {
            family,
            layout,
            kind: "system trace",
            version: 0,
            gzip,
            ends_known: ends_known || gzip,
            split: false,
            pid: None,
            recorded_us: None,
            details: Vec::new(),
            sampling_interval_us: None,
            description: format!("{description}{}", if gzip { ", gzip" } else { "" }),
        };
        FinishSpec {
            format,
            header,
            time_unit: TimeUnit::NANOS,
            counters: self.counters,
            group_by_process: true,
            timeline: self.timeline,
            gaps: self.gaps,
            main: SourceSpec {
                kind: SourceKind::Calls,
                unit: Unit::Micros,
                clocks: if self.scheduled { ClockSet::Dual } else { ClockSet::Wall },
                frame_kind: FrameKind::Slice,
                clock_words: ClockWords::ELAPSED_AND_THREAD_CPU,
                preferred_clock: None,
                states_as_frames: self.states_as_frames,
            },
            more: Vec::new(),
            main_first: true,
        }
    }
}

impl SystemTrace {
    /// An event of thread `tid` at `ts` ns: the thread's index, or `None` for an id no
    /// kernel hands out (it would collide with track ids; the caller counts it).
    pub fn event(&mut self, tid: u32, ts: u64, b: &mut ProfileBuilder) -> Option<usize> {
        if tid >= TRACK_ID_BASE {
            return None;
        }
        self.tick(ts, b);
        Some(self.thread(tid))
    }

    /// An event at `ts` ns of no thread (on a track of its own).
    pub fn tick(&mut self, ts: u64, b: &mut ProfileBuilder) {
        if let Some(end) = self.dump_ended.take() {
            self.after_gap(end, ts, b);
        }
        self.dump_last = Some(self.dump_last.map_or(ts, |last| last.max(ts)));
        if ts < self.last_ts {
            b.facts.repairs.out_of_order += 1;
        }
        self.last_ts = ts;
        self.max_ts = self.max_ts.max(ts);
        self.min_ts = Some(self.min_ts.map_or(ts, |min| min.min(ts)));
    }

    /// Something of the capture happened at `ts` outside the events read in time order (an
    /// app frame): the timeline covers it.
    pub fn cover(&mut self, ts: u64) {
        self.max_ts = self.max_ts.max(ts);
        self.min_ts = Some(self.min_ts.map_or(ts, |min| min.min(ts)));
    }

    /// A sign of life of thread `t` at `ts` without a slice: open slices close no earlier.
    pub fn touch(&mut self, t: usize, ts: u64, b: &mut ProfileBuilder) {
        let slot = self.threads[t].slot;
        if slot != NONE {
            b.stacks.touch(slot, self.clock(t, ts));
        }
    }

    /// The index of thread `tid`, made on first sight.
    pub fn thread(&mut self, tid: u32) -> usize {
        let next = self.threads.len() as u32;
        let index = *self.tid_index.entry(tid).or_insert(next);
        if index == next {
            self.threads.push(Thread {
                tid,
                slot: NONE,
                state_slot: NONE,
                name: Vec::new(),
                pid: None,
                sched: Sched::default(),
            });
        }
        index as usize
    }

    /// The thread's name as of now; `<...>` (a name unknown to the kernel) never replaces
    /// a real one.
    pub fn name_thread(&mut self, t: usize, name: &[u8]) {
        let entry = &mut self.threads[t];
        if entry.name != name && !name.is_empty() && name != b"<...>" && name != b"<unknown>" {
            entry.name.clear();
            entry.name.extend_from_slice(name);
        }
    }

    /// What the capture says of thread `tid`: its name and its process, where it says.
    pub fn thread_facts(&self, tid: u32) -> (Option<String>, Option<u32>) {
        let Some(entry) = self.tid_index.get(&tid).map(|&t| &self.threads[t as usize]) else {
            let main = self.process_names.contains_key(&tid).then_some(tid);
            return (None, main);
        };
        let name = (!entry.name.is_empty()).then(|| String::from_utf8_lossy(&entry.name).into_owned());
        let main = self.process_names.contains_key(&tid).then_some(tid);
        (name, entry.pid.or(main).filter(|&p| p != 0))
    }

    /// A process's name, as the trace gives it.
    pub fn name_process(&mut self, pid: u32, name: &[u8]) {
        self.process_names.insert(pid, name.into());
    }

    /// The process the thread belongs to.
    pub fn set_pid(&mut self, t: usize, pid: u32) {
        self.threads[t].pid = Some(pid);
    }

    /// The process, unless one is known already (a marker's pid is a weaker source).
    pub fn guess_pid(&mut self, t: usize, pid: u32) {
        if pid > 0 && self.threads[t].pid.is_none() {
            self.threads[t].pid = Some(pid);
        }
    }

    /// The thread's time on both clocks.
    fn clock(&self, t: usize, ts: u64) -> PerClock {
        PerClock::new(ts, self.threads[t].sched.cpu_clock(ts))
    }

    /// The builder's thread of `t`'s slices, made with its first slice.
    fn slot(&mut self, t: usize, b: &mut ProfileBuilder) -> u32 {
        if self.threads[t].slot == NONE {
            self.threads[t].slot = b.stacks.add_thread(self.threads[t].tid, None);
        }
        self.threads[t].slot
    }

    /// The frame of a slice name; frames are numbered in order of appearance.
    pub fn frame(&mut self, name: &[u8], b: &mut ProfileBuilder) -> u32 {
        let name = if name.is_empty() { EMPTY_NAME } else { name };
        if let Some(&frame) = self.names.get(name) {
            return frame;
        }
        let info = FrameInfo::named(String::from_utf8_lossy(name).into_owned());
        let frame = b.frames.add_frame(self.names.len() as u64, Some(info));
        self.names.insert(name.into(), frame);
        self.frame_slices.named(frame, name);
        frame
    }

    /// A slice named `name` begins on thread `t`.
    pub fn begin(&mut self, t: usize, name: &[u8], ts: u64, b: &mut ProfileBuilder) {
        self.first_slice(b);
        let slot = self.slot(t, b);
        if b.stacks.depth(slot) >= MAX_DEPTH {
            b.facts.repairs.too_deep += 1;
            return;
        }
        let frame = self.frame(name, b);
        if self.frame_slices.marks(frame) {
            self.frame_slices.begin(t, frame, b.stacks.depth(slot), ts);
        }
        b.stacks.enter(slot, frame, self.clock(t, ts));
    }

    /// The slice on top of thread `t` ends (counted when none is open).
    #[inline]
    pub fn end(&mut self, t: usize, ts: u64, b: &mut ProfileBuilder) {
        let slot = self.threads[t].slot;
        if slot == NONE || !b.stacks.exit_top(slot, self.clock(t, ts)) {
            b.facts.repairs.unmatched_ends += 1;
            return;
        }
        if self.frame_slices.any_open() {
            self.frame_slices.end(t, b.stacks.depth(slot), ts);
        }
    }

    /// A slice of no length on thread `t`.
    pub fn instant(&mut self, t: usize, name: &[u8], ts: u64, b: &mut ProfileBuilder) {
        self.begin(t, name, ts, b);
        let slot = self.threads[t].slot;
        b.stacks.exit_top(slot, self.clock(t, ts));
    }

    /// A span on a track of its own begins; `cookie` tells concurrent spans apart.
    pub fn span_begin(&mut self, key: TrackKey, cookie: i64, name: &[u8], ts: u64, b: &mut ProfileBuilder) {
        self.first_slice(b);
        let frame = self.frame(name, b);
        self.tracks.begin(key, cookie, frame, ts);
    }

    /// The span of `key` and `cookie` ends; `track_name` names its track if new.
    pub fn span_end(&mut self, key: TrackKey, cookie: i64, track_name: &[u8], ts: u64, b: &mut ProfileBuilder) {
        if !self.tracks.end(key, cookie, track_name, ts, b) {
            b.facts.repairs.unmatched_ends += 1;
        }
    }

    /// A span of no length on a named track.
    pub fn track_instant(&mut self, key: TrackKey, name: &[u8], ts: u64, b: &mut ProfileBuilder) {
        self.first_slice(b);
        let frame = self.frame(name, b);
        let slot = self.tracks.slot(key.clone(), &key.name, b);
        b.stacks.enter(slot, frame, PerClock::new(ts, 0));
        b.stacks.exit_top(slot, PerClock::new(ts, 0));
    }

    /// A slice begins on a track whose slices nest like a thread's; `track_name` names
    /// the track if new.
    pub fn nested_begin(&mut self, key: TrackKey, track_name: &[u8], name: &[u8], ts: u64, b: &mut ProfileBuilder) {
        self.first_slice(b);
        let slot = self.tracks.slot(key, track_name, b);
        if b.stacks.depth(slot) >= MAX_DEPTH {
            b.facts.repairs.too_deep += 1;
            return;
        }
        let frame = self.frame(name, b);
        b.stacks.enter(slot, frame, PerClock::new(ts, 0));
    }

    /// The slice on top of a nesting track ends (counted when none is open).
    pub fn nested_end(&mut self, key: TrackKey, track_name: &[u8], ts: u64, b: &mut ProfileBuilder) {
        let slot = self.tracks.slot(key, track_name, b);
        if !b.stacks.exit_top(slot, PerClock::new(ts, 0)) {
            b.facts.repairs.unmatched_ends += 1;
        }
    }

    /// A counter's value at `ts`, in `unit` (empty: a plain count, or not said); with calls
    /// kept, its values over time too.
    pub fn count(&mut self, pid: u32, name: &[u8], unit: &str, value: i64, ts: u64, b: &ProfileBuilder) {
        if name == b"VSYNC-app" {
            self.frame_slices.vsync(ts);
        }
        self.tracks.count(pid, name, unit, value, b.stacks.keeps_calls().then_some(ts));
    }

    /// CPU `cpu` runs at `khz` from `ts` on: a counter of no process.
    pub fn cpu_frequency(&mut self, cpu: u32, khz: i64, ts: u64, b: &ProfileBuilder) {
        let name = format!("CPU {cpu} frequency");
        self.tracks.count(0, name.as_bytes(), "kHz", khz, b.stacks.keeps_calls().then_some(ts));
    }

    /// Events stop here until the next one (a dump of a capture made of several ended, or
    /// the recorder says it lost what follows).
    pub fn dump_end(&mut self) {
        if let Some(last) = self.dump_last.take() {
            self.dump_ended = Some(last);
        }
    }

    /// The first event after a loss: slices still open before it close at `end` (they
    /// would swallow every later slice of their thread), scheduler states are unknown
    /// through the gap, and the gap is recorded for the timeline.
    fn after_gap(&mut self, end: u64, next: u64, b: &mut ProfileBuilder) {
        for t in 0..self.threads.len() {
            let slot = self.threads[t].slot;
            if slot != NONE {
                b.facts.repairs.closed_at_gap += b.stacks.close_open(slot, self.clock(t, end));
                self.frame_slices.drop_open(t);
            }
            self.set_state(t, SchedState::Unknown, end, b);
        }
        self.cpus.fill(NONE);
        if next > end {
            self.gaps.push((end, next));
        }
    }

    /// The capture ended: async spans still open close at its end (and are counted);
    /// threads get their names, processes and scheduling.
    pub fn finish(&mut self, b: &mut ProfileBuilder) -> SystemEnd {
        let end = self.max_ts;
        b.facts.repairs.open_at_end += self.tracks.close_all(end, b);
        let scheduled = self.stats.sched_switches > 0;
        for t in 0..self.threads.len() {
            self.set_state(t, SchedState::Unknown, end, b);
            let entry = &self.threads[t];
            let name = (!entry.name.is_empty()).then(|| String::from_utf8_lossy(&entry.name).into_owned());
            if entry.pid == Some(entry.tid) && !self.process_names.contains_key(&entry.tid) {
                if let Some(name) = &name {
                    b.stacks.name_process(entry.tid, name.clone());
                }
            }
            let mut slot = entry.slot;
            if slot == NONE && scheduled && entry.sched.seen && entry.tid != 0 {
                // Known only from its scheduling: listed with its states (as its frames
                // where the capture has no slices).
                slot = if entry.state_slot != NONE { entry.state_slot } else { b.stacks.add_thread(entry.tid, None) };
                b.stacks.list(slot);
            }
            if slot == NONE {
                continue;
            }
            if let Some(name) = name {
                b.stacks.name_thread(slot, name, true);
            }
            // A thread whose id is a process's is that process's main thread, whether or not
            // the trace said so (a process tree lists a process, not its main thread).
            let main = self.process_names.contains_key(&entry.tid).then_some(entry.tid);
            if let Some(pid) = entry.pid.or(main).filter(|&p| p != 0) {
                b.stacks.set_process(slot, pid);
            }
            if scheduled {
                b.system.set_sched(slot, entry.sched.times);
                b.system.set_states(slot, std::mem::take(&mut self.threads[t].sched.log));
            }
        }
        let threads = &self.threads;
        let names = &self.process_names;
        let derived = self.frame_slices.finish(
            |t| frames::ThreadFacts { tid: threads[t].tid, pid: threads[t].pid, name: &threads[t].name },
            |pid| {
                let named = names.get(&pid).map(|n| &n[..]);
                let main = threads.iter().find(|t| t.tid == pid).map(|t| &t.name[..]).filter(|n| !n.is_empty());
                named.or(main).map(|n| String::from_utf8_lossy(n).into_owned())
            },
        );
        if let Some((frames, note)) = derived {
            b.system.derived_frames(frames, note);
        }
        if scheduled {
            b.system.cpu_count(self.cpus.len() as u32);
        }
        let mut functions: Vec<(&[u8], u32)> = self.blocked_functions.iter().map(|(f, &i)| (&f[..], i)).collect();
        functions.sort_unstable_by_key(|&(_, i)| i);
        b.system.blocked_functions(functions.iter().map(|(f, _)| String::from_utf8_lossy(f).into_owned()).collect());
        for (&pid, name) in &self.process_names {
            b.stacks.name_process(pid, String::from_utf8_lossy(name).into_owned());
        }
        SystemEnd {
            counters: self.tracks.counters(),
            timeline: self.min_ts.map(|min| (min, self.max_ts)),
            gaps: std::mem::take(&mut self.gaps),
            scheduled,
            states_as_frames: scheduled && self.stats.slices == 0,
        }
    }
}
