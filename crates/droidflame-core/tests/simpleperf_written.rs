//! simpleperf samples written by the testkit: every product agrees with a model of what
//! samples mean, computed here from the samples alone, and damaged files give what they hold.

use droidflame_core::products::{self, CallQuery};
use droidflame_core::profile::Clock;
use droidflame_core::{analyze, Analyzer, ClockSet, Options, Profile};
use droidflame_testkit::perfetto::Message;
use droidflame_testkit::scenario::Rng;
use droidflame_testkit::simpleperf::{self, Entry, Recording, SampleSpec};
use std::collections::BTreeMap;

const FILES: [(&str, &[&str]); 3] = [
    (
        "/system/framework/framework.jar",
        &["android.os.Looper.loop", "android.os.Handler.dispatchMessage", "com.example.Feed.bind"],
    ),
    (
        "/system/lib64/libhwui.so",
        &["android::uirenderer::RenderThread::threadLoop()", "SkCanvas::drawRect(SkRect const&)"],
    ),
    ("[kernel.kallsyms]", &["schedule", "do_page_fault"]),
];

/// Names of the written functions as droidflame shows them.
fn shown(entry: &Entry) -> String {
    let name = FILES[entry.file as usize].1[entry.symbol as usize];
    if entry.file == 2 {
        format!("{name}_[k]")
    } else {
        name.to_owned()
    }
}

const THREADS: [(u32, &str); 3] = [(500, "com.example"), (501, "RenderThread"), (502, "worker")];

/// A seeded recording: 3 threads walking a few paths, some gaps between runs, `off_cpu`
/// adding a switch sample where a thread stops running.
fn recording(seed: u64, off_cpu: bool, samples: usize) -> Recording {
    let mut rng = Rng::new(seed);
    let paths: Vec<Vec<Entry>> = vec![
        vec![Entry::function(0, 0)],
        vec![Entry::function(0, 0), Entry::function(0, 1), Entry::function(0, 2)],
        vec![Entry::function(0, 0), Entry::function(0, 1), Entry::function(1, 1)],
        vec![Entry::function(1, 0), Entry::function(1, 1), Entry::function(2, 1)],
        vec![Entry::function(1, 0), Entry::function(2, 0)],
    ];
    let mut times = [1_000_000_000u64; 3];
    let mut out = Vec::new();
    for _ in 0..samples {
        let t = rng.below(3) as usize;
        let mut chain = paths[rng.below(paths.len() as u64) as usize].clone();
        if rng.chance(25) {
            chain.truncate(1 + rng.below(chain.len() as u64) as usize);
        }
        chain.reverse();
        let count = if rng.chance(33) { 250_000 } else { 200_000 + rng.below(100_000) };
        // Mostly back to back, with the sampling jitter; now and then a long gap.
        let gap = if rng.chance(16) { 5_000_000 + rng.below(20_000_000) } else { count + rng.below(40_000) };
        if off_cpu && gap > 2 * count {
            let mut blocked = chain.clone();
            blocked.insert(0, Entry::function(2, 0));
            out.push(SampleSpec { tid: THREADS[t].0, time: times[t] + count / 3, event: 1, count: 1, chain: blocked });
        }
        times[t] += gap;
        out.push(SampleSpec { tid: THREADS[t].0, time: times[t], event: 0, count, chain });
    }
    out.sort_by_key(|s| s.time);
    let written = out.len() as u64;
    let events = if off_cpu { vec!["cpu-clock".into(), "sched:sched_switch".into()] } else { vec!["cpu-clock".into()] };
    Recording {
        events,
        trace_offcpu: Some(off_cpu),
        app: Some("com.example".into()),
        samples: out,
        files: FILES.iter().map(|(p, s)| (p.to_string(), s.iter().map(|s| s.to_string()).collect())).collect(),
        threads: THREADS.iter().map(|&(tid, name)| (tid, 500, name.to_owned())).collect(),
        lost: Some((written, 0)),
        switches: Vec::new(),
    }
}

/// `thread;stack` -> self time in ns, on `clock`, as the profile has it.
fn self_times(p: &Profile, clock: Clock) -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    for thread in &p.stacks().threads {
        let tree = &thread.tree;
        for (i, node) in tree.nodes().iter().enumerate().skip(1) {
            let value = node.self_time[clock];
            if value == 0 {
                continue;
            }
            let mut names = Vec::new();
            let mut at = i as u32;
            while at != 0 {
                names.push(p.frame_name(tree.node(at).frame).to_owned());
                at = tree.node(at).parent;
            }
            names.push(thread.name.clone());
            names.reverse();
            *out.entry(names.join(";")).or_default() += value;
        }
    }
    out
}

/// What the samples mean, computed from them alone.
fn model(r: &Recording, clock: Clock) -> BTreeMap<String, u64> {
    let off_cpu = r.events.len() > 1;
    let end = r.samples.iter().map(|s| s.time).max().unwrap();
    let mut out = BTreeMap::new();
    for &(tid, name) in &THREADS {
        let mine: Vec<&SampleSpec> = r.samples.iter().filter(|s| s.tid == tid).collect();
        for (i, s) in mine.iter().enumerate() {
            let next = mine.get(i + 1).map(|n| n.time);
            let value = match clock {
                Clock::Cpu if s.event == 0 => s.count,
                Clock::Cpu => 0,
                Clock::Wall if off_cpu => next.unwrap_or(end) - s.time,
                Clock::Wall => match next {
                    Some(next) if next - s.time <= s.count + s.count / 2 => next - s.time,
                    _ => s.count,
                },
            };
            if value == 0 {
                continue;
            }
            let stack: Vec<String> = s.chain.iter().rev().map(shown).collect();
            *out.entry(format!("{name};{}", stack.join(";"))).or_default() += value;
        }
    }
    out
}

#[test]
fn samples_mean_what_the_model_says_on_both_clocks() {
    for seed in 1..=6 {
        for off_cpu in [false, true] {
            let r = recording(seed, off_cpu, 400);
            let p = analyze(&r.bytes()).unwrap();
            assert_eq!(p.profile.stacks().clocks, ClockSet::Dual);
            assert_eq!(p.profile.default_clock(), Clock::Cpu, "on-CPU time is shown first");
            for clock in Clock::ALL {
                assert_eq!(self_times(&p.profile, clock), model(&r, clock), "seed {seed}, off-CPU {off_cpu}, {clock}");
            }
            assert_eq!(p.profile.facts.records, 400 + r.samples.iter().filter(|s| s.event == 1).count() as u64);
            assert_eq!(p.profile.facts.repairs.open_at_end, 0, "a last sample's stack ending is no repair");
            assert!(p.profile.facts.warnings.is_empty(), "{:?}", p.profile.facts.warnings);
        }
    }
}

#[test]
fn every_chunking_and_gzip_give_the_same_profile() {
    let r = recording(7, true, 300);
    let bytes = r.bytes();
    let whole = analyze(&bytes).unwrap();
    let expected = (self_times(&whole.profile, Clock::Wall), self_times(&whole.profile, Clock::Cpu));
    for size in [1, 3, 7, 64, 1000] {
        let mut analyzer = Analyzer::default();
        for chunk in bytes.chunks(size) {
            analyzer.push(chunk).unwrap();
        }
        let p = analyzer.finish().unwrap();
        assert_eq!(
            (self_times(&p.profile, Clock::Wall), self_times(&p.profile, Clock::Cpu)),
            expected,
            "chunks of {size}"
        );
    }
    let p = analyze(&droidflame_testkit::gzip(&bytes)).unwrap();
    assert_eq!((self_times(&p.profile, Clock::Wall), self_times(&p.profile, Clock::Cpu)), expected);
    assert!(p.profile.facts.format.gzip && p.profile.facts.format.description.ends_with(", gzip"));
}

#[test]
fn a_cut_short_file_keeps_its_whole_records_and_says_so() {
    let r = recording(8, false, 60);
    let records = r.records();
    let bytes = simpleperf::file_of(&records);
    // Where each record ends, and how many samples end there.
    let mut ends = vec![(12usize, 0u64)];
    for record in &records {
        let (at, samples) = *ends.last().unwrap();
        ends.push((at + 4 + record.0.len(), samples + u64::from(record.0[0] == 0x0A)));
    }
    for cut in 10..bytes.len() {
        let p = analyze(&bytes[..cut]).unwrap_or_else(|e| panic!("cut at {cut}: {e}"));
        let whole = ends.iter().take_while(|(end, _)| *end <= cut).last().copied().unwrap_or((0, 0));
        assert_eq!(p.profile.facts.records, whole.1, "cut at {cut}");
        assert_eq!(p.profile.facts.repairs.truncated, cut < bytes.len(), "cut at {cut}");
        if cut < bytes.len() {
            let note =
                p.profile.facts.warnings.iter().find(|w| w.starts_with("the file ends")).expect("a note on the cut");
            let place = if cut < 12 {
                "inside its 12-byte header".to_owned()
            } else {
                format!("byte {}", droidflame_core::profile::group_digits(whole.0 as u64))
            };
            assert!(note.contains(&place), "cut at {cut}: {note}");
        }
    }
    assert!(!analyze(&bytes).unwrap().profile.facts.repairs.truncated);
}

#[test]
fn damaged_records_are_skipped_and_counted() {
    let r = recording(9, false, 20);
    let mut records = r.records();
    // A record whose sample is cut inside a call-chain entry, and one of an unknown kind.
    let broken = records[5].0[..records[5].0.len() - 3].to_vec();
    records[5] = Message(broken);
    let mut unknown = Message::new();
    unknown.bytes(40, b"later simpleperf");
    records.insert(7, unknown);
    let p = analyze(&simpleperf::file_of(&records)).unwrap();
    assert_eq!(p.profile.facts.records, 19);
    assert_eq!(p.profile.facts.repairs.damaged_parts, 1);
    assert!(
        p.profile.facts.warnings.iter().any(|w| w.contains("1 record would not decode")),
        "{:?}",
        p.profile.facts.warnings
    );
    assert!(
        p.profile
            .facts
            .warnings
            .iter()
            .any(|w| w.contains("1 record of a kind this version does not read was skipped")),
        "{:?}",
        p.profile.facts.warnings
    );

    // A size no record has stops reading there; what came before stays.
    let mut bytes = simpleperf::header();
    for record in &r.records()[..4] {
        simpleperf::push_record(&mut bytes, record);
    }
    let at = bytes.len();
    bytes.extend_from_slice(&u32::MAX.to_le_bytes());
    bytes.extend_from_slice(&[7; 100]);
    let p = analyze(&bytes).unwrap();
    assert_eq!(p.profile.facts.records, 3);
    assert_eq!(p.profile.facts.repairs.damaged_parts, 1);
    let note = format!("the record at byte {at} claims 4,294,967,295 bytes");
    assert!(p.profile.facts.warnings.iter().any(|w| w.starts_with(&note)), "{:?}", p.profile.facts.warnings);
}

#[test]
fn lost_samples_other_events_and_missing_names_are_told() {
    let mut r = recording(10, false, 30);
    r.lost = Some((30, 10));
    r.events.push("instructions".into());
    r.samples[3].event = 1;
    r.samples[4].chain.push(Entry::address(1, 0x4242));
    r.samples[5].chain.push(Entry::function(7, 1));
    r.samples[6].chain.clear();
    r.threads.pop();
    let p = analyze(&r.bytes()).unwrap();
    assert_eq!(p.profile.facts.repairs.lost_samples, 10);
    let summary: serde_json::Value = serde_json::from_str(&products::summary_json(&p)).unwrap();
    let lost = summary["notes"].as_array().unwrap().iter().find(|n| n["key"] == "lost_samples").unwrap();
    assert_eq!(lost["text"], "10 samples were lost while recording: 25.0% of the 40 samples the recorder took; times are low where they were lost.");
    let says = |text: &str| p.profile.facts.warnings.iter().any(|w| w.contains(text));
    assert!(says("1 samples of instructions are not shown"), "{:?}", p.profile.facts.warnings);
    assert!(
        says("1 frames name a file or function that the file records do not list"),
        "{:?}",
        p.profile.facts.warnings
    );
    assert!(says("1 samples have no call chain"), "{:?}", p.profile.facts.warnings);
    let names: Vec<&str> = p.profile.frame_names.iter().map(String::as_str).collect();
    assert!(names.contains(&"libhwui.so+0x4242") && names.contains(&"<unknown file 7>:<function 1>"), "{names:?}");
    assert!(names.contains(&"<no call chain>"));
    assert!(
        p.profile.stacks().threads.iter().any(|t| t.name == "Thread 502"),
        "a thread with no record is named by id"
    );
    assert_eq!(p.profile.facts.repairs.unknown_threads, 1);
}

#[test]
fn an_event_that_counts_no_time_gives_the_wall_clock_only() {
    let mut r = recording(11, false, 50);
    r.events = vec!["cpu-cycles".into()];
    let p = analyze(&r.bytes()).unwrap();
    assert_eq!(p.profile.stacks().clocks, ClockSet::Wall);
    assert_eq!(p.profile.default_clock(), Clock::Wall);
    assert!(
        p.profile.facts.warnings.iter().any(|w| w.starts_with("cpu-cycles counts events, not time")),
        "{:?}",
        p.profile.facts.warnings
    );
    // Each stack holds until its thread's next sample, the last until the last sample.
    let mut off_cpu_like = r.clone();
    off_cpu_like.events = vec!["cpu-clock".into(), "sched:sched_switch".into()];
    assert_eq!(self_times(&p.profile, Clock::Wall), model(&off_cpu_like, Clock::Wall));
    assert_eq!(p.profile.facts.format.sampling_interval_us, None);
}

#[test]
fn calls_are_runs_of_samples_and_gaps_end_them() {
    let main = |time, count, chain: &[Entry]| SampleSpec { tid: 500, time, event: 0, count, chain: chain.to_vec() };
    let (looper, handler, bind) = (Entry::function(0, 0), Entry::function(0, 1), Entry::function(0, 2));
    let ms = 1_000_000;
    let mut r = recording(1, false, 1);
    r.samples = vec![
        main(10 * ms, ms, &[handler, looper]),
        main(11 * ms, ms, &[bind, handler, looper]),
        main(12 * ms, ms, &[bind, handler, looper]),
        // 8 ms without a sample: the thread was not running.
        main(20 * ms, ms, &[bind, handler, looper]),
    ];
    let options = Options { keep_calls: true, ..Options::default() };
    let mut analyzer = Analyzer::new(options);
    analyzer.push(&r.bytes()).unwrap();
    let p = analyzer.finish().unwrap();
    let calls = products::select_calls(&p.profile, &CallQuery::default()).unwrap();
    let listed: Vec<(u32, u64, u64, String)> =
        calls.iter().map(|c| (c.depth, c.start_us, c.end_us, p.profile.frame_name(c.call.frame).to_owned())).collect();
    assert_eq!(
        listed,
        [
            (0, 0, 3000, "android.os.Looper.loop".to_owned()),
            (1, 0, 3000, "android.os.Handler.dispatchMessage".to_owned()),
            (2, 1000, 3000, "com.example.Feed.bind".to_owned()),
            (0, 10_000, 11_000, "android.os.Looper.loop".to_owned()),
            (1, 10_000, 11_000, "android.os.Handler.dispatchMessage".to_owned()),
            (2, 10_000, 11_000, "com.example.Feed.bind".to_owned()),
        ]
    );
    assert_eq!(p.profile.system.timeline.length(), 11 * ms, "to the end of the last sample's period");
}

#[test]
fn a_sample_before_its_threads_last_is_moved_to_it_and_counted() {
    let main = |time, chain: &[Entry]| SampleSpec { tid: 500, time, event: 0, count: 1_000_000, chain: chain.to_vec() };
    let (looper, handler, bind) = (Entry::function(0, 0), Entry::function(0, 1), Entry::function(0, 2));
    let us = 1_000;
    let mut r = recording(1, false, 1);
    // Two samples at one time are in order; the third, 500 µs before them, is not.
    r.samples = vec![
        main(10_000 * us, &[handler, looper]),
        main(11_000 * us, &[bind, handler, looper]),
        main(11_000 * us, &[bind, handler, looper]),
        main(10_500 * us, &[handler, looper]),
        main(12_000 * us, &[handler, looper]),
    ];
    let p = analyze(&r.bytes()).unwrap();
    assert_eq!(p.profile.facts.repairs.out_of_order, 1);
    // Each sample holds until the next: the late one from 11 to 12 ms, the last its period.
    let expected = BTreeMap::from([(
        "com.example;android.os.Looper.loop;android.os.Handler.dispatchMessage".to_owned(),
        3_000 * us,
    )]);
    assert_eq!(self_times(&p.profile, Clock::Wall), expected);
}

#[test]
fn a_gap_of_up_to_one_and_a_half_periods_keeps_the_stack() {
    let (looper, handler) = (Entry::function(0, 0), Entry::function(0, 1));
    let main = |time| SampleSpec { tid: 500, time, event: 0, count: 1_000_000, chain: vec![handler, looper] };
    let mut r = recording(1, false, 1);
    // Periods of 1 ms: 1.5 ms to the second sample keeps it running, 1.5 ms and 1 ns ends it.
    r.samples = vec![main(10_000_000), main(11_500_000), main(13_000_001)];
    let options = Options { keep_calls: true, ..Options::default() };
    let mut analyzer = Analyzer::new(options);
    analyzer.push(&r.bytes()).unwrap();
    let p = analyzer.finish().unwrap();
    let calls = products::select_calls(&p.profile, &CallQuery::default()).unwrap();
    let looper_calls: Vec<(u64, u64)> = calls.iter().filter(|c| c.depth == 0).map(|c| (c.start_us, c.end_us)).collect();
    assert_eq!(looper_calls, [(0, 2_500), (3_000, 4_000)]);
}

#[test]
fn java_frames_take_a_mapping() {
    let mut r = recording(12, false, 40);
    r.files[0].1 = vec!["a.b.c".into(), "a.b.d".into(), "a.e.f".into()];
    let mut p = analyze(&r.bytes()).unwrap();
    let mapping = "com.example.Looper -> a.b:\n    void loop() -> c\n    void dispatch() -> d\ncom.example.Feed -> a.e:\n    void bind() -> f\n";
    let mapping = droidflame_core::mapping::read_mapping(mapping.as_bytes(), &[&p.profile]).unwrap();
    p.deobfuscate(&mapping);
    let names: Vec<&str> = p.profile.frame_names.iter().map(String::as_str).collect();
    for name in ["com.example.Looper.loop", "com.example.Looper.dispatch", "com.example.Feed.bind"] {
        assert!(names.contains(&name), "{name} in {names:?}");
    }
    assert!(names.contains(&"android::uirenderer::RenderThread::threadLoop()"), "native names stay");
}
