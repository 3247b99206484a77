//! Finding a dump's parts by what users name them: the heap graph of a profile, a heap by
//! name, an object by id.

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

/// The number of the heap called `name`, or an error that lists the heaps there are.
pub(crate) fn heap_named(graph: &HeapGraph, name: &str) -> Result<u8> {
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
