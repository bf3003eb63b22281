//! What the worker publishes about itself: the `generateUserInterface` tool
//! definition to inject into an agent (`GET /v1/tool`), and the OpenAPI 3.1
//! document of the whole API (`GET /openapi.json`), which embeds the
//! contract schemas of `schemas/` as components.

use crate::edge::routes::{Handler, ROUTES};
use crate::request::TOOL_NAME;
use crate::terms::contracts::Contract;
use crate::terms::response::HttpResponse;
use serde_json::{json, Map, Value};
use std::sync::OnceLock;

const TOOL_DESCRIPTION: &str = "Show the user a form and get structured data back. Use it whenever you need \
several values from the user, a choice among options, or an approval, instead of asking in free text. \
Describe the form in `description`, pre-fill known values in `data`, and give in `output` the JSON Schema \
of the object the user must send back: \"type\": \"object\", \"properties\" with a \"type\" for each field \
(string, number, integer, boolean, array, object), an optional \"title\", \"enum\" for closed choices, \
\"format\" for date, date-time, time, email or uri, \"minimum\"/\"maximum\" for numbers, and a \"required\" \
list. The user's answer arrives as this tool's result: a JSON object that matches `output`. \
To only show data (a read-only table and chart, nothing sent back), leave out `output` and give the rows \
in `data`, e.g. {\"sales\": [{\"region\": \"North\", \"revenue\": 120}]}.";

/// The tool definition, parameters flat (no `$ref`, no `oneOf`: providers
/// do not all support them).
pub(crate) fn tool_definition() -> Value {
    json!({
        "name": TOOL_NAME,
        "description": TOOL_DESCRIPTION,
        "parameters": {
            "type": "object",
            "properties": {
                "description": {
                    "type": "string",
                    "description": "What the form is for, e.g. \"A form that collects the user's shipping address.\""
                },
                "data": {
                    "type": "object",
                    "description": "Values to pre-fill, keyed like the output schema's properties; without `output`: arrays of records or numbers to show."
                },
                "output": {
                    "type": "object",
                    "description": "JSON Schema of the object the user must send back; leave out to only show `data`."
                },
                "instructions": {
                    "type": "string",
                    "maxLength": 4096,
                    "description": "Optional wishes for the layout and wording (order, grouping, tone); they never change the fields."
                }
            },
            "required": ["description"]
        }
    })
}

impl HttpResponse {
    /// `GET /v1/tool`: the `generateUserInterface` tool definition.
    pub fn tool_definition() -> Self {
        Self::json(200, &tool_definition())
    }

    /// `GET /openapi.json`, built once per isolate.
    pub fn openapi_json() -> &'static str {
        openapi_json()
    }
}

/// The OpenAPI document, built once per isolate.
pub(crate) fn openapi_json() -> &'static str {
    static DOC: OnceLock<String> = OnceLock::new();
    DOC.get_or_init(|| openapi().to_string())
}

fn schema_ref(contract: Contract) -> Value {
    json!({"$ref": format!("#/components/schemas/{}", component_name(contract))})
}

/// `previousSpecHash` as the generate request's contract defines it.
fn previous_spec_hash_ref() -> Value {
    let component = component_name(Contract::GenerateRequest);
    json!({"$ref": format!("#/components/schemas/{component}/$defs/previousSpecHash")})
}

fn component_name(contract: Contract) -> String {
    contract
        .file_name()
        .trim_end_matches(".schema.json")
        .to_owned()
}

/// Rewrites `#/...` references of an embedded schema to point under `base`.
fn rebase_refs(value: &mut Value, base: &str) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(reference)) = map.get_mut("$ref") {
                if let Some(rest) = reference.strip_prefix('#') {
                    *reference = format!("{base}{rest}");
                }
            }
            map.values_mut().for_each(|v| rebase_refs(v, base));
        }
        Value::Array(items) => items.iter_mut().for_each(|v| rebase_refs(v, base)),
        _ => {}
    }
}

fn json_content(schema: Value) -> Value {
    json!({"application/json": {"schema": schema}})
}

/// Every failure of every route is a `dgui_error`, whatever its status
/// (400, 401, 404, 405, 413, 422, 429, 502, 504).
fn error_responses() -> Map<String, Value> {
    let mut responses = Map::new();
    responses.insert("default".into(), json!({"description": "dgui_error", "content": json_content(schema_ref(Contract::DguiError))}));
    responses
}

fn openapi() -> Value {
    let mut components = Map::new();
    for &contract in Contract::ALL {
        let mut schema: Value =
            serde_json::from_str(contract.source()).unwrap_or(Value::Bool(true));
        if let Value::Object(map) = &mut schema {
            map.remove("$schema");
            map.remove("$id");
        }
        // Local references now live inside the OpenAPI document.
        rebase_refs(
            &mut schema,
            &format!("#/components/schemas/{}", component_name(contract)),
        );
        components.insert(component_name(contract), schema);
    }
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "genui-worker",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "Generative-UI backend for AG-UI's generateUserInterface tool: a tool call in, a validated UI out (JSON Forms, RJSF/DGUI, LMUI, A2UI v0.9); submissions validated against the output schema and returned as the tool message."
        },
        "paths": paths(),
        "components": {"schemas": components},
    })
}

/// The `paths` object: one operation per row of the route table and method
/// (`HEAD` goes unlisted beside its `GET`), its summary from the row.
fn paths() -> Map<String, Value> {
    let mut paths = Map::new();
    for row in ROUTES {
        let Value::Object(operations) = paths.entry(row.path).or_insert_with(|| json!({})) else {
            continue;
        };
        for &method in row.methods.iter().filter(|m| **m != "HEAD") {
            let mut operation = Map::new();
            operation.insert("summary".into(), row.summary.into());
            operation.extend(operation_of(row.handler, method));
            operations.insert(method.to_ascii_lowercase(), Value::Object(operation));
        }
    }
    paths
}

/// What an operation takes and answers, besides its summary.
fn operation_of(handler: Handler, method: &str) -> Map<String, Value> {
    let operation = match handler {
        Handler::Generate => json!({
            "parameters": [{"name": "format", "in": "query", "required": false, "schema": {"enum": ["jsonforms", "rjsf", "dgui", "lmui", "a2ui", "react", "html"]}},
                {"name": "a2uiVersion", "in": "query", "required": false, "description": "format=a2ui only: the A2UI revision (0.9, the default, v0.9.1's wire; 1.0, the v1.0 candidate); wins over the body's a2uiVersion and Accept's version parameter", "schema": {"enum": ["0.9", "0.9.1", "1.0"]}}],
            "requestBody": {"required": true, "content": json_content(schema_ref(Contract::GenerateRequest))},
            "responses": generate_responses(),
        }),
        Handler::Submit => json!({
            "parameters": [{"name": "a2ui-client-data-model", "in": "header", "required": false, "description": "A2UI's a2uiClientDataModel ({version, surfaces}) as JSON, for an A2UI action whose context has no data", "schema": {"type": "string"}}],
            "requestBody": {"required": true, "content": submit_content()},
            "responses": submit_responses(),
        }),
        Handler::Interrupt => json!({
            "parameters": [{"name": "format", "in": "query", "required": false, "schema": {"enum": ["jsonforms", "rjsf", "dgui", "lmui", "a2ui", "react", "html"]}}],
            "requestBody": {"required": true, "content": json_content(json!({"type": "object", "required": ["interrupt"],
                "description": "One AG-UI 1.0 Interrupt, with the generate request's options (format, data, locale, device, previousSpecHash) beside it",
                "properties": {"interrupt": {"type": "object", "required": ["id", "reason"], "properties": {
                    "id": {"type": "string", "minLength": 1}, "reason": {"type": "string"}, "message": {"type": "string"},
                    "toolCallId": {"type": "string"}, "responseSchema": {"type": "object"}, "expiresAt": {"type": "string"},
                    "metadata": {"type": "object"}, "subagentRunId": {"type": "string"}}},
                    "format": {"type": "string"}, "data": {}, "previousSpecHash": previous_spec_hash_ref()}}))},
            "responses": {"200": {"description": "As /v1/generate answers, with meta.interrupt {id, expiresAt?, expired, token?} and the x-genui-interrupt-token header",
                "headers": {"x-genui-interrupt-token": {"description": "meta.interrupt.token (absent without WEBHOOK_SECRET)", "schema": {"type": "string"}}},
                "content": generate_responses()["200"]["content"].clone()},
                "default": error_responses()["default"].clone()},
        }),
        Handler::RenderSpec => json!({
            "parameters": [{"name": "specHash", "in": "path", "required": true, "description": "meta.specHash (or x-genui-spec-hash) of an earlier answer", "schema": {"type": "string", "pattern": "^[0-9a-f]{64}$"}},
                {"name": "format", "in": "query", "required": false, "schema": {"enum": ["jsonforms", "rjsf", "dgui", "lmui", "a2ui", "react", "html"]}},
                {"name": "a2uiVersion", "in": "query", "required": false, "schema": {"enum": ["0.9", "0.9.1", "1.0"]}}],
            "requestBody": {"required": false, "content": json_content(json!({"type": "object", "additionalProperties": false,
                "description": "The client's options and current data; an empty body renders the spec's defaults in JSON Forms",
                "properties": {"format": {"type": "string"}, "a2uiVersion": {"type": "string"}, "data": {}, "locale": {"type": "string"},
                    "device": {"enum": ["desktop", "mobile"]}, "toolCallId": {"type": "string"}}}))},
            "responses": generate_responses(),
        }),
        Handler::Webhook => json!({
            "parameters": [{"name": "x-genui-signature", "in": "header", "required": true, "schema": {"type": "string"}}],
            "requestBody": {"required": true, "content": json_content(schema_ref(Contract::GenerateRequest))},
            "responses": {"200": generate_responses()["200"].clone(), "default": error_responses()["default"].clone()},
        }),
        Handler::Agent => json!({
            "requestBody": {"required": true, "content": json_content(json!({"type": "object", "required": ["threadId", "runId"],
                "properties": {"threadId": {"type": "string"}, "runId": {"type": "string"}, "messages": {"type": "array"}, "forwardedProps": {"type": "object"}}}))},
            "responses": {"200": {"description": "AG-UI events as SSE data frames: RUN_STARTED, ACTIVITY_SNAPSHOT, ACTIVITY_DELTA, RUN_FINISHED or RUN_ERROR; TOOL_CALL_RESULT for a submission",
                "content": {"text/event-stream": {"schema": {"type": "string"}}}}, "default": error_responses()["default"].clone()},
        }),
        Handler::Forms => json!({
            "requestBody": {"required": true, "content": json_content(schema_ref(Contract::GenerateRequest))},
            "responses": {"201": {"description": "The link: url (/f/<token>, pre-fill in the #data= fragment), expiresAt, specHash",
                "content": json_content(json!({"type": "object", "required": ["url", "expiresAt", "specHash"], "properties": {"url": {"type": "string"}, "expiresAt": {"type": "string", "format": "date-time"}, "specHash": {"type": "string"}}}))},
                "default": error_responses()["default"].clone()},
        }),
        Handler::HostedForm if method == "GET" => json!({
            "parameters": [{"name": "token", "in": "path", "required": true, "schema": {"type": "string"}}],
            "responses": {"200": {"description": "The form, or the state of its answer", "content": {"text/html": {"schema": {"type": "string"}}}},
                "default": {"description": "A page saying why: 404 not valid, 410 expired", "content": {"text/html": {"schema": {"type": "string"}}}}},
        }),
        Handler::HostedForm => json!({
            "parameters": [{"name": "token", "in": "path", "required": true, "schema": {"type": "string"}}],
            "requestBody": {"required": true, "content": {"application/x-www-form-urlencoded": {"schema": {"type": "object", "additionalProperties": {"type": "string"}}}}},
            "responses": {"202": {"description": "Received: stored, and delivered in the background", "content": {"text/html": {"schema": {"type": "string"}}}},
                "default": {"description": "The form again with its errors (400, 413, 422), or 409 already submitted, or 404/410", "content": {"text/html": {"schema": {"type": "string"}}}}},
        }),
        Handler::Tool => json!({
            "responses": {"200": {"description": "Tool definition", "content": json_content(json!({"type": "object", "required": ["name", "description", "parameters"]}))},
                "default": error_responses()["default"].clone()},
        }),
        Handler::Healthz => json!({
            "responses": {"200": {"description": "ok", "content": json_content(json!({"type": "object", "required": ["status"]}))},
                "default": error_responses()["default"].clone()},
        }),
        Handler::OpenApi => json!({
            "responses": {"200": {"description": "OpenAPI 3.1", "content": json_content(json!({"type": "object"}))},
                "default": error_responses()["default"].clone()},
        }),
        Handler::Schema => {
            let schema_names: Vec<&str> = Contract::ALL.iter().map(|c| c.file_name()).collect();
            json!({
                "parameters": [{"name": "name", "in": "path", "required": true, "schema": {"enum": schema_names}}],
                "responses": {"200": {"description": "JSON Schema", "content": json_content(json!({"type": "object"}))},
                    "default": error_responses()["default"].clone()},
            })
        }
        Handler::Mcp => json!({
            "requestBody": {"required": true, "content": json_content(json!({"description": "One JSON-RPC 2.0 request or notification (no batches)", "type": "object", "required": ["jsonrpc", "method"],
                "properties": {"jsonrpc": {"const": "2.0"}, "id": {"type": ["string", "integer"]}, "method": {"type": "string"}, "params": {"type": "object"}}}))},
            "responses": {"200": {"description": "The JSON-RPC response", "content": json_content(json!({"type": "object", "required": ["jsonrpc"]}))},
                "202": {"description": "A notification, accepted (no body)"},
                "default": {"description": "A JSON-RPC error at the status its MCP version gives it, or a dgui_error (401, 403, 413, 429)", "content": json_content(json!({"type": "object"}))}},
        }),
    };
    match operation {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// The answers of a generate request: the UI in any format, or a `dgui_error`.
fn generate_responses() -> Map<String, Value> {
    let mut responses = error_responses();
    let mut content = json_content(json!({"oneOf": [
        schema_ref(Contract::JsonFormsResponse), schema_ref(Contract::DguiForm), schema_ref(Contract::LmuiMessage), schema_ref(Contract::A2uiMessages), schema_ref(Contract::ReactModule)
    ]}));
    // `format=html`: the page itself (html-page.schema.json describes it before it is served).
    content["text/html"] = json!({"schema": {"description": "format=html: a self-contained page with a native form (fields named by JSON Pointer) and a strict Content-Security-Policy header", "type": "string"}});
    // `format=a2ui` with `Accept: application/jsonl`: the same messages, one per line.
    content["application/jsonl"] = json!({"schema": {"description": "format=a2ui only: each line one message of A2UI's server_to_client.json (createSurface, updateComponents, updateDataModel)", "type": "string"}});
    // `format=a2ui` with `Accept: application/a2ui+json` (A2UI's media type): the same messages as one array.
    content["application/a2ui+json"] = json!({"schema": {"description": "format=a2ui only: the messages as one JSON array, without the list wrapper; the `version` parameter (application/a2ui+json; version=1.0) asks for an A2UI revision as a2uiVersion does", "type": "array"}});
    // `Accept: text/event-stream` (docs/streaming.md): ui, patch, done, error events.
    content["text/event-stream"] = json!({"schema": {"description": "Server-Sent Events: `ui` (a complete answer as above), `patch` (RFC 6902 operations from the last ui to the model's proven answer), `done` ({generator, cache, fellBack, timings, provenance?}), `error` (a dgui_error); `: heartbeat` comments while the model works", "type": "string"}});
    let headers = json!({
        "x-genui-spec-hash": {"description": "meta.specHash (the cached spec; A2UI's submit button carries it too)", "schema": {"type": "string"}},
        "x-genui-warnings": {"description": "meta.warnings as ASCII JSON (up to 4 KiB of whole warnings); [] when none", "schema": {"type": "string"}},
        "x-genui-cache": {"description": "hit or miss", "schema": {"enum": ["hit", "miss"]}},
        "x-genui-generator": {"description": "the generator that made the spec", "schema": {"type": "string"}},
    });
    responses.insert("200".into(), json!({"description": "The UI in the requested format", "headers": headers, "content": content}));
    responses
}

/// The answers of a submission: the tool message (with a `toolCallId`) or
/// DGUI's `dgui_response` (without), or a `dgui_error`.
fn submit_responses() -> Map<String, Value> {
    let mut responses = error_responses();
    let unchecked = json!({"x-genui-unchecked": {"description": "data pointers of places on a $ref to a document the worker does not hold and never fetches (any JSON accepted, not checked), as in the message's metadata.genuiUnchecked; absent when none", "schema": {"type": "string"}}});
    // A submission naming `interruptId` is answered with an AG-UI ResumeEntry.
    let resume_entry = json!({"type": "object", "required": ["interruptId", "status"], "properties": {
        "interruptId": {"type": "string"}, "status": {"enum": ["resolved", "cancelled"]}, "payload": {},
        "metadata": {"type": "object", "properties": {"genui": {"type": "object", "required": ["specHash"],
            "properties": {"specHash": {"type": "string"}, "signature": {"type": "string"}}}}}}});
    let message = json!({"oneOf": [schema_ref(Contract::ToolMessage), schema_ref(Contract::DguiResponse), resume_entry]});
    responses.insert("200".into(), json!({"description": "The AG-UI tool message for the agent when the submission names its toolCallId; DGUI's dgui_response ({type, data}) when it names none", "headers": unchecked, "content": json_content(message)}));
    // A browser posting format=html's form (Accept ranks text/html above JSON) gets a page.
    let page = json!({"schema": {"type": "string"}});
    responses["200"]["content"]["text/html"] = page.clone();
    responses["200"]["description"] = json!("The AG-UI tool message for the agent when the submission names its toolCallId, DGUI's dgui_response ({type, data}) when it names none; for a browser's form post, a thank-you page that posts that message to the parent frame");
    if let Some(default) = responses.get_mut("default") {
        default["content"]["text/html"] = page;
    }
    responses
}

/// A submission's body: JSON, or `format=html`'s form posted without script
/// (fields named by JSON Pointer, plus `_specHash`, and `_toolCallId`,
/// `_locale`), told apart by what the body holds, not by its content type.
fn submit_content() -> Value {
    let mut content = json_content(schema_ref(Contract::SubmitRequest));
    content["application/x-www-form-urlencoded"] = json!({"schema": {"type": "object", "required": ["_specHash"], "additionalProperties": {"type": "string"}}});
    content
}

#[cfg(test)]
mod tests {
    use super::*;

    /// OpenAI limits tool descriptions to 1,024 characters (seed 000).
    const MAX_TOOL_DESCRIPTION: usize = 1024;

    #[test]
    fn tool_definition_fits_every_provider() {
        let tool = tool_definition();
        assert!(tool["description"].as_str().unwrap().len() <= MAX_TOOL_DESCRIPTION);
        let text = tool.to_string();
        assert!(!text.contains("$ref") && !text.contains("oneOf"));
        jsonschema::meta::validate(&tool["parameters"]).unwrap();
    }

    #[test]
    fn openapi_references_resolve_inside_the_document() {
        let doc: Value = serde_json::from_str(openapi_json()).unwrap();
        let mut refs = Vec::new();
        collect_refs(&doc, &mut refs);
        assert!(!refs.is_empty());
        for r in refs {
            assert!(
                doc.pointer(r.trim_start_matches('#')).is_some(),
                "{r} does not resolve"
            );
        }
    }

    fn collect_refs(value: &Value, out: &mut Vec<String>) {
        match value {
            Value::Object(map) => {
                if let Some(Value::String(r)) = map.get("$ref") {
                    out.push(r.clone());
                }
                map.values().for_each(|v| collect_refs(v, out));
            }
            Value::Array(items) => items.iter().for_each(|v| collect_refs(v, out)),
            _ => {}
        }
    }

    /// Every operation of the route table is in the document, `/mcp` included,
    /// and nothing else.
    #[test]
    fn openapi_lists_every_route_and_method() {
        let doc: Value = serde_json::from_str(openapi_json()).unwrap();
        let mut listed: Vec<String> = Vec::new();
        for (path, operations) in doc["paths"].as_object().unwrap() {
            for method in operations.as_object().unwrap().keys() {
                listed.push(format!("{method} {path}"));
            }
        }
        let mut routes: Vec<String> = ROUTES
            .iter()
            .flat_map(|row| {
                let methods = row.methods.iter().filter(|m| **m != "HEAD");
                methods.map(|m| format!("{} {}", m.to_ascii_lowercase(), row.path))
            })
            .collect();
        listed.sort();
        routes.sort();
        assert_eq!(listed, routes);
        assert!(listed.contains(&"post /mcp".to_owned()));
    }

    #[test]
    fn openapi_embeds_every_contract() {
        let doc: Value = serde_json::from_str(openapi_json()).unwrap();
        assert_eq!(doc["openapi"], "3.1.0");
        for &c in Contract::ALL {
            assert!(doc["components"]["schemas"][component_name(c)].is_object());
        }
    }
}
