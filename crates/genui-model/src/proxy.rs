//! Proxy mode of `/v1/agent`: a run whose `forwardedProps.upstream` names
//! an agent of the operator's `GENUI_AGENTS` setting is forwarded to that
//! agent, and its AG-UI events are streamed back unchanged, except that
//! the interrupts of its `RUN_FINISHED` get the worker's forms first.
//!
//! This module owns every decision of that mode, without I/O:
//!
//! - the setting (`{"<name>": {"url": "https://…", "deadlineMs": 30000}}`):
//!   names and http(s) URLs as `GENUI_GENERATORS` has them, and deadline
//!   bounds; a malformed setting is answered as every bad setting is (a
//!   500 naming the place in it). Only configured names
//!   are reachable: the caller never supplies a URL;
//! - the forwarded request: the `RunAgentInput` without the
//!   `forwardedProps` keys the worker reads itself (`agui::OWN_PROPS`), with
//!   `Accept: text/event-stream`;
//! - the upstream's answer: a 2xx event stream, read with the
//!   `eventsource-stream` crate ([`Proxy::events`]) within a byte budget
//!   for the whole stream and for one event;
//! - the relay ([`Proxy::relay`]): each event forwarded as it came; at a
//!   `RUN_FINISHED` whose `outcome` is `{type: "interrupt", interrupts}`,
//!   the `/v1/interrupt` bodies of the interrupts that have a form (a
//!   `responseSchema`, or `reason: "confirmation"`), which the shell
//!   answers with the generation machine before it writes the held
//!   `RUN_FINISHED`;
//! - the upstream's failures, each a `RUN_ERROR` with its code (after a
//!   `RUN_STARTED` of ours when the upstream sent none):
//!   `upstream_unavailable` (unreachable, non-2xx), `upstream_invalid`
//!   (not SSE, not JSON, over a budget, closed before its run ended) and
//!   `upstream_timeout` (past the agent's deadline).

use crate::agui::{Call, RunInput, UPSTREAM_AT};
use crate::config;
use crate::providers::HttpRequest;
use crate::registry::{check_url, is_operator_name, OPERATOR_NAME_RULE};
use crate::stream::frame;
use eventsource_stream::{Event, EventStreamError, Eventsource};
use futures::{Stream, StreamExt};
use genui_core::{Error, ErrorCode};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::fmt::Display;
use std::ops::RangeInclusive;

/// An agent's deadline when its entry names none (ms).
const DEFAULT_DEADLINE_MS: u64 = 30_000;
/// The deadlines an entry may name (ms): one second to five minutes.
const DEADLINE_BOUNDS_MS: RangeInclusive<u64> = 1_000..=300_000;
/// The most agents the setting may name.
const MAX_AGENTS: usize = 64;
/// The most bytes one upstream stream may send.
const MAX_STREAM_BYTES: usize = 8 << 20;
/// The most bytes one upstream event may take.
const MAX_EVENT_BYTES: usize = 1 << 20;
/// Most forms made for one upstream `RUN_FINISHED` (each is a generation);
/// interrupts beyond reach the client unanswered in the relayed event.
const MAX_FORMS: usize = 8;

/// One configured upstream agent.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Agent {
    url: String,
    deadline_ms: u64,
}

/// A proxied run: the forwarded request and the relay's state.
#[derive(Debug)]
pub(crate) struct Proxy {
    url: String,
    deadline_ms: u64,
    body: String,
    thread_id: String,
    run_id: String,
    form_options: Map<String, Value>,
    /// A `RUN_STARTED` went out (the upstream's, or ours).
    started: bool,
    /// The run ended: the upstream's `RUN_FINISHED` or `RUN_ERROR`, or
    /// ours. Nothing more is read or written.
    over: bool,
}

/// What one upstream event becomes: the frames to write now, then the
/// forms of `interrupts` (`/v1/interrupt` bodies), then `held`.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Relayed {
    /// Frames to write at once.
    pub frames: String,
    /// The `/v1/interrupt` bodies whose forms go before `held`.
    pub interrupts: Vec<Vec<u8>>,
    /// The upstream's `RUN_FINISHED`, held until the forms are written.
    pub held: String,
}

impl Proxy {
    /// The setting that names the upstream agents.
    pub(crate) const SETTING: &'static str = "GENUI_AGENTS";

    /// The proxied run of `input` (a run whose call is
    /// [`Call::Proxy`]), its agent looked up in the `GENUI_AGENTS`
    /// setting; a run that is not a proxied one is a 500 (the caller
    /// opens only a proxied run).
    pub(crate) fn open(input: &RunInput, setting: Option<&str>) -> Result<Self, Error> {
        let Call::Proxy {
            upstream,
            forwarded,
            form_options,
        } = &input.call
        else {
            return Err(Error::new(
                ErrorCode::Internal,
                "a proxied run without its upstream",
            ));
        };
        let agent = find_agent(setting, upstream)?;
        Ok(Self {
            url: agent.url,
            deadline_ms: agent.deadline_ms,
            body: forwarded.to_string(),
            thread_id: input.thread_id.clone(),
            run_id: input.run_id.clone(),
            form_options: form_options.clone(),
            started: false,
            over: false,
        })
    }

    /// The request to the upstream agent.
    pub(crate) fn request(&self) -> HttpRequest {
        HttpRequest {
            method: "POST".into(),
            url: self.url.clone(),
            headers: vec![
                ("content-type".into(), "application/json".into()),
                ("accept".into(), "text/event-stream".into()),
            ],
            body: self.body.clone(),
        }
    }

    /// How long the upstream may take for its whole run (ms).
    pub(crate) fn deadline_ms(&self) -> u64 {
        self.deadline_ms
    }

    /// Whether the run has ended (the upstream's end, or our
    /// `RUN_ERROR`): the shell stops reading the upstream.
    pub(crate) fn is_over(&self) -> bool {
        self.over
    }

    /// The upstream's status and content type: `None` when it is an event
    /// stream to read, else the frames that end the run.
    pub(crate) fn answered(&mut self, status: u16, content_type: Option<&str>) -> Option<String> {
        if !(200..300).contains(&status) {
            let why = format!("the upstream agent answered HTTP {status}");
            return Some(self.fail(ErrorCode::UpstreamUnavailable, &why));
        }
        let media = content_type
            .and_then(|t| t.split(';').next())
            .map(str::trim)
            .unwrap_or_default();
        if !media.eq_ignore_ascii_case("text/event-stream") {
            let shown = if media.is_empty() {
                "no content type"
            } else {
                media
            };
            let why = format!("the upstream agent answered {shown}, not text/event-stream");
            return Some(self.fail(ErrorCode::UpstreamInvalid, &why));
        }
        None
    }

    /// The frames that end the run when the upstream cannot be reached.
    pub(crate) fn unreachable(&mut self, why: &str) -> String {
        let why = format!("the upstream agent could not be reached: {why}");
        self.fail(ErrorCode::UpstreamUnavailable, &why)
    }

    /// The frames that end the run when the deadline passed first.
    pub(crate) fn timed_out(&mut self) -> String {
        let why = format!(
            "the upstream agent did not end its run within {} ms",
            self.deadline_ms
        );
        self.fail(ErrorCode::UpstreamTimeout, &why)
    }

    /// The frames that end the stream when the upstream closed it: none
    /// when its run had ended, else `upstream_invalid`.
    pub(crate) fn closed(&mut self) -> String {
        let why = "the upstream agent closed its stream before RUN_FINISHED or RUN_ERROR";
        self.fail(ErrorCode::UpstreamInvalid, why)
    }

    /// The upstream body's SSE events, within the byte budgets: an `Err`
    /// (`upstream_invalid`) says why the stream cannot be read further.
    pub(crate) fn events<S, B, E>(body: S) -> impl Stream<Item = Result<Event, Error>>
    where
        S: Stream<Item = Result<B, E>>,
        B: AsRef<[u8]>,
        E: Display,
    {
        let mut budget = Budget::default();
        body.map(move |chunk| match chunk {
            Ok(chunk) => budget.spend(chunk.as_ref()).map(|()| chunk),
            Err(error) => Err(unreadable(format!(
                "reading the upstream's body failed: {error}"
            ))),
        })
        .eventsource()
        .map(|event| event.map_err(unparsed))
    }

    /// One upstream event (or why the stream cannot be read) relayed.
    pub(crate) fn relay(&mut self, event: Result<Event, Error>) -> Relayed {
        if self.over {
            return Relayed::default();
        }
        let event = match event {
            Ok(event) => event,
            Err(why) => return self.fail_relayed(&why),
        };
        let value = match agui_event(&event.data) {
            Ok(value) => value,
            Err(why) => return self.fail_relayed(&why),
        };
        let text = match event.data.contains('\n') {
            true => frame("", &value),
            false => format!("data: {}\n\n", event.data),
        };
        match value.get("type").and_then(Value::as_str) {
            Some("RUN_STARTED") => self.started = true,
            Some("RUN_ERROR") => self.over = true,
            Some("RUN_FINISHED") => {
                self.over = true;
                let interrupts = self.interrupt_bodies(&value);
                if !interrupts.is_empty() {
                    return Relayed {
                        frames: String::new(),
                        interrupts,
                        held: text,
                    };
                }
            }
            _ => {}
        }
        Relayed {
            frames: text,
            ..Relayed::default()
        }
    }

    /// The `/v1/interrupt` bodies of a `RUN_FINISHED`'s interrupts that
    /// have a form, with the run's form options.
    fn interrupt_bodies(&self, finished: &Value) -> Vec<Vec<u8>> {
        let outcome = finished.get("outcome");
        if outcome.and_then(|o| o.get("type")).and_then(Value::as_str) != Some("interrupt") {
            return Vec::new();
        }
        let Some(interrupts) = outcome
            .and_then(|o| o.get("interrupts"))
            .and_then(Value::as_array)
        else {
            return Vec::new();
        };
        interrupts
            .iter()
            .filter(|interrupt| has_form(interrupt))
            .take(MAX_FORMS)
            .map(|interrupt| {
                let mut body = self.form_options.clone();
                body.insert("interrupt".into(), interrupt.clone());
                serde_json::to_vec(&Value::Object(body)).unwrap_or_default()
            })
            .collect()
    }

    fn fail_relayed(&mut self, why: &Error) -> Relayed {
        Relayed {
            frames: self.fail(why.code(), why.message()),
            ..Relayed::default()
        }
    }

    /// Our `RUN_ERROR` (after our `RUN_STARTED` when the upstream sent
    /// none, so the stream stays a valid AG-UI run); the run is over.
    /// Nothing when it already was.
    fn fail(&mut self, code: ErrorCode, why: &str) -> String {
        let mut text = String::new();
        if self.over {
            return text;
        }
        if !self.started {
            text.push_str(&frame(
                "",
                &json!({"type": "RUN_STARTED", "threadId": self.thread_id, "runId": self.run_id}),
            ));
        }
        (self.started, self.over) = (true, true);
        text.push_str(&frame(
            "",
            &json!({"type": "RUN_ERROR", "message": why, "code": code.as_str()}),
        ));
        text
    }
}

/// Whether the worker answers an interrupt with a form: it has a
/// `responseSchema`, or it asks for a confirmation (the approval UI).
fn has_form(interrupt: &Value) -> bool {
    interrupt.get("responseSchema").is_some()
        || interrupt.get("reason").and_then(Value::as_str) == Some("confirmation")
}

/// Why the upstream's stream cannot be read further (`upstream_invalid`).
fn unreadable(why: String) -> Error {
    Error::new(ErrorCode::UpstreamInvalid, why)
}

/// The SSE parser's error as [`unreadable`]; a failure of the body under
/// it (its own `upstream_invalid`) keeps its message, after the parser's
/// `Transport error: ` prefix.
fn unparsed(error: EventStreamError<Error>) -> Error {
    match error {
        EventStreamError::Transport(error) => {
            unreadable(format!("Transport error: {}", error.message()))
        }
        other => unreadable(other.to_string()),
    }
}

/// An event's data as an AG-UI event: a JSON object with a string `type`.
fn agui_event(data: &str) -> Result<Value, Error> {
    if data.len() > MAX_EVENT_BYTES {
        return Err(unreadable(format!(
            "an upstream event of {} bytes is over the limit of {MAX_EVENT_BYTES}",
            data.len()
        )));
    }
    let value: Value = serde_json::from_str(data).map_err(|e| {
        unreadable(format!(
            "an upstream event is not JSON ({e}): {}",
            excerpt(data)
        ))
    })?;
    match value.get("type") {
        Some(Value::String(_)) => Ok(value),
        _ => Err(unreadable(format!(
            "an upstream event is not an AG-UI event (no string `type`): {}",
            excerpt(data)
        ))),
    }
}

/// The start of an upstream's text, for a message.
fn excerpt(text: &str) -> String {
    const SHOWN: usize = 80;
    match text.char_indices().nth(SHOWN) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}

/// The bytes an upstream stream has spent: in all, and in the event being
/// read (up to its end, a blank line; lines end with CRLF, LF or CR, as
/// SSE has them).
#[derive(Debug, Default)]
struct Budget {
    total: usize,
    in_event: usize,
    line_len: usize,
    after_cr: bool,
}

impl Budget {
    fn spend(&mut self, chunk: &[u8]) -> Result<(), Error> {
        self.total += chunk.len();
        if self.total > MAX_STREAM_BYTES {
            return Err(unreadable(format!(
                "the upstream stream is over the limit of {MAX_STREAM_BYTES} bytes"
            )));
        }
        for &byte in chunk {
            let after_cr = std::mem::replace(&mut self.after_cr, byte == b'\r');
            match byte {
                // The LF of a CRLF: the CR ended the line.
                b'\n' if after_cr => {}
                b'\r' | b'\n' => self.end_line(),
                _ => {
                    self.line_len += 1;
                    self.in_event += 1;
                }
            }
            if self.in_event > MAX_EVENT_BYTES {
                return Err(unreadable(format!(
                    "an upstream event is over the limit of {MAX_EVENT_BYTES} bytes"
                )));
            }
        }
        Ok(())
    }

    /// A line ended; a blank one ends the event.
    fn end_line(&mut self) {
        if self.line_len == 0 {
            self.in_event = 0;
        }
        self.line_len = 0;
    }
}

/// The agent `name` of the setting; an unknown name is the caller's 400,
/// which never lists the configured names (they are the operator's).
fn find_agent(setting: Option<&str>, name: &str) -> Result<Agent, Error> {
    agents(setting)?.remove(name).ok_or_else(|| {
        let why = format!(
            "no upstream agent `{name}` is configured (the operator names them in {})",
            Proxy::SETTING
        );
        Error::new(ErrorCode::InvalidRequest, why).at(UPSTREAM_AT)
    })
}

/// The agents of the setting (none when it is unset).
fn agents(setting: Option<&str>) -> Result<BTreeMap<String, Agent>, Error> {
    let mut agents = BTreeMap::new();
    let Some(text) = setting.map(str::trim).filter(|t| !t.is_empty()) else {
        return Ok(agents);
    };
    let value: Value =
        serde_json::from_str(text).map_err(|e| misconfigured("", &format!("is not JSON: {e}")))?;
    let Value::Object(entries) = value else {
        return Err(misconfigured("", "must be an object of agent names"));
    };
    if entries.len() > MAX_AGENTS {
        let why = format!(
            "names {} agents, over the limit of {MAX_AGENTS}",
            entries.len()
        );
        return Err(misconfigured("", &why));
    }
    for (name, entry) in &entries {
        check_name(name)?;
        agents.insert(name.clone(), agent(name, entry)?);
    }
    Ok(agents)
}

/// A name, as `GENUI_GENERATORS` names its generators.
fn check_name(name: &str) -> Result<(), Error> {
    match is_operator_name(name) {
        true => Ok(()),
        false => Err(misconfigured(&pointer_to(name, ""), OPERATOR_NAME_RULE)),
    }
}

/// One entry: `{"url": "http(s)://…", "deadlineMs"?: 1000..=300000}`.
fn agent(name: &str, entry: &Value) -> Result<Agent, Error> {
    let Value::Object(fields) = entry else {
        let why = "must be an object {\"url\", \"deadlineMs\"}";
        return Err(misconfigured(&pointer_to(name, ""), why));
    };
    if let Some(unknown) = fields
        .keys()
        .find(|k| !["url", "deadlineMs"].contains(&k.as_str()))
    {
        let why = format!("has an unknown key {unknown:?} (known: url, deadlineMs)");
        return Err(misconfigured(&pointer_to(name, unknown), &why));
    }
    let url = agent_url(name, fields.get("url"))?;
    let deadline_ms = match fields.get("deadlineMs") {
        None => DEFAULT_DEADLINE_MS,
        Some(value) => value
            .as_u64()
            .filter(|ms| DEADLINE_BOUNDS_MS.contains(ms))
            .ok_or_else(|| {
                let why = format!(
                    "must be a whole number of milliseconds from {} to {}",
                    DEADLINE_BOUNDS_MS.start(),
                    DEADLINE_BOUNDS_MS.end()
                );
                misconfigured(&pointer_to(name, "deadlineMs"), &why)
            })?,
    };
    Ok(Agent { url, deadline_ms })
}

/// An agent's URL, checked as `GENUI_GENERATORS` checks its URLs.
fn agent_url(name: &str, value: Option<&Value>) -> Result<String, Error> {
    let at = pointer_to(name, "url");
    let url = value
        .and_then(Value::as_str)
        .ok_or_else(|| misconfigured(&at, "must be the agent's http(s) URL"))?;
    // The message names the URL's scheme and host only: a path or query may
    // hold the operator's token.
    let why = |e: Error| misconfigured(&at, &format!("is {}: {}", url_origin(url), e.message()));
    check_url(url).map_err(why)?;
    Ok(url.to_owned())
}

/// A URL's scheme and host (`https://agents.example`), for a message.
fn url_origin(url: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("", url));
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    // Never the credentials before an `@`.
    let host = authority.rsplit('@').next().unwrap_or_default();
    excerpt(&format!("{scheme}://{host}"))
}

/// The JSON Pointer of a name's entry (or one of its keys) in the setting.
fn pointer_to(name: &str, key: &str) -> String {
    let escape = |s: &str| s.replace('~', "~0").replace('/', "~1");
    match key {
        "" => format!("/{}", escape(name)),
        key => format!("/{}/{}", escape(name), escape(key)),
    }
}

/// The setting's fault, answered as every bad setting is
/// (`config::misconfigured`), naming the place in the setting. The pointer
/// is into the setting, not the request, so it is told in the message only.
fn misconfigured(at: &str, why: &str) -> Error {
    let place = match at {
        "" => String::new(),
        at => format!(" at {at}"),
    };
    config::misconfigured(format!("the {} setting{place}: {why}", Proxy::SETTING))
}

#[cfg(test)]
mod tests {
    use super::*;
    use genui_core::Limits;

    const SETTING: &str = r#"{"graph": {"url": "http://127.0.0.1:8123/agent", "deadlineMs": 5000},
        "slow": {"url": "https://agents.example.com/run"}}"#;

    fn run_input(props: Value) -> RunInput {
        let input = json!({"threadId": "t1", "runId": "r1", "messages": [], "state": {"k": 1},
            "resume": [{"interruptId": "i1", "status": "resolved", "payload": {"a": 1}}],
            "forwardedProps": props});
        RunInput::read(&serde_json::to_vec(&input).unwrap(), &Limits::default()).unwrap()
    }

    fn proxy() -> Proxy {
        Proxy::open(&run_input(json!({"upstream": "graph"})), Some(SETTING)).unwrap()
    }

    /// The frames' AG-UI events, in order.
    fn events_of(text: &str) -> Vec<Value> {
        text.lines()
            .filter_map(|l| l.strip_prefix("data: "))
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    /// Relays an upstream body sent in the given chunks: every frame
    /// written, with `[forms of …]` where the shell writes the forms.
    fn relay_all(proxy: &mut Proxy, chunks: &[&str]) -> (String, Vec<Vec<u8>>) {
        let body = futures::stream::iter(
            chunks
                .iter()
                .map(|c| Ok::<_, String>(c.as_bytes().to_vec()))
                .collect::<Vec<_>>(),
        );
        let events: Vec<_> = futures::executor::block_on(Proxy::events(body).collect());
        let (mut text, mut forms) = (String::new(), Vec::new());
        for event in events {
            let relayed = proxy.relay(event);
            text.push_str(&relayed.frames);
            if !relayed.interrupts.is_empty() {
                text.push_str(&format!("[forms of {}]\n", relayed.interrupts.len()));
            }
            forms.extend(relayed.interrupts);
            text.push_str(&relayed.held);
            if proxy.is_over() {
                return (text, forms);
            }
        }
        text.push_str(&proxy.closed());
        (text, forms)
    }

    fn codes(text: &str) -> Vec<String> {
        events_of(text)
            .iter()
            .filter(|e| e["type"] == "RUN_ERROR")
            .map(|e| e["code"].as_str().unwrap_or_default().to_owned())
            .collect()
    }

    #[test]
    fn the_setting_names_agents_with_urls_and_deadlines() {
        let named = agents(Some(SETTING)).unwrap();
        assert_eq!(
            named["graph"],
            Agent {
                url: "http://127.0.0.1:8123/agent".into(),
                deadline_ms: 5000
            }
        );
        assert_eq!(named["slow"].deadline_ms, DEFAULT_DEADLINE_MS);
        assert!(agents(None).unwrap().is_empty());
        assert!(agents(Some("  ")).unwrap().is_empty());
    }

    #[test]
    fn a_bad_setting_is_a_misconfiguration_naming_its_place() {
        let cases = [
            ("{", "is not JSON"),
            (r#"["http://a"]"#, "must be an object"),
            (r#"{"a b": {"url": "http://a"}}"#, "at /a b: a name is"),
            (r#"{"Graph": {"url": "http://a"}}"#, "at /Graph: a name is"),
            (r#"{"a": "http://a"}"#, "at /a: must be an object"),
            (
                r#"{"a": {"url": "file:///etc/passwd"}}"#,
                "at /a/url: is file://",
            ),
            (r#"{"a": {"url": "gopher://x"}}"#, "at /a/url"),
            (
                r#"{"a": {"url": "/relative"}}"#,
                "must start with https:// or http://",
            ),
            (r#"{"a": {"url": "https://user:pw@x"}}"#, "no credentials"),
            (r#"{"a": {}}"#, "at /a/url: must be"),
            (
                r#"{"a": {"url": "http://a", "deadlineMs": 10}}"#,
                "at /a/deadlineMs",
            ),
            (
                r#"{"a": {"url": "http://a", "deadlineMs": 9e9}}"#,
                "at /a/deadlineMs",
            ),
            (
                r#"{"a": {"url": "http://a", "deadline": 10}}"#,
                "at /a/deadline: has an unknown key",
            ),
        ];
        for (setting, says) in cases {
            let error = agents(Some(setting)).unwrap_err();
            assert_eq!(error.code(), ErrorCode::Internal, "{setting}");
            assert_eq!(error.http_status(), 500);
            assert!(
                error.message().contains("GENUI_AGENTS") && error.message().contains(says),
                "{setting}: {}",
                error.message()
            );
        }
        let many: Map<String, Value> = (0..=MAX_AGENTS)
            .map(|i| (format!("a{i}"), json!({"url": "http://a"})))
            .collect();
        let error = agents(Some(&Value::Object(many).to_string())).unwrap_err();
        assert!(error.message().contains("over the limit"), "{error}");
        // A proxied run under a bad setting is refused the same way.
        let input = run_input(json!({"upstream": "graph"}));
        let error = Proxy::open(&input, Some("{")).unwrap_err();
        assert_eq!(error.code(), ErrorCode::Internal);
    }

    #[test]
    fn only_configured_names_are_reachable() {
        for setting in [Some(SETTING), None] {
            let input = run_input(json!({"upstream": "http://169.254.169.254/"}));
            let error = Proxy::open(&input, setting).unwrap_err();
            assert_eq!(
                (error.code(), error.pointer(), error.http_status()),
                (ErrorCode::InvalidRequest, Some(UPSTREAM_AT), 400)
            );
        }
        let error = RunInput::read(
            br#"{"threadId": "t", "runId": "r", "forwardedProps": {"upstream": 7}}"#,
            &Limits::default(),
        )
        .unwrap_err();
        assert_eq!(error.pointer(), Some(UPSTREAM_AT));
        let plain = run_input(json!({"generateUserInterface": {"output": {"type": "object"}}}));
        let error = Proxy::open(&plain, Some(SETTING)).unwrap_err();
        assert_eq!(
            (error.code(), error.http_status()),
            (ErrorCode::Internal, 500)
        );
        // The caller is never told the operator's agents.
        let error =
            Proxy::open(&run_input(json!({"upstream": "nobody"})), Some(SETTING)).unwrap_err();
        assert!(
            !error.message().contains("graph") && !error.message().contains("slow"),
            "{}",
            error.message()
        );
    }

    #[test]
    fn a_bad_url_is_named_by_its_origin_only() {
        let setting = r#"{"a": {"url": "ftp://user:pw@agents.example/run?token=s3cret"}}"#;
        let input = run_input(json!({"upstream": "a"}));
        let message = Proxy::open(&input, Some(setting))
            .unwrap_err()
            .message()
            .to_owned();
        assert!(message.contains("ftp://agents.example"), "{message}");
        assert!(
            !message.contains("s3cret") && !message.contains("pw"),
            "{message}"
        );
    }

    #[test]
    fn an_event_ends_at_a_blank_line_of_any_line_end_and_newlines_never_overflow() {
        let mut budget = Budget::default();
        assert!(budget.spend("\n".repeat(300).as_bytes()).is_ok());
        // CR-only and CRLF events of half the limit each, back to back.
        let half = "x".repeat(MAX_EVENT_BYTES / 2);
        for end in ["\r\r", "\r\n\r\n", "\n\n"] {
            for _ in 0..3 {
                let event = format!("data: {half}{end}");
                assert!(budget.spend(event.as_bytes()).is_ok(), "{end:?}");
            }
        }
        // One line end is not the end of an event.
        let mut budget = Budget::default();
        let event = format!("data: {half}\ndata: {half}\r\ndata: {half}");
        assert!(budget.spend(event.as_bytes()).is_err());
    }

    #[test]
    fn at_most_eight_forms_are_made_for_one_finished_run() {
        let interrupts: Vec<Value> = (0..20)
            .map(|i| json!({"id": format!("i{i}"), "reason": "confirmation"}))
            .collect();
        let finished = json!({"type": "RUN_FINISHED", "outcome": {"type": "interrupt", "interrupts": interrupts}});
        assert_eq!(proxy().interrupt_bodies(&finished).len(), MAX_FORMS);
    }

    #[test]
    fn the_run_is_forwarded_without_the_workers_own_props() {
        let input = run_input(
            json!({"upstream": "graph", "format": "rjsf", "data": {"a": 2},
            "agentOption": true}),
        );
        let proxy = Proxy::open(&input, Some(SETTING)).unwrap();
        let request = proxy.request();
        assert_eq!(request.url, "http://127.0.0.1:8123/agent");
        assert!(request
            .headers
            .contains(&("accept".into(), "text/event-stream".into())));
        let sent: Value = serde_json::from_str(&request.body).unwrap();
        assert_eq!(sent["forwardedProps"], json!({"agentOption": true}));
        assert_eq!(
            sent["resume"][0]["interruptId"], "i1",
            "the resume run goes through"
        );
        assert_eq!(
            (sent["threadId"].as_str(), sent["state"]["k"].as_i64()),
            (Some("t1"), Some(1))
        );
        assert_eq!(proxy.deadline_ms(), 5000);
    }

    #[test]
    fn events_pass_through_unchanged_and_interrupts_get_forms_before_run_finished() {
        let interrupt = json!({"id": "int-1", "reason": "input_required", "message": "Which quarter?",
            "responseSchema": {"type": "object", "properties": {"q": {"type": "string"}}}});
        let confirm = json!({"id": "int-2", "reason": "confirmation"});
        let bare = json!({"id": "int-3", "reason": "tool_call"});
        let finished = json!({"type": "RUN_FINISHED", "threadId": "t1", "runId": "u1",
            "outcome": {"type": "interrupt", "interrupts": [interrupt, confirm, bare]}});
        let started = r#"{"type":"RUN_STARTED","threadId":"t1","runId":"u1"}"#;
        let text_event = r#"{"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "héllo"}"#;
        let body = format!(
            "data: {started}\n\n: comment\n\ndata: {text_event}\r\n\r\ndata: {finished}\n\n"
        );
        // Split anywhere, even inside a character: the same frames come out.
        let (cut_a, cut_b) = (body.find('h').unwrap() + 1, body.len() - 7);
        let bytes = body.as_bytes();
        let halves = [&bytes[..cut_a], &bytes[cut_a..cut_b], &bytes[cut_b..]];
        let stream = futures::stream::iter(halves.map(|b| Ok::<_, String>(b.to_vec())));
        let mut proxy = proxy();
        let mut text = String::new();
        let mut forms = Vec::new();
        for event in futures::executor::block_on(Proxy::events(stream).collect::<Vec<_>>()) {
            let relayed = proxy.relay(event);
            text.push_str(&relayed.frames);
            if !relayed.interrupts.is_empty() {
                text.push_str("[forms]\n");
            }
            forms.extend(relayed.interrupts);
            text.push_str(&relayed.held);
        }
        assert!(proxy.is_over());
        assert_eq!(proxy.closed(), "", "the run ended");
        assert_eq!(proxy.timed_out(), "", "no error after the run's end");
        assert_eq!(
            text,
            format!("data: {started}\n\ndata: {text_event}\n\n[forms]\ndata: {finished}\n\n")
        );
        let bodies: Vec<Value> = forms
            .iter()
            .map(|b| serde_json::from_slice(b).unwrap())
            .collect();
        assert_eq!(
            bodies,
            vec![
                json!({"interrupt": interrupt}),
                json!({"interrupt": confirm})
            ]
        );
    }

    /// The bodies are what `/v1/interrupt` answers with a proven form, in
    /// the run's format, and `AgentEvents::form` makes its activity alone.
    #[test]
    fn an_interrupts_body_is_answered_as_a_form_activity() {
        let input = run_input(json!({"upstream": "graph", "format": "rjsf"}));
        let mut proxy = Proxy::open(&input, Some(SETTING)).unwrap();
        let interrupt = json!({"id": "int-1", "reason": "input_required", "toolCallId": "call_q",
            "responseSchema": {"type": "object", "properties": {"q": {"type": "string"}}}});
        let finished = json!({"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1",
            "outcome": {"type": "interrupt", "interrupts": [interrupt]}});
        let started = json!({"type": "RUN_STARTED", "threadId": "t1", "runId": "r1"});
        let (_, forms) = relay_all(
            &mut proxy,
            &[&format!("data: {started}\n\ndata: {finished}\n\n")],
        );
        let job = genui_core::GenerateJob::prepare_interrupt(
            &forms[0],
            None,
            &Limits::default(),
            0,
            Some("s3cret"),
        )
        .unwrap();
        let activity = crate::agui::AgentEvents::new(&input).form(&job.answer(None).response);
        let events = events_of(&activity);
        assert_eq!(
            events.len(),
            1,
            "no RUN_STARTED of ours inside the upstream's run"
        );
        assert_eq!(events[0]["type"], "ACTIVITY_SNAPSHOT");
        assert_eq!(events[0]["activityType"], "genui.rjsf");
        assert!(
            events[0]["content"]["metadata"]["interrupt"]["token"].is_string(),
            "{activity}"
        );
        let refused = genui_core::HttpResponse::json(400, &json!({"type": "dgui_error"}));
        assert_eq!(crate::agui::AgentEvents::new(&input).form(&refused), "");
    }

    #[test]
    fn an_upstreams_failures_are_run_errors_with_codes() {
        let started = r#"data: {"type":"RUN_STARTED","threadId":"t1","runId":"u1"}

"#;
        let cases: [(&[&str], &str); 5] = [
            (&[started, "data: not json\n\n"], "upstream_invalid"),
            (
                &[started, "data: {\"no\": \"type\"}\n\n"],
                "upstream_invalid",
            ),
            (&[started], "upstream_invalid"),
            (&[], "upstream_invalid"),
            (
                &[started, "data: {\"type\":\"RUN_FINISHED\""],
                "upstream_invalid",
            ),
        ];
        for (chunks, code) in cases {
            let (text, _) = relay_all(&mut proxy(), chunks);
            assert_eq!(codes(&text), vec![code], "{chunks:?}: {text}");
            let events = events_of(&text);
            assert_eq!(events[0]["type"], "RUN_STARTED", "{text}");
            assert_eq!(
                events.iter().filter(|e| e["type"] == "RUN_STARTED").count(),
                1,
                "one run: {text}"
            );
        }
        let mut refused = proxy();
        let end = refused.answered(503, Some("text/plain")).unwrap();
        assert_eq!(codes(&end), vec!["upstream_unavailable"]);
        assert!(end.contains("HTTP 503"), "{end}");
        let mut json_answer = proxy();
        let end = json_answer.answered(200, Some("application/json")).unwrap();
        assert_eq!(codes(&end), vec!["upstream_invalid"]);
        assert_eq!(
            proxy().answered(200, Some("text/event-stream; charset=utf-8")),
            None
        );
        let mut gone = proxy();
        let end = gone.unreachable("connection refused");
        assert_eq!(codes(&end), vec!["upstream_unavailable"]);
        assert_eq!(
            events_of(&end)[0]["runId"],
            "r1",
            "our run, as the client asked"
        );
        let mut slow = proxy();
        let data = r#"{"type":"RUN_STARTED","threadId":"t1","runId":"u1"}"#.to_owned();
        let relayed = slow.relay(Ok(Event {
            data,
            ..Event::default()
        }));
        assert_eq!(events_of(&relayed.frames)[0]["runId"], "u1");
        let end = slow.timed_out();
        assert_eq!(codes(&end), vec!["upstream_timeout"]);
        assert_eq!(events_of(&end).len(), 1, "inside the upstream's run: {end}");
        assert!(end.contains("5000 ms"), "{end}");
        // After the error nothing more is relayed.
        assert_eq!(slow.relay(Ok(Event::default())), Relayed::default());
        assert_eq!(slow.closed(), "");
    }

    #[test]
    fn an_upstream_over_its_budgets_is_cut_off() {
        let huge = format!(
            "data: {{\"type\":\"X\",\"pad\":\"{}\"}}",
            "x".repeat(MAX_EVENT_BYTES)
        );
        let (text, _) = relay_all(
            &mut proxy(),
            &[&huge[..huge.len() / 2], &huge[huge.len() / 2..]],
        );
        assert_eq!(codes(&text), vec!["upstream_invalid"], "{}", excerpt(&text));
        assert!(
            text.contains("an upstream event is over the limit"),
            "{}",
            excerpt(&text)
        );
        // The whole stream's budget, in events well under the event limit.
        let events = "data: {\"type\":\"X\"}\n\n".repeat(MAX_EVENT_BYTES / 40);
        let mut budget = Budget::default();
        let spent: Result<Vec<()>, Error> = std::iter::repeat_n(events.as_bytes(), 8)
            .map(|chunk| budget.spend(chunk))
            .collect();
        assert!(spent.is_ok(), "{spent:?}");
        let over = (0..MAX_STREAM_BYTES / events.len() + 1)
            .find_map(|_| budget.spend(events.as_bytes()).err());
        assert!(over.is_some_and(|why| why.message().contains("stream is over the limit")));
        let broken = futures::stream::iter([Err::<Vec<u8>, _>("reset by peer")]);
        let events: Vec<_> = futures::executor::block_on(Proxy::events(broken).collect());
        let mut cut = proxy();
        let relayed = cut.relay(events.into_iter().next().unwrap());
        assert_eq!(codes(&relayed.frames), vec!["upstream_invalid"]);
        // The parser's words around the body's failure, as they always were.
        let said = "Transport error: reading the upstream's body failed: reset by peer";
        assert!(relayed.frames.contains(said), "{}", relayed.frames);
    }
}
