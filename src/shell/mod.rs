//! The fetch handler: route, read, look up, finish, respond, store.

mod kv;
mod respond;

use genui_core::error::{Error, ErrorCode};
use genui_core::service::{self, HttpResponse, Route};
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
    let (response, cache) = handle(req, &env, &ctx).await;
    log_line(&info, &response, cache);
    into_response(response, &info)
}

async fn handle(mut req: Request, env: &Env, ctx: &Context) -> (HttpResponse, Option<&'static str>) {
    let method = req.method().to_string();
    let path = req.path();
    match service::route(&method, &path) {
        Route::Healthz => (service::healthz(), None),
        Route::Generate => generate(&mut req, env, ctx).await,
        other => (HttpResponse::for_route(other, &method, &path).unwrap_or_else(service::healthz), None),
    }
}

async fn generate(req: &mut Request, env: &Env, ctx: &Context) -> (HttpResponse, Option<&'static str>) {
    let limits = Limits::default();
    // Refuse an announced oversize body before reading it.
    if let Some(length) = req.headers().get("content-length").ok().flatten().and_then(|v| v.parse::<usize>().ok()) {
        if let Err(error) = limits.check_body_size(length) {
            return (HttpResponse::error(&error), None);
        }
    }
    let body = match req.bytes().await {
        Ok(body) => body,
        Err(e) => {
            let error = Error::new(ErrorCode::InvalidRequest, format!("the request body could not be read: {e}"));
            return (HttpResponse::error(&error), None);
        }
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
