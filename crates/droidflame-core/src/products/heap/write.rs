//! The heap tables as tab-separated text with a header line, as the CLI prints them.

use super::classes::ClassRow;
use super::diff::ClassChange;
use super::duplicates::DuplicateRow;
use super::leaks::{Leak, LeakGroup};
use super::lookup::object_id;
use super::objects::ObjectRow;
use super::path::PathStep;
use super::series::SeriesRow;
use crate::error::{Error, ErrorKind, Result};
use std::io::Write;

fn failed(e: std::io::Error) -> Error {
    Error::new(ErrorKind::Output, e.to_string())
}

/// Names with tabs or line breaks (a damaged dump's) would break the columns.
fn cell(text: &str) -> std::borrow::Cow<'_, str> {
    match text.contains(['\t', '\n', '\r']) {
        true => text.replace(['\t', '\n', '\r'], " ").into(),
        false => text.into(),
    }
}

/// `class count shallow retained`.
pub fn write_classes(rows: &[ClassRow], out: &mut impl Write) -> Result<()> {
    writeln!(out, "class\tcount\tshallow\tretained").map_err(failed)?;
    for r in rows {
        writeln!(out, "{}\t{}\t{}\t{}", cell(&r.name), r.count, r.shallow, r.retained).map_err(failed)?;
    }
    Ok(())
}

/// `id class heap shallow retained dominator` (`root` for the super-root).
pub fn write_objects(rows: &[ObjectRow], out: &mut impl Write) -> Result<()> {
    writeln!(out, "id\tclass\theap\tshallow\tretained\tdominator").map_err(failed)?;
    for r in rows {
        let dominator = r.dominator.map_or_else(|| "root".to_owned(), object_id);
        let (id, class, heap) = (object_id(r.id), cell(&r.class), cell(&r.heap));
        writeln!(out, "{id}\t{class}\t{heap}\t{}\t{}\t{dominator}", r.shallow, r.retained).map_err(failed)?;
    }
    Ok(())
}

/// `id class via`, root first.
pub fn write_path(steps: &[PathStep], out: &mut impl Write) -> Result<()> {
    writeln!(out, "id\tclass\tvia").map_err(failed)?;
    for s in steps {
        writeln!(out, "{}\t{}\t{}", object_id(s.id), cell(&s.class), cell(&s.via)).map_err(failed)?;
    }
    Ok(())
}

/// `id class retained reason path`.
pub fn write_leaks(leaks: &[Leak], out: &mut impl Write) -> Result<()> {
    writeln!(out, "id\tclass\tretained\treason\tpath").map_err(failed)?;
    for l in leaks {
        let (id, class, path) = (object_id(l.id), cell(&l.class), cell(&l.path));
        writeln!(out, "{id}\t{class}\t{}\t{}\t{path}", l.retained, l.reason).map_err(failed)?;
    }
    Ok(())
}

/// `count class retained reason path`.
pub fn write_leak_groups(groups: &[LeakGroup], out: &mut impl Write) -> Result<()> {
    writeln!(out, "count\tclass\tretained\treason\tpath").map_err(failed)?;
    for g in groups {
        let (class, path) = (cell(&g.class), cell(&g.path));
        writeln!(out, "{}\t{class}\t{}\t{}\t{path}", g.count, g.retained, g.reason).map_err(failed)?;
    }
    Ok(())
}

/// `class count_before count_after shallow_before shallow_after retained_before
/// retained_after`.
pub fn write_class_changes(changes: &[ClassChange], out: &mut impl Write) -> Result<()> {
    writeln!(out, "class\tcount_before\tcount_after\tshallow_before\tshallow_after\tretained_before\tretained_after")
        .map_err(failed)?;
    for c in changes {
        let (b, a) = (c.before, c.after);
        writeln!(out, "{}\t{}\t{}\t{}\t{}\t{}\t{}", cell(&c.class), b.0, a.0, b.1, a.1, b.2, a.2).map_err(failed)?;
    }
    Ok(())
}

/// `kind class count bytes wasted example preview`.
pub fn write_duplicates(rows: &[DuplicateRow], out: &mut impl Write) -> Result<()> {
    writeln!(out, "kind\tclass\tcount\tbytes\twasted\texample\tpreview").map_err(failed)?;
    for d in rows {
        let (class, preview) = (cell(&d.class), cell(&d.preview));
        writeln!(
            out,
            "{}\t{class}\t{}\t{}\t{}\t{}\t{preview}",
            d.kind,
            d.count,
            d.bytes,
            d.wasted,
            object_id(d.example)
        )
        .map_err(failed)?;
    }
    Ok(())
}

/// `name count_1 … count_N bytes_1 … bytes_N objects_per_step bytes_per_step`, with
/// `name` the first column's heading (`class` or `path`).
pub fn write_series(name: &str, rows: &[SeriesRow], dumps: usize, out: &mut impl Write) -> Result<()> {
    let numbered = |word: &str| (1..=dumps).map(|i| format!("\t{word}_{i}")).collect::<String>();
    writeln!(out, "{name}{}{}\tobjects_per_step\tbytes_per_step", numbered("count"), numbered("bytes"))
        .map_err(failed)?;
    for r in rows {
        let cells = |v: &[u64]| v.iter().map(|n| format!("\t{n}")).collect::<String>();
        let (objects, bytes) = (r.objects_per_step(), r.bytes_per_step());
        writeln!(out, "{}{}{}\t{objects:.1}\t{bytes:.0}", cell(&r.name), cells(&r.counts), cells(&r.bytes))
            .map_err(failed)?;
    }
    Ok(())
}
