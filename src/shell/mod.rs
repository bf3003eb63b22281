//! The fetch handler: route, read, look up, finish, respond, store.
//!
//! Routes: `POST /v1/generate`, `POST /v1/submit`, `GET /v1/tool`,
//! `POST /v1/forms` and `GET`/`POST /f/<token>` (hosted forms, [`forms`]),
//! `GET /openapi.json`, `GET /schemas/<file>`, `GET /healthz`, `POST /mcp` ([`mcp`]).

mod forms;
mod kv;
mod mcp;
mod model;
mod rate_limit;
mod respond;

use genui_core::{Access, Error, ErrorCode, GenerateJob, GeneratorId, HttpResponse, Outcome, Route, SubmitJob, Webhook};
use genui_model::{GeneratorChoice, Ladder, LadderResult, ModelConfig};
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
    let origin = header(&req, "origin");
    let allowed_origins = setting(&env, "ALLOWED_ORIGINS");
    // Test runs check every answer against its contract (genui_core::contracts).
    genui_core::Contract::set_checking(env.var("CHECK_CONTRACTS").is_ok_and(|v| v.to_string() == "true"));
    let accept = header(&req, "accept");
    let mut response = handle(req, &env, &ctx, &info.id).await;
    response.negotiate_jsonl(accept.as_deref());
    response.headers.extend(Access::cors_headers(origin.as_deref(), allowed_origins.as_deref()));
    log_line(&info, &response);
    into_response(response, &info)
}

/// A header's value.
fn header(req: &Request, name: &str) -> Option<String> {
    req.headers().get(name).ok().flatten()
}

/// A secret or var (secrets win), trimmed; `None` when unset or blank.
fn setting(env: &Env, name: &str) -> Option<String> {
    let value = env.secret(name).map(|s| s.to_string()).or_else(|_| env.var(name).map(|v| v.to_string())).ok()?;
    Some(value.trim().to_owned()).filter(|v| !v.is_empty())
}

async fn handle(mut req: Request, env: &Env, ctx: &Context, request_id: &str) -> HttpResponse {
    let method = req.method().to_string();
    let path = req.path();
    let route = Route::of(&method, &path);
    if route.needs_key() || matches!(route, Route::Webhook | Route::HostedForm) {
        if let Some(limited) = rate_limit::check(env, &req).await {
            return limited;
        }
    }
    if route.needs_key() {
        let keys = setting(env, "API_KEYS");
        if let Err(error) = Access::authorize(header(&req, "authorization").as_deref(), keys.as_deref()) {
            let mut response = HttpResponse::error(&error);
            response.headers.push(("www-authenticate".into(), "Bearer".into()));
            return response;
        }
    }
    let static_json = |body: &str| HttpResponse { status: 200, headers: Vec::new(), body: body.to_owned() };
    match route {
        Route::Healthz => with_wasm_memory(HttpResponse::healthz()),
        Route::Generate => generate(&mut req, env, ctx).await,
        Route::Webhook => webhook(&mut req, env, ctx).await,
        Route::Submit => submit(&mut req, env, request_id).await,
        Route::Tool => HttpResponse::tool_definition(),
        Route::Mcp => mcp::handle(&mut req, env, ctx, request_id).await,
        Route::Forms => forms::create(&mut req, env, ctx, request_id).await,
        Route::HostedForm => forms::hosted(&mut req, env, path.trim_start_matches("/f/"), request_id).await,
        Route::OpenApi => static_json(HttpResponse::openapi_json()),
        Route::Schema(contract) => static_json(contract.source()),
        Route::Preflight => {
            let origin = header(&req, "origin");
            let headers = Access::preflight_headers(origin.as_deref(), setting(env, "ALLOWED_ORIGINS").as_deref());
            HttpResponse { status: 204, headers, body: String::new() }
        }
        Route::MethodNotAllowed { allow } => HttpResponse::method_not_allowed(&method, &path, allow),
        Route::NotFound => HttpResponse::not_found(&path),
    }
}

/// Adds `wasmMemoryBytes`, the isolate's wasm linear memory (it never
/// shrinks), so scripts/bench-wasm.sh can read it between phases.
fn with_wasm_memory(mut response: HttpResponse) -> HttpResponse {
    let bytes = core::arch::wasm32::memory_size(0) * 65536;
    if let Ok(serde_json::Value::Object(mut body)) = serde_json::from_str(&response.body) {
        body.insert("wasmMemoryBytes".into(), bytes.into());
        response.body = serde_json::Value::Object(body).to_string();
    }
    response
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
    let data_model = header(req, "a2ui-client-data-model");
    // format=html's form, posted without script: fields named by JSON Pointer.
    let form = header(req, "content-type").is_some_and(|t| t.starts_with("application/x-www-form-urlencoded"));
    let prepared = if form { SubmitJob::prepare_form(&body, None, None, &limits) } else { SubmitJob::prepare_with(&body, data_model.as_deref(), &limits) };
    let job = match prepared {
        Ok(job) => job.with_accept_language(header(req, "accept-language").as_deref()),
        Err(error) => return HttpResponse::error(&error),
    };
    let cached = match job.cache_key() {
        Some(key) => kv::SpecCache::open(env).get(&key).await,
        None => None,
    };
    job.finish(cached.as_deref(), request_id).response
}

async fn generate(req: &mut Request, env: &Env, ctx: &Context) -> HttpResponse {
    let limits = Limits::default();
    let body = match read_body(req, &limits).await {
        Ok(body) => body,
        Err(response) => return response,
    };
    let response = match prepare(&body, query_param(req, "format").as_deref()) {
        Ok(job) => generate_job(job, env, ctx).await,
        Err(response) => response,
    };
    // format=react with `Accept: text/tsx` (or text/plain): the module alone.
    response.react_source_only(header(req, "accept").as_deref())
}

/// `POST /v1/webhook`: a generate request signed with `WEBHOOK_SECRET`;
/// the answer is returned and, with `callbackUrl`, also POSTed there signed.
async fn webhook(req: &mut Request, env: &Env, ctx: &Context) -> HttpResponse {
    let Some(secret) = setting(env, "WEBHOOK_SECRET") else {
        let error = Error::new(ErrorCode::NotFound, "the webhook is not configured (set the WEBHOOK_SECRET secret)");
        return HttpResponse::error(&error);
    };
    let limits = Limits::default();
    let body = match read_body(req, &limits).await {
        Ok(body) => body,
        Err(response) => return response,
    };
    let now_s = (now_ms() / 1000.0) as u64;
    if let Err(error) = Webhook::verify(header(req, Webhook::SIGNATURE_HEADER).as_deref(), &body, &secret, now_s) {
        return HttpResponse::error(&error);
    }
    let job = match prepare(&body, query_param(req, "format").as_deref()) {
        Ok(job) => job,
        Err(response) => return response,
    };
    let callback = match job.request().callback_url.as_deref() {
        Some(raw) => match Webhook::callback_target(raw, setting(env, "WEBHOOK_ALLOW_HTTP_CALLBACKS").as_deref() == Some("true")) {
            Ok(url) => Some(url),
            Err(error) => return HttpResponse::error(&error),
        },
        None => None,
    };
    let response = generate_job(job, env, ctx).await;
    if let (Some(url), true) = (callback, response.status == 200) {
        deliver_callback(ctx, url, response.body.clone(), secret, now_s);
    }
    response
}

/// POSTs an answer to a callback URL after the response, signed like the
/// webhook; a failed delivery is logged.
fn deliver_callback(ctx: &Context, url: worker::Url, body: String, secret: String, now_s: u64) {
    ctx.wait_until(async move {
        let signature = Webhook::sign_callback(&secret, now_s, body.as_bytes());
        let result = async {
            let headers = worker::Headers::new();
            headers.set("content-type", "application/json")?;
            headers.set(Webhook::SIGNATURE_HEADER, &signature)?;
            let mut init = worker::RequestInit::new();
            init.with_method(worker::Method::Post).with_headers(headers).with_body(Some(body.into()));
            let request = Request::new_with_init(url.as_str(), &init)?;
            let response = worker::Fetch::Request(request).send().await?;
            Ok::<u16, worker::Error>(response.status_code())
        }
        .await;
        match result {
            Ok(status) if status < 300 => {}
            Ok(status) => worker::console_error!("{{\"event\":\"callback_failed\",\"host\":{:?},\"status\":{status}}}", url.host_str().unwrap_or_default()),
            Err(e) => worker::console_error!("{{\"event\":\"callback_failed\",\"host\":{:?},\"error\":{:?}}}", url.host_str().unwrap_or_default(), e.to_string()),
        }
    });
}

/// Limits, parsing and the cache key of a generate body.
fn prepare(body: &[u8], format: Option<&str>) -> std::result::Result<GenerateJob, HttpResponse> {
    GenerateJob::prepare(body, format, &Limits::default()).map_err(|e| HttpResponse::error(&e))
}

/// Answers a parsed generate request with the model or the deterministic
/// generator, and stores a new spec after the response.
async fn generate_job(mut job: GenerateJob, env: &Env, ctx: &Context) -> HttpResponse {
    let limits = Limits::default();
    let choice = match GeneratorChoice::of(job.request()) {
        Ok(choice) => choice,
        Err(why) => return HttpResponse::error(&Error::new(ErrorCode::InvalidRequest, why).at("/generator")),
    };
    let config = model::config(env);
    let use_model = match choice.use_model(config.is_some()) {
        Ok(use_model) => use_model,
        Err(why) => return HttpResponse::error(&Error::new(ErrorCode::InvalidRequest, why).at("/generator")),
    };
    // Displays (tables, charts) are laid out deterministically; no model.
    let use_model = use_model && !job.is_display();
    let cache = kv::SpecCache::open(env);
    let outcome = match config.filter(|_| use_model) {
        Some(config) => generate_with_model(&mut job, config, choice.is_forced(), &cache, env, &limits).await,
        None => match job.remembered() {
            Some(outcome) => outcome,
            None => {
                let cached = cache.get(job.cache_key()).await;
                job.finish(cached.as_deref())
            }
        },
    };
    if let Some(put) = outcome.cache_put {
        cache.put_after_response(ctx, put);
    }
    outcome.response
}

/// The model path: the model's own cache key, then the ladder; a proven
/// model plan is cached under the model's key, a fallback under the
/// deterministic key (it is exactly the deterministic spec, and the model is
/// asked again next time).
async fn generate_with_model(
    job: &mut GenerateJob,
    config: ModelConfig,
    forced: bool,
    cache: &kv::SpecCache,
    env: &Env,
    limits: &Limits,
) -> Outcome {
    let model_id = GeneratorId { generator: "model".into(), generator_version: config.cache_identity() };
    if let Err(error) = job.rekey(model_id) {
        return Outcome::failed(&error);
    }
    if let Some(hit) = job.remembered() {
        return hit;
    }
    if let Some(hit) = job.hit(cache.get(job.cache_key()).await.as_deref()) {
        return hit;
    }
    let proven = match job.prove_schema() {
        Ok(proven) => proven,
        Err(error) => return Outcome::failed(&error),
    };
    let ladder = match Ladder::new(&config, job.request(), limits, now_ms() as u64) {
        Ok(ladder) => ladder.forced(forced),
        Err(error) => return Outcome::failed(&error),
    };
    let outcome = model::run(env, ladder).await;
    let provenance = match serde_json::to_value(&outcome.provenance) {
        Ok(serde_json::Value::Object(map)) => map,
        _ => serde_json::Map::new(),
    };
    match outcome.result {
        LadderResult::Model(plan) => job.complete(plan, &proven, provenance),
        LadderResult::Fallback { plan, .. } => match job.rekey(GeneratorId::deterministic()) {
            Ok(()) => job.complete(plan, &proven, provenance),
            Err(error) => Outcome::failed(&error),
        },
        LadderResult::Failed(error) => Outcome::failed(&error),
    }
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
