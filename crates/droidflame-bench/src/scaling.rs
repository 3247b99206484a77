//! Reading on every core: one input analysed in 1, 2, ... pieces, the counts alternating
//! round by round so that the machine's drift hits each alike, with each reading's
//! summary checked against reading once.

use droidflame_core::products::summary_json;
use droidflame_core::{analyze_in_pieces, Options};
use serde_json::json;
use std::time::Instant;

/// Medians of `runs` rounds of reading `path` (in memory) in 1 to `most` pieces, with
/// every call kept where `keep_calls`.
pub fn pieces(path: &str, most: usize, runs: usize, keep_calls: bool) -> Result<serde_json::Value, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let mut times = vec![Vec::new(); most];
    let mut used = vec![0; most];
    let mut once = None;
    for _ in 0..runs {
        for n in 1..=most {
            let start = Instant::now();
            let (analysis, read) = analyze_in_pieces(&bytes, Options { keep_calls, ..Options::default() }, n)
                .map_err(|e| e.to_string())?;
            times[n - 1].push(start.elapsed().as_secs_f64());
            used[n - 1] = read;
            let summary = summary_json(&analysis);
            match &once {
                None => once = Some(summary),
                Some(want) if *want != summary => return Err(format!("{path} read in {n} pieces differs")),
                Some(_) => {}
            }
        }
    }
    let medians: Vec<f64> = times
        .iter_mut()
        .map(|t| {
            t.sort_by(f64::total_cmp);
            t[t.len() / 2]
        })
        .collect();
    let rows: Vec<_> = (0..most)
        .map(|i| json!({ "pieces": i + 1, "read_in": used[i], "median_s": medians[i], "speedup": medians[0] / medians[i], "all_s": times[i] }))
        .collect();
    Ok(json!({ "bytes": bytes.len(), "cores": droidflame_core::cores(), "rows": rows }))
}
