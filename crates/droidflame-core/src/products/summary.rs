//! The summary JSON (`"schema": 1`), the contract scripts and the web app read.
//! A clock the trace lacks is `null`, never 0. Fields are only ever added to schema 1.

use super::folded::MAX_FOLDED_TEXT;
use super::frames::{FrameNames, FrameTree, DEFAULT_MAX_DEPTH};
use super::notes::{notes, Note};
use super::table::{frame_rows, frame_table, frame_table_of, FrameRow};
use crate::analysis::Analysis;
use crate::mapping::MappingReport;
use crate::profile::{Clock, Counter, PerClock, Profile, Repairs, ThreadProfile, TimeUnit};
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Debug, Serialize)]
pub struct Summary<'a> {
    pub schema: u32,
    pub format: FormatJson<'a>,
    #[serde(serialize_with = "ordered_map")]
    pub header: &'a [(String, String)],
    pub records: u64,
    pub threads: Vec<ThreadJson<'a>>,
    pub methods: Vec<MethodJson<'a>>,
    pub repairs: &'a Repairs,
    pub warnings: Vec<&'a str>,
    /// atrace counter tracks; absent for method traces.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub counters: &'a [Counter],
    /// The traced process, where the trace names one.
    pub pid: Option<u32>,
    /// How long tracing ran: what the trace says, else the wall-clock span of its records.
    pub elapsed_us: Option<u64>,
    /// The thread to open on (an index into `threads`): see `Profile::default_thread`.
    pub default_thread: Option<usize>,
    /// The time of all threads together; tracks are not threads and are left out. On the
    /// wall clock a sum of threads' lifetimes, which no share is of: see `wholes`.
    pub totals: Totals,
    /// For each clock present, the whole that a thread's (or all threads') values are a
    /// share of: the trace's duration for wall time, all threads' time on the CPU clock,
    /// all samples or all bytes for those sources.
    pub wholes: BTreeMap<&'static str, Whole>,
    /// Every repair and warning as a count and a sentence, for a viewer to show as is.
    pub notes: Vec<Note>,
    /// The limits the analysis and its products run under.
    pub limits: LimitsJson,
    /// What the mapping applied to the names did; absent when none was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mapping: Option<&'a MappingReport>,
    /// The kinds of stack data the trace has, in order of preference.
    pub sources: Vec<SourceJson<'a>>,
    /// The one these threads and methods are of.
    pub source: &'static str,
    /// What the source's values count on its default clock: `us`, `samples` or `bytes`.
    pub unit: &'static str,
    /// What the `_us` values of each clock present count (the field names stay): `us`,
    /// `samples` or `bytes`.
    pub units: BTreeMap<&'static str, &'static str>,
    /// What methods' `calls` count: `calls` (every call, recursive ones too, which
    /// `recursive_calls` counts), or `samples` or `allocations` (each whose stack holds the
    /// method, once; `recursive_calls` is 0), so that no count exceeds `counted`.
    pub count: &'static str,
    /// The source's samples or allocations in all (of every thread or process); absent for
    /// calls.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counted: Option<u64>,
    /// The heap dump heap sources show and how many there are; absent without heap dumps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dumps: Option<DumpsJson>,
    /// How many frames apps produced (a frame timeline's); absent without any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app_frames: Option<usize>,
    /// A heap dump's objects, bytes and roots; absent for other traces.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heap_dump: Option<super::heap::HeapDumpJson>,
}

/// A source as the summary lists it.
#[derive(Debug, Serialize)]
pub struct SourceJson<'a> {
    pub name: &'static str,
    pub unit: &'static str,
    pub description: &'a str,
    /// A heap profile: stacks of the bytes allocated up to a heap dump, by process, with
    /// no time in them (no timeline) and one profile per dump.
    pub heap: bool,
}

/// The heap dumps: which one heap sources show (from 0, in time order), and how many.
#[derive(Debug, Serialize)]
pub struct DumpsJson {
    pub selected: usize,
    pub count: usize,
    /// When each was taken, in µs from the start of the trace's timeline.
    pub times_us: Vec<u64>,
}

/// What shares of one clock's values are of.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Whole {
    /// Its size, in the clock's unit (µs, samples or bytes).
    pub value: u64,
    /// What it is, in words: `the trace's duration`, `all threads' thread CPU time`.
    pub of: String,
}

impl Whole {
    /// The whole of `clock`'s values over all threads of `profile` (or one: `one_thread`),
    /// whose values add up to `sum`: for all threads' wall time the time the profile
    /// covers (threads' wall times add up to more: they run side by side), else `sum`.
    fn of(profile: &Profile, clock: Clock, one_thread: bool, sum: u64) -> Whole {
        let words = profile.stacks().clock_words.of(clock);
        if clock == Clock::Wall && profile.unit_of(clock) == crate::profile::Unit::Micros {
            if one_thread {
                return Whole { value: sum, of: format!("this thread's {words}") };
            }
            let length = profile.micros(profile.system.timeline.length());
            let of = if profile.in_range { "the range's duration" } else { "the trace's duration" };
            return Whole { value: length, of: of.to_owned() };
        }
        let kind = profile.source().kind;
        let whose = match (one_thread, kind.is_heap(), kind.from_dumps()) {
            (true, true, true) => "this process's",
            (true, true, false) => "this heap's",
            (true, false, _) => "this thread's",
            (false, true, true) => "all processes'",
            (false, true, false) => "all heaps'",
            (false, false, _) => "all threads'",
        };
        Whole { value: sum, of: format!("{whose} {words}") }
    }
}

#[derive(Debug, Serialize)]
pub struct Totals {
    pub wall_us: Option<u64>,
    pub cpu_us: Option<u64>,
}

#[derive(Debug, Serialize)]
pub struct LimitsJson {
    pub max_stack_depth: usize,
    pub max_call_stacks: u64,
    pub max_threads: usize,
    pub max_methods: usize,
    pub max_name_bytes: usize,
    pub max_decompressed_bytes: u64,
    /// System traces: deeper slices are dropped.
    pub max_slice_depth: usize,
    /// Graphs and folded stacks merge frames below this depth.
    pub max_drawn_depth: usize,
    /// The largest folded text made in memory (the web download).
    pub max_folded_text_bytes: usize,
}

#[derive(Debug, Serialize)]
pub struct FormatJson<'a> {
    pub family: &'a str,
    pub layout: &'a str,
    pub version: u32,
    pub streaming: bool,
    pub clock: &'a str,
    pub vm: Option<&'a str>,
    pub gzip: bool,
    pub split: bool,
    pub record_size: Option<u32>,
    pub sampling_interval_us: Option<u64>,
    /// The clocks present, of `wall` and `cpu`.
    pub clocks: Vec<&'static str>,
    /// The clock shown when none is chosen: `cpu` for samples (on-CPU time), else `wall`
    /// where the trace has it.
    pub default_clock: &'static str,
    /// What each clock present measures, in words (`wall time`, `on-CPU time`).
    pub clock_words: BTreeMap<&'static str, &'static str>,
    /// What a frame is in this format: `method`, `slice` or `function`.
    pub frame_kind: &'static str,
    /// The format in words, e.g. `Method trace, streaming v3, gzip`.
    pub description: &'a str,
}

#[derive(Debug, Serialize)]
pub struct ThreadJson<'a> {
    /// As the trace wrote it (`ThreadProfile::shown_tid`): -1 for a thread the recorder did
    /// not know.
    pub tid: i64,
    pub name: &'a str,
    pub records: u64,
    pub wall_us: Option<u64>,
    pub cpu_us: Option<u64>,
    pub max_depth: usize,
    /// The process, where the trace says (atrace); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pid: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub process: Option<&'a str>,
    /// A named track of async slices, not a thread (atrace). Tracks have no CPU clock.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub track: bool,
    /// One heap of a heap dump, not a thread: it is named by its name alone.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub heap: bool,
    /// Scheduler time (atrace with sched_switch); absent where unknown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub running_us: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runnable_us: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sleeping_us: Option<u64>,
    /// Uninterruptible sleep (`D`, `DK`, I/O wait included): not in `sleeping_us`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uninterruptible_us: Option<u64>,
}

#[derive(Debug, Serialize)]
pub struct MethodJson<'a> {
    pub name: String,
    pub class: &'a str,
    pub method: &'a str,
    pub signature: &'a str,
    pub source: Option<&'a str>,
    /// `null` where not known: samples within a time range.
    pub calls: Option<u64>,
    pub recursive_calls: u64,
    #[serde(flatten)]
    pub times: MethodTimes,
    /// `name` as the trace gave it, where a mapping renamed the method.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub obfuscated: Option<String>,
}

/// A method's inclusive and exclusive time on each clock, in µs (`None` for a clock the
/// trace lacks).
#[derive(Debug, Serialize)]
pub struct MethodTimes {
    pub incl_wall_us: Option<u64>,
    pub excl_wall_us: Option<u64>,
    pub incl_cpu_us: Option<u64>,
    pub excl_cpu_us: Option<u64>,
}

impl MethodTimes {
    /// The times of `incl` and `excl`, each made µs by `micros`.
    pub(super) fn of(profile: &Profile, incl: PerClock, excl: PerClock, micros: impl Fn(u64) -> u64) -> Self {
        let in_clock = |clock: Clock, time: u64| profile.has(clock).then(|| micros(time));
        MethodTimes {
            incl_wall_us: in_clock(Clock::Wall, incl.wall),
            excl_wall_us: in_clock(Clock::Wall, excl.wall),
            incl_cpu_us: in_clock(Clock::Cpu, incl.cpu),
            excl_cpu_us: in_clock(Clock::Cpu, excl.cpu),
        }
    }
}

fn ordered_map<S: Serializer>(pairs: &&[(String, String)], s: S) -> Result<S::Ok, S::Error> {
    let mut map = s.serialize_map(Some(pairs.len()))?;
    for (k, v) in pairs.iter() {
        map.serialize_entry(k, v)?;
    }
    map.end()
}

/// The summary of a profile. Methods are in `frame_rows` order: by inclusive time on the
/// default clock.
pub fn summary(analysis: &Analysis) -> Summary<'_> {
    let profile = &analysis.profile;
    let names = FrameNames::of(profile, DEFAULT_MAX_DEPTH);
    let threads_json: Vec<ThreadJson> = profile
        .stacks()
        .threads
        .iter()
        .map(|t| {
            // Ticks of a µs sum to the folded values whichever stacks merge; others are cut
            // to whole µs per folded stack, so the stacks are merged as folding does.
            let frames =
                (profile.stacks().time_unit != TimeUnit::MICROS).then(|| FrameTree::merged(profile, &names, &[t]));
            let total = |clock: Clock| {
                profile.has(clock).then(|| match &frames {
                    Some(frames) => frames.total_micros(profile, clock),
                    None => t.tree.total_self(clock),
                })
            };
            ThreadJson {
                tid: t.shown_tid(),
                name: &t.name,
                records: t.records,
                wall_us: total(Clock::Wall),
                cpu_us: total(Clock::Cpu).filter(|_| !t.track),
                max_depth: t.tree.max_depth(),
                pid: t.pid,
                process: t.process.as_deref(),
                heap: t.heap,
                track: t.track,
                running_us: t.sched.map(|s| profile.micros(s.running)),
                runnable_us: t.sched.map(|s| profile.micros(s.runnable)),
                sleeping_us: t.sched.map(|s| profile.micros(s.sleeping)),
                uninterruptible_us: t.sched.map(|s| profile.micros(s.uninterruptible)),
            }
        })
        .collect();
    let methods = frame_rows(profile).iter().map(|row| method_json(profile, row)).collect();
    let f = &profile.facts.format;
    Summary {
        schema: 1,
        format: FormatJson {
            family: f.family,
            layout: f.layout,
            version: f.version,
            streaming: f.flag("streaming"),
            clock: profile.stacks().clocks.name(),
            vm: f.text("vm"),
            gzip: f.gzip,
            split: f.split,
            record_size: f.number("record_size").map(|n| n as u32),
            sampling_interval_us: f.sampling_interval_us,
            clocks: Clock::ALL.into_iter().filter(|&c| profile.has(c)).map(Clock::name).collect(),
            default_clock: profile.default_clock().name(),
            clock_words: Clock::ALL
                .into_iter()
                .filter(|&c| profile.has(c))
                .map(|c| (c.name(), profile.stacks().clock_words.of(c)))
                .collect(),
            frame_kind: profile.stacks().frame_kind.name(),
            description: &f.description,
        },
        header: &profile.facts.header,
        records: profile.facts.records,
        methods,
        repairs: &profile.facts.repairs,
        warnings: profile.facts.warnings.iter().map(|w| w.text.as_str()).collect(),
        counters: &profile.system.counters,
        pid: profile.facts.format.pid,
        elapsed_us: elapsed_us(profile),
        default_thread: profile.default_thread(),
        totals: Totals {
            wall_us: profile.has(Clock::Wall).then(|| thread_sum(&threads_json, |t| t.wall_us)),
            cpu_us: profile.has(Clock::Cpu).then(|| thread_sum(&threads_json, |t| t.cpu_us)),
        },
        wholes: Clock::ALL
            .into_iter()
            .filter(|&c| profile.has(c))
            .map(|c| {
                let sum = thread_sum(&threads_json, |t| if c == Clock::Wall { t.wall_us } else { t.cpu_us });
                let mut whole = Whole::of(profile, c, false, sum);
                if c == Clock::Wall && !profile.in_range && profile.unit_of(c) == crate::profile::Unit::Micros {
                    // The duration the trace gives, where it gives one.
                    whole.value = elapsed_us(profile).unwrap_or(whole.value);
                }
                (c.name(), whole)
            })
            .collect(),
        notes: notes(analysis, threads_json.iter().filter(|t| t.max_depth > DEFAULT_MAX_DEPTH).count() as u64),
        limits: limits(profile),
        mapping: analysis.mapping.as_ref(),
        threads: threads_json,
        sources: profile
            .sources()
            .iter()
            .map(|s| SourceJson {
                name: s.kind.name(),
                unit: s.unit.name(),
                description: &s.description,
                heap: s.kind.is_heap(),
            })
            .collect(),
        source: profile.source().kind.name(),
        unit: profile.unit().name(),
        units: Clock::ALL
            .into_iter()
            .filter(|&c| profile.has(c))
            .map(|c| (c.name(), profile.unit_of(c).name()))
            .collect(),
        count: profile.count().name(),
        counted: counted(profile),
        app_frames: (!profile.system.app_frames.is_empty()).then_some(profile.system.app_frames.len()),
        heap_dump: profile.heap_graph.as_ref().map(super::heap::heap_dump_json),
        dumps: profile.dumps().map(|(selected, count)| DumpsJson {
            selected,
            count,
            times_us: profile.dump_times_us(),
        }),
    }
}

/// The methods table of one thread (`Some(index into StackProfile::threads)`) or of all threads
/// (`None`), with the calls between its methods, as JSON:
/// `{"thread", "total_wall_us", "total_cpu_us", "methods": [as in the summary],
/// "edges": [{"caller", "callee", "calls", "recursive_calls", "incl_wall_us", "incl_cpu_us"}]}`.
/// `caller` and `callee` index `methods`; `caller` is `null` for a thread's top level. The
/// totals are the scope's time (the sum of its methods' exclusive time), the whole that
/// percentages are of. An edge's inclusive time is what the callee cost in those calls,
/// recursive ones included (see `Edge::incl`).
pub fn methods_json(profile: &Profile, thread: Option<usize>) -> crate::error::Result<String> {
    let table = match thread {
        None => frame_table(profile),
        Some(index) => {
            let t: &ThreadProfile = profile.stacks().threads.get(index).ok_or_else(|| {
                crate::error::Error::new(
                    crate::error::ErrorKind::Request,
                    format!("thread index {index} is out of range ({} threads)", profile.stacks().threads.len()),
                )
            })?;
            frame_table_of(profile, &[t])
        }
    };
    let position: std::collections::HashMap<u32, usize> =
        table.rows.iter().enumerate().map(|(i, r)| (r.frame, i)).collect();
    let in_clock = |clock: Clock, ticks: u64| profile.has(clock).then(|| profile.micros(ticks));
    let total = |clock: Clock| table.rows.iter().fold(0u64, |sum, r| sum.saturating_add(r.excl[clock]));
    let edges: Vec<EdgeJson> = table
        .edges
        .iter()
        .map(|e| EdgeJson {
            caller: position.get(&e.caller).copied(),
            callee: position[&e.callee],
            calls: profile.counts_known().then_some(e.calls),
            recursive_calls: e.recursive_calls,
            incl_wall_us: in_clock(Clock::Wall, e.incl.wall),
            incl_cpu_us: in_clock(Clock::Cpu, e.incl.cpu),
        })
        .collect();
    let json = MethodsJson {
        thread,
        total_wall_us: in_clock(Clock::Wall, total(Clock::Wall)),
        total_cpu_us: in_clock(Clock::Cpu, total(Clock::Cpu)),
        wholes: wholes(profile, thread.is_some(), |clock| profile.micros(total(clock))),
        methods: table.rows.iter().map(|row| method_json(profile, row)).collect(),
        edges,
    };
    Ok(serde_json::to_string(&json).expect("the methods table serialises to JSON"))
}

/// The wholes of a methods table's shares, for each clock present: its methods' exclusive
/// values add up to `sum(clock)`.
pub(super) fn wholes(profile: &Profile, one_thread: bool, sum: impl Fn(Clock) -> u64) -> BTreeMap<&'static str, Whole> {
    Clock::ALL
        .into_iter()
        .filter(|&c| profile.has(c))
        .map(|c| (c.name(), Whole::of(profile, c, one_thread, sum(c))))
        .collect()
}

#[derive(Debug, Serialize)]
pub(super) struct MethodsJson<'a> {
    pub thread: Option<usize>,
    pub total_wall_us: Option<u64>,
    pub total_cpu_us: Option<u64>,
    /// What the percentages of each clock are of (`Summary::wholes`; for one thread, its
    /// own time).
    pub wholes: BTreeMap<&'static str, Whole>,
    pub methods: Vec<MethodJson<'a>>,
    pub edges: Vec<EdgeJson>,
}

#[derive(Debug, Serialize)]
pub(super) struct EdgeJson {
    pub caller: Option<usize>,
    pub callee: usize,
    pub calls: Option<u64>,
    pub recursive_calls: u64,
    pub incl_wall_us: Option<u64>,
    pub incl_cpu_us: Option<u64>,
}

fn method_json<'a>(profile: &'a Profile, row: &FrameRow) -> MethodJson<'a> {
    let m = &profile.frames[row.frame as usize];
    MethodJson {
        name: m.display_name(),
        class: &m.class,
        method: &m.name,
        signature: &m.signature,
        source: m.source.as_deref(),
        calls: profile.counts_known().then_some(row.calls),
        recursive_calls: row.recursive_calls,
        times: MethodTimes::of(profile, row.incl, row.excl, |ticks| profile.micros(ticks)),
        obfuscated: profile.obfuscated_name(row.frame),
    }
}

/// The samples or allocations of every thread (process), each stack once.
fn counted(profile: &Profile) -> Option<u64> {
    let per_stack = profile.count().per_stack() && profile.counts_known();
    per_stack.then(|| {
        let nodes = profile.stacks().threads.iter().flat_map(|t| t.tree.nodes());
        nodes.fold(0u64, |sum, n| sum.saturating_add(n.calls))
    })
}

fn thread_sum(threads: &[ThreadJson], value: impl Fn(&ThreadJson) -> Option<u64>) -> u64 {
    threads.iter().filter(|t| !t.track).fold(0u64, |sum, t| sum.saturating_add(value(t).unwrap_or(0)))
}

/// How long tracing ran: what the trace says, else the trace's timeline (a capture's first
/// to last event of any kind, a method trace's first to last record), whichever source is
/// shown: every source of one trace shares one time base, as the timeline and frames do.
fn elapsed_us(profile: &Profile) -> Option<u64> {
    if let Some(us) = profile.facts.format.recorded_us {
        return Some(us);
    }
    let heap = profile.source().kind.is_heap();
    if !profile.has(Clock::Wall) && !heap {
        return None;
    }
    let length = profile.system.timeline.length();
    // A heap dump's values are bytes, not records in time: a single dump spans nothing.
    let recorded = !heap && profile.stacks().threads.iter().any(|t| t.records > 0);
    (length > 0 || recorded).then(|| profile.trace_time_unit().micros(length))
}

fn limits(profile: &Profile) -> LimitsJson {
    let o = &profile.facts.limits;
    LimitsJson {
        max_stack_depth: o.max_stack_depth,
        max_call_stacks: o.max_call_stacks,
        max_threads: o.max_threads,
        max_methods: o.max_methods,
        max_name_bytes: o.max_name_bytes,
        max_decompressed_bytes: o.max_decompressed_bytes,
        max_slice_depth: crate::profile::MAX_SLICE_DEPTH,
        max_drawn_depth: DEFAULT_MAX_DEPTH,
        max_folded_text_bytes: MAX_FOLDED_TEXT,
    }
}

/// The summary as pretty-printed JSON text.
pub fn summary_json(analysis: &Analysis) -> String {
    serde_json::to_string_pretty(&summary(analysis)).expect("the summary serialises to JSON")
}
