//! What a heap dump holds, as tables: classes by the bytes they retain, objects with their
//! dominators, an object's shortest path from a GC root, the leaks (objects that outlived
//! their use but are still held), and two dumps compared class by class. Every number
//! counts strongly reachable objects alone, as dominators and retained sizes do.

mod classes;
mod diff;
mod duplicates;
mod leaks;
mod lookup;
mod object;
mod objects;
mod path;
mod series;
mod totals;
mod values;
mod write;

pub use classes::ClassRow;
pub use diff::{heap_diff, ClassChange};
pub use duplicates::{heap_duplicates, DuplicateRow};
pub use leaks::{group_leaks, heap_leaks, no_leaks_words, Leak, LeakGroup};
pub use lookup::object_id;
pub use object::{heap_object, ObjectDetails};
pub use objects::{heap_objects, ObjectQuery, ObjectRow};
pub use path::{heap_path, PathStep};
pub use series::{heap_series, HeapSeries, SeriesGrowth, SeriesRow, FEWEST_DUMPS};
pub use totals::{heap_dump_json, HeapDumpJson, HeapTotals};
pub use values::FieldValue;
pub use write::{
    write_class_changes, write_classes, write_duplicates, write_leak_groups, write_leaks, write_objects, write_path,
    write_series,
};

use crate::error::Result;
use crate::profile::Profile;
use lookup::{graph_of, heap_named};

/// Classes with a strongly reachable instance (in the heap named `heap`, where one is
/// given), by retained bytes, largest first, then by name.
pub fn heap_classes(profile: &Profile, heap: Option<&str>) -> Result<Vec<ClassRow>> {
    let graph = graph_of(profile)?;
    let heap = heap.map(|name| heap_named(graph, name)).transpose()?;
    Ok(classes::class_rows(graph, heap, false))
}

/// Packages, as `heap_classes` gives classes: each package's strongly reachable objects,
/// their bytes, and what they retain together.
pub fn heap_packages(profile: &Profile, heap: Option<&str>) -> Result<Vec<ClassRow>> {
    let graph = graph_of(profile)?;
    let heap = heap.map(|name| heap_named(graph, name)).transpose()?;
    Ok(classes::class_rows(graph, heap, true))
}
