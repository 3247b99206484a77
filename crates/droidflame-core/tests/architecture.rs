//! The core's shape, checked on its source: data flows one way (no module of the core
//! names a module that names it back), the profile model names no other module, and each
//! input format is reached only through the registry (`formats/mod.rs`), formats sharing
//! code only through `formats/system`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out
}

/// The code of a file without its comments (doc comments name modules freely): whole
/// comment lines, and a `//` after code where no string is open.
fn code(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let strip = |line: &str| -> String {
        if line.trim_start().starts_with("//") {
            return String::new();
        }
        match line.find(" //") {
            Some(at) if line[..at].matches('"').count() % 2 == 0 => line[..at].to_owned(),
            _ => line.to_owned(),
        }
    };
    text.lines().map(strip).collect::<Vec<_>>().join("\n")
}

/// The module path of a source file (`formats/atrace/events.rs`: `formats::atrace::events`,
/// a `mod.rs` is its folder).
fn module_of(file: &str) -> Vec<String> {
    let mut parts: Vec<String> = file.trim_end_matches(".rs").split('/').map(str::to_owned).collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// The paths a file names from the crate root, its `super::` paths resolved against its
/// module: `crate::a::b` gives `a::b`; `crate::{a, b::{c, d}}` gives `a`, `b::c`, `b::d`.
/// Root items (`crate::Error`) are left out.
fn crate_paths(code: &str, module: &[String]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let bytes = code.as_bytes();
    let mut at = 0;
    while at < code.len() {
        let rest = &code[at..];
        let (base, skip): (Vec<String>, usize) = if rest.starts_with("crate::") && !preceded_by_ident(bytes, at) {
            (Vec::new(), "crate::".len())
        } else if rest.starts_with("super::") && !preceded_by_ident(bytes, at) {
            let mut len = 0;
            let mut up = 0;
            while code[at + len..].starts_with("super::") {
                len += "super::".len();
                up += 1;
            }
            // A `mod.rs` is its folder's module; any other file is a module inside it.
            (module[..module.len().saturating_sub(up)].to_vec(), len)
        } else {
            at += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        };
        let end = use_tree(&code[at + skip..], &base, &mut out);
        at += skip + end;
    }
    out
}

fn preceded_by_ident(bytes: &[u8], at: usize) -> bool {
    at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_' || bytes[at - 1] == b':')
}

/// Reads one path or `{…}` group of paths after `prefix`, adding each to `out`; returns
/// how many bytes it read.
fn use_tree(text: &str, prefix: &[String], out: &mut BTreeSet<String>) -> usize {
    let mut path = prefix.to_vec();
    let mut at = 0;
    loop {
        let rest = &text[at..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut used = 1;
            let mut inner = group;
            loop {
                let n = use_tree(inner, &path, out);
                used += n;
                inner = &inner[n..];
                let trimmed = inner.trim_start();
                used += inner.len() - trimmed.len();
                inner = trimmed;
                match inner.chars().next() {
                    Some(',') => {
                        used += 1;
                        let trimmed = inner[1..].trim_start();
                        used += inner.len() - 1 - trimmed.len();
                        inner = trimmed;
                        if inner.starts_with('}') {
                            return at + used + 1;
                        }
                    }
                    Some('}') => return at + used + 1,
                    _ => return at + used,
                }
            }
        }
        let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        at += name.len();
        let lower = name.starts_with(|c: char| c.is_ascii_lowercase());
        if lower && name != "self" {
            path.push(name);
        }
        if lower && text[at..].starts_with("::") {
            at += 2;
            continue;
        }
        if !path.is_empty() {
            out.insert(path.join("::"));
        }
        return at;
    }
}

struct Source {
    /// Relative to `src/`, with `/`.
    file: String,
    paths: BTreeSet<String>,
}

fn core() -> Vec<Source> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    sources(&src)
        .into_iter()
        .map(|path| {
            let file = path.strip_prefix(&src).unwrap().to_string_lossy().replace('\\', "/");
            let paths = crate_paths(&code(&path), &module_of(&file));
            Source { file, paths }
        })
        .collect()
}

fn top(file: &str) -> &str {
    file.split('/').next().unwrap().trim_end_matches(".rs")
}

#[test]
fn no_module_names_one_that_names_it_back() {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for source in core().iter().filter(|s| s.file != "lib.rs") {
        let from = top(&source.file).to_owned();
        let to: Vec<String> =
            source.paths.iter().map(|p| p.split("::").next().unwrap().to_owned()).filter(|m| *m != from).collect();
        graph.entry(from).or_default().extend(to);
    }
    // Depth-first from every module; a module met again on the current path is a circle.
    fn visit(node: &str, graph: &BTreeMap<String, BTreeSet<String>>, path: &mut Vec<String>) {
        if let Some(at) = path.iter().position(|n| n == node) {
            panic!("an import circle in the core: {}", [&path[at..], &[node.to_owned()]].concat().join(" -> "));
        }
        path.push(node.to_owned());
        for next in graph.get(node).into_iter().flatten() {
            visit(next, graph, path);
        }
        path.pop();
    }
    for node in graph.keys() {
        visit(node, &graph, &mut Vec::new());
    }
    assert!(graph.contains_key("profile") && graph.contains_key("formats"), "the walk saw the core: {graph:?}");
}

#[test]
fn the_model_names_no_other_module() {
    let model: Vec<Source> = core().into_iter().filter(|s| s.file.starts_with("profile/")).collect();
    assert!(model.len() > 5, "the model's files were found");
    for source in model {
        let foreign: Vec<&String> = source.paths.iter().filter(|p| !p.starts_with("profile")).collect();
        assert!(foreign.is_empty(), "{} names {foreign:?}", source.file);
    }
}

#[test]
fn formats_are_reached_through_the_registry_only() {
    const FOLDERS: [&str; 5] = ["art", "atrace", "perfetto", "simpleperf", "system"];
    let mut seen_shared = false;
    for source in core() {
        let own = source.file.strip_prefix("formats/").and_then(|f| f.split_once('/')).map(|(folder, _)| folder);
        for path in &source.paths {
            let Some(named) = path.strip_prefix("formats::").map(|p| p.split("::").next().unwrap()) else {
                continue;
            };
            if !FOLDERS.contains(&named) {
                continue; // the registry's own items
            }
            let allowed = own == Some(named) || own.is_some() && named == "system";
            seen_shared |= own.is_some() && named == "system";
            assert!(
                allowed,
                "{} names crate::{path}: a format is reached only through the registry (formats/mod.rs), and \
                 formats share code only through formats/system",
                source.file
            );
        }
    }
    assert!(seen_shared, "the check saw the formats' shared module in use");
}

#[test]
fn the_path_reader_reads_groups_resolves_super_and_leaves_root_items_out() {
    let module: Vec<String> = ["formats", "atrace", "events"].map(String::from).to_vec();
    let code = "use crate::{a::b, Error, c::{d, e::F}};\nuse crate::g::h::I;\nlet x = crate::Options::default();\n\
                use super::super::art::X;\nuse super::line;\nlet url = \"http://x\"; // crate::not_this";
    let paths = crate_paths(&code.replace("// crate::not_this", ""), &module);
    assert_eq!(
        paths.into_iter().collect::<Vec<_>>(),
        ["a::b", "c::d", "c::e", "formats::art", "formats::atrace::line", "g::h"]
    );
}
