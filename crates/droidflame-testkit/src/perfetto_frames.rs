//! Perfetto packets of SurfaceFlinger's frame timeline (`frame_timeline_event`, packet
//! field 76): expected and actual surface frames of apps, expected and actual display
//! frames, and the ends that close them by cookie, byte for byte as the schema has them.

use crate::perfetto::Message;

const TIMESTAMP: u32 = 8;
const SEQUENCE_ID: u32 = 10;
const FRAME_TIMELINE_EVENT: u32 = 76;

/// Jank type bits as the schema numbers them.
pub mod jank {
    pub const NONE: u64 = 1;
    pub const SF_SCHEDULING: u64 = 2;
    pub const PREDICTION_ERROR: u64 = 4;
    pub const DISPLAY_HAL: u64 = 8;
    pub const SF_CPU_DEADLINE_MISSED: u64 = 16;
    pub const SF_GPU_DEADLINE_MISSED: u64 = 32;
    pub const APP_DEADLINE_MISSED: u64 = 64;
    pub const BUFFER_STUFFING: u64 = 128;
    pub const UNKNOWN: u64 = 256;
    pub const SF_STUFFING: u64 = 512;
    pub const DROPPED: u64 = 1024;
}

/// An app frame (a surface frame of one layer) as a recorder writes it.
#[derive(Debug, Clone)]
pub struct SurfaceFrame<'a> {
    pub cookie: u64,
    pub token: u64,
    pub display_token: u64,
    pub pid: u32,
    pub layer: &'a str,
    /// Jank type bits (`jank::…`).
    pub jank: u64,
    /// Present type: 1 on time, 2 late, 3 early, 4 dropped, 5 unknown.
    pub present: u64,
    /// Prediction type: 1 valid, 2 expired, 3 unknown.
    pub prediction: u64,
}

fn packet(ts: u64, event: &Message) -> Message {
    let mut packet = Message::new();
    packet.varint(TIMESTAMP, ts).message(FRAME_TIMELINE_EVENT, event).varint(SEQUENCE_ID, 9);
    packet
}

/// An expected surface frame's start (fields 1-5 of `ExpectedSurfaceFrameStart`).
pub fn expected_surface(ts: u64, f: &SurfaceFrame) -> Message {
    let mut start = Message::new();
    start
        .varint(1, f.cookie)
        .varint(2, f.token)
        .varint(3, f.display_token)
        .varint(4, u64::from(f.pid))
        .bytes(5, f.layer.as_bytes());
    let mut event = Message::new();
    event.message(3, &start);
    packet(ts, &event)
}

/// An actual surface frame's start, with its jank (`ActualSurfaceFrameStart`). Its cookie
/// is the expected one's plus one, as recorders number them.
pub fn actual_surface(ts: u64, f: &SurfaceFrame) -> Message {
    let mut start = Message::new();
    start
        .varint(1, f.cookie + 1)
        .varint(2, f.token)
        .varint(3, f.display_token)
        .varint(4, u64::from(f.pid))
        .bytes(5, f.layer.as_bytes())
        .varint(6, f.present)
        .varint(7, u64::from(f.present == 1))
        .varint(8, 0)
        .varint(9, f.jank)
        .varint(10, f.prediction);
    let mut event = Message::new();
    event.message(4, &start);
    packet(ts, &event)
}

/// A display frame's expected (`actual` false) or actual start; the actual one's cookie is
/// `cookie + 1` and carries its jank and present type.
pub fn display_frame(ts: u64, cookie: u64, token: u64, pid: u32, actual: Option<(u64, u64)>) -> Message {
    let mut start = Message::new();
    start.varint(1, cookie + u64::from(actual.is_some())).varint(2, token).varint(3, u64::from(pid));
    if let Some((jank, present)) = actual {
        start.varint(4, present).varint(5, u64::from(present == 1)).varint(6, 0).varint(7, jank).varint(8, 1);
    }
    let mut event = Message::new();
    event.message(if actual.is_some() { 2 } else { 1 }, &start);
    packet(ts, &event)
}

/// The end of the frame started with `cookie`.
pub fn frame_end(ts: u64, cookie: u64) -> Message {
    let mut end = Message::new();
    end.varint(1, cookie);
    let mut event = Message::new();
    event.message(5, &end);
    packet(ts, &event)
}

/// A whole app frame: expected from `expected.0` to `expected.1`, actual from `actual.0`
/// to `actual.1` (`None`: never ended).
pub fn app_frame(f: &SurfaceFrame, expected: (u64, u64), actual: (u64, Option<u64>)) -> Vec<Message> {
    let mut packets =
        vec![expected_surface(expected.0, f), frame_end(expected.1, f.cookie), actual_surface(actual.0, f)];
    if let Some(end) = actual.1 {
        packets.push(frame_end(end, f.cookie + 1));
    }
    packets
}
