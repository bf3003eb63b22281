//! The widget the deterministic generator chooses for a field. Every
//! choice must fit the field ([`crate::plan::widgets`], the checker's rule);
//! the tests hold both to that.

use super::labels::words;
use crate::plan::widgets::is_file;
use crate::plan::Widget;
use crate::schema::{FieldKind, Kind, Resolved};

/// Choices up to this many are shown as radio buttons, more as a drop-down.
const MAX_RADIO_OPTIONS: usize = 3;

/// Strings allowed longer than this get a multi-line input.
const LONG_TEXT_LENGTH: u64 = 255;

/// Property-name words that suggest free-form prose.
const PROSE_WORDS: [&str; 16] = [
    "description",
    "notes",
    "note",
    "comment",
    "comments",
    "message",
    "bio",
    "details",
    "body",
    "content",
    "summary",
    "agenda",
    "feedback",
    "remarks",
    "instructions",
    "about",
];

/// The widget the deterministic generator uses for a field.
pub(crate) fn choose(
    name: &str,
    view: &Resolved,
    kind: &FieldKind,
    items: Option<&FieldKind>,
) -> Widget {
    if view.is_opaque() && kind.kind == Kind::Any {
        return Widget::Textarea; // JSON text (schema/external.rs)
    }
    if let Some(choices) = &kind.choices {
        return if choices.len() <= MAX_RADIO_OPTIONS {
            Widget::Radio
        } else {
            Widget::Select
        };
    }
    match kind.kind {
        Kind::Boolean => Widget::Checkbox,
        Kind::Integer | Kind::Number if is_bounded_with_default(view) => Widget::Slider,
        Kind::Integer => Widget::Integer,
        Kind::Number => Widget::Number,
        Kind::String => string_widget(name, view, kind),
        Kind::Array if items.is_some_and(|i| i.choices.is_some()) => Widget::MultiSelect,
        Kind::Array => Widget::Array,
        Kind::Object => Widget::Object,
        Kind::Alternatives => Widget::Alternatives,
        Kind::Null | Kind::Any => Widget::Text,
    }
}

fn string_widget(name: &str, view: &Resolved, kind: &FieldKind) -> Widget {
    match kind.format.as_deref() {
        Some("date") => return Widget::Date,
        Some("date-time") => return Widget::DateTime,
        Some("time") => return Widget::Time,
        Some("email" | "idn-email") => return Widget::Email,
        Some("uri" | "url" | "iri") => return Widget::Url,
        _ => {}
    }
    if is_file(view) {
        return Widget::File;
    }
    let long = view
        .get("maxLength")
        .and_then(|v| v.as_u64())
        .is_some_and(|n| n > LONG_TEXT_LENGTH);
    let prose = words(name)
        .iter()
        .any(|w| PROSE_WORDS.contains(&w.as_str()));
    let short = view
        .get("maxLength")
        .and_then(|v| v.as_u64())
        .is_some_and(|n| n <= 80);
    if long || (prose && !short) {
        Widget::Textarea
    } else {
        Widget::Text
    }
}

/// A slider needs both bounds, and JSON Forms also needs a default.
fn is_bounded_with_default(view: &Resolved) -> bool {
    view.get("minimum").is_some_and(|v| v.is_number())
        && view.get("maximum").is_some_and(|v| v.is_number())
        && view.get("default").is_some_and(|v| v.is_number())
}

impl Widget {
    /// The widget the deterministic generator gives a field ([`choose`]).
    pub fn choose(
        name: &str,
        view: &Resolved,
        kind: &FieldKind,
        items: Option<&FieldKind>,
    ) -> Self {
        choose(name, view, kind, items)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::widgets::fits;
    use serde_json::{json, Value};

    fn pick(name: &str, schema: Value) -> Widget {
        let view = Resolved::from_keywords(schema.as_object().unwrap());
        let kind = FieldKind::of(&view);
        let w = choose(name, &view, &kind, None);
        assert!(fits(w, &view, &kind, None), "{w:?} must fit {schema}");
        w
    }

    #[test]
    fn picks_widgets() {
        assert_eq!(
            pick(
                "country",
                json!({"type": "string", "enum": ["GB", "US", "DE", "AT"]})
            ),
            Widget::Select
        );
        assert_eq!(
            pick("speed", json!({"type": "string", "enum": ["a", "b"]})),
            Widget::Radio
        );
        assert_eq!(pick("ok", json!({"type": "boolean"})), Widget::Checkbox);
        assert_eq!(
            pick(
                "vol",
                json!({"type": "integer", "minimum": 0, "maximum": 100, "default": 5})
            ),
            Widget::Slider
        );
        assert_eq!(
            pick(
                "vol",
                json!({"type": "integer", "minimum": 0, "maximum": 100})
            ),
            Widget::Integer
        );
        assert_eq!(
            pick("d", json!({"type": "string", "format": "date"})),
            Widget::Date
        );
        assert_eq!(pick("bio", json!({"type": "string"})), Widget::Textarea);
        assert_eq!(
            pick("x", json!({"type": "string", "maxLength": 2000})),
            Widget::Textarea
        );
        assert_eq!(pick("name", json!({"type": "string"})), Widget::Text);
        assert_eq!(
            pick(
                "content",
                json!({"type": "string", "format": "content-security-policy"})
            ),
            Widget::Textarea
        );
    }

    #[test]
    fn misfits_are_caught() {
        let schema = json!({"type": "string"});
        let view = Resolved::from_keywords(schema.as_object().unwrap());
        let kind = FieldKind::of(&view);
        assert!(!fits(Widget::Slider, &view, &kind, None));
        assert!(!fits(Widget::Checkbox, &view, &kind, None));
        assert!(!fits(Widget::Date, &view, &kind, None));
    }
}
