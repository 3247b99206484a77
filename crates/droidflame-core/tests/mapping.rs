//! Obfuscated traces with their mappings (written by the testkit as R8 and ProGuard do)
//! deobfuscate exactly: every product of the deobfuscated profile equals that of the trace
//! before obfuscation, in every layout. Then each rule on a hand-written mapping, and the
//! real mapping files of the corpus.

use droidflame_core::mapping::{read_mapping, MappingReader, MappingReport};
use droidflame_core::products::{folded, summary, FoldedOptions};
use droidflame_core::Analysis;
use droidflame_core::{analyze, ErrorKind, Profile};
use droidflame_testkit::mapping::{app_trace, is_framework, obfuscate, MappingStyle};
use droidflame_testkit::scenario::{generate, Config};
use droidflame_testkit::{corpus_dir, Layout, MethodDef, Trace};

fn deobfuscated(bytes: &[u8], mapping: &str) -> (Analysis, MappingReport) {
    let mut profile = analyze(bytes).unwrap();
    // In small pieces, so that lines are cut at every place.
    let mut reader = MappingReader::new(&[&profile.profile]);
    for piece in mapping.as_bytes().chunks(7) {
        reader.push(piece).unwrap();
    }
    let report = profile.deobfuscate(&reader.finish().unwrap()).clone();
    (profile, report)
}

fn methods_json(profile: &Analysis) -> Vec<serde_json::Value> {
    let mut json = serde_json::to_value(summary(profile)).unwrap()["methods"].as_array().unwrap().clone();
    for m in &mut json {
        m.as_object_mut().unwrap().remove("obfuscated");
    }
    json
}

#[test]
fn generated_obfuscations_come_back_exactly() {
    let layouts = [Layout::ART_REGULAR, Layout::ART_STREAMING, Layout::V2_FILE];
    for seed in 0..6 {
        let trace = app_trace(seed);
        for style in [MappingStyle::R8, MappingStyle::ProGuard] {
            let obfuscated = obfuscate(&trace, style);
            for layout in &layouts {
                let what = format!("seed {seed}, {style:?}, {layout:?}");
                let original = analyze(&trace.write(layout)).unwrap();
                let obfuscated_profile = analyze(&obfuscated.trace.write(layout)).unwrap();
                let options = FoldedOptions::default();
                assert_ne!(
                    folded(&obfuscated_profile.profile, &options).unwrap(),
                    folded(&original.profile, &options).unwrap()
                );
                let (profile, report) = deobfuscated(&obfuscated.trace.write(layout), &obfuscated.mapping);
                assert_eq!(
                    folded(&profile.profile, &options).unwrap(),
                    folded(&original.profile, &options).unwrap(),
                    "{what}"
                );
                assert_eq!(methods_json(&profile), methods_json(&original), "{what}");
                let app_classes = obfuscated.classes.len() as u64;
                assert_eq!(report.classes.mapped, app_classes, "{what}");
                assert!(report.classes.not_found >= 2, "android.os.Handler and java.lang.String: {what}");
                let app_methods =
                    original.profile.frames.iter().filter(|f| !f.unknown && !is_framework(&f.class)).count();
                assert_eq!(report.methods.mapped, app_methods as u64, "{what}");
                assert_eq!((report.methods.ambiguous, report.methods.not_found), (0, 0), "{what}");
                assert!(report.warnings.is_empty(), "{what}: {:?}", report.warnings);
                // Overloads of one obfuscated name were told apart by their signatures.
                let shared = obfuscated_profile.profile.frames.iter().filter(|f| f.name == "a").count();
                assert!(shared >= 4, "{what}: only {shared} methods named `a`");
            }
        }
    }
}

#[test]
fn the_scenario_oracle_holds_after_deobfuscation() {
    let scenario = generate(11, &Config::default());
    let obfuscated = obfuscate(&scenario.trace, MappingStyle::R8);
    let (profile, _) = deobfuscated(&obfuscated.trace.write(&Layout::ART_REGULAR), &obfuscated.mapping);
    for (tid, stacks) in &scenario.expected(false).stacks {
        let thread = profile.profile.stacks().threads.iter().find(|t| t.tid == *tid).unwrap();
        let options = FoldedOptions { thread: Some(thread.tid), ..FoldedOptions::default() };
        let lines = folded(&profile.profile, &options).unwrap();
        for (stack, ticks) in stacks.iter().filter(|(_, t)| t[0] > 0) {
            assert!(lines.contains(&format!("{stack} {}\n", ticks[0])), "{stack} missing in thread {tid}");
        }
    }
}

/// A trace of the given methods (class, name, descriptor), each called once on `main`.
fn trace_of(methods: &[(&str, &str, &str)]) -> Vec<u8> {
    use droidflame_testkit::{Record, ThreadDef, ENTER, EXIT};
    let mut trace = Trace { threads: vec![ThreadDef { tid: 1, name: "main".into() }], ..Trace::default() };
    for (i, (class, name, sig)) in methods.iter().enumerate() {
        let id = (i as u64 + 1) << 2;
        trace.methods.push(MethodDef::new(id, class, name, sig));
        let t = 1000 + i as u64 * 10;
        trace.records.push(Record { tid: 1, method: id, action: ENTER, wall: t, cpu: t });
        trace.records.push(Record { tid: 1, method: id, action: EXIT, wall: t + 5, cpu: t + 5 });
    }
    trace.write(&Layout::ART_REGULAR)
}

fn names(profile: &Profile) -> Vec<String> {
    profile.frames.iter().map(|f| format!("{}.{}{}", f.class, f.name, f.signature)).collect()
}

const RULES: &str = "\
# compiler: R8
# compiler_version: 8.5.35
# {\"id\":\"com.android.tools.r8.mapping\",\"version\":\"2.2\"}
com.example.Player -> a.b:
# {\"id\":\"sourceFile\",\"fileName\":\"Player.kt\"}
    com.example.Track current -> a
    1:4:void play(com.example.Track):20:23 -> a
    5:5:void play(com.example.Track):30:30 -> a
    6:6:void com.example.Log.debug(java.lang.String):12:12 -> a
    6:6:void play(com.example.Track):31 -> a
    1:2:void play(int):40:41 -> a
    1:1:void seek(long):50:50 -> b
    1:1:void skip(long):60:60 -> b
    1:1:void stop(com.example.Track,int):70:70 -> c
      # {\"id\":\"com.android.tools.r8.residualsignature\",\"signature\":\"(I)V\"}
    1:1:void pause(java.lang.String):80:80 -> c
    void com.example.Util.clamp(int) -> d
com.example.Track -> a.c:
    1:1:java.lang.String title():5:5 -> a
";

#[test]
fn each_rule_on_a_written_mapping() {
    let bytes = trace_of(&[
        ("a.b", "a", "(La/c;)V"),
        ("a.b", "a", "(I)V"),
        ("a.b", "b", "(J)V"),
        ("a.b", "c", "(I)V"),
        ("a.b", "c", "(Ljava/lang/String;)V"),
        ("a.b", "d", "(I)V"),
        ("a.b", "e", "()V"),
        ("a.c", "a", "()Ljava/lang/String;"),
        ("android.view.View", "draw", "(La/c;)V"),
    ]);
    let mut profile = analyze(&bytes).unwrap();
    let mapping = read_mapping(RULES.as_bytes(), &[&profile.profile]).unwrap();
    let report = profile.deobfuscate(&mapping).clone();
    assert_eq!(
        names(&profile.profile),
        [
            // Several line ranges and an inlined callee: one method.
            "com.example.Player.play(Lcom/example/Track;)V",
            // The same obfuscated name, told apart by its parameters.
            "com.example.Player.play(I)V",
            // Two originals with the same parameters: left obfuscated, the class renamed.
            "com.example.Player.b(J)V",
            // R8's residual signature tells `stop` (whose parameters R8 changed) apart.
            "com.example.Player.stop(I)V",
            "com.example.Player.pause(Ljava/lang/String;)V",
            // A method R8 moved here from another class.
            "com.example.Util.clamp(I)V",
            // Not in the mapping: as it was.
            "com.example.Player.e()V",
            "com.example.Track.title()Ljava/lang/String;",
            // The framework keeps its names; app classes in its signatures are renamed.
            "android.view.View.draw(Lcom/example/Track;)V",
        ]
    );
    assert_eq!(profile.profile.frames[0].source.as_deref(), Some("Player.kt"));
    assert_eq!((report.classes.mapped, report.classes.not_found), (2, 2));
    assert_eq!((report.methods.mapped, report.methods.ambiguous, report.methods.not_found), (6, 1, 1));
    assert_eq!(report.ambiguous_examples, ["com.example.Player.b"]);
    assert_eq!(report.compiler_version.as_deref(), Some("8.5.35"));
    assert_eq!(profile.profile.obfuscated_name(0).as_deref(), Some("a.b.a"));
    assert_eq!(profile.profile.obfuscated_name(8), None);
    let text = report.describe();
    assert!(text.contains("2 classes and 6 methods mapped"), "{text}");
    assert!(text.contains("1 method keeps its obfuscated name: it has several originals"), "{text}");

    // Applied again (another mapping, say), it starts from the trace's own names.
    let report = profile.deobfuscate(&mapping).clone();
    assert_eq!(names(&profile.profile)[0], "com.example.Player.play(Lcom/example/Track;)V");
    assert_eq!(report.methods.mapped, 6);
}

#[test]
fn a_mapping_of_another_build_is_told() {
    // The trace's classes sit in the mapping's obfuscated packages, but few are listed.
    let bytes = trace_of(&[("a.b", "a", "()V"), ("a.x", "a", "()V"), ("a.y", "a", "()V"), ("a.z", "a", "()V")]);
    let mut profile = analyze(&bytes).unwrap();
    let mapping = read_mapping(RULES.as_bytes(), &[&profile.profile]).unwrap();
    let report = profile.deobfuscate(&mapping);
    assert_eq!(report.warnings.len(), 1, "{:?}", report.warnings);
    assert!(report.warnings[0].contains("of the trace's 4 classes in its obfuscated packages, only 1"));

    // None listed at all, the trace's classes being the mapping's originals.
    let bytes = trace_of(&[("com.example.Player", "play", "(I)V"), ("com.example.Track", "title", "()V")]);
    let mut profile = analyze(&bytes).unwrap();
    let mapping = read_mapping(RULES.as_bytes(), &[&profile.profile]).unwrap();
    let report = profile.deobfuscate(&mapping);
    assert!(report.warnings[0].contains("lists none of the trace's"), "{:?}", report.warnings);
    assert!(report.warnings[0].contains("may not be obfuscated at all"), "{:?}", report.warnings);
    assert_eq!(names(&profile.profile)[0], "com.example.Player.play(I)V");
}

#[test]
fn what_is_no_mapping_is_refused_and_damage_is_counted() {
    let profile = analyze(&trace_of(&[("a.b", "a", "()V")])).unwrap();
    for (input, says) in [
        (&b""[..], "the file is empty"),
        (b"# compiler: R8\n", "no class lines"),
        (b"hello world\n", "line 1 is no mapping line: `hello world`"),
        (b"    void a() -> b\n", "line 1 is a member line before any class line"),
        (b"*version\n3\n", "line 1 is no mapping line"),
        (b"\x00\x01\x02SLOW", "line 1 is no mapping line"),
        (b"\x1f\x8b\x08\x00\x00\x00\x00\x00", "gzip-compressed: unpack it first"),
    ] {
        let error = read_mapping(input, &[&profile.profile]).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::NotAMapping);
        assert!(error.to_string().starts_with("not a mapping file: "), "{error}");
        assert!(error.to_string().contains(says), "{error}");
    }
    let damaged = RULES
        .replace("    1:2:void play(int):40:41 -> a", "    1:2:void play(int):40:41 -=")
        .replace("com.example.Track -> a.c:", "com.example.Track -> a.c:\n\x01garbage\n    1:1:void lost() -> a");
    let mut profile = analyze(&trace_of(&[("a.b", "a", "(I)V"), ("a.c", "a", "()V")])).unwrap();
    let mapping = read_mapping(damaged.as_bytes(), &[&profile.profile]).unwrap();
    let report = profile.deobfuscate(&mapping).clone();
    assert_eq!(report.skipped_lines, 2);
    assert_eq!(report.first_skipped_line, Some(11));
    // The damaged line was `play(int)`: `a(I)` of a.b now has one candidate less.
    assert!(
        report.describe().contains("2 lines of the mapping are no mapping record and were skipped"),
        "{}",
        report.describe()
    );
    // The members after a damaged class line belong to no class.
    assert_eq!(names(&profile.profile)[1], "com.example.Track.a()V");
}

#[test]
fn the_corpus_mappings_read_and_apply() {
    if !droidflame_testkit::corpus_present("mapping::the_corpus_mappings_read_and_apply") {
        return;
    }
    let dir = corpus_dir().join("mapping");
    // Methods each file lists, as a trace names them, and what they resolve to.
    type Case = (&'static str, &'static [(&'static str, &'static str, &'static str)], &'static [&'static str]);
    let cases: [Case; 5] = [
        (
            // ProGuard's own format; a kept class whose methods are renamed, four of them to `a`.
            "rustproguard-mapping-proguard.txt",
            &[
                ("android.support.constraint.ConstraintLayout", "a", "()V"),
                ("android.support.constraint.ConstraintLayout", "a", "(II)V"),
            ],
            &[
                "android.support.constraint.ConstraintLayout.solveLinearSystem()V",
                "android.support.constraint.ConstraintLayout.internalMeasureChildren(II)V",
            ],
        ),
        (
            "rustproguard-mapping-r8-1.3.49.txt",
            &[
                ("a.a.a.a.c", "a", "(Ljava/lang/Runnable;)V"),
                ("a.a.a.a.c", "a", "()Z"),
                ("a.a.a.a.c", "b", "()La/a/a/a/c;"),
            ],
            &[
                "android.arch.core.executor.ArchTaskExecutor.executeOnDiskIO(Ljava/lang/Runnable;)V",
                "android.arch.core.executor.ArchTaskExecutor.isMainThread()Z",
                "android.arch.core.executor.ArchTaskExecutor.getInstance()Landroid/arch/core/executor/ArchTaskExecutor;",
            ],
        ),
        (
            // `<init>` lists two inlined callees (`create`, `getLifecycle`): still one method.
            "rustproguard-mapping-inlines-r8-2.0.74.txt",
            &[("androidx.activity.ComponentActivity", "<init>", "()V")],
            &["androidx.activity.ComponentActivity.<init>()V"],
        ),
        (
            // A synthetic lambda's method, its body the inlined `onCreate$lambda$1`.
            "rustproguard-mapping-callback-r8-4.0.48.txt",
            &[("io.sentry.samples.instrumentation.ui.g", "onMenuItemClick", "(Landroid/view/MenuItem;)Z")],
            &["io.sentry.samples.instrumentation.ui.EditActivity$$InternalSyntheticLambda$1$\
               ebaa538726b99bb77e0f5e7c86443911af17d6e5be2b8771952ae0caa4ff2ac7$0.onMenuItemClick(Landroid/view/MenuItem;)Z"],
        ),
        (
            // An outline, named by R8 as a method of another class.
            "rustproguard-mapping-outline-complex.txt",
            &[("ev.h", "a", "(Landroid/media/MediaMetadataRetriever;)V")],
            &["ev.CanvasAttributeLayoutKt$$ExternalSyntheticOutline0.m(Landroid/media/MediaMetadataRetriever;)V"],
        ),
    ];
    for (file, methods, resolved) in cases {
        let bytes = std::fs::read(dir.join(file)).unwrap();
        let mut profile = analyze(&trace_of(methods)).unwrap();
        let mapping = read_mapping(&bytes, &[&profile.profile]).unwrap();
        let report = profile.deobfuscate(&mapping).clone();
        assert_eq!(names(&profile.profile), resolved, "{file}");
        assert_eq!(report.methods.mapped, methods.len() as u64, "{file}");
        assert_eq!((report.skipped_lines, report.warnings.len()), (0, 0), "{file}: {report:?}");
    }
}

#[test]
fn mapping_files_are_told_from_traces_by_their_first_bytes() {
    if !droidflame_testkit::corpus_present("mapping::mapping_files_are_told_from_traces_by_their_first_bytes") {
        return;
    }
    use droidflame_core::mapping::{sniff, Sniff};
    for file in std::fs::read_dir(corpus_dir().join("mapping")).unwrap() {
        let path = file.unwrap().path();
        if path.extension().is_some_and(|e| e == "txt") {
            let bytes = std::fs::read(&path).unwrap();
            assert_eq!(sniff(&bytes[..bytes.len().min(4096)]), Sniff::Mapping, "{}", path.display());
        }
    }
    for name in [
        "tracecompass-atrace-test.txt",
        "ffprof-art-regular.trace",
        "SOURCES.md",
        "catapult-tracing-android_systrace.html",
    ] {
        let bytes = std::fs::read(corpus_dir().join(name)).unwrap();
        assert_eq!(sniff(&bytes[..4096]), Sniff::NotMapping, "{name}");
    }
    assert_eq!(sniff(b"# compiler: R8\n# compiler_version: 8"), Sniff::NotSureYet);
    assert_eq!(sniff(b"# compiler: R8\ncom.example.Foo -> a"), Sniff::NotSureYet);
    assert_eq!(sniff(b""), Sniff::NotSureYet);
}

#[test]
fn a_comparison_tells_when_only_one_side_has_original_names() {
    use droidflame_core::products::{compare, DiffOptions};
    let trace = app_trace(8);
    let obfuscated = obfuscate(&trace, MappingStyle::R8);
    let bytes = obfuscated.trace.write(&Layout::ART_REGULAR);
    let (mapped, _) = deobfuscated(&bytes, &obfuscated.mapping);
    let plain = analyze(&bytes).unwrap();
    let comparison = compare(&mapped, &plain, &DiffOptions::default()).unwrap();
    assert!(comparison.warnings.iter().any(|w| w.contains("apply after's mapping too")), "{:?}", comparison.warnings);
    let comparison = compare(&mapped, &mapped, &DiffOptions::default()).unwrap();
    assert!(!comparison.warnings.iter().any(|w| w.contains("mapping")));
}

#[test]
fn a_whole_mapping_in_memory_renames_as_one_read_in_pieces_does() {
    let obfuscated = obfuscate(&app_trace(5), MappingStyle::R8);
    let bytes = obfuscated.trace.write(&Layout::ART_STREAMING);
    let (pieces, report) = deobfuscated(&bytes, &obfuscated.mapping);
    let mut whole = analyze(&bytes).unwrap();
    let whole_report = whole.deobfuscate_with(obfuscated.mapping.as_bytes()).unwrap().clone();
    assert_eq!(methods_json(&whole), methods_json(&pieces));
    assert_eq!(whole_report.methods.mapped, report.methods.mapped);
    assert!(whole_report.methods.mapped > 0);
    let error = analyze(&bytes).unwrap().deobfuscate_with(b"not a mapping at all\n").unwrap_err();
    assert!(error.to_string().contains("line 1"), "{error}");
}

#[test]
fn a_views_methods_table_names_each_mapped_method_as_the_trace_did() {
    let bytes = trace_of(&[
        ("a.b", "c", "(Ljava/lang/String;)V"),
        ("a.c", "a", "()Ljava/lang/String;"),
        ("android.view.View", "draw", "()V"),
    ]);
    let mut profile = analyze(&bytes).unwrap();
    profile.deobfuscate(&read_mapping(RULES.as_bytes(), &[&profile.profile]).unwrap());
    let view = droidflame_core::products::View::default();
    let json: serde_json::Value = serde_json::from_str(
        &droidflame_core::products::methods_json_of_view(&profile.profile, Some(0), &view).unwrap(),
    )
    .unwrap();
    let mut names: Vec<(&str, Option<&str>)> = json["methods"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["name"].as_str().unwrap(), m["obfuscated"].as_str()))
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            ("android.view.View.draw", None),
            ("com.example.Player.pause", Some("a.b.c")),
            ("com.example.Track.title", Some("a.c.a")),
        ]
    );
}
