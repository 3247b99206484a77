//! Traces built to hit the worst case rather than to look real: a stack a million frames
//! deep, or a trace in which every call is a stack never seen before. Written as they are
//! generated (regular layout, v3, dual clock, 14-byte records), like [`crate::large`].

use crate::writer::{header, Clocks, MethodDef, ThreadDef, Trace};
use std::io::{self, Write};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Adversary {
    /// One thread enters `depth` frames (cycling through `methods` methods), then leaves
    /// them all: `depth` unique stacks, a stack `depth` deep.
    DeepChain { depth: u64, methods: u32 },
    /// One thread walks a complete `fanout`-ary call tree of `depth` levels, depth first:
    /// every enter is a stack never seen before, the worst case for memory per record.
    FreshStacks { fanout: u32, depth: u32 },
}

impl Adversary {
    /// Records the trace will hold.
    pub fn records(self) -> u64 {
        2 * self.unique_stacks()
    }

    /// Unique stacks (call-tree nodes besides the thread's root) it makes.
    pub fn unique_stacks(self) -> u64 {
        match self {
            Adversary::DeepChain { depth, .. } => depth,
            Adversary::FreshStacks { fanout, depth } => (1..=depth).map(|d| u64::from(fanout).pow(d)).sum(),
        }
    }

    fn methods(self) -> u32 {
        match self {
            Adversary::DeepChain { methods, .. } => methods.max(1),
            Adversary::FreshStacks { fanout, .. } => fanout.max(1),
        }
    }
}

const TID: u16 = 1;

/// Writes the trace; returns the bytes written.
pub fn write_adversarial(out: &mut impl Write, adversary: Adversary) -> io::Result<u64> {
    let methods = (0..adversary.methods())
        .map(|i| MethodDef::new(u64::from(i) << 2, "com.example.Deep", &format!("level{i}"), "()V"))
        .collect();
    let trace = Trace {
        clocks: Clocks::Dual,
        methods,
        threads: vec![ThreadDef { tid: u32::from(TID), name: "main".into() }],
        ..Trace::default()
    };
    let key = trace.key_text_with_count(3, adversary.records());
    let head = header(3, 32, trace.start_us, Some(14));
    out.write_all(&key)?;
    out.write_all(&head)?;
    let mut records =
        RecordSink { buffer: Vec::with_capacity(1 << 16), tick: 0, written: (key.len() + head.len()) as u64, out };
    match adversary {
        Adversary::DeepChain { depth, methods } => {
            let methods = u64::from(methods.max(1));
            for level in 0..depth {
                records.push((level % methods) as u32, 0)?;
            }
            for level in (0..depth).rev() {
                records.push((level % methods) as u32, 1)?;
            }
        }
        Adversary::FreshStacks { fanout, depth } => {
            // Depth-first over the complete tree without recursion: `path` holds the
            // child index taken at each level.
            let mut path: Vec<u32> = Vec::with_capacity(depth as usize);
            loop {
                if (path.len() as u32) < depth {
                    path.push(0);
                    records.push(0, 0)?;
                    continue;
                }
                // A leaf: leave it and go to the next sibling, climbing while exhausted.
                loop {
                    let Some(last) = path.pop() else {
                        return records.finish();
                    };
                    records.push(last, 1)?;
                    if last + 1 < fanout {
                        path.push(last + 1);
                        records.push(last + 1, 0)?;
                        break;
                    }
                }
            }
        }
    }
    records.finish()
}

struct RecordSink<'a, W: Write> {
    buffer: Vec<u8>,
    tick: u32,
    written: u64,
    out: &'a mut W,
}

impl<W: Write> RecordSink<'_, W> {
    fn push(&mut self, method: u32, action: u8) -> io::Result<()> {
        self.tick = self.tick.wrapping_add(1);
        self.buffer.extend_from_slice(&TID.to_le_bytes());
        self.buffer.extend_from_slice(&((method << 2) | u32::from(action)).to_le_bytes());
        self.buffer.extend_from_slice(&self.tick.to_le_bytes());
        self.buffer.extend_from_slice(&self.tick.to_le_bytes());
        if self.buffer.len() >= 1 << 16 {
            self.written += self.buffer.len() as u64;
            self.out.write_all(&self.buffer)?;
            self.buffer.clear();
        }
        Ok(())
    }

    fn finish(self) -> io::Result<u64> {
        self.out.write_all(&self.buffer)?;
        Ok(self.written + self.buffer.len() as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_match_the_promised_counts() {
        for adversary in
            [Adversary::DeepChain { depth: 1000, methods: 7 }, Adversary::FreshStacks { fanout: 3, depth: 4 }]
        {
            let mut bytes = Vec::new();
            let written = write_adversarial(&mut bytes, adversary).unwrap();
            assert_eq!(written as usize, bytes.len());
            let key = bytes.windows(4).position(|w| w == b"SLOW").unwrap();
            assert_eq!(bytes.len() - key - 32, adversary.records() as usize * 14, "{adversary:?}");
        }
        assert_eq!(Adversary::FreshStacks { fanout: 3, depth: 4 }.unique_stacks(), 3 + 9 + 27 + 81);
    }
}
