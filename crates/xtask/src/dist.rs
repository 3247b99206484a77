//! `cargo xtask dist`: builds the web app into `dist/`:
//! - the hosted site (`index.html`, `app.js`, `app.css`, `boot.js`, `worker.js`,
//!   `droidflame_bg.wasm`): relative paths only, so it works from any sub-path. `app.js`,
//!   `worker.js` and the package's `index.js` are bundled from `www/`'s ES modules by
//!   esbuild (from npm, beside wasm-opt);
//! - `droidflame.html`: one self-contained file (wasm inlined as base64, worker from a Blob
//!   URL) that works when opened from `file://`;
//! - `pkg/`: an npm-style ES module package with TypeScript types;
//! - `examples/`: host pages for each way of embedding.

use crate::base64::base64;
use crate::command::{root, run};
use crate::settings::WebSettings;
use crate::tools::{ensure_npm, ensure_wasm_bindgen, ensure_wasm_target, esbuild, wasm_opt};
use std::path::{Path, PathBuf};

pub fn dist() -> Result<PathBuf, String> {
    ensure_wasm_target()?;
    ensure_wasm_bindgen()?;
    ensure_npm(&root().join("crates/xtask"))?;
    let settings = WebSettings::load()?;
    let build =
        ["build", "--profile", &settings.profile, "--target", "wasm32-unknown-unknown", "-p", &settings.crate_name];
    run("cargo", &build)?;
    let root = root();
    let wasm_in = root.join(settings.wasm_path());
    let glue = root.join("target/web");
    let _ = std::fs::remove_dir_all(&glue);
    for target in ["web", "no-modules"] {
        let out = glue.join(target);
        run(
            "wasm-bindgen",
            &[
                "--target",
                target,
                "--out-dir",
                path(&out),
                "--out-name",
                "droidflame",
                "--no-typescript",
                path(&wasm_in),
            ],
        )?;
    }
    run(
        "wasm-bindgen",
        &["--target", "web", "--out-dir", path(&glue.join("types")), "--out-name", "droidflame", path(&wasm_in)],
    )?;

    let dist = root.join("dist");
    let _ = std::fs::remove_dir_all(&dist);
    std::fs::create_dir_all(dist.join("pkg")).map_err(io("create dist/pkg"))?;
    let wasm = dist.join("droidflame_bg.wasm");
    let unoptimised = glue.join("web/droidflame_bg.wasm");
    let mut opt_args: Vec<&str> = settings.wasm_opt_args.iter().map(String::as_str).collect();
    opt_args.extend([path(&unoptimised), "-o", path(&wasm)]);
    run(path(&wasm_opt()), &opt_args)?;

    let www = root.join("www");
    let html = read(&www.join("index.html"))?;
    let bundles = glue.join("bundles");
    let app = bundle(&www.join("src/main.js"), &bundles.join("app.js"), "iife", &[])?;
    let css = read(&www.join("app.css"))?;
    let worker = read(&glue.join("no-modules/droidflame.js"))?
        + "\n"
        + &bundle(&www.join("worker.js"), &bundles.join("worker.js"), "iife", &[])?;
    let frame_script = graph_frame_script()?;

    // Hosted: separate files, relative paths.
    write(&dist.join("app.js"), &app)?;
    write(&dist.join("app.css"), &css)?;
    write(&dist.join("worker.js"), &worker)?;
    copy(&www.join("boot-hosted.js"), &dist.join("boot.js"))?;
    let hosted = html
        .replace("<!-- BUILD:CSP -->", &csp_meta(&crate::csp::hosted(&frame_script)))
        .replace("<!-- BUILD:STYLE -->", "<link rel=\"stylesheet\" href=\"app.css\">")
        .replace("<!-- BUILD:SCRIPTS -->", "<script src=\"boot.js\"></script>\n<script src=\"app.js\"></script>");
    write(&dist.join("index.html"), &hosted)?;

    // Single file: everything inline.
    let wasm_bytes = std::fs::read(&wasm).map_err(io("read the optimised wasm"))?;
    let boot = inline_script(&read(&www.join("boot-single.js"))?);
    let app_inline = inline_script(&app);
    let single = html
        .replace("<!-- BUILD:CSP -->", &csp_meta(&crate::csp::single(&[&boot, &app_inline], &frame_script)))
        .replace("<!-- BUILD:STYLE -->", &format!("<style>\n{css}</style>"))
        .replace(
            "<!-- BUILD:SCRIPTS -->",
            &format!(
                "<script type=\"application/octet-stream\" id=\"droidflame-wasm\">{}</script>\n\
                 <script type=\"text/plain\" id=\"droidflame-worker\">{}</script>\n<script>{boot}</script>\n\
                 <script>{app_inline}</script>",
                base64(&wasm_bytes),
                inline_script(&worker),
            ),
        );
    write(&dist.join("droidflame.html"), &single)?;

    // The package for bundlers.
    copy(&glue.join("web/droidflame.js"), &dist.join("pkg/droidflame.js"))?;
    copy(&glue.join("types/droidflame.d.ts"), &dist.join("pkg/droidflame.d.ts"))?;
    copy(&wasm, &dist.join("pkg/droidflame_bg.wasm"))?;
    bundle(&www.join("pkg/index.js"), &dist.join("pkg/index.js"), "esm", &["./droidflame.js"])?;
    for file in ["index.d.ts", "package.json", "README.md"] {
        copy(&www.join("pkg").join(file), &dist.join("pkg").join(file))?;
    }
    copy_dir(&www.join("examples"), &dist.join("examples"))?;
    eprintln!(
        "xtask: dist/ is ready: index.html (hosted), droidflame.html ({} KB, one file), pkg/, examples/",
        std::fs::metadata(dist.join("droidflame.html")).map(|m| m.len() / 1024).unwrap_or(0)
    );
    Ok(dist)
}

/// Bundles an ES module and what it imports into one script (`format`: `iife` or `esm`),
/// leaving `external` imports as they are; returns the text written to `out`.
fn bundle(entry: &Path, out: &Path, format: &str, external: &[&str]) -> Result<String, String> {
    let mut args = vec![
        path(entry).to_owned(),
        "--bundle".to_owned(),
        format!("--format={format}"),
        "--target=es2020".to_owned(),
        "--charset=utf8".to_owned(),
        "--legal-comments=none".to_owned(),
        format!("--outfile={}", path(out)),
        "--log-level=warning".to_owned(),
    ];
    args.extend(external.iter().map(|e| format!("--external:{e}")));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run(path(&esbuild()), &args)?;
    read(out)
}

/// The script each flame graph's frame runs after inferno's (`www/src/flame/graph-frame.js`);
/// the page puts it into the frame as it is, so the policy hashes this exact text.
pub fn graph_frame_script() -> Result<String, String> {
    let text = read(&root().join("www/src/flame/graph-frame.js"))?;
    if text.contains("</script") || text.contains("<!--") {
        return Err(
            "www/src/flame/graph-frame.js must not contain </script or <!--: it is put inline in a frame".into()
        );
    }
    Ok(text)
}

/// Makes text safe inside an inline `<script>`: no `</script` or `<!--` can end or
/// confuse it. Both rewrites mean the same inside JavaScript strings.
fn inline_script(text: &str) -> String {
    text.replace("</script", "<\\/script").replace("</SCRIPT", "<\\/SCRIPT").replace("<!--", "<\\!--")
}

fn csp_meta(policy: &str) -> String {
    format!("<meta http-equiv=\"Content-Security-Policy\" content=\"{policy}\">")
}

fn path(p: &Path) -> &str {
    p.to_str().expect("paths in this repository are UTF-8")
}

fn io(what: &'static str) -> impl Fn(std::io::Error) -> String {
    move |e| format!("cannot {what}: {e}")
}

fn read(p: &Path) -> Result<String, String> {
    std::fs::read_to_string(p).map_err(|e| format!("cannot read {}: {e}", p.display()))
}

fn write(p: &Path, text: &str) -> Result<(), String> {
    std::fs::write(p, text).map_err(|e| format!("cannot write {}: {e}", p.display()))
}

fn copy(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::copy(from, to).map(|_| ()).map_err(|e| format!("cannot copy {} to {}: {e}", from.display(), to.display()))
}

fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| format!("cannot create {}: {e}", to.display()))?;
    for entry in std::fs::read_dir(from).map_err(|e| format!("cannot read {}: {e}", from.display()))? {
        let entry = entry.map_err(|e| e.to_string())?;
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else {
            copy(&entry.path(), &target)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn inline_scripts_cannot_close_their_tag() {
        assert_eq!(super::inline_script("a = '</script>' // <!--"), "a = '<\\/script>' // <\\!--");
    }
}
