//! One object in full: its row, how it is reachable, its shortest path from a GC root,
//! what it references (through which field or index), what references it, and the
//! objects it dominates, the largest first.

use super::lookup::{graph_of, object_numbered};
use super::objects::{row, ObjectRow};
use super::path::{heap_path, via_words, PathStep};
use super::values::{array_preview, fields, string_text, FieldValue};
use crate::error::Result;
use crate::profile::{Profile, Strength};

/// The most objects `heap_object` lists as referrers or as dominated: a class object or a
/// large array can have millions.
pub const MOST_LISTED: usize = 200;

/// An object and its neighbourhood.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectDetails {
    /// The object itself (retained 0 and no dominator where it is not strongly reachable).
    pub object: ObjectRow,
    /// Its immediate dominator, where one object alone keeps it alive.
    pub dominator: Option<ObjectRow>,
    /// `strong`, `soft`, `finalizer`, `weak`, `phantom`, or `unreachable`.
    pub reachability: &'static str,
    /// Its shortest path from a GC root; empty when unreachable.
    pub path: Vec<PathStep>,
    /// What it references, in the dump's order: the field or index, and the object.
    pub references: Vec<(String, ObjectRow)>,
    /// What references it (at most `MOST_LISTED`, in id order), and through what.
    pub referrers: Vec<(ObjectRow, String)>,
    /// How many objects reference it in all.
    pub referrer_count: u64,
    /// The objects it immediately dominates, by retained bytes (at most `MOST_LISTED`).
    pub dominated: Vec<ObjectRow>,
    /// How many it immediately dominates in all.
    pub dominated_count: u64,
    /// An instance's fields with their values, its own class's first.
    pub fields: Vec<FieldValue>,
    /// A string's text (its first characters, `…` where more follow).
    pub text: Option<String>,
    /// A primitive array's first elements.
    pub elements: Option<String>,
}

/// Object `id` of the dump, in full.
pub fn heap_object(profile: &Profile, id: u64) -> Result<ObjectDetails> {
    let graph = graph_of(profile)?;
    let v = object_numbered(graph, id)?;
    let refs = &graph.references;
    let edges = |w: usize| refs.first[w] as usize..refs.first[w + 1] as usize;
    let references =
        edges(v).map(|e| (via_words(graph, refs.via[e].get()), row(graph, refs.target[e] as usize))).collect();
    let mut referrers = Vec::new();
    let mut referrer_count = 0;
    for w in 0..graph.len() {
        for e in edges(w).filter(|&e| refs.target[e] as usize == v) {
            referrer_count += 1;
            if referrers.len() < MOST_LISTED {
                referrers.push((row(graph, w), via_words(graph, refs.via[e].get())));
            }
        }
    }
    let mut dominated: Vec<usize> = (0..graph.len()).filter(|&w| graph.reached.dominator[w] == v as u32).collect();
    let dominated_count = dominated.len() as u64;
    dominated.sort_unstable_by_key(|&w| (std::cmp::Reverse(graph.reached.retained[w]), graph.objects.ids[w]));
    dominated.truncate(MOST_LISTED);
    let reachability = match graph.reached.reach[v] {
        Some(Strength::Strong) => "strong",
        Some(Strength::Soft) => "soft",
        Some(Strength::Finalizer) => "finalizer",
        Some(Strength::Weak) => "weak",
        Some(Strength::Phantom) => "phantom",
        None => "unreachable",
    };
    let path = match graph.reached.reach[v] {
        Some(_) => heap_path(profile, id)?,
        None => Vec::new(),
    };
    let dominator = graph.reached.dominator[v];
    Ok(ObjectDetails {
        dominator: (dominator != crate::profile::NONE).then(|| row(graph, dominator as usize)),
        object: row(graph, v),
        reachability,
        path,
        references,
        referrers,
        referrer_count,
        dominated: dominated.into_iter().map(|w| row(graph, w)).collect(),
        dominated_count,
        fields: fields(graph, v)
            .into_iter()
            .map(|mut f| {
                // Here, not in `fields`: `string_text` reads a string's fields, and a
                // damaged dump's strings may hold strings without end.
                f.text = f.object.and_then(|id| string_text(graph, graph.objects.ids.binary_search(&id).ok()?));
                f
            })
            .collect(),
        text: string_text(graph, v),
        elements: array_preview(graph, v),
    })
}
