//! The heap-graph sink: a heap dump's objects, references and roots as a reader meets them,
//! by the dump's ids and in any order, made into the `HeapGraph` once the dump has ended.
//! Objects are numbered in ascending id order (of two with one id, the first is kept);
//! references and roots to ids the dump does not hold are dropped and counted.

use crate::profile::chunked::Chunked;
use crate::profile::heap_graph::{HeapGraph, ObjectKind, Objects, PackedVia, References, RootKind, Strength, Via};
use crate::profile::heap_values::{FieldType, Values};
use crate::profile::tree::NONE;

/// What the sink dropped making the graph.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct GraphDrops {
    /// References to ids the dump holds no object of.
    pub dangling_references: u64,
    /// GC roots of ids the dump holds no object of.
    pub dangling_roots: u64,
    /// Objects whose id an earlier object had.
    pub duplicate_objects: u64,
}

#[derive(Debug, Default)]
pub(crate) struct HeapGraphSink {
    heaps: Vec<String>,
    classes: Vec<String>,
    names: Vec<String>,
    ids: Chunked<u64>,
    class: Chunked<u32>,
    heap: Chunked<u8>,
    /// Sizes below 4 GiB; `u32::MAX` for the others, which `large` holds by object.
    shallow: Chunked<u32>,
    large: Vec<(u32, u64)>,
    kind: Chunked<ObjectKind>,
    /// Where each object's references begin in the three columns below.
    first_reference: Chunked<u32>,
    target: Chunked<u64>,
    strength: Chunked<Strength>,
    via: Chunked<PackedVia>,
    roots: Vec<(u64, RootKind)>,
    /// Each class's superclass, by class number (`NONE` for none).
    superclass: Vec<u32>,
    /// The class each name is a field or static of.
    name_class: Vec<u32>,
    /// Ids of activities whose `mDestroyed` is true.
    destroyed: Vec<u64>,
    /// Each object's values (`heap_values`), one after another, and where each begins.
    values: Chunked<u8>,
    value_start: Chunked<u32>,
    /// Each class's own instance fields, by class number.
    fields: Vec<Vec<(u32, FieldType)>>,
    field_values: bool,
}

impl HeapGraphSink {
    /// The number of heap `name`, made on its first use.
    pub fn heap(&mut self, name: &str) -> u8 {
        match self.heaps.iter().position(|h| h == name) {
            Some(at) => at as u8,
            None => {
                self.heaps.push(name.to_owned());
                (self.heaps.len() - 1) as u8
            }
        }
    }

    /// A new class's number.
    pub fn class(&mut self, name: String) -> u32 {
        self.classes.push(name);
        self.superclass.push(NONE);
        self.fields.push(Vec::new());
        (self.classes.len() - 1) as u32
    }

    /// Class `class` extends `superclass`.
    pub fn superclass(&mut self, class: u32, superclass: u32) {
        self.superclass[class as usize] = superclass;
    }

    /// Class `class`'s own instance fields, in the order of their values: name and type.
    pub fn fields(&mut self, class: u32, fields: Vec<(u32, FieldType)>) {
        self.fields[class as usize] = fields;
    }

    /// More of the last object's values: an instance's primitive fields' bytes, or a
    /// primitive array's first bytes then the hash of its contents (`heap_values`).
    pub fn values(&mut self, bytes: &[u8]) {
        self.values.extend(bytes);
    }

    /// The dump records its objects' primitive values (which `values` then gives).
    pub fn records_field_values(&mut self) {
        self.field_values = true;
    }

    /// The text of field name `name`.
    pub fn name_text(&self, name: u32) -> &str {
        &self.names[name as usize]
    }

    /// The last object is an activity that was destroyed.
    pub fn destroyed(&mut self) {
        if let Some(id) = self.ids.last() {
            self.destroyed.push(id);
        }
    }

    /// A new field name's number (for `Via::Field`): a field or static of class `class`.
    pub fn name(&mut self, name: String, class: u32) -> u32 {
        self.names.push(name);
        self.name_class.push(class);
        (self.names.len() - 1) as u32
    }

    /// An object; the references that follow, up to the next object, are its own.
    pub fn object(&mut self, id: u64, class: u32, heap: u8, shallow: u64, kind: ObjectKind) {
        self.ids.push(id);
        self.class.push(class);
        self.heap.push(heap);
        match u32::try_from(shallow) {
            Ok(small) if small < u32::MAX => self.shallow.push(small),
            _ => {
                self.large.push((self.shallow.len() as u32, shallow));
                self.shallow.push(u32::MAX);
            }
        }
        self.kind.push(kind);
        self.first_reference.push(self.target.len() as u32);
        self.value_start.push(self.values.len() as u32);
    }

    /// A reference of the last object to the object of id `target`.
    pub fn reference(&mut self, target: u64, strength: Strength, via: Via) {
        self.target.push(target);
        self.strength.push(strength);
        self.via.push(via.into());
    }

    /// The object of id `id` is a GC root of this kind.
    pub fn root(&mut self, id: u64, kind: RootKind) {
        self.roots.push((id, kind));
    }

    /// Whether no object has been written.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// This sink with `later`, fed what came after: a dump read in both parts is refused
    /// (classes and names are numbered per sink).
    pub(super) fn merge(&mut self, later: HeapGraphSink) -> crate::error::Result<()> {
        if !self.is_empty() && !later.is_empty() {
            return Err(crate::error::Error::new(
                crate::error::ErrorKind::Unsupported,
                "a heap dump read in two parts cannot be merged yet",
            ));
        }
        if self.is_empty() {
            *self = later;
        }
        Ok(())
    }

    /// The graph, analysed, and what was dropped making it; `None` without objects.
    pub fn finish(mut self) -> (Option<HeapGraph>, GraphDrops) {
        let mut drops = GraphDrops::default();
        if self.ids.is_empty() {
            drops.dangling_roots = self.roots.len() as u64;
            return (None, drops);
        }
        self.first_reference.push(self.target.len() as u32);
        // Ascending ids, the first of equal ones kept.
        let mut order: Vec<u32> = (0..self.ids.len() as u32).collect();
        // Dumps mostly come in id order already: then nothing is sorted. A stable sort keeps
        // the first of equal ids first, and finds the runs that are in order.
        if !order.is_sorted_by_key(|&i| self.ids.get(i as usize)) {
            order.sort_by_key(|&i| self.ids.get(i as usize));
        }
        order.dedup_by_key(|i| self.ids.get(*i as usize));
        drops.duplicate_objects = (self.ids.len() - order.len()) as u64;
        // Each column is let go once it is in id order: a dump's peak memory is the sum of
        // what is alive at once (and a wasm heap never shrinks).
        fn in_order<T: Copy>(order: &[u32], column: &mut Chunked<T>) -> Vec<T> {
            let sorted = order.iter().map(|&i| column.get(i as usize)).collect();
            *column = Chunked::default();
            sorted
        }
        let values = self.values_in_order(&order);
        let large: Vec<(u64, u32, u64)> = std::mem::take(&mut self.large)
            .into_iter()
            .map(|(at, size)| (self.ids.get(at as usize), at, size))
            .collect();
        let mut objects = Objects {
            class: in_order(&order, &mut self.class),
            heap: in_order(&order, &mut self.heap),
            small: in_order(&order, &mut self.shallow),
            large: Vec::new(),
            kind: in_order(&order, &mut self.kind),
            ids: in_order(&order, &mut self.ids),
        };
        for (id, at, size) in large {
            match objects.ids.binary_search(&id) {
                Ok(v) if order[v] == at => objects.large.push((v as u32, size)),
                _ => {}
            }
        }
        objects.large.sort_unstable();
        let ids = &objects.ids;
        let number = |id: u64| ids.binary_search(&id).ok().map(|at| at as u32);
        let edges = self.target.len() + self.roots.len();
        let mut references = References {
            first: Vec::with_capacity(order.len() + 2),
            target: Vec::with_capacity(edges),
            strength: Vec::with_capacity(edges),
            via: Vec::with_capacity(edges),
        };
        references.first.push(0);
        for &i in &order {
            let range =
                self.first_reference.get(i as usize) as usize..self.first_reference.get(i as usize + 1) as usize;
            for e in range {
                match number(self.target.get(e)) {
                    Some(to) => {
                        references.target.push(to);
                        references.strength.push(self.strength.get(e));
                        references.via.push(self.via.get(e));
                    }
                    None => drops.dangling_references += 1,
                }
            }
            references.first.push(references.target.len() as u32);
        }
        (self.target, self.strength, self.via, self.first_reference) = Default::default();
        drop(order);
        // The super-root holds every root object once, in ascending id order.
        let mut roots: Vec<(u32, u32)> = Vec::new();
        let mut root_records = [0u64; RootKind::ALL.len()];
        self.roots.iter().for_each(|&(_, kind)| root_records[kind as usize] += 1);
        self.roots.sort_by_key(|&(id, _)| id);
        for (id, kind) in self.roots {
            match number(id) {
                Some(object) if roots.last().is_some_and(|&(last, _)| last == object) => {
                    roots.last_mut().expect("a root").1 |= kind.bit();
                }
                Some(object) => roots.push((object, kind.bit())),
                None => drops.dangling_roots += 1,
            }
        }
        for (at, &(object, _)) in roots.iter().enumerate() {
            references.target.push(object);
            references.strength.push(Strength::Strong);
            references.via.push(Via::Element(at as u32).into());
        }
        references.first.push(references.target.len() as u32);
        let mut destroyed: Vec<u32> = self.destroyed.iter().filter_map(|&id| number(id)).collect();
        destroyed.sort_unstable();
        destroyed.dedup();
        let mut graph = HeapGraph::new(self.heaps, self.classes, self.names, objects, references, roots);
        graph.superclass = self.superclass;
        graph.root_records = root_records;
        graph.name_class = self.name_class;
        graph.destroyed = destroyed;
        graph.values = values;
        graph.fields = self.fields;
        graph.field_values = self.field_values;
        (Some(graph), drops)
    }

    /// The objects' values in `order`, letting the sink's go (chunked as they were, so that
    /// they take the memory the sink's columns leave rather than more).
    fn values_in_order(&mut self, order: &[u32]) -> Values {
        self.value_start.push(self.values.len() as u32);
        let mut values = Values { bytes: Chunked::default(), start: Vec::with_capacity(order.len() + 1) };
        let start = |i: u32| self.value_start.get(i as usize) as usize;
        // Objects that follow one another in the dump follow one another here too (most
        // do): their values are copied as one run.
        let mut rest = order;
        while let Some(&first) = rest.first() {
            let run = rest.iter().zip(first..).take_while(|&(&i, next)| i == next).count();
            let (base, from) = (values.bytes.len(), start(first));
            values.start.extend(rest[..run].iter().map(|&i| (base + start(i) - from) as u32));
            self.values.slices(from..start(first + run as u32)).for_each(|slice| values.bytes.extend(slice));
            rest = &rest[run..];
        }
        values.start.push(values.bytes.len() as u32);
        (self.values, self.value_start) = Default::default();
        values
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_are_numbered_by_id_and_what_points_nowhere_is_dropped() {
        let mut sink = HeapGraphSink::default();
        let app = sink.heap("app");
        assert_eq!((sink.heap("zygote"), sink.heap("app")), (1, app));
        let class = sink.class("com.example.Holder".into());
        let field = sink.name("held".into(), class);
        // Given out of order: 0x30 holds 0x10 and an id the dump lacks; 0x10 comes twice.
        sink.object(0x30, class, app, 24, ObjectKind::Instance);
        sink.reference(0x10, Strength::Strong, Via::Field(field));
        sink.reference(0x99, Strength::Strong, Via::Field(field));
        sink.object(0x10, class, app, 16, ObjectKind::Instance);
        sink.object(0x20, class, 1, 8, ObjectKind::PrimitiveArray);
        sink.object(0x10, class, app, 1000, ObjectKind::Instance);
        sink.root(0x30, RootKind::JniGlobal);
        sink.root(0x30, RootKind::StickyClass);
        sink.root(0x98, RootKind::JavaFrame);
        let (graph, drops) = sink.finish();
        let graph = graph.expect("objects");
        assert_eq!(drops, GraphDrops { dangling_references: 1, dangling_roots: 1, duplicate_objects: 1 });
        assert_eq!(graph.objects.ids, [0x10, 0x20, 0x30]);
        assert_eq!((0..3).map(|v| graph.objects.shallow(v)).collect::<Vec<_>>(), [16, 8, 24], "the first 0x10 is kept");
        assert_eq!(graph.objects.heap, [0, 1, 0]);
        assert_eq!(graph.roots, [(2, RootKind::JniGlobal.bit() | RootKind::StickyClass.bit())]);
        assert_eq!(graph.references.first, [0, 0, 0, 1, 2]);
        assert_eq!(graph.references.target, [0, 2]);
        assert_eq!(graph.reached.reach, [Some(Strength::Strong), None, Some(Strength::Strong)]);
        assert_eq!(graph.reached.retained, [16, 0, 40]);
        assert_eq!(graph.reached.path_parent[0], (2, Via::Field(field).into()));
    }

    #[test]
    fn an_object_of_4_gib_or_more_keeps_its_size() {
        let mut sink = HeapGraphSink::default();
        let app = sink.heap("app");
        let class = sink.class("long[]".into());
        let huge = 5u64 << 30;
        // Out of id order, and a later duplicate of the huge one that is dropped.
        sink.object(0x20, class, app, huge, ObjectKind::PrimitiveArray);
        sink.object(0x10, class, app, u64::from(u32::MAX), ObjectKind::PrimitiveArray);
        sink.object(0x20, class, app, 8, ObjectKind::PrimitiveArray);
        sink.root(0x20, RootKind::JniGlobal);
        let (graph, _) = sink.finish();
        let graph = graph.expect("objects");
        assert_eq!([graph.objects.shallow(0), graph.objects.shallow(1)], [u64::from(u32::MAX), huge]);
        assert_eq!(graph.reached.retained[1], huge);
    }

    #[test]
    fn a_dump_without_objects_has_no_graph() {
        let mut sink = HeapGraphSink::default();
        sink.root(0x10, RootKind::Unknown);
        let (graph, drops) = sink.finish();
        assert!(graph.is_none());
        assert_eq!(drops.dangling_roots, 1);
    }
}
