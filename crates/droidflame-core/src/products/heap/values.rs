//! What an object holds, in words: an instance's fields with their values, a string's
//! text, a primitive array's first elements. Values come from what the graph kept of
//! each object (`heap_values`); what the dump did not give whole is said to be cut.

use crate::profile::{FieldType, HeapGraph, ObjectKind, Via};

/// One field of an instance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldValue {
    /// The field's name.
    pub name: String,
    /// Its declared type (`int`, `Object`…).
    pub kind: &'static str,
    /// A primitive's value as Java prints it; `null` for a reference to nothing; the
    /// object's id for a reference (`0x…`); `?` where the dump cut the value off.
    pub value: String,
    /// The object a reference field holds.
    pub object: Option<u64>,
    /// That object's class.
    pub class: Option<String>,
    /// That object's text, where it is a string (`heap_object` fills it in).
    pub text: Option<String>,
}

/// The fields of instance `v`: its own class's first, then each superclass's, as the
/// dump lays them out.
pub(super) fn fields(graph: &HeapGraph, v: usize) -> Vec<FieldValue> {
    if graph.objects.kind[v] != ObjectKind::Instance {
        return Vec::new();
    }
    let values = graph.values.of(v);
    let refs = &graph.references;
    let held = |name: u32| {
        (refs.first[v] as usize..refs.first[v + 1] as usize)
            .find(|&e| refs.via[e].get() == Via::Field(name))
            .map(|e| refs.target[e] as usize)
    };
    let mut out = Vec::new();
    let mut at = 0;
    for class in class_chain(graph, graph.objects.class[v]) {
        for &(name, kind) in &graph.fields[class as usize] {
            let (value, object) = match kind {
                FieldType::Object => match held(name) {
                    Some(w) => (super::lookup::object_id(graph.objects.ids[w]), Some(w)),
                    None => ("null".to_owned(), None),
                },
                _ => {
                    let bytes = values.get(at..at + kind.size());
                    at += kind.size();
                    (bytes.map_or_else(|| "?".to_owned(), |b| kind.show(b)), None)
                }
            };
            out.push(FieldValue {
                name: graph.names[name as usize].clone(),
                kind: kind.words(),
                value,
                object: object.map(|w| graph.objects.ids[w]),
                class: object.map(|w| graph.object_class(w).into_owned()),
                text: None,
            });
        }
    }
    out
}

/// A class and its superclasses, itself first (a loop, in a damaged dump, is cut).
fn class_chain(graph: &HeapGraph, class: u32) -> impl Iterator<Item = u32> + '_ {
    let mut at = class;
    let mut left = graph.classes.len();
    std::iter::from_fn(move || {
        (at != crate::profile::NONE && left > 0).then(|| {
            left -= 1;
            let this = at;
            at = graph.superclass.get(at as usize).copied().unwrap_or(crate::profile::NONE);
            this
        })
    })
}

/// The element type of primitive array `v`, by its class's name.
pub(super) fn element_type(graph: &HeapGraph, v: usize) -> Option<FieldType> {
    let name = graph.dump_class_names().get(graph.objects.class[v] as usize)?;
    Some(match name.as_str() {
        "boolean[]" => FieldType::Boolean,
        "char[]" => FieldType::Char,
        "float[]" => FieldType::Float,
        "double[]" => FieldType::Double,
        "byte[]" => FieldType::Byte,
        "short[]" => FieldType::Short,
        "int[]" => FieldType::Int,
        "long[]" => FieldType::Long,
        _ => return None,
    })
}

/// The most elements an array's preview shows.
const PREVIEW_ELEMENTS: usize = 16;

/// Primitive array `v`'s first elements, as `[1, 2, 3, …]` (`…` where more follow), or
/// `None` where the dump did not give its contents.
pub(super) fn array_preview(graph: &HeapGraph, v: usize) -> Option<String> {
    let kind = element_type(graph, v)?;
    let size = graph.objects.shallow(v);
    let (_, prefix) = graph.values.contents(v, size)?;
    let shown: Vec<String> = prefix.chunks_exact(kind.size()).take(PREVIEW_ELEMENTS).map(|b| kind.show(b)).collect();
    let more = size > (shown.len() * kind.size()) as u64;
    Some(format!("[{}{}]", shown.join(", "), if more { ", …" } else { "" }))
}

/// The text of `java.lang.String` instance `v` (its first characters, with `…` where
/// more follow); `None` for another object, or a string whose characters the dump did not
/// give.
pub(super) fn string_text(graph: &HeapGraph, v: usize) -> Option<String> {
    let class = graph.dump_class_names().get(graph.objects.class[v] as usize)?;
    if class != "java.lang.String" || graph.objects.kind[v] != ObjectKind::Instance {
        return None;
    }
    let fields = fields(graph, v);
    let field = |name: &str| fields.iter().find(|f| f.name == name);
    let array = graph.objects.ids.binary_search(&field("value")?.object?).ok()?;
    let size = graph.objects.shallow(array);
    let (_, prefix) = graph.values.contents(array, size)?;
    let latin1 = field("coder").is_some_and(|c| c.value == "0");
    let (units, cut): (Vec<u16>, bool) = match element_type(graph, array)? {
        // A `byte[]` is Latin-1 or, with coder 1, UTF-16 in the machine's order (little
        // endian on every machine that writes dumps).
        FieldType::Byte if latin1 || field("coder").is_none() => {
            (prefix.iter().map(|&b| u16::from(b)).collect(), size as usize > prefix.len())
        }
        FieldType::Byte => {
            (prefix.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect(), size as usize > prefix.len())
        }
        FieldType::Char => {
            (prefix.chunks_exact(2).map(|c| u16::from_be_bytes([c[0], c[1]])).collect(), size as usize > prefix.len())
        }
        _ => return None,
    };
    // Older strings share an array: their own characters start at `offset`, `count` long.
    let number = |name: &str| field(name).and_then(|f| f.value.parse::<usize>().ok());
    match (number("offset"), number("count")) {
        (Some(offset), Some(count)) => {
            // Characters past those kept: nothing is known of this string's text.
            if offset >= units.len() && count > 0 {
                return None;
            }
            let end = (offset + count).min(units.len());
            // `…` where some of its own characters are past those kept (an empty string
            // has none, wherever its offset).
            Some(text_of(&units[offset.min(end)..end], cut && count > 0 && offset + count > units.len()))
        }
        _ => Some(text_of(&units, cut)),
    }
}

fn text_of(units: &[u16], cut: bool) -> String {
    let mut text: String = char::decode_utf16(units.iter().copied()).map(|c| c.unwrap_or('\u{FFFD}')).collect();
    if cut {
        text.push('…');
    }
    text
}
