//! What a timeline draws: the calls of one thread in a time window, as boxes at most as
//! many as the window has pixels per depth. Calls narrower than a pixel are merged into
//! one box per pixel column, so the answer stays small however many calls the window
//! holds.

use crate::profile::{Call, SystemTimeline, ThreadCalls};

/// One box of the timeline. Times are µs from the start of the trace's timeline.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimelineBox {
    /// 0 for the thread's outermost frames.
    pub depth: u32,
    /// Where it begins.
    pub start_us: f64,
    /// Where it ends.
    pub end_us: f64,
    /// The call's frame; `None` for calls narrower than a pixel, merged.
    pub frame: Option<u32>,
}

/// The boxes of a thread's `calls` (those it kept, or a window of them read again) between
/// `from_us` and `to_us` drawn `pixels` wide, depths below `max_depth` only, depth by
/// depth, each depth in time order.
pub fn timeline_boxes(
    system: &SystemTimeline,
    calls: &ThreadCalls,
    from_us: f64,
    to_us: f64,
    pixels: u32,
    max_depth: usize,
) -> Vec<TimelineBox> {
    let (from, to) = (system.ticks_at(from_us), system.ticks_at(to_us.max(from_us)));
    let pixel = ((to - from) as f64 / f64::from(pixels.max(1))).max(1.0);
    let mut boxes = Vec::new();
    for depth in 0..calls.depth_count().min(max_depth) {
        // A run of narrow calls becomes one box per pixel column it touches.
        let mut merged: Option<(u64, u64)> = None;
        let column = |t: u64| ((t - from.min(t)) as f64 / pixel) as u64;
        let flush = |merged: &mut Option<(u64, u64)>, boxes: &mut Vec<TimelineBox>| {
            if let Some((start, end)) = merged.take() {
                boxes.push(TimelineBox {
                    depth: depth as u32,
                    start_us: system.micros_at(start),
                    end_us: system.micros_at(end),
                    frame: None,
                });
            }
        };
        for call in calls.overlapping_at(depth, from, to) {
            if (call.duration() as f64) >= pixel {
                flush(&mut merged, &mut boxes);
                boxes.push(box_of(system, depth, call));
                continue;
            }
            merged = match merged {
                Some((start, end)) if column(call.start) <= column(end) => Some((start, call.end.max(end))),
                _ => {
                    flush(&mut merged, &mut boxes);
                    Some((call.start, call.end))
                }
            };
        }
        flush(&mut merged, &mut boxes);
    }
    boxes
}

fn box_of(system: &SystemTimeline, depth: usize, call: &Call) -> TimelineBox {
    TimelineBox {
        depth: depth as u32,
        start_us: system.micros_at(call.start),
        end_us: system.micros_at(call.end),
        frame: Some(call.frame),
    }
}

/// The call among a thread's `calls` at `depth` running at `at_us`, if any.
pub fn call_at<'a>(system: &SystemTimeline, calls: &'a ThreadCalls, depth: usize, at_us: f64) -> Option<&'a Call> {
    let at = system.ticks_at(at_us);
    let found = calls.overlapping_at(depth, at, at);
    // Where one call ends as the next begins (samples run back to back), the moment is the
    // next one's.
    found.iter().find(|c| c.start <= at && at < c.end).or_else(|| found.first())
}

/// The calls around `call` (one at `depth` of `calls`), outermost first: the callers on
/// its stack, each the call at its depth that spans the whole of it (not a neighbour that
/// ends as it begins).
pub fn callers_of<'a>(calls: &'a ThreadCalls, depth: usize, call: &Call) -> Vec<&'a Call> {
    (0..depth)
        .filter_map(|d| {
            calls.overlapping_at(d, call.start, call.end).iter().find(|c| c.start <= call.start && call.end <= c.end)
        })
        .collect()
}
