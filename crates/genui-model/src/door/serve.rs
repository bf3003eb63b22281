//! The route dispatch every request goes through: the rate limit of the
//! routes that have one, the route table's gate (method, API key, origin),
//! the row's door, then what every answer gets (the transport the client
//! accepts, the CORS headers, a stream head's
//! `cache-control` and request id) and the request's one log line.
//!
//! The routes are genui-core's table (`Route`); a row's [`Handler`] names
//! its door.

use super::{agent, cors_origins, forms, mcp, render_spec, submit, webhook, Answer, Platform};
use genui_core::{Access, FormToken, Handler, HttpResponse, Limits, Route};

/// The rate limiter's binding.
const RATE_LIMITER_BINDING: &str = "RATE_LIMITER";

/// Answers one request: route, gate, door, transport, CORS, log line.
pub async fn serve<P: Platform>(platform: P) -> Answer {
    let started = platform.now_ms();
    let method = platform.method();
    let path = platform.path();
    let mut answer = routed(&platform, &method, &path).await;
    answer.stamp_stream_head(&platform.request_id());
    let head = answer.head_mut();
    head.negotiate_transport(platform.header("accept").as_deref());
    let origin = platform.header("origin");
    let allowed = cors_origins(&platform);
    head.headers
        .extend(Access::cors_headers(origin.as_deref(), allowed.as_deref()));
    // A hosted form's path is its link (a capability): never logged.
    let logged_path = FormToken::redact_path(&path);
    let duration_ms = platform.now_ms().saturating_sub(started) as f64;
    let line = head.log_line(&platform.request_id(), &method, &logged_path, duration_ms);
    platform.log(&line);
    log_catalog_refusals(&platform);
    answer
}

/// One `catalog_refused` line for each configured catalog a request of
/// this isolate first named and the core found malformed (once each).
fn log_catalog_refusals<P: Platform>(platform: &P) {
    for why in Limits::take_catalog_refusals() {
        let line = serde_json::json!({"event": "catalog_refused", "reason": why});
        platform.log_error(&line.to_string());
    }
}

/// The answer of the route `method` `path` names: over budget, refused by
/// its gate, or its door's.
async fn routed<P: Platform>(platform: &P, method: &str, path: &str) -> Answer {
    let route = Route::of(method, path);
    if route.rate_limited() {
        if let Some(limited) = over_budget(platform).await {
            return Answer::Whole(limited);
        }
    }
    let authorization = platform.header("authorization");
    let keys = platform.setting("API_KEYS");
    let origin = platform.header("origin");
    let allowed = cors_origins(platform);
    let gate = route.handler(
        method,
        path,
        authorization.as_deref(),
        keys.as_deref(),
        origin.as_deref(),
        allowed.as_deref(),
    );
    match gate {
        Ok((handler, parameter)) => door(platform, handler, parameter).await,
        Err(refused) => Answer::Whole(refused),
    }
}

/// Runs the door of a row of the route table.
async fn door<P: Platform>(platform: &P, handler: Handler, parameter: &str) -> Answer {
    let whole = Answer::Whole;
    match handler {
        Handler::Healthz => whole(HttpResponse::healthz(platform.memory_bytes())),
        Handler::Generate => super::generate::generate(platform).await,
        Handler::Interrupt => super::generate::interrupt(platform).await,
        Handler::RenderSpec => render_spec::render_spec(platform, parameter).await,
        Handler::Webhook => webhook::webhook(platform).await,
        Handler::Submit => submit::submit(platform).await,
        Handler::Tool => whole(HttpResponse::tool_definition()),
        Handler::OpenApi => whole(HttpResponse {
            status: 200,
            headers: Vec::new(),
            body: HttpResponse::openapi_json().to_owned(),
        }),
        Handler::Schema => whole(HttpResponse::contract_schema(parameter)),
        Handler::Agent => agent::agent(platform).await,
        Handler::Mcp => whole(mcp::mcp(platform).await),
        Handler::Forms => whole(forms::create(platform).await),
        Handler::HostedForm => whole(forms::hosted(platform, parameter).await),
    }
}

/// `Some(429 answer)` when the caller (by API key, else by client IP) is
/// over its budget. Without a limiter, or when it fails, nothing is
/// limited (a failure is logged).
async fn over_budget<P: Platform>(platform: &P) -> Option<HttpResponse> {
    if !platform.has_binding(RATE_LIMITER_BINDING) {
        return None;
    }
    let bucket = Access::rate_limit_bucket(
        platform.header("authorization").as_deref(),
        platform.header("cf-connecting-ip").as_deref(),
    );
    match platform
        .within_rate_limit(RATE_LIMITER_BINDING, &bucket)
        .await
    {
        Ok(within) => (!within).then(Access::over_budget),
        Err(error) => {
            let line =
                serde_json::json!({"event": "rate_limiter_failed", "error": error.message()});
            platform.log_error(&line.to_string());
            None
        }
    }
}
