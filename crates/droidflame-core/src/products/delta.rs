//! Per-method deltas between two profiles: each method's calls, inclusive and exclusive
//! time before and after, matched by name and signature (ids differ between runs), over
//! all threads or over the threads of one name.

use super::frames::sanitize;
use super::table::frame_table_of;
use super::transform::View;
use super::view_methods::view_rows;
use crate::error::{Error, ErrorKind, Result};
use crate::profile::{Clock, Profile, ThreadProfile, NONE};
use std::collections::BTreeMap;

/// One side's totals of a method, in whole µs on the comparison's clock.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MethodTotals {
    /// Calls, recursive ones included.
    pub calls: u64,
    /// Inclusive time, each outermost call once.
    pub incl_us: u64,
    /// Exclusive (self) time.
    pub excl_us: u64,
}

/// A method (or slice) on both sides; a side that never called it has zero totals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MethodDelta {
    /// `Class.method` or the slice's name.
    pub name: String,
    /// The class in dotted form; empty for slices.
    pub class: String,
    /// The method's (or slice's) own name; empty for an unknown method id.
    pub method: String,
    /// The method's signature; empty for slices.
    pub signature: String,
    /// Totals in the first profile.
    pub before: MethodTotals,
    /// Totals in the second profile.
    pub after: MethodTotals,
}

impl MethodDelta {
    /// After's inclusive time less before's, in µs.
    pub fn incl_delta(&self) -> i64 {
        self.after.incl_us as i64 - self.before.incl_us as i64
    }

    /// After's exclusive time less before's, in µs.
    pub fn excl_delta(&self) -> i64 {
        self.after.excl_us as i64 - self.before.excl_us as i64
    }
}

/// The change from `before` to `after` in percent of `before`; `None` when `before` is 0
/// (a change from nothing has no ratio).
pub fn change_percent(before: u64, after: u64) -> Option<f64> {
    (before > 0).then(|| (after as f64 - before as f64) * 100.0 / before as f64)
}

/// Every method either profile called, by how much its inclusive time changed (most
/// either way first), then by name. `thread`: only the threads of that name (as the
/// comparison's stacks name them), which must exist on at least one side. With
/// transforms, both sides' methods are read off `view`'s stacks (frames as stacks name
/// them); each of its frames must be on at least one side.
pub fn method_deltas(
    before: &Profile,
    after: &Profile,
    clock: Clock,
    thread: Option<&str>,
    view: &View,
) -> Result<Vec<MethodDelta>> {
    for (side, profile) in [("before", before), ("after", after)] {
        if !profile.has(clock) {
            return Err(Error::new(ErrorKind::Request, format!("the {side} trace has no {clock} clock")));
        }
    }
    if view.check(before).is_err() {
        view.check(after)?;
    }
    let mut by_key: BTreeMap<(String, String), MethodDelta> = BTreeMap::new();
    let mut found = false;
    for (side, profile) in [before, after].into_iter().enumerate() {
        let rows = method_rows(profile, clock, thread, view);
        found |= rows.is_some();
        for row in rows.unwrap_or_default() {
            let entry = by_key.entry((row.name, row.signature)).or_insert_with_key(|(name, signature)| MethodDelta {
                name: name.clone(),
                class: row.class,
                method: row.method,
                signature: signature.clone(),
                before: MethodTotals::default(),
                after: MethodTotals::default(),
            });
            let totals = if side == 0 { &mut entry.before } else { &mut entry.after };
            totals.calls += row.totals.calls;
            totals.incl_us += row.totals.incl_us;
            totals.excl_us += row.totals.excl_us;
        }
    }
    if let (Some(name), false) = (thread, found) {
        return Err(Error::new(ErrorKind::Request, format!("neither trace has a thread named {name:?}")));
    }
    let mut rows: Vec<MethodDelta> = by_key.into_values().collect();
    rows.sort_by(|a, b| {
        b.incl_delta().unsigned_abs().cmp(&a.incl_delta().unsigned_abs()).then_with(|| a.name.cmp(&b.name))
    });
    Ok(rows)
}

/// One method of one profile, named as the two sides of a comparison match it: by name and
/// signature (no signature where transforms merged overloads into one frame).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MethodRow {
    pub name: String,
    pub signature: String,
    pub class: String,
    pub method: String,
    pub totals: MethodTotals,
}

/// Every method of `profile`'s threads (those named `thread`, or all) on `clock`, through
/// `view`'s transforms; `None` where no thread has that name. A method may come twice
/// (a frame and its overload merged by the view): the caller adds them.
pub(crate) fn method_rows(
    profile: &Profile,
    clock: Clock,
    thread: Option<&str>,
    view: &View,
) -> Option<Vec<MethodRow>> {
    let threads: Vec<&ThreadProfile> =
        profile.stacks().threads.iter().filter(|t| thread.is_none_or(|name| sanitize(&t.name) == name)).collect();
    if threads.is_empty() && thread.is_some() {
        return None;
    }
    // (name, the frame it stands for, whether it shows a signature, calls, incl, excl)
    let rows: Vec<(String, u32, bool, u64, u64, u64)> = if view.transforms.is_empty() {
        let rows = frame_table_of(profile, &threads).rows;
        rows.into_iter()
            .map(|r| {
                let (incl, excl) = (profile.micros(r.incl[clock]), profile.micros(r.excl[clock]));
                (profile.frame_name(r.frame).to_owned(), r.frame, true, r.calls, incl, excl)
            })
            .collect()
    } else {
        let rows = view_rows(profile, &threads, view);
        rows.into_iter()
            .map(|v| (v.name, v.frame, !v.overloads, v.row.calls, v.row.incl[clock], v.row.excl[clock]))
            .collect()
    };
    let rows = rows.into_iter().map(|(name, frame, signed, calls, incl_us, excl_us)| {
        let frame = (frame != NONE).then(|| &profile.frames[frame as usize]);
        MethodRow {
            signature: frame.filter(|_| signed).map_or(String::new(), |f| f.signature.clone()),
            class: frame.map_or(String::new(), |f| f.class.clone()),
            method: frame.map_or(name.clone(), |f| f.name.clone()),
            name,
            totals: MethodTotals { calls, incl_us, excl_us },
        }
    });
    Some(rows.collect())
}

/// The header of `write_method_deltas`' table.
pub const METHOD_DELTA_COLUMNS: &str = "method\tsignature\tcalls_before\tcalls_after\tincl_before_us\tincl_after_us\t\
     incl_delta_us\tincl_change\texcl_before_us\texcl_after_us\texcl_delta_us\texcl_change";

/// Writes the deltas as a tab-separated table with a header line. A change is a signed
/// percentage of before (`+12.5%`), `new` for a method before never called, or `-` where
/// before's time was 0 µs.
pub fn write_method_deltas(rows: &[MethodDelta], out: &mut impl std::io::Write) -> Result<()> {
    let failed = |e: std::io::Error| Error::new(ErrorKind::Output, e.to_string());
    writeln!(out, "{METHOD_DELTA_COLUMNS}").map_err(failed)?;
    for row in rows {
        let change = |before: u64, after: u64| match change_percent(before, after) {
            _ if row.before.calls == 0 => "new".to_owned(),
            Some(p) => format!("{p:+.1}%"),
            None => "-".to_owned(),
        };
        let (b, a) = (row.before, row.after);
        writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}\t{}\t{:+}\t{}\t{}\t{}\t{:+}\t{}",
            row.name.replace(['\t', '\n', '\r'], " "),
            row.signature,
            b.calls,
            a.calls,
            b.incl_us,
            a.incl_us,
            row.incl_delta(),
            change(b.incl_us, a.incl_us),
            b.excl_us,
            a.excl_us,
            row.excl_delta(),
            change(b.excl_us, a.excl_us),
        )
        .map_err(failed)?;
    }
    out.flush().map_err(failed)
}
