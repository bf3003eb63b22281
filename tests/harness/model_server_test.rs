//! The scripted model server (`model-server`) against genui-model's real
//! wire code: requests built by `genui_model::wire`, sent over HTTP,
//! replies parsed by `parse_response`, and whole generations driven through
//! `genui_model::Ladder`, for every scenario and both wire formats.
//!
//! It also proves the two sides agree on the prompt's field-line format:
//! the server's `good` plan, derived only from the prompt, is proven with no
//! fix on every fixture form.

use genui_core::{GenerateRequest, Limits};
use genui_harness::ModelServer;
use genui_model::{
    wire, Event, HttpRequest, Ladder, LadderOutcome, LadderResult, ModelConfig, Provider,
    ProviderCall, Step, WireMode,
};
use serde_json::{json, Value};
use std::path::Path;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

const KEY: &str = "sk-scripted-test-key-7";

/// Starts the scripted server for these tests.
fn start_server() -> ModelServer {
    let binary = Path::new(env!("CARGO_BIN_EXE_model-server"));
    ModelServer::start(
        binary,
        KEY,
        &["--lifetime-secs", "300", "--max-requests", "2000"],
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

/// A provider configuration pointing at the scripted server.
trait ScriptedConfig {
    fn config(&self, provider: Provider, scenario: &str) -> ModelConfig;
}

impl ScriptedConfig for ModelServer {
    fn config(&self, provider: Provider, scenario: &str) -> ModelConfig {
        let base_url = match provider {
            Provider::OpenAi => format!("{}/v1", self.base()),
            _ => self.base(),
        };
        ModelConfig {
            base_url,
            api_key: Some(KEY.into()),
            ..ModelConfig::new(provider, format!("scenario:{scenario}"))
        }
    }
}

/// Status, headers and body of an answer.
type Answer = (u16, Vec<(String, String)>, String);

/// Sends one request; `Err((true, _))` on timeout, `Err((false, _))` on
/// other failures.
fn send(request: &HttpRequest, timeout_ms: u64) -> Result<Answer, (bool, String)> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_millis(timeout_ms)))
        .build()
        .into();
    let mut builder = ureq::http::Request::builder()
        .method(request.method.as_str())
        .uri(&request.url);
    for (name, value) in &request.headers {
        builder = builder.header(name, value);
    }
    let result = if request.method == "GET" {
        agent.run(builder.body(()).map_err(|e| (false, e.to_string()))?)
    } else {
        agent.run(
            builder
                .body(request.body.clone().into_bytes())
                .map_err(|e| (false, e.to_string()))?,
        )
    };
    let mut response = result.map_err(|e| (matches!(e, ureq::Error::Timeout(_)), e.to_string()))?;
    let status = response.status().as_u16();
    let headers = response
        .headers()
        .iter()
        .map(|(k, v)| {
            (
                k.as_str().to_owned(),
                String::from_utf8_lossy(v.as_bytes()).into_owned(),
            )
        })
        .collect();
    let body = response
        .body_mut()
        .read_to_string()
        .map_err(|e| (false, e.to_string()))?;
    Ok((status, headers, body))
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// Performs the ladder's steps for real (HTTP, sleeps) until it is done.
fn drive(mut ladder: Ladder) -> LadderOutcome {
    let mut step = ladder.start();
    for _ in 0..12 {
        let event = match step {
            Step::Done(outcome) => return *outcome,
            Step::Send(request, timeout_ms) => {
                let started = Instant::now();
                match send(&request, timeout_ms) {
                    Ok((status, headers, body)) => Event::Response {
                        status,
                        headers,
                        body,
                        elapsed_ms: started.elapsed().as_millis() as u64,
                    },
                    Err((true, _)) => Event::TimedOut,
                    Err((false, message)) => Event::NetworkError(message),
                }
            }
            Step::Wait(ms) => {
                std::thread::sleep(Duration::from_millis(ms));
                Event::Waited
            }
            Step::RunAi(..) => panic!("no Workers AI binding here"),
        };
        step = ladder.next(event);
    }
    panic!("the ladder did not finish within 12 steps");
}

/// The seed-000 address form (genui-core's fixture) under another
/// description and with no data.
fn seed(description: &str) -> GenerateRequest {
    let mut args: Value = serde_json::from_str(include_str!(
        "../../crates/genui-core/tests/fixtures/generate/seed-address.json"
    ))
    .expect("fixture");
    args["description"] = json!(description);
    args.as_object_mut().map(|a| a.remove("data"));
    GenerateRequest::from_value(args).expect("a valid request")
}

fn run(server: &ModelServer, provider: Provider, scenario: &str, forced: bool) -> LadderOutcome {
    let request = seed(&format!(
        "A form that collects a user's shipping address ({provider} {scenario})."
    ));
    run_config(&server.config(provider, scenario), &request, forced)
}

fn run_config(config: &ModelConfig, request: &GenerateRequest, forced: bool) -> LadderOutcome {
    let ladder = Ladder::new(config, request, &Limits::default(), now_ms())
        .expect("a deterministic plan")
        .forced(forced);
    drive(ladder)
}

fn code(outcome: &LadderOutcome) -> &'static str {
    match &outcome.result {
        LadderResult::Model(_) => "model",
        LadderResult::Fallback { reason, .. } => reason.code().as_str(),
        LadderResult::Failed(error) => error.code().as_str(),
    }
}

/// (scenario, expected code, attempts, fixes) for both wires.
const TABLE: [(&str, &str, u32, &[&str]); 10] = [
    ("good", "model", 1, &[]),
    (
        "fixable",
        "model",
        1,
        &[
            "pointer_corrected",
            "duplicate_dropped",
            "widget_replaced",
            "required_added",
        ],
    ),
    ("invalid-json", "model_output_invalid", 2, &[]),
    ("truncated", "model_output_invalid", 2, &[]),
    ("unknown-pointers", "model_output_invalid", 2, &[]),
    (
        "invented-fields",
        "model",
        1,
        &["extra_keys_dropped", "unknown_control_dropped"],
    ),
    ("html-labels", "model", 1, &["text_sanitized"]),
    ("server-error", "model", 2, &[]),
    ("server-error-always", "model_unavailable", 2, &[]),
    ("bad-then-good", "model", 2, &[]),
];

#[test]
fn every_scenario_on_both_wires() {
    let server = start_server();
    for provider in [Provider::OpenAi, Provider::Anthropic] {
        for (scenario, expected, attempts, fixes) in TABLE {
            let outcome = run(&server, provider, scenario, false);
            let what = format!(
                "{provider} {scenario}: {:?} {:?}",
                outcome.result, outcome.issues
            );
            assert_eq!(code(&outcome), expected, "{what}");
            assert_eq!(outcome.provenance.attempts, attempts, "{what}");
            assert_eq!(outcome.provenance.fixes, fixes, "{what}");
            assert_eq!(
                outcome.provenance.generator,
                if expected == "model" {
                    "model"
                } else {
                    "fallback"
                },
                "{what}"
            );
            let answered = expected != "model_unavailable";
            assert_eq!(
                outcome.provenance.tokens_in.is_some_and(|t| t > 0),
                answered,
                "{what}"
            );
            assert!(outcome.plan().is_some(), "{what}");
        }
    }
    let requests = server.requests();
    let expected: u32 = TABLE.iter().map(|row| row.2).sum::<u32>() * 2;
    assert_eq!(requests.len(), expected as usize);
    for request in &requests {
        let headers = &request["headers"];
        match request["path"].as_str() {
            Some("/v1/chat/completions") => {
                assert_eq!(headers["authorization"], format!("Bearer {KEY}"))
            }
            Some("/v1/messages") => {
                assert_eq!(headers["x-api-key"], KEY);
                assert_eq!(headers["anthropic-version"], "2023-06-01");
            }
            other => panic!("unexpected path {other:?}"),
        }
        assert_eq!(headers["content-type"], "application/json");
    }
}

#[test]
fn retries_carry_the_issue_list() {
    let server = start_server();
    let outcome = run(&server, Provider::Anthropic, "bad-then-good", false);
    assert_eq!(code(&outcome), "model");
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    let messages = requests[1]["body"]["messages"]
        .as_array()
        .expect("messages");
    let roles: Vec<&str> = messages.iter().filter_map(|m| m["role"].as_str()).collect();
    assert_eq!(roles, ["user", "assistant", "user"]);
    let feedback = messages[2]["content"].as_str().unwrap_or_default();
    assert!(
        feedback.contains("unresolved_pointer \"/properties/zz_unknown_1\""),
        "{feedback}"
    );
}

#[test]
fn rate_limit_honours_retry_after() {
    let server = start_server();
    for provider in [Provider::OpenAi, Provider::Anthropic] {
        let outcome = run(&server, provider, "rate-limited", false);
        assert_eq!(
            (code(&outcome), outcome.provenance.attempts),
            ("model", 2),
            "{provider}"
        );
    }
    let at: Vec<u64> = server
        .requests()
        .iter()
        .filter_map(|r| r["at_ms"].as_u64())
        .collect();
    assert_eq!(at.len(), 4);
    for pair in [(at[0], at[1]), (at[2], at[3])] {
        assert!(
            pair.1 - pair.0 >= 1000,
            "Retry-After: 1 not honoured: {at:?}"
        );
    }
}

#[test]
fn json_schema_rejection_falls_back_to_json_object() {
    let server = start_server();
    let outcome = run(&server, Provider::OpenAi, "json-schema-unsupported", false);
    assert_eq!((code(&outcome), outcome.provenance.attempts), ("model", 2));
    let formats: Vec<Value> = server
        .requests()
        .iter()
        .map(|r| r["body"]["response_format"]["type"].clone())
        .collect();
    assert_eq!(formats, [json!("json_schema"), json!("json_object")]);
    let anthropic = run(
        &server,
        Provider::Anthropic,
        "json-schema-unsupported",
        false,
    );
    assert_eq!(
        (code(&anthropic), anthropic.provenance.attempts),
        ("model", 1)
    );
}

#[test]
fn hang_times_out_within_the_deadline() {
    let server = start_server();
    let config = ModelConfig {
        attempt_timeout_ms: 1500,
        deadline_ms: 3000,
        ..server.config(Provider::OpenAi, "hang")
    };
    let started = Instant::now();
    let outcome = run_config(&config, &seed("A form (hang)."), false);
    assert_eq!(code(&outcome), "model_timeout");
    assert_eq!(outcome.provenance.generator, "fallback");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    let forced = run_config(&config, &seed("A form (hang, forced)."), true);
    assert!(
        matches!(&forced.result, LadderResult::Failed(e) if e.code().as_str() == "model_timeout" && e.http_status() == 504)
    );
}

#[test]
fn forced_model_failures_are_errors_without_the_key() {
    let server = start_server();
    for provider in [Provider::OpenAi, Provider::Anthropic] {
        for (scenario, expected) in [
            ("unauthorized", "model_auth"),
            ("invalid-json", "model_output_invalid"),
            ("refusal", "model_output_invalid"),
        ] {
            let outcome = run(&server, provider, scenario, true);
            let LadderResult::Failed(error) = &outcome.result else {
                panic!("{provider} {scenario}: {:?}", outcome.result)
            };
            assert_eq!(
                error.code().as_str(),
                expected,
                "{provider} {scenario}: {error}"
            );
            let shown = format!("{error} {error:?} {} {outcome:?}", error.to_dgui_error());
            assert!(!shown.contains(KEY), "{shown}");
        }
    }
    let wrong = ModelConfig {
        api_key: Some("sk-wrong-key".into()),
        ..server.config(Provider::Anthropic, "good")
    };
    let outcome = run_config(&wrong, &seed("A form (wrong key)."), false);
    assert_eq!(code(&outcome), "model_auth");
}

#[test]
fn raw_wire_round_trip() {
    let server = start_server();
    let request = seed("A form that collects a user's shipping address (raw).");
    let ladder = Ladder::new(
        &server.config(Provider::OpenAi, "good"),
        &request,
        &Limits::default(),
        0,
    )
    .expect("plan");
    let prompt = ladder.first_prompt().clone();
    let http = http_request(&server.config(Provider::OpenAi, "good"), &prompt);
    let (status, headers, body) = send(&http, 5000).expect("an answer");
    let reply = wire(Provider::OpenAi)
        .parse_response(status, &headers, &body)
        .expect("a plan");
    assert_eq!(
        reply.plan_json["sections"][0]["fields"]
            .as_array()
            .map(Vec::len),
        Some(6)
    );
    assert_eq!(
        reply.plan_json["title"],
        "A form that collects a user's shipping address (raw)"
    );
    let http = http_request(&server.config(Provider::Anthropic, "truncated"), &prompt);
    let (status, headers, body) = send(&http, 5000).expect("an answer");
    let error = wire(Provider::Anthropic)
        .parse_response(status, &headers, &body)
        .expect_err("truncated");
    assert_eq!(error.code().as_str(), "model_output_invalid");
    let http = http_request(
        &server.config(Provider::Anthropic, "server-error-always"),
        &prompt,
    );
    let (status, headers, body) = send(&http, 5000).expect("an answer");
    let error = wire(Provider::Anthropic)
        .parse_response(status, &headers, &body)
        .expect_err("500");
    assert_eq!(
        (error.code().as_str(), error.provider_status()),
        ("model_unavailable", Some(500))
    );
    assert!(
        error.message().contains("api_error: Internal server error"),
        "{}",
        error.message()
    );
}

/// The server's good plan comes from the prompt's field lines alone; it must
/// be proven with no fix on every fixture form, on both wires.
#[test]
fn good_plans_from_the_prompt_are_proven_on_every_fixture() {
    let server = start_server();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../crates/genui-core/tests/fixtures/generate");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("fixtures")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "json"));
    files.sort();
    assert!(files.len() >= 40);
    for provider in [Provider::OpenAi, Provider::Anthropic] {
        for file in &files {
            let body: Value =
                serde_json::from_str(&std::fs::read_to_string(file).expect("read")).expect("JSON");
            let request = GenerateRequest::from_value(body).expect("a request");
            let outcome = run_config(&server.config(provider, "good"), &request, false);
            let name = file.display();
            assert_eq!(
                code(&outcome),
                "model",
                "{provider} {name}: {:?} {:?}",
                outcome.result,
                outcome.issues
            );
            // A hostile fixture's titles carry markup, which the good plan
            // copies from the prompt: the ladder must strip it, and say so.
            let hostile = file
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("hostile-"));
            let expected: &[&str] = if hostile { &["text_sanitized"] } else { &[] };
            assert_eq!(
                outcome.provenance.fixes, expected,
                "{provider} {name}: {:?}",
                outcome.provenance.fixes
            );
        }
    }
}

/// The HTTP request `config`'s provider builds for `prompt` (strict JSON schema).
fn http_request(config: &ModelConfig, prompt: &genui_model::Prompt) -> HttpRequest {
    match wire(config.provider).build(config, prompt, WireMode::JsonSchema) {
        ProviderCall::Http(http) => http,
        ProviderCall::Ai(call) => panic!("{:?} builds a binding call: {call:?}", config.provider),
    }
}
