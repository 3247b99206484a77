//! Large, realistic method traces for benchmarks, written as they are generated so that a
//! multi-gigabyte file never sits in memory.
//!
//! Realistic here means what app traces look like: thousands of methods with a fixed call
//! graph (so stacks repeat), stacks tens of frames deep, dozens of threads, and records in
//! per-thread chunks as ART's per-thread buffers write them. Dual clock, 14-byte records.

use crate::scenario::Rng;
use crate::writer::{header, Clocks, MethodDef, ThreadDef, Trace};
use std::io::{self, Write};

/// The shape of a generated trace.
#[derive(Debug, Clone)]
pub struct Shape {
    pub records: u64,
    pub threads: usize,
    pub methods: usize,
    pub max_depth: usize,
    /// Records a thread writes before the next thread's turn (ART flushes per thread).
    pub chunk: usize,
    pub seed: u64,
}

impl Shape {
    /// An app start as a published walkthrough describes it: 4 million records, ~57 MB.
    pub fn app_start(records: u64) -> Shape {
        Shape {
            records,
            threads: 32,
            methods: 6000,
            max_depth: 48,
            chunk: 4096,
            seed: 57,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LargeLayout {
    /// Text key + `SLOW` v3 records.
    Regular,
    /// `SLOW` 0xF3 with inline method and thread packets and a closing summary.
    Streaming,
}

/// The call graph: each method calls a few methods of higher index (and, rarely, itself).
struct Program {
    callees: Vec<Vec<u32>>,
}

impl Program {
    fn new(shape: &Shape, rng: &mut Rng) -> Program {
        let n = shape.methods as u64;
        let callees = (0..n)
            .map(|m| {
                let count = 1 + rng.below(6);
                (0..count)
                    .map(|_| {
                        if rng.chance(2) {
                            m as u32
                        } else {
                            (m + 1 + rng.below((n - m).max(2) - 1)).min(n - 1) as u32
                        }
                    })
                    .collect()
            })
            .collect();
        Program { callees }
    }
}

/// One thread's state while generating.
struct ThreadWalk {
    tid: u32,
    stack: Vec<u32>,
    wall: u64,
    cpu: u64,
}

fn definitions(shape: &Shape) -> Trace {
    let methods = (0..shape.methods)
        .map(|i| {
            let class = format!("com.example.app.feature{}.Component{}", i % 97, i / 7);
            MethodDef::new(
                (i as u64) << 2,
                &class,
                &format!("method{i}"),
                if i % 5 == 0 { "(I)V" } else { "()V" },
            )
        })
        .collect();
    let threads = (0..shape.threads)
        .map(|t| ThreadDef {
            tid: 1000 + t as u32 * 13,
            name: match t {
                0 => "main".to_owned(),
                1 => "RenderThread".to_owned(),
                t => format!("DefaultDispatcher-worker-{t}"),
            },
        })
        .collect();
    Trace {
        clocks: Clocks::Dual,
        methods,
        threads,
        ..Trace::default()
    }
}

/// Writes a generated trace; returns the bytes written.
pub fn write_large(out: &mut impl Write, shape: &Shape, layout: LargeLayout) -> io::Result<u64> {
    let mut out = CountingWriter {
        inner: out,
        written: 0,
    };
    let mut rng = Rng::new(shape.seed);
    let program = Program::new(shape, &mut rng);
    let trace = definitions(shape);
    let mut defined_methods = vec![false; shape.methods];
    let mut defined_threads = vec![false; shape.threads];
    match layout {
        LargeLayout::Regular => {
            out.write_all(&trace.key_text_with_count(3, shape.records))?;
            out.write_all(&header(3, 32, trace.start_us, Some(14)))?;
        }
        LargeLayout::Streaming => out.write_all(&header(0xF3, 32, trace.start_us, Some(14)))?,
    }
    let mut walks: Vec<ThreadWalk> = trace
        .threads
        .iter()
        .map(|t| ThreadWalk {
            tid: t.tid,
            stack: Vec::new(),
            wall: 1000 + rng.below(5000),
            cpu: 0,
        })
        .collect();
    let mut buffer = Vec::with_capacity(shape.chunk * 14 + 4096);
    let mut left = shape.records;
    while left > 0 {
        for (t, walk) in walks.iter_mut().enumerate() {
            if left == 0 {
                break;
            }
            let n = (shape.chunk as u64).min(left);
            left -= n;
            buffer.clear();
            if layout == LargeLayout::Streaming && !defined_threads[t] {
                defined_threads[t] = true;
                let name = &trace.threads[t].name;
                buffer.extend_from_slice(&[0, 0, 2]);
                buffer.extend_from_slice(&(walk.tid as u16).to_le_bytes());
                buffer.extend_from_slice(&(name.len() as u16).to_le_bytes());
                buffer.extend_from_slice(name.as_bytes());
            }
            for _ in 0..n {
                let (method, action) = step(walk, &program, shape, &mut rng);
                if layout == LargeLayout::Streaming && !defined_methods[method as usize] {
                    defined_methods[method as usize] = true;
                    let line = trace.method_line(&trace.methods[method as usize]);
                    buffer.extend_from_slice(&[0, 0, 1]);
                    buffer.extend_from_slice(&(line.len() as u16).to_le_bytes());
                    buffer.extend_from_slice(line.as_bytes());
                }
                buffer.extend_from_slice(&(walk.tid as u16).to_le_bytes());
                buffer.extend_from_slice(&((method << 2) | u32::from(action)).to_le_bytes());
                buffer.extend_from_slice(&(walk.cpu as u32).to_le_bytes());
                buffer.extend_from_slice(&(walk.wall as u32).to_le_bytes());
            }
            out.write_all(&buffer)?;
        }
    }
    if layout == LargeLayout::Streaming {
        let mut text = trace.options_text(3, None, "elapsed-time-usec");
        text.push_str("*threads\n*methods\n*end\n");
        out.write_all(&[0, 0, 3])?;
        out.write_all(&(text.len() as u32).to_le_bytes())?;
        out.write_all(text.as_bytes())?;
    }
    Ok(out.written)
}

/// The next record of a thread: enter a callee of the top method, or exit the top.
fn step(walk: &mut ThreadWalk, program: &Program, shape: &Shape, rng: &mut Rng) -> (u32, u8) {
    let dw = 1 + rng.below(12);
    walk.wall += dw;
    walk.cpu += rng.below(dw + 1);
    let depth = walk.stack.len();
    // Deeper stacks return more often: depths settle around a third of the maximum.
    let enter = depth == 0
        || (depth < shape.max_depth && rng.below(shape.max_depth as u64) >= depth as u64 * 2);
    if enter {
        let method = match walk.stack.last() {
            None => rng.below(16) as u32,
            Some(&top) => {
                let callees = &program.callees[top as usize];
                callees[rng.below(callees.len() as u64) as usize]
            }
        };
        walk.stack.push(method);
        (method, 0)
    } else {
        let method = walk.stack.pop().expect("depth > 0");
        (method, 1)
    }
}

struct CountingWriter<'a, W: Write> {
    inner: &'a mut W,
    written: u64,
}

impl<W: Write> Write for CountingWriter<'_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_layouts_have_the_asked_record_count() {
        let shape = Shape {
            records: 50_000,
            ..Shape::app_start(0)
        };
        for layout in [LargeLayout::Regular, LargeLayout::Streaming] {
            let mut bytes = Vec::new();
            let written = write_large(&mut bytes, &shape, layout).unwrap();
            assert_eq!(written as usize, bytes.len());
            assert!(bytes.len() > 50_000 * 14);
        }
    }
}
