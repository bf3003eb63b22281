//! The fetch handler: route, read, look up, answer, respond, store.
//!
//! The routes are genui-core's route table (`crates/genui-core/src/edge/routes.rs`):
//! [`Route::of`] names the row's [`Handler`], and [`serve`] runs it.

mod catalogs;
mod clock;
mod deliver;
mod form_object;
mod kv;
mod model;
mod platform;
mod rate_limit;
mod replay;
mod replay_guard;
mod respond;
mod settings;

use futures::future::LocalBoxFuture;
use genui_core::Limits;
use genui_core::{Access, Error, GenerateJob, Handler, HttpResponse, Route, Webhook};
use genui_model::{Answer, Door, Platform};
use platform::Worker;
use respond::{into_response, into_sse_response, log_line, RequestInfo, SseBody};
use settings::setting;
use std::rc::Rc;
use worker::{event, Context, Env, Request, Response, Result};

#[event(start)]
fn start() {
    console_error_panic_hook::set_once();
}

#[event(fetch)]
async fn fetch(req: Request, env: Env, ctx: Context) -> Result<Response> {
    let info = RequestInfo::new(&req);
    let worker = Worker::new(req, &env, Rc::new(ctx), &info.id);
    let origin = worker.header("origin");
    let allowed_origins = settings::cors_origins(&env);
    let accept = worker.header("accept");
    let mut sse = None;
    let mut response = handle(&worker, &env, &mut sse).await;
    response.negotiate_transport(accept.as_deref());
    response.headers.extend(Access::cors_headers(
        origin.as_deref(),
        allowed_origins.as_deref(),
    ));
    log_line(&info, &response);
    match sse {
        Some(body) => into_sse_response(response, body, &info.id),
        None => into_response(response, &info),
    }
}

async fn handle(worker: &Worker, env: &Env, sse: &mut Option<SseBody>) -> HttpResponse {
    let method = worker.method();
    let path = worker.path();
    let route = Route::of(&method, &path);
    if route.rate_limited() {
        if let Some(limited) = rate_limit::check(worker).await {
            return limited;
        }
    }
    let authorization = worker.header("authorization");
    let keys = setting(env, "API_KEYS");
    let origin = worker.header("origin");
    let allowed_origins = settings::cors_origins(env);
    let handler = route.handler(
        &method,
        &path,
        authorization.as_deref(),
        keys.as_deref(),
        origin.as_deref(),
        allowed_origins.as_deref(),
    );
    match handler {
        Ok((handler, parameter)) => serve(handler, parameter, worker, env, sse).await,
        Err(answer) => answer,
    }
}

/// Runs the handler of a row of the route table (genui_core's `Handler`).
async fn serve(
    handler: Handler,
    parameter: &str,
    worker: &Worker,
    env: &Env,
    sse: &mut Option<SseBody>,
) -> HttpResponse {
    let door = Door::new(worker.clone());
    match handler {
        Handler::Healthz => HttpResponse::healthz(worker.memory_bytes()),
        Handler::Generate => respond(door.generate().await, sse),
        Handler::Interrupt => respond(door.interrupt().await, sse),
        Handler::RenderSpec => respond(door.render_spec(parameter).await, sse),
        Handler::Webhook => webhook(&door, worker, env, sse).await,
        Handler::Agent => respond(door.agent().await, sse),
        Handler::Submit => respond(door.submit().await, sse),
        Handler::Tool => HttpResponse::tool_definition(),
        Handler::Mcp => door.mcp().await,
        Handler::Forms => door.forms().await,
        Handler::HostedForm => door.hosted_form(parameter).await,
        Handler::OpenApi => HttpResponse {
            status: 200,
            headers: Vec::new(),
            body: HttpResponse::openapi_json().to_owned(),
        },
        Handler::Schema => HttpResponse::contract_schema(parameter),
    }
}

/// A door's answer as the response (a stream's head), its frames in `sse`.
fn respond(answer: Answer, sse: &mut Option<SseBody>) -> HttpResponse {
    let (response, frames) = answer.into_parts();
    *sse = frames;
    response
}

/// The body within the limits; a refusal as the `dgui_error` answer.
async fn read_body(
    door: &Door<Worker>,
    limits: &Limits,
) -> std::result::Result<Vec<u8>, HttpResponse> {
    door.body(limits).await.map_err(|e| HttpResponse::error(&e))
}

/// `POST /v1/webhook`: a generate request signed with `WEBHOOK_SECRET`,
/// accepted once; the answer is returned and, with `callbackUrl`, also
/// POSTed there signed, through an outbox that retries it
/// (`Door::callback_outbox`).
async fn webhook(
    door: &Door<Worker>,
    worker: &Worker,
    env: &Env,
    sse: &mut Option<SseBody>,
) -> HttpResponse {
    let secret = match Webhook::configured(setting(env, "WEBHOOK_SECRET")) {
        Ok(secret) => secret,
        Err(error) => return HttpResponse::error(&error),
    };
    let limits = settings::limits(env);
    let body = match read_body(door, &limits).await {
        Ok(body) => body,
        Err(response) => return response,
    };
    let now_s = worker.now_ms() / 1000;
    let claim = match Webhook::verify_once(
        worker.header(Webhook::SIGNATURE_HEADER).as_deref(),
        &body,
        &secret,
        now_s,
    ) {
        Ok(claim) => claim,
        Err(error) => return HttpResponse::error(&error),
    };
    // Once only: a signature already accepted is a replay (replay.rs).
    if let Err(response) = replay::claim_once(env, &claim).await {
        return response;
    }
    let job = match prepare(&body, worker, &limits) {
        Ok(job) => job,
        Err(response) => return response,
    };
    let raw_callback = job.request().callback_url.as_deref();
    let callback = match Webhook::callback_of(raw_callback, door.allows_http_callbacks()) {
        Ok(callback) => callback,
        Err(error) => return HttpResponse::error(&error),
    };
    if genui_model::wants_event_stream(worker.header("accept").as_deref()) {
        let outbox = door.clone();
        let on_answer = callback.map(
            |url| -> Box<dyn FnOnce(String) -> LocalBoxFuture<'static, ()>> {
                Box::new(move |body| outbox.callback_outbox(url, body))
            },
        );
        return respond(door.stream_job(job, on_answer).await, sse);
    }
    let response = door.generate_job(job).await;
    if let Some((url, body)) = Webhook::callback_delivery(callback, &response) {
        // Stored before the answer goes back; delivered and retried by its outbox.
        door.callback_outbox(url, body).await;
    }
    response
}

/// Prepares a generate body (limits, parsing, the cache key) with the
/// request's `format` query parameter and the A2UI revision it asks for.
fn prepare(
    body: &[u8],
    worker: &Worker,
    limits: &Limits,
) -> std::result::Result<GenerateJob, HttpResponse> {
    let format = worker.query("format");
    GenerateJob::prepare(body, format.as_deref(), limits)
        .and_then(|mut job| {
            let version = worker.query("a2uiVersion");
            job.negotiate_a2ui(version.as_deref(), worker.header("accept").as_deref())?;
            Ok::<_, Error>(job)
        })
        .map_err(|e| HttpResponse::error(&e))
}
