//! What a heap dump holds, as tables: classes by the bytes they retain, objects with their
//! dominators, an object's shortest path from a GC root, the leaks (objects that outlived
//! their use but are still held), and two dumps compared class by class. Every number
//! counts strongly reachable objects alone, as dominators and retained sizes do.

mod classes;
mod diff;
mod leaks;
mod objects;
mod path;
mod totals;
mod write;

pub use classes::ClassRow;
pub use diff::{heap_diff, ClassChange};
pub use leaks::{group_leaks, heap_leaks, Leak, LeakGroup};
pub use objects::{heap_objects, ObjectQuery, ObjectRow};
pub use path::{heap_path, PathStep};
pub use totals::{heap_dump_json, HeapDumpJson, HeapTotals};
pub use write::{write_class_changes, write_classes, write_leak_groups, write_leaks, write_objects, write_path};

use crate::error::{Error, ErrorKind, Result};
use crate::profile::{HeapGraph, Profile};

/// The heap graph of `profile`, or why there is none.
pub(crate) fn graph_of(profile: &Profile) -> Result<&HeapGraph> {
    profile.heap_graph.as_ref().ok_or_else(|| {
        Error::new(
            ErrorKind::Request,
            format!(
                "this is no heap dump ({}); heap tables read HPROF files (`.hprof`)",
                profile.facts.format.description
            ),
        )
    })
}

/// Classes with a strongly reachable instance (in the heap named `heap`, where one is
/// given), by retained bytes, largest first, then by name.
pub fn heap_classes(profile: &Profile, heap: Option<&str>) -> Result<Vec<ClassRow>> {
    let graph = graph_of(profile)?;
    let heap = match heap {
        None => None,
        Some(name) => Some(heap_named(graph, name)?),
    };
    Ok(classes::class_rows(graph, heap))
}

/// The number of the heap called `name`, or an error that lists the heaps there are.
fn heap_named(graph: &HeapGraph, name: &str) -> Result<u8> {
    match graph.heaps.iter().position(|h| h == name) {
        Some(at) => Ok(at as u8),
        None => Err(Error::new(
            ErrorKind::Request,
            format!("this dump has no heap called {name}; its heaps are {}", graph.heaps.join(", ")),
        )),
    }
}

/// An object id as the dump writes it: `0x` and lowercase hex.
pub fn object_id(id: u64) -> String {
    format!("{id:#x}")
}

/// The object of id `id` (`0x…` hex, or decimal), or why there is none.
pub(crate) fn object_numbered(graph: &HeapGraph, id: u64) -> Result<usize> {
    graph
        .objects
        .ids
        .binary_search(&id)
        .map_err(|_| Error::new(ErrorKind::Request, format!("this dump holds no object {}", object_id(id))))
}
