//! `ProfileBuilder`: the one place where records become call trees. Decoders hand it
//! thread/method definitions and enter/exit records; it keeps a stack per thread, folds
//! every exit straight into that thread's `CallTree`, and makes every repair (and counts
//! it) the same way for every format.

use super::tree::{CallTree, NodeBudget, TreeBuilder, NONE};
use super::{ClockSet, Counter, FormatInfo, Method, Profile, Repairs, SchedTimes, ThreadProfile, TimeUnit};
use crate::text::group_digits;
use crate::{Error, ErrorKind, Options};
use rustc_hash::FxHashMap;

pub const ENTER: u8 = 0;
pub const UNWIND: u8 = 2;

/// A method definition as a decoder read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MethodInfo {
    pub class: String,
    pub name: String,
    pub signature: String,
    pub source: Option<String>,
    pub line: Option<i32>,
}

/// Method ids below this (after dropping the two action bits) use a direct table: ART
/// numbers its methods 0, 4, 8, ... so the common case never hashes.
const DENSE_METHOD_LIMIT: u64 = 1 << 20;
/// Thread ids below this use a direct table (V1 ids are u16).
const DENSE_THREAD_LIMIT: u32 = 1 << 16;
/// At most this many warnings are kept; the rest are counted.
const MAX_WARNINGS: usize = 50;
/// Records per thread looked at to tell a sampling trace from a tracing one (E29).
const SAMPLING_WINDOW: u64 = 500;

#[derive(Debug, Clone, Copy)]
struct Open {
    node: u32,
    method: u32,
    enter: [u64; 2],
}

/// Unwraps a u32 tick counter that wraps every 2^32 ticks (71.6 min in µs).
#[derive(Debug, Clone, Copy, Default)]
struct Unwrap {
    last: u32,
    high: u64,
}

impl Unwrap {
    /// The common case, a forward step of less than half the range, costs one wrapping
    /// subtraction and one compare (the profile showed the two-sided test at 27 instructions
    /// a record for two clocks).
    #[inline(always)]
    fn next(&mut self, raw: u32, wraps: &mut u64) -> u64 {
        let step = raw.wrapping_sub(self.last);
        if step < 1 << 31 {
            if raw < self.last {
                // Forward across 2^32: the counter wrapped.
                self.high = self.high.saturating_add(1 << 32);
                *wraps += 1;
            }
        } else if raw > self.last && step > 1 << 31 && self.high > 0 {
            // A late value from just before the wrap: place it there, keep the state.
            return self.high - (1 << 32) + u64::from(raw);
        }
        self.last = raw;
        self.high + u64::from(raw)
    }
}

#[derive(Debug, Clone)]
struct ThreadState {
    tid: u32,
    name: Option<String>,
    records: u64,
    started: bool,
    stack: Vec<Open>,
    tree: TreeBuilder,
    first: [u64; 2],
    last: [u64; 2],
    unwrap: [Unwrap; 2],
    /// Non-zero gaps between the first records on the primary clock (E29).
    gaps: Vec<u64>,
    /// The process it belongs to, where the trace says (atrace).
    pid: Option<u32>,
    /// A named track of spans (atrace async slices), not a real thread.
    track: bool,
    sched: Option<SchedTimes>,
}

impl ThreadState {
    fn new(tid: u32, name: Option<String>) -> Self {
        ThreadState {
            tid,
            name,
            records: 0,
            started: false,
            stack: Vec::new(),
            tree: TreeBuilder::new(),
            first: [0; 2],
            last: [0; 2],
            unwrap: [Unwrap::default(); 2],
            gaps: Vec::new(),
            pid: None,
            track: false,
            sched: None,
        }
    }
}

#[derive(Debug, Clone)]
struct MethodSlot {
    id: u64,
    info: Option<MethodInfo>,
}

/// What only the decoder knows, handed over when the input ends.
#[derive(Debug, Clone)]
pub(crate) struct FinishSpec {
    pub format: FormatInfo,
    pub header: Vec<(String, String)>,
    pub clocks: ClockSet,
    pub time_unit: TimeUnit,
    pub counters: Vec<Counter>,
    /// Order threads by process (the trace says which process each belongs to).
    pub group_by_process: bool,
}

#[derive(Debug)]
pub(crate) struct ProfileBuilder {
    threads: Vec<ThreadState>,
    thread_dense: Vec<u32>,
    thread_sparse: FxHashMap<u32, u32>,
    /// Thread names from lists (`*threads`, summaries), by the id the list gives.
    listed: Vec<(u32, String)>,
    listed_index: FxHashMap<u32, usize>,
    method_dense: Vec<u32>,
    method_sparse: FxHashMap<u64, u32>,
    methods: Vec<MethodSlot>,
    /// Method slots with a definition (V2 asks per entry block).
    defined: usize,
    pub repairs: Repairs,
    warnings: Vec<String>,
    /// Parallel to `warnings`: the repair counter a warning explains, if any.
    warning_repairs: Vec<Option<&'static str>>,
    dropped_warnings: usize,
    records: u64,
    limits: Options,
    budget: NodeBudget,
    /// The first limit reached, if any: the analysis stops with an error.
    limit_hit: Option<LimitHit>,
    /// Process names by pid (atrace).
    processes: FxHashMap<u32, String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LimitHit {
    Depth,
    CallStacks,
    Threads,
    Methods,
}

impl ProfileBuilder {
    pub fn new(options: &Options) -> Self {
        ProfileBuilder {
            threads: Vec::new(),
            thread_dense: vec![NONE; DENSE_THREAD_LIMIT as usize],
            thread_sparse: FxHashMap::default(),
            listed: Vec::new(),
            listed_index: FxHashMap::default(),
            method_dense: Vec::new(),
            method_sparse: FxHashMap::default(),
            methods: Vec::new(),
            defined: 0,
            repairs: Repairs::default(),
            warnings: Vec::new(),
            warning_repairs: Vec::new(),
            dropped_warnings: 0,
            records: 0,
            limits: options.clone(),
            budget: NodeBudget { left: options.max_call_stacks, exhausted: false },
            limit_hit: None,
            processes: FxHashMap::default(),
        }
    }

    pub fn warn(&mut self, message: impl Into<String>) {
        self.push_warning(None, message.into());
    }

    /// A warning that details one repair counter (a field name of `Repairs`): the summary's
    /// notes show it with that repair instead of on its own.
    pub fn warn_about(&mut self, repair: &'static str, message: impl Into<String>) {
        self.push_warning(Some(repair), message.into());
    }

    fn push_warning(&mut self, repair: Option<&'static str>, message: String) {
        if self.warnings.len() < MAX_WARNINGS {
            self.warnings.push(message);
            self.warning_repairs.push(repair);
        } else {
            self.dropped_warnings += 1;
        }
    }

    pub fn records(&self) -> u64 {
        self.records
    }

    fn hit(&mut self, limit: LimitHit) {
        self.limit_hit.get_or_insert(limit);
    }

    /// The error for the first limit the trace reached, if it reached one.
    pub fn limit_error(&self) -> Option<Error> {
        let limit = self.limit_hit.or(self.budget.exhausted.then_some(LimitHit::CallStacks))?;
        let o = &self.limits;
        let n = |limit: usize| group_digits(limit as u64);
        let message = match limit {
            LimitHit::Depth => {
                format!("a thread's stack is deeper than {} frames (the stack-depth limit)", n(o.max_stack_depth))
            }
            LimitHit::CallStacks => format!(
                "the trace has more than {} unique call stacks (the call-stack limit); real traces have far \
                 fewer, so this one is probably generated or damaged",
                group_digits(o.max_call_stacks)
            ),
            LimitHit::Threads => format!("the trace has more than {} threads (the thread limit)", n(o.max_threads)),
            LimitHit::Methods => {
                format!("the trace has more than {} distinct methods (the method limit)", n(o.max_methods))
            }
        };
        Some(Error::new(ErrorKind::Limit, message))
    }

    /// A name as the profile keeps it: cut to the name-length limit (on a character
    /// boundary, ending in `…`), the cut counted.
    fn clip(&mut self, mut name: String) -> String {
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

    fn clip_method(&mut self, info: MethodInfo) -> MethodInfo {
        let max = self.limits.max_name_bytes;
        let long = |s: &str| s.len() > max;
        if !(long(&info.class) || long(&info.name) || long(&info.signature) || info.source.as_deref().is_some_and(long))
        {
            return info;
        }
        MethodInfo {
            class: self.clip(info.class),
            name: self.clip(info.name),
            signature: self.clip(info.signature),
            source: info.source.map(|s| self.clip(s)),
            line: info.line,
        }
    }

    // ---- methods -------------------------------------------------------------------

    /// The slot of a method id, creating an (as yet) unknown one if needed. Hot path.
    #[inline]
    pub fn method(&mut self, id: u64) -> u32 {
        let dense = id >> 2;
        if id & 3 == 0 && dense < DENSE_METHOD_LIMIT {
            if let Some(&slot) = self.method_dense.get(dense as usize) {
                if slot != NONE {
                    return slot;
                }
            }
        } else if let Some(&slot) = self.method_sparse.get(&id) {
            return slot;
        }
        self.new_method_slot(id, None)
    }

    #[cold]
    fn new_method_slot(&mut self, id: u64, info: Option<MethodInfo>) -> u32 {
        if self.methods.len() >= self.limits.max_methods.max(1) {
            // Any slot will do: the analysis stops with an error after this chunk.
            self.hit(LimitHit::Methods);
            return 0;
        }
        let slot = self.methods.len() as u32;
        self.methods.push(MethodSlot { id, info });
        let dense = id >> 2;
        if id & 3 == 0 && dense < DENSE_METHOD_LIMIT {
            let want = dense as usize + 1;
            if self.method_dense.len() < want {
                let grown = want.max(self.method_dense.len() * 2).min(DENSE_METHOD_LIMIT as usize);
                self.method_dense.resize(grown, NONE);
            }
            self.method_dense[dense as usize] = slot;
        } else {
            self.method_sparse.insert(id, slot);
        }
        slot
    }

    fn lookup_method(&self, id: u64) -> Option<u32> {
        let dense = id >> 2;
        if id & 3 == 0 && dense < DENSE_METHOD_LIMIT {
            self.method_dense.get(dense as usize).copied().filter(|&s| s != NONE)
        } else {
            self.method_sparse.get(&id).copied()
        }
    }

    /// Defines (or redefines: the last definition wins) a method id.
    pub fn define_method(&mut self, id: u64, info: MethodInfo) {
        let info = self.clip_method(info);
        match self.lookup_method(id) {
            Some(slot) => {
                let entry = &mut self.methods[slot as usize];
                if entry.info.is_none() {
                    self.defined += 1;
                }
                entry.info = Some(info);
            }
            None => {
                self.defined += 1;
                self.new_method_slot(id, Some(info));
            }
        }
    }

    pub fn is_method_defined(&self, id: u64) -> bool {
        self.lookup_method(id).is_some_and(|s| self.methods[s as usize].info.is_some())
    }

    pub fn defined_methods(&self) -> usize {
        self.defined
    }

    // ---- threads -------------------------------------------------------------------

    /// The logical thread for a thread id as records carry it. Hot path.
    #[inline]
    pub fn thread(&mut self, id: u32) -> u32 {
        if id < DENSE_THREAD_LIMIT {
            let slot = self.thread_dense[id as usize];
            if slot != NONE {
                return slot;
            }
        } else if let Some(&slot) = self.thread_sparse.get(&id) {
            return slot;
        }
        self.new_thread(id, None)
    }

    #[cold]
    fn new_thread(&mut self, id: u32, name: Option<String>) -> u32 {
        if self.threads.len() >= self.limits.max_threads.max(1) {
            // Any slot will do: the analysis stops with an error after this chunk.
            self.hit(LimitHit::Threads);
            return 0;
        }
        let name = name.map(|n| self.clip(n));
        let slot = self.threads.len() as u32;
        self.threads.push(ThreadState::new(id, name));
        self.map_thread(id, slot);
        slot
    }

    fn map_thread(&mut self, id: u32, slot: u32) {
        if id < DENSE_THREAD_LIMIT {
            self.thread_dense[id as usize] = slot;
        } else {
            self.thread_sparse.insert(id, slot);
        }
    }

    fn lookup_thread(&self, id: u32) -> Option<u32> {
        if id < DENSE_THREAD_LIMIT {
            Some(self.thread_dense[id as usize]).filter(|&s| s != NONE)
        } else {
            self.thread_sparse.get(&id).copied()
        }
    }

    /// A thread named in a list (`*threads`, a summary). Lists name threads by their full
    /// id, while older ART records carry it truncated to 16 bits; names are matched to
    /// record ids when the profile is finished. A repeated id means the id was reused.
    pub fn list_thread(&mut self, id: u32, name: String) {
        let name = self.clip(name);
        if let Some(&at) = self.listed_index.get(&id) {
            let entry = &mut self.listed[at];
            if entry.1 != name {
                let merged = format!("{} / {}", entry.1, name);
                let message = format!(
                    "thread id {id} is listed twice ({:?} and {:?}): the id was reused and the \
                     trace cannot tell their records apart, so they are shown as one thread",
                    entry.1, name
                );
                entry.1 = merged;
                self.repairs.reused_thread_ids += 1;
                self.warn_about("reused_thread_ids", message);
            }
        } else if self.listed.len() >= self.limits.max_threads.max(1) {
            self.hit(LimitHit::Threads);
        } else {
            self.listed_index.insert(id, self.listed.len());
            self.listed.push((id, name));
        }
    }

    /// A thread defined in the record stream (kOpNewThread, a V2 thread packet). A new
    /// name for an id whose stack is empty starts a new logical thread (the id was reused).
    pub fn define_thread(&mut self, id: u32, name: String) {
        let name = self.clip(name);
        let Some(slot) = self.lookup_thread(id) else {
            self.new_thread(id, Some(name));
            return;
        };
        let state = &mut self.threads[slot as usize];
        if state.name.as_deref() == Some(name.as_str()) {
            return;
        }
        if state.records == 0 || state.name.is_none() {
            state.name = Some(name);
        } else if state.stack.is_empty() {
            let slot = self.threads.len() as u32;
            self.threads.push(ThreadState::new(id, Some(name)));
            self.map_thread(id, slot);
            self.repairs.reused_thread_ids += 1;
        } else {
            let old = state.name.clone().unwrap_or_default();
            state.name = Some(format!("{old} / {name}"));
            self.repairs.reused_thread_ids += 1;
            self.warn_about(
                "reused_thread_ids",
                format!(
                    "thread id {id} was renamed from {old:?} to {name:?} while it had methods \
                 running; its records are kept as one thread"
                ),
            );
        }
    }

    // ---- records -------------------------------------------------------------------

    /// A record with 32-bit times (V1 formats): times are unwrapped per thread and clock.
    #[inline(always)]
    pub fn record32(&mut self, thread: u32, method: u32, action: u8, times: [u32; 2]) {
        let state = &mut self.threads[thread as usize];
        let wraps = &mut self.repairs.time_wraps;
        let t = [state.unwrap[0].next(times[0], wraps), state.unwrap[1].next(times[1], wraps)];
        self.record(thread, method, action, t);
    }

    /// A record with full-width times. `times[0]` is wall (or the only clock), `[1]` CPU.
    /// Always inlined: called out of line, its times went through memory in two halves and
    /// came back as one load, a store-forwarding stall that cost 40% of the loop (perf).
    #[inline(always)]
    pub fn record(&mut self, thread: u32, method: u32, action: u8, t: [u64; 2]) {
        self.records += 1;
        let state = &mut self.threads[thread as usize];
        state.records += 1;
        if action > UNWIND {
            self.repairs.invalid_records += 1;
            return;
        }
        if !state.started {
            state.started = true;
            state.first = t;
        } else if state.records <= SAMPLING_WINDOW && t[0] > state.last[0] {
            state.gaps.push(t[0] - state.last[0]);
        }
        state.last = t;
        if action == ENTER {
            if state.stack.len() >= self.limits.max_stack_depth {
                self.limit_hit.get_or_insert(LimitHit::Depth);
                return;
            }
            let parent = state.stack.last().map_or(CallTree::ROOT, |open| open.node);
            let node = state.tree.child(parent, method, &mut self.budget);
            state.stack.push(Open { node, method, enter: t });
            return;
        }
        if let Some(&top) = state.stack.last() {
            if top.method == method {
                state.stack.pop();
                close(&mut state.tree, top, t);
                return;
            }
        }
        exit_below_top(state, &mut self.repairs, &mut self.budget, method, t);
    }

    /// Closes whatever frame is on top of a thread (an atrace `E` names no slice).
    /// False, with nothing changed but the record count, when no frame is open.
    pub fn exit_top(&mut self, thread: u32, t: [u64; 2]) -> bool {
        self.records += 1;
        let state = &mut self.threads[thread as usize];
        state.records += 1;
        let Some(open) = state.stack.pop() else {
            return false;
        };
        state.last = t;
        close(&mut state.tree, open, t);
        true
    }

    /// Frames open on a thread.
    pub fn depth(&self, thread: u32) -> usize {
        self.threads[thread as usize].stack.len()
    }

    /// A thread was seen at `t` without a record: frames still open at the end close at
    /// its last sign of life, not at its last record.
    pub fn touch(&mut self, thread: u32, t: [u64; 2]) {
        let state = &mut self.threads[thread as usize];
        if state.started && t[0] > state.last[0] {
            state.last = t;
        }
    }

    /// Names a thread unless it already has a name; `replace` lets a later name win
    /// (atrace threads rename themselves; the last name is the one users know).
    pub fn name_thread(&mut self, thread: u32, name: String, replace: bool) {
        let name = self.clip(name);
        let state = &mut self.threads[thread as usize];
        if replace || state.name.is_none() {
            state.name = Some(name);
        }
    }

    pub fn set_process(&mut self, thread: u32, pid: u32) {
        self.threads[thread as usize].pid = Some(pid);
    }

    pub fn name_process(&mut self, pid: u32, name: String) {
        let name = self.clip(name);
        self.processes.insert(pid, name);
    }

    /// Marks a thread slot as a named track of spans rather than a real thread.
    pub fn mark_track(&mut self, thread: u32) {
        self.threads[thread as usize].track = true;
    }

    pub fn set_sched(&mut self, thread: u32, sched: SchedTimes) {
        self.threads[thread as usize].sched = Some(sched);
    }

    // ---- the end -------------------------------------------------------------------

    /// The first value of each thread's primary clock, for guessing an unnamed clock.
    pub fn first_primary_values(&self) -> impl Iterator<Item = u64> + '_ {
        self.threads.iter().filter(|t| t.started).map(|t| t.first[0])
    }

    /// Sampling traces look like tracing ones; only their rhythm tells (E29). Firefox's
    /// rule: the mean of the smallest 20% of non-zero gaps between a thread's first 500
    /// records is at least 100 µs. Returns that mean, in ticks, for a sampling trace.
    pub fn sampling_interval(&self, unit: TimeUnit) -> Option<u64> {
        let mut gaps: Vec<u64> = self.threads.iter().flat_map(|t| t.gaps.iter().copied()).collect();
        if gaps.len() < 20 {
            return None;
        }
        gaps.sort_unstable();
        let lowest = &gaps[..gaps.len() / 5];
        let mean = lowest.iter().sum::<u64>() / lowest.len() as u64;
        (unit.micros(mean) >= 100).then_some(mean)
    }

    pub fn finish(mut self, mut spec: FinishSpec) -> Profile {
        for counter in &mut spec.counters {
            counter.name = self.clip(std::mem::take(&mut counter.name));
        }
        for state in &mut self.threads {
            let last = state.last;
            self.repairs.open_at_end += state.stack.len() as u64;
            while let Some(open) = state.stack.pop() {
                close(&mut state.tree, open, last);
            }
        }
        self.name_threads();
        if self.dropped_warnings > 0 {
            let n = self.dropped_warnings;
            self.warnings.push(format!("{n} more warnings not shown"));
            self.warning_repairs.push(None);
        }
        let (methods, canonical) = canonical_methods(&self.methods, &self.threads);
        self.repairs.unknown_methods = methods.iter().filter(|m| m.unknown).count() as u64;
        let (frames, frame_of) = frames_of(&methods);
        let swap = spec.clocks == ClockSet::Cpu;
        let processes = std::mem::take(&mut self.processes);
        let mut threads = self
            .threads
            .into_iter()
            .filter(|t| t.records > 0)
            .map(|t| finish_thread(t, &canonical, swap, &processes))
            .collect::<Vec<_>>();
        if spec.group_by_process {
            // Threads under their process, each process's tracks after its threads.
            threads.sort_by_key(|t| (t.pid.unwrap_or(u32::MAX), t.track, t.tid));
        }
        Profile {
            format: spec.format,
            header: spec.header,
            clocks: spec.clocks,
            time_unit: spec.time_unit,
            threads,
            methods,
            frame_of,
            frames,
            repairs: self.repairs,
            warnings: self.warnings,
            warning_repairs: self.warning_repairs,
            limits: self.limits,
            records: self.records,
            counters: spec.counters,
        }
    }

    /// Gives every thread a name: its own, one listed for its id, or one listed for a
    /// full id whose low 16 bits it is (older ART truncates ids in records).
    fn name_threads(&mut self) {
        let listed = std::mem::take(&mut self.listed);
        let index = std::mem::take(&mut self.listed_index);
        // Listed full ids above 16 bits, by their low 16 bits (in list order).
        let mut by_low_bits: FxHashMap<u32, Vec<&(u32, String)>> = FxHashMap::default();
        for entry in listed.iter().filter(|(id, _)| *id > 0xFFFF) {
            by_low_bits.entry(entry.0 & 0xFFFF).or_default().push(entry);
        }
        let mut unknown = 0;
        let mut collisions = Vec::new();
        for state in &mut self.threads {
            if let Some(&at) = index.get(&state.tid) {
                if state.name.is_none() {
                    state.name = Some(listed[at].1.clone());
                }
                continue;
            }
            if state.tid < DENSE_THREAD_LIMIT {
                let mut wide = by_low_bits.get(&state.tid).into_iter().flatten().copied();
                if let Some((full, name)) = wide.next() {
                    let named_alike = state.name.as_ref().is_none_or(|n| n == name);
                    match wide.next() {
                        None if named_alike => {
                            state.tid = *full;
                            state.name = Some(name.clone());
                            continue;
                        }
                        Some((other, _)) => collisions.push((state.tid, *full, *other)),
                        None => {}
                    }
                }
            }
            if state.name.is_none() && state.records > 0 {
                state.name = Some(format!("Thread {}", state.tid));
                unknown += 1;
            }
        }
        self.repairs.unknown_threads = unknown;
        for (short, a, b) in collisions {
            self.warn(format!(
                "records use thread id {short}, which is the low 16 bits of both listed threads {a} and {b} \
                 (older ART truncates thread ids): its records cannot be attributed and are shown as Thread {short}"
            ));
        }
    }
}

#[inline]
fn close(tree: &mut TreeBuilder, open: Open, t: [u64; 2]) {
    let node = tree.node_mut(open.node);
    node.calls += 1;
    node.incl[0] = node.incl[0].saturating_add(t[0].saturating_sub(open.enter[0]));
    node.incl[1] = node.incl[1].saturating_add(t[1].saturating_sub(open.enter[1]));
}

/// An exit whose method is not on top: either deeper in the stack (close the frames above
/// it at this time) or not on the stack at all (it was running before tracing began).
#[cold]
fn exit_below_top(state: &mut ThreadState, repairs: &mut Repairs, budget: &mut NodeBudget, method: u32, t: [u64; 2]) {
    if let Some(at) = state.stack.iter().rposition(|open| open.method == method) {
        repairs.mismatched_exits += 1;
        while state.stack.len() > at {
            let open = state.stack.pop().expect("stack is longer than `at`");
            close(&mut state.tree, open, t);
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
    let node = state.tree.adopt_top_level(method);
    state.stack.insert(0, Open { node, method, enter: state.first });
    while let Some(open) = state.stack.pop() {
        close(&mut state.tree, open, t);
    }
}

/// Merges method slots that name the same method (class, name, signature) and keeps only
/// those some record used. Returns the methods and the slot -> method map.
fn canonical_methods(slots: &[MethodSlot], threads: &[ThreadState]) -> (Vec<Method>, Vec<u32>) {
    let mut used = vec![false; slots.len()];
    for state in threads {
        for node in state.tree.nodes().iter().skip(1) {
            used[node.method as usize] = true;
        }
    }
    let mut methods = Vec::new();
    let mut canonical = vec![NONE; slots.len()];
    let mut by_identity: FxHashMap<(&str, &str, &str), u32> = FxHashMap::default();
    for (slot, entry) in slots.iter().enumerate() {
        if !used[slot] {
            continue;
        }
        let index = match &entry.info {
            Some(info) => *by_identity
                .entry((&info.class, &info.name, &info.signature))
                .or_insert_with(|| push_method(&mut methods, entry)),
            None => push_method(&mut methods, entry),
        };
        canonical[slot] = index;
    }
    (methods, canonical)
}

fn push_method(methods: &mut Vec<Method>, slot: &MethodSlot) -> u32 {
    let method = match &slot.info {
        Some(info) => Method {
            class: info.class.clone(),
            name: info.name.clone(),
            signature: info.signature.clone(),
            source: info.source.clone(),
            line: info.line,
            id: slot.id,
            unknown: false,
        },
        None => Method {
            class: String::new(),
            name: String::new(),
            signature: String::new(),
            source: None,
            line: None,
            id: slot.id,
            unknown: true,
        },
    };
    methods.push(method);
    (methods.len() - 1) as u32
}

fn frames_of(methods: &[Method]) -> (Vec<String>, Vec<u32>) {
    let mut frames = Vec::new();
    let mut index: FxHashMap<String, u32> = FxHashMap::default();
    let frame_of = methods
        .iter()
        .map(|m| {
            let name = m.frame_name();
            *index.entry(name).or_insert_with_key(|name| {
                frames.push(name.clone());
                (frames.len() - 1) as u32
            })
        })
        .collect();
    (frames, frame_of)
}

fn finish_thread(
    state: ThreadState,
    canonical: &[u32],
    swap_clocks: bool,
    processes: &FxHashMap<u32, String>,
) -> ThreadProfile {
    let mut tree = state.tree.into_tree();
    let nodes = tree.nodes_mut();
    let mut children_incl = vec![[0u64; 2]; nodes.len()];
    for node in nodes.iter().skip(1) {
        let sum = &mut children_incl[node.parent as usize];
        sum[0] = sum[0].saturating_add(node.incl[0]);
        sum[1] = sum[1].saturating_add(node.incl[1]);
    }
    for (index, node) in nodes.iter_mut().enumerate().skip(1) {
        node.method = canonical[node.method as usize];
        let children = children_incl[index];
        node.self_time = [node.incl[0].saturating_sub(children[0]), node.incl[1].saturating_sub(children[1])];
        if swap_clocks {
            node.incl.swap(0, 1);
            node.self_time.swap(0, 1);
        }
    }
    let (mut first, mut last) = (state.first, state.last);
    if swap_clocks {
        first.swap(0, 1);
        last.swap(0, 1);
    }
    ThreadProfile {
        tid: state.tid,
        name: state.name.unwrap_or_else(|| format!("Thread {}", state.tid)),
        records: state.records,
        tree,
        first,
        last,
        pid: state.pid,
        process: state.pid.and_then(|pid| processes.get(&pid).cloned()),
        track: state.track,
        sched: state.sched,
    }
}

#[cfg(test)]
mod tests {
    use super::Unwrap;

    /// The unwrap as first written, as the reference for the faster one.
    fn reference(state: &mut Unwrap, raw: u32, wraps: &mut u64) -> u64 {
        if raw < state.last && state.last - raw > 1 << 31 {
            state.high = state.high.saturating_add(1 << 32);
            *wraps += 1;
        } else if raw > state.last && raw - state.last > 1 << 31 && state.high > 0 {
            return state.high - (1 << 32) + u64::from(raw);
        }
        state.last = raw;
        state.high + u64::from(raw)
    }

    #[test]
    fn the_fast_unwrap_matches_the_reference_everywhere() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut random = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for round in 0..2_000 {
            let (mut fast, mut slow) = (Unwrap::default(), Unwrap::default());
            let (mut fast_wraps, mut slow_wraps) = (0, 0);
            let mut raw = random() as u32;
            for _ in 0..200 {
                // Small steps both ways, steps near half the range, and jumps anywhere.
                raw = match random() % 6 {
                    0 | 1 => raw.wrapping_add((random() % 5000) as u32),
                    2 => raw.wrapping_sub((random() % 5000) as u32),
                    3 => raw.wrapping_add((1u32 << 31).wrapping_add((random() % 3) as u32).wrapping_sub(1)),
                    _ => random() as u32,
                };
                let a = fast.next(raw, &mut fast_wraps);
                let b = reference(&mut slow, raw, &mut slow_wraps);
                assert_eq!(
                    (a, fast.last, fast.high, fast_wraps),
                    (b, slow.last, slow.high, slow_wraps),
                    "round {round}"
                );
            }
        }
    }
}
