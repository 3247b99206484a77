//! One thread's scheduler state over time: running between being switched in and out,
//! runnable from a wakeup (or a preempted switch-out) until switched in, sleeping
//! otherwise; the running total is its CPU clock.

use crate::profile::{SchedState, SchedTimes, StateEntry, StateLog};

#[derive(Debug, Default)]
pub struct Sched {
    pub state: SchedState,
    /// When it entered `state`.
    pub since: u64,
    pub times: SchedTimes,
    /// The scheduler has seen the thread.
    pub seen: bool,
    /// The state entered last, with its details; logged when the next one begins (a
    /// blocked reason follows the switch it explains).
    pub current: StateEntry,
    /// The states so far, where states are kept.
    pub log: StateLog,
    /// `current` is in `log` already.
    logged: bool,
}

impl Sched {
    /// Moves to `entry`'s state at its start, adding the time spent in the state left;
    /// `keep` logs the state left.
    pub fn enter(&mut self, mut entry: StateEntry, keep: bool) {
        // A time before the state it ends (a capture out of order) is taken as that state's
        // start: no state runs backwards, and the totals stay the log's.
        entry.start = entry.start.max(self.since);
        let (state, ts) = (entry.state, entry.start);
        self.seen |= state != SchedState::Unknown;
        let spent = ts.saturating_sub(self.since);
        match self.state {
            SchedState::Running => self.times.running += spent,
            SchedState::Runnable | SchedState::Preempted => self.times.runnable += spent,
            SchedState::Sleeping | SchedState::Uninterruptible => self.times.sleeping += spent,
            SchedState::Unknown => {}
        }
        if keep {
            if !self.logged && (self.current.state != SchedState::Unknown || !self.log.is_empty()) {
                self.log.push(self.current);
            }
            // Nothing amends an unknown state: it is logged at once, so a log always ends.
            self.logged = state == SchedState::Unknown && !self.log.is_empty();
            if self.logged {
                self.log.push(entry);
            }
        }
        self.current = entry;
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
        let at = |start, state| StateEntry { start, state, ..StateEntry::default() };
        s.enter(at(100, SchedState::Running), true);
        assert_eq!(s.cpu_clock(150), 50);
        s.enter(at(200, SchedState::Sleeping), true);
        s.enter(at(260, SchedState::Runnable), true);
        s.enter(at(300, SchedState::Running), true);
        s.enter(at(310, SchedState::Unknown), true);
        assert_eq!(s.times, SchedTimes { running: 110, runnable: 40, sleeping: 60 });
        assert_eq!(s.cpu_clock(1000), 110);
        let logged: Vec<(u64, u64)> = s.log.spans(0, u64::MAX).map(|x| (x.entry.start, x.end)).collect();
        assert_eq!(logged, [(100, 200), (200, 260), (260, 300), (300, 310)]);
        // Each state entered is logged once, the unknown end with them; nothing before the
        // first known state.
        assert_eq!(s.log.len(), 5);
        // Seen again: the unknown stretch is not logged twice.
        s.enter(at(400, SchedState::Running), true);
        s.enter(at(450, SchedState::Unknown), true);
        assert_eq!(s.log.len(), 7);
        let logged: Vec<(u64, u64)> = s.log.spans(0, u64::MAX).map(|x| (x.entry.start, x.end)).collect();
        assert_eq!(logged, [(100, 200), (200, 260), (260, 300), (300, 310), (400, 450)]);
        assert_eq!(s.times.running, 160);
    }
}
