//! A group's aggregate as a flame graph: each stack's median (or mean, or sum) over the
//! group's runs, drawn by inferno as every other graph is.

use super::aggregate::Stat;
use super::reduced::{Group, Runs};
use crate::error::{Error, ErrorKind, Result};
use crate::products::flame::{empty_svg, inferno_options, themed, FlameOptions};
use crate::profile::Unit;
use crate::text::group_digits;
use inferno::flamegraph;

/// The flame graph of `group`'s `stat` per stack, of the threads named `thread` (all
/// threads, each its own tower, when `None`).
pub fn group_flame_svg(
    runs: &Runs,
    group: Group,
    stat: Stat,
    thread: Option<&str>,
    options: &FlameOptions,
) -> Result<String> {
    let kind = runs.ready(&[group])?.clone();
    let mut tree = runs.stacks.tree.clone();
    tree.set_own(runs.node_values(group, stat).into_iter().map(|v| [v, 0]));
    let incl = tree.inclusive();
    let root = match thread {
        None => 0,
        Some(name) => runs.thread_node(name)?,
    };
    let title = format!(
        "{} — {}, {} of the {} runs {}",
        thread.unwrap_or("All threads"),
        kind.measured,
        stat.name(),
        runs.count(group),
        group.name()
    );
    let total = incl[root as usize][0];
    if total == 0 {
        return Ok(empty_svg(&title, "No stack has time in these runs.", options.theme));
    }
    let width = options.image_width.unwrap_or(1200) as f64;
    let prune_below = (total as f64 * options.min_width / width) as u64;
    let mut lines = Vec::new();
    let _ = tree.for_each_line(
        root,
        &incl,
        |n| incl[n as usize][0] >= prune_below.max(1),
        |stack, value, _| {
            lines.push(format!("{stack} {value}"));
            Ok::<(), ()>(())
        },
    );
    let mut opts = inferno_options(options, kind.frame_kind, kind.unit);
    opts.title = title;
    let amount = match kind.unit {
        Unit::Micros => format!("{} µs", group_digits(total)),
        unit => format!("{} {}", group_digits(total), unit.symbol()),
    };
    opts.subtitle = Some(match stat {
        Stat::Median => format!("{amount} in all: each stack's median over the runs, added up"),
        Stat::Mean => format!("{amount} in all: each stack's mean over the runs"),
        Stat::Sum => format!("{amount} in all runs together"),
    });
    let mut svg = Vec::new();
    flamegraph::from_lines(&mut opts, lines.iter().map(String::as_str), &mut svg)
        .map_err(|e| Error::new(ErrorKind::Request, format!("the flame graph could not be drawn: {e}")))?;
    Ok(themed(String::from_utf8(svg).expect("inferno writes UTF-8"), options.theme))
}
