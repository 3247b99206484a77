//! SurfaceFlinger's frame timeline (`frame_timeline_event`): each app frame's (surface
//! frame's) and each display frame's expected and actual start, ended by a `FrameEnd` of
//! the same cookie; expected and actual frames of one process share their token. Jank and
//! present types are named as Perfetto names them.

use super::proto::FrameTimelineEvent;
use crate::profile::{AppFrame, ProfileBuilder};
use rustc_hash::FxHashMap;

/// Jank type bits and their names, in the order Perfetto lists them.
const JANK_NAMES: [(i32, &str); 16] = [
    (2, "SurfaceFlinger Scheduling"),
    (4, "Prediction Error"),
    (8, "Display HAL"),
    (16, "SurfaceFlinger CPU Deadline Missed"),
    (32, "SurfaceFlinger GPU Deadline Missed"),
    (64, "App Deadline Missed"),
    (4096, "App Resynced Jitter"),
    (128, "Buffer Stuffing"),
    (256, "Unknown Jank"),
    (512, "SurfaceFlinger Stuffing"),
    (1024, "Dropped Frame"),
    (2048, "Non Animating"),
    (8192, "Display not ON"),
    (16384, "ModeChange in progress"),
    (32768, "PowerModeChange in progress"),
    (0, ""),
];

const PRESENT_NAMES: [&str; 6] =
    ["Unspecified Present", "On-time Present", "Late Present", "Early Present", "Dropped Frame", "Unknown Present"];
const PREDICTION_NAMES: [&str; 4] =
    ["Unspecified Prediction", "Valid Prediction", "Expired Prediction", "Unknown Prediction"];

/// A jank type bitmask in words; whether it is jank.
fn jank_words(bits: i32) -> (String, bool) {
    match bits {
        0 => ("Unspecified".to_owned(), false),
        1 => ("None".to_owned(), false),
        _ => {
            let names: Vec<&str> =
                JANK_NAMES.iter().filter(|(bit, _)| *bit != 0 && bits & bit != 0).map(|(_, n)| *n).collect();
            (names.join(", "), true)
        }
    }
}

fn named(names: &[&str], value: Option<i32>) -> String {
    names.get(usize::try_from(value.unwrap_or(0)).unwrap_or(0)).unwrap_or(&names[0]).to_string()
}

/// Frames of one kind (surface or display) being read: their cookies are their own.
#[derive(Debug, Default)]
struct Frames {
    /// Expected frames by cookie, until they end: (pid, token, start).
    expected_open: FxHashMap<i64, (u32, i64, u64)>,
    /// Ended expected frames by (pid, token).
    expected: FxHashMap<(u32, i64), (u64, u64)>,
    /// Actual frames by cookie, until they end.
    actual_open: FxHashMap<i64, AppFrame>,
    /// Actual frames ended.
    done: Vec<AppFrame>,
}

impl Frames {
    fn expected_start(&mut self, cookie: Option<i64>, pid: Option<i32>, token: Option<i64>, ts: u64) {
        if let Some(cookie) = cookie {
            self.expected_open.insert(cookie, (pid_of(pid), token.unwrap_or(0), ts));
        }
    }

    fn actual_start(&mut self, cookie: Option<i64>, frame: AppFrame) {
        if let Some(cookie) = cookie {
            self.actual_open.insert(cookie, frame);
        }
    }

    /// The frame of `cookie` ended at `ts`; false where none of this kind has it.
    fn end(&mut self, cookie: i64, ts: u64) -> bool {
        if let Some((pid, token, from)) = self.expected_open.remove(&cookie) {
            self.expected.insert((pid, token), (from, ts.max(from)));
        } else if let Some(mut frame) = self.actual_open.remove(&cookie) {
            frame.end = Some(ts.max(frame.start));
            self.done.push(frame);
        } else {
            return false;
        }
        true
    }

    /// Every actual frame, with its expected times, those never ended too; and how many
    /// never ended.
    fn finish(&mut self) -> (Vec<AppFrame>, u64) {
        let unfinished = self.actual_open.len() as u64;
        let mut frames = std::mem::take(&mut self.done);
        frames.extend(self.actual_open.drain().map(|(_, f)| f));
        for frame in &mut frames {
            frame.expected = self.expected.get(&(frame.pid, frame.token)).copied();
        }
        (frames, unfinished)
    }
}

/// Frames being read.
#[derive(Debug, Default)]
pub struct FrameTimeline {
    /// Apps' frames (surface frames).
    surfaces: Frames,
    /// The compositor's display frames.
    displays: Frames,
    /// Events read, for the notes.
    pub events: u64,
    /// Ends whose cookie no start had.
    pub unmatched_ends: u64,
}

impl FrameTimeline {
    /// One event at `ts` (boot clock).
    pub fn event(&mut self, event: &FrameTimelineEvent, ts: u64) {
        self.events += 1;
        if let Some(s) = &event.expected_surface_frame_start {
            self.surfaces.expected_start(s.cookie, s.pid, s.token, ts);
        }
        if let Some(s) = &event.actual_surface_frame_start {
            let layer = String::from_utf8_lossy(s.layer_name.as_deref().unwrap_or_default()).into_owned();
            let verdict = Verdict {
                jank_type: s.jank_type,
                present_type: s.present_type,
                on_time_finish: s.on_time_finish,
                gpu_composition: s.gpu_composition,
                prediction_type: s.prediction_type,
            };
            let frame =
                AppFrame { display_token: s.display_frame_token, ..actual(s.pid, layer, s.token, &verdict, ts) };
            self.surfaces.actual_start(s.cookie, frame);
        }
        if let Some(s) = &event.expected_display_frame_start {
            self.displays.expected_start(s.cookie, s.pid, s.token, ts);
        }
        if let Some(s) = &event.actual_display_frame_start {
            let verdict = Verdict {
                jank_type: s.jank_type,
                present_type: s.present_type,
                on_time_finish: s.on_time_finish,
                gpu_composition: s.gpu_composition,
                prediction_type: s.prediction_type,
            };
            self.displays.actual_start(s.cookie, actual(s.pid, String::new(), s.token, &verdict, ts));
        }
        if let Some(cookie) = event.frame_end.as_ref().and_then(|e| e.cookie) {
            if !self.surfaces.end(cookie, ts) && !self.displays.end(cookie, ts) {
                self.unmatched_ends += 1;
            }
        }
    }

    /// The input ended: every actual frame to the builder, with its expected times; those
    /// never ended too, marked so. How many app frames never ended.
    pub fn finish(&mut self, b: &mut ProfileBuilder) -> u64 {
        let (frames, unfinished) = self.surfaces.finish();
        frames.into_iter().for_each(|f| b.system.app_frame(f));
        let (frames, _) = self.displays.finish();
        frames.into_iter().for_each(|f| b.system.display_frame(f));
        unfinished
    }
}

fn pid_of(pid: Option<i32>) -> u32 {
    u32::try_from(pid.unwrap_or(0)).unwrap_or(0)
}

/// What a recorder says of an actual frame, surface or display.
struct Verdict {
    jank_type: Option<i32>,
    present_type: Option<i32>,
    on_time_finish: Option<bool>,
    gpu_composition: Option<bool>,
    prediction_type: Option<i32>,
}

fn actual(pid: Option<i32>, layer: String, token: Option<i64>, v: &Verdict, ts: u64) -> AppFrame {
    let (jank, janky) = jank_words(v.jank_type.unwrap_or(0));
    AppFrame {
        pid: pid_of(pid),
        layer,
        token: token.unwrap_or(0),
        display_token: None,
        start: ts,
        end: None,
        expected: None,
        jank,
        janky,
        present: named(&PRESENT_NAMES, v.present_type),
        on_time_finish: v.on_time_finish.unwrap_or(false),
        gpu_composition: v.gpu_composition.unwrap_or(false),
        prediction: named(&PREDICTION_NAMES, v.prediction_type),
        derived: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jank_types_are_named_as_perfetto_names_them() {
        // 0 is JANK_UNSPECIFIED: no verdict, so not jank (no bit of it names a type).
        assert_eq!(jank_words(0), ("Unspecified".to_owned(), false));
        assert_eq!(jank_words(1), ("None".to_owned(), false));
        assert_eq!(jank_words(64 | 128), ("App Deadline Missed, Buffer Stuffing".to_owned(), true));
        assert_eq!(jank_words(4096 | 64), ("App Deadline Missed, App Resynced Jitter".to_owned(), true));
        assert_eq!(named(&PRESENT_NAMES, Some(2)), "Late Present");
        assert_eq!(named(&PRESENT_NAMES, Some(99)), "Unspecified Present");
    }
}
