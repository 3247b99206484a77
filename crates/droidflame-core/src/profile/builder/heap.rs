//! Heap dumps as decoders hand them over: stacks of frame slots, and each process's
//! heaps with their dumps, made into the profile's `HeapProfiles` when it is finished.

use super::{FrameInfo, Limit, ProfileBuilder};
use crate::profile::clock::TimeUnit;
use crate::profile::heap::{Heap, HeapDump, HeapProcess, HeapProfiles, HeapRow};
use rustc_hash::FxHashMap;

#[derive(Debug, Default)]
pub(super) struct HeapBuilder {
    /// Stacks of frame slots, outermost first.
    pub stacks: Vec<Box<[u32]>>,
    pub processes: Vec<HeapProcess>,
    process_of: FxHashMap<u32, usize>,
}

impl ProfileBuilder {
    /// A callstack of heap dumps (frame slots, outermost first); its index for
    /// [`HeapRow::stack`]. Its frames count against the call-stack limit.
    pub fn heap_stack(&mut self, frames: &[u32]) -> u32 {
        let cost = frames.len().max(1) as u64;
        if self.budget.left < cost {
            self.budget.exhausted = true;
            self.refuse(Limit::CallStacks);
            return 0;
        }
        self.budget.left -= cost;
        self.heap.stacks.push(frames.into());
        (self.heap.stacks.len() - 1) as u32
    }

    /// One dump of heap `heap` of process `pid`, taken at `time` (ticks): each callstack's
    /// totals since the profile began. Dumps of one heap come in time order.
    pub fn heap_dump(&mut self, pid: u32, heap: &str, time: u64, rows: Vec<HeapRow>) {
        let heap = self.clip_name(heap.to_owned());
        let at = match self.heap.process_of.get(&pid) {
            Some(&at) => at,
            None => {
                self.heap.processes.push(HeapProcess { pid, name: None, heaps: Vec::new() });
                self.heap.process_of.insert(pid, self.heap.processes.len() - 1);
                self.heap.processes.len() - 1
            }
        };
        let known = self.heap.processes[at].heaps.iter().position(|h| h.name == heap);
        let index = match known {
            Some(index) => index,
            None => {
                let frame = self.add_frame(u64::MAX, Some(FrameInfo::named(format!("{heap} heap"))));
                self.heap.processes[at].heaps.push(Heap { name: heap, frame, dumps: Vec::new() });
                self.heap.processes[at].heaps.len() - 1
            }
        };
        self.heap.processes[at].heaps[index].dumps.push(HeapDump { time, rows });
    }
}

impl HeapBuilder {
    /// Marks the frame slots the dumps use.
    pub fn mark_used(&self, used: &mut [bool]) {
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
    pub fn finish(
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
