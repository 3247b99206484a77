//! Property tests: random call structures (frames running before tracing began, unwinds,
//! mismatched exits, open frames, unknown methods, u32 wrap, per-thread chunk order, many
//! threads) written in every layout, read back in random chunk sizes, and compared with
//! the profile the scenario oracle derived from the structure itself.

use droidflame_core::products::{frame_table, thread_stacks};
use droidflame_core::Analysis;
use droidflame_core::{Analyzer, Clock, Options, Profile};
use droidflame_testkit::scenario::{generate, Config, ExpectedCall, Scenario};
use droidflame_testkit::{gzip, Clocks, Layout, TimeFirst};
use proptest::prelude::*;
use std::collections::BTreeMap;

/// (class, name, signature) and (calls, recursive calls, inclusive, exclusive).
type MethodKey = (String, String, String);
type MethodNumbers = (u64, u64, [u64; 2], [u64; 2]);

/// Every call kept, so the timeline's calls are checked too.
fn options() -> Options {
    Options { keep_calls: true, ..Options::default() }
}

fn read(bytes: &[u8], chunk: usize) -> Analysis {
    let mut analyzer = Analyzer::new(options());
    for piece in bytes.chunks(chunk.max(1)) {
        analyzer.push(piece).unwrap();
    }
    analyzer.finish().unwrap()
}

/// Checks a profile against its scenario. A tick of the layout is `num / den` µs.
fn check(profile: &Profile, scenario: &Scenario, (num, den): (u64, u64), clocks: Clocks) {
    // Where the trace lost data at its end, open frames close at their thread's last record.
    let expected = scenario.expected(profile.facts.repairs.truncated || profile.facts.repairs.overflow);
    let micros = |ticks: u64| (u128::from(ticks) * u128::from(num) / u128::from(den)) as u64;
    let present: Vec<Clock> = match clocks {
        Clocks::Dual => vec![Clock::Wall, Clock::Cpu],
        Clocks::Wall => vec![Clock::Wall],
        Clocks::Cpu => vec![Clock::Cpu],
    };
    assert_eq!(profile.facts.repairs.unmatched_exits, expected.unmatched_exits, "unmatched exits");
    assert_eq!(profile.facts.repairs.mismatched_exits, expected.mismatched_exits, "mismatched exits");
    assert_eq!(profile.facts.repairs.open_at_end, expected.open_at_end, "open at end");
    assert_eq!(profile.facts.repairs.unknown_methods, expected.unknown_methods, "unknown methods");
    let records: BTreeMap<u32, u64> = profile.stacks().threads.iter().map(|t| (t.tid, t.records)).collect();
    assert_eq!(records, expected.records, "records per thread");
    for clock in &present {
        for thread in &profile.stacks().threads {
            let got: BTreeMap<String, u64> = thread_stacks(profile, thread, *clock).into_iter().collect();
            let want: BTreeMap<String, u64> = expected
                .stacks
                .get(&thread.tid)
                .into_iter()
                .flatten()
                .map(|(stack, t)| (stack.clone(), micros(t[usize::from(*clock == Clock::Cpu)])))
                .filter(|(_, v)| *v > 0)
                .collect();
            assert_eq!(got, want, "folded stacks of thread {} on the {clock} clock", thread.tid);
        }
    }
    let table = frame_table(profile);
    let got: BTreeMap<MethodKey, MethodNumbers> = table
        .rows
        .iter()
        .map(|row| {
            let m = &profile.frames[row.frame as usize];
            let key = if m.unknown {
                (String::new(), m.display_name(), String::new())
            } else {
                (m.class.clone(), m.name.clone(), m.signature.clone())
            };
            (key, (row.calls, row.recursive_calls, [row.incl.wall, row.incl.cpu], [row.excl.wall, row.excl.cpu]))
        })
        .collect();
    let want: BTreeMap<_, _> =
        expected.methods.iter().map(|(k, s)| (k.clone(), (s.calls, s.recursive_calls, s.incl, s.excl))).collect();
    assert_eq!(got, want, "method statistics");
    for thread in &profile.stacks().threads {
        let origin = profile.system.timeline.start;
        let mut got: Vec<ExpectedCall> = thread
            .calls
            .iter()
            .map(|(depth, c)| ExpectedCall {
                start: c.start - origin,
                depth,
                end: c.end - origin,
                frame: profile.frame_name(c.frame).to_string(),
                cpu: c.cpu,
            })
            .collect();
        got.sort();
        let want = expected.calls.get(&thread.tid).cloned().unwrap_or_default();
        assert_eq!(got, want, "calls of thread {}", thread.tid);
    }
}

fn config(seed: u64, threads: usize, flags: u8) -> Config {
    Config {
        threads,
        pre_existing: flags & 1 != 0,
        unwinds: flags & 2 != 0,
        mismatched: flags & 4 != 0,
        unknown_methods: flags & 8 != 0,
        wrap: flags & 16 != 0,
        chunked: flags & 32 != 0,
        events_per_thread: 50 + (seed % 400) as usize,
        ..Config::default()
    }
}

fn clocks_of(choice: u8) -> Clocks {
    [Clocks::Dual, Clocks::Wall, Clocks::Cpu][choice as usize % 3]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn regular_files(seed: u64, threads in 1usize..8, flags: u8, version in 1u16..=3, offset16: bool,
                     wide_records: bool, clock in 0u8..3, chunk in 1usize..5000, gz: bool) {
        let clocks = if version < 3 { clocks_of(1 + clock % 2) } else { clocks_of(clock) };
        let mut cfg = config(seed, threads, flags);
        cfg.clocks = clocks;
        cfg.narrow_tids = version == 1;
        let scenario = generate(seed, &cfg);
        let record_size = (version == 3 && wide_records).then_some(if clocks == Clocks::Dual { 18 } else { 12 });
        let layout = Layout::Regular { version, data_offset: if offset16 && version < 3 { 16 } else { 32 }, record_size };
        let mut bytes = scenario.trace.write(&layout);
        if gz { bytes = gzip(&bytes); }
        let profile = read(&bytes, chunk);
        prop_assert_eq!(profile.profile.facts.format.version, u32::from(version));
        prop_assert!(!profile.profile.facts.repairs.truncated);
        check(&profile.profile, &scenario, (1, 1), clocks);
    }

    #[test]
    fn streaming_files(seed: u64, threads in 1usize..12, flags: u8, clock in 0u8..3, summary: bool,
                       chunk in 1usize..5000, gz: bool) {
        let clocks = clocks_of(clock);
        let mut cfg = config(seed, threads, flags);
        cfg.clocks = clocks;
        // Without a summary a single clock is guessed from the first values: ART
        // starts CPU at 0, which wrapped times would not.
        cfg.wrap &= summary || clocks != Clocks::Cpu;
        let scenario = generate(seed, &cfg);
        let mut bytes = scenario.trace.write(&Layout::Streaming { summary, summary_threads: true });
        if gz { bytes = gzip(&bytes); }
        let profile = read(&bytes, chunk);
        prop_assert!(profile.profile.facts.format.flag("streaming"));
        prop_assert_eq!(profile.profile.facts.repairs.truncated, !summary);
        let names_ok = profile.profile.stacks().threads.iter().all(|t| t.name.starts_with("worker-"));
        prop_assert!(names_ok);
        check(&profile.profile, &scenario, (1, 1), clocks);
    }

    #[test]
    fn v2_files(seed: u64, threads in 1usize..8, flags: u8, clock in 0u8..3, streaming: bool, nanos: bool,
                summary: bool, block in 1usize..300, carry: bool, chunk in 1usize..5000) {
        let clocks = clocks_of(clock);
        let mut cfg = config(seed, threads, flags);
        cfg.clocks = clocks;
        cfg.pointer_ids = true;
        // A continuation block that starts with an undefined method cannot be told apart.
        cfg.unknown_methods &= !carry;
        let summary = summary || clocks == Clocks::Cpu;
        let nanos = nanos || !summary;
        let scenario = generate(seed, &cfg);
        let layout = Layout::V2 { streaming, nanos, summary, block_records: block, carry_state: carry && streaming };
        let profile = read(&scenario.trace.write(&layout), chunk);
        prop_assert_eq!(profile.profile.facts.format.layout, "v2");
        check(&profile.profile, &scenario, if nanos { (1, 1000) } else { (1, 1) }, clocks);
    }

    #[test]
    fn v2_time_first_files(seed: u64, threads in 1usize..8, flags: u8, dual: bool, hz in prop_oneof![Just(0u64), 1_000_000u64..40_000_000],
                           block in 1usize..300, chunk in 1usize..5000) {
        // Exits name no method in this layout, so every exit closes the top frame: no
        // frames from before tracing, no mismatched exits. Only the wall clock is read.
        let mut cfg = config(seed, threads, flags);
        cfg.clocks = Clocks::Wall;
        cfg.pointer_ids = true;
        cfg.pre_existing = false;
        cfg.mismatched = false;
        // With no counter in the header the layout is guessed from the first block, which
        // an undefined method there can leave undecidable (then method-first is assumed).
        cfg.unknown_methods &= hz != 0;
        let mut scenario = generate(seed, &cfg);
        if dual {
            scenario.trace.clocks = Clocks::Dual;
        }
        let bytes = scenario.trace.write_time_first(&TimeFirst { counter_hz: hz, block_records: block });
        let profile = read(&bytes, chunk);
        prop_assert_eq!(profile.profile.stacks().clocks, droidflame_core::ClockSet::Wall);
        let unit = if hz == 0 { (1, 1000) } else { (1_000_000, hz) };
        check(&profile.profile, &scenario, unit, Clocks::Wall);
    }

    #[test]
    fn split_key_and_data(seed: u64, threads in 1usize..5, flags: u8, swap: bool, chunk in 1usize..3000) {
        let scenario = generate(seed, &config(seed, threads, flags));
        let (key, data) = scenario.trace.write_split();
        let profile = if swap {
            droidflame_core::analyze_split_with(&data, &key, options()).unwrap()
        } else {
            let mut analyzer = Analyzer::new(options());
            for piece in key.chunks(chunk) { analyzer.push(piece).unwrap(); }
            analyzer.end_of_key_file().unwrap();
            for piece in data.chunks(chunk) { analyzer.push(piece).unwrap(); }
            analyzer.finish().unwrap()
        };
        prop_assert!(profile.profile.facts.format.split);
        check(&profile.profile, &scenario, (1, 1), Clocks::Dual);
    }
}
