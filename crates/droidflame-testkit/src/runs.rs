//! Many runs of one program, as a benchmark records them: each run makes the same calls,
//! each call's own time is drawn around its method's, each run as a whole is a little
//! faster or slower (as devices are), thread ids change from run to run, and a method can
//! be made slower by a factor: what a comparison of two groups of runs must find, and the
//! only thing it may find.

use crate::scenario::Rng;
use crate::writer::{Clocks, MethodDef, Record, ThreadDef, Trace, ENTER, EXIT};

/// The program's methods, after the two roots.
pub const METHODS: usize = 40;

/// The method that tests make slower: `method_name(SLOWED)`.
pub const SLOWED: usize = 17;

/// The name (`Class.method`) of the program's method `index`.
pub fn method_name(index: usize) -> String {
    format!("com.example.feed.Part{}.step{index}", index / 8)
}

/// How one run goes.
#[derive(Debug, Clone, Copy)]
pub struct RunSpec {
    /// Which run this is: its noise.
    pub seed: u64,
    /// The method (index below `METHODS`) whose own time is multiplied by the factor.
    pub slower: Option<(usize, f64)>,
    /// The run's speed as a whole: every time is multiplied by it, with ±`spread` added.
    pub spread: f64,
}

/// One run of the program (fixed by `PROGRAM`) as an ART method trace with both clocks.
pub fn run(spec: &RunSpec) -> Trace {
    let mut program = Rng::new(PROGRAM);
    // Each method's own time per call (µs) and the one it calls, if any.
    let own: Vec<f64> = (0..METHODS).map(|_| 40.0 + program.below(900) as f64).collect();
    let callee: Vec<Option<usize>> =
        (0..METHODS).map(|m| (m + 1 < METHODS && program.chance(30)).then(|| m + 1)).collect();
    let schedule: Vec<Vec<usize>> = (0..12).map(|_| (0..METHODS).filter(|_| program.chance(45)).collect()).collect();
    let mut noise = Rng::new(spec.seed.wrapping_mul(0x9E37_79B9).wrapping_add(17));
    let mut uniform = move || noise.below(1_000_001) as f64 / 1_000_000.0;
    let speed = 1.0 + spec.spread * (2.0 * uniform() - 1.0);
    let main_tid = 1000 + (spec.seed % 500) as u32;
    let worker_tid = main_tid + 7;
    let mut records = Vec::new();
    let mut clock = 0u64;
    let push = |records: &mut Vec<Record>, tid, method, action, wall: u64| {
        records.push(Record { tid, method, action, wall, cpu: wall * 4 / 5 });
    };
    // Method ids are multiples of 4 (ART keeps the action in the low bits). Roots: 4 and
    // 8; the program's methods from 12.
    let id = |m: usize| 4 * (3 + m as u64);
    push(&mut records, main_tid, 4, ENTER, clock);
    for round in &schedule {
        for &m in round {
            // A method and the chain of callees below it, each with its own time.
            let mut chain = vec![m];
            while let Some(next) = callee[*chain.last().unwrap()].filter(|_| chain.len() < 4) {
                chain.push(next);
            }
            for &c in &chain {
                push(&mut records, main_tid, id(c), ENTER, clock);
                let factor = spec.slower.filter(|&(s, _)| s == c).map_or(1.0, |(_, f)| f);
                clock += (own[c] * factor * speed * (0.75 + 0.5 * uniform())).round() as u64;
            }
            for &c in chain.iter().rev() {
                push(&mut records, main_tid, id(c), EXIT, clock);
            }
        }
        // The worker thread runs between rounds, untouched by any change.
        push(&mut records, worker_tid, 8, ENTER, clock);
        clock += (300.0 * speed * (0.75 + 0.5 * uniform())).round() as u64;
        push(&mut records, worker_tid, 8, EXIT, clock);
    }
    push(&mut records, main_tid, 4, EXIT, clock);
    let mut methods = vec![
        MethodDef::new(4, "com.example.feed.FeedActivity", "onCreate", "(Landroid/os/Bundle;)V"),
        MethodDef::new(8, "com.example.feed.Prefetcher", "run", "()V"),
    ];
    for m in 0..METHODS {
        methods.push(MethodDef::new(id(m), &format!("com.example.feed.Part{}", m / 8), &format!("step{m}"), "()V"));
    }
    Trace {
        clocks: Clocks::Dual,
        threads: vec![
            ThreadDef { tid: main_tid, name: "main".into() },
            ThreadDef { tid: worker_tid, name: "prefetch".into() },
        ],
        methods,
        records,
        ..Trace::default()
    }
}

/// The seed of the program itself: its methods' times and its calls.
const PROGRAM: u64 = 0x5EED_0033;
