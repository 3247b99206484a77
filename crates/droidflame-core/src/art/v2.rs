//! V2 method traces (versions 4/5, 0xF4/0xF5): typed packets with LEB128-delta records and
//! 64-bit method ids, as ART wrote them from 2024-06.

use super::key::KeyParser;
use super::names::parse_method_fields;
use crate::profile::ProfileBuilder;
use crate::text::decode_java;

pub const HEADER_SIZE: usize = 32;

/// Delta state carried from one record to the next inside an entry block.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct DeltaState {
    method_action: u64,
    wall: u64,
    cpu: u64,
}

#[derive(Debug)]
pub struct V2Decoder {
    pub dual: bool,
    /// The last block's thread and final delta state: a streaming writer splits a large
    /// per-thread flush into several blocks without resetting its state (E23).
    last_block: Option<(u32, DeltaState)>,
    pub carried_blocks: u64,
    pub damaged_blocks: u64,
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
    pub fn new(dual: bool) -> Self {
        V2Decoder {
            dual,
            last_block: None,
            carried_blocks: 0,
            damaged_blocks: 0,
        }
    }

    /// Reads one packet from the start of `data`.
    pub fn packet(
        &mut self,
        data: &[u8],
        summary: &mut KeyParser,
        builder: &mut ProfileBuilder,
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
                builder.define_thread(tid, decode_java(name));
                V2Step::Packet(7 + len)
            }
            1 => {
                let (Some(id), Some(len)) = (u64_at(data, 1), u16_at(data, 9)) else {
                    return V2Step::NeedMore;
                };
                let Some(line) = data.get(11..11 + len) else {
                    return V2Step::NeedMore;
                };
                builder.define_method(id, parse_method_fields(line));
                V2Step::Packet(11 + len)
            }
            2 => {
                let (Some(tid), Some(size)) = (u32_at(data, 1), u32_at(data, 8)) else {
                    return V2Step::NeedMore;
                };
                let Some(payload) = data.get(12..12 + size as usize) else {
                    return V2Step::NeedMore;
                };
                self.block(tid, payload, builder);
                V2Step::Packet(12 + size as usize)
            }
            3 => {
                let Some(len) = u16_at(data, 1) else {
                    return V2Step::NeedMore;
                };
                let Some(text) = data.get(3..3 + len) else {
                    return V2Step::NeedMore;
                };
                summary.parse_all(text, builder);
                V2Step::Summary(3 + len)
            }
            other => V2Step::BadPacket(other),
        }
    }

    /// Decodes an entry block until its payload is used up; the record count in the block
    /// header is ignored (the writer stores it modulo 65536, E23).
    fn block(&mut self, tid: u32, payload: &[u8], builder: &mut ProfileBuilder) {
        let mut start = DeltaState::default();
        if let Some((last_tid, carried)) = self.last_block {
            if last_tid == tid && !self.first_method_resolves(payload, builder) {
                let mut probe = 0;
                let resolves = read_sleb(payload, &mut probe).is_some_and(|delta| {
                    builder.is_method_defined(carried.method_action.wrapping_add(delta as u64) & !3)
                });
                if resolves {
                    start = carried;
                    self.carried_blocks += 1;
                }
            }
        }
        let thread = builder.thread(tid);
        let mut state = start;
        let mut at = 0;
        while at < payload.len() {
            let Some(step) = self.read_record(payload, &mut at, &mut state) else {
                self.damaged_blocks += 1;
                break;
            };
            let method = builder.method(state.method_action & !3);
            builder.record(thread, method, (state.method_action & 3) as u8, step);
        }
        self.last_block = Some((tid, state));
    }

    fn first_method_resolves(&self, payload: &[u8], builder: &ProfileBuilder) -> bool {
        let mut at = 0;
        match read_sleb(payload, &mut at) {
            Some(first) => {
                builder.defined_methods() == 0 || builder.is_method_defined(first as u64 & !3)
            }
            None => true,
        }
    }

    #[inline]
    fn read_record(
        &self,
        payload: &[u8],
        at: &mut usize,
        state: &mut DeltaState,
    ) -> Option<[u64; 2]> {
        state.method_action = state
            .method_action
            .wrapping_add(read_sleb(payload, at)? as u64);
        state.wall = state.wall.wrapping_add(read_uleb(payload, at)?);
        if self.dual {
            state.cpu = state.cpu.wrapping_add(read_uleb(payload, at)?);
        }
        Some([state.wall, state.cpu])
    }
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
