//! `POST /v1/submit`: the user's data, checked against the original `output`
//! contract and turned into the message for the agent, in the row of the
//! one table of answers ([`SubmitAnswer`]): the AG-UI tool message when the
//! submission names its tool call, DGUI's `dgui_response` when it does not,
//! or a page for a person. How a request becomes a job, and which row
//! answers it, is the submission machine's ([`crate::edge::submission`]).
//!
//! Accepted bodies (`schemas/submit-request.schema.json`):
//!
//! - a DGUI `dgui_response` (seed 001 §3.3): `{"type": "dgui_response",
//!   "data", "specHash"?, "output"?, "toolCallId"?, "metadata"?}`;
//! - an LMUI interaction (seed 003): `{"interaction": {"type":
//!   "form_submission", "values"}, "specHash" | "output", "toolCallId"?}`,
//!   whose flattened ids are unflattened back into nested data;
//! - `{"specHash" | "output", "toolCallId"?, "data"}`;
//! - an A2UI v0.9 client message `{version, action}` as the renderer sends
//!   it, from the submit button of a `format=a2ui` surface, or the same
//!   action as CopilotKit's renderer hands it, `{userAction}` (read by
//!   [`a2ui::read_client_message`]; its values are coerced to the schema's
//!   types by [`a2ui::coerce`] before validation).
//!
//! The schema comes inline (`output`) or from the cache by `specHash` (the
//! shell looks it up, as for generation). Validation checks formats and
//! every `required` field (seed 001 §7 rule 5) and reports every violation
//! with its JSON Pointer, so a client can show each one by its field.

use crate::cache::spec::{self, UiSpec};
use crate::error::{Detail, Error, ErrorCode, FieldError, Result};
use crate::interrupt::{ResumeClaim, Signed, Signer};
use crate::render::{a2ui, lmui};
use crate::request::invalid;
use crate::schema;
use crate::service::{validator_for_spec, CachePut, Outcome};
use crate::terms::limits::Limits;
use crate::terms::response::HttpResponse;
use serde_json::{json, Map, Value};
use std::rc::Rc;

/// What a submission is answered with: one row per shape. The rows are
/// chosen by [`crate::edge::submission::Submission`] from the request's
/// facts (the front door, the body, `Accept`) and the submission itself
/// (does it name its tool call?); each row writes its answer here.
///
/// A new shape is a new row (as the AG-UI interrupt's signed resume entry
/// is; an MCP elicitation result could be), with its message in
/// [`SubmitAnswer::message`] and its choice in the machine; no caller
/// builds a message of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SubmitAnswer {
    /// The AG-UI tool message `{id, role: "tool", toolCallId, content}`
    /// (`content`: the data as JSON text): the submission names the tool
    /// call it answers.
    ToolMessage,
    /// DGUI's response message `{"type": "dgui_response", "data"}` (the
    /// validated data): the submission names no tool call, and none is
    /// made up.
    DguiResponse,
    /// A page for the person whose browser posted a `format=html` form: a
    /// thank-you carrying the message of the row above that fits, or the
    /// form again with its errors ([`crate::render::html::reply`]).
    Page,
    /// The AG-UI `ResumeEntry` `{interruptId, status, payload?, metadata}`
    /// ([`crate::interrupt::resume_entry`]): the submission names
    /// the interrupt it answers (`interruptId`, with its token).
    ResumeEntry,
}

/// What a resume entry is made of besides the data: the claim, what signs
/// it, and what the signature binds.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Resume<'a> {
    claim: &'a ResumeClaim,
    signer: Option<&'a Signer>,
    signed: Signed<'a>,
}

impl SubmitAnswer {
    /// The message row of a submission: the resume entry when it names an
    /// interrupt, else by its tool call ([`SubmitAnswer::for_message`]).
    pub(crate) fn for_submission(tool_call_id: Option<&str>, names_interrupt: bool) -> Self {
        match names_interrupt {
            true => Self::ResumeEntry,
            false => Self::for_message(tool_call_id),
        }
    }

    /// The message row for a submission that names `tool_call_id` (or none).
    pub(crate) fn for_message(tool_call_id: Option<&str>) -> Self {
        match tool_call_id {
            Some(id) if !id.trim().is_empty() => Self::ToolMessage,
            _ => Self::DguiResponse,
        }
    }

    /// How many levels down the message of this row nests the data: the
    /// tool message carries it as JSON text, `dgui_response` as a value.
    fn data_level(self) -> usize {
        match self {
            Self::ToolMessage | Self::Page => 0,
            Self::DguiResponse | Self::ResumeEntry => 1,
        }
    }

    /// The message carrying the valid `data`. `unchecked` lists the data
    /// pointers of places the worker could not check (absent when none):
    /// `metadata.genuiUnchecked` in either message, so that whoever reads
    /// the message is told, whatever the transport. A page carries the
    /// message of the row that fits.
    pub(crate) fn message(
        self,
        data: &Value,
        tool_call_id: Option<&str>,
        message_id: &str,
        unchecked: &[String],
        resume: Option<Resume<'_>>,
    ) -> Value {
        let mut message = match (self, tool_call_id) {
            (Self::ResumeEntry, _) => {
                let Some(resume) = resume else {
                    // The machine chooses this row only with a claim.
                    return json!({"type": "dgui_response", "data": data});
                };
                // The entry names what was not checked inside its own
                // vendor key (AG-UI reserves none of `metadata.genui`).
                return crate::interrupt::resume_entry(
                    resume.claim,
                    resume.signer,
                    resume.signed,
                    data,
                    unchecked,
                );
            }
            (Self::ToolMessage, Some(id)) => json!({
                "id": format!("result_{message_id}"),
                "role": "tool",
                "toolCallId": id,
                "content": data.to_string(),
            }),
            (Self::Page, _) => {
                return Self::for_message(tool_call_id).message(
                    data,
                    tool_call_id,
                    message_id,
                    unchecked,
                    resume,
                )
            }
            // Without a tool call there is no tool message to write: never
            // a made-up id.
            (Self::ToolMessage | Self::DguiResponse, _) => {
                json!({"type": "dgui_response", "data": data})
            }
        };
        if !unchecked.is_empty() {
            message["metadata"] = json!({"genuiUnchecked": unchecked});
        }
        message
    }

    /// The answer to a submission refused before its form could be read
    /// (no form named, a malformed or oversized body): the `dgui_error`,
    /// or a page in `locale`'s language with the error's status.
    pub(crate) fn refusal(self, error: &Error, locale: Option<&str>) -> HttpResponse {
        match self {
            Self::ToolMessage | Self::DguiResponse | Self::ResumeEntry => {
                HttpResponse::error(error)
            }
            Self::Page => crate::render::html::reply::unavailable(locale, error),
        }
    }
}

/// Where the `output` schema comes from.
#[derive(Debug, Clone)]
enum ContractSource {
    Inline(Value),
    Cached(String),
}

/// A parsed submission, waiting for the cache when it names a `specHash`.
#[derive(Debug, Clone)]
pub struct SubmitJob {
    data: Value,
    tool_call_id: Option<String>,
    contract: ContractSource,
    limits: Limits,
    /// Written by an A2UI renderer: coerce to the schema's types first.
    from_a2ui: bool,
    /// A form post's fields (`format=html`), read into `data` by the
    /// cached spec's schema.
    form: Option<Vec<(String, String)>>,
    /// The language of the messages for a person (`None`: the validator's
    /// own English messages, as the API always answered).
    lang: Option<crate::render::words::Lang>,
    /// A form post's `_locale` (the form's language): the language of the
    /// page a person gets back.
    form_locale: Option<String>,
    /// How many levels the front door's answer wraps the message in (an
    /// MCP result, an AG-UI event), counted in the depth check.
    envelope_depth: usize,
    /// The AG-UI interrupt the submission answers (`interruptId`).
    interrupt: Option<ResumeClaim>,
    /// What signs its resume entry (`/v1/submit` sets it).
    signer: Option<Signer>,
    /// What a resolved resume entry's signature binds, once the data is
    /// checked: the checked schema's digest and the data's canonical JSON.
    resolved: Option<(String, String)>,
}

/// Checks limits and parses a submission body.
pub(crate) fn prepare_submit(body: &[u8], limits: &Limits) -> Result<SubmitJob> {
    prepare_submit_with(body, None, limits)
}

/// [`prepare_submit`], with the A2UI client data model a client sent in the
/// `a2ui-client-data-model` header (A2UI's "transport metadata" over HTTP).
pub(crate) fn prepare_submit_with(
    body: &[u8],
    data_model_header: Option<&str>,
    limits: &Limits,
) -> Result<SubmitJob> {
    limits.check_body_size(body.len())?;
    limits.check_body_depth(body)?;
    let value: Value = serde_json::from_slice(body).map_err(|e| {
        Error::new(
            ErrorCode::InvalidJson,
            format!("request body is not valid JSON: {e}"),
        )
    })?;
    let Value::Object(mut body) = value else {
        return Err(invalid("", "a submission must be a JSON object"));
    };
    let data_model = data_model_header
        .map(|text| read_data_model_header(text, limits))
        .transpose()?;
    if let Some(a2ui) = a2ui::read_client_message(&body, data_model.as_ref(), limits)? {
        let contract = ContractSource::Cached(a2ui.spec_hash);
        return Ok(SubmitJob {
            data: a2ui.data,
            tool_call_id: a2ui.tool_call_id,
            contract,
            limits: limits.clone(),
            from_a2ui: true,
            form: None,
            lang: None,
            form_locale: None,
            envelope_depth: 0,
            interrupt: None,
            signer: None,
            resolved: None,
        });
    }
    let interrupt = crate::interrupt::read_claim(&body)?;
    let metadata = body
        .get("metadata")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let field = |name: &str| body.get(name).or_else(|| metadata.get(name)).cloned();
    let tool_call_id = match field("toolCallId") {
        None | Some(Value::Null) => None,
        Some(Value::String(id)) if id.trim().is_empty() => None,
        Some(Value::String(id)) => Some(id),
        Some(_) => return Err(invalid("/toolCallId", "`toolCallId` must be a string")),
    };
    let contract = match (field("specHash"), body.remove("output")) {
        (_, Some(_)) if interrupt.is_some() => return Err(invalid(
            "/output",
            "an interrupt's answer names its form by `specHash` (its token binds it), not `output`",
        )),
        (_, Some(output @ Value::Object(_))) => {
            limits.check_schema_size(&output, "/output")?;
            ContractSource::Inline(output)
        }
        (_, Some(_)) => return Err(invalid("/output", "`output` must be a JSON Schema object")),
        (Some(Value::String(hash)), None) if is_spec_hash(&hash) => ContractSource::Cached(hash),
        (Some(_), None) => {
            return Err(invalid(
                "/specHash",
                "`specHash` must be the 64 hex digits from `meta.specHash`",
            ))
        }
        (None, None) => {
            return Err(invalid(
                "",
                "name the form: `specHash` (from the generate answer) or `output` (the schema)",
            ))
        }
    };
    // A cancel carries no answer.
    let cancelled = interrupt.as_ref().is_some_and(|claim| claim.cancelled);
    let data = match cancelled && !body.contains_key("data") {
        true => Value::Null,
        false => submitted_data(&mut body, limits)?,
    };
    Ok(SubmitJob {
        data,
        tool_call_id,
        contract,
        limits: limits.clone(),
        from_a2ui: false,
        form: None,
        lang: None,
        form_locale: None,
        envelope_depth: 0,
        interrupt,
        signer: None,
        resolved: None,
    })
}

/// The A2UI client data model from its transport header, within the
/// body's depth limit.
fn read_data_model_header(text: &str, limits: &Limits) -> Result<Value> {
    const HEADER: &str = "a2ui-client-data-model";
    limits
        .check_body_depth(text.as_bytes())
        .map_err(|e| e.at(HEADER))?;
    serde_json::from_str(text).map_err(|e| {
        Error::new(
            ErrorCode::InvalidJson,
            format!("the {HEADER} header is not valid JSON: {e}"),
        )
        .at(HEADER)
    })
}

use crate::cache::spec::is_spec_hash;

/// The data, from whichever shape carried it.
fn submitted_data(body: &mut Map<String, Value>, limits: &Limits) -> Result<Value> {
    if let Some(interaction) = body.remove("interaction") {
        let mut values = match interaction.get("values") {
            Some(Value::Object(values)) => values.clone(),
            None => Map::new(),
            _ => {
                return Err(invalid(
                    "/interaction/values",
                    "`values` must be an object keyed by component id",
                ))
            }
        };
        match interaction.get("type").and_then(Value::as_str) {
            Some("form_submission") => {}
            // An approval button: its id and value join the other values.
            Some("button_click") => {
                let id = interaction.get("id").and_then(Value::as_str);
                let (Some(id), Some(value)) = (id, interaction.get("value")) else {
                    return Err(invalid(
                        "/interaction",
                        "a `button_click` needs the button's `id` and `value`",
                    ));
                };
                limits.check_value_depth(value, lmui::id_depth(id), "/interaction/id")?;
                values.insert(id.to_owned(), value.clone());
            }
            _ => {
                return Err(invalid(
                    "/interaction/type",
                    "interactions are `form_submission` or `button_click`",
                ))
            }
        }
        return lmui::unflatten(&values, "/interaction/values", 0, limits);
    }
    if let Some(kind) = body.get("type") {
        if kind != "dgui_response" {
            return Err(invalid("/type", "`type` must be `dgui_response`"));
        }
    }
    body.remove("data")
        .ok_or_else(|| invalid("/data", "the submission has no `data`"))
}

impl SubmitJob {
    /// The KV key to read, when the schema must come from the cache (`None`
    /// for an inline `output`, or when this isolate remembers the spec).
    pub fn cache_key(&self) -> Option<String> {
        match &self.contract {
            ContractSource::Cached(hash)
                if crate::cache::memo::spec(hash, &self.limits).is_none() =>
            {
                Some(spec::cache_key(hash))
            }
            ContractSource::Cached(_) => None,
            ContractSource::Inline(_) => None,
        }
    }

    /// [`SubmitJob::answer`], also returning the data as read (a form
    /// post's fields typed by the schema), to show again beside the errors.
    /// The message's JSON ([`SubmitJob::message`]), or the error.
    pub(crate) fn answer_with_data(
        mut self,
        cached: Option<&str>,
        message_id: &str,
    ) -> (Result<String>, Value) {
        let answer = self
            .validate(cached)
            .map(|unchecked| self.message(message_id, &unchecked).to_string());
        (answer, self.data)
    }

    /// Validates the data and answers in JSON: the message of the row that
    /// fits ([`SubmitAnswer::for_message`]), or the `dgui_error`;
    /// `message_id` becomes a tool message's `id`.
    pub fn answer(mut self, cached: Option<&str>, message_id: &str) -> Outcome {
        match self.validate(cached) {
            Ok(unchecked) => {
                let mut response = HttpResponse::json(200, &self.message(message_id, &unchecked));
                // What the worker could not check: places on a `$ref` to a
                // document it does not hold took any JSON. The message
                // names them for the agent; the header for HTTP clients
                // (docs/api.md, "Submissions").
                if !unchecked.is_empty() {
                    response.headers.push((
                        "x-genui-unchecked".into(),
                        Value::from(unchecked).to_string(),
                    ));
                }
                Outcome {
                    response,
                    cache_put: None::<CachePut>,
                }
            }
            Err(error) => Outcome::failed(&error),
        }
    }

    fn validate(&mut self, cached: Option<&str>) -> Result<Vec<String>> {
        if let Some(claim) = &self.interrupt {
            crate::interrupt::check_claim(claim, self.signer.as_ref(), self.spec_hash())?;
            if claim.cancelled {
                return Ok(Vec::new());
            }
        }
        let unchecked = self.validate_data(cached)?;
        // AG-UI refuses a resolved entry whose payload is `null`.
        if self.interrupt.is_some() && self.data.is_null() {
            return Err(invalid(
                "/data",
                "a resolved interrupt needs an answer other than null (AG-UI's ResumeEntry has no null payload)",
            ));
        }
        Ok(unchecked)
    }

    fn validate_data(&mut self, cached: Option<&str>) -> Result<Vec<String>> {
        let limits = self.limits.clone();
        // Fields on an external `$ref` were JSON text in the form (schema/opaque.rs).
        let read_text = |schema: &Value, draft, data: &mut Value| {
            schema::read_json_text(
                schema,
                draft,
                data,
                &schema::SchemaDoc::new(schema, &limits),
            )
            .unchecked
        };
        // A resume entry binds the schema the answer is checked against.
        let names_interrupt = self.interrupt.is_some();
        let digest_for_entry = |schema: &Value| {
            names_interrupt
                .then(|| crate::interrupt::schema_digest(schema))
                .transpose()
        };
        let (validator, unchecked, schema_digest) = match &self.contract {
            ContractSource::Inline(output) => {
                let digest = spec::OutputDigest::of(output).ok();
                let proven = crate::service::prove_output(output, digest, "/output", &self.limits)?;
                (
                    proven.validator,
                    read_text(output, proven.draft, &mut self.data),
                    digest_for_entry(output)?,
                )
            }
            ContractSource::Cached(hash) => {
                let spec = cached_spec(hash, cached, &self.limits).ok_or_else(|| {
                    Error::new(ErrorCode::SpecNotFound, format!("no form with specHash {hash} is cached (it may have expired); send `output` instead"))
                        .at("/specHash")
                })?;
                if spec.plan.is_display() {
                    return Err(crate::plan::display::no_submit());
                }
                if self.from_a2ui {
                    self.data = a2ui::coerce(&spec.schema, &self.data, &self.limits);
                }
                if let Some(fields) = self.form.take() {
                    self.data =
                        crate::render::html::post::data(&spec.schema, &fields, &self.limits)?;
                }
                let unchecked = read_text(
                    &spec.schema,
                    schema::draft_from_name(&spec.draft),
                    &mut self.data,
                );
                (
                    validator_for_spec(&spec).ok_or_else(|| {
                        Error::new(ErrorCode::Internal, "the cached schema no longer compiles")
                    })?,
                    unchecked,
                    digest_for_entry(&spec.schema)?,
                )
            }
        };
        // JSON text read out of strings (above) nests its value where the
        // string was; the whole stays within the body's depth limit, and so
        // does the message that carries it (a `dgui_response` nests the
        // data one level down), so that the worker's own parser reads it.
        let carried = match self.row().data_level() {
            0 => 0,
            level => level + self.envelope_depth,
        };
        self.limits
            .check_value_depth(&self.data, carried, "/data")?;
        // One bounded run: every backtracking `pattern` match in this
        // submission shares one budget (schema/pattern.rs).
        let errors: Vec<FieldError> = schema::bounded(|| {
            validator
                .iter_errors(&self.data)
                .map(|e| FieldError {
                    pointer: field_pointer(&e),
                    message: self
                        .lang
                        .map_or_else(|| e.to_string(), |lang| lang.field_message(&e)),
                    keyword: e.kind().keyword().to_owned(),
                })
                .collect()
        });
        let Some(first) = errors.first() else {
            if let Some(digest) = schema_digest {
                let payload = crate::cache::canonical::to_text(&self.data)?;
                self.resolved = Some((digest, payload));
            }
            return Ok(unchecked);
        };
        if let Some(lang) = self.lang {
            let at = Some(first.pointer.as_str())
                .filter(|p| !p.is_empty())
                .unwrap_or("/");
            let count = errors.len().to_string();
            let message = lang.fill(
                crate::render::words::Text::SubmissionInvalid,
                &[
                    ("count", &count),
                    ("pointer", at),
                    ("message", &first.message),
                ],
            );
            return Err(Error::new(ErrorCode::SubmissionInvalid, message)
                .at("/data")
                .with(Detail::Errors(errors)));
        }
        let message = format!(
            "the submitted data breaks the form's schema in {} place(s); first at {}: {}",
            errors.len(),
            Some(first.pointer.as_str())
                .filter(|p| !p.is_empty())
                .unwrap_or("the root"),
            first.message,
        );
        Err(Error::new(ErrorCode::SubmissionInvalid, message)
            .at("/data")
            .with(Detail::Errors(errors)))
    }

    /// The message that carries the valid data, in the row of the
    /// [`SubmitAnswer`] table that fits the submission (a tool message
    /// when it names its tool call, DGUI's `dgui_response` otherwise).
    pub(crate) fn message(&self, message_id: &str, unchecked: &[String]) -> Value {
        let resume = self.interrupt.as_ref().map(|claim| {
            let resolved = self.resolved.as_ref().filter(|_| !claim.cancelled);
            Resume {
                claim,
                signer: self.signer.as_ref(),
                signed: Signed {
                    spec_hash: self.spec_hash(),
                    interrupt_id: &claim.id,
                    schema_digest: resolved.map_or("", |(digest, _)| digest.as_str()),
                    payload: resolved.map(|(_, payload)| payload.as_str()),
                },
            }
        });
        self.row().message(
            &self.data,
            self.tool_call_id.as_deref(),
            message_id,
            unchecked,
            resume,
        )
    }

    /// The spec the submission names (empty for an inline `output`).
    fn spec_hash(&self) -> &str {
        match &self.contract {
            ContractSource::Cached(hash) => hash,
            ContractSource::Inline(_) => "",
        }
    }

    /// The message row of this submission ([`SubmitAnswer::for_submission`]).
    pub(crate) fn row(&self) -> SubmitAnswer {
        SubmitAnswer::for_submission(self.tool_call_id.as_deref(), self.interrupt.is_some())
    }

    /// Signs a resume entry with `WEBHOOK_SECRET` (when set) at `now`
    /// (Unix seconds): without it, a submission naming an interrupt is
    /// refused.
    pub(crate) fn sign_with(&mut self, secret: Option<&str>, now: u64) {
        self.signer = Some(Signer::new(secret, now));
    }
}

/// The spec named by `hash`: this isolate's copy, else the cache's `cached` text.
fn cached_spec(hash: &str, cached: Option<&str>, limits: &Limits) -> Option<Rc<UiSpec>> {
    crate::cache::memo::spec(hash, limits).or_else(|| {
        cached
            .and_then(|text| UiSpec::from_cached(text, hash))
            .map(Rc::new)
    })
}

/// Longest `_locale` a form post may carry (longer is ignored).
const MAX_LOCALE_CHARS: usize = 64;

/// Where a client shows the error: a missing required property is reported
/// at the property itself, not at the object that lacks it.
fn field_pointer(error: &jsonschema::ValidationError<'_>) -> String {
    let at = error.instance_path().as_str();
    match error.kind() {
        jsonschema::error::ValidationErrorKind::Required {
            property: Value::String(name),
        } => {
            format!("{at}/{}", crate::pointer::escape(name))
        }
        _ => at.to_owned(),
    }
}

impl SubmitJob {
    /// Parses a `/v1/submit` body and checks its limits ([`prepare_submit`]).
    pub fn prepare(body: &[u8], limits: &Limits) -> Result<Self> {
        prepare_submit(body, limits)
    }

    /// A form post of the `format=html` form (`application/x-www-form-urlencoded`,
    /// fields named by JSON Pointer), read by the schema of the spec
    /// `spec_hash` (when `None`: the post's hidden `_specHash`); the tool
    /// call's id is `tool_call_id`, else the post's `_toolCallId`.
    pub fn prepare_form(
        body: &[u8],
        spec_hash: Option<&str>,
        tool_call_id: Option<&str>,
        limits: &Limits,
    ) -> Result<Self> {
        let (fields, meta) = crate::render::html::post::pairs(body, limits)?;
        let hash = spec_hash.map(str::to_owned).or_else(|| {
            meta.get("_specHash")
                .and_then(Value::as_str)
                .map(str::to_owned)
        });
        let hash = hash.filter(|h| is_spec_hash(h)).ok_or_else(|| {
            invalid(
                "/_specHash",
                "the form post names no form: `_specHash` must be the 64 hex digits of the spec",
            )
        })?;
        // A hosted link's record (`spec_hash` given) is the only source of
        // its tool call: whoever holds the link must not choose which tool
        // call the worker's signed answer names.
        let tool_call_id = match spec_hash {
            Some(_) => tool_call_id.map(str::to_owned),
            None => meta
                .get("_toolCallId")
                .and_then(Value::as_str)
                .map(str::to_owned),
        }
        .filter(|id| !id.trim().is_empty());
        let form_locale = meta
            .get("_locale")
            .and_then(Value::as_str)
            .filter(|l| !l.trim().is_empty() && l.len() <= MAX_LOCALE_CHARS)
            .map(str::to_owned);
        Ok(SubmitJob {
            data: Value::Null,
            tool_call_id,
            contract: ContractSource::Cached(hash),
            limits: limits.clone(),
            from_a2ui: false,
            form: Some(fields),
            // JSON answers keep their language rule (`Accept-Language`);
            // the form's own language is the page's.
            lang: None,
            form_locale,
            envelope_depth: 0,
            interrupt: None,
            signer: None,
            resolved: None,
        })
    }

    /// [`SubmitJob::answer`] answered in the row `how`: JSON exactly as
    /// [`SubmitJob::answer`], or a page for the person who posted the form
    /// ([`SubmitAnswer`]), in the form's language (its `_locale`, else the
    /// language of the messages, else English): a thank-you that hands the
    /// tool message to the page framing the form, or the form again with
    /// the errors beside its fields and the person's input kept.
    pub(crate) fn answer_as(
        self,
        how: SubmitAnswer,
        cached: Option<&str>,
        message_id: &str,
    ) -> Outcome {
        let response = match how {
            SubmitAnswer::ToolMessage | SubmitAnswer::DguiResponse | SubmitAnswer::ResumeEntry => {
                return self.answer(cached, message_id)
            }
            SubmitAnswer::Page => self.page(cached, message_id),
        };
        Outcome {
            response,
            cache_put: None,
        }
    }

    fn page(mut self, cached: Option<&str>, message_id: &str) -> HttpResponse {
        use crate::render::html::reply;
        let locale = self
            .form_locale
            .clone()
            .or_else(|| self.lang.map(|l| l.tag().to_owned()));
        self.lang = Some(crate::render::words::Lang::pick(locale.as_deref()));
        let spec = match &self.contract {
            ContractSource::Cached(hash) => cached_spec(hash, cached, &self.limits),
            ContractSource::Inline(_) => None,
        };
        let tool_call_id = self.tool_call_id.clone();
        let locale = locale.as_deref();
        match (self.answer_with_data(cached, message_id), spec) {
            ((Ok(message), _), spec) => reply::accepted(spec.as_deref(), locale, &message),
            ((Err(error), data), Some(spec)) => {
                reply::refused(&spec, locale, tool_call_id.as_deref(), &data, &error)
            }
            ((Err(error), _), None) => reply::unavailable(locale, &error),
        }
    }

    /// The levels the front door's answer wraps the message in.
    pub(crate) fn wrapped_in(mut self, levels: usize) -> Self {
        self.envelope_depth = levels;
        self
    }

    /// Messages for a person in `locale`'s language (BCP 47; falls back to
    /// the language, then English), the stable `code`s unchanged.
    pub fn with_locale(mut self, locale: Option<&str>) -> Self {
        self.lang = Some(crate::render::words::Lang::pick(locale));
        self
    }

    /// Messages for a person in the first shipped language of an
    /// `Accept-Language` header; without one that names a shipped
    /// language, the validator's own messages, as before.
    pub fn with_accept_language(mut self, header: Option<&str>) -> Self {
        self.lang = header
            .and_then(crate::render::words::Lang::from_accept_language)
            .or(self.lang);
        self
    }

    /// The data of a validated (or rejected) submission: for a form post,
    /// what its fields were read into.
    pub fn data(&self) -> &Value {
        &self.data
    }

    /// [`SubmitJob::prepare`], with the A2UI client data model a client
    /// sent in the `a2ui-client-data-model` header (A2UI's "transport
    /// metadata" over HTTP).
    pub fn prepare_with(
        body: &[u8],
        data_model_header: Option<&str>,
        limits: &Limits,
    ) -> Result<Self> {
        prepare_submit_with(body, data_model_header, limits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::terms::contracts::Contract;

    fn output() -> Value {
        json!({"type": "object", "required": ["name", "email"], "properties": {
            "name": {"type": "string"}, "email": {"type": "string", "format": "email"},
            "address": {"type": "object", "properties": {"city": {"type": "string"}}}}})
    }

    fn submit(body: Value) -> Outcome {
        match prepare_submit(body.to_string().as_bytes(), &Limits::default()) {
            Ok(job) => job.answer(None, "r1"),
            Err(e) => Outcome::failed(&e),
        }
    }

    #[test]
    fn valid_data_becomes_a_tool_message() {
        let out = submit(
            json!({"output": output(), "toolCallId": "call_9", "data": {"name": "Ada", "email": "ada@example.com"}}),
        );
        let message: Value = serde_json::from_str(&out.response.body).unwrap();
        Contract::ToolMessage.check(&message).unwrap();
        assert_eq!(message["toolCallId"], "call_9");
        let content: Value = serde_json::from_str(message["content"].as_str().unwrap()).unwrap();
        assert_eq!(content["name"], "Ada");
    }

    #[test]
    fn no_tool_call_id_is_made_up() {
        let out = submit(
            json!({"output": output(), "data": {"name": "Ada", "email": "ada@example.com"}}),
        );
        let message: Value = serde_json::from_str(&out.response.body).unwrap();
        Contract::DguiResponse.check(&message).unwrap();
        assert_eq!(
            message,
            json!({"type": "dgui_response", "data": {"name": "Ada", "email": "ada@example.com"}})
        );
    }

    #[test]
    fn references_into_the_document_by_id_are_checked() {
        let status = |output: Value, data: Value| {
            submit(json!({"output": output, "data": data}))
                .response
                .status
        };
        let by_root_id = json!({"$id": "https://example.com/r.json", "type": "object",
            "properties": {"x": {"$ref": "https://example.com/r.json#/$defs/n"}}, "$defs": {"n": {"type": "integer"}}});
        assert_eq!(
            (
                status(by_root_id.clone(), json!({"x": "str"})),
                status(by_root_id, json!({"x": 1}))
            ),
            (422, 200)
        );
        let embedded = json!({"$id": "https://example.com/root.json", "type": "object",
            "properties": {"age": {"$ref": "urn:example:age"}, "qty": {"$ref": "defs/qty.json"}},
            "$defs": {"age": {"$id": "urn:example:age", "type": "integer"}, "qty": {"$id": "defs/qty.json", "type": "integer", "minimum": 1}}});
        assert_eq!(status(embedded.clone(), json!({"age": "old"})), 422);
        assert_eq!(status(embedded.clone(), json!({"qty": 0})), 422);
        let out = submit(json!({"output": embedded, "data": {"age": 30, "qty": 2}}));
        assert_eq!(out.response.status, 200);
        assert!(out
            .response
            .headers
            .iter()
            .all(|(k, _)| k != "x-genui-unchecked"));
    }

    #[test]
    fn the_tool_message_names_what_was_not_checked() {
        let output = json!({"type": "object", "properties": {"far": {"$ref": "https://elsewhere.example/s.json"}, "n": {"type": "integer"}}});
        let out = submit(
            json!({"output": output, "toolCallId": "c", "data": {"far": {"any": 1}, "n": 2}}),
        );
        let message: Value = serde_json::from_str(&out.response.body).unwrap();
        Contract::ToolMessage.check(&message).unwrap();
        assert_eq!(message["metadata"]["genuiUnchecked"], json!(["/far"]));
        let plain: Value = serde_json::from_str(
            &submit(json!({"output": output, "toolCallId": "c", "data": {"n": 2}}))
                .response
                .body,
        )
        .unwrap();
        assert!(plain.get("metadata").is_none());
    }

    #[test]
    fn every_violation_is_listed_with_its_pointer() {
        let out = submit(
            json!({"type": "dgui_response", "output": output(), "data": {"email": "not-an-email", "address": {"city": 3}}}),
        );
        assert_eq!(out.response.status, 422);
        let error: Value = serde_json::from_str(&out.response.body).unwrap();
        Contract::DguiError.check(&error).unwrap();
        let mut pointers: Vec<&str> = error["payload"]["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["pointer"].as_str().unwrap())
            .collect();
        pointers.sort();
        assert_eq!(pointers, ["/address/city", "/email", "/name"]);
    }

    #[test]
    fn lmui_values_are_unflattened() {
        let out = submit(
            json!({"output": output(), "interaction": {"type": "form_submission",
            "values": {"name": "Ada", "email": "a@b.co", "address.city": "London"}}}),
        );
        let message: Value = serde_json::from_str(&out.response.body).unwrap();
        assert_eq!(message["data"]["address"]["city"], "London");
    }

    #[test]
    fn unknown_spec_hash_is_404_and_bad_shapes_400() {
        let hash = "a".repeat(64);
        let job = prepare_submit(
            json!({"specHash": hash, "data": {}}).to_string().as_bytes(),
            &Limits::default(),
        )
        .unwrap();
        assert_eq!(
            job.cache_key(),
            Some(format!("{}{hash}", crate::cache::spec::KEY_PREFIX))
        );
        assert_eq!(job.answer(None, "r").response.status, 404);
        assert_eq!(submit(json!({"data": {}})).response.status, 400);
        assert_eq!(
            submit(json!({"specHash": "xyz", "data": {}}))
                .response
                .status,
            400
        );
        assert_eq!(submit(json!({"output": output()})).response.status, 400);
        assert_eq!(
            submit(json!({"output": {"type": "strng"}, "data": {}}))
                .response
                .status,
            422
        );
    }

    /// 10,000 hostile strings against a backtracking pattern in one
    /// submission: every one is refused (no hang, no pass), the first ones
    /// at the per-match limit, the rest once the request's budget is spent.
    /// The time is printed (`--nocapture`), not asserted.
    #[test]
    fn an_inline_schema_is_proven_once_per_isolate() {
        let output = json!({"type": "object", "$comment": "proven once", "properties": {"n": {"type": "integer", "minimum": 1}}});
        let digest = spec::OutputDigest::of(&output).unwrap();
        assert!(crate::cache::memo::validator(&digest).is_none());
        assert_eq!(
            submit(json!({"output": output, "data": {"n": 2}}))
                .response
                .status,
            200
        );
        assert!(
            crate::cache::memo::validator(&digest).is_some(),
            "the proof is remembered by the schema's digest"
        );
        // The remembered validator still refuses, with the pointer.
        let out = submit(json!({"output": output, "data": {"n": 0}}));
        assert_eq!(out.response.status, 422);
        assert!(
            out.response.body.contains("\"/n\""),
            "{}",
            out.response.body
        );
        // A schema that is not valid is refused every time (never remembered).
        let bad = json!({"properties": {"n": {"type": "integr"}}});
        for _ in 0..2 {
            assert_eq!(
                submit(json!({"output": bad, "data": {"n": 1}}))
                    .response
                    .status,
                422
            );
        }
    }

    #[test]
    fn hostile_strings_share_one_budget() {
        let output = json!({"type": "object", "properties": {"tags": {"type": "array",
            "items": {"type": "string", "pattern": "^(?:(a)\\1?|a)*b$"}}}});
        let tags: Vec<String> = (0..10_000)
            .map(|i| format!("{}!", "a".repeat(30 + i % 10)))
            .collect();
        let started = std::time::Instant::now();
        let out = submit(json!({"output": output, "data": {"tags": tags}}));
        println!("10,000 hostile strings: {:?}", started.elapsed());
        assert_eq!(out.response.status, 422);
        let error: Value = serde_json::from_str(&out.response.body).unwrap();
        let errors = error["payload"]["errors"].as_array().unwrap();
        assert_eq!(errors.len(), 10_000);
        let said = |needle: &str| {
            errors
                .iter()
                .filter(|e| e["message"].as_str().unwrap().contains(needle))
                .count()
        };
        assert!(
            said("backtracking steps, so the value") > 0 && said("pattern-matching budget") > 9_000
        );
        // Ordinary values in the same shape pass, and a lookahead is enforced.
        let output = json!({"type": "object", "properties": {"name": {"type": "string", "pattern": "^(?!admin$)[a-z]+$"}}});
        assert_eq!(
            submit(json!({"output": output, "data": {"name": "ada"}}))
                .response
                .status,
            200
        );
        assert_eq!(
            submit(json!({"output": output, "data": {"name": "admin"}}))
                .response
                .status,
            422
        );
    }
}
