//! A piece read on another worker (the page's, which share no memory) is sent as bytes:
//! what its join reads of it, and nothing a join would refuse. The receiver makes the
//! same fresh piece from its own reading of the header and puts the parts in it.

use super::facts_sink::FactsSink;
use super::piece::{Doubt, Piece};
use super::stack_sink::StackSink;
use super::system_sink::SystemSink;
use crate::profile::frame::ClassRename;
use serde::{Deserialize, Serialize};

/// What a join reads of a later piece's builder.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct PieceParts {
    facts: FactsSink,
    stacks: StackSink,
    renames: Vec<ClassRename>,
    names_cut: u64,
}

impl Piece {
    /// The parts of this piece a join reads; `Doubt` where the join would refuse the piece
    /// (frames made in it, a limit reached, heap or system events), as it then would.
    pub(crate) fn into_parts(self) -> Result<PieceParts, Doubt> {
        let (frames, b) = (self.frames, self.builder);
        let quiet = b.heap.processes.is_empty() && b.graph.is_empty() && b.system.is_empty();
        if b.frames.slots.len() != frames || b.frames.refused.is_some() || b.stacks.refused.is_some() || !quiet {
            return Err(Doubt);
        }
        Ok(PieceParts { facts: b.facts, stacks: b.stacks, renames: b.frames.renames, names_cut: b.frames.names.cut })
    }

    /// This fresh piece (`ProfileBuilder::piece`, made where the piece's sender made its
    /// own) as the sender's stood when it gave `parts`.
    pub(crate) fn with_parts(mut self, parts: PieceParts) -> Piece {
        let b = &mut self.builder;
        let (facts_limits, stack_limits) = (b.facts.limits.clone(), b.stacks.limits.clone());
        b.facts = FactsSink { limits: facts_limits, ..parts.facts };
        b.stacks = StackSink { limits: stack_limits, ..parts.stacks };
        b.frames.renames = parts.renames;
        b.frames.names.cut = parts.names_cut;
        self
    }
}

impl SystemSink {
    /// Nothing written to it.
    pub(crate) fn is_empty(&self) -> bool {
        self.app_frames.is_empty()
            && self.display_frames.is_empty()
            && self.derived_frames.is_none()
            && self.states.is_empty()
            && self.sched.is_empty()
            && self.blocked_functions.is_empty()
            && self.cpus == 0
            && self.names.cut == 0
    }
}

#[cfg(test)]
mod tests {
    use crate::options::Options;
    use crate::profile::builder::merge_tests::app_frame;
    use crate::profile::builder::ProfileBuilder;
    use crate::profile::states::StateLog;

    /// A piece that wrote anything but stacks and facts is not sent: its join would refuse
    /// it (system events are joined only where pieces are read on threads, and a method
    /// trace's pieces write none), and the receiver reads once.
    #[test]
    fn a_piece_with_any_system_heap_or_frame_writes_is_not_sent() {
        let header = ProfileBuilder::new(&Options::default());
        assert!(header.piece().into_parts().is_ok(), "a piece of stacks alone is sent");
        let writes: [fn(&mut ProfileBuilder); 10] = [
            |b| b.system.app_frames.push(app_frame(1)),
            |b| b.system.display_frames.push(app_frame(1)),
            |b| b.system.derived_frames = Some((Vec::new(), String::new())),
            |b| b.system.states.push(StateLog::default()),
            |b| b.system.sched.push(None),
            |b| b.system.blocked_functions.push("f".into()),
            |b| b.system.cpus = 1,
            |b| b.system.names.cut = 1,
            |b| b.stacks.refuse(super::super::Limit::Depth),
            |b| {
                b.frames.add_frame(7, None);
            },
        ];
        for (i, write) in writes.iter().enumerate() {
            let mut piece = header.piece();
            write(&mut piece.builder);
            assert!(piece.into_parts().is_err(), "write {i} is refused");
        }
    }
}
