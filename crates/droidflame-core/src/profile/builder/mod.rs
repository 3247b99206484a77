//! `ProfileBuilder`: the one place where events become call trees, for every format.
//! It keeps a stack per thread and folds every exit straight into that thread's
//! `CallTree`, so memory grows with unique stacks, never with events.
//!
//! # What a decoder must do
//!
//! - Create each thread with [`ProfileBuilder::add_thread`] before its first event, and
//!   each frame with [`ProfileBuilder::add_frame`] before it is entered, and keep the slots
//!   they return: the builder knows no ids of any format, so mapping the trace's ids (and
//!   any reuse of them) to slots is the decoder's work.
//! - Hand each thread's events in the order the thread ran them: [`ProfileBuilder::enter`]
//!   a frame, [`ProfileBuilder::exit`] the frame that returns, or
//!   [`ProfileBuilder::exit_top`] where the format does not say which one returns. An
//!   event that cannot be used is still counted with [`ProfileBuilder::skip_event`], with
//!   its own repair counter raised.
//! - Give times on every clock the trace has, in its ticks, already unwrapped. A trace
//!   with a single clock gives it as `wall` and says in [`FinishSpec::clocks`] which clock
//!   it was: with `ClockSet::Cpu` the values move to the CPU clock when the profile is
//!   finished (method traces may name their clock only in a summary after the records).
//! - Go on after a limit is reached: the builder makes nothing more and answers with slot
//!   0 where it would have made one, and the `Analyzer` stops with
//!   [`ProfileBuilder::limit_error`]'s error after the chunk.
//! - Describe frames and name threads whenever it learns them; the last description wins.
//!
//! # What the builder does, the same for every format
//!
//! - Repairs stacks and counts each repair: an exit of a frame below the top closes the
//!   frames above it (`mismatched_exits`); an exit of a frame not on the stack was running
//!   before tracing began (`unmatched_exits`) and is rebuilt from the start of the trace's
//!   timeline on the wall clock, from the thread's first event on the CPU clock; frames
//!   open at the end (`open_at_end`) close at the end of the timeline on the wall clock, at
//!   the thread's last event on the CPU clock, or at the thread's last event on both where
//!   the trace lost data at its end (`truncated`, `overflow`): then each thread's data may
//!   stop at a different time.
//! - Enforces the limits of `Options` (stack depth, call stacks, threads, frames, name
//!   length), keeps at most 50 warnings, names threads that have none (`Thread 12`,
//!   counted in `unknown_threads`), merges frames that describe the same method, and
//!   computes self times.
//! - With `Options::keep_calls`, also keeps each call (start, end, CPU time, frame, node)
//!   under its depth as it returns; past `Options::max_calls`, only the longer ones.

mod finish;
mod heap;
mod heap_input;
pub(crate) mod seed;

use super::app_frames::AppFrame;
use super::calls::{Call, ThreadCalls};
use super::clock::{Clock, ClockSet, ClockWords, PerClock, TimeUnit};
use super::format::FormatInfo;
use super::frame::ClassRename;
use super::frame::FrameKind;
use super::repairs::{Repair, Repairs, Warning};
use super::source::{SourceKind, Unit};
use super::states::SchedTimes;
use super::states::StateLog;
use super::system::Counter;
use super::tree::{CallTree, NodeBudget, TreeBuilder};
use crate::error::{Error, ErrorKind};
use crate::options::Options;
use crate::profile::repairs::group_digits;
use rustc_hash::FxHashMap;

/// At most this many warnings are kept; the rest are counted.
const MAX_WARNINGS: usize = 50;

/// A frame as a decoder describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrameInfo {
    /// Class in dotted form; empty when there is none.
    pub class: String,
    /// The method's or slice's name.
    pub name: String,
    /// Empty when there is none.
    pub signature: String,
    /// Source file, if the trace names one.
    pub source: Option<String>,
    /// Line number, if known.
    pub line: Option<i32>,
}

impl FrameInfo {
    /// A frame that is a name and nothing else (a slice).
    pub fn named(name: String) -> FrameInfo {
        FrameInfo { class: String::new(), name, signature: String::new(), source: None, line: None }
    }
}

#[derive(Debug, Clone, Copy)]
struct Open {
    node: u32,
    frame: u32,
    enter: PerClock,
}

#[derive(Debug, Clone)]
struct ThreadState {
    tid: u32,
    name: Option<String>,
    events: u64,
    started: bool,
    stack: Vec<Open>,
    tree: TreeBuilder,
    first: PerClock,
    last: PerClock,
    pid: Option<u32>,
    track: bool,
    /// Kept in the profile even without events (a thread known only from its scheduling).
    listed: bool,
    sched: Option<SchedTimes>,
    /// Nodes of calls that began before tracing did, one entry per call: on the wall clock
    /// they start at the timeline's start, known only at the end.
    from_before: Vec<u32>,
    /// Calls as they return, when calls are kept; frames are slots until the end.
    calls: ThreadCalls,
    /// Each call from before tracing that was kept: how many such frames had been put
    /// under the stack when it was (its own included), and its place at depth 0 then.
    /// Each later one put it one level deeper.
    calls_from_before: Vec<(usize, usize)>,
    /// A sampled thread's samples by the node their stack ends at (empty for a thread of
    /// calls): the nodes' counts once the thread is finished (see `Count`).
    samples: Vec<u64>,
}

impl ThreadState {
    fn new(tid: u32, name: Option<String>) -> Self {
        ThreadState {
            tid,
            name,
            events: 0,
            started: false,
            stack: Vec::new(),
            tree: TreeBuilder::new(),
            first: PerClock::ZERO,
            last: PerClock::ZERO,
            pid: None,
            track: false,
            listed: false,
            sched: None,
            from_before: Vec::new(),
            calls: ThreadCalls::new(),
            calls_from_before: Vec::new(),
            samples: Vec::new(),
        }
    }

    /// Enters `frame` at `t` on top of the stack; false, with nothing entered, where the
    /// stack is `max_depth` deep already.
    #[inline(always)]
    fn open(&mut self, frame: u32, t: PerClock, max_depth: usize, budget: &mut NodeBudget) -> bool {
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
    fn close(&mut self, open: Open, t: PerClock, keep: KeepCalls) {
        let took = t.since(open.enter);
        let node = self.tree.node_mut(open.node);
        node.calls += 1;
        node.incl.add(took);
        // Damaged times can run backwards; a call never ends before it starts.
        let end = t.wall.max(open.enter.wall);
        if keep.on && end - open.enter.wall >= keep.shortest {
            let call = Call { start: open.enter.wall, end, cpu: took.cpu, frame: open.frame, node: open.node };
            self.calls.push(self.stack.len(), call);
        }
    }

    /// Closes every open frame where the input ended: at the thread's last event, on the
    /// wall clock at `wall_end` where given (the timeline's end, when no data was lost
    /// there and the trace has a wall clock).
    fn close_at_end(&mut self, wall_end: Option<u64>, keep: KeepCalls) {
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
    fn count_at(&mut self, t: PerClock, maybe_first: bool) {
        self.events += 1;
        if maybe_first && !self.started {
            self.started = true;
            self.first = t;
        }
        self.last = t;
    }
}

/// Which returning calls are kept: with `Options::keep_calls`, those at least `shortest`
/// ticks long on the timeline clock (0 until there were more than `Options::max_calls`).
#[derive(Debug, Clone, Copy)]
struct KeepCalls {
    on: bool,
    shortest: u64,
}

impl KeepCalls {
    /// Every call, whatever its length.
    fn all(self) -> KeepCalls {
        KeepCalls { shortest: 0, ..self }
    }
}

/// How many calls have each length, in buckets four to an octave (exact below 8 ticks), to
/// choose how short a call may be and still be kept.
struct CallLengths {
    buckets: [u64; CallLengths::BUCKETS],
}

impl Default for CallLengths {
    fn default() -> Self {
        CallLengths { buckets: [0; CallLengths::BUCKETS] }
    }
}

impl CallLengths {
    /// 8 exact lengths, then 61 octaves (8 to 2^64) of 4.
    const BUCKETS: usize = 8 + 61 * 4;

    fn bucket(length: u64) -> usize {
        if length < 8 {
            return length as usize;
        }
        let octave = 63 - length.leading_zeros() as usize;
        8 + (octave - 3) * 4 + ((length >> (octave - 2)) & 3) as usize
    }

    /// The shortest length in `bucket`.
    fn lower_bound(bucket: usize) -> u64 {
        if bucket < 8 {
            return bucket as u64;
        }
        // 8 is a multiple of 4: the quarter of `bucket - 8` is that of `bucket`.
        let (octave, quarter) = ((bucket - 8) / 4 + 3, bucket % 4);
        (4 + quarter as u64) << (octave - 2)
    }

    fn add(&mut self, length: u64) {
        self.buckets[Self::bucket(length)] += 1;
    }

    /// The shortest length that at most `count` calls reach.
    fn shortest_within(&self, count: u64) -> u64 {
        let mut reached = 0;
        for bucket in (0..self.buckets.len()).rev() {
            reached += self.buckets[bucket];
            if reached > count {
                return if bucket + 1 < Self::BUCKETS { Self::lower_bound(bucket + 1) } else { u64::MAX };
            }
        }
        0
    }
}

#[derive(Debug, Clone)]
struct FrameSlot {
    id: u64,
    info: Option<FrameInfo>,
}

/// What only the decoder knows, handed over when the input ends.
#[derive(Debug, Clone)]
pub(crate) struct FinishSpec {
    pub format: FormatInfo,
    pub header: Vec<(String, String)>,
    pub time_unit: TimeUnit,
    pub counters: Vec<Counter>,
    /// Order threads by process (the trace says which process each belongs to).
    pub group_by_process: bool,
    /// The trace's timeline on the wall clock, where the decoder knows it better than the
    /// events do (a capture's first and last event of any kind); `None`: from the earliest
    /// to the latest event of any thread.
    pub timeline: Option<(u64, u64)>,
    /// Where the capture lost every event, in time order (`Profile::gaps`).
    pub gaps: Vec<(u64, u64)>,
    /// What the threads no decoder put in another source hold (`calls` for most formats),
    /// and how to read them.
    pub main: SourceSpec,
    /// How to read the threads put in other sources ([`ProfileBuilder::set_source`]).
    pub more: Vec<SourceSpec>,
    /// The main source is shown first where the others have something too; false where it
    /// holds less than they do (a capture whose only calls are scheduler states).
    pub main_first: bool,
}

/// What a source's threads hold and how to read them.
#[derive(Debug, Clone)]
pub(crate) struct SourceSpec {
    pub kind: SourceKind,
    pub unit: Unit,
    pub clocks: ClockSet,
    pub frame_kind: FrameKind,
    pub clock_words: ClockWords,
    pub preferred_clock: Option<Clock>,
}

/// A limit of `Options` that the trace went beyond.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Limit {
    Depth,
    CallStacks,
    Threads,
    Frames,
}

#[derive(Debug)]
pub(crate) struct ProfileBuilder {
    threads: Vec<ThreadState>,
    frames: Vec<FrameSlot>,
    pub repairs: Repairs,
    warnings: Vec<Warning>,
    dropped_warnings: usize,
    limits: Options,
    budget: NodeBudget,
    /// The first limit reached, if any: the analysis stops with an error.
    limit_hit: Option<Limit>,
    /// Process names by pid.
    processes: FxHashMap<u32, String>,
    /// Which calls are kept, where the event methods read it.
    keep: KeepCalls,
    /// Re-reading for one thread: the other threads' calls are not kept.
    only_thread: Option<u32>,
    /// Calls left out for being short can be read again from the input (the warning says
    /// so).
    pub(crate) rereadable: bool,
    /// Heap dumps, with stacks of frame slots.
    heap: heap::HeapBuilder,
    /// Original names of obfuscated classes and methods the trace itself gives.
    renames: Vec<ClassRename>,
    /// The source of each thread slot put in one other than the main (`set_source`).
    sources: Vec<SourceKind>,
    /// Frames apps produced.
    app_frames: Vec<AppFrame>,
    /// The compositor's display frames.
    display_frames: Vec<AppFrame>,
    /// App frames derived from slices, and the note that says how: the app frames where
    /// the trace recorded none.
    derived_frames: Option<(Vec<AppFrame>, String)>,
    /// Each thread slot's scheduler states (kept apart from the thread's state, which the
    /// record loop reads).
    states: Vec<StateLog>,
    /// Kernel functions threads blocked in.
    blocked_functions: Vec<String>,
    /// CPUs the scheduler ran threads on.
    cpus: u32,
}

impl ProfileBuilder {
    pub fn new(options: &Options) -> Self {
        ProfileBuilder {
            threads: Vec::new(),
            frames: Vec::new(),
            repairs: Repairs::default(),
            warnings: Vec::new(),
            dropped_warnings: 0,
            limits: options.clone(),
            budget: NodeBudget { left: options.max_call_stacks, exhausted: false },
            limit_hit: None,
            processes: FxHashMap::default(),
            keep: KeepCalls { on: options.keep_calls, shortest: 0 },
            only_thread: None,
            rereadable: false,
            heap: heap::HeapBuilder::default(),
            renames: Vec::new(),
            sources: Vec::new(),
            app_frames: Vec::new(),
            display_frames: Vec::new(),
            derived_frames: None,
            states: Vec::new(),
            blocked_functions: Vec::new(),
            cpus: 0,
        }
    }

    pub fn warn(&mut self, message: impl Into<String>) {
        self.push_warning(None, message.into());
    }

    /// A warning that details one repair: the summary's notes show it with that repair
    /// instead of on its own.
    pub fn warn_about(&mut self, repair: Repair, message: impl Into<String>) {
        self.push_warning(Some(repair), message.into());
    }

    fn push_warning(&mut self, repair: Option<Repair>, text: String) {
        if self.warnings.len() < MAX_WARNINGS {
            self.warnings.push(Warning { text, repair });
        } else {
            self.dropped_warnings += 1;
        }
    }

    /// Events of all threads so far. Summed when asked (rarely) rather than counted per
    /// event, which would cost the per-record loop a memory update.
    pub fn events(&self) -> u64 {
        self.threads.iter().map(|t| t.events).sum()
    }

    pub fn limits(&self) -> &Options {
        &self.limits
    }

    /// Between chunks: past `Options::max_calls`, the shortest calls are let go and
    /// shorter ones are no longer kept, so that about half the limit remains: what a
    /// timeline of the whole trace can draw stays, and memory stays bounded. Counting here
    /// rather than per call keeps the record loop as it is; memory overshoots by one
    /// chunk's calls.
    pub fn check_calls(&mut self) {
        if !self.keep.on {
            return;
        }
        let kept: u64 = self.threads.iter().map(|t| t.calls.len() as u64).sum();
        if kept <= self.limits.max_calls {
            return;
        }
        let mut lengths = CallLengths::default();
        for state in &self.threads {
            state.calls.iter().for_each(|(_, call)| lengths.add(call.duration()));
        }
        // Never lower: shorter calls than the last threshold are already gone.
        self.keep.shortest = self.keep.shortest.max(lengths.shortest_within(self.limits.max_calls / 2));
        for state in &mut self.threads {
            let rebases = state.from_before.len();
            let mut places: Vec<(usize, usize)> =
                state.calls_from_before.iter().map(|&(seen, place)| (rebases - seen, place)).collect();
            state.calls.retain_longer(self.keep.shortest, &mut places);
            for (entry, (_, place)) in state.calls_from_before.iter_mut().zip(places) {
                entry.1 = place;
            }
        }
    }

    /// The trace went beyond `limit`: the analysis stops with its error after this chunk.
    pub fn refuse(&mut self, limit: Limit) {
        self.limit_hit.get_or_insert(limit);
    }

    /// The error for the first limit the trace reached, if it reached one.
    pub fn limit_error(&self) -> Option<Error> {
        let limit = self.limit_hit.or(self.budget.exhausted.then_some(Limit::CallStacks))?;
        let o = &self.limits;
        let n = |limit: usize| group_digits(limit as u64);
        let message = match limit {
            Limit::Depth => {
                format!("a thread's stack is deeper than {} frames (the stack-depth limit)", n(o.max_stack_depth))
            }
            Limit::CallStacks => format!(
                "the trace has more than {} unique call stacks (the call-stack limit); real traces have far \
                 fewer, so this one is probably generated or damaged",
                group_digits(o.max_call_stacks)
            ),
            Limit::Threads => format!("the trace has more than {} threads (the thread limit)", n(o.max_threads)),
            Limit::Frames => {
                format!("the trace has more than {} distinct methods (the method limit)", n(o.max_methods))
            }
        };
        Some(Error::new(ErrorKind::Limit, message))
    }

    /// A name as the profile keeps it: cut to the name-length limit (on a character
    /// boundary, ending in `…`), the cut counted.
    pub fn clip_name(&mut self, mut name: String) -> String {
        let max = self.limits.max_name_bytes.max(4);
        if name.len() > max {
            let mut end = max - '…'.len_utf8();
            while !name.is_char_boundary(end) {
                end -= 1;
            }
            name.truncate(end);
            name.push('…');
            self.repairs.long_names += 1;
        }
        name
    }

    /// Each of a frame's names as the profile keeps it (`clip_name` moves a short one as it is).
    fn clip_frame(&mut self, info: FrameInfo) -> FrameInfo {
        FrameInfo {
            class: self.clip_name(info.class),
            name: self.clip_name(info.name),
            signature: self.clip_name(info.signature),
            source: info.source.map(|s| self.clip_name(s)),
            line: info.line,
        }
    }

    // ---- frames --------------------------------------------------------------------

    /// A new frame, described or (as yet) not; `id` is the trace's id for it, which names
    /// it if it is never described. Beyond the frame limit, slot 0 (the analysis then stops).
    #[cold]
    pub fn add_frame(&mut self, id: u64, info: Option<FrameInfo>) -> u32 {
        if self.frames.len() >= self.limits.max_methods.max(1) {
            self.refuse(Limit::Frames);
            return 0;
        }
        let info = info.map(|info| self.clip_frame(info));
        self.frames.push(FrameSlot { id, info });
        (self.frames.len() - 1) as u32
    }

    /// Describes a frame, replacing any earlier description.
    pub fn describe_frame(&mut self, frame: u32, info: FrameInfo) {
        let info = self.clip_frame(info);
        self.frames[frame as usize].info = Some(info);
    }

    pub fn is_described(&self, frame: u32) -> bool {
        self.frames[frame as usize].info.is_some()
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
        let name = name.map(|n| self.clip_name(n));
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
        *state = ThreadState::new(state.tid, None);
    }

    /// The trace gives class `obfuscated`'s original name and its methods' (`(obfuscated,
    /// original)`; a method moved from another class is `Class.method`).
    pub fn rename_class(&mut self, obfuscated: String, original: String, methods: Vec<(String, String)>) {
        self.renames.push(ClassRename { obfuscated, original, methods });
    }

    /// A frame an app produced (a frame timeline's), whole.
    pub fn app_frame(&mut self, mut frame: AppFrame) {
        frame.layer = self.clip_name(frame.layer);
        self.app_frames.push(frame);
    }

    /// App frames derived from an app's slices, and the note that says how: what the
    /// profile lists where the trace recorded no frames.
    pub fn derived_frames(&mut self, frames: Vec<AppFrame>, note: String) {
        self.derived_frames = Some((frames, note));
    }

    /// A display frame of the compositor (a frame timeline's), whole.
    pub fn display_frame(&mut self, frame: AppFrame) {
        self.display_frames.push(frame);
    }

    /// Puts a thread in a source other than the trace's main one (its `FinishSpec::main`).
    pub fn set_source(&mut self, thread: u32, kind: SourceKind) {
        // Kept apart from the thread's state, which the record loop reads.
        if self.sources.len() <= thread as usize {
            self.sources.resize(thread as usize + 1, SourceKind::Calls);
        }
        self.sources[thread as usize] = kind;
    }

    pub fn set_sched(&mut self, thread: u32, sched: SchedTimes) {
        self.threads[thread as usize].sched = Some(sched);
    }

    /// A thread's scheduler states over time.
    pub fn set_states(&mut self, thread: u32, mut states: StateLog) {
        if self.states.len() <= thread as usize {
            self.states.resize(thread as usize + 1, StateLog::default());
        }
        states.shrink();
        self.states[thread as usize] = states;
    }

    /// The kernel functions threads blocked in, as `StateEntry::blocked` numbers them.
    pub fn blocked_functions(&mut self, functions: Vec<String>) {
        self.blocked_functions = functions;
    }

    /// The scheduler ran threads on CPUs numbered below `cpus`.
    pub fn cpu_count(&mut self, cpus: u32) {
        self.cpus = cpus;
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
            self.limit_hit.get_or_insert(Limit::Depth);
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
        let same = state.stack.iter().zip(stack).take_while(|(open, &frame)| open.frame == frame).count();
        while state.stack.len() > same {
            let open = state.stack.pop().expect("the stack is deeper than the frames kept");
            state.close(open, t, keep);
        }
        for &frame in &stack[same..] {
            if !state.open(frame, t, self.limits.max_stack_depth, &mut self.budget) {
                self.limit_hit.get_or_insert(Limit::Depth);
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

/// An exit whose frame is not on top: either deeper in the stack (close the frames above
/// it at this time) or not on the stack at all (it was running before tracing began).
#[cold]
fn exit_below_top(
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

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> FinishSpec {
        let format = FormatInfo {
            family: "test",
            layout: "calls",
            kind: "method trace",
            version: 0,
            gzip: false,
            split: false,
            pid: None,
            recorded_us: None,
            details: Vec::new(),
            sampling_interval_us: None,
            description: "a test".into(),
        };
        FinishSpec {
            format,
            header: Vec::new(),
            time_unit: TimeUnit::MICROS,
            counters: Vec::new(),
            group_by_process: false,
            timeline: None,
            gaps: Vec::new(),
            main: SourceSpec {
                kind: SourceKind::Calls,
                unit: Unit::Micros,
                clocks: ClockSet::Wall,
                frame_kind: FrameKind::Method,
                clock_words: ClockWords::ELAPSED_AND_THREAD_CPU,
                preferred_clock: None,
            },
            more: Vec::new(),
            main_first: true,
        }
    }

    #[test]
    fn past_fifty_warnings_the_rest_are_counted() {
        let mut b = ProfileBuilder::new(&Options::default());
        (0..MAX_WARNINGS + 3).for_each(|i| b.warn(format!("warning {i}")));
        let profile = b.finish(spec());
        let texts: Vec<&str> = profile.facts.warnings.iter().map(|w| w.text.as_str()).collect();
        assert_eq!(texts.len(), 51);
        assert_eq!((texts[0], texts[49]), ("warning 0", "warning 49"));
        assert_eq!(texts[50], "3 more warnings not shown");
    }

    #[test]
    fn long_names_are_cut_on_a_character_boundary_to_the_limit() {
        let mut b = ProfileBuilder::new(&Options { max_name_bytes: 10, ..Options::default() });
        assert_eq!(b.clip_name("abcdefghij".into()), "abcdefghij", "10 bytes fit");
        assert_eq!(b.repairs.long_names, 0);
        assert_eq!(b.clip_name("abcdefghijk".into()), "abcdefg\u{2026}", "7 bytes and the 3 of `…`");
        // `é` is 2 bytes: 7 would split the fourth.
        assert_eq!(b.clip_name("\u{e9}".repeat(7)), "\u{e9}\u{e9}\u{e9}\u{2026}");
        assert_eq!(b.repairs.long_names, 2);
        // Below 4 bytes the limit is 4: one byte and `…`.
        let mut b = ProfileBuilder::new(&Options { max_name_bytes: 0, ..Options::default() });
        assert_eq!(b.clip_name("abcde".into()), "a\u{2026}");
    }

    #[test]
    fn past_the_call_limit_the_longest_half_is_kept() {
        let mut b = ProfileBuilder::new(&Options { keep_calls: true, max_calls: 6, ..Options::default() });
        let thread = b.add_thread(1, None);
        let frame = b.add_frame(1, None);
        let mut t = 0;
        // Lengths in buckets of their own, back to back.
        for length in [1, 2, 3, 5, 8, 12, 20, 40, 100, 1000] {
            b.enter(thread, frame, PerClock::new(t, t));
            t += length;
            b.exit(thread, frame, PerClock::new(t, t));
        }
        b.check_calls();
        // At most 3 calls (half of 6) reach 24, the start of the bucket above 20's (20 to 23).
        assert_eq!(b.keep.shortest, 24);
        let kept: Vec<u64> = b.threads[0].calls.iter().map(|(_, c)| c.duration()).collect();
        assert_eq!(kept, [40, 100, 1000]);
    }

    #[test]
    fn calls_are_kept_where_asked_and_only_there() {
        let one_call_each = |b: &mut ProfileBuilder| {
            let frame = b.add_frame(1, None);
            for tid in [1, 2] {
                let thread = b.add_thread(tid, None);
                b.enter(thread, frame, PerClock::new(0, 0));
                b.exit(thread, frame, PerClock::new(5, 5));
            }
            b.threads.iter().map(|t| t.calls.len()).collect::<Vec<_>>()
        };
        assert_eq!(one_call_each(&mut ProfileBuilder::new(&Options::default())), [0, 0]);
        let every = Options { keep_calls: true, ..Options::default() };
        assert_eq!(one_call_each(&mut ProfileBuilder::new(&every)), [1, 1]);
        // Reading one thread again keeps its calls alone, whatever the options said.
        let mut b = ProfileBuilder::new(&Options::default());
        b.keep_only(1);
        assert_eq!(one_call_each(&mut b), [0, 1]);
    }

    #[test]
    fn each_length_falls_in_the_bucket_that_bounds_it() {
        for length in (0..5000).chain([1 << 40, (1 << 40) + 12345, u64::MAX - 1, u64::MAX]) {
            let bucket = CallLengths::bucket(length);
            assert!(CallLengths::lower_bound(bucket) <= length, "{length}");
            if bucket + 1 < CallLengths::BUCKETS {
                assert!(length < CallLengths::lower_bound(bucket + 1), "{length}");
            }
        }
        assert_eq!(CallLengths::bucket(u64::MAX), CallLengths::BUCKETS - 1);
        let mut lengths = CallLengths::default();
        [1, 2, 3, 100, 200, 300].iter().for_each(|&l| lengths.add(l));
        assert_eq!(lengths.shortest_within(3), 4);
        assert_eq!(lengths.shortest_within(6), 0);
        assert_eq!(lengths.shortest_within(0), 320);
        // Calls in the last bucket: no length is long enough to keep fewer.
        lengths.add(u64::MAX);
        assert_eq!(lengths.shortest_within(0), u64::MAX);
        assert_eq!(lengths.shortest_within(1), 320);
    }
}
