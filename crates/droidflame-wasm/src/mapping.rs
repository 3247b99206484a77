//! A mapping file read once for one or more sessions, then applied to each: every product
//! a session makes afterwards carries the original names.

use crate::convert::js_error;
use crate::session::Session;
use droidflame_core::mapping::{self, Mapping, MappingReader, Sniff};
use serde_json::json;
use wasm_bindgen::prelude::*;

/// Whether a file's first bytes are a mapping file's: `mapping`, `not`, or `unsure` (only
/// comments so far).
#[wasm_bindgen(js_name = sniffMapping)]
pub fn sniff_mapping(head: &[u8]) -> String {
    match mapping::sniff(head) {
        Sniff::Mapping => "mapping",
        Sniff::NotMapping => "not",
        Sniff::NotSureYet => "unsure",
    }
    .into()
}

/// One mapping file: `want` each session it may apply to, `push` the file's bytes,
/// `finish`, then `applyTo` sessions.
#[wasm_bindgen]
pub struct MappingRead {
    reader: Option<MappingReader>,
    mapping: Option<Mapping>,
}

#[wasm_bindgen]
impl MappingRead {
    #[wasm_bindgen(constructor)]
    pub fn new() -> MappingRead {
        MappingRead { reader: Some(MappingReader::new(&[])), mapping: None }
    }

    fn reader(&mut self) -> Result<&mut MappingReader, JsError> {
        self.reader.as_mut().ok_or_else(|| JsError::new("this mapping is read already"))
    }

    /// Keeps what `session`'s trace needs of the file; before the first `push`.
    pub fn want(&mut self, session: &Session) -> Result<(), JsError> {
        let profile = session.profile()?;
        self.reader()?.want(&profile.profile);
        Ok(())
    }

    pub fn push(&mut self, chunk: &[u8]) -> Result<(), JsError> {
        self.reader()?.push(chunk).map_err(js_error)
    }

    pub fn finish(&mut self) -> Result<(), JsError> {
        let reader = self.reader.take().ok_or_else(|| JsError::new("this mapping is read already"))?;
        self.mapping = Some(reader.finish().map_err(js_error)?);
        Ok(())
    }

    /// Renames `session`'s frames (and its selected range's); answers what was mapped as
    /// JSON: `{report, text}`, the summary's `mapping` and the core's sentence for it.
    #[wasm_bindgen(js_name = applyTo)]
    pub fn apply_to(&self, session: &mut Session) -> Result<String, JsError> {
        let mapping = self.mapping.as_ref().ok_or_else(|| JsError::new("call finish() first"))?;
        let profile = session.profile.as_mut().ok_or_else(|| JsError::new("call finish() first"))?;
        let report = profile.deobfuscate(mapping);
        let report = json!({ "report": report, "text": report.describe() }).to_string();
        if let Some(range) = session.range.as_mut() {
            range.deobfuscate(mapping);
        }
        Ok(report)
    }
}

impl Default for MappingRead {
    fn default() -> Self {
        MappingRead::new()
    }
}
