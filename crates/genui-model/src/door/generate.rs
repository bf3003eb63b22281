//! `POST /v1/generate` and `POST /v1/interrupt`: a generate job (an
//! interrupt becomes one in the core, its answer carrying the interrupt's
//! token signed with `WEBHOOK_SECRET`) answered as the request asks, as
//! one JSON answer or as an event stream, through the generation machine.

use super::drive::{self, OnAnswer};
use super::{read_body, unix_s, Answer, Platform, SECRET};
use crate::stream::wants_event_stream;
use crate::{GenerateEvents, Generation, Mode};
use genui_core::{Error, GenerateJob, HttpResponse, Limits};

/// `POST /v1/generate`.
pub(super) async fn generate<P: Platform>(platform: &P) -> Answer {
    let limits = platform.limits();
    let job = match read_body(platform, &limits).await {
        Ok(body) => GenerateJob::prepare(&body, platform.query("format").as_deref(), &limits)
            .and_then(|job| negotiated(platform, job)),
        Err(error) => Err(error),
    };
    match job {
        Ok(job) => answer(platform, job).await,
        Err(error) => Answer::Whole(HttpResponse::error(&error)),
    }
}

/// `POST /v1/interrupt`: an AG-UI interrupt answered as `/v1/generate` answers.
pub(super) async fn interrupt<P: Platform>(platform: &P) -> Answer {
    let limits = platform.limits();
    let job = match read_body(platform, &limits).await {
        Ok(body) => GenerateJob::prepare_interrupt(
            &body,
            platform.query("format").as_deref(),
            &limits,
            unix_s(platform),
            platform.setting(SECRET).as_deref(),
        )
        .and_then(|job| negotiated(platform, job)),
        Err(error) => Err(error),
    };
    match job {
        Ok(job) => answer(platform, job).await,
        Err(error) => Answer::Whole(HttpResponse::error(&error)),
    }
}

/// A job with the A2UI revision the request asks for (its `a2uiVersion`
/// query parameter or its `Accept` header).
pub(super) fn negotiated<P: Platform>(
    platform: &P,
    mut job: GenerateJob,
) -> Result<GenerateJob, Error> {
    let version = platform.query("a2uiVersion");
    job.negotiate_a2ui(version.as_deref(), platform.header("accept").as_deref())?;
    Ok(job)
}

/// Answers a prepared job as the request asks: an event stream for
/// `Accept: text/event-stream`, else the whole answer (`format=react`
/// with `Accept: text/tsx` or `text/plain`: the module alone).
async fn answer<P: Platform>(platform: &P, job: GenerateJob) -> Answer {
    let accept = platform.header("accept");
    if wants_event_stream(accept.as_deref()) {
        return stream_job(platform, job, None).await;
    }
    let response = generate_job(platform, job).await;
    Answer::Whole(response.react_source_only(accept.as_deref()))
}

/// A prepared job's one answer: a loop over the generation machine, which
/// decides generator, cache keys, fallback and what to store.
pub(super) async fn generate_job<P: Platform>(platform: &P, job: GenerateJob) -> HttpResponse {
    let mut generation = generation(platform, job, Mode::Answer);
    drive::answer(platform, &mut generation).await
}

/// The same job as an event stream; an error before the first event is a
/// plain `dgui_error` answer.
pub(super) async fn stream_job<P: Platform>(
    platform: &P,
    job: GenerateJob,
    on_answer: Option<OnAnswer>,
) -> Answer {
    let generation = generation(platform, job, Mode::Stream);
    let events = GenerateEvents::default();
    match drive::stream(platform, generation, events, on_answer).await {
        Ok(answer) => answer,
        Err(response) => Answer::Whole(response),
    }
}

/// The generation machine for `job`, with the isolate's generators and limits.
fn generation<P: Platform>(platform: &P, job: GenerateJob, mode: Mode) -> Generation {
    let generators = platform.generators();
    Generation::new(
        job,
        &generators,
        mode,
        &platform.limits(),
        platform.now_ms(),
    )
}

/// An interrupt's job, answered as `/v1/interrupt` answers it: its token
/// is signed with `WEBHOOK_SECRET`, at the platform's clock.
pub(super) fn interrupt_job<P: Platform>(
    platform: &P,
    body: &[u8],
    limits: &Limits,
) -> Result<GenerateJob, Error> {
    let secret = platform.setting(SECRET);
    GenerateJob::prepare_interrupt(body, None, limits, unix_s(platform), secret.as_deref())
}
