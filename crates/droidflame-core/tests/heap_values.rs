//! What a dump's objects hold besides references: fields with their values, strings'
//! text, arrays' first elements, and copies of equal contents, on a dump built here whose
//! every value is written below.

use droidflame_core::analyze;
use droidflame_core::products::{self, DuplicateRow};
use droidflame_testkit::hprof::{HprofWriter, Value::*};

/// A HotSpot-style dump (8-byte ids): the `Object[]` 0x1000 (a JNI global) holds
///
/// - the strings 0x2000 and 0x2002, both "hello" on the one `byte[]` 0x2100, 0x2001
///   "hello" on its own copy 0x2101, and 0x2003 "world" (0x2102);
/// - the `byte[100]`s 0x3000 and 0x3001, all 7s, and 0x3002, 7s but for its last byte;
///   the `byte[64]`s 0x3003 and 0x3004 (as long as the bytes kept of an array), all 0s;
/// - the `Point` 0x4000: x = -3, big = 2^40, on, label = 0x2003, c = 'A', f = 0.5,
///   d = -2.25, b = -1, s = 300.
///
/// Sizes: `String` 16, `Point` 32, the arrays their lengths, `Object[]` 7 ids.
fn values_dump() -> Vec<u8> {
    let mut w = HprofWriter::new(8);
    let classes = [
        (0x100, "java/lang/Object"),
        (0x101, "java/lang/String"),
        (0x102, "com/example/Point"),
        (0x103, "[Ljava/lang/Object;"),
    ];
    classes.iter().for_each(|&(id, name)| w.load_class(id, name));
    w.class_dump(0x100, 0, 0, &[], &[]);
    w.class_dump(0x101, 0x100, 16, &[], &[("value", 2), ("coder", 8), ("hash", 10)]);
    let point = [("x", 10), ("big", 11), ("on", 4), ("label", 2), ("c", 5), ("f", 6), ("d", 7), ("b", 8), ("s", 9)];
    w.class_dump(0x102, 0x100, 32, &[], &point);
    // The root first: a dump cut short still reaches what came before the cut.
    w.root(0x01, 0x1000);
    let held = [0x2000, 0x2001, 0x2002, 0x2003, 0x3000, 0x3001, 0x3002, 0x3003, 0x3004, 0x4000];
    w.object_array(0x1000, 0x103, &held);
    w.instance(0x2000, 0x101, &[Object(0x2100), Byte(0), Int(0)]);
    w.instance(0x2001, 0x101, &[Object(0x2101), Byte(0), Int(0)]);
    w.instance(0x2002, 0x101, &[Object(0x2100), Byte(0), Int(99)]);
    w.instance(0x2003, 0x101, &[Object(0x2102), Byte(0), Int(0)]);
    w.byte_array(0x2100, b"hello");
    w.byte_array(0x2101, b"hello");
    w.byte_array(0x2102, b"world");
    w.byte_array(0x3000, &[7; 100]);
    w.byte_array(0x3001, &[7; 100]);
    let mut last = [7u8; 100];
    last[99] = 8;
    w.byte_array(0x3002, &last);
    w.byte_array(0x3003, &[0; 64]);
    w.byte_array(0x3004, &[0; 64]);
    let point = [
        Int(-3),
        Long(1 << 40),
        Bool(true),
        Object(0x2003),
        Char(0x41),
        Float(0.5),
        Double(-2.25),
        Byte(-1),
        Short(300),
    ];
    w.instance(0x4000, 0x102, &point);
    w.finish()
}

#[test]
fn an_instance_s_fields_a_string_s_text_and_an_array_s_elements() {
    let p = analyze(&values_dump()).unwrap();
    let point = products::heap_object(&p.profile, 0x4000).unwrap();
    let fields: Vec<_> = point.fields.iter().map(|f| (f.name.as_str(), f.kind, f.value.as_str(), f.object)).collect();
    assert_eq!(
        fields,
        [
            ("x", "int", "-3", None),
            ("big", "long", "1099511627776", None),
            ("on", "boolean", "true", None),
            ("label", "Object", "0x2003", Some(0x2003)),
            ("c", "char", "A", None),
            ("f", "float", "0.5", None),
            ("d", "double", "-2.25", None),
            ("b", "byte", "-1", None),
            ("s", "short", "300", None),
        ]
    );
    // A reference field names what it holds: its class, and a string's text.
    let label = point.fields.iter().find(|f| f.name == "label").unwrap();
    assert_eq!((label.class.as_deref(), label.text.as_deref()), (Some("java.lang.String"), Some("world")));
    assert!(point.fields.iter().filter(|f| f.name != "label").all(|f| f.class.is_none() && f.text.is_none()));
    let world = products::heap_object(&p.profile, 0x2003).unwrap();
    assert_eq!(world.text.as_deref(), Some("world"));
    let value = world.fields.iter().find(|f| f.name == "value").unwrap();
    assert_eq!((value.object, value.class.as_deref(), value.text.as_deref()), (Some(0x2102), Some("byte[]"), None));
    let zeros = products::heap_object(&p.profile, 0x3003).unwrap();
    assert_eq!(zeros.elements, Some(format!("[{}, …]", ["0"; 16].join(", "))));
    assert!(zeros.fields.is_empty() && zeros.text.is_none());
    // 100 bytes: the first 16 shown, and more said to follow.
    let sevens = products::heap_object(&p.profile, 0x3000).unwrap().elements.unwrap();
    assert_eq!(sevens, format!("[{}, …]", ["7"; 16].join(", ")));
}

#[test]
fn copies_of_equal_contents_and_the_bytes_all_but_one_waste() {
    let p = analyze(&values_dump()).unwrap();
    let rows = products::heap_duplicates(&p.profile).unwrap();
    let row = |kind, class: &str, count, bytes, wasted, example, preview: &str| DuplicateRow {
        kind,
        class: class.to_owned(),
        count,
        bytes,
        wasted,
        example,
        preview: preview.to_owned(),
    };
    let sevens = format!("[{}, …]", ["7"; 16].join(", "));
    assert_eq!(
        rows,
        [
            // 0x3002 differs past the bytes kept: its hash tells it apart.
            row("array", "byte[]", 2, 100, 100, 0x3000, &sevens),
            row("array", "byte[]", 2, 64, 64, 0x3003, &format!("[{}, …]", ["0"; 16].join(", "))),
            // Three strings (16 bytes each), two arrays of "hello" (5): 2 * 16 + 5.
            row("string", "java.lang.String", 3, 21, 37, 0x2000, "hello"),
        ]
    );
    // As the CLI writes them: one row a group, its first copy's id as the tables print it.
    let mut tsv = Vec::new();
    products::write_duplicates(&rows[2..], &mut tsv).unwrap();
    assert_eq!(
        String::from_utf8(tsv).unwrap(),
        "kind\tclass\tcount\tbytes\twasted\texample\tpreview\nstring\tjava.lang.String\t3\t21\t37\t0x2000\thello\n"
    );
}

#[test]
fn an_array_cut_by_the_end_of_the_dump_has_no_contents_and_no_copies() {
    let dump = values_dump();
    // Cut inside 0x3001's bytes: the 7s of 0x3000 have no whole copy left.
    let at = dump.windows(8).rposition(|w| w == 0x3001u64.to_be_bytes()).unwrap() + 8 + 4 + 4 + 1 + 50;
    let p = analyze(&dump[..at]).unwrap();
    let rows = products::heap_duplicates(&p.profile).unwrap();
    assert!(rows.iter().all(|r| r.example != 0x3000), "{rows:?}");
    assert_eq!(rows.iter().map(|r| r.kind).collect::<Vec<_>>(), ["string"]);
}

/// The dump after repetition `step` of a scenario that leaks: `Holder` 0x130 (a sticky
/// class) holds in its static `list` an `Object[]` of `step` `Leak`s (24 bytes each) and
/// of `Other`s that come and go (2, 1, 3 of them, 8 bytes each).
fn series_dump(step: usize) -> Vec<u8> {
    series_dump_at(step, 0)
}

/// The dump after repetition `step`, its header saying it was taken at `ms` (0: unknown).
fn series_dump_at(step: usize, ms: u64) -> Vec<u8> {
    let mut w = HprofWriter::new(4);
    w.dumped_at(ms);
    for (id, name) in [
        (0x100, "java/lang/Object"),
        (0x110, "com/example/Leak"),
        (0x120, "com/example/Other"),
        (0x130, "com/example/Holder"),
        (0x140, "[Ljava/lang/Object;"),
    ] {
        w.load_class(id, name);
    }
    w.class_dump(0x100, 0, 0, &[], &[]);
    w.class_dump(0x110, 0x100, 24, &[], &[]);
    w.class_dump(0x120, 0x100, 8, &[], &[]);
    w.class_dump(0x130, 0x100, 0, &[("list", Object(0x1000))], &[]);
    let others = [2, 1, 3][step - 1];
    let leaks: Vec<u64> = (0..step as u64).map(|i| 0x2000 + i).collect();
    let other: Vec<u64> = (0..others).map(|i| 0x3000 + i).collect();
    w.object_array(0x1000, 0x140, &[leaks.clone(), other.clone()].concat());
    leaks.iter().for_each(|&id| w.instance(id, 0x110, &[]));
    other.iter().for_each(|&id| w.instance(id, 0x120, &[]));
    w.root(0x05, 0x130);
    w.finish()
}

#[test]
fn a_series_of_dumps_gives_what_grows_at_every_step() {
    let analyses: Vec<_> = (1..=3).map(|step| analyze(&series_dump(step)).unwrap()).collect();
    let profiles: Vec<_> = analyses.iter().map(|a| &a.profile).collect();
    let growth = products::heap_series(&profiles).unwrap();
    // `Leak` alone grows at every step (1, 2, 3); `Object[]` grows by its elements' ids too
    // (3, 3, 6 elements: not at every step), and `Other` comes and goes.
    let classes: Vec<_> = growth.classes.iter().map(|r| (r.name.as_str(), r.counts.clone(), r.bytes.clone())).collect();
    assert_eq!(classes, [("com.example.Leak", vec![1, 2, 3], vec![24, 48, 72])]);
    assert_eq!((growth.classes[0].objects_per_step(), growth.classes[0].bytes_per_step()), (1.0, 24.0));
    let paths: Vec<_> = growth.paths.iter().map(|r| (r.name.as_str(), r.counts.clone(), r.bytes.clone())).collect();
    assert_eq!(
        paths,
        [(
            "default;java.lang.Class<com.example.Holder>;java.lang.Object[];com.example.Leak",
            vec![1, 2, 3],
            vec![24, 48, 72]
        )]
    );
    assert_eq!(growth.order, [0, 1, 2]);
    // As the CLI writes it: a row per class, each dump's count and bytes, then per step.
    let mut tsv = Vec::new();
    products::write_series("class", &growth.classes, 3, &mut tsv).unwrap();
    assert_eq!(
        String::from_utf8(tsv).unwrap(),
        "class\tcount_1\tcount_2\tcount_3\tbytes_1\tbytes_2\tbytes_3\tobjects_per_step\tbytes_per_step\n\
         com.example.Leak\t1\t2\t3\t24\t48\t72\t1.0\t24\n"
    );
    let two = products::heap_series(&profiles[..2]).unwrap_err();
    assert!(two.to_string().contains("3 dumps or more"), "{two}");
}

#[test]
fn a_series_given_out_of_order_is_counted_in_the_order_its_dumps_were_taken() {
    // Given third, first, second: each header says when it was taken.
    let given = [(3, 3_000), (1, 1_000), (2, 2_000)];
    let analyses: Vec<_> = given.iter().map(|&(step, ms)| analyze(&series_dump_at(step, ms)).unwrap()).collect();
    let mut series = products::HeapSeries::default();
    analyses.iter().for_each(|a| series.add(&a.profile).unwrap());
    let growth = series.growth().unwrap();
    assert_eq!(growth.order, [1, 2, 0]);
    assert_eq!(growth.classes[0].counts, [1, 2, 3]);
    // Where one dump does not say, the order given stands: nothing grows at every step.
    let unknown = analyze(&series_dump_at(2, 0)).unwrap();
    let mut series = products::HeapSeries::default();
    for p in [&analyses[0].profile, &analyses[1].profile, &unknown.profile] {
        series.add(p).unwrap();
    }
    let growth = series.growth().unwrap();
    assert_eq!((growth.order.as_slice(), growth.classes.len()), (&[0, 1, 2][..], 0));
}

#[test]
fn the_runtime_s_storage_of_statics_is_no_copy() {
    let mut w = HprofWriter::new(4);
    for (id, name) in [(0x100, "java/lang/Object"), (0x110, "com/example/A"), (0x120, "com/example/B"), (0x130, "[B")] {
        w.load_class(id, name);
    }
    w.class_dump(0x100, 0, 8, &[], &[]);
    // ART gives each class object a zeroed byte[] for its statics' storage.
    w.class_dump(0x110, 0x100, 8, &[("$staticOverhead", Object(0x111)), ("kept", Object(0x2000))], &[]);
    w.class_dump(0x120, 0x100, 8, &[("$staticOverhead", Object(0x121)), ("kept", Object(0x2001))], &[]);
    w.byte_array(0x111, &[0; 16]);
    w.byte_array(0x121, &[0; 16]);
    // Two arrays the app made, as zeroed: copies.
    w.byte_array(0x2000, &[0; 16]);
    w.byte_array(0x2001, &[0; 16]);
    w.root(0x05, 0x110);
    w.root(0x05, 0x120);
    let p = analyze(&w.finish()).unwrap();
    let rows = products::heap_duplicates(&p.profile).unwrap();
    assert_eq!(rows.iter().map(|r| (r.count, r.example)).collect::<Vec<_>>(), [(2, 0x2000)]);
}

/// The shared dump's most copied strings, as AOSP's ahat counts them: its strongly
/// reachable `java.lang.String`s grouped by `AhatInstance.asString()`, the most copies
/// first: 50 `Cipher`, 25 `Signature` and `SecretKeyFactory`, 21 empty, 12 `MessageDigest`
/// and `Mac`, 11 `S`, `DSA` and `SSLContext`.
#[test]
fn the_shared_dump_s_copied_strings_are_those_ahat_counts() {
    if !droidflame_testkit::corpus_present("heap_values::the_shared_dump_s_copied_strings_are_those_ahat_counts") {
        return;
    }
    let bytes = droidflame_testkit::corpus_file("hprof/leakcanary-leak_service_binder.hprof");
    let p = analyze(&bytes).unwrap();
    let rows = products::heap_duplicates(&p.profile).unwrap();
    let count = |text: &str| rows.iter().find(|r| r.kind == "string" && r.preview == text).map(|r| r.count);
    let ahat = [
        ("Cipher", 50),
        ("Signature", 25),
        ("SecretKeyFactory", 25),
        ("", 21),
        ("MessageDigest", 12),
        ("Mac", 12),
        ("S", 11),
        ("DSA", 11),
        ("SSLContext", 11),
    ];
    for (text, copies) in ahat {
        assert_eq!(count(text), Some(copies), "{text:?}");
    }
    let most = rows.iter().filter(|r| r.kind == "string").map(|r| r.count).max();
    assert_eq!(most, Some(50), "no string has more copies than ahat's most");
}

#[test]
fn any_chunking_keeps_the_same_values() {
    let bytes = values_dump();
    let of = |p: &droidflame_core::Analysis| {
        let fields = products::heap_object(&p.profile, 0x4000).unwrap().fields;
        (products::heap_duplicates(&p.profile).unwrap(), fields)
    };
    let whole = of(&analyze(&bytes).unwrap());
    assert_eq!(whole.0.len(), 3, "the copies are there to compare");
    for size in [1, 7, 33] {
        let mut analyzer = droidflame_core::Analyzer::default();
        bytes.chunks(size).for_each(|chunk| analyzer.push(chunk).unwrap());
        assert_eq!(of(&analyzer.finish().unwrap()), whole, "chunks of {size}");
    }
}

/// A dump's writer with `java.lang.String` of `fields` (`size` bytes an instance), and a
/// root array (0x1000) holding `held`: what each test of strings starts from.
fn strings_dump(size: u32, fields: &[(&str, u8)], held: &[u64]) -> HprofWriter {
    let mut w = HprofWriter::new(4);
    for (id, name) in [(0x100, "java/lang/Object"), (0x101, "java/lang/String"), (0x102, "[Ljava/lang/Object;")] {
        w.load_class(id, name);
    }
    w.class_dump(0x100, 0, 8, &[], &[]);
    w.class_dump(0x101, 0x100, size, &[], fields);
    w.root(0x01, 0x1000);
    w.object_array(0x1000, 0x102, held);
    w
}

/// Strings as Java before 9 made them: `value` a `char[]`, with `offset` and `count` into
/// it. 0x2000 and 0x2001 are "hello" at 0 and 5 of the shared "hellohello" 0x3000; 0x2002
/// is "hello", all of its own 0x3001; 0x2003 is "llo", at 2 of 0x3000; 0x2004, another
/// "hello" of 0x3001, is unreachable; 0x2005 is "hello" at 35 of a 40-char array; 0x2007
/// and 0x2008 are 40 "y"s, each all of its own array.
#[test]
fn old_strings_of_part_of_a_shared_array_are_copies_by_their_text() {
    let fields = [("value", 2), ("offset", 10), ("count", 10), ("hash", 10)];
    let held = [0x2000, 0x2001, 0x2002, 0x2003, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x200B, 0x3003, 0x3004];
    let mut w = strings_dump(24, &fields, &held);
    // Two empty arrays: alike, but they waste nothing.
    w.byte_array(0x3003, &[]);
    w.byte_array(0x3004, &[]);
    for (string, array, offset, count) in
        [(0x2000, 0x3000, 0, 5), (0x2001, 0x3000, 5, 5), (0x2002, 0x3001, 0, 5), (0x2003, 0x3000, 2, 3)]
    {
        w.instance(string, 0x101, &[Object(array), Int(offset), Int(count), Int(0)]);
    }
    w.char_array(0x3000, "hellohello");
    w.char_array(0x3001, "hello");
    // Garbage: a "hello" no root reaches is no copy.
    w.instance(0x2004, 0x101, &[Object(0x3001), Int(0), Int(5), Int(0)]);
    // A "hello" past the first 64 bytes kept of a long array: its text is not known, so it
    // is counted in no group.
    w.instance(0x2005, 0x101, &[Object(0x3002), Int(35), Int(5), Int(0)]);
    // One across the end of those bytes: the characters known, then `…`.
    w.instance(0x2006, 0x101, &[Object(0x3002), Int(30), Int(5), Int(0)]);
    // Three more of it: empty, past the bytes kept; the first five; four ending where the
    // bytes kept end (whole, so no `…`).
    w.instance(0x2009, 0x101, &[Object(0x3002), Int(35), Int(0), Int(0)]);
    w.instance(0x200A, 0x101, &[Object(0x3002), Int(0), Int(5), Int(0)]);
    w.instance(0x200B, 0x101, &[Object(0x3002), Int(28), Int(4), Int(0)]);
    w.char_array(0x3002, &("x".repeat(35) + "hello"));
    // Two strings each the whole of its own 40-char array: known by the whole array's
    // contents (past the bytes kept), and so copies.
    w.instance(0x2007, 0x101, &[Object(0x3005), Int(0), Int(40), Int(0)]);
    w.instance(0x2008, 0x101, &[Object(0x3006), Int(0), Int(40), Int(0)]);
    w.char_array(0x3005, &"y".repeat(40));
    w.char_array(0x3006, &"y".repeat(40));
    let p = analyze(&w.finish()).unwrap();
    let text = |id| products::heap_object(&p.profile, id).unwrap().text;
    assert_eq!([text(0x2001), text(0x2003)], [Some("hello".to_owned()), Some("llo".to_owned())]);
    assert_eq!([text(0x2005), text(0x2006)], [None, Some("xx…".to_owned())]);
    let texts = [text(0x2009), text(0x200A), text(0x200B)];
    assert_eq!(texts, [Some(String::new()), Some("xxxxx".to_owned()), Some("xxxx".to_owned())]);
    let rows = products::heap_duplicates(&p.profile).unwrap();
    let rows: Vec<_> = rows.iter().map(|r| (r.kind, r.count, r.example, r.preview.as_str())).collect();
    // The 40 "y"s waste the most (their string and its array, once); their preview is
    // the 32 characters kept.
    let ys = "y".repeat(32) + "…";
    assert_eq!(rows, [("string", 2, 0x2007, ys.as_str()), ("string", 3, 0x2000, "hello")]);
}

/// Strings as Java 9 and later make them: `value` a `byte[]`, `coder` 0 for Latin-1, 1 for
/// UTF-16. The same two bytes are "hi" in one and "楨" in the other: no copies.
#[test]
fn equal_bytes_of_two_coders_are_two_texts() {
    let mut w = strings_dump(16, &[("value", 2), ("coder", 8)], &[0x2000, 0x2001]);
    w.instance(0x2000, 0x101, &[Object(0x3000), Byte(0)]);
    w.instance(0x2001, 0x101, &[Object(0x3001), Byte(1)]);
    w.byte_array(0x3000, b"hi");
    w.byte_array(0x3001, b"hi");
    let p = analyze(&w.finish()).unwrap();
    let text = |id| products::heap_object(&p.profile, id).unwrap().text;
    assert_eq!([text(0x2000), text(0x2001)], [Some("hi".to_owned()), Some("楨".to_owned())]);
    assert_eq!(products::heap_duplicates(&p.profile).unwrap(), []);
}

/// Every primitive array type's first elements, as Java prints them; `…` only where more
/// follow than are shown.
#[test]
fn arrays_of_every_primitive_type_show_their_first_elements() {
    let mut w = HprofWriter::new(4);
    w.load_class(0x100, "java/lang/Object");
    w.load_class(0x102, "[Ljava/lang/Object;");
    w.class_dump(0x100, 0, 8, &[], &[]);
    let arrays: [(u64, u8, Vec<droidflame_testkit::hprof::Value>, &str); 9] = [
        (0x3000, 4, vec![Bool(true), Bool(false)], "[true, false]"),
        (0x3001, 5, vec![Char(0x41), Char(0x42)], "[A, B]"),
        (0x3002, 6, vec![Float(0.5)], "[0.5]"),
        (0x3003, 7, vec![Double(-2.25)], "[-2.25]"),
        (0x3004, 8, vec![Byte(-1), Byte(2)], "[-1, 2]"),
        (0x3005, 9, vec![Short(300)], "[300]"),
        (0x3006, 10, (0..16).map(Int).collect(), "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]"),
        (0x3007, 10, (0..17).map(Int).collect(), "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, …]"),
        (0x3008, 11, vec![Long(1 << 40)], "[1099511627776]"),
    ];
    w.root(0x01, 0x1000);
    w.object_array(0x1000, 0x102, &arrays.iter().map(|a| a.0).collect::<Vec<_>>());
    for (id, code, values, _) in &arrays {
        w.primitive_array(*id, *code, values);
    }
    let p = analyze(&w.finish()).unwrap();
    for (id, _, _, shown) in &arrays {
        assert_eq!(products::heap_object(&p.profile, *id).unwrap().elements.as_deref(), Some(*shown), "{id:#x}");
    }
}

/// Two classes each the other's superclass (a damaged dump): an instance's fields are
/// listed, each class once, and the listing ends.
#[test]
fn a_superclass_loop_ends_an_instance_s_fields() {
    let mut w = HprofWriter::new(4);
    w.load_class(0x110, "com/example/A");
    w.load_class(0x120, "com/example/B");
    w.class_dump(0x110, 0x120, 8, &[], &[("a", 10)]);
    w.class_dump(0x120, 0x110, 8, &[], &[("b", 10)]);
    w.instance(0x2000, 0x110, &[Int(1), Int(2)]);
    w.root(0x01, 0x2000);
    let p = analyze(&w.finish()).unwrap();
    let fields = products::heap_object(&p.profile, 0x2000).unwrap().fields;
    assert_eq!(fields.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(), ["a", "b"]);
}

/// A string's text is its first 64 bytes' characters, then `…` where the string is longer.
#[test]
fn a_long_string_s_text_is_its_first_characters_then_an_ellipsis() {
    let mut w = strings_dump(16, &[("value", 2), ("coder", 8)], &[0x2000, 0x2001]);
    w.instance(0x2000, 0x101, &[Object(0x3000), Byte(0)]);
    w.instance(0x2001, 0x101, &[Object(0x3001), Byte(0)]);
    w.byte_array(0x3000, &[b'a'; 64]);
    w.byte_array(0x3001, &[b'b'; 100]);
    let p = analyze(&w.finish()).unwrap();
    let text = |id| products::heap_object(&p.profile, id).unwrap().text.unwrap();
    assert_eq!(text(0x2000), "a".repeat(64));
    assert_eq!(text(0x2001), "b".repeat(64) + "…");
}

/// Only a `java.lang.String` has a text, and its text is its `value` field's, whichever
/// reference fields come before it: a `Box` holding bytes in a `value` field is no string.
#[test]
fn a_string_s_text_is_its_value_field_s_and_nothing_else_has_one() {
    let fields = [("owner", 2), ("value", 2), ("coder", 8)];
    let mut w = strings_dump(20, &fields, &[0x2000, 0x2001, 0x2002]);
    w.load_class(0x103, "com/example/Box");
    w.class_dump(0x103, 0x100, 12, &[], &[("value", 2)]);
    w.instance(0x2000, 0x101, &[Object(0x3000), Object(0x3001), Byte(0)]);
    w.instance(0x2001, 0x101, &[Object(0x3000), Object(0x3002), Byte(0)]);
    w.instance(0x2002, 0x103, &[Object(0x3001)]);
    w.byte_array(0x3000, b"owner");
    w.byte_array(0x3001, b"hi");
    w.byte_array(0x3002, b"hi");
    let p = analyze(&w.finish()).unwrap();
    let text = |id| products::heap_object(&p.profile, id).unwrap().text;
    assert_eq!([text(0x2000), text(0x2001), text(0x2002)], [Some("hi".to_owned()), Some("hi".to_owned()), None]);
    let rows = products::heap_duplicates(&p.profile).unwrap();
    let rows: Vec<_> = rows.iter().map(|r| (r.kind, r.count, r.example, r.preview.as_str())).collect();
    assert_eq!(rows, [("string", 2, 0x2000, "hi")]);
}

/// Strings as Java 8 made them: `value` a whole `char[]`, no offset or count; a text of all
/// its array has no `…`.
#[test]
fn a_string_of_a_whole_char_array_is_all_of_it() {
    let mut w = strings_dump(12, &[("value", 2), ("hash", 10)], &[0x2000]);
    w.instance(0x2000, 0x101, &[Object(0x3000), Int(0)]);
    w.char_array(0x3000, "hi");
    let p = analyze(&w.finish()).unwrap();
    assert_eq!(products::heap_object(&p.profile, 0x2000).unwrap().text.as_deref(), Some("hi"));
}
