//! The timeline's side of a session: its facts, a window's boxes, the call under the
//! pointer, and a thread's short calls read again. In a view with transforms, the boxes are
//! the view's (`products::viewed_calls`), made when a thread is first drawn in it.

use crate::convert::js_error;
use crate::session::{Session, Window};
use crate::viewed::{Drawn, Viewed};
use droidflame_core::products;
use droidflame_core::profile::ThreadCalls;
use droidflame_core::Clock;
use serde_json::json;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
impl Session {
    /// The timeline's facts as JSON: its length in µs; whether calls were kept; where short
    /// calls were left out, why (`left_out`, else null: then ranges can be selected), below
    /// which length (`shortest_us`) and whether one thread's can be read again (`reread`);
    /// where the capture recorded nothing (`gaps`, `[from_us, to_us]` pairs); and per thread
    /// (summary order), its first and last event and how many depths and calls it has;
    /// `scheduling`: whether threads have scheduler states (`schedulingJson` has rows).
    #[wasm_bindgen(js_name = timelineJson)]
    pub fn timeline_json(&self) -> Result<String, JsError> {
        let p = self.profile()?;
        let threads: Vec<_> = p
            .profile
            .stacks()
            .threads
            .iter()
            .map(|t| {
                let clock = p.profile.timeline_clock();
                json!({ "first_us": p.profile.system.micros_at(t.first[clock]), "last_us": p.profile.system.micros_at(t.last[clock]),
                        "depths": t.calls.depth_count(), "calls": t.calls.len(), "states": t.states.len() })
            })
            .collect();
        let gaps: Vec<_> = p
            .profile
            .system
            .gaps
            .iter()
            .map(|&(from, to)| [p.profile.system.micros_at(from), p.profile.system.micros_at(to)])
            .collect();
        // Counters with values over time, as tracks: index, process, name, unit, range.
        let counters: Vec<_> = p
            .profile
            .system
            .counters
            .iter()
            .enumerate()
            .filter(|(_, c)| !c.series.is_empty())
            .map(|(index, c)| json!({ "index": index, "pid": c.pid, "name": c.name, "unit": c.unit, "min": c.min, "max": c.max }))
            .collect();
        Ok(json!({ "length_us": p.profile.system.micros_at(p.profile.system.timeline.end), "gaps": gaps, "calls_kept": p.profile.facts.limits.keep_calls,
                   "state_legend": products::state_legend(), "frames": !p.profile.system.app_frames.is_empty(),
                   "cpus": p.profile.system.cpus, "counters": counters,
                   "scheduling": p.profile.states_stacks().is_some(),
                   "left_out": p.profile.calls_left_out(), "shortest_us": p.profile.micros(p.profile.stacks().shortest_call),
                   "reread": p.profile.can_reread(), "threads": threads })
        .to_string())
    }

    /// The boxes of one thread (summary index) in a window `pixels` wide, depths below
    /// `max_depth`, in the view's transforms: four numbers each, `depth, start_us, end_us,
    /// frame` (frame -1: calls narrower than a pixel, merged). Frames name the entries of
    /// `frameNamesJson`, and past its end those of `madeNamesJson`.
    #[wasm_bindgen(js_name = timelineBoxes)]
    pub fn timeline_boxes(
        &self,
        thread: u32,
        from_us: f64,
        to_us: f64,
        pixels: u32,
        max_depth: u32,
    ) -> Result<Vec<f64>, JsError> {
        let profile = self.profile()?;
        self.drawn(Window { thread, from_us, to_us }, |drawn| {
            let boxes = products::timeline_boxes(
                &profile.profile.system,
                drawn.calls(),
                from_us,
                to_us,
                pixels,
                max_depth as usize,
            );
            let mut out = Vec::with_capacity(boxes.len() * 4);
            for b in boxes {
                let frame = b.frame.map_or(-1.0, |f| f64::from(drawn.name_index(&profile.profile, f)));
                out.extend([f64::from(b.depth), b.start_us, b.end_us, frame]);
            }
            Ok(out)
        })
    }

    /// One thread's scheduler states in a window `pixels` wide: four numbers each,
    /// `start_us, end_us, state, mixed` (state: 1 + its index in `timelineJson`'s
    /// `state_legend`; mixed 1: states each narrower than a pixel, shown as the longest).
    #[wasm_bindgen(js_name = stateBoxes)]
    pub fn state_boxes(&self, thread: u32, from_us: f64, to_us: f64, pixels: u32) -> Result<Vec<f64>, JsError> {
        let p = self.profile()?;
        self.thread(thread)?;
        let boxes =
            products::state_boxes(&p.profile.system, p.profile.stacks(), thread as usize, from_us, to_us, pixels);
        Ok(boxes
            .iter()
            .flat_map(|b| [b.start_us, b.end_us, f64::from(b.state as u8), f64::from(u8::from(b.mixed))])
            .collect())
    }

    /// Every thread's scheduling between `from_us` and `to_us`, whichever source is shown:
    /// time per state, I/O wait, wakers and CPUs (`products::scheduling_json`).
    #[wasm_bindgen(js_name = schedulingJson)]
    pub fn scheduling_json(&self, from_us: f64, to_us: f64) -> Result<String, JsError> {
        Ok(products::scheduling_json(&self.profile()?.profile, from_us, to_us).to_string())
    }

    /// The scheduler state of one thread at `at_us`, whole, as JSON (`products::state_json`);
    /// `null` where unknown.
    #[wasm_bindgen(js_name = stateAtJson)]
    pub fn state_at_json(&self, thread: u32, at_us: f64) -> Result<String, JsError> {
        let p = self.profile()?;
        self.thread(thread)?;
        let span = products::state_at(&p.profile.system, p.profile.stacks(), thread as usize, at_us);
        Ok(span
            .map_or(serde_json::Value::Null, |s| products::state_json(&p.profile.system, p.profile.stacks(), &s))
            .to_string())
    }

    /// What every CPU ran in a window `pixels` wide, whichever source is shown: five numbers
    /// a box, `cpu, start_us, end_us, pid, mixed` (pid: the process of the thread that ran,
    /// the longest where mixed is 1; -1 where unknown).
    #[wasm_bindgen(js_name = cpuBoxes)]
    pub fn cpu_boxes(&self, from_us: f64, to_us: f64, pixels: u32) -> Result<Vec<f64>, JsError> {
        let p = &self.profile()?.profile;
        let Some(stacks) = p.states_stacks() else { return Ok(Vec::new()) };
        let boxes = products::cpu_boxes(p, from_us, to_us, pixels);
        Ok(boxes
            .iter()
            .flat_map(|b| {
                let pid = stacks.threads[b.thread].pid.map_or(-1.0, f64::from);
                [f64::from(b.cpu), b.start_us, b.end_us, pid, f64::from(u8::from(b.mixed))]
            })
            .collect())
    }

    /// The thread on `cpu` at `at_us` with its state, as JSON (`products::cpu_at_json`),
    /// whichever source is shown.
    #[wasm_bindgen(js_name = cpuAtJson)]
    pub fn cpu_at_json(&self, cpu: u32, at_us: f64) -> Result<String, JsError> {
        let p = &self.profile()?.profile;
        let Some(stacks) = p.states_stacks() else { return Ok("null".into()) };
        Ok(products::cpu_at_json(&p.system, stacks, cpu, at_us).to_string())
    }

    /// A counter's steps (index into `timelineJson`'s `counters`' `index`) in a window
    /// `pixels` wide: four numbers a step, `start_us, end_us, min, max`.
    #[wasm_bindgen(js_name = counterSteps)]
    pub fn counter_steps(&self, counter: u32, from_us: f64, to_us: f64, pixels: u32) -> Result<Vec<f64>, JsError> {
        let p = self.profile()?;
        let steps = products::counter_steps(&p.profile.system, counter as usize, from_us, to_us, pixels);
        Ok(steps.iter().flat_map(|s| [s.start_us, s.end_us, s.min as f64, s.max as f64]).collect())
    }

    /// A counter's value at `at_us` and since when, as JSON `{value, since_us}` (`null`
    /// before its first).
    #[wasm_bindgen(js_name = counterAtJson)]
    pub fn counter_at_json(&self, counter: u32, at_us: f64) -> Result<String, JsError> {
        let at = products::counter_at(&self.profile()?.profile.system, counter as usize, at_us);
        Ok(at
            .map_or(serde_json::Value::Null, |(value, since)| json!({ "value": value, "since_us": since }))
            .to_string())
    }

    /// The frames apps produced, with each layer's figures (`products::frames_json`).
    #[wasm_bindgen(js_name = framesJson)]
    pub fn frames_json(&self) -> Result<String, JsError> {
        Ok(products::frames_json(&self.profile()?.profile))
    }

    /// The names the view's transforms make (a collapsed package's frame), as a JSON array:
    /// timeline boxes name them past the end of `frameNamesJson`.
    #[wasm_bindgen(js_name = madeNamesJson)]
    pub fn made_names_json(&self) -> Result<String, JsError> {
        let made = products::made_names(&self.profile()?.profile, &self.view);
        Ok(serde_json::to_string(&made).unwrap_or_default())
    }

    /// Starts reading again the short calls of one thread (summary index) between `from_us`
    /// and `to_us`: returns the input's offset to read from. Then `rereadPush` the input
    /// from there until it answers true (or the input ends), then `rereadFinish`.
    #[wasm_bindgen(js_name = rereadStart)]
    pub fn reread_start(&mut self, thread: u32, from_us: f64, to_us: f64) -> Result<f64, JsError> {
        let p = self.profile()?;
        self.thread(thread)?;
        let reread = p
            .reread(thread as usize, p.profile.system.ticks_at(from_us), p.profile.system.ticks_at(to_us))
            .map_err(js_error)?;
        let offset = reread.offset() as f64;
        self.reading = Some((Window { thread, from_us, to_us }, reread));
        Ok(offset)
    }

    /// The next bytes of the input for the window being read again; true once it needs no
    /// more.
    #[wasm_bindgen(js_name = rereadPush)]
    pub fn reread_push(&mut self, chunk: &[u8]) -> Result<bool, JsError> {
        let (_, reread) = self.reading.as_mut().ok_or_else(|| JsError::new("call rereadStart() first"))?;
        reread.push(chunk).map_err(js_error)
    }

    /// Ends the reading: from now on the timeline draws the window with every call.
    #[wasm_bindgen(js_name = rereadFinish)]
    pub fn reread_finish(&mut self) -> Result<(), JsError> {
        let (window, reread) = self.reading.take().ok_or_else(|| JsError::new("call rereadStart() first"))?;
        let calls = reread.calls(&self.profile()?.profile, window.thread as usize);
        self.detail = Some((window, calls));
        self.viewed.borrow_mut().retain(|v| !v.detail);
        Ok(())
    }

    /// Every display name of a frame, as a JSON array; timeline boxes index it.
    #[wasm_bindgen(js_name = frameNamesJson)]
    pub fn frame_names_json(&self) -> Result<String, JsError> {
        Ok(serde_json::to_string(&self.profile()?.profile.frame_names).unwrap_or_default())
    }

    /// The box of a thread at `depth` running at `at_us` in the view, as JSON (`null` if
    /// none): its name, start and end, its time on each clock the trace has (`cpu_us` null
    /// where the box is not one whole call), and `path`, the names of the boxes it runs in
    /// from the thread's outermost, its own last; `states`, its time in each scheduler state
    /// (`products::state_times_json`).
    #[wasm_bindgen(js_name = callAtJson)]
    pub fn call_at_json(&self, thread: u32, depth: u32, at_us: f64) -> Result<String, JsError> {
        let p = self.profile()?;
        self.drawn(Window { thread, from_us: at_us, to_us: at_us }, |drawn| {
            let calls = drawn.calls();
            let Some(call) = products::call_at(&p.profile.system, calls, depth as usize, at_us) else { return Ok("null".into()) };
            let path: Vec<&str> = products::callers_of(calls, depth as usize, call)
                .into_iter()
                .chain([call])
                .map(|c| drawn.name(&p.profile, c.frame))
                .collect();
            let cpu = drawn.cpu(call).filter(|_| p.profile.has(Clock::Cpu)).map(|cpu| p.profile.stacks().time_unit.micros(cpu));
            Ok(json!({
                "thread": thread, "tid": p.profile.stacks().threads[thread as usize].tid, "depth": depth,
                "name": drawn.name(&p.profile, call.frame), "path": path,
                "start_us": p.profile.system.micros_at(call.start), "end_us": p.profile.system.micros_at(call.end),
                "wall_us": p.profile.has(Clock::Wall).then(|| p.profile.system.micros_at(call.end) - p.profile.system.micros_at(call.start)),
                "cpu_us": cpu,
                "states": products::state_times_json(p.profile.stacks(), thread as usize, call.start, call.end),
                "scheduling": scheduling_of(&p.profile, thread as usize, call.start, call.end),
            })
            .to_string())
        })
    }
}

impl Session {
    /// A thread's calls for `window`: the window read again where it covers it, else those
    /// the profile kept; and whether they are the window read again.
    fn calls(&self, window: Window) -> Result<(&ThreadCalls, bool), JsError> {
        match &self.detail {
            Some((w, calls)) if w.thread == window.thread && w.from_us <= window.from_us && window.to_us <= w.to_us => {
                Ok((calls, true))
            }
            _ => Ok((&self.thread(window.thread)?.calls, false)),
        }
    }

    /// Runs `with` on the calls a timeline request for `window` reads: in a view with
    /// transforms, the view's, made once per thread until the view changes.
    fn drawn<T>(&self, window: Window, with: impl FnOnce(&Drawn) -> Result<T, JsError>) -> Result<T, JsError> {
        let (calls, detail) = self.calls(window)?;
        if self.view.transforms.is_empty() {
            return with(&Drawn::Plain(calls));
        }
        let mut viewed = self.viewed.borrow_mut();
        let found = viewed.iter().position(|v| v.thread == window.thread && v.detail == detail);
        let at = match found {
            Some(at) => at,
            None => {
                let thread = window.thread as usize;
                let made =
                    products::viewed_calls(&self.profile()?.profile, thread, calls, &self.view).map_err(js_error)?;
                viewed.push(Viewed { thread: window.thread, detail, calls: made });
                viewed.len() - 1
            }
        };
        with(&Drawn::Viewed(&viewed[at].calls))
    }
}

/// The scheduling of the shown source's thread `thread` within `from..to` ticks: its
/// thread's among the threads with states (the same tid), whichever source is shown.
fn scheduling_of(profile: &droidflame_core::Profile, thread: usize, from: u64, to: u64) -> serde_json::Value {
    let shown = &profile.stacks().threads[thread];
    let Some(stacks) = profile.states_stacks().filter(|_| !shown.track) else {
        return serde_json::Value::Null;
    };
    match stacks.threads.iter().position(|t| t.tid == shown.tid && !t.track) {
        Some(at) => products::thread_scheduling_json(stacks, at, from, to),
        None => serde_json::Value::Null,
    }
}
