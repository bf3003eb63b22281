//! `POST /mcp`: the worker as an MCP server (Streamable HTTP, JSON answers),
//! sans-IO: the request's bytes and headers in, an [`HttpResponse`] out, or
//! a [`GenerateJob`]/[`Submission`] for the shell to run exactly as it runs
//! `/v1/generate` and `/v1/submit`, whose answer [`McpCall::tool_result`] wraps.
//!
//! Two eras of the protocol, told apart per request ([`wire::Version`]):
//!
//! - `2026-07-28`, stateless: every request carries its version and client
//!   capabilities in `params._meta` and the `MCP-Protocol-Version` header,
//!   with `Mcp-Method`/`Mcp-Name` checked against the body; `server/discover`
//!   says what we speak; results carry `resultType`, lists and reads
//!   `ttlMs`/`cacheScope`.
//! - `2025-11-25`, `2025-06-18`, `2025-03-26`: `initialize`,
//!   `notifications/initialized`, `ping`, served without a session id (each
//!   answer depends on its request only).
//!
//! Each request's client capabilities ([`capabilities`]) decide how a
//! generated form reaches the person: native A2UI ([`native`]), the MCP App
//! view, an elicitation, or a hosted link ([`reach`]).
//!
//! The checks run in the order the conformance suite probes them: host and
//! origin (403), size (413), JSON (`-32700`), one object (`-32600`; batches
//! were removed in 2025-06-18), then the era's own rules. Errors of the work
//! itself (a bad schema, invalid data) are tool results with `isError`,
//! which the model reads; see [`tools`].

mod capabilities;
mod elicit;
mod guard;
mod native;
mod reach;
mod request_state;
mod tools;
mod view;
mod wire;

use crate::edge::submission::{Submission, SubmitDoor, SubmitFacts};
use crate::error::Error;
use crate::service::GenerateJob;
use crate::terms::limits::Limits;
use crate::terms::response::HttpResponse;
use capabilities::{ClientCapabilities, Surface};
use serde_json::{json, Map, Value};
use wire::{code, Envelope, RpcError, Version, SERVER};

pub use guard::McpSettings;
use reach::{form_elicitation, person_message, read_link_resource, retry};
pub(crate) use reach::{McpLink, McpRead};

/// What a `POST /mcp` asks of the shell. The jobs are boxed: each is
/// several times the size of an answer.
#[derive(Debug)]
pub enum Mcp {
    /// Send this answer.
    Answer(HttpResponse),
    /// `generate_user_interface`: run this job as `/v1/generate` does (memory,
    /// KV, model), then wrap its answer with [`McpCall::tool_result`].
    Generate(Box<GenerateJob>, McpCall),
    /// `submit_user_interface`: run the submission as `/v1/submit` runs
    /// one (its KV read), then wrap its answer with [`McpCall::tool_result`].
    Submit(Box<Submission>, McpCall),
    /// `generate_user_interface` from a host that cannot show the MCP App
    /// view, on a worker with hosted forms: run the job as `POST /v1/forms`
    /// does, keeping the form under a new hosted link whose object keeps
    /// the answer (no `callbackUrl`), then answer with [`McpLink::tool_result`].
    Link(Box<GenerateJob>, McpLink),
    /// A URL-mode elicitation retried: read the answer the link's object
    /// kept ([`McpRead::object_name`]), then answer with [`McpRead::answer`].
    Read(McpRead),
}

/// What the server needs beyond the request to hand out and check the
/// signed `requestState` of an elicitation: the
/// `WEBHOOK_SECRET` (none: elicitations carry no state) and the time.
#[derive(Clone, Copy, Default)]
pub(crate) struct McpForms<'a> {
    /// The secret the state is signed with.
    pub(crate) secret: Option<&'a str>,
    /// Unix seconds.
    pub(crate) now: u64,
}

/// Never prints the secret.
impl std::fmt::Debug for McpForms<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpForms")
            .field("secret", &self.secret.map(|_| "[redacted]"))
            .field("now", &self.now)
            .finish()
    }
}

/// A `tools/call` waiting for its `/v1` answer.
#[derive(Debug, Clone)]
pub struct McpCall {
    id: Value,
    version: Version,
    /// The spec's format; `None` for a submission.
    format: Option<&'static str>,
    /// How the person sees the form, when not in the MCP App view: the
    /// text the agent reads instead of "fills it in the form view".
    reach: Option<String>,
    /// The host renders A2UI natively: the result embeds the messages.
    native_a2ui: bool,
}

impl McpCall {
    pub(crate) fn new(id: Value, version: Version, format: Option<&'static str>) -> Self {
        Self {
            id,
            version,
            format,
            reach: None,
            native_a2ui: false,
        }
    }

    /// The JSON-RPC answer carrying the `/v1` answer as the tool's result.
    pub fn tool_result(self, v1: &HttpResponse) -> HttpResponse {
        let mut result = tools::result(self.format, v1, self.reach.as_deref());
        if self.native_a2ui {
            native::embed(&mut result);
        }
        answer(&self.id, complete(result, self.version, None))
    }
}

/// A request as read from the body: its id (`None` for a notification).
struct Request {
    id: Option<Value>,
    method: String,
    params: Map<String, Value>,
}

/// What the request may do next, or the answer that ends it.
type OrAnswer<T> = std::result::Result<T, HttpResponse>;

impl Mcp {
    /// Reads one `POST /mcp`. `header` reads a request header by its
    /// lower-case name; `settings` holds the host and origin lists and
    /// the elicitation secret ([`McpSettings`]).
    pub fn read(
        body: &[u8],
        header: &dyn Fn(&str) -> Option<String>,
        settings: McpSettings<'_>,
        limits: &Limits,
    ) -> Mcp {
        match read(body, header, settings, settings.forms(), limits) {
            Ok(mcp) => mcp,
            Err(response) => Mcp::Answer(response),
        }
    }

    /// The answer to a body refused before it was read (over the size
    /// limit): the `dgui_error` inside a JSON-RPC error, at its status.
    pub fn refuse(error: &Error) -> HttpResponse {
        let rpc = RpcError::new(code::INVALID_REQUEST, error.http_status(), error.message())
            .with_data(error.to_dgui_error());
        fail(&Value::Null, &rpc)
    }
}

fn read(
    body: &[u8],
    header: &dyn Fn(&str) -> Option<String>,
    guard: McpSettings<'_>,
    forms: McpForms<'_>,
    limits: &Limits,
) -> OrAnswer<Mcp> {
    let get = |name: &str| header(name).and_then(|raw| wire::header_value(&raw));
    guard::check(get("host").as_deref(), get("origin").as_deref(), guard)
        .map_err(|e| Mcp::refuse(&e))?;
    limits
        .check_body_size(body.len())
        .map_err(|e| Mcp::refuse(&e))?;
    limits.check_body_depth(body).map_err(|e| Mcp::refuse(&e))?;
    let request = parse(body)?;
    let Some(id) = request.id.clone() else {
        // A notification (`notifications/initialized`, `notifications/cancelled`...): accepted.
        return Err(HttpResponse {
            status: 202,
            headers: Vec::new(),
            body: String::new(),
        });
    };
    let header_version = get("mcp-protocol-version");
    let meta_version = request
        .params
        .get("_meta")
        .and_then(|m| m.get(META_VERSION));
    let legacy_header = header_version
        .as_deref()
        .and_then(Version::parse)
        .filter(|v| !v.is_stateless());
    if meta_version.is_some() || (header_version.is_some() && legacy_header.is_none()) {
        stateless(&request, &id, header_version.as_deref(), &get)?;
        let caps = request
            .params
            .get("_meta")
            .and_then(|m| m.get(META_CAPABILITIES))
            .map(ClientCapabilities::read);
        let client = Client {
            caps,
            forms,
            view: guard.view,
        };
        dispatch(request, id, Version::V2026_07_28, client, limits)
    } else {
        // Handshake era; a request without the header is 2025-03-26 (the
        // spec allows it). Its errors travel as HTTP 200, as its SDKs expect.
        // The capabilities `initialize` read come back as the session id.
        let caps = get("mcp-session-id")
            .as_deref()
            .and_then(ClientCapabilities::from_session_id);
        let client = Client {
            caps,
            forms,
            view: guard.view,
        };
        dispatch(
            request,
            id,
            legacy_header.unwrap_or(Version::V2025_03_26),
            client,
            limits,
        )
        .map_err(|mut response| {
            response.status = 200;
            response
        })
    }
}

/// What is known of the client beyond its request: its capabilities
/// (`None`: unknown), what elicitation state needs, and the form view
/// this worker serves.
#[derive(Debug, Clone, Copy)]
struct Client<'a> {
    caps: Option<ClientCapabilities>,
    forms: McpForms<'a>,
    view: Option<&'a str>,
}

const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
const META_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";

/// JSON, one request object, with a readable id and a method.
fn parse(body: &[u8]) -> OrAnswer<Request> {
    let value: Value = serde_json::from_slice(body).map_err(|e| {
        let rpc = RpcError::new(
            code::PARSE_ERROR,
            400,
            format!("Parse error: the body is not JSON ({e})"),
        )
        .with_data(
            Error::new(
                crate::error::ErrorCode::InvalidJson,
                format!("request body is not valid JSON: {e}"),
            )
            .to_dgui_error(),
        );
        fail(&Value::Null, &rpc)
    })?;
    let invalid = |id: &Value, why: &str| {
        fail(
            id,
            &RpcError::new(
                code::INVALID_REQUEST,
                400,
                format!("Invalid Request: {why}"),
            ),
        )
    };
    let mut object = match value {
        Value::Object(object) => object,
        Value::Array(_) => {
            return Err(invalid(&Value::Null, "JSON-RPC batches are not supported (MCP removed them in 2025-06-18); send one request per POST"))
        }
        _ => return Err(invalid(&Value::Null, "the body must be one JSON-RPC request object")),
    };
    let id = match object.remove("id") {
        None => None,
        Some(id @ (Value::String(_) | Value::Number(_))) => Some(id),
        Some(_) => return Err(invalid(&Value::Null, "`id` must be a string or a number")),
    };
    let echo = id.clone().unwrap_or(Value::Null);
    if object.get("jsonrpc") != Some(&json!("2.0")) {
        return Err(invalid(&echo, "`jsonrpc` must be \"2.0\""));
    }
    let Some(Value::String(method)) = object.remove("method") else {
        return Err(invalid(&echo, "a request needs a `method` string (this server sends no requests, so it takes no responses)"));
    };
    let params = match object.remove("params") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(params)) => params,
        Some(_) => {
            return Err(fail(
                &echo,
                &invalid_params("/params", "`params` must be an object"),
            ))
        }
    };
    Ok(Request { id, method, params })
}

/// The 2026-07-28 per-request rules: `_meta` fields, the version header
/// against `_meta`, a version we speak, a known method, then `Mcp-Method`
/// and `Mcp-Name` against the body.
fn stateless(
    request: &Request,
    id: &Value,
    header_version: Option<&str>,
    get: &dyn Fn(&str) -> Option<String>,
) -> OrAnswer<()> {
    let meta = request.params.get("_meta").and_then(Value::as_object);
    let Some(Value::String(version)) = meta.and_then(|m| m.get(META_VERSION)) else {
        return Err(fail(
            id,
            &invalid_params(
                &format!("/params/_meta/{}", escape(META_VERSION)),
                "`_meta` must name the protocol version",
            ),
        ));
    };
    if !meta
        .and_then(|m| m.get(META_CAPABILITIES))
        .is_some_and(Value::is_object)
    {
        return Err(fail(
            id,
            &invalid_params(
                &format!("/params/_meta/{}", escape(META_CAPABILITIES)),
                "`_meta` must carry the client capabilities (an object)",
            ),
        ));
    }
    if header_version != Some(version.as_str()) {
        let message = format!("Header mismatch: MCP-Protocol-Version header value '{}' does not match body value '{version}'", header_version.unwrap_or_default());
        return Err(fail(
            id,
            &RpcError::new(code::HEADER_MISMATCH, 400, message),
        ));
    }
    if Version::parse(version) != Some(Version::V2026_07_28) {
        let rpc = RpcError::new(
            code::UNSUPPORTED_PROTOCOL_VERSION,
            400,
            "Unsupported protocol version",
        )
        .with_data(
            json!({"supported": Version::supported(), "requested": version,
                "hint": "2025-* versions are served through initialize, without _meta"}),
        );
        return Err(fail(id, &rpc));
    }
    if !STATELESS_METHODS.contains(&request.method.as_str()) {
        return Err(fail(
            id,
            &unknown_method(&request.method, Version::V2026_07_28),
        ));
    }
    check_header(id, "Mcp-Method", get("mcp-method"), &request.method)?;
    let name_field = match request.method.as_str() {
        "tools/call" => Some("name"),
        "resources/read" => Some("uri"),
        _ => None,
    };
    if let Some(field) = name_field {
        let body_value = request
            .params
            .get(field)
            .and_then(Value::as_str)
            .unwrap_or_default();
        check_header(id, "Mcp-Name", get("mcp-name"), body_value)?;
    }
    Ok(())
}

fn check_header(id: &Value, name: &str, header: Option<String>, body_value: &str) -> OrAnswer<()> {
    match header {
        Some(value) if value == body_value => Ok(()),
        Some(value) => Err(fail(id, &RpcError::new(code::HEADER_MISMATCH, 400,
            format!("Header mismatch: {name} header value '{value}' does not match body value '{body_value}'")))),
        None => Err(fail(id, &RpcError::new(code::HEADER_MISMATCH, 400, format!("Header mismatch: the {name} header is required (body value '{body_value}')")))),
    }
}

const STATELESS_METHODS: [&str; 6] = [
    "server/discover",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/templates/list",
    "resources/read",
];
const HANDSHAKE_METHODS: [&str; 7] = [
    "initialize",
    "ping",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/templates/list",
    "resources/read",
];

/// Answers a checked request of `version`.
fn dispatch(
    request: Request,
    id: Value,
    version: Version,
    client: Client<'_>,
    limits: &Limits,
) -> OrAnswer<Mcp> {
    let long = Some((view::TTL_MS, "public"));
    let result = match request.method.as_str() {
        "server/discover" if version.is_stateless() => {
            let mut result = Map::new();
            result.insert("supportedVersions".into(), Version::supported().into());
            result.insert("capabilities".into(), capabilities());
            result.insert("instructions".into(), INSTRUCTIONS.into());
            complete(result, version, long)
        }
        "initialize" if !version.is_stateless() => {
            let caps = request
                .params
                .get("capabilities")
                .map(ClientCapabilities::read)
                .unwrap_or_default();
            let mut response = answer(&id, initialize(&request.params));
            response
                .headers
                .push(("mcp-session-id".into(), caps.session_id()));
            return Ok(Mcp::Answer(response));
        }
        "ping" if !version.is_stateless() => Map::new(),
        "tools/list" => complete(one("tools", tools::list().into()), version, long),
        "resources/list" => complete(one("resources", json!([view::listed()])), version, long),
        "resources/templates/list" => complete(one("resourceTemplates", json!([])), version, long),
        "resources/read" => {
            let forms = client.forms;
            if let Some(read) =
                read_link_resource(&request.params, &id, version, forms.secret, forms.now)
            {
                return read;
            }
            complete(
                read_resource(&request.params, &id, version, client.view)?,
                version,
                long,
            )
        }
        "tools/call" => return call_tool(&request.params, id, version, client, limits),
        other => return Err(fail(&id, &unknown_method(other, version))),
    };
    Ok(Mcp::Answer(answer(&id, result)))
}

const INSTRUCTIONS: &str = "Call generate_user_interface whenever you need structured input from the user: \
give the JSON Schema of the answer in `output`. The form opens in the host's view; its answer is checked \
with submit_user_interface.";

fn capabilities() -> Value {
    json!({"tools": {}, "resources": {}, "extensions": {"io.modelcontextprotocol/ui": {}}})
}

/// `initialize`: the client's version when we speak it, else our newest
/// handshake version (the client then decides whether to go on).
fn initialize(params: &Map<String, Value>) -> Map<String, Value> {
    let asked = params
        .get("protocolVersion")
        .and_then(Value::as_str)
        .and_then(Version::parse);
    let version = asked
        .filter(|v| !v.is_stateless())
        .unwrap_or(Version::V2025_11_25);
    let mut result = Map::new();
    result.insert("protocolVersion".into(), version.as_str().into());
    result.insert("capabilities".into(), capabilities());
    result.insert("serverInfo".into(), json!(SERVER));
    result.insert("instructions".into(), INSTRUCTIONS.into());
    result
}

fn read_resource(
    params: &Map<String, Value>,
    id: &Value,
    version: Version,
    view: Option<&str>,
) -> OrAnswer<Map<String, Value>> {
    let Some(uri) = params.get("uri").and_then(Value::as_str) else {
        return Err(fail(
            id,
            &invalid_params("/params/uri", "`uri` must be a string"),
        ));
    };
    if uri != view::URI {
        let (code, status) = if version.is_stateless() {
            (code::INVALID_PARAMS, 400)
        } else {
            (code::RESOURCE_NOT_FOUND_LEGACY, 200)
        };
        let message = format!(
            "Resource not found: {uri}. The only resource is {}; call {} again for a new form.",
            view::URI,
            tools::GENERATE
        );
        return Err(fail(
            id,
            &RpcError::new(code, status, message).with_data(json!({"uri": uri})),
        ));
    }
    let Some(html) = view else {
        let error = Error::new(
            crate::error::ErrorCode::Internal,
            "the form view was not built into this worker (scripts/build-mcp-view.sh)",
        );
        return Err(fail(
            id,
            &RpcError::new(-32603, 500, error.message()).with_data(error.to_dgui_error()),
        ));
    };
    Ok(one("contents", json!([view::contents(html)])))
}

/// `tools/call`: the tool's arguments become a `/v1` body.
fn call_tool(
    params: &Map<String, Value>,
    id: Value,
    version: Version,
    client: Client<'_>,
    limits: &Limits,
) -> OrAnswer<Mcp> {
    let name = params
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let mut arguments = match params.get("arguments") {
        None | Some(Value::Null) => Value::Object(Map::new()),
        Some(arguments @ Value::Object(_)) => arguments.clone(),
        Some(_) => {
            return Err(fail(
                &id,
                &invalid_params("/params/arguments", "`arguments` must be an object"),
            ))
        }
    };
    let tool_error = |error: Error| {
        Mcp::Answer(
            McpCall::new(id.clone(), version, None).tool_result(&HttpResponse::error(&error)),
        )
    };
    let surface = Surface::of(client.caps, version.is_stateless());
    if surface == Surface::A2ui {
        match name {
            tools::GENERATE => native::ask_for_a2ui(&mut arguments),
            tools::SUBMIT => {
                if let Err(error) = native::place_decision(&mut arguments, limits) {
                    return Ok(tool_error(error));
                }
            }
            _ => {}
        }
    }
    let body = arguments.to_string();
    match name {
        tools::GENERATE => {
            let mut job = match GenerateJob::prepare(body.as_bytes(), None, limits) {
                Ok(job) => job,
                Err(error) => return Ok(tool_error(error)),
            };
            job.form_markup = true;
            let retried =
                params.contains_key("inputResponses") || params.contains_key("requestState");
            if version.is_stateless() && retried {
                return retry(params, &job, id, client.forms, limits);
            }
            if let Surface::Elicit { form: true, .. } = surface {
                if let Some(elicitation) = form_elicitation(&job, id.clone(), client.forms) {
                    return Ok(Mcp::Answer(elicitation));
                }
            }
            let format = format_name(job.request().format);
            let mut call = McpCall::new(id, version, Some(format));
            let hosted = client.forms.secret.is_some() && !job.is_display();
            if !matches!(surface, Surface::AppView | Surface::A2ui) && hosted {
                let elicit = matches!(surface, Surface::Elicit { url: true, .. });
                let spec_hash = job.spec_hash().to_owned();
                let message = person_message(&job);
                let link = McpLink {
                    call,
                    spec_hash,
                    elicit,
                    message,
                };
                return Ok(Mcp::Link(Box::new(job), link));
            }
            call.reach = reach::agent_text(surface, &job);
            call.native_a2ui = surface == Surface::A2ui;
            Ok(Mcp::Generate(Box::new(job), call))
        }
        tools::SUBMIT => Ok(Mcp::Submit(
            Box::new(Submission::read(
                SubmitDoor::Mcp,
                SubmitFacts::body(body.as_bytes()),
                limits,
            )),
            McpCall::new(id, version, None),
        )),
        _ => Err(fail(
            &id,
            &invalid_params(
                "/params/name",
                &format!(
                    "unknown tool `{name}`: the tools are {} and {}",
                    tools::GENERATE,
                    tools::SUBMIT
                ),
            ),
        )),
    }
}

fn format_name(format: crate::terms::format::Format) -> &'static str {
    format.name()
}

/// A result as the version wants it: 2026-07-28 adds `resultType`, our
/// identity, and for lists and reads `ttlMs` and `cacheScope`; the
/// handshake versions get the bare result (their SDKs strip the rest).
fn complete(
    mut result: Map<String, Value>,
    version: Version,
    cache: Option<(u64, &str)>,
) -> Map<String, Value> {
    if version.is_stateless() {
        result.insert("resultType".into(), "complete".into());
        result.insert("_meta".into(), server_meta());
        if let Some((ttl, scope)) = cache {
            result.insert("ttlMs".into(), ttl.into());
            result.insert("cacheScope".into(), scope.into());
        }
    }
    result
}

/// `_meta` of a 2026-07-28 result: who answers.
fn server_meta() -> Value {
    json!({"io.modelcontextprotocol/serverInfo": {"name": SERVER.name, "version": SERVER.version}})
}

fn one(key: &str, value: Value) -> Map<String, Value> {
    let mut map = Map::new();
    map.insert(key.into(), value);
    map
}

fn answer(id: &Value, result: Map<String, Value>) -> HttpResponse {
    HttpResponse {
        status: 200,
        headers: Vec::new(),
        body: Envelope::result(id, &result).to_json(),
    }
}

fn fail(id: &Value, error: &RpcError) -> HttpResponse {
    HttpResponse {
        status: error.status,
        headers: Vec::new(),
        body: Envelope::error(id, error).to_json(),
    }
}

/// `-32602`, with our `dgui_error` (code and JSON Pointer into the request) as `data`.
fn invalid_params(pointer: &str, why: &str) -> RpcError {
    let error = Error::new(
        crate::error::ErrorCode::InvalidRequest,
        format!("{why} (at {pointer})"),
    )
    .at(pointer);
    RpcError::new(code::INVALID_PARAMS, 400, format!("Invalid params: {why}"))
        .with_data(error.to_dgui_error())
}

/// `-32601`: 404 under 2026-07-28 (the transport spec), 200 before.
fn unknown_method(method: &str, version: Version) -> RpcError {
    let (status, known) = if version.is_stateless() {
        (404, &STATELESS_METHODS[..])
    } else {
        (200, &HANDSHAKE_METHODS[..])
    };
    let message = format!(
        "Method not found: `{method}` under protocol {}; this server answers {}",
        version.as_str(),
        known.join(", ")
    );
    RpcError::new(code::METHOD_NOT_FOUND, status, message)
}

/// A JSON Pointer token (`/` and `~` escaped).
fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests;
