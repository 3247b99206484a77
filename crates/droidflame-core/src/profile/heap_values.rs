//! What a heap dump's objects hold besides references: an instance's primitive fields, and
//! of a primitive array a hash of its whole contents with its first bytes. Enough to show
//! an object's fields, a string's text and to find arrays of equal contents, without
//! keeping the arrays (a dump's bytes are mostly theirs).

use super::chunked::Chunked;
use std::borrow::Cow;

/// Bytes of a primitive array's contents kept as they are (a string's first characters).
pub const ARRAY_PREFIX: usize = 64;

/// The type of a field or an array's elements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldType {
    Object,
    Boolean,
    Char,
    Float,
    Double,
    Byte,
    Short,
    Int,
    Long,
}

impl FieldType {
    /// Bytes a value of it takes in the values (an object's: none, it is a reference).
    pub fn size(self) -> usize {
        match self {
            FieldType::Object => 0,
            FieldType::Boolean | FieldType::Byte => 1,
            FieldType::Char | FieldType::Short => 2,
            FieldType::Float | FieldType::Int => 4,
            FieldType::Double | FieldType::Long => 8,
        }
    }

    /// Its Java name.
    pub fn words(self) -> &'static str {
        match self {
            FieldType::Object => "Object",
            FieldType::Boolean => "boolean",
            FieldType::Char => "char",
            FieldType::Float => "float",
            FieldType::Double => "double",
            FieldType::Byte => "byte",
            FieldType::Short => "short",
            FieldType::Int => "int",
            FieldType::Long => "long",
        }
    }

    /// A value of it, from its big-endian bytes, as Java would print it (a char as itself).
    pub fn show(self, b: &[u8]) -> String {
        let mut word = [0u8; 8];
        word[8 - b.len().min(8)..].copy_from_slice(&b[..b.len().min(8)]);
        let n = u64::from_be_bytes(word);
        match self {
            FieldType::Object => String::new(),
            FieldType::Boolean => (n != 0).to_string(),
            // A control character or half a surrogate pair is shown by its number.
            FieldType::Char => {
                char::from_u32(n as u32).filter(|c| !c.is_control()).map_or_else(|| format!("\\u{n:04x}"), String::from)
            }
            FieldType::Float => f32::from_bits(n as u32).to_string(),
            FieldType::Double => f64::from_bits(n).to_string(),
            FieldType::Byte => (n as u8 as i8).to_string(),
            FieldType::Short => (n as u16 as i16).to_string(),
            FieldType::Int => (n as u32 as i32).to_string(),
            FieldType::Long => (n as i64).to_string(),
        }
    }
}

/// Each object's values, in object order: object `v`'s are `bytes[start[v]..start[v + 1]]`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Values {
    pub(crate) bytes: Chunked<u8>,
    pub start: Vec<u32>,
}

impl Values {
    /// Object `v`'s values (copied only where they span two chunks).
    pub fn of(&self, v: usize) -> Cow<'_, [u8]> {
        let (Some(&a), Some(&b)) = (self.start.get(v), self.start.get(v + 1)) else { return Cow::Borrowed(&[]) };
        let mut slices = self.bytes.slices(a as usize..b as usize);
        match (slices.next(), slices.next()) {
            (None, _) => Cow::Borrowed(&[]),
            (Some(one), None) => Cow::Borrowed(one),
            (Some(one), Some(two)) => Cow::Owned([one, two].into_iter().chain(slices).flatten().copied().collect()),
        }
    }

    /// A primitive array's contents of `size` bytes as its values hold them: a hash of them
    /// all and their first bytes (all of them, where they are no longer than
    /// `ARRAY_PREFIX`); `None` where the dump did not give them whole.
    pub fn contents(&self, v: usize, size: u64) -> Option<(u64, Cow<'_, [u8]>)> {
        let values = self.of(v);
        match usize::try_from(size).ok()? {
            short if short <= ARRAY_PREFIX && values.len() == short => {
                let mut hash = ContentHash::default();
                hash.write(&values);
                Some((hash.finish(), values))
            }
            long if long > ARRAY_PREFIX && values.len() == ARRAY_PREFIX + 8 => {
                let hash = u64::from_le_bytes(values[ARRAY_PREFIX..].try_into().expect("eight bytes"));
                Some((
                    hash,
                    match values {
                        Cow::Borrowed(b) => Cow::Borrowed(&b[..ARRAY_PREFIX]),
                        Cow::Owned(mut o) => {
                            o.truncate(ARRAY_PREFIX);
                            Cow::Owned(o)
                        }
                    },
                ))
            }
            _ => None,
        }
    }
}

/// A hash of an array's contents, fed in pieces: equal contents hash equal, and distinct
/// ones collide about once in 2^64. Sixteen bytes at a time go into one 64×64→128-bit
/// multiply whose halves are folded together (the mixing of wyhash): a few instructions
/// for each block, where bitmaps' pixel buffers run to megabytes.
#[derive(Debug, Clone, Copy)]
pub struct ContentHash {
    state: u64,
    /// Bytes not yet mixed in (fewer than sixteen), and how many.
    pending: [u8; 16],
    pending_len: usize,
    len: u64,
}

impl Default for ContentHash {
    fn default() -> Self {
        ContentHash { state: 0x243F_6A88_85A3_08D3, pending: [0; 16], pending_len: 0, len: 0 }
    }
}

/// wyhash's constants: odd, with half their bits set, far apart.
const P0: u64 = 0xA076_1D64_78BD_642F;
const P1: u64 = 0xE703_7ED1_A0B4_28DB;

/// The 128-bit product of `a` and `b`, its halves folded into 64 bits.
fn folded(a: u64, b: u64) -> u64 {
    let product = u128::from(a) * u128::from(b);
    (product as u64) ^ ((product >> 64) as u64)
}

impl ContentHash {
    fn block(&mut self, block: &[u8]) {
        let low = u64::from_le_bytes(block[..8].try_into().expect("eight bytes"));
        let high = u64::from_le_bytes(block[8..16].try_into().expect("eight bytes"));
        self.state = folded(low ^ P0, high ^ self.state ^ P1);
    }

    pub fn write(&mut self, mut data: &[u8]) {
        self.len += data.len() as u64;
        if self.pending_len > 0 {
            let taken = data.len().min(16 - self.pending_len);
            self.pending[self.pending_len..self.pending_len + taken].copy_from_slice(&data[..taken]);
            self.pending_len += taken;
            data = &data[taken..];
            if self.pending_len < 16 {
                return;
            }
            let pending = self.pending;
            self.block(&pending);
            self.pending_len = 0;
        }
        let mut blocks = data.chunks_exact(16);
        for block in &mut blocks {
            self.block(block);
        }
        let rest = blocks.remainder();
        self.pending[..rest.len()].copy_from_slice(rest);
        self.pending_len = rest.len();
    }

    pub fn finish(mut self) -> u64 {
        // The last bytes, zero-padded: the length, mixed in last, tells them from zeros.
        if self.pending_len > 0 {
            let mut last = [0; 16];
            last[..self.pending_len].copy_from_slice(&self.pending[..self.pending_len]);
            self.block(&last);
        }
        folded(self.state ^ P0, self.len ^ P1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contents_hash_alike_however_they_are_cut_and_apart_when_they_differ() {
        let data: Vec<u8> = (0..100u8).collect();
        let whole = {
            let mut h = ContentHash::default();
            h.write(&data);
            h.finish()
        };
        for cut in [1, 3, 7, 8, 9, 50, 99] {
            let mut h = ContentHash::default();
            h.write(&data[..cut]);
            h.write(&data[cut..]);
            assert_eq!(h.finish(), whole, "cut at {cut}");
        }
        let hash = |d: &[u8]| {
            let mut h = ContentHash::default();
            h.write(d);
            h.finish()
        };
        // Equal words but one byte more, zeros of other lengths, one bit apart.
        assert_ne!(hash(&[0; 8]), hash(&[0; 9]));
        assert_ne!(hash(&[0; 3]), hash(&[0; 4]));
        assert_ne!(hash(&[1, 0]), hash(&[0, 1]));
        assert_ne!(hash(b"record-name-1"), hash(b"record-name-2"));
        assert_ne!(hash(&[]), hash(&[0]));
        // Whole blocks: their number, and their order.
        assert_ne!(hash(&[0; 16]), hash(&[0; 32]));
        let (a, b) = ([1u8; 16], [2u8; 16]);
        assert_ne!(hash(&[a, b].concat()), hash(&[b, a].concat()));
    }

    #[test]
    fn contents_fed_a_byte_at_a_time_hash_as_when_fed_whole() {
        let data: Vec<u8> = (0..100u8).map(|b| b.wrapping_mul(37)).collect();
        let mut whole = ContentHash::default();
        whole.write(&data);
        let mut bytes = ContentHash::default();
        data.iter().for_each(|b| bytes.write(std::slice::from_ref(b)));
        assert_eq!(bytes.finish(), whole.finish());
    }

    #[test]
    fn one_bit_flipped_anywhere_moves_about_half_the_hash() {
        let data: Vec<u8> = (0..40u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
        let hash = |d: &[u8]| {
            let mut h = ContentHash::default();
            h.write(d);
            h.finish()
        };
        let base = hash(&data);
        let moved: Vec<u32> = (0..data.len() * 8)
            .map(|bit| {
                let mut flipped = data.clone();
                flipped[bit / 8] ^= 1 << (bit % 8);
                (hash(&flipped) ^ base).count_ones()
            })
            .collect();
        let mean = moved.iter().sum::<u32>() as f64 / moved.len() as f64;
        assert!((28.0..=36.0).contains(&mean), "{mean} bits of 64 move on average");
        assert!(moved.iter().all(|&m| m >= 12), "every flip moves many bits: {moved:?}");
    }

    #[test]
    fn many_near_alike_contents_never_collide() {
        // 2^17 arrays of 24 bytes, each a counter in one of three places among zeros.
        let mut seen = std::collections::HashSet::new();
        for at in [0usize, 8, 16] {
            for n in 0..(1u64 << 17) / 3 + 1 {
                let mut data = [0u8; 24];
                data[at..at + 8].copy_from_slice(&n.to_le_bytes());
                let mut h = ContentHash::default();
                h.write(&data);
                assert!(seen.insert(h.finish()) || (n == 0 && at > 0), "a collision at {at}, {n}");
            }
        }
    }

    #[test]
    fn values_are_shown_as_java_prints_them() {
        assert_eq!(FieldType::Int.show(&(-5i32).to_be_bytes()), "-5");
        assert_eq!(FieldType::Long.show(&(1i64 << 40).to_be_bytes()), "1099511627776");
        assert_eq!(FieldType::Boolean.show(&[1]), "true");
        assert_eq!(FieldType::Char.show(&[0, b'A']), "A");
        assert_eq!(FieldType::Char.show(&[0, 0]), "\\u0000");
        assert_eq!(FieldType::Double.show(&1.5f64.to_be_bytes()), "1.5");
        assert_eq!(FieldType::Float.show(&0.25f32.to_be_bytes()), "0.25");
        assert_eq!(FieldType::Short.show(&(-2i16).to_be_bytes()), "-2");
        assert_eq!(FieldType::Byte.show(&[0xFF]), "-1");
    }

    #[test]
    fn an_array_whose_contents_were_cut_has_none() {
        let hash = |d: &[u8]| {
            let mut h = ContentHash::default();
            h.write(d);
            h.finish()
        };
        let mut values = Values::default();
        values.bytes.extend(&[1, 2, 3]);
        values.start = vec![0, 3];
        assert_eq!(values.contents(0, 3), Some((hash(&[1, 2, 3]), Cow::Borrowed(&[1u8, 2, 3][..]))));
        assert_eq!(values.contents(0, 4), None, "one byte is missing");
        // Longer contents: their first bytes, then their hash.
        let long = [5u8; ARRAY_PREFIX + 1];
        values.bytes.extend(&long[..ARRAY_PREFIX]);
        values.bytes.extend(&hash(&long).to_le_bytes());
        values.start.push(values.bytes.len() as u32);
        assert_eq!(values.contents(1, long.len() as u64), Some((hash(&long), Cow::Borrowed(&long[..ARRAY_PREFIX]))));
        assert_eq!(values.contents(1, ARRAY_PREFIX as u64), None);
    }

    #[test]
    fn values_across_two_chunks_are_read_whole() {
        let mut values = Values::default();
        values.bytes.extend(&vec![0u8; (1 << 16) - 2]);
        values.bytes.extend(&[1, 2, 3, 4]);
        values.start = vec![0, (1 << 16) - 2, (1 << 16) + 2];
        assert_eq!(&*values.of(1), &[1, 2, 3, 4]);
        assert_eq!(values.of(0).len(), (1 << 16) - 2);
        assert!(values.of(2).is_empty());
    }
}
