//! Columns built here and handed to pyarrow through Arrow's C data interface
//! (`__arrow_c_array__`): pyarrow takes the buffers over, nothing is copied.

use arrow_array::ffi::to_ffi;
use arrow_array::{Array, ArrayRef, StructArray};
use arrow_data::ArrayData;
use arrow_schema::{Field, Fields};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyCapsule;
use std::sync::Arc;

/// A table being built, column by column.
#[derive(Default)]
pub struct Columns {
    fields: Vec<Field>,
    arrays: Vec<ArrayRef>,
}

impl Columns {
    /// Adds the column `name`; every column must have the same length. Every column may
    /// hold nulls, whatever this table holds, so that the tables of many traces share one
    /// schema and concatenate.
    pub fn push(&mut self, name: &str, array: impl Array + 'static) -> &mut Self {
        self.fields.push(Field::new(name, array.data_type().clone(), true));
        self.arrays.push(Arc::new(array));
        self
    }

    /// The table as one Arrow record batch that pyarrow can import.
    pub fn finish(self) -> PyResult<ArrowBatch> {
        let array = StructArray::try_new(Fields::from(self.fields), self.arrays, None)
            .map_err(|e| PyValueError::new_err(format!("internal error: a table's columns disagree: {e}")))?;
        Ok(ArrowBatch { data: array.into_data() })
    }
}

/// A record batch that pyarrow imports with `pyarrow.record_batch(batch)`.
#[pyclass(frozen, module = "droidflame._native")]
pub struct ArrowBatch {
    data: ArrayData,
}

#[pymethods]
impl ArrowBatch {
    /// The Arrow PyCapsule interface: a schema capsule and an array capsule. Each call
    /// exports the same buffers again (shared, not copied).
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_array__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyCapsule>, Bound<'py, PyCapsule>)> {
        // The schema is ours to choose: a requested one is a hint we may ignore.
        let _ = requested_schema;
        let (array, schema) =
            to_ffi(&self.data).map_err(|e| PyValueError::new_err(format!("internal error: cannot export: {e}")))?;
        let schema = PyCapsule::new_with_value(py, schema, c"arrow_schema")?;
        let array = PyCapsule::new_with_value(py, array, c"arrow_array")?;
        Ok((schema, array))
    }

    /// Rows in the batch.
    fn __len__(&self) -> usize {
        self.data.len()
    }
}
