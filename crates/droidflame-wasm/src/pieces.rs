//! One file read in pieces by the page's workers, which share no memory: each reads its
//! piece straight from the file (`Blob`) and sends it as bytes to the worker that joins
//! them into a session. Where the file does not split, or the join declines, the joining
//! worker reads the file once as a `Session`; the answer is the same either way.

use crate::convert::js_error;
use crate::session::{options, Session};
use droidflame_core::{PieceReader, Pieces, ReadAt, PIECES_FROM_BYTES};
use js_sys::Uint8Array;
use std::cell::RefCell;
use std::io;
use wasm_bindgen::prelude::*;
use web_sys::{Blob, FileReaderSync};

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
    /// below 2 where it is to be read once: too small to pay, or not a file that splits.
    #[wasm_bindgen(constructor)]
    pub fn new(file: Blob, calls: bool, max_calls: Option<f64>, wanted: u32) -> Result<PieceJoin, JsError> {
        let file = BlobSource::new(file)?;
        let pieces = if file.size() >= PIECES_FROM_BYTES {
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

    /// The bytes piece `at` reads.
    #[wasm_bindgen(js_name = pieceBytes)]
    pub fn piece_bytes(&self, at: u32) -> f64 {
        self.pieces.as_ref().map_or(0.0, |p| p.bytes(at as usize) as f64)
    }

    /// Reads about `bytes` more of the first piece; answers the bytes of it read so far
    /// (all of `pieceBytes(0)` once it is read).
    #[wasm_bindgen(js_name = readFirst)]
    pub fn read_first(&mut self, bytes: f64) -> Result<f64, JsError> {
        let pieces = self.pieces.as_mut().ok_or_else(|| JsError::new("this file is read once, not in pieces"))?;
        if let Some(mut reader) = self.first.take() {
            let done = reader.step(&self.file, bytes.max(1.0) as u64).map_err(js_error)?;
            self.first_read = reader.position();
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
        Ok(pieces.join(&self.file).map_err(js_error)?.map(Session::of))
    }
}

/// One later piece of a file, read on a worker of its own for the worker that joins them.
#[wasm_bindgen]
pub struct PieceRead {
    file: BlobSource,
    pieces: Pieces,
    reader: Option<PieceReader>,
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
        Ok(PieceRead { file, pieces, reader: Some(reader) })
    }

    /// Reads about `bytes` more; answers the bytes of the piece read so far.
    pub fn step(&mut self, bytes: f64) -> Result<f64, JsError> {
        let reader = self.reader.as_mut().ok_or_else(|| JsError::new("this piece was sent"))?;
        reader.step(&self.file, bytes.max(1.0) as u64).map_err(js_error)?;
        Ok(reader.position() as f64)
    }

    /// Whether the piece is read to its end.
    pub fn done(&self) -> bool {
        self.reader.as_ref().is_some_and(PieceReader::done)
    }

    /// The piece, read to its end, as bytes for `PieceJoin.addPiece`; `undefined` where
    /// it cannot be joined (the file is then read once).
    pub fn bytes(&mut self) -> Result<Option<Vec<u8>>, JsError> {
        let reader = self.reader.take().ok_or_else(|| JsError::new("this piece was sent"))?;
        self.pieces.to_bytes(reader).map_err(js_error)
    }
}

/// A `Blob` read where the core asks, synchronously: only a worker has `FileReaderSync`,
/// and a worker is where the core runs. Each read of a `Blob` costs a round trip to the
/// browser, so it is read a block at a time, kept in the JS heap (the wasm heap never
/// shrinks) and copied from as the core asks.
struct BlobSource {
    blob: Blob,
    reader: FileReaderSync,
    size: u64,
    /// The last block read, and where it starts.
    block: RefCell<Option<(u64, Uint8Array)>>,
}

/// Bytes a `Blob` is read in: reading 500 MB in 4 MiB slices took 1.66 s in Chromium
/// here, in 16 MiB 0.83 s, in 64 MiB 0.70 s.
const BLOCK: u64 = 32 << 20;

// wasm32 here has no threads: the core's `Sync` bound (for reading on threads natively)
// is met by having one thread.
unsafe impl Sync for BlobSource {}

impl BlobSource {
    fn new(blob: Blob) -> Result<BlobSource, JsError> {
        let reader = FileReaderSync::new().map_err(|_| JsError::new("files are read in pieces only in a worker"))?;
        Ok(BlobSource { size: blob.size() as u64, blob, reader, block: RefCell::new(None) })
    }

    /// Bytes `from..to` of the file.
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
        if buf.len() as u64 >= BLOCK {
            self.read(offset, end)?.copy_to(buf);
            return Ok(());
        }
        let mut block = self.block.borrow_mut();
        let held = block.as_ref().is_some_and(|(at, bytes)| *at <= offset && end <= at + u64::from(bytes.length()));
        if !held {
            *block = Some((offset, self.read(offset, self.size.min(offset + BLOCK))?));
        }
        let (at, bytes) = block.as_ref().expect("a block was just read");
        bytes.subarray((offset - at) as u32, (end - at) as u32).copy_to(buf);
        Ok(())
    }
}
