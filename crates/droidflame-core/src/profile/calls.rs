//! Calls one by one, each with its start, end, depth and frame: what a timeline draws and
//! what "which call was slow" needs. Kept only when `Options::keep_calls` asks, because
//! they grow with the trace (32 bytes a call) where the call trees do not.

use serde::{Deserialize, Serialize};

/// One call of one thread. Its depth is where it is kept ([`ThreadCalls::at_depth`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
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
    /// Its node in the thread's `CallTree` (its call stack); `NONE` for a call read
    /// again (`Reread`).
    pub node: u32,
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
/// window is two binary searches per depth. The builder files each call under its depth
/// as it returns, so nothing is sorted afterwards.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThreadCalls {
    #[serde(with = "packed")]
    depths: Vec<Vec<Call>>,
}

impl ThreadCalls {
    /// An empty set, to file calls into as they return.
    pub(crate) fn new() -> Self {
        ThreadCalls { depths: Vec::new() }
    }

    /// Calls of one thread with their depths, in any order (calls at one depth must not
    /// overlap).
    pub fn from_calls(calls: impl IntoIterator<Item = (u32, Call)>) -> Self {
        let mut calls: Vec<(u32, Call)> = calls.into_iter().collect();
        calls.sort_by_key(|&(depth, call)| (depth, call.start));
        let mut out = ThreadCalls::new();
        calls.into_iter().for_each(|(depth, call)| out.push(depth as usize, call));
        out
    }

    /// Files a call that returned at `depth`; calls at one depth return in time order.
    #[inline(always)]
    pub(crate) fn push(&mut self, depth: usize, call: Call) {
        if depth >= self.depths.len() {
            self.depths.resize_with(depth + 1, Vec::new);
        }
        self.depths[depth].push(call);
    }

    /// A frame from before tracing was put under the whole stack: every call kept so far
    /// ran inside it, one level deeper than it was filed.
    pub(crate) fn rebase(&mut self) {
        if !self.depths.is_empty() {
            self.depths.insert(0, Vec::new());
        }
    }

    /// Files `later`'s calls after these, depth by depth: they returned after every call
    /// here, so each depth stays in time order. `node` renumbers their call-tree nodes.
    pub(crate) fn append(&mut self, later: ThreadCalls, node: impl Fn(u32) -> u32) {
        for (depth, calls) in later.depths.into_iter().enumerate() {
            for call in calls {
                self.push(depth, Call { node: node(call.node), ..call });
            }
        }
    }

    /// Files `later`'s calls after these, each `by` levels deeper than it was filed
    /// (shallower where `by` is negative; no call may end above depth 0). `node`
    /// renumbers their call-tree nodes. Each depth moves whole, not call by call.
    pub(crate) fn append_moved(&mut self, later: ThreadCalls, by: isize, node: impl Fn(u32) -> u32) {
        for (depth, mut calls) in later.depths.into_iter().enumerate().filter(|(_, calls)| !calls.is_empty()) {
            let depth = depth.checked_add_signed(by).expect("a call moves to depth 0 or deeper");
            calls.iter_mut().for_each(|call| call.node = node(call.node));
            if depth >= self.depths.len() {
                self.depths.resize_with(depth + 1, Vec::new);
            }
            let into = &mut self.depths[depth];
            if into.is_empty() {
                *into = calls;
            } else {
                into.append(&mut calls);
            }
        }
    }

    /// Lets go of the calls shorter than `shortest`, except the ones at `kept` (depth and
    /// place, each depth at most once), whose places are updated.
    pub(crate) fn retain_longer(&mut self, shortest: u64, kept: &mut [(usize, usize)]) {
        for (depth, calls) in self.depths.iter_mut().enumerate() {
            let mut protected = kept.iter_mut().find(|(d, _)| *d == depth);
            let keep_at = protected.as_ref().map_or(usize::MAX, |(_, place)| *place);
            let mut place = 0;
            let mut at = 0;
            calls.retain(|call| {
                let keep = at == keep_at || call.duration() >= shortest;
                if at == keep_at {
                    if let Some((_, new_place)) = protected.as_deref_mut() {
                        *new_place = place;
                    }
                }
                place += usize::from(keep);
                at += 1;
                keep
            });
        }
    }

    /// The calls at `depth`, to be changed in place (frames renumbered, starts moved).
    pub(crate) fn at_depth_mut(&mut self, depth: usize) -> &mut [Call] {
        self.depths.get_mut(depth).map_or(&mut [], Vec::as_mut_slice)
    }

    /// Every call, changed in place.
    pub(crate) fn for_each_mut(&mut self, change: impl FnMut(&mut Call)) {
        self.depths.iter_mut().flatten().for_each(change);
    }

    /// How many calls.
    pub fn len(&self) -> usize {
        self.depths.iter().map(Vec::len).sum()
    }

    /// Whether there are none (also when calls were not kept).
    pub fn is_empty(&self) -> bool {
        self.depths.iter().all(Vec::is_empty)
    }

    /// Every call with its depth, depth by depth.
    pub fn iter(&self) -> impl Iterator<Item = (u32, &Call)> + '_ {
        self.depths.iter().enumerate().flat_map(|(d, calls)| calls.iter().map(move |c| (d as u32, c)))
    }

    /// Depths with calls: `0..depth_count()`.
    pub fn depth_count(&self) -> usize {
        self.depths.len()
    }

    /// The calls at `depth`, in time order.
    pub fn at_depth(&self, depth: usize) -> &[Call] {
        self.depths.get(depth).map_or(&[], Vec::as_slice)
    }

    /// The calls at `depth` that overlap `from..=to`.
    pub fn overlapping_at(&self, depth: usize, from: u64, to: u64) -> &[Call] {
        let calls = self.at_depth(depth);
        let first = calls.partition_point(|c| c.end < from);
        let last = first + calls[first..].partition_point(|c| c.start <= to);
        &calls[first..last]
    }

    /// The calls that overlap `from..=to`, with their depths, depth by depth.
    pub fn overlapping(&self, from: u64, to: u64) -> impl Iterator<Item = (u32, &Call)> + '_ {
        (0..self.depth_count()).flat_map(move |d| self.overlapping_at(d, from, to).iter().map(move |c| (d as u32, c)))
    }

    /// Every call with its depth in start order, callers before the calls they make.
    pub fn in_start_order(&self) -> Vec<(u32, &Call)> {
        let mut order: Vec<(u32, &Call)> = self.iter().collect();
        order.sort_by_key(|(d, c)| (c.start, *d));
        order
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(start: u64, end: u64) -> Call {
        Call { start, end, cpu: 0, frame: 0, node: 0 }
    }

    #[test]
    fn calls_sent_as_bytes_read_back_the_same_whatever_their_numbers() {
        let odd = [
            Call { start: 5, end: 9, cpu: 3, frame: 7, node: 1 },
            // Times that ran backwards, and a call that ends before it starts.
            Call { start: 2, end: 1, cpu: u64::MAX, frame: u32::MAX, node: u32::MAX },
            Call { start: u64::MAX, end: u64::MAX, cpu: 0, frame: 0, node: 0 },
            Call { start: 0, end: u64::MAX, cpu: 1 << 63, frame: 1, node: 2 },
        ];
        let calls = ThreadCalls { depths: vec![odd.to_vec(), Vec::new(), vec![call(1, 2)]] };
        let bytes = postcard::to_allocvec(&calls).unwrap();
        assert_eq!(postcard::from_bytes::<ThreadCalls>(&bytes).unwrap(), calls);
        // Cut short, or with a number too large for a frame: an error, not other calls.
        assert!(postcard::from_bytes::<ThreadCalls>(&bytes[..bytes.len() - 1]).is_err());
        let mut wide = ThreadCalls { depths: vec![vec![call(1, 2)]] };
        let mut bytes = postcard::to_allocvec(&wide).unwrap();
        assert_eq!(bytes, [1, 5, 1, 1, 0, 0, 0]);
        bytes.splice(5..6, [0xFF, 0xFF, 0xFF, 0xFF, 0x7F]);
        bytes[1] = 9;
        assert!(postcard::from_bytes::<ThreadCalls>(&bytes).is_err());
        wide.depths.clear();
        assert_eq!(postcard::from_bytes::<ThreadCalls>(&postcard::to_allocvec(&wide).unwrap()).unwrap(), wide);
    }

    #[test]
    fn calls_are_filed_by_depth_and_rebased() {
        // b (depth 1) and a (depth 0) return; then a frame from before tracing is put
        // under the stack (b and a were inside it all along); c and that frame return.
        let mut calls = ThreadCalls::new();
        calls.push(1, call(2, 3));
        calls.push(0, call(1, 4));
        calls.rebase();
        calls.push(1, call(5, 6));
        calls.push(0, call(0, 6));
        calls.push(0, call(7, 8));
        assert_eq!(calls.depth_count(), 3);
        assert_eq!(calls.at_depth(0), &[call(0, 6), call(7, 8)]);
        assert_eq!(calls.at_depth(1), &[call(1, 4), call(5, 6)]);
        assert_eq!(calls.at_depth(2), &[call(2, 3)]);
        assert!(calls.at_depth(3).is_empty());
        let starts: Vec<(u32, u64)> = calls.in_start_order().iter().map(|(d, c)| (*d, c.start)).collect();
        assert_eq!(starts, [(0, 0), (1, 1), (2, 2), (1, 5), (0, 7)]);
        assert_eq!(calls.len(), 5);
    }

    #[test]
    fn short_calls_go_and_protected_ones_stay_where_they_moved() {
        let mut calls = ThreadCalls::new();
        for (depth, start, end) in [(1, 0, 1), (1, 2, 9), (0, 0, 10), (1, 11, 12), (1, 13, 14), (0, 11, 15)] {
            calls.push(depth, call(start, end));
        }
        // The short call at depth 1, place 3 is protected.
        let mut kept = [(1, 3)];
        calls.retain_longer(5, &mut kept);
        assert_eq!(calls.at_depth(0), &[call(0, 10)]);
        assert_eq!(calls.at_depth(1), &[call(2, 9), call(13, 14)]);
        assert_eq!(kept, [(1, 1)]);
    }

    #[test]
    fn windows_find_exactly_the_overlapping_calls() {
        let mut calls = ThreadCalls::new();
        for i in 0..50 {
            calls.push(0, call(i * 10, i * 10 + 5));
        }
        for (from, to) in [(0, 0), (5, 10), (6, 9), (12, 37), (490, 1000), (1000, 2000)] {
            let got: Vec<Call> = calls.overlapping(from, to).map(|(_, c)| *c).collect();
            let want: Vec<Call> = calls.at_depth(0).iter().filter(|c| c.overlaps(from, to)).copied().collect();
            assert_eq!(got, want, "{from}..={to}");
        }
    }
}

/// Calls sent elsewhere (a piece read on another worker): each depth's as one run of
/// bytes, each call's numbers as variable-length integers, its start as the step from the
/// call before. Written and read in one tight loop, several times faster than field by
/// field, and a third the size of the calls in memory.
mod packed {
    use super::Call;
    use serde::de::{Error, SeqAccess, Visitor};
    use serde::{Deserializer, Serialize, Serializer};
    use std::fmt;

    struct Depth<'a>(&'a [Call]);

    fn put(bytes: &mut Vec<u8>, mut v: u64) {
        while v >= 0x80 {
            bytes.push(v as u8 | 0x80);
            v >>= 7;
        }
        bytes.push(v as u8);
    }

    fn take(bytes: &[u8], at: &mut usize) -> Option<u64> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = *bytes.get(*at)?;
            *at += 1;
            // The tenth byte holds the last bit: more does not fit.
            if shift == 63 && byte > 1 {
                return None;
            }
            v |= u64::from(byte & 0x7F) << shift;
            if byte < 0x80 {
                return Some(v);
            }
        }
        None
    }

    impl Serialize for Depth<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut bytes = Vec::with_capacity(self.0.len() * 12);
            let mut before = 0u64;
            for call in self.0 {
                // Wrapping: a damaged trace's times may run backwards.
                put(&mut bytes, call.start.wrapping_sub(before));
                put(&mut bytes, call.end.wrapping_sub(call.start));
                put(&mut bytes, call.cpu);
                put(&mut bytes, u64::from(call.frame));
                put(&mut bytes, u64::from(call.node));
                before = call.start;
            }
            s.serialize_bytes(&bytes)
        }
    }

    pub(super) fn serialize<S: Serializer>(depths: &[Vec<Call>], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(depths.iter().map(|calls| Depth(calls)))
    }

    fn calls_of<E: Error>(bytes: &[u8]) -> Result<Vec<Call>, E> {
        let broken = || E::custom("calls that do not read back");
        // Each number's last byte is below 0x80; a call is five numbers.
        let count = bytes.iter().filter(|&&b| b < 0x80).count() / 5;
        let (mut calls, mut at, mut before) = (Vec::with_capacity(count), 0, 0u64);
        while at < bytes.len() {
            let mut next = || take(bytes, &mut at).ok_or_else(broken);
            let start = before.wrapping_add(next()?);
            let end = start.wrapping_add(next()?);
            let cpu = next()?;
            let frame = u32::try_from(next()?).map_err(|_| broken())?;
            let node = u32::try_from(next()?).map_err(|_| broken())?;
            calls.push(Call { start, end, cpu, frame, node });
            before = start;
        }
        Ok(calls)
    }

    struct DepthVisitor;

    impl<'de> Visitor<'de> for DepthVisitor {
        type Value = Vec<Call>;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("one depth's calls as bytes")
        }

        fn visit_bytes<E: Error>(self, bytes: &[u8]) -> Result<Vec<Call>, E> {
            calls_of(bytes)
        }
    }

    struct Depths;

    impl<'de> Visitor<'de> for Depths {
        type Value = Vec<Vec<Call>>;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("calls by depth")
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let mut depths = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1 << 16));
            while let Some(calls) = seq.next_element_seed(DepthSeed)? {
                depths.push(calls);
            }
            Ok(depths)
        }
    }

    struct DepthSeed;

    impl<'de> serde::de::DeserializeSeed<'de> for DepthSeed {
        type Value = Vec<Call>;

        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Vec<Call>, D::Error> {
            d.deserialize_bytes(DepthVisitor)
        }
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Vec<Call>>, D::Error> {
        d.deserialize_seq(Depths)
    }
}
