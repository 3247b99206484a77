//! Large, realistic method traces for benchmarks, written as they are generated so that a
//! multi-gigabyte file never sits in memory.
//!
//! Realistic here means what app traces look like: thousands of methods, a fixed set of
//! code paths walked again and again (so unique stacks level off however long the trace
//! runs), stacks tens of frames deep, dozens of threads, and records in per-thread chunks
//! as ART's per-thread buffers write them. Dual clock, 14-byte records.

use crate::atrace::{Capture, Event};
use crate::perfetto::Message;
use crate::perfetto_profiling::{perf_sample, samples_start, CodeFrame, CodeInterner, Timebase};
use crate::scenario::Rng;
use crate::simpleperf as sp;
use crate::writer::{
    header, method_packet, thread_packet, write_sleb, write_uleb, Clocks, MethodDef, ThreadDef, Trace,
};
use flate2::write::ZlibEncoder;
use flate2::Compression;
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
    /// Unique call sites in the program the threads walk (an upper bound on unique stacks).
    pub call_sites: usize,
    pub seed: u64,
    /// Which run of the program: runs of one program take other paths through the same
    /// code (as two runs of one app do), so their traces share most stacks.
    pub run: u64,
}

impl Shape {
    /// An app start as a published walkthrough describes it: 4 million records, ~57 MB.
    pub fn app_start(records: u64) -> Shape {
        Shape { records, threads: 32, methods: 6000, max_depth: 48, chunk: 4096, call_sites: 150_000, seed: 57, run: 0 }
    }

    /// A small program: 12 threads, 3,000 methods, 20,000 call sites. Its call trees stay
    /// in cache, so the per-record work of the decoder and builder dominates.
    pub fn small_program(records: u64) -> Shape {
        Shape { records, threads: 12, methods: 3000, max_depth: 32, chunk: 4096, call_sites: 20_000, seed: 12, run: 0 }
    }

    /// The small program with its threads' records interleaved one by one, as ART wrote
    /// them into one global buffer before it had per-thread buffers: every record is of
    /// another thread than the one before.
    pub fn interleaved(records: u64) -> Shape {
        Shape { chunk: 1, ..Shape::small_program(records) }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LargeLayout {
    /// Text key + `SLOW` v3 records.
    Regular,
    /// `SLOW` 0xF3 with inline method and thread packets and a closing summary.
    Streaming,
    /// A Perfetto system trace: each record an atrace `B`/`E` marker in an ftrace `print`
    /// event, a thread's chunk one CPU bundle (threads share 8 CPUs), after a process
    /// tree naming the threads.
    Perfetto,
    /// simpleperf samples (Android Studio's Callstack Sample): each record a sample of the
    /// thread's stack where its walk has got to, a thread's chunk its samples in a row; 1
    /// in 20 an off-CPU sample, 1 in 5 with kernel frames on top. Functions live in 40
    /// files, Java and native; names and threads come last, as simpleperf writes them.
    Simpleperf,
    /// A Perfetto system trace as a jank capture records it: the `Perfetto` layout's markers,
    /// each thread switched out (asleep, or preempted) and back in around half of them, woken
    /// by the CPU's idle task, and the first thread's app frames on the frame timeline (an
    /// expected and an actual frame every 64 of its records, 1 in 10 janky).
    PerfettoSched,
    /// Perfetto CPU samples (traced_perf): each record a `perf_sample` packet of the
    /// thread's stack where its walk has got to, on one sequence whose callstacks and
    /// frames are interned as they first occur; the CPU clock at 4 kHz; 1 in 20 with
    /// kernel frames on top. Functions live in 40 files, Java (odex) and native.
    PerfettoSamples,
    /// V2 (version 5, dual clock): method and thread packets first, each thread's chunk
    /// one entry block of delta-coded records, a summary packet last.
    V2,
    /// atrace text: each record an atrace `B`/`E` marker line, after the `# tracer` header.
    AtraceText,
    /// `atrace -z`: the atrace text as one `TRACE:` dump in a zlib stream.
    Ctrace,
}

/// The app's code paths: a fixed tree of call sites (a method, and the calls its body
/// makes), shared by all threads. Threads walk it again and again, so a trace of any
/// length has at most this many unique stacks, as real traces do once their code paths
/// repeat.
struct Program {
    /// `(method, children)`; node 0 is the root, its children are entry points.
    sites: Vec<(u32, Vec<u32>)>,
}

const ENTRY_POINTS: usize = 96;

impl Program {
    fn new(shape: &Shape, rng: &mut Rng) -> Program {
        let mut sites: Vec<(u32, Vec<u32>)> = vec![(u32::MAX, Vec::new())];
        // Breadth-first growth: each site calls a few others, fewer the deeper it is.
        let mut frontier: Vec<(u32, usize)> = Vec::new();
        for _ in 0..ENTRY_POINTS {
            let method = rng.below(shape.methods as u64) as u32;
            sites.push((method, Vec::new()));
            let id = (sites.len() - 1) as u32;
            sites[0].1.push(id);
            frontier.push((id, 1));
        }
        let mut next = 0;
        while next < frontier.len() && sites.len() < shape.call_sites {
            let (site, depth) = frontier[next];
            next += 1;
            if depth >= shape.max_depth {
                continue;
            }
            let calls = rng.below(if depth < 6 { 6 } else { 4 });
            let caller = sites[site as usize].0 as u64;
            for _ in 0..calls {
                // Callees cluster near their caller (same class, same feature), with the
                // odd recursive call.
                let method = if rng.chance(3) { caller } else { (caller + rng.below(200)) % shape.methods as u64 };
                sites.push((method as u32, Vec::new()));
                let id = (sites.len() - 1) as u32;
                sites[site as usize].1.push(id);
                frontier.push((id, depth + 1));
            }
        }
        Program { sites }
    }
}

/// One thread's state while generating: where it is in its walk of the program.
struct ThreadWalk {
    tid: u32,
    /// `(call site, next child to call)`, bottom first.
    stack: Vec<(u32, usize)>,
    /// The entry points this thread runs.
    entries: Vec<u32>,
    wall: u64,
    cpu: u64,
}

fn definitions(shape: &Shape) -> Trace {
    let methods = (0..shape.methods)
        .map(|i| {
            let class = format!("com.example.app.feature{}.Component{}", i % 97, i / 7);
            MethodDef::new((i as u64) << 2, &class, &format!("method{i}"), if i % 5 == 0 { "(I)V" } else { "()V" })
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
    Trace { clocks: Clocks::Dual, methods, threads, ..Trace::default() }
}

/// Writes an R8 mapping of about `bytes` bytes for a generated trace's program, its names
/// taken as the obfuscated ones: each of the trace's classes and methods listed (some
/// over several line ranges, with inlined callees), among as many classes of a large app
/// that the trace never runs as it takes to reach the size. Returns the bytes written.
pub fn write_mapping(out: &mut impl Write, shape: &Shape, bytes: u64) -> io::Result<u64> {
    let mut out = CountingWriter { inner: out, written: 0 };
    writeln!(out, "# compiler: R8\n# compiler_version: 8.5.35\n# min_api: 24\n# pg_map_id: 0123abc")?;
    let trace = definitions(shape);
    let mut by_class: Vec<(&str, Vec<&MethodDef>)> = Vec::new();
    for m in &trace.methods {
        match by_class.iter_mut().find(|(c, _)| *c == m.class) {
            Some((_, methods)) => methods.push(m),
            None => by_class.push((&m.class, vec![m])),
        }
    }
    // The trace's classes spread evenly through the file, as an app's own are.
    let filler_per_class = (bytes / 3000).saturating_sub(by_class.len() as u64) / by_class.len().max(1) as u64;
    let mut filler = 0u64;
    for (k, (class, methods)) in by_class.iter().enumerate() {
        while filler < filler_per_class * k as u64 && out.written < bytes {
            write_filler_class(&mut out, filler)?;
            filler += 1;
        }
        writeln!(out, "com.example.original.feature{}.Screen{k} -> {class}:", k % 97)?;
        writeln!(out, "# {{\"id\":\"sourceFile\",\"fileName\":\"Screen{k}.kt\"}}")?;
        for (j, m) in methods.iter().enumerate() {
            let args = if m.signature == "(I)V" { "int" } else { "" };
            let line = 10 + 20 * j;
            writeln!(out, "    1:3:void original{j}({args}):{line}:{} -> {}", line + 2, m.name)?;
            writeln!(out, "    4:4:void com.example.original.Log.debug(java.lang.String):70:70 -> {}", m.name)?;
            writeln!(out, "    4:4:void original{j}({args}):{} -> {}", line + 3, m.name)?;
        }
    }
    while out.written < bytes {
        write_filler_class(&mut out, filler)?;
        filler += 1;
    }
    Ok(out.written)
}

/// A class of the app that the trace does not use: about 3 KB, as R8 writes one.
fn write_filler_class(out: &mut impl Write, n: u64) -> io::Result<()> {
    writeln!(out, "com.example.library{}.internal.Helper{n} -> z.a{n}:", n % 211)?;
    writeln!(out, "    java.lang.String name -> a\n    int count -> b")?;
    for j in 0..24 {
        let line = 20 + 7 * j;
        writeln!(
            out,
            "    {}:{}:void handle{j}(java.lang.String,int):{line}:{} -> {}",
            1 + 3 * j,
            3 + 3 * j,
            line + 2,
            (b'a' + (j % 26) as u8) as char
        )?;
        if j % 4 == 0 {
            writeln!(out, "      # {{\"id\":\"com.android.tools.r8.synthesized\"}}")?;
        }
    }
    Ok(())
}

/// Writes a generated trace; returns the bytes written.
pub fn write_large(out: &mut impl Write, shape: &Shape, layout: LargeLayout) -> io::Result<u64> {
    if layout == LargeLayout::Ctrace {
        let mut counted = CountingWriter { inner: out, written: 0 };
        counted.write_all(b"TRACE:\n")?;
        let mut zlib = ZlibEncoder::new(&mut counted, Compression::default());
        write_records(&mut zlib, shape, LargeLayout::AtraceText)?;
        zlib.finish()?;
        return Ok(counted.written);
    }
    write_records(out, shape, layout)
}

fn write_records(out: &mut impl Write, shape: &Shape, layout: LargeLayout) -> io::Result<u64> {
    let mut out = CountingWriter { inner: out, written: 0 };
    let mut rng = Rng::new(shape.seed);
    let program = Program::new(shape, &mut rng);
    if shape.run != 0 {
        rng = Rng::new(shape.seed ^ shape.run.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    }
    let trace = definitions(shape);
    let mut defined_methods = vec![false; shape.methods];
    let mut defined_threads = vec![false; shape.threads];
    match layout {
        LargeLayout::Perfetto | LargeLayout::PerfettoSched => {
            let mut tree = Message::new();
            let mut process = Message::new();
            process.varint(1, u64::from(PERFETTO_PID)).bytes(3, b"com.example.app");
            tree.message(1, &process);
            for thread in &trace.threads {
                let mut t = Message::new();
                t.varint(1, u64::from(thread.tid)).bytes(2, thread.name.as_bytes()).varint(3, u64::from(PERFETTO_PID));
                tree.message(2, &t);
            }
            let mut packet = Message::new();
            packet.message(2, &tree);
            let mut file = Message::new();
            file.message(1, &packet);
            out.write_all(&file.0)?;
        }
        LargeLayout::Regular => {
            out.write_all(&trace.key_text_with_count(3, shape.records))?;
            out.write_all(&header(3, 32, trace.start_us, Some(14)))?;
        }
        LargeLayout::Streaming => out.write_all(&header(0xF3, 32, trace.start_us, Some(14)))?,
        LargeLayout::Simpleperf => out.write_all(&simpleperf_start())?,
        LargeLayout::PerfettoSamples => {
            let mut file = Message::new();
            file.message(1, &samples_start(1, Timebase::CpuClockFrequency(4000)));
            out.write_all(&file.0)?;
        }
        LargeLayout::V2 => out.write_all(&v2_start(&trace))?,
        LargeLayout::AtraceText => out.write_all(&Capture::new().text())?,
        LargeLayout::Ctrace => unreachable!("written as atrace text inside a zlib stream"),
    }
    let roots = &program.sites[0].1;
    let mut walks: Vec<ThreadWalk> = trace
        .threads
        .iter()
        .enumerate()
        .map(|(t, thread)| ThreadWalk {
            tid: thread.tid,
            stack: Vec::new(),
            // Each thread runs a few of the entry points; neighbours share some.
            entries: (0..4).map(|k| roots[(t * 3 + k) % roots.len()]).collect(),
            wall: 1000 + rng.below(5000),
            cpu: 0,
        })
        .collect();
    let mut buffer = Vec::with_capacity(shape.chunk * 14 + 4096);
    // The Perfetto samples layout's frames, one per method, and what its sequence interned.
    let code_frames: Vec<CodeFrame> = if layout == LargeLayout::PerfettoSamples {
        trace.methods.iter().enumerate().map(|(i, m)| sampled_frame(i, &m.class, &m.name)).collect()
    } else {
        Vec::new()
    };
    let mut interner = CodeInterner::new(0);
    let mut left = shape.records;
    while left > 0 {
        for (t, walk) in walks.iter_mut().enumerate() {
            if left == 0 {
                break;
            }
            let n = (shape.chunk as u64).min(left);
            left -= n;
            buffer.clear();
            if layout == LargeLayout::Simpleperf {
                for _ in 0..n {
                    buffer.extend_from_slice(&simpleperf_sample(walk, &program, &mut rng));
                }
                out.write_all(&buffer)?;
                continue;
            }
            if layout == LargeLayout::V2 {
                out.write_all(&v2_block(n, walk, &program, &mut rng))?;
                continue;
            }
            if layout == LargeLayout::PerfettoSamples {
                for _ in 0..n {
                    let packet = perfetto_sample(walk, &program, &code_frames, &mut interner, &mut rng);
                    let mut file = Message::new();
                    file.message(1, &packet);
                    buffer.extend_from_slice(&file.0);
                }
                out.write_all(&buffer)?;
                continue;
            }
            if layout == LargeLayout::AtraceText {
                out.write_all(&atrace_lines(t, n, walk, &program, &trace, &mut rng))?;
                continue;
            }
            if layout == LargeLayout::Perfetto || layout == LargeLayout::PerfettoSched {
                let sched = layout == LargeLayout::PerfettoSched;
                let (bundle, frames) = perfetto_bundle(t, n, walk, &program, &trace, &mut rng, sched);
                let mut file = Message::new();
                file.message(1, &bundle);
                for packet in frames {
                    file.message(1, &packet);
                }
                out.write_all(&file.0)?;
                continue;
            }
            if layout == LargeLayout::Streaming && !defined_threads[t] {
                defined_threads[t] = true;
                let name = &trace.threads[t].name;
                buffer.extend_from_slice(&[0, 0, 2]);
                buffer.extend_from_slice(&(walk.tid as u16).to_le_bytes());
                buffer.extend_from_slice(&(name.len() as u16).to_le_bytes());
                buffer.extend_from_slice(name.as_bytes());
            }
            for _ in 0..n {
                let (method, action) = step(walk, &program, &mut rng);
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
    if layout == LargeLayout::Simpleperf {
        out.write_all(&simpleperf_end(&trace, shape.records))?;
    }
    if layout == LargeLayout::V2 {
        let mut text = trace.options_text(5, Some(shape.records as usize), "elapsed-time-usec");
        text.push_str("*end\n");
        out.write_all(&[3])?;
        out.write_all(&(text.len() as u16).to_le_bytes())?;
        out.write_all(text.as_bytes())?;
    }
    Ok(out.written)
}

/// Method `i` as sampled code: a Java method in an odex file, or (1 in 4) a native
/// function of a library.
fn sampled_frame(i: usize, class: &str, name: &str) -> CodeFrame {
    let file = i % SIMPLEPERF_FILES;
    if file % 4 != 0 {
        CodeFrame::function(&format!("{class}.{name}"), &format!("/data/app/com.example.app/oat/arm64/part{file}.odex"))
    } else {
        CodeFrame::function(
            &format!("app::native{}::Component{}::{name}(int)", i % 97, i / 7),
            &format!("/data/app/com.example.app/lib/arm64/libpart{file}.so"),
        )
    }
}

/// The next CPU sample of a thread, as traced_perf writes it: a few steps further along
/// its walk.
fn perfetto_sample(
    walk: &mut ThreadWalk,
    program: &Program,
    frames: &[CodeFrame],
    code: &mut CodeInterner,
    rng: &mut Rng,
) -> Message {
    for _ in 0..1 + rng.below(6) {
        step(walk, program, rng);
    }
    let mut stack: Vec<CodeFrame> =
        walk.stack.iter().map(|&(site, _)| frames[program.sites[site as usize].0 as usize].clone()).collect();
    if rng.chance(20) {
        let path = rng.below(16);
        stack.extend((0..2 + path % 3).map(|k| CodeFrame::function(&format!("kernel_path{path}_{k}"), "kernel")));
    }
    walk.wall += 250 + rng.below(20);
    let id = code.stack(&stack);
    perf_sample(1, code, walk.wall * 1000, (PERFETTO_PID, walk.tid, walk.tid % 8), id)
}

/// Files the simpleperf layout's functions live in; the kernel's is one more.
const SIMPLEPERF_FILES: usize = 40;

/// Header and meta info of the simpleperf layout.
fn simpleperf_start() -> Vec<u8> {
    let mut meta = Message::new();
    meta.bytes(1, b"cpu-clock").bytes(1, b"sched:sched_switch").bytes(2, b"com.example.app").varint(6, 1);
    let mut out = sp::header();
    sp::push_record(&mut out, Message::new().message(sp::META_INFO, &meta));
    out
}

/// The next sample of a thread: a few steps further along its walk.
fn simpleperf_sample(walk: &mut ThreadWalk, program: &Program, rng: &mut Rng) -> Vec<u8> {
    for _ in 0..1 + rng.below(6) {
        step(walk, program, rng);
    }
    let off_cpu = rng.chance(5);
    let mut chain = Vec::with_capacity(walk.stack.len() + 4);
    if off_cpu || rng.chance(20) {
        // One of 16 kernel paths (a page fault, a syscall, the scheduler…), 2 to 4 deep.
        let path = rng.below(16);
        let kernel = SIMPLEPERF_FILES as u32;
        chain.extend(
            (0..2 + path % 3).map(|k| sp::Entry::address(kernel, 0xffff_ffff_8000_0000 + path * 0x1000 + k * 0x40)),
        );
    }
    for &(site, _) in walk.stack.iter().rev() {
        let method = program.sites[site as usize].0 as usize;
        chain.push(sp::Entry::function((method % SIMPLEPERF_FILES) as u32, (method / SIMPLEPERF_FILES) as i32));
    }
    let (event, count) = if off_cpu { (1, 1) } else { (0, 250_000) };
    walk.wall += 250 + rng.below(if off_cpu { 5000 } else { 20 });
    let sample = sp::SampleSpec { tid: walk.tid, time: walk.wall * 1000, event, count, chain };
    let mut record = Message::new();
    record.message(sp::SAMPLE, &sp::sample_message(&sample));
    let mut out = Vec::new();
    sp::push_record(&mut out, &record);
    out
}

/// The lost situation, files and threads that end the simpleperf layout.
fn simpleperf_end(trace: &Trace, samples: u64) -> Vec<u8> {
    let mut out = Vec::new();
    let mut lost = Message::new();
    lost.varint(1, samples).varint(2, 0);
    sp::push_record(&mut out, Message::new().message(sp::LOST, &lost));
    for file in 0..SIMPLEPERF_FILES {
        let java = file % 4 != 0;
        let symbols: Vec<String> = (file..trace.methods.len())
            .step_by(SIMPLEPERF_FILES)
            .map(|i| {
                let m = &trace.methods[i];
                if java {
                    format!("{}.{}", m.class, m.name)
                } else {
                    format!("app::native{}::Component{}::{}(int)", i % 97, i / 7, m.name)
                }
            })
            .collect();
        let path = if java {
            format!("/data/app/com.example.app/oat/arm64/base{file}.odex")
        } else {
            format!("/data/app/com.example.app/lib/arm64/libapp{file}.so")
        };
        sp::push_record(&mut out, Message::new().message(sp::FILE, &sp::file_message(file as u32, &path, &symbols)));
    }
    let kernel = sp::file_message(SIMPLEPERF_FILES as u32, "[kernel.kallsyms]", &[]);
    sp::push_record(&mut out, Message::new().message(sp::FILE, &kernel));
    for thread in &trace.threads {
        let mut t = Message::new();
        t.varint(1, u64::from(thread.tid)).varint(2, 1000).bytes(3, thread.name.as_bytes());
        sp::push_record(&mut out, Message::new().message(sp::THREAD, &t));
    }
    out.extend_from_slice(&0u32.to_le_bytes());
    out
}

/// The V2 layout's header, method packets and thread packets.
fn v2_start(trace: &Trace) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(b"SLOW");
    out.extend_from_slice(&5u16.to_le_bytes());
    out.extend_from_slice(&trace.start_us.to_le_bytes());
    out.resize(32, 0);
    trace.methods.iter().for_each(|m| method_packet(&mut out, m, m.line));
    trace.threads.iter().for_each(|t| thread_packet(&mut out, t));
    out
}

/// One entry block of `n` records of a thread: method and action as a signed delta, then
/// wall and CPU times as unsigned deltas, from zero at the block's start.
fn v2_block(n: u64, walk: &mut ThreadWalk, program: &Program, rng: &mut Rng) -> Vec<u8> {
    let mut payload = Vec::new();
    let mut last = (0u64, 0u64, 0u64);
    for _ in 0..n {
        let (method, action) = step(walk, program, rng);
        let word = (u64::from(method) << 2) | u64::from(action);
        write_sleb(&mut payload, word.wrapping_sub(last.0) as i64);
        write_uleb(&mut payload, walk.wall - last.1);
        write_uleb(&mut payload, walk.cpu - last.2);
        last = (word, walk.wall, walk.cpu);
    }
    let mut out = vec![2];
    out.extend_from_slice(&walk.tid.to_le_bytes());
    out.extend_from_slice(&[(n & 0xFF) as u8, ((n >> 8) & 0xFF) as u8, 0]);
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(&payload);
    out
}

/// `n` records of thread `t` as atrace marker lines.
fn atrace_lines(t: usize, n: u64, walk: &mut ThreadWalk, program: &Program, trace: &Trace, rng: &mut Rng) -> Vec<u8> {
    let capture = Capture::new();
    let mut text = Vec::new();
    let task: String = trace.threads[t].name.chars().take(15).collect();
    for _ in 0..n {
        let (method, action) = step(walk, program, rng);
        let payload = if action == 0 {
            let m = &trace.methods[method as usize];
            format!("B|{PERFETTO_PID}|{}.{}", m.class, m.name)
        } else {
            format!("E|{PERFETTO_PID}")
        };
        let event = Event {
            task: task.clone(),
            tid: walk.tid,
            pid: PERFETTO_PID,
            cpu: t as u32 % 8,
            ns: 1_000_000_000 + walk.wall * 1_000,
            name: "tracing_mark_write".into(),
            payload,
        };
        text.extend_from_slice(capture.event_line(&event).as_bytes());
        text.push(b'\n');
    }
    text
}

/// The process of the Perfetto layout's threads.
const PERFETTO_PID: u32 = 1000;

/// A packet of one CPU bundle: `n` records of thread `t` as atrace markers; with `sched`,
/// the thread's scheduling around them, and (thread 0) its app frames as frame-timeline
/// packets.
fn perfetto_bundle(
    t: usize,
    n: u64,
    walk: &mut ThreadWalk,
    program: &Program,
    trace: &Trace,
    rng: &mut Rng,
    sched: bool,
) -> (Message, Vec<Message>) {
    let cpu = t as u64 % 8;
    let mut bundle = Message::new();
    bundle.varint(1, cpu);
    let mut frames = Vec::new();
    let mut text = Vec::new();
    for _ in 0..n {
        // The time before this record: a switch out and back in fits before it (records
        // are at least 1 µs apart).
        let before = 1_000_000_000 + walk.wall * 1_000;
        let (method, action) = step(walk, program, rng);
        if sched && rng.chance(50) {
            switch_cycle(&mut bundle, walk.tid, cpu, before, rng.chance(20));
        }
        if sched && t == 0 && walk.wall % 64 < 12 && rng.chance(20) {
            frames.extend(frame_packets(walk.wall, rng.chance(10)));
        }
        text.clear();
        if action == 0 {
            let m = &trace.methods[method as usize];
            writeln!(text, "B|{PERFETTO_PID}|{}.{}", m.class, m.name).expect("writes to a Vec");
        } else {
            writeln!(text, "E|{PERFETTO_PID}").expect("writes to a Vec");
        }
        let mut print = Message::new();
        print.bytes(2, &text);
        let mut event = Message::new();
        event.varint(1, 1_000_000_000 + walk.wall * 1_000).varint(2, u64::from(walk.tid)).message(3, &print);
        bundle.message(2, &event);
    }
    let mut packet = Message::new();
    packet.message(1, &bundle).varint(10, 1);
    (packet, frames)
}

/// Thread `tid` leaves CPU `cpu` at `at` ns (preempted, or asleep and then woken by the
/// idle task) and runs again 600 ns later.
fn switch_cycle(bundle: &mut Message, tid: u32, cpu: u64, at: u64, preempted: bool) {
    let idle = format!("swapper/{cpu}");
    let switch = |ts: u64, prev: (u32, &str, u64), next: (u32, &str)| {
        let mut switch = Message::new();
        switch
            .bytes(1, prev.1.as_bytes())
            .varint(2, u64::from(prev.0))
            .varint(3, 120)
            .varint(4, prev.2)
            .bytes(5, next.1.as_bytes())
            .varint(6, u64::from(next.0))
            .varint(7, 120);
        let mut event = Message::new();
        event.varint(1, ts).varint(2, u64::from(prev.0)).message(4, &switch);
        event
    };
    bundle.message(2, &switch(at + 200, (tid, "worker", u64::from(!preempted)), (0, &idle)));
    if !preempted {
        let mut wake = Message::new();
        wake.bytes(1, b"worker").varint(2, u64::from(tid));
        let mut event = Message::new();
        event.varint(1, at + 500).varint(2, 0).message(20, &wake);
        bundle.message(2, &event);
    }
    bundle.message(2, &switch(at + 800, (0, &idle, 0), (tid, "worker")));
}

/// An app frame at `wall` µs as frame-timeline packets: expected 16.6 ms, actual 12 ms, or
/// 30 ms and janky.
fn frame_packets(wall: u64, janky: bool) -> Vec<Message> {
    use crate::perfetto_frames::{app_frame, jank, SurfaceFrame};
    let start = 1_000_000_000 + wall * 1_000;
    let frame = SurfaceFrame {
        cookie: wall * 2,
        token: wall,
        display_token: wall + 1,
        pid: PERFETTO_PID,
        layer: "com.example.app/com.example.app.MainActivity#0",
        jank: if janky { jank::APP_DEADLINE_MISSED } else { jank::NONE },
        present: if janky { 2 } else { 1 },
        prediction: 1,
    };
    let length = if janky { 30_000_000 } else { 12_000_000 };
    app_frame(&frame, (start, start + 16_600_000), (start, Some(start + length)))
}

/// The next record of a thread: call the next site of the current body (now and then
/// skipping one, as a branch would), or return when the body is done.
fn step(walk: &mut ThreadWalk, program: &Program, rng: &mut Rng) -> (u32, u8) {
    let dw = 1 + rng.below(12);
    walk.wall += dw;
    walk.cpu += rng.below(dw + 1);
    loop {
        let Some(&(site, next)) = walk.stack.last() else {
            let entry = walk.entries[rng.below(walk.entries.len() as u64) as usize];
            walk.stack.push((entry, 0));
            return (program.sites[entry as usize].0, 0);
        };
        let children = &program.sites[site as usize].1;
        if next >= children.len() {
            walk.stack.pop();
            return (program.sites[site as usize].0, 1);
        }
        walk.stack.last_mut().expect("checked above").1 += 1;
        if rng.chance(25) {
            continue;
        }
        let child = children[next];
        walk.stack.push((child, 0));
        return (program.sites[child as usize].0, 0);
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
    fn every_layout_counts_what_it_writes_at_a_few_bytes_a_record_or_more() {
        let shape = Shape { records: 50_000, ..Shape::app_start(0) };
        // V2 codes deltas (3 bytes a record at least); `.ctrace` is compressed.
        for (layout, least) in [
            (LargeLayout::Regular, 14),
            (LargeLayout::Streaming, 14),
            (LargeLayout::Perfetto, 14),
            (LargeLayout::PerfettoSched, 14),
            (LargeLayout::Simpleperf, 14),
            (LargeLayout::PerfettoSamples, 14),
            (LargeLayout::V2, 3),
            (LargeLayout::AtraceText, 14),
            (LargeLayout::Ctrace, 0),
        ] {
            let mut bytes = Vec::new();
            let written = write_large(&mut bytes, &shape, layout).unwrap();
            assert_eq!(written as usize, bytes.len(), "{layout:?}");
            assert!(bytes.len() > 50_000 * least, "{layout:?}");
        }
    }
}
