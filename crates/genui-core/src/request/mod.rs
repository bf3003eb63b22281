//! Every accepted tool-call shape, normalised into one [`GenerateRequest`].
//!
//! Accepted bodies for `POST /v1/generate`:
//!
//! 1. AG-UI (seed 000): `{"tool": "generateUserInterface", "arguments": {...}}`;
//! 2. the bare arguments object: `{"description", "data", "output"}`;
//! 3. an OpenAI tool call: `{"id", "type": "function", "function":
//!    {"name": "generateUserInterface", "arguments": "<JSON string>"}}`;
//! 4. an AG-UI event stream (seed 002): `TOOL_CALL_START`, `TOOL_CALL_ARGS`
//!    deltas, `TOOL_CALL_END`, as a JSON array or `{"events": [...]}`.
//!
//! Options may sit at the body's top level (or among the arguments):
//! `format` (`jsonforms`, `rjsf`, `lmui`, `a2ui`, ...), `a2uiVersion` (the
//! A2UI revision of a `format=a2ui` answer: `0.9`, the default, or `1.0`;
//! [`crate::terms::format::A2UI_VERSIONS`]), `generator`, `kind`,
//! `callbackUrl` (webhooks), `device` (`desktop`, `mobile`: the layout) and
//! `locale` (a BCP 47 tag such as `de-DE`: the language a model writes
//! labels and help in; the deterministic generator keeps the schema's own
//! titles), `catalog` (the name of a configured operator catalog,
//! `crate::catalog`; never a catalog itself) and `instructions` (the caller's own words for a model or an
//! `http` generator, at most `Limits::max_instructions_bytes`; quoted as
//! data below the prompt's rules, see genui-model's `prompt`).
//!
//! Errors carry a JSON Pointer into the body as received. For the OpenAI shape
//! the arguments are a JSON *string*; pointers into it are written
//! `/function/arguments` followed by the pointer inside the decoded string.

use crate::error::{Detail, Error, ErrorCode, Result};
use crate::terms::device::Device;
use crate::terms::format::{A2uiVersion, Format};
use crate::terms::limits::Limits;
use serde_json::{Map, Value};

/// The tool this worker implements.
pub(crate) const TOOL_NAME: &str = "generateUserInterface";

/// A normalised `generateUserInterface` call.
#[derive(Debug, Clone, PartialEq)]
pub struct GenerateRequest {
    /// What UI the agent wants (may be empty).
    pub description: String,
    /// Values to pre-fill; `Value::Null` when absent.
    pub data: Value,
    /// JSON Schema of what the user must send back.
    pub output: Value,
    /// The tool call id to echo, when the shape carried one.
    pub tool_call_id: Option<String>,
    /// JSON Pointer of the arguments object inside the body (`""` for bare).
    pub arguments_pointer: String,
    /// The format to answer in.
    pub format: Format,
    /// `a2uiVersion` as the body gave it (read when the format is A2UI;
    /// the `a2uiVersion` query parameter and `Accept` parameter win over it).
    pub a2ui_version: Option<A2uiVersion>,
    /// `generator` as requested (`auto` when absent).
    pub generator: Option<String>,
    /// `kind` as requested (`confirm` asks for approve/reject buttons).
    pub kind: Option<String>,
    /// `callbackUrl`: where a webhook's answer is also sent.
    pub callback_url: Option<String>,
    /// `device`: the screen the layout is for (desktop when absent).
    pub device: Device,
    /// `locale`: a canonical BCP 47 tag (`de-DE`); `None` for English, the
    /// default (any `en` tag counts as English).
    pub locale: Option<String>,
    /// `catalog`: the name of a configured operator catalog, with the JSON
    /// Pointer it was given at (for the 400 when no catalog has that name).
    pub catalog: Option<(String, String)>,
    /// `instructions`: the caller's extra words for a model or an `http`
    /// generator (layout, order, wording); never for the deterministic one.
    pub instructions: Option<String>,
    /// Where `instructions` sat in the body, for the size error.
    pub(crate) instructions_at: String,
    /// `previousSpecHash`: the spec this call edits in place, with the JSON
    /// Pointer it was given at (for the unknown-spec warning).
    pub previous_spec_hash: Option<(String, String)>,
    /// Where `output` sat in the body when it is not the arguments' own
    /// (an AG-UI interrupt's `/interrupt/responseSchema`).
    pub(crate) output_at: Option<String>,
}

impl GenerateRequest {
    /// Whether the request asks for approve/reject buttons (`kind: "confirm"`).
    pub fn wants_confirm(&self) -> bool {
        self.kind.as_deref() == Some("confirm")
    }

    /// Arranges `plan` as every plan is, a model's included, before the
    /// checker: one column when this request asks for a mobile layout, rules
    /// from its `output`. It sits here, above the plan, so the plan's
    /// modules need not know the request.
    pub fn arrange(&self, plan: &mut crate::plan::Plan, limits: &Limits) {
        crate::plan::generate::arrange_plan(plan, &self.output, self.device, limits);
    }

    /// JSON Pointer of `output` in the body, for error messages.
    pub fn output_pointer(&self) -> String {
        match &self.output_at {
            Some(at) => at.clone(),
            None => format!("{}/output", self.arguments_pointer),
        }
    }
}

/// Parses a request body (already size- and depth-checked).
pub(crate) fn parse_generate(body: &[u8]) -> Result<GenerateRequest> {
    from_value(parse_json(body)?)
}

/// A request body as JSON, or `invalid_json` with the line and column.
pub(crate) fn parse_json(body: &[u8]) -> Result<Value> {
    serde_json::from_slice(body).map_err(|e| {
        Error::new(
            ErrorCode::InvalidJson,
            format!("request body is not valid JSON: {e}"),
        )
        .with(Detail::Line(e.line()))
        .with(Detail::Column(e.column()))
    })
}

/// Normalises an already parsed body.
pub(crate) fn from_value(value: Value) -> Result<GenerateRequest> {
    let mut body = match value {
        Value::Object(body) => body,
        Value::Array(events) => return from_events(&events, ""),
        _ => {
            return Err(invalid(
                "",
                "request body must be a JSON object or an array of AG-UI events",
            ))
        }
    };
    let options = take_options(&mut body, "")?;
    let mut request = shaped(body)?;
    request.apply(options)?;
    Ok(request)
}

/// Top-level options, taken out before the shape is recognised.
#[derive(Debug, Default)]
struct Options {
    format: Option<(String, String)>,
    a2ui_version: Option<(String, String)>,
    generator: Option<String>,
    kind: Option<String>,
    callback_url: Option<String>,
    device: Option<(String, String)>,
    locale: Option<(String, String)>,
    catalog: Option<(String, String)>,
    instructions: Option<(String, String)>,
    previous_spec_hash: Option<(String, String)>,
}

fn take_options(map: &mut Map<String, Value>, base: &str) -> Result<Options> {
    if map.get("catalog").is_some_and(Value::is_object) {
        // A catalog names components the operator's frontend registered: a
        // caller cannot know them, and an inline one could bind fields to
        // components the frontend does not have.
        return Err(invalid(
            &format!("{base}/catalog"),
            "`catalog` names a catalog configured in the worker; inline catalogs are refused",
        ));
    }
    let mut take = |key: &str| -> Result<Option<String>> {
        match map.remove(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(text)) => Ok(Some(text)),
            Some(_) => Err(invalid(
                &format!("{base}/{key}"),
                &format!("`{key}` must be a string"),
            )),
        }
    };
    Ok(Options {
        format: take("format")?.map(|f| (f, format!("{base}/format"))),
        a2ui_version: take("a2uiVersion")?.map(|v| (v, format!("{base}/a2uiVersion"))),
        generator: take("generator")?,
        kind: take("kind")?,
        callback_url: take("callbackUrl")?,
        device: take("device")?.map(|d| (d, format!("{base}/device"))),
        locale: take("locale")?.map(|l| (l, format!("{base}/locale"))),
        catalog: take("catalog")?.map(|c| (c, format!("{base}/catalog"))),
        instructions: take("instructions")?.map(|i| (i, format!("{base}/instructions"))),
        previous_spec_hash: take("previousSpecHash")?
            .map(|h| spec_hash_at(h, format!("{base}/previousSpecHash")))
            .transpose()?,
    })
}

/// A `previousSpecHash` given at `pointer`, when it has a spec hash's shape.
fn spec_hash_at(hash: String, pointer: String) -> Result<(String, String)> {
    if crate::cache::spec::is_spec_hash(&hash) {
        return Ok((hash, pointer));
    }
    Err(invalid(
        &pointer,
        "`previousSpecHash` must be a spec hash: 64 lowercase hex digits (an answer's `meta.specHash`)",
    ))
}

impl GenerateRequest {
    /// Options given next to the arguments override the ones inside them.
    fn apply(&mut self, options: Options) -> Result<()> {
        if let Some((name, pointer)) = options.format {
            self.format = Format::parse(&name, &pointer)?;
        }
        if let Some((name, pointer)) = options.a2ui_version {
            self.a2ui_version = Some(A2uiVersion::parse(&name, &pointer)?);
        }
        self.generator = options.generator.or(self.generator.take());
        self.kind = options.kind.or(self.kind.take());
        self.callback_url = options.callback_url.or(self.callback_url.take());
        self.catalog = options.catalog.or(self.catalog.take());
        if let Some((name, pointer)) = options.device {
            self.device = Device::parse(&name).ok_or_else(|| {
                invalid(
                    &pointer,
                    &format!(
                        "`device` must be one of {}, not `{name}`",
                        Device::NAMES.join(", ")
                    ),
                )
            })?;
        }
        if let Some((tag, pointer)) = options.locale {
            let canonical = canonical_locale(&tag).ok_or_else(|| {
                invalid(
                    &pointer,
                    &format!("`locale` must be a BCP 47 language tag such as `de-DE`, not `{tag}`"),
                )
            })?;
            self.locale = (!is_english(&canonical)).then_some(canonical);
        }
        if let Some((text, pointer)) = options.instructions {
            // Blank instructions are none: they must not split the model's cache.
            self.instructions = Some(text).filter(|t| !t.trim().is_empty());
            self.instructions_at = pointer;
        }
        self.previous_spec_hash = options
            .previous_spec_hash
            .or(self.previous_spec_hash.take());
        Ok(())
    }

    /// Refuses `instructions` over the byte limit (before any model call).
    pub(crate) fn check_instructions(&self, limits: &Limits) -> Result<()> {
        let Some(text) = &self.instructions else {
            return Ok(());
        };
        if text.len() <= limits.max_instructions_bytes {
            return Ok(());
        }
        let at = &self.instructions_at;
        Err(Error::new(
            ErrorCode::InstructionsTooLarge,
            format!(
                "`instructions` is {} bytes; the limit is {} bytes (at {at})",
                text.len(),
                limits.max_instructions_bytes
            ),
        )
        .at(at.clone())
        .with(Detail::Limit(limits.max_instructions_bytes))
        .with(Detail::Actual(text.len())))
    }
}

/// A BCP 47 tag in canonical case (`de-de` -> `de-DE`, `zh-hant-tw` ->
/// `zh-Hant-TW`), or `None` when it is not one: a 2-3 (or 5-8) letter
/// language, then subtags of 1-8 letters or digits, at most 35 characters.
pub(crate) fn canonical_locale(tag: &str) -> Option<String> {
    if tag.is_empty() || tag.len() > 35 {
        return None;
    }
    let mut parts = tag.split('-');
    let language = parts.next()?;
    let language_ok = matches!(language.len(), 2 | 3 | 5..=8)
        && language.bytes().all(|b| b.is_ascii_alphabetic());
    if !language_ok {
        return None;
    }
    let mut out = vec![language.to_ascii_lowercase()];
    for part in parts {
        if part.is_empty() || part.len() > 8 || !part.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return None;
        }
        out.push(match part.len() {
            2 if part.bytes().all(|b| b.is_ascii_alphabetic()) => part.to_ascii_uppercase(),
            4 if part.bytes().all(|b| b.is_ascii_alphabetic()) => {
                let lower = part.to_ascii_lowercase();
                lower[..1].to_ascii_uppercase() + &lower[1..]
            }
            _ => part.to_ascii_lowercase(),
        });
    }
    Some(out.join("-"))
}

fn is_english(canonical: &str) -> bool {
    canonical == "en" || canonical.starts_with("en-")
}

fn shaped(mut body: Map<String, Value>) -> Result<GenerateRequest> {
    if let Some(Value::Array(events)) = body.get("events") {
        return from_events(events, "/events");
    }
    if body.contains_key("tool") {
        let tool = take_tool_name(&mut body, "tool", "")?;
        check_tool(&tool, "/tool")?;
        let arguments = body.remove("arguments").unwrap_or(Value::Null);
        let tool_call_id = optional_string(&body, "toolCallId", "")?;
        let arguments = arguments_object(arguments, "/arguments")?;
        return build(arguments, "/arguments", tool_call_id);
    }
    if body.get("type").and_then(Value::as_str) == Some("function") || body.contains_key("function")
    {
        return from_openai(body);
    }
    let tool_call_id = optional_string(&body, "toolCallId", "")?;
    build(body, "", tool_call_id)
}

fn from_openai(mut body: Map<String, Value>) -> Result<GenerateRequest> {
    let tool_call_id = optional_string(&body, "id", "")?;
    let Some(Value::Object(mut function)) = body.remove("function") else {
        return Err(invalid(
            "/function",
            "an OpenAI tool call needs a `function` object",
        ));
    };
    let name = take_tool_name(&mut function, "name", "/function")?;
    check_tool(&name, "/function/name")?;
    let arguments = function.remove("arguments").unwrap_or(Value::Null);
    let arguments = arguments_object(arguments, "/function/arguments")?;
    build(arguments, "/function/arguments", tool_call_id)
}

fn take_tool_name(map: &mut Map<String, Value>, key: &str, base: &str) -> Result<String> {
    match map.remove(key) {
        Some(Value::String(name)) => Ok(name),
        _ => Err(invalid(
            &format!("{base}/{key}"),
            &format!("`{key}` must be a string naming the tool"),
        )),
    }
}

fn check_tool(name: &str, pointer: &str) -> Result<()> {
    if name == TOOL_NAME {
        return Ok(());
    }
    Err(Error::new(
        ErrorCode::UnknownTool,
        format!("this endpoint implements the tool `{TOOL_NAME}`, not `{name}` (at {pointer})"),
    )
    .at(pointer)
    .with(Detail::Tool(name.to_owned())))
}

/// Arguments may be an object or (as providers send them) a JSON string.
fn arguments_object(arguments: Value, pointer: &str) -> Result<Map<String, Value>> {
    match arguments {
        Value::Object(map) => Ok(map),
        Value::String(text) => match serde_json::from_str::<Value>(&text) {
            Ok(Value::Object(map)) => Ok(map),
            Ok(_) => Err(invalid(
                pointer,
                "the arguments string must encode a JSON object",
            )),
            Err(e) => Err(Error::new(
                ErrorCode::InvalidJson,
                format!("the arguments string at {pointer} is not valid JSON: {e}"),
            )
            .at(pointer)),
        },
        Value::Null => Err(invalid(pointer, "the tool call has no arguments")),
        _ => Err(invalid(
            pointer,
            "arguments must be an object or a JSON string",
        )),
    }
}

fn build(
    mut args: Map<String, Value>,
    base: &str,
    tool_call_id: Option<String>,
) -> Result<GenerateRequest> {
    let options = take_options(&mut args, base)?;
    let description = match args.remove("description") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(text)) => text,
        Some(_) => {
            return Err(invalid(
                &format!("{base}/description"),
                "`description` must be a string",
            ))
        }
    };
    let output = match args.remove("output") {
        Some(output @ Value::Object(_)) => output,
        // A display: data to show needs no `output` (see crate::plan::display).
        None | Some(Value::Null) if crate::plan::display::is_displayable(args.get("data")) => {
            Value::Object(Map::new())
        }
        None | Some(Value::Null) => {
            return Err(invalid(
                &format!("{base}/output"),
                "`output` is required: the JSON Schema of the data the user must send back",
            ))
        }
        Some(_) => {
            return Err(invalid(
                &format!("{base}/output"),
                "`output` must be a JSON Schema object",
            ))
        }
    };
    let data = args.remove("data").unwrap_or(Value::Null);
    let mut request = GenerateRequest {
        description,
        data,
        output,
        tool_call_id,
        arguments_pointer: base.to_owned(),
        format: Format::default(),
        a2ui_version: None,
        generator: None,
        kind: None,
        callback_url: None,
        device: Device::default(),
        locale: None,
        catalog: None,
        instructions: None,
        instructions_at: String::new(),
        previous_spec_hash: None,
        output_at: None,
    };
    request.apply(options)?;
    Ok(request)
}

/// Reassembles one tool call from AG-UI events. Events of other types (text
/// messages, state) may be interleaved and are skipped; the tool-call events
/// must be START, ARGS*, END for one id, and nothing of that call after END.
fn from_events(events: &[Value], base: &str) -> Result<GenerateRequest> {
    let mut call: Option<(String, usize)> = None;
    let mut arguments = String::new();
    let mut ended_at = None;
    for (index, event) in events.iter().enumerate() {
        let at = format!("{base}/{index}");
        let kind = event
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if !kind.starts_with("TOOL_CALL_") {
            continue;
        }
        let id = event
            .get("toolCallId")
            .and_then(Value::as_str)
            .ok_or_else(|| broken(&at, "has no string `toolCallId`"))?;
        if let Some(end) = ended_at {
            return Err(broken(
                &at,
                &format!(
                    "comes after TOOL_CALL_END (event {end}); one request carries one tool call"
                ),
            ));
        }
        match (kind, &call) {
            ("TOOL_CALL_START", None) => {
                let name = event
                    .get("toolCallName")
                    .and_then(Value::as_str)
                    .ok_or_else(|| broken(&at, "has no string `toolCallName`"))?;
                check_tool(name, &format!("{at}/toolCallName"))?;
                call = Some((id.to_owned(), index));
            }
            ("TOOL_CALL_START", Some((open, _))) => {
                return Err(broken(
                    &at,
                    &format!("starts tool call `{id}` while `{open}` is still open"),
                ));
            }
            (_, None) => {
                return Err(broken(
                    &at,
                    &format!("is {kind} before any TOOL_CALL_START"),
                ))
            }
            (_, Some((open, _))) if open != id => {
                return Err(broken(
                    &at,
                    &format!("belongs to tool call `{id}`, but the open call is `{open}`"),
                ));
            }
            ("TOOL_CALL_ARGS", Some(_)) => {
                let delta = event
                    .get("delta")
                    .and_then(Value::as_str)
                    .ok_or_else(|| broken(&at, "has no string `delta`"))?;
                arguments.push_str(delta);
            }
            ("TOOL_CALL_END", Some(_)) => ended_at = Some(index),
            _ => return Err(broken(&at, &format!("has an unknown type `{kind}`"))),
        }
    }
    let Some((id, start)) = call else {
        return Err(broken(
            base,
            "contains no TOOL_CALL_START for generateUserInterface",
        ));
    };
    if ended_at.is_none() {
        return Err(broken(
            base,
            &format!("never ends tool call `{id}` (started at event {start}): no TOOL_CALL_END"),
        ));
    }
    let args = match serde_json::from_str::<Value>(&arguments) {
        Ok(Value::Object(map)) => map,
        Ok(_) => return Err(invalid(base, "the reassembled arguments must be a JSON object")),
        Err(e) => {
            return Err(Error::new(
                ErrorCode::InvalidJson,
                format!("the arguments reassembled from the TOOL_CALL_ARGS deltas of `{id}` are not valid JSON: {e}"),
            )
            .at(base)
            .with(Detail::ToolCallId(id.to_owned())))
        }
    };
    build(args, &format!("{base}/arguments"), Some(id))
}

fn broken(pointer: &str, what: &str) -> Error {
    let at = if pointer.is_empty() {
        "the event list"
    } else {
        pointer
    };
    Error::new(
        ErrorCode::InvalidEventStream,
        format!("the event at {at} {what}"),
    )
    .at(pointer)
}

fn optional_string(map: &Map<String, Value>, key: &str, base: &str) -> Result<Option<String>> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(_) => Err(invalid(
            &format!("{base}/{key}"),
            &format!("`{key}` must be a string"),
        )),
    }
}

/// An `invalid_request` error about the value at `pointer` in the body.
pub(crate) fn invalid(pointer: &str, what: &str) -> Error {
    let at = if pointer.is_empty() {
        "the body root"
    } else {
        pointer
    };
    Error::new(ErrorCode::InvalidRequest, format!("{what} (at {at})")).at(pointer)
}

impl GenerateRequest {
    /// A request from the parsed arguments object (or any accepted shape),
    /// as [`from_value`] reads it.
    pub fn from_value(value: Value) -> Result<Self> {
        from_value(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn args() -> Value {
        json!({"description": "d", "data": {"a": 1}, "output": {"type": "object"}})
    }

    #[test]
    fn three_shapes_agree() {
        let agui =
            from_value(json!({"tool": "generateUserInterface", "arguments": args()})).unwrap();
        let bare = from_value(args()).unwrap();
        let openai = from_value(json!({
            "id": "call_1", "type": "function",
            "function": {"name": "generateUserInterface", "arguments": args().to_string()}
        }))
        .unwrap();
        for r in [&agui, &bare, &openai] {
            assert_eq!(r.description, "d");
            assert_eq!(r.output, json!({"type": "object"}));
            assert_eq!(r.data, json!({"a": 1}));
        }
        assert_eq!(openai.tool_call_id.as_deref(), Some("call_1"));
        assert_eq!(agui.output_pointer(), "/arguments/output");
        assert_eq!(openai.output_pointer(), "/function/arguments/output");
    }

    #[test]
    fn errors_name_the_place() {
        let e = from_value(json!({"tool": "sendEmail", "arguments": args()})).unwrap_err();
        assert_eq!(
            (e.code(), e.pointer()),
            (ErrorCode::UnknownTool, Some("/tool"))
        );
        let e = from_value(json!({"description": "x"})).unwrap_err();
        assert_eq!(
            (e.code(), e.pointer()),
            (ErrorCode::InvalidRequest, Some("/output"))
        );
        let e = from_value(json!({"output": "text"})).unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidRequest);
        let e = from_value(json!({"description": 4, "output": {}})).unwrap_err();
        assert_eq!(e.pointer(), Some("/description"));
        let e = from_value(json!([1])).unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidEventStream);
        let e = from_value(json!(true)).unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidRequest);
        let e = from_value(json!({"type": "function", "function": {"name": "generateUserInterface", "arguments": "{nope"}}))
            .unwrap_err();
        assert_eq!(
            (e.code(), e.pointer()),
            (ErrorCode::InvalidJson, Some("/function/arguments"))
        );
        assert_eq!(
            parse_generate(b"{").unwrap_err().code(),
            ErrorCode::InvalidJson
        );
    }

    fn events(args: &str, cut: usize) -> Vec<Value> {
        let (a, b) = args.split_at(cut);
        vec![
            json!({"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "generateUserInterface"}),
            json!({"type": "TEXT_MESSAGE_CONTENT", "delta": "ignored"}),
            json!({"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": a}),
            json!({"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": b}),
            json!({"type": "TOOL_CALL_END", "toolCallId": "c1"}),
        ]
    }

    #[test]
    fn event_streams_reassemble() {
        let text = args().to_string();
        let r = from_value(Value::Array(events(&text, 7))).unwrap();
        assert_eq!(
            (r.description.as_str(), r.tool_call_id.as_deref()),
            ("d", Some("c1"))
        );
        let wrapped = from_value(json!({"events": events(&text, 3), "format": "lmui"})).unwrap();
        assert_eq!(
            (wrapped.output, wrapped.format),
            (json!({"type": "object"}), Format::Lmui)
        );
    }

    #[test]
    fn broken_event_streams_say_where() {
        let text = args().to_string();
        let mut no_end = events(&text, 5);
        no_end.pop();
        let e = from_value(Value::Array(no_end)).unwrap_err();
        assert_eq!(
            (e.code(), e.pointer()),
            (ErrorCode::InvalidEventStream, Some(""))
        );
        let mut mismatched = events(&text, 5);
        mismatched[3]["toolCallId"] = json!("c2");
        let e = from_value(Value::Array(mismatched)).unwrap_err();
        assert_eq!(
            (e.code(), e.pointer()),
            (ErrorCode::InvalidEventStream, Some("/3"))
        );
        let mut wrong_tool = events(&text, 5);
        wrong_tool[0]["toolCallName"] = json!("sendEmail");
        assert_eq!(
            from_value(Value::Array(wrong_tool)).unwrap_err().code(),
            ErrorCode::UnknownTool
        );
        let mut bad_json = events(&text, 5);
        bad_json[3]["delta"] = json!("}}}");
        assert_eq!(
            from_value(Value::Array(bad_json)).unwrap_err().code(),
            ErrorCode::InvalidJson
        );
        let mut after_end = events(&text, 5);
        after_end.push(json!({"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": "x"}));
        assert_eq!(
            from_value(Value::Array(after_end)).unwrap_err().pointer(),
            Some("/5")
        );
    }

    #[test]
    fn options_anywhere_in_the_envelope() {
        let r = from_value(
            json!({"tool": "generateUserInterface", "format": "rjsf", "arguments": args()}),
        )
        .unwrap();
        assert_eq!(r.format, Format::Rjsf);
        let mut inner = args();
        inner["callbackUrl"] = json!("https://agent.example/hook");
        let r = from_value(json!({"tool": "generateUserInterface", "arguments": inner})).unwrap();
        assert_eq!(
            r.callback_url.as_deref(),
            Some("https://agent.example/hook")
        );
        let mut bare = args();
        bare["format"] = json!("nope");
        assert_eq!(
            from_value(bare).unwrap_err().code(),
            ErrorCode::UnsupportedFormat
        );
    }

    #[test]
    fn instructions_are_bounded_where_they_sit_and_ignored_by_the_deterministic_key() {
        use crate::{GenerateJob, Limits};
        let r = from_value(json!({"tool": "generateUserInterface", "instructions": "Country first.", "arguments": args()})).unwrap();
        assert_eq!(r.instructions.as_deref(), Some("Country first."));
        let mut inner = args();
        inner["instructions"] = json!("  ");
        assert_eq!(
            from_value(inner).unwrap().instructions,
            None,
            "blank is none"
        );
        assert_eq!(
            from_value(json!({"instructions": 3, "output": {}}))
                .unwrap_err()
                .pointer(),
            Some("/instructions")
        );
        let limits = Limits {
            max_instructions_bytes: 8,
            ..Limits::default()
        };
        let mut body = json!({"tool": "generateUserInterface", "arguments": args()});
        body["arguments"]["instructions"] = json!("far too many words");
        let e = GenerateJob::prepare(body.to_string().as_bytes(), None, &limits).unwrap_err();
        assert_eq!(
            (e.code(), e.pointer(), e.http_status()),
            (
                ErrorCode::InstructionsTooLarge,
                Some("/arguments/instructions"),
                413
            )
        );
        let told =
            GenerateJob::prepare(body.to_string().as_bytes(), None, &Limits::default()).unwrap();
        let plain = GenerateJob::prepare(
            json!({"tool": "generateUserInterface", "arguments": args()})
                .to_string()
                .as_bytes(),
            None,
            &Limits::default(),
        )
        .unwrap();
        assert_eq!(
            told.cache_key(),
            plain.cache_key(),
            "the deterministic key ignores instructions"
        );
        let answer: Value = serde_json::from_str(&told.answer(None).response.body).unwrap();
        assert_eq!(
            (
                answer["meta"]["generator"].as_str(),
                answer["meta"]["instructions"].as_str()
            ),
            (Some("deterministic"), Some("ignored"))
        );
    }

    #[test]
    fn device_and_locale_are_validated() {
        let r = from_value(json!({"tool": "generateUserInterface", "device": "mobile", "locale": "de-de", "arguments": args()})).unwrap();
        assert_eq!(
            (r.device, r.locale.as_deref()),
            (Device::Mobile, Some("de-DE"))
        );
        let r = from_value(
            json!({"tool": "generateUserInterface", "locale": "en-GB", "arguments": args()}),
        )
        .unwrap();
        assert_eq!((r.device, r.locale), (Device::Desktop, None));
        let e = from_value(
            json!({"tool": "generateUserInterface", "device": "tv", "arguments": args()}),
        )
        .unwrap_err();
        assert_eq!(
            (e.code(), e.pointer()),
            (ErrorCode::InvalidRequest, Some("/device"))
        );
        let mut inner = args();
        inner["locale"] = json!("de_DE");
        let e =
            from_value(json!({"tool": "generateUserInterface", "arguments": inner})).unwrap_err();
        assert_eq!(
            (e.code(), e.pointer()),
            (ErrorCode::InvalidRequest, Some("/arguments/locale"))
        );
        assert_eq!(
            canonical_locale("zh-hant-tw").as_deref(),
            Some("zh-Hant-TW")
        );
        assert_eq!(canonical_locale("x"), None);
    }
}
