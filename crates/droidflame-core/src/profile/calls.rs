//! Calls one by one, each with its start, end, depth and frame: what a timeline draws and
//! what "which call was slow" needs. Kept only when `Options::keep_calls` asks, because
//! they grow with the trace (32 bytes a call) where the call trees do not.

/// One call of one thread.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Call {
    /// When it began, in ticks on the profile's timeline clock: the wall clock where the
    /// trace has it, else the thread's CPU clock.
    pub start: u64,
    /// When it returned, on the same clock (`end >= start`).
    pub end: u64,
    /// Thread-CPU ticks it used; 0 where the trace has no CPU clock.
    pub cpu: u64,
    /// Index into `Profile::frames`.
    pub frame: u32,
    /// 0 for the thread's outermost frames.
    pub depth: u32,
}

impl Call {
    /// Its length on the timeline clock.
    pub fn duration(&self) -> u64 {
        self.end - self.start
    }

    /// Whether it overlaps `from..=to` (a call ending exactly at `from` does).
    pub fn overlaps(&self, from: u64, to: u64) -> bool {
        self.start <= to && self.end >= from
    }
}

/// One thread's calls, by depth, each depth in time order. Calls at one depth of one
/// thread never overlap, so each depth is sorted by start and by end at once, and a time
/// window is two binary searches per depth.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ThreadCalls {
    calls: Vec<Call>,
    /// Depth `d` is `calls[depths[d]..depths[d + 1]]`.
    depths: Vec<usize>,
}

impl ThreadCalls {
    /// From calls in the order they returned (which at one depth is time order).
    /// `rebases` are positions in `closed` where the builder put a frame from before
    /// tracing under the whole stack: every call that returned before such a position was
    /// running inside that frame, one level deeper than it knew.
    pub(crate) fn from_closed(mut closed: Vec<Call>, rebases: &[usize]) -> ThreadCalls {
        let mut passed = 0;
        let mut max_depth = 0;
        for (i, call) in closed.iter_mut().enumerate() {
            while passed < rebases.len() && rebases[passed] <= i {
                passed += 1;
            }
            call.depth += (rebases.len() - passed) as u32;
            max_depth = max_depth.max(call.depth as usize);
        }
        if closed.is_empty() {
            return ThreadCalls::default();
        }
        // A stable counting sort by depth keeps each depth in time order, in linear time.
        let mut depths = vec![0usize; max_depth + 2];
        for call in &closed {
            depths[call.depth as usize + 1] += 1;
        }
        for d in 1..depths.len() {
            depths[d] += depths[d - 1];
        }
        let mut next = depths.clone();
        let mut calls = vec![Call { start: 0, end: 0, cpu: 0, frame: 0, depth: 0 }; closed.len()];
        for call in closed {
            let slot = &mut next[call.depth as usize];
            calls[*slot] = call;
            *slot += 1;
        }
        ThreadCalls { calls, depths }
    }

    /// How many calls.
    pub fn len(&self) -> usize {
        self.calls.len()
    }

    /// Whether there are none (also when calls were not kept).
    pub fn is_empty(&self) -> bool {
        self.calls.is_empty()
    }

    /// Every call, depth by depth.
    pub fn all(&self) -> &[Call] {
        &self.calls
    }

    /// Depths with calls: `0..depth_count()`.
    pub fn depth_count(&self) -> usize {
        self.depths.len().saturating_sub(1)
    }

    /// The calls at `depth`, in time order.
    pub fn at_depth(&self, depth: usize) -> &[Call] {
        match (self.depths.get(depth), self.depths.get(depth + 1)) {
            (Some(&a), Some(&b)) => &self.calls[a..b],
            _ => &[],
        }
    }

    /// The calls at `depth` that overlap `from..=to`.
    pub fn overlapping_at(&self, depth: usize, from: u64, to: u64) -> &[Call] {
        let calls = self.at_depth(depth);
        let first = calls.partition_point(|c| c.end < from);
        let last = first + calls[first..].partition_point(|c| c.start <= to);
        &calls[first..last]
    }

    /// The calls that overlap `from..=to`, depth by depth.
    pub fn overlapping(&self, from: u64, to: u64) -> impl Iterator<Item = &Call> + '_ {
        (0..self.depth_count()).flat_map(move |d| self.overlapping_at(d, from, to))
    }

    /// Every call in start order, callers before the calls they make.
    pub fn in_start_order(&self) -> Vec<&Call> {
        let mut order: Vec<&Call> = self.calls.iter().collect();
        order.sort_by_key(|c| (c.start, c.depth));
        order
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(start: u64, end: u64, depth: u32) -> Call {
        Call { start, end, cpu: 0, frame: depth, depth }
    }

    #[test]
    fn depths_sorted_and_rebased() {
        // Returned in this order: b (depth 1) and a (depth 0), then a frame from before
        // tracing (rebase at 2) closes c (depth 1) and itself (depth 0): b and a were
        // inside it all along.
        let closed = vec![call(2, 3, 1), call(1, 4, 0), call(5, 6, 1), call(0, 6, 0), call(7, 8, 0)];
        let calls = ThreadCalls::from_closed(closed, &[2]);
        assert_eq!(calls.depth_count(), 3);
        assert_eq!(calls.at_depth(0), &[call(0, 6, 0), call(7, 8, 0)]);
        let one: Vec<(u64, u64)> = calls.at_depth(1).iter().map(|c| (c.start, c.end)).collect();
        assert_eq!(one, [(1, 4), (5, 6)]);
        assert_eq!(calls.at_depth(2)[0].start, 2);
        assert!(calls.at_depth(3).is_empty());
        let starts: Vec<u64> = calls.in_start_order().iter().map(|c| c.start).collect();
        assert_eq!(starts, [0, 1, 2, 5, 7]);
    }

    #[test]
    fn windows_find_exactly_the_overlapping_calls() {
        let closed: Vec<Call> = (0..50).map(|i| call(i * 10, i * 10 + 5, 0)).collect();
        let calls = ThreadCalls::from_closed(closed, &[]);
        for (from, to) in [(0, 0), (5, 10), (6, 9), (12, 37), (490, 1000), (1000, 2000)] {
            let got: Vec<Call> = calls.overlapping(from, to).copied().collect();
            let want: Vec<Call> = calls.all().iter().filter(|c| c.overlaps(from, to)).copied().collect();
            assert_eq!(got, want, "{from}..={to}");
        }
    }
}
