//! A session: one trace read in chunks, its analysis, the range and view the page chose,
//! and the products of them.

use crate::columns::CallTreeColumns;
use crate::convert::{clock, js_error, theme_of};
use crate::viewed::Viewed;
use droidflame_core::products::{self, CallQuery, FlameOptions, FoldedOptions, GraphScope, View};
use droidflame_core::profile::ThreadCalls;
use droidflame_core::{Analysis, Analyzer, Clock, Options, Profile, Reread, SourceKind};
use serde_json::json;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

/// One analysis: `push` chunks, `finish`, then ask for products.
#[wasm_bindgen]
pub struct Session {
    pub(crate) analyzer: Option<Analyzer>,
    pub(crate) profile: Option<Analysis>,
    /// The profile cut to the selected time range, when one is selected: what the graphs
    /// and tables then show.
    pub(crate) range: Option<Analysis>,
    /// A thread's window being read again, every short call included.
    pub(crate) reading: Option<(Window, Reread)>,
    /// The last window read again: the timeline draws it where it covers the view.
    pub(crate) detail: Option<(Window, ThreadCalls)>,
    /// The transforms (and inversion) the stack products apply: flame graphs, folded
    /// stacks, the call tree, and (its transforms) the timeline.
    pub(crate) view: View,
    /// Threads' timeline calls in the view's transforms, made as they are drawn.
    pub(crate) viewed: RefCell<Vec<Viewed>>,
}

/// The options of a session that keeps calls (at most `max_calls`, else the core's
/// default) or not.
pub(crate) fn options(calls: bool, max_calls: Option<f64>) -> Options {
    let defaults = Options::default();
    let max_calls = max_calls.filter(|n| *n >= 0.0).map_or(defaults.max_calls, |n| n as u64);
    Options { keep_calls: calls, max_calls, ..defaults }
}

/// One thread (summary index) from `from_us` to `to_us`.
#[derive(Clone, Copy)]
pub(crate) struct Window {
    pub(crate) thread: u32,
    pub(crate) from_us: f64,
    pub(crate) to_us: f64,
}

#[wasm_bindgen]
impl Session {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Session {
        Session::with(Options::default())
    }

    fn with(options: Options) -> Session {
        Session {
            analyzer: Some(Analyzer::new(options)),
            profile: None,
            range: None,
            reading: None,
            detail: None,
            view: View::default(),
            viewed: RefCell::new(Vec::new()),
        }
    }

    /// A session that keeps calls, for the timeline and range selections: every call up to
    /// `max_calls` (the core's default when not given; memory grows by 32 bytes a call),
    /// past it the longest.
    #[wasm_bindgen(js_name = withCalls)]
    pub fn with_calls(max_calls: Option<f64>) -> Session {
        Session::with(options(true, max_calls))
    }

    /// A session of an analysis made elsewhere (read in pieces).
    pub(crate) fn of(analysis: Analysis) -> Session {
        Session { analyzer: None, profile: Some(analysis), ..Session::new() }
    }

    fn analyzer(&mut self) -> Result<&mut Analyzer, JsError> {
        self.analyzer.as_mut().ok_or_else(|| JsError::new("this session is finished"))
    }

    pub fn push(&mut self, chunk: &[u8]) -> Result<(), JsError> {
        self.analyzer()?.push(chunk).map_err(js_error)
    }

    /// A split trace: call after the whole `.key` file, before the `.data` file.
    #[wasm_bindgen(js_name = endOfKeyFile)]
    pub fn end_of_key_file(&mut self) -> Result<(), JsError> {
        self.analyzer()?.end_of_key_file().map_err(js_error)
    }

    pub fn finish(&mut self) -> Result<(), JsError> {
        let analyzer = self.analyzer.take().ok_or_else(|| JsError::new("this session is finished"))?;
        self.profile = Some(analyzer.finish().map_err(js_error)?);
        Ok(())
    }

    pub(crate) fn profile(&self) -> Result<&Analysis, JsError> {
        self.profile.as_ref().ok_or_else(|| JsError::new("call finish() first"))
    }

    /// What graphs and tables show: the selected range, else the whole trace.
    fn shown(&self) -> Result<&Analysis, JsError> {
        match &self.range {
            Some(range) => Ok(range),
            None => self.profile(),
        }
    }

    pub(crate) fn thread(&self, index: u32) -> Result<&droidflame_core::profile::ThreadProfile, JsError> {
        self.profile()?
            .profile
            .stacks()
            .threads
            .get(index as usize)
            .ok_or_else(|| JsError::new(&format!("no thread {index}")))
    }

    /// Graphs and tables show only `from_us..=to_us` (µs from the timeline's start) until
    /// `clearRange`.
    #[wasm_bindgen(js_name = setRange)]
    pub fn set_range(&mut self, from_us: f64, to_us: f64) -> Result<(), JsError> {
        let profile = self.profile()?;
        let range = profile
            .within(profile.profile.system.ticks_at(from_us), profile.profile.system.ticks_at(to_us))
            .map_err(js_error)?;
        self.range = Some(range);
        Ok(())
    }

    /// Products show the source `name` (as the summary lists it) from now on, and heap
    /// sources the dump `dump` (from 0 in time order; the last where not given). What was
    /// made of the source shown before (a range, a window read again, timeline calls) goes.
    #[wasm_bindgen(js_name = selectSource)]
    pub fn select_source(&mut self, name: &str, dump: Option<u32>) -> Result<(), JsError> {
        let kind = SourceKind::parse(name).ok_or_else(|| JsError::new(&format!("no source is called {name:?}")))?;
        let analysis = self.profile.as_mut().ok_or_else(|| JsError::new("call finish() first"))?;
        if let Some(dump) = dump {
            analysis.profile.select_dump(dump as usize).map_err(js_error)?;
        }
        analysis.profile.select_source(kind).map_err(js_error)?;
        self.range = None;
        self.reading = None;
        self.detail = None;
        self.viewed.borrow_mut().clear();
        Ok(())
    }

    /// Graphs and tables show the whole trace again.
    #[wasm_bindgen(js_name = clearRange)]
    pub fn clear_range(&mut self) {
        self.range = None;
    }

    /// The `n` longest calls of the frame named `name` (all threads, or one thread's by
    /// summary index), longest first, as a JSON array.
    #[wasm_bindgen(js_name = slowestCallsJson)]
    pub fn slowest_calls_json(&self, name: String, thread: i32, n: u32) -> Result<String, JsError> {
        let p = self.profile()?;
        let thread = usize::try_from(thread).ok().map(|i| self.thread(i as u32).map(|t| t.tid)).transpose()?;
        let query = CallQuery { thread, frame: Some(name), longest: Some(n.max(1) as usize), ..Default::default() };
        let calls = products::select_calls(&p.profile, &query).map_err(js_error)?;
        // Threads that share a tid are told apart by their index in the summary.
        let list: Vec<_> = calls.iter().map(|c| call_json(&p.profile, c.thread, c.depth, &c.call)).collect();
        Ok(serde_json::Value::Array(list).to_string())
    }

    /// The summary JSON (schema 1) as text.
    #[wasm_bindgen(js_name = summaryJson)]
    pub fn summary_json(&self) -> Result<String, JsError> {
        Ok(products::summary_json(self.profile()?))
    }

    /// The summary JSON of what graphs and tables show: the selected range, else the whole
    /// trace (its threads' scheduling is the range's).
    #[wasm_bindgen(js_name = shownSummaryJson)]
    pub fn shown_summary_json(&self) -> Result<String, JsError> {
        Ok(products::summary_json(self.shown()?))
    }

    /// The thread a viewer opens on (its index in the summary's threads; -1 for all
    /// threads): the summary's `default_thread`.
    #[wasm_bindgen(js_name = defaultThread)]
    pub fn default_thread(&self) -> Result<i32, JsError> {
        Ok(self.profile()?.profile.default_thread().map_or(-1, |i| i as i32))
    }

    /// The clock a viewer opens on: the summary's `format.default_clock`.
    #[wasm_bindgen(js_name = defaultClock)]
    pub fn default_clock(&self) -> Result<String, JsError> {
        Ok(self.profile()?.profile.default_clock().name().to_owned())
    }

    /// The methods table, with calls between methods, of one thread (its index in the
    /// summary's threads) or of all threads for -1, as JSON text; read off the view's
    /// stacks where it has transforms.
    #[wasm_bindgen(js_name = methodsJson)]
    pub fn methods_json(&self, thread: i32) -> Result<String, JsError> {
        let scope = usize::try_from(thread).ok();
        if self.view.transforms.is_empty() {
            products::methods_json(&self.shown()?.profile, scope).map_err(js_error)
        } else {
            products::methods_json_of_view(&self.shown()?.profile, scope, &self.view).map_err(js_error)
        }
    }

    /// One thread's flame graph (its index in the summary's threads), or all threads for -1.
    /// `theme`: `light` (the default) or `dark`.
    #[wasm_bindgen(js_name = flameSvg)]
    pub fn flame_svg(&self, thread: i32, clock_name: Option<String>, theme: Option<String>) -> Result<String, JsError> {
        let scope = usize::try_from(thread).map_or(GraphScope::AllThreads, GraphScope::Thread);
        let options = FlameOptions {
            clock: clock(clock_name)?,
            theme: theme_of(theme)?,
            view: self.view.clone(),
            ..FlameOptions::default()
        };
        products::flame_svg(&self.shown()?.profile, scope, &options).map_err(js_error)
    }

    /// Folded stacks of what the graphs show (the selected range, else the whole trace);
    /// `tid` narrows them to one thread id (without its thread frame).
    pub fn folded(&self, clock_name: Option<String>, tid: Option<u32>) -> Result<String, JsError> {
        let options =
            FoldedOptions { clock: clock(clock_name)?, thread: tid, view: self.view.clone(), ..Default::default() };
        products::folded(&self.shown()?.profile, &options).map_err(js_error)
    }

    /// Sets the transforms the stack products apply, as JSON: `{"transforms": [{"merge":
    /// "a.B.c"}, …], "invert": false}`; an empty text clears them. Refused, with the reason,
    /// where the text is no view or names a frame the trace does not have.
    #[wasm_bindgen(js_name = setView)]
    pub fn set_view(&mut self, json: &str) -> Result<(), JsError> {
        let view = if json.trim().is_empty() { View::default() } else { View::from_json(json).map_err(js_error)? };
        view.check(&self.profile()?.profile).map_err(js_error)?;
        if view.transforms != self.view.transforms {
            self.viewed.borrow_mut().clear();
        }
        self.view = view;
        Ok(())
    }

    /// The libraries frames named `name` come from, as a JSON array (`["libc.so"]`): what
    /// a frame's menu offers to collapse.
    #[wasm_bindgen(js_name = librariesOfJson)]
    pub fn libraries_of_json(&self, name: &str) -> Result<String, JsError> {
        Ok(serde_json::to_string(&products::libraries_of(&self.profile()?.profile, name)).unwrap_or_default())
    }

    /// The kinds of code a view can hide in the source shown, as a JSON array of their
    /// names (`["kernel", "native"]`): what the view bar offers to hide.
    #[wasm_bindgen(js_name = hideableJson)]
    pub fn hideable_json(&self) -> Result<String, JsError> {
        let codes: Vec<&str> = products::hideable(&self.profile()?.profile).iter().map(|c| c.name()).collect();
        Ok(serde_json::to_string(&codes).unwrap_or_default())
    }

    /// The view as a file other viewers open (what the graphs cover: the range, else the
    /// whole trace): `speedscope` (JSON, weights on `clock_name`, the trace's default where
    /// not given), `pprof` (gzipped `profile.proto`, every clock) or `chrome` (the Chrome
    /// trace JSON of every call, as the view's timeline shows them: its transforms, never inverted).
    #[wasm_bindgen(js_name = exportView)]
    pub fn export_view(&self, format: &str, clock_name: Option<String>) -> Result<Vec<u8>, JsError> {
        let profile = self.shown()?;
        let options = products::ExportOptions { clock: clock(clock_name)?, view: self.view.clone() };
        let mut out = Vec::new();
        match format {
            "speedscope" => products::write_speedscope(&profile.profile, &options, &mut out),
            "pprof" => products::write_pprof(&profile.profile, &options, &mut out),
            // A timeline: the view's transforms, never inverted.
            "chrome" => products::write_chrome_trace(&profile.profile, &options.view, &mut out),
            _ => return Err(JsError::new(&format!("no export format {format:?}: speedscope, pprof or chrome"))),
        }
        .map_err(js_error)?;
        Ok(out)
    }

    /// One thread's call tree (its index in the summary's threads), or every thread's for
    /// -1, as the view shows it, in flat columns (node 0 is the thread or all threads; a
    /// parent comes before its children; µs). Columns, not JSON: a bottom-up tree of every
    /// thread can have millions of nodes, and typed arrays cross to the page without parsing.
    #[wasm_bindgen(js_name = callTree)]
    pub fn call_tree(&self, thread: i32) -> Result<CallTreeColumns, JsError> {
        let scope = usize::try_from(thread).map_or(GraphScope::AllThreads, GraphScope::Thread);
        let table = products::call_tree_table(&self.shown()?.profile, scope, &self.view).map_err(js_error)?;
        Ok(CallTreeColumns { table })
    }
}

fn call_json(p: &Profile, thread: usize, depth: u32, call: &droidflame_core::profile::Call) -> serde_json::Value {
    let wall = p.has(Clock::Wall);
    json!({
        "thread": thread, "tid": p.stacks().threads[thread].tid, "depth": depth, "name": p.frame_name(call.frame),
        "start_us": p.system.micros_at(call.start), "end_us": p.system.micros_at(call.end),
        "wall_us": wall.then(|| p.system.micros_at(call.end) - p.system.micros_at(call.start)),
        "cpu_us": p.has(Clock::Cpu).then(|| p.stacks().time_unit.micros(call.cpu)),
        "states": products::state_times_json(p.stacks(), thread, call.start, call.end),
    })
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}
