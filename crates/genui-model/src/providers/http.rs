//! The wire of an operator's own `http` generator (see [`crate::registry`]).
//!
//! The worker POSTs the data-free request as JSON (never `data`):
//!
//! ```text
//! {"version": 1, "generator": <name>, "description", "output", "format",
//!  "kind", "device", "locale", "instructions": {"operator", "caller"},
//!  "fields": [{"pointer", "type", "required", "widgets"}],
//!  "retry": {"previous", "problems"}   (only on the one retry)
//!  "catalog": ...                      (only when a catalog is bound)}
//! ```
//!
//! signed `X-Genui-Signature: t=<unix s>,v1=<hex>`: HMAC-SHA256 under the
//! webhook secret of `"genui-generator.<t>.<body>"` (genui-core's
//! `Webhook::sign_generator`, its own purpose label, so a generator request
//! can never be replayed as a webhook or a callback).
//!
//! The answer (2xx, JSON; a fenced or chatty body is read like a model's),
//! any of:
//! - a plan in the model-plan shape (`schemas/model-plan.schema.json`),
//!   bare or as `{"plan": ...}`;
//! - a plan in the IR (`schemas/plan.schema.json`, `{"root": ...}`), bare
//!   or under `plan`, read strictly and turned into the model-plan shape
//!   (`plan_schema::from_plan`, every control's text kept as an override);
//! - a JSON Forms UI schema, bare or as `{"uischema": ...}`, converted here
//!   to the same shape ([`from_uischema`]);
//! - an OpenAI-style chat completion (a generator that fronts a model),
//!   read by [`super::chat::message_plan`].
//!
//! Any of them then goes through the ladder like a model's answer: the sanitiser,
//! the repairs, the proof, one retry with the problems fed back, the
//! deadline, and the deterministic fallback. Errors (non-2xx) are read like
//! a provider's: 429 waits, 5xx is retried once, anything else falls back.

use super::error::{failure, invalid_output as invalid, status_error};
use super::{extract_json, in_context, HttpRequest, ModelReply};
use crate::config::{ModelConfig, HTTP_WIRE_VERSION};
use crate::prompt::{Field, Prompt, Role};
use genui_core::{Error, GenerateRequest, ModelFailure, Webhook};
use serde_json::{json, Map, Value};

/// A longer answer is refused unread: a plan for the largest form the
/// limits allow fits well within it, and nothing larger is parsed.
pub(crate) const MAX_ANSWER_BYTES: usize = 1024 * 1024;

/// The data-free request for `request` (see the module docs). `catalog` is
/// the operator's component catalog bound to the request, when one is.
pub(crate) fn data_free(
    name: &str,
    request: &GenerateRequest,
    operator: Option<&str>,
    fields: &[Field],
    catalog: Option<&Value>,
) -> Value {
    let fields: Vec<Value> = fields
        .iter()
        .map(|f| {
            let widgets: Vec<&str> = f.widgets.iter().map(|w| w.as_str()).collect();
            json!({"pointer": f.pointer, "type": f.type_name, "required": f.required, "widgets": widgets})
        })
        .collect();
    let mut call = json!({
        "version": HTTP_WIRE_VERSION,
        "generator": name,
        "description": request.description,
        "output": request.output,
        "format": format_name(request.format),
        "kind": request.kind,
        "device": request.device.as_str(),
        "locale": request.locale,
        "instructions": {"operator": operator, "caller": request.instructions},
        "fields": fields,
    });
    if let Some(catalog) = catalog {
        call["catalog"] = catalog.clone();
    }
    call
}

/// A format's wire name (the plan is format-neutral: a generator answers
/// one plan for every format, and it is cached so).
fn format_name(format: genui_core::Format) -> &'static str {
    format.name()
}

/// The signed POST of the prompt's data-free request; on the retry, the
/// previous answer and the problems found in it ride along.
pub(crate) fn build_request(config: &ModelConfig, prompt: &Prompt) -> HttpRequest {
    let mut body = prompt.call.clone();
    let previous = prompt.turns.iter().find(|t| t.role == Role::Assistant);
    if let (Some(previous), Some(problems), Value::Object(map)) =
        (previous, prompt.turns.get(2), &mut body)
    {
        map.insert(
            "retry".into(),
            json!({"previous": previous.content, "problems": problems.content}),
        );
    }
    HttpRequest::post_json(config.base_url.clone(), Vec::new(), &body)
}

/// Signs a built request at `now_s` (Unix seconds) with `secret`.
pub(crate) fn sign(request: &mut HttpRequest, secret: &str, now_s: u64) {
    let signature = Webhook::sign_generator(secret, now_s, request.body.as_bytes());
    request
        .headers
        .push((Webhook::SIGNATURE_HEADER.to_owned(), signature));
}

/// The plan in a generator's answer, in the model-plan shape.
pub(crate) fn parse_response(
    status: u16,
    headers: &[(String, String)],
    body: &str,
) -> Result<ModelReply, Error> {
    if !(200..300).contains(&status) {
        return Err(status_error(status, headers, body));
    }
    if body.len() > MAX_ANSWER_BYTES {
        return Err(invalid(&format!(
            "the generator's answer is {} bytes; at most {MAX_ANSWER_BYTES} are read",
            body.len()
        )));
    }
    let value = extract_json(body.trim_start_matches('\u{feff}'))
        .map_err(|e| in_context(e, "the generator's answer: ").with_model_output(body))?;
    let plan_json = plan_in(value).map_err(|e| e.with_model_output(body))?;
    Ok(ModelReply {
        plan_json,
        tokens_in: None,
        tokens_out: None,
    })
}

/// A model plan, bare or under `plan`; a JSON Forms UI schema, bare or
/// under `uischema` (`uiSchema`), converted.
fn plan_in(value: Value) -> Result<Value, Error> {
    let Value::Object(mut map) = value else {
        return Err(invalid("the generator's answer is not a JSON object"));
    };
    for key in ["uischema", "uiSchema"] {
        if let Some(ui) = map.remove(key) {
            return from_uischema(&ui);
        }
    }
    if let Some(message) = map.get("choices").and_then(|c| c.pointer("/0/message")) {
        return super::chat::message_plan(message).map_err(|e| invalid(e.message()));
    }
    let map = match map.remove("plan") {
        Some(Value::Object(plan)) => plan,
        Some(other) => return Ok(other),
        None => map,
    };
    if map.contains_key("root") {
        return from_ir(Value::Object(map));
    }
    if map
        .get("type")
        .and_then(Value::as_str)
        .is_some_and(|t| LAYOUTS.contains(&t) || t == "Control")
    {
        return from_uischema(&Value::Object(map));
    }
    if map.contains_key("sections") {
        return Ok(Value::Object(map));
    }
    Err(invalid(
        "the generator's answer is neither a plan (`sections`) nor a JSON Forms `uischema`",
    ))
}

/// An IR plan (`schemas/plan.schema.json`) in the model-plan shape, so it
/// takes the same repairs and proof as every other answer.
fn from_ir(value: Value) -> Result<Value, Error> {
    let plan: genui_core::Plan = serde_json::from_value(value).map_err(|e| {
        invalid(&format!(
            "the generator's plan does not fit schemas/plan.schema.json: {e}"
        ))
    })?;
    Ok(crate::plan_schema::from_plan(&plan, true))
}

/// JSON Forms layouts read as sections.
const LAYOUTS: [&str; 5] = [
    "VerticalLayout",
    "HorizontalLayout",
    "Group",
    "Categorization",
    "Category",
];

/// A JSON Forms UI schema as a model plan: each top-level `Group`,
/// `Category` or layout becomes a section (nested layouts are flattened
/// into it; a `HorizontalLayout` of controls only keeps `horizontal`); a
/// `Categorization` asks for steps; a `Control`'s `scope` (`#/properties/a`)
/// becomes a field pointer, its `label` an override, and its `options`
/// a widget: `multi` textarea, `slider`, `format: radio`, or our own
/// `widget` name. Anything else is left for the repairs and the proof
/// (an unknown widget or pointer is refused there, never trusted).
pub(crate) fn from_uischema(ui: &Value) -> Result<Value, Error> {
    let kind = ui
        .get("type")
        .and_then(Value::as_str)
        .ok_or_else(|| invalid("the uischema has no `type`"))?;
    let steps = kind == "Categorization";
    let tops: Vec<&Value> = match kind {
        "Control" => vec![ui],
        "Group" => vec![ui],
        _ => ui
            .get("elements")
            .and_then(Value::as_array)
            .ok_or_else(|| invalid("the uischema's layout has no `elements` array"))?
            .iter()
            .collect(),
    };
    let mut sections = Vec::new();
    let mut loose = Vec::new();
    let mut overrides = Vec::new();
    for top in tops {
        let top_kind = top.get("type").and_then(Value::as_str).unwrap_or_default();
        if top_kind == "Control" {
            loose.push(control(top, &mut overrides)?);
            continue;
        }
        let mut fields = Vec::new();
        collect(top, &mut fields, &mut overrides, 0)?;
        let horizontal = top_kind == "HorizontalLayout" && fields.len() <= 3;
        let label = top.get("label").and_then(Value::as_str);
        sections.push(json!({"label": label, "layout": if horizontal { "horizontal" } else { "vertical" }, "fields": fields}));
    }
    if !loose.is_empty() {
        let section = json!({"label": null, "layout": if kind == "HorizontalLayout" && loose.len() <= 3 { "horizontal" } else { "vertical" }, "fields": loose});
        sections.insert(0, section);
    }
    Ok(json!({"title": null, "steps": steps, "sections": sections, "overrides": overrides}))
}

/// Bounds the walk of a hostile, deeply nested UI schema.
const MAX_UISCHEMA_DEPTH: usize = 32;

fn collect(
    node: &Value,
    fields: &mut Vec<Value>,
    overrides: &mut Vec<Value>,
    depth: usize,
) -> Result<(), Error> {
    if depth > MAX_UISCHEMA_DEPTH {
        return Err(invalid(&format!(
            "the uischema nests deeper than {MAX_UISCHEMA_DEPTH} levels"
        )));
    }
    match node.get("type").and_then(Value::as_str) {
        Some("Control") => fields.push(control(node, overrides)?),
        Some(_) => {
            for child in node
                .get("elements")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                collect(child, fields, overrides, depth + 1)?;
            }
        }
        None => return Err(invalid("a uischema element has no `type`")),
    }
    Ok(())
}

/// A control's pointer, and its override when it says more than the scope.
fn control(node: &Value, overrides: &mut Vec<Value>) -> Result<Value, Error> {
    let scope = node
        .get("scope")
        .and_then(Value::as_str)
        .ok_or_else(|| invalid("a uischema Control has no `scope` string"))?;
    let pointer = scope.strip_prefix('#').unwrap_or(scope);
    let label = node.get("label").and_then(Value::as_str);
    let options = node.get("options").and_then(Value::as_object);
    let widget = options.and_then(widget_of);
    if label.is_some() || widget.is_some() {
        overrides.push(json!({"pointer": pointer, "label": label, "widget": widget, "help": null, "placeholder": null}));
    }
    Ok(Value::String(pointer.to_owned()))
}

fn widget_of(options: &Map<String, Value>) -> Option<String> {
    if let Some(widget) = options.get("widget").and_then(Value::as_str) {
        return Some(widget.to_owned());
    }
    let on = |key: &str| options.get(key) == Some(&Value::Bool(true));
    match options.get("format").and_then(Value::as_str) {
        Some("radio") => Some("radio".into()),
        _ if on("multi") => Some("textarea".into()),
        _ if on("slider") => Some("slider".into()),
        _ => None,
    }
}

/// The error for a generator that could not be reached.
pub(crate) fn network_error(message: &str) -> Error {
    failure(
        ModelFailure::Unavailable,
        format!("could not reach the http generator: {message}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_bare_wrapped_or_fenced() {
        let plan = json!({"title": "T", "steps": false, "sections": [{"label": null, "layout": "vertical", "fields": ["/properties/a"]}], "overrides": []});
        assert_eq!(
            parse_response(200, &[], &plan.to_string())
                .unwrap()
                .plan_json,
            plan
        );
        assert_eq!(
            parse_response(200, &[], &json!({"plan": plan}).to_string())
                .unwrap()
                .plan_json,
            plan
        );
        assert_eq!(
            parse_response(200, &[], &format!("```json\n{plan}\n```"))
                .unwrap()
                .plan_json,
            plan
        );
    }

    #[test]
    fn ir_plans_and_chat_completions() {
        let ir = json!({"title": "T", "root": {"type": "vertical", "elements": [
            {"type": "group", "label": "Who", "elements": [{"type": "control", "pointer": "/properties/a", "label": "A", "widget": "text"}]}]}});
        let plan = parse_response(200, &[], &ir.to_string()).unwrap().plan_json;
        assert_eq!(plan["sections"][0]["label"], "Who");
        assert_eq!(plan["sections"][0]["fields"], json!(["/properties/a"]));
        assert_eq!(
            parse_response(200, &[], &json!({"plan": ir}).to_string())
                .unwrap()
                .plan_json,
            plan
        );
        let bad = parse_response(200, &[], &json!({"root": {"type": "nonsense"}}).to_string())
            .unwrap_err();
        assert!(
            bad.message().contains("plan.schema.json"),
            "{}",
            bad.message()
        );
        let model = json!({"title": null, "steps": false, "sections": [], "overrides": []});
        let chat = json!({"choices": [{"message": {"role": "assistant", "content": format!("```json\n{model}\n```")}}]});
        assert_eq!(
            parse_response(200, &[], &chat.to_string())
                .unwrap()
                .plan_json,
            model
        );
    }

    #[test]
    fn garbage_and_errors() {
        let garbage = parse_response(200, &[], "<html>oops</html>").unwrap_err();
        assert_eq!(garbage.code().as_str(), "model_output_invalid");
        assert_eq!(garbage.model_output(), Some("<html>oops</html>"));
        assert_eq!(
            parse_response(200, &[], "{\"hello\": 1}")
                .unwrap_err()
                .code()
                .as_str(),
            "model_output_invalid"
        );
        assert_eq!(
            parse_response(200, &[], "[1]").unwrap_err().code().as_str(),
            "model_output_invalid"
        );
        let down = parse_response(503, &[], "busy").unwrap_err();
        assert_eq!(
            (down.code().model_failure(), down.provider_status()),
            (Some(ModelFailure::Unavailable), Some(503))
        );
        let huge = format!(
            "{{\"sections\": [], \"pad\": \"{}\"}}",
            "x".repeat(MAX_ANSWER_BYTES)
        );
        assert!(parse_response(200, &[], &huge)
            .unwrap_err()
            .message()
            .contains("at most"));
        let limited = parse_response(429, &[("retry-after".into(), "2".into())], "{}").unwrap_err();
        assert_eq!(
            limited.code().model_failure(),
            Some(ModelFailure::RateLimited)
        );
    }

    #[test]
    fn uischemas_become_sections() {
        let ui = json!({"type": "Categorization", "elements": [
            {"type": "Category", "label": "You", "elements": [
                {"type": "HorizontalLayout", "elements": [
                    {"type": "Control", "scope": "#/properties/first", "label": "Given name"},
                    {"type": "Control", "scope": "#/properties/last"}]}]},
            {"type": "Category", "label": "More", "elements": [
                {"type": "Control", "scope": "#/properties/bio", "options": {"multi": true}},
                {"type": "Control", "scope": "#/properties/size", "options": {"format": "radio"}},
                {"type": "Control", "scope": "#/properties/ok", "options": {"widget": "checkbox"}}]}]});
        let plan = parse_response(200, &[], &json!({"uischema": ui}).to_string())
            .unwrap()
            .plan_json;
        assert_eq!(plan["steps"], true);
        assert_eq!(
            plan["sections"][0],
            json!({"label": "You", "layout": "vertical", "fields": ["/properties/first", "/properties/last"]})
        );
        assert_eq!(
            plan["sections"][1]["fields"],
            json!(["/properties/bio", "/properties/size", "/properties/ok"])
        );
        let widgets: Vec<&Value> = plan["overrides"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| &o["widget"])
            .collect();
        assert_eq!(
            widgets,
            [
                &Value::Null,
                &json!("textarea"),
                &json!("radio"),
                &json!("checkbox")
            ]
        );
        assert_eq!(plan["overrides"][0]["label"], "Given name");
        let row = json!({"type": "HorizontalLayout", "elements": [{"type": "Control", "scope": "#/properties/a"}]});
        assert_eq!(
            from_uischema(&row).unwrap()["sections"][0]["layout"],
            "horizontal"
        );
        assert!(from_uischema(&json!({"type": "VerticalLayout"})).is_err());
        assert!(from_uischema(
            &json!({"type": "VerticalLayout", "elements": [{"type": "Control"}]})
        )
        .is_err());
        let mut deep = json!({"type": "Control", "scope": "#/properties/a"});
        for _ in 0..40 {
            deep = json!({"type": "VerticalLayout", "elements": [deep]});
        }
        assert!(
            from_uischema(&json!({"type": "VerticalLayout", "elements": [deep]}))
                .unwrap_err()
                .message()
                .contains("deeper")
        );
    }
}
