//! Scheduling: one thread's state over time is running between being switched in and
//! out, runnable from a wakeup (or a preempted switch-out) until switched in, sleeping
//! otherwise; the running total is the thread's CPU clock. Until the capture's first slice,
//! each thread's states are also its frames (`Running`, `Runnable`, `Sleeping`), so that a
//! capture of kernel events alone has a graph and a timeline.

use super::{SystemTrace, TRACK_ID_BASE};
use crate::profile::{PerClock, ProfileBuilder, SchedTimes, NONE};

/// CPUs beyond this are not tracked for scheduling (no device comes near).
const MAX_CPUS: u32 = 4096;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum SchedState {
    /// Not yet seen by the scheduler: time here is not counted.
    #[default]
    Unknown,
    Running,
    Runnable,
    Sleeping,
}

impl SchedState {
    /// The frame name of the state, where it is one.
    fn frame_name(self) -> Option<&'static [u8]> {
        match self {
            SchedState::Unknown => None,
            SchedState::Running => Some(b"Running"),
            SchedState::Runnable => Some(b"Runnable"),
            SchedState::Sleeping => Some(b"Sleeping"),
        }
    }
}

#[derive(Debug, Default)]
pub struct Sched {
    pub state: SchedState,
    /// When it entered `state`.
    pub since: u64,
    pub times: SchedTimes,
    /// The scheduler has seen the thread.
    pub seen: bool,
}

impl Sched {
    /// Moves to `state` at `ts`, adding the time spent in the state left.
    pub fn enter(&mut self, state: SchedState, ts: u64) {
        self.seen |= state != SchedState::Unknown;
        let spent = ts.saturating_sub(self.since);
        match self.state {
            SchedState::Running => self.times.running += spent,
            SchedState::Runnable => self.times.runnable += spent,
            SchedState::Sleeping => self.times.sleeping += spent,
            SchedState::Unknown => {}
        }
        self.state = state;
        self.since = ts;
    }

    /// On-CPU time up to `ts`.
    pub fn cpu_clock(&self, ts: u64) -> u64 {
        match self.state {
            SchedState::Running => self.times.running + ts.saturating_sub(self.since),
            _ => self.times.running,
        }
    }
}

impl SystemTrace {
    /// Thread `t` moves to `state` at `ts`; while the capture has no slices, its state
    /// frames follow.
    pub(super) fn set_state(&mut self, t: usize, state: SchedState, ts: u64, b: &mut ProfileBuilder) {
        let entry = &mut self.threads[t];
        if entry.sched.state == state {
            return;
        }
        entry.sched.enter(state, ts);
        // Before the first `sched_switch`, states are guesses that may never be confirmed.
        if self.stats.slices == 0 && self.stats.sched_switches > 0 {
            self.state_frame(t, b);
        }
    }

    /// Thread `t`'s state frame, from now: the one before ends.
    fn state_frame(&mut self, t: usize, b: &mut ProfileBuilder) {
        let entry = &mut self.threads[t];
        if entry.tid == 0 {
            return;
        }
        let since = entry.sched.since;
        let clock = PerClock::new(since, entry.sched.cpu_clock(since));
        if entry.state_slot == NONE {
            entry.state_slot = b.add_thread(entry.tid, None);
        }
        let slot = entry.state_slot;
        b.exit_top(slot, clock);
        if let Some(name) = entry.sched.state.frame_name() {
            let frame = self.frame(name, b);
            b.enter(slot, frame, clock);
        }
    }

    /// The capture's first slice: threads' frames are slices from now on, and the state
    /// frames so far are let go.
    pub(super) fn first_slice(&mut self, b: &mut ProfileBuilder) {
        self.stats.slices += 1;
        if self.stats.slices > 1 {
            return;
        }
        for entry in &mut self.threads {
            if entry.state_slot != NONE {
                b.discard(entry.state_slot);
                entry.state_slot = NONE;
            }
        }
    }

    /// Whoever writes an event on a CPU before its first `sched_switch` is running there.
    pub fn on_cpu(&mut self, cpu: u32, t: usize, ts: u64, b: &mut ProfileBuilder) {
        if cpu >= MAX_CPUS {
            return;
        }
        if self.cpus.len() <= cpu as usize {
            self.cpus.resize(cpu as usize + 1, NONE);
        }
        if self.cpus[cpu as usize] == NONE {
            self.cpus[cpu as usize] = t as u32;
            let entry = &self.threads[t];
            if entry.tid != 0 && entry.sched.state == SchedState::Unknown {
                self.set_state(t, SchedState::Running, ts, b);
            }
        }
    }

    /// CPU `cpu` switches from `prev` (tid, name, still runnable) to `next` (tid, name).
    pub fn switch(&mut self, cpu: u32, prev: (u32, &[u8], bool), next: (u32, &[u8]), ts: u64, b: &mut ProfileBuilder) {
        if prev.0 >= TRACK_ID_BASE || next.0 >= TRACK_ID_BASE {
            return;
        }
        self.stats.sched_switches += 1;
        if self.stats.sched_switches == 1 && self.stats.slices == 0 {
            // The states guessed so far are confirmed: their frames begin where they did.
            for t in 0..self.threads.len() {
                if self.threads[t].sched.state != SchedState::Unknown {
                    self.state_frame(t, b);
                }
            }
        }
        if prev.0 != 0 {
            let t = self.thread(prev.0);
            self.name_thread(t, prev.1);
            let state = if prev.2 { SchedState::Runnable } else { SchedState::Sleeping };
            self.set_state(t, state, ts, b);
        }
        let t = self.thread(next.0);
        if next.0 != 0 {
            self.name_thread(t, next.1);
            self.set_state(t, SchedState::Running, ts, b);
        }
        if cpu < MAX_CPUS {
            if self.cpus.len() <= cpu as usize {
                self.cpus.resize(cpu as usize + 1, NONE);
            }
            self.cpus[cpu as usize] = t as u32;
        }
    }

    /// The thread id running on `cpu`, where known.
    pub fn running(&self, cpu: u32) -> Option<u32> {
        let t = *self.cpus.get(cpu as usize)?;
        (t != NONE).then(|| self.threads[t as usize].tid)
    }

    /// Thread `tid` is woken: runnable until switched in.
    pub fn wakeup(&mut self, tid: u32, ts: u64, b: &mut ProfileBuilder) {
        if tid == 0 || tid >= TRACK_ID_BASE {
            return;
        }
        let t = self.thread(tid);
        if matches!(self.threads[t].sched.state, SchedState::Sleeping | SchedState::Unknown) {
            self.set_state(t, SchedState::Runnable, ts, b);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_add_up() {
        let mut s = Sched::default();
        s.enter(SchedState::Running, 100);
        assert_eq!(s.cpu_clock(150), 50);
        s.enter(SchedState::Sleeping, 200);
        s.enter(SchedState::Runnable, 260);
        s.enter(SchedState::Running, 300);
        s.enter(SchedState::Unknown, 310);
        assert_eq!(s.times, SchedTimes { running: 110, runnable: 40, sleeping: 60 });
        assert_eq!(s.cpu_clock(1000), 110);
    }
}
