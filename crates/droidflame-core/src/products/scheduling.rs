//! Where each thread's time went by the scheduler over a span: its time in every state, the
//! part of its uninterruptible sleep spent waiting for I/O, who woke it most, and the CPUs it
//! ran on. The Scheduling table reads it for the whole trace or a range, a call's details
//! for the call's span.

use crate::profile::{Profile, SchedState, StackProfile, StateTimes, ThreadProfile};
use rustc_hash::FxHashMap;
use serde_json::{json, Value};

/// The wakers a row names: the ones that woke the thread most.
pub const TOP_WAKERS: usize = 3;

/// One thread's scheduling over a span, in ticks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ThreadScheduling {
    /// Time in each state.
    pub times: StateTimes,
    /// The part of the uninterruptible sleep the trace marks as waiting for I/O.
    pub io_wait: u64,
    /// Wakeups that began in the span, the waker known or not.
    pub wakeups: u32,
    /// `(waker tid, wakeups)`, most first (ties: lower tid first); tid 0 is an interrupt.
    pub wakers: Vec<(u32, u32)>,
    /// `(cpu, running ticks)`, most first (ties: lower CPU first).
    pub cpus: Vec<(u32, u64)>,
}

/// Thread `t`'s scheduling within `from..to` (ticks).
pub fn thread_scheduling(t: &ThreadProfile, from: u64, to: u64) -> ThreadScheduling {
    let mut out = ThreadScheduling::default();
    let mut cpus: Vec<u64> = Vec::new();
    for span in t.states.spans(from, to) {
        let (e, ticks) = (&span.entry, span.duration());
        out.times.add(e.state, ticks);
        match e.state {
            SchedState::Uninterruptible if e.io_wait => out.io_wait += ticks,
            SchedState::Running => {
                if let Some(cpu) = e.cpu.map(|c| c as usize) {
                    if cpus.len() <= cpu {
                        cpus.resize(cpu + 1, 0);
                    }
                    cpus[cpu] += ticks;
                }
            }
            _ => {}
        }
    }
    let mut wakers: Vec<(u32, u32)> = Vec::new();
    for e in t.states.entries(from, to).filter(|e| e.state == SchedState::Runnable) {
        out.wakeups += 1;
        if let Some(waker) = e.waker {
            match wakers.iter_mut().find(|w| w.0 == waker) {
                Some(w) => w.1 += 1,
                None => wakers.push((waker, 1)),
            }
        }
    }
    wakers.sort_unstable_by_key(|&(tid, n)| (std::cmp::Reverse(n), tid));
    out.wakers = wakers;
    out.cpus = cpus.into_iter().enumerate().filter(|&(_, t)| t > 0).map(|(c, t)| (c as u32, t)).collect();
    out.cpus.sort_by_key(|&(cpu, t)| (std::cmp::Reverse(t), cpu));
    out
}

/// Every thread with scheduler states, its scheduling between `from_us` and `to_us` as JSON,
/// the most running first: `thread` (index among the threads with states), `shown` (its
/// index in the shown source's summary, else null), `tid`, `pid`, `label`, `process`, each
/// state's µs (`running_us`, `runnable_us`, `preempted_us`, `sleeping_us`,
/// `uninterruptible_us`, `io_wait_us`), `wakeups`, `wakers` (`{tid, name, count}`, at most
/// `TOP_WAKERS`) and `cpus` (`{cpu, us}`). An empty array where the trace has no states.
pub fn scheduling_json(profile: &Profile, from_us: f64, to_us: f64) -> Value {
    let Some(stacks) = profile.states_stacks() else {
        return Value::Array(Vec::new());
    };
    let shown = shown_index(profile.stacks());
    let (from, to) = (profile.system.ticks_at(from_us), profile.system.ticks_at(to_us));
    let mut rows: Vec<(u64, Value)> = stacks
        .threads
        .iter()
        .enumerate()
        .filter(|(_, t)| !t.states.is_empty())
        .map(|(index, t)| {
            let s = thread_scheduling(t, from, to);
            let mut row = scheduling_of(stacks, &s);
            row["thread"] = json!(index);
            row["shown"] = json!((!t.track).then(|| shown.get(&t.tid).copied()).flatten());
            row["tid"] = json!(t.shown_tid());
            row["pid"] = json!(t.pid);
            row["label"] = json!(t.label());
            row["process"] = json!(t.process);
            (s.times.of(SchedState::Running), row)
        })
        .collect();
    rows.sort_by_key(|(running, _)| std::cmp::Reverse(*running));
    Value::Array(rows.into_iter().map(|(_, row)| row).collect())
}

/// One thread's scheduling (`stacks.threads[thread]`) within `from..to` ticks as the rows of
/// `scheduling_json` give it, without the thread's own names; `null` where it has no states.
pub fn thread_scheduling_json(stacks: &StackProfile, thread: usize, from: u64, to: u64) -> Value {
    match stacks.threads.get(thread).filter(|t| !t.states.is_empty()) {
        Some(t) => scheduling_of(stacks, &thread_scheduling(t, from, to)),
        None => Value::Null,
    }
}

fn scheduling_of(stacks: &StackProfile, s: &ThreadScheduling) -> Value {
    let us = |ticks: u64| stacks.time_unit.micros_f64(ticks);
    let wakers: Vec<Value> = s
        .wakers
        .iter()
        .take(TOP_WAKERS)
        .map(|&(tid, count)| json!({ "tid": tid, "name": waker_name(stacks, tid), "count": count }))
        .collect();
    let cpus: Vec<Value> = s.cpus.iter().map(|&(cpu, t)| json!({ "cpu": cpu, "us": us(t) })).collect();
    json!({
        "running_us": us(s.times.of(SchedState::Running)),
        "runnable_us": us(s.times.of(SchedState::Runnable)),
        "preempted_us": us(s.times.of(SchedState::Preempted)),
        "sleeping_us": us(s.times.of(SchedState::Sleeping)),
        "uninterruptible_us": us(s.times.of(SchedState::Uninterruptible)),
        "io_wait_us": us(s.io_wait),
        "wakeups": s.wakeups, "wakers": wakers, "cpus": cpus,
    })
}

/// A waker's name: tid 0 is the idle task, so an interrupt woke the thread.
pub(crate) fn waker_name(stacks: &StackProfile, tid: u32) -> String {
    if tid == 0 {
        return "an interrupt (the idle task)".to_owned();
    }
    stacks.threads.iter().find(|t| t.tid == tid && !t.track).map_or(format!("Thread {tid}"), |t| t.label())
}

/// Each thread's (not track's) index in `stacks` by tid.
fn shown_index(stacks: &StackProfile) -> FxHashMap<u32, usize> {
    let mut index = FxHashMap::default();
    for (at, t) in stacks.threads.iter().enumerate().filter(|(_, t)| !t.track) {
        index.entry(t.tid).or_insert(at);
    }
    index
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze_with;
    use crate::options::Options;

    /// An atrace line at `us` µs on `cpu`, written by `writer` (`name-tid`).
    fn line(text: &mut String, writer: &str, cpu: u32, us: u64, event: &str) {
        text.push_str(&format!("  {writer} [{cpu:03}] .... {}.{:06}: {event}\n", us / 1_000_000, us % 1_000_000));
    }

    fn switch(prev: (&str, u32, &str), next: (&str, u32)) -> String {
        format!(
            "sched_switch: prev_comm={} prev_pid={} prev_prio=120 prev_state={} ==> next_comm={} next_pid={} next_prio=120",
            prev.0, prev.1, prev.2, next.0, next.1
        )
    }

    #[test]
    fn a_threads_states_wakers_and_cpus_add_up_by_hand() {
        let mut t = String::from("# tracer: nop\n");
        line(&mut t, "<idle>-0", 0, 0, &switch(("swapper", 0, "R"), ("app", 5)));
        line(&mut t, "app-5", 0, 1_000, &switch(("app", 5, "D"), ("swapper", 0)));
        line(&mut t, "app-5", 0, 1_000, "sched_blocked_reason: pid=5 iowait=1 caller=io_schedule+0x10/0x40");
        line(&mut t, "waker-7", 1, 3_000, "sched_waking: comm=app pid=5 prio=120 target_cpu=002");
        line(&mut t, "<idle>-0", 2, 3_500, &switch(("swapper", 0, "R"), ("app", 5)));
        line(&mut t, "app-5", 2, 4_500, &switch(("app", 5, "R+"), ("swapper", 0)));
        line(&mut t, "<idle>-0", 2, 5_000, &switch(("swapper", 0, "R"), ("app", 5)));
        line(&mut t, "app-5", 2, 6_000, &switch(("app", 5, "S"), ("swapper", 0)));
        line(&mut t, "waker-7", 1, 7_000, &switch(("waker", 7, "S"), ("swapper", 0)));
        // Another thread in D, not waiting for I/O: uninterruptible sleep, none of it I/O.
        line(&mut t, "<idle>-0", 3, 6_000, &switch(("swapper", 0, "R"), ("disk", 9)));
        line(&mut t, "disk-9", 3, 6_500, &switch(("disk", 9, "D"), ("swapper", 0)));
        line(&mut t, "disk-9", 3, 6_500, "sched_blocked_reason: pid=9 iowait=0 caller=mutex_lock+0x10/0x40");
        line(&mut t, "<idle>-0", 3, 7_500, &switch(("swapper", 0, "R"), ("disk", 9)));
        let p = analyze_with(t.as_bytes(), Options { keep_calls: true, ..Options::default() }).unwrap().profile;
        let rows = scheduling_json(&p, 0.0, 7_000.0);
        let app = rows.as_array().unwrap().iter().find(|r| r["tid"] == 5).unwrap();
        let us = |key: &str| app[key].as_f64().unwrap();
        assert_eq!(
            [us("running_us"), us("runnable_us"), us("preempted_us"), us("uninterruptible_us"), us("io_wait_us")],
            [3_000.0, 500.0, 500.0, 2_000.0, 2_000.0]
        );
        assert_eq!(us("sleeping_us"), 1_000.0, "asleep from 6 ms to the trace's end");
        assert_eq!(app["wakeups"], 1);
        assert_eq!(app["wakers"], json!([{ "tid": 7, "name": "waker [7]", "count": 1 }]));
        assert_eq!(app["cpus"], json!([{ "cpu": 2, "us": 2_000.0 }, { "cpu": 0, "us": 1_000.0 }]));
        assert_eq!(app["label"], "app [5]");
        // The most running first: the waker ran from its CPU's first event (3 ms) to 7 ms.
        assert_eq!((&rows[0]["tid"], &rows[0]["running_us"], &rows[1]["tid"]), (&json!(7), &json!(4_000.0), &json!(5)));
        let disk = rows.as_array().unwrap().iter().find(|r| r["tid"] == 9).unwrap();
        // Its D from 6.5 ms, within the window to 7 ms.
        assert_eq!((&disk["uninterruptible_us"], &disk["io_wait_us"]), (&json!(500.0), &json!(0.0)));
        // Within 3.2–5.2 ms: runnable to 3.5, running to 4.5, preempted to 5.0, running on.
        let part = scheduling_json(&p, 3_200.0, 5_200.0);
        let app = part.as_array().unwrap().iter().find(|r| r["tid"] == 5).unwrap();
        assert_eq!(
            [&app["runnable_us"], &app["running_us"], &app["preempted_us"], &app["wakeups"]],
            [&json!(300.0), &json!(1_200.0), &json!(500.0), &json!(0)]
        );
    }
}
