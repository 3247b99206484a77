//! Values between JS and the core: errors, and the names of clocks and themes.

use droidflame_core::products::Theme;
use droidflame_core::Clock;
use wasm_bindgen::prelude::*;

pub(crate) fn js_error(error: droidflame_core::Error) -> JsError {
    JsError::new(&error.to_string())
}

pub(crate) fn clock(name: Option<String>) -> Result<Option<Clock>, JsError> {
    match name.as_deref() {
        None | Some("") => Ok(None),
        Some(text) => Clock::parse(text)
            .map(Some)
            .ok_or_else(|| JsError::new(&format!("unknown clock {text:?}; use wall or cpu"))),
    }
}

pub(crate) fn theme_of(name: Option<String>) -> Result<Theme, JsError> {
    match name.as_deref() {
        None | Some("") => Ok(Theme::Light),
        Some(text) => {
            Theme::parse(text).ok_or_else(|| JsError::new(&format!("unknown theme {text:?}; use light or dark")))
        }
    }
}
