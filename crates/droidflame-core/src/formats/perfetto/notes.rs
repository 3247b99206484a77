//! What a Perfetto trace's notes say: what could not be read, what was lost, and, when
//! nothing can be drawn, what the trace holds instead.

use super::packets::PacketReader;
use super::stats::PacketStats;
use crate::formats::system::SystemEnd;
use crate::profile::ProfileBuilder;
use crate::profile::Repair;
use crate::text::{counted, group_digits, were};

/// What packets of kinds droidflame does not draw hold, by their field number in
/// `TracePacket`. Kinds that only describe the recording (its config, clocks, stats) are
/// not listed.
const PACKET_KINDS: [(u32, &str); 34] = [
    (5, "Chrome JSON events"),
    (7, "system stats"),
    (9, "process stats"),
    (37, "native heap profiles"),
    (38, "battery counters"),
    (39, "Android log messages"),
    (40, "power rails"),
    (52, "GPU counters"),
    (53, "GPU render stages"),
    (54, "callstack samples"),
    (56, "Java heap graphs"),
    (57, "graphics frame events"),
    (62, "Vulkan memory events"),
    (65, "Vulkan API events"),
    (66, "CPU callstack samples (perf)"),
    (68, "memory maps"),
    (71, "GPU memory totals"),
    (73, "memory snapshots"),
    (74, "heap allocations"),
    (76, "frame timeline events"),
    (77, "energy estimates"),
    (84, "statsd atoms"),
    (88, "network packets"),
    (91, "power state residency"),
    (92, "network packets"),
    (93, "SurfaceFlinger layers"),
    (94, "SurfaceFlinger transactions"),
    (96, "shell transitions"),
    (104, "ProtoLog messages"),
    (110, "modem events"),
    (115, "kernel wakelocks"),
    (116, "app wakelocks"),
    (121, "input events"),
    (135, "stack samples"),
];

/// Kinds that describe the recording rather than hold data.
const RECORDING_KINDS: [u32; 15] = [6, 33, 34, 35, 36, 45, 46, 47, 67, 69, 72, 89, 124, 126, 131];

/// What the packets droidflame does not draw hold, most first: "power rails (6 packets)".
fn held(stats: &PacketStats) -> Vec<String> {
    let mut kinds: Vec<(u64, &str)> = Vec::new();
    let mut unnamed = 0;
    for (&field, &count) in &stats.other_kinds {
        if RECORDING_KINDS.contains(&field) {
            continue;
        }
        match PACKET_KINDS.iter().find(|(f, _)| *f == field) {
            Some((_, name)) => match kinds.iter_mut().find(|(_, n)| n == name) {
                Some(kind) => kind.0 += count,
                None => kinds.push((count, name)),
            },
            None => unnamed += count,
        }
    }
    kinds.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
    let packets = |n: u64| counted(n, "packet", "packets");
    let mut held: Vec<String> = kinds.iter().map(|(count, name)| format!("{name} ({})", packets(*count))).collect();
    let other_ftrace = stats.ftrace_events - stats.read_events;
    if other_ftrace > 0 {
        held.push(format!(
            "{} kernel events of kinds not drawn (such as CPU frequency or idle)",
            group_digits(other_ftrace)
        ));
    }
    if unnamed > 0 {
        held.push(format!("{} of other kinds", packets(unnamed)));
    }
    held
}

/// Every note of a Perfetto trace read into `slices` slices.
pub fn warn(reader: &PacketReader, slices: u64, end: &SystemEnd, builder: &mut ProfileBuilder) {
    let stats = &reader.stats;
    let (delayed, longest) = reader.clocks.delayed;
    if delayed > 0 {
        builder.facts.warn(format!(
            "{} read {} clocks as much as {} µs apart (CLOCK_MONOTONIC ahead of the boot clock, which it cannot \
             be): times on other clocks (CPU samples, frames) were converted with the snapshot read closest \
             together, less the {} µs it shows, and may still be off by tens of µs",
            counted(u64::from(delayed), "clock snapshot", "clock snapshots"),
            if delayed == 1 { "its" } else { "their" },
            group_digits(longest / 1_000),
            group_digits(reader.clocks.corrected / 1_000),
        ));
    }
    let mut read = Vec::new();
    if reader.samples.stats.samples > 0 {
        read.push(format!(
            "{} (the cpu-samples source)",
            counted(reader.samples.stats.samples, "CPU callstack sample", "CPU callstack samples")
        ));
    }
    if reader.heap.stats.dumps > 0 {
        read.push(format!(
            "{} (the heap-unreleased and heap-allocated sources)",
            counted(reader.heap.stats.dumps, "heap dump", "heap dumps")
        ));
    }
    if let Some((pid, objects)) = reader.java_heaps.dump_read() {
        read.push(format!(
            "Java heap dump of pid {pid} ({}; the heap-dominators and heap-paths sources)",
            counted(objects, "object", "objects")
        ));
    }
    if reader.frames.events > 0 {
        read.push(format!(
            "{} (the app frames: the page's Frames tab, `droidflame frames` on the command line)",
            counted(reader.frames.events, "frame timeline event", "frame timeline events")
        ));
    }
    // A Java heap dump alone (a `.perfetto-java-heap-dump`) is what it is: nothing is missing.
    let java_only = read.len() == 1 && reader.java_heaps.dump_read().is_some() && stats.ftrace_events == 0;
    if slices == 0 && !read.is_empty() && !java_only {
        let held = held(stats);
        let states = if end.scheduled {
            "; its scheduler events are the calls source, each thread's frames its scheduler states (running, \
             runnable, sleeping and so on)"
        } else {
            ""
        };
        let also = if held.is_empty() {
            String::new()
        } else {
            format!("; it also holds {}, which droidflame does not draw yet", held.join(", "))
        };
        builder.facts.warn(format!(
            "the trace has no slices (atrace markers or track events); droidflame read its {}{states}{also}",
            read.join(" and ")
        ));
    } else if slices == 0 && !java_only {
        let held = held(stats);
        // What was read, then what else the trace holds: never "only" where there is more.
        let instead = if end.scheduled && held.is_empty() {
            "only scheduler events: each thread's frames are its scheduler states (running, runnable, sleeping and so \
             on)"
            .to_owned()
        } else if end.scheduled {
            format!(
                "but scheduler events, so each thread's frames are its scheduler states (running, runnable, \
                 sleeping and so on); it also holds {}, which droidflame does not draw yet",
                held.join(", ")
            )
        } else {
            let held = if held.is_empty() { "nothing else".to_owned() } else { held.join(", ") };
            format!("and no scheduler events: there is nothing to draw; it holds {held}")
        };
        builder.facts.warn(format!(
            "the trace has no slices (atrace markers or track events), {instead}; droidflame draws slices (record \
             with atrace categories such as gfx, view, am, or with the Perfetto SDK) and scheduling (sched events)"
        ));
    }
    if let Some(at) = stats.first_damaged_at {
        builder.facts.warn_about(
            Repair::DamagedParts,
            format!(
                "{} and {} skipped, the first at byte {}",
                counted(stats.damaged, "packet is damaged", "packets are damaged"),
                were(stats.damaged),
                group_digits(at)
            ),
        );
    }
    if stats.dropped_packets > 0 {
        let lost: u64 = end.gaps.iter().map(|(from, to)| to - from).sum();
        builder.facts.warn_about(
            Repair::ClosedAtGap,
            format!(
                "the recorder dropped packets {}; where kernel events were lost ({}, {} ms in all, which the \
                 timeline shows) slices still open were closed at the last event before the gap",
                if stats.dropped_packets == 1 {
                    "once".to_owned()
                } else {
                    counted(stats.dropped_packets, "time", "times")
                },
                counted(end.gaps.len() as u64, "gap", "gaps"),
                group_digits(lost / 1_000_000)
            ),
        );
    }
    // Each count, when not zero, is said with what it means.
    let counted = [
        (
            stats.lost_bundles,
            "CPU bundles say the kernel's buffer overran before them: that CPU's events just before were lost, so \
             slices that ended there run long and later ends show up as unmatched",
        ),
        (stats.unreadable_packets, "packets needed names their sequence lost with dropped packets, and were skipped"),
        (
            stats.unknown_names,
            "track events refer to a name their sequence never gave; they are shown as [unknown interned name]",
        ),
        (
            stats.unconvertible_times,
            "track events have times on a clock the trace never relates to the boot clock, and were skipped",
        ),
        (stats.other_prints, "print events were not atrace markers (B, E, C, S, F, I, N, G, H) and were skipped"),
        (stats.bad_thread_ids, "events name thread ids no kernel hands out and were skipped"),
        (
            builder.facts.repairs.out_of_order,
            "events came later in the file than events more than a sorting window after them: each was read in file \
             order",
        ),
    ];
    for (count, meaning) in counted {
        if count > 0 {
            builder.facts.warn(format!("{} {meaning}", group_digits(count)));
        }
    }
    samples(reader, builder);
    heap(reader, builder);
}

/// What the CPU samples lost or could not tell.
fn samples(reader: &PacketReader, builder: &mut ProfileBuilder) {
    let s = &reader.samples.stats;
    let skipped: u64 = s.skipped.iter().sum();
    if skipped > 0 {
        const STAGES: [&str; 5] = [
            "for no reason given",
            "at the read stage",
            "at the unwind stage",
            "because the unwinding queue was full",
            "as out of scope",
        ];
        let why: Vec<String> = s
            .skipped
            .iter()
            .zip(STAGES)
            .filter(|(n, _)| **n > 0)
            .map(|(n, stage)| format!("{} {stage}", group_digits(*n)))
            .collect();
        builder.facts.warn(format!(
            "the recorder skipped {} ({}): their time is missing from the cpu-samples source",
            counted(skipped, "sample", "samples"),
            why.join(", ")
        ));
    }
    if s.loss_reports > 0 {
        builder.facts.warn(format!(
            "the kernel lost {} of samples ({}): the cpu-samples source misses what they held",
            counted(s.records_lost, "record", "records"),
            counted(s.loss_reports, "report", "reports")
        ));
    }
    let told = [
        (s.unwind_errors, "samples could not be unwound to their outermost frame: their stacks may be cut short"),
        (s.unknown_callstacks, "samples name a callstack their sequence never gave; they are shown as <unknown callstack>"),
        (s.unconvertible_times, "samples have times on a clock the trace never relates to the boot clock, and were skipped"),
        (s.other_weights, "samples come from a recording whose sampling event differs from the first's; each counts as the first's do"),
        (reader.code.unknown_frames, "frames of callstacks were never described; they are shown as <unknown frame N>"),
    ];
    for (count, meaning) in told {
        if count > 0 {
            builder.facts.warn(format!("{} {meaning}", group_digits(count)));
        }
    }
}

/// What the heap dumps lost.
fn heap(reader: &PacketReader, builder: &mut ProfileBuilder) {
    let h = &reader.heap.stats;
    if h.unknown_callstacks > 0 {
        builder.facts.warn(format!(
            "{} of heap dumps name a callstack the trace never gave, and were left out",
            counted(h.unknown_callstacks, "row", "rows")
        ));
    }
    let told = [
        (h.overran, "heap dumps say the process's buffer overran: allocations after that are missing"),
        (h.corrupted, "heap dumps say the process's buffer was damaged: allocations are missing"),
        (h.disconnected, "heap dumps say the process disconnected before the end: they stop there"),
        (h.guardrail, "heap dumps say the recorder hit its memory limit and stopped"),
    ];
    for (count, meaning) in told {
        if count > 0 {
            let pids: Vec<String> = h.pids_cut_short.iter().map(u32::to_string).collect();
            builder.facts.warn(format!("{} {meaning} (process {})", group_digits(count), pids.join(", ")));
        }
    }
}
