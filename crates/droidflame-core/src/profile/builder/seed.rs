//! Marks and seeds: what re-reading part of a trace needs from the stack sink. A mark is
//! each thread's stack and times between two chunks; a builder seeded with one thread's
//! mark reads on from there and rebuilds that thread's calls exactly as they were, short
//! ones included.

use super::keep::KeepCalls;
use super::stack_sink::StackSink;
use super::thread_state::Open;
use crate::profile::calls::ThreadCalls;
use crate::profile::clock::PerClock;

/// One thread between two chunks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ThreadMark {
    /// Whether it had an event yet.
    pub started: bool,
    /// Its last event's time on the timeline clock.
    pub last: u64,
    /// The latest end of its calls so far: no call of it that returned ends later.
    pub latest_end: u64,
    /// Frames from before tracing put under its stack so far.
    pub rebases: usize,
    /// Its open frames, outermost first: frame slot and when it was entered.
    pub stack: Vec<(u32, PerClock)>,
}

/// A thread's calls as re-read: by depth as filed, with how many frames from before
/// tracing were put under the stack while reading, and where those frames were filed.
#[derive(Debug, Clone)]
pub(crate) struct ReadCalls {
    pub calls: ThreadCalls,
    pub rebases: usize,
    pub from_before: Vec<(usize, usize)>,
}

impl StackSink {
    /// Every thread's mark now.
    pub(crate) fn marks(&self) -> Vec<ThreadMark> {
        self.threads
            .iter()
            .map(|t| ThreadMark {
                started: t.started,
                last: t.last.wall,
                latest_end: t.latest_end,
                rebases: t.from_before.len(),
                stack: t.stack.iter().map(|open| (open.frame, open.enter)).collect(),
            })
            .collect()
    }

    /// Each thread slot's tid, first time and frames from before tracing: what a sink
    /// re-reading the trace starts from.
    pub(crate) fn thread_slots(&self) -> Vec<(u32, PerClock, usize)> {
        self.threads.iter().map(|t| (t.tid, t.first, t.from_before.len())).collect()
    }

    /// Keeps every call of `thread`, none of any other, whatever `Options` said.
    pub(crate) fn keep_only(&mut self, thread: u32) {
        self.keep = KeepCalls { on: true, shortest: 0 };
        self.only_thread = Some(thread);
    }

    /// Puts `thread` where `mark` found it: first event at `first`, the same frames open.
    pub(crate) fn seed(&mut self, thread: u32, first: PerClock, mark: &ThreadMark) {
        let state = &mut self.threads[thread as usize];
        state.started = mark.started;
        state.first = first;
        state.last = PerClock { wall: mark.last, cpu: first.cpu };
        for &(frame, enter) in &mark.stack {
            let parent = state.stack.last().map_or(crate::profile::tree::CallTree::ROOT, |open| open.node);
            let node = state.tree.child(parent, frame, &mut self.budget);
            state.stack.push(Open { node, frame, enter });
        }
    }

    /// `thread`'s latest time and the start of its innermost open frame (if any).
    pub(crate) fn progress(&self, thread: u32) -> (u64, Option<u64>) {
        let state = &self.threads[thread as usize];
        (state.last.wall, state.stack.last().map(|open| open.enter.wall))
    }

    /// Closes `thread`'s open frames as the end of the input does (`wall_end` as in
    /// `finish`).
    pub(crate) fn close_at_end(&mut self, thread: u32, wall_end: Option<u64>) {
        let keep = self.keep;
        self.threads[thread as usize].close_at_end(wall_end, keep);
    }

    /// Hands over `thread`'s calls.
    pub(crate) fn take_calls(&mut self, thread: u32) -> ReadCalls {
        let state = &mut self.threads[thread as usize];
        ReadCalls {
            calls: std::mem::take(&mut state.calls),
            rebases: state.from_before.len(),
            from_before: std::mem::take(&mut state.calls_from_before),
        }
    }
}
