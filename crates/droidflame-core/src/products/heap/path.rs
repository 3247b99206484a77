//! An object's shortest path from a GC root: the chain of references, root first, that
//! the breadth-first search from the roots met it through.

use super::lookup::{graph_of, object_id, object_numbered};
use crate::error::{Error, ErrorKind, Result};
use crate::profile::{HeapGraph, Profile, RootKind, Via, NONE};

/// One object on a path, and how the one before it holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathStep {
    /// The object's id.
    pub id: u64,
    /// Its class (`java.lang.Class<NAME>` for a class object).
    pub class: String,
    /// `root:` and the root's kinds on the first step (`root:jni-global`), then the field
    /// (`.mHost`) or array index (`[3]`) through which the step before holds this one.
    pub via: String,
}

/// The shortest path from a GC root to object `id`: strong references alone where it is
/// strongly reachable; otherwise the path that holds it best, its weaker link included.
pub fn heap_path(profile: &Profile, id: u64) -> Result<Vec<PathStep>> {
    let graph = graph_of(profile)?;
    let v = object_numbered(graph, id)?;
    if graph.reached.reach[v].is_none() {
        return Err(Error::new(
            ErrorKind::Request,
            format!("no GC root reaches object {}: it is garbage the dump still held", object_id(id)),
        ));
    }
    Ok(path_of(graph, v)
        .into_iter()
        .map(|(w, via)| PathStep {
            id: graph.objects.ids[w],
            class: graph.object_class(w).into_owned(),
            via: match via {
                None => format!("root:{}", root_words(graph, w)),
                Some(via) => via_words(graph, via),
            },
        })
        .collect())
}

/// Object `v`'s path, root first: each object and how the one before holds it (`None`
/// for the root).
pub(super) fn path_of(graph: &HeapGraph, v: usize) -> Vec<(usize, Option<Via>)> {
    let mut path = Vec::new();
    let mut at = v as u32;
    while at != NONE {
        let (parent, via) = graph.reached.path_parent[at as usize];
        path.push((at as usize, (parent != NONE).then_some(via.get())));
        at = parent;
    }
    path.reverse();
    path
}

/// A reference in words: `.field` or `[index]`.
pub(super) fn via_words(graph: &HeapGraph, via: Via) -> String {
    match via {
        Via::Field(name) => format!(".{}", graph.names[name as usize]),
        Via::Element(index) => format!("[{index}]"),
    }
}

/// A root object's kinds of GC root, joined with `,`.
fn root_words(graph: &HeapGraph, v: usize) -> String {
    let bits = graph.roots.binary_search_by_key(&(v as u32), |&(object, _)| object).map_or(0, |at| graph.roots[at].1);
    let kinds: Vec<&str> = RootKind::ALL.iter().filter(|k| bits & k.bit() != 0).map(|k| k.words()).collect();
    kinds.join(",")
}
