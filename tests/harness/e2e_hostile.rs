//! No request kills the isolate: the deepest values one request can ask
//! for, on every route that takes a submission or data, are refused with a
//! 4xx, and the same `wrangler dev` answers a normal request at once after
//! each of them.
//!
//! Before the worker counted depth while building values from paths, one
//! LMUI `form_submission` whose id had 8,000 dotted segments (5,000 by
//! `specHash`) overflowed workerd's stack: a 500 "Worker's code had hung",
//! and every request in flight on the isolate was lost.
//!
//! Run: `cargo test -p genui-harness --test e2e-hostile -- --ignored --nocapture`.

use genui_harness::{Options, Reply, WranglerDev};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

type Step = Result<(), String>;

/// Segments, tokens or levels of the worst cases (about 16 KB each).
const WORST: usize = 8_000;
/// The spec-hash LMUI case that was already fatal.
const WORST_BY_HASH: usize = 5_000;
/// How long the follow-up request may take.
const PROMPT: Duration = Duration::from_secs(10);

fn dotted(n: usize) -> String {
    vec!["a"; n].join(".")
}

fn slashed(n: usize) -> String {
    "/a".repeat(n)
}

fn nested(n: usize) -> String {
    format!("{}1{}", "[".repeat(n), "]".repeat(n))
}

fn send(
    dev: &WranglerDev,
    path: &str,
    body: &[u8],
    headers: &[(&str, &str)],
) -> Result<Reply, String> {
    dev.try_send("POST", path, Some(body), headers)
        .map_err(|e| format!("{path}: no answer: {e}"))
}

fn json_post(dev: &WranglerDev, path: &str, body: &Value) -> Result<Reply, String> {
    send(
        dev,
        path,
        body.to_string().as_bytes(),
        &[("content-type", "application/json")],
    )
}

/// The isolate lives on: a normal generate answers 200, promptly.
fn alive(dev: &WranglerDev, after: &str) -> Step {
    let started = Instant::now();
    let body = json!({"output": {"type": "object", "properties": {"name": {"type": "string"}}}, "description": format!("after {after}")});
    let reply = json_post(dev, "/v1/generate", &body)?;
    let took = started.elapsed();
    if reply.status != 200 || took > PROMPT {
        return Err(format!(
            "after {after}, a normal request answered {} in {took:?}: {}",
            reply.status,
            reply.body_excerpt()
        ));
    }
    Ok(())
}

/// `reply` is a 4xx that names `body_too_deep` (a `dgui_error`, or an MCP
/// tool result carrying one), and the worker answers normally after it.
fn refused(dev: &WranglerDev, what: &str, reply: Result<Reply, String>) -> Step {
    let reply = reply?;
    let shown = reply.body_excerpt();
    eprintln!(
        "    {what}: {} {}",
        reply.status,
        &shown[..shown.len().min(160)]
    );
    let is_4xx = (400..500).contains(&reply.status);
    let mcp_error = reply.status == 200 && reply.json()["result"]["isError"] == true;
    if !(is_4xx || mcp_error) || !reply.body.contains("body_too_deep") {
        return Err(format!(
            "{what}: expected a 4xx body_too_deep, got {}: {shown}",
            reply.status
        ));
    }
    alive(dev, what)
}

/// Generates `output` in `format`; the answer and its spec hash.
fn generate(dev: &WranglerDev, output: &Value, format: &str) -> Result<(Value, String), String> {
    let reply = json_post(
        dev,
        &format!("/v1/generate?format={format}"),
        &json!({"output": output, "description": format!("hostile {format}")}),
    )?;
    let hash = reply
        .header("x-genui-spec-hash")
        .map(str::to_owned)
        .ok_or_else(|| format!("{format}: no spec hash: {reply}"))?;
    if reply.status != 200 {
        return Err(format!("{format}: {reply}"));
    }
    Ok((reply.try_json().unwrap_or(Value::Null), hash))
}

fn lmui_values(n: usize) -> Value {
    json!({"type": "form_submission", "values": {dotted(n): "x"}})
}

#[test]
#[ignore = "needs wrangler dev; run by scripts/test.sh with --ignored"]
fn hostile_depth_never_kills_the_isolate() {
    let dev = WranglerDev::start(Options::default()).unwrap_or_else(|e| panic!("{e}"));
    let result = run(&dev);
    if let Err(e) = result {
        panic!("{e}\nwrangler log tail:\n{}", dev.log_tail(4000));
    }
}

fn run(dev: &WranglerDev) -> Step {
    let open = json!({"type": "object", "properties": {"name": {"type": "string"}}});
    alive(dev, "start")?;

    // /v1/submit, LMUI, by specHash and inline; a button click's id.
    let (_, lmui_hash) = generate(dev, &open, "lmui")?;
    for n in [WORST_BY_HASH, WORST] {
        let by_hash = json!({"specHash": lmui_hash, "interaction": lmui_values(n)});
        refused(
            dev,
            &format!("LMUI form_submission by specHash, {n} segments"),
            json_post(dev, "/v1/submit", &by_hash),
        )?;
    }
    let inline = json!({"output": open, "interaction": lmui_values(WORST)});
    refused(
        dev,
        "LMUI form_submission inline",
        json_post(dev, "/v1/submit", &inline),
    )?;
    let click = json!({"specHash": lmui_hash, "interaction": {"type": "button_click", "id": dotted(WORST), "value": true}});
    refused(
        dev,
        "LMUI button_click",
        json_post(dev, "/v1/submit", &click),
    )?;

    // /v1/submit with deep data (the body scan) by specHash and inline.
    let raw = format!(
        "{{\"specHash\":\"{lmui_hash}\",\"data\":{}}}",
        nested(WORST)
    );
    refused(
        dev,
        "dgui_response data by specHash",
        send(
            dev,
            "/v1/submit",
            raw.as_bytes(),
            &[("content-type", "application/json")],
        ),
    )?;
    let raw = format!("{{\"output\":{open},\"data\":{}}}", nested(WORST));
    refused(
        dev,
        "data inline",
        send(
            dev,
            "/v1/submit",
            raw.as_bytes(),
            &[("content-type", "application/json")],
        ),
    )?;

    // A2UI action: a data path, and the data model header.
    let (answer, a2ui_hash) = generate(dev, &open, "a2ui")?;
    let surface = answer["messages"][0]["createSurface"]["surfaceId"].clone();
    let action = |context: Value| {
        let mut full = json!({"specHash": a2ui_hash});
        if let Some(m) = full.as_object_mut() {
            m.extend(context.as_object().cloned().unwrap_or_default());
        }
        json!({"name": "genui.submit", "surfaceId": surface, "sourceComponentId": "submit", "timestamp": "2026-11-27T06:00:00.000Z", "context": full})
    };
    let message = json!({"version": "v0.9", "action": action(json!({"data": {}, "decisionPath": slashed(WORST), "decision": true}))});
    refused(
        dev,
        "A2UI action decisionPath",
        json_post(dev, "/v1/submit", &message),
    )?;
    let header = format!(
        "{{\"version\":\"v0.9\",\"surfaces\":{{{surface}:{}}}}}",
        nested(WORST)
    );
    let bare = json!({"version": "v0.9", "action": action(json!({}))});
    let with_header = send(
        dev,
        "/v1/submit",
        bare.to_string().as_bytes(),
        &[
            ("content-type", "application/json"),
            ("a2ui-client-data-model", &header),
        ],
    );
    refused(dev, "A2UI data model header", with_header)?;

    // A form post whose field pointer a recursive schema accepts at any depth.
    let recursive =
        json!({"type": "object", "properties": {"name": {"type": "string"}, "a": {"$ref": "#"}}});
    let (_, html_hash) = generate(dev, &recursive, "html")?;
    let pointer = format!("{}/name", slashed(WORST));
    let form: String = form_urlencoded::Serializer::new(String::new())
        .append_pair("_specHash", &html_hash)
        .append_pair(&pointer, "x")
        .finish();
    refused(
        dev,
        "form post",
        send(
            dev,
            "/v1/submit",
            form.as_bytes(),
            &[("content-type", "application/x-www-form-urlencoded")],
        ),
    )?;

    // /v1/generate with deep data.
    let raw = format!(
        "{{\"output\":{open},\"data\":{{\"name\":{}}}}}",
        nested(WORST)
    );
    refused(
        dev,
        "generate with deep data",
        send(
            dev,
            "/v1/generate",
            raw.as_bytes(),
            &[("content-type", "application/json")],
        ),
    )?;

    // /v1/agent: a submission run carrying the A2UI action.
    let run = json!({"threadId": "t-hostile", "runId": "r-hostile", "messages": [], "tools": [], "context": [], "state": {},
        "forwardedProps": {"a2uiAction": {"userAction": action(json!({"data": {}, "decisionPath": slashed(WORST), "decision": true}))}}});
    refused(
        dev,
        "/v1/agent submission run",
        json_post(dev, "/v1/agent", &run),
    )?;

    // /mcp tools/call submit_user_interface.
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "submit_user_interface", "arguments": {"specHash": lmui_hash, "interaction": lmui_values(WORST)}}});
    let mcp = send(
        dev,
        "/mcp",
        call.to_string().as_bytes(),
        &[
            ("content-type", "application/json"),
            ("accept", "application/json, text/event-stream"),
            ("mcp-protocol-version", "2025-11-25"),
        ],
    );
    refused(dev, "/mcp tools/call submit", mcp)?;

    // The schema side: a chain of distinct definitions, each nesting the
    // next by `$ref`, rendered as a React module (a walk that follows refs).
    let chain = 10_000;
    let defs: serde_json::Map<String, Value> = (0..=chain)
        .map(|i| {
            (
                format!("d{i}"),
                if i == chain {
                    json!({"type": "string"})
                } else {
                    json!({"properties": {"x": {"$ref": format!("#/$defs/d{}", i + 1)}}})
                },
            )
        })
        .collect();
    let chained =
        json!({"type": "object", "properties": {"root": {"$ref": "#/$defs/d0"}}, "$defs": defs});
    for format in ["react", "jsonforms", "rjsf", "lmui", "a2ui", "html"] {
        let started = Instant::now();
        let reply = json_post(
            dev,
            &format!("/v1/generate?format={format}"),
            &json!({"output": chained, "description": format!("chain {format}")}),
        )?;
        eprintln!(
            "    {format} of a {chain}-definition $ref chain: {} in {:?}",
            reply.status,
            started.elapsed()
        );
        if reply.status >= 500 {
            return Err(format!("a $ref chain as {format}: {reply}"));
        }
        alive(dev, &format!("a $ref chain as {format}"))?;
    }

    // At the limit, a submission still works.
    // (Named for a tool call: its tool message carries the data as text.)
    let at_limit =
        json!({"specHash": lmui_hash, "toolCallId": "call_1", "interaction": lmui_values(127)});
    let reply = json_post(dev, "/v1/submit", &at_limit)?;
    if reply.status != 200 {
        return Err(format!("127 segments (the limit) by specHash: {reply}"));
    }
    alive(dev, "the end")
}
