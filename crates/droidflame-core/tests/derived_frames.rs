//! App frames derived from slices where a capture has no frame timeline: written captures
//! for the doFrame/DrawFrame pairing, the measured refresh and a lost stretch, and a device
//! capture whose derived frames are its doFrame slices.

use droidflame_core::products::{self, FramesQuery};
use droidflame_core::{analyze, analyze_with, Options};
use droidflame_testkit::atrace::Capture;
use droidflame_testkit::corpus_file;

const MS: u64 = 1_000_000;

/// An app (pid 10) draws three frames on a 90 Hz display: the second's RenderThread work
/// runs past one refresh (11.1 ms).
fn capture() -> Capture {
    let mut c = Capture::new();
    // The compositor (pid 5) writes VSYNC-app once a refresh.
    for i in 0..40u64 {
        c.mark("surfaceflinger", 5, 5, i * 11_111_111, &format!("C|5|VSYNC-app|{}", i % 2));
    }
    for (i, (start, draw_end)) in [(0u64, 9u64), (20, 35), (40, 45)].iter().enumerate() {
        c.mark("app", 10, 10, start * MS + 100, &format!("B|10|Choreographer#doFrame {}", 1000 + i));
        c.mark("app", 10, 10, start * MS + 200, "B|10|traversal");
        c.mark("app", 10, 10, start * MS + 3 * MS, "E|10");
        c.mark("app", 10, 10, start * MS + 4 * MS, "E|10");
        c.mark("RenderThread", 11, 10, start * MS + 4 * MS + 100, "B|10|DrawFrame");
        c.mark("RenderThread", 11, 10, draw_end * MS, "E|10");
    }
    c
}

#[test]
fn frames_run_from_do_frame_to_the_render_threads_draw() {
    let p = analyze(&capture().text()).unwrap();
    let frames: Vec<(i64, u64, u64, bool)> = p
        .profile
        .system
        .app_frames
        .iter()
        .map(|f| (f.token, f.start / 1000, f.duration().unwrap() / 1000, f.janky))
        .collect();
    assert_eq!(
        frames,
        [(1000, 0, 9_000, false), (1001, 20_000, 15_000, true), (1002, 40_000, 5_000, false)],
        "the deadline is one measured refresh (11.1 ms)"
    );
    // The text format writes µs: a refresh is 11,111 or 11,112 µs.
    let refresh = |f: &droidflame_core::profile::AppFrame| f.expected.map_or(0, |(s, e)| e - s);
    assert!(p.profile.system.app_frames.iter().all(|f| f.derived && (11_111_000..=11_112_000).contains(&refresh(f))));
    assert!(p
        .profile
        .facts
        .warnings
        .iter()
        .any(|w| w.text.contains("3 app frames were derived") && w.text.contains("11.1 ms (90 Hz")));
    // The listing says there is no frame timeline, and lists them on request.
    let mut out = Vec::new();
    let err = products::write_frames(&p.profile.system, &FramesQuery::default(), &mut out).unwrap_err();
    assert!(err.to_string().contains("3 app frames can be derived"), "{err}");
    let query = FramesQuery { derived: true, ..FramesQuery::default() };
    products::write_frames(&p.profile.system, &query, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.lines().nth(2).unwrap(), "10\tapp (derived from Choreographer#doFrame and RenderThread DrawFrame)\t1001\t20000\t15000\t11111\tDeadline Missed\t");
    // Display frames come only from a frame timeline, which this trace lacks.
    let display = FramesQuery { derived: true, display: true, ..FramesQuery::default() };
    let err = products::write_frames(&p.profile.system, &display, &mut Vec::new()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "this trace has no display frames (the compositor's frames come only with a frame timeline)"
    );
}

#[test]
fn without_a_refresh_counter_60_hz_is_assumed_and_said() {
    let mut c = Capture::new();
    c.mark("app", 10, 10, 0, "B|10|Choreographer#doFrame")
        .mark("app", 10, 10, 20 * MS, "E|10")
        .mark("app", 10, 10, 30 * MS, "B|10|Choreographer#doFrame")
        .mark("app", 10, 10, 40 * MS, "E|10");
    let p = analyze(&c.text()).unwrap();
    assert_eq!(p.profile.system.app_frames.iter().map(|f| f.janky).collect::<Vec<_>>(), [true, false]);
    assert!(
        p.profile.facts.warnings.iter().any(|w| w.text.contains("60 Hz assumed")),
        "{:?}",
        p.profile.facts.warnings
    );
}

/// SOURCES.md: 2019 device capture with atrace slices; each doFrame that ended is one frame
/// of its process, and a refresh measured near 60 Hz.
#[test]
fn a_device_captures_derived_frames_are_its_do_frames() {
    if !droidflame_testkit::corpus_present("derived_frames::a_device_captures_derived_frames_are_its_do_frames") {
        return;
    }
    let p = analyze_with(
        &corpus_file("perfetto/toolsbase-perflib-perfetto.trace"),
        Options { keep_calls: true, ..Options::default() },
    )
    .unwrap()
    .into_profile();
    // Every doFrame call the profile kept, that ended before the capture did.
    let mut do_frames: Vec<(u32, u64)> = Vec::new();
    for t in &p.stacks().threads {
        for (_, call) in t.calls.iter() {
            if p.frame_name(call.frame).starts_with("Choreographer#doFrame") && call.end < p.system.timeline.end {
                do_frames.push((t.pid.unwrap(), call.start));
            }
        }
    }
    do_frames.sort_unstable();
    let mut derived: Vec<(u32, u64)> = p.system.app_frames.iter().map(|f| (f.pid, f.start)).collect();
    derived.sort_unstable();
    assert_eq!(derived, do_frames);
    let period = p.system.app_frames[0].expected.map(|(s, e)| e - s).unwrap();
    assert!((16_000_000..17_000_000).contains(&period), "{period}");
}

/// The compositor (pid 5) writes `VSYNC-app` at `times` (ns); the app (pid 10) draws one
/// frame of 11 ms at 1 s.
fn refreshes_at(times: &[u64]) -> Capture {
    let mut c = Capture::new();
    for (i, &ns) in times.iter().enumerate() {
        c.mark("surfaceflinger", 5, 5, ns, &format!("C|5|VSYNC-app|{}", i % 2));
    }
    c.mark("app", 10, 10, 1000 * MS, "B|10|Choreographer#doFrame 7").mark("app", 10, 10, 1011 * MS, "E|10");
    c
}

#[test]
fn the_refresh_is_measured_from_the_first_4096_writes() {
    // 4,097 writes: 2,048 gaps of 10 ms, then 2,048 of 12 ms. The first 4,096 writes have
    // 4,095 gaps, whose median (the 2,048th smallest) is 10 ms; all 4,097 would make it 12.
    let mut times = vec![0u64];
    for i in 0..4096 {
        let gap = if i < 2048 { 10 * MS } else { 12 * MS };
        times.push(times.last().unwrap() + gap);
    }
    let p = analyze(&refreshes_at(&times).text()).unwrap();
    let frame = &p.profile.system.app_frames[0];
    assert_eq!(frame.expected, Some((1000 * MS, 1010 * MS)));
    assert!(frame.janky, "11 ms is longer than a 10 ms refresh");
    assert!(
        p.profile.facts.warnings.iter().any(|w| w.text.contains("10.0 ms (100 Hz, measured")),
        "{:?}",
        p.profile.facts.warnings
    );
}

#[test]
fn pauses_are_not_refreshes() {
    // Ten gaps of 11.1 ms between eleven pauses of 50 ms, the shortest pause: the median of
    // the refreshes alone is 11.1 ms; counting the pauses it would be 50 ms.
    let mut times = vec![0u64];
    for i in 0..21u64 {
        let gap = if i % 2 == 1 { 11_100_000 } else { 50 * MS };
        times.push(times.last().unwrap() + gap);
    }
    let p = analyze(&refreshes_at(&times).text()).unwrap();
    assert_eq!(p.profile.system.app_frames[0].expected, Some((1000 * MS, 1000 * MS + 11_100_000)));
    assert!(!p.profile.system.app_frames[0].janky);
    assert!(
        p.profile.facts.warnings.iter().any(|w| w.text.contains("11.1 ms (90 Hz, measured")),
        "{:?}",
        p.profile.facts.warnings
    );
}

#[test]
fn a_do_frame_cut_by_a_lost_stretch_is_no_frame() {
    // Two dumps of the kernel's buffer, events lost between them: the doFrame open at the
    // end of the first never ends, though its thread ends a slice later, in the second.
    let mut c = Capture::new();
    c.mark("app", 10, 10, 0, "B|10|Choreographer#doFrame 1000")
        .mark("app", 10, 10, MS, "B|10|traversal")
        .mark("app", 10, 10, 2 * MS, "E|10")
        .mark("app", 10, 10, 3 * MS, "C|10|queued|1");
    c.mark("app", 10, 10, 30 * MS, "B|10|inflate")
        .mark("app", 10, 10, 31 * MS, "E|10")
        .mark("app", 10, 10, 40 * MS, "B|10|Choreographer#doFrame 1001")
        .mark("app", 10, 10, 45 * MS, "E|10");
    let p = analyze(&c.ctrace(2)).unwrap();
    assert_eq!(p.profile.system.gaps.len(), 1);
    let frames: Vec<(i64, u64, Option<u64>)> =
        p.profile.system.app_frames.iter().map(|f| (f.token, f.start, f.duration())).collect();
    assert_eq!(frames, [(1001, 40 * MS, Some(5 * MS))]);
}

#[test]
fn eight_gaps_measure_the_refresh_and_seven_do_not() {
    // Gaps of 12, 10 and six of 11 ms: their median (the fifth smallest) is 11 ms. The
    // app's frame takes exactly 11 ms, one refresh, so it is on time.
    let mut times = vec![0u64];
    for gap in [12, 10, 11, 11, 11, 11, 11, 11] {
        times.push(times.last().unwrap() + gap * MS);
    }
    let p = analyze(&refreshes_at(&times).text()).unwrap();
    let frame = &p.profile.system.app_frames[0];
    assert_eq!(frame.expected, Some((1000 * MS, 1011 * MS)));
    assert_eq!((frame.janky, frame.on_time_finish, frame.jank.as_str()), (false, true, "None"));
    assert!(
        p.profile.facts.warnings.iter().any(|w| w.text.contains("11.0 ms (91 Hz, measured")),
        "{:?}",
        p.profile.facts.warnings
    );
    // Seven gaps are too few: 60 Hz is assumed.
    times.pop();
    let p = analyze(&refreshes_at(&times).text()).unwrap();
    assert_eq!(p.profile.system.app_frames[0].expected, Some((1000 * MS, 1000 * MS + 16_666_667)));
    assert!(
        p.profile.facts.warnings.iter().any(|w| w.text.contains("60 Hz assumed")),
        "{:?}",
        p.profile.facts.warnings
    );
}

#[test]
fn a_draw_that_starts_with_the_next_do_frame_is_the_next_frames() {
    // doFrames at 0-4 ms and 20-24 ms; the RenderThread draws from 20 to 30 ms. A DrawFrame
    // of another thread of the app (5-15 ms) is no frame's.
    let mut c = Capture::new();
    c.mark("app", 10, 10, 0, "B|10|Choreographer#doFrame 1")
        .mark("app", 10, 10, 4 * MS, "E|10")
        .mark("GLThread 12", 12, 10, 5 * MS, "B|10|DrawFrame")
        .mark("GLThread 12", 12, 10, 15 * MS, "E|10")
        .mark("app", 10, 10, 20 * MS, "B|10|Choreographer#doFrame 2")
        .mark("RenderThread", 11, 10, 20 * MS, "B|10|DrawFrame")
        .mark("app", 10, 10, 24 * MS, "E|10")
        .mark("RenderThread", 11, 10, 30 * MS, "E|10");
    let p = analyze(&c.text()).unwrap();
    let frames: Vec<(i64, Option<u64>, bool)> =
        p.profile.system.app_frames.iter().map(|f| (f.token, f.duration(), f.on_time_finish)).collect();
    assert_eq!(frames, [(1, Some(4 * MS), true), (2, Some(10 * MS), true)]);
}

#[test]
fn repeated_writes_are_not_refreshes() {
    // Nine writes 11 ms apart, each written twice: eight gaps of 11 ms and nine of 0, which
    // would make the median 0.
    let times: Vec<u64> = (0..18u64).map(|i| i / 2 * 11 * MS).collect();
    let p = analyze(&refreshes_at(&times).text()).unwrap();
    assert_eq!(p.profile.system.app_frames[0].expected, Some((1000 * MS, 1011 * MS)));
    assert!(
        p.profile.facts.warnings.iter().any(|w| w.text.contains("11.0 ms (91 Hz, measured")),
        "{:?}",
        p.profile.facts.warnings
    );
}
