//! Java heap dumps in Perfetto traces (`heap_graph` packets): the app heap of
//! `droidflame_testkit::app_heap` written as ART's `perfetto_hprof` writes it gives the
//! model its HPROF gives (whose numbers `heap_dumps.rs` checks by hand and against ahat),
//! however it is split into packets or encoded; bytes written by a script apart from
//! droidflame give the model the schema says; cut, unended and repeated dumps say so.

use droidflame_core::products::{self, FoldedOptions, ObjectQuery};
use droidflame_core::{analyze, Analysis, Analyzer, SourceKind};
use droidflame_testkit::app_heap;
use droidflame_testkit::perfetto::Trace;
use droidflame_testkit::perfetto_heap::{Encoding, HeapGraphWriter, HeapType, TypeKind};

fn summary(p: &Analysis) -> serde_json::Value {
    serde_json::from_str(&products::summary_json(p)).unwrap()
}

fn notes(p: &Analysis) -> Vec<String> {
    let s = summary(p);
    s["notes"].as_array().unwrap().iter().map(|n| n["text"].as_str().unwrap().to_owned()).collect()
}

fn folded(p: &mut Analysis, kind: SourceKind) -> Vec<String> {
    p.profile.select_source(kind).unwrap();
    products::folded(&p.profile, &FoldedOptions::default()).unwrap().lines().map(str::to_owned).collect()
}

/// Everything a dump's products say, but leaks (a heap graph has no field values).
fn products_of(p: &mut Analysis) -> Vec<String> {
    let mut out = vec![summary(p)["heap_dump"].to_string()];
    out.extend(products::heap_classes(&p.profile, None).unwrap().iter().map(|r| format!("{r:?}")));
    out.extend(products::heap_packages(&p.profile, Some("app")).unwrap().iter().map(|r| format!("{r:?}")));
    let objects = products::heap_objects(&p.profile, &ObjectQuery::default()).unwrap();
    for o in &objects {
        out.push(format!("{o:?}"));
        let path = products::heap_path(&p.profile, o.id).unwrap();
        out.push(format!("{:?}", path.iter().map(|s| (s.id, &s.via)).collect::<Vec<_>>()));
    }
    out.extend(folded(p, SourceKind::HeapDominators));
    out.extend(folded(p, SourceKind::HeapPaths));
    out
}

fn encodings() -> Vec<Encoding> {
    let mut all = Vec::new();
    for per_packet in [1, 2, 3, 50] {
        for packed in [true, false] {
            all.push(Encoding { per_packet, packed });
        }
    }
    all
}

#[test]
fn a_heap_graph_gives_the_model_its_hprof_gives_however_it_is_packed() {
    let expected = products_of(&mut analyze(&app_heap::hprof()).unwrap());
    assert!(expected.iter().any(|l| l.contains("com.example.MainActivity")), "the rows are there to compare");
    for encoding in encodings() {
        let mut p = analyze(&app_heap::heap_graph(encoding)).unwrap();
        assert_eq!(products_of(&mut p), expected, "{encoding:?}");
    }
}

#[test]
fn a_heap_graph_s_leaks_fields_and_notes() {
    let p = analyze(&app_heap::heap_graph(Encoding::default())).unwrap();
    let s = summary(&p);
    assert_eq!(s["format"]["description"], "Java heap dump of pid 4242 (Perfetto heap graph)");
    // Without field values the destroyed activity is not known: it leaks as the watched one.
    let leaks = products::heap_leaks(&p.profile).unwrap();
    let leaks: Vec<_> = leaks.iter().map(|l| (l.id, l.retained, l.reason.as_str())).collect();
    assert_eq!(leaks, [(0x1000, 132, "watched"), (0x1001, 12, "detached fragment")]);
    let activity = products::heap_object(&p.profile, 0x1000).unwrap();
    let fields: Vec<_> = activity.fields.iter().map(|f| (f.name.as_str(), f.value.as_str())).collect();
    assert_eq!(fields, [("fragment", "0x1001"), ("data", "0x1006")]);
    let watcher = products::heap_object(&p.profile, 0x1005).unwrap();
    let held: Vec<_> = watcher.references.iter().map(|(via, o)| (via.as_str(), o.id)).collect();
    assert_eq!(held, [(".referent", 0x1000), (".queue", 0x1004)]);
    assert_eq!(
        products::heap_object(&p.profile, 0x1004).unwrap().path.len(),
        2,
        "the queue is strong, the referent not"
    );
    // What an empty leaks list would say names only what such a dump can show.
    let hprof = analyze(&app_heap::hprof()).unwrap();
    assert!(products::no_leaks_words(&hprof.profile).unwrap().contains("no destroyed activity"));
    assert!(products::no_leaks_words(&p.profile)
        .unwrap()
        .ends_with("Destroyed activities cannot be told: the dump records no field values."));
    let notes = notes(&p);
    assert!(notes.iter().any(|n| n.contains("no field values")), "{notes:?}");
    assert!(notes.iter().all(|n| !n.contains("incomplete")), "{notes:?}");
}

#[test]
fn any_chunking_reads_the_same_heap_graph() {
    let bytes = app_heap::heap_graph(Encoding::default());
    let whole = products::summary_json(&analyze(&bytes).unwrap());
    for size in [1, 5, 64] {
        let mut analyzer = Analyzer::default();
        bytes.chunks(size).for_each(|chunk| analyzer.push(chunk).unwrap());
        assert_eq!(products::summary_json(&analyzer.finish().unwrap()), whole, "chunks of {size}");
    }
}

/// One dump of three objects, written by a Python script from the schema's field numbers
/// alone: instance 0x10 of `com.example.Node` (a Java-frame root, heap app) holds 0x11
/// in `next` (0x11's heap is the one before it; its size its type's, 16); the class object
/// 0x12 (200 bytes, no root) holds 0x10 in its static `head`. Types and field names come
/// after the objects.
const SCRIPT_WRITTEN: &str = "0a990240e8075001c2039002082a3a050a011010034a1808011a106a6176612e6c616e672e4f626a6563\
    74200838014a1f080210011a10636f6d2e6578616d706c652e4e6f64652010280132010138014a27080310011a216a6176612e6c616e67\
    2e436c6173733c636f6d2e6578616d706c652e4e6f64653e1209081010022a011148011207380110022a0100120d3801100318c8012201\
    022a011042220801121e2f646174612f6170702f636f6d2e6578616d706c652f626173652e61706b222a08011226636f6d2e6578616d70\
    6c652e4e6f646520636f6d2e6578616d706c652e4e6f64652e6e657874222a08021226636f6d2e6578616d706c652e4e6f646520636f6d\
    2e6578616d706c652e4e6f64652e6865616428003000";

#[test]
fn bytes_written_apart_from_droidflame_give_the_model_the_schema_says() {
    let hex = SCRIPT_WRITTEN.as_bytes();
    let bytes: Vec<u8> =
        hex.chunks(2).map(|pair| u8::from_str_radix(std::str::from_utf8(pair).unwrap(), 16).unwrap()).collect();
    assert_eq!(bytes.len(), 284);
    let p = analyze(&bytes).unwrap();
    assert_eq!(
        summary(&p)["heap_dump"],
        serde_json::json!({
            "objects": 2, "bytes": 32, "heaps": [{"name": "app", "objects": 2, "bytes": 32}],
            "roots": {"java-frame": 1}, "unreachable": {"objects": 1, "bytes": 200},
        })
    );
    let objects = products::heap_objects(&p.profile, &ObjectQuery::default()).unwrap();
    let objects: Vec<_> =
        objects.iter().map(|o| (o.id, o.class.as_str(), o.shallow, o.retained, o.dominator)).collect();
    assert_eq!(objects, [(0x10, "com.example.Node", 16, 32, None), (0x11, "com.example.Node", 16, 16, Some(0x10))]);
    let path = products::heap_path(&p.profile, 0x11).unwrap();
    assert_eq!(
        path.iter().map(|s| (s.id, s.via.as_str())).collect::<Vec<_>>(),
        [(0x10, "root:java-frame"), (0x11, ".next")]
    );
    let class_object = products::heap_object(&p.profile, 0x12).unwrap();
    assert_eq!(class_object.object.class, "java.lang.Class<com.example.Node>");
    assert_eq!(class_object.reachability, "unreachable");
    let held: Vec<_> = class_object.references.iter().map(|(via, o)| (via.as_str(), o.id)).collect();
    assert_eq!(held, [(".head", 0x10)]);
}

#[test]
fn a_dump_cut_short_or_never_ended_shows_what_came_and_says_so() {
    let packets = {
        let mut w = HeapGraphWriter::new(9, 5, 1, Encoding { per_packet: 1, packed: true });
        w.class(1, "com.example.Node", 16, 0, TypeKind::Normal, &["next"]);
        w.root(3, &[0x10]);
        for id in 0x10..0x14 {
            w.object(id, 1, None, HeapType::App, None, &[id + 1]);
        }
        w.finish()
    };
    // Without its last packet (the one not `continued`) the dump never ends.
    let unended = analyze(&Trace::of(&packets[..packets.len() - 1]).bytes).unwrap();
    assert_eq!(summary(&unended)["heap_dump"]["objects"], 4);
    assert_eq!(summary(&unended)["repairs"]["truncated"], true);
    let said = notes(&unended);
    assert!(said.iter().any(|n| n.contains("pid 9 at 5 ns never ended")), "{said:?}");
    // Without its second packet 0x11 is missing, and the ids after it, each a step from
    // the one before, cannot be known: those objects are left out, not misplaced.
    let gap: Vec<_> = packets.iter().enumerate().filter(|&(i, _)| i != 1).map(|(_, p)| p.clone()).collect();
    let gap = analyze(&Trace::of(&gap).bytes).unwrap();
    let s = summary(&gap);
    assert_eq!((&s["heap_dump"]["objects"], &s["repairs"]["dangling_references"]), (&1.into(), &1.into()));
    let said = notes(&gap);
    assert!(
        said.iter().any(|n| n.contains("lacks 1 packet") && n.contains("2 objects after a gap gave their ids")),
        "{said:?}"
    );
    // Cut inside a packet: the packets before it are read.
    let bytes = Trace::of(&packets).bytes;
    let cut = analyze(&bytes[..bytes.len() - 20]).unwrap();
    assert_eq!(summary(&cut)["heap_dump"]["objects"], 4);
    assert_eq!(summary(&cut)["repairs"]["truncated"], true);
}

#[test]
fn of_two_dumps_the_first_whole_one_is_read_and_the_other_named() {
    let dump = |pid: u32, sequence: u32, objects: u64| {
        let mut w =
            HeapGraphWriter::new(pid, 1000 * u64::from(pid), sequence, Encoding { per_packet: 1, packed: true });
        w.class(1, "com.example.Node", 16, 0, TypeKind::Normal, &[]);
        w.root(1, &[0x10]);
        for id in 0x10..0x10 + objects {
            w.object(id, 1, None, HeapType::App, None, &[]);
        }
        w.finish()
    };
    // Interleaved, as two processes' dumps come: pid 2's ends first.
    let (first, second) = (dump(1, 1, 3), dump(2, 2, 1));
    let mut packets = vec![first[0].clone(), second[0].clone(), second[1].clone()];
    packets.extend(first[1..].iter().cloned());
    let p = analyze(&Trace::of(&packets).bytes).unwrap();
    assert_eq!(p.profile.facts.format.description, "Java heap dump of pid 2 (Perfetto heap graph)");
    let notes = notes(&p);
    assert!(
        notes.iter().any(|n| n.contains("holds 2 Java heap dumps") && n.contains("not pid 1 at 1,000 ns")),
        "{notes:?}"
    );
}

#[test]
fn objects_of_a_type_the_dump_never_gives_are_kept_and_counted() {
    let mut w = HeapGraphWriter::new(9, 5, 1, Encoding::default());
    w.class(1, "com.example.Node", 16, 0, TypeKind::Normal, &["next"]);
    w.root(3, &[0x10]);
    w.object(0x10, 1, None, HeapType::App, None, &[0x11]);
    w.object(0x11, 77, Some(24), HeapType::App, None, &[]);
    let p = analyze(&Trace::of(&w.finish()).bytes).unwrap();
    let s = summary(&p);
    assert_eq!(s["repairs"]["objects_without_class"], 1);
    let classes = products::heap_classes(&p.profile, None).unwrap();
    let classes: Vec<_> = classes.iter().map(|r| (r.name.as_str(), r.shallow)).collect();
    assert_eq!(classes, [("com.example.Node", 16), ("unknown type 0x4d", 24)]);
}

#[test]
fn damaged_objects_and_packets_are_skipped_or_kept_and_counted() {
    use droidflame_testkit::perfetto::Message;
    let mut graph = Message::new();
    graph.varint(1, 9);
    graph.message(7, Message::new().varint(1, 0x10).varint(2, 3));
    graph.message(9, Message::new().varint(1, 1).bytes(3, b"a.Node").varint(4, 16).varint(7, 1));
    // Two field names for one reference: kept, the reference named by the first.
    graph.message(2, Message::new().varint(1, 0x10).varint(2, 1).packed(4, &[1, 2]).packed(5, &[0x11]));
    // A key without its value: nothing of it can be read.
    graph.bytes(2, &[0x08]);
    graph.message(2, Message::new().varint(1, 0x11).varint(2, 1));
    // Object 0x12 whose ids say they take 3 bytes where 2 are left.
    graph.bytes(2, &[0x08, 0x12, 0x2A, 0x03, 0x01, 0x02]);
    graph.message(4, Message::new().varint(1, 1).bytes(2, b"a.Node a.Node.next"));
    graph.message(4, Message::new().varint(1, 2).bytes(2, b"a.Node a.Node.prev"));
    let mut packet = Message::new();
    packet.varint(8, 5).varint(10, 1).message(56, &graph);
    // Another sequence's heap graph that is no message at all.
    let mut broken = Message::new();
    broken.varint(8, 5).varint(10, 2).bytes(56, &[0xFF]);
    let p = analyze(&Trace::of(&[packet, broken]).bytes).unwrap();
    let s = summary(&p);
    assert_eq!((&s["heap_dump"]["objects"], &s["repairs"]["damaged_parts"]), (&2.into(), &4.into()));
    let path = products::heap_path(&p.profile, 0x11).unwrap();
    assert_eq!(path.iter().map(|s| s.via.as_str()).collect::<Vec<_>>(), ["root:java-frame", ".next"]);
    let said = notes(&p);
    assert!(
        said.iter().any(|n| n.contains("3 objects of the Java heap dump of pid 9 at 5 ns could not be read whole")),
        "{said:?}"
    );
    assert!(said.iter().any(|n| n.contains("1 Java heap-graph packet could not be decoded")), "{said:?}");
}

/// One packet's dump of `graph`'s fields (pid 9 at 5 ns, sequence 1), ended.
fn one_packet(graph: &mut droidflame_testkit::perfetto::Message) -> Vec<u8> {
    use droidflame_testkit::perfetto::Message;
    graph.varint(1, 9);
    let mut packet = Message::new();
    packet.varint(8, 5).varint(10, 1).message(56, graph);
    Trace::of(&[packet]).bytes
}

#[test]
fn references_of_every_kind_of_reference_and_the_runtime_s_own() {
    use droidflame_testkit::perfetto::Message;
    let mut graph = Message::new();
    // Each kind of `java.lang.ref.Reference`, holding an object of its own in `referent`.
    graph.message(9, Message::new().varint(1, 1).bytes(3, b"java.lang.Object").varint(4, 8).varint(7, 1));
    graph.message(
        9,
        Message::new()
            .varint(1, 2)
            .bytes(3, b"java.lang.ref.Reference")
            .varint(4, 16)
            .varint(5, 1)
            .packed(6, &[1])
            .varint(7, 1),
    );
    let kinds = [
        (3, "java.lang.ref.SoftReference", 8),
        (4, "java.lang.ref.FinalizerReference", 10),
        (5, "java.lang.ref.PhantomReference", 11),
    ];
    for (id, name, kind) in kinds {
        graph.message(
            9,
            Message::new().varint(1, id).bytes(3, name.as_bytes()).varint(4, 16).varint(5, 2).varint(7, kind),
        );
    }
    graph.message(4, Message::new().varint(1, 1).bytes(2, b"java.lang.Object java.lang.ref.Reference.referent"));
    let holders = [(0x10, 3, 0x20), (0x11, 4, 0x21), (0x12, 5, 0x22)];
    graph.message(7, Message::new().packed(1, &[0x10, 0x11, 0x12, 0x30]).varint(2, 1));
    for (holder, kind, held) in holders {
        graph.message(2, Message::new().varint(1, holder).varint(2, kind).packed(5, &[held]));
        graph.message(2, Message::new().varint(1, held).varint(2, 1));
    }
    // The runtime's own references (no field), and unknown fixed-size fields skipped.
    let mut runtime = Message::new();
    runtime.varint(1, 0x30).varint(2, 1).packed(10, &[0x31, 0]).double(20, 1.5);
    runtime.0.extend([0xAD, 0x01, 1, 2, 3, 4]);
    graph.message(2, &runtime);
    graph.message(2, Message::new().varint(1, 0x31).varint(2, 1));
    let p = analyze(&one_packet(&mut graph)).unwrap();
    let reach = |id| products::heap_object(&p.profile, id).unwrap().reachability;
    assert_eq!([reach(0x20), reach(0x21), reach(0x22)], ["soft", "finalizer", "phantom"]);
    let path = products::heap_path(&p.profile, 0x31).unwrap();
    assert_eq!(path.iter().map(|s| s.via.as_str()).collect::<Vec<_>>(), ["root:jni-global", ".runtimeInternalObjects"]);
    assert_eq!(summary(&p)["repairs"]["damaged_parts"], serde_json::Value::Null, "nothing was damaged");
}

#[test]
fn a_superclass_loop_a_heap_past_the_known_and_a_field_past_its_object_end_safely() {
    use droidflame_testkit::perfetto::Message;
    let mut graph = Message::new();
    // Types 1 and 2 each other's superclass: names by position stop where the loop is cut.
    graph.message(
        9,
        Message::new().varint(1, 1).bytes(3, b"a.A").varint(4, 16).varint(5, 2).packed(6, &[1]).varint(7, 1),
    );
    graph.message(
        9,
        Message::new().varint(1, 2).bytes(3, b"a.B").varint(4, 16).varint(5, 1).packed(6, &[2]).varint(7, 1),
    );
    graph.message(4, Message::new().varint(1, 1).bytes(2, b"a.A a.A.first"));
    graph.message(4, Message::new().varint(1, 2).bytes(2, b"a.B a.B.second"));
    graph.message(7, Message::new().packed(1, &[0x10]).varint(2, 3));
    // Heap type 4, which no recorder writes: the default heap.
    graph.message(2, Message::new().varint(1, 0x10).varint(2, 1).packed(5, &[0x11, 0x12]).varint(9, 4));
    graph.message(2, Message::new().varint(1, 0x11).varint(2, 2));
    graph.message(2, Message::new().varint(1, 0x12).varint(2, 2));
    // A reference list longer than the object holding it: damaged, left out.
    graph.bytes(2, &[0x08, 0x13, 0x2A, 0x05, 0x01]);
    let p = analyze(&one_packet(&mut graph)).unwrap();
    let s = summary(&p);
    assert_eq!(s["heap_dump"]["heaps"], serde_json::json!([{"name": "default", "objects": 3, "bytes": 48}]));
    assert_eq!(s["repairs"]["damaged_parts"], 1);
    let held = products::heap_object(&p.profile, 0x10).unwrap().references;
    assert_eq!(
        held.iter().map(|(via, o)| (via.as_str(), o.id)).collect::<Vec<_>>(),
        [(".first", 0x11), (".second", 0x12)]
    );
}

/// A Java heap dump beside other data: the trace's note on what it read names the dump
/// with its pid and how many objects it gave (a trace of the dump alone has no such note).
#[test]
fn a_heap_graph_beside_a_heap_profile_is_named_with_its_objects() {
    use droidflame_testkit::perfetto_profiling::{heap_dump, CodeFrame, CodeInterner, HeapDumpSpec, HeapRow};
    let mut code = CodeInterner::new(0);
    let mut index = 0;
    let spec = HeapDumpSpec {
        pid: 7,
        heap: Some("malloc".to_owned()),
        ts: 1_000_000,
        rows: vec![(
            vec![CodeFrame::function("main", "/lib/libc.so"), CodeFrame::function("malloc", "/lib/libc.so")],
            HeapRow { allocated: 64, freed: 0, allocations: 1, frees: 0 },
        )],
    };
    let mut bytes = Trace::of(&heap_dump(9, &mut code, &[spec], 1, &mut index)).bytes;
    let alone = analyze(&app_heap::heap_graph(Encoding::default())).unwrap();
    assert!(notes(&alone).iter().all(|n| !n.contains("droidflame read its")), "{:?}", notes(&alone));
    bytes.extend(app_heap::heap_graph(Encoding::default()));
    let p = analyze(&bytes).unwrap();
    let objects = summary(&alone)["heap_dump"]["objects"].as_u64().unwrap()
        + summary(&alone)["heap_dump"]["unreachable"]["objects"].as_u64().unwrap();
    let named = format!("Java heap dump of pid 4242 ({objects} objects; the heap-dominators and heap-paths sources)");
    let notes = notes(&p);
    assert!(
        notes.iter().any(|n| n.contains("1 heap dump (the heap-unreleased") && n.contains(&named)),
        "{named} in {notes:?}"
    );
}

/// Sizes of 4 GiB and more (a heap graph gives any size) are kept whole; of an object given
/// twice, the first is kept with its own size, whatever the other's.
#[test]
fn sizes_past_four_gib_are_kept_and_an_object_given_twice_keeps_its_first() {
    const GIB: u64 = 1 << 30;
    let mut w = HeapGraphWriter::new(9, 5, 1, Encoding::default());
    w.class(1, "com.example.Huge", 16, 0, TypeKind::Normal, &[]);
    w.root(3, &[0x10, 0x11, 0x12]);
    w.object(0x10, 1, Some(5 * GIB), HeapType::App, None, &[]);
    w.object(0x11, 1, Some(u64::from(u32::MAX)), HeapType::App, None, &[]);
    w.object(0x12, 1, Some(32), HeapType::App, None, &[]);
    w.object(0x10, 1, Some(6 * GIB), HeapType::App, None, &[]);
    let p = analyze(&Trace::of(&w.finish()).bytes).unwrap();
    assert_eq!(summary(&p)["repairs"]["duplicate_objects"], 1);
    let shallow = |id| products::heap_object(&p.profile, id).unwrap().object.shallow;
    assert_eq!([shallow(0x10), shallow(0x11), shallow(0x12)], [5 * GIB, u64::from(u32::MAX), 32]);
    assert_eq!(summary(&p)["heap_dump"]["bytes"], 5 * GIB + u64::from(u32::MAX) + 32);
}
