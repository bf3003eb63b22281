//! Streaming end to end: ONE wrangler dev with a model configured against
//! the scripted model server, then
//! - the real clients of tests/agui (`node --test`: @ag-ui/client's
//!   HttpAgent on /v1/agent, a plain SSE client on /v1/generate);
//! - tests/browser/stream.mjs in Chromium: the first form typed into before
//!   the model finishes, the patch applied in place keeping the typing;
//! - a hanging model: the stream still ends by MODEL_DEADLINE_MS, `done`
//!   saying it fell back;
//! - a client that leaves after the first event: no 5xx, no panic, and
//!   the model's proven spec is still cached;
//! - the signed webhook streams too (a bad signature is a plain 401);
//! - auth: a streaming request without the key is a plain 401.

use genui_harness::{project_root, ModelServer, Options, WranglerDev};
use serde_json::{json, Value};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

const MODEL_KEY: &str = "sk-test-stream-0123456789";
const API_KEY: &str = "genui-stream-test-key";
const DEADLINE_MS: u64 = 4000;
const WEBHOOK_SECRET: &str = "whsec-stream-test";

fn output() -> Value {
    json!({"type": "object", "required": ["firstName"], "properties": {
        "firstName": {"type": "string", "title": "First Name"},
        "country": {"type": "string", "enum": ["GB", "US"]}}})
}

/// `POST /v1/generate` as an event stream: the status and (event, data) pairs.
fn stream(
    dev: &WranglerDev,
    body: &Value,
    key: Option<&str>,
    stop_after: Option<usize>,
) -> (u16, Vec<(String, Value)>) {
    let auth = key.map(|k| format!("Bearer {k}"));
    let headers: Vec<(&str, &str)> = auth
        .as_deref()
        .map(|a| ("authorization", a))
        .into_iter()
        .collect();
    let (status, events) = dev.post_sse("/v1/generate", body, &headers, stop_after);
    (
        status,
        events.into_iter().map(|e| (e.event, e.data)).collect(),
    )
}

/// `POST /v1/generate` as plain JSON with the API key; `Null` on failure.
fn json_with_key(dev: &WranglerDev, body: &Value) -> Value {
    let url = format!("{}/v1/generate", dev.base_url());
    let sent = dev
        .agent()
        .post(&url)
        .header("authorization", &format!("Bearer {API_KEY}"))
        .header("content-type", "application/json")
        .send(&body.to_string());
    sent.ok()
        .and_then(|mut r| r.body_mut().read_to_string().ok())
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or(Value::Null)
}

#[test]
#[ignore = "needs wrangler dev; run by scripts/test.sh with --ignored"]
fn streaming_end_to_end() {
    let server = ModelServer::start(
        Path::new(env!("CARGO_BIN_EXE_model-server")),
        MODEL_KEY,
        &["--lifetime-secs", "600"],
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let opts = Options::default()
        .var("MODEL_PROVIDER", "openai")
        .var("MODEL_NAME", "ui-model-1")
        .var("MODEL_BASE_URL", format!("{}/v1", server.base()))
        .var("MODEL_API_KEY", MODEL_KEY)
        .var("MODEL_TIMEOUT_MS", "3000")
        .var("MODEL_DEADLINE_MS", DEADLINE_MS.to_string())
        .var("SPEC_MEMORY_BYTES", "0")
        .var("API_KEYS", API_KEY)
        .var("WEBHOOK_SECRET", WEBHOOK_SECRET);
    let dev = WranglerDev::start(opts).unwrap_or_else(|e| panic!("{e}"));
    let run = std::process::id();
    let mut failures = Vec::new();

    // The real clients, against this worker.
    let agui = project_root().join("tests/agui");
    let node = Command::new("node")
        .args(["--test"])
        .current_dir(&agui)
        .env("GENUI_BASE", dev.base_url())
        .env("GENUI_API_KEY", API_KEY)
        .output()
        .expect("node runs");
    if !node.status.success() {
        failures.push(format!(
            "tests/agui failed:\n{}\n{}",
            String::from_utf8_lossy(&node.stdout),
            String::from_utf8_lossy(&node.stderr)
        ));
    }

    // A real browser: the first form is typed into before the model has
    // finished, and the patch keeps what was typed (tests/browser/stream.mjs).
    let browser = project_root().join("tests/browser");
    let built = Command::new("node")
        .arg("build.mjs")
        .current_dir(&browser)
        .output()
        .expect("node runs");
    let page = Command::new("node")
        .args(["--test", "stream.mjs"])
        .current_dir(&browser)
        .env("GENUI_BASE_URL", dev.base_url())
        .env("GENUI_API_KEY", API_KEY)
        .output()
        .expect("node runs");
    if !built.status.success() || !page.status.success() {
        let out = |o: &std::process::Output| {
            format!(
                "{}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            )
        };
        failures.push(format!(
            "tests/browser/stream.mjs failed:\n{}{}",
            out(&built),
            out(&page)
        ));
    }

    // A model that hangs: the stream ends by the deadline, falling back.
    let hang =
        json!({"description": format!("Sign up. [scenario:hang] {run}"), "output": output()});
    let started = Instant::now();
    let (status, events) = stream(&dev, &hang, Some(API_KEY), None);
    let took = started.elapsed();
    let names: Vec<&str> = events.iter().map(|(e, _)| e.as_str()).collect();
    if status != 200 || names != ["ui", "patch", "done"] || events[2].1["fellBack"] != true {
        failures.push(format!("hang: status {status}, events {events:?}"));
    }
    if took > Duration::from_millis(DEADLINE_MS + 1500) {
        failures.push(format!(
            "hang: the stream took {took:?}, past the {DEADLINE_MS} ms deadline"
        ));
    }

    // A client that leaves after the first ui: the proven spec is still stored.
    let gone =
        json!({"description": format!("Sign up. [delay:1500] gone {run}"), "output": output()});
    let (status, events) = stream(&dev, &gone, Some(API_KEY), Some(1));
    if status != 200 || events.len() != 1 || events[0].0 != "ui" {
        failures.push(format!("client gone: status {status}, events {events:?}"));
    }
    // The same request as JSON, read from KV (SPEC_MEMORY_BYTES=0: no
    // isolate memory in front of it), is the model's spec once stored.
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut stored = false;
    while Instant::now() < deadline && !stored {
        std::thread::sleep(Duration::from_millis(500));
        let reply = json_with_key(&dev, &gone);
        stored = reply["meta"]["cache"] == "hit" && reply["meta"]["generator"] == "model";
    }
    if !stored {
        failures.push("client gone: the model's spec was never stored".into());
    }

    // The signed webhook streams the same way; a bad signature is a plain 401.
    let hook =
        json!({"description": format!("Sign up. [delay:500] hook {run}"), "output": output()});
    let now_s = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let signature = genui_core::Webhook::sign(WEBHOOK_SECRET, now_s, hook.to_string().as_bytes());
    let (status, events) = dev.post_sse(
        "/v1/webhook",
        &hook,
        &[(genui_core::Webhook::SIGNATURE_HEADER, &signature)],
        None,
    );
    let names: Vec<&str> = events.iter().map(|e| e.event.as_str()).collect();
    if status != 200 || names != ["ui", "patch", "done"] {
        failures.push(format!("webhook stream: status {status}, events {names:?}"));
    }
    let (status, events) = dev.post_sse(
        "/v1/webhook",
        &hook,
        &[(genui_core::Webhook::SIGNATURE_HEADER, "t=1,v1=00")],
        None,
    );
    if status != 401 || !events.is_empty() {
        failures.push(format!(
            "webhook, bad signature: status {status}, {} events",
            events.len()
        ));
    }

    // Auth as on the JSON route: no key, a plain 401 before any stream.
    let (status, events) = stream(&dev, &gone, None, None);
    if status != 401 || !events.is_empty() {
        failures.push(format!("no key: status {status}, events {events:?}"));
    }

    let log = std::fs::read_to_string(dev.log_path()).unwrap_or_default();
    for bad in ["panicked", "\"status\":500", "\"status\":502", MODEL_KEY] {
        if log.contains(bad) {
            failures.push(format!("the wrangler log contains {bad:?}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}\nlog tail:\n{}",
        failures.len(),
        failures.join("\n"),
        dev.log_tail(4000)
    );
}
