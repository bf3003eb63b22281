//! `POST /v1/agent`: an AG-UI run answered as AG-UI events over SSE
//! (`AgentEvents` and `RunInput` decide; this door performs). A generate
//! call streams through the same machine as `/v1/generate`; a submission
//! from one of our A2UI surfaces is checked like `/v1/submit`; an
//! interrupt in `forwardedProps.interrupts` is answered as `/v1/interrupt`
//! answers it; a run naming `forwardedProps.upstream` is relayed to that
//! agent of `GENUI_AGENTS` (`relay`). Errors before the stream starts (a
//! malformed `RunAgentInput`, no call, a bad body) are plain `dgui_error`
//! answers with the pointer into the run input.

use super::{drive, read_body, relay, submit, unix_s, Answer, Platform, SECRET};
use crate::agui::{AgentEvents, Call, RunInput};
use crate::proxy::Proxy;
use crate::{Generation, Mode};
use genui_core::{Error, HttpResponse, Limits, Submission};

/// `POST /v1/agent`.
pub(super) async fn agent<P: Platform>(platform: &P) -> Answer {
    let limits = platform.limits();
    let input = match read_input(platform, &limits).await {
        Ok(input) => input,
        Err(error) => return Answer::Whole(HttpResponse::error(&error)),
    };
    let started = match &input.call {
        Call::Proxy { .. } => proxied(platform, &input),
        Call::Submit { .. } => submission(platform, &input, &limits).await,
        Call::Generate { .. } | Call::Interrupt { .. } => {
            generation(platform, &input, &limits).await
        }
    };
    started.unwrap_or_else(Answer::Whole)
}

/// The run's input: the body within the limits, read as `RunAgentInput`.
async fn read_input<P: Platform>(platform: &P, limits: &Limits) -> Result<RunInput, Error> {
    let body = read_body(platform, limits).await?;
    RunInput::read(&body, limits)
}

/// A generate or interrupt call, streamed as AG-UI events.
async fn generation<P: Platform>(
    platform: &P,
    input: &RunInput,
    limits: &Limits,
) -> Result<Answer, HttpResponse> {
    let format = platform.query("format");
    let secret = platform.setting(SECRET);
    let job = input
        .generate_job(
            format.as_deref(),
            limits,
            unix_s(platform),
            secret.as_deref(),
        )
        .map_err(|error| HttpResponse::error(&error))?;
    let generators = platform.generators();
    let generation = Generation::new(job, &generators, Mode::Stream, limits, platform.now_ms());
    drive::stream(platform, generation, AgentEvents::new(input), None)
        .await
        .map_err(|response| input.locate_response(response))
}

/// A run for an upstream agent (proxy mode): a bad `GENUI_AGENTS` or an
/// unknown name is a plain `dgui_error`; the rest is the relay's stream.
fn proxied<P: Platform>(platform: &P, input: &RunInput) -> Result<Answer, HttpResponse> {
    Proxy::open(input, platform.setting(Proxy::SETTING).as_deref())
        .map(|proxy| relay::start(platform, proxy, input))
        .map_err(|error| HttpResponse::error(&error))
}

/// A submission from one of our A2UI surfaces, checked like `/v1/submit`.
async fn submission<P: Platform>(
    platform: &P,
    input: &RunInput,
    limits: &Limits,
) -> Result<Answer, HttpResponse> {
    let body = input.body_bytes();
    let submission = Submission::agent(Ok(&body), limits);
    let request_id = platform.request_id();
    let submitted = submit::submitted(platform, submission, &request_id).await;
    AgentEvents::submitted(input, submitted)
        .map(Answer::written)
        .map_err(|error| HttpResponse::error(&error))
}
