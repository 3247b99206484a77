//! Method and thread lines, as the key section, streaming packets and V2 packets write them.

use crate::profile::FrameInfo;
use crate::text::decode_java;

/// Parses a method id as ART (`%#x`: `0x1a4`, but a bare `0`) and Dalvik (`0x%08x`) print
/// it. Always hexadecimal, whatever the prefix.
pub fn parse_method_id(field: &[u8]) -> Option<u64> {
    let digits = field.strip_prefix(b"0x").or_else(|| field.strip_prefix(b"0X")).unwrap_or(field);
    if digits.is_empty() || digits.len() > 16 {
        return None;
    }
    let mut value: u64 = 0;
    for &d in digits {
        let v = (d as char).to_digit(16)?;
        value = (value << 4) | u64::from(v);
    }
    Some(value)
}

/// `id \t class \t name \t signature \t source [\t line]` (V1 `*methods` and streaming).
/// Returns `None` when the line does not start with a hex id and a tab.
pub fn parse_method_line(line: &[u8]) -> Option<(u64, FrameInfo)> {
    let line = trim_line_end(line);
    let tab = line.iter().position(|&b| b == b'\t')?;
    let id = parse_method_id(&line[..tab])?;
    Some((id, parse_method_fields(&line[tab + 1..])))
}

/// `class \t name \t signature \t source [\t line]`: missing fields are empty.
pub fn parse_method_fields(fields: &[u8]) -> FrameInfo {
    let mut parts = trim_line_end(fields).split(|&b| b == b'\t');
    let mut next = || parts.next().unwrap_or_default();
    let class = dotted_class(&decode_java(next()));
    let name = decode_java(next());
    let signature = decode_java(next());
    let source = next();
    let source = match source {
        b"" | b"(null)" => None,
        s => Some(decode_java(s)),
    };
    // Dalvik writes the line of pc 0: negative means native or no code, i.e. unknown.
    let line = std::str::from_utf8(next()).ok().and_then(|l| l.trim().parse::<i32>().ok()).filter(|&l| l > 0);
    FrameInfo { class, name, signature, source, line }
}

/// Dalvik writes `java/lang/String`; ART already writes `java.lang.String`.
pub fn dotted_class(class: &str) -> String {
    if class.contains('/') {
        class.replace('/', ".")
    } else {
        class.to_owned()
    }
}

pub fn trim_line_end(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// `<decimal id> \t <name>` from `*threads`; `None` if the line is not of that shape
/// (then it continues the previous name: Java thread names may hold a newline).
pub fn parse_thread_line(line: &[u8]) -> Option<(u32, &[u8])> {
    let digits = line.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || digits > 10 {
        return None;
    }
    let id: u32 = std::str::from_utf8(&line[..digits]).ok()?.parse().ok()?;
    match line.get(digits) {
        Some(b'\t') => Some((id, &line[digits + 1..])),
        None => Some((id, &[])),
        Some(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn e1_bare_zero_and_hex_ids() {
        assert_eq!(parse_method_id(b"0"), Some(0));
        assert_eq!(parse_method_id(b"0x1a4"), Some(0x1a4));
        assert_eq!(parse_method_id(b"0X1A4"), Some(0x1a4));
        assert_eq!(parse_method_id(b"1a4"), Some(0x1a4));
        assert_eq!(parse_method_id(b"0x"), None);
        assert_eq!(parse_method_id(b"zz"), None);
    }

    #[test]
    fn e3_null_source_is_no_source() {
        let (_, m) = parse_method_line(b"0x4\tFoo$1\trun\t()V\t(null)\n").unwrap();
        assert_eq!(m.source, None);
        assert_eq!(m.class, "Foo$1");
    }

    #[test]
    fn e28_dalvik_slash_names_and_line_numbers() {
        let (id, m) =
            parse_method_line(b"0x4001d2c8\tjava/lang/String\tvalueOf\t(I)Ljava/lang/String;\tString.java\t-1")
                .unwrap();
        assert_eq!(id, 0x4001d2c8);
        assert_eq!(m.class, "java.lang.String");
        assert_eq!(m.line, None);
        let (_, m) = parse_method_line(b"0x8\ta/B\tc\t()V\tB.java\t42").unwrap();
        assert_eq!(m.line, Some(42));
    }

    #[test]
    fn short_method_lines_do_not_fail() {
        let (id, m) = parse_method_line(b"0x8\tOnlyClass").unwrap();
        assert_eq!((id, m.class.as_str(), m.name.as_str()), (8, "OnlyClass", ""));
        assert!(parse_method_line(b"no tab").is_none());
    }

    #[test]
    fn e13_thread_line_splits_at_the_first_tab() {
        assert_eq!(parse_thread_line(b"12\tname\twith tab"), Some((12, &b"name\twith tab"[..])));
        assert_eq!(parse_thread_line(b"continued name"), None);
    }
}
