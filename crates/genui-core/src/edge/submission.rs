//! One submission path for every front door: `POST /v1/submit` (JSON, or
//! the `format=html` form posted by a browser), a hosted link's
//! `POST /f/<token>`, an AG-UI run's A2UI action (`POST /v1/agent`) and
//! MCP's `submit_user_interface`.
//!
//! Sans-IO, in two steps, like the generation machine:
//!
//! 1. [`Submission::new`] takes the request's facts as they came
//!    (`SubmitFacts`: the body as read, or why it could not be read;
//!    `Content-Type`, `Accept`, `Accept-Language`, the A2UI data-model
//!    header) and the door ([`SubmitDoor`]); it reads the body and chooses
//!    the row of the answer ([`SubmitAnswer`]).
//! 2. [`Submission::needs`] names the KV key of the spec to read, if any;
//!    [`Submission::answer`] takes what the read found and answers
//!    ([`Submitted`]). The shell performs that read and nothing else.
//!
//! A `/v1/submit` body is read by what it holds, never by its
//! `Content-Type` (curl's `-d` calls any body a form post):
//!
//! - a body that opens with `{` or `[`, or is any other JSON text, is a
//!   JSON submission (`schemas/submit-request.schema.json`);
//! - otherwise, fields of a form post that carry `_specHash` are the
//!   `format=html` form's post;
//! - anything else is refused, 400 `invalid_request` at `/_specHash`,
//!   saying it is neither.
//!
//! The row: a browser's form post whose `Accept` ranks HTML above JSON
//! gets a page; every other caller the message that fits the submission:
//! an AG-UI `ResumeEntry` when it names an interrupt (`interruptId`, its
//! token checked with the secret [`Submission::signed_by`] gives), the
//! AG-UI tool message when it names its tool call, DGUI's `dgui_response`
//! when it names none. A hosted link's valid answer is a
//! message to store (the link's object delivers it); its pages are the
//! link's own.

use crate::edge::forms::FormRecord;
use crate::error::{Error, ErrorCode};
use crate::render::html::reply::prefers_html;
use crate::submit::{SubmitAnswer, SubmitJob};
use crate::terms::limits::Limits;
use crate::terms::response::HttpResponse;
use serde_json::Value;

/// The front door a submission came through (each has its constructor:
/// [`Submission::api`], [`Submission::hosted`], [`Submission::agent`]).
#[derive(Debug, Clone)]
pub(crate) enum SubmitDoor {
    /// `POST /v1/submit`: JSON, or the `format=html` form's post.
    Api,
    /// `POST /f/<token>`: a hosted link's form post. The link's record and
    /// spec come from its object, so no KV read is needed.
    Hosted(Box<HostedLink>),
    /// `POST /v1/agent`: the A2UI action of a submission run, as JSON.
    Agent,
    /// `POST /mcp`, `submit_user_interface`: the tool's arguments, as JSON.
    Mcp,
}

impl SubmitDoor {
    /// How many levels this door's answer wraps a message in, beyond the
    /// message itself: `/mcp` carries it at `result.structuredContent
    /// .response`, `/v1/agent` at `RUN_FINISHED`'s `result.response`. The
    /// depth check counts them, so the whole answer stays readable by a
    /// JSON parser with the body's depth limit.
    fn envelope_depth(&self) -> usize {
        match self {
            Self::Api | Self::Hosted(_) => 0,
            Self::Agent => 2,
            Self::Mcp => 3,
        }
    }

    /// A hosted link's door: its signed `token`, its `record` and the
    /// `spec` stored with it, and its answer's id
    /// ([`crate::FormToken::answer_id`]).
    fn hosted(token: &str, record: FormRecord, spec: &str, answer_id: String) -> Self {
        Self::Hosted(Box::new(HostedLink {
            token: token.to_owned(),
            record,
            spec: spec.to_owned(),
            answer_id,
        }))
    }
}

/// What a hosted link's post is read and answered with.
#[derive(Debug, Clone)]
pub(crate) struct HostedLink {
    /// The link's signed token (the form posts back to `/f/<token>`).
    pub token: String,
    /// The link's record: spec hash, tool call, language.
    pub record: FormRecord,
    /// The spec, as stored with the link.
    pub spec: String,
    /// The id of the link's answer ([`crate::FormToken::answer_id`]).
    pub answer_id: String,
}

/// The headers a submission reads, in [`SubmitFacts`]' order:
/// `Content-Type` (only a witness for a body that could not be read),
/// `Accept`, `Accept-Language`, and A2UI's data model over HTTP.
const HEADERS: [&str; 4] = [
    "content-type",
    "accept",
    "accept-language",
    "a2ui-client-data-model",
];

/// The request's facts, as they came.
#[derive(Debug, Clone)]
pub(crate) struct SubmitFacts<'a> {
    /// The body, or why it could not be read (too large, a broken stream).
    pub(crate) body: Result<&'a [u8], Error>,
    /// `Content-Type`: only a witness for a body that could not be read.
    pub(crate) content_type: Option<&'a str>,
    /// `Accept`.
    pub(crate) accept: Option<&'a str>,
    /// `Accept-Language`.
    pub(crate) accept_language: Option<&'a str>,
    /// `a2ui-client-data-model` (A2UI's transport metadata over HTTP).
    pub(crate) data_model: Option<&'a str>,
}

impl<'a> SubmitFacts<'a> {
    /// Just a body (the agent's and MCP's doors, tests).
    pub(crate) fn body(body: &'a [u8]) -> Self {
        Self::body_or_error(Ok(body))
    }

    /// Just a body, or why it could not be read (a hosted link's post).
    pub(crate) fn body_or_error(body: Result<&'a [u8], Error>) -> Self {
        Self {
            body,
            content_type: None,
            accept: None,
            accept_language: None,
            data_model: None,
        }
    }
}

/// What the shell does with a submission's answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Submitted {
    /// Send this answer (at the agent door: write it as the run's events).
    Answer(HttpResponse),
    /// At the agent door only: the body is not a submission; the error
    /// points into the body, for the run to place and answer plainly.
    Unread(Error),
    /// At a hosted link only: a valid answer. Store `message` in the
    /// link's object under `delivery_id`; its delivery is the object's.
    Store {
        /// The message for the link's callback.
        message: String,
        /// The delivery's id (`x-genui-delivery-id`).
        delivery_id: String,
    },
}

impl Submitted {
    /// The answer as a response: an unread body's `dgui_error`; a hosted
    /// answer to store is no response (500, for a door that sends one).
    pub fn into_response(self) -> HttpResponse {
        match self {
            Self::Answer(response) => response,
            Self::Unread(error) => HttpResponse::error(&error),
            Self::Store { .. } => HttpResponse::error(&Error::new(
                ErrorCode::Internal,
                "a hosted link's answer was sent instead of stored",
            )),
        }
    }
}

/// A submission between reading its body and its answer.
#[derive(Debug)]
pub struct Submission {
    state: State,
}

#[derive(Debug)]
enum State {
    /// Answered before any check (the body is not a submission).
    Done(Submitted),
    /// Read, waiting for the spec.
    Read {
        job: Box<SubmitJob>,
        door: SubmitDoor,
        /// A person's browser: answered with a page.
        page: bool,
    },
}

/// What a `/v1/submit` body holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BodyKind {
    Json,
    FormPost,
    Neither,
}

impl BodyKind {
    fn of(body: &[u8]) -> Self {
        let first = body.iter().find(|b| !b.is_ascii_whitespace());
        if matches!(first, Some(b'{' | b'[')) {
            return Self::Json;
        }
        if form_urlencoded::parse(body).any(|(name, _)| name == "_specHash") {
            return Self::FormPost;
        }
        match serde_json::from_slice::<serde::de::IgnoredAny>(body) {
            Ok(_) => Self::Json,
            Err(_) => Self::Neither,
        }
    }
}

/// The refusal of a body that is neither JSON nor the form's post.
fn neither() -> Error {
    Error::new(
        ErrorCode::InvalidRequest,
        "the body is neither JSON nor a form post with `_specHash`: send a JSON object \
         (`{\"specHash\", \"toolCallId\", \"data\"}`, with `content-type: application/json`), \
         or post the format=html form with its hidden `_specHash` field",
    )
    .at("/_specHash")
}

impl Submission {
    /// `POST /v1/submit` (JSON, or the `format=html` form's post): its body
    /// as read (or why it could not be read: too large, a broken stream),
    /// and its request's headers by name (the machine asks for the ones it
    /// reads: [`HEADERS`]).
    pub fn api(
        body: Result<&[u8], Error>,
        header: impl Fn(&str) -> Option<String>,
        limits: &Limits,
    ) -> Self {
        Self::new(SubmitDoor::Api, body, header, limits)
    }

    /// `POST /f/<token>`, a hosted link's form post: its signed `token`,
    /// its `record` and the `spec` stored with it (so no KV read is
    /// needed), its answer's id ([`crate::FormToken::answer_id`]), and the
    /// body as read.
    pub fn hosted(
        token: &str,
        record: FormRecord,
        spec: &str,
        answer_id: String,
        body: Result<&[u8], Error>,
        limits: &Limits,
    ) -> Self {
        let door = SubmitDoor::hosted(token, record, spec, answer_id);
        Self::new(door, body, |_| None, limits)
    }

    /// `POST /v1/agent`: the A2UI action of a submission run, as JSON.
    pub fn agent(body: Result<&[u8], Error>, limits: &Limits) -> Self {
        Self::new(SubmitDoor::Agent, body, |_| None, limits)
    }

    /// Reads a submission that came through `door` (see [`Submission::api`]).
    pub(crate) fn new(
        door: SubmitDoor,
        body: Result<&[u8], Error>,
        header: impl Fn(&str) -> Option<String>,
        limits: &Limits,
    ) -> Self {
        let [content_type, accept, accept_language, data_model] = HEADERS.map(header);
        let facts = SubmitFacts {
            body,
            content_type: content_type.as_deref(),
            accept: accept.as_deref(),
            accept_language: accept_language.as_deref(),
            data_model: data_model.as_deref(),
        };
        Self::read(door, facts, limits)
    }

    /// [`Submission::new`] from facts already gathered.
    pub(crate) fn read(door: SubmitDoor, mut facts: SubmitFacts<'_>, limits: &Limits) -> Self {
        // The size first: a body sent without `Content-Length` was read
        // whole, and nothing scans it before this check.
        facts.body = facts
            .body
            .and_then(|body| limits.check_body_size(body.len()).map(|()| body));
        let state = match door {
            SubmitDoor::Api => read_api(facts, limits),
            SubmitDoor::Hosted(link) => read_hosted(link, facts.body, limits),
            SubmitDoor::Agent | SubmitDoor::Mcp => read_json(door, facts.body, limits),
        };
        Self { state }
    }

    /// Signs the resume entry of a submission naming an AG-UI interrupt
    /// with `WEBHOOK_SECRET` (`None`: not set, and such a submission is
    /// refused) at `now` (Unix seconds); `/v1/submit` is the door that
    /// takes them.
    pub fn signed_by(mut self, secret: Option<&str>, now: u64) -> Self {
        if let State::Read { job, .. } = &mut self.state {
            job.sign_with(secret, now);
        }
        self
    }

    /// The KV key of the spec to read first (`None`: answer at once).
    pub fn needs(&self) -> Option<String> {
        match &self.state {
            State::Read {
                job,
                door: SubmitDoor::Api | SubmitDoor::Agent | SubmitDoor::Mcp,
                ..
            } => job.cache_key(),
            _ => None,
        }
    }

    /// The answer, given what the KV read found (`None`: nothing, or no
    /// read); `request_id` names a tool message (`result_<id>`).
    pub fn answer(self, cached: Option<&str>, request_id: &str) -> Submitted {
        let (job, door, page) = match self.state {
            State::Done(done) => return done,
            State::Read { job, door, page } => (*job, door, page),
        };
        match door {
            SubmitDoor::Hosted(link) => answer_hosted(job, &link),
            _ => {
                let row = match page {
                    true => SubmitAnswer::Page,
                    false => job.row(),
                };
                Submitted::Answer(job.answer_as(row, cached, request_id).response)
            }
        }
    }
}

fn read_api(facts: SubmitFacts<'_>, limits: &Limits) -> State {
    let language = facts.accept_language;
    let browser = prefers_html(facts.accept);
    // Refused before a submission could be read: a page for a person, else
    // the `dgui_error` (every message row refuses alike).
    let refuse = |error: &Error, page: bool| {
        let row = match page {
            true => SubmitAnswer::Page,
            false => SubmitAnswer::DguiResponse,
        };
        State::Done(Submitted::Answer(row.refusal(error, language)))
    };
    let body = match facts.body {
        Ok(body) => body,
        // No body to tell by: the content type is the only witness of a
        // browser's form post.
        Err(error) => {
            let form = facts
                .content_type
                .is_some_and(|t| t.starts_with("application/x-www-form-urlencoded"));
            return refuse(&error, form && browser);
        }
    };
    let kind = BodyKind::of(body);
    // A body that is not JSON is a form's fields as far as the answer's
    // shape goes: a browser posts nothing else.
    let page = browser && kind != BodyKind::Json;
    let prepared = match kind {
        BodyKind::Json => SubmitJob::prepare_with(body, facts.data_model, limits),
        BodyKind::FormPost => SubmitJob::prepare_form(body, None, None, limits),
        BodyKind::Neither => Err(neither()),
    };
    match prepared {
        Ok(job) => State::Read {
            job: Box::new(job.with_accept_language(language)),
            door: SubmitDoor::Api,
            page,
        },
        Err(error) => refuse(&error, page),
    }
}

fn read_json(door: SubmitDoor, body: Result<&[u8], Error>, limits: &Limits) -> State {
    match body.and_then(|body| SubmitJob::prepare(body, limits)) {
        Ok(job) => State::Read {
            job: Box::new(job.wrapped_in(door.envelope_depth())),
            door,
            page: false,
        },
        Err(error) => State::Done(match door {
            SubmitDoor::Agent => Submitted::Unread(error),
            _ => Submitted::Answer(HttpResponse::error(&error)),
        }),
    }
}

fn read_hosted(link: Box<HostedLink>, body: Result<&[u8], Error>, limits: &Limits) -> State {
    let record = &link.record;
    let prepared = body.and_then(|body| {
        SubmitJob::prepare_form(
            body,
            Some(&record.spec_hash),
            record.tool_call_id.as_deref(),
            limits,
        )
    });
    match prepared {
        Ok(job) => State::Read {
            job: Box::new(job.with_locale(record.locale.as_deref())),
            door: SubmitDoor::Hosted(link),
            page: true,
        },
        Err(error) => State::Done(Submitted::Answer(hosted_again(&link, &Value::Null, &error))),
    }
}

/// A hosted link's form again, `data` in its fields and `error` beside them.
fn hosted_again(link: &HostedLink, data: &Value, error: &Error) -> HttpResponse {
    HttpResponse::hosted_form(&link.token, &link.record, &link.spec, Some((data, error)))
}

fn answer_hosted(job: SubmitJob, link: &HostedLink) -> Submitted {
    match job.answer_with_data(Some(&link.spec), &link.answer_id) {
        (Ok(message), _) => Submitted::Store {
            message,
            delivery_id: format!("result_{}", link.answer_id),
        },
        (Err(error), data) => Submitted::Answer(hosted_again(link, &data, &error)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::terms::contracts::Contract;
    use serde_json::json;

    const BROWSER: &str = "text/html,application/xhtml+xml,*/*;q=0.8";

    fn output() -> Value {
        json!({"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}})
    }

    /// A `/v1/submit` with these facts, answered with nothing found in KV.
    fn api(body: &[u8], content_type: Option<&str>, accept: Option<&str>) -> HttpResponse {
        let facts = SubmitFacts {
            body: Ok(body),
            content_type,
            accept,
            accept_language: None,
            data_model: None,
        };
        Submission::read(SubmitDoor::Api, facts, &Limits::default())
            .answer(None, "r1")
            .into_response()
    }

    fn json_of(response: &HttpResponse) -> Value {
        serde_json::from_str(&response.body).unwrap()
    }

    #[test]
    fn a_submission_naming_its_tool_call_gets_the_tool_message() {
        let body = json!({"output": output(), "toolCallId": "call_9", "data": {"name": "Ada"}});
        let answer = api(body.to_string().as_bytes(), Some("application/json"), None);
        let message = json_of(&answer);
        Contract::ToolMessage.check(&message).unwrap();
        assert_eq!(
            message,
            json!({"id": "result_r1", "role": "tool", "toolCallId": "call_9", "content": "{\"name\":\"Ada\"}"})
        );
    }

    #[test]
    fn a_submission_naming_no_tool_call_gets_dguis_response_and_no_made_up_id() {
        for body in [
            json!({"output": output(), "data": {"name": "Ada"}}),
            json!({"type": "dgui_response", "output": output(), "data": {"name": "Ada"}}),
            json!({"output": output(), "toolCallId": " ", "data": {"name": "Ada"}}),
        ] {
            let answer = api(body.to_string().as_bytes(), Some("application/json"), None);
            assert_eq!(answer.status, 200, "{}", answer.body);
            let message = json_of(&answer);
            Contract::DguiResponse.check(&message).unwrap();
            assert_eq!(
                message,
                json!({"type": "dgui_response", "data": {"name": "Ada"}})
            );
            assert!(!answer.body.contains("call_"), "{}", answer.body);
        }
        // A place the worker could not check is named in the message too.
        let far = json!({"type": "object", "properties": {"far": {"$ref": "https://elsewhere.example/s.json"}}});
        let body = json!({"output": far, "data": {"far": 1}});
        let message = json_of(&api(body.to_string().as_bytes(), None, None));
        Contract::DguiResponse.check(&message).unwrap();
        assert_eq!(message["metadata"], json!({"genuiUnchecked": ["/far"]}));
    }

    #[test]
    fn a_json_body_is_json_whatever_its_content_type() {
        let body = json!({"output": output(), "toolCallId": "call_9", "data": {"name": "Ada"}});
        let json = api(body.to_string().as_bytes(), Some("application/json"), None);
        // curl -d without -H, and a browser's Accept: the same JSON answer.
        for accept in [None, Some(BROWSER)] {
            let form_type = api(
                body.to_string().as_bytes(),
                Some("application/x-www-form-urlencoded"),
                accept,
            );
            assert_eq!(form_type, json);
        }
        // A JSON scalar is read as JSON too (and refused as one).
        let scalar = json_of(&api(b"42", Some("application/x-www-form-urlencoded"), None));
        assert_eq!(
            scalar["message"],
            "a submission must be a JSON object (at the body root)"
        );
        // Broken JSON is a JSON error, with its line and column.
        let broken = json_of(&api(b"{\"data\": ", None, None));
        assert_eq!(broken["code"], "invalid_json");
    }

    #[test]
    fn a_form_post_is_known_by_its_spec_hash_field() {
        let post = format!("_specHash={}&%2Fname=Ada", "0".repeat(64));
        // Recognised by its fields whatever the content type: the spec is
        // looked up (here it is not cached: 404).
        for content_type in [None, Some("application/json"), Some("text/plain")] {
            let facts = SubmitFacts {
                content_type,
                ..SubmitFacts::body(post.as_bytes())
            };
            let submission = Submission::read(SubmitDoor::Api, facts, &Limits::default());
            assert_eq!(
                submission.needs(),
                Some(crate::cache::spec::cache_key(&"0".repeat(64)))
            );
            let answer = submission.answer(None, "r1").into_response();
            assert_eq!(json_of(&answer)["code"], "spec_not_found");
        }
        // A browser's post of it gets a page.
        let page = api(post.as_bytes(), None, Some(BROWSER));
        assert_eq!(page.status, 404);
        assert!(page.body.starts_with("<!doctype html>"), "{}", page.body);
    }

    #[test]
    fn a_body_that_is_neither_names_the_missing_field() {
        for body in [
            &b"hello"[..],
            b"",
            b"name=Ada",
            b"%2Fname=Ada&_toolCallId=c",
        ] {
            let answer = api(body, Some("application/x-www-form-urlencoded"), None);
            let error = json_of(&answer);
            Contract::DguiError.check(&error).unwrap();
            assert_eq!(answer.status, 400);
            assert_eq!(error["code"], "invalid_request");
            assert_eq!(error["payload"]["pointer"], "/_specHash");
            assert!(
                error["message"]
                    .as_str()
                    .unwrap()
                    .starts_with("the body is neither JSON nor a form post with `_specHash`"),
                "{error}"
            );
        }
    }

    #[test]
    fn an_unread_body_is_refused_in_the_doors_terms() {
        let too_large = Limits::default().check_body_size(usize::MAX).unwrap_err();
        let facts = |content_type| SubmitFacts {
            content_type,
            accept: Some(BROWSER),
            ..SubmitFacts::body_or_error(Err(too_large.clone()))
        };
        let api = |content_type| {
            Submission::read(SubmitDoor::Api, facts(content_type), &Limits::default())
                .answer(None, "r1")
        };
        // A browser's form post (only its content type tells): a page.
        let page = api(Some("application/x-www-form-urlencoded")).into_response();
        assert_eq!((page.status, page.body.contains("<html")), (413, true));
        assert_eq!(
            api(Some("application/json")),
            Submitted::Answer(HttpResponse::error(&too_large))
        );
        // The agent's run places the error itself.
        let agent = Submission::read(SubmitDoor::Agent, facts(None), &Limits::default());
        assert_eq!(agent.answer(None, "r1"), Submitted::Unread(too_large));
    }

    #[test]
    fn the_agent_and_mcp_doors_read_json_and_answer_the_same_rows() {
        let body = json!({"output": output(), "data": {"name": "Ada"}}).to_string();
        for door in [SubmitDoor::Agent, SubmitDoor::Mcp] {
            let submission =
                Submission::read(door, SubmitFacts::body(body.as_bytes()), &Limits::default());
            let answer = submission.answer(None, "r1").into_response();
            assert_eq!(
                json_of(&answer),
                json!({"type": "dgui_response", "data": {"name": "Ada"}})
            );
        }
        let unread = Submission::read(
            SubmitDoor::Agent,
            SubmitFacts::body(b"[]"),
            &Limits::default(),
        );
        assert!(matches!(unread.answer(None, "r"), Submitted::Unread(_)));
        let mcp = Submission::read(
            SubmitDoor::Mcp,
            SubmitFacts::body(b"[]"),
            &Limits::default(),
        );
        assert_eq!(mcp.answer(None, "r").into_response().status, 400);
    }

    #[test]
    fn a_door_that_wraps_the_message_deeper_counts_its_envelope_in_the_depth_limit() {
        let limits = Limits::default();
        // Data that a bare `dgui_response` carries within the limit.
        let mut data = json!("deep");
        for _ in 0..limits.max_body_depth - 2 {
            data = json!([data]);
        }
        let body = json!({"output": {}, "data": data}).to_string();
        let status = |door| {
            let facts = SubmitFacts::body(body.as_bytes());
            let answer = Submission::read(door, facts, &limits).answer(None, "r1");
            answer.into_response().status
        };
        assert_eq!(status(SubmitDoor::Api), 200);
        // Refused as too deep, as a body nested past the limit is.
        assert_eq!(status(SubmitDoor::Agent), 413);
        assert_eq!(status(SubmitDoor::Mcp), 413);
    }

    #[test]
    fn a_body_over_the_size_limit_is_refused_before_it_is_read() {
        let limits = Limits {
            max_body_bytes: 8,
            ..Limits::default()
        };
        // Not JSON, no form post: read, it would be the "neither" 400.
        let facts = SubmitFacts::body(b"neither json nor a form post");
        let answer = Submission::read(SubmitDoor::Api, facts, &limits).answer(None, "r1");
        let response = answer.into_response();
        assert_eq!(response.status, 413, "{}", response.body);
    }

    #[test]
    fn a_blank_tool_call_id_is_no_tool_call_whichever_reader_kept_it() {
        // The A2UI reader keeps a surface's `toolCallId: ""` as written.
        for blank in ["", " "] {
            assert_eq!(
                SubmitAnswer::for_message(Some(blank)),
                SubmitAnswer::DguiResponse
            );
        }
        assert_eq!(
            SubmitAnswer::for_message(Some("call_1")),
            SubmitAnswer::ToolMessage
        );
    }

    /// A hosted link made for `tool_call_id`, with its spec as stored.
    fn link(tool_call_id: Option<&str>) -> HostedLink {
        let body = json!({"description": "Hosted submission", "output": output()});
        let job = crate::service::GenerateJob::prepare(
            body.to_string().as_bytes(),
            Some("html"),
            &Limits::default(),
        )
        .unwrap();
        let outcome = job.clone().answer(None);
        let spec = outcome
            .cache_put
            .map(|p| p.value)
            .or_else(|| job.spec_json());
        HostedLink {
            token: "tok".into(),
            record: FormRecord {
                spec_hash: job.spec_hash().to_owned(),
                tool_call_id: tool_call_id.map(str::to_owned),
                callback_url: Some("https://agent.example/cb".into()),
                expires_at: 0,
                locale: None,
                prefill: None,
            },
            spec: spec.unwrap(),
            answer_id: "a1".into(),
        }
    }

    fn hosted(link: HostedLink, post: &[u8]) -> Submitted {
        let submission = Submission::read(
            SubmitDoor::Hosted(Box::new(link)),
            SubmitFacts::body(post),
            &Limits::default(),
        );
        assert_eq!(submission.needs(), None, "the link's spec came with it");
        submission.answer(None, "ignored")
    }

    #[test]
    fn a_hosted_links_valid_answer_is_stored_in_the_row_that_fits() {
        let stored = |tool_call_id| match hosted(link(tool_call_id), b"%2Fname=Ada") {
            Submitted::Store {
                message,
                delivery_id,
            } => (
                serde_json::from_str::<Value>(&message).unwrap(),
                delivery_id,
            ),
            other => panic!("{other:?}"),
        };
        let (message, delivery_id) = stored(Some("call_42"));
        assert_eq!(delivery_id, "result_a1");
        assert_eq!(
            message,
            json!({"id": "result_a1", "role": "tool", "toolCallId": "call_42", "content": "{\"name\":\"Ada\"}"})
        );
        let (message, _) = stored(None);
        assert_eq!(
            message,
            json!({"type": "dgui_response", "data": {"name": "Ada"}})
        );
        // Whoever holds the link cannot name a tool call the record lacks.
        let Submitted::Store { message, .. } =
            hosted(link(None), b"%2Fname=Ada&_toolCallId=call_x")
        else {
            panic!()
        };
        assert_eq!(
            serde_json::from_str::<Value>(&message).unwrap()["type"],
            "dgui_response"
        );
        // Refused: the link's form again, the error beside its field.
        let Submitted::Answer(again) = hosted(link(None), b"%2Fname=") else {
            panic!()
        };
        assert_eq!(again.status, 422);
        assert!(again.body.contains("action=\"/f/tok\""), "{}", again.body);
    }
}
