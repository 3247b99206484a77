//! A heap dump's classes: for each class name, its strongly reachable instances, their
//! bytes, and the bytes they retain together (the retained sizes of the instances that no
//! other instance of the class dominates). Class objects count under `java.lang.Class`.

use crate::profile::{adjacency, HeapGraph, ObjectKind};
use rustc_hash::FxHashMap;

/// What a class holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassRow {
    /// The class's name (`java.lang.Class` for class objects).
    pub name: String,
    /// Its strongly reachable instances.
    pub count: u64,
    /// Their bytes.
    pub shallow: u64,
    /// The bytes they keep alive together.
    pub retained: u64,
}

/// Every class with a strongly reachable instance (in heap `heap`, where one is given), by
/// retained bytes, largest first, then by name; with `by_package`, every package instead
/// (`java.util` of `java.util.HashMap$Node[]`; primitive arrays in the package ``).
pub(crate) fn class_rows(graph: &HeapGraph, heap: Option<u8>, by_package: bool) -> Vec<ClassRow> {
    let objects = &graph.objects;
    let n = graph.len();
    // Each class's row, found by name once per class (classes of one name share a row),
    // not once per object; class objects share `java.lang.Class`'s.
    let mut row_of_name: FxHashMap<String, u32> = FxHashMap::default();
    let mut rows: Vec<ClassRow> = Vec::new();
    let mut row_of_class = vec![u32::MAX; graph.classes.len()];
    let mut class_objects_row = u32::MAX;
    let mut row_named = |name: &str, rows: &mut Vec<ClassRow>| -> u32 {
        let key = if by_package { package(name) } else { name };
        if let Some(&row) = row_of_name.get(key) {
            return row;
        }
        rows.push(ClassRow { name: key.to_owned(), count: 0, shallow: 0, retained: 0 });
        row_of_name.insert(key.to_owned(), (rows.len() - 1) as u32);
        (rows.len() - 1) as u32
    };
    let mut row_of = vec![u32::MAX; n];
    for (v, row_slot) in row_of.iter_mut().enumerate() {
        if !graph.is_strong(v) || heap.is_some_and(|h| objects.heap[v] != h) {
            continue;
        }
        let row = match objects.kind[v] {
            ObjectKind::Class => {
                if class_objects_row == u32::MAX {
                    class_objects_row = row_named("java.lang.Class", &mut rows);
                }
                class_objects_row
            }
            _ => {
                let class = objects.class[v] as usize;
                if row_of_class[class] == u32::MAX {
                    row_of_class[class] = row_named(&graph.classes[class], &mut rows);
                }
                row_of_class[class]
            }
        };
        *row_slot = row;
        rows[row as usize].count += 1;
        rows[row as usize].shallow += objects.shallow(v);
    }
    // The dominator tree's children, the super-root's (n) last; then one walk down it that
    // knows how many instances of each row are open above the current object.
    let parent = |v: usize| match graph.reached.dominator[v] {
        u32::MAX => n as u32,
        d => d,
    };
    let strong = (0..n).filter(|&v| graph.reached.reach[v] == Some(crate::profile::Strength::Strong));
    let (first, children) = adjacency(n + 1, strong.map(|v| (parent(v), v as u32)));
    let mut open = vec![0u32; rows.len()];
    let mut stack: Vec<(usize, u32)> = vec![(n, first[n])];
    while let Some(&mut (v, ref mut next)) = stack.last_mut() {
        if *next == first[v + 1] {
            stack.pop();
            if v < n && row_of[v] != u32::MAX {
                open[row_of[v] as usize] -= 1;
            }
            continue;
        }
        let w = children[*next as usize] as usize;
        *next += 1;
        if row_of[w] != u32::MAX {
            let row = row_of[w] as usize;
            if open[row] == 0 {
                rows[row].retained += graph.reached.retained[w];
            }
            open[row] += 1;
        }
        stack.push((w, first[w]));
    }
    rows.sort_by(|a, b| b.retained.cmp(&a.retained).then_with(|| a.name.cmp(&b.name)));
    rows
}

/// A class's package: its element's, for an array class; `` for primitives and classes in
/// no package.
fn package(class: &str) -> &str {
    let element = class.trim_end_matches("[]");
    element.rfind('.').map_or("", |dot| &element[..dot])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::{HeapGraphSink, RootKind, Strength, Via};

    #[test]
    fn a_class_retains_what_its_outermost_instances_retain() {
        // A root list node 0x10 holds node 0x20, which holds node 0x30 and a byte[] 0x40;
        // the class object 0x50 (a root) holds 0x30 too. Nodes are 16 bytes, the array 100.
        let mut sink = HeapGraphSink::default();
        let heap = sink.heap("app");
        let node = sink.class("Node".into());
        let bytes = sink.class("byte[]".into());
        let next = sink.name("next".into(), node);
        sink.object(0x10, node, heap, 16, ObjectKind::Instance);
        sink.reference(0x20, Strength::Strong, Via::Field(next));
        sink.object(0x20, node, heap, 16, ObjectKind::Instance);
        sink.reference(0x30, Strength::Strong, Via::Field(next));
        sink.reference(0x40, Strength::Strong, Via::Field(next));
        sink.object(0x30, node, heap, 16, ObjectKind::Instance);
        sink.object(0x40, bytes, heap, 100, ObjectKind::PrimitiveArray);
        sink.object(0x50, node, heap, 8, ObjectKind::Class);
        sink.reference(0x30, Strength::Strong, Via::Field(next));
        sink.root(0x10, RootKind::JniGlobal);
        sink.root(0x50, RootKind::StickyClass);
        let graph = sink.finish().0.expect("objects");
        let row = |name: &str, count, shallow, retained| ClassRow { name: name.into(), count, shallow, retained };
        // Node: 0x10 retains 0x20 and the array (0x30 is held by the class too): 132; 0x20
        // is under 0x10, so not counted again; 0x30 is dominated by the super-root: 16.
        assert_eq!(
            class_rows(&graph, None, false),
            [row("Node", 3, 48, 148), row("byte[]", 1, 100, 100), row("java.lang.Class", 1, 8, 8)]
        );
        assert_eq!(class_rows(&graph, Some(1), false), []);
        // Node and byte[] are in no package; java.lang.Class's object in java.lang.
        assert_eq!(class_rows(&graph, None, true), [row("", 4, 148, 148), row("java.lang", 1, 8, 8)]);
    }
}
