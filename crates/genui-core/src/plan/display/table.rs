//! Tables: the rows of a dataset, and the LMUI `table` component.
//!
//! JSON Forms and RJSF draw the table themselves from the read-only array
//! schema (see [`super::project`]); LMUI has no such renderer, so it gets
//! our `table` component (`schemas/lmui-message.schema.json`, an extension
//! of seed 003, which defines none): `{type: "table", id, label, columns:
//! [{key, label, type}], rows: [...]}`.

use super::{Dataset, Shape};
use serde_json::{json, Value};

/// The rows of a dataset as objects: records as sent, a bare number `n` as
/// `{"value": n}` (the one column of a series).
pub fn rows(dataset: &Dataset, data: &Value) -> Vec<Value> {
    let Some(Value::Array(items)) = data.pointer(&dataset.data_pointer) else { return Vec::new() };
    match dataset.shape {
        Shape::Numbers => items.iter().map(|n| json!({"value": n})).collect(),
        Shape::Records | Shape::Empty => items.clone(),
    }
}

/// The LMUI `table` component of a dataset.
pub fn lmui_table(dataset: &Dataset, rows: Vec<Value>) -> Value {
    json!({
        "type": "table",
        "id": dataset.id,
        "label": dataset.title,
        "columns": dataset.columns,
        "rows": rows,
        "read_only": true,
    })
}
