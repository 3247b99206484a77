//! Leaks: strongly reachable objects that their app is done with. An object LeakCanary
//! watches (the referent of its `KeyedWeakReference`, any version) that is still held, an
//! activity whose `mDestroyed` is true, a fragment whose `mFragmentManager` is null. Each
//! comes with its shortest path from a GC root; leaks held through the same path (array
//! indices aside) group into one, with a count.

use super::lookup::graph_of;
use super::path::{path_of, via_words};
use crate::error::Result;
use crate::profile::{HeapGraph, ObjectKind, Profile, Via, NONE};
use rustc_hash::FxHashMap;

/// The classes of LeakCanary's watching reference, by version.
const WATCHERS: [&str; 2] = ["leakcanary.KeyedWeakReference", "com.squareup.leakcanary.KeyedWeakReference"];
/// The fragment classes of the platform and its support libraries.
const FRAGMENTS: [&str; 3] =
    ["androidx.fragment.app.Fragment", "android.support.v4.app.Fragment", "android.app.Fragment"];

/// Why an object is a leak.
const WATCHED: u8 = 1;
const DESTROYED_ACTIVITY: u8 = 2;
const DETACHED_FRAGMENT: u8 = 4;

/// One leaking object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leak {
    /// The leaking object's id.
    pub id: u64,
    /// Its class (`java.lang.Class<NAME>` for a class object).
    pub class: String,
    /// The bytes it keeps alive.
    pub retained: u64,
    /// `watched`, `destroyed activity`, `detached fragment`, joined with `, ` where several
    /// hold.
    pub reason: String,
    /// Its shortest path from a GC root: `Class.field > Class.field > …`, each holder's
    /// class (a class's own name for its statics) and the field or `[index]` it holds the
    /// next through.
    pub path: String,
}

/// Leaks held through one path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeakGroup {
    /// How many leaks the path holds.
    pub count: u64,
    /// Its class (`java.lang.Class<NAME>` for a class object).
    pub class: String,
    /// The bytes the group's leaks retain, summed.
    pub retained: u64,
    /// Why its leaks are leaks, as `Leak::reason` says it.
    pub reason: String,
    /// The path, array indices left out (`[]`).
    pub path: String,
}

/// What the leaks list says when it is empty: the kinds of leak looked for, and the kind
/// a dump without field values cannot show.
pub fn no_leaks_words(profile: &Profile) -> Result<&'static str> {
    Ok(match graph_of(profile)?.field_values {
        true => "No leaks: no object LeakCanary watches is still held, no destroyed activity, no detached fragment.",
        false => {
            "No leaks: no object LeakCanary watches is still held, no detached fragment. Destroyed activities cannot \
             be told: the dump records no field values."
        }
    })
}

/// Every leaking object, by retained bytes, largest first, then by id.
pub fn heap_leaks(profile: &Profile) -> Result<Vec<Leak>> {
    let graph = graph_of(profile)?;
    let mut why: FxHashMap<usize, u8> = FxHashMap::default();
    let watchers = classes_below(graph, &WATCHERS);
    let fragments = classes_below(graph, &FRAGMENTS);
    let named = |v: usize, field: &'static str| held_through(graph, v, field);
    for v in 0..graph.len() {
        if graph.objects.kind[v] != ObjectKind::Instance {
            continue;
        }
        let class = graph.objects.class[v] as usize;
        if watchers[class] {
            for referent in named(v, "referent").filter(|&w| graph.is_strong(w)) {
                *why.entry(referent).or_default() |= WATCHED;
            }
        }
        if fragments[class] && graph.is_strong(v) && named(v, "mFragmentManager").next().is_none() {
            *why.entry(v).or_default() |= DETACHED_FRAGMENT;
        }
    }
    for &v in graph.destroyed.iter().filter(|&&v| graph.is_strong(v as usize)) {
        *why.entry(v as usize).or_default() |= DESTROYED_ACTIVITY;
    }
    let mut leaks: Vec<(usize, u8)> = why.into_iter().collect();
    leaks.sort_unstable_by_key(|&(v, _)| (std::cmp::Reverse(graph.reached.retained[v]), graph.objects.ids[v]));
    Ok(leaks
        .into_iter()
        .map(|(v, why)| Leak {
            id: graph.objects.ids[v],
            class: graph.object_class(v).into_owned(),
            retained: graph.reached.retained[v],
            reason: reason_words(why),
            path: path_words(graph, v),
        })
        .collect())
}

/// Leaks grouped by class, reason and path (array indices aside), the group retaining the
/// most first.
pub fn group_leaks(leaks: &[Leak]) -> Vec<LeakGroup> {
    let mut groups: Vec<LeakGroup> = Vec::new();
    let mut index: FxHashMap<(String, String, String), usize> = FxHashMap::default();
    for leak in leaks {
        let path = without_indices(&leak.path);
        let key = (leak.class.clone(), leak.reason.clone(), path.clone());
        let at = *index.entry(key).or_insert_with(|| {
            groups.push(LeakGroup {
                count: 0,
                class: leak.class.clone(),
                retained: 0,
                reason: leak.reason.clone(),
                path,
            });
            groups.len() - 1
        });
        groups[at].count += 1;
        groups[at].retained += leak.retained;
    }
    groups.sort_by(|a, b| b.retained.cmp(&a.retained).then_with(|| a.path.cmp(&b.path)));
    groups
}

/// What object `v` holds through its field `field`.
fn held_through<'a>(graph: &'a HeapGraph, v: usize, field: &'a str) -> impl Iterator<Item = usize> + 'a {
    let refs = &graph.references;
    (refs.first[v] as usize..refs.first[v + 1] as usize)
        .filter(move |&e| matches!(refs.via[e].get(), Via::Field(n) if graph.names[n as usize] == field))
        .map(move |e| refs.target[e] as usize)
}

/// Which classes are `names` or extend one of them, by class number.
fn classes_below(graph: &HeapGraph, names: &[&str]) -> Vec<bool> {
    let n = graph.classes.len();
    let mut below: Vec<Option<bool>> =
        graph.classes.iter().map(|c| names.contains(&c.as_str()).then_some(true)).collect();
    for class in 0..n {
        // Up the chain to a class already decided (or its top), at most once round the
        // classes: a damaged dump's chain may loop.
        let mut chain = Vec::new();
        let mut at = class as u32;
        while at != NONE && below[at as usize].is_none() && chain.len() <= n {
            chain.push(at);
            at = graph.superclass[at as usize];
        }
        let answer = at != NONE && below[at as usize] == Some(true);
        chain.iter().for_each(|&c| below[c as usize] = Some(answer));
    }
    below.into_iter().map(|b| b == Some(true)).collect()
}

fn reason_words(why: u8) -> String {
    let words =
        [(WATCHED, "watched"), (DESTROYED_ACTIVITY, "destroyed activity"), (DETACHED_FRAGMENT, "detached fragment")];
    words.iter().filter(|(bit, _)| why & bit != 0).map(|(_, w)| *w).collect::<Vec<_>>().join(", ")
}

/// `Class.field > Class[3] > …`: each holder on the path and how it holds the next.
fn path_words(graph: &HeapGraph, v: usize) -> String {
    let path = path_of(graph, v);
    let steps: Vec<String> = path
        .windows(2)
        .map(|pair| {
            let holder = pair[0].0;
            let name = match graph.objects.kind[holder] {
                ObjectKind::Class => graph.classes[graph.objects.class[holder] as usize].clone(),
                _ => graph.object_class(holder).into_owned(),
            };
            name + &via_words(graph, pair[1].1.expect("a step after the root has a reference"))
        })
        .collect();
    steps.join(" > ")
}

/// A path with every `[index]` as `[]`.
fn without_indices(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut in_index = false;
    for c in path.chars() {
        match c {
            '[' => {
                in_index = true;
                out.push(c);
            }
            ']' => {
                in_index = false;
                out.push(c);
            }
            c if in_index && c.is_ascii_digit() => {}
            c => out.push(c),
        }
    }
    out
}
