//! Clocks: which ones a trace has, how long its ticks are, and one value per clock.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::Index;

/// A clock a profile can be read in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Clock {
    /// Elapsed real time.
    Wall,
    /// Time the thread spent running on a CPU.
    Cpu,
}

impl Clock {
    /// Both clocks, wall first.
    pub const ALL: [Clock; 2] = [Clock::Wall, Clock::Cpu];

    /// `wall` or `cpu`, as the CLI, the summary and the bindings spell it.
    pub const fn name(self) -> &'static str {
        match self {
            Clock::Wall => "wall",
            Clock::Cpu => "cpu",
        }
    }

    /// The clock `text` names (`wall`, `cpu` or `thread-cpu`), if any.
    pub fn parse(text: &str) -> Option<Clock> {
        match text {
            "wall" => Some(Clock::Wall),
            "cpu" | "thread-cpu" => Some(Clock::Cpu),
            _ => None,
        }
    }
}

impl fmt::Display for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The clocks a trace recorded, named as traces name them (`clock=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClockSet {
    /// Only the wall clock.
    Wall,
    /// Only the thread-CPU clock.
    Cpu,
    /// Both clocks.
    Dual,
}

impl ClockSet {
    /// Whether `clock` is one of them.
    pub fn has(self, clock: Clock) -> bool {
        matches!((self, clock), (ClockSet::Dual, _) | (ClockSet::Wall, Clock::Wall) | (ClockSet::Cpu, Clock::Cpu))
    }

    /// `wall`, `thread-cpu` or `dual`, as a method trace's `clock=` says it.
    pub fn name(self) -> &'static str {
        match self {
            ClockSet::Wall => "wall",
            ClockSet::Cpu => "thread-cpu",
            ClockSet::Dual => "dual",
        }
    }

    /// The clock used when the user names none: wall where the trace has it.
    pub fn default_clock(self) -> Clock {
        if self.has(Clock::Wall) {
            Clock::Wall
        } else {
            Clock::Cpu
        }
    }
}

/// What each clock measures, in words for people (`wall time`, `on-CPU time`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockWords {
    /// The wall clock's.
    pub wall: &'static str,
    /// The CPU clock's; empty where the trace has none.
    pub cpu: &'static str,
}

impl ClockWords {
    /// Elapsed time and the thread's time on a CPU, as method and system traces measure.
    pub const ELAPSED_AND_THREAD_CPU: ClockWords = ClockWords { wall: "wall time", cpu: "thread CPU time" };

    /// The words for `clock`.
    pub fn of(self, clock: Clock) -> &'static str {
        match clock {
            Clock::Wall => self.wall,
            Clock::Cpu => self.cpu,
        }
    }
}

/// One value per clock, in a trace's ticks. A clock the trace lacks holds 0; sums saturate
/// instead of wrapping, so damaged times can never wrap into small ones.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PerClock {
    /// On the wall clock.
    pub wall: u64,
    /// On the thread-CPU clock.
    pub cpu: u64,
}

impl PerClock {
    /// 0 on both clocks.
    pub const ZERO: PerClock = PerClock { wall: 0, cpu: 0 };

    /// `wall` and `cpu`.
    #[inline(always)]
    pub const fn new(wall: u64, cpu: u64) -> PerClock {
        PerClock { wall, cpu }
    }

    /// Adds `other` on each clock, saturating.
    #[inline(always)]
    pub fn add(&mut self, other: PerClock) {
        self.wall = self.wall.saturating_add(other.wall);
        self.cpu = self.cpu.saturating_add(other.cpu);
    }

    /// `self - other` on each clock, 0 where `other` is larger.
    #[inline(always)]
    pub fn since(self, other: PerClock) -> PerClock {
        PerClock { wall: self.wall.saturating_sub(other.wall), cpu: self.cpu.saturating_sub(other.cpu) }
    }

    /// The values with the clocks exchanged.
    pub fn swapped(self) -> PerClock {
        PerClock { wall: self.cpu, cpu: self.wall }
    }
}

impl Index<Clock> for PerClock {
    type Output = u64;

    fn index(&self, clock: Clock) -> &u64 {
        match clock {
            Clock::Wall => &self.wall,
            Clock::Cpu => &self.cpu,
        }
    }
}

/// The length of one tick of a trace's raw times: `num / den` microseconds. Method traces
/// count µs or ns, or ticks of a clock counter; system traces count ns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeUnit {
    /// Numerator of the tick length in µs.
    pub num: u64,
    /// Denominator of the tick length in µs.
    pub den: u64,
}

impl TimeUnit {
    /// Ticks of one microsecond.
    pub const MICROS: TimeUnit = TimeUnit { num: 1, den: 1 };
    /// Ticks of one nanosecond.
    pub const NANOS: TimeUnit = TimeUnit { num: 1, den: 1000 };

    /// Ticks of a counter running at `hz`.
    pub fn counter(hz: u64) -> TimeUnit {
        TimeUnit { num: 1_000_000, den: hz.max(1) }
    }

    /// µs for a tick count, with the fraction where ticks are finer.
    pub fn micros_f64(self, ticks: u64) -> f64 {
        ticks as f64 * self.num as f64 / self.den as f64
    }

    /// Whole microseconds in `ticks` (truncating).
    pub fn micros(self, ticks: u64) -> u64 {
        if self == TimeUnit::MICROS {
            ticks
        } else {
            (u128::from(ticks) * u128::from(self.num) / u128::from(self.den)) as u64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_is_named_as_the_cli_spells_it_and_the_traces_header_says_it() {
        // The CLI's `--clock wall|cpu`; a method trace's header says `clock=thread-cpu`.
        assert_eq!(Clock::parse("wall"), Some(Clock::Wall));
        assert_eq!(Clock::parse("cpu"), Some(Clock::Cpu));
        assert_eq!(Clock::parse("thread-cpu"), Some(Clock::Cpu));
        for wrong in ["", "Wall", "dual", "cpu ", "thread_cpu"] {
            assert_eq!(Clock::parse(wrong), None, "{wrong:?}");
        }
        for clock in Clock::ALL {
            assert_eq!(Clock::parse(clock.name()), Some(clock));
        }
    }

    #[test]
    fn a_counters_ticks_are_converted_at_its_rate() {
        // A 19.2 MHz counter (the usual ARM timer): 19,200 ticks are 1 ms, one tick 1/19.2 µs.
        let unit = TimeUnit::counter(19_200_000);
        assert_eq!(unit.micros(19_200), 1_000);
        assert_eq!(unit.micros(19_199), 999, "whole µs, truncated");
        assert_eq!(unit.micros_f64(19_200), 1_000.0);
        assert!((unit.micros_f64(1) - 0.052_083_333).abs() < 1e-9);
        assert_eq!(TimeUnit::NANOS.micros_f64(1_500), 1.5);
        assert_eq!(TimeUnit::NANOS.micros(1_999), 1);
        assert_eq!(TimeUnit::MICROS.micros_f64(7), 7.0);
    }
}
