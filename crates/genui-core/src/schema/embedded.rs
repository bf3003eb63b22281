//! Embedded resources: a subschema with an absolute `$id` is a schema of
//! its own inside `output`, and a `#...` reference inside it means that
//! resource's nodes, not the document root's (Goreleaser's
//! `$defs/FileInfo` holds `{"$id": ".../file-info", "$ref":
//! "#/$defs/FileInfo", "$defs": {"FileInfo": ...}}`).
//!
//! The worker's resolver and JSON Forms' read every `#` pointer from the
//! root, where such a reference is a cycle. So `output` is rebased once,
//! when a request is read: every local reference inside a resource gets
//! the resource's pointer in front, a reference to the resource's `$id`
//! (with or without a fragment) becomes a local one, and the inner `$id`
//! goes. The result means the same to every validator and has one base.
//! A relative `$id` is left alone (nothing is fetched or joined).

use serde_json::{Map, Value};

/// Keywords whose values are data, not schemas.
const DATA_KEYWORDS: [&str; 5] = ["enum", "const", "default", "examples", "example"];

/// `output` with its embedded resources rebased onto the root (itself
/// when it has none).
pub(crate) fn rebase_embedded(mut output: Value) -> Value {
    // The common case (no inner `$id`) costs one walk without allocation.
    if !output.as_object().is_some_and(|root| {
        root.iter()
            .any(|(k, v)| !DATA_KEYWORDS.contains(&k.as_str()) && has_inner_id(v))
    }) {
        return output;
    }
    let mut resources = Vec::new();
    collect(&output, "", &mut resources);
    if resources.is_empty() {
        return output;
    }
    rewrite(&mut output, "", "", &resources);
    output
}

/// An absolute `$id` of a subschema (not the root's).
fn embedded_id<'v>(map: &'v Map<String, Value>, pointer: &str) -> Option<&'v str> {
    map.get("$id")
        .and_then(Value::as_str)
        .filter(|id| !pointer.is_empty() && id.contains("://"))
}

/// Whether `value` (below the root) holds an object with an absolute `$id`.
fn has_inner_id(value: &Value) -> bool {
    match value {
        Value::Object(map) => {
            map.get("$id")
                .and_then(Value::as_str)
                .is_some_and(|id| id.contains("://"))
                || map
                    .iter()
                    .any(|(k, v)| !DATA_KEYWORDS.contains(&k.as_str()) && has_inner_id(v))
        }
        Value::Array(items) => items.iter().any(has_inner_id),
        _ => false,
    }
}

fn collect(value: &Value, pointer: &str, out: &mut Vec<(String, String)>) {
    match value {
        Value::Object(map) => {
            if let Some(id) = embedded_id(map, pointer) {
                out.push((id.trim_end_matches('#').to_owned(), pointer.to_owned()));
            }
            for (key, child) in map
                .iter()
                .filter(|(k, _)| !DATA_KEYWORDS.contains(&k.as_str()))
            {
                collect(
                    child,
                    &format!("{pointer}/{}", crate::pointer::Pointer::escape(key)),
                    out,
                );
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                collect(child, &format!("{pointer}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// The root-based form of `reference` met inside the resource at `base`.
fn rebased(reference: &str, base: &str, resources: &[(String, String)]) -> Option<String> {
    if let Some(fragment) = reference.strip_prefix('#') {
        return (!base.is_empty() && (fragment.is_empty() || fragment.starts_with('/')))
            .then(|| format!("#{base}{fragment}"));
    }
    let (uri, fragment) = reference.split_once('#').unwrap_or((reference, ""));
    let (_, at) = resources.iter().find(|(id, _)| id == uri)?;
    (fragment.is_empty() || fragment.starts_with('/')).then(|| format!("#{at}{fragment}"))
}

fn rewrite(value: &mut Value, pointer: &str, base: &str, resources: &[(String, String)]) {
    match value {
        Value::Object(map) => {
            let base = match embedded_id(map, pointer) {
                Some(_) => {
                    map.remove("$id");
                    map.remove("$schema");
                    pointer.to_owned()
                }
                None => base.to_owned(),
            };
            if let Some(fixed) = map
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| rebased(r, &base, resources))
            {
                map.insert("$ref".into(), fixed.into());
            }
            for (key, child) in map
                .iter_mut()
                .filter(|(k, _)| !DATA_KEYWORDS.contains(&k.as_str()))
            {
                let at = format!("{pointer}/{}", crate::pointer::Pointer::escape(key));
                rewrite(child, &at, &base, resources);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter_mut().enumerate() {
                rewrite(child, &format!("{pointer}/{i}"), base, resources);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn goreleaser() -> Value {
        json!({"$id": "https://example.com/project", "$ref": "#/$defs/Project", "$defs": {
            "Project": {"type": "object", "properties": {"file": {"$ref": "#/$defs/FileInfo"},
                "other": {"$ref": "https://example.com/file-info#/$defs/FileInfo"}}},
            "FileInfo": {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "https://example.com/file-info",
                "$ref": "#/$defs/FileInfo", "$defs": {"FileInfo": {"type": "object", "properties": {"mode": {"type": "integer"}}}}}}})
    }

    #[test]
    fn references_inside_a_resource_are_rebased() {
        let out = rebase_embedded(goreleaser());
        let info = &out["$defs"]["FileInfo"];
        assert_eq!(info["$ref"], "#/$defs/FileInfo/$defs/FileInfo");
        assert!(info.get("$id").is_none() && info.get("$schema").is_none());
        assert_eq!(
            out["$defs"]["Project"]["properties"]["file"]["$ref"], "#/$defs/FileInfo",
            "outside the resource: unchanged"
        );
        assert_eq!(
            out["$defs"]["Project"]["properties"]["other"]["$ref"],
            "#/$defs/FileInfo/$defs/FileInfo"
        );
        assert_eq!(
            out["$id"], "https://example.com/project",
            "the root keeps its id"
        );
        let plain =
            json!({"properties": {"a": {"$ref": "#/$defs/a"}}, "$defs": {"a": {"type": "string"}}});
        assert_eq!(rebase_embedded(plain.clone()), plain);
    }

    #[test]
    fn validators_agree_before_and_after() {
        let before = jsonschema::validator_for(&goreleaser()).unwrap();
        let after = jsonschema::validator_for(&rebase_embedded(goreleaser())).unwrap();
        for data in [
            json!({"file": {"mode": 1}}),
            json!({"file": {"mode": "x"}}),
            json!({"other": {"mode": "x"}}),
            json!({"other": {"mode": 2}}),
        ] {
            assert_eq!(before.is_valid(&data), after.is_valid(&data), "{data}");
        }
    }

    fn scalar() -> impl proptest::strategy::Strategy<Value = Value> {
        use proptest::prelude::*;
        prop_oneof![
            Just(Value::Null),
            any::<i32>().prop_map(Value::from),
            "[a-z]{0,3}".prop_map(Value::from),
            any::<bool>().prop_map(Value::from)
        ]
    }

    proptest::proptest! {
        /// Whatever the types inside and outside a resource, and whatever
        /// the data, jsonschema accepts the same values before and after.
        #[test]
        fn rebasing_keeps_what_validates(
            outer in proptest::sample::select(vec!["string", "integer", "boolean", "null"]),
            inner in proptest::sample::select(vec!["string", "integer", "boolean", "null"]),
            nested in proptest::bool::ANY,
            a in scalar(), b in scalar(), c in scalar(),
        ) {
            let mut resource = json!({"$id": "https://x.example/r", "$ref": "#/$defs/T", "$defs": {"T": {"type": inner}}});
            if nested {
                resource["$defs"]["T"] = json!({"$id": "https://x.example/r2", "$ref": "#/$defs/U", "$defs": {"U": {"type": inner}}});
            }
            let schema = json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
                "$defs": {"R": resource, "T": {"type": outer}},
                "properties": {"a": {"$ref": "#/$defs/R"}, "b": {"$ref": "https://x.example/r#/$defs/T"}, "c": {"$ref": "#/$defs/T"}}});
            let before = jsonschema::validator_for(&schema).unwrap();
            let after = jsonschema::validator_for(&rebase_embedded(schema.clone())).unwrap();
            let data = json!({"a": a, "b": b, "c": c});
            proptest::prop_assert_eq!(before.is_valid(&data), after.is_valid(&data), "{}", data);
        }
    }
}
