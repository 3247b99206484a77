//! Calls too short to keep, read again when they are wanted. Past `Options::max_calls`
//! only the longer calls stay in memory; while the trace is read, its importer notes a
//! checkpoint every `Options::checkpoint_bytes`: where each thread stands (its open
//! frames, its times) and where the importer's own state stands. A zoomed-in window of one
//! thread then reads the input again from the last checkpoint before it, through an
//! importer resumed there and a builder of its own, until that thread is past the window
//! and every frame it still has open is long enough to be kept anyway.

use crate::error::{Error, ErrorKind, Result};
use crate::importer::{Checkpoint, Importer, ReadAgain};
use crate::options::Options;
use crate::profile::{Call, PerClock, Profile, ProfileBuilder, ReadCalls, ThreadCalls, NONE};
use std::sync::Arc;

/// What re-reading needs that the profile does not hold.
#[derive(Debug)]
pub(crate) struct Rereading {
    pub source: Box<dyn ReadAgain>,
    /// By thread slot: tid, first event, frames from before tracing in all.
    pub threads: Vec<(u32, PerClock, usize)>,
    /// By frame slot: the trace's id.
    pub frames: Vec<u64>,
    pub options: Options,
    /// Data was lost at the end: frames still open close at their thread's last event.
    pub lost_at_end: bool,
    /// The single clock was the CPU clock (the builder recorded it as wall): no shared
    /// timeline, so open frames close at their thread's last event.
    pub cpu_only: bool,
}

/// One thread's calls in a window, being read again: push the input from `offset()` on
/// until `push` answers true (or the input ends), then `calls`.
pub struct Reread {
    offset: u64,
    importer: Box<dyn Importer>,
    builder: ProfileBuilder,
    slot: u32,
    mark_rebases: usize,
    from: u64,
    to: u64,
    /// The profile's `shortest_call`: frames open this long will be kept anyway.
    shortest: u64,
    done: bool,
    source: Arc<Rereading>,
}

impl Reread {
    /// Starts reading again the calls of `profile`'s thread `thread` that overlap
    /// `from..=to`, from `source`'s checkpoints.
    pub(crate) fn start(
        source: Arc<Rereading>,
        profile: &Profile,
        thread: usize,
        from: u64,
        to: u64,
    ) -> Result<Reread> {
        let slot = profile
            .stacks()
            .threads
            .get(thread)
            .ok_or_else(|| Error::new(ErrorKind::Request, format!("no thread {thread}")))?
            .slot;
        if from > to {
            return Err(Error::new(ErrorKind::Request, "the window starts after it ends"));
        }
        // The last checkpoint where the thread had not reached the window: no call of it
        // that ended before is in the window, and those still open are in the mark.
        let before = |c: &Checkpoint| {
            c.marks.get(slot as usize).is_none_or(|m| !m.started || (m.last < from && m.latest_end < from))
        };
        let checkpoints = source.source.checkpoints();
        let at = checkpoints.iter().rposition(before).unwrap_or(0);
        let checkpoint = &checkpoints[at];
        let mut builder =
            ProfileBuilder::new(&Options { keep_calls: true, max_calls: u64::MAX, ..source.options.clone() });
        for &(tid, _, _) in &source.threads {
            builder.stacks.add_thread(tid, None);
        }
        for &id in &source.frames {
            builder.frames.add_frame(id, None);
        }
        builder.stacks.keep_only(slot);
        let mark = checkpoint.marks.get(slot as usize).cloned().unwrap_or_default();
        builder.stacks.seed(slot, source.threads[slot as usize].1, &mark);
        Ok(Reread {
            offset: checkpoint.offset,
            importer: source.source.resume(at),
            builder,
            slot,
            mark_rebases: mark.rebases,
            from,
            to,
            shortest: profile.stacks().shortest_call,
            done: false,
            source,
        })
    }

    /// Where in the input to start reading.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Feeds the next bytes of the input; true once nothing after them can change the
    /// window (then push no more).
    pub fn push(&mut self, chunk: &[u8]) -> Result<bool> {
        if self.done {
            return Ok(true);
        }
        self.importer.push(chunk, &mut self.builder)?;
        let (last, innermost) = self.builder.stacks.progress(self.slot);
        // Past the window, each frame still open will be at least `shortest` long: kept.
        self.done = last > self.to && innermost.is_none_or(|enter| last.saturating_sub(enter) >= self.shortest);
        Ok(self.done)
    }

    /// The thread's calls in the window: those `profile` kept and the short ones read
    /// again, by depth in time order.
    pub fn calls(mut self, profile: &Profile, thread: usize) -> ThreadCalls {
        let source = Arc::clone(&self.source);
        if !self.done {
            // The input ended: open frames close as they did in the profile.
            let wall_end = (!source.lost_at_end && !source.cpu_only).then_some(profile.system.timeline.end);
            self.builder.stacks.close_at_end(self.slot, wall_end);
        }
        let read = self.builder.stacks.take_calls(self.slot);
        let total_rebases = source.threads[self.slot as usize].2;
        let shift = total_rebases.saturating_sub(self.mark_rebases + read.rebases);
        let (from, to, shortest) = (self.from, self.to, self.shortest);
        let mut calls: Vec<(u32, Call)> =
            profile.stacks().threads[thread].calls.overlapping(from, to).map(|(d, c)| (d, *c)).collect();
        let ReadCalls { calls: reread, rebases, from_before } = read;
        let from_before: Vec<(usize, usize)> =
            from_before.iter().map(|&(seen, place)| (rebases - seen, place)).collect();
        for depth in 0..reread.depth_count() {
            for (place, call) in reread.at_depth(depth).iter().enumerate() {
                let short = call.duration() < shortest && !from_before.contains(&(depth, place));
                if short && call.overlaps(from, to) {
                    let mut call = *call;
                    call.frame = match profile.frame_of_slot.get(call.frame as usize) {
                        Some(&frame) => frame,
                        // An id the decoder learnt only at the very end: found by the id.
                        None => {
                            let id = self.builder.frames.frame_id(call.frame);
                            let slot = source.frames.iter().position(|&f| f == id).unwrap_or(0);
                            profile.frame_of_slot.get(slot).copied().unwrap_or(0)
                        }
                    };
                    call.node = NONE;
                    if source.cpu_only {
                        call.cpu = call.duration();
                    }
                    calls.push(((depth + shift) as u32, call));
                }
            }
        }
        ThreadCalls::from_calls(calls)
    }
}
