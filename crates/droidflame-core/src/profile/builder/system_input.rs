//! The builder's system timeline: app and display frames, scheduler times and states, the
//! CPUs and the kernel functions threads blocked in.

use super::ProfileBuilder;
use crate::profile::app_frames::AppFrame;
use crate::profile::states::{SchedTimes, StateLog};

impl ProfileBuilder {
    /// A frame an app produced (a frame timeline's), whole.
    pub fn app_frame(&mut self, mut frame: AppFrame) {
        frame.layer = self.clip_name(frame.layer);
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
    pub fn set_sched(&mut self, thread: u32, sched: SchedTimes) {
        self.threads[thread as usize].sched = Some(sched);
    }
    /// A thread's scheduler states over time.
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
}
