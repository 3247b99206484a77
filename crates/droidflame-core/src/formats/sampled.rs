//! `SampledThreads`: how call stacks seen at sample times become calls, the same for every
//! format of CPU samples (simpleperf, Perfetto's). A sample puts its thread's stack in
//! place at its time (`StackSink::sample`), so a frame that stays on the stack from
//! one sample to the next is one call:
//!
//! - CPU clock: each on-CPU sample adds its weight (ns of CPU time, or one sample) to the
//!   stack it holds, in order.
//! - Wall clock: a sample's stack holds until the thread's next sample. Where the recording
//!   did not sample threads leaving their CPU (`gaps_end_stacks`), a gap longer than 1.5
//!   sampling periods means the thread was not running for the rest of it, so the stack
//!   holds one period (the sample's weight) and the thread holds no stack until its next
//!   sample; the wall clock then counts only time the thread was seen running.

use crate::profile::{PerClock, ProfileBuilder};
use rustc_hash::FxHashMap;

/// One thread's clocks as its samples come.
#[derive(Debug, Clone, Copy)]
struct ThreadClock {
    slot: u32,
    /// The time of its last sample.
    last: u64,
    /// Its CPU clock: the weight of its on-CPU samples so far.
    cpu: u64,
    /// How long its last sample may hold its stack when the next one is late: its weight.
    period: u64,
}

/// The sampled threads of one trace.
#[derive(Debug, Default)]
pub struct SampledThreads {
    threads: Vec<ThreadClock>,
    thread_of: FxHashMap<u32, u32>,
    /// The last tid seen and its index: consecutive samples often share one.
    last_thread: Option<(u32, usize)>,
    /// A gap of more than 1.5 periods ends a stack (the recording has no off-CPU samples).
    pub gaps_end_stacks: bool,
    /// The latest sample's time: where the trace's samples end.
    latest: u64,
    /// Samples earlier than their thread's previous one: taken at that one's time.
    pub out_of_order: u64,
}

impl SampledThreads {
    /// The index of thread `tid`'s clocks; `add` makes its builder slot on its first sample.
    #[inline]
    pub fn thread(
        &mut self,
        tid: u32,
        builder: &mut ProfileBuilder,
        add: impl FnOnce(&mut ProfileBuilder) -> u32,
    ) -> usize {
        if let Some((last, index)) = self.last_thread {
            if last == tid {
                return index;
            }
        }
        let index = match self.thread_of.get(&tid) {
            Some(&index) => index as usize,
            None => {
                let slot = add(builder);
                self.threads.push(ThreadClock { slot, last: 0, cpu: 0, period: 0 });
                self.thread_of.insert(tid, (self.threads.len() - 1) as u32);
                self.threads.len() - 1
            }
        };
        self.last_thread = Some((tid, index));
        index
    }

    /// Thread `index` was seen running `stack` (outermost first) at `time`; `on_cpu`: the
    /// sample's weight on the CPU clock, where it is an on-CPU sample.
    #[inline]
    pub fn sample(
        &mut self,
        index: usize,
        stack: &[u32],
        mut time: u64,
        on_cpu: Option<u64>,
        builder: &mut ProfileBuilder,
    ) {
        let clock = &mut self.threads[index];
        if time < clock.last {
            self.out_of_order += 1;
            time = clock.last;
        }
        // Before a thread's first sample nothing is open, so there is nothing to end.
        if self.gaps_end_stacks && time - clock.last > clock.period.saturating_add(clock.period / 2) {
            builder.stacks.close_open(clock.slot, PerClock::new(clock.last.saturating_add(clock.period), clock.cpu));
        }
        builder.stacks.sample(clock.slot, stack, PerClock::new(time, clock.cpu));
        self.latest = self.latest.max(time);
        clock.last = time;
        if let Some(weight) = on_cpu {
            clock.cpu = clock.cpu.saturating_add(weight);
            clock.period = weight;
        }
    }

    /// The input ended: each thread's last stack holds until the last sample of any thread
    /// (one period, where gaps end stacks). Ending there is what samples mean, not a
    /// repair of frames left open.
    pub fn finish(&self, builder: &mut ProfileBuilder) {
        for clock in &self.threads {
            let end = if self.gaps_end_stacks { clock.last.saturating_add(clock.period) } else { self.latest };
            builder.stacks.close_open(clock.slot, PerClock::new(end, clock.cpu));
        }
    }

    /// The weight of every thread's on-CPU samples.
    pub fn total_on_cpu(&self) -> u64 {
        self.threads.iter().fold(0u64, |sum, clock| sum.saturating_add(clock.cpu))
    }

    /// The builder slot of each thread id that has samples.
    pub fn slots(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.thread_of.iter().map(|(&tid, &index)| (tid, self.threads[index as usize].slot))
    }
}
