//! A generation's updates as Server-Sent Events: `ui` (a complete answer),
//! `patch` (RFC 6902, from the last `ui` to the refined answer), `done`,
//! `error`, and comment heartbeats. An edit in place (`previousSpecHash`)
//! opens with the edited form as its `ui`, and the new form follows as a
//! `patch` from it.
//!
//! The one SSE encoder of the worker lives here ([`frame`]). Encoding SSE
//! is a line format of two fields; the kept crates that do it are tied to a
//! server framework or an async runtime, which the wasm shell has neither
//! of. Frames end in `\n\n` with LF only (AG-UI's client splits on
//! `/\n\n/`), and every `data` is compact JSON, which has no raw newline.
//!
//! The patches are `json-patch`'s diff, so a client applying them with any
//! RFC 6902 library to the `ui` it holds gets the refined body.

use crate::machine::Update;
use serde_json::Value;

/// A heartbeat: an SSE comment, ignored by every client.
pub(crate) const HEARTBEAT: &str = ": heartbeat\n\n";

/// How often a heartbeat is written while the model works (ms).
pub(crate) const HEARTBEAT_MS: u64 = 5_000;

/// The content type of the streams.
pub(crate) const CONTENT_TYPE: &str = "text/event-stream; charset=utf-8";

/// Whether an `Accept` header asks for an event stream.
pub(crate) fn wants_event_stream(accept: Option<&str>) -> bool {
    accept.is_some_and(|accept| {
        accept.split(',').any(|part| {
            part.split(';')
                .next()
                .unwrap_or_default()
                .trim()
                .eq_ignore_ascii_case("text/event-stream")
        })
    })
}

/// One SSE frame: `event: <name>` (omitted when empty) and `data: <json>`.
pub(crate) fn frame(event: &str, data: &Value) -> String {
    if event.is_empty() {
        format!("data: {data}\n\n")
    } else {
        format!("event: {event}\ndata: {data}\n\n")
    }
}

/// The RFC 6902 patch that turns `from` into `to`, as a JSON array.
pub(crate) fn diff(from: &Value, to: &Value) -> Value {
    serde_json::to_value(json_patch::diff(from, to)).unwrap_or_else(|_| Value::Array(Vec::new()))
}

/// Writes a generation's updates as SSE frames: `/v1/generate`'s events
/// ([`GenerateEvents`]) or AG-UI's (`crate::agui::AgentEvents`).
pub trait Encoder {
    /// What opens the stream, before any update (empty by default).
    fn open(&mut self) -> String {
        String::new()
    }

    /// The frames for one update (may be empty).
    fn frames(&mut self, update: &Update) -> String;
}

/// Turns the machine's updates into `/v1/generate`'s events, remembering
/// the last complete answer so that a refinement goes out as a patch.
#[derive(Debug, Default)]
pub struct GenerateEvents {
    last_ui: Option<Value>,
}

impl Encoder for GenerateEvents {
    /// The frames for one update (empty when a refinement changes nothing).
    fn frames(&mut self, update: &Update) -> String {
        match update {
            Update::Base(response) => {
                let body = body_value(&response.body);
                let text = frame("ui", &body);
                self.last_ui = Some(body);
                text
            }
            Update::Ui(response) if self.last_ui.is_some() => {
                self.frames(&Update::Refined(response.clone()))
            }
            Update::Ui(response) => {
                let body = body_value(&response.body);
                let text = frame("ui", &body);
                self.last_ui = Some(body);
                text
            }
            Update::Refined(response) => {
                let body = body_value(&response.body);
                let patch = match &self.last_ui {
                    Some(last) => diff(last, &body),
                    None => return self.frames(&Update::Ui(response.clone())),
                };
                self.last_ui = Some(body);
                if patch.as_array().is_some_and(Vec::is_empty) {
                    return String::new();
                }
                frame("patch", &patch)
            }
            Update::Error(response) => frame("error", &body_value(&response.body)),
            Update::Done(summary) => frame("done", &summary.to_json()),
        }
    }
}

/// A response body as JSON (every generate answer is JSON; anything else is
/// carried as a string rather than dropped).
pub(crate) fn body_value(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|_| Value::String(body.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn accept_negotiation() {
        assert!(wants_event_stream(Some("text/event-stream")));
        assert!(wants_event_stream(Some(
            "application/json, Text/Event-Stream;q=0.9"
        )));
        assert!(!wants_event_stream(Some("application/json")));
        assert!(!wants_event_stream(None));
    }

    #[test]
    fn frames_are_lf_only_and_one_line_of_data() {
        let text = frame("ui", &json!({"a": "line\nbreak"}));
        assert_eq!(text, "event: ui\ndata: {\"a\":\"line\\nbreak\"}\n\n");
        assert_eq!(frame("", &json!(1)), "data: 1\n\n");
    }

    #[test]
    fn diff_then_apply_round_trips() {
        let from = json!({"meta": {"generator": "deterministic", "cache": "hit"}, "ui": [1, 2, 3]});
        let to = json!({"meta": {"generator": "model", "title": "T"}, "ui": [1, 3]});
        let patch = diff(&from, &to);
        assert!(!patch.as_array().unwrap().is_empty());
        let apply = |doc: &mut Value, patch: &Value| {
            serde_json::from_value::<json_patch::Patch>(patch.clone())
                .is_ok_and(|patch| json_patch::patch(doc, &patch).is_ok())
        };
        let mut doc = from.clone();
        assert!(apply(&mut doc, &patch));
        assert_eq!(doc, to);
        assert!(!apply(
            &mut doc,
            &json!([{"op": "remove", "path": "/nope"}])
        ));
    }
}
