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

/// The code of a file without its comments (doc comments name modules freely).
fn code(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines().map(|line| line.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// The paths a file names from the crate root: `crate::a::b` gives `a::b`, and
/// `crate::{a, b::c}` gives `a` and `b::c`. Root items (`crate::Error`) are left out.
fn crate_paths(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        let items: Vec<&str> = match rest.strip_prefix('{') {
            Some(group) => group[..group.find('}').unwrap_or(group.len())].split(',').collect(),
            None => vec![rest],
        };
        for item in items {
            let path: String =
                item.trim().chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':').collect();
            if path.starts_with(|c: char| c.is_ascii_lowercase()) {
                out.insert(path.trim_end_matches(':').to_owned());
            }
        }
    }
    out
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
        .map(|path| Source {
            file: path.strip_prefix(&src).unwrap().to_string_lossy().replace('\\', "/"),
            paths: crate_paths(&code(&path)),
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
    const FORMATS: [&str; 4] = ["art", "atrace", "perfetto", "simpleperf"];
    for source in core() {
        let folder = source.file.strip_prefix("formats/").and_then(|f| f.split_once('/')).map(|(folder, _)| folder);
        for path in &source.paths {
            let Some(named) = path.strip_prefix("formats::").map(|p| p.split("::").next().unwrap()) else {
                continue;
            };
            let own = folder == Some(named);
            let shared = named == "system" && folder.is_some();
            assert!(
                own || shared || !FORMATS.contains(&named) && source.file.starts_with("formats/"),
                "{} names crate::{path}: formats are reached through the registry (formats/mod.rs), and share \
                 code only through formats/system",
                source.file
            );
        }
        let outside = !source.file.starts_with("formats/") && source.file != "lib.rs";
        if outside {
            assert!(
                source.paths.iter().all(|p| !p.starts_with("formats::") || p.split("::").count() == 2),
                "{} reaches into a format: {:?}",
                source.file,
                source.paths
            );
        }
    }
}

#[test]
fn the_path_reader_reads_groups_and_leaves_root_items_out() {
    let paths = crate_paths("use crate::{a::b, Error, c};\nuse crate::d::e::F;\nlet x = crate::Options::default();");
    assert_eq!(paths.into_iter().collect::<Vec<_>>(), ["a::b", "c", "d::e::F"]);
}
