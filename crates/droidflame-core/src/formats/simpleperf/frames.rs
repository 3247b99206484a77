//! `FrameTable`: the builder's frame slot of each call-chain entry. Function ids are small
//! and dense within a file, so most entries are found by two indexings; addresses with no
//! known function, and ids too large to index (damage), go through a hash map.

use super::proto::{CallChainEntry, INTERPRETED_JVM_METHOD, JIT_JVM_METHOD};
use super::symbols::FrameKey;
use crate::profile::ProfileBuilder;
use rustc_hash::FxHashMap;

/// File ids are indexed below this.
const DENSE_FILES: u32 = 1 << 16;
/// Function ids are indexed below this.
const DENSE_SYMBOLS: u32 = 1 << 20;
/// At most this many index entries in all: damaged ids must not claim much memory.
const DENSE_BUDGET: usize = 1 << 24;

#[derive(Debug, Default)]
pub struct FrameTable {
    /// `[file][symbol]`: the frame's slot + 1; 0 where there is none yet.
    dense: Vec<Vec<u32>>,
    dense_entries: usize,
    other: FxHashMap<FrameKey, u32>,
    /// By slot: what the frame is, and whether a sample ran it as Java (interpreted or JIT).
    pub keys: Vec<(FrameKey, bool)>,
}

impl FrameTable {
    /// The slot of the frame `entry` is in, made on first sight.
    #[inline]
    pub fn slot(&mut self, entry: &CallChainEntry, builder: &mut ProfileBuilder) -> u32 {
        let file = entry.file_id.unwrap_or(0);
        let java = matches!(entry.execution_type, Some(INTERPRETED_JVM_METHOD | JIT_JVM_METHOD));
        let slot = match entry.symbol_id.unwrap_or(0) {
            symbol if symbol >= 0 => self.symbol_slot(file, symbol as u32, builder),
            _ => {
                let key = FrameKey::Address { file, vaddr: entry.vaddr_in_file.unwrap_or(0) };
                self.other_slot(key, builder)
            }
        };
        if java {
            self.mark_java(slot);
        }
        slot
    }

    /// The slot of the frame that stands for an empty call chain.
    pub fn no_call_chain(&mut self, builder: &mut ProfileBuilder) -> u32 {
        self.other_slot(FrameKey::NoCallChain, builder)
    }

    #[inline]
    fn symbol_slot(&mut self, file: u32, symbol: u32, builder: &mut ProfileBuilder) -> u32 {
        if let Some(&found) = self.dense.get(file as usize).and_then(|symbols| symbols.get(symbol as usize)) {
            if found != 0 {
                return found - 1;
            }
        }
        let key = FrameKey::Symbol { file, symbol };
        if file >= DENSE_FILES || symbol >= DENSE_SYMBOLS {
            return self.other_slot(key, builder);
        }
        let (file, symbol) = (file as usize, symbol as usize);
        let grow = (file + 1).saturating_sub(self.dense.len())
            + (symbol + 1).saturating_sub(self.dense.get(file).map_or(0, Vec::len));
        if self.dense_entries + grow > DENSE_BUDGET {
            return self.other_slot(key, builder);
        }
        let slot = self.add(key, builder);
        if self.dense.len() <= file {
            self.dense.resize_with(file + 1, Vec::new);
        }
        let symbols = &mut self.dense[file];
        if symbols.len() <= symbol {
            symbols.resize(symbol + 1, 0);
        }
        symbols[symbol] = slot + 1;
        self.dense_entries += grow;
        slot
    }

    fn other_slot(&mut self, key: FrameKey, builder: &mut ProfileBuilder) -> u32 {
        if let Some(&slot) = self.other.get(&key) {
            return slot;
        }
        let slot = self.add(key, builder);
        self.other.insert(key, slot);
        slot
    }

    #[cold]
    fn add(&mut self, key: FrameKey, builder: &mut ProfileBuilder) -> u32 {
        let slot = builder.frames.add_frame(self.keys.len() as u64, None);
        if slot as usize == self.keys.len() {
            self.keys.push((key, false));
        }
        slot
    }

    #[inline]
    fn mark_java(&mut self, slot: u32) {
        if let Some(entry) = self.keys.get_mut(slot as usize) {
            entry.1 = true;
        }
    }
}
