//! Flame-graph SVGs through inferno: one per thread, or all threads under their thread
//! frames. Stacks reach inferno already aggregated (one line per unique stack).

use super::frames::{sanitize, FrameNames, FrameTree, DEFAULT_MAX_DEPTH};
use super::transform::View;
use crate::error::{Error, ErrorKind, Result};
use crate::profile::{Clock, FrameKind, Profile, Unit};
use crate::text::group_digits;
use inferno::flamegraph::color::{BackgroundColor, Color, MultiPalette};
use inferno::flamegraph::{self, Palette};

/// More time than this (2^50 µs, about 35 years) in one graph only comes from damaged
/// times; inferno would overflow on it.
pub(crate) const MAX_PLAUSIBLE_MICROS: u64 = 1 << 50;

/// Which stacks a graph shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GraphScope {
    /// One thread, by its index in `StackProfile::threads`.
    Thread(usize),
    /// Every thread, each under a root frame `name [tid]`.
    AllThreads,
}

/// The colours around the frames: a graph shown on a dark page gets a dark background and
/// light text. Frame colours and the graph's script are the same in both.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Theme {
    /// Dark text on white.
    #[default]
    Light,
    /// Light text on a dark background.
    Dark,
}

impl Theme {
    /// The theme `text` names (`light` or `dark`), if any.
    pub fn parse(text: &str) -> Option<Theme> {
        match text {
            "light" => Some(Theme::Light),
            "dark" => Some(Theme::Dark),
            _ => None,
        }
    }

    /// Background and text colours (`#rrggbb`) of the empty-graph picture.
    fn empty_colors(self) -> (&'static str, &'static str) {
        match self {
            Theme::Light => ("#ffffff", "#1d2125"),
            Theme::Dark => ("#16191d", "#e4e7ea"),
        }
    }
}

/// How a flame graph is drawn.
#[derive(Debug, Clone)]
pub struct FlameOptions {
    /// `None`: wall where the trace has it, else its only clock.
    pub clock: Option<Clock>,
    /// Frames narrower than this many pixels are left out of the picture (their time
    /// stays in their parents' widths). inferno's default.
    pub min_width: f64,
    /// Picture width in pixels; `None` lets the SVG scale to its container.
    pub image_width: Option<usize>,
    /// Frames deeper than this merge into one `[frames below depth N, merged]` frame.
    pub max_depth: usize,
    /// The colours around the frames.
    pub theme: Theme,
    /// The transforms, and whether the stacks are inverted.
    pub view: View,
}

impl Default for FlameOptions {
    fn default() -> Self {
        FlameOptions {
            clock: None,
            min_width: 0.1,
            image_width: None,
            max_depth: DEFAULT_MAX_DEPTH,
            theme: Theme::Light,
            view: View::default(),
        }
    }
}

/// What a graph on `clock` measures: `wall clock` where its values are time, else what
/// they are (`bytes not freed`, `samples`).
pub(crate) fn measured(profile: &Profile, clock: Clock) -> String {
    match profile.unit_of(clock) {
        Unit::Micros => format!("{clock} clock"),
        _ => profile.stacks().clock_words.of(clock).to_owned(),
    }
}

/// `N µs in all on the wall clock`, or in a source counted in another unit, `N samples in
/// all (cycles sampled)`, `N bytes in all (bytes not freed)`; no words in brackets where
/// they are the unit's own (`N samples in all`).
pub(crate) fn in_all(profile: &Profile, clock: Clock, total: u64) -> String {
    match profile.unit_of(clock) {
        Unit::Micros => format!("{} µs in all on the {clock} clock", group_digits(total)),
        unit => {
            let words = profile.stacks().clock_words.of(clock);
            if words == unit.symbol() {
                format!("{} {} in all", group_digits(total), unit.symbol())
            } else {
                format!("{} {} in all ({words})", group_digits(total), unit.symbol())
            }
        }
    }
}

/// inferno's options for a graph of `kind` frames drawn with `options`. Every graph and
/// `flame_script` use this one function, so the script a Content-Security-Policy hashes is
/// the script graphs carry.
pub(crate) fn inferno_options(options: &FlameOptions, kind: FrameKind, unit: Unit) -> flamegraph::Options<'static> {
    let mut opts = flamegraph::Options::default();
    opts.colors = Palette::Multi(MultiPalette::Java);
    opts.count_name = unit.symbol().to_owned();
    // The tooltip's label of a frame; it is part of the graph's script.
    opts.name_type = format!("{}:", kind.title());
    opts.min_width = options.min_width;
    opts.image_width = options.image_width;
    opts.hash = true;
    opts.deterministic = true;
    // A label too long for its frame keeps its start: `android.view.Choreographer.do…`
    // says more than `…ssages`.
    opts.text_truncate_direction = flamegraph::TextTruncateDirection::Right;
    if options.theme == Theme::Dark {
        opts.bgcolors = Some(BackgroundColor::Flat(Color { r: 0x16, g: 0x19, b: 0x1d }));
        opts.uicolor = Color { r: 0xe4, g: 0xe7, b: 0xea };
    }
    opts
}

/// Renders one flame graph as SVG text.
pub fn flame_svg(profile: &Profile, scope: GraphScope, options: &FlameOptions) -> Result<String> {
    flame_svg_named(profile, &FrameNames::of_view(profile, options.max_depth, &options.view), scope, options)
}

/// `flame_svg` with the frame names made once for many graphs; `names` decides the merge
/// depth.
pub(crate) fn flame_svg_named(
    profile: &Profile,
    names: &FrameNames,
    scope: GraphScope,
    options: &FlameOptions,
) -> Result<String> {
    let clock = options.clock.unwrap_or(profile.default_clock());
    profile.require(clock)?;
    options.view.check(profile)?;
    let (title, trees): (String, Vec<(Option<String>, FrameTree)>) = match scope {
        GraphScope::Thread(index) => {
            let thread = profile.stacks().threads.get(index).ok_or_else(|| {
                Error::new(
                    ErrorKind::Request,
                    format!("thread index {index} is out of range ({} threads)", profile.stacks().threads.len()),
                )
            })?;
            let tree = FrameTree::merged(profile, names, &[thread]).viewed(profile, names, &options.view);
            (format!("{} — {}", thread.label(), measured(profile, clock)), vec![(None, tree)])
        }
        GraphScope::AllThreads => {
            let trees = profile
                .stacks()
                .threads
                .iter()
                .map(|t| {
                    let tree = FrameTree::merged(profile, names, &[t]).viewed(profile, names, &options.view);
                    (Some(sanitize(&t.label())), tree)
                })
                .collect();
            (format!("All threads — {}", measured(profile, clock)), trees)
        }
    };
    let total = trees.iter().fold(0u64, |sum, (_, tree)| sum.saturating_add(tree.total_micros(profile, clock)));
    if total == 0 {
        let what = measured(profile, clock);
        let message = match (options.view.is_plain(), profile.unit_of(clock)) {
            (true, Unit::Micros) => format!("No time was recorded on the {what}."),
            (false, Unit::Micros) => format!("This view leaves no time on the {what}: undo a step of it."),
            (true, _) => format!("Nothing was recorded ({what})."),
            (false, _) => format!("This view leaves nothing ({what}): undo a step of it."),
        };
        return Ok(empty_svg(&title, &message, options.theme));
    }
    if total > MAX_PLAUSIBLE_MICROS {
        return Err(Error::new(
            ErrorKind::Corrupt,
            format!(
                "the {clock}-clock times add up to more than 35 years, so the trace's times are damaged; \
                 no flame graph was drawn"
            ),
        ));
    }
    // inferno leaves out frames narrower than `min_width` pixels of a picture this wide
    // (less its margins); leaving them out first spares it a tree it would not draw.
    let width = options.image_width.unwrap_or(1200) as f64;
    let prune_below = (total as f64 * options.min_width / width) as u64;
    let mut lines = Vec::new();
    for (prefix, tree) in &trees {
        tree.for_each_stack(profile, names, clock, prefix.as_deref(), prune_below, |stack, v| {
            lines.push(format!("{stack} {v}"));
            Ok::<(), ()>(())
        })
        .expect("collecting lines cannot fail");
    }
    // All the time on the thread itself, in no frame (a damaged capture's): nothing to draw.
    if lines.is_empty() {
        return Ok(empty_svg(
            &title,
            &format!("No frame ran on the {clock} clock: the time is the thread's own."),
            options.theme,
        ));
    }
    let mut opts = inferno_options(options, profile.stacks().frame_kind, profile.unit_of(clock));
    opts.title = title;
    // The widths add up the stacks' values: the time the graph covers, not any frame's own.
    opts.subtitle = Some(in_all(profile, clock, total));
    let mut svg = Vec::new();
    flamegraph::from_lines(&mut opts, lines.iter().map(String::as_str), &mut svg)
        .map_err(|e| Error::new(ErrorKind::Request, format!("the flame graph could not be drawn: {e}")))?;
    Ok(themed(String::from_utf8(svg).expect("inferno writes UTF-8"), options.theme))
}

/// The graph's subtitle in the theme's text colour: inferno gives the title its UI colour
/// but leaves the subtitle black, unreadable on a dark background.
pub(crate) fn themed(svg: String, theme: Theme) -> String {
    match theme {
        Theme::Dark => svg.replacen("<text id=\"subtitle\" ", "<text id=\"subtitle\" fill=\"rgb(228,231,234)\" ", 1),
        Theme::Light => svg,
    }
}

/// The script inferno puts in every non-empty graph of `kind` frames drawn with `options`,
/// as the browser sees it (without the CDATA markers). A Content-Security-Policy hashes it:
/// it depends on the kind of frames and the options, never on the trace (tested).
pub fn flame_script(options: &FlameOptions, kind: FrameKind) -> String {
    let mut opts = inferno_options(options, kind, Unit::Micros);
    let mut svg = Vec::new();
    flamegraph::from_lines(&mut opts, ["a 1"], &mut svg).expect("one frame always draws");
    script_of(&String::from_utf8(svg).expect("inferno writes UTF-8")).unwrap_or_default()
}

/// The text of the first `<script>` of an SVG as a browser sees it: CDATA markers removed.
pub fn script_of(svg: &str) -> Option<String> {
    let start = svg.find("<script")?;
    let body_start = start + svg[start..].find('>')? + 1;
    let body = &svg[body_start..body_start + svg[body_start..].find("</script>")?];
    // inferno writes its script as several CDATA sections; the browser joins their text.
    Some(body.replace("<![CDATA[", "").replace("]]>", ""))
}

pub(crate) fn empty_svg(title: &str, message: &str, theme: Theme) -> String {
    let (background, text) = theme.empty_colors();
    format!(
        "<?xml version=\"1.0\" standalone=\"no\"?>\n<svg version=\"1.1\" width=\"1200\" height=\"80\" \
         xmlns=\"http://www.w3.org/2000/svg\"><rect width=\"100%\" height=\"100%\" fill=\"{background}\"/>\
         <g fill=\"{text}\" font-family=\"Verdana, sans-serif\" text-anchor=\"middle\">\
         <text x=\"600\" y=\"30\" font-size=\"17\">{}</text><text x=\"600\" y=\"60\" font-size=\"12\">\
         {}</text></g></svg>\n",
        escape_xml(title),
        escape_xml(message)
    )
}

pub(crate) fn escape_xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if (c as u32) < 0x20 && c != '\t' && c != '\n' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}
