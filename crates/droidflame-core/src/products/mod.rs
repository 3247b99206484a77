//! Everything made from a `Profile`: folded stacks, the frame table (methods or slices),
//! the summary JSON, flame-graph SVGs (inferno) and the files of a rendered report.

mod flame;
mod folded;
mod frames;
mod notes;
mod render;
mod summary;
mod table;

pub use flame::{flame_script, flame_svg, script_of, FlameOptions, GraphScope, Theme};
pub use folded::{folded, thread_stacks, write_folded, FoldedOptions, MAX_FOLDED_TEXT};
pub use notes::{notes, Note};
pub use render::{render_site, RenderedFile};
pub use summary::{methods_json, summary, summary_json};
pub use table::{frame_table, frame_table_of, Edge, FrameRow, FrameTable};
