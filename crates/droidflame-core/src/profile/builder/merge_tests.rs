//! Reading in two parts gives what reading once gives: a builder fed every event, and one
//! fed the events up to a split merged with one that continued from there, finish into the
//! same profile, split at every event of streams of calls, of samples and of scheduler
//! states.

use super::spec::FinishSpec;
use super::ProfileBuilder;
use crate::options::Options;
use crate::profile::app_frames::AppFrame;
use crate::profile::clock::{ClockSet, PerClock};
use crate::profile::model::Profile;
use crate::profile::source::SourceKind;
use crate::profile::states::{SchedState, SchedTimes, StateEntry, StateLog};
use crate::profile::tree::CallTree;
use std::collections::BTreeMap;

/// One event of a thread, at a time.
#[derive(Debug, Clone)]
enum Event {
    Enter(u32, u32),
    Exit(u32, u32),
    Sample(u32, Vec<u32>),
    /// Every frame open returns (data lost after it).
    CloseOpen(u32),
}

const FRAMES: u32 = 6;
const THREADS: u32 = 3;

fn spec(kind: SourceKind) -> FinishSpec {
    super::tests::spec_of(kind, ClockSet::Dual)
}

/// A builder with the frames and threads every stream uses.
fn builder() -> ProfileBuilder {
    let mut b = ProfileBuilder::new(&Options { keep_calls: true, ..Options::default() });
    for frame in 0..FRAMES {
        b.frames.add_frame(100 + u64::from(frame), Some(super::FrameInfo::named(format!("f{frame}"))));
    }
    for thread in 0..THREADS {
        b.stacks.add_thread(10 + thread, Some(format!("t{thread}")));
    }
    b
}

fn feed(b: &mut ProfileBuilder, events: &[(PerClock, Event)]) {
    for (t, event) in events {
        match event {
            Event::Enter(thread, frame) => b.stacks.enter(*thread, *frame, *t),
            Event::Exit(thread, frame) => b.stacks.exit(*thread, *frame, *t),
            Event::Sample(thread, stack) => b.stacks.sample(*thread, stack, *t),
            Event::CloseOpen(thread) => {
                b.stacks.close_open(*thread, *t);
            }
        }
    }
}

/// Numbers below a bound, from a seed (xorshift).
fn numbers(seed: u64) -> impl FnMut(u64) -> u64 {
    let mut state = seed;
    move |below: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % below
    }
}

/// A stream of `count` events from a seed: mostly calls that enter and return
/// in order, with exits of frames deeper in the stack, exits of frames never entered
/// (running before tracing began) and losses; or, with `samples`, stacks that change by a
/// few frames at a time.
fn stream(seed: u64, count: usize, samples: bool) -> Vec<(PerClock, Event)> {
    let mut next = numbers(seed);
    let mut stacks = vec![Vec::<u32>::new(); THREADS as usize];
    let mut t = PerClock::new(1_000, 500);
    let mut out = Vec::new();
    for _ in 0..count {
        t = PerClock::new(t.wall + 1 + next(40), t.cpu + next(30));
        let thread = next(u64::from(THREADS)) as u32;
        let stack = &mut stacks[thread as usize];
        let event = if samples {
            let keep = next(stack.len() as u64 + 1) as usize;
            stack.truncate(keep);
            (0..next(3)).for_each(|_| stack.push(next(u64::from(FRAMES)) as u32));
            Event::Sample(thread, stack.clone())
        } else {
            match next(20) {
                0 => Event::Exit(thread, next(u64::from(FRAMES)) as u32),
                1 => {
                    stack.clear();
                    Event::CloseOpen(thread)
                }
                2 if stack.len() > 1 => {
                    let at = next(stack.len() as u64) as usize;
                    let frame = stack[at];
                    stack.truncate(at);
                    Event::Exit(thread, frame)
                }
                n if n < 11 || stack.is_empty() => {
                    let frame = next(u64::from(FRAMES)) as u32;
                    stack.push(frame);
                    Event::Enter(thread, frame)
                }
                _ => Event::Exit(thread, stack.pop().expect("not empty")),
            }
        };
        out.push((t, event));
    }
    out
}

/// What a profile says, with call-tree nodes named by their stacks (the nodes of two
/// builders are numbered in the order each made them).
fn said(profile: &Profile) -> Vec<String> {
    let mut out = vec![format!("{:?} records {}", profile.facts.repairs, profile.facts.records)];
    out.extend(profile.facts.warnings.iter().map(|w| w.text.clone()));
    for thread in &profile.stacks().threads {
        let tree = &thread.tree;
        let path = |mut node: u32| {
            let mut frames = Vec::new();
            while node != CallTree::ROOT {
                frames.push(profile.frame_name(tree.node(node).frame).to_owned());
                node = tree.node(node).parent;
            }
            frames.reverse();
            frames.join(";")
        };
        out.push(format!(
            "thread {} {:?} records {} first {:?} last {:?}",
            thread.tid, thread.name, thread.records, thread.first, thread.last
        ));
        let nodes: BTreeMap<String, String> = (1..tree.len() as u32)
            .map(|n| {
                let node = tree.node(n);
                (path(n), format!("calls {} incl {:?} self {:?}", node.calls, node.incl, node.self_time))
            })
            .collect();
        out.extend(nodes.into_iter().map(|(path, node)| format!("  {path}: {node}")));
        for depth in 0..thread.calls.depth_count() {
            for call in thread.calls.at_depth(depth) {
                out.push(format!(
                    "  call at {depth} {}..{} cpu {} {}",
                    call.start,
                    call.end,
                    call.cpu,
                    path(call.node)
                ));
            }
        }
    }
    out
}

fn in_parts_as_once(events: &[(PerClock, Event)], kind: SourceKind) {
    let mut once = builder();
    feed(&mut once, events);
    let whole = said(&once.finish(spec(kind)));
    assert!(whole.len() > 40, "the stream made calls: {whole:?}");
    for split in 0..=events.len() {
        let mut earlier = builder();
        feed(&mut earlier, &events[..split]);
        let mut later = earlier.continuing();
        feed(&mut later, &events[split..]);
        let merged = earlier.merge(later).expect("no heap dumps to merge");
        assert_eq!(said(&merged.finish(spec(kind))), whole, "split before event {split}: {:?}", events.get(split));
    }
}

#[test]
fn calls_read_in_two_parts_are_the_calls_read_at_once() {
    for seed in [1, 7, 12345] {
        let events = stream(seed, 160, false);
        // The stream has what is tested: exits below the top, exits of frames never
        // entered, and losses.
        assert!(events.iter().any(|(_, e)| matches!(e, Event::CloseOpen(_))));
        in_parts_as_once(&events, SourceKind::Calls);
    }
}

#[test]
fn samples_read_in_two_parts_are_the_samples_read_at_once() {
    for seed in [3, 99] {
        in_parts_as_once(&stream(seed, 160, true), SourceKind::CpuSamples);
    }
}

/// Each thread's scheduler states from a seed: `count` entries (past a log's marks), times
/// rising, every state and its details.
fn state_stream(seed: u64, count: usize) -> Vec<Vec<StateEntry>> {
    let mut next = numbers(seed);
    let mut start = 50;
    (0..THREADS)
        .map(|_| {
            (0..count)
                .map(|_| {
                    start += 1 + next(300);
                    let state = SchedState::KNOWN[next(5) as usize];
                    StateEntry {
                        start,
                        state,
                        cpu: (state == SchedState::Running).then(|| next(4) as u32),
                        waker: (next(3) == 0).then(|| next(100) as u32),
                        blocked: (state == SchedState::Uninterruptible).then(|| next(2) as u32),
                        io_wait: next(5) == 0,
                    }
                })
                .collect()
        })
        .collect()
}

/// A thread's time in each state: one tick an entry, so that two halves add up.
fn times(entries: &[StateEntry]) -> SchedTimes {
    let mut times = SchedTimes::default();
    for entry in entries {
        match entry.state {
            SchedState::Running => times.running += 1,
            SchedState::Runnable | SchedState::Preempted => times.runnable += 1,
            SchedState::Uninterruptible => times.uninterruptible += 1,
            _ => times.sleeping += 1,
        }
    }
    times
}

pub(super) fn app_frame(token: i64) -> AppFrame {
    AppFrame {
        pid: 7,
        layer: format!("layer {}", token % 2),
        token,
        display_token: Some(token + 1),
        start: 1_000 * token as u64,
        end: Some(1_000 * token as u64 + 16),
        expected: None,
        jank: String::new(),
        janky: false,
        present: String::new(),
        on_time_finish: true,
        gpu_composition: false,
        prediction: String::new(),
        derived: false,
    }
}

/// Feeds each thread's states from `from` on (up to `to`) and app frames of the same
/// numbers, as a system decoder hands them over.
fn feed_system(b: &mut ProfileBuilder, threads: &[Vec<StateEntry>], from: usize, to: usize) {
    for (slot, entries) in threads.iter().enumerate() {
        let mut log = StateLog::default();
        entries[from..to].iter().for_each(|&e| log.push(e));
        if !log.is_empty() {
            b.system.set_states(slot as u32, log);
            b.system.set_sched(slot as u32, times(&entries[from..to]));
        }
        b.stacks.list(slot as u32);
    }
    (from..to).for_each(|token| b.system.app_frame(app_frame(token as i64)));
    if from == 0 {
        b.system.blocked_functions(vec!["do_sys_poll".into(), "futex_wait_queue".into()]);
    }
    b.system.cpu_count(4);
}

/// What a profile's system timeline and each thread's scheduling say.
fn said_system(profile: &Profile) -> Vec<String> {
    let system = &profile.system;
    let mut out = vec![format!("{:?}", profile.facts.repairs), format!("cpus {}", system.cpus)];
    out.push(format!("blocked in {:?}", system.blocked_functions));
    out.extend(profile.system.app_frames.iter().map(|f| format!("{f:?}")));
    for thread in &profile.stacks().threads {
        out.push(format!("thread {} sched {:?}", thread.tid, thread.sched));
        out.extend(thread.states.spans(0, u64::MAX).map(|span| format!("  {span:?}")));
    }
    out
}

#[test]
fn system_states_read_in_two_parts_are_the_states_read_at_once() {
    let threads = state_stream(11, 150);
    let count = threads[0].len();
    let mut once = builder();
    feed_system(&mut once, &threads, 0, count);
    let read_once = once.finish(spec(SourceKind::Calls));
    assert_eq!(read_once.system.cpus, 4);
    assert_eq!(read_once.system.blocked_functions, ["do_sys_poll", "futex_wait_queue"]);
    for (thread, entries) in read_once.stacks().threads.iter().zip(&threads) {
        assert_eq!(thread.sched, Some(times(entries)));
        assert_eq!(thread.states.len(), entries.len());
    }
    let whole = said_system(&read_once);
    for split in 0..=count {
        let mut earlier = builder();
        feed_system(&mut earlier, &threads, 0, split);
        let mut later = earlier.continuing();
        feed_system(&mut later, &threads, split, count);
        let merged = earlier.merge(later).expect("no heap dumps to merge");
        assert_eq!(said_system(&merged.finish(spec(SourceKind::Calls))), whole, "split before state {split}");
    }
}
