//! Anthropic Messages.
//!
//! `POST {base}/v1/messages` with `x-api-key`, `anthropic-version:
//! 2023-06-01`; the plan schema is the `input_schema` of one tool,
//! `emit_ui_plan`, which `tool_choice` forces, so the plan arrives as the
//! `input` of the `tool_use` content block. `stop_reason: "max_tokens"`
//! means the plan was cut off.

use super::error::{invalid_output as invalid, status_error, success_json};
use super::{extract_json, in_context, tokens, HttpRequest, ModelReply};
use crate::config::ModelConfig;
use crate::plan_schema;
use crate::prompt::Prompt;
use genui_core::Error;
use serde_json::{json, Value};

/// The API version header value.
pub(crate) const API_VERSION: &str = "2023-06-01";

/// The forced tool's name.
pub(crate) const TOOL_NAME: &str = "emit_ui_plan";

/// The Messages request with the forced `emit_ui_plan` tool.
pub(crate) fn build_request(config: &ModelConfig, prompt: &Prompt) -> HttpRequest {
    let messages: Vec<Value> = prompt
        .turns
        .iter()
        .map(|t| json!({"role": t.role, "content": t.content}))
        .collect();
    let body = json!({
        "model": config.model,
        "max_tokens": prompt.max_output_tokens,
        "temperature": 0,
        "system": prompt.system,
        "messages": messages,
        "tools": [{
            "name": TOOL_NAME,
            "description": "Emit the UI plan for the form: sections of controls over the listed fields.",
            "input_schema": plan_schema::for_provider(),
        }],
        "tool_choice": {"type": "tool", "name": TOOL_NAME},
    });
    let mut headers = vec![("anthropic-version".to_owned(), API_VERSION.to_owned())];
    if let Some(key) = &config.api_key {
        headers.push(("x-api-key".to_owned(), key.clone()));
    }
    HttpRequest::post_json(format!("{}/v1/messages", config.base_url), headers, &body)
}

/// Parses a Messages response, or an error response.
pub(crate) fn parse_response(
    status: u16,
    headers: &[(String, String)],
    body: &str,
) -> Result<ModelReply, Error> {
    let value = success_json(status, headers, body, "the provider's response")?;
    if value.get("type").and_then(Value::as_str) == Some("error") {
        return Err(status_error(502, headers, body));
    }
    let blocks = value
        .get("content")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let tool_input = blocks
        .iter()
        .find(|b| b.get("type").and_then(Value::as_str) == Some("tool_use"))
        .and_then(|b| b.get("input"));
    let text: String = blocks
        .iter()
        .filter_map(|b| b.get("text").and_then(Value::as_str))
        .collect();
    let raw = tool_input
        .map(Value::to_string)
        .unwrap_or_else(|| text.clone());
    match value.get("stop_reason").and_then(Value::as_str) {
        Some("max_tokens") => {
            return Err(invalid("the plan was cut off at max_tokens").with_model_output(&raw))
        }
        Some("refusal") => return Err(super::chat::refused(&text)),
        _ => {}
    }
    let plan_json = match tool_input {
        Some(input @ Value::Object(_)) => input.clone(),
        Some(_) => return Err(invalid("the tool input is not an object").with_model_output(&raw)),
        None => extract_json(&text).map_err(|e| {
            in_context(e, &format!("no {TOOL_NAME} tool call; ")).with_model_output(&text)
        })?,
    };
    let usage = value.get("usage").unwrap_or(&Value::Null);
    Ok(ModelReply {
        plan_json,
        tokens_in: tokens(usage, "input_tokens"),
        tokens_out: tokens(usage, "output_tokens"),
    })
}
