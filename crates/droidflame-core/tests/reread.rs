//! Calls too short to keep, read again from checkpoints: for every window of every
//! thread, what `Reread` gives must be exactly the calls a profile that kept every call
//! has there, on every layout that can be read again (pre-existing frames, mismatched
//! exits, wrapped times, per-thread chunks, a trace cut short).

use droidflame_core::profile::{Call, ThreadCalls};
use droidflame_core::{analyze_with, Analysis, Analyzer, Options};
use droidflame_testkit::pieces::apart;
use droidflame_testkit::scenario::{generate, Config};
use droidflame_testkit::{Clocks, Layout};

fn every_call() -> Options {
    Options { keep_calls: true, max_calls: u64::MAX, ..Options::default() }
}

/// Depth, start, end, CPU and frame of each call (a call read again has no node).
fn shown(calls: &ThreadCalls) -> Vec<(u32, u64, u64, u64, u32)> {
    calls.iter().map(|(d, c): (u32, &Call)| (d, c.start, c.end, c.cpu, c.frame)).collect()
}

fn window(profile: &Analysis, thread: usize, from: u64, to: u64, chunk: usize, bytes: &[u8]) -> ThreadCalls {
    let mut reread = profile.reread(thread, from, to).unwrap();
    let mut at = reread.offset() as usize;
    while at < bytes.len() {
        let end = (at + chunk).min(bytes.len());
        if reread.push(&bytes[at..end]).unwrap() {
            break;
        }
        at = end;
    }
    reread.calls(&profile.profile, thread)
}

/// Some calls kept, a checkpoint every 512 bytes.
fn some_calls() -> Options {
    Options { keep_calls: true, max_calls: 60, checkpoint_bytes: 512, ..Options::default() }
}

fn check(bytes: &[u8], what: &str) {
    let mut analyzer = Analyzer::new(some_calls());
    bytes.chunks(300).for_each(|chunk| analyzer.push(chunk).unwrap());
    check_reread(bytes, &analyzer.finish().unwrap(), what);
}

/// Every window `partial` reads again holds the calls that a reading keeping every call has.
fn check_reread(bytes: &[u8], partial: &Analysis, what: &str) {
    let full = analyze_with(bytes, every_call()).unwrap();
    assert!(
        partial.profile.stacks().shortest_call > 0 && partial.profile.can_reread(),
        "{what}: short calls were let go and can be read again"
    );
    let (start, end) = (full.profile.system.timeline.start, full.profile.system.timeline.end);
    let length = end - start;
    let mut read_again = 0;
    for (thread, (kept, all)) in partial.profile.stacks().threads.iter().zip(&full.profile.stacks().threads).enumerate()
    {
        assert_eq!(kept.tid, all.tid);
        for (i, parts) in [(0u64, 1u64), (1, 3), (2, 7), (5, 11), (0, 100), (37, 40)].iter().enumerate() {
            let from = start + length * parts.0 / parts.1.max(1) / 2;
            let to = (from + length * (i as u64 + 1) / 50).min(end);
            let want = ThreadCalls::from_calls(all.calls.overlapping(from, to).map(|(d, c)| (d, *c)));
            let kept_here = kept.calls.overlapping(from, to).count();
            read_again += want.len() - kept_here;
            for chunk in [64, 4096] {
                let got = window(partial, thread, from, to, chunk, bytes);
                assert_eq!(shown(&got), shown(&want), "{what}: thread {} window {from}..={to}", kept.tid);
            }
        }
    }
    assert!(read_again > 100, "{what}: only {read_again} calls were read again");
}

#[test]
fn a_window_read_again_holds_exactly_the_calls_kept_in_full() {
    for seed in 0..6u64 {
        let config = Config {
            threads: 3,
            events_per_thread: 600,
            wrap: seed % 2 == 0,
            chunked: seed % 3 == 0,
            clocks: match seed {
                4 => Clocks::Cpu,
                5 => Clocks::Wall,
                _ => Clocks::Dual,
            },
            ..Config::default()
        };
        let scenario = generate(seed, &config);
        check(&scenario.trace.write(&Layout::ART_REGULAR), &format!("regular, seed {seed}"));
        check(&scenario.trace.write(&Layout::ART_STREAMING), &format!("streaming, seed {seed}"));
        let cut = Layout::Streaming { summary: false, summary_threads: false };
        check(&scenario.trace.write(&cut), &format!("streaming cut short, seed {seed}"));
    }
}

fn few_calls() -> Options {
    Options { keep_calls: true, max_calls: 10, checkpoint_bytes: 512, ..Options::default() }
}

#[test]
fn only_plain_method_traces_with_calls_let_go_can_be_read_again() {
    let bytes = generate(1, &Config { events_per_thread: 600, ..Config::default() }).trace.write(&Layout::ART_REGULAR);
    assert!(!analyze_with(&bytes, every_call()).unwrap().profile.can_reread(), "nothing was let go");
    let few = few_calls();
    let profile = analyze_with(&bytes, few.clone()).unwrap();
    assert!(profile.profile.can_reread());
    // What the user reads says where the short calls come back, in the warnings too.
    let note = profile.profile.calls_left_out().unwrap();
    assert!(note.contains("read again from the file"), "{note}");
    assert!(profile.profile.facts.warnings.iter().any(|w| w.text == note));
    assert!(profile.reread(0, 10, 5).is_err(), "a window that ends before it starts");
    assert!(profile.reread(99, 0, 5).is_err(), "a thread that does not exist");
    let v2 = generate(1, &Config { events_per_thread: 600, ..Config::default() }).trace.write(&Layout::V2_FILE);
    let v2 = analyze_with(&v2, few).unwrap();
    assert!(!v2.profile.can_reread(), "V2 packets carry state from block to block");
    let note = v2.profile.calls_left_out().unwrap();
    assert!(!note.contains("read again") && v2.profile.facts.warnings.iter().any(|w| w.text == note), "{note}");
    // Offsets in inflated bytes are no offsets in a gzip file: its calls are not read again.
    let gzipped = analyze_with(&droidflame_testkit::gzip(&bytes), few_calls()).unwrap();
    assert!(
        gzipped.profile.stacks().shortest_call > 0 && !gzipped.profile.can_reread(),
        "a gzip copy cannot be read again"
    );
}

/// Read in pieces, the checkpoints of a later piece are known only above its prefix until
/// the join: each window read again from them must still hold every call.
#[test]
fn a_window_read_again_after_reading_in_pieces_holds_every_call() {
    for seed in 0..6u64 {
        // An unknown method makes a frame, which a piece cannot: such a trace is read once.
        let config =
            Config { events_per_thread: 600, chunked: seed % 3 == 0, unknown_methods: false, ..Config::default() };
        let bytes = generate(seed, &config).trace.write(&Layout::ART_REGULAR);
        for pieces in [2, 3, 4] {
            let (partial, used) = droidflame_core::analyze_in_pieces(&bytes, some_calls(), pieces).unwrap();
            assert_eq!(used, pieces, "seed {seed}: read in pieces");
            check_reread(&bytes, &partial, &format!("seed {seed} in {pieces} pieces"));
            // As the page's workers read it: its checkpoints sent as bytes with each piece.
            let apart = apart(&bytes, &some_calls(), pieces).expect("read apart").unwrap();
            check_reread(&bytes, &apart, &format!("seed {seed} in {pieces} pieces read apart"));
        }
    }
}

/// Threads that fall silent for stretches (a mark then stands where the pieces before left
/// the thread) and exits of a method never entered, met in later pieces (each puts a frame
/// from before tracing under the stack, which moves the calls filed so far one level deeper).
#[test]
fn silent_threads_and_frames_from_before_read_again_the_same_after_pieces() {
    use droidflame_testkit::{MethodDef, Record, ThreadDef, Trace};
    let mut trace = Trace {
        threads: (1..=3).map(|tid| ThreadDef { tid, name: format!("t{tid}") }).collect(),
        methods: [(4, "run"), (8, "step"), (12, "loop"), (16, "outer")]
            .iter()
            .map(|&(id, name)| MethodDef::new(id, "a.B", name, "()V"))
            .collect(),
        ..Trace::default()
    };
    let mut seed = 7u64;
    let mut next = move |n: u64| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) % n
    };
    let mut stacks: [Vec<u64>; 3] = Default::default();
    let mut wall = 1000;
    for i in 0..6000u64 {
        // Thread 1 always, thread 3 rarely, thread 2 in two stretches of 950 records: the
        // second ends just before the middle, inside the window from 37/80 of the trace
        // on, and the thread is silent from there to the end.
        let thread = match next(10) {
            0..=4 => 0,
            5..=8 if i < 950 || (1900..2850).contains(&i) => 1,
            9 => 2,
            _ => 0,
        };
        wall += 1 + next(3) + if next(40) == 0 { 200 } else { 0 };
        let stack = &mut stacks[thread];
        let (method, action) = if next(60) == 0 {
            (16, 1)
        } else if !stack.is_empty() && (stack.len() > 6 || next(2) == 0) {
            (stack.pop().unwrap(), 1)
        } else {
            let method = [4, 8, 12][next(3) as usize];
            stack.push(method);
            (method, 0)
        };
        trace.records.push(Record { tid: thread as u32 + 1, method, action, wall, cpu: wall / 2 });
    }
    let bytes = trace.write(&Layout::Regular { version: 3, data_offset: 32, record_size: None });
    let mut analyzer = Analyzer::new(some_calls());
    analyzer.push(&bytes).unwrap();
    let once = analyzer.finish().unwrap();
    assert!(once.profile.facts.repairs.unmatched_exits > 20, "frames from before tracing");
    check_reread(&bytes, &once, "read once");

    // Records of 14 bytes after the data header's 32.
    let records = bytes.windows(4).position(|w| w == b"SLOW").unwrap() + 32;
    let (start, end) = (once.profile.system.timeline.start, once.profile.system.timeline.end);
    for pieces in [2, 3, 4] {
        let (partial, used) = droidflame_core::analyze_in_pieces(&bytes, some_calls(), pieces).unwrap();
        assert_eq!(used, pieces, "read in pieces");
        check_reread(&bytes, &partial, &format!("in {pieces} pieces"));
        let apart = apart(&bytes, &some_calls(), pieces).expect("read apart").unwrap();
        check_reread(&bytes, &apart, &format!("in {pieces} pieces read apart"));
        // Thread 1 (always busy) is read again from the last checkpoint before its first
        // exit in the window: checkpoints lie at most 512 bytes and a 504-byte step apart.
        for (read, how) in [(&partial, "on threads"), (&apart, "apart")] {
            let slot = read.profile.stacks().threads.iter().position(|t| t.tid == 1).unwrap();
            for tenth in 1..10 {
                let from = start + (end - start) * tenth / 10;
                let exit = trace.records.iter().position(|r| r.tid == 1 && r.action == 1 && r.wall >= from).unwrap();
                let exit = records + exit * 14;
                let offset = read.reread(slot, from, end).unwrap().offset() as usize;
                assert!(
                    (exit - 1030..=exit).contains(&offset),
                    "{pieces} pieces {how}: read again from {offset}, exit at {exit}"
                );
            }
        }
    }
}

/// A damaged trace whose times run backwards: a checkpoint after the step back finds the
/// thread's last event before a window its earlier calls ended in. Reading again from
/// there would miss them; the mark's latest call end does not run backwards.
#[test]
fn a_window_before_times_ran_backwards_is_read_again_whole() {
    use droidflame_testkit::{MethodDef, Record, ThreadDef, Trace};
    let mut trace = Trace {
        threads: vec![ThreadDef { tid: 1, name: "main".into() }],
        methods: vec![MethodDef::new(4, "a.B", "run", "()V"), MethodDef::new(8, "a.B", "step", "()V")],
        ..Trace::default()
    };
    let mut push = |method, action, wall: u64| trace.records.push(Record { tid: 1, method, action, wall, cpu: wall });
    // `run` open throughout; short `step` calls under it, 3 ticks apart, then the clock
    // steps back 5,000 ticks for 200 calls, then on again.
    push(4, 0, 10_000);
    let mut wall = 10_000;
    for i in 0..600u64 {
        wall = match i {
            200 => wall - 5_000,
            400 => wall + 5_000,
            _ => wall + 3,
        };
        push(8, 0, wall);
        push(8, 1, wall + 1);
    }
    push(4, 1, wall + 10);
    let bytes = trace.write(&Layout::Regular { version: 3, data_offset: 32, record_size: None });
    let full = analyze_with(&bytes, every_call()).unwrap();
    let mut analyzer = Analyzer::new(some_calls());
    bytes.chunks(300).for_each(|chunk| analyzer.push(chunk).unwrap());
    let partial = analyzer.finish().unwrap();
    assert!(partial.profile.can_reread(), "short calls were let go");
    // The last 50 calls before the step back.
    let (from, to) = (10_000 + 150 * 3, 10_000 + 200 * 3);
    // Calls are out of time order here: every one is looked at.
    let every = full.profile.stacks().threads[0].calls.iter();
    let want = ThreadCalls::from_calls(every.filter(|(_, c)| c.overlaps(from, to)).map(|(d, c)| (d, *c)));
    assert!(want.len() > 50, "{} calls in the window", want.len());
    for chunk in [64, 4096] {
        assert_eq!(
            shown(&window(&partial, 0, from, to, chunk, &bytes)),
            shown(&want),
            "read again in chunks of {chunk}"
        );
    }
    // A window from the very end of the last call before the step back: that call is in
    // it, so no checkpoint after it will do.
    let (edge, after) = (10_000 + 200 * 3 + 1, 10_700);
    let every = full.profile.stacks().threads[0].calls.iter();
    let at_edge = ThreadCalls::from_calls(every.filter(|(_, c)| c.overlaps(edge, after)).map(|(d, c)| (d, *c)));
    assert!(at_edge.iter().any(|(_, c)| c.end == edge), "a call ends where the window starts");
    assert_eq!(shown(&window(&partial, 0, edge, after, 4096, &bytes)), shown(&at_edge), "from a call's end");
    // It starts at the last checkpoint before the window, not further back: records of 14
    // bytes after the data header's 32, the window's first (an enter at 10,450) the 300th,
    // and a checkpoint at most every 512 bytes plus a 300-byte push.
    let records = bytes.windows(4).position(|w| w == b"SLOW").unwrap() + 32;
    let first = records + 299 * 14;
    let offset = partial.reread(0, from, to).unwrap().offset() as usize;
    assert!((first - 812..=first).contains(&offset), "read again from {offset}, the window's first record at {first}");
}
