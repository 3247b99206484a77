//! JVM method descriptors (`(ILa/b;[J)V`), as method traces give signatures: their class
//! names renamed, and their parameter types spelled as a mapping file spells them
//! (`int,com.example.Foo,long[]`).

/// The parameter and return types of a descriptor, each one type descriptor (`I`,
/// `La/b;`, `[[J`); `None` when `signature` is no method descriptor.
pub(crate) fn split(signature: &str) -> Option<(Vec<&str>, &str)> {
    let rest = signature.strip_prefix('(')?;
    let close = rest.find(')')?;
    let (mut params, ret) = (&rest[..close], &rest[close + 1..]);
    let mut types = Vec::new();
    while !params.is_empty() {
        let len = type_len(params)?;
        types.push(&params[..len]);
        params = &params[len..];
    }
    (type_len(ret) == Some(ret.len())).then_some((types, ret))
}

/// The length in bytes of the type descriptor at the start of `text`.
fn type_len(text: &str) -> Option<usize> {
    let dims = text.bytes().take_while(|&b| b == b'[').count();
    match text.as_bytes().get(dims)? {
        b'L' => text[dims..].find(';').map(|end| dims + end + 1),
        b'V' | b'Z' | b'B' | b'C' | b'S' | b'I' | b'J' | b'F' | b'D' => Some(dims + 1),
        _ => None,
    }
}

/// A type descriptor as Java source spells it (`[Ljava/lang/String;` is
/// `java.lang.String[]`), its class renamed by `rename` (which takes and gives dotted
/// names).
pub(crate) fn java_type(descriptor: &str, rename: &dyn Fn(&str) -> Option<String>) -> String {
    let dims = descriptor.bytes().take_while(|&b| b == b'[').count();
    let element = &descriptor[dims..];
    let mut out = match element.as_bytes().first() {
        Some(b'L') => {
            let dotted = element[1..element.len() - 1].replace('/', ".");
            rename(&dotted).unwrap_or(dotted)
        }
        Some(b'V') => "void".into(),
        Some(b'Z') => "boolean".into(),
        Some(b'B') => "byte".into(),
        Some(b'C') => "char".into(),
        Some(b'S') => "short".into(),
        Some(b'I') => "int".into(),
        Some(b'J') => "long".into(),
        Some(b'F') => "float".into(),
        Some(b'D') => "double".into(),
        _ => element.to_owned(),
    };
    for _ in 0..dims {
        out.push_str("[]");
    }
    out
}

/// Calls `each` with every class name (dotted) that `signature` mentions.
pub(crate) fn for_each_class(signature: &str, mut each: impl FnMut(&str)) {
    let Some((params, ret)) = split(signature) else { return };
    for descriptor in params.into_iter().chain([ret]) {
        let element = descriptor.trim_start_matches('[');
        if let Some(class) = element.strip_prefix('L').and_then(|e| e.strip_suffix(';')) {
            each(&class.replace('/', "."));
        }
    }
}

/// `signature` with each class renamed by `rename` (dotted names in and out), or `None`
/// when no class in it is renamed.
pub(crate) fn rename_classes(signature: &str, rename: &dyn Fn(&str) -> Option<String>) -> Option<String> {
    let (params, ret) = split(signature)?;
    let mut changed = false;
    let mut out = String::with_capacity(signature.len() + 16);
    let mut push = |descriptor: &str, out: &mut String| {
        let dims = descriptor.bytes().take_while(|&b| b == b'[').count();
        let element = &descriptor[dims..];
        out.push_str(&descriptor[..dims]);
        match element.strip_prefix('L').and_then(|e| e.strip_suffix(';')) {
            Some(class) => match rename(&class.replace('/', ".")) {
                Some(original) => {
                    changed = true;
                    out.push('L');
                    out.push_str(&original.replace('.', "/"));
                    out.push(';');
                }
                None => out.push_str(element),
            },
            None => out.push_str(element),
        }
    };
    out.push('(');
    for param in params {
        push(param, &mut out);
    }
    out.push(')');
    push(ret, &mut out);
    changed.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn renamer(from: &str, to: &str) -> impl Fn(&str) -> Option<String> {
        let (from, to) = (from.to_owned(), to.to_owned());
        move |class: &str| (class == from).then(|| to.clone())
    }

    #[test]
    fn splits_descriptors() {
        assert_eq!(split("(ILa/b;[[J)V"), Some((vec!["I", "La/b;", "[[J"], "V")));
        assert_eq!(split("()La/b;"), Some((vec![], "La/b;")));
        assert_eq!(split("(I"), None);
        assert_eq!(split("(Q)V"), None);
        assert_eq!(split("()VV"), None);
        assert_eq!(split(""), None);
    }

    #[test]
    fn spells_java_types() {
        let rename = renamer("a.b", "com.example.Foo");
        assert_eq!(java_type("I", &rename), "int");
        assert_eq!(java_type("[[J", &rename), "long[][]");
        assert_eq!(java_type("[La/b;", &rename), "com.example.Foo[]");
        assert_eq!(java_type("Ljava/lang/String;", &rename), "java.lang.String");
    }

    #[test]
    fn renames_classes_inside() {
        let rename = renamer("a.b", "com.example.Föö");
        assert_eq!(
            rename_classes("(ILa/b;[La/b;)La/b;", &rename).as_deref(),
            Some("(ILcom/example/Föö;[Lcom/example/Föö;)Lcom/example/Föö;")
        );
        assert_eq!(rename_classes("(I)V", &rename), None);
        assert_eq!(rename_classes("not a descriptor", &rename), None);
        let mut seen = Vec::new();
        for_each_class("(ILa/b;[Lc$d;)Ljava/lang/String;", |c| seen.push(c.to_owned()));
        assert_eq!(seen, ["a.b", "c$d", "java.lang.String"]);
    }
}
