//! The summary JSON (`"schema": 1`), the contract scripts and the web app read.
//! A clock the trace lacks is `null`, never 0.

use super::frames::{FrameNames, FrameTree, DEFAULT_MAX_DEPTH};
use super::methods::method_table;
use crate::profile::{Clock, Counter, Profile, Repairs};
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use serde_json::json;

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
    pub warnings: &'a [String],
    /// atrace counter tracks; absent for method traces.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub counters: &'a [Counter],
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
}

#[derive(Debug, Serialize)]
pub struct ThreadJson<'a> {
    pub tid: u32,
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
    /// A named track of async slices, not a thread (atrace).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub track: bool,
    /// Scheduler time (atrace with sched_switch); absent where unknown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub running_us: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runnable_us: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sleeping_us: Option<u64>,
}

#[derive(Debug, Serialize)]
pub struct MethodJson<'a> {
    pub name: String,
    pub class: &'a str,
    pub method: &'a str,
    pub signature: &'a str,
    pub source: Option<&'a str>,
    pub calls: u64,
    pub recursive_calls: u64,
    pub incl_wall_us: Option<u64>,
    pub excl_wall_us: Option<u64>,
    pub incl_cpu_us: Option<u64>,
    pub excl_cpu_us: Option<u64>,
}

fn ordered_map<S: Serializer>(pairs: &&[(String, String)], s: S) -> Result<S::Ok, S::Error> {
    let mut map = s.serialize_map(Some(pairs.len()))?;
    for (k, v) in pairs.iter() {
        map.serialize_entry(k, v)?;
    }
    map.end()
}

/// The summary of a profile. Methods are in `method_table` order: by inclusive time on the
/// default clock.
pub fn summary(profile: &Profile) -> Summary<'_> {
    let in_clock = |clock: Clock, ticks: u64| profile.has(clock).then(|| profile.micros(ticks));
    let names = FrameNames::of(profile, DEFAULT_MAX_DEPTH);
    let threads = profile
        .threads
        .iter()
        .map(|t| {
            let frames = FrameTree::merged(profile, &names, &[t]);
            let total = |clock: Clock| profile.has(clock).then(|| frames.total_micros(profile, clock));
            ThreadJson {
                tid: t.tid,
                name: &t.name,
                records: t.records,
                wall_us: total(Clock::Wall),
                cpu_us: total(Clock::Cpu),
                max_depth: t.tree.max_depth(),
                pid: t.pid,
                process: t.process.as_deref(),
                track: t.track,
                running_us: t.sched.map(|s| profile.micros(s.running)),
                runnable_us: t.sched.map(|s| profile.micros(s.runnable)),
                sleeping_us: t.sched.map(|s| profile.micros(s.sleeping)),
            }
        })
        .collect();
    let methods = method_table(profile)
        .rows
        .iter()
        .map(|row| {
            let m = &profile.methods[row.method as usize];
            MethodJson {
                name: m.frame_name(),
                class: &m.class,
                method: &m.name,
                signature: &m.signature,
                source: m.source.as_deref(),
                calls: row.calls,
                recursive_calls: row.recursive_calls,
                incl_wall_us: in_clock(Clock::Wall, row.incl[0]),
                excl_wall_us: in_clock(Clock::Wall, row.excl[0]),
                incl_cpu_us: in_clock(Clock::Cpu, row.incl[1]),
                excl_cpu_us: in_clock(Clock::Cpu, row.excl[1]),
            }
        })
        .collect();
    let f = &profile.format;
    Summary {
        schema: 1,
        format: FormatJson {
            family: f.family,
            layout: f.layout,
            version: f.version,
            streaming: f.streaming,
            clock: profile.clocks.name(),
            vm: f.vm.as_deref(),
            gzip: f.gzip,
            split: f.split,
            record_size: f.record_size,
            sampling_interval_us: f.sampling_interval_us,
        },
        header: &profile.header,
        records: profile.records,
        threads,
        methods,
        repairs: &profile.repairs,
        warnings: &profile.warnings,
        counters: &profile.counters,
    }
}

/// Calls between methods as JSON: `{"edges": [[caller, callee, calls, incl_wall_us,
/// incl_cpu_us], ...]}`. Methods are indices into the summary's `methods`; caller -1 is a
/// thread's top level. A clock the trace lacks is `null`.
pub fn call_graph_json(profile: &Profile) -> String {
    let table = method_table(profile);
    let position: std::collections::HashMap<u32, i64> =
        table.rows.iter().enumerate().map(|(i, r)| (r.method, i as i64)).collect();
    let in_clock = |clock: Clock, ticks: u64| profile.has(clock).then(|| profile.micros(ticks));
    let edges: Vec<_> = table
        .edges
        .iter()
        .map(|e| {
            let caller = position.get(&e.caller).copied().unwrap_or(-1);
            json!([
                caller,
                position[&e.callee],
                e.calls,
                in_clock(Clock::Wall, e.incl[0]),
                in_clock(Clock::Cpu, e.incl[1])
            ])
        })
        .collect();
    json!({ "edges": edges }).to_string()
}

/// The summary as pretty-printed JSON text.
pub fn summary_json(profile: &Profile) -> String {
    serde_json::to_string_pretty(&summary(profile)).expect("the summary serialises to JSON")
}
