//! The parts of ART's Java heap graph schema droidflame reads (`heap_graph.proto`, the
//! `heap_graph` field 56 of a `TracePacket`), by field number. Objects stay bytes: a dump
//! has millions, and they are walked once, field by field, without a message each
//! (`java_heaps`).

use super::profiling_proto::InternedString;
use bytes::Bytes;

/// `HeapGraph`, as a packet is first met: which dump it belongs to and where in it.
#[derive(Clone, PartialEq, prost::Message)]
pub struct HeapGraphHead {
    #[prost(int32, optional, tag = "1")]
    pub pid: Option<i32>,
    /// More packets of this dump follow.
    #[prost(bool, optional, tag = "5")]
    pub continued: Option<bool>,
    /// The packet's place in its dump: 0, 1, 2…
    #[prost(uint64, optional, tag = "6")]
    pub index: Option<u64>,
}

/// `HeapGraph`, whole.
#[derive(Clone, PartialEq, prost::Message)]
pub struct HeapGraph {
    /// `HeapGraphObject`s, undecoded.
    #[prost(bytes = "bytes", repeated, tag = "2")]
    pub objects: Vec<Bytes>,
    /// Field names (`int[] com.example.Foo.bar`), interned within the dump.
    #[prost(message, repeated, tag = "4")]
    pub field_names: Vec<InternedString>,
    #[prost(message, repeated, tag = "7")]
    pub roots: Vec<HeapGraphRoot>,
    #[prost(message, repeated, tag = "9")]
    pub types: Vec<HeapGraphType>,
}

/// `HeapGraphRoot`: objects held by one kind of GC root.
#[derive(Clone, PartialEq, prost::Message)]
pub struct HeapGraphRoot {
    /// Packed or not: both are read.
    #[prost(uint64, repeated, tag = "1")]
    pub object_ids: Vec<u64>,
    #[prost(int32, optional, tag = "2")]
    pub root_type: Option<i32>,
}

/// `HeapGraphType`: a class, or (named `java.lang.Class<X>`) the type of X's class object.
#[derive(Clone, PartialEq, prost::Message)]
pub struct HeapGraphType {
    #[prost(uint64, optional, tag = "1")]
    pub id: Option<u64>,
    #[prost(bytes = "bytes", optional, tag = "3")]
    pub class_name: Option<Bytes>,
    #[prost(uint64, optional, tag = "4")]
    pub object_size: Option<u64>,
    #[prost(uint64, optional, tag = "5")]
    pub superclass_id: Option<u64>,
    /// The names (field-name iids) of the reference fields this class itself declares.
    #[prost(uint64, repeated, tag = "6")]
    pub reference_field_id: Vec<u64>,
    #[prost(int32, optional, tag = "7")]
    pub kind: Option<i32>,
}

/// `HeapGraphType.Kind` values droidflame tells apart.
pub const KIND_NOREFERENCES: i32 = 2;
pub const KIND_STRING: i32 = 3;
pub const KIND_ARRAY: i32 = 4;
pub const KIND_SOFT_REFERENCE: i32 = 8;
pub const KIND_WEAK_REFERENCE: i32 = 9;
pub const KIND_FINALIZER_REFERENCE: i32 = 10;
pub const KIND_PHANTOM_REFERENCE: i32 = 11;

/// `HeapGraphObject` field numbers.
pub mod object {
    pub const ID: u32 = 1;
    pub const TYPE_ID: u32 = 2;
    pub const SELF_SIZE: u32 = 3;
    pub const REFERENCE_FIELD_ID: u32 = 4;
    pub const REFERENCE_OBJECT_ID: u32 = 5;
    pub const REFERENCE_FIELD_ID_BASE: u32 = 6;
    pub const ID_DELTA: u32 = 7;
    pub const HEAP_TYPE_DELTA: u32 = 9;
    pub const RUNTIME_INTERNAL_OBJECT_ID: u32 = 10;
}
