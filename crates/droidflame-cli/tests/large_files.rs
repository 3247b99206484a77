//! A file large enough to be read on every core (a regular method trace of 16 MiB or more,
//! read at offsets by each piece) gives the CLI's outputs that reading it once gives.

use droidflame_core::products::{self, FoldedOptions};
use droidflame_core::{analyze_in_pieces, Options, PIECES_FROM_BYTES};
use droidflame_testkit::large::{write_large, LargeLayout, Shape};
use std::process::Command;

#[test]
fn a_large_method_trace_reads_alike_on_every_core() {
    let mut bytes = Vec::new();
    write_large(&mut bytes, &Shape::interleaved(1_300_000), LargeLayout::Regular).unwrap();
    assert!(bytes.len() as u64 >= PIECES_FROM_BYTES, "{} bytes: large enough to split", bytes.len());
    let path = std::env::temp_dir().join(format!("droidflame-large-{}.trace", std::process::id()));
    std::fs::write(&path, &bytes).unwrap();
    let (once, used) = analyze_in_pieces(&bytes.as_slice(), Options::default(), 1).unwrap();
    assert_eq!(used, 1);
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_droidflame")).args(args).arg(&path).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(run(&["summary"]), products::summary_json(&once) + "\n");
    assert_eq!(run(&["folded"]), products::folded(&once.profile, &FoldedOptions::default()).unwrap());
    std::fs::remove_file(&path).ok();
}
