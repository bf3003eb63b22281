//! The data model both ways: on the way out, the request's data adapted to
//! what the components edit (values written as text, seeds for empty
//! fields, [`Adapt`]); on the way back, what a renderer wrote coerced to
//! the schema's types ([`coerce`]) before `/v1/submit` validates.

use crate::pointer::escape;
use crate::schema::{FieldKind, Kind, SchemaDoc};
use crate::terms::limits::Limits;
use serde_json::{Map, Value};

/// How a value sits in the data model when the component edits it as text.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Adapt {
    /// A choice whose values are not strings: the value's JSON text.
    Choice,
    /// A multiple choice of non-string values: each value's JSON text.
    Choices,
    /// A list of scalars edited one per line.
    Lines,
    /// A value edited as JSON text.
    Json,
    /// A boolean the form has no value for: `false`, so that a CheckBox
    /// left alone still submits its value.
    False,
    /// A text the form has no value for: `""`. The basic catalog's check
    /// functions reject an absent value outright (`length`, `regex`,
    /// `numeric` and `email` require `value`), so an empty optional field
    /// would block the submit button; [`coerce`] drops the `""` again.
    Empty,
    /// A multiple choice the form has no value for: `[]` (as for `Empty`).
    NoItems,
}

/// One step of a data path for [`Adapt`]: a key, or every array item.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Step {
    Key(String),
    Each,
}

pub(super) fn apply(value: &mut Value, steps: &[Step], how: Adapt) {
    match steps.split_first() {
        Some((Step::Each, rest)) => {
            if let Value::Array(items) = value {
                items.iter_mut().for_each(|item| apply(item, rest, how));
            }
        }
        Some((Step::Key(key), [])) => {
            let Value::Object(map) = value else { return };
            match (how, map.get_mut(key)) {
                (Adapt::False, None) => {
                    map.insert(key.clone(), false.into());
                }
                (Adapt::Empty, None) => {
                    map.insert(key.clone(), "".into());
                }
                (Adapt::NoItems, None) => {
                    map.insert(key.clone(), Value::Array(Vec::new()));
                }
                (_, Some(slot)) => *slot = adapted(slot, how),
                (_, None) => {}
            }
        }
        Some((Step::Key(key), rest)) => {
            // A seed also needs the objects above it (so that a check's
            // path resolves to the seeded value).
            let seeds = matches!(how, Adapt::False | Adapt::Empty | Adapt::NoItems)
                && !matches!(rest.first(), Some(Step::Each));
            if let Value::Object(map) = value {
                if seeds && !map.contains_key(key) {
                    map.insert(key.clone(), Value::Object(Map::new()));
                }
            }
            if let Some(next) = value.get_mut(key.as_str()) {
                apply(next, rest, how);
            }
        }
        None => *value = adapted(value, how),
    }
}

pub(super) fn adapted(value: &Value, how: Adapt) -> Value {
    match (how, value) {
        (Adapt::Choice, v) if !v.is_string() && !v.is_null() => value_text(v).into(),
        (Adapt::Choices, Value::Array(items)) => {
            Value::Array(items.iter().map(|v| Value::String(value_text(v))).collect())
        }
        (Adapt::Lines, Value::Array(items)) => items
            .iter()
            .map(value_text)
            .collect::<Vec<_>>()
            .join("\n")
            .into(),
        (Adapt::Json, v) if !v.is_string() && !v.is_null() => v.to_string().into(),
        _ => value.clone(),
    }
}

/// A value as the string a component shows and writes.
pub(super) fn value_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Turns values an A2UI renderer wrote back into the schema's types: a
/// number or boolean typed as text, a single choice sent as `["x"]`, a
/// non-string choice by its text, a list written one per line, JSON text
/// for objects, a date-time or time without an offset (read as UTC), and
/// an empty text in a field that is not a string (dropped, as if unset).
pub(crate) fn coerce(schema: &Value, data: &Value, limits: &Limits) -> Value {
    let doc = SchemaDoc::new(schema, limits);
    coerce_at(&doc, schema, data, 0).unwrap_or(Value::Null)
}

/// `None`: drop the value (an empty text where no text belongs).
pub(super) fn coerce_at(
    doc: &SchemaDoc<'_>,
    node: &Value,
    value: &Value,
    depth: usize,
) -> Option<Value> {
    if depth > 64 {
        return Some(value.clone());
    }
    let Ok(view) = doc.resolve(node) else {
        return Some(value.clone());
    };
    let kind = view.kind();
    match value {
        Value::Array(items)
            if kind.kind != Kind::Array && kind.kind != Kind::Any && items.len() == 1 =>
        {
            coerce_at(doc, node, &items[0], depth + 1)
        }
        Value::Array(items) if kind.kind == Kind::Array => {
            let item_schema = doc.resolve_scope(node, "/items");
            let coerced = items.iter().filter_map(|item| match item_schema {
                Some(s) => coerce_at(doc, s, item, depth + 1),
                None => Some(item.clone()),
            });
            Some(Value::Array(coerced.collect()))
        }
        Value::Object(map) => {
            let mut out = Map::new();
            for (key, item) in map {
                let child = doc.resolve_scope(node, &format!("/properties/{}", escape(key)));
                let coerced = match child {
                    Some(child) => coerce_at(doc, child, item, depth + 1),
                    None => Some(item.clone()),
                };
                // An optional field left empty is unset: `""`, `[]`, or an
                // object all of whose fields were left empty.
                let emptied = |v: &Value| match v {
                    Value::String(s) => s.is_empty(),
                    Value::Array(a) => a.is_empty(),
                    Value::Object(m) => {
                        m.is_empty() && item.as_object().is_some_and(|o| !o.is_empty())
                    }
                    _ => false,
                };
                match coerced {
                    Some(v) if emptied(&v) && !doc.node_requires(node, key) => {}
                    Some(v) => {
                        out.insert(key.clone(), v);
                    }
                    None => {}
                }
            }
            Some(Value::Object(out))
        }
        Value::String(text) => coerce_text(doc, node, &kind, text, depth),
        other => Some(other.clone()),
    }
}

pub(super) fn coerce_text(
    doc: &SchemaDoc<'_>,
    node: &Value,
    kind: &FieldKind,
    text: &str,
    depth: usize,
) -> Option<Value> {
    if let Some(choices) = &kind.choices {
        if let Some((value, _)) = choices.iter().find(|(v, _)| value_text(v) == text) {
            return Some(value.clone());
        }
    }
    let trimmed = text.trim();
    match kind.kind {
        Kind::String | Kind::Any | Kind::Null => {
            Some(Value::String(offset_time(kind.format.as_deref(), text)))
        }
        _ if trimmed.is_empty() => None,
        Kind::Integer => Some(
            trimmed
                .parse::<i64>()
                .map(Value::from)
                .unwrap_or_else(|_| text.into()),
        ),
        Kind::Number => Some(
            match trimmed
                .parse::<f64>()
                .ok()
                .and_then(serde_json::Number::from_f64)
            {
                Some(n)
                    if n.as_f64()
                        .is_some_and(|f| f.fract() == 0.0 && f.abs() < 9e15) =>
                {
                    Value::from(n.as_f64().unwrap_or_default() as i64)
                }
                Some(n) => Value::Number(n),
                None => text.into(),
            },
        ),
        Kind::Boolean => Some(match trimmed {
            "true" => true.into(),
            "false" => false.into(),
            _ => text.into(),
        }),
        Kind::Array => match serde_json::from_str::<Value>(trimmed) {
            Ok(list @ Value::Array(_)) => coerce_at(doc, node, &list, depth + 1),
            _ => {
                let lines = text
                    .lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .map(|l| Value::String(l.to_owned()));
                coerce_at(doc, node, &Value::Array(lines.collect()), depth + 1)
            }
        },
        Kind::Object | Kind::Alternatives => match serde_json::from_str::<Value>(trimmed) {
            Ok(parsed) => coerce_at(doc, node, &parsed, depth + 1),
            Err(_) => Some(text.into()),
        },
    }
}

/// A `DateTimeInput` writes local wall-clock values without an offset
/// (`2026-01-02T10:30:00`, `10:30`); JSON Schema's `date-time` and `time`
/// need one, so they are read as UTC.
pub(super) fn offset_time(format: Option<&str>, text: &str) -> String {
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let clock = |t: &str| {
        let parts: Vec<&str> = t.split(':').collect();
        (2..=3).contains(&parts.len()) && parts.iter().all(|p| p.len() == 2 && digits(p))
    };
    let with_seconds = |t: &str| {
        if t.len() == 5 {
            format!("{t}:00")
        } else {
            t.to_owned()
        }
    };
    match format {
        Some("date-time") => match text.split_once('T') {
            Some((date, time)) if date.len() == 10 && clock(time) => {
                format!("{date}T{}Z", with_seconds(time))
            }
            _ => text.to_owned(),
        },
        Some("time") if clock(text) => format!("{}Z", with_seconds(text)),
        _ => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn renderer_values_are_coerced_by_the_schema() {
        let schema = json!({"type": "object", "properties": {
            "age": {"type": "integer"}, "score": {"type": "number"}, "size": {"type": "string", "enum": ["s", "m"]},
            "level": {"enum": [1, 2, 3]}, "tags": {"type": "array", "items": {"type": "string"}},
            "at": {"type": "string", "format": "date-time"}, "alarm": {"type": "string", "format": "time"},
            "extra": {"type": "object"}, "ok": {"type": "boolean"}, "empty": {"type": "number"},
            "note": {"type": "string"}, "many": {"type": "array"}, "box": {"type": "object", "properties": {"zip": {"type": "string"}}}},
            "required": ["name"]});
        let data = json!({"age": " 42 ", "score": "1.5", "size": ["m"], "level": ["2"], "tags": "a\n\n b \n",
            "at": "2026-01-02T10:30", "alarm": "07:15", "extra": "{\"k\": 1}", "ok": "true", "empty": "", "free": "x",
            "note": "", "many": [], "box": {"zip": ""}, "name": ""});
        let out = coerce(&schema, &data, &Limits::default());
        assert_eq!(
            out,
            json!({"age": 42, "score": 1.5, "size": "m", "level": 2, "tags": ["a", "b"],
            "at": "2026-01-02T10:30:00Z", "alarm": "07:15:00Z", "extra": {"k": 1}, "ok": true, "free": "x", "name": ""})
        );
    }
}
