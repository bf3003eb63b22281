//! `$ref`s that leave the document: the standard meta-schemas, and the rest.
//!
//! Nothing is ever fetched. A reference to one of the five standard
//! meta-schemas (draft-04 to 2020-12) resolves when the schema is compiled,
//! from the copies jsonschema embeds (its `referencing` registry), so a field
//! whose value must itself be a JSON Schema is validated as one. Any other
//! non-local reference cannot be resolved: the field it sits on accepts any
//! JSON (the compiled validator sees it without its `$ref`), the form shows
//! it as a free JSON input, and `meta.warnings` says so (`unresolved_ref`).
//!
//! In views ([`super::SchemaDoc::resolve`]) both kinds are opaque: the field
//! is an unconstrained value, edited as JSON text.

use serde_json::{Map, Value};
use std::borrow::Cow;

/// The meta-schemas jsonschema embeds, by URI without the fragment.
const META_SCHEMAS: [&str; 5] = [
    "json-schema.org/draft-04/schema",
    "json-schema.org/draft-06/schema",
    "json-schema.org/draft-07/schema",
    "json-schema.org/draft/2019-09/schema",
    "json-schema.org/draft/2020-12/schema",
];

/// Whether `reference` leaves the document (does not start with `#`).
pub(crate) fn is_external(reference: &str) -> bool {
    !reference.starts_with('#')
}

/// Whether `reference` names a standard meta-schema (`http` or `https`,
/// with or without an empty fragment).
pub(crate) fn is_meta_schema(reference: &str) -> bool {
    let bare = reference.trim_end_matches('#');
    let bare = bare.strip_prefix("https://").or_else(|| bare.strip_prefix("http://")).unwrap_or("");
    META_SCHEMAS.contains(&bare)
}

/// Whether `reference` can never be resolved here: external and not a
/// meta-schema.
pub(crate) fn is_unresolvable(reference: &str) -> bool {
    is_external(reference) && !is_meta_schema(reference)
}

/// Schema pointers (relative to `output`) of every unresolvable `$ref`.
pub(crate) fn unresolvable_refs(schema: &Value) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let _ = crate::pointer::walk(schema, "", |node, pointer| {
        if let Some(reference) = node.get("$ref").and_then(Value::as_str).filter(|r| is_unresolvable(r)) {
            found.push((pointer.to_owned(), reference.to_owned()));
        }
        Ok::<(), ()>(())
    });
    found
}

/// `schema` with the `$ref` of every schema node matching `drop` removed
/// (borrowed when there is none): what a validator can compile.
pub(crate) fn without_refs(schema: &Value, drop: fn(&str) -> bool) -> Cow<'_, Value> {
    if !has_ref(schema, drop) {
        return Cow::Borrowed(schema);
    }
    Cow::Owned(strip(schema, drop, false))
}

/// The renderers' copy: every external `$ref` (renderers' own validators
/// cannot resolve them either) becomes a text field, in which the person
/// types the value as JSON text; the submission accepts any JSON there.
pub(crate) fn external_refs_as_text(schema: &Value) -> Cow<'_, Value> {
    if !has_ref(schema, is_external) {
        return Cow::Borrowed(schema);
    }
    Cow::Owned(strip(schema, is_external, true))
}

fn has_ref(value: &Value, drop: fn(&str) -> bool) -> bool {
    match value {
        Value::Object(map) => map.get("$ref").and_then(Value::as_str).is_some_and(drop) || map.values().any(|v| has_ref(v, drop)),
        Value::Array(items) => items.iter().any(|v| has_ref(v, drop)),
        _ => false,
    }
}

fn strip(value: &Value, drop: fn(&str) -> bool, as_text: bool) -> Value {
    match value {
        Value::Object(map) => {
            let dropped = map.get("$ref").and_then(Value::as_str).is_some_and(drop);
            let mut out: Map<String, Value> =
                map.iter().filter(|(k, _)| !(dropped && *k == "$ref")).map(|(k, v)| (k.clone(), strip(v, drop, as_text))).collect();
            if dropped && as_text {
                out.insert("type".into(), "string".into());
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(|v| strip(v, drop, as_text)).collect()),
        other => other.clone(),
    }
}

/// Characters a URI fragment may not hold raw (RFC 3986): controls, space,
/// `"`, `<`, `>`, `\`, `^`, backtick, `{`, `|`, `}`, `#`, `[` and `]`
/// are encoded; the rest of a JSON Pointer stays.
const FRAGMENT: &percent_encoding::AsciiSet =
    &percent_encoding::CONTROLS.add(b' ').add(b'"').add(b'<').add(b'>').add(b'\\').add(b'^').add(b'`').add(b'{').add(b'|').add(b'}').add(b'#').add(b'[').add(b']');

/// `schema` with every local `$ref` fragment percent-encoded where a URI
/// requires it (`#/definitions/TopLevel<FacetedUnitSpec>`), borrowed when
/// none needs it. Meta-schema validation, the compiled validator and the
/// renderers read URIs; [`super::SchemaDoc::lookup`] percent-decodes, so
/// the encoded reference names the same node.
///
/// Patterns in ECMA-262's web-compatibility grammar are escaped into the
/// `u` grammar here too (super::annex_b), for the same readers.
pub(crate) fn encode_local_refs(schema: &Value) -> Cow<'_, Value> {
    match (needs_encoding(schema), super::annex_b::has_annex_b(schema)) {
        (false, false) => Cow::Borrowed(schema),
        (true, false) => Cow::Owned(encode(schema)),
        (false, true) => Cow::Owned(super::annex_b::escape_annex_b(schema)),
        (true, true) => Cow::Owned(super::annex_b::escape_annex_b(&encode(schema))),
    }
}

fn encoded(reference: &str) -> Option<String> {
    let fragment = reference.strip_prefix('#')?;
    // Escapes already there (`%3A`) stay as written: `%` is not in the set.
    let again = percent_encoding::utf8_percent_encode(fragment, FRAGMENT).to_string();
    (again != fragment).then(|| format!("#{again}"))
}

fn needs_encoding(value: &Value) -> bool {
    match value {
        Value::Object(map) => map.get("$ref").and_then(Value::as_str).and_then(encoded).is_some() || map.values().any(needs_encoding),
        Value::Array(items) => items.iter().any(needs_encoding),
        _ => false,
    }
}

fn encode(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut out: Map<String, Value> = map.iter().map(|(k, v)| (k.clone(), encode(v))).collect();
            if let Some(fixed) = map.get("$ref").and_then(Value::as_str).and_then(encoded) {
                out.insert("$ref".into(), fixed.into());
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(encode).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn meta_schemas_are_known_by_uri() {
        for uri in ["http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft/2020-12/schema", "http://json-schema.org/draft-04/schema"] {
            assert!(is_meta_schema(uri) && !is_unresolvable(uri), "{uri}");
        }
        for uri in ["https://json.schemastore.org/base.json", "other.json#/definitions/a", "http://json-schema.org/draft-07/schema#/definitions/x"] {
            assert!(is_unresolvable(uri), "{uri}");
        }
        assert!(!is_external("#/definitions/a"));
    }

    #[test]
    fn pointers_that_need_percent_encoding_are_encoded_once() {
        let schema = json!({"properties": {"a": {"$ref": "#/definitions/TopLevel<FacetedUnitSpec>"}, "b": {"$ref": "#/definitions/a%20b"},
            "c": {"$ref": "#/definitions/x|y"}}});
        let fixed = encode_local_refs(&schema);
        assert_eq!(fixed["properties"]["a"]["$ref"], "#/definitions/TopLevel%3CFacetedUnitSpec%3E");
        assert_eq!(fixed["properties"]["b"]["$ref"], "#/definitions/a%20b");
        assert_eq!(fixed["properties"]["c"]["$ref"], "#/definitions/x%7Cy");
        assert!(matches!(encode_local_refs(&json!({"$ref": "#/definitions/a%3Cb%3E"})), Cow::Borrowed(_)));
        // An escape the author wrote is kept, not decoded and re-spelt.
        assert!(matches!(encode_local_refs(&json!({"$ref": "#/definitions/a%3Ab%2B"})), Cow::Borrowed(_)));
    }

    #[test]
    fn stripping_keeps_everything_else() {
        let schema = json!({"properties": {"a": {"$ref": "https://x/y.json", "title": "A"}, "b": {"$ref": "#/$defs/b"}}});
        assert_eq!(unresolvable_refs(&schema), [("/properties/a".to_owned(), "https://x/y.json".to_owned())]);
        let stripped = without_refs(&schema, is_unresolvable);
        assert_eq!(stripped["properties"]["a"], json!({"title": "A"}));
        assert_eq!(stripped["properties"]["b"]["$ref"], "#/$defs/b");
        assert!(matches!(without_refs(&json!({"type": "string"}), is_unresolvable), Cow::Borrowed(_)));
        let text = external_refs_as_text(&schema);
        assert_eq!(text["properties"]["a"], json!({"title": "A", "type": "string"}));
    }

    proptest::proptest! {
        /// An encoded pointer names the same node as the raw one.
        #[test]
        fn encoded_pointers_find_the_same_node(name in "[ -~]{1,12}") {
            let escaped = name.replace('~', "~0").replace('/', "~1");
            let root = json!({"definitions": {name.clone(): {"title": "target"}}, "properties": {"a": {"$ref": format!("#/definitions/{escaped}")}}});
            let encoded = encode_local_refs(&root);
            let reference = encoded["properties"]["a"]["$ref"].as_str().unwrap();
            let limits = crate::request::limits::Limits::default();
            let doc = super::super::SchemaDoc::new(&root, &limits);
            let raw = root["properties"]["a"]["$ref"].as_str().unwrap();
            // A raw `%` already reads as an escape (URI syntax): then the
            // encoded reference must name whatever the raw one names.
            proptest::prop_assert_eq!(doc.lookup(reference), doc.lookup(raw), "{}", reference);
            if !name.contains('%') {
                proptest::prop_assert_eq!(doc.lookup(reference).map(|n| n["title"].clone()), Some(json!("target")), "{}", reference);
            }
        }
    }
}
