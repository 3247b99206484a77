//! `droidflame frames`: the frames apps produced, one per line, tab-separated:
//! `pid layer token start_us dur_us expected_dur_us jank present`, start in µs from the
//! start of the trace's timeline. A frame the trace never ends has no duration.

use crate::profile::Profile;
use crate::{Error, ErrorKind, Result};
use std::io::Write;

/// Which frames to list.
#[derive(Debug, Clone, Default)]
pub struct FramesQuery {
    /// Only this process's.
    pub pid: Option<u32>,
    /// Only janky ones.
    pub jank_only: bool,
}

/// Writes the frames `query` asks for, in start order.
pub fn write_frames(profile: &Profile, query: &FramesQuery, out: &mut dyn Write) -> Result<()> {
    if profile.app_frames.is_empty() {
        return Err(Error::new(
            ErrorKind::Request,
            "this trace has no frame timeline (Perfetto's frametimeline data source, Android 12 and later, records \
             each app frame and its jank)",
        ));
    }
    if let Some(pid) = query.pid.filter(|&pid| !profile.app_frames.iter().any(|f| f.pid == pid)) {
        return Err(Error::new(ErrorKind::Request, format!("no app frame of process {pid} is in the trace")));
    }
    let failed = |e: std::io::Error| Error::new(ErrorKind::Output, e.to_string());
    let unit = profile.trace_time_unit();
    let us = |ticks: u64| unit.micros(ticks).to_string();
    writeln!(out, "pid\tlayer\ttoken\tstart_us\tdur_us\texpected_dur_us\tjank\tpresent").map_err(failed)?;
    let wanted =
        profile.app_frames.iter().filter(|f| query.pid.is_none_or(|pid| f.pid == pid) && (!query.jank_only || f.janky));
    for f in wanted {
        writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            f.pid,
            f.layer.replace(['\t', '\n'], " "),
            f.token,
            us(f.start.saturating_sub(profile.timeline.start)),
            f.duration().map(us).unwrap_or_default(),
            f.expected_duration().map(us).unwrap_or_default(),
            f.jank,
            f.present
        )
        .map_err(failed)?;
    }
    out.flush().map_err(failed)
}

/// One layer's frames in figures.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct LayerFrames {
    /// The app's process.
    pub pid: u32,
    /// The layer.
    pub layer: String,
    /// Frames drawn for it.
    pub frames: u64,
    /// Of them, janky.
    pub janky: u64,
    /// Of them, never ended in the trace.
    pub unfinished: u64,
    /// Frames by jank type (a frame of several types counts for each), most first.
    pub jank_types: Vec<(String, u64)>,
    /// Frame durations (ended frames), nearest-rank percentiles, in µs.
    pub p50_us: Option<u64>,
    /// The 90th percentile, in µs.
    pub p90_us: Option<u64>,
    /// The 99th percentile, in µs.
    pub p99_us: Option<u64>,
    /// The longest frame, in µs.
    pub max_us: Option<u64>,
}

/// Every layer's frames in figures, most frames first.
pub fn frame_layers(profile: &Profile) -> Vec<LayerFrames> {
    let mut by_layer: Vec<((u32, &str), Vec<&crate::profile::AppFrame>)> = Vec::new();
    for f in &profile.app_frames {
        match by_layer.iter_mut().find(|(key, _)| *key == (f.pid, f.layer.as_str())) {
            Some((_, frames)) => frames.push(f),
            None => by_layer.push(((f.pid, &f.layer), vec![f])),
        }
    }
    let unit = profile.trace_time_unit();
    let mut layers: Vec<LayerFrames> = by_layer
        .into_iter()
        .map(|((pid, layer), frames)| {
            let mut durations: Vec<u64> = frames.iter().filter_map(|f| f.duration()).collect();
            durations.sort_unstable();
            let rank = |p: usize| {
                (!durations.is_empty()).then(|| unit.micros(durations[(durations.len() * p).div_ceil(100).max(1) - 1]))
            };
            let mut jank_types: Vec<(String, u64)> = Vec::new();
            for f in frames.iter().filter(|f| f.janky) {
                for kind in f.jank.split(", ") {
                    match jank_types.iter_mut().find(|(k, _)| k == kind) {
                        Some((_, n)) => *n += 1,
                        None => jank_types.push((kind.to_owned(), 1)),
                    }
                }
            }
            jank_types.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
            LayerFrames {
                pid,
                layer: layer.to_owned(),
                frames: frames.len() as u64,
                janky: frames.iter().filter(|f| f.janky).count() as u64,
                unfinished: frames.iter().filter(|f| f.end.is_none()).count() as u64,
                jank_types,
                p50_us: rank(50),
                p90_us: rank(90),
                p99_us: rank(99),
                max_us: durations.last().map(|&d| unit.micros(d)),
            }
        })
        .collect();
    layers.sort_by(|a, b| b.frames.cmp(&a.frames).then_with(|| a.layer.cmp(&b.layer)));
    layers
}

/// The frames view's data as JSON: `layers` (`frame_layers`) and `frames`, each with its
/// `layer` (index into `layers`), `token`, `start_us` and `end_us` (µs on the timeline;
/// `end_us` null where it never ended), `expected_start_us`/`expected_end_us` (null where
/// unknown), `overrun_us` (past its expected end), `jank`, `janky`, `present`,
/// `on_time_finish`, `gpu_composition`, `prediction`.
pub fn frames_json(profile: &Profile) -> String {
    let layers = frame_layers(profile);
    let at = |ticks: u64| profile.micros_at(ticks);
    let frames: Vec<serde_json::Value> = profile
        .app_frames
        .iter()
        .map(|f| {
            let layer = layers.iter().position(|l| l.pid == f.pid && l.layer == f.layer);
            let overrun = match (f.end, f.expected) {
                (Some(end), Some((_, expected))) => Some(at(end) - at(expected)),
                _ => None,
            };
            serde_json::json!({
                "layer": layer, "token": f.token, "start_us": at(f.start), "end_us": f.end.map(at),
                "expected_start_us": f.expected.map(|e| at(e.0)), "expected_end_us": f.expected.map(|e| at(e.1)),
                "overrun_us": overrun, "jank": f.jank, "janky": f.janky, "present": f.present,
                "on_time_finish": f.on_time_finish, "gpu_composition": f.gpu_composition, "prediction": f.prediction,
            })
        })
        .collect();
    serde_json::json!({ "layers": layers, "frames": frames }).to_string()
}
