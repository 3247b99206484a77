//! One thread's scheduler state over time: running between being switched in
//! and out, runnable from a wakeup (or a preempted switch-out) until switched in,
//! sleeping otherwise. The running total is the thread's CPU clock.

use crate::profile::SchedTimes;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum SchedState {
    /// Not yet seen by the scheduler: time here is not counted.
    #[default]
    Unknown,
    Running,
    Runnable,
    Sleeping,
}

#[derive(Debug, Default)]
pub struct Sched {
    pub state: SchedState,
    since: u64,
    pub times: SchedTimes,
}

impl Sched {
    /// Moves to `state` at `ts`, adding the time spent in the state left.
    pub fn enter(&mut self, state: SchedState, ts: u64) {
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
