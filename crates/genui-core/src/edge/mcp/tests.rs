//! `/mcp` end to end inside the core: every answer is also validated
//! against MCP's published JSON Schema of the version in use
//! (`schemas/vendor/mcp/<version>.schema.json`).

use super::*;
use std::collections::HashMap;
use std::sync::OnceLock;

const V26: &str = "2026-07-28";
const SECRET: &str = "s3cret";
const NOW: u64 = 1_795_564_800;

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

thread_local! {
    /// Whether this test's worker has hosted forms (`WEBHOOK_SECRET`).
    static HOSTED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// The answers the links' objects keep, by object name (the shell's
    /// Durable Objects, for [`Mcp::Read`]).
    static KEPT: std::cell::RefCell<HashMap<String, String>> = std::cell::RefCell::new(HashMap::new());
    /// The links [`Mcp::Link`] made: object name and record.
    static LINKS: std::cell::RefCell<Vec<(String, crate::edge::forms::FormRecord)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Where the test worker's links point.
const ORIGIN: &str = "https://w.example";

/// The form view the test worker is built with.
const VIEW: &str = "<!DOCTYPE html><html><head><title>view</title></head><body></body></html>";

/// Runs `job` as the shell runs a link's: generated, then kept under a new
/// link (its id from the count of links made so far).
fn issue_link(job: GenerateJob, link: McpLink, settings: McpSettings<'_>) -> HttpResponse {
    use crate::edge::forms::{FormRecord, FormToken};
    let made = LINKS.with(|l| l.borrow().len()) as u8;
    let random = [made + 1; FormRecord::RANDOM_BYTES];
    let (record, token, fragment) =
        FormRecord::issue(&job, job.spec_hash(), None, random, NOW, 3_600);
    let answer = job.answer(None).response;
    LINKS.with(|l| l.borrow_mut().push((token.object_name(), record)));
    let url = format!(
        "{ORIGIN}{}",
        FormToken::path(&token.sign(SECRET), fragment.as_deref())
    );
    link.tool_result(&answer, Some(&url), settings)
}

/// Sends one body with headers; runs tool jobs as the shell would (no KV).
fn send(body: &[u8], headers: &HashMap<String, String>) -> (u16, Value) {
    let header = |name: &str| headers.get(name).cloned();
    let settings = McpSettings {
        secret: HOSTED.get().then_some(SECRET),
        now: NOW,
        view: Some(VIEW),
        ..McpSettings::default()
    };
    let response = match Mcp::read(body, &header, settings, &Limits::default()) {
        Mcp::Answer(response) => response,
        Mcp::Generate(job, call) => call.tool_result(&job.answer(None).response),
        Mcp::Submit(submission, call) => {
            call.tool_result(&submission.answer(None, "msg-1").into_response())
        }
        Mcp::Link(job, link) => issue_link(*job, link, settings),
        Mcp::Read(read) => {
            let kept = KEPT.with(|k| k.borrow().get(read.object_name()).cloned());
            read.answer(kept.as_deref())
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
fn a_worker_built_without_the_view_says_so_when_it_is_read() {
    let uri = "ui://genui/form";
    let body = request(V26, 8, "resources/read", json!({"uri": uri})).to_string();
    let headers = headers_for(V26, "resources/read", Some(uri));
    let header = |name: &str| headers.get(name).cloned();
    let answer = |view| {
        let settings = McpSettings {
            now: NOW,
            view,
            ..McpSettings::default()
        };
        match Mcp::read(body.as_bytes(), &header, settings, &Limits::default()) {
            Mcp::Answer(response) => response,
            other => panic!("not an answer: {other:?}"),
        }
    };
    let without = answer(None);
    let error: Value = serde_json::from_str(&without.body).unwrap();
    assert_eq!(
        (without.status, error["error"]["data"]["code"].as_str()),
        (500, Some("internal_error")),
        "{error}"
    );
    // The same worker with a view, in the same thread: what one isolate is
    // built with is never seen by another.
    let with: Value = serde_json::from_str(&answer(Some(VIEW)).body).unwrap();
    assert_eq!(with["result"]["contents"][0]["text"], VIEW);
    assert!(answer(None).status == 500, "the view is not remembered");
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

// ---- Hosts without Apps: elicitation, session capabilities, what is missing ----

const FLAT: &str = r#"{"type": "object", "title": "Contact", "required": ["email"], "properties": {
    "email": {"type": "string", "format": "email", "title": "E-mail"},
    "age": {"type": "integer", "minimum": 0},
    "plan": {"type": "string", "oneOf": [{"const": "s", "title": "Small"}, {"const": "l", "title": "Large"}]}}}"#;
const NESTED: &str = r#"{"type": "object", "properties": {
    "name": {"type": "string"},
    "address": {"type": "object", "properties": {"city": {"type": "string"}}}}}"#;

fn apps_caps() -> Value {
    json!({"extensions": {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}}})
}

/// A 2026-07-28 `tools/call` of generate with these capabilities and
/// extra params (`inputResponses`, `requestState`); the answer.
fn call_26(caps: Value, output: &str, extra: Value) -> (u16, Value) {
    let output: Value = serde_json::from_str(output).unwrap();
    let mut params = json!({"name": tools::GENERATE,
        "arguments": {"description": "Your contact details", "output": output, "data": {"age": 30}},
        "_meta": {"io.modelcontextprotocol/protocolVersion": V26,
                  "io.modelcontextprotocol/clientCapabilities": caps}});
    if let (Some(params), Value::Object(extra)) = (params.as_object_mut(), extra) {
        params.extend(extra);
    }
    let body = json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": params});
    let (status, answer) = send(
        body.to_string().as_bytes(),
        &headers_for(V26, "tools/call", Some(tools::GENERATE)),
    );
    assert_valid(V26, "JSONRPCMessage", &answer);
    (status, answer)
}

/// The `input_required` result for a flat output, checked against the schema.
fn elicited(caps: Value) -> Value {
    HOSTED.set(true);
    let (status, answer) = call_26(caps, FLAT, json!({}));
    assert_eq!(status, 200, "{answer:#}");
    let result = answer["result"].clone();
    assert_valid(V26, "InputRequiredResult", &result);
    result
}

#[test]
fn an_elicitation_client_without_apps_gets_a_form_mode_input_required() {
    let result = elicited(json!({"elicitation": {}}));
    assert_eq!(result["resultType"], "input_required");
    let request = &result["inputRequests"]["form"];
    assert_eq!(request["method"], "elicitation/create");
    assert_eq!(request["params"]["mode"], "form");
    assert_eq!(
        request["params"]["message"], "Contact",
        "output's title, for the person"
    );
    let schema = &request["params"]["requestedSchema"];
    assert_eq!(schema["required"], json!(["email"]));
    assert_eq!(
        schema["properties"]["email"],
        json!({"type": "string", "format": "email", "title": "E-mail"})
    );
    assert_eq!(schema["properties"]["age"]["default"], 30, "the pre-fill");
    assert_eq!(
        schema["properties"]["plan"]["oneOf"][1],
        json!({"const": "l", "title": "Large"})
    );
    assert!(result["requestState"]
        .as_str()
        .is_some_and(|s| s.contains('.')));
    // Apps wins over elicitation; URL mode alone gets the form as a link.
    let both = json!({"elicitation": {}, "extensions": apps_caps()["extensions"]});
    let (_, answer) = call_26(both, FLAT, json!({}));
    assert_eq!(answer["result"]["resultType"], "complete");
    let (_, answer) = call_26(json!({"elicitation": {"url": {}}}), FLAT, json!({}));
    assert_eq!(
        answer["result"]["inputRequests"]["form"]["params"]["mode"],
        "url"
    );
}

/// The signed state of an elicitation for the flat output.
fn state() -> String {
    elicited(json!({"elicitation": {"form": {}}}))["requestState"]
        .as_str()
        .unwrap()
        .to_owned()
}

fn retried(action: Value, state: Value) -> (u16, Value) {
    HOSTED.set(true);
    let mut extra = json!({"inputResponses": {"form": action}});
    if !state.is_null() {
        extra["requestState"] = state;
    }
    call_26(json!({"elicitation": {}}), FLAT, extra)
}

#[test]
fn an_accepted_answer_is_checked_against_output_before_the_agent_gets_it() {
    let state = json!(state());
    let (status, answer) = retried(
        json!({"action": "accept", "content": {"email": "a@b.example", "age": 3, "plan": "l"}}),
        state.clone(),
    );
    assert_eq!(status, 200, "{answer:#}");
    let result = &answer["result"];
    assert_valid(V26, "CallToolResult", result);
    assert_output_schema(tools::GENERATE, result);
    assert_eq!(result.get("isError"), None, "{result:#}");
    assert_eq!(
        result["structuredContent"]["response"]["data"],
        json!({"email": "a@b.example", "age": 3, "plan": "l"})
    );
    let (_, answer) = retried(
        json!({"action": "accept", "content": {"email": "nope", "age": -1, "plan": "x"}}),
        state,
    );
    let result = &answer["result"];
    assert_valid(V26, "CallToolResult", result);
    assert_output_schema(tools::GENERATE, result);
    assert_eq!(result["isError"], true);
    let error = &result["structuredContent"]["error"];
    assert_eq!(error["code"], "submission_invalid");
    assert!(
        result.to_string().contains("/email"),
        "the pointer is named: {result:#}"
    );
    assert_eq!(
        result["structuredContent"].get("response"),
        None,
        "no unchecked data"
    );
}

#[test]
fn a_declined_or_cancelled_elicitation_is_said_so() {
    for action in ["decline", "cancel"] {
        let (status, answer) = retried(json!({"action": action}), json!(state()));
        assert_eq!(status, 200);
        let result = &answer["result"];
        assert_valid(V26, "CallToolResult", result);
        assert_output_schema(tools::GENERATE, result);
        assert_eq!(result["structuredContent"], json!({"action": action}));
        assert_eq!(result.get("isError"), None);
        assert!(result["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("no data"));
    }
}

#[test]
fn a_forged_missing_or_foreign_request_state_is_refused_with_its_code() {
    let good = state();
    let (payload, signature) = good.split_once('.').unwrap();
    let mut tampered_payload = payload.to_owned();
    tampered_payload.replace_range(..1, if payload.starts_with('A') { "B" } else { "A" });
    let content = json!({"action": "accept", "content": {"email": "a@b.example"}});
    for forged in [
        json!(format!("{tampered_payload}.{signature}")),
        json!(format!("{payload}.{}", "A".repeat(43))),
        json!("garbage"),
        json!(42),
        Value::Null,
    ] {
        let (status, answer) = retried(content.clone(), forged.clone());
        assert_eq!(status, 400, "{forged}: {answer:#}");
        assert_eq!(answer["error"]["code"], code::INVALID_PARAMS);
        assert_eq!(
            answer["error"]["data"]["code"], "invalid_request_state",
            "{forged}"
        );
        assert_eq!(
            answer["error"]["data"]["payload"]["pointer"],
            "/params/requestState"
        );
    }
    // A state made for another form does not answer this one.
    HOSTED.set(true);
    let mut extra = json!({"inputResponses": {"form": content}, "requestState": good});
    extra["arguments"] = json!({"output": serde_json::from_str::<Value>(NESTED).unwrap()});
    let (status, answer) = call_26(json!({"elicitation": {}}), FLAT, extra);
    assert_eq!(
        (status, &answer["error"]["data"]["code"]),
        (400, &json!("invalid_request_state"))
    );
    // A malformed answer is named by its pointer.
    let (status, answer) = retried(json!({"action": "maybe"}), json!(state()));
    assert_eq!(status, 400);
    assert_eq!(
        answer["error"]["data"]["payload"]["pointer"],
        "/params/inputResponses/form/action"
    );
}

#[test]
fn a_non_flat_output_or_no_capability_names_what_is_missing() {
    let text = |answer: &Value| {
        answer["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let (status, answer) = call_26(json!({"elicitation": {}}), NESTED, json!({}));
    assert_eq!(status, 200);
    assert_valid(V26, "CallToolResult", &answer["result"]);
    assert!(
        text(&answer).contains("/properties/address/type"),
        "{}",
        text(&answer)
    );
    assert_eq!(
        answer["result"]["structuredContent"]["spec"]["jsonSchema"]["type"],
        "object"
    );
    for garbage in [json!({}), json!({"elicitation": true, "extensions": [1]})] {
        let (status, answer) = call_26(garbage.clone(), FLAT, json!({}));
        assert_eq!(status, 200, "{garbage}");
        assert!(
            text(&answer).contains("cannot show the form"),
            "{garbage}: {}",
            text(&answer)
        );
    }
    let (_, apps) = call_26(apps_caps(), FLAT, json!({}));
    assert!(text(&apps).contains("fills it in the form view"));
}

#[test]
fn handshake_capabilities_come_back_as_the_session_id() {
    let initialize = |caps: Value| {
        let body = request(
            "2025-11-25",
            1,
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": caps, "clientInfo": {"name": "t", "version": "1"}}),
        );
        let header = |name: &str| {
            headers_for("2025-11-25", "initialize", None)
                .get(name)
                .cloned()
        };
        let settings = McpSettings {
            secret: None,
            now: NOW,
            ..McpSettings::default()
        };
        let Mcp::Answer(response) = Mcp::read(
            body.to_string().as_bytes(),
            &header,
            settings,
            &Limits::default(),
        ) else {
            panic!("initialize is answered at once")
        };
        let session = response
            .headers
            .iter()
            .find(|(n, _)| n == "mcp-session-id")
            .map(|(_, v)| v.clone());
        session.expect("a session id")
    };
    let call = |session: Option<String>| {
        let mut headers = headers_for("2025-11-25", "tools/call", None);
        if let Some(session) = session {
            headers.insert("mcp-session-id".into(), session);
        }
        let output: Value = serde_json::from_str(FLAT).unwrap();
        let body = request(
            "2025-11-25",
            2,
            "tools/call",
            json!({"name": tools::GENERATE, "arguments": {"output": output}}),
        );
        let (status, answer) = send(body.to_string().as_bytes(), &headers);
        assert_eq!(status, 200);
        assert_valid("2025-11-25", "CallToolResult", &answer["result"]);
        answer["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let apps = initialize(apps_caps());
    assert!(call(Some(apps)).contains("fills it in the form view"));
    // Elicitation needs a stream this server does not keep before 2026-07-28.
    for caps in [json!({}), json!({"elicitation": {}}), json!("garbage")] {
        let session = initialize(caps.clone());
        assert!(
            call(Some(session)).contains("cannot show the form"),
            "{caps}"
        );
    }
    assert!(
        call(None).contains("fills it in the form view"),
        "unknown: today's answer"
    );
    assert!(call(Some("someone-elses-session".into())).contains("fills it in the form view"));
}

#[test]
fn without_hosted_forms_form_mode_carries_no_state_and_refuses_one() {
    let (_, answer) = call_26(json!({"elicitation": {}}), FLAT, json!({}));
    assert_eq!(answer["result"]["resultType"], "input_required");
    assert_eq!(
        answer["result"].get("requestState"),
        None,
        "nothing to sign with"
    );
    let accept = json!({"action": "accept", "content": {"email": "a@b.example"}});
    let (status, answer) = call_26(
        json!({"elicitation": {}}),
        FLAT,
        json!({"inputResponses": {"form": accept}}),
    );
    assert_eq!(status, 200);
    assert_eq!(
        answer["result"]["structuredContent"]["response"]["data"]["email"],
        "a@b.example"
    );
    let forged = json!({"inputResponses": {"form": accept}, "requestState": "x.y"});
    let (status, answer) = call_26(json!({"elicitation": {}}), FLAT, forged);
    assert_eq!(
        (status, &answer["error"]["data"]["code"]),
        (400, &json!("invalid_request_state"))
    );
}

#[test]
fn a_url_mode_elicitation_sends_a_hosted_link_and_the_retry_reads_its_kept_answer() {
    HOSTED.set(true);
    let caps = json!({"elicitation": {"url": {}}});
    let (status, answer) = call_26(caps.clone(), NESTED, json!({}));
    assert_eq!(status, 200, "{answer:#}");
    let result = answer["result"].clone();
    assert_valid(V26, "InputRequiredResult", &result);
    let params = &result["inputRequests"]["form"]["params"];
    assert_eq!(params["mode"], "url");
    let url = params["url"].as_str().unwrap().to_owned();
    assert!(url.starts_with("https://w.example/f/"), "{url}");
    let (object, record) = LINKS.with(|l| l.borrow().last().cloned().unwrap());
    assert_eq!(record.callback_url, None, "the object keeps the answer");
    let state = result["requestState"].clone();
    let retry = |action: Value| {
        call_26(
            caps.clone(),
            NESTED,
            json!({"inputResponses": {"form": action}, "requestState": state}),
        )
    };
    // Not sent yet: the same link again.
    let (_, again) = retry(json!({"action": "accept"}));
    assert_valid(V26, "InputRequiredResult", &again["result"]);
    assert_eq!(
        again["result"]["inputRequests"]["form"]["params"]["url"],
        url.as_str()
    );
    assert_eq!(again["result"]["requestState"], state);
    // Sent (the hosted form's submission checked it and the object kept it).
    let message =
        json!({"type": "dgui_response", "data": {"name": "Ada", "address": {"city": "Paris"}}});
    KEPT.with(|k| k.borrow_mut().insert(object, message.to_string()));
    let (_, done) = retry(json!({"action": "accept"}));
    assert_valid(V26, "CallToolResult", &done["result"]);
    assert_output_schema(tools::GENERATE, &done["result"]);
    assert_eq!(done["result"]["structuredContent"]["response"], message);
    let (_, declined) = retry(json!({"action": "decline"}));
    assert_eq!(
        declined["result"]["structuredContent"],
        json!({"action": "decline"})
    );
    let (status, content) = retry(json!({"action": "accept", "content": {"name": "x"}}));
    assert_eq!(
        (status, &content["error"]["code"]),
        (400, &json!(code::INVALID_PARAMS))
    );
    // A form-mode client with a flat output still gets form mode; one that
    // declares form mode only and asks for a nested output gets the link.
    let (_, flat) = call_26(
        json!({"elicitation": {"form": {}, "url": {}}}),
        FLAT,
        json!({}),
    );
    assert_eq!(
        flat["result"]["inputRequests"]["form"]["params"]["mode"],
        "form"
    );
}

#[test]
fn a_host_that_shows_no_form_gets_the_hosted_link_as_a_resource_link() {
    HOSTED.set(true);
    let initialize = |version: &str| {
        let body = request(
            version,
            1,
            "initialize",
            json!({"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
        );
        let header = |name: &str| headers_for(version, "initialize", None).get(name).cloned();
        let settings = McpSettings {
            secret: Some(SECRET),
            now: NOW,
            ..McpSettings::default()
        };
        let Mcp::Answer(response) = Mcp::read(
            body.to_string().as_bytes(),
            &header,
            settings,
            &Limits::default(),
        ) else {
            panic!("initialize is answered at once")
        };
        response
            .headers
            .into_iter()
            .find(|(n, _)| n == "mcp-session-id")
            .unwrap()
            .1
    };
    for version in ["2025-11-25", "2025-06-18", "2025-03-26"] {
        let mut headers = headers_for(version, "tools/call", None);
        headers.insert("mcp-session-id".into(), initialize(version));
        let output: Value = serde_json::from_str(NESTED).unwrap();
        let body = request(
            version,
            2,
            "tools/call",
            json!({"name": tools::GENERATE, "arguments": {"output": output}}),
        );
        let (status, answer) = send(body.to_string().as_bytes(), &headers);
        assert_eq!(status, 200);
        let result = &answer["result"];
        assert_valid(version, "CallToolResult", result);
        assert_output_schema(tools::GENERATE, result);
        let text = result["content"][0]["text"].as_str().unwrap();
        let url = text
            .split_whitespace()
            .find(|w| w.starts_with("https://w.example/f/"))
            .expect(text);
        let link = result["content"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["type"] == "resource_link");
        match version {
            "2025-03-26" => assert_eq!(link, None, "no resource_link before 2025-06-18"),
            _ => assert_eq!(link.unwrap()["uri"], url),
        }
        assert!(
            result["structuredContent"]["spec"].is_object(),
            "the spec as well"
        );
    }
    // 2026-07-28 without elicitation: the same.
    let (_, answer) = call_26(json!({}), FLAT, json!({}));
    assert_valid(V26, "CallToolResult", &answer["result"]);
    let uri = answer["result"]["content"][1]["uri"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(answer["result"]["content"][1]["type"], "resource_link");
    // The agent reads the answer the link keeps with resources/read.
    for version in ["2025-11-25", V26] {
        let open = ok(
            version,
            "resources/read",
            json!({"uri": uri}),
            "ReadResourceResult",
        );
        let text: Value =
            serde_json::from_str(open["contents"][0]["text"].as_str().unwrap()).unwrap();
        assert_eq!(text["state"], "open", "not sent yet");
    }
    let (object, _) = LINKS.with(|l| l.borrow().last().cloned().unwrap());
    let message = json!({"type": "dgui_response", "data": {"email": "a@b.example"}});
    KEPT.with(|k| k.borrow_mut().insert(object, message.to_string()));
    let sent = ok(
        V26,
        "resources/read",
        json!({"uri": uri}),
        "ReadResourceResult",
    );
    assert_eq!(sent["contents"][0]["text"], message.to_string());
    assert_eq!(
        (sent["ttlMs"].as_u64(), sent["cacheScope"].as_str()),
        (Some(0), Some("private"))
    );
    // A link this worker did not sign is refused with the link's own code.
    let forged = uri.replace("/f/", "/f/x");
    let body = request(V26, 3, "resources/read", json!({"uri": forged}));
    let (status, error) = err(
        V26,
        &body,
        &headers_for(V26, "resources/read", Some(&forged)),
    );
    assert_eq!((status, &error["data"]["code"]), (400, &json!("not_found")));
}

#[test]
fn a_url_mode_state_stays_readable_with_a_large_prefill() {
    HOSTED.set(true);
    let caps = json!({"elicitation": {"url": {}}});
    let output: Value = serde_json::from_str(NESTED).unwrap();
    let arguments = json!({"output": output, "data": {"name": "x".repeat(20_000)}});
    let call = |extra: Value| {
        let mut params = json!({"name": tools::GENERATE, "arguments": arguments,
            "_meta": {"io.modelcontextprotocol/protocolVersion": V26,
                      "io.modelcontextprotocol/clientCapabilities": caps}});
        if let (Some(params), Value::Object(extra)) = (params.as_object_mut(), extra) {
            params.extend(extra);
        }
        let body = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": params});
        send(
            body.to_string().as_bytes(),
            &headers_for(V26, "tools/call", Some(tools::GENERATE)),
        )
    };
    let (_, first) = call(json!({}));
    let url = first["result"]["inputRequests"]["form"]["params"]["url"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        url.contains("#data="),
        "the person's first visit has the pre-fill"
    );
    let state = first["result"]["requestState"].clone();
    let (status, again) =
        call(json!({"inputResponses": {"form": {"action": "accept"}}, "requestState": state}));
    assert_eq!(status, 200, "{again:#}");
    let repeated = again["result"]["inputRequests"]["form"]["params"]["url"]
        .as_str()
        .unwrap();
    assert_eq!(repeated, url.split('#').next().unwrap());
}

#[allow(dead_code, unreachable_pub)] // shared test module: only the v1.0 set is used here
#[path = "../../../tests/a2ui_schema/mod.rs"]
mod a2ui_schema;

const A2UI_MIME: &str = "application/a2ui+json";
use capabilities::UI_EXTENSION;

/// A generate call from a host with these capabilities, under `version`
/// (2026-07-28: in `_meta`; the handshake: the session id `initialize`
/// answered for them).
fn generate_for_host(version: &str, caps: Value, output: &Value) -> Value {
    let arguments = json!({"description": "Contact", "output": output, "format": "rjsf"});
    generate_with_for_host(version, caps, arguments)
}

/// [`generate_for_host`] with the tool's whole `arguments`.
fn generate_with_for_host(version: &str, caps: Value, arguments: Value) -> Value {
    let mut headers = headers_for(version, "tools/call", Some(tools::GENERATE));
    let mut body = request(
        version,
        7,
        "tools/call",
        json!({"name": tools::GENERATE, "arguments": arguments}),
    );
    if version == V26 {
        body["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"] = caps;
    } else {
        let init = request(
            version,
            1,
            "initialize",
            json!({"protocolVersion": version, "capabilities": caps, "clientInfo": {"name": "t", "version": "1"}}),
        );
        let init_headers = headers_for(version, "initialize", None);
        let header = |name: &str| init_headers.get(name).cloned();
        let settings = McpSettings::default();
        let Mcp::Answer(response) = Mcp::read(
            init.to_string().as_bytes(),
            &header,
            settings,
            &Limits::default(),
        ) else {
            panic!("initialize is answered at once")
        };
        let (_, session) = response
            .headers
            .into_iter()
            .find(|(n, _)| n == "mcp-session-id")
            .expect("a session id");
        headers.insert("mcp-session-id".into(), session);
    }
    let (status, answer) = send(body.to_string().as_bytes(), &headers);
    assert_eq!(status, 200, "{answer:#}");
    assert_valid(version, "CallToolResult", &answer["result"]);
    assert_output_schema(tools::GENERATE, &answer["result"]);
    answer["result"].clone()
}

/// The A2UI messages of a result's `application/a2ui+json` resource.
fn embedded_a2ui(result: &Value) -> Option<Value> {
    let content = result["content"].as_array()?;
    let resource = content.iter().find(|c| c["type"] == "resource")?;
    assert_eq!(resource["resource"]["mimeType"], A2UI_MIME);
    serde_json::from_str(resource["resource"]["text"].as_str()?).ok()
}

fn the_submit_button(messages: &Value) -> Value {
    let components = messages[0]["createSurface"]["components"]
        .as_array()
        .unwrap();
    components
        .iter()
        .find(|c| c["id"] == "submit")
        .unwrap()
        .clone()
}

#[test]
fn a_host_that_renders_a2ui_gets_v1_messages_whose_submit_is_the_submit_tool() {
    let output = json!({"type": "object", "properties": {"email": {"type": "string", "format": "email"}}, "required": ["email"]});
    let hosts = [
        json!({"extensions": {UI_EXTENSION: {"mimeTypes": [A2UI_MIME]}}}),
        // Both: native A2UI wins (the SEP's SHOULD).
        json!({"extensions": {UI_EXTENSION: {"mimeTypes": ["text/html;profile=mcp-app", A2UI_MIME]}}}),
    ];
    for version in [V26, "2025-11-25", "2025-06-18"] {
        for caps in &hosts {
            let result = generate_for_host(version, caps.clone(), &output);
            assert_eq!(result.get("isError"), None, "{result:#}");
            let messages = embedded_a2ui(&result).expect("an application/a2ui+json resource");
            a2ui_schema::V1_0
                .check(&json!({"messages": messages}))
                .unwrap_or_else(|e| panic!("{version} {caps}: {e}"));
            assert!(messages
                .as_array()
                .unwrap()
                .iter()
                .all(|m| m["version"] == "v1.0"));
            assert!(!messages.to_string().contains("genui.submit"), "{messages}");
            let event = &the_submit_button(&messages)["action"]["event"];
            assert_eq!(event["name"], tools::SUBMIT);
            let hash = result["structuredContent"]["specHash"].as_str().unwrap();
            assert_eq!(event["context"]["specHash"], hash);
            assert!(result["content"][0]["text"]
                .as_str()
                .unwrap()
                .contains("natively"));
        }
    }
}

/// The host's `tools/call` for the submit action: the SEP maps the
/// action's name to the tool and its context (data resolved) to the
/// arguments.
fn submit_action(context: &Value, data: Value) -> Value {
    let mut arguments = context.clone();
    arguments["data"] = data;
    let params = json!({"name": tools::SUBMIT, "arguments": arguments});
    let mut body = request(V26, 7, "tools/call", params);
    body["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"] =
        json!({"extensions": {UI_EXTENSION: {"mimeTypes": [A2UI_MIME]}}});
    let headers = headers_for(V26, "tools/call", Some(tools::SUBMIT));
    let (status, answer) = send(body.to_string().as_bytes(), &headers);
    assert_eq!(status, 200, "{answer:#}");
    assert_valid(V26, "CallToolResult", &answer["result"]);
    answer["result"].clone()
}

#[test]
fn the_a2ui_submit_action_is_judged_as_the_submit_tool_and_a_wrong_hash_refused() {
    let output = json!({"type": "object", "properties": {"email": {"type": "string", "format": "email"}}, "required": ["email"]});
    let caps = json!({"extensions": {UI_EXTENSION: {"mimeTypes": [A2UI_MIME]}}});
    let result = generate_for_host(V26, caps, &output);
    let messages = embedded_a2ui(&result).expect("an application/a2ui+json resource");
    let button = the_submit_button(&messages);
    let event = &button["action"]["event"];
    assert_eq!(
        event["name"],
        tools::SUBMIT,
        "the host calls the tool the action names"
    );
    let context = &event["context"];
    let valid = submit_action(context, json!({"email": "a@b.example"}));
    assert_output_schema(tools::SUBMIT, &valid);
    assert_eq!(valid.get("isError"), None, "{valid:#}");
    assert_eq!(
        valid["structuredContent"]["response"]["data"],
        json!({"email": "a@b.example"})
    );
    let invalid = submit_action(context, json!({"email": "nope"}));
    assert_eq!(
        invalid["structuredContent"]["error"]["code"],
        "submission_invalid"
    );
    let mut forged = context.clone();
    let hash = forged["specHash"].as_str().unwrap();
    let flipped = if hash.starts_with('0') { "1" } else { "0" };
    forged["specHash"] = json!(format!("{flipped}{}", &hash[1..]));
    let refused = submit_action(&forged, json!({"email": "a@b.example"}));
    assert_eq!(refused["isError"], true, "{refused:#}");
    // The same refusal the submit tool gives any call naming an unknown form.
    let direct = ok(
        V26,
        "tools/call",
        json!({"name": tools::SUBMIT, "arguments": {"specHash": forged["specHash"], "data": {"email": "a@b.example"}}}),
        "CallToolResult",
    );
    assert_eq!(refused, direct);
    assert!(refused["structuredContent"]["error"]["code"]
        .as_str()
        .is_some());
}

#[test]
fn hosts_without_a2ui_or_with_garbage_mime_types_get_todays_answer() {
    let output = json!({"type": "object", "properties": {"email": {"type": "string"}}});
    let apps = apps_caps();
    let garbage = [
        json!({"extensions": {UI_EXTENSION: {"mimeTypes": A2UI_MIME}}}),
        json!({"extensions": {UI_EXTENSION: {"mimeTypes": [A2UI_MIME, 7]}}}),
        json!({"extensions": {UI_EXTENSION: {"mimeTypes": {"0": A2UI_MIME}}}}),
        json!({"extensions": {UI_EXTENSION: [A2UI_MIME]}}),
    ];
    for version in [V26, "2025-11-25"] {
        let today = generate_for_host(version, apps.clone(), &output);
        assert_eq!(embedded_a2ui(&today), None);
        assert_eq!(today["structuredContent"]["format"], "rjsf");
        for caps in &garbage {
            let result = generate_for_host(version, caps.clone(), &output);
            assert_eq!(embedded_a2ui(&result), None, "{caps}");
            assert_eq!(result["structuredContent"]["format"], "rjsf", "{caps}");
            let nothing = generate_for_host(version, json!({}), &output);
            assert_eq!(result, nothing, "{caps}: read as declaring nothing");
        }
    }
}

#[test]
fn an_a2ui_approval_button_submits_its_decision_through_the_submit_tool() {
    let caps = json!({"extensions": {UI_EXTENSION: {"mimeTypes": [A2UI_MIME]}}});
    let arguments = json!({"description": "Approve the refund?", "data": {"action": "Refund order 42"},
        "output": {"type": "object", "required": ["approved"], "properties": {"approved": {"type": "boolean"}}}});
    let result = generate_with_for_host(V26, caps, arguments);
    let messages = embedded_a2ui(&result).expect("an application/a2ui+json resource");
    a2ui_schema::V1_0
        .check(&json!({"messages": messages}))
        .unwrap();
    let components = messages[0]["createSurface"]["components"]
        .as_array()
        .unwrap();
    for (id, expected) in [("approve", true), ("reject", false)] {
        let button = components.iter().find(|c| c["id"] == id).unwrap();
        let event = &button["action"]["event"];
        assert_eq!(event["name"], tools::SUBMIT);
        let reply = submit_action(&event["context"], json!({"action": "Refund order 42"}));
        assert_eq!(reply.get("isError"), None, "{reply:#}");
        assert_eq!(
            reply["structuredContent"]["response"]["data"]["approved"], expected,
            "{id}"
        );
    }
    // A decision with no pointer to put it at is refused, pointing at it.
    let button = components.iter().find(|c| c["id"] == "approve").unwrap();
    let mut context = button["action"]["event"]["context"].clone();
    context["decisionPath"] = json!(3);
    let refused = submit_action(&context, json!({}));
    assert_eq!(refused["isError"], true);
    assert_eq!(
        refused["structuredContent"]["error"]["payload"]["pointer"], "/decisionPath",
        "{refused:#}"
    );
}
