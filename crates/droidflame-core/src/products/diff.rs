//! Two profiles compared stack by stack: differential folded stacks (`stack before after`,
//! self time in whole µs on each side), the input of inferno's differential flame graph.
//! Two runs of one app give their threads new ids, so threads are matched by name (the
//! stack's first frame is the name alone), and threads sharing a name merge, as
//! `pool-2-thread-1` and its siblings should. Stacks are matched by frame names.

use super::diff_tree::DiffTree;
use super::frames::{sanitize, DEFAULT_MAX_DEPTH};
use super::transform::View;
use crate::analysis::Analysis;
use crate::error::{Error, ErrorKind, Result};
use crate::profile::{Clock, FrameKind, Profile, Unit};
use std::io::Write;

/// One stack of either profile: its self time in µs before and after (0 on a side that
/// lacks it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiffStack {
    /// Frames joined by `;`, the thread's name first.
    pub stack: String,
    /// Self µs in the first profile.
    pub before: u64,
    /// Self µs in the second profile.
    pub after: u64,
}

/// How two profiles are compared.
#[derive(Debug, Clone)]
pub struct DiffOptions {
    /// `None`: wall where both traces have it, else the CPU clock where both have that.
    pub clock: Option<Clock>,
    /// Frames deeper than this merge into one frame, as in folded stacks.
    pub max_depth: usize,
    /// Only the threads of this name (as stacks name them, `;` and line breaks replaced);
    /// `None` for every thread.
    pub thread: Option<String>,
    /// The transforms, applied to both sides, and whether the stacks are inverted.
    pub view: View,
}

impl Default for DiffOptions {
    fn default() -> Self {
        DiffOptions { clock: None, max_depth: DEFAULT_MAX_DEPTH, thread: None, view: View::default() }
    }
}

/// Two profiles' stacks side by side, on one clock, with what the reader should know.
#[derive(Debug, Clone)]
pub struct Comparison {
    /// The clock both sides were measured on.
    pub clock: Clock,
    /// Where the sides differ in kind, or do not differ at all.
    pub warnings: Vec<String>,
    /// What the after side's frames are (methods or slices), for naming them.
    pub frame_kind: FrameKind,
    /// What both sides' values count.
    pub unit: Unit,
    /// What the graph measures: `wall clock`, or (values not in time) `bytes not freed`.
    pub measured: String,
    /// The thread name a viewer should open on: the thread each trace opens on
    /// (`Profile::default_thread`), before's first, where both sides have time in it.
    pub default_thread: Option<String>,
    pub(crate) tree: DiffTree,
}

/// A thread name's total self time on each side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThreadTotals {
    /// The name, as stacks begin with it.
    pub name: String,
    /// Self µs in the first profile.
    pub before: u64,
    /// Self µs in the second profile.
    pub after: u64,
}

impl Comparison {
    /// Total self time in µs of each side.
    pub fn totals(&self) -> (u64, u64) {
        let [before, after] = self.tree.totals();
        (before, after)
    }

    /// Every stack of either side, sorted by stack. Large comparisons are better written
    /// out with `write_diff_folded`, which never holds more than one stack.
    pub fn stacks(&self) -> Vec<DiffStack> {
        let mut out = Vec::new();
        // Nothing is left out, so no inclusive time is needed.
        let _ = self.tree.for_each_line(
            0,
            &[],
            |_| true,
            |stack, before, after| {
                out.push(DiffStack { stack: stack.to_owned(), before, after });
                Ok::<(), ()>(())
            },
        );
        out
    }

    /// Each thread name with its totals, most time on either side first, then by name.
    pub fn threads(&self) -> Vec<ThreadTotals> {
        let incl = self.tree.inclusive();
        let mut threads: Vec<ThreadTotals> = self
            .tree
            .threads()
            .map(|(node, name)| {
                let [before, after] = incl[node as usize];
                ThreadTotals { name: name.to_owned(), before, after }
            })
            .collect();
        threads.sort_by(|a, b| b.before.max(b.after).cmp(&a.before.max(a.after)).then_with(|| a.name.cmp(&b.name)));
        threads
    }
}

/// One side holds this much more than the other in all, or more: then what the longer one
/// spends waiting colours the graph unless it is scaled.
const LENGTHS_DIFFER: f64 = 1.2;

/// Where one side holds far more time (samples, bytes) than the other in all, what that
/// does to the graph's colours and what to do.
fn lengths_differ([before, after]: [u64; 2], unit: crate::profile::Unit) -> Option<String> {
    let (small, large) = (before.min(after), before.max(after));
    if small == 0 || (large as f64) < small as f64 * LENGTHS_DIFFER {
        return None;
    }
    let (longer, shorter) = if after > before { ("after", "before") } else { ("before", "after") };
    Some(format!(
        "{longer} holds {:.0}% more than {shorter} in all ({} against {} {}): unscaled, the graph colours the \
         difference red or blue wherever the longer run spent it (often waiting); Same total (--normalize) \
         compares each side's shares instead",
        (large as f64 / small as f64 - 1.0) * 100.0,
        crate::text::group_digits(large),
        crate::text::group_digits(small),
        unit.symbol()
    ))
}

/// Where a mapping renamed one side's methods and not the other's, one method carries
/// two names and its stacks do not match.
fn naming_differs(before: &Analysis, after: &Analysis) -> Option<String> {
    let renamed = |p: &Analysis| p.mapping.as_ref().is_some_and(|m| m.methods.mapped > 0);
    match (renamed(before), renamed(after)) {
        (true, false) => Some(
            "a mapping gave before its original names but not after: stacks of obfuscated \
                               methods do not match; apply after's mapping too"
                .into(),
        ),
        (false, true) => Some(
            "a mapping gave after its original names but not before: stacks of obfuscated \
                               methods do not match; apply before's mapping too"
                .into(),
        ),
        _ => None,
    }
}

/// Compares `before` with `after`.
pub fn compare(before: &Analysis, after: &Analysis, options: &DiffOptions) -> Result<Comparison> {
    let mut warnings = Vec::new();
    let (b, a) = (before.profile.source(), after.profile.source());
    if b.kind != a.kind || b.unit != a.unit {
        return Err(Error::new(
            ErrorKind::Request,
            format!(
                "before shows its {} source and after its {} source: compare the same source of both (--source)",
                b.kind.name(),
                a.kind.name()
            ),
        ));
    }
    let clock = shared_clock(&before.profile, &after.profile, options.clock, &mut warnings)?;
    if before.profile.facts.format.family != after.profile.facts.format.family {
        warnings.push(format!(
            "before is a {} and after a {}: their frames name different things, so few stacks match",
            before.profile.facts.format.kind, after.profile.facts.format.kind
        ));
    }
    if let Some(warning) = recording_differs(&before.profile, &after.profile) {
        warnings.push(warning);
    }
    if let Some(warning) = naming_differs(before, after) {
        warnings.push(warning);
    }
    let thread = options.thread.as_deref();
    if let Some(name) = thread {
        if ![before, after].iter().any(|p| p.profile.stacks().threads.iter().any(|t| sanitize(&t.name) == name)) {
            return Err(Error::new(ErrorKind::Request, format!("neither trace has a thread named {name:?}")));
        }
    }
    if options.view.check(&before.profile).is_err() {
        options.view.check(&after.profile)?;
    }
    let tree = DiffTree::build([&before.profile, &after.profile], clock, options.max_depth, thread, &options.view);
    if tree.totals() != [0, 0] && tree.unchanged() {
        warnings.push("the two traces have the same stacks and times: nothing changed (the same trace twice?)".into());
    }
    if let Some(warning) = lengths_differ(tree.totals(), after.profile.unit_of(clock)) {
        warnings.push(warning);
    }
    let mut comparison = Comparison {
        clock,
        warnings,
        frame_kind: after.profile.stacks().frame_kind,
        unit: after.profile.unit_of(clock),
        measured: super::flame::measured(&after.profile, clock),
        default_thread: None,
        tree,
    };
    let both: Vec<String> =
        comparison.threads().into_iter().filter(|t| t.before > 0 && t.after > 0).map(|t| t.name).collect();
    comparison.default_thread = [before, after]
        .into_iter()
        .filter_map(|p| p.profile.default_thread().map(|i| sanitize(&p.profile.stacks().threads[i].name)))
        .find(|name| both.contains(name));
    Ok(comparison)
}

/// Writes `stack before after` lines, one stack at a time.
pub fn write_diff_folded(comparison: &Comparison, out: &mut impl Write) -> Result<()> {
    let failed = |e: std::io::Error| Error::new(ErrorKind::Output, e.to_string());
    comparison
        .tree
        .for_each_line(0, &[], |_| true, |stack, before, after| writeln!(out, "{stack} {before} {after}"))
        .map_err(failed)?;
    out.flush().map_err(failed)
}

/// Where one side was sampled and the other traced every call: times still compare, calls
/// and short frames do not.
fn recording_differs(before: &Profile, after: &Profile) -> Option<String> {
    let how = |p: &Profile| match p.facts.format.sampling_interval_us {
        Some(us) => format!("sampled (about every {} µs)", crate::text::group_digits(us)),
        None => "traced at every call".to_owned(),
    };
    (before.facts.format.sampling_interval_us.is_some() != after.facts.format.sampling_interval_us.is_some()).then(
        || {
            format!(
            "before was {} and after {}: times compare, but call counts and frames shorter than the interval do not",
            how(before),
            how(after)
        )
        },
    )
}

/// The clock to compare on: the one asked for if both sides have it; else CPU where both
/// sides show it first (samples); else wall where both have it, else CPU where both have
/// that (with a warning that wall could not be used).
fn shared_clock(before: &Profile, after: &Profile, asked: Option<Clock>, warnings: &mut Vec<String>) -> Result<Clock> {
    // Which sides lack `clock`, as a sentence names them ("the after trace has").
    let lacking = |clock: Clock| match (before.has(clock), after.has(clock)) {
        (true, true) => None,
        (false, true) => Some("the before trace has"),
        (true, false) => Some("the after trace has"),
        (false, false) => Some("neither trace has"),
    };
    if let Some(clock) = asked {
        return match lacking(clock) {
            None => Ok(clock),
            Some(who) => {
                let other = Clock::ALL.into_iter().find(|&c| c != clock && lacking(c).is_none());
                let hint = other.map_or(String::new(), |c| format!("; compare on the {} clock instead", c.name()));
                Err(Error::new(ErrorKind::Request, format!("{who} no {} clock{hint}", clock.name())))
            }
        };
    }
    // Samples are read on the CPU clock first; two of them compare on it too.
    if before.default_clock() == Clock::Cpu && after.default_clock() == Clock::Cpu {
        return Ok(Clock::Cpu);
    }
    if lacking(Clock::Wall).is_none() {
        // Where neither has one, there was nothing to choose: nothing to say.
        if let Some(who) = lacking(Clock::Cpu).filter(|_| before.has(Clock::Cpu) || after.has(Clock::Cpu)) {
            warnings.push(format!("{who} no CPU clock: only the wall clock can be compared"));
        }
        return Ok(Clock::Wall);
    }
    if lacking(Clock::Cpu).is_none() {
        let who = lacking(Clock::Wall).unwrap_or_default();
        warnings.push(format!("{who} no wall clock: compared on the CPU clock"));
        return Ok(Clock::Cpu);
    }
    Err(Error::new(
        ErrorKind::Request,
        format!("the two traces share no clock: before has {}, after has {}", clocks_of(before), clocks_of(after)),
    ))
}

fn clocks_of(profile: &Profile) -> &'static str {
    match (profile.has(Clock::Wall), profile.has(Clock::Cpu)) {
        (true, true) => "both clocks",
        (true, false) => "only the wall clock",
        _ => "only the CPU clock",
    }
}
