//! A Perfetto capture's scheduling (who woke each thread, the CPUs it ran on) against the
//! ftrace events read a second way: a walker over the trace's `sched_switch`,
//! `sched_waking` and `sched_wakeup` events written here from `ftrace_event.proto`'s field
//! numbers, sharing no code with the importer.

use droidflame_core::products;
use droidflame_core::profile::SchedState;
use droidflame_core::{analyze_with, Options};
use droidflame_testkit::corpus_file;
use droidflame_testkit::proto_fields::{fields, get, Field};
use std::collections::BTreeMap;

/// A scheduler event: (ts, what).
enum Sched {
    /// cpu, prev tid, prev state bits, next tid.
    Switch(u32, u64, u64, u64),
    /// cpu, writer, woken tid, whether the writer is the waker (`sched_waking`; a
    /// `sched_wakeup` may be written on the woken thread's CPU).
    Wake(u32, u64, u64, bool),
    /// Any other event: its CPU and writer.
    Other(u32, u64),
}

/// Every ftrace event of the trace, in time order (ties in the file's order).
fn sched_events(bytes: &[u8]) -> Vec<(u64, Sched)> {
    let mut events = Vec::new();
    for (field, packet) in fields(bytes) {
        if field != 1 {
            continue;
        }
        let packet = fields(packet.bytes());
        let Some(bundle) = get(&packet, 1) else { continue };
        let bundle = fields(bundle.bytes());
        let cpu = get(&bundle, 1).map_or(0, Field::int) as u32;
        for (_, event) in bundle.iter().filter(|(f, _)| *f == 2) {
            let event = fields(event.bytes());
            let ts = get(&event, 1).map_or(0, Field::int);
            let by = get(&event, 2).map_or(0, Field::int);
            if let Some(switch) = get(&event, 4) {
                let s = fields(switch.bytes());
                let int = |f| get(&s, f).map_or(0, Field::int);
                events.push((ts, Sched::Switch(cpu, int(2), int(4), int(6))));
            } else if let Some(wake) = get(&event, 20) {
                events.push((ts, Sched::Wake(cpu, by, get(&fields(wake.bytes()), 2).map_or(0, Field::int), true)));
            } else if let Some(wake) = get(&event, 17).or_else(|| get(&event, 114)) {
                events.push((ts, Sched::Wake(cpu, by, get(&fields(wake.bytes()), 2).map_or(0, Field::int), false)));
            } else {
                events.push((ts, Sched::Other(cpu, by)));
            }
        }
    }
    events.sort_by_key(|e| e.0);
    events
}

/// Per tid: wakeups by waker, and running ns per CPU (switch-in to switch-out).
type Walked = BTreeMap<u64, (BTreeMap<u64, u32>, BTreeMap<u32, u64>)>;

/// Per tid: its runs on a CPU, `[switch in, switch out)`, in order.
type Runs = BTreeMap<u64, Vec<(u64, u64)>>;

fn walk(events: &[(u64, Sched)], end: u64) -> (Walked, Runs) {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        Unknown,
        Running(u32, u64),
        Waiting,
        Asleep,
    }
    let mut state: BTreeMap<u64, State> = BTreeMap::new();
    let mut out: Walked = BTreeMap::new();
    let mut runs: Runs = BTreeMap::new();
    // A CPU's first event, of any kind, comes from a thread that was running there since
    // before the CPU's buffer begins: it runs from that event on.
    let mut cpus_seen = std::collections::BTreeSet::new();
    for &(ts, ref event) in events {
        let (cpu, by) = match *event {
            Sched::Switch(cpu, prev, ..) => (cpu, prev),
            Sched::Other(cpu, by) | Sched::Wake(cpu, by, ..) => (cpu, by),
        };
        if cpus_seen.insert(cpu) && by != 0 {
            state.insert(by, State::Running(cpu, ts));
        }
        match *event {
            Sched::Other(..) => {}
            Sched::Switch(cpu, prev, prev_state, next) => {
                if prev != 0 {
                    if let Some(State::Running(on, since)) = state.get(&prev).copied() {
                        *out.entry(prev).or_default().1.entry(on).or_default() += ts - since;
                        runs.entry(prev).or_default().push((since, ts));
                    }
                    // No sleeping or dead bit set: preempted, still runnable.
                    let left = if prev_state == 0 || prev_state == 0x100 { State::Waiting } else { State::Asleep };
                    state.insert(prev, left);
                }
                if next != 0 {
                    state.insert(next, State::Running(cpu, ts));
                }
            }
            Sched::Wake(_, by, tid, waking) => {
                let now = state.get(&tid).copied().unwrap_or(State::Unknown);
                if tid != 0 && matches!(now, State::Unknown | State::Asleep) {
                    state.insert(tid, State::Waiting);
                    if let Some(by) = Some(by).filter(|&by| waking && by != tid) {
                        *out.entry(tid).or_default().0.entry(by).or_default() += 1;
                    }
                }
            }
        }
    }
    // What still runs, runs to the trace's end (`end`: packets of other clocks, converted,
    // end it later than its last ftrace event).
    for (tid, s) in state {
        if let State::Running(on, since) = s {
            *out.entry(tid).or_default().1.entry(on).or_default() += end - since;
            runs.entry(tid).or_default().push((since, end));
        }
    }
    (out, runs)
}

/// Every CPU sample with a callstack: (time on the boot clock, tid), in the file's order.
/// The samples' packets name another clock (their own `timestamp_clock_id`, field 58, or
/// their sequence's default, field 59). A clock snapshot (field 6) reads the clocks one
/// after another, boot time first; its monotonic reading ahead of its boot reading is a
/// read delay (the one can never be ahead of the other). The snapshot with the least delay
/// relates the clocks, that delay added to the boot time for clocks listed from the
/// monotonic one on.
fn perf_samples(bytes: &[u8]) -> Vec<(u64, u64)> {
    const BOOTTIME: u64 = 6;
    const MONOTONIC: u64 = 3;
    let mut samples = Vec::new();
    let mut defaults: BTreeMap<u64, u64> = BTreeMap::new();
    // (delay, boot time minus each clock's time)
    let mut best: Option<(u64, BTreeMap<u64, i64>)> = None;
    for (field, packet) in fields(bytes) {
        if field != 1 {
            continue;
        }
        let packet = fields(packet.bytes());
        let sequence = get(&packet, 10).map_or(0, Field::int);
        if let Some(d) = get(&packet, 59) {
            if let Some(clock) = get(&fields(d.bytes()), 58) {
                defaults.insert(sequence, clock.int());
            }
        }
        if let Some(snapshot) = get(&packet, 6) {
            let clocks: Vec<(u64, u64)> = fields(snapshot.bytes())
                .iter()
                .filter(|(f, _)| *f == 1)
                .map(|(_, c)| {
                    let c = fields(c.bytes());
                    (get(&c, 1).map_or(0, Field::int), get(&c, 2).map_or(0, Field::int))
                })
                .collect();
            let reading = |id| clocks.iter().find(|c| c.0 == id).map(|c| c.1);
            let boot = reading(BOOTTIME).unwrap();
            let delay = reading(MONOTONIC).unwrap().saturating_sub(boot);
            if best.as_ref().is_none_or(|b| delay <= b.0) {
                let mono_at = clocks.iter().position(|c| c.0 == MONOTONIC).unwrap();
                let offsets = clocks
                    .iter()
                    .enumerate()
                    .map(|(at, &(id, value))| {
                        (id, (boot + if at >= mono_at { delay } else { 0 }) as i64 - value as i64)
                    })
                    .collect();
                best = Some((delay, offsets));
            }
        }
        let Some(sample) = get(&packet, 66) else { continue };
        let sample = fields(sample.bytes());
        if get(&sample, 4).is_none() {
            continue;
        }
        let ts = get(&packet, 8).map_or(0, Field::int);
        let clock = get(&packet, 58).map(Field::int).or_else(|| defaults.get(&sequence).copied()).unwrap_or(BOOTTIME);
        let boot = if clock == BOOTTIME { ts } else { (ts as i64 + best.as_ref().unwrap().1[&clock]) as u64 };
        samples.push((boot, get(&sample, 3).map_or(0, Field::int)));
    }
    samples
}

#[test]
fn wakers_and_cpus_equal_the_ftrace_events() {
    if !droidflame_testkit::corpus_present("perfetto_sched::wakers_and_cpus_equal_the_ftrace_events") {
        return;
    }
    let bytes = corpus_file("perfetto/mstools-perfetto_android12_cpuschedstack.pftrace");
    let p = analyze_with(&bytes[..], Options { keep_calls: true, ..Options::default() }).unwrap().profile;
    let (walked, _) = walk(&sched_events(&bytes), p.system.timeline.end);
    let stacks = p.states_stacks().expect("the capture has scheduler states");
    let mut given: Walked = BTreeMap::new();
    for t in stacks.threads.iter().filter(|t| !t.states.is_empty()) {
        let s = products::thread_scheduling(t, 0, u64::MAX);
        let row = given.entry(u64::from(t.tid)).or_default();
        row.0 = s.wakers.iter().map(|&(tid, n)| (u64::from(tid), n)).collect();
        row.1 = s.cpus.iter().copied().collect();
    }
    given.retain(|_, (w, c)| !w.is_empty() || !c.is_empty());
    let wakeups: u32 = walked.values().flat_map(|w| w.0.values()).sum();
    assert_eq!(wakeups, 13_772, "wakeups whose waker is known");
    assert_eq!(walked.len(), 284, "threads that ran or were woken");
    assert_eq!(given, walked);
    // The busiest waker of the launcher's RenderThread is its main thread.
    assert_eq!(walked[&2328].0.iter().max_by_key(|w| w.1), Some((&1323, &21)));
}

/// Every CPU sample of the capture lies in a run of its thread on a CPU: the samples are
/// taken at `sched_switch`, so just before each run ends. Checked against the scheduler's
/// runs as the walker reads them, and against the core's states of the same thread.
#[test]
fn samples_fall_in_their_threads_running_spans() {
    if !droidflame_testkit::corpus_present("perfetto_sched::samples_fall_in_their_threads_running_spans") {
        return;
    }
    let bytes = corpus_file("perfetto/mstools-perfetto_android12_cpuschedstack.pftrace");
    let p = analyze_with(&bytes[..], Options { keep_calls: true, ..Options::default() }).unwrap().profile;
    let (_, runs) = walk(&sched_events(&bytes), p.system.timeline.end);
    let samples = perf_samples(&bytes);
    assert_eq!(samples.len(), 5_003);
    // (a) Each thread's sample times are the capture's.
    let mut by_tid: BTreeMap<u64, Vec<u64>> = BTreeMap::new();
    for &(ts, tid) in &samples {
        by_tid.entry(tid).or_default().push(ts);
    }
    by_tid.values_mut().for_each(|times| times.sort_unstable());
    for (&tid, times) in &by_tid {
        let kept = products::sampled_thread(&p, tid as u32).map(|t| t.sample_times.from(0).collect::<Vec<_>>());
        assert_eq!(kept.as_ref(), Some(times), "tid {tid}");
    }
    // (b) Inside the scheduler's window, each sample of a known thread is in one of its runs,
    // or (as the clock snapshots cannot say better: see `perf_samples`) within
    // `UNCERTAIN` of one.
    const UNCERTAIN: u64 = 20_000;
    let events = sched_events(&bytes);
    let window = (events.first().unwrap().0, events.last().unwrap().0);
    let (mut inside, mut near, mut outside, mut unknown_tid) = (0, 0, 0, 0);
    let states = p.states_stacks().unwrap();
    for &(ts, tid) in &samples {
        if tid == u64::from(u32::MAX) {
            unknown_tid += 1;
            continue;
        }
        if ts < window.0 || ts >= window.1 {
            outside += 1;
            continue;
        }
        let t = states.threads.iter().find(|t| u64::from(t.tid) == tid && !t.track).unwrap();
        let state = t.states.at(ts).map(|s| s.entry.state);
        let runs = &runs[&tid];
        if runs.iter().any(|&(from, to)| from <= ts && ts < to) {
            assert_eq!(state, Some(SchedState::Running), "{tid} at {ts}");
            inside += 1;
        } else {
            assert!(runs.iter().any(|&(from, to)| from < ts + UNCERTAIN && ts < to + UNCERTAIN), "{tid} at {ts}");
            assert_ne!(state, Some(SchedState::Running), "{tid} at {ts}");
            near += 1;
        }
    }
    assert_eq!((inside, near, outside, unknown_tid), (4_940, 32, 30, 1));
    // (c) The product counts the same, thread by thread.
    let (mut running, mut unknown) = (0, 0);
    for &tid in by_tid.keys() {
        let (counts, not_known) = products::samples_in_states(&p, tid as u32, 0, u64::MAX);
        running += counts.of(SchedState::Running);
        unknown += not_known;
    }
    assert_eq!(running, 4_945);
    assert!(unknown <= 32, "{unknown}");
    // Marks over the whole trace hold every sample.
    let length = p.system.micros_at(p.system.timeline.end);
    let marked: u32 = by_tid
        .keys()
        .flat_map(|&tid| products::sample_marks(&p, tid as u32, 0.0, length, 2_000))
        .map(|m| m.count)
        .sum();
    assert_eq!(marked, 5_003);
}

/// Samples on the raw monotonic clock, related to the boot clock by snapshots whose reads
/// were delayed, land in the runs they were taken in: the snapshot read closest together is
/// used, less the delay it shows. (Taken as the latest snapshot says, each would land 0.7 ms
/// early, outside its 100 µs run.) One sample before the thread's first state and one while
/// it slept count as such; marks join samples closer than a pixel.
#[test]
fn samples_on_a_delayed_snapshots_clock_land_in_their_runs() {
    use droidflame_testkit::atrace::Capture;
    use droidflame_testkit::perfetto::{from_capture, FromCapture, Message, Trace};
    use droidflame_testkit::perfetto_profiling::{perf_sample, samples_start, CodeFrame, CodeInterner, Timebase};
    const RAW_AHEAD: u64 = 2_000_000;
    // Thread 5 runs on CPU 0 for 100 µs of every ms.
    let mut capture = Capture::new();
    let runs: Vec<u64> = (1..=20).map(|i| i * 1_000_000).collect();
    for &start in &runs {
        capture.switch(0, start, ("swapper/0", 0), "R", ("app", 5));
        capture.switch(0, start + 100_000, ("app", 5), "S", ("swapper/0", 0));
    }
    let mut packets = from_capture(&capture, FromCapture::default());
    // Boot, monotonic, raw: read `delay` apart, the raw clock truly `RAW_AHEAD` ahead.
    for (boot, delay) in [(500_000, 300_000), (700_000, 700_000)] {
        let mut snapshot = Message::new();
        for (clock, value) in [(6, boot), (3, boot + delay), (5, boot + delay + RAW_AHEAD)] {
            snapshot.message(1, Message::new().varint(1, clock).varint(2, value));
        }
        packets.push(Message::new().message(6, &snapshot).clone());
    }
    packets.push(samples_start(2, Timebase::Tracepoint));
    let mut code = CodeInterner::new(1);
    let stack = code.stack(&[CodeFrame::function("main", "/app")]);
    // Before the thread's first state (unknown), then asleep after its first run.
    for at in [500_000, 1_500_000] {
        packets.push(perf_sample(2, &mut code, at + RAW_AHEAD, (5, 5, 0), stack).varint(58, 5).clone());
    }
    for &start in &runs[1..] {
        // 10 µs before the switch out, on the raw clock.
        let mut sample = perf_sample(2, &mut code, start + 90_000 + RAW_AHEAD, (5, 5, 0), stack);
        packets.push(sample.varint(58, 5).clone());
    }
    let bytes = Trace::of(&packets).bytes;
    let p = analyze_with(&bytes[..], Options { keep_calls: true, ..Options::default() }).unwrap().profile;
    let times: Vec<u64> = products::sampled_thread(&p, 5).unwrap().sample_times.from(0).collect();
    let mut expected = vec![500_000, 1_500_000];
    expected.extend(runs[1..].iter().map(|s| s + 90_000));
    assert_eq!(times, expected);
    let (counts, unknown) = products::samples_in_states(&p, 5, 0, u64::MAX);
    assert_eq!((counts.of(SchedState::Running), counts.of(SchedState::Sleeping), unknown), (19, 1, 1));
    let json = products::samples_in_states_json(&p, 5, 0, u64::MAX);
    assert_eq!(
        json,
        serde_json::json!({ "total": 21, "unknown": 1, "states": [
            { "state": "running", "words": "Running", "count": 19 },
            { "state": "sleeping", "words": "Sleeping", "count": 1 },
        ] })
    );
    // Marks join the samples less than a pixel after a mark's first: pixels of 10.5 ms make
    // two (0.5 to 10.09 ms: 11 samples; then 11.09 to 20.09: 10).
    let us = |ns: u64| p.system.micros_at(ns);
    // At 1 ms a pixel the samples at 1.5 and 2.09 ms share a mark; every other is alone.
    let fine: Vec<(f64, f64, u32)> =
        products::sample_marks(&p, 5, 0.0, 21_000.0, 21).iter().map(|m| (m.start_us, m.end_us, m.count)).collect();
    let mut alone: Vec<(f64, f64, u32)> = times.iter().map(|&t| (us(t), us(t), 1)).collect();
    alone.splice(1..3, [(us(1_500_000), us(2_090_000), 2)]);
    assert_eq!(fine, alone);
    let coarse: Vec<(f64, f64, u32)> =
        products::sample_marks(&p, 5, 0.0, 21_000.0, 2).iter().map(|m| (m.start_us, m.end_us, m.count)).collect();
    assert_eq!(coarse, vec![(us(500_000), us(10_090_000), 11), (us(11_090_000), us(20_090_000), 10)]);
    assert!(products::sample_marks(&p, 6, 0.0, 21_000.0, 21).is_empty(), "thread 6 has no samples");
    assert!(
        p.facts.warnings.iter().any(|w| w.text.contains("2 clock snapshots read their clocks as much as 700 µs apart")
            && w.text.contains("less the 300 µs it shows")),
        "{:?}",
        p.facts.warnings
    );
}

/// The timeline's tracks group threads by process, with an app's main thread and
/// RenderThread named, and open on the span that has thread data: from the first CPU
/// sample or ftrace event, not from the frame timeline's first frame at the trace's start.
#[test]
fn tracks_group_threads_by_process_over_the_span_with_data() {
    if !droidflame_testkit::corpus_present("perfetto_sched::tracks_group_threads_by_process_over_the_span_with_data") {
        return;
    }
    let bytes = corpus_file("perfetto/mstools-perfetto_android12_cpuschedstack.pftrace");
    let p = analyze_with(&bytes[..], Options { keep_calls: true, ..Options::default() }).unwrap().profile;
    let tracks = products::tracks_json(&p);
    let events = sched_events(&bytes);
    let first_sample = perf_samples(&bytes).iter().map(|s| s.0).min().unwrap();
    let from = first_sample.min(events[0].0);
    let data = tracks["data_us"].as_array().unwrap();
    assert_eq!(data[0].as_f64(), Some(p.system.micros_at(from)));
    assert!(data[0].as_f64().unwrap() > 27_000_000.0, "{data:?}: the packets begin 27 s earlier");
    let processes = tracks["processes"].as_array().unwrap();
    let chrome = processes.iter().find(|p| p["pid"] == 4692).unwrap();
    assert_eq!((&chrome["main"], &chrome["render"]), (&serde_json::json!(4692), &serde_json::json!([7956])));
    let tids: Vec<u64> = chrome["threads"].as_array().unwrap().iter().map(|t| t["tid"].as_u64().unwrap()).collect();
    assert!(tids.contains(&4692) && tids.contains(&7956), "{tids:?}");
    // Every thread with states or samples has a track, once.
    let all: Vec<u64> =
        processes.iter().flat_map(|p| p["threads"].as_array().unwrap()).map(|t| t["tid"].as_u64().unwrap()).collect();
    let unique: std::collections::BTreeSet<u64> = all.iter().copied().collect();
    assert_eq!(all.len(), unique.len());
    for tid in perf_samples(&bytes).iter().map(|s| s.1).filter(|&t| t != u64::from(u32::MAX)) {
        assert!(unique.contains(&tid), "sampled thread {tid} has a track");
    }
    // The launcher's main thread: the frames every one of its stacks begins with, as the
    // folded stacks of the source shown give them.
    let launcher = processes.iter().flat_map(|p| p["threads"].as_array().unwrap()).find(|t| t["tid"] == 1323).unwrap();
    let folded = products::folded(&p, &products::FoldedOptions::default()).unwrap();
    let stacks: Vec<Vec<&str>> = folded
        .lines()
        .filter(|l| l.starts_with("s.nexuslauncher [1323];"))
        .map(|l| l.rsplit_once(' ').unwrap().0.split(';').skip(1).collect())
        .collect();
    let shared = (0..).take_while(|&d| stacks.iter().all(|s| s.len() > d && s[d] == stacks[0][d])).count();
    assert!(shared > 10, "{shared}: __libc_init to Looper.loop at least");
    assert_eq!(launcher["shared"].as_u64(), Some(shared as u64));
    // A sampled thread's track counts its samples: 1451 is the busiest.
    let t1451 = processes.iter().flat_map(|p| p["threads"].as_array().unwrap()).find(|t| t["tid"] == 1451).unwrap();
    assert_eq!(t1451["samples"], 871);
    assert!(t1451["states"].as_u64().unwrap() > 0);
}

/// Per CPU, per pixel: how much of it the box that covers most of it covers, and that box's
/// thread and whether it is mixed.
type Grid = Vec<Vec<(f64, Option<(usize, bool)>)>>;

/// A whole capture's CPUs from the overview's buckets draw as the runs themselves do: each
/// pixel busy where a run is, give or take the pixel beside it (a bucket counts for the
/// pixel its middle is in), and its thread the one the runs name.
#[test]
fn the_cpu_overview_draws_the_runs_a_wide_window_has() {
    if !droidflame_testkit::corpus_present("perfetto_sched::the_cpu_overview_draws_the_runs_a_wide_window_has") {
        return;
    }
    let bytes = corpus_file("perfetto/mstools-perfetto_android12_cpuschedstack.pftrace");
    let p = analyze_with(&bytes[..], Options { keep_calls: true, ..Options::default() }).unwrap().profile;
    let stacks = p.states_stacks().unwrap();
    let (from, to, pixels) = (27_000_000.0, p.system.micros_at(p.system.timeline.end), 1_280u32);
    let exact = products::cpu_runs(&p.system, stacks, from, to, pixels);
    let fast = products::cpu_boxes(&p, from, to, pixels);
    assert_ne!(exact, fast, "the overview answered");
    let width = (to - from) / f64::from(pixels);
    // Per CPU and pixel: the thread of the box that covers most of it, where one does.
    let columns = |boxes: &[products::CpuBox]| -> Grid {
        let mut grid = vec![vec![(0.0f64, None); pixels as usize]; p.system.cpus as usize];
        for b in boxes {
            let (first, last) = (((b.start_us - from) / width) as usize, ((b.end_us - from) / width).ceil() as usize);
            let row = &mut grid[b.cpu as usize];
            for (px, cell) in row.iter_mut().enumerate().take(last.min(pixels as usize)).skip(first) {
                let (left, right) = (from + px as f64 * width, from + (px + 1) as f64 * width);
                // More than a rounding error of the box's µs.
                let covered = b.end_us.min(right) - b.start_us.max(left);
                if covered > 0.01 && covered > cell.0 {
                    *cell = (covered, Some((b.thread, b.mixed)));
                }
            }
        }
        grid
    };
    let (a, b) = (columns(&exact), columns(&fast));
    let near = |grid: &Grid, cpu: usize, px: usize| {
        (px.saturating_sub(1)..=(px + 1).min(pixels as usize - 1)).any(|q| grid[cpu][q].1.is_some())
    };
    let (mut busy, mut agree, mut whole, mut same) = (0, 0, 0, 0);
    for cpu in 0..p.system.cpus as usize {
        for px in 0..pixels as usize {
            let (x, y) = (a[cpu][px].1, b[cpu][px].1);
            if x.is_some() || y.is_some() {
                busy += 1;
                agree += usize::from((x.is_none() || near(&b, cpu, px)) && (y.is_none() || near(&a, cpu, px)));
            }
            if let (Some((tx, false)), Some((ty, false))) = (x, y) {
                whole += 1;
                same += usize::from(tx == ty);
            }
        }
    }
    assert!(busy > 2_000, "{busy} busy pixels");
    assert_eq!(agree, busy, "every busy pixel of one has a busy pixel at or beside it in the other");
    assert!(same as f64 >= 0.95 * whole as f64, "one thread: {same} of {whole} agree");
}

/// A CPU sample's stack at a tick: the sample nearest the middle of the span asked about,
/// with the frames its stack had, root first; none where the span has no sample.
#[test]
fn a_sample_at_a_tick_gives_its_stack() {
    use droidflame_testkit::perfetto::{Message, Trace};
    use droidflame_testkit::perfetto_profiling::{perf_sample, samples_start, CodeFrame, CodeInterner, Timebase};
    let mut snapshot = Message::new();
    for (clock, value) in [(6, 500_000), (3, 500_000), (5, 500_000)] {
        snapshot.message(1, Message::new().varint(1, clock).varint(2, value));
    }
    let mut packets = vec![Message::new().message(6, &snapshot).clone(), samples_start(2, Timebase::Tracepoint)];
    let mut code = CodeInterner::new(1);
    let work = code.stack(&[CodeFrame::function("main", "/app"), CodeFrame::function("work", "/app")]);
    let poll = code.stack(&[
        CodeFrame::function("main", "/app"),
        CodeFrame::function("idle", "/app"),
        CodeFrame::function("poll", "/libc.so"),
    ]);
    // Every ms from 1 to 6 ms: work, work, poll, work, poll, poll.
    for (ms, stack) in [(1, work), (2, work), (3, poll), (4, work), (5, poll), (6, poll)] {
        packets.push(perf_sample(2, &mut code, ms * 1_000_000, (5, 5, 0), stack).varint(58, 6).clone());
    }
    let p = analyze_with(&Trace::of(&packets).bytes[..], Options { keep_calls: true, ..Options::default() })
        .unwrap()
        .profile;
    let first = p.system.micros_at(1_000_000);
    let at = |from: f64, to: f64| products::sample_at_json(&p, 5, first + from, first + to);
    let frames = |json: &serde_json::Value| {
        json["frames"].as_array().unwrap().iter().map(|f| f["name"].as_str().unwrap().to_owned()).collect::<Vec<_>>()
    };
    // Around 3 ms: the poll sample, alone in the span.
    let third = at(1_900.0, 2_100.0);
    assert_eq!((third["time_us"].as_f64(), third["count"].as_u64()), (Some(first + 2_000.0), Some(1)));
    assert_eq!(frames(&third), ["main", "idle", "poll"]);
    // A span over two samples gives the one nearest its middle: 4 ms, work.
    let middle = at(1_700.0, 3_400.0);
    assert_eq!((middle["time_us"].as_f64(), middle["count"].as_u64()), (Some(first + 3_000.0), Some(2)));
    assert_eq!(frames(&middle), ["main", "work"]);
    // The nearest to the middle, not the last: 3 ms, poll; of two as near, the earlier.
    assert_eq!(at(1_100.0, 3_300.0)["time_us"].as_f64(), Some(first + 2_000.0));
    assert_eq!(at(1_500.0, 3_500.0)["time_us"].as_f64(), Some(first + 2_000.0));
    assert_eq!(frames(&at(-100.0, 100.0)), ["main", "work"]);
    assert_eq!(frames(&at(4_900.0, 5_100.0)), ["main", "idle", "poll"], "the last sample");
    assert!(at(300.0, 700.0).is_null(), "no sample between 1 and 2 ms");
    assert!(products::sample_at_json(&p, 6, 0.0, 1e9).is_null(), "thread 6 has no samples");
    // The graph counts its samples once: "6 samples in all", not "(samples)" after it.
    let index = p.stacks().threads.iter().position(|t| t.tid == 5).unwrap();
    let svg = products::flame_svg(&p, products::GraphScope::Thread(index), &products::FlameOptions::default()).unwrap();
    assert!(svg.contains(">6 samples in all<"), "{}", &svg[..svg.len().min(3000)]);
}
