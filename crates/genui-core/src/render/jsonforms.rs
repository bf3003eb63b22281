//! The JSON Forms projection: `{jsonSchema, uiSchema, initialData, meta}`.
//!
//! Layouts map one to one (`VerticalLayout`, `HorizontalLayout`, `Group`,
//! `Categorization` of `Category` with the stepper variant); a control's
//! pointer becomes its `scope` (`#` + pointer); widget choices become the
//! options JSON Forms' standard renderer sets read (`multi`, `format: radio`,
//! `slider`, `readonly`, `detail`).

use super::RenderInput;
use crate::plan::display::table::{chart_id, charts};
use crate::plan::{Control, Node, Plan, Rule, Table};
use serde_json::{json, Map, Value};

/// The whole answer: schema, UI schema, initial data and provenance.
pub(crate) fn render(r: &RenderInput<'_>) -> Value {
    let mut ui = data_free_ui_schema(r);
    // JSON Forms' standard renderers have no buttons: an approval's prompt
    // is a Label, the decision a radio group (or checkbox), and
    // `options.approval` tells custom renderers to draw buttons. A
    // request's own prompt (an interrupt's message) is a Label too.
    let label = match r.approval() {
        Some(prompt) => Some(prompt.text()),
        None => r.prompt.and_then(|_| r.lead()),
    };
    if let (Some(text), Some(elements)) =
        (label, ui.get_mut("elements").and_then(Value::as_array_mut))
    {
        elements.insert(
            0,
            json!({"type": "Label", "text": crate::render::text::plain(&text)}),
        );
    }
    // Built by hand, not with `json!`: the macro serialises every value it
    // is given into a new one, re-inserting each key of the schema and the
    // UI schema; moving or cloning is several times cheaper (benches).
    let mut message = Map::new();
    message.insert(
        "jsonSchema".into(),
        super::renderer_schema(r, "jsonforms", super::renderable::jsonforms_schema),
    );
    message.insert("uiSchema".into(), ui);
    message.insert("initialData".into(), r.initial_data.clone());
    message.insert("meta".into(), Value::Object(r.meta()));
    let tables = r.spec.plan.root.tables();
    if !tables.is_empty() {
        message.insert("charts".into(), charts(&tables, &r.initial_data));
    }
    Value::Object(message)
}

/// The whole answer as the JSON text the service sends, the same bytes as
/// [`render`]'s value serialised. `jsonSchema` and `uiSchema` depend on the
/// spec alone (and the catalog), so an isolate writes them once per spec and
/// each answer only writes its data and provenance around them: on a hit,
/// cloning the schema, building the UI schema and serialising both were
/// most of the work. An approval's prompt and an interrupt's message come from the request,
/// so such a form is built whole each time.
pub(crate) fn render_text(r: &RenderInput<'_>) -> String {
    if r.per_request_words() {
        return serde_json::to_string(&render(r)).unwrap_or_default();
    }
    let head = super::remembered_head(
        r,
        "jsonforms-text",
        if has_large_enum(r) { "large enum" } else { "" },
        || data_free_head(r),
        String::len,
    );
    super::answer_text(
        &head,
        ("initialData", &r.initial_data),
        ("meta", &r.meta()),
        r,
    )
}

/// `{"jsonSchema", "uiSchema"` of a form without an approval, as JSON text
/// (the object left open).
fn data_free_head(r: &RenderInput<'_>) -> String {
    let schema = super::renderer_schema_text(
        r,
        "jsonforms-schema-text",
        super::renderable::jsonforms_schema,
    );
    let ui = serde_json::to_string(&data_free_ui_schema(r)).unwrap_or_default();
    format!("{{\"jsonSchema\":{schema},\"uiSchema\":{ui}")
}

/// The UI schema before an approval's prompt is added.
fn data_free_ui_schema(r: &RenderInput<'_>) -> Value {
    let mut ui = node(&r.spec.plan.root, r.catalog);
    if has_large_enum(r) {
        mark_searchable(&mut ui, &r.spec.schema);
    }
    ui
}

/// Whether the spec's warnings name an enum too long for a drop-down.
fn has_large_enum(r: &RenderInput<'_>) -> bool {
    let warnings = r.meta.get("warnings").and_then(Value::as_array);
    warnings
        .into_iter()
        .flatten()
        .any(|w| w["code"] == "large_enum")
}

/// Controls over an enum too long for a drop-down get JSON Forms'
/// `autocomplete` option (a searchable single choice). Runs only when a
/// `large_enum` warning says there is one (a warning may point at a
/// definition a `$ref` reaches, so each control's own choices decide).
fn mark_searchable(ui: &mut Value, schema: &Value) {
    let limits = crate::terms::limits::Limits::default();
    let doc = crate::schema::SchemaDoc::new(schema, &limits);
    let mut stack = vec![ui];
    while let Some(node) = stack.pop() {
        let Value::Object(map) = node else { continue };
        let scope = map
            .get("scope")
            .and_then(Value::as_str)
            .and_then(|s| s.strip_prefix('#'));
        let target = scope
            .and_then(|pointer| doc.resolve_scope(schema, pointer))
            .and_then(|n| doc.resolve(n).ok());
        let long = target
            .and_then(|view| view.kind().choices)
            .is_some_and(|c| c.len() > limits.max_enum_values);
        if long {
            if let Value::Object(options) = map.entry("options").or_insert_with(|| json!({})) {
                options.insert("autocomplete".into(), true.into());
            }
        }
        if let Some(Value::Array(children)) = map.get_mut("elements") {
            stack.extend(children.iter_mut());
        }
    }
}

/// A display table: JSON Forms' material renderer draws a read-only array
/// of flat objects as a table; `charts` names the charts that belong here.
fn table(t: &Table, cat: Cat<'_>) -> Value {
    let mut element = control(&t.control, cat);
    if let Some(Value::Object(options)) = element
        .as_object_mut()
        .map(|e| e.entry("options").or_insert_with(|| json!({})))
    {
        options.insert("readonly".into(), true.into());
        options.insert("disableAdd".into(), true.into());
        options.insert("disableRemove".into(), true.into());
        options.insert("showSortButtons".into(), false.into());
        options.insert(
            "charts".into(),
            json!(chart_id(&t.dataset).into_iter().collect::<Vec<_>>()),
        );
    }
    element
}

/// The `uiSchema` for a plan.
pub(crate) fn ui_schema(plan: &Plan) -> Value {
    node(&plan.root, None)
}

/// The request's operator catalog, which compiles the plan's bindings.
type Cat<'c> = Option<&'c crate::Catalog>;

// Built as maps rather than with `json!`: `json!` turns an expression into a
// value by serialising it, so `json!({"elements": children})` deep-copied
// every subtree once per enclosing layout.
fn node(node: &Node, cat: Cat<'_>) -> Value {
    match node {
        Node::Vertical { elements } => layout("VerticalLayout", None, elements, cat),
        Node::Horizontal { elements } => layout("HorizontalLayout", None, elements, cat),
        Node::Group {
            label,
            elements,
            rule,
            ..
        } => {
            let mut group = layout_with(
                "Group",
                Some(label),
                elements.iter().map(|n| self::node(n, cat)).collect(),
            );
            if let Some(rule) = rule {
                group.insert("rule".into(), compile_rule(rule));
            }
            Value::Object(group)
        }
        Node::Steps { steps } => {
            let mut out = layout_with(
                "Categorization",
                None,
                steps
                    .iter()
                    .map(|s| layout("Category", Some(&s.label), &s.elements, cat))
                    .collect(),
            );
            out.insert(
                "options".into(),
                json!({"variant": "stepper", "showNavButtons": true}),
            );
            Value::Object(out)
        }
        Node::Control(c) => control(c, cat),
        Node::Table(t) => table(t, cat),
    }
}

/// `{type, label?, elements}`. Built by hand, not with `json!`: the macro
/// would serialise the already built children into a copy at every level,
/// so a deep form's UI schema was copied once per ancestor.
fn layout(kind: &str, label: Option<&str>, elements: &[Node], cat: Cat<'_>) -> Value {
    Value::Object(layout_with(
        kind,
        label,
        elements.iter().map(|n| node(n, cat)).collect(),
    ))
}

fn layout_with(kind: &str, label: Option<&str>, elements: Vec<Value>) -> Map<String, Value> {
    let mut out = Map::new();
    out.insert("type".into(), kind.into());
    if let Some(label) = label {
        out.insert("label".into(), label.into());
    }
    out.insert("elements".into(), Value::Array(elements));
    out
}

fn control(c: &Control, cat: Cat<'_>) -> Value {
    let mut out = Map::new();
    out.insert("type".into(), "Control".into());
    out.insert("scope".into(), format!("#{}", c.pointer).into());
    out.insert("label".into(), c.label.clone().into());
    let mut options = Map::new();
    // The widget table says which options select its renderer.
    options.extend(
        c.widget
            .jsonforms_options()
            .iter()
            .map(|(k, v)| (k.clone(), v.clone())),
    );
    if c.read_only {
        options.insert("readonly".into(), true.into());
    }
    if let Some(detail) = &c.detail {
        options.insert("detail".into(), node(detail, cat));
    }
    // A bound component: the options its custom renderer's tester reads,
    // and its props; the stand-in's options go (they select another renderer).
    if let Some(entry) = c
        .component
        .as_deref()
        .zip(cat)
        .and_then(|(name, cat)| cat.entry(name))
    {
        c.widget
            .jsonforms_options()
            .keys()
            .for_each(|k| drop(options.remove(k)));
        options.extend(
            entry
                .jsonforms
                .options
                .iter()
                .map(|(k, v)| (k.clone(), v.clone())),
        );
        if let Some(props) = entry.props_for(c.component_props.as_ref()) {
            options.insert("props".into(), Value::Object(props.clone()));
        }
    }
    if let Some(text) = &c.placeholder {
        options.insert("placeholder".into(), text.clone().into());
    }
    if !options.is_empty() {
        out.insert("options".into(), Value::Object(options));
    }
    if let Some(rule) = &c.rule {
        out.insert("rule".into(), compile_rule(rule));
    }
    Value::Object(out)
}

/// A plan rule as JSON Forms' `{effect, condition: {scope, schema}}`; a
/// condition on the whole form reads scope `#`.
fn compile_rule(rule: &Rule) -> Value {
    json!({"effect": rule.effect, "condition": {"scope": format!("#{}", rule.pointer), "schema": rule.schema}})
}

impl Plan {
    /// The JSON Forms `uiSchema` of this plan ([`ui_schema`]).
    pub fn jsonforms_ui_schema(&self) -> Value {
        ui_schema(self)
    }
}

/// JSON Forms, the default format (`format=jsonforms`).
pub(crate) struct JsonForms;

impl super::FormatCompiler for JsonForms {
    fn names(&self) -> &'static [&'static str] {
        &["jsonforms"]
    }

    fn format(&self) -> crate::Format {
        crate::Format::JsonForms
    }

    fn contract(&self) -> crate::Contract {
        crate::Contract::JsonFormsResponse
    }

    fn render(&self, r: &RenderInput<'_>, _: crate::Format) -> Value {
        render(r)
    }

    fn render_text(&self, r: &RenderInput<'_>, _: crate::Format) -> String {
        render_text(r)
    }
}
