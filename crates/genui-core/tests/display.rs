//! Display UIs (no `output`, data with records or series) over the corpus
//! in `tests/fixtures/display/`: every answer in every format meets its
//! contract, every chart validates against Vega-Lite's published schema
//! (vendored in `schemas/vendor/`, native tests only), the spec holds no
//! data and is never written to KV (not even its column names), and a
//! display takes no submission (its limits are tested in
//! `src/plan/display/mod.rs`).

mod a2ui_schema;

use genui_core::Contract;
use genui_core::Limits;
use genui_core::{GenerateJob, Outcome, SubmitJob};
use serde_json::{json, Value};
use std::path::Path;
use std::sync::OnceLock;

fn fixtures() -> Vec<(String, Value)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/display");
    let mut out: Vec<(String, Value)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| {
            (
                p.file_stem().unwrap().to_string_lossy().into_owned(),
                serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap(),
            )
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// The marks each fixture's charts must have, in dataset order.
fn expected_marks(name: &str) -> &'static [&'static str] {
    match name {
        "sales-by-region" | "bar-category-value" => &["bar"],
        "line-dates" | "line-multi-series" | "line-series-by-region" | "bare-numbers" => &["line"],
        "scatter-height-weight" => &["point"],
        "irregular-records" | "empty-array" => &[],
        "dashboard-three-datasets" => &["line", "bar", "line"],
        other => panic!("fixture {other} has no expected marks: add them here"),
    }
}

fn generate(body: &Value, cached: Option<&str>) -> Outcome {
    generate_under(body, cached, &Limits::default())
}

fn generate_under(body: &Value, cached: Option<&str>, limits: &Limits) -> Outcome {
    match GenerateJob::prepare(&serde_json::to_vec(body).unwrap(), None, limits) {
        Ok(job) => job.answer(cached),
        Err(e) => Outcome::failed(&e),
    }
}

/// The spec this isolate remembers for a request, as JSON.
fn remembered_spec(body: &Value) -> String {
    GenerateJob::prepare(&serde_json::to_vec(body).unwrap(), None, &Limits::default())
        .unwrap()
        .spec_json()
        .unwrap_or_else(|| panic!("the isolate remembers the spec for {body}"))
}

fn body_of(outcome: &Outcome) -> Value {
    serde_json::from_str(&outcome.response.body).unwrap()
}

fn vega_lite() -> &'static jsonschema::Validator {
    static VALIDATOR: OnceLock<jsonschema::Validator> = OnceLock::new();
    VALIDATOR.get_or_init(|| {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../schemas/vendor/vega-lite-v5.schema.json");
        let mut schema: Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        percent_encode_refs(&mut schema);
        jsonschema::options()
            .with_draft(jsonschema::Draft::Draft7)
            .build(&schema)
            .unwrap()
    })
}

/// Vega-Lite names definitions after TypeScript generics, and refers to
/// them unescaped (`#/definitions/MarkPropDef<(Gradient|string|null)>`),
/// which draft-07's meta-schema rejects as a `uri-reference`. The same
/// references, percent-encoded, are valid and resolve to the same keys (the
/// vendored file itself stays unchanged).
fn percent_encode_refs(value: &mut Value) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(reference)) = map.get_mut("$ref") {
                let mut encoded = String::new();
                for c in reference.chars() {
                    match c {
                        '<' | '>' | '|' | '"' | '{' | '}' | '^' | '`' | ' ' | '[' | ']' | '\\' => {
                            encoded.push_str(&format!("%{:02X}", c as u32))
                        }
                        _ => encoded.push(c),
                    }
                }
                *reference = encoded;
            }
            map.values_mut().for_each(percent_encode_refs);
        }
        Value::Array(items) => items.iter_mut().for_each(percent_encode_refs),
        _ => {}
    }
}

fn assert_vega_lite(name: &str, spec: &Value) {
    let errors: Vec<String> = vega_lite()
        .iter_errors(spec)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{name}: chart violates Vega-Lite v5: {errors:?}\n{spec}"
    );
}

fn marks(charts: &[Value]) -> Vec<String> {
    charts
        .iter()
        .map(|c| c["mark"]["type"].as_str().unwrap().to_owned())
        .collect()
}

/// Every string and number of the data, to look for in the cached spec.
fn leaves(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) if s.len() > 3 => out.push(s.clone()),
        Value::Number(n) if n.to_string().len() > 3 => out.push(n.to_string()),
        Value::Array(items) => items.iter().for_each(|v| leaves(v, out)),
        Value::Object(map) => map.values().for_each(|v| leaves(v, out)),
        _ => {}
    }
}

#[test]
fn every_display_fixture_answers_in_every_format() {
    // No KV: repeats and other formats are served from the isolate's memory.
    let all = fixtures();
    assert!(all.len() >= 10, "display corpus shrank to {}", all.len());
    let mut charts_checked = 0;
    for (name, args) in all {
        let body = json!({"tool": "generateUserInterface", "arguments": args});
        Contract::GenerateRequest
            .check(&body)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let miss = generate(&body, None);
        let answer = body_of(&miss);
        assert_eq!(miss.response.status, 200, "{name}: {answer}");
        Contract::JsonFormsResponse
            .check(&answer)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(answer["meta"]["kind"], "display", "{name}");
        assert_eq!(answer["jsonSchema"]["readOnly"], true, "{name}");
        assert_eq!(
            answer["initialData"], args["data"],
            "{name}: every value is shown"
        );
        let charts: Vec<Value> = answer["charts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["vegaLite"].clone())
            .collect();
        assert_eq!(marks(&charts), expected_marks(&name), "{name}");
        for element in answer["uiSchema"]["elements"].as_array().unwrap() {
            assert_eq!(element["options"]["readonly"], true, "{name}: {element}");
        }

        assert_eq!(
            miss.cache_put, None,
            "{name}: a display is never written to KV"
        );
        let spec = remembered_spec(&body);
        Contract::UiSpec
            .check(&serde_json::from_str(&spec).unwrap())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut values = Vec::new();
        leaves(&args["data"], &mut values);
        for value in values {
            assert!(
                !spec.contains(&value),
                "{name}: data value {value} leaked into the remembered spec"
            );
        }

        // This isolate remembers the spec: a repeat is a hit.
        let hit = generate(&body, None);
        assert_eq!(body_of(&hit)["meta"]["cache"], "hit", "{name}");
        assert_eq!(body_of(&hit)["charts"], answer["charts"], "{name}");

        let mut all_charts = charts.clone();
        for (format, contract) in [
            ("rjsf", Contract::DguiForm),
            ("lmui", Contract::LmuiMessage),
        ] {
            let mut in_format = body.clone();
            in_format["format"] = json!(format);
            let projected = generate(&in_format, None);
            let answer = body_of(&projected);
            assert_eq!(
                projected.response.status, 200,
                "{name} as {format}: {answer}"
            );
            contract
                .check(&answer)
                .unwrap_or_else(|e| panic!("{name} as {format}: {e}"));
            assert!(
                projected.cache_put.is_none(),
                "{name}: switching format is a cache hit"
            );
            assert_eq!(answer["metadata"]["kind"], "display", "{name} as {format}");
            if format == "rjsf" {
                assert_eq!(
                    answer["uiSchema"]["ui:submitButtonOptions"]["norender"], true,
                    "{name}"
                );
                all_charts.extend(
                    answer["charts"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|c| c["vegaLite"].clone()),
                );
            } else {
                let components = answer["ui_components"].as_array().unwrap();
                assert!(
                    components
                        .iter()
                        .all(|c| c["type"] == "table" || c["type"] == "chart"),
                    "{name}: no inputs, no submit"
                );
                let lmui_charts: Vec<Value> = components
                    .iter()
                    .filter(|c| c["type"] == "chart")
                    .map(|c| c["vega_lite"].clone())
                    .collect();
                assert_eq!(marks(&lmui_charts), expected_marks(&name), "{name} as lmui");
                all_charts.extend(lmui_charts);
            }
        }
        for chart in &all_charts {
            assert_vega_lite(&name, chart);
            charts_checked += 1;
        }
    }
    assert!(
        charts_checked >= 30,
        "only {charts_checked} charts were checked against Vega-Lite"
    );
}

#[test]
fn every_display_as_a2ui_is_tables_of_the_data_model_and_no_button() {
    for (name, args) in fixtures() {
        let answer = body_of(&generate(
            &json!({"tool": "generateUserInterface", "arguments": args, "format": "a2ui"}),
            None,
        ));
        Contract::A2uiMessages
            .check(&answer)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        a2ui_schema::check_wrapper(&answer)
            .unwrap_or_else(|e| panic!("{name} by A2UI's schemas: {e}"));
        a2ui_schema::V0_9_1
            .check(&answer)
            .unwrap_or_else(|e| panic!("{name} by A2UI v0.9.1's schemas: {e}"));
        let v1 = body_of(&generate(
            &json!({"tool": "generateUserInterface", "arguments": args, "format": "a2ui", "a2uiVersion": "1.0"}),
            None,
        ));
        Contract::A2uiMessages
            .check(&v1)
            .unwrap_or_else(|e| panic!("{name} as v1.0: {e}: {v1}"));
        a2ui_schema::V1_0
            .check(&v1)
            .unwrap_or_else(|e| panic!("{name} by A2UI v1.0's schemas: {e}"));
        assert_eq!(v1["messages"][0]["version"], "v1.0", "{name}");
        let components = answer["messages"][1]["updateComponents"]["components"]
            .as_array()
            .unwrap();
        assert!(
            components
                .iter()
                .all(|c| !matches!(c["component"].as_str(), Some("Button" | "TextField"))),
            "{name}: a display takes no input"
        );
        let lists = components
            .iter()
            .filter(|c| c["component"] == "List")
            .count();
        assert!(lists >= 1, "{name}: no table");
        let model = &answer["messages"][2]["updateDataModel"]["value"];
        if args["data"].is_object() {
            assert_eq!(model, &args["data"], "{name}: the data model is the data");
        }
    }
}

fn answer_for(name: &str, format: &str) -> Value {
    let (_, args) = fixtures().into_iter().find(|(n, _)| n == name).unwrap();
    body_of(&generate(
        &json!({"tool": "generateUserInterface", "arguments": args, "format": format}),
        None,
    ))
}

#[test]
fn charts_follow_the_data_shape() {
    let sales = answer_for("sales-by-region", "jsonforms");
    let chart = &sales["charts"][0]["vegaLite"];
    assert_eq!(chart["encoding"]["x"]["field"], "region");
    assert_eq!(
        chart["encoding"]["y"]["aggregate"], "sum",
        "regions repeat: bars are summed"
    );
    assert_eq!(chart["transform"][0]["fold"], json!(["revenue", "units"]));
    assert_eq!(chart["data"]["values"].as_array().unwrap().len(), 5);
    assert_eq!(
        sales["uiSchema"]["elements"][0]["scope"],
        "#/properties/sales"
    );
    assert_eq!(
        sales["uiSchema"]["elements"][0]["options"]["charts"],
        json!(["sales-chart"])
    );
    assert_eq!(
        sales["jsonSchema"]["properties"]["sales"]["items"]["properties"]["manager"]["format"],
        "email"
    );

    let by_region = answer_for("line-series-by-region", "jsonforms");
    let encoding = &by_region["charts"][0]["vegaLite"]["encoding"];
    assert_eq!(
        (
            encoding["x"]["type"].as_str(),
            encoding["color"]["field"].as_str()
        ),
        (Some("temporal"), Some("region"))
    );

    let numbers = answer_for("bare-numbers", "lmui");
    let table = &numbers["ui_components"][0];
    assert_eq!(
        table["columns"],
        json!([{"key": "value", "label": "Value", "type": "number"}])
    );
    assert_eq!(table["rows"][1], json!({"value": 98.5}));
    assert_eq!(
        numbers["ui_components"][1]["vega_lite"]["transform"][0]["window"][0]["op"],
        "row_number"
    );

    let irregular = answer_for("irregular-records", "lmui");
    let kinds: Vec<&str> = irregular["ui_components"][0]["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["type"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["string", "mixed", "date", "string", "json", "json"]);

    let rjsf = answer_for("bar-category-value", "rjsf");
    assert_eq!(
        rjsf["uiSchema"]["ui:options"],
        json!({"addable": false, "removable": false, "orderable": false, "charts": ["data-chart"]})
    );
    assert_eq!(rjsf["uiSchema"]["ui:readonly"], true);
}

#[test]
fn an_empty_array_is_an_empty_display() {
    let answer = answer_for("empty-array", "lmui");
    assert_eq!(
        answer["response_text"],
        "Search results: no data to display."
    );
    assert_eq!(
        answer["ui_components"],
        json!([{"type": "table", "id": "data", "label": "Search results", "columns": [], "rows": [], "read_only": true}])
    );
    let jsonforms = answer_for("empty-array", "jsonforms");
    assert_eq!(
        (
            jsonforms["initialData"].clone(),
            jsonforms["charts"].clone()
        ),
        (json!([]), json!([]))
    );
}

#[test]
fn the_key_is_the_shape_not_the_values() {
    let key = |data: Value| {
        GenerateJob::prepare(
            json!({"data": data}).to_string().as_bytes(),
            None,
            &Limits::default(),
        )
        .unwrap()
        .spec_hash()
        .to_owned()
    };
    let a = key(json!([{"city": "Oslo", "t": 3}, {"city": "Rome", "t": 19}]));
    assert_eq!(
        a,
        key(json!([{"city": "Lima", "t": 21}, {"city": "Kyiv", "t": -2}])),
        "other values, same display"
    );
    assert_ne!(
        a,
        key(json!([{"city": "Oslo", "t": 3.5}])),
        "a number column is not an integer column"
    );
    assert_ne!(a, key(json!([{"town": "Oslo", "t": 3}])), "other columns");
    let form = GenerateJob::prepare(json!({"data": [{"city": "Oslo", "t": 3}], "output": {"type": "object", "properties": {"t": {"type": "integer"}}}}).to_string().as_bytes(), None, &Limits::default()).unwrap();
    assert!(
        !form.is_display(),
        "an output with properties is a form, whatever the data"
    );
}

#[test]
fn a_display_takes_no_submission() {
    let outcome = generate(&json!({"data": [1, 2, 3]}), None);
    let hash = body_of(&outcome)["meta"]["specHash"]
        .as_str()
        .unwrap()
        .to_owned();
    let stored = remembered_spec(&json!({"data": [1, 2, 3]}));
    let submit = SubmitJob::prepare(
        json!({"specHash": hash, "data": [4]})
            .to_string()
            .as_bytes(),
        &Limits::default(),
    )
    .unwrap();
    let answer = submit.answer(Some(&stored), "r1");
    let error = body_of(&answer);
    Contract::DguiError.check(&error).unwrap();
    assert_eq!(
        (answer.response.status, error["payload"]["kind"].as_str()),
        (400, Some("display"))
    );
    assert!(error["message"].as_str().unwrap().contains("no submit"));
}

#[test]
fn without_output_other_data_still_needs_one() {
    for data in [
        json!({"name": "Ada"}),
        json!(["a", "b"]),
        json!([1, "two"]),
        Value::Null,
    ] {
        let error = body_of(&generate(&json!({"description": "x", "data": data}), None));
        assert_eq!(
            (error["code"].as_str(), error["payload"]["pointer"].as_str()),
            (Some("invalid_request"), Some("/output")),
            "{data}"
        );
    }
}

#[test]
fn the_vega_lite_schema_has_teeth() {
    let valid = json!({"data": {"values": [{"a": 1}]}, "mark": "bar", "encoding": {"x": {"field": "a", "type": "quantitative"}}});
    assert!(vega_lite().is_valid(&valid));
    for broken in [
        json!({"data": {"values": []}, "mark": "bars"}),
        json!({"data": {"values": []}, "mark": "bar", "encoding": {"x": {"field": "a", "type": "numeric"}}}),
        json!({"data": {"values": []}, "mark": {"type": "line", "pointy": true}}),
    ] {
        assert!(!vega_lite().is_valid(&broken), "{broken}");
    }
}

#[test]
fn hostile_names_give_plain_labels_never_a_500() {
    let names = [
        "",
        "<b>bold</b>",
        "a/b~c",
        "ui:order",
        "javascript:alert(1)",
        "[x](https://evil.example)",
        "a.b[0]",
        "value",
        "index",
    ];
    let record: serde_json::Map<String, Value> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.to_string(), json!(i)))
        .collect();
    // "" and "ui:order" are never datasets (no scope; RJSF reserves `ui:`): 7 of 9.
    let data: serde_json::Map<String, Value> = names
        .iter()
        .map(|n| (n.to_string(), json!([record.clone(), record.clone()])))
        .collect();
    let lmui = body_of(&generate(&json!({"data": data, "format": "lmui"}), None));
    let tables = lmui["ui_components"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["type"] == "table")
        .count();
    assert_eq!(tables, data.len() - 2);
    for data in [Value::Object(data), json!([record.clone(), {"": "x"}])] {
        for format in ["jsonforms", "rjsf", "lmui"] {
            let body = json!({"description": "<script>x</script>Numbers [here](https://evil.example)", "data": data, "format": format});
            let outcome = generate(&body, None);
            let answer = body_of(&outcome);
            assert_eq!(outcome.response.status, 200, "{format}: {answer}");
            let mut texts = Vec::new();
            shown_texts(&answer, &mut texts);
            assert!(!texts.is_empty());
            for text in texts {
                assert!(
                    genui_core::Issue::markup_in(&text).is_none() && !text.contains("https://"),
                    "{format}: {text:?} is shown as a label"
                );
            }
            for chart in answer["charts"].as_array().into_iter().flatten() {
                assert_vega_lite(format, &chart["vegaLite"]);
            }
        }
    }
}

/// Every label and title of an answer (not the data, nor `response_text`
/// and `description`: the agent's own text, passed through as for forms).
fn shown_texts(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                match (key.as_str(), v) {
                    ("label" | "title" | "ui:title", Value::String(text)) => out.push(text.clone()),
                    ("initialData" | "formData" | "rows" | "data", _) => {}
                    _ => shown_texts(v, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| shown_texts(v, out)),
        _ => {}
    }
}

/// Column and dataset names are the request's words: a display writes
/// nothing to KV, in any format, so no name reaches the shared cache.
#[test]
fn a_display_leaves_no_column_name_for_kv() {
    let secret = "customer_4417123456789113_ssn_123456789";
    let body = json!({"description": "Accounts", "data": {"accounts_of_acme_merger": [{secret: "x", "balance": 12.5}, {secret: "y", "balance": 3}]}});
    for format in ["jsonforms", "rjsf", "lmui", "a2ui", "html"] {
        let mut in_format = body.clone();
        in_format["format"] = json!(format);
        let job = GenerateJob::prepare(
            &serde_json::to_vec(&in_format).unwrap(),
            None,
            &Limits::default(),
        )
        .unwrap();
        assert!(!job.uses_kv(), "a display reads no KV");
        let outcome = job.answer(None);
        assert_eq!(
            outcome.response.status, 200,
            "{format}: {}",
            outcome.response.body
        );
        assert!(
            outcome.response.body.contains(secret) || format == "html",
            "{format}: the column is still shown"
        );
        assert_eq!(outcome.cache_put, None, "{format}: nothing is put to KV");
    }
    // Without the isolate's memory a display is simply built again.
    let (first, again) = (
        generate_under(&body, None, &forgetful()),
        generate_under(&body, None, &forgetful()),
    );
    assert_eq!(body_of(&again)["meta"]["cache"], "miss");
    assert_eq!(body_of(&first)["uiSchema"], body_of(&again)["uiSchema"]);
    assert_eq!(again.cache_put, None);
    // A form still is cached.
    let form = generate(
        &json!({"output": {"type": "object", "properties": {"n": {"type": "integer"}}}}),
        None,
    );
    assert!(form.cache_put.is_some());
}

/// The worker's limits with no memory of specs: every answer comes from
/// the request and the given cache value, not from an earlier request.
fn forgetful() -> Limits {
    Limits {
        spec_memory_bytes: 0,
        ..Limits::default()
    }
}
