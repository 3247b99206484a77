//! Copies: strings of equal text, and primitive arrays of equal contents (a bitmap's
//! pixels held twice), each group with the bytes all but one copy waste. Contents are
//! equal when their class, length, first bytes and a 64-bit hash of all of them are.

use super::lookup::graph_of;
use super::values::{array_preview, string_text};
use crate::error::Result;
use crate::profile::{ContentHash, FieldType, HeapGraph, ObjectKind, Profile, Via};
use rustc_hash::FxHashMap;

/// One group of copies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuplicateRow {
    /// `string` or `array`.
    pub kind: &'static str,
    /// The class of the copies (`java.lang.String`, `byte[]`…).
    pub class: String,
    /// How many copies.
    pub count: u64,
    /// The bytes one copy takes (a string's own and its characters').
    pub bytes: u64,
    /// The bytes all copies but one take: a string's characters count once per array,
    /// however many strings share one.
    pub wasted: u64,
    /// The copy of lowest id.
    pub example: u64,
    /// The text, or the first elements.
    pub preview: String,
}

/// What makes two copies equal: the class, the length, the hash, and the first bytes.
type Key = (u32, u64, u64, Vec<u8>, u8);
/// A key without its bytes (class, length, hash, coder): equal for every copy, and
/// equal for two contents apart about once in 2^64.
type ShortKey = (u32, u64, u64, u8);
/// Strings of one text: the strings, and the arrays that hold it.
type StringCopies = (Vec<usize>, Vec<usize>);

/// Groups of two primitive arrays or more of equal contents (strongly reachable, not a
/// string's, not the runtime's). Every array is keyed in a few bytes (class, size, hash,
/// number), the keys sorted, and only runs of equal keys compared by their first bytes:
/// a dump has hundreds of thousands of arrays, and a key that held its bytes would cost
/// the page as much memory again as the dump's values.
fn array_copies(graph: &HeapGraph, in_strings: &[bool]) -> Vec<Vec<usize>> {
    let storage = runtime_storage(graph);
    let mut keys: Vec<(u32, u64, u64, u32)> = Vec::new();
    for v in (0..graph.len()).filter(|&v| graph.is_strong(v) && !in_strings[v] && !storage[v]) {
        if graph.objects.kind[v] == ObjectKind::PrimitiveArray && graph.objects.shallow(v) > 0 {
            let size = graph.objects.shallow(v);
            if let Some((hash, _)) = graph.values.contents(v, size) {
                keys.push((graph.objects.class[v], size, hash, v as u32));
            }
        }
    }
    keys.sort_unstable();
    let mut groups = Vec::new();
    for run in keys.chunk_by(|a, b| a.0 == b.0 && a.1 == b.1 && a.2 == b.2).filter(|run| run.len() > 1) {
        // Equal hashes: the first bytes tell apart what a collision put together.
        let mut by_prefix: Vec<(Vec<u8>, Vec<usize>)> = Vec::new();
        for &(_, size, _, v) in run {
            let prefix = graph.values.contents(v as usize, size).map(|(_, p)| p.into_owned()).unwrap_or_default();
            match by_prefix.iter_mut().find(|(p, _)| *p == prefix) {
                Some((_, copies)) => copies.push(v as usize),
                None => by_prefix.push((prefix, vec![v as usize])),
            }
        }
        groups.extend(by_prefix.into_iter().map(|(_, copies)| copies).filter(|copies| copies.len() > 1));
    }
    groups
}

/// String `v`'s key (what makes two strings' texts equal) and the array holding its text.
fn string_key(graph: &HeapGraph, v: usize, layout: &StringLayout) -> Option<(Key, usize)> {
    let refs = &graph.references;
    let e = (refs.first[v] as usize..refs.first[v + 1] as usize)
        .find(|&e| refs.via[e].get() == Via::Field(layout.value))?;
    let w = refs.target[e] as usize;
    let values = graph.values.of(v);
    let coder = layout.coder.and_then(|at| values.get(at).copied()).unwrap_or(0);
    let int = |at: Option<usize>| {
        at.and_then(|at| values.get(at..at + 4)).map(|b| u32::from_be_bytes(b.try_into().expect("four bytes")))
    };
    let key = match (int(layout.offset), int(layout.count)) {
        // A string of part of a shared array: known by its characters where they are kept.
        (Some(offset), Some(count)) => {
            let (start, end) = (2 * offset as usize, 2 * (offset as usize + count as usize));
            let size = graph.objects.shallow(w);
            match graph.values.contents(w, size) {
                // The whole array: known as any array is, so that a string of a whole
                // array and one of part of a longer one with equal text are one group.
                Some(_) if start == 0 && end as u64 == size => contents_key(graph, w, coder),
                Some((_, prefix)) if end <= prefix.len() => {
                    let part = &prefix[start..end];
                    let mut hash = ContentHash::default();
                    hash.write(part);
                    Some((graph.objects.class[w], part.len() as u64, hash.finish(), part.to_vec(), coder))
                }
                _ => None,
            }
        }
        _ => contents_key(graph, w, coder),
    }?;
    Some((key, w))
}

/// The arrays ART's dumps give each class object for the storage of its statics (held
/// through `$staticOverhead`, zeroed where the statics are): the runtime's, not copies an
/// app made, and left out.
fn runtime_storage(graph: &HeapGraph) -> Vec<bool> {
    let mut held = vec![false; graph.len()];
    let names: Vec<u32> =
        (0..graph.names.len() as u32).filter(|&n| graph.names[n as usize] == "$staticOverhead").collect();
    if names.is_empty() {
        return held;
    }
    let refs = &graph.references;
    for (e, via) in refs.via.iter().enumerate() {
        if let Via::Field(name) = via.get() {
            if names.contains(&name) {
                held[refs.target[e] as usize] = true;
            }
        }
    }
    held
}

/// Groups of two copies or more among the strongly reachable objects, the most bytes
/// wasted first, then by class and example.
pub fn heap_duplicates(profile: &Profile) -> Result<Vec<DuplicateRow>> {
    let graph = graph_of(profile)?;
    let mut in_strings = vec![false; graph.len()];
    let mut layouts: FxHashMap<u32, Option<StringLayout>> = FxHashMap::default();
    // Every string keyed in a few bytes (its text's class, length, hash and coder, the
    // string and its array), sorted; runs of equal keys are told apart by their first
    // bytes alone, so no key holds its bytes (a dump has hundreds of thousands).
    let mut keys: Vec<(ShortKey, u32, u32)> = Vec::new();
    for v in (0..graph.len()).filter(|&v| graph.is_strong(v) && graph.objects.kind[v] == ObjectKind::Instance) {
        let class = graph.objects.class[v];
        let Some(layout) = *layouts.entry(class).or_insert_with(|| string_layout(graph, v)) else { continue };
        let Some((key, w)) = string_key(graph, v, &layout) else { continue };
        in_strings[w] = true;
        keys.push(((key.0, key.1, key.2, key.4), v as u32, w as u32));
    }
    keys.sort_unstable();
    let mut strings: Vec<StringCopies> = Vec::new();
    for run in keys.chunk_by(|a, b| a.0 == b.0).filter(|run| run.len() > 1) {
        let mut by_prefix: Vec<(Vec<u8>, StringCopies)> = Vec::new();
        for &(_, v, w) in run {
            let (v, w) = (v as usize, w as usize);
            let layout = layouts[&graph.objects.class[v]].expect("a string's layout");
            let prefix = string_key(graph, v, &layout).map(|(key, _)| key.3).unwrap_or_default();
            let group = match by_prefix.iter().position(|(p, _)| *p == prefix) {
                Some(at) => &mut by_prefix[at].1,
                None => {
                    by_prefix.push((prefix, Default::default()));
                    &mut by_prefix.last_mut().expect("a group").1
                }
            };
            group.0.push(v);
            if !group.1.contains(&w) {
                group.1.push(w);
            }
        }
        strings.extend(by_prefix.into_iter().map(|(_, group)| group));
    }
    let arrays = array_copies(graph, &in_strings);
    let mut rows: Vec<DuplicateRow> = strings
        .into_iter()
        .filter(|(copies, _)| copies.len() > 1)
        .map(|(copies, shared)| {
            let (string, array) = (graph.objects.shallow(copies[0]), graph.objects.shallow(shared[0]));
            let first = *copies.iter().min_by_key(|&&v| graph.objects.ids[v]).expect("copies");
            DuplicateRow {
                kind: "string",
                class: graph.object_class(first).into_owned(),
                count: copies.len() as u64,
                bytes: string + array,
                wasted: (copies.len() as u64 - 1) * string + (shared.len() as u64 - 1) * array,
                example: graph.objects.ids[first],
                preview: string_text(graph, first).unwrap_or_default(),
            }
        })
        .collect();
    rows.extend(arrays.into_iter().map(|copies| {
        let first = *copies.iter().min_by_key(|&&v| graph.objects.ids[v]).expect("copies");
        let bytes = graph.objects.shallow(first);
        DuplicateRow {
            kind: "array",
            class: graph.object_class(first).into_owned(),
            count: copies.len() as u64,
            bytes,
            wasted: (copies.len() as u64 - 1) * bytes,
            example: graph.objects.ids[first],
            preview: array_preview(graph, first).unwrap_or_default(),
        }
    }));
    rows.sort_by(|a, b| b.wasted.cmp(&a.wasted).then_with(|| a.class.cmp(&b.class)).then(a.example.cmp(&b.example)));
    Ok(rows)
}

/// Where a string class keeps its characters: its `value` field, and its `coder`'s byte
/// among its values.
#[derive(Debug, Clone, Copy)]
struct StringLayout {
    value: u32,
    coder: Option<usize>,
    /// An older string's `offset` and `count` (`int`s) into an array it may share.
    offset: Option<usize>,
    count: Option<usize>,
}

/// The layout of instance `v`'s class, if it is `java.lang.String`.
fn string_layout(graph: &HeapGraph, v: usize) -> Option<StringLayout> {
    let class = graph.objects.class[v];
    if graph.dump_class_names().get(class as usize).is_none_or(|c| c != "java.lang.String") {
        return None;
    }
    let own = &graph.fields[class as usize];
    let value = own.iter().find(|&&(name, kind)| kind == FieldType::Object && graph.names[name as usize] == "value")?.0;
    let (mut at, mut coder, mut offset, mut count) = (0, None, None, None);
    for &(name, kind) in own {
        match (graph.names[name as usize].as_str(), kind) {
            ("coder", FieldType::Byte) => coder = Some(at),
            ("offset", FieldType::Int) => offset = Some(at),
            ("count", FieldType::Int) => count = Some(at),
            _ => {}
        }
        at += kind.size();
    }
    Some(StringLayout { value, coder, offset: offset.and(count).and(offset), count: offset.and(count) })
}

/// Primitive array `v`'s contents as a key (with a string's coder), where the dump gave
/// them whole.
fn contents_key(graph: &HeapGraph, v: usize, coder: u8) -> Option<Key> {
    if graph.objects.kind[v] != ObjectKind::PrimitiveArray {
        return None;
    }
    let size = graph.objects.shallow(v);
    let (hash, prefix) = graph.values.contents(v, size)?;
    Some((graph.objects.class[v], size, hash, prefix.into_owned(), coder))
}
