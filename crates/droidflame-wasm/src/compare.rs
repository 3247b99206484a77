//! Two sessions compared: the differential stacks held once, then drawn per thread name
//! and clock choice as the page asks; method deltas made from the two sessions' profiles.

use crate::convert::{clock, js_error, theme_of};
use crate::session::Session;
use droidflame_core::products::{self, ChangeOf, DiffGraphOptions, DiffOptions, Widths};
use serde_json::json;
use wasm_bindgen::prelude::*;

/// Two traces' stacks side by side (`Session::compareWith`).
#[wasm_bindgen]
pub struct Comparison {
    inner: products::Comparison,
}

impl From<products::Comparison> for Comparison {
    fn from(inner: products::Comparison) -> Comparison {
        Comparison { inner }
    }
}

#[wasm_bindgen]
impl Session {
    /// Compares this trace (before; the whole trace, whatever range is selected) with
    /// `after`, on `clock` (wall where both have it when not given), both sides in this
    /// session's view (`setView`).
    #[wasm_bindgen(js_name = compareWith)]
    pub fn compare_with(&self, after: &Session, clock_name: Option<String>) -> Result<Comparison, JsError> {
        let options = DiffOptions { clock: clock(clock_name)?, view: self.view.clone(), ..DiffOptions::default() };
        let inner = products::compare(self.profile()?, after.profile()?, &options).map_err(js_error)?;
        Ok(Comparison { inner })
    }

    /// Per-method deltas against `after` on `clock`, of the threads named `thread` (all
    /// threads when not given), in this session's view, as a JSON array of `{name, class, method, signature, before,
    /// after}` with
    /// `{calls, incl_us, excl_us}` on each side, largest inclusive change first.
    #[wasm_bindgen(js_name = methodDeltasJson)]
    pub fn method_deltas_json(
        &self,
        after: &Session,
        clock_name: String,
        thread: Option<String>,
    ) -> Result<String, JsError> {
        let clock = clock(Some(clock_name))?.ok_or_else(|| JsError::new("name a clock: wall or cpu"))?;
        let rows = products::method_deltas(
            &self.profile()?.profile,
            &after.profile()?.profile,
            clock,
            thread.as_deref(),
            &self.view,
        )
        .map_err(js_error)?;
        let side = |t: &products::MethodTotals| json!({ "calls": t.calls, "incl_us": t.incl_us, "excl_us": t.excl_us });
        let list: Vec<_> = rows
            .iter()
            .map(|r| {
                json!({ "name": r.name, "class": r.class, "method": r.method, "signature": r.signature,
                        "before": side(&r.before), "after": side(&r.after) })
            })
            .collect();
        Ok(serde_json::Value::Array(list).to_string())
    }
}

#[wasm_bindgen]
impl Comparison {
    /// `{clock, warnings, threads: [{name, before_us, after_us}], default_thread}`: threads by
    /// name, most time on either side first; the thread name to open on, or null.
    #[wasm_bindgen(js_name = factsJson)]
    pub fn facts_json(&self) -> String {
        let threads: Vec<_> = self
            .inner
            .threads()
            .into_iter()
            .map(|t| json!({ "name": t.name, "before_us": t.before, "after_us": t.after }))
            .collect();
        json!({ "clock": self.inner.clock.name(), "warnings": self.inner.warnings, "threads": threads,
                "default_thread": self.inner.default_thread })
        .to_string()
    }

    /// The differential flame graph of the threads named `thread` (all threads when not
    /// given): `widths` `after` (the default) or `before`; `normalize` scales the other side
    /// to the same total; `theme` `light` or `dark`; `colour` `self` (the default) or
    /// `total`: what a frame's colour measures the change of; `changed_only` fades the frames
    /// drawn neutral; `shown`, where groups of runs are compared, names the frames whose
    /// change the runs show (the others' own time is drawn neutral).
    #[wasm_bindgen(js_name = diffSvg)]
    #[allow(clippy::too_many_arguments)]
    pub fn diff_svg(
        &self,
        thread: Option<String>,
        widths: Option<String>,
        normalize: bool,
        theme: Option<String>,
        colour: Option<String>,
        changed_only: Option<bool>,
        shown: Option<Vec<String>>,
    ) -> Result<String, JsError> {
        let widths = match widths.as_deref() {
            None | Some("") => Widths::After,
            Some(text) => Widths::parse(text)
                .ok_or_else(|| JsError::new(&format!("unknown widths {text:?}; use after or before")))?,
        };
        let colour = match colour.as_deref() {
            None | Some("") => ChangeOf::SelfTime,
            Some(text) => ChangeOf::parse(text)
                .ok_or_else(|| JsError::new(&format!("unknown colour {text:?}; use self or total")))?,
        };
        let options = DiffGraphOptions {
            thread,
            widths,
            normalize,
            theme: theme_of(theme)?,
            colour,
            changed_only: changed_only.unwrap_or(false),
            shown,
            ..Default::default()
        };
        products::diff_svg(&self.inner, &options).map_err(js_error)
    }

    /// The differential folded stacks, `stack before_us after_us` a line.
    pub fn folded(&self) -> Result<String, JsError> {
        let mut out = Vec::new();
        products::write_diff_folded(&self.inner, &mut out).map_err(js_error)?;
        String::from_utf8(out).map_err(|e| JsError::new(&e.to_string()))
    }
}
