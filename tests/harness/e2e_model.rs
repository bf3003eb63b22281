//! The model path end to end: the worker under `wrangler dev` (workerd, local
//! KV) configured against the scripted model server on 127.0.0.1, every
//! scenario ending as specified (model, fixed, retried, fallback or error),
//! nothing unproven in KV, and the API key in no answer and no log.

use genui_core::Contract;
use genui_core::Limits;
use genui_core::{Plan, UiSpec};
use genui_harness::{ModelServer, Options, WranglerDev};
use serde_json::{json, Value};
use std::path::Path;
use std::time::{Duration, Instant};

const API_KEY: &str = "sk-test-e2e-0123456789abcdef";

fn worker(provider: &str, server: &ModelServer) -> WranglerDev {
    let base = match provider {
        "anthropic" => server.base(),
        _ => format!("{}/v1", server.base()),
    };
    let opts = Options::default()
        .var("MODEL_PROVIDER", provider)
        .var("MODEL_NAME", "ui-model-1")
        .var("MODEL_BASE_URL", base)
        .var("MODEL_API_KEY", API_KEY)
        .var("MODEL_TIMEOUT_MS", "1500")
        .var("MODEL_DEADLINE_MS", "6000")
        .var("WEBHOOK_SECRET", "e2e-model-webhook-secret")
        .var("WEBHOOK_ALLOW_HTTP_CALLBACKS", "true");
    WranglerDev::start(opts).unwrap_or_else(|e| panic!("{e}"))
}

fn output() -> Value {
    json!({"type": "object", "required": ["firstName", "lastName", "country"], "properties": {
        "firstName": {"type": "string", "title": "First Name"},
        "lastName": {"type": "string", "title": "Last Name"},
        "birthday": {"type": "string", "format": "date"},
        "country": {"type": "string", "enum": ["GB", "US", "DE", "AT"]},
        "newsletter": {"type": "boolean"}}})
}

fn request(scenario: &str, run: &str, extra: Value) -> Value {
    let mut body = json!({"description": format!("A sign-up form. [scenario:{scenario}] run {run}"), "data": {"firstName": "Ada"}, "output": output()});
    if let (Value::Object(b), Value::Object(e)) = (&mut body, extra) {
        b.extend(e);
    }
    body
}

/// What a scenario must end as.
struct Expect {
    status: u16,
    generator: &'static str,
    attempts: Option<u64>,
    error: Option<&'static str>,
}

fn check(
    dev: &WranglerDev,
    scenario: &str,
    run: &str,
    extra: Value,
    expect: Expect,
) -> Result<Value, String> {
    let reply = dev.post_json("/v1/generate", &request(scenario, run, extra));
    let body = reply.try_json()?;
    if reply.body.contains(API_KEY) {
        return Err(format!("{scenario}: the API key appears in the answer"));
    }
    if reply.status != expect.status {
        return Err(format!(
            "{scenario}: status {} (want {}): {}",
            reply.status,
            expect.status,
            reply.body_excerpt()
        ));
    }
    if expect.status != 200 {
        Contract::DguiError
            .check(&body)
            .map_err(|e| e.to_string())?;
        // A model failure's payload is in the core's key style (camelCase).
        let in_core_style = body["payload"].get("providerStatus").is_some()
            && body["payload"].get("provider_status").is_none();
        return match expect.error {
            Some(code) if body["code"] == code && in_core_style => Ok(body),
            _ => Err(format!("{scenario}: error {body}")),
        };
    }
    Contract::JsonFormsResponse
        .check(&body)
        .map_err(|e| e.to_string())?;
    let meta = &body["meta"];
    let attempts_ok = expect.attempts.is_none_or(|n| meta["attempts"] == n);
    let error_ok = expect.error.is_none_or(|code| meta["error"] == code);
    if meta["generator"] != expect.generator
        || !attempts_ok
        || !error_ok
        || genui_harness::without_option_labels(&body["jsonSchema"]) != output()
    {
        return Err(format!("{scenario}: meta {meta}"));
    }
    Ok(body)
}

/// A hosted form is designed as `/v1/generate` designs it: by the model
/// when one is configured (the link names the model's spec).
fn hosted_form_uses_the_model(dev: &WranglerDev, run: &str) -> Result<Value, String> {
    let body = request(
        "good",
        &format!("{run}-hosted"),
        json!({"callbackUrl": "http://127.0.0.1:9/answers"}),
    );
    let generated = dev.post_json("/v1/generate", &body).try_json()?;
    let link = dev.post_json("/v1/forms", &body);
    let made = link.try_json()?;
    let meta = &generated["meta"];
    if link.status != 201 || meta["generator"] != "model" || made["specHash"] != meta["specHash"] {
        return Err(format!("hosted form: {} {made} for {meta}", link.status));
    }
    Ok(made)
}

fn ok(generator: &'static str, attempts: Option<u64>, error: Option<&'static str>) -> Expect {
    Expect {
        status: 200,
        generator,
        attempts,
        error,
    }
}

fn labels_are_plain(body: &Value) -> bool {
    let text = body["uiSchema"].to_string().to_lowercase();
    !text.contains('<') && !text.contains("javascript:") && !text.contains("](")
}

/// Every KV entry is a spec whose plan passes the checker against its schema.
fn kv_holds_only_proven_specs(dev: &WranglerDev) -> Result<usize, String> {
    let mut models = 0;
    for key in dev.try_kv_list()? {
        let text = dev.try_kv_get(&key)?.ok_or(format!("{key} vanished"))?;
        let spec: UiSpec = serde_json::from_str(&text).map_err(|e| format!("{key}: {e}"))?;
        let issues = Plan::check(&spec.plan, &spec.schema, &Limits::default());
        if !issues.is_empty() {
            return Err(format!("unproven spec in KV under {key}: {issues:?}"));
        }
        if text.contains(API_KEY) {
            return Err(format!("the API key is in KV under {key}"));
        }
        models += usize::from(spec.generator.generator == "model");
    }
    Ok(models)
}

fn wait_for_kv(dev: &WranglerDev, at_least: usize) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline && dev.try_kv_list().map(|k| k.len()).unwrap_or(0) < at_least {
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
#[ignore = "needs wrangler dev; run by scripts/test.sh with --ignored"]
fn model_path_end_to_end() {
    let server = ModelServer::start(
        Path::new(env!("CARGO_BIN_EXE_model-server")),
        API_KEY,
        &["--lifetime-secs", "600"],
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let run = format!("{}", std::process::id());
    let mut failures: Vec<String> = Vec::new();
    fn record_into(failures: &mut Vec<String>, r: Result<Value, String>) {
        if let Err(e) = r {
            failures.push(e);
        }
    }
    macro_rules! record {
        ($r:expr) => {
            record_into(&mut failures, $r)
        };
    }
    {
        let dev = worker("openai", &server);
        let none = json!({});
        record!(check(
            &dev,
            "good",
            &run,
            none.clone(),
            ok("model", Some(1), None)
        ));
        record!(
            check(&dev, "fixable", &run, none.clone(), ok("model", None, None)).and_then(|b| {
                if b["meta"]["fixes"].as_array().is_some_and(|f| !f.is_empty()) {
                    Ok(b)
                } else {
                    Err(format!("fixable: no fixes in {}", b["meta"]))
                }
            })
        );
        record!(check(
            &dev,
            "invalid-json",
            &run,
            none.clone(),
            ok("fallback", Some(2), Some("model_output_invalid"))
        ));
        record!(check(
            &dev,
            "truncated",
            &run,
            none.clone(),
            ok("fallback", None, Some("model_output_invalid"))
        ));
        record!(check(
            &dev,
            "unknown-pointers",
            &run,
            none.clone(),
            ok("fallback", Some(2), Some("model_output_invalid"))
        ));
        record!(check(
            &dev,
            "invented-fields",
            &run,
            none.clone(),
            ok("model", None, None)
        ));
        record!(check(
            &dev,
            "html-labels",
            &run,
            none.clone(),
            ok("model", None, None)
        )
        .and_then(|b| {
            if labels_are_plain(&b) {
                Ok(b)
            } else {
                Err(format!("html-labels: markup survived: {}", b["uiSchema"]))
            }
        }));
        record!(check(
            &dev,
            "rate-limited",
            &run,
            none.clone(),
            ok("model", Some(2), None)
        ));
        record!(check(
            &dev,
            "server-error",
            &run,
            none.clone(),
            ok("model", Some(2), None)
        ));
        record!(check(
            &dev,
            "server-error-always",
            &run,
            none.clone(),
            ok("fallback", None, Some("model_unavailable"))
        ));
        record!(check(
            &dev,
            "hang",
            &run,
            none.clone(),
            ok("fallback", None, Some("model_timeout"))
        ));
        record!(check(
            &dev,
            "bad-then-good",
            &run,
            none.clone(),
            ok("model", Some(2), None)
        ));
        record!(check(
            &dev,
            "json-schema-unsupported",
            &run,
            none.clone(),
            ok("model", Some(2), None)
        ));
        // As vLLM, Ollama, LM Studio and llama.cpp answer: accepted first time.
        record!(check(
            &dev,
            "tool-call-args",
            &run,
            none.clone(),
            ok("model", Some(1), None)
        ));
        record!(check(
            &dev,
            "content-parts",
            &run,
            none.clone(),
            ok("model", Some(1), None)
        ));
        record!(check(
            &dev,
            "refusal",
            &run,
            none.clone(),
            ok("fallback", Some(2), Some("model_output_invalid"))
        )
        .and_then(|b| {
            if b["meta"]["reason"] == "refusal" {
                Ok(b)
            } else {
                Err(format!("refusal: no reason in {}", b["meta"]))
            }
        }));
        record!(check(
            &dev,
            "unauthorized",
            &run,
            none.clone(),
            ok("fallback", None, Some("model_auth"))
        ));
        record!(hosted_form_uses_the_model(&dev, &run));
        // The operator's catalog: the model binds naively (every integer to
        // the 0-10 rating); the proof keeps what fits and refuses the rest.
        let rated = json!({"catalog": "example", "output": {"type": "object", "required": ["stars"], "properties": {
            "stars": {"type": "integer", "minimum": 0, "maximum": 10, "title": "Stars"},
            "gloss": {"type": "integer", "minimum": 0, "maximum": 11, "title": "Gloss"}}}});
        let b = dev
            .post_json("/v1/generate", &request("bind-components", &run, rated))
            .json();
        let bound = b["uiSchema"]
            .to_string()
            .matches("\"genui\":\"starRating\"")
            .count();
        let refused = b["meta"]["warnings"].as_array().is_some_and(|w| {
            w.iter().any(|w| {
                w["code"] == "component_refused" && w["pointer"] == "/output/properties/gloss"
            })
        });
        if b["meta"]["generator"] != "model" || bound != 1 || !refused {
            failures.push(format!(
                "bind-components: {bound} bound, refused {refused}: {b}"
            ));
        }
        // Forced model: failures are errors; forced deterministic: no call.
        let forced = json!({"generator": "model"});
        record!(check(
            &dev,
            "invalid-json",
            &format!("{run}-forced"),
            forced,
            Expect {
                status: 502,
                generator: "",
                attempts: None,
                error: Some("model_output_invalid")
            }
        ));
        let before = server.requests().len();
        record!(check(
            &dev,
            "good",
            &format!("{run}-det"),
            json!({"generator": "deterministic"}),
            ok("deterministic", None, None)
        ));
        if server.requests().len() != before {
            failures.push("generator: deterministic still called the model".into());
        }
        // A proven model spec is a hit the second time; the model is not asked again.
        let again = request("good", &run, json!({}));
        let mut hit = false;
        for _ in 0..50 {
            let reply = dev.post_json("/v1/generate", &again).json();
            if reply["meta"]["cache"] == "hit" && reply["meta"]["generator"] == "model" {
                hit = true;
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        if !hit {
            failures.push("the good model spec never became a cache hit".into());
        }
        // The rate-limited retry waited for Retry-After (1 s).
        let tagged: Vec<f64> = server
            .requests()
            .iter()
            .filter(|r| r["body"].to_string().contains("[scenario:rate-limited]"))
            .filter_map(|r| r["at_ms"].as_f64())
            .collect();
        if tagged.len() != 2 || tagged[1] - tagged[0] < 900.0 {
            failures.push(format!(
                "rate-limited: requests at {tagged:?} ms, Retry-After not honoured"
            ));
        }
        // The key went to the provider, in its header, and nowhere else.
        let auth_ok = server
            .requests()
            .iter()
            .all(|r| r["headers"]["authorization"] == format!("Bearer {API_KEY}"));
        if !auth_ok {
            failures.push("a request reached the provider without the bearer key".into());
        }
        wait_for_kv(&dev, 6);
        match kv_holds_only_proven_specs(&dev) {
            Ok(12) => {}
            Ok(models) => failures.push(format!(
                "KV holds {models} model specs; want 12 (one per successful scenario, one for the hosted form)"
            )),
            Err(e) => failures.push(e),
        }
        if std::fs::read_to_string(dev.log_path())
            .unwrap_or_default()
            .contains(API_KEY)
        {
            failures.push("the API key appears in the wrangler log".into());
        }
    }
    {
        let dev = worker("anthropic", &server);
        record!(check(
            &dev,
            "good",
            &format!("{run}-a"),
            json!({}),
            ok("model", Some(1), None)
        )
        .and_then(|b| {
            if b["meta"]["provider"] == "anthropic" {
                Ok(b)
            } else {
                Err(format!("anthropic: {}", b["meta"]))
            }
        }));
        record!(check(
            &dev,
            "server-error-always",
            &format!("{run}-a"),
            json!({}),
            ok("fallback", None, Some("model_unavailable"))
        ));
        let sent = server.requests();
        let anthropic = sent
            .iter()
            .filter(|r| r["path"] == "/v1/messages")
            .collect::<Vec<_>>();
        let headers_ok = !anthropic.is_empty()
            && anthropic.iter().all(|r| {
                r["headers"]["x-api-key"] == API_KEY
                    && r["headers"]["anthropic-version"].is_string()
            });
        if !headers_ok {
            failures.push("anthropic requests lack x-api-key or anthropic-version".into());
        }
    }
    assert!(
        failures.is_empty(),
        "{} model scenario(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
