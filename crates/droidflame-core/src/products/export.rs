//! The view's stacks as files other viewers open: speedscope's JSON and pprof's gzipped
//! `profile.proto` (one sample per stack and thread, one value per clock the trace has, the
//! thread as a label). speedscope shows a profile in time order too: where every call was
//! kept and the weights are the timeline's clock, each thread is an evented profile, its
//! calls opening and closing in time as the view's timeline shows them; otherwise a sampled
//! profile of the view's stacks, named as aggregated (its order is no time). Both carry
//! exactly the stacks of the view's folded output.

use super::frames::{sanitize, FrameNames, FrameTree, DEFAULT_MAX_DEPTH};
use super::transform::View;
use super::view_calls::viewed_calls;
use crate::error::{Error, ErrorKind, Result};
use crate::profile::{Clock, PerClock, Profile, SourceKind, ThreadProfile, Unit, NONE};
use std::collections::BTreeMap;
use std::io::Write;

/// What an export holds.
#[derive(Debug, Clone, Default)]
pub struct ExportOptions {
    /// speedscope: the clock of the weights (`None`: the trace's default clock). pprof
    /// carries every clock the trace has.
    pub clock: Option<Clock>,
    /// The transforms, and whether the stacks are inverted.
    pub view: View,
}

/// Each thread (threads sharing a label merged, as in folded stacks) with its view.
fn thread_trees(profile: &Profile, names: &FrameNames, view: &View) -> Vec<(String, FrameTree)> {
    let mut groups: BTreeMap<String, Vec<&ThreadProfile>> = BTreeMap::new();
    for thread in &profile.stacks().threads {
        groups.entry(sanitize(&thread.label())).or_default().push(thread);
    }
    groups
        .into_iter()
        .map(|(label, threads)| (label, FrameTree::merged(profile, names, &threads).transformed(profile, names, view)))
        .collect()
}

impl FrameTree {
    /// Every stack with time, root first, as name ids, with its own time in µs on each
    /// clock; the thread's own time (an empty stack) first.
    fn for_each_path(&self, mut visit: impl FnMut(&[u32], PerClock)) {
        let mut path: Vec<u32> = Vec::new();
        let mut pending: Vec<(u32, usize)> = vec![(0, 0)];
        while let Some((n, depth)) = pending.pop() {
            path.truncate(depth);
            let node = &self.nodes[n as usize];
            if n != 0 {
                path.push(node.name);
            }
            if node.self_time != PerClock::ZERO {
                visit(&path, node.self_time);
            }
            let mut child = node.first_child;
            while child != NONE {
                pending.push((child, path.len()));
                child = self.nodes[child as usize].next_sibling;
            }
        }
    }
}

/// Writes the view as a speedscope file.
pub fn write_speedscope(profile: &Profile, options: &ExportOptions, out: &mut impl Write) -> Result<()> {
    let clock = options.clock.unwrap_or(profile.default_clock());
    profile.require(clock)?;
    options.view.check(profile)?;
    let in_time = clock == profile.timeline_clock()
        && !options.view.invert
        && profile.require_every_call().is_ok()
        && profile.unit_of(clock) == Unit::Micros;
    if in_time {
        return write_speedscope_evented(profile, clock, &options.view, out);
    }
    let names = FrameNames::of_view(profile, DEFAULT_MAX_DEPTH, &options.view);
    // speedscope frames by name id, in order of first use.
    let mut frame_of: Vec<u32> = vec![NONE; names.len()];
    let mut frames: Vec<serde_json::Value> = Vec::new();
    let mut profiles = Vec::new();
    let default_label = profile.default_thread().map(|i| sanitize(&profile.stacks().threads[i].label()));
    let mut active = 0;
    for (label, tree) in thread_trees(profile, &names, &options.view) {
        let (mut samples, mut weights, mut total) = (Vec::new(), Vec::new(), 0u64);
        tree.for_each_path(|path, time| {
            let weight = time[clock];
            if weight == 0 {
                return;
            }
            let stack: Vec<u32> = path
                .iter()
                .map(|&name| {
                    if frame_of[name as usize] == NONE {
                        frame_of[name as usize] = frames.len() as u32;
                        frames.push(serde_json::json!({ "name": names.name(name) }));
                    }
                    frame_of[name as usize]
                })
                .collect();
            samples.push(stack);
            weights.push(weight);
            total = total.saturating_add(weight);
        });
        if samples.is_empty() {
            continue;
        }
        if default_label.as_deref() == Some(label.as_str()) {
            active = profiles.len();
        }
        profiles.push(serde_json::json!({
            "type": "sampled",
            "name": label,
            "unit": speedscope_unit(profile.unit_of(clock)),
            "startValue": 0,
            "endValue": total,
            "samples": samples,
            "weights": weights,
        }));
    }
    write_speedscope_file(profile, clock, "stacks added up, not in time order", frames, profiles, active, out)
}

fn write_speedscope_file(
    profile: &Profile,
    clock: Clock,
    order: &str,
    frames: Vec<serde_json::Value>,
    profiles: Vec<serde_json::Value>,
    active: usize,
    out: &mut impl Write,
) -> Result<()> {
    let file = serde_json::json!({
        "$schema": "https://www.speedscope.app/file-format-schema.json",
        "shared": { "frames": frames },
        "profiles": profiles,
        "name": format!("{} ({} clock; {order})", profile.facts.format.description, clock),
        "activeProfileIndex": active,
        "exporter": concat!("droidflame ", env!("CARGO_PKG_VERSION")),
    });
    serde_json::to_writer(&mut *out, &file).map_err(|e| Error::new(ErrorKind::Output, e.to_string()))?;
    out.flush().map_err(|e| Error::new(ErrorKind::Output, e.to_string()))
}

/// Each thread as speedscope's evented profile: its calls (as the view's timeline shows
/// them) opening and closing in time, in µs from the start of the trace's timeline.
fn write_speedscope_evented(profile: &Profile, clock: Clock, view: &View, out: &mut impl Write) -> Result<()> {
    let mut frame_of: BTreeMap<String, usize> = BTreeMap::new();
    let mut frames: Vec<serde_json::Value> = Vec::new();
    let mut profiles = Vec::new();
    let default_thread = profile.default_thread();
    let mut active = 0;
    let micros = |ticks: u64| profile.trace_time_unit().micros_f64(ticks.saturating_sub(profile.system.timeline.start));
    for (i, thread) in profile.stacks().threads.iter().enumerate() {
        let viewed =
            if view.transforms.is_empty() { None } else { Some(viewed_calls(profile, i, &thread.calls, view)?) };
        let calls = viewed.as_ref().map_or(&thread.calls, |v| &v.calls);
        let name = |frame: u32| viewed.as_ref().map_or(profile.frame_name(frame), |v| v.name(profile, frame));
        let mut events: Vec<serde_json::Value> = Vec::new();
        // Calls open now, innermost last: (end, frame index).
        let mut open: Vec<(u64, usize)> = Vec::new();
        let close_until = |open: &mut Vec<(u64, usize)>, events: &mut Vec<serde_json::Value>, time: Option<u64>| {
            while let Some(&(end, frame)) = open.last() {
                if time.is_some_and(|t| end > t) {
                    break;
                }
                open.pop();
                events.push(serde_json::json!({ "type": "C", "frame": frame, "at": micros(end) }));
            }
        };
        for (_, call) in calls.in_start_order() {
            close_until(&mut open, &mut events, Some(call.start));
            let text = name(call.frame);
            let frame = *frame_of.entry(text.to_owned()).or_insert_with(|| {
                frames.push(serde_json::json!({ "name": text }));
                frames.len() - 1
            });
            // A call never outlasts its caller, even where damaged times say so.
            let end = open.last().map_or(call.end, |&(outer, _)| call.end.min(outer)).max(call.start);
            events.push(serde_json::json!({ "type": "O", "frame": frame, "at": micros(call.start) }));
            open.push((end, frame));
        }
        close_until(&mut open, &mut events, None);
        if events.is_empty() {
            continue;
        }
        if default_thread == Some(i) {
            active = profiles.len();
        }
        profiles.push(serde_json::json!({
            "type": "evented",
            "name": sanitize(&thread.label()),
            "unit": "microseconds",
            "startValue": 0,
            "endValue": micros(profile.system.timeline.end),
            "events": events,
        }));
    }
    write_speedscope_file(profile, clock, "calls in time", frames, profiles, active, out)
}

/// pprof's messages, by their field numbers in `profile.proto`; only the fields written.
mod pprof {
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Profile {
        #[prost(message, repeated, tag = "1")]
        pub sample_type: Vec<ValueType>,
        #[prost(message, repeated, tag = "2")]
        pub sample: Vec<Sample>,
        #[prost(message, repeated, tag = "4")]
        pub location: Vec<Location>,
        #[prost(message, repeated, tag = "5")]
        pub function: Vec<Function>,
        #[prost(string, repeated, tag = "6")]
        pub string_table: Vec<String>,
        #[prost(int64, tag = "10")]
        pub duration_nanos: i64,
        #[prost(int64, repeated, tag = "13")]
        pub comment: Vec<i64>,
        #[prost(int64, tag = "14")]
        pub default_sample_type: i64,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub struct ValueType {
        #[prost(int64, tag = "1")]
        pub r#type: i64,
        #[prost(int64, tag = "2")]
        pub unit: i64,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Sample {
        /// Leaf first.
        #[prost(uint64, repeated, tag = "1")]
        pub location_id: Vec<u64>,
        #[prost(int64, repeated, tag = "2")]
        pub value: Vec<i64>,
        #[prost(message, repeated, tag = "3")]
        pub label: Vec<Label>,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Label {
        #[prost(int64, tag = "1")]
        pub key: i64,
        #[prost(int64, tag = "2")]
        pub str: i64,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Location {
        #[prost(uint64, tag = "1")]
        pub id: u64,
        #[prost(message, repeated, tag = "4")]
        pub line: Vec<Line>,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Line {
        #[prost(uint64, tag = "1")]
        pub function_id: u64,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Function {
        #[prost(uint64, tag = "1")]
        pub id: u64,
        #[prost(int64, tag = "2")]
        pub name: i64,
    }
}

/// Strings of a pprof profile, each once; index 0 is "".
struct Strings {
    table: Vec<String>,
    index: BTreeMap<String, i64>,
}

impl Strings {
    fn new() -> Self {
        Strings { table: vec![String::new()], index: BTreeMap::from([(String::new(), 0)]) }
    }

    fn id(&mut self, text: &str) -> i64 {
        if let Some(&id) = self.index.get(text) {
            return id;
        }
        let id = self.table.len() as i64;
        self.table.push(text.to_owned());
        self.index.insert(text.to_owned(), id);
        id
    }
}

/// Writes the view as pprof's gzipped `profile.proto`: one value per clock the trace has
/// (µs; samples or bytes for a source that counts them), each stack a sample per thread,
/// labelled `thread`.
pub fn write_pprof(profile: &Profile, options: &ExportOptions, out: &mut impl Write) -> Result<()> {
    use prost::Message;
    options.view.check(profile)?;
    let clocks: Vec<Clock> = Clock::ALL.into_iter().filter(|&c| profile.has(c)).collect();
    let names = FrameNames::of_view(profile, DEFAULT_MAX_DEPTH, &options.view);
    let mut strings = Strings::new();
    let sample_type = clocks
        .iter()
        .map(|&c| {
            let (kind, unit) = pprof_value_type(profile, c);
            pprof::ValueType { r#type: strings.id(kind), unit: strings.id(unit) }
        })
        .collect();
    // One function and one location per name id, ids from 1.
    let mut location_of: Vec<u64> = vec![0; names.len()];
    let (mut functions, mut locations) = (Vec::new(), Vec::new());
    let thread_key = strings.id("thread");
    let mut samples = Vec::new();
    for (label, tree) in thread_trees(profile, &names, &options.view) {
        let thread = strings.id(&label);
        tree.for_each_path(|path, time| {
            let location_id = path
                .iter()
                .rev()
                .map(|&name| {
                    if location_of[name as usize] == 0 {
                        let id = functions.len() as u64 + 1;
                        functions.push(pprof::Function { id, name: strings.id(names.name(name)) });
                        locations.push(pprof::Location { id, line: vec![pprof::Line { function_id: id }] });
                        location_of[name as usize] = id;
                    }
                    location_of[name as usize]
                })
                .collect();
            let value = clocks.iter().map(|&c| time[c].min(i64::MAX as u64) as i64).collect();
            samples.push(pprof::Sample {
                location_id,
                value,
                label: vec![pprof::Label { key: thread_key, str: thread }],
            });
        });
    }
    let default_clock = profile.default_clock();
    let comment = vec![strings.id(&format!("{}; written by droidflame", profile.facts.format.description))];
    let message = pprof::Profile {
        sample_type,
        sample: samples,
        location: locations,
        function: functions,
        default_sample_type: strings.id(pprof_value_type(profile, default_clock).0),
        duration_nanos: profile.micros(profile.system.timeline.length()).saturating_mul(1000).min(i64::MAX as u64)
            as i64,
        comment,
        string_table: strings.table,
    };
    let failed = |e: std::io::Error| Error::new(ErrorKind::Output, e.to_string());
    let mut gzip = flate2::write::GzEncoder::new(&mut *out, flate2::Compression::default());
    gzip.write_all(&message.encode_to_vec()).map_err(failed)?;
    gzip.finish().map_err(failed)?;
    out.flush().map_err(failed)
}

/// speedscope's name for what a source's values count on a clock.
fn speedscope_unit(unit: Unit) -> &'static str {
    match unit {
        Unit::Micros => "microseconds",
        Unit::Bytes => "bytes",
        Unit::Samples => "none",
    }
}

/// pprof's sample type of a clock's values, as Go's pprof names them: `wall`/`cpu` in
/// microseconds, `samples`/`count`, and heap bytes `inuse_space` (not freed) or
/// `alloc_space` (allocated).
fn pprof_value_type(profile: &Profile, clock: Clock) -> (&'static str, &'static str) {
    match profile.unit_of(clock) {
        Unit::Micros => (clock.name(), "microseconds"),
        Unit::Samples => ("samples", "count"),
        Unit::Bytes if profile.source().kind == SourceKind::HeapAllocated => ("alloc_space", "bytes"),
        Unit::Bytes => ("inuse_space", "bytes"),
    }
}
