//! Every past fuzzer finding (findings/*.bin) ends in a profile or an error, fed whole
//! and in small chunks, with every product run on what it gives.

#[test]
fn past_fuzzer_findings_stay_fixed() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("findings");
    let mut replayed = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "bin") {
            let bytes = std::fs::read(&path).unwrap();
            // `crash-TARGET-HASH.bin`: run as its target runs its inputs.
            let name = path.file_stem().and_then(|n| n.to_str()).unwrap_or_default();
            let target = name.strip_prefix("crash-").and_then(|n| n.rsplit_once('-')).map_or("", |(t, _)| t);
            let exercise = droidflame_fuzz::targets::exercise_of(target);
            for chunk in [usize::MAX, 7, 1] {
                exercise(&bytes, chunk);
            }
            replayed += 1;
        }
    }
    println!("{replayed} findings replayed");
}
