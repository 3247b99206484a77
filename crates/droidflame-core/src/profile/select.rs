//! Choosing what a profile shows: one of its sources, and for heap sources, one dump.

use super::clock::{Clock, TimeUnit};
use super::heap::HeapView;
use super::model::{Profile, Shown};
use super::repairs::counted;
use super::source::{Count, Source, SourceKind, Unit};
use super::stacks::StackProfile;
use crate::error::{Error, ErrorKind, Result};
use std::sync::OnceLock;

impl Profile {
    /// The sources this trace has, in order of preference: the first is shown by default.
    pub fn sources(&self) -> &[Source] {
        &self.sources
    }

    /// The stack profile of the source `kind`, where the trace has it and it is no heap
    /// source (a heap source's is made from a dump when it is shown).
    pub fn stacks_of(&self, kind: SourceKind) -> Option<&StackProfile> {
        self.stack_profiles.iter().find(|s| s.source.kind == kind)
    }

    /// The source the profile shows now.
    pub fn source(&self) -> &Source {
        match &self.shown {
            // Without making the dump's stacks.
            Shown::Dump(kind, _) => self.sources.iter().find(|s| s.kind == *kind).expect("a shown source is listed"),
            _ => &self.stacks().source,
        }
    }

    /// Shows `kind` from now on: every product reads its stack profile (its threads, unit
    /// and clocks). A heap source shows the dump chosen with [`Profile::select_dump`] (the
    /// last by default). Nothing is moved: the profile shows another of its stack profiles.
    pub fn select_source(&mut self, kind: SourceKind) -> Result<()> {
        if kind == self.source().kind {
            return Ok(());
        }
        if !self.sources.iter().any(|s| s.kind == kind) {
            let have = self.sources.iter().map(|s| s.kind.name()).collect::<Vec<_>>().join(", ");
            return Err(Error::new(
                ErrorKind::Request,
                format!("this trace has no {} source; it has: {have}", kind.name()),
            ));
        }
        self.shown = if kind.from_dumps() {
            let heap = self.heap.as_ref().expect("a heap source has heap dumps");
            Shown::Heap(Box::new(heap.stack_profile(HeapView { kind, dump: self.dump }, &self.sources)))
        } else if self.heap_graph.is_some() && kind.is_heap() {
            Shown::Dump(kind, OnceLock::new())
        } else {
            let at = self.stack_profiles.iter().position(|d| d.source.kind == kind).expect("a listed source is kept");
            Shown::Stacks(at)
        };
        Ok(())
    }

    /// The heap dump heap sources show, by its place in time (the last where none is
    /// chosen), and how many dumps there are; `None` where the trace has no heap profile.
    pub fn dumps(&self) -> Option<(usize, usize)> {
        let heap = self.heap.as_ref()?;
        let count = heap.dump_count();
        Some((self.dump.unwrap_or(count.saturating_sub(1)).min(count.saturating_sub(1)), count))
    }

    /// When each heap dump was taken (the latest of its heaps'), in µs from the start of the
    /// trace's timeline.
    pub fn dump_times_us(&self) -> Vec<u64> {
        let Some(heap) = &self.heap else { return Vec::new() };
        (0..heap.dump_count())
            .map(|i| {
                let latest =
                    heap.processes.iter().flat_map(|p| &p.heaps).filter_map(|h| h.dumps.get(i)).map(|d| d.time).max();
                let ns = latest.unwrap_or(self.system.timeline.start).saturating_sub(self.system.timeline.start);
                heap.time_unit.micros(ns)
            })
            .collect()
    }

    /// Heap sources show dump `dump` (counted from 0 in time order) from now on.
    pub fn select_dump(&mut self, dump: usize) -> Result<()> {
        let Some((_, count)) = self.dumps() else {
            return Err(Error::new(ErrorKind::Request, "this trace has no heap profile, so no dumps to choose from"));
        };
        if dump >= count {
            let choose =
                if count == 1 { "its only one is 0".to_owned() } else { format!("choose one from 0 to {}", count - 1) };
            return Err(Error::new(
                ErrorKind::Request,
                format!("this trace's heap profile has {}: {choose}", counted(count as u64, "dump", "dumps")),
            ));
        }
        self.dump = Some(dump);
        let kind = self.source().kind;
        if kind.from_dumps() {
            let heap = self.heap.as_ref().expect("a heap source has heap dumps");
            self.shown = Shown::Heap(Box::new(heap.stack_profile(HeapView { kind, dump: self.dump }, &self.sources)));
        }
        Ok(())
    }

    /// The length of a tick of the trace's timeline (of `timeline`, `gaps` and calls),
    /// whichever source is shown: a heap source's values are bytes, not ticks.
    pub fn trace_time_unit(&self) -> TimeUnit {
        self.system.time_unit
    }

    /// What the selected source's nodes count (`Node::calls`).
    pub fn count(&self) -> Count {
        self.source().kind.count()
    }

    /// Whether the nodes' counts are known: not within a time range of samples, whose
    /// samples are not kept one by one.
    pub fn counts_known(&self) -> bool {
        !self.stacks().counts_unknown
    }

    /// The unit of the selected source's values (on its default clock).
    pub fn unit(&self) -> Unit {
        self.source().unit
    }

    /// The unit of the selected source's values on `clock`: the source's on its default
    /// clock; µs on the other, which is time (CPU samples counted have a wall clock).
    pub fn unit_of(&self, clock: Clock) -> Unit {
        if clock == self.default_clock() {
            self.source().unit
        } else {
            Unit::Micros
        }
    }
}
