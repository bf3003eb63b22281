//! Display UIs: a read-only view of `data` (tables and charts) instead of
//! an input form, for AG-UI's "data visualization" use case.
//!
//! When a request has no `output` (or an empty one: `{}`, or an object
//! schema without properties) and its `data` holds records or series, there
//! is nothing for the user to send back: the agent wants the data *shown*.
//! Then:
//!
//! 1. [`infer`] reads the data's shape (never its values) into a
//!    [`DisplaySpec`] (datasets, their columns, a chart choice) and a
//!    data-free JSON Schema marked `readOnly`; that schema takes `output`'s
//!    place in the pipeline, so caching, proving and rendering work as for a
//!    form;
//! 2. [`plan`] is the form plan: one read-only array control per dataset;
//! 3. [`project`] finishes each format's answer: read-only table options,
//!    `charts` (Vega-Lite v5 specs with the values filled in at render
//!    time, see [`chart`]), LMUI `table` and `chart` components, and
//!    `kind: "display"` in the meta. A display has no submit.
//!
//! The spec (and so KV) holds only the shape: column names, types, formats,
//! mark and encodings. Data values only ever enter a response.

pub mod chart;
pub mod infer;
pub mod project;
pub mod table;

use crate::error::{Error, ErrorCode, Result};
use crate::plan::{Control, Node, Plan, Widget};
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use project::project;

/// At most this many rows per dataset; more is refused (page or aggregate
/// first: a person cannot read more, and every row is examined).
pub const MAX_ROWS: usize = 2_000;
/// At most this many distinct columns per dataset.
pub const MAX_COLUMNS: usize = 64;
/// At most this many datasets (array properties of an object `data`).
pub const MAX_DATASETS: usize = 8;

/// The data-free description of a display, cached inside the spec.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DisplaySpec {
    /// What is shown, in order.
    pub datasets: Vec<Dataset>,
}

/// One array of the data, shown as a table and perhaps a chart.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Dataset {
    /// Stable id (component and chart ids derive from it).
    pub id: String,
    /// Human title.
    pub title: String,
    /// JSON Pointer of the array in `data` (`""` when `data` is the array).
    pub data_pointer: String,
    /// JSON Pointer of the array's schema in the inferred schema.
    pub schema_pointer: String,
    /// Records (objects), a bare series of numbers, or nothing.
    pub shape: Shape,
    /// The table's columns (for [`Shape::Numbers`]: the one `value` column).
    pub columns: Vec<Column>,
    /// The chart, when the data has numbers to plot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chart: Option<chart::Chart>,
}

/// What the rows of a dataset are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Shape {
    /// Objects, one per row.
    Records,
    /// Numbers, one per row (shown as a `value` column).
    Numbers,
    /// An empty array.
    Empty,
}

/// One column of a table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Column {
    /// The property name in each record.
    pub key: String,
    /// Human label.
    pub label: String,
    /// What every non-null value of the column is.
    #[serde(rename = "type")]
    pub kind: ColumnType,
}

/// The type of a column, as the LMUI `table` contract names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ColumnType {
    /// Text.
    String,
    /// Any number.
    Number,
    /// Whole numbers only.
    Integer,
    /// true/false.
    Boolean,
    /// `YYYY-MM-DD`.
    Date,
    /// RFC 3339 date-time.
    DateTime,
    /// An e-mail address.
    Email,
    /// A URL.
    Uri,
    /// Objects or arrays (shown as JSON).
    Json,
    /// Values of more than one type.
    Mixed,
}

impl ColumnType {
    /// Whether a chart can use the column as a measure.
    pub fn is_numeric(self) -> bool {
        matches!(self, Self::Number | Self::Integer)
    }

    /// Whether a chart can use the column as a time axis.
    pub fn is_temporal(self) -> bool {
        matches!(self, Self::Date | Self::DateTime)
    }
}

/// Whether `data` is something a display can show: an array of objects, an
/// array of numbers, an empty array, or an object with such an array among
/// its properties.
pub fn is_displayable(data: Option<&Value>) -> bool {
    match data {
        Some(Value::Array(items)) => items.is_empty() || infer::row_shape(items).is_some(),
        Some(Value::Object(map)) => {
            map.iter().any(|(k, v)| infer::showable_name(k) && matches!(v, Value::Array(items) if !items.is_empty() && infer::row_shape(items).is_some()))
        }
        _ => false,
    }
}

/// Whether `output` asks for nothing back: `{}`, or an object schema
/// without properties (titles and descriptions allowed).
pub fn is_empty_output(output: &Value) -> bool {
    let Value::Object(map) = output else { return false };
    let says_nothing = |key: &str| matches!(key, "type" | "title" | "description" | "$schema" | "$id" | "$comment");
    map.iter().all(|(k, _)| says_nothing(k)) && map.get("type").is_none_or(|t| t == "object")
}

/// The display a request asks for, if any: `output` is empty and `data`
/// holds records or series. Returns the spec and the inferred schema that
/// replaces `output`. `data_base` is the JSON Pointer of `data` in the body.
pub fn detect(output: &Value, data: &Value, description: &str, data_base: &str, limits: &crate::Limits) -> Result<Option<(DisplaySpec, Value)>> {
    if !is_empty_output(output) || !is_displayable(Some(data)) {
        return Ok(None);
    }
    infer::infer(data, output, description, data_base, limits).map(Some)
}

/// The form plan of a display: one read-only array control per dataset,
/// titled from the inferred schema's title or the description.
pub fn plan(display: &DisplaySpec, schema: &Value, description: &str) -> Plan {
    let title = crate::plan::generate::labels::form_title(schema.get("title").and_then(Value::as_str), description);
    let controls = display.datasets.iter().map(|d| {
        Node::Control(Control { read_only: true, ..Control::new(d.schema_pointer.clone(), d.title.clone(), Widget::Array) })
    });
    let mut plan = Plan { title, root: Node::Vertical { elements: controls.collect() } };
    // The same clean-up as generated forms get: titles are plain text.
    crate::plan::sanitize::sanitize_plan(&mut plan);
    plan
}

/// The answer to `/v1/submit` naming a display's spec: there is nothing to
/// submit.
pub fn no_submit() -> Error {
    Error::new(
        ErrorCode::InvalidRequest,
        "this specHash names a read-only display (meta.kind = \"display\"): it has no submit; only forms take /v1/submit",
    )
    .at("/specHash")
    .with("kind", "display")
}

/// Data beyond a display limit, at its JSON Pointer in the body.
pub(crate) fn too_large(what: &str, limit: usize, pointer: String) -> Error {
    Error::new(
        ErrorCode::InvalidRequest,
        format!("data has more than {limit} {what} to display (exceeded at {pointer}); page, aggregate or summarise it first"),
    )
    .at(pointer)
    .with("limit", limit)
}
