//! What one traced method of a mapped class was called in the source.

use super::descriptor;
use super::kept::{ClassEntry, MethodEntry};

/// What a traced method resolves to.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Resolution<'m> {
    /// One original: its class (where R8 moved the method) and name, and each of its
    /// entries (line ranges).
    Mapped { moved_from: Option<&'m str>, name: &'m str, entries: Vec<&'m MethodEntry> },
    /// Several originals that the signature cannot tell apart.
    Ambiguous,
    /// The class lists no method of that name.
    NotFound,
}

/// Resolves method `name` with descriptor `signature` of `class`; `rename` gives the
/// original of an obfuscated class (dotted names).
pub(super) fn resolve<'m>(
    class: &'m ClassEntry,
    name: &str,
    signature: &str,
    rename: &dyn Fn(&str) -> Option<String>,
) -> Resolution<'m> {
    let Some(entries) = class.methods.get(name) else { return Resolution::NotFound };
    let all: Vec<&MethodEntry> = entries.iter().collect();
    if let Some(one) = single(&all) {
        return one;
    }
    let Some((params, returns)) = descriptor::split(signature) else {
        return Resolution::Ambiguous;
    };
    let params: Vec<String> = params.iter().map(|p| descriptor::java_type(p, rename)).collect();
    let by_params: Vec<&MethodEntry> = all
        .iter()
        .copied()
        .filter(|e| match &e.residual {
            Some(residual) => residual == signature,
            None => same_arguments(&e.arguments, &params),
        })
        .collect();
    if let Some(one) = single(&by_params) {
        return one;
    }
    // Bridges and covariant overrides differ in their return type only.
    let returns = descriptor::java_type(returns, rename);
    let by_return: Vec<&MethodEntry> = by_params.iter().copied().filter(|e| e.returns == returns).collect();
    single(&by_return).unwrap_or(Resolution::Ambiguous)
}

/// `Mapped` when `entries` (not empty) are all one original method.
fn single<'m>(entries: &[&'m MethodEntry]) -> Option<Resolution<'m>> {
    let first = entries.first()?;
    let same = |e: &&MethodEntry| e.original == first.original && e.moved_from == first.moved_from;
    entries.iter().all(same).then(|| Resolution::Mapped {
        moved_from: first.moved_from.as_deref(),
        name: &first.original,
        entries: entries.to_vec(),
    })
}

fn same_arguments(arguments: &str, params: &[String]) -> bool {
    if arguments.is_empty() {
        return params.is_empty();
    }
    let mut listed = arguments.split(',').map(str::trim);
    params.iter().all(|p| listed.next() == Some(p.as_str())) && listed.next().is_none()
}

/// The original line of output line `line`, from the entries of one method: mapped
/// through the R8 line range that holds it; as it is where the mapping (ProGuard's own
/// format) keeps original lines; `None` where no range holds it.
pub(super) fn original_line(entries: &[&MethodEntry], line: i32) -> Option<i32> {
    let at = u32::try_from(line).ok()?;
    for range in entries.iter().filter_map(|e| e.lines) {
        let Some((start, end)) = range.original else { return Some(line) };
        if (range.start..=range.end).contains(&at) {
            let original = match end {
                Some(end) if end.checked_sub(start) == range.end.checked_sub(range.start) => start + (at - range.start),
                _ => start,
            };
            return i32::try_from(original).ok();
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::kept::LineRange;
    use super::*;

    fn entry(start: u32, end: u32, original: Option<(u32, Option<u32>)>) -> MethodEntry {
        MethodEntry {
            original: "m".into(),
            moved_from: None,
            arguments: String::new(),
            returns: "void".into(),
            residual: None,
            lines: Some(LineRange { start, end, original }),
        }
    }

    fn method(original: &str, returns: &str) -> MethodEntry {
        MethodEntry {
            original: original.into(),
            moved_from: None,
            arguments: String::new(),
            returns: returns.into(),
            residual: None,
            lines: None,
        }
    }

    #[test]
    fn methods_alike_but_for_their_return_type_are_told_apart_by_it() {
        // `java.lang.Object getValue() -> a` and `java.lang.String getName() -> a`.
        let entries = vec![method("getValue", "java.lang.Object"), method("getName", "java.lang.String")];
        let class = ClassEntry {
            original: "com.example.Box".into(),
            source_file: None,
            methods: [("a".to_owned(), entries)].into_iter().collect(),
            fields: Default::default(),
        };
        let listed = &class.methods["a"];
        let plain = |_: &str| None;
        let named = |signature| match resolve(&class, "a", signature, &plain) {
            Resolution::Mapped { name, entries, .. } => Some((name, entries.len())),
            _ => None,
        };
        assert_eq!(named("()Ljava/lang/String;"), Some(("getName", 1)));
        assert_eq!(named("()Ljava/lang/Object;"), Some(("getValue", 1)));
        assert_eq!(resolve(&class, "a", "()I", &plain), Resolution::Ambiguous, "neither returns an int");
        assert_eq!(resolve(&class, "a", "(I)Ljava/lang/String;", &plain), Resolution::Ambiguous, "neither takes one");
        assert_eq!(resolve(&class, "b", "()V", &plain), Resolution::NotFound);
        assert!(matches!(
            resolve(&class, "a", "()Ljava/lang/String;", &plain),
            Resolution::Mapped { entries, .. } if std::ptr::eq(entries[0], &listed[1])
        ));
    }

    #[test]
    fn output_lines_map_to_original_lines() {
        let (a, b) = (entry(1, 3, Some((20, Some(22)))), entry(4, 6, Some((40, None))));
        let entries = [&a, &b];
        assert_eq!(original_line(&entries, 2), Some(21), "a range maps line for line");
        // `1:3:...:20:22` holds output lines 1 to 3, both ends included.
        assert_eq!(original_line(&entries, 1), Some(20), "a range's first line");
        assert_eq!(original_line(&entries, 3), Some(22), "a range's last line");
        assert_eq!(original_line(&entries, 6), Some(40), "the last line of a range to one line");
        assert_eq!(original_line(&entries, 5), Some(40), "a single original line");
        assert_eq!(original_line(&entries, 9), None, "no range holds it: no line rather than a wrong one");
        // `12:23:…:35:35`: an inlined call's twelve output lines are all its one original line.
        let call = entry(12, 23, Some((35, Some(35))));
        assert_eq!(original_line(&[&call], 20), Some(35), "a call inlined over many lines");
        let proguard = entry(20, 25, None);
        assert_eq!(original_line(&[&proguard], 21), Some(21), "ProGuard keeps original lines");
    }
}
