//! The ladder driven by scripted event sequences: every scenario of the
//! scripted model server, ending exactly as specified (proven, fixed,
//! retried, waited, fallen back or failed), with its provenance.

use genui_core::Issue;
use genui_core::{GenerateRequest, Limits};
use genui_core::{Node, Plan, Widget};
use genui_model::{
    Event, HttpRequest, Ladder, LadderOutcome, LadderResult, ModelConfig, Provider, Step,
};
use serde_json::{json, Value};
use std::path::Path;

const KEY: &str = "sk-ladder-secret-0042";
/// 2026-11-22T00:00:00Z.
const NOW_MS: u64 = 1_795_305_600_000;

/// The seed-000 address form (genui-core's fixture), pre-filling only the first name.
fn seed() -> GenerateRequest {
    let mut args: Value = serde_json::from_str(SEED_ADDRESS).unwrap();
    args["data"] = json!({"firstName": "Ada"});
    GenerateRequest::from_value(args).unwrap()
}

const SEED_ADDRESS: &str =
    include_str!("../../genui-core/tests/fixtures/generate/seed-address.json");

fn config(provider: Provider) -> ModelConfig {
    ModelConfig {
        api_key: Some(KEY.into()),
        ..ModelConfig::new(provider, "m-1")
    }
}

fn ladder_for(provider: Provider, request: &GenerateRequest) -> Ladder {
    Ladder::new(&config(provider), request, &Limits::default(), NOW_MS).unwrap()
}

fn change(pointer: &str, label: Option<&str>, widget: Option<&str>) -> Value {
    json!({"pointer": pointer, "label": label, "widget": widget, "help": null, "placeholder": null})
}

fn model_plan(fields: &[&str], overrides: Vec<Value>) -> Value {
    json!({"title": "Shipping address", "steps": false, "overrides": overrides,
        "sections": [{"label": null, "layout": "vertical", "fields": fields}]})
}

fn good_plan() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/seed-address-plan.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn response(status: u16, headers: &[(&str, &str)], body: String, elapsed_ms: u64) -> Event {
    let headers = headers
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    Event::Response {
        status,
        headers,
        body,
        elapsed_ms,
    }
}

/// An OpenAI chat completion whose content is `content`.
fn openai(content: &str, finish: &str) -> Event {
    let body = json!({
        "id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "m-1",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content, "refusal": null}, "finish_reason": finish}],
        "usage": {"prompt_tokens": 300, "completion_tokens": 100, "total_tokens": 400}
    });
    response(200, &[], body.to_string(), 120)
}

fn openai_plan(plan: &Value) -> Event {
    openai(&plan.to_string(), "stop")
}

fn openai_error(status: u16, headers: &[(&str, &str)], kind: &str, message: &str) -> Event {
    let body = json!({"error": {"message": message, "type": kind, "param": null, "code": null}});
    response(status, headers, body.to_string(), 40)
}

fn anthropic_plan(plan: &Value, stop: &str) -> Event {
    let body = json!({
        "id": "msg_1", "type": "message", "role": "assistant", "model": "m-1",
        "content": [{"type": "tool_use", "id": "toolu_1", "name": "emit_ui_plan", "input": plan}],
        "stop_reason": stop, "stop_sequence": null, "usage": {"input_tokens": 500, "output_tokens": 150}
    });
    response(200, &[], body.to_string(), 200)
}

fn sent(step: Step) -> (HttpRequest, u64) {
    match step {
        Step::Send(request, timeout) => (request, timeout),
        other => panic!("expected Send, got {other:?}"),
    }
}

fn done(step: Step) -> LadderOutcome {
    match step {
        Step::Done(outcome) => *outcome,
        other => panic!("expected Done, got {other:?}"),
    }
}

fn model_plan_of(outcome: &LadderOutcome) -> &Plan {
    match &outcome.result {
        LadderResult::Model(plan) => plan,
        other => panic!("expected a model plan, got {other:?}"),
    }
}

fn fallback_code(outcome: &LadderOutcome) -> &'static str {
    match &outcome.result {
        LadderResult::Fallback { reason, .. } => reason.code().as_str(),
        other => panic!("expected a fallback, got {other:?}"),
    }
}

fn proven(plan: &Plan, request: &GenerateRequest) {
    let issues = Plan::check(plan, &request.output, &Limits::default());
    assert!(issues.is_empty(), "{issues:?}");
}

fn pointers(plan: &Plan) -> Vec<String> {
    plan.root
        .controls()
        .iter()
        .map(|c| c.pointer.clone())
        .collect()
}

/// Runs a scripted sequence: the first event answers `start()`, each next
/// one the step before; returns every step taken.
fn script(ladder: &mut Ladder, events: Vec<Event>) -> Vec<Step> {
    let mut steps = vec![ladder.start()];
    for event in events {
        steps.push(ladder.next(event));
    }
    steps
}

#[test]
fn good_plan_is_proven_first_time() {
    let request = seed();
    let mut ladder = ladder_for(Provider::OpenAi, &request);
    let (first, timeout) = sent(ladder.start());
    assert_eq!(timeout, 15_000);
    assert!(first.body.contains("\"strict\":true"));
    let outcome = done(ladder.next(openai_plan(&good_plan())));
    let plan = model_plan_of(&outcome);
    proven(plan, &request);
    let Node::Vertical { elements } = &plan.root else {
        panic!()
    };
    assert!(
        matches!(&elements[0], Node::Group { label, elements, .. } if label == "Recipient" && matches!(elements[0], Node::Horizontal { .. }))
    );
    let controls = plan.root.controls();
    assert_eq!(
        (
            controls[0].label.as_str(),
            controls[0].placeholder.as_deref()
        ),
        ("First name", Some("Ada"))
    );
    assert_eq!(
        (controls[1].label.as_str(), controls[1].widget),
        ("Last Name", Widget::Text),
        "defaults"
    );
    assert_eq!(
        (controls[5].widget, controls[5].help.as_deref()),
        (Widget::Select, Some("Where we ship to"))
    );
    let p = &outcome.provenance;
    assert_eq!(
        (p.generator, p.provider, p.model.as_str(), p.attempts),
        ("model", "openai", "m-1", 1)
    );
    assert!(p.fixes.is_empty(), "{:?}", p.fixes);
    assert_eq!(
        (p.model_latency_ms, p.tokens_in, p.tokens_out, p.error),
        (120, Some(300), Some(100), None)
    );
    assert!(outcome.cacheable());
    let meta = serde_json::to_value(p).unwrap();
    assert_eq!(meta["promptVersion"], genui_model::PROMPT_VERSION);
    assert_eq!(meta["modelLatencyMs"], 120);
    // The ladder is finished: further events change nothing.
    assert_eq!(done(ladder.next(Event::Waited)), outcome);
}

#[test]
fn fixable_mistakes_are_fixed_without_a_retry() {
    let request = seed();
    let mut ladder = ladder_for(Provider::OpenAi, &request);
    let fields = [
        "firstName",
        "/lastName",
        "#/properties/street",
        "/properties/city",
        "/properties/city",
        "/properties/countyr",
    ];
    let overrides = vec![
        change("/properties/city", None, Some("checkbox")),
        change("/properties/countyr", None, Some("dropdown")),
    ];
    let plan = model_plan(&fields, overrides);
    let steps = script(&mut ladder, vec![openai_plan(&plan)]);
    let outcome = done(steps.into_iter().last().unwrap());
    let fixed = model_plan_of(&outcome);
    proven(fixed, &request);
    assert_eq!(
        pointers(fixed),
        [
            "/properties/firstName",
            "/properties/lastName",
            "/properties/street",
            "/properties/city",
            "/properties/country",
            "/properties/postalCode",
        ]
    );
    let fixes = &outcome.provenance.fixes;
    assert_eq!(
        fixes,
        &[
            "pointer_corrected",
            "widget_renamed",
            "duplicate_dropped",
            "widget_replaced",
            "required_added"
        ]
    );
    assert_eq!(outcome.provenance.attempts, 1);
    let controls = fixed.root.controls();
    assert_eq!(
        (controls[3].widget, controls[4].widget),
        (Widget::Text, Widget::Select)
    );
    assert_eq!(controls[5].label, "Postal Code");
}

#[test]
fn invalid_json_twice_falls_back_after_one_retry() {
    let request = seed();
    let mut ladder = ladder_for(Provider::OpenAi, &request);
    ladder.start();
    let (retry, _) = sent(ladder.next(openai("{\"title\": \"x\", \"sections\": [", "stop")));
    let body: Value = serde_json::from_str(&retry.body).unwrap();
    let messages = body["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 4);
    assert_eq!(messages[2]["role"], "assistant");
    assert!(messages[2]["content"]
        .as_str()
        .unwrap()
        .starts_with("{\"title\": \"x\""));
    assert!(
        messages[3]["content"]
            .as_str()
            .unwrap()
            .contains("output_invalid"),
        "{}",
        messages[3]["content"]
    );
    let outcome = done(ladder.next(openai("not json at all", "stop")));
    assert_eq!(fallback_code(&outcome), "model_output_invalid");
    assert_eq!(
        (outcome.provenance.generator, outcome.provenance.attempts),
        ("fallback", 2)
    );
    assert_eq!(outcome.provenance.error, Some("model_output_invalid"));
    assert_eq!(outcome.plan(), Some(ladder.deterministic_plan()));
    assert!(!outcome.cacheable());
}

#[test]
fn truncated_then_good() {
    let request = seed();
    let mut ladder = ladder_for(Provider::OpenAi, &request);
    let text = good_plan().to_string();
    let steps = script(
        &mut ladder,
        vec![openai(&text[..80], "length"), openai_plan(&good_plan())],
    );
    assert!(matches!(steps[1], Step::Send(..)));
    let outcome = done(steps.into_iter().last().unwrap());
    proven(model_plan_of(&outcome), &request);
    assert_eq!(outcome.provenance.attempts, 2);
    assert_eq!(
        (outcome.provenance.tokens_in, outcome.provenance.tokens_out),
        (Some(600), Some(200))
    );
}

#[test]
fn anthropic_truncated_twice_falls_back() {
    let request = seed();
    let mut ladder = ladder_for(Provider::Anthropic, &request);
    let (first, _) = sent(ladder.start());
    assert_eq!(first.header("x-api-key"), Some(KEY));
    let steps = vec![
        ladder.next(anthropic_plan(&json!({}), "max_tokens")),
        ladder.next(anthropic_plan(&json!({}), "max_tokens")),
    ];
    assert!(matches!(steps[0], Step::Send(..)));
    let outcome = done(steps.into_iter().last().unwrap());
    assert_eq!(fallback_code(&outcome), "model_output_invalid");
    assert_eq!(outcome.provenance.provider, "anthropic");
}

#[test]
fn unknown_pointers_are_sent_back_then_fall_back() {
    let request = seed();
    let mut ladder = ladder_for(Provider::Anthropic, &request);
    let unknown: Vec<String> = (1..=6)
        .map(|i| format!("/properties/zzz_unknown_{i}"))
        .collect();
    let invented = model_plan(
        &unknown.iter().map(String::as_str).collect::<Vec<_>>(),
        vec![],
    );
    ladder.start();
    let (retry, _) = sent(ladder.next(anthropic_plan(&invented, "tool_use")));
    let body: Value = serde_json::from_str(&retry.body).unwrap();
    let feedback = body["messages"][2]["content"].as_str().unwrap();
    assert!(
        feedback.contains("unresolved_pointer \"/properties/zzz_unknown_1\""),
        "{feedback}"
    );
    assert!(
        feedback.contains("missing_required \"/properties/firstName\""),
        "{feedback}"
    );
    let outcome = done(ladder.next(anthropic_plan(&invented, "tool_use")));
    assert_eq!(fallback_code(&outcome), "model_output_invalid");
    assert!(outcome
        .issues
        .iter()
        .any(|i| i.code == "unresolved_pointer"));
    assert_eq!(
        (outcome.provenance.tokens_in, outcome.provenance.tokens_out),
        (Some(1000), Some(300))
    );
}

#[test]
fn bad_then_good_uses_the_retry() {
    let request = seed();
    let mut ladder = ladder_for(Provider::OpenAi, &request);
    let bad = model_plan(&["/properties/zzz"], vec![]);
    let steps = script(
        &mut ladder,
        vec![openai_plan(&bad), openai_plan(&good_plan())],
    );
    let outcome = done(steps.into_iter().last().unwrap());
    proven(model_plan_of(&outcome), &request);
    assert_eq!(
        (outcome.provenance.generator, outcome.provenance.attempts),
        ("model", 2)
    );
}

#[test]
fn invented_fields_and_enum_values_never_reach_the_plan() {
    let request = seed();
    let mut ladder = ladder_for(Provider::OpenAi, &request);
    let mut plan = good_plan();
    plan["required"] = json!(["firstName", "middleName"]);
    plan["jsonSchema"] =
        json!({"type": "object", "properties": {"middleName": {"type": "string"}}});
    let country = &mut plan["overrides"][1];
    country["enum"] = json!(["GB", "US", "DE", "AT", "FR"]);
    country["type"] = json!("integer");
    plan["sections"][0]["fields"]
        .as_array_mut()
        .unwrap()
        .push(json!("/properties/middleName"));
    let outcome = done(script(&mut ladder, vec![openai_plan(&plan)]).pop().unwrap());
    let fixed = model_plan_of(&outcome);
    proven(fixed, &request);
    assert_eq!(
        outcome.provenance.fixes,
        ["extra_keys_dropped", "unknown_control_dropped"]
    );
    assert!(!pointers(fixed).iter().any(|p| p.contains("middleName")));
    let text = serde_json::to_string(fixed).unwrap();
    assert!(
        !text.contains("FR") && !text.contains("jsonSchema"),
        "{text}"
    );
}

#[test]
fn html_and_script_urls_become_plain_text() {
    let request = seed();
    let mut ladder = ladder_for(Provider::OpenAi, &request);
    let mut plan = good_plan();
    plan["title"] = json!("<script>alert(1)</script>Shipping <i>address</i>");
    plan["sections"][0]["label"] = json!("<h1 onclick=\"x()\">Recipient</h1>");
    let first = &mut plan["overrides"][0];
    first["label"] = json!("<b>First</b> name");
    first["help"] = json!("See [the guide](javascript:alert(document.cookie)) or <a href=\"data:text/html,x\">this</a>");
    first["placeholder"] = json!("javascript:alert(1)");
    let street = change(
        "/properties/street",
        Some("[Street](https://example.com/street)"),
        None,
    );
    plan["overrides"].as_array_mut().unwrap().push(street);
    let outcome = done(script(&mut ladder, vec![openai_plan(&plan)]).pop().unwrap());
    let fixed = model_plan_of(&outcome);
    proven(fixed, &request);
    assert_eq!(outcome.provenance.fixes, ["text_sanitized"]);
    assert_eq!(fixed.title.as_deref(), Some("Shipping address"));
    let controls = fixed.root.controls();
    assert_eq!(controls[0].label, "First name");
    assert_eq!(controls[0].help.as_deref(), Some("See the guide or this"));
    assert_eq!(controls[0].placeholder, None);
    assert_eq!(controls[2].label, "Street");
    let Node::Vertical { elements } = &fixed.root else {
        panic!()
    };
    assert!(matches!(&elements[0], Node::Group { label, .. } if label == "Recipient"));
    for c in controls {
        for text in [
            Some(c.label.as_str()),
            c.help.as_deref(),
            c.placeholder.as_deref(),
        ]
        .into_iter()
        .flatten()
        {
            assert_eq!(Issue::markup_in(text), None, "{text}");
        }
    }
}

#[test]
fn rate_limit_waits_for_retry_after_then_succeeds() {
    let request = seed();
    let mut ladder = ladder_for(Provider::OpenAi, &request);
    let steps = script(
        &mut ladder,
        vec![
            openai_error(
                429,
                &[("retry-after", "1")],
                "requests",
                "Rate limit reached",
            ),
            Event::Waited,
            openai_plan(&good_plan()),
        ],
    );
    assert_eq!(steps[1], Step::Wait(1000));
    let (_, timeout) = sent(steps[2].clone());
    assert_eq!(timeout, 15_000);
    let outcome = done(steps[3].clone());
    proven(model_plan_of(&outcome), &request);
    assert_eq!(outcome.provenance.attempts, 2);
    assert_eq!(
        outcome.provenance.model_latency_ms, 160,
        "waits are not model latency"
    );
}

#[test]
fn rate_limit_http_date_is_resolved_against_now() {
    let request = seed();
    let mut ladder = ladder_for(Provider::Anthropic, &request);
    ladder.start();
    // NOW_MS + 40 ms elapsed; the date is 3 s after NOW_MS.
    let body =
        json!({"type": "error", "error": {"type": "rate_limit_error", "message": "slow down"}})
            .to_string();
    let step = ladder.next(response(
        429,
        &[("Retry-After", "Sun, 22 Nov 2026 00:00:03 GMT")],
        body,
        40,
    ));
    assert_eq!(step, Step::Wait(2960));
}

#[test]
fn rate_limit_past_the_deadline_falls_back() {
    let request = seed();
    let mut ladder = ladder_for(Provider::OpenAi, &request);
    let steps = script(
        &mut ladder,
        vec![openai_error(
            429,
            &[("retry-after", "60")],
            "requests",
            "Rate limit reached",
        )],
    );
    let outcome = done(steps[1].clone());
    assert_eq!(fallback_code(&outcome), "model_rate_limited");
    let LadderResult::Fallback { reason, .. } = &outcome.result else {
        panic!()
    };
    assert!(
        reason.message().contains("past the deadline"),
        "{}",
        reason.message()
    );
}

#[test]
fn server_error_then_success() {
    let request = seed();
    let mut ladder = ladder_for(Provider::OpenAi, &request);
    let steps = script(
        &mut ladder,
        vec![
            openai_error(500, &[], "server_error", "The server had an error"),
            Event::Waited,
            openai_plan(&good_plan()),
        ],
    );
    assert_eq!(steps[1], Step::Wait(500));
    let outcome = done(steps[3].clone());
    proven(model_plan_of(&outcome), &request);
    assert_eq!(outcome.provenance.attempts, 2);
}

#[test]
fn server_error_twice_falls_back() {
    let request = seed();
    let mut ladder = ladder_for(Provider::OpenAi, &request);
    let steps = script(
        &mut ladder,
        vec![
            openai_error(500, &[], "server_error", "boom"),
            Event::Waited,
            openai_error(503, &[], "server_error", "boom again"),
        ],
    );
    let outcome = done(steps[3].clone());
    assert_eq!(fallback_code(&outcome), "model_unavailable");
    assert_eq!(outcome.provenance.attempts, 2);
}

#[test]
fn network_error_is_retried_once() {
    let request = seed();
    let mut ladder = ladder_for(Provider::OpenAi, &request);
    let steps = script(
        &mut ladder,
        vec![
            Event::NetworkError("connection refused".into()),
            Event::Waited,
            openai_plan(&good_plan()),
        ],
    );
    assert_eq!(steps[1], Step::Wait(500));
    proven(model_plan_of(&done(steps[3].clone())), &request);
}

#[test]
fn timeout_falls_back_and_forced_timeout_fails() {
    let request = seed();
    let mut ladder = ladder_for(Provider::OpenAi, &request);
    let outcome = done(script(&mut ladder, vec![Event::TimedOut]).pop().unwrap());
    assert_eq!(fallback_code(&outcome), "model_timeout");
    assert_eq!(outcome.provenance.model_latency_ms, 15_000);
    let mut forced = ladder_for(Provider::OpenAi, &request).forced(true);
    let outcome = done(script(&mut forced, vec![Event::TimedOut]).pop().unwrap());
    let LadderResult::Failed(error) = &outcome.result else {
        panic!("{outcome:?}")
    };
    assert_eq!(
        (error.code().as_str(), error.http_status()),
        ("model_timeout", 504)
    );
    assert_eq!(error.to_dgui_error()["type"], "dgui_error");
    assert_eq!(outcome.plan(), None);
    assert_eq!(outcome.provenance.generator, "model");
}

#[test]
fn deadline_cuts_attempts_and_stops_retries() {
    let request = seed();
    let config = ModelConfig {
        attempt_timeout_ms: 4000,
        deadline_ms: 6000,
        ..config(Provider::OpenAi)
    };
    let mut ladder = Ladder::new(&config, &request, &Limits::default(), NOW_MS).unwrap();
    assert_eq!(sent(ladder.start()).1, 4000);
    // A bad plan after 3.5 s: the retry gets the 2.5 s that are left.
    let bad = model_plan(&["/properties/zzz"], vec![]);
    let late = |plan: &Value, ms: u64| match openai_plan(plan) {
        Event::Response {
            status,
            headers,
            body,
            ..
        } => Event::Response {
            status,
            headers,
            body,
            elapsed_ms: ms,
        },
        other => other,
    };
    assert_eq!(sent(ladder.next(late(&bad, 3500))).1, 2500);
    // A 500 after another 2 s: 0.5 s left is not enough for backoff and an attempt.
    let error =
        json!({"error": {"message": "x", "type": "server_error", "param": null, "code": null}});
    let outcome = done(ladder.next(response(500, &[], error.to_string(), 2000)));
    assert_eq!(fallback_code(&outcome), "model_unavailable");

    let mut ladder = Ladder::new(&config, &request, &Limits::default(), NOW_MS).unwrap();
    ladder.start();
    let outcome = done(ladder.next(late(&bad, 5500)));
    assert_eq!(
        fallback_code(&outcome),
        "model_output_invalid",
        "no time left for the retry"
    );
}

#[test]
fn json_schema_rejection_retries_with_json_object() {
    let request = seed();
    let mut ladder = ladder_for(Provider::OpenAi, &request);
    ladder.start();
    let rejection = openai_error(400, &[], "invalid_request_error", "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.");
    let (second, _) = sent(ladder.next(rejection));
    let body: Value = serde_json::from_str(&second.body).unwrap();
    assert_eq!(body["response_format"], json!({"type": "json_object"}));
    let outcome = done(ladder.next(openai(&format!("```json\n{}\n```", good_plan()), "stop")));
    proven(model_plan_of(&outcome), &request);
    assert_eq!(outcome.provenance.attempts, 2);
}

#[test]
fn auth_errors_are_not_retried_and_hide_the_key() {
    let request = seed();
    let mut ladder = ladder_for(Provider::OpenAi, &request).forced(true);
    ladder.start();
    let message = format!("Incorrect API key provided: {KEY}.");
    let outcome = done(ladder.next(openai_error(401, &[], "invalid_request_error", &message)));
    let LadderResult::Failed(error) = &outcome.result else {
        panic!()
    };
    assert_eq!(error.code().as_str(), "model_auth");
    for text in [
        error.to_string(),
        format!("{outcome:?}"),
        error.to_dgui_error().to_string(),
    ] {
        assert!(!text.contains(KEY), "{text}");
    }
    assert!(!format!("{ladder:?}").contains(KEY));
}

#[test]
fn workers_ai_goes_through_the_binding() {
    let request = seed();
    let config = ModelConfig::new(
        Provider::WorkersAi,
        "@cf/meta/llama-3.3-70b-instruct-fp8-fast",
    );
    let mut ladder = Ladder::new(&config, &request, &Limits::default(), NOW_MS).unwrap();
    let Step::RunAi(call, timeout) = ladder.start() else {
        panic!("expected a binding call")
    };
    assert_eq!(timeout, 15_000);
    let inputs: Value = serde_json::from_str(&call.inputs_as_json_string()).unwrap();
    assert_eq!(inputs["response_format"]["type"], "json_schema");
    let capacity = ladder.next(Event::NetworkError(
        "AiError: 3040: Capacity temporarily exceeded".into(),
    ));
    assert_eq!(capacity, Step::Wait(1000));
    assert!(matches!(ladder.next(Event::Waited), Step::RunAi(..)));
    let result = json!({"response": good_plan().to_string(), "usage": {"prompt_tokens": 700, "completion_tokens": 90}});
    let outcome = done(ladder.next(response(200, &[], result.to_string(), 900)));
    proven(model_plan_of(&outcome), &request);
    assert_eq!(outcome.provenance.provider, "workers-ai");
    assert_eq!(outcome.provenance.tokens_in, Some(700));
}

#[test]
fn misuse_ends_instead_of_looping() {
    let request = seed();
    let mut ladder = ladder_for(Provider::OpenAi, &request);
    ladder.start();
    let outcome = done(ladder.next(Event::Waited));
    assert_eq!(fallback_code(&outcome), "model_unavailable");
    let mut twice = ladder_for(Provider::OpenAi, &request);
    twice.start();
    assert!(matches!(twice.start(), Step::Done(_)));
}

#[test]
fn wizard_plans_become_steps() {
    let request = seed();
    let mut ladder = ladder_for(Provider::OpenAi, &request);
    let mut plan = good_plan();
    plan["steps"] = json!(true);
    let outcome = done(script(&mut ladder, vec![openai_plan(&plan)]).pop().unwrap());
    let fixed = model_plan_of(&outcome);
    let Node::Vertical { elements } = &fixed.root else {
        panic!()
    };
    let Node::Steps { steps } = &elements[0] else {
        panic!("{elements:?}")
    };
    assert_eq!(
        steps.iter().map(|s| s.label.as_str()).collect::<Vec<_>>(),
        ["Recipient", "Address"]
    );
    proven(fixed, &request);
}

/// A good model (one that writes the deterministic plan as a model plan) is
/// proven on every fixture form, with nothing to fix.
#[test]
fn every_fixture_form_round_trips_without_fixes() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../genui-core/tests/fixtures/generate");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "json"));
    files.sort();
    assert!(files.len() >= 40, "{}", files.len());
    for file in files {
        let body: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let request = GenerateRequest::from_value(body).unwrap();
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        for with_overrides in [false, true] {
            let mut ladder = ladder_for(Provider::OpenAi, &request);
            let good = genui_model::model_plan(ladder.deterministic_plan(), with_overrides);
            ladder.start();
            let outcome = done(ladder.next(openai_plan(&good)));
            let plan = match &outcome.result {
                LadderResult::Model(plan) => plan,
                other => panic!("{name}: {other:?} {:?}", outcome.issues),
            };
            assert!(
                outcome.provenance.fixes.is_empty(),
                "{name}: {:?}",
                outcome.provenance.fixes
            );
            let det = ladder.deterministic_plan().root.controls();
            assert_eq!(
                plan.root.controls(),
                det,
                "{name}: the same controls as the deterministic plan"
            );
            proven(plan, &request);
        }
    }
}

/// Every value of a good plan replaced by each of a set of wrong values,
/// and every prefix of a good response body: the ladder always answers with
/// a step (a retry or an outcome), never a panic.
#[test]
fn mutated_answers_never_panic() {
    let request = seed();
    let good = good_plan();
    let mut pointers = Vec::new();
    genui_core::Pointer::walk(&good, "", |_, at| {
        pointers.push(at.to_owned());
        Ok::<(), ()>(())
    })
    .unwrap();
    let long = "y".repeat(5000);
    let wrong = [
        json!(null),
        json!(0),
        json!(""),
        json!("x"),
        json!([]),
        json!({}),
        json!("<b>"),
        json!("#/properties/"),
        json!(long),
    ];
    let mut runs = 0;
    for at in &pointers {
        for value in &wrong {
            let mut plan = good.clone();
            match plan.pointer_mut(at) {
                Some(slot) => *slot = value.clone(),
                None => continue,
            }
            let mut ladder = ladder_for(Provider::OpenAi, &request);
            ladder.start();
            match ladder.next(openai_plan(&plan)) {
                Step::Done(outcome) => {
                    if let Some(plan) = outcome.plan() {
                        proven(plan, &request);
                    }
                }
                Step::Send(..) => {}
                other => panic!("{at} = {value}: {other:?}"),
            }
            runs += 1;
        }
    }
    let body = match openai_plan(&good) {
        Event::Response { body, .. } => body,
        _ => unreachable!(),
    };
    for end in (0..body.len()).step_by(7) {
        let mut ladder = ladder_for(Provider::Anthropic, &request);
        ladder.start();
        let step = ladder.next(response(200, &[], body[..end].to_owned(), 1));
        assert!(
            matches!(step, Step::Send(..) | Step::Done(_)),
            "prefix {end}"
        );
        runs += 1;
    }
    assert!(runs > 300, "{runs}");
}

/// A model that leaves out a field only a condition requires gets it added,
/// and the rules come from the schema whatever the model wrote; mobile
/// undoes the model's rows; a locale reaches the prompt.
#[test]
fn model_plans_get_conditional_fields_rules_and_the_device_layout() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../genui-core/tests/fixtures/generate/if-then-else-country.json");
    let mut body: Value = serde_json::from_str(&std::fs::read_to_string(fixture).unwrap()).unwrap();
    body["device"] = json!("mobile");
    body["locale"] = json!("de-DE");
    let request = GenerateRequest::from_value(body).unwrap();
    let mut ladder = ladder_for(Provider::OpenAi, &request);
    assert!(ladder.first_prompt().system.contains("de-DE"));
    let plan = json!({"title": "Versand", "steps": false, "overrides": [], "sections": [
        {"label": "Empfänger", "layout": "horizontal", "fields": ["/properties/recipient", "/properties/country"]},
        {"label": null, "layout": "vertical", "fields": ["/properties/state", "/properties/zipCode", "/properties/postcode"]}]});
    ladder.start();
    let outcome = done(ladder.next(openai_plan(&plan)));
    let plan = model_plan_of(&outcome);
    assert!(
        outcome.provenance.fixes.contains(&"required_added"),
        "{:?}",
        outcome.provenance.fixes
    );
    let controls = plan.root.controls();
    let tax = controls
        .iter()
        .find(|c| c.pointer == "/properties/taxId")
        .expect("the tax ID was added");
    assert_eq!(
        tax.rule.as_ref().map(|r| r.schema.clone()),
        Some(json!({"const": "DE"}))
    );
    let state = controls
        .iter()
        .find(|c| c.pointer == "/properties/state")
        .unwrap();
    assert_eq!(
        state.rule.as_ref().map(|r| r.pointer.as_str()),
        Some("/properties/country")
    );
    fn has_rows(node: &Node) -> bool {
        match node {
            Node::Horizontal { .. } => true,
            Node::Vertical { elements } | Node::Group { elements, .. } => {
                elements.iter().any(has_rows)
            }
            Node::Steps { steps } => steps.iter().flat_map(|s| &s.elements).any(has_rows),
            Node::Control(_) | Node::Table(_) => false,
        }
    }
    assert!(!has_rows(&plan.root), "mobile: one column");
    proven(plan, &request);
}

/// An OpenAI chat completion with this `message`.
fn openai_message(message: Value, finish: &str) -> Event {
    let body = json!({"id": "c", "object": "chat.completion", "created": 1, "model": "m-1",
        "choices": [{"index": 0, "message": message, "finish_reason": finish}]});
    response(200, &[], body.to_string(), 80)
}

#[test]
fn plans_in_tool_call_arguments_and_text_parts_are_accepted() {
    let request = seed();
    let plan = good_plan().to_string();
    let tool_call = json!({"role": "assistant", "content": null,
        "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "emit_ui_plan", "arguments": plan}}]});
    let parts = json!({"role": "assistant", "content": [{"type": "text", "text": &plan[..10]}, {"type": "text", "text": &plan[10..]}]});
    for message in [tool_call, parts] {
        let mut ladder = ladder_for(Provider::OpenAi, &request);
        sent(ladder.start());
        let outcome = done(ladder.next(openai_message(message, "stop")));
        proven(model_plan_of(&outcome), &request);
        assert_eq!(outcome.provenance.attempts, 1);
    }
}

#[test]
fn a_refusal_falls_back_with_its_own_reason() {
    let request = seed();
    let mut ladder = ladder_for(Provider::OpenAi, &request);
    let refusal = || {
        openai_message(
            json!({"role": "assistant", "content": null, "refusal": "I can't help with that."}),
            "stop",
        )
    };
    let steps = script(&mut ladder, vec![refusal(), refusal()]);
    let outcome = done(steps.last().unwrap().clone());
    assert_eq!(fallback_code(&outcome), "model_output_invalid");
    assert_eq!(outcome.provenance.reason, Some("refusal"));
    let meta = serde_json::to_value(&outcome.provenance).unwrap();
    assert_eq!(meta["reason"], "refusal");
    // Other invalid output has no reason.
    let mut ladder = ladder_for(Provider::OpenAi, &request);
    let steps = script(
        &mut ladder,
        vec![openai("nope", "stop"), openai("nope", "stop")],
    );
    assert_eq!(done(steps.last().unwrap().clone()).provenance.reason, None);
}
