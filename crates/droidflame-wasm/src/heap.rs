//! A heap dump's tables as JSON text: classes (or packages), objects, one object in full,
//! leaks, and two dumps compared. Object ids cross as `0x…` text (JS numbers hold only 53
//! bits of a 64-bit id).

use crate::convert::js_error;
use crate::session::Session;
use droidflame_core::products::{self, object_id, ObjectQuery, ObjectRow};
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

fn object(r: &ObjectRow) -> Value {
    json!({ "id": object_id(r.id), "class": r.class, "heap": r.heap, "shallow": r.shallow,
            "retained": r.retained, "dominator": r.dominator.map(object_id) })
}

fn parse_id(text: &str) -> Result<u64, JsError> {
    let hex = text.trim().trim_start_matches("0x").trim_start_matches("0X");
    u64::from_str_radix(hex, 16).map_err(|_| JsError::new(&format!("{text}: not an object id (0x12c0a5e8)")))
}

#[wasm_bindgen]
impl Session {
    /// Whether this is a heap dump (which a viewer opens on its tables, not a graph).
    #[wasm_bindgen(js_name = isHeapDump)]
    pub fn is_heap_dump(&self) -> Result<bool, JsError> {
        Ok(self.profile()?.profile.heap_graph.is_some())
    }

    /// Classes (or, `by_package`, packages) with a strongly reachable instance, in heap
    /// `heap` where one is named: `[{name, count, shallow, retained}]`, largest retained first.
    #[wasm_bindgen(js_name = heapClassesJson)]
    pub fn heap_classes_json(&self, heap: Option<String>, by_package: bool) -> Result<String, JsError> {
        let profile = &self.profile()?.profile;
        let heap = heap.as_deref().filter(|h| !h.is_empty());
        let rows = match by_package {
            true => products::heap_packages(profile, heap),
            false => products::heap_classes(profile, heap),
        }
        .map_err(js_error)?;
        let list: Vec<Value> = rows
            .iter()
            .map(|r| json!({ "name": r.name, "count": r.count, "shallow": r.shallow, "retained": r.retained }))
            .collect();
        Ok(Value::Array(list).to_string())
    }

    /// Strongly reachable objects by retained bytes (at most `top`, of class `class`, in heap
    /// `heap`): `[{id, class, heap, shallow, retained, dominator}]`.
    #[wasm_bindgen(js_name = heapObjectsJson)]
    pub fn heap_objects_json(
        &self,
        top: Option<u32>,
        class: Option<String>,
        heap: Option<String>,
    ) -> Result<String, JsError> {
        let query = ObjectQuery {
            top: top.map(|n| n as usize),
            class: class.filter(|c| !c.is_empty()),
            heap: heap.filter(|h| !h.is_empty()),
        };
        let rows = products::heap_objects(&self.profile()?.profile, &query).map_err(js_error)?;
        Ok(Value::Array(rows.iter().map(object).collect()).to_string())
    }

    /// Object `id` in full: `{object, dominator, reachability, path: [{id, class, via}], references:
    /// [{via, object}], referrers: [{object, via}], referrer_count, dominated: [object],
    /// dominated_count, fields: [{name, type, value, object, class, text}], text, elements}`: a
    /// reference field's `object` is the id it holds, `class` that object's, `text` a string's.
    #[wasm_bindgen(js_name = heapObjectJson)]
    pub fn heap_object_json(&self, id: &str) -> Result<String, JsError> {
        let d = products::heap_object(&self.profile()?.profile, parse_id(id)?).map_err(js_error)?;
        let path: Vec<Value> =
            d.path.iter().map(|s| json!({ "id": object_id(s.id), "class": s.class, "via": s.via })).collect();
        Ok(json!({
            "object": object(&d.object),
            "dominator": d.dominator.as_ref().map(object),
            "reachability": d.reachability,
            "path": path,
            "references": d.references.iter().map(|(via, r)| json!({ "via": via, "object": object(r) })).collect::<Vec<_>>(),
            "referrers": d.referrers.iter().map(|(r, via)| json!({ "via": via, "object": object(r) })).collect::<Vec<_>>(),
            "referrer_count": d.referrer_count,
            "dominated": d.dominated.iter().map(object).collect::<Vec<_>>(),
            "dominated_count": d.dominated_count,
            "fields": d.fields.iter().map(|f| json!({ "name": f.name, "type": f.kind, "value": f.value,
                "object": f.object.map(object_id), "class": f.class, "text": f.text })).collect::<Vec<_>>(),
            "text": d.text,
            "elements": d.elements,
        })
        .to_string())
    }

    /// Leaks: `{leaks: [{id, class, retained, reason, path}], none}`; `grouped`: `leaks`
    /// is `[{count, class, retained, reason, path}]`, one per path; `none` is what to say
    /// where there are none (the kinds looked for).
    #[wasm_bindgen(js_name = heapLeaksJson)]
    pub fn heap_leaks_json(&self, grouped: bool) -> Result<String, JsError> {
        let profile = &self.profile()?.profile;
        let leaks = products::heap_leaks(profile).map_err(js_error)?;
        let list: Vec<Value> = match grouped {
            true => products::group_leaks(&leaks)
                .iter()
                .map(|g| json!({ "count": g.count, "class": g.class, "retained": g.retained, "reason": g.reason, "path": g.path }))
                .collect(),
            false => leaks
                .iter()
                .map(|l| json!({ "id": object_id(l.id), "class": l.class, "retained": l.retained, "reason": l.reason, "path": l.path }))
                .collect(),
        };
        let none = products::no_leaks_words(profile).map_err(js_error)?;
        Ok(json!({ "leaks": list, "none": none }).to_string())
    }

    /// Copies of equal contents, the most bytes wasted first (at most `top`): `[{kind,
    /// class, count, bytes, wasted, example, preview}]`.
    #[wasm_bindgen(js_name = heapDuplicatesJson)]
    pub fn heap_duplicates_json(&self, top: Option<u32>) -> Result<String, JsError> {
        let rows = products::heap_duplicates(&self.profile()?.profile).map_err(js_error)?;
        let list: Vec<Value> = rows
            .iter()
            .take(top.map_or(usize::MAX, |n| n as usize))
            .map(|d| {
                json!({ "kind": d.kind, "class": d.class, "count": d.count, "bytes": d.bytes,
                "wasted": d.wasted, "example": object_id(d.example), "preview": d.preview })
            })
            .collect();
        Ok(Value::Array(list).to_string())
    }

    /// This dump against `after`, class by class: `[{class, before: {count, shallow,
    /// retained}, after: {…}}]`, the largest change of retained bytes first.
    #[wasm_bindgen(js_name = heapDiffJson)]
    pub fn heap_diff_json(&self, after: &Session) -> Result<String, JsError> {
        let changes = products::heap_diff(&self.profile()?.profile, &after.profile()?.profile).map_err(js_error)?;
        let side = |s: (u64, u64, u64)| json!({ "count": s.0, "shallow": s.1, "retained": s.2 });
        let list: Vec<Value> = changes
            .iter()
            .map(|c| json!({ "class": c.class, "before": side(c.before), "after": side(c.after) }))
            .collect();
        Ok(Value::Array(list).to_string())
    }
}

/// A series of dumps, taken after each repetition of a scenario: each session is reduced
/// into it as it is added and can be freed at once (the page holds one dump at a time).
#[wasm_bindgen]
pub struct DumpSeries {
    inner: products::HeapSeries,
    names: Vec<String>,
}

#[wasm_bindgen]
impl DumpSeries {
    #[wasm_bindgen(constructor)]
    pub fn new() -> DumpSeries {
        DumpSeries { inner: products::HeapSeries::default(), names: Vec::new() }
    }

    /// The next dump, named `name`, taken after those added before.
    pub fn add(&mut self, name: &str, dump: &Session) -> Result<(), JsError> {
        self.inner.add(&dump.profile()?.profile).map_err(js_error)?;
        self.names.push(name.to_owned());
        Ok(())
    }

    /// What grows at every step: `{dumps: [name], reordered, classes: [{name, counts,
    /// bytes, objects_per_step, bytes_per_step}], paths: [...]}`, at most `top` of each,
    /// the most bytes added per step first; `dumps` in the order counted (`reordered`:
    /// by the times the dumps record, not as added).
    #[wasm_bindgen(js_name = growthJson)]
    pub fn growth_json(&self, top: Option<u32>) -> Result<String, JsError> {
        let growth = self.inner.growth().map_err(js_error)?;
        let rows = |rows: &[products::SeriesRow]| -> Vec<Value> {
            rows.iter()
                .take(top.map_or(usize::MAX, |n| n as usize))
                .map(|r| {
                    json!({ "name": r.name, "counts": r.counts, "bytes": r.bytes,
                            "objects_per_step": r.objects_per_step(), "bytes_per_step": r.bytes_per_step() })
                })
                .collect()
        };
        let dumps: Vec<&String> = growth.order.iter().map(|&d| &self.names[d]).collect();
        let reordered = growth.order.iter().enumerate().any(|(at, &d)| at != d);
        Ok(json!({ "dumps": dumps, "reordered": reordered, "classes": rows(&growth.classes), "paths": rows(&growth.paths),
                   "classes_total": growth.classes.len(), "paths_total": growth.paths.len() })
        .to_string())
    }
}

impl Default for DumpSeries {
    fn default() -> Self {
        DumpSeries::new()
    }
}
