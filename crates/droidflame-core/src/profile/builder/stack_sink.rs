//! The stack sink: threads and their events, folded as they come into each thread's call
//! tree, so memory grows with unique stacks, never with events.
//!
//! # What a decoder must do
//!
//! - Create each thread with [`StackSink::add_thread`] before its first event, and each
//!   frame with `FrameSink::add_frame` before it is entered, and keep the slots they return:
//!   the sinks know no ids of any format, so mapping the trace's ids (and any reuse of them)
//!   to slots is the decoder's work.
//! - Hand each thread's events in the order the thread ran them: [`StackSink::enter`] a
//!   frame, [`StackSink::exit`] the frame that returns, or [`StackSink::exit_top`] where the
//!   format does not say which one returns; or, for a sampled thread, each
//!   [`StackSink::sample`]. An event that cannot be used is still counted with
//!   [`StackSink::skip_event`], with its own repair counter raised.
//! - Give times on every clock the trace has, in its ticks, already unwrapped. A trace
//!   with a single clock gives it as `wall` and says in `FinishSpec::clocks` which clock
//!   it was: with `ClockSet::Cpu` the values move to the CPU clock when the profile is
//!   finished (method traces may name their clock only in a summary after the records).
//! - Go on after a limit is reached: the sink makes nothing more and answers with slot 0
//!   where it would have made one, and the `Analyzer` stops with the limit's error after
//!   the chunk.
//! - Name threads whenever it learns them.
//!
//! # What the sink does, the same for every format
//!
//! - Repairs stacks and counts each repair: an exit of a frame below the top closes the
//!   frames above it (`mismatched_exits`); an exit of a frame not on the stack was running
//!   before tracing began (`unmatched_exits`) and is rebuilt from the start of the trace's
//!   timeline on the wall clock, from the thread's first event on the CPU clock; frames
//!   open at the end (`open_at_end`) close at the end of the timeline on the wall clock, at
//!   the thread's last event on the CPU clock, or at the thread's last event on both where
//!   the trace lost data at its end (`truncated`, `overflow`): then each thread's data may
//!   stop at a different time.
//! - Enforces the limits of `Options` on stack depth, call stacks and threads, and names
//!   threads that have none (`Thread 12`, counted in `unknown_threads`).
//! - With `Options::keep_calls`, also keeps each call (start, end, CPU time, frame, node)
//!   under its depth as it returns; past `Options::max_calls`, only the longer ones.

use super::keep::{CallLengths, KeepCalls};
use super::names::NameLimit;
use super::thread_state::{Open, ThreadState};
use super::Limit;
use crate::options::Options;
use crate::profile::clock::PerClock;
use crate::profile::repairs::Repairs;
use crate::profile::source::SourceKind;
use crate::profile::tree::NodeBudget;
use rustc_hash::FxHashMap;

#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct StackSink {
    pub(super) threads: Vec<ThreadState>,
    /// The stack repairs it made (the profile's repairs are every sink's summed).
    #[serde(with = "crate::profile::repairs::as_text")]
    pub(super) repairs: Repairs,
    /// Not sent with a piece: the receiver's own.
    #[serde(skip)]
    pub(super) limits: Options,
    pub(super) budget: NodeBudget,
    /// The first limit reached, if any: the analysis stops with an error.
    pub(super) refused: Option<Limit>,
    pub(super) names: NameLimit,
    /// Process names by pid.
    pub(super) processes: FxHashMap<u32, String>,
    /// Which calls are kept, where the event methods read it.
    pub(super) keep: KeepCalls,
    /// The lengths of the calls kept when their thread was discarded (a capture's
    /// scheduler states before its first slice): they count towards which calls are kept,
    /// as they did before they went.
    pub(super) discarded: Box<CallLengths>,
    /// Re-reading for one thread: the other threads' calls are not kept.
    pub(super) only_thread: Option<u32>,
    /// The source of each thread slot put in one other than the main (`set_source`).
    pub(super) sources: Vec<SourceKind>,
    /// Reads a piece of the input whose stacks are not known at its start (`piece.rs`).
    pub(super) piece: bool,
}

impl StackSink {
    pub fn new(options: &Options) -> Self {
        StackSink {
            threads: Vec::new(),
            repairs: Repairs::default(),
            limits: options.clone(),
            budget: NodeBudget { left: options.max_call_stacks, exhausted: false },
            refused: None,
            names: NameLimit::new(options.max_name_bytes),
            processes: FxHashMap::default(),
            keep: KeepCalls { on: options.keep_calls, shortest: 0 },
            discarded: Box::default(),
            only_thread: None,
            sources: Vec::new(),
            piece: false,
        }
    }

    /// The trace went beyond `limit`: the analysis stops with its error after this chunk.
    pub fn refuse(&mut self, limit: Limit) {
        self.refused.get_or_insert(limit);
    }

    /// A thread's or process's name as the profile keeps it (see `NameLimit::clip`).
    pub fn clip_name(&mut self, name: String) -> String {
        self.names.clip(name)
    }

    /// Events of all threads so far. Summed when asked (rarely) rather than counted per
    /// event, which would cost the per-record loop a memory update.
    pub fn events(&self) -> u64 {
        self.threads.iter().map(|t| t.events).sum()
    }

    /// Between chunks: past `Options::max_calls`, the shortest calls are let go and
    /// shorter ones are no longer kept, so that about half the limit remains and memory
    /// stays bounded. Counting here rather than per call keeps the record loop as it is;
    /// memory overshoots by one chunk's calls. What the profile keeps does not depend on
    /// when this runs: the finish lets go once more, by every call (`let_go_at_end`).
    pub fn check_calls(&mut self) {
        if self.past_max_calls() {
            self.let_go_shortest();
        }
    }

    /// At the end: if calls were let go or the trace made more than `Options::max_calls`
    /// (those discarded with their thread included), keeps exactly the calls at least as
    /// long as the shortest length that at most half the limit reach, counting every call
    /// the trace made. Every earlier threshold was at most that one (each counted fewer
    /// calls, none of them longer than it ended), so the calls it let go are all below it:
    /// the calls kept are the same however the input was pushed or cut into pieces.
    pub(super) fn let_go_at_end(&mut self) {
        let made = self.kept_calls() + self.discarded.total();
        if self.keep.on && (self.keep.shortest > 0 || made > self.limits.max_calls) {
            self.let_go_shortest();
        }
    }

    /// Raises the shortest length kept to where at most half of `Options::max_calls` calls
    /// reach, by the calls kept now, and lets go of the shorter ones. Never lowers it:
    /// shorter calls than the last threshold are already gone.
    fn let_go_shortest(&mut self) {
        let mut lengths = (*self.discarded).clone();
        for state in &self.threads {
            state.calls.iter().for_each(|(_, call)| lengths.add(call.duration()));
            for calls in &state.calls_before_exits {
                calls.iter().for_each(|(_, call)| lengths.add(call.duration()));
            }
        }
        self.keep.shortest = self.keep.shortest.max(lengths.shortest_within(self.limits.max_calls / 2));
        for state in &mut self.threads {
            let rebases = state.from_before.len();
            let mut places: Vec<(usize, usize)> =
                state.calls_from_before.iter().map(|&(seen, place)| (rebases - seen, place)).collect();
            state.calls.retain_longer(self.keep.shortest, &mut places);
            for (entry, (_, place)) in state.calls_from_before.iter_mut().zip(places) {
                entry.1 = place;
            }
            // A piece's calls before each exit of its prefix (a piece keeps no calls from
            // before tracing: those return in the join).
            for calls in &mut state.calls_before_exits {
                calls.retain_longer(self.keep.shortest, &mut []);
            }
        }
    }

    // ---- threads -------------------------------------------------------------------

    /// A new thread with the id users know it by. Beyond the thread limit, slot 0 (the
    /// analysis then stops).
    #[cold]
    pub fn add_thread(&mut self, tid: u32, name: Option<String>) -> u32 {
        if self.threads.len() >= self.limits.max_threads.max(1) {
            self.refuse(Limit::Threads);
            return 0;
        }
        let name = name.map(|n| self.names.clip(n));
        self.threads.push(ThreadState::new(tid, name));
        (self.threads.len() - 1) as u32
    }

    pub fn thread_count(&self) -> usize {
        self.threads.len()
    }

    pub fn tid(&self, thread: u32) -> u32 {
        self.threads[thread as usize].tid
    }

    /// Changes the id a thread is shown with.
    pub fn set_tid(&mut self, thread: u32, tid: u32) {
        self.threads[thread as usize].tid = tid;
    }

    pub fn thread_name(&self, thread: u32) -> Option<&str> {
        self.threads[thread as usize].name.as_deref()
    }

    /// Names a thread unless it already has a name; `replace` lets a later name win.
    pub fn name_thread(&mut self, thread: u32, name: String, replace: bool) {
        let name = self.clip_name(name);
        let state = &mut self.threads[thread as usize];
        if replace || state.name.is_none() {
            state.name = Some(name);
        }
    }

    /// Events of one thread so far.
    pub fn thread_events(&self, thread: u32) -> u64 {
        self.threads[thread as usize].events
    }

    /// The time of a thread's first enter or exit, if it had one.
    pub fn first_time(&self, thread: u32) -> Option<PerClock> {
        let state = &self.threads[thread as usize];
        state.started.then_some(state.first)
    }

    /// Frames open on a thread.
    pub fn depth(&self, thread: u32) -> usize {
        self.threads[thread as usize].stack.len()
    }

    pub fn set_process(&mut self, thread: u32, pid: u32) {
        self.threads[thread as usize].pid = Some(pid);
    }

    pub fn name_process(&mut self, pid: u32, name: String) {
        let name = self.clip_name(name);
        self.processes.insert(pid, name);
    }

    /// Marks a thread as a named track of spans rather than a thread of execution.
    pub fn mark_track(&mut self, thread: u32) {
        self.threads[thread as usize].track = true;
    }

    /// Keeps a thread in the profile even if it has no events.
    pub fn list(&mut self, thread: u32) {
        self.threads[thread as usize].listed = true;
    }

    /// Forgets everything a thread had (it will not be in the profile unless it gets
    /// events again).
    pub fn discard(&mut self, thread: u32) {
        let state = &mut self.threads[thread as usize];
        state.calls.iter().for_each(|(_, call)| self.discarded.add(call.duration()));
        *state = ThreadState::new(state.tid, None);
    }

    /// Puts a thread in a source other than the trace's main one (its `FinishSpec::main`).
    pub fn set_source(&mut self, thread: u32, kind: SourceKind) {
        // Kept apart from the thread's state, which the record loop reads.
        if self.sources.len() <= thread as usize {
            self.sources.resize(thread as usize + 1, SourceKind::Calls);
        }
        self.sources[thread as usize] = kind;
    }

    /// Calls kept so far, all threads together.
    pub fn kept_calls(&self) -> u64 {
        let before_exits = |t: &ThreadState| t.calls_before_exits.iter().map(|c| c.len() as u64).sum::<u64>();
        self.threads.iter().map(|t| t.calls.len() as u64 + before_exits(t)).sum()
    }

    /// Whether more calls are kept than `Options::max_calls` (the next `check_calls` lets
    /// the shortest go).
    pub fn past_max_calls(&self) -> bool {
        self.keep.on && self.kept_calls() > self.limits.max_calls
    }

    /// Whether calls (and with them scheduler states) are kept.
    pub fn keeps_calls(&self) -> bool {
        self.keep.on
    }

    // ---- events --------------------------------------------------------------------
    // Always inlined: called out of line, the times went through memory in two halves and
    // came back as one load, a store-forwarding stall that cost 40% of the record loop.

    /// `thread` enters `frame` at `t`.
    #[inline(always)]
    pub fn enter(&mut self, thread: u32, frame: u32, t: PerClock) {
        let state = &mut self.threads[thread as usize];
        state.count_at(t, state.stack.is_empty());
        if !state.open(frame, t, self.limits.max_stack_depth, &mut self.budget) {
            self.refused.get_or_insert(Limit::Depth);
        }
    }

    /// `thread` was seen running `stack` (outermost frame first) at `t`, a sample: the
    /// frames no longer on it return at `t` and the new ones are entered at `t`, so a frame
    /// that stays on the stack from one sample to the next is one call. One event.
    #[inline]
    pub fn sample(&mut self, thread: u32, stack: &[u32], t: PerClock) {
        let keep = self.keep_for(thread);
        let state = &mut self.threads[thread as usize];
        state.count_at(t, true);
        if keep.on {
            state.sample_times.push(t.wall);
        }
        let same = state.stack.iter().zip(stack).take_while(|(open, &frame)| open.frame == frame).count();
        while state.stack.len() > same {
            let open = state.stack.pop().expect("the stack is deeper than the frames kept");
            state.close(open, t, keep);
        }
        for &frame in &stack[same..] {
            if !state.open(frame, t, self.limits.max_stack_depth, &mut self.budget) {
                self.refused.get_or_insert(Limit::Depth);
                break;
            }
        }
        if let Some(top) = state.stack.last() {
            let node = top.node as usize;
            if node >= state.samples.len() {
                state.samples.resize(node + 1, 0);
            }
            state.samples[node] += 1;
        }
    }

    /// Which of `thread`'s calls are kept.
    #[inline(always)]
    fn keep_for(&self, thread: u32) -> KeepCalls {
        let on = self.keep.on && self.only_thread.is_none_or(|only| only == thread);
        KeepCalls { on, ..self.keep }
    }

    /// `frame` returns on `thread` at `t`.
    #[inline(always)]
    pub fn exit(&mut self, thread: u32, frame: u32, t: PerClock) {
        let keep = self.keep_for(thread);
        let state = &mut self.threads[thread as usize];
        if let Some(&top) = state.stack.last() {
            if top.frame == frame {
                state.count_at(t, false);
                state.stack.pop();
                state.close(top, t, keep);
                return;
            }
        }
        state.count_at(t, true);
        if self.piece {
            return exit_below_piece(state, &mut self.repairs, &mut self.budget, frame, t, keep);
        }
        exit_below_top(state, &mut self.repairs, &mut self.budget, frame, t, keep);
    }

    /// Whatever frame is on top of `thread` returns at `t`. False, with nothing changed
    /// but the event count, when no frame is open.
    pub fn exit_top(&mut self, thread: u32, t: PerClock) -> bool {
        let keep = self.keep_for(thread);
        let state = &mut self.threads[thread as usize];
        state.events += 1;
        let Some(open) = state.stack.pop() else {
            return false;
        };
        state.last = t;
        state.close(open, t, keep);
        true
    }

    /// Every frame open on `thread` returns at `t`, where its data stops before a loss of
    /// events (not an event of its own); returns how many closed.
    pub fn close_open(&mut self, thread: u32, t: PerClock) -> u64 {
        let keep = self.keep_for(thread);
        let state = &mut self.threads[thread as usize];
        let closed = state.stack.len() as u64;
        while let Some(open) = state.stack.pop() {
            state.close(open, t, keep);
        }
        if closed > 0 && t.wall > state.last.wall {
            state.last = t;
        }
        closed
    }

    /// An event of `thread` that cannot be used: counted, nothing else.
    pub fn skip_event(&mut self, thread: u32) {
        self.threads[thread as usize].events += 1;
    }

    /// `thread` was seen at `t` without an event: frames still open at the end close at its
    /// last sign of life, not at its last event.
    pub fn touch(&mut self, thread: u32, t: PerClock) {
        let state = &mut self.threads[thread as usize];
        if state.started && t.wall > state.last.wall {
            state.last = t;
        }
    }
}

/// In a piece: an exit whose frame is not on top, and may be below the piece's own frames.
#[cold]
fn exit_below_piece(
    state: &mut ThreadState,
    repairs: &mut Repairs,
    budget: &mut NodeBudget,
    frame: u32,
    t: PerClock,
    keep: KeepCalls,
) {
    if state.stack.iter().any(|open| open.frame == frame) {
        return exit_below_top(state, repairs, budget, frame, t, keep);
    }
    state.exit_prefix(budget, frame, t, keep);
}

/// An exit whose frame is not on top: either deeper in the stack (close the frames above
/// it at this time) or not on the stack at all (it was running before tracing began).
#[cold]
pub(super) fn exit_below_top(
    state: &mut ThreadState,
    repairs: &mut Repairs,
    budget: &mut NodeBudget,
    frame: u32,
    t: PerClock,
    keep: KeepCalls,
) {
    if let Some(at) = state.stack.iter().rposition(|open| open.frame == frame) {
        repairs.mismatched_exits += 1;
        while state.stack.len() > at {
            let open = state.stack.pop().expect("stack is longer than `at`");
            state.close(open, t, keep);
        }
        return;
    }
    repairs.unmatched_exits += 1;
    // Each re-rooting makes a node: a trace of nothing but such exits must not grow
    // memory without bound either.
    if budget.left == 0 {
        budget.exhausted = true;
        return;
    }
    budget.left -= 1;
    let node = state.tree.adopt_top_level(frame);
    state.from_before.push(node);
    state.stack.insert(0, Open { node, frame, enter: state.first });
    if keep.on {
        state.calls.rebase();
    }
    while state.stack.len() > 1 {
        let open = state.stack.pop().expect("stack is longer than 1");
        state.close(open, t, keep);
    }
    // Kept whatever its length: it began before the thread's first event, at a time
    // known only at the end.
    let open = state.stack.pop().expect("the frame from before tracing is on the stack");
    state.close(open, t, keep.all());
    if keep.on {
        let place = state.calls.at_depth(0).len() - 1;
        state.calls_from_before.push((state.from_before.len(), place));
    }
}
