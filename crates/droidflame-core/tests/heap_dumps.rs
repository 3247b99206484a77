//! Heap dumps read whole: the shared dumps against what AOSP's ahat computes and their
//! SOURCES.md facts, and a dump built here whose every number is worked out by hand below
//! (sizes, dominators, retained bytes, paths, leaks, the two stack sources).

use droidflame_core::products::{self, FoldedOptions, ObjectQuery};
use droidflame_core::{analyze, Analysis, Analyzer, SourceKind};
use droidflame_testkit::hprof::{HprofWriter, Value::*};
use droidflame_testkit::{corpus_file, corpus_present};

const BINDER: &str = "hprof/leakcanary-leak_service_binder.hprof";
const IGNORED: &str = "hprof/leakcanary-leak_service_binder_ignored.hprof";

fn summary(p: &Analysis) -> serde_json::Value {
    serde_json::from_str(&products::summary_json(p)).unwrap()
}

/// The app heap of `droidflame_testkit::app_heap`, as HPROF; its numbers are worked out
/// there.
fn app_dump() -> Vec<u8> {
    droidflame_testkit::app_heap::hprof()
}

#[test]
fn a_built_dump_gives_the_numbers_worked_out_by_hand() {
    let p = analyze(&app_dump()).unwrap();
    let s = summary(&p);
    assert_eq!(s["format"]["family"], "hprof");
    assert_eq!(s["format"]["description"], "Heap dump (HPROF 1.0.3, 4-byte ids)");
    // Its stacks' frames are classes, and a graph's tooltip says so.
    assert_eq!(s["format"]["frame_kind"], "class");
    let svg = products::flame_svg(&p.profile, products::GraphScope::AllThreads, &Default::default()).unwrap();
    assert!(svg.contains("'Class:'"), "{}", &svg[..svg.len().min(300)]);
    // Each heap is a "thread" of the dump's stacks, named by its name alone.
    let threads: Vec<_> =
        s["threads"].as_array().unwrap().iter().map(|t| (t["name"].clone(), t["heap"].clone())).collect();
    assert_eq!(threads, [("zygote".into(), true.into()), ("app".into(), true.into())]);
    // The app's own heap is where it opens, though the zygote's is larger.
    assert_eq!(s["default_thread"], 1);
    assert_eq!(
        s["heap_dump"],
        serde_json::json!({
            "objects": 9, "bytes": 250,
            "heaps": [{"name": "zygote", "objects": 1, "bytes": 54}, {"name": "app", "objects": 8, "bytes": 196}],
            "roots": {"jni-global": 1, "sticky-class": 1},
            "unreachable": {"objects": 8, "bytes": 400},
        })
    );
    let classes: Vec<(String, u64, u64, u64)> = products::heap_classes(&p.profile, None)
        .unwrap()
        .into_iter()
        .map(|r| (r.name, r.count, r.shallow, r.retained))
        .collect();
    let row = |name: &str, count, shallow, retained| (name.to_owned(), count, shallow, retained);
    assert_eq!(
        classes,
        [
            // 0x130 retains everything under the cache; 0x1004 is held from two sides.
            row("java.lang.Class", 1, 54, 226),
            row("java.lang.Object[]", 1, 8, 172),
            row("com.example.MainActivity", 2, 40, 164),
            row("byte[]", 1, 100, 100),
            row("androidx.fragment.app.Fragment", 2, 24, 24),
            row("leakcanary.KeyedWeakReference", 1, 16, 16),
            row("java.lang.Object", 1, 8, 8),
        ]
    );
    let app = products::heap_classes(&p.profile, Some("zygote")).unwrap();
    assert_eq!(app.iter().map(|r| (r.name.as_str(), r.count)).collect::<Vec<_>>(), [("java.lang.Class", 1)]);
    let error = products::heap_classes(&p.profile, Some("image")).unwrap_err().to_string();
    assert!(error.contains("no heap called image; its heaps are zygote, app"), "{error}");
    let objects = products::heap_objects(&p.profile, &ObjectQuery { top: Some(3), ..ObjectQuery::default() }).unwrap();
    let objects: Vec<_> = objects.iter().map(|o| (o.id, o.class.as_str(), o.retained, o.dominator)).collect();
    assert_eq!(
        objects,
        [
            (0x130, "java.lang.Class<com.example.Cache>", 226, None),
            (0x1010, "java.lang.Object[]", 172, Some(0x130)),
            (0x1000, "com.example.MainActivity", 132, Some(0x1010)),
        ]
    );
    let fragments = ObjectQuery { class: Some("androidx.fragment.app.Fragment".into()), ..ObjectQuery::default() };
    let fragments = products::heap_objects(&p.profile, &fragments).unwrap();
    assert_eq!(
        fragments.iter().map(|o| (o.id, o.dominator)).collect::<Vec<_>>(),
        [(0x1001, Some(0x1000)), (0x1003, Some(0x1002))]
    );
}

#[test]
fn paths_and_leaks_of_a_built_dump() {
    let p = analyze(&app_dump()).unwrap();
    let path = |id| {
        let steps = products::heap_path(&p.profile, id).unwrap();
        steps.into_iter().map(|s| (s.id, s.via)).collect::<Vec<_>>()
    };
    let via = |id, via: &str| (id, via.to_owned());
    assert_eq!(
        path(0x1001),
        [via(0x130, "root:sticky-class"), via(0x1010, ".activities"), via(0x1000, "[0]"), via(0x1001, ".fragment")]
    );
    // The reference's `queue` is one step from a root; the cache's chain is four.
    assert_eq!(path(0x1004), [via(0x1005, "root:jni-global"), via(0x1004, ".queue")]);
    let error = products::heap_path(&p.profile, 0x100).unwrap_err().to_string();
    assert!(error.contains("no GC root reaches object 0x100"), "{error}");
    let leaks = products::heap_leaks(&p.profile).unwrap();
    let leaks: Vec<_> = leaks.iter().map(|l| (l.id, l.retained, l.reason.as_str(), l.path.as_str())).collect();
    assert_eq!(
        leaks,
        [
            (0x1000, 132, "watched, destroyed activity", "com.example.Cache.activities > java.lang.Object[][0]"),
            (
                0x1001,
                12,
                "detached fragment",
                "com.example.Cache.activities > java.lang.Object[][0] > com.example.MainActivity.fragment"
            ),
        ]
    );
}

#[test]
fn an_object_in_full_and_packages_of_a_built_dump() {
    let p = analyze(&app_dump()).unwrap();
    let shared = products::heap_object(&p.profile, 0x1004).unwrap();
    assert_eq!((shared.reachability, shared.object.dominator, shared.references.len()), ("strong", None, 0));
    let referrers: Vec<_> = shared.referrers.iter().map(|(r, via)| (r.id, via.as_str())).collect();
    assert_eq!((referrers, shared.referrer_count), (vec![(0x1003, ".mFragmentManager"), (0x1005, ".queue")], 2));
    let activity = products::heap_object(&p.profile, 0x1000).unwrap();
    let references: Vec<_> = activity.references.iter().map(|(via, r)| (via.as_str(), r.id)).collect();
    assert_eq!(references, [(".fragment", 0x1001), (".data", 0x1006)]);
    let dominated: Vec<_> = activity.dominated.iter().map(|r| (r.id, r.retained)).collect();
    assert_eq!((dominated, activity.dominated_count), (vec![(0x1006, 100), (0x1001, 12)], 2));
    assert_eq!(activity.path.len(), 3);
    assert_eq!(activity.dominator.map(|d| (d.id, d.class)), Some((0x1010, "java.lang.Object[]".to_owned())));
    let garbage = products::heap_object(&p.profile, 0x111).unwrap();
    assert_eq!((garbage.reachability, garbage.path.len(), garbage.object.retained), ("unreachable", 0, 0));
    let packages: Vec<_> =
        products::heap_packages(&p.profile, None).unwrap().into_iter().map(|r| (r.name, r.count, r.retained)).collect();
    // `java.lang`: the cache's class object (retaining all under it), the array, the Object.
    let expected = [("java.lang", 3, 234), ("com.example", 2, 164), ("", 1, 100), ("androidx.fragment.app", 2, 24)];
    assert_eq!(packages.iter().map(|(n, c, r)| (n.as_str(), *c, *r)).collect::<Vec<_>>()[..4], expected);
}

/// Folded stacks of `kind`, lines sorted.
fn folded(p: &mut Analysis, kind: SourceKind) -> Vec<String> {
    p.profile.select_source(kind).unwrap();
    let text = products::folded(&p.profile, &FoldedOptions::default()).unwrap();
    text.lines().map(str::to_owned).collect()
}

#[test]
fn the_dominator_and_path_trees_fold_by_heap_and_class() {
    let mut p = analyze(&app_dump()).unwrap();
    let kinds: Vec<SourceKind> = p.profile.sources().iter().map(|s| s.kind).collect();
    assert_eq!(kinds, [SourceKind::HeapDominators, SourceKind::HeapPaths]);
    let cache = "app;java.lang.Class<com.example.Cache>;java.lang.Object[]";
    let mut dominators = vec![
        "zygote;java.lang.Class<com.example.Cache> 54".to_owned(),
        format!("{cache} 8"),
        format!("{cache};com.example.MainActivity 40"),
        format!("{cache};com.example.MainActivity;androidx.fragment.app.Fragment 24"),
        format!("{cache};com.example.MainActivity;byte[] 100"),
        "app;java.lang.Object 8".to_owned(),
        "app;leakcanary.KeyedWeakReference 16".to_owned(),
    ];
    dominators.sort();
    assert_eq!(folded(&mut p, SourceKind::HeapDominators), dominators);
    let mut paths: Vec<String> =
        dominators.iter().filter(|l| !l.starts_with("app;java.lang.Object ")).cloned().collect();
    paths.push("app;leakcanary.KeyedWeakReference;java.lang.Object 8".to_owned());
    paths.sort();
    assert_eq!(folded(&mut p, SourceKind::HeapPaths), paths);
    let s = summary(&p);
    assert_eq!(
        (s["source"].as_str(), s["count"].as_str(), s["counted"].as_u64()),
        (Some("heap-paths"), Some("objects"), Some(9))
    );
}

#[test]
fn any_chunking_and_gzip_read_the_same_dump() {
    let bytes = app_dump();
    let whole = products::summary_json(&analyze(&bytes).unwrap());
    for size in [1, 3, 7, 64] {
        let mut analyzer = Analyzer::default();
        bytes.chunks(size).for_each(|chunk| analyzer.push(chunk).unwrap());
        assert_eq!(products::summary_json(&analyzer.finish().unwrap()), whole, "chunks of {size}");
    }
    let p = analyze(&droidflame_testkit::gzip(&bytes)).unwrap();
    assert!(p.profile.facts.format.description.ends_with(", gzip"));
    assert_eq!(summary(&p)["heap_dump"], serde_json::from_str::<serde_json::Value>(&whole).unwrap()["heap_dump"]);
}

#[test]
fn a_cut_dump_shows_what_came_before_the_cut_and_says_so() {
    let bytes = app_dump();
    let whole = summary(&analyze(&bytes).unwrap());
    let mut cut_with_objects = 0;
    for len in 1..bytes.len() - 9 {
        match analyze(&bytes[..len]) {
            Ok(p) => {
                let s = summary(&p);
                cut_with_objects += 1;
                assert!(s["heap_dump"]["objects"].as_u64() <= whole["heap_dump"]["objects"].as_u64(), "cut at {len}");
                // The end record (9 bytes) is all a cut between records can lose unnoticed.
                assert_eq!(s["repairs"]["truncated"], true, "cut at {len}");
            }
            // Before the header's end, no format; after it, no object yet.
            Err(e) => {
                let text = e.to_string();
                let told = [
                    "(starting with \"JAVA PROFILE\")",
                    "ends inside its header",
                    "ends before its first object",
                    "holds no objects",
                ];
                assert!(told.iter().any(|t| text.contains(t)), "{len}: {text}");
            }
        }
    }
    assert!(cut_with_objects > 100, "{cut_with_objects}");
}

#[test]
fn damage_missing_classes_and_dangling_references_are_repaired_and_counted() {
    let mut w = HprofWriter::new(4);
    w.load_class(0x100, "java/lang/Object");
    w.load_class(0x101, "com/example/Node");
    w.class_dump(0x100, 0, 8, &[], &[]);
    w.class_dump(0x101, 0x100, 12, &[], &[("next", 2)]);
    // 0x1000 holds 0x1001 and an object the dump lacks; 0x1002's class is never dumped.
    w.instance(0x1000, 0x101, &[Object(0x9999)]);
    w.instance(0x1002, 0x777, &[]);
    w.root(0x01, 0x1000);
    w.root(0x01, 0x1002);
    w.root(0x01, 0x8888);
    w.end_segment();
    // An unknown sub-record: the rest of its segment is skipped, the next one read.
    w.raw(&[0x77, 1, 2, 3]);
    w.instance(0x1003, 0x101, &[Object(0)]);
    w.end_segment();
    w.instance(0x1004, 0x101, &[Object(0x1000)]);
    w.root(0x03, 0x1004);
    let p = analyze(&w.finish()).unwrap();
    let s = summary(&p);
    let repairs = &s["repairs"];
    assert_eq!(
        [
            &repairs["damaged_parts"],
            &repairs["objects_without_class"],
            &repairs["dangling_references"],
            &repairs["dangling_roots"]
        ],
        [1, 1, 1, 1]
    );
    assert_eq!(s["heap_dump"]["objects"], 3, "0x1000, 0x1002 and 0x1004; 0x1003 was in the damaged part");
    let notes: Vec<&str> = s["notes"].as_array().unwrap().iter().map(|n| n["text"].as_str().unwrap()).collect();
    let said = |text: &str| assert!(notes.iter().any(|n| n.contains(text)), "{text} in {notes:?}");
    said(
        "1 damaged part of the file was skipped: 1 heap-dump record was skipped to the next record, the first at byte",
    );
    said("(an unknown sub-record tag 0x77)");
    said("1 object is of a class the dump does not describe");
    said("1 reference to objects not in the dump was dropped");
    said("1 GC root of objects not in the dump was dropped");
    let classes = products::heap_classes(&p.profile, None).unwrap();
    assert!(classes.iter().any(|c| c.name == "unknown class 0x777" && c.count == 1 && c.shallow == 0), "{classes:?}");
}

#[test]
fn the_shared_dumps_equal_ahat_and_their_sources() {
    if !corpus_present("heap_dumps::the_shared_dumps_equal_ahat_and_their_sources") {
        return;
    }
    let binder = analyze(&corpus_file(BINDER)).unwrap();
    let ignored = analyze(&corpus_file(IGNORED)).unwrap();
    let s = summary(&binder);
    // ahat with strong references alone (SOURCES.md's table counts soft ones too, one
    // more object of 16 bytes: a SoftReference's referent in `app`).
    assert_eq!(
        s["heap_dump"],
        serde_json::json!({
            "objects": 44_065, "bytes": 2_603_312,
            "heaps": [{"name": "zygote", "objects": 40_956, "bytes": 2_441_330}, {"name": "app", "objects": 3_109, "bytes": 161_982}],
            "roots": {"sticky-class": 3_645, "interned-string": 7_388, "jni-global": 268, "java-frame": 100,
                      "thread-object": 12, "jni-local": 7, "debugger": 3, "finalizing": 1},
            "unreachable": {"objects": 347, "bytes": 51_420},
        })
    );
    let roots = &summary(&ignored)["heap_dump"]["roots"];
    assert_eq!(
        (&roots["sticky-class"], &roots["java-frame"], &roots["jni-global"]),
        (&3_630.into(), &119.into(), &267.into())
    );
    let top = products::heap_objects(&binder.profile, &ObjectQuery { top: Some(2), ..ObjectQuery::default() }).unwrap();
    let top: Vec<_> = top.iter().map(|o| (o.id, o.class.as_str(), o.shallow, o.retained, o.dominator)).collect();
    assert_eq!(
        top,
        [
            (0xb0cc6c78, "java.lang.Class<android.content.res.Resources>", 206, 252_694, None),
            (0xb0d4da78, "android.util.LongSparseArray[]", 8, 249_880, Some(0xb0cc6c78)),
        ]
    );
    let classes = products::heap_classes(&binder.profile, None).unwrap();
    assert_eq!(classes.len(), 895, "SOURCES.md's 896 with the soft referent's class");
    let by_name = |name: &str| classes.iter().find(|c| c.name == name).map(|c| (c.count, c.shallow)).unwrap();
    assert_eq!(by_name("byte[]"), (1_395, 698_872));
    assert_eq!(by_name("java.lang.Class"), (3_645, 657_876));
    assert_eq!(by_name("char[]"), (10_243, 464_430));
    assert_eq!(by_name("java.lang.String"), (11_534, 276_816));
}

#[test]
fn leakcanary_s_watched_service_is_the_leak_in_both_shared_dumps() {
    if !corpus_present("heap_dumps::leakcanary_s_watched_service_is_the_leak_in_both_shared_dumps") {
        return;
    }
    for (file, id) in [(BINDER, 0xb0fa7cb0), (IGNORED, 0xb0f84720)] {
        let p = analyze(&corpus_file(file)).unwrap();
        let leaks = products::heap_leaks(&p.profile).unwrap();
        let leaks: Vec<_> =
            leaks.iter().map(|l| (l.id, l.class.as_str(), l.reason.as_str(), l.path.as_str())).collect();
        let path = "com.example.leakcanary.LeakyService$MyBinder.service";
        assert_eq!(leaks, [(id, "com.example.leakcanary.LeakyService", "watched", path)], "{file}");
        let steps = products::heap_path(&p.profile, id).unwrap();
        assert_eq!(steps.iter().map(|s| s.via.as_str()).collect::<Vec<_>>(), ["root:jni-global", ".service"]);
    }
}

#[test]
fn heap_diff_of_the_shared_dumps_is_their_class_tables_side_by_side() {
    if !corpus_present("heap_dumps::heap_diff_of_the_shared_dumps_is_their_class_tables_side_by_side") {
        return;
    }
    let (binder, ignored) = (analyze(&corpus_file(BINDER)).unwrap(), analyze(&corpus_file(IGNORED)).unwrap());
    let changes = products::heap_diff(&binder.profile, &ignored.profile).unwrap();
    let before = products::heap_classes(&binder.profile, None).unwrap();
    let after = products::heap_classes(&ignored.profile, None).unwrap();
    let side = |rows: &[products::ClassRow], name: &str| {
        rows.iter().find(|r| r.name == name).map_or((0, 0, 0), |r| (r.count, r.shallow, r.retained))
    };
    let names: std::collections::BTreeSet<&str> = before.iter().chain(&after).map(|r| r.name.as_str()).collect();
    assert_eq!(changes.len(), names.len());
    for change in &changes {
        assert_eq!(change.before, side(&before, &change.class), "{}", change.class);
        assert_eq!(change.after, side(&after, &change.class), "{}", change.class);
    }
    let sizes: Vec<u128> = changes.iter().map(|c| c.retained_change().unsigned_abs()).collect();
    assert!(sizes.windows(2).all(|w| w[0] >= w[1]), "largest change first");
    assert_eq!(changes[0].class, "java.lang.Object[]");
}

/// An obfuscated build's dump: `a.c` (a sticky class) holds in its static `a` the array
/// `a.b[]` 0x1010 of one `a.b` 0x1000, whose field `a` holds the `a.b` 0x1001.
fn obfuscated_dump() -> Vec<u8> {
    let mut w = HprofWriter::new(4);
    let classes =
        [(0x100, "java/lang/Object"), (0x101, "java/lang/Class"), (0x111, "a/b"), (0x130, "a/c"), (0x150, "[La/b;")];
    classes.iter().for_each(|&(id, name)| w.load_class(id, name));
    w.class_dump(0x100, 0, 0, &[], &[]);
    w.class_dump(0x101, 0x100, 50, &[], &[]);
    w.class_dump(0x111, 0x100, 8, &[], &[("a", 2), ("b", 2)]);
    w.class_dump(0x130, 0x100, 0, &[("a", Object(0x1010))], &[]);
    w.class_dump(0x150, 0x100, 0, &[], &[]);
    w.object_array(0x1010, 0x150, &[0x1000]);
    w.instance(0x1000, 0x111, &[Object(0x1001), Object(0)]);
    w.instance(0x1001, 0x111, &[Object(0), Object(0)]);
    w.root(0x05, 0x130);
    w.finish()
}

const MAPPING: &str = "com.example.Node -> a.b:\n    com.example.Node next -> a\n    com.example.Node prev -> b\n\
                       com.example.Cache -> a.c:\n    com.example.Node[] nodes -> a\n";

#[test]
fn a_mapping_names_a_dump_s_classes_and_each_class_s_fields() {
    let mut p = analyze(&obfuscated_dump()).unwrap();
    let report = p.deobfuscate_with(MAPPING.as_bytes()).unwrap();
    assert_eq!(report.heap_classes, Some(3), "a.b, a.c and the array a.b[]");
    assert_eq!((report.classes.mapped, report.classes.not_found), (2, 2), "a.b and a.c; java.lang.Object and Class");
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    let classes: Vec<(String, u64)> =
        products::heap_classes(&p.profile, None).unwrap().into_iter().map(|r| (r.name, r.count)).collect();
    let count = |name: &str| classes.iter().find(|c| c.0 == name).map(|c| c.1);
    assert_eq!((count("com.example.Node"), count("com.example.Node[]"), count("a.b")), (Some(2), Some(1), None));
    let steps = products::heap_path(&p.profile, 0x1001).unwrap();
    let steps: Vec<_> = steps.iter().map(|s| (s.class.as_str(), s.via.as_str())).collect();
    assert_eq!(
        steps,
        [
            ("java.lang.Class<com.example.Cache>", "root:sticky-class"),
            ("com.example.Node[]", ".nodes"),
            ("com.example.Node", "[0]"),
            ("com.example.Node", ".next"),
        ]
    );
    let stacks = folded(&mut p, SourceKind::HeapDominators);
    assert!(
        stacks
            .iter()
            .any(|l| l.starts_with("default;java.lang.Class<com.example.Cache>;com.example.Node[];com.example.Node")),
        "{stacks:?}"
    );
    // Another mapping starts again from the dump's names.
    p.deobfuscate_with(b"com.other.Thing -> a.b:\n").unwrap();
    let classes = products::heap_classes(&p.profile, None).unwrap();
    assert!(
        classes.iter().any(|c| c.name == "com.other.Thing")
            && !classes.iter().any(|c| c.name.starts_with("com.example"))
    );
}

#[test]
fn the_watched_service_in_full() {
    if !corpus_present("heap_dumps::the_watched_service_in_full") {
        return;
    }
    let p = analyze(&corpus_file(BINDER)).unwrap();
    let service = products::heap_object(&p.profile, 0xb0fa7cb0).unwrap();
    assert_eq!(service.path.len(), 2);
    let referrers: Vec<_> = service.referrers.iter().map(|(r, via)| (r.class.as_str(), via.as_str())).collect();
    assert!(referrers.contains(&("com.example.leakcanary.LeakyService$MyBinder", ".service")), "{referrers:?}");
}

#[test]
fn a_heap_without_a_reachable_object_has_no_stacks() {
    let mut w = HprofWriter::new(4);
    w.load_class(0x100, "java/lang/Object");
    w.class_dump(0x100, 0, 8, &[], &[]);
    w.heap("image");
    w.instance(0x1000, 0x100, &[]);
    w.heap("app");
    w.instance(0x2000, 0x100, &[]);
    w.root(0x01, 0x2000);
    let p = analyze(&w.finish()).unwrap();
    let s = summary(&p);
    let heaps: Vec<_> = s["threads"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(heaps, ["app"], "the image heap holds only garbage");
    assert_eq!(s["heap_dump"]["unreachable"]["objects"], 2, "the image heap's instance and the class object");
}

#[test]
fn an_object_held_by_many_lists_its_first_referrers_and_counts_them_all() {
    let mut w = HprofWriter::new(4);
    for (id, name) in [(0x100, "java/lang/Object"), (0x110, "com/example/Holder"), (0x120, "[Ljava/lang/Object;")] {
        w.load_class(id, name);
    }
    w.class_dump(0x100, 0, 8, &[], &[]);
    w.class_dump(0x110, 0x100, 12, &[], &[("held", 2)]);
    let holders: Vec<u64> = (0..250).map(|i| 0x2000 + 8 * i).collect();
    w.object_array(0x1000, 0x120, &holders);
    holders.iter().for_each(|&h| w.instance(h, 0x110, &[Object(0x9000)]));
    w.instance(0x9000, 0x100, &[]);
    w.root(0x01, 0x1000);
    let p = analyze(&w.finish()).unwrap();
    let held = products::heap_object(&p.profile, 0x9000).unwrap();
    assert_eq!((held.referrer_count, held.referrers.len()), (250, 200));
    assert_eq!(held.referrers[0].0.id, 0x2000, "in id order");
}

/// A dump opens on its `app` heap wherever the dump lists it, though the zygote's is larger.
#[test]
fn a_dump_opens_on_its_app_heap_wherever_it_is_listed() {
    let mut w = HprofWriter::new(4);
    for (id, name) in [(0x100, "java/lang/Object"), (0x101, "com/example/Small"), (0x102, "[B")] {
        w.load_class(id, name);
    }
    w.heap("app");
    w.class_dump(0x100, 0, 8, &[], &[]);
    w.class_dump(0x101, 0x100, 8, &[], &[]);
    w.instance(0x1000, 0x101, &[]);
    w.heap("zygote");
    w.byte_array(0x2000, &[0; 4096]);
    w.root(0x01, 0x1000);
    w.root(0x01, 0x2000);
    let p = analyze(&w.finish()).unwrap();
    let threads: Vec<_> = p.profile.stacks().threads.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(threads, ["app", "zygote"]);
    assert_eq!(p.profile.default_thread(), Some(0));
}
