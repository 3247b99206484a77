//! The heap-profile sink: a decoder hands over callstacks, then each heap's dumps as rows
//! of those stacks; finished into the profile's `HeapProfiles`.

use super::frame_sink::FrameSink;
use super::frames::FrameInfo;
use super::names::NameLimit;
use super::Limit;
use crate::error::{Error, ErrorKind, Result};
use crate::options::Options;
use crate::profile::clock::TimeUnit;
use crate::profile::heap::{Heap, HeapDump, HeapProcess, HeapProfiles, HeapRow};
use crate::profile::tree::NodeBudget;
use rustc_hash::FxHashMap;

#[derive(Debug)]
pub(crate) struct HeapSink {
    /// Stacks of frame slots, outermost first.
    stacks: Vec<Box<[u32]>>,
    pub(super) processes: Vec<HeapProcess>,
    process_of: FxHashMap<u32, usize>,
    /// Frames of stacks left before the call-stack limit: a heap profile's stacks count
    /// against it as a stack profile's do, each part on its own.
    pub(super) budget: NodeBudget,
    /// The call-stack limit, once the trace went beyond it.
    pub(super) refused: Option<Limit>,
    pub(super) names: NameLimit,
}

impl HeapSink {
    pub fn new(options: &Options) -> Self {
        HeapSink {
            stacks: Vec::new(),
            processes: Vec::new(),
            process_of: FxHashMap::default(),
            budget: NodeBudget { left: options.max_call_stacks, exhausted: false },
            refused: None,
            names: NameLimit::new(options.max_name_bytes),
        }
    }

    /// A callstack of heap dumps (frame slots, outermost first); its index for
    /// [`HeapRow::stack`]. Its frames count against the call-stack limit.
    pub fn stack(&mut self, frames: &[u32]) -> u32 {
        let cost = frames.len().max(1) as u64;
        if self.budget.left < cost {
            self.budget.exhausted = true;
            self.refused.get_or_insert(Limit::CallStacks);
            return 0;
        }
        self.budget.left -= cost;
        self.stacks.push(frames.into());
        (self.stacks.len() - 1) as u32
    }

    /// One dump of heap `heap` of process `pid`, taken at `time` (ticks): each callstack's
    /// totals since the profile began. Dumps of one heap come in time order. A heap's first
    /// dump makes the frame its stacks are drawn under (`<heap> heap`).
    pub fn dump(&mut self, frames: &mut FrameSink, pid: u32, heap: &str, time: u64, rows: Vec<HeapRow>) {
        let heap = self.names.clip(heap.to_owned());
        let at = match self.process_of.get(&pid) {
            Some(&at) => at,
            None => {
                self.processes.push(HeapProcess { pid, name: None, heaps: Vec::new() });
                self.process_of.insert(pid, self.processes.len() - 1);
                self.processes.len() - 1
            }
        };
        let known = self.processes[at].heaps.iter().position(|h| h.name == heap);
        let index = match known {
            Some(index) => index,
            None => {
                let frame = frames.add_frame(u64::MAX, Some(FrameInfo::named(format!("{heap} heap"))));
                self.processes[at].heaps.push(Heap { name: heap, frame, dumps: Vec::new() });
                self.processes[at].heaps.len() - 1
            }
        };
        self.processes[at].heaps[index].dumps.push(HeapDump { time, rows });
    }

    /// The times of every dump.
    pub(super) fn dump_times(&self) -> impl Iterator<Item = u64> + '_ {
        self.processes.iter().flat_map(|p| &p.heaps).flat_map(|h| &h.dumps).map(|d| d.time)
    }

    /// A sink that reads on from this one: nothing yet, the same limits.
    pub(super) fn continuing(&self) -> HeapSink {
        HeapSink {
            stacks: Vec::new(),
            processes: Vec::new(),
            process_of: FxHashMap::default(),
            budget: self.budget,
            refused: None,
            names: self.names.fresh(),
        }
    }

    /// This sink with `later`, fed what came after. Dumps read in both parts are refused:
    /// their stacks are numbered per sink.
    pub(super) fn merge(&mut self, later: HeapSink) -> Result<()> {
        if !self.processes.is_empty() && !later.processes.is_empty() {
            return Err(Error::new(ErrorKind::Unsupported, "heap dumps read in two parts cannot be merged yet"));
        }
        let names = self.names.cut + later.names.cut;
        let refused = self.refused.or(later.refused);
        if self.processes.is_empty() {
            *self = later;
        }
        self.names.cut = names;
        self.refused = refused;
        Ok(())
    }

    /// Marks the frame slots the dumps use.
    pub(super) fn mark_used(&self, used: &mut [bool]) {
        for stack in &self.stacks {
            stack.iter().for_each(|&slot| used[slot as usize] = true);
        }
        for heap in self.processes.iter().flat_map(|p| &p.heaps) {
            if heap.dumps.iter().any(|d| !d.rows.is_empty()) {
                used[heap.frame as usize] = true;
            }
        }
    }

    /// The profile's heap dumps: frames as the profile numbers them, processes named.
    pub(super) fn finish(
        self,
        canonical: &[u32],
        names: &FxHashMap<u32, String>,
        time_unit: TimeUnit,
    ) -> Option<HeapProfiles> {
        if self.processes.is_empty() {
            return None;
        }
        let stacks =
            self.stacks.into_iter().map(|s| s.iter().map(|&slot| canonical[slot as usize]).collect()).collect();
        let mut processes = self.processes;
        for process in &mut processes {
            process.name = names.get(&process.pid).cloned();
            for heap in &mut process.heaps {
                heap.frame = canonical[heap.frame as usize];
                heap.dumps.sort_by_key(|d| d.time);
            }
        }
        processes.sort_by_key(|p| p.pid);
        Some(HeapProfiles { stacks, processes, time_unit })
    }
}
