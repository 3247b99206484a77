//! The heap-dump measurements: a dump streamed from disk and its class table made, as
//! `droidflame heap classes` does, with the process's peak memory; and the same in memory,
//! the median of several runs, each step timed apart.

use droidflame_core::products;
use droidflame_core::{Analyzer, Options};
use serde_json::json;
use std::io::Read;
use std::time::Instant;

const CHUNK: usize = 1 << 20;

/// The dump at `path` read `runs` times from memory: medians of the analysis (reading and
/// the graph's analysis: reachability, dominators, retained sizes) and of the class table;
/// then once streamed from disk, as the CLI reads it, with the peak memory of that alone
/// when it runs first.
pub fn heap(path: &str, runs: usize) -> Result<serde_json::Value, String> {
    let start = Instant::now();
    let mut file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let mut buffer = vec![0u8; CHUNK];
    let mut analyzer = Analyzer::new(Options::default());
    loop {
        let n = file.read(&mut buffer).map_err(|e| e.to_string())?;
        if n == 0 {
            break;
        }
        analyzer.push(&buffer[..n]).map_err(|e| e.to_string())?;
    }
    let analysis = analyzer.finish().map_err(|e| e.to_string())?;
    let classes = products::heap_classes(&analysis.profile, None).map_err(|e| e.to_string())?;
    let stream_s = start.elapsed().as_secs_f64();
    let peak = crate::probe::peak_kib();
    let summary = products::summary_json(&analysis);
    let dump = serde_json::from_str::<serde_json::Value>(&summary).map_err(|e| e.to_string())?["heap_dump"].clone();
    drop(analysis);
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let (mut analyze, mut table) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        let start = Instant::now();
        let mut analyzer = Analyzer::new(Options::default());
        bytes.chunks(CHUNK).try_for_each(|c| analyzer.push(c)).map_err(|e| e.to_string())?;
        let analysis = analyzer.finish().map_err(|e| e.to_string())?;
        analyze.push(start.elapsed().as_secs_f64());
        let start = Instant::now();
        let rows = products::heap_classes(&analysis.profile, None).map_err(|e| e.to_string())?;
        table.push(start.elapsed().as_secs_f64());
        assert_eq!(rows.len(), classes.len());
    }
    Ok(json!({
        "bytes": bytes.len(), "objects": dump["objects"], "reachable_bytes": dump["bytes"], "classes": classes.len(),
        "stream_s": stream_s, "peak_kib": peak, "analyze_s": median(analyze), "classes_s": median(table),
    }))
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}
