//! A rendered report: `summary.json`, one SVG per thread, an all-threads SVG and an
//! `index.html` that lists threads by time and shows each graph, offline, without script.

use super::flame::{escape_xml, flame_svg_named, FlameOptions, GraphScope};
use super::frames::{FrameNames, FrameTree};
use super::summary::summary_json;
use super::transform::View;
use crate::analysis::Analysis;
use crate::error::Result;
use crate::profile::Clock;
use crate::text::group_digits;

/// A file of a rendered report, by name relative to the report's folder.
#[derive(Debug, Clone)]
pub struct RenderedFile {
    /// The file's name, e.g. `index.html`.
    pub name: String,
    /// Its bytes.
    pub contents: Vec<u8>,
}

/// Every file of the report for `clock` (`None`: the default clock).
pub fn render_site(profile: &Analysis, clock: Option<Clock>, view: &View) -> Result<Vec<RenderedFile>> {
    let clock = clock.unwrap_or(profile.profile.default_clock());
    profile.profile.require(clock)?;
    let options = FlameOptions { clock: Some(clock), view: view.clone(), ..FlameOptions::default() };
    let mut files = vec![RenderedFile { name: "summary.json".into(), contents: summary_json(profile).into_bytes() }];
    let mut rows = Vec::new();
    let names = FrameNames::of_view(&profile.profile, options.max_depth, view);
    for (index, thread) in profile.profile.stacks().threads.iter().enumerate() {
        let name = format!("thread-{:03}-{}.svg", index + 1, thread.tid);
        let svg = flame_svg_named(&profile.profile, &names, GraphScope::Thread(index), &options)?;
        files.push(RenderedFile { name: name.clone(), contents: svg.into_bytes() });
        let total = FrameTree::merged(&profile.profile, &names, &[thread]).total_micros(&profile.profile, clock);
        rows.push((total, name, thread));
    }
    let all = flame_svg_named(&profile.profile, &names, GraphScope::AllThreads, &options)?;
    files.push(RenderedFile { name: "all-threads.svg".into(), contents: all.into_bytes() });
    rows.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    let grand = rows.iter().fold(0u64, |sum, r| sum.saturating_add(r.0));
    let mut list = String::new();
    for (total, file, thread) in &rows {
        let share = if grand > 0 { *total as f64 * 100.0 / grand as f64 } else { 0.0 };
        list.push_str(&format!(
            "<tr><td><a href=\"{file}\" target=\"graph\">{}</a></td><td class=n>{}</td><td class=n>{}</td><td \
             class=n>{share:.1}%</td><td class=n>{}</td></tr>\n",
            escape_xml(&thread.name),
            thread.tid,
            group_digits(*total),
            group_digits(thread.records),
        ));
    }
    let first = rows.first().map_or("all-threads.svg", |r| r.1.as_str());
    let facts = format!(
        "{} {} v{}, clock {}, {} records, {} threads",
        profile.profile.facts.format.family,
        profile.profile.facts.format.layout,
        profile.profile.facts.format.version,
        profile.profile.stacks().clocks.name(),
        group_digits(profile.profile.facts.records),
        profile.profile.stacks().threads.len()
    );
    let values = match profile.profile.unit_of(clock) {
        crate::profile::Unit::Micros => format!("Times are self time on the {} clock, in µs", clock.name()),
        unit => format!(
            "{}: self {} ({})",
            profile.profile.source().description,
            unit.symbol(),
            profile.profile.stacks().clock_words.of(clock)
        ),
    };
    let warnings: String = profile
        .profile
        .facts
        .warnings
        .iter()
        .map(|w| format!("<li>{}</li>", escape_xml(w)))
        .collect::<Vec<_>>()
        .join("\n");
    let html = INDEX
        .replace("{facts}", &escape_xml(&facts))
        .replace("{values}", &escape_xml(&values))
        .replace("{unit}", profile.profile.unit_of(clock).symbol())
        .replace("{rows}", &list)
        .replace("{first}", first)
        .replace(
            "{warnings}",
            &if warnings.is_empty() { String::new() } else { format!("<ul class=warn>{warnings}</ul>") },
        );
    files.push(RenderedFile { name: "index.html".into(), contents: html.into_bytes() });
    Ok(files)
}

const INDEX: &str = r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="script-src 'none'; connect-src 'none'">
<title>droidflame report</title>
<style>
:root { color-scheme: light dark; font-family: system-ui, sans-serif; }
body { margin: 0; display: grid; grid-template-columns: minmax(26rem, 34%) 1fr; height: 100vh; }
aside { overflow: auto; padding: 0.75rem; border-right: 1px solid #8884; }
h1 { font-size: 1.1rem; margin: 0 0 0.25rem; }
p { margin: 0 0 0.5rem; font-size: 0.85rem; }
table { border-collapse: collapse; width: 100%; font-size: 0.85rem; }
th, td { text-align: left; padding: 0.2rem 0.35rem; border-bottom: 1px solid #8882; }
td:first-child { overflow-wrap: anywhere; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
.warn { color: #b45309; font-size: 0.8rem; padding-left: 1.1rem; }
iframe { width: 100%; height: 100%; border: 0; background: #fff; }
</style>
</head>
<body>
<aside>
<h1>droidflame report</h1>
<p>{facts}. {values}. <a href="all-threads.svg" target="graph">All threads</a> · <a href="summary.json">summary.json</a></p>
{warnings}
<table>
<thead><tr><th>Thread</th><th class=n>tid</th><th class=n>{unit}</th><th class=n>share</th><th class=n>records</th></tr></thead>
<tbody>
{rows}</tbody>
</table>
</aside>
<main><iframe name="graph" title="flame graph" src="{first}"></iframe></main>
</body>
</html>
"#;
