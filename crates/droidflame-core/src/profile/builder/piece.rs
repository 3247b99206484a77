//! Reading in pieces at once: a builder that reads a later part of the input before the
//! parts ahead of it are read, and the join that puts it after them, sink by sink, so that
//! the whole gives what one builder fed every event gives.
//!
//! A piece's thread starts on a stack it does not know, its prefix. Its tree's root stands
//! for the prefix: frames entered on an empty stack go under it. An exit of a frame that
//! is not on the piece's own stack returns a frame of the prefix, or one that was running
//! before tracing began where the prefix turns out not to hold it either. The piece closes
//! its own frames at that time, logs the exit, and reads on under an anchor, a node that
//! stands for what is left of the prefix. The join replays each logged exit against the
//! real stack as the stack sink would have met it, and places each of the piece's nodes
//! under the node its anchor turned out to be, in the order the piece made them, so the
//! joined tree numbers its nodes as one reading does.
//!
//! Calls kept in a piece are filed at their depth in the piece, in one list per stretch
//! between two logged exits; the join files each stretch as deep as its prefix then was,
//! before replaying the exit that ends it, so each depth stays in the order one reading
//! files it.
//!
//! A piece reads enters, exits and skipped events only (samples, `exit_top`, `close_open`
//! and `touch` need the stack they change) and makes no frames: a join that could differ
//! from reading once says so ([`Doubt`]) and the input is read once.
//!
//! A piece past `Options::max_calls` lets its shortest calls go as one reading does. Its
//! threshold counts only its own calls, so it is at most the one the whole trace ends
//! with, and the finish lets go again by every call kept (`StackSink::let_go_at_end`):
//! pieces and one reading keep the same calls. Calls the join closes (frames of a
//! prefix) are kept whatever their length until then.
//!
//! A piece's checkpoints, for reading calls again, know where each thread stood only above
//! its prefix ([`PieceMark`]): how many of the prefix's exits it had met, and its own open
//! frames. The join puts the prefix's frames that were still open then under them.

use super::keep::KeepCalls;
use super::seed::ThreadMark;
use super::stack_sink::{exit_below_top, StackSink};
use super::thread_state::{Open, PrefixExit, ThreadState, ANCHOR};
use super::ProfileBuilder;
use crate::profile::clock::PerClock;
use crate::profile::repairs::Repairs;
use crate::profile::tree::{CallTree, NodeBudget, NONE};

/// A join could give what one reading does not: read the input once instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Doubt;

/// A builder reading one piece, and what it started from.
#[derive(Debug)]
pub(crate) struct Piece {
    pub builder: ProfileBuilder,
    pub(super) frames: usize,
}

impl ProfileBuilder {
    /// A builder for a later piece of the input, made where this one stands before any
    /// event (after a header): the same threads and frames, no stack known, nothing
    /// counted.
    pub(crate) fn piece(&self) -> Piece {
        let mut builder = self.continuing();
        builder.stacks.piece = true;
        for state in &mut builder.stacks.threads {
            let mut fresh = ThreadState::new(state.tid, state.name.take());
            (fresh.pid, fresh.track, fresh.listed) = (state.pid, state.track, state.listed);
            *state = fresh;
        }
        Piece { frames: self.frames.slots.len(), builder }
    }

    /// Puts `piece`, read from the part of the input right after what this builder read,
    /// after it. `slots[i]` is this builder's slot for the piece's thread `i`. `marks` are
    /// the piece's checkpoints' marks (`StackSink::piece_marks`); returns each as one
    /// reading would have marked it, by this builder's thread slots.
    pub(crate) fn join_piece(
        &mut self,
        piece: Piece,
        slots: &[u32],
        marks: &[Vec<PieceMark>],
    ) -> Result<Vec<Vec<ThreadMark>>, Doubt> {
        let Piece { builder: later, frames } = piece;
        let quiet = later.heap.processes.is_empty() && later.graph.is_empty();
        if later.frames.slots.len() != frames || later.frames.refused.is_some() || !quiet {
            return Err(Doubt);
        }
        let marks = self.stacks.join_piece(later.stacks, slots, marks)?;
        self.facts.merge(later.facts);
        self.frames.names.cut += later.frames.names.cut;
        self.frames.renames.extend(later.frames.renames);
        self.system.merge(later.system);
        Ok(marks)
    }
}

/// Where a piece's thread stood at one of the piece's checkpoints.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub(crate) struct PieceMark {
    /// Exits of the prefix met so far.
    exits: usize,
    started: bool,
    /// Its last event's time on the timeline clock, where it had an event.
    last: u64,
    /// The latest end of its own calls (`ThreadState::latest_end`).
    latest_end: u64,
    /// Its own open frames, outermost first: frame slot and when it was entered.
    own: Vec<(u32, PerClock)>,
}

/// A thread of the joined builder after some of a piece's exits of its prefix were met:
/// its open frames and its frames from before tracing so far.
struct PrefixLeft {
    exits: usize,
    stack: Vec<(u32, PerClock)>,
    rebases: usize,
    /// The latest end of its calls: before the piece, or closed by those exits.
    latest_end: u64,
}

impl PieceMark {
    /// The mark one reading would have made: `before` the piece, `left` of the prefix.
    fn joined(&self, before: &ThreadMark, left: &PrefixLeft) -> ThreadMark {
        ThreadMark {
            started: before.started || self.started,
            last: if self.started { self.last } else { before.last },
            rebases: left.rebases,
            latest_end: left.latest_end.max(self.latest_end),
            stack: left.stack.iter().chain(&self.own).copied().collect(),
        }
    }
}

impl StackSink {
    /// Each thread of this piece where it stands now, above its prefix.
    pub(crate) fn piece_marks(&self) -> Vec<PieceMark> {
        self.threads
            .iter()
            .map(|t| PieceMark {
                exits: t.prefix_exits.len(),
                started: t.started,
                last: t.last.wall,
                latest_end: t.latest_end,
                own: t.stack.iter().filter(|open| open.frame != ANCHOR).map(|open| (open.frame, open.enter)).collect(),
            })
            .collect()
    }

    fn join_piece(
        &mut self,
        piece: StackSink,
        slots: &[u32],
        marks: &[Vec<PieceMark>],
    ) -> Result<Vec<Vec<ThreadMark>>, Doubt> {
        if piece.refused.is_some() || piece.threads.len() != slots.len() {
            return Err(Doubt);
        }
        let keep = KeepCalls { on: self.keep.on, shortest: 0 };
        // A thread without events in the piece stands all through it where it stood before.
        let before = self.marks();
        let mut joined = vec![before.clone(); marks.len()];
        for (at, (thread, &slot)) in piece.threads.into_iter().zip(slots).enumerate() {
            if thread.tid != self.threads[slot as usize].tid || !thread.samples.is_empty() {
                return Err(Doubt);
            }
            let mut wanted: Vec<usize> = marks.iter().filter_map(|m| m.get(at)).map(|m| m.exits).collect();
            wanted.sort_unstable();
            wanted.dedup();
            let left = join_thread(&mut self.threads[slot as usize], thread, &mut self.repairs, keep, &wanted);
            for (marks, joined) in marks.iter().zip(&mut joined) {
                if let Some(mark) = marks.get(at) {
                    let left = left.iter().find(|l| l.exits == mark.exits).expect("each wanted count is met");
                    joined[slot as usize] = mark.joined(&before[slot as usize], left);
                }
            }
        }
        self.repairs.add(&piece.repairs);
        self.names.cut += piece.names.cut;
        self.processes.extend(piece.processes);
        // One reading would have stopped at a limit the pieces, unlimited, read past.
        let stacks: u64 = self.threads.iter().map(|t| t.tree.nodes().len() as u64 - 1).sum();
        if self.budget.exhausted || stacks > self.limits.max_call_stacks {
            return Err(Doubt);
        }
        self.budget.left = self.limits.max_call_stacks - stacks;
        if self.threads.iter().any(|t| too_deep(t, self.limits.max_stack_depth)) {
            return Err(Doubt);
        }
        // Every call either side kept at least as long as the higher threshold is kept.
        self.keep.shortest = self.keep.shortest.max(piece.keep.shortest);
        self.discarded.add_all(&piece.discarded);
        self.check_calls();
        Ok(joined)
    }
}

/// Whether a stack of a thread reached `max` frames, where one reading would have refused
/// the next frame entered.
fn too_deep(state: &ThreadState, max: usize) -> bool {
    let nodes = state.tree.nodes();
    // A stack of n frames takes n nodes besides the root.
    if nodes.len() <= max {
        return false;
    }
    let mut depth = vec![usize::MAX; nodes.len()];
    depth[CallTree::ROOT as usize] = 0;
    for start in 1..nodes.len() {
        let mut chain = Vec::new();
        let mut at = start;
        while depth[at] == usize::MAX {
            chain.push(at);
            at = nodes[at].parent as usize;
        }
        for &node in chain.iter().rev() {
            depth[node] = depth[nodes[node].parent as usize] + 1;
            if depth[node] >= max {
                return true;
            }
        }
    }
    false
}

/// One thread of a piece after the same thread as read so far; what was left of the prefix
/// after each count of its exits in `wanted` (ascending).
fn join_thread(
    into: &mut ThreadState,
    piece: ThreadState,
    repairs: &mut Repairs,
    keep: KeepCalls,
    wanted: &[usize],
) -> Vec<PrefixLeft> {
    let mut left = Vec::with_capacity(wanted.len());
    let mut note = |into: &ThreadState, exits: usize| {
        if wanted.binary_search(&exits).is_ok() {
            let stack = into.stack.iter().map(|open| (open.frame, open.enter)).collect();
            left.push(PrefixLeft { exits, stack, rebases: into.from_before.len(), latest_end: into.latest_end });
        }
    };
    note(into, 0);
    if !into.started && piece.started {
        into.started = true;
        into.first = piece.first;
    }
    let nodes = piece.tree.nodes();
    let mut placed = vec![NONE; nodes.len()];
    placed[CallTree::ROOT as usize] = top(into);
    let mut budget = NodeBudget { left: u64::MAX, exhausted: false };
    let mut next = 1;
    let mut place_before = |into: &mut ThreadState, placed: &mut Vec<u32>, end: usize| {
        for node in next..end {
            let parent = placed[nodes[node].parent as usize];
            placed[node] = into.tree.child(parent, nodes[node].frame, &mut budget);
        }
        next = end + 1;
    };
    // Calls kept in the piece are as deep as the prefix under them: all of it before the
    // first exit, all but the anchor after.
    let mut stretches = piece.calls_before_exits.into_iter();
    let mut below = into.stack.len() as isize;
    for (met, exit) in piece.prefix_exits.iter().enumerate() {
        place_before(into, &mut placed, exit.anchor as usize);
        if let Some(calls) = stretches.next() {
            into.calls.append_moved(calls, below, |node| placed[node as usize]);
        }
        replay(into, exit, repairs, keep);
        placed[exit.anchor as usize] = top(into);
        below = into.stack.len() as isize - 1;
        note(into, met + 1);
    }
    place_before(into, &mut placed, nodes.len());
    into.calls.append_moved(piece.calls, below, |node| placed[node as usize]);
    for (node, counted) in nodes.iter().enumerate().skip(1).filter(|(_, n)| n.frame != ANCHOR) {
        let to = into.tree.node_mut(placed[node]);
        to.calls += counted.calls;
        to.incl.add(counted.incl);
    }
    let own = piece.stack.iter().filter(|open| open.frame != ANCHOR);
    into.stack.extend(own.map(|open| Open { node: placed[open.node as usize], ..*open }));
    into.events += piece.events;
    if piece.started {
        into.last = piece.last;
    }
    into.latest_end = into.latest_end.max(piece.latest_end);
    if piece.name.is_some() {
        into.name = piece.name;
    }
    into.pid = piece.pid.or(into.pid);
    into.track |= piece.track;
    into.listed |= piece.listed;
    left
}

/// The node on top of a thread's stack (its root when none is open).
fn top(state: &ThreadState) -> u32 {
    state.stack.last().map_or(CallTree::ROOT, |open| open.node)
}

/// An exit a piece logged, met by the real stack as the stack sink meets an exit: the
/// frames a piece closed above it were its own, so an exit of the frame on top is a plain
/// one only where there were none.
fn replay(state: &mut ThreadState, exit: &PrefixExit, repairs: &mut Repairs, keep: KeepCalls) {
    if !exit.above && state.stack.last().is_some_and(|open| open.frame == exit.frame) {
        let open = state.stack.pop().expect("a frame is open");
        state.close(open, exit.t, keep);
        return;
    }
    let mut budget = NodeBudget { left: u64::MAX, exhausted: false };
    exit_below_top(state, repairs, &mut budget, exit.frame, exit.t, keep);
}
