//! `droidflame heap …`: a heap dump's tables, tab-separated with a header line.

use crate::input::{analyze_mapped, MappingArg};
use crate::output::stdout_stream;
use droidflame_core::products::{self, ObjectQuery};
use droidflame_core::Options;
use std::path::PathBuf;

#[derive(clap::Subcommand)]
pub(crate) enum HeapCommand {
    /// Classes with a strongly reachable instance: `class count shallow retained`, by
    /// retained bytes, largest first (class objects count under `java.lang.Class`).
    Classes {
        #[arg(value_name = "DUMP")]
        file: PathBuf,
        /// Only objects in this heap (`app`, `image`, `zygote`; `default` for a HotSpot dump).
        #[arg(long, value_name = "NAME")]
        heap: Option<String>,
        #[command(flatten)]
        mapping: MappingArg,
    },
    /// Objects by retained bytes, largest first: `id class heap shallow retained
    /// dominator` (`root`: only the GC roots together dominate it).
    Objects {
        #[arg(value_name = "DUMP")]
        file: PathBuf,
        /// Only the N largest.
        #[arg(long, value_name = "N")]
        top: Option<usize>,
        /// Only objects of this class (as `heap classes` names it).
        #[arg(long, value_name = "NAME")]
        class: Option<String>,
        /// Only objects in this heap.
        #[arg(long, value_name = "NAME")]
        heap: Option<String>,
        #[command(flatten)]
        mapping: MappingArg,
    },
    /// The shortest chain of references from a GC root to an object, root first:
    /// `id class via` (`root:KIND`, then the field `.name` or index `[i]` the line above
    /// holds this one through).
    Path {
        #[arg(value_name = "DUMP")]
        file: PathBuf,
        /// The object's id, `0x…` as the tables print it.
        id: String,
        #[command(flatten)]
        mapping: MappingArg,
    },
    /// Objects still held that their app is done with: `id class retained reason path`
    /// (watched by LeakCanary, destroyed activity, detached fragment).
    Leaks {
        #[arg(value_name = "DUMP")]
        file: PathBuf,
        /// One row per path (array indices aside) with the count of leaks it holds:
        /// `count class retained reason path`.
        #[arg(long)]
        grouped: bool,
        #[command(flatten)]
        mapping: MappingArg,
    },
    /// Copies: strings of equal text and primitive arrays of equal contents, `kind class
    /// count bytes wasted example preview`, the most bytes wasted first (`bytes`: one copy's;
    /// `wasted`: all but one's).
    Duplicates {
        #[arg(value_name = "DUMP")]
        file: PathBuf,
        /// Only the N groups that waste the most.
        #[arg(long, value_name = "N")]
        top: Option<usize>,
        #[command(flatten)]
        mapping: MappingArg,
    },
    /// Three dumps or more, taken after each repetition of one scenario: the classes whose
    /// count grows at every step, `class count_1 … count_N bytes_1 … bytes_N objects_per_step
    /// bytes_per_step` (retained bytes), the most bytes added per step first; `--paths`: the
    /// paths from the GC roots (heap;class;…, as heap-paths folds them) instead.
    Series {
        #[arg(value_name = "DUMP", num_args = 3.., required = true)]
        files: Vec<PathBuf>,
        /// The paths from the GC roots whose count grows, not the classes.
        #[arg(long)]
        paths: bool,
        /// Only the N rows that add the most bytes per step.
        #[arg(long, value_name = "N")]
        top: Option<usize>,
        #[command(flatten)]
        mapping: MappingArg,
    },
    /// Two dumps class by class: `class count_before count_after shallow_before
    /// shallow_after retained_before retained_after`, the largest change of retained bytes first.
    Diff {
        before: PathBuf,
        after: PathBuf,
        #[command(flatten)]
        mapping: MappingArg,
    },
}

pub(crate) fn run(command: HeapCommand) -> Result<(), String> {
    let read =
        |dump: &PathBuf, mapping: &MappingArg| analyze_mapped(std::slice::from_ref(dump), Options::default(), mapping);
    let failed = |e: droidflame_core::Error| e.to_string();
    match command {
        HeapCommand::Classes { file, heap, mapping } => {
            let rows = products::heap_classes(&read(&file, &mapping)?.profile, heap.as_deref()).map_err(failed)?;
            stdout_stream(|out| products::write_classes(&rows, out))
        }
        HeapCommand::Objects { file, top, class, heap, mapping } => {
            let query = ObjectQuery { top, class, heap };
            let rows = products::heap_objects(&read(&file, &mapping)?.profile, &query).map_err(failed)?;
            stdout_stream(|out| products::write_objects(&rows, out))
        }
        HeapCommand::Path { file, id, mapping } => {
            let id = parse_id(&id)?;
            let steps = products::heap_path(&read(&file, &mapping)?.profile, id).map_err(failed)?;
            stdout_stream(|out| products::write_path(&steps, out))
        }
        HeapCommand::Leaks { file, grouped, mapping } => {
            let leaks = products::heap_leaks(&read(&file, &mapping)?.profile).map_err(failed)?;
            match grouped {
                true => stdout_stream(|out| products::write_leak_groups(&products::group_leaks(&leaks), out)),
                false => stdout_stream(|out| products::write_leaks(&leaks, out)),
            }
        }
        HeapCommand::Duplicates { file, top, mapping } => {
            let mut rows = products::heap_duplicates(&read(&file, &mapping)?.profile).map_err(failed)?;
            rows.truncate(top.unwrap_or(usize::MAX));
            stdout_stream(|out| products::write_duplicates(&rows, out))
        }
        HeapCommand::Series { files, paths, top, mapping } => {
            // One dump at a time, each reduced before the next is read.
            let mut series = products::HeapSeries::default();
            for file in &files {
                series.add(&read(file, &mapping)?.profile).map_err(failed)?;
            }
            let growth = series.growth().map_err(failed)?;
            if growth.order.iter().enumerate().any(|(at, &d)| at != d) {
                let names: Vec<String> = growth.order.iter().map(|&d| files[d].display().to_string()).collect();
                eprintln!(
                    "droidflame: the dumps record when each was taken: counted in that order, {}",
                    names.join(", ")
                );
            }
            let (name, mut rows) = match paths {
                true => ("path", growth.paths),
                false => ("class", growth.classes),
            };
            rows.truncate(top.unwrap_or(usize::MAX));
            stdout_stream(|out| products::write_series(name, &rows, files.len(), out))
        }
        HeapCommand::Diff { before, after, mapping } => {
            let (before, after) = (read(&before, &mapping)?, read(&after, &mapping)?);
            let changes = products::heap_diff(&before.profile, &after.profile).map_err(failed)?;
            stdout_stream(|out| products::write_class_changes(&changes, out))
        }
    }
}

/// An object id: `0x` and hex as the tables print it, or decimal.
fn parse_id(text: &str) -> Result<u64, String> {
    let parsed = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => text.parse(),
    };
    parsed.map_err(|_| format!("{text}: not an object id; give it as the tables print it (0x12c0a5e8)"))
}
