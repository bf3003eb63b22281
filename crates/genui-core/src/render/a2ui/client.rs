//! Reading an A2UI client's action as a submission: `{version, action}` as
//! a v0.9 (v0.9.1) renderer or a v1.0 renderer sends it (v1.0's
//! `renderer_to_agent` action has the same fields, plus an optional
//! `userMessage` and `metadata`), or `{version, error}` (answered 400), and
//! the same action as CopilotKit's renderer hands it, `{userAction}`.

use super::{surface_id, ADD_ITEM_EVENT, REMOVE_ITEM_EVENT, SUBMIT_EVENT};
use crate::error::{Error, ErrorCode, Result};
use crate::pointer::escape;
use crate::terms::format::A2uiVersion;
use crate::terms::limits::Limits;
use serde_json::{Map, Value};

/// Most keys an action's context may have: ours has at most five
/// (`specHash`, `toolCallId`, `data`, `decisionPath`, `decision`).
pub(crate) const MAX_CONTEXT_KEYS: usize = 16;

/// A submission read from an A2UI client message.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ClientSubmission {
    /// The spec the surface was made from (`context.specHash`).
    pub spec_hash: String,
    /// `context.toolCallId`, when the surface was made for a tool call.
    pub tool_call_id: Option<String>,
    /// The data as the renderer wrote it (see [`coerce`]).
    pub data: Value,
}

/// Reads `{version, action}` (or `{version, error}`) as an A2UI v0.9
/// renderer sends it; `None` when the body is another shape. Beside the
/// message, `metadata.a2uiClientDataModel` (or `data_model`, the same
/// object from a transport header) supplies the data when the action's
/// context has no `data`.
pub(crate) fn read_client_message(
    body: &Map<String, Value>,
    data_model: Option<&Value>,
    limits: &Limits,
) -> Result<Option<ClientSubmission>> {
    if body.contains_key("userAction")
        && !body.contains_key("action")
        && !body.contains_key("error")
    {
        return read_user_action(body, data_model, limits).map(Some);
    }
    if !body.contains_key("action") && !body.contains_key("error") {
        return Ok(None);
    }
    if let Some(key) = body
        .keys()
        .find(|k| !matches!(k.as_str(), "version" | "action" | "error" | "metadata"))
    {
        return Err(bad(&format!("/{}", escape(key)), "an A2UI client message is exactly {version, action} or {version, error} (plus `metadata` for the data model)"));
    }
    let version = match body.get("version") {
        Some(Value::String(v)) => A2uiVersion::of_message(v),
        _ => None,
    };
    let Some(version) = version else {
        let versions = A2uiVersion::message_versions();
        return Err(match body.get("version") {
            Some(other) => bad(
                "/version",
                &format!("`version` must be one of {versions}, not {other}"),
            ),
            None => bad(
                "/version",
                &format!("an A2UI client message needs a `version`: one of {versions}"),
            ),
        });
    };
    match (body.get("action"), body.get("error")) {
        (Some(_), Some(_)) => Err(bad(
            "",
            "an A2UI client message carries `action` or `error`, not both",
        )),
        (None, Some(error)) => Err(client_error(error)),
        (Some(Value::Object(action)), None) => {
            read_action(body, action, "action", version, data_model, limits).map(Some)
        }
        (Some(_), None) | (None, None) => Err(bad("/action", "`action` must be an object")),
    }
}

/// CopilotKit's shape: `@copilotkit/a2ui-renderer` hands its host
/// `{userAction}` (the v0.8 wrapper) for a v0.9 surface's action, and
/// CopilotKit forwards it as is, so it is read like `{version, action}`.
fn read_user_action(
    body: &Map<String, Value>,
    data_model: Option<&Value>,
    limits: &Limits,
) -> Result<ClientSubmission> {
    if let Some(key) = body
        .keys()
        .find(|k| !matches!(k.as_str(), "userAction" | "metadata"))
    {
        return Err(bad(
            &format!("/{}", escape(key)),
            "a CopilotKit A2UI action is exactly {userAction} (plus `metadata` for the data model)",
        ));
    }
    match body.get("userAction") {
        Some(Value::Object(action)) => read_action(
            body,
            action,
            "userAction",
            A2uiVersion::V0_9,
            data_model,
            limits,
        ),
        _ => Err(bad("/userAction", "`userAction` must be an object")),
    }
}

/// The submission an action carries; `key` is where it sits in the body
/// (`action` or `userAction`), for the pointers of its errors; `version`
/// is the revision the message names (its data model must name it too).
fn read_action(
    body: &Map<String, Value>,
    action: &Map<String, Value>,
    key: &str,
    version: A2uiVersion,
    data_model: Option<&Value>,
    limits: &Limits,
) -> Result<ClientSubmission> {
    let at = |field: &str| format!("/{key}/{field}");
    let text = |field: &str| match action.get(field) {
        Some(Value::String(s)) if !s.is_empty() => Ok(s.as_str()),
        _ => Err(bad(
            &at(field),
            &format!("`{key}.{field}` must be a non-empty string"),
        )),
    };
    let (name, surface, _source, timestamp) = (
        text("name")?,
        text("surfaceId")?,
        text("sourceComponentId")?,
        text("timestamp")?,
    );
    if !looks_like_date_time(timestamp) {
        return Err(bad(
            &at("timestamp"),
            &format!("`{key}.timestamp` must be an ISO 8601 date-time"),
        ));
    }
    let Some(Value::Object(context)) = action.get("context") else {
        return Err(bad(
            &at("context"),
            &format!("`{key}.context` must be an object"),
        ));
    };
    if context.len() > MAX_CONTEXT_KEYS {
        return Err(bad(&at("context"), &format!("`{key}.context` has {} keys; a submit button's context has at most {MAX_CONTEXT_KEYS}", context.len())));
    }
    if name != SUBMIT_EVENT {
        return Err(bad(&at("name"), &format!("the action `{name}` is not a submission: only `{SUBMIT_EVENT}` is ({ADD_ITEM_EVENT} and {REMOVE_ITEM_EVENT} are for the host to apply)")));
    }
    let spec_hash = match context.get("specHash") {
        Some(Value::String(h))
            if h.len() == 64
                && h.bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)) =>
        {
            h.clone()
        }
        _ => {
            return Err(bad(
                &at("context/specHash"),
                &format!(
                    "`{key}.context.specHash` must be the 64 hex digits the submit button carries"
                ),
            ))
        }
    };
    let tool_call_id = match context.get("toolCallId") {
        None => None,
        Some(Value::String(id)) => Some(id.clone()),
        Some(_) => {
            return Err(bad(
                &at("context/toolCallId"),
                &format!("`{key}.context.toolCallId` must be a string"),
            ))
        }
    };
    let mut meta = Map::new();
    meta.insert("specHash".into(), spec_hash.clone().into());
    if let Some(id) = &tool_call_id {
        meta.insert("toolCallId".into(), id.clone().into());
    }
    if surface != surface_id(&meta) {
        return Err(Error::new(
            ErrorCode::SpecNotFound,
            format!(
                "surface `{surface}` was not made for this spec (its surface is `{}`)",
                surface_id(&meta)
            ),
        )
        .at(at("surfaceId")));
    }
    let mut data = match context.get("data") {
        Some(data) => data.clone(),
        None => model_data(body.get("metadata"), data_model, surface, version)?,
    };
    place_decision(context, &mut data, limits, &at("context"))?;
    Ok(ClientSubmission {
        spec_hash,
        tool_call_id,
        data,
    })
}

/// An approval button's choice: its context's `decision` written into
/// `data` at `decisionPath` (nothing when the context names no
/// `decisionPath`). `context_at` is the context's JSON Pointer, for errors.
pub(crate) fn place_decision(
    context: &Map<String, Value>,
    data: &mut Value,
    limits: &Limits,
    context_at: &str,
) -> Result<()> {
    let Some(path) = context.get("decisionPath") else {
        return Ok(());
    };
    let at = format!("{context_at}/decisionPath");
    let (Some(path), Some(decision)) = (path.as_str(), context.get("decision")) else {
        return Err(bad(
            &at,
            "an approval's context has a `decisionPath` string and its `decision`",
        ));
    };
    let not_a_pointer = || bad(&at, "`decisionPath` must be a JSON Pointer into an object");
    let tokens = path_tokens(path).ok_or_else(not_a_pointer)?;
    limits.check_value_depth(decision, tokens.len(), &at)?;
    set_path(data, &tokens, decision.clone()).ok_or_else(not_a_pointer)?;
    Ok(())
}

/// The surface's data from an `a2uiClientDataModel`
/// (`{version, surfaces: {<surfaceId>: data}}`).
fn model_data(
    metadata: Option<&Value>,
    header: Option<&Value>,
    surface: &str,
    version: A2uiVersion,
) -> Result<Value> {
    let (model, at) = match (metadata.and_then(|m| m.get("a2uiClientDataModel")), header) {
        (Some(model), _) => (model, "/metadata/a2uiClientDataModel"),
        (None, Some(model)) => (model, "a2ui-client-data-model"),
        (None, None) => {
            return Err(bad("/action/context/data", "no data: the submit button's context resolves `data`, or send the data model as `metadata.a2uiClientDataModel`"));
        }
    };
    let named = model.get("version").and_then(Value::as_str);
    if named.and_then(A2uiVersion::of_message) != Some(version) {
        let reads: Vec<String> = (version.revision().reads.iter())
            .map(|v| format!("\"{v}\""))
            .collect();
        return Err(bad(
            &format!("{at}/version"),
            &format!(
                "the client data model's `version` must be {}, as the message's",
                reads.join(" or ")
            ),
        ));
    }
    let Some(surfaces) = model.get("surfaces").and_then(Value::as_object) else {
        return Err(bad(
            &format!("{at}/surfaces"),
            "the client data model needs `surfaces`, an object by surface id",
        ));
    };
    surfaces.get(surface).cloned().ok_or_else(|| {
        bad(
            &format!("{at}/surfaces/{}", escape(surface)),
            "the client data model has no data for the action's surface",
        )
    })
}

/// A2UI's client `error` message: the renderer could not run the surface.
fn client_error(error: &Value) -> Error {
    let field = |key: &str| error.get(key).and_then(Value::as_str).unwrap_or("?");
    let at = error
        .get("path")
        .and_then(Value::as_str)
        .map(|p| format!(" at {p}"))
        .unwrap_or_default();
    let message = format!(
        "the A2UI client reported an error instead of an action: {} on surface `{}`{at}: {} (nothing was submitted)",
        field("code"),
        field("surfaceId"),
        field("message")
    );
    Error::new(ErrorCode::InvalidRequest, message)
        .at("/error")
        .with(crate::error::Detail::A2uiError(error.clone()))
}

fn bad(pointer: &str, what: &str) -> Error {
    Error::new(
        ErrorCode::InvalidRequest,
        format!(
            "{what} (at {})",
            if pointer.is_empty() {
                "the root"
            } else {
                pointer
            }
        ),
    )
    .at(pointer)
}

/// `YYYY-MM-DDTHH:MM...`: the shape the renderer's `toISOString` writes.
fn looks_like_date_time(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() >= 16
        && b[4] == b'-'
        && b[7] == b'-'
        && matches!(b[10], b'T' | b't' | b' ')
        && b[13] == b':'
        && [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15]
            .iter()
            .all(|&i| b[i].is_ascii_digit())
}

/// The tokens of an A2UI data path; `None` when it is no JSON Pointer.
fn path_tokens(pointer: &str) -> Option<Vec<String>> {
    // A2UI names the data model's root `/` (JSON Pointer's `""`).
    if pointer == "/" {
        Some(Vec::new())
    } else {
        crate::pointer::tokens(pointer)
    }
}

/// Sets `value` at a data path (its tokens), creating objects on the way;
/// `None` when the path crosses a non-object. The caller bounds its depth.
fn set_path(target: &mut Value, tokens: &[String], value: Value) -> Option<()> {
    let Some((last, parents)) = tokens.split_last() else {
        *target = value;
        return Some(());
    };
    if target.is_null() {
        *target = Value::Object(Map::new());
    }
    let mut cursor = target;
    for token in parents {
        let map = cursor.as_object_mut()?;
        cursor = map
            .entry(token.clone())
            .or_insert_with(|| Value::Object(Map::new()));
    }
    cursor.as_object_mut()?.insert(last.clone(), value);
    Some(())
}
