//! A series of dumps, taken after each repetition of one scenario: the classes, and the
//! paths from the GC roots (as the `heap-paths` stacks fold them: heap, then the classes
//! down the shortest path), whose count of strongly reachable objects grows at every step
//! — what a leak looks like — with how much each step adds.

use super::classes::class_rows;
use super::lookup::graph_of;
use crate::error::{Error, ErrorKind, Result};
use crate::profile::{graph_stacks, CallTree, Profile, SourceKind};
use std::collections::BTreeMap;

/// The fewest dumps a series has: with two, every change is a trend.
pub const FEWEST_DUMPS: usize = 3;

/// A class, or a path, across the dumps of a series.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeriesRow {
    /// The class's name, or the path's classes joined by `;` (its heap first).
    pub name: String,
    /// Its strongly reachable objects in each dump, in order.
    pub counts: Vec<u64>,
    /// The bytes they retain (a class) or take (a path's objects), in each dump.
    pub bytes: Vec<u64>,
}

impl SeriesRow {
    /// Objects each step adds, on average.
    pub fn objects_per_step(&self) -> f64 {
        per_step(&self.counts)
    }

    /// Bytes each step adds, on average.
    pub fn bytes_per_step(&self) -> f64 {
        per_step(&self.bytes)
    }
}

fn per_step(values: &[u64]) -> f64 {
    match (values.first(), values.last()) {
        (Some(&first), Some(&last)) if values.len() > 1 => (last as f64 - first as f64) / (values.len() - 1) as f64,
        _ => 0.0,
    }
}

/// What grows at every step of a series.
#[derive(Debug, Clone, PartialEq)]
pub struct SeriesGrowth {
    /// Classes whose count grows at every step, the most bytes added per step first.
    pub classes: Vec<SeriesRow>,
    /// Paths whose count grows at every step, the most bytes added per step first.
    pub paths: Vec<SeriesRow>,
}

/// The classes and paths of `dumps` (in the order taken) whose count of strongly
/// reachable objects grows from each dump to the next.
pub fn heap_series(dumps: &[&Profile]) -> Result<SeriesGrowth> {
    if dumps.len() < FEWEST_DUMPS {
        return Err(Error::new(
            ErrorKind::Request,
            format!(
                "a series needs {FEWEST_DUMPS} dumps or more (taken after each repetition of a scenario); \
                 {} given: compare two dumps with heap diff",
                dumps.len()
            ),
        ));
    }
    let graphs = dumps.iter().map(|p| graph_of(p)).collect::<Result<Vec<_>>>()?;
    let mut classes: BTreeMap<String, SeriesRow> = BTreeMap::new();
    let mut paths: BTreeMap<String, SeriesRow> = BTreeMap::new();
    let n = graphs.len();
    let row = |name: &str| SeriesRow { name: name.to_owned(), counts: vec![0; n], bytes: vec![0; n] };
    for (at, graph) in graphs.iter().enumerate() {
        for r in class_rows(graph, None, false) {
            let entry = classes.entry(r.name.clone()).or_insert_with(|| row(&r.name));
            (entry.counts[at], entry.bytes[at]) = (r.count, r.retained);
        }
        let stacks = graph_stacks(graph, SourceKind::HeapPaths);
        for thread in &stacks.threads {
            let tree = &thread.tree;
            // Each node's path, made from its parent's (a parent comes first).
            let mut names: Vec<String> = Vec::with_capacity(tree.len());
            for (index, node) in tree.nodes().iter().enumerate() {
                let name = match index as u32 {
                    CallTree::ROOT => thread.name.clone(),
                    _ => format!("{};{}", names[node.parent as usize], dumps[at].frame_name(node.frame)),
                };
                if index as u32 != CallTree::ROOT && node.calls > 0 {
                    let entry = paths.entry(name.clone()).or_insert_with(|| row(&name));
                    entry.counts[at] += node.calls;
                    entry.bytes[at] += node.self_time.wall;
                }
                names.push(name);
            }
        }
    }
    let growing = |rows: BTreeMap<String, SeriesRow>| {
        let mut rows: Vec<SeriesRow> =
            rows.into_values().filter(|r| r.counts.windows(2).all(|w| w[1] > w[0])).collect();
        rows.sort_by(|a, b| b.bytes_per_step().total_cmp(&a.bytes_per_step()).then_with(|| a.name.cmp(&b.name)));
        rows
    };
    Ok(SeriesGrowth { classes: growing(classes), paths: growing(paths) })
}
