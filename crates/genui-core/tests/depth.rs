//! No request builds a value deeper than the body's depth limit.
//!
//! The body's JSON text is scanned for depth before it is parsed, but some
//! values are built from the input rather than parsed: data nested from
//! LMUI dotted ids, from A2UI data paths and from form-post JSON Pointers,
//! and JSON text read out of strings. Each is refused as `body_too_deep`
//! (413, with the pointer of the offending input) before the value is made,
//! at the worst case (thousands of levels, which overflow a wasm isolate's
//! stack) and one level over the limit; at the limit itself it still works.

use genui_core::{Contract, GenerateJob, Limits, Outcome, SubmitJob};
use serde_json::{json, Value};

/// `Limits::default().max_body_depth`: what serde_json parses.
const LIMIT: usize = 127;
/// What one request of about 16 KB reaches with one-letter names.
const WORST: usize = 8_000;

/// An LMUI component id `n` names deep: `a.a.…`.
fn dotted(n: usize) -> String {
    vec!["a"; n].join(".")
}

/// A JSON Pointer `n` tokens deep: `/a/a/…`.
fn slashed(n: usize) -> String {
    "/a".repeat(n)
}

/// The nesting of a parsed answer's value, counted without recursion.
fn nesting(value: &Value) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(value, 1)];
    while let Some((value, level)) = stack.pop() {
        let children: Vec<&Value> = match value {
            Value::Object(map) => map.values().collect(),
            Value::Array(items) => items.iter().collect(),
            _ => continue,
        };
        deepest = deepest.max(level);
        stack.extend(children.into_iter().map(|c| (c, level + 1)));
    }
    deepest
}

fn status_and_body(outcome: &Outcome) -> (u16, Value) {
    let body = serde_json::from_str(&outcome.response.body).unwrap_or(Value::Null);
    (outcome.response.status, body)
}

fn submit_with(body: &[u8], header: Option<&str>, cached: Option<&str>) -> (u16, Value) {
    let outcome = match SubmitJob::prepare_with(body, header, &Limits::default()) {
        Ok(job) => job.answer(cached, "r1"),
        Err(e) => Outcome::failed(&e),
    };
    status_and_body(&outcome)
}

fn submit(body: &Value, cached: Option<&str>) -> (u16, Value) {
    submit_with(body.to_string().as_bytes(), None, cached)
}

/// Asserts a `body_too_deep` 413 at `pointer`, a valid `dgui_error`.
fn assert_too_deep((status, error): &(u16, Value), pointer: &str) {
    assert_eq!(*status, 413, "{}", clip(error));
    Contract::DguiError.check(error).unwrap();
    assert_eq!(error["code"], "body_too_deep", "{}", clip(error));
    assert_eq!(
        error["payload"]["pointer"].as_str(),
        Some(pointer),
        "{}",
        clip(error)
    );
    assert_eq!(error["payload"]["limit"], LIMIT);
}

fn clip(value: &Value) -> String {
    value.to_string().chars().take(400).collect()
}

/// The data of a valid submission's message: a tool message's `content`,
/// or a `dgui_response`'s `data` (a submission naming no tool call).
fn content(reply: &Value) -> Value {
    match reply["content"].as_str() {
        Some(text) => serde_json::from_str(text).unwrap(),
        None => reply["data"].clone(),
    }
}

/// Generates `body` in `format`: the answer, its spec hash and the spec
/// to cache.
fn generate(body: &Value, format: &str) -> (Value, String, String) {
    let job = GenerateJob::prepare(
        body.to_string().as_bytes(),
        Some(format),
        &Limits::default(),
    )
    .unwrap();
    let hash = job.spec_hash().to_owned();
    let outcome = job.answer(None);
    assert_eq!(outcome.response.status, 200, "{}", outcome.response.body);
    let answer = serde_json::from_str(&outcome.response.body).unwrap_or(Value::Null);
    (
        answer,
        hash,
        outcome.cache_put.expect("a miss is cached").value,
    )
}

fn open_output() -> Value {
    json!({"type": "object", "properties": {"name": {"type": "string"}}})
}

#[test]
fn the_limit_is_what_serde_json_parses() {
    assert_eq!(Limits::default().max_body_depth, LIMIT);
    let nested = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    assert!(serde_json::from_str::<Value>(&nested(LIMIT)).is_ok());
    assert!(serde_json::from_str::<Value>(&nested(LIMIT + 1)).is_err());
    let e = GenerateJob::prepare(
        format!("{{\"output\":{}}}", nested(LIMIT)).as_bytes(),
        None,
        &Limits::default(),
    )
    .unwrap_err();
    assert_eq!((e.code().as_str(), e.http_status()), ("body_too_deep", 413));
}

#[test]
fn lmui_dotted_ids_are_counted_before_they_nest() {
    let (_, hash, cached) = generate(&json!({"output": open_output()}), "lmui");
    let values = |n: usize| json!({dotted(n): "x"});
    let pointer = |n: usize| format!("/interaction/values/{}", dotted(n));
    for n in [WORST, LIMIT + 1] {
        let inline = json!({"output": open_output(), "interaction": {"type": "form_submission", "values": values(n)}});
        assert_too_deep(&submit(&inline, None), &pointer(n));
        let by_hash = json!({"specHash": hash, "interaction": {"type": "form_submission", "values": values(n)}});
        assert_too_deep(&submit(&by_hash, Some(&cached)), &pointer(n));
        let click = json!({"specHash": hash, "interaction": {"type": "button_click", "id": dotted(n), "value": true}});
        assert_too_deep(&submit(&click, Some(&cached)), "/interaction/id");
    }
    // A value's own nesting counts, and so does a repeating group's item.
    let deep_value = json!({"output": open_output(), "interaction": {"type": "form_submission", "values": {dotted(LIMIT - 1): {"b": {}}}}});
    assert_too_deep(
        &submit(&deep_value, None),
        &format!("{}/b", pointer(LIMIT - 1)),
    );
    let rows = json!({"output": open_output(), "interaction": {"type": "form_submission", "values": {dotted(LIMIT - 2): [{"c.d": 1}]}}});
    assert_too_deep(
        &submit(&rows, None),
        &format!("{}/0/c.d", pointer(LIMIT - 2)),
    );
    // At the limit: accepted, and nested as deep as the id says.
    let at_limit = json!({"specHash": hash, "toolCallId": "call_1", "interaction": {"type": "form_submission", "values": values(LIMIT)}});
    let (status, reply) = submit(&at_limit, Some(&cached));
    assert_eq!(status, 200, "{}", clip(&reply));
    assert_eq!(nesting(&content(&reply)), LIMIT);
    // Without a tool call, DGUI's response would nest the data one level
    // past what a JSON parser reads: refused at the data's deepest level.
    let untold = json!({"specHash": hash, "interaction": {"type": "form_submission", "values": values(LIMIT)}});
    let (status, error) = submit(&untold, Some(&cached));
    assert_eq!((status, &error["code"]), (413, &json!("body_too_deep")));
    let below = json!({"specHash": hash, "interaction": {"type": "form_submission", "values": values(LIMIT - 1)}});
    let (status, reply) = submit(&below, Some(&cached));
    assert_eq!(status, 200, "{}", clip(&reply));
    assert!(serde_json::from_str::<Value>(&reply.to_string()).is_ok());
}

/// An A2UI surface's submit action carrying `context` changes.
fn a2ui_action(answer: &Value, hash: &str, context: Value) -> Value {
    let surface = &answer["messages"][0]["createSurface"]["surfaceId"];
    let mut full = json!({"specHash": hash});
    full.as_object_mut()
        .unwrap()
        .extend(context.as_object().unwrap().clone());
    json!({"version": "v0.9", "action": {"name": "genui.submit", "surfaceId": surface, "sourceComponentId": "submit",
        "timestamp": "2026-11-27T06:00:00.000Z", "context": full}})
}

#[test]
fn a2ui_data_paths_are_counted_before_they_nest() {
    let (answer, hash, cached) = generate(&json!({"output": open_output()}), "a2ui");
    for n in [WORST, LIMIT + 1] {
        let message = a2ui_action(
            &answer,
            &hash,
            json!({"data": {}, "decisionPath": slashed(n), "decision": true}),
        );
        assert_too_deep(
            &submit(&message, Some(&cached)),
            "/action/context/decisionPath",
        );
        let copilotkit = json!({"userAction": message["action"]});
        assert_too_deep(
            &submit(&copilotkit, Some(&cached)),
            "/userAction/context/decisionPath",
        );
    }
    let at = |depth: usize| {
        submit(
            &a2ui_action(
                &answer,
                &hash,
                json!({"data": {}, "decisionPath": slashed(depth), "decision": true}),
            ),
            Some(&cached),
        )
    };
    // The surface was made for no tool call: its answer is DGUI's response,
    // which nests the data one level down, and stays within the limit.
    let (status, reply) = at(LIMIT);
    assert_eq!((status, &reply["code"]), (413, &json!("body_too_deep")));
    let (status, reply) = at(LIMIT - 1);
    assert_eq!(status, 200, "{}", clip(&reply));
    assert_eq!(nesting(&content(&reply)), LIMIT - 1);
}

#[test]
fn the_a2ui_data_model_header_has_the_body_limit() {
    let (answer, hash, cached) = generate(&json!({"output": open_output()}), "a2ui");
    let message = a2ui_action(&answer, &hash, json!({}));
    let surface = answer["messages"][0]["createSurface"]["surfaceId"]
        .as_str()
        .unwrap();
    let deep = format!("{}1{}", "[".repeat(WORST), "]".repeat(WORST));
    let header = format!("{{\"version\":\"v0.9\",\"surfaces\":{{\"{surface}\":{deep}}}}}");
    assert_too_deep(
        &submit_with(message.to_string().as_bytes(), Some(&header), Some(&cached)),
        "a2ui-client-data-model",
    );
}

#[test]
fn json_text_read_out_of_strings_stays_within_the_limit() {
    // An A2UI renderer edits an object as JSON text; the text is read back
    // where the string was, so its depth adds to the string's.
    let list = json!({"type": "array", "items": {}});
    let output = json!({"type": "object", "properties": {"a": {"type": "object", "properties": {"b": {"type": "object", "properties": {"c": list}}}}}});
    let (answer, hash, cached) = generate(&json!({"output": output}), "a2ui");
    let text = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    // The data (1), `a` (2) and `b` (3) hold the text's lists: one over.
    let message = a2ui_action(
        &answer,
        &hash,
        json!({"data": {"a": {"b": {"c": text(LIMIT - 2)}}}}),
    );
    let (status, error) = submit(&message, Some(&cached));
    assert_eq!(
        (status, error["code"].as_str()),
        (413, Some("body_too_deep")),
        "{}",
        clip(&error)
    );
    assert!(
        error["payload"]["pointer"]
            .as_str()
            .unwrap()
            .starts_with("/data/a/b/c"),
        "{}",
        clip(&error)
    );
    // The surface names no tool call: DGUI's response nests the data one
    // level down, so one more level is refused.
    let message = a2ui_action(
        &answer,
        &hash,
        json!({"data": {"a": {"b": {"c": text(LIMIT - 3)}}}}),
    );
    assert_eq!(submit(&message, Some(&cached)).0, 413);
    let message = a2ui_action(
        &answer,
        &hash,
        json!({"data": {"a": {"b": {"c": text(LIMIT - 4)}}}}),
    );
    assert_eq!(submit(&message, Some(&cached)).0, 200);
}

#[test]
fn form_post_pointers_are_counted_before_they_nest() {
    // A recursive schema names fields at any depth.
    let output =
        json!({"type": "object", "properties": {"name": {"type": "string"}, "a": {"$ref": "#"}}});
    let (_, hash, cached) = generate(&json!({"output": output}), "html");
    let post = |pointer: &str| {
        let body: String = form_urlencoded::Serializer::new(String::new())
            .append_pair("_specHash", &hash)
            .append_pair("_toolCallId", "call_1")
            .append_pair(pointer, "x")
            .finish();
        let outcome = match SubmitJob::prepare_form(body.as_bytes(), None, None, &Limits::default())
        {
            Ok(job) => job.answer(Some(&cached), "r1"),
            Err(e) => Outcome::failed(&e),
        };
        status_and_body(&outcome)
    };
    for n in [WORST, LIMIT + 1] {
        let pointer = format!("{}/name", slashed(n - 1));
        assert_too_deep(&post(&pointer), &pointer);
    }
    let (status, reply) = post(&format!("{}/name", slashed(LIMIT - 1)));
    assert_eq!(status, 200, "{}", clip(&reply));
    assert_eq!(nesting(&content(&reply)), LIMIT);
}

/// Data as deep as a body may carry it is rendered in every format, the
/// pre-fill merged over the schema's defaults at that depth. (Without the
/// test-time contract check: it parses each answer back, and an answer
/// wraps the data in a few more levels than serde_json parses.)
#[test]
fn prefill_as_deep_as_the_body_allows_renders_in_every_format() {
    let limits = Limits {
        check_contracts: false,
        ..Limits::default()
    };
    // `{"output":…,"data":` is one level: the data may nest one less.
    let mut data = json!("leaf");
    for _ in 0..LIMIT - 1 {
        data = json!({"a": data});
    }
    let output = json!({"type": "object", "properties": {"a": {"type": "object", "default": {"a": {"z": 1}}}, "name": {"type": "string"}}});
    let body = json!({"output": output, "data": data});
    assert!(Limits::default()
        .check_body_depth(body.to_string().as_bytes())
        .is_ok());
    let mut failed = Vec::new();
    for format in ["jsonforms", "rjsf", "lmui", "a2ui", "html", "react"] {
        let outcome = GenerateJob::prepare(body.to_string().as_bytes(), Some(format), &limits)
            .unwrap()
            .answer(None);
        if outcome.response.status != 200 {
            failed.push(format!(
                "{format}: {}",
                &outcome.response.body[..300.min(outcome.response.body.len())]
            ));
        }
    }
    assert!(failed.is_empty(), "{failed:#?}");
    let mut deeper = body.clone();
    deeper["data"] = json!({"a": deeper["data"].clone()});
    let e = GenerateJob::prepare(deeper.to_string().as_bytes(), None, &limits).unwrap_err();
    assert_eq!((e.code().as_str(), e.http_status()), ("body_too_deep", 413));
}

/// The schema side: a walk that follows `$ref`s (the React module's zod
/// schema) meets a chain of distinct definitions, each nesting the next,
/// 2,000 long (a request of about 110 KB; 200 overflowed a test thread). It stops expanding at the
/// depth limit and says so; every other format lays such a schema out
/// within `Limits::max_field_depth`.
#[test]
fn a_chain_of_references_is_expanded_only_to_the_limit() {
    let chain = 2_000;
    let mut defs = serde_json::Map::new();
    for i in 0..chain {
        defs.insert(
            format!("d{i}"),
            json!({"properties": {"x": {"$ref": format!("#/$defs/d{}", i + 1)}}}),
        );
    }
    defs.insert(format!("d{chain}"), json!({"type": "string"}));
    let body = json!({"output": {"type": "object", "properties": {"root": {"$ref": "#/$defs/d0"}}, "$defs": defs}});
    for format in ["jsonforms", "rjsf", "lmui", "a2ui", "html", "react"] {
        let outcome = GenerateJob::prepare(
            body.to_string().as_bytes(),
            Some(format),
            &Limits::default(),
        )
        .unwrap()
        .answer(None);
        assert_eq!(
            outcome.response.status,
            200,
            "{format}: {}",
            &outcome.response.body[..300.min(outcome.response.body.len())]
        );
        if format == "react" {
            assert!(
                outcome
                    .response
                    .body
                    .contains("a reference nested deeper than 127 schemas"),
                "the module says what it does not enforce"
            );
        }
    }
}
