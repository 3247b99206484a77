//! One thread's scheduler state over time: running between being switched in and out,
//! runnable from a wakeup (or a preempted switch-out) until switched in, sleeping
//! otherwise; the running total is its CPU clock.

use crate::profile::{SchedState, SchedTimes, StateEntry, StateLog};

#[derive(Debug, Clone, Default, PartialEq, Eq)]
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
            SchedState::Sleeping => self.times.sleeping += spent,
            SchedState::Uninterruptible => self.times.uninterruptible += spent,
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

    /// A thread's scheduling read on from where this one stands: the same state since the
    /// same time, nothing counted or logged yet. Fed the states after this point and merged
    /// back (`merge`), it gives what this one fed every state would: reading a capture in
    /// parts.
    #[cfg_attr(not(test), expect(dead_code, reason = "reading in parts is tested here before a reader uses it"))]
    pub fn continuing(&self) -> Sched {
        Sched { times: SchedTimes::default(), log: StateLog::default(), ..self.clone() }
    }

    /// This thread's scheduling up to a point, with `later`'s, made by `continuing` at that
    /// point and fed the states after it.
    #[cfg_attr(not(test), expect(dead_code, reason = "reading in parts is tested here before a reader uses it"))]
    pub fn merge(mut self, later: Sched) -> Sched {
        self.log.append(&later.log);
        Sched { times: self.times + later.times, log: self.log, ..later }
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
        s.enter(at(225, SchedState::Uninterruptible), true);
        s.enter(at(260, SchedState::Runnable), true);
        s.enter(at(300, SchedState::Running), true);
        s.enter(at(310, SchedState::Unknown), true);
        assert_eq!(s.times, SchedTimes { running: 110, runnable: 40, sleeping: 25, uninterruptible: 35 });
        assert_eq!(s.cpu_clock(1000), 110);
        let logged: Vec<(u64, u64)> = s.log.spans(0, u64::MAX).map(|x| (x.entry.start, x.end)).collect();
        assert_eq!(logged, [(100, 200), (200, 225), (225, 260), (260, 300), (300, 310)]);
        // Each state entered is logged once, the unknown end with them; nothing before the
        // first known state.
        assert_eq!(s.log.len(), 6);
        // Seen again: the unknown stretch is not logged twice.
        s.enter(at(400, SchedState::Running), true);
        s.enter(at(450, SchedState::Unknown), true);
        assert_eq!(s.log.len(), 8);
        let logged: Vec<(u64, u64)> = s.log.spans(0, u64::MAX).map(|x| (x.entry.start, x.end)).collect();
        assert_eq!(logged, [(100, 200), (200, 225), (225, 260), (260, 300), (300, 310), (400, 450)]);
        assert_eq!(s.times.running, 160);
    }

    /// A thread's states read in two parts, the second continuing where the first stopped,
    /// merge into what reading them all at once gives: the times, the log (byte for byte),
    /// the state it is in and since when. Split at every place of a run of every kind of
    /// state, an unknown stretch among them.
    #[test]
    fn two_halves_merge_into_the_whole() {
        let states = [
            SchedState::Running,
            SchedState::Sleeping,
            SchedState::Runnable,
            SchedState::Running,
            SchedState::Preempted,
            SchedState::Running,
            SchedState::Uninterruptible,
            SchedState::Unknown,
            SchedState::Runnable,
            SchedState::Running,
            SchedState::Sleeping,
            SchedState::Unknown,
            SchedState::Running,
        ];
        let entries: Vec<StateEntry> = states
            .iter()
            .enumerate()
            .map(|(i, &state)| StateEntry {
                start: 100 + 37 * i as u64 + (i as u64 % 3) * 11,
                state,
                cpu: (state == SchedState::Running).then_some(i as u32 % 4),
                ..StateEntry::default()
            })
            .collect();
        for keep in [true, false] {
            let mut whole = Sched::default();
            entries.iter().for_each(|&e| whole.enter(e, keep));
            for split in 0..=entries.len() {
                let mut first = Sched::default();
                entries[..split].iter().for_each(|&e| first.enter(e, keep));
                let mut second = first.continuing();
                entries[split..].iter().for_each(|&e| second.enter(e, keep));
                assert_eq!(first.merge(second), whole, "split before entry {split}, keep {keep}");
            }
            // Known from the first entry to the first unknown one, and from the state after
            // it to the second; the last state is still running.
            let at = |i: usize| entries[i].start;
            let known = (at(7) - at(0)) + (at(11) - at(8));
            let t = whole.times;
            assert_eq!(t.running + t.runnable + t.sleeping + t.uninterruptible, known);
        }
    }
}
