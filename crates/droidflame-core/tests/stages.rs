//! A Perfetto capture read with its front (cutting packets out and decoding them) on a
//! thread of its own, ahead of its back (giving them meaning), says what reading once says:
//! the summary, folded stacks of every source, methods, facts, frames, every call-tree
//! node, the system timeline and the heap (`testkit::pieces::said`). The captures here are
//! several of the front's 1 MiB batches long, so packets straddle the batches; damage,
//! limits and a source that fails mid-way end alike.

use droidflame_core::{analyze_in_pieces, Options, ReadAt};
use droidflame_testkit::large::{write_large, LargeLayout, Shape};
use droidflame_testkit::perfetto::Trace;
use droidflame_testkit::pieces::{said, same_in};
use std::io;

/// A written capture of `records` records in `layout`.
fn capture(records: u64, layout: LargeLayout) -> Vec<u8> {
    let mut bytes = Vec::new();
    write_large(&mut bytes, &Shape::app_start(records), layout).unwrap();
    bytes
}

#[test]
fn written_captures_read_the_same_with_the_front_ahead() {
    for (layout, records) in [
        (LargeLayout::Perfetto, 200_000),
        (LargeLayout::PerfettoSched, 100_000),
        (LargeLayout::PerfettoSamples, 60_000),
    ] {
        let bytes = capture(records, layout);
        assert!(bytes.len() > 3 << 20, "{layout:?}: {} bytes, fewer than three batches", bytes.len());
        let what = format!("{layout:?}");
        assert_eq!(same_in(&bytes, &Options::default(), 2, &what), 2, "{what}: read in two stages");
        let keep = Options { keep_calls: true, ..Options::default() };
        assert_eq!(same_in(&bytes, &keep, 3, &what), 2, "{what}, calls kept: read in two stages");
    }
}

#[test]
fn compressed_packets_read_the_same_with_the_front_ahead() {
    let plain = Trace { bytes: capture(100_000, LargeLayout::PerfettoSched) };
    for (what, trace) in [("zlib", plain.compressed()), ("zstd", plain.zstd_compressed(256 << 10, 2))] {
        assert_eq!(same_in(&trace.bytes, &Options::default(), 2, what), 2, "{what}");
    }
    // Past the decompressed-size limit: the same error either way.
    let small = Options { max_decompressed_bytes: 1 << 20, ..Options::default() };
    let (Err(once), Err(staged)) = (
        analyze_in_pieces(&plain.compressed().bytes.as_slice(), small.clone(), 1),
        analyze_in_pieces(&plain.compressed().bytes.as_slice(), small, 2),
    ) else {
        panic!("a capture over the decompressed-size limit is read");
    };
    assert!(once.to_string().contains("decompressed-size limit"), "{once}");
    assert_eq!(staged, once);
}

#[test]
fn damaged_captures_read_the_same_with_the_front_ahead() {
    let bytes = capture(200_000, LargeLayout::Perfetto);
    // Cut inside a packet past the first batches.
    let cut = &bytes[..bytes.len() * 2 / 3];
    assert_eq!(same_in(cut, &Options::default(), 2, "cut short"), 2);
    let (analysis, _) = analyze_in_pieces(&cut, Options::default(), 2).unwrap();
    assert!(analysis.profile.facts.repairs.truncated, "the cut is noted");
    // A packet whose bytes are no packet, and framing broken further on.
    let mut damaged = bytes.clone();
    let (packet, broken) = (next_packet(&bytes, bytes.len() / 2), next_packet(&bytes, bytes.len() * 3 / 4));
    damaged[packet + 8..packet + 20].fill(0xFF);
    damaged[broken] = 0x0F;
    assert_eq!(same_in(&damaged, &Options::default(), 2, "damaged"), 2);
    let (analysis, _) = analyze_in_pieces(&damaged.as_slice(), Options::default(), 2).unwrap();
    let repairs = &analysis.profile.facts.repairs;
    assert_eq!(repairs.damaged_parts, 2, "the damaged packet and the broken framing");
}

/// The offset of the first packet at or after `from`, found by walking the framing.
fn next_packet(bytes: &[u8], from: usize) -> usize {
    let mut at = 0;
    while at < from {
        let (len, n) = varint(&bytes[at + 1..]);
        at += 1 + n + len;
    }
    at
}

fn varint(bytes: &[u8]) -> (usize, usize) {
    let mut value = 0;
    for (i, &b) in bytes.iter().enumerate() {
        value |= usize::from(b & 0x7F) << (7 * i);
        if b < 0x80 {
            return (value, i + 1);
        }
    }
    unreachable!("a whole varint")
}

#[test]
fn a_limit_reached_stops_both_ways_alike() {
    let bytes = capture(100_000, LargeLayout::PerfettoSched);
    // In memory, reading once pushes the input whole; from a file, a mebibyte at a time:
    // calls are let go, and limits checked, at the same points both ways.
    let file = Failing { bytes: &bytes, fails_at: u64::MAX };
    for options in [
        Options { max_threads: 5, ..Options::default() },
        Options { max_call_stacks: 500, ..Options::default() },
        Options { keep_calls: true, max_calls: 1000, ..Options::default() },
    ] {
        for (source, what) in [(&bytes.as_slice() as &dyn ReadAt, "in memory"), (&file, "from a file")] {
            let once = analyze_in_pieces(source, options.clone(), 1).map(|(a, _)| said(&a));
            let staged = analyze_in_pieces(source, options.clone(), 2).map(|(a, _)| said(&a));
            assert_eq!(staged, once, "{options:?}, {what}");
        }
    }
}

/// Past the sorter's window of a million events, slices end (and calls are kept) while the
/// input is read: where reading once lets calls go, reading in two stages must too.
#[test]
fn calls_let_go_while_reading_go_alike() {
    let bytes = capture(600_000, LargeLayout::PerfettoSched);
    let file = Failing { bytes: &bytes, fails_at: u64::MAX };
    let keep = Options { keep_calls: true, max_calls: 20_000, ..Options::default() };
    for (source, what) in [(&bytes.as_slice() as &dyn ReadAt, "in memory"), (&file, "from a file")] {
        let (once, _) = analyze_in_pieces(source, keep.clone(), 1).unwrap();
        let (staged, threads) = analyze_in_pieces(source, keep.clone(), 2).unwrap();
        assert_eq!(threads, 2);
        assert!(once.profile.stacks().shortest_call > 0, "{what}: calls were let go");
        assert_eq!(said(&staged), said(&once), "{what}");
    }
}

/// The bytes of a file that fails to read past `fails_at`, as a disk that failed.
struct Failing<'a> {
    bytes: &'a [u8],
    fails_at: u64,
}

impl ReadAt for Failing<'_> {
    fn size(&self) -> u64 {
        self.bytes.len() as u64
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<()> {
        if offset + buf.len() as u64 > self.fails_at {
            return Err(io::Error::other("the disk failed"));
        }
        self.bytes.read_at(offset, buf)
    }
}

#[test]
fn an_input_that_fails_to_read_fails_both_ways_alike() {
    let bytes = capture(200_000, LargeLayout::Perfetto);
    let failing = Failing { bytes: &bytes, fails_at: bytes.len() as u64 / 2 };
    let once = analyze_in_pieces(&failing, Options::default(), 1).map(|_| ()).unwrap_err();
    let staged = analyze_in_pieces(&failing, Options::default(), 2).map(|_| ()).unwrap_err();
    assert!(once.to_string().contains("the disk failed"), "{once}");
    assert_eq!(staged, once);
}
