//! A column of a heap dump's data that grows a chunk at a time.

/// Elements a chunk of a `Chunked` column holds.
const CHUNK: usize = 1 << 16;

/// A column that grows a chunk at a time, so that no element ever moves: a vector that
/// doubles copies itself into new memory each time, and in a wasm heap (which never
/// shrinks, and where the memory it left is mostly too small to use again) a dump's
/// columns would then take two to three times their size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Chunked<T> {
    chunks: Vec<Vec<T>>,
    len: usize,
}

impl<T> Default for Chunked<T> {
    fn default() -> Self {
        Chunked { chunks: Vec::new(), len: 0 }
    }
}

impl<T: Copy> Chunked<T> {
    pub(crate) fn push(&mut self, value: T) {
        if self.len % CHUNK == 0 {
            self.chunks.push(Vec::with_capacity(CHUNK));
        }
        self.chunks.last_mut().expect("a chunk").push(value);
        self.len += 1;
    }

    pub(crate) fn get(&self, at: usize) -> T {
        self.chunks[at / CHUNK][at % CHUNK]
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub(crate) fn last(&self) -> Option<T> {
        self.len.checked_sub(1).map(|at| self.get(at))
    }

    pub(crate) fn extend(&mut self, mut values: &[T]) {
        while !values.is_empty() {
            if self.len % CHUNK == 0 {
                self.chunks.push(Vec::with_capacity(CHUNK));
            }
            let chunk = self.chunks.last_mut().expect("a chunk");
            let (now, later) = values.split_at(values.len().min(CHUNK - chunk.len()));
            chunk.extend_from_slice(now);
            self.len += now.len();
            values = later;
        }
    }

    /// Elements `range`, in the slices of the chunks they lie in.
    pub(crate) fn slices(&self, range: std::ops::Range<usize>) -> impl Iterator<Item = &[T]> {
        let (first, last) = (range.start / CHUNK, range.end.div_ceil(CHUNK));
        self.chunks.get(first..last.max(first)).unwrap_or_default().iter().enumerate().map(move |(i, chunk)| {
            let base = (first + i) * CHUNK;
            &chunk[range.start.max(base) - base..range.end.min(base + chunk.len()) - base]
        })
    }
}
