//! Hosted forms: `POST /v1/forms` makes a signed link, `GET /f/<token>`
//! serves its page, `POST /f/<token>` takes the person's answer; and the
//! outbox of a webhook's `callbackUrl` answer.
//!
//! Each link has one Durable Object of the `FORMS` binding, named by the
//! link's random id (`FormToken::object_name`). It holds the link's
//! `FormRecord` and spec from the moment the link is made, and it is the
//! once-only record and the outbox of the answer (genui_core's
//! `FormObjectMachine` decides what it does). A link an MCP call made
//! ([`issue`] without a callback) has no outbox: its object keeps the
//! valid answer for that call to read ([`kept_answer`]). A webhook's
//! callback gets an object of its own (a random name) with the same
//! outbox ([`enqueue_callback`]). genui_core's `HostedVisit` picks the
//! page a person is shown; this door performs the object calls between
//! its steps.

use super::{read_body, submit, unix_s, Platform, SECRET};
use crate::{Generation, Mode};
use genui_core::{Error, FormRecord, FormToken, GenerateJob, HostedVisit, HttpResponse};
use serde_json::Value;

/// `POST /v1/forms`: a generate request plus `callbackUrl` in, `{url,
/// expiresAt}` out, after the spec is stored in the link's object.
pub(super) async fn create<P: Platform>(platform: &P) -> HttpResponse {
    let secret = match FormRecord::configured(platform.setting(SECRET)) {
        Ok(secret) => secret,
        Err(error) => return HttpResponse::error(&error),
    };
    let (job, callback) = match callback_job(platform).await {
        Ok(prepared) => prepared,
        Err(error) => return HttpResponse::error(&error),
    };
    let link = match issue(platform, job, Some(&callback)).await {
        Ok((_, link)) => link,
        Err(answer) => return answer,
    };
    HttpResponse::form_link(
        &platform.origin(),
        &link.token.sign(&secret),
        link.fragment.as_deref(),
        &link.token,
        &link.record,
    )
}

/// The form's job (HTML unless the body asks otherwise) and the callback
/// its answer goes to.
async fn callback_job<P: Platform>(platform: &P) -> Result<(GenerateJob, url::Url), Error> {
    let limits = platform.limits();
    let body = read_body(platform, &limits).await?;
    let job = GenerateJob::prepare(&body, Some("html"), &limits)?;
    let callback = FormRecord::callback_for(&job, super::allow_http_callbacks(platform))?;
    Ok((job, callback))
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
pub(super) async fn issue<P: Platform>(
    platform: &P,
    job: GenerateJob,
    callback: Option<&url::Url>,
) -> Result<(HttpResponse, Issued), HttpResponse> {
    // The form is generated as `/v1/generate` would: a configured model
    // designs it, the deterministic generator otherwise or as its fallback.
    let generators = platform.generators();
    let limits = platform.limits();
    let mut generation =
        Generation::new(job, &generators, Mode::Answer, &limits, platform.now_ms())
            .keeping_answered_spec();
    let answer = super::drive::answer(platform, &mut generation).await;
    let mut random = [0; FormRecord::RANDOM_BYTES];
    let random = platform.random_bytes(&mut random).ok().map(|()| random);
    let (answer, spec, random) = FormRecord::issuable(answer, generation.answered_spec(), random)?;
    let job = generation.job();
    let ttl = platform.cache_ttl_seconds();
    let (record, token, fragment) = FormRecord::issue(
        job,
        job.spec_hash(),
        callback,
        random,
        unix_s(platform),
        ttl,
    );
    let init = record.init_request(spec);
    let init = call_object(platform, &token.object_name(), "init", Some(&init)).await;
    FormRecord::stored(init.map(|(status, _)| status))?;
    let issued = Issued {
        record,
        token,
        fragment,
    };
    Ok((answer, issued))
}

/// The answer the link's object `name` keeps for the MCP call that made
/// it (the tool message, JSON), once the person has sent the form.
pub(super) async fn kept_answer<P: Platform>(
    platform: &P,
    name: &str,
) -> Result<Option<String>, Error> {
    let (status, body) = call_object(platform, name, "answer", None).await?;
    Ok(FormRecord::kept_message(status, &body))
}

/// `GET`/`POST /f/<token>`: the object's state and the submission,
/// between the steps of genui_core's `HostedVisit`, which picks the page.
pub(super) async fn hosted<P: Platform>(platform: &P, token: &str) -> HttpResponse {
    let secret = platform.setting(SECRET);
    let is_post = platform.method() == "POST";
    let opened = HostedVisit::open(token, secret.as_deref(), unix_s(platform), is_post);
    let mut visit = match opened {
        Ok(visit) => visit,
        Err(page) => return page,
    };
    let name = visit.object_name();
    let state = call_object(platform, &name, "state", None).await;
    if let Err(page) = visit.on_state(state.ok()) {
        return page;
    }
    let limits = platform.limits();
    let body = read_body(platform, &limits).await;
    let body = body.as_deref().map_err(Clone::clone);
    let submission = match visit.submission(body, &limits) {
        Ok(submission) => submission,
        Err(page) => return page,
    };
    // The link's spec came with it: the machine asks for no KV read.
    let submitted = submit::submitted(platform, submission, "").await;
    let answer = match visit.on_submitted(submitted) {
        Ok(answer) => answer,
        Err(page) => return page,
    };
    let stored = call_object(platform, &name, "submit", Some(&answer)).await;
    visit.on_stored(stored.ok())
}

/// Asks the link's object `name` (a GET without `body`, a POST with it).
async fn call_object<P: Platform>(
    platform: &P,
    name: &str,
    action: &str,
    body: Option<&Value>,
) -> Result<(u16, Value), Error> {
    platform
        .call_object(super::FORMS_BINDING, name, action, body)
        .await
}
