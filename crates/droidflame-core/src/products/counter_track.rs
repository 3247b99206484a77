//! A counter over time, for the timeline: a window's steps merged to its pixels, and the
//! value at a moment.

use crate::profile::SystemTimeline;

/// A counter's value held over a span, or (`min` < `max`) the range of values in a span
/// narrower than a pixel.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CounterStep {
    /// µs from the timeline's start.
    pub start_us: f64,
    /// µs from the timeline's start.
    pub end_us: f64,
    /// The smallest value in it.
    pub min: i64,
    /// The largest.
    pub max: i64,
}

/// Counter `counter`'s steps between `from_us` and `to_us`, drawn `pixels` wide: each value
/// holds until the next (the last until the end of the timeline).
pub fn counter_steps(
    system: &SystemTimeline,
    counter: usize,
    from_us: f64,
    to_us: f64,
    pixels: u32,
) -> Vec<CounterStep> {
    let Some(c) = system.counters.get(counter) else {
        return Vec::new();
    };
    let (from, to) = (system.ticks_at(from_us), system.ticks_at(to_us).saturating_add(1));
    let series = &c.series;
    // The value in force at `from`, then every one written before `to`.
    let first = series.partition_point(|&(ts, _)| ts <= from).saturating_sub(1);
    let pixel = ((to - from) / u64::from(pixels.max(1))).max(1);
    let mut steps: Vec<CounterStep> = Vec::new();
    let mut open: Option<(u64, u64, i64, i64)> = None;
    for i in first..series.len() {
        let (ts, value) = series[i];
        if ts >= to {
            break;
        }
        let end = series.get(i + 1).map_or(system.timeline.end, |&(next, _)| next).min(to);
        let start = ts.max(from);
        if end <= start {
            continue;
        }
        match &mut open {
            // Narrow steps join the run until it is a pixel wide.
            Some(run) if run.1 - run.0 < pixel && end - start < pixel => {
                run.1 = end;
                run.2 = run.2.min(value);
                run.3 = run.3.max(value);
            }
            _ => {
                if let Some((s, e, min, max)) = open.take() {
                    steps.push(CounterStep { start_us: system.micros_at(s), end_us: system.micros_at(e), min, max });
                }
                open = Some((start, end, value, value));
            }
        }
    }
    if let Some((s, e, min, max)) = open {
        steps.push(CounterStep { start_us: system.micros_at(s), end_us: system.micros_at(e), min, max });
    }
    steps
}

/// Counter `counter`'s value at `at_us` and since when (µs), where it had one.
pub fn counter_at(system: &SystemTimeline, counter: usize, at_us: f64) -> Option<(i64, f64)> {
    let series = &system.counters.get(counter)?.series;
    let at = system.ticks_at(at_us);
    let i = series.partition_point(|&(ts, _)| ts <= at).checked_sub(1)?;
    Some((series[i].1, system.micros_at(series[i].0)))
}
