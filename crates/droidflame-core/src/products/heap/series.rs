//! A series of dumps, taken after each repetition of one scenario: the classes, and the
//! paths from the GC roots (as the `heap-paths` stacks fold them: heap, then the classes
//! down the shortest path), whose count of strongly reachable objects grows at every step
//! — what a leak looks like — with how much each step adds.

use super::classes::class_rows;
use super::lookup::graph_of;
use crate::error::{Error, ErrorKind, Result};
use crate::profile::{graph_stacks, CallTree, Profile, SourceKind, NONE};
use rustc_hash::FxHashMap;

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
    /// The dumps in the order the rows count them, by their place as given: the order
    /// given, unless every dump records when it was taken and they were given in another.
    pub order: Vec<usize>,
}

/// The classes and paths of `dumps` (in the order taken) whose count of strongly
/// reachable objects grows from each dump to the next.
pub fn heap_series(dumps: &[&Profile]) -> Result<SeriesGrowth> {
    let mut series = HeapSeries::default();
    for dump in dumps {
        series.add(dump)?;
    }
    series.growth()
}

/// A series being read: each dump is reduced, as it is added, to its classes' and paths'
/// counts, so that it can be let go before the next is read. Paths are kept as a tree
/// shared by every dump (a path is its parent's and one more class), not as text.
#[derive(Debug, Default)]
pub struct HeapSeries {
    dumps: usize,
    /// Classes by name: each one's count and retained bytes in each dump (0 where absent).
    classes: FxHashMap<String, (Vec<u64>, Vec<u64>)>,
    /// Class (and heap) names in paths, by number.
    names: Vec<String>,
    name_numbers: FxHashMap<String, u32>,
    /// Each path: the path it extends (`NONE` for a heap's own) and its last name.
    paths: Vec<(u32, u32)>,
    path_numbers: FxHashMap<(u32, u32), u32>,
    /// Each dump's objects and bytes per path, by path number (0 past the end).
    path_counts: Vec<Vec<(u64, u64)>>,
    /// When each dump was taken (ms since 1970), where it says.
    taken: Vec<Option<u64>>,
}

impl HeapSeries {
    /// The next dump of the series (taken after the ones before).
    pub fn add(&mut self, dump: &Profile) -> Result<()> {
        let graph = graph_of(dump)?;
        self.taken.push(dump.facts.format.number("dumped_at_ms").filter(|&ms| ms > 0));
        let at = self.dumps;
        self.dumps += 1;
        for r in class_rows(graph, None, false) {
            let entry = self.classes.entry(r.name).or_default();
            entry.0.resize(at, 0);
            entry.1.resize(at, 0);
            entry.0.push(r.count);
            entry.1.push(r.retained);
        }
        let mut counts: Vec<(u64, u64)> = Vec::new();
        let stacks = graph_stacks(graph, SourceKind::HeapPaths);
        for thread in &stacks.threads {
            let tree = &thread.tree;
            // Each node's path, made from its parent's (a parent comes first).
            let mut numbers: Vec<u32> = Vec::with_capacity(tree.len());
            for (index, node) in tree.nodes().iter().enumerate() {
                let (parent, name) = match index as u32 {
                    CallTree::ROOT => (NONE, self.name(&thread.name)),
                    _ => (numbers[node.parent as usize], self.name(dump.frame_name(node.frame))),
                };
                let next = self.paths.len() as u32;
                let path = *self.path_numbers.entry((parent, name)).or_insert(next);
                if path == next {
                    self.paths.push((parent, name));
                }
                if index as u32 != CallTree::ROOT && node.calls > 0 {
                    if counts.len() <= path as usize {
                        counts.resize(path as usize + 1, (0, 0));
                    }
                    counts[path as usize].0 += node.calls;
                    counts[path as usize].1 += node.self_time.wall;
                }
                numbers.push(path);
            }
        }
        self.path_counts.push(counts);
        Ok(())
    }

    fn name(&mut self, text: &str) -> u32 {
        if let Some(&number) = self.name_numbers.get(text) {
            return number;
        }
        self.names.push(text.to_owned());
        let number = self.names.len() as u32 - 1;
        self.name_numbers.insert(text.to_owned(), number);
        number
    }

    /// What grows at every step of the dumps added.
    pub fn growth(&self) -> Result<SeriesGrowth> {
        if self.dumps < FEWEST_DUMPS {
            return Err(Error::new(
                ErrorKind::Request,
                format!(
                    "a series needs {FEWEST_DUMPS} dumps or more (taken after each repetition of a scenario); \
                     {} given: compare two dumps with heap diff",
                    self.dumps
                ),
            ));
        }
        let n = self.dumps;
        let order = self.order();
        let grows = |counts: &[u64]| counts.windows(2).all(|w| w[1] > w[0]);
        let mut classes: Vec<SeriesRow> = Vec::new();
        for (name, (counts, bytes)) in &self.classes {
            let at = |values: &[u64], d: usize| values.get(d).copied().unwrap_or(0);
            let counts: Vec<u64> = order.iter().map(|&d| at(counts, d)).collect();
            if grows(&counts) {
                let bytes = order.iter().map(|&d| at(bytes, d)).collect();
                classes.push(SeriesRow { name: name.clone(), counts, bytes });
            }
        }
        debug_assert_eq!(order.len(), n);
        let mut paths: Vec<SeriesRow> = Vec::new();
        for path in 0..self.paths.len() {
            let of = |d: usize| self.path_counts[d].get(path).copied().unwrap_or_default();
            let counts: Vec<u64> = order.iter().map(|&d| of(d).0).collect();
            if grows(&counts) {
                let bytes = order.iter().map(|&d| of(d).1).collect();
                paths.push(SeriesRow { name: self.path_name(path as u32), counts, bytes });
            }
        }
        for rows in [&mut classes, &mut paths] {
            rows.sort_by(|a, b| b.bytes_per_step().total_cmp(&a.bytes_per_step()).then_with(|| a.name.cmp(&b.name)));
        }
        Ok(SeriesGrowth { classes, paths, order })
    }

    /// The dumps in the order they were taken: as given, unless every one records its time
    /// (then by it; dumps of one time keep the order given).
    fn order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.dumps).collect();
        if self.taken.iter().all(Option::is_some) {
            order.sort_by_key(|&d| self.taken[d]);
        }
        order
    }

    /// A path's names, its heap first, joined by `;`.
    fn path_name(&self, mut path: u32) -> String {
        let mut names = Vec::new();
        while path != NONE {
            let (parent, name) = self.paths[path as usize];
            names.push(self.names[name as usize].as_str());
            path = parent;
        }
        names.reverse();
        names.join(";")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_step_adds_the_change_over_the_steps() {
        let row = SeriesRow { name: "A".into(), counts: vec![2, 5, 11], bytes: vec![10, 40, 100] };
        assert_eq!((row.objects_per_step(), row.bytes_per_step()), (4.5, 45.0));
        let one = SeriesRow { name: "A".into(), counts: vec![7], bytes: vec![70] };
        assert_eq!((one.objects_per_step(), one.bytes_per_step()), (0.0, 0.0), "one dump has no step");
    }
}
