//! Reading in pieces against reading once: what a profile says, node by node and call by
//! call, and a check that an input says the same read in 2, 3 and 7 pieces as read once.
//! Shared by the core's tests and the fuzzer.

use droidflame_core::products::{self, FoldedOptions};
use droidflame_core::{analyze_in_pieces, Analysis, Options};
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
            let got = said(&analysis);
            if got != *want {
                let line = want.lines().zip(got.lines()).position(|(a, b)| a != b);
                let at = line.map(|l| (want.lines().nth(l), got.lines().nth(l)));
                panic!("{what} in {pieces} pieces ({n} read) differs from reading once: first at {at:?}");
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
