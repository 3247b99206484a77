//! Reading in parts: a builder that reads on where another stands, and the two merged, sink
//! by sink, into what one builder fed every event would have made. The later stack sink
//! starts from the earlier one's threads, each thread's open frames among them, so a call
//! that spans the split is one call; every sink counts only what it is fed.

use super::heap_graph_sink::HeapGraphSink;
use super::stack_sink::StackSink;
use super::thread_state::{Open, ThreadState};
use super::ProfileBuilder;
use crate::error::Result;
use crate::profile::tree::{CallTree, NodeBudget};

impl ProfileBuilder {
    /// A builder that reads on from where this one stands, sink by sink. Fed the events
    /// after this point and merged back (`merge`), it gives what this builder fed them too
    /// would.
    pub(crate) fn continuing(&self) -> ProfileBuilder {
        ProfileBuilder {
            facts: self.facts.continuing(),
            frames: self.frames.continuing(),
            stacks: self.stacks.continuing(),
            system: self.system.continuing(),
            heap: self.heap.continuing(),
            graph: HeapGraphSink::default(),
        }
    }

    /// This builder, fed the events up to a point, with `later`, made by `continuing` at
    /// that point and fed the events after it. Heap dumps read in both parts are refused:
    /// their stacks are numbered per sink.
    #[cfg_attr(not(test), expect(dead_code, reason = "reading in parts is tested here before a reader uses it"))]
    pub(crate) fn merge(mut self, later: ProfileBuilder) -> Result<ProfileBuilder> {
        self.heap.merge(later.heap)?;
        self.graph.merge(later.graph)?;
        self.facts.merge(later.facts);
        self.frames.merge(later.frames);
        self.stacks.merge(later.stacks);
        self.system.merge(later.system);
        Ok(self)
    }
}

impl StackSink {
    /// A sink that reads on from where this one stands: the same threads and processes,
    /// each thread with its open frames, first and latest times; nothing counted yet.
    fn continuing(&self) -> StackSink {
        let mut later = StackSink::new(&self.limits);
        later.keep = self.keep;
        later.only_thread = self.only_thread;
        later.processes = self.processes.clone();
        later.sources = self.sources.clone();
        later.names = self.names.fresh();
        later.budget = NodeBudget { left: u64::MAX, exhausted: false };
        for earlier in &self.threads {
            let mut state = ThreadState::new(earlier.tid, earlier.name.clone());
            state.pid = earlier.pid;
            state.track = earlier.track;
            state.listed = earlier.listed;
            state.started = earlier.started;
            state.first = earlier.first;
            state.last = earlier.last;
            state.latest_end = earlier.latest_end;
            for open in &earlier.stack {
                let parent = state.stack.last().map_or(CallTree::ROOT, |o| o.node);
                let node = state.tree.child(parent, open.frame, &mut later.budget);
                state.stack.push(Open { node, ..*open });
            }
            later.threads.push(state);
        }
        later
    }

    /// This sink with `later`, made by `continuing` and fed the events after it.
    fn merge(&mut self, later: StackSink) {
        self.processes = later.processes;
        self.sources = later.sources;
        let earlier_threads = self.threads.len();
        for (slot, thread) in later.threads.into_iter().enumerate() {
            if slot < earlier_threads {
                merge_thread(&mut self.threads[slot], thread, self.keep.on);
            } else {
                self.threads.push(thread);
            }
        }
        // Every node but the roots is one unique stack against the limit.
        let stacks: u64 = self.threads.iter().map(|t| t.tree.nodes().len() as u64 - 1).sum();
        let exhausted = self.budget.exhausted || later.budget.exhausted || stacks > self.limits.max_call_stacks;
        self.budget = NodeBudget { left: self.limits.max_call_stacks.saturating_sub(stacks), exhausted };
        self.repairs.add(&later.repairs);
        self.refused = self.refused.or(later.refused);
        self.names.cut += later.names.cut;
        self.keep.shortest = self.keep.shortest.max(later.keep.shortest);
        self.discarded.add_all(&later.discarded);
    }
}

/// One thread read in two parts, `later` continuing where `earlier` stopped.
fn merge_thread(earlier: &mut ThreadState, later: ThreadState, keep_calls: bool) {
    let mut budget = NodeBudget { left: u64::MAX, exhausted: false };
    let frame_of = |node: u32| later.tree.nodes()[node as usize].frame;
    // Frames from before tracing that the later part put under the whole stack: under the
    // earlier part's too, innermost first, as reading it all would have.
    for &node in &later.from_before {
        earlier.tree.adopt_top_level(frame_of(node));
        if keep_calls {
            earlier.calls.rebase();
        }
    }
    // Each of the later part's nodes is the earlier part's node of the same stack (made
    // where it has none). A parent can come after its children (a frame from before
    // tracing is put above them), so each node is placed once its parent is.
    let nodes = later.tree.nodes();
    let mut placed = vec![u32::MAX; nodes.len()];
    placed[CallTree::ROOT as usize] = CallTree::ROOT;
    for start in 1..nodes.len() {
        let mut chain = Vec::new();
        let mut at = start;
        while placed[at] == u32::MAX {
            chain.push(at);
            at = nodes[at].parent as usize;
        }
        for &node in chain.iter().rev() {
            let parent = placed[nodes[node].parent as usize];
            placed[node] = earlier.tree.child(parent, nodes[node].frame, &mut budget);
        }
    }
    for (node, counted) in nodes.iter().enumerate().skip(1) {
        let into = earlier.tree.node_mut(placed[node]);
        into.calls += counted.calls;
        into.incl.add(counted.incl);
    }
    if !later.samples.is_empty() {
        earlier.samples.resize(earlier.tree.nodes().len(), 0);
        for (node, &samples) in later.samples.iter().enumerate() {
            earlier.samples[placed[node] as usize] += samples;
        }
    }
    let rebases = earlier.from_before.len();
    earlier.from_before.extend(later.from_before.iter().map(|&node| placed[node as usize]));
    earlier.calls_from_before.extend(later.calls_from_before.iter().map(|&(seen, place)| (seen + rebases, place)));
    earlier.calls.append(later.calls, |node| placed[node as usize]);
    earlier.sample_times.append(&later.sample_times);
    earlier.stack = later.stack.iter().map(|open| Open { node: placed[open.node as usize], ..*open }).collect();
    earlier.events += later.events;
    // The later part began from the earlier one's first and latest times: its own are the
    // whole thread's.
    earlier.started = later.started;
    earlier.first = later.first;
    earlier.last = later.last;
    earlier.latest_end = later.latest_end;
    earlier.name = later.name;
    earlier.pid = later.pid;
    earlier.track = later.track;
    earlier.listed = later.listed;
}
