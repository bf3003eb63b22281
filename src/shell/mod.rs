//! The fetch handler: route, read, look up, answer, respond, store.
//!
//! The routes are genui-core's route table (`crates/genui-core/src/edge/routes.rs`):
//! [`Route::of`] names the row's [`Handler`], and [`serve`] runs it.

mod agent;
mod catalogs;
mod clock;
mod deliver;
mod drive;
mod form_object;
mod forms;
mod kv;
mod mcp;
mod model;
mod proxy;
mod rate_limit;
mod replay;
mod replay_guard;
mod respond;
mod settings;
mod submit;

use clock::{unix_ms, unix_s};
use genui_core::Limits;
use genui_core::{
    Access, Error, ErrorCode, GenerateJob, Handler, HttpResponse, Route, SpecRender, Submission,
    Webhook,
};
use genui_model::{Generation, Mode};
use respond::{into_response, log_line, RequestInfo};
use settings::setting;
use worker::{event, Context, Env, Request, Response, Result};

#[event(start)]
fn start() {
    console_error_panic_hook::set_once();
}

#[event(fetch)]
async fn fetch(req: Request, env: Env, ctx: Context) -> Result<Response> {
    let info = RequestInfo::new(&req);
    let origin = header(&req, "origin");
    let allowed_origins = settings::cors_origins(&env);
    let accept = header(&req, "accept");
    let mut sse = None;
    let mut response = handle(req, &env, &ctx, &info.id, &mut sse).await;
    response.negotiate_transport(accept.as_deref());
    response.headers.extend(Access::cors_headers(
        origin.as_deref(),
        allowed_origins.as_deref(),
    ));
    log_line(&info, &response);
    match sse {
        Some(body) => drive::into_sse_response(response, body, &info.id),
        None => into_response(response, &info),
    }
}

/// A header's value.
fn header(req: &Request, name: &str) -> Option<String> {
    req.headers().get(name).ok().flatten()
}

async fn handle(
    mut req: Request,
    env: &Env,
    ctx: &Context,
    request_id: &str,
    sse: &mut Option<drive::SseBody>,
) -> HttpResponse {
    let method = req.method().to_string();
    let path = req.path();
    let route = Route::of(&method, &path);
    if route.rate_limited() {
        if let Some(limited) = rate_limit::check(env, &req).await {
            return limited;
        }
    }
    let authorization = header(&req, "authorization");
    let keys = setting(env, "API_KEYS");
    let origin = header(&req, "origin");
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
        Ok((handler, parameter)) => {
            serve(handler, parameter, &mut req, env, ctx, request_id, sse).await
        }
        Err(answer) => answer,
    }
}

/// Runs the handler of a row of the route table (genui_core's `Handler`).
async fn serve(
    handler: Handler,
    parameter: &str,
    req: &mut Request,
    env: &Env,
    ctx: &Context,
    request_id: &str,
    sse: &mut Option<drive::SseBody>,
) -> HttpResponse {
    match handler {
        Handler::Healthz => HttpResponse::healthz(wasm_memory_bytes()),
        Handler::Generate => generate(req, env, ctx, sse).await,
        Handler::Interrupt => interrupt(req, env, ctx, sse).await,
        Handler::RenderSpec => render_spec(req, env, parameter).await,
        Handler::Webhook => webhook(req, env, ctx, sse).await,
        Handler::Agent => agent::run(req, env, ctx, request_id, sse).await,
        Handler::Submit => submit(req, env, request_id).await,
        Handler::Tool => HttpResponse::tool_definition(),
        Handler::Mcp => mcp::handle(req, env, ctx, request_id).await,
        Handler::Forms => forms::create(req, env, ctx).await,
        Handler::HostedForm => forms::hosted(req, env, parameter).await,
        Handler::OpenApi => HttpResponse {
            status: 200,
            headers: Vec::new(),
            body: HttpResponse::openapi_json().to_owned(),
        },
        Handler::Schema => HttpResponse::contract_schema(parameter),
    }
}

/// The isolate's wasm linear memory in bytes (it never shrinks).
fn wasm_memory_bytes() -> usize {
    core::arch::wasm32::memory_size(0) * 65536
}

/// Reads the body, refusing an announced oversize body before reading it.
async fn read_body(
    req: &mut Request,
    limits: &Limits,
) -> std::result::Result<Vec<u8>, HttpResponse> {
    read_body_or_error(req, limits)
        .await
        .map_err(|e| HttpResponse::error(&e))
}

/// [`read_body`], its refusal as the error (for a caller that answers it its own way).
async fn read_body_or_error(
    req: &mut Request,
    limits: &Limits,
) -> std::result::Result<Vec<u8>, Error> {
    limits.check_content_length(header(req, "content-length").as_deref())?;
    req.bytes().await.map_err(|e| {
        Error::new(
            ErrorCode::InvalidRequest,
            format!("the request body could not be read: {e}"),
        )
    })
}

/// `POST /v1/submit`: the request's facts, as they came, through the
/// submission machine (genui_core's `Submission`).
async fn submit(req: &mut Request, env: &Env, request_id: &str) -> HttpResponse {
    let limits = settings::limits(env);
    let body = read_body_or_error(req, &limits).await;
    let submission = Submission::api(
        body.as_deref().map_err(Clone::clone),
        |name| header(req, name),
        &limits,
    )
    .signed_by(setting(env, "WEBHOOK_SECRET").as_deref(), unix_s());
    submit::run(submission, env, request_id)
        .await
        .into_response()
}

async fn generate(
    req: &mut Request,
    env: &Env,
    ctx: &Context,
    sse: &mut Option<drive::SseBody>,
) -> HttpResponse {
    let limits = settings::limits(env);
    let body = match read_body(req, &limits).await {
        Ok(body) => body,
        Err(response) => return response,
    };
    match prepare(&body, req, &limits) {
        Ok(job) => answer(job, req, env, ctx, sse).await,
        Err(response) => response,
    }
}

/// `POST /v1/interrupt`: an AG-UI interrupt answered as `/v1/generate`
/// answers (the core turns it into the generate request, and its answer
/// carries the interrupt's token signed with `WEBHOOK_SECRET`).
async fn interrupt(
    req: &mut Request,
    env: &Env,
    ctx: &Context,
    sse: &mut Option<drive::SseBody>,
) -> HttpResponse {
    let limits = settings::limits(env);
    let body = match read_body(req, &limits).await {
        Ok(body) => body,
        Err(response) => return response,
    };
    let job = GenerateJob::prepare_interrupt(
        &body,
        query_param(req, "format").as_deref(),
        &limits,
        unix_s(),
        setting(env, "WEBHOOK_SECRET").as_deref(),
    )
    .and_then(|job| negotiated(job, req));
    match job {
        Ok(job) => answer(job, req, env, ctx, sse).await,
        Err(error) => HttpResponse::error(&error),
    }
}

/// Answers a prepared generate job as the request asks: an event stream
/// for `Accept: text/event-stream`, else the whole answer (`format=react`
/// with `Accept: text/tsx` or `text/plain`: the module alone).
async fn answer(
    job: GenerateJob,
    req: &Request,
    env: &Env,
    ctx: &Context,
    sse: &mut Option<drive::SseBody>,
) -> HttpResponse {
    let accept = header(req, "accept");
    if genui_model::wants_event_stream(accept.as_deref()) {
        return stream_job(job, env, ctx, None, sse).await;
    }
    let response = generate_job(job, env, ctx).await;
    response.react_source_only(accept.as_deref())
}

/// `POST /v1/specs/<specHash>/render`: the core checks the request and
/// renders; the shell reads the spec from KV unless this isolate remembers it.
async fn render_spec(req: &mut Request, env: &Env, spec_hash: &str) -> HttpResponse {
    let limits = settings::limits(env);
    let body = match read_body(req, &limits).await {
        Ok(body) => body,
        Err(response) => return response,
    };
    let accept = header(req, "accept");
    let format = query_param(req, "format");
    let job =
        SpecRender::prepare(spec_hash, &body, format.as_deref(), &limits).and_then(|mut job| {
            let version = query_param(req, "a2uiVersion");
            job.negotiate_a2ui(version.as_deref(), accept.as_deref())?;
            Ok(job)
        });
    let job = match job {
        Ok(job) => job,
        Err(error) => return HttpResponse::error(&error),
    };
    // Opening the cache sizes the isolate's memory of specs first.
    let cache = kv::SpecCache::open(env);
    let cached = match job.key_to_read() {
        Some(key) => cache.get(key).await,
        None => None,
    };
    let outcome = job.answer(cached.as_deref());
    outcome.response.react_source_only(accept.as_deref())
}

/// `POST /v1/webhook`: a generate request signed with `WEBHOOK_SECRET`,
/// accepted once; the answer is returned and, with `callbackUrl`, also
/// POSTed there signed, through an outbox that retries it
/// ([`forms::enqueue_callback`]).
async fn webhook(
    req: &mut Request,
    env: &Env,
    ctx: &Context,
    sse: &mut Option<drive::SseBody>,
) -> HttpResponse {
    let secret = match Webhook::configured(setting(env, "WEBHOOK_SECRET")) {
        Ok(secret) => secret,
        Err(error) => return HttpResponse::error(&error),
    };
    let limits = settings::limits(env);
    let body = match read_body(req, &limits).await {
        Ok(body) => body,
        Err(response) => return response,
    };
    let now_s = unix_s();
    let claim = match Webhook::verify_once(
        header(req, Webhook::SIGNATURE_HEADER).as_deref(),
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
    let job = match prepare(&body, req, &limits) {
        Ok(job) => job,
        Err(response) => return response,
    };
    let raw_callback = job.request().callback_url.as_deref();
    let callback = match Webhook::callback_of(raw_callback, forms::allow_http(env)) {
        Ok(callback) => callback,
        Err(error) => return HttpResponse::error(&error),
    };
    if genui_model::wants_event_stream(header(req, "accept").as_deref()) {
        let outbox_env = env.clone();
        let on_answer = callback.map(|url| -> drive::OnAnswer {
            Box::new(move |body| Box::pin(forms::enqueue_callback(outbox_env, url, body)))
        });
        return stream_job(job, env, ctx, on_answer, sse).await;
    }
    let response = generate_job(job, env, ctx).await;
    if let Some((url, body)) = Webhook::callback_delivery(callback, &response) {
        // Stored before the answer goes back; delivered and retried by its outbox.
        forms::enqueue_callback(env.clone(), url, body).await;
    }
    response
}

/// Prepares a generate body (limits, parsing, the cache key) with the
/// request's `format` query parameter, then [`negotiated`].
fn prepare(
    body: &[u8],
    req: &Request,
    limits: &Limits,
) -> std::result::Result<GenerateJob, HttpResponse> {
    let format = query_param(req, "format");
    GenerateJob::prepare(body, format.as_deref(), limits)
        .and_then(|job| negotiated(job, req))
        .map_err(|e| HttpResponse::error(&e))
}

/// A job with the A2UI revision the request asks for (its `a2uiVersion`
/// query parameter or its `Accept` header).
fn negotiated(mut job: GenerateJob, req: &Request) -> std::result::Result<GenerateJob, Error> {
    let version = query_param(req, "a2uiVersion");
    job.negotiate_a2ui(version.as_deref(), header(req, "accept").as_deref())?;
    Ok(job)
}

/// Answers a parsed generate request: a loop over the core's generation
/// machine (genui_model::Generation), which decides generator, cache keys,
/// fallback and what to store.
async fn generate_job(job: GenerateJob, env: &Env, ctx: &Context) -> HttpResponse {
    let mut generation = Generation::new(
        job,
        &model::generators(env),
        Mode::Answer,
        &settings::limits(env),
        unix_ms(),
    );
    drive::answer(&mut generation, env, ctx).await
}

/// The same request as an event stream (`Accept: text/event-stream`); an
/// error before the first event is a plain `dgui_error` answer.
async fn stream_job(
    job: GenerateJob,
    env: &Env,
    ctx: &Context,
    on_answer: Option<drive::OnAnswer>,
    sse: &mut Option<drive::SseBody>,
) -> HttpResponse {
    let generation = Generation::new(
        job,
        &model::generators(env),
        Mode::Stream,
        &settings::limits(env),
        unix_ms(),
    );
    match drive::stream(
        generation,
        genui_model::GenerateEvents::default(),
        env,
        ctx,
        on_answer,
    )
    .await
    {
        Ok((head, body)) => {
            *sse = Some(body);
            head
        }
        Err(response) => response,
    }
}

/// The first value of a query parameter.
fn query_param(req: &Request, name: &str) -> Option<String> {
    let url = req.url().ok()?;
    url.query_pairs()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.into_owned())
}
