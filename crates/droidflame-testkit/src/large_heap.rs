//! A large heap dump for benchmarks, written as it is made: what a HotSpot dump of a busy
//! app holds (8-byte ids, one heap). Classes in a hierarchy, each with object and int
//! fields; class statics that hold registries (`Object[]`), whose elements grow into trees
//! of instances, arrays and byte buffers, with one reference in twenty to an object made
//! earlier elsewhere (so dominators are not just the tree), and a byte buffer of a few
//! hundred bytes at most leaves. About 110 bytes of dump per object.

use crate::hprof::{HprofWriter, Value};
use crate::scenario::Rng;
use std::collections::VecDeque;
use std::io::{self, Write};

const CLASSES: u64 = 700;
/// Classes whose statics hold a registry: the trees' roots.
const REGISTRIES: u64 = 120;
const CLASS_IDS: u64 = 0x1000;
const OBJECT_IDS: u64 = 0x10_0000;
/// Objects written between two segments.
const SEGMENT: u64 = 20_000;

/// A class: its superclass (a class number; `None`: `java.lang.Object`), its own object
/// fields and int fields.
struct Class {
    superclass: Option<u64>,
    objects: u64,
    ints: u64,
}

impl Class {
    fn instance_size(&self, classes: &[Class]) -> u32 {
        let own = (self.objects * 8 + self.ints * 4) as u32;
        own + self.superclass.map_or(0, |s| classes[s as usize].instance_size(classes))
    }
}

/// What an object waiting to be written is.
#[derive(Clone, Copy)]
enum Pending {
    Instance(u64),
    Array(u64),
    Bytes(u64),
}

/// Writes a dump of about `objects` objects; returns the bytes written.
pub fn write_large_heap(out: &mut impl Write, objects: u64, seed: u64) -> io::Result<u64> {
    let mut rng = Rng::new(seed);
    let mut w = HprofWriter::new(8);
    let mut written = 0u64;
    let mut flush = |w: &mut HprofWriter, out: &mut dyn Write| -> io::Result<()> {
        w.end_segment();
        let bytes = w.take_bytes();
        written += bytes.len() as u64;
        out.write_all(&bytes)
    };
    w.load_class(CLASS_IDS, "java/lang/Object");
    w.load_class(CLASS_IDS + 1, "java/lang/Class");
    w.load_class(CLASS_IDS + 2, "[Ljava/lang/Object;");
    w.load_class(CLASS_IDS + 3, "[B");
    let classes: Vec<Class> = (0..CLASSES)
        .map(|i| Class { superclass: (i >= 50).then(|| rng.below(50)), objects: 1 + rng.below(4), ints: rng.below(4) })
        .collect();
    for i in 0..CLASSES {
        w.load_class(class_id(i), &format!("com/example/app/feature{}/Component{i}", i % 37));
    }
    w.class_dump(CLASS_IDS, 0, 0, &[], &[]);
    w.class_dump(CLASS_IDS + 1, CLASS_IDS, 96, &[], &[]);
    w.class_dump(CLASS_IDS + 2, CLASS_IDS, 0, &[], &[]);
    w.class_dump(CLASS_IDS + 3, CLASS_IDS, 0, &[], &[]);
    let mut next_id = OBJECT_IDS;
    let mut queue: VecDeque<(u64, Pending)> = VecDeque::new();
    let mut fresh = |kind: Pending, queue: &mut VecDeque<(u64, Pending)>| {
        next_id += 16;
        queue.push_back((next_id, kind));
        next_id
    };
    let field_names: Vec<String> = (0..4).map(|f| format!("ref{f}")).collect();
    let int_names: Vec<String> = (0..4).map(|f| format!("n{f}")).collect();
    for (i, class) in classes.iter().enumerate() {
        let registry = (i as u64) < REGISTRIES;
        let statics: Vec<(&str, Value)> = match registry {
            true => vec![("registry", Value::Object(fresh(Pending::Array(8 + rng.below(24)), &mut queue)))],
            false => vec![("count", Value::Int(i as i32))],
        };
        let fields: Vec<(&str, u8)> = (0..class.objects)
            .map(|f| (field_names[f as usize].as_str(), 2))
            .chain((0..class.ints).map(|f| (int_names[f as usize].as_str(), 10)))
            .collect();
        let superclass = class.superclass.map_or(CLASS_IDS, class_id);
        w.class_dump(class_id(i as u64), superclass, class.instance_size(&classes), &statics, &fields);
        w.root(0x05, class_id(i as u64));
    }
    flush(&mut w, out)?;
    let mut made = 0u64;
    // Breadth-first: each object's children get ids when it is written, and are written
    // after it; a reference to an earlier id is a link across the trees.
    while let Some((id, kind)) = queue.pop_front() {
        let budget_left = made + (queue.len() as u64) < objects;
        let mut child = |rng: &mut Rng, queue: &mut VecDeque<(u64, Pending)>| -> u64 {
            if !budget_left || rng.chance(15) {
                return 0;
            }
            if rng.chance(5) && id > OBJECT_IDS + 16 {
                return OBJECT_IDS + 16 * (1 + rng.below((id - OBJECT_IDS) / 16));
            }
            let kind = match rng.below(10) {
                0..=5 => Pending::Instance(rng.below(CLASSES)),
                6 => Pending::Array(1 + rng.below(12)),
                _ => Pending::Bytes(rng.below(400)),
            };
            fresh(kind, queue)
        };
        match kind {
            Pending::Instance(c) => {
                let mut values = Vec::new();
                let mut at = Some(c);
                while let Some(class) = at {
                    let class_ref = &classes[class as usize];
                    for _ in 0..class_ref.objects {
                        values.push(Value::Object(child(&mut rng, &mut queue)));
                    }
                    for n in 0..class_ref.ints {
                        values.push(Value::Int(n as i32));
                    }
                    at = class_ref.superclass;
                }
                w.instance(id, class_id(c), &values);
            }
            Pending::Array(length) => {
                let elements: Vec<u64> = (0..length).map(|_| child(&mut rng, &mut queue)).collect();
                w.object_array(id, CLASS_IDS + 2, &elements);
            }
            Pending::Bytes(length) => w.byte_array(id, &vec![(id & 0xFF) as u8; length as usize]),
        }
        made += 1;
        if made % SEGMENT == 0 {
            flush(&mut w, out)?;
        }
    }
    w.root(0x03, OBJECT_IDS + 16);
    let rest = w.finish();
    out.write_all(&rest)?;
    Ok(written + rest.len() as u64)
}

fn class_id(class: u64) -> u64 {
    CLASS_IDS + 0x10 + class * 0x10
}
