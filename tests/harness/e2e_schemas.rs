//! Issue 17 under the real runtime: schemas people write get a form, in
//! the shipped wasm (bounded fancy-regex, embedded meta-schemas), and the
//! form's own values submit.

use super::Step;
use genui_harness::WranglerDev;
use serde_json::{json, Value};

fn ensure(cond: bool, what: impl FnOnce() -> String) -> Step {
    if cond {
        Ok(())
    } else {
        Err(what())
    }
}

/// A lookahead pattern, a meta-schema `$ref`, a remote `$ref` (a JSON input
/// with an `unresolved_ref` warning), a 2,000-value enum (`large_enum`) and
/// an Annex B pattern (`pattern_escaped`): answered, warned, submittable.
pub fn schemas_people_write(dev: &WranglerDev, tag: &str) -> Step {
    let rules: Vec<String> = (0..2_000).map(|i| format!("rule-{i:04}")).collect();
    let output = json!({"type": "object", "required": ["name"], "properties": {
        "name": {"type": "string", "pattern": "^(?!admin$)[a-z]+$"},
        "schema": {"$ref": "http://json-schema.org/draft-07/schema#"},
        "settings": {"$ref": "https://json.schemastore.org/base.json#/definitions/x"},
        "rule": {"type": "string", "enum": rules},
        "language": {"type": "string", "pattern": "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$"}}});
    let reply = dev.post_json(
        "/v1/generate",
        &json!({"description": format!("Issue 17. {tag}"), "data": {}, "output": output}),
    );
    let answer = reply.json();
    ensure(reply.status == 200, || {
        format!("generate: {} {}", reply.status, reply.body_excerpt())
    })?;
    let warnings: Vec<String> = answer["meta"]["warnings"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|w| {
            format!(
                "{} {}",
                w["code"].as_str().unwrap_or(""),
                w["pointer"].as_str().unwrap_or("")
            )
        })
        .collect();
    for want in [
        "unresolved_ref /output/properties/settings",
        "large_enum /output/properties/rule/enum",
        "pattern_escaped /output/properties/language/pattern",
    ] {
        ensure(warnings.iter().any(|w| w == want), || {
            format!("no `{want}` in {warnings:?}")
        })?;
    }
    let hash = answer["meta"]["specHash"].clone();
    let data = json!({"name": "ada", "schema": "{\"type\": \"string\"}", "settings": "{\"a\": [1]}", "rule": "rule-1999", "language": "en"});
    let ok = dev.post_json(
        "/v1/submit",
        &json!({"specHash": hash, "toolCallId": "call_1", "data": data}),
    );
    ensure(ok.status == 200, || {
        format!("submit: {} {}", ok.status, ok.body_excerpt())
    })?;
    let content: Value = serde_json::from_str(ok.json()["content"].as_str().unwrap_or("null"))
        .map_err(|e| e.to_string())?;
    ensure(
        content["schema"] == json!({"type": "string"}) && content["settings"] == json!({"a": [1]}),
        || format!("JSON text not read: {content}"),
    )?;
    ensure(
        ok.header("x-genui-unchecked") == Some(r#"["/settings"]"#),
        || format!("x-genui-unchecked: {:?}", ok.header("x-genui-unchecked")),
    )?;
    // The lookahead and the enum are enforced by the shipped wasm too, and
    // 10,000 hostile strings against a backreference stay bounded.
    for bad in [
        json!({"name": "admin"}),
        json!({"name": "ada", "rule": "rule-2000"}),
    ] {
        let r = dev.post_json("/v1/submit", &json!({"specHash": hash, "data": bad}));
        ensure(r.status == 422, || format!("{bad} answered {}", r.status))?;
    }
    let hostile = json!({"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string", "pattern": "^(?:(a)\\1?|a)*b$"}}}});
    let tags: Vec<String> = (0..10_000)
        .map(|i| format!("{}!", "a".repeat(30 + i % 10)))
        .collect();
    let started = std::time::Instant::now();
    let r = dev.post_json(
        "/v1/submit",
        &json!({"output": hostile, "data": {"tags": tags}}),
    );
    let took = started.elapsed();
    println!(
        "e2e: 10,000 hostile strings in one submission: {} in {took:?}",
        r.status
    );
    ensure(r.status == 422, || {
        format!("hostile submission: {} {}", r.status, r.body_excerpt())
    })
}
