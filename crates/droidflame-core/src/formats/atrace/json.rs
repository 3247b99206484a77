//! JSON traces with a `systemTraceEvents` string (what systrace's JSON output and
//! `trace-data` JSON blocks hold): the string is found and unescaped as the bytes stream
//! in, and its lines are handed on.

use crate::error::{Error, ErrorKind, Result};
use crate::lines::LineSplitter;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Json {
    #[default]
    Seeking,
    /// After the key: `:` and the opening quote are next.
    AfterKey,
    AfterColon,
    InString,
    Escape,
    Unicode,
    Done,
}

/// Finds `"systemTraceEvents": "…"` in a JSON stream and hands on the string's lines,
/// unescaped. Everything else in the JSON is skipped unparsed.
#[derive(Debug, Default)]
pub struct JsonText {
    state: Json,
    matched: usize,
    hex: u32,
    hex_digits: u8,
    high_surrogate: Option<u32>,
    text: Vec<u8>,
    lines: LineSplitter,
    /// The key was found with a string value.
    pub found: bool,
    /// The key was found but its value is not a string.
    pub not_a_string: bool,
}

const KEY: &[u8] = b"\"systemTraceEvents\"";

impl JsonText {
    /// Reads the next bytes; each whole line of the string goes to `on_line`.
    pub fn push(&mut self, bytes: &[u8], on_line: &mut dyn FnMut(&[u8])) -> Result<()> {
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            i += 1;
            match self.state {
                Json::Seeking => {
                    if b == KEY[self.matched] {
                        self.matched += 1;
                        if self.matched == KEY.len() {
                            self.matched = 0;
                            self.state = Json::AfterKey;
                        }
                    } else {
                        self.matched = usize::from(b == b'"');
                    }
                }
                Json::AfterKey => match b {
                    b':' => self.state = Json::AfterColon,
                    b if b.is_ascii_whitespace() => {}
                    _ => self.state = Json::Seeking,
                },
                Json::AfterColon => match b {
                    b'"' => {
                        self.state = Json::InString;
                        self.found = true;
                    }
                    b if b.is_ascii_whitespace() => {}
                    _ => {
                        self.not_a_string = true;
                        self.state = Json::Seeking;
                    }
                },
                Json::InString => {
                    // Copy the run up to the next quote or backslash in one go.
                    let run = memchr::memchr2(b'"', b'\\', &bytes[i - 1..]).unwrap_or(bytes.len() - (i - 1));
                    self.text.extend_from_slice(&bytes[i - 1..i - 1 + run]);
                    i = i - 1 + run;
                    if let Some(&end) = bytes.get(i) {
                        i += 1;
                        if end == b'"' {
                            self.state = Json::Done;
                            self.flush(on_line)?;
                            self.lines.finish(on_line);
                        } else {
                            self.state = Json::Escape;
                        }
                    }
                }
                Json::Escape => {
                    self.state = Json::InString;
                    let c = match b {
                        b'n' => b'\n',
                        b't' => b'\t',
                        b'r' => b'\r',
                        b'b' => 8,
                        b'f' => 12,
                        b'u' => {
                            self.state = Json::Unicode;
                            self.hex = 0;
                            self.hex_digits = 0;
                            continue;
                        }
                        other => other,
                    };
                    self.text.push(c);
                }
                Json::Unicode => {
                    let digit = char::from(b).to_digit(16).ok_or_else(|| {
                        Error::new(ErrorKind::Corrupt, "a \\u escape in the JSON trace's systemTraceEvents is not hex")
                    })?;
                    self.hex = self.hex << 4 | digit;
                    self.hex_digits += 1;
                    if self.hex_digits == 4 {
                        self.state = Json::InString;
                        self.unicode();
                    }
                }
                Json::Done => return Ok(()),
            }
        }
        self.flush(on_line)
    }

    fn unicode(&mut self) {
        let unit = self.hex;
        let c = match (self.high_surrogate.take(), unit) {
            (None, 0xD800..=0xDBFF) => {
                self.high_surrogate = Some(unit);
                return;
            }
            (Some(high), 0xDC00..=0xDFFF) => char::from_u32(0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00)),
            (_, unit) => char::from_u32(unit),
        };
        let mut buf = [0u8; 4];
        self.text.extend_from_slice(c.unwrap_or('\u{FFFD}').encode_utf8(&mut buf).as_bytes());
    }

    fn flush(&mut self, on_line: &mut dyn FnMut(&[u8])) -> Result<()> {
        let text = std::mem::take(&mut self.text);
        self.lines.push(&text, on_line)?;
        self.text = text;
        self.text.clear();
        Ok(())
    }

    /// The input ended: hands on the last line, if it had no line break.
    pub fn finish(&mut self, on_line: &mut dyn FnMut(&[u8])) {
        self.lines.finish(on_line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_of(push: impl FnOnce(&mut dyn FnMut(&[u8]))) -> Vec<String> {
        let mut out = Vec::new();
        push(&mut |l: &[u8]| out.push(String::from_utf8_lossy(l).into_owned()));
        out
    }

    #[test]
    fn json_string_is_unescaped_across_any_split() {
        let json = br#"{"traceEvents": [], "x": "systemTraceEvents", "systemTraceEvents" : "a\tb\n\u00e9\ud83d\ude00 \"q\"\\\nlast", "y": 1}"#;
        for size in [1, 2, 3, 5, 7, 64] {
            let mut parser = JsonText::default();
            let got = lines_of(|out| {
                for chunk in json.chunks(size) {
                    parser.push(chunk, out).unwrap();
                }
                parser.finish(out);
            });
            assert_eq!(got, vec!["a\tb", "é😀 \"q\"\\", "last"], "chunk size {size}");
        }
    }
}
