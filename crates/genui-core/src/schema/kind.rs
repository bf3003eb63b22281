//! What kind of field a resolved schema describes, as far as a UI cares.

use super::Resolved;
use serde_json::Value;

/// The data type of a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// An object with (or without) declared properties.
    Object,
    /// An array.
    Array,
    /// A string.
    String,
    /// A number.
    Number,
    /// An integer.
    Integer,
    /// A boolean.
    Boolean,
    /// Only `null`.
    Null,
    /// `oneOf`/`anyOf` alternatives that are not a plain choice of values.
    Alternatives,
    /// No type constraint at all.
    Any,
}

/// A field's kind together with what chooses its widget.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldKind {
    /// The data type.
    pub kind: Kind,
    /// `format`, when a string declares one.
    pub format: Option<String>,
    /// The allowed values when the field is a closed choice (`enum`, or
    /// `oneOf`/`anyOf` of `const`s), with their display titles.
    pub choices: Option<Vec<(Value, Option<String>)>>,
    /// The single allowed value (`const`).
    pub constant: Option<Value>,
}

impl Kind {
    /// The kind as a type name: JSON Schema's, or `alternatives` and `any`
    /// for the two kinds that have none.
    fn type_name(self) -> &'static str {
        match self {
            Kind::Object => "object",
            Kind::Array => "array",
            Kind::String => "string",
            Kind::Number => "number",
            Kind::Integer => "integer",
            Kind::Boolean => "boolean",
            Kind::Null => "null",
            Kind::Alternatives => "alternatives",
            Kind::Any => "any",
        }
    }
}

impl FieldKind {
    /// The field's type in words: `string`, `array<string>` with `items`'
    /// kind, `|null` after it when the field is `nullable` (a `null` kind
    /// stays `null`).
    pub fn type_name(&self, items: Option<&FieldKind>, nullable: bool) -> String {
        let mut name = match (self.kind, items) {
            (Kind::Array, Some(items)) => format!("array<{}>", items.kind.type_name()),
            (other, _) => other.type_name().to_owned(),
        };
        if nullable && self.kind != Kind::Null {
            name.push_str("|null");
        }
        name
    }

    /// Classifies a resolved view ([`Resolved::kind`]).
    pub(crate) fn of(view: &Resolved) -> Self {
        let choices = enum_choices(view).or_else(|| const_alternatives(view));
        let constant = view.get("const").cloned();
        let kind = declared_type(view)
            .or_else(|| inferred_type(view, choices.as_deref(), constant.as_ref()))
            .unwrap_or(Kind::Any);
        let format = match kind {
            Kind::String => view.str("format").map(str::to_owned),
            _ => None,
        };
        Self {
            kind,
            format,
            choices,
            constant,
        }
    }
}

fn kind_of_name(name: &str) -> Option<Kind> {
    Some(match name {
        "object" => Kind::Object,
        "array" => Kind::Array,
        "string" => Kind::String,
        "number" => Kind::Number,
        "integer" => Kind::Integer,
        "boolean" => Kind::Boolean,
        "null" => Kind::Null,
        _ => return None,
    })
}

fn kind_of_value(value: &Value) -> Kind {
    match value {
        Value::Null => Kind::Null,
        Value::Bool(_) => Kind::Boolean,
        Value::Number(n) if n.is_i64() || n.is_u64() => Kind::Integer,
        Value::Number(_) => Kind::Number,
        Value::String(_) => Kind::String,
        Value::Array(_) => Kind::Array,
        Value::Object(_) => Kind::Object,
    }
}

/// `type: "x"`, or the first non-null entry of `type: [...]`.
fn declared_type(view: &Resolved) -> Option<Kind> {
    match view.get("type")? {
        Value::String(name) => kind_of_name(name),
        Value::Array(names) => {
            let kinds: Vec<Kind> = names
                .iter()
                .filter_map(Value::as_str)
                .filter_map(kind_of_name)
                .collect();
            kinds
                .iter()
                .copied()
                .find(|k| *k != Kind::Null)
                .or(kinds.first().copied())
        }
        _ => None,
    }
}

fn inferred_type(
    view: &Resolved,
    choices: Option<&[(Value, Option<String>)]>,
    constant: Option<&Value>,
) -> Option<Kind> {
    if let Some(value) = constant {
        return Some(kind_of_value(value));
    }
    if let Some(first) = choices.and_then(|c| c.iter().find(|(v, _)| !v.is_null())) {
        return Some(kind_of_value(&first.0));
    }
    if view.get("properties").is_some() || view.get("additionalProperties").is_some() {
        return Some(Kind::Object);
    }
    if view.get("items").is_some() || view.get("prefixItems").is_some() {
        return Some(Kind::Array);
    }
    if view.get("oneOf").is_some() || view.get("anyOf").is_some() {
        return Some(Kind::Alternatives);
    }
    if view.get("format").is_some()
        || view.get("pattern").is_some()
        || view.get("maxLength").is_some()
    {
        return Some(Kind::String);
    }
    None
}

/// The labels `output` gives an `enum`'s values beside it: `x-enumNames`
/// or `enumNames`, one string per value (else none); `get` reads a keyword.
pub(crate) fn given_enum_names<'v>(
    count: usize,
    get: impl Fn(&str) -> Option<&'v Value>,
) -> Option<&'v Vec<Value>> {
    ["x-enumNames", "enumNames"].iter().find_map(|key| {
        let names = get(key)?.as_array()?;
        (names.len() == count && names.iter().all(Value::is_string)).then_some(names)
    })
}

/// `enum`, with the labels `x-enumNames` or `enumNames` give its values.
fn enum_choices(view: &Resolved) -> Option<Vec<(Value, Option<String>)>> {
    let values = view.get("enum")?.as_array()?;
    let names = given_enum_names(values.len(), |key| view.get(key));
    Some(
        values
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let name = names.and_then(|n| n[i].as_str()).map(str::to_owned);
                (v.clone(), name)
            })
            .collect(),
    )
}

/// `oneOf: [{const, title}, ...]`: the titled-enum idiom JSON Forms and RJSF
/// both render as a choice.
fn const_alternatives(view: &Resolved) -> Option<Vec<(Value, Option<String>)>> {
    let members = view
        .get("oneOf")
        .or_else(|| view.get("anyOf"))?
        .as_array()?;
    if members.is_empty() {
        return None;
    }
    members
        .iter()
        .map(|m| {
            let value = m.get("const")?.clone();
            let title = m.get("title").and_then(Value::as_str).map(str::to_owned);
            Some((value, title))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn kind(schema: Value) -> FieldKind {
        let view = Resolved::from_keywords(schema.as_object().unwrap());
        FieldKind::of(&view)
    }

    #[test]
    fn classifies() {
        assert_eq!(
            kind(json!({"type": "string", "format": "date"}))
                .format
                .as_deref(),
            Some("date")
        );
        assert_eq!(
            kind(json!({"type": ["null", "integer"]})).kind,
            Kind::Integer
        );
        assert_eq!(kind(json!({"enum": ["a", "b"]})).kind, Kind::String);
        assert_eq!(kind(json!({"properties": {}})).kind, Kind::Object);
        assert_eq!(
            kind(json!({"oneOf": [{"type": "string"}, {"type": "integer"}]})).kind,
            Kind::Alternatives
        );
        let titled = kind(
            json!({"oneOf": [{"const": "s", "title": "Small"}, {"const": "l", "title": "Large"}]}),
        );
        assert_eq!(titled.kind, Kind::String);
        assert_eq!(titled.choices.unwrap()[0].1.as_deref(), Some("Small"));
        let named = kind(json!({"enum": ["s", "l"], "x-enumNames": ["Small", "Large"]}));
        assert_eq!(named.choices.unwrap()[1].1.as_deref(), Some("Large"));
        let miscounted = kind(json!({"enum": ["s", "l"], "enumNames": ["Small"]}));
        assert_eq!(miscounted.choices.unwrap()[0].1, None);
        assert_eq!(kind(json!({"const": 3})).kind, Kind::Integer);
        assert_eq!(kind(json!({})).kind, Kind::Any);
    }
}
