//! A call tree as flat columns for the page.

use droidflame_core::products;
use wasm_bindgen::prelude::*;

/// A call tree's columns (`Session.callTree`), each read once: `names` as JSON text, the
/// others as typed arrays (times in whole µs, exact as doubles).
#[wasm_bindgen]
pub struct CallTreeColumns {
    pub(crate) table: products::CallTreeTable,
}

fn doubles(column: &[u64]) -> Vec<f64> {
    column.iter().map(|&v| v as f64).collect()
}

#[wasm_bindgen]
impl CallTreeColumns {
    /// The frame names (and thread labels) that `name` indexes, as a JSON array.
    #[wasm_bindgen(js_name = namesJson)]
    pub fn names_json(&self) -> String {
        serde_json::to_string(&self.table.names).expect("names serialise")
    }
    /// Each node's parent (4294967295 for node 0).
    pub fn parent(&self) -> Vec<u32> {
        self.table.parent.clone()
    }
    /// Each node's name, an index into the names (4294967295 for node 0).
    pub fn name(&self) -> Vec<u32> {
        self.table.name.clone()
    }
    #[wasm_bindgen(js_name = totalWall)]
    pub fn total_wall(&self) -> Vec<f64> {
        doubles(&self.table.total_wall)
    }
    #[wasm_bindgen(js_name = selfWall)]
    pub fn self_wall(&self) -> Vec<f64> {
        doubles(&self.table.self_wall)
    }
    #[wasm_bindgen(js_name = totalCpu)]
    pub fn total_cpu(&self) -> Vec<f64> {
        doubles(&self.table.total_cpu)
    }
    #[wasm_bindgen(js_name = selfCpu)]
    pub fn self_cpu(&self) -> Vec<f64> {
        doubles(&self.table.self_cpu)
    }
    pub fn calls(&self) -> Vec<f64> {
        doubles(&self.table.calls)
    }
}
