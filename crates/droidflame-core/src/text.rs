//! Names in traces are raw bytes: Java's modified UTF-8 (NUL as `C0 80`, supplementary
//! characters as 6-byte surrogate pairs), sometimes plain invalid. Decode leniently, for
//! display only; never fail.

/// Decodes trace text: UTF-8, else modified UTF-8 / CESU-8, else lossy.
pub fn decode_java(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_owned(),
        Err(_) => decode_modified(bytes),
    }
}

fn decode_modified(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let rest = &bytes[i..];
        if rest.starts_with(&[0xC0, 0x80]) {
            out.push('\0');
            i += 2;
            continue;
        }
        if let Some(c) = surrogate_pair(rest) {
            out.push(c);
            i += 6;
            continue;
        }
        // Take the longest valid UTF-8 run, or replace one byte.
        match std::str::from_utf8(rest) {
            Ok(text) => {
                out.push_str(text);
                break;
            }
            Err(e) => {
                let valid = e.valid_up_to();
                if valid > 0 {
                    out.push_str(std::str::from_utf8(&rest[..valid]).unwrap_or_default());
                    i += valid;
                } else {
                    out.push(char::REPLACEMENT_CHARACTER);
                    i += e.error_len().unwrap_or(rest.len()).min(rest.len()).max(1);
                }
            }
        }
    }
    out
}

/// `ED A0-AF xx ED B0-BF xx`: a UTF-16 surrogate pair, each half as 3 bytes.
fn surrogate_pair(b: &[u8]) -> Option<char> {
    if b.len() < 6 || b[0] != 0xED || b[3] != 0xED {
        return None;
    }
    let half =
        |x: &[u8]| -> u32 { (u32::from(x[0] & 0x0F) << 12) | (u32::from(x[1] & 0x3F) << 6) | u32::from(x[2] & 0x3F) };
    let (high, low) = (half(&b[0..3]), half(&b[3..6]));
    if !(0xD800..0xDC00).contains(&high) || !(0xDC00..0xE000).contains(&low) {
        return None;
    }
    if b[1..3].iter().chain(&b[4..6]).any(|x| x & 0xC0 != 0x80) {
        return None;
    }
    char::from_u32(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
}

/// Shows the first bytes of unknown input as text a person can read in an error message.
pub fn describe_bytes(bytes: &[u8]) -> String {
    let mut out = String::new();
    for &b in bytes.iter().take(16) {
        match b {
            b' '..=b'~' if b != b'"' && b != b'\\' => out.push(b as char),
            _ => out.push_str(&format!("\\x{b:02x}")),
        }
    }
    out
}

/// Numbers in messages; the model words its own repairs with it.
pub use crate::profile::{counted, group_digits, were};

/// A decimal `u32`, nothing else.
pub fn parse_u32(digits: &[u8]) -> Option<u32> {
    parse_u64(digits).and_then(|v| u32::try_from(v).ok())
}

/// A decimal `u64` of at most 19 digits, nothing else.
pub fn parse_u64(digits: &[u8]) -> Option<u64> {
    if digits.is_empty() || digits.len() > 19 {
        return None;
    }
    digits.iter().try_fold(0u64, |acc, &b| b.is_ascii_digit().then(|| acc * 10 + u64::from(b - b'0')))
}

/// A decimal `i64`, an optional `-` then digits.
pub fn parse_i64(text: &[u8]) -> Option<i64> {
    match text.split_first() {
        Some((b'-', digits)) => parse_u64(digits).and_then(|v| i64::try_from(v).ok()).map(|v| -v),
        _ => parse_u64(text).and_then(|v| i64::try_from(v).ok()),
    }
}

/// `bytes` without ASCII white space at either end.
pub fn trim(bytes: &[u8]) -> &[u8] {
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(bytes.len());
    let end = bytes.iter().rposition(|b| !b.is_ascii_whitespace()).map_or(start, |e| e + 1);
    &bytes[start..end.max(start)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn e12_modified_utf8_nul_and_surrogates_decode() {
        // "a", NUL as C0 80, U+1F600 as a CESU surrogate pair, "b".
        let bytes = [b'a', 0xC0, 0x80, 0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80, b'b'];
        assert_eq!(decode_java(&bytes), "a\0\u{1F600}b");
    }

    #[test]
    fn e12_invalid_bytes_become_replacement_characters() {
        assert_eq!(decode_java(&[b'x', 0xFF, b'y']), "x\u{FFFD}y");
        assert_eq!(decode_java("ˊˎ".as_bytes()), "ˊˎ");
    }
}
