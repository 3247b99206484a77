//! `droidflame-bench`: the benchmark suite (run it through `cargo xtask bench`).
//!
//! - `report [--quick] [--out FILE]`: generates the traces (cached in target/bench), measures
//!   each in fresh child processes, in wasm under Node and in headless Chromium, and writes
//!   the table (BENCHMARKS.md by default).
//! - `generate regular|streaming|v2|atrace|ctrace|perfetto|perfetto-sched|perfetto-samples|simpleperf|small|interleaved RECORDS FILE`: one generated trace (`small`: a
//!   regular trace of a small program, 12 threads and 3,000 methods); `generate deep DEPTH FILE`
//!   and `generate fresh STACKS FILE` write the adversarial ones (a deep stack, all-new stacks).
//! - `generate heap OBJECTS FILE`: a HotSpot-style heap dump of about that many objects.
//! - `probe analyze|stream|calls|baseline|render|adversarial|heap FILE`: one measurement, as a JSON line.
//! - `against OLD_BENCH [--label REV] [--quick] [--pairs N]`: every case of the guard's suite
//!   measured by another build's bench binary and this one alternately; a table of ratios.

mod against;
mod files;
mod heap_probe;
mod instructions;
mod measure;
mod probe;
mod scaling;
mod tree_runs;

use droidflame_testkit::adversarial::Adversary;
use droidflame_testkit::large::{LargeLayout, Shape};
use files::{fresh_stacks, write_adversary, write_file, write_mapping_file, write_shape};
use measure::{child, f, median, root, spread, COMPARE_RUNS};
use serde_json::Value;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = match args.as_slice() {
        ["probe", "mapping", trace, mapping] => probe::mapping(trace, mapping, 5).map(|v| println!("{v}")),
        ["probe", "pieces", file, most, runs, calls @ ..] => match (most.parse(), runs.parse(), calls) {
            (Ok(most), Ok(runs), [] | ["calls"]) => {
                scaling::pieces(file, most, runs, !calls.is_empty()).map(|v| println!("{v}"))
            }
            _ => Err(format!("usage: probe pieces FILE MOST RUNS [calls], not {most} {runs} {calls:?}")),
        },
        ["probe", "apart", file, pieces, calls @ ..] => match (pieces.parse(), calls) {
            (Ok(pieces), [] | ["calls"]) => scaling::apart(file, pieces, !calls.is_empty()).map(|v| println!("{v}")),
            _ => Err(format!("usage: probe apart FILE PIECES [calls], not {pieces} {calls:?}")),
        },
        ["probe", kind, file] => probe(kind, file).map(|v| println!("{v}")),
        ["generate", layout, records, file] => generate(layout, records, file),
        ["report", rest @ ..] => report(rest),
        ["against", rest @ ..] => against::against(rest),
        _ => Err("usage: droidflame-bench report [--quick] [--out FILE] | generate regular|streaming|v2|atrace|ctrace|perfetto|perfetto-sched|perfetto-samples|simpleperf|small|interleaved RECORDS FILE | generate deep DEPTH FILE | generate fresh STACKS FILE | \
                  generate mapping MB FILE | generate heap OBJECTS FILE | probe analyze|stream|calls|baseline|render|adversarial|heap FILE | probe mapping TRACE MAPPING | probe pieces FILE MOST RUNS | probe apart FILE PIECES [calls] | \
                  against OLD_BENCH [--label REV] [--quick] [--pairs N]"
            .into()),
    };
    if let Err(message) = result {
        eprintln!("droidflame-bench: {message}");
        std::process::exit(2);
    }
}

fn probe(kind: &str, file: &str) -> Result<Value, String> {
    let size = std::fs::metadata(file).map(|m| m.len()).unwrap_or(0);
    let runs = if size > 200 << 20 {
        1
    } else if size > 100 << 20 {
        3
    } else {
        5
    };
    match kind {
        "analyze" => probe::analyze(file, runs),
        "stream" => probe::stream(file),
        "calls" => probe::calls(file),
        "baseline" => probe::baseline(file, runs.min(3)),
        "render" => probe::render(file),
        "adversarial" => probe::adversarial(file),
        "heap" => heap_probe::heap(file, runs),
        _ => Err(format!("unknown probe {kind}")),
    }
}

fn layout_of(name: &str) -> Result<LargeLayout, String> {
    match name {
        "regular" => Ok(LargeLayout::Regular),
        "streaming" => Ok(LargeLayout::Streaming),
        "perfetto" => Ok(LargeLayout::Perfetto),
        "simpleperf" => Ok(LargeLayout::Simpleperf),
        "perfetto-samples" => Ok(LargeLayout::PerfettoSamples),
        "perfetto-sched" => Ok(LargeLayout::PerfettoSched),
        "v2" => Ok(LargeLayout::V2),
        "atrace" => Ok(LargeLayout::AtraceText),
        "ctrace" => Ok(LargeLayout::Ctrace),
        _ => Err(format!(
            "unknown layout {name}; use regular, streaming, v2, atrace, ctrace, perfetto, perfetto-sched, perfetto-samples or simpleperf"
        )),
    }
}

fn generate(layout: &str, size: &str, file: &str) -> Result<(), String> {
    let size: u64 = size.parse().map_err(|_| format!("not a number: {size}"))?;
    match layout {
        "mapping" => write_mapping_file(Path::new(file), size << 20),
        "heap" => files::write_heap_file(Path::new(file), size).map(|_| ()),
        "deep" => write_adversary(Path::new(file), Adversary::DeepChain { depth: size, methods: 1000 }).map(|_| ()),
        "fresh" => write_adversary(Path::new(file), fresh_stacks(size)).map(|_| ()),
        "small" => write_shape(Path::new(file), LargeLayout::Regular, &Shape::small_program(size)).map(|_| ()),
        "interleaved" => write_shape(Path::new(file), LargeLayout::Regular, &Shape::interleaved(size)).map(|_| ()),
        // The app-start program's second run: other paths through the same code.
        "rerun" => {
            write_shape(Path::new(file), LargeLayout::Regular, &Shape { run: 1, ..Shape::app_start(size) }).map(|_| ())
        }
        _ => write_file(Path::new(file), layout_of(layout)?, size).map(|_| ()),
    }
}

/// The worst cases for depth and for memory (README "Limits").
fn adversaries(quick: bool) -> Vec<(&'static str, Adversary)> {
    if quick {
        return vec![
            ("quick-deep-100k", Adversary::DeepChain { depth: 100_000, methods: 1000 }),
            ("quick-fresh-stacks", fresh_stacks(300_000)),
        ];
    }
    vec![
        ("deep-1M", Adversary::DeepChain { depth: 1_000_000, methods: 1000 }),
        // The most unique stacks a 4-level tree holds under the 8,388,608-stack limit.
        ("fresh-stacks-7M", fresh_stacks(8_000_000)),
    ]
}

fn adversarial_table(rows: &[Value]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "
### Adversarial inputs (native, streamed from disk)
"
    );
    let _ = writeln!(
        s,
        "`deep-*`: one stack entered to that depth and left (frames below depth 1024 merge in folded text and graphs). \
         `fresh-stacks-*`: a complete 4-level call tree walked depth first, so every call is a stack never seen before: \
         the most memory a record can cost. Peak RSS is the whole process after analysis.\n"
    );
    let _ = writeln!(s, "| case | size | records | unique stacks | max depth | analysis | peak RSS | bytes per stack | folded text | folded | one graph | summary |");
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|---|---|---|");
    for row in rows {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {:.0} | {} | {} | {} | {} |",
            row["case"].as_str().unwrap_or(""),
            fmt_mb(f(row, &["bytes"])),
            f(row, &["records"]).map_or("—".into(), |r| format!("{:.1} M", r / 1e6)),
            f(row, &["unique_stacks"]).map_or("—".into(), |r| format!("{:.2} M", r / 1e6)),
            f(row, &["max_depth"]).unwrap_or(0.0),
            fmt_s(f(row, &["analyze_s"])),
            f(row, &["peak_kib"]).map_or("—".into(), |k| format!("{:.0} MB", k * 1024.0 / 1e6)),
            f(row, &["bytes_per_stack"]).unwrap_or(0.0),
            fmt_mb(f(row, &["folded_bytes"])),
            fmt_s(f(row, &["folded_s"])),
            fmt_s(f(row, &["graph_s"])),
            fmt_s(f(row, &["summary_s"])),
        );
    }
    s
}

/// One benchmark input.
struct Case {
    name: &'static str,
    layout: LargeLayout,
    records: u64,
    /// Also measured in the browser.
    browser: bool,
    /// Small enough for the in-memory and baseline probes.
    in_memory: bool,
    /// Also compared in the browser with a second run of its program.
    compare: bool,
}

fn cases(quick: bool) -> Vec<Case> {
    if quick {
        return vec![
            Case {
                name: "quick-regular",
                layout: LargeLayout::Regular,
                records: 200_000,
                browser: true,
                in_memory: true,
                compare: true,
            },
            Case {
                name: "quick-streaming",
                layout: LargeLayout::Streaming,
                records: 200_000,
                browser: false,
                in_memory: true,
                compare: false,
            },
            Case {
                name: "quick-perfetto",
                layout: LargeLayout::Perfetto,
                records: 200_000,
                browser: false,
                in_memory: true,
                compare: false,
            },
            Case {
                name: "quick-simpleperf",
                layout: LargeLayout::Simpleperf,
                records: 100_000,
                browser: false,
                in_memory: true,
                compare: false,
            },
        ];
    }
    vec![
        Case {
            name: "app-start-4M",
            layout: LargeLayout::Regular,
            records: 4_000_000,
            browser: true,
            in_memory: true,
            compare: true,
        },
        Case {
            name: "long-20M",
            layout: LargeLayout::Regular,
            records: 20_000_000,
            browser: false,
            in_memory: true,
            compare: false,
        },
        // A 500 MB Perfetto system trace of atrace markers (about 47 bytes a record).
        Case {
            name: "perfetto-500MB",
            layout: LargeLayout::Perfetto,
            records: 10_700_000,
            browser: true,
            in_memory: true,
            compare: false,
        },
        // A 500 MB Perfetto jank capture: markers, the threads' scheduling around half of
        // them, the app's frames on the frame timeline.
        Case {
            name: "perfetto-sched-500MB",
            layout: LargeLayout::PerfettoSched,
            records: 5_000_000,
            browser: true,
            in_memory: true,
            compare: false,
        },
        // A long Callstack Sample recording: 2 million samples of stacks up to 48 deep
        // (about 200 bytes a sample).
        Case {
            name: "simpleperf-2M",
            layout: LargeLayout::Simpleperf,
            records: 2_000_000,
            browser: true,
            in_memory: true,
            compare: false,
        },
        // A traced_perf recording: 1 million CPU samples of stacks up to 48 deep.
        Case {
            name: "perfetto-samples-1M",
            layout: LargeLayout::PerfettoSamples,
            records: 1_000_000,
            browser: true,
            in_memory: true,
            compare: false,
        },
        // 2 GiB of 14-byte records and their packets.
        Case {
            name: "streaming-2GB",
            layout: LargeLayout::Streaming,
            records: 153_000_000,
            browser: true,
            in_memory: false,
            compare: false,
        },
    ]
}

/// The heap dump's row: its class table from disk as `droidflame heap classes` makes it,
/// with the process's peak memory, and the steps in memory.
fn heap_table(row: &Value) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "\n### Heap dumps (native)\n");
    let _ = writeln!(
        s,
        "A HotSpot-style dump (8-byte ids) written by the testkit: classes in a hierarchy, registries in statics, \
         trees of instances, arrays and byte buffers with one reference in twenty across trees. `class table \
         from disk`: read in 1 MiB pieces, the graph analysed (reachability, dominators, retained sizes) and the \
         class table made, as `droidflame heap classes` does; peak RSS is the whole process's. `analysis` and \
         `class table`: the two steps on the dump in memory, median of 3.\n"
    );
    let _ = writeln!(
        s,
        "| size | objects reachable | classes | class table from disk | peak RSS | analysis | class table |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|");
    let _ = writeln!(
        s,
        "| {} | {} | {} | {} | {} | {} | {} |",
        fmt_mb(f(row, &["bytes"])),
        f(row, &["objects"]).map_or("—".into(), |r| format!("{:.2} M", r / 1e6)),
        f(row, &["classes"]).unwrap_or(0.0),
        fmt_s(f(row, &["stream_s"])),
        f(row, &["peak_kib"]).map_or("—".into(), |k| format!("{:.0} MB", k * 1024.0 / 1e6)),
        fmt_s(f(row, &["analyze_s"])),
        fmt_s(f(row, &["classes_s"])),
    );
    s
}

fn report(args: &[&str]) -> Result<(), String> {
    let quick = args.contains(&"--quick");
    let out = match args.iter().position(|a| *a == "--out") {
        Some(i) => PathBuf::from(args.get(i + 1).ok_or("--out takes a file")?),
        None if quick => root().join("target/bench/BENCHMARKS-quick.md"),
        None => root().join("BENCHMARKS.md"),
    };
    let dir = root().join("target/bench");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let me = std::env::current_exe().map_err(|e| e.to_string())?;
    let me = me.to_str().ok_or("the bench binary's path is not UTF-8")?;
    let mut rows = Vec::new();
    for case in cases(quick) {
        let path = dir.join(format!("{}.trace", case.name));
        if !path.exists() {
            eprintln!("bench: generating {} ({} records)", path.display(), case.records);
            let tmp = path.with_extension("partial");
            write_file(&tmp, case.layout, case.records)?;
            std::fs::rename(&tmp, &path).map_err(|e| e.to_string())?;
        }
        let file = path.to_str().ok_or("path is not UTF-8")?;
        // Read it once first: every probe then reads from the page cache, none from disk.
        let mut warm = std::fs::File::open(&path).map_err(|e| e.to_string())?;
        std::io::copy(&mut warm, &mut std::io::sink()).map_err(|e| e.to_string())?;
        let mut row = serde_json::Map::new();
        row.insert("case".into(), case.name.into());
        row.insert("layout".into(), format!("{:?}", case.layout).into());
        row.insert("stream".into(), child(me, &["probe", "stream", file])?);
        if case.in_memory {
            row.insert("analyze".into(), child(me, &["probe", "analyze", file])?);
            if case.layout == LargeLayout::Regular {
                row.insert("baseline".into(), child(me, &["probe", "baseline", file])?);
            }
            row.insert("render".into(), child(me, &["probe", "render", file])?);
            row.insert("calls".into(), child(me, &["probe", "calls", file])?);
        }
        let wasm = root().join("crates/droidflame-bench/wasm-node.mjs");
        row.insert("wasm".into(), child("node", &[wasm.to_str().unwrap_or_default(), file])?);
        if case.browser {
            let browser = root().join("crates/droidflame-bench/browser.mjs");
            row.insert("browser".into(), child("node", &[browser.to_str().unwrap_or_default(), file])?);
        }
        if case.compare {
            row.insert("tree".into(), tree_runs::runs(file)?);
            row.insert("compare".into(), compare_in_browser(&dir, &case, file)?);
            row.insert("mapping".into(), mapping_runs(&dir, me, quick, file)?);
        }
        rows.push(Value::Object(row));
    }
    let mut hostile = Vec::new();
    for (name, adversary) in adversaries(quick) {
        let path = dir.join(format!("{name}.trace"));
        if !path.exists() {
            eprintln!("bench: generating {} ({adversary:?})", path.display());
            let tmp = path.with_extension("partial");
            write_adversary(&tmp, adversary)?;
            std::fs::rename(&tmp, &path).map_err(|e| e.to_string())?;
        }
        let file = path.to_str().ok_or("path is not UTF-8")?;
        let mut row = child(me, &["probe", "adversarial", file])?;
        row["case"] = name.into();
        row["bytes"] = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0).into();
        hostile.push(row);
    }
    let objects = if quick { 160_000 } else { 1_600_000 };
    let dump = dir.join(format!("heap-{objects}.hprof"));
    if !dump.exists() {
        eprintln!("bench: generating {} ({objects} objects)", dump.display());
        let tmp = dump.with_extension("partial");
        files::write_heap_file(&tmp, objects)?;
        std::fs::rename(&tmp, &dump).map_err(|e| e.to_string())?;
    }
    let heap = child(me, &["probe", "heap", dump.to_str().ok_or("path is not UTF-8")?])?;
    let mut text = markdown(&rows, quick);
    text.push_str(&adversarial_table(&hostile));
    text.push_str(&heap_table(&heap));
    let document = merge(&std::fs::read_to_string(&out).unwrap_or_default(), &text);
    std::fs::write(&out, document).map_err(|e| format!("{}: {e}", out.display()))?;
    println!("{text}");
    eprintln!("bench: wrote {}", out.display());
    Ok(())
}

/// A mapping of a large app (100 MB; 10 MB for `--quick`) applied to the app-start
/// program's trace: natively (the probe's median of 5), and in the browser (median of 3).
fn mapping_runs(dir: &Path, me: &str, quick: bool, trace: &str) -> Result<Value, String> {
    let mb = if quick { 10 } else { 100 };
    let path = dir.join(format!("app-start-mapping-{mb}MB.txt"));
    if !path.exists() {
        eprintln!("bench: generating {}", path.display());
        let tmp = path.with_extension("partial");
        write_mapping_file(&tmp, mb << 20)?;
        std::fs::rename(&tmp, &path).map_err(|e| e.to_string())?;
    }
    let mapping = path.to_str().ok_or("path is not UTF-8")?;
    let native = child(me, &["probe", "mapping", trace, mapping])?;
    let script = root().join("crates/droidflame-bench/browser-mapping.mjs");
    let mut runs: Vec<Value> = Vec::new();
    for _ in 0..COMPARE_RUNS {
        runs.push(child("node", &[script.to_str().unwrap_or_default(), trace, mapping])?);
    }
    let (min, max) = spread(&runs, "mapping_ms");
    Ok(serde_json::json!({
        "megabytes": mb,
        "native": native,
        "browser_ms": median(&runs, "mapping_ms"),
        "browser_min_ms": min,
        "browser_max_ms": max,
        "browser_runs": runs.len(),
        "renamed": runs.iter().all(|r| r["renamed"] == true),
        "longest_task_ms": spread(&runs, "longest_task_ms").1,
    }))
}

/// `case`'s trace compared in the browser with a second run of its program (other paths
/// through the same code, the same length): the median of alternating runs, each against
/// one trace opened alone.
fn compare_in_browser(dir: &Path, case: &Case, file: &str) -> Result<Value, String> {
    let rerun = dir.join(format!("{}-rerun.trace", case.name));
    if !rerun.exists() {
        eprintln!("bench: generating {} (a second run)", rerun.display());
        let tmp = rerun.with_extension("partial");
        write_shape(&tmp, case.layout, &Shape { run: 1, ..Shape::app_start(case.records) })?;
        std::fs::rename(&tmp, &rerun).map_err(|e| e.to_string())?;
    }
    let rerun = rerun.to_str().ok_or("path is not UTF-8")?;
    let both = root().join("crates/droidflame-bench/browser-compare.mjs");
    let one = root().join("crates/droidflame-bench/browser.mjs");
    let (mut compared, mut alone) = (Vec::new(), Vec::new());
    for _ in 0..COMPARE_RUNS {
        compared.push(child("node", &[both.to_str().unwrap_or_default(), file, rerun])?);
        alone.push(child("node", &[one.to_str().unwrap_or_default(), file])?);
    }
    let (min, max) = spread(&compared, "compare_ms");
    Ok(serde_json::json!({
        "runs": COMPARE_RUNS,
        "compare_ms": median(&compared, "compare_ms"),
        "compare_min_ms": min,
        "compare_max_ms": max,
        "alone_ms": median(&alone, "first_graph_ms"),
        "longest_task_ms": spread(&compared, "longest_task_ms").1,
        "wasm_bytes": median(&compared, "wasm_bytes"),
        "alone_wasm_bytes": median(&alone, "wasm_bytes"),
        "error": compared.iter().find_map(|r| r["error"].as_str().filter(|e| !e.is_empty())),
    }))
}

const START: &str = "<!-- bench:start (written by cargo xtask bench) -->";
const END: &str = "<!-- bench:end -->";

/// Puts the measured tables between the markers of an existing file, keeping what people
/// wrote around them (the profile findings); a new file gets just the tables.
fn merge(existing: &str, tables: &str) -> String {
    match (existing.find(START), existing.find(END)) {
        (Some(a), Some(b)) if a < b => {
            format!("{}{START}\n{tables}{}", &existing[..a], &existing[b..])
        }
        _ => format!("{START}\n{tables}{END}\n"),
    }
}

fn fmt_s(seconds: Option<f64>) -> String {
    match seconds {
        Some(s) if s < 1.0 => format!("{:.1} ms", s * 1000.0),
        Some(s) => format!("{s:.2} s"),
        None => "—".into(),
    }
}

fn fmt_rate(records: Option<f64>, seconds: Option<f64>) -> String {
    match (records, seconds) {
        (Some(r), Some(s)) if s > 0.0 => format!("{:.1} M/s", r / s / 1e6),
        _ => "—".into(),
    }
}

fn fmt_mb(bytes: Option<f64>) -> String {
    bytes.map_or("—".into(), |b| format!("{:.0} MB", b / 1e6))
}

fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|c| {
            c.lines()
                .find_map(|l| l.strip_prefix("model name"))
                .map(|v| v.trim_start_matches([' ', '\t', ':']).to_owned())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let memory = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| m.lines().find_map(|l| l.strip_prefix("MemTotal:")).map(|v| v.trim().to_owned()))
        .unwrap_or_default();
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let version = |p: &str, a: &str| {
        Command::new(p)
            .arg(a)
            .output()
            .ok()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
            .unwrap_or_default()
    };
    format!(
        "{cpu}, {cores} cores, {memory} RAM; {}; node {}; {}",
        version("rustc", "--version"),
        version("node", "--version"),
        version("chromium", "--version")
    )
}

fn markdown(rows: &[Value], quick: bool) -> String {
    let mut s = String::new();
    let title =
        if quick { "# Benchmarks (quick mode: small sizes, to keep the suite working)" } else { "## Latest run" };
    let _ = writeln!(s, "{title}\n");
    let _ = writeln!(s, "Written by `cargo xtask bench{}` on {}.\n", if quick { " --quick" } else { "" }, machine());
    let _ = writeln!(
        s,
        "Inputs are generated (`droidflame-testkit::large`): {} threads, {} methods, a fixed program of call sites walked \
         again and again, stacks up to {} deep, records in per-thread chunks of {}, dual clock (14-byte records). Each input \
         is read once before measuring, so every probe reads from the page cache. Native analysis runs on one core; times \
         on this shared 2-core machine vary by about 10% from run to run.\n",
        Shape::app_start(0).threads,
        Shape::app_start(0).methods,
        Shape::app_start(0).max_depth,
        Shape::app_start(0).chunk
    );
    let _ = writeln!(s, "### Native analysis (bytes → profile)\n");
    let _ = writeln!(s, "| case | size | records | in memory | throughput | MB/s | streamed from disk | peak RSS (streamed) | summary JSON | baseline parse | ratio |");
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|---|---|");
    for row in rows {
        let records = f(row, &["stream", "records"]);
        let bytes = f(row, &["stream", "bytes"]);
        let analyze = f(row, &["analyze", "analyze_s"]);
        let baseline = f(row, &["baseline", "parse_s"]);
        let ratio = match (analyze, baseline) {
            (Some(a), Some(b)) => format!("{:.1}x faster", b / a),
            _ => "—".into(),
        };
        let mbs = match (bytes, analyze) {
            (Some(b), Some(a)) => format!("{:.0}", b / a / 1e6),
            _ => "—".into(),
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            row["case"].as_str().unwrap_or(""),
            fmt_mb(bytes),
            records.map_or("—".into(), |r| format!("{:.1} M", r / 1e6)),
            fmt_s(analyze),
            fmt_rate(records, analyze),
            mbs,
            fmt_s(f(row, &["stream", "stream_s"])),
            f(row, &["stream", "peak_kib"]).map_or("—".into(), |k| format!("{:.0} MB", k * 1024.0 / 1e6)),
            fmt_s(f(row, &["analyze", "summary_s"])),
            fmt_s(baseline),
            ratio
        );
    }
    let _ = writeln!(
        s,
        "\nBaseline: `android_trace_log` 0.3.0 `parse()` of the same bytes (it reads regular files only).\n"
    );
    let _ = writeln!(s, "### The same core in wasm (Node, streamed from disk)\n");
    let _ = writeln!(s, "| case | time | throughput | vs native streamed | wasm heap |");
    let _ = writeln!(s, "|---|---|---|---|---|");
    for row in rows {
        let records = f(row, &["stream", "records"]);
        let wasm = f(row, &["wasm", "analyze_s"]);
        let native = f(row, &["stream", "stream_s"]);
        let share = match (wasm, native) {
            (Some(w), Some(n)) => format!("{:.0}% of native", n / w * 100.0),
            _ => "—".into(),
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} |",
            row["case"].as_str().unwrap_or(""),
            fmt_s(wasm),
            fmt_rate(records, wasm),
            share,
            fmt_mb(f(row, &["wasm", "wasm_bytes"]))
        );
    }
    let _ = writeln!(s, "\n### Rendering (every per-thread SVG, native)\n");
    let _ = writeln!(s, "| case | SVGs | time | SVG bytes |");
    let _ = writeln!(s, "|---|---|---|---|");
    for row in rows.iter().filter(|r| r.get("render").is_some()) {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} |",
            row["case"].as_str().unwrap_or(""),
            f(row, &["render", "svgs"]).unwrap_or(0.0),
            fmt_s(f(row, &["render", "render_s"])),
            fmt_mb(f(row, &["render", "svg_bytes"]))
        );
    }
    let _ = writeln!(s, "\n### Every call kept (`Options::keep_calls`: calls listing, export, timeline)\n");
    let _ = writeln!(
        s,
        "| case | calls | analysis | with calls | share of throughput | peak RSS with calls (streamed) | listing (`calls`) | Chrome export |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|");
    for row in rows.iter().filter(|r| r.get("calls").is_some()) {
        let plain = f(row, &["analyze", "analyze_s"]);
        let kept = f(row, &["analyze", "analyze_calls_s"]);
        let share = match (plain, kept) {
            (Some(p), Some(k)) if k > 0.0 => format!("{:.0}%", p / k * 100.0),
            _ => "—".into(),
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} ({}) | {} ({}) |",
            row["case"].as_str().unwrap_or(""),
            f(row, &["calls", "calls"]).map_or("—".into(), |c| format!("{:.1} M", c / 1e6)),
            fmt_s(plain),
            fmt_s(kept),
            share,
            f(row, &["calls", "peak_kib"]).map_or("—".into(), |k| format!("{:.0} MB", k * 1024.0 / 1e6)),
            fmt_s(f(row, &["calls", "listing_s"])),
            fmt_mb(f(row, &["calls", "listing_bytes"])),
            fmt_s(f(row, &["calls", "chrome_s"])),
            fmt_mb(f(row, &["calls", "chrome_bytes"]))
        );
    }
    let _ = writeln!(
        s,
        "\nAnalysis times are medians of runs alternating without and with calls, in one process on the bytes in memory.\n"
    );
    let _ = writeln!(s, "\n### Headless Chromium (hosted build, file picked, worker parses)\n");
    let _ = writeln!(s, "| case | completed | open to first flame graph | longest main-thread task | peak JS heap (page) | wasm heap (worker) |");
    let _ = writeln!(s, "|---|---|---|---|---|---|");
    for row in rows.iter().filter(|r| r.get("browser").is_some()) {
        let b = &row["browser"];
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} |",
            row["case"].as_str().unwrap_or(""),
            b["state"].as_str().unwrap_or("?"),
            fmt_s(f(b, &["first_graph_ms"]).map(|ms| ms / 1000.0)),
            fmt_s(f(b, &["longest_task_ms"]).map(|ms| ms / 1000.0)),
            fmt_mb(f(b, &["peak_js_heap"])),
            fmt_mb(f(b, &["wasm_bytes"]))
        );
    }
    s.push_str(&tree_runs::table(rows));
    let _ = writeln!(s, "\n### Two traces compared in headless Chromium (hosted build, both picked at once)\n");
    let _ = writeln!(
        s,
        "| case | pick to differential graph (median of {COMPARE_RUNS}, min–max) | one trace alone (median) | longest main-thread task | wasm heap, both and the comparison | wasm heap, one trace |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|");
    for row in rows.iter().filter(|r| r.get("compare").is_some()) {
        let c = &row["compare"];
        let secs = |key: &str| fmt_s(f(c, &[key]).map(|ms| ms / 1000.0));
        let _ = writeln!(
            s,
            "| {} + its rerun | {} ({}–{}) | {} | {} | {} | {} |",
            row["case"].as_str().unwrap_or(""),
            secs("compare_ms"),
            secs("compare_min_ms"),
            secs("compare_max_ms"),
            secs("alone_ms"),
            secs("longest_task_ms"),
            fmt_mb(f(c, &["wasm_bytes"])),
            fmt_mb(f(c, &["alone_wasm_bytes"]))
        );
    }
    let _ = writeln!(
        s,
        "\n### A mapping of a large app applied (native: read from the page cache in 1 MiB chunks and applied, median of \
         5; Chromium: \"Apply mapping…\" to the graph drawn again, median of {COMPARE_RUNS})\n"
    );
    let _ = writeln!(s, "| trace | mapping | classes / methods renamed | native (min–max) | Chromium (min–max) | longest main-thread task |");
    let _ = writeln!(s, "|---|---|---|---|---|---|");
    for row in rows.iter().filter(|r| r.get("mapping").is_some()) {
        let m = &row["mapping"];
        let ms = |key: &str| fmt_s(f(m, &[key]).map(|ms| ms / 1000.0));
        let _ = writeln!(
            s,
            "| {} | {} MB{} | {} / {} | {} ({}–{}) | {} ({}–{}) | {} |",
            row["case"].as_str().unwrap_or(""),
            m["megabytes"],
            if m["renamed"] == true { "" } else { " (graph NOT renamed)" },
            m["native"]["classes_mapped"],
            m["native"]["methods_mapped"],
            fmt_s(f(m, &["native", "mapping_s"])),
            fmt_s(f(m, &["native", "min_s"])),
            fmt_s(f(m, &["native", "max_s"])),
            ms("browser_ms"),
            ms("browser_min_ms"),
            ms("browser_max_ms"),
            ms("longest_task_ms"),
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_replace_only_their_region() {
        let fresh = merge("", "T1\n");
        assert_eq!(fresh, format!("{START}\nT1\n{END}\n"));
        let notes = format!("# Notes\n{fresh}more notes\n");
        assert_eq!(merge(&notes, "T2\n"), format!("# Notes\n{START}\nT2\n{END}\nmore notes\n"));
    }
}
