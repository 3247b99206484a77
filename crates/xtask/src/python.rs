//! The Python package's tests: a virtual environment under `target/`, the pinned test
//! tools in it (installed once per change of the pins), the package installed as the
//! README says (`pip install ./crates/droidflame-py`), runs written by the testkit, then
//! pytest.

use crate::command::{root, run};
use crate::counts::{counted_with, Counts};

pub fn test_python(counts: &mut Counts) -> Result<(), String> {
    let env = root().join("target/python-env");
    let python = env.join("bin/python");
    if !python.exists() {
        run("python3", &["-m", "venv", &env.display().to_string()])?;
    }
    let pins = root().join("crates/droidflame-py/requirements-test.txt");
    let wanted = std::fs::read_to_string(&pins).map_err(|e| format!("cannot read {}: {e}", pins.display()))?;
    let marker = env.join("installed-requirements.txt");
    let py = python.display().to_string();
    if std::fs::read_to_string(&marker).ok().as_deref() != Some(wanted.as_str()) {
        run(&py, &["-m", "pip", "install", "--quiet", "--upgrade", "pip"])?;
        run(&py, &["-m", "pip", "install", "--quiet", "-r", &pins.display().to_string()])?;
        std::fs::write(&marker, &wanted).map_err(|e| format!("cannot write {}: {e}", marker.display()))?;
    }
    run(&py, &["-m", "pip", "install", "--quiet", "./crates/droidflame-py"])?;
    let runs = root().join("target/python-runs");
    let runs_text = runs.display().to_string();
    run(
        "cargo",
        &["run", "--quiet", "-p", "droidflame-testkit", "--bin", "write-runs", "--", &runs_text, "10", "1.3"],
    )?;
    let cli = root().join("target/debug/droidflame");
    let cli = cli.display().to_string();
    let env_vars = [("DROIDFLAME_RUNS_DIR", runs_text.as_str()), ("DROIDFLAME_CLI", cli.as_str())];
    let pytest = ["-m", "pytest", "-q", "-p", "no:cacheprovider", "crates/droidflame-py/tests"];
    counted_with(&py, &pytest, &env_vars, counts, pytest_line)
}

/// pytest's closing line: `14 passed in 1.05s`, `1 failed, 13 passed, 2 skipped in 3.1s`.
fn pytest_line(line: &str, counts: &mut Counts) {
    let line = line.trim().trim_matches('=').trim();
    if !line.contains(" in ") || !(line.contains(" passed") || line.contains(" failed")) {
        return;
    }
    for part in line.split(" in ").next().unwrap_or("").split(',') {
        let mut words = part.split_whitespace();
        if let (Some(n), Some(what)) = (words.next().and_then(|n| n.parse::<u64>().ok()), words.next()) {
            match what {
                "passed" => counts.passed += n,
                "failed" | "error" | "errors" => counts.failed += n,
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pytest_lines_are_counted() {
        let mut counts = Counts::default();
        pytest_line("14 passed in 1.05s", &mut counts);
        pytest_line("===== 1 failed, 13 passed, 2 skipped in 3.10s =====", &mut counts);
        pytest_line("tests/test_runs.py ..F", &mut counts);
        assert_eq!((counts.passed, counts.failed), (27, 1));
    }
}
