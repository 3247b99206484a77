//! `droidflame frames`: the frames apps produced, one per line, tab-separated:
//! `pid layer token start_us dur_us expected_dur_us jank present`, start in µs from the
//! start of the trace's timeline. A frame the trace never ends has no duration. With
//! `--display`, the compositor's display frames instead (no layer). Also each layer's
//! frames in figures, and the frames view's data.

use crate::error::{Error, ErrorKind, Result};
use crate::profile::{AppFrame, Profile, SystemTimeline, RENDER_THREAD};
use rustc_hash::FxHashMap;
use std::io::Write;

/// Which frames to list.
#[derive(Debug, Clone, Default)]
pub struct FramesQuery {
    /// Only this process's.
    pub pid: Option<u32>,
    /// Only janky ones.
    pub jank_only: bool,
    /// The compositor's display frames, not apps' frames.
    pub display: bool,
    /// Where the trace has no frame timeline: the frames derived from apps' slices.
    pub derived: bool,
}

/// What a layer of display frames is called: they have none of their own.
pub const DISPLAY_LAYER: &str = "Display frames (SurfaceFlinger)";

/// Writes the frames `query` asks for, in start order.
pub fn write_frames(system: &SystemTimeline, query: &FramesQuery, out: &mut dyn Write) -> Result<()> {
    let derived = system.app_frames.first().is_some_and(|f| f.derived);
    if (system.app_frames.is_empty() || derived) && !query.derived {
        let offer = if derived {
            format!(
                "; {} can be derived from its Choreographer#doFrame slices: add --derived",
                crate::text::counted(system.app_frames.len() as u64, "app frame", "app frames")
            )
        } else {
            String::new()
        };
        return Err(Error::new(
            ErrorKind::Request,
            format!(
                "this trace has no frame timeline (Perfetto's frametimeline data source, Android 12 and later, records \
                 each app frame and its jank){offer}"
            ),
        ));
    }
    if query.derived && !derived {
        let why = if system.app_frames.is_empty() {
            "this trace has neither a frame timeline nor Choreographer#doFrame slices to derive app frames from"
        } else {
            "this trace has a frame timeline: its frames are listed without --derived"
        };
        return Err(Error::new(ErrorKind::Request, why));
    }
    // App frames are there by now; display frames may not be.
    let frames = if !query.display {
        &system.app_frames
    } else if system.display_frames.is_empty() {
        return Err(Error::new(
            ErrorKind::Request,
            "this trace has no display frames (the compositor's frames come only with a frame timeline)",
        ));
    } else {
        &system.display_frames
    };
    let noun = if query.display { "display frame" } else { "app frame" };
    if let Some(pid) = query.pid.filter(|&pid| !frames.iter().any(|f| f.pid == pid)) {
        return Err(Error::new(ErrorKind::Request, format!("no {noun} of process {pid} is in the trace")));
    }
    let failed = |e: std::io::Error| Error::new(ErrorKind::Output, e.to_string());
    let unit = system.time_unit;
    let us = |ticks: u64| unit.micros(ticks).to_string();
    writeln!(out, "pid\tlayer\ttoken\tstart_us\tdur_us\texpected_dur_us\tjank\tpresent").map_err(failed)?;
    let wanted = frames.iter().filter(|f| query.pid.is_none_or(|pid| f.pid == pid) && (!query.jank_only || f.janky));
    for f in wanted {
        writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            f.pid,
            f.layer.replace(['\t', '\n'], " "),
            f.token,
            us(f.start.saturating_sub(system.timeline.start)),
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
    /// The app's process (the compositor's, for display frames).
    pub pid: u32,
    /// The layer (`DISPLAY_LAYER` for display frames).
    pub layer: String,
    /// The compositor's display frames, not an app's.
    pub display: bool,
    /// Derived from the app's slices (the trace has no frame timeline).
    pub derived: bool,
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

/// Every layer's frames in figures, most frames first; the display frames, where the trace
/// has any, last.
pub fn frame_layers(system: &SystemTimeline) -> Vec<LayerFrames> {
    let mut by_layer: Vec<((u32, &str), Vec<&AppFrame>)> = Vec::new();
    for f in &system.app_frames {
        match by_layer.iter_mut().find(|(key, _)| *key == (f.pid, f.layer.as_str())) {
            Some((_, frames)) => frames.push(f),
            None => by_layer.push(((f.pid, &f.layer), vec![f])),
        }
    }
    let mut layers: Vec<LayerFrames> =
        by_layer.into_iter().map(|((pid, layer), frames)| figures(system, pid, layer, false, &frames)).collect();
    layers.sort_by(|a, b| b.frames.cmp(&a.frames).then_with(|| a.layer.cmp(&b.layer)));
    if let Some(first) = system.display_frames.first() {
        let frames: Vec<&AppFrame> = system.display_frames.iter().collect();
        layers.push(figures(system, first.pid, DISPLAY_LAYER, true, &frames));
    }
    layers
}

/// Whether a janky frame's jank is the app's: it missed its deadline (or the recorder could
/// not say whose it was), or it was derived from the app's own slices.
fn by_app(f: &AppFrame) -> bool {
    f.janky && (f.derived || f.jank.split(", ").any(|kind| kind == "App Deadline Missed" || kind == "Unknown Jank"))
}

/// One layer's figures.
fn figures(system: &SystemTimeline, pid: u32, layer: &str, display: bool, frames: &[&AppFrame]) -> LayerFrames {
    let unit = system.time_unit;
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
        display,
        derived: frames.first().is_some_and(|f| f.derived),
        frames: frames.len() as u64,
        janky: frames.iter().filter(|f| f.janky).count() as u64,
        unfinished: frames.iter().filter(|f| f.end.is_none()).count() as u64,
        jank_types,
        p50_us: rank(50),
        p90_us: rank(90),
        p99_us: rank(99),
        max_us: durations.last().map(|&d| unit.micros(d)),
    }
}

/// The frames view's data as JSON: `length_us` (the timeline's), `layers` (`frame_layers`,
/// each with its app's `main_thread`, the thread whose tid is its pid where the trace has
/// it, and `render_threads`, its threads named `RenderThread`) and `frames`, each with its
/// `layer` (index into `layers`), `token`, `start_us` and `end_us` (µs on the timeline;
/// `end_us` null where it never ended), `expected_start_us`/`expected_end_us` (null where
/// unknown), `overrun_us` (past its expected end), `jank`, `janky`, `present`,
/// `on_time_finish`, `gpu_composition`, `prediction`, `derived`, `by_app` (janky
/// because the app missed its deadline), and for an app frame `display_token` and
/// `display_frame` (the index in `frames` of the display frame that presented it; null
/// where the trace does not say or lacks it).
pub fn frames_json(profile: &Profile) -> String {
    let system = &profile.system;
    let layers = frame_layers(system);
    let at = |ticks: u64| system.micros_at(ticks);
    let display = layers.iter().position(|l| l.display);
    let mut displays: FxHashMap<i64, usize> = FxHashMap::default();
    for (i, f) in system.display_frames.iter().enumerate() {
        displays.entry(f.token).or_insert(system.app_frames.len() + i);
    }
    let frames: Vec<serde_json::Value> = system
        .app_frames
        .iter()
        .map(|f| (f, layers.iter().position(|l| !l.display && l.pid == f.pid && l.layer == f.layer)))
        .chain(system.display_frames.iter().map(|f| (f, display)))
        .map(|(f, layer)| {
            let overrun = match (f.end, f.expected) {
                (Some(end), Some((_, expected))) => Some(at(end) - at(expected)),
                _ => None,
            };
            serde_json::json!({
                "layer": layer, "token": f.token, "start_us": at(f.start), "end_us": f.end.map(at),
                "expected_start_us": f.expected.map(|e| at(e.0)), "expected_end_us": f.expected.map(|e| at(e.1)),
                "overrun_us": overrun, "jank": f.jank, "janky": f.janky, "present": f.present,
                "on_time_finish": f.on_time_finish, "gpu_composition": f.gpu_composition, "prediction": f.prediction,
                "derived": f.derived, "by_app": by_app(f),
                "display_token": f.display_token, "display_frame": f.display_token.and_then(|t| displays.get(&t)),
            })
        })
        .collect();
    let layers: Vec<serde_json::Value> = layers
        .iter()
        .map(|l| {
            let mut value = serde_json::to_value(l).unwrap_or_default();
            if !l.display {
                let (main, render) = app_threads(profile, l.pid);
                value["main_thread"] = serde_json::json!(main);
                value["render_threads"] = serde_json::json!(render);
            }
            value
        })
        .collect();
    let length_us = system.micros_at(system.timeline.end);
    serde_json::json!({ "layers": layers, "frames": frames, "length_us": length_us }).to_string()
}

/// Process `pid`'s main thread (the thread whose tid is the pid) where any source has it,
/// and its threads named `RenderThread`, lowest tid first: the threads an app's frames are
/// drawn on.
pub fn app_threads(profile: &Profile, pid: u32) -> (Option<u32>, Vec<u32>) {
    let threads = profile.stack_profiles.iter().flat_map(|s| &s.threads).filter(|t| !t.track && t.pid == Some(pid));
    let mut main = None;
    let mut render = Vec::new();
    for t in threads {
        if t.tid == pid {
            main = Some(pid);
        } else if t.name == RENDER_THREAD && !render.contains(&t.tid) {
            render.push(t.tid);
        }
    }
    render.sort_unstable();
    (main, render)
}
