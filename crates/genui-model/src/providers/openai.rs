//! OpenAI chat completions (and every server that speaks them).
//!
//! `POST {base}/chat/completions` with `authorization: Bearer <key>` and
//! `response_format: {type: "json_schema", json_schema: {name: "ui_plan",
//! strict: true, schema}}`; for servers that reject `json_schema` (a 400
//! naming `response_format`), [`build_request_json_object`] asks for
//! `{type: "json_object"}` instead; the system message carries the shape.
//! The plan is in `choices[0].message`, read by [`chat::message_plan`]
//! (content string or text parts, else the first tool call's arguments).
//!
//! No `temperature` or `max_tokens`: reasoning models reject both, and the
//! plan is bounded by the field list.

use super::error::{invalid_output as invalid, status_error, success_json};
use super::{chat, tokens, HttpRequest, ModelReply};
use crate::config::ModelConfig;
use crate::plan_schema;
use crate::prompt::Prompt;
use genui_core::Error;
use serde_json::{json, Value};

/// The request with strict `json_schema` structured output.
pub(crate) fn build_request(config: &ModelConfig, prompt: &Prompt) -> HttpRequest {
    let format = json!({
        "type": "json_schema",
        "json_schema": {"name": plan_schema::NAME, "strict": true, "schema": plan_schema::for_provider()},
    });
    request(config, prompt, format)
}

/// The fallback request with `response_format: {type: "json_object"}`.
pub(crate) fn build_request_json_object(config: &ModelConfig, prompt: &Prompt) -> HttpRequest {
    request(config, prompt, json!({"type": "json_object"}))
}

fn request(config: &ModelConfig, prompt: &Prompt, response_format: Value) -> HttpRequest {
    let mut messages = vec![json!({"role": "system", "content": prompt.system})];
    messages.extend(
        prompt
            .turns
            .iter()
            .map(|t| json!({"role": t.role, "content": t.content})),
    );
    let body =
        json!({"model": config.model, "messages": messages, "response_format": response_format});
    let mut headers = Vec::new();
    if let Some(key) = &config.api_key {
        headers.push(("authorization".to_owned(), format!("Bearer {key}")));
    }
    HttpRequest::post_json(
        format!("{}/chat/completions", config.base_url),
        headers,
        &body,
    )
}

/// Parses a chat completion, or an error response.
pub(crate) fn parse_response(
    status: u16,
    headers: &[(String, String)],
    body: &str,
) -> Result<ModelReply, Error> {
    let value = success_json(status, headers, body, "the provider's response")?;
    if value.get("error").is_some_and(|e| !e.is_null()) {
        return Err(status_error(502, headers, body));
    }
    let choice = value
        .pointer("/choices/0")
        .ok_or_else(|| invalid("the response has no choices"))?;
    let message = choice.get("message").unwrap_or(&Value::Null);
    if let Some(refusal) = message
        .get("refusal")
        .and_then(Value::as_str)
        .filter(|r| !r.trim().is_empty())
    {
        return Err(chat::refused(refusal));
    }
    match choice.get("finish_reason").and_then(Value::as_str) {
        Some("length") => {
            return Err(invalid("the plan was cut off at the output limit")
                .with_model_output(&chat::message_text(message)))
        }
        Some("content_filter") => {
            return Err(invalid("the output was withheld by a content filter"))
        }
        _ => {}
    }
    let plan_json = chat::message_plan(message)?;
    let usage = value.get("usage").unwrap_or(&Value::Null);
    Ok(ModelReply {
        plan_json,
        tokens_in: tokens(usage, "prompt_tokens"),
        tokens_out: tokens(usage, "completion_tokens"),
    })
}
