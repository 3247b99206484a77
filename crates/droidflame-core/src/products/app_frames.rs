//! `droidflame frames`: the frames apps produced, one per line, tab-separated:
//! `pid layer token start_us dur_us expected_dur_us jank present`, start in µs from the
//! start of the trace's timeline. A frame the trace never ends has no duration.

use crate::profile::Profile;
use crate::{Error, ErrorKind, Result};
use std::io::Write;

/// Which frames to list.
#[derive(Debug, Clone, Default)]
pub struct FramesQuery {
    /// Only this process's.
    pub pid: Option<u32>,
    /// Only janky ones.
    pub jank_only: bool,
}

/// Writes the frames `query` asks for, in start order.
pub fn write_frames(profile: &Profile, query: &FramesQuery, out: &mut dyn Write) -> Result<()> {
    if profile.app_frames.is_empty() {
        return Err(Error::new(
            ErrorKind::Request,
            "this trace has no frame timeline (Perfetto's frametimeline data source, Android 12 and later, records \
             each app frame and its jank)",
        ));
    }
    if let Some(pid) = query.pid.filter(|&pid| !profile.app_frames.iter().any(|f| f.pid == pid)) {
        return Err(Error::new(ErrorKind::Request, format!("no app frame of process {pid} is in the trace")));
    }
    let failed = |e: std::io::Error| Error::new(ErrorKind::Output, e.to_string());
    let unit = profile.trace_time_unit();
    let us = |ticks: u64| unit.micros(ticks).to_string();
    writeln!(out, "pid\tlayer\ttoken\tstart_us\tdur_us\texpected_dur_us\tjank\tpresent").map_err(failed)?;
    let wanted =
        profile.app_frames.iter().filter(|f| query.pid.is_none_or(|pid| f.pid == pid) && (!query.jank_only || f.janky));
    for f in wanted {
        writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            f.pid,
            f.layer.replace(['\t', '\n'], " "),
            f.token,
            us(f.start.saturating_sub(profile.timeline.start)),
            f.duration().map(us).unwrap_or_default(),
            f.expected_duration().map(us).unwrap_or_default(),
            f.jank,
            f.present
        )
        .map_err(failed)?;
    }
    out.flush().map_err(failed)
}
