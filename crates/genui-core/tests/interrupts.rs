//! AG-UI interrupts through the public API, as the shell drives them:
//! `POST /v1/interrupt` ([`GenerateJob::prepare_interrupt`], then the same
//! finish as `/v1/generate`), and its answer submitted to `/v1/submit`
//! ([`Submission`] signed with the secret) for a signed `ResumeEntry`
//! (docs/interrupts.md).

use genui_core::{GenerateJob, HttpResponse, Limits, Submission};
use hmac::{KeyInit, Mac};
use serde_json::{json, Value};

const SECRET: &str = "whsec_test";
const NOW: u64 = 1_795_564_800; // 2026-11-25T00:00:00Z

fn schema() -> Value {
    json!({"type": "object", "required": ["quarter", "year"], "properties": {
        "quarter": {"type": "string", "enum": ["Q1", "Q2", "Q3", "Q4"]},
        "year": {"type": "integer", "minimum": 2000}}})
}

fn interrupt(message: &str) -> Value {
    json!({"id": "int-form", "reason": "input_required", "message": message,
        "toolCallId": "call_42", "responseSchema": schema(), "expiresAt": "2026-11-25T01:00:00Z"})
}

/// What `/v1/interrupt` answers, and the spec as stored in KV.
struct Answered {
    response: HttpResponse,
    stored: String,
    key: String,
}

fn answer(body: Value, format: Option<&str>, now: u64, secret: Option<&str>) -> Answered {
    let bytes = serde_json::to_vec(&body).unwrap();
    let job = GenerateJob::prepare_interrupt(&bytes, format, &Limits::default(), now, secret)
        .expect("a valid interrupt");
    let key = job.cache_key().to_owned();
    let outcome = job.clone().answer(None);
    let stored = (outcome.cache_put.map(|put| put.value))
        .or_else(|| job.spec_json())
        .unwrap_or_default();
    Answered {
        response: outcome.response,
        stored,
        key,
    }
}

fn refused(body: Value) -> genui_core::Error {
    let bytes = serde_json::to_vec(&body).unwrap();
    GenerateJob::prepare_interrupt(&bytes, None, &Limits::default(), NOW, Some(SECRET))
        .expect_err("refused")
}

fn json_of(response: &HttpResponse) -> Value {
    serde_json::from_str(&response.body).unwrap_or(Value::Null)
}

fn header<'r>(response: &'r HttpResponse, name: &str) -> Option<&'r str> {
    (response.headers.iter())
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

#[test]
fn the_message_is_shown_but_neither_keyed_nor_stored() {
    let one = answer(
        json!({"interrupt": interrupt("Ada Lovelace's Q1 filing, please")}),
        Some("rjsf"),
        NOW,
        Some(SECRET),
    );
    let two = answer(
        json!({"interrupt": interrupt("Grace Hopper's filing")}),
        Some("rjsf"),
        NOW,
        Some(SECRET),
    );
    assert_eq!(one.response.status, 200, "{}", one.response.body);
    assert_eq!(one.key, two.key, "the message is not part of the cache key");
    assert_eq!(one.stored, two.stored, "nor of the stored spec");
    assert!(!one.stored.is_empty() && !one.stored.contains("Ada") && !two.stored.contains("Grace"));
    assert_eq!(
        json_of(&one.response)["description"],
        "Ada Lovelace's Q1 filing, please"
    );
    assert_eq!(
        json_of(&two.response)["description"],
        "Grace Hopper's filing"
    );
    // Every format shows it to the person, each in its own place.
    for (format, shown) in [
        ("jsonforms", "/uiSchema/elements/0/text"),
        ("lmui", "/response_text"),
        ("rjsf", "/description"),
    ] {
        let body = json_of(
            &answer(
                json!({"interrupt": interrupt("Grace Hopper's filing")}),
                Some(format),
                NOW,
                Some(SECRET),
            )
            .response,
        );
        assert_eq!(
            body.pointer(shown),
            Some(&json!("Grace Hopper's filing")),
            "{format}: {body}"
        );
    }
    for format in ["a2ui", "html"] {
        let text = answer(
            json!({"interrupt": interrupt("Grace Hopper's filing")}),
            Some(format),
            NOW,
            Some(SECRET),
        )
        .response
        .body;
        assert!(text.contains("Grace Hopper"), "{format}");
    }
    // Without a message, the form is the plain one: no words left from a
    // previous request in any remembered projection.
    let mut plain = interrupt("x");
    plain.as_object_mut().unwrap().remove("message");
    for format in ["jsonforms", "rjsf", "a2ui", "lmui"] {
        let text = answer(json!({"interrupt": plain}), Some(format), NOW, Some(SECRET))
            .response
            .body;
        assert!(
            !text.contains("Grace") && !text.contains("Ada"),
            "{format}: {text}"
        );
    }
}

#[test]
fn the_answer_echoes_the_tool_call_and_carries_the_signed_token() {
    let answered = answer(
        json!({"interrupt": interrupt("Your filing")}),
        None,
        NOW,
        Some(SECRET),
    );
    let meta = &json_of(&answered.response)["meta"];
    assert_eq!(meta["toolCallId"], "call_42");
    assert_eq!(meta["interrupt"]["id"], "int-form");
    assert_eq!(meta["interrupt"]["expired"], false);
    assert_eq!(meta["interrupt"]["expiresAt"], "2026-11-25T01:00:00Z");
    let token = meta["interrupt"]["token"].as_str().unwrap();
    assert!(token.starts_with("1795568400."), "{token}");
    assert_eq!(
        header(&answered.response, "x-genui-interrupt-token"),
        Some(token)
    );
    // A2UI has no meta: the header carries it, and the action the tool call.
    let a2ui = answer(
        json!({"interrupt": interrupt("Your filing")}),
        Some("a2ui"),
        NOW,
        Some(SECRET),
    );
    assert_eq!(
        header(&a2ui.response, "x-genui-interrupt-token"),
        Some(token)
    );
    assert!(a2ui.response.body.contains("call_42"));
    // Without the secret: no token, and a warning says why.
    let unsigned = answer(
        json!({"interrupt": interrupt("Your filing")}),
        None,
        NOW,
        None,
    );
    let meta = &json_of(&unsigned.response)["meta"];
    assert!(meta["interrupt"].get("token").is_none());
    assert_eq!(meta["warnings"][0]["code"], "interrupt_unsigned");
    assert_eq!(header(&unsigned.response, "x-genui-interrupt-token"), None);
}

#[test]
fn an_expired_interrupt_is_answered_saying_so() {
    let answered = answer(
        json!({"interrupt": interrupt("Late")}),
        None,
        NOW + 3_600,
        Some(SECRET),
    );
    let meta = &json_of(&answered.response)["meta"];
    assert_eq!(meta["interrupt"]["expired"], true);
    assert_eq!(meta["warnings"][0]["code"], "interrupt_expired");
    assert_eq!(meta["warnings"][0]["pointer"], "/interrupt/expiresAt");
}

#[test]
fn a_confirmation_without_a_schema_is_an_approval_of_the_message() {
    let body = json!({"interrupt": {"id": "ok-1", "reason": "confirmation",
        "message": "Delete 3 files from Ada's drive?"}, "format": "jsonforms"});
    let answered = answer(body, None, NOW, Some(SECRET));
    let value = json_of(&answered.response);
    assert_eq!(value["jsonSchema"]["required"], json!(["approved"]));
    let elements = value["uiSchema"]["elements"].as_array().unwrap();
    assert!(
        elements[0]["text"]
            .as_str()
            .unwrap()
            .contains("Delete 3 files"),
        "{value}"
    );
    assert!(
        value.to_string().contains("\"approval\""),
        "approve/reject buttons: {value}"
    );
    assert!(!answered.stored.contains("Ada"));
}

#[test]
fn an_interrupt_without_a_schema_or_with_a_broken_one_is_refused_where_it_is() {
    let e = refused(json!({"interrupt": {"id": "i", "reason": "input_required", "message": "?"}}));
    assert_eq!(
        (e.http_status(), e.code().as_str()),
        (400, "invalid_request")
    );
    assert_eq!(e.pointer(), Some("/interrupt/responseSchema"));
    let e = refused(
        json!({"interrupt": {"id": "i", "reason": "input_required", "responseSchema": true}}),
    );
    assert_eq!(e.pointer(), Some("/interrupt/responseSchema"));
    // Not a schema: refused as `output` is, at the interrupt's place.
    let bytes = serde_json::to_vec(&json!({"interrupt": {"id": "i", "reason": "x",
        "responseSchema": {"type": "object", "properties": {"n": {"type": "integr"}}}}}))
    .unwrap();
    let job = GenerateJob::prepare_interrupt(&bytes, None, &Limits::default(), NOW, None).unwrap();
    let response = job.answer(None).response;
    let error = json_of(&response);
    assert_eq!(
        (response.status, error["code"].as_str()),
        (422, Some("invalid_schema"))
    );
    assert!(
        error["payload"]["pointer"]
            .as_str()
            .unwrap()
            .starts_with("/interrupt/responseSchema"),
        "{error}"
    );
}

/// `/v1/submit` with `body`, the spec as stored, signed with `secret` at `now`.
fn submit(body: Value, stored: &str, secret: Option<&str>, now: u64) -> HttpResponse {
    let bytes = serde_json::to_vec(&body).unwrap();
    let submission =
        Submission::api(Ok(&bytes), |_| None, &Limits::default()).signed_by(secret, now);
    submission.answer(Some(stored), "r1").into_response()
}

/// The algorithm of docs/interrupts.md, written out independently.
/// The agent's check of docs/interrupts.md, written out with RFC 8785 by
/// `serde_jcs`: against the schema the agent sent ([`schema`]).
fn verify(entry: &Value, secret: &str) -> bool {
    verify_against(entry, secret, &schema())
}

fn verify_against(entry: &Value, secret: &str, sent_schema: &Value) -> bool {
    use sha2::Digest as _;
    let genui = &entry["metadata"]["genui"];
    let signature = genui["signature"].as_str().unwrap();
    let (t, v1) = signature.split_once(',').unwrap();
    let jcs = |value: &Value| serde_jcs::to_string(value).unwrap();
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
        genui["specHash"].as_str().unwrap(),
        entry["status"].as_str().unwrap(),
        jcs(&entry["interruptId"]),
    );
    let mut mac = <hmac::Hmac<sha2::Sha256> as KeyInit>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(signed.as_bytes());
    mac.verify_slice(&hex::decode(v1.trim_start_matches("v1=")).unwrap())
        .is_ok()
}

struct Form {
    spec_hash: String,
    token: String,
    stored: String,
}

fn form() -> Form {
    let answered = answer(
        json!({"interrupt": interrupt("Your filing")}),
        None,
        NOW,
        Some(SECRET),
    );
    let meta = json_of(&answered.response)["meta"].clone();
    Form {
        spec_hash: meta["specHash"].as_str().unwrap().to_owned(),
        token: meta["interrupt"]["token"].as_str().unwrap().to_owned(),
        stored: answered.stored,
    }
}

#[test]
fn a_submission_naming_the_interrupt_is_answered_with_a_signed_resume_entry() {
    let form = form();
    let data = json!({"quarter": "Q1", "year": 2026});
    let body = json!({"specHash": form.spec_hash, "interruptId": "int-form",
        "interruptToken": form.token, "data": data});
    let response = submit(body.clone(), &form.stored, Some(SECRET), NOW + 60);
    assert_eq!(response.status, 200, "{}", response.body);
    let entry = json_of(&response);
    assert_eq!(entry["interruptId"], "int-form");
    assert_eq!(entry["status"], "resolved");
    assert_eq!(entry["payload"], data);
    assert_eq!(
        entry["metadata"]["genui"]["specHash"],
        json!(form.spec_hash)
    );
    assert!(entry.get("toolCallId").is_none() && entry.get("role").is_none());
    assert!(
        response.body.contains(&format!("\"payload\":{data}")),
        "the payload's text as signed: {}",
        response.body
    );
    assert!(verify(&entry, SECRET), "{entry}");
    assert!(!verify(&entry, "another secret"));
    // Checked against another schema than the agent sent: refused.
    assert!(!verify_against(&entry, SECRET, &json!({"type": "object"})));
    // Invalid data is refused as every submission is.
    let mut wrong = body.clone();
    wrong["data"] = json!({"quarter": "Q5"});
    let refused = submit(wrong, &form.stored, Some(SECRET), NOW + 60);
    assert_eq!(
        (refused.status, json_of(&refused)["code"].as_str()),
        (422, Some("submission_invalid"))
    );
    // `null` is no AG-UI payload.
    let nullable = answer(
        json!({"interrupt": {"id": "n", "reason": "x",
        "responseSchema": {"type": ["object", "null"]}}}),
        None,
        NOW,
        Some(SECRET),
    );
    let meta = json_of(&nullable.response)["meta"].clone();
    let null = submit(
        json!({"specHash": meta["specHash"], "interruptId": "n",
        "interruptToken": meta["interrupt"]["token"], "data": null}),
        &nullable.stored,
        Some(SECRET),
        NOW,
    );
    assert_eq!(
        (null.status, json_of(&null)["payload"]["pointer"].as_str()),
        (400, Some("/data"))
    );
}

#[test]
fn a_cancel_has_no_payload_and_is_still_taken_after_expiry() {
    let form = form();
    let body = json!({"specHash": form.spec_hash, "interruptId": "int-form",
        "interruptToken": form.token, "status": "cancelled"});
    for now in [NOW, NOW + 86_400] {
        let response = submit(body.clone(), &form.stored, Some(SECRET), now);
        assert_eq!(response.status, 200, "{}", response.body);
        let entry = json_of(&response);
        assert_eq!(entry["status"], "cancelled");
        assert!(entry.get("payload").is_none());
        assert!(verify(&entry, SECRET));
    }
}

#[test]
fn expired_tampered_missing_or_unconfigured_resumes_are_refused_with_their_codes() {
    let form = form();
    let body = |token: Value| {
        json!({"specHash": form.spec_hash, "interruptId": "int-form",
            "interruptToken": token, "data": {"quarter": "Q1", "year": 2026}})
    };
    let code = |response: HttpResponse| {
        let error = json_of(&response);
        (
            response.status,
            error["code"].as_str().unwrap_or_default().to_owned(),
            error["payload"]["pointer"]
                .as_str()
                .unwrap_or_default()
                .to_owned(),
        )
    };
    // At expiresAt (2026-11-25T01:00:00Z) it is gone.
    let expired = submit(
        body(json!(form.token)),
        &form.stored,
        Some(SECRET),
        NOW + 3_600,
    );
    assert_eq!(
        code(expired),
        (410, "interrupt_expired".into(), "/interruptId".into())
    );
    // A later expiry under the old signature, another id, no token.
    let (_, signature) = form.token.split_once('.').unwrap();
    let later = submit(
        body(json!(format!("9999999999.{signature}"))),
        &form.stored,
        Some(SECRET),
        NOW,
    );
    assert_eq!(
        code(later),
        (401, "invalid_signature".into(), "/interruptToken".into())
    );
    let mut other_id = body(json!(form.token));
    other_id["interruptId"] = json!("int-other");
    assert_eq!(
        code(submit(other_id, &form.stored, Some(SECRET), NOW)).0,
        401
    );
    let mut missing = body(json!(form.token));
    missing.as_object_mut().unwrap().remove("interruptToken");
    assert_eq!(
        code(submit(missing, &form.stored, Some(SECRET), NOW)).1,
        "invalid_signature"
    );
    // A token signed under another secret.
    assert_eq!(
        code(submit(
            body(json!(form.token)),
            &form.stored,
            Some("other"),
            NOW
        ))
        .0,
        401
    );
    // Without WEBHOOK_SECRET the worker cannot vouch for an answer.
    let unconfigured = submit(body(json!(form.token)), &form.stored, None, NOW);
    assert_eq!(
        code(unconfigured),
        (404, "not_found".into(), "/interruptId".into())
    );
    // The token binds the spec: `output` in its place is refused.
    let mut inline = body(json!(form.token));
    inline["output"] = schema();
    assert_eq!(
        code(submit(inline, &form.stored, Some(SECRET), NOW)).2,
        "/output"
    );
}

/// An approval's prompt (`data.action`) is the request's own, like an
/// interrupt's message: no format's per-spec memory hands one request's
/// words to the next.
#[test]
fn an_approvals_words_are_never_remembered_for_the_next_request() {
    let output = json!({"type": "object", "properties": {"approved": {"type": "boolean"}}, "required": ["approved"]});
    for format in ["a2ui", "jsonforms", "rjsf", "lmui"] {
        for action in ["Wire 10 EUR to Ada", "Wire 99 EUR to Grace"] {
            let body = json!({"description": "Approve the transfer", "kind": "confirm",
                "output": output, "data": {"action": action}});
            let job = GenerateJob::prepare(
                &serde_json::to_vec(&body).unwrap(),
                Some(format),
                &Limits::default(),
            )
            .unwrap();
            let text = job.answer(None).response.body;
            assert!(text.contains(action), "{format}: {text}");
        }
    }
}
