//! Threads' scheduler states over time: written captures for each state and its details
//! (CPU, waker, blocked function), the corpus's blocked reasons, and a real capture's
//! states against its own totals and the rule that a CPU runs one thread at a time.

use droidflame_core::profile::{SchedState, StateSpan};
use droidflame_core::{analyze_with, products, Options, Profile};
use droidflame_testkit::atrace::Capture;
use droidflame_testkit::corpus_file;

const MS: u64 = 1_000_000;

fn kept(bytes: &[u8]) -> Profile {
    analyze_with(bytes, Options { keep_calls: true, ..Options::default() }).unwrap().into_profile()
}

fn states(p: &Profile, tid: u32) -> Vec<StateSpan> {
    let t = p.stacks().threads.iter().find(|t| t.tid == tid).unwrap();
    t.states.spans(0, u64::MAX).collect()
}

/// Thread 5 runs on CPU 1, is preempted, runs, blocks uninterruptible in `io_schedule`
/// (waiting for I/O), is woken by thread 7 and runs to the end.
#[test]
fn each_state_has_its_details() {
    let mut c = Capture::new();
    c.switch(1, 0, ("swapper/1", 0), "R", ("app", 5))
        .mark("app", 5, 5, MS, "B|5|work")
        .switch(1, 2 * MS, ("app", 5), "R+", ("other", 6))
        .switch(1, 3 * MS, ("other", 6), "S", ("app", 5))
        .switch(1, 6 * MS, ("app", 5), "D", ("swapper/1", 0))
        .event("swapper/1", 0, 0, 1, 6 * MS + 1, "sched_blocked_reason", "pid=5 iowait=1 caller=io_schedule+0x12/0x40")
        .switch(2, 7 * MS, ("swapper/2", 0), "R", ("waker", 7))
        .event("waker", 7, 7, 2, 8 * MS, "sched_waking", "comm=app pid=5 prio=120 target_cpu=001")
        .switch(1, 9 * MS, ("swapper/1", 0), "R", ("app", 5))
        .mark("app", 5, 5, 10 * MS, "E|5");
    let p = kept(&c.text());
    let got: Vec<(u64, u64, SchedState)> =
        states(&p, 5).iter().map(|s| (s.entry.start / MS, s.end / MS, s.entry.state)).collect();
    assert_eq!(
        got,
        [
            (0, 2, SchedState::Running),
            (2, 3, SchedState::Preempted),
            (3, 6, SchedState::Running),
            (6, 8, SchedState::Uninterruptible),
            (8, 9, SchedState::Runnable),
            (9, 10, SchedState::Running),
        ]
    );
    let spans = states(&p, 5);
    assert!(spans.iter().filter(|s| s.entry.state == SchedState::Running).all(|s| s.entry.cpu == Some(1)));
    let blocked = spans[3].entry;
    assert_eq!(blocked.blocked.map(|f| p.system.blocked_functions[f as usize].as_str()), Some("io_schedule"));
    assert!(blocked.io_wait);
    assert_eq!(spans[4].entry.waker, Some(7), "woken by the thread that wrote sched_waking");
    // The thread's totals are its states'.
    let t = p.stacks().threads.iter().find(|t| t.tid == 5).unwrap();
    assert_eq!(t.states.times(0, u64::MAX).sched(), t.sched.unwrap());
    // A range's scheduling is the range's: 2.5..6.5 ms is 3 ms running, 0.5 preempted,
    // 0.5 uninterruptible.
    let cut = p.within(5 * MS / 2, 13 * MS / 2).unwrap();
    let sched = cut.stacks().threads.iter().find(|t| t.tid == 5).unwrap().sched.unwrap();
    assert_eq!((sched.running, sched.runnable, sched.sleeping, sched.uninterruptible), (3 * MS, MS / 2, 0, MS / 2 + 1));
}

#[test]
fn without_kept_calls_no_states_are_held() {
    let mut c = Capture::new();
    c.switch(0, 0, ("swapper/0", 0), "R", ("app", 5)).switch(0, MS, ("app", 5), "S", ("swapper/0", 0));
    let p = droidflame_core::analyze(&c.text()).unwrap();
    assert!(p.profile.stacks().threads.iter().all(|t| t.states.is_empty()));
    assert!(p.profile.stacks().threads.iter().any(|t| t.sched.is_some()));
}

/// SOURCES.md: two threads switched out in `D`, each followed by a blocked reason.
#[test]
fn corpus_blocked_reasons_name_their_functions() {
    if !droidflame_testkit::corpus_present("thread_states::corpus_blocked_reasons_name_their_functions") {
        return;
    }
    let p = kept(&corpus_file("atrace/perfetto-sched_blocked_systrace.systrace"));
    let blocked = |tid: u32| {
        let span = *states(&p, tid).iter().find(|s| s.entry.state == SchedState::Uninterruptible).unwrap();
        (span.entry.blocked.map(|f| p.system.blocked_functions[f as usize].clone()), span.entry.io_wait)
    };
    assert_eq!(blocked(269), (Some("worker_thread".to_owned()), false));
    assert_eq!(blocked(2172), (Some("__filemap_fdatawait_range".to_owned()), true));
}

/// A 2019 device capture (8 CPUs, 8,445 switches, 4,446 wakings, 230 blocked reasons): each
/// thread's states add up to its totals, each CPU runs one thread at a time, and a thread
/// woken by `sched_waking` knows its waker.
#[test]
fn a_device_captures_states_are_consistent() {
    if !droidflame_testkit::corpus_present("thread_states::a_device_captures_states_are_consistent") {
        return;
    }
    let p = kept(&corpus_file("perfetto/toolsbase-perflib-perfetto.trace"));
    let mut running: Vec<(u32, u64, u64)> = Vec::new();
    let (mut woken, mut with_waker, mut uninterruptible) = (0, 0, 0);
    for t in p.stacks().threads.iter().filter(|t| !t.states.is_empty()) {
        assert_eq!(t.states.times(0, u64::MAX).sched(), t.sched.unwrap(), "thread {}", t.tid);
        for s in t.states.spans(0, u64::MAX) {
            match s.entry.state {
                SchedState::Running => running.push((s.entry.cpu.unwrap(), s.entry.start, s.end)),
                SchedState::Runnable => {
                    woken += 1;
                    with_waker += u32::from(s.entry.waker.is_some());
                }
                SchedState::Uninterruptible => uninterruptible += 1,
                _ => {}
            }
        }
    }
    running.sort_unstable();
    assert!(running.iter().all(|&(cpu, _, _)| cpu < 8));
    let overlaps = running.windows(2).filter(|w| w[0].0 == w[1].0 && w[1].1 < w[0].2).count();
    assert_eq!(overlaps, 0, "a CPU ran two threads at once");
    assert!(woken > 1000 && with_waker * 10 > woken * 9, "{with_waker} of {woken} woken threads have a waker");
    assert!(uninterruptible > 0);
}

/// The capture of `each_state_has_its_details`, seen per CPU: CPU 1 runs the app, then
/// `other`, the app again; CPU 2 runs the waker.
#[test]
fn each_cpu_shows_the_threads_it_ran() {
    let mut c = Capture::new();
    c.switch(1, 0, ("swapper/1", 0), "R", ("app", 5))
        .switch(1, 2 * MS, ("app", 5), "R+", ("other", 6))
        .switch(1, 3 * MS, ("other", 6), "S", ("app", 5))
        .switch(1, 6 * MS, ("app", 5), "D", ("swapper/1", 0))
        .switch(2, 7 * MS, ("swapper/2", 0), "R", ("waker", 7))
        .switch(1, 9 * MS, ("swapper/1", 0), "R", ("app", 5))
        .event("app", 5, 5, 1, 10 * MS, "cpu_frequency", "state=1900800 cpu_id=1");
    let p = kept(&c.text());
    assert_eq!(p.system.cpus, 3);
    let tid = |i: usize| p.stacks().threads[i].tid;
    let boxes: Vec<(u32, u64, u64, u32)> = products::cpu_runs(&p.system, p.stacks(), 0.0, 10_000.0, 1000)
        .iter()
        .map(|b| (b.cpu, b.start_us as u64, b.end_us as u64, tid(b.thread)))
        .collect();
    assert_eq!(
        boxes,
        [(1, 0, 2_000, 5), (1, 2_000, 3_000, 6), (1, 3_000, 6_000, 5), (1, 9_000, 10_000, 5), (2, 7_000, 10_000, 7)]
    );
    let at = products::cpu_at_json(&p.system, p.stacks(), 1, 2_500.0);
    assert_eq!((at["label"].as_str(), at["words"].as_str()), (Some("other [6]"), Some("Running")));
    // CPU 1 was idle from 6 to 9 ms; CPU 2 from the start to 7 ms, and CPU 0 all along.
    let idle = |cpu, at| {
        let json = products::cpu_at_json(&p.system, p.stacks(), cpu, at);
        (json["idle"].as_bool(), json["start_us"].as_f64(), json["end_us"].as_f64())
    };
    assert_eq!(idle(1, 7_000.0), (Some(true), Some(6_000.0), Some(9_000.0)));
    assert_eq!(idle(1, 6_000.0), (Some(true), Some(6_000.0), Some(9_000.0)), "from the moment the run ended");
    assert_eq!(idle(2, 3_000.0), (Some(true), None, Some(7_000.0)));
    assert_eq!(idle(0, 5_000.0), (Some(true), None, None));
    assert_eq!(products::cpu_at_json(&p.system, p.stacks(), 1, 9_500.0)["idle"], serde_json::Value::Null);
    // CPU frequency is a counter of no process, in kHz.
    let freq = p.system.counters.iter().find(|c| c.name == "CPU 1 frequency").unwrap();
    assert_eq!((freq.pid, freq.last, freq.series.len(), freq.unit.as_str()), (0, 1_900_800, 1, "kHz"));
}

/// A counter's values over time, merged to pixels where they change faster.
#[test]
fn a_counter_steps_through_its_values() {
    let mut c = Capture::new();
    c.mark("app", 5, 5, 0, "C|5|queue|1").mark("app", 5, 5, 4 * MS, "C|5|queue|3");
    for i in 0..10u64 {
        c.mark("app", 5, 5, 5 * MS + i * 10_000, &format!("C|5|queue|{}", 10 + i));
    }
    c.mark("app", 5, 5, 10 * MS, "C|5|queue|2");
    let p = kept(&c.text());
    let queue = p.system.counters.iter().position(|c| c.name == "queue").unwrap();
    let steps = products::counter_steps(&p.system, queue, 0.0, 10_000.0, 100);
    let first: Vec<(u64, u64, i64, i64)> =
        steps.iter().take(2).map(|s| (s.start_us as u64, s.end_us as u64, s.min, s.max)).collect();
    assert_eq!(first, [(0, 4_000, 1, 1), (4_000, 5_000, 3, 3)]);
    // Ten values within 100 µs (a pixel): one step from the least to the most but the
    // last, which holds for 4.9 ms, a step of its own.
    assert_eq!((steps[2].min, steps[2].max), (10, 18));
    assert_eq!((steps[3].min, steps[3].max, steps[3].end_us as u64), (19, 19, 10_000));
    assert_eq!(products::counter_at(&p.system, queue, 4_500.0), Some((3, 4_000.0)));
    assert_eq!(products::counter_at(&p.system, queue, 10_000.0).map(|v| v.0), Some(2));
}

/// SOURCES.md: 308 cpu_frequency events on a device of 8 CPUs.
#[test]
fn a_device_captures_cpu_frequencies_are_counters() {
    if !droidflame_testkit::corpus_present("thread_states::a_device_captures_cpu_frequencies_are_counters") {
        return;
    }
    let p = kept(&corpus_file("perfetto/toolsbase-perflib-perfetto.trace"));
    let frequencies: Vec<_> = p.system.counters.iter().filter(|c| c.name.ends_with(" frequency")).collect();
    assert_eq!(frequencies.iter().map(|c| c.samples).sum::<u64>(), 308);
    assert!(frequencies.iter().all(|c| c.pid == 0 && c.series.len() as u64 == c.samples));
    assert_eq!(p.system.cpus, 8);
    // What each CPU ran adds up to the threads' running time in the window drawn.
    let running: u64 = p.stacks().threads.iter().filter_map(|t| t.sched).map(|s| s.running).sum();
    let drawn: f64 =
        products::cpu_runs(&p.system, p.stacks(), 0.0, p.system.micros_at(p.system.timeline.end), 1_000_000)
            .iter()
            .map(|b| b.end_us - b.start_us)
            .sum();
    assert!((drawn - p.micros(running) as f64).abs() < 1_000.0, "{drawn} against {}", p.micros(running));
}

/// The states of `tid`, as (start ms, end ms, state, CPU); none for a thread not listed.
fn states_ms(p: &Profile, tid: u32) -> Vec<(u64, u64, SchedState, Option<u32>)> {
    let Some(t) = p.stacks().threads.iter().find(|t| t.tid == tid) else {
        return Vec::new();
    };
    t.states.spans(0, u64::MAX).map(|s| (s.entry.start / MS, s.end / MS, s.entry.state, s.entry.cpu)).collect()
}

/// A CPU's first event comes before any switch there: its writer is running from then,
/// even a thread last seen switched out elsewhere (its switch in is older than the CPU's
/// buffer kept). Later writers on that CPU, the idle task and CPUs from 4,096 on are not.
#[test]
fn a_cpus_first_writer_is_running_there() {
    let mut c = Capture::new();
    c.event("other", 6, 6, 1, MS, "irq_handler_entry", "irq=1 name=a")
        .event("<idle>", 0, 0, 3, MS, "cpu_idle", "state=1 cpu_id=3")
        .switch(0, 2 * MS, ("swapper/0", 0), "R", ("app", 5))
        .switch(0, 4 * MS, ("app", 5), "S", ("swapper/0", 0))
        .event("app", 5, 5, 2, 6 * MS, "irq_handler_entry", "irq=2 name=b")
        .event("app", 5, 5, 1, 7 * MS, "irq_handler_entry", "irq=1 name=a")
        .event("far", 8, 8, 4096, 7 * MS, "irq_handler_entry", "irq=3 name=c")
        .event("edge", 9, 9, 4095, 7 * MS, "irq_handler_entry", "irq=4 name=d")
        .switch(2, 8 * MS, ("app", 5), "S", ("swapper/2", 0))
        .switch(1, 9 * MS, ("other", 6), "D", ("swapper/1", 0));
    let p = kept(&c.text());
    use SchedState::*;
    assert_eq!(
        states_ms(&p, 5),
        [(2, 4, Running, Some(0)), (4, 6, Sleeping, None), (6, 8, Running, Some(2)), (8, 9, Sleeping, None)]
    );
    let app = p.stacks().threads.iter().find(|t| t.tid == 5).unwrap().sched.unwrap();
    assert_eq!((app.running, app.sleeping), (4 * MS, 3 * MS));
    assert_eq!(states_ms(&p, 6), [(1, 9, Running, Some(1))]);
    assert_eq!(states_ms(&p, 9), [(7, 9, Running, Some(4095))]);
    assert!(p.stacks().threads.iter().all(|t| t.tid != 8 && t.tid != 0), "CPU 4096 and the idle task are not tracked");
}

/// A capture of kernel events alone draws states as frames; a CPU's first writer's state,
/// a guess until the first switch confirms it, is a frame from the writer's event, once.
#[test]
fn a_guessed_state_is_a_frame_from_its_start_once_a_switch_confirms_it() {
    let mut c = Capture::new();
    c.event("app", 5, 5, 0, MS, "irq_handler_entry", "irq=1 name=a")
        .switch(1, 3 * MS, ("swapper/1", 0), "R", ("other", 6))
        .switch(0, 9 * MS, ("app", 5), "S", ("swapper/0", 0))
        .switch(1, 10 * MS, ("other", 6), "S", ("swapper/1", 0));
    let p = droidflame_core::analyze(&c.text()).unwrap();
    let app = p.profile.stacks().threads.iter().find(|t| t.tid == 5).unwrap();
    let frames: Vec<(String, u64, u64)> = app
        .tree
        .nodes()
        .iter()
        .skip(1)
        .map(|n| (p.profile.frames[n.frame as usize].name.clone(), p.profile.micros(n.incl.wall), n.calls))
        .collect();
    assert_eq!(frames, [("Running".to_owned(), 8_000, 1), ("Sleeping".to_owned(), 1_000, 1)]);
}

/// A switch naming a thread id no kernel gives (2^31 and up) is refused whole, as is the
/// waking of one; a waking written in the woken thread's own name names no waker.
#[test]
fn what_names_no_thread_changes_no_state() {
    let mut c = Capture::new();
    c.switch(0, MS, ("swapper/0", 0), "R", ("app", 5))
        .switch(0, 2 * MS, ("app", 5), "S", ("bad", 1 << 31))
        .event("app", 5, 5, 0, 2 * MS, "sched_waking", "comm=bad pid=2147483648 prio=120 target_cpu=000")
        .switch(0, 3 * MS, ("app", 5), "S", ("swapper/0", 0))
        .event("app", 5, 5, 0, 4 * MS, "sched_waking", "comm=app pid=5 prio=120 target_cpu=000")
        .switch(0, 5 * MS, ("swapper/0", 0), "R", ("app", 5))
        .switch(0, 6 * MS, ("app", 5), "S", ("swapper/0", 0));
    let p = kept(&c.text());
    use SchedState::*;
    assert_eq!(
        states_ms(&p, 5),
        [(1, 3, Running, Some(0)), (3, 4, Sleeping, None), (4, 5, Runnable, None), (5, 6, Running, Some(0))]
    );
    assert!(p.stacks().threads.iter().all(|t| t.tid < 1 << 31));
}
