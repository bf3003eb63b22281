//! Every accepted tool-call shape, normalised into one [`GenerateRequest`].
//!
//! Accepted bodies for `POST /v1/generate`:
//!
//! 1. AG-UI (seed 000): `{"tool": "generateUserInterface", "arguments": {...}}`;
//! 2. the bare arguments object: `{"description", "data", "output"}`;
//! 3. an OpenAI tool call: `{"id", "type": "function", "function":
//!    {"name": "generateUserInterface", "arguments": "<JSON string>"}}`.
//!
//! Errors carry a JSON Pointer into the body as received. For the OpenAI shape
//! the arguments are a JSON *string*; pointers into it are written
//! `/function/arguments` followed by the pointer inside the decoded string.

use crate::error::{Error, ErrorCode, Result};
use serde_json::{Map, Value};

/// The tool this worker implements.
pub const TOOL_NAME: &str = "generateUserInterface";

/// A normalised `generateUserInterface` call.
#[derive(Debug, Clone, PartialEq)]
pub struct GenerateRequest {
    /// What UI the agent wants (may be empty).
    pub description: String,
    /// Values to pre-fill; `Value::Null` when absent.
    pub data: Value,
    /// JSON Schema of what the user must send back.
    pub output: Value,
    /// The tool call id to echo, when the shape carried one.
    pub tool_call_id: Option<String>,
    /// JSON Pointer of the arguments object inside the body (`""` for bare).
    pub arguments_pointer: String,
}

impl GenerateRequest {
    /// JSON Pointer of `output` in the body, for error messages.
    pub fn output_pointer(&self) -> String {
        format!("{}/output", self.arguments_pointer)
    }
}

/// Parses a request body (already size- and depth-checked).
pub fn parse_generate(body: &[u8]) -> Result<GenerateRequest> {
    let value: Value = serde_json::from_slice(body).map_err(|e| {
        Error::new(ErrorCode::InvalidJson, format!("request body is not valid JSON: {e}"))
            .with("line", e.line())
            .with("column", e.column())
    })?;
    from_value(value)
}

/// Normalises an already parsed body.
pub fn from_value(value: Value) -> Result<GenerateRequest> {
    let Value::Object(mut body) = value else {
        return Err(invalid("", "request body must be a JSON object"));
    };
    if body.contains_key("tool") {
        let tool = take_tool_name(&mut body, "tool", "")?;
        check_tool(&tool, "/tool")?;
        let arguments = body.remove("arguments").unwrap_or(Value::Null);
        let tool_call_id = optional_string(&body, "toolCallId", "")?;
        let arguments = arguments_object(arguments, "/arguments")?;
        return build(arguments, "/arguments", tool_call_id);
    }
    if body.get("type").and_then(Value::as_str) == Some("function") || body.contains_key("function") {
        return from_openai(body);
    }
    let tool_call_id = optional_string(&body, "toolCallId", "")?;
    build(body, "", tool_call_id)
}

fn from_openai(mut body: Map<String, Value>) -> Result<GenerateRequest> {
    let tool_call_id = optional_string(&body, "id", "")?;
    let Some(Value::Object(mut function)) = body.remove("function") else {
        return Err(invalid("/function", "an OpenAI tool call needs a `function` object"));
    };
    let name = take_tool_name(&mut function, "name", "/function")?;
    check_tool(&name, "/function/name")?;
    let arguments = function.remove("arguments").unwrap_or(Value::Null);
    let arguments = arguments_object(arguments, "/function/arguments")?;
    build(arguments, "/function/arguments", tool_call_id)
}

fn take_tool_name(map: &mut Map<String, Value>, key: &str, base: &str) -> Result<String> {
    match map.remove(key) {
        Some(Value::String(name)) => Ok(name),
        _ => Err(invalid(&format!("{base}/{key}"), &format!("`{key}` must be a string naming the tool"))),
    }
}

fn check_tool(name: &str, pointer: &str) -> Result<()> {
    if name == TOOL_NAME {
        return Ok(());
    }
    Err(Error::new(
        ErrorCode::UnknownTool,
        format!("this endpoint implements the tool `{TOOL_NAME}`, not `{name}` (at {pointer})"),
    )
    .at(pointer)
    .with("tool", name))
}

/// Arguments may be an object or (as providers send them) a JSON string.
fn arguments_object(arguments: Value, pointer: &str) -> Result<Map<String, Value>> {
    match arguments {
        Value::Object(map) => Ok(map),
        Value::String(text) => match serde_json::from_str::<Value>(&text) {
            Ok(Value::Object(map)) => Ok(map),
            Ok(_) => Err(invalid(pointer, "the arguments string must encode a JSON object")),
            Err(e) => Err(Error::new(
                ErrorCode::InvalidJson,
                format!("the arguments string at {pointer} is not valid JSON: {e}"),
            )
            .at(pointer)),
        },
        Value::Null => Err(invalid(pointer, "the tool call has no arguments")),
        _ => Err(invalid(pointer, "arguments must be an object or a JSON string")),
    }
}

fn build(mut args: Map<String, Value>, base: &str, tool_call_id: Option<String>) -> Result<GenerateRequest> {
    let description = match args.remove("description") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(text)) => text,
        Some(_) => return Err(invalid(&format!("{base}/description"), "`description` must be a string")),
    };
    let output = match args.remove("output") {
        Some(output @ Value::Object(_)) => output,
        None | Some(Value::Null) => {
            return Err(invalid(
                &format!("{base}/output"),
                "`output` is required: the JSON Schema of the data the user must send back",
            ))
        }
        Some(_) => {
            return Err(invalid(&format!("{base}/output"), "`output` must be a JSON Schema object"))
        }
    };
    let data = args.remove("data").unwrap_or(Value::Null);
    Ok(GenerateRequest { description, data, output, tool_call_id, arguments_pointer: base.to_owned() })
}

fn optional_string(map: &Map<String, Value>, key: &str, base: &str) -> Result<Option<String>> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(_) => Err(invalid(&format!("{base}/{key}"), &format!("`{key}` must be a string"))),
    }
}

fn invalid(pointer: &str, what: &str) -> Error {
    let at = if pointer.is_empty() { "the body root" } else { pointer };
    Error::new(ErrorCode::InvalidRequest, format!("{what} (at {at})")).at(pointer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn args() -> Value {
        json!({"description": "d", "data": {"a": 1}, "output": {"type": "object"}})
    }

    #[test]
    fn three_shapes_agree() {
        let agui = from_value(json!({"tool": "generateUserInterface", "arguments": args()})).unwrap();
        let bare = from_value(args()).unwrap();
        let openai = from_value(json!({
            "id": "call_1", "type": "function",
            "function": {"name": "generateUserInterface", "arguments": args().to_string()}
        }))
        .unwrap();
        for r in [&agui, &bare, &openai] {
            assert_eq!(r.description, "d");
            assert_eq!(r.output, json!({"type": "object"}));
            assert_eq!(r.data, json!({"a": 1}));
        }
        assert_eq!(openai.tool_call_id.as_deref(), Some("call_1"));
        assert_eq!(agui.output_pointer(), "/arguments/output");
        assert_eq!(openai.output_pointer(), "/function/arguments/output");
    }

    #[test]
    fn errors_name_the_place() {
        let e = from_value(json!({"tool": "sendEmail", "arguments": args()})).unwrap_err();
        assert_eq!((e.code(), e.pointer()), (ErrorCode::UnknownTool, Some("/tool")));
        let e = from_value(json!({"description": "x"})).unwrap_err();
        assert_eq!((e.code(), e.pointer()), (ErrorCode::InvalidRequest, Some("/output")));
        let e = from_value(json!({"output": "text"})).unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidRequest);
        let e = from_value(json!({"description": 4, "output": {}})).unwrap_err();
        assert_eq!(e.pointer(), Some("/description"));
        let e = from_value(json!([1])).unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidRequest);
        let e = from_value(json!({"type": "function", "function": {"name": "generateUserInterface", "arguments": "{nope"}}))
            .unwrap_err();
        assert_eq!((e.code(), e.pointer()), (ErrorCode::InvalidJson, Some("/function/arguments")));
        assert_eq!(parse_generate(b"{").unwrap_err().code(), ErrorCode::InvalidJson);
    }
}
