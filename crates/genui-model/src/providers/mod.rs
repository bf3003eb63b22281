//! Provider wire formats, pure: requests are built as data and responses
//! parsed from bytes; the shell does the I/O.
//!
//! One module per provider, all the same shape: `build_request(&ModelConfig,
//! &Prompt)` and `parse_response(status, headers, body)`. [`build`] and
//! [`parse_response`] here dispatch on [`Provider`]. Failures become a
//! core `Error` with a nested `ModelFailure` ([`failure`]); the API key
//! never appears in an error, nor in `Debug` of a request.

pub(crate) mod anthropic;
pub(crate) mod chat;
mod error;
pub(crate) mod http;
pub(crate) mod openai;
#[cfg(test)]
mod wire_tests;
pub(crate) mod workers_ai;

pub(crate) use error::{failure, in_context, invalid_output};

use crate::config::{ModelConfig, Provider};
use crate::prompt::Prompt;
use genui_core::{Error, ModelFailure};
use serde_json::Value;
use std::fmt;

/// An HTTP request for the shell to send.
#[derive(Clone, PartialEq, Eq)]
pub struct HttpRequest {
    /// `POST`.
    pub method: String,
    /// The full URL.
    pub url: String,
    /// Header names (lower case) and values, the API key among them.
    pub headers: Vec<(String, String)>,
    /// The JSON body.
    pub body: String,
}

/// Headers whose values are secrets.
const SECRET_HEADERS: [&str; 3] = ["authorization", "x-api-key", "api-key"];

impl fmt::Debug for HttpRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let headers: Vec<(&str, &str)> = self
            .headers
            .iter()
            .map(|(k, v)| {
                (
                    k.as_str(),
                    if SECRET_HEADERS.contains(&k.as_str()) {
                        "[redacted]"
                    } else {
                        v.as_str()
                    },
                )
            })
            .collect();
        f.debug_struct("HttpRequest")
            .field("method", &self.method)
            .field("url", &self.url)
            .field("headers", &headers)
            .field("body_bytes", &self.body.len())
            .finish()
    }
}

impl HttpRequest {
    /// A JSON `POST`.
    pub fn post_json(url: String, mut headers: Vec<(String, String)>, body: &Value) -> Self {
        headers.push(("content-type".into(), "application/json".into()));
        Self {
            method: "POST".into(),
            url,
            headers,
            body: body.to_string(),
        }
    }

    /// The value of a header (case-insensitive name).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// A Workers AI binding call: `env.AI.run(model, inputs)`.
#[derive(Debug, Clone, PartialEq)]
pub struct AiCall {
    /// The model id (`@cf/...`).
    pub model: String,
    /// The inputs object.
    pub inputs: Value,
}

impl AiCall {
    /// The inputs as JSON text, for the shell to `JSON.parse` into a plain JS
    /// object. Passing a nested `serde_json::Value` through
    /// `serde_wasm_bindgen` yields JS `Map`s whose fields the binding drops
    /// (workers-rs issue 1050); a parsed string has plain objects only.
    pub fn inputs_as_json_string(&self) -> String {
        self.inputs.to_string()
    }
}

/// What to send: HTTP, or a binding call.
#[derive(Debug, Clone, PartialEq)]
pub enum Call {
    /// An HTTP request.
    Http(HttpRequest),
    /// A Workers AI binding call.
    Ai(AiCall),
}

/// How the plan's structure is requested from OpenAI-style servers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// `response_format: json_schema` (strict) or the provider's equivalent.
    JsonSchema,
    /// `response_format: json_object`, for servers that reject `json_schema`.
    JsonObject,
}

/// A parsed model answer.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelReply {
    /// The plan the model wrote (not yet checked).
    pub plan_json: Value,
    /// Prompt tokens, when reported.
    pub tokens_in: Option<u64>,
    /// Completion tokens, when reported.
    pub tokens_out: Option<u64>,
}

/// One provider's wire format. Each provider module implements it; the
/// ladder reaches them only through [`wire`].
pub trait ProviderWire: Sync {
    /// The request (or binding call) that asks for a plan.
    fn build(&self, config: &ModelConfig, prompt: &Prompt, mode: Mode) -> Call;
    /// The plan and token usage from an answer, or the provider's error.
    fn parse_response(
        &self,
        status: u16,
        headers: &[(String, String)],
        body: &str,
    ) -> Result<ModelReply, Error>;
    /// Names of the prompt and completion token counts under `usage`.
    fn usage_fields(&self) -> (&'static str, &'static str) {
        ("prompt_tokens", "completion_tokens")
    }
    /// The error for a request that could not be sent.
    fn network_error(&self, message: &str) -> Error {
        failure(
            ModelFailure::Unavailable,
            format!("could not reach the model: {message}"),
        )
    }
}

struct OpenAiWire;
struct AnthropicWire;
struct WorkersAiWire;
struct HttpWire;

impl ProviderWire for HttpWire {
    /// The data-free request; the ladder signs it (it holds the clock).
    fn build(&self, config: &ModelConfig, prompt: &Prompt, _mode: Mode) -> Call {
        Call::Http(http::build_request(config, prompt))
    }
    fn parse_response(
        &self,
        status: u16,
        headers: &[(String, String)],
        body: &str,
    ) -> Result<ModelReply, Error> {
        http::parse_response(status, headers, body)
    }
    fn network_error(&self, message: &str) -> Error {
        http::network_error(message)
    }
}

impl ProviderWire for OpenAiWire {
    fn build(&self, config: &ModelConfig, prompt: &Prompt, mode: Mode) -> Call {
        Call::Http(match mode {
            Mode::JsonSchema => openai::build_request(config, prompt),
            Mode::JsonObject => openai::build_request_json_object(config, prompt),
        })
    }
    fn parse_response(
        &self,
        status: u16,
        headers: &[(String, String)],
        body: &str,
    ) -> Result<ModelReply, Error> {
        openai::parse_response(status, headers, body)
    }
}

impl ProviderWire for AnthropicWire {
    fn build(&self, config: &ModelConfig, prompt: &Prompt, _mode: Mode) -> Call {
        Call::Http(anthropic::build_request(config, prompt))
    }
    fn parse_response(
        &self,
        status: u16,
        headers: &[(String, String)],
        body: &str,
    ) -> Result<ModelReply, Error> {
        anthropic::parse_response(status, headers, body)
    }
    fn usage_fields(&self) -> (&'static str, &'static str) {
        ("input_tokens", "output_tokens")
    }
}

impl ProviderWire for WorkersAiWire {
    /// Through the `AI` binding, or over HTTP when a base URL is set (the
    /// REST API, or a test server).
    fn build(&self, config: &ModelConfig, prompt: &Prompt, _mode: Mode) -> Call {
        if config.base_url.is_empty() {
            Call::Ai(workers_ai::build_call(config, prompt))
        } else {
            Call::Http(workers_ai::build_request(config, prompt))
        }
    }
    fn parse_response(
        &self,
        status: u16,
        headers: &[(String, String)],
        body: &str,
    ) -> Result<ModelReply, Error> {
        workers_ai::parse_response(status, headers, body)
    }
    fn network_error(&self, message: &str) -> Error {
        workers_ai::error_from_message(message)
    }
}

/// The dispatch table: a provider's wire format.
pub fn wire(provider: Provider) -> &'static dyn ProviderWire {
    match provider {
        Provider::OpenAi => &OpenAiWire,
        Provider::Anthropic => &AnthropicWire,
        Provider::WorkersAi => &WorkersAiWire,
        Provider::Http => &HttpWire,
    }
}

/// Builds the call for `config`'s provider.
pub(crate) fn build(config: &ModelConfig, prompt: &Prompt, mode: Mode) -> Call {
    wire(config.provider).build(config, prompt, mode)
}

/// Parses a response in `provider`'s format.
pub(crate) fn parse_response(
    provider: Provider,
    status: u16,
    headers: &[(String, String)],
    body: &str,
) -> Result<ModelReply, Error> {
    wire(provider).parse_response(status, headers, body)
}

/// Token usage reported in a 2xx body, whether or not it held a usable
/// plan (a truncated answer costs tokens too): `(in, out)`.
pub(crate) fn usage(provider: Provider, body: &str) -> (Option<u64>, Option<u64>) {
    let Ok(value) = serde_json::from_str::<Value>(body) else {
        return (None, None);
    };
    let (field_in, field_out) = wire(provider).usage_fields();
    let result = value
        .get("result")
        .filter(|r| r.is_object())
        .unwrap_or(&value);
    let usage = result.get("usage").unwrap_or(&Value::Null);
    (tokens(usage, field_in), tokens(usage, field_out))
}

/// The error for a failed send (connection refused, DNS, a thrown binding
/// error), by provider.
pub(crate) fn network_error(provider: Provider, message: &str) -> Error {
    wire(provider).network_error(message)
}

/// The JSON object inside a model's text: the whole text, or inside a
/// ```` ``` ```` fence, or from the first `{` to the last `}`; else a
/// `model_output_invalid` saying why the whole text is not one.
pub(crate) fn extract_json(text: &str) -> Result<Value, Error> {
    let trimmed = text.trim();
    let unfenced = strip_fence(trimmed);
    let first_error = match serde_json::from_str::<Value>(unfenced) {
        Ok(value @ Value::Object(_)) => return Ok(value),
        Ok(_) => "the output is JSON but not an object".to_owned(),
        Err(e) => format!("the output is not valid JSON: {e}"),
    };
    let inner = match (unfenced.find('{'), unfenced.rfind('}')) {
        (Some(start), Some(end)) if start < end => &unfenced[start..=end],
        _ => return Err(invalid_output(&first_error)),
    };
    match serde_json::from_str::<Value>(inner) {
        Ok(value @ Value::Object(_)) => Ok(value),
        _ => Err(invalid_output(&first_error)),
    }
}

fn strip_fence(text: &str) -> &str {
    let Some(rest) = text.strip_prefix("```") else {
        return text;
    };
    let body = rest.split_once('\n').map(|(_, b)| b).unwrap_or(rest);
    body.trim_end().strip_suffix("```").unwrap_or(body).trim()
}

/// A JSON number member as `u64`.
pub(crate) fn tokens(value: &Value, key: &str) -> Option<u64> {
    value.get(key).and_then(Value::as_u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn extracts_json_from_chatty_text() {
        assert_eq!(extract_json("{\"a\": 1}").unwrap(), json!({"a": 1}));
        assert_eq!(
            extract_json("```json\n{\"a\": 1}\n```").unwrap(),
            json!({"a": 1})
        );
        assert_eq!(
            extract_json("Here you go: {\"a\": {\"b\": 2}} Enjoy").unwrap(),
            json!({"a": {"b": 2}})
        );
        let error = extract_json("{\"a\": [1, 2").unwrap_err();
        assert!(error.message().contains("not valid JSON"));
        assert_eq!(error.code().as_str(), "model_output_invalid");
        assert_eq!(error.provider_status(), Some(200));
        assert!(extract_json("[1]")
            .unwrap_err()
            .message()
            .contains("not an object"));
        assert!(extract_json("} nothing {").is_err());
    }

    #[test]
    fn request_debug_hides_keys() {
        let request = HttpRequest::post_json(
            "http://x".into(),
            vec![
                ("authorization".into(), "Bearer sk-live-1".into()),
                ("x-api-key".into(), "sk-ant-2".into()),
            ],
            &json!({}),
        );
        let debug = format!("{request:?}");
        assert!(
            !debug.contains("sk-live-1") && !debug.contains("sk-ant-2"),
            "{debug}"
        );
        assert_eq!(request.header("Content-Type"), Some("application/json"));
    }
}
