//! The call graph as Graphviz DOT, as Traceview's `dmtracedump -g` drew it: a tree from
//! each thread to the calls it made, one node per call path with its inclusive and
//! exclusive time and calls, and calls worth less than a threshold of their caller's
//! inclusive time left out, so that the graph shows where time goes and stays readable.

use super::folded::no_such_thread;
use super::frames::DEFAULT_MAX_DEPTH;
use crate::error::{Error, ErrorKind, Result};
use crate::profile::{CallTree, Clock, Profile, ThreadProfile};
use crate::text::group_digits;
use std::io::Write;

/// Calls worth less than this percentage of their caller's inclusive time are left out,
/// as in `dmtracedump -g`.
pub const DEFAULT_THRESHOLD_PERCENT: f64 = 20.0;

/// What a call graph shows.
#[derive(Debug, Clone)]
pub struct CallGraphOptions {
    /// Only the thread(s) with this id; `None` for every thread with time on the clock.
    pub thread: Option<u32>,
    /// Calls worth less than this percentage (0 to 100) of their caller's inclusive time
    /// are left out with everything they called.
    pub threshold_percent: f64,
    /// `None`: wall where the trace has it, else its only clock.
    pub clock: Option<Clock>,
    /// Paths deeper than this end in one node that says so.
    pub max_depth: usize,
}

impl Default for CallGraphOptions {
    fn default() -> Self {
        CallGraphOptions {
            thread: None,
            threshold_percent: DEFAULT_THRESHOLD_PERCENT,
            clock: None,
            max_depth: DEFAULT_MAX_DEPTH,
        }
    }
}

/// Writes the call graph of `profile` as a DOT `digraph`.
pub fn write_callgraph_dot(profile: &Profile, options: &CallGraphOptions, out: &mut impl Write) -> Result<()> {
    let percent = options.threshold_percent;
    if !(0.0..=100.0).contains(&percent) {
        return Err(Error::new(
            ErrorKind::Request,
            format!("the threshold is a percentage from 0 to 100 (got {percent})"),
        ));
    }
    let clock = options.clock.unwrap_or(profile.default_clock());
    profile.require(clock)?;
    let threads: Vec<&ThreadProfile> = match options.thread {
        Some(tid) => {
            let found: Vec<&ThreadProfile> = profile.stacks().threads.iter().filter(|t| t.tid == tid).collect();
            if found.is_empty() {
                return Err(no_such_thread(profile, tid));
            }
            found
        }
        None => profile.stacks().threads.iter().filter(|t| total(&t.tree, clock) > 0).collect(),
    };
    let failed = |e: std::io::Error| Error::new(ErrorKind::Output, e.to_string());
    let mut graph = DotWriter { out, next_id: 0, clock, profile, percent, max_depth: options.max_depth.max(1) };
    let title = format!(
        "{} clock; calls under {percent}% of their caller's time left out",
        if clock == Clock::Wall { "Wall" } else { "Thread-CPU" }
    );
    writeln!(
        graph.out,
        "digraph callgraph {{\n  graph [label=\"{}\", labelloc=t, fontname=\"Helvetica\"];\n  \
         node [shape=box, fontname=\"Helvetica\", fontsize=10];\n  edge [fontname=\"Helvetica\", fontsize=9];",
        escape(&title)
    )
    .map_err(failed)?;
    for thread in threads {
        graph.thread(thread).map_err(failed)?;
    }
    writeln!(graph.out, "}}").map_err(failed)?;
    graph.out.flush().map_err(failed)
}

fn total(tree: &CallTree, clock: Clock) -> u64 {
    tree.children(CallTree::ROOT).map(|c| tree.node(c).incl[clock]).sum()
}

struct DotWriter<'a, W: Write> {
    out: &'a mut W,
    next_id: u64,
    clock: Clock,
    profile: &'a Profile,
    percent: f64,
    max_depth: usize,
}

impl<W: Write> DotWriter<'_, W> {
    fn node(&mut self, label: &str) -> std::io::Result<u64> {
        let id = self.next_id;
        self.next_id += 1;
        writeln!(self.out, "  n{id} [label=\"{}\"];", escape(label))?;
        Ok(id)
    }

    fn edge(&mut self, from: u64, to: u64, share: f64) -> std::io::Result<()> {
        writeln!(self.out, "  n{from} -> n{to} [label=\"{share:.0}%\"];")
    }

    /// The kept children of `node`, most time first: worth at least the threshold of
    /// `parent_time`, and more than nothing.
    fn kept(&self, tree: &CallTree, node: u32, parent_time: u64) -> Vec<u32> {
        let clock = self.clock;
        let mut kept: Vec<u32> = tree
            .children(node)
            .filter(|&c| {
                let time = tree.node(c).incl[clock];
                time > 0 && time as f64 * 100.0 >= self.percent * parent_time as f64
            })
            .collect();
        kept.sort_by(|&a, &b| tree.node(b).incl[clock].cmp(&tree.node(a).incl[clock]));
        kept
    }

    fn thread(&mut self, thread: &ThreadProfile) -> std::io::Result<()> {
        let clock = self.clock;
        let tree = &thread.tree;
        let thread_time = total(tree, clock);
        let micros = |ticks: u64| self.profile.micros(ticks);
        let unit = self.profile.unit_of(clock).symbol();
        let id = self.node(&format!("{}\n{} {unit}", plain(&thread.label()), group_digits(micros(thread_time))))?;
        // Samples and allocations count every stack through a node (calls, each call).
        let counts = if self.profile.count().per_stack() { tree.counts_below() } else { Vec::new() };
        // Depth-first, explicitly: call paths can be far deeper than the native stack.
        let mut pending: Vec<(u32, u64, u64, usize)> =
            self.kept(tree, CallTree::ROOT, thread_time).into_iter().rev().map(|c| (c, id, thread_time, 1)).collect();
        while let Some((n, parent_id, parent_time, depth)) = pending.pop() {
            let node = tree.node(n);
            let (incl, excl) = (node.incl[clock], node.self_time[clock]);
            let share = |part: u64, whole: u64| if whole == 0 { 0.0 } else { part as f64 * 100.0 / whole as f64 };
            let calls = self.profile.count().counted(if counts.is_empty() { node.calls } else { counts[n as usize] });
            let label = format!(
                "{}\nincl {} {unit} ({:.1}%)\nexcl {} {unit}\n{calls}",
                plain(self.profile.frame_name(node.frame)),
                group_digits(micros(incl)),
                share(incl, thread_time),
                group_digits(micros(excl)),
            );
            let id = self.node(&label)?;
            self.edge(parent_id, id, share(incl, parent_time))?;
            let children = self.kept(tree, n, incl);
            if children.is_empty() {
                continue;
            }
            if depth >= self.max_depth {
                let cut = self.node(&format!("[calls below depth {} left out]", self.max_depth))?;
                writeln!(self.out, "  n{id} -> n{cut} [style=dashed];")?;
                continue;
            }
            pending.extend(children.into_iter().rev().map(|c| (c, id, incl, depth + 1)));
        }
        Ok(())
    }
}

/// A name from the trace on one line: its own line breaks must not pass for the label's.
fn plain(name: &str) -> String {
    name.replace(|c: char| c.is_control(), " ")
}

/// Text for a DOT quoted string: quotes and backslashes escaped, line breaks as `\n`
/// (which DOT centres), other control characters as spaces.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}
