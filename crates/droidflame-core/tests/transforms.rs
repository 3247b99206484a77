//! Transforms and the inverted tree give exactly what their definitions give when applied
//! by hand to the plain folded stacks (root first, the thread frame left alone, equal
//! stacks merged after): on generated method traces with recursion, and on the corpus's
//! CPU samples and system traces. The call tree's rows add up to the same stacks.

use droidflame_core::products::{self, Code, FoldedOptions, GraphScope, Transform, TreeFormat, TreeOptions, View};
use droidflame_core::profile::{Call, ThreadCalls};
use droidflame_core::{analyze, analyze_with, Analysis, Clock, Options};
use droidflame_testkit::scenario::{generate, Config};
use droidflame_testkit::Layout;
use std::collections::BTreeMap;

type Stacks = BTreeMap<Vec<String>, u64>;

/// Folded text as stacks: frames (the thread's first) and values, zeros left out.
fn parse(folded: &str) -> Stacks {
    let mut out = Stacks::new();
    for line in folded.lines() {
        let (stack, value) = line.rsplit_once(' ').unwrap();
        let value: u64 = value.parse().unwrap();
        if value > 0 {
            *out.entry(stack.split(';').map(str::to_owned).collect()).or_default() += value;
        }
    }
    out
}

/// One transform by its definition, on one stack's frames below the thread frame; `None`
/// when the stack is left out.
fn by_hand(transform: &Transform, mut frames: Vec<String>) -> Option<Vec<String>> {
    let first = |f: &String, frames: &[String]| frames.iter().position(|x| x == f);
    match transform {
        Transform::Merge(f) => {
            frames.retain(|x| x != f);
            Some(frames)
        }
        Transform::Focus(f) => first(f, &frames).map(|at| frames[at..].to_vec()),
        Transform::CallersOf(f) => first(f, &frames).map(|at| frames[..=at].to_vec()),
        Transform::FocusSubtree(path) => frames.starts_with(path).then(|| frames[path.len() - 1..].to_vec()),
        Transform::Drop(f) => first(f, &frames).is_none().then_some(frames),
        Transform::CollapseRecursion(f) => {
            if let (Some(outer), Some(inner)) = (first(f, &frames), frames.iter().rposition(|x| x == f)) {
                frames.drain(outer + 1..=inner);
            }
            Some(frames)
        }
        Transform::CollapseDirectRecursion(f) => {
            frames.dedup_by(|b, a| a == f && b == f);
            Some(frames)
        }
        Transform::CollapsePackage(prefix) => {
            let into = format!("{prefix}*");
            let mut out: Vec<String> =
                frames.into_iter().map(|f| if f.starts_with(prefix.as_str()) { into.clone() } else { f }).collect();
            out.dedup_by(|b, a| *a == into && *b == into);
            Some(out)
        }
        Transform::CollapseLibrary(_) | Transform::Hide(_) => {
            unreachable!("checked in its own test, which knows each frame's library")
        }
    }
}

fn view_by_hand(plain: &Stacks, view: &View) -> Stacks {
    let mut out = Stacks::new();
    'stacks: for (stack, value) in plain {
        let (thread, mut frames) = (stack[0].clone(), stack[1..].to_vec());
        for transform in &view.transforms {
            match by_hand(transform, frames) {
                Some(kept) => frames = kept,
                None => continue 'stacks,
            }
        }
        if view.invert {
            frames.reverse();
        }
        let mut stack = vec![thread];
        stack.extend(frames);
        *out.entry(stack).or_default() += value;
    }
    out
}

fn folded_with(profile: &Analysis, view: &View) -> Stacks {
    parse(
        &products::folded(&profile.profile, &FoldedOptions { view: view.clone(), ..FoldedOptions::default() }).unwrap(),
    )
}

/// The call tree's rows as stacks: each row's self is its stack's value, its total the
/// sum over the stacks through it.
fn tree_rows(profile: &Analysis, view: &View) -> Stacks {
    let options = TreeOptions { view: view.clone(), format: TreeFormat::Tsv, ..TreeOptions::default() };
    let mut text = Vec::new();
    products::write_tree(&profile.profile, &options, &mut text).unwrap();
    let text = String::from_utf8(text).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("depth\ttotal\tself\tframe"));
    let mut path: Vec<String> = Vec::new();
    let mut rows: Vec<(Vec<String>, u64, u64)> = Vec::new();
    for line in lines {
        let fields: Vec<&str> = line.splitn(4, '\t').collect();
        let depth: usize = fields[0].parse().unwrap();
        path.truncate(depth);
        path.push(fields[3].to_owned());
        rows.push((path.clone(), fields[1].parse().unwrap(), fields[2].parse().unwrap()));
    }
    let stacks: Stacks = rows.iter().filter(|r| r.2 > 0).map(|(p, _, own)| (p.clone(), *own)).collect();
    for (prefix, total, _) in &rows {
        let through: u64 = stacks.iter().filter(|(s, _)| s.starts_with(prefix)).map(|(_, v)| v).sum();
        assert_eq!(*total, through, "the total of {prefix:?}");
    }
    stacks
}

/// Views over the frames of `plain`: each transform on a frame many stacks pass through,
/// on one that recurses, on a path, then all of them in a row, each also inverted.
fn views(plain: &Stacks) -> Vec<View> {
    let mut count: BTreeMap<&String, usize> = BTreeMap::new();
    for stack in plain.keys() {
        for frame in &stack[1..] {
            *count.entry(frame).or_default() += 1;
        }
    }
    let busiest = count.iter().max_by_key(|(_, n)| **n).map(|(f, _)| (*f).clone()).expect("frames");
    let recursive = plain
        .keys()
        .flat_map(|s| s[1..].iter().filter(|f| s[1..].iter().filter(|x| x == f).count() > 1))
        .next()
        .cloned()
        .unwrap_or_else(|| busiest.clone());
    // A path of two frames where a stack is that deep, else of one.
    let path = match plain.keys().find(|s| s.len() > 3) {
        Some(deep) => deep[1..3].to_vec(),
        None => plain.keys().find(|s| s.len() > 1).map(|s| s[1..2].to_vec()).expect("a frame"),
    };
    let one = |t: Transform| vec![t];
    let mut transforms = vec![
        one(Transform::Merge(busiest.clone())),
        one(Transform::Merge(recursive.clone())),
        one(Transform::Focus(busiest.clone())),
        one(Transform::Focus(recursive.clone())),
        one(Transform::CallersOf(busiest.clone())),
        one(Transform::CallersOf(recursive.clone())),
        one(Transform::FocusSubtree(path.clone())),
        one(Transform::Drop(busiest.clone())),
        one(Transform::CollapseRecursion(recursive.clone())),
        one(Transform::CollapseDirectRecursion(recursive.clone())),
        vec![
            Transform::CollapseRecursion(recursive.clone()),
            Transform::Focus(busiest.clone()),
            Transform::Merge(recursive.clone()),
        ],
        vec![],
    ];
    transforms.push(vec![Transform::Drop(recursive.clone()), Transform::FocusSubtree(path)]);
    // The package of the busiest frame (its first dotted part), alone and after a merge.
    let package = busiest.split_once('.').map_or(busiest.clone(), |(head, _)| format!("{head}."));
    transforms.push(vec![Transform::CollapsePackage(package.clone())]);
    transforms.push(vec![Transform::Merge(recursive), Transform::CollapsePackage(package)]);
    transforms.into_iter().flat_map(|t| [false, true].map(|invert| View { transforms: t.clone(), invert })).collect()
}

/// The viewer's table of one thread's tree, as `(path, total, self)` rows on `clock`, the
/// path starting with the thread's label; rows worth nothing left out.
fn table_rows(profile: &Analysis, thread: usize, view: &View, clock: Clock) -> Vec<(Vec<String>, u64, u64)> {
    let table = products::call_tree_table(&profile.profile, GraphScope::Thread(thread), view).unwrap();
    let (total, own) = match clock {
        Clock::Wall => (&table.total_wall, &table.self_wall),
        Clock::Cpu => (&table.total_cpu, &table.self_cpu),
    };
    let mut paths: Vec<Vec<String>> = Vec::new();
    let mut rows = Vec::new();
    for n in 0..table.parent.len() {
        let path = match table.parent[n] {
            u32::MAX => vec![profile.profile.stacks().threads[thread].label()],
            up => [paths[up as usize].clone(), vec![table.names[table.name[n] as usize].clone()]].concat(),
        };
        if total[n] > 0 {
            rows.push((path.clone(), total[n], own[n]));
        }
        paths.push(path);
    }
    rows.sort();
    rows
}

/// The same rows from the TSV tree of that thread.
fn tsv_rows(profile: &Analysis, thread: usize, view: &View) -> Vec<(Vec<String>, u64, u64)> {
    let tid = profile.profile.stacks().threads[thread].tid;
    let options =
        TreeOptions { view: view.clone(), thread: Some(tid), format: TreeFormat::Tsv, ..TreeOptions::default() };
    let mut text = Vec::new();
    products::write_tree(&profile.profile, &options, &mut text).unwrap();
    let mut path: Vec<String> = Vec::new();
    let mut rows = Vec::new();
    for line in String::from_utf8(text).unwrap().lines().skip(1) {
        let fields: Vec<&str> = line.splitn(4, '\t').collect();
        path.truncate(fields[0].parse().unwrap());
        path.push(fields[3].to_owned());
        rows.push((path.clone(), fields[1].parse().unwrap(), fields[2].parse().unwrap()));
    }
    rows.sort();
    rows
}

/// Per frame name, inclusive and exclusive time; per (caller, callee), the time of the
/// stacks that make that call; and the sum of what the frames hold (a stack with no frame
/// but its thread's is no method's).
type MethodSums = (BTreeMap<String, (u64, u64)>, BTreeMap<(Option<String>, String), u64>, u64);

/// The methods table by its definitions, from one thread's stacks: a frame's inclusive
/// time is that of the stacks through it, once each however often it recurs; its exclusive
/// time, of those that end at it; a call's, of the stacks that make it at least once.
fn methods_by_hand(stacks: &Stacks) -> MethodSums {
    let (mut rows, mut edges, mut total) = (BTreeMap::new(), BTreeMap::new(), 0);
    for (stack, &value) in stacks {
        let frames = &stack[1..];
        let Some(last) = frames.last() else { continue };
        total += value;
        let mut seen: Vec<&String> = Vec::new();
        for frame in frames {
            if !seen.contains(&frame) {
                seen.push(frame);
                rows.entry(frame.clone()).or_insert((0, 0)).0 += value;
            }
        }
        rows.entry(last.clone()).or_insert((0, 0)).1 += value;
        let mut calls: Vec<(Option<String>, String)> = Vec::new();
        for (i, frame) in frames.iter().enumerate() {
            let call = (i.checked_sub(1).map(|c| frames[c].clone()), frame.clone());
            if !calls.contains(&call) {
                calls.push(call);
            }
        }
        for call in calls {
            *edges.entry(call).or_default() += value;
        }
    }
    (rows, edges, total)
}

/// The same from the methods table of `view` on one thread; rows and calls worth nothing
/// on `clock` left out.
fn methods_of_view(profile: &Analysis, thread: usize, view: &View, clock: Clock) -> MethodSums {
    let json: serde_json::Value =
        serde_json::from_str(&products::methods_json_of_view(&profile.profile, Some(thread), view).unwrap()).unwrap();
    let key = |kind: &str| format!("{kind}_{}_us", clock.name());
    let us = |v: &serde_json::Value, kind: &str| v[key(kind)].as_u64().unwrap();
    let methods = json["methods"].as_array().unwrap();
    let name = |i: &serde_json::Value| methods[i.as_u64().unwrap() as usize]["name"].as_str().unwrap().to_owned();
    let rows = methods
        .iter()
        .map(|m| (m["name"].as_str().unwrap().to_owned(), (us(m, "incl"), us(m, "excl"))))
        .filter(|(_, (incl, _))| *incl > 0)
        .collect();
    let edges = json["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| ((Some(&e["caller"]).filter(|c| !c.is_null()).map(name), name(&e["callee"])), us(e, "incl")))
        .filter(|(_, incl)| *incl > 0)
        .collect();
    (rows, edges, json[format!("total_{}_us", clock.name())].as_u64().unwrap())
}

/// Equal maps, or a panic naming the first few keys that differ (the maps are large).
fn same_entries<K: Ord + std::fmt::Debug, V: PartialEq + std::fmt::Debug>(
    got: &BTreeMap<K, V>,
    want: &BTreeMap<K, V>,
    what: &str,
) {
    let keys: std::collections::BTreeSet<&K> = got.keys().chain(want.keys()).collect();
    let differ: Vec<String> = keys
        .into_iter()
        .filter(|k| got.get(k) != want.get(k))
        .take(5)
        .map(|k| format!("{k:?}: {:?}, by hand {:?}", got.get(k), want.get(k)))
        .collect();
    assert!(differ.is_empty(), "{what}:\n{}", differ.join("\n"));
}

fn check_every_view(what: &str, profile: &Analysis) {
    let plain = folded_with(profile, &View::default());
    for view in views(&plain) {
        let expected = view_by_hand(&plain, &view);
        assert_eq!(folded_with(profile, &view), expected, "{what}: folded stacks of {view:?}");
        assert_eq!(tree_rows(profile, &view), expected, "{what}: the call tree of {view:?}");
        for thread in 0..profile.profile.stacks().threads.len().min(3) {
            let clock = profile.profile.default_clock();
            assert_eq!(
                table_rows(profile, thread, &view, clock),
                tsv_rows(profile, thread, &view),
                "{what}: the table of {view:?}"
            );
            let label = profile.profile.stacks().threads[thread].label();
            let alone = profile.profile.stacks().threads.iter().filter(|t| t.label() == label).count() == 1;
            if !view.invert && alone {
                let stacks: Stacks =
                    expected.iter().filter(|(s, _)| s[0] == label).map(|(s, v)| (s.clone(), *v)).collect();
                let (got, want) = (methods_of_view(profile, thread, &view, clock), methods_by_hand(&stacks));
                assert_eq!(got.2, want.2, "{what}: the methods' total of thread {thread} in {view:?}");
                same_entries(&got.0, &want.0, &format!("{what}: the methods of thread {thread} in {view:?}"));
                same_entries(&got.1, &want.1, &format!("{what}: the calls of thread {thread} in {view:?}"));
            }
        }
    }
}

#[test]
fn generated_method_traces_with_recursion() {
    for seed in 0..6 {
        let config = Config { threads: 3, methods: 7, events_per_thread: 400, max_depth: 12, ..Config::default() };
        let trace = generate(seed, &config).trace.write(&Layout::ART_REGULAR);
        check_every_view(&format!("seed {seed}"), &analyze(&trace).unwrap());
    }
}

#[test]
fn corpus_samples_and_system_traces() {
    if !droidflame_testkit::corpus_present("transforms::corpus_samples_and_system_traces") {
        return;
    }
    for name in [
        "simpleperf/aosp-simpleperf-display_bitmaps.proto_data",
        "atrace/catapult-systrace-decompressed_atrace_data.txt",
        "atrace/perfetto-sched_blocked_systrace.systrace",
        "perflib-basic.trace",
    ] {
        let path = droidflame_testkit::corpus_dir().join(name);
        let Ok(bytes) = std::fs::read(&path) else {
            panic!("{} is not in the corpus", path.display());
        };
        check_every_view(name, &analyze(&bytes).unwrap());
    }
}

#[test]
fn a_frame_the_trace_does_not_have_is_named_in_the_error() {
    let trace = generate(1, &Config::default()).trace.write(&Layout::ART_REGULAR);
    let profile = analyze(&trace).unwrap();
    let view = View { transforms: vec![Transform::Focus("no.Such.method".into())], invert: false };
    let error = products::folded(&profile.profile, &FoldedOptions { view, ..FoldedOptions::default() }).unwrap_err();
    assert!(error.to_string().contains("\"no.Such.method\""), "{error}");
}

#[test]
fn calls_stay_with_their_own_frame() {
    use droidflame_testkit::{MethodDef, Record, ThreadDef, Trace};
    // A calls F, F calls B, B calls F again, that F calls C: one call each.
    let methods =
        ["A", "F", "B", "C"].iter().enumerate().map(|(i, m)| MethodDef::new(4 * (i as u64 + 1), "p/K", m, "()V"));
    let order = [4, 8, 12, 8, 16];
    let mut records = Vec::new();
    for (i, &method) in order.iter().enumerate() {
        records.push(Record { tid: 3, method, action: 0, wall: 10 * i as u64, cpu: 0 });
    }
    for (i, &method) in order.iter().rev().enumerate() {
        records.push(Record { tid: 3, method, action: 1, wall: 50 + i as u64, cpu: 0 });
    }
    let trace = Trace {
        threads: vec![ThreadDef { tid: 3, name: "main".into() }],
        methods: methods.collect(),
        records,
        ..Trace::default()
    };
    let profile = analyze(&trace.write(&Layout::ART_REGULAR)).unwrap();
    let calls = |view: View| {
        let table = products::call_tree_table(&profile.profile, GraphScope::Thread(0), &view).unwrap();
        let mut out: Vec<(String, u64)> =
            (1..table.parent.len()).map(|n| (table.names[table.name[n] as usize].clone(), table.calls[n])).collect();
        out.sort();
        out
    };
    let named = |pairs: &[(&str, u64)]| pairs.iter().map(|(n, c)| (format!("p.K.{n}"), *c)).collect::<Vec<_>>();
    assert_eq!(calls(View::default()), named(&[("A", 1), ("B", 1), ("C", 1), ("F", 1), ("F", 1)]));
    // The inner F is folded into the outer one: its call is not the outer F's.
    let collapsed = View { transforms: vec![Transform::CollapseRecursion("p.K.F".into())], invert: false };
    assert_eq!(calls(collapsed), named(&[("A", 1), ("B", 1), ("C", 1), ("F", 1)]));
    // B merged: its time goes to the outer F, its call nowhere.
    let merged = View { transforms: vec![Transform::Merge("p.K.B".into())], invert: false };
    assert_eq!(calls(merged), named(&[("A", 1), ("C", 1), ("F", 1), ("F", 1)]));
}

#[test]
fn views_read_from_json_and_refuse_what_is_no_view() {
    let view =
        View::from_json(r#"{"transforms": [{"merge": "a.B.c"}, {"focus_subtree": ["x", "y"]}], "invert": true}"#);
    assert_eq!(
        view.unwrap(),
        View {
            transforms: vec![Transform::Merge("a.B.c".into()), Transform::FocusSubtree(vec!["x".into(), "y".into()])],
            invert: true
        }
    );
    assert_eq!(View::from_json("{}").unwrap(), View::default());
    let written = View { transforms: vec![Transform::CollapseRecursion("f".into())], invert: false };
    assert_eq!(View::from_json(&serde_json::to_string(&written).unwrap()).unwrap(), written);
    for hostile in [r#"{"transforms": [{"eval": "x"}]}"#, r#"{"invert": "yes"}"#, "<script>", r#"{"extra": 1}"#] {
        let error = View::from_json(hostile).unwrap_err();
        assert!(error.to_string().contains("this view cannot be read"), "{hostile}: {error}");
    }
}

#[test]
fn a_library_collapses_into_one_frame_wherever_its_frames_call_each_other() {
    if !droidflame_testkit::corpus_present("transforms::a_library_collapses_into_one_frame") {
        return;
    }
    let bytes = droidflame_testkit::corpus_file("simpleperf/aosp-simpleperf-display_bitmaps.proto_data");
    let profile = analyze(&bytes).unwrap();
    let plain = folded_with(&profile, &View::default());
    let file_of = |source: &str| source.rsplit('/').next().unwrap_or(source).to_owned();
    let mut libraries: BTreeMap<String, usize> = BTreeMap::new();
    for frame in &profile.profile.frames {
        if let Some(source) = &frame.source {
            *libraries.entry(file_of(source)).or_default() += 1;
        }
    }
    assert!(libraries.len() > 2, "the file names its libraries: {libraries:?}");
    for library in libraries.keys().take(4) {
        let inside: Vec<String> = profile
            .profile
            .frames
            .iter()
            .filter(|f| f.source.as_deref().map(file_of).as_deref() == Some(library.as_str()))
            .map(|f| f.display_name().replace(';', ":"))
            .collect();
        let mut expected = Stacks::new();
        for (stack, value) in &plain {
            let mut frames: Vec<String> =
                stack[1..].iter().map(|f| if inside.contains(f) { library.clone() } else { f.clone() }).collect();
            frames.dedup_by(|b, a| a == library && b == library);
            let mut collapsed = vec![stack[0].clone()];
            collapsed.extend(frames);
            *expected.entry(collapsed).or_default() += value;
        }
        let view = View { transforms: vec![Transform::CollapseLibrary(library.clone())], invert: false };
        assert_eq!(folded_with(&profile, &view), expected, "{library}");
        // What a frame's menu offers: each of its name's frames' libraries, once.
        let name = &inside[0];
        let mut offered: Vec<String> = profile
            .profile
            .frames
            .iter()
            .filter(|f| &f.display_name().replace(';', ":") == name)
            .filter_map(|f| f.source.as_deref().map(file_of))
            .collect();
        offered.sort();
        offered.dedup();
        assert_eq!(products::libraries_of(&profile.profile, name), offered, "{name}");
    }
    assert_eq!(products::libraries_of(&profile.profile, "no such frame"), Vec::<String>::new());
    // A kernel function named as the flame graph shows it, without its `_[k]`, is the same frame.
    let kernel =
        plain.keys().flat_map(|stack| stack.iter()).find(|f| f.ends_with("_[k]")).expect("a kernel frame").clone();
    let shown = kernel.trim_end_matches("_[k]").to_owned();
    assert_eq!(products::libraries_of(&profile.profile, &shown), vec!["[kernel.kallsyms]".to_owned()]);
    let merged =
        |name: &str| folded_with(&profile, &View { transforms: vec![Transform::Merge(name.into())], invert: false });
    assert_eq!(merged(&shown), merged(&kernel));
    assert_ne!(merged(&kernel), plain);
    let none = View { transforms: vec![Transform::CollapseLibrary("libnothing.so".into())], invert: false };
    let error =
        products::folded(&profile.profile, &FoldedOptions { view: none, ..FoldedOptions::default() }).unwrap_err();
    assert!(error.to_string().contains("libnothing.so"), "{error}");
}

#[test]
fn a_methods_source_file_is_no_library() {
    if !droidflame_testkit::corpus_present("transforms::a_methods_source_file_is_no_library") {
        return;
    }
    let profile = analyze(&droidflame_testkit::corpus_file("ffprof-art-regular.trace")).unwrap();
    let dispatch = "android.os.Handler.dispatchMessage";
    let source = profile.profile.frames.iter().find(|f| f.display_name() == dispatch).and_then(|f| f.source.clone());
    assert_eq!(source.as_deref(), Some("Handler.java"), "the method trace names the source file");
    assert_eq!(products::libraries_of(&profile.profile, dispatch), Vec::<String>::new());
    let view = View { transforms: vec![Transform::CollapseLibrary("Handler.java".into())], invert: false };
    let error = products::folded(&profile.profile, &FoldedOptions { view, ..FoldedOptions::default() }).unwrap_err();
    assert!(error.to_string().contains("no frame of this trace is in \"Handler.java\""), "{error}");
}

#[test]
fn method_deltas_in_a_view_are_each_sides_methods_table_of_that_view() {
    let config = Config { threads: 3, methods: 7, events_per_thread: 400, max_depth: 12, ..Config::default() };
    let [before, after] =
        [1, 2].map(|seed| analyze(&generate(seed, &config).trace.write(&Layout::ART_REGULAR)).unwrap());
    let plain = folded_with(&before, &View::default());
    // With no transform, both read the plain table, whose overloads are rows of their own.
    for view in views(&plain).into_iter().filter(|v| !v.invert && !v.transforms.is_empty()) {
        let clock = before.profile.default_clock();
        let rows = products::method_deltas(&before.profile, &after.profile, clock, None, &view).unwrap();
        for (side, profile) in [(0, &before), (1, &after)] {
            // A frame the view names may be on the other side only.
            let Ok(text) = products::methods_json_of_view(&profile.profile, None, &view) else { continue };
            let json: serde_json::Value = serde_json::from_str(&text).unwrap();
            let key = format!("incl_{}_us", clock.name());
            let table: BTreeMap<String, (u64, u64)> = json["methods"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| {
                    (m["name"].as_str().unwrap().to_owned(), (m["calls"].as_u64().unwrap(), m[&key].as_u64().unwrap()))
                })
                .collect();
            let deltas: BTreeMap<String, (u64, u64)> = rows
                .iter()
                .map(|r| if side == 0 { (r, r.before) } else { (r, r.after) })
                .filter(|(_, t)| t.calls > 0 || t.incl_us > 0)
                .map(|(r, t)| (r.name.clone(), (t.calls, t.incl_us)))
                .collect();
            let table: BTreeMap<String, (u64, u64)> =
                table.into_iter().filter(|(_, (c, i))| *c > 0 || *i > 0).collect();
            same_entries(&deltas, &table, &format!("side {side} of {view:?}"));
        }
    }
}

/// The frames running at `at` (root first), one per depth: the calls with `start <= at <
/// end`, named as folded stacks name them.
fn running_at(calls: &ThreadCalls, at: u64, name: impl Fn(&Call) -> String) -> Vec<String> {
    let mut stack = Vec::new();
    for depth in 0..calls.depth_count() {
        match calls.overlapping_at(depth, at, at).iter().find(|c| c.start <= at && at < c.end) {
            Some(call) => stack.push(name(call)),
            None => break,
        }
    }
    stack
}

/// A view's timeline shows, at every moment, the stack that ran there as the transforms'
/// definitions make it, applied by hand (a stack left out: nothing); a box keeps its call's
/// CPU time only where it is that call, whole. With no transform, every call is its box.
fn check_timeline(what: &str, profile: &Analysis) {
    // Folded text cannot hold `;` or a line break in a frame's name.
    let folded_name = |call: &Call| {
        profile.profile.frame_names[profile.profile.frame_name_of[call.frame as usize] as usize]
            .replace(';', ":")
            .replace(['\n', '\r'], " ")
    };
    let plain = folded_with(profile, &View::default());
    for view in views(&plain).into_iter().filter(|v| !v.invert) {
        // The Chrome trace export of the view: its events are the view's boxes.
        let mut chrome = Vec::new();
        products::write_chrome_trace(&profile.profile, &view, &mut chrome).unwrap();
        let chrome: serde_json::Value = serde_json::from_slice(&chrome).unwrap();
        let events = chrome["traceEvents"].as_array().unwrap();
        for (thread, t) in profile.profile.stacks().threads.iter().enumerate().take(4) {
            let viewed = products::viewed_calls(&profile.profile, thread, &t.calls, &view).unwrap();
            let mut exported: Vec<&str> = events
                .iter()
                .filter(|e| e["ph"] == "X" && e["tid"] == t.tid)
                .map(|e| e["name"].as_str().unwrap())
                .collect();
            let mut boxes: Vec<&str> =
                viewed.calls.iter().map(|(_, b)| viewed.name(&profile.profile, b.frame)).collect();
            exported.sort_unstable();
            boxes.sort_unstable();
            assert_eq!(exported, boxes, "{what}: thread {thread}'s Chrome trace events in {view:?}");
            let mut moments: Vec<u64> = t.calls.iter().flat_map(|(_, c)| [c.start, c.end]).collect();
            moments.sort_unstable();
            moments.dedup();

            for at in moments {
                let mut want = running_at(&t.calls, at, folded_name);
                for transform in &view.transforms {
                    want = by_hand(transform, want).unwrap_or_default();
                }
                let got = running_at(&viewed.calls, at, |c| viewed.name(&profile.profile, c.frame).to_owned());
                assert_eq!(got, want, "{what}: thread {thread} at {at} in {view:?}");
            }
            let originals: Vec<(u64, u64, u64)> = t.calls.iter().map(|(_, c)| (c.start, c.end, c.cpu)).collect();
            for (_, b) in viewed.calls.iter().filter(|(_, b)| b.cpu != products::NO_CPU) {
                assert!(originals.contains(&(b.start, b.end, b.cpu)), "{what}: a box with CPU time is a call: {b:?}");
            }
            if view.transforms.is_empty() {
                let boxes: Vec<(u32, u64, u64, u64, String)> = viewed
                    .calls
                    .iter()
                    .map(|(d, b)| (d, b.start, b.end, b.cpu, viewed.name(&profile.profile, b.frame).to_owned()))
                    .collect();
                let calls: Vec<(u32, u64, u64, u64, String)> =
                    t.calls.iter().map(|(d, c)| (d, c.start, c.end, c.cpu, folded_name(c))).collect();
                assert_eq!(boxes, calls, "{what}: thread {thread}'s plain timeline");
            }
            // Calls read again have no node: theirs is found from their callers'.
            let unnamed = ThreadCalls::from_calls(t.calls.iter().map(|(d, c)| (d, Call { node: u32::MAX, ..*c })));
            let again = products::viewed_calls(&profile.profile, thread, &unnamed, &view).unwrap();
            assert_eq!(again.calls, viewed.calls, "{what}: thread {thread} without nodes in {view:?}");
        }
    }
}

#[test]
fn a_views_timeline_shows_each_moments_stack_as_the_view_makes_it() {
    let options = Options { keep_calls: true, ..Options::default() };
    for seed in 0..4 {
        let config = Config { threads: 3, methods: 7, events_per_thread: 300, max_depth: 12, ..Config::default() };
        let trace = generate(seed, &config).trace.write(&Layout::ART_REGULAR);
        check_timeline(&format!("seed {seed}"), &analyze_with(&trace, options.clone()).unwrap());
    }
    if droidflame_testkit::corpus_present("transforms::a_views_timeline_shows_each_moments_stack") {
        let path = droidflame_testkit::corpus_dir().join("atrace/perfetto-sched_blocked_systrace.systrace");
        check_timeline("atrace", &analyze_with(&std::fs::read(path).unwrap(), options).unwrap());
    }
}

#[test]
fn a_views_methods_table_counts_calls_and_recursion_as_worked_by_hand() {
    use droidflame_testkit::{MethodDef, Record, ThreadDef, Trace, ENTER, EXIT};
    // A [0, 100] → M [5, 95] → B [10, 90] → A [20, 80] → B [30, 70], then Z [100, 105] at the
    // top; µs. Merging M into its caller leaves A → B → A → B.
    let rec = |method, action, t| Record { tid: 1, method, action, wall: t, cpu: t };
    let calls = [(0, 0, 100), (8, 5, 95), (4, 10, 90), (0, 20, 80), (4, 30, 70)];
    let mut records: Vec<Record> = calls.iter().map(|&(m, start, _)| rec(m, ENTER, start)).collect();
    records.extend(calls.iter().rev().map(|&(m, _, end)| rec(m, EXIT, end)));
    records.extend([rec(12, ENTER, 100), rec(12, EXIT, 105)]);
    let trace = Trace {
        threads: vec![ThreadDef { tid: 1, name: "main".into() }],
        methods: vec![
            MethodDef::new(0, "X", "a", "(I)V"),
            MethodDef::new(4, "X", "b", "()V"),
            MethodDef::new(8, "X", "m", "()V"),
            MethodDef::new(12, "X", "z", "()V"),
        ],
        records,
        ..Trace::default()
    };
    let p = analyze(&trace.write(&Layout::ART_REGULAR)).unwrap();
    let view = View { transforms: vec![Transform::Merge("X.m".into())], invert: false };
    let json: serde_json::Value =
        serde_json::from_str(&products::methods_json_of_view(&p.profile, Some(0), &view).unwrap()).unwrap();
    let methods = json["methods"].as_array().unwrap();
    let rows: Vec<(&str, u64, u64, u64, u64)> = methods
        .iter()
        .map(|m| {
            let n = |key: &str| m[key].as_u64().unwrap();
            (m["name"].as_str().unwrap(), n("calls"), n("recursive_calls"), n("incl_wall_us"), n("excl_wall_us"))
        })
        .collect();
    // A's own time: 10 of its outer call, M's 10 (merged into it), 20 of its inner call.
    assert_eq!(rows, [("X.a", 2, 1, 100, 40), ("X.b", 2, 1, 80, 60), ("X.z", 1, 0, 5, 5)]);
    assert_eq!((methods[0]["class"].as_str(), methods[0]["method"].as_str()), (Some("X"), Some("a")));
    assert_eq!(methods[0]["signature"], "(I)V", "one frame of that name: its signature is shown");
    // Edges: the top level's first, then by caller and callee in the rows' order.
    let name = |i: &serde_json::Value| i.as_u64().map(|i| methods[i as usize]["name"].as_str().unwrap());
    type EdgeRow<'a> = (Option<&'a str>, Option<&'a str>, u64, u64, u64);
    let edges: Vec<EdgeRow> = json["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let n = |key: &str| e[key].as_u64().unwrap();
            (name(&e["caller"]), name(&e["callee"]), n("calls"), n("recursive_calls"), n("incl_wall_us"))
        })
        .collect();
    assert_eq!(
        edges,
        [
            (None, Some("X.a"), 1, 0, 100),
            (None, Some("X.z"), 1, 0, 5),
            (Some("X.a"), Some("X.b"), 2, 1, 80),
            (Some("X.b"), Some("X.a"), 1, 1, 60),
        ]
    );
}

/// Hiding the kernel takes out every `_[k]` frame, its time going to its caller; hiding
/// native code takes out every frame of a `*.so`: on the plain folded stacks by hand, from
/// each frame's library as the file names it. Every sample stays.
#[test]
fn hidden_code_leaves_every_stack_without_it() {
    if !droidflame_testkit::corpus_present("transforms::hidden_code_leaves_every_stack_without_it") {
        return;
    }
    for name in
        ["simpleperf/ffprof-simpleperf-cpu-clock.trace", "simpleperf/aosp-simpleperf-display_bitmaps.proto_data"]
    {
        let profile = analyze(&droidflame_testkit::corpus_file(name)).unwrap();
        let plain = folded_with(&profile, &View::default());
        let native: Vec<String> = profile
            .profile
            .frames
            .iter()
            .filter(|f| f.source.as_deref().is_some_and(|s| s.rsplit('/').next().unwrap_or(s).ends_with(".so")))
            .map(|f| f.display_name().replace(';', ":"))
            .collect();
        let by_hand = |hidden: &dyn Fn(&str) -> bool| {
            let mut out = Stacks::new();
            for (stack, value) in &plain {
                let mut kept = vec![stack[0].clone()];
                kept.extend(stack[1..].iter().filter(|f| !hidden(f)).cloned());
                *out.entry(kept).or_default() += value;
            }
            out
        };
        let hide = |code| View { transforms: vec![Transform::Hide(code)], invert: false };
        let kernel = folded_with(&profile, &hide(Code::Kernel));
        assert_eq!(kernel, by_hand(&|f: &str| f.ends_with("_[k]")), "{name}");
        assert!(plain.keys().any(|s| s.iter().any(|f| f.ends_with("_[k]"))), "{name} has kernel frames");
        assert_eq!(kernel.values().sum::<u64>(), plain.values().sum::<u64>(), "{name}: every sample stays");
        assert_eq!(
            folded_with(&profile, &hide(Code::Native)),
            by_hand(&|f: &str| native.iter().any(|n| n == f)),
            "{name}"
        );
        assert_eq!(products::hideable(&profile.profile), vec![Code::Kernel, Code::Native], "{name}");
        // In JSON, as the page's view keeps it.
        assert_eq!(View::from_json(r#"{"transforms":[{"hide":"kernel"}]}"#).unwrap(), hide(Code::Kernel));
    }
    // A method trace has neither: hiding it says so.
    let methods = analyze(&droidflame_testkit::corpus_file("ffprof-art-regular.trace")).unwrap();
    assert!(products::hideable(&methods.profile).is_empty());
    let view = View { transforms: vec![Transform::Hide(Code::Kernel)], invert: false };
    let error = products::folded(&methods.profile, &FoldedOptions { view, ..FoldedOptions::default() }).unwrap_err();
    assert!(error.to_string().contains("no frame of this trace is kernel code"), "{error}");
}
