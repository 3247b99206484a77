//! atrace markers: the text apps and the framework write to `trace_marker`, read from
//! ftrace text (`tracing_mark_write`) and from Perfetto's `print` events alike.
//!
//! `B|pid|name` and `E[|…]` nest per writing thread; `I|pid|name` is an instant; `C|pid|name|value`
//! a counter; `S|pid|name|cookie` / `F|…` async spans; Android 13's `G|pid|track|name|cookie`
//! / `H|pid|track[|name]|cookie` spans and `N|pid|track|name` instants on named tracks.

use crate::formats::system::tracks::{TrackKey, TrackKind};
use crate::formats::system::SystemTrace;
use crate::profile::ProfileBuilder;
use crate::text::{parse_i64, parse_u32, trim};

/// Applies one marker payload written by thread `t`; false when it is none (free text, a
/// bad pid or value).
pub(crate) fn apply(sys: &mut SystemTrace, p: &[u8], ts: u64, t: usize, b: &mut ProfileBuilder) -> bool {
    // Writers may end the text with a line break (Perfetto keeps it).
    let p = p.strip_suffix(b"\n").unwrap_or(p);
    let Some(&kind) = p.first().filter(|_| p.len() == 1 || p[1] == b'|') else {
        return false;
    };
    let fields = p.get(2..).unwrap_or_default();
    let (pid_text, rest) = split_once(fields, b'|');
    if kind == b'E' {
        // The pid, if any, is ignored: `E` closes the writing thread's top slice.
        sys.end(t, ts, b);
        return true;
    }
    let Some(pid) = parse_u32(trim(pid_text)) else {
        return false;
    };
    let track = |kind, name: &[u8]| TrackKey { pid, kind, name: name.into() };
    match kind {
        b'B' | b'I' => {
            sys.guess_pid(t, pid);
            if kind == b'B' {
                sys.begin(t, rest, ts, b);
            } else {
                sys.instant(t, rest, ts, b);
            }
        }
        b'C' => {
            let (name, tail) = split_once(rest, b'|');
            let (value, _category) = split_once(tail, b'|');
            let Some(value) = parse_i64(trim(value)) else {
                return false;
            };
            sys.count(pid, name, "", value, ts, b);
        }
        b'S' | b'F' => {
            let (name, cookie) = rsplit_cookie(rest);
            if kind == b'S' {
                sys.span_begin(track(TrackKind::Async, name), cookie, name, ts, b);
            } else {
                sys.span_end(track(TrackKind::Async, name), cookie, name, ts, b);
            }
        }
        b'G' => {
            let (track_and_name, cookie) = rsplit_cookie(rest);
            let (track_name, name) = split_once(track_and_name, b'|');
            sys.span_begin(track(TrackKind::Named, track_name), cookie, name, ts, b);
        }
        b'H' => {
            // `H|pid|track|cookie`, or with the name repeated before the cookie.
            let (track_and_name, cookie) = rsplit_cookie(rest);
            let (track_name, _) = split_once(track_and_name, b'|');
            sys.span_end(track(TrackKind::Named, track_name), cookie, track_name, ts, b);
        }
        b'N' => {
            let (track_name, name) = split_once(rest, b'|');
            sys.track_instant(track(TrackKind::Named, track_name), name, ts, b);
        }
        _ => return false,
    }
    true
}

fn split_once(bytes: &[u8], sep: u8) -> (&[u8], &[u8]) {
    match memchr::memchr(sep, bytes) {
        Some(at) => (&bytes[..at], &bytes[at + 1..]),
        None => (bytes, &[]),
    }
}

/// `name|cookie` → (name, cookie); a missing or non-numeric cookie is 0.
fn rsplit_cookie(bytes: &[u8]) -> (&[u8], i64) {
    match memchr::memrchr(b'|', bytes) {
        Some(at) => match parse_i64(trim(&bytes[at + 1..])) {
            Some(cookie) => (&bytes[..at], cookie),
            None => (bytes, 0),
        },
        None => (bytes, 0),
    }
}
