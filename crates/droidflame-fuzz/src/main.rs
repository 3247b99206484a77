//! droidflame-fuzz: mutation fuzzing of every decoder entry point, on the stable
//! toolchain (cargo-fuzz needs nightly, which this project does not use). It is not coverage
//! guided: it mutates seeds (corpus files and testkit-written inputs) with byte-level and
//! structure-aware edits, feeds each case whole and in random chunk sizes, and runs every
//! product on what comes out. A panic, or a case slower than the time bound, is saved to
//! `--out` as a file; `crates/droidflame-fuzz/findings/` keeps them as regression tests.
//!
//! Built with the `fuzz` profile: optimised, with overflow checks and debug assertions.
//!
//! `droidflame-fuzz --seconds N [--target NAME] [--out DIR]`

use droidflame_fuzz::{mutate, targets};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A case taking longer than this is a hang: it is saved and the run stops.
const HANG_SECONDS: u64 = 20;

struct Args {
    seconds: u64,
    target: Option<String>,
    out: PathBuf,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args { seconds: 60, target: None, out: PathBuf::from("target/fuzz") };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--seconds" => {
                args.seconds = value.parse().map_err(|_| format!("--seconds takes a number, not {value:?}"))?
            }
            "--target" => args.target = Some(value),
            "--out" => args.out = PathBuf::from(value),
            _ => {
                return Err(format!(
                    "unknown flag {flag}; usage: droidflame-fuzz --seconds N [--target NAME] [--out DIR]"
                ))
            }
        }
    }
    Ok(args)
}

fn main() {
    let args = match parse_args() {
        Ok(args) => args,
        Err(message) => {
            eprintln!("droidflame-fuzz: {message}");
            std::process::exit(2);
        }
    };
    let targets: Vec<_> =
        targets::all().into_iter().filter(|t| args.target.as_deref().is_none_or(|name| name == t.name)).collect();
    if targets.is_empty() {
        eprintln!("droidflame-fuzz: no target named {:?}", args.target.unwrap_or_default());
        std::process::exit(2);
    }
    std::fs::create_dir_all(&args.out).expect("the output directory can be created");
    std::panic::set_hook(Box::new(|_| {}));
    let current = Arc::new(Mutex::new(Vec::new()));
    let started = Arc::new(AtomicU64::new(u64::MAX));
    let clock = Instant::now();
    watchdog(Arc::clone(&current), Arc::clone(&started), args.out.clone(), clock);
    let per_target = Duration::from_secs(args.seconds) / targets.len() as u32;
    let mut crashes = 0;
    let mut rng = mutate::Rng::new(clock.elapsed().as_nanos() as u64 ^ 0x9E37_79B9_7F4A_7C15);
    for target in &targets {
        let until = Instant::now() + per_target;
        let mut cases = 0u64;
        while Instant::now() < until {
            let seed = &target.seeds[rng.below(target.seeds.len())];
            let other = &target.seeds[rng.below(target.seeds.len())];
            let input = (target.wrap)(&mutate::mutate(seed, other, &mut rng));
            let chunk = if rng.below(2) == 0 { usize::MAX } else { 1 + rng.below(4096) };
            current.lock().expect("not poisoned").clone_from(&input);
            started.store(clock.elapsed().as_secs(), Ordering::SeqCst);
            let outcome = catch_unwind(AssertUnwindSafe(|| (target.exercise)(&input, chunk)));
            started.store(u64::MAX, Ordering::SeqCst);
            cases += 1;
            if outcome.is_err() {
                crashes += 1;
                let path = args.out.join(format!("crash-{}-{:016x}.bin", target.name, hash(&input)));
                std::fs::write(&path, &input).expect("a crash input can be saved");
                println!("fuzz: {}: panic (chunk size {chunk}), saved {}", target.name, path.display());
            }
        }
        println!(
            "fuzz: {}: {cases} cases in {:.0} s, {} seeds",
            target.name,
            per_target.as_secs_f64(),
            target.seeds.len()
        );
    }
    println!("fuzz: {crashes} crashes in {:.0} s", clock.elapsed().as_secs_f64());
    if crashes > 0 {
        std::process::exit(1);
    }
}

/// Saves the running case and stops the process when one case runs too long.
fn watchdog(current: Arc<Mutex<Vec<u8>>>, started: Arc<AtomicU64>, out: PathBuf, clock: Instant) {
    std::thread::spawn(move || loop {
        std::thread::sleep(Duration::from_secs(1));
        let since = started.load(Ordering::SeqCst);
        if since != u64::MAX && clock.elapsed().as_secs().saturating_sub(since) > HANG_SECONDS {
            let input = current.lock().map(|c| c.clone()).unwrap_or_default();
            let path = out.join(format!("hang-{:016x}.bin", hash(&input)));
            let _ = std::fs::write(&path, &input);
            println!("fuzz: a case ran over {HANG_SECONDS} s, saved {}", path.display());
            std::process::exit(1);
        }
    });
}

fn hash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}
