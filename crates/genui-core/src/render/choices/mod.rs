//! The words each enum option is shown with, in every format: the one place
//! that decides an option's label. Every format asks [`Labeller`] and carries
//! the answer its own way (JSON Forms and RJSF: `oneOf` `const` + `title`
//! in their copy of the schema, [`labelled_schema`]; LMUI `text`; A2UI
//! option labels; HTML `<option>` and radio labels; React option text).
//! The value submitted is always the enum value itself.
//!
//! The rules, first that applies wins:
//!
//! | rule | example |
//! |---|---|
//! | a label `output` gives: `oneOf`/`anyOf` `const` + `title`, `x-enumNames`, `enumNames` | `{"const": "s", "title": "Small"}` -> "Small" |
//! | a country, currency or language code, time zone id or day, by name in the form's language ([`names`]) | `GB` -> "United Kingdom", `EUR` -> "Euro", `pt-BR` -> "Portugais brésilien" in French, `Europe/London` -> "London", `MON` -> "Monday" |
//! | durations and local date-times, where every value of the field is one ([`moments`]) | `24h` -> "24 hours", `P7D` -> "7 days", `2026-12-01T09:00` -> "2026-12-01 (Tuesday) 09:00" |
//! | the field's initials and a number, as its name and the number ([`numbered`]) | `S1` in `severity` -> "Severity 1", `FY2026` in `fiscal_year` -> "Fiscal year 2026" |
//! | a date pattern as an example date ([`humanise::date_example`]) | `DD/MM/YYYY` -> "31/12/2026" |
//! | a number with a unit as a measure ([`humanise`]) | `5ghz` -> "5 GHz", `2_4ghz` -> "2.4 GHz" |
//! | an identifier in words, sentence case ([`humanise`]) | `s1_critical` -> "S1 critical", `afterDelay` -> "After delay" |
//! | anything else: the value's text | `24h`, `SUV`, `3` |
//!
//! Labels are localised at render time from the request's `locale`, like
//! the worker's own texts ([`super::words`]); nothing here enters a spec or
//! a cache key.

#[rustfmt::skip] // generated: scripts/cldr/names.mjs writes it as it is
mod cldr_names;
mod humanise;
mod moments;
mod names;
mod numbered;

use super::words::Lang;
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::collections::HashSet;

/// What a field says about itself that tells what its options are: its
/// property name, its `title` and its `format`.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct FieldHints<'a> {
    /// The property (or definition) name, `""` when there is none.
    pub name: &'a str,
    /// The schema's `title`.
    pub title: Option<&'a str>,
    /// The schema's `format`.
    pub format: Option<&'a str>,
}

impl<'a> FieldHints<'a> {
    /// The hints of the field at a data or schema pointer (`/a/0/b`,
    /// `/properties/a/items`): its last name, with its title and format.
    pub(crate) fn at(pointer: &'a str, title: Option<&'a str>, format: Option<&'a str>) -> Self {
        let name = pointer
            .rsplit('/')
            .find(|t| !t.is_empty() && *t != "items" && t.parse::<usize>().is_err())
            .unwrap_or("");
        Self {
            name,
            title,
            format,
        }
    }
}

/// How the options of one field are labelled, decided once per field from
/// its hints and all of its values.
#[derive(Debug, Clone)]
pub(crate) struct Labeller {
    codes: Option<names::Codes>,
    moments: Option<moments::Moments>,
    numbered: Option<numbered::Numbered>,
    style: humanise::Style,
    lang: Lang,
    /// Over [`max_enum_values`] options: every format shows a search over
    /// the values themselves (a `large_enum` warning), so no label is made.
    searched_by_value: bool,
}

/// More options than this are searched by value, not picked from a list.
fn max_enum_values() -> usize {
    crate::terms::limits::Limits::default().max_enum_values
}

impl Labeller {
    /// The labeller for a field whose options are `values`.
    pub(crate) fn new<'v>(
        hints: FieldHints<'_>,
        values: impl Iterator<Item = &'v Value> + Clone,
        lang: Lang,
    ) -> Self {
        let strings = values.clone().filter_map(Value::as_str);
        Self {
            codes: names::Codes::of_field(hints, strings.clone()),
            moments: moments::Moments::of_field(strings.clone()),
            numbered: numbered::Numbered::of_field(hints, strings.clone()),
            style: humanise::Style::of(strings),
            lang,
            searched_by_value: values.count() > max_enum_values(),
        }
    }

    /// The label of `value`; `given` is the label `output` gave it. The
    /// value's own text when no rule gives one. Not yet made safe for any
    /// format: each escapes it as it does titles ([`super::text`]).
    pub(crate) fn label(&self, value: &Value, given: Option<&str>) -> String {
        if let Some(given) = given {
            return given.to_owned();
        }
        let made = value
            .as_str()
            .filter(|_| !self.searched_by_value)
            .and_then(|s| {
                self.codes
                    .and_then(|codes| codes.name(s, self.lang))
                    .or_else(|| self.moments.and_then(|m| m.words(s, self.lang)))
                    .or_else(|| self.numbered.as_ref().and_then(|n| n.words(s)))
                    .or_else(|| humanise::words(s, self.style))
            });
        made.unwrap_or_else(|| value_text(value))
    }

    /// Labels for `(value, given label)` pairs, as a field's choices hold them.
    pub(crate) fn labels(&self, choices: &[(Value, Option<String>)]) -> Vec<String> {
        choices
            .iter()
            .map(|(value, given)| self.label(value, given.as_deref()))
            .collect()
    }
}

/// Labels for a field's choices (`(value, given label)`), from its hints.
pub(crate) fn choice_labels(
    hints: FieldHints<'_>,
    choices: &[(Value, Option<String>)],
    lang: Lang,
) -> Vec<String> {
    Labeller::new(hints, choices.iter().map(|(v, _)| v), lang).labels(choices)
}

/// [`choice_labels`] as plain text, as labels and titles are shown
/// (LMUI, A2UI, React): markup removed, never blank
/// ([`super::text::option_label`]).
pub(crate) fn plain_choice_labels(
    hints: FieldHints<'_>,
    choices: &[(Value, Option<String>)],
    lang: Lang,
) -> Vec<String> {
    plain_labels(hints, choices, lang, false)
}

/// [`plain_choice_labels`], except that an option shown by its own value
/// keeps that value's text as it is (React writes it into a string
/// literal, as it writes the value).
pub(crate) fn plain_labels_or_values(
    hints: FieldHints<'_>,
    choices: &[(Value, Option<String>)],
    lang: Lang,
) -> Vec<String> {
    plain_labels(hints, choices, lang, true)
}

fn plain_labels(
    hints: FieldHints<'_>,
    choices: &[(Value, Option<String>)],
    lang: Lang,
    values_as_written: bool,
) -> Vec<String> {
    let labels = choice_labels(hints, choices, lang);
    choices
        .iter()
        .zip(labels)
        .map(|((value, _), label)| {
            let text = value_text(value);
            if values_as_written && label == text {
                return text;
            }
            super::text::option_label(Some(&label), &text)
        })
        .collect()
}

/// Choices that stand beside a list of codes, durations or dates for "none
/// of these" or "no limit" (`DE`, `IT`, `Other`; `24h`, `7d`, `any`), in
/// the languages the worker ships: they keep their own words, and the
/// values around them are still named. Matched in lower case.
#[rustfmt::skip]
const ESCAPES: [&str; 30] = [
    "other", "others", "none", "unknown", "not listed", "n/a", "any", "anytime", "never", "custom",
    "andere", "sonstige", "keine", "beliebig", "autre", "autres", "aucun", "otro", "otros",
    "ninguno", "cualquiera", "outro", "outros", "nenhum", "qualquer", "その他", "なし", "其他",
    "无", "任意",
];

/// Whether a value is one of the [`ESCAPES`].
fn is_escape(value: &str) -> bool {
    ESCAPES.contains(&value.to_lowercase().as_str())
}

/// The text of a value as a form shows it (`"a"` -> `a`, `3` -> `3`).
fn value_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Deeper schemas than this are left as they are (the request limits keep
/// real ones far shallower).
const MAX_DEPTH: usize = 64;

/// A renderer's copy of `schema` in which each string `enum` whose options
/// read better than their values is written as `oneOf` of `const` +
/// `title`, and each `anyOf` of `const`s as `oneOf` (JSON Forms reads
/// choices only from `enum` and `oneOf`). Both accept exactly the values
/// they replace: done only where the values are distinct, so exactly one
/// branch matches a value that one matched before. `None` when nothing
/// changes, so such a form's answer stays byte for byte what it was.
pub(crate) fn labelled_schema(schema: &Value, lang: Lang) -> Option<Value> {
    let mut copy = schema.clone();
    label_in(&mut copy, "", lang, 0).then_some(copy)
}

/// Labels `schema` (named `name`) and everything under it; whether anything changed.
fn label_in(schema: &mut Value, name: &str, lang: Lang, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    let mut changed = false;
    match schema {
        Value::Object(map) => {
            changed |= enum_as_one_of(map, name, lang);
            changed |= any_of_consts_as_one_of(map);
            for (key, child) in map.iter_mut() {
                changed |= match key.as_str() {
                    "properties" | "$defs" | "definitions" | "patternProperties"
                    | "dependentSchemas" | "dependencies" => named_children(child, lang, depth),
                    "const" | "enum" | "default" | "examples" | "required" => false,
                    _ => label_in(child, name, lang, depth + 1),
                };
            }
        }
        Value::Array(items) => {
            for item in items {
                changed |= label_in(item, name, lang, depth + 1);
            }
        }
        _ => {}
    }
    changed
}

fn named_children(children: &mut Value, lang: Lang, depth: usize) -> bool {
    let Value::Object(children) = children else {
        return false;
    };
    let mut changed = false;
    for (name, child) in children.iter_mut() {
        changed |= label_in(child, name, lang, depth + 1);
    }
    changed
}

/// `enum` -> `oneOf` of `const` + `title` where every value is a distinct
/// string, there are no more than a drop-down shows, the schema has no
/// `oneOf` of its own, and some label differs from its value.
fn enum_as_one_of(map: &mut Map<String, Value>, name: &str, lang: Lang) -> bool {
    let Some(Value::Array(values)) = map.get("enum") else {
        return false;
    };
    if values.is_empty()
        || values.len() > max_enum_values()
        || map.contains_key("oneOf")
        || !values.iter().all(Value::is_string)
        || !all_distinct(values)
    {
        return false;
    }
    let given = crate::schema::kind::given_enum_names(values.len(), |key| map.get(key));
    let hints = FieldHints {
        name,
        title: map.get("title").and_then(Value::as_str),
        format: map.get("format").and_then(Value::as_str),
    };
    let labeller = Labeller::new(hints, values.iter(), lang);
    let labels: Vec<String> = values
        .iter()
        .enumerate()
        .map(|(i, v)| labeller.label(v, given.and_then(|g| g[i].as_str())))
        .collect();
    if values
        .iter()
        .zip(&labels)
        .all(|(v, l)| v.as_str() == Some(l))
    {
        return false;
    }
    let branches: Vec<Value> = values
        .iter()
        .zip(labels)
        .map(|(value, title)| {
            let mut branch = Map::new();
            branch.insert("const".into(), value.clone());
            branch.insert("title".into(), title.into());
            Value::Object(branch)
        })
        .collect();
    map.remove("enum");
    map.insert("oneOf".into(), Value::Array(branches));
    true
}

/// `anyOf` of `const` branches with distinct values -> `oneOf` (a value
/// matches at most one such branch either way).
fn any_of_consts_as_one_of(map: &mut Map<String, Value>) -> bool {
    let Some(Value::Array(branches)) = map.get("anyOf") else {
        return false;
    };
    let consts: Option<Vec<Value>> = branches.iter().map(|b| b.get("const").cloned()).collect();
    let distinct = consts.is_some_and(|c| !c.is_empty() && all_distinct(&c));
    if !distinct || map.contains_key("oneOf") {
        return false;
    }
    if let Some(branches) = map.remove("anyOf") {
        map.insert("oneOf".into(), branches);
    }
    true
}

/// Whether no two values are equal as JSON Schema compares them (`1` = `1.0`).
/// One pass over a set of their equality keys (serde_json's `Hash` for a
/// value agrees with its `==`: `0.0` and `-0.0` hash alike, an object's
/// keys in any order): comparing every pair made a 1,000-option enum, or
/// an `anyOf` of as many `const`s, quadratic.
fn all_distinct(values: &[Value]) -> bool {
    let mut seen: HashSet<Cow<'_, Value>> = HashSet::with_capacity(values.len());
    values
        .iter()
        .all(|value| seen.insert(schema_equality_key(value)))
}

/// A value with every number as a float, so that `1` and `1.0` compare equal.
fn schema_equality_key(value: &Value) -> Cow<'_, Value> {
    match value {
        Value::Number(n) => Cow::Owned(n.as_f64().map_or(Value::Null, Value::from)),
        Value::Array(items) => Cow::Owned(Value::Array(
            items
                .iter()
                .map(|i| schema_equality_key(i).into_owned())
                .collect(),
        )),
        Value::Object(map) => Cow::Owned(Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), schema_equality_key(v).into_owned()))
                .collect(),
        )),
        other => Cow::Borrowed(other),
    }
}

#[cfg(test)]
mod tests;
