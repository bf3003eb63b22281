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
/// each format makes of it. The checker reads `fits`; every format
/// compiler reads its own column (JSON Forms, RJSF, LMUI, A2UI, HTML,
/// React), and the model's plan schema reads the list of widgets; the
/// tests below hold `schemas/` to it.
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
    /// A2UI: the basic catalog component (when the field allows it; a
    /// `TextField` else).
    pub(crate) a2ui: A2uiComponent,
    /// A2UI: what a `TextField` standing for it holds.
    pub(crate) a2ui_text: A2uiText,
    /// HTML: the element of the native form.
    pub(crate) html: HtmlElement,
    /// React: the control of the TSX module.
    pub(crate) react: ReactControl,
}

/// The A2UI basic catalog component a widget becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum A2uiComponent {
    /// A `CheckBox`.
    CheckBox,
    /// A `ChoicePicker` of one value (when the field has choices).
    Choice,
    /// A `ChoicePicker` of several values.
    MultiChoice,
    /// A `DateTimeInput` with its date and time parts enabled or not.
    DateTime {
        /// `enableDate`.
        date: bool,
        /// `enableTime`.
        time: bool,
    },
    /// A `Slider` (when the field has a maximum).
    Slider,
    /// A `List` of items (when the control details them).
    List,
    /// A `TextField`.
    TextField,
    /// None of its own: the decision buttons stand in for it.
    Buttons,
}

/// What an A2UI `TextField` standing for a widget holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum A2uiText {
    /// A number, checked as one.
    Number,
    /// A list: one item per line when they are scalars, JSON else.
    Items,
    /// Any JSON, typed as JSON text.
    Json,
    /// Long text.
    Long,
    /// An e-mail address, checked as one.
    Email,
    /// Short text (obscured for a password).
    Short,
}

/// The element of the HTML form a widget becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum HtmlElement {
    /// `<input type="checkbox">`.
    Checkbox,
    /// A `<select>` (JSON text when the field has no choices).
    Select,
    /// Radio buttons (JSON text when the field has no choices).
    Radios,
    /// Checkboxes or a multiple `<select>` over the items' choices.
    Multi,
    /// Rows that add and remove items (JSON text past the nesting limit).
    Rows,
    /// A `<textarea>` of JSON text.
    Json,
    /// A `<textarea>`.
    Textarea,
    /// An `<input>` of this `type`; `None` picks it from the field's kind.
    Input(Option<&'static str>),
    /// None in the form: the approve and reject buttons end it.
    Buttons,
}

/// The control of the React module a widget becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ReactControl {
    /// `<input type="checkbox">`.
    Checkbox,
    /// A select or radio group over the field's choices (JSON text else).
    Choice,
    /// The approve/reject choice (a bare checkbox when there are no choices).
    Approval,
    /// A multiple select over the items' string choices.
    MultiSelect,
    /// An `<input>` of this numeric `type` (`number`, `range`).
    Number(&'static str),
    /// A `<textarea>` (JSON text when the schema cannot be followed).
    Textarea,
    /// An `<input>`.
    Input {
        /// Its `type` attribute, if any.
        kind: Option<&'static str>,
        /// Attributes after the type (` step={1}`).
        extra: &'static str,
        /// Its `setValueAs` helper; `None` is text (or text-or-null).
        how: Option<&'static str>,
        /// Whether it shows the control's placeholder.
        placeholder: bool,
    },
    /// A component per list of objects (lines or JSON text else).
    List,
    /// A `<textarea>` of JSON text.
    Json,
}

/// React's plain text input (`type` picked by the browser).
const REACT_TEXT: ReactControl = ReactControl::Input {
    kind: None,
    extra: "",
    how: None,
    placeholder: true,
};

const NONE: &str = "{}";

/// The widget table, in [`Widget`]'s declaration order.
pub(crate) const WIDGETS: [WidgetRow; 19] = [
    WidgetRow {
        widget: Widget::Text,
        a2ui: A2uiComponent::TextField,
        a2ui_text: A2uiText::Short,
        html: HtmlElement::Input(None),
        react: REACT_TEXT,
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
        a2ui: A2uiComponent::TextField,
        a2ui_text: A2uiText::Long,
        html: HtmlElement::Textarea,
        react: ReactControl::Textarea,
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
        a2ui: A2uiComponent::TextField,
        a2ui_text: A2uiText::Email,
        html: HtmlElement::Input(Some("email")),
        react: ReactControl::Input {
            kind: Some("email"),
            extra: "",
            how: None,
            placeholder: true,
        },
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
        a2ui: A2uiComponent::TextField,
        a2ui_text: A2uiText::Short,
        html: HtmlElement::Input(Some("url")),
        react: ReactControl::Input {
            kind: Some("url"),
            extra: "",
            how: None,
            placeholder: true,
        },
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
        a2ui: A2uiComponent::TextField,
        a2ui_text: A2uiText::Number,
        html: HtmlElement::Input(Some("number")),
        react: ReactControl::Number("number"),
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
        a2ui: A2uiComponent::TextField,
        a2ui_text: A2uiText::Number,
        html: HtmlElement::Input(Some("number")),
        react: ReactControl::Number("number"),
        wire: "integer",
        jsonforms_options: NONE,
        rjsf: None,
        lmui: "text_input",
        lmui_input: Some("integer"),
        fits: |_, kind, _| kind.kind == Kind::Integer && kind.choices.is_none(),
    },
    WidgetRow {
        widget: Widget::Slider,
        a2ui: A2uiComponent::Slider,
        a2ui_text: A2uiText::Number,
        html: HtmlElement::Input(Some("number")),
        react: ReactControl::Number("range"),
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
        a2ui: A2uiComponent::CheckBox,
        a2ui_text: A2uiText::Short,
        html: HtmlElement::Checkbox,
        react: ReactControl::Checkbox,
        wire: "checkbox",
        jsonforms_options: NONE,
        rjsf: None,
        lmui: "checkbox",
        lmui_input: None,
        fits: |_, kind, _| kind.kind == Kind::Boolean,
    },
    WidgetRow {
        widget: Widget::Select,
        a2ui: A2uiComponent::Choice,
        a2ui_text: A2uiText::Short,
        html: HtmlElement::Select,
        react: ReactControl::Choice,
        wire: "select",
        jsonforms_options: NONE,
        rjsf: None,
        lmui: "interactive_select",
        lmui_input: None,
        fits: |_, kind, _| kind.choices.is_some(),
    },
    WidgetRow {
        widget: Widget::Radio,
        a2ui: A2uiComponent::Choice,
        a2ui_text: A2uiText::Short,
        html: HtmlElement::Radios,
        react: ReactControl::Choice,
        wire: "radio",
        jsonforms_options: r#"{"format":"radio"}"#,
        rjsf: Some("radio"),
        lmui: "radio_buttons",
        lmui_input: None,
        fits: |_, kind, _| kind.choices.is_some(),
    },
    WidgetRow {
        widget: Widget::MultiSelect,
        a2ui: A2uiComponent::MultiChoice,
        a2ui_text: A2uiText::Short,
        html: HtmlElement::Multi,
        react: ReactControl::MultiSelect,
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
        a2ui: A2uiComponent::DateTime {
            date: true,
            time: false,
        },
        a2ui_text: A2uiText::Short,
        html: HtmlElement::Input(Some("date")),
        react: ReactControl::Input {
            kind: Some("date"),
            extra: "",
            how: None,
            placeholder: false,
        },
        wire: "date",
        jsonforms_options: NONE,
        rjsf: None,
        lmui: "date_picker",
        lmui_input: None,
        fits: |_, kind, _| kind.kind == Kind::String && kind.format.as_deref() == Some("date"),
    },
    WidgetRow {
        widget: Widget::DateTime,
        a2ui: A2uiComponent::DateTime {
            date: true,
            time: true,
        },
        a2ui_text: A2uiText::Short,
        html: HtmlElement::Input(Some("datetime-local")),
        react: ReactControl::Input {
            kind: Some("datetime-local"),
            extra: "",
            how: Some("asDateTime"),
            placeholder: false,
        },
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
        a2ui: A2uiComponent::DateTime {
            date: false,
            time: true,
        },
        a2ui_text: A2uiText::Short,
        html: HtmlElement::Input(Some("time")),
        react: ReactControl::Input {
            kind: Some("time"),
            extra: " step={1}",
            how: Some("asTime"),
            placeholder: false,
        },
        wire: "time",
        jsonforms_options: r#"{"timeSaveFormat":"HH:mm:ssZ"}"#,
        rjsf: None,
        lmui: "time_picker",
        lmui_input: None,
        fits: |_, kind, _| kind.kind == Kind::String && kind.format.as_deref() == Some("time"),
    },
    WidgetRow {
        widget: Widget::File,
        a2ui: A2uiComponent::TextField,
        a2ui_text: A2uiText::Short,
        html: HtmlElement::Textarea,
        react: REACT_TEXT,
        wire: "file",
        jsonforms_options: NONE,
        rjsf: Some("file"),
        lmui: "file_upload",
        lmui_input: None,
        fits: |view, kind, _| kind.kind == Kind::String && is_file(view),
    },
    WidgetRow {
        widget: Widget::Approval,
        a2ui: A2uiComponent::Buttons,
        a2ui_text: A2uiText::Short,
        html: HtmlElement::Buttons,
        react: ReactControl::Approval,
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
        a2ui: A2uiComponent::List,
        a2ui_text: A2uiText::Items,
        html: HtmlElement::Rows,
        react: ReactControl::List,
        wire: "array",
        jsonforms_options: NONE,
        rjsf: None,
        lmui: "repeating_group",
        lmui_input: None,
        fits: |_, kind, _| kind.kind == Kind::Array,
    },
    WidgetRow {
        widget: Widget::Alternatives,
        a2ui: A2uiComponent::TextField,
        a2ui_text: A2uiText::Json,
        html: HtmlElement::Json,
        react: ReactControl::Json,
        wire: "alternatives",
        jsonforms_options: NONE,
        rjsf: None,
        lmui: "json_input",
        lmui_input: None,
        fits: |_, kind, _| kind.kind == Kind::Alternatives,
    },
    WidgetRow {
        widget: Widget::Object,
        a2ui: A2uiComponent::TextField,
        a2ui_text: A2uiText::Json,
        html: HtmlElement::Json,
        react: ReactControl::Json,
        wire: "object",
        jsonforms_options: NONE,
        rjsf: None,
        lmui: "json_input",
        lmui_input: None,
        fits: |_, kind, _| kind.kind == Kind::Object,
    },
];

impl Widget {
    /// Every widget, in the widget table's order (the order of the plan
    /// schemas' `widget` enums).
    pub fn all() -> impl Iterator<Item = Widget> {
        WIDGETS.iter().map(|row| row.widget)
    }

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

    #[test]
    fn the_html_and_react_inputs_of_a_widget_have_one_type() {
        for row in &WIDGETS {
            let html = match row.html {
                HtmlElement::Input(kind) => kind,
                _ => continue,
            };
            let react = match row.react {
                ReactControl::Input { kind, .. } => kind,
                ReactControl::Number(_) => Some("number"),
                other => panic!("{}: an HTML input but React's {other:?}", row.wire),
            };
            assert_eq!(html, react, "{}", row.wire);
        }
    }

    #[test]
    fn the_compilers_match_on_their_column_not_on_widgets() {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        for file in [
            "render/react.rs",
            "render/html/form.rs",
            "render/a2ui/build.rs",
        ] {
            let source = std::fs::read_to_string(src.join(file)).unwrap();
            let arms: Vec<&str> = (source.lines().map(str::trim_start))
                .filter(|l| {
                    ["Widget::", "| Widget::", "(Widget::"]
                        .iter()
                        .any(|p| l.starts_with(p))
                })
                .collect();
            assert!(arms.is_empty(), "{file} matches on widgets: {arms:?}");
        }
    }
}
