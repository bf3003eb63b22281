//! Issue 17: schemas people really write get a form. A lookahead pattern is
//! enforced, a meta-schema `$ref` resolves from the embedded copy, and a
//! remote `$ref` becomes a free JSON input with an `unresolved_ref` warning
//! (LMUI `json_input`, long text in JSON Forms), which submissions accept as
//! any JSON.

use genui_core::{GenerateJob, Limits, Outcome, SubmitJob};
use serde_json::{json, Value};

fn generate(body: &Value) -> Value {
    let outcome =
        match GenerateJob::prepare(&serde_json::to_vec(body).unwrap(), None, &Limits::default()) {
            Ok(job) => job.answer(None),
            Err(e) => Outcome::failed(&e),
        };
    assert_eq!(outcome.response.status, 200, "{}", outcome.response.body);
    serde_json::from_str(&outcome.response.body).unwrap()
}

fn submit(output: &Value, data: Value) -> u16 {
    let body = serde_json::to_vec(&json!({"output": output, "data": data})).unwrap();
    SubmitJob::prepare(&body, &Limits::default())
        .unwrap()
        .answer(None, "r")
        .response
        .status
}

fn output() -> Value {
    json!({
        "type": "object",
        "required": ["name"],
        "properties": {
            "name": {"type": "string", "pattern": "^(?!admin$)[a-z]+$"},
            "settings": {"$ref": "https://json.schemastore.org/base.json#/definitions/x", "title": "Settings"},
            "schema": {"$ref": "http://json-schema.org/draft-07/schema#"}
        }
    })
}

#[test]
fn remote_refs_become_json_inputs_with_a_warning() {
    let answer = generate(&json!({"output": output()}));
    let warnings = answer["meta"]["warnings"].as_array().unwrap();
    assert_eq!(
        warnings.len(),
        1,
        "only the remote $ref warns: {warnings:?}"
    );
    assert_eq!(
        (
            warnings[0]["code"].as_str(),
            warnings[0]["pointer"].as_str()
        ),
        (Some("unresolved_ref"), Some("/output/properties/settings"))
    );
    // The renderer's copy has no external `$ref` left: a text field.
    assert_eq!(
        answer["jsonSchema"]["properties"]["settings"],
        json!({"title": "Settings", "type": "string"})
    );
    let lmui = generate(&json!({"output": output(), "format": "lmui"}));
    let component = |id: &str| {
        lmui["ui_components"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == id)
            .cloned()
            .unwrap()
    };
    assert_eq!(component("settings")["type"], "json_input");
    assert_eq!(component("schema")["type"], "json_input");
}

#[test]
fn submissions_enforce_lookahead_and_meta_schemas_and_accept_any_json_for_remote_refs() {
    let out = output();
    assert_eq!(
        submit(
            &out,
            json!({"name": "ada", "settings": {"any": [1, "x"]}, "schema": {"type": "string"}})
        ),
        200
    );
    assert_eq!(submit(&out, json!({"name": "admin"})), 422);
    assert_eq!(
        submit(&out, json!({"name": "ada", "schema": {"type": "strng"}})),
        422
    );
}

#[test]
fn a_two_thousand_value_enum_is_a_searchable_choice_with_a_warning() {
    let values: Vec<String> = (0..2_000).map(|i| format!("rule-{i:04}")).collect();
    let output =
        json!({"type": "object", "properties": {"rule": {"type": "string", "enum": values}}});
    let answer = generate(&json!({"output": output}));
    let warnings = answer["meta"]["warnings"].as_array().unwrap();
    assert_eq!(warnings[0]["code"], "large_enum");
    assert_eq!(warnings[0]["pointer"], "/output/properties/rule/enum");
    assert_eq!(
        answer["uiSchema"]["elements"][0]["options"]["autocomplete"], true,
        "{}",
        answer["uiSchema"]
    );
    let lmui = generate(&json!({"output": output, "format": "lmui"}));
    assert_eq!(lmui["ui_components"][0]["type"], "interactive_select");
    // RJSF: a text input over the datalist its `examples` make.
    let rjsf = generate(&json!({"output": output, "format": "rjsf"}));
    assert_eq!(rjsf["uiSchema"]["rule"]["ui:widget"], "text");
    assert_eq!(
        rjsf["schema"]["properties"]["rule"]["examples"]
            .as_array()
            .map(Vec::len),
        Some(2_000)
    );
    assert_eq!(submit(&output, json!({"rule": "rule-1999"})), 200);
    assert_eq!(submit(&output, json!({"rule": "rule-2000"})), 422);
}

#[test]
fn percent_encoded_pointers_resolve() {
    let output = json!({"type": "object", "definitions": {"TopLevel<Spec>": {"type": "string", "title": "Spec"}},
        "properties": {"a": {"$ref": "#/definitions/TopLevel<Spec>"}, "b": {"$ref": "#/definitions/TopLevel%3CSpec%3E"}}});
    let answer = generate(&json!({"output": output}));
    assert!(
        answer["meta"].get("warnings").is_none(),
        "{}",
        answer["meta"]
    );
    assert_eq!(submit(&output, json!({"a": "x", "b": "y"})), 200);
    assert_eq!(submit(&output, json!({"a": 1})), 422);
}

#[test]
fn objects_past_the_depth_limit_are_cut_not_refused() {
    let mut schema = json!({"type": "object", "properties": {"leaf": {"type": "string"}}});
    for _ in 0..60 {
        schema =
            json!({"type": "object", "properties": {"next": schema, "name": {"type": "string"}}});
    }
    let answer = generate(&json!({"output": schema}));
    let depth = |pointer: &str| pointer.matches("/next").count();
    let mut deepest = 0;
    let mut stack = vec![&answer["uiSchema"]];
    while let Some(node) = stack.pop() {
        if let Some(scope) = node["scope"].as_str() {
            deepest = deepest.max(depth(scope));
        }
        stack.extend(node["elements"].as_array().into_iter().flatten());
    }
    assert!(
        (40..=60).contains(&deepest),
        "cut near the depth limit, at {deepest}"
    );
}

/// The new formats take the same degradations: A2UI offers a 2,000-value
/// enum as a filterable `ChoicePicker` and an external `$ref` as long text;
/// React as a datalist search (zod's enum keeps it closed) and a JSON
/// textarea read back with `asJson`.
#[test]
fn a2ui_and_react_take_large_enums_and_json_inputs() {
    let values: Vec<String> = (0..2_000).map(|i| format!("rule-{i:04}")).collect();
    let mut out = output();
    out["properties"]["rule"] = json!({"type": "string", "enum": values});
    let a2ui = generate(&json!({"output": out, "format": "a2ui"}));
    let components = a2ui["messages"][1]["updateComponents"]["components"]
        .as_array()
        .unwrap();
    let component = |id: &str| components.iter().find(|c| c["id"] == id).cloned().unwrap();
    let rule = component("field:/rule");
    assert_eq!(
        (rule["component"].as_str(), rule["filterable"].as_bool()),
        (Some("ChoicePicker"), Some(true))
    );
    assert_eq!(rule["options"].as_array().unwrap().len(), 2_000);
    assert_eq!(
        (
            component("field:/settings")["variant"].as_str(),
            component("field:/settings")["label"].as_str()
        ),
        (Some("longText"), Some("Settings (JSON)"))
    );
    assert!(component("field:/name")["checks"]
        .to_string()
        .contains("^(?!admin$)[a-z]+$"));
    let react = generate(&json!({"output": out, "format": "react"}));
    let module = react["module"].as_str().unwrap();
    assert!(
        module.contains(r#"<input list={"rule-choices"} {...field(form, "rule", asText)} />"#),
        "{module}"
    );
    assert!(
        module.contains(r#"<datalist id={"rule-choices"}>"#)
            && module.contains(r#"<option value={"rule-1999"}>"#)
    );
    assert!(module
        .contains(r#"<textarea {...field(form, "settings", asJson)} placeholder={"JSON"} />"#));
    let codes: Vec<&str> = react["meta"]["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|w| w["code"].as_str())
        .collect();
    assert!(
        codes.contains(&"unresolved_ref") && codes.contains(&"large_enum"),
        "{codes:?}"
    );
}

fn refusal(body: &Value) -> (u16, Value) {
    let outcome =
        match GenerateJob::prepare(&serde_json::to_vec(body).unwrap(), None, &Limits::default()) {
            Ok(job) => job.answer(None),
            Err(e) => Outcome::failed(&e),
        };
    (
        outcome.response.status,
        serde_json::from_str(&outcome.response.body).unwrap(),
    )
}

/// `n` string fields named `f0`..; all required when `required`.
fn object_of(n: usize, required: bool) -> Value {
    let properties: serde_json::Map<String, Value> = (0..n)
        .map(|i| (format!("f{i}"), json!({"type": "string"})))
        .collect();
    let names: Vec<String> = if required {
        (0..n).map(|i| format!("f{i}")).collect()
    } else {
        Vec::new()
    };
    json!({"type": "object", "properties": properties, "required": names})
}

#[test]
fn a_form_over_the_input_limit_collapses_optional_objects_and_refuses_only_required_overflow() {
    // 60 optional sections reusing one 100-field definition one level
    // down (6,000 inputs, as SARIF's reused definitions need) beside 10
    // required fields: the sections' inner objects collapse.
    let sections: serde_json::Map<String, Value> = (0..60)
        .map(|i| (format!("section{i}"), json!({"type": "object", "properties": {"inner": {"$ref": "#/$defs/inner"}, "note": {"type": "string"}}})))
        .collect();
    let mut schema = object_of(10, true);
    schema["properties"]
        .as_object_mut()
        .unwrap()
        .extend(sections);
    schema["$defs"] = json!({"inner": object_of(100, false)});
    let answer = generate(&json!({"output": schema}));
    let collapsed: Vec<&str> = answer["meta"]["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["code"] == "subtree_collapsed")
        .filter_map(|w| w["pointer"].as_str())
        .collect();
    assert!(
        !collapsed.is_empty()
            && collapsed
                .iter()
                .all(|p| p.starts_with("/output/properties/section")),
        "{collapsed:?}"
    );
    // What the form cannot split is still validated as a whole on submit.
    assert_eq!(
        submit(
            &schema,
            json!({"f0": "a", "f1": "a", "f2": "a", "f3": "a", "f4": "a", "f5": "a", "f6": "a", "f7": "a", "f8": "a", "f9": "a",
        "section3": {"inner": {"f1": "x"}}})
        ),
        200
    );
    assert_eq!(
        submit(&schema, json!({"section3": {"inner": {"f1": 1}}})),
        422
    );
    // The same sections all required: nothing optional to collapse, refused.
    let names: Vec<String> = (0..60).map(|i| format!("section{i}")).collect();
    for i in 0..60 {
        schema["properties"][format!("section{i}")]["required"] = json!(["inner"]);
    }
    schema["required"] = json!(names);
    let (status, error) = refusal(&json!({"output": schema}));
    assert_eq!(
        (status, error["code"].as_str()),
        (413, Some("schema_too_large")),
        "{error}"
    );
}

#[test]
fn annex_b_patterns_are_escaped_enforced_and_warned() {
    // SARIF's language tag: a `]` that closes nothing (Annex B literal).
    let output = json!({"type": "object", "properties": {"language": {"type": "string", "pattern": "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$"}}});
    let answer = generate(&json!({"output": output}));
    let warning = &answer["meta"]["warnings"][0];
    assert_eq!(
        (warning["code"].as_str(), warning["pointer"].as_str()),
        (
            Some("pattern_escaped"),
            Some("/output/properties/language/pattern")
        )
    );
    assert_eq!(
        answer["jsonSchema"]["properties"]["language"]["pattern"],
        "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}\\]?$"
    );
    assert_eq!(submit(&output, json!({"language": "en-US]"})), 200);
    assert_eq!(submit(&output, json!({"language": "1"})), 422);
    // Still not ECMA-262 after the escape: refused with the pointer.
    let (status, error) = refusal(
        &json!({"output": {"type": "object", "properties": {"a": {"type": "string", "pattern": "(?i)a]"}}}}),
    );
    assert_eq!(
        (status, error["payload"]["pointer"].as_str()),
        (422, Some("/output/properties/a/pattern")),
        "{error}"
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 24, ..Default::default() })]

    /// Issue 17, item 3: an enum over the count limit is answered in every
    /// format with a `large_enum` warning while it fits the byte cap, and
    /// refused with its pointer past it; a listed value submits, another
    /// does not.
    #[test]
    fn large_enums_answer_in_every_format_or_refuse_past_the_byte_cap(n in 1_001usize..2_600, width in 1usize..160) {
        let values: Vec<String> = (0..n).map(|i| format!("{i:0width$}")).collect();
        let bytes: usize = values.iter().map(|v| v.len() + 3).sum();
        let output = json!({"type": "object", "properties": {"v": {"type": "string", "enum": values}}});
        let (status, answer) = refusal(&json!({"output": output}));
        if bytes > Limits::default().max_enum_bytes {
            proptest::prop_assert_eq!(status, 413, "{}", answer);
            proptest::prop_assert_eq!(answer["payload"]["pointer"].as_str(), Some("/output/properties/v/enum"));
        } else {
            proptest::prop_assert_eq!(status, 200, "{}", answer);
            for format in ["rjsf", "lmui", "a2ui", "react"] {
                let (status, answer) = refusal(&json!({"output": output, "format": format}));
                proptest::prop_assert_eq!(status, 200, "{}", format);
                let warned = answer["meta"]["warnings"].as_array().or_else(|| answer["metadata"]["warnings"].as_array())
                    .is_some_and(|w| w.iter().any(|w| w["code"] == "large_enum"));
                // A2UI's body is the message list: its warnings travel in
                // the x-genui-warnings header only.
                proptest::prop_assert!(warned || format == "a2ui", "{}: no large_enum warning", format);
            }
            proptest::prop_assert_eq!(submit(&output, json!({"v": format!("{:0width$}", n - 1)})), 200);
            proptest::prop_assert_eq!(submit(&output, json!({"v": format!("{:0width$}", n)})), 422);
        }
    }
}

/// Item 5: what the form lets a person enter submits. JSON Forms and RJSF
/// send a JSON-text field as a string: read as JSON on a meta-schema
/// field (then checked against the meta-schema) and on a remote `$ref`
/// field (then not checked, which the answer's `x-genui-unchecked` says).
#[test]
fn json_text_from_the_form_submits_and_the_answer_names_what_was_not_checked() {
    let out = output();
    let answer = generate(&json!({"output": out}));
    let spec_hash = answer["meta"]["specHash"].as_str().unwrap().to_owned();
    let send = |data: Value| {
        let body = serde_json::to_vec(&json!({"specHash": spec_hash, "data": data})).unwrap();
        let job = SubmitJob::prepare(&body, &Limits::default()).unwrap();
        job.answer(None, "m").response
    };
    let ok = send(
        json!({"name": "ada", "schema": "{\"type\": \"string\"}", "settings": "{\"a\": [1]}"}),
    );
    assert_eq!(ok.status, 200, "{}", ok.body);
    let message: Value = serde_json::from_str(&ok.body).unwrap();
    assert_eq!(
        message["metadata"],
        json!({"genuiUnchecked": ["/settings"]}),
        "the agent reads it in the message"
    );
    let content = message["data"].clone();
    assert_eq!(
        content,
        json!({"name": "ada", "schema": {"type": "string"}, "settings": {"a": [1]}})
    );
    let header = ok
        .headers
        .iter()
        .find(|(k, _)| k == "x-genui-unchecked")
        .map(|(_, v)| v.as_str());
    assert_eq!(header, Some(r#"["/settings"]"#));
    assert_eq!(
        send(json!({"name": "ada", "schema": "{\"type\": \"strng\"}"})).status,
        422
    );
    assert!(send(json!({"name": "ada"}))
        .headers
        .iter()
        .all(|(k, _)| k != "x-genui-unchecked"));
}
