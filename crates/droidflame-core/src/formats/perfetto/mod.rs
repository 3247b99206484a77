//! Perfetto protobuf traces (`.perfetto-trace`, `.pftrace`, Android Studio's system
//! trace `.trace`): packets are cut out as bytes stream in (`framing`), decoded with only
//! the fields droidflame reads (`proto`), put back in time order (`sorter`) and given
//! meaning (`packets`) in the same system model as atrace text, so the same events give the
//! same profile whichever way they were recorded.

mod code;
mod cpu_samples;
mod events;
mod frame_timeline;
mod framing;
mod heap_dumps;
mod java_heap_proto;
mod java_heaps;
mod notes;
mod packets;
mod profiling_proto;
mod proto;
mod sequence;
mod sorted;
mod sorter;
mod stages;
mod stats;
mod track_events;
mod unpack;

use crate::error::{Error, Result};
use crate::importer::{Format, Imported, Importer, Input, Sniff, Stages};
use crate::profile::ProfileBuilder;
use framing::MAX_PACKET;
use stages::{PacketBack, PacketFront};

/// Recognises a Perfetto trace from its first bytes: field 1 (a packet) whose first fields
/// are well formed. `None`: not sure yet.
pub fn sniff(head: &[u8], complete: bool) -> Option<bool> {
    let unsure = || if complete { Some(false) } else { None };
    if head.first() != Some(&0x0A) {
        return Some(false);
    }
    let Some((len, n)) = read_varint(&head[1..]) else {
        return if head.len() > 11 { Some(false) } else { unsure() };
    };
    if len == 0 || len > MAX_PACKET {
        return Some(false);
    }
    // Up to three fields of the first packet, as far as the head holds them.
    let end = (1 + n + len as usize).min(head.len());
    let mut at = 1 + n;
    for _ in 0..3 {
        if at >= end {
            break;
        }
        let Some((key, k)) = read_varint(&head[at..end]) else {
            return if end == head.len() { unsure() } else { Some(false) };
        };
        let (field, wire) = (key >> 3, key & 7);
        if field == 0 || ![0, 1, 2, 5].contains(&wire) {
            return Some(false);
        }
        at += k;
        at += match wire {
            0 => match read_varint(&head[at.min(end)..end]) {
                Some((_, v)) => v,
                None => break,
            },
            1 => 8,
            5 => 4,
            _ => match read_varint(&head[at.min(end)..end]) {
                Some((l, v)) if l <= len => v + l as usize,
                Some(_) => return Some(false),
                None => break,
            },
        };
    }
    Some(true)
}

/// A whole varint at the start of `bytes`, if there is one.
fn read_varint(bytes: &[u8]) -> Option<(u64, usize)> {
    framing::varint(bytes).flatten()
}

/// Reads one Perfetto trace, in chunks, into a `ProfileBuilder`: its front and back
/// (`stages`) composed on one thread.
pub struct PerfettoDecoder {
    front: PacketFront,
    back: PacketBack,
    /// The error that stopped the reading, if one did.
    failed: Option<Error>,
}

/// The registry's entry: protobuf traces (a stream of `TracePacket`s).
pub(crate) const FORMAT: Format = Format {
    family: "perfetto",
    sniff: |head, complete| Sniff::from_answer(sniff(head, complete)),
    start,
    pair: None,
    split: None,
    stages: Some(stages_of),
};

fn start(head: &[u8], input: &Input) -> Box<dyn Importer> {
    let _ = head;
    Box::new(PerfettoDecoder { front: PacketFront::new(input), back: PacketBack::new(input), failed: None })
}

fn stages_of(head: &[u8], input: &Input) -> Stages {
    let _ = head;
    Stages { front: Box::new(PacketFront::new(input)), back: Box::new(PacketBack::new(input)) }
}

impl Importer for PerfettoDecoder {
    fn push(&mut self, bytes: &[u8], builder: &mut ProfileBuilder) -> Result<()> {
        // Each packet is read by the back as soon as the front has cut it: an input pushed
        // whole is never held decoded whole.
        let (back, failed) = (&mut self.back, &mut self.failed);
        self.front.each(bytes, &mut |steps| {
            if failed.is_none() {
                *failed = back.read(steps, builder).err();
            }
            steps.clear();
            back.spent()
        });
        self.failed.clone().map_or(Ok(()), Err)
    }

    fn finish(mut self: Box<Self>, builder: &mut ProfileBuilder) -> Result<Imported> {
        if let Some(error) = self.failed {
            return Err(error);
        }
        let last = self.front.end();
        self.back.finish_with(last, builder)
    }
}
