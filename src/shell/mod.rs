//! The fetch handler: route, read, look up, finish, respond, store.
//!
//! Routes: `POST /v1/generate`, `POST /v1/submit`, `GET /v1/tool`,
//! `GET /openapi.json`, `GET /schemas/<file>`, `GET /healthz`.

mod kv;
mod respond;

use genui_core::error::{Error, ErrorCode};
use genui_core::service::{self, HttpResponse, Route};
use genui_core::{submit, tool};
use genui_core::Limits;
use respond::{into_response, log_line, RequestInfo};
use worker::{event, Context, Date, Env, Request, Response, Result};

#[event(start)]
fn start() {
    console_error_panic_hook::set_once();
}

#[event(fetch)]
async fn fetch(req: Request, env: Env, ctx: Context) -> Result<Response> {
    let info = RequestInfo::new(&req);
    let (response, cache) = handle(req, &env, &ctx, &info.id).await;
    log_line(&info, &response, cache);
    into_response(response, &info)
}

async fn handle(mut req: Request, env: &Env, ctx: &Context, request_id: &str) -> (HttpResponse, Option<&'static str>) {
    let method = req.method().to_string();
    let path = req.path();
    match service::route(&method, &path) {
        Route::Healthz => (service::healthz(), None),
        Route::Generate => generate(&mut req, env, ctx).await,
        Route::Submit => (submit(&mut req, env, request_id).await, None),
        Route::Tool => (HttpResponse::json(200, &tool::tool_definition()), None),
        Route::OpenApi => (HttpResponse { status: 200, headers: Vec::new(), body: tool::openapi_json().to_owned() }, None),
        Route::Schema(contract) => (HttpResponse { status: 200, headers: Vec::new(), body: contract.source().to_owned() }, None),
        other => (HttpResponse::for_route(other, &method, &path).unwrap_or_else(service::healthz), None),
    }
}

/// Reads the body, refusing an announced oversize body before reading it.
async fn read_body(req: &mut Request, limits: &Limits) -> std::result::Result<Vec<u8>, HttpResponse> {
    if let Some(length) = req.headers().get("content-length").ok().flatten().and_then(|v| v.parse::<usize>().ok()) {
        limits.check_body_size(length).map_err(|e| HttpResponse::error(&e))?;
    }
    req.bytes().await.map_err(|e| {
        HttpResponse::error(&Error::new(ErrorCode::InvalidRequest, format!("the request body could not be read: {e}")))
    })
}

async fn submit(req: &mut Request, env: &Env, request_id: &str) -> HttpResponse {
    let limits = Limits::default();
    let body = match read_body(req, &limits).await {
        Ok(body) => body,
        Err(response) => return response,
    };
    let job = match submit::prepare_submit(&body, &limits) {
        Ok(job) => job,
        Err(error) => return HttpResponse::error(&error),
    };
    let cached = match job.cache_key() {
        Some(key) => kv::SpecCache::open(env).get(&key).await,
        None => None,
    };
    job.finish(cached.as_deref(), request_id).response
}

async fn generate(req: &mut Request, env: &Env, ctx: &Context) -> (HttpResponse, Option<&'static str>) {
    let limits = Limits::default();
    let body = match read_body(req, &limits).await {
        Ok(body) => body,
        Err(response) => return (response, None),
    };
    let format = query_param(req, "format");
    let job = match service::prepare_generate(&body, format.as_deref(), &limits) {
        Ok(job) => job,
        Err(error) => return (HttpResponse::error(&error), None),
    };
    let cache = kv::SpecCache::open(env);
    let cached = cache.get(job.cache_key()).await;
    let outcome = job.finish(cached.as_deref());
    if let Some(put) = outcome.cache_put {
        cache.put_after_response(ctx, put);
    }
    let status = outcome.cache.map(|c| match c {
        genui_core::render::CacheStatus::Hit => "hit",
        genui_core::render::CacheStatus::Miss => "miss",
    });
    (outcome.response, status)
}

/// The first value of a query parameter.
fn query_param(req: &Request, name: &str) -> Option<String> {
    let url = req.url().ok()?;
    url.query_pairs().find(|(key, _)| key == name).map(|(_, value)| value.into_owned())
}

/// Milliseconds since the epoch, from the runtime's clock.
fn now_ms() -> f64 {
    Date::now().as_millis() as f64
}
