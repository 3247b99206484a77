//! Every corpus file, damaged in fixed, seeded ways: cut at many offsets, bytes flipped,
//! header bytes overwritten, garbage appended. Each case must end, within a time bound, in
//! an error that says what is wrong or a profile whose products work; a damaged trace
//! never reports more than the whole one did unless a repair says why, and where the
//! format can tell it was cut (ART, simpleperf, gzip, zlib chunks), the profile says so
//! (`repairs.truncated`).

use droidflame_core::{Analysis, Error};
use droidflame_testkit::corpus_traces;
use droidflame_testkit::exercise::{assert_damage_told, exercise, Damage};
use droidflame_testkit::scenario::Rng;
use std::sync::mpsc;
use std::time::Duration;

/// No single case may take longer. In the test build the largest file takes 0.3 s
/// whole; before frame names were made once per product, a damaged gzip file whose
/// garbage held 5,180 threads took 10 to 41 s here.
const CASE_BOUND: Duration = Duration::from_secs(10);

/// Analyses and makes every product, on a thread watched by a timer.
fn exercised(name: &str, case: &str, bytes: Vec<u8>) -> Result<Analysis, Error> {
    let (done, wait) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = done.send(exercise(&bytes, 1 << 16));
    });
    match wait.recv_timeout(CASE_BOUND) {
        Ok(result) => result,
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("{name} {case}: no result within {CASE_BOUND:?}"),
        Err(mpsc::RecvTimeoutError::Disconnected) => panic!("{name} {case}: panicked"),
    }
}

/// A damaged copy of `bytes` (the whole file, which gave `whole`): checked as the damage
/// tests check theirs.
fn check(name: &str, case: &str, bytes: &[u8], whole: &Analysis, damage: Damage, damaged: Vec<u8>) {
    let result = exercised(name, case, damaged);
    assert_damage_told(&format!("{name} {case}"), bytes, whole, damage, &result);
}

#[test]
fn every_corpus_file_cut_short() {
    if !droidflame_testkit::corpus_present("corpus_damage::every_corpus_file_cut_short") {
        return;
    }
    for path in corpus_traces() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).unwrap();
        let Ok(whole) = exercised(&name, "whole", bytes.clone()) else { continue };
        // The first bytes one by one (headers), then cuts spread over the file.
        let mut cuts: Vec<usize> = (0..64.min(bytes.len())).collect();
        cuts.extend((1..24).map(|k| bytes.len() * k / 24));
        cuts.extend([bytes.len() - 1, bytes.len().saturating_sub(7)]);
        for cut in cuts {
            check(&name, &format!("cut at {cut}"), &bytes, &whole, Damage::CutAt(cut), bytes[..cut].to_vec());
        }
    }
}

#[test]
fn every_corpus_file_with_bytes_flipped() {
    if !droidflame_testkit::corpus_present("corpus_damage::every_corpus_file_with_bytes_flipped") {
        return;
    }
    let mut rng = Rng::new(6);
    for path in corpus_traces() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).unwrap();
        let Ok(whole) = exercised(&name, "whole", bytes.clone()) else { continue };
        for round in 0..12 {
            let mut damaged = bytes.clone();
            // Half the rounds hit the first kilobyte, where headers and keys are.
            let span = if round % 2 == 0 { damaged.len().min(1024) } else { damaged.len() };
            for _ in 0..1 + rng.below(8) {
                let at = rng.below(span as u64) as usize;
                damaged[at] = rng.next_u64() as u8;
            }
            check(&name, &format!("flip round {round}"), &bytes, &whole, Damage::Changed, damaged);
        }
    }
}

#[test]
fn every_corpus_file_with_header_bytes_at_extremes_or_garbage_appended() {
    if !droidflame_testkit::corpus_present(
        "corpus_damage::every_corpus_file_with_header_bytes_at_extremes_or_garbage_appended",
    ) {
        return;
    }
    let mut rng = Rng::new(8);
    for path in corpus_traces() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).unwrap();
        let Ok(whole) = exercised(&name, "whole", bytes.clone()) else { continue };
        // The binary header of a method trace, else the first line of text.
        let header = bytes.windows(4).position(|w| w == b"SLOW").unwrap_or(0);
        for offset in (4..32).step_by(3) {
            for value in [0x00, 0xFF, 0x80] {
                let mut damaged = bytes.clone();
                if let Some(b) = damaged.get_mut(header + offset) {
                    *b = value;
                }
                check(&name, &format!("header byte {offset} = {value:#x}"), &bytes, &whole, Damage::Changed, damaged);
            }
        }
        for len in [1, 13, 4096] {
            let mut damaged = bytes.clone();
            damaged.extend((0..len).map(|_| rng.next_u64() as u8));
            check(&name, &format!("{len} bytes of garbage appended"), &bytes, &whole, Damage::Changed, damaged);
        }
    }
}
