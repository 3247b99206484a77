//! Thin wasm-bindgen bindings over droidflame-core: chunks in, JSON text and SVG out.
//! No trace knowledge here; every decision is the core's. Always pass `Uint8Array`s: an
//! `ArrayBuffer` given for `&[u8]` arrives as an empty slice.

use droidflame_core::products::{self, FlameOptions, FoldedOptions, GraphScope, Theme};
use droidflame_core::{Analyzer, Clock, Profile};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(start)]
fn start() {
    console_error_panic_hook::set_once();
}

fn js_error(error: droidflame_core::Error) -> JsError {
    JsError::new(&error.to_string())
}

fn clock(name: Option<String>) -> Result<Option<Clock>, JsError> {
    match name.as_deref() {
        None | Some("") => Ok(None),
        Some(text) => Clock::parse(text)
            .map(Some)
            .ok_or_else(|| JsError::new(&format!("unknown clock {text:?}; use wall or cpu"))),
    }
}

/// For a split trace given as two files: true when the second one is the `.key` half.
/// Pass the first bytes of each file.
#[wasm_bindgen(js_name = splitKeyIsSecond)]
pub fn split_key_is_second(first_head: &[u8], second_head: &[u8]) -> Result<bool, JsError> {
    droidflame_core::split_key_is_second(first_head, second_head).map_err(js_error)
}

/// One analysis: `push` chunks, `finish`, then ask for products.
#[wasm_bindgen]
pub struct Session {
    analyzer: Option<Analyzer>,
    profile: Option<Profile>,
}

#[wasm_bindgen]
impl Session {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Session {
        Session { analyzer: Some(Analyzer::default()), profile: None }
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

    fn profile(&self) -> Result<&Profile, JsError> {
        self.profile.as_ref().ok_or_else(|| JsError::new("call finish() first"))
    }

    /// The summary JSON (schema 1) as text.
    #[wasm_bindgen(js_name = summaryJson)]
    pub fn summary_json(&self) -> Result<String, JsError> {
        Ok(products::summary_json(self.profile()?))
    }

    /// The methods table, with calls between methods, of one thread (its index in the
    /// summary's threads) or of all threads for -1, as JSON text.
    #[wasm_bindgen(js_name = methodsJson)]
    pub fn methods_json(&self, thread: i32) -> Result<String, JsError> {
        let scope = usize::try_from(thread).ok();
        products::methods_json(self.profile()?, scope).map_err(js_error)
    }

    /// One thread's flame graph (its index in the summary's threads), or all threads for -1.
    /// `theme`: `light` (the default) or `dark`.
    #[wasm_bindgen(js_name = flameSvg)]
    pub fn flame_svg(&self, thread: i32, clock_name: Option<String>, theme: Option<String>) -> Result<String, JsError> {
        let scope = usize::try_from(thread).map_or(GraphScope::AllThreads, GraphScope::Thread);
        let theme = match theme.as_deref() {
            None | Some("") => Theme::Light,
            Some(text) => {
                Theme::parse(text).ok_or_else(|| JsError::new(&format!("unknown theme {text:?}; use light or dark")))?
            }
        };
        let options = FlameOptions { clock: clock(clock_name)?, theme, ..FlameOptions::default() };
        products::flame_svg(self.profile()?, scope, &options).map_err(js_error)
    }

    /// Folded stacks; `tid` narrows them to one thread id (without its thread frame).
    pub fn folded(&self, clock_name: Option<String>, tid: Option<u32>) -> Result<String, JsError> {
        let options = FoldedOptions { clock: clock(clock_name)?, thread: tid, ..Default::default() };
        products::folded(self.profile()?, &options).map_err(js_error)
    }
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}
