//! The end of a simpleperf file: frames and threads named from the records simpleperf
//! writes last, what the recording was (format, clocks, header), and a note for everything
//! lost, damaged or left out.

use super::events::Role;
use super::framing::End;
use super::samples::SampleReader;
use super::symbols::describe;
use crate::profile::Repair;
use crate::profile::{
    Clock, ClockSet, ClockWords, FinishSpec, FormatInfo, FrameKind, ProfileBuilder, SourceKind, SourceSpec, TimeUnit,
    Unit,
};
use crate::text::{counted, group_digits, were};

/// How the record stream ended.
pub struct Ending {
    pub version: Option<u16>,
    pub records: u64,
    /// Where the input stopped without the end marker, and the bytes of a record begun there.
    pub cut: Option<(u64, u64)>,
    pub end: Option<End>,
}

pub fn finish(reader: SampleReader, ending: Ending, gzip: bool, builder: &mut ProfileBuilder) -> FinishSpec {
    name_frames(&reader, builder);
    let pid = name_threads(&reader, builder);
    warn_about_input(&reader, &ending, builder);
    let events = &reader.events;
    let timed = events.on_cpu_is_time();
    let off_cpu = events.traces_off_cpu();
    let on_cpu_samples: u64 = (0..reader.stats.samples_by_event.len() as u32)
        .filter(|&id| events.role(id) == Role::OnCpu)
        .map(|id| reader.stats.samples_by_event[id as usize])
        .sum();
    let mut what = Vec::new();
    if let Some(name) = events.on_cpu() {
        what.push(name.to_owned());
    }
    if off_cpu {
        what.push("off-CPU".to_owned());
    }
    let clock_words = match (timed, off_cpu) {
        (true, true) => ClockWords { wall: "wall time, on and off CPU", cpu: "on-CPU time" },
        (true, false) => ClockWords { wall: "wall time seen running", cpu: "on-CPU time" },
        _ => ClockWords { wall: "wall time between samples", cpu: "" },
    };
    let format = FormatInfo {
        family: "simpleperf",
        layout: "report-sample",
        kind: "sampled profile",
        version: ending.version.map_or(0, u32::from),
        gzip,
        ends_known: true,
        split: false,
        pid,
        recorded_us: None,
        details: Vec::new(),
        sampling_interval_us: (timed && on_cpu_samples > 0).then(|| sampling_period_us(&reader, on_cpu_samples)),
        description: format!(
            "Callstack samples (simpleperf{}){}",
            if what.is_empty() { String::new() } else { format!(": {}", what.join(" + ")) },
            if gzip { ", gzip" } else { "" }
        ),
    };
    if !timed && on_cpu_samples > 0 {
        builder.facts.warn(format!(
            "{} counts events, not time, so this profile has no CPU clock: on the wall clock each stack holds \
             until its thread's next sample, including any time the thread was not running",
            events.on_cpu().unwrap_or("the sampled event")
        ));
    }
    FinishSpec {
        format,
        header: header(&reader, &ending, pid),
        time_unit: TimeUnit::NANOS,
        counters: Vec::new(),
        group_by_process: true,
        timeline: None,
        gaps: Vec::new(),
        main: SourceSpec {
            kind: SourceKind::CpuSamples,
            unit: Unit::Micros,
            clocks: if timed { ClockSet::Dual } else { ClockSet::Wall },
            frame_kind: FrameKind::Function,
            clock_words,
            preferred_clock: timed.then_some(Clock::Cpu),
            states_as_frames: false,
        },
        more: Vec::new(),
        main_first: true,
    }
}

/// The mean CPU time between a thread's on-CPU samples, in µs: the sampling period.
fn sampling_period_us(reader: &SampleReader, on_cpu_samples: u64) -> u64 {
    (reader.threads.total_on_cpu() / on_cpu_samples / 1000).max(1)
}

fn name_frames(reader: &SampleReader, builder: &mut ProfileBuilder) {
    let mut unknown = 0u64;
    for (slot, &(key, java)) in reader.frames.keys.iter().enumerate() {
        let (info, known) = describe(key, &reader.files, java);
        unknown += u64::from(!known);
        builder.frames.describe_frame(slot as u32, info);
    }
    if unknown > 0 {
        builder.facts.warn(format!(
            "{} frames name a file or function that the file records do not list; each is shown by file id and \
             address or function number",
            group_digits(unknown)
        ));
    }
}

/// Names threads and processes from the thread records; returns the one process every
/// sampled thread belongs to, if there is one (the app's: its main thread has its id).
fn name_threads(reader: &SampleReader, builder: &mut ProfileBuilder) -> Option<u32> {
    let slots: rustc_hash::FxHashMap<u32, u32> = reader.threads.slots().collect();
    let mut pids = Vec::new();
    for record in &reader.thread_records {
        let tid = record.thread_id.unwrap_or(0);
        let name = record.thread_name.as_deref().map(|n| String::from_utf8_lossy(n).into_owned());
        if let (Some(pid), Some(name)) = (record.process_id, &name) {
            if pid == tid {
                builder.stacks.name_process(pid, name.clone());
            }
        }
        let Some(&slot) = slots.get(&tid) else {
            continue;
        };
        if let Some(name) = name {
            builder.stacks.name_thread(slot, name, true);
        }
        if let Some(pid) = record.process_id {
            builder.stacks.set_process(slot, pid);
            pids.push(pid);
        }
    }
    pids.sort_unstable();
    pids.dedup();
    (pids.len() == 1).then(|| pids[0])
}

fn warn_about_input(reader: &SampleReader, ending: &Ending, builder: &mut ProfileBuilder) {
    let stats = &reader.stats;
    let n = group_digits;
    if let Some((at, bytes)) = ending.cut {
        builder.facts.repairs.truncated = true;
        let inside = if ending.version.is_none() {
            "inside its 12-byte header".to_owned()
        } else if bytes > 0 {
            format!("inside the record that begins at byte {} ({} bytes of it are there)", n(at), n(bytes))
        } else {
            format!("at byte {} without the end marker", n(at))
        };
        builder.facts.warn_about(
            Repair::Truncated,
            format!("the file ends {inside}: the {} records before it were read", n(ending.records)),
        );
    }
    match ending.end {
        Some(End::Damaged { at, size }) => {
            builder.facts.repairs.damaged_parts += 1;
            builder.facts.warn_about(
                Repair::DamagedParts,
                format!(
                    "the record at byte {} claims {} bytes, more than any record holds: the file is damaged there \
                     and nothing after it was read",
                    n(at),
                    n(u64::from(size))
                ),
            );
        }
        Some(End::Marker { trailing }) if trailing > 0 => {
            let bytes = counted(trailing, "byte", "bytes");
            builder.facts.warn(format!("{bytes} after the end of the records {} not read", were(trailing)));
        }
        _ => {}
    }
    if stats.damaged > 0 {
        builder.facts.repairs.damaged_parts += stats.damaged;
        builder.facts.warn_about(
            Repair::DamagedParts,
            format!(
                "{} not decode (the first at byte {}) and {} skipped",
                counted(stats.damaged, "record would", "records would"),
                n(stats.first_damaged_at.unwrap_or(0)),
                were(stats.damaged)
            ),
        );
    }
    if let Some(lost) = &stats.lost {
        let (recorded, lost) = (lost.sample_count.unwrap_or(0), lost.lost_count.unwrap_or(0));
        if lost > 0 {
            builder.facts.repairs.lost_samples = lost;
            let share = lost as f64 * 100.0 / (recorded + lost).max(1) as f64;
            builder.facts.warn_about(
                Repair::LostSamples,
                format!(
                    "{share:.1}% of the {} samples the recorder took; times are low where they were lost",
                    n(recorded + lost)
                ),
            );
        }
        if recorded != stats.samples && ending.cut.is_none() && ending.end == Some(End::Marker { trailing: 0 }) {
            builder.facts.warn(format!(
                "the recording says it made {} samples; the file holds {}",
                n(recorded),
                n(stats.samples)
            ));
        }
    }
    if !reader.events.known && stats.samples > 0 {
        builder.facts.warn("the file has no meta info record before its samples, so what they measure is unknown: event 0 is taken as the on-CPU event");
    }
    for (id, &count) in stats.samples_by_event.iter().enumerate() {
        if count > 0 && reader.events.role(id as u32) == Role::Other {
            let name = reader.events.names.get(id).map_or_else(|| format!("event {id}"), Clone::clone);
            builder.facts.warn(format!(
                "{} samples of {name} are not shown: graphs show one on-CPU event ({}) and off-CPU time",
                n(count),
                reader.events.on_cpu().unwrap_or("none")
            ));
        }
    }
    if stats.no_call_chain > 0 {
        builder.facts.warn(format!(
            "{} samples have no call chain (recorded without -g?); they are shown as <no call chain>",
            n(stats.no_call_chain)
        ));
    }
    if reader.threads.out_of_order > 0 {
        builder.facts.repairs.out_of_order += reader.threads.out_of_order;
        builder.facts.warn_about(
            Repair::OutOfOrder,
            format!(
                "{} samples are earlier than their thread's previous one; each was taken at that one's time",
                n(reader.threads.out_of_order)
            ),
        );
    }
    if stats.unknown_records > 0 {
        let records = counted(stats.unknown_records, "record of a kind", "records of kinds");
        let were = were(stats.unknown_records);
        builder.facts.warn(format!("{records} this version does not read {were} skipped"));
    }
    if stats.samples == 0 {
        builder.facts.warn("the file holds no samples");
    }
}

fn header(reader: &SampleReader, ending: &Ending, pid: Option<u32>) -> Vec<(String, String)> {
    let mut header = vec![("version".to_owned(), ending.version.unwrap_or(0).to_string())];
    let text = |bytes: &Option<Vec<u8>>| bytes.as_deref().map(|b| String::from_utf8_lossy(b).into_owned());
    if !reader.events.names.is_empty() {
        header.push(("event_types".to_owned(), reader.events.names.join(",")));
    }
    if let Some(meta) = &reader.meta {
        let fields = [
            ("app_package_name", text(&meta.app_package_name)),
            ("app_type", text(&meta.app_type)),
            ("android_sdk_version", text(&meta.android_sdk_version)),
            ("android_build_type", text(&meta.android_build_type)),
            ("trace_offcpu", meta.trace_offcpu.map(|b| b.to_string())),
        ];
        header.extend(fields.into_iter().filter_map(|(k, v)| Some((k.to_owned(), v?))));
    }
    if let Some(pid) = pid {
        header.push(("pid".to_owned(), pid.to_string()));
    }
    header.push(("samples".to_owned(), reader.stats.samples.to_string()));
    if let Some(lost) = &reader.stats.lost {
        header.push(("sample_count".to_owned(), lost.sample_count.unwrap_or(0).to_string()));
        header.push(("lost_count".to_owned(), lost.lost_count.unwrap_or(0).to_string()));
    }
    if reader.stats.context_switches > 0 {
        header.push(("context_switches".to_owned(), reader.stats.context_switches.to_string()));
    }
    header
}
