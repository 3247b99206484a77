//! The call tree as rows, top-down (or bottom-up through an inverted view): one row per
//! node in pre-order, children by total descending, then by name. Depth 0 is the thread;
//! `total` is the sum of the values of the stacks through a node, `self` of those that end
//! at it, in whole µs: what the folded stacks of the same view add up to.

use super::flame::GraphScope;
use super::folded::no_such_thread;
use super::frames::{sanitize, FrameNames, FrameTree, DEFAULT_MAX_DEPTH};
use super::transform::View;
use crate::error::{Error, ErrorKind, Result};
use crate::profile::{Clock, PerClock, Profile, ThreadProfile, NONE};
use std::collections::BTreeMap;
use std::io::Write;

/// How `write_tree` writes rows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum TreeFormat {
    /// Aligned columns for people: total and self µs, then the frame indented by depth.
    #[default]
    Text,
    /// Tab-separated `depth`, `total`, `self`, `frame`, a header line first.
    Tsv,
}

/// What `write_tree` writes.
#[derive(Debug, Clone)]
pub struct TreeOptions {
    /// `None`: the trace's default clock.
    pub clock: Option<Clock>,
    /// Only this thread id; `None`: every thread, one tree each, in the order of their
    /// folded lines.
    pub thread: Option<u32>,
    /// The transforms, and whether the tree is inverted (bottom-up).
    pub view: View,
    /// Rows as text or as TSV.
    pub format: TreeFormat,
    /// Frames deeper than this merge into one frame, as in folded stacks.
    pub max_depth: usize,
}

impl Default for TreeOptions {
    fn default() -> Self {
        TreeOptions {
            clock: None,
            thread: None,
            view: View::default(),
            format: TreeFormat::Text,
            max_depth: DEFAULT_MAX_DEPTH,
        }
    }
}

/// Writes the call tree of `options` to `out`.
pub fn write_tree(profile: &Profile, options: &TreeOptions, out: &mut impl Write) -> Result<()> {
    let clock = options.clock.unwrap_or(profile.default_clock());
    profile.require(clock)?;
    options.view.check(profile)?;
    let names = FrameNames::of_view(profile, options.max_depth, &options.view);
    let mut groups: BTreeMap<String, Vec<&ThreadProfile>> = BTreeMap::new();
    for thread in profile.stacks().threads.iter().filter(|t| options.thread.is_none_or(|tid| t.tid == tid)) {
        groups.entry(sanitize(&thread.label()) + ";").or_default().push(thread);
    }
    if let (Some(tid), true) = (options.thread, groups.is_empty()) {
        return Err(no_such_thread(profile, tid));
    }
    let failed = |e: std::io::Error| Error::new(ErrorKind::Output, e.to_string());
    match options.format {
        TreeFormat::Tsv => writeln!(out, "depth\ttotal\tself\tframe").map_err(failed)?,
        TreeFormat::Text => {
            let unit = profile.unit_of(clock).symbol();
            writeln!(out, "{:>14} {:>14}  frame", format!("total {unit}"), format!("self {unit}")).map_err(failed)?
        }
    }
    for (key, threads) in &groups {
        let tree = FrameTree::merged(profile, &names, threads).transformed(profile, &names, &options.view);
        let label = &key[..key.len() - 1];
        write_rows(&tree, &names, clock, label, options.format, out).map_err(failed)?;
    }
    out.flush().map_err(failed)
}

fn write_rows(
    tree: &FrameTree,
    names: &FrameNames,
    clock: Clock,
    label: &str,
    format: TreeFormat,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let nodes = &tree.nodes;
    let own: Vec<u64> = nodes.iter().map(|n| n.self_time[clock]).collect();
    // Children come after their parents: one backward pass sums the totals.
    let mut total = own.clone();
    for n in (1..nodes.len()).rev() {
        let mut child = nodes[n].first_child;
        while child != NONE {
            total[n] = total[n].saturating_add(total[child as usize]);
            child = nodes[child as usize].next_sibling;
        }
    }
    let mut child = nodes[0].first_child;
    while child != NONE {
        total[0] = total[0].saturating_add(total[child as usize]);
        child = nodes[child as usize].next_sibling;
    }
    if total[0] == 0 {
        return Ok(());
    }
    let name = |n: u32| if n == 0 { label } else { names.name(nodes[n as usize].name) };
    // Pre-order without recursion: stacks can be very deep.
    let mut pending = vec![(0u32, 0usize)];
    while let Some((n, depth)) = pending.pop() {
        let (all, mine) = (total[n as usize], own[n as usize]);
        match format {
            TreeFormat::Tsv => writeln!(out, "{depth}\t{all}\t{mine}\t{}", name(n))?,
            TreeFormat::Text => writeln!(out, "{all:>14} {mine:>14}  {:indent$}{}", "", name(n), indent = 2 * depth)?,
        }
        let mut children = Vec::new();
        let mut child = nodes[n as usize].first_child;
        while child != NONE {
            if total[child as usize] > 0 {
                children.push(child);
            }
            child = nodes[child as usize].next_sibling;
        }
        // Popped in reverse: the largest (then the first by name) comes out first.
        children.sort_by(|&a, &b| total[b as usize].cmp(&total[a as usize]).then_with(|| name(a).cmp(name(b))));
        pending.extend(children.into_iter().rev().map(|c| (c, depth + 1)));
    }
    Ok(())
}

/// A call tree as flat columns, for a viewer that opens its rows as they are asked for.
/// Node 0 stands for the thread, or for every thread, whose nodes then are node 0's
/// children, each named by its label. A parent always comes before its children. Times are
/// whole µs, 0 on a clock the trace lacks.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct CallTreeTable {
    /// Frame names (and thread labels), each once: `name` indexes it.
    pub names: Vec<String>,
    /// Each node's parent (`NONE` for node 0).
    pub parent: Vec<u32>,
    /// Each node's name (`NONE` for node 0).
    pub name: Vec<u32>,
    /// Time of the stacks through the node, on the wall clock.
    pub total_wall: Vec<u64>,
    /// Time of the stacks that end at the node, on the wall clock.
    pub self_wall: Vec<u64>,
    /// Time of the stacks through the node, on the CPU clock.
    pub total_cpu: Vec<u64>,
    /// Time of the stacks that end at the node, on the CPU clock.
    pub self_cpu: Vec<u64>,
    /// Calls of the node's frame on its stack (0 in an inverted tree, and for threads);
    /// or the samples or allocations whose stack holds the node (`Count::per_stack`).
    pub calls: Vec<u64>,
}

/// The call tree of `scope` as `view` shows it.
pub fn call_tree_table(profile: &Profile, scope: GraphScope, view: &View) -> Result<CallTreeTable> {
    view.check(profile)?;
    let names = FrameNames::of_view(profile, DEFAULT_MAX_DEPTH, view);
    let mut table = CallTreeTable {
        names: (0..names.len() as u32).map(|i| names.name(i).to_owned()).collect(),
        ..Default::default()
    };
    table.push(NONE, NONE, PerClock::ZERO, 0);
    let threads: Vec<(Option<String>, &ThreadProfile)> = match scope {
        GraphScope::Thread(index) => {
            let thread = profile.stacks().threads.get(index).ok_or_else(|| {
                Error::new(
                    ErrorKind::Request,
                    format!("thread index {index} is out of range ({} threads)", profile.stacks().threads.len()),
                )
            })?;
            vec![(None, thread)]
        }
        GraphScope::AllThreads => profile.stacks().threads.iter().map(|t| (Some(sanitize(&t.label())), t)).collect(),
    };
    for (label, thread) in threads {
        let tree = FrameTree::merged(profile, &names, &[thread]).transformed(profile, &names, view);
        let top = match label {
            Some(label) => {
                table.names.push(label);
                table.push(0, table.names.len() as u32 - 1, PerClock::ZERO, 0)
            }
            None => 0,
        };
        // Old node -> table node; parents come first in both.
        let mut at = vec![NONE; tree.nodes.len()];
        at[0] = top;
        let own = tree.nodes[0].self_time;
        // Samples or allocations of stacks that a transform emptied (every frame merged)
        // are the thread's own.
        if profile.count().per_stack() {
            table.calls[top as usize] += tree.nodes[0].calls;
        }
        for (column, clock) in [(&mut table.self_wall, Clock::Wall), (&mut table.total_wall, Clock::Wall)]
            .into_iter()
            .chain([(&mut table.self_cpu, Clock::Cpu), (&mut table.total_cpu, Clock::Cpu)])
        {
            column[top as usize] += own[clock];
        }
        for (n, node) in tree.nodes.iter().enumerate() {
            let mut child = node.first_child;
            while child != NONE {
                let c = &tree.nodes[child as usize];
                at[child as usize] = table.push(at[n], c.name, c.self_time, c.calls);
                child = c.next_sibling;
            }
        }
    }
    table.add_totals();
    if profile.count().per_stack() {
        table.add_count_totals();
    }
    Ok(table)
}

impl CallTreeTable {
    /// Adds each node's total to its parent's: children come after their parents, so one
    /// backward pass sums them.
    pub(crate) fn add_totals(&mut self) {
        for n in (1..self.parent.len()).rev() {
            let up = self.parent[n] as usize;
            self.total_wall[up] += self.total_wall[n];
            self.total_cpu[up] += self.total_cpu[n];
        }
    }

    /// Adds each node's count to its parent's: samples and allocations, counted at the
    /// stack's last frame, then count for every frame of the stack.
    fn add_count_totals(&mut self) {
        for n in (1..self.parent.len()).rev() {
            let up = self.parent[n] as usize;
            self.calls[up] += self.calls[n];
        }
    }

    pub(crate) fn push(&mut self, parent: u32, name: u32, own: PerClock, calls: u64) -> u32 {
        self.parent.push(parent);
        self.name.push(name);
        self.self_wall.push(own[Clock::Wall]);
        self.self_cpu.push(own[Clock::Cpu]);
        self.total_wall.push(own[Clock::Wall]);
        self.total_cpu.push(own[Clock::Cpu]);
        self.calls.push(calls);
        self.parent.len() as u32 - 1
    }
}
