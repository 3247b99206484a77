//! Names as the profile keeps them: cut to the name-length limit, each cut counted by the
//! sink that made it (the profile's `long_names` repair is their sum).

/// The name-length limit of one sink, and how many names it cut.
#[derive(Debug, Clone, Copy, serde::Serialize, serde::Deserialize)]
pub(crate) struct NameLimit {
    max_bytes: usize,
    /// Names cut so far.
    pub(crate) cut: u64,
}

impl NameLimit {
    /// At most `max_bytes` bytes a name, and never less than 4 (one byte and `…`).
    pub(crate) fn new(max_bytes: usize) -> Self {
        NameLimit { max_bytes: max_bytes.max(4), cut: 0 }
    }

    /// The same limit with nothing cut yet: a sink that reads on from another.
    pub(crate) fn fresh(self) -> Self {
        NameLimit { cut: 0, ..self }
    }

    /// A name as the profile keeps it: cut to the limit (on a character boundary, ending
    /// in `…`), the cut counted; a short name is moved as it is.
    pub(crate) fn clip(&mut self, mut name: String) -> String {
        if name.len() > self.max_bytes {
            let mut end = self.max_bytes - '…'.len_utf8();
            while !name.is_char_boundary(end) {
                end -= 1;
            }
            name.truncate(end);
            name.push('…');
            self.cut += 1;
        }
        name
    }
}
