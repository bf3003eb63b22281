//! Submissions to fields on a `$ref` that leaves the document (issue 17,
//! "one rule for both directions").
//!
//! The form shows such a field as JSON text (schema/external.rs): the
//! renderers' copy is a string field, so JSON Forms and RJSF send what the
//! person typed as a string. Before validation a string there that parses
//! as JSON is read as that JSON, so a meta-schema field (validated against
//! the embedded meta-schema) takes `{"type": "string"}` typed as text, and
//! an agent sending the value itself is unaffected. A field whose `$ref`
//! cannot be resolved takes any JSON: the worker cannot check it, and the
//! answer names it (`x-genui-unchecked`).

use super::{external, SchemaDoc};
use serde_json::Value;

/// What [`read_json_text`] found: the data pointers of fields on an
/// unresolvable `$ref` (not checked beyond "JSON").
#[derive(Debug, Default)]
pub(crate) struct Opaque {
    pub(crate) unchecked: Vec<String>,
}

/// `data` with JSON text parsed on every field whose schema is an external
/// `$ref`, and the pointers of those the worker cannot check.
pub(crate) fn read_json_text(schema: &Value, data: &mut Value, doc: &SchemaDoc<'_>) -> Opaque {
    let mut found = Opaque::default();
    if external_refs_in(schema) {
        visit(doc, schema, data, "", "", &mut found);
    }
    found
}

fn external_refs_in(value: &Value) -> bool {
    match value {
        Value::Object(map) => map.get("$ref").and_then(Value::as_str).is_some_and(external::is_external) || map.values().any(external_refs_in),
        Value::Array(items) => items.iter().any(external_refs_in),
        _ => false,
    }
}

fn visit(doc: &SchemaDoc<'_>, schema: &Value, data: &mut Value, scope: &str, at: &str, found: &mut Opaque) {
    if let Some(reference) = doc.resolve_scope(schema, scope).and_then(|n| n.get("$ref")).and_then(Value::as_str).filter(|r| external::is_external(r)) {
        if let Value::String(text) = data {
            if let Ok(parsed) = serde_json::from_str::<Value>(text) {
                *data = parsed;
            }
        }
        if external::is_unresolvable(reference) {
            found.unchecked.push(at.to_owned());
        }
        return;
    }
    match data {
        Value::Object(map) => {
            for (key, value) in map.iter_mut() {
                let escaped = crate::pointer::Pointer::escape(key);
                visit(doc, schema, value, &format!("{scope}/properties/{escaped}"), &format!("{at}/{escaped}"), found);
            }
        }
        Value::Array(items) => {
            for (i, value) in items.iter_mut().enumerate() {
                visit(doc, schema, value, &format!("{scope}/items"), &format!("{at}/{i}"), found);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::limits::Limits;
    use serde_json::json;

    #[test]
    fn json_text_is_read_on_external_refs_only() {
        let schema = json!({"properties": {"s": {"$ref": "http://json-schema.org/draft-07/schema#"}, "r": {"$ref": "https://x.example/a.json"},
            "t": {"type": "string"}, "list": {"type": "array", "items": {"$ref": "https://x.example/b.json"}}}});
        let limits = Limits::default();
        let doc = SchemaDoc::new(&schema, &limits);
        let mut data = json!({"s": "{\"type\": \"string\"}", "r": "not json", "t": "{\"a\": 1}", "list": ["[1]", 2]});
        let found = read_json_text(&schema, &mut data, &doc);
        assert_eq!(data, json!({"s": {"type": "string"}, "r": "not json", "t": "{\"a\": 1}", "list": [[1], 2]}));
        let mut unchecked = found.unchecked;
        unchecked.sort();
        assert_eq!(unchecked, ["/list/0", "/list/1", "/r"]);
    }

    proptest::proptest! {
        /// Any text on an external-`$ref` field: read as JSON exactly when
        /// it parses, kept as written otherwise; other fields untouched.
        #[test]
        fn text_is_read_as_json_exactly_when_it_parses(text in "[ -~]{0,16}", other in "[ -~]{0,16}") {
            let schema = json!({"properties": {"r": {"$ref": "https://x.example/a.json"}, "t": {"type": "string"}}});
            let limits = Limits::default();
            let doc = SchemaDoc::new(&schema, &limits);
            let mut data = json!({"r": text.clone(), "t": other.clone()});
            let found = read_json_text(&schema, &mut data, &doc);
            let expected = serde_json::from_str::<Value>(&text).unwrap_or(Value::String(text.clone()));
            proptest::prop_assert_eq!(&data["r"], &expected);
            proptest::prop_assert_eq!(&data["t"], &Value::String(other));
            proptest::prop_assert_eq!(found.unchecked, vec!["/r".to_owned()]);
        }
    }
}
