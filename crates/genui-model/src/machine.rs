//! One generate request as a sans-IO state machine: which generator runs,
//! how the model's cache identity is built, in what order the job's stages
//! are called, when to fall back and what to cache.
//!
//! ```text
//! Generation::new(job, generators, mode, now)
//! loop { match gen.poll() {                       the shell performs:
//!     CacheGet(key)   -> gen.input(Cached(kv.get(key)), now)
//!                        (first the edited spec's key, for `previousSpecHash`)
//!     CachePut(put)   -> kv.put after the response (wait_until)
//!     Send / RunAi    -> gen.input(Provider(answer), now)
//!     Wait(ms)        -> gen.input(Provider(Waited), now)
//!     Emit(update)    -> write it (a JSON answer, or an SSE event)
//! } }                                             None: finished
//! ```
//!
//! Which generator runs is the request's `generator`, picked from the
//! isolate's table ([`Generators::pick`]); a model provider and an
//! operator's `http` generator take the same path below ("a model").
//!
//! The paths:
//! - no model (or a display, or `generator: "deterministic"`): the
//!   deterministic key, a hit or a generated spec, one answer;
//! - a model: its own key first. A hit is the answer. On a miss, a stream
//!   (not forced to the model) first gets the deterministic answer at once
//!   (cached or generated), then the [`Ladder`] runs; a proven plan is
//!   cached under the model's key and sent as the refinement, a fallback
//!   is cached under the deterministic key (the model is asked again next
//!   time).
//! - the wall clock: the whole generation ends by `deadline_ms` after
//!   [`Generation::new`]; provider timeouts and waits are cut to what is
//!   left, and past it the ladder gives up as a timeout.
//! - a client that went away ([`Input::ClientGone`]): nothing more is
//!   emitted, but the model still finishes and its spec is still cached.
//!
//! - an edit in place (`previousSpecHash`): the edited spec is read first
//!   (unless the isolate remembers it), then the paths above run; a
//!   stream first gets [`Update::Base`], the edited form as the client
//!   holds it, so that the new answer goes out as a patch from it.
//!
//! The JSON endpoint ([`Mode::Answer`]) gets exactly one answer: the same
//! sequence of stages as before the machine existed, so its bytes did not
//! change.

use crate::config::ModelConfig;
use crate::ladder::{Event, Ladder, LadderOutcome, LadderResult, Step};
use crate::providers::{AiCall, HttpRequest};
use crate::registry::{Generators, Pick};
use genui_core::{
    CachePut, Error, ErrorCode, GenerateJob, GeneratorId, HttpResponse, Limits, Outcome,
};
use serde_json::{json, Map, Value};
use std::collections::VecDeque;

/// Whether the caller wants one answer or a stream of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// One answer (the JSON endpoint): only the final UI or error.
    Answer,
    /// A stream: a first UI at once, then the refined one.
    Stream,
}

/// What the shell must do.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Read this KV key, then report [`Input::Cached`].
    CacheGet(String),
    /// Store this spec after the response (never awaited by the answer).
    CachePut(CachePut),
    /// Send a provider request with this timeout (ms), then report
    /// [`Input::Provider`].
    Send(HttpRequest, u64),
    /// Call the Workers AI binding with this timeout (ms), likewise.
    RunAi(AiCall, u64),
    /// Wait this many ms, then report `Input::Provider(Event::Waited)`.
    Wait(u64),
    /// Hand this to the client.
    Emit(Update),
}

/// What the client gets, in order: `Ui`, maybe `Refined`, then `Done`; or
/// `Error` then `Done`.
#[derive(Debug, Clone, PartialEq)]
pub enum Update {
    /// The answer the client already holds, for an edit in place: the
    /// edited spec rendered with this request's data. The next `Ui` is
    /// sent as a patch from it (a stream's first event).
    Base(HttpResponse),
    /// A complete answer in the requested format (the JSON endpoint's body).
    Ui(HttpResponse),
    /// A complete answer that replaces the last `Ui` (a proven model plan,
    /// or the fallback's provenance).
    Refined(HttpResponse),
    /// A `dgui_error` answer.
    Error(HttpResponse),
    /// The end, with provenance, cache status and timings.
    Done(Summary),
}

/// The `done` facts: what generated the last answer, whether it fell back,
/// the cache status and the timings.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// The last answer's generator (`deterministic`, `model`, `fallback`),
    /// empty after an error.
    pub generator: String,
    /// `hit` or `miss` of the last answer; empty after an error.
    pub cache: String,
    /// Whether the model failed and the deterministic plan was served.
    pub fell_back: bool,
    /// The model's provenance, when a model ran.
    pub provenance: Option<Map<String, Value>>,
    /// Milliseconds from the start to the first answer.
    pub first_ui_ms: Option<u64>,
    /// Milliseconds from the start to the end.
    pub total_ms: u64,
}

impl Summary {
    /// The SSE `done` payload.
    pub fn to_json(&self) -> Value {
        let mut done = json!({
            "generator": self.generator,
            "cache": self.cache,
            "fellBack": self.fell_back,
            "timings": {"firstUiMs": self.first_ui_ms, "totalMs": self.total_ms},
        });
        if let Some(provenance) = &self.provenance {
            done["provenance"] = Value::Object(provenance.clone());
        }
        done
    }
}

/// What the shell reports back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// The value under the key of the last [`Effect::CacheGet`] (`None`:
    /// absent, or the read failed).
    Cached(Option<String>),
    /// The answer to a [`Effect::Send`], [`Effect::RunAi`] or [`Effect::Wait`].
    Provider(Event),
    /// The client went away; reported any time.
    ClientGone,
}

/// Where the machine is.
#[derive(Debug)]
enum State {
    /// Waiting for the edited spec (`previousSpecHash`), before the rest.
    Previous {
        model: Option<ModelConfig>,
        forced: bool,
    },
    /// Waiting for the deterministic key's value: the whole answer.
    Deterministic,
    /// Waiting for the model key's value.
    ModelKey { config: ModelConfig, forced: bool },
    /// Waiting for the deterministic key's value: the stream's first UI,
    /// before the model runs.
    FirstUi {
        config: ModelConfig,
        first: Box<GenerateJob>,
    },
    /// The model is working.
    Model(Box<Ladder>),
    /// Nothing more to do.
    Finished,
}

/// One generate request in progress.
#[derive(Debug)]
pub struct Generation {
    job: GenerateJob,
    mode: Mode,
    limits: Limits,
    state: State,
    effects: VecDeque<Effect>,
    put_keys: Vec<String>,
    client_gone: bool,
    started_ms: u64,
    deadline_at_ms: u64,
    first_ui_ms: Option<u64>,
    sent_ui: bool,
    /// Whether to keep the answered spec ([`Generation::keeping_answered_spec`]).
    keep_spec: bool,
    /// The value of the last cache read (a hit's spec), when kept.
    last_cached: Option<String>,
    /// The spec of the last answer, as stored ([`Generation::answered_spec`]).
    answered_spec: Option<String>,
}

impl Generation {
    /// Starts a request with the isolate's generator table: the request's
    /// `generator` picks among them ([`Generators::pick`]), its kind may
    /// rule a generator out (a display is deterministic).
    pub fn new(
        job: GenerateJob,
        generators: &Generators,
        mode: Mode,
        limits: &Limits,
        now_ms: u64,
    ) -> Self {
        let mut generation = Self {
            job,
            mode,
            limits: limits.clone(),
            state: State::Finished,
            effects: VecDeque::new(),
            put_keys: Vec::new(),
            client_gone: false,
            started_ms: now_ms,
            deadline_at_ms: now_ms,
            first_ui_ms: None,
            sent_ui: false,
            keep_spec: false,
            last_cached: None,
            answered_spec: None,
        };
        generation.begin(generators, now_ms);
        generation
    }

    /// The next thing to do; `None` when the request is finished.
    pub fn poll(&mut self) -> Option<Effect> {
        self.effects.pop_front()
    }

    /// The job (its request, key and spec hash).
    pub fn job(&self) -> &GenerateJob {
        &self.job
    }

    /// Keeps a copy of the answered spec for [`Generation::answered_spec`]
    /// (a hosted form keeps it with its link); other callers need none,
    /// and a spec may be large.
    pub fn keeping_answered_spec(mut self) -> Self {
        self.keep_spec = true;
        // [`Generation::new`] may have answered already (a spec this
        // isolate remembers): take it from what that answer queued.
        let answered = self.effects.iter().any(
            |effect| matches!(effect, Effect::Emit(Update::Ui(response)) if response.status == 200),
        );
        if answered {
            let stored = self.effects.iter().find_map(|effect| match effect {
                Effect::CachePut(put) => Some(put.value.clone()),
                _ => None,
            });
            self.answered_spec = stored.or_else(|| self.job.spec_json());
        }
        self
    }

    /// The spec JSON of the last successful answer, as stored, when kept
    /// ([`Generation::keeping_answered_spec`]). `None` before an answer or
    /// after an error.
    pub fn answered_spec(&self) -> Option<&str> {
        self.answered_spec.as_deref()
    }

    /// Feeds what happened.
    pub fn input(&mut self, input: Input, now_ms: u64) {
        if let (true, Input::Cached(value)) = (self.keep_spec, &input) {
            self.last_cached.clone_from(value);
        }
        match (std::mem::replace(&mut self.state, State::Finished), input) {
            (state, Input::ClientGone) => {
                self.client_gone = true;
                self.effects
                    .retain(|effect| !matches!(effect, Effect::Emit(_)));
                self.state = state;
            }
            (State::Previous { model, forced }, Input::Cached(value)) => {
                if let Err(error) = self.job.take_previous(value.as_deref()) {
                    return self.fail(&error, now_ms);
                }
                self.generate(model, forced, now_ms);
            }
            (State::Deterministic, Input::Cached(value)) => {
                let outcome = self.job.answer_in_place(value.as_deref());
                self.answer(outcome, None, now_ms);
            }
            (State::ModelKey { config, forced }, Input::Cached(value)) => {
                self.after_model_key(config, forced, value, now_ms)
            }
            (State::FirstUi { config, first }, Input::Cached(value)) => {
                let outcome = first.answer(value.as_deref());
                if outcome.response.status != 200 {
                    return self.answer(outcome, None, now_ms);
                }
                self.store(outcome.cache_put);
                self.emit_ui(outcome.response, now_ms);
                self.run_model(config, false, now_ms);
            }
            (State::Model(mut ladder), Input::Provider(event)) => {
                let step = if now_ms >= self.deadline_at_ms {
                    ladder.give_up(&self.past_deadline())
                } else {
                    ladder.next(event)
                };
                self.on_step(ladder, step, now_ms);
            }
            (state, input) => {
                // A shell bug: an answer to nothing asked. End rather than hang.
                let what = format!(
                    "generation machine misuse: {input:?} while {}",
                    state_name(&state)
                );
                self.fail(&Error::new(ErrorCode::Internal, what), now_ms);
            }
        }
    }

    fn begin(&mut self, generators: &Generators, now_ms: u64) {
        let pick = match generators.pick(self.job.request().generator.as_deref()) {
            Ok(pick) => pick,
            Err(error) => return self.fail(&error, now_ms),
        };
        let (model, forced) = match pick {
            Pick::Generator { config, forced } => (Some(config), forced),
            Pick::Deterministic => (None, false),
        };
        self.deadline_at_ms =
            now_ms.saturating_add(model.as_ref().map_or(0, |config| config.deadline_ms));
        match self.job.previous_spec_key() {
            Some(key) => {
                self.effects.push_back(Effect::CacheGet(key));
                self.state = State::Previous { model, forced };
            }
            None => self.generate(model, forced, now_ms),
        }
    }

    /// Generates with the picked generator, once the edited spec (if any)
    /// is known; a stream first gets the edited form to patch from.
    fn generate(&mut self, model: Option<ModelConfig>, forced: bool, now_ms: u64) {
        if self.mode == Mode::Stream {
            if let Some(base) = self.job.previous_answer() {
                self.emit(Update::Base(base));
            }
        }
        // Displays (tables, charts) are laid out deterministically; no model.
        match model.filter(|_| !self.job.is_display()) {
            Some(config) => self.ask_model_key(config, forced, now_ms),
            None => match self.job.remembered() {
                Some(outcome) => self.answer(outcome, None, now_ms),
                // A display is never in KV (genui_core::service): built again.
                None if !self.job.uses_kv() => {
                    let outcome = self.job.answer_in_place(None);
                    self.answer(outcome, None, now_ms)
                }
                None => self.get(State::Deterministic),
            },
        }
    }

    /// The model's own cache identity: provider, model and prompt version.
    fn ask_model_key(&mut self, config: ModelConfig, forced: bool, now_ms: u64) {
        let model_id = GeneratorId {
            generator: "model".into(),
            generator_version: config.cache_identity(),
        };
        if let Err(error) = self.job.rekey(model_id) {
            return self.fail(&error, now_ms);
        }
        match self.job.remembered() {
            Some(hit) => self.answer(hit, None, now_ms),
            None => self.get(State::ModelKey { config, forced }),
        }
    }

    fn after_model_key(
        &mut self,
        config: ModelConfig,
        forced: bool,
        value: Option<String>,
        now_ms: u64,
    ) {
        if let Some(hit) = self.job.hit(value.as_deref()) {
            return self.answer(hit, None, now_ms);
        }
        if self.mode == Mode::Answer || forced {
            return self.run_model(config, forced, now_ms);
        }
        let mut first = self.job.clone();
        if let Err(error) = first.rekey(GeneratorId::deterministic()) {
            return self.fail(&error, now_ms);
        }
        match first.remembered() {
            Some(outcome) => {
                self.emit_ui(outcome.response, now_ms);
                self.run_model(config, false, now_ms);
            }
            None => self.get(State::FirstUi {
                config,
                first: Box::new(first),
            }),
        }
    }

    fn run_model(&mut self, config: ModelConfig, forced: bool, now_ms: u64) {
        if let Err(error) = self.job.prove_schema() {
            return self.fail(&error, now_ms);
        }
        let ladder = match Ladder::new(&config, self.job.request(), &self.limits, now_ms) {
            Ok(ladder) => ladder.forced(forced),
            Err(error) => return self.fail(&error, now_ms),
        };
        let mut ladder = Box::new(ladder);
        let step = ladder.start();
        self.on_step(ladder, step, now_ms);
    }

    /// Performs a ladder step within the wall-clock deadline.
    fn on_step(&mut self, mut ladder: Box<Ladder>, step: Step, now_ms: u64) {
        let left = self.deadline_at_ms.saturating_sub(now_ms);
        let step = match step {
            Step::Send(..) | Step::RunAi(..) if left < crate::ladder::MIN_ATTEMPT_MS => {
                ladder.give_up(&self.past_deadline())
            }
            step => step,
        };
        let effect = match step {
            Step::Send(request, timeout_ms) => Effect::Send(request, timeout_ms.min(left)),
            Step::RunAi(call, timeout_ms) => Effect::RunAi(call, timeout_ms.min(left)),
            Step::Wait(ms) => Effect::Wait(ms.min(left)),
            Step::Done(outcome) => return self.after_model(*outcome, now_ms),
        };
        self.effects.push_back(effect);
        self.state = State::Model(ladder);
    }

    /// A proven model plan is cached under the model's key; a fallback
    /// under the deterministic key (it is exactly the deterministic spec).
    fn after_model(&mut self, outcome: LadderOutcome, now_ms: u64) {
        let provenance = match serde_json::to_value(&outcome.provenance) {
            Ok(Value::Object(map)) => map,
            _ => Map::new(),
        };
        let completed = match outcome.result {
            LadderResult::Model(plan) => self.complete(plan, provenance.clone()),
            LadderResult::Fallback { plan, .. } => {
                match self.job.rekey(GeneratorId::deterministic()) {
                    Ok(()) => self.complete(plan, provenance.clone()),
                    Err(error) => Outcome::failed(&error),
                }
            }
            LadderResult::Failed(error) => Outcome::failed(&error),
        };
        self.answer(completed, Some(provenance), now_ms);
    }

    fn complete(&self, plan: genui_core::Plan, provenance: Map<String, Value>) -> Outcome {
        // Proven before the ladder ran; the isolate remembers the proof.
        match self.job.prove_schema() {
            Ok(proven) => self.job.complete(plan, &proven, provenance),
            Err(error) => Outcome::failed(&error),
        }
    }

    /// Asks for the value under the key the state waits for.
    fn get(&mut self, state: State) {
        let key = match &state {
            State::FirstUi { first, .. } => first.cache_key().to_owned(),
            _ => self.job.cache_key().to_owned(),
        };
        self.effects.push_back(Effect::CacheGet(key));
        self.state = state;
    }

    /// The last answer: stores its spec, emits it, and ends.
    fn answer(&mut self, outcome: Outcome, provenance: Option<Map<String, Value>>, now_ms: u64) {
        if self.keep_spec {
            self.answered_spec = self.spec_of(&outcome);
        }
        self.store(outcome.cache_put);
        let response = outcome.response;
        if response.status != 200 {
            self.emit(Update::Error(response));
            return self.done(String::new(), String::new(), provenance, now_ms);
        }
        let header = |name: &str| {
            response
                .headers
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone())
                .unwrap_or_default()
        };
        let (generator, cache) = (header("x-genui-generator"), header("x-genui-cache"));
        if self.sent_ui {
            self.emit(Update::Refined(response));
        } else {
            self.emit_ui(response, now_ms);
        }
        self.done(generator, cache, provenance, now_ms);
    }

    /// The spec an answer was made from: the one it stores, else this
    /// isolate's memory of it (a hit answers from memory first), else the
    /// value read from KV, which a hit without memory answered from.
    fn spec_of(&mut self, outcome: &Outcome) -> Option<String> {
        match (&outcome.cache_put, outcome.response.status) {
            (_, status) if status != 200 => None,
            (Some(put), _) => Some(put.value.clone()),
            (None, _) => self.job.spec_json().or_else(|| self.last_cached.take()),
        }
    }

    fn emit_ui(&mut self, response: HttpResponse, now_ms: u64) {
        self.sent_ui = true;
        self.first_ui_ms = Some(now_ms.saturating_sub(self.started_ms));
        self.emit(Update::Ui(response));
    }

    fn done(
        &mut self,
        generator: String,
        cache: String,
        provenance: Option<Map<String, Value>>,
        now_ms: u64,
    ) {
        let fell_back = generator == "fallback";
        let total_ms = now_ms.saturating_sub(self.started_ms);
        self.emit(Update::Done(Summary {
            generator,
            cache,
            fell_back,
            provenance,
            first_ui_ms: self.first_ui_ms,
            total_ms,
        }));
        self.state = State::Finished;
    }

    fn fail(&mut self, error: &Error, now_ms: u64) {
        self.answer(Outcome::failed(error), None, now_ms);
    }

    fn emit(&mut self, update: Update) {
        if !self.client_gone {
            self.effects.push_back(Effect::Emit(update));
        }
    }

    /// Queues a spec write, once per key (a stream's first UI and a
    /// fallback store the same deterministic spec).
    fn store(&mut self, put: Option<CachePut>) {
        if let Some(put) = put.filter(|put| !self.put_keys.contains(&put.key)) {
            self.put_keys.push(put.key.clone());
            self.effects.push_back(Effect::CachePut(put));
        }
    }

    fn past_deadline(&self) -> String {
        format!(
            "the {} ms deadline passed",
            self.deadline_at_ms.saturating_sub(self.started_ms)
        )
    }
}

fn state_name(state: &State) -> &'static str {
    match state {
        State::Previous { .. } => "reading the edited spec's key",
        State::Deterministic => "reading the deterministic key",
        State::ModelKey { .. } => "reading the model key",
        State::FirstUi { .. } => "reading the first UI's key",
        State::Model(_) => "waiting for the model",
        State::Finished => "finished",
    }
}
