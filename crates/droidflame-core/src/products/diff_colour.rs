//! The differential graph's colours: each frame coloured by how its time changed from the
//! other side to the side that sets the widths, on its own (self) time or on everything
//! under it (total), by the change's size relative to the whole graph: a frame that grew
//! by 1,463% but holds a thousandth of the time matters less than one that grew by 30% and
//! holds a third. Changes under `NOISE` of the whole, or within `DEAD_BAND` of the frame's
//! own time, are drawn neutral; beyond them the colour deepens with the change's share of
//! the whole, deepest from `DEEPEST` on. inferno draws the graph in plain mode; its frames
//! are then recoloured where they are, found by depth and start as inferno lays the same
//! sorted lines out.

use crate::text::group_digits;
use rustc_hash::FxHashMap;

/// What a differential frame's colour measures.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ChangeOf {
    /// The frame's own time: where time itself moved (callers stay neutral).
    #[default]
    SelfTime,
    /// The time of the frame and everything it calls: which paths got slower.
    TotalTime,
}

impl ChangeOf {
    /// `self` or `total`.
    pub fn parse(text: &str) -> Option<ChangeOf> {
        match text {
            "self" => Some(ChangeOf::SelfTime),
            "total" => Some(ChangeOf::TotalTime),
            _ => None,
        }
    }

    /// `self` or `total`, as the graph's tooltips say it.
    pub fn name(self) -> &'static str {
        match self {
            ChangeOf::SelfTime => "self",
            ChangeOf::TotalTime => "total",
        }
    }
}

/// Relative changes within this share of the other side's time are drawn neutral.
pub const DEAD_BAND: f64 = 0.05;

/// Changes smaller than this share of the whole graph's time are drawn neutral: a few µs
/// in a trace of seconds are noise, whatever their share of a small frame.
pub const NOISE: f64 = 0.001;

/// Changes of this share of the whole graph's time and more get the deepest colour.
pub const DEEPEST: f64 = 0.05;

/// The lightest colour a change beyond the dead band gets, as a share of the deepest.
const LIGHTEST: f64 = 0.25;

/// One frame's time on both sides, in µs (the other side scaled where asked).
#[derive(Debug, Clone, Copy, Default)]
struct FrameTimes {
    before_self: f64,
    after_self: f64,
    before_total: f64,
    after_total: f64,
}

/// A line of the graph: its stack, its time on the side that sets the widths (0: only the
/// other side has it, and it is not drawn), and on the other side (scaled where asked).
pub(crate) type Line = (String, u64, f64);

/// Where inferno draws each frame of `lines` (sorted as inferno sorts them): the frame's
/// path (its stack up to it; the root's is empty) by its depth (the root 0) and its start
/// in widths-side µs. Lines of no width are not drawn: inferno never sees them, so they
/// neither open a frame nor end one.
fn layout(lines: &[Line]) -> FxHashMap<(usize, u64), &str> {
    let mut frames = FxHashMap::default();
    // The paths of the frames the last drawn line ended in, by depth: a path names a frame
    // and all its callers, so an equal one at the same depth is the same frame.
    let mut open: Vec<&str> = Vec::new();
    let mut time = 0u64;
    for (stack, width, _) in lines.iter().filter(|l| l.1 > 0) {
        for (depth, path) in paths_of(stack).enumerate() {
            if open.get(depth).is_none_or(|&open_path| open_path != path) {
                open.truncate(depth);
                open.push(path);
                frames.insert((depth, time), path);
            }
        }
        time += width;
    }
    frames
}

/// A stack's frames from the root, each by its path: the root's `""`, then the stack up to
/// each frame.
fn paths_of(stack: &str) -> impl Iterator<Item = &str> {
    let ends = stack.match_indices(';').map(|(i, _)| i).chain(std::iter::once(stack.len()));
    std::iter::once("").chain(ends.map(move |end| &stack[..end]))
}

/// Each path's time on both sides, over every line (drawn or not).
fn path_times(lines: &[Line], widths_after: bool) -> FxHashMap<&str, FrameTimes> {
    let mut paths: FxHashMap<&str, FrameTimes> = FxHashMap::default();
    for (stack, width, other) in lines {
        let (before, after) = if widths_after { (*other, *width as f64) } else { (*width as f64, *other) };
        let mut leaf = "";
        for path in paths_of(stack) {
            let entry = paths.entry(path).or_default();
            entry.before_total += before;
            entry.after_total += after;
            leaf = path;
        }
        let entry = paths.get_mut(leaf).expect("the leaf was just counted");
        entry.before_self += before;
        entry.after_self += after;
    }
    paths
}

/// `after` against `before` in words: `+12.3%`, `−4.0%`, `no change`; `new` or `gone`
/// where the frame itself is (its total is 0 on one side), `from 0` or `−100%` where only
/// the measure is.
fn change_words(before: f64, after: f64, times: &FrameTimes) -> String {
    if before.round() == after.round() {
        "no change".into()
    } else if times.before_total <= 0.0 {
        "new".into()
    } else if times.after_total <= 0.0 {
        "gone".into()
    } else if before <= 0.0 {
        "from 0".into()
    } else if after <= 0.0 {
        "\u{2212}100%".into()
    } else {
        let change = (after - before) / before * 100.0;
        if change >= 0.0 {
            format!("+{change:.1}%")
        } else {
            format!("\u{2212}{:.1}%", -change)
        }
    }
}

/// The colour a frame gets where its change is drawn neutral.
pub(crate) const NEUTRAL: (u8, u8, u8) = (222, 222, 222);

/// The colour of a change in a graph whose whole is `whole`: neutral under `NOISE` of the
/// whole or within the dead band of the frame's own time, red for growth, blue for a fall,
/// deeper with the change's share of the whole (on a log scale from `NOISE` to `DEEPEST`).
/// Black text stays above 4.5:1 contrast on every one.
pub(crate) fn change_colour(before: f64, after: f64, whole: f64) -> (u8, u8, u8) {
    let change = (after - before).abs();
    if before.round() == after.round() || change < NOISE * whole {
        return NEUTRAL;
    }
    // The rounded times differ, so `change` is above 0: a frame new on one side, or gone
    // from it, is always beyond the band.
    if change <= DEAD_BAND * before {
        return NEUTRAL;
    }
    // A whole of 0 makes the share infinite: the deepest colour.
    let share = change / whole;
    let depth = ((share / NOISE).log10() / (DEEPEST / NOISE).log10()).clamp(0.0, 1.0);
    let t = LIGHTEST + (1.0 - LIGHTEST) * depth;
    let mix = |light: f64, deep: f64| (light + (deep - light) * t).round() as u8;
    if after > before {
        (255, mix(228.0, 96.0), mix(228.0, 96.0))
    } else {
        (mix(228.0, 125.0), mix(228.0, 135.0), 255)
    }
}

/// The attribute `name="…"` of a tag's text.
fn attribute<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let start = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    let end = start + tag[start..].find('"')?;
    Some(&tag[start..end])
}

/// How the frames of a differential graph are coloured.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Colouring<'a> {
    /// The side that sets the widths is after.
    pub widths_after: bool,
    /// What a colour measures the change of.
    pub of: ChangeOf,
    /// Frames drawn neutral are faded, so that the changed ones stand out.
    pub changed_only: bool,
    /// Where runs were compared: the frames whose change the runs show (by name); the
    /// others' own time is drawn neutral, whatever its size. `None`: every frame by size.
    pub shown: Option<&'a [String]>,
}

/// inferno's plain-mode `svg` recoloured by each frame's change (see the module), each
/// frame's tooltip telling it: `name (1,234 µs, 5.00%; self 1,000 → 1,234 µs, +23.4%)`.
/// The root `svg` element says it is differential (`data-differential`): a search there
/// keeps the colours.
pub(crate) fn recolour(svg: &str, lines: &[Line], colouring: &Colouring) -> String {
    const FRAME: &str = "<g><title>";
    let of = colouring.of;
    let places = layout(lines);
    let times = path_times(lines, colouring.widths_after);
    let whole = times.get("").map_or(0.0, |root| root.before_total.max(root.after_total));
    let svg = svg.replacen("<svg ", "<svg data-differential=\"true\" ", 1);
    let svg = svg.as_str();
    // Depths by the frames' rows: the root's row is the lowest (the largest y).
    let mut rows: Vec<u64> = Vec::new();
    let mut at = 0;
    while let Some(found) = svg[at..].find(FRAME) {
        at += found + FRAME.len();
        let rect = &svg[at..];
        if let Some(y) = rect.find("<rect").and_then(|r| attribute(&rect[r..], "y")).and_then(|y| y.parse::<f64>().ok())
        {
            rows.push((y * 100.0) as u64);
        }
    }
    rows.sort_unstable_by(|a, b| b.cmp(a));
    rows.dedup();
    let depth_of: FxHashMap<u64, usize> = rows.iter().enumerate().map(|(d, &y)| (y, d)).collect();

    let mut out = String::with_capacity(svg.len() + svg.len() / 8);
    let mut rest = svg;
    while let Some(found) = rest.find(FRAME) {
        let (head, tail) = rest.split_at(found + FRAME.len());
        out.push_str(head);
        let frame_at = out.len() - FRAME.len();
        let (Some(title_end), Some(rect_start)) = (tail.find("</title>"), tail.find("<rect")) else {
            rest = tail;
            continue;
        };
        let Some(rect_len) = tail[rect_start..].find('>') else {
            rest = tail;
            continue;
        };
        let rect = &tail[rect_start..rect_start + rect_len];
        let key = attribute(rect, "y")
            .and_then(|y| y.parse::<f64>().ok())
            .and_then(|y| depth_of.get(&((y * 100.0) as u64)).copied())
            .zip(attribute(rect, "fg:x").and_then(|x| x.parse::<u64>().ok()));
        let Some((path, times)) = key.and_then(|k| places.get(&k)).and_then(|&path| Some((path, times.get(path)?)))
        else {
            rest = tail;
            continue;
        };
        let (before, after) = match of {
            ChangeOf::SelfTime => (times.before_self, times.after_self),
            ChangeOf::TotalTime => (times.before_total, times.after_total),
        };
        let title = &tail[..title_end];
        let told = format!(
            "; {} {} \u{2192} {} µs, {}",
            of.name(),
            group_digits(before.round() as u64),
            group_digits(after.round() as u64),
            change_words(before, after, times)
        );
        match title.strip_suffix(')') {
            Some(open) => {
                out.push_str(open);
                out.push_str(&told);
                out.push(')');
            }
            None => out.push_str(title),
        }
        let between = &tail[title_end..rect_start];
        out.push_str(between);
        let name = path.rsplit(';').next().unwrap_or(path);
        let runs_show = match (colouring.shown, of) {
            (Some(shown), ChangeOf::SelfTime) => shown.iter().any(|s| s == name),
            _ => true,
        };
        let colour = if runs_show { change_colour(before, after, whole) } else { NEUTRAL };
        let (r, g, b) = colour;
        let faded = if colouring.changed_only && colour == NEUTRAL { " fill-opacity=\"0.3\"" } else { "" };
        if !faded.is_empty() {
            // The frame's label fades with it.
            out.replace_range(frame_at..frame_at + 2, "<g opacity=\"0.45\"");
        }
        match attribute(rect, "fill") {
            Some(fill) => out.push_str(&rect.replacen(
                &format!("fill=\"{fill}\""),
                &format!("fill=\"rgb({r},{g},{b})\"{faded}"),
                1,
            )),
            None => out.push_str(rect),
        }
        rest = &tail[rect_start + rect_len..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_are_found_where_inferno_lays_them_out_and_count_what_is_not_drawn() {
        // Sorted as inferno sorts lines; widths are after's; `a;e` is before's alone.
        let lines: Vec<Line> = vec![
            ("a;b".into(), 30, 10.0),
            ("a;c".into(), 20, 20.0),
            ("a;e".into(), 0, 7.0),
            ("a;e;f".into(), 4, 0.0),
            ("d".into(), 5, 0.0),
        ];
        let places = layout(&lines);
        assert_eq!(places[&(0, 0)], "");
        assert_eq!(places[&(1, 0)], "a");
        assert_eq!(places[&(2, 30)], "a;c");
        assert_eq!(places[&(2, 50)], "a;e");
        assert_eq!(places[&(3, 50)], "a;e;f");
        assert_eq!(places[&(1, 54)], "d");
        assert_eq!(places.len(), 7);
        let times = path_times(&lines, true);
        assert_eq!((times[""].before_total, times[""].after_total), (37.0, 59.0));
        let a = times["a"];
        assert_eq!((a.before_self, a.after_self, a.before_total, a.after_total), (0.0, 0.0, 37.0, 54.0));
        let e = times["a;e"];
        assert_eq!(
            (e.before_self, e.after_self, e.before_total, e.after_total),
            (7.0, 0.0, 7.0, 4.0),
            "before's own time counts"
        );
        assert_eq!(times["a;b"].after_self, 30.0);
    }

    #[test]
    fn a_line_of_no_width_neither_opens_nor_ends_a_frame() {
        // `a;Foo$1` sorts between `a;Foo` and `a;Foo;c` (`$` before `;`) and is not drawn, so
        // `a;Foo` goes on under `c`, one frame from 0.
        let lines: Vec<Line> = vec![("a;Foo".into(), 30, 0.0), ("a;Foo$1".into(), 0, 5.0), ("a;Foo;c".into(), 20, 0.0)];
        let places = layout(&lines);
        let mut found: Vec<_> = places.into_iter().collect();
        found.sort_unstable();
        assert_eq!(found, [((0, 0), ""), ((1, 0), "a"), ((2, 0), "a;Foo"), ((3, 30), "a;Foo;c")]);
    }

    /// A plain-mode graph of `a;b` (30 µs) and `a;c` (20 µs) as inferno writes it: rows
    /// by `y` (the root lowest), starts by `fg:x`.
    const PLAIN: &str = concat!(
        r#"<svg version="1.1" width="1200">"#,
        r#"<g><title>all (50 µs, 100%)</title><rect x="0%" y="60" width="100%" height="15" fill="rgb(1,2,3)" fg:x="0" fg:w="50"/><text>all</text></g>"#,
        r#"<g><title>a (50 µs, 100%)</title><rect x="0%" y="40" width="100%" height="15" fill="rgb(1,2,3)" fg:x="0" fg:w="50"/><text>a</text></g>"#,
        r#"<g><title>b (30 µs, 60%)</title><rect x="0%" y="20" width="60%" height="15" fill="rgb(1,2,3)" fg:x="0" fg:w="30"/><text>b</text></g>"#,
        r#"<g><title>c (20 µs, 40%)</title><rect x="60%" y="20" width="40%" height="15" fill="rgb(1,2,3)" fg:x="30" fg:w="20"/><text>c</text></g>"#,
        "</svg>"
    );

    #[test]
    fn frames_are_recoloured_told_and_faded_where_they_are() {
        // After's widths; `b` took 30 µs on both sides, `c` is new.
        let lines: Vec<Line> = vec![("a;b".into(), 30, 30.0), ("a;c".into(), 20, 0.0)];
        let colouring = Colouring { widths_after: true, of: ChangeOf::SelfTime, changed_only: true, shown: None };
        let neutral_faded = r#"fill="rgb(222,222,222)" fill-opacity="0.3""#;
        let want = [
            r#"<svg data-differential="true" version="1.1" width="1200">"#.to_owned(),
            format!(
                r#"<g opacity="0.45"><title>all (50 µs, 100%; self 0 → 0 µs, no change)</title><rect x="0%" y="60" width="100%" height="15" {neutral_faded} fg:x="0" fg:w="50"/><text>all</text></g>"#
            ),
            format!(
                r#"<g opacity="0.45"><title>a (50 µs, 100%; self 0 → 0 µs, no change)</title><rect x="0%" y="40" width="100%" height="15" {neutral_faded} fg:x="0" fg:w="50"/><text>a</text></g>"#
            ),
            format!(
                r#"<g opacity="0.45"><title>b (30 µs, 60%; self 30 → 30 µs, no change)</title><rect x="0%" y="20" width="60%" height="15" {neutral_faded} fg:x="0" fg:w="30"/><text>b</text></g>"#
            ),
            r#"<g><title>c (20 µs, 40%; self 0 → 20 µs, new)</title><rect x="60%" y="20" width="40%" height="15" fill="rgb(255,96,96)" fg:x="30" fg:w="20"/><text>c</text></g>"#.to_owned(),
            "</svg>".to_owned(),
        ];
        assert_eq!(recolour(PLAIN, &lines, &colouring), want.concat());

        // Where runs were compared, a method they do not show changed keeps a neutral self
        // colour; the total colour is by size alone.
        let c_of = |svg: String| svg[svg.rfind("<g").unwrap()..].to_owned();
        let shown = ["b".to_owned()];
        let only_b = Colouring { shown: Some(&shown), changed_only: false, ..colouring };
        let c = c_of(recolour(PLAIN, &lines, &only_b));
        assert!(c.starts_with("<g><title>") && c.contains(r#"fill="rgb(222,222,222)" fg:x"#), "{c}");
        let shown = ["c".to_owned()];
        let only_c = Colouring { shown: Some(&shown), ..only_b };
        assert!(c_of(recolour(PLAIN, &lines, &only_c)).contains("rgb(255,96,96)"));
        let total = Colouring { of: ChangeOf::TotalTime, ..only_b };
        let total = recolour(PLAIN, &lines, &total);
        assert!(c_of(total.clone()).contains("rgb(255,96,96)"));
        assert!(total.contains("<title>a (50 µs, 100%; total 30 → 50 µs, +66.7%)</title>"), "{total}");
    }

    #[test]
    fn change_of_is_read_and_told_by_its_name() {
        for of in [ChangeOf::SelfTime, ChangeOf::TotalTime] {
            assert_eq!(ChangeOf::parse(of.name()), Some(of));
        }
        assert_eq!((ChangeOf::SelfTime.name(), ChangeOf::TotalTime.name()), ("self", "total"));
        assert_eq!(ChangeOf::parse("Self"), None);
        assert_eq!(ChangeOf::parse(""), None);
    }

    #[test]
    fn colours_at_the_edges_of_noise_the_dead_band_and_the_deepest() {
        let whole = 10_000.0;
        // 10 µs is 0.1% of the whole: the lightest colour, 25% of the way to the deepest.
        assert_eq!(change_colour(100.0, 110.0, whole), (255, 195, 195));
        assert_eq!(change_colour(100.0, 90.0, whole), (202, 205, 255));
        assert_eq!(change_colour(100.0, 109.0, whole), NEUTRAL, "9 µs is under 0.1%");
        // 1% of the whole is log10(10) / log10(50) of the way from 0.1% to 5%: t = 0.6914.
        assert_eq!(change_colour(1000.0, 1100.0, whole), (255, 137, 137));
        assert_eq!(change_colour(1000.0, 900.0, whole), (157, 164, 255));
        // 5% and beyond: the deepest.
        assert_eq!(change_colour(1000.0, 1500.0, whole), (255, 96, 96));
        assert_eq!(change_colour(1000.0, 0.0, whole), (125, 135, 255));
        // Within 5% of the frame's own time is neutral, just beyond it is not.
        assert_eq!(change_colour(1000.0, 1050.0, whole), NEUTRAL);
        assert_ne!(change_colour(1000.0, 1051.0, whole), NEUTRAL);
        // A frame new on one side is beyond any band; in a graph of no time, the deepest.
        assert_eq!(change_colour(0.0, 600.0, whole), (255, 96, 96));
        assert_eq!(change_colour(0.0, 5.0, 0.0), (255, 96, 96));
    }

    #[test]
    fn colours_deepen_with_the_changes_share_of_the_whole_and_stay_neutral_for_noise() {
        let whole = 10_000.0;
        let neutral = change_colour(100.0, 100.0, whole);
        assert_eq!(neutral, NEUTRAL);
        assert_eq!(change_colour(1000.0, 1040.0, whole), neutral, "within 5% of the frame");
        assert_eq!(change_colour(0.0, 0.0, whole), neutral);
        // Under 0.1% of the whole: noise, however large a share of the frame.
        assert_eq!(change_colour(1.0, 9.0, whole), neutral, "+800% of 8 µs in 10 ms");
        assert_eq!(change_colour(30.0, 21.0, whole), neutral, "-9 µs");
        // 1% of the whole is lighter than 5%; 5% and more are the deepest.
        let (small, large, new) = (
            change_colour(1000.0, 1100.0, whole),
            change_colour(1000.0, 1500.0, whole),
            change_colour(0.0, 600.0, whole),
        );
        assert_eq!(small.0, 255);
        assert!(small.1 > large.1, "more of the whole, deeper red: {small:?} {large:?}");
        assert_eq!(large, new, "5% of the whole and more are the deepest");
        assert_eq!(change_colour(1000.0, 4000.0, whole), large);
        // A 16-fold growth of a tiny frame is lighter than 30% of a large one.
        let tiny = change_colour(2.5, 41.5, whole);
        let big = change_colour(3000.0, 3900.0, whole);
        assert!(tiny.1 > big.1, "{tiny:?} {big:?}");
        let fall = change_colour(1000.0, 500.0, whole);
        assert_eq!(fall.2, 255);
        assert_eq!(fall, change_colour(1000.0, 0.0, whole));
        // Black text on the deepest colours keeps 4.5:1.
        for (r, g, b) in [large, fall, neutral] {
            let lin = |c: u8| {
                let c = c as f64 / 255.0;
                if c <= 0.04045 {
                    c / 12.92
                } else {
                    ((c + 0.055) / 1.055).powf(2.4)
                }
            };
            let luminance = 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
            assert!((luminance + 0.05) / 0.05 >= 4.5, "{r},{g},{b}");
        }
    }

    #[test]
    fn changes_in_words() {
        let both = FrameTimes { before_self: 0.0, after_self: 0.0, before_total: 50.0, after_total: 60.0 };
        assert_eq!(change_words(100.0, 123.4, &both), "+23.4%");
        assert_eq!(change_words(100.0, 96.0, &both), "\u{2212}4.0%");
        assert_eq!(change_words(7.2, 7.4, &both), "no change");
        // The frame on one side only is new or gone; its self time alone is from 0 or −100%.
        let after_only = FrameTimes { before_total: 0.0, ..both };
        let before_only = FrameTimes { after_total: 0.0, ..both };
        assert_eq!(change_words(0.0, 5.0, &after_only), "new");
        assert_eq!(change_words(5.0, 0.0, &before_only), "gone");
        assert_eq!(change_words(0.0, 5.0, &both), "from 0");
        assert_eq!(change_words(5.0, 0.0, &both), "\u{2212}100%");
    }
}
