//! The shared dumps read into heap graphs, against what AOSP's ahat computes on them with
//! strong references alone: reachable objects and bytes by heap, unreachable ones, and the
//! largest retainers with their dominators.

use super::framing::Framing;
use super::graph::GraphReader;
use crate::feed::ChunkFeeder;
use crate::profile::{HeapGraphSink, Strength};

/// Reachable objects and bytes, by heap name; then unreachable objects and bytes.
type Totals = (Vec<(String, u64, u64)>, (u64, u64));
/// An object's id, shallow and retained bytes, and its immediate dominator's id (`None`:
/// the super-root).
type Retainer = (u64, u64, u64, Option<u64>);

/// A dump's totals, and its two largest retainers.
fn totals(file: &str) -> (Totals, Vec<Retainer>) {
    let bytes = droidflame_testkit::corpus_file(&format!("hprof/{file}"));
    let mut framing = Framing::new();
    let mut feeder = ChunkFeeder::default();
    let mut reader = GraphReader::default();
    let mut sink = HeapGraphSink::default();
    feeder
        .push(&bytes, |data, offset| framing.decode(data, offset, &mut |piece| reader.piece(&mut sink, piece)))
        .unwrap();
    reader.finish(&mut sink);
    let (graph, drops) = sink.finish();
    let graph = graph.expect("objects");
    assert_eq!((drops.dangling_references, drops.duplicate_objects), (0, 0), "{file}: {drops:?}");
    let objects = &graph.objects;
    let mut heaps: Vec<(String, u64, u64)> = graph.heaps.iter().map(|h| (h.clone(), 0, 0)).collect();
    let mut unreachable = (0, 0);
    for i in 0..graph.len() {
        match graph.reached.reach[i] {
            Some(Strength::Strong) => {
                heaps[objects.heap[i] as usize].1 += 1;
                heaps[objects.heap[i] as usize].2 += objects.shallow(i);
            }
            None => {
                unreachable.0 += 1;
                unreachable.1 += objects.shallow(i);
            }
            Some(_) => {}
        }
    }
    heaps.sort();
    let mut top: Vec<usize> = (0..graph.len()).collect();
    top.sort_by_key(|&i| (std::cmp::Reverse(graph.reached.retained[i]), objects.ids[i]));
    let dominator = |i: usize| {
        let d = graph.reached.dominator[i];
        (d != u32::MAX).then(|| objects.ids[d as usize])
    };
    let top = top[..2]
        .iter()
        .map(|&i| (objects.ids[i], objects.shallow(i), graph.reached.retained[i], dominator(i)))
        .collect();
    ((heaps, unreachable), top)
}

#[test]
fn the_shared_dumps_reach_what_ahat_reaches() {
    if !droidflame_testkit::corpus_present("hprof graph") {
        return;
    }
    let (totals_binder, top_binder) = totals("leakcanary-leak_service_binder.hprof");
    assert_eq!(
        totals_binder,
        (vec![("app".to_owned(), 3_109, 161_982), ("zygote".to_owned(), 40_956, 2_441_330)], (347, 51_420))
    );
    let (totals_ignored, top_ignored) = totals("leakcanary-leak_service_binder_ignored.hprof");
    assert_eq!(
        totals_ignored,
        (vec![("app".to_owned(), 2_685, 147_770), ("zygote".to_owned(), 40_964, 2_441_534)], (198, 9_467))
    );
    // `java.lang.Class<android.content.res.Resources>`, a root, and the array it holds.
    let top = vec![(0xb0cc6c78, 206, 252_694, None), (0xb0d4da78, 8, 249_880, Some(0xb0cc6c78))];
    assert_eq!(top_binder, top);
    assert_eq!(top_ignored, top);
}

/// A dump as HotSpot writes one (8-byte ids, no heap names): a holder whose `MyWeak`
/// (a `WeakReference` subclass) holds one object weakly and one strongly; a class whose
/// static holds an array; an instance dumped before its class.
fn built_dump() -> Vec<u8> {
    use droidflame_testkit::hprof::{HprofWriter, Value::*};
    let mut w = HprofWriter::new(8);
    let names = [
        (0x100, "java/lang/Object"),
        (0x101, "java/lang/Class"),
        (0x102, "java/lang/ref/Reference"),
        (0x103, "java/lang/ref/WeakReference"),
        (0x105, "com/example/MyWeak"),
        (0x106, "com/example/Holder"),
        (0x107, "[B"),
        (0x108, "[Lcom/example/Holder;"),
        (0x109, "com/example/Late"),
    ];
    names.iter().for_each(|&(id, name)| w.load_class(id, name));
    // The instance of `Late` comes before `Late`'s class dump.
    w.instance(0x1007, 0x109, &[Object(0x1005)]);
    w.class_dump(0x100, 0, 0, &[], &[]);
    w.class_dump(0x101, 0x100, 100, &[], &[]);
    w.class_dump(0x102, 0x100, 16, &[], &[("referent", 2), ("queue", 2)]);
    w.class_dump(0x103, 0x102, 16, &[], &[]);
    w.class_dump(0x105, 0x103, 24, &[], &[("extra", 2)]);
    w.class_dump(0x106, 0x100, 12, &[("all", Object(0x1004)), ("count", Int(3))], &[("a", 2), ("n", 10)]);
    w.class_dump(0x107, 0x100, 0, &[], &[]);
    w.class_dump(0x108, 0x100, 0, &[], &[]);
    w.class_dump(0x109, 0x100, 8, &[], &[("x", 2)]);
    w.instance(0x1000, 0x106, &[Object(0x1001), Int(5)]);
    // Own field first (`extra`), then `Reference`'s (`referent`, `queue`).
    w.instance(0x1001, 0x105, &[Object(0x1003), Object(0x1002), Object(0)]);
    w.instance(0x1002, 0x106, &[Object(0), Int(0)]);
    w.instance(0x1003, 0x106, &[Object(0), Int(0)]);
    w.object_array(0x1004, 0x108, &[0x1000, 0, 0x1005]);
    w.instance(0x1005, 0x106, &[Object(0x1006), Int(1)]);
    w.byte_array(0x1006, &[7; 10]);
    w.root(0x05, 0x106);
    w.root(0x01, 0x1000);
    w.root(0x03, 0x1007);
    w.finish()
}

#[test]
fn a_built_dump_with_eight_byte_ids_is_read_as_its_objects_say() {
    let bytes = built_dump();
    for chunk in [1, 5, bytes.len()] {
        let mut framing = Framing::new();
        let mut feeder = ChunkFeeder::default();
        let mut reader = GraphReader::default();
        let mut sink = HeapGraphSink::default();
        for piece in bytes.chunks(chunk) {
            feeder
                .push(piece, |data, offset| framing.decode(data, offset, &mut |p| reader.piece(&mut sink, p)))
                .unwrap();
        }
        reader.finish(&mut sink);
        let (graph, drops) = sink.finish();
        let g = graph.expect("objects");
        assert_eq!((drops.dangling_references, drops.duplicate_objects), (0, 0));
        assert_eq!(g.heaps, ["default"]);
        let at = |id: u64| g.objects.ids.binary_search(&id).expect("an object");
        let reach = |id: u64| g.reached.reach[at(id)];
        let strong = Some(Strength::Strong);
        for id in [0x106, 0x1000, 0x1001, 0x1003, 0x1004, 0x1005, 0x1006, 0x1007] {
            assert_eq!(reach(id), strong, "0x{id:x}");
        }
        assert_eq!(reach(0x1002), Some(Strength::Weak), "held by a WeakReference subclass's referent");
        assert_eq!(reach(0x100), None, "no reference leads to a class but a root or a static");
        let shallow = |id: u64| g.objects.shallow(at(id));
        // A class object: java.lang.Class's instance size and its statics (an id and an int).
        assert_eq!([shallow(0x106), shallow(0x1004), shallow(0x1006), shallow(0x1001)], [112, 24, 10, 24]);
        let retained = |id: u64| g.reached.retained[at(id)];
        // 0x1000 keeps its MyWeak and what that holds strongly, not the weakly held 0x1002.
        assert_eq!([retained(0x1000), retained(0x106), retained(0x1005), retained(0x1007)], [48, 136, 22, 8]);
        let dominator = |id: u64| g.objects.ids.get(g.reached.dominator[at(id)] as usize).copied();
        assert_eq!([dominator(0x1004), dominator(0x1006), dominator(0x1005)], [Some(0x106), Some(0x1005), None]);
        // 0x1005 is first met through the Java frame's `Late`, not the static's array.
        let (parent, via) = g.reached.path_parent[at(0x1005)];
        assert_eq!(g.objects.ids[parent as usize], 0x1007);
        assert!(matches!(via.get(), crate::profile::Via::Field(name) if g.names[name as usize] == "x"));
    }
}
