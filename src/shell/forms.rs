//! Hosted forms: `POST /v1/forms` makes a signed link, `GET /f/<token>`
//! serves its page, `POST /f/<token>` takes the person's answer; and the
//! outbox of a hosted form's answer (a webhook's `callbackUrl` answer
//! gets an object of its own, enqueued by `genui_model`'s webhook door).
//!
//! Each link has one Durable Object ([`FormObject`], SQLite-backed), named
//! by the link's random id ([`FormToken::object_name`]). It holds the link's
//! [`FormRecord`] and spec from the moment the link is made (so the link
//! works at once, whatever KV's propagation), and it is the once-only
//! record and the outbox of the answer: a valid submission is stored
//! there with its outbox and an alarm at once, and the person is
//! answered; the alarm then POSTs it, signed, to `callbackUrl`, and keeps
//! retrying by the core's schedule until it is taken or the link expires.
//! A link an MCP call made ([`issue`] without a callback) has no outbox:
//! its object keeps the valid answer (`answer`) for that call to read
//! ([`kept_answer`]) until the link expires.
//! A webhook's callback gets an object of its own (a random name) with
//! the same outbox. The object only performs effects: genui_core's
//! `FormObjectMachine` decides what each request and alarm does (and its
//! `Outbox` the delivery's schedule), and `HostedVisit` which page a
//! person is shown. The object is single-threaded, so two posts cannot
//! both be first.

use super::clock::{unix_ms, unix_s};
use super::deliver::random_bytes;
use super::platform::Worker;
use super::read_body;
use super::settings::setting;
use genui_core::{
    FormObjectMachine, FormRecord, FormToken, GenerateJob, HostedVisit, HttpResponse,
};
use genui_model::{Door, Generation, Mode, Platform};
use serde_json::Value;
use worker::{Env, Method, Result};

/// The Durable Object binding (wrangler.toml).
const BINDING: &str = "FORMS";

/// Whether callbacks may go to `http` and local URLs (a dev setting).
pub(super) fn allow_http(env: &Env) -> bool {
    setting(env, "WEBHOOK_ALLOW_HTTP_CALLBACKS").as_deref() == Some("true")
}

/// `POST /v1/forms`: a generate request plus `callbackUrl` in, `{url,
/// expiresAt}` out, after the spec is stored in the link's object.
pub(super) async fn create(door: &Door<Worker>, worker: &Worker, env: &Env) -> HttpResponse {
    let secret = match FormRecord::configured(setting(env, "WEBHOOK_SECRET")) {
        Ok(secret) => secret,
        Err(error) => return HttpResponse::error(&error),
    };
    let limits = super::settings::limits(env);
    let body = match read_body(door, &limits).await {
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
    let link = match issue(job, door, env, Some(&callback)).await {
        Ok((_, link)) => link,
        Err(answer) => return answer,
    };
    HttpResponse::form_link(
        &worker.origin(),
        &link.token.sign(&secret),
        link.fragment.as_deref(),
        &link.token,
        &link.record,
    )
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
    door: &Door<Worker>,
    env: &Env,
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
    let answer = door.answer(&mut generation).await;
    let random = random_bytes::<{ FormRecord::RANDOM_BYTES }>().ok();
    let (answer, spec, random) = FormRecord::issuable(answer, generation.answered_spec(), random)?;
    let ttl = super::kv::SpecCache::open(env).ttl_seconds();
    let job = generation.job();
    let (record, token, fragment) =
        FormRecord::issue(job, job.spec_hash(), callback, random, unix_s(), ttl);
    let init = FormObjectMachine::init_request(spec, &record);
    let init = call_object(env, &token.object_name(), "init", Some(init)).await;
    FormRecord::stored(init.map(|(status, _)| status).map_err(|e| e.to_string()))?;
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
    let (status, body) = call_object(env, name, "answer", None).await?;
    Ok(FormObjectMachine::kept_message(status, &body))
}

/// Asks the link's object `name` (a GET without `body`, a POST with it).
async fn call_object(
    env: &Env,
    name: &str,
    action: &str,
    body: Option<Value>,
) -> Result<(u16, Value)> {
    super::platform::call_object(env, BINDING, name, action, body.as_ref()).await
}

/// `GET`/`POST /f/<token>`: the object's state and the submission,
/// between the steps of genui_core's `HostedVisit`, which picks the page.
pub(super) async fn hosted(
    door: &Door<Worker>,
    worker: &Worker,
    env: &Env,
    token: &str,
) -> HttpResponse {
    let secret = setting(env, "WEBHOOK_SECRET");
    let is_post = worker.http_method() == Method::Post;
    let mut visit = match HostedVisit::open(token, secret.as_deref(), unix_s(), is_post) {
        Ok(visit) => visit,
        Err(page) => return page,
    };
    let name = visit.object_name();
    let state = call_object(env, &name, "state", None).await;
    if let Err(page) = visit.on_state(state.ok()) {
        return page;
    }
    let limits = super::settings::limits(env);
    let body = door.body(&limits).await;
    let body = body.as_deref().map_err(Clone::clone);
    let submission = match visit.submission(body, &limits) {
        Ok(submission) => submission,
        Err(page) => return page,
    };
    // The link's spec came with it: the machine asks for no KV read.
    let answer = match visit.on_submitted(door.submitted(submission, "").await) {
        Ok(answer) => answer,
        Err(page) => return page,
    };
    let stored = call_object(env, &name, "submit", Some(answer)).await;
    visit.on_stored(stored.ok())
}
