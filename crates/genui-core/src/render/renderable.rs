//! The schema handed to renderers: `output` with the nullable idiom
//! `anyOf`/`oneOf: [X, {"type": "null"}]` written as a type array.
//!
//! Pydantic and zod mark every optional field that way. JSON Forms renders
//! it as "anyOf-0 | anyOf-1" tabs with unlabelled inputs (and "No applicable
//! renderer" for the null tab); RJSF as an option selector. Both render
//! `"type": ["string", "null"]` as a plain input. The rewrite accepts
//! exactly the same values (`null` joins an `enum` if there is one), and is
//! applied only where `X` is a plain typed schema; submissions are always
//! validated against the original `output`.

pub(crate) mod mirror;

use crate::render::words::Lang;
use serde_json::{Map, Value};
use std::borrow::Cow;

/// The renderer's copy of `schema` (borrowed when nothing needs rewriting).
/// External `$ref`s are text fields there (`schema::external`).
pub(crate) fn renderable_schema(schema: &Value) -> Cow<'_, Value> {
    let encoded = crate::schema::encode_local_refs(schema);
    let text = match encoded {
        Cow::Borrowed(schema) => crate::schema::external_refs_as_text(schema),
        Cow::Owned(encoded) => {
            Cow::Owned(crate::schema::external_refs_as_text(&encoded).into_owned())
        }
    };
    let schema = match text {
        Cow::Borrowed(schema) => schema,
        Cow::Owned(text) if needs_rewrite(&text) => return Cow::Owned(rewrite(&text)),
        owned => return owned,
    };
    if !needs_rewrite(schema) {
        return Cow::Borrowed(schema);
    }
    Cow::Owned(rewrite(schema))
}

/// JSON Forms' copy: [`renderable_schema`] plus the mirrors
/// [`mirror::jsonforms_schema`] adds so `@jsonforms/core`
/// resolves fields of dependent schemas and shows a discriminated `oneOf`'s
/// discriminator as a choice, and the options' labels in `lang`
/// ([`labelled`]). Same accepted values as `schema`.
pub(crate) fn jsonforms_schema(schema: &Value, lang: Lang) -> Cow<'_, Value> {
    let renderable = renderable_schema(schema);
    let limits = crate::terms::limits::Limits::default();
    let mirrored = match mirror::jsonforms_schema(&renderable, &limits) {
        Some(mirrored) => Cow::Owned(mirrored),
        None => renderable,
    };
    labelled(mirrored, lang)
}

/// `schema` with its options labelled in `lang`: each string `enum` whose
/// values do not read as words as `oneOf` of `const` + `title`, each
/// `anyOf` of `const`s as `oneOf` ([`crate::render::choices::labelled_schema`]).
fn labelled(schema: Cow<'_, Value>, lang: Lang) -> Cow<'_, Value> {
    match crate::render::choices::labelled_schema(&schema, lang) {
        Some(labelled) => Cow::Owned(labelled),
        None => schema,
    }
}

/// RJSF's copy: [`renderable_schema`] plus `dependentSchemas` also written
/// as `dependencies`, which RJSF reads to show a dependent field (see
/// [`mirror::rjsf_schema`]), and the options' labels in `lang`. Same
/// accepted values.
pub(crate) fn rjsf_schema(schema: &Value, lang: Lang) -> Cow<'_, Value> {
    let renderable = renderable_schema(schema);
    let mirrored = match mirror::rjsf_schema(&renderable) {
        Some(mirrored) => Cow::Owned(mirrored),
        None => renderable,
    };
    let mirrored = labelled(mirrored, lang);
    if !has_large_enum(&mirrored) {
        return mirrored;
    }
    let mut owned = mirrored.into_owned();
    add_large_enum_examples(&mut owned);
    Cow::Owned(owned)
}

/// Whether a string enum over the count limit is there (issue 17).
fn is_large_enum(map: &Map<String, Value>) -> bool {
    let limit = crate::terms::limits::Limits::default().max_enum_values;
    map.get("enum")
        .and_then(Value::as_array)
        .is_some_and(|e| e.len() > limit && e.iter().all(Value::is_string))
        && !map.contains_key("examples")
}

fn has_large_enum(value: &Value) -> bool {
    match value {
        Value::Object(map) => is_large_enum(map) || map.values().any(has_large_enum),
        Value::Array(items) => items.iter().any(has_large_enum),
        _ => false,
    }
}

/// RJSF's text input lists a field's `examples` in a `<datalist>`: a large
/// enum's values go there too, so its text widget is a searchable choice.
fn add_large_enum_examples(value: &mut Value) {
    match value {
        Value::Object(map) => {
            if is_large_enum(map) {
                let values = map["enum"].clone();
                map.insert("examples".into(), values);
            }
            map.values_mut().for_each(add_large_enum_examples);
        }
        Value::Array(items) => items.iter_mut().for_each(add_large_enum_examples),
        _ => {}
    }
}

fn needs_rewrite(value: &Value) -> bool {
    match value {
        Value::Object(map) => nullable_member(map).is_some() || map.values().any(needs_rewrite),
        Value::Array(items) => items.iter().any(needs_rewrite),
        _ => false,
    }
}

fn rewrite(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut out: Map<String, Value> =
                map.iter().map(|(k, v)| (k.clone(), rewrite(v))).collect();
            if let Some((key, member)) = nullable_member(map) {
                out.remove(key);
                let member = rewrite(member);
                for (k, v) in member.as_object().into_iter().flatten() {
                    out.entry(k.clone()).or_insert_with(|| v.clone());
                }
                let kind = out.get("type").cloned().unwrap_or(Value::Null);
                out.insert("type".into(), Value::Array(vec![kind, "null".into()]));
                if let Some(Value::Array(values)) = out.get_mut("enum") {
                    if !values.contains(&Value::Null) {
                        values.push(Value::Null);
                    }
                }
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(rewrite).collect()),
        other => other.clone(),
    }
}

/// `anyOf`/`oneOf` of exactly `[X, {"type": "null"}]` (either order) where
/// `X` has a single string `type` and nothing that changes how the parent's
/// keywords combine with it (`$ref`, combinators, `const`, `type` clashes).
fn nullable_member(map: &Map<String, Value>) -> Option<(&'static str, &Value)> {
    for key in ["anyOf", "oneOf"] {
        let Some(Value::Array(members)) = map.get(key) else {
            continue;
        };
        let is_null = |m: &Value| {
            m.as_object()
                .is_some_and(|o| o.len() == 1 && o.get("type") == Some(&"null".into()))
        };
        let member = match members.as_slice() {
            [a, b] if is_null(b) && !is_null(a) => a,
            [a, b] if is_null(a) && !is_null(b) => b,
            _ => continue,
        };
        let Some(fields) = member.as_object() else {
            continue;
        };
        let plain = fields.get("type").is_some_and(Value::is_string)
            && !["$ref", "anyOf", "oneOf", "allOf", "not", "const", "if"]
                .iter()
                .any(|k| fields.contains_key(*k));
        let no_clash = fields
            .keys()
            .all(|k| !map.contains_key(k) || k == "type" && map.get("type").is_none());
        let parent_free =
            map.get("type").is_none() && !map.contains_key("$ref") && !map.contains_key("allOf");
        if plain && no_clash && parent_free && !(key == "anyOf" && map.contains_key("oneOf")) {
            return Some((key, member));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_fixture_answers_with_output_changed_only_by_this_rewrite() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/generate");
        let mut count = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|x| x != "json") {
                continue;
            }
            let args: Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let body = serde_json::to_vec(
                &serde_json::json!({"tool": "generateUserInterface", "arguments": args}),
            )
            .unwrap();
            let job = crate::service::prepare_generate(
                &body,
                None,
                &crate::terms::limits::Limits::default(),
            )
            .unwrap();
            let response: Value = serde_json::from_str(&job.answer(None).response.body).unwrap();
            assert_eq!(
                response["jsonSchema"],
                jsonforms_schema(&args["output"], Lang::default()).into_owned(),
                "{}: the data contract changed",
                path.display()
            );
            count += 1;
        }
        assert!(count >= 30, "fixture corpus shrank to {count}");
    }
    use serde_json::json;

    #[test]
    fn nullable_fields_become_type_arrays_with_the_same_values() {
        let schema = json!({"type": "object", "properties": {
            "name": {"anyOf": [{"type": "string", "maxLength": 5}, {"type": "null"}], "title": "Name", "default": null},
            "size": {"oneOf": [{"type": "null"}, {"type": "string", "enum": ["s", "m"]}]},
            "addr": {"anyOf": [{"$ref": "#/$defs/a"}, {"type": "null"}]}
        }, "$defs": {"a": {"type": "object"}}});
        let out = renderable_schema(&schema).into_owned();
        assert_eq!(
            out["properties"]["name"],
            json!({"title": "Name", "default": null, "type": ["string", "null"], "maxLength": 5})
        );
        assert_eq!(out["properties"]["size"]["enum"], json!(["s", "m", null]));
        assert_eq!(
            out["properties"]["addr"], schema["properties"]["addr"],
            "$ref members are left alone"
        );
        let (original, rewritten) = (
            jsonschema::validator_for(&schema).unwrap(),
            jsonschema::validator_for(&out).unwrap(),
        );
        for data in [
            json!({"name": null}),
            json!({"name": "abc"}),
            json!({"name": "toolong"}),
            json!({"name": 3}),
            json!({"size": null}),
            json!({"size": "m"}),
            json!({"size": "xl"}),
        ] {
            assert_eq!(
                original.is_valid(&data),
                rewritten.is_valid(&data),
                "{data}"
            );
        }
        assert!(matches!(
            renderable_schema(&json!({"type": "string"})),
            Cow::Borrowed(_)
        ));
    }
}
