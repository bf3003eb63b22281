//! The whole core, request bytes to response, over the fixture corpus in
//! `tests/fixtures/`: every generate fixture must produce a proven, complete
//! form; every error fixture must fail with its documented code.

mod a2ui_schema;

use genui_core::Contract;
use genui_core::Limits;
use genui_core::UiSpec;
use genui_core::{GenerateJob, Outcome};
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};

fn fixture_dir(kind: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(kind)
}

fn fixtures(kind: &str) -> Vec<(String, Value)> {
    let mut out: Vec<(String, Value)> = std::fs::read_dir(fixture_dir(kind))
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            (
                p.file_stem().unwrap().to_string_lossy().into_owned(),
                serde_json::from_str(&text).unwrap(),
            )
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn generate(body: &Value, cached: Option<&str>) -> Outcome {
    let bytes = serde_json::to_vec(body).unwrap();
    match GenerateJob::prepare(&bytes, None, &forgetful()) {
        Ok(job) => job.answer(cached),
        Err(e) => Outcome::failed(&e),
    }
}

fn body_of(outcome: &Outcome) -> Value {
    serde_json::from_str(&outcome.response.body).unwrap()
}

/// Reverses key order at every level: same JSON, different bytes.
fn reorder(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut out = Map::new();
            for (k, v) in map.iter().rev() {
                out.insert(k.clone(), reorder(v));
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(reorder).collect()),
        other => other.clone(),
    }
}

fn scopes(ui: &Value, out: &mut Vec<String>) {
    if ui["type"] == "Control" {
        out.push(ui["scope"].as_str().unwrap().to_owned());
    }
    if let Some(elements) = ui["elements"].as_array() {
        elements.iter().for_each(|e| scopes(e, out));
    }
}

/// Every property path reachable through plain nested objects (no `$ref`)
/// must be covered by a control at or below it. (A field that is a `$ref`
/// is its target: keywords beside it, `properties` too, are not part of it.)
fn assert_every_field_covered(name: &str, schema: &Value, at: &str, controls: &[String]) {
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return;
    };
    for (prop, sub) in props {
        let path = format!("{at}/properties/{prop}");
        let scope = format!("#{path}");
        let covered = controls
            .iter()
            .any(|c| *c == scope || c.starts_with(&format!("{scope}/")));
        assert!(covered, "{name}: field {path} has no control");
        if !controls.contains(&scope) && sub.get("$ref").is_none() {
            assert_every_field_covered(name, sub, &path, controls);
        }
    }
}

/// Every leaf of `initial` comes from the request data or the schema's defaults.
fn assert_values_from(name: &str, initial: &Value, data: &Value, defaults: &Value, at: &str) {
    match initial {
        Value::Object(map) => {
            for (k, v) in map {
                let p = format!("{at}/{k}");
                assert_values_from(name, v, data, defaults, &p);
            }
        }
        leaf => {
            let from_data = data.pointer(at) == Some(leaf);
            let from_defaults = defaults.pointer(at) == Some(leaf);
            assert!(
                from_data || from_defaults,
                "{name}: initialData{at} = {leaf} came from neither data nor defaults"
            );
        }
    }
}

#[test]
fn every_generate_fixture_yields_a_proven_complete_form() {
    // Hits below must come from the stored text, as from KV in a new isolate.
    let all = fixtures("generate");
    assert!(all.len() >= 30, "fixture corpus shrank to {}", all.len());
    for (name, args) in all {
        let body = json!({"tool": "generateUserInterface", "arguments": args});
        let miss = generate(&body, None);
        let response = body_of(&miss);
        assert_eq!(miss.response.status, 200, "{name}: {response}");
        Contract::JsonFormsResponse.check(&response).unwrap();
        Contract::GenerateRequest
            .check(&body)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        // That `jsonSchema` is `output` with only the renderable rewrite is
        // tested in src/render/renderable.rs; here: it accepts the same values.
        let renderable = response["jsonSchema"].clone();
        assert_same_values(&name, &args["output"], &renderable, &args);
        assert_eq!(response["meta"]["cache"], "miss");

        let mut controls = Vec::new();
        scopes(&response["uiSchema"], &mut controls);
        assert!(!controls.is_empty(), "{name}: no controls");
        assert_every_field_covered(&name, &args["output"], "", &controls);

        let put = miss.cache_put.clone().expect("a miss stores its spec");
        let spec: Value = serde_json::from_str(&put.value).unwrap();
        Contract::UiSpec.check(&spec).unwrap();
        let data = args.get("data").cloned().unwrap_or(Value::Null);
        assert_values_from(
            &name,
            &response["initialData"],
            &data,
            &spec["defaults"],
            "",
        );
        assert_data_not_cached(&name, &data, &put.value);

        let hit = generate(&body, Some(&put.value));
        let hit_body = body_of(&hit);
        assert_eq!(hit_body["meta"]["cache"], "hit", "{name}");
        assert!(hit.cache_put.is_none());
        assert_eq!(hit_body["uiSchema"], response["uiSchema"], "{name}");
        assert_eq!(hit_body["initialData"], response["initialData"], "{name}");

        for (format, contract) in [
            ("rjsf", Contract::DguiForm),
            ("lmui", Contract::LmuiMessage),
            ("a2ui", Contract::A2uiMessages),
        ] {
            let mut in_format = body.clone();
            in_format["format"] = json!(format);
            let projected = generate(&in_format, Some(&put.value));
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
                "{name}: switching format must be a cache hit"
            );
            if format == "a2ui" {
                a2ui_schema::check_wrapper(&answer)
                    .unwrap_or_else(|e| panic!("{name} as a2ui, by A2UI's schemas: {e}"));
                a2ui_schema::V0_9_1
                    .check(&answer)
                    .unwrap_or_else(|e| panic!("{name} as a2ui, by A2UI v0.9.1's schemas: {e}"));
                assert_a2ui_form(&name, &answer, &args, &put.value);
                assert_a2ui_v1_is_the_same_surface(&name, &body, &answer, &put.value);
            }
        }

        let reordered = generate(&reorder(&body), None);
        assert_eq!(
            body_of(&reordered)["meta"]["specHash"],
            response["meta"]["specHash"],
            "{name}: key order changed the hash"
        );
    }
}

/// The same request with `a2uiVersion: "1.0"`: one v1.0 `createSurface`
/// that A2UI v1.0's schemas accept, carrying the v0.9 answer's components
/// and data model inline, for v1.0's basic catalog.
fn assert_a2ui_v1_is_the_same_surface(name: &str, body: &Value, v09: &Value, cached: &str) {
    let mut asked = body.clone();
    asked["format"] = json!("a2ui");
    asked["a2uiVersion"] = json!("1.0");
    let outcome = generate(&asked, Some(cached));
    let answer = body_of(&outcome);
    assert_eq!(outcome.response.status, 200, "{name} as v1.0: {answer}");
    Contract::A2uiMessages
        .check(&answer)
        .unwrap_or_else(|e| panic!("{name} as v1.0: {e}"));
    a2ui_schema::V1_0
        .check(&answer)
        .unwrap_or_else(|e| panic!("{name} as a2ui v1.0, by A2UI v1.0's schemas: {e}"));
    let messages = answer["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 1, "{name}: one createSurface");
    let surface = &messages[0]["createSurface"];
    assert_eq!(messages[0]["version"], "v1.0", "{name}");
    assert_eq!(
        surface["catalogId"], "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json",
        "{name}"
    );
    assert_eq!(
        surface["surfaceId"], v09["messages"][0]["createSurface"]["surfaceId"],
        "{name}"
    );
    assert_eq!(
        surface["components"],
        v1_headings(&v09["messages"][1]["updateComponents"]["components"]),
        "{name}: the v0.9 components, headings as v1.0 writes them"
    );
    assert_eq!(
        surface["dataModel"], v09["messages"][2]["updateDataModel"]["value"],
        "{name}"
    );
}

/// v0.9 components with each heading (`Text` variant `h1`-`h5`, which
/// v1.0's basic catalog lacks) as a Markdown heading of that level.
fn v1_headings(components: &Value) -> Value {
    let mut out = components.clone();
    for c in out.as_array_mut().unwrap() {
        let level = match c["variant"].as_str() {
            Some(v) if c["component"] == "Text" && v.len() == 2 && v.starts_with('h') => {
                v[1..].parse::<usize>().unwrap()
            }
            _ => continue,
        };
        let text = format!("{} {}", "#".repeat(level), c["text"].as_str().unwrap());
        c["text"] = json!(text);
        c.as_object_mut().unwrap().remove("variant");
    }
    out
}

/// An A2UI answer: every field of `output` bound by an input, the data only
/// in `updateDataModel`, the submit button carrying the spec hash.
fn assert_a2ui_form(name: &str, answer: &Value, args: &Value, cached: &str) {
    let components = answer["messages"][1]["updateComponents"]["components"]
        .as_array()
        .unwrap();
    let ids: Vec<&str> = components
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    let mut unique = ids.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), ids.len(), "{name}: component ids repeat");
    let text = serde_json::to_string(components).unwrap();
    for (prop, _) in args["output"]["properties"]
        .as_object()
        .into_iter()
        .flatten()
    {
        let (bound, decided) = (
            format!("\"path\":\"/{}", genui_core::Pointer::escape(prop)),
            format!("\"decisionPath\":\"/{}", genui_core::Pointer::escape(prop)),
        );
        assert!(
            text.contains(&bound) || text.contains(&decided),
            "{name}: /{prop} is bound by no component"
        );
    }
    // A field that may stay empty must pass its checks when empty: each
    // check of a field without a plain `required` is or(not(required), ..).
    for c in components.iter().filter(|c| c["component"] != "Button") {
        let checks = c["checks"].as_array().cloned().unwrap_or_default();
        if !checks.iter().any(|k| k["condition"]["call"] == "required") {
            assert!(
                checks.iter().all(|k| k["condition"]["call"] == "or"),
                "{name}: {} has an unguarded check: {}",
                c["id"],
                c["checks"]
            );
        }
    }
    let spec_hash = serde_json::from_str::<Value>(cached).unwrap()["specHash"].clone();
    let submit = components
        .iter()
        .find(|c| c["id"] == "submit" || c["id"] == "approve")
        .unwrap_or_else(|| panic!("{name}: no submit button"));
    assert_eq!(
        submit["action"]["event"]["context"]["specHash"], spec_hash,
        "{name}"
    );
    assert_eq!(
        submit["action"]["event"]["context"]["data"],
        json!({"path": "/"}),
        "{name}"
    );
    let data = args.get("data").cloned().unwrap_or(Value::Null);
    // An approval's prompt shows the request's `action`, as in every format.
    if data.is_object() && !text.contains("decisionPath") {
        let mut values = Vec::new();
        collect_strings(&data, &mut values);
        for value in values.iter().filter(|v| v.len() > 3) {
            assert!(
                !text.contains(value.as_str()) || cached.contains(value.as_str()),
                "{name}: data {value} in updateComponents"
            );
        }
    }
}

#[test]
fn a_remembered_spec_answers_exactly_like_the_stored_one() {
    for (name, args) in fixtures("generate") {
        let body = json!({"tool": "generateUserInterface", "arguments": args});
        let bytes = serde_json::to_vec(&body).unwrap();
        let job = GenerateJob::prepare(&bytes, None, &forgetful()).unwrap();
        assert!(job.remembered().is_none(), "{name}: memory is off");
        let put = job
            .clone()
            .answer(None)
            .cache_put
            .expect("a miss stores its spec");
        let from_kv = job.hit(Some(&put.value)).expect("a stored spec is a hit");
        let job = GenerateJob::prepare(&bytes, None, &Limits::default()).unwrap();
        assert!(
            job.remembered().is_none(),
            "{name}: nothing remembered while memory was off"
        );
        job.hit(Some(&put.value))
            .expect("read from KV and remembered");
        let remembered = job
            .remembered()
            .unwrap_or_else(|| panic!("{name}: not remembered"));
        assert_eq!(remembered, from_kv, "{name}: memory and KV answer alike");
        assert_eq!(
            job.hit(None),
            Some(from_kv),
            "{name}: remembered even when KV has nothing"
        );
    }
}

/// JSON Forms and RJSF answers are assembled around the data-free parts
/// kept as text per spec: the bytes are those of the whole answer built as
/// a value, the first time (text written) and the next (text remembered),
/// warnings, approvals and displays included.
#[test]
fn text_answers_are_the_serialised_values() {
    let all = fixtures("generate").into_iter().chain(fixtures("display"));
    for (name, args) in all {
        let mut stored = None;
        // The spec is a miss for the first format, remembered for the next.
        for (format, data_key, meta_key) in [
            ("jsonforms", "initialData", "meta"),
            ("rjsf", "formData", "metadata"),
        ] {
            let body = json!({"tool": "generateUserInterface", "arguments": args});
            let job = GenerateJob::prepare(
                &serde_json::to_vec(&body).unwrap(),
                Some(format),
                &Limits::default(),
            )
            .unwrap();
            let outcome = job.clone().answer(None);
            // A display is never put to KV; the isolate remembers it.
            if let Some(put) = outcome
                .cache_put
                .as_ref()
                .map(|put| put.value.clone())
                .or_else(|| job.spec_json())
            {
                stored.get_or_insert(put);
            }
            let stored = stored
                .as_deref()
                .unwrap_or_else(|| panic!("{name}: no spec stored"));
            let spec =
                UiSpec::from_cached(stored, job.spec_hash()).expect("the stored spec reads back");
            let answer = body_of(&outcome);
            let mut meta = answer[meta_key].as_object().cloned().unwrap_or_default();
            // RJSF's metadata adds these to the provenance it is given.
            meta.remove("version");
            if format == "rjsf" {
                meta.remove("kind");
            }
            let mut input = spec.render_input(&args["data"], None, meta);
            input.initial_data = answer[data_key].clone();
            let format = genui_core::Format::parse(format, "/format").unwrap();
            let label = format!("{name} {format:?}");
            let whole = text_of_value_built_and_remembered(
                || format.render(&input),
                || format.render_text(&input),
                &label,
            );
            assert_eq!(
                outcome.response.body, whole,
                "{name} {format:?}: the service's answer"
            );
        }
    }
}

/// A React answer is written from its remembered head (module, file name,
/// packages) as text: the same bytes as the answer built as a value and
/// serialised, the first time and from memory, for every fixture, with
/// each request's own data and provenance (warnings of the zod schema
/// included), and the service sends those bytes.
#[test]
fn react_text_answers_are_the_serialised_values() {
    let all = fixtures("generate").into_iter().chain(fixtures("display"));
    for (name, args) in all {
        let body = json!({"tool": "generateUserInterface", "arguments": args});
        let job = GenerateJob::prepare(
            &serde_json::to_vec(&body).unwrap(),
            Some("react"),
            &Limits::default(),
        )
        .unwrap();
        let outcome = job.clone().answer(None);
        let stored = (outcome.cache_put.as_ref().map(|put| put.value.clone()))
            .or_else(|| job.spec_json())
            .unwrap_or_else(|| panic!("{name}: no spec stored"));
        let spec =
            UiSpec::from_cached(&stored, job.spec_hash()).expect("the stored spec reads back");
        let answer = body_of(&outcome);
        let format = genui_core::Format::parse("react", "/format").unwrap();
        for (i, data) in [args["data"].clone(), json!({"other": [1, "two"]})]
            .iter()
            .enumerate()
        {
            let mut meta = Map::new();
            meta.insert("specHash".into(), answer["meta"]["specHash"].clone());
            meta.insert("request".into(), json!(i));
            let mut input = spec.render_input(data, None, meta);
            input.initial_data = data.clone();
            let label = format!("{name}, data {i}");
            text_of_value_built_and_remembered(
                || format.render(&input),
                || format.render_text(&input),
                &label,
            );
        }
        let mut meta = answer["meta"].as_object().cloned().unwrap_or_default();
        // The answer's own zod warnings, which rendering adds to its meta.
        if let Some(Value::Array(list)) = meta.get_mut("warnings") {
            list.retain(|w| w["code"] != "zod_unenforced");
            if list.is_empty() {
                meta.shift_remove("warnings");
            }
        }
        let mut input = spec.render_input(&args["data"], None, meta);
        input.initial_data = answer["initialData"].clone();
        let whole = serde_json::to_string(&format.render(&input)).unwrap();
        assert_eq!(outcome.response.body, whole, "{name}: the service's answer");
    }
}

/// LMUI components are kept per spec without their values: an answer from
/// the kept components carries this request's values, exactly as one built
/// afresh for it does (the first request's data must not leak into the
/// next, and a value the new data lacks must be absent).
#[test]
fn remembered_lmui_components_carry_each_requests_values() {
    for (name, args) in fixtures("generate") {
        let answer = |data: &Value| {
            let mut args = args.clone();
            args["data"] = data.clone();
            let body = json!({"tool": "generateUserInterface", "arguments": args});
            let job = GenerateJob::prepare(
                &serde_json::to_vec(&body).unwrap(),
                Some("lmui"),
                &Limits::default(),
            )
            .unwrap();
            body_of(&job.answer(None))
        };
        let first = args["data"].clone();
        let other = match &first {
            Value::Object(map) => Value::Object(
                map.iter()
                    .skip(1)
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect(),
            ),
            _ => Value::Null,
        };
        // Built and kept with `first`; then answered from the kept components with `other`.
        genui_core::Format::forget_projections();
        answer(&first);
        let remembered = answer(&other);
        genui_core::Format::forget_projections();
        let fresh = answer(&other);
        assert_eq!(
            remembered["ui_components"], fresh["ui_components"],
            "{name}"
        );
    }
}

/// No string value of the request data (longer than a few characters, so
/// that enum values or defaults that happen to match don't count) appears in
/// the cached spec unless the schema or description itself contains it.
fn assert_data_not_cached(name: &str, data: &Value, cached: &str) {
    let spec: UiSpec = serde_json::from_str(cached).unwrap();
    let schema_text = format!("{} {}", spec.schema, spec.description);
    let mut strings = Vec::new();
    collect_strings(data, &mut strings);
    for s in strings
        .into_iter()
        .filter(|s| s.len() > 3 && !schema_text.contains(s.as_str()))
    {
        assert!(
            !cached.contains(&s),
            "{name}: data value {s:?} leaked into the cached spec"
        );
    }
}

fn collect_strings(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|v| collect_strings(v, out)),
        Value::Object(map) => map.values().for_each(|v| collect_strings(v, out)),
        _ => {}
    }
}

#[test]
fn every_error_fixture_fails_with_its_code() {
    let expected = [
        ("description-not-string", "invalid_request", 400),
        ("missing-output", "invalid_request", 400),
        ("output-bad-required", "invalid_schema", 422),
        ("output-not-object", "invalid_request", 400),
        ("output-not-schema", "invalid_schema", 422),
        ("ref-cycle", "unresolved_ref", 422),
        ("ref-self-cycle", "unresolved_ref", 422),
        ("unresolved-ref", "unresolved_ref", 422),
        ("wrong-tool", "unknown_tool", 400),
    ];
    let all = fixtures("errors");
    assert_eq!(
        all.len(),
        expected.len(),
        "every error fixture needs an expectation"
    );
    for ((name, body), (expected_name, code, status)) in all.iter().zip(expected) {
        assert_eq!(name, expected_name);
        let outcome = generate(body, None);
        let error = body_of(&outcome);
        assert_eq!(
            (outcome.response.status, error["code"].as_str().unwrap()),
            (status, code),
            "{name}: {error}"
        );
        Contract::DguiError.check(&error).unwrap();
        assert!(
            error["payload"]["pointer"].is_string(),
            "{name}: no pointer in {error}"
        );
        assert!(outcome.cache_put.is_none());
    }
}

fn load(name: &str) -> Value {
    fixtures("generate")
        .into_iter()
        .find(|(n, _)| n == name)
        .unwrap()
        .1
}

fn ui_for(name: &str) -> Value {
    body_of(&generate(&load(name), None))
}

#[test]
fn seed_address_matches_the_seed_layout() {
    let response = ui_for("seed-address");
    let ui = &response["uiSchema"];
    assert_eq!(ui["type"], "VerticalLayout");
    let groups: Vec<(&str, Vec<String>)> = ui["elements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            let scopes = g["elements"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| match c["type"].as_str() {
                    Some("HorizontalLayout") => {
                        let row: Vec<&str> = c["elements"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|c| c["scope"].as_str().unwrap())
                            .collect();
                        format!("[{}]", row.join(" "))
                    }
                    _ => c["scope"].as_str().unwrap().to_owned(),
                })
                .collect();
            (g["label"].as_str().unwrap(), scopes)
        })
        .collect();
    assert_eq!(
        groups,
        [
            (
                "Personal Information",
                vec!["[#/properties/firstName #/properties/lastName]".to_owned()]
            ),
            (
                "Address",
                vec![
                    "#/properties/street".to_owned(),
                    "[#/properties/city #/properties/postalCode]".to_owned(),
                    "#/properties/country".to_owned()
                ]
            ),
        ]
    );
    assert_eq!(
        response["initialData"],
        json!({"firstName": "Ada", "lastName": "Lovelace", "city": "London"})
    );
    assert_eq!(response["meta"]["title"], "Shipping address");
}

#[test]
fn seed_flight_prefills_the_default_and_uses_date_fields() {
    let response = ui_for("seed-flight");
    assert_eq!(response["initialData"]["destinationCity"], "Tokyo");
    // JSON Forms picks its date picker from the schema's `format`, which
    // the answer keeps; LMUI names the widget the plan chose.
    for field in ["departureDate", "returnDate"] {
        assert_eq!(
            response["jsonSchema"]["properties"][field]["format"], "date",
            "{field}"
        );
    }
    let mut body = load("seed-flight");
    body["format"] = json!("lmui");
    let lmui = body_of(&generate(&body, None));
    let type_of = |id: &str| {
        lmui["ui_components"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == id)
            .map(|c| c["type"].clone())
    };
    assert_eq!(
        (type_of("departureDate"), type_of("returnDate")),
        (Some(json!("date_picker")), Some(json!("date_picker")))
    );
    assert_eq!(type_of("destinationCity"), Some(json!("text_input")));
}

fn group_depth(ui: &Value) -> usize {
    let children = ui["elements"]
        .as_array()
        .map(|e| e.iter().map(group_depth).max().unwrap_or(0))
        .unwrap_or(0);
    children + usize::from(ui["type"] == "Group")
}

#[test]
fn thirty_levels_of_nesting_reach_the_leaf_in_a_few_readable_groups() {
    let response = ui_for("deep-nesting-30-levels");
    let ui = &response["uiSchema"];
    assert!(
        group_depth(ui) <= 3,
        "groups nest {} deep: unreadable on a screen",
        group_depth(ui)
    );
    let mut controls = Vec::new();
    scopes(ui, &mut controls);
    let leaf = controls
        .iter()
        .find(|c| c.ends_with("/properties/leaf"))
        .expect("the leaf has a control");
    assert_eq!(
        leaf.matches("/properties/").count(),
        31,
        "full depth: {leaf}"
    );
}

#[test]
fn two_hundred_properties_give_two_hundred_controls() {
    let response = ui_for("flat-200-properties");
    let mut controls = Vec::new();
    scopes(&response["uiSchema"], &mut controls);
    assert_eq!(controls.len(), 200);
}

#[test]
fn recursion_through_refs_terminates_with_a_control() {
    for name in [
        "category-tree-recursive",
        "person-employer-mutual-recursion",
    ] {
        let response = ui_for(name);
        assert_eq!(response["meta"]["cache"], "miss", "{name}: {response}");
        assert!(
            response["uiSchema"].to_string().len() < 100_000,
            "{name}: recursion was not cut"
        );
    }
}

fn find_control<'a>(ui: &'a Value, scope: &str) -> Option<&'a Value> {
    if ui["scope"] == scope {
        return Some(ui);
    }
    ui["elements"]
        .as_array()?
        .iter()
        .find_map(|e| find_control(e, scope))
}

#[test]
fn widgets_follow_types_formats_and_names() {
    let ui = ui_for("humanized-labels-const-readonly")["uiSchema"].clone();
    let label = |scope: &str| {
        find_control(&ui, scope)
            .map(|c| c["label"].clone())
            .unwrap_or(Value::Null)
    };
    assert_eq!(label("#/properties/postalCode"), "Postal code");
    assert_eq!(label("#/properties/date_of_birth"), "Date of birth");
    assert_eq!(label("#/properties/homePageURL"), "Home page URL");

    let ui = ui_for("audio-settings-number-ranges")["uiSchema"].clone();
    assert!(ui.to_string().contains(r#""slider":true"#), "{ui}");
    let ui = ui_for("shipping-speed-small-enum")["uiSchema"].clone();
    assert!(ui.to_string().contains(r#""format":"radio""#), "{ui}");
    let ui = ui_for("event-registration-formats")["uiSchema"].clone();
    assert!(ui.to_string().contains(r#""multi":true"#), "{ui}");
    let ui = ui_for("invoice-line-items")["uiSchema"].clone();
    assert!(
        ui.to_string().contains(r#""detail""#),
        "arrays of objects get an item layout: {ui}"
    );
}

#[test]
fn wizard_descriptions_get_steps() {
    let mut args = load("company-nested-3-levels");
    args["description"] = json!("A step-by-step wizard to register a company.");
    let response = body_of(&generate(&args, None));
    let text = response["uiSchema"].to_string();
    assert!(
        text.contains("Categorization") && text.contains("stepper"),
        "{text}"
    );
}

#[test]
fn ill_typed_data_is_dropped_with_a_warning_not_an_error() {
    let mut args = load("seed-address");
    args["data"] = json!({"firstName": 42, "city": "London", "unknown": true});
    let response = body_of(&generate(&args, None));
    assert_eq!(
        response["initialData"],
        json!({"city": "London", "unknown": true})
    );
    assert_eq!(response["meta"]["warnings"][0]["pointer"], "/firstName");
}

#[test]
fn limits_fail_before_parsing_with_their_codes() {
    let limits = Limits::default();
    let big = vec![b' '; limits.max_body_bytes + 1];
    let e = GenerateJob::prepare(&big, None, &limits).unwrap_err();
    assert_eq!(
        (e.code().as_str(), e.http_status()),
        ("body_too_large", 413)
    );
    let deep = format!("{{\"output\":{}{}}}", "[".repeat(200), "]".repeat(200));
    let e = GenerateJob::prepare(deep.as_bytes(), None, &limits).unwrap_err();
    assert_eq!((e.code().as_str(), e.http_status()), ("body_too_deep", 413));
    // Over 50,000 JSON values: refused before anything is laid out.
    let props: Map<String, Value> = (0..25_001)
        .map(|i| (format!("p{i}"), json!({"type": "string"})))
        .collect();
    let huge = json!({"output": {"type": "object", "properties": props}});
    let e = GenerateJob::prepare(huge.to_string().as_bytes(), None, &limits).unwrap_err();
    assert_eq!(e.code().as_str(), "schema_too_large");
    // 5,001 optional text fields: no count refuses them up front; the
    // layout does, since nothing optional folds and they need 5,001 inputs.
    let props: Map<String, Value> = (0..5001)
        .map(|i| (format!("p{i}"), json!({"type": "string"})))
        .collect();
    let wide = json!({"output": {"type": "object", "properties": props}});
    let outcome = GenerateJob::prepare(wide.to_string().as_bytes(), None, &limits)
        .unwrap()
        .answer(None);
    assert_eq!(
        outcome.response.status,
        413,
        "{}",
        &outcome.response.body[..200.min(outcome.response.body.len())]
    );
    assert!(outcome.response.body.contains("schema_too_large"));
}

/// A deterministic mutation sweep over every fixture: truncations and byte
/// flips. Whatever the input, the answer is a 200 that meets its contract or
/// a `dgui_error` that meets its own; never a panic, never a 5xx.
#[test]
fn mutated_fixtures_never_panic_or_5xx() {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut inputs = 0;
    for (_, args) in fixtures("generate").into_iter().chain(fixtures("errors")) {
        let bytes = serde_json::to_vec(&args).unwrap();
        let mut variants: Vec<Vec<u8>> = (1..8)
            .map(|k| bytes[..bytes.len() * k / 8].to_vec())
            .collect();
        for _ in 0..24 {
            let mut flipped = bytes.clone();
            for _ in 0..3 {
                let i = (next() as usize) % flipped.len();
                flipped[i] = b"{}[]\":,0a-\\ tfn$#/"[(next() as usize) % 18];
            }
            variants.push(flipped);
        }
        for body in variants {
            inputs += 1;
            let outcome = match GenerateJob::prepare(&body, None, &Limits::default()) {
                Ok(job) => job.answer(None),
                Err(e) => Outcome::failed(&e),
            };
            let answer = body_of(&outcome);
            assert!(
                outcome.response.status < 500,
                "5xx for {}: {answer}",
                String::from_utf8_lossy(&body)
            );
            if outcome.response.status == 200 {
                Contract::JsonFormsResponse.check(&answer).unwrap();
            } else {
                Contract::DguiError.check(&answer).unwrap();
            }
        }
    }
    assert!(inputs > 1000);
}

#[test]
fn approvals_render_as_approve_and_reject_in_every_format() {
    let args = load("confirm-action");
    let jsonforms = body_of(&generate(&args, None));
    assert_eq!(
        jsonforms["uiSchema"]["elements"][0],
        json!({"type": "Label", "text": "Approval needed (high): Delete 500 old files"})
    );
    assert_eq!(
        jsonforms["uiSchema"]["elements"][1]["options"]["format"],
        "radio"
    );
    assert!(
        jsonforms["meta"].get("warnings").is_none(),
        "action/importance are shown, not dropped: {jsonforms}"
    );
    let mut as_rjsf = args.clone();
    as_rjsf["format"] = json!("rjsf");
    let rjsf = body_of(&generate(&as_rjsf, None));
    assert_eq!(rjsf["uiSchema"]["ui:widget"], "radio");
    assert_eq!(
        rjsf["uiSchema"]["ui:submitButtonOptions"]["submitText"],
        "Confirm"
    );
    let mut as_lmui = args.clone();
    as_lmui["format"] = json!("lmui");
    let lmui = body_of(&generate(&as_lmui, None));
    assert_eq!(
        lmui["response_text"],
        "Approval needed (high): Delete 500 old files"
    );
    let buttons: Vec<(&str, &Value)> = lmui["ui_components"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["action"].as_str().unwrap_or_default(), &c["value"]))
        .collect();
    assert_eq!(
        buttons,
        [
            ("approve", &json!("approved")),
            ("reject", &json!("rejected"))
        ]
    );

    // The object form with a required boolean decision and a reason.
    let object_form = body_of(&generate(
        &json!({"format": "lmui", "description": "Approve the refund?",
        "output": {"type": "object", "required": ["approved"], "properties": {
            "approved": {"type": "boolean"}, "reason": {"type": "string"}}}}),
        None,
    ));
    let kinds: Vec<&str> = object_form["ui_components"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["type"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["text_input", "button", "button"]);
}

/// The renderer's schema accepts exactly what `output` accepts, on the
/// fixture's own data and on that data with every optional field nulled.
fn assert_same_values(name: &str, output: &Value, renderable: &Value, args: &Value) {
    if output == renderable {
        return;
    }
    let (a, b) = (
        jsonschema::validator_for(output).unwrap(),
        jsonschema::validator_for(renderable).unwrap(),
    );
    let data = args.get("data").cloned().unwrap_or(json!({}));
    let mut nulled = data.clone();
    if let Some(map) = nulled.as_object_mut() {
        map.values_mut().for_each(|v| *v = Value::Null);
    }
    for sample in [data, nulled, json!({}), json!(null)] {
        assert_eq!(a.is_valid(&sample), b.is_valid(&sample), "{name}: {sample}");
    }
}

/// Every JSON Forms element (layouts included), depth first.
fn elements(ui: &Value, out: &mut Vec<Value>) {
    out.push(ui.clone());
    ui["elements"]
        .as_array()
        .into_iter()
        .flatten()
        .for_each(|e| elements(e, out));
}

fn rule_of(ui: &Value, scope: &str) -> Value {
    let mut all = Vec::new();
    elements(ui, &mut all);
    all.into_iter()
        .find(|e| e["scope"] == scope)
        .map(|e| e["rule"].clone())
        .unwrap_or(Value::Null)
}

fn layout_types(ui: &Value) -> Vec<String> {
    let mut all = Vec::new();
    elements(ui, &mut all);
    all.iter()
        .filter_map(|e| e["type"].as_str().map(str::to_owned))
        .collect()
}

#[test]
fn short_related_fields_share_rows_on_desktop_only() {
    let ui = &ui_for("name-address-rows")["uiSchema"];
    let rows: Vec<Vec<String>> = {
        let mut all = Vec::new();
        elements(ui, &mut all);
        all.iter()
            .filter(|e| e["type"] == "HorizontalLayout")
            .map(|e| {
                e["elements"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| c["scope"].as_str().unwrap().replace("#/properties/", ""))
                    .collect()
            })
            .collect()
    };
    assert_eq!(
        rows,
        [
            vec!["givenName", "familyName"],
            vec!["city", "postalCode", "state"],
            vec!["startDate", "endDate"]
        ]
    );
    let mobile = ui_for("seed-address-mobile");
    assert!(
        !layout_types(&mobile["uiSchema"]).contains(&"HorizontalLayout".to_owned()),
        "mobile is one column"
    );
    let desktop = ui_for("seed-address");
    assert_ne!(
        mobile["meta"]["specHash"], desktop["meta"]["specHash"],
        "device is part of the cache key"
    );
    let mut german = load("seed-address");
    german["locale"] = json!("de-DE");
    assert_eq!(
        body_of(&generate(&german, None))["meta"]["specHash"],
        desktop["meta"]["specHash"],
        "the deterministic key ignores locale"
    );
}

#[test]
fn conditionals_become_rules() {
    let ui = &ui_for("if-then-else-country")["uiSchema"];
    let us = json!({"effect": "SHOW", "condition": {"scope": "#/properties/country", "schema": {"const": "US"}}});
    assert_eq!(rule_of(ui, "#/properties/state"), us);
    assert_eq!(rule_of(ui, "#/properties/postcode")["effect"], "HIDE");
    assert_eq!(
        rule_of(ui, "#/properties/taxId")["condition"]["schema"],
        json!({"const": "DE"})
    );
    assert_eq!(rule_of(ui, "#/properties/country"), Value::Null);

    let present = |trigger: &str| json!({"effect": "SHOW", "condition": {"scope": "#", "schema": {"type": "object", "required": [trigger]}}});
    assert_eq!(
        rule_of(
            &ui_for("dependent-required-billing")["uiSchema"],
            "#/properties/billingAddress"
        ),
        present("creditCard")
    );
    assert_eq!(
        rule_of(
            &ui_for("dependent-schemas-referral")["uiSchema"],
            "#/properties/referrerName"
        ),
        present("referralCode")
    );
    let draft07 = &ui_for("draft07-dependencies")["uiSchema"];
    assert_eq!(
        rule_of(draft07, "#/properties/billing_address"),
        present("credit_card")
    );
    assert_eq!(rule_of(draft07, "#/properties/phoneType"), present("phone"));

    let response = ui_for("contact-method-discriminated");
    let ui = &response["uiSchema"];
    assert_eq!(
        rule_of(ui, "#/properties/contact/properties/channel"),
        Value::Null
    );
    assert_eq!(
        rule_of(ui, "#/properties/contact/properties/number")["condition"]["schema"],
        json!({"const": "phone"})
    );
    let channel = &response["jsonSchema"]["properties"]["contact"]["properties"]["channel"];
    assert_eq!(
        channel["oneOf"][2],
        json!({"const": "post", "title": "Letter"}),
        "JSON Forms gets the discriminator as a titled choice"
    );
}

#[test]
fn long_forms_become_steps_everywhere() {
    let response = ui_for("long-application-form");
    let types = layout_types(&response["uiSchema"]);
    assert!(types.contains(&"Categorization".to_owned()), "{types:?}");
    let mut rjsf_body = load("long-application-form");
    rjsf_body["format"] = json!("rjsf");
    let rjsf = body_of(&generate(&rjsf_body, None));
    let steps = rjsf["uiSchema"]["ui:options"]["steps"].as_array().unwrap();
    assert!(
        steps.len() >= 3 && steps[0]["fields"][0] == "firstName",
        "{steps:?}"
    );
    rjsf_body["format"] = json!("lmui");
    let lmui = body_of(&generate(&rjsf_body, None));
    let last = lmui["ui_components"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["wizard_step"].as_u64())
        .max();
    assert_eq!(last, Some(steps.len() as u64));
}

#[test]
fn lmui_carries_rows_and_rules() {
    let mut body = load("if-then-else-country");
    body["format"] = json!("lmui");
    let lmui = body_of(&generate(&body, None));
    let state = lmui["ui_components"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "state")
        .unwrap()
        .clone();
    assert_eq!(
        state["rule"],
        json!({"effect": "show", "field": "country", "schema": {"const": "US"}})
    );
    assert_eq!(state["row"], "state");
}

#[test]
fn a2ui_schemas_reject_what_a2ui_rejects() {
    let answer = body_of(&generate(
        &json!({"output": {"type": "object", "properties": {"name": {"type": "string"}}}, "format": "a2ui"}),
        None,
    ));
    a2ui_schema::check_wrapper(&answer).unwrap();
    let mut with_meta = answer.clone();
    with_meta["meta"] = json!({});
    assert!(
        a2ui_schema::check_wrapper(&with_meta).is_err(),
        "the wrapper has no room for meta"
    );
    let mut titled = answer.clone();
    titled["messages"][1]["updateComponents"]["components"][0]["title"] = json!("x");
    assert!(
        a2ui_schema::check_wrapper(&titled).is_err(),
        "components take no unknown keys"
    );
    let action = json!({"version": "v0.9", "action": {"name": "genui.submit", "surfaceId": "s", "sourceComponentId": "submit",
        "timestamp": "2026-11-25T04:03:44.839Z", "context": {"specHash": "ab", "data": {"name": "Ada"}}}});
    a2ui_schema::check_client_message(&action).unwrap();
    let mut three = action.clone();
    three["metadata"] = json!({});
    assert!(a2ui_schema::check_client_message(&three).is_err());
}

fn header<'a>(outcome: &'a Outcome, name: &str) -> &'a str {
    outcome
        .response
        .headers
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
        .unwrap_or_else(|| panic!("no {name} header"))
}

#[test]
fn provenance_headers_carry_what_meta_carries_in_every_format() {
    let output = json!({"type": "object", "properties": {"städte": {"type": "integer"}, "name": {"type": "string"}}});
    let body = json!({"output": output, "data": {"städte": "viele", "name": "Ada"}});
    let json_answer = generate(&body, None);
    let meta = body_of(&json_answer)["meta"].clone();
    assert_eq!(header(&json_answer, "x-genui-spec-hash"), meta["specHash"]);
    let warnings: Value = serde_json::from_str(header(&json_answer, "x-genui-warnings")).unwrap();
    assert_eq!(warnings, meta["warnings"], "the header is meta.warnings");
    assert!(header(&json_answer, "x-genui-warnings").is_ascii());
    for format in ["rjsf", "lmui", "a2ui"] {
        let mut in_format = body.clone();
        in_format["format"] = json!(format);
        let answer = generate(
            &in_format,
            json_answer.cache_put.as_ref().map(|p| p.value.as_str()),
        );
        assert_eq!(
            header(&answer, "x-genui-spec-hash"),
            meta["specHash"],
            "{format}"
        );
        assert_eq!(
            serde_json::from_str::<Value>(header(&answer, "x-genui-warnings")).unwrap(),
            meta["warnings"],
            "{format}"
        );
    }
    let clean = generate(&json!({"output": output}), None);
    assert_eq!(header(&clean, "x-genui-warnings"), "[]");
}

#[test]
fn a2ui_answers_come_one_message_per_line_when_asked() {
    let mut outcome = generate(
        &json!({"output": {"type": "object", "properties": {"name": {"type": "string"}}}, "format": "a2ui"}),
        None,
    );
    let wrapper = body_of(&outcome);
    outcome
        .response
        .negotiate_transport(Some("application/jsonl"));
    let lines: Vec<Value> = outcome
        .response
        .body
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(Value::Array(lines), wrapper["messages"]);
    assert_eq!(
        header(&outcome, "content-type"),
        "application/jsonl; charset=utf-8"
    );
    let mut json_forms = generate(&json!({"output": {"type": "string"}}), None);
    let before = json_forms.response.body.clone();
    json_forms
        .response
        .negotiate_transport(Some("application/jsonl"));
    assert_eq!(
        json_forms.response.body, before,
        "only A2UI answers have lines"
    );
}

/// `Accept: application/a2ui+json` (A2UI v0.9.1's media type): the same
/// messages as one bare array, under that content type, the provenance in
/// the `x-genui-*` headers; other answers and errors are left as they are.
#[test]
fn a2ui_answers_come_as_a_bare_array_under_a2uis_media_type() {
    let body = json!({"output": {"type": "object", "properties": {"name": {"type": "string"}}}, "format": "a2ui"});
    let mut outcome = generate(&body, None);
    let wrapper = body_of(&outcome);
    outcome
        .response
        .negotiate_transport(Some("text/html;q=0.5, application/a2ui+json"));
    let array: Value = serde_json::from_str(&outcome.response.body).unwrap();
    assert_eq!(array, wrapper["messages"]);
    assert_eq!(header(&outcome, "content-type"), "application/a2ui+json");
    assert_eq!(array[0]["version"], "v0.9", "v0.9.1 keeps v0.9 on the wire");
    a2ui_schema::V0_9_1
        .check(&json!({"messages": array}))
        .unwrap();
    assert_eq!(header(&outcome, "x-genui-spec-hash").len(), 64);
    assert_eq!(header(&outcome, "x-genui-warnings"), "[]");

    let mut json_forms = generate(&json!({"output": {"type": "string"}}), None);
    let before = json_forms.response.clone();
    json_forms
        .response
        .negotiate_transport(Some("application/a2ui+json"));
    assert_eq!(json_forms.response, before, "only A2UI answers are arrays");
    let mut failed = generate(&json!({"output": 3, "format": "a2ui"}), None);
    let before = failed.response.clone();
    failed
        .response
        .negotiate_transport(Some("application/a2ui+json"));
    assert_eq!(failed.response, before, "errors stay dgui_errors");
}

fn prepared(body: &Value, query: Option<&str>, accept: Option<&str>) -> Result<Value, Value> {
    let bytes = serde_json::to_vec(body).unwrap();
    let job = GenerateJob::prepare(&bytes, None, &Limits::default()).and_then(|mut job| {
        job.negotiate_a2ui(query, accept)?;
        Ok(job)
    });
    match job {
        Ok(job) => Ok(body_of(&job.answer(None))),
        Err(e) => Err(e.to_dgui_error()),
    }
}

/// The A2UI revision comes from the body's `a2uiVersion`, the
/// `a2uiVersion` query parameter, or `Accept`'s `version` parameter (the
/// query, then Accept, win over the body); v0.9 is the default; an unknown
/// revision is a 400 naming where it was given.
#[test]
fn the_a2ui_revision_is_asked_in_the_body_the_query_or_accept() {
    let body = json!({"output": {"type": "object", "properties": {"name": {"type": "string"}}}, "format": "a2ui"});
    let version = |answer: &Value| answer["messages"][0]["version"].clone();
    assert_eq!(version(&prepared(&body, None, None).unwrap()), "v0.9");
    let mut v1_body = body.clone();
    v1_body["a2uiVersion"] = json!("1.0");
    assert_eq!(version(&prepared(&v1_body, None, None).unwrap()), "v1.0");
    assert_eq!(
        version(&prepared(&body, Some("1.0"), None).unwrap()),
        "v1.0"
    );
    let accept = Some("application/a2ui+json; version=1.0");
    assert_eq!(version(&prepared(&body, None, accept).unwrap()), "v1.0");
    assert_eq!(
        version(&prepared(&v1_body, Some("0.9.1"), None).unwrap()),
        "v0.9"
    );
    let mut in_arguments = json!({"tool": "generateUserInterface", "arguments": v1_body.clone()});
    assert_eq!(
        version(&prepared(&in_arguments, None, None).unwrap()),
        "v1.0"
    );
    let json_forms = prepared(&json!({"output": {"type": "string"}}), Some("1.0"), None).unwrap();
    assert!(
        json_forms["jsonSchema"].is_object(),
        "other formats ignore it"
    );

    in_arguments["arguments"]["a2uiVersion"] = json!("0.10");
    let refused = [
        (
            prepared(&in_arguments, None, None),
            "/arguments/a2uiVersion",
        ),
        (prepared(&body, Some("2"), None), "?a2uiVersion"),
        (
            prepared(&body, None, Some("application/a2ui+json;version=v0.8")),
            "Accept",
        ),
    ];
    for (answer, pointer) in refused {
        let error = answer.unwrap_err();
        Contract::DguiError.check(&error).unwrap();
        assert_eq!(error["code"], "invalid_request", "{error}");
        assert_eq!(error["payload"]["pointer"], pointer, "{error}");
    }
    let mut numeric = body.clone();
    numeric["a2uiVersion"] = json!(1.0);
    assert_eq!(
        prepared(&numeric, None, None).unwrap_err()["payload"]["pointer"],
        "/a2uiVersion"
    );
}

/// The worker's limits with no memory of specs: every answer comes from
/// the request and the given cache value, not from an earlier request.
fn forgetful() -> Limits {
    Limits {
        spec_memory_bytes: 0,
        ..Limits::default()
    }
}

/// The serialised value of a format's answer (`render`), after checking
/// that its text path (`render_text`) writes the same bytes when it builds
/// its projections afresh and again when it answers from what it kept.
fn text_of_value_built_and_remembered(
    render: impl Fn() -> Value,
    render_text: impl Fn() -> String,
    label: &str,
) -> String {
    let whole = serde_json::to_string(&render()).unwrap();
    for pass in ["first", "remembered"] {
        if pass == "first" {
            genui_core::Format::forget_projections();
        }
        assert_eq!(render_text(), whole, "{label}: {pass} text");
    }
    whole
}
