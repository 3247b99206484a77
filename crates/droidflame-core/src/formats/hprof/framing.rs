//! HPROF's framing: a header (`JAVA PROFILE 1.0.x`, NUL, u4 id size, u8 milliseconds),
//! then records (u1 tag, u4 time, u4 length, body); heap-dump records (`0x0C`, `0x1C`)
//! are made of sub-records (u1 tag, then a body whose length its tag and contents say).
//! Everything is big-endian. Bytes in, in chunks of any size (through a `ChunkFeeder`);
//! whole pieces out. An array's elements come out in runs of whole elements, so a dump's
//! largest arrays are never held whole.

use crate::error::{Error, ErrorKind, Result};

/// A heap-dump record.
const HEAP_DUMP: u8 = 0x0C;
/// A heap-dump segment (what ART and HotSpot write).
const HEAP_DUMP_SEGMENT: u8 = 0x1C;
/// An object array's dump.
pub(super) const OBJECT_ARRAY: u8 = 0x22;
/// A primitive array's dump.
pub(super) const PRIMITIVE_ARRAY: u8 = 0x23;
/// A primitive array's dump without its contents (older ART).
pub(super) const PRIMITIVE_ARRAY_NODATA: u8 = 0xC3;
/// The header's version text ends (with a NUL) within this many bytes.
const MAX_VERSION: usize = 64;
/// Longer than this, a record other than a heap dump is damage (the longest, a long
/// string, stays far below it).
const MAX_RECORD: u32 = 64 << 20;

/// A whole piece of the input, as it comes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Piece<'a> {
    /// The header: its version text (`JAVA PROFILE 1.0.2`), id size (4 or 8) and time.
    Header { version: &'a [u8], id_size: u8, millis: u64 },
    /// A record, whole (its body only). Records nobody reads (every tag but strings, class
    /// loads, stack frames and traces) come with an empty body; so do heap-dump records,
    /// whose sub-records follow as the pieces below.
    Record { tag: u8, at: u64, body: &'a [u8] },
    /// A heap-dump sub-record other than an array, whole (its body, after the tag).
    Sub { tag: u8, at: u64, body: &'a [u8] },
    /// An array's dump begins: its fixed part (after the tag), then `elements` elements of
    /// `element_size` bytes follow as `ArrayData` (none for `PRIMITIVE_ARRAY_NODATA`).
    ArrayStart { tag: u8, at: u64, head: &'a [u8], elements: u64, element_size: usize },
    /// A run of an array's elements, whole ones.
    ArrayData(&'a [u8]),
    /// The array's elements have all come.
    ArrayEnd,
    /// A heap-dump record could not be read on from `at`: an unknown sub-record, a basic
    /// type that does not exist, or a sub-record longer than what is left of its record.
    /// The rest of that record is skipped; reading goes on with the next record.
    Damaged { at: u64, why: Damage },
}

/// Why part of a heap dump could not be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Damage {
    UnknownSubRecord(u8),
    UnknownType(u8),
    PastItsRecord,
}

/// Where the framing stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum At {
    Header,
    /// Between records.
    Record,
    /// Inside a heap-dump record, `left` bytes of it to come, between sub-records.
    Segment {
        left: u64,
    },
    /// Inside an array's elements.
    Array {
        elements: u64,
        size: usize,
        left: u64,
    },
    /// Bytes to pass over: the rest of a damaged heap dump, or a record nobody reads.
    Skip {
        left: u64,
    },
}

/// How long a sub-record's body is, from its first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Length {
    /// This many bytes.
    Whole(usize),
    /// Not known before there are this many bytes.
    AtLeast(usize),
    /// An array: a fixed part, then elements.
    Array { head: usize, elements: u64, size: usize },
}

/// The framing of one input.
#[derive(Debug)]
pub(super) struct Framing {
    at: At,
    id: usize,
}

impl Framing {
    pub(super) fn new() -> Self {
        Framing { at: At::Header, id: 0 }
    }

    /// Whether the input could end here: between records.
    pub(super) fn between_records(&self) -> bool {
        self.at == At::Record
    }

    /// Reads the whole pieces at the start of `data` (at input offset `offset`), handing
    /// each to `out`; returns the bytes used.
    pub(super) fn decode(&mut self, data: &[u8], offset: u64, out: &mut dyn FnMut(Piece<'_>)) -> Result<usize> {
        let mut used = 0;
        loop {
            let rest = &data[used..];
            let at = offset + used as u64;
            let step = match self.at {
                At::Header => self.header(rest, at, out)?,
                At::Record => self.record(rest, at, out)?,
                At::Segment { left: 0 } | At::Skip { left: 0 } => {
                    self.at = At::Record;
                    Some(0)
                }
                At::Segment { left } => self.sub_record(rest, at, left, out),
                At::Array { elements, size, left } => {
                    let whole = (rest.len() / size).min(elements.try_into().unwrap_or(usize::MAX));
                    if whole == 0 && elements > 0 {
                        None
                    } else {
                        if whole > 0 {
                            out(Piece::ArrayData(&rest[..whole * size]));
                        }
                        let elements = elements - whole as u64;
                        let left = left - (whole * size) as u64;
                        self.at = At::Array { elements, size, left };
                        if elements == 0 {
                            out(Piece::ArrayEnd);
                            self.at = At::Segment { left };
                        }
                        Some(whole * size)
                    }
                }
                At::Skip { left } => {
                    let take = rest.len().min(left.try_into().unwrap_or(usize::MAX));
                    self.at = At::Skip { left: left - take as u64 };
                    (take > 0).then_some(take)
                }
            };
            match step {
                Some(n) => used += n,
                None => return Ok(used),
            }
        }
    }

    fn header(&mut self, rest: &[u8], at: u64, out: &mut dyn FnMut(Piece<'_>)) -> Result<Option<usize>> {
        let Some(nul) = rest.iter().take(MAX_VERSION).position(|&b| b == 0) else {
            if rest.len() < MAX_VERSION {
                return Ok(None);
            }
            return Err(Error::new(ErrorKind::Corrupt, "the heap dump's version text does not end within 64 bytes"));
        };
        let Some(fixed) = rest.get(nul + 1..nul + 13) else {
            return Ok(None);
        };
        let id_size = u32::from_be_bytes(fixed[..4].try_into().expect("four bytes"));
        if id_size != 4 && id_size != 8 {
            return Err(Error::new(
                ErrorKind::Corrupt,
                format!(
                    "the heap dump's ids are {id_size} bytes long at byte {}; HPROF ids are 4 or 8",
                    at + nul as u64 + 1
                ),
            ));
        }
        self.id = id_size as usize;
        let millis = u64::from_be_bytes(fixed[4..].try_into().expect("eight bytes"));
        out(Piece::Header { version: &rest[..nul], id_size: id_size as u8, millis });
        self.at = At::Record;
        Ok(Some(nul + 13))
    }

    fn record(&mut self, rest: &[u8], at: u64, out: &mut dyn FnMut(Piece<'_>)) -> Result<Option<usize>> {
        let Some(head) = rest.get(..9) else {
            return Ok(None);
        };
        let tag = head[0];
        let length = u32::from_be_bytes(head[5..9].try_into().expect("four bytes"));
        if tag == HEAP_DUMP || tag == HEAP_DUMP_SEGMENT {
            self.at = At::Segment { left: u64::from(length) };
            out(Piece::Record { tag, at, body: &[] });
            return Ok(Some(9));
        }
        if !matches!(tag, 0x01 | 0x02 | 0x04 | 0x05) {
            self.at = At::Skip { left: u64::from(length) };
            out(Piece::Record { tag, at, body: &[] });
            return Ok(Some(9));
        }
        if length > MAX_RECORD {
            return Err(Error::new(
                ErrorKind::Corrupt,
                format!("record 0x{tag:02x} at byte {at} says it is {length} bytes long, longer than any such record"),
            ));
        }
        let Some(body) = rest.get(9..9 + length as usize) else {
            return Ok(None);
        };
        out(Piece::Record { tag, at, body });
        Ok(Some(9 + length as usize))
    }

    fn sub_record(&mut self, rest: &[u8], at: u64, left: u64, out: &mut dyn FnMut(Piece<'_>)) -> Option<usize> {
        let (&tag, body) = rest.split_first()?;
        let length = match sub_length(tag, body, self.id) {
            Ok(length) => length,
            Err(why) => return self.damaged(at, left, why, out),
        };
        let whole = match length {
            Length::AtLeast(n) | Length::Whole(n) if 1 + n as u64 > left => {
                return self.damaged(at, left, Damage::PastItsRecord, out)
            }
            Length::AtLeast(_) => return None,
            Length::Whole(n) => n,
            Length::Array { head, elements, size } => {
                let total = 1 + head as u64 + elements.saturating_mul(size as u64);
                if total > left {
                    return self.damaged(at, left, Damage::PastItsRecord, out);
                }
                let head_bytes = body.get(..head)?;
                out(Piece::ArrayStart { tag, at, head: head_bytes, elements, element_size: size });
                self.at = At::Array { elements, size: size.max(1), left: left - 1 - head as u64 };
                if elements == 0 || size == 0 {
                    out(Piece::ArrayEnd);
                    self.at = At::Segment { left: left - 1 - head as u64 };
                }
                return Some(1 + head);
            }
        };
        let body = body.get(..whole)?;
        out(Piece::Sub { tag, at, body });
        self.at = At::Segment { left: left - 1 - whole as u64 };
        Some(1 + whole)
    }
}

impl Framing {
    /// A heap-dump record that cannot be read on from `at`: the rest of it is skipped.
    fn damaged(&mut self, at: u64, left: u64, why: Damage, out: &mut dyn FnMut(Piece<'_>)) -> Option<usize> {
        out(Piece::Damaged { at, why });
        self.at = At::Skip { left };
        Some(0)
    }
}

/// The size of a value of basic type `code` (2 is an object id).
pub(super) fn type_size(code: u8, id: usize) -> Option<usize> {
    match code {
        2 => Some(id),
        4 | 8 => Some(1),
        5 | 9 => Some(2),
        6 | 10 => Some(4),
        7 | 11 => Some(8),
        _ => None,
    }
}

fn u16_at(b: &[u8], at: usize) -> usize {
    usize::from(u16::from_be_bytes([b[at], b[at + 1]]))
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_be_bytes(b[at..at + 4].try_into().expect("four bytes"))
}

/// How long the body of sub-record `tag` is, from its first bytes `b`.
fn sub_length(tag: u8, b: &[u8], id: usize) -> std::result::Result<Length, Damage> {
    let fixed = |n: usize| Ok(Length::Whole(n));
    match tag {
        // Roots.
        0xFF | 0x05 | 0x07 | 0x89 | 0x8A | 0x8B | 0x8C | 0x8D | 0x90 => fixed(id),
        0x01 => fixed(2 * id),
        0x02 | 0x03 | 0x08 | 0x8E => fixed(id + 8),
        0x04 | 0x06 => fixed(id + 4),
        // Heap-dump info (ART): u4 heap type, id of its name.
        0xFE => fixed(4 + id),
        0x20 => class_dump_length(b, id),
        0x21 => {
            let head = 2 * id + 8;
            if b.len() < head {
                return Ok(Length::AtLeast(head));
            }
            Ok(Length::Whole(head + u32_at(b, 2 * id + 4) as usize))
        }
        OBJECT_ARRAY => {
            let head = 2 * id + 8;
            if b.len() < head {
                return Ok(Length::AtLeast(head));
            }
            Ok(Length::Array { head, elements: u64::from(u32_at(b, id + 4)), size: id })
        }
        PRIMITIVE_ARRAY | PRIMITIVE_ARRAY_NODATA => {
            let head = id + 9;
            if b.len() < head {
                return Ok(Length::AtLeast(head));
            }
            let code = b[id + 8];
            let size = type_size(code, id).filter(|_| code != 2).ok_or(Damage::UnknownType(code))?;
            let elements = u64::from(u32_at(b, id + 4));
            match tag {
                PRIMITIVE_ARRAY => Ok(Length::Array { head, elements, size }),
                _ => Ok(Length::Array { head, elements: 0, size }),
            }
        }
        _ => Err(Damage::UnknownSubRecord(tag)),
    }
}

/// A class dump's length: seven ids and two u4s, then its constant pool, static fields
/// (each with its value) and instance fields, each list after a u2 count.
fn class_dump_length(b: &[u8], id: usize) -> std::result::Result<Length, Damage> {
    let mut at = 7 * id + 8;
    let need = |n: usize| Ok(Length::AtLeast(n));
    // Constant pool: u2 index, u1 type, value.
    if b.len() < at + 2 {
        return need(at + 2);
    }
    let entries = u16_at(b, at);
    at += 2;
    for _ in 0..entries {
        if b.len() < at + 3 {
            return need(at + 3);
        }
        at += 3 + type_size(b[at + 2], id).ok_or(Damage::UnknownType(b[at + 2]))?;
    }
    // Static fields: id name, u1 type, value.
    if b.len() < at + 2 {
        return need(at + 2);
    }
    let statics = u16_at(b, at);
    at += 2;
    for _ in 0..statics {
        if b.len() < at + id + 1 {
            return need(at + id + 1);
        }
        at += id + 1 + type_size(b[at + id], id).ok_or(Damage::UnknownType(b[at + id]))?;
    }
    // Instance fields: id name, u1 type.
    if b.len() < at + 2 {
        return need(at + 2);
    }
    Ok(Length::Whole(at + 2 + u16_at(b, at) * (id + 1)))
}
