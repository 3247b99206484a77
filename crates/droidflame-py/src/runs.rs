//! `compare_runs`: two groups of runs, each read, reduced and let go before the next.

use crate::reading::{failed, DroidflameError, Reading};
use crate::table::{ArrowBatch, Columns};
use arrow_array::{BooleanArray, Float64Array, NullArray, StringArray, UInt64Array};
use droidflame_core::products::{self, Cell, Group, GroupTest, RunOptions, Runs, GROUP_METHOD_COLUMN_NAMES};
use droidflame_core::Options;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::path::PathBuf;

/// A run given as a path (read here) or as bytes (named by its place in its group).
fn run_bytes(item: &Bound<'_, PyAny>, group: Group, at: usize) -> PyResult<(String, Vec<u8>)> {
    if let Ok(bytes) = item.cast::<PyBytes>() {
        return Ok((format!("{} run {}", group.name(), at + 1), bytes.as_bytes().to_vec()));
    }
    let path: PathBuf = item.extract()?;
    let label = path.display().to_string();
    let bytes =
        std::fs::read(&path).map_err(|e| pyo3::exceptions::PyOSError::new_err(format!("cannot open {label}: {e}")))?;
    Ok((label, bytes))
}

/// The many-runs methods table of `before` against `after` (lists of paths or bytes).
#[pyfunction]
#[pyo3(signature = (before, after, alpha = products::DEFAULT_ALPHA, share = false, clock = None, thread = None, mapping = None, source = None))]
#[allow(clippy::too_many_arguments)]
pub fn compare_runs(
    py: Python<'_>,
    before: Vec<Bound<'_, PyAny>>,
    after: Vec<Bound<'_, PyAny>>,
    alpha: f64,
    share: bool,
    clock: Option<&str>,
    thread: Option<String>,
    mapping: Option<Vec<u8>>,
    source: Option<&str>,
) -> PyResult<ArrowBatch> {
    let reading = Reading::new(clock, mapping, source)?;
    let mut runs = Runs::new(RunOptions { clock: reading.clock, thread, ..RunOptions::default() });
    for (group, items) in [(Group::Before, &before), (Group::After, &after)] {
        for (at, item) in items.iter().enumerate() {
            let (label, bytes) = run_bytes(item, group, at)?;
            py.detach(|| {
                let run = reading.read(&bytes, Options::default())?;
                runs.add(&label, group, &run)
            })
            .map_err(|e| failed(&label, e))?;
        }
    }
    let rows = products::compare_groups(&runs, &GroupTest { alpha, share })
        .map_err(|e| DroidflameError::new_err(e.to_string()))?;
    let mut columns = Columns::default();
    for (i, name) in GROUP_METHOD_COLUMN_NAMES.iter().enumerate() {
        let cells: Vec<Cell> = rows.iter().map(|r| r.cells()[i]).collect();
        match cells.first() {
            None => columns.push(name, NullArray::new(0)),
            Some(Cell::Text(_)) => columns.push(name, StringArray::from_iter_values(cells.iter().map(text))),
            Some(Cell::Count(_)) => columns.push(name, UInt64Array::from_iter_values(cells.iter().map(count))),
            Some(Cell::Flag(_)) => columns.push(name, BooleanArray::from_iter(cells.iter().map(|c| Some(flag(c))))),
            Some(_) => columns.push(name, Float64Array::from_iter(cells.iter().map(number))),
        };
    }
    columns.finish()
}

fn text<'a>(cell: &Cell<'a>) -> &'a str {
    match cell {
        Cell::Text(t) => t,
        _ => "",
    }
}

fn count(cell: &Cell) -> u64 {
    match cell {
        Cell::Count(n) => *n,
        _ => 0,
    }
}

fn flag(cell: &Cell) -> bool {
    matches!(cell, Cell::Flag(true))
}

/// A number; a change from 0 is null.
fn number(cell: &Cell) -> Option<f64> {
    match *cell {
        Cell::Number(v) | Cell::Percent(v) | Cell::Probability(v) => Some(v),
        Cell::Change(change, _) | Cell::Ratio(change) => change,
        _ => None,
    }
}
