//! The timeline's tracks, by thread id whichever source is shown: what tracks there are,
//! a thread's scheduler states and the state at a moment, and its CPU samples as marks and
//! by state.

use crate::session::Session;
use droidflame_core::products;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
impl Session {
    /// What the timeline can show as tracks, by process (`products::tracks_json`).
    #[wasm_bindgen(js_name = tracksJson)]
    pub fn tracks_json(&self) -> Result<String, JsError> {
        Ok(products::tracks_json(&self.profile()?.profile).to_string())
    }

    /// Thread `tid`'s scheduler states in a window `pixels` wide, as `stateBoxes` gives a
    /// thread's; empty where it has none.
    #[wasm_bindgen(js_name = threadStateBoxes)]
    pub fn thread_state_boxes(&self, tid: u32, from_us: f64, to_us: f64, pixels: u32) -> Result<Vec<f64>, JsError> {
        let p = &self.profile()?.profile;
        let Some((stacks, at)) = products::states_thread(p, tid) else { return Ok(Vec::new()) };
        let boxes = products::log_boxes(&p.system, &stacks.threads[at].states, from_us, to_us, pixels);
        Ok(boxes
            .iter()
            .flat_map(|b| [b.start_us, b.end_us, f64::from(b.state as u8), f64::from(u8::from(b.mixed))])
            .collect())
    }

    /// The scheduler state of thread `tid` at `at_us`, whole, as `stateAtJson` gives it;
    /// `null` where unknown.
    #[wasm_bindgen(js_name = threadStateAtJson)]
    pub fn thread_state_at_json(&self, tid: u32, at_us: f64) -> Result<String, JsError> {
        let p = &self.profile()?.profile;
        let Some((stacks, at)) = products::states_thread(p, tid) else { return Ok("null".into()) };
        let span = products::state_at(&p.system, stacks, at, at_us);
        Ok(span.map_or(serde_json::Value::Null, |s| products::state_json(&p.system, stacks, &s)).to_string())
    }

    /// Thread `tid`'s CPU samples in a window `pixels` wide: three numbers a mark,
    /// `start_us, end_us, count` (samples a pixel apart or closer share one).
    #[wasm_bindgen(js_name = sampleMarks)]
    pub fn sample_marks(&self, tid: u32, from_us: f64, to_us: f64, pixels: u32) -> Result<Vec<f64>, JsError> {
        let p = &self.profile()?.profile;
        let marks = products::sample_marks(p, tid, from_us, to_us, pixels);
        Ok(marks.iter().flat_map(|m| [m.start_us, m.end_us, f64::from(m.count)]).collect())
    }

    /// Thread `tid`'s CPU sample nearest the middle of a span, with its stack
    /// (`products::sample_at_json`).
    #[wasm_bindgen(js_name = sampleAtJson)]
    pub fn sample_at_json(&self, tid: u32, from_us: f64, to_us: f64) -> Result<String, JsError> {
        Ok(products::sample_at_json(&self.profile()?.profile, tid, from_us, to_us).to_string())
    }

    /// Thread `tid`'s samples between `from_us` and `to_us` by the scheduler state it was in
    /// (`products::samples_in_states_json`).
    #[wasm_bindgen(js_name = samplesInStatesJson)]
    pub fn samples_in_states_json(&self, tid: u32, from_us: f64, to_us: f64) -> Result<String, JsError> {
        let p = &self.profile()?.profile;
        let (from, to) = (p.system.ticks_at(from_us), p.system.ticks_at(to_us).saturating_add(1));
        Ok(products::samples_in_states_json(p, tid, from, to).to_string())
    }
}
