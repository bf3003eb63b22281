//! `$ref`s that leave their schema object: which documents the worker holds.
//!
//! Nothing is ever fetched. The worker holds `output` itself, every
//! resource embedded in it (each `$id`, resolved against the base it sits
//! in, as jsonschema's `referencing` registry resolves it), and the standard
//! meta-schemas, which jsonschema embeds. A `$ref` or `$dynamicRef` into any
//! of these, by JSON Pointer, anchor, absolute or relative URI or URN,
//! resolves when the schema is compiled and is checked like any other
//! keyword. Only a reference to another document ([`unheld_refs`]) cannot
//! be resolved: its schema object is compiled without it
//! ([`without_unheld`]), so the place accepts any JSON, the submission's
//! tool message names it (`metadata.genuiUnchecked`), and `meta.warnings`
//! says so at generation (`unresolved_ref`).
//!
//! In views ([`super::SchemaDoc::resolve`]) every reference that is not a
//! `#` fragment is opaque: the field is an unconstrained value, edited as
//! JSON text.

use jsonschema::Draft;
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

/// The meta-schemas jsonschema embeds, by URI without the fragment.
const META_SCHEMAS: [&str; 5] = [
    "json-schema.org/draft-04/schema",
    "json-schema.org/draft-06/schema",
    "json-schema.org/draft-07/schema",
    "json-schema.org/draft/2019-09/schema",
    "json-schema.org/draft/2020-12/schema",
];

/// The keywords that name another schema by URI reference (`$recursiveRef`
/// is always `#`, inside the document).
const REFERENCE_KEYWORDS: [&str; 2] = ["$ref", "$dynamicRef"];

/// The base URI jsonschema gives a document without an `$id`.
const DEFAULT_BASE: &str = "json-schema:///";

/// Whether `reference` leaves its schema object's resource (does not start with `#`).
pub(crate) fn is_external(reference: &str) -> bool {
    !reference.starts_with('#')
}

/// Whether `reference` names a standard meta-schema (`http` or `https`,
/// with or without an empty fragment).
pub(crate) fn is_meta_schema(reference: &str) -> bool {
    let bare = reference.trim_end_matches('#');
    let bare = bare
        .strip_prefix("https://")
        .or_else(|| bare.strip_prefix("http://"))
        .unwrap_or("");
    META_SCHEMAS.contains(&bare)
}

/// A reference keyword, in a schema object, to a document the worker does
/// not hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unheld {
    /// The schema object's JSON Pointer in `output`.
    pub(crate) pointer: String,
    /// `$ref` or `$dynamicRef`.
    pub(crate) keyword: &'static str,
    /// The reference as written.
    pub(crate) reference: String,
}

/// Every reference in `schema` (read under `draft`, or the draft an embedded
/// `$schema` names) to a document that is neither `schema`, nor a resource
/// embedded in it, nor a meta-schema jsonschema embeds. Only schema
/// positions count (a `$ref` inside `const` or `enum` is data).
pub(crate) fn unheld_refs(schema: &Value, draft: Draft) -> Vec<Unheld> {
    if !names_other_resource(schema) {
        return Vec::new();
    }
    let Ok(base) = referencing::uri::from_str(DEFAULT_BASE) else {
        return Vec::new();
    };
    let mut walk = ResourceWalk::default();
    walk.visit(schema, &base, draft, String::new());
    let held =
        |uri: &str| walk.held.contains(uri) || referencing::SPECIFICATIONS.contains_resource(uri);
    walk.references
        .into_iter()
        .filter(|(_, document)| !document.as_deref().is_some_and(held))
        .map(|(unheld, _)| unheld)
        .collect()
}

/// Whether any reference keyword in `value` is not a bare `#` fragment (the
/// common schema has none and costs one walk).
pub(crate) fn names_other_resource(value: &Value) -> bool {
    super::walk::any_object(value, &|map| {
        REFERENCE_KEYWORDS
            .iter()
            .any(|k| map.get(*k).and_then(Value::as_str).is_some_and(is_external))
    })
}

/// The documents a schema holds, and its references with the document each names.
#[derive(Default)]
struct ResourceWalk {
    /// Every resource's URI, without fragment.
    held: HashSet<String>,
    /// Each non-fragment reference and the document it names (`None`: not a URI reference).
    references: Vec<(Unheld, Option<String>)>,
}

impl ResourceWalk {
    fn visit(
        &mut self,
        node: &Value,
        base: &referencing::Uri<String>,
        draft: Draft,
        pointer: String,
    ) {
        let Value::Object(map) = node else { return };
        let draft = draft.detect(node);
        let resolved = draft
            .create_resource_ref(node)
            .id()
            .and_then(|id| referencing::uri::resolve_against(&base.borrow(), id).ok());
        let base = resolved.as_ref().unwrap_or(base);
        if pointer.is_empty() || resolved.is_some() {
            self.held.insert(document_of(base.as_str()));
        }
        for keyword in REFERENCE_KEYWORDS {
            let Some(reference) = map
                .get(keyword)
                .and_then(Value::as_str)
                .filter(|r| is_external(r))
            else {
                continue;
            };
            let document = referencing::uri::resolve_against(&base.borrow(), reference)
                .ok()
                .map(|uri| document_of(uri.as_str()));
            self.references.push((
                Unheld {
                    pointer: pointer.clone(),
                    keyword,
                    reference: reference.to_owned(),
                },
                document,
            ));
        }
        let places = child_places(map);
        for child in draft.subresources_of(node) {
            if let Some(suffix) = places.get(&(child as *const Value)) {
                self.visit(child, base, draft, format!("{pointer}{suffix}"));
            }
        }
    }
}
/// The URI of the document `uri` names (without its fragment).
fn document_of(uri: &str) -> String {
    uri.split_once('#')
        .map_or(uri, |(document, _)| document)
        .to_owned()
}

/// Where each child and grandchild of a schema object sits below it
/// (`/properties/a`, `/allOf/0`, `/items`), by address: the places
/// [`Draft::subresources_of`] can hand back.
fn child_places(map: &Map<String, Value>) -> HashMap<*const Value, String> {
    let mut places = HashMap::new();
    for (key, value) in map {
        let at = format!("/{}", crate::pointer::Pointer::escape(key));
        match value {
            Value::Object(children) => places.extend(children.iter().map(|(k, v)| {
                (
                    v as *const Value,
                    format!("{at}/{}", crate::pointer::Pointer::escape(k)),
                )
            })),
            Value::Array(items) => places.extend(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, v)| (v as *const Value, format!("{at}/{i}"))),
            ),
            _ => {}
        }
        places.insert(value as *const Value, at);
    }
    places
}

/// The schema an unheld reference points to instead when the document
/// reads `unevaluatedProperties`/`unevaluatedItems`: it accepts any JSON and,
/// as the unknown target might, evaluates every property and item, so the
/// keywords beside the reference refuse nothing it could have allowed.
const UNHELD_ID: &str = "urn:genui:unheld";

/// `schema` without its unheld reference keywords (borrowed when there are
/// none): what a validator can compile, each such place accepting any JSON.
/// Under 2019-09 and 2020-12, where `unevaluated*` keywords see what a
/// reference evaluated, such a reference points to [`UNHELD_ID`] instead.
pub(crate) fn without_unheld<'a>(
    schema: &'a Value,
    draft: Draft,
    unheld: &[Unheld],
) -> Cow<'a, Value> {
    if unheld.is_empty() {
        return Cow::Borrowed(schema);
    }
    let evaluates =
        matches!(draft, Draft::Draft201909 | Draft::Draft202012) && mentions_unevaluated(schema);
    let mut out = schema.clone();
    for place in unheld {
        if let Some(Value::Object(map)) = out.pointer_mut(&place.pointer) {
            match evaluates {
                true => map.insert(place.keyword.to_owned(), UNHELD_ID.into()),
                false => map.remove(place.keyword),
            };
        }
    }
    if let (true, Value::Object(root)) = (evaluates, &mut out) {
        let defs = root
            .entry("$defs")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(defs) = defs {
            defs.insert(
                UNHELD_ID.into(),
                serde_json::json!({"$id": UNHELD_ID, "additionalProperties": true, "items": true}),
            );
        }
    }
    Cow::Owned(out)
}

fn mentions_unevaluated(value: &Value) -> bool {
    super::walk::any_key(value, &["unevaluatedProperties", "unevaluatedItems"])
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
    super::walk::any_object(value, &|map| {
        map.get("$ref").and_then(Value::as_str).is_some_and(drop)
    })
}

fn strip(value: &Value, drop: fn(&str) -> bool, as_text: bool) -> Value {
    match value {
        Value::Object(map) => {
            let dropped = map.get("$ref").and_then(Value::as_str).is_some_and(drop);
            let mut out: Map<String, Value> = map
                .iter()
                .filter(|(k, _)| !(dropped && *k == "$ref"))
                .map(|(k, v)| (k.clone(), strip(v, drop, as_text)))
                .collect();
            if dropped && as_text {
                out.insert("type".into(), "string".into());
            }
            Value::Object(out)
        }
        Value::Array(items) => {
            Value::Array(items.iter().map(|v| strip(v, drop, as_text)).collect())
        }
        other => other.clone(),
    }
}

/// Characters a URI fragment may not hold raw (RFC 3986): controls, space,
/// `"`, `<`, `>`, `\`, `^`, backtick, `{`, `|`, `}`, `#`, `[` and `]`
/// are encoded; the rest of a JSON Pointer stays.
const FRAGMENT: &percent_encoding::AsciiSet = &percent_encoding::CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'<')
    .add(b'>')
    .add(b'\\')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}')
    .add(b'#')
    .add(b'[')
    .add(b']');

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
    super::walk::any_object(value, &|map| {
        map.get("$ref")
            .and_then(Value::as_str)
            .and_then(encoded)
            .is_some()
    })
}

fn encode(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut out: Map<String, Value> =
                map.iter().map(|(k, v)| (k.clone(), encode(v))).collect();
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

    fn unheld(schema: &Value, draft: Draft) -> Vec<(String, String)> {
        unheld_refs(schema, draft)
            .into_iter()
            .map(|u| (u.pointer, u.reference))
            .collect()
    }

    #[test]
    fn meta_schemas_are_held() {
        for uri in [
            "http://json-schema.org/draft-07/schema#",
            "https://json-schema.org/draft/2020-12/schema",
            "http://json-schema.org/draft-04/schema",
        ] {
            assert!(is_meta_schema(uri), "{uri}");
            assert!(
                unheld(
                    &json!({"properties": {"s": {"$ref": uri}}}),
                    Draft::Draft202012
                )
                .is_empty(),
                "{uri}"
            );
        }
        for uri in [
            "https://json.schemastore.org/base.json",
            "other.json#/definitions/a",
        ] {
            assert_eq!(
                unheld(
                    &json!({"properties": {"s": {"$ref": uri}}}),
                    Draft::Draft202012
                )
                .len(),
                1,
                "{uri}"
            );
        }
        assert!(!is_external("#/definitions/a"));
    }

    #[test]
    fn references_by_id_are_held() {
        // The root's own `$id`, absolute.
        let root = json!({"$id": "https://example.com/r.json", "properties": {"x": {"$ref": "https://example.com/r.json#/$defs/n"}}, "$defs": {"n": {"type": "integer"}}});
        assert!(unheld(&root, Draft::Draft202012).is_empty());
        // An embedded URN, and a relative `$id` resolved against the root's.
        let root = json!({"$id": "https://example.com/root.json", "properties": {"age": {"$ref": "urn:example:age"}, "qty": {"$ref": "defs/qty.json"},
            "far": {"$ref": "https://example.com/other.json"}},
            "$defs": {"age": {"$id": "urn:example:age", "type": "integer"}, "qty": {"$id": "defs/qty.json", "minimum": 1}}});
        assert_eq!(
            unheld(&root, Draft::Draft202012),
            [(
                "/properties/far".to_owned(),
                "https://example.com/other.json".to_owned()
            )]
        );
        // draft-04 names resources with `id`; beside `$ref` an `id` changes nothing.
        let root = json!({"id": "http://x.example/a.json", "properties": {"p": {"$ref": "a.json#/definitions/d"}, "q": {"id": "b.json", "$ref": "b.json"}}, "definitions": {"d": {}}});
        assert_eq!(
            unheld(&root, Draft::Draft4),
            [("/properties/q".to_owned(), "b.json".to_owned())]
        );
        // A `$ref` inside `const` is data, not a reference.
        assert!(unheld(
            &json!({"const": {"$ref": "https://x.example/y"}}),
            Draft::Draft202012
        )
        .is_empty());
    }

    #[test]
    fn pointers_that_need_percent_encoding_are_encoded_once() {
        let schema = json!({"properties": {"a": {"$ref": "#/definitions/TopLevel<FacetedUnitSpec>"}, "b": {"$ref": "#/definitions/a%20b"},
            "c": {"$ref": "#/definitions/x|y"}}});
        let fixed = encode_local_refs(&schema);
        assert_eq!(
            fixed["properties"]["a"]["$ref"],
            "#/definitions/TopLevel%3CFacetedUnitSpec%3E"
        );
        assert_eq!(fixed["properties"]["b"]["$ref"], "#/definitions/a%20b");
        assert_eq!(fixed["properties"]["c"]["$ref"], "#/definitions/x%7Cy");
        assert!(matches!(
            encode_local_refs(&json!({"$ref": "#/definitions/a%3Cb%3E"})),
            Cow::Borrowed(_)
        ));
        // An escape the author wrote is kept, not decoded and re-spelt.
        assert!(matches!(
            encode_local_refs(&json!({"$ref": "#/definitions/a%3Ab%2B"})),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn stripping_keeps_everything_else() {
        let schema = json!({"properties": {"a": {"$ref": "https://x/y.json", "title": "A"}, "b": {"$ref": "#/$defs/b"}}, "$defs": {"b": {}}});
        let found = unheld_refs(&schema, Draft::Draft202012);
        assert_eq!(
            found,
            [Unheld {
                pointer: "/properties/a".into(),
                keyword: "$ref",
                reference: "https://x/y.json".into()
            }]
        );
        let stripped = without_unheld(&schema, Draft::Draft202012, &found);
        assert_eq!(stripped["properties"]["a"], json!({"title": "A"}));
        assert_eq!(stripped["properties"]["b"]["$ref"], "#/$defs/b");
        assert!(matches!(
            without_unheld(&json!({"type": "string"}), Draft::Draft202012, &[]),
            Cow::Borrowed(_)
        ));
        let text = external_refs_as_text(&schema);
        assert_eq!(
            text["properties"]["a"],
            json!({"title": "A", "type": "string"})
        );
    }

    proptest::proptest! {
        /// An encoded pointer names the same node as the raw one.
        #[test]
        fn encoded_pointers_find_the_same_node(name in "[ -~]{1,12}") {
            let escaped = name.replace('~', "~0").replace('/', "~1");
            let root = json!({"definitions": {name.clone(): {"title": "target"}}, "properties": {"a": {"$ref": format!("#/definitions/{escaped}")}}});
            let encoded = encode_local_refs(&root);
            let reference = encoded["properties"]["a"]["$ref"].as_str().unwrap();
            let limits = crate::terms::limits::Limits::default();
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
