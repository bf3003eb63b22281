//! Property tests: the cache key ignores key order and whitespace, and the
//! deterministic generator's plan passes the checker for every schema a
//! schema-generating strategy produces (nested objects, arrays, enums,
//! formats, `$ref`s into `$defs`, nullable `anyOf`, `allOf`).

use genui_core::Limits;
use genui_core::Plan;
use genui_core::{GenerateJob, GeneratorId};
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
    (
        prop::collection::btree_map(names(), inner, 1..6),
        any::<bool>(),
    )
        .prop_map(|(props, all_required)| {
            let required: Vec<&String> = if all_required {
                props.keys().collect()
            } else {
                props.keys().take(1).collect()
            };
            json!({"type": "object", "properties": props, "required": required})
        })
}

fn schema() -> impl Strategy<Value = Value> {
    let tree = leaf().prop_recursive(4, 48, 6, |inner| {
        let inner = inner.boxed();
        prop_oneof![
            object(inner.clone()),
            inner
                .clone()
                .prop_map(|item| json!({"type": "array", "items": item})),
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
        Value::Object(map) => Value::Object(
            map.iter()
                .rev()
                .map(|(k, v)| (k.clone(), reorder(v)))
                .collect::<Map<_, _>>(),
        ),
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
        prop_assert_eq!(a, id.spec_hash(&output, &description).unwrap());
    }

    #[test]
    fn generated_plans_always_pass_the_checker(output in schema(), wizard in any::<bool>()) {
        let description = if wizard { "A step-by-step wizard" } else { "A form" };
        let limits = Limits::default();
        prop_assume!(jsonschema::meta::is_valid(&output));
        let plan = Plan::generate(&output, description, false, &limits).unwrap();
        let issues = Plan::check(&plan, &output, &limits);
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
        match Plan::generate(&output, "", false, &limits) {
            Ok(plan) => {
                prop_assert!(least <= max, "answered although {least} required inputs > {max}");
                prop_assert!(plan.root.controls().len() <= max);
                let issues = Plan::check(&plan, &output, &limits);
                prop_assert!(issues.is_empty(), "{issues:?}");
            }
            Err(e) => {
                prop_assert_eq!(e.code(), genui_core::ErrorCode::SchemaTooLarge);
                prop_assert!(least > max, "refused although {least} required inputs fit {max}");
            }
        }
    }
}

/// A number as JSON text: integers around 2^53 and at the ends of the
/// u64 and i64 ranges, integers beyond u64 (serde_json holds those as the
/// nearest double), whole doubles beyond 2^53, and any double.
fn number_text() -> impl Strategy<Value = String> {
    let two_53 = 1_i64 << 53;
    prop_oneof![
        (-1000_i64..1000).prop_map(|n| n.to_string()),
        (two_53 - 8..two_53 + 8).prop_map(|n| n.to_string()),
        (-two_53 - 8..-two_53 + 8).prop_map(|n| n.to_string()),
        (u64::MAX - 16..=u64::MAX).prop_map(|n| n.to_string()),
        (i64::MIN..i64::MIN + 16).prop_map(|n| n.to_string()),
        (i64::MAX - 8..=i64::MAX).prop_map(|n| n.to_string()),
        any::<u64>().prop_map(|n| n.to_string()),
        any::<i64>().prop_map(|n| n.to_string()),
        (0_u32..32).prop_map(|n| (u128::from(u64::MAX) + u128::from(n)).to_string()),
        (two_53..two_53 + 8).prop_map(|n| format!("{n}.0")),
        (u64::MAX - 4096..=u64::MAX).prop_map(|n| format!("{n}.0")),
        (-1000_i64..1000).prop_map(|n| format!("{n}.0")),
        any::<f64>()
            .prop_filter("finite", |x| x.is_finite())
            .prop_map(|x| format!("{x:?}")),
    ]
}

/// A number as an exact integer, when it is a whole one.
fn whole(number: &serde_json::Number) -> Option<i128> {
    let float = || {
        number
            .as_f64()
            .filter(|x| x.fract() == 0.0 && x.abs() < 1e38)
            .map(|x| x as i128)
    };
    number
        .as_u64()
        .map(i128::from)
        .or_else(|| number.as_i64().map(i128::from))
        .or_else(float)
}

/// Whether two numbers serde_json holds have the same value, exactly.
fn same_value(a: &serde_json::Number, b: &serde_json::Number) -> bool {
    match (whole(a), whole(b)) {
        (Some(a), Some(b)) => a == b,
        (None, None) => a.as_f64() == b.as_f64(),
        _ => false,
    }
}

/// The spec hash of a request body, through the real parser.
fn key_of(body: &str) -> String {
    GenerateJob::prepare(body.as_bytes(), None, &Limits::default())
        .unwrap()
        .spec_hash()
        .to_owned()
}

/// Where a number is put in a schema (`N`).
const NUMBER_SLOTS: [&str; 4] = [
    r#"{"description":"Pay","output":{"type":"object","required":["id"],"properties":{"id":{"type":"integer","const":N}}}}"#,
    r#"{"description":"Pay","output":{"type":"integer","maximum":N}}"#,
    r#"{"description":"Pay","output":{"type":"object","properties":{"amount":{"enum":[1,N,"x"]}}}}"#,
    r#"{"description":"Pay","output":{"type":"object","properties":{"n":{"type":"number","default":N,"multipleOf":0.5}}}}"#,
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Two schemas that differ only in one number share a key exactly when
    /// serde_json holds the same value for both (1 and 1.0 may share one;
    /// 2^53 and 2^53 + 1, u64::MAX and u64::MAX - 1 may not).
    #[test]
    fn numbers_of_other_values_get_other_keys(a in number_text(), b in number_text(), slot in 0..NUMBER_SLOTS.len()) {
        let (body_a, body_b) = (NUMBER_SLOTS[slot].replace('N', &a), NUMBER_SLOTS[slot].replace('N', &b));
        let held = |text: &str| serde_json::from_str::<serde_json::Number>(text).unwrap();
        let same = same_value(&held(&a), &held(&b));
        prop_assert_eq!(key_of(&body_a) == key_of(&body_b), same, "{} vs {} (same value: {})", a, b, same);
    }

    /// A schema that differs in one string (a title, a property name or
    /// the description) gets another key.
    #[test]
    fn strings_and_names_that_differ_get_other_keys(output in schema(), a in any::<String>(), b in "[a-z\u{e000}\u{1f600}]{0,3}") {
        prop_assume!(a != b);
        let id = GeneratorId::deterministic();
        let key = |output: &Value, description: &str| id.spec_hash(output, description).unwrap();
        let titled = |title: &str| { let mut o = output.clone(); o["title"] = json!(title); o };
        prop_assert_ne!(key(&titled(&a), ""), key(&titled(&b), ""));
        let named = |name: &str| { let mut o = output.clone(); o["properties"][name] = json!({"type": "string"}); o };
        prop_assume!(output["properties"].get(&a).is_none() && output["properties"].get(&b).is_none());
        prop_assert_ne!(key(&named(&a), ""), key(&named(&b), ""));
        prop_assert_ne!(key(&output, &a), key(&output, &b));
    }

    /// One value in other spellings (`1000`, `1e3`, `1000.0`, `10E+2`;
    /// `2.5`, `25e-1`), other key order and other whitespace: one key.
    #[test]
    fn spellings_of_one_value_share_a_key(m in 0_i64..1_000_000, k in 0_u32..4, negative in any::<bool>()) {
        let sign = if negative { "-" } else { "" };
        let n = m * 10_i64.pow(k);
        let whole = [format!("{sign}{n}"), format!("{sign}{n}.0"), format!("{sign}{m}e{k}"), format!("{sign}{m}.0E+{k}"), format!("{sign}{n}00e-2")];
        let half = [format!("{sign}{m}.5"), format!("{sign}{}e-1", m * 10 + 5), format!("{sign}{m}.50")];
        for spellings in [&whole[..], &half[..]] {
            let compact = |n: &str| format!(r#"{{"description":"d","output":{{"type":"object","properties":{{"n":{{"type":"number","maximum":{n}}}}}}}}}"#);
            let spaced = |n: &str| format!("{{ \"output\" : {{ \"properties\" : {{ \"n\" : {{ \"maximum\" : {n} ,\n \"type\" : \"number\" }} }} , \"type\" : \"object\" }} ,\t\"description\" : \"d\" }}");
            let first = key_of(&compact(&spellings[0]));
            for spelling in spellings {
                prop_assert_eq!(&key_of(&compact(spelling)), &first, "{}", spelling);
                prop_assert_eq!(&key_of(&spaced(spelling)), &first, "{} spaced", spelling);
            }
        }
    }
}

/// The deterministic generator's answer for `output` in `format`: the
/// status and the error code, if any.
fn answer(output: &Value, format: &str) -> (u16, Option<String>) {
    let body = serde_json::to_vec(&json!({"output": output, "format": format})).unwrap();
    let outcome = match GenerateJob::prepare(&body, None, &Limits::default()) {
        Ok(job) => job.answer(None),
        Err(e) => genui_core::Outcome::failed(&e),
    };
    let parsed: Value = serde_json::from_str(&outcome.response.body).unwrap_or_default();
    (
        outcome.response.status,
        parsed["code"].as_str().map(str::to_owned),
    )
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
    let plan = Plan::generate(&output, "", false, &limits).unwrap();
    assert_eq!(Plan::check(&plan, &output, &limits), []);
    for format in genui_core::Format::names() {
        assert_eq!(answer(&output, format), (200, None), "{format}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Whatever the schema, the deterministic generator's answer in any
    /// format is a form or a refusal of the schema, never `internal_error`.
    #[test]
    fn no_format_answers_a_generated_schema_with_internal_error(output in schema()) {
        for format in genui_core::Format::names() {
            let (status, code) = answer(&output, format);
            prop_assert!(code.as_deref() != Some("internal_error") && status < 500, "{format}: {status} {code:?}\nschema: {output}");
        }
    }
}

/// The safety net: a plan with a widget that does not fit its field is
/// answered with the plain widget and a `widget_replaced` warning, not a 500.
#[test]
fn a_misfit_widget_is_answered_with_the_plain_widget_and_a_warning() {
    let output =
        json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]});
    let body = serde_json::to_vec(&json!({"output": output, "format": "jsonforms"})).unwrap();
    let job = GenerateJob::prepare(&body, None, &Limits::default()).unwrap();
    let proven = job.prove_schema().unwrap();
    let mut plan = Plan::generate(&output, "", false, &Limits::default()).unwrap();
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
    let warnings = answer["meta"]["warnings"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(
        warnings
            .iter()
            .any(|w| w["code"] == "widget_replaced" && w["pointer"] == "/output/properties/name"),
        "{answer}"
    );
}

/// The body depth pre-check as a byte loop: the reference the limit's
/// faster scan (strings skipped with `memchr`) must agree with, refusal
/// offset included.
fn depth_refused_at(body: &[u8], limit: usize) -> Option<usize> {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (offset, &byte) in body.iter().enumerate() {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > limit {
                    return Some(offset);
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

proptest! {
    #[test]
    fn the_body_depth_check_agrees_with_a_byte_loop(
        body in proptest::collection::vec(
            prop_oneof![Just(b'{'), Just(b'}'), Just(b'['), Just(b']'), Just(b'"'), Just(b'\\'), Just(b'a')],
            0..64,
        ),
        limit in 0usize..6,
    ) {
        let limits = Limits { max_body_depth: limit, ..Limits::default() };
        let offset = limits.check_body_depth(&body).err().map(|e| {
            let message = e.to_string();
            let at = message.rsplit("at byte ").next().unwrap_or_default();
            at.trim_end_matches(')').parse::<usize>().unwrap_or(usize::MAX)
        });
        prop_assert_eq!(offset, depth_refused_at(&body, limit));
    }
}
