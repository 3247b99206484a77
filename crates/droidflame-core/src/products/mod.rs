//! Everything made from a `Profile`: folded stacks, the method table, the summary JSON,
//! flame-graph SVGs (inferno) and the files of a rendered report.

mod flame;
mod folded;
mod frames;
mod methods;
mod notes;
mod render;
mod summary;

pub use flame::{flame_script, flame_svg, script_of, FlameOptions, GraphScope, Theme};
pub use folded::{folded, thread_stacks, write_folded, FoldedOptions, MAX_FOLDED_TEXT};
pub use methods::{method_table, method_table_of, Edge, MethodRow, MethodTable};
pub use notes::{notes, Note};
pub use render::{render_site, RenderedFile};
pub use summary::{methods_json, summary, summary_json};
