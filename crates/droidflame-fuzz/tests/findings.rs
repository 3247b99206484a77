//! Every past fuzzer finding (findings/*.bin) ends in a profile or an error, fed whole
//! and in small chunks, with every product run on what it gives.

/// The findings kept in `findings/`: adding one raises this, so a replay that silently
/// finds fewer files (a moved folder, a renamed extension) fails.
const FINDINGS: usize = 20;

#[test]
fn past_fuzzer_findings_stay_fixed() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("findings");
    let targets: Vec<&str> = droidflame_fuzz::targets::all().iter().map(|t| t.name).collect();
    let mut replayed = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "bin") {
            let bytes = std::fs::read(&path).unwrap();
            // `crash-TARGET-HASH.bin`: run as its target runs its inputs.
            let name = path.file_stem().and_then(|n| n.to_str()).unwrap_or_default().to_owned();
            let target = name.strip_prefix("crash-").and_then(|n| n.rsplit_once('-')).map_or("", |(t, _)| t);
            assert!(targets.contains(&target), "{name}: no fuzz target is named {target:?} (targets: {targets:?})");
            let exercise = droidflame_fuzz::targets::exercise_of(target);
            for chunk in [usize::MAX, 7, 1] {
                exercise(&bytes, chunk);
            }
            replayed.push(name);
        }
    }
    assert_eq!(replayed.len(), FINDINGS, "findings replayed: {replayed:?}");
}
