//! Every corpus file, damaged in fixed, seeded ways: cut at many offsets, bytes flipped,
//! header bytes overwritten, garbage appended. Each case must end, within a time bound, in
//! an error or a profile whose products work, and a cut-short trace must never report
//! more than the whole one did; where the format can tell it was cut (ART, gzip, zlib
//! chunks), the profile says so (`repairs.truncated`).

use droidflame_core::products::{self, FlameOptions, FoldedOptions, GraphScope};
use droidflame_core::Analysis;
use droidflame_core::{analyze, Profile};
use droidflame_testkit::corpus_dir;
use droidflame_testkit::scenario::Rng;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Duration;

/// No single case may take longer. In the test build the largest file takes 0.3 s
/// whole; before frame names were made once per product, a damaged gzip file whose
/// garbage held 5,180 threads took 10 to 41 s here.
const CASE_BOUND: Duration = Duration::from_secs(10);

fn corpus_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in ["", "atrace", "perfetto", "simpleperf"].map(|d| corpus_dir().join(d)) {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_file() && path.extension().is_none_or(|e| e != "md") {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(files.len() >= 30, "the corpus is at {}", corpus_dir().display());
    files
}

/// Analyses and runs every product, on a thread watched by a timer.
fn exercise(name: &str, case: &str, bytes: Vec<u8>) -> Option<Analysis> {
    let (done, wait) = mpsc::channel();
    std::thread::spawn(move || {
        let result = analyze(&bytes).ok();
        if let Some(profile) = &result {
            products::summary_json(profile);
            products::frame_table(profile);
            products::folded(profile, &FoldedOptions::default()).unwrap();
            if profile.records < 50_000 {
                products::flame_svg(profile, GraphScope::AllThreads, &FlameOptions::default()).unwrap();
            }
        }
        let _ = done.send(result);
    });
    match wait.recv_timeout(CASE_BOUND) {
        Ok(result) => result,
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("{name} {case}: no result within {CASE_BOUND:?}"),
        Err(mpsc::RecvTimeoutError::Disconnected) => panic!("{name} {case}: panicked"),
    }
}

/// Whether a system trace's frames are its threads' scheduler states (it has no slices).
fn draws_states(p: &Profile) -> bool {
    p.warnings.iter().any(|w| w.contains("scheduler states"))
}

/// Whether a cut in the middle of this file must show up as `repairs.truncated`: binary
/// method traces know their length (a record count, a closing summary), simpleperf files
/// end with a marker, compressed data knows its end. Plain text can end after any line.
fn cut_is_detectable(bytes: &[u8], profile: &Profile) -> bool {
    ["art", "simpleperf"].contains(&profile.format.family)
        || bytes.starts_with(&[0x1F, 0x8B])
        || profile.format.layout == "ctrace"
}

#[test]
fn every_corpus_file_cut_short() {
    for path in corpus_files() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).unwrap();
        let Some(whole) = exercise(&name, "whole", bytes.clone()) else { continue };
        // The first bytes one by one (headers), then cuts spread over the file.
        let mut cuts: Vec<usize> = (0..64.min(bytes.len())).collect();
        cuts.extend((1..24).map(|k| bytes.len() * k / 24));
        cuts.extend([bytes.len() - 1, bytes.len().saturating_sub(7)]);
        for cut in cuts {
            let Some(p) = exercise(&name, &format!("cut at {cut}"), bytes[..cut].to_vec()) else { continue };
            // A system trace cut before its first slice draws its threads' scheduler
            // states instead, which the whole one does not.
            let states_instead = draws_states(&p) && !draws_states(&whole);
            assert!(
                p.records <= whole.records || states_instead,
                "{name} cut at {cut}: {} records of {}",
                p.records,
                whole.records
            );
            if p.records < whole.records && cut_is_detectable(&bytes, &whole) {
                assert!(
                    p.repairs.truncated,
                    "{name} cut at {cut}: {} of {} records, not marked",
                    p.records, whole.records
                );
            }
        }
    }
}

#[test]
fn every_corpus_file_with_bytes_flipped() {
    let mut rng = Rng::new(6);
    for path in corpus_files() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).unwrap();
        for round in 0..12 {
            let mut damaged = bytes.clone();
            // Half the rounds hit the first kilobyte, where headers and keys are.
            let span = if round % 2 == 0 { damaged.len().min(1024) } else { damaged.len() };
            for _ in 0..1 + rng.below(8) {
                let at = rng.below(span as u64) as usize;
                damaged[at] = rng.next_u64() as u8;
            }
            exercise(&name, &format!("flip round {round}"), damaged);
        }
    }
}

#[test]
fn every_corpus_file_with_header_bytes_at_extremes_or_garbage_appended() {
    let mut rng = Rng::new(8);
    for path in corpus_files() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).unwrap();
        // The binary header of a method trace, else the first line of text.
        let header = bytes.windows(4).position(|w| w == b"SLOW").unwrap_or(0);
        for offset in (4..32).step_by(3) {
            for value in [0x00, 0xFF, 0x80] {
                let mut damaged = bytes.clone();
                if let Some(b) = damaged.get_mut(header + offset) {
                    *b = value;
                }
                exercise(&name, &format!("header byte {offset} = {value:#x}"), damaged);
            }
        }
        for len in [1, 13, 4096] {
            let mut damaged = bytes.clone();
            damaged.extend((0..len).map(|_| rng.next_u64() as u8));
            exercise(&name, &format!("{len} bytes of garbage appended"), damaged);
        }
    }
}
