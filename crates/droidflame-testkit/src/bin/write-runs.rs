//! `write-runs DIR [RUNS] [FACTOR] [--obfuscated]`: writes RUNS (default 10) runs before
//! and after of the testkit's program into DIR (`before-00.trace`, `after-00.trace`, ...),
//! after's method `runs::SLOWED` made slower by FACTOR (default 1.3; 1 for no change). For
//! the Python package's tests, the page's and the examples. `--obfuscated`: each group as
//! a release build of its own obfuscates it (the same classes named differently), with
//! that build's `before-mapping.txt` and `after-mapping.txt`.

use droidflame_testkit::mapping::{obfuscate_build, MappingStyle};
use droidflame_testkit::runs::{run, RunSpec, SLOWED};
use droidflame_testkit::Layout;
use std::path::PathBuf;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let obfuscated = args.iter().any(|a| a == "--obfuscated");
    args.retain(|a| a != "--obfuscated");
    let Some(dir) = args.first().map(PathBuf::from) else {
        eprintln!("usage: write-runs DIR [RUNS] [FACTOR] [--obfuscated]");
        std::process::exit(2);
    };
    let count: u64 = args.get(1).map_or(10, |n| n.parse().expect("RUNS is a number"));
    let factor: f64 = args.get(2).map_or(1.3, |f| f.parse().expect("FACTOR is a number"));
    std::fs::create_dir_all(&dir).expect("the directory can be made");
    for (build, side) in ["before", "after"].into_iter().enumerate() {
        let mut mapping: Option<String> = None;
        for i in 0..count {
            let spec = match side {
                "before" => RunSpec { seed: 1 + i, slower: None, spread: 0.1 },
                _ => RunSpec { seed: 1001 + i, slower: Some((SLOWED, factor)), spread: 0.1 },
            };
            let mut trace = run(&spec);
            if obfuscated {
                let release = obfuscate_build(&trace, MappingStyle::R8, build);
                // Every run has the program's methods in the same order: one build, one mapping.
                assert!(mapping.as_ref().is_none_or(|m| *m == release.mapping), "runs of one build map alike");
                mapping = Some(release.mapping);
                trace = release.trace;
            }
            let path = dir.join(format!("{side}-{i:02}.trace"));
            std::fs::write(&path, trace.write(&Layout::ART_STREAMING)).expect("the run can be written");
        }
        if let Some(mapping) = mapping {
            std::fs::write(dir.join(format!("{side}-mapping.txt")), mapping).expect("the mapping can be written");
        }
    }
}
