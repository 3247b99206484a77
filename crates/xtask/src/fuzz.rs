//! `cargo xtask fuzz [--seconds N] [--target NAME]`: builds droidflame-fuzz with the `fuzz`
//! profile (overflow checks on, panics unwind) and runs every target for a share of N
//! seconds. Findings land in target/fuzz/findings/; each one fixed is kept in
//! crates/droidflame-fuzz/findings/ as a regression test.

use crate::command::{root, run};

pub fn fuzz(args: &[String]) -> Result<(), String> {
    let mut pass = vec!["--out".to_owned(), root().join("target/fuzz/findings").to_string_lossy().into_owned()];
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        match flag.as_str() {
            "--seconds" | "--target" => {
                let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
                pass.extend([flag.clone(), value.clone()]);
            }
            _ => return Err(format!("fuzz takes --seconds N and --target NAME, not {flag:?}")),
        }
    }
    run("cargo", &["build", "--profile", "fuzz", "--quiet", "-p", "droidflame-fuzz"])?;
    let binary = root().join("target/fuzz/droidflame-fuzz");
    let binary = binary.to_str().ok_or("the target path is not UTF-8")?;
    let pass: Vec<&str> = pass.iter().map(String::as_str).collect();
    run(binary, &pass)
}
