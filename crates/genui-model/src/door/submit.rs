//! `POST /v1/submit`: the request's facts, as they came, through the
//! submission machine (genui_core's `Submission`), which reads the body
//! and decides the answer; the door performs the KV read of its spec.

use super::{read_body, unix_s, Answer, Platform, SECRET};
use genui_core::{Submission, Submitted};

/// `POST /v1/submit`.
pub(super) async fn submit<P: Platform>(platform: &P) -> Answer {
    let limits = platform.limits();
    let body = read_body(platform, &limits).await;
    let submission = Submission::api(
        body.as_deref().map_err(Clone::clone),
        |name| platform.header(name),
        &limits,
    )
    .signed_by(platform.setting(SECRET).as_deref(), unix_s(platform));
    let request_id = platform.request_id();
    Answer::Whole(
        submitted(platform, submission, &request_id)
            .await
            .into_response(),
    )
}

/// Reads the spec the submission needs, if any, and hands it the result.
pub(super) async fn submitted<P: Platform>(
    platform: &P,
    submission: Submission,
    request_id: &str,
) -> Submitted {
    let cached = match submission.needs() {
        Some(key) => platform.cache_get(&key).await,
        None => None,
    };
    submission.answer(cached.as_deref(), request_id)
}
