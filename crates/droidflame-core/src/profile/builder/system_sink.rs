//! The system sink: app and display frames, each thread's scheduler times and states, the
//! CPUs and the kernel functions threads blocked in. It finishes into the profile's
//! `SystemTimeline` (each thread's states and times go to its thread).

use super::names::NameLimit;
use crate::options::Options;
use crate::profile::app_frames::AppFrame;
use crate::profile::states::{SchedTimes, StateLog};

#[derive(Debug, Clone)]
pub(crate) struct SystemSink {
    /// Frames apps produced.
    pub(super) app_frames: Vec<AppFrame>,
    /// The compositor's display frames.
    pub(super) display_frames: Vec<AppFrame>,
    /// App frames derived from slices, and the note that says how: the app frames where
    /// the trace recorded none.
    pub(super) derived_frames: Option<(Vec<AppFrame>, String)>,
    /// Each thread slot's scheduler states.
    pub(super) states: Vec<StateLog>,
    /// Each thread slot's time in each scheduler state, where the trace scheduled it.
    pub(super) sched: Vec<Option<SchedTimes>>,
    /// Kernel functions threads blocked in.
    pub(super) blocked_functions: Vec<String>,
    /// CPUs the scheduler ran threads on.
    pub(super) cpus: u32,
    pub(super) names: NameLimit,
}

impl SystemSink {
    pub fn new(options: &Options) -> Self {
        SystemSink {
            app_frames: Vec::new(),
            display_frames: Vec::new(),
            derived_frames: None,
            states: Vec::new(),
            sched: Vec::new(),
            blocked_functions: Vec::new(),
            cpus: 0,
            names: NameLimit::new(options.max_name_bytes),
        }
    }

    /// A frame an app produced (a frame timeline's), whole.
    pub fn app_frame(&mut self, mut frame: AppFrame) {
        frame.layer = self.names.clip(frame.layer);
        self.app_frames.push(frame);
    }

    /// App frames derived from an app's slices, and the note that says how: what the
    /// profile lists where the trace recorded no frames.
    pub fn derived_frames(&mut self, frames: Vec<AppFrame>, note: String) {
        self.derived_frames = Some((frames, note));
    }

    /// A display frame of the compositor (a frame timeline's), whole.
    pub fn display_frame(&mut self, frame: AppFrame) {
        self.display_frames.push(frame);
    }

    /// A thread slot's time in each scheduler state.
    pub fn set_sched(&mut self, thread: u32, sched: SchedTimes) {
        if self.sched.len() <= thread as usize {
            self.sched.resize(thread as usize + 1, None);
        }
        self.sched[thread as usize] = Some(sched);
    }

    /// A thread slot's scheduler states over time.
    pub fn set_states(&mut self, thread: u32, mut states: StateLog) {
        if self.states.len() <= thread as usize {
            self.states.resize(thread as usize + 1, StateLog::default());
        }
        states.shrink();
        self.states[thread as usize] = states;
    }

    /// The kernel functions threads blocked in, as `StateEntry::blocked` numbers them.
    pub fn blocked_functions(&mut self, functions: Vec<String>) {
        self.blocked_functions = functions;
    }

    /// The scheduler ran threads on CPUs numbered below `cpus`.
    pub fn cpu_count(&mut self, cpus: u32) {
        self.cpus = cpus;
    }

    /// A sink that reads on from this one: the same limits, nothing yet.
    pub(super) fn continuing(&self) -> SystemSink {
        SystemSink { names: self.names.fresh(), ..SystemSink::new(&Options::default()) }
    }

    /// This sink with `later`, fed what came after: frames of both, each thread's states
    /// one after the other and its times summed.
    pub(super) fn merge(&mut self, later: SystemSink) {
        self.app_frames.extend(later.app_frames);
        self.display_frames.extend(later.display_frames);
        self.derived_frames = later.derived_frames.or(self.derived_frames.take());
        for (slot, states) in later.states.into_iter().enumerate().filter(|(_, s)| !s.is_empty()) {
            if slot >= self.states.len() {
                self.states.resize_with(slot + 1, Default::default);
            }
            self.states[slot].append(&states);
        }
        for (slot, times) in later.sched.into_iter().enumerate() {
            let Some(later) = times else { continue };
            if slot >= self.sched.len() {
                self.sched.resize(slot + 1, None);
            }
            let earlier = self.sched[slot].unwrap_or_default();
            self.sched[slot] = Some(earlier + later);
        }
        // A decoder gives its whole list once, at its end (states number into it).
        if !later.blocked_functions.is_empty() {
            self.blocked_functions = later.blocked_functions;
        }
        self.cpus = self.cpus.max(later.cpus);
        self.names.cut += later.names.cut;
    }
}
