//! The pages' Content-Security-Policy. Scripts run only from the page's own files (hosted)
//! or from inline scripts named by their hashes (single file); flame graphs shown in the
//! sandboxed `srcdoc` frame inherit the policy, so inferno's script and its one `onload`
//! handler are allowed by hash too. Nothing may be fetched from anywhere else.

use droidflame_core::products::{flame_script, FlameOptions, Theme};
use droidflame_core::profile::FrameKind;

/// `'sha256-…'` of a script's text.
fn hash(text: &str) -> String {
    format!("'sha256-{}'", crate::base64::base64(&sha256(text.as_bytes())))
}

/// The scripts of a graph frame: inferno's for each kind of frame (the same in both themes,
/// which a core test checks), its `onload` handler, and the page's own frame script.
fn flame_hashes(frame_script: &str) -> String {
    let mut hashes = vec![];
    for kind in FrameKind::ALL {
        for theme in [Theme::Light, Theme::Dark] {
            let script = hash(&flame_script(&FlameOptions { theme, ..FlameOptions::default() }, kind));
            if !hashes.contains(&script) {
                hashes.push(script);
            }
        }
    }
    format!("'unsafe-hashes' {} {} {}", hashes.join(" "), hash("init(evt)"), hash(frame_script))
}

/// For dist/index.html: its scripts, worker and wasm come from its own origin.
pub fn hosted(frame_script: &str) -> String {
    format!(
        "default-src 'none'; script-src 'self' 'wasm-unsafe-eval' {}; worker-src 'self'; connect-src 'self'; \
         style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; base-uri 'none'; form-action 'none'",
        flame_hashes(frame_script)
    )
}

/// For dist/droidflame.html: `inline` are the texts of its inline scripts.
pub fn single(inline: &[&str], frame_script: &str) -> String {
    let scripts: Vec<String> = inline.iter().map(|s| hash(s)).collect();
    format!(
        "default-src 'none'; script-src 'wasm-unsafe-eval' {} {}; worker-src blob:; style-src 'unsafe-inline'; \
         img-src data: blob:; base-uri 'none'; form-action 'none'",
        scripts.join(" "),
        flame_hashes(frame_script)
    )
}

/// SHA-256 (FIPS 180-4), enough for hashing a few scripts at build time.
pub fn sha256(data: &[u8]) -> [u8; 32] {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
        0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
        0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
        0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
        0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
        0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
        0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut h: [u32; 8] =
        [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
    let mut message = data.to_vec();
    message.push(0x80);
    while message.len() % 64 != 56 {
        message.push(0);
    }
    message.extend_from_slice(&((data.len() as u64) * 8).to_be_bytes());
    for block in message.chunks(64) {
        let mut w = [0u32; 64];
        for i in 0..16 {
            w[i] = u32::from_be_bytes(block[i * 4..i * 4 + 4].try_into().expect("4 bytes"));
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16].wrapping_add(s0).wrapping_add(w[i - 7]).wrapping_add(s1);
        }
        let mut v = h;
        for i in 0..64 {
            let s1 = v[4].rotate_right(6) ^ v[4].rotate_right(11) ^ v[4].rotate_right(25);
            let ch = (v[4] & v[5]) ^ (!v[4] & v[6]);
            let t1 = v[7].wrapping_add(s1).wrapping_add(ch).wrapping_add(K[i]).wrapping_add(w[i]);
            let s0 = v[0].rotate_right(2) ^ v[0].rotate_right(13) ^ v[0].rotate_right(22);
            let maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
            let t2 = s0.wrapping_add(maj);
            v = [t1.wrapping_add(t2), v[0], v[1], v[2], v[3].wrapping_add(t1), v[4], v[5], v[6]];
        }
        for (a, b) in h.iter_mut().zip(v) {
            *a = a.wrapping_add(b);
        }
    }
    let mut out = [0u8; 32];
    for (i, word) in h.iter().enumerate() {
        out[i * 4..i * 4 + 4].copy_from_slice(&word.to_be_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn sha256_matches_known_digests() {
        let hex = |d: [u8; 32]| d.iter().map(|b| format!("{b:02x}")).collect::<String>();
        assert_eq!(hex(super::sha256(b"")), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        assert_eq!(hex(super::sha256(b"abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        let long = vec![b'a'; 1000];
        assert_eq!(hex(super::sha256(&long)), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
    }
}
