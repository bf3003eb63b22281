//! Native A2UI for a host that renders `application/a2ui+json` (the draft
//! SEP "A2UI over MCP Apps", `a2ui-project/a2ui`
//! `specification/v1_0/extensions/mcp_apps/docs/a2ui_mcp_apps_specification.md`,
//! the revision with catalog negotiation and the HTML fallback).
//!
//! The generate tool's call is answered in A2UI v1.0 (one `createSurface`
//! with the components and data model inline), and its messages travel as
//! an `EmbeddedResource` of the tool result. The host maps an A2UI action
//! to `tools/call` with the action's `name` as the tool and its `context`
//! as the arguments, so the submit buttons' event is renamed to the submit
//! tool: their context (`specHash`, `data`, `toolCallId`) is already that
//! tool's arguments, and the submission is judged as any other call of it.
//! An approval's buttons add their choice (`decision` at `decisionPath`),
//! which [`place_decision`] writes into `data` as the A2UI action reader
//! does for `/v1/submit`.

use super::tools::SUBMIT;
use crate::error::Result;
use crate::render::a2ui::SUBMIT_EVENT;
use crate::terms::format::A2UI_MEDIA_TYPE;
use crate::terms::limits::Limits;
use serde_json::{json, Map, Value};

/// The tool arguments that make `generate_user_interface` answer in A2UI
/// v1.0, whatever format the agent asked for: the host renders nothing else.
pub(super) fn ask_for_a2ui(arguments: &mut Value) {
    if let Some(arguments) = arguments.as_object_mut() {
        arguments.insert("format".into(), "a2ui".into());
        arguments.insert("a2uiVersion".into(), "1.0".into());
    }
}

/// The submit tool's arguments from a native A2UI host's approval button:
/// its `decision` written into `data` at its `decisionPath`, and both keys
/// gone (arguments without `decisionPath` are left as they are). Errors
/// point into the tool's arguments.
pub(super) fn place_decision(arguments: &mut Value, limits: &Limits) -> Result<()> {
    let Some(context) = arguments.as_object_mut() else {
        return Ok(());
    };
    if !context.contains_key("decisionPath") {
        return Ok(());
    }
    let mut data = context.remove("data").unwrap_or_default();
    crate::render::a2ui::place_decision(context, &mut data, limits, "")?;
    context.remove("decisionPath");
    context.remove("decision");
    context.insert("data".into(), data);
    Ok(())
}

/// Adds the `/v1` answer's A2UI messages to a successful tool result as
/// an `application/a2ui+json` embedded resource (a JSON array of v1.0
/// messages); a failed result (or one without messages) is left as it is.
pub(super) fn embed(result: &mut Map<String, Value>) {
    if result.contains_key("isError") {
        return;
    }
    let Some(structured) = result.get("structuredContent") else {
        return;
    };
    let Some(Value::Array(messages)) = structured.get("spec").and_then(|s| s.get("messages"))
    else {
        return;
    };
    let hash = structured["specHash"].as_str().unwrap_or_default();
    let mut messages = Value::Array(messages.clone());
    name_submit_after_tool(&mut messages);
    let resource = json!({"type": "resource", "resource": {
        "uri": format!("a2ui://genui/form/{hash}"),
        "mimeType": A2UI_MEDIA_TYPE,
        "text": messages.to_string(),
    }});
    if let Some(Value::Array(content)) = result.get_mut("content") {
        content.push(resource);
    }
}

/// Renames every submit event (`action.event.name`) to the submit tool.
fn name_submit_after_tool(value: &mut Value) {
    match value {
        Value::Object(object) => {
            if let Some(Value::Object(event)) = object.get_mut("event") {
                if event.get("name").and_then(Value::as_str) == Some(SUBMIT_EVENT) {
                    event.insert("name".into(), SUBMIT.into());
                }
            }
            object.values_mut().for_each(name_submit_after_tool);
        }
        Value::Array(items) => items.iter_mut().for_each(name_submit_after_tool),
        _ => {}
    }
}
