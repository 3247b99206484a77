//! A heap dump's tables as columns: classes, objects, leaks, two dumps compared. Object ids
//! are numbers (`id`, `dominator`); the CLI prints them as `0x…` hex.

use crate::reading::failed;
use crate::table::{ArrowBatch, Columns};
use arrow_array::{Float64Array, StringArray, UInt64Array};
use droidflame_core::products::{self, ObjectQuery};
use droidflame_core::Profile;
use pyo3::prelude::*;

pub(crate) fn classes(profile: &Profile, label: &str, heap: Option<&str>) -> PyResult<ArrowBatch> {
    let rows = products::heap_classes(profile, heap).map_err(|e| failed(label, e))?;
    let mut columns = Columns::default();
    columns
        .push("class", StringArray::from_iter_values(rows.iter().map(|r| r.name.as_str())))
        .push("count", UInt64Array::from_iter_values(rows.iter().map(|r| r.count)))
        .push("shallow", UInt64Array::from_iter_values(rows.iter().map(|r| r.shallow)))
        .push("retained", UInt64Array::from_iter_values(rows.iter().map(|r| r.retained)));
    columns.finish()
}

pub(crate) fn objects(profile: &Profile, label: &str, query: ObjectQuery) -> PyResult<ArrowBatch> {
    let rows = products::heap_objects(profile, &query).map_err(|e| failed(label, e))?;
    let mut columns = Columns::default();
    columns
        .push("id", UInt64Array::from_iter_values(rows.iter().map(|r| r.id)))
        .push("class", StringArray::from_iter_values(rows.iter().map(|r| r.class.as_str())))
        .push("heap", StringArray::from_iter_values(rows.iter().map(|r| r.heap.as_str())))
        .push("shallow", UInt64Array::from_iter_values(rows.iter().map(|r| r.shallow)))
        .push("retained", UInt64Array::from_iter_values(rows.iter().map(|r| r.retained)))
        .push("dominator", UInt64Array::from_iter(rows.iter().map(|r| r.dominator)));
    columns.finish()
}

pub(crate) fn leaks(profile: &Profile, label: &str, grouped: bool) -> PyResult<ArrowBatch> {
    let leaks = products::heap_leaks(profile).map_err(|e| failed(label, e))?;
    let mut columns = Columns::default();
    if grouped {
        let groups = products::group_leaks(&leaks);
        columns
            .push("count", UInt64Array::from_iter_values(groups.iter().map(|g| g.count)))
            .push("class", StringArray::from_iter_values(groups.iter().map(|g| g.class.as_str())))
            .push("retained", UInt64Array::from_iter_values(groups.iter().map(|g| g.retained)))
            .push("reason", StringArray::from_iter_values(groups.iter().map(|g| g.reason.as_str())))
            .push("path", StringArray::from_iter_values(groups.iter().map(|g| g.path.as_str())));
    } else {
        columns
            .push("id", UInt64Array::from_iter_values(leaks.iter().map(|l| l.id)))
            .push("class", StringArray::from_iter_values(leaks.iter().map(|l| l.class.as_str())))
            .push("retained", UInt64Array::from_iter_values(leaks.iter().map(|l| l.retained)))
            .push("reason", StringArray::from_iter_values(leaks.iter().map(|l| l.reason.as_str())))
            .push("path", StringArray::from_iter_values(leaks.iter().map(|l| l.path.as_str())));
    }
    columns.finish()
}

pub(crate) fn compare(before: &Profile, after: &Profile, label: &str) -> PyResult<ArrowBatch> {
    let changes = products::heap_diff(before, after).map_err(|e| failed(label, e))?;
    let side = |pick: fn(&products::ClassChange) -> u64| UInt64Array::from_iter_values(changes.iter().map(pick));
    let mut columns = Columns::default();
    columns
        .push("class", StringArray::from_iter_values(changes.iter().map(|c| c.class.as_str())))
        .push("count_before", side(|c| c.before.0))
        .push("count_after", side(|c| c.after.0))
        .push("shallow_before", side(|c| c.before.1))
        .push("shallow_after", side(|c| c.after.1))
        .push("retained_before", side(|c| c.before.2))
        .push("retained_after", side(|c| c.after.2));
    columns.finish()
}

pub(crate) fn duplicates(profile: &Profile, label: &str) -> PyResult<ArrowBatch> {
    let rows = products::heap_duplicates(profile).map_err(|e| failed(label, e))?;
    let mut columns = Columns::default();
    columns
        .push("kind", StringArray::from_iter_values(rows.iter().map(|r| r.kind)))
        .push("class", StringArray::from_iter_values(rows.iter().map(|r| r.class.as_str())))
        .push("count", UInt64Array::from_iter_values(rows.iter().map(|r| r.count)))
        .push("bytes", UInt64Array::from_iter_values(rows.iter().map(|r| r.bytes)))
        .push("wasted", UInt64Array::from_iter_values(rows.iter().map(|r| r.wasted)))
        .push("example", UInt64Array::from_iter_values(rows.iter().map(|r| r.example)))
        .push("preview", StringArray::from_iter_values(rows.iter().map(|r| r.preview.as_str())));
    columns.finish()
}

/// What grows at every step of a series of dumps: classes, or (`paths`) paths from the GC
/// roots, with a column per dump of counts and of bytes.
pub(crate) fn series(dumps: &[&Profile], paths: bool) -> PyResult<ArrowBatch> {
    let growth = products::heap_series(dumps).map_err(|e| failed("series", e))?;
    let rows = if paths { growth.paths } else { growth.classes };
    let mut columns = Columns::default();
    columns.push(
        if paths { "path" } else { "class" },
        StringArray::from_iter_values(rows.iter().map(|r| r.name.as_str())),
    );
    for (word, pick) in [("count", 0), ("bytes", 1)] {
        for at in 0..dumps.len() {
            let cell = |r: &products::SeriesRow| if pick == 0 { r.counts[at] } else { r.bytes[at] };
            columns.push(&format!("{word}_{}", at + 1), UInt64Array::from_iter_values(rows.iter().map(cell)));
        }
    }
    columns
        .push("objects_per_step", Float64Array::from_iter_values(rows.iter().map(|r| r.objects_per_step())))
        .push("bytes_per_step", Float64Array::from_iter_values(rows.iter().map(|r| r.bytes_per_step())));
    columns.finish()
}
