//! `/v1/submit` for A2UI clients: the action message a `format=a2ui`
//! surface's submit button produces, as the renderer sends it, with values
//! in the renderer's types; and every way such a message can be wrong.

mod a2ui_schema;

use genui_core::Contract;
use genui_core::{GenerateJob, Outcome, SubmitJob};

use genui_core::Limits;
use serde_json::{json, Value};

fn output() -> Value {
    json!({"type": "object", "required": ["name", "age", "size", "when"], "properties": {
        "name": {"type": "string", "minLength": 2},
        "age": {"type": "integer", "minimum": 0},
        "size": {"type": "string", "enum": ["s", "m", "l"]},
        "level": {"enum": [1, 2, 3]},
        "toppings": {"type": "array", "items": {"enum": ["ham", "egg"]}, "uniqueItems": true},
        "when": {"type": "string", "format": "date-time"},
        "newsletter": {"type": "boolean"},
        "address": {"type": "object", "properties": {"zip": {"type": "string", "pattern": "^[0-9]{5}$"}}}}})
}

/// Generates the A2UI surface; returns the answer and the cached spec text.
fn surface(body: Value) -> (Value, String) {
    let outcome = GenerateJob::prepare(
        body.to_string().as_bytes(),
        Some("a2ui"),
        &Limits::default(),
    )
    .unwrap()
    .answer(None);
    assert_eq!(outcome.response.status, 200, "{}", outcome.response.body);
    let answer: Value = serde_json::from_str(&outcome.response.body).unwrap();
    a2ui_schema::check_wrapper(&answer).unwrap();
    (answer, outcome.cache_put.unwrap().value)
}

/// The action the button `id` fires, as @a2ui/lit sends it: its context
/// resolved (`data` -> the data model), wrapped as `{version, action}`.
fn action(answer: &Value, id: &str, model: &Value) -> Value {
    let surface = answer["messages"][0]["createSurface"]["surfaceId"].clone();
    let components = answer["messages"][1]["updateComponents"]["components"]
        .as_array()
        .unwrap();
    let button = components.iter().find(|c| c["id"] == id).unwrap();
    let mut context = button["action"]["event"]["context"].clone();
    context["data"] = model.clone();
    let message = json!({"version": "v0.9", "action": {"name": button["action"]["event"]["name"], "surfaceId": surface,
        "sourceComponentId": id, "timestamp": "2026-11-25T04:03:44.839Z", "context": context}});
    a2ui_schema::check_client_message(&message).unwrap();
    Contract::SubmitRequest.check(&message).unwrap();
    message
}

fn submit(message: &Value, cached: &str) -> (u16, Value) {
    let outcome = match SubmitJob::prepare(message.to_string().as_bytes(), &Limits::default()) {
        Ok(job) => job.answer(Some(cached), "r1"),
        Err(e) => Outcome::failed(&e),
    };
    let body: Value = serde_json::from_str(&outcome.response.body).unwrap();
    if outcome.response.status != 200 {
        Contract::DguiError.check(&body).unwrap();
    }
    (outcome.response.status, body)
}

/// The data a valid submission's message carries: a tool message's
/// `content` (a surface made for a tool call), else the `dgui_response`'s
/// `data` (no tool call id is made up).
fn content(message: &Value) -> Value {
    if message.get("type").is_some() {
        Contract::DguiResponse.check(message).unwrap();
        return message["data"].clone();
    }
    Contract::ToolMessage.check(message).unwrap();
    serde_json::from_str(message["content"].as_str().unwrap()).unwrap()
}

#[test]
fn renderer_values_are_coerced_and_validated_against_output() {
    let (answer, cached) = surface(json!({"output": output(), "toolCallId": "call_7"}));
    assert_eq!(
        answer["messages"][0]["createSurface"]["surfaceId"],
        "genui-call_7"
    );
    // As the renderer writes them: TextField text, ChoicePicker arrays,
    // DateTimeInput without offset, the non-string choice by its text.
    let model = json!({"name": "Ada", "age": "36", "size": ["m"], "level": ["2"], "toppings": ["egg"],
        "when": "2026-12-01T09:30:00", "newsletter": false, "address": {"zip": "12345"}});
    let (status, message) = submit(&action(&answer, "submit", &model), &cached);
    assert_eq!(status, 200, "{message}");
    assert_eq!(message["toolCallId"], "call_7");
    assert_eq!(
        content(&message),
        json!({"name": "Ada", "age": 36, "size": "m", "level": 2, "toppings": ["egg"],
        "when": "2026-12-01T09:30:00Z", "newsletter": false, "address": {"zip": "12345"}})
    );
}

#[test]
fn invalid_data_is_422_with_each_pointer() {
    let (answer, cached) = surface(json!({"output": output()}));
    let model = json!({"name": "A", "age": "-3", "size": ["xl"], "when": "2026-12-01T09:30:00", "address": {"zip": "1"}});
    let (status, error) = submit(&action(&answer, "submit", &model), &cached);
    assert_eq!(status, 422, "{error}");
    assert_eq!(error["code"], "submission_invalid");
    let mut pointers: Vec<&str> = error["payload"]["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["pointer"].as_str().unwrap())
        .collect();
    pointers.sort();
    assert_eq!(pointers, ["/address/zip", "/age", "/name", "/size"]);
}

#[test]
fn the_data_model_may_come_from_metadata_or_the_header() {
    let (answer, cached) = surface(json!({"output": output()}));
    let mut message = action(&answer, "submit", &json!({}));
    let surface = message["action"]["surfaceId"].as_str().unwrap().to_owned();
    message["action"]["context"]
        .as_object_mut()
        .unwrap()
        .remove("data");
    let model = json!({"version": "v0.9", "surfaces": {surface.clone(): {"name": "Ada", "age": "1", "size": "s", "when": "2026-01-01T00:00"}}});
    let mut with_metadata = message.clone();
    with_metadata["metadata"] = json!({"a2uiClientDataModel": model});
    let (status, reply) = submit(&with_metadata, &cached);
    assert_eq!(status, 200, "{reply}");
    assert_eq!(content(&reply)["when"], "2026-01-01T00:00:00Z");
    let job = SubmitJob::prepare_with(
        message.to_string().as_bytes(),
        Some(&model.to_string()),
        &Limits::default(),
    )
    .unwrap();
    assert_eq!(job.answer(Some(&cached), "r").response.status, 200);
    let (status, error) = submit(&message, &cached);
    assert_eq!(
        (status, error["payload"]["pointer"].as_str()),
        (400, Some("/action/context/data")),
        "{error}"
    );
    let mut other_surface = with_metadata.clone();
    other_surface["metadata"]["a2uiClientDataModel"]["surfaces"] = json!({"elsewhere": {}});
    assert_eq!(submit(&other_surface, &cached).0, 400);
}

/// CopilotKit's renderer hands its host `{userAction}` for the same action;
/// it is read exactly like `{version, action}`, pointers under `/userAction`.
#[test]
fn copilotkits_user_action_is_the_same_submission() {
    let (answer, cached) = surface(json!({"output": output(), "toolCallId": "call_ck"}));
    let model = json!({"name": "Ada", "age": "36", "size": ["m"], "when": "2026-12-01T09:30:00"});
    let v09 = action(&answer, "submit", &model);
    let copilotkit = json!({"userAction": v09["action"]});
    Contract::SubmitRequest.check(&copilotkit).unwrap();
    let (status, reply) = submit(&copilotkit, &cached);
    assert_eq!(status, 200, "{reply}");
    assert_eq!(content(&reply), content(&submit(&v09, &cached).1));
    let mut stray = copilotkit.clone();
    stray["version"] = json!("v0.9");
    let (status, error) = submit(&stray, &cached);
    assert_eq!(
        (status, error["payload"]["pointer"].as_str()),
        (400, Some("/version")),
        "{error}"
    );
    let mut no_hash = copilotkit.clone();
    no_hash["userAction"]["context"]
        .as_object_mut()
        .unwrap()
        .remove("specHash");
    let (status, error) = submit(&no_hash, &cached);
    assert_eq!(
        (status, error["payload"]["pointer"].as_str()),
        (400, Some("/userAction/context/specHash")),
        "{error}"
    );
}

#[test]
fn approvals_submit_their_decision() {
    let body = json!({"output": {"type": "object", "required": ["approved"], "properties": {"approved": {"type": "boolean"}}},
        "description": "Approve the refund?", "data": {"action": "Refund order 42"}});
    let (answer, cached) = surface(body);
    let texts = answer["messages"][1].to_string();
    assert!(
        texts.contains("Refund order 42"),
        "the prompt shows the action"
    );
    for (button, expected) in [("approve", true), ("reject", false)] {
        let (status, reply) = submit(
            &action(
                &answer,
                button,
                &answer["messages"][2]["updateDataModel"]["value"],
            ),
            &cached,
        );
        assert_eq!(status, 200, "{reply}");
        assert_eq!(content(&reply)["approved"], expected, "{button}");
    }
}

#[test]
fn a_decision_at_the_root_is_the_data() {
    let (answer, cached) = surface(
        json!({"output": {"type": "string", "enum": ["approved", "rejected"]}, "description": "Delete 500 files?"}),
    );
    let (status, reply) = submit(&action(&answer, "reject", &json!({})), &cached);
    assert_eq!(status, 200, "{reply}");
    assert_eq!(content(&reply), json!("rejected"));
}

#[test]
fn client_errors_are_a_clear_400() {
    let error = json!({"version": "v0.9", "error": {"code": "VALIDATION_FAILED", "surfaceId": "genui-x", "path": "/components/3/value", "message": "bad"}});
    a2ui_schema::check_client_message(&error).unwrap();
    Contract::SubmitRequest.check(&error).unwrap();
    let (status, body) = submit(&error, "");
    assert_eq!(status, 400);
    assert_eq!(body["code"], "invalid_request");
    assert_eq!(body["payload"]["pointer"], "/error");
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("VALIDATION_FAILED"),
        "{body}"
    );
}

#[test]
fn unknown_specs_and_surfaces_are_404() {
    let (answer, cached) = surface(json!({"output": output(), "toolCallId": "call_1"}));
    let model = json!({"name": "Ada", "age": "1", "size": "s", "when": "2026-01-01T00:00"});
    let mut unknown = action(&answer, "submit", &model);
    unknown["action"]["context"]["specHash"] = json!("a".repeat(64));
    unknown["action"]["context"]["toolCallId"] = json!("call_1");
    let job = SubmitJob::prepare(unknown.to_string().as_bytes(), &Limits::default()).unwrap();
    let outcome = job.answer(None, "r");
    assert_eq!(outcome.response.status, 404);
    assert!(outcome.response.body.contains("spec_not_found"));
    let mut moved = action(&answer, "submit", &model);
    moved["action"]["surfaceId"] = json!("someone-else");
    let (status, body) = submit(&moved, &cached);
    assert_eq!(
        (
            status,
            body["code"].as_str(),
            body["payload"]["pointer"].as_str()
        ),
        (404, Some("spec_not_found"), Some("/action/surfaceId"))
    );
}

#[test]
fn malformed_actions_are_400_with_the_pointer() {
    let (answer, cached) = surface(json!({"output": output()}));
    let good = action(&answer, "submit", &json!({}));
    type Mutation = Box<dyn Fn(&mut Value)>;
    let cases: Vec<(&str, Mutation)> = vec![
        ("/version", Box::new(|m| m["version"] = json!("v0.8"))),
        (
            "/version",
            Box::new(|m| {
                m.as_object_mut().unwrap().remove("version");
            }),
        ),
        (
            "/action/timestamp",
            Box::new(|m| {
                m["action"].as_object_mut().unwrap().remove("timestamp");
            }),
        ),
        (
            "/action/timestamp",
            Box::new(|m| m["action"]["timestamp"] = json!("yesterday")),
        ),
        (
            "/action/sourceComponentId",
            Box::new(|m| m["action"]["sourceComponentId"] = json!(3)),
        ),
        (
            "/action/context",
            Box::new(|m| m["action"]["context"] = json!("x")),
        ),
        (
            "/action/context",
            Box::new(|m| {
                for i in 0..40 {
                    m["action"]["context"][format!("k{i}")] = json!(i);
                }
            }),
        ),
        (
            "/action/context/specHash",
            Box::new(|m| m["action"]["context"]["specHash"] = json!("abc")),
        ),
        (
            "/action/name",
            Box::new(|m| m["action"]["name"] = json!("genui.addItem")),
        ),
        ("/action", Box::new(|m| m["action"] = json!([]))),
        ("/userAction", Box::new(|m| m["userAction"] = json!({}))),
        ("", Box::new(|m| m["error"] = json!({}))),
    ];
    for (pointer, break_it) in cases {
        let mut message = good.clone();
        break_it(&mut message);
        let (status, body) = submit(&message, &cached);
        assert_eq!(status, 400, "{pointer}: {body}");
        assert_eq!(body["payload"]["pointer"], pointer, "{body}");
    }
}

/// The components are remembered per spec; each request still gets its own
/// `toolCallId` in the action context, second after `specHash`, and an
/// answer from the memo equals one built fresh.
#[test]
fn remembered_surfaces_carry_each_requests_tool_call() {
    let answer = |body: Value| {
        let outcome = GenerateJob::prepare(
            body.to_string().as_bytes(),
            Some("a2ui"),
            &Limits::default(),
        )
        .unwrap()
        .answer(None);
        let answer: Value = serde_json::from_str(&outcome.response.body).unwrap();
        a2ui_schema::check_wrapper(&answer).unwrap();
        (answer, ())
    };
    let call = |id: &str| json!({"toolCallId": id, "description": "Order", "data": {"name": "Al"}, "output": output()});
    let (first, _) = answer(call("call_a"));
    let (second, _) = answer(call("call_b"));
    let context = |answer: &Value| {
        let components = answer["messages"][1]["updateComponents"]["components"]
            .as_array()
            .unwrap()
            .clone();
        components
            .into_iter()
            .find(|c| c["id"] == "submit")
            .unwrap()["action"]["event"]["context"]
            .clone()
    };
    let keys: Vec<String> = context(&second)
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    assert_eq!(keys, ["specHash", "toolCallId", "data"]);
    assert_eq!(context(&first)["toolCallId"], "call_a");
    assert_eq!(context(&second)["toolCallId"], "call_b");
    genui_core::Format::forget_projections();
    let (fresh, _) = answer(call("call_b"));
    assert_eq!(fresh, second);
    let (bare, _) =
        answer(json!({"description": "Order", "data": {"name": "Al"}, "output": output()}));
    assert!(context(&bare).get("toolCallId").is_none());
}

/// A v1.0 surface (`a2uiVersion: "1.0"`): its submit button's action, as a
/// v1.0 renderer sends it (`renderer_to_agent.json`, here with the optional
/// `userMessage`), is read like v0.9's: coerced, validated, answered; its
/// data model must name v1.0 too; a wrong spec hash is refused.
#[test]
fn v1_actions_are_read_like_v09_actions() {
    let body = json!({"output": output(), "toolCallId": "call_v1", "a2uiVersion": "1.0"});
    let outcome = GenerateJob::prepare(
        body.to_string().as_bytes(),
        Some("a2ui"),
        &Limits::default(),
    )
    .unwrap()
    .answer(None);
    let answer: Value = serde_json::from_str(&outcome.response.body).unwrap();
    a2ui_schema::V1_0.check(&answer).unwrap();
    let cached = outcome.cache_put.unwrap().value;
    let surface = &answer["messages"][0]["createSurface"];
    let button = surface["components"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "submit")
        .unwrap();
    let mut context = button["action"]["event"]["context"].clone();
    context["data"] =
        json!({"name": "Ada", "age": "36", "size": ["m"], "when": "2026-12-01T09:30:00"});
    let message = json!({"version": "v1.0", "action": {"name": button["action"]["event"]["name"],
        "userMessage": "Submit", "surfaceId": surface["surfaceId"], "sourceComponentId": "submit",
        "timestamp": "2026-11-25T04:03:44.839Z", "context": context}});
    a2ui_schema::V1_0.check_client(&message).unwrap();
    Contract::SubmitRequest.check(&message).unwrap();
    let (status, reply) = submit(&message, &cached);
    assert_eq!(status, 200, "{reply}");
    assert_eq!(reply["toolCallId"], "call_v1");
    assert_eq!(content(&reply)["age"], 36);

    let mut by_model = message.clone();
    let data = by_model["action"]["context"]
        .as_object_mut()
        .unwrap()
        .remove("data")
        .unwrap();
    let surface_id = surface["surfaceId"].as_str().unwrap();
    by_model["metadata"] =
        json!({"a2uiClientDataModel": {"version": "v1.0", "surfaces": {surface_id: data}}});
    assert_eq!(submit(&by_model, &cached).0, 200);
    by_model["metadata"]["a2uiClientDataModel"]["version"] = json!("v0.9");
    let (status, error) = submit(&by_model, &cached);
    assert_eq!(
        (status, error["payload"]["pointer"].as_str()),
        (400, Some("/metadata/a2uiClientDataModel/version")),
        "{error}"
    );

    let mut forged = message.clone();
    forged["action"]["context"]["specHash"] = json!("0".repeat(64));
    let (status, error) = submit(&forged, &cached);
    assert_eq!(
        (status, error["code"].as_str()),
        (404, Some("spec_not_found")),
        "{error}"
    );
    let mut unknown = message.clone();
    unknown["version"] = json!("v2.0");
    let (status, error) = submit(&unknown, &cached);
    assert_eq!(
        (status, error["payload"]["pointer"].as_str()),
        (400, Some("/version")),
        "{error}"
    );
}
