//! `ChunkFeeder`: hands a decoder contiguous bytes from chunks of any size. Decoders only
//! consume whole items; the feeder keeps the unconsumed tail and joins it with the next
//! chunk, copying only as much of that chunk as it takes to finish the pending item, then
//! decodes the rest of the chunk in place.

use crate::error::Result;

/// The first bite taken from a new chunk to complete a pending item; doubles as needed.
const FIRST_TAKE: usize = 256;

#[derive(Debug, Default)]
pub struct ChunkFeeder {
    pending: Vec<u8>,
    /// Absolute offset of `pending[0]` (or of the next byte, when it is empty).
    offset: u64,
}

impl ChunkFeeder {
    /// A feeder whose first byte is at absolute `offset` (reading resumed mid-input).
    pub fn at(offset: u64) -> Self {
        ChunkFeeder { pending: Vec::new(), offset }
    }

    /// Feeds `chunk`. `decode(data, offset)` must consume a prefix of whole items and
    /// return its length; it must consume the same prefix whatever follows it.
    pub fn push(&mut self, mut chunk: &[u8], mut decode: impl FnMut(&[u8], u64) -> Result<usize>) -> Result<()> {
        while !self.pending.is_empty() && !chunk.is_empty() {
            let old = self.pending.len();
            let take = chunk.len().min(old.max(FIRST_TAKE));
            self.pending.extend_from_slice(&chunk[..take]);
            let used = decode(&self.pending, self.offset)?;
            self.offset += used as u64;
            if used >= old {
                // The old tail is gone; whatever else was used came from `chunk`.
                self.pending.clear();
                chunk = &chunk[used - old..];
                break;
            }
            self.pending.drain(..used);
            chunk = &chunk[take..];
        }
        if self.pending.is_empty() && !chunk.is_empty() {
            let used = decode(chunk, self.offset)?;
            self.offset += used as u64;
            self.pending.extend_from_slice(&chunk[used..]);
        }
        Ok(())
    }

    /// What no decode step could use, and its absolute offset.
    pub fn rest(&self) -> (&[u8], u64) {
        (&self.pending, self.offset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A decoder of length-prefixed items, to check that every split of the input gives
    /// the same items at the same offsets.
    fn items(data: &[u8], offset: u64, out: &mut Vec<(u64, Vec<u8>)>) -> usize {
        let mut at = 0;
        while let Some(&len) = data.get(at) {
            let Some(item) = data.get(at + 1..at + 1 + len as usize) else {
                break;
            };
            out.push((offset + at as u64, item.to_vec()));
            at += 1 + len as usize;
        }
        at
    }

    #[test]
    fn every_chunking_gives_the_same_items() {
        let mut input = Vec::new();
        for n in 0..200u32 {
            let len = (n * 37 % 300).min(255) as u8;
            input.push(len);
            input.extend((0..len).map(|i| i.wrapping_mul(n as u8)));
        }
        let mut whole = Vec::new();
        items(&input, 0, &mut whole);
        for size in [1, 2, 3, 7, 64, 255, 256, 1000, 4096] {
            let mut feeder = ChunkFeeder::default();
            let mut got = Vec::new();
            for chunk in input.chunks(size) {
                feeder.push(chunk, |d, o| Ok(items(d, o, &mut got))).unwrap();
            }
            assert_eq!(got, whole, "chunk size {size}");
            assert!(feeder.rest().0.is_empty());
            assert_eq!(feeder.rest().1, input.len() as u64);
        }
    }
}
