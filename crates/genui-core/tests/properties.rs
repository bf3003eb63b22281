//! Property tests: the cache key ignores key order and whitespace, and the
//! deterministic generator's plan passes the checker for every schema a
//! schema-generating strategy produces (nested objects, arrays, enums,
//! formats, `$ref`s into `$defs`, nullable `anyOf`, `allOf`).

use genui_core::check_plan;
use genui_core::generate;
use genui_core::{spec_hash, GenerateJob, GeneratorId, KeyOptions};
use genui_core::Limits;
use proptest::prelude::*;
use serde_json::{json, Map, Value};

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!({"type": "string"})),
        Just(json!({"type": "string", "format": "date"})),
        Just(json!({"type": "string", "format": "email"})),
        Just(json!({"type": "string", "maxLength": 2000})),
        Just(json!({"type": "integer", "minimum": 0, "maximum": 10, "default": 3})),
        Just(json!({"type": "number"})),
        Just(json!({"type": "boolean"})),
        Just(json!({"enum": ["a", "b"]})),
        Just(json!({"type": "string", "enum": ["x", "y", "z", "w", "v"]})),
        Just(json!({"oneOf": [{"const": 1, "title": "One"}, {"const": 2, "title": "Two"}]})),
        Just(json!({"anyOf": [{"type": "string"}, {"type": "null"}]})),
        Just(json!({"$ref": "#/$defs/shared"})),
        Just(json!({"type": "array", "items": {"type": "string"}})),
        Just(json!({"type": "array", "items": {"enum": ["p", "q"]}, "uniqueItems": true})),
        Just(json!({"oneOf": [{"type": "string"}, {"type": "integer"}]})),
        Just(json!({"const": "fixed"})),
        Just(json!({"type": "string", "readOnly": true, "title": "Read <only>"})),
        // A discriminated `oneOf` behind an `allOf` member and behind a `$ref`
        // (how generated configuration schemas write a tagged union).
        Just(json!({"description": "Where to send", "allOf": [{"$ref": "#/$defs/sink"}]})),
        Just(json!({"$ref": "#/$defs/sink"})),
    ]
}

fn names() -> impl Strategy<Value = String> {
    "[a-z][a-zA-Z0-9_]{0,11}"
}

fn object(inner: BoxedStrategy<Value>) -> impl Strategy<Value = Value> {
    (prop::collection::btree_map(names(), inner, 1..6), any::<bool>()).prop_map(|(props, all_required)| {
        let required: Vec<&String> = if all_required { props.keys().collect() } else { props.keys().take(1).collect() };
        json!({"type": "object", "properties": props, "required": required})
    })
}

fn schema() -> impl Strategy<Value = Value> {
    let tree = leaf().prop_recursive(4, 48, 6, |inner| {
        let inner = inner.boxed();
        prop_oneof![
            object(inner.clone()),
            inner.clone().prop_map(|item| json!({"type": "array", "items": item})),
            (object(inner.clone()), object(inner)).prop_map(|(a, b)| json!({"allOf": [a, b]})),
        ]
    });
    object(tree.boxed()).prop_map(|mut root| {
        root["$defs"] = json!({
            "shared": {"type": "object", "properties": {"street": {"type": "string"}, "city": {"type": "string"}}, "required": ["city"]},
            "sink": {"oneOf": [
                {"type": "object", "properties": {"type": {"type": "string", "const": "http"}, "uri": {"type": "string"}}, "required": ["type", "uri"]},
                {"type": "object", "properties": {"type": {"type": "string", "enum": ["file"]}, "path": {"type": "string"}}, "required": ["type"]},
            ]},
        });
        root
    })
}

fn reorder(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(map.iter().rev().map(|(k, v)| (k.clone(), reorder(v))).collect::<Map<_, _>>()),
        Value::Array(items) => Value::Array(items.iter().map(reorder).collect()),
        other => other.clone(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn hash_ignores_key_order_and_whitespace(output in schema(), description in ".{0,40}") {
        // Keys are hashed from the raw request bytes, through the real
        // parser, so other whitespace and key order are really sent.
        let compact = serde_json::to_vec(&json!({"description": description, "output": output})).unwrap();
        let pretty = serde_json::to_vec_pretty(&reorder(&json!({"output": output, "description": description}))).unwrap();
        prop_assume!(compact != pretty);
        let key = |body: &[u8]| GenerateJob::prepare(body, None, &Limits::default()).map(|job| job.spec_hash().to_owned());
        let a = key(&compact).unwrap();
        prop_assert_eq!(&a, &key(&pretty).unwrap());
        // ... and the key is the one spec_hash gives for the parsed schema.
        let id = GeneratorId::deterministic();
        prop_assert_eq!(a, spec_hash(&output, &description, KeyOptions::default(), &id).unwrap());
    }

    #[test]
    fn generated_plans_always_pass_the_checker(output in schema(), wizard in any::<bool>()) {
        let description = if wizard { "A step-by-step wizard" } else { "A form" };
        let limits = Limits::default();
        prop_assume!(jsonschema::meta::is_valid(&output));
        let plan = generate(&output, description, false, &limits).unwrap();
        let issues = check_plan(&plan, &output, &limits);
        prop_assert!(issues.is_empty(), "{:?}\nschema: {}", issues, output);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Issue 17, item 4: a form over the input limit collapses its optional
    /// objects into one input each, deepest first, and is refused exactly
    /// when the required fields alone need more inputs than the limit.
    #[test]
    fn forms_over_the_input_limit_collapse_or_refuse_only_required_overflow(
        sections in 1usize..10, fields in 1usize..10, mask in any::<u16>(), scalars in 0usize..6, max in 4usize..60,
    ) {
        let inner: Map<String, Value> = (0..fields).map(|i| (format!("f{i}"), json!({"type": "string"}))).collect();
        let is_required = |i: usize| mask & (1 << i) != 0;
        let mut properties = Map::new();
        let mut required: Vec<String> = (0..scalars).map(|i| format!("s{i}")).collect();
        for name in &required {
            properties.insert(name.clone(), json!({"type": "string"}));
        }
        for i in 0..sections {
            let inner_required: Vec<&str> = if is_required(i) { vec!["inner"] } else { vec![] };
            properties.insert(format!("o{i}"), json!({"type": "object", "required": inner_required,
                "properties": {"inner": {"$ref": "#/$defs/inner"}, "x": {"type": "string"}}}));
            if is_required(i) {
                required.push(format!("o{i}"));
            }
        }
        let output = json!({"type": "object", "properties": properties, "required": required, "$defs": {"inner": {"type": "object", "properties": inner}}});
        let limits = Limits { max_controls: max, ..Limits::default() };
        // What cannot collapse: the scalars, and each required section's
        // inner fields plus its `x`; an optional section is one input.
        let least = scalars + (0..sections).map(|i| if is_required(i) { fields + 1 } else { 1 }).sum::<usize>();
        match generate(&output, "", false, &limits) {
            Ok(plan) => {
                prop_assert!(least <= max, "answered although {least} required inputs > {max}");
                prop_assert!(plan.root.controls().len() <= max);
                let issues = check_plan(&plan, &output, &limits);
                prop_assert!(issues.is_empty(), "{issues:?}");
            }
            Err(e) => {
                prop_assert_eq!(e.code(), genui_core::ErrorCode::SchemaTooLarge);
                prop_assert!(least > max, "refused although {least} required inputs fit {max}");
            }
        }
    }
}

/// The deterministic generator's answer for `output` in `format`: the
/// status and the error code, if any.
fn answer(output: &Value, format: &str) -> (u16, Option<String>) {
    let body = serde_json::to_vec(&json!({"output": output, "format": format})).unwrap();
    let outcome = match GenerateJob::prepare(&body, None, &Limits::default()) {
        Ok(job) => job.finish(None),
        Err(e) => genui_core::Outcome::failed(&e),
    };
    let parsed: Value = serde_json::from_str(&outcome.response.body).unwrap_or_default();
    (outcome.response.status, parsed["code"].as_str().map(str::to_owned))
}

/// A tagged union behind `allOf: [{$ref}]` inside array items, as Vector's
/// configuration schema writes its sinks: the generator offered the tag as
/// a radio group that the checker, reading only the raw node's `oneOf`,
/// saw as a plain string, and the answer was a 500.
#[test]
fn a_tagged_union_behind_all_of_in_array_items_is_answered_in_every_format() {
    let output = json!({"type": "object", "properties": {"sinks": {"type": "array", "items": {"type": "object",
        "properties": {"sink": {"description": "Where to send", "allOf": [{"$ref": "#/definitions/sink"}]}}}}},
        "definitions": {"sink": {"oneOf": [
            {"type": "object", "properties": {"type": {"type": "string", "const": "http"}, "uri": {"type": "string"}}, "required": ["type", "uri"]},
            {"type": "object", "properties": {"type": {"type": "string", "const": "file"}, "path": {"type": "string"}}, "required": ["type"]}]}}});
    let limits = Limits::default();
    let plan = generate(&output, "", false, &limits).unwrap();
    assert_eq!(check_plan(&plan, &output, &limits), []);
    for format in genui_core::Format::NAMES {
        assert_eq!(answer(&output, format), (200, None), "{format}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Whatever the schema, the deterministic generator's answer in any
    /// format is a form or a refusal of the schema, never `internal_error`.
    #[test]
    fn no_format_answers_a_generated_schema_with_internal_error(output in schema()) {
        for format in genui_core::Format::NAMES {
            let (status, code) = answer(&output, format);
            prop_assert!(code.as_deref() != Some("internal_error") && status < 500, "{format}: {status} {code:?}\nschema: {output}");
        }
    }
}

/// The safety net: a plan with a widget that does not fit its field is
/// answered with the plain widget and a `widget_replaced` warning, not a 500.
#[test]
fn a_misfit_widget_is_answered_with_the_plain_widget_and_a_warning() {
    let output = json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]});
    let body = serde_json::to_vec(&json!({"output": output, "format": "jsonforms"})).unwrap();
    let job = GenerateJob::prepare(&body, None, &Limits::default()).unwrap();
    let proven = job.prove_schema().unwrap();
    let mut plan = generate(&output, "", false, &Limits::default()).unwrap();
    let Some(genui_core::Node::Control(control)) = (match &mut plan.root {
        genui_core::Node::Vertical { elements } => elements.first_mut(),
        _ => None,
    }) else {
        panic!("one control: {plan:?}")
    };
    control.widget = genui_core::Widget::Slider;
    let outcome = job.complete(plan, &proven, Map::new());
    assert_eq!(outcome.response.status, 200, "{}", outcome.response.body);
    let answer: Value = serde_json::from_str(&outcome.response.body).unwrap();
    let warnings = answer["meta"]["warnings"].as_array().cloned().unwrap_or_default();
    assert!(warnings.iter().any(|w| w["code"] == "widget_replaced" && w["pointer"] == "/output/properties/name"), "{answer}");
}
