//! The text sections: the key of regular files and the summaries of streaming and V2
//! files. Parsed line by line (a section starts only on a whole line equal to its name,
//! never on a method name that merely starts with one), with options split at the first
//! `=`.

use super::names::{parse_method_line, parse_thread_line, trim_line_end};
use super::records::ArtRecords;
use crate::profile::ProfileBuilder;
use crate::text::decode_java;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Section {
    Start,
    Version,
    Options,
    Threads,
    Methods,
    End,
}

#[derive(Debug, Clone)]
pub struct KeyParser {
    section: Section,
    pub version: Option<u32>,
    pub options: Vec<(String, String)>,
    /// A thread line, held until we know no continuation line follows (a thread name may
    /// hold a newline).
    pending_thread: Option<(u32, Vec<u8>)>,
    pub bad_lines: u64,
}

impl KeyParser {
    pub fn new() -> Self {
        KeyParser { section: Section::Start, version: None, options: Vec::new(), pending_thread: None, bad_lines: 0 }
    }

    pub fn is_done(&self) -> bool {
        self.section == Section::End
    }

    pub fn started(&self) -> bool {
        self.section != Section::Start
    }

    /// Feeds one line (with or without its `\n`). Returns `false` for a first line that
    /// is not `*version`.
    pub fn line(&mut self, line: &[u8], art: &mut ArtRecords, b: &mut ProfileBuilder) -> bool {
        let line = trim_line_end(line);
        let header = match line {
            b"*version" => Some(Section::Version),
            b"*threads" => Some(Section::Threads),
            b"*methods" => Some(Section::Methods),
            b"*end" => Some(Section::End),
            _ => None,
        };
        if let Some(next) = header {
            self.flush_thread(art, b);
            self.section = next;
            return true;
        }
        match self.section {
            Section::Start => return false,
            Section::Version => {
                self.version = std::str::from_utf8(line).ok().and_then(|v| v.trim().parse().ok());
                self.section = Section::Options;
            }
            Section::Options => match line.iter().position(|&b| b == b'=') {
                Some(eq) => self.options.push((decode_java(&line[..eq]), decode_java(&line[eq + 1..]))),
                None if line.is_empty() => {}
                None => self.bad_lines += 1,
            },
            Section::Threads => match parse_thread_line(line) {
                Some((id, name)) => {
                    self.flush_thread(art, b);
                    self.pending_thread = Some((id, name.to_vec()));
                }
                None => match &mut self.pending_thread {
                    // A newline inside a thread name (legal in Java): keep it in the name.
                    Some((_, name)) => {
                        name.push(b'\n');
                        name.extend_from_slice(line);
                    }
                    None if line.is_empty() => {}
                    None => self.bad_lines += 1,
                },
            },
            Section::Methods => match parse_method_line(line) {
                Some((id, info)) => art.define_method(id, info, b),
                None if line.is_empty() => {}
                None => self.bad_lines += 1,
            },
            Section::End => {}
        }
        true
    }

    fn flush_thread(&mut self, art: &mut ArtRecords, b: &mut ProfileBuilder) {
        if let Some((id, name)) = self.pending_thread.take() {
            art.list_thread(id, decode_java(&name), b);
        }
    }

    /// Parses a whole text block (a summary packet).
    pub fn parse_all(&mut self, text: &[u8], art: &mut ArtRecords, b: &mut ProfileBuilder) {
        for line in text.split_inclusive(|&c| c == b'\n') {
            self.line(line, art, b);
        }
        self.flush_thread(art, b);
    }

    pub fn option(&self, key: &str) -> Option<&str> {
        self.options.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }
}
