//! The mapping target: mutated mapping files applied to one obfuscated trace.

use droidflame_core::mapping::MappingReader;
use droidflame_core::products::{self, FlameOptions, FoldedOptions, GraphScope};
use droidflame_core::{analyze, Analysis};
use droidflame_testkit::mapping::{app_trace, obfuscate, MappingStyle};
use droidflame_testkit::Layout;
use std::sync::OnceLock;

/// The trace every mutated mapping is applied to, and the mappings of it, R8's and
/// ProGuard's.
fn base() -> &'static (Analysis, Vec<Vec<u8>>) {
    static BASE: OnceLock<(Analysis, Vec<Vec<u8>>)> = OnceLock::new();
    BASE.get_or_init(|| {
        let trace = app_trace(21);
        let r8 = obfuscate(&trace, MappingStyle::R8);
        let proguard = obfuscate(&trace, MappingStyle::ProGuard);
        let profile = analyze(&r8.trace.write(&Layout::ART_REGULAR)).expect("the obfuscated trace reads");
        (profile, vec![r8.mapping.into_bytes(), proguard.mapping.into_bytes()])
    })
}

/// The generated mappings, as seeds.
pub fn seeds() -> Vec<Vec<u8>> {
    base().1.clone()
}

/// Reads `bytes` as a mapping in chunks of `chunk` bytes; where it reads, applies it,
/// checks the report's counts, applies it again (which must give the same names), and
/// runs the products that print names.
pub fn exercise(bytes: &[u8], chunk: usize) {
    let (obfuscated, _) = base();
    let mut reader = MappingReader::new(&[&obfuscated.profile]);
    for piece in bytes.chunks(chunk.max(1)) {
        if reader.push(piece).is_err() {
            return;
        }
    }
    let Ok(mapping) = reader.finish() else { return };
    let mut profile = obfuscated.clone();
    let report = profile.deobfuscate(&mapping).clone();
    let m = report.methods;
    assert!(
        m.mapped + m.ambiguous + m.not_found <= profile.profile.frames.len() as u64,
        "more methods counted than frames"
    );
    let _ = report.describe();
    let names = profile.profile.frame_names.clone();
    profile.deobfuscate(&mapping);
    assert_eq!(names, profile.profile.frame_names, "applying a mapping twice gives other names");
    let _ = products::summary_json(&profile);
    let _ = products::folded(&profile.profile, &FoldedOptions::default());
    let _ = products::flame_svg(&profile.profile, GraphScope::AllThreads, &FlameOptions::default());
}
