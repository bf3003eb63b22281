//! Hosted forms: `POST /v1/forms` makes a signed link, `GET /f/<token>`
//! serves its page, `POST /f/<token>` takes the person's answer; and the
//! outbox of every signed POST the worker makes (a hosted form's answer,
//! a webhook's `callbackUrl` answer).
//!
//! Each link has one Durable Object ([`FormObject`], SQLite-backed), named
//! by the link's random id ([`FormToken::object_name`]). It holds the link's
//! [`FormRecord`] and spec from the moment the link is made (so the link
//! works at once, whatever KV's propagation), and it is the once-only
//! record and the outbox of the answer: a valid submission is stored
//! there with its [`Outbox`] and an alarm at once, and the person is
//! answered; the alarm then POSTs it, signed, to `callbackUrl`, and keeps
//! retrying by the core's schedule until it is taken or the link expires.
//! A link an MCP call made ([`issue`] without a callback) has no outbox:
//! its object keeps the valid answer (`answer`) for that call to read
//! ([`kept_answer`]) until the link expires.
//! A webhook's callback gets an object of its own (a random name) with
//! the same outbox. The object only performs the outbox's effects; the
//! machine (genui_core's `Outbox`) decides. The object is single-threaded,
//! so two posts cannot both be first.

use super::clock::{alarm_offset, unix_ms, unix_s};
use super::deliver::{post_signed, random_bytes};
use super::{read_body, setting};
use genui_core::{
    DeliveryPhase, Error, ErrorCode, FormRecord, FormToken, GenerateJob, HttpResponse, Outbox,
    OutboxEffect, Submission, Submitted,
};
use genui_model::{Generation, Mode};
use serde_json::{json, Value};
use worker::{
    durable_object, DurableObject, Env, Method, Request, RequestInit, Response, Result, State,
};

/// The Durable Object binding (wrangler.toml).
const BINDING: &str = "FORMS";

/// An alarm this far past its time is taken as lost (and set again).
const OVERDUE_MS: i64 = 5_000;

/// How long a webhook's callback is retried, in ms.
const CALLBACK_LIFETIME_MS: u64 = 24 * 3600 * 1000;

fn allow_http(env: &Env) -> bool {
    setting(env, "WEBHOOK_ALLOW_HTTP_CALLBACKS").as_deref() == Some("true")
}

/// `POST /v1/forms`: a generate request plus `callbackUrl` in, `{url,
/// expiresAt}` out, after the spec is stored in the link's object.
pub(super) async fn create(req: &mut Request, env: &Env, ctx: &worker::Context) -> HttpResponse {
    let Some(secret) = setting(env, "WEBHOOK_SECRET") else {
        return HttpResponse::error(&Error::new(
            ErrorCode::NotFound,
            "hosted forms are not configured (set the WEBHOOK_SECRET secret)",
        ));
    };
    let limits = super::settings::limits(env);
    let body = match read_body(req, &limits).await {
        Ok(body) => body,
        Err(response) => return response,
    };
    let job = match GenerateJob::prepare(&body, Some("html"), &limits) {
        Ok(job) => job,
        Err(error) => return HttpResponse::error(&error),
    };
    let callback = match FormRecord::callback_for(&job, allow_http(env)) {
        Ok(url) => url,
        Err(error) => return HttpResponse::error(&error),
    };
    let link = match issue(job, env, ctx, Some(&callback)).await {
        Ok((_, link)) => link,
        Err(answer) => return answer,
    };
    HttpResponse::form_link(
        &origin(req),
        &link.token.sign(&secret),
        link.fragment.as_deref(),
        &link.token,
        &link.record,
    )
}

/// The request's origin (`https://host[:port]`), where a link points.
pub(super) fn origin(req: &Request) -> String {
    req.url()
        .map(|u| u.origin().ascii_serialization())
        .unwrap_or_default()
}

/// A link made by [`issue`]: its record, its token and the pre-fill's fragment.
pub(super) struct Issued {
    pub(super) record: FormRecord,
    pub(super) token: FormToken,
    pub(super) fragment: Option<String>,
}

/// Generates `job`'s form, then keeps its spec and record in a new link's
/// object: the generation's answer (in the job's format) and the link, or
/// the answer that says why there is none. Without `callback`, the object
/// keeps the answer for the MCP call that made the link.
pub(super) async fn issue(
    job: GenerateJob,
    env: &Env,
    ctx: &worker::Context,
    callback: Option<&worker::Url>,
) -> std::result::Result<(HttpResponse, Issued), HttpResponse> {
    // The form is generated as `/v1/generate` would: a configured model
    // designs it, the deterministic generator otherwise or as its fallback.
    let limits = super::settings::limits(env);
    let mut generation = Generation::new(
        job,
        &super::model::generators(env),
        Mode::Answer,
        &limits,
        unix_ms(),
    )
    .keeping_answered_spec();
    let answer = super::drive::answer(&mut generation, env, ctx).await;
    if answer.status != 200 {
        return Err(answer);
    }
    let Some(spec) = generation.answered_spec() else {
        return Err(internal("the form's spec could not be kept"));
    };
    let Ok(random) = random_bytes::<{ FormRecord::RANDOM_BYTES }>() else {
        return Err(internal("no random bytes for the form's link"));
    };
    let ttl = super::kv::SpecCache::open(env).ttl_seconds();
    let job = generation.job();
    let (record, token, fragment) =
        FormRecord::issue(job, job.spec_hash(), callback, random, unix_s(), ttl);
    let init = json!({"spec": spec, "record": record});
    if let Err(e) = call_object(env, &token.object_name(), Method::Post, "init", Some(init)).await {
        return Err(internal(&format!("the form could not be stored: {e}")));
    }
    let issued = Issued {
        record,
        token,
        fragment,
    };
    Ok((answer, issued))
}

/// The answer the link's object `name` keeps for the MCP call that made
/// it (the tool message, JSON), once the person has sent the form.
pub(super) async fn kept_answer(env: &Env, name: &str) -> Result<Option<String>> {
    let (status, body) = call_object(env, name, Method::Get, "answer", None).await?;
    Ok(match status {
        200 => body["message"].as_str().map(str::to_owned),
        _ => None,
    })
}

fn internal(message: &str) -> HttpResponse {
    HttpResponse::error(&Error::new(ErrorCode::Internal, message))
}

/// Asks the object `name`; its JSON answer and status.
async fn call_object(
    env: &Env,
    name: &str,
    method: Method,
    action: &str,
    body: Option<Value>,
) -> Result<(u16, Value)> {
    let stub = env.durable_object(BINDING)?.get_by_name(name)?;
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
pub(super) async fn hosted(req: &mut Request, env: &Env, token: &str) -> HttpResponse {
    let Some(secret) = setting(env, "WEBHOOK_SECRET") else {
        return HttpResponse::form_notice(404, None, "not_found");
    };
    let link = match FormToken::verify(token, &secret, unix_s()) {
        Ok(link) => link,
        Err(error) if error.http_status() == 410 => {
            return HttpResponse::form_notice(410, None, "expired")
        }
        Err(_) => return HttpResponse::form_notice(404, None, "not_found"),
    };
    let name = link.object_name();
    let (status, state) = match call_object(env, &name, Method::Get, "state", None).await {
        Ok(answer) => answer,
        Err(_) => return HttpResponse::form_notice(503, None, "retrying"),
    };
    let record = serde_json::from_value::<FormRecord>(state["record"].clone())
        .ok()
        .filter(|_| status == 200);
    let (Some(record), Some(spec)) = (record, state["spec"].as_str()) else {
        return HttpResponse::form_notice(404, None, "not_found");
    };
    let locale = record.locale.as_deref();
    // "open" (no answer yet) is not a delivery phase.
    let phase = state["state"].as_str().and_then(DeliveryPhase::from_wire);
    let is_post = req.method() == Method::Post;
    if let Some(phase) = phase {
        // A replay, or a second look: the answer's state, never the form again.
        return if is_post {
            HttpResponse::form_notice(409, locale, "already_submitted")
        } else {
            HttpResponse::form_notice(200, locale, phase.notice())
        };
    }
    if !is_post {
        return HttpResponse::hosted_form(token, &record, spec, None);
    }
    let limits = super::settings::limits(env);
    let body = super::read_body_or_error(req, &limits).await;
    let body = body.as_deref().map_err(Clone::clone);
    let submission =
        Submission::hosted(token, record.clone(), spec, link.answer_id(), body, &limits);
    // The link's spec came with it: the machine asks for no KV read.
    let (message, delivery_id) = match super::submit::run(submission, env, "").await {
        Submitted::Store {
            message,
            delivery_id,
        } => (message, delivery_id),
        // The form again, with the errors beside its fields.
        refused => return refused.into_response(),
    };
    // Accepted once stored: the object keeps it and sets its alarm, and the
    // person is answered at once; the delivery is the alarm's.
    match call_object(
        env,
        &name,
        Method::Post,
        "submit",
        Some(json!({"message": message, "deliveryId": delivery_id})),
    )
    .await
    {
        Ok((409, _)) => HttpResponse::form_notice(409, locale, "already_submitted"),
        Ok((200, answer)) => {
            let phase = answer["state"]
                .as_str()
                .and_then(DeliveryPhase::from_wire)
                .unwrap_or(DeliveryPhase::Received);
            HttpResponse::form_notice(phase.posted_status(), locale, phase.notice())
        }
        _ => HttpResponse::form_notice(503, locale, "retrying"),
    }
}

/// Puts a webhook's answer in an outbox of its own, to be POSTed, signed,
/// to `url` and retried like a hosted form's answer. A store that fails
/// is logged (the caller has the answer in its response anyway).
pub(super) async fn enqueue_callback(env: Env, url: worker::Url, body: String) {
    let stored = async {
        let id = hex::encode(random_bytes::<{ FormToken::ID_BYTES }>()?);
        let delivery_id = format!("callback_{id}");
        let expires_at = unix_ms() + CALLBACK_LIFETIME_MS;
        let record = json!({"callbackUrl": url.as_str(), "message": body, "deliveryId": delivery_id, "expiresAt": expires_at});
        call_object(
            &env,
            &format!("callback-{id}"),
            Method::Post,
            "enqueue",
            Some(record),
        )
        .await
    };
    match stored.await {
        Ok((200, _)) => {}
        Ok((status, _)) => worker::console_error!(
            "{}",
            json!({"event": "callback_not_stored", "host": url.host_str(), "status": status})
        ),
        Err(e) => worker::console_error!(
            "{}",
            json!({"event": "callback_not_stored", "host": url.host_str(), "error": e.to_string()})
        ),
    }
}

/// One hosted form's record and outbox, or one webhook callback's outbox.
///
/// Storage: `record` (a form's [`FormRecord`], JSON) and `spec`; for an
/// answer, `callbackUrl`, `message` and `outbox` (the core's [`Outbox`],
/// JSON), or, for a link without a callback, `answer` (the message, kept). Before an answer, the alarm is the link's expiry; after, it is
/// the outbox's.
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
                let record: FormRecord = serde_json::from_value(body["record"].clone())
                    .map_err(|e| worker::Error::RustError(e.to_string()))?;
                if storage.get::<String>("record").await?.is_none() {
                    storage
                        .put("spec", body["spec"].as_str().unwrap_or_default())
                        .await?;
                    storage
                        .put("record", serde_json::to_string(&record)?)
                        .await?;
                    storage
                        .set_alarm(alarm_offset(record.expires_at * 1000))
                        .await?;
                }
                Response::from_json(&json!({"ok": true}))
            }
            (Method::Get, "/state") => {
                let (Some(spec), Some(record)) = (
                    storage.get::<String>("spec").await?,
                    storage.get::<String>("record").await?,
                ) else {
                    return Ok(Response::from_json(&json!({"state": "missing"}))?.with_status(404));
                };
                let outbox = self.outbox().await?;
                if let Some(outbox) = &outbox {
                    self.rearm(outbox).await?;
                }
                let kept = storage.get::<String>("answer").await?.is_some();
                let phase = match (&outbox, kept) {
                    (Some(outbox), _) => outbox.phase().as_str(),
                    // Kept for the MCP call that made the link: with the worker.
                    (None, true) => DeliveryPhase::Delivered.as_str(),
                    (None, false) => "open",
                };
                let record: Value = serde_json::from_str(&record)?;
                Response::from_json(&json!({"spec": spec, "record": record, "state": phase}))
            }
            (Method::Post, "/submit") => {
                let body: Value = req.json().await?;
                // Check and claim with no other await between: the object
                // takes no other event while its storage call runs.
                if let Some(outbox) = self.outbox().await? {
                    return Ok(
                        Response::from_json(&json!({"state": outbox.phase().as_str()}))?
                            .with_status(409),
                    );
                }
                let Some(record) = storage
                    .get::<String>("record")
                    .await?
                    .and_then(|r| serde_json::from_str::<FormRecord>(&r).ok())
                else {
                    return Ok(Response::from_json(&json!({"state": "missing"}))?.with_status(404));
                };
                // A link an MCP call made: the answer is kept for that call
                // to read until the link expires; a second post is refused.
                let Some(callback_url) = record.callback_url.as_deref() else {
                    let delivered = DeliveryPhase::Delivered.as_str();
                    if storage.get::<String>("answer").await?.is_some() {
                        return Ok(
                            Response::from_json(&json!({"state": delivered}))?.with_status(409)
                        );
                    }
                    storage
                        .put("answer", body["message"].as_str().unwrap_or_default())
                        .await?;
                    return Response::from_json(&json!({"state": delivered}));
                };
                // The outbox outlives a link that expires soon: an answer
                // stored a minute before the link's end still gets a day
                // of retries.
                let expires_at_ms =
                    (record.expires_at * 1000).max(unix_ms() + CALLBACK_LIFETIME_MS);
                let phase = self.store(callback_url, &body, expires_at_ms).await?;
                Response::from_json(&json!({"state": phase.as_str()}))
            }
            (Method::Get, "/answer") => match storage.get::<String>("answer").await? {
                Some(message) => Response::from_json(&json!({"message": message})),
                None => Ok(Response::from_json(&json!({"state": "open"}))?.with_status(404)),
            },
            (Method::Post, "/enqueue") => {
                let body: Value = req.json().await?;
                if let Some(outbox) = self.outbox().await? {
                    return Response::from_json(&json!({"state": outbox.phase().as_str()}));
                }
                let phase = self
                    .store(
                        body["callbackUrl"].as_str().unwrap_or_default(),
                        &body,
                        body["expiresAt"].as_u64().unwrap_or_default(),
                    )
                    .await?;
                Response::from_json(&json!({"state": phase.as_str()}))
            }
            _ => Ok(Response::from_json(&json!({"state": "unknown"}))?.with_status(404)),
        }
    }

    async fn alarm(&self) -> Result<Response> {
        let now = unix_ms();
        match self.outbox().await? {
            Some(mut outbox) => {
                let effects = outbox.handle_alarm(now);
                self.run(outbox, effects).await?
            }
            None => self.expire_link(now).await?,
        }
        Response::ok("ok")
    }
}

impl FormObject {
    /// The stored outbox, if an answer was stored.
    async fn outbox(&self) -> Result<Option<Outbox>> {
        let text = self.state.storage().get::<String>("outbox").await?;
        Ok(text.and_then(|t| serde_json::from_str(&t).ok()))
    }

    /// Stores `body`'s message for `callback_url` with a new outbox, whose
    /// first effect is an alarm at once; the phase a person is told.
    async fn store(
        &self,
        callback_url: &str,
        body: &Value,
        expires_at_ms: u64,
    ) -> Result<DeliveryPhase> {
        let storage = self.state.storage();
        let delivery_id = body["deliveryId"].as_str().unwrap_or_default();
        storage.put("callbackUrl", callback_url).await?;
        storage
            .put("message", body["message"].as_str().unwrap_or_default())
            .await?;
        let (outbox, effects) = Outbox::store(delivery_id, unix_ms(), expires_at_ms);
        let phase = outbox.phase();
        self.run(outbox, effects).await?;
        Ok(phase)
    }

    /// A link without an answer: deleted at its expiry (an early alarm is set again).
    async fn expire_link(&self, now_ms: u64) -> Result<()> {
        let storage = self.state.storage();
        let record = storage
            .get::<String>("record")
            .await?
            .and_then(|r| serde_json::from_str::<FormRecord>(&r).ok());
        match record {
            Some(record) if now_ms < record.expires_at * 1000 => {
                storage
                    .set_alarm(alarm_offset(record.expires_at * 1000))
                    .await
            }
            _ => storage.delete_all().await,
        }
    }

    /// Sets the outbox's alarm again when none is set or the one set is
    /// overdue (an alarm lost with a restart, or never set): a request to
    /// the object is enough to move a stuck answer on.
    async fn rearm(&self, outbox: &Outbox) -> Result<()> {
        let storage = self.state.storage();
        let Some(due) = outbox.alarm_at() else {
            return Ok(());
        };
        let overdue = |at: i64| at.saturating_add(OVERDUE_MS) < unix_ms() as i64;
        if storage.get_alarm().await?.is_none_or(overdue) {
            worker::console_log!(
                "{}",
                json!({"event": "delivery_rearmed", "state": outbox.phase().as_str()})
            );
            storage.set_alarm(alarm_offset(due)).await?;
        }
        Ok(())
    }

    /// Persists `outbox` and performs `effects`, then feeds back how an
    /// attempt ended and performs its effects, and so on while an attempt
    /// reports back: the outbox is persisted before each batch, so a death
    /// mid-delivery leaves `delivering` and its alarm.
    async fn run(&self, mut outbox: Outbox, mut effects: Vec<OutboxEffect>) -> Result<()> {
        let storage = self.state.storage();
        let mut ended = None;
        loop {
            if let Some((attempt, result, now)) = ended.take() {
                effects = outbox.handle_attempt_ended(attempt, result, now);
            }
            storage
                .put("outbox", serde_json::to_string(&outbox)?)
                .await?;
            for effect in std::mem::take(&mut effects) {
                match effect {
                    OutboxEffect::SetAlarm(at) => storage.set_alarm(alarm_offset(at)).await?,
                    OutboxEffect::DropMessage => {
                        storage.delete("message").await?;
                    }
                    OutboxEffect::DeleteAll => storage.delete_all().await?,
                    OutboxEffect::Post { attempt } => {
                        let result = self.attempt(&outbox).await?;
                        worker::console_log!(
                            "{}",
                            json!({"event": "delivery_attempt", "attempt": attempt, "result": result.label()})
                        );
                        ended = Some((attempt, result, unix_ms()));
                    }
                }
            }
            if ended.is_none() {
                break;
            }
            // Another event may have moved the outbox while the attempt ran.
            if let Some(current) = self.outbox().await? {
                outbox = current;
            }
        }
        if !outbox.is_open() && outbox.phase() != DeliveryPhase::Expired {
            worker::console_log!(
                "{}",
                json!({"event": "delivery_done", "state": outbox.phase().as_str(), "attempts": outbox.attempts, "last": outbox.last_result.map(|r| r.label())})
            );
        }
        Ok(())
    }

    /// One signed POST of the stored message.
    async fn attempt(&self, outbox: &Outbox) -> Result<genui_core::AttemptResult> {
        let storage = self.state.storage();
        let url = storage
            .get::<String>("callbackUrl")
            .await?
            .unwrap_or_default();
        let message = storage.get::<String>("message").await?.unwrap_or_default();
        Ok(match setting(&self.env, "WEBHOOK_SECRET") {
            Some(secret) => {
                post_signed(&url, &message, &outbox.delivery_id, &secret, unix_s()).await
            }
            None => genui_core::AttemptResult::NetworkError,
        })
    }
}
