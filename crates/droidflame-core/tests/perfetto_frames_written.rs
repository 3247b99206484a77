//! Perfetto traces written here (testkit `perfetto_frames`, `perfetto::from_capture`) for
//! what the corpus cannot show: every jank type's name, frames never ended, ends that match
//! no start, display frames; and thread states from full and compact scheduling with
//! blocked reasons named by interned kernel symbols.

use droidflame_core::products;
use droidflame_core::profile::SchedState;
use droidflame_core::{analyze_with, Options, Profile};
use droidflame_testkit::atrace::Capture;
use droidflame_testkit::perfetto::{from_capture, FromCapture, Message, Trace};
use droidflame_testkit::perfetto_frames::{app_frame, display_frame, frame_end, jank, SurfaceFrame};

const MS: u64 = 1_000_000;

/// A frame as a test compares it: token, jank, present, duration and expected duration (ms).
type FrameFacts<'a> = (i64, &'a str, &'a str, Option<u64>, Option<u64>);
/// A state as a test compares it: start (µs), state, CPU, waker, blocked function, I/O wait.
type StateFacts = (u64, SchedState, Option<u32>, Option<u32>, Option<String>, bool);

fn kept(bytes: &[u8]) -> Profile {
    analyze_with(bytes, Options { keep_calls: true, ..Options::default() }).unwrap().into_profile()
}

fn frame(cookie: u64, token: u64, layer: &'static str, jank_bits: u64, present: u64) -> SurfaceFrame<'static> {
    SurfaceFrame { cookie, token, display_token: token + 100, pid: 42, layer, jank: jank_bits, present, prediction: 1 }
}

#[test]
fn app_frames_carry_every_jank_type_in_perfettos_words() {
    const MAIN: &str = "com.example/com.example.MainActivity#0";
    const SHEET: &str = "com.example/BottomSheet#1";
    let mut packets: Vec<Message> = Vec::new();
    packets.extend(app_frame(&frame(10, 1, MAIN, jank::NONE, 1), (0, 16 * MS), (MS, Some(9 * MS))));
    packets.extend(app_frame(
        &frame(20, 2, MAIN, jank::APP_DEADLINE_MISSED | jank::BUFFER_STUFFING, 2),
        (17 * MS, 33 * MS),
        (17 * MS, Some(60 * MS)),
    ));
    packets.extend(app_frame(
        &frame(30, 3, SHEET, jank::SF_SCHEDULING | jank::PREDICTION_ERROR | jank::DISPLAY_HAL, 2),
        (34 * MS, 50 * MS),
        (34 * MS, Some(52 * MS)),
    ));
    packets.extend(app_frame(
        &frame(40, 4, SHEET, jank::DROPPED | jank::UNKNOWN, 4),
        (51 * MS, 67 * MS),
        (51 * MS, None),
    ));
    // An end whose start the trace lost, and the compositor's own frames.
    packets.push(frame_end(70 * MS, 999));
    packets.push(display_frame(0, 500, 7, 9, None));
    packets.push(frame_end(16 * MS, 500));
    packets.push(display_frame(MS, 500, 7, 9, Some((jank::SF_CPU_DEADLINE_MISSED, 2))));
    packets.push(frame_end(20 * MS, 501));
    let p = kept(&Trace::of(&packets).bytes);
    let got: Vec<FrameFacts> = p
        .system
        .app_frames
        .iter()
        .map(|f| {
            (
                f.token,
                f.jank.as_str(),
                f.present.as_str(),
                f.duration().map(|d| d / MS),
                f.expected_duration().map(|d| d / MS),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (1, "None", "On-time Present", Some(8), Some(16)),
            (2, "App Deadline Missed, Buffer Stuffing", "Late Present", Some(43), Some(16)),
            (3, "SurfaceFlinger Scheduling, Prediction Error, Display HAL", "Late Present", Some(18), Some(16)),
            (4, "Unknown Jank, Dropped Frame", "Dropped Frame", None, Some(16)),
        ]
    );
    assert_eq!(p.system.app_frames.iter().filter(|f| f.janky).count(), 3);
    assert!(p.system.app_frames.iter().all(|f| f.prediction == "Valid Prediction" && !f.derived));
    let notes: Vec<&str> = p.facts.warnings.iter().map(|w| w.text.as_str()).collect();
    assert!(
        notes.contains(&"1 app frame of the frame timeline never ended in the trace: kept, with no end"),
        "{notes:?}"
    );
    // Cookie 999's end, alone: every other end closes an expected or actual frame, app or display.
    assert!(
        notes.contains(&"1 frame end of the frame timeline named no frame the trace started, and was skipped"),
        "{notes:?}"
    );
    // Every packet written here is one frame timeline event.
    let read = format!("droidflame read its {} frame timeline events", packets.len());
    assert!(notes.iter().any(|n| n.contains(&read)), "{read} in {notes:?}");
    // Whose jank it was, for the page's colours: the app's where it missed its deadline or
    // the recorder could not say.
    let json: serde_json::Value = serde_json::from_str(&products::frames_json(&p)).unwrap();
    let by_app: Vec<bool> = json["frames"].as_array().unwrap().iter().take(4).map(|f| f["by_app"] == true).collect();
    assert_eq!(by_app, [false, true, false, true]);
    // How far past its expected end each ended: frame 1 ended 7 ms before its 16 ms, frame 2
    // at 60 ms against 33 ms, frame 3 at 52 against 50; frame 4 never ended.
    let overruns: Vec<Option<f64>> =
        json["frames"].as_array().unwrap().iter().take(4).map(|f| f["overrun_us"].as_f64()).collect();
    assert_eq!(overruns, [Some(-7_000.0), Some(27_000.0), Some(2_000.0), None]);
    // Each layer in figures.
    let layers = products::frame_layers(&p.system);
    let figures: Vec<(&str, u64, u64, u64)> =
        layers.iter().map(|l| (l.layer.as_str(), l.frames, l.janky, l.unfinished)).collect();
    // As many frames each: by name.
    assert_eq!(figures, [(SHEET, 2, 2, 1), (MAIN, 2, 1, 0), (products::DISPLAY_LAYER, 1, 1, 0)]);
    assert_eq!(layers[1].p50_us, Some(8_000));
    assert_eq!(layers[1].max_us, Some(43_000));
    // The display frame, with its expected times and jank.
    let display = &p.system.display_frames[0];
    assert_eq!((display.pid, display.token, display.jank.as_str()), (9, 7, "SurfaceFlinger CPU Deadline Missed"));
    assert_eq!((display.duration(), display.expected_duration()), (Some(19 * MS), Some(16 * MS)));
    // The listing of one process's janky frames.
    let mut out = Vec::new();
    let query = products::FramesQuery { pid: Some(42), jank_only: true, ..Default::default() };
    products::write_frames(&p.system, &query, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.lines().count(), 4);
    assert!(
        text.lines().last().unwrap().ends_with("\t4\t51000\t\t16000\tUnknown Jank, Dropped Frame\tDropped Frame"),
        "{text}"
    );
    let other = products::FramesQuery { pid: Some(7), ..Default::default() };
    let err = products::write_frames(&p.system, &other, &mut Vec::new()).unwrap_err();
    assert_eq!(err.to_string(), "no app frame of process 7 is in the trace");
}

/// Thread 5 on CPU 1: running, preempted, running, blocked in `io_schedule` waiting for I/O,
/// woken by thread 7, running; CPU 1's clock changes once.
fn capture() -> Capture {
    let mut c = Capture::new();
    c.switch(1, 0, ("swapper/1", 0), "R", ("app", 5))
        .switch(1, 2 * MS, ("app", 5), "R+", ("other", 6))
        .switch(1, 3 * MS, ("other", 6), "S", ("app", 5))
        .event("app", 5, 5, 1, 4 * MS, "cpu_frequency", "state=1800000 cpu_id=1")
        .switch(1, 6 * MS, ("app", 5), "D", ("swapper/1", 0))
        .event(
            "swapper/1",
            0,
            0,
            1,
            6 * MS + 1000,
            "sched_blocked_reason",
            "pid=5 iowait=1 caller=io_schedule+0x12/0x40",
        )
        .switch(2, 7 * MS, ("swapper/2", 0), "R", ("waker", 7))
        .event("waker", 7, 7, 2, 8 * MS, "sched_waking", "comm=app pid=5 prio=120 target_cpu=001")
        .switch(1, 9 * MS, ("swapper/1", 0), "R", ("app", 5))
        .switch(1, 10 * MS, ("app", 5), "S", ("swapper/1", 0));
    c
}

#[test]
fn thread_states_read_alike_from_text_and_from_full_and_compact_scheduling() {
    let states = |p: &Profile| -> Vec<StateFacts> {
        let t = p.stacks().threads.iter().find(|t| t.tid == 5).unwrap();
        t.states
            .spans(0, u64::MAX)
            .map(|s| {
                let e = s.entry;
                let blocked = e.blocked.map(|f| p.system.blocked_functions[f as usize].clone());
                (e.start / 1000, e.state, e.cpu, e.waker, blocked, e.io_wait)
            })
            .collect()
    };
    let text = kept(&capture().text());
    let full = kept(&Trace::of(&from_capture(&capture(), FromCapture::default())).bytes);
    let compact =
        kept(&Trace::of(&from_capture(&capture(), FromCapture { compact_sched: true, events_per_bundle: 3 })).bytes);
    let expected = states(&text);
    assert_eq!(expected.len(), 6);
    assert_eq!(expected[3], (6_000, SchedState::Uninterruptible, None, None, Some("io_schedule".to_owned()), true));
    assert_eq!(expected[4].3, Some(7), "woken by the thread that wrote sched_waking");
    assert_eq!(states(&full), expected);
    assert_eq!(states(&compact), expected);
    for p in [&text, &full, &compact] {
        let freq = p.system.counters.iter().find(|c| c.name == "CPU 1 frequency").unwrap();
        assert_eq!((freq.last, freq.series.len()), (1_800_000, 1));
    }
}

/// Each layer's figures worked out by hand, and each frame of the frames view pointing at
/// its own layer where two processes have layers of one name.
#[test]
fn layer_figures_and_each_frames_layer_are_its_own() {
    const MAIN: &str = "com.example/com.example.MainActivity#0";
    const SHEET: &str = "com.example/BottomSheet#1";
    let mut packets: Vec<Message> = Vec::new();
    let mut cookie = 0;
    let mut add = |pid: u32, token: u64, layer: &'static str, jank_bits: u64, start: u64, dur: u64| {
        cookie += 1;
        let f = SurfaceFrame {
            cookie,
            token,
            display_token: token + 1000,
            pid,
            layer,
            jank: jank_bits,
            present: 1,
            prediction: 1,
        };
        packets.extend(app_frame(&f, (start, start + 16 * MS), (start, Some(start + dur))));
    };
    // Process 42's main layer: five frames of 4, 8, 12, 16 and 20 ms.
    let main_janks = [
        jank::NONE,
        jank::APP_DEADLINE_MISSED | jank::BUFFER_STUFFING,
        jank::APP_DEADLINE_MISSED,
        jank::BUFFER_STUFFING | jank::DROPPED,
        jank::NONE,
    ];
    for (i, bits) in main_janks.into_iter().enumerate() {
        let i = i as u64;
        add(42, 1 + i, MAIN, bits, i * 100 * MS, (4 + 4 * i) * MS);
    }
    // Another process with a layer of the same name, three frames; and 42's sheet, two.
    for i in 0..3 {
        add(43, 10 + i, MAIN, jank::NONE, (1000 + i * 100) * MS, 5 * MS);
    }
    for i in 0..2 {
        add(42, 20 + i, SHEET, jank::NONE, (2000 + i * 100) * MS, 6 * MS);
    }
    packets.push(display_frame(0, 900, 30, 9, None));
    packets.push(frame_end(16 * MS, 900));
    packets.push(display_frame(MS, 900, 30, 9, Some((jank::NONE, 1))));
    packets.push(frame_end(15 * MS, 901));
    let p = kept(&Trace::of(&packets).bytes);
    let layers = products::frame_layers(&p.system);
    let order: Vec<(u32, &str, u64)> = layers.iter().map(|l| (l.pid, l.layer.as_str(), l.frames)).collect();
    assert_eq!(order, [(42, MAIN, 5), (43, MAIN, 3), (42, SHEET, 2), (9, products::DISPLAY_LAYER, 1)]);
    // Nearest rank of five durations: p50 is the 3rd (ceil 2.5), p90 and p99 the 5th.
    let main = &layers[0];
    assert_eq!(
        (main.p50_us, main.p90_us, main.p99_us, main.max_us),
        (Some(12_000), Some(20_000), Some(20_000), Some(20_000))
    );
    // Each type counted once per frame that has it: most first, then by name.
    let types: Vec<(&str, u64)> = main.jank_types.iter().map(|(k, n)| (k.as_str(), *n)).collect();
    assert_eq!(types, [("App Deadline Missed", 2), ("Buffer Stuffing", 2), ("Dropped Frame", 1)]);
    assert_eq!(main.janky, 3);
    // Every frame's `layer` is the index of its own process's layer of its name.
    let json: serde_json::Value = serde_json::from_str(&products::frames_json(&p)).unwrap();
    let mut by_token: Vec<(i64, u64)> = json["frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["token"].as_i64().unwrap(), f["layer"].as_u64().expect("every frame has a layer")))
        .collect();
    by_token.sort_unstable();
    let expected: Vec<(i64, u64)> = (1..=5)
        .map(|t| (t, 0))
        .chain((10..13).map(|t| (t, 1)))
        .chain((20..22).map(|t| (t, 2)))
        .chain([(30, 3)])
        .collect();
    assert_eq!(by_token, expected);
}

#[test]
fn display_frames_asked_of_a_trace_without_them_are_refused() {
    let packets = app_frame(&frame(10, 1, "layer", jank::NONE, 1), (0, 16 * MS), (0, Some(8 * MS)));
    let p = kept(&Trace::of(&packets).bytes);
    let query = products::FramesQuery { display: true, ..Default::default() };
    let err = products::write_frames(&p.system, &query, &mut Vec::new()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "this trace has no display frames (the compositor's frames come only with a frame timeline)"
    );
    let mut out = Vec::new();
    products::write_frames(&p.system, &products::FramesQuery::default(), &mut out).unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap().lines().nth(1),
        Some("42\tlayer\t1\t0\t8000\t16000\tNone\tOn-time Present")
    );
}
