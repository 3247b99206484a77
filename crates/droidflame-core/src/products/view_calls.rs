//! The timeline in a view. Transforms are defined on stacks, so a view's timeline shows,
//! at each moment, the stack that was running there as the view's transforms make it: a
//! merged frame's time is its caller's (no box of its own), a collapsed package is one box,
//! a dropped stack leaves a gap (its callers' boxes end where it starts and begin again
//! after it), and a focus shows only the time under its frame. So one call may become
//! several boxes, and several calls one box.

use super::frames::{FrameNames, FrameTree, DEFAULT_MAX_DEPTH};
use super::transform::View;
use crate::error::Result;
use crate::profile::{Call, Profile, ThreadCalls, NONE};

/// The CPU time of a box that is not one whole call: the trace gives CPU time per call,
/// not per moment, so a piece of a call, or calls merged into one box, have none.
pub const NO_CPU: u64 = u64::MAX;

/// A thread's calls as a view shows them on a timeline.
pub struct ViewedCalls {
    /// Boxes as calls: `frame` is an index into `Profile::frame_names`, or past its end
    /// into `made`; `cpu` is `NO_CPU` for a box that is not one whole call; `node` is `NONE`.
    pub calls: ThreadCalls,
    /// Names the view's transforms make (a collapsed package's frame).
    pub made: Vec<String>,
}

impl ViewedCalls {
    /// The name a box's `frame` stands for.
    pub fn name<'a>(&'a self, profile: &'a Profile, frame: u32) -> &'a str {
        let names = profile.frame_names.len();
        match (frame as usize).checked_sub(names) {
            Some(made) => self.made.get(made).map_or("", String::as_str),
            None => &profile.frame_names[frame as usize],
        }
    }
}

/// `calls` of thread `thread` (those the profile kept, or a window of them read again) as
/// `view`'s transforms show them; inversion does not apply to a timeline.
pub fn viewed_calls(profile: &Profile, thread: usize, calls: &ThreadCalls, view: &View) -> Result<ViewedCalls> {
    view.check(profile)?;
    let names = FrameNames::of_view(profile, DEFAULT_MAX_DEPTH, view);
    let (mut tree, of_node) = FrameTree::of_thread(profile, &names, &profile.stacks().threads[thread]);
    let order = calls.in_start_order();
    let stacks = stacks_of(profile, &names, &mut tree, &of_node, &order);
    let (placed, place) = tree.placed(profile, &names, &View { transforms: view.transforms.clone(), invert: false });
    let (name_of, made) = box_names(profile, &names, &placed);
    let shape = Shape::of(&placed);
    let mut walk = Walk { shape: &shape, open: Vec::new(), out: ThreadCalls::new(), name_of: &name_of };
    // The original calls open at this moment, with the node their stack became.
    let mut running: Vec<(usize, u64, u32, u32)> = Vec::new(); // (depth, end, placed node, call index)
    for (i, (&(depth, call), &stack)) in order.iter().zip(&stacks).enumerate() {
        while running.last().is_some_and(|r| r.0 >= depth as usize) {
            let (_, end, _, index) = running.pop().unwrap_or_default();
            let below = running.last().map_or(0, |r| r.2);
            walk.go(below, end, Some((index, &order)));
        }
        let node = if stack == NONE { NONE } else { place[stack as usize] };
        walk.go(node, call.start, None);
        walk.opened_by(node, i as u32, call.start);
        running.push((depth as usize, call.end, node, i as u32));
    }
    while let Some((_, end, _, index)) = running.pop() {
        let below = running.last().map_or(0, |r| r.2);
        walk.go(below, end, Some((index, &order)));
    }
    Ok(ViewedCalls { calls: walk.out, made })
}

/// The node of `tree` each call's stack is, in `order` (calls read again have no node
/// of their own: theirs is found below their caller's by name, and made if missing).
fn stacks_of(
    profile: &Profile,
    names: &FrameNames,
    tree: &mut FrameTree,
    of_node: &[u32],
    order: &[(u32, &Call)],
) -> Vec<u32> {
    let mut open: Vec<(u32, u32)> = Vec::new(); // (depth, node)
    let mut stacks = Vec::with_capacity(order.len());
    for &(depth, call) in order {
        while open.last().is_some_and(|o| o.0 >= depth) {
            open.pop();
        }
        let node = match of_node.get(call.node as usize) {
            Some(&node) => node,
            None => {
                let parent = open.last().map_or(0, |o| o.1);
                let name = names.of_frame[profile.frame_name_of[call.frame as usize] as usize];
                tree.find_or_add(parent, name)
            }
        };
        stacks.push(node);
        open.push((depth, node));
    }
    stacks
}

/// The names `view`'s transforms make that no frame of `profile` has (and the frame that
/// stands for stacks below the depth cap): timeline boxes name them past the end of
/// `Profile::frame_names`, in this order.
pub fn made_names(profile: &Profile, view: &View) -> Vec<String> {
    let names = FrameNames::of_view(profile, DEFAULT_MAX_DEPTH, view);
    let (_, made) = name_indexes(profile, &names);
    made
}

/// Each name id's index into the profile's names, or past them into the made names; and
/// the made names.
fn name_indexes(profile: &Profile, names: &FrameNames) -> (Vec<u32>, Vec<String>) {
    let mut name_index = vec![NONE; names.len()];
    for (index, &id) in names.of_frame.iter().enumerate().rev() {
        name_index[id as usize] = index as u32;
    }
    let mut made: Vec<String> = Vec::new();
    for (id, at) in name_index.iter_mut().enumerate() {
        if *at == NONE {
            *at = (profile.frame_names.len() + made.len()) as u32;
            made.push(names.name(id as u32).to_owned());
        }
    }
    (name_index, made)
}

/// Each placed node's box name (as `name_indexes` gives them), and the made names.
fn box_names(profile: &Profile, names: &FrameNames, placed: &FrameTree) -> (Vec<u32>, Vec<String>) {
    let (name_index, made) = name_indexes(profile, names);
    let of_node =
        placed.nodes.iter().map(|n| if n.name == NONE { NONE } else { name_index[n.name as usize] }).collect();
    (of_node, made)
}

/// Each node's parent and depth (the root's depth 0).
struct Shape {
    parent: Vec<u32>,
    depth: Vec<u32>,
}

impl Shape {
    fn of(tree: &FrameTree) -> Shape {
        let mut parent = vec![NONE; tree.nodes.len()];
        let mut depth = vec![0u32; tree.nodes.len()];
        for n in 0..tree.nodes.len() {
            let mut child = tree.nodes[n].first_child;
            while child != NONE {
                parent[child as usize] = n as u32;
                depth[child as usize] = depth[n] + 1;
                child = tree.nodes[child as usize].next_sibling;
            }
        }
        Shape { parent, depth }
    }
}

/// One box open on the view's stack: its node, where it began, and the call that opened
/// it as its innermost frame (`NONE` if none did).
#[derive(Clone, Copy)]
struct Open {
    node: u32,
    start: u64,
    call: u32,
}

/// The view's stack as time goes on: boxes open as frames appear on it and are filed as
/// they leave it.
struct Walk<'a> {
    shape: &'a Shape,
    open: Vec<Open>,
    out: ThreadCalls,
    name_of: &'a [u32],
}

impl Walk<'_> {
    /// From `at` on, the view's stack is `node`'s (`NONE` or the root: no stack). `ended`:
    /// the call whose end this is, so that a box it opened and that ends with it keeps its
    /// CPU time.
    fn go(&mut self, node: u32, at: u64, ended: Option<(u32, &[(u32, &Call)])>) {
        let (shape, depth_of) = (self.shape, |n: u32| self.shape.depth[n as usize] as usize);
        let mut up = if node == NONE { 0 } else { node };
        // The new stack's frames deeper than every open box, innermost first.
        let mut path: Vec<u32> = Vec::new();
        while depth_of(up) > self.open.len() {
            path.push(up);
            up = shape.parent[up as usize];
        }
        // Boxes deeper than the new stack close; then both go up together until the open
        // box is the new stack's frame at its depth.
        while self.open.len() > depth_of(up) {
            self.close(at, ended);
        }
        while self.open.last().is_some_and(|o| o.node != up) {
            self.close(at, ended);
            path.push(up);
            up = shape.parent[up as usize];
        }
        for &node in path.iter().rev() {
            self.open.push(Open { node, start: at, call: NONE });
        }
    }

    /// Files the innermost open box as ending at `at`.
    fn close(&mut self, at: u64, ended: Option<(u32, &[(u32, &Call)])>) {
        let Some(open) = self.open.pop() else { return };
        let cpu = match ended {
            Some((call, order)) if open.call == call => order[call as usize].1.cpu,
            _ => NO_CPU,
        };
        let frame = self.name_of[open.node as usize];
        self.out.push(self.open.len(), Call { start: open.start, end: at, cpu, frame, node: NONE });
    }

    /// The innermost box, if it is `node`'s and began at `at`, was opened by call `call`.
    fn opened_by(&mut self, node: u32, call: u32, at: u64) {
        if let Some(top) = self.open.last_mut() {
            if top.node == node && top.call == NONE && top.start == at {
                top.call = call;
            }
        }
    }
}

impl FrameTree {
    /// The child of `parent` named `name`, added if there is none (a call read again
    /// whose stack the thread's tree does not hold).
    fn find_or_add(&mut self, parent: u32, name: u32) -> u32 {
        let mut child = self.nodes[parent as usize].first_child;
        while child != NONE {
            if self.nodes[child as usize].name == name {
                return child;
            }
            child = self.nodes[child as usize].next_sibling;
        }
        self.child(parent, name, &mut Default::default())
    }
}
