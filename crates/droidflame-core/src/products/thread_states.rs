//! A thread's scheduler states for the timeline and for a call's details: a window's state
//! boxes merged to its pixels, the state at one moment in words, and the time a span of
//! the timeline spent in each state.

use crate::profile::{Profile, SchedState, StackProfile, StateLog, StateSpan, StateTimes, SystemTimeline};
use serde_json::{json, Value};

/// A run of one state in a window, or (`mixed`) of states each narrower than a pixel,
/// shown as the one that took most of it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StateBox {
    /// µs from the timeline's start.
    pub start_us: f64,
    /// µs from the timeline's start.
    pub end_us: f64,
    /// The state (most of the run's time, where mixed).
    pub state: SchedState,
    /// Several states, each narrower than a pixel.
    pub mixed: bool,
}

/// Thread `thread`'s states between `from_us` and `to_us` drawn `pixels` wide.
pub fn state_boxes(
    system: &SystemTimeline,
    stacks: &StackProfile,
    thread: usize,
    from_us: f64,
    to_us: f64,
    pixels: u32,
) -> Vec<StateBox> {
    match stacks.threads.get(thread) {
        Some(t) => log_boxes(system, &t.states, from_us, to_us, pixels),
        None => Vec::new(),
    }
}

/// The thread `tid` of the source with scheduler states, whichever source is shown: its
/// stack profile and index there.
pub fn states_thread(profile: &Profile, tid: u32) -> Option<(&StackProfile, usize)> {
    let stacks = profile.states_stacks()?;
    stacks.threads.iter().position(|t| t.tid == tid && !t.track && !t.states.is_empty()).map(|at| (stacks, at))
}

/// A log's states between `from_us` and `to_us` drawn `pixels` wide.
pub fn log_boxes(system: &SystemTimeline, log: &StateLog, from_us: f64, to_us: f64, pixels: u32) -> Vec<StateBox> {
    let pixel = (to_us - from_us).max(0.0) / f64::from(pixels.max(1));
    let mut boxes = Vec::new();
    // A run of narrow spans: its start, end and time in each state.
    let mut run: Option<(f64, f64, StateTimes)> = None;
    let flush = |run: &mut Option<(f64, f64, StateTimes)>, boxes: &mut Vec<StateBox>| {
        if let Some((start_us, end_us, times)) = run.take() {
            // Ties go to the state listed first (running).
            let (state, most) =
                SchedState::KNOWN.iter().rev().map(|&s| (s, times.of(s))).max_by_key(|&(_, t)| t).unwrap();
            let mixed = times.0.iter().sum::<u64>() > most;
            boxes.push(StateBox { start_us, end_us, state, mixed });
        }
    };
    for span in log.spans(system.ticks_at(from_us), system.ticks_at(to_us).saturating_add(1)) {
        let (start_us, end_us) = (system.micros_at(span.entry.start), system.micros_at(span.end));
        if end_us - start_us >= pixel {
            flush(&mut run, &mut boxes);
            boxes.push(StateBox { start_us, end_us, state: span.entry.state, mixed: false });
            continue;
        }
        // A gap in what is known ends a run.
        if run.as_ref().is_some_and(|r| start_us > r.1) {
            flush(&mut run, &mut boxes);
        }
        let r = run.get_or_insert((start_us, end_us, StateTimes::default()));
        r.1 = end_us;
        r.2.add(span.entry.state, span.duration());
        if r.1 - r.0 >= pixel {
            flush(&mut run, &mut boxes);
        }
    }
    flush(&mut run, &mut boxes);
    boxes
}

/// The state thread `thread` was in at `at_us`, where known.
pub fn state_at(system: &SystemTimeline, stacks: &StackProfile, thread: usize, at_us: f64) -> Option<StateSpan> {
    stacks.threads.get(thread)?.states.at(system.ticks_at(at_us))
}

/// A state span as JSON: `state` (its key), `words`, `start_us`, `end_us`, `dur_us`, and
/// where known `cpu`, `waker` (`{tid, name}`; tid 0 is the idle task: an interrupt woke
/// it), `blocked` (the kernel function) and `io_wait`.
pub fn state_json(system: &SystemTimeline, stacks: &StackProfile, span: &StateSpan) -> Value {
    let e = &span.entry;
    let waker = e.waker.map(|tid| json!({ "tid": tid, "name": super::scheduling::waker_name(stacks, tid) }));
    json!({
        "state": key(e.state), "words": e.state.words(),
        "start_us": system.micros_at(e.start), "end_us": system.micros_at(span.end),
        "dur_us": system.micros_at(span.end) - system.micros_at(e.start),
        "cpu": e.cpu, "waker": waker,
        "blocked": e.blocked.and_then(|f| system.blocked_functions.get(f as usize)),
        "io_wait": e.state == SchedState::Uninterruptible && e.io_wait,
    })
}

/// The time thread `thread` spent in each state between two times (ticks), as a JSON
/// array of `{state, words, us}` with time in it, running first; `null` where the thread
/// has no states.
pub fn state_times_json(stacks: &StackProfile, thread: usize, from: u64, to: u64) -> Value {
    let Some(t) = stacks.threads.get(thread).filter(|t| !t.states.is_empty()) else {
        return Value::Null;
    };
    let times = t.states.times(from, to);
    let rows: Vec<Value> = SchedState::KNOWN
        .iter()
        .filter(|&&s| times.of(s) > 0)
        .map(|&s| json!({ "state": key(s), "words": s.words(), "us": stacks.time_unit.micros_f64(times.of(s)) }))
        .collect();
    Value::Array(rows)
}

/// Every state's key and words, in the order tables list them: what a legend shows.
pub fn state_legend() -> Value {
    Value::Array(SchedState::KNOWN.iter().map(|&s| json!({ "state": key(s), "words": s.words() })).collect())
}

fn key(state: SchedState) -> Value {
    serde_json::to_value(state).unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze_with;
    use crate::options::Options;

    #[test]
    fn narrow_states_merge_to_a_pixel_and_wide_ones_stay() {
        let mut text = String::from("# tracer: nop\n");
        let mut line = |ts_us: u64, prev: &str, state: &str, next: &str| {
            text.push_str(&format!(
                "  x-1 [000] .... {}.{:06}: sched_switch: prev_comm={prev} prev_pid={} prev_prio=120 \
                 prev_state={state} ==> next_comm={next} next_pid={} next_prio=120\n",
                ts_us / 1_000_000,
                ts_us % 1_000_000,
                if prev == "idle" { 0 } else { 5 },
                if next == "idle" { 0 } else { 5 }
            ));
        };
        // 1 ms running, then 100 switches of 10 µs, then 1 ms running.
        line(0, "idle", "R", "app");
        line(1_000, "app", "S", "idle");
        for i in 0..50 {
            line(1_010 + i * 20, "idle", "R", "app");
            line(1_020 + i * 20, "app", "S", "idle");
        }
        line(2_010, "idle", "R", "app");
        line(3_010, "app", "S", "idle");
        let p = analyze_with(text.as_bytes(), Options { keep_calls: true, ..Options::default() }).unwrap().profile;
        let t = p.stacks().threads.iter().position(|t| t.tid == 5).unwrap();
        // 100 pixels over 3.01 ms: about 30 µs a pixel.
        let boxes = state_boxes(&p.system, p.stacks(), t, 0.0, 3_010.0, 100);
        assert_eq!(boxes[0], StateBox { start_us: 0.0, end_us: 1_000.0, state: SchedState::Running, mixed: false });
        let last = boxes.last().unwrap();
        assert_eq!((last.start_us, last.end_us, last.mixed), (2_010.0, 3_010.0, false));
        let middle = &boxes[1..boxes.len() - 1];
        assert!(middle.len() < 40 && middle[..middle.len() - 1].iter().all(|b| b.mixed), "{middle:?}");
        assert_eq!(middle[0].state, SchedState::Running, "a tie goes to running");
        let at = state_at(&p.system, p.stacks(), t, 500.0).unwrap();
        assert_eq!((at.entry.start, at.end, at.entry.cpu), (0, 1_000_000, Some(0)));
        let json = state_json(&p.system, p.stacks(), &at);
        assert_eq!(
            (json["state"].as_str(), json["words"].as_str(), json["dur_us"].as_f64()),
            (Some("running"), Some("Running"), Some(1000.0))
        );
        let times = state_times_json(p.stacks(), t, 0, 2_000_000);
        assert_eq!(times[0]["us"], 1_500.0);
        assert_eq!(times[1]["state"], "sleeping");
    }
}
