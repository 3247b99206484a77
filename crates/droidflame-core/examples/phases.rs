//! Times the phases of one analysis: `cargo run --release -p droidflame-core --example
//! phases -- TRACE`. A quick look for development; the benchmark suite is `cargo xtask bench`.

use std::time::Instant;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    let t = Instant::now();
    let p = droidflame_core::analyze(&bytes).unwrap();
    let a = t.elapsed();
    let nodes: usize = p.profile.stacks().threads.iter().map(|t| t.tree.len()).sum();
    let t = Instant::now();
    let s = droidflame_core::products::summary_json(&p);
    let b = t.elapsed();
    let t = Instant::now();
    let table = droidflame_core::products::frame_table(&p.profile);
    let c = t.elapsed();
    println!(
        "analyze {a:?} ({} records, {nodes} nodes), summary {b:?} ({} bytes), method table {c:?} ({} rows)",
        p.profile.facts.records,
        s.len(),
        table.rows.len()
    );
}
