//! The objects that retain the most: each with its class, heap, shallow and retained bytes
//! and its immediate dominator.

use super::lookup::{graph_of, heap_named};
use crate::error::{Error, ErrorKind, Result};
use crate::profile::{HeapGraph, ObjectKind, Profile, NONE};

/// Which objects `heap_objects` lists.
#[derive(Debug, Clone, Default)]
pub struct ObjectQuery {
    /// At most this many, the largest; `None`: every one.
    pub top: Option<usize>,
    /// Only objects of this class (`java.lang.Class` for class objects, or one class
    /// object by its name, `java.lang.Class<NAME>`).
    pub class: Option<String>,
    /// Only objects in the heap of this name.
    pub heap: Option<String>,
}

/// One object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectRow {
    /// The object's id.
    pub id: u64,
    /// Its class (`java.lang.Class<NAME>` for a class object).
    pub class: String,
    /// The heap it lives in.
    pub heap: String,
    /// Its own bytes.
    pub shallow: u64,
    /// The bytes it keeps alive: itself and what it dominates.
    pub retained: u64,
    /// Its immediate dominator's id; `None`: the super-root alone dominates it.
    pub dominator: Option<u64>,
}

/// Strongly reachable objects, by retained bytes, largest first, then by id.
pub fn heap_objects(profile: &Profile, query: &ObjectQuery) -> Result<Vec<ObjectRow>> {
    let graph = graph_of(profile)?;
    let heap = query.heap.as_deref().map(|name| heap_named(graph, name)).transpose()?;
    let mut picked: Vec<usize> = (0..graph.len())
        .filter(|&v| graph.is_strong(v))
        .filter(|&v| heap.is_none_or(|h| graph.objects.heap[v] == h))
        .filter(|&v| query.class.as_deref().is_none_or(|class| is_of(graph, v, class)))
        .collect();
    if picked.is_empty() {
        if let Some(class) = &query.class {
            return Err(Error::new(
                ErrorKind::Request,
                format!("no strongly reachable object is of class {class} (names are as `heap classes` lists them)"),
            ));
        }
    }
    let by_size = |&v: &usize| (std::cmp::Reverse(graph.reached.retained[v]), graph.objects.ids[v]);
    match query.top {
        Some(top) if top < picked.len() => {
            picked.select_nth_unstable_by_key(top, by_size);
            picked.truncate(top);
        }
        _ => {}
    }
    picked.sort_unstable_by_key(by_size);
    Ok(picked.into_iter().map(|v| row(graph, v)).collect())
}

/// Whether object `v` is of class `class`: by its class's name, its name as an object
/// (`java.lang.Class<NAME>`), or `java.lang.Class` for any class object.
fn is_of(graph: &HeapGraph, v: usize, class: &str) -> bool {
    match graph.objects.kind[v] {
        ObjectKind::Class => class == "java.lang.Class" || graph.object_class(v) == class,
        _ => graph.classes[graph.objects.class[v] as usize] == class,
    }
}

pub(super) fn row(graph: &HeapGraph, v: usize) -> ObjectRow {
    let dominator = graph.reached.dominator[v];
    ObjectRow {
        id: graph.objects.ids[v],
        class: graph.object_class(v).into_owned(),
        heap: graph.heaps[graph.objects.heap[v] as usize].clone(),
        shallow: graph.objects.shallow(v),
        retained: graph.reached.retained[v],
        dominator: (dominator != NONE).then(|| graph.objects.ids[dominator as usize]),
    }
}
