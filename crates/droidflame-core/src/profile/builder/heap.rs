//! Heap dumps as decoders hand them over: stacks of frame slots, and each process's
//! heaps with their dumps, made into the profile's `HeapProfiles` when it is finished.

use crate::profile::clock::TimeUnit;
use crate::profile::heap::{HeapProcess, HeapProfiles};
use rustc_hash::FxHashMap;

#[derive(Debug, Default)]
pub(super) struct HeapBuilder {
    /// Stacks of frame slots, outermost first.
    pub stacks: Vec<Box<[u32]>>,
    pub processes: Vec<HeapProcess>,
    pub process_of: FxHashMap<u32, usize>,
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
