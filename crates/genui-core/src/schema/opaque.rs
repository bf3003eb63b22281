//! Submissions to fields on a `$ref` that leaves the document, and the
//! places the worker could not check.
//!
//! The form shows a field on a meta-schema or an unheld `$ref` as JSON text
//! (schema/external.rs): the renderers' copy is a string field, so JSON
//! Forms and RJSF send what the person typed as a string. Before validation
//! a string there that parses as JSON is read as that JSON, so a
//! meta-schema field (validated against the embedded meta-schema) takes
//! `{"type": "string"}` typed as text, and an agent sending the value itself
//! is unaffected. A field on a reference to a document the worker does not
//! hold takes any JSON: the worker cannot check it, and the answer names it
//! (`metadata.genuiUnchecked` in the tool message, and `x-genui-unchecked`).
//! A reference into the document by `$id` is checked like any other and
//! its value is taken as sent.

use super::external::{self, Unheld};
use super::{Draft, SchemaDoc};
use serde_json::Value;

/// What [`read_json_text`] found: the data pointers of places on an unheld
/// `$ref` (not checked beyond "JSON"); `""` when such a reference sits
/// where the data's properties and items do not lead (in `anyOf`, say), so
/// the submission as a whole was not fully checked.
#[derive(Debug, Default)]
pub(crate) struct Opaque {
    pub(crate) unchecked: Vec<String>,
}

/// `data` with JSON text parsed on every field whose schema is a meta-schema
/// or unheld `$ref`, and the pointers of those the worker cannot check.
pub(crate) fn read_json_text(schema: &Value, draft: Draft, data: &mut Value, doc: &SchemaDoc<'_>) -> Opaque {
    let mut found = Opaque::default();
    if !external_refs_in(schema) {
        return found;
    }
    let unheld = external::unheld_refs(schema, draft);
    let mut walk = Walk { doc, schema, unheld: &unheld, reached: vec![false; unheld.len()], found: &mut found };
    walk.visit(data, "", "");
    let off_path = unheld.iter().zip(&walk.reached).any(|(place, reached)| !reached && !on_data_path(&place.pointer));
    if off_path && !found.unchecked.iter().any(String::is_empty) {
        found.unchecked.insert(0, String::new());
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

/// Whether a schema pointer steps only through `properties` and `items`,
/// where the data walk would meet it if the data held that place.
fn on_data_path(pointer: &str) -> bool {
    let Some(tokens) = crate::pointer::tokens(pointer) else { return false };
    let mut tokens = tokens.iter();
    while let Some(token) = tokens.next() {
        match token.as_str() {
            "items" => {}
            "properties" if tokens.next().is_some() => {}
            _ => return false,
        }
    }
    true
}

struct Walk<'w, 'a> {
    doc: &'w SchemaDoc<'a>,
    schema: &'a Value,
    unheld: &'w [Unheld],
    /// Which of `unheld` the data reached.
    reached: Vec<bool>,
    found: &'w mut Opaque,
}

impl Walk<'_, '_> {
    /// The index in `unheld` of the `$ref` on `node`, if it is one.
    fn unheld_at(&self, node: &Value) -> Option<usize> {
        self.unheld.iter().position(|place| place.keyword == "$ref" && self.schema.pointer(&place.pointer).is_some_and(|n| std::ptr::eq(n, node)))
    }

    fn visit(&mut self, data: &mut Value, scope: &str, at: &str) {
        let node = self.doc.resolve_scope(self.schema, scope);
        if let Some((node, reference)) = node.and_then(|n| Some((n, n.get("$ref")?.as_str()?))).filter(|(_, r)| external::is_external(r)) {
            let unheld = self.unheld_at(node);
            if unheld.is_some() || external::is_meta_schema(reference) {
                if let Value::String(text) = data {
                    if let Ok(parsed) = serde_json::from_str::<Value>(text) {
                        *data = parsed;
                    }
                }
            }
            if let Some(index) = unheld {
                self.reached[index] = true;
                self.found.unchecked.push(at.to_owned());
            }
            return;
        }
        match data {
            Value::Object(map) => {
                for (key, value) in map.iter_mut() {
                    let escaped = crate::pointer::Pointer::escape(key);
                    self.visit(value, &format!("{scope}/properties/{escaped}"), &format!("{at}/{escaped}"));
                }
            }
            Value::Array(items) => {
                for (i, value) in items.iter_mut().enumerate() {
                    self.visit(value, &format!("{scope}/items"), &format!("{at}/{i}"));
                }
            }
            _ => {}
        }
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
        let found = read_json_text(&schema, Draft::Draft202012, &mut data, &doc);
        assert_eq!(data, json!({"s": {"type": "string"}, "r": "not json", "t": "{\"a\": 1}", "list": [[1], 2]}));
        let mut unchecked = found.unchecked;
        unchecked.sort();
        assert_eq!(unchecked, ["/list/0", "/list/1", "/r"]);
    }

    #[test]
    fn references_into_the_document_by_id_are_not_unchecked() {
        let schema = json!({"$id": "https://example.com/r.json", "properties": {"x": {"$ref": "https://example.com/r.json#/$defs/n"},
            "y": {"anyOf": [{"$ref": "https://elsewhere.example/y.json"}]}}, "$defs": {"n": {"type": "integer"}}});
        let limits = Limits::default();
        let doc = SchemaDoc::new(&schema, &limits);
        let mut data = json!({"x": "1"});
        let found = read_json_text(&schema, Draft::Draft202012, &mut data, &doc);
        assert_eq!(data, json!({"x": "1"}), "a checked value is taken as sent");
        // The unheld `$ref` inside `anyOf` is off the data's path: the whole submission is named.
        assert_eq!(found.unchecked, [""]);
        let plain = json!({"properties": {"r": {"$ref": "https://x.example/a.json"}}});
        let found = read_json_text(&plain, Draft::Draft202012, &mut json!({"s": 1}), &SchemaDoc::new(&plain, &limits));
        assert!(found.unchecked.is_empty(), "a field the data does not hold is not named");
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
            let found = read_json_text(&schema, Draft::Draft202012, &mut data, &doc);
            let expected = serde_json::from_str::<Value>(&text).unwrap_or(Value::String(text.clone()));
            proptest::prop_assert_eq!(&data["r"], &expected);
            proptest::prop_assert_eq!(&data["t"], &Value::String(other));
            proptest::prop_assert_eq!(found.unchecked, vec!["/r".to_owned()]);
        }
    }
}
