//! From data to a data-free schema: which arrays are datasets, which
//! columns they have, and what type (and `format`) every value of a column
//! shares.
//!
//! Every row is examined (a dataset may hold at most [`MAX_ROWS`] rows and
//! [`MAX_COLUMNS`] columns), so the inferred schema accepts every value sent
//! and nothing is dropped from the view. Formats are decided by the same
//! validator that later checks the data (`schema::compile`), so the schema
//! never claims a format a value fails. Values never enter the schema: no
//! `enum`, no examples, no defaults.

use super::{
    chart, too_large, Column, ColumnType, Dataset, DisplaySpec, Shape, MAX_COLUMNS, MAX_DATASETS,
    MAX_ROWS,
};
use crate::error::Result;
use crate::plan::generate::labels;
use crate::pointer;
use crate::terms::limits::Limits;
use serde_json::{json, Map, Value};
use std::collections::HashMap;
use std::sync::OnceLock;

/// Longest title or label, in characters (like the generator's labels).
const MAX_LABEL_CHARS: usize = 120;

/// A label shown to people, from a name in the data: humanised, and plain
/// text (a key may hold markup or links; labels never do).
fn label(name: &str) -> String {
    let text = crate::plan::sanitize::plain_text(&labels::humanize(name), MAX_LABEL_CHARS);
    if text.is_empty() {
        "Value".to_owned()
    } else {
        text
    }
}

/// The string formats a column may be given, most specific first.
const FORMATS: [(&str, ColumnType); 4] = [
    ("date", ColumnType::Date),
    ("date-time", ColumnType::DateTime),
    ("email", ColumnType::Email),
    ("uri", ColumnType::Uri),
];

/// Records or numbers, when every item is one of them.
pub(crate) fn row_shape(items: &[Value]) -> Option<Shape> {
    if items.is_empty() {
        return None;
    }
    if items.iter().all(Value::is_object) {
        Some(Shape::Records)
    } else if items.iter().all(Value::is_number) {
        Some(Shape::Numbers)
    } else {
        None
    }
}

/// The display and the schema that replaces `output`. `base` is the JSON
/// Pointer of `data` in the request body (for errors).
pub(crate) fn infer(
    data: &Value,
    output: &Value,
    description: &str,
    base: &str,
    limits: &Limits,
) -> Result<(DisplaySpec, Value)> {
    let title =
        crate::plan::title::person_title(output.get("title").and_then(Value::as_str), description)
            .map(|t| crate::plan::sanitize::plain_text(&t, MAX_LABEL_CHARS))
            .filter(|t| !t.is_empty());
    match data {
        Value::Array(items) => {
            let title = title.unwrap_or_else(|| "Data".to_owned());
            let (dataset, schema) = dataset(items, "data", &title, "", "", base, limits)?;
            Ok((
                DisplaySpec {
                    datasets: vec![dataset],
                },
                schema,
            ))
        }
        Value::Object(map) => from_object(map, title, base, limits),
        // `detect` only calls with arrays and objects.
        _ => Ok((
            DisplaySpec {
                datasets: Vec::new(),
            },
            json!({"type": "array", "readOnly": true}),
        )),
    }
}

/// Whether a property can be a dataset in every format: an empty name has no
/// JSON Forms scope (`#/properties/` is not one), and RJSF reserves `ui:`
/// keys in its uiSchema, so a field named `ui:order` cannot be addressed.
pub(crate) fn showable_name(name: &str) -> bool {
    !name.is_empty() && !name.starts_with("ui:")
}

/// Every non-empty array of records or numbers among the properties is a
/// dataset; other properties are not shown.
fn from_object(
    map: &Map<String, Value>,
    title: Option<String>,
    base: &str,
    limits: &Limits,
) -> Result<(DisplaySpec, Value)> {
    let mut datasets = Vec::new();
    let mut properties = Map::new();
    for (name, value) in map {
        let Value::Array(items) = value else { continue };
        if row_shape(items).is_none() || !showable_name(name) {
            continue;
        }
        let at = format!("/{}", pointer::escape(name));
        if datasets.len() == MAX_DATASETS {
            return Err(too_large("arrays", MAX_DATASETS, format!("{base}{at}")));
        }
        let schema_pointer = format!("/properties/{}", pointer::escape(name));
        let (dataset, schema) = dataset(
            items,
            name,
            &label(name),
            &at,
            &schema_pointer,
            &format!("{base}{at}"),
            limits,
        )?;
        datasets.push(dataset);
        properties.insert(name.clone(), schema);
    }
    let mut schema = json!({"type": "object", "readOnly": true, "properties": properties});
    if let Some(title) = title {
        schema["title"] = title.into();
    }
    Ok((DisplaySpec { datasets }, schema))
}

/// One dataset and its array schema.
fn dataset(
    items: &[Value],
    id: &str,
    title: &str,
    data_pointer: &str,
    schema_pointer: &str,
    base: &str,
    limits: &Limits,
) -> Result<(Dataset, Value)> {
    if items.len() > MAX_ROWS {
        return Err(too_large("rows", MAX_ROWS, format!("{base}/{MAX_ROWS}")));
    }
    let shape = row_shape(items).unwrap_or(Shape::Empty);
    let (columns, item_schema) = match shape {
        Shape::Records => records(items, base, limits)?,
        Shape::Numbers => numbers(items),
        Shape::Empty => (Vec::new(), None),
    };
    let chart = chart::choose(shape, &columns, items);
    let mut schema = json!({"type": "array", "title": title, "readOnly": true});
    if let Some(items) = item_schema {
        schema["items"] = items;
    }
    let dataset = Dataset {
        id: id.to_owned(),
        title: title.to_owned(),
        data_pointer: data_pointer.to_owned(),
        schema_pointer: schema_pointer.to_owned(),
        shape,
        columns,
        chart,
    };
    Ok((dataset, schema))
}

/// A bare series: one `value` column.
fn numbers(items: &[Value]) -> (Vec<Column>, Option<Value>) {
    let whole = items.iter().all(|v| v.is_i64() || v.is_u64());
    let (kind, name) = if whole {
        (ColumnType::Integer, "integer")
    } else {
        (ColumnType::Number, "number")
    };
    let column = Column {
        key: "value".to_owned(),
        label: "Value".to_owned(),
        kind,
    };
    (vec![column], Some(json!({"type": name, "readOnly": true})))
}

/// What the values of one column were seen to be.
#[derive(Debug, Default)]
struct Seen {
    null: bool,
    boolean: bool,
    integer: bool,
    number: bool,
    string: bool,
    object: bool,
    array: bool,
    /// Which of [`FORMATS`] every string so far matched.
    formats: [bool; FORMATS.len()],
}

impl Seen {
    fn new() -> Self {
        Self {
            formats: [true; FORMATS.len()],
            ..Self::default()
        }
    }

    fn add(&mut self, value: &Value) {
        match value {
            Value::Null => self.null = true,
            Value::Bool(_) => self.boolean = true,
            Value::Number(n) if n.is_i64() || n.is_u64() => self.integer = true,
            Value::Number(_) => self.number = true,
            Value::String(text) => {
                self.string = true;
                for (i, ok) in self.formats.iter_mut().enumerate() {
                    *ok = *ok && matches_format(i, text);
                }
            }
            Value::Object(_) => self.object = true,
            Value::Array(_) => self.array = true,
        }
    }

    /// The JSON Schema type names seen (`integer` folds into `number`).
    fn type_names(&self) -> Vec<&'static str> {
        let flags = [
            (self.string, "string"),
            (self.integer && !self.number, "integer"),
            (self.number, "number"),
            (self.boolean, "boolean"),
            (self.object, "object"),
            (self.array, "array"),
            (self.null, "null"),
        ];
        flags
            .into_iter()
            .filter(|(on, _)| *on)
            .map(|(_, name)| name)
            .collect()
    }

    /// The first format every string matched, for a column of strings only.
    fn format(&self) -> Option<usize> {
        let only_strings = self.string
            && self
                .type_names()
                .iter()
                .all(|t| *t == "string" || *t == "null");
        only_strings
            .then(|| self.formats.iter().position(|ok| *ok))
            .flatten()
    }

    fn column_type(&self) -> ColumnType {
        let names: Vec<&str> = self
            .type_names()
            .into_iter()
            .filter(|t| *t != "null")
            .collect();
        match names.as_slice() {
            ["string"] => self.format().map_or(ColumnType::String, |i| FORMATS[i].1),
            ["integer"] => ColumnType::Integer,
            ["number"] => ColumnType::Number,
            ["boolean"] => ColumnType::Boolean,
            ["object"] | ["array"] | ["object", "array"] => ColumnType::Json,
            _ => ColumnType::Mixed,
        }
    }

    fn schema(&self, label: &str) -> Value {
        let names = self.type_names();
        let mut schema = json!({"title": label, "readOnly": true});
        schema["type"] = if names.len() == 1 {
            json!(names[0])
        } else {
            json!(names)
        };
        if let Some(i) = self.format() {
            schema["format"] = FORMATS[i].0.into();
        }
        schema
    }
}

/// Columns in first-seen order, each with the union of its values' types.
fn records(items: &[Value], base: &str, limits: &Limits) -> Result<(Vec<Column>, Option<Value>)> {
    let mut order: Vec<String> = Vec::new();
    let mut seen: HashMap<String, Seen> = HashMap::new();
    for (row, item) in items.iter().enumerate() {
        let Value::Object(record) = item else {
            continue;
        };
        for (key, value) in record {
            if !seen.contains_key(key) {
                let at = format!("{base}/{row}/{}", pointer::escape(key));
                if order.len() == MAX_COLUMNS {
                    return Err(too_large("columns", MAX_COLUMNS, at));
                }
                if key.len() > limits.max_string_bytes {
                    return Err(too_large(
                        "bytes in a column name",
                        limits.max_string_bytes,
                        at,
                    ));
                }
                order.push(key.clone());
                seen.insert(key.clone(), Seen::new());
            }
            seen.get_mut(key).expect("inserted above").add(value);
        }
    }
    let mut columns = Vec::new();
    let mut properties = Map::new();
    for key in order {
        let column_seen = &seen[&key];
        let label = label(&key);
        properties.insert(key.clone(), column_seen.schema(&label));
        columns.push(Column {
            key,
            label,
            kind: column_seen.column_type(),
        });
    }
    Ok((
        columns,
        Some(json!({"type": "object", "readOnly": true, "properties": properties})),
    ))
}

/// Whether `text` passes format number `index` of [`FORMATS`], by the same
/// validator options the pipeline checks data with. A `uri` must also name
/// a host (`://`): "note:later" is a valid URI, but not a link to show.
fn matches_format(index: usize, text: &str) -> bool {
    static VALIDATORS: OnceLock<Vec<Option<jsonschema::Validator>>> = OnceLock::new();
    let validators = VALIDATORS.get_or_init(|| {
        FORMATS
            .iter()
            .map(|(format, _)| {
                let schema = json!({"type": "string", "format": format});
                crate::schema::compile(&schema, crate::schema::Draft::Draft202012).ok()
            })
            .collect()
    });
    let Some(Some(validator)) = validators.get(index) else {
        return false;
    };
    let host = FORMATS[index].0 != "uri" || text.contains("://");
    host && validator.is_valid(&Value::String(text.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn infer_data(data: Value) -> (DisplaySpec, Value) {
        infer(&data, &json!({}), "", "/data", &Limits::default()).unwrap()
    }

    #[test]
    fn columns_types_and_formats() {
        let (spec, schema) = infer_data(json!([
            {"day": "2024-01-01", "at": "2024-01-01T10:00:00Z", "mail": "a@b.co", "site": "https://x.org", "n": 1, "x": 1.5, "ok": true},
            {"day": "2024-01-02", "at": null, "mail": "c@d.co", "site": "https://y.org", "n": 2, "x": 2, "ok": false, "extra": "z"},
        ]));
        let kinds: Vec<(&str, ColumnType)> = spec.datasets[0]
            .columns
            .iter()
            .map(|c| (c.key.as_str(), c.kind))
            .collect();
        use ColumnType::*;
        assert_eq!(
            kinds,
            [
                ("day", Date),
                ("at", DateTime),
                ("mail", Email),
                ("site", Uri),
                ("n", Integer),
                ("x", Number),
                ("ok", Boolean),
                ("extra", String)
            ]
        );
        let props = &schema["items"]["properties"];
        assert_eq!(props["at"]["type"], json!(["string", "null"]));
        assert_eq!(props["at"]["format"], "date-time");
        assert_eq!(props["x"]["type"], "number");
        assert_eq!(schema["readOnly"], true);
    }

    #[test]
    fn mixed_values_are_mixed_not_dropped() {
        let (spec, schema) = infer_data(json!([{"v": 1}, {"v": "one"}, {"v": {"n": 1}}]));
        assert_eq!(spec.datasets[0].columns[0].kind, ColumnType::Mixed);
        assert_eq!(
            schema["items"]["properties"]["v"]["type"],
            json!(["string", "integer", "object"])
        );
    }

    #[test]
    fn limits_name_the_place() {
        let rows: Vec<Value> = (0..=MAX_ROWS).map(|i| json!({"i": i})).collect();
        let e = infer(
            &json!({"rows": rows}),
            &json!({}),
            "",
            "/arguments/data",
            &Limits::default(),
        )
        .unwrap_err();
        assert_eq!(
            e.pointer(),
            Some(format!("/arguments/data/rows/{MAX_ROWS}").as_str())
        );
        let wide: Map<String, Value> = (0..=MAX_COLUMNS)
            .map(|i| (format!("c{i}"), json!(i)))
            .collect();
        let e = infer(
            &json!([{"a": 1}, wide]),
            &json!({}),
            "",
            "/data",
            &Limits::default(),
        )
        .unwrap_err();
        assert_eq!(e.pointer(), Some("/data/1/c63"));
    }
}
