//! Two dumps compared class by class: each class's count, shallow and retained bytes
//! before and after, the largest change of retained bytes first.

use super::classes::{class_rows, ClassRow};
use super::lookup::graph_of;
use crate::error::Result;
use crate::profile::Profile;
use std::collections::BTreeMap;

/// A class in two dumps (0 where a dump has no reachable instance of it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassChange {
    /// The class's name.
    pub class: String,
    /// Count, shallow and retained bytes in the first dump.
    pub before: (u64, u64, u64),
    /// Count, shallow and retained bytes in the second dump.
    pub after: (u64, u64, u64),
}

impl ClassChange {
    /// Retained bytes after less before.
    pub fn retained_change(&self) -> i128 {
        i128::from(self.after.2) - i128::from(self.before.2)
    }
}

/// Every class in either dump, by the size of its change of retained bytes, largest
/// first, then by name.
pub fn heap_diff(before: &Profile, after: &Profile) -> Result<Vec<ClassChange>> {
    let (b, a) = (class_rows(graph_of(before)?, None, false), class_rows(graph_of(after)?, None, false));
    let mut classes: BTreeMap<String, ClassChange> = BTreeMap::new();
    let mut put = |rows: Vec<ClassRow>, after: bool| {
        for row in rows {
            let change = classes.entry(row.name.clone()).or_insert_with(|| ClassChange {
                class: row.name.clone(),
                before: (0, 0, 0),
                after: (0, 0, 0),
            });
            let side = if after { &mut change.after } else { &mut change.before };
            *side = (row.count, row.shallow, row.retained);
        }
    };
    put(b, false);
    put(a, true);
    let mut changes: Vec<ClassChange> = classes.into_values().collect();
    // Stable: equal changes stay in name order.
    changes.sort_by_key(|c| std::cmp::Reverse(c.retained_change().unsigned_abs()));
    Ok(changes)
}
