//! The route table: every operation the worker serves, one row each, and
//! what is derived from it: the route of a request line ([`Route::of`]),
//! whether it needs the API key or passes the rate limiter, the `405` and its
//! `Allow` header for a known path asked with another method, and the paths of
//! the OpenAPI document (`crate::edge::tool`). The shell dispatches on the
//! row's [`Handler`]; a test holds `wrangler.toml`'s `run_worker_first` globs
//! and docs/api.md's route list to this table.

use crate::edge::access::Access;
use crate::terms::contracts::Contract;
use crate::terms::response::HttpResponse;

/// What serves a row: the shell runs one handler per variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Handler {
    /// `GET /healthz`.
    Healthz,
    /// `POST /v1/generate`.
    Generate,
    /// `POST /v1/submit`.
    Submit,
    /// `POST /v1/interrupt`: an AG-UI interrupt answered as a generate request.
    Interrupt,
    /// `POST /v1/specs/<specHash>/render`: a cached spec rendered again with
    /// the client's data (the hash is the route's parameter).
    RenderSpec,
    /// `POST /v1/webhook`: a signed generate request from an agent runtime.
    Webhook,
    /// `POST /v1/agent`: an AG-UI run (`RunAgentInput`) answered as AG-UI events.
    Agent,
    /// `POST /v1/forms`: a hosted form's link for a tool call.
    Forms,
    /// `GET`/`POST /f/<token>`: a hosted form (the token is the route's parameter).
    HostedForm,
    /// `POST /mcp`: the MCP server.
    Mcp,
    /// `GET /v1/tool`: the tool definition to inject into an agent.
    Tool,
    /// `GET /openapi.json`.
    OpenApi,
    /// `GET /schemas/<file>`: one contract schema (the file is the route's parameter).
    Schema,
}

/// What a path template's `{...}` segment accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Parameter {
    /// A fixed path: no parameter.
    None,
    /// Any rest of the path (a hosted form's token; the handler judges it).
    Any,
    /// The file name of one of the contract schemas; any other is 404.
    ContractFile,
    /// One non-empty path segment (no `/`) between the fixed prefix and the
    /// rest of the template (a spec hash; the handler judges it).
    Segment,
}

/// One operation: a path and the methods one handler serves there.
#[derive(Debug)]
pub(crate) struct RouteRow {
    /// The OpenAPI path template; its `{name}` segment is the parameter.
    pub(crate) path: &'static str,
    /// The methods, as the `Allow` header lists them (`HEAD` beside `GET`).
    pub(crate) methods: &'static [&'static str],
    /// What the trailing segment accepts.
    pub(crate) parameter: Parameter,
    /// Whether the bearer key is needed when `API_KEYS` is set.
    pub(crate) needs_key: bool,
    /// Whether the rate limiter counts the request.
    pub(crate) rate_limited: bool,
    /// What serves it.
    pub(crate) handler: Handler,
    /// The OpenAPI operation's summary.
    pub(crate) summary: &'static str,
}

const GET: &[&str] = &["GET", "HEAD"];
const POST: &[&str] = &["POST"];

/// Every operation, in the OpenAPI document's order.
pub(crate) const ROUTES: &[RouteRow] = &[
    RouteRow {
        path: "/v1/generate",
        methods: POST,
        parameter: Parameter::None,
        needs_key: true,
        rate_limited: true,
        handler: Handler::Generate,
        summary: "Generate a UI for a generateUserInterface call",
    },
    RouteRow {
        path: "/v1/submit",
        methods: POST,
        parameter: Parameter::None,
        needs_key: true,
        rate_limited: true,
        handler: Handler::Submit,
        summary: "Validate a submission and get the message for the agent (the tool message, or a dgui_response without toolCallId)",
    },
    RouteRow {
        path: "/v1/interrupt",
        methods: POST,
        parameter: Parameter::None,
        needs_key: true,
        rate_limited: true,
        handler: Handler::Interrupt,
        summary: "An AG-UI interrupt ({interrupt, format?, data?}) answered as /v1/generate answers, with meta.interrupt carrying its signed token; the submission (with interruptId and interruptToken) is answered as an AG-UI ResumeEntry (docs/interrupts.md)",
    },
    RouteRow {
        path: "/v1/specs/{specHash}/render",
        methods: POST,
        parameter: Parameter::Segment,
        needs_key: true,
        rate_limited: true,
        handler: Handler::RenderSpec,
        summary: "A cached spec rendered again ({format?, data?, locale?, device?, toolCallId?}), in any format, with the client's current data: the answer a cache hit of the original /v1/generate call gives; 404 spec_not_found when the spec has left the cache (send the call again)",
    },
    RouteRow {
        path: "/v1/webhook",
        methods: POST,
        parameter: Parameter::None,
        needs_key: false,
        rate_limited: true,
        handler: Handler::Webhook,
        summary: "A generate request signed by the agent runtime (X-Genui-Signature: t=..,v1=..), accepted once (a repeat is 409 webhook_replayed)",
    },
    RouteRow {
        path: "/v1/agent",
        methods: POST,
        parameter: Parameter::None,
        needs_key: true,
        rate_limited: true,
        handler: Handler::Agent,
        summary: "An AG-UI 1.0 run (RunAgentInput) answered as AG-UI events: the generateUserInterface call's UI as an activity, or an A2UI user action checked as a submission",
    },
    RouteRow {
        path: "/v1/forms",
        methods: POST,
        parameter: Parameter::None,
        needs_key: true,
        rate_limited: true,
        handler: Handler::Forms,
        summary: "A hosted form's link for a generateUserInterface call (needs callbackUrl; the answer is POSTed there, signed)",
    },
    RouteRow {
        path: "/f/{token}",
        methods: GET,
        parameter: Parameter::Any,
        needs_key: false,
        rate_limited: true,
        handler: Handler::HostedForm,
        summary: "A hosted form's page (text/html); 404 forged, 410 expired",
    },
    RouteRow {
        path: "/f/{token}",
        methods: POST,
        parameter: Parameter::Any,
        needs_key: false,
        rate_limited: true,
        handler: Handler::HostedForm,
        summary: "A person's answer (application/x-www-form-urlencoded, fields named by JSON Pointer); the page again with errors (4xx), or, once the answer is stored, 202 received (it is then POSTed, signed, to callbackUrl with x-genui-delivery-id, and retried until taken or expired; docs/hosted-forms.md), 409 already submitted",
    },
    RouteRow {
        path: "/v1/tool",
        methods: GET,
        parameter: Parameter::None,
        needs_key: true,
        rate_limited: true,
        handler: Handler::Tool,
        summary: "The generateUserInterface tool definition",
    },
    RouteRow {
        path: "/healthz",
        methods: GET,
        parameter: Parameter::None,
        needs_key: false,
        rate_limited: false,
        handler: Handler::Healthz,
        summary: "Liveness",
    },
    RouteRow {
        path: "/openapi.json",
        methods: GET,
        parameter: Parameter::None,
        needs_key: false,
        rate_limited: false,
        handler: Handler::OpenApi,
        summary: "This document",
    },
    RouteRow {
        path: "/schemas/{name}",
        methods: GET,
        parameter: Parameter::ContractFile,
        needs_key: false,
        rate_limited: false,
        handler: Handler::Schema,
        summary: "A contract schema",
    },
    RouteRow {
        path: "/mcp",
        methods: POST,
        parameter: Parameter::None,
        needs_key: true,
        rate_limited: true,
        handler: Handler::Mcp,
        summary: "The MCP server (Streamable HTTP, JSON-RPC 2.0; docs/mcp.md): initialize, tools/list, tools/call, resources/read",
    },
];

/// What a request line leads to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route<'a> {
    /// A row of the route table serves it.
    Serve {
        /// The row's handler.
        handler: Handler,
        /// The path's parameter (a hosted form's token, a schema's file
        /// name); empty for a fixed path.
        parameter: &'a str,
        /// Whether the bearer key is needed when keys are configured (the
        /// `/v1` API and `/mcp`; health, OpenAPI, schemas and hosted forms
        /// stay public).
        needs_key: bool,
        /// Whether the rate limiter counts it.
        rate_limited: bool,
    },
    /// Known path, other method; `allow` lists the methods it takes.
    MethodNotAllowed {
        /// Value of the `Allow` header.
        allow: String,
    },
    /// Unknown path.
    NotFound,
    /// `OPTIONS` on a known path: a CORS preflight.
    Preflight,
}

impl<'a> Route<'a> {
    /// The route of a request line, from [`ROUTES`].
    pub fn of(method: &str, path: &'a str) -> Self {
        let matching: Vec<(&RouteRow, &'a str)> = ROUTES
            .iter()
            .filter_map(|row| row.parameter_of(path).map(|parameter| (row, parameter)))
            .collect();
        if matching.is_empty() {
            return Route::NotFound;
        }
        let serving = matching
            .iter()
            .find(|(row, _)| row.methods.iter().any(|m| m.eq_ignore_ascii_case(method)));
        match serving {
            Some((row, parameter)) => Route::Serve {
                handler: row.handler,
                parameter,
                needs_key: row.needs_key,
                rate_limited: row.rate_limited,
            },
            None if method.eq_ignore_ascii_case("OPTIONS") => Route::Preflight,
            None => Route::MethodNotAllowed {
                allow: allow_header(matching.iter().map(|(row, _)| *row)),
            },
        }
    }

    /// Whether the route needs an API key when keys are configured.
    pub fn needs_key(&self) -> bool {
        matches!(
            self,
            Route::Serve {
                needs_key: true,
                ..
            }
        )
    }

    /// Whether the rate limiter counts the request.
    pub fn rate_limited(&self) -> bool {
        matches!(
            self,
            Route::Serve {
                rate_limited: true,
                ..
            }
        )
    }

    /// Where the request `method path` goes once its route is known: the
    /// row's handler and the path's parameter, or the answer that ends it
    /// here. Where `keys` are configured, a row that needs one refuses a
    /// request whose `authorization` holds none of them (401,
    /// `WWW-Authenticate: Bearer`); `OPTIONS` on a known path is the CORS
    /// preflight's 204 for `origin` (`allowed_origins`, the setting); another
    /// method is 405 with `Allow`; an unknown path is 404.
    pub fn handler(
        self,
        method: &str,
        path: &str,
        authorization: Option<&str>,
        keys: Option<&str>,
        origin: Option<&str>,
        allowed_origins: Option<&str>,
    ) -> Result<(Handler, &'a str), HttpResponse> {
        if self.needs_key() {
            if let Err(error) = Access::authorize(authorization, keys) {
                let mut refused = HttpResponse::error(&error);
                refused
                    .headers
                    .push(("www-authenticate".into(), "Bearer".into()));
                return Err(refused);
            }
        }
        Err(match self {
            Route::Serve {
                handler, parameter, ..
            } => return Ok((handler, parameter)),
            Route::Preflight => HttpResponse {
                status: 204,
                headers: Access::preflight_headers(origin, allowed_origins),
                body: String::new(),
            },
            Route::MethodNotAllowed { allow } => {
                HttpResponse::method_not_allowed(method, path, &allow)
            }
            Route::NotFound => HttpResponse::not_found(path),
        })
    }
}

impl RouteRow {
    /// The path's parameter when the path is this row's (empty for a fixed
    /// path), else `None`.
    fn parameter_of<'a>(&self, path: &'a str) -> Option<&'a str> {
        match self.parameter {
            Parameter::None => (path == self.path).then_some(""),
            Parameter::Any => path.strip_prefix(self.fixed_prefix()),
            Parameter::ContractFile => path
                .strip_prefix(self.fixed_prefix())
                .filter(|name| Contract::by_file_name(name).is_some()),
            Parameter::Segment => path
                .strip_prefix(self.fixed_prefix())
                .and_then(|rest| rest.strip_suffix(self.fixed_suffix()))
                .filter(|segment| !segment.is_empty() && !segment.contains('/')),
        }
    }

    /// The path after its `{parameter}` segment (empty for a trailing one).
    fn fixed_suffix(&self) -> &'static str {
        match self.path.find('}') {
            Some(end) => &self.path[end + 1..],
            None => "",
        }
    }

    /// The path up to its `{parameter}` segment.
    pub(crate) fn fixed_prefix(&self) -> &'static str {
        match self.path.find('{') {
            Some(start) => &self.path[..start],
            None => self.path,
        }
    }
}

/// The `Allow` header of the rows of one path: their methods, in table order.
fn allow_header<'r>(rows: impl Iterator<Item = &'r RouteRow>) -> String {
    let methods: Vec<&str> = rows.flat_map(|row| row.methods.iter().copied()).collect();
    methods.join(", ")
}

impl HttpResponse {
    /// `GET /schemas/<file>`: the contract schema of that file name.
    pub fn contract_schema(file_name: &str) -> Self {
        match Contract::by_file_name(file_name) {
            Some(contract) => Self {
                status: 200,
                headers: Vec::new(),
                body: contract.source().to_owned(),
            },
            None => Self::not_found(&format!("/schemas/{file_name}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where `method path` goes with `authorization` where key `k1` is
    /// configured, from origin `https://app.example` (allowed).
    fn handled(
        method: &str,
        path: &'static str,
        authorization: Option<&str>,
    ) -> Result<(Handler, &'static str), HttpResponse> {
        let origin = Some("https://app.example");
        Route::of(method, path).handler(method, path, authorization, Some("k1"), origin, origin)
    }

    #[test]
    fn a_request_reaches_its_handler_only_with_a_key_where_its_row_needs_one() {
        assert_eq!(
            handled("POST", "/v1/generate", Some("Bearer k1")),
            Ok((Handler::Generate, ""))
        );
        let refused = handled("POST", "/v1/generate", Some("Bearer k2")).unwrap_err();
        assert_eq!(refused.status, 401);
        assert_eq!(
            refused.headers.last(),
            Some(&("www-authenticate".into(), "Bearer".into()))
        );
        assert_eq!(
            handled("POST", "/v1/generate", None).unwrap_err().status,
            401
        );
        assert_eq!(
            handled("GET", "/healthz", None),
            Ok((Handler::Healthz, "")),
            "public"
        );
        assert_eq!(
            handled("GET", "/f/tok", None),
            Ok((Handler::HostedForm, "tok")),
            "public"
        );
        let no_keys = Route::of("POST", "/v1/generate").handler(
            "POST",
            "/v1/generate",
            None,
            None,
            None,
            None,
        );
        assert_eq!(
            no_keys,
            Ok((Handler::Generate, "")),
            "no keys configured: open"
        );
    }

    #[test]
    fn a_request_no_row_serves_is_answered_before_any_handler() {
        // The allowed list is a pattern, not an origin, so the test tells
        // the request's origin from the setting.
        let preflight = |origin: &str| {
            let path = "/v1/generate";
            let allowed = Some("https://app.example, http://localhost:*");
            let route = Route::of("OPTIONS", path);
            route
                .handler("OPTIONS", path, None, Some("k1"), Some(origin), allowed)
                .unwrap_err()
        };
        let allowed = preflight("http://localhost:8787");
        assert_eq!((allowed.status, allowed.body.as_str()), (204, ""));
        let expected: Vec<(String, String)> = [
            ("access-control-allow-origin", "http://localhost:8787"),
            ("vary", "Origin"),
            (
                "access-control-expose-headers",
                &crate::edge::access::EXPOSED_HEADERS.join(", "),
            ),
            ("access-control-allow-methods", "GET, POST, OPTIONS"),
            (
                "access-control-allow-headers",
                "authorization, content-type, a2ui-client-data-model, mcp-protocol-version, \
                 mcp-method, mcp-name, mcp-session-id",
            ),
            ("access-control-max-age", "86400"),
        ]
        .iter()
        .map(|(name, value)| (name.to_string(), value.to_string()))
        .collect();
        assert_eq!(allowed.headers, expected);
        let other = preflight("https://evil.example");
        assert_eq!(other.status, 204);
        assert!(
            other.headers.is_empty(),
            "an origin not allowed gets no CORS grant"
        );
        let not_allowed = handled("DELETE", "/v1/generate", Some("Bearer k1")).unwrap_err();
        let allow = "POST";
        assert_eq!(
            not_allowed,
            HttpResponse::method_not_allowed("DELETE", "/v1/generate", allow)
        );
        assert_eq!(
            handled("GET", "/nowhere", None).unwrap_err(),
            HttpResponse::not_found("/nowhere")
        );
    }

    fn serve(handler: Handler, parameter: &str, needs_key: bool, rate_limited: bool) -> Route<'_> {
        Route::Serve {
            handler,
            parameter,
            needs_key,
            rate_limited,
        }
    }

    #[test]
    fn request_lines_reach_their_rows() {
        assert_eq!(
            Route::of("POST", "/v1/generate"),
            serve(Handler::Generate, "", true, true)
        );
        assert_eq!(
            Route::of("HEAD", "/healthz"),
            serve(Handler::Healthz, "", false, false)
        );
        assert_eq!(
            Route::of("post", "/f/abc.def"),
            serve(Handler::HostedForm, "abc.def", false, true)
        );
        assert_eq!(
            Route::of("GET", "/schemas/dgui-error.schema.json"),
            serve(Handler::Schema, "dgui-error.schema.json", false, false)
        );
        assert_eq!(
            Route::of("POST", "/v1/webhook"),
            serve(Handler::Webhook, "", false, true)
        );
        assert_eq!(
            Route::of("POST", "/v1/specs/not-a-hash/render"),
            serve(Handler::RenderSpec, "not-a-hash", true, true)
        );
    }

    #[test]
    fn a_spec_hash_is_one_segment_between_the_fixed_parts() {
        for path in [
            "/v1/specs//render",
            "/v1/specs/a/b/render",
            "/v1/specs/abc/render/",
            "/v1/specs/abc",
            "/v1/specs/render",
        ] {
            assert_eq!(Route::of("POST", path), Route::NotFound, "{path}");
        }
        match Route::of("GET", "/v1/specs/abc/render") {
            Route::MethodNotAllowed { allow } => assert_eq!(allow, "POST"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn unknown_paths_and_unknown_schemas_are_not_found() {
        for (method, path) in [
            ("GET", "/"),
            ("GET", "/v1"),
            ("POST", "/v1/generate/"),
            ("GET", "/schemas/nope.json"),
            ("OPTIONS", "/schemas/nope.json"),
            ("GET", "/mcpx"),
        ] {
            assert_eq!(Route::of(method, path), Route::NotFound, "{method} {path}");
        }
    }

    #[test]
    fn other_methods_get_405_with_every_method_of_the_path() {
        let allow = |method, path| match Route::of(method, path) {
            Route::MethodNotAllowed { allow } => allow,
            other => panic!("{method} {path}: {other:?}"),
        };
        assert_eq!(allow("DELETE", "/f/token"), "GET, HEAD, POST");
        assert_eq!(allow("GET", "/v1/generate"), "POST");
        assert_eq!(allow("POST", "/openapi.json"), "GET, HEAD");
        assert_eq!(allow("PUT", "/schemas/dgui-error.schema.json"), "GET, HEAD");
        assert_eq!(Route::of("OPTIONS", "/v1/submit"), Route::Preflight);
    }

    #[test]
    fn the_key_guards_the_v1_api_and_mcp_only() {
        for row in ROUTES {
            let guarded = row.path.starts_with("/v1/") && row.handler != Handler::Webhook
                || row.path == "/mcp";
            assert_eq!(row.needs_key, guarded, "{}", row.path);
        }
    }

    /// The path as a glob: its parameter becomes `*`.
    fn as_glob(row: &RouteRow) -> String {
        match row.parameter {
            Parameter::None => row.path.to_owned(),
            _ => format!("{}*", row.fixed_prefix()),
        }
    }

    /// Whether `glob` (`*` for any run of characters) matches `text`.
    fn glob_matches(glob: &str, text: &str) -> bool {
        match glob.split_once('*') {
            None => glob == text,
            Some((head, tail)) => {
                text.starts_with(head)
                    && (head.len()..=text.len()).any(|at| glob_matches(tail, &text[at..]))
            }
        }
    }

    fn run_worker_first() -> Vec<String> {
        let wrangler: toml::Table = include_str!("../../../../wrangler.toml")
            .parse()
            .expect("wrangler.toml parses");
        let globs = &wrangler["assets"]["run_worker_first"];
        globs
            .as_array()
            .expect("[assets] run_worker_first is a list")
            .iter()
            .map(|glob| glob.as_str().expect("a glob is a string").to_owned())
            .collect()
    }

    /// Static assets answer every path the worker does not run first, so a
    /// route outside the globs would be served by the assets (or their 404).
    #[test]
    fn wrangler_runs_the_worker_first_for_every_route_and_nothing_else() {
        let globs = run_worker_first();
        for row in ROUTES {
            let path = as_glob(row);
            assert!(
                globs.iter().any(|glob| glob_matches(glob, &path)),
                "wrangler.toml's run_worker_first misses {}",
                row.path
            );
        }
        for glob in &globs {
            assert!(
                ROUTES.iter().any(|row| glob_matches(glob, &as_glob(row))),
                "wrangler.toml's run_worker_first glob {glob} serves no route"
            );
        }
    }

    /// docs/api.md's route table, as `METHOD path` lines with `<param>` as `*`.
    fn documented_routes() -> Vec<String> {
        let doc = include_str!("../../../../docs/api.md");
        let table = doc
            .split("## Routes")
            .nth(1)
            .expect("docs/api.md has a Routes section");
        let mut routes = Vec::new();
        for line in table.lines().skip_while(|l| !l.starts_with("| `")) {
            let Some(cell) = line.strip_prefix("| ").and_then(|l| l.split(" | ").next()) else {
                break;
            };
            let cell = cell.replace('`', "");
            let (methods, path) = cell.rsplit_once(' ').expect("`METHOD path`");
            let path = match path.find('<') {
                Some(start) => format!("{}*", &path[..start]),
                None => path.to_owned(),
            };
            routes.extend(methods.split('/').map(|m| format!("{m} {path}")));
        }
        routes.sort();
        routes
    }

    #[test]
    fn docs_list_every_route_of_the_table() {
        let mut table: Vec<String> = ROUTES
            .iter()
            .flat_map(|row| {
                let path = as_glob(row);
                row.methods
                    .iter()
                    .filter(|m| **m != "HEAD")
                    .map(move |m| format!("{m} {path}"))
            })
            .collect();
        table.sort();
        assert_eq!(documented_routes(), table);
    }
}
