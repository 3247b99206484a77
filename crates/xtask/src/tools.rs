//! Installs what the build needs, skipping anything already there at the right version:
//! the wasm32 target, wasm-bindgen-cli (exactly the version in Cargo.lock), the npm build
//! tools (wasm-opt), and Chromium for the browser tests.

use crate::command::{output, root, run, run_in};
use std::path::Path;

pub fn ensure_wasm_target() -> Result<(), String> {
    let installed = output("rustup", &["target", "list", "--installed"]).unwrap_or_default();
    if installed.lines().any(|l| l.trim() == "wasm32-unknown-unknown") {
        return Ok(());
    }
    run("rustup", &["target", "add", "wasm32-unknown-unknown"])
}

/// The `wasm-bindgen` crate version the lock file pins; the CLI must match it exactly.
fn locked_wasm_bindgen() -> Result<String, String> {
    let lock =
        std::fs::read_to_string(root().join("Cargo.lock")).map_err(|e| format!("cannot read Cargo.lock: {e}"))?;
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line == "name = \"wasm-bindgen\"" {
            if let Some(version) = lines.next().and_then(|l| l.strip_prefix("version = \"")) {
                return Ok(version.trim_end_matches('"').to_owned());
            }
        }
    }
    Err("Cargo.lock has no wasm-bindgen package".into())
}

pub fn ensure_wasm_bindgen() -> Result<(), String> {
    let want = locked_wasm_bindgen()?;
    let have = output("wasm-bindgen", &["--version"]).unwrap_or_default();
    if have.split_whitespace().nth(1) == Some(want.as_str()) {
        return Ok(());
    }
    eprintln!("xtask: installing wasm-bindgen-cli {want} (about 4 minutes, once)");
    run("cargo", &["install", "wasm-bindgen-cli", "--version", &format!("={want}")])
}

/// `npm ci` in a folder with a package-lock.json, unless its node_modules is current.
pub fn ensure_npm(folder: &Path) -> Result<(), String> {
    let lock = folder.join("package-lock.json");
    let marker = folder.join("node_modules/.package-lock.json");
    let current = match (std::fs::read(&lock), std::fs::read(&marker)) {
        (Ok(_), Ok(_)) => {
            let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
            modified(&marker) >= modified(&lock)
        }
        _ => false,
    };
    if current {
        return Ok(());
    }
    run_in(folder, "npm", &["ci", "--no-audit", "--no-fund"])
}

pub fn wasm_opt() -> std::path::PathBuf {
    root().join("crates/xtask/node_modules/.bin/wasm-opt")
}

/// The bundler of the page's modules (npm `esbuild`, pinned in crates/xtask/package.json).
pub fn esbuild() -> std::path::PathBuf {
    root().join("crates/xtask/node_modules/.bin/esbuild")
}

/// Debian's Chromium, for the browser tests (`apt-get` needs root, as on CI).
pub fn ensure_chromium() -> Result<(), String> {
    if Path::new("/usr/bin/chromium").exists() {
        return Ok(());
    }
    eprintln!("xtask: installing Debian's chromium for the browser tests");
    run("apt-get", &["update", "-qq"])?;
    run("apt-get", &["install", "-y", "-qq", "chromium"])
}
