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
