//! Reading in pieces against reading once: what a profile says, node by node and call by
//! call, and a check that an input says the same read in 2, 3 and 7 pieces as read once.
//! Shared by the core's tests and the fuzzer.

use droidflame_core::products::{self, FoldedOptions};
use droidflame_core::{analyze_in_pieces, Analysis, Options, Pieces};
use std::fmt::Write;

/// Everything a profile says, node by node.
pub fn said(analysis: &Analysis) -> String {
    let p = &analysis.profile;
    let mut out = products::summary_json(analysis);
    out += &products::folded(p, &FoldedOptions::default()).unwrap_or_else(|e| e.to_string());
    out += &products::methods_json(p, None).unwrap_or_else(|e| e.to_string());
    writeln!(out, "{:?}\n{:?}", p.facts, p.frames).unwrap();
    // The timeline beside the stacks (states, counters, app frames, CPUs), every source's
    // stacks and the heap.
    writeln!(out, "{:?}\n{:?}", p.system, p.heap).unwrap();
    for source in p.sources() {
        let mut other = p.clone();
        other.select_source(source.kind).unwrap();
        let stacks = products::folded(&other, &FoldedOptions::default()).unwrap_or_else(|e| e.to_string());
        writeln!(out, "source {:?}: {stacks}", source.kind).unwrap();
    }
    for t in &p.stacks().threads {
        writeln!(out, "thread {} {:?} {} {:?} {:?} {:?}", t.tid, t.name, t.records, t.first, t.last, t.pid).unwrap();
        for (i, n) in t.tree.nodes().iter().enumerate() {
            let links = (n.parent, n.frame, n.first_child, n.next_sibling);
            writeln!(out, "{i} {links:?} {} {:?} {:?}", n.calls, n.incl, n.self_time).unwrap();
        }
        for (depth, call) in t.calls.iter() {
            writeln!(out, "call {depth} {call:?}").unwrap();
        }
    }
    out
}

/// Reads `bytes` once and in 2, 3 and 7 pieces; each must say the same. Returns the pieces
/// each reading used.
pub fn same_in_pieces(bytes: &[u8], options: &Options, what: &str) -> Vec<usize> {
    [2, 3, 7].into_iter().map(|pieces| same_in(bytes, options, pieces, what)).collect()
}

/// Reads `bytes` once and in `pieces` pieces, which must say the same (or fail alike);
/// returns the pieces it was read in.
pub fn same_in(bytes: &[u8], options: &Options, pieces: usize, what: &str) -> usize {
    let once = analyze_in_pieces(&bytes, options.clone(), 1).map(|(a, used)| (said(&a), used));
    let once = once.map_err(|e| e.to_string());
    assert!(once.as_ref().is_err() || once.as_ref().unwrap().1 == 1, "{what}: read once in one piece");
    let read = analyze_in_pieces(&bytes, options.clone(), pieces).map_err(|e| e.to_string());
    match (&once, read) {
        (Ok((want, _)), Ok((analysis, n))) => {
            same_said(want, &said(&analysis), &format!("{what} in {pieces} pieces ({n} read)"));
            match apart(bytes, options, pieces) {
                Some(apart) => {
                    let apart = apart.unwrap_or_else(|e| panic!("{what} in {pieces} pieces apart: {e}"));
                    same_said(want, &said(&apart), &format!("{what} in {pieces} pieces read apart"));
                }
                // A format read in two stages on threads has no pieces to read apart.
                None => assert!(
                    n == 1 || Pieces::cut(&bytes, options.clone(), pieces).is_none(),
                    "{what}: read in pieces on threads, but apart the join declined"
                ),
            }
            n
        }
        (Err(want), Err(got)) => {
            assert_eq!(&got, want, "{what} in {pieces} pieces: the same error");
            1
        }
        (once, read) => panic!("{what} in {pieces} pieces: {:?} read once, {:?} in pieces", once.is_ok(), read.is_ok()),
    }
}

fn same_said(want: &str, got: &str, what: &str) {
    if got != want {
        let line = want.lines().zip(got.lines()).position(|(a, b)| a != b);
        let at = line.map(|l| (want.lines().nth(l), got.lines().nth(l)));
        panic!("{what} differs from reading once: first at {at:?}");
    }
}

/// Reads `bytes` in `pieces` pieces as the page's workers do: each later piece on its own,
/// in small steps, sent as bytes and joined with the first; `None` where it is not read in
/// pieces or the join declines (then read once).
pub fn apart(bytes: &[u8], options: &Options, pieces: usize) -> Option<droidflame_core::Result<Analysis>> {
    let mut joined = Pieces::cut(&bytes, options.clone(), pieces)?;
    let count = joined.count();
    // Read in small steps: where the steps fall must not matter.
    let read = |at: usize, step: u64| -> droidflame_core::Result<_> {
        let elsewhere = Pieces::cut(&bytes, options.clone(), pieces).expect("cut alike every time");
        assert_eq!(elsewhere.count(), count, "cut alike every time");
        let mut reader = elsewhere.reader(at)?;
        while !reader.step(&bytes, step)? {}
        elsewhere.to_bytes(reader)
    };
    for at in 1..count {
        match read(at, 1 + at as u64 * 97) {
            Ok(Some(sent)) => {
                if let Err(e) = joined.add_bytes(at, &sent) {
                    return Some(Err(e));
                }
            }
            Ok(None) => return None,
            Err(e) => return Some(Err(e)),
        }
    }
    // The first piece one step of the format's own at a time, each ending where
    // `next_end` said it would (as the page hands the file over in blocks).
    let mut first = joined.reader(0).ok()?;
    let (from, end) = joined.range(0).expect("a first piece");
    assert_eq!(first.position(), from, "the first piece starts at its range");
    loop {
        let to = first.next_end();
        match first.step(&bytes, 1) {
            Ok(_) => assert_eq!(first.position(), to, "a step ends where next_end said"),
            Err(e) => return Some(Err(e)),
        }
        if first.done() {
            assert_eq!(first.position(), end, "the first piece ends at its range");
            break;
        }
    }
    joined.add(first).ok()?;
    joined.join(&bytes).transpose()
}
