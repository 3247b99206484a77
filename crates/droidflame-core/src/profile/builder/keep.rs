//! Which calls are kept, with `Options::keep_calls`: every one, until there are more than
//! `Options::max_calls`; then the longest, by a count of calls by length.

use serde::{Deserialize, Serialize};

/// Which returning calls are kept: with `Options::keep_calls`, those at least `shortest`
/// ticks long on the timeline clock (0 until there were more than `Options::max_calls`).
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub(super) struct KeepCalls {
    pub(super) on: bool,
    pub(super) shortest: u64,
}

impl KeepCalls {
    /// Every call, whatever its length.
    pub(super) fn all(self) -> KeepCalls {
        KeepCalls { shortest: 0, ..self }
    }
}

/// How many calls have each length, in buckets four to an octave (exact below 8 ticks), to
/// choose how short a call may be and still be kept.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct CallLengths {
    #[serde(with = "buckets")]
    pub(super) buckets: [u64; CallLengths::BUCKETS],
}

impl Default for CallLengths {
    fn default() -> Self {
        CallLengths { buckets: [0; CallLengths::BUCKETS] }
    }
}

impl CallLengths {
    /// 8 exact lengths, then 61 octaves (8 to 2^64) of 4.
    pub(super) const BUCKETS: usize = 8 + 61 * 4;

    pub(super) fn bucket(length: u64) -> usize {
        if length < 8 {
            return length as usize;
        }
        let octave = 63 - length.leading_zeros() as usize;
        8 + (octave - 3) * 4 + ((length >> (octave - 2)) & 3) as usize
    }

    /// The shortest length in `bucket`.
    pub(super) fn lower_bound(bucket: usize) -> u64 {
        if bucket < 8 {
            return bucket as u64;
        }
        // 8 is a multiple of 4: the quarter of `bucket - 8` is that of `bucket`.
        let (octave, quarter) = ((bucket - 8) / 4 + 3, bucket % 4);
        (4 + quarter as u64) << (octave - 2)
    }

    pub(super) fn add(&mut self, length: u64) {
        self.buckets[Self::bucket(length)] += 1;
    }

    /// Counts `other`'s calls too.
    pub(super) fn add_all(&mut self, other: &CallLengths) {
        self.buckets.iter_mut().zip(&other.buckets).for_each(|(count, more)| *count += more);
    }

    /// Calls counted.
    pub(super) fn total(&self) -> u64 {
        self.buckets.iter().sum()
    }

    /// The shortest length that at most `count` calls reach.
    pub(super) fn shortest_within(&self, count: u64) -> u64 {
        let mut reached = 0;
        for bucket in (0..self.buckets.len()).rev() {
            reached += self.buckets[bucket];
            if reached > count {
                return if bucket + 1 < Self::BUCKETS { Self::lower_bound(bucket + 1) } else { u64::MAX };
            }
        }
        0
    }
}

/// The buckets sent elsewhere (a piece read on another worker) as a list: serde takes
/// arrays of at most 32.
mod buckets {
    use super::CallLengths;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub(super) fn serialize<S: Serializer>(buckets: &[u64; CallLengths::BUCKETS], s: S) -> Result<S::Ok, S::Error> {
        buckets.as_slice().serialize(s)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[u64; CallLengths::BUCKETS], D::Error> {
        let list = Vec::<u64>::deserialize(d)?;
        list.try_into().map_err(|_| serde::de::Error::custom("a histogram of call lengths of another size"))
    }
}
