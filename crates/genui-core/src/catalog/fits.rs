//! Whether a field's schema satisfies a catalog component's `fits` schema:
//! every value the field accepts, `fits` accepts too (schema inclusion).
//!
//! Inclusion between JSON Schemas is undecidable in general, so this is a
//! SOUND approximation: it answers `Ok` only when it has a proof, and
//! refuses (with the reason) whatever it cannot prove. The proof:
//!
//! - `fits` is `true` or `{}`: proven. `fits` is `false`: refused.
//! - The field is a finite set (`const`, or `enum`): each value is
//!   validated against `fits` with `jsonschema` (exact: the field's other
//!   keywords only remove values).
//! - Otherwise every keyword of `fits` must be implied by the field's own
//!   keywords of the same meaning, read at the field's top level (every
//!   keyword is a conjunct, so the field's other keywords, `allOf` included,
//!   only narrow it):
//!   - `type`: the field's type set is a subset (`integer` counts as a
//!     `number`); a field without `type` is refused;
//!   - `minimum`/`exclusiveMinimum` (and the maxima): the field's bound is
//!     at least as tight; `multipleOf`: the field's step is a whole
//!     multiple of it;
//!   - `minLength`/`maxLength`, `minItems`/`maxItems`: tighter bounds;
//!     `uniqueItems: true`: the field has it;
//!   - `pattern`, `format`: the field has the same string;
//!   - `items`: the field's `items` satisfies it, by the same proof;
//!   - `enum`/`const`: refused unless the field is a finite set (above);
//!   - annotations (`title`, `description`, `default`, `examples`, ...)
//!     constrain nothing;
//!   - any other keyword: refused.
//! - A field with a `$ref` beside other keywords is refused (drafts up to 7
//!   ignore the siblings of `$ref`, so reading them would be unsound); the
//!   checker hands over fields with their references resolved.

use crate::error::{Error, ErrorCode};
use serde_json::{Map, Value};

/// Why a field is not proven to fit: the binding is refused (a warning
/// names the field); as an error, the request's plan asked for it.
fn unproven(message: impl Into<String>) -> Error {
    Error::new(ErrorCode::InvalidRequest, message)
}

/// Keywords that constrain nothing.
const ANNOTATIONS: &[&str] = &[
    "$schema",
    "$id",
    "$comment",
    "title",
    "description",
    "default",
    "examples",
    "readOnly",
    "writeOnly",
    "deprecated",
    "$defs",
    "definitions",
];

/// `Ok` when every instance `field` accepts is proven to be accepted by
/// `fits`; otherwise why the proof fails.
pub(crate) fn satisfies(field: &Value, fits: &Value) -> Result<(), Error> {
    satisfies_at(field, fits, 0)
}

fn satisfies_at(field: &Value, fits: &Value, depth: usize) -> Result<(), Error> {
    if depth > 16 {
        return Err(unproven("the schemas nest too deeply to prove"));
    }
    let fits = match fits {
        Value::Bool(true) => return Ok(()),
        Value::Bool(false) => return Err(unproven("`fits` is `false`: no field fits")),
        Value::Object(map) => map,
        _ => return Err(unproven("`fits` is not a schema")),
    };
    if fits.keys().all(|k| ANNOTATIONS.contains(&k.as_str())) {
        return Ok(());
    }
    let field = match field {
        Value::Object(map) => map,
        Value::Bool(false) => return Ok(()),
        _ => return Err(unproven("the field accepts any value")),
    };
    if field.contains_key("$ref") {
        return Err(unproven(
            "the field's schema is a `$ref` (its siblings may be ignored)",
        ));
    }
    if let Some(values) = finite_values(field) {
        return every_value_fits(&values, fits);
    }
    for (keyword, wanted) in fits {
        implied(field, keyword, wanted, depth)?;
    }
    Ok(())
}

/// The field's values when it lists them (`const`, or an `enum` array).
fn finite_values(field: &Map<String, Value>) -> Option<Vec<Value>> {
    if let Some(value) = field.get("const") {
        return Some(vec![value.clone()]);
    }
    field.get("enum").and_then(Value::as_array).cloned()
}

fn every_value_fits(values: &[Value], fits: &Map<String, Value>) -> Result<(), Error> {
    let schema = Value::Object(fits.clone());
    let validator = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(&schema)
        .map_err(|e| unproven(format!("`fits` is not a valid schema: {e}")))?;
    match values.iter().find(|v| !validator.is_valid(v)) {
        Some(value) => Err(unproven(format!(
            "the field allows {value}, which `fits` rejects"
        ))),
        None => Ok(()),
    }
}

/// Proves one keyword of `fits` from the field's keywords.
fn implied(
    field: &Map<String, Value>,
    keyword: &str,
    wanted: &Value,
    depth: usize,
) -> Result<(), Error> {
    let proven = match keyword {
        k if ANNOTATIONS.contains(&k) => true,
        "type" => types_within(field.get("type"), wanted)?,
        "minimum" => {
            lower_bound(field).is_some_and(|(b, _)| wanted.as_f64().is_some_and(|w| b >= w))
        }
        "exclusiveMinimum" => lower_bound(field).is_some_and(|(b, strict)| {
            wanted.as_f64().is_some_and(|w| b > w || (strict && b == w))
        }),
        "maximum" => {
            upper_bound(field).is_some_and(|(b, _)| wanted.as_f64().is_some_and(|w| b <= w))
        }
        "exclusiveMaximum" => upper_bound(field).is_some_and(|(b, strict)| {
            wanted.as_f64().is_some_and(|w| b < w || (strict && b == w))
        }),
        "multipleOf" => multiple_of(field, wanted),
        "minLength" | "minItems" => at_least(field.get(keyword), wanted),
        "maxLength" | "maxItems" => at_most(field.get(keyword), wanted),
        "uniqueItems" => {
            wanted == &Value::Bool(false) || field.get(keyword) == Some(&Value::Bool(true))
        }
        "pattern" | "format" => field.get(keyword) == Some(wanted),
        "items" => match field.get("items") {
            Some(items) => {
                return satisfies_at(items, wanted, depth + 1).map_err(|why| {
                    let message = format!("items: {}", why.message());
                    why.with_message(message)
                })
            }
            None => false,
        },
        "enum" | "const" => {
            return Err(unproven(format!(
                "`fits` lists values (`{keyword}`) and the field does not"
            )))
        }
        other => {
            return Err(unproven(format!(
                "`fits` uses `{other}`, which the proof does not understand"
            )))
        }
    };
    match proven {
        true => Ok(()),
        false => Err(unproven(format!(
            "the field's schema does not imply `fits`'s `{keyword}: {wanted}`"
        ))),
    }
}

/// The field's type set is within `wanted`'s.
fn types_within(field: Option<&Value>, wanted: &Value) -> Result<bool, Error> {
    let names = |v: &Value| -> Option<Vec<String>> {
        match v {
            Value::String(s) => Some(vec![s.clone()]),
            Value::Array(a) => a.iter().map(|t| t.as_str().map(str::to_owned)).collect(),
            _ => None,
        }
    };
    let wanted = names(wanted)
        .ok_or_else(|| unproven("`fits`'s `type` is not a type name or a list of them"))?;
    let Some(have) = field.and_then(names) else {
        return Ok(false);
    };
    Ok(have
        .iter()
        .all(|t| wanted.contains(t) || (t == "integer" && wanted.iter().any(|w| w == "number"))))
}

/// The field's tightest lower bound: (value, exclusive).
fn lower_bound(field: &Map<String, Value>) -> Option<(f64, bool)> {
    bound(field, "minimum", "exclusiveMinimum", |a, b| a > b)
}

/// The field's tightest upper bound: (value, exclusive).
fn upper_bound(field: &Map<String, Value>) -> Option<(f64, bool)> {
    bound(field, "maximum", "exclusiveMaximum", |a, b| a < b)
}

/// The tighter of an inclusive and an exclusive bound (`tighter(a, b)`: `a`
/// is the stricter value); draft 4's boolean `exclusiveMinimum` is read as
/// making the inclusive bound strict.
fn bound(
    field: &Map<String, Value>,
    inclusive: &str,
    exclusive: &str,
    tighter: fn(f64, f64) -> bool,
) -> Option<(f64, bool)> {
    let strict_flag = field.get(exclusive) == Some(&Value::Bool(true));
    let a = field
        .get(inclusive)
        .and_then(Value::as_f64)
        .map(|v| (v, strict_flag));
    let b = field
        .get(exclusive)
        .and_then(Value::as_f64)
        .map(|v| (v, true));
    match (a, b) {
        (Some(a), Some(b)) => Some(if tighter(a.0, b.0) || (a.0 == b.0 && a.1) {
            a
        } else {
            b
        }),
        (a, b) => a.or(b),
    }
}

/// The field's `multipleOf` is a whole multiple of `wanted` (or `wanted` is
/// 1 and the field holds integers only).
fn multiple_of(field: &Map<String, Value>, wanted: &Value) -> bool {
    let Some(w) = wanted.as_f64().filter(|w| *w > 0.0) else {
        return false;
    };
    let integers = field.get("type") == Some(&Value::String("integer".into()));
    if integers && w.fract() == 0.0 && w == 1.0 {
        return true;
    }
    field
        .get("multipleOf")
        .and_then(Value::as_f64)
        .is_some_and(|m| {
            let ratio = m / w;
            ratio >= 1.0 && ratio.fract() == 0.0 && ratio.is_finite()
        })
}

fn at_least(field: Option<&Value>, wanted: &Value) -> bool {
    matches!((field.and_then(Value::as_f64), wanted.as_f64()), (Some(f), Some(w)) if f >= w)
}

fn at_most(field: Option<&Value>, wanted: &Value) -> bool {
    matches!((field.and_then(Value::as_f64), wanted.as_f64()), (Some(f), Some(w)) if f <= w)
}

#[cfg(test)]
mod tests {
    use super::satisfies;
    use proptest::prelude::*;
    use serde_json::{json, Value};

    const RATING: &str = r#"{"type":"integer","minimum":0,"maximum":10}"#;

    fn rating() -> Value {
        serde_json::from_str(RATING).unwrap()
    }

    #[test]
    fn a_rating_of_zero_to_ten_refuses_a_field_up_to_eleven() {
        let why = satisfies(
            &json!({"type": "integer", "minimum": 0, "maximum": 11}),
            &rating(),
        )
        .unwrap_err();
        assert!(why.message().contains("maximum"), "{why}");
        assert_eq!(
            satisfies(
                &json!({"type": "integer", "minimum": 0, "maximum": 10}),
                &rating()
            ),
            Ok(())
        );
        assert_eq!(
            satisfies(
                &json!({"type": "integer", "minimum": 1, "maximum": 5, "title": "Stars"}),
                &rating()
            ),
            Ok(())
        );
    }

    #[test]
    fn types_are_subsets_and_integers_are_numbers() {
        assert!(satisfies(
            &json!({"type": "number", "minimum": 0, "maximum": 10}),
            &rating()
        )
        .is_err());
        assert!(
            satisfies(&json!({"minimum": 0, "maximum": 10}), &rating()).is_err(),
            "no type: strings would pass"
        );
        assert!(satisfies(
            &json!({"type": ["integer", "null"], "minimum": 0, "maximum": 10}),
            &rating()
        )
        .is_err());
        assert_eq!(
            satisfies(
                &json!({"type": "integer"}),
                &json!({"type": ["number", "null"]})
            ),
            Ok(())
        );
        assert!(
            satisfies(&json!({"type": "integer", "minimum": 0}), &rating()).is_err(),
            "unbounded above"
        );
    }

    #[test]
    fn exclusive_bounds_and_steps() {
        assert_eq!(
            satisfies(
                &json!({"type": "integer", "exclusiveMinimum": 0, "maximum": 3}),
                &json!({"exclusiveMinimum": 0})
            ),
            Ok(())
        );
        assert!(satisfies(
            &json!({"type": "integer", "minimum": 0}),
            &json!({"exclusiveMinimum": 0})
        )
        .is_err());
        assert_eq!(
            satisfies(
                &json!({"type": "number", "exclusiveMaximum": 10}),
                &json!({"maximum": 10})
            ),
            Ok(())
        );
        assert_eq!(
            satisfies(
                &json!({"type": "number", "multipleOf": 0.5}),
                &json!({"multipleOf": 0.25})
            ),
            Ok(())
        );
        assert!(satisfies(
            &json!({"type": "number", "multipleOf": 0.25}),
            &json!({"multipleOf": 0.5})
        )
        .is_err());
        assert_eq!(
            satisfies(&json!({"type": "integer"}), &json!({"multipleOf": 1})),
            Ok(())
        );
    }

    #[test]
    fn finite_fields_are_checked_value_by_value() {
        assert_eq!(satisfies(&json!({"enum": [1, 5, 10]}), &rating()), Ok(()));
        assert!(satisfies(&json!({"enum": [1, 11]}), &rating()).is_err());
        assert_eq!(
            satisfies(&json!({"const": "red"}), &json!({"enum": ["red", "blue"]})),
            Ok(())
        );
        assert!(satisfies(&json!({"type": "string"}), &json!({"enum": ["red"]})).is_err());
    }

    #[test]
    fn strings_need_the_same_format_and_pattern() {
        let colour = json!({"type": "string", "format": "color"});
        assert_eq!(
            satisfies(
                &json!({"type": "string", "format": "color", "maxLength": 7}),
                &colour
            ),
            Ok(())
        );
        assert!(satisfies(&json!({"type": "string"}), &colour).is_err());
        assert!(satisfies(&json!({"type": "string", "format": "colour"}), &colour).is_err());
        assert_eq!(
            satisfies(
                &json!({"type": "string", "maxLength": 5}),
                &json!({"maxLength": 7})
            ),
            Ok(())
        );
        assert!(satisfies(
            &json!({"type": "string", "pattern": "^a"}),
            &json!({"pattern": "^a$"})
        )
        .is_err());
    }

    #[test]
    fn arrays_prove_their_items() {
        let tags = json!({"type": "array", "items": {"type": "string", "maxLength": 20}, "uniqueItems": true});
        assert_eq!(
            satisfies(
                &json!({"type": "array", "items": {"type": "string", "maxLength": 10}, "uniqueItems": true, "maxItems": 3}),
                &tags
            ),
            Ok(())
        );
        assert!(satisfies(
            &json!({"type": "array", "items": {"type": "string"}, "uniqueItems": true}),
            &tags
        )
        .is_err());
        assert!(satisfies(
            &json!({"type": "array", "items": {"type": "string", "maxLength": 10}}),
            &tags
        )
        .is_err());
    }

    #[test]
    fn what_it_cannot_read_it_refuses() {
        let why = satisfies(
            &json!({"type": "string"}),
            &json!({"type": "string", "not": {"const": ""}}),
        )
        .unwrap_err();
        assert!(why.message().contains("`not`"), "{why}");
        assert!(satisfies(
            &json!({"$ref": "#/$defs/x", "type": "integer"}),
            &json!({"type": "integer"})
        )
        .is_err());
        assert!(satisfies(&json!(true), &rating()).is_err());
        assert!(satisfies(&json!({"type": "integer"}), &json!(false)).is_err());
        assert_eq!(
            satisfies(&json!({"type": "integer"}), &json!({"title": "anything"})),
            Ok(())
        );
    }

    /// A small family of integer fields: optional bounds, maybe an enum.
    fn integer_field() -> impl Strategy<Value = Value> {
        let bound = proptest::option::of(-20i64..20);
        (
            bound.clone(),
            bound,
            proptest::option::of(prop::collection::vec(-20i64..20, 1..5)),
            any::<bool>(),
        )
            .prop_map(|(min, max, values, exclusive)| {
                let mut field = json!({"type": "integer"});
                if let Some(min) = min {
                    field[if exclusive {
                        "exclusiveMinimum"
                    } else {
                        "minimum"
                    }] = json!(min);
                }
                if let Some(max) = max {
                    field["maximum"] = json!(max);
                }
                if let Some(values) = values {
                    field["enum"] = json!(values);
                }
                field
            })
    }

    fn fits_schema() -> impl Strategy<Value = Value> {
        (
            proptest::option::of(-20i64..20),
            proptest::option::of(-20i64..20),
            prop_oneof![Just("integer"), Just("number")],
            any::<bool>(),
        )
            .prop_map(|(min, max, ty, exclusive)| {
                let mut fits = json!({"type": ty});
                if let Some(min) = min {
                    fits[if exclusive {
                        "exclusiveMinimum"
                    } else {
                        "minimum"
                    }] = json!(min);
                }
                if let Some(max) = max {
                    fits["maximum"] = json!(max);
                }
                fits
            })
    }

    /// Small JSON values, schemas or not, nested a few levels.
    fn any_json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(json!(null)),
            any::<bool>().prop_map(Value::from),
            (-20i64..20).prop_map(Value::from),
            prop_oneof![
                Just("integer"),
                Just("number"),
                Just("string"),
                Just("array"),
                Just("x")
            ]
            .prop_map(Value::from)
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::vec(
                    (
                        prop_oneof![
                            Just("type"),
                            Just("minimum"),
                            Just("maximum"),
                            Just("enum"),
                            Just("const"),
                            Just("items"),
                            Just("multipleOf"),
                            Just("exclusiveMinimum"),
                            Just("format"),
                            Just("not"),
                            Just("$ref")
                        ],
                        inner
                    ),
                    0..4
                )
                .prop_map(|pairs| Value::Object(
                    pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
                )),
            ]
        })
    }

    proptest! {
        /// Whatever the two documents, the check answers (never panics).
        #[test]
        fn any_pair_of_documents_gets_an_answer(field in any_json(), fits in any_json()) {
            let _ = satisfies(&field, &fits);
        }

        /// Soundness: when the check says yes, every instance the field
        /// accepts (over a window of integers) is accepted by `fits`.
        #[test]
        fn a_proven_binding_accepts_every_value_of_the_field(field in integer_field(), fits in fits_schema()) {
            if satisfies(&field, &fits).is_ok() {
                let f = jsonschema::validator_for(&field).unwrap();
                let s = jsonschema::validator_for(&fits).unwrap();
                for n in -40i64..40 {
                    let value = json!(n);
                    prop_assert!(!f.is_valid(&value) || s.is_valid(&value), "{} passes {} but not {}", n, field, fits);
                }
            }
        }
    }
}
