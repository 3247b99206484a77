//! The builder's heap-dump calls: a decoder hands over callstacks, then each heap's dump
//! as rows of those stacks.

use super::{FrameInfo, Limit, ProfileBuilder};
use crate::profile::heap::{Heap, HeapDump, HeapProcess, HeapRow};

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
