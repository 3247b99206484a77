//! The parts of Perfetto's trace schema droidflame reads, declared by their field numbers
//! (`protos/perfetto/trace/…` in Perfetto's sources); every other field is skipped as an
//! unknown field. Text fields are bytes: a name that is not UTF-8 must not cost the packet,
//! and `Bytes` fields decoded from a `Bytes` packet borrow its memory instead of copying.

pub use super::profiling_proto::*;
use bytes::Bytes;

/// One `TracePacket` (field 1 of `Trace`, repeated).
#[derive(Clone, PartialEq, prost::Message)]
pub struct TracePacket {
    /// ns, on the packet's clock (boot time unless `timestamp_clock_id` says otherwise).
    #[prost(uint64, optional, tag = "8")]
    pub timestamp: Option<u64>,
    #[prost(uint32, optional, tag = "58")]
    pub timestamp_clock_id: Option<u32>,
    #[prost(uint32, optional, tag = "10")]
    pub trusted_packet_sequence_id: Option<u32>,
    #[prost(message, optional, tag = "1")]
    pub ftrace_events: Option<FtraceEventBundle>,
    #[prost(message, optional, tag = "2")]
    pub process_tree: Option<ProcessTree>,
    /// A `Trace` of more packets, zlib-compressed.
    #[prost(bytes = "bytes", optional, tag = "50")]
    pub compressed_packets: Option<Bytes>,
    /// The same, zstd-compressed.
    #[prost(bytes = "bytes", optional, tag = "133")]
    pub zstd_compressed_packets: Option<Bytes>,
    #[prost(uint32, optional, tag = "13")]
    pub sequence_flags: Option<u32>,
    #[prost(bool, optional, tag = "41")]
    pub incremental_state_cleared: Option<bool>,
    #[prost(uint32, optional, tag = "42")]
    pub previous_packet_dropped: Option<u32>,
    #[prost(message, optional, tag = "6")]
    pub clock_snapshot: Option<ClockSnapshot>,
    #[prost(message, optional, tag = "11")]
    pub track_event: Option<TrackEvent>,
    #[prost(message, optional, tag = "12")]
    pub interned_data: Option<InternedData>,
    #[prost(message, optional, tag = "59")]
    pub trace_packet_defaults: Option<TracePacketDefaults>,
    #[prost(message, optional, tag = "60")]
    pub track_descriptor: Option<TrackDescriptor>,
    /// The thread a legacy SDK sequence writes for.
    #[prost(message, optional, tag = "44")]
    pub thread_descriptor: Option<ThreadDescriptor>,
    #[prost(message, optional, tag = "43")]
    pub process_descriptor: Option<ProcessDescriptor>,
    #[prost(message, optional, tag = "66")]
    pub perf_sample: Option<PerfSample>,
    #[prost(message, optional, tag = "37")]
    pub profile_packet: Option<ProfilePacket>,
    #[prost(message, optional, tag = "64")]
    pub deobfuscation_mapping: Option<DeobfuscationMapping>,
    #[prost(message, optional, tag = "76")]
    pub frame_timeline_event: Option<FrameTimelineEvent>,
    /// A Java heap graph (`HeapGraph`), decoded by `java_heaps`.
    #[prost(bytes = "bytes", optional, tag = "56")]
    pub heap_graph: Option<Bytes>,
}

/// `sequence_flags`: the sequence's interned data and defaults start afresh here.
pub const SEQ_INCREMENTAL_STATE_CLEARED: u32 = 1;
/// `sequence_flags`: the packet cannot be read without the sequence's interned data.
pub const SEQ_NEEDS_INCREMENTAL_STATE: u32 = 2;

/// `ClockSnapshot`: the same instant on several clocks.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ClockSnapshot {
    #[prost(message, repeated, tag = "1")]
    pub clocks: Vec<Clock>,
}

/// `ClockSnapshot.Clock`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Clock {
    #[prost(uint32, optional, tag = "1")]
    pub clock_id: Option<u32>,
    #[prost(uint64, optional, tag = "2")]
    pub timestamp: Option<u64>,
    /// Packets on this clock give their time as a delta from the previous packet's.
    #[prost(bool, optional, tag = "3")]
    pub is_incremental: Option<bool>,
    #[prost(uint64, optional, tag = "4")]
    pub unit_multiplier_ns: Option<u64>,
}

/// The boot clock: ftrace's, and the one every time is given in.
pub const CLOCK_BOOTTIME: u32 = 6;
/// The coarse monotonic clock: heap dumps' own times.
pub const CLOCK_MONOTONIC_COARSE: u32 = 4;
/// The monotonic clock: frame timelines' times; never ahead of the boot clock.
pub const CLOCK_MONOTONIC: u32 = 3;
/// Clock ids from here up belong to one sequence.
pub const FIRST_SEQUENCE_CLOCK: u32 = 64;

/// `TrackEvent`: a slice begins or ends, an instant, or a counter value, on a track.
#[derive(Clone, PartialEq, prost::Message)]
pub struct TrackEvent {
    #[prost(int32, optional, tag = "9")]
    pub r#type: Option<i32>,
    #[prost(uint64, optional, tag = "11")]
    pub track_uuid: Option<u64>,
    #[prost(uint64, optional, tag = "10")]
    pub name_iid: Option<u64>,
    #[prost(bytes = "bytes", optional, tag = "23")]
    pub name: Option<Bytes>,
    #[prost(int64, optional, tag = "30")]
    pub counter_value: Option<i64>,
    #[prost(double, optional, tag = "44")]
    pub double_counter_value: Option<f64>,
}

pub const TYPE_SLICE_BEGIN: i32 = 1;
pub const TYPE_SLICE_END: i32 = 2;
pub const TYPE_INSTANT: i32 = 3;
pub const TYPE_COUNTER: i32 = 4;

/// `InternedData`: names a sequence's later packets refer to by id.
#[derive(Clone, PartialEq, prost::Message)]
pub struct InternedData {
    #[prost(message, repeated, tag = "2")]
    pub event_names: Vec<EventName>,
    #[prost(message, repeated, tag = "5")]
    pub function_names: Vec<InternedString>,
    #[prost(message, repeated, tag = "6")]
    pub frames: Vec<Frame>,
    #[prost(message, repeated, tag = "7")]
    pub callstacks: Vec<Callstack>,
    #[prost(message, repeated, tag = "17")]
    pub mapping_paths: Vec<InternedString>,
    #[prost(message, repeated, tag = "19")]
    pub mappings: Vec<Mapping>,
    /// Kernel functions by made-up id (the recorder hides addresses), for blocked reasons.
    #[prost(message, repeated, tag = "26")]
    pub kernel_symbols: Vec<InternedString>,
}

/// `EventName`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct EventName {
    #[prost(uint64, optional, tag = "1")]
    pub iid: Option<u64>,
    #[prost(bytes = "bytes", optional, tag = "2")]
    pub name: Option<Bytes>,
}

/// `TracePacketDefaults`: what a sequence's packets leave out.
#[derive(Clone, PartialEq, prost::Message)]
pub struct TracePacketDefaults {
    #[prost(uint32, optional, tag = "58")]
    pub timestamp_clock_id: Option<u32>,
    #[prost(message, optional, tag = "11")]
    pub track_event_defaults: Option<TrackEventDefaults>,
    #[prost(message, optional, tag = "12")]
    pub perf_sample_defaults: Option<PerfSampleDefaults>,
}

/// `TrackEventDefaults`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct TrackEventDefaults {
    #[prost(uint64, optional, tag = "11")]
    pub track_uuid: Option<u64>,
}

/// `TrackDescriptor`: a track, and the process, thread or counter it belongs to.
#[derive(Clone, PartialEq, prost::Message)]
pub struct TrackDescriptor {
    #[prost(uint64, optional, tag = "1")]
    pub uuid: Option<u64>,
    #[prost(uint64, optional, tag = "5")]
    pub parent_uuid: Option<u64>,
    #[prost(bytes = "bytes", optional, tag = "2")]
    pub name: Option<Bytes>,
    #[prost(bytes = "bytes", optional, tag = "10")]
    pub static_name: Option<Bytes>,
    #[prost(message, optional, tag = "3")]
    pub process: Option<ProcessDescriptor>,
    #[prost(message, optional, tag = "4")]
    pub thread: Option<ThreadDescriptor>,
    /// Present (even empty) on counter tracks.
    #[prost(message, optional, tag = "8")]
    pub counter: Option<CounterDescriptor>,
}

/// `ProcessDescriptor`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ProcessDescriptor {
    #[prost(int32, optional, tag = "1")]
    pub pid: Option<i32>,
    #[prost(bytes = "bytes", repeated, tag = "2")]
    pub cmdline: Vec<Bytes>,
    #[prost(bytes = "bytes", optional, tag = "6")]
    pub process_name: Option<Bytes>,
}

/// `ThreadDescriptor`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ThreadDescriptor {
    #[prost(int32, optional, tag = "1")]
    pub pid: Option<i32>,
    #[prost(int64, optional, tag = "2")]
    pub tid: Option<i64>,
    #[prost(bytes = "bytes", optional, tag = "5")]
    pub thread_name: Option<Bytes>,
}

/// `CounterDescriptor`: what a counter track's values measure, and how they are written.
#[derive(Clone, PartialEq, prost::Message)]
pub struct CounterDescriptor {
    /// A built-in counter: 1 thread time (ns), 2 instructions.
    #[prost(int32, optional, tag = "1")]
    pub r#type: Option<i32>,
    /// 1 ns, 2 a count, 3 bytes.
    #[prost(int32, optional, tag = "3")]
    pub unit: Option<i32>,
    /// Each value written is this many of the unit.
    #[prost(int64, optional, tag = "4")]
    pub unit_multiplier: Option<i64>,
    /// Values are changes from the sequence's last value of the counter (0 after its
    /// incremental state is cleared).
    #[prost(bool, optional, tag = "5")]
    pub is_incremental: Option<bool>,
    /// A unit of the writer's own naming, in place of `unit`.
    #[prost(string, optional, tag = "6")]
    pub unit_name: Option<String>,
}

/// `FtraceEventBundle`: one CPU's events read in one pass.
#[derive(Clone, PartialEq, prost::Message)]
pub struct FtraceEventBundle {
    #[prost(uint32, optional, tag = "1")]
    pub cpu: Option<u32>,
    #[prost(message, repeated, tag = "2")]
    pub event: Vec<FtraceEvent>,
    /// The kernel's buffer overran: events of this CPU before the bundle were lost.
    #[prost(bool, optional, tag = "3")]
    pub lost_events: Option<bool>,
    #[prost(message, optional, tag = "4")]
    pub compact_sched: Option<CompactSched>,
}

/// `FtraceEventBundle.CompactSched`: the bundle's `sched_switch` and `sched_waking` events
/// as columns. Times are deltas from the previous event's (the first is absolute); names
/// are indexes into `intern_table`; a switch's previous thread is the one the CPU ran.
#[derive(Clone, PartialEq, prost::Message)]
pub struct CompactSched {
    #[prost(bytes = "bytes", repeated, tag = "5")]
    pub intern_table: Vec<Bytes>,
    #[prost(uint64, repeated, packed = "true", tag = "1")]
    pub switch_timestamp: Vec<u64>,
    #[prost(int64, repeated, packed = "true", tag = "2")]
    pub switch_prev_state: Vec<i64>,
    #[prost(int32, repeated, packed = "true", tag = "3")]
    pub switch_next_pid: Vec<i32>,
    #[prost(uint32, repeated, packed = "true", tag = "6")]
    pub switch_next_comm_index: Vec<u32>,
    #[prost(uint64, repeated, packed = "true", tag = "7")]
    pub waking_timestamp: Vec<u64>,
    #[prost(int32, repeated, packed = "true", tag = "8")]
    pub waking_pid: Vec<i32>,
}

/// `FtraceEvent`: the common fields and the event, a oneof as in the schema (so the struct
/// every event decodes into is as large as its largest event, not all of them).
#[derive(Clone, PartialEq, prost::Message)]
pub struct FtraceEvent {
    /// ns, boot clock.
    #[prost(uint64, optional, tag = "1")]
    pub timestamp: Option<u64>,
    /// The thread that wrote the event.
    #[prost(uint32, optional, tag = "2")]
    pub pid: Option<u32>,
    #[prost(oneof = "ftrace_event::Event", tags = "3, 4, 11, 17, 18, 20, 114, 235, 236")]
    pub event: Option<ftrace_event::Event>,
}

/// The events of `FtraceEvent` read here.
pub mod ftrace_event {
    use super::*;

    #[derive(Clone, PartialEq, prost::Oneof)]
    pub enum Event {
        #[prost(message, tag = "3")]
        Print(PrintEvent),
        #[prost(message, tag = "4")]
        SchedSwitch(SchedSwitch),
        #[prost(message, tag = "11")]
        CpuFrequency(CpuFrequency),
        #[prost(message, tag = "17")]
        SchedWakeup(SchedWakeup),
        #[prost(message, tag = "18")]
        SchedBlockedReason(SchedBlockedReason),
        #[prost(message, tag = "20")]
        SchedWaking(SchedWakeup),
        #[prost(message, tag = "114")]
        SchedWakeupNew(SchedWakeup),
        #[prost(message, tag = "235")]
        TaskNewtask(TaskNewtask),
        #[prost(message, tag = "236")]
        TaskRename(TaskRename),
    }
}

/// `PrintFtraceEvent`: text written to `trace_marker` (atrace markers).
#[derive(Clone, PartialEq, prost::Message)]
pub struct PrintEvent {
    #[prost(bytes = "bytes", optional, tag = "2")]
    pub buf: Option<Bytes>,
}

/// `SchedSwitchFtraceEvent`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct SchedSwitch {
    #[prost(bytes = "bytes", optional, tag = "1")]
    pub prev_comm: Option<Bytes>,
    #[prost(int32, optional, tag = "2")]
    pub prev_pid: Option<i32>,
    /// The kernel's task state bits: 0 is still runnable (preempted).
    #[prost(int64, optional, tag = "4")]
    pub prev_state: Option<i64>,
    #[prost(bytes = "bytes", optional, tag = "5")]
    pub next_comm: Option<Bytes>,
    #[prost(int32, optional, tag = "6")]
    pub next_pid: Option<i32>,
}

/// `SchedWakeupFtraceEvent`, `SchedWakingFtraceEvent`, `SchedWakeupNewFtraceEvent`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct SchedWakeup {
    #[prost(bytes = "bytes", optional, tag = "1")]
    pub comm: Option<Bytes>,
    #[prost(int32, optional, tag = "2")]
    pub pid: Option<i32>,
}

/// `CpuFrequencyFtraceEvent`: a CPU's clock from now on, in kHz.
#[derive(Clone, PartialEq, prost::Message)]
pub struct CpuFrequency {
    #[prost(uint32, optional, tag = "1")]
    pub state: Option<u32>,
    #[prost(uint32, optional, tag = "2")]
    pub cpu_id: Option<u32>,
}

/// `SchedBlockedReasonFtraceEvent`: where a thread switched out uninterruptible blocked.
#[derive(Clone, PartialEq, prost::Message)]
pub struct SchedBlockedReason {
    #[prost(int32, optional, tag = "1")]
    pub pid: Option<i32>,
    /// An id of the sequence's interned kernel symbols (with none: an address, unnamed).
    #[prost(uint64, optional, tag = "2")]
    pub caller: Option<u64>,
    #[prost(uint32, optional, tag = "3")]
    pub io_wait: Option<u32>,
}

/// `TaskNewtaskFtraceEvent`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct TaskNewtask {
    #[prost(int32, optional, tag = "1")]
    pub pid: Option<i32>,
    #[prost(bytes = "bytes", optional, tag = "2")]
    pub comm: Option<Bytes>,
}

/// `TaskRenameFtraceEvent`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct TaskRename {
    #[prost(int32, optional, tag = "1")]
    pub pid: Option<i32>,
    #[prost(bytes = "bytes", optional, tag = "3")]
    pub newcomm: Option<Bytes>,
}

/// `ProcessTree`: processes and threads alive when it was taken.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ProcessTree {
    #[prost(message, repeated, tag = "1")]
    pub processes: Vec<Process>,
    #[prost(message, repeated, tag = "2")]
    pub threads: Vec<ProcessThread>,
}

/// `ProcessTree.Process`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Process {
    #[prost(int32, optional, tag = "1")]
    pub pid: Option<i32>,
    #[prost(bytes = "bytes", repeated, tag = "3")]
    pub cmdline: Vec<Bytes>,
}

/// `ProcessTree.Thread`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ProcessThread {
    #[prost(int32, optional, tag = "1")]
    pub tid: Option<i32>,
    #[prost(bytes = "bytes", optional, tag = "2")]
    pub name: Option<Bytes>,
    #[prost(int32, optional, tag = "3")]
    pub tgid: Option<i32>,
}
