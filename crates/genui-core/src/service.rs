//! The request-level pipeline, sans-IO: the shell brings bytes and cache
//! answers, this module says what to respond and what to store.
//!
//! ```text
//! shell: Route::of(method, path)            (crate::edge::routes)
//!   Generate -> prepare_generate(body)            limits, parse, canonical hash
//!            -> shell: KV get(job.cache_key())
//!            -> job.answer(cached)                 hit: render; miss: check schema,
//!                                                  generate, check plan, render
//!            -> shell: respond; KV put(outcome.cache_put) after the response
//! ```
//!
//! Effects are data ([`CachePut`]), so the whole service is tested natively
//! with an in-memory map standing in for KV.
//!
//! A read-only display ([`crate::plan::display`]) never touches KV: no
//! read, no [`CachePut`]. Its spec is its data's shape, whose dataset and
//! column names are the request's own words, and the shared cache keeps
//! none of those; the isolate's memory of specs still serves a repeat.

use crate::cache::spec::{self, GeneratorId, UiSpec, SPEC_VERSION};
use crate::error::{Detail, Error, ErrorCode, PlanIssue, Result};
use crate::plan::check::check_plan;
use crate::plan::generate::{self, GENERATOR_ID, GENERATOR_VERSION};
use crate::plan::Plan;
use crate::render::initial_data::{initial_data, schema_defaults};
use crate::render::{self, CacheStatus, RenderInput};
use crate::request::{self, GenerateRequest};
use crate::schema::{self, Draft};
use crate::terms::contracts::Contract;
use crate::terms::format::{A2uiAccept, A2uiVersion, Format, A2UI_MEDIA_TYPE};
use crate::terms::limits::Limits;
pub(crate) use crate::terms::response::HttpResponse;
use serde_json::{json, Map, Value};
use std::rc::Rc;

mod edit;
pub(crate) use edit::Previous;

/// The `/healthz` body.
pub(crate) fn healthz(wasm_memory_bytes: usize) -> HttpResponse {
    HttpResponse::json(
        200,
        &json!({
            "status": "ok",
            "service": "genui-worker",
            "version": env!("CARGO_PKG_VERSION"),
            "generator": GENERATOR_ID,
            "generatorVersion": GENERATOR_VERSION,
            "wasmMemoryBytes": wasm_memory_bytes,
        }),
    )
}

/// A KV write the shell performs after responding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CachePut {
    /// The KV key (`spec:v3:<hash>`).
    pub key: String,
    /// The data-free spec, JSON.
    pub value: String,
}

/// The result of a generate request.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// What to send.
    pub response: HttpResponse,
    /// What to store, after the response.
    pub cache_put: Option<CachePut>,
}

impl Outcome {
    /// An outcome that is only an error response.
    pub fn failed(error: &Error) -> Self {
        Self {
            response: HttpResponse::error(error),
            cache_put: None,
        }
    }
}

/// A parsed generate request with its cache key, waiting for the cache.
#[derive(Debug, Clone)]
pub struct GenerateJob {
    request: GenerateRequest,
    pub(crate) generator: GeneratorId,
    output_digest: spec::OutputDigest,
    spec_hash: String,
    key: String,
    pub(crate) limits: Limits,
    /// Set when the request asks for a read-only display (see [`crate::plan::display`]).
    display: Option<crate::plan::display::DisplaySpec>,
    /// For an MCP tool call: also render the data-free HTML form markup
    /// (in the [`FORM_MARKUP_HEADER`] of the answer).
    pub(crate) form_markup: bool,
    /// The operator catalog the request names (`catalog`), when it does.
    catalog: Option<Rc<crate::catalog::Catalog>>,
    /// Words for the person applied at render time, like `data`: an AG-UI
    /// interrupt's `message`. Never in the key nor the stored spec.
    prompt: Option<String>,
    /// An AG-UI interrupt's `meta.interrupt` and its token (`/v1/interrupt`).
    interrupt: Option<crate::interrupt::InterruptSeal>,
    /// The spec this request edits in place (`previousSpecHash`).
    previous: Previous,
}

/// A schema proven usable: the draft it was validated under and its
/// compiled validator.
#[derive(Debug, Clone)]
pub struct ProvenSchema {
    pub(crate) draft: Draft,
    pub(crate) validator: Rc<jsonschema::Validator>,
}

/// Proves `output` (at `at` in the body) and compiles it, unless the
/// isolate remembers it by its canonical `digest`: the proof depends on
/// nothing but the schema and the limits, and compiling costs milliseconds
/// in wasm (jsonschema builds a meta-schema validator inside every compile
/// there). Only proofs under the default limits are remembered. Generate
/// requests and inline submissions share the memory, so a form's
/// submissions do not each prove its schema again.
pub(crate) fn prove_output(
    output: &Value,
    digest: Option<spec::OutputDigest>,
    at: &str,
    limits: &Limits,
) -> Result<ProvenSchema> {
    let digest = digest.filter(|_| limits.bounds_are_default());
    if let Some((draft, validator)) = digest.as_ref().and_then(crate::cache::memo::validator) {
        return Ok(ProvenSchema { draft, validator });
    }
    let (proven, kept) = crate::cache::heap::kept_by(|| schema::check_output(output, at, limits));
    let (draft, validator) = proven?;
    let validator = Rc::new(validator);
    if let Some(digest) = digest {
        crate::cache::memo::remember_validator(digest, draft, validator.clone(), output, kept);
    }
    Ok(ProvenSchema { draft, validator })
}

/// The deterministic generator's identity.
pub(crate) fn deterministic_generator() -> GeneratorId {
    GeneratorId {
        generator: GENERATOR_ID.to_owned(),
        generator_version: GENERATOR_VERSION.to_owned(),
    }
}

/// Checks limits, parses and hashes a body: everything before the cache.
/// `query_format` is the `format` query parameter, which wins over the body's.
pub(crate) fn prepare_generate(
    body: &[u8],
    query_format: Option<&str>,
    limits: &Limits,
) -> Result<GenerateJob> {
    limits.check_body_size(body.len())?;
    limits.check_body_depth(body)?;
    let mut request = request::parse_generate(body)?;
    request.check_instructions(limits)?;
    if let Some(name) = query_format {
        request.format = Format::parse(name, "?format")?;
    }
    if let Some(version) = request.a2ui_version {
        request.format = request.format.with_a2ui_version(version);
    }
    // A display: no `output`, data to show -> the inferred schema stands in for `output`.
    let data_at = format!("{}/data", request.arguments_pointer);
    let display = crate::plan::display::detect(
        &request.output,
        &request.data,
        &request.description,
        &data_at,
        limits,
    )?;
    let display = display.map(|(display, schema)| {
        request.output = schema;
        display
    });
    limits.check_schema_size(&request.output, &request.output_pointer())?;
    // Embedded resources' `#` references read from the root (schema/embedded.rs).
    request.output = schema::rebase_embedded(std::mem::take(&mut request.output));
    if request.description.len() > limits.max_string_bytes {
        let at = format!("{}/description", request.arguments_pointer);
        return Err(Error::new(
            ErrorCode::InvalidRequest,
            format!(
                "`description` is longer than {} bytes (at {at})",
                limits.max_string_bytes
            ),
        )
        .at(at));
    }
    let catalog = request
        .catalog
        .as_ref()
        .map(|(name, at)| limits.catalog_named(name, at))
        .transpose()?;
    let output_digest = spec::OutputDigest::of(&request.output)?;
    let mut job = GenerateJob {
        catalog,
        output_digest,
        request,
        generator: deterministic_generator(),
        spec_hash: String::new(),
        key: String::new(),
        limits: limits.clone(),
        display,
        form_markup: false,
        prompt: None,
        interrupt: None,
        previous: Previous::None,
    };
    job.want_previous();
    job.rekey(deterministic_generator())?;
    job.check_a2ui_catalog()?;
    Ok(job)
}

/// A `POST /v1/interrupt` body as a generate request
/// ([`crate::interrupt`]): limits first, then the interrupt read and
/// turned into a `generateUserInterface` call, answered at `now` (Unix
/// seconds) with a token signed by `secret` (`WEBHOOK_SECRET`) when set.
pub(crate) fn prepare_interrupt(
    body: &[u8],
    query_format: Option<&str>,
    limits: &Limits,
    now: u64,
    secret: Option<&str>,
) -> Result<GenerateJob> {
    use crate::interrupt::{read_call, RESPONSE_SCHEMA_AT};
    limits.check_body_size(body.len())?;
    limits.check_body_depth(body)?;
    let value: Value = serde_json::from_slice(body).map_err(|e| {
        Error::new(
            ErrorCode::InvalidJson,
            format!("request body is not valid JSON: {e}"),
        )
        .with(Detail::Line(e.line()))
        .with(Detail::Column(e.column()))
    })?;
    let call = read_call(value, now, secret)?;
    let bytes = serde_json::to_vec(&call.generate_body)
        .map_err(|e| Error::new(ErrorCode::Internal, e.to_string()))?;
    // `output` is the interrupt's `responseSchema`: errors point there.
    let at_schema = |error: Error| match error.pointer().and_then(|p| p.strip_prefix("/output")) {
        Some(rest) => {
            let at = format!("{RESPONSE_SCHEMA_AT}{rest}");
            error.at(at)
        }
        None => error,
    };
    let mut job = prepare_generate(&bytes, query_format, limits).map_err(at_schema)?;
    job.request.output_at = Some(RESPONSE_SCHEMA_AT.to_owned());
    job.prompt = call.prompt;
    job.interrupt = Some(call.seal);
    Ok(job)
}

/// `format` with the A2UI revision a request asks for outside its body:
/// the `a2uiVersion` query parameter, else the `version` parameter of an
/// `Accept: application/a2ui+json` entry; an unknown revision is a 400.
pub(crate) fn negotiated_format(
    format: Format,
    query: Option<&str>,
    accept: Option<&str>,
) -> Result<Format> {
    let asked = match (query, A2uiAccept::of(accept).version) {
        (Some(name), _) => Some(A2uiVersion::parse(name, "?a2uiVersion")?),
        (None, Some(name)) => Some(A2uiVersion::parse(name, "Accept")?),
        (None, None) => None,
    };
    Ok(match asked {
        Some(version) => format.with_a2ui_version(version),
        None => format,
    })
}

/// Answers a stored `spec` exactly as a cache hit of a generate call with
/// `request`'s options and data answers ([`GenerateJob::hit`]): the job is
/// the spec's own (its hash, generator, description and schema digest),
/// with no catalog, interrupt or display, and nothing is stored. `request`
/// carries no `output`: a hit renders the spec's schema, never the request's.
pub(crate) fn render_stored(spec: &UiSpec, request: GenerateRequest, limits: &Limits) -> Outcome {
    let output_digest = match spec::OutputDigest::of(&spec.schema) {
        Ok(digest) => digest,
        Err(error) => return Outcome::failed(&error),
    };
    let job = GenerateJob {
        request: GenerateRequest {
            description: spec.description.clone(),
            ..request
        },
        generator: spec.generator.clone(),
        output_digest,
        spec_hash: spec.spec_hash.clone(),
        key: spec::cache_key(&spec.spec_hash),
        limits: limits.clone(),
        display: None,
        form_markup: false,
        catalog: None,
        prompt: None,
        interrupt: None,
        previous: Previous::None,
    };
    job.hit_outcome(spec)
}

impl GenerateJob {
    /// Reads the A2UI revision a request asks for outside its body: the
    /// `a2uiVersion` query parameter, else the `version` parameter of an
    /// `Accept: application/a2ui+json` entry; either wins over the body's
    /// `a2uiVersion`. Only a `format=a2ui` answer reads it; an unknown
    /// revision is a 400 wherever it was given.
    pub fn negotiate_a2ui(&mut self, query: Option<&str>, accept: Option<&str>) -> Result<()> {
        self.request.format = negotiated_format(self.request.format, query, accept)?;
        self.check_a2ui_catalog()
    }

    /// Refuses an A2UI v1.0 answer with an operator catalog that has A2UI
    /// components: its `catalogId` names a catalog written for v0.9, and a
    /// v1.0 surface knows only v1.0's basic catalog.
    fn check_a2ui_catalog(&self) -> Result<()> {
        let Format::A2ui(version @ A2uiVersion::V1_0) = self.request.format else {
            return Ok(());
        };
        let (Some(catalog), Some((name, at))) = (&self.catalog, &self.request.catalog) else {
            return Ok(());
        };
        let Some(id) = catalog.a2ui_catalog_id() else {
            return Ok(());
        };
        Err(Error::new(
            ErrorCode::UnsupportedCatalog,
            format!(
                "A2UI {} knows no catalog `{id}` (catalog `{name}`'s A2UI catalogId, written for v0.9): its answers use the basic catalog `{}` only; ask without `catalog` or with a2uiVersion 0.9 (at {at})",
                version.revision().wire,
                version.revision().basic_catalog
            ),
        )
        .at(at.clone()))
    }

    /// The KV key to look up.
    pub fn cache_key(&self) -> &str {
        &self.key
    }

    /// The spec hash.
    pub fn spec_hash(&self) -> &str {
        &self.spec_hash
    }

    /// The parsed request.
    pub fn request(&self) -> &GenerateRequest {
        &self.request
    }

    /// Whether the answer is a read-only display (always deterministic: no
    /// model is asked to lay out a table).
    pub fn is_display(&self) -> bool {
        self.display.is_some()
    }

    /// Keys the job for another generator (a model's identity includes its
    /// provider, model and prompt version), so each generator's specs are
    /// cached apart.
    pub fn rekey(&mut self, generator: GeneratorId) -> Result<()> {
        let request = &self.request;
        // Only a model writes text in the request's language; the
        // deterministic plan is the same in every locale, so it is keyed without.
        let writes_text = generator.generator != GENERATOR_ID;
        // A display is keyed by its data's shape alone (it has no confirm,
        // rows or model text).
        let display = self
            .display
            .as_ref()
            .map(serde_json::to_value)
            .transpose()
            .map_err(|e| Error::new(ErrorCode::Internal, e.to_string()))?;
        let options = match &display {
            Some(display) => spec::KeyOptions {
                display: Some(display),
                ..Default::default()
            },
            None => spec::KeyOptions {
                confirm: request.wants_confirm(),
                mobile: request.device == crate::terms::device::Device::Mobile,
                locale: request.locale.as_deref().filter(|_| writes_text),
                display: None,
                catalog: self.catalog.as_deref().map(crate::catalog::Catalog::hash),
                instructions: request.instructions.as_deref().filter(|_| writes_text),
                previous: self.previous_keyed(),
            },
        };
        self.spec_hash = spec::spec_hash_of(
            self.output_digest,
            &request.description,
            options,
            &generator,
        )?;
        self.key = spec::cache_key(&self.spec_hash);
        self.generator = generator;
        Ok(())
    }

    /// Completes the request with the deterministic generator, given what
    /// the cache held under the key.
    pub fn answer(mut self, cached: Option<&str>) -> Outcome {
        if let Some(hit) = self.hit(cached) {
            return hit;
        }
        let generated = self
            .prove_schema()
            .and_then(|proven| Ok((self.plan_miss()?, proven)));
        match generated {
            // Nothing reads the request's `output` after the spec is built,
            // so the spec takes it rather than a copy: one schema tree less
            // at a large form's peak (linear memory never shrinks).
            Ok((plan, proven)) => {
                let output = std::mem::take(&mut self.request.output);
                self.complete_with(plan, proven, Map::new(), output)
            }
            Err(error) => Outcome::failed(&error),
        }
    }

    /// The plan of a miss: a display's, or the deterministic generator's
    /// with the operator catalog's components bound where asked.
    fn plan_miss(&self) -> Result<Plan> {
        let request = &self.request;
        if let Some(display) = &self.display {
            let plan = crate::plan::display::plan(display, &request.output, &request.description);
            return Ok(plan);
        }
        let mut plan = generate::generate_for(
            &request.output,
            &request.description,
            request.wants_confirm(),
            request.device,
            &self.limits,
        )
        .map_err(|e| with_output_pointer(e, request))?;
        if let Some(catalog) = &self.catalog {
            catalog.bind_requested(&mut plan, &request.output, &self.limits);
        }
        Ok(plan)
    }

    /// A miss's work, for a fresh isolate's start: the request read, its
    /// schema proved and compiled (so the meta-schema validators it needs
    /// are built, and the validator is remembered as a miss remembers it),
    /// its plan and checks as [`Self::answer`] makes them (once: the spec is
    /// format-neutral), and the answer rendered in every format, under the
    /// default limits. Each format comes back by name with its answer. A
    /// small draft-07 schema is proved too (`draft_7_form`).
    /// Nothing here may draw on a random source: the Workers runtime
    /// refuses one outside a request (jsonschema's hash maps are seeded at
    /// build time, vendor/PATCHED.md). `body` must carry no `data`: the
    /// warm-up answers the blank form a first request would.
    pub fn warm_up(body: &[u8]) -> Result<Vec<(&'static str, Result<HttpResponse>)>> {
        let mut job = prepare_generate(body, None, &Limits::default())?;
        if !job.request.data.is_null() {
            let why = "a warm-up form must carry no data to pre-fill";
            return Err(Error::new(ErrorCode::Internal, why));
        }
        let proven = job.prove_schema()?;
        prove_output(&draft_7_form(), None, "", &job.limits)?;
        let plan = job.plan_miss()?;
        let output = job.request.output.clone();
        let (spec, repairs) = job.build_spec(plan, proven.draft, output)?;
        let mut answer_in = |name| {
            job.request.format = Format::parse(name, "?format")?;
            let validator = Some(proven.validator.clone());
            job.respond(&spec, CacheStatus::Miss, validator, Map::new(), &repairs)
        };
        Ok(Format::names()
            .into_iter()
            .map(|name| (name, answer_in(name)))
            .collect())
    }

    /// Answers as [`Self::answer`] does, without copying the request's
    /// schema: the answer takes it, and this job is left without it (it
    /// still names its spec, [`Self::spec_json`] and the cache key, and
    /// keeps the request's data for a hosted form's pre-fill). A copy of a
    /// large schema is a large part of a miss in wasm.
    pub fn answer_in_place(&mut self, cached: Option<&str>) -> Outcome {
        let output = std::mem::take(&mut self.request.output);
        let mut job = self.clone();
        job.request.output = output;
        job.answer(cached)
    }

    /// The answer from this isolate's memory of specs, when it holds this
    /// key: the shell then skips the KV read.
    pub fn remembered(&self) -> Option<Outcome> {
        crate::cache::memo::spec(&self.spec_hash, &self.limits).map(|spec| self.hit_outcome(&spec))
    }

    /// The answer from a cached value, when it is a valid spec for this key
    /// (or the isolate remembers one).
    pub fn hit(&self, cached: Option<&str>) -> Option<Outcome> {
        if let Some(outcome) = self.remembered() {
            return Some(outcome);
        }
        let text = cached?;
        let spec = Rc::new(UiSpec::from_cached_for(
            text,
            &self.spec_hash,
            &self.request.output,
        )?);
        crate::cache::memo::remember_spec(spec.clone(), text.len(), &self.limits);
        Some(self.hit_outcome(&spec))
    }

    fn hit_outcome(&self, spec: &UiSpec) -> Outcome {
        match self.respond(spec, CacheStatus::Hit, None, Map::new(), &[]) {
            Ok(response) => Outcome {
                response,
                cache_put: None,
            },
            Err(error) => Outcome::failed(&error),
        }
    }

    /// Proves `output` is a usable schema (meta-schema, references, compile).
    /// A schema this isolate already proved (under the worker's limits) is
    /// not proved again: the proof depends on nothing but the schema, which
    /// its canonical digest names, and compiling costs milliseconds in wasm
    /// (jsonschema builds a meta-schema validator inside every compile there).
    pub fn prove_schema(&self) -> Result<ProvenSchema> {
        prove_output(
            &self.request.output,
            Some(self.output_digest),
            &self.request.output_pointer(),
            &self.limits,
        )
    }

    /// Proves a plan, builds and renders its spec, and asks for it to be
    /// cached under this job's key. `meta` adds provenance to the answer
    /// (and may override `generator`, as a model fallback does).
    pub fn complete(&self, plan: Plan, proven: &ProvenSchema, meta: Map<String, Value>) -> Outcome {
        self.complete_with(plan, proven.clone(), meta, self.request.output.clone())
    }

    /// [`Self::complete`] with the spec's copy of `output` given, and the
    /// proof handed over, so its validator (when no memo keeps it) is freed
    /// before rendering.
    fn complete_with(
        &self,
        plan: Plan,
        proven: ProvenSchema,
        meta: Map<String, Value>,
        output: Value,
    ) -> Outcome {
        let (spec, repairs) = match self.build_spec(plan, proven.draft, output) {
            Ok(built) => built,
            Err(error) => return Outcome::failed(&error),
        };
        match self.respond(
            &spec,
            CacheStatus::Miss,
            Some(proven.validator),
            meta,
            &repairs,
        ) {
            Ok(response) => {
                let value = spec.to_json();
                crate::cache::memo::remember_spec(Rc::new(spec), value.len(), &self.limits);
                Outcome {
                    response,
                    cache_put: self.kv_put(value),
                }
            }
            Err(error) => Outcome::failed(&error),
        }
    }

    /// The KV write for a spec built for this job. A display writes none:
    /// its spec is the shape of the request's data, and that shape is
    /// words (dataset and column names such as `customer_<id>_ssn`) the
    /// shared cache must not keep; building a display again costs little
    /// (the inference runs on every request anyway), and this isolate
    /// still remembers it.
    fn kv_put(&self, value: String) -> Option<CachePut> {
        self.display.is_none().then(|| CachePut {
            key: self.key.clone(),
            value,
        })
    }

    /// Whether this job reads and writes KV: a display does neither
    /// (see [`Self::kv_put`]).
    pub fn uses_kv(&self) -> bool {
        self.display.is_none()
    }

    /// The proven spec, and a warning per catalog binding that was refused
    /// (and repaired to its built-in widget) on the way.
    fn build_spec(
        &self,
        mut plan: Plan,
        draft: Draft,
        output: Value,
    ) -> Result<(UiSpec, Vec<crate::terms::warning::Warning>)> {
        let output_at = self.request.output_pointer();
        plan = self.kept_layout(plan, &output);
        let mut repairs = crate::catalog::bind::prove(
            &mut plan,
            &output,
            self.catalog.as_deref(),
            &self.limits,
            &output_at,
        );
        repairs.extend(self.title_for_the_person(&mut plan, &output, &output_at));
        let mut issues = check_plan(&plan, &output, &self.limits);
        if issues.iter().any(|i| i.code == "widget_mismatch") {
            // A widget that does not fit is shown as the plain one (plan/repair.rs).
            repairs.extend(crate::plan::repair::plain_widgets_where_misfit(
                &mut plan,
                &output,
                &self.limits,
                &output_at,
            ));
            issues = check_plan(&plan, &output, &self.limits);
        }
        if !issues.is_empty() {
            return Err(
                Error::new(ErrorCode::Internal, "the plan failed its checks").with(Detail::Issues(
                    issues
                        .into_iter()
                        .map(|i| PlanIssue {
                            code: i.code,
                            pointer: i.pointer,
                            message: i.message,
                        })
                        .collect(),
                )),
            );
        }
        let spec = UiSpec {
            spec_version: SPEC_VERSION,
            spec_hash: self.spec_hash.clone(),
            generator: self.generator.clone(),
            draft: schema::draft_name(draft).to_owned(),
            description: self.request.description.clone(),
            defaults: self.defaults_of(&output),
            schema: output,
            plan,
        };
        if self.limits.check_contracts {
            let as_json = serde_json::to_value(&spec).unwrap_or_default();
            Contract::UiSpec.check(&as_json)?;
        }
        Ok((spec, repairs))
    }

    /// The values `output` supplies itself ([`schema_defaults`]): they
    /// depend on `output` alone, so under the worker's limits an isolate
    /// makes them once per `output` (its canonical digest) and a new spec
    /// over the same `output` copies them.
    fn defaults_of(&self, output: &Value) -> Value {
        let make = || schema_defaults(output, &self.limits);
        if !self.limits.bounds_are_default() {
            return make();
        }
        let bytes = crate::cache::memo::value_bytes;
        let remembered =
            crate::cache::memo::output_projection(self.output_digest, "", "defaults", make, bytes);
        remembered.as_ref().clone()
    }

    /// A plan's title as the person sees it, whoever wrote the plan: one
    /// derived from the request where the plan has none, and one that
    /// echoes the request replaced (a `title_replaced` warning).
    fn title_for_the_person(
        &self,
        plan: &mut Plan,
        output: &Value,
        output_at: &str,
    ) -> Option<crate::terms::warning::Warning> {
        let schema_title = output.get("title").and_then(Value::as_str);
        let description = &self.request.description;
        if plan.title.is_none() && self.display.is_none() {
            plan.title = crate::plan::title::person_title(schema_title, description)
                .map(|t| {
                    crate::plan::sanitize::plain_text(&t, crate::plan::sanitize::MAX_LABEL_CHARS)
                })
                .filter(|t| !t.is_empty());
            return None;
        }
        crate::plan::title::replace_echoing_title(
            &mut plan.title,
            schema_title,
            description,
            output_at,
        )
    }

    /// Renders the requested format for a spec and this request's data.
    fn respond(
        &self,
        spec: &UiSpec,
        cache: CacheStatus,
        validator: Option<Rc<jsonschema::Validator>>,
        extra: Map<String, Value>,
        repairs: &[crate::terms::warning::Warning],
    ) -> Result<HttpResponse> {
        let has_values = !self.request.data.is_null() || !spec.defaults.is_null();
        let validator = match (validator, has_values) {
            (Some(v), _) => Some(v),
            (None, true) => validator_for(spec, self.output_digest),
            (None, false) => None,
        };
        let data = form_data(spec, &self.request.data);
        let doc = schema::SchemaDoc::new(&spec.schema, &self.limits);
        let object_form = doc
            .resolve(&spec.schema)
            .is_ok_and(|root| root.kind().kind == schema::Kind::Object);
        let (initial_data, mut warnings) =
            initial_data(&spec.defaults, &data, validator.as_deref(), object_form);
        // Not needed past the pre-fill: a large form's validator that no
        // memo keeps is freed before the renderers copy the schema.
        drop(validator);
        let from_spec = self.spec_warnings(spec, &doc);
        // A refused binding the schema asked for is also a spec warning (so
        // a cache hit still says so): listed once.
        let new = |r: &&crate::terms::warning::Warning| {
            !from_spec
                .iter()
                .any(|w| w.code == r.code && w.pointer == r.pointer)
        };
        warnings.extend(from_spec.iter().cloned());
        warnings.extend(repairs.iter().filter(new).cloned());
        let mut meta = Map::new();
        meta.insert("specHash".into(), spec.spec_hash.clone().into());
        meta.insert("cache".into(), json!(cache));
        meta.insert("generator".into(), spec.generator.generator.clone().into());
        meta.insert(
            "generatorVersion".into(),
            spec.generator.generator_version.clone().into(),
        );
        let title = match &spec.plan.title {
            Some(title) => title.clone(),
            None => crate::render::words::Lang::pick(self.request.locale.as_deref())
                .text(crate::render::fallback_title(&spec.plan))
                .to_owned(),
        };
        meta.insert("title".into(), title.into());
        if let Some(id) = &self.request.tool_call_id {
            meta.insert("toolCallId".into(), id.clone().into());
        }
        if let Some(interrupt) = &self.interrupt {
            meta.insert("interrupt".into(), interrupt.meta(&spec.spec_hash));
            warnings.extend(interrupt.warnings());
        }
        warnings.extend(self.previous_warning());
        if !warnings.is_empty() {
            meta.insert(
                "warnings".into(),
                serde_json::to_value(&warnings).unwrap_or_default(),
            );
        }
        if self.request.instructions.is_some() {
            // The deterministic plan never reads them (nor keys on them): say so.
            let used = if spec.generator.generator == GENERATOR_ID {
                "ignored"
            } else {
                "sent"
            };
            meta.insert("instructions".into(), used.into());
        }
        meta.extend(extra);
        let generator = meta
            .get("generator")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let format = self.request.format;
        let rendered = RenderInput {
            spec,
            initial_data,
            meta,
            raw_data: &self.request.data,
            locale: self.request.locale.as_deref(),
            catalog: self.catalog.as_deref(),
            prompt: self.prompt.as_deref(),
        };
        let check = |value: &Value| match self.limits.check_contracts {
            true => format.contract().check(value),
            false => Ok(()),
        };
        let mut response = match format {
            // Served as the page itself; the JSON shape is for the contract.
            Format::Html => {
                let page = render::render(format, &rendered);
                check(&page)?;
                HttpResponse::html(
                    200,
                    page.get("html")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_owned(),
                )
            }
            _ => {
                let body = render::render_text(format, &rendered);
                if self.limits.check_contracts {
                    let value: Value = serde_json::from_str(&body).map_err(|e| {
                        Error::new(ErrorCode::Internal, format!("the answer is not JSON: {e}"))
                    })?;
                    check(&value)?;
                }
                HttpResponse {
                    status: 200,
                    headers: Vec::new(),
                    body,
                }
            }
        };
        // Provenance in headers too: for logs, and for clients that only look there.
        response
            .headers
            .push(("x-genui-generator".into(), generator));
        response.headers.push((
            "x-genui-cache".into(),
            json!(cache).as_str().unwrap_or_default().to_owned(),
        ));
        // What `meta` carries, for formats with no place for it (A2UI).
        response
            .headers
            .push(("x-genui-spec-hash".into(), spec.spec_hash.clone()));
        response.headers.push((
            "x-genui-warnings".into(),
            warnings_header(rendered.meta.get("warnings")),
        ));
        // The token, for formats with no `meta` (A2UI, HTML).
        if let Some(token) = (self.interrupt.as_ref()).and_then(|i| i.token(&spec.spec_hash)) {
            response
                .headers
                .push((crate::interrupt::TOKEN_HEADER.to_owned(), token));
        }
        if self.form_markup {
            // Data-free: the MCP view fills it from the tool input.
            let bare = RenderInput {
                spec,
                initial_data: Value::Null,
                meta: Map::new(),
                raw_data: &Value::Null,
                locale: None,
                catalog: None,
                prompt: None,
            };
            response
                .headers
                .push((FORM_MARKUP_HEADER.to_owned(), bare.html_form("#")));
        }
        Ok(response)
    }
}

/// The header that carries, for the MCP server's `generate_user_interface`
/// (`crate::edge::mcp`), the data-free `format=html` form markup of the spec;
/// `McpCall::tool_result` takes it out, so the header never leaves the worker.
pub(crate) const FORM_MARKUP_HEADER: &str = "x-genui-mcp-form-markup";

/// A small draft-07 schema (the draft many tool schemas declare; one
/// without `$schema` is proved under 2020-12 first): proved at the start by
/// [`GenerateJob::warm_up`], so that draft's meta-schema validator is built
/// there and not in a first request. Draft-04's is built by every compile
/// (schema/validate.rs compiles a draft-04 wrapper).
fn draft_7_form() -> Value {
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {"name": {"type": "string", "minLength": 1}}
    })
}

/// Longest `x-genui-warnings` value: proxies drop headers much past 8 KB.
const MAX_WARNINGS_HEADER: usize = 4096;

/// `meta.warnings` as a header value: compact JSON, non-ASCII escaped as
/// `\\uXXXX` (header values are ASCII), whole warnings only, up to
/// [`MAX_WARNINGS_HEADER`] bytes; `[]` when there are none.
fn warnings_header(warnings: Option<&Value>) -> String {
    let mut out = String::from("[");
    for warning in warnings.and_then(Value::as_array).into_iter().flatten() {
        let mut text = String::new();
        for unit in warning.to_string().encode_utf16() {
            match unit {
                0x20..=0x7e => text.push(unit as u8 as char),
                other => text.push_str(&format!("\\u{other:04x}")),
            }
        }
        if out.len() + text.len() + 2 > MAX_WARNINGS_HEADER {
            break;
        }
        if out.len() > 1 {
            out.push(',');
        }
        out.push_str(&text);
    }
    out.push(']');
    out
}

/// The request data that pre-fills fields. An approval's `action` and
/// `importance` are shown, not filled, unless the schema has such fields.
fn form_data(spec: &UiSpec, data: &Value) -> Value {
    let is_approval = spec
        .plan
        .root
        .controls()
        .iter()
        .any(|c| c.widget == crate::plan::Widget::Approval);
    let Value::Object(map) = data else {
        return data.clone();
    };
    if !is_approval {
        return data.clone();
    }
    let declared = |key: &str| {
        spec.schema
            .get("properties")
            .and_then(|p| p.get(key))
            .is_some()
    };
    let kept: Map<String, Value> = map
        .iter()
        .filter(|(k, _)| !matches!(k.as_str(), "action" | "importance") || declared(k))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    if kept.is_empty() {
        Value::Null
    } else {
        Value::Object(kept)
    }
}

/// Generation errors name schema paths; add where `output` sits in the body.
fn with_output_pointer(error: Error, request: &GenerateRequest) -> Error {
    match error.field().map(str::to_owned) {
        Some(field) if error.pointer().is_none() => {
            error.at(format!("{}{field}", request.output_pointer()))
        }
        _ => error,
    }
}

impl GenerateJob {
    /// The warnings the spec gives whatever the data (unresolved refs,
    /// large enums, escaped patterns, collapsed subtrees): four walks of the
    /// schema, so an isolate makes them once per spec, request shape (their
    /// pointers start at `output`'s place in the body) and enum limit, and a
    /// hit only copies them.
    fn spec_warnings(
        &self,
        spec: &UiSpec,
        doc: &schema::SchemaDoc<'_>,
    ) -> Rc<Vec<crate::terms::warning::Warning>> {
        let base = self.request.output_pointer();
        let key = format!(
            "{}\u{0}{base}\u{0}{}",
            spec.spec_hash, self.limits.max_enum_values
        );
        let make = || {
            let mut warnings = self.schema_warnings(spec, &base).as_ref().clone();
            warnings.extend(collapsed_warnings(spec, doc, &base));
            if let Some(catalog) = &self.catalog {
                warnings.extend(crate::catalog::bind::refused_requests(
                    &spec.plan,
                    &spec.schema,
                    catalog,
                    &self.limits,
                    &base,
                ));
            }
            warnings
        };
        crate::cache::memo::projection(&key, "warnings", make, |w| warnings_bytes(w))
    }

    /// The warnings `output` earns on its own (references not held, large
    /// enums, escaped patterns): three walks of the schema, so an isolate
    /// makes them once per `output` (its canonical digest), request shape
    /// (`base`, `output`'s place in the body) and enum limit, and a new
    /// spec over the same `output` only copies them.
    fn schema_warnings(
        &self,
        spec: &UiSpec,
        base: &str,
    ) -> Rc<Vec<crate::terms::warning::Warning>> {
        let make = || {
            let mut warnings =
                unresolved_ref_warnings(&spec.schema, schema::draft_from_name(&spec.draft), base);
            warnings.extend(large_enum_warnings(&spec.schema, base, &self.limits));
            warnings.extend(pattern_escaped_warnings(&spec.schema, base));
            warnings
        };
        // The draft is `output`'s own (`$schema`, else the default), so the
        // digest decides it too.
        let extra = format!("{base}\u{0}{}", self.limits.max_enum_values);
        crate::cache::memo::output_projection(
            self.output_digest,
            &extra,
            "schema-warnings",
            make,
            |w| warnings_bytes(w),
        )
    }
}

/// An estimate of the heap a list of warnings holds.
fn warnings_bytes(warnings: &[crate::terms::warning::Warning]) -> usize {
    warnings
        .iter()
        .map(|w| 64 + w.message.len() + w.pointer.len())
        .sum()
}

/// One `unresolved_ref` warning per `$ref` to a document the worker does
/// not hold: its field accepts any JSON, edited as JSON text.
fn unresolved_ref_warnings(
    schema: &Value,
    draft: schema::Draft,
    base: &str,
) -> Vec<crate::terms::warning::Warning> {
    schema::unheld_refs(schema, draft)
        .into_iter()
        .map(
            |schema::Unheld {
                 pointer, reference, ..
             }| crate::terms::warning::Warning {
                code: "unresolved_ref",
                message: format!("`$ref` \"{reference}\" is not fetched; the field takes any JSON"),
                pointer: format!("{base}{pointer}"),
            },
        )
        .collect()
}

/// One `subtree_collapsed` warning per optional object the plan edits as
/// one JSON input instead of its fields: past the depth limit, or collapsed
/// because the whole form needed more inputs than the limit
/// (plan/generate). A required object cut this way is a recursion.
fn collapsed_warnings(
    spec: &UiSpec,
    doc: &schema::SchemaDoc<'_>,
    base: &str,
) -> Vec<crate::terms::warning::Warning> {
    let optional = |pointer: &str| {
        let Some((parent, name)) = pointer.rsplit_once("/properties/") else {
            return false;
        };
        doc.resolve_scope(&spec.schema, parent)
            .is_some_and(|p| !doc.node_requires(p, &crate::pointer::unescape(name)))
    };
    let has_fields = |pointer: &str| {
        let view = doc
            .resolve_scope(&spec.schema, pointer)
            .and_then(|n| doc.resolve(n).ok());
        view.is_some_and(|v| {
            v.get("properties")
                .and_then(Value::as_object)
                .is_some_and(|p| !p.is_empty())
        })
    };
    spec.plan
        .root
        .controls()
        .into_iter()
        .filter(|c| c.widget == crate::plan::Widget::Object && optional(&c.pointer) && has_fields(&c.pointer))
        .map(|c| crate::terms::warning::Warning {
            code: "subtree_collapsed",
            message: "an optional object past the form's depth or input limit: one JSON input for all its fields".into(),
            pointer: format!("{base}{}", c.pointer),
        })
        .collect()
}

/// One `pattern_escaped` warning per pattern written in ECMA-262's
/// web-compatibility grammar: enforced and rendered with its lone `]`, `{`,
/// `}` escaped (schema/annex_b.rs), which matches the same strings.
fn pattern_escaped_warnings(schema: &Value, base: &str) -> Vec<crate::terms::warning::Warning> {
    schema::annex_b_patterns(schema)
        .into_iter()
        .map(|pointer| crate::terms::warning::Warning {
            code: "pattern_escaped",
            message: "a `]`, `{` or `}` that closes nothing is escaped (the same strings match)"
                .into(),
            pointer: format!("{base}{pointer}"),
        })
        .collect()
}

/// One `large_enum` warning per `enum` over the count limit (kept because
/// it fits the byte cap): the form offers it as a searchable single choice.
fn large_enum_warnings(
    schema: &Value,
    base: &str,
    limits: &Limits,
) -> Vec<crate::terms::warning::Warning> {
    let mut out = Vec::new();
    let _ = crate::pointer::walk(schema, "", |node, pointer| {
        if let Some(Value::Array(values)) = node.get("enum").filter(|_| !pointer.contains("/enum/"))
        {
            if values.len() > limits.max_enum_values {
                out.push(crate::terms::warning::Warning {
                    code: "large_enum",
                    message: format!(
                        "{} values (over {}): offered as a searchable choice",
                        values.len(),
                        limits.max_enum_values
                    ),
                    pointer: format!("{base}{pointer}/enum"),
                });
            }
        }
        Ok::<(), ()>(())
    });
    out
}

/// The compiled validator of a cached spec's schema (remembered per isolate).
pub(crate) fn validator_for_spec(spec: &UiSpec) -> Option<Rc<jsonschema::Validator>> {
    validator_for(spec, spec::OutputDigest::of(&spec.schema).ok()?)
}

/// [`validator_for_spec`] given the canonical digest of the spec's schema.
fn validator_for(spec: &UiSpec, output: spec::OutputDigest) -> Option<Rc<jsonschema::Validator>> {
    if let Some((_, found)) = crate::cache::memo::validator(&output) {
        return Some(found);
    }
    let draft: Draft = schema::draft_from_name(&spec.draft);
    let (compiled, kept) = crate::cache::heap::kept_by(|| schema::compile(&spec.schema, draft));
    let validator = Rc::new(compiled.ok()?);
    crate::cache::memo::remember_validator(output, draft, validator.clone(), &spec.schema, kept);
    Some(validator)
}

impl HttpResponse {
    /// Answers an A2UI answer in the transport its `Accept` names: with
    /// `application/jsonl`, its messages one per line (A2UI's stream
    /// transport); else with `application/a2ui+json`, its messages as one
    /// bare JSON array (A2UI's media type; the provenance stays in the
    /// `x-genui-*` headers). Other answers are left as they are.
    pub fn negotiate_transport(&mut self, accept: Option<&str>) {
        if self.status != 200 {
            return;
        }
        let (body, content_type) = if crate::render::a2ui::wants_jsonl(accept) {
            let lines = crate::render::a2ui::to_jsonl(&self.body);
            (lines, "application/jsonl; charset=utf-8")
        } else if A2uiAccept::of(accept).media_type {
            let array = crate::render::a2ui::to_message_array(&self.body);
            (array, A2UI_MEDIA_TYPE)
        } else {
            return;
        };
        if let Some(body) = body {
            self.body = body;
            self.headers
                .push(("content-type".into(), content_type.into()));
        }
    }

    /// Answers `Accept: text/tsx` (or `text/plain`) for a `format=react`
    /// answer: the module's source alone; others are returned unchanged.
    pub fn react_source_only(mut self, accept: Option<&str>) -> Self {
        if self.status != 200 || !crate::render::react::wants_source(accept) {
            return self;
        }
        if let Some(source) = crate::render::react::module_source(&self.body) {
            self.body = source;
            self.headers
                .push(("content-type".into(), "text/tsx; charset=utf-8".into()));
        }
        self
    }
}

impl HttpResponse {
    /// `GET /healthz`, with the isolate's wasm linear memory in bytes
    /// (`wasmMemoryBytes`, last; scripts/bench-wasm.sh reads it between phases).
    pub fn healthz(wasm_memory_bytes: usize) -> Self {
        healthz(wasm_memory_bytes)
    }
}

impl GenerateJob {
    /// The spec this job answered with, as stored (JSON), while this
    /// isolate remembers it (it does right after [`GenerateJob::answer`]).
    pub fn spec_json(&self) -> Option<String> {
        crate::cache::memo::spec(&self.spec_hash, &self.limits).map(|spec| spec.to_json())
    }

    /// Checks limits, parses and hashes a body: everything before the
    /// cache ([`prepare_generate`]).
    pub fn prepare(body: &[u8], query_format: Option<&str>, limits: &Limits) -> Result<Self> {
        prepare_generate(body, query_format, limits)
    }

    /// A `POST /v1/interrupt` body as a generate request (docs/interrupts.md):
    /// its `responseSchema` is `output`, its `message` the person's prompt,
    /// and the answer carries `meta.interrupt` with a token signed by
    /// `secret` (`WEBHOOK_SECRET`, when set) at `now` (Unix seconds).
    pub fn prepare_interrupt(
        body: &[u8],
        query_format: Option<&str>,
        limits: &Limits,
        now: u64,
        secret: Option<&str>,
    ) -> Result<Self> {
        prepare_interrupt(body, query_format, limits, now, secret)
    }
}

impl GeneratorId {
    /// The deterministic generator's identity.
    pub fn deterministic() -> Self {
        deterministic_generator()
    }
}

impl HttpResponse {
    /// An HTML page (`format=html`, a hosted form) with the form's
    /// Content-Security-Policy.
    pub fn html(status: u16, page: String) -> Self {
        Self::html_with_csp(status, page, crate::render::html::csp())
    }
}

impl HttpResponse {
    /// A hosted form's state page, or the page of a link that leads
    /// nowhere, in `locale`'s language: `which` is `delivered`, `retrying`,
    /// `failed`, `already_submitted`, `expired`, `not_found` or
    /// `data_mismatch` (anything else: `not_found`).
    pub fn form_notice(status: u16, locale: Option<&str>, which: &str) -> Self {
        let page = crate::render::html::notice_page(locale, which)
            .or_else(|| crate::render::html::notice_page(locale, "not_found"));
        Self::html(status, page.unwrap_or_default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cache::memo;

    #[test]
    fn healthz_names_the_build_and_ends_with_the_isolates_memory() {
        let answer = HttpResponse::healthz(1_310_720);
        assert_eq!(answer.status, 200);
        assert!(answer
            .body
            .starts_with(r#"{"status":"ok","service":"genui-worker","#));
        assert!(
            answer.body.ends_with(r#","wasmMemoryBytes":1310720}"#),
            "{}",
            answer.body
        );
    }

    /// A generate body over `output` with `description`.
    fn body(output: &Value, description: &str) -> Vec<u8> {
        let body = json!({"tool": "generateUserInterface", "toolCallId": "c",
                          "arguments": {"description": description, "output": output}});
        serde_json::to_vec(&body).unwrap()
    }

    #[test]
    fn warm_up_proves_and_compiles_the_form_as_a_miss_does() {
        let output = json!({"type": "object", "properties": {"name": {"type": "string"}}});
        let answers = GenerateJob::warm_up(&body(&output, "warm")).unwrap();
        assert!(answers
            .iter()
            .all(|(_, a)| a.as_ref().unwrap().status == 200));
        let job = GenerateJob::prepare(&body(&output, "warm"), None, &Limits::default()).unwrap();
        assert!(memo::validator(&job.output_digest).is_some());
        // Refused only by the compile: the pattern is no regular expression.
        let output = json!({"type": "object", "properties": {
            "code": {"type": "string", "pattern": "("}}});
        let refused = GenerateJob::warm_up(&body(&output, "warm")).unwrap_err();
        assert_eq!(refused.code(), ErrorCode::InvalidSchema);
    }

    #[test]
    fn warm_up_refuses_a_form_with_data() {
        let body = json!({"tool": "generateUserInterface", "toolCallId": "c",
                          "arguments": {"description": "warm", "data": {"name": "Ada"},
                                        "output": {"type": "object",
                                                   "properties": {"name": {"type": "string"}}}}});
        let refused = GenerateJob::warm_up(&serde_json::to_vec(&body).unwrap()).unwrap_err();
        assert_eq!(refused.code(), ErrorCode::Internal);
    }

    #[test]
    fn what_output_alone_decides_is_remembered_by_output_not_by_spec() {
        // A default, and a pattern whose `}` closes nothing (a
        // `pattern_escaped` warning).
        let output = json!({"type": "object", "properties": {
            "size": {"type": "string", "default": "M"},
            "code": {"type": "string", "pattern": "^a}$"}}});
        let limits = Limits::default();
        let job = GenerateJob::prepare(&body(&output, "first"), None, &limits).unwrap();
        let first = job.answer(None).response.body;
        let digest = spec::OutputDigest::of(&output).unwrap();
        let made_again = || -> Value { panic!("made again for a known output") };
        let defaults = memo::output_projection(digest, "", "defaults", made_again, |_| 0);
        assert_eq!(*defaults, json!({"size": "M"}));
        let made_again = || -> Vec<crate::terms::warning::Warning> { panic!("made again") };
        let base = "/arguments/output\u{0}1000";
        let warnings = memo::output_projection(digest, base, "schema-warnings", made_again, |_| 0);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert_eq!(
            warnings[0].pointer,
            "/arguments/output/properties/code/pattern"
        );
        // Another description: another spec, the same answer apart from
        // its hash and title.
        let job = GenerateJob::prepare(&body(&output, "second"), None, &limits).unwrap();
        let second = job.answer(None).response.body;
        let (first, second): (Value, Value) = (
            serde_json::from_str(&first).unwrap(),
            serde_json::from_str(&second).unwrap(),
        );
        assert_ne!(first["meta"]["specHash"], second["meta"]["specHash"]);
        for field in ["jsonSchema", "initialData"] {
            assert_eq!(first[field], second[field], "{field}");
        }
        assert_eq!(first["meta"]["warnings"], second["meta"]["warnings"]);
    }
}
