//! Elicitation for MCP hosts without Apps (`2026-07-28`'s `input_required`
//! results): whether an `output` fits form mode's flat subset
//! ([`form_schema`]), the form-mode request made from it, and the answer
//! a retried call carries ([`Answer::read`]).
//!
//! Form mode's `requestedSchema` is "a restricted subset of JSON Schema:
//! only top-level properties are allowed, without nesting", each one a
//! `PrimitiveSchemaDefinition` (string with `format` email/uri/date/
//! date-time, number/integer, boolean, single- and multi-select enums,
//! titled or not). An `output` fits when every keyword it uses is one the
//! subset keeps, so the form can say everything `output` asks; one keyword
//! the subset would drop (`pattern`, `multipleOf`, a nested object, a
//! `$ref`) and the form goes by URL instead, where the whole form is shown.
//! Titles, descriptions, enum labels (`oneOf`/`anyOf` of `{const, title}`),
//! formats and bounds are carried over; pre-fill values of `data` become
//! `default`s where their type fits.

use serde_json::{json, Map, Value};

/// Why `output` does not fit form mode: where, and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NotFlat {
    /// JSON Pointer into `output`.
    pub(crate) pointer: String,
    /// What form mode cannot say there.
    pub(crate) why: String,
}

impl NotFlat {
    fn at(pointer: &str, why: impl Into<String>) -> Self {
        Self {
            pointer: pointer.to_owned(),
            why: why.into(),
        }
    }
}

/// Annotations kept on any property (they constrain nothing).
const ANNOTATIONS: [&str; 5] = ["title", "description", "default", "examples", "$comment"];
/// The formats form mode's `StringSchema` names.
const FORMATS: [&str; 4] = ["email", "uri", "date", "date-time"];

/// The form-mode `requestedSchema` for `output`, with `data`'s values as
/// defaults; or where and why `output` does not fit.
pub(crate) fn form_schema(output: &Value, data: &Value) -> Result<Value, NotFlat> {
    let Some(root) = output.as_object() else {
        return Err(NotFlat::at("", "`output` is not an object schema"));
    };
    only(
        root,
        "",
        &[
            "$schema",
            "$id",
            "type",
            "properties",
            "required",
            "additionalProperties",
            "title",
            "description",
            "$comment",
        ],
    )?;
    if root.get("type").is_some_and(|t| t != "object") {
        return Err(NotFlat::at("/type", "the answer is not an object"));
    }
    if root
        .get("additionalProperties")
        .is_some_and(|a| !a.is_boolean())
    {
        return Err(NotFlat::at(
            "/additionalProperties",
            "extra properties with a schema of their own",
        ));
    }
    let Some(properties) = root.get("properties").and_then(Value::as_object) else {
        return Err(NotFlat::at("/properties", "no properties to ask for"));
    };
    let mut requested = Map::new();
    for (name, schema) in properties {
        let pointer = format!("/properties/{}", super::escape(name));
        let mut field = primitive(schema, &pointer)?;
        // Annotations form mode does not name, and a default of another type, go.
        field.retain(|k, v| {
            !matches!(k.as_str(), "examples" | "$comment")
                && (k != "default" || fits_value_kind(schema, v))
        });
        if let Some(default) = data.get(name).filter(|v| fits_value(&field, v)) {
            field.insert("default".into(), default.clone());
        }
        requested.insert(name.clone(), Value::Object(field));
    }
    let mut schema = Map::new();
    schema.insert("type".into(), "object".into());
    schema.insert("properties".into(), Value::Object(requested));
    match root.get("required") {
        None => {}
        Some(Value::Array(names))
            if names
                .iter()
                .all(|n| n.as_str().is_some_and(|n| properties.contains_key(n))) =>
        {
            schema.insert("required".into(), Value::Array(names.clone()));
        }
        Some(_) => {
            return Err(NotFlat::at(
                "/required",
                "`required` names a field that is not a property",
            ))
        }
    }
    Ok(Value::Object(schema))
}

/// Fails unless `schema` uses only `allowed` keywords.
fn only(schema: &Map<String, Value>, pointer: &str, allowed: &[&str]) -> Result<(), NotFlat> {
    match schema.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(keyword) => Err(NotFlat::at(
            &format!("{pointer}/{}", super::escape(keyword)),
            format!("`{keyword}` has no place in an elicitation form"),
        )),
        None => Ok(()),
    }
}

/// The annotations and `extra` keywords.
fn with(extra: &[&'static str]) -> Vec<&'static str> {
    ANNOTATIONS.iter().chain(extra).copied().collect()
}

/// One property as a `PrimitiveSchemaDefinition`.
fn primitive(schema: &Value, pointer: &str) -> Result<Map<String, Value>, NotFlat> {
    let Some(object) = schema.as_object() else {
        return Err(NotFlat::at(
            pointer,
            "a property whose schema is not an object",
        ));
    };
    let kind = match object.get("type") {
        Some(Value::String(kind)) => kind.as_str(),
        // `{"enum": [...]}` or `{"oneOf": [{const, title}]}` of strings.
        None if object.contains_key("enum") || object.contains_key("oneOf") => "string",
        Some(_) => {
            return Err(NotFlat::at(
                &format!("{pointer}/type"),
                "a property of several types",
            ))
        }
        None => return Err(NotFlat::at(pointer, "a property without a type")),
    };
    match kind {
        "string" if object.contains_key("enum") || object.contains_key("oneOf") => {
            only(object, pointer, &with(&["type", "enum", "oneOf"]))?;
            single_select(object, pointer)
        }
        "string" => {
            only(
                object,
                pointer,
                &with(&["type", "minLength", "maxLength", "format"]),
            )?;
            if let Some(format) = object.get("format") {
                if !format.as_str().is_some_and(|f| FORMATS.contains(&f)) {
                    return Err(NotFlat::at(
                        &format!("{pointer}/format"),
                        format!("the format {format}"),
                    ));
                }
            }
            Ok(object.clone())
        }
        "number" | "integer" => {
            only(object, pointer, &with(&["type", "minimum", "maximum"]))?;
            Ok(object.clone())
        }
        "boolean" => {
            only(object, pointer, &with(&["type"]))?;
            Ok(object.clone())
        }
        "array" => {
            only(
                object,
                pointer,
                &with(&["type", "items", "minItems", "maxItems", "uniqueItems"]),
            )?;
            multi_select(object, pointer)
        }
        other => Err(NotFlat::at(
            &format!("{pointer}/type"),
            format!("a nested `{other}`"),
        )),
    }
}

/// `enum` of strings, or `oneOf` of `{const, title}` (a titled enum).
fn single_select(
    object: &Map<String, Value>,
    pointer: &str,
) -> Result<Map<String, Value>, NotFlat> {
    let mut field = object.clone();
    field.insert("type".into(), "string".into());
    if let Some(values) = object.get("enum") {
        if object.contains_key("oneOf") {
            return Err(NotFlat::at(
                &format!("{pointer}/oneOf"),
                "both `enum` and `oneOf`",
            ));
        }
        strings(values, &format!("{pointer}/enum"))?;
    } else {
        titled(&object["oneOf"], &format!("{pointer}/oneOf"))?;
    }
    Ok(field)
}

/// An array of strings from an enum (`items.enum`, or `items.anyOf` of `{const, title}`).
fn multi_select(object: &Map<String, Value>, pointer: &str) -> Result<Map<String, Value>, NotFlat> {
    let items_at = format!("{pointer}/items");
    let Some(items) = object.get("items").and_then(Value::as_object) else {
        return Err(NotFlat::at(
            &items_at,
            "a list that is not a choice of strings",
        ));
    };
    if let Some(values) = items.get("enum") {
        only(items, &items_at, &["type", "enum"])?;
        if items.get("type").is_some_and(|t| t != "string") {
            return Err(NotFlat::at(
                &format!("{items_at}/type"),
                "a list of choices that are not strings",
            ));
        }
        strings(values, &format!("{items_at}/enum"))?;
    } else if let Some(choices) = items.get("anyOf").or_else(|| items.get("oneOf")) {
        only(items, &items_at, &["anyOf", "oneOf"])?;
        titled(choices, &items_at)?;
    } else {
        return Err(NotFlat::at(
            &items_at,
            "a list that is not a choice of strings",
        ));
    }
    if object
        .get("uniqueItems")
        .is_some_and(|u| u != &Value::Bool(true))
    {
        return Err(NotFlat::at(
            &format!("{pointer}/uniqueItems"),
            "a multi-select that allows repeats",
        ));
    }
    let mut field = object.clone();
    field.remove("uniqueItems");
    if let Some(Value::Object(items)) = field.get_mut("items") {
        // Form mode's titled multi-select names `anyOf`.
        if let Some(choices) = items.remove("oneOf") {
            items.insert("anyOf".into(), choices);
        }
    }
    Ok(field)
}

fn strings(values: &Value, pointer: &str) -> Result<(), NotFlat> {
    match values.as_array() {
        Some(values) if !values.is_empty() && values.iter().all(Value::is_string) => Ok(()),
        _ => Err(NotFlat::at(pointer, "choices that are not strings")),
    }
}

fn titled(choices: &Value, pointer: &str) -> Result<(), NotFlat> {
    let is_choice = |c: &Value| {
        c.as_object().is_some_and(|c| {
            c.get("const").is_some_and(Value::is_string)
                && c.keys().all(|k| matches!(k.as_str(), "const" | "title"))
        })
    };
    match choices.as_array() {
        Some(list) if !list.is_empty() && list.iter().all(is_choice) => Ok(()),
        _ => Err(NotFlat::at(
            pointer,
            "choices that are not `{const, title}` strings",
        )),
    }
}

/// Whether `value` has the type of the property `schema` (before conversion).
fn fits_value_kind(schema: &Value, value: &Value) -> bool {
    let mut field = Map::new();
    let kind = schema
        .get("type")
        .cloned()
        .unwrap_or_else(|| "string".into());
    field.insert("type".into(), kind);
    fits_value(&field, value)
}

/// Whether a pre-fill value has the field's type (so it may be its default).
fn fits_value(field: &Map<String, Value>, value: &Value) -> bool {
    match field.get("type").and_then(Value::as_str) {
        Some("string") => value.is_string(),
        Some("number") => value.is_number(),
        Some("integer") => value.is_i64() || value.is_u64(),
        Some("boolean") => value.is_boolean(),
        Some("array") => value
            .as_array()
            .is_some_and(|a| a.iter().all(Value::is_string)),
        _ => false,
    }
}

/// The key of our one input request in `inputRequests`/`inputResponses`.
pub(crate) const INPUT_KEY: &str = "form";

/// The `inputRequests` of a form-mode elicitation.
pub(crate) fn form_request(message: &str, requested_schema: Value) -> Value {
    json!({INPUT_KEY: {"method": "elicitation/create", "params": {
        "mode": "form", "message": message, "requestedSchema": requested_schema}}})
}

/// The `inputRequests` of a URL-mode elicitation (2026-07-28's shape: no
/// `elicitationId`; the `requestState` says which link it was).
pub(crate) fn url_request(message: &str, url: &str) -> Value {
    json!({INPUT_KEY: {"method": "elicitation/create", "params": {
        "mode": "url", "message": message, "url": url}}})
}

/// What the person did with the elicitation, as the retried call says.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Answer {
    /// `accept`, with the form's content (form mode).
    Accept(Value),
    /// `accept` without content (URL mode: the answer is elsewhere).
    AcceptedElsewhere,
    /// `decline`: the person said no.
    Decline,
    /// `cancel`: the person dismissed it.
    Cancel,
}

impl Answer {
    /// Reads `inputResponses[INPUT_KEY]`; `None` when the retry carries no
    /// answer to our request; `Err` (a JSON Pointer and why) when it is
    /// not an `ElicitResult`.
    pub(crate) fn read(
        params: &Map<String, Value>,
    ) -> Option<Result<Self, (String, &'static str)>> {
        let responses = params.get("inputResponses")?;
        let at = format!("/params/inputResponses/{INPUT_KEY}");
        let Some(response) = responses.get(INPUT_KEY) else {
            return Some(Err((
                at,
                "the retry carries no answer to the form (its key is `form`)",
            )));
        };
        let answer = match response.get("action").and_then(Value::as_str) {
            Some("accept") => match response.get("content") {
                Some(content @ Value::Object(_)) => Self::Accept(content.clone()),
                None | Some(Value::Null) => Self::AcceptedElsewhere,
                Some(_) => {
                    return Some(Err((
                        format!("{at}/content"),
                        "`content` must be an object",
                    )))
                }
            },
            Some("decline") => Self::Decline,
            Some("cancel") => Self::Cancel,
            _ => {
                return Some(Err((
                    format!("{at}/action"),
                    "`action` must be accept, decline or cancel",
                )))
            }
        };
        Some(Ok(answer))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `output` fixtures that fit, with the requested schema each gives.
    fn fitting() -> Vec<(Value, Value)> {
        vec![
            (
                json!({"type": "object", "title": "Contact", "required": ["email"], "properties": {
                    "email": {"type": "string", "format": "email", "title": "E-mail", "description": "Where we write"},
                    "age": {"type": "integer", "minimum": 0, "maximum": 150},
                    "score": {"type": "number"},
                    "subscribe": {"type": "boolean", "default": false},
                    "name": {"type": "string", "minLength": 1, "maxLength": 80}}}),
                json!({"type": "object", "required": ["email"], "properties": {
                    "email": {"type": "string", "format": "email", "title": "E-mail", "description": "Where we write"},
                    "age": {"type": "integer", "minimum": 0, "maximum": 150},
                    "score": {"type": "number"},
                    "subscribe": {"type": "boolean", "default": false},
                    "name": {"type": "string", "minLength": 1, "maxLength": 80}}}),
            ),
            (
                json!({"properties": {
                    "size": {"enum": ["S", "M", "L"]},
                    "color": {"type": "string", "title": "Colour", "oneOf": [{"const": "r", "title": "Red"}, {"const": "g", "title": "Green"}]},
                    "tags": {"type": "array", "uniqueItems": true, "items": {"type": "string", "enum": ["a", "b"]}, "maxItems": 2},
                    "days": {"type": "array", "items": {"oneOf": [{"const": "mon", "title": "Monday"}]}}}}),
                json!({"type": "object", "properties": {
                    "size": {"type": "string", "enum": ["S", "M", "L"]},
                    "color": {"type": "string", "title": "Colour", "oneOf": [{"const": "r", "title": "Red"}, {"const": "g", "title": "Green"}]},
                    "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "maxItems": 2},
                    "days": {"type": "array", "items": {"anyOf": [{"const": "mon", "title": "Monday"}]}}}}),
            ),
        ]
    }

    #[test]
    fn flat_outputs_fit_with_labels_enums_and_formats_carried_over() {
        for (output, expected) in fitting() {
            assert_eq!(form_schema(&output, &Value::Null), Ok(expected));
        }
    }

    #[test]
    fn prefill_becomes_defaults_where_the_type_fits() {
        let output = json!({"type": "object", "properties": {
            "name": {"type": "string"}, "age": {"type": "integer"}, "ok": {"type": "boolean"}}});
        let data = json!({"name": "Ada", "age": "old", "ok": true, "other": 1});
        let schema = form_schema(&output, &data).unwrap();
        assert_eq!(schema["properties"]["name"]["default"], "Ada");
        assert_eq!(
            schema["properties"]["age"].get("default"),
            None,
            "a string is no integer"
        );
        assert_eq!(schema["properties"]["ok"]["default"], true);
        assert_eq!(schema["properties"].get("other"), None);
    }

    #[test]
    fn what_does_not_fit_is_named_by_its_pointer() {
        let cases = [
            (json!(true), ""),
            (json!({"type": "array"}), "/type"),
            (json!({"type": "object"}), "/properties"),
            (
                json!({"properties": {"a": {"type": "string"}}, "allOf": []}),
                "/allOf",
            ),
            (
                json!({"properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "string"}}),
                "/additionalProperties",
            ),
            (
                json!({"properties": {"a": {"type": "string"}}, "required": ["b"]}),
                "/required",
            ),
            (
                json!({"properties": {"a": {"type": "object", "properties": {}}}}),
                "/properties/a/type",
            ),
            (
                json!({"properties": {"a": {"$ref": "#/$defs/x"}}}),
                "/properties/a",
            ),
            (
                json!({"properties": {"a": {"type": "string", "pattern": "^x$"}}}),
                "/properties/a/pattern",
            ),
            (
                json!({"properties": {"a": {"type": "string", "format": "ipv4"}}}),
                "/properties/a/format",
            ),
            (
                json!({"properties": {"a": {"type": ["string", "null"]}}}),
                "/properties/a/type",
            ),
            (
                json!({"properties": {"a": {"type": "number", "multipleOf": 2}}}),
                "/properties/a/multipleOf",
            ),
            (
                json!({"properties": {"a": {"enum": ["x", 1]}}}),
                "/properties/a/enum",
            ),
            (
                json!({"properties": {"a": {"type": "array", "items": {"type": "object"}}}}),
                "/properties/a/items",
            ),
            (
                json!({"properties": {"a": {"type": "array", "items": {"type": "integer", "enum": [1]}}}}),
                "/properties/a/items/type",
            ),
            (
                json!({"properties": {"a/b": {"type": "null"}}}),
                "/properties/a~1b/type",
            ),
            (
                json!({"properties": {"a": {"oneOf": [{"type": "string"}]}}}),
                "/properties/a/oneOf",
            ),
        ];
        for (output, pointer) in cases {
            let error = form_schema(&output, &Value::Null).unwrap_err();
            assert_eq!(error.pointer, pointer, "{output}: {}", error.why);
        }
    }

    #[test]
    fn every_fitting_schema_is_a_valid_form_request() {
        let root: Value = serde_json::from_str(
            &std::fs::read_to_string(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../schemas/vendor/mcp/2026-07-28.schema.json"
            ))
            .unwrap(),
        )
        .unwrap();
        let mut schema = root.clone();
        schema["$ref"] = json!("#/$defs/InputRequests");
        let validator = jsonschema::validator_for(&schema).unwrap();
        for (output, _) in fitting() {
            let request = form_request(
                "Your details",
                form_schema(&output, &json!({"tags": ["a"]})).unwrap(),
            );
            let errors: Vec<String> = validator
                .iter_errors(&request)
                .map(|e| e.to_string())
                .collect();
            assert!(errors.is_empty(), "{errors:?}\n{request:#}");
        }
    }

    #[test]
    fn answers_are_read_and_malformed_ones_named() {
        let read = |v: Value| Answer::read(v.as_object().unwrap());
        assert_eq!(read(json!({})), None);
        assert_eq!(
            read(json!({"inputResponses": {"form": {"action": "accept", "content": {"a": 1}}}})),
            Some(Ok(Answer::Accept(json!({"a": 1}))))
        );
        assert_eq!(
            read(json!({"inputResponses": {"form": {"action": "accept"}}})),
            Some(Ok(Answer::AcceptedElsewhere))
        );
        assert_eq!(
            read(json!({"inputResponses": {"form": {"action": "decline"}}})),
            Some(Ok(Answer::Decline))
        );
        assert_eq!(
            read(json!({"inputResponses": {"form": {"action": "cancel"}}})),
            Some(Ok(Answer::Cancel))
        );
        for (bad, at) in [
            (json!({"inputResponses": {}}), "/params/inputResponses/form"),
            (
                json!({"inputResponses": "x"}),
                "/params/inputResponses/form",
            ),
            (
                json!({"inputResponses": {"form": {"action": "maybe"}}}),
                "/params/inputResponses/form/action",
            ),
            (
                json!({"inputResponses": {"form": {"action": "accept", "content": [1]}}}),
                "/params/inputResponses/form/content",
            ),
        ] {
            assert_eq!(read(bad).unwrap().unwrap_err().0, at);
        }
    }
}
