//! The parts of Perfetto's trace schema droidflame reads, declared by their field numbers
//! (`protos/perfetto/trace/…` in Perfetto's sources); every other field is skipped as an
//! unknown field. Text fields are bytes: a name that is not UTF-8 must not cost the packet,
//! and `Bytes` fields decoded from a `Bytes` packet borrow its memory instead of copying.

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
    /// The same, zstd-compressed (not read: no zstd decoder is built in).
    #[prost(bytes = "bytes", optional, tag = "133")]
    pub zstd_compressed_packets: Option<Bytes>,
    #[prost(uint32, optional, tag = "13")]
    pub sequence_flags: Option<u32>,
    #[prost(bool, optional, tag = "41")]
    pub incremental_state_cleared: Option<bool>,
    #[prost(uint32, optional, tag = "42")]
    pub previous_packet_dropped: Option<u32>,
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
}

/// `FtraceEvent`: the common fields and the event (a oneof in the schema).
#[derive(Clone, PartialEq, prost::Message)]
pub struct FtraceEvent {
    /// ns, boot clock.
    #[prost(uint64, optional, tag = "1")]
    pub timestamp: Option<u64>,
    /// The thread that wrote the event.
    #[prost(uint32, optional, tag = "2")]
    pub pid: Option<u32>,
    #[prost(message, optional, tag = "3")]
    pub print: Option<PrintEvent>,
    #[prost(message, optional, tag = "4")]
    pub sched_switch: Option<SchedSwitch>,
    #[prost(message, optional, tag = "17")]
    pub sched_wakeup: Option<SchedWakeup>,
    #[prost(message, optional, tag = "20")]
    pub sched_waking: Option<SchedWakeup>,
    #[prost(message, optional, tag = "114")]
    pub sched_wakeup_new: Option<SchedWakeup>,
    #[prost(message, optional, tag = "235")]
    pub task_newtask: Option<TaskNewtask>,
    #[prost(message, optional, tag = "236")]
    pub task_rename: Option<TaskRename>,
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
