//! One small app heap written both ways, as HPROF and as a Perfetto heap graph, so that a
//! test can check that both readers give the same model, and its numbers by hand:
//!
//! - `com.example.Cache` (class object 0x130, a sticky-class root) holds in its static
//!   `activities` the `Object[]` 0x1010 of two `MainActivity`s: 0x1000, destroyed, and
//!   0x1002, alive;
//! - each activity holds a fragment in `.fragment`: 0x1001, detached (no fragment
//!   manager), and 0x1003, whose manager is the `Object` 0x1004; 0x1000 holds the
//!   `byte[100]` 0x1006 in `.data`;
//! - LeakCanary's `KeyedWeakReference` 0x1005 (a JNI global) watches 0x1000 (its
//!   referent) and holds 0x1004 in its `queue`.
//!
//! Classes live in the `zygote` heap, instances in `app`. Sizes: `Class` 50 (so 0x130 is
//! 54 with its static), `MainActivity` 20, `Fragment` 12, `Object` 8, the reference 16,
//! the arrays 8 and 100. No other class object is a root, so those eight (400 bytes) are
//! unreachable. A heap graph records no field values: there, 0x1000 is not known to be
//! destroyed.

use crate::hprof::{HprofWriter, Value::*};
use crate::perfetto::Trace;
use crate::perfetto_heap::{Encoding, HeapGraphWriter, HeapType, TypeKind};

/// Classes with a class dump: (class object id, name, superclass's, instance size,
/// reference fields). The array classes (0x150 `Object[]`, 0x151 `byte[]`) have none.
const CLASSES: [(u64, &str, u64, u64, &[&str]); 9] = [
    (0x100, "java.lang.Object", 0, 8, &[]),
    (0x101, "java.lang.Class", 0x100, 50, &[]),
    (0x102, "java.lang.ref.Reference", 0x100, 16, &["referent", "queue"]),
    (0x103, "java.lang.ref.WeakReference", 0x102, 16, &[]),
    (0x110, "android.app.Activity", 0x100, 20, &[]),
    (0x111, "com.example.MainActivity", 0x110, 20, &["fragment", "data"]),
    (0x120, "androidx.fragment.app.Fragment", 0x100, 12, &["mFragmentManager"]),
    (0x130, "com.example.Cache", 0x100, 8, &[]),
    (0x140, "leakcanary.KeyedWeakReference", 0x103, 16, &[]),
];

/// The heap as ART's HPROF writer gives it (4-byte ids).
pub fn hprof() -> Vec<u8> {
    let mut w = HprofWriter::new(4);
    for &(id, name, ..) in &CLASSES {
        w.load_class(id, &name.replace('.', "/"));
    }
    w.load_class(0x150, "[Ljava/lang/Object;");
    w.load_class(0x151, "[B");
    w.heap("zygote");
    w.class_dump(0x100, 0, 8, &[], &[]);
    w.class_dump(0x101, 0x100, 50, &[], &[]);
    w.class_dump(0x102, 0x100, 16, &[], &[("referent", 2), ("queue", 2)]);
    w.class_dump(0x103, 0x102, 16, &[], &[]);
    w.class_dump(0x110, 0x100, 20, &[], &[("mDestroyed", 4)]);
    w.class_dump(0x111, 0x110, 20, &[], &[("fragment", 2), ("data", 2)]);
    w.class_dump(0x120, 0x100, 12, &[], &[("mFragmentManager", 2)]);
    w.class_dump(0x130, 0x100, 8, &[("activities", Object(0x1010))], &[]);
    w.class_dump(0x140, 0x103, 16, &[], &[]);
    w.heap("app");
    w.object_array(0x1010, 0x150, &[0x1000, 0x1002]);
    w.instance(0x1000, 0x111, &[Object(0x1001), Object(0x1006), Bool(true)]);
    w.instance(0x1002, 0x111, &[Object(0x1003), Object(0), Bool(false)]);
    w.instance(0x1001, 0x120, &[Object(0)]);
    w.instance(0x1003, 0x120, &[Object(0x1004)]);
    w.instance(0x1004, 0x100, &[]);
    w.instance(0x1005, 0x140, &[Object(0x1000), Object(0x1004)]);
    w.byte_array(0x1006, &[1; 100]);
    w.root(0x05, 0x130);
    w.root(0x01, 0x1005);
    w.finish()
}

/// A class's type id is its class object's id (as ART's is its address); the type of its
/// class object is another (ART's: the address with its low bit set).
fn class_object_type(class: u64) -> u64 {
    class | 1 << 40
}

/// The heap as ART's `perfetto_hprof` gives it: pid 4242 at 1 ms on sequence 7, in
/// packets as `encoding` says.
pub fn heap_graph(encoding: Encoding) -> Vec<u8> {
    let mut w = HeapGraphWriter::new(4242, 1_000_000, 7, encoding);
    w.root(5, &[0x130]);
    w.root(1, &[0x1005]);
    for &(id, name, superclass, size, fields) in &CLASSES {
        let kind = match name {
            "java.lang.ref.WeakReference" | "leakcanary.KeyedWeakReference" => TypeKind::WeakReference,
            "com.example.Cache" => TypeKind::NoReferences,
            _ => TypeKind::Normal,
        };
        w.class(id, name, size, superclass, kind, fields);
        w.class_object_type(class_object_type(id), name);
        let (size, names, references) = match id {
            0x130 => (54, &["com.example.Cache.activities"][..], &[0x1010][..]),
            _ => (50, &[][..], &[][..]),
        };
        w.object(id, class_object_type(id), Some(size), HeapType::Zygote, Some(names), references);
    }
    w.class(0x150, "java.lang.Object[]", 0, 0x100, TypeKind::Array, &[]);
    w.class(0x151, "byte[]", 0, 0x100, TypeKind::NoReferences, &[]);
    let app = HeapType::App;
    w.object(0x1010, 0x150, Some(8), app, None, &[0x1000, 0x1002]);
    w.object(0x1000, 0x111, None, app, None, &[0x1001, 0x1006]);
    w.object(0x1002, 0x111, None, app, None, &[0x1003, 0]);
    w.object(0x1001, 0x120, None, app, None, &[0]);
    w.object(0x1003, 0x120, None, app, None, &[0x1004]);
    w.object(0x1004, 0x100, None, app, None, &[]);
    w.object(0x1005, 0x140, None, app, None, &[0x1000, 0x1004]);
    w.object(0x1006, 0x151, Some(100), app, None, &[]);
    Trace::of(&w.finish()).bytes
}
