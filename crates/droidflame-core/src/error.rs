//! The one error type of the core. Every message says what is wrong and where, in words a
//! user can act on; the CLI prints it as one line and the web app shows it as is.

use std::fmt;

/// What kind of problem stopped the analysis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The bytes are not any trace format droidflame knows.
    NotATrace,
    /// The bytes given as an R8/ProGuard mapping file are not one.
    NotAMapping,
    /// A known format, but a variant droidflame does not read (yet).
    Unsupported,
    /// The input ends before anything usable could be read.
    Truncated,
    /// A structure inside the trace is invalid (a header field, a packet, compressed data).
    Corrupt,
    /// A documented limit was reached.
    Limit,
    /// The caller asked for something the trace does not have (a clock, a thread).
    Request,
    /// A product could not be written to its destination.
    Output,
}

/// An analysis error: a kind, a message, and the byte offset it applies to, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    offset: Option<u64>,
    message: String,
}

impl Error {
    /// An error about the input as a whole.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error { kind, offset: None, message: message.into() }
    }

    /// An error at byte `offset` of the (decompressed) input.
    pub fn at(kind: ErrorKind, offset: u64, message: impl Into<String>) -> Self {
        Error { kind, offset: Some(offset), message: message.into() }
    }

    /// What went wrong, as a category a caller can act on.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// Byte offset in the (decompressed) trace where the problem is.
    pub fn offset(&self) -> Option<u64> {
        self.offset
    }

    /// What went wrong, in words for the user (without the offset).
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl From<std::io::Error> for Error {
    /// The input could not be read (a file that went away or a disk that failed).
    fn from(error: std::io::Error) -> Self {
        Error::new(ErrorKind::Truncated, format!("the input could not be read ({error})"))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let prefix = match self.kind {
            ErrorKind::NotATrace => "not an Android trace",
            ErrorKind::NotAMapping => "not a mapping file",
            ErrorKind::Unsupported => "unsupported trace",
            ErrorKind::Truncated => match self.offset {
                Some(at) => return write!(f, "truncated at byte {at}: {}", self.message),
                None => "truncated trace",
            },
            ErrorKind::Corrupt => "corrupt trace",
            ErrorKind::Limit => "limit reached",
            ErrorKind::Request => return f.write_str(&self.message),
            ErrorKind::Output => "cannot write output",
        };
        match self.offset {
            Some(at) => write!(f, "{prefix} at byte {at}: {}", self.message),
            None => write!(f, "{prefix}: {}", self.message),
        }
    }
}

impl std::error::Error for Error {}

/// The result of every fallible call of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;
