//! The end of reading: each sink finished into its part of the profile. Open frames
//! closed, threads named, frames merged and named, self times computed, clocks put in
//! place, every sink's repairs summed.

use super::frames::FrameSlot;
use super::heap_sink::HeapSink;
use super::spec::FinishSpec;
use super::stack_sink::StackSink;
use super::thread_state::ThreadState;
use super::ProfileBuilder;
use crate::profile::clock::{Clock, ClockSet, PerClock};
use crate::profile::facts::Facts;
use crate::profile::frame::FrameKind;
use crate::profile::frame::{display_names, Frame};
use crate::profile::heap::HeapProfiles;
use crate::profile::heap::HeapView;
use crate::profile::heap_graph_stacks::{graph_heaps, make_class_frames};
use crate::profile::model::calls_left_out;
use crate::profile::model::Profile;
use crate::profile::model::Shown;
use crate::profile::repairs::counted;
use crate::profile::repairs::Warning;
use crate::profile::source::{Source, SourceKind, Unit};
use crate::profile::stacks::StackProfile;
use crate::profile::states::StateLog;
use crate::profile::system::{SystemTimeline, Timeline};
use crate::profile::thread::ThreadProfile;
use crate::profile::tree::NONE;
use rustc_hash::FxHashMap;
use std::sync::OnceLock;

impl ProfileBuilder {
    /// The profile: each sink finished into its part, with what only the decoder knows
    /// (`spec`).
    pub fn finish(self, mut spec: FinishSpec) -> Profile {
        let ProfileBuilder { mut facts, frames: frame_sink, mut stacks, mut system, heap: heap_sink, graph } = self;
        for counter in &mut spec.counters {
            counter.name = system.names.clip(std::mem::take(&mut counter.name));
        }
        let events = stacks.events();
        // A single clock is recorded as wall whichever it is; the timeline is the wall clock's.
        let wall = spec.main.clocks.has(Clock::Wall);
        let (start, end) = spec.timeline.unwrap_or_else(|| event_span(&stacks, &heap_sink));
        let lost_at_end = facts.repairs.truncated || facts.repairs.overflow;
        stacks.close_at_end_of_trace(wall, lost_at_end, start, end);
        stacks.let_go_at_end();
        if stacks.keep.shortest > 0 {
            let shortest_us = spec.time_unit.micros(stacks.keep.shortest);
            let text = calls_left_out(facts.limits.max_calls, shortest_us, facts.rereadable);
            facts.warnings.push(Warning { text, repair: None });
        }
        if facts.dropped_warnings > 0 {
            let n = facts.dropped_warnings;
            facts.warnings.push(Warning { text: format!("{n} more warnings not shown"), repair: None });
        }
        if let Some((frames, note)) = system.derived_frames.take().filter(|_| system.app_frames.is_empty()) {
            system.app_frames = frames;
            facts.warnings.push(Warning { text: note, repair: None });
        }
        let (mut frames, canonical) = canonical_frames(&frame_sink.slots, &stacks.threads, &heap_sink);
        let (mut graph, drops) = graph.finish();
        if let Some(graph) = &mut graph {
            make_class_frames(graph, &mut frames);
        }
        let mut repairs = facts.repairs;
        repairs.dangling_references += drops.dangling_references;
        repairs.dangling_roots += drops.dangling_roots;
        repairs.duplicate_objects += drops.duplicate_objects;
        repairs.add(&stacks.repairs);
        repairs.long_names += stacks.names.cut + frame_sink.names.cut + system.names.cut + heap_sink.names.cut;
        repairs.unknown_methods = frames.iter().filter(|f| f.unknown).count() as u64;
        let (frame_names, frame_name_of) = display_names(&frames);
        let processes = std::mem::take(&mut stacks.processes);
        let heap = heap_sink.finish(&canonical, &processes, spec.time_unit);
        if let Some(over) = heap.as_ref().map(HeapProfiles::overfreed_rows).filter(|&n| n > 0) {
            facts.warnings.push(Warning {
                text: format!(
                    "{} of heap dumps freed more bytes than they allocated (the recorder samples allocations): \
                     nothing of theirs is counted as not freed",
                    counted(over, "callstack's totals", "callstacks' totals")
                ),
                repair: None,
            });
        }
        let main = spec.main.clone();
        let mut threads: Vec<Vec<ThreadProfile>> = vec![Vec::new(); 1 + spec.more.len()];
        for (slot, t) in stacks.threads.into_iter().enumerate().filter(|(_, t)| t.events > 0 || t.listed) {
            let source = stacks.sources.get(slot).copied().unwrap_or(SourceKind::Calls);
            let at = spec.more.iter().position(|m| m.kind == source).map_or(0, |i| i + 1);
            // A trace's single clock was recorded as wall, whichever it was (the sink's
            // contract): `ClockSet::Cpu` says it was the CPU clock.
            let swap = if at == 0 { main.clocks } else { spec.more[at - 1].clocks } == ClockSet::Cpu;
            let mut thread = finish_thread(t, slot as u32, &canonical, swap, &processes);
            thread.states = system.states.get_mut(slot).map(std::mem::take).unwrap_or_default();
            thread.sched = system.sched.get(slot).copied().flatten();
            threads[at].push(thread);
        }
        if spec.group_by_process {
            // Threads under their process, each process's tracks after its threads.
            threads.iter_mut().for_each(|t| t.sort_by_key(|t| (t.pid.unwrap_or(u32::MAX), t.track, t.tid)));
        }
        let shortest_call = stacks.keep.shortest;
        let mut pool: Vec<StackProfile> = std::iter::once(&main)
            .chain(&spec.more)
            .zip(threads)
            .map(|(source, threads)| StackProfile {
                source: Source::new(source.kind, source.unit, source.frame_kind, threads.len()),
                threads,
                clocks: source.clocks,
                time_unit: spec.time_unit,
                frame_kind: source.frame_kind,
                clock_words: source.clock_words,
                preferred_clock: source.preferred_clock,
                shortest_call,
                states_as_frames: source.states_as_frames,
                counts_unknown: false,
            })
            .collect();
        let main = pool.remove(0);
        let has_stacks = |d: &StackProfile| d.threads.iter().any(|t| !t.tree.is_empty());
        pool.retain(has_stacks);
        // The main source is listed where it has stacks, or where no source has any.
        if has_stacks(&main) || (pool.is_empty() && heap.is_none() && graph.is_none()) {
            let at = if spec.main_first { 0 } else { pool.len() };
            pool.insert(at, main);
        }
        let mut sources: Vec<Source> = pool.iter().map(|d| d.source.clone()).collect();
        if let Some(heap) = &heap {
            for kind in [SourceKind::HeapUnreleased, SourceKind::HeapAllocated] {
                sources.push(Source::new(kind, Unit::Bytes, FrameKind::Function, heap.processes.len()));
            }
        }
        if let Some(graph) = &graph {
            let heaps = graph_heaps(graph);
            for kind in [SourceKind::HeapDominators, SourceKind::HeapPaths] {
                sources.push(Source::new(kind, Unit::Bytes, FrameKind::Function, heaps));
            }
        }
        let shown = match (pool.is_empty(), &heap, &graph) {
            (false, ..) => Shown::Stacks(0),
            (true, Some(heap), _) => {
                let view = HeapView { kind: SourceKind::HeapUnreleased, dump: None };
                Shown::Heap(Box::new(heap.stack_profile(view, &sources)))
            }
            (true, None, Some(_)) => Shown::Dump(SourceKind::HeapDominators, OnceLock::new()),
            (true, None, None) => unreachable!("a trace without stacks lists its main source"),
        };
        Profile {
            facts: Facts {
                format: spec.format,
                header: spec.header,
                repairs,
                warnings: facts.warnings,
                limits: facts.limits,
                records: events,
                rereadable: false,
            },
            system: SystemTimeline {
                time_unit: spec.time_unit,
                timeline: Timeline { start, end },
                gaps: spec.gaps,
                counters: spec.counters,
                blocked_functions: system.blocked_functions,
                cpus: system.cpus,
                app_frames: {
                    let mut frames = system.app_frames;
                    frames.sort_by_key(|f| (f.start, f.pid, f.token));
                    frames
                },
                display_frames: {
                    let mut frames = system.display_frames;
                    frames.sort_by_key(|f| (f.start, f.pid, f.token));
                    frames
                },
            },
            frames,
            frame_name_of,
            frame_names,
            unmapped_frames: Vec::new(),
            frame_of_slot: canonical,
            sources,
            stack_profiles: pool,
            shown,
            heap,
            heap_graph: graph,
            dump: None,
            renames: frame_sink.renames,
            in_range: false,
            cpu_overview: Default::default(),
        }
    }
}

impl StackSink {
    /// Every thread's open frames closed as the end of the trace closes them (see the
    /// module's contract), frames from before tracing started at the timeline's start, and
    /// threads without a name named by their id.
    fn close_at_end_of_trace(&mut self, wall: bool, lost_at_end: bool, start: u64, end: u64) {
        let mut unknown_threads = 0;
        let wall_end = (wall && !lost_at_end).then_some(end);
        for state in &mut self.threads {
            self.repairs.open_at_end += state.stack.len() as u64;
            state.close_at_end(wall_end, self.keep);
            if wall {
                let earlier = state.first.wall.saturating_sub(start);
                for &node in &state.from_before {
                    let incl = &mut state.tree.node_mut(node).incl;
                    incl.wall = incl.wall.saturating_add(earlier);
                }
                let rebases = state.from_before.len();
                for &(seen, place) in &state.calls_from_before {
                    let call = &mut state.calls.at_depth_mut(rebases - seen)[place];
                    call.start = start.min(call.start);
                }
            }
            if state.name.is_none() && state.events > 0 {
                state.name = Some(format!("Thread {}", crate::profile::thread::shown_tid(state.tid, state.track)));
                unknown_threads += 1;
            }
        }
        self.repairs.unknown_threads = unknown_threads;
    }
}

/// From the earliest to the latest wall time of any thread's events and any heap dump.
fn event_span(stacks: &StackSink, heap: &HeapSink) -> (u64, u64) {
    let started = || stacks.threads.iter().filter(|t| t.started);
    let start = started().map(|t| t.first.wall).chain(heap.dump_times()).min().unwrap_or(0);
    let end = started().map(|t| t.last.wall).chain(heap.dump_times()).max().unwrap_or(0);
    (start, end)
}

/// Merges frame slots that describe the same method (class, name, signature) and keeps
/// only those some event used. Returns the frames and the slot -> frame map.
fn canonical_frames(slots: &[FrameSlot], threads: &[ThreadState], heap: &HeapSink) -> (Vec<Frame>, Vec<u32>) {
    let mut used = vec![false; slots.len()];
    heap.mark_used(&mut used);
    for state in threads {
        for node in state.tree.nodes().iter().skip(1) {
            used[node.frame as usize] = true;
        }
    }
    let mut frames = Vec::new();
    let mut canonical = vec![NONE; slots.len()];
    let mut by_identity: FxHashMap<(&str, &str, &str), u32> = FxHashMap::default();
    for (slot, entry) in slots.iter().enumerate() {
        if !used[slot] {
            continue;
        }
        let index = match &entry.info {
            Some(info) => *by_identity
                .entry((&info.class, &info.name, &info.signature))
                .or_insert_with(|| push_frame(&mut frames, entry)),
            None => push_frame(&mut frames, entry),
        };
        canonical[slot] = index;
    }
    (frames, canonical)
}

fn push_frame(frames: &mut Vec<Frame>, slot: &FrameSlot) -> u32 {
    let frame = match &slot.info {
        Some(info) => Frame {
            class: info.class.clone(),
            name: info.name.clone(),
            signature: info.signature.clone(),
            source: info.source.clone(),
            line: info.line,
            id: slot.id,
            unknown: false,
        },
        None => Frame {
            class: String::new(),
            name: String::new(),
            signature: String::new(),
            source: None,
            line: None,
            id: slot.id,
            unknown: true,
        },
    };
    frames.push(frame);
    (frames.len() - 1) as u32
}

fn finish_thread(
    state: ThreadState,
    slot: u32,
    canonical: &[u32],
    swap_clocks: bool,
    processes: &FxHashMap<u32, String>,
) -> ThreadProfile {
    let mut tree = state.tree.into_tree();
    let nodes = tree.nodes_mut();
    let mut children_incl = vec![PerClock::ZERO; nodes.len()];
    for node in nodes.iter().skip(1) {
        children_incl[node.parent as usize].add(node.incl);
    }
    let clocks = |t: PerClock| if swap_clocks { t.swapped() } else { t };
    for (index, node) in nodes.iter_mut().enumerate().skip(1) {
        node.frame = canonical[node.frame as usize];
        node.self_time = clocks(node.incl.since(children_incl[index]));
        node.incl = clocks(node.incl);
    }
    // A sampled thread counts samples, not the runs of samples its calls are.
    if !state.samples.is_empty() {
        for (index, node) in nodes.iter_mut().enumerate().skip(1) {
            node.calls = state.samples.get(index).copied().unwrap_or(0);
        }
    }
    let mut calls = state.calls;
    calls.for_each_mut(|call| {
        call.frame = canonical[call.frame as usize];
        if swap_clocks {
            // The single clock was the CPU clock: the timeline is each thread's own.
            call.cpu = call.end - call.start;
        }
    });
    let mut sample_times = state.sample_times;
    sample_times.shrink();
    ThreadProfile {
        tid: state.tid,
        name: state
            .name
            .unwrap_or_else(|| format!("Thread {}", crate::profile::thread::shown_tid(state.tid, state.track))),
        records: state.events,
        tree,
        first: clocks(state.first),
        last: clocks(state.last),
        pid: state.pid,
        process: state.pid.and_then(|pid| processes.get(&pid).cloned()),
        track: state.track,
        heap: false,
        sched: None,
        states: StateLog::default(),
        sample_times,
        calls,
        slot,
    }
}
