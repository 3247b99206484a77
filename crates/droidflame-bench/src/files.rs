//! The traces the benchmarks read, generated where they are missing.

use droidflame_testkit::adversarial::{write_adversarial, Adversary};
use droidflame_testkit::large::{write_large, write_mapping, LargeLayout, Shape};
use droidflame_testkit::large_heap::write_large_heap;
use std::path::Path;

/// An R8 mapping of `bytes` for the app-start program (`generate mapping MB FILE`).
pub(crate) fn write_mapping_file(path: &Path, bytes: u64) -> Result<(), String> {
    let file = std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
    write_mapping(&mut out, &Shape::app_start(0), bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(())
}

/// A 4-level call tree as wide as it can be while holding at most `stacks` unique stacks.
pub(crate) fn fresh_stacks(stacks: u64) -> Adversary {
    let tree = |fanout| Adversary::FreshStacks { fanout, depth: 4 };
    let mut fanout = 2;
    while tree(fanout + 1).unique_stacks() <= stacks {
        fanout += 1;
    }
    tree(fanout)
}

pub(crate) fn write_adversary(path: &Path, adversary: Adversary) -> Result<u64, String> {
    let file = std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
    write_adversarial(&mut out, adversary).map_err(|e| format!("{}: {e}", path.display()))
}

pub(crate) fn write_file(path: &Path, layout: LargeLayout, records: u64) -> Result<u64, String> {
    write_shape(path, layout, &Shape::app_start(records))
}

pub(crate) fn write_shape(path: &Path, layout: LargeLayout, shape: &Shape) -> Result<u64, String> {
    let file = std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
    write_large(&mut out, shape, layout).map_err(|e| format!("{}: {e}", path.display()))
}

/// A heap dump of about `objects` objects (`generate heap OBJECTS FILE`).
pub(crate) fn write_heap_file(path: &Path, objects: u64) -> Result<u64, String> {
    let file = std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
    write_large_heap(&mut out, objects, 47).map_err(|e| format!("{}: {e}", path.display()))
}
