//! A dump's pieces into the heap-graph sink: class names from strings and class loads, each
//! class's fields from its class dump, and each object with its size and the references
//! its fields, statics or elements hold. An instance met before its class's dump (or a
//! superclass's) waits, with its field bytes, until the dump ends.

use super::framing::{type_size, Piece, OBJECT_ARRAY};
use crate::profile::{ContentHash, FieldType, HeapGraphSink, ObjectKind, RootKind, Strength, Via, ARRAY_PREFIX};
use rustc_hash::FxHashMap;

/// A class object waiting for the end: its id, heap, bytes of statics, and each object
/// static's target and name.
#[derive(Debug, Clone)]
struct ClassObject {
    id: u64,
    heap: u8,
    statics: u64,
    references: Vec<(u64, u32)>,
}

/// A class as its dump describes it.
#[derive(Debug, Clone)]
struct ClassLayout {
    /// The superclass's object id (0 for none).
    superclass: u64,
    instance_size: u64,
    /// Its own instance fields: name (as a sink name) and basic type.
    fields: Vec<(u32, u8)>,
    /// How its instances' `referent` is held, from the first `java.lang.ref` class up its
    /// chain (strong where none is).
    referent: Option<Strength>,
    /// Which of its fields is an activity's `mDestroyed` (`android.app.Activity`'s own).
    destroyed: Option<usize>,
}

/// What the reader keeps while it reads.
#[derive(Debug, Default)]
pub(super) struct GraphReader {
    id: usize,
    strings: FxHashMap<u64, String>,
    /// Class object id -> (the class's number, its name).
    classes: FxHashMap<u64, (u32, String)>,
    /// Class object id -> its layout's place in `layout_list`.
    layouts: FxHashMap<u64, u32>,
    layout_list: Vec<ClassLayout>,
    /// The layouts of an instance's class chain, its own first (kept to be reused).
    chain: Vec<u32>,
    /// Field names by string id and class, as sink names.
    names: FxHashMap<(u64, u32), u32>,
    /// The sink names that are `referent` (a `java.lang.ref` class's referent field).
    referents: Vec<u32>,
    /// `java.lang.Class`'s instance size: part of every class object's size.
    class_instance_size: u64,
    /// Primitive array classes by element type code.
    primitive_arrays: FxHashMap<u8, u32>,
    heap: Option<u8>,
    /// Objects whose class (or a superclass) the dump never describes: kept with what is
    /// known of them (their class by id, no size where its layout is missing).
    classless: u64,
    /// Instances whose class (or a superclass) had no dump yet: id, class id, heap, fields.
    waiting: Vec<(u64, u64, u8, Vec<u8>)>,
    /// Class objects, written at the end, when `java.lang.Class`'s instance size (part of
    /// each one's size) is known.
    class_objects: Vec<ClassObject>,
    /// The array whose elements are coming: its next element's index, and whether they are
    /// references (an object array's).
    element: u32,
    references: bool,
    /// A primitive array's contents coming: their hash so far (of one longer than the
    /// bytes kept), and how many of their first bytes are still to be kept.
    contents: Option<ContentHash>,
    prefix_left: usize,
}

fn id_at(b: &[u8], at: usize, size: usize) -> u64 {
    b[at..at + size].iter().fold(0, |n, &byte| n << 8 | u64::from(byte))
}

/// A class name as Java writes it (`[Ljava/lang/String;` is `java.lang.String[]`).
fn java_name(name: &str) -> String {
    let dims = name.bytes().take_while(|&b| b == b'[').count();
    if dims == 0 {
        return name.replace('/', ".");
    }
    let element = match &name[dims..] {
        "Z" => "boolean".to_owned(),
        "C" => "char".to_owned(),
        "F" => "float".to_owned(),
        "D" => "double".to_owned(),
        "B" => "byte".to_owned(),
        "S" => "short".to_owned(),
        "I" => "int".to_owned(),
        "J" => "long".to_owned(),
        other => other.trim_start_matches('L').trim_end_matches(';').replace('/', "."),
    };
    element + &"[]".repeat(dims)
}

/// The type of basic type `code`; `None` for a code HPROF does not define.
fn field_type(code: u8) -> Option<FieldType> {
    Some(match code {
        2 => FieldType::Object,
        4 => FieldType::Boolean,
        5 => FieldType::Char,
        6 => FieldType::Float,
        7 => FieldType::Double,
        8 => FieldType::Byte,
        9 => FieldType::Short,
        10 => FieldType::Int,
        11 => FieldType::Long,
        _ => return None,
    })
}

/// A primitive array class's element type code, by its name.
fn primitive_code(name: &str) -> Option<u8> {
    (4..=11).find(|&code| primitive_name(code) == name)
}

/// A primitive array class's name, by its element type code.
fn primitive_name(code: u8) -> &'static str {
    match code {
        4 => "boolean[]",
        5 => "char[]",
        6 => "float[]",
        7 => "double[]",
        8 => "byte[]",
        9 => "short[]",
        10 => "int[]",
        11 => "long[]",
        _ => "unknown[]",
    }
}

impl GraphReader {
    pub(super) fn piece(&mut self, sink: &mut HeapGraphSink, piece: Piece<'_>) {
        match piece {
            Piece::Header { id_size, .. } => {
                self.id = usize::from(id_size);
                sink.records_field_values();
            }
            Piece::Record { tag: 0x01, body, .. } if body.len() >= self.id => {
                let key = id_at(body, 0, self.id);
                self.strings.insert(key, String::from_utf8_lossy(&body[self.id..]).into_owned());
            }
            Piece::Record { tag: 0x02, body, .. } if body.len() >= 8 + 2 * self.id => {
                let class_id = id_at(body, 4, self.id);
                let name_id = id_at(body, 8 + self.id, self.id);
                let name = java_name(self.strings.get(&name_id).map_or("???", String::as_str));
                let number = sink.class(name.clone());
                if let Some(code) = primitive_code(&name) {
                    self.primitive_arrays.insert(code, number);
                }
                self.classes.insert(class_id, (number, name));
            }
            Piece::Record { .. } => {}
            Piece::Sub { tag, body, .. } => self.sub(sink, tag, body),
            Piece::ArrayStart { tag, head, element_size, .. } => self.array(sink, tag, head, element_size),
            Piece::ArrayData(data) if self.references => {
                for element in data.chunks_exact(self.id) {
                    let target = id_at(element, 0, self.id);
                    if target != 0 {
                        sink.reference(target, Strength::Strong, Via::Element(self.element));
                    }
                    self.element += 1;
                }
            }
            Piece::ArrayData(data) => {
                let kept = data.len().min(self.prefix_left);
                sink.values(&data[..kept]);
                self.prefix_left -= kept;
                if let Some(contents) = &mut self.contents {
                    contents.write(data);
                }
            }
            Piece::ArrayEnd => {
                // Contents longer than what is kept of them are known by their hash too.
                if let Some(contents) = self.contents.take() {
                    sink.values(&contents.finish().to_le_bytes());
                }
            }
            Piece::Damaged { .. } => {}
        }
    }

    fn heap(&mut self, sink: &mut HeapGraphSink) -> u8 {
        match self.heap {
            Some(heap) => heap,
            None => {
                let heap = sink.heap("default");
                self.heap = Some(heap);
                heap
            }
        }
    }

    /// The sink's name of field (or static) `string` of class `class`: one per class, so
    /// that a mapping renames each class's fields by its own.
    fn name(&mut self, sink: &mut HeapGraphSink, string: u64, class: u32) -> u32 {
        if let Some(&name) = self.names.get(&(string, class)) {
            return name;
        }
        let text = self.strings.get(&string).cloned().unwrap_or_default();
        let is_referent = text == "referent";
        let name = sink.name(text, class);
        if is_referent {
            self.referents.push(name);
        }
        self.names.insert((string, class), name);
        name
    }

    fn root(&mut self, sink: &mut HeapGraphSink, tag: u8, body: &[u8]) {
        let kind = match tag {
            0xFF => RootKind::Unknown,
            0x01 => RootKind::JniGlobal,
            0x02 => RootKind::JniLocal,
            0x03 => RootKind::JavaFrame,
            0x04 => RootKind::NativeStack,
            0x05 => RootKind::StickyClass,
            0x06 => RootKind::ThreadBlock,
            0x07 => RootKind::MonitorUsed,
            0x08 => RootKind::ThreadObject,
            0x89 => RootKind::InternedString,
            0x8A => RootKind::Finalizing,
            0x8B => RootKind::Debugger,
            0x8C => RootKind::ReferenceCleanup,
            0x8D => RootKind::VmInternal,
            0x8E => RootKind::JniMonitor,
            _ => RootKind::Unreachable,
        };
        sink.root(id_at(body, 0, self.id), kind);
    }

    fn sub(&mut self, sink: &mut HeapGraphSink, tag: u8, body: &[u8]) {
        let id = self.id;
        match tag {
            0xFE => {
                let name = self.strings.get(&id_at(body, 4, id)).cloned().unwrap_or_default();
                self.heap = Some(sink.heap(&name));
            }
            0x20 => self.class_dump(sink, body),
            0x21 => {
                let object = id_at(body, 0, id);
                let class = id_at(body, id + 4, id);
                let heap = self.heap(sink);
                let fields = &body[2 * id + 8..];
                if !self.instance(sink, object, class, heap, fields) {
                    self.waiting.push((object, class, heap, fields.to_vec()));
                }
            }
            _ => self.root(sink, tag, body),
        }
    }

    fn class_dump(&mut self, sink: &mut HeapGraphSink, b: &[u8]) {
        let id = self.id;
        let class_id = id_at(b, 0, id);
        let superclass = id_at(b, id + 4, id);
        let number = self.class_number(sink, class_id);
        let instance_size = u64::from(u32::from_be_bytes(b[7 * id + 4..7 * id + 8].try_into().expect("four bytes")));
        let mut at = 7 * id + 8;
        let entries = usize::from(u16::from_be_bytes([b[at], b[at + 1]]));
        at += 2;
        for _ in 0..entries {
            at += 3 + type_size(b[at + 2], id).unwrap_or(0);
        }
        let statics = usize::from(u16::from_be_bytes([b[at], b[at + 1]]));
        at += 2;
        let heap = self.heap(sink);
        let mut references = Vec::new();
        let mut size = 0;
        for _ in 0..statics {
            let name = id_at(b, at, id);
            let code = b[at + id];
            let value_size = type_size(code, id).unwrap_or(0);
            size += value_size as u64;
            if code == 2 {
                let target = id_at(b, at + id + 1, id);
                if target != 0 {
                    references.push((target, self.name(sink, name, number)));
                }
            }
            at += id + 1 + value_size;
        }
        let count = usize::from(u16::from_be_bytes([b[at], b[at + 1]]));
        at += 2;
        let fields =
            (0..count).map(|i| (id_at(b, at + i * (id + 1), id), b[at + i * (id + 1) + id])).collect::<Vec<_>>();
        let fields: Vec<(u32, u8)> =
            fields.into_iter().map(|(name, code)| (self.name(sink, name, number), code)).collect();
        let name = self.classes.get(&class_id).map(|(_, name)| name.clone()).unwrap_or_default();
        if name == "java.lang.Class" {
            self.class_instance_size = instance_size;
        }
        let referent = match name.as_str() {
            "java.lang.ref.PhantomReference" => Some(Strength::Phantom),
            "java.lang.ref.WeakReference" => Some(Strength::Weak),
            "java.lang.ref.FinalizerReference" | "java.lang.ref.Finalizer" => Some(Strength::Finalizer),
            "java.lang.ref.SoftReference" => Some(Strength::Soft),
            _ => None,
        };
        // An activity's `mDestroyed` says whether it was destroyed: a leak where it is still held.
        let destroyed = (name == "android.app.Activity")
            .then(|| fields.iter().position(|&(field, code)| code == 4 && sink.name_text(field) == "mDestroyed"))
            .flatten();
        let types = fields.iter().filter_map(|&(name, code)| Some((name, field_type(code)?))).collect();
        sink.fields(number, types);
        if superclass != 0 {
            let parent = self.class_number(sink, superclass);
            sink.superclass(number, parent);
        }
        self.layouts.insert(class_id, self.layout_list.len() as u32);
        self.layout_list.push(ClassLayout { superclass, instance_size, fields, referent, destroyed });
        self.class_objects.push(ClassObject { id: class_id, heap, statics: size, references });
    }

    fn array(&mut self, sink: &mut HeapGraphSink, tag: u8, head: &[u8], element_size: usize) {
        let id = self.id;
        let object = id_at(head, 0, id);
        let length = u64::from(u32::from_be_bytes(head[id + 4..id + 8].try_into().expect("four bytes")));
        let heap = self.heap(sink);
        self.element = 0;
        self.references = tag == OBJECT_ARRAY;
        self.contents = None;
        self.prefix_left = 0;
        if tag == OBJECT_ARRAY {
            let class = self.class_number(sink, id_at(head, id + 8, id));
            sink.object(object, class, heap, length * id as u64, ObjectKind::ObjectArray);
        } else {
            let code = head[id + 8];
            let class = match self.primitive_arrays.get(&code) {
                Some(&class) => class,
                None => {
                    let class = sink.class(primitive_name(code).to_owned());
                    self.primitive_arrays.insert(code, class);
                    class
                }
            };
            let size = length * type_size(code, id).unwrap_or(0) as u64;
            sink.object(object, class, heap, size, ObjectKind::PrimitiveArray);
            // An array without its data (ART's) has no contents to keep; one no longer than
            // the bytes kept needs no hash.
            if element_size > 0 {
                self.prefix_left = ARRAY_PREFIX;
                self.contents = (size > ARRAY_PREFIX as u64).then(ContentHash::default);
            }
        }
    }

    /// An instance with its references, if its class and every superclass have had their
    /// dumps; false if not (nothing is written).
    fn instance(&mut self, sink: &mut HeapGraphSink, object: u64, class: u64, heap: u8, fields: &[u8]) -> bool {
        // The chain's list is the reader's own, reused: no allocation per instance.
        let mut chain = std::mem::take(&mut self.chain);
        chain.clear();
        let mut at = class;
        // A chain longer than there are classes loops (a damaged dump): no layout then.
        while at != 0 && chain.len() <= self.layout_list.len() {
            let Some(&layout) = self.layouts.get(&at) else { break };
            chain.push(layout);
            at = self.layout_list[layout as usize].superclass;
        }
        let whole = at == 0 && !chain.is_empty();
        if whole {
            let number = self.class_number(sink, class);
            let layouts = &self.layout_list;
            let size = layouts[chain[0] as usize].instance_size;
            sink.object(object, number, heap, size, ObjectKind::Instance);
            let referent = chain.iter().find_map(|&c| layouts[c as usize].referent).unwrap_or(Strength::Strong);
            let id = self.id;
            let mut offset = 0;
            // Primitive fields that follow one another are kept as one run of bytes (as far
            // as the instance's bytes go: a damaged one's may end early).
            let mut primitives = 0..0;
            let run = |r: std::ops::Range<usize>| &fields[r.start.min(fields.len())..r.end.min(fields.len())];
            for &c in &chain {
                let layout = &layouts[c as usize];
                for (at, &(name, code)) in layout.fields.iter().enumerate() {
                    let size = type_size(code, id).unwrap_or(0);
                    if code == 2 {
                        sink.values(run(primitives.clone()));
                        primitives = offset + size..offset + size;
                        if offset + id <= fields.len() {
                            let target = id_at(fields, offset, id);
                            if target != 0 {
                                let strength = match self.referents.contains(&name) {
                                    true => referent,
                                    false => Strength::Strong,
                                };
                                sink.reference(target, strength, Via::Field(name));
                            }
                        }
                    } else {
                        primitives.end = offset + size;
                        if layout.destroyed == Some(at) && fields.get(offset).is_some_and(|&b| b != 0) {
                            sink.destroyed();
                        }
                    }
                    offset += size;
                }
            }
            sink.values(run(primitives));
        }
        self.chain = chain;
        whole
    }

    /// The number of the class whose object id is `class`; a class the dump never loads is
    /// named by its id.
    fn class_number(&mut self, sink: &mut HeapGraphSink, class: u64) -> u32 {
        match self.classes.get(&class) {
            Some(&(number, _)) => number,
            None => {
                let name = format!("unknown class {class:#x}");
                let number = sink.class(name.clone());
                self.classes.insert(class, (number, name));
                number
            }
        }
    }

    /// The dump has ended: the instances that waited for their classes. Returns how many
    /// objects are of a class the dump never describes.
    pub(super) fn finish(mut self, sink: &mut HeapGraphSink) -> u64 {
        for object in std::mem::take(&mut self.class_objects) {
            let size = self.class_instance_size + object.statics;
            let class = self.class_number(sink, object.id);
            sink.object(object.id, class, object.heap, size, ObjectKind::Class);
            for (target, name) in object.references {
                sink.reference(target, Strength::Strong, Via::Field(name));
            }
        }
        for (object, class, heap, fields) in std::mem::take(&mut self.waiting) {
            if !self.instance(sink, object, class, heap, &fields) {
                self.classless += 1;
                let number = self.class_number(sink, class);
                sink.object(object, number, heap, 0, ObjectKind::Instance);
            }
        }
        self.classless
    }
}
