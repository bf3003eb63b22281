//! The one place that reads a plan out of an OpenAI-compatible chat
//! message, as OpenAI, vLLM, Ollama, LM Studio and llama.cpp really send
//! it (the operator-configured `http` generators reuse it):
//!
//! - `content` as a string: the JSON in it (fenced, chatty, with a BOM:
//!   [`super::extract_json`]);
//! - `content` as an array of parts: the `text` of its text parts, joined;
//! - no usable text: `tool_calls[0].function.arguments` (a JSON string, or
//!   an object some servers send);
//! - `refusal` (a non-empty string): a refusal ([`refused`]), which the
//!   ladder reports with its own provenance reason.

use super::{extract_json, failure, in_context};
use genui_core::{Error, ModelFailure};
use serde_json::Value;

/// How every refusal's message starts; [`is_refusal`] tells it apart.
const REFUSAL_PREFIX: &str = "the model refused";

/// A refusal: `model_output_invalid`, marked as a refusal.
pub(crate) fn refused(text: &str) -> Error {
    let text = text.trim();
    let message = if text.is_empty() {
        REFUSAL_PREFIX.to_owned()
    } else {
        format!("{REFUSAL_PREFIX}: {text}")
    };
    failure(ModelFailure::OutputInvalid, message).with_provider_status(200)
}

/// Whether an error is a refusal ([`refused`]).
pub(crate) fn is_refusal(error: &Error) -> bool {
    error.code().model_failure() == Some(ModelFailure::OutputInvalid)
        && error.message().starts_with(REFUSAL_PREFIX)
}

/// The text a chat message carries: `content` as a string, or the text
/// parts of `content` as an array, joined.
pub(crate) fn message_text(message: &Value) -> String {
    match message.get("content") {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter(|part| {
                matches!(
                    part.get("type").and_then(Value::as_str),
                    None | Some("text" | "output_text")
                )
            })
            .filter_map(|part| {
                part.get("text")
                    .and_then(Value::as_str)
                    .or_else(|| part.as_str())
            })
            .collect::<Vec<_>>()
            .join(""),
        _ => String::new(),
    }
}

/// The plan in a chat message (see the module docs); `Err` with the text
/// the model wrote when there is none.
pub(crate) fn message_plan(message: &Value) -> Result<Value, Error> {
    if let Some(refusal) = message
        .get("refusal")
        .and_then(Value::as_str)
        .filter(|r| !r.trim().is_empty())
    {
        return Err(refused(refusal));
    }
    let text = message_text(message);
    let from_text = match extract_json(text.trim_start_matches('\u{feff}')) {
        Ok(plan) => return Ok(plan),
        Err(error) => error,
    };
    match message.pointer("/tool_calls/0/function/arguments") {
        Some(object @ Value::Object(_)) => return Ok(object.clone()),
        Some(Value::String(arguments)) => {
            return extract_json(arguments).map_err(|e| {
                in_context(e, "the tool call's arguments: ").with_model_output(arguments)
            });
        }
        _ => {}
    }
    Err(from_text.with_model_output(&text))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_shape_servers_send() {
        let plan = json!({"title": "T", "sections": []});
        let text = plan.to_string();
        assert_eq!(message_plan(&json!({"content": text})).unwrap(), plan);
        assert_eq!(
            message_plan(&json!({"content": format!("\u{feff}```json\n{text}\n```")})).unwrap(),
            plan
        );
        let parts = json!({"content": [{"type": "text", "text": &text[..5]}, {"type": "image_url", "image_url": {}}, {"type": "text", "text": &text[5..]}]});
        assert_eq!(message_plan(&parts).unwrap(), plan);
        let tool = json!({"content": null, "tool_calls": [{"id": "c", "type": "function", "function": {"name": "emit_ui_plan", "arguments": text}}]});
        assert_eq!(message_plan(&tool).unwrap(), plan);
        let object_args = json!({"content": "", "tool_calls": [{"function": {"arguments": plan}}]});
        assert_eq!(message_plan(&object_args).unwrap(), plan);
    }

    #[test]
    fn refusals_and_nothing_usable() {
        let refusal = message_plan(&json!({"content": null, "refusal": "I can't help with that."}))
            .unwrap_err();
        assert!(is_refusal(&refusal) && refusal.code().as_str() == "model_output_invalid");
        let nothing =
            message_plan(&json!({"content": "no plan here", "refusal": null})).unwrap_err();
        assert!(!is_refusal(&nothing) && nothing.code().as_str() == "model_output_invalid");
        assert_eq!(nothing.model_output(), Some("no plan here"));
    }
}
