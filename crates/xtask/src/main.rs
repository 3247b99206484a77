//! `cargo xtask <task>`: the project's build, run and test entry points.
//!
//! - `test`: every check CI runs (formatting, clippy, all tests, the Python package's tests,
//!   wasm builds, browser tests).
//! - `dist`: the web app into `dist/` (hosted site, single offline file, npm package).
//! - `serve [--port N]`: `dist` served on 127.0.0.1.
//! - `bench [--quick]`: the benchmark suite (BENCHMARKS.md); `bench --against REV`: today's
//!   build against REV's, a table of ratios.
//! - `fuzz [--seconds N] [--target NAME]`: mutation fuzzing of every decoder entry point.
//!
//! Each task installs what it needs on a fresh machine and skips what is already there.

mod base64;
mod bench;
mod command;
mod core_tests;
mod counts;
mod csp;
mod dist;
mod fuzz;
mod mutants;
mod python;
mod seeded;
mod serve;
mod settings;
mod test;
mod tools;

use std::process::ExitCode;

const USAGE: &str = "usage: cargo xtask <task>

tasks:
  test             run every test and check (what CI runs)
  dist             build the web app into dist/
  serve [--port N] build dist/ and serve it on 127.0.0.1 (default port 8080)
  bench [--quick]  run the benchmark suite; the full run writes BENCHMARKS.md
  bench --against REV [--quick] [--pairs N]
                   today's build against REV's, case by case, alternating
                   (a table of ratios; fails if a measure is > 3% slower)
  fuzz [--seconds N] [--target NAME]
                   fuzz every decoder entry point (default 60 s in all)
  mutants [--file PATH]... [--in-diff BASE] [--tests T,T] [-- ARGS]
  mutants --seeded | --report | --recheck NAME
                   mutation testing of the core (cargo-mutants): by default the
                   modules where numbers are made; --in-diff BASE only the lines
                   changed since BASE; --tests the test targets (lib, counts, ...);
                   --seeded: hand-made wrong-number bugs, each must fail a test;
                   --report: the reports' scores as a table; --recheck NAME: the
                   functions where report NAME missed, tried again";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("test") => test::test(),
        Some("dist") => dist::dist().map(|_| ()),
        Some("serve") => port(&args[1..]).and_then(serve::serve),
        Some("bench") => match &args[1..] {
            [] => bench::bench(false),
            [flag] if flag == "--quick" => bench::bench(true),
            [flag, rev, rest @ ..] if flag == "--against" => bench::against(rev, rest),
            _ => Err(format!("bench takes --quick, or --against REV [--quick] [--pairs N]\n\n{USAGE}")),
        },
        Some("fuzz") => fuzz::fuzz(&args[1..]),
        Some("mutants") => mutants::mutants(&args[1..]),
        Some("help") | Some("--help") | Some("-h") | None => {
            println!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(format!("unknown task {other:?}\n\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

fn port(args: &[String]) -> Result<u16, String> {
    match args {
        [] => Ok(8080),
        [flag, value] if flag == "--port" => value.parse().map_err(|_| format!("--port takes a number, not {value:?}")),
        _ => Err(format!("serve takes --port N only\n\n{USAGE}")),
    }
}
