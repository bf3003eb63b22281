//! The A2UI projection. In v0.9 (the default; v0.9.1's schemas accept it
//! unchanged): `{"messages": [createSurface, updateComponents,
//! updateDataModel]}`, A2UI's own `server_to_client_list_wrapper`
//! (vendored in `schemas/vendor/a2ui-v0.9/` and `a2ui-v0.9.1/`), built from
//! the basic catalog, plus the operator catalog's components for controls
//! bound to them (the surface then names that `catalogId`). In the v1.0
//! candidate (`a2uiVersion: "1.0"`): `{"messages": [createSurface]}`, one
//! message with the same components and data model inline (a data model
//! that is no object, a display's list, follows in an `updateDataModel`:
//! v1.0's inline `dataModel` is an object), for v1.0's
//! basic catalog (`agent_to_renderer_list_wrapper`, vendored in
//! `schemas/vendor/a2ui-v1.0/`). The revisions' facts are one table,
//! [`crate::terms::format::A2UI_VERSIONS`].
//!
//! The split matches ours: `updateComponents` is a pure function of the
//! cached plan and schema (no data), `updateDataModel` carries the request's
//! data. Provenance cannot travel in the messages (every envelope is
//! `additionalProperties: false`), so it goes in the `x-genui-*` headers.
//!
//! - Surface id: `genui-` + the request's `toolCallId` when it has one, else
//!   `genui-` + the first 16 hex digits of the `specHash`.
//! - Every input is bound to its data path (`/a/b`; inside a `List`
//!   template, relative to the item). Constraints of `output` become
//!   `checks` (`required`, `regex`, `length`, `numeric`, `email`), optional
//!   fields' checks wrapped as `or(not(required(v)), check)`. (v1.0's
//!   checks evaluate to a `ValidationResult`: a single check is the
//!   catalog's validation call itself; a wrapped one stays a boolean
//!   condition, as v1.0's own button example has it, and its message is
//!   the fallback the renderer shows.) Required
//!   checks are mirrored on the submit `Button`, which the renderer keeps
//!   disabled until they pass.
//! - The submit `Button` fires the event [`SUBMIT_EVENT`] with the context
//!   `{specHash, toolCallId?, data: {"path": "/"}}`: the renderer resolves
//!   `data` to the whole data model, and `/v1/submit` finds the spec by hash.
//! - A2UI v0.9 has no visibility: fields that a rule would show or hide stay
//!   visible; a rule that makes a field required is a check
//!   `or(not(condition), required(v))`, when its condition is a `const`,
//!   `enum` or `required` test (others are left to `/v1/submit`).
//!
//! Renderers write some values in their own types (a `TextField` writes
//! strings, a single `ChoicePicker` writes `["x"]`); [`coerce`] turns them
//! back by the schema before `/v1/submit` validates.
//!
//! | file | owns |
//! |---|---|
//! | `mod.rs` | the messages, the surface id, the per-spec memo of the components |
//! | `build.rs` | the component tree built from the plan |
//! | `calls.rs` | the JSON the components carry: bindings, function calls, checks, rule conditions |
//! | `model.rs` | the data model both ways: adapted to the components on the way out, coerced back on submit |
//! | `client.rs` | reading a client's action (`{version, action}`, CopilotKit's `{userAction}`) as a submission |

mod build;
mod calls;
mod client;
mod model;

pub(crate) use client::{place_decision, read_client_message};
pub(crate) use model::coerce;

use super::RenderInput as Rendered;
use crate::terms::format::A2uiVersion;
use build::Builder;
use model::{apply, Adapt, Step};
use serde_json::{Map, Value};
use std::rc::Rc;

/// The event the submit (and approval) buttons fire.
pub(crate) const SUBMIT_EVENT: &str = "genui.submit";
/// The event an array's Add button fires; context `{array: "/path"}`.
pub(crate) const ADD_ITEM_EVENT: &str = "genui.addItem";
/// The event an item's Remove button fires; context `{array, item}`.
pub(crate) const REMOVE_ITEM_EVENT: &str = "genui.removeItem";

/// The whole answer, the list wrapper, as JSON text: the shipped path.
///
/// The components are the bulk of an answer and hold no request data, so
/// an isolate keeps them as text per spec ([`Projection`]); an answer is
/// that text with the request's surface id, `toolCallId` and data model
/// around it. Copying and re-serialising the component tree instead made
/// a remembered 500-field answer cost 3.5 times JSON Forms' in wasm.
pub(crate) fn render_text(r: &Rendered<'_>, version: A2uiVersion) -> String {
    let surface = Value::String(surface_id(&r.meta)).to_string();
    let projection = Projection::of(r, version);
    let model = projection.data_model(&r.initial_data);
    let inline_model = model.is_object();
    let model = model.to_string();
    let components = match r.meta.get("toolCallId") {
        Some(id) => with_tool_call_id(&projection.components, &r.spec.spec_hash, id),
        None => projection.components.clone(),
    };
    let revision = version.revision();
    let catalog = projection
        .catalog_id
        .as_deref()
        .unwrap_or(revision.basic_catalog);
    // Keys in the order the vendored schemas list them, as `render` has them.
    match version {
        A2uiVersion::V0_9 => format!(
            concat!(
                r#"{{"messages":["#,
                r#"{{"version":"{version}","createSurface":{{"surfaceId":{surface},"catalogId":"{catalog}","sendDataModel":true}}}},"#,
                r#"{{"version":"{version}","updateComponents":{{"surfaceId":{surface},"components":{components}}}}},"#,
                r#"{{"version":"{version}","updateDataModel":{{"surfaceId":{surface},"path":"/","value":{model}}}}}"#,
                r#"]}}"#
            ),
            version = revision.wire,
            surface = surface,
            catalog = catalog,
            components = components,
            model = model,
        ),
        // v1.0's inline `dataModel` is an object: a display of a list
        // sends its data model in an `updateDataModel` after.
        A2uiVersion::V1_0 if inline_model => format!(
            concat!(
                r#"{{"messages":["#,
                r#"{{"version":"{version}","createSurface":{{"surfaceId":{surface},"catalogId":"{catalog}","sendDataModel":true,"components":{components},"dataModel":{model}}}}}"#,
                r#"]}}"#
            ),
            version = revision.wire,
            surface = surface,
            catalog = catalog,
            components = components,
            model = model,
        ),
        A2uiVersion::V1_0 => format!(
            concat!(
                r#"{{"messages":["#,
                r#"{{"version":"{version}","createSurface":{{"surfaceId":{surface},"catalogId":"{catalog}","sendDataModel":true,"components":{components}}}}},"#,
                r#"{{"version":"{version}","updateDataModel":{{"surfaceId":{surface},"path":"/","value":{model}}}}}"#,
                r#"]}}"#
            ),
            version = revision.wire,
            surface = surface,
            catalog = catalog,
            components = components,
            model = model,
        ),
    }
}

/// The whole answer as a value (benches, and callers that edit it).
pub(crate) fn render(r: &Rendered<'_>, version: A2uiVersion) -> Value {
    serde_json::from_str(&render_text(r, version)).unwrap_or(Value::Null)
}

/// Puts `toolCallId` second in each action button's context, after
/// `specHash`. In the components' JSON text, `"specHash":"<hash>",` occurs
/// only as an action context's first entry: a string value holding those
/// characters would have its quotes escaped.
fn with_tool_call_id(components: &str, spec_hash: &str, id: &Value) -> String {
    let entry = format!("\"specHash\":{},", Value::String(spec_hash.to_owned()));
    components.replace(&entry, &format!("{entry}\"toolCallId\":{id},"))
}

/// The data-free part of an answer: the components as JSON text, and how
/// the data model is adapted to them. It depends only on the spec and the
/// texts the worker writes, so an isolate builds it once per spec (the memo
/// key holds both).
struct Projection {
    components: String,
    adapts: Vec<(Vec<Step>, Adapt)>,
    /// The operator catalog's `catalogId` when a component of it is used
    /// (`None`: the basic catalog).
    catalog_id: Option<String>,
}

impl Projection {
    fn of(r: &Rendered<'_>, version: A2uiVersion) -> Rc<Self> {
        // Every per-request input the builder reads besides the spec goes
        // into the key (the language of the worker's own texts);
        // `toolCallId` is added per request instead. Each revision has
        // its own entry (their catalogs differ).
        let key = format!(
            "{}\u{0}{}\u{0}{}",
            r.spec.spec_hash,
            r.lang().tag(),
            r.catalog.map(crate::Catalog::hash).unwrap_or_default()
        );
        // Words from this request alone (a prompt, an approval's action)
        // are built each time, never remembered for the next request.
        if r.per_request_words() {
            return Rc::new(Builder::new(r, version).build(r));
        }
        let renderer = match version {
            A2uiVersion::V0_9 => "a2ui",
            A2uiVersion::V1_0 => "a2ui-v1.0",
        };
        let build = || Builder::new(r, version).build(r);
        crate::cache::memo::projection(&key, renderer, build, Self::bytes)
    }

    fn bytes(&self) -> usize {
        self.components.len()
            + self
                .adapts
                .iter()
                .map(|(steps, _)| 32 + steps.len() * 32)
                .sum::<usize>()
    }

    /// The data model: the initial data, with values that a component
    /// edits as text written as that text.
    fn data_model(&self, data: &Value) -> Value {
        let mut model = if data.is_null() {
            Value::Object(Map::new())
        } else {
            data.clone()
        };
        for (steps, how) in &self.adapts {
            apply(&mut model, steps, *how);
        }
        model
    }
}

/// The surface id: from the tool call when there is one, else from the
/// spec hash (so two answers for one call update the same surface).
pub(crate) fn surface_id(meta: &Map<String, Value>) -> String {
    match meta.get("toolCallId").and_then(Value::as_str) {
        Some(id) => format!("genui-{id}"),
        None => {
            let hash = meta
                .get("specHash")
                .and_then(Value::as_str)
                .unwrap_or_default();
            format!("genui-{}", hash.chars().take(16).collect::<String>())
        }
    }
}

/// The same messages one per line (`Accept: application/jsonl`, A2UI's
/// stream transport); `None` when `body` is not a list wrapper.
pub(crate) fn to_jsonl(body: &str) -> Option<String> {
    let value: Value = serde_json::from_str(body).ok()?;
    let messages = value.get("messages")?.as_array()?;
    Some(messages.iter().map(|m| format!("{m}\n")).collect())
}

/// The same messages as one bare JSON array (`Accept:
/// application/a2ui+json`, A2UI's media type); `None` when `body` is not a
/// list wrapper.
pub(crate) fn to_message_array(body: &str) -> Option<String> {
    let value: Value = serde_json::from_str(body).ok()?;
    let messages = value.get("messages")?.as_array()?;
    Some(Value::Array(messages.clone()).to_string())
}

/// Whether an `Accept` header asks for JSON Lines (`application/jsonl`).
pub(crate) fn wants_jsonl(accept: Option<&str>) -> bool {
    accept.is_some_and(|a| {
        a.split(',')
            .any(|t| t.trim().starts_with("application/jsonl"))
    })
}

/// A2UI messages (`format=a2ui`), in the revision the request picked.
pub(crate) struct A2ui;

impl super::FormatCompiler for A2ui {
    fn names(&self) -> &'static [&'static str] {
        &["a2ui"]
    }

    fn format(&self) -> crate::Format {
        crate::Format::A2ui(A2uiVersion::default())
    }

    fn contract(&self) -> crate::Contract {
        crate::Contract::A2uiMessages
    }

    fn render(&self, r: &Rendered<'_>, format: crate::Format) -> Value {
        render(r, revision(format))
    }

    fn render_text(&self, r: &Rendered<'_>, format: crate::Format) -> String {
        render_text(r, revision(format))
    }
}

/// The A2UI revision a request picked (its default for any other format).
fn revision(format: crate::Format) -> A2uiVersion {
    match format {
        crate::Format::A2ui(version) => version,
        _ => A2uiVersion::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn surface_ids_follow_the_tool_call_else_the_hash() {
        let mut meta = Map::new();
        meta.insert("specHash".into(), "0123456789abcdef0123".into());
        assert_eq!(surface_id(&meta), "genui-0123456789abcdef");
        meta.insert("toolCallId".into(), "call_1".into());
        assert_eq!(surface_id(&meta), "genui-call_1");
    }
}
