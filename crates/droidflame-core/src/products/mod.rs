//! Everything made from a `Profile`: folded stacks, the frame table (methods or slices),
//! the summary JSON, flame-graph SVGs (inferno), the files of a rendered report, and the
//! calls one by one (a listing, Chrome trace-event JSON), the call graph as Graphviz DOT,
//! and two profiles compared (differential stacks, method deltas, a differential graph).
//! Many runs of one scenario, reduced one by one, aggregate and compare in groups.
//! A view's transforms reach each of them, the timeline's calls too (`viewed_calls`).

mod app_frames;
mod callgraph;
mod calls;
mod chrome;
mod counter_track;
mod cpu_lanes;
mod delta;
mod diff;
mod diff_colour;
mod diff_flame;
mod diff_tree;
mod export;
mod flame;
mod folded;
mod frames;
pub(crate) mod heap;
mod notes;
mod render;
mod runs;
mod sample_marks;
mod scheduling;
mod sorted_walk;
mod summary;
mod table;
mod thread_states;
mod timeline;
mod tracks;
mod transform;
mod tree;
mod view_calls;
mod view_methods;

pub use app_frames::{app_threads, frame_layers, frames_json, write_frames, FramesQuery, LayerFrames, DISPLAY_LAYER};
pub use callgraph::{write_callgraph_dot, CallGraphOptions, DEFAULT_THRESHOLD_PERCENT};
pub use calls::{select_calls, write_calls, CallQuery, ListedCall};
pub use chrome::write_chrome_trace;
pub use counter_track::{counter_at, counter_steps, CounterStep};
pub use cpu_lanes::{cpu_at, cpu_at_json, cpu_boxes, cpu_runs, CpuBox};
pub use delta::{change_percent, method_deltas, write_method_deltas, MethodDelta, MethodTotals, METHOD_DELTA_COLUMNS};
pub use diff::{compare, write_diff_folded, Comparison, DiffOptions, DiffStack, ThreadTotals};
pub use diff_colour::{ChangeOf, DEAD_BAND};
pub use diff_flame::{diff_svg, DiffGraphOptions, Widths};
pub use export::{write_pprof, write_speedscope, ExportOptions};
pub use flame::{flame_script, flame_svg, script_of, FlameOptions, GraphScope, Theme};
pub use folded::{folded, for_each_folded_line, thread_stacks, write_folded, FoldedOptions, MAX_FOLDED_TEXT};
pub use heap::{
    group_leaks, heap_classes, heap_diff, heap_duplicates, heap_leaks, heap_object, heap_objects, heap_packages,
    heap_path, heap_series, no_leaks_words, object_id, write_class_changes, write_classes, write_duplicates,
    write_leak_groups, write_leaks, write_objects, write_path, write_series, ClassChange, ClassRow, DuplicateRow,
    FieldValue, HeapDumpJson, HeapSeries, HeapTotals, Leak, LeakGroup, ObjectDetails, ObjectQuery, ObjectRow, PathStep,
    SeriesGrowth, SeriesRow, FEWEST_DUMPS,
};
pub use notes::{notes, Note};
pub use render::{render_site, RenderedFile};
pub use runs::{
    compare_groups, group_call_tree, group_flame_svg, group_summary_json, write_group_folded, write_group_methods,
    Cell, Evidence, Group, GroupTest, MethodComparison, MethodName, Run, RunOptions, Runs, SideFigures, Stat, Verdict,
    DEFAULT_ALPHA, GROUP_METHOD_COLUMN_NAMES, MIN_CHANGE,
};
pub use sample_marks::{
    sample_at_json, sample_marks, sampled_thread, samples_in_states, samples_in_states_json, SampleMark,
};
pub use scheduling::{scheduling_json, thread_scheduling, thread_scheduling_json, ThreadScheduling, TOP_WAKERS};
pub use summary::{methods_json, summary, summary_json};
pub use table::{frame_rows, frame_table, frame_table_of, Edge, FrameRow, FrameTable};
pub use thread_states::{
    log_boxes, state_at, state_boxes, state_json, state_legend, state_times_json, states_thread, StateBox,
};
pub use timeline::{call_at, callers_of, timeline_boxes, TimelineBox};
pub use tracks::tracks_json;
pub use transform::{hideable, libraries_of, Code, Transform, View};
pub use tree::{call_tree_table, write_tree, CallTreeTable, TreeFormat, TreeOptions};
pub use view_calls::{made_names, viewed_calls, ViewedCalls, NO_CPU};
pub use view_methods::methods_json_of_view;
