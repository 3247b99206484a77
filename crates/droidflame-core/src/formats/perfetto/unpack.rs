//! The packets a packet carries compressed: `compressed_packets` (zlib) and
//! `zstd_compressed_packets` (zstd), each a serialized `Trace` of more packets. Both
//! inflate inside the one budget of every compressed input, so a bomb stops at the limit.

use crate::error::Result;
use crate::formats::system::InflateBudget;
use flate2::{Decompress, FlushDecompress, Status};
use std::io::Read;

/// The bytes a zlib stream inflates to; `None` where the stream is damaged.
pub fn inflate(bytes: &[u8], budget: &mut InflateBudget) -> Result<Option<Vec<u8>>> {
    let mut inflater = Decompress::new(true);
    let mut out = Vec::new();
    loop {
        out.reserve(64 << 10);
        let before = out.len();
        let read = inflater.total_in() as usize;
        // Not `Finish`: the Rust backend then wants the whole output in the space given to
        // its first call, and fails any stream that inflates to more.
        let status = inflater.decompress_vec(&bytes[read..], &mut out, FlushDecompress::None);
        budget.spend(out.len() - before)?;
        match status {
            Ok(Status::StreamEnd) => return Ok(Some(out)),
            // Progress made; a stream that stops making it ended early.
            Ok(_) if out.len() > before || inflater.total_in() as usize > read => {}
            _ => return Ok(None),
        }
    }
}

/// Read at most this much of a zstd frame at a time, so the budget is charged as it grows.
const ZSTD_STEP: usize = 64 << 10;

/// The bytes zstd frames (one or more, one after another) decompress to; `None` where a
/// frame is damaged or the bytes end inside one.
pub fn unzstd(bytes: &[u8], budget: &mut InflateBudget) -> Result<Option<Vec<u8>>> {
    let mut source = bytes;
    let mut out = Vec::new();
    while !source.is_empty() {
        let Ok(mut frame) = ruzstd::decoding::StreamingDecoder::new(&mut source) else { return Ok(None) };
        loop {
            let before = out.len();
            out.resize(before + ZSTD_STEP, 0);
            match frame.read(&mut out[before..]) {
                Ok(0) => {
                    out.truncate(before);
                    break;
                }
                Ok(n) => {
                    out.truncate(before + n);
                    budget.spend(n)?;
                }
                Err(_) => return Ok(None),
            }
        }
    }
    Ok(Some(out))
}
