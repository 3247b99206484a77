//! Perfetto protobuf traces: the corpus files with the counts their SOURCES.md rows give.

use droidflame_core::products::{self, FoldedOptions};
use droidflame_core::Analysis;
use droidflame_core::{analyze, Analyzer, ClockSet, Profile, SourceKind};
use droidflame_testkit::{corpus_file, gzip};

fn thread_calls(p: &Profile) -> u64 {
    p.stacks().threads.iter().filter(|t| !t.track).flat_map(|t| t.tree.nodes().iter().skip(1)).map(|n| n.calls).sum()
}

fn perfetto(name: &str) -> Analysis {
    analyze(&corpus_file(&format!("perfetto/{name}"))).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn nowinandroid_prints_become_slices() {
    if !droidflame_testkit::corpus_present("perfetto::nowinandroid_prints_become_slices") {
        return;
    }
    let p = perfetto("nowinandroid-fork-trace.perfetto-trace");
    assert_eq!((p.profile.facts.format.family, p.profile.facts.format.layout), ("perfetto", "protobuf"));
    // SOURCES.md: print only, B 3,122 / E 3,122 (every end `E|pid`), S 1 / F 1, 5 pids.
    assert_eq!(thread_calls(&p.profile), 3_122);
    assert_eq!(p.profile.facts.repairs.unmatched_ends, 0);
    assert_eq!(p.profile.stacks().clocks, ClockSet::Wall, "no sched events: no CPU clock");
    let summary: serde_json::Value = serde_json::from_str(&products::summary_json(&p)).unwrap();
    let calls = |name: &str| {
        summary["methods"].as_array().unwrap().iter().find(|m| m["name"] == name).map(|m| m["calls"].as_u64().unwrap())
    };
    // The most frequent slice names.
    assert_eq!(calls("AndroidOwner:measureAndLayout"), Some(684));
    assert_eq!(calls("Compose:recompose"), Some(438));
    assert_eq!(calls("Recomposer:recompose"), Some(338));
    let spans: u64 = p
        .profile
        .stacks()
        .threads
        .iter()
        .filter(|t| t.track)
        .flat_map(|t| t.tree.nodes().iter().skip(1))
        .map(|n| n.calls)
        .sum();
    assert_eq!(spans, 1, "one S/F pair");
    assert!(p.profile.facts.warnings.iter().all(|w| !w.contains("lost events")), "{:?}", p.profile.facts.warnings);
}

#[test]
fn perflib_device_trace_has_slices_scheduling_and_names() {
    if !droidflame_testkit::corpus_present("perfetto::perflib_device_trace_has_slices_scheduling_and_names") {
        return;
    }
    let p = perfetto("toolsbase-perflib-perfetto.trace");
    // SOURCES.md: B 5,985 / E 5,976, C 1,505, S 66 / F 50; sched_switch 8,445; cpu_frequency
    // 308 (counters of no process).
    assert_eq!(thread_calls(&p.profile), 5_985);
    let (frequency, markers): (Vec<_>, Vec<_>) = p.profile.system.counters.iter().partition(|c| c.unit == "kHz");
    assert!(frequency.iter().all(|c| c.name.starts_with("CPU ") && c.name.ends_with(" frequency")));
    // atrace's counters say no unit.
    assert!(markers.iter().all(|c| c.unit.is_empty()));
    assert_eq!(markers.iter().map(|c| c.samples).sum::<u64>(), 1_505);
    assert_eq!(frequency.iter().map(|c| c.samples).sum::<u64>(), 308);
    assert_eq!(p.profile.stacks().clocks, ClockSet::Dual);
    assert!(p.profile.stacks().threads.iter().any(|t| t.process.as_deref() == Some("/system/bin/surfaceflinger")));
}

#[test]
fn scheduler_only_traces_draw_thread_states() {
    if !droidflame_testkit::corpus_present("perfetto::scheduler_only_traces_draw_thread_states") {
        return;
    }
    // SOURCES.md: sched_switch, and wakeups (sched_waking, else sched_wakeup).
    // (mstools-test_trace has as many switches, and one track event: a slice, so no states.)
    {
        let (name, switches, wakeups) = ("mstools-perfetto_android12_cpuschedstack.pftrace", 23_536, 13_907);
        let mut p = perfetto(name);
        // It opens on its samples (it has no slices); its scheduling is the calls source.
        assert_eq!(p.profile.source().kind, SourceKind::CpuSamples, "{name}");
        p.profile.select_source(SourceKind::Calls).unwrap();
        assert_eq!(p.profile.stacks().clocks, ClockSet::Dual, "{name}");
        assert!(
            p.profile.facts.warnings.iter().any(|w| w.contains("frames its scheduler states")),
            "{name}: {:?}",
            p.profile.facts.warnings
        );
        // Never "only" where the trace holds more: its 5,003 samples (SOURCES.md) are named.
        assert!(
            p.profile.facts.warnings.iter().all(|w| !w.contains("only scheduler events")),
            "{name}: {:?}",
            p.profile.facts.warnings
        );
        assert!(
            p.profile
                .facts
                .warnings
                .iter()
                .any(|w| w.contains("read its 5,003 CPU callstack samples (the cpu-samples source)")),
            "{name}: {:?}",
            p.profile.facts.warnings
        );
        let folded = products::folded(&p.profile, &FoldedOptions::default()).unwrap();
        assert!(folded
            .lines()
            .all(|l| l.contains(";Running ") || l.contains(";Runnable ") || l.contains(";Sleeping ")));
        // A switch starts at most two states (one per thread), a wakeup one, and each
        // thread has one more before its first switch.
        let states: u64 =
            p.profile.stacks().threads.iter().flat_map(|t| t.tree.nodes().iter().skip(1)).map(|n| n.calls).sum();
        assert!(
            states > switches && states <= 2 * switches + wakeups + p.profile.stacks().threads.len() as u64,
            "{name}: {states}"
        );
    }
}

/// Android's process tree lists each process and its other threads, not its main thread
/// (tid = pid): that thread still belongs to its process.
#[test]
fn each_process_main_thread_is_under_its_process() {
    if !droidflame_testkit::corpus_present("perfetto::each_process_main_thread_is_under_its_process") {
        return;
    }
    let p = perfetto("mstools-perfetto_android12_cpuschedstack.pftrace");
    let of = |tid: u32| p.profile.stacks().threads.iter().find(|t| t.tid == tid).map(|t| (t.pid, t.process.as_deref()));
    assert_eq!(of(420), Some((Some(420), Some("/system/bin/surfaceflinger"))));
    assert_eq!(of(582), Some((Some(582), Some("system_server"))));
    assert_eq!(of(4692), Some((Some(4692), Some("com.android.chrome"))));
    // Every thread whose id is a named process's is that process's.
    let named: Vec<u32> = p.profile.stacks().threads.iter().filter_map(|t| t.process.as_ref().and(t.pid)).collect();
    for t in p.profile.stacks().threads.iter().filter(|t| named.contains(&t.tid)) {
        assert_eq!(t.pid, Some(t.tid), "{} [{}]", t.name, t.tid);
    }
}

#[test]
fn track_events_name_their_thread_and_process() {
    if !droidflame_testkit::corpus_present("perfetto::track_events_name_their_thread_and_process") {
        return;
    }
    // SOURCES.md: one instant, "Hello Trace" (an interned name), on the track of thread
    // TraceLogApiTest (20855) of process ./TraceLogApiTests, given by the sequence's defaults.
    let p = perfetto("mstools-test_trace.perfetto-trace");
    let thread = p.profile.stacks().threads.iter().find(|t| t.tid == 20855).expect("thread 20855");
    assert_eq!(thread.name, "TraceLogApiTest");
    assert_eq!(thread.process.as_deref(), Some("./TraceLogApiTests"));
    let calls: Vec<_> = thread
        .tree
        .nodes()
        .iter()
        .skip(1)
        .map(|n| (p.profile.frames[n.frame as usize].name.clone(), n.calls))
        .collect();
    assert_eq!(calls, vec![("Hello Trace".to_owned(), 1)]);
    assert!(p.profile.facts.warnings.is_empty(), "{:?}", p.profile.facts.warnings);
}

#[test]
fn traces_with_nothing_to_draw_say_what_they_hold() {
    if !droidflame_testkit::corpus_present("perfetto::traces_with_nothing_to_draw_say_what_they_hold") {
        return;
    }
    // (The heap capture that was here has its heap dumps drawn now: perfetto_sources.rs.)
    let name = "toolsbase-tpd-power.trace";
    let holds = "it holds battery counters (6 packets), power rails (6 packets), 2,181 kernel events";
    let p = perfetto(name);
    assert!(p.profile.stacks().threads.is_empty(), "{name}");
    assert!(
        p.profile.facts.warnings.iter().any(|w| w.contains("nothing to draw") && w.contains(holds)),
        "{name}: {:?}",
        p.profile.facts.warnings
    );
}

#[test]
fn gzip_and_chunks_of_any_size_give_the_same_profile() {
    if !droidflame_testkit::corpus_present("perfetto::gzip_and_chunks_of_any_size_give_the_same_profile") {
        return;
    }
    let bytes = corpus_file("perfetto/nowinandroid-fork-trace.perfetto-trace");
    let whole = products::folded(&analyze(&bytes).unwrap().profile, &FoldedOptions::default()).unwrap();
    let p = analyze(&gzip(&bytes)).unwrap();
    assert!(p.profile.facts.format.gzip);
    assert_eq!(products::folded(&p.profile, &FoldedOptions::default()).unwrap(), whole);
    for chunk in [1, 7, 4096, 1 << 20] {
        let mut analyzer = Analyzer::default();
        for piece in bytes.chunks(chunk) {
            analyzer.push(piece).unwrap();
        }
        let p = analyzer.finish().unwrap();
        assert_eq!(products::folded(&p.profile, &FoldedOptions::default()).unwrap(), whole, "chunks of {chunk}");
    }
}

#[test]
fn a_trace_cut_short_keeps_every_whole_packet() {
    if !droidflame_testkit::corpus_present("perfetto::a_trace_cut_short_keeps_every_whole_packet") {
        return;
    }
    let bytes = corpus_file("perfetto/nowinandroid-fork-trace.perfetto-trace");
    let p = analyze(&bytes[..bytes.len() / 2]).unwrap();
    assert!(p.profile.facts.repairs.truncated);
    let calls = thread_calls(&p.profile);
    assert!(calls > 0 && calls < 3_122, "{calls}");
}
