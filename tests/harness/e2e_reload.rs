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

/// A form edited in place (docs/api.md, "Edit a form in place"): the
/// form, then the same call with a field added and `previousSpecHash`
/// naming it. Every surviving field keeps its section and row (and the
/// same edit without `previousSpecHash` would not: else the step proves
/// nothing); the stream opens with the edited form holding the person's
/// values and patches it into the JSON answer; an unknown hash is a fresh
/// form with the warning `previous_spec_unknown`.
pub fn edit_in_place(dev: &WranglerDev, tag: &str) -> Step {
    let fields = ["firstName", "lastName", "email", "city"];
    let first = dev.post_json("/v1/generate", &edit_call(tag, &fields, None));
    ensure(first.status == 200, || format!("generate: {first}"))?;
    let first = first.try_json()?;
    let hash = first["meta"]["specHash"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    // The spec is stored after the response.
    let again = serde_json::to_vec(&edit_call(tag, &fields, None)).map_err(|e| e.to_string())?;
    super::poll_hit(dev, &again)?;
    // `street` before `city`: a fresh layout pairs it with `email`.
    let added = ["firstName", "lastName", "email", "street", "city"];
    let edit = edit_call(tag, &added, Some(&hash));
    let edited = dev.post_json("/v1/generate", &edit);
    ensure(edited.status == 200, || format!("the edit: {edited}"))?;
    let edited = edited.try_json()?;
    let fresh = dev.post_json("/v1/generate", &edit_call(tag, &added, None));
    let fresh = fresh.try_json()?;
    let (before, kept, afresh) = (
        places(&first["uiSchema"]),
        places(&edited["uiSchema"]),
        places(&fresh["uiSchema"]),
    );
    // A field moved when its group or its row partners (those in both
    // forms) changed.
    let moved = |after: &Places| -> Vec<String> {
        let partners = |scope: &str, row: &[String]| -> Vec<String> {
            let both =
                |s: &&String| *s != scope && before.contains_key(*s) && after.contains_key(*s);
            row.iter().filter(both).cloned().collect()
        };
        before
            .iter()
            .filter(|(scope, (group, row))| match after.get(*scope) {
                Some((new_group, new_row)) => {
                    group != new_group || partners(scope, row) != partners(scope, new_row)
                }
                None => false,
            })
            .map(|(scope, _)| scope.clone())
            .collect()
    };
    ensure(moved(&kept).is_empty(), || {
        format!(
            "moved by the edit: {:?}\n{}",
            moved(&kept),
            edited["uiSchema"]
        )
    })?;
    ensure(!moved(&afresh).is_empty(), || {
        format!(
            "the fresh layout keeps every place too: {}",
            fresh["uiSchema"]
        )
    })?;
    ensure(
        kept.contains_key("#/properties/street")
            && edited["meta"]["specHash"] != fresh["meta"]["specHash"]
            && edited["meta"]["warnings"].is_null(),
        || format!("the new field, the key or a warning: {}", edited["meta"]),
    )?;
    // The stream: the edited form with the person's values, then a patch.
    let (status, events) = dev.post_sse("/v1/generate", &edit, &[], None);
    let names: Vec<&str> = events.iter().map(|e| e.event.as_str()).collect();
    ensure(status == 200 && names == ["ui", "patch", "done"], || {
        format!("stream {status}: {names:?}")
    })?;
    let mut doc = events[0].data.clone();
    ensure(
        doc["meta"]["specHash"] == hash.as_str() && doc["initialData"]["firstName"] == "Ada",
        || format!("the stream opens with: {doc}"),
    )?;
    let patch: json_patch::Patch =
        serde_json::from_value(events[1].data.clone()).map_err(|e| e.to_string())?;
    json_patch::patch(&mut doc, &patch).map_err(|e| e.to_string())?;
    let (mut doc, mut edited) = (doc, edited);
    doc["meta"]["cache"] = Value::Null;
    edited["meta"]["cache"] = Value::Null;
    ensure(doc == edited, || {
        format!("patched:\n{doc}\nanswer:\n{edited}")
    })?;
    // An unknown previous spec: a fresh form, with a warning at its pointer.
    let unknown = dev.post_json(
        "/v1/generate",
        &edit_call(tag, &added, Some(&"0".repeat(64))),
    );
    let v = unknown.try_json()?;
    let warning = &v["meta"]["warnings"][0];
    ensure(
        unknown.status == 200
            && warning["code"] == "previous_spec_unknown"
            && warning["pointer"] == "/arguments/previousSpecHash"
            && v["meta"]["specHash"] == fresh["meta"]["specHash"],
        || format!("unknown previous spec: {unknown}"),
    )?;
    let malformed = dev.post_json("/v1/generate", &edit_call(tag, &added, Some("ABC")));
    let want = (
        400,
        "invalid_request".to_owned(),
        "/arguments/previousSpecHash".to_owned(),
    );
    ensure(error_of(&malformed)? == want, || {
        format!("malformed previousSpecHash: {malformed}")
    })
}

fn edit_call(tag: &str, fields: &[&str], previous: Option<&str>) -> Value {
    let properties: serde_json::Map<String, Value> = fields
        .iter()
        .map(|name| ((*name).to_owned(), json!({"type": "string"})))
        .collect();
    let mut arguments = json!({"description": format!("Your details [edit {tag}]"),
        "data": {"firstName": "Ada"},
        "output": {"type": "object", "properties": properties}});
    if let Some(hash) = previous {
        arguments["previousSpecHash"] = json!(hash);
    }
    json!({"tool": "generateUserInterface", "toolCallId": "call_edit", "arguments": arguments})
}

/// Each control's place in a JSON Forms UI schema: its group's label and
/// the scopes of its row.
type Places = std::collections::BTreeMap<String, (String, Vec<String>)>;

fn places(ui: &Value) -> Places {
    let mut out = Places::new();
    walk(ui, "", &mut out);
    out
}

fn walk(node: &Value, group: &str, out: &mut Places) {
    let elements = node["elements"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    match node["type"].as_str() {
        Some("Control") => {
            let scope = node["scope"].as_str().unwrap_or_default().to_owned();
            out.insert(scope, (group.to_owned(), Vec::new()));
        }
        Some("HorizontalLayout") => {
            let row: Vec<String> = elements
                .iter()
                .filter_map(|e| e["scope"].as_str().map(str::to_owned))
                .collect();
            for scope in &row {
                out.insert(scope.clone(), (group.to_owned(), row.clone()));
            }
        }
        Some("Group" | "Category") => {
            let label = node["label"].as_str().unwrap_or_default();
            elements.iter().for_each(|e| walk(e, label, out));
        }
        _ => elements.iter().for_each(|e| walk(e, group, out)),
    }
}
