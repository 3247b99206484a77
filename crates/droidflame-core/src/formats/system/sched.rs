//! Scheduling: one thread's state over time is running between being switched in and
//! out, runnable from a wakeup (or a preempted switch-out) until switched in, sleeping
//! otherwise; the running total is the thread's CPU clock. Until the capture's first slice,
//! each thread's states are also its frames (`Running`, `Runnable`, `Sleeping`), so that a
//! capture of kernel events alone has a graph and a timeline.

use super::tracks::TRACK_ID_BASE;
use super::SystemTrace;
use crate::profile::{PerClock, ProfileBuilder, SchedState, StateEntry, NONE};

/// CPUs beyond this are not tracked for scheduling (no device comes near).
const MAX_CPUS: u32 = 4096;

/// The frame name of a state, in a capture whose only frames are states.
fn frame_name(state: SchedState) -> Option<&'static [u8]> {
    match state {
        SchedState::Unknown => None,
        SchedState::Running => Some(b"Running"),
        SchedState::Runnable | SchedState::Preempted => Some(b"Runnable"),
        SchedState::Sleeping | SchedState::Uninterruptible => Some(b"Sleeping"),
    }
}

impl SystemTrace {
    /// Thread `t` moves to `state` at `ts`; while the capture has no slices, its state
    /// frames follow.
    pub(super) fn set_state(&mut self, t: usize, state: SchedState, ts: u64, b: &mut ProfileBuilder) {
        self.enter_state(t, StateEntry { start: ts, state, ..StateEntry::default() }, b);
    }

    /// Thread `t` enters `entry`'s state, with the details it has.
    fn enter_state(&mut self, t: usize, entry: StateEntry, b: &mut ProfileBuilder) {
        let thread = &mut self.threads[t];
        if thread.sched.state == entry.state {
            return;
        }
        thread.sched.enter(entry, b.stacks.keeps_calls());
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
            entry.state_slot = b.stacks.add_thread(entry.tid, None);
        }
        let slot = entry.state_slot;
        b.stacks.exit_top(slot, clock);
        if let Some(name) = frame_name(entry.sched.state) {
            let frame = self.frame(name, b);
            b.stacks.enter(slot, frame, clock);
        }
    }

    /// The capture's first slice: threads' frames are slices from now on, and the state
    /// frames so far are let go.
    pub(super) fn first_slice(&mut self, b: &mut ProfileBuilder) {
        self.stats.slices += 1;
        if self.stats.slices != 1 {
            return;
        }
        for entry in &mut self.threads {
            if entry.state_slot != NONE {
                b.stacks.discard(entry.state_slot);
                entry.state_slot = NONE;
            }
        }
    }

    /// Whoever writes an event is on a CPU. A CPU's first event comes before any switch
    /// there: its writer is running from then, whatever was known of it (its switch in is
    /// older than the CPU's buffer kept). Later writers were switched in where the trace says.
    pub fn on_cpu(&mut self, cpu: u32, t: usize, ts: u64, b: &mut ProfileBuilder) {
        let Some(running_there) = self.cpu_entry(cpu) else {
            return;
        };
        if *running_there == NONE {
            *running_there = t as u32;
            if self.threads[t].tid != 0 {
                self.enter_state(t, running(cpu, ts), b);
            }
        }
    }

    /// The thread running on `cpu` (an index into `threads`, or `NONE`), the table grown to
    /// hold it; `None` for a CPU beyond `MAX_CPUS`.
    fn cpu_entry(&mut self, cpu: u32) -> Option<&mut u32> {
        if cpu >= MAX_CPUS {
            return None;
        }
        let at = cpu as usize;
        if self.cpus.len() <= at {
            self.cpus.resize(at + 1, NONE);
        }
        Some(&mut self.cpus[at])
    }

    /// CPU `cpu` switches from `prev` (tid, name, the state it leaves in: preempted,
    /// sleeping or uninterruptible) to `next` (tid, name).
    pub fn switch(
        &mut self,
        cpu: u32,
        prev: (u32, &[u8], SchedState),
        next: (u32, &[u8]),
        ts: u64,
        b: &mut ProfileBuilder,
    ) {
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
            self.set_state(t, prev.2, ts, b);
        }
        let t = self.thread(next.0);
        if next.0 != 0 {
            self.name_thread(t, next.1);
            self.enter_state(t, running(cpu, ts), b);
        }
        if let Some(running_there) = self.cpu_entry(cpu) {
            *running_there = t as u32;
        }
    }

    /// The thread id running on `cpu`, where known.
    pub fn running(&self, cpu: u32) -> Option<u32> {
        let t = *self.cpus.get(cpu as usize)?;
        (t != NONE).then(|| self.threads[t as usize].tid).filter(|&tid| tid != 0)
    }

    /// Thread `tid` is woken by `waker` (where known; a thread the trace has, one whose
    /// events `event` took): runnable until switched in.
    pub fn wakeup(&mut self, tid: u32, waker: Option<u32>, ts: u64, b: &mut ProfileBuilder) {
        if tid == 0 || tid >= TRACK_ID_BASE {
            return;
        }
        let t = self.thread(tid);
        if matches!(
            self.threads[t].sched.state,
            SchedState::Sleeping | SchedState::Uninterruptible | SchedState::Unknown
        ) {
            // A waker of 0 is the idle task: an interrupt on an idle CPU woke it.
            let waker = waker.filter(|&w| w != tid);
            self.enter_state(
                t,
                StateEntry { start: ts, state: SchedState::Runnable, waker, ..StateEntry::default() },
                b,
            );
        }
    }

    /// Thread `tid`, just switched out in uninterruptible sleep, blocked in `function`
    /// (where the trace names it) and waits for I/O or not.
    pub fn blocked(&mut self, tid: u32, function: Option<&[u8]>, io_wait: bool) {
        let Some(&t) = self.tid_index.get(&tid) else {
            return;
        };
        let blocked = function.filter(|f| !f.is_empty()).map(|f| {
            let next = self.blocked_functions.len() as u32;
            *self.blocked_functions.entry(f.into()).or_insert(next)
        });
        let current = &mut self.threads[t as usize].sched.current;
        if current.state == SchedState::Uninterruptible {
            current.blocked = blocked;
            current.io_wait = io_wait;
        }
    }
}

fn running(cpu: u32, ts: u64) -> StateEntry {
    StateEntry { start: ts, state: SchedState::Running, cpu: Some(cpu), ..StateEntry::default() }
}
