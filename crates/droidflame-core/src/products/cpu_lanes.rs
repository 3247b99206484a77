//! What each CPU ran, from the threads' scheduler states: a window's boxes per CPU merged
//! to its pixels, and the thread on a CPU at a moment.

use super::thread_states::state_json;
use crate::profile::{CpuOverview, Profile, SchedState, StackProfile, StateSpan, SystemTimeline};
use serde_json::{json, Value};

/// A run on one CPU: one thread's, or (`thread` None) several threads' each narrower than a
/// pixel.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CpuBox {
    /// The CPU's number.
    pub cpu: u32,
    /// µs from the timeline's start.
    pub start_us: f64,
    /// µs from the timeline's start.
    pub end_us: f64,
    /// The thread that ran (an index into `StackProfile::threads`); the one that ran longest in
    /// a merged run.
    pub thread: usize,
    /// Several threads ran, each narrower than a pixel.
    pub mixed: bool,
}

/// Every CPU's runs between `from_us` and `to_us`, drawn `pixels` wide, CPU by CPU, from the
/// threads with scheduler states (`Profile::states_stacks`: a box's thread indexes them),
/// whichever source is shown. A window whose pixel holds two of the CPUs' overview buckets
/// or more is read from them: a box a pixel wide (runs of one thread joined) wherever the
/// CPU ran, the thread that ran longest in it, mixed where others ran too.
pub fn cpu_boxes(profile: &Profile, from_us: f64, to_us: f64, pixels: u32) -> Vec<CpuBox> {
    let (Some(stacks), Some(overview)) = (profile.states_stacks(), profile.cpu_overview()) else {
        return Vec::new();
    };
    let system = &profile.system;
    let (from, to) = (system.ticks_at(from_us), system.ticks_at(to_us).saturating_add(1));
    if (to - from) / u64::from(pixels.max(1)) >= 2 * overview.width {
        return overview_boxes(system, overview, from, to, pixels);
    }
    cpu_runs(system, stacks, from_us, to_us, pixels)
}

/// Every CPU's runs between `from_us` and `to_us`, drawn `pixels` wide, CPU by CPU, read
/// from `stacks`' threads' states.
pub fn cpu_runs(system: &SystemTimeline, stacks: &StackProfile, from_us: f64, to_us: f64, pixels: u32) -> Vec<CpuBox> {
    let (from, to) = (system.ticks_at(from_us), system.ticks_at(to_us).saturating_add(1));
    let mut runs: Vec<Vec<(u64, u64, usize)>> = vec![Vec::new(); system.cpus as usize];
    for (index, t) in stacks.threads.iter().enumerate().filter(|(_, t)| !t.states.is_empty()) {
        for span in t.states.spans(from, to).filter(|s| s.entry.state == SchedState::Running) {
            if let Some(lane) = span.entry.cpu.and_then(|cpu| runs.get_mut(cpu as usize)) {
                lane.push((span.entry.start, span.end, index));
            }
        }
    }
    let pixel = ((to - from) / u64::from(pixels.max(1))).max(1);
    let mut boxes = Vec::new();
    for (cpu, mut lane) in runs.into_iter().enumerate() {
        lane.sort_unstable();
        // A run of narrow spans: start, end, and the longest thread in it with its time.
        let mut run: Option<(u64, u64, usize, u64, bool)> = None;
        let mut flush = |run: &mut Option<(u64, u64, usize, u64, bool)>| {
            if let Some((start, end, thread, _, mixed)) = run.take() {
                let (start_us, end_us) = (system.micros_at(start), system.micros_at(end));
                boxes.push(CpuBox { cpu: cpu as u32, start_us, end_us, thread, mixed });
            }
        };
        for (start, end, thread) in lane {
            if end - start >= pixel {
                flush(&mut run);
                run = Some((start, end, thread, end - start, false));
                flush(&mut run);
                continue;
            }
            match &mut run {
                Some(r) if start <= r.1 + pixel => {
                    r.1 = r.1.max(end);
                    r.4 |= r.2 != thread;
                    if end - start > r.3 {
                        (r.2, r.3) = (thread, end - start);
                    }
                }
                _ => {
                    flush(&mut run);
                    run = Some((start, end, thread, end - start, false));
                }
            }
            if run.as_ref().is_some_and(|r| r.1 - r.0 >= pixel) {
                flush(&mut run);
            }
        }
        flush(&mut run);
    }
    boxes
}

/// `cpu_boxes` from the overview's buckets.
fn overview_boxes(system: &SystemTimeline, overview: &CpuOverview, from: u64, to: u64, pixels: u32) -> Vec<CpuBox> {
    let pixels = u64::from(pixels.max(1));
    // Each bucket counts for the pixel its middle is in: one straddling two pixels is not
    // drawn in both.
    let bucket_of = |ticks: u64| {
        let at = ticks.saturating_sub(overview.start) as f64 / overview.width as f64 - 0.5;
        at.ceil().max(0.0) as usize
    };
    let mut boxes: Vec<CpuBox> = Vec::new();
    for cpu in 0..system.cpus {
        let buckets = overview.cpu(cpu);
        for p in 0..pixels {
            let (start, end) = (from + (to - from) * p / pixels, from + (to - from) * (p + 1) / pixels);
            let range = bucket_of(start).min(buckets.len())..bucket_of(end).min(buckets.len());
            let Some(cells) = buckets.get(range) else { continue };
            // No bucket busy: nothing drawn.
            let Some(top) = cells.iter().filter(|b| b.busy > 0).max_by_key(|b| b.longest) else { continue };
            let mixed = cells.iter().any(|b| b.mixed || (b.busy > 0 && b.thread != top.thread));
            let (start_us, end_us) = (system.micros_at(start), system.micros_at(end));
            match boxes.last_mut() {
                // A run of one thread, pixel after pixel, is one box.
                Some(last)
                    if last.cpu == cpu
                        && !mixed
                        && !last.mixed
                        && last.thread == top.thread as usize
                        && last.end_us == start_us =>
                {
                    last.end_us = end_us
                }
                _ => boxes.push(CpuBox { cpu, start_us, end_us, thread: top.thread as usize, mixed }),
            }
        }
    }
    boxes
}

/// The thread running on `cpu` at `at_us`, with its state, where one was.
pub fn cpu_at(system: &SystemTimeline, stacks: &StackProfile, cpu: u32, at_us: f64) -> Option<(usize, StateSpan)> {
    let at = system.ticks_at(at_us);
    stacks.threads.iter().enumerate().find_map(|(index, t)| {
        let span = t.states.at(at)?;
        (span.entry.state == SchedState::Running && span.entry.cpu == Some(cpu)).then_some((index, span))
    })
}

/// The span around `at` (ticks) in which CPU `cpu` ran no known thread: from the end of the
/// run before it to the start of the run after it, each `None` where there is none (the
/// trace's start or end bounds it). Windows around `at` widen until both runs are found.
pub fn cpu_idle(system: &SystemTimeline, stacks: &StackProfile, cpu: u32, at: u64) -> (Option<u64>, Option<u64>) {
    let (start, end) = (system.timeline.start, system.timeline.end.saturating_add(1));
    let (mut before, mut after): (Option<u64>, Option<u64>) = (None, None);
    let mut reach = (system.timeline.length() / 4096).max(1);
    loop {
        let (from, to) = (at.saturating_sub(reach).max(start), at.saturating_add(reach).min(end));
        for t in stacks.threads.iter().filter(|t| !t.states.is_empty()) {
            let runs =
                t.states.spans(from, to).filter(|s| s.entry.state == SchedState::Running && s.entry.cpu == Some(cpu));
            for span in runs {
                if span.end <= at {
                    before = before.max(Some(span.end));
                } else if span.entry.start > at {
                    after = Some(after.map_or(span.entry.start, |a| a.min(span.entry.start)));
                }
            }
        }
        if (before.is_some() || from == start) && (after.is_some() || to == end) {
            return (before, after);
        }
        reach = reach.saturating_mul(4);
    }
}

/// `cpu_at` as JSON: `thread` (index), `tid`, `label` (`name [tid]`), `process`, `pid`, and the
/// state as `state_json` gives it. Where the CPU ran no known thread: `idle` true, with
/// `start_us` and `end_us` where the runs around it end and start (null: the trace's start
/// or end, no run before or after).
pub fn cpu_at_json(system: &SystemTimeline, stacks: &StackProfile, cpu: u32, at_us: f64) -> Value {
    let Some((index, span)) = cpu_at(system, stacks, cpu, at_us) else {
        let (before, after) = cpu_idle(system, stacks, cpu, system.ticks_at(at_us));
        let micros = |t: Option<u64>| t.map(|t| system.micros_at(t));
        return json!({ "idle": true, "cpu": cpu, "start_us": micros(before), "end_us": micros(after) });
    };
    let t = &stacks.threads[index];
    let mut value = state_json(system, stacks, &span);
    value["thread"] = json!(index);
    value["tid"] = json!(t.tid);
    value["label"] = json!(t.label());
    value["process"] = json!(t.process);
    value["pid"] = json!(t.pid);
    value
}
