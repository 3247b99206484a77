//! inferno hashes with ahash, whose getrandom 0.3 needs a backend on wasm32-unknown-unknown.
//! The core must not depend on wasm-bindgen, so it supplies the "custom" backend
//! (selected in `.cargo/config.toml`). The seeds only randomise hash tables inside one
//! flame-graph render; a fixed-but-varied fill is enough there.

use std::sync::atomic::{AtomicU64, Ordering};

static STATE: AtomicU64 = AtomicU64::new(0x9E37_79B9_7F4A_7C15);

/// # Safety
/// `dest` must be valid for writes of `len` bytes (getrandom's contract).
#[no_mangle]
unsafe extern "Rust" fn __getrandom_v03_custom(dest: *mut u8, len: usize) -> Result<(), getrandom::Error> {
    for i in 0..len {
        let x = STATE.fetch_add(0x9E37_79B9_7F4A_7C15, Ordering::Relaxed);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        // SAFETY: `i < len` and the caller guarantees `dest..dest+len` is writable.
        unsafe { *dest.add(i) = (z ^ (z >> 31)) as u8 };
    }
    Ok(())
}
