//! A Perfetto trace is a `Trace` message: packets, each field 1 (length-delimited) of it,
//! one after another. `PacketFraming` cuts them out as the bytes stream in; nothing here
//! looks inside a packet.

use bytes::Bytes;

/// A packet longer than this only comes from damage (Perfetto writes packets of at most a
/// few MB; compressed bundles stay far below this).
pub const MAX_PACKET: u64 = 128 << 20;

/// Why the framing stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Broken {
    /// A field header that no `Trace` holds (a wire type that does not exist, a length past
    /// the packet limit): the bytes from here on cannot be cut into packets.
    Damaged { at: u64 },
}

/// Cuts packets out of the bytes of a `Trace`, in chunks of any size.
#[derive(Debug, Default)]
pub struct PacketFraming {
    /// The bytes of a packet begun and not yet whole.
    held: Vec<u8>,
    /// Input offset of the next field (`held[0]` where one is begun).
    offset: u64,
    /// Fields of `Trace` other than packets, skipped.
    pub other_fields: u64,
    /// Set when the framing broke; later bytes are ignored.
    pub broken: Option<Broken>,
    /// Input bytes pushed, those after the break too.
    pushed: u64,
}

/// A varint at the start of `bytes`: its value and length; `None` while incomplete, and
/// `Some(None)` when it runs past ten bytes (damage).
pub(super) fn varint(bytes: &[u8]) -> Option<Option<(u64, usize)>> {
    let mut value = 0u64;
    for (i, &b) in bytes.iter().enumerate().take(10) {
        value |= u64::from(b & 0x7F) << (7 * i);
        if b < 0x80 {
            return Some(Some((value, i + 1)));
        }
    }
    if bytes.len() >= 10 {
        Some(None)
    } else {
        None
    }
}

/// What the bytes at a field's start hold.
enum Field {
    /// A whole field of `len` bytes; where it is a packet, the packet's bytes in it.
    Whole { len: usize, packet: Option<std::ops::Range<usize>> },
    /// Not all of it: at least this many more bytes are needed.
    Short(usize),
    /// A field header that no `Trace` holds.
    Broken,
}

/// The field at the start of `bytes`.
fn field(bytes: &[u8]) -> Field {
    let header = |v: Option<Option<(u64, usize)>>| match v {
        None => Err(Field::Short(1)),
        Some(None) => Err(Field::Broken),
        Some(Some(found)) => Ok(found),
    };
    let (key, key_len) = match header(varint(bytes)) {
        Ok(found) => found,
        Err(field) => return field,
    };
    let (number, wire) = (key >> 3, key & 7);
    let body = &bytes[key_len..];
    let (head, size) = match wire {
        0 => match header(varint(body)) {
            Ok((_, len)) => (len, 0),
            Err(field) => return field,
        },
        1 => (0, 8),
        5 => (0, 4),
        2 => match header(varint(body)) {
            Ok((len, _)) if len > MAX_PACKET => return Field::Broken,
            Ok((len, n)) => (n, len as usize),
            Err(field) => return field,
        },
        _ => return Field::Broken,
    };
    let len = key_len + head + size;
    if bytes.len() < len {
        return Field::Short(len - bytes.len());
    }
    let packet = (number == 1 && wire == 2).then_some(key_len + head..len);
    Field::Whole { len, packet }
}

impl PacketFraming {
    /// Reads the next bytes; `on_packet` gets each whole packet and its input offset.
    /// Each packet's bytes are copied once, into a buffer of its own (a packet's parts
    /// may outlive it, and must not keep a whole chunk alive).
    pub fn push(&mut self, mut input: &[u8], on_packet: &mut dyn FnMut(Bytes, u64)) {
        self.pushed += input.len() as u64;
        if self.broken.is_some() {
            return;
        }
        // A field begun in an earlier push is completed first, from as many bytes as it
        // still needs.
        while !self.held.is_empty() {
            match field(&self.held) {
                Field::Short(need) => {
                    let take = need.min(input.len());
                    self.held.extend_from_slice(&input[..take]);
                    input = &input[take..];
                    if take < need {
                        return;
                    }
                }
                Field::Broken => return self.broke(self.offset),
                Field::Whole { len, packet } => {
                    let held = Bytes::from(std::mem::take(&mut self.held));
                    self.take(len, packet.map(|p| held.slice(p)), on_packet);
                }
            }
        }
        let mut start = 0;
        loop {
            match field(&input[start..]) {
                Field::Whole { len, packet } => {
                    let packet = packet.map(|p| Bytes::copy_from_slice(&input[start + p.start..start + p.end]));
                    self.take(len, packet, on_packet);
                    start += len;
                }
                Field::Short(_) => {
                    self.held.extend_from_slice(&input[start..]);
                    return;
                }
                Field::Broken => return self.broke(self.offset),
            }
        }
    }

    /// A whole field of `len` bytes at `offset`: a packet to `on_packet`, any other field
    /// counted.
    fn take(&mut self, len: usize, packet: Option<Bytes>, on_packet: &mut dyn FnMut(Bytes, u64)) {
        match packet {
            Some(packet) => on_packet(packet, self.offset),
            None => self.other_fields += 1,
        }
        self.offset += len as u64;
    }

    fn broke(&mut self, at: u64) {
        self.broken = Some(Broken::Damaged { at });
    }

    /// Bytes of a packet the input ended inside (the file was cut short), and where it began.
    pub fn unfinished(&self) -> Option<(u64, u64)> {
        let rest = self.held.len();
        (self.broken.is_none() && rest > 0).then_some((self.offset, rest as u64))
    }

    /// Input bytes pushed so far, however they were cut into chunks.
    pub fn read(&self) -> u64 {
        self.pushed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn packets(bytes: &[u8], chunk: usize) -> (Vec<Vec<u8>>, PacketFraming) {
        let mut framing = PacketFraming::default();
        let mut out = Vec::new();
        for piece in bytes.chunks(chunk) {
            framing.push(piece, &mut |p, _| out.push(p.to_vec()));
        }
        (out, framing)
    }

    #[test]
    fn packets_are_cut_out_in_chunks_of_any_size() {
        let mut trace = vec![0x0A, 2, 8, 1, 0x0A, 0];
        trace.extend([0x0A, 0x81, 0x01]);
        trace.extend(vec![7u8; 129]);
        trace.extend([0x10, 5]); // another field: skipped
        for chunk in [1, 2, 3, 1000] {
            let (out, framing) = packets(&trace, chunk);
            assert_eq!(out.len(), 3, "chunks of {chunk}");
            assert_eq!(out[0], vec![8, 1]);
            assert_eq!(out[2].len(), 129);
            assert_eq!((framing.other_fields, framing.unfinished()), (1, None));
        }
        let (out, framing) = packets(&trace[..10], 4);
        assert_eq!(out.len(), 2);
        assert_eq!(framing.unfinished(), Some((6, 4)));
        // Every byte is counted, those after the break too, in chunks of any size.
        for chunk in [1, 2, 5] {
            let (_, framing) = packets(&[0x0A, 1, 0, 0x0B, 1, 2, 3], chunk);
            assert_eq!((framing.broken, framing.read()), (Some(Broken::Damaged { at: 3 }), 7), "chunks of {chunk}");
        }
    }
}
