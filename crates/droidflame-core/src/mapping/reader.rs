//! A mapping file read line by line as its bytes stream in. Lines of classes no profile
//! uses are only counted, never parsed: most of a large app's mapping is skipped at the
//! speed of finding line ends.

use super::kept::Mapping;
use super::kept::{package, ClassEntry, LineRange, MethodEntry, Wanted};
use crate::error::{Error, ErrorKind, Result};
use crate::lines::LineSplitter;
use crate::profile::{ClassRename, Profile};
use proguard::ProguardRecord;

/// Reads a mapping file in chunks of any size, keeping what some profiles need.
///
/// ```no_run
/// # let (trace, mapping_txt) = (Vec::<u8>::new(), Vec::<u8>::new());
/// let mut analysis = droidflame_core::analyze(&trace)?;
/// let mut reader = droidflame_core::mapping::MappingReader::new(&[&analysis.profile]);
/// for chunk in mapping_txt.chunks(1 << 20) {
///     reader.push(chunk)?;
/// }
/// let report = analysis.deobfuscate(&reader.finish()?);
/// # Ok::<(), droidflame_core::Error>(())
/// ```
#[derive(Debug)]
pub struct MappingReader {
    lines: LineSplitter,
    state: ReadState,
}

#[derive(Debug)]
struct ReadState {
    wanted: Wanted,
    mapping: Mapping,
    /// The obfuscated name of the class whose members follow, when a profile uses it.
    current: Option<String>,
    /// A class line has been read (members before one mean this is no mapping).
    in_classes: bool,
    /// The last method line of the current class, held until the next line tells
    /// whether it was a callee inlined into that one.
    pending: Option<(String, MethodEntry)>,
    error: Option<Error>,
}

impl MappingReader {
    /// A reader that keeps the classes `profiles` use.
    pub fn new(profiles: &[&Profile]) -> MappingReader {
        MappingReader {
            lines: LineSplitter::default(),
            state: ReadState {
                wanted: Wanted::of(profiles),
                mapping: Mapping::default(),
                current: None,
                in_classes: false,
                pending: None,
                error: None,
            },
        }
    }

    /// Keeps what `profile` needs too: for one file read for several profiles. Call it
    /// before the first `push`.
    pub fn want(&mut self, profile: &Profile) {
        self.state.wanted.add_profile(profile);
    }

    /// Takes in the original names a trace itself gives, as a mapping file's class and
    /// method lines would give them (methods without their signature, which the trace does
    /// not give).
    pub(crate) fn renames(&mut self, renames: &[ClassRename]) {
        let state = &mut self.state;
        for class in renames {
            state.class(&class.original, &class.obfuscated);
            state.mapping.facts.lines += 1;
            for (obfuscated, original) in &class.methods {
                // `Class.method`: moved there from another class.
                let (moved_from, name) = match original.rsplit_once('.') {
                    Some((from, name)) if from != class.original => (Some(from.to_owned()), name),
                    Some((_, name)) => (None, name),
                    None => (None, original.as_str()),
                };
                let entry = MethodEntry {
                    original: name.to_owned(),
                    moved_from,
                    arguments: String::new(),
                    returns: String::new(),
                    residual: None,
                    lines: None,
                };
                state.mapping.facts.lines += 1;
                state.method(obfuscated, entry);
            }
        }
        state.end_class();
    }

    /// Reads the next bytes of the file.
    pub fn push(&mut self, bytes: &[u8]) -> Result<()> {
        let state = &mut self.state;
        self.lines.push(bytes, &mut |line| state.line(line))?;
        match state.error.take() {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }

    /// Ends the file: what the profiles need of it, or why it is no mapping.
    pub fn finish(mut self) -> Result<Mapping> {
        let state = &mut self.state;
        self.lines.finish(&mut |line| state.line(line));
        if let Some(error) = state.error.take() {
            return Err(error);
        }
        state.end_class();
        if state.mapping.facts.class_lines == 0 {
            let what = if state.mapping.facts.lines == 0 { "the file is empty" } else { "it has no class lines" };
            return Err(Error::new(
                ErrorKind::NotAMapping,
                format!("{what} (an R8 or ProGuard mapping.txt has lines such as `com.example.Foo -> a.b:`)"),
            ));
        }
        Ok(self.state.mapping)
    }
}

impl ReadState {
    fn line(&mut self, line: &[u8]) {
        if self.error.is_some() {
            return;
        }
        let facts = &mut self.mapping.facts;
        facts.lines += 1;
        let member = matches!(line.first(), Some(b' ' | b'\t'));
        if line.trim_ascii().is_empty() || (self.current.is_none() && self.in_classes && (member || line[0] == b'#')) {
            // Blank, or a member or comment of a class no profile uses.
            return;
        }
        if let Some(json) = r8_comment(line) {
            return self.r8_comment(json, member);
        }
        match ProguardRecord::try_parse(line) {
            Ok(ProguardRecord::Class { original, obfuscated }) => self.class(original, obfuscated),
            Ok(ProguardRecord::Header { key, value }) => self.header(key, value),
            Ok(ProguardRecord::R8Header(_)) => {}
            Ok(ProguardRecord::Method { ty, original, obfuscated, arguments, original_class, line_mapping }) => {
                if !self.in_classes {
                    return self.refuse(line, "a member line before any class line");
                }
                let lines = line_mapping.and_then(|m| {
                    Some(LineRange {
                        start: u32::try_from(m.startline?).ok()?,
                        end: u32::try_from(m.endline?).ok()?,
                        original: m.original_startline.and_then(|s| {
                            Some((u32::try_from(s).ok()?, m.original_endline.and_then(|e| u32::try_from(e).ok())))
                        }),
                    })
                });
                let entry = MethodEntry {
                    original: original.to_owned(),
                    moved_from: original_class.map(str::to_owned),
                    arguments: arguments.to_owned(),
                    returns: ty.to_owned(),
                    residual: None,
                    lines,
                };
                self.method(obfuscated, entry);
            }
            Ok(ProguardRecord::Field { original, obfuscated, .. }) if self.in_classes => {
                if let Some(class) = self.current.as_ref().and_then(|c| self.mapping.classes.get_mut(c)) {
                    class.fields.entry(obfuscated.to_owned()).or_insert_with(|| original.to_owned());
                }
            }
            Ok(ProguardRecord::Field { .. }) => self.refuse(line, "a member line before any class line"),
            Err(_) if !self.in_classes => self.refuse(line, "no mapping line"),
            Err(_) => {
                let facts = &mut self.mapping.facts;
                facts.skipped_lines += 1;
                facts.first_skipped.get_or_insert(facts.lines);
                if !member {
                    // A damaged class line: its members cannot be told whose they are.
                    self.end_class();
                    self.current = None;
                }
            }
        }
    }

    fn refuse(&mut self, line: &[u8], what: &str) {
        if self.mapping.facts.lines == 1 && line.starts_with(&[0x1f, 0x8b]) {
            self.error = Some(Error::new(
                ErrorKind::NotAMapping,
                "this file is gzip-compressed: unpack it first (`gunzip mapping.txt.gz`)",
            ));
            return;
        }
        let shown: String = String::from_utf8_lossy(line)
            .chars()
            .take(60)
            .map(|c| if c.is_control() { '\u{fffd}' } else { c })
            .collect();
        self.error = Some(Error::new(
            ErrorKind::NotAMapping,
            format!(
                "line {} is {what}: `{shown}` (an R8 or ProGuard mapping.txt starts with `# compiler: R8` comments \
                 or lines such as `com.example.Foo -> a.b:`)",
                self.mapping.facts.lines
            ),
        ));
    }

    fn class(&mut self, original: &str, obfuscated: &str) {
        self.end_class();
        self.in_classes = true;
        let facts = &mut self.mapping.facts;
        facts.class_lines += 1;
        let renamed = original != obfuscated;
        if renamed {
            let package = package(obfuscated);
            if self.wanted.packages.contains(package) && !facts.obfuscated_packages.contains(package) {
                facts.obfuscated_packages.insert(package.to_owned());
            }
            if self.wanted.classes.contains(original) && !facts.seen_as_original.contains(original) {
                facts.seen_as_original.insert(original.to_owned());
            }
        }
        self.current = None;
        if self.wanted.classes.contains(obfuscated) {
            // A class listed twice keeps its first entry; members of the second are added.
            self.mapping.classes.entry(obfuscated.to_owned()).or_insert_with(|| ClassEntry {
                original: original.to_owned(),
                source_file: None,
                methods: Default::default(),
                fields: Default::default(),
            });
            self.current = Some(obfuscated.to_owned());
        }
    }

    fn header(&mut self, key: &str, value: Option<&str>) {
        let facts = &mut self.mapping.facts;
        let slot = match key {
            "compiler" => &mut facts.compiler,
            "compiler_version" => &mut facts.compiler_version,
            "pg_map_id" => &mut facts.map_id,
            _ => return,
        };
        if slot.is_none() {
            *slot = value.map(str::to_owned);
        }
    }

    /// R8's `# {json}` comments: a class's source file (at column 0, after its class
    /// line), a method's residual signature (indented, after its method line). The
    /// `proguard` crate reads them too but does not name its type for them.
    fn r8_comment(&mut self, json: &str, member: bool) {
        let Ok(comment) = serde_json::from_str::<R8Comment>(json) else { return };
        match (comment.id.as_str(), member) {
            ("sourceFile", false) => {
                if let (Some(class), Some(file)) =
                    (self.current.as_ref().and_then(|c| self.mapping.classes.get_mut(c)), comment.file_name)
                {
                    class.source_file = Some(file);
                }
            }
            ("com.android.tools.r8.residualsignature", true) => {
                if let (Some((_, entry)), Some(signature)) = (self.pending.as_mut(), comment.signature) {
                    entry.residual = Some(signature);
                }
            }
            _ => {}
        }
    }

    fn method(&mut self, obfuscated: &str, entry: MethodEntry) {
        if self.current.is_none() {
            return;
        }
        if let Some((name, previous)) = self.pending.take() {
            let single_original = matches!(entry.lines.and_then(|l| l.original), Some((_, None)));
            let inlined =
                name == obfuscated && previous.lines.is_some() && single_original && same_range(&previous, &entry);
            if !inlined {
                self.keep(name, previous);
            }
        }
        self.pending = Some((obfuscated.to_owned(), entry));
    }

    fn end_class(&mut self) {
        if let Some((name, entry)) = self.pending.take() {
            self.keep(name, entry);
        }
    }

    fn keep(&mut self, obfuscated: String, entry: MethodEntry) {
        let Some(class) = self.current.as_ref().and_then(|c| self.mapping.classes.get_mut(c)) else { return };
        class.methods.entry(obfuscated).or_default().push(entry);
    }
}

fn same_range(a: &MethodEntry, b: &MethodEntry) -> bool {
    matches!((a.lines, b.lines), (Some(x), Some(y)) if (x.start, x.end) == (y.start, y.end))
}

/// The JSON of a `# {json}` line.
fn r8_comment(line: &[u8]) -> Option<&str> {
    let rest = line.trim_ascii_start().strip_prefix(b"#")?.trim_ascii_start();
    rest.starts_with(b"{").then(|| std::str::from_utf8(rest).ok()).flatten()
}

/// The fields of R8's comments that a method trace can use.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct R8Comment {
    id: String,
    file_name: Option<String>,
    signature: Option<String>,
}
