//! How a form reaches a person whose host shows no MCP App view: an
//! elicitation (`2026-07-28`'s `input_required`: form mode for a flat
//! `output`, URL mode to a hosted link otherwise), or the hosted link as a
//! `resource_link`; the retried call that carries the person's answer
//! (checked against `output` by the submission machine, or read from the
//! link's object), and what the agent is told when neither is possible.
//! Which one a call gets is [`super::capabilities::Surface`]'s table.

use super::capabilities::Surface;
use super::request_state::{self, RequestState};
use super::wire::{code, RpcError, Version};
use super::{answer, complete, elicit, fail, invalid_params, one, server_meta, tools};
use super::{Mcp, McpCall, McpForms, McpSettings, OrAnswer};
use crate::edge::submission::{Submission, SubmitDoor, SubmitFacts};
use crate::error::Error;
use crate::service::GenerateJob;
use crate::terms::limits::Limits;
use crate::terms::response::HttpResponse;
use serde_json::{json, Map, Value};

/// A generate call whose form goes out as a hosted link: a `resource_link`
/// in the tool's result, or a URL-mode elicitation (`input_required`).
#[derive(Debug, Clone)]
pub struct McpLink {
    pub(super) call: McpCall,
    /// The spec hash the `requestState` binds (the call's, before generation).
    pub(super) spec_hash: String,
    /// A URL-mode elicitation rather than a `resource_link`.
    pub(super) elicit: bool,
    /// What the person is told the form is for.
    pub(super) message: String,
}

impl McpLink {
    /// The answer, from the generation's `/v1` answer and the URL of the
    /// link made for it (`None`: none could be made; `v1` says why).
    pub fn tool_result(
        self,
        v1: &HttpResponse,
        link: Option<&str>,
        settings: McpSettings<'_>,
    ) -> HttpResponse {
        let forms = settings.forms();
        let (Some(url), true) = (link, v1.status == 200) else {
            return self.call.tool_result(v1);
        };
        let McpCall {
            id,
            version,
            format,
            ..
        } = self.call;
        if !self.elicit {
            let result = tools::linked(
                format.unwrap_or("jsonforms"),
                v1,
                url,
                version.has_resource_links(),
            );
            return answer(&id, complete(result, version, None));
        }
        let mut state = RequestState::new(&self.spec_hash, forms.now);
        // A link too long for the state loses its pre-fill there (the
        // person's first visit has it; a repeated request shows the form empty).
        let kept = match url.len() > request_state::MAX_LINK_CHARS {
            true => url.split('#').next().unwrap_or(url),
            false => url,
        };
        state.link = Some(kept.to_owned());
        let state = forms.secret.map(|secret| state.sign(secret));
        answer(
            &id,
            input_required(elicit::url_request(&self.message, url), state),
        )
    }
}

/// A read of the answer a hosted link's object kept: a URL-mode
/// elicitation's retry, or `resources/read` of a link a `resource_link`
/// gave.
#[derive(Debug, Clone)]
pub struct McpRead {
    id: Value,
    object: String,
    then: AfterRead,
}

/// What a read answers.
#[derive(Debug, Clone)]
enum AfterRead {
    /// The retried tool call: its result, or the same link again.
    Retry {
        url: String,
        state: String,
        message: String,
    },
    /// `resources/read` of the link: the answer as JSON, or that none came yet.
    Resource { uri: String, version: Version },
}

impl McpRead {
    /// The link's Durable Object name ([`crate::FormToken::object_name`]).
    pub fn object_name(&self) -> &str {
        &self.object
    }

    /// The answer, from the message the link's object kept (`None`: the
    /// person has not sent the form yet, so the same link is asked for
    /// again). The message was validated against `output` when the person
    /// posted it, by the hosted form's submission.
    pub fn answer(self, kept: Option<&str>) -> HttpResponse {
        let kept = kept.and_then(|text| serde_json::from_str::<Value>(text).ok());
        let result = match (self.then, kept) {
            (AfterRead::Retry { .. }, Some(message)) => {
                complete(tools::submitted(message), Version::V2026_07_28, None)
            }
            (
                AfterRead::Retry {
                    url,
                    state,
                    message,
                },
                None,
            ) => input_required(elicit::url_request(&message, &url), Some(state)),
            (AfterRead::Resource { uri, version }, kept) => {
                let text = kept.unwrap_or_else(|| json!({"state": "open",
                    "message": "The person has not sent the form yet; read this resource again later."}));
                let contents =
                    json!([{"uri": uri, "mimeType": "application/json", "text": text.to_string()}]);
                // The answer changes once the person sends it: not cached.
                complete(one("contents", contents), version, Some((0, "private")))
            }
        };
        answer(&self.id, result)
    }
}

/// The `input_required` result asking for `job`'s form in elicitation's
/// form mode, when its `output` fits the flat subset.
pub(super) fn form_elicitation(
    job: &GenerateJob,
    id: Value,
    forms: McpForms<'_>,
) -> Option<HttpResponse> {
    let request = job.request();
    let schema = elicit::form_schema(&request.output, &request.data).ok()?;
    let message = person_message(job);
    let state = forms
        .secret
        .map(|secret| RequestState::new(job.spec_hash(), forms.now).sign(secret));
    Some(answer(
        &id,
        input_required(elicit::form_request(&message, schema), state),
    ))
}

/// What an elicitation tells the person: the form's title for them.
pub(super) fn person_message(job: &GenerateJob) -> String {
    let request = job.request();
    let title = request.output.get("title").and_then(Value::as_str);
    crate::plan::title::person_title(title, &request.description)
        .unwrap_or_else(|| "Please fill in this form".to_owned())
}

/// An `input_required` result: our requests and the signed state.
pub(super) fn input_required(requests: Value, state: Option<String>) -> Map<String, Value> {
    let mut result = Map::new();
    result.insert("resultType".into(), "input_required".into());
    result.insert("inputRequests".into(), requests);
    if let Some(state) = state {
        result.insert("requestState".into(), state.into());
    }
    result.insert("_meta".into(), server_meta());
    result
}

/// A generate call retried with the elicitation's answer: its
/// `requestState` checked first, then the answer, which is validated
/// against `output` by the submission machine (`submit_user_interface`'s
/// own path) before anything of it reaches the agent.
pub(super) fn retry(
    params: &Map<String, Value>,
    job: &GenerateJob,
    id: Value,
    forms: McpForms<'_>,
    limits: &Limits,
) -> OrAnswer<Mcp> {
    let state = params.get("requestState");
    let checked = match (forms.secret, state) {
        (Some(secret), Some(Value::String(text))) => {
            RequestState::verify(text, secret, forms.now, job.spec_hash()).map(Some)
        }
        (Some(_), None) => Err(state_refused(
            "is missing: a form this worker asked for carries one",
        )),
        (None, Some(_)) => Err(state_refused(
            "is not one this worker issued (it signs none: WEBHOOK_SECRET is not set)",
        )),
        (Some(_), Some(_)) => Err(state_refused("must be a string")),
        (None, None) => Ok(None),
    };
    let verified = match checked {
        Ok(verified) => verified,
        Err(error) => {
            let rpc = RpcError::new(
                code::INVALID_PARAMS,
                400,
                format!("Invalid params: {}", error.message()),
            )
            .with_data(error.to_dgui_error());
            return Err(fail(&id, &rpc));
        }
    };
    if let (Some(link), Some(Value::String(text)), Some(secret)) =
        (verified.and_then(|s| s.link), state, forms.secret)
    {
        let message = person_message(job);
        return read_link(params, id, (&link, text, message), secret, forms.now);
    }
    let answer = match elicit::Answer::read(params) {
        // A state without the answer: ask again.
        None => {
            return form_elicitation(job, id.clone(), forms)
                .map(Mcp::Answer)
                .ok_or_else(|| {
                    fail(
                        &id,
                        &invalid_params(
                            "/params/inputResponses",
                            "the retry carries no answer to the form",
                        ),
                    )
                })
        }
        Some(Err((pointer, why))) => return Err(fail(&id, &invalid_params(&pointer, why))),
        Some(Ok(answer)) => answer,
    };
    let content = match answer {
        elicit::Answer::Accept(content) => content,
        elicit::Answer::AcceptedElsewhere => {
            return Err(fail(
                &id,
                &invalid_params(
                    &format!("/params/inputResponses/{}/content", elicit::INPUT_KEY),
                    "a form-mode answer that is accepted carries its `content`",
                ),
            ))
        }
        elicit::Answer::Decline | elicit::Answer::Cancel => {
            let result = tools::refused_by_person(answer == elicit::Answer::Cancel);
            return Ok(Mcp::Answer(self::answer(
                &id,
                complete(result, Version::V2026_07_28, None),
            )));
        }
    };
    let request = job.request();
    let mut body = json!({"output": request.output, "data": content});
    if let Some(tool_call_id) = &request.tool_call_id {
        body["toolCallId"] = tool_call_id.as_str().into();
    }
    let body = body.to_string();
    Ok(Mcp::Submit(
        Box::new(Submission::read(
            SubmitDoor::Mcp,
            SubmitFacts::body(body.as_bytes()),
            limits,
        )),
        McpCall::new(id, Version::V2026_07_28, None),
    ))
}

fn state_refused(why: &str) -> Error {
    Error::new(
        crate::error::ErrorCode::InvalidRequestState,
        format!("the retried call's requestState {why} (at /params/requestState)"),
    )
    .at("/params/requestState")
}

/// A URL-mode elicitation retried: decline and cancel are answered; an
/// accept reads the answer the link's object kept.
fn read_link(
    params: &Map<String, Value>,
    id: Value,
    (url, state, message): (&str, &str, String),
    secret: &str,
    now: u64,
) -> OrAnswer<Mcp> {
    match elicit::Answer::read(params) {
        Some(Err((pointer, why))) => return Err(fail(&id, &invalid_params(&pointer, why))),
        Some(Ok(answer @ (elicit::Answer::Decline | elicit::Answer::Cancel))) => {
            let result = tools::refused_by_person(answer == elicit::Answer::Cancel);
            return Ok(Mcp::Answer(self::answer(
                &id,
                complete(result, Version::V2026_07_28, None),
            )));
        }
        Some(Ok(elicit::Answer::Accept(_))) => {
            let pointer = format!("/params/inputResponses/{}/content", elicit::INPUT_KEY);
            return Err(fail(
                &id,
                &invalid_params(
                    &pointer,
                    "a URL-mode answer carries no `content`: the person answers on the page",
                ),
            ));
        }
        Some(Ok(elicit::Answer::AcceptedElsewhere)) | None => {}
    }
    let token = link_token(url).unwrap_or_default();
    // The state was signed by this worker, so its link is ours; an expired
    // one says so.
    let link = crate::edge::forms::FormToken::verify(token, secret, now).map_err(|error| {
        let rpc = RpcError::new(
            code::INVALID_PARAMS,
            400,
            format!("Invalid params: the form's link: {}", error.message()),
        )
        .with_data(error.at("/params/requestState").to_dgui_error());
        fail(&id, &rpc)
    })?;
    Ok(Mcp::Read(McpRead {
        id,
        object: link.object_name(),
        then: AfterRead::Retry {
            url: url.to_owned(),
            state: state.to_owned(),
            message,
        },
    }))
}

/// The token of a hosted link's URL (`…/f/<token>[#data=…]`).
fn link_token(url: &str) -> Option<&str> {
    let (_, rest) = url.split_once("/f/")?;
    rest.split('#').next()
}

/// `resources/read` of a hosted link this worker gave in a
/// `resource_link`: a read of the answer its object keeps (`None`: not
/// such a link, or no hosted forms here).
pub(super) fn read_link_resource(
    params: &Map<String, Value>,
    id: &Value,
    version: Version,
    secret: Option<&str>,
    now: u64,
) -> Option<OrAnswer<Mcp>> {
    let uri = params.get("uri").and_then(Value::as_str)?;
    let token =
        link_token(uri).filter(|_| uri.starts_with("https://") || uri.starts_with("http://"))?;
    let secret = secret?;
    Some(
        match crate::edge::forms::FormToken::verify(token, secret, now) {
            Ok(link) => Ok(Mcp::Read(McpRead {
                id: id.clone(),
                object: link.object_name(),
                then: AfterRead::Resource {
                    uri: uri.to_owned(),
                    version,
                },
            })),
            Err(error) => {
                let status = if version.is_stateless() { 400 } else { 200 };
                let rpc = RpcError::new(
                    code::INVALID_PARAMS,
                    status,
                    format!("Invalid params: {}", error.message()),
                )
                .with_data(error.at("/params/uri").to_dgui_error());
                Err(fail(id, &rpc))
            }
        },
    )
}

/// Why no hosted link is offered instead.
fn no_link(job: &GenerateJob) -> &'static str {
    match job.is_display() {
        true => "a display takes no answer, so no hosted link is sent.",
        false => "this worker has no hosted forms to send a link to (the WEBHOOK_SECRET secret is not set).",
    }
}

/// What the agent is told about how the person sees the form, when not
/// in the MCP App view (`None`: the view's own sentence).
pub(super) fn agent_text(surface: Surface, job: &GenerateJob) -> Option<String> {
    let no_link = no_link(job);
    let why_not_form =
        |job: &GenerateJob| match elicit::form_schema(&job.request().output, &Value::Null) {
            Ok(_) => "its form mode is not declared".to_owned(),
            Err(not_flat) => format!(
                "`output` does not fit its flat form mode ({} at {})",
                not_flat.why, not_flat.pointer
            ),
        };
    match surface {
        Surface::AppView => None,
        Surface::A2ui => Some(format!(
            "The host renders it natively from the A2UI v1.0 messages in this result's \
application/a2ui+json resource; its submit button calls {} with the person's answer.",
            super::tools::SUBMIT
        )),
        Surface::Elicit { .. } => Some(format!(
            "This host cannot show the form: it declares elicitation, but {}, and {no_link} \
Render the spec yourself, or ask in a host with MCP Apps.",
            why_not_form(job)
        )),
        Surface::Nothing => Some(format!(
            "This host cannot show the form: it declares neither MCP Apps (the io.modelcontextprotocol/ui \
extension with text/html;profile=mcp-app) nor elicitation under protocol 2026-07-28, and {no_link} \
Render the spec yourself, or ask in a host with MCP Apps or elicitation."
        )),
    }
}
