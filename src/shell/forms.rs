//! Hosted forms: `POST /v1/forms` makes a signed link, `GET /f/<token>`
//! serves its page, `POST /f/<token>` takes the person's answer.
//!
//! Each link has one Durable Object ([`FormObject`], SQLite-backed, named
//! by the token's hash). It holds the spec from the moment the link is
//! made (so the link works at once, whatever KV's propagation), and it is
//! the once-only record and the outbox of the answer: a valid submission
//! is stored there first, then POSTed, signed, to `callbackUrl`; a failed
//! delivery is retried with backoff by the object's alarm. The stored
//! answer is deleted once delivered; everything is deleted at expiry.
//! The object is single-threaded, so two posts cannot both be first.

use super::{now_ms, read_body, setting};
use genui_core::{Error, ErrorCode, FormToken, GenerateJob, HttpResponse, Limits, SubmitJob, Webhook};
use serde_json::{json, Value};
use worker::{durable_object, DurableObject, Env, Method, Request, RequestInit, Response, Result, State};

/// The Durable Object binding (wrangler.toml).
const BINDING: &str = "FORMS";

/// Delivery attempts before the answer is marked failed (kept until expiry).
const MAX_ATTEMPTS: u64 = 10;

/// The first retry's delay; each next one doubles, up to [`MAX_DELAY_MS`].
const FIRST_DELAY_MS: u64 = 2_000;
const MAX_DELAY_MS: u64 = 600_000;

/// How long one delivery attempt may take.
const ATTEMPT_TIMEOUT_MS: u64 = 8_000;

fn allow_http(env: &Env) -> bool {
    setting(env, "WEBHOOK_ALLOW_HTTP_CALLBACKS").as_deref() == Some("true")
}

/// An alarm time (Unix ms) as workers-rs takes an `i64`: an offset from now.
fn offset_to(at_ms: u64) -> i64 {
    (at_ms as i64 - now_ms() as i64).max(0)
}

fn now_s() -> u64 {
    (now_ms() / 1000.0) as u64
}

/// `POST /v1/forms`: a generate request plus `callbackUrl` in, `{url,
/// expiresAt}` out, after the spec is stored in the link's object.
pub(super) async fn create(req: &mut Request, env: &Env, ctx: &worker::Context, request_id: &str) -> HttpResponse {
    let Some(secret) = setting(env, "WEBHOOK_SECRET") else {
        return HttpResponse::error(&Error::new(ErrorCode::NotFound, "hosted forms are not configured (set the WEBHOOK_SECRET secret)"));
    };
    let limits = Limits::default();
    let body = match read_body(req, &limits).await {
        Ok(body) => body,
        Err(response) => return response,
    };
    let job = match GenerateJob::prepare(&body, Some("html"), &limits) {
        Ok(job) => job,
        Err(error) => return HttpResponse::error(&error),
    };
    let request = job.request().clone();
    let Some(raw) = request.callback_url.as_deref() else {
        return HttpResponse::error(&Error::new(ErrorCode::InvalidRequest, "a hosted form needs `callbackUrl`, where the answer is sent").at("/callbackUrl"));
    };
    let callback = match Webhook::callback_target(raw, allow_http(env)) {
        Ok(url) => url,
        Err(error) => return HttpResponse::error(&error),
    };
    if job.is_display() {
        return HttpResponse::error(&Error::new(ErrorCode::InvalidRequest, "a display takes no answer; a hosted form needs `output`").at("/output"));
    }
    let cache = super::kv::SpecCache::open(env);
    let cached = cache.get(job.cache_key()).await;
    let spec_hash = job.spec_hash().to_owned();
    let outcome = job.clone().finish(cached.as_deref());
    if outcome.response.status != 200 {
        return outcome.response;
    }
    let Some(spec) = outcome.cache_put.as_ref().map(|p| p.value.clone()).or(cached).or_else(|| job.spec_json()) else {
        return HttpResponse::error(&Error::new(ErrorCode::Internal, "the form's spec could not be kept"));
    };
    let fragment = FormToken::fragment(&request.data);
    let token = FormToken {
        spec_hash,
        tool_call_id: request.tool_call_id.clone(),
        callback_url: callback.to_string(),
        expires_at: FormToken::expiry(now_s(), cache.ttl_seconds()),
        locale: request.locale.clone(),
        data_hash: fragment.as_ref().map(|(_, hash)| hash.clone()),
        nonce: request_id.to_owned(),
    };
    let signed = token.sign(&secret);
    let init = json!({"spec": spec, "expiresAt": token.expires_at, "callbackUrl": token.callback_url});
    if let Err(e) = call_object(env, &signed, Method::Post, "init", Some(init)).await {
        return HttpResponse::error(&Error::new(ErrorCode::Internal, format!("the form could not be stored: {e}")));
    }
    if let Some(put) = outcome.cache_put {
        cache.put_after_response(ctx, put);
    }
    let origin = req.url().map(|u| u.origin().ascii_serialization()).unwrap_or_default();
    let url = format!("{origin}{}", FormToken::path(&signed, fragment.as_ref().map(|(text, _)| text.as_str())));
    HttpResponse::json(201, &json!({"url": url, "expiresAt": token.expires_at_text(), "specHash": token.spec_hash}))
}

/// Asks the link's object; its JSON answer and status.
async fn call_object(env: &Env, token: &str, method: Method, action: &str, body: Option<Value>) -> Result<(u16, Value)> {
    let stub = env.durable_object(BINDING)?.get_by_name(&FormToken::object_name(token))?;
    let mut init = RequestInit::new();
    init.with_method(method);
    if let Some(body) = body {
        init.with_body(Some(body.to_string().into()));
    }
    let request = Request::new_with_init(&format!("https://form.internal/{action}"), &init)?;
    let mut response = stub.fetch_with_request(request).await?;
    let status = response.status_code();
    let value = response.json::<Value>().await.unwrap_or(Value::Null);
    Ok((status, value))
}

/// `GET`/`POST /f/<token>`.
pub(super) async fn hosted(req: &mut Request, env: &Env, token: &str, request_id: &str) -> HttpResponse {
    let Some(secret) = setting(env, "WEBHOOK_SECRET") else {
        return HttpResponse::form_notice(404, None, "not_found");
    };
    let fields = match FormToken::verify(token, &secret, now_s()) {
        Ok(fields) => fields,
        Err(error) if error.http_status() == 410 => return HttpResponse::form_notice(410, None, "expired"),
        Err(_) => return HttpResponse::form_notice(404, None, "not_found"),
    };
    let locale = fields.locale.as_deref();
    let (status, state) = match call_object(env, token, Method::Get, "state", None).await {
        Ok(answer) => answer,
        Err(_) => return HttpResponse::form_notice(503, locale, "retrying"),
    };
    let Some(spec) = state["spec"].as_str().filter(|_| status == 200) else {
        return HttpResponse::form_notice(404, locale, "not_found");
    };
    let phase = state["state"].as_str().unwrap_or("open");
    let is_post = req.method() == Method::Post;
    if phase != "open" {
        // A replay, or a second look: the answer's state, never the form again.
        let status = if is_post { 409 } else { 200 };
        return HttpResponse::form_notice(status, locale, if is_post { "already_submitted" } else { notice_of(phase) });
    }
    if !is_post {
        return HttpResponse::hosted_form(token, &fields, spec, None);
    }
    let limits = Limits::default();
    // An oversized post: the form again, with the limit in its summary.
    let announced = req.headers().get("content-length").ok().flatten().and_then(|v| v.parse::<usize>().ok()).unwrap_or(0);
    if let Err(error) = limits.check_body_size(announced) {
        return HttpResponse::hosted_form(token, &fields, spec, Some((&Value::Null, &error)));
    }
    let body = match read_body(req, &limits).await {
        Ok(body) => body,
        Err(_) => return HttpResponse::hosted_form(token, &fields, spec, Some((&Value::Null, &Error::new(ErrorCode::InvalidRequest, "the form post could not be read")))),
    };
    let job = match SubmitJob::prepare_form(&body, Some(&fields.spec_hash), fields.tool_call_id.as_deref(), &limits) {
        Ok(job) => job.with_locale(locale),
        Err(error) => return HttpResponse::hosted_form(token, &fields, spec, Some((&Value::Null, &error))),
    };
    let message = match job.finish_with_data(Some(spec), request_id) {
        (Ok(message), _) => message,
        (Err(error), data) => return HttpResponse::hosted_form(token, &fields, spec, Some((&data, &error))),
    };
    match call_object(env, token, Method::Post, "submit", Some(json!({"message": message}))).await {
        Ok((409, _)) => HttpResponse::form_notice(409, locale, "already_submitted"),
        Ok((_, answer)) => {
            let phase = answer["state"].as_str().unwrap_or("retrying");
            HttpResponse::form_notice(if phase == "delivered" { 200 } else { 202 }, locale, notice_of(phase))
        }
        Err(_) => HttpResponse::form_notice(503, locale, "retrying"),
    }
}

/// The notice for a stored answer's state.
fn notice_of(phase: &str) -> &'static str {
    match phase {
        "delivered" => "delivered",
        "failed" => "failed",
        _ => "retrying",
    }
}

/// One hosted form's record and outbox.
#[durable_object]
pub struct FormObject {
    state: State,
    env: Env,
}

impl DurableObject for FormObject {
    fn new(state: State, env: Env) -> Self {
        Self { state, env }
    }

    async fn fetch(&self, mut req: Request) -> Result<Response> {
        let storage = self.state.storage();
        let action = req.path();
        match (req.method(), action.as_str()) {
            (Method::Post, "/init") => {
                let body: Value = req.json().await?;
                if storage.get::<String>("spec").await?.is_none() {
                    storage.put("spec", body["spec"].as_str().unwrap_or_default()).await?;
                    storage.put("expiresAt", body["expiresAt"].as_u64().unwrap_or_default()).await?;
                    storage.put("callbackUrl", body["callbackUrl"].as_str().unwrap_or_default()).await?;
                    storage.put("state", "open").await?;
                    storage.set_alarm(offset_to(body["expiresAt"].as_u64().unwrap_or_default() * 1000)).await?;
                }
                Response::from_json(&json!({"ok": true}))
            }
            (Method::Get, "/state") => {
                let spec = storage.get::<String>("spec").await?;
                let phase = storage.get::<String>("state").await?.unwrap_or_else(|| "open".into());
                match spec {
                    Some(spec) => Response::from_json(&json!({"spec": spec, "state": phase})),
                    None => Ok(Response::from_json(&json!({"state": "missing"}))?.with_status(404)),
                }
            }
            (Method::Post, "/submit") => {
                let body: Value = req.json().await?;
                // Check and claim with no other await between: the object
                // takes no other event while its storage call runs.
                let phase = storage.get::<String>("state").await?.unwrap_or_default();
                if phase != "open" {
                    return Ok(Response::from_json(&json!({"state": phase}))?.with_status(409));
                }
                storage.put("state", "pending").await?;
                storage.put("message", body["message"].as_str().unwrap_or_default()).await?;
                storage.put("attempts", 0u64).await?;
                let phase = self.deliver().await?;
                Response::from_json(&json!({"state": phase}))
            }
            _ => Ok(Response::from_json(&json!({"state": "unknown"}))?.with_status(404)),
        }
    }

    async fn alarm(&self) -> Result<Response> {
        let storage = self.state.storage();
        let expires_at = storage.get::<u64>("expiresAt").await?.unwrap_or_default();
        if now_s() >= expires_at {
            // Expired: the spec, and any answer never delivered, go.
            storage.delete_all().await?;
            return Response::ok("expired");
        }
        if storage.get::<String>("state").await?.as_deref() == Some("retrying") {
            self.deliver().await?;
        }
        Response::ok("ok")
    }
}

impl FormObject {
    /// One delivery attempt of the stored answer; schedules the next one
    /// (or the expiry) with the alarm. Returns the new state.
    async fn deliver(&self) -> Result<String> {
        let storage = self.state.storage();
        let message = storage.get::<String>("message").await?.unwrap_or_default();
        let url = storage.get::<String>("callbackUrl").await?.unwrap_or_default();
        let expires_at = storage.get::<u64>("expiresAt").await?.unwrap_or_default();
        let attempts = storage.get::<u64>("attempts").await?.unwrap_or_default() + 1;
        let delivered = match setting(&self.env, "WEBHOOK_SECRET") {
            Some(secret) => post_signed(&url, &message, &secret).await,
            None => false,
        };
        let phase = match (delivered, attempts >= MAX_ATTEMPTS) {
            (true, _) => "delivered",
            (false, true) => "failed",
            (false, false) => "retrying",
        };
        storage.put("state", phase).await?;
        storage.put("attempts", attempts).await?;
        if delivered {
            // Delivered: the person's answer is not kept.
            storage.delete("message").await?;
        }
        let next = match phase {
            "retrying" => (now_ms() as u64 + (FIRST_DELAY_MS << (attempts - 1).min(20)).min(MAX_DELAY_MS)).min(expires_at * 1000),
            _ => expires_at * 1000,
        };
        storage.set_alarm(offset_to(next)).await?;
        worker::console_log!("{{\"event\":\"form_delivery\",\"state\":\"{phase}\",\"attempt\":{attempts}}}");
        Ok(phase.to_owned())
    }
}

/// POSTs the tool message to the callback, signed; whether it was taken (2xx).
async fn post_signed(url: &str, message: &str, secret: &str) -> bool {
    let signature = Webhook::sign_callback(secret, now_s(), message.as_bytes());
    let attempt = async {
        let headers = worker::Headers::new();
        headers.set("content-type", "application/json")?;
        headers.set(Webhook::SIGNATURE_HEADER, &signature)?;
        let mut init = RequestInit::new();
        init.with_method(Method::Post).with_headers(headers).with_body(Some(message.to_owned().into()));
        let response = worker::Fetch::Request(Request::new_with_init(url, &init)?).send().await?;
        Ok::<bool, worker::Error>(response.status_code() < 300)
    };
    // A slow endpoint must not hold the person's page: past the timeout the
    // attempt counts as failed and the alarm tries again (the message's
    // `id` stays the same, so an agent can tell a repeat).
    let timeout = worker::Delay::from(std::time::Duration::from_millis(ATTEMPT_TIMEOUT_MS));
    futures::pin_mut!(attempt);
    match futures::future::select(attempt, timeout).await {
        futures::future::Either::Left((result, _)) => result.unwrap_or(false),
        futures::future::Either::Right(_) => false,
    }
}

