//! The parts of Perfetto's profiling schema droidflame reads (`protos/perfetto/trace/
//! profiling/…` and `interned_data.proto`), by field number: CPU callstack samples
//! (`PerfSample`), heap dumps (`ProfilePacket`), and the interned code they name (function
//! names, mappings, frames, callstacks).

use bytes::Bytes;

/// `InternedString`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct InternedString {
    #[prost(uint64, optional, tag = "1")]
    pub iid: Option<u64>,
    #[prost(bytes = "bytes", optional, tag = "2")]
    pub str: Option<Bytes>,
}

/// `Mapping`: a file of code mapped into a process.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Mapping {
    #[prost(uint64, optional, tag = "1")]
    pub iid: Option<u64>,
    #[prost(uint64, optional, tag = "2")]
    pub build_id: Option<u64>,
    /// Its path, one interned string per folder (`system`, `lib64`, `libc.so`).
    #[prost(uint64, repeated, packed = "false", tag = "7")]
    pub path_string_ids: Vec<u64>,
}

/// `Frame`: a function, or an address in a mapping.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Frame {
    #[prost(uint64, optional, tag = "1")]
    pub iid: Option<u64>,
    #[prost(uint64, optional, tag = "2")]
    pub function_name_id: Option<u64>,
    #[prost(uint64, optional, tag = "3")]
    pub mapping_id: Option<u64>,
    #[prost(uint64, optional, tag = "4")]
    pub rel_pc: Option<u64>,
}

/// `Callstack`: frames, outermost first.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Callstack {
    #[prost(uint64, optional, tag = "1")]
    pub iid: Option<u64>,
    #[prost(uint64, repeated, packed = "false", tag = "2")]
    pub frame_ids: Vec<u64>,
}

/// `PerfSample` (traced_perf): one sample, or a report of what was lost or skipped.
#[derive(Clone, PartialEq, prost::Message)]
pub struct PerfSample {
    #[prost(uint32, optional, tag = "1")]
    pub cpu: Option<u32>,
    #[prost(uint32, optional, tag = "2")]
    pub pid: Option<u32>,
    #[prost(uint32, optional, tag = "3")]
    pub tid: Option<u32>,
    #[prost(uint64, optional, tag = "4")]
    pub callstack_iid: Option<u64>,
    #[prost(int32, optional, tag = "5")]
    pub cpu_mode: Option<i32>,
    #[prost(uint64, optional, tag = "6")]
    pub timebase_count: Option<u64>,
    #[prost(int32, optional, tag = "16")]
    pub unwind_error: Option<i32>,
    #[prost(uint64, optional, tag = "17")]
    pub kernel_records_lost: Option<u64>,
    #[prost(int32, optional, tag = "18")]
    pub sample_skipped_reason: Option<i32>,
}

/// `PerfSampleDefaults`: what a sequence's samples count.
#[derive(Clone, PartialEq, prost::Message)]
pub struct PerfSampleDefaults {
    #[prost(message, optional, tag = "1")]
    pub timebase: Option<Timebase>,
}

/// `PerfEvents.Timebase`: the event that takes a sample, and how often.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Timebase {
    #[prost(uint64, optional, tag = "1")]
    pub period: Option<u64>,
    #[prost(uint64, optional, tag = "2")]
    pub frequency: Option<u64>,
    #[prost(int32, optional, tag = "4")]
    pub counter: Option<i32>,
    #[prost(message, optional, tag = "3")]
    pub tracepoint: Option<Tracepoint>,
}

/// `PerfEvents.Tracepoint`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Tracepoint {
    #[prost(bytes = "bytes", optional, tag = "1")]
    pub name: Option<Bytes>,
}

/// `PerfEvents.Counter`: the CPU clock, per CPU or per task (ns).
pub const SW_CPU_CLOCK: i32 = 1;
pub const SW_TASK_CLOCK: i32 = 3;

/// `ProfilePacket` (heapprofd, ART's Java heap sampling): heap dumps, with their own
/// interned code in older traces.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ProfilePacket {
    #[prost(message, repeated, tag = "1")]
    pub strings: Vec<InternedString>,
    #[prost(message, repeated, tag = "2")]
    pub frames: Vec<Frame>,
    #[prost(message, repeated, tag = "3")]
    pub callstacks: Vec<Callstack>,
    #[prost(message, repeated, tag = "4")]
    pub mappings: Vec<Mapping>,
    #[prost(message, repeated, tag = "5")]
    pub process_dumps: Vec<ProcessHeapSamples>,
    /// More packets of the same dump follow.
    #[prost(bool, optional, tag = "6")]
    pub continued: Option<bool>,
    #[prost(uint64, optional, tag = "7")]
    pub index: Option<u64>,
}

/// `ProfilePacket.ProcessHeapSamples`: one heap of one process at one dump.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ProcessHeapSamples {
    #[prost(uint64, optional, tag = "1")]
    pub pid: Option<u64>,
    #[prost(message, repeated, tag = "2")]
    pub samples: Vec<HeapSample>,
    #[prost(bool, optional, tag = "6")]
    pub disconnected: Option<bool>,
    #[prost(bool, optional, tag = "7")]
    pub buffer_overran: Option<bool>,
    #[prost(bool, optional, tag = "8")]
    pub buffer_corrupted: Option<bool>,
    #[prost(uint64, optional, tag = "9")]
    pub timestamp: Option<u64>,
    #[prost(bool, optional, tag = "10")]
    pub hit_guardrail: Option<bool>,
    #[prost(bytes = "bytes", optional, tag = "11")]
    pub heap_name: Option<Bytes>,
    #[prost(uint64, optional, tag = "12")]
    pub sampling_interval_bytes: Option<u64>,
}

/// `ProfilePacket.HeapSample`: one callstack's totals since the profile began.
#[derive(Clone, PartialEq, prost::Message)]
pub struct HeapSample {
    #[prost(uint64, optional, tag = "1")]
    pub callstack_id: Option<u64>,
    #[prost(uint64, optional, tag = "2")]
    pub self_allocated: Option<u64>,
    #[prost(uint64, optional, tag = "3")]
    pub self_freed: Option<u64>,
    #[prost(uint64, optional, tag = "5")]
    pub alloc_count: Option<u64>,
    #[prost(uint64, optional, tag = "6")]
    pub free_count: Option<u64>,
}

/// `DeobfuscationMapping`: original names of an app's obfuscated Java classes and methods,
/// written into a trace by the recorder.
#[derive(Clone, PartialEq, prost::Message)]
pub struct DeobfuscationMapping {
    #[prost(message, repeated, tag = "3")]
    pub obfuscated_classes: Vec<ObfuscatedClass>,
}

/// `ObfuscatedClass`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ObfuscatedClass {
    #[prost(bytes = "bytes", optional, tag = "1")]
    pub obfuscated_name: Option<Bytes>,
    #[prost(bytes = "bytes", optional, tag = "2")]
    pub deobfuscated_name: Option<Bytes>,
    #[prost(message, repeated, tag = "4")]
    pub obfuscated_methods: Vec<ObfuscatedMember>,
}

/// `ObfuscatedMember`: a method's name (a moved method's is `Class.method`).
#[derive(Clone, PartialEq, prost::Message)]
pub struct ObfuscatedMember {
    #[prost(bytes = "bytes", optional, tag = "1")]
    pub obfuscated_name: Option<Bytes>,
    #[prost(bytes = "bytes", optional, tag = "2")]
    pub deobfuscated_name: Option<Bytes>,
}

/// `FrameTimelineEvent` (SurfaceFlinger's frame timeline): a frame's expected or actual
/// start, or the end of one, matched by cookie.
#[derive(Clone, PartialEq, prost::Message)]
pub struct FrameTimelineEvent {
    #[prost(message, optional, tag = "1")]
    pub expected_display_frame_start: Option<DisplayFrameStart>,
    #[prost(message, optional, tag = "2")]
    pub actual_display_frame_start: Option<DisplayFrameStart>,
    #[prost(message, optional, tag = "3")]
    pub expected_surface_frame_start: Option<SurfaceFrameStart>,
    #[prost(message, optional, tag = "4")]
    pub actual_surface_frame_start: Option<SurfaceFrameStart>,
    #[prost(message, optional, tag = "5")]
    pub frame_end: Option<FrameEnd>,
}

/// `ExpectedSurfaceFrameStart` and `ActualSurfaceFrameStart` (the expected one has only
/// the first five fields).
#[derive(Clone, PartialEq, prost::Message)]
pub struct SurfaceFrameStart {
    #[prost(int64, optional, tag = "1")]
    pub cookie: Option<i64>,
    #[prost(int64, optional, tag = "2")]
    pub token: Option<i64>,
    /// The display frame that presents it.
    #[prost(int64, optional, tag = "3")]
    pub display_frame_token: Option<i64>,
    #[prost(int32, optional, tag = "4")]
    pub pid: Option<i32>,
    #[prost(bytes = "bytes", optional, tag = "5")]
    pub layer_name: Option<Bytes>,
    #[prost(int32, optional, tag = "6")]
    pub present_type: Option<i32>,
    #[prost(bool, optional, tag = "7")]
    pub on_time_finish: Option<bool>,
    #[prost(bool, optional, tag = "8")]
    pub gpu_composition: Option<bool>,
    #[prost(int32, optional, tag = "9")]
    pub jank_type: Option<i32>,
    #[prost(int32, optional, tag = "10")]
    pub prediction_type: Option<i32>,
}

/// `ExpectedDisplayFrameStart` and `ActualDisplayFrameStart` (the expected one has only
/// the first three fields): the compositor's own frames.
#[derive(Clone, PartialEq, prost::Message)]
pub struct DisplayFrameStart {
    #[prost(int64, optional, tag = "1")]
    pub cookie: Option<i64>,
    #[prost(int64, optional, tag = "2")]
    pub token: Option<i64>,
    #[prost(int32, optional, tag = "3")]
    pub pid: Option<i32>,
    #[prost(int32, optional, tag = "4")]
    pub present_type: Option<i32>,
    #[prost(bool, optional, tag = "5")]
    pub on_time_finish: Option<bool>,
    #[prost(bool, optional, tag = "6")]
    pub gpu_composition: Option<bool>,
    #[prost(int32, optional, tag = "7")]
    pub jank_type: Option<i32>,
    #[prost(int32, optional, tag = "8")]
    pub prediction_type: Option<i32>,
}

/// `FrameEnd`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct FrameEnd {
    #[prost(int64, optional, tag = "1")]
    pub cookie: Option<i64>,
}
