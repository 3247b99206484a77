//! Counts and shares that mean what they say, on every corpus trace and every source it
//! has: calls count calls (a recursive one inside another too), but samples and
//! allocations count the stacks that hold a function, once each, so no function,
//! caller-callee pair or call-tree row ever counts more than the source holds in all,
//! however the view is transformed; and every share is of a whole the trace has (its
//! duration for wall time, never a sum of threads' lifetimes), which no part exceeds.

use droidflame_core::products::{
    call_tree_table, methods_json, methods_json_of_view, summary, GraphScope, Transform, View,
};
use droidflame_core::{analyze, Analysis, Clock, SourceKind, Unit};
use droidflame_testkit::corpus_traces;
use serde_json::Value;

/// The views each source is checked in: as recorded, bottom-up, and with the heaviest
/// method merged into its callers and recursion collapsed (stacks move between nodes).
fn views(heaviest: &str) -> Vec<View> {
    vec![
        View::default(),
        View { transforms: Vec::new(), invert: true },
        View {
            transforms: vec![Transform::Merge(heaviest.to_owned()), Transform::CollapseRecursion(heaviest.to_owned())],
            invert: false,
        },
    ]
}

/// Every count of a methods table (rows and edges), as JSON gives them.
fn table_counts(json: &str) -> Vec<(String, u64, u64)> {
    let table: Value = serde_json::from_str(json).unwrap();
    let rows = table["methods"].as_array().unwrap().iter().map(|m| {
        (m["name"].as_str().unwrap().to_owned(), m["calls"].as_u64().unwrap(), m["recursive_calls"].as_u64().unwrap())
    });
    let edges = table["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| ("an edge".to_owned(), e["calls"].as_u64().unwrap(), e["recursive_calls"].as_u64().unwrap()));
    rows.chain(edges).collect()
}

fn check_source(file: &str, p: &Analysis) {
    let what = format!("{file} ({})", p.profile.source().kind.name());
    let s = summary(p);
    let per_stack = p.profile.count().per_stack();
    assert_eq!(s.count, p.profile.count().name(), "{what}");
    assert_eq!(per_stack, p.profile.source().kind != SourceKind::Calls, "{what}");
    let Some(total) = s.counted else {
        assert!(!per_stack, "{what}: a source counted per stack says how many it holds");
        for m in &s.methods {
            assert!(m.recursive_calls <= m.calls.unwrap(), "{what}: {}", m.name);
        }
        return;
    };
    if p.profile.source().kind == SourceKind::CpuSamples {
        // Each sample is one record of its thread; a sample without a stack counts none.
        let records: u64 = p.profile.stacks().threads.iter().map(|t| t.records).sum();
        assert!(total <= records, "{what}: {total} samples of {records} records");
    }
    for m in &s.methods {
        let calls = m.calls.unwrap();
        assert!(calls <= total, "{what}: {} counts {calls} of {total}", m.name);
        assert_eq!(m.recursive_calls, 0, "{what}: {}", m.name);
    }
    let heaviest = s.methods.first().map_or("none", |m| m.name.as_str()).to_owned();
    for view in views(&heaviest) {
        for thread in std::iter::once(None).chain((0..p.profile.stacks().threads.len()).map(Some)) {
            let json = if view.is_plain() {
                methods_json(&p.profile, thread).unwrap()
            } else {
                methods_json_of_view(&p.profile, thread, &view).unwrap()
            };
            for (name, calls, recursive) in table_counts(&json) {
                assert!(calls <= total, "{what} {view:?}: {name} counts {calls} of {total}");
                assert_eq!(recursive, 0, "{what} {view:?}: {name}");
            }
        }
        // The call tree of all threads: a row per thread (process) first, whose counts add
        // up to the source's.
        let tree = call_tree_table(&p.profile, GraphScope::AllThreads, &view).unwrap();
        let threads: u64 = (1..tree.parent.len()).filter(|&n| tree.parent[n] == 0).map(|n| tree.calls[n]).sum();
        assert_eq!(threads, total, "{what} {view:?}: the threads' rows");
        assert!(tree.calls.iter().all(|&c| c <= total), "{what} {view:?}");
    }
}

/// Every whole the summary and the methods tables name for shares exists in the trace and
/// holds its parts.
fn check_wholes(file: &str, p: &Analysis) {
    let what = format!("{file} ({})", p.profile.source().kind.name());
    let s = summary(p);
    let timed_wall = p.profile.has(Clock::Wall) && p.profile.unit_of(Clock::Wall) == Unit::Micros;
    let threads = s.threads.iter().filter(|t| !t.track);
    for (clock, whole) in &s.wholes {
        assert!(!whole.of.is_empty(), "{what}: {clock}");
        if *clock == "wall" && timed_wall {
            // The trace's duration, as the summary says how long it ran (0 where it has no
            // record in time).
            assert_eq!(whole.value, s.elapsed_us.unwrap_or(0), "{what}");
            assert_eq!(whole.of, "the trace's duration", "{what}");
            for t in threads.clone() {
                assert!(
                    t.wall_us.unwrap() <= whole.value,
                    "{what}: thread {} {:?} of {}",
                    t.tid,
                    t.wall_us,
                    whole.value
                );
            }
        } else {
            let parts: u64 =
                threads.clone().map(|t| if *clock == "wall" { t.wall_us } else { t.cpu_us }.unwrap_or(0)).sum();
            assert_eq!(whole.value, parts, "{what}: {clock} is all threads' own");
        }
    }
    // A thread's methods are shares of that thread's time: no method's inclusive time is
    // more than it.
    for (index, thread) in p.profile.stacks().threads.iter().enumerate().filter(|(_, t)| !t.track) {
        let table: Value = serde_json::from_str(&methods_json(&p.profile, Some(index)).unwrap()).unwrap();
        for (clock, whole) in table["wholes"].as_object().unwrap() {
            let whole = whole["value"].as_u64().unwrap();
            let key = format!("incl_{clock}_us");
            for m in table["methods"].as_array().unwrap() {
                let incl = m[&key].as_u64().unwrap();
                assert!(incl <= whole, "{what}: thread {} {} {incl} of {whole}", thread.tid, m["name"]);
            }
        }
    }
}

/// Every corpus trace analysed, shown on each source it has (and each dump of a heap
/// source), with the trace's file name.
fn each_source(mut visit: impl FnMut(&str, &Analysis)) {
    for path in corpus_traces() {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let Ok(mut p) = analyze(&std::fs::read(&path).unwrap()) else { continue };
        let kinds: Vec<SourceKind> = p.profile.sources().iter().map(|s| s.kind).collect();
        for kind in kinds {
            p.profile.select_source(kind).unwrap();
            let dumps = p.profile.dumps().filter(|_| kind.from_dumps()).map_or(1, |(_, count)| count);
            for dump in 0..dumps {
                if kind.from_dumps() {
                    p.profile.select_dump(dump).unwrap();
                }
                visit(&file, &p);
            }
        }
    }
}

#[test]
fn every_share_is_of_a_whole_the_trace_has() {
    if !droidflame_testkit::corpus_present("counts::every_share_is_of_a_whole_the_trace_has") {
        return;
    }
    each_source(check_wholes);
}

#[test]
fn no_function_counts_more_samples_or_allocations_than_its_source_holds() {
    if !droidflame_testkit::corpus_present(
        "counts::no_function_counts_more_samples_or_allocations_than_its_source_holds",
    ) {
        return;
    }
    let mut per_stack_sources = 0;
    each_source(|file, p| {
        per_stack_sources += usize::from(p.profile.source().kind != SourceKind::Calls);
        check_source(file, p);
    });
    // Simpleperf's three files, and Perfetto's samples and heap profiles.
    assert!(per_stack_sources >= 6, "{per_stack_sources} sources of samples or allocations");
}

/// Each thread's samples, as the call tree's thread rows count them.
fn samples_by_thread(p: &Analysis) -> Vec<(String, u64)> {
    let tree = call_tree_table(&p.profile, GraphScope::AllThreads, &View::default()).unwrap();
    (1..tree.parent.len())
        .filter(|&n| tree.parent[n] == 0)
        .map(|n| (tree.names[tree.name[n] as usize].clone(), tree.calls[n]))
        .collect()
}

#[test]
fn simpleperf_samples_are_counted_as_its_sources_md_counts_them() {
    if !droidflame_testkit::corpus_present("counts::simpleperf_samples_are_counted_as_its_sources_md_counts_them") {
        return;
    }
    // SOURCES.md: 525 samples, tid 31881 271 of them, the main thread (31850) 164.
    let p = analyze(&droidflame_testkit::corpus_file("simpleperf/aosp-simpleperf-display_bitmaps.proto_data")).unwrap();
    assert_eq!(summary(&p).counted, Some(525));
    let threads = samples_by_thread(&p);
    let of = |tid: &str| threads.iter().find(|(name, _)| name.ends_with(&format!("[{tid}]"))).map(|(_, n)| *n);
    assert_eq!((of("31881"), of("31850")), (Some(271), Some(164)), "{threads:?}");
    // SOURCES.md: 1,234 samples (every one with a callchain), the main thread's 778.
    let p = analyze(&droidflame_testkit::corpus_file("simpleperf/ffprof-simpleperf-cpu-clock.trace")).unwrap();
    assert_eq!(summary(&p).counted, Some(1_234));
    let threads = samples_by_thread(&p);
    let main = threads.iter().find(|(name, _)| name.ends_with("[7657]")).map(|(_, n)| *n);
    assert_eq!(main, Some(778), "{threads:?}");
}
