//! The differential flame graph of a comparison: frames as wide as one side's time, drawn
//! by inferno, then coloured by how each frame's self or total time changed against the
//! other side, relative to it (`diff_colour`): red grew, blue shrank, neutral within a
//! dead band. (inferno's own differential mode colours only a stack's leaf, by its change
//! against the largest change in the graph: most frames came out near-white.)

use super::diff::Comparison;
use super::diff_colour::{recolour, ChangeOf, Colouring, Line};
use super::flame::{empty_svg, inferno_options, FlameOptions, Theme, MAX_PLAUSIBLE_MICROS};
use crate::error::{Error, ErrorKind, Result};
use crate::text::group_digits;
use inferno::flamegraph;

/// Which side's time the frames' widths show.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Widths {
    /// The second profile's: where time goes now; code that is gone does not show.
    #[default]
    After,
    /// The first profile's: shows code that is gone; code that is new does not show.
    Before,
}

impl Widths {
    /// `after` or `before`.
    pub fn parse(text: &str) -> Option<Widths> {
        match text {
            "after" => Some(Widths::After),
            "before" => Some(Widths::Before),
            _ => None,
        }
    }
}

/// How a differential flame graph is drawn.
#[derive(Debug, Clone)]
pub struct DiffGraphOptions {
    /// Only the stacks of threads of this name, drawn without the thread frame; `None`:
    /// every thread, each under its name.
    pub thread: Option<String>,
    /// The side whose time sets the widths.
    pub widths: Widths,
    /// Scale the other side to the same total before colouring, so that a longer run
    /// does not colour everything red: colours then show shares of the total, not µs.
    pub normalize: bool,
    /// Picture width in pixels; `None` lets the SVG scale to its container.
    pub image_width: Option<usize>,
    /// The colours around the frames.
    pub theme: Theme,
    /// What a frame's colour measures: the change of its self time or of its total.
    pub colour: ChangeOf,
    /// Frames whose change is drawn neutral are faded, so that the changed ones stand out.
    pub changed_only: bool,
    /// Where groups of runs are compared: the frames (by name) whose change the runs show
    /// (`Verdict` not unchanged); other frames' own time is drawn neutral. `None`: every
    /// frame by the size of its change.
    pub shown: Option<Vec<String>>,
}

impl Default for DiffGraphOptions {
    fn default() -> Self {
        DiffGraphOptions {
            thread: None,
            widths: Widths::After,
            normalize: false,
            image_width: None,
            theme: Theme::Light,
            colour: ChangeOf::SelfTime,
            changed_only: false,
            shown: None,
        }
    }
}

/// Renders a comparison as a differential flame graph (SVG text).
pub fn diff_svg(comparison: &Comparison, options: &DiffGraphOptions) -> Result<String> {
    let clock = comparison.clock;
    let tree = &comparison.tree;
    let scope = options.thread.as_deref().unwrap_or("All threads");
    let title = format!("{scope} — {}, before → after", comparison.measured);
    let root = match &options.thread {
        None => 0,
        Some(name) => match tree.threads().find(|(_, n)| n == name) {
            Some((node, _)) => node,
            None => {
                return Ok(empty_svg(&title, &format!("Neither trace has a thread named {name:?}."), options.theme))
            }
        },
    };
    // Indices into `[before, after]`: the side that sets the widths, and the other.
    let (w, o) = match options.widths {
        Widths::After => (1, 0),
        Widths::Before => (0, 1),
    };
    let sides = ["before", "after"];
    let incl = tree.inclusive();
    let (width_total, other_total) = (incl[root as usize][w], incl[root as usize][o]);
    if width_total == 0 {
        let message = if other_total == 0 {
            format!("Neither trace recorded time here on the {clock} clock.")
        } else {
            format!(
                "The {} trace recorded no time here on the {clock} clock; draw the widths of {}.",
                sides[w], sides[o]
            )
        };
        return Ok(empty_svg(&title, &message, options.theme));
    }
    if width_total.max(other_total) > MAX_PLAUSIBLE_MICROS {
        return Err(Error::new(
            ErrorKind::Corrupt,
            format!("the {clock}-clock times add up to more than 35 years, so a trace's times are damaged; no graph was drawn"),
        ));
    }
    // inferno leaves out frames narrower than `min_width` pixels; leaving them out first
    // (their time in their parents' lines) spares it stacks it would not draw.
    let flame = FlameOptions { image_width: options.image_width, theme: options.theme, ..FlameOptions::default() };
    let prune_below =
        ((width_total as f64 * flame.min_width / options.image_width.unwrap_or(1200) as f64) as u64).max(1);
    // Scaling the other side to the width side's total keeps the widths in real µs.
    let scale = if options.normalize && other_total > 0 { width_total as f64 / other_total as f64 } else { 1.0 };
    // Every stack, sorted as inferno sorts its lines; those of no width are not drawn, but
    // their other side counts in their callers' totals.
    let mut lines: Vec<Line> = Vec::new();
    let _ = tree.for_each_line(
        root,
        &incl,
        |n| incl[n as usize][w] >= prune_below,
        |stack, before, after| {
            let values = [before, after];
            lines.push((format!("{stack} {}", values[w]), values[w], values[o] as f64 * scale));
            Ok::<(), ()>(())
        },
    );
    lines.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    for line in &mut lines {
        let stack_len = line.0.rfind(' ').expect("a line ends with its value");
        line.0.truncate(stack_len);
    }
    let mut opts = inferno_options(&flame, comparison.frame_kind, comparison.unit);
    let unit = comparison.unit.symbol();
    let measure = if comparison.unit == crate::profile::Unit::Micros { "time" } else { unit };
    opts.title = title;
    opts.no_sort = true;
    let scaled = if options.normalize && scale != 1.0 { ", scaled to the same total" } else { "" };
    // Short enough to fit a graph 1,000 px wide; the page's legend says it at length.
    // Where runs were compared, only the methods they show changed are coloured. What grey
    // means is the legend's (and the README's): the subtitle fits a graph 1,200 px wide.
    let runs_show = if options.shown.is_some() { " where the runs show the method changed," } else { "" };
    opts.subtitle = Some(format!(
        "Widths: {}, {} {unit}. Colour: {} {measure} change against {} ({} {unit}{scaled}),{runs_show} deeper with its share of the whole: red grew, blue shrank.",
        sides[w],
        group_digits(width_total),
        options.colour.name(),
        sides[o],
        group_digits(other_total),
    ));
    let text: Vec<String> =
        lines.iter().filter(|l| l.1 > 0).map(|(stack, value, _)| format!("{stack} {value}")).collect();
    let mut svg = Vec::new();
    flamegraph::from_lines(&mut opts, text.iter().map(String::as_str), &mut svg)
        .map_err(|e| Error::new(ErrorKind::Request, format!("the differential flame graph could not be drawn: {e}")))?;
    let svg = super::flame::themed(String::from_utf8(svg).expect("inferno writes UTF-8"), options.theme);
    let colouring = Colouring {
        widths_after: options.widths == Widths::After,
        of: options.colour,
        changed_only: options.changed_only,
        shown: options.shown.as_deref(),
    };
    Ok(recolour(&svg, &lines, &colouring))
}
