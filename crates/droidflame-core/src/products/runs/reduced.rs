//! Runs reduced as they come: each run's stacks' self times and its methods' totals, kept
//! by group, with the facts that say whether two runs can be compared.

use super::super::delta::{method_rows, MethodTotals};
use super::super::diff_tree::StackMerger;
use super::super::frames::DEFAULT_MAX_DEPTH;
use super::super::notes::notes;
use super::super::transform::View;
use crate::analysis::Analysis;
use crate::error::{Error, ErrorKind, Result};
use crate::profile::{Clock, ClockWords, FrameKind, Repair, SourceKind, Unit};
use rustc_hash::FxHashMap;

/// The two groups of a comparison; an aggregate has only the first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Group {
    /// The runs before the change (or the only group of an aggregate).
    Before,
    /// The runs after it.
    After,
}

impl Group {
    /// `before` or `after`.
    pub const fn name(self) -> &'static str {
        match self {
            Group::Before => "before",
            Group::After => "after",
        }
    }
}

/// How runs are read: the same for every run.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// `None`: the first run's choice (wall where it has it; CPU for samples), which every
    /// later run must have too.
    pub clock: Option<Clock>,
    /// Frames deeper than this merge into one frame, as in folded stacks.
    pub max_depth: usize,
    /// Only the threads of this name (as stacks name them); `None` for every thread.
    pub thread: Option<String>,
    /// The transforms, applied to every run.
    pub view: View,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions { clock: None, max_depth: DEFAULT_MAX_DEPTH, thread: None, view: View::default() }
    }
}

/// Repairs after which a run holds less than it recorded.
const LOST_DATA: [Repair; 7] = [
    Repair::Truncated,
    Repair::Overflow,
    Repair::UnmatchedExits,
    Repair::MismatchedExits,
    Repair::InvalidRecords,
    Repair::DamagedParts,
    Repair::LostSamples,
];

/// A method as runs match it: by name and signature.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct MethodName {
    /// `Class.method` or the slice's name.
    pub name: String,
    /// The class in dotted form; empty for slices.
    pub class: String,
    /// The method's own name.
    pub method: String,
    /// The signature; empty for slices and where transforms merged overloads.
    pub signature: String,
}

/// What one run leaves once reduced.
#[derive(Debug, Clone)]
pub struct Run {
    /// What the run is called (its file's name).
    pub label: String,
    /// Its group.
    pub group: Group,
    /// Self µs of each stack-tree node it has time in, by node.
    pub(super) stacks: Vec<(u32, u64)>,
    /// Each thread name's time, by its stack-tree node.
    pub(super) threads: Vec<(u32, u64)>,
    /// Totals of each method it called, by method.
    pub(super) methods: Vec<(u32, MethodTotals)>,
    /// The sum of its stacks' self times: its threads' time.
    pub total_us: u64,
}

/// What the first run fixed, which every later run must match.
#[derive(Debug, Clone)]
pub(super) struct Kind {
    pub(super) clock: Clock,
    source: SourceKind,
    pub(super) unit: Unit,
    family: &'static str,
    pub(super) frame_kind: FrameKind,
    pub(super) measured: String,
    clock_words: ClockWords,
}

/// Runs of one scenario in one or two groups, reduced.
#[derive(Debug)]
pub struct Runs {
    options: RunOptions,
    kind: Option<Kind>,
    pub(super) stacks: StackMerger,
    method_ids: FxHashMap<(String, String), u32>,
    pub(super) methods: Vec<MethodName>,
    runs: Vec<Run>,
    /// Whether a run had a thread of the name asked for.
    thread_found: bool,
    /// The clocks every run so far has.
    clocks: Vec<Clock>,
    pub(super) warnings: Vec<String>,
}

impl Runs {
    /// No runs yet.
    pub fn new(options: RunOptions) -> Runs {
        Runs {
            options,
            kind: None,
            stacks: StackMerger::default(),
            method_ids: FxHashMap::default(),
            methods: Vec::new(),
            runs: Vec::new(),
            thread_found: false,
            clocks: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// Reduces `run` into the group `group` under `label`. A run that differs from the
    /// first in its source or lacks its clock is refused, with the reason; the runs added
    /// so far stay.
    pub fn add(&mut self, label: &str, group: Group, run: &Analysis) -> Result<()> {
        let kind = self.check(label, run)?;
        let (clock, family) = (kind.clock, kind.family);
        if run.profile.facts.format.family != family {
            self.warn(format!(
                "{label} is a {} where the first run is not: their frames name different things, so few stacks match",
                run.profile.facts.format.kind
            ));
        }
        let thread = self.options.thread.as_deref();
        let view = &self.options.view;
        view.check(&run.profile).map_err(|e| Error::new(ErrorKind::Request, format!("{label}: {e}")))?;
        let (mut stacks, mut threads) = (Vec::new(), Vec::new());
        self.stacks.add(&run.profile, clock, (self.options.max_depth, view), thread, |_, thread, node, micros| {
            stacks.push((node, micros));
            threads.push((thread, micros));
        });
        let stacks = coalesce(stacks, |a, b| *a = a.saturating_add(b));
        let threads = coalesce(threads, |a, b| *a = a.saturating_add(b));
        let mut methods = Vec::new();
        let rows = method_rows(&run.profile, clock, thread, view);
        let has_thread = rows.is_some();
        if let Some(rows) = rows {
            self.thread_found = true;
            for row in rows {
                let key = (row.name, row.signature);
                let id = match self.method_ids.get(&key) {
                    Some(&id) => id,
                    None => {
                        let id = self.methods.len() as u32;
                        let (name, signature) = key.clone();
                        self.methods.push(MethodName { name, class: row.class, method: row.method, signature });
                        self.method_ids.insert(key, id);
                        id
                    }
                };
                methods.push((id, row.totals));
            }
        }
        let methods = coalesce(methods, |a, b| {
            a.calls += b.calls;
            a.incl_us += b.incl_us;
            a.excl_us += b.excl_us;
        });
        let total_us = stacks.iter().fold(0u64, |sum, &(_, us)| sum.saturating_add(us));
        if total_us == 0 && has_thread {
            self.warn(format!("{label} has no time in the threads compared"));
        }
        // A run that lost data is shorter than its scenario: its methods count less, or 0.
        for note in notes(run, 0).into_iter().filter(|n| LOST_DATA.iter().any(|r| r.key() == n.key)) {
            self.warn(format!("{label} lost data, so its times fall short: {}", note.text));
        }
        if self.runs.is_empty() {
            self.clocks = Clock::ALL.into_iter().filter(|&c| run.profile.has(c)).collect();
        } else {
            self.clocks.retain(|&c| run.profile.has(c));
        }
        self.runs.push(Run { label: label.to_owned(), group, stacks, threads, methods, total_us });
        Ok(())
    }

    /// The runs so far, in the order added.
    pub fn runs(&self) -> &[Run] {
        &self.runs
    }

    /// How many runs `group` has.
    pub fn count(&self, group: Group) -> usize {
        self.runs.iter().filter(|r| r.group == group).count()
    }

    /// What the reader should know about the runs (different formats, empty runs).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The clock the runs are measured on; `None` before the first run.
    pub fn clock(&self) -> Option<Clock> {
        self.kind.as_ref().map(|k| k.clock)
    }

    /// The clocks every run has, wall first: the runs read again on another of them can be
    /// compared on it too.
    pub fn clocks(&self) -> &[Clock] {
        &self.clocks
    }

    /// What each clock measures in the first run, in words; `None` before the first run.
    pub fn clock_words(&self) -> Option<ClockWords> {
        self.kind.as_ref().map(|k| k.clock_words)
    }

    /// What the runs' values count; `None` before the first run.
    pub fn unit(&self) -> Option<Unit> {
        self.kind.as_ref().map(|k| k.unit)
    }

    /// The names of the threads the runs have (threads of one name are one), sorted.
    pub fn thread_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.stacks.tree.threads().map(|(_, name)| name).collect();
        names.sort_unstable();
        names
    }

    /// Every method any run called, by id.
    pub fn methods(&self) -> &[MethodName] {
        &self.methods
    }

    /// Each run of `group` (in order) with `method`'s totals in it (zero where it was not
    /// called).
    pub fn method_runs(&self, method: u32, group: Group) -> impl Iterator<Item = (&Run, MethodTotals)> {
        self.of(group).map(move |run| (run, run.method(method)))
    }

    pub(super) fn of(&self, group: Group) -> impl Iterator<Item = &Run> {
        self.runs.iter().filter(move |r| r.group == group)
    }

    /// An error unless `group` has runs, and a thread asked for was in one of them.
    pub(super) fn ready(&self, groups: &[Group]) -> Result<&Kind> {
        let kind = self.kind.as_ref().ok_or_else(|| Error::new(ErrorKind::Request, "no runs were given"))?;
        for &group in groups {
            if self.count(group) == 0 {
                return Err(Error::new(ErrorKind::Request, format!("the {} group has no runs", group.name())));
            }
        }
        if let (Some(name), false) = (&self.options.thread, self.thread_found) {
            return Err(Error::new(ErrorKind::Request, format!("no run has a thread named {name:?}")));
        }
        Ok(kind)
    }

    /// The stack-tree node of the threads named `name`.
    pub(super) fn thread_node(&self, name: &str) -> Result<u32> {
        self.stacks
            .tree
            .thread_node(name)
            .ok_or_else(|| Error::new(ErrorKind::Request, format!("no run has a thread named {name:?}")))
    }

    fn warn(&mut self, warning: String) {
        if !self.warnings.contains(&warning) {
            self.warnings.push(warning);
        }
    }

    /// The first run fixes the clock and the source; later runs must match.
    fn check(&mut self, label: &str, run: &Analysis) -> Result<Kind> {
        let source = run.profile.source();
        let refuse = |message: String| Err(Error::new(ErrorKind::Request, format!("{label}: {message}")));
        let Some(kind) = &self.kind else {
            let clock = match self.options.clock {
                Some(clock) if !run.profile.has(clock) => return refuse(format!("the trace has no {clock} clock")),
                Some(clock) => clock,
                None if run.profile.default_clock() == Clock::Cpu || !run.profile.has(Clock::Wall) => Clock::Cpu,
                None => Clock::Wall,
            };
            let kind = Kind {
                clock,
                source: source.kind,
                unit: run.profile.unit_of(clock),
                family: run.profile.facts.format.family,
                frame_kind: run.profile.stacks().frame_kind,
                measured: super::super::flame::measured(&run.profile, clock),
                clock_words: run.profile.stacks().clock_words,
            };
            return Ok(self.kind.insert(kind).clone());
        };
        if source.kind != kind.source {
            return refuse(format!(
                "shows its {} source where the first run shows {}: give every run the same source",
                source.kind.name(),
                kind.source.name()
            ));
        }
        if !run.profile.has(kind.clock) {
            return refuse(format!(
                "the trace has no {} clock, which the first run was measured on: choose a clock every run has (--clock)",
                kind.clock
            ));
        }
        Ok(kind.clone())
    }
}

impl Run {
    /// Its totals of `method` (zero where it never called it).
    pub fn method(&self, method: u32) -> MethodTotals {
        match self.methods.binary_search_by_key(&method, |&(id, _)| id) {
            Ok(at) => self.methods[at].1,
            Err(_) => MethodTotals::default(),
        }
    }
}

/// `pairs` sorted by key, each key once, values of one key merged with `merge`.
fn coalesce<T: Copy>(mut pairs: Vec<(u32, T)>, merge: impl Fn(&mut T, T)) -> Vec<(u32, T)> {
    pairs.sort_unstable_by_key(|&(key, _)| key);
    let mut out: Vec<(u32, T)> = Vec::with_capacity(pairs.len());
    for (key, value) in pairs {
        match out.last_mut() {
            Some((last, sum)) if *last == key => merge(sum, value),
            _ => out.push((key, value)),
        }
    }
    out.shrink_to_fit();
    out
}

/// Calls `each(key, values)` for every key below `keys`, `values` holding each list's value
/// of that key in the order of `lists` (the default where a list lacks it). Every list is
/// sorted by key; one pass over them all, holding one value per list.
pub(super) fn by_key<T: Copy + Default>(lists: &[&[(u32, T)]], keys: usize, mut each: impl FnMut(u32, &[T])) {
    let mut at = vec![0usize; lists.len()];
    let mut values = vec![T::default(); lists.len()];
    for key in 0..keys as u32 {
        for (i, list) in lists.iter().enumerate() {
            values[i] = match list.get(at[i]) {
                Some(&(k, value)) if k == key => {
                    at[i] += 1;
                    value
                }
                _ => T::default(),
            };
        }
        each(key, &values);
    }
}
