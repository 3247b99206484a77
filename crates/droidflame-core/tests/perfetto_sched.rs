//! A Perfetto capture's scheduling (who woke each thread, the CPUs it ran on) against the
//! ftrace events read a second way: a walker over the trace's `sched_switch`,
//! `sched_waking` and `sched_wakeup` events written here from `ftrace_event.proto`'s field
//! numbers, sharing no code with the importer.

use droidflame_core::products;
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

fn walk(events: &[(u64, Sched)], end: u64) -> Walked {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        Unknown,
        Running(u32, u64),
        Waiting,
        Asleep,
    }
    let mut state: BTreeMap<u64, State> = BTreeMap::new();
    let mut out: Walked = BTreeMap::new();
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
        }
    }
    out
}

#[test]
fn wakers_and_cpus_equal_the_ftrace_events() {
    if !droidflame_testkit::corpus_present("perfetto_sched::wakers_and_cpus_equal_the_ftrace_events") {
        return;
    }
    let bytes = corpus_file("perfetto/mstools-perfetto_android12_cpuschedstack.pftrace");
    let p = analyze_with(&bytes[..], Options { keep_calls: true, ..Options::default() }).unwrap().profile;
    let walked = walk(&sched_events(&bytes), p.system.timeline.end);
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
