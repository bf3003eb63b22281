//! The renderers' copies of `output` that need more than the nullable
//! rewrite, each accepting exactly the values the original accepts:
//!
//! - JSON Forms resolves scopes through `oneOf`/`allOf`/`then`/`else` but
//!   not through dependent schemas, and never sets a discriminated `oneOf`'s
//!   `const`: [`jsonforms_schema`] mirrors each dependent schema into
//!   `allOf` and gives the discriminator a property of titled choices;
//! - RJSF shows the fields of draft-07 `dependencies` but not of
//!   `dependentSchemas`: [`rjsf_schema`] writes the latter as the former.

use crate::plan::conditions::discriminator;
use crate::schema::SchemaDoc;
use crate::terms::limits::Limits;
use serde_json::{json, Map, Value};

/// JSON Forms' copy (`None` when nothing changes): each
/// `dependentSchemas`/`dependencies` entry `a: S` also written as an
/// `allOf` member `{if: {required: [a]}, then: S}` (the same constraint
/// twice), and each discriminated `oneOf` given its discriminator as a
/// property with the branch values as titled choices (which the branches
/// imply already).
pub(crate) fn jsonforms_schema(schema: &Value, limits: &Limits) -> Option<Value> {
    if !mentions(
        schema,
        &["oneOf", "anyOf", "dependentSchemas", "dependencies"],
        0,
    ) {
        return None;
    }
    let doc = SchemaDoc::new(schema, limits);
    let mut copy = schema.clone();
    let changed = mirror(&doc, &mut copy, 0);
    changed.then_some(copy)
}

/// RJSF's copy: RJSF shows the fields of draft-07 `dependencies` but not
/// of 2019-09's `dependentSchemas`, so each `dependentSchemas` is also
/// written as `dependencies` (not a keyword of 2019-09/2020-12, so the
/// accepted values do not change; only for those drafts).
pub(crate) fn rjsf_schema(schema: &Value) -> Option<Value> {
    let draft = schema
        .get("$schema")
        .and_then(Value::as_str)
        .unwrap_or("2020-12");
    let modern = draft.contains("2020-12") || draft.contains("2019-09");
    if !modern || !mentions(schema, &["dependentSchemas"], 0) {
        return None;
    }
    let mut copy = schema.clone();
    mirror_dependencies(&mut copy, 0);
    Some(copy)
}

fn mirror_dependencies(value: &mut Value, depth: usize) {
    if depth > 128 {
        return;
    }
    match value {
        Value::Object(map) => {
            map.values_mut()
                .for_each(|v| mirror_dependencies(v, depth + 1));
            if let Some(dependent) = map.get("dependentSchemas").cloned() {
                map.entry("dependencies").or_insert(dependent);
            }
        }
        Value::Array(items) => items
            .iter_mut()
            .for_each(|v| mirror_dependencies(v, depth + 1)),
        _ => {}
    }
}

/// Whether any object in `value` has one of `keys` (a cheap pre-check).
fn mentions(value: &Value, keys: &[&str], depth: usize) -> bool {
    depth <= 128
        && match value {
            Value::Object(map) => {
                keys.iter().any(|k| map.contains_key(*k))
                    || map.values().any(|v| mentions(v, keys, depth + 1))
            }
            Value::Array(items) => items.iter().any(|v| mentions(v, keys, depth + 1)),
            _ => false,
        }
}

fn mirror(doc: &SchemaDoc<'_>, value: &mut Value, depth: usize) -> bool {
    if depth > 128 {
        return false;
    }
    let mut changed = match value {
        Value::Object(map) => map
            .values_mut()
            .fold(false, |c, v| mirror(doc, v, depth + 1) | c),
        Value::Array(items) => items
            .iter_mut()
            .fold(false, |c, v| mirror(doc, v, depth + 1) | c),
        _ => false,
    };
    if let Value::Object(map) = value {
        changed |= mirror_dependents(map);
        changed |= add_discriminator(doc, map);
    }
    changed
}

fn mirror_dependents(map: &mut Map<String, Value>) -> bool {
    let mut extra = Vec::new();
    for key in ["dependentSchemas", "dependencies"] {
        for (trigger, schema) in map
            .get(key)
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            if schema.get("properties").is_some() {
                extra.push(json!({"if": {"required": [trigger]}, "then": schema}));
            }
        }
    }
    if extra.is_empty() {
        return false;
    }
    match map
        .entry("allOf")
        .or_insert_with(|| Value::Array(Vec::new()))
    {
        Value::Array(members) => members.extend(extra),
        _ => return false,
    }
    true
}

fn add_discriminator(doc: &SchemaDoc<'_>, map: &mut Map<String, Value>) -> bool {
    // Looked at in place (moved out and back): a clone here copied every
    // object's whole subtree, a fifth of the CPU of a large form's miss.
    let node = Value::Object(std::mem::take(map));
    let found = discriminator(doc, &node);
    if let Value::Object(taken) = node {
        *map = taken;
    }
    let Some(found) = found else { return false };
    let properties = map
        .entry("properties")
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(properties) = properties else {
        return false;
    };
    if properties.contains_key(&found.name) {
        return false;
    }
    let choices: Vec<Value> = found
        .branches
        .iter()
        .map(|b| {
            let title = b.title.clone().unwrap_or_else(|| {
                b.value
                    .as_str()
                    .map(str::to_owned)
                    .unwrap_or_else(|| b.value.to_string())
            });
            json!({"const": b.value, "title": title})
        })
        .collect();
    let mut property = json!({"oneOf": choices});
    if found.branches.iter().all(|b| b.value.is_string()) {
        property["type"] = json!("string");
    }
    if let Some(title) = &found.title {
        property["title"] = json!(title);
    }
    properties.insert(found.name.clone(), property);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirrors_keep_the_accepted_values() {
        let output = json!({"type": "object", "properties": {"pay": {"oneOf": [
            {"type": "object", "title": "A", "properties": {"m": {"const": "a"}, "x": {}}},
            {"type": "object", "properties": {"m": {"const": "b"}, "y": {}}}]}, "card": {}},
            "dependentSchemas": {"card": {"properties": {"bill": {"type": "string"}}, "required": ["bill"]}}});
        let mirrored = jsonforms_schema(&output, &Limits::default()).unwrap();
        assert_eq!(
            mirrored["properties"]["pay"]["properties"]["m"],
            json!({"type": "string", "oneOf": [{"const": "a", "title": "A"}, {"const": "b", "title": "b"}]})
        );
        assert_eq!(mirrored["allOf"][0]["if"], json!({"required": ["card"]}));
        let rjsf = rjsf_schema(&output).unwrap();
        assert_eq!(rjsf["dependencies"], output["dependentSchemas"]);
        let (a, b) = (
            jsonschema::validator_for(&output).unwrap(),
            jsonschema::validator_for(&mirrored).unwrap(),
        );
        for data in [
            json!({}),
            json!({"card": "1"}),
            json!({"card": "1", "bill": "x"}),
            json!({"pay": {"m": "c"}}),
            json!({"pay": {"m": "a"}}),
        ] {
            assert_eq!(a.is_valid(&data), b.is_valid(&data), "{data}");
        }
        assert_eq!(
            rjsf_schema(
                &json!({"$schema": "http://json-schema.org/draft-07/schema#", "dependentSchemas": {}})
            ),
            None
        );
    }
}
