//! `POST /v1/webhook`: a generate request signed with `WEBHOOK_SECRET`,
//! accepted once (the replay guard, a Durable Object per shard of
//! signatures, says whether a signature was seen); the answer is returned
//! and, with `callbackUrl`, also put in an outbox of its own (a Durable
//! Object that POSTs it, signed, and retries it) when it is a 200.
//! genui_core's `Webhook` and `ReplayClaim` decide; the door asks.

use super::drive::OnAnswer;
use super::generate::{generate_job, negotiated, stream_job};
use super::{read_body, unix_s, Answer, Platform, FORMS_BINDING, SECRET};
use crate::stream::wants_event_stream;
use genui_core::{Error, ErrorCode, FormToken, GenerateJob, HttpResponse, ReplayClaim, Webhook};
use url::Url;

/// The replay guard's Durable Object binding.
const REPLAY_GUARD_BINDING: &str = "REPLAY_GUARD";

/// `POST /v1/webhook`.
pub(super) async fn webhook<P: Platform>(platform: &P) -> Answer {
    let (job, callback) = match accepted(platform).await {
        Ok(accepted) => accepted,
        Err(error) => return Answer::Whole(HttpResponse::error(&error)),
    };
    if wants_event_stream(platform.header("accept").as_deref()) {
        let on_answer = callback.map(|url| enqueue_later(platform, url));
        return stream_job(platform, job, on_answer).await;
    }
    let response = generate_job(platform, job).await;
    if let Some((url, body)) = Webhook::callback_delivery(callback, &response) {
        // Stored before the answer goes back; delivered and retried by its outbox.
        enqueue_callback(platform, &url, body).await;
    }
    Answer::Whole(response)
}

/// The signed request, accepted once: its job and its checked callback.
async fn accepted<P: Platform>(platform: &P) -> Result<(GenerateJob, Option<Url>), Error> {
    let secret = Webhook::configured(platform.setting(SECRET))?;
    let limits = platform.limits();
    let body = read_body(platform, &limits).await?;
    let signature = platform.header(Webhook::SIGNATURE_HEADER);
    let claim = Webhook::verify_once(signature.as_deref(), &body, &secret, unix_s(platform))?;
    // Once only: a signature already accepted is a replay.
    claim_once(platform, &claim).await?;
    let format = platform.query("format");
    let job = GenerateJob::prepare(&body, format.as_deref(), &limits)?;
    let job = negotiated(platform, job)?;
    let raw_callback = job.request().callback_url.as_deref();
    let callback = Webhook::callback_of(raw_callback, super::allow_http_callbacks(platform))?;
    Ok((job, callback))
}

/// Claims a verified signature: `Ok` the first time; otherwise
/// `webhook_replayed`, or why the guard could not say.
async fn claim_once<P: Platform>(platform: &P, claim: &ReplayClaim) -> Result<(), Error> {
    if !platform.has_binding(REPLAY_GUARD_BINDING) {
        let why = "the webhook is not configured (bind the REPLAY_GUARD Durable Object, which accepts each signed request once)";
        return Err(Error::new(ErrorCode::NotFound, why));
    }
    let seen = seen_before(platform, claim).await.map_err(|error| {
        Error::new(
            ErrorCode::Internal,
            format!(
                "the webhook's replay check could not be made: {}",
                error.message()
            ),
        )
    })?;
    claim.answer(seen)
}

/// Asks the claim's shard whether it had seen the claim (it records it if not).
async fn seen_before<P: Platform>(platform: &P, claim: &ReplayClaim) -> Result<bool, Error> {
    let body = serde_json::to_value(claim)
        .map_err(|e| Error::new(ErrorCode::Internal, format!("the claim: {e}")))?;
    let shard = claim.shard();
    let asked = platform.call_object(REPLAY_GUARD_BINDING, &shard, "claim", Some(&body));
    let (status, answer) = asked.await?;
    if status != 200 {
        let why = format!("the replay guard answered {status}");
        return Err(Error::new(ErrorCode::Internal, why));
    }
    answer["seen"].as_bool().ok_or_else(|| {
        Error::new(
            ErrorCode::Internal,
            "the replay guard's answer has no `seen`",
        )
    })
}

/// A stream's callback: the last complete answer enqueued once written.
fn enqueue_later<P: Platform>(platform: &P, url: Url) -> OnAnswer {
    let platform = platform.clone();
    Box::new(move |body| Box::pin(async move { enqueue_callback(&platform, &url, body).await }))
}

/// Puts a webhook's answer in an outbox of its own, to be POSTed, signed,
/// to `url` and retried like a hosted form's answer. A store that fails is
/// logged (the caller has the answer in its response anyway).
async fn enqueue_callback<P: Platform>(platform: &P, url: &Url, body: String) {
    let stored = store_callback(platform, url, body).await;
    if let Some(line) = Webhook::callback_not_stored(url.host_str(), stored) {
        platform.log_error(&line);
    }
}

/// Stores the answer in a new outbox object; the object's status.
async fn store_callback<P: Platform>(platform: &P, url: &Url, body: String) -> Result<u16, Error> {
    let mut id = [0u8; FormToken::ID_BYTES];
    platform.random_bytes(&mut id)?;
    let id = hex::encode(id);
    let (name, record) = Webhook::enqueue_request(url.as_str(), body, &id, platform.now_ms());
    let enqueued = platform.call_object(FORMS_BINDING, &name, "enqueue", Some(&record));
    let (status, _) = enqueued.await?;
    Ok(status)
}
