//! A form restored after a reload (docs/api.md, "Rendering a cached form
//! again"): a generate call, then `POST /v1/specs/<specHash>/render` with
//! other data and another format answers what a cache hit of the call
//! answers in that format; an unknown hash is 404 `spec_not_found` and a
//! malformed one 400, both at `/specHash`; on a worker with API keys
//! ([`needs_the_key`]) the route needs the key.

use super::Step;
use genui_harness::{Reply, WranglerDev};
use serde_json::{json, Value};

fn ensure(cond: bool, what: impl FnOnce() -> String) -> Step {
    if cond {
        Ok(())
    } else {
        Err(what())
    }
}

fn render_path(hash: &str) -> String {
    format!("/v1/specs/{hash}/render")
}

fn call(tag: &str, data: &Value, format: &str) -> Value {
    json!({"tool": "generateUserInterface", "toolCallId": "call_reload", "format": format,
           "arguments": {"description": format!("Who is travelling? [reload {tag}]"), "data": data,
                         "output": {"type": "object", "required": ["name"], "properties": {
                             "name": {"type": "string", "title": "Name"},
                             "seats": {"type": "integer", "minimum": 1}}}}})
}

/// The error of a reply: its status, code and pointer.
fn error_of(reply: &Reply) -> Result<(u16, String, String), String> {
    let v = reply.try_json()?;
    genui_core::Contract::DguiError
        .check(&v)
        .map_err(|e| format!("{e}: {v}"))?;
    let text = |at: &str| {
        v.pointer(at)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned()
    };
    Ok((reply.status, text("/code"), text("/payload/pointer")))
}

pub fn render_by_hash(dev: &WranglerDev, tag: &str) -> Step {
    let typed = json!({"name": "Grace", "seats": 3});
    let first = dev.post_json(
        "/v1/generate",
        &call(tag, &json!({"name": "Ada"}), "jsonforms"),
    );
    ensure(first.status == 200, || format!("generate: {first}"))?;
    let hash = first.try_json()?["meta"]["specHash"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    // The spec is stored after the response: the call again with the new
    // data and format is the hit the render must equal.
    let stored = serde_json::to_vec(&call(tag, &typed, "jsonforms")).map_err(|e| e.to_string())?;
    super::poll_hit(dev, &stored)?;
    let hit = dev.post_json("/v1/generate", &call(tag, &typed, "rjsf"));
    ensure(hit.header("x-genui-cache") == Some("hit"), || {
        format!("the call in rjsf: {hit}")
    })?;
    let render = json!({"format": "rjsf", "data": typed, "toolCallId": "call_reload"});
    let rendered = dev.post_json(&render_path(&hash), &render);
    ensure(rendered.status == 200, || format!("render: {rendered}"))?;
    ensure(rendered.body == hit.body, || {
        format!("render != hit:\n{}\n{}", rendered.body, hit.body)
    })?;
    let v = rendered.try_json()?;
    ensure(
        v["formData"] == typed && v["metadata"]["specHash"] == hash.as_str(),
        || format!("the typed values or the hash are missing: {v}"),
    )?;
    for name in ["x-genui-spec-hash", "x-genui-cache", "x-genui-generator"] {
        ensure(rendered.header(name) == hit.header(name), || {
            format!(
                "{name}: {:?} != {:?}",
                rendered.header(name),
                hit.header(name)
            )
        })?;
    }
    // `?format=` wins over the body, as on /v1/generate.
    let a2ui = dev.post_json(&format!("{}?format=a2ui", render_path(&hash)), &render);
    ensure(
        a2ui.status == 200 && a2ui.body.contains("createSurface") && a2ui.body.contains("Grace"),
        || format!("?format=a2ui: {a2ui}"),
    )?;
    let unknown = dev.post_json(&render_path(&"0".repeat(64)), &render);
    let want = (404, "spec_not_found".to_owned(), "/specHash".to_owned());
    ensure(error_of(&unknown)? == want, || {
        format!("unknown hash: {unknown}")
    })?;
    let malformed = dev.post_json(&render_path("not-a-hash"), &render);
    let want = (400, "invalid_request".to_owned(), "/specHash".to_owned());
    ensure(error_of(&malformed)? == want, || {
        format!("malformed hash: {malformed}")
    })?;
    let get = dev.get(&render_path(&hash));
    ensure(
        get.status == 405 && get.header("allow") == Some("POST"),
        || format!("GET: {get}"),
    )
}

/// With `API_KEYS` set, the route is 401 without the key.
pub fn needs_the_key(dev: &WranglerDev) -> Step {
    let anonymous = dev.post_json(&render_path(&"0".repeat(64)), &json!({}));
    ensure(anonymous.status == 401, || format!("no key: {anonymous}"))?;
    let keyed = super::e2e_protocols::request_with(
        dev,
        "POST",
        &render_path(&"0".repeat(64)),
        &json!({}),
        &[("authorization", "Bearer key-one")],
    )?;
    ensure(keyed.status == 404, || format!("with the key: {keyed}"))
}
