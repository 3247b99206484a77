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

/// Reading `path` (in memory) in `pieces` pieces apart, as the page's workers do, one
/// stage at a time: each later piece read and made bytes, the bytes taken back, the first
/// piece read, the join. Seconds for each, and the bytes each piece sends.
pub fn apart(path: &str, pieces: usize, keep_calls: bool) -> Result<serde_json::Value, String> {
    use droidflame_core::Pieces;
    use std::time::Instant;
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let options = Options { keep_calls, ..Options::default() };
    let source: &[u8] = &bytes;
    let clock = Instant::now();
    let mut joined = Pieces::cut(&source, options.clone(), pieces).ok_or("the file is read once")?;
    let cut_s = clock.elapsed().as_secs_f64();
    let mut later = Vec::new();
    for at in 1..joined.count() {
        let clock = Instant::now();
        let elsewhere = Pieces::cut(&source, options.clone(), pieces).ok_or("cut differs")?;
        let mut reader = elsewhere.reader(at).map_err(|e| e.to_string())?;
        while !reader.step(&source, u64::MAX).map_err(|e| e.to_string())? {}
        let read_s = clock.elapsed().as_secs_f64();
        let clock = Instant::now();
        let sent = elsewhere.to_bytes(reader).map_err(|e| e.to_string())?.ok_or("not joinable")?;
        let encode_s = clock.elapsed().as_secs_f64();
        let clock = Instant::now();
        joined.add_bytes(at, &sent).map_err(|e| e.to_string())?;
        let decode_s = clock.elapsed().as_secs_f64();
        later.push(json!({ "at": at, "read_s": read_s, "to_bytes_s": encode_s, "from_bytes_s": decode_s, "bytes": sent.len() }));
    }
    let clock = Instant::now();
    let mut first = joined.reader(0).map_err(|e| e.to_string())?;
    while !first.step(&source, u64::MAX).map_err(|e| e.to_string())? {}
    joined.add(first).map_err(|e| e.to_string())?;
    let first_s = clock.elapsed().as_secs_f64();
    let clock = Instant::now();
    joined.join(&source).map_err(|e| e.to_string())?.ok_or("the join declined")?;
    let join_s = clock.elapsed().as_secs_f64();
    Ok(json!({ "cut_s": cut_s, "first_s": first_s, "later": later, "join_and_finish_s": join_s }))
}
