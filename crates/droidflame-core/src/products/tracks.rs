//! What the timeline can show as tracks, by process: each thread with what it has (calls or
//! slices in the source shown, scheduler states, CPU samples), each process's counters, the
//! CPUs, and the span of the trace that has thread data. A thread is known by its tid
//! across sources: its calls may be in one and its states or samples in another.

use super::app_frames::app_threads;
use super::sample_marks::sampled_thread;
use crate::profile::{Clock, Profile, ThreadProfile};
use rustc_hash::FxHashMap;
use serde_json::{json, Value};

/// One thread's track.
struct ThreadTrack<'a> {
    /// Its part of the shown source, and its index there.
    shown: Option<(usize, &'a ThreadProfile)>,
    /// Its part of the source with scheduler states.
    states: Option<&'a ThreadProfile>,
    /// Its CPU samples' times.
    samples: Option<&'a ThreadProfile>,
    /// The most any of them says of it.
    named: &'a ThreadProfile,
}

/// The tracks as JSON: `data_us` (`[from, to]`: from the first to the last moment any
/// thread has calls, states or samples; null where none has), `cpus`, and `processes`
/// (busiest first; threads of no known process last, as pid null): `{pid, name, main,
/// render, threads, counters}`, where `main` and `render` are the app's main thread and
/// RenderThreads (`app_threads`), `counters` indexes the system's counters, and each
/// thread is `{tid, label, shown (its index in the shown source, else null), depths,
/// shared (the outer frames every one of its stacks begins with), calls, states
/// (entries), samples, first_us, last_us, running_us}` (a track of spans
/// too, its tid 2^31 and up); also `counters`, the system's counters of no process.
pub fn tracks_json(profile: &Profile) -> Value {
    let system = &profile.system;
    let mut tracks: Vec<ThreadTrack> = Vec::new();
    let mut at: FxHashMap<u32, usize> = FxHashMap::default();
    // Tracks of spans (async slices) are drawn with their process, like its threads.
    for (index, t) in profile.stacks().threads.iter().enumerate().filter(|(_, t)| !t.heap) {
        if let std::collections::hash_map::Entry::Vacant(entry) = at.entry(t.tid) {
            entry.insert(tracks.len());
            tracks.push(ThreadTrack { shown: Some((index, t)), states: None, samples: None, named: t });
        }
    }
    let states = profile.states_stacks();
    for t in states.into_iter().flat_map(|s| &s.threads).filter(|t| !t.track && !t.states.is_empty()) {
        match at.get(&t.tid) {
            Some(&i) => tracks[i].states = Some(t),
            None => {
                at.insert(t.tid, tracks.len());
                tracks.push(ThreadTrack { shown: None, states: Some(t), samples: None, named: t });
            }
        }
    }
    for t in tracks.iter_mut() {
        t.samples = sampled_thread(profile, t.named.tid);
        // A process is named where any source knows it.
        if t.named.pid.is_none() {
            if let Some(s) = t.states.or(t.samples).filter(|s| s.pid.is_some()) {
                t.named = s;
            }
        }
    }
    let clock = profile.timeline_clock();
    let mut data: Option<(u64, u64)> = None;
    let mut widen = |span: Option<(u64, u64)>| {
        if let Some((from, to)) = span {
            data = Some(data.map_or((from, to), |(f, t)| (f.min(from), t.max(to))));
        }
    };
    for t in &tracks {
        if let Some((_, s)) = t.shown.filter(|(_, s)| s.records > 0) {
            widen(Some((s.first[clock], s.last[clock])));
        }
        widen(t.states.and_then(|s| s.states.span()));
        widen(t.samples.and_then(|s| s.sample_times.span()));
    }
    let us = |ticks: u64| system.micros_at(ticks);
    let running = |t: &ThreadTrack| t.states.and_then(|s| s.sched).map_or(0, |s| s.running);
    let busy = |t: &ThreadTrack| running(t) + t.shown.map_or(0, |(_, s)| s.tree.total_self(Clock::Wall));
    // Processes, busiest first; their threads busiest first.
    let mut processes: Vec<(Option<u32>, Vec<&ThreadTrack>)> = Vec::new();
    for t in &tracks {
        match processes.iter_mut().find(|p| p.0 == t.named.pid) {
            Some(p) => p.1.push(t),
            None => processes.push((t.named.pid, vec![t])),
        }
    }
    for p in processes.iter_mut() {
        p.1.sort_by_key(|t| (std::cmp::Reverse(busy(t)), t.named.tid));
    }
    let weight = |p: &(Option<u32>, Vec<&ThreadTrack>)| p.1.iter().map(|t| busy(t)).sum::<u64>();
    processes.sort_by_key(|p| (p.0.is_none(), std::cmp::Reverse(weight(p)), p.0));
    // A counter goes with its process where that process has a track, else with the system's.
    let grouped: Vec<u32> = processes.iter().filter_map(|p| p.0).collect();
    let counters_of = |pid: Option<u32>| -> Vec<usize> {
        let mine = |c: u32| match pid {
            Some(pid) => c == pid,
            None => c == 0 || !grouped.contains(&c),
        };
        system
            .counters
            .iter()
            .enumerate()
            .filter(|(_, c)| mine(c.pid) && !c.series.is_empty())
            .map(|(i, _)| i)
            .collect()
    };
    let processes: Vec<Value> = processes
        .iter()
        .map(|(pid, threads)| {
            let (main, render) = pid.map_or((None, Vec::new()), |pid| app_threads(profile, pid));
            let name = threads.iter().find_map(|t| t.named.process.clone());
            let threads: Vec<Value> = threads
                .iter()
                .map(|t| {
                    let shown = t.shown.map(|(i, _)| i);
                    let (first, last) = t
                        .shown
                        .filter(|(_, s)| s.records > 0)
                        .map(|(_, s)| (s.first[clock], s.last[clock]))
                        .or_else(|| t.states.and_then(|s| s.states.span()))
                        .or_else(|| t.samples.and_then(|s| s.sample_times.span()))
                        .unwrap_or((0, 0));
                    json!({
                        "tid": t.named.tid, "label": t.named.label(), "shown": shown,
                        "depths": t.shown.map_or(0, |(_, s)| s.calls.depth_count()),
                        "shared": t.shown.map_or(0, |(_, s)| s.tree.shared_depth()),
                        "calls": t.shown.map_or(0, |(_, s)| s.calls.len()),
                        "states": t.states.map_or(0, |s| s.states.len()),
                        "samples": t.samples.map_or(0, |s| s.sample_times.len()),
                        "first_us": us(first), "last_us": us(last),
                        "running_us": profile.stacks().time_unit.micros_f64(running(t)),
                    })
                })
                .collect();
            json!({ "pid": pid, "name": name, "main": main, "render": render, "threads": threads,
                    "counters": pid.map_or(Vec::new(), |pid| counters_of(Some(pid))) })
        })
        .collect();
    json!({
        "data_us": data.map(|(from, to)| [us(from), us(to)]),
        "cpus": system.cpus,
        "processes": processes,
        "counters": counters_of(None),
    })
}
