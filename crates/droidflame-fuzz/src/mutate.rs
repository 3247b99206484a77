//! Mutations: byte-level edits (flips, interesting values, inserted, deleted and
//! duplicated ranges, truncation), splices of two seeds, and a few edits that know the
//! formats' shapes (little-endian fields set to boundary values, text separators).

pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

const BYTES: &[u8] = &[
    0, 1, 2, 3, 0x7F, 0x80, 0xF3, 0xFE, 0xFF, b'\n', b'\r', b'|', b'[', b']', b':', b'-', b'(', b')', b'.', b'#', b'"',
    b'\\', b'<', b'>', b'=', b' ',
];
const WORDS: &[u32] = &[0, 1, 0x7F, 0x80, 0xFF, 0xFFFF, 0x1_0000, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFE, 0xFFFF_FFFF];
const TEXT: &[&[u8]] = &[
    b"B|1|",
    b"E\n",
    b"\n",
    b"TRACE:\n",
    b"*end\n",
    b"SLOW",
    b"[000] ",
    b"0.000001: ",
    b"tracing_mark_write: ",
    b"\\n\\\n",
    b"</script>\n",
    b"\"systemTraceEvents\":\"",
];

pub fn mutate(seed: &[u8], other: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut out = seed.to_vec();
    for _ in 0..1 + rng.below(4) {
        edit(&mut out, other, rng);
    }
    out
}

fn edit(out: &mut Vec<u8>, other: &[u8], rng: &mut Rng) {
    let len = out.len();
    let at = rng.below(len + 1);
    match rng.below(10) {
        0 if len > 0 => out[at.min(len - 1)] ^= 1 << rng.below(8),
        1 if len > 0 => out[at.min(len - 1)] = BYTES[rng.below(BYTES.len())],
        2 if len >= 4 => {
            let at = at.min(len - 4);
            let word = WORDS[rng.below(WORDS.len())].wrapping_add(rng.below(3) as u32).wrapping_sub(1);
            let width = [1, 2, 4][rng.below(3)];
            out[at..at + width].copy_from_slice(&word.to_le_bytes()[..width]);
        }
        3 => {
            let end = (at + 1 + rng.below(64)).min(len);
            out.drain(at.min(end)..end);
        }
        4 if len > 0 => {
            let end = (at + 1 + rng.below(256)).min(len);
            let copy = out[at.min(end)..end].to_vec();
            let to = rng.below(len + 1);
            out.splice(to..to, copy.iter().copied().cycle().take(copy.len() * (1 + rng.below(4))));
        }
        5 => out.truncate(at),
        6 if !other.is_empty() => {
            let from = rng.below(other.len());
            let end = (from + 1 + rng.below(4096)).min(other.len());
            out.splice(at..at, other[from..end].iter().copied());
        }
        7 => {
            let piece = TEXT[rng.below(TEXT.len())];
            out.splice(at..at, piece.iter().copied());
        }
        8 => {
            let n = 1 + rng.below(16);
            let random: Vec<u8> = (0..n).map(|_| rng.next_u64() as u8).collect();
            out.splice(at..at, random);
        }
        _ => {
            // Swap two lines (text formats) or two ranges.
            if let (Some(a), Some(b)) = (find_newline(out, rng), find_newline(out, rng)) {
                let (a, b) = (a.min(b), a.max(b));
                out[a..b].reverse();
            }
        }
    }
}

fn find_newline(bytes: &[u8], rng: &mut Rng) -> Option<usize> {
    let from = rng.below(bytes.len() + 1);
    bytes[from..].iter().position(|&b| b == b'\n').map(|p| from + p)
}
