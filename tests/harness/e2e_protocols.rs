//! End-to-end steps for the wire formats of the seeds: every format as a
//! projection of one cached spec, AG-UI event streams, submissions turned
//! into tool messages, and the published tool definition and OpenAPI
//! document. Every answer is checked against its contract in `schemas/`.

use super::{poll_hit, Step};
use genui_core::Contract;
use genui_harness::{Reply, WranglerDev};
use serde_json::{json, Value};

fn ensure(cond: bool, what: impl FnOnce() -> String) -> Step {
    if cond {
        Ok(())
    } else {
        Err(what())
    }
}

fn conforms(reply: &Reply, contract: Contract) -> Result<Value, String> {
    let value = reply.try_json()?;
    contract
        .check(&value)
        .map_err(|e| format!("{e}: {}", reply.body_excerpt()))?;
    Ok(value)
}

fn flight(tag: &str) -> Value {
    json!({
        "tool": "generateUserInterface",
        "arguments": {
            "description": format!("Please provide the details for your flight booking. {tag}"),
            "data": {"returnDate": "2026-01-10"},
            "output": {
                "type": "object",
                "properties": {
                    "destinationCity": {"type": "string", "title": "Destination City", "default": "Tokyo"},
                    "departureDate": {"type": "string", "title": "Departure Date", "format": "date"},
                    "returnDate": {"type": "string", "title": "Return Date", "format": "date"}
                },
                "required": ["destinationCity", "departureDate"]
            }
        }
    })
}

/// JSON Forms first (a miss), then RJSF and LMUI: hits on the same spec.
pub fn formats_share_one_spec(dev: &WranglerDev, tag: &str) -> Step {
    let body = flight(tag);
    let first = dev.post_json("/v1/generate", &body);
    let jsonforms = conforms(&first, Contract::JsonFormsResponse)?;
    let hash = jsonforms["meta"]["specHash"].clone();
    poll_hit(dev, body.to_string().as_bytes())?;
    let rjsf = conforms(
        &dev.post_json("/v1/generate?format=rjsf", &body),
        Contract::DguiForm,
    )?;
    ensure(
        rjsf["type"] == "dgui_form"
            && rjsf["metadata"]["cache"] == "hit"
            && rjsf["metadata"]["specHash"] == hash,
        || format!("rjsf must be a hit on the same spec: {rjsf}"),
    )?;
    ensure(
        rjsf["formData"] == json!({"destinationCity": "Tokyo", "returnDate": "2026-01-10"}),
        || format!("formData: {}", rjsf["formData"]),
    )?;
    // RJSF picks the date input from `format` itself; the uiSchema only titles it.
    let departure = &rjsf["uiSchema"]["departureDate"];
    ensure(
        departure["ui:title"] == "Departure Date" && departure.get("ui:widget").is_none(),
        || format!("uiSchema: {}", rjsf["uiSchema"]),
    )?;
    let mut in_body = body.clone();
    in_body["format"] = json!("lmui");
    let lmui = conforms(
        &dev.post_json("/v1/generate", &in_body),
        Contract::LmuiMessage,
    )?;
    ensure(lmui["metadata"]["cache"] == "hit", || {
        format!("lmui must be a hit: {lmui}")
    })?;
    let types: Vec<&str> = lmui["ui_components"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["type"].as_str())
        .collect();
    ensure(
        types == ["text_input", "date_picker", "date_picker", "button"],
        || format!("components: {types:?}"),
    )?;
    let bad = dev.post_json("/v1/generate?format=svg", &body);
    ensure(
        bad.status == 400 && bad.json()["code"] == "unsupported_format",
        || format!("format=svg: {}", bad.body_excerpt()),
    )
}

/// The seed 002 event stream, reassembled; broken streams say where.
pub fn event_streams(dev: &WranglerDev, tag: &str) -> Step {
    let args = flight(tag)["arguments"].to_string();
    let (a, b) = args.split_at(args.len() / 2);
    let events = json!([
        {"type": "TOOL_CALL_START", "toolCallId": "call_123", "toolCallName": "generateUserInterface", "parentMessageId": "msg_456"},
        {"type": "TOOL_CALL_ARGS", "toolCallId": "call_123", "delta": a},
        {"type": "TOOL_CALL_ARGS", "toolCallId": "call_123", "delta": b},
        {"type": "TOOL_CALL_END", "toolCallId": "call_123"}
    ]);
    let ok = conforms(
        &dev.post_json("/v1/generate", &events),
        Contract::JsonFormsResponse,
    )?;
    ensure(ok["meta"]["toolCallId"] == "call_123", || {
        format!("toolCallId not echoed: {}", ok["meta"])
    })?;
    let mut no_end = events.clone();
    no_end.as_array_mut().map(Vec::pop);
    let mut mismatched = events.clone();
    mismatched[2]["toolCallId"] = json!("call_999");
    let mut garbled = events.clone();
    garbled[2]["delta"] = json!("}}");
    for (name, broken, code, pointer) in [
        ("no END", no_end, "invalid_event_stream", ""),
        ("mismatched id", mismatched, "invalid_event_stream", "/2"),
        ("invalid JSON", garbled, "invalid_json", ""),
    ] {
        let reply = dev.post_json("/v1/generate", &broken);
        let error = conforms(&reply, Contract::DguiError)?;
        ensure(
            reply.status == 400 && error["code"] == code && error["payload"]["pointer"] == pointer,
            || format!("{name}: {} {error}", reply.status),
        )?;
    }
    Ok(())
}

/// The data a valid submission's message carries: the tool message's
/// `content` (a submission naming its tool call), else DGUI's
/// `dgui_response`'s `data` (one naming none: no id is made up).
fn tool_content(reply: &Reply) -> Result<Value, String> {
    if reply.json().get("type").is_some() {
        return Ok(conforms(reply, Contract::DguiResponse)?["data"].clone());
    }
    let message = conforms(reply, Contract::ToolMessage)?;
    serde_json::from_str(message["content"].as_str().unwrap_or_default())
        .map_err(|e| format!("content is not JSON: {e}"))
}

/// dgui_response by specHash (schema read back from KV), LMUI values
/// unflattened, inline output; invalid data lists every field.
pub fn submissions(dev: &WranglerDev, tag: &str) -> Step {
    let body = flight(tag);
    let generated = dev.post_json("/v1/generate", &body).try_json()?;
    let hash = generated["meta"]["specHash"].clone();
    poll_hit(dev, body.to_string().as_bytes())?;
    let data = json!({"destinationCity": "Tokyo", "departureDate": "2025-12-25", "returnDate": "2026-01-10"});
    let by_hash = dev.post_json(
        "/v1/submit",
        &json!({"type": "dgui_response", "specHash": hash, "toolCallId": "call_7", "data": data}),
    );
    ensure(tool_content(&by_hash)? == data, || {
        format!("dgui_response: {}", by_hash.body_excerpt())
    })?;
    ensure(by_hash.json()["toolCallId"] == "call_7", || {
        "toolCallId not kept".into()
    })?;

    let values = json!({"destinationCity": "Osaka", "departureDate": "2025-12-24"});
    let lmui = dev.post_json(
        "/v1/submit",
        &json!({"interaction": {"type": "form_submission", "values": values}, "specHash": hash}),
    );
    ensure(tool_content(&lmui)? == values, || {
        format!("lmui: {}", lmui.body_excerpt())
    })?;

    let output = body["arguments"]["output"].clone();
    let inline = dev.post_json("/v1/submit", &json!({"output": output, "data": data}));
    ensure(tool_content(&inline)? == data, || {
        format!("inline: {}", inline.body_excerpt())
    })?;
    // No toolCallId: DGUI's response, no made-up tool call. The same JSON
    // sent as curl's -d sends it (labelled a form post) is read as JSON.
    let untold = json!({"type": "dgui_response", "data": data});
    for content_type in ["application/json", "application/x-www-form-urlencoded"] {
        let reply = request_bytes(
            dev,
            "POST",
            "/v1/submit",
            json!({"specHash": hash, "data": data})
                .to_string()
                .into_bytes(),
            &[("content-type", content_type)],
        )?;
        ensure(reply.status == 200 && reply.json() == untold, || {
            format!("no toolCallId, {content_type}: {}", reply.body_excerpt())
        })?;
    }
    let neither = request_bytes(
        dev,
        "POST",
        "/v1/submit",
        b"name=Ada".to_vec(),
        &[("content-type", "application/x-www-form-urlencoded")],
    )?;
    ensure(
        neither.status == 400
            && neither.json()["code"] == "invalid_request"
            && neither.json()["payload"]["pointer"] == "/_specHash",
        || format!("neither JSON nor a form post: {}", neither.body_excerpt()),
    )?;

    let invalid = dev.post_json(
        "/v1/submit",
        &json!({"specHash": hash, "data": {"departureDate": "25/12/2025"}}),
    );
    let error = conforms(&invalid, Contract::DguiError)?;
    let mut pointers: Vec<&str> = error["payload"]["errors"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|e| e["pointer"].as_str())
        .collect();
    pointers.sort();
    ensure(
        invalid.status == 422
            && error["code"] == "submission_invalid"
            && pointers == ["/departureDate", "/destinationCity"],
        || format!("invalid submission: {} {error}", invalid.status),
    )?;
    let unknown = dev.post_json(
        "/v1/submit",
        &json!({"specHash": "0".repeat(64), "data": {}}),
    );
    ensure(
        unknown.status == 404 && unknown.json()["code"] == "spec_not_found",
        || format!("unknown hash: {}", unknown.body_excerpt()),
    )
}

/// What a browser sends when it navigates (a form post).
const BROWSER_ACCEPT: &str = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

/// The value of the hidden field `name` in a served `format=html` page.
fn hidden_field(page: &str, name: &str) -> Option<String> {
    let marker = format!(r#"type="hidden" name="{name}" value=""#);
    let start = page.find(&marker)? + marker.len();
    let end = page[start..].find('"')? + start;
    Some(html_escape::decode_html_entities(&page[start..end]).into_owned())
}

/// The `format=html` form as a person's browser posts it: the page's
/// hidden fields and the person's input, urlencoded, with `accept`.
fn post_html_form(
    dev: &WranglerDev,
    page: &str,
    input: &[(&str, &str)],
    accept: &str,
) -> Result<Reply, String> {
    let mut form = form_urlencoded::Serializer::new(String::new());
    for name in ["_specHash", "_toolCallId", "_locale"] {
        let value = hidden_field(page, name).ok_or_else(|| format!("no hidden {name}"))?;
        form.append_pair(name, &value);
    }
    for (name, value) in input {
        form.append_pair(name, value);
    }
    request_bytes(
        dev,
        "POST",
        "/v1/submit",
        form.finish().into_bytes(),
        &[
            ("content-type", "application/x-www-form-urlencoded"),
            ("accept", accept),
        ],
    )
}

/// A `format=html` form (German) posted to `/v1/submit` by a browser gets
/// pages: the form again with the errors and the input kept, escaped
/// (422), then a thank-you carrying the tool message for the framing page
/// (200); the same posts with `Accept: application/json` get today's JSON.
pub fn html_form_posts(dev: &WranglerDev, tag: &str) -> Step {
    let mut body = flight(tag);
    body["locale"] = json!("de");
    body["toolCallId"] = json!("call_html_e2e");
    let served = dev.post_json("/v1/generate?format=html", &body);
    ensure(served.status == 200, || {
        format!("format=html: {}", served.body_excerpt())
    })?;
    poll_hit(dev, body.to_string().as_bytes())?;
    let page = served.body.as_str();
    ensure(
        hidden_field(page, "_locale").as_deref() == Some("de"),
        || "the form carries no _locale".into(),
    )?;
    let hostile = r#"<script>alert("x")</script>"#;
    let bad = [
        ("/destinationCity", hostile),
        ("/departureDate", "25/12/2025"),
    ];
    let again = post_html_form(dev, page, &bad, BROWSER_ACCEPT)?;
    let html_type = |r: &Reply| r.header("content-type") == Some("text/html; charset=utf-8");
    ensure(again.status == 422 && html_type(&again), || {
        format!(
            "refused post: {} {:?}",
            again.status,
            again.header("content-type")
        )
    })?;
    ensure(
        again.header("content-security-policy").is_some_and(|c| {
            c.starts_with("default-src 'none'") && c.ends_with("frame-ancestors *")
        }),
        || format!("policy: {:?}", again.header("content-security-policy")),
    )?;
    ensure(
        !again.body.contains(hostile)
            && again
                .body
                .contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;")
            && again.body.contains(r#"<html lang="de">"#)
            && again
                .body
                .contains("Geben Sie einen Wert im Format date ein.")
            && again.body.contains(r#"aria-invalid="true""#),
        || format!("the form again: {}", again.body_excerpt()),
    )?;
    let good = [
        ("/destinationCity", "Osaka"),
        ("/departureDate", "2025-12-24"),
    ];
    let thanks = post_html_form(dev, page, &good, BROWSER_ACCEPT)?;
    ensure(
        thanks.status == 200
            && html_type(&thanks)
            && thanks
                .body
                .contains("Vielen Dank. Ihre Antwort ist eingegangen."),
        || format!("accepted post: {} {}", thanks.status, thanks.body_excerpt()),
    )?;
    let carried = {
        let marker = r#"id="genui-tool-message" hidden data-message=""#;
        let start = thanks
            .body
            .find(marker)
            .ok_or("no tool message on the page")?
            + marker.len();
        let end = thanks.body[start..].find('"').ok_or("unterminated")? + start;
        html_escape::decode_html_entities(&thanks.body[start..end]).into_owned()
    };
    let carried: Value = serde_json::from_str(&carried).map_err(|e| format!("carried: {e}"))?;
    let data = json!({"destinationCity": "Osaka", "departureDate": "2025-12-24"});
    let content = |m: &Value| serde_json::from_str::<Value>(m["content"].as_str().unwrap_or(""));
    ensure(
        carried["toolCallId"] == "call_html_e2e" && content(&carried).ok() == Some(data.clone()),
        || format!("carried tool message: {carried}"),
    )?;
    let as_json = post_html_form(dev, page, &good, "application/json")?;
    let message = conforms(&as_json, Contract::ToolMessage)?;
    ensure(
        as_json.status == 200
            && message["toolCallId"] == "call_html_e2e"
            && content(&message).ok() == Some(data),
        || format!("JSON caller: {}", as_json.body_excerpt()),
    )?;
    let refused = post_html_form(dev, page, &bad, "application/json")?;
    let error = conforms(&refused, Contract::DguiError)?;
    ensure(
        refused.status == 422 && error["code"] == "submission_invalid",
        || format!("JSON caller, refused: {}", refused.body_excerpt()),
    )
}

/// The approval round trip: buttons in LMUI, the button's value submitted.
pub fn approval_round_trip(dev: &WranglerDev, tag: &str) -> Step {
    let body = json!({"description": format!("Ask before deleting. {tag}"), "data": {"action": "Delete 500 old files", "importance": "high"},
        "output": {"type": "string", "enum": ["approved", "rejected"]}, "format": "lmui"});
    let lmui = conforms(&dev.post_json("/v1/generate", &body), Contract::LmuiMessage)?;
    let approve = lmui["ui_components"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|c| c["action"] == "approve")
        .cloned()
        .unwrap_or_default();
    ensure(
        approve["type"] == "button"
            && lmui["response_text"]
                .as_str()
                .is_some_and(|t| t.contains("Delete 500 old files")),
        || format!("no approve button: {lmui}"),
    )?;
    let submitted = dev.post_json(
        "/v1/submit",
        &json!({"output": body["output"],
        "interaction": {"type": "button_click", "id": approve["id"], "value": approve["value"]}}),
    );
    ensure(tool_content(&submitted)? == json!("approved"), || {
        format!("approval: {}", submitted.body_excerpt())
    })
}

/// GET /v1/tool, /openapi.json and /schemas/*.
pub fn published_documents(dev: &WranglerDev) -> Step {
    let tool = dev.get("/v1/tool").try_json()?;
    let description = tool["description"].as_str().unwrap_or_default();
    ensure(
        tool["name"] == "generateUserInterface"
            && !description.is_empty()
            && description.len() <= 1024,
        || format!("tool: {tool}"),
    )?;
    ensure(
        !tool.to_string().contains("$ref") && !tool.to_string().contains("oneOf"),
        || "tool parameters use $ref/oneOf".into(),
    )?;
    let openapi = dev.get("/openapi.json").try_json()?;
    ensure(
        openapi["openapi"] == "3.1.0" && openapi["paths"]["/v1/submit"].is_object(),
        || "openapi.json incomplete".into(),
    )?;
    every_documented_path_reaches_the_worker(dev, &openapi)?;
    for &contract in Contract::ALL {
        let served = dev.get(&format!("/schemas/{}", contract.file_name()));
        let same = served.try_json()?
            == serde_json::from_str::<Value>(contract.source()).map_err(|e| e.to_string())?;
        ensure(served.status == 200 && same, || {
            format!("/schemas/{} differs", contract.file_name())
        })?;
    }
    Ok(())
}

/// Every path of the OpenAPI document (`/mcp` among them), asked with a
/// method it does not take, is answered by the worker, not by the static
/// assets: a `405` `dgui_error` whose `Allow` lists the document's methods
/// (and `HEAD` beside `GET`).
fn every_documented_path_reaches_the_worker(dev: &WranglerDev, openapi: &Value) -> Step {
    let paths = openapi["paths"].as_object().cloned().unwrap_or_default();
    ensure(paths.contains_key("/mcp"), || {
        format!("openapi.json lacks /mcp: {:?}", paths.keys())
    })?;
    let schema = Contract::DguiError.file_name();
    for (template, operations) in &paths {
        let path = template
            .replace("{token}", "not-a-token")
            .replace("{name}", schema);
        let mut allow: Vec<String> = Vec::new();
        for method in operations.as_object().into_iter().flat_map(|o| o.keys()) {
            allow.push(method.to_ascii_uppercase());
            if method == "get" {
                allow.push("HEAD".into());
            }
        }
        let reply = dev.request("PATCH", &path, None);
        let error = conforms(&reply, Contract::DguiError)?;
        let listed: Vec<String> = reply
            .header("allow")
            .unwrap_or_default()
            .split(", ")
            .map(str::to_owned)
            .collect();
        ensure(
            reply.status == 405 && error["code"] == "method_not_allowed" && listed == allow,
            || {
                format!(
                    "PATCH {path}: {} {error}, Allow {listed:?} (want {allow:?})",
                    reply.status
                )
            },
        )?;
    }
    Ok(())
}

/// API keys and CORS, on a worker started with `API_KEYS` and
/// `ALLOWED_ORIGINS` set.
pub fn keys_and_cors(dev: &WranglerDev) -> Step {
    let body = json!({"output": {"type": "object", "properties": {"a": {"type": "string"}}}});
    let anonymous = dev.post_json("/v1/generate", &body);
    let error = conforms(&anonymous, Contract::DguiError)?;
    ensure(
        anonymous.status == 401
            && error["code"] == "unauthorized"
            && anonymous.header("www-authenticate").is_some(),
        || format!("no key: {} {error}", anonymous.status),
    )?;
    let wrong = request_with(
        dev,
        "POST",
        "/v1/generate",
        &body,
        &[("authorization", "Bearer nope")],
    )?;
    ensure(wrong.status == 401, || {
        format!("wrong key: {}", wrong.status)
    })?;
    let right = request_with(
        dev,
        "POST",
        "/v1/generate",
        &body,
        &[
            ("authorization", "Bearer key-two"),
            ("origin", "https://app.example"),
        ],
    )?;
    ensure(
        right.status == 200
            && right.header("access-control-allow-origin") == Some("https://app.example"),
        || {
            format!(
                "good key + allowed origin: {} {:?}",
                right.status, right.headers
            )
        },
    )?;
    let evil = request_with(
        dev,
        "POST",
        "/v1/generate",
        &body,
        &[
            ("authorization", "Bearer key-one"),
            ("origin", "https://evil.example"),
        ],
    )?;
    ensure(
        evil.status == 200 && evil.header("access-control-allow-origin").is_none(),
        || "a disallowed origin got CORS headers".into(),
    )?;
    let preflight = request_with(
        dev,
        "OPTIONS",
        "/v1/generate",
        &Value::Null,
        &[
            ("origin", "https://app.example"),
            ("access-control-request-method", "POST"),
        ],
    )?;
    ensure(
        preflight.status == 204 && preflight.header("access-control-allow-methods").is_some(),
        || format!("preflight: {} {:?}", preflight.status, preflight.headers),
    )?;
    let health = dev.get("/healthz");
    ensure(health.status == 200, || "healthz must stay public".into())
}

/// On a worker started as `./scripts/dev.sh` starts it: a frontend on
/// `localhost` or `127.0.0.1`, any port, gets CORS headers; another origin
/// gets none, and `/mcp` still refuses it (403, naming the Origin).
pub fn dev_sh_origins(dev: &WranglerDev) -> Step {
    let body = json!({"output": {"type": "object", "properties": {"a": {"type": "string"}}}});
    for origin in ["http://localhost:3000", "http://127.0.0.1:5173"] {
        let answer = request_with(dev, "POST", "/v1/generate", &body, &[("origin", origin)])?;
        ensure(
            answer.status == 200 && answer.header("access-control-allow-origin") == Some(origin),
            || format!("{origin}: {} {:?}", answer.status, answer.headers),
        )?;
    }
    let preflight = request_with(
        dev,
        "OPTIONS",
        "/v1/generate",
        &Value::Null,
        &[
            ("origin", "http://localhost:3000"),
            ("access-control-request-method", "POST"),
        ],
    )?;
    ensure(
        preflight.status == 204
            && preflight.header("access-control-allow-origin") == Some("http://localhost:3000"),
        || format!("preflight: {} {:?}", preflight.status, preflight.headers),
    )?;
    let evil = request_with(
        dev,
        "POST",
        "/v1/generate",
        &body,
        &[("origin", "http://evil.example")],
    )?;
    ensure(
        evil.status == 200 && evil.header("access-control-allow-origin").is_none(),
        || format!("http://evil.example got CORS headers: {:?}", evil.headers),
    )?;
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "e2e", "version": "1.0.0"}}});
    let refused = request_with(
        dev,
        "POST",
        "/mcp",
        &initialize,
        &[("origin", "http://evil.example")],
    )?;
    let message = refused.try_json()?["error"]["message"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    ensure(
        refused.status == 403
            && message.contains("http://evil.example")
            && message.contains("MCP_ALLOWED_ORIGINS"),
        || {
            format!(
                "/mcp from http://evil.example: {} {}",
                refused.status, refused.body
            )
        },
    )?;
    let local = request_with(
        dev,
        "POST",
        "/mcp",
        &initialize,
        &[("origin", "http://localhost:3000")],
    )?;
    ensure(local.status == 200, || {
        format!(
            "/mcp from http://localhost:3000: {} {}",
            local.status, local.body
        )
    })
}

pub(crate) fn request_with(
    dev: &WranglerDev,
    method: &str,
    path: &str,
    body: &Value,
    headers: &[(&str, &str)],
) -> Result<Reply, String> {
    let payload = if body.is_null() {
        Vec::new()
    } else {
        body.to_string().into_bytes()
    };
    request_bytes(dev, method, path, payload, headers)
}

/// `method path` with `payload` as the body and `headers` as given.
fn request_bytes(
    dev: &WranglerDev,
    method: &str,
    path: &str,
    payload: Vec<u8>,
    headers: &[(&str, &str)],
) -> Result<Reply, String> {
    let url = format!("{}{path}", dev.base_url());
    let mut builder = ureq::http::Request::builder().method(method).uri(&url);
    for (name, value) in headers {
        builder = builder.header(*name, *value);
    }
    let request = builder.body(payload).map_err(|e| e.to_string())?;
    let mut response = dev.agent().run(request).map_err(|e| e.to_string())?;
    let status = response.status().as_u16();
    let headers = response
        .headers()
        .iter()
        .map(|(k, v)| {
            (
                k.as_str().to_owned(),
                v.to_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    let body = response.body_mut().read_to_string().unwrap_or_default();
    Ok(Reply {
        status,
        headers,
        body,
    })
}

/// Signed webhooks (`WEBHOOK_SECRET` set on the guarded worker) and a signed
/// callback to a listener on 127.0.0.1 (`WEBHOOK_ALLOW_HTTP_CALLBACKS`).
pub fn signed_webhooks(dev: &WranglerDev, secret: &str) -> Step {
    use genui_core::Webhook;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or_default();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    let port = listener.local_addr().map_err(|e| e.to_string())?.port();
    let body = json!({"tool": "generateUserInterface", "callbackUrl": format!("http://127.0.0.1:{port}/hook"),
        "arguments": {"description": "webhook", "output": {"type": "object", "properties": {"a": {"type": "string"}}}}});
    let bytes = body.to_string();
    let post = |signature: Option<String>| {
        let headers: Vec<(&str, &str)> = signature
            .as_deref()
            .map(|s| vec![(Webhook::SIGNATURE_HEADER, s)])
            .unwrap_or_default();
        request_with(dev, "POST", "/v1/webhook", &body, &headers)
    };
    let unsigned = post(None)?;
    ensure(
        unsigned.status == 401 && unsigned.json()["code"] == "invalid_signature",
        || format!("unsigned: {}", unsigned.body_excerpt()),
    )?;
    let stale = post(Some(Webhook::sign(secret, now - 301, bytes.as_bytes())))?;
    ensure(stale.status == 401, || format!("stale: {}", stale.status))?;
    let forged = post(Some(Webhook::sign("not-the-secret", now, bytes.as_bytes())))?;
    ensure(forged.status == 401, || {
        format!("forged: {}", forged.status)
    })?;
    let signed = post(Some(Webhook::sign(secret, now, bytes.as_bytes())))?;
    let answer = conforms(&signed, Contract::JsonFormsResponse)?;
    // The callback: a signed POST carrying the same answer; the endpoint
    // fails the first attempt, and the outbox sends it again, same id.
    listener.set_nonblocking(false).map_err(|e| e.to_string())?;
    let (first_head, first) = read_one_callback(
        &listener,
        b"HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
    )?;
    let (head, payload) = read_one_callback(
        &listener,
        b"HTTP/1.1 204 No Content\r\nconnection: close\r\n\r\n",
    )?;
    let header = |head: &str, wanted: &str| {
        head.lines().find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case(wanted)
                .then(|| value.trim().to_owned())
        })
    };
    let signature = header(&head, Webhook::SIGNATURE_HEADER);
    Webhook::verify_callback(signature.as_deref(), payload.as_bytes(), secret, now)
        .map_err(|e| format!("callback signature: {e}"))?;
    let delivery_id = header(&head, "x-genui-delivery-id");
    ensure(
        first == payload
            && delivery_id.is_some()
            && header(&first_head, "x-genui-delivery-id") == delivery_id,
        || {
            format!(
                "a failed callback is retried with the same body and delivery id: {delivery_id:?}"
            )
        },
    )?;
    let delivered: Value = serde_json::from_str(&payload).map_err(|e| e.to_string())?;
    ensure(
        delivered["meta"]["specHash"] == answer["meta"]["specHash"],
        || "the callback carried another answer".into(),
    )?;
    webhooks_once_and_fresh(dev, secret, &body, now)
}

/// A signed webhook is accepted once (the same request again, even with its
/// header reordered, is `webhook_replayed`), and a timestamp ahead of the
/// worker's clock only within the 30 s skew.
fn webhooks_once_and_fresh(dev: &WranglerDev, secret: &str, signed_body: &Value, now: u64) -> Step {
    use genui_core::Webhook;
    let post = |body: &Value, signature: &str| {
        request_with(
            dev,
            "POST",
            "/v1/webhook",
            body,
            &[(Webhook::SIGNATURE_HEADER, signature)],
        )
    };
    let signature = Webhook::sign(secret, now, signed_body.to_string().as_bytes());
    let replayed = post(signed_body, &signature)?;
    let error = conforms(&replayed, Contract::DguiError)?;
    ensure(
        replayed.status == 409 && error["code"] == "webhook_replayed",
        || format!("the same signed request again: {} {error}", replayed.status),
    )?;
    let (t, v1) = signature
        .split_once(',')
        .ok_or("a signature header has two parts")?;
    let reordered = post(signed_body, &format!("{v1},{t}"))?;
    ensure(reordered.status == 409, || {
        format!("the same signature, header reordered: {}", reordered.status)
    })?;
    // Fresh requests without a callback: the skew.
    let body = json!({"tool": "generateUserInterface", "arguments": {"description": "webhook skew", "output": {"type": "object", "properties": {"a": {"type": "string"}}}}});
    let bytes = body.to_string();
    let ahead_60 = post(&body, &Webhook::sign(secret, now + 60, bytes.as_bytes()))?;
    let error = conforms(&ahead_60, Contract::DguiError)?;
    ensure(
        ahead_60.status == 401 && error["code"] == "invalid_signature",
        || format!("+60 s: {} {error}", ahead_60.status),
    )?;
    let ahead_10 = post(&body, &Webhook::sign(secret, now + 10, bytes.as_bytes()))?;
    ensure(ahead_10.status == 200, || {
        format!("+10 s must be accepted: {}", ahead_10.body_excerpt())
    })?;
    let again = post(&body, &Webhook::sign(secret, now + 10, bytes.as_bytes()))?;
    ensure(again.status == 409, || {
        format!("+10 s again: {}", again.status)
    })
}

/// Accepts one callback on `listener` (blocking, up to 30 s for the data),
/// answers it with `reply`; its head and body.
fn read_one_callback(
    listener: &std::net::TcpListener,
    reply: &[u8],
) -> Result<(String, String), String> {
    use std::io::{Read, Write};
    let (mut stream, _) = listener
        .accept()
        .map_err(|e| format!("no callback arrived: {e}"))?;
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(30)))
        .map_err(|e| e.to_string())?;
    let mut raw = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        let n = stream.read(&mut buf).map_err(|e| e.to_string())?;
        raw.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&raw);
        if let Some(split) = text.find("\r\n\r\n") {
            let length = text[..split].lines().find_map(|l| {
                l.to_ascii_lowercase()
                    .strip_prefix("content-length:")
                    .map(|v| v.trim().parse::<usize>().unwrap_or(0))
            });
            if n == 0 || raw.len() >= split + 4 + length.unwrap_or(0) {
                break;
            }
        }
        if n == 0 {
            break;
        }
    }
    let _ = stream.write_all(reply);
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, payload) = text.split_once("\r\n\r\n").ok_or("malformed callback")?;
    Ok((head.to_owned(), payload.to_owned()))
}

/// The rate-limiting binding: five requests a minute per caller, then 429.
pub fn rate_limits(dev: &WranglerDev) -> Step {
    let body = json!({"output": {"type": "object", "properties": {"a": {"type": "string"}}}});
    let statuses: Vec<u16> = (0..8)
        .map(|_| dev.post_json("/v1/generate", &body).status)
        .collect();
    ensure(statuses[..5].iter().all(|s| *s == 200), || {
        format!("the first five must pass: {statuses:?}")
    })?;
    let limited = dev.post_json("/v1/generate", &body);
    let error = conforms(&limited, Contract::DguiError)?;
    ensure(
        limited.status == 429
            && error["code"] == "rate_limited"
            && limited.header("retry-after").is_some(),
        || {
            format!(
                "over budget: {} {error} (statuses {statuses:?})",
                limited.status
            )
        },
    )?;
    let other_key = request_with(
        dev,
        "POST",
        "/v1/generate",
        &body,
        &[("authorization", "Bearer another-caller")],
    )?;
    ensure(other_key.status == 200, || {
        format!("another caller has its own budget: {}", other_key.status)
    })
}

/// The A2UI revisions over HTTP, through the shell's query and `Accept`:
/// `Accept: application/a2ui+json` answers the messages as a bare array
/// under that content type (provenance in the headers); `?a2uiVersion=1.0`
/// and `Accept: application/a2ui+json; version=1.0` answer v1.0's one
/// `createSurface`, which A2UI v1.0's schemas accept, and its submit action
/// in v1.0's shape is accepted; an unknown revision is a 400 at its place.
pub fn a2ui_revisions(dev: &WranglerDev, tag: &str) -> Step {
    let body = flight(tag);
    let media = "application/a2ui+json";
    let bare = request_with(
        dev,
        "POST",
        "/v1/generate?format=a2ui",
        &body,
        &[("accept", media)],
    )?;
    let array = bare.try_json().map_err(|e| format!("a2ui+json: {e}"))?;
    ensure(
        bare.status == 200
            && bare.header("content-type") == Some(media)
            && array[0]["version"] == "v0.9"
            && bare
                .header("x-genui-spec-hash")
                .is_some_and(|h| h.len() == 64),
        || format!("a2ui+json ({:?}): {}", bare.headers, bare.body_excerpt()),
    )?;
    super::a2ui_schema::V0_9_1
        .check(&json!({"messages": array}))
        .map_err(|e| format!("A2UI v0.9.1's schemas reject the array: {e}"))?;

    let by_query = dev.post_json("/v1/generate?format=a2ui&a2uiVersion=1.0", &body);
    let v1 = conforms(&by_query, Contract::A2uiMessages)?;
    super::a2ui_schema::V1_0
        .check(&v1)
        .map_err(|e| format!("A2UI v1.0's schemas reject the answer: {e}"))?;
    let by_accept = request_with(
        dev,
        "POST",
        "/v1/generate?format=a2ui",
        &body,
        &[("accept", "application/a2ui+json; version=1.0")],
    )?;
    ensure(
        by_accept.status == 200 && by_accept.json() == v1["messages"],
        || format!("Accept version=1.0: {}", by_accept.body_excerpt()),
    )?;
    let surface = &v1["messages"][0]["createSurface"];
    let submit = surface["components"]
        .as_array()
        .and_then(|c| c.iter().find(|c| c["id"] == "submit"))
        .ok_or("no v1.0 submit button")?;
    let mut context = submit["action"]["event"]["context"].clone();
    context["data"] = json!({"destinationCity": "Osaka", "departureDate": "2026-01-03"});
    let action = json!({"version": "v1.0", "action": {"name": "genui.submit", "surfaceId": surface["surfaceId"],
        "sourceComponentId": "submit", "timestamp": "2026-11-25T04:03:44.839Z", "context": context}});
    super::a2ui_schema::V1_0.check_client(&action)?;
    let reply = conforms(
        &dev.post_json("/v1/submit", &action),
        Contract::DguiResponse,
    )?;
    ensure(reply["data"]["destinationCity"] == "Osaka", || {
        format!("v1.0 submission: {reply}")
    })?;

    let unknown = dev.post_json("/v1/generate?format=a2ui&a2uiVersion=2", &body);
    ensure(
        unknown.status == 400 && unknown.json()["payload"]["pointer"] == "?a2uiVersion",
        || format!("unknown revision: {}", unknown.body_excerpt()),
    )
}

/// `format=a2ui` over HTTP: the list wrapper A2UI's own schemas accept,
/// provenance in headers, a cache hit on the same spec, the JSONL transport,
/// and the submit button's action posted back as a renderer sends it, with
/// the renderer's value types (text for numbers, `["x"]` for a choice).
pub fn a2ui_round_trip(dev: &WranglerDev, tag: &str) -> Step {
    let mut body = flight(tag);
    body["arguments"]["output"]["properties"]["passengers"] =
        json!({"type": "integer", "minimum": 1, "title": "Passengers"});
    body["arguments"]["output"]["properties"]["cabin"] =
        json!({"type": "string", "enum": ["economy", "business"]});
    body["arguments"]["output"]["required"] =
        json!(["destinationCity", "departureDate", "passengers"]);
    let first = dev.post_json("/v1/generate?format=a2ui", &body);
    let answer = conforms(&first, Contract::A2uiMessages)?;
    super::a2ui_schema::check_wrapper(&answer)
        .map_err(|e| format!("A2UI's schemas reject the answer: {e}"))?;
    let hash = first
        .header("x-genui-spec-hash")
        .unwrap_or_default()
        .to_owned();
    ensure(
        hash.len() == 64 && first.header("x-genui-warnings") == Some("[]"),
        || format!("provenance headers: {:?}", first.headers),
    )?;
    let messages = answer["messages"].clone();
    // The request's data, and "" for the empty text field (see render/a2ui.rs: `Adapt::Empty`).
    ensure(
        messages[2]["updateDataModel"]["value"]
            == json!({"destinationCity": "Tokyo", "returnDate": "2026-01-10", "passengers": ""}),
        || format!("data model: {}", messages[2]),
    )?;
    poll_hit(dev, body.to_string().as_bytes())?;
    let again = dev.post_json("/v1/generate?format=a2ui", &body);
    ensure(
        again.header("x-genui-cache") == Some("hit") && again.json()["messages"][1] == messages[1],
        || {
            format!(
                "the second a2ui answer must be a hit with the same components: {}",
                again.body_excerpt()
            )
        },
    )?;
    let url = format!("{}/v1/generate?format=a2ui", dev.base_url());
    let mut lines = dev
        .agent()
        .post(&url)
        .header("content-type", "application/json")
        .header("accept", "application/jsonl")
        .send(body.to_string().as_bytes())
        .map_err(|e| format!("jsonl request: {e}"))?;
    let content_type = lines
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let text = lines
        .body_mut()
        .read_to_string()
        .map_err(|e| e.to_string())?;
    let parsed: Vec<Value> = text
        .lines()
        .map(serde_json::from_str)
        .collect::<Result<_, _>>()
        .map_err(|e| format!("jsonl: {e}: {text}"))?;
    ensure(
        content_type.starts_with("application/jsonl") && Value::Array(parsed) == messages,
        || format!("jsonl ({content_type}): {text}"),
    )?;

    let components = messages[1]["updateComponents"]["components"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let submit = components
        .iter()
        .find(|c| c["id"] == "submit")
        .ok_or("no submit button")?;
    let mut context = submit["action"]["event"]["context"].clone();
    ensure(
        context["specHash"] == hash.as_str() && context["data"] == json!({"path": "/"}),
        || format!("submit context: {context}"),
    )?;
    context["data"] = json!({"destinationCity": "Osaka", "departureDate": "2026-01-03", "passengers": "2", "cabin": ["business"]});
    let action = json!({"version": "v0.9", "action": {"name": "genui.submit", "surfaceId": messages[0]["createSurface"]["surfaceId"],
        "sourceComponentId": "submit", "timestamp": "2026-11-25T04:03:44.839Z", "context": context}});
    super::a2ui_schema::check_client_message(&action)?;
    // The surface was made for no tool call: DGUI's response carries the data.
    let reply = conforms(
        &dev.post_json("/v1/submit", &action),
        Contract::DguiResponse,
    )?;
    let content = reply["data"].clone();
    ensure(
        content
            == json!({"destinationCity": "Osaka", "departureDate": "2026-01-03", "passengers": 2, "cabin": "business"}),
        || format!("submitted content: {content}"),
    )?;
    let mut invalid = action.clone();
    invalid["action"]["context"]["data"]["passengers"] = json!("0");
    let rejected = dev.post_json("/v1/submit", &invalid);
    ensure(
        rejected.status == 422
            && rejected.json()["payload"]["errors"][0]["pointer"] == "/passengers",
        || format!("422: {}", rejected.body_excerpt()),
    )?;
    let error = json!({"version": "v0.9", "error": {"code": "VALIDATION_FAILED", "surfaceId": "s", "path": "/x", "message": "bad"}});
    let refused = dev.post_json("/v1/submit", &error);
    ensure(
        refused.status == 400 && refused.json()["payload"]["pointer"] == "/error",
        || format!("client error: {}", refused.body_excerpt()),
    )?;
    let mut unknown = action.clone();
    unknown["action"]["context"]["specHash"] = json!("0".repeat(64));
    unknown["action"]["surfaceId"] = json!("genui-0000000000000000");
    let missing = dev.post_json("/v1/submit", &unknown);
    ensure(
        missing.status == 404 && missing.json()["code"] == "spec_not_found",
        || format!("unknown hash: {}", missing.body_excerpt()),
    )
}
