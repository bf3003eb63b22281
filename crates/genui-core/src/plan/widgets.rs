//! Which widgets fit which field: the rule the checker enforces on any
//! plan, whoever wrote it (the deterministic generator's choice,
//! `crate::plan::generate::widgets`, is one such plan).

use crate::plan::Widget;
use crate::schema::{FieldKind, Kind, Resolved};

/// Strings that carry file content: `format: data-url`, or a declared
/// `contentEncoding`/`contentMediaType`.
pub(crate) fn is_file(view: &Resolved) -> bool {
    view.str("format") == Some("data-url")
        || view.get("contentEncoding").is_some()
        || view.get("contentMediaType").is_some()
}

/// Formats with a widget of their own (the generator never gives them a textarea).
fn has_widget(format: &str) -> bool {
    matches!(
        format,
        "date" | "date-time" | "time" | "email" | "idn-email" | "uri" | "url" | "iri" | "data-url"
    )
}

/// One row of the widget table: a widget, the fields it fits, and what
/// each format calls it. The checker reads `fits`; the JSON Forms, RJSF and
/// LMUI compilers read their columns; the tests below hold `schemas/` to it.
pub(crate) struct WidgetRow {
    /// The widget.
    pub(crate) widget: Widget,
    /// Its name in plans (`schemas/plan.schema.json`, `ui-spec`, `model-plan`).
    pub(crate) wire: &'static str,
    /// Whether it can edit a field of this kind without producing values
    /// the schema rejects or hiding values it allows.
    pub(crate) fits: fn(&Resolved, &FieldKind, Option<&FieldKind>) -> bool,
    /// JSON Forms: the control `options` that select its renderer (JSON
    /// text; JSON Forms picks the rest from the schema's type and format).
    pub(crate) jsonforms_options: &'static str,
    /// RJSF: `ui:widget` where it differs from what RJSF picks by itself.
    pub(crate) rjsf: Option<&'static str>,
    /// LMUI: the component `type` (for a field it fits; `json_input` else).
    pub(crate) lmui: &'static str,
    /// LMUI: a `text_input`'s `input_type`.
    pub(crate) lmui_input: Option<&'static str>,
}

const NONE: &str = "{}";

/// The widget table, in [`Widget`]'s declaration order.
pub(crate) const WIDGETS: [WidgetRow; 19] = [
    WidgetRow {
        widget: Widget::Text,
        wire: "text",
        jsonforms_options: NONE,
        rjsf: None,
        lmui: "text_input",
        lmui_input: Some("text"),
        fits: |_, kind, _| {
            kind.choices.is_none() && matches!(kind.kind, Kind::String | Kind::Any | Kind::Null)
        },
    },
    // A format no widget serves (`content-security-policy`, `markdown`)
    // constrains nothing a validator checks: any text fits.
    WidgetRow {
        widget: Widget::Textarea,
        wire: "textarea",
        jsonforms_options: r#"{"multi":true}"#,
        rjsf: Some("textarea"),
        lmui: "text_input",
        lmui_input: Some("textarea"),
        // An external `$ref` (schema/external.rs) is any JSON, edited as JSON text.
        fits: |view, kind, _| {
            (kind.kind == Kind::String
                && kind.choices.is_none()
                && !kind.format.as_deref().is_some_and(has_widget))
                || (kind.kind == Kind::Any && view.is_opaque())
        },
    },
    WidgetRow {
        widget: Widget::Email,
        wire: "email",
        jsonforms_options: NONE,
        rjsf: None,
        lmui: "text_input",
        lmui_input: Some("email"),
        fits: |_, kind, _| {
            kind.kind == Kind::String
                && matches!(kind.format.as_deref(), Some("email" | "idn-email"))
        },
    },
    WidgetRow {
        widget: Widget::Url,
        wire: "url",
        jsonforms_options: NONE,
        rjsf: None,
        lmui: "text_input",
        lmui_input: Some("url"),
        fits: |_, kind, _| {
            kind.kind == Kind::String
                && matches!(kind.format.as_deref(), Some("uri" | "url" | "iri"))
        },
    },
    WidgetRow {
        widget: Widget::Number,
        wire: "number",
        jsonforms_options: NONE,
        rjsf: None,
        lmui: "text_input",
        lmui_input: Some("number"),
        fits: |_, kind, _| {
            matches!(kind.kind, Kind::Number | Kind::Integer) && kind.choices.is_none()
        },
    },
    WidgetRow {
        widget: Widget::Integer,
        wire: "integer",
        jsonforms_options: NONE,
        rjsf: None,
        lmui: "text_input",
        lmui_input: Some("integer"),
        fits: |_, kind, _| kind.kind == Kind::Integer && kind.choices.is_none(),
    },
    WidgetRow {
        widget: Widget::Slider,
        wire: "slider",
        jsonforms_options: r#"{"slider":true}"#,
        rjsf: Some("range"),
        lmui: "slider",
        lmui_input: None,
        fits: |view, kind, _| {
            matches!(kind.kind, Kind::Number | Kind::Integer)
                && view.get("minimum").is_some()
                && view.get("maximum").is_some()
        },
    },
    WidgetRow {
        widget: Widget::Checkbox,
        wire: "checkbox",
        jsonforms_options: NONE,
        rjsf: None,
        lmui: "checkbox",
        lmui_input: None,
        fits: |_, kind, _| kind.kind == Kind::Boolean,
    },
    WidgetRow {
        widget: Widget::Select,
        wire: "select",
        jsonforms_options: NONE,
        rjsf: None,
        lmui: "interactive_select",
        lmui_input: None,
        fits: |_, kind, _| kind.choices.is_some(),
    },
    WidgetRow {
        widget: Widget::Radio,
        wire: "radio",
        jsonforms_options: r#"{"format":"radio"}"#,
        rjsf: Some("radio"),
        lmui: "radio_buttons",
        lmui_input: None,
        fits: |_, kind, _| kind.choices.is_some(),
    },
    WidgetRow {
        widget: Widget::MultiSelect,
        wire: "multiSelect",
        jsonforms_options: NONE,
        rjsf: Some("checkboxes"),
        lmui: "interactive_select",
        lmui_input: None,
        fits: |_, kind, items| {
            kind.kind == Kind::Array && items.is_some_and(|i| i.choices.is_some())
        },
    },
    WidgetRow {
        widget: Widget::Date,
        wire: "date",
        jsonforms_options: NONE,
        rjsf: None,
        lmui: "date_picker",
        lmui_input: None,
        fits: |_, kind, _| kind.kind == Kind::String && kind.format.as_deref() == Some("date"),
    },
    WidgetRow {
        widget: Widget::DateTime,
        wire: "dateTime",
        jsonforms_options: NONE,
        rjsf: None,
        lmui: "datetime_picker",
        lmui_input: None,
        fits: |_, kind, _| kind.kind == Kind::String && kind.format.as_deref() == Some("date-time"),
    },
    // JSON Forms saves times as HH:mm:ss; JSON Schema's `time` format
    // (RFC 3339 full-time) needs an offset.
    WidgetRow {
        widget: Widget::Time,
        wire: "time",
        jsonforms_options: r#"{"timeSaveFormat":"HH:mm:ssZ"}"#,
        rjsf: None,
        lmui: "time_picker",
        lmui_input: None,
        fits: |_, kind, _| kind.kind == Kind::String && kind.format.as_deref() == Some("time"),
    },
    WidgetRow {
        widget: Widget::File,
        wire: "file",
        jsonforms_options: NONE,
        rjsf: Some("file"),
        lmui: "file_upload",
        lmui_input: None,
        fits: |view, kind, _| kind.kind == Kind::String && is_file(view),
    },
    WidgetRow {
        widget: Widget::Approval,
        wire: "approval",
        rjsf: Some("radio"),
        lmui: "button",
        lmui_input: None,
        jsonforms_options: r#"{"format":"radio","approval":{"approveLabel":"Approve","rejectLabel":"Reject"}}"#,
        fits: |_, kind, _| {
            (kind.kind == Kind::Boolean && kind.choices.is_none())
                || kind.choices.as_ref().is_some_and(|c| c.len() == 2)
        },
    },
    WidgetRow {
        widget: Widget::Array,
        wire: "array",
        jsonforms_options: NONE,
        rjsf: None,
        lmui: "repeating_group",
        lmui_input: None,
        fits: |_, kind, _| kind.kind == Kind::Array,
    },
    WidgetRow {
        widget: Widget::Alternatives,
        wire: "alternatives",
        jsonforms_options: NONE,
        rjsf: None,
        lmui: "json_input",
        lmui_input: None,
        fits: |_, kind, _| kind.kind == Kind::Alternatives,
    },
    WidgetRow {
        widget: Widget::Object,
        wire: "object",
        jsonforms_options: NONE,
        rjsf: None,
        lmui: "json_input",
        lmui_input: None,
        fits: |_, kind, _| kind.kind == Kind::Object,
    },
];

impl Widget {
    /// The wire name (serde's, and `schemas/`').
    pub fn as_str(self) -> &'static str {
        self.row().wire
    }

    /// This widget's row of [`WIDGETS`].
    pub(crate) fn row(self) -> &'static WidgetRow {
        let row = &WIDGETS[self as usize];
        debug_assert_eq!(row.widget, self, "WIDGETS is in declaration order");
        row
    }

    /// JSON Forms' control options for this widget, parsed once.
    pub(crate) fn jsonforms_options(self) -> &'static serde_json::Map<String, serde_json::Value> {
        static PARSED: std::sync::OnceLock<Vec<serde_json::Map<String, serde_json::Value>>> =
            std::sync::OnceLock::new();
        let all = PARSED.get_or_init(|| {
            WIDGETS
                .iter()
                .map(|r| serde_json::from_str(r.jsonforms_options).unwrap_or_default())
                .collect()
        });
        &all[self as usize]
    }
}

/// Whether `widget` can edit a field of this kind without producing values
/// the schema rejects or hiding values it allows (its row's `fits`).
pub(crate) fn fits(
    widget: Widget,
    view: &Resolved,
    kind: &FieldKind,
    items: Option<&FieldKind>,
) -> bool {
    (widget.row().fits)(view, kind, items)
}

impl Widget {
    /// Whether this widget fits a field (the checker's rule; [`fits`]).
    pub fn fits(self, view: &Resolved, kind: &FieldKind, items: Option<&FieldKind>) -> bool {
        fits(self, view, kind, items)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn schema(file: &str) -> Value {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../schemas")
            .join(file);
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    fn strings(value: &Value) -> Vec<String> {
        let mut out: Vec<String> = value
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect();
        out.sort();
        out
    }

    #[test]
    fn the_table_is_in_declaration_order_and_names_what_serde_writes() {
        for (index, row) in WIDGETS.iter().enumerate() {
            assert_eq!(row.widget as usize, index, "{}", row.wire);
            assert_eq!(serde_json::to_value(row.widget).unwrap(), row.wire);
            assert_eq!(
                row.widget.jsonforms_options().is_empty(),
                row.jsonforms_options == NONE,
                "{}: its options parse",
                row.wire
            );
        }
    }

    #[test]
    fn the_schemas_name_exactly_the_widgets_of_the_table() {
        let mut wire: Vec<String> = WIDGETS.iter().map(|r| r.wire.to_owned()).collect();
        wire.sort();
        for (file, pointer) in [
            ("plan.schema.json", "/$defs/control/properties/widget/enum"),
            (
                "ui-spec.schema.json",
                "/$defs/control/properties/widget/enum",
            ),
            (
                "model-plan.schema.json",
                "/properties/overrides/items/properties/widget/enum",
            ),
        ] {
            assert_eq!(
                strings(schema(file).pointer(pointer).unwrap()),
                wire,
                "{file}"
            );
        }
        let lmui = schema("lmui-message.schema.json");
        let types = strings(
            lmui.pointer("/$defs/component/properties/type/enum")
                .unwrap(),
        );
        let inputs = strings(
            lmui.pointer("/$defs/component/properties/input_type/enum")
                .unwrap(),
        );
        for row in &WIDGETS {
            assert!(
                types.contains(&row.lmui.to_owned()),
                "{}: LMUI type {} is not in the contract",
                row.wire,
                row.lmui
            );
            assert!(
                row.lmui_input
                    .is_none_or(|t| inputs.contains(&t.to_owned())),
                "{}: input_type",
                row.wire
            );
        }
        let mut input_names: Vec<String> = WIDGETS
            .iter()
            .filter_map(|r| r.lmui_input.map(str::to_owned))
            .collect();
        input_names.sort();
        assert_eq!(
            input_names, inputs,
            "every LMUI input_type comes from one widget"
        );
    }
}
