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
            for chunk in [usize::MAX, 7, 1] {
                droidflame_fuzz::exercise(&bytes, chunk);
            }
            replayed += 1;
        }
    }
    println!("{replayed} findings replayed");
}
