//! Tables: the rows of a dataset, its drawn chart, and the LMUI `table`
//! component, for the format compilers of [`crate::plan::Node::Table`].
//!
//! JSON Forms and RJSF draw the table themselves from the read-only array
//! schema; LMUI has no such renderer, so it gets
//! our `table` component (`schemas/lmui-message.schema.json`, an extension
//! of seed 003, which defines none): `{type: "table", id, label, columns:
//! [{key, label, type}], rows: [...]}`.

use super::chart;
use crate::plan::data::{Dataset, Shape};
use crate::plan::Table;
use serde_json::{json, Value};

/// The rows of a dataset as objects: records as sent, a bare number `n` as
/// `{"value": n}` (the one column of a series).
pub(crate) fn rows(dataset: &Dataset, data: &Value) -> Vec<Value> {
    let Some(Value::Array(items)) = data.pointer(&dataset.data_pointer) else {
        return Vec::new();
    };
    match dataset.shape {
        Shape::Numbers => items.iter().map(|n| json!({"value": n})).collect(),
        Shape::Records | Shape::Empty => items.clone(),
    }
}

/// The id of a dataset's chart, when it has one.
pub(crate) fn chart_id(dataset: &Dataset) -> Option<String> {
    dataset
        .chart
        .as_ref()
        .map(|_| format!("{}-chart", dataset.id))
}

/// A dataset's chart drawn over its rows of `data` (Vega-Lite v5, values
/// filled in), when it has one.
pub(crate) fn draw(dataset: &Dataset, data: &Value) -> Option<Value> {
    let chart = dataset.chart.as_ref()?;
    Some(chart::vega_lite(chart, &dataset.title, rows(dataset, data)))
}

/// The top-level `charts` of a JSON Forms or RJSF display:
/// `[{id, title, vegaLite}]`, one per table that has a chart.
pub(crate) fn charts(tables: &[&Table], data: &Value) -> Value {
    let drawn = tables.iter().filter_map(|t| {
        let (id, spec) = (chart_id(&t.dataset)?, draw(&t.dataset, data)?);
        Some(json!({"id": id, "title": t.dataset.title, "vegaLite": spec}))
    });
    Value::Array(drawn.collect())
}

/// The LMUI `table` component of a dataset.
pub(crate) fn lmui_table(dataset: &Dataset, rows: Vec<Value>) -> Value {
    json!({
        "type": "table",
        "id": dataset.id,
        "label": dataset.title,
        "columns": dataset.columns,
        "rows": rows,
        "read_only": true,
    })
}
