//! `/mcp` end to end inside the core: every answer is also validated
//! against MCP's published JSON Schema of the version in use
//! (`schemas/vendor/mcp/<version>.schema.json`).

use super::*;
use std::collections::HashMap;
use std::sync::OnceLock;

const V26: &str = "2026-07-28";

fn schema_root(version: &str) -> &'static Value {
    static ROOTS: OnceLock<HashMap<&'static str, Value>> = OnceLock::new();
    let roots = ROOTS.get_or_init(|| {
        Version::ALL
            .iter()
            .map(|v| {
                let path = format!(
                    "{}/../../schemas/vendor/mcp/{}.schema.json",
                    env!("CARGO_MANIFEST_DIR"),
                    v.as_str()
                );
                let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
                (v.as_str(), serde_json::from_str(&text).unwrap())
            })
            .collect()
    });
    &roots[version]
}

/// Validates `instance` against definition `def` of `version`'s schema.
fn assert_valid(version: &str, def: &str, instance: &Value) {
    let mut schema = schema_root(version).clone();
    let defs = if schema.get("$defs").is_some() {
        "$defs"
    } else {
        "definitions"
    };
    assert!(schema[defs].get(def).is_some(), "{version} has no {def}");
    schema["$ref"] = json!(format!("#/{defs}/{def}"));
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(instance)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{version} {def}: {errors:?}\n{instance:#}"
    );
}

fn headers_for(version: &str, method: &str, name: Option<&str>) -> HashMap<String, String> {
    let mut h = HashMap::from([("host".to_owned(), "127.0.0.1:8787".to_owned())]);
    if version == V26 {
        h.insert("mcp-protocol-version".into(), version.into());
        h.insert("mcp-method".into(), method.into());
        if let Some(name) = name {
            h.insert("mcp-name".into(), name.into());
        }
    } else if method != "initialize" {
        h.insert("mcp-protocol-version".into(), version.into());
    }
    h
}

fn request(version: &str, id: u64, method: &str, mut params: Value) -> Value {
    if version == V26 {
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": V26,
            "io.modelcontextprotocol/clientCapabilities": {},
        });
    }
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// Sends one body with headers; runs tool jobs as the shell would (no KV).
fn send(body: &[u8], headers: &HashMap<String, String>) -> (u16, Value) {
    let header = |name: &str| headers.get(name).cloned();
    let response = match Mcp::read(body, &header, McpGuard::default(), &Limits::default()) {
        Mcp::Answer(response) => response,
        Mcp::Generate(job, call) => call.finish(&job.finish(None).response),
        Mcp::Submit(submission, call) => {
            call.finish(&submission.answer(None, "msg-1").into_response())
        }
    };
    let value = if response.body.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&response.body).unwrap()
    };
    (response.status, value)
}

/// A request of `version`, checked against the schema's result type `def`.
fn ok(version: &str, method: &str, params: Value, def: &str) -> Value {
    let name = params
        .get("name")
        .or_else(|| params.get("uri"))
        .and_then(Value::as_str)
        .map(str::to_owned);
    let body = request(version, 7, method, params);
    let (status, answer) = send(
        body.to_string().as_bytes(),
        &headers_for(version, method, name.as_deref()),
    );
    assert_eq!(status, 200, "{answer:#}");
    assert_eq!(answer["id"], json!(7));
    assert_valid(version, "JSONRPCMessage", &answer);
    assert_valid(version, def, &answer["result"]);
    answer["result"].clone()
}

/// An error answer, checked against the schema's error envelope.
fn err(version: &str, body: &Value, headers: &HashMap<String, String>) -> (u16, Value) {
    let (status, mut answer) = send(body.to_string().as_bytes(), headers);
    let def = if matches!(version, "2025-03-26" | "2025-06-18") {
        "JSONRPCError"
    } else {
        "JSONRPCErrorResponse"
    };
    // JSON-RPC 2.0 (and the TypeScript SDK's server) answer `"id": null` when
    // the id could not be read; MCP's schema leaves such an id out instead,
    // so the rest of the answer is what is checked against it.
    let without_id = if answer["id"].is_null() {
        answer
            .as_object_mut()
            .and_then(|a| a.remove("id"))
            .is_some()
    } else {
        false
    };
    if !without_id || !matches!(version, "2025-03-26" | "2025-06-18") {
        assert_valid(version, def, &answer);
    }
    // The 2026 error types are whole responses: check the one that fits.
    // (the last two are error objects, not responses).
    let specific = match answer["error"]["code"].as_i64() {
        Some(code::UNSUPPORTED_PROTOCOL_VERSION) => {
            Some(("UnsupportedProtocolVersionError", &answer))
        }
        Some(code::HEADER_MISMATCH) => Some(("HeaderMismatchError", &answer)),
        Some(code::INVALID_PARAMS) => Some(("InvalidParamsError", &answer["error"])),
        Some(code::METHOD_NOT_FOUND) => Some(("MethodNotFoundError", &answer["error"])),
        _ => None,
    };
    if let Some((def, instance)) = specific.filter(|_| version == V26) {
        assert_valid(version, def, instance);
    }
    (status, answer["error"].clone())
}

fn install_view() {
    Mcp::set_view("<!DOCTYPE html><html><head><title>view</title></head><body></body></html>");
}

#[test]
fn discover_lists_versions_capabilities_and_identity() {
    let result = ok(V26, "server/discover", json!({}), "DiscoverResult");
    assert_eq!(
        result["supportedVersions"],
        json!(["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"])
    );
    assert_eq!(
        result["capabilities"]["extensions"],
        json!({"io.modelcontextprotocol/ui": {}})
    );
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "genui-worker"
    );
    assert_eq!(
        (result["resultType"].as_str(), result["cacheScope"].as_str()),
        (Some("complete"), Some("public"))
    );
}

#[test]
fn every_list_and_read_under_every_version() {
    install_view();
    for version in Version::ALL.map(Version::as_str) {
        let tools = ok(version, "tools/list", json!({}), "ListToolsResult");
        let names: Vec<&str> = tools["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, [tools::GENERATE, tools::SUBMIT]);
        assert_eq!(
            tools["tools"][0]["_meta"]["ui"]["resourceUri"],
            "ui://genui/form"
        );
        assert!(tools["tools"][1]["_meta"]["ui"]["visibility"]
            .as_array()
            .unwrap()
            .contains(&json!("app")));
        let listed = ok(version, "resources/list", json!({}), "ListResourcesResult");
        assert_eq!(
            listed["resources"][0]["mimeType"],
            "text/html;profile=mcp-app"
        );
        ok(
            version,
            "resources/templates/list",
            json!({}),
            "ListResourceTemplatesResult",
        );
        let read = ok(
            version,
            "resources/read",
            json!({"uri": "ui://genui/form"}),
            "ReadResourceResult",
        );
        let content = &read["contents"][0];
        assert!(content["text"]
            .as_str()
            .unwrap()
            .starts_with("<!DOCTYPE html>"));
        assert_eq!(content["_meta"]["ui"]["csp"]["connectDomains"], json!([]));
        let stateless = version == V26;
        assert_eq!(read.get("ttlMs").is_some(), stateless, "{version}");
        assert_eq!(read.get("resultType").is_some(), stateless, "{version}");
    }
}

#[test]
fn handshake_initialize_and_ping() {
    for version in ["2025-11-25", "2025-06-18", "2025-03-26"] {
        let params = json!({"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}});
        let result = ok(version, "initialize", params, "InitializeResult");
        assert_eq!(result["protocolVersion"], version);
        assert_eq!(result["serverInfo"]["name"], "genui-worker");
        assert_eq!(
            ok(version, "ping", json!({}), "EmptyResult"),
            json!({}),
            "ping's result is exactly {{}}"
        );
        let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        assert_eq!(
            send(
                note.to_string().as_bytes(),
                &headers_for(version, "x", None)
            ),
            (202, Value::Null)
        );
    }
    // An unknown version gets our newest handshake version.
    let params = json!({"protocolVersion": "2024-11-05", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}});
    assert_eq!(
        ok("2025-11-25", "initialize", params, "InitializeResult")["protocolVersion"],
        "2025-11-25"
    );
}

fn generate_call(version: &str, arguments: Value) -> Value {
    let result = ok(
        version,
        "tools/call",
        json!({"name": tools::GENERATE, "arguments": arguments}),
        "CallToolResult",
    );
    assert_output_schema(tools::GENERATE, &result);
    result
}

/// A result's `structuredContent` matches its tool's `outputSchema`, as
/// clients check (the TypeScript SDK does, with Ajv).
fn assert_output_schema(tool: &str, result: &Value) {
    let tools = tools::list();
    let schema = &tools.iter().find(|t| t["name"] == tool).unwrap()["outputSchema"];
    let validator = jsonschema::validator_for(schema).unwrap();
    assert!(
        validator.is_valid(&result["structuredContent"]),
        "{tool}: {result:#}"
    );
}

#[test]
fn mcp_is_post_only_and_keyed_like_v1() {
    use crate::edge::routes::Route;
    assert!(Route::of("POST", "/mcp").needs_key());
    assert_eq!(
        Route::of("GET", "/mcp"),
        Route::MethodNotAllowed {
            allow: "POST".into()
        }
    );
    assert_eq!(
        Route::of("DELETE", "/mcp"),
        Route::MethodNotAllowed {
            allow: "POST".into()
        }
    );
}

#[test]
fn generate_then_submit_valid_and_invalid() {
    let output = json!({"type": "object", "properties": {"email": {"type": "string", "format": "email"}, "age": {"type": "integer", "minimum": 0}}, "required": ["email"]});
    for version in Version::ALL.map(Version::as_str) {
        let result = generate_call(
            version,
            json!({"description": "Contact", "output": output, "format": "rjsf"}),
        );
        assert_eq!(result.get("isError"), None, "{result:#}");
        let structured = &result["structuredContent"];
        assert_eq!(structured["format"], "rjsf");
        assert_eq!(structured["specHash"].as_str().unwrap().len(), 64);
        assert_eq!(structured["spec"]["type"], "dgui_form");
        let submit = |data: Value| {
            ok(
                version,
                "tools/call",
                json!({"name": tools::SUBMIT, "arguments": {"output": output, "data": data, "toolCallId": "c1"}}),
                "CallToolResult",
            )
        };
        let valid = submit(json!({"email": "a@b.example", "age": 3}));
        assert_output_schema(tools::SUBMIT, &valid);
        assert_eq!(valid.get("isError"), None);
        assert_eq!(
            valid["structuredContent"]["toolMessage"]["toolCallId"],
            "c1"
        );
        // Without a toolCallId: DGUI's response, no made-up tool call.
        let untold = ok(
            version,
            "tools/call",
            json!({"name": tools::SUBMIT, "arguments": {"output": output, "data": {"email": "a@b.example"}}}),
            "CallToolResult",
        );
        assert_output_schema(tools::SUBMIT, &untold);
        assert_eq!(
            untold["structuredContent"],
            json!({"response": {"type": "dgui_response", "data": {"email": "a@b.example"}}})
        );
        let invalid = submit(json!({"email": "nope", "age": -1}));
        assert_output_schema(tools::SUBMIT, &invalid);
        assert_eq!(invalid["isError"], true);
        let error = &invalid["structuredContent"]["error"];
        assert_eq!(error["code"], "submission_invalid");
        let pointers: Vec<&str> = error["payload"]["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["pointer"].as_str().unwrap())
            .collect();
        assert!(
            pointers.contains(&"/email") && pointers.contains(&"/age"),
            "{pointers:?}"
        );
    }
}

#[test]
fn markup_is_data_free_and_html_is_a_format() {
    let path = format!(
        "{}/tests/fixtures/generate/bug-report.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut arguments: Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let result = generate_call(V26, arguments.clone());
    let markup = result["structuredContent"]["markup"].as_str().unwrap();
    assert!(
        markup.starts_with("<form") && markup.contains(r#"name="/title""#),
        "{markup}"
    );
    assert!(
        !markup.contains("App crashes on launch"),
        "the pre-fill reaches the view only through the tool input"
    );
    assert_eq!(
        result["structuredContent"]["spec"]["initialData"]["title"],
        "App crashes on launch"
    );
    arguments["format"] = json!("html");
    let result = generate_call("2025-11-25", arguments);
    assert_eq!(result["structuredContent"]["spec"]["type"], "html_page");
    assert!(result["structuredContent"]["spec"]["html"]
        .as_str()
        .unwrap()
        .contains("App crashes on launch"));
}

#[test]
fn bad_tool_arguments_are_tool_errors_with_pointers() {
    let result = generate_call(
        V26,
        json!({"description": "x", "output": {"type": "object", "properties": {"a": {"$ref": "#/nowhere"}}}}),
    );
    assert_eq!(result["isError"], true);
    assert_eq!(
        result["structuredContent"]["error"]["code"],
        "unresolved_ref"
    );
    assert!(result["structuredContent"]["error"]["payload"]["pointer"]
        .as_str()
        .unwrap()
        .starts_with("/output"));
    let result = generate_call(
        "2025-11-25",
        json!({"description": "x", "output": {}, "format": "svg"}),
    );
    assert_eq!(
        result["structuredContent"]["error"]["code"],
        "unsupported_format"
    );
}

#[test]
fn generates_every_fixture_under_both_eras() {
    let dir = format!("{}/tests/fixtures/generate", env!("CARGO_MANIFEST_DIR"));
    let mut count = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let arguments: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for version in [V26, "2025-06-18"] {
            let result = generate_call(version, arguments.clone());
            assert_eq!(
                result.get("isError"),
                None,
                "{}: {result:#}",
                path.display()
            );
        }
        count += 1;
    }
    assert!(count > 40, "{count} fixtures");
}

#[test]
fn protocol_errors() {
    let h = headers_for(V26, "tools/list", None);
    let (status, e) = err(V26, &json!(null), &h);
    assert_eq!(status, 400);
    let (status, answer) = send(b"{not json", &h);
    assert_eq!(
        (
            status,
            answer["id"].clone(),
            answer["error"]["code"].clone()
        ),
        (400, Value::Null, json!(-32700))
    );
    assert_eq!(e["code"], -32600);
    let batch = json!([request(V26, 1, "tools/list", json!({}))]);
    let (status, e) = err(V26, &batch, &h);
    assert_eq!((status, e["code"].clone()), (400, json!(-32600)));
    assert!(e["message"].as_str().unwrap().contains("batch"));

    // Missing _meta fields: -32602, 400, id echoed.
    let bare = json!({"jsonrpc": "2.0", "id": 101, "method": "tools/list", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": V26}}});
    let (status, e) = err(V26, &bare, &h);
    assert_eq!((status, e["code"].clone()), (400, json!(-32602)));
    assert_eq!(e["data"]["type"], "dgui_error");
    assert_eq!(
        e["data"]["payload"]["pointer"],
        "/params/_meta/io.modelcontextprotocol~1clientCapabilities"
    );

    // Unsupported version, and a header that disagrees with _meta.
    let mut odd = request(V26, 2, "tools/list", json!({}));
    odd["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = json!("v999.0.0");
    let (status, e) = err(V26, &odd, &h);
    assert_eq!((status, e["code"].clone()), (400, json!(-32020)));
    let mut both = h.clone();
    both.insert("mcp-protocol-version".into(), "v999.0.0".into());
    let (status, e) = err(V26, &odd, &both);
    assert_eq!(
        (status, e["code"].clone(), e["data"]["requested"].clone()),
        (400, json!(-32022), json!("v999.0.0"))
    );

    // Mcp-Method and Mcp-Name.
    let (status, e) = err(
        V26,
        &request(V26, 3, "tools/list", json!({})),
        &headers_for(V26, "TOOLS/LIST", None),
    );
    assert_eq!((status, e["code"].clone()), (400, json!(-32020)));
    let call = request(
        V26,
        4,
        "tools/call",
        json!({"name": "generate_user_interface", "arguments": {}}),
    );
    let (_, e) = err(
        V26,
        &call,
        &headers_for(V26, "tools/call", Some("submit_user_interface")),
    );
    assert_eq!(e["code"], -32020);
    let (_, e) = err(V26, &call, &headers_for(V26, "tools/call", None));
    assert_eq!(e["code"], -32020);
    let (status, answer) = send(
        call.to_string().as_bytes(),
        &headers_for(
            V26,
            "tools/call",
            Some("  =?base64?Z2VuZXJhdGVfdXNlcl9pbnRlcmZhY2U=?=  "),
        ),
    );
    assert_eq!(
        (status, answer["result"]["isError"].clone()),
        (200, json!(true)),
        "the name header decodes; empty arguments are a tool error"
    );

    // Removed and unknown methods: 404 -32601 under 2026; 200 before.
    for method in [
        "initialize",
        "ping",
        "logging/setLevel",
        "resources/subscribe",
        "unknown/method",
    ] {
        let (status, e) = err(
            V26,
            &request(V26, 5, method, json!({})),
            &headers_for(V26, method, None),
        );
        assert_eq!(
            (status, e["code"].clone()),
            (404, json!(-32601)),
            "{method}"
        );
    }
    let (status, e) = err(
        "2025-11-25",
        &request("2025-11-25", 5, "prompts/list", json!({})),
        &headers_for("2025-11-25", "x", None),
    );
    assert_eq!((status, e["code"].clone()), (200, json!(-32601)));

    // Unknown tool: -32602 with a pointer.
    let unknown = request(V26, 6, "tools/call", json!({"name": "nope"}));
    let (status, e) = err(V26, &unknown, &headers_for(V26, "tools/call", Some("nope")));
    assert_eq!(
        (
            status,
            e["code"].clone(),
            e["data"]["payload"]["pointer"].clone()
        ),
        (400, json!(-32602), json!("/params/name"))
    );
}

#[test]
fn resource_not_found_per_version() {
    let uri = "ui://genui/other";
    let (status, e) = err(
        V26,
        &request(V26, 8, "resources/read", json!({"uri": uri})),
        &headers_for(V26, "resources/read", Some(uri)),
    );
    assert_eq!(
        (status, e["code"].clone(), e["data"]["uri"].clone()),
        (400, json!(-32602), json!(uri))
    );
    assert!(e["message"]
        .as_str()
        .unwrap()
        .contains("generate_user_interface again"));
    for version in ["2025-11-25", "2025-06-18", "2025-03-26"] {
        let (status, e) = err(
            version,
            &request(version, 8, "resources/read", json!({"uri": uri})),
            &headers_for(version, "x", None),
        );
        assert_eq!(
            (status, e["code"].clone()),
            (200, json!(-32002)),
            "{version}"
        );
    }
}

#[test]
fn hosts_origins_and_size() {
    let mut h = headers_for(V26, "server/discover", None);
    h.insert("host".into(), "evil.example.com".into());
    h.insert("origin".into(), "http://evil.example.com".into());
    let (status, answer) = send(
        request(V26, 1, "server/discover", json!({}))
            .to_string()
            .as_bytes(),
        &h,
    );
    assert_eq!(
        (status, answer["error"]["data"]["code"].clone()),
        (403, json!("forbidden"))
    );
    let h = headers_for(V26, "server/discover", None);
    let big = format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{{\"x\":\"{}\"}}}}",
        "a".repeat(Limits::default().max_body_bytes)
    );
    let (status, answer) = send(big.as_bytes(), &h);
    assert_eq!(
        (status, answer["error"]["data"]["code"].clone()),
        (413, json!("body_too_large"))
    );
}

#[test]
fn never_panics_on_odd_bodies() {
    let h = headers_for(V26, "tools/call", Some("x"));
    for body in [
        "",
        "1",
        "\"s\"",
        "{}",
        "{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"x\"}",
        "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"x\"}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":[]}",
        "{\"jsonrpc\":\"2.0\",\"id\":1}",
        "[]",
        "[[[[[[[[[[[[]]]]]]]]]]]]",
    ] {
        let (status, _) = send(body.as_bytes(), &h);
        assert!((400..500).contains(&status), "{body}: {status}");
    }
}
