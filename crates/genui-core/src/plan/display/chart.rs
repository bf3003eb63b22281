//! Charts: which one fits a dataset's shape, and its Vega-Lite v5 spec.
//!
//! The choice (mark, encodings, transforms) is data-free and cached; the
//! values go into `data.values` only when a response is rendered.
//!
//! - a string category with numbers: `bar` (summed when a category repeats;
//!   several measures side by side, folded into one `series` colour);
//! - a date or date-time with numbers: `line` (several measures folded, or
//!   one measure coloured by a repeating category such as a region);
//! - two or more numbers and nothing else: `line` when the first is
//!   strictly increasing (an ordered x), else `point` (a scatter of the
//!   first two);
//! - one number per row, or a bare array of numbers: `line` over the row
//!   index.

use crate::plan::data::{Channel, Chart, Column, ColumnType, Mark, Shape, Transform};
use serde_json::{json, Map, Value};
use std::collections::HashSet;

/// The Vega-Lite schema every chart declares (and is tested against).
pub(crate) const VEGA_LITE_SCHEMA: &str = "https://vega.github.io/schema/vega-lite/v5.json";

/// At most this many measures are folded into one chart.
const MAX_SERIES: usize = 8;
/// A category colours lines only when it has at most this many values.
const MAX_COLORS: usize = 12;

fn channel(field: &str, measure: &str, title: &str) -> Channel {
    Channel {
        field: field.to_owned(),
        measure: measure.to_owned(),
        title: title.to_owned(),
        aggregate: None,
    }
}

/// The chart that fits a dataset, if it has numbers to plot.
pub(crate) fn choose(shape: Shape, columns: &[Column], rows: &[Value]) -> Option<Chart> {
    match shape {
        Shape::Empty => None,
        Shape::Numbers => Some(over_index(columns, "value", "Value")),
        Shape::Records => records(columns, rows),
    }
}

fn records(columns: &[Column], rows: &[Value]) -> Option<Chart> {
    let measures: Vec<&Column> = columns
        .iter()
        .filter(|c| c.kind.is_numeric())
        .take(MAX_SERIES)
        .collect();
    if measures.is_empty() {
        return None;
    }
    let time = columns.iter().find(|c| c.kind.is_temporal());
    let category = columns.iter().find(|c| c.kind == ColumnType::String);
    if let Some(time) = time {
        let x = channel(&time.key, "temporal", &time.label);
        let color_by = category.filter(|c| is_series_key(&c.key, rows));
        return Some(series(Mark::Line, x, &measures, color_by, columns));
    }
    if let Some(category) = category {
        let x = channel(&category.key, "nominal", &category.label);
        let mut chart = series(Mark::Bar, x, &measures, None, columns);
        if distinct(&category.key, rows) < rows.len() {
            chart.y.aggregate = Some("sum".to_owned());
        }
        return Some(chart);
    }
    match measures.as_slice() {
        [only] => Some(over_index(columns, &only.key, &only.label)),
        [x, rest @ ..] if is_increasing(&x.key, rows) => Some(series(
            Mark::Line,
            channel(&x.key, "quantitative", &x.label),
            rest,
            None,
            columns,
        )),
        [x, y, ..] => Some(Chart {
            mark: Mark::Point,
            x: channel(&x.key, "quantitative", &x.label),
            y: channel(&y.key, "quantitative", &y.label),
            color: None,
            transform: Vec::new(),
        }),
        [] => None,
    }
}

/// One measure as y (coloured by `color_by` when given), or several folded
/// into one value coloured by series.
fn series(
    mark: Mark,
    x: Channel,
    measures: &[&Column],
    color_by: Option<&Column>,
    columns: &[Column],
) -> Chart {
    if let [only] = measures {
        let color = color_by.map(|c| channel(&c.key, "nominal", &c.label));
        return Chart {
            mark,
            x,
            y: channel(&only.key, "quantitative", &only.label),
            color,
            transform: Vec::new(),
        };
    }
    let key = unused_name("series", columns);
    let value = unused_name("value", columns);
    let fields = measures.iter().map(|c| c.key.clone()).collect();
    Chart {
        mark,
        x,
        y: channel(&value, "quantitative", "Value"),
        color: Some(channel(&key, "nominal", "Series")),
        transform: vec![Transform::Fold {
            fields,
            names: [key, value],
        }],
    }
}

/// A line of one measure over the row number.
fn over_index(columns: &[Column], field: &str, title: &str) -> Chart {
    let index = unused_name("index", columns);
    Chart {
        mark: Mark::Line,
        x: channel(&index, "quantitative", "Index"),
        y: channel(field, "quantitative", title),
        color: None,
        transform: vec![Transform::RowNumber { name: index }],
    }
}

/// `base`, or `base_2`, ... : a derived field's name no column uses.
fn unused_name(base: &str, columns: &[Column]) -> String {
    let taken = |name: &str| columns.iter().any(|c| c.key == name);
    (1..)
        .map(|n| {
            if n == 1 {
                base.to_owned()
            } else {
                format!("{base}_{n}")
            }
        })
        .find(|n| !taken(n))
        .unwrap_or_default()
}

fn distinct(key: &str, rows: &[Value]) -> usize {
    rows.iter()
        .filter_map(|r| r.get(key))
        .map(Value::to_string)
        .collect::<HashSet<_>>()
        .len()
}

/// A category splits lines into series when its values repeat and are few.
fn is_series_key(key: &str, rows: &[Value]) -> bool {
    let n = distinct(key, rows);
    n > 1 && n < rows.len() && n <= MAX_COLORS
}

/// Whether every row has a number under `key`, each larger than the last.
fn is_increasing(key: &str, rows: &[Value]) -> bool {
    let numbers: Option<Vec<f64>> = rows
        .iter()
        .map(|r| r.get(key).and_then(Value::as_f64))
        .collect();
    numbers.is_some_and(|n| n.len() > 1 && n.windows(2).all(|w| w[0] < w[1]))
}

/// Vega-Lite reads `.` and `[]` in a field name as nested access; a column
/// named `a.b` is written `a\.b`.
fn field_ref(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if matches!(c, '.' | '[' | ']' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn encode(channel: &Channel) -> Value {
    let mut out = json!({"field": field_ref(&channel.field), "type": channel.measure, "title": channel.title});
    if let Some(aggregate) = &channel.aggregate {
        out["aggregate"] = aggregate.clone().into();
    }
    out
}

/// The full Vega-Lite v5 spec, with `values` as its inline data.
pub(crate) fn vega_lite(chart: &Chart, title: &str, values: Vec<Value>) -> Value {
    let mut encoding = Map::new();
    encoding.insert("x".into(), encode(&chart.x));
    encoding.insert("y".into(), encode(&chart.y));
    if let Some(color) = &chart.color {
        encoding.insert("color".into(), encode(color));
        if chart.mark == Mark::Bar {
            // Bars of several series stand side by side, not stacked.
            encoding.insert(
                "xOffset".into(),
                json!({"field": field_ref(&color.field), "type": "nominal"}),
            );
        }
    }
    let mark = match chart.mark {
        Mark::Bar => json!({"type": "bar", "tooltip": true}),
        Mark::Line => json!({"type": "line", "point": true, "tooltip": true}),
        Mark::Point => json!({"type": "point", "tooltip": true}),
    };
    let mut spec = json!({
        "$schema": VEGA_LITE_SCHEMA,
        "title": title,
        "width": "container",
        "data": {"values": values},
        "mark": mark,
        "encoding": encoding,
    });
    if !chart.transform.is_empty() {
        spec["transform"] = chart.transform.iter().map(transform).collect();
    }
    spec
}

fn transform(t: &Transform) -> Value {
    match t {
        Transform::RowNumber { name } => json!({"window": [{"op": "row_number", "as": name}]}),
        Transform::Fold { fields, names } => {
            json!({"fold": fields.iter().map(|f| field_ref(f)).collect::<Vec<_>>(), "as": names})
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn col(key: &str, kind: ColumnType) -> Column {
        Column {
            key: key.into(),
            label: key.into(),
            kind,
        }
    }

    #[test]
    fn shape_decides_the_mark() {
        use ColumnType::*;
        let bar = choose(
            Shape::Records,
            &[col("c", String), col("v", Number)],
            &[json!({"c": "a", "v": 1}), json!({"c": "b", "v": 2})],
        )
        .unwrap();
        assert_eq!((bar.mark, bar.y.aggregate.clone()), (Mark::Bar, None));
        let summed = choose(
            Shape::Records,
            &[col("c", String), col("v", Number)],
            &[json!({"c": "a", "v": 1}), json!({"c": "a", "v": 2})],
        )
        .unwrap();
        assert_eq!(summed.y.aggregate.as_deref(), Some("sum"));
        let line = choose(
            Shape::Records,
            &[col("d", Date), col("v", Number), col("w", Number)],
            &[json!({})],
        )
        .unwrap();
        assert_eq!(
            (
                line.mark,
                line.x.measure.as_str(),
                line.color.unwrap().field
            ),
            (Mark::Line, "temporal", "series".to_owned())
        );
        let rows = [json!({"h": 170, "w": 70}), json!({"h": 160, "w": 60})];
        let scatter = choose(
            Shape::Records,
            &[col("h", Integer), col("w", Integer)],
            &rows,
        )
        .unwrap();
        assert_eq!(scatter.mark, Mark::Point);
        let ordered = [json!({"h": 1, "w": 70}), json!({"h": 2, "w": 60})];
        assert_eq!(
            choose(
                Shape::Records,
                &[col("h", Integer), col("w", Integer)],
                &ordered
            )
            .unwrap()
            .mark,
            Mark::Line
        );
        assert!(choose(Shape::Records, &[col("name", String)], &rows).is_none());
        assert_eq!(
            choose(Shape::Numbers, &[col("value", Number)], &[])
                .unwrap()
                .transform
                .len(),
            1
        );
    }

    #[test]
    fn derived_names_avoid_columns_and_fields_are_escaped() {
        let cols = [
            col("index", ColumnType::Boolean),
            col("a.b", ColumnType::Number),
        ];
        let chart = choose(Shape::Records, &cols, &[json!({"index": true, "a.b": 1})]).unwrap();
        assert_eq!(chart.x.field, "index_2");
        let spec = vega_lite(&chart, "t", vec![]);
        assert_eq!(spec["encoding"]["y"]["field"], "a\\.b");
    }
}
