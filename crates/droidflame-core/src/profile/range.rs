//! A profile cut to a time range: the same threads, frames and call stacks, with each
//! call counted only for the part of it inside the range. Every product (flame graphs,
//! the methods table, callers and callees) then describes that range and nothing else.

use super::calls::{Call, ThreadCalls};
use super::clock::{Clock, PerClock};
use super::facts::Facts;
use super::model::{Profile, Shown};
use super::stacks::StackProfile;
use super::states::StateLog;
use super::system::{SystemTimeline, Timeline};
use super::thread::ThreadProfile;
use super::time_log::TimeLog;
use super::tree::CallTree;
use crate::error::{Error, ErrorKind, Result};
use crate::options::Options;

impl Profile {
    /// This profile within `from..=to` (ticks on the timeline clock). A call that overlaps
    /// the range counts once, with the part of its time inside it; its own CPU time (less
    /// its calls') is shared out in proportion (the trace tells how much CPU a call used,
    /// not when), and its inclusive CPU time is that plus its calls' in the range: sharing
    /// out the inclusive time instead would give a long caller CPU time of its own that its
    /// calls spent outside the range.
    /// Needs every call (`Options::keep_calls`, none left out past `Options::max_calls`).
    pub fn within(&self, from: u64, to: u64) -> Result<Profile> {
        self.require_every_call()?;
        if from > to {
            return Err(Error::new(ErrorKind::Request, "the range starts after it ends"));
        }
        let wall = self.has(Clock::Wall);
        // Kept calls say which stacks ran when, not how many samples each stack had then.
        let per_stack = self.count().per_stack();
        let mut cut = self.without_calls(per_stack);
        // The cut is being made: its one stack profile is filled in here, then never changed.
        for (thread, source) in cut.stack_profiles[0].threads.iter_mut().zip(&self.stacks().threads) {
            let nodes = thread.tree.nodes_mut();
            for node in nodes.iter_mut() {
                node.calls = 0;
                node.incl = PerClock::ZERO;
                node.self_time = PerClock::ZERO;
            }
            // Scheduling within the range, where states were kept.
            if !source.states.is_empty() {
                thread.sched = Some(source.states.times(from, to.saturating_add(1)).sched());
            }
            // Each node's own CPU time in the range, shared out call by call.
            let mut own_cpu = vec![0u64; nodes.len()];
            for (depth, call) in source.calls.overlapping(from, to) {
                let inside = call.end.min(to) - call.start.max(from);
                // A call that only touches the range's edge spent nothing in it.
                if inside == 0 && call.duration() > 0 {
                    continue;
                }
                let node = &mut nodes[call.node as usize];
                node.calls += u64::from(!per_stack);
                if wall {
                    let own = call.cpu.saturating_sub(callees_cpu(&source.calls, depth as usize, call, &source.tree));
                    own_cpu[call.node as usize] += match call.duration() {
                        0 => own,
                        length => (u128::from(own) * u128::from(inside) / u128::from(length)) as u64,
                    };
                    node.incl.wall += inside;
                } else {
                    node.incl.cpu += inside;
                }
            }
            if wall {
                // Inclusive CPU: a node's own and everything below it, children first.
                let mut order = Vec::with_capacity(nodes.len());
                thread.tree.walk(|n, _| order.push(n));
                let nodes = thread.tree.nodes_mut();
                for &n in order.iter().rev() {
                    let n = n as usize;
                    nodes[n].incl.cpu = nodes[n].incl.cpu.saturating_add(own_cpu[n]);
                    let (up, cpu) = (nodes[n].parent, nodes[n].incl.cpu);
                    // The root stands for the thread: it is no call and holds no time.
                    if up != CallTree::ROOT {
                        nodes[up as usize].incl.cpu = nodes[up as usize].incl.cpu.saturating_add(cpu);
                    }
                }
            }
            let nodes = thread.tree.nodes_mut();
            let mut children = vec![PerClock::ZERO; nodes.len()];
            for node in nodes.iter().skip(1) {
                children[node.parent as usize].add(node.incl);
            }
            for (index, node) in nodes.iter_mut().enumerate().skip(1) {
                node.self_time = node.incl.since(children[index]);
            }
        }
        cut.system.timeline =
            Timeline { start: from.max(self.system.timeline.start), end: to.min(self.system.timeline.end) };
        let Timeline { start, end } = cut.system.timeline;
        // Counters summarised over the range: those with a value in force in it.
        cut.system.counters = self.system.counters.iter().filter_map(|c| c.within(from, to)).collect();
        cut.system.gaps =
            self.system.gaps.iter().map(|&(s, e)| (s.max(start), e.min(end))).filter(|(s, e)| s < e).collect();
        Ok(cut)
    }
}

/// The CPU time of the calls `call` (at `depth`) made: those one level deeper that lie
/// within it and whose stack is one frame longer than its.
fn callees_cpu(calls: &ThreadCalls, depth: usize, call: &Call, tree: &CallTree) -> u64 {
    let deeper = calls.at_depth(depth + 1);
    let first = deeper.partition_point(|c| c.start < call.start);
    deeper[first..]
        .iter()
        .take_while(|c| c.start <= call.end)
        .filter(|c| c.end <= call.end && tree.node(c.node).parent == call.node)
        .fold(0u64, |sum, c| sum.saturating_add(c.cpu))
}

impl Profile {
    /// A copy of the source shown without its calls, which can be far larger than the rest;
    /// `counts_unknown`: its nodes' counts will not be known.
    fn without_calls(&self, counts_unknown: bool) -> Profile {
        let shown = self.stacks();
        let threads = shown
            .threads
            .iter()
            .map(|t| ThreadProfile {
                tid: t.tid,
                name: t.name.clone(),
                records: t.records,
                tree: t.tree.clone(),
                first: t.first,
                last: t.last,
                pid: t.pid,
                process: t.process.clone(),
                track: t.track,
                heap: t.heap,
                sched: t.sched,
                states: StateLog::default(),
                sample_times: TimeLog::default(),
                calls: ThreadCalls::default(),
                slot: t.slot,
            })
            .collect();
        Profile {
            facts: Facts {
                limits: Options { keep_calls: false, ..self.facts.limits.clone() },
                rereadable: false,
                ..self.facts.clone()
            },
            system: SystemTimeline {
                time_unit: self.system.time_unit,
                timeline: self.system.timeline,
                gaps: self.system.gaps.clone(),
                // Their values over time stay with the whole profile, which the timeline reads.
                counters: self.system.counters.iter().filter_map(|c| c.within(0, u64::MAX)).collect(),
                app_frames: self.system.app_frames.clone(),
                display_frames: self.system.display_frames.clone(),
                blocked_functions: self.system.blocked_functions.clone(),
                cpus: self.system.cpus,
            },
            frames: self.frames.clone(),
            frame_name_of: self.frame_name_of.clone(),
            frame_names: self.frame_names.clone(),
            unmapped_frames: self.unmapped_frames.clone(),
            frame_of_slot: Vec::new(),
            sources: vec![shown.source.clone()],
            stack_profiles: vec![StackProfile {
                threads,
                shortest_call: 0,
                counts_unknown: counts_unknown || shown.counts_unknown,
                ..shown.clone_without_threads()
            }],
            shown: Shown::Stacks(0),
            heap: None,
            heap_graph: None,
            dump: self.dump,
            renames: Vec::new(),
            in_range: true,
            cpu_overview: Default::default(),
        }
    }
}
