//! The frame and heap sinks' own rules: what two parts of a reading add up to, and the
//! call-stack limit on heap stacks.

use super::tests::spec_of;
use super::*;
use crate::profile::app_frames::AppFrame;
use crate::profile::clock::{ClockSet, PerClock};
use crate::profile::heap::HeapRow;
use crate::profile::source::SourceKind;

fn row(stack: u32, allocated: u64) -> HeapRow {
    HeapRow { stack, allocated, freed: 0, allocations: 1, frees: 0 }
}

#[test]
fn frames_renames_and_cut_names_of_two_parts_add_up() {
    let options = Options { max_name_bytes: 8, ..Options::default() };
    let mut earlier = ProfileBuilder::new(&options);
    let outer = earlier.frames.add_frame(1, Some(FrameInfo::named("outer frame".into())));
    earlier.frames.rename_class("a.a".into(), "First".into(), Vec::new());
    let thread = earlier.stacks.add_thread(1, Some("t".into()));
    earlier.stacks.enter(thread, outer, PerClock::new(0, 0));
    let mut later = earlier.continuing();
    assert_eq!(later.frames.slot_ids(), [1], "the later part names the earlier one's frames");
    let inner = later.frames.add_frame(2, Some(FrameInfo::named("inner frame".into())));
    later.frames.rename_class("a.b".into(), "Second".into(), Vec::new());
    later.stacks.add_thread(2, Some("a thread named at length".into()));
    let frame = super::merge_tests::app_frame(1);
    later.system.app_frame(AppFrame { layer: "a layer named at length".into(), ..frame });
    later.stacks.enter(thread, inner, PerClock::new(1, 1));
    later.stacks.exit(thread, inner, PerClock::new(2, 2));
    later.stacks.exit(thread, outer, PerClock::new(3, 3));
    let merged = earlier.merge(later).expect("no heap dumps");
    assert_eq!(merged.frames.slot_ids(), [1, 2]);
    let profile = merged.finish(spec_of(SourceKind::Calls, ClockSet::Dual));
    assert_eq!(
        profile.facts.repairs.long_names, 4,
        "a frame's name cut in each part, a thread's and a layer's in the later"
    );
    let names: Vec<&str> = profile.frames.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["outer\u{2026}", "inner\u{2026}"]);
    let renamed: Vec<&str> = profile.renames.iter().map(|r| r.original.as_str()).collect();
    assert_eq!(renamed, ["First", "Second"]);
}

#[test]
fn heap_stacks_count_against_the_call_stack_limit() {
    let mut b = ProfileBuilder::new(&Options { max_call_stacks: 3, ..Options::default() });
    let frame = b.frames.add_frame(1, None);
    assert_eq!(b.heap.stack(&[frame, frame]), 0);
    assert_eq!(b.heap.stack(&[frame]), 1, "the last frame of the limit");
    assert!(b.limit_error().is_none());
    assert_eq!(b.heap.stack(&[frame]), 0, "beyond the limit");
    let error = b.limit_error().expect("the call-stack limit was reached");
    assert!(error.to_string().contains("more than 3 unique call stacks"), "{error}");
}

#[test]
fn a_trace_of_heap_dumps_alone_spans_its_dumps() {
    let mut b = ProfileBuilder::new(&Options::default());
    let frame = b.frames.add_frame(1, Some(FrameInfo::named("alloc".into())));
    let stack = b.heap.stack(&[frame]);
    b.heap.dump(&mut b.frames, 9, "libc.malloc", 400, vec![row(stack, 64)]);
    b.heap.dump(&mut b.frames, 9, "libc.malloc", 250, vec![row(stack, 32)]);
    let profile = b.finish(spec_of(SourceKind::Calls, ClockSet::Wall));
    assert_eq!((profile.system.timeline.start, profile.system.timeline.end), (250, 400));
    let heap = profile.heap.as_ref().expect("dumps");
    let times: Vec<u64> = heap.processes[0].heaps[0].dumps.iter().map(|d| d.time).collect();
    assert_eq!(times, [250, 400], "in time order");
}

#[test]
fn heap_dumps_of_one_part_merge_and_of_both_are_refused() {
    // A heap's name longer than the limit: it and its frame's name are cut.
    let with_dump = |b: &mut ProfileBuilder, time: u64| {
        let frame = b.frames.add_frame(time, Some(FrameInfo::named(format!("alloc {time}"))));
        let stack = b.heap.stack(&[frame]);
        b.heap.dump(&mut b.frames, 9, "a heap with a long name", time, vec![row(stack, 8)]);
    };
    let dumps = |b: ProfileBuilder| -> (Vec<u64>, u64) {
        let profile = b.finish(spec_of(SourceKind::Calls, ClockSet::Wall));
        let heap = profile.heap.expect("dumps");
        (heap.processes[0].heaps[0].dumps.iter().map(|d| d.time).collect(), profile.facts.repairs.long_names)
    };
    for (in_earlier, in_later) in [(true, false), (false, true), (true, true)] {
        let mut earlier = ProfileBuilder::new(&Options { max_name_bytes: 12, ..Options::default() });
        if in_earlier {
            with_dump(&mut earlier, 100);
        }
        let mut later = earlier.continuing();
        if in_later {
            with_dump(&mut later, 200);
        }
        match (in_earlier, in_later) {
            (true, true) => assert!(earlier.merge(later).is_err(), "dumps of both parts"),
            _ => {
                let merged = earlier.merge(later).expect("dumps of one part");
                assert_eq!(dumps(merged), (vec![if in_earlier { 100 } else { 200 }], 2));
            }
        }
    }
}

#[test]
fn the_call_stacks_of_two_parts_count_together_against_the_limit() {
    // A thread of the earlier part and one made in the later part, which nests `deeper`
    // frames: 2 + 1 + `deeper` unique stacks, against a limit of 4.
    let read = |deeper: u64| {
        let mut earlier = ProfileBuilder::new(&Options { max_call_stacks: 4, ..Options::default() });
        let frames: Vec<u32> = (0..6).map(|id| earlier.frames.add_frame(id, None)).collect();
        let first = earlier.stacks.add_thread(1, None);
        earlier.stacks.enter(first, frames[0], PerClock::new(0, 0));
        let mut later = earlier.continuing();
        later.stacks.enter(first, frames[1], PerClock::new(1, 1));
        let second = later.stacks.add_thread(2, None);
        for frame in 2..3 + deeper {
            later.stacks.enter(second, frames[frame as usize], PerClock::new(frame, frame));
        }
        earlier.merge(later).expect("no heap dumps")
    };
    let mut below = read(0);
    assert!(below.limit_error().is_none(), "3 stacks of 4");
    below.stacks.enter(0, 5, PerClock::new(9, 9));
    assert!(below.limit_error().is_none(), "the fourth, read after the merge");
    below.stacks.enter(0, 4, PerClock::new(9, 9));
    assert!(below.limit_error().is_some(), "a fifth, read after the merge");
    assert!(read(1).limit_error().is_none(), "4 stacks of 4");
    assert!(read(2).limit_error().is_some(), "5 stacks of 4, read in two parts");
    // The earlier part reached the limit itself (a frame from before tracing had no room)
    // with no more stacks than the limit: the merge keeps it reached.
    let mut earlier = ProfileBuilder::new(&Options { max_call_stacks: 1, ..Options::default() });
    let thread = earlier.stacks.add_thread(1, None);
    earlier.stacks.enter(thread, 0, PerClock::new(0, 0));
    earlier.stacks.exit(thread, 0, PerClock::new(1, 1));
    earlier.stacks.exit(thread, 1, PerClock::new(2, 2));
    assert!(earlier.limit_error().is_some());
    let later = earlier.continuing();
    assert!(earlier.merge(later).expect("no heap dumps").limit_error().is_some(), "reached before the split");
    let profile = read(0).finish(spec_of(SourceKind::Calls, ClockSet::Dual));
    let tids: Vec<u32> = profile.stacks().threads.iter().map(|t| t.tid).collect();
    assert_eq!(tids, [1, 2], "the later part's new thread is kept");
}
