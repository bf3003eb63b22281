//! AG-UI interrupts end to end (docs/interrupts.md). On a worker with
//! `WEBHOOK_SECRET` and API keys ([`resume_loop`]): an interrupt is
//! answered as a form carrying its message, its tool call and a token (as
//! JSON and as an event stream), the spec stored in KV holds no word of the
//! message, the submission with the token comes back as a signed AG-UI
//! `ResumeEntry` whose signature this test recomputes and whose shape
//! @ag-ui/core 1.0's own `ResumeEntrySchema` accepts; an expired interrupt
//! says so, refuses an answer (410) and takes a cancel; a tampered token is
//! 401; the same interrupt sent to `/v1/agent` in
//! `forwardedProps.interrupts` is the run's activity. On a worker without the secret ([`unsigned`]): no token, and a
//! submission naming the interrupt is 404.

use super::Step;
use genui_harness::{Reply, WranglerDev};
use hmac::{KeyInit, Mac};
use serde_json::{json, Value};
use sha2::Digest as _;
use std::io::Write;
use std::process::{Command, Stdio};

const KEY: (&str, &str) = ("authorization", "Bearer key-one");

fn ensure(cond: bool, what: impl FnOnce() -> String) -> Step {
    if cond {
        Ok(())
    } else {
        Err(what())
    }
}

fn post(dev: &WranglerDev, path: &str, body: &Value, key: bool) -> Result<Reply, String> {
    let mut headers = vec![];
    if key {
        headers.push(KEY);
    }
    post_with(dev, path, body, &headers)
}

fn post_with(
    dev: &WranglerDev,
    path: &str,
    body: &Value,
    extra: &[(&str, &str)],
) -> Result<Reply, String> {
    let mut headers = vec![("content-type", "application/json")];
    headers.extend_from_slice(extra);
    dev.try_send("POST", path, Some(body.to_string().as_bytes()), &headers)
}

fn schema() -> Value {
    json!({"type": "object", "required": ["quarter", "year"], "properties": {
        "quarter": {"type": "string", "enum": ["Q1", "Q2", "Q3", "Q4"], "title": "Quarter"},
        "year": {"type": "integer", "minimum": 2000, "title": "Year"}}})
}

fn interrupt(id: &str, message: &str, expires_at: &str) -> Value {
    json!({"id": id, "reason": "input_required", "message": message, "toolCallId": "call_int_e2e",
        "responseSchema": schema(), "expiresAt": expires_at,
        "metadata": {"langgraph": {"ns": ["node:ask"]}}})
}

/// The algorithm of docs/interrupts.md, written out here as an agent
/// writes it: RFC 8785 by `serde_jcs`, the digest of the schema the agent
/// sent (`sent_schema`), never the one the entry names.
fn signature_holds(entry: &Value, secret: &str, sent_schema: &Value) -> bool {
    let genui = &entry["metadata"]["genui"];
    let Some((t, v1)) = genui["signature"].as_str().and_then(|s| s.split_once(',')) else {
        return false;
    };
    let jcs = |value: &Value| serde_jcs::to_string(value).unwrap_or_default();
    let (digest, payload) = match entry.get("payload") {
        Some(payload) => (
            hex::encode(sha2::Sha256::digest(jcs(sent_schema).as_bytes())),
            jcs(payload),
        ),
        None => (String::new(), String::new()),
    };
    let signed = format!(
        "genui-resume.{}.{}.{}.{}.{digest}.{payload}",
        t.trim_start_matches("t="),
        genui["specHash"].as_str().unwrap_or_default(),
        entry["status"].as_str().unwrap_or_default(),
        jcs(&entry["interruptId"]),
    );
    let Ok(expected) = hex::decode(v1.trim_start_matches("v1=")) else {
        return false;
    };
    let Ok(mut mac) = <hmac::Hmac<sha2::Sha256> as KeyInit>::new_from_slice(secret.as_bytes())
    else {
        return false;
    };
    mac.update(signed.as_bytes());
    mac.verify_slice(&expected).is_ok()
}

/// Checks `entry` with @ag-ui/core 1.0's `ResumeEntrySchema` (tests/agui's
/// packages), as an agent built on AG-UI's own SDK reads `resume[]`.
fn ag_ui_accepts(entry: &Value) -> Step {
    let root = genui_harness::project_root().join("tests/agui");
    let script = r#"import { ResumeEntrySchema } from "@ag-ui/core/schemas";
let text = ""; process.stdin.on("data", (d) => (text += d)).on("end", () => {
  const checked = ResumeEntrySchema.safeParse(JSON.parse(text));
  if (!checked.success) { console.error(checked.error.message); process.exit(1); }
});"#;
    let mut node = Command::new("node")
        .args(["--input-type=module", "-e", script])
        .current_dir(root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("node: {e}"))?;
    if let Some(mut stdin) = node.stdin.take() {
        stdin
            .write_all(entry.to_string().as_bytes())
            .map_err(|e| e.to_string())?;
    }
    let out = node.wait_with_output().map_err(|e| e.to_string())?;
    ensure(out.status.success(), || {
        format!(
            "@ag-ui/core's ResumeEntrySchema refuses {entry}: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

fn kv_spec(dev: &WranglerDev, hash: &str) -> Result<String, String> {
    let key = format!("{}{hash}", genui_core::UiSpec::KEY_PREFIX);
    for _ in 0..50 {
        if let Some(value) = dev.try_kv_get(&key)? {
            return Ok(value);
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    Err(format!("KV has no {key} after 5 s"))
}

/// The whole loop on a worker with `WEBHOOK_SECRET` = `secret`.
pub fn resume_loop(dev: &WranglerDev, secret: &str) -> Step {
    let message = format!("Ada Lovelace's filing {}", std::process::id());
    let body = json!({"format": "jsonforms",
        "interrupt": interrupt("int-e2e", &message, "2099-01-01T00:00:00Z")});
    let unauthorised = post(dev, "/v1/interrupt", &body, false)?;
    ensure(unauthorised.status == 401, || {
        format!("/v1/interrupt without a key: {}", unauthorised.status)
    })?;
    let answered = post(dev, "/v1/interrupt", &body, true)?;
    let form = answered.try_json()?;
    let meta = &form["meta"];
    ensure(
        answered.status == 200
            && meta["toolCallId"] == "call_int_e2e"
            && meta["interrupt"]["id"] == "int-e2e"
            && meta["interrupt"]["expired"] == false,
        || format!("/v1/interrupt: {}", answered.body_excerpt()),
    )?;
    ensure(
        form["uiSchema"]["elements"][0]["text"] == message.as_str(),
        || format!("the message is not shown: {}", form["uiSchema"]),
    )?;
    let token = meta["interrupt"]["token"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let hash = meta["specHash"].as_str().unwrap_or_default().to_owned();
    ensure(
        answered.header("x-genui-interrupt-token") == Some(token.as_str()),
        || {
            format!(
                "token header: {:?}",
                answered.header("x-genui-interrupt-token")
            )
        },
    )?;
    let stored = kv_spec(dev, &hash)?;
    ensure(!stored.contains("Ada Lovelace"), || {
        format!("the KV spec holds the message: {stored:.400}")
    })?;
    // The same interrupt as an event stream: its `ui` event carries the token.
    let (status, events) = dev.post_sse("/v1/interrupt", &body, &[KEY], None);
    let ui = events.iter().find(|e| e.event == "ui");
    ensure(
        status == 200 && ui.is_some_and(|e| e.data["meta"]["interrupt"]["token"] == token.as_str()),
        || {
            format!(
                "SSE /v1/interrupt: {status}, {:?}",
                events.iter().map(|e| &e.event).collect::<Vec<_>>()
            )
        },
    )?;

    // Through /v1/agent: the interrupt of the last outcome, as the run's activity.
    let run = json!({"threadId": "thread-int", "runId": "run-int", "messages": [],
        "forwardedProps": {"interrupts": [body["interrupt"].clone()], "format": "jsonforms"}});
    let (status, events) = dev.post_sse("/v1/agent", &run, &[KEY], None);
    let activity = events
        .iter()
        .find(|e| e.data["type"] == "ACTIVITY_SNAPSHOT");
    ensure(
        status == 200
            && activity.is_some_and(|e| {
                e.data["content"]["meta"]["interrupt"]["token"] == token.as_str()
                    && e.data["content"]["uiSchema"]["elements"][0]["text"] == message.as_str()
            }),
        || {
            format!(
                "/v1/agent with forwardedProps.interrupts: {status}, {:?}",
                events.iter().map(|e| &e.data["type"]).collect::<Vec<_>>()
            )
        },
    )?;

    let data = json!({"quarter": "Q1", "year": 2026});
    let submission =
        json!({"specHash": hash, "interruptId": "int-e2e", "interruptToken": token, "data": data});
    let resumed = post(dev, "/v1/submit", &submission, true)?;
    let entry = resumed.try_json()?;
    ensure(
        resumed.status == 200
            && entry["interruptId"] == "int-e2e"
            && entry["status"] == "resolved"
            && entry["payload"] == data,
        || format!("/v1/submit: {}", resumed.body_excerpt()),
    )?;
    ensure(signature_holds(&entry, secret, &schema()), || {
        format!("the signature does not verify: {entry}")
    })?;
    ensure(
        !signature_holds(&entry, "not-the-secret", &schema()),
        || "any secret verifies".into(),
    )?;
    // An agent that sent another schema refuses the entry: a token minted
    // for a schema of the caller's choosing proves nothing to it.
    ensure(
        !signature_holds(&entry, secret, &json!({"type": "object"})),
        || "an entry checked against another schema verifies".into(),
    )?;
    ag_ui_accepts(&entry)?;

    // Tampered: a later expiry under the same signature.
    let (_, signature) = token.split_once('.').unwrap_or_default();
    let mut tampered = submission.clone();
    tampered["interruptToken"] = json!(format!("4102444801.{signature}"));
    let refused = post(dev, "/v1/submit", &tampered, true)?;
    let error = refused.try_json()?;
    ensure(
        refused.status == 401
            && error["code"] == "invalid_signature"
            && error["payload"]["pointer"] == "/interruptToken",
        || format!("tampered token: {}", refused.body_excerpt()),
    )?;
    expired(dev, secret)
}

/// An interrupt already past its `expiresAt`: the form says so, an answer
/// is 410 `interrupt_expired`, a cancel is a signed cancelled entry.
fn expired(dev: &WranglerDev, secret: &str) -> Step {
    let body = json!({"interrupt": interrupt("int-late", "Too late", "2020-01-01T00:00:00Z")});
    let answered = post(dev, "/v1/interrupt", &body, true)?;
    let meta = answered.try_json()?["meta"].clone();
    ensure(
        answered.status == 200
            && meta["interrupt"]["expired"] == true
            && meta["warnings"]
                .as_array()
                .is_some_and(|w| w.iter().any(|w| w["code"] == "interrupt_expired")),
        || format!("expired interrupt: {}", answered.body_excerpt()),
    )?;
    let claim = json!({"specHash": meta["specHash"], "interruptId": "int-late",
        "interruptToken": meta["interrupt"]["token"]});
    let mut answer = claim.clone();
    answer["data"] = json!({"quarter": "Q2", "year": 2026});
    let late = post(dev, "/v1/submit", &answer, true)?;
    ensure(
        late.status == 410 && late.try_json()?["code"] == "interrupt_expired",
        || format!("late answer: {}", late.body_excerpt()),
    )?;
    let mut cancel = claim;
    cancel["status"] = json!("cancelled");
    let cancelled = post(dev, "/v1/submit", &cancel, true)?;
    let entry = cancelled.try_json()?;
    ensure(
        cancelled.status == 200 && entry["status"] == "cancelled" && entry.get("payload").is_none(),
        || format!("cancel: {}", cancelled.body_excerpt()),
    )?;
    ensure(signature_holds(&entry, secret, &schema()), || {
        format!("cancel signature: {entry}")
    })?;
    ag_ui_accepts(&entry)
}

/// A worker without `WEBHOOK_SECRET`: the form comes without a token and
/// says why; a submission naming the interrupt is 404 `not_found`.
pub fn unsigned(dev: &WranglerDev) -> Step {
    let body =
        json!({"interrupt": {"id": "ok-1", "reason": "confirmation", "message": "Send it?"}});
    let answered = post(dev, "/v1/interrupt", &body, false)?;
    let form = answered.try_json()?;
    ensure(
        answered.status == 200
            && form["meta"]["interrupt"].get("token").is_none()
            && form["jsonSchema"]["required"] == json!(["approved"]),
        || format!("unsigned interrupt: {}", answered.body_excerpt()),
    )?;
    let submission = json!({"specHash": form["meta"]["specHash"], "interruptId": "ok-1",
        "interruptToken": "0.AAAA", "data": {"approved": true}});
    let refused = post(dev, "/v1/submit", &submission, false)?;
    ensure(
        refused.status == 404 && refused.try_json()?["payload"]["pointer"] == "/interruptId",
        || format!("unsigned submission: {}", refused.body_excerpt()),
    )?;
    // Negotiated as /v1/generate negotiates: A2UI v0.9.1's bare array, and
    // the React module alone.
    let a2ui = post_with(
        dev,
        "/v1/interrupt?format=a2ui",
        &body,
        &[("accept", "application/a2ui+json")],
    )?;
    ensure(
        a2ui.status == 200
            && a2ui
                .header("content-type")
                .is_some_and(|t| t.starts_with("application/a2ui+json"))
            && a2ui.try_json()?.is_array(),
        || format!("A2UI v0.9.1 interrupt: {}", a2ui.body_excerpt()),
    )?;
    let react = post_with(
        dev,
        "/v1/interrupt?format=react",
        &body,
        &[("accept", "text/tsx")],
    )?;
    ensure(
        react.status == 200
            && react
                .header("content-type")
                .is_some_and(|t| t.starts_with("text/tsx"))
            && serde_json::from_str::<Value>(&react.body).is_err(),
        || format!("React module interrupt: {}", react.body_excerpt()),
    )?;
    let no_schema = json!({"interrupt": {"id": "q", "reason": "input_required"}});
    let refused = post(dev, "/v1/interrupt", &no_schema, false)?;
    ensure(
        refused.status == 400
            && refused.try_json()?["payload"]["pointer"] == "/interrupt/responseSchema",
        || format!("no responseSchema: {}", refused.body_excerpt()),
    )
}
