//! Many runs of one scenario, reduced as they come: each run is analysed, reduced to its
//! stacks' self times and its methods' totals, and let go before the next is read, so
//! memory grows with the reductions, never with the traces. From the runs of one group
//! come an aggregate (each stack's and method's median, or mean or sum, over the runs);
//! from two groups, a comparison of each method with a statistical test
//! (`compare::compare_groups`) and a differential graph of medians.
//!
//! Threads match by name across runs (tids differ between runs), as in two-trace
//! comparisons; threads sharing a name merge.

mod aggregate;
mod compare;
mod flame;
mod reduced;

pub use aggregate::{group_call_tree, group_summary_json, write_group_folded, Stat};
pub use compare::{
    compare_groups, write_group_methods, Cell, Evidence, GroupTest, MethodComparison, SideFigures, Verdict,
    DEFAULT_ALPHA, GROUP_METHOD_COLUMN_NAMES, MIN_CHANGE,
};
pub use flame::group_flame_svg;
pub use reduced::{Group, MethodName, Run, RunOptions, Runs};
