//! The ladder: one model generation as a sans-IO state machine.
//!
//! ```text
//! start() -> Send(request, timeout)
//! next(Response) -> parse -> sanitize -> auto-fix -> check
//!     proven                          -> Done(Model(plan))
//!     still wrong, no retry used yet  -> Send(request with the issue list)
//!     still wrong after the retry     -> Done(Fallback | Failed)
//! next(Response 429)   -> Wait(Retry-After) if it fits the deadline, then Send
//! next(Response 5xx | NetworkError) -> Wait(backoff), Send once more
//! next(Response 400 "response_format") -> Send with json_object (OpenAI)
//! next(TimedOut)       -> Done(Fallback | Failed) with model_timeout
//! ```
//!
//! Time is bookkept, never read: the overall deadline counts the
//! `elapsed_ms` of responses, the timeouts that fired and the waits taken;
//! each attempt's timeout is cut to what is left. `now_ms` (given once) only
//! resolves HTTP-date `Retry-After` values.
//!
//! A failure ends as `Fallback` (the caller serves the deterministic plan,
//! included in the outcome, with provenance `generator: "fallback"`), or as
//! `Failed` when the request forced `generator: "model"`.

use crate::config::ModelConfig;
use crate::fix::{self, Context};
use crate::plan_schema::to_plan;
use crate::prompt::{self, Prompt};
use crate::providers::{self, failure, AiCall, Call, HttpRequest, Mode};
use genui_core::Issue;
use genui_core::Plan;
use genui_core::{Error, GenerateRequest, Limits, ModelFailure};
use serde::Serialize;
use serde_json::Value;

/// An attempt gets at least this much time, or is not started.
pub(crate) const MIN_ATTEMPT_MS: u64 = 1000;
/// Wait before the one retry after a 5xx or network error.
pub(crate) const SERVER_ERROR_BACKOFF_MS: u64 = 500;
/// Wait after a 429 without `Retry-After`.
pub(crate) const DEFAULT_RATE_LIMIT_WAIT_MS: u64 = 1000;
/// At most this many 429 waits per generation.
pub(crate) const MAX_RATE_LIMIT_WAITS: u32 = 2;

/// What the shell reports back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// The provider answered (any status). For a Workers AI binding call:
    /// status 200 and the result serialised as JSON.
    Response {
        /// HTTP status.
        status: u16,
        /// Response headers (names in any case).
        headers: Vec<(String, String)>,
        /// Response body.
        body: String,
        /// Time from send to the end of the body.
        elapsed_ms: u64,
    },
    /// The attempt's timeout fired first.
    TimedOut,
    /// The request could not be sent or the binding threw.
    NetworkError(String),
    /// A [`Step::Wait`] is over.
    Waited,
}

/// What the shell must do next.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// Send this HTTP request; give up after the timeout (ms) and report
    /// [`Event::TimedOut`].
    Send(HttpRequest, u64),
    /// Call the Workers AI binding; same timeout rule.
    RunAi(AiCall, u64),
    /// Wait this many ms, then report [`Event::Waited`].
    Wait(u64),
    /// Finished.
    Done(Box<LadderOutcome>),
}

/// How a generation ended.
#[derive(Debug, Clone, PartialEq)]
pub enum LadderResult {
    /// The model's plan, repaired and proven by `genui_core::check`.
    Model(Plan),
    /// The model failed; serve the deterministic plan (included).
    Fallback {
        /// Why.
        reason: Error,
        /// The deterministic plan.
        plan: Plan,
    },
    /// The model failed and `generator: "model"` was forced: answer with a
    /// `dgui_error` ([`Error::to_dgui_error`]).
    Failed(Error),
}

/// The end of a generation, with its provenance.
#[derive(Debug, Clone, PartialEq)]
pub struct LadderOutcome {
    /// The plan or the failure.
    pub result: LadderResult,
    /// What happened on the way.
    pub provenance: Provenance,
    /// The checker's issues on the last model answer (empty on success).
    pub issues: Vec<Issue>,
}

impl LadderOutcome {
    /// The plan to render: the model's or the fallback.
    pub fn plan(&self) -> Option<&Plan> {
        match &self.result {
            LadderResult::Model(plan) | LadderResult::Fallback { plan, .. } => Some(plan),
            LadderResult::Failed(_) => None,
        }
    }

    /// Whether to cache the spec under the model's cache key: only a proven
    /// model plan (a fallback is cached, if at all, under the deterministic
    /// key, so the model is asked again next time).
    pub fn cacheable(&self) -> bool {
        matches!(self.result, LadderResult::Model(_))
    }
}

/// Provenance of a model generation, for `meta` and logs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Provenance {
    /// `model`, or `fallback` when the deterministic plan was served.
    pub generator: &'static str,
    /// `openai`, `anthropic`, `workers-ai`.
    pub provider: &'static str,
    /// The model id.
    pub model: String,
    /// [`prompt::PROMPT_VERSION`].
    pub prompt_version: &'static str,
    /// Requests sent.
    pub attempts: u32,
    /// Fixes applied to the plan that was used.
    pub fixes: Vec<&'static str>,
    /// Time spent waiting for the model (responses and timeouts, not waits).
    pub model_latency_ms: u64,
    /// Prompt tokens over all attempts, when reported.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tokens_in: Option<u64>,
    /// Completion tokens over all attempts, when reported.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tokens_out: Option<u64>,
    /// The error code that caused a fallback or failure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<&'static str>,
    /// What lies behind `error` when the code alone does not say:
    /// `refusal` (the model declined; `error` is `model_output_invalid`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'static str>,
}

/// What the ladder is waiting for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Waiting {
    Nothing,
    Response { timeout_ms: u64 },
    Wait { ms: u64 },
    Finished,
}

/// One generation in progress.
#[derive(Debug)]
pub struct Ladder {
    config: ModelConfig,
    /// The request, kept for its `output` and the layout it asks for.
    request: GenerateRequest,
    limits: Limits,
    now_ms: u64,
    forced: bool,
    deterministic: Plan,
    base_prompt: Prompt,
    prompt: Prompt,
    mode: Mode,
    repair_used: bool,
    /// The last answer was a refusal.
    refused: bool,
    server_retries: u32,
    rate_waits: u32,
    spent_ms: u64,
    waiting: Waiting,
    provenance: Provenance,
    outcome: Option<LadderOutcome>,
}

impl Ladder {
    /// Prepares a generation for `request`: the deterministic plan (needed
    /// for the field list, the fixes and the fallback) and the prompt. The
    /// error is the deterministic generator's (for example `schema_too_deep`),
    /// which the request would hit anyway. Check `output` against its
    /// meta-schema before.
    pub fn new(
        config: &ModelConfig,
        request: &GenerateRequest,
        limits: &Limits,
        now_ms: u64,
    ) -> Result<Self, genui_core::Error> {
        let mut deterministic = genui_core::Plan::generate_for(
            &request.output,
            &request.description,
            request.wants_confirm(),
            request.device,
            limits,
        )?;
        // The operator's catalog: fields that ask for a component keep it
        // (the model's default controls), and the model is offered the rest.
        let catalog = request
            .catalog
            .as_ref()
            .and_then(|(name, _)| limits.catalog(name));
        if let Some(catalog) = &catalog {
            catalog.bind_requested(&mut deterministic, &request.output, limits);
        }
        let fields = prompt::fields(&deterministic, &request.output, limits);
        let operator = config.instructions.as_deref();
        let mut base_prompt = Prompt::new(&request.description, &fields)
            .in_locale(request.locale.as_deref())
            .with_catalog(catalog.as_deref())
            .with_instructions(operator, request.instructions.as_deref());
        if config.provider == crate::config::Provider::Http {
            let components = catalog.as_deref().map(genui_core::Catalog::for_generators);
            base_prompt.call = crate::providers::http::data_free(
                &config.model,
                request,
                operator,
                &fields,
                components.as_ref(),
            );
        }
        Ok(Self {
            provenance: Provenance {
                generator: "model",
                provider: config.provider.as_str(),
                model: config.model.clone(),
                prompt_version: prompt::PROMPT_VERSION,
                attempts: 0,
                fixes: Vec::new(),
                model_latency_ms: 0,
                tokens_in: None,
                tokens_out: None,
                error: None,
                reason: None,
            },
            config: config.clone(),
            request: request.clone(),
            limits: limits.clone(),
            now_ms,
            forced: false,
            deterministic,
            prompt: base_prompt.clone(),
            base_prompt,
            mode: Mode::JsonSchema,
            repair_used: false,
            refused: false,
            server_retries: 0,
            rate_waits: 0,
            spent_ms: 0,
            waiting: Waiting::Nothing,
            outcome: None,
        })
    }

    /// `generator: "model"` was forced: failures end as `Failed`.
    pub fn forced(mut self, forced: bool) -> Self {
        self.forced = forced;
        self
    }

    /// The prompt of the first attempt.
    pub fn first_prompt(&self) -> &Prompt {
        &self.base_prompt
    }

    /// The deterministic plan (the fallback).
    pub fn deterministic_plan(&self) -> &Plan {
        &self.deterministic
    }

    /// The first step: the first request.
    pub fn start(&mut self) -> Step {
        match self.waiting {
            Waiting::Nothing => self.send(),
            _ => self.unexpected("start() called twice"),
        }
    }

    /// The next step, given what happened.
    pub fn next(&mut self, event: Event) -> Step {
        match (self.waiting, event) {
            (Waiting::Finished, _) => self.finished_step(),
            (
                Waiting::Response { .. },
                Event::Response {
                    status,
                    headers,
                    body,
                    elapsed_ms,
                },
            ) => {
                self.spend(elapsed_ms, true);
                self.on_response(status, &headers, &body)
            }
            (Waiting::Response { timeout_ms }, Event::TimedOut) => {
                self.spend(timeout_ms, true);
                let message = format!("no answer within {timeout_ms} ms");
                self.on_failure(failure(ModelFailure::Timeout, message))
            }
            (Waiting::Response { .. }, Event::NetworkError(message)) => {
                self.on_failure(providers::network_error(self.config.provider, &message))
            }
            (Waiting::Wait { ms }, Event::Waited) => {
                self.spend(ms, false);
                self.send()
            }
            (_, event) => self.unexpected(&format!("unexpected event {}", event_name(&event))),
        }
    }

    /// Ends the generation now, as a timeout (the fallback, or the error
    /// when forced): the caller's wall clock passed the deadline that the
    /// ladder's own bookkeeping (which never sees cache reads) had not.
    pub fn give_up(&mut self, why: &str) -> Step {
        if self.waiting == Waiting::Finished {
            return self.finished_step();
        }
        self.fail(failure(ModelFailure::Timeout, why.to_owned()))
    }

    fn spend(&mut self, ms: u64, model_time: bool) {
        self.spent_ms = self.spent_ms.saturating_add(ms);
        if model_time {
            self.provenance.model_latency_ms = self.provenance.model_latency_ms.saturating_add(ms);
        }
    }

    fn remaining_ms(&self) -> u64 {
        self.config.deadline_ms.saturating_sub(self.spent_ms)
    }

    /// Sends the current prompt, if the deadline leaves room for an attempt.
    fn send(&mut self) -> Step {
        if self.remaining_ms() < MIN_ATTEMPT_MS {
            let message = format!(
                "the {} ms deadline left no time for another attempt",
                self.config.deadline_ms
            );
            return self.fail(failure(ModelFailure::Timeout, message));
        }
        let timeout_ms = self.config.attempt_timeout_ms.min(self.remaining_ms());
        self.provenance.attempts += 1;
        self.waiting = Waiting::Response { timeout_ms };
        match providers::build(&self.config, &self.prompt, self.mode) {
            Call::Http(mut request) => {
                if let (crate::config::Provider::Http, Some(secret)) =
                    (self.config.provider, &self.config.api_key)
                {
                    let now_s = self.now_ms.saturating_add(self.spent_ms) / 1000;
                    crate::providers::http::sign(&mut request, secret, now_s);
                }
                Step::Send(request, timeout_ms)
            }
            Call::Ai(call) => Step::RunAi(call, timeout_ms),
        }
    }

    fn wait(&mut self, ms: u64) -> Step {
        self.waiting = Waiting::Wait { ms };
        Step::Wait(ms)
    }

    fn on_response(&mut self, status: u16, headers: &[(String, String)], body: &str) -> Step {
        if (200..300).contains(&status) {
            let (tokens_in, tokens_out) = providers::usage(self.config.provider, body);
            add_tokens(&mut self.provenance.tokens_in, tokens_in);
            add_tokens(&mut self.provenance.tokens_out, tokens_out);
        }
        let parsed = providers::parse_response(self.config.provider, status, headers, body);
        self.refused = parsed
            .as_ref()
            .err()
            .is_some_and(providers::chat::is_refusal);
        match parsed {
            Ok(reply) => self.on_plan(reply.plan_json),
            Err(error) => self.on_failure(error),
        }
    }

    /// Sanitises, repairs and checks a plan the model wrote.
    fn on_plan(&mut self, mut value: Value) -> Step {
        let raw = value.to_string();
        let ctx = Context::new(&self.request.output, &self.deterministic, &self.limits);
        let mut fixes = fix::prepare_value(&mut value, &ctx);
        let mut plan = match to_plan(&value, &|pointer| ctx.default_control(pointer)) {
            Ok(plan) => plan,
            Err(issues) => {
                return self.on_bad_output(
                    &raw,
                    issues,
                    "the plan does not have the required shape",
                )
            }
        };
        if plan.sanitize() {
            fixes.push("text_sanitized");
        }
        let mut repaired = fix::repair(&plan, &ctx);
        fixes.extend(
            repaired
                .fixes
                .iter()
                .copied()
                .filter(|f| !fixes.contains(f))
                .collect::<Vec<_>>(),
        );
        // Layout for the device and rules from the schema, as for every plan.
        self.request.arrange(&mut repaired.plan, &self.limits);
        let issues = Plan::check(&repaired.plan, &self.request.output, &self.limits);
        if !issues.is_empty() {
            return self.on_bad_output(&raw, issues, "the plan failed its checks");
        }
        self.provenance.fixes = fixes;
        self.conclude(LadderResult::Model(repaired.plan), Vec::new())
    }

    /// Retries once with the issues fed back, then gives up.
    fn on_bad_output(&mut self, raw: &str, issues: Vec<Issue>, what: &str) -> Step {
        if !self.repair_used && self.remaining_ms() >= MIN_ATTEMPT_MS {
            self.repair_used = true;
            self.prompt = self.base_prompt.with_retry(raw, &issues);
            return self.send();
        }
        let mut codes: Vec<&str> = Vec::new();
        for issue in &issues {
            if !codes.contains(&issue.code) {
                codes.push(issue.code);
            }
        }
        let message = format!(
            "{what} after {} attempt(s): {}",
            self.provenance.attempts,
            codes.join(", ")
        );
        self.fail_with(failure(ModelFailure::OutputInvalid, message), issues)
    }

    fn on_failure(&mut self, error: Error) -> Step {
        let Some(kind) = error.code().model_failure() else {
            return self.fail(error);
        };
        match kind {
            ModelFailure::FormatUnsupported
                if self.mode == Mode::JsonSchema && self.uses_response_format() =>
            {
                self.mode = Mode::JsonObject;
                self.send()
            }
            ModelFailure::RateLimited => self.after_rate_limit(error),
            ModelFailure::Unavailable if error.provider_status().is_none_or(|s| s >= 500) => {
                self.after_server_error(error)
            }
            ModelFailure::OutputInvalid => {
                let issue = Issue {
                    code: "output_invalid",
                    pointer: String::new(),
                    message: error.message().to_owned(),
                };
                let raw = error.model_output().unwrap_or_default().to_owned();
                self.on_bad_output(&raw, vec![issue], "the model gave no usable plan")
            }
            _ => self.fail(error),
        }
    }

    fn uses_response_format(&self) -> bool {
        self.config.provider == crate::config::Provider::OpenAi
    }

    fn after_rate_limit(&mut self, error: Error) -> Step {
        let now = self.now_ms.saturating_add(self.spent_ms);
        let wait = error
            .retry_after_ms(now)
            .unwrap_or(DEFAULT_RATE_LIMIT_WAIT_MS);
        let fits = self.remaining_ms() >= wait.saturating_add(MIN_ATTEMPT_MS);
        if self.rate_waits < MAX_RATE_LIMIT_WAITS && fits {
            self.rate_waits += 1;
            return self.wait(wait);
        }
        if fits {
            return self.fail(error);
        }
        let message = format!(
            "{} (retry after {wait} ms is past the deadline)",
            error.message()
        );
        self.fail(error.with_message(message))
    }

    fn after_server_error(&mut self, error: Error) -> Step {
        let fits = self.remaining_ms() >= SERVER_ERROR_BACKOFF_MS + MIN_ATTEMPT_MS;
        if self.server_retries < 1 && fits {
            self.server_retries += 1;
            return self.wait(SERVER_ERROR_BACKOFF_MS);
        }
        self.fail(error)
    }

    /// Ends with the fallback, or the error when the model was forced.
    fn fail(&mut self, error: Error) -> Step {
        self.fail_with(error, Vec::new())
    }

    /// [`Self::fail`], keeping the checker's issues on the last answer.
    fn fail_with(&mut self, error: Error, issues: Vec<Issue>) -> Step {
        let error = error.without_secret(self.config.api_key.as_deref());
        self.provenance.error = Some(error.code().as_str());
        self.provenance.reason = self.refused.then_some("refusal");
        self.provenance.fixes.clear();
        let result = if self.forced {
            LadderResult::Failed(error)
        } else {
            self.provenance.generator = "fallback";
            LadderResult::Fallback {
                reason: error,
                plan: self.deterministic.clone(),
            }
        };
        self.conclude(result, issues)
    }

    fn conclude(&mut self, result: LadderResult, issues: Vec<Issue>) -> Step {
        self.waiting = Waiting::Finished;
        self.outcome = Some(LadderOutcome {
            result,
            provenance: self.provenance.clone(),
            issues,
        });
        self.finished_step()
    }

    fn finished_step(&self) -> Step {
        match &self.outcome {
            Some(outcome) => Step::Done(Box::new(outcome.clone())),
            None => Step::Wait(0),
        }
    }

    /// A shell bug (an event that does not answer the last step): end
    /// rather than loop.
    fn unexpected(&mut self, what: &str) -> Step {
        if self.waiting == Waiting::Finished {
            return self.finished_step();
        }
        self.fail(failure(
            ModelFailure::Unavailable,
            format!("ladder misuse: {what}"),
        ))
    }
}

fn add_tokens(total: &mut Option<u64>, more: Option<u64>) {
    if let Some(more) = more {
        *total = Some(total.unwrap_or(0).saturating_add(more));
    }
}

fn event_name(event: &Event) -> &'static str {
    match event {
        Event::Response { .. } => "Response",
        Event::TimedOut => "TimedOut",
        Event::NetworkError(_) => "NetworkError",
        Event::Waited => "Waited",
    }
}
