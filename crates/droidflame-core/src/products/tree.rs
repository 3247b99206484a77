//! The call tree as rows, top-down (or bottom-up through an inverted view): one row per
//! node in pre-order, children by total descending, then by name. Depth 0 is the thread;
//! `total` is the sum of the values of the stacks through a node, `self` of those that end
//! at it, in whole µs: what the folded stacks of the same view add up to.

use super::folded::no_such_thread;
use super::frames::{sanitize, FrameNames, FrameTree, DEFAULT_MAX_DEPTH};
use super::View;
use crate::profile::{Clock, Profile, ThreadProfile, NONE};
use crate::{Error, ErrorKind, Result};
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
    let names = FrameNames::of(profile, options.max_depth);
    let mut groups: BTreeMap<String, Vec<&ThreadProfile>> = BTreeMap::new();
    for thread in profile.threads.iter().filter(|t| options.thread.is_none_or(|tid| t.tid == tid)) {
        groups.entry(sanitize(&thread.label()) + ";").or_default().push(thread);
    }
    if let (Some(tid), true) = (options.thread, groups.is_empty()) {
        return Err(no_such_thread(profile, tid));
    }
    let failed = |e: std::io::Error| Error::new(ErrorKind::Output, e.to_string());
    match options.format {
        TreeFormat::Tsv => writeln!(out, "depth\ttotal\tself\tframe").map_err(failed)?,
        TreeFormat::Text => writeln!(out, "{:>14} {:>14}  frame", "total µs", "self µs").map_err(failed)?,
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
