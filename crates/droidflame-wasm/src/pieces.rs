//! One file read in pieces by the page's workers, which share no memory: each reads its
//! piece of the file (`Blob`) and sends it as bytes to the worker that joins them into a
//! session. Where the file does not split, or the join declines, the joining worker reads
//! the file once as a `Session`; the answer is the same either way.
//!
//! A worker hands its piece over in blocks it read ahead (`give`), so the file is read
//! while the core decodes; what no block holds is read where the core asks
//! (`BlobSource`).

use crate::convert::js_error;
use crate::session::{options, Session};
use droidflame_core::{PieceReader, Pieces, ReadAt, PIECES_FROM_BYTES};
use js_sys::Uint8Array;
use std::cell::RefCell;
use std::io;
use wasm_bindgen::prelude::*;
use web_sys::{Blob, FileReaderSync};

/// Files smaller than this are read once in the page. Its workers pay more than threads
/// do to read in pieces: each piece crosses to the joining worker as bytes, and the
/// browser reads the file on the same cores. With two workers on two cores (Chromium,
/// method traces, calls kept): 57 MB read in 0.86 s against 0.77 s once, 197 MB in 1.70 s
/// against 1.75 s, 500 MB in 2.75 s against 3.7 s.
pub const PAGE_PIECES_FROM_BYTES: u64 = 256 << 20;

/// A file read in pieces, joined here: this worker reads the first piece, and others the
/// rest (`PieceRead`).
#[wasm_bindgen]
pub struct PieceJoin {
    file: BlobSource,
    pieces: Option<Pieces>,
    first: Option<PieceReader>,
    first_read: u64,
}

#[wasm_bindgen]
impl PieceJoin {
    /// `file` cut into at most `wanted` pieces, for a session that keeps calls (at most
    /// `max_calls`) or not, as `Session.withCalls` and `new Session()` make. `count()` is
    /// below 2 where it is to be read once: smaller than `from_bytes` (where reading in
    /// pieces pays in the page, when not given), or not a file that splits.
    #[wasm_bindgen(constructor)]
    pub fn new(
        file: Blob,
        calls: bool,
        max_calls: Option<f64>,
        wanted: u32,
        from_bytes: Option<f64>,
    ) -> Result<PieceJoin, JsError> {
        let file = BlobSource::new(file)?;
        let from_bytes = from_bytes.filter(|n| *n >= 0.0).map_or(PAGE_PIECES_FROM_BYTES, |n| n as u64);
        let pieces = if file.size() >= from_bytes.max(PIECES_FROM_BYTES) {
            Pieces::cut(&file, options(calls, max_calls), wanted as usize)
        } else {
            None
        };
        let first = pieces.as_ref().map(|p| p.reader(0)).transpose().map_err(js_error)?;
        Ok(PieceJoin { file, pieces, first, first_read: 0 })
    }

    /// How many pieces; below 2: read the file once.
    pub fn count(&self) -> u32 {
        self.pieces.as_ref().map_or(0, |p| p.count() as u32)
    }

    /// Where piece `at` starts and ends in the file: `[start, end]`.
    pub fn range(&self, at: u32) -> Result<Vec<f64>, JsError> {
        let range = self.pieces.as_ref().and_then(|p| p.range(at as usize));
        let (start, end) = range.ok_or_else(|| JsError::new(&format!("there is no piece {at}")))?;
        Ok(vec![start as f64, end as f64])
    }

    /// The file's bytes from `at`, read ahead for the first piece (kept until read).
    pub fn give(&self, at: f64, bytes: Uint8Array) {
        self.file.give(at as u64, bytes);
    }

    /// Reads on in the first piece as far as the blocks given hold (`all`: to its end,
    /// reading the rest where no block holds it); answers the bytes of it read so far.
    #[wasm_bindgen(js_name = readFirst)]
    pub fn read_first(&mut self, all: bool) -> Result<f64, JsError> {
        let pieces = self.pieces.as_mut().ok_or_else(|| JsError::new("this file is read once, not in pieces"))?;
        if let Some(mut reader) = self.first.take() {
            let done = read_held(&mut reader, &self.file, all)?;
            self.first_read = reader.position() - pieces.range(0).map_or(0, |r| r.0);
            if done {
                pieces.add(reader).map_err(js_error)?;
            } else {
                self.first = Some(reader);
            }
        }
        Ok(self.first_read as f64)
    }

    /// Piece `at` as another worker's `PieceRead.bytes()` gave it.
    #[wasm_bindgen(js_name = addPiece)]
    pub fn add_piece(&mut self, at: u32, bytes: &[u8]) -> Result<(), JsError> {
        let pieces = self.pieces.as_mut().ok_or_else(|| JsError::new("this file is read once, not in pieces"))?;
        pieces.add_bytes(at as usize, bytes).map_err(js_error)
    }

    /// The session of every piece joined; `undefined` where the join declined (read the
    /// file once: that reports any error where it is).
    pub fn finish(&mut self) -> Result<Option<Session>, JsError> {
        let pieces = self.pieces.take().ok_or_else(|| JsError::new("this join is finished"))?;
        self.file.forget();
        Ok(pieces.join(&self.file).map_err(js_error)?.map(Session::of))
    }
}

/// One later piece of a file, read on a worker of its own for the worker that joins them.
#[wasm_bindgen]
pub struct PieceRead {
    file: BlobSource,
    pieces: Pieces,
    reader: Option<PieceReader>,
    at: usize,
}

#[wasm_bindgen]
impl PieceRead {
    /// Piece `at` of `file` cut as the joining worker's `PieceJoin` with the same
    /// arguments cut it into `count` pieces.
    #[wasm_bindgen(constructor)]
    pub fn new(
        file: Blob,
        calls: bool,
        max_calls: Option<f64>,
        wanted: u32,
        count: u32,
        at: u32,
    ) -> Result<PieceRead, JsError> {
        let file = BlobSource::new(file)?;
        let pieces = Pieces::cut(&file, options(calls, max_calls), wanted as usize)
            .filter(|p| p.count() == count as usize)
            .ok_or_else(|| JsError::new(&format!("the file does not cut into {count} pieces here")))?;
        let reader = pieces.reader(at as usize).map_err(js_error)?;
        Ok(PieceRead { file, pieces, reader: Some(reader), at: at as usize })
    }

    /// Where the piece starts and ends in the file: `[start, end]`.
    pub fn range(&self) -> Vec<f64> {
        let (start, end) = self.pieces.range(self.at).expect("a piece that was started");
        vec![start as f64, end as f64]
    }

    /// The file's bytes from `at`, read ahead for this piece (kept until read).
    pub fn give(&self, at: f64, bytes: Uint8Array) {
        self.file.give(at as u64, bytes);
    }

    /// Reads on as far as the blocks given hold (`all`: to the piece's end, reading the
    /// rest where no block holds it); answers the bytes of the piece read so far.
    pub fn read(&mut self, all: bool) -> Result<f64, JsError> {
        let reader = self.reader.as_mut().ok_or_else(|| JsError::new("this piece was sent"))?;
        read_held(reader, &self.file, all)?;
        Ok((reader.position() - self.pieces.range(self.at).map_or(0, |r| r.0)) as f64)
    }

    /// Whether the piece is read to its end.
    pub fn done(&self) -> bool {
        self.reader.as_ref().is_some_and(PieceReader::done)
    }

    /// The piece, read to its end, as bytes for `PieceJoin.addPiece`; `undefined` where
    /// it cannot be joined (the file is then read once).
    pub fn bytes(&mut self) -> Result<Option<Vec<u8>>, JsError> {
        let reader = self.reader.take().ok_or_else(|| JsError::new("this piece was sent"))?;
        self.file.forget();
        self.pieces.to_bytes(reader).map_err(js_error)
    }
}

/// Steps `reader` on while the blocks given hold its next step (`all`: to its end);
/// whether it is read to its end. Blocks read past are let go.
fn read_held(reader: &mut PieceReader, file: &BlobSource, all: bool) -> Result<bool, JsError> {
    while !reader.done() && (all || file.holds(reader.position(), reader.next_end())) {
        reader.step(file, 1).map_err(js_error)?;
    }
    file.let_go_before(reader.position());
    Ok(reader.done())
}

/// A `Blob` read where the core asks: from the blocks the worker gave, else synchronously
/// (only a worker has `FileReaderSync`, and a worker is where the core runs). Blocks stay
/// in the JS heap, copied from as the core asks: the wasm heap never shrinks.
struct BlobSource {
    blob: Blob,
    reader: FileReaderSync,
    size: u64,
    /// Blocks of the file and where each starts, in the order given or read.
    blocks: RefCell<Vec<(u64, Uint8Array)>>,
}

/// Bytes a `Blob` is read in where no block holds what the core asks, at most: each read
/// costs a round trip to the browser (500 MB in 4 MiB slices took 1.66 s in Chromium
/// here, in 16 MiB 0.83 s, in 64 MiB 0.70 s).
const BLOCK: u64 = 32 << 20;

// wasm32 here has no threads: the core's `Sync` bound (for reading on threads natively)
// is met by having one thread.
unsafe impl Sync for BlobSource {}

impl BlobSource {
    fn new(blob: Blob) -> Result<BlobSource, JsError> {
        let reader = FileReaderSync::new().map_err(|_| JsError::new("files are read in pieces only in a worker"))?;
        Ok(BlobSource { size: blob.size() as u64, blob, reader, blocks: RefCell::new(Vec::new()) })
    }

    fn give(&self, at: u64, bytes: Uint8Array) {
        self.blocks.borrow_mut().push((at, bytes));
    }

    /// Whether the blocks hold every byte of `from..to`.
    fn holds(&self, mut from: u64, to: u64) -> bool {
        while from < to {
            match self.block_at(from) {
                Some(end) => from = end,
                None => return false,
            }
        }
        true
    }

    /// The end of a block that holds the byte at `at`.
    fn block_at(&self, at: u64) -> Option<u64> {
        let blocks = self.blocks.borrow();
        blocks
            .iter()
            .map(|(start, b)| (*start, start + u64::from(b.length())))
            .find(|(s, e)| *s <= at && at < *e)
            .map(|b| b.1)
    }

    fn let_go_before(&self, at: u64) {
        self.blocks.borrow_mut().retain(|(start, b)| start + u64::from(b.length()) > at);
    }

    fn forget(&self) {
        self.blocks.borrow_mut().clear();
    }

    /// Bytes `from..to` of the file, read now.
    fn read(&self, from: u64, to: u64) -> io::Result<Uint8Array> {
        let failed = |what: &str| io::Error::other(format!("the file could not be read ({what})"));
        let part = self.blob.slice_with_f64_and_f64(from as f64, to as f64).map_err(|_| failed("slice"))?;
        let bytes = Uint8Array::new(&self.reader.read_as_array_buffer(&part).map_err(|_| failed("read"))?.into());
        if u64::from(bytes.length()) != to - from {
            return Err(failed("it changed while it was read"));
        }
        Ok(bytes)
    }
}

impl ReadAt for BlobSource {
    fn size(&self) -> u64 {
        self.size
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<()> {
        let end = offset + buf.len() as u64;
        if end > self.size {
            return Err(io::Error::from(io::ErrorKind::UnexpectedEof));
        }
        let mut at = offset;
        while at < end {
            if self.block_at(at).is_none() {
                // Read ahead of a small read (a header) only a little.
                let ahead = (buf.len() as u64 * 8).clamp(1 << 20, BLOCK);
                let block = self.read(at, self.size.min(at + ahead))?;
                self.blocks.borrow_mut().push((at, block));
            }
            let blocks = self.blocks.borrow();
            let (start, bytes) =
                blocks.iter().find(|(s, b)| *s <= at && at < s + u64::from(b.length())).expect("a block holds it now");
            let to = end.min(start + u64::from(bytes.length()));
            let into = &mut buf[(at - offset) as usize..(to - offset) as usize];
            bytes.subarray((at - start) as u32, (to - start) as u32).copy_to(into);
            at = to;
        }
        Ok(())
    }
}
