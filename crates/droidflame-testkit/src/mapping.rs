//! Obfuscates a described trace as R8 or ProGuard would, and writes the mapping.txt that
//! undoes it, with every feature a reader must get right: classes renamed (in signatures
//! too, some to non-ASCII names), one obfuscated method name shared by methods whose
//! parameters differ, methods listed over several line ranges, callees inlined into a
//! method listed before it, R8's `# {json}` comments, fields, kept classes, and classes
//! the trace never uses. Framework classes (`android.`, `java.`, ...) are left as they
//! are and not listed, as a build leaves them.

use crate::scenario::{generate, Config};
use crate::writer::{MethodDef, Trace};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Which tool's mapping to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MappingStyle {
    /// R8 (map version 2.2): a header, `a:b:` output line ranges with `:x:y` original
    /// lines, inlined callees, JSON comments.
    R8,
    /// ProGuard's own format: no header, `a:b:` original line ranges.
    ProGuard,
}

/// An obfuscated trace and its mapping.
#[derive(Debug, Clone)]
pub struct Obfuscated {
    pub trace: Trace,
    pub mapping: String,
    /// Obfuscated class name -> original, of every class renamed.
    pub classes: BTreeMap<String, String>,
}

const FRAMEWORK: [&str; 6] = ["android.", "java.", "javax.", "dalvik.", "kotlin.", "com.android."];

/// Whether a build leaves `class` alone.
pub fn is_framework(class: &str) -> bool {
    FRAMEWORK.iter().any(|p| class.starts_with(p))
}

/// The `k`th short name: `a`, `b`, … `z`, then two letters; every fifth from an alphabet
/// of modifier letters, as obfuscation dictionaries give.
fn short_name(k: usize) -> String {
    const LATIN: &[char] = &['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm'];
    const MODIFIERS: &[char] = &['ˊ', 'ˋ', 'ˎ', 'ᐝ', 'ι'];
    let alphabet = if k % 5 == 4 { MODIFIERS } else { LATIN };
    let mut n = k;
    let mut out = String::new();
    loop {
        out.insert(0, alphabet[n % alphabet.len()]);
        n /= alphabet.len();
        if n == 0 {
            break;
        }
        n -= 1;
    }
    if k % 5 == 4 {
        // Keep the modifier names apart from each other whatever `k`.
        write!(out, "{}", k / 5).unwrap();
    }
    out
}

/// A generated trace whose names have what real apps have: a framework class, non-ASCII
/// names, and app classes (and `java.lang.String`) inside signatures.
pub fn app_trace(seed: u64) -> Trace {
    let config = Config { methods: 24, threads: 3, ..Config::default() };
    let mut trace = generate(seed, &config).trace;
    for m in &mut trace.methods {
        m.class = match m.class.as_str() {
            "com.example.C0" => "android.os.Handler".into(),
            "com.example.C1" => "com.exämple.Ünïcode".into(),
            other => other.into(),
        };
    }
    let classes: Vec<String> = trace.methods.iter().map(|m| m.class.clone()).collect();
    for (i, m) in trace.methods.iter_mut().enumerate() {
        if m.signature == "()V" && i % 2 == 0 {
            let other = classes[(i + 4) % classes.len()].replace('.', "/");
            m.signature = format!("(L{other};I[Ljava/lang/String;)L{other};");
        }
        m.source = format!("{}.java", m.class.rsplit('.').next().unwrap_or_default());
    }
    trace
}

/// `trace` obfuscated in `style`, with its mapping.
pub fn obfuscate(trace: &Trace, style: MappingStyle) -> Obfuscated {
    obfuscate_build(trace, style, 0)
}

/// `trace` obfuscated in `style` as build number `build` does: another build gives the
/// same classes other names.
pub fn obfuscate_build(trace: &Trace, style: MappingStyle, build: usize) -> Obfuscated {
    let mut classes: BTreeMap<String, String> = BTreeMap::new();
    let mut obfuscated_of: BTreeMap<String, String> = BTreeMap::new();
    for m in &trace.methods {
        let mut add = |class: &str| {
            if !is_framework(class) && !obfuscated_of.contains_key(class) {
                let k = obfuscated_of.len() + build * 7;
                let package = ["a.a", "a.b", ""][k % 3];
                let short = short_name(k);
                let name = if package.is_empty() { short } else { format!("{package}.{short}") };
                obfuscated_of.insert(class.to_owned(), name.clone());
                classes.insert(name, class.to_owned());
            }
        };
        add(&m.class);
        for class in signature_classes(&m.signature) {
            add(&class);
        }
    }
    let rename_sig = |sig: &str| rename_signature(sig, &obfuscated_of);
    // Per class, each method's obfuscated name: the first name not yet given to a method
    // of that class with the same obfuscated parameter list, as R8 overloads names.
    let mut names: BTreeMap<(String, String, String), String> = BTreeMap::new();
    let mut by_class: BTreeMap<&str, Vec<&MethodDef>> = BTreeMap::new();
    for m in &trace.methods {
        by_class.entry(&m.class).or_default().push(m);
    }
    for (class, methods) in &by_class {
        if is_framework(class) {
            continue;
        }
        let mut taken: Vec<(String, String)> = Vec::new();
        for m in methods {
            let key = (m.class.clone(), m.name.clone(), m.signature.clone());
            if names.contains_key(&key) {
                continue;
            }
            let params = rename_sig(&m.signature).split(')').next().unwrap_or("").to_owned();
            let name = if m.name.starts_with('<') {
                m.name.clone()
            } else {
                (0..).map(short_name).find(|n| !taken.contains(&(n.clone(), params.clone()))).unwrap()
            };
            taken.push((name.clone(), params));
            names.insert(key, name);
        }
    }
    let mut out = trace.clone();
    for m in &mut out.methods {
        if let Some(name) = names.get(&(m.class.clone(), m.name.clone(), m.signature.clone())) {
            m.name = name.clone();
        }
        if let Some(class) = obfuscated_of.get(&m.class) {
            if style == MappingStyle::R8 {
                m.source = "SourceFile".into();
            }
            m.class = class.clone();
        }
        m.signature = rename_sig(&m.signature);
    }
    let mapping = write_mapping(trace, style, &obfuscated_of, &names);
    Obfuscated { trace: out, mapping, classes }
}

fn write_mapping(
    trace: &Trace,
    style: MappingStyle,
    obfuscated_of: &BTreeMap<String, String>,
    names: &BTreeMap<(String, String, String), String>,
) -> String {
    let mut text = String::new();
    if style == MappingStyle::R8 {
        text += "# compiler: R8\n# compiler_version: 8.5.35\n# min_api: 24\n";
        text += "# {\"id\":\"com.android.tools.r8.mapping\",\"version\":\"2.2\"}\n# pg_map_id: 5b46fdc\n";
        text += "com.example.Kept -> com.example.Kept:\n    void keep() -> keep\n";
        text += "com.example.Unused -> a.a.zz:\n    void unused(int) -> a\n";
    }
    for (k, (class, obfuscated)) in obfuscated_of.iter().enumerate() {
        writeln!(text, "{class} -> {obfuscated}:").unwrap();
        if style == MappingStyle::R8 {
            let simple = class.rsplit('.').next().unwrap_or(class);
            writeln!(text, "# {{\"id\":\"sourceFile\",\"fileName\":\"{simple}.java\"}}").unwrap();
        }
        writeln!(text, "    int count -> a").unwrap();
        for (j, m) in trace.methods.iter().filter(|m| &m.class == class).enumerate() {
            let key = (m.class.clone(), m.name.clone(), m.signature.clone());
            let Some(obf) = names.get(&key) else { continue };
            let (args, ret) = java_signature(&m.signature);
            let original = m.line.unwrap_or(10 + 20 * j as i32);
            let head = format!("{ret} {}({args})", m.name);
            match style {
                MappingStyle::ProGuard => {
                    writeln!(text, "    {}:{}:{head} -> {obf}", original, original + 5).unwrap();
                }
                MappingStyle::R8 if (k + j) % 4 == 3 => {
                    // Some methods carry no line information at all.
                    writeln!(text, "    {head} -> {obf}").unwrap();
                }
                MappingStyle::R8 => {
                    writeln!(text, "    1:3:{head}:{original}:{} -> {obf}", original + 2).unwrap();
                    // Two callees inlined at output line 4, the outer one named in another class.
                    writeln!(text, "    4:4:void com.example.Helper.inner{j}(int):70:70 -> {obf}").unwrap();
                    writeln!(text, "    4:4:int outer{j}(long):80 -> {obf}").unwrap();
                    writeln!(text, "    4:4:{head}:{} -> {obf}", original + 3).unwrap();
                    writeln!(text, "      # {{\"id\":\"com.android.tools.r8.synthesized\"}}").unwrap();
                    writeln!(text, "    5:6:{head}:{}:{} -> {obf}", original + 4, original + 5).unwrap();
                }
            }
        }
    }
    text
}

/// The class names (dotted) of a descriptor's types.
fn signature_classes(signature: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = signature;
    while let Some(start) = rest.find('L') {
        let Some(end) = rest[start..].find(';') else { break };
        out.push(rest[start + 1..start + end].replace('/', "."));
        rest = &rest[start + end + 1..];
    }
    out
}

fn rename_signature(signature: &str, obfuscated_of: &BTreeMap<String, String>) -> String {
    let mut out = signature.to_owned();
    for class in signature_classes(signature) {
        if let Some(obf) = obfuscated_of.get(&class) {
            out = out.replace(&format!("L{};", class.replace('.', "/")), &format!("L{};", obf.replace('.', "/")));
        }
    }
    out
}

/// `(ILa/B;)V` as a mapping writes it: `("int,a.B", "void")`.
fn java_signature(signature: &str) -> (String, String) {
    let inner = signature.trim_start_matches('(');
    let (params, ret) = inner.split_once(')').unwrap_or((inner, "V"));
    let mut types = Vec::new();
    let mut rest = params;
    while !rest.is_empty() {
        let (ty, len) = java_type(rest);
        types.push(ty);
        rest = &rest[len..];
    }
    (types.join(","), java_type(ret).0)
}

fn java_type(descriptor: &str) -> (String, usize) {
    let dims = descriptor.bytes().take_while(|&b| b == b'[').count();
    let rest = &descriptor[dims..];
    let (base, len) = match rest.as_bytes().first() {
        Some(b'L') => {
            let end = rest.find(';').unwrap_or(rest.len() - 1);
            (rest[1..end].replace('/', "."), end + 1)
        }
        Some(b'Z') => ("boolean".into(), 1),
        Some(b'B') => ("byte".into(), 1),
        Some(b'C') => ("char".into(), 1),
        Some(b'S') => ("short".into(), 1),
        Some(b'I') => ("int".into(), 1),
        Some(b'J') => ("long".into(), 1),
        Some(b'F') => ("float".into(), 1),
        Some(b'D') => ("double".into(), 1),
        _ => ("void".into(), 1),
    };
    (format!("{base}{}", "[]".repeat(dims)), dims + len)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_distinct() {
        let names: Vec<String> = (0..2000).map(short_name).collect();
        let mut sorted = names.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len());
    }

    #[test]
    fn signatures_spell_as_java() {
        assert_eq!(java_signature("(I[[La/B;J)Lc/D;"), ("int,a.B[][],long".into(), "c.D".into()));
        assert_eq!(java_signature("()V"), ("".into(), "void".into()));
    }
}
