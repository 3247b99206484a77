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
/// Where the capture begins on its clock: µs and buckets count from here.
const T0_US: u64 = 5_000_000;

/// One run: CPU, tid, start and end in µs.
type Run = (u32, u32, u64, u64);

/// App (5) on CPU 1 to a pixel's edge, `other` (6) for 999 µs from 4 µs into the next
/// pixel, the app again to the 20th pixel's edge. The waker (7) on CPU 2 from pixel 28 to
/// a bucket's edge inside pixel 35, then `worker` (8) to 1,160 µs into pixel 39. On CPU 3,
/// `a` (9) runs twice in one bucket around `b` (10), and `c` (11) and `d` (12) share one
/// half and half. The switches inside a bucket on CPU 1 share it: 4 µs of app and 6 of
/// `other`, then 3 of `other` and 7 of app.
const RUNS: [Run; 11] = [
    (1, 5, 0, 25_604),
    (1, 6, 25_604, 26_603),
    (1, 5, 26_603, 51_200),
    (2, 7, 71_680, 90_000),
    (2, 8, 90_000, 101_000),
    (3, 9, 30_000, 30_003),
    (3, 10, 30_003, 30_005),
    (3, 9, 30_005, 30_010),
    (3, 11, 31_000, 31_005),
    (3, 12, 31_005, 31_010),
    (3, 9, 40_000, 40_010),
];

fn name(tid: u32) -> &'static str {
    ["app", "other", "waker", "worker", "a", "b", "c", "d"][tid as usize - 5]
}

fn capture() -> Profile {
    let mut c = Capture::new();
    let mut last_on: [Option<(u32, u64)>; 4] = [None; 4];
    let idle = |cpu: u32| (["swapper/0", "swapper/1", "swapper/2", "swapper/3"][cpu as usize], 0);
    for &(cpu, tid, start, end) in &RUNS {
        let prev = match last_on[cpu as usize] {
            Some((t, e)) if e == start => (name(t), t),
            Some((t, e)) => {
                c.switch(cpu, (T0_US + e) * US, (name(t), t), "S", idle(cpu));
                idle(cpu)
            }
            None => idle(cpu),
        };
        c.switch(cpu, (T0_US + start) * US, prev, if prev.1 == 0 { "R" } else { "S" }, (name(tid), tid));
        last_on[cpu as usize] = Some((tid, end));
    }
    for (cpu, last) in last_on.iter().enumerate() {
        if let Some((t, e)) = *last {
            c.switch(cpu as u32, (T0_US + e) * US, (name(t), t), "S", idle(cpu as u32));
        }
    }
    // The capture's edges: CPU 0 idle at both.
    c.switch(0, T0_US * US, idle(0), "R", idle(0)).switch(0, (T0_US + END_US) * US, idle(0), "R", idle(0));
    let p = analyze_with(&c.text(), Options { keep_calls: true, ..Options::default() }).unwrap().into_profile();
    let timeline = (p.system.timeline.start, p.system.timeline.end);
    assert_eq!(timeline, (T0_US * US, (T0_US + END_US) * US), "the capture spans 163,840 µs");
    p
}

/// Ticks of each run of `tid` on `cpu` within `from..to` (ticks from the capture's start).
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
    assert_eq!((overview.start, overview.width, overview.count), (T0_US * US, width, (BUCKETS + 1) as usize));
    // The threads in the profile's order: on a tie, the first names the bucket.
    let tids: Vec<u32> = p.states_stacks().unwrap().threads.iter().map(|t| t.tid).collect();
    for cpu in 0..p.system.cpus {
        let buckets = overview.cpu(cpu);
        assert_eq!(buckets.len(), overview.count);
        for (b, bucket) in buckets.iter().enumerate() {
            let (from, to) = (b as u64 * width, (b as u64 + 1) * width);
            let times: Vec<(u32, u64)> = tids.iter().map(|&t| (t, ran(cpu, t, from, to))).filter(|x| x.1 > 0).collect();
            let busy: u64 = times.iter().map(|x| x.1).sum();
            let named = (bucket.thread != u32::MAX).then(|| tids[bucket.thread as usize]);
            let got = (bucket.busy, named, bucket.longest, bucket.mixed);
            let longest = times.iter().fold(None, |best: Option<(u32, u64)>, &x| match best {
                Some(b) if b.1 >= x.1 => Some(b),
                _ => Some(x),
            });
            let want = (busy, longest.map(|x| x.0), longest.map_or(0, |x| x.1), times.len() > 1);
            assert_eq!(got, want, "CPU {cpu}, bucket {b} ({from}..{to} ns from the start)");
        }
    }
    // The two shared buckets, as the runs were written.
    let cpu1 = overview.cpu(1);
    assert_eq!((cpu1[2560].busy, cpu1[2560].longest, cpu1[2560].mixed), (10 * US, 6 * US, true));
    assert_eq!((cpu1[2660].busy, cpu1[2660].longest, cpu1[2660].mixed), (10 * US, 7 * US, true));
    assert_eq!(cpu1[2661], Bucket { busy: 10 * US, thread: cpu1[2661].thread, longest: 10 * US, mixed: false });
    // `a` ran twice in bucket 3,000 (3 and 5 µs) around `b`'s 2: its two runs are one share.
    let cpu3 = overview.cpu(3);
    assert_eq!((tids[cpu3[3000].thread as usize], cpu3[3000].longest, cpu3[3000].mixed), (9, 8 * US, true));
    // `c` and `d` ran 5 µs each in bucket 3,100: the first of them in the profile names it.
    let first = *tids.iter().find(|&&t| t == 11 || t == 12).unwrap();
    assert_eq!((tids[cpu3[3100].thread as usize], cpu3[3100].longest), (first, 5 * US));
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
    // them one box. Pixel 35 holds 400 µs of the waker and 2,160 of `worker`, each in
    // buckets of its own: mixed. Pixel 39 is `worker`'s for 1,160 µs and idle after: not
    // mixed. On CPU 3, pixel 11 is named for `a`, 8 µs of its 10 µs of runs; pixel 12 for
    // `c` or `d`, 5 µs each; pixel 15 holds `a` alone.
    assert_eq!(
        drawn,
        [
            (1, 0, 25_600, 5, false),
            (1, 25_600, 28_160, 5, true),
            (1, 28_160, 51_200, 5, false),
            (2, 71_680, 89_600, 7, false),
            (2, 89_600, 92_160, 8, true),
            (2, 92_160, 102_400, 8, false),
            (3, 28_160, 30_720, 9, true),
            (3, 30_720, 33_280, drawn[7].3, true),
            (3, 38_400, 40_960, 9, false),
        ]
    );
    assert!([11, 12].contains(&drawn[7].3));
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
    // At two buckets a pixel, the pixels holding the shared buckets are mixed, each named
    // for the thread with the longest bucket in it; the rest follow the runs. CPU 3's
    // threads ran in pixels 500 and 550.
    let drawn = boxes(&p, &products::cpu_boxes(&p, from, to, 1_000));
    assert_eq!(
        drawn[..5],
        [
            (1, 20_000, 25_600, 5, false),
            (1, 25_600, 25_620, 6, true),
            (1, 25_620, 26_600, 6, false),
            (1, 26_600, 26_620, 5, true),
            (1, 26_620, 40_000, 5, false),
        ]
    );
    assert_eq!(
        drawn[5..].iter().map(|b| (b.0, b.1, b.2)).collect::<Vec<_>>(),
        [(3, 30_000, 30_020), (3, 31_000, 31_020)]
    );
}
