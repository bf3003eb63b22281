//! The JSON an A2UI component carries besides its kind: data bindings,
//! v0.9 function calls and checks, and rule conditions compiled to those
//! calls. Built as maps by hand: `json!` would copy every embedded `Value`
//! through the serializer.

use super::model::value_text;
use crate::pointer::escape;
use crate::schema::SchemaDoc;
use serde_json::{Map, Value};

/// Where a control's data path starts: the root, or an array item (the
/// `List` template's scope, where paths are relative).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Scope {
    Root,
    Item,
}

impl Scope {
    pub(super) fn path(self, tokens: &[String]) -> String {
        let joined = tokens
            .iter()
            .map(|t| escape(t))
            .collect::<Vec<_>>()
            .join("/");
        match (self, joined.is_empty()) {
            (Scope::Root, true) => "/".to_owned(),
            (Scope::Root, false) => format!("/{joined}"),
            (Scope::Item, true) => ".".to_owned(),
            (Scope::Item, false) => joined,
        }
    }
}

/// Whether `name` is listed in a `required` of a conditional branch of an
/// object schema (`then`, `else`, `allOf`, `oneOf`, `anyOf`, dependencies),
/// not in its own top-level `required`.
pub(super) fn branch_requires(
    doc: &SchemaDoc<'_>,
    node: &Value,
    name: &str,
    depth: usize,
    top: bool,
) -> bool {
    let Value::Object(map) = node else {
        return false;
    };
    if depth > 8 {
        return false;
    }
    let lists = |v: &Value| {
        v.as_array()
            .is_some_and(|a| a.iter().any(|n| n.as_str() == Some(name)))
    };
    if !top && map.get("required").is_some_and(lists) {
        return true;
    }
    if let Some(target) = map
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| doc.lookup(r))
    {
        if branch_requires(doc, target, name, depth + 1, top) {
            return true;
        }
    }
    let branches = ["then", "else"].iter().filter_map(|k| map.get(*k));
    let listed = ["allOf", "oneOf", "anyOf"]
        .iter()
        .filter_map(|k| map.get(*k)?.as_array())
        .flatten();
    let dependent = ["dependentRequired", "dependentSchemas", "dependencies"]
        .iter()
        .filter_map(|k| map.get(*k)?.as_object())
        .flat_map(|m| m.values());
    let mut all = branches.chain(listed).chain(dependent);
    all.any(|b| lists(b) || branch_requires(doc, b, name, depth + 1, false))
}

/// A rule's condition as an A2UI boolean call, for the shapes v0.9's
/// functions can test: `const`, `enum` (as an anchored `regex`), `required`,
/// `not`, and an object's `properties` of those.
pub(super) fn condition(schema: &Value, at: &[String], scope: Scope) -> Option<Value> {
    let Value::Object(map) = schema else {
        return None;
    };
    let path = scope.path(at);
    let mut parts = Vec::new();
    for (key, value) in map {
        match key.as_str() {
            "const" => parts.push(regex(&path, &alternatives(std::slice::from_ref(value))?)),
            "enum" => parts.push(regex(&path, &alternatives(value.as_array()?)?)),
            "not" => parts.push(call(
                "not",
                object([("value", condition(value, at, scope)?)]),
            )),
            "required" => {
                for name in value.as_array()? {
                    let mut field = at.to_vec();
                    field.push(name.as_str()?.to_owned());
                    parts.push(call(
                        "required",
                        object([("value", bound(&scope.path(&field)))]),
                    ));
                }
            }
            "properties" => {
                for (name, sub) in value.as_object()? {
                    let mut field = at.to_vec();
                    field.push(name.clone());
                    parts.push(condition(sub, &field, scope)?);
                }
            }
            "type" | "title" | "description" | "$comment" => {}
            _ => return None,
        }
    }
    match parts.len() {
        0 => None,
        1 => parts.pop(),
        _ => Some(call("and", object([("values", Value::Array(parts))]))),
    }
}

/// `^(a|b)$` over the values' text, regex-escaped; scalars only.
pub(super) fn alternatives(values: &[Value]) -> Option<String> {
    let texts: Option<Vec<String>> = values
        .iter()
        .map(|v| match v {
            Value::String(_) | Value::Number(_) | Value::Bool(_) => {
                Some(regex_escape(&value_text(v)))
            }
            _ => None,
        })
        .collect();
    let texts = texts.filter(|t| !t.is_empty())?;
    Some(format!("^({})$", texts.join("|")))
}

pub(super) fn regex_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        if r"\^$.|?*+()[]{}/".contains(ch) {
            out.push('\\');
        }
        out.push(ch);
    }
    out
}

/// A literal allowed as an action context value (no null, no object).
pub(super) fn dynamic_literal(value: &Value) -> Value {
    match value {
        Value::Null | Value::Object(_) => value.to_string().into(),
        other => other.clone(),
    }
}

/// A2UI options: each choice's label ([`crate::render::choices`]) and its
/// value as text (A2UI's choice values are strings).
pub(super) fn options(
    choices: &[(Value, Option<String>)],
    hints: crate::render::choices::FieldHints<'_>,
    lang: crate::render::words::Lang,
) -> Value {
    let labels = crate::render::choices::plain_choice_labels(hints, choices, lang);
    let list = choices.iter().zip(labels).map(|((value, _), label)| {
        object([("label", label.into()), ("value", value_text(value).into())])
    });
    Value::Array(list.collect())
}

pub(super) fn props<const N: usize>(pairs: [(&str, Value); N]) -> Map<String, Value> {
    pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
}

/// A JSON object from owned values. `json!` would copy every embedded
/// `Value` through the serializer, which made this projection 17x slower
/// than JSON Forms.
pub(super) fn object<const N: usize>(pairs: [(&str, Value); N]) -> Value {
    Value::Object(props(pairs))
}

/// A data binding, `{"path": ...}`.
pub(super) fn bound(path: &str) -> Value {
    object([("path", path.into())])
}

/// A list of component ids.
pub(super) fn ids(children: Vec<String>) -> Value {
    Value::Array(children.into_iter().map(Value::String).collect())
}

/// A button's action: an event with its context.
pub(super) fn event(name: &str, context: Value) -> Value {
    object([(
        "event",
        object([("name", name.into()), ("context", context)]),
    )])
}

pub(super) fn call(name: &str, args: Value) -> Value {
    object([("call", name.into()), ("args", args)])
}

pub(super) fn check(condition: Value, message: &str) -> Value {
    object([("condition", condition), ("message", message.into())])
}

pub(super) fn regex(path: &str, pattern: &str) -> Value {
    // A renderer may compile with `u`: an Annex B pattern goes escaped.
    let escaped = crate::schema::annex_b_escaped(pattern);
    call(
        "regex",
        object([
            ("value", bound(path)),
            ("pattern", escaped.as_deref().unwrap_or(pattern).into()),
        ]),
    )
}

pub(super) fn length(path: &str, min: Option<u64>, max: Option<u64>) -> Value {
    let mut args = props([("value", bound(path))]);
    min.map(|m| args.insert("min".into(), m.into()));
    max.map(|m| args.insert("max".into(), m.into()));
    call("length", Value::Object(args))
}

pub(super) fn numeric(path: &str, min: Option<f64>, max: Option<f64>) -> Value {
    let mut args = props([("value", bound(path))]);
    min.map(|m| args.insert("min".into(), m.into()));
    max.map(|m| args.insert("max".into(), m.into()));
    call("numeric", Value::Object(args))
}

pub(super) fn number(value: Option<&Value>) -> Option<f64> {
    value?.as_f64().filter(|n| n.is_finite())
}

pub(super) fn count(value: Option<&Value>) -> Option<u64> {
    value?.as_u64()
}

pub(super) fn bounds_text<T: std::fmt::Display>(min: Option<T>, max: Option<T>) -> String {
    match (min, max) {
        (Some(min), Some(max)) => format!("from {min} to {max}"),
        (Some(min), None) => format!("at least {min}"),
        (None, Some(max)) => format!("at most {max}"),
        (None, None) => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn conditions_compile_to_v09_functions_or_not_at_all() {
        let at = vec!["country".to_owned()];
        assert_eq!(
            condition(&json!({"const": "U.S."}), &at, Scope::Root).unwrap(),
            regex("/country", r"^(U\.S\.)$")
        );
        let both = condition(
            &json!({"properties": {"a": {"enum": [1, 2]}}, "required": ["a"]}),
            &[],
            Scope::Root,
        )
        .unwrap();
        assert_eq!(both["call"], "and");
        assert!(condition(&json!({"minimum": 3}), &at, Scope::Root).is_none());
    }
}
