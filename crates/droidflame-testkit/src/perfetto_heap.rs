//! Writes Java heap dumps as Perfetto `heap_graph` packets (`heap_graph.proto`, field 56 of
//! `TracePacket`), as ART's `perfetto_hprof` does: roots and objects as they are met, a
//! type when its class is first met, each object's id as a delta from the one before where
//! it is larger, its heap only where it changes, its size only where it differs from its
//! type's, reference ids less a base; the field names after everything, in the last
//! packet. A dump spans packets of a few objects each, every one but the last `continued`.

use crate::perfetto::Message;
use std::collections::BTreeMap;

/// `TracePacket` fields.
const TIMESTAMP: u32 = 8;
const SEQUENCE_ID: u32 = 10;
const HEAP_GRAPH: u32 = 56;

/// `HeapGraphObject.heap_type_delta` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeapType {
    App = 1,
    Zygote = 2,
    Image = 3,
}

/// `HeapGraphType.kind` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypeKind {
    Normal = 1,
    /// Primitive arrays, and classes without reference fields.
    NoReferences = 2,
    String = 3,
    /// Object arrays.
    Array = 4,
    SoftReference = 8,
    WeakReference = 9,
    FinalizerReference = 10,
    PhantomReference = 11,
}

/// How the writer encodes what protobuf lets it choose.
#[derive(Debug, Clone, Copy)]
pub struct Encoding {
    /// Objects per packet.
    pub per_packet: usize,
    /// Repeated ids packed (recorders since 2020) or one field each (older ones).
    pub packed: bool,
}

impl Default for Encoding {
    fn default() -> Self {
        Encoding { per_packet: 3, packed: true }
    }
}

/// One Java heap dump being written.
#[derive(Debug)]
pub struct HeapGraphWriter {
    pid: u64,
    time: u64,
    sequence: u32,
    encoding: Encoding,
    packets: Vec<Message>,
    /// The `HeapGraph` being filled, and how many objects it holds.
    graph: Message,
    objects: usize,
    last_id: u64,
    last_heap: Option<HeapType>,
    field_names: BTreeMap<String, u64>,
}

impl HeapGraphWriter {
    /// A dump of process `pid` at `time` (ns) on sequence `sequence`.
    pub fn new(pid: u32, time: u64, sequence: u32, encoding: Encoding) -> Self {
        HeapGraphWriter {
            pid: u64::from(pid),
            time,
            sequence,
            encoding,
            packets: Vec::new(),
            graph: Message::new(),
            objects: 0,
            last_id: 0,
            last_heap: None,
            field_names: BTreeMap::new(),
        }
    }

    /// The iid of field name `name` (`java.lang.Object com.example.Foo.bar`).
    fn field(&mut self, name: &str) -> u64 {
        let next = self.field_names.len() as u64 + 1;
        *self.field_names.entry(name.to_owned()).or_insert(next)
    }

    fn repeated(&self, m: &mut Message, field: u32, values: &[u64]) {
        if self.encoding.packed {
            if !values.is_empty() {
                m.packed(field, values);
            }
        } else {
            for &v in values {
                m.varint(field, v);
            }
        }
    }

    /// A class: type `id` named `name` (`com.example.Foo`, `int[]`), its instances' size,
    /// its superclass's type (0: none), kind, and the reference fields it declares itself.
    pub fn class(&mut self, id: u64, name: &str, size: u64, superclass: u64, kind: TypeKind, fields: &[&str]) {
        let iids: Vec<u64> = fields.iter().map(|f| self.field(&format!("java.lang.Object {name}.{f}"))).collect();
        let mut t = Message::new();
        t.varint(1, id).bytes(3, name.as_bytes()).varint(4, size);
        if superclass != 0 {
            t.varint(5, superclass);
        }
        self.repeated(&mut t, 6, &iids);
        t.varint(7, kind as u64);
        self.graph.message(9, &t);
    }

    /// The type of class `name`'s class object (`java.lang.Class<name>`): no size, kind or
    /// fields, as ART writes it.
    pub fn class_object_type(&mut self, id: u64, name: &str) {
        let mut t = Message::new();
        t.varint(1, id).bytes(3, format!("java.lang.Class<{name}>").as_bytes());
        self.graph.message(9, &t);
    }

    /// An object of type `type_id` in `heap`: its size where it differs from its type's,
    /// its references (0 for null) and, where its class is not a plain one (a class
    /// object's statics), their field names (`com.example.Foo.bar`).
    pub fn object(
        &mut self,
        id: u64,
        type_id: u64,
        size: Option<u64>,
        heap: HeapType,
        names: Option<&[&str]>,
        references: &[u64],
    ) {
        let mut o = Message::new();
        if self.last_id != 0 && id > self.last_id {
            o.varint(7, id - self.last_id);
        } else {
            o.varint(1, id);
        }
        self.last_id = id;
        o.varint(2, type_id);
        if let Some(size) = size {
            o.varint(3, size);
        }
        if let Some(names) = names {
            let iids: Vec<u64> = names.iter().map(|n| self.field(&format!("java.lang.Object {n}"))).collect();
            self.repeated(&mut o, 4, &iids);
        }
        // Ids less one below the smallest, where that is shorter.
        let base = references.iter().copied().filter(|&r| r != 0).min().map_or(0, |m| m - 1);
        let base = if base > 0x7F && references.len() > 1 { base } else { 0 };
        let shifted: Vec<u64> = references.iter().map(|&r| if r == 0 { 0 } else { r - base }).collect();
        if base != 0 {
            o.varint(6, base);
        }
        self.repeated(&mut o, 5, &shifted);
        if self.last_heap != Some(heap) {
            o.varint(9, heap as u64);
            self.last_heap = Some(heap);
        }
        self.graph.message(2, &o);
        self.objects += 1;
        if self.objects == self.encoding.per_packet {
            self.flush(true);
        }
    }

    /// Objects held by a GC root of kind `kind` (`HeapGraphRoot.Type`: 1 JNI global, 3
    /// Java frame, 5 sticky class…).
    pub fn root(&mut self, kind: u64, ids: &[u64]) {
        let mut r = Message::new();
        self.repeated(&mut r, 1, ids);
        r.varint(2, kind);
        self.graph.message(7, &r);
    }

    /// Ends the packet being filled.
    fn flush(&mut self, continued: bool) {
        let mut graph = std::mem::take(&mut self.graph);
        graph.varint(1, self.pid).varint(5, u64::from(continued)).varint(6, self.packets.len() as u64);
        let mut packet = Message::new();
        packet.varint(TIMESTAMP, self.time).varint(SEQUENCE_ID, u64::from(self.sequence)).message(HEAP_GRAPH, &graph);
        self.packets.push(packet);
        self.objects = 0;
    }

    /// The dump's packets: the last one holds the field names and is not `continued`.
    pub fn finish(mut self) -> Vec<Message> {
        // In the order of their ids, as ART interns them (first used, first written).
        let mut names: Vec<(String, u64)> = std::mem::take(&mut self.field_names).into_iter().collect();
        names.sort_by_key(|&(_, iid)| iid);
        for (name, iid) in names {
            self.graph.message(4, Message::new().varint(1, iid).bytes(2, name.as_bytes()));
        }
        self.flush(false);
        self.packets
    }
}
