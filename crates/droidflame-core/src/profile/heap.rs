//! Heap profiles: for each process and heap, what each callstack had allocated and freed
//! at each dump, as running totals (a dump's values include every earlier dump's). The
//! heap sources are call trees made from one dump on demand, one "thread" per process.

use super::calls::ThreadCalls;
use super::clock::{ClockSet, ClockWords, PerClock, TimeUnit};
use super::frame::FrameKind;
use super::source::{Source, SourceKind};
use super::stacks::StackProfile;
use super::states::StateLog;
use super::thread::ThreadProfile;
use super::time_log::TimeLog;
use super::tree::NONE;
use super::tree::{CallTree, NodeBudget, TreeBuilder};

/// Every heap dump of a trace.
#[derive(Debug, Clone)]
pub struct HeapProfiles {
    /// Each distinct callstack once, outermost frame first (frames index `Profile::frames`).
    pub(crate) stacks: Vec<Box<[u32]>>,
    /// By pid.
    pub processes: Vec<HeapProcess>,
    /// The length of a tick of dumps' times (the trace's timeline's).
    pub(crate) time_unit: TimeUnit,
}

/// One process's heaps.
#[derive(Debug, Clone)]
pub struct HeapProcess {
    /// Its process id.
    pub pid: u32,
    /// Its name, where the trace gives one.
    pub name: Option<String>,
    /// In the order the trace first gave them.
    pub heaps: Vec<Heap>,
}

/// One heap of a process (`malloc`, `com.android.art`, a custom allocator's).
#[derive(Debug, Clone)]
pub struct Heap {
    /// Its name, as the trace gives it.
    pub name: String,
    /// The frame that names the heap atop its stacks, where the process has several.
    pub(crate) frame: u32,
    /// In time order.
    pub dumps: Vec<HeapDump>,
}

/// What one dump said of one heap.
#[derive(Debug, Clone, Default)]
pub struct HeapDump {
    /// When it was taken, in the profile's ticks.
    pub time: u64,
    /// Each callstack's totals.
    pub rows: Vec<HeapRow>,
}

/// One callstack's totals at a dump.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct HeapRow {
    /// Index into `HeapProfiles::stacks`.
    pub stack: u32,
    /// Bytes it allocated.
    pub allocated: u64,
    /// Bytes of those freed since.
    pub freed: u64,
    /// Allocations it made.
    pub allocations: u64,
    /// Of those, how many were freed.
    pub frees: u64,
}

impl HeapRow {
    /// Bytes and allocations the view counts: those not yet freed, or all.
    fn value(&self, kind: SourceKind) -> (u64, u64) {
        match kind {
            SourceKind::HeapAllocated => (self.allocated, self.allocations),
            _ => (self.allocated.saturating_sub(self.freed), self.allocations.saturating_sub(self.frees)),
        }
    }
}

/// Which heap source and dump to make.
#[derive(Debug, Clone, Copy)]
pub(crate) struct HeapView {
    pub kind: SourceKind,
    /// The dump, counted in time order; `None`: the last.
    pub dump: Option<usize>,
}

impl HeapProfiles {
    /// The most dumps any heap has.
    pub fn dump_count(&self) -> usize {
        self.heaps().map(|h| h.dumps.len()).max().unwrap_or(0)
    }

    fn heaps(&self) -> impl Iterator<Item = &Heap> {
        self.processes.iter().flat_map(|p| &p.heaps)
    }

    /// The dump `at` of `heap`: its last where it has fewer.
    fn dump(heap: &Heap, at: Option<usize>) -> Option<&HeapDump> {
        let last = heap.dumps.len().checked_sub(1)?;
        heap.dumps.get(at.unwrap_or(last).min(last))
    }

    /// Rows whose frees exceed their allocations (shown as nothing left), over every dump.
    pub fn overfreed_rows(&self) -> u64 {
        self.heaps().flat_map(|h| &h.dumps).flat_map(|d| &d.rows).filter(|r| r.freed > r.allocated).count() as u64
    }

    /// The stack profile of the source `view` names, made from its dump.
    pub(crate) fn stack_profile(&self, view: HeapView, sources: &[Source]) -> StackProfile {
        let source = sources.iter().find(|s| s.kind == view.kind).expect("the heap source is listed").clone();
        let threads = self.processes.iter().map(|process| self.process_profile(process, view)).collect();
        StackProfile {
            source,
            threads,
            clocks: ClockSet::Wall,
            time_unit: TimeUnit::MICROS,
            frame_kind: FrameKind::Function,
            clock_words: ClockWords { wall: heap_words(view.kind), cpu: "" },
            preferred_clock: None,
            shortest_call: 0,
            states_as_frames: false,
            counts_unknown: false,
        }
    }

    /// One process's tree at the view's dump: bytes on the wall clock's place, allocations
    /// as the nodes' counts (each at its stack's last frame); where it has several heaps,
    /// each heap's stacks begin with it.
    fn process_profile(&self, process: &HeapProcess, view: HeapView) -> ThreadProfile {
        let mut builder = TreeBuilder::new();
        let mut budget = NodeBudget { left: u64::MAX, exhausted: false };
        let named_heaps = process.heaps.len() > 1;
        let (mut first, mut last, mut rows) = (u64::MAX, 0, 0);
        for heap in &process.heaps {
            let Some(dump) = Self::dump(heap, view.dump) else { continue };
            first = first.min(dump.time);
            last = last.max(dump.time);
            rows += dump.rows.len() as u64;
            for row in &dump.rows {
                let (bytes, count) = row.value(view.kind);
                if bytes == 0 && count == 0 {
                    continue;
                }
                let frames = named_heaps.then_some(heap.frame).into_iter();
                let mut node = CallTree::ROOT;
                for frame in frames.chain(self.stacks[row.stack as usize].iter().copied()) {
                    node = builder.child(node, frame, &mut budget);
                    let n = builder.node_mut(node);
                    n.incl.wall = n.incl.wall.saturating_add(bytes);
                }
                // Allocations count once per stack, at its last frame (see `Count`).
                if node != CallTree::ROOT {
                    let n = builder.node_mut(node);
                    n.calls = n.calls.saturating_add(count);
                }
            }
        }
        let mut tree = builder.into_tree();
        let nodes = tree.nodes_mut();
        let mut children = vec![0u64; nodes.len()];
        for node in nodes.iter().skip(1) {
            children[node.parent as usize] = children[node.parent as usize].saturating_add(node.incl.wall);
        }
        for (index, node) in nodes.iter_mut().enumerate().skip(1) {
            node.self_time = PerClock::new(node.incl.wall.saturating_sub(children[index]), 0);
        }
        let first = if first == u64::MAX { 0 } else { first };
        ThreadProfile {
            tid: process.pid,
            name: process.name.clone().unwrap_or_else(|| format!("Process {}", process.pid)),
            records: rows,
            tree,
            first: PerClock::new(first, 0),
            last: PerClock::new(last, 0),
            pid: Some(process.pid),
            process: process.name.clone(),
            track: false,
            heap: false,
            sched: None,
            states: StateLog::default(),
            sample_times: TimeLog::default(),
            calls: ThreadCalls::default(),
            slot: NONE,
        }
    }
}

/// What a heap source's values are, in words for people.
pub(crate) const fn heap_words(kind: SourceKind) -> &'static str {
    match kind {
        SourceKind::HeapAllocated => "bytes allocated",
        _ => "bytes not freed",
    }
}
