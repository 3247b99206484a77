//! Bytes in chunks of any size joined into text lines, for the formats made of lines.
//! Nothing here knows what a line means.

use crate::error::{Error, ErrorKind, Result};

/// Longer lines are refused: no real ftrace or mapping line comes near, and minified
/// viewer JavaScript in systrace HTML stays far below.
pub(crate) const MAX_LINE: usize = 64 << 20;

/// Joins bytes into lines; a line is handed on without its `\n` or `\r`.
#[derive(Debug, Default)]
pub(crate) struct LineSplitter {
    partial: Vec<u8>,
}

impl LineSplitter {
    pub(crate) fn push(&mut self, mut bytes: &[u8], on_line: &mut dyn FnMut(&[u8])) -> Result<()> {
        while let Some(nl) = memchr::memchr(b'\n', bytes) {
            if self.partial.is_empty() {
                on_line(strip_cr(&bytes[..nl]));
            } else {
                self.partial.extend_from_slice(&bytes[..nl]);
                on_line(strip_cr(&self.partial));
                self.partial.clear();
            }
            bytes = &bytes[nl + 1..];
        }
        self.partial.extend_from_slice(bytes);
        if self.partial.len() > MAX_LINE {
            return Err(Error::new(
                ErrorKind::Limit,
                format!("a line is longer than {} MiB (the line-length limit)", MAX_LINE >> 20),
            ));
        }
        Ok(())
    }

    /// Forgets the pending part of a line (framing that must not reach the text).
    pub(crate) fn partial_drop(&mut self) {
        self.partial.clear();
    }

    /// A last line with no `\n`.
    pub(crate) fn finish(&mut self, on_line: &mut dyn FnMut(&[u8])) {
        if !self.partial.is_empty() {
            on_line(strip_cr(&self.partial));
            self.partial.clear();
        }
    }
}

pub(crate) fn strip_cr(line: &[u8]) -> &[u8] {
    let mut end = line.len();
    while end > 0 && line[end - 1] == b'\r' {
        end -= 1;
    }
    &line[..end]
}
