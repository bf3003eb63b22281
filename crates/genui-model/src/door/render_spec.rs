//! `POST /v1/specs/<specHash>/render`: the core checks the request and
//! renders (genui_core's `SpecRender`); the door reads the spec from KV
//! only when the isolate does not remember it.

use super::{read_body, Answer, Platform};
use genui_core::{Error, HttpResponse, SpecRender};

/// `POST /v1/specs/<spec_hash>/render`.
pub(super) async fn render_spec<P: Platform>(platform: &P, spec_hash: &str) -> Answer {
    let job = match prepared(platform, spec_hash).await {
        Ok(job) => job,
        Err(error) => return Answer::Whole(HttpResponse::error(&error)),
    };
    let cached = match job.key_to_read() {
        Some(key) => platform.cache_get(key).await,
        None => None,
    };
    let outcome = job.answer(cached.as_deref());
    let accept = platform.header("accept");
    Answer::Whole(outcome.response.react_source_only(accept.as_deref()))
}

/// The render job: the body within the limits, the format and the A2UI
/// revision the request asks for.
async fn prepared<P: Platform>(platform: &P, spec_hash: &str) -> Result<SpecRender, Error> {
    let limits = platform.limits();
    let body = read_body(platform, &limits).await?;
    let format = platform.query("format");
    let mut job = SpecRender::prepare(spec_hash, &body, format.as_deref(), &limits)?;
    let version = platform.query("a2uiVersion");
    let accept = platform.header("accept");
    job.negotiate_a2ui(version.as_deref(), accept.as_deref())?;
    Ok(job)
}
