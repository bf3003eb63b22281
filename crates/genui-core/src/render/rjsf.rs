//! The react-jsonschema-form projection: a DGUI `dgui_form` (seed 001 §3.2).
//!
//! `schema` is `output` unchanged; `uiSchema` uses RJSF's vocabulary, keyed
//! by property name and nested like the data: `ui:order` (the plan's order),
//! `ui:title` (label), `ui:widget`, `ui:placeholder`, `ui:help`,
//! `ui:readonly`, `ui:options`, `items` for array items, and
//! `ui:submitButtonOptions` at the root. RJSF has no layout groups or
//! wizards: sections and steps keep their order through `ui:order`.

use super::Rendered;
use crate::plan::{Control, Node, Widget};
use serde_json::{json, Map, Value};

/// The `dgui_form` message.
pub fn render(r: &Rendered<'_>) -> Value {
    let mut ui = Map::new();
    add_layer(&r.spec.plan.root, &mut ui);
    let mut submit_text = r.submit_label();
    if let Some(prompt) = r.approval() {
        let field = super::data_path(&prompt.pointer).iter().try_fold(&mut ui, |map, name| {
            map.get_mut(name.as_str()).and_then(Value::as_object_mut)
        });
        if let Some(field) = field {
            field.insert("ui:description".into(), prompt.text().into());
        }
        submit_text = "Confirm";
    }
    ui.insert("ui:submitButtonOptions".into(), json!({"submitText": submit_text}));
    let mut metadata = r.meta.clone();
    metadata.insert("version".into(), "0.1".into());
    json!({
        "type": "dgui_form",
        "title": r.title(),
        "description": r.spec.description,
        "schema": r.spec.schema,
        "uiSchema": ui,
        "formData": r.initial_data,
        "metadata": metadata,
    })
}

/// Writes every control of a layer (the form, or an array item) into `ui`.
fn add_layer(root: &Node, ui: &mut Map<String, Value>) {
    for control in root.controls() {
        let path = super::data_path(&control.pointer);
        let Some((leaf, parents)) = path.split_last() else {
            // A control for the root value itself.
            ui.extend(field_ui(control));
            continue;
        };
        let mut target = &mut *ui;
        for parent in parents {
            push_order(target, parent);
            let entry = target.entry(parent.clone()).or_insert_with(|| Value::Object(Map::new()));
            if !entry.is_object() {
                *entry = Value::Object(Map::new());
            }
            target = entry.as_object_mut().expect("made an object above");
        }
        push_order(target, leaf);
        let field = target.entry(leaf.clone()).or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(map) = field {
            map.extend(field_ui(control));
        }
    }
}

/// Appends a property to `ui:order` the first time it is seen, and keeps
/// RJSF's `*` wildcard last so unplanned properties still render.
fn push_order(ui: &mut Map<String, Value>, name: &str) {
    let order = ui.entry("ui:order").or_insert_with(|| json!(["*"]));
    if let Value::Array(names) = order {
        if !names.iter().any(|n| n == name) {
            let at = names.len().saturating_sub(1);
            names.insert(at, name.into());
        }
    }
}

fn field_ui(control: &Control) -> Map<String, Value> {
    let mut ui = Map::new();
    ui.insert("ui:title".into(), control.label.clone().into());
    if let Some(widget) = widget_name(control.widget) {
        ui.insert("ui:widget".into(), widget.into());
    }
    if let Some(help) = &control.help {
        ui.insert("ui:help".into(), help.clone().into());
    }
    if let Some(placeholder) = &control.placeholder {
        ui.insert("ui:placeholder".into(), placeholder.clone().into());
    }
    if control.read_only {
        ui.insert("ui:readonly".into(), true.into());
    }
    if matches!(control.widget, Widget::Radio | Widget::Approval) {
        ui.insert("ui:options".into(), json!({"inline": true}));
    }
    if let Some(detail) = &control.detail {
        let mut items = Map::new();
        add_layer(detail, &mut items);
        ui.insert("items".into(), Value::Object(items));
    }
    ui
}

/// RJSF's built-in widget names; `None` leaves RJSF's default for the type.
fn widget_name(widget: Widget) -> Option<&'static str> {
    Some(match widget {
        Widget::Text => "text",
        Widget::Textarea => "textarea",
        Widget::Email => "email",
        Widget::Url => "uri",
        Widget::Number | Widget::Integer => "updown",
        Widget::Slider => "range",
        Widget::Checkbox => "checkbox",
        Widget::Select => "select",
        Widget::Radio => "radio",
        Widget::MultiSelect => "checkboxes",
        Widget::Date => "date",
        Widget::DateTime => "datetime",
        Widget::Time => "time",
        Widget::File => "file",
        Widget::Approval => "radio",
        Widget::Array | Widget::Alternatives | Widget::Object => return None,
    })
}
