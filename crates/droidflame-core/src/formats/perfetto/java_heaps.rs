//! Java heap dumps in a Perfetto trace (`heap_graph` packets, as ART's `perfetto_hprof`
//! writes them) into the heap-graph sink, the model an HPROF dump makes. A dump spans
//! packets of one sequence up to the first not `continued`; its types and field names may
//! come after the objects that use them, so its packets are kept (as they came, compact)
//! and read once it has ended. The model holds one dump: the first to end is read (cut
//! short where a packet of another process or time came before its last), the others are
//! named in a note.

use super::framing::varint;
use super::java_heap_proto::KIND_WEAK_REFERENCE;
use super::java_heap_proto::{object as field, HeapGraph, HeapGraphHead, HeapGraphType};
use super::java_heap_proto::{KIND_ARRAY, KIND_NOREFERENCES, KIND_STRING};
use super::java_heap_proto::{KIND_FINALIZER_REFERENCE, KIND_PHANTOM_REFERENCE, KIND_SOFT_REFERENCE};
use crate::profile::{FieldType, HeapGraphSink, ObjectKind, ProfileBuilder, Repair, RootKind, Strength, Via, NONE};
use crate::text::{counted, group_digits};
use bytes::Bytes;
use prost::Message;
use rustc_hash::FxHashMap;

/// The most classes a type's chain of superclasses is followed through (Java's run to
/// about twenty): a damaged dump's loops and hostile depths stop there.
const DEEPEST_CHAIN: usize = 64;

/// A dump being received: the packets of one sequence so far.
#[derive(Debug)]
struct OpenDump {
    pid: i32,
    time: u64,
    next_index: u64,
    /// Its `HeapGraph` messages, each with whether packets are missing before it; empty
    /// once a dump has been read (the others are counted).
    parts: Vec<(Bytes, bool)>,
    /// Packets missing between two that came (their indexes skip).
    missing: u64,
}

/// What was read of a dump, for the notes.
#[derive(Debug, Default, Clone, Copy)]
struct Read {
    pid: i32,
    time: u64,
    ended: bool,
    missing: u64,
    /// Objects that could not be decoded, or whose field names do not match their references.
    damaged: u64,
    classless: u64,
    objects: u64,
    /// Objects after missing packets whose ids count on from a missing object: left out.
    unplaced: u64,
}

/// The Java heap dumps of one trace.
#[derive(Debug, Default)]
pub struct JavaHeaps {
    open: FxHashMap<u32, OpenDump>,
    read: Option<Read>,
    /// Dumps not read (pid, time), for the notes.
    left_out: Vec<(i32, u64)>,
    /// `heap_graph` fields that are not a `HeapGraph`.
    undecodable: u64,
}

impl JavaHeaps {
    /// One packet's `heap_graph`, of sequence `sequence`, at packet time `time`.
    pub fn packet(&mut self, sequence: u32, time: u64, bytes: Bytes, b: &mut ProfileBuilder) {
        let Ok(head) = HeapGraphHead::decode(bytes.clone()) else {
            self.undecodable += 1;
            return;
        };
        let (pid, index) = (head.pid.unwrap_or(0), head.index.unwrap_or(0));
        // A packet of another process or time starts another dump: the open one lost its end.
        if self.open.get(&sequence).is_some_and(|d| (d.pid, d.time) != (pid, time)) {
            let cut = self.open.remove(&sequence).expect("an open dump");
            self.close(cut, false, b);
        }
        let dump =
            self.open.entry(sequence).or_insert(OpenDump { pid, time, next_index: 0, parts: Vec::new(), missing: 0 });
        let missing = index.saturating_sub(dump.next_index);
        dump.missing += missing;
        dump.next_index = index + 1;
        if self.read.is_none() {
            dump.parts.push((bytes, missing > 0));
        }
        if !head.continued.unwrap_or(false) {
            let whole = self.open.remove(&sequence).expect("an open dump");
            self.close(whole, true, b);
        }
    }

    fn close(&mut self, dump: OpenDump, ended: bool, b: &mut ProfileBuilder) {
        if self.read.is_some() || dump.parts.is_empty() {
            self.left_out.push((dump.pid, dump.time));
            return;
        }
        let mut read = Read { pid: dump.pid, time: dump.time, ended, missing: dump.missing, ..Read::default() };
        DumpReader::default().read(&dump.parts, &mut b.graph, &mut read);
        self.read = Some(read);
    }

    /// The dump read, if any: its pid and how many objects it gave.
    pub fn dump_read(&self) -> Option<(i32, u64)> {
        self.read.map(|r| (r.pid, r.objects))
    }

    /// The trace has ended: dumps still open are read as they are; the notes.
    pub fn finish(&mut self, b: &mut ProfileBuilder) {
        let mut open: Vec<(u32, OpenDump)> = self.open.drain().collect();
        open.sort_by_key(|&(sequence, _)| sequence);
        for (_, dump) in open {
            self.close(dump, false, b);
        }
        damaged(b, self.undecodable, || {
            let packets = counted(self.undecodable, "Java heap-graph packet", "Java heap-graph packets");
            format!("{packets} could not be decoded and skipped")
        });
        let Some(read) = self.read else { return };
        let which = format!("the Java heap dump of pid {} at {} ns", read.pid, group_digits(read.time));
        if !read.ended || read.missing > 0 {
            b.facts.repairs.truncated = true;
            let why = match read.missing {
                0 => "never ended (its last packet is missing)".to_owned(),
                n => format!("lacks {} between those that came", counted(n, "packet", "packets")),
            };
            let unplaced = match read.unplaced {
                0 => String::new(),
                n => format!(
                    "; {} after a gap gave {} as a step from a missing object's and could not be placed",
                    counted(n, "object", "objects"),
                    if n == 1 { "its id" } else { "their ids" }
                ),
            };
            let words = format!("{which} {why}: the objects that came are shown{unplaced}");
            b.facts.warn_about(Repair::Truncated, words);
        }
        damaged(b, read.damaged, || {
            let objects = counted(read.damaged, "object", "objects");
            format!("{objects} of {which} could not be read whole: what could be is kept")
        });
        let facts = &mut b.facts;
        facts.repairs.objects_without_class += read.classless;
        if !self.left_out.is_empty() {
            let others: Vec<String> =
                self.left_out.iter().map(|&(pid, time)| format!("pid {pid} at {} ns", group_digits(time))).collect();
            facts.warn(format!(
                "The trace holds {} Java heap dumps; {which} is shown, not {}: open a trace with one dump to see another",
                self.left_out.len() + 1,
                others.join(", ")
            ));
        }
        facts.warn(
            "A Perfetto heap graph records objects and references but no field values: primitive fields, the \
             text of strings, duplicate contents and destroyed activities are not in it",
        );
    }
}

/// `count` damaged parts, the note saying what they were.
fn damaged(b: &mut ProfileBuilder, count: u64, words: impl FnOnce() -> String) {
    if count > 0 {
        b.facts.repairs.damaged_parts += count;
        b.facts.warn_about(Repair::DamagedParts, words());
    }
}

/// A type as the dump gives it, with what the sink knows it by.
#[derive(Debug, Clone)]
struct Type {
    /// The class number of its instances (or, for a class object's type, of the class).
    class: u32,
    object_size: u64,
    kind: i32,
    /// `java.lang.Class<X>`: the type of X's class object.
    class_object: bool,
    array: bool,
    superclass: Option<u64>,
    /// Its reference fields' iids, its own.
    fields: Vec<u64>,
    /// The names of its instances' references by position: its own fields, then each
    /// superclass's.
    chain: Vec<u32>,
}

/// An object's fields, as its message gives them.
#[derive(Debug, Default)]
struct ObjectMessage {
    id: Option<u64>,
    id_delta: u64,
    type_id: u64,
    self_size: u64,
    base: u64,
    heap: Option<u64>,
}

/// Reads one whole dump's packets into the sink.
#[derive(Debug, Default)]
struct DumpReader {
    types: FxHashMap<u64, Type>,
    /// Class numbers by name (the first type of a name, where loaders repeat one).
    by_name: FxHashMap<String, u32>,
    /// Field names by iid, as sink names.
    names: FxHashMap<u64, u32>,
    /// The sink name of `java.lang.ref.Reference.referent`.
    referent: Option<u32>,
    /// The name of references without one (and of the runtime's own).
    unnamed: u32,
    runtime: u32,
    /// Heaps by heap type (unknown, app, zygote, image).
    heaps: [Option<u8>; 4],
    unknown_classes: FxHashMap<u64, u32>,
    /// One object's repeated fields, reused from object to object.
    field_ids: Vec<u64>,
    targets: Vec<u64>,
    internal: Vec<u64>,
}

/// The class whose class object's type is named `name` (`java.lang.Class<X>`), if it is one.
fn described(name: &str) -> Option<&str> {
    name.strip_prefix("java.lang.Class<").and_then(|n| n.strip_suffix('>'))
}

fn text(bytes: &Option<Bytes>) -> String {
    String::from_utf8_lossy(bytes.as_deref().unwrap_or_default()).into_owned()
}

impl DumpReader {
    fn read(mut self, parts: &[(Bytes, bool)], sink: &mut HeapGraphSink, read: &mut Read) {
        let graphs: Vec<(HeapGraph, bool)> =
            parts.iter().filter_map(|(p, gap)| Some((HeapGraph::decode(p.clone()).ok()?, *gap))).collect();
        self.classes(&graphs, sink);
        self.unnamed = sink.name("?".to_owned(), NONE);
        self.runtime = sink.name("runtimeInternalObjects".to_owned(), NONE);
        self.names(&graphs, sink);
        self.chains(sink);
        let (mut last_id, mut heap_type) = (Some(0u64), 0u64);
        for (graph, gap) in &graphs {
            if *gap {
                last_id = None;
            }
            for object in &graph.objects {
                match self.object(object, &mut last_id, &mut heap_type, sink, read) {
                    Some(()) => read.objects += 1,
                    None => read.damaged += 1,
                }
            }
        }
        for root in graphs.iter().flat_map(|(g, _)| &g.roots) {
            let kind = usize::try_from(root.root_type.unwrap_or(0))
                .ok()
                .filter(|&k| k <= RootKind::JniMonitor as usize)
                .map_or(RootKind::Unknown, |k| RootKind::ALL[k]);
            root.object_ids.iter().for_each(|&id| sink.root(id, kind));
        }
    }

    /// Every type's class, in id order; class objects' types are their class's.
    fn classes(&mut self, graphs: &[(HeapGraph, bool)], sink: &mut HeapGraphSink) {
        let mut types: Vec<&HeapGraphType> = graphs.iter().flat_map(|(g, _)| &g.types).collect();
        types.sort_by_key(|t| t.id.unwrap_or(0));
        types.dedup_by_key(|t| t.id.unwrap_or(0));
        let by_name = &mut self.by_name;
        for t in types.iter().filter(|t| described(&text(&t.class_name)).is_none()) {
            let name = text(&t.class_name);
            let class = *by_name.entry(name.clone()).or_insert_with(|| sink.class(name.clone()));
            self.types.insert(t.id.unwrap_or(0), Type::of(t, class, false));
        }
        for t in types {
            let name = text(&t.class_name);
            if let Some(of) = described(&name) {
                let class = *by_name.entry(of.to_owned()).or_insert_with(|| sink.class(of.to_owned()));
                self.types.insert(t.id.unwrap_or(0), Type::of(t, class, true));
            }
        }
        for t in self.types.values() {
            if let Some(parent) = t.superclass.and_then(|s| self.types.get(&s)) {
                sink.superclass(t.class, parent.class);
            }
        }
    }

    /// Field names, each a name of its declaring class: `Type Declaring.Class.name` (or
    /// without the type).
    fn names(&mut self, graphs: &[(HeapGraph, bool)], sink: &mut HeapGraphSink) {
        for interned in graphs.iter().flat_map(|(g, _)| &g.field_names) {
            let full = text(&interned.str);
            let qualified = full.split_once(' ').map_or(full.as_str(), |(_, name)| name);
            let (declaring, plain) = qualified.rsplit_once('.').unwrap_or(("", qualified));
            let class = self.by_name.get(declaring).copied().unwrap_or(NONE);
            let name = sink.name(plain.to_owned(), class);
            if declaring == "java.lang.ref.Reference" && plain == "referent" {
                self.referent = Some(name);
            }
            self.names.insert(interned.iid.unwrap_or(0), name);
        }
    }

    /// Each type's names of references by position, and its own reference fields (for an
    /// object's Fields).
    fn chains(&mut self, sink: &mut HeapGraphSink) {
        // In id order: what each type gives the sink does not hang on a hash map's order.
        let mut ids: Vec<u64> = self.types.keys().copied().collect();
        ids.sort_unstable();
        for id in ids {
            let mut chain = Vec::new();
            let mut at = Some(id);
            let mut left = self.types.len().min(DEEPEST_CHAIN);
            while let (Some(t), true) = (at.and_then(|a| self.types.get(&a)), left > 0) {
                chain.extend(t.fields.iter().map(|iid| self.names.get(iid).copied().unwrap_or(self.unnamed)));
                at = t.superclass;
                left -= 1;
            }
            let t = self.types.get_mut(&id).expect("a type");
            if !t.class_object && !t.array {
                let own = t
                    .fields
                    .iter()
                    .map(|iid| (self.names.get(iid).copied().unwrap_or(self.unnamed), FieldType::Object));
                sink.fields(t.class, own.collect());
            }
            t.chain = chain;
        }
    }

    fn heap(&mut self, heap_type: u64, sink: &mut HeapGraphSink) -> u8 {
        let at = if heap_type < 4 { heap_type as usize } else { 0 };
        *self.heaps[at].get_or_insert_with(|| sink.heap(["default", "app", "zygote", "image"][at]))
    }

    /// One object and its references; `None` where its message is damaged (nothing written).
    fn object(
        &mut self,
        bytes: &[u8],
        last_id: &mut Option<u64>,
        heap_type: &mut u64,
        sink: &mut HeapGraphSink,
        read: &mut Read,
    ) -> Option<()> {
        let m = self.decode(bytes)?;
        let id = match (m.id_delta, m.id, *last_id) {
            (0, Some(id), _) => id,
            (0, None, _) => return None,
            (delta, _, Some(last)) => last.wrapping_add(delta),
            (_, _, None) => {
                read.unplaced += 1;
                return Some(());
            }
        };
        *last_id = Some(id);
        *heap_type = m.heap.unwrap_or(*heap_type);
        let heap = self.heap(*heap_type, sink);
        let Some(t) = self.types.get(&m.type_id) else {
            read.classless += 1;
            let class = match self.unknown_classes.get(&m.type_id) {
                Some(&class) => class,
                None => {
                    let class = sink.class(format!("unknown type {:#x}", m.type_id));
                    self.unknown_classes.insert(m.type_id, class);
                    class
                }
            };
            sink.object(id, class, heap, m.self_size, ObjectKind::Instance);
            self.references(None, m.base, sink);
            return Some(());
        };
        let kind = match (t.class_object, t.array, t.kind) {
            (true, ..) => ObjectKind::Class,
            (false, true, KIND_ARRAY) => ObjectKind::ObjectArray,
            (false, true, _) => ObjectKind::PrimitiveArray,
            _ => ObjectKind::Instance,
        };
        let size = if m.self_size != 0 { m.self_size } else { t.object_size };
        sink.object(id, t.class, heap, size, kind);
        let t = t.clone();
        if !self.field_ids.is_empty() && self.field_ids.len() != self.targets.len() {
            read.damaged += 1;
        }
        self.references(Some(&t), m.base, sink);
        Some(())
    }

    /// The last object's references, named by the object's own field ids, else by its
    /// type's chain; an object array's by index.
    fn references(&mut self, t: Option<&Type>, base: u64, sink: &mut HeapGraphSink) {
        let weak = t.and_then(|t| match t.kind {
            KIND_SOFT_REFERENCE => Some(Strength::Soft),
            KIND_WEAK_REFERENCE => Some(Strength::Weak),
            KIND_FINALIZER_REFERENCE => Some(Strength::Finalizer),
            KIND_PHANTOM_REFERENCE => Some(Strength::Phantom),
            _ => None,
        });
        let by_index = t.is_some_and(|t| t.array || matches!(t.kind, KIND_NOREFERENCES | KIND_STRING));
        for (at, &target) in self.targets.iter().enumerate() {
            if target == 0 {
                continue;
            }
            let via = match self.field_ids.get(at) {
                Some(iid) => Via::Field(self.names.get(iid).copied().unwrap_or(self.unnamed)),
                None if by_index && self.field_ids.is_empty() => Via::Element(at as u32),
                None => Via::Field(t.and_then(|t| t.chain.get(at)).copied().unwrap_or(self.unnamed)),
            };
            let strength = match (weak, via) {
                (Some(weak), Via::Field(name)) if Some(name) == self.referent => weak,
                _ => Strength::Strong,
            };
            sink.reference(target.wrapping_add(base), strength, via);
        }
        for &target in self.internal.iter().filter(|&&t| t != 0) {
            sink.reference(target, Strength::Strong, Via::Field(self.runtime));
        }
    }

    /// An object's message, its repeated fields into the reader's lists; `None` if damaged.
    fn decode(&mut self, mut b: &[u8]) -> Option<ObjectMessage> {
        let mut m = ObjectMessage::default();
        self.field_ids.clear();
        self.targets.clear();
        self.internal.clear();
        while !b.is_empty() {
            let (key, n) = varint(b).flatten()?;
            b = &b[n..];
            let (number, wire) = ((key >> 3) as u32, key & 7);
            let list = match number {
                field::REFERENCE_FIELD_ID => Some(&mut self.field_ids),
                field::REFERENCE_OBJECT_ID => Some(&mut self.targets),
                field::RUNTIME_INTERNAL_OBJECT_ID => Some(&mut self.internal),
                _ => None,
            };
            match wire {
                0 => {
                    let (value, n) = varint(b).flatten()?;
                    b = &b[n..];
                    match (number, list) {
                        (_, Some(list)) => list.push(value),
                        (field::ID, _) => m.id = Some(value),
                        (field::ID_DELTA, _) => m.id_delta = value,
                        (field::TYPE_ID, _) => m.type_id = value,
                        (field::SELF_SIZE, _) => m.self_size = value,
                        (field::REFERENCE_FIELD_ID_BASE, _) => m.base = value,
                        (field::HEAP_TYPE_DELTA, _) => m.heap = Some(value),
                        _ => {}
                    }
                }
                2 => {
                    let (len, n) = varint(b).flatten()?;
                    let len = usize::try_from(len).ok().filter(|&l| l <= b.len() - n)?;
                    let (mut packed, rest) = b[n..].split_at(len);
                    b = rest;
                    if let Some(list) = list {
                        while !packed.is_empty() {
                            let (value, n) = varint(packed).flatten()?;
                            list.push(value);
                            packed = &packed[n..];
                        }
                    }
                }
                1 => b = b.get(8..)?,
                5 => b = b.get(4..)?,
                _ => return None,
            }
        }
        Some(m)
    }
}

impl Type {
    fn of(t: &HeapGraphType, class: u32, class_object: bool) -> Type {
        Type {
            class,
            object_size: t.object_size.unwrap_or(0),
            kind: t.kind.unwrap_or(0),
            class_object,
            array: text(&t.class_name).ends_with("[]"),
            superclass: t.superclass_id.filter(|&s| s != 0),
            fields: t.reference_field_id.clone(),
            chain: Vec::new(),
        }
    }
}
