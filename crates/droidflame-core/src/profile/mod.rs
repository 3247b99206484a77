//! The one profile model every importer feeds and every product reads. Nothing here
//! knows which file format a profile came from.

mod builder;
mod tree;

pub(crate) use builder::{FinishSpec, MethodInfo, ProfileBuilder, ENTER};
pub use tree::{CallTree, Children, Node, NONE};

use std::fmt;

/// A clock a profile can be read in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Clock {
    Wall,
    Cpu,
}

impl Clock {
    /// Index of this clock in `Node::incl` / `Node::self_time`.
    pub const fn slot(self) -> usize {
        match self {
            Clock::Wall => 0,
            Clock::Cpu => 1,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Clock::Wall => "wall",
            Clock::Cpu => "cpu",
        }
    }

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
    Wall,
    Cpu,
    Dual,
}

impl ClockSet {
    pub fn has(self, clock: Clock) -> bool {
        matches!((self, clock), (ClockSet::Dual, _) | (ClockSet::Wall, Clock::Wall) | (ClockSet::Cpu, Clock::Cpu))
    }

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

/// The length of one tick of a trace's raw times: `num / den` microseconds. V1 traces
/// count µs, V2 µs or ns, and V2's counter-based layout counts ticks of a clock counter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeUnit {
    pub num: u64,
    pub den: u64,
}

impl TimeUnit {
    pub const MICROS: TimeUnit = TimeUnit { num: 1, den: 1 };
    pub const NANOS: TimeUnit = TimeUnit { num: 1, den: 1000 };

    /// Ticks of a counter running at `hz`.
    pub fn counter(hz: u64) -> TimeUnit {
        TimeUnit { num: 1_000_000, den: hz.max(1) }
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

/// What the input was, as detected from its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatInfo {
    /// `art` for method traces.
    pub family: &'static str,
    /// `regular`, `streaming` or `v2`.
    pub layout: &'static str,
    pub version: u32,
    pub streaming: bool,
    /// `art` or `dalvik` when the trace says so.
    pub vm: Option<String>,
    /// The input was gzip-compressed.
    pub gzip: bool,
    /// The input was a split `.key` + `.data` pair.
    pub split: bool,
    /// Bytes per record for fixed-size layouts.
    pub record_size: Option<u32>,
    /// The trace looks sampled (E29): the estimated interval in µs. Times are then
    /// quantised to it.
    pub sampling_interval_us: Option<u64>,
}

/// Every repair the builder made; non-zero counters mean the numbers were reconstructed.
/// Serialised as is into the summary's `repairs`.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Repairs {
    /// Exits of methods not on the stack: entered before tracing began, rebuilt at the
    /// thread's first record time.
    pub unmatched_exits: u64,
    /// Exits of a method deeper in the stack; the frames above were closed at that time.
    pub mismatched_exits: u64,
    /// Frames still open at the end, closed at their thread's last record time.
    pub open_at_end: u64,
    /// Distinct method ids used by records but never defined.
    pub unknown_methods: u64,
    /// Distinct thread ids used by records but never named.
    pub unknown_threads: u64,
    /// The input ended early (partial record, missing summary or end marker).
    pub truncated: bool,
    /// The writer ran out of buffer and dropped later events (`data-file-overflow`).
    pub overflow: bool,
    /// Records with an invalid action (3), skipped.
    pub invalid_records: u64,
    /// Times that wrapped around 2^32 ticks and were unwrapped.
    pub time_wraps: u64,
    /// Thread ids whose thread was replaced by a new one mid-trace (id reuse).
    pub reused_thread_ids: u64,
    /// atrace: `E` markers with no open slice on their thread, ignored.
    #[serde(skip_serializing_if = "is_zero")]
    pub unmatched_ends: u64,
    /// atrace: lines after the first event that are not event lines (multi-line prints,
    /// damage), skipped.
    #[serde(skip_serializing_if = "is_zero")]
    pub unparsed_lines: u64,
    /// atrace: events earlier than the one before them (merged or concatenated dumps).
    #[serde(skip_serializing_if = "is_zero")]
    pub out_of_order: u64,
    /// atrace: `B` markers beyond the depth limit, dropped.
    #[serde(skip_serializing_if = "is_zero")]
    pub too_deep: u64,
    /// Names longer than the name-length limit, cut (any format).
    #[serde(skip_serializing_if = "is_zero")]
    pub long_names: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// A method (or, for other families, a named slice) as shown to the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Method {
    /// Class in dotted form (`java.lang.String`); empty when there is none.
    pub class: String,
    pub name: String,
    pub signature: String,
    /// Source file; `None` when the trace has none (`(null)`, empty).
    pub source: Option<String>,
    /// Line number (Dalvik traces); `None` when unknown.
    pub line: Option<i32>,
    /// The id the trace used for it (the first, if several ids share this method).
    pub id: u64,
    /// The trace never defined this id.
    pub unknown: bool,
}

impl Method {
    /// `Class.method`, or `<unknown 0x1a4>`: the name of its frame in flame graphs.
    pub fn frame_name(&self) -> String {
        if self.unknown {
            format!("<unknown {:#x}>", self.id)
        } else if self.class.is_empty() {
            self.name.clone()
        } else {
            format!("{}.{}", self.class, self.name)
        }
    }
}

/// One thread's part of the profile.
#[derive(Debug, Clone)]
pub struct ThreadProfile {
    pub tid: u32,
    pub name: String,
    pub records: u64,
    pub tree: CallTree,
    /// First and last record time per clock slot, in ticks.
    pub first: [u64; 2],
    pub last: [u64; 2],
    /// The process (atrace: TGID or the marker's pid), where the trace says.
    pub pid: Option<u32>,
    pub process: Option<String>,
    /// A named track of spans (atrace async slices), not a thread of execution.
    pub track: bool,
    /// Time in each scheduler state, where the trace has scheduler events.
    pub sched: Option<SchedTimes>,
}

/// A thread's time in each scheduler state, in ticks, over the part of the trace where
/// its state is known.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SchedTimes {
    pub running: u64,
    pub runnable: u64,
    pub sleeping: u64,
}

/// A counter track (atrace `C`), summarised.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Counter {
    pub pid: u32,
    pub name: String,
    pub samples: u64,
    pub min: i64,
    pub max: i64,
    pub last: i64,
}

impl ThreadProfile {
    /// `name [tid]`: the thread's frame in "all threads" graphs and folded output.
    pub fn label(&self) -> String {
        format!("{} [{}]", self.name, self.tid)
    }
}

/// The analysed trace.
#[derive(Debug, Clone)]
pub struct Profile {
    pub format: FormatInfo,
    /// Every `key=value` of the trace's header or summary, in file order.
    pub header: Vec<(String, String)>,
    pub clocks: ClockSet,
    /// How long one tick of the raw times in the call trees is.
    pub time_unit: TimeUnit,
    pub threads: Vec<ThreadProfile>,
    pub methods: Vec<Method>,
    /// `frame_of[method]` indexes `frames`: overloads share one frame.
    pub frame_of: Vec<u32>,
    pub frames: Vec<String>,
    pub repairs: Repairs,
    /// Plain-language notes about what was repaired or guessed, for the user.
    pub warnings: Vec<String>,
    /// Parallel to `warnings`: the repair counter (a field name of `Repairs`) that each
    /// warning details, if any.
    pub warning_repairs: Vec<Option<&'static str>>,
    /// The limits the analysis ran under.
    pub limits: crate::Options,
    pub records: u64,
    /// Counter tracks (atrace), by pid then name; empty for method traces.
    pub counters: Vec<Counter>,
}

impl Profile {
    /// Whole microseconds for a tick count (truncating).
    pub fn micros(&self, ticks: u64) -> u64 {
        self.time_unit.micros(ticks)
    }

    pub fn has(&self, clock: Clock) -> bool {
        self.clocks.has(clock)
    }

    /// Checks that the trace has `clock`, or explains that it does not.
    pub fn require(&self, clock: Clock) -> crate::Result<()> {
        if self.has(clock) {
            Ok(())
        } else {
            Err(crate::Error::new(
                crate::ErrorKind::Request,
                format!(
                    "this trace has no {clock} clock (it recorded clock={}); choose the {} clock",
                    self.clocks.name(),
                    self.clocks.default_clock()
                ),
            ))
        }
    }

    pub fn header_value(&self, key: &str) -> Option<&str> {
        self.header.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    pub fn frame(&self, method: u32) -> &str {
        &self.frames[self.frame_of[method as usize] as usize]
    }

    /// The thread a viewer should open on, as an index into `threads`: the traced app's
    /// main thread (its tid is the process id the header names, or it is called `main`,
    /// as Android names every app's main thread), else the thread with the most time on
    /// the CPU clock (the wall clock where there is none). Idle threads often have the
    /// most wall time, blocked in a wait, so wall time does not tell the busy ones.
    /// Tracks are never chosen. `None` when there is no thread.
    pub fn default_thread(&self) -> Option<usize> {
        let candidates = || self.threads.iter().enumerate().filter(|(_, t)| !t.track && !t.tree.is_empty());
        let pid = self.header_value("pid").and_then(|v| v.trim().parse::<u32>().ok());
        if let Some(pid) = pid {
            if let Some((i, _)) = candidates().find(|(_, t)| t.tid == pid) {
                return Some(i);
            }
        }
        if let Some((i, _)) = candidates().find(|(_, t)| t.name == "main") {
            return Some(i);
        }
        let slot = if self.has(Clock::Cpu) { Clock::Cpu.slot() } else { Clock::Wall.slot() };
        let busiest = candidates()
            .max_by(|(a, x), (b, y)| x.tree.total_self(slot).cmp(&y.tree.total_self(slot)).then_with(|| b.cmp(a)));
        busiest.map(|(i, _)| i).or_else(|| (!self.threads.is_empty()).then_some(0))
    }
}
