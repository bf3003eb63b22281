//! Once-only webhooks: the replay guard, a SQLite-backed Durable Object
//! ([`ReplayGuard`]) per shard of signatures, named by genui-core's
//! [`ReplayClaim::shard`]. A shard answers one question atomically (it is
//! single-threaded, and the check and the insert are synchronous SQL with
//! no await between them): was this signature accepted before? It keeps
//! each key until the claim's forget time and deletes forgotten keys on
//! every claim and with its alarm. The decisions are the core's; this
//! module performs them.
//!
//! Without the `REPLAY_GUARD` binding the webhook fails closed: it answers
//! "not configured" (404), as it does without `WEBHOOK_SECRET`.

use genui_core::{Error, ErrorCode, HttpResponse, ReplayClaim};
use worker::{Env, Method, ObjectNamespace, Request, RequestInit, Result};

/// The Durable Object binding (wrangler.toml).
const BINDING: &str = "REPLAY_GUARD";

/// Claims a verified webhook signature: `Ok` the first time; otherwise the
/// answer to send (`webhook_replayed`, or the guard missing or failing).
pub(super) async fn claim_once(
    env: &Env,
    claim: &ReplayClaim,
) -> std::result::Result<(), HttpResponse> {
    let Ok(namespace) = env.durable_object(BINDING) else {
        let why = "the webhook is not configured (bind the REPLAY_GUARD Durable Object, which accepts each signed request once)";
        return Err(HttpResponse::error(&Error::new(ErrorCode::NotFound, why)));
    };
    let seen = ask(&namespace, claim).await.map_err(|e| {
        HttpResponse::error(&Error::new(
            ErrorCode::Internal,
            format!("the webhook's replay check could not be made: {e}"),
        ))
    })?;
    claim
        .answer(seen)
        .map_err(|error| HttpResponse::error(&error))
}

/// Asks the claim's shard; whether it had seen the claim.
async fn ask(namespace: &ObjectNamespace, claim: &ReplayClaim) -> Result<bool> {
    let stub = namespace.get_by_name(&claim.shard())?;
    let mut init = RequestInit::new();
    init.with_method(Method::Post)
        .with_body(Some(serde_json::to_string(claim)?.into()));
    let request = Request::new_with_init("https://replay.internal/claim", &init)?;
    let mut response = stub.fetch_with_request(request).await?;
    if response.status_code() != 200 {
        return Err(worker::Error::RustError(format!(
            "the replay guard answered {}",
            response.status_code()
        )));
    }
    let answer: serde_json::Value = response.json().await?;
    answer["seen"]
        .as_bool()
        .ok_or_else(|| worker::Error::RustError("the replay guard's answer has no `seen`".into()))
}
