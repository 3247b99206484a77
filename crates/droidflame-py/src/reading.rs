//! How a trace is read (the options the CLI takes), and how a failure reaches Python.

use droidflame_core::{Analysis, Clock, Options, SourceKind};
use pyo3::prelude::*;
use std::sync::Arc;

pyo3::create_exception!(
    _native,
    DroidflameError,
    pyo3::exceptions::PyValueError,
    "A trace or a request droidflame cannot use: the message says what is wrong and where."
);

/// The CLI's message for a failure with `label` (a file's name).
pub(crate) fn failed(label: &str, e: impl std::fmt::Display) -> PyErr {
    DroidflameError::new_err(format!("{label}: {e}"))
}

/// How a trace is read: the same options the CLI takes.
#[derive(Clone)]
pub(crate) struct Reading {
    pub clock: Option<Clock>,
    pub mapping: Option<Arc<Vec<u8>>>,
    pub source: Option<SourceKind>,
}

impl Reading {
    pub(crate) fn new(clock: Option<&str>, mapping: Option<Vec<u8>>, source: Option<&str>) -> PyResult<Reading> {
        let clock = clock
            .map(|name| {
                Clock::parse(name)
                    .ok_or_else(|| DroidflameError::new_err(format!("clock {name:?}: use \"wall\" or \"cpu\"")))
            })
            .transpose()?;
        let source = source
            .map(|name| SourceKind::named(name).map_err(|e| DroidflameError::new_err(format!("source {e}"))))
            .transpose()?;
        Ok(Reading { clock, mapping: mapping.map(Arc::new), source })
    }

    /// `bytes` analysed, the mapping applied and the source chosen.
    pub(crate) fn read(&self, bytes: &[u8], options: Options) -> droidflame_core::Result<Analysis> {
        let mut analysis = droidflame_core::analyze_with(bytes, options)?;
        if let Some(mapping) = &self.mapping {
            analysis.deobfuscate_with(mapping)?;
        }
        if let Some(kind) = self.source {
            analysis.profile.select_source(kind)?;
        }
        Ok(analysis)
    }
}
