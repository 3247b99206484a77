//! A heap dump's totals for the summary: strongly reachable objects and bytes, in all and
//! by the heap each lives in; GC roots by kind; what no root reaches.

use crate::profile::{HeapGraph, RootKind};
use serde::Serialize;
use std::collections::BTreeMap;

/// The summary's `heap_dump`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HeapDumpJson {
    /// Strongly reachable objects.
    pub objects: u64,
    /// Their shallow bytes.
    pub bytes: u64,
    /// By heap, in the order the dump names them.
    pub heaps: Vec<HeapTotals>,
    /// The dump's GC root records by kind.
    pub roots: BTreeMap<&'static str, u64>,
    /// Objects that no GC root reaches, and their bytes.
    pub unreachable: Totals,
}

/// Objects and bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Totals {
    /// How many.
    pub objects: u64,
    /// Their shallow bytes.
    pub bytes: u64,
}

/// One heap's strongly reachable objects.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HeapTotals {
    /// `app`, `image`, `zygote`, or `default` where the dump names none.
    pub name: String,
    /// Strongly reachable objects that live in it.
    pub objects: u64,
    /// Their shallow bytes.
    pub bytes: u64,
}

/// The totals of `graph`.
pub fn heap_dump_json(graph: &HeapGraph) -> HeapDumpJson {
    let mut heaps: Vec<HeapTotals> =
        graph.heaps.iter().map(|name| HeapTotals { name: name.clone(), objects: 0, bytes: 0 }).collect();
    let mut unreachable = Totals::default();
    for v in 0..graph.len() {
        let bytes = graph.objects.shallow(v);
        if graph.is_strong(v) {
            let heap = &mut heaps[graph.objects.heap[v] as usize];
            heap.objects += 1;
            heap.bytes += bytes;
        } else if graph.reached.reach[v].is_none() {
            unreachable.objects += 1;
            unreachable.bytes += bytes;
        }
    }
    let mut roots = BTreeMap::new();
    for kind in RootKind::ALL {
        let count = graph.root_records[kind as usize];
        if count > 0 {
            roots.insert(kind.words(), count);
        }
    }
    HeapDumpJson {
        objects: heaps.iter().map(|h| h.objects).sum(),
        bytes: heaps.iter().map(|h| h.bytes).sum(),
        heaps,
        roots,
        unreachable,
    }
}
