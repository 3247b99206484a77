//! The single measurements. Each runs in a fresh child process (`droidflame-bench probe
//! ...`) so its peak memory is its own, and prints one JSON line.

use droidflame_core::products::{self, CallQuery, FlameOptions, GraphScope};
use droidflame_core::{Analyzer, Options};
use serde_json::json;
use std::io::Read;
use std::time::{Duration, Instant};

const CHUNK: usize = 1 << 20;

/// Peak resident memory of this process so far, in KiB (Linux).
pub(crate) fn peak_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

fn median(mut times: Vec<Duration>) -> f64 {
    times.sort();
    times[times.len() / 2].as_secs_f64()
}

/// Analysis of a file already in memory, fed in 1 MiB chunks: median of `runs`, and the
/// same with every call kept (the timeline's bookkeeping), the two alternating so that the
/// machine's drift hits both alike.
pub fn analyze(path: &str, runs: usize) -> Result<serde_json::Value, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let mut times = Vec::new();
    let mut calls_times = Vec::new();
    let mut summary_times = Vec::new();
    let mut records = 0;
    let mut threads = 0;
    let mut nodes = 0;
    let mut calls = 0;
    for _ in 0..runs {
        for keep_calls in [false, true] {
            let start = Instant::now();
            let mut analyzer = Analyzer::new(Options { keep_calls, ..Options::default() });
            for chunk in bytes.chunks(CHUNK) {
                analyzer.push(chunk).map_err(|e| e.to_string())?;
            }
            let profile = analyzer.finish().map_err(|e| e.to_string())?;
            if keep_calls {
                calls_times.push(start.elapsed());
                calls = profile.profile.stacks().threads.iter().map(|t| t.calls.len()).sum::<usize>();
                continue;
            }
            times.push(start.elapsed());
            let start = Instant::now();
            let summary = products::summary_json(&profile);
            summary_times.push(start.elapsed());
            assert!(!summary.is_empty());
            records = profile.profile.facts.records;
            threads = profile.profile.stacks().threads.len();
            nodes = profile.profile.stacks().threads.iter().map(|t| t.tree.len()).sum::<usize>();
        }
    }
    Ok(json!({
        "bytes": bytes.len(), "records": records, "threads": threads, "nodes": nodes,
        "analyze_s": median(times), "summary_s": median(summary_times),
        "analyze_calls_s": median(calls_times), "calls": calls,
    }))
}

/// The profile of a file read in 1 MiB pieces, and the bytes read.
fn analyze_file(path: &str, options: Options) -> Result<(droidflame_core::Analysis, u64), String> {
    let mut file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let mut buffer = vec![0u8; CHUNK];
    let mut analyzer = Analyzer::new(options);
    let mut bytes = 0u64;
    loop {
        let n = file.read(&mut buffer).map_err(|e| e.to_string())?;
        if n == 0 {
            break;
        }
        bytes += n as u64;
        analyzer.push(&buffer[..n]).map_err(|e| e.to_string())?;
    }
    Ok((analyzer.finish().map_err(|e| e.to_string())?, bytes))
}

/// Analysis streamed from disk in 1 MiB reads: time and peak memory of the whole process.
pub fn stream(path: &str) -> Result<serde_json::Value, String> {
    let start = Instant::now();
    let (profile, bytes) = analyze_file(path, Options::default())?;
    let analyze = start.elapsed().as_secs_f64();
    let summary = products::summary_json(&profile);
    Ok(json!({
        "bytes": bytes, "records": profile.profile.facts.records, "stream_s": analyze, "summary_bytes": summary.len(),
        "peak_kib": peak_kib(),
    }))
}

/// Analysis streamed from disk with every call kept: time and peak memory, then the calls
/// listing and the Chrome trace-event export, each written to nowhere. Every call, however
/// many, as the command line keeps them for these products.
pub fn calls(path: &str) -> Result<serde_json::Value, String> {
    let start = Instant::now();
    let (profile, bytes) = analyze_file(path, Options { keep_calls: true, max_calls: u64::MAX, ..Options::default() })?;
    let analyze = start.elapsed().as_secs_f64();
    let peak = peak_kib();
    let calls = profile.profile.stacks().threads.iter().map(|t| t.calls.len()).sum::<usize>();
    let start = Instant::now();
    let mut listing = CountingSink(0);
    products::write_calls(&profile.profile, &CallQuery::default(), &mut listing).map_err(|e| e.to_string())?;
    let listing_s = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let mut chrome = CountingSink(0);
    products::write_chrome_trace(&profile.profile, &products::View::default(), &mut chrome)
        .map_err(|e| e.to_string())?;
    let chrome_s = start.elapsed().as_secs_f64();
    Ok(json!({
        "bytes": bytes, "calls": calls, "stream_s": analyze, "peak_kib": peak,
        "listing_s": listing_s, "listing_bytes": listing.0, "chrome_s": chrome_s, "chrome_bytes": chrome.0,
    }))
}

/// The baseline reader on the same bytes: median of `runs` parses.
pub fn baseline(path: &str, runs: usize) -> Result<serde_json::Value, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let mut times = Vec::new();
    let mut events = 0;
    for _ in 0..runs {
        let start = Instant::now();
        let log = android_trace_log::parse(&bytes).map_err(|_| "android_trace_log could not parse it".to_string())?;
        times.push(start.elapsed());
        events = log.events.len();
    }
    Ok(json!({ "events": events, "parse_s": median(times), "peak_kib": peak_kib() }))
}

/// Every per-thread flame-graph SVG of the file, rendered once.
pub fn render(path: &str) -> Result<serde_json::Value, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let profile = droidflame_core::analyze(&bytes).map_err(|e| e.to_string())?;
    let start = Instant::now();
    let mut svg_bytes = 0;
    for index in 0..profile.profile.stacks().threads.len() {
        let svg = products::flame_svg(&profile.profile, GraphScope::Thread(index), &FlameOptions::default())
            .map_err(|e| e.to_string())?;
        svg_bytes += svg.len();
    }
    Ok(
        json!({ "svgs": profile.profile.stacks().threads.len(), "render_s": start.elapsed().as_secs_f64(), "svg_bytes": svg_bytes }),
    )
}

/// An adversarial input streamed from disk: analysis time and peak memory, then the
/// products that grow with stack depth or count (folded text, every graph, summary).
pub fn adversarial(path: &str) -> Result<serde_json::Value, String> {
    let start = Instant::now();
    let (profile, _) = analyze_file(path, Options::default())?;
    let analyze_s = start.elapsed().as_secs_f64();
    let peak = peak_kib();
    let nodes = profile.profile.stacks().threads.iter().map(|t| t.tree.len() as u64 - 1).sum::<u64>();
    let start = Instant::now();
    let mut folded = CountingSink(0);
    products::write_folded(&profile.profile, &Default::default(), &mut folded).map_err(|e| e.to_string())?;
    let folded_s = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let svg = products::flame_svg(&profile.profile, GraphScope::Thread(0), &FlameOptions::default())
        .map_err(|e| e.to_string())?;
    let graph_s = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let summary = products::summary_json(&profile);
    let summary_s = start.elapsed().as_secs_f64();
    Ok(json!({
        "records": profile.profile.facts.records, "unique_stacks": nodes,
        "max_depth": profile.profile.stacks().threads.iter().map(|t| t.tree.max_depth()).max().unwrap_or(0),
        "analyze_s": analyze_s, "peak_kib": peak, "bytes_per_stack": peak as f64 * 1024.0 / nodes.max(1) as f64,
        "folded_s": folded_s, "folded_bytes": folded.0, "graph_s": graph_s, "svg_bytes": svg.len(),
        "summary_s": summary_s, "summary_bytes": summary.len(),
        "peak_kib_after_products": peak_kib(),
    }))
}

struct CountingSink(u64);

impl std::io::Write for CountingSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A mapping file read from disk (page cache) in 1 MiB chunks, keeping what the trace's
/// profile needs, and applied to it: median of `runs`, and the process's peak memory
/// over the trace's own.
pub fn mapping(trace: &str, mapping: &str, runs: usize) -> Result<serde_json::Value, String> {
    let profile = droidflame_core::analyze(&std::fs::read(trace).map_err(|e| format!("{trace}: {e}"))?)
        .map_err(|e| e.to_string())?;
    let before = peak_kib();
    let mut times = Vec::new();
    let mut report = None;
    let mut buf = vec![0u8; CHUNK];
    for _ in 0..runs {
        let mut renamed = profile.clone();
        let start = Instant::now();
        let mut reader = droidflame_core::mapping::MappingReader::new(&[&renamed.profile]);
        let mut file = std::fs::File::open(mapping).map_err(|e| format!("{mapping}: {e}"))?;
        loop {
            let n = file.read(&mut buf).map_err(|e| e.to_string())?;
            if n == 0 {
                break;
            }
            reader.push(&buf[..n]).map_err(|e| e.to_string())?;
        }
        let read = reader.finish().map_err(|e| e.to_string())?;
        report = Some(renamed.deobfuscate(&read).clone());
        times.push(start.elapsed());
    }
    let report = report.ok_or("no run")?;
    Ok(json!({
        "mapping_s": median(times.clone()),
        "min_s": times.iter().min().map(Duration::as_secs_f64),
        "max_s": times.iter().max().map(Duration::as_secs_f64),
        "runs": runs,
        "bytes": std::fs::metadata(mapping).map(|m| m.len()).unwrap_or(0),
        "classes_mapped": report.classes.mapped,
        "methods_mapped": report.methods.mapped,
        "methods_ambiguous": report.methods.ambiguous,
        "extra_peak_mb": peak_kib().saturating_sub(before) as f64 / 1024.0,
    }))
}
