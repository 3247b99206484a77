//! `write-runs DIR [RUNS] [FACTOR]`: writes RUNS (default 10) runs before and after of the
//! testkit's program into DIR (`before-00.trace`, `after-00.trace`, ...), after's method
//! `runs::SLOWED` made slower by FACTOR (default 1.3; 1 for no change). For the Python
//! package's tests, the page's and the examples.

use droidflame_testkit::runs::{run, RunSpec, SLOWED};
use droidflame_testkit::Layout;
use std::path::PathBuf;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(dir) = args.first().map(PathBuf::from) else {
        eprintln!("usage: write-runs DIR [RUNS] [FACTOR]");
        std::process::exit(2);
    };
    let count: u64 = args.get(1).map_or(10, |n| n.parse().expect("RUNS is a number"));
    let factor: f64 = args.get(2).map_or(1.3, |f| f.parse().expect("FACTOR is a number"));
    std::fs::create_dir_all(&dir).expect("the directory can be made");
    for i in 0..count {
        let specs = [
            ("before", RunSpec { seed: 1 + i, slower: None, spread: 0.1 }),
            ("after", RunSpec { seed: 1001 + i, slower: Some((SLOWED, factor)), spread: 0.1 }),
        ];
        for (side, spec) in specs {
            let path = dir.join(format!("{side}-{i:02}.trace"));
            std::fs::write(&path, run(&spec).write(&Layout::ART_STREAMING)).expect("the run can be written");
        }
    }
}
