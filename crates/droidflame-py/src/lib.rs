//! `droidflame._native`: the core's products as tables pyarrow imports without copying.
//! Only translation: Python values in, the core's products out as columns, the core's
//! errors as `DroidflameError` with the CLI's message. `python/droidflame` wraps it.

mod heap;
mod reading;
mod runs;
mod table;

use arrow_array::types::UInt32Type;
use arrow_array::{DictionaryArray, Int64Array, StringArray, UInt32Array, UInt64Array};
use droidflame_core::products::{self, CallQuery, FoldedOptions};
use droidflame_core::{Analysis, Clock, Options};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use reading::{failed, DroidflameError, Reading};
use std::sync::Arc;
use table::{ArrowBatch, Columns};

/// One analysed trace.
#[pyclass(frozen, module = "droidflame._native")]
struct Profile {
    analysis: Analysis,
    /// The trace's bytes: its calls are read again from them when asked for.
    data: Py<PyBytes>,
    label: String,
    reading: Reading,
}

/// Analyses `data` (a trace's bytes; `label` names it in errors).
#[pyfunction]
#[pyo3(signature = (data, label, clock = None, mapping = None, source = None))]
fn analyze(
    py: Python<'_>,
    data: Bound<'_, PyBytes>,
    label: String,
    clock: Option<&str>,
    mapping: Option<Vec<u8>>,
    source: Option<&str>,
) -> PyResult<Profile> {
    let reading = Reading::new(clock, mapping, source)?;
    let bytes = data.as_bytes();
    let analysis = py.detach(|| reading.read(bytes, Options::default())).map_err(|e| failed(&label, e))?;
    Ok(Profile { analysis, data: data.unbind(), label, reading })
}

#[pymethods]
impl Profile {
    /// The summary JSON (`"schema": 1`).
    fn summary_json(&self) -> String {
        products::summary_json(&self.analysis)
    }

    /// The summary's threads: one row each.
    fn threads(&self) -> PyResult<ArrowBatch> {
        let threads = products::summary(&self.analysis).threads;
        let mut columns = Columns::default();
        columns
            .push("tid", Int64Array::from_iter_values(threads.iter().map(|t| t.tid)))
            .push("name", StringArray::from_iter_values(threads.iter().map(|t| t.name)))
            .push("records", UInt64Array::from_iter_values(threads.iter().map(|t| t.records)))
            .push("wall_us", UInt64Array::from_iter(threads.iter().map(|t| t.wall_us)))
            .push("cpu_us", UInt64Array::from_iter(threads.iter().map(|t| t.cpu_us)))
            .push("max_depth", UInt64Array::from_iter_values(threads.iter().map(|t| t.max_depth as u64)))
            .push("pid", UInt32Array::from_iter(threads.iter().map(|t| t.pid)))
            .push("process", StringArray::from_iter(threads.iter().map(|t| t.process)));
        columns.finish()
    }

    /// The summary's methods (every frame with calls): one row each.
    fn methods(&self) -> PyResult<ArrowBatch> {
        let methods = products::summary(&self.analysis).methods;
        let mut columns = Columns::default();
        columns
            .push("name", StringArray::from_iter_values(methods.iter().map(|m| m.name.as_str())))
            .push("class", StringArray::from_iter_values(methods.iter().map(|m| m.class)))
            .push("method", StringArray::from_iter_values(methods.iter().map(|m| m.method)))
            .push("signature", StringArray::from_iter_values(methods.iter().map(|m| m.signature)))
            .push("source", StringArray::from_iter(methods.iter().map(|m| m.source)))
            .push("calls", UInt64Array::from_iter(methods.iter().map(|m| m.calls)))
            .push("recursive_calls", UInt64Array::from_iter_values(methods.iter().map(|m| m.recursive_calls)))
            .push("incl_wall_us", UInt64Array::from_iter(methods.iter().map(|m| m.times.incl_wall_us)))
            .push("excl_wall_us", UInt64Array::from_iter(methods.iter().map(|m| m.times.excl_wall_us)))
            .push("incl_cpu_us", UInt64Array::from_iter(methods.iter().map(|m| m.times.incl_cpu_us)))
            .push("excl_cpu_us", UInt64Array::from_iter(methods.iter().map(|m| m.times.excl_cpu_us)));
        columns.finish()
    }

    /// Every call, as `droidflame calls` lists them (start order); the trace is read again
    /// with its calls kept. `frame` is dictionary-encoded: one string per frame, not per call.
    fn calls(&self, py: Python<'_>) -> PyResult<ArrowBatch> {
        let bytes = self.data.bind(py).as_bytes();
        let options = Options { keep_calls: true, max_calls: u64::MAX, ..Options::default() };
        let (analysis, calls) = py
            .detach(|| {
                let analysis = self.reading.read(bytes, options)?;
                let calls = products::select_calls(&analysis.profile, &CallQuery::default())?;
                Ok::<_, droidflame_core::Error>((analysis, calls))
            })
            .map_err(|e| failed(&self.label, e))?;
        let (wall, cpu) = (analysis.profile.has(Clock::Wall), analysis.profile.has(Clock::Cpu));
        let frames = StringArray::from_iter_values(
            (0..analysis.profile.frames.len() as u32).map(|f| analysis.profile.frame_name(f)),
        );
        let keys = UInt32Array::from_iter_values(calls.iter().map(|c| c.call.frame));
        let frame = DictionaryArray::<UInt32Type>::try_new(keys, Arc::new(frames))
            .map_err(|e| failed(&self.label, format!("internal error: {e}")))?;
        let mut columns = Columns::default();
        columns
            .push(
                "tid",
                UInt32Array::from_iter_values(calls.iter().map(|c| analysis.profile.stacks().threads[c.thread].tid)),
            )
            .push("depth", UInt32Array::from_iter_values(calls.iter().map(|c| c.depth)))
            .push("start_us", UInt64Array::from_iter_values(calls.iter().map(|c| c.start_us)))
            .push("end_us", UInt64Array::from_iter_values(calls.iter().map(|c| c.end_us)))
            .push("wall_us", UInt64Array::from_iter(calls.iter().map(|c| wall.then(|| c.end_us - c.start_us))))
            .push(
                "cpu_us",
                UInt64Array::from_iter(calls.iter().map(|c| cpu.then(|| analysis.profile.micros(c.call.cpu)))),
            )
            .push("frame", frame);
        columns.finish()
    }

    /// Folded stacks (`stack`, `value`: self time in µs on the profile's clock), the
    /// thread's frame first (`name [tid]`); with `thread`, only that thread's, without it.
    #[pyo3(signature = (thread = None))]
    fn folded(&self, thread: Option<u32>) -> PyResult<ArrowBatch> {
        let options = FoldedOptions { clock: self.reading.clock, thread, ..FoldedOptions::default() };
        let (mut stacks, mut values) = (Vec::new(), Vec::new());
        products::for_each_folded_line(&self.analysis.profile, &options, |stack, value| {
            stacks.push(stack.to_owned());
            values.push(value);
            Ok(())
        })
        .map_err(|e| failed(&self.label, e))?;
        let mut columns = Columns::default();
        columns.push("stack", StringArray::from(stacks)).push("value", UInt64Array::from(values));
        columns.finish()
    }

    /// A heap dump's classes with a strongly reachable instance (in heap `heap`): class,
    /// count, shallow, retained.
    #[pyo3(signature = (heap = None))]
    fn classes(&self, heap: Option<&str>) -> PyResult<ArrowBatch> {
        heap::classes(&self.analysis.profile, &self.label, heap)
    }

    /// A heap dump's strongly reachable objects by retained bytes: id, class, heap,
    /// shallow, retained, dominator (null: the GC roots together).
    #[pyo3(signature = (top = None, class_name = None, heap = None))]
    fn objects(&self, top: Option<usize>, class_name: Option<String>, heap: Option<String>) -> PyResult<ArrowBatch> {
        let query = products::ObjectQuery { top, class: class_name, heap };
        heap::objects(&self.analysis.profile, &self.label, query)
    }

    /// A heap dump's leaks: id, class, retained, reason, path; `grouped`: count, class,
    /// retained, reason, path, one row per path.
    #[pyo3(signature = (grouped = false))]
    fn leaks(&self, grouped: bool) -> PyResult<ArrowBatch> {
        heap::leaks(&self.analysis.profile, &self.label, grouped)
    }

    /// A heap dump's copies of equal contents: kind, class, count, bytes, wasted, example,
    /// preview, the most bytes wasted first.
    fn duplicates(&self) -> PyResult<ArrowBatch> {
        heap::duplicates(&self.analysis.profile, &self.label)
    }

    /// This dump (before) against `after`, class by class.
    fn compare_dump(&self, after: &Profile) -> PyResult<ArrowBatch> {
        heap::compare(&self.analysis.profile, &after.analysis.profile, &after.label)
    }
}

/// Dumps taken after each repetition of a scenario (three or more): the classes, or
/// (`paths`) the paths from the GC roots, whose count grows at every step.
#[pyfunction]
#[pyo3(signature = (dumps, paths = false))]
fn dump_series(dumps: Vec<PyRef<'_, Profile>>, paths: bool) -> PyResult<ArrowBatch> {
    let profiles: Vec<&droidflame_core::Profile> = dumps.iter().map(|d| &d.analysis.profile).collect();
    heap::series(&profiles, paths)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("DroidflameError", m.py().get_type::<DroidflameError>())?;
    m.add_class::<Profile>()?;
    m.add_class::<ArrowBatch>()?;
    m.add_function(wrap_pyfunction!(analyze, m)?)?;
    m.add_function(wrap_pyfunction!(runs::compare_runs, m)?)?;
    m.add_function(wrap_pyfunction!(dump_series, m)?)?;
    Ok(())
}
