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
use std::collections::HashMap;

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
pub(crate) fn read_json_text(
    schema: &Value,
    draft: Draft,
    data: &mut Value,
    doc: &SchemaDoc<'_>,
) -> Opaque {
    let mut found = Opaque::default();
    if !external::names_other_resource(schema) {
        return found;
    }
    let unheld = external::unheld_refs(schema, draft);
    let mut walk = Walk {
        doc,
        schema,
        nodes: unheld_nodes(schema, &unheld),
        reached: vec![false; unheld.len()],
        found: &mut found,
    };
    walk.visit(data, "", "");
    if !walk
        .reached
        .iter()
        .zip(&unheld)
        .all(|(reached, place)| *reached || met_by_the_data_walk(place))
        && !found.unchecked.iter().any(String::is_empty)
    {
        found.unchecked.insert(0, String::new());
    }
    found
}

/// Each unheld `$ref`'s schema node, by address, with its index in
/// `unheld`: looked up once per data node instead of resolving every
/// unheld pointer again for each.
fn unheld_nodes(schema: &Value, unheld: &[Unheld]) -> HashMap<*const Value, usize> {
    let refs = unheld
        .iter()
        .enumerate()
        .filter(|(_, place)| place.keyword == "$ref");
    refs.filter_map(|(index, place)| Some((schema.pointer(&place.pointer)? as *const Value, index)))
        .collect()
}

/// Whether an unheld reference the data did not reach left nothing of this
/// submission unchecked: a `$ref` on the data's properties and items path
/// (where the data walk meets it when the data holds that place). A
/// `$dynamicRef` resolves by the dynamic scope, not by position, so one
/// that leaves the document always marks the submission as not fully checked.
fn met_by_the_data_walk(place: &Unheld) -> bool {
    place.keyword == "$ref" && on_data_path(&place.pointer)
}

/// Whether a schema pointer steps only through `properties` and `items`,
/// where the data walk would meet it if the data held that place.
fn on_data_path(pointer: &str) -> bool {
    let Some(tokens) = crate::pointer::tokens(pointer) else {
        return false;
    };
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

/// `text` parsed as JSON when it is JSON and, placed at `at`, nests no
/// deeper than the body limit: its depth is scanned before anything is
/// built, so no value deeper than the limit is ever made. Otherwise `None`
/// (the string stays a string, and is judged as one).
fn json_text_within_depth(text: &str, at: &str) -> Option<Value> {
    let defaults = crate::terms::limits::Limits::default();
    let above = at.matches('/').count();
    let within = crate::terms::limits::Limits {
        max_body_depth: defaults.max_body_depth.checked_sub(above)?,
        ..defaults
    };
    within.check_body_depth(text.as_bytes()).ok()?;
    serde_json::from_str(text).ok()
}

struct Walk<'w, 'a> {
    doc: &'w SchemaDoc<'a>,
    schema: &'a Value,
    /// The unheld `$ref` nodes, by address, with their index in `reached`.
    nodes: HashMap<*const Value, usize>,
    /// Which unheld references the data reached.
    reached: Vec<bool>,
    found: &'w mut Opaque,
}

impl Walk<'_, '_> {
    /// The index in `unheld` of the `$ref` on `node`, if it is one.
    fn unheld_at(&self, node: &Value) -> Option<usize> {
        self.nodes.get(&(node as *const Value)).copied()
    }

    fn visit(&mut self, data: &mut Value, scope: &str, at: &str) {
        let node = self.doc.resolve_scope(self.schema, scope);
        if let Some((node, reference)) = node
            .and_then(|n| Some((n, n.get("$ref")?.as_str()?)))
            .filter(|(_, r)| external::is_external(r))
        {
            let unheld = self.unheld_at(node);
            if unheld.is_some() || external::is_meta_schema(reference) {
                if let Value::String(text) = data {
                    if let Some(parsed) = json_text_within_depth(text, at) {
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
                    self.visit(
                        value,
                        &format!("{scope}/properties/{escaped}"),
                        &format!("{at}/{escaped}"),
                    );
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
    use crate::terms::limits::Limits;
    use serde_json::json;

    #[test]
    fn json_text_is_read_on_external_refs_only() {
        let schema = json!({"properties": {"s": {"$ref": "http://json-schema.org/draft-07/schema#"}, "r": {"$ref": "https://x.example/a.json"},
            "t": {"type": "string"}, "list": {"type": "array", "items": {"$ref": "https://x.example/b.json"}}}});
        let limits = Limits::default();
        let doc = SchemaDoc::new(&schema, &limits);
        let mut data = json!({"s": "{\"type\": \"string\"}", "r": "not json", "t": "{\"a\": 1}", "list": ["[1]", 2]});
        let found = read_json_text(&schema, Draft::Draft202012, &mut data, &doc);
        assert_eq!(
            data,
            json!({"s": {"type": "string"}, "r": "not json", "t": "{\"a\": 1}", "list": [[1], 2]})
        );
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
        let found = read_json_text(
            &plain,
            Draft::Draft202012,
            &mut json!({"s": 1}),
            &SchemaDoc::new(&plain, &limits),
        );
        assert!(
            found.unchecked.is_empty(),
            "a field the data does not hold is not named"
        );
    }

    #[test]
    fn json_text_is_read_only_within_the_depth_limit() {
        let schema = json!({"properties": {"r": {"$ref": "https://x.example/a.json"}}});
        let limits = Limits::default();
        let deep = format!("{}1{}", "[".repeat(127), "]".repeat(127));
        let mut data = json!({"r": deep});
        read_json_text(
            &schema,
            Draft::Draft202012,
            &mut data,
            &SchemaDoc::new(&schema, &limits),
        );
        assert_eq!(
            data["r"],
            json!(deep),
            "127 levels under one property would nest 128: kept as text"
        );
        let fits = format!("{}1{}", "[".repeat(126), "]".repeat(126));
        let mut data = json!({"r": fits});
        read_json_text(
            &schema,
            Draft::Draft202012,
            &mut data,
            &SchemaDoc::new(&schema, &limits),
        );
        assert!(data["r"].is_array(), "126 levels under one property fit");
    }

    #[test]
    fn an_unheld_dynamic_ref_names_the_submission_unchecked() {
        let schema = json!({"properties": {"x": {"$dynamicRef": "https://o.example/s#m"}}});
        let limits = Limits::default();
        let mut data = json!({"x": "anything"});
        let found = read_json_text(
            &schema,
            Draft::Draft202012,
            &mut data,
            &SchemaDoc::new(&schema, &limits),
        );
        assert_eq!(
            found.unchecked,
            [""],
            "a $dynamicRef out of the document is not checked, and the answer says so"
        );
    }

    #[test]
    fn each_data_node_finds_its_unheld_ref_by_address() {
        let mut defs = serde_json::Map::new();
        for i in 0..2_000 {
            defs.insert(
                format!("d{i}"),
                json!({"$ref": format!("https://x.example/{i}.json")}),
            );
        }
        let schema = json!({"type": "array", "items": {"$ref": "https://x.example/item.json"}, "$defs": defs});
        let limits = Limits::default();
        let mut data = Value::Array((0..2_000).map(|i| json!(i)).collect());
        let found = read_json_text(
            &schema,
            Draft::Draft202012,
            &mut data,
            &SchemaDoc::new(&schema, &limits),
        );
        // The unreached `$defs` entries sit off the data's path.
        assert_eq!(found.unchecked.len(), 2_001);
        assert_eq!(found.unchecked[0], "");
        assert_eq!(found.unchecked[2_000], "/1999");
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
