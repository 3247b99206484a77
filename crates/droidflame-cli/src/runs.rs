//! Many runs: `diff --before FILE... --after FILE...` and `merge FILE...`. Each run is
//! read, reduced and let go before the next, so any number of runs fits in memory.

use crate::input::{analyze, read_chunks, SourceArg};
use crate::output::{write_text, write_to};
use droidflame_core::products::{self, DiffGraphOptions, Group, GroupTest, RunOptions, Runs, Stat};
use droidflame_core::{Analysis, Options};
use std::path::{Path, PathBuf};

/// A mapping read once into memory and applied to each run as it comes (each run wants
/// its own classes of it).
pub struct RunMapping {
    path: PathBuf,
    bytes: Vec<u8>,
}

impl RunMapping {
    pub fn read(path: &Path) -> Result<RunMapping, String> {
        let mut bytes = Vec::new();
        read_chunks(path, |chunk| {
            bytes.extend_from_slice(chunk);
            Ok(())
        })?;
        Ok(RunMapping { path: path.to_owned(), bytes })
    }

    fn apply(&self, run: &mut Analysis) -> Result<(), String> {
        run.deobfuscate_with(&self.bytes).map_err(|e| format!("{}: {e}", self.path.display()))?;
        Ok(())
    }
}

/// How every run is read.
pub struct RunReading<'a> {
    pub options: RunOptions,
    pub source: &'a SourceArg,
}

/// Reads each of `paths` into `runs` under `group`, one at a time.
fn add_all(
    runs: &mut Runs,
    group: Group,
    paths: &[PathBuf],
    source: &SourceArg,
    mapping: Option<&RunMapping>,
) -> Result<(), String> {
    for path in paths {
        let mut run = analyze(std::slice::from_ref(path), Options::default())?;
        if let Some(mapping) = mapping {
            mapping.apply(&mut run)?;
        }
        source.select(&mut run).map_err(|e| format!("{}: {e}", path.display()))?;
        runs.add(&path.display().to_string(), group, &run).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// What `diff` prints for two groups.
pub enum GroupOutput {
    Folded,
    Methods(GroupTest),
    Svg(DiffGraphOptions),
}

/// `diff --before ... --after ...`: two groups compared.
pub fn diff(
    [before, after]: [&[PathBuf]; 2],
    reading: RunReading,
    mappings: &[PathBuf],
    output: &Path,
    what: GroupOutput,
) -> Result<(), String> {
    let mappings: Vec<RunMapping> = mappings.iter().map(|p| RunMapping::read(p)).collect::<Result<_, _>>()?;
    let (for_before, for_after) = match mappings.as_slice() {
        [] => (None, None),
        [both] => (Some(both), Some(both)),
        [b, a] => (Some(b), Some(a)),
        _ => return Err("give --mapping once (every run) or twice (the runs before, then after)".into()),
    };
    let mut runs = Runs::new(reading.options);
    add_all(&mut runs, Group::Before, before, reading.source, for_before)?;
    add_all(&mut runs, Group::After, after, reading.source, for_after)?;
    for warning in runs.warnings() {
        eprintln!("droidflame: warning: {warning}");
    }
    match what {
        GroupOutput::Methods(test) => {
            let rows = products::compare_groups(&runs, &test).map_err(|e| e.to_string())?;
            let found = rows.iter().filter(|r| r.significant).count();
            let every_run = rows.iter().filter(|r| r.evidence == products::Evidence::EveryRun).count();
            let more = if every_run > 0 { format!("; {every_run} more where every run moved") } else { String::new() };
            eprintln!(
                "droidflame: {} runs before, {} after: {found} of {} methods changed significantly (false-discovery rate {}){more}",
                before.len(),
                after.len(),
                rows.len(),
                test.alpha
            );
            write_to(output, |mut out| products::write_group_methods(&rows, &mut out))
        }
        GroupOutput::Folded => {
            let comparison = runs.median_comparison().map_err(|e| e.to_string())?;
            write_to(output, |mut out| products::write_diff_folded(&comparison, &mut out))
        }
        GroupOutput::Svg(graph) => {
            let comparison = runs.median_comparison().map_err(|e| e.to_string())?;
            let svg = products::diff_svg(&comparison, &graph).map_err(|e| e.to_string())?;
            write_text(output, &svg)
        }
    }
}

/// `merge FILE...`: one group's aggregate, as folded stacks of `stat` or as summary JSON.
pub fn merge(
    paths: &[PathBuf],
    reading: RunReading,
    mapping: Option<&Path>,
    output: &Path,
    folded: Option<Stat>,
) -> Result<(), String> {
    let mapping = mapping.map(RunMapping::read).transpose()?;
    let mut runs = Runs::new(reading.options);
    add_all(&mut runs, Group::Before, paths, reading.source, mapping.as_ref())?;
    for warning in runs.warnings() {
        eprintln!("droidflame: warning: {warning}");
    }
    match folded {
        Some(stat) => write_to(output, |mut out| products::write_group_folded(&runs, Group::Before, stat, &mut out)),
        None => {
            let json = products::group_summary_json(&runs, Group::Before).map_err(|e| e.to_string())?;
            write_text(output, &(json + "\n"))
        }
    }
}
