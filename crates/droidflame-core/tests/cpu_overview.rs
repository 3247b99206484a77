//! The CPU overview against a written capture whose runs are known: every bucket's busy
//! time, longest thread and mix, summed here from the runs themselves; the boxes a wide
//! window draws from the buckets, pixel by pixel; and where the lanes stop reading the
//! runs and start reading the buckets.

use droidflame_core::products::{self, CpuBox};
use droidflame_core::profile::{Bucket, BUCKETS};
use droidflame_core::{analyze_with, Options, Profile};
use droidflame_testkit::atrace::Capture;

const US: u64 = 1_000;
/// The capture's length: 16,384 buckets of 10 µs, 64 pixels of 2,560 µs.
const END_US: u64 = 163_840;

/// One run: CPU, tid, start and end in µs.
type Run = (u32, u32, u64, u64);

/// App (5) on CPU 1 to a pixel's edge, `other` (6) for 999 µs from 4 µs into the next
/// pixel, the app again to the 20th pixel's edge; the waker (7) on CPU 2 from pixel 28 to
/// pixel 40. The two switches inside a bucket share it: 4 µs of app and 6 of `other`, then
/// 3 of `other` and 7 of app.
const RUNS: [Run; 4] = [(1, 5, 0, 25_604), (1, 6, 25_604, 26_603), (1, 5, 26_603, 51_200), (2, 7, 71_680, 102_400)];

fn capture() -> Profile {
    let mut c = Capture::new();
    c.switch(1, 0, ("swapper/1", 0), "R", ("app", 5))
        .switch(1, 25_604 * US, ("app", 5), "R+", ("other", 6))
        .switch(1, 26_603 * US, ("other", 6), "S", ("app", 5))
        .switch(1, 51_200 * US, ("app", 5), "S", ("swapper/1", 0))
        .switch(2, 71_680 * US, ("swapper/2", 0), "R", ("waker", 7))
        .switch(2, 102_400 * US, ("waker", 7), "S", ("swapper/2", 0))
        .mark("app", 5, 5, END_US * US, "I|5|end");
    let p = analyze_with(&c.text(), Options { keep_calls: true, ..Options::default() }).unwrap().into_profile();
    assert_eq!((p.system.timeline.start, p.system.timeline.end), (0, END_US * US), "the capture spans 0 to the end");
    p
}

/// Ticks of each run of `tid` on `cpu` within `from..to` (ticks).
fn ran(cpu: u32, tid: u32, from: u64, to: u64) -> u64 {
    RUNS.iter()
        .filter(|r| r.0 == cpu && r.1 == tid)
        .map(|r| (r.3 * US).min(to).saturating_sub((r.2 * US).max(from)))
        .sum()
}

#[test]
fn each_bucket_holds_what_its_cpu_ran() {
    let p = capture();
    let overview = p.cpu_overview().unwrap();
    let width = END_US * US / BUCKETS;
    assert_eq!((overview.start, overview.width, overview.count), (0, width, (BUCKETS + 1) as usize));
    let tid = |thread: u32| p.states_stacks().unwrap().threads[thread as usize].tid;
    for cpu in 0..p.system.cpus {
        let buckets = overview.cpu(cpu);
        assert_eq!(buckets.len(), overview.count);
        for (b, bucket) in buckets.iter().enumerate() {
            let (from, to) = (b as u64 * width, (b as u64 + 1) * width);
            let times: Vec<(u32, u64)> =
                [5, 6, 7].iter().map(|&t| (t, ran(cpu, t, from, to))).filter(|x| x.1 > 0).collect();
            let busy: u64 = times.iter().map(|x| x.1).sum();
            let got =
                (bucket.busy, (bucket.thread != u32::MAX).then(|| tid(bucket.thread)), bucket.longest, bucket.mixed);
            let longest = times.iter().max_by_key(|x| x.1);
            let want = (busy, longest.map(|x| x.0), longest.map_or(0, |x| x.1), times.len() > 1);
            assert_eq!(got, want, "CPU {cpu}, bucket {b} ({from}..{to} ns)");
        }
    }
    // The two shared buckets, as the runs were written.
    let cpu1 = overview.cpu(1);
    assert_eq!((cpu1[2560].busy, cpu1[2560].longest, cpu1[2560].mixed), (10 * US, 6 * US, true));
    assert_eq!((cpu1[2660].busy, cpu1[2660].longest, cpu1[2660].mixed), (10 * US, 7 * US, true));
    assert_eq!(cpu1[2661], Bucket { busy: 10 * US, thread: cpu1[2661].thread, longest: 10 * US, mixed: false });
}

/// Boxes as (cpu, start µs, end µs, tid, mixed), µs rounded.
fn boxes(p: &Profile, boxes: &[CpuBox]) -> Vec<(u32, u64, u64, u32, bool)> {
    let tid = |thread: usize| p.states_stacks().unwrap().threads[thread].tid;
    boxes.iter().map(|b| (b.cpu, b.start_us.round() as u64, b.end_us.round() as u64, tid(b.thread), b.mixed)).collect()
}

#[test]
fn a_whole_capture_draws_from_the_buckets_pixel_by_pixel() {
    let p = capture();
    let drawn = boxes(&p, &products::cpu_boxes(&p, 0.0, END_US as f64, 64));
    // A pixel is 2,560 µs. Pixel 10 holds 1,561 µs of the app and 999 of `other`: mixed,
    // named for the app. The pixels on each side of it are the app's alone, each run of
    // them one box.
    assert_eq!(
        drawn,
        [
            (1, 0, 25_600, 5, false),
            (1, 25_600, 28_160, 5, true),
            (1, 28_160, 51_200, 5, false),
            (2, 71_680, 102_400, 7, false)
        ]
    );
    // The runs themselves, read exactly, at the same width.
    let exact = boxes(&p, &products::cpu_runs(&p.system, p.states_stacks().unwrap(), 0.0, END_US as f64, 64));
    assert_ne!(drawn, exact);
}

#[test]
fn the_lanes_read_the_buckets_from_two_buckets_a_pixel() {
    let p = capture();
    let stacks = p.states_stacks().unwrap();
    let width_us = (END_US / BUCKETS) as f64;
    // A window of 2,000 buckets and one tick, as the lanes count it.
    let (from, to) = (20_000.0, 20_000.0 + 2_000.0 * width_us);
    for (pixels, overview) in [(1_000, true), (1_001, false), (999, true)] {
        let lanes = products::cpu_boxes(&p, from, to, pixels);
        let runs = products::cpu_runs(&p.system, stacks, from, to, pixels);
        assert_eq!(lanes == runs, !overview, "{pixels} pixels: from the {}", if overview { "buckets" } else { "runs" });
    }
}
