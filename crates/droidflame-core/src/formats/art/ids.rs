//! `IdIndex`: a trace's ids to builder slots. ART numbers methods 0, 4, 8, ... and older
//! threads with 16-bit ids, so the common ids index a table directly and never hash;
//! other ids (V2's 64-bit method pointers, wide thread ids) go through a hash map.

use crate::profile::NONE;
use rustc_hash::FxHashMap;

/// Ids that are multiples of `2^SHIFT` below `LIMIT << SHIFT` index a table; the others
/// are hashed. Constants, so the per-record lookup is a shift, a compare and a load.
#[derive(Debug, Clone)]
pub struct IdIndex<const SHIFT: u32, const LIMIT: u64> {
    dense: Vec<u32>,
    sparse: FxHashMap<u64, u32>,
}

impl<const SHIFT: u32, const LIMIT: u64> IdIndex<SHIFT, LIMIT> {
    pub fn new() -> Self {
        IdIndex { dense: Vec::new(), sparse: FxHashMap::default() }
    }

    #[inline(always)]
    fn dense_at(id: u64) -> Option<usize> {
        let at = id >> SHIFT;
        (id & ((1 << SHIFT) - 1) == 0 && at < LIMIT).then_some(at as usize)
    }

    /// The slot of `id`, if it has one.
    #[inline(always)]
    pub fn get(&self, id: u64) -> Option<u32> {
        match Self::dense_at(id) {
            Some(at) => self.dense.get(at).copied().filter(|&slot| slot != NONE),
            None => self.sparse.get(&id).copied(),
        }
    }

    /// Gives `id` the slot `slot`, replacing any earlier one.
    pub fn insert(&mut self, id: u64, slot: u32) {
        match Self::dense_at(id) {
            Some(at) => {
                if self.dense.len() <= at {
                    let grown = (at + 1).max(self.dense.len() * 2).min(LIMIT as usize);
                    self.dense.resize(grown, NONE);
                }
                self.dense[at] = slot;
            }
            None => {
                self.sparse.insert(id, slot);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::IdIndex;

    #[test]
    fn table_and_hash_ids_keep_their_slots() {
        let mut index = IdIndex::<2, { 1 << 20 }>::new();
        for (id, slot) in [(0, 1), (4, 2), (5, 3), (1 << 40, 4), ((1 << 22) - 4, 5), (1 << 22, 6)] {
            index.insert(id, slot);
        }
        let got: Vec<_> = [0, 4, 5, 1 << 40, (1 << 22) - 4, 1 << 22, 8].iter().map(|&id| index.get(id)).collect();
        assert_eq!(got, [Some(1), Some(2), Some(3), Some(4), Some(5), Some(6), None]);
        index.insert(4, 9);
        assert_eq!(index.get(4), Some(9));
    }
}
