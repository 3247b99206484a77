//! V2 method traces (versions 4/5, 0xF4/0xF5): typed packets with LEB128-delta records and
//! 64-bit method ids. Two record layouts share these version numbers:
//! - method-first (ART 2024-06 .. 2025-08): SLEB delta of `method | action`, then ULEB
//!   deltas of wall and thread-CPU time;
//! - time-first (what Perfetto reads; newer ART): SLEB delta of `time << 2 | action`, an
//!   SLEB CPU value for dual clocks, and an SLEB method delta on enters only; exits name
//!   no method. Its header carries a clock-counter start and frequency at bytes 14 and 22.

use super::key::KeyParser;
use super::names::parse_method_fields;
use super::records::{ArtRecords, ENTER};
use crate::profile::{FrameInfo, PerClock, ProfileBuilder, TimeUnit};
use crate::text::decode_java;
use rustc_hash::FxHashMap;

pub const HEADER_SIZE: usize = 32;

/// Delta state carried from one record to the next inside an entry block.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct DeltaState {
    method_action: u64,
    wall: u64,
    cpu: u64,
}

/// Delta state of the time-first layout inside an entry block.
#[derive(Debug, Clone, Copy, Default)]
struct TimeFirstState {
    time_action: u64,
    method: u64,
}

/// Which record layout the entry blocks use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordLayout {
    /// The header does not say; the first entry block decides.
    Undecided,
    MethodFirst,
    /// Times count ticks of a counter at this frequency (0: nanoseconds).
    TimeFirst {
        counter_hz: u64,
    },
}

/// Exits of the time-first layout name no method; one with nothing entered on its thread
/// gets this pseudo method.
const UNKNOWN_EXIT: u64 = !3;

#[derive(Debug, Clone)]
pub struct V2Decoder {
    pub dual: bool,
    pub layout: RecordLayout,
    /// Time-first only: the methods entered and not yet exited, per thread.
    open: FxHashMap<u32, Vec<u64>>,
    /// The last block's thread and final delta state: a streaming writer splits a large
    /// per-thread flush into several blocks without resetting its state.
    last_block: Option<(u32, DeltaState)>,
    pub carried_blocks: u64,
    pub damaged_blocks: u64,
    /// Blocks that held another number of records than their header says.
    pub miscounted_blocks: u64,
}

pub enum V2Step {
    NeedMore,
    /// Consumed a packet of this many bytes.
    Packet(usize),
    /// Read the summary packet (this many bytes); nothing meaningful follows.
    Summary(usize),
    /// An unknown packet type: the stream is damaged from here on.
    BadPacket(u8),
}

impl V2Decoder {
    /// `header` is the 32-byte file header.
    pub fn new(dual: bool, header: &[u8]) -> Self {
        let counter_hz = u64::from_le_bytes(header[22..30].try_into().expect("8 bytes"));
        let layout = if header[14..HEADER_SIZE].iter().any(|&b| b != 0) {
            RecordLayout::TimeFirst { counter_hz }
        } else {
            RecordLayout::Undecided
        };
        V2Decoder {
            dual,
            layout,
            open: FxHashMap::default(),
            last_block: None,
            carried_blocks: 0,
            damaged_blocks: 0,
            miscounted_blocks: 0,
        }
    }

    /// How long a tick is, when the layout itself says (time-first).
    pub fn time_unit(&self) -> Option<TimeUnit> {
        match self.layout {
            RecordLayout::TimeFirst { counter_hz: 0 } => Some(TimeUnit::NANOS),
            RecordLayout::TimeFirst { counter_hz } => Some(TimeUnit::counter(counter_hz)),
            _ => None,
        }
    }

    pub fn time_first(&self) -> bool {
        matches!(self.layout, RecordLayout::TimeFirst { .. })
    }

    /// Reads one packet from the start of `data`.
    pub fn packet(
        &mut self,
        data: &[u8],
        summary: &mut KeyParser,
        art: &mut ArtRecords,
        b: &mut ProfileBuilder,
    ) -> V2Step {
        let Some(&kind) = data.first() else {
            return V2Step::NeedMore;
        };
        match kind {
            0 => {
                let (Some(tid), Some(len)) = (u32_at(data, 1), u16_at(data, 5)) else {
                    return V2Step::NeedMore;
                };
                let Some(name) = data.get(7..7 + len) else {
                    return V2Step::NeedMore;
                };
                art.define_thread(tid, decode_java(name), b);
                V2Step::Packet(7 + len)
            }
            1 => {
                let (Some(id), Some(len)) = (u64_at(data, 1), u16_at(data, 9)) else {
                    return V2Step::NeedMore;
                };
                let Some(line) = data.get(11..11 + len) else {
                    return V2Step::NeedMore;
                };
                art.define_method(id, parse_method_fields(line), b);
                V2Step::Packet(11 + len)
            }
            2 => {
                let (Some(tid), Some(size)) = (u32_at(data, 1), u32_at(data, 8)) else {
                    return V2Step::NeedMore;
                };
                let Some(payload) = data.get(12..12 + size as usize) else {
                    return V2Step::NeedMore;
                };
                let count = u32::from_le_bytes([data[5], data[6], data[7], 0]);
                self.block(tid, count, payload, art, b);
                V2Step::Packet(12 + size as usize)
            }
            3 => {
                let Some(len) = u16_at(data, 1) else {
                    return V2Step::NeedMore;
                };
                let Some(text) = data.get(3..3 + len) else {
                    return V2Step::NeedMore;
                };
                summary.parse_all(text, art, b);
                V2Step::Summary(3 + len)
            }
            other => V2Step::BadPacket(other),
        }
    }

    /// Decodes an entry block until its payload is used up. The record count in the block
    /// header only checks it: the writer stores the count modulo 65536, and a block that
    /// continues the one before holds a running total.
    fn block(&mut self, tid: u32, count: u32, payload: &[u8], art: &mut ArtRecords, b: &mut ProfileBuilder) {
        if self.layout == RecordLayout::Undecided {
            self.layout = self.guess_layout(payload, art, b);
        }
        let (damaged, carried) = (self.damaged_blocks, self.carried_blocks);
        let decoded = if self.time_first() {
            self.time_first_block(tid, payload, art, b)
        } else {
            self.method_first_block(tid, payload, art, b)
        };
        let whole = self.damaged_blocks == damaged && self.carried_blocks == carried;
        if whole && decoded % 65536 != u64::from(count % 65536) {
            self.miscounted_blocks += 1;
        }
    }

    /// Decodes a method-first block; returns how many records it held.
    fn method_first_block(&mut self, tid: u32, payload: &[u8], art: &mut ArtRecords, b: &mut ProfileBuilder) -> u64 {
        let mut start = DeltaState::default();
        if let Some((last_tid, carried)) = self.last_block {
            if last_tid == tid && !self.first_method_resolves(payload, art, b) {
                let mut probe = 0;
                let resolves = read_sleb(payload, &mut probe).is_some_and(|delta| {
                    art.is_method_defined(carried.method_action.wrapping_add(delta as u64) & !3, b)
                });
                if resolves {
                    start = carried;
                    self.carried_blocks += 1;
                }
            }
        }
        let thread = art.thread(tid, b);
        let mut block = art.block(thread);
        let mut state = start;
        let (mut at, mut records) = (0, 0);
        while at < payload.len() {
            let Some(step) = self.read_record(payload, &mut at, &mut state) else {
                self.damaged_blocks += 1;
                break;
            };
            let action = (state.method_action & 3) as u8;
            block.record(state.method_action & !3, action, step, b);
            records += 1;
        }
        self.last_block = Some((tid, state));
        records
    }

    /// With a zero header, the first block tells: method ids are pointers and deltas are
    /// small, so decoded ids resolve to defined methods in the right layout only. Scores up
    /// to 64 records each way; a tie keeps method-first, the layout whose writer leaves
    /// the header tail zero.
    fn guess_layout(&self, payload: &[u8], art: &ArtRecords, b: &ProfileBuilder) -> RecordLayout {
        const PROBE: usize = 64;
        let mut method_first = 0;
        let (mut at, mut state) = (0, DeltaState::default());
        for _ in 0..PROBE {
            if at >= payload.len() || self.read_record(payload, &mut at, &mut state).is_none() {
                break;
            }
            method_first += usize::from(art.is_method_defined(state.method_action & !3, b));
        }
        let mut time_first = 0;
        let (mut at, mut state) = (0, TimeFirstState::default());
        for _ in 0..PROBE {
            if at >= payload.len() || read_time_first(payload, &mut at, &mut state, self.dual).is_none() {
                break;
            }
            if state.time_action & 3 == 0 {
                time_first += usize::from(art.is_method_defined(state.method, b));
            }
        }
        if time_first > method_first {
            RecordLayout::TimeFirst { counter_hz: 0 }
        } else {
            RecordLayout::MethodFirst
        }
    }

    /// Decodes a time-first block; returns how many records it held.
    fn time_first_block(&mut self, tid: u32, payload: &[u8], art: &mut ArtRecords, b: &mut ProfileBuilder) -> u64 {
        let thread = art.thread(tid, b);
        let open = self.open.entry(tid).or_default();
        let (mut at, mut state, mut records) = (0, TimeFirstState::default(), 0);
        while at < payload.len() {
            if read_time_first(payload, &mut at, &mut state, self.dual).is_none() {
                self.damaged_blocks += 1;
                break;
            }
            let TimeFirstState { time_action, method } = state;
            let action = (time_action & 3) as u8;
            let id = if action == ENTER {
                open.push(method);
                method
            } else {
                open.pop().unwrap_or(UNKNOWN_EXIT)
            };
            if id == UNKNOWN_EXIT && !art.is_method_defined(UNKNOWN_EXIT, b) {
                art.define_method(UNKNOWN_EXIT, unknown_exit_method(), b);
            }
            art.block(thread).record(id, action, PerClock::new(time_action >> 2, 0), b);
            records += 1;
        }
        records
    }

    /// Whether the block's first record, read from a fresh state, names a defined method.
    /// When no method is defined neither start resolves, and the block starts fresh.
    fn first_method_resolves(&self, payload: &[u8], art: &ArtRecords, b: &ProfileBuilder) -> bool {
        let mut at = 0;
        match read_sleb(payload, &mut at) {
            Some(first) => art.is_method_defined(first as u64 & !3, b),
            None => true,
        }
    }

    #[inline]
    fn read_record(&self, payload: &[u8], at: &mut usize, state: &mut DeltaState) -> Option<PerClock> {
        state.method_action = state.method_action.wrapping_add(read_sleb(payload, at)? as u64);
        state.wall = state.wall.wrapping_add(read_uleb(payload, at)?);
        if self.dual {
            state.cpu = state.cpu.wrapping_add(read_uleb(payload, at)?);
        }
        Some(PerClock::new(state.wall, state.cpu))
    }
}

/// One time-first record: SLEB delta of `time << 2 | action`, an SLEB CPU value for dual
/// clocks, and on enters an SLEB delta of the method id.
#[inline]
fn read_time_first(payload: &[u8], at: &mut usize, state: &mut TimeFirstState, dual: bool) -> Option<()> {
    state.time_action = state.time_action.wrapping_add(read_sleb(payload, at)? as u64);
    if dual {
        // The thread-CPU value: its encoding is not documented, so it is not used.
        read_sleb(payload, at)?;
    }
    if state.time_action & 3 == 0 {
        state.method = state.method.wrapping_add(read_sleb(payload, at)? as u64);
    }
    Some(())
}

#[inline]
fn read_uleb(b: &[u8], at: &mut usize) -> Option<u64> {
    let mut value = 0u64;
    let mut shift = 0;
    loop {
        let byte = *b.get(*at)?;
        *at += 1;
        if shift < 64 {
            value |= u64::from(byte & 0x7F) << shift;
        }
        shift += 7;
        if byte & 0x80 == 0 {
            return Some(value);
        }
        if shift > 70 {
            return None;
        }
    }
}

#[inline]
fn read_sleb(b: &[u8], at: &mut usize) -> Option<i64> {
    let mut value = 0i64;
    let mut shift = 0;
    loop {
        let byte = *b.get(*at)?;
        *at += 1;
        if shift < 64 {
            value |= i64::from(byte & 0x7F) << shift;
        }
        shift += 7;
        if byte & 0x80 == 0 {
            if shift < 64 && byte & 0x40 != 0 {
                value |= -1i64 << shift;
            }
            return Some(value);
        }
        if shift > 70 {
            return None;
        }
    }
}

fn unknown_exit_method() -> FrameInfo {
    FrameInfo {
        class: String::new(),
        name: "<a method entered before tracing began>".into(),
        signature: String::new(),
        source: None,
        line: None,
    }
}

fn u16_at(b: &[u8], at: usize) -> Option<usize> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?) as usize)
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

fn u64_at(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leb128_round_values() {
        let mut at = 0;
        assert_eq!(read_uleb(&[0xE5, 0x8E, 0x26], &mut at), Some(624485));
        let mut at = 0;
        assert_eq!(read_sleb(&[0xC0, 0xBB, 0x78], &mut at), Some(-123456));
        let mut at = 0;
        assert_eq!(read_uleb(&[0x80], &mut at), None);
    }
}
