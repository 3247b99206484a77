//! Perfetto traces written by the testkit: the same events as atrace text and as Perfetto
//! (full or compact scheduling, any bundle size, compressed) give the same profile; SDK
//! track events land on their threads, tracks and counters; losses are counted, and
//! ftrace packets dropped close open slices as a dump's end does.

use droidflame_core::products::{self, FoldedOptions};
use droidflame_core::{analyze, Clock, Profile};
use droidflame_testkit::atrace::Capture;
use droidflame_testkit::perfetto::{self as pf, FromCapture, Name, Trace, TrackEventSpec};
use droidflame_testkit::scenario::Rng;

const MS: u64 = 1_000_000;

fn folded(p: &Profile, clock: Clock) -> String {
    products::folded(p, &FoldedOptions { clock: Some(clock), ..FoldedOptions::default() }).unwrap()
}

/// Two CPUs, four threads of two processes, each writing nested markers while it runs,
/// switched out runnable or sleeping and woken again; a counter and an async span.
fn busy_capture(seed: u64) -> Capture {
    let threads = [("main", 100, 100), ("RenderThread", 101, 100), ("binder", 102, 100), ("server", 200, 200)];
    let names = ["draw", "measure", "layout", "inflate", "bind", "flush"];
    let mut rng = Rng::new(seed);
    let mut c = Capture::new();
    let mut depth = [0usize; 4];
    let mut running = [None::<usize>; 2];
    let mut ns = 1_000 * MS;
    // Each CPU starts idle and switches to a thread, so both forms know who runs where.
    for (cpu, t) in [(0u32, 0usize), (1, 1)] {
        let (task, tid, _) = threads[t];
        c.switch(cpu, ns, ("swapper", 0), "R", (task, tid));
        running[cpu as usize] = Some(t);
        ns += 10_000;
    }
    for _ in 0..600 {
        // Whole µs: atrace text has six digits after the second.
        ns += 1_000 * (1 + rng.below(200));
        let cpu = rng.below(2) as usize;
        let Some(t) = running[cpu] else { continue };
        let (task, tid, pid) = threads[t];
        match rng.below(10) {
            0..=3 if depth[t] < 6 => {
                let name = names[rng.below(names.len() as u64) as usize];
                c.event(task, tid, pid, cpu as u32, ns, "tracing_mark_write", &format!("B|{pid}|{name}"));
                depth[t] += 1;
            }
            0..=5 if depth[t] > 0 => {
                c.event(task, tid, pid, cpu as u32, ns, "tracing_mark_write", "E|".to_owned().as_str());
                depth[t] -= 1;
            }
            6 => {
                let value = rng.below(50);
                c.event(task, tid, pid, cpu as u32, ns, "tracing_mark_write", &format!("C|{pid}|queue|{value}"));
            }
            7 | 8 => {
                // Switch to a thread not running elsewhere.
                let other = running[1 - cpu];
                let next = (0..4).map(|k| (t + 1 + k) % 4).find(|&n| Some(n) != other && n != t);
                if let Some(next) = next {
                    let state = if rng.chance(50) { "R+" } else { "S" };
                    let (next_task, next_tid, _) = threads[next];
                    if state == "S" {
                        c.event(
                            task,
                            tid,
                            pid,
                            cpu as u32,
                            ns,
                            "sched_waking",
                            &format!("comm={next_task} pid={next_tid} prio=120 target_cpu={cpu:03}"),
                        );
                        ns += 1_000;
                    }
                    c.switch(cpu as u32, ns, (task, tid), state, (next_task, next_tid));
                    running[cpu] = Some(next);
                }
            }
            _ => {
                let cookie = rng.below(3);
                let phase = if rng.chance(50) { 'S' } else { 'F' };
                c.event(task, tid, pid, cpu as u32, ns, "tracing_mark_write", &format!("{phase}|{pid}|load|{cookie}"));
            }
        }
    }
    c
}

#[test]
fn atrace_text_and_perfetto_give_the_same_profile() {
    for seed in 1..=4 {
        let capture = busy_capture(seed);
        let text = analyze(&capture.text()).unwrap();
        assert!(
            text.profile.facts.warnings.iter().all(|w| !w.contains("skipped")),
            "{:?}",
            text.profile.facts.warnings
        );
        for (compact_sched, events_per_bundle) in [(false, 64), (true, 64), (false, 1), (true, 7), (true, 100_000)] {
            let packets = pf::from_capture(&capture, FromCapture { compact_sched, events_per_bundle });
            let trace = Trace::of(&packets);
            let forms = [
                ("plain", trace.bytes.clone()),
                ("compressed", trace.compressed().bytes),
                ("zstd", trace.zstd_compressed(4096, 1).bytes),
                ("zstd, frames split", trace.zstd_compressed(1 << 20, 3).bytes),
            ];
            for (form, bytes) in forms {
                let what = format!("seed {seed}, compact {compact_sched}, {events_per_bundle} per bundle, {form}");
                let p = analyze(&bytes).unwrap();
                assert_eq!(p.profile.facts.format.family, "perfetto", "{what}");
                for clock in Clock::ALL {
                    assert_eq!(folded(&p.profile, clock), folded(&text.profile, clock), "{what}, {clock:?}");
                }
                assert_eq!(p.profile.system.counters, text.profile.system.counters, "{what}");
                let sched = |p: &Profile| p.stacks().threads.iter().map(|t| (t.tid, t.sched)).collect::<Vec<_>>();
                assert_eq!(sched(&p.profile), sched(&text.profile), "{what}");
                assert_eq!(p.profile.facts.repairs, text.profile.facts.repairs, "{what}");
            }
        }
    }
}

#[test]
fn track_events_go_to_their_threads_tracks_and_counters() {
    let p = analyze(&Trace::of(&pf::sdk_sample()).bytes).unwrap();
    assert!(p.profile.facts.warnings.is_empty(), "{:?}", p.profile.facts.warnings);
    let main = p.profile.stacks().threads.iter().find(|t| t.tid == 301).expect("thread 301");
    assert_eq!(main.name, "main");
    assert_eq!(main.process.as_deref(), Some("com.example.app"));
    let folded = folded(&p.profile, Clock::Wall);
    // Times: onCreate 5,000.1 to 5,000.8 ms, inflate from 5,000.15 to 5,000.35, the
    // instant at 5,000.375; fetch from 5,000.15 to 5,000.5 on the Network track.
    assert!(folded.contains("main [301];onCreate 500\n"), "{folded}");
    assert!(folded.contains("main [301];onCreate;inflate 200\n"), "{folded}");
    let network = p.profile.stacks().threads.iter().find(|t| t.track && t.name == "Network").expect("Network track");
    assert_eq!(network.process.as_deref(), Some("com.example.app"));
    assert!(folded.contains(&format!("Network [{}];fetch 350\n", network.tid)), "{folded}");
    let counter = p.profile.system.counters.iter().find(|c| c.name == "bytes in flight").expect("counter");
    assert_eq!((counter.pid, counter.samples, counter.max, counter.last), (300, 2, 4096, 0));
    let instants: u64 = main
        .tree
        .nodes()
        .iter()
        .skip(1)
        .filter(|n| p.profile.frames[n.frame as usize].name == "first frame")
        .map(|n| n.calls)
        .sum();
    assert_eq!(instants, 1);
}

#[test]
fn a_sequence_that_lost_its_interned_names_skips_what_needs_them_until_cleared() {
    let mut packets = pf::sdk_sample();
    // The packet with the second begin is lost; the next says so. Until the writer clears
    // its state again, its packets cannot be read.
    packets.remove(6);
    pf::after_drop(&mut packets[6]);
    let mut cleared = pf::on_sequence(2, pf::SEQ_INCREMENTAL_STATE_CLEARED | pf::SEQ_NEEDS_INCREMENTAL_STATE);
    pf::interned_names(&mut cleared, &[(7, "resume")]);
    pf::default_track(&mut cleared, 11);
    pf::track_event(
        &mut cleared,
        &TrackEventSpec { ts: 9_000 * MS, clock: None, kind: 3, track: None, name: Name::Iid(7), value: None },
    );
    packets.push(cleared);
    let p = analyze(&Trace::of(&packets).bytes).unwrap();
    let warned = |text: &str| p.profile.facts.warnings.iter().any(|w| w.contains(text));
    assert!(warned("7 packets needed names their sequence lost"), "{:?}", p.profile.facts.warnings);
    let main = p.profile.stacks().threads.iter().find(|t| t.tid == 301).expect("thread 301");
    let names: Vec<&str> =
        main.tree.nodes().iter().skip(1).map(|n| p.profile.frames[n.frame as usize].name.as_str()).collect();
    assert_eq!(names, ["onCreate", "resume"]);
}

#[test]
fn unknown_names_and_clocks_are_counted() {
    let mut packets = pf::sdk_sample();
    let mut unnamed = pf::on_sequence(2, 0);
    pf::track_event(
        &mut unnamed,
        &TrackEventSpec { ts: 10, clock: Some(64), kind: 3, track: None, name: Name::Iid(99), value: None },
    );
    let mut unclocked = pf::on_sequence(3, 0);
    pf::track_event(
        &mut unclocked,
        &TrackEventSpec { ts: 10, clock: Some(70), kind: 3, track: Some(11), name: Name::Text("x"), value: None },
    );
    packets.extend([unnamed, unclocked]);
    let p = analyze(&Trace::of(&packets).bytes).unwrap();
    let warned = |text: &str| p.profile.facts.warnings.iter().any(|w| w.contains(text));
    assert!(warned("1 track events refer to a name their sequence never gave"), "{:?}", p.profile.facts.warnings);
    assert!(warned("1 track events have times on a clock the trace never relates"), "{:?}", p.profile.facts.warnings);
    assert!(p.profile.frames.iter().any(|f| f.name == "[unknown interned name]"));
}

#[test]
fn dropped_ftrace_packets_close_open_slices_at_the_last_event_before() {
    let mut c = Capture::new();
    c.mark("main", 100, 100, 1_000 * MS, "B|100|draw")
        .mark("main", 100, 100, 1_001 * MS, "B|100|measure")
        .mark("main", 100, 100, 1_002 * MS, "E|100")
        // Lost: the end of draw.
        .mark("main", 100, 100, 1_010 * MS, "E|100")
        .mark("main", 100, 100, 1_020 * MS, "B|100|layout")
        .mark("main", 100, 100, 1_021 * MS, "E|100");
    // The process tree, then a bundle of three events and one of the other three; the
    // packet with the end of draw is lost and the next says so.
    let mut before = pf::from_capture(&Capture { events: c.events[..3].to_vec(), ..c.clone() }, FromCapture::default());
    let mut after = pf::from_capture(&Capture { events: c.events[4..].to_vec(), ..c.clone() }, FromCapture::default());
    pf::after_drop(&mut after[1]);
    before.push(after.remove(1));
    let packets = before;
    let p = analyze(&Trace::of(&packets).bytes).unwrap();
    assert_eq!(p.profile.facts.repairs.closed_at_gap, 1);
    assert_eq!(p.profile.system.gaps, vec![(1_002 * MS, 1_020 * MS)]);
    let f = folded(&p.profile, Clock::Wall);
    assert!(f.contains("main [100];draw 1000\n") && f.contains("main [100];layout 1000\n"), "{f}");
    assert!(
        p.profile
            .facts
            .warnings
            .iter()
            .any(|w| w.contains("the recorder dropped packets once; where kernel events were lost (1 gap,")),
        "{:?}",
        p.profile.facts.warnings
    );
}

#[test]
fn zstd_compressed_packets_are_read_within_the_limit_and_damage_is_counted() {
    let trace = Trace::of(&pf::from_capture(&busy_capture(5), FromCapture::default()));
    let plain = analyze(&trace.bytes).unwrap();
    let zstd = trace.zstd_compressed(8192, 2);
    let p = analyze(&zstd.bytes).unwrap();
    assert_eq!(folded(&p.profile, Clock::Wall), folded(&plain.profile, Clock::Wall));
    assert!(p.profile.facts.warnings.iter().all(|w| !w.contains("zstd")), "{:?}", p.profile.facts.warnings);
    // A bomb stops at the decompressed-size limit, as zlib's does.
    let options = droidflame_core::Options { max_decompressed_bytes: 10_000, ..droidflame_core::Options::default() };
    let err = droidflame_core::analyze_with(&zstd.bytes, options).unwrap_err();
    assert_eq!(err.kind(), droidflame_core::ErrorKind::Limit);
    assert!(err.to_string().contains("decompressed-size limit"), "{err}");
    // A damaged frame: that packet is skipped and counted; the others are read.
    let mut damaged = zstd.bytes.clone();
    let middle = damaged.len() / 2;
    for byte in &mut damaged[middle..middle + 64] {
        *byte ^= 0x5A;
    }
    let p = analyze(&damaged).unwrap();
    assert!(p.profile.facts.repairs.damaged_parts >= 1, "{:?}", p.profile.facts.repairs);
    assert!(p.profile.facts.warnings.iter().any(|w| w.contains("damaged")), "{:?}", p.profile.facts.warnings);
}

/// Perfetto compresses packets by the hundreds of kilobytes: a zlib or zstd packet that
/// inflates to a megabyte reads as its packets do plain, and a zlib stream cut short is a
/// damaged packet.
#[test]
fn compressed_packets_of_a_megabyte_read_as_plain() {
    use droidflame_testkit::large::{write_large, LargeLayout, Shape};
    let mut bytes = Vec::new();
    write_large(&mut bytes, &Shape::app_start(12_000), LargeLayout::PerfettoSched).unwrap();
    assert!(bytes.len() > 1 << 20, "{} bytes", bytes.len());
    let plain = analyze(&bytes).unwrap();
    let trace = Trace { bytes };
    for (form, packed) in [("zlib", trace.compressed()), ("zstd", trace.zstd_compressed(1 << 30, 1))] {
        let p = analyze(&packed.bytes).unwrap();
        assert_eq!(p.profile.facts.repairs, plain.profile.facts.repairs, "{form}");
        for clock in Clock::ALL {
            assert_eq!(folded(&p.profile, clock), folded(&plain.profile, clock), "{form}, {clock:?}");
        }
        assert_eq!(format!("{:?}", p.profile.system), format!("{:?}", plain.profile.system), "{form}");
    }
    // The zlib stream cut short inside its packet: what it inflated to is not read.
    let packed = trace.compressed().bytes;
    let stream = &packed[packed.len() - zlib_len(&packed)..];
    let mut cut = pf::Message::new();
    cut.bytes(50, &stream[..stream.len() / 2]);
    let p = analyze(&Trace::of(&[cut]).bytes).unwrap();
    assert_eq!(p.profile.facts.repairs.damaged_parts, 1);
    assert!(p.profile.facts.warnings.iter().any(|w| w.contains("damaged")), "{:?}", p.profile.facts.warnings);
}

/// The length of the zlib stream of a trace of one `compressed_packets` packet (the
/// packet's last field, after its key and length).
fn zlib_len(trace: &[u8]) -> usize {
    let varint = |bytes: &[u8]| {
        let n = bytes.iter().position(|&b| b < 0x80).unwrap() + 1;
        (bytes[..n].iter().rev().fold(0usize, |v, &b| (v << 7) | usize::from(b & 0x7F)), n)
    };
    let (_, n) = varint(&trace[1..]);
    let at = 1 + n + 2;
    varint(&trace[at..]).0
}

/// Counter tracks say their unit, scale their values and may write only changes: a value
/// of an incremental counter is the sum of the changes since its sequence last cleared its
/// state. A range summarises the values in force in it.
#[test]
fn counter_tracks_keep_their_units_multipliers_and_increments() {
    use droidflame_core::Options;
    use pf::{CounterSpec, TrackOf};
    let bytes = CounterSpec { unit: 3, ..CounterSpec::default() };
    let time = CounterSpec { builtin: 1, multiplier: 1_000, incremental: true, ..CounterSpec::default() };
    let power = CounterSpec { unit: 2, unit_name: "mW", ..CounterSpec::default() };
    let instructions = CounterSpec { builtin: 2, ..CounterSpec::default() };
    let mut packets = vec![
        pf::track_descriptor(3, 10, TrackOf::Process(400, "com.example.power")),
        pf::track_descriptor(3, 11, TrackOf::ShapedCounter(10, "heap", bytes)),
        pf::track_descriptor(3, 12, TrackOf::ShapedCounter(10, "thread time", time)),
        pf::track_descriptor(3, 13, TrackOf::ShapedCounter(0, "rail", power)),
        pf::track_descriptor(3, 14, TrackOf::ShapedCounter(10, "retired", instructions)),
    ];
    let value = |ms: u64, track, value| TrackEventSpec {
        ts: ms * MS,
        clock: None,
        kind: 4,
        track: Some(track),
        name: Name::None,
        value: Some(value),
    };
    let cleared = pf::SEQ_INCREMENTAL_STATE_CLEARED;
    for (flags, e) in [
        (0, value(1, 11, 100)),
        (0, value(2, 12, 5)),
        (0, value(3, 12, 7)),
        (0, value(4, 11, 300)),
        (0, value(4, 13, 250)),
        (cleared, value(5, 12, 2)),
        (0, value(6, 12, 3)),
        (0, value(7, 11, 50)),
        (0, value(7, 14, 1_000_000)),
    ] {
        let mut packet = pf::on_sequence(3, flags);
        pf::track_event(&mut packet, &e);
        packets.push(packet);
    }
    let bytes_of_trace = Trace::of(&packets).bytes;
    let p = droidflame_core::analyze_with(&bytes_of_trace, Options { keep_calls: true, ..Options::default() }).unwrap();
    let counter = |p: &Profile, name: &str| p.system.counters.iter().find(|c| c.name == name).cloned().unwrap();
    let heap = counter(&p.profile, "heap");
    assert_eq!((heap.pid, heap.unit.as_str(), heap.min, heap.max, heap.last), (400, "bytes", 50, 300, 50));
    // 5 and 7 µs of thread time, then after the clear 2 and 3 more: in ns.
    let time = counter(&p.profile, "thread time");
    assert_eq!((time.unit.as_str(), time.samples, time.min, time.max, time.last), ("ns", 4, 2_000, 12_000, 5_000));
    assert_eq!(time.series.iter().map(|s| s.1).collect::<Vec<_>>(), [5_000, 12_000, 2_000, 5_000]);
    let rail = counter(&p.profile, "rail");
    assert_eq!((rail.pid, rail.unit.as_str(), rail.last), (0, "mW", 250));
    // A built-in instruction counter counts instructions.
    assert_eq!(counter(&p.profile, "retired").unit, "instructions");
    // From 3.5 to 6.5 ms: heap was 100 at its start and became 300; thread time was 12,000,
    // then 2,000 and 5,000; the rail wrote its one value.
    let cut = p.profile.within(3_500_000, 6_500_000).unwrap();
    let heap = counter(&cut, "heap");
    assert_eq!((heap.samples, heap.min, heap.max, heap.last), (1, 100, 300, 300));
    let time = counter(&cut, "thread time");
    assert_eq!((time.samples, time.min, time.max, time.last), (2, 2_000, 12_000, 5_000));
    assert_eq!((time.unit.as_str(), time.series.len()), ("ns", 0));
    // From exactly 4 ms, when heap was written 300: 100 was never in force in it.
    let at_write = p.profile.within(4_000_000, 6_000_000).unwrap();
    let heap = counter(&at_write, "heap");
    assert_eq!((heap.samples, heap.min, heap.max, heap.last), (1, 300, 300, 300));
    // To exactly 7 ms, when heap was written 50: that value is the next span's.
    let to_write = p.profile.within(3_500_000, 7_000_000).unwrap();
    let heap = counter(&to_write, "heap");
    assert_eq!((heap.samples, heap.min, heap.max, heap.last), (1, 100, 300, 300));
    // Before any value: nothing written, nothing in force, no counter.
    let early = p.profile.within(0, 500_000).unwrap();
    assert!(early.system.counters.is_empty(), "{:?}", early.system.counters);
    // After the last: the value in force, nothing written.
    let late = p.profile.within(8_000_000, 9_000_000).unwrap();
    let heap = counter(&late, "heap");
    assert_eq!((heap.samples, heap.min, heap.max, heap.last), (0, 50, 50, 50));
}

/// A trace with scheduler events and no slices says its frames are scheduler states, and
/// names what else it holds instead of saying "only".
#[test]
fn a_scheduler_only_trace_says_what_else_it_holds() {
    let mut c = Capture::new();
    c.switch(0, 1_000 * MS, ("swapper/0", 0), "R", ("app", 5)).switch(0, 1_002 * MS, ("app", 5), "S", ("swapper/0", 0));
    let packets = pf::from_capture(&c, FromCapture::default());
    let warnings = |packets: &[pf::Message]| analyze(&Trace::of(packets).bytes).unwrap().profile.facts.warnings;
    let alone = warnings(&packets);
    assert!(
        alone.iter().any(|w| w.contains("no slices (atrace markers or track events), only scheduler events")),
        "{alone:?}"
    );
    let mut more = packets.clone();
    // A battery counters packet (TracePacket field 38), which droidflame does not draw.
    more.push(pf::Message::new().message(38, &pf::Message::new()).clone());
    let held = warnings(&more);
    assert!(held.iter().all(|w| !w.contains("only scheduler events")), "{held:?}");
    assert!(
        held.iter().any(|w| w.contains("but scheduler events, so each thread's frames are its scheduler states")
            && w.contains("it also holds battery counters (1 packet)")),
        "{held:?}"
    );
}
