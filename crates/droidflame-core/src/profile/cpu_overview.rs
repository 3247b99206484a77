//! What each CPU ran, in buckets of the timeline: made once from every thread's running
//! states, it answers a wide window (a whole capture on a screen) without decoding every
//! thread's states again. Each bucket keeps how long the CPU was busy, the thread that ran
//! longest in it and whether others ran too.

use super::stacks::StackProfile;
use super::states::SchedState;
use super::tree::NONE;

/// Buckets across the timeline: a window down to a sixth of a 1,280-pixel trace reads them
/// at a pixel to two buckets or more.
pub const BUCKETS: u64 = 16_384;

/// One bucket of one CPU.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bucket {
    /// Ticks some thread ran.
    pub busy: u64,
    /// The thread (an index into the stack profile's threads) that ran longest; `NONE` where
    /// none ran.
    pub thread: u32,
    /// Its ticks.
    pub longest: u64,
    /// More than one thread ran.
    pub mixed: bool,
}

const EMPTY: Bucket = Bucket { busy: 0, thread: NONE, longest: 0, mixed: false };

/// Every CPU's buckets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CpuOverview {
    /// The timeline's start, in ticks.
    pub start: u64,
    /// Ticks a bucket covers.
    pub width: u64,
    /// Buckets a CPU has.
    pub count: usize,
    /// CPU by CPU, `count` each.
    pub buckets: Vec<Bucket>,
}

impl CpuOverview {
    /// The buckets of `cpus` CPUs over `start..end` (ticks) from the running states of
    /// `stacks`' threads.
    pub fn of(stacks: &StackProfile, cpus: u32, start: u64, end: u64) -> CpuOverview {
        let width = (end.saturating_sub(start) / BUCKETS).max(1);
        let count = (end.saturating_sub(start) / width + 1) as usize;
        let mut buckets = vec![EMPTY; cpus as usize * count];
        // A thread's share of a bucket, as it comes; folded in when the next thread's does
        // (threads are read one after another, so each bucket sees a thread's runs together).
        let mut current: Vec<(u32, u64)> = vec![(NONE, 0); buckets.len()];
        let fold = |bucket: &mut Bucket, (thread, ticks): (u32, u64)| {
            if thread == NONE {
                return;
            }
            if bucket.thread != NONE {
                bucket.mixed = true;
            }
            if ticks > bucket.longest || bucket.thread == NONE {
                (bucket.thread, bucket.longest) = (thread, ticks);
            }
        };
        for (index, t) in stacks.threads.iter().enumerate().filter(|(_, t)| !t.states.is_empty()) {
            for span in t.states.spans(start, end.saturating_add(1)).filter(|s| s.entry.state == SchedState::Running) {
                let Some(cpu) = span.entry.cpu.filter(|&c| c < cpus) else { continue };
                let mut at = span.entry.start;
                while at < span.end {
                    let b = ((at - start) / width) as usize;
                    let bucket_end = start + (b as u64 + 1) * width;
                    let ticks = span.end.min(bucket_end) - at;
                    let cell = cpu as usize * count + b.min(count - 1);
                    buckets[cell].busy += ticks;
                    match &mut current[cell] {
                        (thread, sum) if *thread == index as u32 => *sum += ticks,
                        slot => {
                            fold(&mut buckets[cell], *slot);
                            *slot = (index as u32, ticks);
                        }
                    }
                    at = bucket_end.min(span.end);
                }
            }
        }
        for (bucket, last) in buckets.iter_mut().zip(current) {
            fold(bucket, last);
        }
        CpuOverview { start, width, count, buckets }
    }

    /// CPU `cpu`'s buckets.
    pub fn cpu(&self, cpu: u32) -> &[Bucket] {
        let from = cpu as usize * self.count;
        self.buckets.get(from..from + self.count).unwrap_or(&[])
    }
}
