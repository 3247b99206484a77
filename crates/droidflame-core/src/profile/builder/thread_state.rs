//! A thread while it is read: its open calls, its call tree so far and its calls kept.

use super::keep::KeepCalls;
use crate::profile::calls::{Call, ThreadCalls};
use crate::profile::clock::PerClock;
use crate::profile::time_log::TimeLog;
use crate::profile::tree::{CallTree, NodeBudget, TreeBuilder};
use serde::{Deserialize, Serialize};

/// The frame of an anchor node, in a piece (`piece.rs`): no real frame has it (nor `NONE`,
/// which a node's hint of its last child starts with).
pub(super) const ANCHOR: u32 = u32::MAX - 1;

/// In a piece: an exit of a frame the thread had not entered in the piece, as the piece
/// met it (`piece.rs`).
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub(super) struct PrefixExit {
    pub frame: u32,
    pub t: PerClock,
    /// The piece had frames of its own open above it, which it closed.
    pub above: bool,
    /// The anchor made after it; every node before it was made before the exit.
    pub anchor: u32,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub(super) struct Open {
    pub(super) node: u32,
    pub(super) frame: u32,
    pub(super) enter: PerClock,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct ThreadState {
    pub(super) tid: u32,
    pub(super) name: Option<String>,
    pub(super) events: u64,
    pub(super) started: bool,
    pub(super) stack: Vec<Open>,
    pub(super) tree: TreeBuilder,
    pub(super) first: PerClock,
    pub(super) last: PerClock,
    /// With calls kept: the latest end of any call that returned so far, on the timeline
    /// clock. Times can run backwards in a damaged trace, so the last event's time does
    /// not bound the calls that ended before it.
    pub(super) latest_end: u64,
    pub(super) pid: Option<u32>,
    pub(super) track: bool,
    /// Kept in the profile even without events (a thread known only from its scheduling).
    pub(super) listed: bool,
    /// Nodes of calls that began before tracing did, one entry per call: on the wall clock
    /// they start at the timeline's start, known only at the end.
    pub(super) from_before: Vec<u32>,
    /// Calls as they return, when calls are kept; frames are slots until the end.
    pub(super) calls: ThreadCalls,
    /// Each call from before tracing that was kept: how many such frames had been put
    /// under the stack when it was (its own included), and its place at depth 0 then.
    /// Each later one put it one level deeper.
    pub(super) calls_from_before: Vec<(usize, usize)>,
    /// A sampled thread's samples by the node their stack ends at (empty for a thread of
    /// calls): the nodes' counts once the thread is finished (see `Count`).
    pub(super) samples: Vec<u64>,
    /// When each sample was taken, where calls are kept.
    pub(super) sample_times: TimeLog,
    /// In a piece: exits of frames entered before it, in order (`piece.rs`).
    pub(super) prefix_exits: Vec<PrefixExit>,
    /// In a piece, where calls are kept: the calls that returned before each of those
    /// exits and after the one before (`calls` holds those after the last).
    pub(super) calls_before_exits: Vec<ThreadCalls>,
}

impl ThreadState {
    pub(super) fn new(tid: u32, name: Option<String>) -> Self {
        ThreadState {
            tid,
            name,
            events: 0,
            started: false,
            stack: Vec::new(),
            tree: TreeBuilder::new(),
            first: PerClock::ZERO,
            last: PerClock::ZERO,
            latest_end: 0,
            pid: None,
            track: false,
            listed: false,
            from_before: Vec::new(),
            calls: ThreadCalls::new(),
            calls_from_before: Vec::new(),
            samples: Vec::new(),
            sample_times: TimeLog::default(),
            prefix_exits: Vec::new(),
            calls_before_exits: Vec::new(),
        }
    }

    /// Enters `frame` at `t` on top of the stack; false, with nothing entered, where the
    /// stack is `max_depth` deep already.
    #[inline(always)]
    pub(super) fn open(&mut self, frame: u32, t: PerClock, max_depth: usize, budget: &mut NodeBudget) -> bool {
        if self.stack.len() >= max_depth {
            return false;
        }
        let parent = self.stack.last().map_or(CallTree::ROOT, |open| open.node);
        let node = self.tree.child(parent, frame, budget);
        self.stack.push(Open { node, frame, enter: t });
        true
    }

    /// `open` returns at `t`; it was at depth `stack.len()` (already popped). It is kept
    /// if `keep` says so.
    #[inline(always)]
    pub(super) fn close(&mut self, open: Open, t: PerClock, keep: KeepCalls) {
        let took = t.since(open.enter);
        let node = self.tree.node_mut(open.node);
        node.calls += 1;
        node.incl.add(took);
        // Damaged times can run backwards; a call never ends before it starts.
        let end = t.wall.max(open.enter.wall);
        if keep.on {
            self.latest_end = self.latest_end.max(end);
            if end - open.enter.wall >= keep.shortest {
                let call = Call { start: open.enter.wall, end, cpu: took.cpu, frame: open.frame, node: open.node };
                self.calls.push(self.stack.len(), call);
            }
        }
    }

    /// Closes every open frame where the input ended: at the thread's last event, on the
    /// wall clock at `wall_end` where given (the timeline's end, when no data was lost
    /// there and the trace has a wall clock).
    pub(super) fn close_at_end(&mut self, wall_end: Option<u64>, keep: KeepCalls) {
        let mut last = self.last;
        if let Some(end) = wall_end {
            last.wall = last.wall.max(end);
        }
        while let Some(open) = self.stack.pop() {
            self.close(open, last, keep);
        }
    }

    /// An event at `t` that enters or exits a frame. Only an enter on an empty stack or an
    /// exit of a frame not on top can be a thread's first (any other follows an enter), so
    /// only those look at `started`.
    #[inline(always)]
    pub(super) fn count_at(&mut self, t: PerClock, maybe_first: bool) {
        self.events += 1;
        if maybe_first && !self.started {
            self.started = true;
            self.first = t;
        }
        self.last = t;
    }

    /// In a piece: `frame` returns at `t` and is not on the piece's own stack. The piece's
    /// frames above the anchor close, and reading goes on under a new anchor.
    #[cold]
    pub(super) fn exit_prefix(&mut self, budget: &mut NodeBudget, frame: u32, t: PerClock, keep: KeepCalls) {
        let mut above = false;
        while let Some(open) = self.stack.pop() {
            if open.frame == ANCHOR {
                break;
            }
            above = true;
            self.close(open, t, keep);
        }
        if keep.on {
            self.calls_before_exits.push(std::mem::take(&mut self.calls));
        }
        let parent = self.prefix_exits.last().map_or(CallTree::ROOT, |exit| exit.anchor);
        let anchor = self.tree.child(parent, ANCHOR, budget);
        self.stack.push(Open { node: anchor, frame: ANCHOR, enter: t });
        self.prefix_exits.push(PrefixExit { frame, t, above, anchor });
    }
}
