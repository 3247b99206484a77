//! A thread's CPU samples on the timeline: when they were taken, merged to a window's
//! pixels, and the scheduler state its thread was in at each, whichever source is shown (a
//! capture's samples are one source and its scheduler states belong to another).

use crate::profile::{Profile, SchedState, StateTimes, ThreadProfile};

/// Samples taken within one run of a window's pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SampleMark {
    /// µs from the timeline's start: the first sample's.
    pub start_us: f64,
    /// µs from the timeline's start: the last sample's.
    pub end_us: f64,
    /// Samples in the run.
    pub count: u32,
}

/// The thread `tid` whose CPU samples' times were kept (`Options::keep_calls`), in any
/// source.
pub fn sampled_thread(profile: &Profile, tid: u32) -> Option<&ThreadProfile> {
    profile
        .stack_profiles
        .iter()
        .flat_map(|s| &s.threads)
        .find(|t| t.tid == tid && !t.track && !t.sample_times.is_empty())
}

/// Thread `tid`'s samples between `from_us` and `to_us` drawn `pixels` wide: a mark per
/// pixel that has any (samples a pixel apart or closer share one).
pub fn sample_marks(profile: &Profile, tid: u32, from_us: f64, to_us: f64, pixels: u32) -> Vec<SampleMark> {
    let Some(t) = sampled_thread(profile, tid) else {
        return Vec::new();
    };
    let system = &profile.system;
    let pixel = (to_us - from_us).max(0.0) / f64::from(pixels.max(1));
    let mut marks: Vec<SampleMark> = Vec::new();
    for time in t.sample_times.within(system.ticks_at(from_us), system.ticks_at(to_us).saturating_add(1)) {
        let at = system.micros_at(time);
        match marks.last_mut() {
            Some(m) if at - m.start_us < pixel => {
                m.end_us = at;
                m.count += 1;
            }
            _ => marks.push(SampleMark { start_us: at, end_us: at, count: 1 }),
        }
    }
    marks
}

/// How many of thread `tid`'s samples within `from..to` (ticks) were taken in each
/// scheduler state of the thread, and how many where its state is not known (no states,
/// or outside the part of the trace that has them).
pub fn samples_in_states(profile: &Profile, tid: u32, from: u64, to: u64) -> (StateTimes, u64) {
    let mut counts = StateTimes::default();
    let mut unknown = 0;
    let Some(sampled) = sampled_thread(profile, tid) else {
        return (counts, 0);
    };
    let states =
        profile.states_stacks().and_then(|s| s.threads.iter().find(|t| t.tid == tid && !t.track)).map(|t| &t.states);
    // Samples and states both in time order: one walk of each.
    let mut spans = states.into_iter().flat_map(|s| s.spans(from, to)).peekable();
    for time in sampled.sample_times.within(from, to) {
        while spans.next_if(|s| s.end <= time).is_some() {}
        match spans.peek().filter(|s| s.entry.start <= time) {
            Some(span) => counts.add(span.entry.state, 1),
            None => unknown += 1,
        }
    }
    (counts, unknown)
}

/// `samples_in_states` as JSON: `{total, unknown, states: [{state, words, count}]}`, states
/// with samples only, in the order tables list them.
pub fn samples_in_states_json(profile: &Profile, tid: u32, from: u64, to: u64) -> serde_json::Value {
    let (counts, unknown) = samples_in_states(profile, tid, from, to);
    let states: Vec<serde_json::Value> = SchedState::KNOWN
        .iter()
        .filter(|&&s| counts.of(s) > 0)
        .map(|&s| serde_json::json!({ "state": s, "words": s.words(), "count": counts.of(s) }))
        .collect();
    let total = counts.0.iter().sum::<u64>() + unknown;
    serde_json::json!({ "total": total, "unknown": unknown, "states": states })
}

/// Thread `tid`'s CPU sample nearest to the middle of `from_us..to_us`, with its stack: the
/// frames of the calls its samples make at that moment, from the root (a sample's stack
/// opens at its time and stays until a later sample changes it). JSON: `time_us`, `count`
/// (its samples in the span), `frames` (root first, each `{name, kernel}`: the kernel's
/// without their mark); null where it has none there.
pub fn sample_at_json(profile: &Profile, tid: u32, from_us: f64, to_us: f64) -> serde_json::Value {
    let Some(t) = sampled_thread(profile, tid) else {
        return serde_json::Value::Null;
    };
    let system = &profile.system;
    let middle = system.ticks_at((from_us + to_us) / 2.0);
    let (mut nearest, mut count) = (None::<u64>, 0u64);
    for time in t.sample_times.within(system.ticks_at(from_us), system.ticks_at(to_us).saturating_add(1)) {
        count += 1;
        if nearest.is_none_or(|n| time.abs_diff(middle) < n.abs_diff(middle)) {
            nearest = Some(time);
        }
    }
    let Some(time) = nearest else {
        return serde_json::Value::Null;
    };
    // The calls open at the sample: begun by it or before, ending after it (a stack the next
    // sample changes ends at that sample; the last sample's calls end as the thread does).
    let open = |call: &&crate::profile::Call| call.start <= time && (time < call.end || time == t.last.wall);
    let frames: Vec<serde_json::Value> = (0..)
        .map_while(|depth| t.calls.overlapping_at(depth, time, time).iter().find(open))
        .map(|call| {
            let name = profile.frames[t.tree.node(call.node).frame as usize].display_name();
            let plain = name.strip_suffix(crate::profile::KERNEL_MARK);
            serde_json::json!({ "name": plain.unwrap_or(&name), "kernel": plain.is_some() })
        })
        .collect();
    serde_json::json!({ "time_us": system.micros_at(time), "count": count, "frames": frames })
}
