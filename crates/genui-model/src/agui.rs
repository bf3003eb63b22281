//! `POST /v1/agent`: the worker as an AG-UI 1.0 agent.
//!
//! In: AG-UI's `RunAgentInput` (`threadId`, `runId`, `messages`, `tools`,
//! `state`, `context`, `forwardedProps`). [`RunInput::read`] finds what the
//! run asks for, first match wins:
//!
//! 0. `forwardedProps.upstream`: the run is for that agent of the
//!    operator's `GENUI_AGENTS` (proxy mode, `crate::proxy`), forwarded
//!    whatever else it carries;
//! 1. `forwardedProps.a2uiAction.userAction`: a button pressed on an A2UI
//!    surface, as `@ag-ui/a2ui-middleware` / CopilotKit send it: a
//!    submission, checked like `/v1/submit` (an A2UI `{version, action}`);
//! 2. `forwardedProps.generateUserInterface`: the tool's arguments;
//! 3. `forwardedProps.events`: AG-UI tool-call events that assemble into
//!    the call (`TOOL_CALL_START`, `TOOL_CALL_ARGS`, `TOOL_CALL_END`);
//! 4. `forwardedProps.interrupts`: the interrupts of the last
//!    `RUN_FINISHED` outcome the client saw (AG-UI 1.0), one per run,
//!    answered as `POST /v1/interrupt` answers it (docs/interrupts.md):
//!    its form as the activity, `meta.interrupt` carrying the token;
//! 5. the last assistant message's last `generateUserInterface` tool call.
//!
//! Out: SSE `data:` frames of AG-UI events ([`AgentEvents`]):
//! `RUN_STARTED`, `ACTIVITY_SNAPSHOT` (the UI), `ACTIVITY_DELTA` (the JSON
//! Patch to the model's proven UI), `RUN_FINISHED` (result: the `done`
//! facts); or `RUN_ERROR` with the `dgui_error` code and message.
//!
//! Activities: `format=a2ui` is exactly what `@ag-ui/a2ui-middleware`
//! emits, `activityType: "a2ui-surface"`, content `{"a2ui_operations":
//! [A2UI v0.9 messages]}`, `messageId: "a2ui-surface-<toolCallId>"`, so
//! CopilotKit's A2UI renderer shows it unchanged. Every other format is
//! `activityType: "genui.<format>"` with the `/v1/generate` answer as
//! content, `messageId: "genui-<toolCallId>"`.
//!
//! Instructions: `context` entries whose `description` is `instructions`
//! or `genui:instructions` (any case; what `useCopilotReadable({description:
//! "instructions", value})` sends) carry the caller's instructions: their
//! string `value`s, joined by blank lines, become the call's `instructions`
//! unless the call carries its own at its top level. No other entry is
//! read as instructions: CopilotKit sends app state as context too, and
//! that is data, not words for the generator. They are bounded like a
//! request's (`instructions_too_large`, 413, pointer `/context/<i>/value`).
//!
//! A submission answers `TOOL_CALL_RESULT` (the tool message for the call
//! that generated the surface) then `RUN_FINISHED`; a surface made for no
//! tool call answers `RUN_FINISHED` alone, with `result: {"accepted": true,
//! "response": dgui_response}` (no tool call id is made up); invalid data answers
//! `RUN_FINISHED` with `result: {"accepted": false, "error": dgui_error}`,
//! whose `payload.errors` name each field by its JSON Pointer.

use crate::machine::Update;
use crate::stream::{body_value, diff, Encoder};
use genui_core::{Error, ErrorCode, GenerateJob, HttpResponse, Limits, Submitted};
use serde_json::{json, Map, Value};

/// Where the caller names the upstream agent.
pub(crate) const UPSTREAM_AT: &str = "/forwardedProps/upstream";
/// The `forwardedProps` keys the worker reads itself: the upstream's name
/// and the options of the interrupts' forms. Every other key is forwarded.
const OWN_PROPS: [&str; 5] = ["upstream", "format", "data", "locale", "device"];
/// The options of `/v1/interrupt` a proxied run may set in `forwardedProps`.
const FORM_OPTIONS: [&str; 4] = ["format", "data", "locale", "device"];

/// The A2UI middleware's activity type.
pub(crate) const A2UI_ACTIVITY_TYPE: &str = "a2ui-surface";
/// The key of the A2UI messages in the middleware's activity content.
pub(crate) const A2UI_OPERATIONS_KEY: &str = "a2ui_operations";
/// The `description`s of the `context` entries read as the caller's
/// instructions (compared without case; see the module docs).
pub(crate) const INSTRUCTION_CONTEXT_DESCRIPTIONS: [&str; 2] =
    ["instructions", "genui:instructions"];

/// The `context` entry in which a CopilotKit frontend sends its registered
/// A2UI catalog (`{catalogId, components}` as a JSON string), from
/// `@ag-ui/a2ui-middleware`.
pub(crate) const A2UI_SCHEMA_CONTEXT_DESCRIPTION: &str = "A2UI Component Schema \u{2014} available components for generating UI surfaces. Use these component names and properties when creating A2UI operations.";

/// What a run asks for.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Call {
    /// A `/v1/generate` body (any accepted shape); `at` is where it sits in
    /// the `RunAgentInput`, for error pointers.
    Generate {
        /// The generate body.
        body: Value,
        /// Its JSON Pointer in the run input.
        at: String,
    },
    /// A `/v1/interrupt` body (`{"interrupt", "format"?, "data"?}`); `at`
    /// is where the interrupt sits in the run input.
    Interrupt {
        /// The interrupt request's body.
        body: Value,
        /// The interrupt's JSON Pointer in the run input.
        at: String,
    },
    /// A run for an upstream agent of `GENUI_AGENTS` (proxy mode,
    /// `crate::proxy`): `forwardedProps.upstream` names it.
    Proxy {
        /// The agent's name in the setting.
        upstream: String,
        /// The run input to forward (without the worker's own keys).
        forwarded: Value,
        /// `format`, `data`, `locale`, `device`: the options of the forms
        /// answering the upstream's interrupts.
        form_options: Map<String, Value>,
    },
    /// A `/v1/submit` body (an A2UI client message).
    Submit {
        /// The submit body.
        body: Value,
        /// Where the user action sits in the run input.
        at: String,
    },
}

/// A parsed `RunAgentInput`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RunInput {
    /// `threadId`.
    pub thread_id: String,
    /// `runId`.
    pub run_id: String,
    /// What the run asks for.
    pub call: Call,
    /// The catalog id the frontend registered (CopilotKit's basic catalog
    /// still has the id from before A2UI's restructure), stamped on our
    /// surfaces' `createSurface` so its renderer finds the catalog.
    pub catalog_id: Option<String>,
}

fn invalid(at: &str, message: &str) -> Error {
    Error::new(
        ErrorCode::InvalidRequest,
        format!(
            "{message} (at {})",
            if at.is_empty() { "the root" } else { at }
        ),
    )
    .at(at)
}

impl RunInput {
    /// Reads a `RunAgentInput` body within the request limits.
    pub(crate) fn read(body: &[u8], limits: &Limits) -> Result<Self, Error> {
        limits.check_body_size(body.len())?;
        limits.check_body_depth(body)?;
        let value: Value = serde_json::from_slice(body).map_err(|e| {
            Error::new(
                ErrorCode::InvalidJson,
                format!("request body is not valid JSON: {e}"),
            )
        })?;
        let Value::Object(input) = value else {
            return Err(invalid("", "a RunAgentInput must be a JSON object"));
        };
        let id = |key: &str| match input.get(key) {
            Some(Value::String(id)) if !id.is_empty() => Ok(id.clone()),
            _ => Err(invalid(
                &format!("/{key}"),
                &format!("`{key}` must be a non-empty string"),
            )),
        };
        let (thread_id, run_id) = (id("threadId")?, id("runId")?);
        let props = match input.get("forwardedProps") {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(props)) => props.clone(),
            Some(_) => {
                return Err(invalid(
                    "/forwardedProps",
                    "`forwardedProps` must be an object",
                ))
            }
        };
        if let Some(call) = proxy_call(&input, &props)? {
            return Ok(Self {
                thread_id,
                run_id,
                call,
                catalog_id: None,
            });
        }
        let call = match find_in_props(&props, &run_id)? {
            Some(call) => call,
            None => find_in_messages(input.get("messages"), &run_id)?,
        };
        let catalog_id = frontend_catalog_id(input.get("context"));
        let instructions = context_instructions(input.get("context"), limits)?;
        let call = with_instructions(with_format(call, props.get("format")), instructions);
        Ok(Self {
            thread_id,
            run_id,
            call,
            catalog_id,
        })
    }

    /// A generate body as bytes, for `GenerateJob::prepare`.
    pub(crate) fn body_bytes(&self) -> Vec<u8> {
        match &self.call {
            Call::Generate { body, .. }
            | Call::Interrupt { body, .. }
            | Call::Submit { body, .. }
            | Call::Proxy {
                forwarded: body, ..
            } => serde_json::to_vec(body).unwrap_or_default(),
        }
    }

    /// The generate job a generate or interrupt run asks for (an
    /// interrupt is answered as `/v1/interrupt` answers it, its token
    /// signed with `secret` at `now_s`), its errors pointing into the run
    /// input.
    pub(crate) fn generate_job(
        &self,
        format: Option<&str>,
        limits: &Limits,
        now_s: u64,
        secret: Option<&str>,
    ) -> Result<GenerateJob, Error> {
        let body = self.body_bytes();
        match &self.call {
            Call::Interrupt { .. } => {
                GenerateJob::prepare_interrupt(&body, format, limits, now_s, secret)
            }
            _ => GenerateJob::prepare(&body, format, limits),
        }
        .map_err(|error| self.locate(error))
    }

    /// An error of the inner body, with its pointer moved to where that
    /// body sits in the run input.
    pub(crate) fn locate(&self, error: Error) -> Error {
        let (at, strip) = match &self.call {
            Call::Generate { at, .. } => (at.as_str(), ""),
            Call::Interrupt { at, .. } => (at.as_str(), "/interrupt"),
            Call::Submit { at, .. } => (at.as_str(), "/action"),
            Call::Proxy { .. } => return error,
        };
        match error.pointer().map(str::to_owned) {
            Some(inner) if inner.is_empty() || inner.starts_with('/') => {
                let inner = inner
                    .strip_prefix(strip)
                    .filter(|_| !strip.is_empty())
                    .unwrap_or(&inner)
                    .to_owned();
                error.at(format!("{at}{inner}"))
            }
            _ => error,
        }
    }

    /// [`Self::locate`] for an error already turned into a response (one
    /// the generation machine answered before the stream started).
    pub(crate) fn locate_response(&self, mut response: HttpResponse) -> HttpResponse {
        let (at, strip) = match &self.call {
            Call::Generate { at, .. } => (at, ""),
            Call::Interrupt { at, .. } => (at, "/interrupt"),
            Call::Submit { .. } | Call::Proxy { .. } => return response,
        };
        let Ok(mut body) = serde_json::from_str::<Value>(&response.body) else {
            return response;
        };
        if let Some(Value::String(pointer)) = body.pointer_mut("/payload/pointer") {
            if pointer.is_empty() || pointer.starts_with('/') {
                let inner = match strip {
                    "" => pointer.as_str(),
                    strip => pointer.strip_prefix(strip).unwrap_or(pointer),
                };
                *pointer = format!("{at}{inner}");
                response.body = body.to_string();
            }
        }
        response
    }
}

fn find_in_props(props: &Map<String, Value>, run_id: &str) -> Result<Option<Call>, Error> {
    if let Some(action) = props.get("a2uiAction") {
        let at = "/forwardedProps/a2uiAction/userAction".to_owned();
        let Some(user_action) = action.get("userAction").filter(|a| a.is_object()) else {
            return Err(invalid(&at, "`a2uiAction.userAction` must be an object"));
        };
        return Ok(Some(Call::Submit {
            body: json!({"version": "v0.9", "action": user_action}),
            at,
        }));
    }
    if let Some(args) = props.get("generateUserInterface") {
        let at = "/forwardedProps/generateUserInterface".to_owned();
        let Value::Object(args) = args else {
            return Err(invalid(
                &at,
                "`generateUserInterface` must be the tool's arguments object",
            ));
        };
        let mut body = args.clone();
        // The surface and the activity are named after the call.
        body.entry("toolCallId")
            .or_insert_with(|| Value::String(run_id.to_owned()));
        return Ok(Some(Call::Generate {
            body: Value::Object(body),
            at,
        }));
    }
    if let Some(interrupts) = props.get("interrupts") {
        return interrupt_call(interrupts, props).map(Some);
    }
    if let Some(events) = props.get("events") {
        if !events.is_array() {
            return Err(invalid(
                "/forwardedProps/events",
                "`events` must be an array of AG-UI tool-call events",
            ));
        }
        return Ok(Some(Call::Generate {
            body: json!({"events": events}),
            at: "/forwardedProps".into(),
        }));
    }
    Ok(None)
}

/// `forwardedProps.interrupts`: one AG-UI interrupt per run, with
/// `forwardedProps.format` and `forwardedProps.data` beside it.
fn interrupt_call(interrupts: &Value, props: &Map<String, Value>) -> Result<Call, Error> {
    let at = "/forwardedProps/interrupts";
    let list = interrupts
        .as_array()
        .ok_or_else(|| invalid(at, "`interrupts` must be an array of AG-UI interrupts"))?;
    let [interrupt] = list.as_slice() else {
        let what = match list.len() {
            0 => "`interrupts` is empty: name the interrupt to answer",
            _ => "one interrupt per run: send each of them in a run of its own (or POST /v1/interrupt), and resume with every entry",
        };
        return Err(invalid(&format!("{at}/{}", list.len().min(1)), what));
    };
    let mut body = Map::new();
    body.insert("interrupt".into(), interrupt.clone());
    for option in ["format", "data", "locale", "device"] {
        if let Some(value) = props.get(option) {
            body.insert(option.into(), value.clone());
        }
    }
    Ok(Call::Interrupt {
        body: Value::Object(body),
        at: format!("{at}/0"),
    })
}

fn find_in_messages(messages: Option<&Value>, _run_id: &str) -> Result<Call, Error> {
    let messages = match messages {
        None | Some(Value::Null) => &Vec::new(),
        Some(Value::Array(messages)) => messages,
        Some(_) => return Err(invalid("/messages", "`messages` must be an array")),
    };
    let none = || {
        invalid("/messages", "the run carries no generateUserInterface call: none in the last assistant message's toolCalls, nor in forwardedProps (generateUserInterface, events, a2uiAction)")
    };
    let (index, message) = messages
        .iter()
        .enumerate()
        .rev()
        .find(|(_, m)| m.get("role").and_then(Value::as_str) == Some("assistant"))
        .ok_or_else(none)?;
    let calls = match message.get("toolCalls") {
        Some(Value::Array(calls)) => calls,
        None | Some(Value::Null) => return Err(none()),
        Some(_) => {
            return Err(invalid(
                &format!("/messages/{index}/toolCalls"),
                "`toolCalls` must be an array",
            ))
        }
    };
    let name = |call: &Value| {
        call.pointer("/function/name")
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    let (at, call) = calls
        .iter()
        .enumerate()
        .rev()
        .find(|(_, call)| name(call).as_deref() == Some("generateUserInterface"))
        .ok_or_else(none)?;
    Ok(Call::Generate {
        body: call.clone(),
        at: format!("/messages/{index}/toolCalls/{at}"),
    })
}

/// The `catalogId` of the frontend's A2UI schema context entry, if any.
fn frontend_catalog_id(context: Option<&Value>) -> Option<String> {
    let entries = context?.as_array()?;
    let entry = entries.iter().find(|e| {
        e.get("description").and_then(Value::as_str) == Some(A2UI_SCHEMA_CONTEXT_DESCRIPTION)
    })?;
    let value: Value = serde_json::from_str(entry.get("value")?.as_str()?).ok()?;
    value
        .get("catalogId")
        .and_then(Value::as_str)
        .filter(|id| !id.is_empty())
        .map(str::to_owned)
}

/// The caller's instructions from `context` (see the module docs).
fn context_instructions(context: Option<&Value>, limits: &Limits) -> Result<Option<String>, Error> {
    let Some(entries) = context.and_then(Value::as_array) else {
        return Ok(None);
    };
    let mut texts: Vec<&str> = Vec::new();
    let mut bytes = 0usize;
    for (index, entry) in entries.iter().enumerate() {
        let description = entry
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .trim();
        if !INSTRUCTION_CONTEXT_DESCRIPTIONS
            .iter()
            .any(|d| d.eq_ignore_ascii_case(description))
        {
            continue;
        }
        let Some(text) = entry
            .get("value")
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|t| !t.is_empty())
        else {
            continue;
        };
        bytes += text.len() + if texts.is_empty() { 0 } else { 2 };
        if bytes > limits.max_instructions_bytes {
            let at = format!("/context/{index}/value");
            let message = format!(
                "the instructions in `context` come to over {} bytes (at {at})",
                limits.max_instructions_bytes
            );
            return Err(Error::new(ErrorCode::InstructionsTooLarge, message).at(at));
        }
        texts.push(text);
    }
    Ok((!texts.is_empty()).then(|| texts.join("\n\n")))
}

/// The context's instructions on a generate call that has none of its own.
fn with_instructions(call: Call, instructions: Option<String>) -> Call {
    match (call, instructions) {
        (
            Call::Generate {
                body: Value::Object(mut body),
                at,
            },
            Some(text),
        ) => {
            body.entry("instructions").or_insert(Value::String(text));
            Call::Generate {
                body: Value::Object(body),
                at,
            }
        }
        (call, _) => call,
    }
}

/// `forwardedProps.format` chooses the format when the call names none
/// (top-level options win in every generate shape).
fn with_format(call: Call, format: Option<&Value>) -> Call {
    match (call, format) {
        (
            Call::Generate {
                body: Value::Object(mut body),
                at,
            },
            Some(Value::String(format)),
        ) => {
            body.entry("format")
                .or_insert_with(|| Value::String(format.clone()));
            Call::Generate {
                body: Value::Object(body),
                at,
            }
        }
        (call, _) => call,
    }
}

/// Writes the machine's updates as AG-UI events.
#[derive(Debug)]
pub(crate) struct AgentEvents {
    thread_id: String,
    run_id: String,
    started: bool,
    ended: bool,
    catalog_id: Option<String>,
    activity: Option<(String, String, Value)>,
}

impl AgentEvents {
    /// For one run.
    pub(crate) fn new(input: &RunInput) -> Self {
        let (thread_id, run_id, catalog_id) = (
            input.thread_id.clone(),
            input.run_id.clone(),
            input.catalog_id.clone(),
        );
        Self {
            thread_id,
            run_id,
            started: false,
            ended: false,
            catalog_id,
            activity: None,
        }
    }

    /// `RUN_STARTED`, once.
    fn start(&mut self) -> String {
        if std::mem::replace(&mut self.started, true) {
            return String::new();
        }
        event(json!({"type": "RUN_STARTED", "threadId": self.thread_id, "runId": self.run_id}))
    }

    fn snapshot(&mut self, response: &HttpResponse) -> String {
        let (message_id, activity_type, content) = self.activity_of(response);
        let text = event(
            json!({"type": "ACTIVITY_SNAPSHOT", "messageId": message_id, "activityType": activity_type, "content": content, "replace": true}),
        );
        self.activity = Some((message_id, activity_type, content));
        text
    }

    /// Notes the activity the client holds (an edit in place) without
    /// sending it: the new form is a delta from it.
    fn held(&mut self, response: &HttpResponse) -> String {
        self.activity = Some(self.activity_of(response));
        String::new()
    }

    /// The new form: a delta from the activity the client holds when it is
    /// the same activity (same message id), else a snapshot.
    fn snapshot_or_delta(&mut self, response: &HttpResponse) -> String {
        let (message_id, _, _) = self.activity_of(response);
        match &self.activity {
            Some((held, _, _)) if *held == message_id => self.delta(response),
            _ => self.snapshot(response),
        }
    }

    fn delta(&mut self, response: &HttpResponse) -> String {
        let Some((message_id, activity_type, last)) = self.activity.take() else {
            return self.snapshot(response);
        };
        let (_, _, content) = self.activity_of(response);
        let patch = diff(&last, &content);
        self.activity = Some((message_id.clone(), activity_type.clone(), content));
        if patch.as_array().is_some_and(Vec::is_empty) {
            return String::new();
        }
        event(
            json!({"type": "ACTIVITY_DELTA", "messageId": message_id, "activityType": activity_type, "patch": patch}),
        )
    }

    /// The activity of an answer, with the frontend's catalog id stamped
    /// and, for an answer whose body has no `meta` (A2UI, HTML), what its
    /// headers say ([`header_metadata`]).
    fn activity_of(&self, response: &HttpResponse) -> (String, String, Value) {
        let (message_id, activity_type, mut content) = activity_of(&body_value(&response.body));
        if let (Some(id), Some(Value::Object(surface))) = (
            &self.catalog_id,
            content.pointer_mut("/a2ui_operations/0/createSurface"),
        ) {
            surface.insert("catalogId".into(), Value::String(id.clone()));
        }
        let has_meta = content
            .get("meta")
            .or_else(|| content.get("metadata"))
            .is_some();
        if let (false, Some(metadata), Value::Object(map)) =
            (has_meta, header_metadata(response), &mut content)
        {
            map.insert("metadata".into(), metadata);
        }
        (message_id, activity_type, content)
    }

    /// A submission run's events for what the submission machine
    /// answered; a body that is not a submission (`Submitted::Unread`) is
    /// the plain error, its pointer moved into the run input.
    pub(crate) fn submitted(input: &RunInput, submitted: Submitted) -> Result<String, Error> {
        match submitted {
            Submitted::Unread(error) => Err(input.locate(error)),
            answered => Ok(Self::new(input).submission(&answered.into_response())),
        }
    }

    /// A submission's answer: the tool message, or the field errors.
    pub(crate) fn submission(&mut self, response: &HttpResponse) -> String {
        let mut text = self.start();
        let body = body_value(&response.body);
        if response.status == 200
            && body.get("type").and_then(Value::as_str) == Some("dgui_response")
        {
            // No tool call named: no TOOL_CALL_RESULT; the run's result
            // carries DGUI's response.
            text.push_str(&self.finished(json!({"accepted": true, "response": body})));
        } else if response.status == 200 {
            let message_id = body.get("id").cloned().unwrap_or(Value::Null);
            let tool_call_id = body.get("toolCallId").cloned().unwrap_or(Value::Null);
            let content = body.get("content").cloned().unwrap_or(Value::Null);
            text.push_str(&event(json!({"type": "TOOL_CALL_RESULT", "messageId": message_id, "toolCallId": tool_call_id, "content": content, "role": "tool"})));
            text.push_str(&self.finished(json!({"accepted": true})));
        } else if body.get("code").and_then(Value::as_str)
            == Some(ErrorCode::SubmissionInvalid.as_str())
        {
            text.push_str(&self.finished(json!({"accepted": false, "error": body})));
        } else {
            text.push_str(&self.error(&body));
        }
        text
    }

    /// The form answering an upstream agent's interrupt (proxy mode): its
    /// activity snapshot alone, inside the upstream's run; nothing when the
    /// answer is an error (the interrupt then reaches the client as the
    /// upstream sent it, in its `RUN_FINISHED`).
    pub(crate) fn form(&mut self, response: &HttpResponse) -> String {
        if response.status != 200 {
            return String::new();
        }
        self.snapshot(response)
    }

    fn finished(&mut self, result: Value) -> String {
        self.ended = true;
        event(
            json!({"type": "RUN_FINISHED", "threadId": self.thread_id, "runId": self.run_id, "result": result}),
        )
    }

    fn error(&mut self, dgui_error: &Value) -> String {
        self.ended = true;
        let message = dgui_error
            .get("message")
            .and_then(Value::as_str)
            .unwrap_or("the run failed");
        let code = dgui_error
            .get("code")
            .and_then(Value::as_str)
            .unwrap_or(ErrorCode::Internal.as_str());
        event(json!({"type": "RUN_ERROR", "message": message, "code": code}))
    }
}

impl Encoder for AgentEvents {
    fn open(&mut self) -> String {
        self.start()
    }

    fn frames(&mut self, update: &Update) -> String {
        if self.ended {
            return String::new();
        }
        let mut text = self.start();
        text.push_str(&match update {
            Update::Base(response) => self.held(response),
            Update::Ui(response) => self.snapshot_or_delta(response),
            Update::Refined(response) => self.delta(response),
            Update::Error(response) => self.error(&body_value(&response.body)),
            Update::Done(summary) => self.finished(summary.to_json()),
        });
        text
    }
}

/// `{specHash, interrupt: {token}}` from an answer's `x-genui-spec-hash`
/// and `x-genui-interrupt-token` headers: what a client needs to submit
/// (and re-render) a form whose body carries no `meta`, once the activity
/// has left the HTTP answer behind.
fn header_metadata(response: &HttpResponse) -> Option<Value> {
    let header = |name: &str| {
        response
            .headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| Value::String(value.clone()))
    };
    let mut metadata = Map::new();
    if let Some(hash) = header("x-genui-spec-hash") {
        metadata.insert("specHash".into(), hash);
    }
    if let Some(token) = header("x-genui-interrupt-token") {
        metadata.insert("interrupt".into(), json!({ "token": token }));
    }
    (!metadata.is_empty()).then_some(Value::Object(metadata))
}

/// The activity of an answer: A2UI as the middleware shapes it, other
/// formats as `genui.<format>` with the answer as content.
fn activity_of(body: &Value) -> (String, String, Value) {
    if let Some(messages) = body
        .get("messages")
        .filter(|_| body.as_object().is_some_and(|b| b.len() == 1))
    {
        let surface = messages
            .pointer("/0/createSurface/surfaceId")
            .and_then(Value::as_str)
            .unwrap_or("genui");
        // Our surface id is `genui-<toolCallId>` (or of the spec hash).
        let message_id = match surface.strip_prefix("genui-") {
            Some(call) => format!("a2ui-surface-{call}"),
            None => format!("a2ui-surface-{surface}"),
        };
        return (
            message_id,
            A2UI_ACTIVITY_TYPE.to_owned(),
            json!({ A2UI_OPERATIONS_KEY: messages }),
        );
    }
    let format = format_of(body);
    // Provenance is `meta`, or `metadata` in the RJSF and LMUI answers.
    let meta = body.get("meta").or_else(|| body.get("metadata"));
    let field = |key: &str| meta.and_then(|m| m.get(key)).and_then(Value::as_str);
    let call = field("toolCallId").map(str::to_owned);
    let hash = field("specHash")
        .unwrap_or_default()
        .chars()
        .take(16)
        .collect::<String>();
    let message_id = format!("genui-{}", call.unwrap_or(hash));
    let content = if body.is_object() {
        body.clone()
    } else {
        json!({ "answer": body })
    };
    (message_id, format!("genui.{format}"), content)
}

/// The format an answer was rendered in, from its shape.
fn format_of(body: &Value) -> &'static str {
    let has = |key: &str| body.get(key).is_some();
    match body.get("type").and_then(Value::as_str) {
        Some("dgui_form") => "rjsf",
        _ if has("uiSchema") && has("jsonSchema") => "jsonforms",
        _ if has("ui_components") => "lmui",
        _ if has("module") => "react",
        _ => "ui",
    }
}

/// One AG-UI event as an SSE frame (AG-UI clients read `data:` only).
fn event(value: Value) -> String {
    crate::stream::frame("", &value)
}

/// `forwardedProps.upstream`: the proxied call, the run input forwarded
/// without the worker's own keys; `None` when the run names no upstream.
pub(crate) fn proxy_call(
    input: &Map<String, Value>,
    props: &Map<String, Value>,
) -> Result<Option<Call>, Error> {
    let Some(upstream) = props.get("upstream") else {
        return Ok(None);
    };
    let Some(name) = upstream.as_str().filter(|n| !n.is_empty()) else {
        let why = "`forwardedProps.upstream` must be the name of an agent of GENUI_AGENTS";
        return Err(Error::new(ErrorCode::InvalidRequest, why).at(UPSTREAM_AT));
    };
    let forwarded_props: Map<String, Value> = props
        .iter()
        .filter(|(key, _)| !OWN_PROPS.contains(&key.as_str()))
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect();
    let mut forwarded = input.clone();
    forwarded.insert("forwardedProps".into(), Value::Object(forwarded_props));
    let form_options = FORM_OPTIONS
        .iter()
        .filter_map(|key| props.get(*key).map(|v| ((*key).to_owned(), v.clone())))
        .collect();
    Ok(Some(Call::Proxy {
        upstream: name.to_owned(),
        forwarded: Value::Object(forwarded),
        form_options,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(value: Value) -> Result<RunInput, Error> {
        RunInput::read(&serde_json::to_vec(&value).unwrap(), &Limits::default())
    }

    fn args() -> Value {
        json!({"description": "d", "output": {"type": "object", "properties": {"a": {"type": "string"}}}})
    }

    #[test]
    fn finds_the_last_assistant_tool_call() {
        let call = json!({"id": "call_9", "type": "function", "function": {"name": "generateUserInterface", "arguments": args().to_string()}});
        let input = read(json!({"threadId": "t", "runId": "r", "messages": [
            {"id": "1", "role": "user", "content": "hi"},
            {"id": "2", "role": "assistant", "toolCalls": [call]}]}))
        .unwrap();
        assert_eq!(
            input.call,
            Call::Generate {
                body: call,
                at: "/messages/1/toolCalls/0".into()
            }
        );
    }

    #[test]
    fn a_generate_run_s_job_is_its_call_s_and_its_errors_point_into_the_run() {
        let run = |args: Value| {
            let call = json!({"id": "call_9", "type": "function", "function": {"name": "generateUserInterface", "arguments": args.to_string()}});
            read(json!({"threadId": "t", "runId": "r", "messages": [
                {"id": "2", "role": "assistant", "toolCalls": [call]}]}))
            .unwrap()
        };
        let job = run(args())
            .generate_job(None, &Limits::default(), 0, None)
            .unwrap();
        assert_eq!(job.request().tool_call_id.as_deref(), Some("call_9"));
        let no_output = json!({"description": "d"});
        let error = run(no_output)
            .generate_job(None, &Limits::default(), 0, None)
            .map(|_| ())
            .unwrap_err();
        let at = error.pointer().unwrap_or_default();
        assert!(at.starts_with("/messages/0/toolCalls/0"), "{at}");
    }

    #[test]
    fn forwarded_props_win_and_name_the_call() {
        let input = read(json!({"threadId": "t", "runId": "r", "messages": [], "forwardedProps": {"generateUserInterface": args(), "format": "a2ui"}})).unwrap();
        let Call::Generate { body, .. } = &input.call else {
            panic!()
        };
        assert_eq!(
            (body["toolCallId"].as_str(), body["format"].as_str()),
            (Some("r"), Some("a2ui"))
        );
        let action = json!({"name": "genui.submit", "surfaceId": "genui-x", "sourceComponentId": "submit", "timestamp": "2026-11-25T00:00:00Z", "context": {}});
        let input = read(json!({"threadId": "t", "runId": "r", "forwardedProps": {"a2uiAction": {"userAction": action}}})).unwrap();
        assert!(matches!(input.call, Call::Submit { .. }));
    }

    #[test]
    fn a_submission_answers_its_tool_call_or_finishes_with_the_dgui_response() {
        let action = json!({"name": "genui.submit", "surfaceId": "genui-x", "sourceComponentId": "submit", "timestamp": "2026-11-25T00:00:00Z", "context": {}});
        let input = read(json!({"threadId": "t", "runId": "r", "forwardedProps": {"a2uiAction": {"userAction": action}}})).unwrap();
        let frames = |answer: Value| {
            let text = AgentEvents::new(&input).submission(&HttpResponse::json(200, &answer));
            text.lines()
                .filter_map(|l| l.strip_prefix("data: "))
                .map(|l| serde_json::from_str::<Value>(l).unwrap())
                .collect::<Vec<_>>()
        };
        let told = frames(
            json!({"id": "result_1", "role": "tool", "toolCallId": "call_1", "content": "{}"}),
        );
        assert_eq!(told[1]["type"], "TOOL_CALL_RESULT");
        assert_eq!(told[1]["toolCallId"], "call_1");
        assert_eq!(told[2]["result"], json!({"accepted": true}));
        let response = json!({"type": "dgui_response", "data": {"a": "x"}});
        let untold = frames(response.clone());
        assert_eq!(untold.len(), 2, "{untold:?}");
        assert_eq!(untold[1]["type"], "RUN_FINISHED");
        assert_eq!(
            untold[1]["result"],
            json!({"accepted": true, "response": response})
        );
        let answered = Submitted::Answer(HttpResponse::json(200, &response));
        let text = AgentEvents::submitted(&input, answered).unwrap();
        assert!(text.contains("RUN_FINISHED"), "{text}");
        let unread = Error::new(ErrorCode::InvalidRequest, "not a submission").at("/context");
        let error = AgentEvents::submitted(&input, Submitted::Unread(unread)).unwrap_err();
        assert_eq!(
            error.pointer(),
            Some("/forwardedProps/a2uiAction/userAction/context")
        );
    }

    #[test]
    fn the_frontends_catalog_id_is_stamped_on_the_surface() {
        let context = json!([{"description": A2UI_SCHEMA_CONTEXT_DESCRIPTION, "value": json!({"catalogId": "old-id", "components": {}}).to_string()}]);
        let input = read(json!({"threadId": "t", "runId": "r", "context": context, "forwardedProps": {"generateUserInterface": args()}})).unwrap();
        assert_eq!(input.catalog_id.as_deref(), Some("old-id"));
        let body = json!({"messages": [{"version": "v0.9", "createSurface": {"surfaceId": "genui-r", "catalogId": "spec-id"}}]});
        let mut events = AgentEvents::new(&input);
        let text = events.frames(&Update::Ui(HttpResponse::json(200, &body)));
        assert!(
            text.contains("\"catalogId\":\"old-id\"")
                && text.contains("\"messageId\":\"a2ui-surface-r\""),
            "{text}"
        );
        let plain = read(json!({"threadId": "t", "runId": "r", "forwardedProps": {"generateUserInterface": args()}})).unwrap();
        assert_eq!(plain.catalog_id, None);
    }

    #[test]
    fn an_edit_is_a_delta_from_the_activity_the_client_holds() {
        let input = read(json!({"threadId": "t", "runId": "r", "forwardedProps": {"generateUserInterface": args()}})).unwrap();
        let answer = |title: &str| {
            let body = json!({"type": "dgui_form", "meta": {"toolCallId": "c1", "title": title}});
            HttpResponse::json(200, &body)
        };
        let mut events = AgentEvents::new(&input);
        let held = events.frames(&Update::Base(answer("Before")));
        assert!(!held.contains("ACTIVITY"), "the client holds it: {held}");
        let text = events.frames(&Update::Ui(answer("After")));
        assert!(!text.contains("ACTIVITY_SNAPSHOT"), "{text}");
        assert!(
            text.contains("\"type\":\"ACTIVITY_DELTA\"") && text.contains("\"value\":\"After\""),
            "{text}"
        );
        // Another tool call is another activity: a snapshot of its own.
        let mut events = AgentEvents::new(&input);
        let _ = events.frames(&Update::Base(answer("Before")));
        let body = json!({"type": "dgui_form", "meta": {"toolCallId": "c2", "title": "Other"}});
        let text = events.frames(&Update::Ui(HttpResponse::json(200, &body)));
        assert!(text.contains("ACTIVITY_SNAPSHOT"), "{text}");
    }

    #[test]
    fn instructions_come_from_named_context_entries_only() {
        let context = json!([
            {"description": "The user's cart", "value": "{\"items\": 3}"},
            {"description": "Instructions", "value": "Put the country first."},
            {"description": "genui:instructions", "value": "Short labels."}]);
        let input = read(json!({"threadId": "t", "runId": "r", "context": context, "forwardedProps": {"generateUserInterface": args()}})).unwrap();
        let Call::Generate { body, .. } = &input.call else {
            panic!()
        };
        assert_eq!(
            body["instructions"],
            "Put the country first.\n\nShort labels."
        );
        let mut own = args();
        own["instructions"] = json!("Mine.");
        let input = read(json!({"threadId": "t", "runId": "r", "context": context, "forwardedProps": {"generateUserInterface": own}})).unwrap();
        let Call::Generate { body, .. } = &input.call else {
            panic!()
        };
        assert_eq!(body["instructions"], "Mine.", "the call's own win");
        let long = json!([{"description": "instructions", "value": "x".repeat(5000)}]);
        let e = read(json!({"threadId": "t", "runId": "r", "context": long, "forwardedProps": {"generateUserInterface": args()}})).unwrap_err();
        assert_eq!(
            (e.code(), e.pointer(), e.http_status()),
            (
                ErrorCode::InstructionsTooLarge,
                Some("/context/0/value"),
                413
            )
        );
    }

    #[test]
    fn missing_and_malformed_calls_name_the_place() {
        let no_call = read(json!({"threadId": "t", "runId": "r", "messages": [{"id": "1", "role": "assistant", "content": "x"}]})).unwrap_err();
        assert_eq!(
            (no_call.code(), no_call.pointer()),
            (ErrorCode::InvalidRequest, Some("/messages"))
        );
        assert_eq!(
            read(json!({"runId": "r"})).unwrap_err().pointer(),
            Some("/threadId")
        );
        assert_eq!(
            read(json!({"threadId": "t", "runId": "r", "forwardedProps": {"events": 3}}))
                .unwrap_err()
                .pointer(),
            Some("/forwardedProps/events")
        );
        let input = read(json!({"threadId": "t", "runId": "r", "forwardedProps": {"generateUserInterface": args()}})).unwrap();
        let located = input.locate(Error::new(ErrorCode::InvalidRequest, "x").at("/output/type"));
        assert_eq!(
            located.pointer(),
            Some("/forwardedProps/generateUserInterface/output/type")
        );
    }

    /// `forwardedProps.interrupts`: one interrupt per run, answered as
    /// `/v1/interrupt` answers it, its form the run's activity with the
    /// token in `meta.interrupt`; errors point into the run input.
    /// The `ACTIVITY_SNAPSHOT` a run answering one interrupt sends (signed
    /// with a test secret).
    fn interrupt_activity(input: &RunInput) -> Value {
        let job = input
            .generate_job(None, &Limits::default(), 0, Some("s3cret"))
            .unwrap();
        let answer = job.answer(None).response;
        AgentEvents::new(input)
            .frames(&Update::Ui(answer))
            .lines()
            .filter_map(|l| l.strip_prefix("data: "))
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .find(|e| e["type"] == "ACTIVITY_SNAPSHOT")
            .expect("the form as an activity")
    }

    #[test]
    fn an_interrupt_in_forwarded_props_is_answered_as_its_form() {
        let interrupt = json!({"id": "int-1", "reason": "input_required", "message": "Which quarter?",
            "toolCallId": "call_q", "responseSchema": {"type": "object", "properties": {"q": {"type": "string"}}}});
        let input = read(json!({"threadId": "t", "runId": "r", "forwardedProps": {
            "interrupts": [interrupt], "format": "rjsf", "data": {"q": "Q1"}}}))
        .unwrap();
        assert_eq!(
            input.call,
            Call::Interrupt {
                body: json!({"interrupt": interrupt, "format": "rjsf", "data": {"q": "Q1"}}),
                at: "/forwardedProps/interrupts/0".into()
            }
        );
        let snapshot = interrupt_activity(&input);
        let content = &snapshot["content"];
        assert_eq!(snapshot["activityType"], "genui.rjsf");
        assert_eq!(content["description"], "Which quarter?");
        assert_eq!(content["metadata"]["toolCallId"], "call_q", "{content}");
        assert!(
            content["metadata"]["interrupt"]["token"].is_string(),
            "{content}"
        );
        // A2UI and HTML bodies have no `meta`: the token and spec hash of
        // their headers travel in the activity's metadata.
        for format in ["a2ui", "html"] {
            let run = json!({"threadId": "t", "runId": "r", "forwardedProps": {
                "interrupts": [interrupt.clone()], "format": format}});
            let snapshot = interrupt_activity(&read(run).unwrap());
            let metadata = &snapshot["content"]["metadata"];
            assert!(
                metadata["interrupt"]["token"].is_string(),
                "{format}: {snapshot}"
            );
            assert!(metadata["specHash"].is_string(), "{format}: {snapshot}");
        }
        // Errors name their place in the run input.
        let no_schema = json!({"threadId": "t", "runId": "r", "forwardedProps": {"interrupts": [{"id": "i", "reason": "x"}]}});
        let input = read(no_schema).unwrap();
        let error = input
            .generate_job(None, &Limits::default(), 0, None)
            .map(|_| ())
            .unwrap_err();
        assert_eq!(
            error.pointer(),
            Some("/forwardedProps/interrupts/0/responseSchema")
        );
        let two = json!({"threadId": "t", "runId": "r", "forwardedProps": {"interrupts": [{"id": "a", "reason": "confirmation"}, {"id": "b", "reason": "confirmation"}]}});
        assert_eq!(
            read(two).unwrap_err().pointer(),
            Some("/forwardedProps/interrupts/1")
        );
        let none = json!({"threadId": "t", "runId": "r", "forwardedProps": {"interrupts": []}});
        assert_eq!(
            read(none).unwrap_err().pointer(),
            Some("/forwardedProps/interrupts/0")
        );
    }
}
