//! What a heap dump holds, as tables: classes by the bytes they retain, objects with their
//! dominators, an object's shortest path from a GC root, the leaks (objects that outlived
//! their use but are still held), and two dumps compared class by class. Every number
//! counts strongly reachable objects alone, as dominators and retained sizes do.

mod classes;
mod diff;
mod leaks;
mod lookup;
mod objects;
mod path;
mod totals;
mod write;

pub use classes::ClassRow;
pub use diff::{heap_diff, ClassChange};
pub use leaks::{group_leaks, heap_leaks, Leak, LeakGroup};
pub use lookup::object_id;
pub use objects::{heap_objects, ObjectQuery, ObjectRow};
pub use path::{heap_path, PathStep};
pub use totals::{heap_dump_json, HeapDumpJson, HeapTotals};
pub use write::{write_class_changes, write_classes, write_leak_groups, write_leaks, write_objects, write_path};

use crate::error::Result;
use crate::profile::Profile;
use lookup::{graph_of, heap_named};

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
