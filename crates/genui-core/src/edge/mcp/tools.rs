//! The two MCP tools: their definitions for `tools/list`, and their results
//! made from the `/v1` answers the shell computes (the same generation and
//! submission code, so MCP and `/v1` cannot drift apart).
//!
//! - `generate_user_interface`: the `/v1/generate` arguments; its result's
//!   `structuredContent` carries the spec (the answer in the chosen format),
//!   its `specHash`, and the data-free form markup of `format=html` that
//!   the view renders. Its `_meta.ui.resourceUri` names the form view
//!   ([`super::view`]) so that MCP Apps hosts can fetch it before any call.
//! - `submit_user_interface`: the `/v1/submit` arguments; the AG-UI tool
//!   message (`toolMessage`; DGUI's `dgui_response` as `response` when the
//!   call names no `toolCallId`), or the `dgui_error` with a JSON Pointer per field as a tool
//!   error (`isError: true`) the model and the form both read. The view may
//!   call it (`_meta.ui.visibility` includes `app`).
//!
//! Failures of the work itself (a bad schema, invalid data, a model that
//! failed) are tool errors, not JSON-RPC errors, so the model sees them and
//! can correct its call; error pointers point into the tool's `arguments`.

use crate::terms::format::Format;
use crate::terms::response::HttpResponse;
use serde_json::{json, Map, Value};

pub(crate) const GENERATE: &str = "generate_user_interface";
pub(crate) const SUBMIT: &str = "submit_user_interface";

/// The tools, in the fixed order `tools/list` answers (the spec asks for a
/// deterministic order).
pub(crate) fn list() -> Vec<Value> {
    vec![generate_tool(), submit_tool()]
}

fn generate_tool() -> Value {
    let definition = crate::edge::tool::tool_definition();
    let mut input = definition["parameters"].clone();
    if let Some(properties) = input["properties"].as_object_mut() {
        properties.insert(
            "format".into(),
            json!({
                "type": "string", "enum": Format::names(),
                "description": "The spec's format (default jsonforms)."
            }),
        );
        properties.insert(
            "locale".into(),
            json!({
                "type": "string",
                "description": "BCP 47 tag (e.g. de-DE): the language of labels a model writes."
            }),
        );
    }
    json!({
        "name": GENERATE,
        "title": "Generate a form",
        "description": definition["description"],
        "inputSchema": input,
        "outputSchema": {
            "type": "object",
            "properties": {
                "specHash": {"type": "string", "description": "Names the form in submit_user_interface."},
                "format": {"type": "string"},
                "spec": {"type": "object", "description": "The form in `format`, as POST /v1/generate answers it."},
                "markup": {"type": "string", "description": "The form's data-free HTML markup (format=html's <form>), which the form view renders and fills from the tool input."},
                "error": {"type": "object", "description": "The dgui_error when the form could not be made, or when the person's answer breaks `output`."},
                "toolMessage": {"type": "object", "description": "After an elicitation the person accepted: the AG-UI tool message carrying the checked answer (when the call named toolCallId)."},
                "response": {"type": "object", "description": "After an elicitation the person accepted: DGUI's dgui_response carrying the checked answer (when the call named no toolCallId)."},
                "action": {"type": "string", "enum": ["decline", "cancel"], "description": "After an elicitation the person declined or dismissed: no data."}
            },
            "anyOf": [{"required": ["specHash", "format", "spec", "markup"]}, {"required": ["error"]},
                {"required": ["toolMessage"]}, {"required": ["response"]}, {"required": ["action"]}]
        },
        "annotations": {"readOnlyHint": true, "openWorldHint": false},
        "_meta": {"ui": {"resourceUri": super::view::URI, "visibility": ["model", "app"]}}
    })
}

fn submit_tool() -> Value {
    json!({
        "name": SUBMIT,
        "title": "Submit a form",
        "description": "Check the user's answer to a form made by generate_user_interface against its \
    output schema. Valid: the AG-UI tool message for the agent (a dgui_response without toolCallId). Invalid: an error listing each field's \
    JSON Pointer and what is wrong with it.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "specHash": {"type": "string", "pattern": "^[0-9a-f]{64}$", "description": "From generate_user_interface's result."},
                "output": {"type": "object", "description": "The output JSON Schema itself, instead of specHash."},
                "data": {"description": "The user's answer."},
                "toolCallId": {"type": "string", "description": "The agent's tool call to answer."}
            },
            "required": ["data"]
        },
        "outputSchema": {
            "type": "object",
            "properties": {
                "toolMessage": {"type": "object", "description": "The AG-UI tool message carrying the valid data (when the call named toolCallId)."},
                "response": {"type": "object", "description": "DGUI's dgui_response carrying the valid data (when the call named no toolCallId)."},
                "error": {"type": "object", "description": "The dgui_error: payload.errors has one entry per field."}
            },
            "anyOf": [{"required": ["toolMessage"]}, {"required": ["response"]}, {"required": ["error"]}]
        },
        "annotations": {"readOnlyHint": true, "openWorldHint": false},
        "_meta": {"ui": {"visibility": ["model", "app"]}}
    })
}

/// A valid submission's result: the AG-UI tool message when the call
/// named its `toolCallId`, else DGUI's `dgui_response` (no id is made up).
pub(crate) fn submitted(message: Value) -> Map<String, Value> {
    if message.get("type").and_then(Value::as_str) == Some("dgui_response") {
        let text = format!(
            "The submission is valid; the dgui_response carries the data: {}",
            message["data"]
        );
        return structured(json!({"response": message}), text, false);
    }
    let text = format!(
        "The submission is valid; the tool message carries the data: {}",
        message["content"].as_str().unwrap_or_default()
    );
    structured(json!({"toolMessage": message}), text, false)
}

/// The result of an elicitation the person declined (or, `cancelled`,
/// dismissed): no data, and no error of the call.
pub(crate) fn refused_by_person(cancelled: bool) -> Map<String, Value> {
    let (action, text) = match cancelled {
        true => ("cancel", "The user dismissed the form without answering; no data was sent. Ask again only if the user wants to."),
        false => ("decline", "The user declined to fill in the form; no data was sent. Do not ask again for the same data unless the user wants to."),
    };
    structured(json!({"action": action}), text.to_owned(), false)
}

/// The `CallToolResult` (without `resultType`) for a `/v1` answer.
/// `format` is the generated spec's format (`None` for a submission);
/// `reach`, how the person sees the form when not in the MCP App view.
pub(crate) fn result(
    format: Option<&'static str>,
    v1: &HttpResponse,
    reach: Option<&str>,
) -> Map<String, Value> {
    let header = |wanted: &str| {
        v1.headers
            .iter()
            .find(|(name, _)| name == wanted)
            .map(|(_, v)| v.as_str())
    };
    let body: Value = match serde_json::from_str(&v1.body) {
        Ok(body) => body,
        // format=html answers the page itself; as JSON it is an html_page.
        Err(_) if v1.status == 200 && format == Some("html") => {
            json!({"type": "html_page", "html": v1.body})
        }
        Err(_) => Value::Null,
    };
    if !(200..300).contains(&v1.status) || !body.is_object() {
        return failed(body, v1.status);
    }
    let Some(format) = format else {
        return submitted(body);
    };
    let hash = header("x-genui-spec-hash").unwrap_or_default();
    let markup = header(crate::service::FORM_MARKUP_HEADER).unwrap_or_default();
    let text = match reach {
        None => format!(
            "Made a {format} form (specHash {hash}). The user fills it in the form view; check an answer with \
{SUBMIT} {{\"specHash\": \"{hash}\", \"data\": ...}}."
        ),
        Some(reach) => format!(
            "Made a {format} form (specHash {hash}). {reach} Check an answer with \
{SUBMIT} {{\"specHash\": \"{hash}\", \"data\": ...}}."
        ),
    };
    structured(
        json!({"specHash": hash, "format": format, "spec": body, "markup": markup}),
        text,
        false,
    )
}

/// A generated form sent as a hosted link: the spec as usual, the link
/// in the text and (where the version has them) as a `resource_link`.
pub(crate) fn linked(
    format: &'static str,
    v1: &HttpResponse,
    url: &str,
    resource_link: bool,
) -> Map<String, Value> {
    let reach = format!(
        "This host shows no form view, so send the person this link to the form: {url} . Their answer is \
checked against `output` when they send it and kept with the link until it expires; read it with resources/read \
of that link (until then it says the form is still open)."
    );
    let mut result = result(Some(format), v1, Some(&reach));
    if let (true, Some(Value::Array(content))) = (resource_link, result.get_mut("content")) {
        content.push(
            json!({"type": "resource_link", "uri": url, "name": "genui-form",
            "title": "The form to fill in", "mimeType": "text/html",
            "description": "A page where the person fills in and sends the form."}),
        );
    }
    result
}

/// A failed call as a tool error carrying the `dgui_error`.
fn failed(body: Value, status: u16) -> Map<String, Value> {
    let error = if body.get("type") == Some(&json!("dgui_error")) {
        body
    } else {
        json!({"type": "dgui_error", "code": "internal_error", "message": format!("the call failed with HTTP {status}"), "payload": {}})
    };
    let text = format!(
        "{}: {}",
        error["code"].as_str().unwrap_or_default(),
        error["message"].as_str().unwrap_or_default()
    );
    structured(json!({"error": error}), text, true)
}

fn structured(content: Value, text: String, is_error: bool) -> Map<String, Value> {
    let mut result = Map::new();
    result.insert("content".into(), json!([{"type": "text", "text": text}]));
    result.insert("structuredContent".into(), content);
    if is_error {
        result.insert("isError".into(), true.into());
    }
    result
}
