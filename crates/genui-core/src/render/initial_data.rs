//! `initialData`: the request's `data` laid over the schema's own values.
//!
//! [`schema_defaults`] collects `default` and `const` values at generation
//! time (they are part of the data-free spec). At render time
//! [`initial_data`] merges the request's `data` over them and drops values
//! whose type the schema rejects (a renderer cannot show a number in a
//! checkbox), reporting each drop as a warning. Missing values are fine:
//! the user fills them in. Nothing else is ever added.

use crate::schema::SchemaDoc;
use crate::terms::limits::Limits;
use crate::terms::warning::Warning;
use jsonschema::error::ValidationErrorKind;
use serde_json::{Map, Value};

/// Values the schema supplies for its fields, shaped like the data.
/// `Value::Null` when there are none.
pub(crate) fn schema_defaults(output: &Value, limits: &Limits) -> Value {
    let doc = SchemaDoc::new(output, limits);
    defaults_of(&doc, output, &mut Vec::new(), 0).unwrap_or(Value::Null)
}

fn defaults_of(
    doc: &SchemaDoc<'_>,
    node: &Value,
    ancestors: &mut Vec<String>,
    depth: usize,
) -> Option<Value> {
    let view = doc.resolve(node).ok()?;
    if let Some(value) = view
        .get("const")
        .or_else(|| view.get("default"))
        .filter(|v| !v.is_null())
    {
        return Some(value.clone());
    }
    if depth >= 64 || view.refs.iter().any(|r| ancestors.contains(r)) {
        return None;
    }
    let mark = ancestors.len();
    ancestors.extend(view.refs.iter().cloned());
    let mut out = Map::new();
    for (name, schema) in view.properties() {
        if let Some(value) = defaults_of(doc, schema, ancestors, depth + 1) {
            out.insert(name.clone(), value);
        }
    }
    ancestors.truncate(mark);
    (!out.is_empty()).then_some(Value::Object(out))
}

/// Merges `data` over `defaults` and drops ill-typed values. With nothing
/// to pre-fill, the answer is `{}` for object forms and `null` otherwise.
pub(crate) fn initial_data(
    defaults: &Value,
    data: &Value,
    validator: Option<&jsonschema::Validator>,
    object_form: bool,
) -> (Value, Vec<Warning>) {
    let empty = if object_form {
        Value::Object(Map::new())
    } else {
        Value::Null
    };
    let mut merged = merge(defaults, data);
    let mut warnings = Vec::new();
    let Some(validator) = validator.filter(|_| !merged.is_null()) else {
        return (if merged.is_null() { empty } else { merged }, warnings);
    };
    // Each round removes what the last one reported; removing a value can
    // only fix errors, so a few rounds settle even nested problems.
    for _ in 0..8 {
        let removals = ill_typed(validator, &merged);
        if removals.is_empty() {
            break;
        }
        for (pointer, message) in removals {
            if pointer.is_empty() {
                merged = defaults.clone();
                warnings.push(Warning {
                    code: "data_dropped",
                    pointer,
                    message,
                });
                return (if merged.is_null() { empty } else { merged }, warnings);
            }
            if remove(&mut merged, &pointer) {
                warnings.push(Warning {
                    code: "data_dropped",
                    pointer,
                    message,
                });
            }
        }
    }
    (merged, warnings)
}

/// Values to drop: those of the wrong type, outside an `enum`/`const`, or
/// not allowed as properties at all.
fn ill_typed(validator: &jsonschema::Validator, instance: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    // A bounded run (schema/pattern.rs): pre-fill data is as untrusted as a submission.
    let errors: Vec<_> = crate::schema::bounded(|| validator.iter_errors(instance).collect());
    for error in errors {
        let at = error.instance_path().as_str().to_owned();
        match error.kind() {
            ValidationErrorKind::Type { .. }
            | ValidationErrorKind::Enum { .. }
            | ValidationErrorKind::Constant { .. }
            | ValidationErrorKind::FalseSchema => out.push((at, error.to_string())),
            ValidationErrorKind::AdditionalProperties { unexpected }
            | ValidationErrorKind::UnevaluatedProperties { unexpected } => {
                for name in unexpected {
                    let pointer = format!("{at}/{}", crate::pointer::escape(name));
                    out.push((pointer, format!("`{name}` is not a field of this form")));
                }
            }
            _ => {}
        }
    }
    // Deepest first, so removing an array element does not shift a later one.
    out.sort_by(|a, b| b.0.cmp(&a.0));
    out.dedup_by(|a, b| a.0 == b.0);
    out
}

/// Deep merge: objects merge key by key, anything else is replaced by `over`.
pub(crate) fn merge(base: &Value, over: &Value) -> Value {
    match (base, over) {
        (Value::Object(a), Value::Object(b)) => {
            let mut out = a.clone();
            for (key, value) in b {
                let merged = match a.get(key) {
                    Some(existing) => merge(existing, value),
                    None => value.clone(),
                };
                out.insert(key.clone(), merged);
            }
            Value::Object(out)
        }
        (_, Value::Null) => base.clone(),
        _ => over.clone(),
    }
}

/// Removes the value at a (non-root) JSON Pointer.
fn remove(root: &mut Value, pointer: &str) -> bool {
    let Some((parent, last)) = pointer.rsplit_once('/') else {
        return false;
    };
    let last = crate::pointer::unescape(last);
    match root.pointer_mut(parent) {
        Some(Value::Object(map)) => map.shift_remove(&last).is_some(),
        Some(Value::Array(items)) => match last.parse::<usize>() {
            Ok(i) if i < items.len() => {
                items.remove(i);
                true
            }
            _ => false,
        },
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn defaults_reach_into_nested_objects_and_refs() {
        let output = json!({"$defs": {"a": {"type": "object", "properties": {"n": {"default": 3}}}},
            "properties": {"x": {"default": "d"}, "y": {"$ref": "#/$defs/a"}, "z": {"const": true}, "w": {"default": null}}});
        assert_eq!(
            schema_defaults(&output, &Limits::default()),
            json!({"x": "d", "y": {"n": 3}, "z": true})
        );
    }

    #[test]
    fn data_wins_and_ill_typed_values_are_dropped() {
        let output = json!({"type": "object", "additionalProperties": false, "properties": {
            "age": {"type": "integer"}, "name": {"type": "string", "default": "x"}, "c": {"enum": ["a"]}}});
        let validator = jsonschema::validator_for(&output).unwrap();
        let defaults = schema_defaults(&output, &Limits::default());
        let (data, warnings) = initial_data(
            &defaults,
            &json!({"age": "old", "c": "b", "extra": 1, "name": "Ada"}),
            Some(&validator),
            true,
        );
        assert_eq!(data, json!({"name": "Ada"}));
        let mut dropped: Vec<&str> = warnings.iter().map(|w| w.pointer.as_str()).collect();
        dropped.sort();
        assert_eq!(dropped, ["/age", "/c", "/extra"]);
    }

    #[test]
    fn wrong_root_type_falls_back_to_defaults() {
        let output = json!({"type": "object", "properties": {"a": {"default": 1}}});
        let validator = jsonschema::validator_for(&output).unwrap();
        let (data, warnings) =
            initial_data(&json!({"a": 1}), &json!("text"), Some(&validator), true);
        assert_eq!(data, json!({"a": 1}));
        assert_eq!(warnings.len(), 1);
    }

    #[test]
    fn nothing_to_prefill_is_empty_not_an_error() {
        let validator = jsonschema::validator_for(&json!({"type": "string"})).unwrap();
        assert_eq!(
            initial_data(&Value::Null, &Value::Null, Some(&validator), false),
            (Value::Null, vec![])
        );
        assert_eq!(
            initial_data(&Value::Null, &Value::Null, None, true).0,
            json!({})
        );
    }
}
