//! One thread's (or track's) part of a stack profile: its call tree, calls and states.

use super::calls::ThreadCalls;
use super::clock::PerClock;
use super::states::{SchedTimes, StateLog};
use super::time_log::TimeLog;
use super::tree::CallTree;

/// One thread's part of the profile.
#[derive(Debug, Clone)]
pub struct ThreadProfile {
    /// The thread's id (a track's is 2^31 and up).
    pub tid: u32,
    /// Its name; `Thread 12` where the trace gives none.
    pub name: String,
    /// Events the trace recorded for it (method records, slice markers).
    pub records: u64,
    /// Its calls, merged by stack.
    pub tree: CallTree,
    /// Time of its first event, in ticks.
    pub first: PerClock,
    /// Time of its last event (or later sign of life), in ticks.
    pub last: PerClock,
    /// The process it belongs to, where the trace says.
    pub pid: Option<u32>,
    /// That process's name, where the trace says.
    pub process: Option<String>,
    /// A named track of spans (async slices), not a thread of execution.
    pub track: bool,
    /// One heap of a heap dump, not a thread: its frame is its name alone.
    pub heap: bool,
    /// Time in each scheduler state, where the trace has scheduler events.
    pub sched: Option<SchedTimes>,
    /// Its scheduler states over time; empty unless `Options::keep_calls` asked.
    pub states: StateLog,
    /// When each of its CPU samples was taken (ticks); empty for a thread of calls, and
    /// unless `Options::keep_calls` asked.
    pub sample_times: TimeLog,
    /// Each call with its start and end; empty unless `Options::keep_calls` asked.
    pub calls: ThreadCalls,
    /// Its slot while the trace was read: what reading part of it again needs.
    pub(crate) slot: u32,
}

impl ThreadProfile {
    /// `name [tid]`: the thread's frame in "all threads" graphs and folded output; a
    /// heap's is its name.
    pub fn label(&self) -> String {
        match self.heap {
            true => self.name.clone(),
            false => format!("{} [{}]", self.name, self.shown_tid()),
        }
    }

    /// The thread's id as the trace wrote it: see [`shown_tid`].
    pub fn shown_tid(&self) -> i64 {
        shown_tid(self.tid, self.track)
    }
}

/// A thread id as the trace wrote it: a thread's is a signed 32-bit number (recorders write
/// -1 for a thread they did not know, which the model holds as 2^32 - 1); a track's is 2^31
/// and up.
pub fn shown_tid(tid: u32, track: bool) -> i64 {
    if track {
        i64::from(tid)
    } else {
        i64::from(tid as i32)
    }
}
