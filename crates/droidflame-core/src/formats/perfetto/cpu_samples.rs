//! CPU callstack samples (`perf_sample`, written by traced_perf). A sample's callstack is
//! resolved when its packet is read (interned code is a sequence's state at that point),
//! then the sample goes through the time sorter, and in time order becomes its thread's
//! stack in the `cpu-samples` source (`SampledThreads`). Reports of samples the recorder
//! skipped and of kernel records lost are counted for the notes.

use super::proto::{PerfSample, Timebase, MODE_KERNEL, SW_CPU_CLOCK, SW_TASK_CLOCK};
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
    pub kernel_samples: u64,
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
        if sample.cpu_mode == Some(MODE_KERNEL) {
            self.stats.kernel_samples += 1;
        }
        if sample.unwind_error.is_some_and(|e| e > 1) {
            self.stats.unwind_errors += 1;
        }
        let tid = sample.tid.unwrap_or(0);
        if let Some(pid) = sample.pid.filter(|&p| p != 0) {
            self.pids.insert(tid, pid);
        }
        Read::Sample { tid, cpu: sample.cpu.unwrap_or(0), callstack: sample.callstack_iid }
    }

    /// A sample of `tid` running `stack` at `ts`, in time order.
    #[inline]
    pub fn apply(&mut self, tid: u32, stack: &[u32], ts: u64, b: &mut ProfileBuilder) {
        let weight = self.weight.unwrap_or(Weight::COUNTED);
        self.threads.gaps_end_stacks = weight.time;
        let thread = self.threads.thread(tid, b, |b| {
            let slot = b.add_thread(tid, None);
            b.set_source(slot, SourceKind::CpuSamples);
            slot
        });
        self.threads.sample(thread, stack, ts, Some(weight.ticks), b);
    }

    /// The input ended: last stacks close, threads get their names and processes from
    /// what the capture says of them. The source's spec, where there were samples.
    pub fn finish(&mut self, system: &SystemTrace, b: &mut ProfileBuilder) -> Option<SourceSpec> {
        self.threads.finish(b);
        b.repairs.out_of_order += self.threads.out_of_order;
        let mut slots: Vec<(u32, u32)> = self.threads.slots().collect();
        slots.sort_unstable();
        for (tid, slot) in slots {
            let (name, pid) = system.thread_facts(tid);
            if let Some(name) = name {
                b.name_thread(slot, name, true);
            }
            if let Some(pid) = self.pids.get(&tid).copied().or(pid) {
                b.set_process(slot, pid);
            }
        }
        let weight = self.weight?;
        if let Some(event) = &self.event {
            b.warn(format!(
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
        })
    }
}
