//! A scripted model server for tests: speaks OpenAI chat completions and
//! Anthropic Messages on 127.0.0.1, in their real wire formats (errors
//! included), and plays a scenario chosen per request by the `model` name.
//!
//! ```text
//! model-server [--port N] [--require-key KEY] [--max-requests N] [--lifetime-secs N] [--generator-secret S]
//! ```
//!
//! Prints `listening on <port>` on stdout once bound (`--port 0`, the
//! default, picks a free port).
//!
//! Routes: `POST /v1/chat/completions` and `/chat/completions` (OpenAI),
//! `POST /v1/messages` (Anthropic), `POST /generator` (an operator's
//! `http` generator, see `model_server/generator.rs`), `GET /__requests` (every request so far,
//! as JSON: `seq`, `at_ms` since start, `method`, `path`, `headers` with
//! lower-case names, `body`), `POST /__reset` (forget requests and counters).
//!
//! Scenarios, by a `[scenario:<name>]` tag in the form's description, else
//! by `model`: `scenario:<name>` (any other model plays `good`):
//!
//! | name | what it answers |
//! |---|---|
//! | `good` | a plan listing every field, with default controls |
//! | `fixable` | bare and `#/...` pointers, a duplicate, a misfit widget, a required field left out |
//! | `invalid-json` | text that is not JSON, every time |
//! | `truncated` | a plan cut off at the output limit (`finish_reason: length` / `stop_reason: max_tokens`) |
//! | `unknown-pointers` | controls for fields that do not exist, every time |
//! | `invented-fields` | the good plan plus invented keys, enum values and one invented field |
//! | `html-labels` | the good plan with HTML, markdown links and `javascript:` URLs in its text |
//! | `rate-limited` | 429 with `Retry-After: 1` on the first call per prompt, then good |
//! | `server-error` | 500 on the first call per prompt, then good |
//! | `server-error-always` | 500 every time |
//! | `hang` | nothing for 60 s, then good |
//! | `bad-then-good` | unknown pointers on the first call per prompt, then good |
//! | `json-schema-unsupported` | OpenAI: 400 for `response_format: json_schema`, good for `json_object` |
//! | `unauthorized` | 401 |
//! | `refusal` | a refusal |
//! | `tool-call-args` | OpenAI: the good plan in `tool_calls[0].function.arguments`, `content: null` (vLLM, Ollama) |
//! | `content-parts` | OpenAI: the good plan as `content: [{type: text}, ...]` parts (LM Studio, llama.cpp) |
//! | `bind-components` | the good plan binding each field to the first catalog component the prompt lists whose `fits.type` is the field's type (naively: bounds and formats unread, so the worker's proof must refuse what does not fit) |
//!
//! A `[delay:<ms>]` tag in the description (at most 30000) delays every
//! answer by that long: a slow model, for the streaming tests and
//! scripts/bench-stream.sh.
//!
//! "Per prompt" counts calls with the same scenario and the same first user
//! message, so a retry (which repeats it) is the second call.
//!
//! Plans are in genui-model's model-plan shape (`schemas/model-plan.schema.json`:
//! sections of field pointers, plus overrides). To write them it reads the
//! field list of genui-model's prompt (`genui_model::Prompt`, format kept
//! stable by a test there): the line `Form: <description>`, a line starting
//! `Fields`, then one line per field, `<pointer as JSON string> <type>
//! <req|opt> ... widgets=<w>,<w>`. The good plan lists every field in one
//! section; the description's first sentence is the title.
//!
//! Bounded: at most `--max-requests` requests (default 10000) and
//! `--lifetime-secs` seconds (default 900), 64 connections at once, 64 KiB of
//! headers and 8 MiB of body per request, 10 s socket timeouts.

#[path = "model_server/generator.rs"]
mod generator;

use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

const MAX_CONNECTIONS: usize = 64;
const MAX_HEADER_BYTES: usize = 64 * 1024;
const MAX_BODY_BYTES: usize = 8 * 1024 * 1024;
const SOCKET_TIMEOUT: Duration = Duration::from_secs(10);
const HANG: Duration = Duration::from_secs(60);

struct Options {
    port: u16,
    require_key: Option<String>,
    max_requests: usize,
    lifetime_secs: u64,
    /// Checks the signature of `POST /generator` requests.
    generator_secret: Option<String>,
}

struct Server {
    options: Options,
    started: Instant,
    requests: Mutex<Vec<Value>>,
    calls: Mutex<HashMap<String, u32>>,
    total: AtomicUsize,
    open: AtomicUsize,
}

/// An HTTP request as read.
struct Request {
    method: String,
    path: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Request {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// An HTTP response to write.
struct Response {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Response {
    fn json(status: u16, body: &Value) -> Self {
        Self {
            status,
            headers: Vec::new(),
            body: body.to_string(),
        }
    }

    fn with_header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.to_owned(), value.to_owned()));
        self
    }
}

fn main() {
    let options = match parse_args(std::env::args().skip(1).collect()) {
        Ok(options) => options,
        Err(why) => {
            eprintln!("model-server: {why}");
            std::process::exit(2);
        }
    };
    let listener = match TcpListener::bind(("127.0.0.1", options.port)) {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!("model-server: cannot bind 127.0.0.1:{}: {e}", options.port);
            std::process::exit(1);
        }
    };
    let port = listener
        .local_addr()
        .map(|a| a.port())
        .unwrap_or(options.port);
    println!("listening on {port}");
    let _ = std::io::stdout().flush();
    let lifetime = Duration::from_secs(options.lifetime_secs);
    thread::spawn(move || {
        thread::sleep(lifetime);
        eprintln!("model-server: lifetime over, exiting");
        std::process::exit(0);
    });
    let server = Arc::new(Server {
        options,
        started: Instant::now(),
        requests: Mutex::new(Vec::new()),
        calls: Mutex::new(HashMap::new()),
        total: AtomicUsize::new(0),
        open: AtomicUsize::new(0),
    });
    serve(&listener, &server);
}

fn parse_args(args: Vec<String>) -> Result<Options, String> {
    let mut options = Options {
        port: 0,
        require_key: None,
        max_requests: 10_000,
        lifetime_secs: 900,
        generator_secret: None,
    };
    let mut args = args.into_iter();
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = || {
            value
                .parse::<u64>()
                .map_err(|_| format!("{flag} needs a number, not {value:?}"))
        };
        match flag.as_str() {
            "--port" => {
                options.port =
                    u16::try_from(number()?).map_err(|_| "--port is too large".to_owned())?
            }
            "--require-key" => options.require_key = Some(value.clone()),
            "--max-requests" => {
                options.max_requests = usize::try_from(number()?).unwrap_or(usize::MAX)
            }
            "--lifetime-secs" => options.lifetime_secs = number()?,
            "--generator-secret" => options.generator_secret = Some(value.clone()),
            other => return Err(format!("unknown flag {other}")),
        }
    }
    Ok(options)
}

fn serve(listener: &TcpListener, server: &Arc<Server>) {
    for stream in listener.incoming() {
        let Ok(mut stream) = stream else { continue };
        let n = server.total.fetch_add(1, Ordering::SeqCst) + 1;
        if n > server.options.max_requests {
            let _ = write_response(&mut stream, &overloaded("request cap reached"));
            eprintln!(
                "model-server: {} requests served, exiting",
                server.options.max_requests
            );
            return;
        }
        if server.open.load(Ordering::SeqCst) >= MAX_CONNECTIONS {
            let _ = write_response(&mut stream, &overloaded("too many connections"));
            continue;
        }
        server.open.fetch_add(1, Ordering::SeqCst);
        let server = Arc::clone(server);
        thread::spawn(move || {
            handle(&mut stream, &server);
            server.open.fetch_sub(1, Ordering::SeqCst);
        });
    }
}

fn overloaded(why: &str) -> Response {
    Response::json(
        503,
        &json!({"error": {"message": why, "type": "server_error", "param": null, "code": null}}),
    )
}

fn handle(stream: &mut TcpStream, server: &Server) {
    let _ = stream.set_read_timeout(Some(SOCKET_TIMEOUT));
    let _ = stream.set_write_timeout(Some(SOCKET_TIMEOUT));
    let response = match read_request(stream) {
        Ok(request) => route(&request, server),
        Err(why) => Response::json(
            400,
            &json!({"error": {"message": why, "type": "invalid_request_error"}}),
        ),
    };
    let _ = write_response(stream, &response);
}

fn read_request(stream: &mut TcpStream) -> Result<Request, String> {
    let mut reader = BufReader::new(stream);
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let mut line = Vec::new();
        let n = reader
            .by_ref()
            .take(MAX_HEADER_BYTES as u64)
            .read_until(b'\n', &mut line)
            .map_err(|e| e.to_string())?;
        if n == 0 || head.len() + n > MAX_HEADER_BYTES {
            return Err("incomplete or oversized request head".into());
        }
        head.extend_from_slice(&line);
    }
    let head = String::from_utf8_lossy(&head).into_owned();
    let mut lines = head.split("\r\n");
    let mut first = lines.next().unwrap_or_default().split_whitespace();
    let (method, target) = (
        first.next().unwrap_or_default().to_owned(),
        first.next().unwrap_or_default(),
    );
    let path = target.split('?').next().unwrap_or_default().to_owned();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let mut request = Request {
        method,
        path,
        headers,
        body: Vec::new(),
    };
    request.body = read_body(&mut reader, &request)?;
    Ok(request)
}

fn read_body(reader: &mut impl BufRead, request: &Request) -> Result<Vec<u8>, String> {
    if request
        .header("transfer-encoding")
        .is_some_and(|v| v.eq_ignore_ascii_case("chunked"))
    {
        return read_chunked(reader);
    }
    let length: usize = request
        .header("content-length")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    if length > MAX_BODY_BYTES {
        return Err(format!("body over {MAX_BODY_BYTES} bytes"));
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).map_err(|e| e.to_string())?;
    Ok(body)
}

fn read_chunked(reader: &mut impl BufRead) -> Result<Vec<u8>, String> {
    let mut body = Vec::new();
    for _ in 0..100_000 {
        let mut size_line = String::new();
        reader
            .read_line(&mut size_line)
            .map_err(|e| e.to_string())?;
        let hex = size_line.trim().split(';').next().unwrap_or_default();
        let size = usize::from_str_radix(hex, 16).map_err(|_| format!("bad chunk size {hex:?}"))?;
        if body.len() + size > MAX_BODY_BYTES {
            return Err(format!("body over {MAX_BODY_BYTES} bytes"));
        }
        let mut chunk = vec![0; size + 2];
        reader.read_exact(&mut chunk).map_err(|e| e.to_string())?;
        if size == 0 {
            return Ok(body);
        }
        body.extend_from_slice(&chunk[..size]);
    }
    Err("too many chunks".into())
}

fn write_response(stream: &mut TcpStream, response: &Response) -> std::io::Result<()> {
    let mut head = format!(
        "HTTP/1.1 {} {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n",
        response.status,
        reason(response.status),
        response.body.len()
    );
    for (name, value) in &response.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes())?;
    stream.write_all(response.body.as_bytes())?;
    stream.flush()
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        404 => "Not Found",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "Status",
    }
}

/// Which wire format a request speaks.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Wire {
    OpenAi,
    Anthropic,
}

fn route(request: &Request, server: &Server) -> Response {
    match (request.method.as_str(), request.path.as_str()) {
        ("GET", "/__requests") => {
            let requests = server
                .requests
                .lock()
                .map(|r| r.clone())
                .unwrap_or_default();
            Response::json(200, &Value::Array(requests))
        }
        ("POST", "/__reset") => {
            if let Ok(mut r) = server.requests.lock() {
                r.clear();
            }
            if let Ok(mut c) = server.calls.lock() {
                c.clear();
            }
            Response::json(200, &json!({"ok": true}))
        }
        ("POST", "/v1/chat/completions" | "/chat/completions") => {
            model_call(request, server, Wire::OpenAi)
        }
        ("POST", "/v1/messages") => model_call(request, server, Wire::Anthropic),
        ("POST", "/generator") => generator::call(request, server),
        _ => Response::json(
            404,
            &json!({"error": {"message": format!("Unknown request URL: {} {}", request.method, request.path), "type": "invalid_request_error", "param": null, "code": "unknown_url"}}),
        ),
    }
}

/// The `<name>` of a `[scenario:<name>]` tag in the prompt, if any.
fn scenario_tag(prompt: &str) -> Option<String> {
    let start = prompt.find("[scenario:")? + "[scenario:".len();
    let len = prompt[start..].find(']')?;
    Some(prompt[start..start + len].to_owned())
}

/// The `<ms>` of a `[delay:<ms>]` tag in the prompt, capped at 30 s.
fn delay_tag(prompt: &str) -> Option<Duration> {
    let start = prompt.find("[delay:")? + "[delay:".len();
    let len = prompt[start..].find(']')?;
    let ms: u64 = prompt[start..start + len].trim().parse().ok()?;
    Some(Duration::from_millis(ms.min(30_000)))
}

/// Records the request, then plays its scenario.
fn model_call(request: &Request, server: &Server, wire: Wire) -> Response {
    let body: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
    record(request, &body, server);
    if let Some(denied) = check_auth(request, server, wire) {
        return denied;
    }
    if body.is_null() {
        return error(
            wire,
            400,
            "invalid_request_error",
            "We could not parse the JSON body of your request.",
        );
    }
    let model = body
        .get("model")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let prompt = first_user_text(&body, wire);
    // A `[scenario:<name>]` tag in the form's description wins over the
    // model name, so one configured worker can play every scenario.
    let scenario = scenario_tag(&prompt)
        .or_else(|| model.strip_prefix("scenario:").map(str::to_owned))
        .unwrap_or_else(|| "good".to_owned());
    let call = next_call(server, &format!("{scenario}\u{0}{prompt}"));
    if let Some(delay) = delay_tag(&prompt) {
        thread::sleep(delay);
    }
    let fields = parse_fields(&prompt);
    let ctx = Ctx {
        wire,
        model,
        fields,
        description: description(&prompt),
        instructions: instructions(&prompt),
        body: &body,
    };
    play(&scenario, call, &ctx)
}

fn record(request: &Request, body: &Value, server: &Server) {
    let headers: serde_json::Map<String, Value> = request
        .headers
        .iter()
        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
        .collect();
    let body = if body.is_null() {
        Value::String(String::from_utf8_lossy(&request.body).into_owned())
    } else {
        body.clone()
    };
    if let Ok(mut requests) = server.requests.lock() {
        let entry = json!({
            "seq": requests.len() + 1,
            "at_ms": server.started.elapsed().as_millis() as u64,
            "method": request.method,
            "path": request.path,
            "headers": headers,
            "body": body,
        });
        requests.push(entry);
    }
}

fn check_auth(request: &Request, server: &Server, wire: Wire) -> Option<Response> {
    let expected = server.options.require_key.as_deref()?;
    let given = match wire {
        Wire::OpenAi => request
            .header("authorization")
            .and_then(|v| v.strip_prefix("Bearer ")),
        Wire::Anthropic => request.header("x-api-key"),
    };
    if given == Some(expected) {
        return None;
    }
    Some(unauthorized(wire))
}

fn unauthorized(wire: Wire) -> Response {
    match wire {
        Wire::OpenAi => error(wire, 401, "invalid_request_error", "Incorrect API key provided: sk-scr********************wxyz. You can find your API key at https://platform.openai.com/account/api-keys."),
        Wire::Anthropic => error(wire, 401, "authentication_error", "invalid x-api-key"),
    }
}

/// How many calls came before this one with the same key (then counts it).
fn next_call(server: &Server, key: &str) -> u32 {
    let Ok(mut calls) = server.calls.lock() else {
        return 0;
    };
    let count = calls.entry(key.to_owned()).or_insert(0);
    *count += 1;
    *count - 1
}

fn first_user_text(body: &Value, wire: Wire) -> String {
    let messages = body
        .get("messages")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let first = messages
        .iter()
        .find(|m| m.get("role").and_then(Value::as_str) == Some("user"));
    let content = first.and_then(|m| m.get("content"));
    match (wire, content) {
        (_, Some(Value::String(text))) => text.clone(),
        (_, Some(Value::Array(blocks))) => blocks
            .iter()
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect(),
        _ => String::new(),
    }
}

/// One field line of the prompt.
struct Field {
    pointer: String,
    kind: String,
    required: bool,
    widgets: Vec<String>,
}

fn parse_fields(prompt: &str) -> Vec<Field> {
    prompt
        .lines()
        .skip_while(|l| !l.starts_with("Fields"))
        .skip(1)
        .filter_map(parse_field)
        .collect()
}

fn parse_field(line: &str) -> Option<Field> {
    let mut stream = serde_json::Deserializer::from_str(line).into_iter::<String>();
    let pointer = stream.next()?.ok()?;
    let rest = &line[stream.byte_offset()..];
    let mut words = rest.split_whitespace();
    let kind = words.next()?.to_owned();
    let required = words.next()? == "req";
    let (_, widgets) = rest.rsplit_once(" widgets=")?;
    Some(Field {
        pointer,
        kind,
        required,
        widgets: widgets.trim().split(',').map(str::to_owned).collect(),
    })
}

fn description(prompt: &str) -> String {
    prompt
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("Form: "))
        .unwrap_or_default()
        .to_owned()
}

struct Ctx<'a> {
    wire: Wire,
    model: String,
    fields: Vec<Field>,
    description: String,
    /// The quoted instructions after the field list, decoded, one per line.
    instructions: String,
    body: &'a Value,
}

fn play(scenario: &str, call: u32, ctx: &Ctx<'_>) -> Response {
    match (scenario, call) {
        ("good", _) | ("rate-limited" | "server-error" | "bad-then-good", 1..) => {
            plan_reply(ctx, &good_plan(ctx))
        }
        ("fixable", _) => plan_reply(ctx, &fixable_plan(ctx)),
        ("invalid-json", _) => text_reply(
            ctx,
            "{\"title\": \"Form\", \"sections\": [{\"label\": null, 'controls': [",
            "stop",
        ),
        ("truncated", _) => truncated_reply(ctx),
        ("unknown-pointers", _) | ("bad-then-good", 0) => plan_reply(ctx, &unknown_plan(ctx)),
        ("invented-fields", _) => plan_reply(ctx, &invented_plan(ctx)),
        ("html-labels", _) => plan_reply(ctx, &html_plan(ctx)),
        ("rate-limited", 0) => rate_limited(ctx.wire),
        ("server-error" | "server-error-always", _) => server_error(ctx.wire),
        ("hang", _) => {
            thread::sleep(HANG);
            plan_reply(ctx, &good_plan(ctx))
        }
        ("json-schema-unsupported", _) => json_schema_unsupported(ctx),
        ("unauthorized", _) => unauthorized(ctx.wire),
        ("refusal", _) => refusal(ctx),
        ("tool-call-args" | "content-parts", _) if ctx.wire == Wire::OpenAi => {
            openai_shaped(ctx, scenario, &good_plan(ctx))
        }
        ("tool-call-args" | "content-parts", _) => plan_reply(ctx, &good_plan(ctx)),
        ("bind-components", _) => plan_reply(ctx, &bound_plan(ctx)),
        (other, _) => error(
            ctx.wire,
            400,
            "invalid_request_error",
            &format!("The model `scenario:{other}` does not exist"),
        ),
    }
}

fn change(pointer: &str, label: Option<&str>, widget: Option<&str>) -> Value {
    json!({"pointer": pointer, "label": label, "widget": widget, "help": null, "placeholder": null})
}

fn plan_of(ctx: &Ctx<'_>, fields: Vec<String>, overrides: Vec<Value>) -> Value {
    let title: String = ctx
        .description
        .split(['.', '!', '?'])
        .next()
        .unwrap_or_default()
        .chars()
        .take(60)
        .collect();
    let title = if title.trim().is_empty() {
        Value::Null
    } else {
        Value::String(title.trim().to_owned())
    };
    json!({"title": title, "steps": false, "sections": [{"label": null, "layout": "vertical", "fields": fields}], "overrides": overrides})
}

fn pointers(ctx: &Ctx<'_>) -> Vec<String> {
    ctx.fields.iter().map(|f| f.pointer.clone()).collect()
}

fn good_plan(ctx: &Ctx<'_>) -> Value {
    obey(ctx, plan_of(ctx, pointers(ctx), Vec::new()))
}

/// The instructions block after the field list (`genui_model::Prompt`),
/// each quoted line decoded.
fn instructions(prompt: &str) -> String {
    let Some((_, block)) = prompt.split_once(genui_model::INSTRUCTIONS_HEADER) else {
        return String::new();
    };
    block
        .lines()
        .filter_map(|line| {
            line.split_once(": ")
                .and_then(|(_, quoted)| serde_json::from_str::<String>(quoted).ok())
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A model that does what the instructions say, the hostile parts too:
/// `[order:reverse]` reverses the fields and labels the section; "password"
/// adds a field of that name; "ignore the schema" writes its own schema;
/// markup in the instructions goes into every label.
fn obey(ctx: &Ctx<'_>, mut plan: Value) -> Value {
    let said = ctx.instructions.to_lowercase();
    if said.is_empty() {
        return plan;
    }
    if said.contains("[order:reverse]") {
        if let Some(fields) = plan["sections"][0]["fields"].as_array_mut() {
            fields.reverse();
        }
        plan["sections"][0]["label"] = json!("Reversed as instructed");
    }
    if said.contains("password") {
        if let Some(fields) = plan["sections"][0]["fields"].as_array_mut() {
            fields.push(json!("/properties/password"));
        }
        plan["overrides"] = json!([change(
            "/properties/password",
            Some("Password"),
            Some("text")
        )]);
    }
    if said.contains("ignore the schema") {
        plan["jsonSchema"] = json!({"type": "object", "required": ["password"], "properties": {"password": {"type": "string"}}});
    }
    if let Some(start) = ctx.instructions.find('<') {
        let markup: String = ctx.instructions[start..].chars().take(60).collect();
        let labels: Vec<Value> = ctx
            .fields
            .iter()
            .map(|f| change(&f.pointer, Some(&format!("{markup} {}", f.pointer)), None))
            .collect();
        if let Some(overrides) = plan["overrides"].as_array_mut() {
            overrides.extend(labels);
        }
    }
    plan
}

/// The good plan, each field bound to the first listed catalog component
/// (the prompt's `Components` lines: JSON with `name` and `fits`) whose
/// `fits.type` names the field's type.
fn bound_plan(ctx: &Ctx<'_>) -> Value {
    let prompt = first_user_text(ctx.body, ctx.wire);
    let components: Vec<Value> = prompt
        .lines()
        .skip_while(|l| !l.starts_with("Components"))
        .skip(1)
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let overrides = ctx.fields.iter().filter_map(|f| {
        let c = components
            .iter()
            .find(|c| c["fits"]["type"].as_str() == Some(f.kind.as_str()))?;
        let mut entry = change(&f.pointer, None, None);
        entry["component"] = c["name"].clone();
        Some(entry)
    });
    plan_of(ctx, pointers(ctx), overrides.collect())
}

/// Bare and `#`-prefixed pointers, a duplicate, a misfit widget, and the
/// last required field left out (each only when the form has room for it).
fn fixable_plan(ctx: &Ctx<'_>) -> Value {
    let mut fields = pointers(ctx);
    let last_required = ctx.fields.iter().rposition(|f| f.required);
    if let Some(at) = last_required.filter(|_| fields.len() >= 4) {
        fields.remove(at);
    }
    let misfit = ctx.fields.iter().enumerate().skip(2).find(|(at, f)| {
        *at < fields.len()
            && f.kind.starts_with("string")
            && !f.widgets.iter().any(|w| w == "checkbox")
    });
    let overrides = misfit
        .map(|(_, f)| change(&f.pointer, None, Some("checkbox")))
        .into_iter()
        .collect();
    if let Some(first) = fields.first_mut() {
        if let Some(bare) = first
            .strip_prefix("/properties/")
            .filter(|b| !b.contains('/'))
        {
            *first = bare.to_owned();
        }
    }
    if let Some(second) = fields.get_mut(1) {
        *second = format!("#{second}");
    }
    if let Some(third) = fields.get(2).cloned() {
        fields.push(third);
    }
    plan_of(ctx, fields, overrides)
}

fn unknown_plan(ctx: &Ctx<'_>) -> Value {
    let n = ctx.fields.len().max(1);
    plan_of(
        ctx,
        (1..=n)
            .map(|i| format!("/properties/zz_unknown_{i}"))
            .collect(),
        Vec::new(),
    )
}

fn invented_plan(ctx: &Ctx<'_>) -> Value {
    let mut plan = good_plan(ctx);
    plan["required"] = json!(["inventedField"]);
    plan["jsonSchema"] =
        json!({"type": "object", "properties": {"inventedField": {"type": "string"}}});
    if let Some(first) = ctx.fields.first() {
        let mut entry = change(&first.pointer, None, None);
        entry["enum"] = json!(["INVENTED_VALUE"]);
        entry["type"] = json!("integer");
        plan["overrides"] = json!([entry]);
    }
    if let Some(fields) = plan["sections"][0]["fields"].as_array_mut() {
        fields.push(json!("/properties/inventedField"));
    }
    plan
}

fn html_plan(ctx: &Ctx<'_>) -> Value {
    let mut plan = good_plan(ctx);
    let title = plan["title"].as_str().unwrap_or("Form").to_owned();
    plan["title"] = json!(format!("<script>alert(1)</script>{title}"));
    plan["sections"][0]["label"] = json!("<h1 onclick=\"steal()\">Details</h1>");
    if let Some(first) = ctx.fields.first() {
        let name = first.pointer.rsplit('/').next().unwrap_or("field");
        let mut entry = change(&first.pointer, Some(&format!("<b>{name}</b>")), None);
        entry["help"] = json!("See [the guide](javascript:alert(document.cookie)) or <a href=\"data:text/html,x\">this</a>");
        entry["placeholder"] = json!("javascript:alert(1)");
        plan["overrides"] = json!([entry]);
    }
    plan
}

/// A plan in the wire's success shape.
fn plan_reply(ctx: &Ctx<'_>, plan: &Value) -> Response {
    match ctx.wire {
        Wire::OpenAi => openai_completion(ctx, Some(&plan.to_string()), None, "stop"),
        Wire::Anthropic => anthropic_message(
            ctx,
            json!([tool_use(ctx, plan)]),
            "tool_use",
            plan.to_string().len(),
        ),
    }
}

fn text_reply(ctx: &Ctx<'_>, text: &str, finish: &str) -> Response {
    match ctx.wire {
        Wire::OpenAi => openai_completion(ctx, Some(text), None, finish),
        Wire::Anthropic => anthropic_message(
            ctx,
            json!([{"type": "text", "text": text}]),
            "end_turn",
            text.len(),
        ),
    }
}

fn truncated_reply(ctx: &Ctx<'_>) -> Response {
    let text = good_plan(ctx).to_string();
    let cut: String = text.chars().take(text.chars().count() * 3 / 5).collect();
    match ctx.wire {
        Wire::OpenAi => openai_completion(ctx, Some(&cut), None, "length"),
        Wire::Anthropic => anthropic_message(
            ctx,
            json!([tool_use(ctx, &json!({}))]),
            "max_tokens",
            cut.len(),
        ),
    }
}

fn refusal(ctx: &Ctx<'_>) -> Response {
    match ctx.wire {
        Wire::OpenAi => openai_completion(
            ctx,
            None,
            Some("I'm sorry, I can't help with that."),
            "stop",
        ),
        Wire::Anthropic => anthropic_message(ctx, json!([]), "refusal", 0),
    }
}

fn json_schema_unsupported(ctx: &Ctx<'_>) -> Response {
    let format = ctx
        .body
        .pointer("/response_format/type")
        .and_then(Value::as_str);
    if ctx.wire == Wire::OpenAi && format == Some("json_schema") {
        let message = "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.";
        let body = json!({"error": {"message": message, "type": "invalid_request_error", "param": "response_format", "code": null}});
        return Response::json(400, &body);
    }
    plan_reply(ctx, &good_plan(ctx))
}

fn tool_use(ctx: &Ctx<'_>, input: &Value) -> Value {
    let name = ctx
        .body
        .pointer("/tool_choice/name")
        .and_then(Value::as_str)
        .unwrap_or("emit_ui_plan");
    json!({"type": "tool_use", "id": format!("toolu_scripted_{}", unix_secs()), "name": name, "input": input})
}

fn openai_completion(
    ctx: &Ctx<'_>,
    content: Option<&str>,
    refusal: Option<&str>,
    finish: &str,
) -> Response {
    let prompt_tokens = ctx.body.to_string().len() / 4;
    let completion_tokens = content.map_or(8, |c| c.len() / 4);
    let body = json!({
        "id": format!("chatcmpl-scripted{}", unix_secs()),
        "object": "chat.completion",
        "created": unix_secs(),
        "model": ctx.model,
        "choices": [{
            "index": 0,
            "message": {"role": "assistant", "content": content, "refusal": refusal, "annotations": []},
            "logprobs": null,
            "finish_reason": finish,
        }],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens, "total_tokens": prompt_tokens + completion_tokens},
        "service_tier": "default",
        "system_fingerprint": "fp_scripted",
    });
    Response::json(200, &body)
        .with_header("x-request-id", "req_scripted")
        .with_header("openai-processing-ms", "5")
}

/// A completion as some OpenAI-compatible servers shape it: the plan in a
/// tool call's arguments, or split over text parts.
fn openai_shaped(ctx: &Ctx<'_>, scenario: &str, plan: &Value) -> Response {
    let text = plan.to_string();
    let (message, finish) = if scenario == "tool-call-args" {
        let call = json!({"id": "call_scripted", "type": "function", "function": {"name": "emit_ui_plan", "arguments": text}});
        (
            json!({"role": "assistant", "content": null, "tool_calls": [call]}),
            "tool_calls",
        )
    } else {
        let middle = text.len() / 2;
        let split = (middle..text.len())
            .find(|&i| text.is_char_boundary(i))
            .unwrap_or(text.len());
        let parts = json!([{"type": "text", "text": &text[..split]}, {"type": "text", "text": &text[split..]}]);
        (json!({"role": "assistant", "content": parts}), "stop")
    };
    let body = json!({
        "id": format!("chatcmpl-scripted{}", unix_secs()), "object": "chat.completion", "created": unix_secs(), "model": ctx.model,
        "choices": [{"index": 0, "message": message, "logprobs": null, "finish_reason": finish}],
        "usage": {"prompt_tokens": 100, "completion_tokens": text.len() / 4, "total_tokens": 100 + text.len() / 4},
    });
    Response::json(200, &body)
}

fn anthropic_message(ctx: &Ctx<'_>, content: Value, stop: &str, output_bytes: usize) -> Response {
    let body = json!({
        "id": format!("msg_scripted_{}", unix_secs()),
        "type": "message",
        "role": "assistant",
        "model": ctx.model,
        "content": content,
        "stop_reason": stop,
        "stop_sequence": null,
        "usage": {"input_tokens": ctx.body.to_string().len() / 4, "output_tokens": output_bytes / 4},
    });
    Response::json(200, &body).with_header("request-id", "req_scripted")
}

fn rate_limited(wire: Wire) -> Response {
    let response = match wire {
        Wire::OpenAi => error(wire, 429, "requests", "Rate limit reached for scripted-model in organization org-scripted on requests per min (RPM): Limit 1, Used 1, Requested 1. Please try again in 1s."),
        Wire::Anthropic => error(wire, 429, "rate_limit_error", "This request would exceed the rate limit for your organization of 1 request per minute."),
    };
    response.with_header("retry-after", "1")
}

fn server_error(wire: Wire) -> Response {
    match wire {
        Wire::OpenAi => error(
            wire,
            500,
            "server_error",
            "The server had an error while processing your request. Sorry about that!",
        ),
        Wire::Anthropic => error(wire, 500, "api_error", "Internal server error"),
    }
}

/// An error body in the wire's shape.
fn error(wire: Wire, status: u16, kind: &str, message: &str) -> Response {
    let body = match wire {
        Wire::OpenAi => {
            json!({"error": {"message": message, "type": kind, "param": null, "code": null}})
        }
        Wire::Anthropic => {
            json!({"type": "error", "error": {"type": kind, "message": message}, "request_id": "req_scripted"})
        }
    };
    Response::json(status, &body)
}

fn unix_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}
