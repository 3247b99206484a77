//! SurfaceFlinger's frame timeline (`frame_timeline_event`): each app frame's (surface
//! frame's) and each display frame's expected and actual start, ended by a `FrameEnd` of
//! the same cookie; expected and actual frames of one process share their token. Jank and
//! present types are named as Perfetto names them.

use super::proto::{DisplayFrameStart, FrameTimelineEvent, SurfaceFrameStart};
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

/// Display frames being read, kept apart from app frames (their cookies are their own).
#[derive(Debug, Default)]
struct Kinds {
    expected_open: FxHashMap<i64, (u32, i64, u64)>,
    expected: FxHashMap<(u32, i64), (u64, u64)>,
    actual_open: FxHashMap<i64, AppFrame>,
    done: Vec<AppFrame>,
}

/// Frames being read.
#[derive(Debug, Default)]
pub struct FrameTimeline {
    /// Expected frames by cookie, until they end.
    expected_open: FxHashMap<i64, (u32, i64, u64)>,
    /// Ended expected frames by (pid, token).
    expected: FxHashMap<(u32, i64), (u64, u64)>,
    /// Actual frames by cookie, until they end.
    actual_open: FxHashMap<i64, AppFrame>,
    /// Actual frames ended.
    done: Vec<AppFrame>,
    /// Display frames: (cookie of an open one, or ended) as app frames are.
    display: Kinds,
    /// Events read, for the notes.
    pub events: u64,
    /// Ends whose cookie no start had.
    pub unmatched_ends: u64,
}

impl FrameTimeline {
    /// One event at `ts` (boot clock).
    pub fn event(&mut self, event: &FrameTimelineEvent, ts: u64) {
        self.events += 1;
        if let Some(start) = &event.expected_surface_frame_start {
            if let Some(cookie) = start.cookie {
                self.expected_open.insert(cookie, (pid_of(start), start.token.unwrap_or(0), ts));
            }
        }
        if let Some(start) = &event.actual_surface_frame_start {
            if let Some(cookie) = start.cookie {
                self.actual_open.insert(cookie, actual(start, ts));
            }
        }
        if let Some(start) = &event.expected_display_frame_start {
            if let Some(cookie) = start.cookie {
                self.display.expected_open.insert(cookie, (display_pid(start), start.token.unwrap_or(0), ts));
            }
        }
        if let Some(start) = &event.actual_display_frame_start {
            if let Some(cookie) = start.cookie {
                self.display.actual_open.insert(cookie, actual_display(start, ts));
            }
        }
        if let Some(cookie) = event.frame_end.as_ref().and_then(|e| e.cookie) {
            if let Some((pid, token, from)) = self.expected_open.remove(&cookie) {
                self.expected.insert((pid, token), (from, ts.max(from)));
            } else if let Some(mut frame) = self.actual_open.remove(&cookie) {
                frame.end = Some(ts.max(frame.start));
                self.done.push(frame);
            } else if let Some((pid, token, from)) = self.display.expected_open.remove(&cookie) {
                self.display.expected.insert((pid, token), (from, ts.max(from)));
            } else if let Some(mut frame) = self.display.actual_open.remove(&cookie) {
                frame.end = Some(ts.max(frame.start));
                self.display.done.push(frame);
            } else {
                self.unmatched_ends += 1;
            }
        }
    }

    /// The input ended: every actual frame to the builder, with its expected times; those
    /// never ended too, marked so. How many never ended.
    pub fn finish(&mut self, b: &mut ProfileBuilder) -> u64 {
        let unfinished = self.actual_open.len() as u64;
        let mut frames = std::mem::take(&mut self.done);
        frames.extend(self.actual_open.drain().map(|(_, f)| f));
        for mut frame in frames {
            frame.expected = self.expected.get(&(frame.pid, frame.token)).copied();
            b.app_frame(frame);
        }
        let display = &mut self.display;
        let mut frames = std::mem::take(&mut display.done);
        frames.extend(display.actual_open.drain().map(|(_, f)| f));
        for mut frame in frames {
            frame.expected = display.expected.get(&(frame.pid, frame.token)).copied();
            b.display_frame(frame);
        }
        unfinished
    }
}

fn pid_of(start: &SurfaceFrameStart) -> u32 {
    u32::try_from(start.pid.unwrap_or(0)).unwrap_or(0)
}

fn display_pid(start: &DisplayFrameStart) -> u32 {
    u32::try_from(start.pid.unwrap_or(0)).unwrap_or(0)
}

fn actual_display(start: &DisplayFrameStart, ts: u64) -> AppFrame {
    let (jank, janky) = jank_words(start.jank_type.unwrap_or(0));
    AppFrame {
        pid: display_pid(start),
        layer: String::new(),
        token: start.token.unwrap_or(0),
        start: ts,
        end: None,
        expected: None,
        jank,
        janky,
        present: named(&PRESENT_NAMES, start.present_type),
        on_time_finish: start.on_time_finish.unwrap_or(false),
        gpu_composition: start.gpu_composition.unwrap_or(false),
        prediction: named(&PREDICTION_NAMES, start.prediction_type),
        derived: false,
    }
}

fn actual(start: &SurfaceFrameStart, ts: u64) -> AppFrame {
    let (jank, janky) = jank_words(start.jank_type.unwrap_or(0));
    AppFrame {
        pid: pid_of(start),
        layer: String::from_utf8_lossy(start.layer_name.as_deref().unwrap_or_default()).into_owned(),
        token: start.token.unwrap_or(0),
        start: ts,
        end: None,
        expected: None,
        jank,
        janky,
        present: named(&PRESENT_NAMES, start.present_type),
        on_time_finish: start.on_time_finish.unwrap_or(false),
        gpu_composition: start.gpu_composition.unwrap_or(false),
        prediction: named(&PREDICTION_NAMES, start.prediction_type),
        derived: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jank_types_are_named_as_perfetto_names_them() {
        assert_eq!(jank_words(1), ("None".to_owned(), false));
        assert_eq!(jank_words(64 | 128), ("App Deadline Missed, Buffer Stuffing".to_owned(), true));
        assert_eq!(jank_words(4096 | 64), ("App Deadline Missed, App Resynced Jitter".to_owned(), true));
        assert_eq!(named(&PRESENT_NAMES, Some(2)), "Late Present");
        assert_eq!(named(&PRESENT_NAMES, Some(99)), "Unspecified Present");
    }
}
