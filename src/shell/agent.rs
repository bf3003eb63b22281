//! `POST /v1/agent`: an AG-UI run answered as AG-UI events over SSE
//! (genui_model::AgentEvents and RunInput decide; this performs). A generate call streams
//! through the same machine as `/v1/generate`; a submission from one of
//! our A2UI surfaces is checked like `/v1/submit`; an interrupt in
//! `forwardedProps.interrupts` is answered as `/v1/interrupt` answers it; a run naming
//! `forwardedProps.upstream` is relayed to that agent of `GENUI_AGENTS` (`proxy`). Errors before the
//! stream starts (a malformed `RunAgentInput`, no call, a bad body) are
//! plain `dgui_error` responses with the pointer into the run input.

use super::clock::{unix_ms, unix_s};
use super::platform::Worker;
use super::settings::setting;
use super::{model, read_body};
use genui_core::{Error, GenerateJob, HttpResponse, Limits, Submission};
use genui_model::{
    AgentCall, AgentEvents, Answer, Door, Generation, Mode, Platform, Proxy, RunInput,
};
use worker::Env;

pub(super) async fn run(
    door: &Door<Worker>,
    worker: &Worker,
    env: &Env,
    request_id: &str,
) -> Answer {
    let limits = super::settings::limits(env);
    let body = match read_body(door, &limits).await {
        Ok(body) => body,
        Err(response) => return Answer::Whole(response),
    };
    let input = match RunInput::read(&body, &limits) {
        Ok(input) => input,
        Err(error) => return Answer::Whole(HttpResponse::error(&error)),
    };
    let started = match &input.call {
        AgentCall::Proxy { .. } => proxied(&input, door, worker, env),
        AgentCall::Submit { .. } => submission(&input, door, request_id, &limits).await,
        AgentCall::Generate { .. } | AgentCall::Interrupt { .. } => {
            generation(&input, door, worker, env, &limits).await
        }
    };
    started.unwrap_or_else(Answer::Whole)
}

async fn generation(
    input: &RunInput,
    door: &Door<Worker>,
    worker: &Worker,
    env: &Env,
    limits: &Limits,
) -> Result<Answer, HttpResponse> {
    let format = worker.query("format");
    let secret = setting(env, "WEBHOOK_SECRET");
    let job = input
        .generate_job(format.as_deref(), limits, unix_s(), secret.as_deref())
        .map_err(|error| HttpResponse::error(&error))?;
    let generation = Generation::new(
        job,
        &model::generators(env),
        Mode::Stream,
        limits,
        unix_ms(),
    );
    door.stream(generation, AgentEvents::new(input), None)
        .await
        .map_err(|response| input.locate_response(response))
}

/// An interrupt's job, answered as `/v1/interrupt` answers it: its token
/// is signed with WEBHOOK_SECRET, at the worker's clock.
pub(super) fn interrupt_job(
    body: &[u8],
    format: Option<&str>,
    limits: &Limits,
    env: &Env,
) -> Result<GenerateJob, Error> {
    let secret = setting(env, "WEBHOOK_SECRET");
    GenerateJob::prepare_interrupt(body, format, limits, unix_s(), secret.as_deref())
}

/// A run for an upstream agent (proxy mode): a bad `GENUI_AGENTS` or an
/// unknown name is a plain `dgui_error`; the rest is the relay's stream.
fn proxied(
    input: &RunInput,
    door: &Door<Worker>,
    worker: &Worker,
    env: &Env,
) -> Result<Answer, HttpResponse> {
    Proxy::open(input, setting(env, Proxy::SETTING).as_deref())
        .map(|proxy| super::proxy::run(proxy, input, door, worker))
        .map_err(|error| HttpResponse::error(&error))
}

async fn submission(
    input: &RunInput,
    door: &Door<Worker>,
    request_id: &str,
    limits: &Limits,
) -> Result<Answer, HttpResponse> {
    let body = input.body_bytes();
    let submission = Submission::agent(Ok(&body), limits);
    let submitted = door.submitted(submission, request_id).await;
    AgentEvents::submitted(input, submitted)
        .map(Answer::written)
        .map_err(|error| HttpResponse::error(&error))
}
