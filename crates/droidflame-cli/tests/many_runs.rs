//! `diff --before ... --after ...` and `merge` as scripts use them: ten runs a side of a
//! program where one method got slower, written by the testkit.

use droidflame_testkit::mapping::{obfuscate_build, MappingStyle};
use droidflame_testkit::runs::{method_name, run, RunSpec, SLOWED};
use droidflame_testkit::Layout;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::{Command, Output};

fn droidflame(args: &[String]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_droidflame")).args(args).output().expect("the binary runs")
}

fn stdout(args: &[String]) -> String {
    let out = droidflame(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// `runs` runs a side in a fresh directory, after's `SLOWED` by `factor`: (before, after).
fn write_runs(tag: &str, runs: u64, factor: f64) -> (Vec<String>, Vec<String>) {
    let dir = std::env::temp_dir().join(format!("droidflame-runs-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut sides = (Vec::new(), Vec::new());
    for i in 0..runs {
        for (side, spec, paths) in [
            ("before", RunSpec { seed: 1 + i, slower: None, spread: 0.1 }, &mut sides.0),
            ("after", RunSpec { seed: 1001 + i, slower: Some((SLOWED, factor)), spread: 0.1 }, &mut sides.1),
        ] {
            let path: PathBuf = dir.join(format!("{side}-{i:02}.trace"));
            std::fs::write(&path, run(&spec).write(&Layout::ART_STREAMING)).unwrap();
            paths.push(path.display().to_string());
        }
    }
    sides
}

/// The runs of `write_runs` as two release builds write them: each group obfuscated by
/// its own build, beside that build's mapping: (before, after, before's mapping, after's).
fn write_release_runs(tag: &str, runs: u64, factor: f64) -> (Vec<String>, Vec<String>, String, String) {
    let (before, after) = write_runs(tag, runs, factor);
    let mut mappings = Vec::new();
    for (build, paths) in [&before, &after].into_iter().enumerate() {
        let mut mapping = String::new();
        for (i, path) in paths.iter().enumerate() {
            let spec = match build {
                0 => RunSpec { seed: 1 + i as u64, slower: None, spread: 0.1 },
                _ => RunSpec { seed: 1001 + i as u64, slower: Some((SLOWED, factor)), spread: 0.1 },
            };
            let release = obfuscate_build(&run(&spec), MappingStyle::R8, build);
            std::fs::write(path, release.trace.write(&Layout::ART_STREAMING)).unwrap();
            mapping = release.mapping;
        }
        let path = PathBuf::from(&paths[0]).with_file_name(format!("mapping-{build}.txt"));
        std::fs::write(&path, mapping).unwrap();
        mappings.push(path.display().to_string());
    }
    let after_mapping = mappings.pop().unwrap();
    (before, after, mappings.pop().unwrap(), after_mapping)
}

fn args(words: &[&str], before: &[String], after: &[String], rest: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = words.iter().map(|w| w.to_string()).collect();
    out.push("--before".into());
    out.extend(before.iter().cloned());
    out.push("--after".into());
    out.extend(after.iter().cloned());
    out.extend(rest.iter().map(|w| w.to_string()));
    out
}

/// The table's rows as column name -> value.
fn table(text: &str) -> Vec<BTreeMap<String, String>> {
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    lines.map(|l| header.iter().map(|h| h.to_string()).zip(l.split('\t').map(str::to_owned)).collect()).collect()
}

#[test]
fn the_slowed_method_is_significant_among_the_first_rows_with_hardly_a_false_alarm() {
    let (before, after) = write_runs("slowed", 10, 1.3);
    for extra in [&[][..], &["--share"][..]] {
        let mut rest = vec!["--format", "methods"];
        rest.extend(extra);
        let rows = table(&stdout(&args(&["diff"], &before, &after, &rest)));
        let slowed = method_name(SLOWED);
        let at = rows.iter().position(|r| r["method"] == slowed).unwrap();
        assert!(at < 3, "{extra:?}: row {at}");
        assert_eq!((rows[at]["significant"].as_str(), rows[at]["verdict"].as_str()), ("yes", "slower"));
        let median = |side: &str| rows[at][&format!("excl_median_{side}_us")].parse::<f64>().unwrap();
        assert!(median("after") > median("before") * 1.15, "{:?}", rows[at]);
        let alarms = rows.iter().filter(|r| r["significant"] == "yes" && r["method"] != slowed).count();
        assert!(alarms <= 1, "{extra:?}: {alarms} false alarms");
        let p: f64 = rows[at]["p_value"].parse().unwrap();
        assert!(p < 0.001, "{p}");
        // The change as an effect: about 1.3 times, a shift whose interval leaves out 0.
        let number = |column: &str| rows[at][column].parse::<f64>().unwrap();
        assert!((1.15..1.5).contains(&number("ratio")), "{:?}", rows[at]);
        assert!(number("shift_low_us") > 0.0 && number("shift_low_us") <= number("shift_us"), "{:?}", rows[at]);
        assert!(number("shift_us") <= number("shift_high_us") && number("shift_confidence") >= 0.95, "{:?}", rows[at]);
        assert_eq!(rows[at]["evidence"], "corrected test");
        let unchanged = rows.iter().filter(|r| r["verdict"] == "unchanged").count();
        assert!(unchanged >= rows.len() - 2, "{unchanged} of {} unchanged", rows.len());
    }
    // A stricter rate still finds it; the stderr line says how many changed.
    let out = droidflame(&args(&["diff"], &before, &after, &["--format", "methods", "--alpha", "0.001"]));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("10 runs before, 10 after: 1 of 42 methods changed significantly"), "{said}");
}

#[test]
fn one_run_a_side_is_the_two_trace_diff_and_groups_give_medians() {
    let (before, after) = write_runs("pair", 3, 2.0);
    let pair = stdout(&["diff".into(), before[0].clone(), after[0].clone()]);
    let groups = stdout(&args(&["diff"], &before[..1], &after[..1], &[]));
    assert_eq!(pair, groups);
    // Three a side: each stack's values are the medians of the three pairs' values.
    let mut values: BTreeMap<String, Vec<(u64, u64)>> = BTreeMap::new();
    for i in 0..3 {
        for line in stdout(&["diff".into(), before[i].clone(), after[i].clone()]).lines() {
            let mut fields = line.rsplitn(3, ' ');
            let (a, b, stack) = (fields.next().unwrap(), fields.next().unwrap(), fields.next().unwrap());
            values.entry(stack.into()).or_insert_with(|| vec![(0, 0); 3])[i] = (b.parse().unwrap(), a.parse().unwrap());
        }
    }
    let median = |mut v: Vec<u64>| {
        v.sort();
        v[1]
    };
    let expected: String = values
        .into_iter()
        .map(|(stack, v)| {
            let (b, a) = (median(v.iter().map(|x| x.0).collect()), median(v.iter().map(|x| x.1).collect()));
            (b, a, stack)
        })
        .filter(|(b, a, _)| (*b, *a) != (0, 0))
        .map(|(b, a, stack)| format!("{stack} {b} {a}\n"))
        .collect();
    assert_eq!(stdout(&args(&["diff"], &before, &after, &[])), expected);
    let svg = stdout(&args(&["diff"], &before, &after, &["--format", "svg"]));
    assert!(svg.contains("medians of 3 and 3 runs"), "the graph says what it shows");
}

#[test]
fn merge_prints_a_groups_stacks_and_its_summary() {
    let (before, _) = write_runs("merge", 4, 1.0);
    let mut words = vec!["merge".to_owned()];
    words.extend(before.iter().cloned());
    let sum_of = |stat: &str| {
        let mut a = words.clone();
        a.extend(["--stat".into(), stat.into()]);
        stdout(&a)
    };
    // The sum over the runs equals the two-run diff's columns added, for the first two.
    let two = stdout(&["merge".into(), before[0].clone(), before[1].clone(), "--stat".into(), "sum".into()]);
    let pair = stdout(&["diff".into(), before[0].clone(), before[1].clone()]);
    let added: String = pair
        .lines()
        .map(|l| {
            let mut f = l.rsplitn(3, ' ');
            let (a, b, stack) = (f.next().unwrap(), f.next().unwrap(), f.next().unwrap());
            format!("{stack} {}\n", b.parse::<u64>().unwrap() + a.parse::<u64>().unwrap())
        })
        .collect();
    assert_eq!(two, added);
    assert!(sum_of("median").lines().count() > 40);
    assert!(sum_of("mean").starts_with("main;"));
    let mut summary = words.clone();
    summary.extend(["--format".into(), "summary".into(), "--thread".into(), "main".into()]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&summary)).unwrap();
    assert_eq!(json["runs"].as_array().unwrap().len(), 4);
    assert_eq!(json["threads"][0]["name"], "main");
    assert_eq!(json["threads"].as_array().unwrap().len(), 1, "only main");
    let method = &json["methods"][0];
    assert_eq!(method["excl_us"].as_array().unwrap().len(), 4);
}

#[test]
fn groups_that_cannot_be_compared_are_exit_2_with_one_line() {
    let (before, after) = write_runs("bad", 1, 1.0);
    let not_a_trace = std::env::temp_dir().join(format!("droidflame-runs-{}-notes.txt", std::process::id()));
    std::fs::write(&not_a_trace, "just notes\n").unwrap();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (args(&["diff"], &before, &[not_a_trace.display().to_string()], &[]), "notes.txt: not an Android trace"),
        (args(&["diff"], &before, &after, &["--thread", "RenderThread"]), "no run has a thread named \"RenderThread\""),
        (args(&["diff"], &before, &after, &["--format", "methods", "--alpha", "2"]), "alpha 2 is not between 0 and 1"),
        (args(&["diff"], &before, &after, &["--source", "heap-allocated"]), "heap-allocated"),
    ];
    for (words, expected) in cases {
        let out = droidflame(&words);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{words:?}: {err}");
        assert!(err.contains(expected) && err.lines().count() == 1, "{words:?}: {err}");
    }
    // --before without --after is a usage error.
    let out = droidflame(&["diff".into(), "--before".into(), before[0].clone()]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn two_release_builds_each_with_its_mapping_compare_as_their_plain_runs_do() {
    let (before, after) = write_runs("plain-builds", 4, 1.5);
    let (obf_before, obf_after, before_mapping, after_mapping) = write_release_runs("release-builds", 4, 1.5);
    let mappings = ["--mapping", &before_mapping, "--mapping", &after_mapping];
    for format in ["methods", "folded"] {
        let plain = stdout(&args(&["diff", "--format", format], &before, &after, &[]));
        let mapped = stdout(&args(&["diff", "--format", format], &obf_before, &obf_after, &mappings));
        assert_eq!(mapped, plain, "{format}");
    }
    // Without the mappings, the builds' names differ: no method is in both groups' runs.
    let unmapped = table(&stdout(&args(&["diff"], &obf_before, &obf_after, &["--format", "methods"])));
    assert!(!unmapped.iter().any(|r| r["method"] == method_name(SLOWED)));
    assert!(unmapped.iter().filter(|r| r["runs_called_before"] != "0").all(|r| r["runs_called_after"] == "0"));
}
