//! The speedscope and pprof exports, read back: each follows its format's published
//! definition (speedscope's file-format-spec, pprof's profile.proto, decoded here from
//! their field numbers) and holds exactly the stacks of the same view's folded output.

use droidflame_core::products::{self, ExportOptions, FoldedOptions, Transform, View};
use droidflame_core::{analyze, Analysis, Clock};
use droidflame_testkit::scenario::{generate, Config};
use droidflame_testkit::Layout;
use std::collections::BTreeMap;
use std::io::Read;

type Stacks = BTreeMap<String, u64>;

fn folded(profile: &Analysis, clock: Clock, view: &View) -> Stacks {
    let options = FoldedOptions { clock: Some(clock), view: view.clone(), ..FoldedOptions::default() };
    let text = products::folded(&profile.profile, &options).unwrap();
    text.lines()
        .map(|l| l.rsplit_once(' ').unwrap())
        .map(|(s, v)| (s.to_owned(), v.parse().unwrap()))
        .filter(|(_, v)| *v > 0)
        .collect()
}

fn profiles() -> Vec<(String, Analysis)> {
    let config = Config { threads: 3, methods: 8, events_per_thread: 300, max_depth: 10, ..Config::default() };
    let mut out: Vec<(String, Analysis)> = (0..3)
        .map(|seed| {
            let trace = generate(seed, &config).trace.write(&Layout::ART_REGULAR);
            (format!("seed {seed}"), analyze(&trace).unwrap())
        })
        .collect();
    if droidflame_testkit::corpus_present("exports::profiles (the simpleperf file)") {
        let bytes = droidflame_testkit::corpus_file("simpleperf/aosp-simpleperf-display_bitmaps.proto_data");
        out.push(("simpleperf".into(), analyze(&bytes).unwrap()));
    }
    out
}

fn views(profile: &Analysis) -> Vec<View> {
    let busiest = products::folded(&profile.profile, &FoldedOptions::default())
        .unwrap()
        .lines()
        .filter_map(|l| l.rsplit_once(' ').unwrap().0.split(';').nth(1).map(str::to_owned))
        .next()
        .expect("a frame");
    vec![
        View::default(),
        View { transforms: vec![Transform::Merge(busiest.clone())], invert: false },
        View { transforms: vec![Transform::Focus(busiest)], invert: true },
    ]
}

#[test]
fn speedscope_files_follow_the_spec_and_hold_the_folded_stacks() {
    for (what, profile) in profiles() {
        for view in views(&profile) {
            let clock = profile.profile.default_clock();
            let mut out = Vec::new();
            let options = ExportOptions { clock: Some(clock), view: view.clone() };
            products::write_speedscope(&profile.profile, &options, &mut out).unwrap();
            let file: serde_json::Value = serde_json::from_slice(&out).unwrap();
            assert_eq!(file["$schema"], "https://www.speedscope.app/file-format-schema.json");
            let frames = file["shared"]["frames"].as_array().expect("shared.frames");
            let names: Vec<&str> = frames.iter().map(|f| f["name"].as_str().expect("a frame's name")).collect();
            let mut stacks = Stacks::new();
            for profile in file["profiles"].as_array().expect("profiles") {
                assert_eq!(profile["type"], "sampled");
                assert!(["none", "nanoseconds", "microseconds", "milliseconds", "seconds", "bytes"]
                    .contains(&profile["unit"].as_str().unwrap()));
                let (start, end) = (profile["startValue"].as_f64().unwrap(), profile["endValue"].as_f64().unwrap());
                assert!(end >= start, "{what}: endValue before startValue");
                let samples = profile["samples"].as_array().unwrap();
                let weights = profile["weights"].as_array().unwrap();
                assert_eq!(samples.len(), weights.len(), "{what}: a weight per sample");
                let thread = profile["name"].as_str().unwrap();
                let mut sum = 0.0;
                for (sample, weight) in samples.iter().zip(weights) {
                    let mut stack = thread.to_owned();
                    for index in sample.as_array().unwrap() {
                        stack.push(';');
                        stack.push_str(names[index.as_u64().unwrap() as usize]);
                    }
                    let weight = weight.as_u64().unwrap();
                    sum += weight as f64;
                    *stacks.entry(stack).or_default() += weight;
                }
                assert_eq!(sum, end - start, "{what}: the profile spans its weights");
            }
            assert!(file["activeProfileIndex"].as_u64().unwrap() < file["profiles"].as_array().unwrap().len() as u64);
            assert_eq!(stacks, folded(&profile, clock, &view), "{what}: {view:?}");
        }
    }
}

/// pprof's messages as profile.proto numbers its fields (only those read here).
#[derive(Clone, PartialEq, prost::Message)]
struct PprofProfile {
    #[prost(message, repeated, tag = "1")]
    sample_type: Vec<PprofValueType>,
    #[prost(message, repeated, tag = "2")]
    sample: Vec<PprofSample>,
    #[prost(message, repeated, tag = "4")]
    location: Vec<PprofLocation>,
    #[prost(message, repeated, tag = "5")]
    function: Vec<PprofFunction>,
    #[prost(string, repeated, tag = "6")]
    string_table: Vec<String>,
    #[prost(int64, tag = "14")]
    default_sample_type: i64,
}

#[derive(Clone, PartialEq, prost::Message)]
struct PprofValueType {
    #[prost(int64, tag = "1")]
    r#type: i64,
    #[prost(int64, tag = "2")]
    unit: i64,
}

#[derive(Clone, PartialEq, prost::Message)]
struct PprofSample {
    #[prost(uint64, repeated, tag = "1")]
    location_id: Vec<u64>,
    #[prost(int64, repeated, tag = "2")]
    value: Vec<i64>,
    #[prost(message, repeated, tag = "3")]
    label: Vec<PprofLabel>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct PprofLabel {
    #[prost(int64, tag = "1")]
    key: i64,
    #[prost(int64, tag = "2")]
    str: i64,
}

#[derive(Clone, PartialEq, prost::Message)]
struct PprofLocation {
    #[prost(uint64, tag = "1")]
    id: u64,
    #[prost(message, repeated, tag = "4")]
    line: Vec<PprofLine>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct PprofLine {
    #[prost(uint64, tag = "1")]
    function_id: u64,
}

#[derive(Clone, PartialEq, prost::Message)]
struct PprofFunction {
    #[prost(uint64, tag = "1")]
    id: u64,
    #[prost(int64, tag = "2")]
    name: i64,
}

#[test]
fn pprof_files_decode_against_profile_proto_and_hold_the_folded_stacks() {
    use prost::Message;
    for (what, profile) in profiles() {
        for view in views(&profile) {
            let mut out = Vec::new();
            let options = ExportOptions { clock: None, view: view.clone() };
            products::write_pprof(&profile.profile, &options, &mut out).unwrap();
            assert_eq!(&out[..2], [0x1F, 0x8B], "{what}: gzip, as pprof stores it");
            let mut raw = Vec::new();
            flate2::read::GzDecoder::new(&out[..]).read_to_end(&mut raw).unwrap();
            let pprof = PprofProfile::decode(&raw[..]).unwrap();
            let text = |i: i64| pprof.string_table[i as usize].as_str();
            assert_eq!(pprof.string_table[0], "", "{what}: string 0 is empty");
            let clocks: Vec<Clock> = Clock::ALL.into_iter().filter(|&c| profile.profile.has(c)).collect();
            let types: Vec<(&str, &str)> = pprof.sample_type.iter().map(|t| (text(t.r#type), text(t.unit))).collect();
            assert_eq!(types, clocks.iter().map(|c| (c.name(), "microseconds")).collect::<Vec<_>>());
            assert_eq!(text(pprof.default_sample_type), profile.profile.default_clock().name());
            let function_name: BTreeMap<u64, &str> = pprof.function.iter().map(|f| (f.id, text(f.name))).collect();
            let location_name: BTreeMap<u64, &str> =
                pprof.location.iter().map(|l| (l.id, function_name[&l.line[0].function_id])).collect();
            for (c, &clock) in clocks.iter().enumerate() {
                let mut stacks = Stacks::new();
                for sample in &pprof.sample {
                    assert_eq!(sample.value.len(), clocks.len(), "{what}: a value per sample type");
                    let thread = sample.label.iter().find(|l| text(l.key) == "thread").expect("a thread label");
                    let mut stack = text(thread.str).to_owned();
                    // Leaf first in pprof; root first in folded stacks.
                    for id in sample.location_id.iter().rev() {
                        stack.push(';');
                        stack.push_str(location_name[id]);
                    }
                    if sample.value[c] > 0 {
                        *stacks.entry(stack).or_default() += sample.value[c] as u64;
                    }
                }
                assert_eq!(stacks, folded(&profile, clock, &view), "{what}: {view:?} on {clock}");
            }
        }
    }
}

/// Each stack's time from an evented speedscope profile: how long it was the innermost
/// open stack, checking on the way that events come in time order and close what they
/// opened, innermost first.
fn evented_stacks(profile: &serde_json::Value, names: &[&str], what: &str) -> Stacks {
    let thread = profile["name"].as_str().unwrap();
    let mut open: Vec<usize> = Vec::new();
    let mut stacks = Stacks::new();
    let mut last = 0.0;
    for event in profile["events"].as_array().unwrap() {
        let at = event["at"].as_f64().unwrap();
        assert!(at >= last, "{what}: events out of time order ({last} then {at})");
        if !open.is_empty() && at > last {
            let stack = std::iter::once(thread).chain(open.iter().map(|&f| names[f])).collect::<Vec<_>>().join(";");
            *stacks.entry(stack).or_default() += (at - last).round() as u64;
        }
        last = at;
        let frame = event["frame"].as_u64().unwrap() as usize;
        match event["type"].as_str().unwrap() {
            "O" => open.push(frame),
            "C" => assert_eq!(open.pop(), Some(frame), "{what}: a close of what was not opened last"),
            other => panic!("{what}: event type {other}"),
        }
    }
    assert!(open.is_empty(), "{what}: calls left open");
    stacks
}

#[test]
fn speedscope_of_every_call_kept_is_in_time_order_and_holds_the_wall_clocks_stacks() {
    let config = Config { threads: 3, methods: 8, events_per_thread: 300, max_depth: 10, ..Config::default() };
    for seed in 0..3 {
        let trace = generate(seed, &config).trace.write(&Layout::ART_REGULAR);
        let options = droidflame_core::Options { keep_calls: true, ..Default::default() };
        let profile = droidflame_core::analyze_with(&trace, options).unwrap();
        for view in views(&profile).into_iter().filter(|v| !v.invert) {
            let what = format!("seed {seed} {view:?}");
            let mut out = Vec::new();
            let export = ExportOptions { clock: Some(Clock::Wall), view: view.clone() };
            products::write_speedscope(&profile.profile, &export, &mut out).unwrap();
            let file: serde_json::Value = serde_json::from_slice(&out).unwrap();
            let names: Vec<&str> =
                file["shared"]["frames"].as_array().unwrap().iter().map(|f| f["name"].as_str().unwrap()).collect();
            let mut stacks = Stacks::new();
            for p in file["profiles"].as_array().unwrap() {
                assert_eq!(p["type"], "evented", "{what}");
                assert_eq!(p["unit"], "microseconds");
                stacks.extend(evented_stacks(p, &names, &what));
            }
            if view.transforms.is_empty() {
                stacks.retain(|_, v| *v > 0);
                assert_eq!(stacks, folded(&profile, Clock::Wall, &view), "{what}");
            }
        }
        // The CPU clock is no timeline: its stacks are added up, and say so.
        let mut out = Vec::new();
        products::write_speedscope(
            &profile.profile,
            &ExportOptions { clock: Some(Clock::Cpu), view: View::default() },
            &mut out,
        )
        .unwrap();
        let file: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(file["profiles"][0]["type"], "sampled");
        assert!(
            file["name"].as_str().unwrap().ends_with("(cpu clock; stacks added up, not in time order)"),
            "{}",
            file["name"]
        );
    }
}
