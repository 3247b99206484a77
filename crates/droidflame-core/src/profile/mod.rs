//! The one profile model every importer feeds and every product reads. Nothing here
//! knows which file format a profile came from.

mod app_frames;
mod builder;
mod calls;
mod chunked;
mod clock;
mod cpu_overview;
mod dominators;
mod facts;
mod format;
mod frame;
mod heap;
mod heap_graph;
mod heap_graph_stacks;
mod heap_values;
mod model;
mod range;
mod repairs;
mod select;
mod source;
mod stacks;
mod states;
mod system;
mod thread;
mod time_log;
mod tree;

pub use app_frames::{AppFrame, RENDER_THREAD};
pub(crate) use builder::seed::{ReadCalls, ThreadMark};
pub(crate) use builder::{
    Doubt, FinishSpec, FrameInfo, HeapGraphSink, Limit, Piece, PieceMark, PieceParts, ProfileBuilder, SourceSpec,
};
pub use calls::{Call, ThreadCalls};
pub use clock::{Clock, ClockSet, ClockWords, PerClock, TimeUnit};
pub use cpu_overview::{Bucket, CpuOverview, BUCKETS};
pub(crate) use dominators::adjacency;
pub use facts::Facts;
pub use format::{Detail, FormatInfo};
pub(crate) use frame::{display_names, ClassRename};
pub use frame::{Frame, FrameKind, KERNEL_MARK};
pub use heap::{Heap, HeapDump, HeapProcess, HeapProfiles, HeapRow};
pub(crate) use heap_graph::{HeapGraph, ObjectKind, RootKind, Strength, Via};
pub(crate) use heap_graph_stacks::graph_stacks;
pub(crate) use heap_values::{ContentHash, FieldType, ARRAY_PREFIX};
pub use model::Profile;
pub use repairs::{counted, group_digits, sentence, were, Repair, RepairContext, Repairs, Warning, MAX_SLICE_DEPTH};
pub use source::{Count, Source, SourceKind, Unit};
pub use stacks::StackProfile;
pub use states::{SchedState, SchedTimes, StateEntry, StateLog, StateSpan, StateTimes};
pub use system::{Counter, SystemTimeline, Timeline};
pub use thread::{shown_tid, ThreadProfile};
pub use time_log::TimeLog;
pub use tree::{CallTree, Children, Node, NONE};
