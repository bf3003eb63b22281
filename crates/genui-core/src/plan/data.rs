//! What a display shows, without its data: the datasets (arrays of the
//! request's `data`), their columns, and the chart drawn from each. These
//! are the contents of a plan's [`crate::plan::Node::Table`] nodes; they
//! name data by JSON Pointer and never hold a value of it.

use serde::{Deserialize, Serialize};

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
    pub chart: Option<Chart>,
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

/// A chart, without its data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Chart {
    /// `bar`, `line` or `point`.
    pub mark: Mark,
    /// The horizontal axis.
    pub x: Channel,
    /// The vertical axis.
    pub y: Channel,
    /// Series colour, when there are several series.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<Channel>,
    /// Derived fields (row index, folded measures), applied in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub transform: Vec<Transform>,
}

/// Vega-Lite marks used here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Mark {
    /// Bars per category.
    Bar,
    /// A line over an ordered x.
    Line,
    /// A scatter plot.
    Point,
}

/// One encoding channel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Channel {
    /// The field (a column key, or a derived field).
    pub field: String,
    /// Vega-Lite measurement type: `nominal`, `quantitative` or `temporal`.
    #[serde(rename = "type")]
    pub measure: String,
    /// Axis or legend title.
    pub title: String,
    /// `sum` when categories repeat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aggregate: Option<String>,
}

/// A derived field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub enum Transform {
    /// The row's position (1-based), as field `as`.
    RowNumber {
        /// The new field.
        #[serde(rename = "as")]
        name: String,
    },
    /// Several measures into `[key, value]` rows (one series per measure).
    Fold {
        /// The measures.
        fields: Vec<String>,
        /// The series name field and the value field.
        #[serde(rename = "as")]
        names: [String; 2],
    },
}

impl Transform {
    /// The fields this transform adds to each row.
    pub fn fields_made(&self) -> Vec<&str> {
        match self {
            Self::RowNumber { name } => vec![name.as_str()],
            Self::Fold { names, .. } => names.iter().map(String::as_str).collect(),
        }
    }
}
