//! The framing read against the shared dumps' own counts, in chunks of any size, and
//! damage skipped to the next record.

use super::framing::*;
use crate::feed::ChunkFeeder;
use rustc_hash::{FxHashMap, FxHasher};
use std::collections::BTreeMap;
use std::hash::Hasher;

/// What a dump's pieces say, counted: records by tag, sub-records by heap and tag, and
/// every piece in order with its offset (each array with a hash of its contents).
#[derive(Debug, Default, PartialEq)]
struct Counted {
    records: BTreeMap<u8, u64>,
    subs: BTreeMap<(String, u8), u64>,
    order: Vec<(u8, u64, u64)>,
}

fn read(bytes: &[u8], chunk: usize) -> Counted {
    let mut framing = Framing::new();
    let mut feeder = ChunkFeeder::default();
    let mut counted = Counted::default();
    let mut strings: FxHashMap<u64, String> = FxHashMap::default();
    let mut heap = String::from("default");
    // The array's contents so far (hashed whole: a hasher fed in pieces hashes the
    // pieces, not their concatenation).
    let mut array = Vec::new();
    for piece in bytes.chunks(chunk) {
        feeder
            .push(piece, |data, offset| {
                // Both dumps have 4-byte ids (the header's piece checks it).
                let id = 4;
                framing.decode(data, offset, &mut |piece| match piece {
                    Piece::Header { id_size, .. } => assert_eq!(id_size, 4),
                    Piece::Record { tag, at, body } => {
                        *counted.records.entry(tag).or_default() += 1;
                        counted.order.push((tag, at, body.len() as u64));
                        if tag == 0x01 {
                            let key = u64::from(u32::from_be_bytes(body[..4].try_into().unwrap()));
                            strings.insert(key, String::from_utf8_lossy(&body[4..]).into_owned());
                        }
                    }
                    Piece::Sub { tag, at, body } => {
                        if tag == 0xFE {
                            let name = u64::from(u32::from_be_bytes(body[4..4 + id].try_into().unwrap()));
                            heap = strings[&name].clone();
                        }
                        *counted.subs.entry((heap.clone(), tag)).or_default() += 1;
                        counted.order.push((tag, at, body.len() as u64));
                    }
                    Piece::ArrayStart { tag, at, elements, .. } => {
                        *counted.subs.entry((heap.clone(), tag)).or_default() += 1;
                        counted.order.push((tag, at, elements));
                        array.clear();
                    }
                    Piece::ArrayData(data) => array.extend_from_slice(data),
                    Piece::ArrayEnd => {
                        let mut hash = FxHasher::default();
                        hash.write(&array);
                        counted.order.push((0, array.len() as u64, hash.finish()));
                    }
                    Piece::Damaged { at, .. } => panic!("damaged at {at}"),
                })
            })
            .unwrap();
    }
    assert!(framing.between_records(), "the dump ends between records");
    assert!(feeder.rest().0.is_empty(), "every byte was read");
    counted
}

#[test]
fn the_shared_dumps_frame_as_their_sources_count_them_in_any_chunks() {
    if !droidflame_testkit::corpus_present("hprof framing") {
        return;
    }
    // (file, strings, class loads, segments, [class dumps, instances, object arrays,
    // primitive arrays] in app then zygote, roots by tag), as SOURCES.md counts them.
    let facts = [
        (
            "leakcanary-leak_service_binder.hprof",
            [23_108, 3_645, 647],
            [(93, 3_552), (2_352, 22_831), (135, 1_845), (855, 12_755)],
            [(0x05, 3_645), (0x89, 7_388), (0x01, 268), (0x03, 100), (0x08, 12), (0x02, 7), (0x8B, 3), (0x8A, 1)],
        ),
        (
            "leakcanary-leak_service_binder_ignored.hprof",
            [23_079, 3_630, 640],
            [(78, 3_552), (1_939, 22_843), (86, 1_845), (754, 12_755)],
            [(0x05, 3_630), (0x89, 7_366), (0x01, 267), (0x03, 119), (0x08, 12), (0x02, 6), (0x8B, 3), (0x8A, 1)],
        ),
    ];
    for (file, [strings, classes, segments], objects, roots) in facts {
        let bytes = droidflame_testkit::corpus_file(&format!("hprof/{file}"));
        let whole = read(&bytes, bytes.len());
        let records = |tag| whole.records.get(&tag).copied().unwrap_or(0);
        assert_eq!(
            [records(0x01), records(0x02), records(0x05), records(0x1C), records(0x2C)],
            [strings, classes, 1, segments, 1],
            "{file}"
        );
        let in_heap = |heap: &str, tag: u8| whole.subs.get(&(heap.to_owned(), tag)).copied().unwrap_or(0);
        for ((app, zygote), tag) in objects.into_iter().zip([0x20, 0x21, 0x22, 0x23]) {
            assert_eq!((in_heap("app", tag), in_heap("zygote", tag)), (app, zygote), "{file} 0x{tag:02x}");
        }
        for (tag, count) in roots {
            let all: u64 = whole.subs.iter().filter(|((_, t), _)| *t == tag).map(|(_, n)| n).sum();
            assert_eq!(all, count, "{file} root 0x{tag:02x}");
        }
        for chunk in [1, 7, 4096] {
            assert!(read(&bytes, chunk) == whole, "{file} in chunks of {chunk}");
        }
    }
}

/// A dump of 4-byte ids: the header, then `records` (tag, body) as they are.
fn dump(records: &[(u8, Vec<u8>)]) -> Vec<u8> {
    let mut out = b"JAVA PROFILE 1.0.3\0".to_vec();
    out.extend(4u32.to_be_bytes());
    out.extend(0u64.to_be_bytes());
    for (tag, body) in records {
        out.push(*tag);
        out.extend(0u32.to_be_bytes());
        out.extend((body.len() as u32).to_be_bytes());
        out.extend(body);
    }
    out
}

/// Every piece of `bytes` read in chunks of `chunk`, in words.
fn pieces(bytes: &[u8], chunk: usize) -> (Vec<String>, bool) {
    let mut framing = Framing::new();
    let mut feeder = ChunkFeeder::default();
    let mut said = Vec::new();
    for piece in bytes.chunks(chunk) {
        feeder.push(piece, |data, offset| framing.decode(data, offset, &mut |p| said.push(format!("{p:?}")))).unwrap();
    }
    // Runs of array elements come as the chunks allow: joined, they are the same.
    let mut joined: Vec<String> = Vec::new();
    for piece in said {
        match (joined.last_mut(), piece.strip_prefix("ArrayData(")) {
            (Some(last), Some(more)) if last.starts_with("ArrayData(") => {
                last.truncate(last.len() - 2);
                last.push_str(", ");
                last.push_str(&more[1..]);
            }
            _ => joined.push(piece),
        }
    }
    (joined, framing.between_records())
}

#[test]
fn a_heap_dump_that_cannot_be_read_on_is_skipped_to_its_next_record() {
    let sub = |tag: u8, body: &[u8]| [&[tag][..], body].concat();
    let root = sub(0x05, &[0, 0, 0, 1]);
    // A primitive array of three ints; then a sub-record no dump has.
    let array = sub(0x23, &[0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 3, 10, 0, 0, 0, 7, 0, 0, 0, 8, 0, 0, 0, 9]);
    let unknown = sub(0x77, &[1, 2, 3]);
    // An object array that says it has more elements than its record holds.
    let long = sub(0x22, &[0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 4, 0, 0, 0, 1]);
    let bytes = dump(&[
        (0x1C, [root.clone(), array, unknown, root.clone()].concat()),
        (0x1C, [root.clone(), long].concat()),
        (0x2C, Vec::new()),
    ]);
    let (whole, ended) = pieces(&bytes, bytes.len());
    assert!(ended);
    let expected = [
        "Header { version: [74, 65, 86, 65, 32, 80, 82, 79, 70, 73, 76, 69, 32, 49, 46, 48, 46, 51], id_size: 4, millis: 0 }",
        "Record { tag: 28, at: 31, body: [] }",
        "Sub { tag: 5, at: 40, body: [0, 0, 0, 1] }",
        "ArrayStart { tag: 35, at: 45, head: [0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 3, 10], elements: 3, element_size: 4 }",
        "ArrayData([0, 0, 0, 7, 0, 0, 0, 8, 0, 0, 0, 9])",
        "ArrayEnd",
        "Damaged { at: 71, why: UnknownSubRecord(119) }",
        "Record { tag: 28, at: 80, body: [] }",
        "Sub { tag: 5, at: 89, body: [0, 0, 0, 1] }",
        "Damaged { at: 94, why: PastItsRecord }",
        "Record { tag: 44, at: 115, body: [] }",
    ];
    assert_eq!(whole, expected);
    for chunk in [1, 2, 3, 5] {
        assert_eq!(pieces(&bytes, chunk), (whole.clone(), true), "in chunks of {chunk}");
    }
    // Cut inside a record: not between records.
    assert!(!pieces(&bytes[..bytes.len() - 12], 4).1);
}

#[test]
fn ids_are_four_or_eight_bytes() {
    let mut bytes = dump(&[]);
    bytes[22] = 5;
    let mut framing = Framing::new();
    let error = framing.decode(&bytes, 0, &mut |_| {}).unwrap_err();
    assert_eq!(
        error.to_string(),
        "corrupt trace: the heap dump's ids are 5 bytes long at byte 19; HPROF ids are 4 or 8"
    );
}
