//! simpleperf's report-sample messages (`cmd_report_sample.proto`), declared by their field
//! numbers with only the fields droidflame reads; others are skipped as unknown fields.
//! A `Record` is a oneof of these: its one field is read by hand (`records.rs`) so that a
//! sample can be merged into one reused `Sample` instead of a fresh one per record. Text
//! fields are bytes: a name that is not UTF-8 must not cost its whole record.

/// `Record.sample`.
pub const RECORD_SAMPLE: u32 = 1;
/// `Record.lost`.
pub const RECORD_LOST: u32 = 2;
/// `Record.file`.
pub const RECORD_FILE: u32 = 3;
/// `Record.thread`.
pub const RECORD_THREAD: u32 = 4;
/// `Record.meta_info`.
pub const RECORD_META_INFO: u32 = 5;
/// `Record.context_switch`.
pub const RECORD_CONTEXT_SWITCH: u32 = 6;

/// One sample: a thread's call chain when its event fired.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Sample {
    /// ns on the recording's clock (the kernel's perf clock, monotonic).
    #[prost(uint64, optional, tag = "1")]
    pub time: Option<u64>,
    #[prost(int32, optional, tag = "2")]
    pub thread_id: Option<i32>,
    /// Leaf first: the sampled instruction, then its callers.
    #[prost(message, repeated, tag = "3")]
    pub callchain: Vec<CallChainEntry>,
    /// Events of the sample's type since the thread's previous sample of that type (ns
    /// for the clock events).
    #[prost(uint64, optional, tag = "4")]
    pub event_count: Option<u64>,
    /// An index into `MetaInfo.event_type`.
    #[prost(uint32, optional, tag = "5")]
    pub event_type_id: Option<u32>,
}

/// `Sample.CallChainEntry`.
#[derive(Clone, Copy, PartialEq, prost::Message)]
pub struct CallChainEntry {
    #[prost(uint64, optional, tag = "1")]
    pub vaddr_in_file: Option<u64>,
    #[prost(uint32, optional, tag = "2")]
    pub file_id: Option<u32>,
    /// An index into that file's `symbol`, or -1 where the function is not known.
    #[prost(int32, optional, tag = "3")]
    pub symbol_id: Option<i32>,
    #[prost(int32, optional, tag = "4")]
    pub execution_type: Option<i32>,
}

/// `ExecutionType.INTERPRETED_JVM_METHOD`.
pub const INTERPRETED_JVM_METHOD: i32 = 1;
/// `ExecutionType.JIT_JVM_METHOD`.
pub const JIT_JVM_METHOD: i32 = 2;

/// How many samples the recording made and lost.
#[derive(Clone, PartialEq, prost::Message)]
pub struct LostSituation {
    #[prost(uint64, optional, tag = "1")]
    pub sample_count: Option<u64>,
    #[prost(uint64, optional, tag = "2")]
    pub lost_count: Option<u64>,
}

/// A binary and the names of its functions that samples use.
#[derive(Clone, PartialEq, prost::Message)]
pub struct File {
    #[prost(uint32, optional, tag = "1")]
    pub id: Option<u32>,
    #[prost(bytes = "vec", optional, tag = "2")]
    pub path: Option<Vec<u8>>,
    /// Demangled where simpleperf could.
    #[prost(bytes = "vec", repeated, tag = "3")]
    pub symbol: Vec<Vec<u8>>,
    #[prost(bytes = "vec", repeated, tag = "4")]
    pub mangled_symbol: Vec<Vec<u8>>,
}

/// `Thread`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Thread {
    #[prost(uint32, optional, tag = "1")]
    pub thread_id: Option<u32>,
    #[prost(uint32, optional, tag = "2")]
    pub process_id: Option<u32>,
    #[prost(bytes = "vec", optional, tag = "3")]
    pub thread_name: Option<Vec<u8>>,
}

/// What was recorded.
#[derive(Clone, PartialEq, prost::Message)]
pub struct MetaInfo {
    #[prost(bytes = "vec", repeated, tag = "1")]
    pub event_type: Vec<Vec<u8>>,
    #[prost(bytes = "vec", optional, tag = "2")]
    pub app_package_name: Option<Vec<u8>>,
    #[prost(bytes = "vec", optional, tag = "3")]
    pub app_type: Option<Vec<u8>>,
    #[prost(bytes = "vec", optional, tag = "4")]
    pub android_sdk_version: Option<Vec<u8>>,
    #[prost(bytes = "vec", optional, tag = "5")]
    pub android_build_type: Option<Vec<u8>>,
    #[prost(bool, optional, tag = "6")]
    pub trace_offcpu: Option<bool>,
}

/// `ContextSwitch`: a thread went on or off a CPU.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ContextSwitch {
    #[prost(bool, optional, tag = "1")]
    pub switch_on: Option<bool>,
    #[prost(uint64, optional, tag = "2")]
    pub time: Option<u64>,
    #[prost(uint32, optional, tag = "3")]
    pub thread_id: Option<u32>,
}
