//! `droidflame-bench against OLD_BENCH [--label REV] [--quick] [--pairs N]`: the guard
//! against slowdowns. Every case of a fixed suite (method traces in both record orders,
//! streaming, V2, atrace text, `.ctrace`, Perfetto, simpleperf, SVGs, a mapping, a heap dump) is
//! measured by another build's bench binary and by this one, alternately, on the same
//! files, each run in a fresh process; each pair gives a ratio, and the table shows the
//! median ratio per measure. `cargo xtask bench --against REV` builds REV and runs this.
//!
//! Each pair runs fresh copies of both binaries, from paths of one length, with an
//! environment of another size than the pair before. Where a build's code lands in memory
//! (the page-cache pages of its file, the stack's start after its path and environment)
//! moves a run by a few per cent with no change in the code: one binary measured 1.02
//! against a copy of itself, pair after pair. New copies each pair spread that over the
//! pairs, for both builds alike, instead of giving one build a lucky placement for good.
//!
//! Wall times on a shared machine spread by 30% from pair to pair, more than most changes
//! move them. Each case's instructions are counted too (cachegrind, `instructions.rs`), for
//! both builds, on the suite's inputs a tenth of the size (the same inputs with `--quick`):
//! a count does not move with the machine's load. A measure below `SLOWER` whose pairs
//! spread more than its slowdown is judged by the count instead.

use crate::files::{write_mapping_file, write_shape};
use crate::instructions;
use crate::measure::{child_with_env, root};
use droidflame_testkit::large::{LargeLayout, Shape};
use serde_json::Value;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// A ratio below this (today slower by more than 3%) needs an explanation or a fix.
pub const SLOWER: f64 = 0.97;
/// Pairs of runs per case unless `--pairs` says otherwise.
const DEFAULT_PAIRS: usize = 5;
/// Bytes the environment grows by from one pair to the next: not a multiple of the page,
/// and a multiple of 16 that is not one of 64, so that pairs start the stack at other
/// offsets in both the page and the cache line.
const PAD_STEP: usize = 1040;

/// One input of the suite and how it is made.
struct Input {
    case: &'static str,
    file: &'static str,
    layout: LargeLayout,
    shape: fn(u64) -> Shape,
    records: u64,
}

fn inputs(quick: bool) -> Vec<Input> {
    let n = |full: u64| if quick { full / 10 } else { full };
    let input = |case, file, layout, shape: fn(u64) -> Shape, records| Input { case, file, layout, shape, records };
    vec![
        input(
            "method trace, threads interleaved record by record",
            "interleaved",
            LargeLayout::Regular,
            Shape::interleaved,
            n(4_080_000),
        ),
        input("method trace, per-thread runs", "app-start", LargeLayout::Regular, Shape::app_start, n(4_000_000)),
        input("method trace, streaming", "streaming", LargeLayout::Streaming, Shape::app_start, n(4_000_000)),
        input("method trace, V2", "v2", LargeLayout::V2, Shape::app_start, n(4_000_000)),
        input("atrace text", "atrace", LargeLayout::AtraceText, Shape::app_start, n(1_000_000)),
        input(".ctrace (atrace -z)", "ctrace", LargeLayout::Ctrace, Shape::app_start, n(1_000_000)),
        input("Perfetto", "perfetto", LargeLayout::Perfetto, Shape::app_start, n(2_000_000)),
        input("simpleperf samples", "simpleperf", LargeLayout::Simpleperf, Shape::app_start, n(500_000)),
    ]
}

/// One probe of one case: the binary's arguments, and what it measures as `(measure,
/// JSON field that holds its seconds)`.
#[derive(Clone)]
struct Measure {
    case: String,
    args: Vec<String>,
    fields: Vec<(&'static str, &'static str)>,
}

/// One line of the table.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub case: String,
    pub what: &'static str,
    /// Median seconds of the other build and of this one.
    pub before: Option<f64>,
    pub today: Option<f64>,
    /// `before / today` of each pair.
    pub ratios: Vec<f64>,
    /// Why the other build measured nothing, if it did not.
    pub failed: Option<String>,
    /// Instructions the case's probe executed (all its measures together) in the other
    /// build and in this one, or why they were not counted.
    pub counts: Result<(u64, u64), String>,
}

impl Row {
    /// The median of the pairs' ratios: above 1, today is faster.
    pub fn ratio(&self) -> Option<f64> {
        let mut r = self.ratios.clone();
        r.sort_by(f64::total_cmp);
        r.get(r.len() / 2).copied()
    }

    /// The other build's instructions over today's: above 1, today executes fewer.
    pub fn count_ratio(&self) -> Option<f64> {
        let &(before, today) = self.counts.as_ref().ok()?;
        (today > 0).then(|| before as f64 / today as f64)
    }

    /// The pairs' ratios spread wider than the slowdown their median shows: the wall time
    /// cannot tell it from the machine's noise.
    pub fn noisy(&self) -> bool {
        let Some(ratio) = self.ratio() else { return false };
        let (low, high) = self.ratios.iter().fold((f64::INFINITY, 0f64), |(l, h), &r| (l.min(r), h.max(r)));
        high - low > 1.0 - ratio
    }

    /// Slower by more than 3%: by the wall time, or, where its pairs spread more than that
    /// and the instructions were counted, by the count.
    pub fn is_slower(&self) -> bool {
        match (self.ratio(), self.count_ratio()) {
            (Some(r), _) if r >= SLOWER => false,
            (Some(_), Some(count)) if self.noisy() => count < SLOWER,
            (Some(_), _) => true,
            (None, _) => false,
        }
    }
}

pub fn against(args: &[&str]) -> Result<(), String> {
    let (old, rest) = args.split_first().ok_or("against takes the other build's bench binary")?;
    let quick = rest.contains(&"--quick");
    let label = option(rest, "--label")?.unwrap_or(old);
    let pairs = match option(rest, "--pairs")? {
        Some(n) => n.parse::<usize>().map_err(|_| format!("--pairs takes a number, not {n:?}"))?.max(1),
        None => DEFAULT_PAIRS,
    };
    let me = std::env::current_exe().map_err(|e| e.to_string())?;
    let dir = root().join("target/bench");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let builds = Builds {
        old: PathBuf::from(old),
        me,
        old_copy: dir.join("guard/a/droidflame-bench"),
        me_copy: dir.join("guard/b/droidflame-bench"),
    };
    let measures = measures(&dir, quick)?;
    // The same cases a tenth of the size, for counting.
    let counted = if quick { measures.clone() } else { self::measures(&dir, true)? };
    let counting = instructions::available();
    let mut rows = Vec::new();
    for (measure, small) in measures.iter().zip(&counted) {
        let mut made = pair_up(measure, &builds, pairs);
        let counts = if counting {
            count_both(small, &builds)
        } else {
            Err("valgrind is not installed: instructions not counted".into())
        };
        for row in &mut made {
            row.counts = counts.clone();
        }
        rows.extend(made);
    }
    let table = table(&rows, label, pairs);
    let out = dir.join(format!("against-{}.md", label.replace(['/', ' '], "_")));
    std::fs::write(&out, &table).map_err(|e| format!("{}: {e}", out.display()))?;
    println!("{table}");
    eprintln!("bench: wrote {}", out.display());
    let slower: Vec<String> =
        rows.iter().filter(|r| r.is_slower()).map(|r| format!("{} ({})", r.case, r.what)).collect();
    if slower.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} ran more than 3% slower than {label}: {}. Run it again on a quiet machine; if it stays, fix it or \
             explain it in the closing note",
            plural(slower.len(), "measure"),
            slower.join(", ")
        ))
    }
}

/// The two bench binaries, and where each pair runs them from (paths of one length).
struct Builds {
    old: PathBuf,
    me: PathBuf,
    old_copy: PathBuf,
    me_copy: PathBuf,
}

impl Builds {
    /// New copies of both (new files, so new pages), for the next pair.
    fn fresh(&self) -> Result<(String, String), String> {
        Ok((fresh_copy(&self.old, &self.old_copy)?, fresh_copy(&self.me, &self.me_copy)?))
    }
}

fn fresh_copy(binary: &Path, copy: &Path) -> Result<String, String> {
    let dir = copy.parent().ok_or("a copy needs a folder")?;
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    // Removed first, so that the copy is another file and not the old one rewritten.
    let _ = std::fs::remove_file(copy);
    std::fs::copy(binary, copy).map_err(|e| format!("copying {} to {}: {e}", binary.display(), copy.display()))?;
    path_str(copy)
}

fn option<'a>(args: &[&'a str], flag: &str) -> Result<Option<&'a str>, String> {
    match args.iter().position(|a| *a == flag) {
        Some(i) => args.get(i + 1).copied().map(Some).ok_or_else(|| format!("{flag} takes a value")),
        None => Ok(None),
    }
}

fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// The inputs, generated where missing, and what is measured on each.
fn measures(dir: &Path, quick: bool) -> Result<Vec<Measure>, String> {
    let mut measures = Vec::new();
    let mut method_runs = None;
    for input in inputs(quick) {
        let path = dir.join(format!("against-{}-{}.trace", input.file, input.records));
        ensure(&path, |tmp| write_shape(tmp, input.layout, &(input.shape)(input.records)).map(|_| ()))?;
        let file = path_str(&path)?;
        let mut fields = vec![("analysis", "analyze_s"), ("analysis, every call kept", "analyze_calls_s")];
        let runs = input.file == "app-start";
        if runs {
            fields.push(("summary JSON", "summary_s"));
        }
        let analyze = vec!["probe".into(), "analyze".into(), file.clone()];
        measures.push(Measure { case: input.case.into(), args: analyze, fields });
        if runs {
            let render = vec!["probe".into(), "render".into(), file.clone()];
            measures.push(Measure {
                case: input.case.into(),
                args: render,
                fields: vec![("every thread's flame graph SVG", "render_s")],
            });
            method_runs = Some(file);
        }
    }
    let objects = if quick { 160_000 } else { 1_600_000 };
    let dump = dir.join(format!("against-heap-{objects}.hprof"));
    ensure(&dump, |tmp| crate::files::write_heap_file(tmp, objects).map(|_| ()))?;
    measures.push(Measure {
        case: "heap dump (HotSpot)".into(),
        args: vec!["probe".into(), "heap".into(), path_str(&dump)?],
        fields: vec![("analysis", "analyze_s"), ("class table", "classes_s")],
    });
    let trace = method_runs.expect("the suite has a method trace in per-thread runs");
    let mb = if quick { 10 } else { 100 };
    let mapping = dir.join(format!("app-start-mapping-{mb}MB.txt"));
    ensure(&mapping, |tmp| write_mapping_file(tmp, mb << 20))?;
    measures.push(Measure {
        case: format!("mapping of {mb} MB"),
        args: vec!["probe".into(), "mapping".into(), trace, path_str(&mapping)?],
        fields: vec![("read and applied", "mapping_s")],
    });
    Ok(measures)
}

fn path_str(path: &Path) -> Result<String, String> {
    path.to_str().map(str::to_owned).ok_or_else(|| format!("{} is not UTF-8", path.display()))
}

/// Writes `path` through a temporary file unless it is there; then reads it once, so that
/// every run reads it from the page cache.
fn ensure(path: &Path, write: impl FnOnce(&Path) -> Result<(), String>) -> Result<(), String> {
    if !path.exists() {
        eprintln!("bench: generating {}", path.display());
        let tmp: PathBuf = path.with_extension("partial");
        write(&tmp)?;
        std::fs::rename(&tmp, path).map_err(|e| e.to_string())?;
    }
    let mut file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    std::io::copy(&mut file, &mut std::io::sink()).map_err(|e| e.to_string())?;
    Ok(())
}

/// Instructions of `measure`'s probe in the other build and in this one.
fn count_both(measure: &Measure, builds: &Builds) -> Result<(u64, u64), String> {
    let args: Vec<&str> = measure.args.iter().map(String::as_str).collect();
    let (old, me) = builds.fresh()?;
    Ok((instructions::count(&old, &args)?, instructions::count(&me, &args)?))
}

/// `pairs` runs of each build, alternating which goes first, so that a machine growing
/// busier or quieter hits both alike: a row for each of the probe's measures.
fn pair_up(measure: &Measure, builds: &Builds, pairs: usize) -> Vec<Row> {
    let args: Vec<&str> = measure.args.iter().map(String::as_str).collect();
    let run = |program: &str, pair: usize| -> Result<Vec<f64>, String> {
        let pad = "x".repeat(pair * PAD_STEP % 4096);
        let value: Value = child_with_env(program, &args, &[("DROIDFLAME_BENCH_PAD", &pad)])?;
        measure
            .fields
            .iter()
            .map(|(_, field)| value[*field].as_f64().ok_or_else(|| format!("{program} gave no {field}")))
            .collect()
    };
    let mut runs: Vec<(Vec<f64>, Vec<f64>)> = Vec::new();
    let mut failed = None;
    for pair in 0..pairs {
        let (old, me) = match builds.fresh() {
            Ok(copies) => copies,
            Err(e) => {
                failed = Some(e);
                break;
            }
        };
        let (b, t) = if pair % 2 == 0 {
            let b = run(&old, pair);
            (b, run(&me, pair))
        } else {
            let t = run(&me, pair);
            (run(&old, pair), t)
        };
        match (b, t) {
            (Ok(b), Ok(t)) => runs.push((b, t)),
            (Err(e), _) => failed = Some(e),
            (_, Err(e)) => failed = Some(format!("today's build: {e}")),
        }
        if failed.is_some() {
            break;
        }
    }
    measure
        .fields
        .iter()
        .enumerate()
        .map(|(k, (what, _))| Row {
            case: measure.case.clone(),
            what,
            before: median(runs.iter().map(|(b, _)| b[k]).collect()),
            today: median(runs.iter().map(|(_, t)| t[k]).collect()),
            ratios: runs.iter().filter(|(_, t)| t[k] > 0.0).map(|(b, t)| b[k] / t[k]).collect(),
            failed: failed.clone(),
            counts: Err("not counted".into()),
        })
        .collect()
}

fn median(mut v: Vec<f64>) -> Option<f64> {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied()
}

/// A count in millions, digits grouped: `9,597.2 M`.
fn millions(n: u64) -> String {
    let whole = n / 1_000_000;
    let tenth = (n % 1_000_000) / 100_000;
    let digits = whole.to_string();
    let mut grouped = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(c);
    }
    format!("{grouped}.{tenth} M")
}

fn seconds(s: Option<f64>) -> String {
    match s {
        Some(s) if s < 1.0 => format!("{:.1} ms", s * 1000.0),
        Some(s) => format!("{s:.2} s"),
        None => "—".into(),
    }
}

/// The table of ratios, one line a measure; rows below `SLOWER` are marked.
pub fn table(rows: &[Row], label: &str, pairs: usize) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Today's build against {label}: {pairs} pairs of runs per measure, alternating which build goes first, each \
         run a fresh process on the same file (read from the page cache). Times are medians of each build's runs; \
         the ratio is {label}'s time over today's for each pair, and the median of those: above 1 today is faster, \
         below {SLOWER} is a slowdown to fix or explain. Instructions are each case's probe (all its measures) \
         counted by cachegrind on the case's input a tenth of the size (the same input with --quick), in millions; \
         their ratio is {label}'s count over today's. A measure below {SLOWER} whose pairs spread wider than its \
         slowdown is judged by the count (\"noise\" where the count is not below {SLOWER}).\n"
    );
    let _ = writeln!(
        s,
        "| case | measure | {label} | today | ratio | pairs' ratios | instructions {label} | today | ratio |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|");
    for row in rows {
        let ratio = match (row.ratio(), &row.failed) {
            (Some(r), _) if row.is_slower() => format!("**{r:.3} SLOWER**"),
            (Some(r), _) if r < SLOWER => format!("{r:.3} (noise: the count)"),
            (Some(r), _) => format!("{r:.3}"),
            (None, Some(why)) => format!("not measured: {}", why.lines().next().unwrap_or("")),
            (None, None) => "—".into(),
        };
        let (low, high) = row.ratios.iter().fold((f64::INFINITY, 0f64), |(l, h), &r| (l.min(r), h.max(r)));
        let spread = if row.ratios.is_empty() { "—".into() } else { format!("{low:.2}–{high:.2}") };
        let counts = match (&row.counts, row.count_ratio()) {
            (Ok((before, today)), Some(r)) => format!("{} | {} | {r:.4}", millions(*before), millions(*today)),
            (Ok(_), None) => "— | — | —".into(),
            (Err(why), _) => format!("{} | — | —", why.lines().next().unwrap_or("")),
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {ratio} | {spread} | {counts} |",
            row.case,
            row.what,
            seconds(row.before),
            seconds(row.today)
        );
    }
    let slower = rows.iter().filter(|r| r.is_slower()).count();
    let _ = writeln!(
        s,
        "\n{}",
        if slower == 0 {
            format!("No measure is below {SLOWER}.")
        } else {
            format!(
                "{} below {SLOWER}.",
                if slower == 1 { "1 measure is".into() } else { format!("{slower} measures are") }
            )
        }
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(what: &'static str, ratios: &[f64]) -> Row {
        Row {
            case: "case".into(),
            what,
            before: Some(0.1),
            today: Some(0.1),
            ratios: ratios.to_vec(),
            failed: None,
            counts: Err("not counted".into()),
        }
    }

    #[test]
    fn a_slowdown_the_pairs_cannot_tell_from_noise_is_judged_by_the_instructions() {
        // A median of 0.961 whose pairs spread from 0.80 to 1.10: noise covers the 4%.
        let mut noisy = row("analysis", &[0.80, 0.961, 1.10, 0.95, 0.99]);
        noisy.counts = Ok((9_597_238_663, 9_599_356_951));
        assert!(noisy.noisy());
        assert!(!noisy.is_slower(), "the count moved by 0.02%");
        noisy.counts = Ok((9_000_000_000, 9_600_000_000));
        assert!(noisy.is_slower(), "6% more instructions");
        // Pairs that agree: the wall time is believed, whatever the count.
        let mut steady = row("analysis", &[0.95, 0.955, 0.96]);
        steady.counts = Ok((1_000, 1_000));
        assert!(!steady.noisy() && steady.is_slower());
        // No count: the wall time is all there is.
        assert!(row("analysis", &[0.80, 0.961, 1.10]).is_slower());
        let text = table(
            &[noisy.clone(), {
                noisy.counts = Ok((9_597_238_663, 9_599_356_951));
                noisy
            }],
            "c1518f1",
            5,
        );
        assert!(text.contains("| **0.961 SLOWER** | 0.80–1.10 | 9,000.0 M | 9,600.0 M | 0.9375 |"), "{text}");
        assert!(text.contains("| 0.961 (noise: the count) | 0.80–1.10 | 9,597.2 M | 9,599.3 M | 0.9998 |"), "{text}");
        assert_eq!(millions(840_815_946), "840.8 M");
        assert_eq!(millions(999_999), "0.9 M");
    }

    #[test]
    fn the_ratio_is_the_median_of_the_pairs_and_a_slow_one_is_marked() {
        let fast = row("analysis", &[1.4, 1.3, 1.5]);
        let slow = row("with calls", &[0.95, 0.99, 0.90]);
        assert_eq!(fast.ratio(), Some(1.4));
        assert_eq!(slow.ratio(), Some(0.95));
        assert!(slow.is_slower() && !fast.is_slower());
        let text = table(&[fast, slow], "412c041", 3);
        assert!(
            text.contains("| case | analysis | 100.0 ms | 100.0 ms | 1.400 | 1.30–1.50 | not counted | — | — |"),
            "{text}"
        );
        assert!(text.contains("| **0.950 SLOWER** | 0.90–0.99 |"), "{text}");
        assert!(text.contains("1 measure is below 0.97."), "{text}");
    }

    #[test]
    fn every_input_reads_as_the_records_it_was_written_with() {
        for input in inputs(true) {
            let mut bytes = Vec::new();
            let shape = (input.shape)(20_000);
            droidflame_testkit::large::write_large(&mut bytes, &shape, input.layout).unwrap();
            let profile = droidflame_core::analyze(&bytes).unwrap();
            assert_eq!(profile.profile.facts.records, 20_000, "{}", input.case);
        }
    }

    #[test]
    fn a_measure_the_other_build_cannot_take_says_why() {
        let mut old = row("read and applied", &[]);
        old.before = None;
        old.failed = Some("droidflame-bench probe mapping: unknown probe\nmore".into());
        let text = table(&[old], "1981653", 5);
        assert!(text.contains("| not measured: droidflame-bench probe mapping: unknown probe | — |"), "{text}");
        assert!(text.contains("No measure is below 0.97."), "{text}");
    }
}
