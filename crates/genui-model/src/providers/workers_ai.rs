//! Cloudflare Workers AI: `env.AI.run(model, inputs)` through the `AI`
//! binding ([`build_call`]), or the same inputs over the REST API when
//! `MODEL_BASE_URL` is set (`https://api.cloudflare.com/client/v4/accounts/
//! <id>/ai/run`, [`build_request`]).
//!
//! Inputs are `{messages, response_format: {type: "json_schema",
//! json_schema: <schema>}, max_tokens, temperature}` (JSON mode; the schema
//! is given directly, without OpenAI's `name`/`strict` wrapper). The reply is
//! `{response, usage?}`, where `response` is the parsed object in JSON mode
//! or a string for models that answer in text; the REST API wraps it in
//! `{result, success, errors}`. Binding failures arrive as thrown errors,
//! mapped by [`error_from_message`].
//!
//! Hand the inputs to JS with [`AiCall::inputs_as_json_string`] and
//! `JSON.parse`: a nested `serde_json::Value` converted directly reaches JS
//! as `Map`s, whose fields the binding drops (workers-rs issue 1050).

use super::error::{error_body_message, failure, invalid_output as invalid, success_json};
use super::{extract_json, tokens, AiCall, HttpRequest, ModelReply};
use crate::config::ModelConfig;
use crate::plan_schema;
use crate::prompt::Prompt;
use genui_core::{Error, ModelFailure};
use serde_json::{json, Value};

/// The inputs object for `env.AI.run`.
pub(crate) fn inputs(prompt: &Prompt) -> Value {
    let mut messages = vec![json!({"role": "system", "content": prompt.system})];
    messages.extend(
        prompt
            .turns
            .iter()
            .map(|t| json!({"role": t.role, "content": t.content})),
    );
    json!({
        "messages": messages,
        "response_format": {"type": "json_schema", "json_schema": plan_schema::for_provider()},
        "max_tokens": prompt.max_output_tokens,
        "temperature": 0,
    })
}

/// The binding call.
pub(crate) fn build_call(config: &ModelConfig, prompt: &Prompt) -> AiCall {
    AiCall {
        model: config.model.clone(),
        inputs: inputs(prompt),
    }
}

/// The same inputs over the REST API: `POST {base}/{model}`.
pub(crate) fn build_request(config: &ModelConfig, prompt: &Prompt) -> HttpRequest {
    let mut headers = Vec::new();
    if let Some(key) = &config.api_key {
        headers.push(("authorization".to_owned(), format!("Bearer {key}")));
    }
    HttpRequest::post_json(
        format!("{}/{}", config.base_url, config.model),
        headers,
        &inputs(prompt),
    )
}

/// Parses a binding result (serialised to JSON by the shell, status 200) or
/// a REST response.
pub(crate) fn parse_response(
    status: u16,
    headers: &[(String, String)],
    body: &str,
) -> Result<ModelReply, Error> {
    let value = success_json(status, headers, body, "the Workers AI result")?;
    if value.get("success") == Some(&Value::Bool(false)) {
        let text = error_body_message(body).unwrap_or_else(|| "the call failed".to_owned());
        return Err(error_from_message(&text).with_provider_status(status));
    }
    let result = value
        .get("result")
        .filter(|r| r.is_object())
        .unwrap_or(&value);
    let plan_json = match result.get("response") {
        Some(object @ Value::Object(_)) => object.clone(),
        Some(Value::String(text)) => extract_json(text).map_err(|e| e.with_model_output(text))?,
        _ => return Err(invalid("the result has no `response`")),
    };
    let usage = result.get("usage").unwrap_or(&Value::Null);
    Ok(ModelReply {
        plan_json,
        tokens_in: tokens(usage, "prompt_tokens"),
        tokens_out: tokens(usage, "completion_tokens"),
    })
}

/// Maps an error thrown by `env.AI.run` (`AiError: 3040: Capacity
/// temporarily exceeded`, ...) to a provider error.
pub(crate) fn error_from_message(message: &str) -> Error {
    let lower = message.to_ascii_lowercase();
    let kind = if ["3040", "capacity", "rate limit", "3036", "neurons"]
        .iter()
        .any(|s| lower.contains(s))
    {
        ModelFailure::RateLimited
    } else if lower.contains("timeout") || lower.contains("timed out") || lower.contains("3007") {
        ModelFailure::Timeout
    } else if lower.contains("json mode couldn't be met") {
        ModelFailure::OutputInvalid
    } else if lower.contains("authentication")
        || lower.contains("unauthorized")
        || lower.contains("10000")
    {
        ModelFailure::Auth
    } else {
        ModelFailure::Unavailable
    };
    failure(kind, format!("Workers AI failed: {message}"))
}
