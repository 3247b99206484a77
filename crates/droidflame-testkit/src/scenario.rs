//! Random call structures, seeded and reproducible, with the profile they must produce.
//!
//! The generator plays each thread forward with a true stack (including frames that were
//! running before tracing began) and writes the records ART would write. The oracle does
//! not replay records: it derives every expected number from the call intervals the
//! generator knew, as the design's time semantics define them.

use crate::writer::{Clocks, MethodDef, Record, ThreadDef, Trace, ENTER, EXIT, UNWIND};

use std::collections::BTreeMap;

/// SplitMix64: tiny, seeded, good enough to drive a generator.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    /// True with probability `percent`%.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// What the random structure may contain.
#[derive(Debug, Clone)]
pub struct Config {
    pub threads: usize,
    pub methods: usize,
    /// Events (enters and exits) per thread, at most.
    pub events_per_thread: usize,
    pub max_depth: usize,
    pub clocks: Clocks,
    /// Frames already running when tracing began (exited without an enter).
    pub pre_existing: bool,
    /// Some exits are written as unwinds (action 2).
    pub unwinds: bool,
    /// Some exits name a deeper frame, closing the ones above.
    pub mismatched: bool,
    /// Some records use method ids with no definition.
    pub unknown_methods: bool,
    /// Times start just below 2^32 so 32-bit layouts wrap.
    pub wrap: bool,
    /// Records come in per-thread chunks instead of global time order.
    pub chunked: bool,
    /// Thread ids must fit in a byte (version 1 files).
    pub narrow_tids: bool,
    /// Method ids are 64-bit pointers (V2) instead of ART's `index << 2`.
    pub pointer_ids: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            threads: 3,
            methods: 12,
            events_per_thread: 200,
            max_depth: 12,
            clocks: Clocks::Dual,
            pre_existing: true,
            unwinds: true,
            mismatched: true,
            unknown_methods: true,
            wrap: false,
            chunked: false,
            narrow_tids: false,
            pointer_ids: false,
        }
    }
}

/// The expected profile, in ticks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Expected {
    /// Per thread id: stack of frame names joined by `;` -> self ticks `[wall, cpu]`.
    pub stacks: BTreeMap<u32, BTreeMap<String, [u64; 2]>>,
    /// Per `(class, name, signature)` (unknown ids: `("", "<unknown 0x..>", "")`).
    pub methods: BTreeMap<(String, String, String), MethodStats>,
    pub records: BTreeMap<u32, u64>,
    pub unmatched_exits: u64,
    pub mismatched_exits: u64,
    pub open_at_end: u64,
    pub unknown_methods: u64,
    /// Per thread id: every call, sorted by (start, depth, end, frame).
    pub calls: BTreeMap<u32, Vec<ExpectedCall>>,
}

/// One call as the timeline shows it. Times are ticks from the timeline's start on the
/// timeline's clock (wall; for a CPU-only trace the CPU clock, which is no shared
/// timeline: then the start is the earliest CPU value of any thread).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct ExpectedCall {
    pub start: u64,
    pub depth: u32,
    pub end: u64,
    pub frame: String,
    /// Thread-CPU ticks; 0 where the trace has no CPU clock.
    pub cpu: u64,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MethodStats {
    pub calls: u64,
    pub recursive_calls: u64,
    pub incl: [u64; 2],
    pub excl: [u64; 2],
}

pub struct Scenario {
    pub trace: Trace,
    /// What a reader should make of the trace when it is complete.
    complete: Expected,
    /// ... and when the trace lost data at its end (cut short, overflowed, no summary).
    lost_at_end: Expected,
}

impl Scenario {
    /// The expected profile; `lost_at_end`: the trace lost data at its end, so frames still
    /// open close at their own thread's last record instead of the timeline's end.
    pub fn expected(&self, lost_at_end: bool) -> &Expected {
        if lost_at_end {
            &self.lost_at_end
        } else {
            &self.complete
        }
    }
}

/// A frame of the true stack.
struct Frame {
    method: u64,
    start: [u64; 2],
    /// Emitted an enter (false: was running before tracing began).
    entered: bool,
    id: usize,
}

/// One finished call: the path of frame ids from the bottom, and its times.
#[derive(Clone)]
struct Interval {
    path: Vec<usize>,
    start: [u64; 2],
    end: [u64; 2],
    /// Running before tracing began: on the wall clock it starts at the timeline's start.
    from_before: bool,
    /// Still open at the end: on the wall clock it ends at the timeline's end, unless the
    /// trace lost data at its end.
    open_at_end: bool,
}

pub fn generate(seed: u64, config: &Config) -> Scenario {
    let mut rng = Rng::new(seed);
    let id_of = |i: u64| {
        if config.pointer_ids {
            0x7A3C_0000_0000 + i * 0x28
        } else {
            i << 2
        }
    };
    let methods = method_defs(config.methods, id_of);
    let unknown: Vec<u64> = if config.unknown_methods { vec![id_of(0x10_0000), id_of(0x10_0001)] } else { vec![] };
    let mut all_ids: Vec<u64> = methods.iter().map(|m| m.id).collect();
    all_ids.extend(&unknown);
    let mut trace = Trace { clocks: config.clocks, ..Trace::default() };
    let mut expected = Expected::default();
    let mut per_thread: Vec<Vec<Record>> = Vec::new();
    let mut frame_methods: Vec<u64> = Vec::new();
    let mut visible: Vec<bool> = Vec::new();
    let mut intervals: Vec<(u32, Interval)> = Vec::new();
    // The wall clock's earliest and latest record of any thread.
    let mut timeline: Option<(u64, u64)> = None;
    // The same over CPU values, the timeline clock of a CPU-only trace.
    let mut cpu_timeline: Option<(u64, u64)> = None;
    for t in 0..config.threads {
        let tid = if config.narrow_tids { 1 + t as u32 } else { 1 + t as u32 * 7 + rng.below(5) as u32 };
        trace.threads.push(ThreadDef { tid, name: format!("worker-{t}") });
        let base = if config.wrap { u64::from(u32::MAX) - rng.below(3000) } else { 1000 + rng.below(100_000) };
        let mut now = [base, if config.wrap { u64::from(u32::MAX) - rng.below(2000) } else { 0 }];
        let mut stack: Vec<Frame> = Vec::new();
        if config.pre_existing {
            for _ in 0..rng.below(3) {
                let method = all_ids[rng.below(methods.len() as u64) as usize];
                stack.push(Frame { method, start: [0; 2], entered: false, id: frame_methods.len() });
                frame_methods.push(method);
                visible.push(false);
            }
        }
        let mut records = Vec::new();
        let mut first: Option<[u64; 2]> = None;
        let events = config.events_per_thread / 2 + rng.below(config.events_per_thread as u64 / 2 + 1) as usize;
        for _ in 0..events {
            // A thread's first record is at its start (ART starts its CPU clock there).
            if !records.is_empty() {
                let dw = rng.below(40);
                now = [now[0] + dw, now[1] + rng.below(dw + 1)];
            }
            let open_entered = stack.iter().filter(|f| f.entered).count();
            let emit = |records: &mut Vec<Record>, method: u64, action: u8| {
                records.push(Record { tid, method, action, wall: now[0], cpu: now[1] });
            };
            if stack.is_empty() || (stack.len() < config.max_depth && rng.chance(52)) {
                let method = all_ids[rng.below(all_ids.len() as u64) as usize];
                emit(&mut records, method, ENTER);
                first.get_or_insert(now);
                stack.push(Frame { method, start: now, entered: true, id: frame_methods.len() });
                frame_methods.push(method);
                visible.push(true);
                continue;
            }
            first.get_or_insert(now);
            // Which frame exits: the top, or (mismatch) a deeper entered frame whose method
            // does not occur above it, so the reader's search finds exactly it.
            let mut target = stack.len() - 1;
            if config.mismatched && open_entered >= 2 && rng.chance(8) {
                let candidate = stack.len() - 1 - (1 + rng.below(open_entered as u64 - 1) as usize);
                let m = stack[candidate].method;
                if stack[candidate].entered && stack[candidate + 1..].iter().all(|f| f.method != m) {
                    target = candidate;
                }
            }
            let action = if config.unwinds && rng.chance(10) { UNWIND } else { EXIT };
            emit(&mut records, stack[target].method, action);
            if target < stack.len() - 1 {
                expected.mismatched_exits += 1;
            }
            if !stack[target].entered {
                expected.unmatched_exits += 1;
                visible[stack[target].id] = true;
            }
            while stack.len() > target {
                let frame = stack.pop().expect("stack is longer than target");
                let start = if frame.entered { frame.start } else { first.expect("a record was written") };
                let mut path: Vec<usize> = stack.iter().map(|f| f.id).collect();
                path.push(frame.id);
                let from_before = !frame.entered;
                intervals.push((tid, Interval { path, start, end: now, from_before, open_at_end: false }));
            }
        }
        let last = records.last().map(|r| [r.wall, r.cpu]);
        if let Some(last) = last {
            // Entered frames still open close at the thread's last record (the wall clock's
            // end is moved to the timeline's end below).
            while stack.last().is_some_and(|f| f.entered) {
                let frame = stack.pop().expect("checked above");
                expected.open_at_end += 1;
                let mut path: Vec<usize> = stack.iter().map(|f| f.id).collect();
                path.push(frame.id);
                let interval = Interval { path, start: frame.start, end: last, from_before: false, open_at_end: true };
                intervals.push((tid, interval));
            }
            expected.records.insert(tid, records.len() as u64);
            let widen = |span: Option<(u64, u64)>, clock: usize| {
                let (a, b) = (first.unwrap_or(last)[clock], last[clock]);
                Some(span.map_or((a, b), |(x, y): (u64, u64)| (x.min(a), y.max(b))))
            };
            timeline = widen(timeline, 0);
            cpu_timeline = widen(cpu_timeline, 1);
        }
        per_thread.push(records);
    }
    trace.methods = methods;
    trace.records = interleave(per_thread, config.chunked, &mut rng);
    let names = FrameNames::new(&trace.methods);
    expected.unknown_methods =
        unknown.iter().filter(|id| trace.records.iter().any(|r| r.method == **id)).count() as u64;
    let (start, end) = timeline.unwrap_or_default();
    // Calls from before tracing start at the timeline's start on the wall clock; calls still
    // open end at its end, unless the trace lost data at its end.
    let on_timeline = |lost_at_end: bool| -> Vec<(u32, Interval)> {
        let mut intervals = intervals.clone();
        for (_, iv) in &mut intervals {
            if iv.from_before {
                iv.start[0] = start;
            }
            if iv.open_at_end && !lost_at_end {
                iv.end[0] = end;
            }
        }
        intervals
    };
    let origin = if config.clocks == Clocks::Cpu { cpu_timeline.unwrap_or_default().0 } else { start };
    let context =
        Context { frame_methods: &frame_methods, visible: &visible, names: &names, clocks: config.clocks, origin };
    let mut complete = expected.clone();
    oracle(&mut complete, &on_timeline(false), &context);
    let mut lost_at_end = expected;
    oracle(&mut lost_at_end, &on_timeline(true), &context);
    Scenario { trace, complete, lost_at_end }
}

fn method_defs(n: usize, id_of: impl Fn(u64) -> u64) -> Vec<MethodDef> {
    (0..n)
        .map(|i| {
            let class = format!("com.example.C{}", i / 3);
            // Every third method is an overload of the one before: same frame, other signature.
            let (name, sig) = if i % 3 == 2 {
                (format!("m{}", i - 1), "(I)V".to_string())
            } else {
                (format!("m{i}"), "()V".to_string())
            };
            MethodDef::new(id_of(i as u64), &class, &name, &sig)
        })
        .collect()
}

fn interleave(per_thread: Vec<Vec<Record>>, chunked: bool, rng: &mut Rng) -> Vec<Record> {
    let mut cursors: Vec<std::vec::IntoIter<Record>> = per_thread.into_iter().map(Vec::into_iter).collect();
    let mut out = Vec::new();
    if chunked {
        // Like ART's per-thread buffers: runs of one thread, threads taking turns.
        loop {
            let mut any = false;
            for c in &mut cursors {
                for _ in 0..1 + rng.below(60) {
                    match c.next() {
                        Some(r) => {
                            out.push(r);
                            any = true;
                        }
                        None => break,
                    }
                }
            }
            if !any {
                return out;
            }
        }
    }
    let mut heads: Vec<Option<Record>> = cursors.iter_mut().map(Iterator::next).collect();
    while let Some(i) = (0..heads.len()).filter(|&i| heads[i].is_some()).min_by_key(|&i| heads[i].map(|r| r.wall)) {
        out.push(heads[i].take().expect("filtered to Some"));
        heads[i] = cursors[i].next();
    }
    out
}

struct FrameNames {
    by_id: BTreeMap<u64, (String, (String, String, String))>,
}

impl FrameNames {
    fn new(methods: &[MethodDef]) -> Self {
        let by_id = methods
            .iter()
            .map(|m| {
                let class = m.class.replace('/', ".");
                (m.id, (format!("{class}.{}", m.name), (class, m.name.clone(), m.signature.clone())))
            })
            .collect();
        FrameNames { by_id }
    }

    fn frame(&self, id: u64) -> String {
        self.by_id.get(&id).map_or_else(|| format!("<unknown {id:#x}>"), |(f, _)| f.clone())
    }

    fn key(&self, id: u64) -> (String, String, String) {
        self.by_id
            .get(&id)
            .map_or_else(|| (String::new(), format!("<unknown {id:#x}>"), String::new()), |(_, k)| k.clone())
    }
}

/// What the oracle needs beside the intervals.
struct Context<'a> {
    frame_methods: &'a [u64],
    /// Frames the trace shows (a frame from before tracing that never returns does not).
    visible: &'a [bool],
    names: &'a FrameNames,
    clocks: Clocks,
    /// The timeline's start on its clock.
    origin: u64,
}

/// Derives stacks, method statistics and calls from the intervals alone.
fn oracle(expected: &mut Expected, intervals: &[(u32, Interval)], context: &Context) {
    let Context { frame_methods, visible, names, clocks, origin } = *context;
    // Single-clock traces keep their clock in its own slot: wall in 0, CPU in 1.
    let keep = |t: [u64; 2]| match clocks {
        Clocks::Dual => t,
        Clocks::Wall => [t[0], 0],
        Clocks::Cpu => [0, t[1]],
    };
    // Children's inclusive time per parent frame id.
    let mut child_sum: BTreeMap<usize, [u64; 2]> = BTreeMap::new();
    for (_, iv) in intervals {
        let path: Vec<usize> = iv.path.iter().copied().filter(|&f| visible[f]).collect();
        if path.len() >= 2 {
            let d = keep([iv.end[0] - iv.start[0], iv.end[1].saturating_sub(iv.start[1])]);
            let sum = child_sum.entry(path[path.len() - 2]).or_default();
            sum[0] += d[0];
            sum[1] += d[1];
        }
    }
    for (tid, iv) in intervals {
        let path: Vec<usize> = iv.path.iter().copied().filter(|&f| visible[f]).collect();
        let me = *path.last().expect("an interval has its own frame");
        let incl = keep([iv.end[0] - iv.start[0], iv.end[1].saturating_sub(iv.start[1])]);
        let children = child_sum.get(&me).copied().unwrap_or_default();
        let own = [incl[0] - children[0], incl[1] - children[1]];
        let stack: Vec<String> = path.iter().map(|&f| names.frame(frame_methods[f])).collect();
        let entry = expected.stacks.entry(*tid).or_default().entry(stack.join(";")).or_default();
        entry[0] += own[0];
        entry[1] += own[1];
        let method = frame_methods[me];
        let key = names.key(method);
        let recursive = path[..path.len() - 1].iter().any(|&f| names.key(frame_methods[f]) == key);
        let stats = expected.methods.entry(key).or_default();
        stats.calls += 1;
        stats.excl[0] += own[0];
        stats.excl[1] += own[1];
        if recursive {
            stats.recursive_calls += 1;
        } else {
            stats.incl[0] += incl[0];
            stats.incl[1] += incl[1];
        }
        let on = usize::from(clocks == Clocks::Cpu);
        let cpu = match clocks {
            Clocks::Wall => 0,
            _ => iv.end[1].saturating_sub(iv.start[1]),
        };
        expected.calls.entry(*tid).or_default().push(ExpectedCall {
            start: iv.start[on] - origin,
            depth: path.len() as u32 - 1,
            end: iv.end[on] - origin,
            frame: names.frame(method),
            cpu,
        });
    }
    for calls in expected.calls.values_mut() {
        calls.sort();
    }
}
