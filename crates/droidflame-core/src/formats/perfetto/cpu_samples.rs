//! CPU callstack samples (`perf_sample`, written by traced_perf). A sample's callstack is
//! resolved when its packet is read (interned code is a sequence's state at that point),
//! then the sample goes through the time sorter, and in time order becomes its thread's
//! stack in the `cpu-samples` source (`SampledThreads`). Reports of samples the recorder
//! skipped and of kernel records lost are counted for the notes.

use super::proto::{PerfSample, Timebase, SW_CPU_CLOCK, SW_TASK_CLOCK};
use crate::formats::sampled::SampledThreads;
use crate::formats::system::SystemTrace;
use crate::profile::{ClockSet, ClockWords, FrameKind, ProfileBuilder, SourceKind, SourceSpec, Unit};
use rustc_hash::FxHashMap;

/// What one sample weighs on the CPU clock, in ns ticks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Weight {
    ticks: u64,
    /// Whether it is time (the sampling event is a CPU clock), or a count.
    time: bool,
}

impl Weight {
    /// Where samples are counted, each weighs 1,000 ns ticks, so that the µs the products
    /// print are samples (the source's unit says so).
    const COUNTED: Weight = Weight { ticks: 1000, time: false };

    /// The weight of a sample of `timebase`: its period in ns where the event is a CPU
    /// clock (given as a period, or as a frequency), else a count.
    pub fn of(timebase: Option<&Timebase>) -> Weight {
        let Some(t) = timebase.filter(|t| matches!(t.counter, Some(SW_CPU_CLOCK | SW_TASK_CLOCK))) else {
            return Weight::COUNTED;
        };
        let period = t.period.filter(|&p| p > 0);
        let ns = period.or_else(|| t.frequency.filter(|&f| f > 0).map(|f| (1_000_000_000 / f).max(1)));
        ns.map_or(Weight::COUNTED, |ticks| Weight { ticks, time: true })
    }
}

/// What the samples packets held, for the notes.
#[derive(Debug, Default)]
pub struct SampleStats {
    /// Samples with a callstack (or without one, shown as such).
    pub samples: u64,
    /// Samples the recorder skipped, by reason (`SampleSkipReason`: unknown, read stage,
    /// unwind stage, unwind queue full, not in scope).
    pub skipped: [u64; 5],
    /// Reports of kernel records lost, and the records they say were lost.
    pub loss_reports: u64,
    pub records_lost: u64,
    /// Samples whose unwinding stopped with an error (their stack may be cut short).
    pub unwind_errors: u64,
    /// Samples whose callstack their sequence never interned.
    pub unknown_callstacks: u64,
    /// Samples on a clock the trace never relates to the boot clock, skipped.
    pub unconvertible_times: u64,
    /// Samples of a sequence that weighs them differently from the first (weighed as it).
    pub other_weights: u64,
}

/// The samples of one trace.
#[derive(Debug, Default)]
pub struct CpuSamples {
    pub stats: SampleStats,
    threads: SampledThreads,
    weight: Option<Weight>,
    /// The tracepoint that took the samples, where one did (`sched:sched_switch`).
    event: Option<String>,
    /// Each sampled thread's process.
    pids: FxHashMap<u32, u32>,
}

/// What a sample packet asks of the sorter: a sample of its thread at its time.
pub enum Read {
    /// Nothing to draw (a report, a skipped sample).
    Nothing,
    /// A sample of `tid` on `cpu` whose callstack is to be resolved.
    Sample { tid: u32, cpu: u32, callstack: Option<u64> },
}

impl Read {
    /// What a `perf_sample` packet asks, from the packet alone: a report of records lost
    /// and a skipped sample are no samples.
    pub fn of(sample: &PerfSample) -> Read {
        if sample.kernel_records_lost.is_some() || sample.sample_skipped_reason.is_some() {
            return Read::Nothing;
        }
        Read::Sample { tid: sample.tid.unwrap_or(0), cpu: sample.cpu.unwrap_or(0), callstack: sample.callstack_iid }
    }
}

impl CpuSamples {
    /// Reads a `perf_sample` packet of a sequence whose samples weigh per `timebase`.
    pub fn packet(&mut self, sample: &PerfSample, timebase: Option<&Timebase>) -> Read {
        if let Some(lost) = sample.kernel_records_lost {
            self.stats.loss_reports += 1;
            self.stats.records_lost = self.stats.records_lost.saturating_add(lost);
            return Read::Nothing;
        }
        if let Some(reason) = sample.sample_skipped_reason {
            self.stats.skipped[usize::try_from(reason).unwrap_or(0).min(4)] += 1;
            return Read::Nothing;
        }
        let weight = Weight::of(timebase);
        match self.weight {
            None => {
                self.weight = Some(weight);
                let tracepoint = timebase.and_then(|t| t.tracepoint.as_ref()).and_then(|t| t.name.as_ref());
                self.event = tracepoint.map(|name| String::from_utf8_lossy(name).into_owned());
            }
            Some(first) if first != weight => self.stats.other_weights += 1,
            Some(_) => {}
        }
        self.stats.samples += 1;
        if sample.unwind_error.is_some_and(|e| e > 1) {
            self.stats.unwind_errors += 1;
        }
        let tid = sample.tid.unwrap_or(0);
        if let Some(pid) = sample.pid.filter(|&p| p != 0) {
            self.pids.insert(tid, pid);
        }
        Read::of(sample)
    }

    /// A sample of `tid` running `stack` at `ts`, in time order.
    #[inline]
    pub fn apply(&mut self, tid: u32, stack: &[u32], ts: u64, b: &mut ProfileBuilder) {
        let weight = self.weight.unwrap_or(Weight::COUNTED);
        self.threads.gaps_end_stacks = weight.time;
        let thread = self.threads.thread(tid, b, |b| {
            let slot = b.stacks.add_thread(tid, None);
            b.stacks.set_source(slot, SourceKind::CpuSamples);
            slot
        });
        self.threads.sample(thread, stack, ts, Some(weight.ticks), b);
    }

    /// The input ended: last stacks close, threads get their names and processes from
    /// what the capture says of them. The source's spec, where there were samples.
    pub fn finish(&mut self, system: &SystemTrace, b: &mut ProfileBuilder) -> Option<SourceSpec> {
        self.threads.finish(b);
        b.facts.repairs.out_of_order += self.threads.out_of_order;
        let mut slots: Vec<(u32, u32)> = self.threads.slots().collect();
        slots.sort_unstable();
        for (tid, slot) in slots {
            let (name, pid) = system.thread_facts(tid);
            if let Some(name) = name {
                b.stacks.name_thread(slot, name, true);
            }
            if let Some(pid) = self.pids.get(&tid).copied().or(pid) {
                b.stacks.set_process(slot, pid);
            }
        }
        let weight = self.weight?;
        if let Some(event) = &self.event {
            b.facts.warn(format!(
                "the CPU samples were taken at each {event} event, not at a steady rate: they count where threads \
                 were when it fired{}, and on the wall clock each sample's stack lasts until the thread's next sample",
                if event.contains("sched_switch") {
                    " (as a thread leaves a CPU: where it blocked or was preempted)"
                } else {
                    ""
                }
            ));
        }
        Some(SourceSpec {
            kind: SourceKind::CpuSamples,
            unit: if weight.time { Unit::Micros } else { Unit::Samples },
            clocks: ClockSet::Dual,
            frame_kind: FrameKind::Function,
            clock_words: ClockWords {
                wall: "wall time between samples",
                cpu: if weight.time { "on-CPU time" } else { "samples" },
            },
            preferred_clock: Some(crate::profile::Clock::Cpu),
            states_as_frames: false,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(counter: i32, period: Option<u64>, frequency: Option<u64>) -> Timebase {
        Timebase { period, frequency, counter: Some(counter), tracepoint: None }
    }

    #[test]
    fn a_sample_weighs_its_cpu_clock_period_else_one_count() {
        let time = |ticks| Weight { ticks, time: true };
        // Every 250 µs, given as a period or as 4 kHz; on either CPU clock.
        assert_eq!(Weight::of(Some(&clock(SW_CPU_CLOCK, Some(250_000), None))), time(250_000));
        assert_eq!(Weight::of(Some(&clock(SW_TASK_CLOCK, None, Some(4_000)))), time(250_000));
        // A period of 0 says nothing: the frequency is read, 1 kHz being 1 ms.
        assert_eq!(Weight::of(Some(&clock(SW_CPU_CLOCK, Some(0), Some(1_000)))), time(1_000_000));
        // Neither a period nor a frequency above 0, or another event: samples are counted.
        assert_eq!(Weight::of(Some(&clock(SW_CPU_CLOCK, Some(0), Some(0)))), Weight::COUNTED);
        assert_eq!(Weight::of(Some(&clock(2, Some(250_000), None))), Weight::COUNTED);
        assert_eq!(Weight::of(None), Weight::COUNTED);
    }

    #[test]
    fn samples_and_those_weighed_unlike_the_first_are_counted() {
        let (steady, other) = (clock(SW_CPU_CLOCK, Some(250_000), None), clock(SW_CPU_CLOCK, Some(1_000_000), None));
        let mut samples = CpuSamples::default();
        let sample = PerfSample { tid: Some(5), pid: Some(4), ..Default::default() };
        for timebase in [&steady, &other, &steady, &steady] {
            assert!(matches!(samples.packet(&sample, Some(timebase)), Read::Sample { tid: 5, .. }));
        }
        // `StackUnwindError`: 1 is none, 2 (memory invalid) and above are errors.
        for error in [Some(1), Some(2), Some(6)] {
            samples.packet(&PerfSample { unwind_error: error, ..sample.clone() }, Some(&steady));
        }
        let skipped = PerfSample { sample_skipped_reason: Some(2), ..Default::default() };
        assert!(matches!(samples.packet(&skipped, Some(&steady)), Read::Nothing));
        assert_eq!((samples.stats.samples, samples.stats.other_weights, samples.stats.unwind_errors), (7, 1, 2));
        assert_eq!(samples.stats.skipped, [0, 0, 1, 0, 0]);
        assert_eq!(samples.weight, Some(Weight { ticks: 250_000, time: true }));
    }

    #[test]
    fn samples_the_sorter_let_go_out_of_order_add_to_the_repairs() {
        let mut b = ProfileBuilder::new(&crate::options::Options::default());
        b.facts.repairs.out_of_order = 2;
        let mut samples = CpuSamples::default();
        let sample = PerfSample { tid: Some(5), ..Default::default() };
        samples.packet(&sample, None);
        // The third sample is earlier than the second: one out of order.
        for ts in [1_000, 3_000, 2_000] {
            samples.apply(5, &[], ts, &mut b);
        }
        assert!(samples.finish(&SystemTrace::default(), &mut b).is_some());
        assert_eq!(b.facts.repairs.out_of_order, 3);
    }
}
