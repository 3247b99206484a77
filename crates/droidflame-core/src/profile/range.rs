//! A profile cut to a time range: the same threads, frames and call stacks, with each
//! call counted only for the part of it inside the range. Every product (flame graphs,
//! the methods table, callers and callees) then describes that range and nothing else.

use super::{Clock, PerClock, Profile, StateLog, ThreadCalls, ThreadProfile, Timeline};
use crate::{Error, ErrorKind, Result};

impl Profile {
    /// This profile within `from..=to` (ticks on the timeline clock). A call that overlaps
    /// the range counts once, with the part of its time inside it; its CPU time is
    /// shared out in proportion (the trace tells how much CPU a call used, not when).
    /// Needs every call (`Options::keep_calls`, none left out past `Options::max_calls`).
    pub fn within(&self, from: u64, to: u64) -> Result<Profile> {
        self.require_every_call()?;
        if from > to {
            return Err(Error::new(ErrorKind::Request, "the range starts after it ends"));
        }
        let wall = self.has(Clock::Wall);
        // Kept calls say which stacks ran when, not how many samples each stack had then.
        let per_stack = self.count().per_stack();
        let mut cut = self.without_calls();
        cut.counts_unknown = per_stack;
        for (thread, source) in cut.threads.iter_mut().zip(&self.threads) {
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
            for (_, call) in source.calls.overlapping(from, to) {
                let inside = call.end.min(to) - call.start.max(from);
                // A call that only touches the range's edge spent nothing in it.
                if inside == 0 && call.duration() > 0 {
                    continue;
                }
                let node = &mut nodes[call.node as usize];
                node.calls += u64::from(!per_stack);
                if wall {
                    let cpu = match call.duration() {
                        0 => call.cpu,
                        length => (u128::from(call.cpu) * u128::from(inside) / u128::from(length)) as u64,
                    };
                    node.incl.add(PerClock { wall: inside, cpu });
                } else {
                    node.incl.add(PerClock { wall: 0, cpu: inside });
                }
            }
            let mut children = vec![PerClock::ZERO; nodes.len()];
            for node in nodes.iter().skip(1) {
                children[node.parent as usize].add(node.incl);
            }
            for (index, node) in nodes.iter_mut().enumerate().skip(1) {
                node.self_time = node.incl.since(children[index]);
            }
        }
        cut.timeline = Timeline { start: from.max(self.timeline.start), end: to.min(self.timeline.end) };
        let Timeline { start, end } = cut.timeline;
        cut.gaps = self.gaps.iter().map(|&(s, e)| (s.max(start), e.min(end))).filter(|(s, e)| s < e).collect();
        Ok(cut)
    }

    /// A copy without the calls, which can be far larger than the rest.
    fn without_calls(&self) -> Profile {
        let threads = self
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
                sched: t.sched,
                states: StateLog::default(),
                calls: ThreadCalls::default(),
                slot: t.slot,
            })
            .collect();
        Profile {
            format: self.format.clone(),
            header: self.header.clone(),
            clocks: self.clocks,
            timeline: self.timeline,
            gaps: self.gaps.clone(),
            time_unit: self.time_unit,
            threads,
            frames: self.frames.clone(),
            frame_name_of: self.frame_name_of.clone(),
            frame_names: self.frame_names.clone(),
            repairs: self.repairs.clone(),
            warnings: self.warnings.clone(),
            limits: crate::Options { keep_calls: false, ..self.limits.clone() },
            shortest_call: 0,
            records: self.records,
            // Their values over time stay with the whole profile, which the timeline reads.
            counters: self
                .counters
                .iter()
                .map(|c| super::Counter { series: Vec::new(), name: c.name.clone(), ..*c })
                .collect(),
            unmapped_frames: self.unmapped_frames.clone(),
            rereadable: false,
            frame_of_slot: Vec::new(),
            source: self.source.clone(),
            sources: vec![self.source.clone()],
            stashed: Vec::new(),
            heap: None,
            dump: self.dump,
            renames: Vec::new(),
            app_frames: self.app_frames.clone(),
            display_frames: self.display_frames.clone(),
            blocked_functions: self.blocked_functions.clone(),
            cpus: self.cpus,
            counts_unknown: self.counts_unknown,
            in_range: true,
        }
    }
}
