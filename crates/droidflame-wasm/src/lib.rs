//! Thin wasm-bindgen bindings over droidflame-core: chunks in, JSON text, SVG and typed
//! arrays out. No trace knowledge here; every decision is the core's. Always pass
//! `Uint8Array`s: an `ArrayBuffer` given for `&[u8]` arrives as an empty slice.
//!
//! Results cross to JS in the cheapest form for their size: timeline boxes (bounded by the
//! window's pixels times its depths, whatever the trace holds) as one `Float64Array` copy;
//! the small answers (a hovered call, ten slowest calls) as JSON text of about a kilobyte,
//! parsed once. serde-wasm-bindgen would hand those over as JS objects directly, which
//! matters for large object graphs, not for answers this size, so it is not used.

use convert::js_error;
use wasm_bindgen::prelude::*;

mod columns;
mod compare;
mod convert;
mod heap;
mod mapping;
mod pieces;
mod runs;
mod session;
mod timeline;
mod tracks;
mod viewed;

pub use columns::CallTreeColumns;
pub use pieces::{PieceJoin, PieceRead};
pub use session::Session;

#[wasm_bindgen(start)]
fn start() {
    console_error_panic_hook::set_once();
}

/// For a split trace given as two files: true when the second one is the `.key` half.
/// Pass the first bytes of each file.
#[wasm_bindgen(js_name = splitKeyIsSecond)]
pub fn split_key_is_second(first_head: &[u8], second_head: &[u8]) -> Result<bool, JsError> {
    droidflame_core::split_key_is_second(first_head, second_head).map_err(js_error)
}

/// Whether two files are one split trace's `.key` and `.data` (in either order), from
/// their first bytes; otherwise they are two traces.
#[wasm_bindgen(js_name = isSplitPair)]
pub fn is_split_pair(first_head: &[u8], second_head: &[u8]) -> bool {
    droidflame_core::is_split_pair(first_head, second_head)
}
