//! The workspace's shape, checked on its source: no file of any crate names a file that
//! names it back, however long the way round; nothing names an item through its crate's
//! root; the profile model names no other module of the core; and each input format is
//! reached only through the registry (`formats/mod.rs`), which is also where the test
//! learns the formats' folders.

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
    let mut text = std::fs::read_to_string(path).unwrap();
    // A file's unit tests end it; their `super::` is the file itself, not its parent.
    if let Some(at) = text.find("#[cfg(test)]\nmod tests") {
        text.truncate(at);
    }
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

/// The paths a file names from the crate root, its `super::` and `self::` paths and the
/// child modules it declares (`children`) resolved against its module: `crate::a::b` gives
/// `a::b`; `crate::{a, b::{c, d}}` gives `a`, `b::c`, `b::d`; an item of the root
/// (`crate::Error`) gives the empty path.
fn crate_paths(code: &str, module: &[String], children: &[String]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let bytes = code.as_bytes();
    let inline = inline_modules(code);
    let mut at = 0;
    while at < code.len() {
        let rest = &code[at..];
        // Inside `mod name { … }`, `super::` and `self::` start from that module.
        let inner: Vec<String> =
            inline.iter().filter(|(from, to, _)| (*from..*to).contains(&at)).map(|m| m.2.clone()).collect();
        let module = &[module, &inner[..]].concat()[..];
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
        } else if rest.starts_with("self::") && !preceded_by_ident(bytes, at) {
            (module.to_vec(), "self::".len())
        } else if let Some(child) = children.iter().find(|c| {
            rest.starts_with(c.as_str()) && rest[c.len()..].starts_with("::") && !preceded_by_ident(bytes, at)
        }) {
            ([module, std::slice::from_ref(child)].concat(), child.len() + 2)
        } else {
            at += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        };
        let end = use_tree(&code[at + skip..], &base, &mut out);
        at += skip + end;
    }
    out
}

/// The modules a file declares inline (`mod name { … }`): where each starts and ends, and
/// its name, outer ones first.
fn inline_modules(code: &str) -> Vec<(usize, usize, String)> {
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(found) = code[from..].find("mod ") {
        let at = from + found;
        from = at + 4;
        if preceded_by_ident(bytes, at) {
            continue;
        }
        let name: String = code[from..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        if !code[from + name.len()..].trim_start().starts_with('{') {
            continue;
        }
        let open = from + name.len() + code[from + name.len()..].find('{').unwrap();
        let mut depth = 0;
        for (i, b) in bytes.iter().enumerate().skip(open) {
            let quoted = i > 0 && bytes[i - 1] == b'\'' && bytes.get(i + 1) == Some(&b'\'');
            match b {
                b'{' if !quoted => depth += 1,
                b'}' if !quoted => {
                    depth -= 1;
                    if depth == 0 {
                        out.push((open, i, name.clone()));
                        break;
                    }
                }
                _ => {}
            }
        }
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
        out.insert(path.join("::"));
        return at;
    }
}

struct Source {
    /// Relative to its crate's `src/`, with `/`.
    file: String,
    paths: BTreeSet<String>,
}

/// The child modules a file declares in files of their own (`mod name;`).
fn declared_children(code: &str) -> Vec<String> {
    code.lines()
        .filter_map(|line| {
            let line = line.trim();
            let rest = line.strip_prefix("pub(crate) ").or_else(|| line.strip_prefix("pub ")).unwrap_or(line);
            rest.strip_prefix("mod ")?.strip_suffix(';').map(str::to_owned)
        })
        .collect()
}

/// The module tree of one crate's library (or, without one, its binary): every file under
/// `src/` but other crate roots (`bin/`, a `main.rs` beside a `lib.rs`).
fn crate_sources(dir: &Path) -> Vec<Source> {
    let src = dir.join("src");
    let has_lib = src.join("lib.rs").is_file();
    sources(&src)
        .into_iter()
        .filter_map(|path| {
            let file = path.strip_prefix(&src).unwrap().to_string_lossy().replace('\\', "/");
            if file.starts_with("bin/") || (has_lib && file == "main.rs") {
                return None;
            }
            let code = code(&path);
            let module = if module_path(&file).is_empty() { Vec::new() } else { module_of(&file) };
            let paths = crate_paths(&code, &module, &declared_children(&code));
            Some(Source { file, paths })
        })
        .collect()
}

fn core() -> Vec<Source> {
    crate_sources(Path::new(env!("CARGO_MANIFEST_DIR")))
}

/// Every crate of the workspace: its folder name and its files.
fn workspace() -> Vec<(String, Vec<Source>)> {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut out: Vec<(String, Vec<Source>)> = std::fs::read_dir(crates)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("src").is_dir())
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), crate_sources(&p)))
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// The module path of a file as its crate names it: `lib.rs` and `main.rs` are the root.
fn module_path(file: &str) -> String {
    if file == "lib.rs" || file == "main.rs" {
        return String::new();
    }
    module_of(file).join("::")
}

/// Each file's edges to the files it names: a path names the file of its longest prefix
/// that is a module (`profile::heap::HeapDump` is `profile/heap.rs`).
fn file_graph(files: &[Source]) -> BTreeMap<&str, BTreeSet<&str>> {
    let by_module: BTreeMap<String, &str> = files.iter().map(|s| (module_path(&s.file), s.file.as_str())).collect();
    let mut graph: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for source in files {
        let edges = graph.entry(source.file.as_str()).or_default();
        for path in &source.paths {
            let mut parts: Vec<&str> = if path.is_empty() { Vec::new() } else { path.split("::").collect() };
            loop {
                if let Some(file) = by_module.get(&parts.join("::")) {
                    if *file != source.file {
                        edges.insert(file);
                    }
                    break;
                }
                if parts.pop().is_none() {
                    break;
                }
            }
        }
    }
    graph
}

/// The graph's circles: its strongly connected parts of more than one file (Tarjan's).
fn circles<'a>(graph: &BTreeMap<&'a str, BTreeSet<&'a str>>) -> Vec<Vec<&'a str>> {
    struct Walk<'a, 'g> {
        graph: &'g BTreeMap<&'a str, BTreeSet<&'a str>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        out: Vec<Vec<&'a str>>,
    }
    fn visit<'a>(walk: &mut Walk<'a, '_>, node: &'a str) {
        let at = walk.index.len();
        walk.index.insert(node, at);
        walk.low.insert(node, at);
        walk.stack.push(node);
        for &next in walk.graph.get(node).into_iter().flatten() {
            if !walk.index.contains_key(next) {
                visit(walk, next);
                let low = walk.low[node].min(walk.low[next]);
                walk.low.insert(node, low);
            } else if walk.stack.contains(&next) {
                let low = walk.low[node].min(walk.index[next]);
                walk.low.insert(node, low);
            }
        }
        if walk.low[node] == walk.index[node] {
            let from = walk.stack.iter().rposition(|n| *n == node).unwrap();
            let part: Vec<&str> = walk.stack.drain(from..).collect();
            if part.len() > 1 {
                walk.out.push(part);
            }
        }
    }
    let mut walk = Walk { graph, index: BTreeMap::new(), low: BTreeMap::new(), stack: Vec::new(), out: Vec::new() };
    for &node in graph.keys() {
        if !walk.index.contains_key(node) {
            visit(&mut walk, node);
        }
    }
    walk.out.iter_mut().for_each(|part| part.sort());
    walk.out
}

#[test]
fn no_file_names_one_that_names_it_back() {
    let mut found = Vec::new();
    for (name, files) in workspace() {
        let graph = file_graph(&files);
        for circle in circles(&graph) {
            // Each file's names inside the circle, to show where to cut it.
            let edges: Vec<String> = circle
                .iter()
                .map(|file| {
                    let inside: Vec<&str> = graph[file].iter().copied().filter(|to| circle.contains(to)).collect();
                    format!("    {file} -> {}", inside.join(", "))
                })
                .collect();
            found.push(format!("{name}: {}\n{}", circle.join(" <-> "), edges.join("\n")));
        }
    }
    assert!(found.is_empty(), "import circles (files that reach each other):\n  {}", found.join("\n  "));
}

#[test]
fn nothing_names_an_item_through_its_crate_root() {
    let mut found = Vec::new();
    for (name, files) in workspace() {
        let graph = file_graph(&files);
        let root = files.iter().map(|s| s.file.as_str()).find(|f| module_path(f).is_empty()).expect("a crate root");
        for (file, names) in &graph {
            if *file != root && names.contains(root) {
                found.push(format!("{name}/src/{file}"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "these name an item through their crate's root (`crate::item`, or `super::item` from a top module); \
         the root only declares modules and says what the crate offers, so name the module that defines it:\n  {}",
        found.join("\n  ")
    );
}

#[test]
fn the_circle_finder_finds_long_circles_and_only_them() {
    let files = |pairs: &[(&'static str, &[&'static str])]| -> Vec<Source> {
        pairs
            .iter()
            .map(|(file, names)| Source {
                file: file.to_string(),
                paths: names.iter().map(|n| n.to_string()).collect(),
            })
            .collect()
    };
    let chain = files(&[("a.rs", &["b::Item"]), ("b/mod.rs", &["b::c"]), ("b/c.rs", &["a::f", "d"]), ("d.rs", &[])]);
    assert_eq!(circles(&file_graph(&chain)), [vec!["a.rs", "b/c.rs", "b/mod.rs"]]);
    let tree = files(&[("a.rs", &["b::Item"]), ("b/mod.rs", &["b::c"]), ("b/c.rs", &["d"]), ("d.rs", &[""])]);
    assert!(circles(&file_graph(&tree)).is_empty());
}

/// Modules that name nothing of the crate, which any part may name.
const LEAVES: [&str; 2] = ["error", "options"];

#[test]
fn the_model_names_no_other_module() {
    let files = core();
    for leaf in LEAVES {
        let source = files.iter().find(|s| module_path(&s.file) == leaf).expect("the leaf module exists");
        assert!(
            source.paths.is_empty(),
            "{} names {:?}: it is to name nothing of the crate",
            source.file,
            source.paths
        );
    }
    let model: Vec<&Source> = files.iter().filter(|s| s.file.starts_with("profile/")).collect();
    assert!(model.len() > 5, "the model's files were found");
    for source in model {
        let foreign: Vec<&String> = source
            .paths
            .iter()
            .filter(|p| !p.starts_with("profile") && !LEAVES.contains(&p.split("::").next().unwrap()))
            .collect();
        assert!(foreign.is_empty(), "{} names {foreign:?}: the model names no other module", source.file);
    }
}

/// The registry's formats (each `NAME::FORMAT` in `formats/mod.rs`) and the modules it
/// declares beside them, which formats share.
fn registry() -> (Vec<String>, Vec<String>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/formats/mod.rs");
    let code = code(&path);
    let children = declared_children(&code);
    let (formats, shared): (Vec<String>, Vec<String>) =
        children.into_iter().partition(|c| code.contains(&format!("{c}::FORMAT")));
    (formats, shared)
}

#[test]
fn formats_are_reached_through_the_registry_only() {
    let (formats, shared) = registry();
    // Every folder under formats/ that exports a FORMAT is one the registry lists.
    let folders = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/formats");
    for entry in std::fs::read_dir(&folders).unwrap() {
        let path = entry.unwrap().path();
        let exports = std::fs::read_to_string(path.join("mod.rs")).is_ok_and(|t| t.contains(" FORMAT"));
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        assert!(!exports || formats.contains(&name), "formats/{name} has a FORMAT the registry does not list");
    }
    assert!(formats.len() >= 4 && !shared.is_empty(), "the registry was read: {formats:?}, {shared:?}");
    let mut seen_shared = false;
    for source in core() {
        let inside = source.file.strip_prefix("formats/");
        let own = inside.and_then(|f| f.split_once('/')).map(|(folder, _)| folder);
        for path in &source.paths {
            let Some(named) = path.strip_prefix("formats::").map(|p| p.split("::").next().unwrap()) else {
                continue;
            };
            let allowed = if formats.iter().any(|f| f == named) {
                source.file == "formats/mod.rs" || own == Some(named)
            } else if shared.iter().any(|s| s == named) {
                seen_shared |= own.is_some();
                inside.is_some()
            } else {
                true // the registry's own items
            };
            assert!(
                allowed,
                "{} names crate::{path}: a format is reached only through the registry (formats/mod.rs), and \
                 the modules formats share ({shared:?}) only from inside formats/",
                source.file
            );
        }
    }
    assert!(seen_shared, "the check saw the formats' shared modules in use");
}

#[test]
fn the_path_reader_reads_groups_and_resolves_super_self_and_children() {
    let module: Vec<String> = ["formats", "atrace", "events"].map(String::from).to_vec();
    let code = "use crate::{a::b, Error, c::{d, e::F}};\nuse crate::g::h::I;\nlet x = crate::Options::default();\n\
                use super::super::art::X;\nuse super::line;\nlet url = \"http://x\"; // crate::not_this";
    let paths = crate_paths(&code.replace("// crate::not_this", ""), &module, &[]);
    assert_eq!(
        paths.into_iter().collect::<Vec<_>>(),
        ["", "a::b", "c::d", "c::e", "formats::art", "formats::atrace::line", "g::h"]
    );
    let code = "mod inner {\n    use super::*;\n    use super::super::x::Y;\n}\nuse super::z::W;";
    assert_eq!(
        crate_paths(code, &module, &[]).into_iter().collect::<Vec<_>>(),
        ["formats::atrace::events", "formats::atrace::x", "formats::atrace::z"]
    );
    let children = ["line".to_owned()];
    let code = "use line::Line;\nuse self::x::Y;\nlet a = std::line::f();\nlet b = line::parse(x);";
    let paths = crate_paths(code, &module, &children);
    assert_eq!(
        paths.into_iter().collect::<Vec<_>>(),
        ["formats::atrace::events::line", "formats::atrace::events::line::parse", "formats::atrace::events::x"]
    );
}

/// A core file is read in one sitting: at most this many lines.
const MAX_CORE_LINES: usize = 600;

#[test]
fn every_core_file_is_short_enough_to_read_in_one_sitting() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = sources(&src);
    assert!(files.len() > 50, "the core's files were found");
    let long: Vec<String> = files
        .iter()
        .map(|path| (path, std::fs::read_to_string(path).unwrap().lines().count()))
        .filter(|(_, lines)| *lines > MAX_CORE_LINES)
        .map(|(path, lines)| format!("{} ({lines} lines)", path.strip_prefix(&src).unwrap().display()))
        .collect();
    assert!(long.is_empty(), "over {MAX_CORE_LINES} lines: split along a seam: {long:?}");
}
