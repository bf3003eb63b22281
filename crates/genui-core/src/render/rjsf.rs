//! The react-jsonschema-form projection: a DGUI `dgui_form` (seed 001 §3.2).
//!
//! `schema` is `output` unchanged; `uiSchema` uses RJSF's vocabulary, keyed
//! by property name and nested like the data: `ui:order` (the plan's order),
//! `ui:title` (label), `ui:widget`, `ui:placeholder`, `ui:help`,
//! `ui:readonly`, `ui:options`, `items` for array items, and
//! `ui:submitButtonOptions` at the root. RJSF has no layout groups or
//! wizards: sections and steps keep their order through `ui:order`, and:
//!
//! - **rows**: each field of a plan row gets `ui:style` (inline-block, an
//!   equal share of the width; RJSF puts it on the field's wrapper `div`, so
//!   the fields sit side by side in any theme that keeps the wrapper) and
//!   `ui:classNames: "genui-row genui-row-<n>"` for themes that style by
//!   class. Mobile plans have no rows;
//! - **steps**: the root's `ui:options.steps` lists each step's `label` and
//!   top-level `fields`, for a host that pages through them; stock RJSF
//!   shows every step on one page, in step order;
//! - **sections**: a section of fields under one object is that object's
//!   `ui:title` (RJSF draws it as the object's legend). Sections of a flat
//!   form have no object to name, and RJSF draws no heading between the
//!   fields of one object, so the root's `ui:options.sections` lists each
//!   such section's `label` (in the request's language) and top-level
//!   `fields`, in order, for the host's `ObjectFieldTemplate` to head each
//!   run of fields with (docs/formats.md shows one);
//! - **conditions**: RJSF evaluates the schema's own `if`/`then`/`else`,
//!   `dependencies` and `oneOf` itself; `ui:order` names fields that only
//!   exist in a branch (with RJSF's `*` last, names absent from the current
//!   branch are skipped), and a discriminated `oneOf`'s discriminator is
//!   `hidden` (RJSF's option selector chooses the branch and sets it);
//!   `dependentSchemas` are also written as `dependencies`, which RJSF reads.

use super::RenderInput;
use crate::plan::display::table::{chart_id, charts};
use crate::plan::{Control, Node, Table, Widget};
use crate::schema::SchemaDoc;
use serde_json::{json, Map, Value};

/// The `dgui_form` message.
pub(crate) fn render(r: &RenderInput<'_>) -> Value {
    let ui = ui_schema(r, r.approval());
    let tables = r.spec.plan.root.tables();
    // Built by hand, not with `json!`, which would serialise the schema and
    // the UI schema into new values instead of moving or cloning them.
    let mut message = Map::new();
    message.insert("type".into(), "dgui_form".into());
    message.insert("title".into(), r.title().into());
    if let Some(lead) = r.lead() {
        message.insert(
            "description".into(),
            crate::render::text::plain(&lead).into(),
        );
    }
    message.insert(
        "schema".into(),
        super::renderer_schema(r, "rjsf", super::renderable::rjsf_schema),
    );
    message.insert("uiSchema".into(), Value::Object(ui));
    message.insert("formData".into(), r.initial_data.clone());
    message.insert(
        "metadata".into(),
        Value::Object(metadata(r, !tables.is_empty())),
    );
    if !tables.is_empty() {
        message.insert("charts".into(), charts(&tables, &r.initial_data));
    }
    Value::Object(message)
}

/// The message as the JSON text the service sends, the same bytes as
/// [`render`]'s value serialised. Everything before `formData` depends on
/// the spec alone (and the catalog and language), so an isolate writes it
/// once per spec and each answer only writes its data and metadata after
/// it. An approval's prompt or an interrupt's message comes from the request, so such a form
/// is built whole each time.
pub(crate) fn render_text(r: &RenderInput<'_>) -> String {
    if r.per_request_words() {
        return serde_json::to_string(&render(r)).unwrap_or_default();
    }
    let head = super::remembered_head(r, "rjsf-text", "", || data_free_head(r), String::len);
    let display = !r.spec.plan.root.tables().is_empty();
    super::answer_text(
        &head,
        ("formData", &r.initial_data),
        ("metadata", &metadata(r, display)),
        r,
    )
}

/// `{"type", "title", "description", "schema", "uiSchema"` of a form
/// without an approval, as JSON text (the object left open).
fn data_free_head(r: &RenderInput<'_>) -> String {
    let mut head = Map::new();
    head.insert("type".into(), "dgui_form".into());
    head.insert("title".into(), r.title().into());
    if let Some(lead) = r.lead() {
        head.insert(
            "description".into(),
            crate::render::text::plain(&lead).into(),
        );
    }
    let text = serde_json::to_string(&head).unwrap_or_default();
    let schema = super::renderer_schema_text(r, "rjsf-schema-text", super::renderable::rjsf_schema);
    let ui = serde_json::to_string(&ui_schema(r, None)).unwrap_or_default();
    format!(
        "{},\"schema\":{schema},\"uiSchema\":{ui}",
        text.trim_end_matches('}')
    )
}

/// The UI schema, with an approval's prompt when the form asks for one.
fn ui_schema(r: &RenderInput<'_>, approval: Option<super::ApprovalPrompt>) -> Map<String, Value> {
    let mut ui = Map::new();
    let limits = crate::terms::limits::Limits::default();
    let doc = SchemaDoc::new(&r.spec.schema, &limits);
    let layer = Layer {
        doc: &doc,
        base: &r.spec.schema,
        catalog: r.catalog,
    };
    layer.add(&r.spec.plan.root, &mut ui);
    add_group_titles(&r.spec.plan.root, &mut ui);
    let mut options = Map::new();
    if let Some(steps) = step_hint(&r.spec.plan.root) {
        options.insert("steps".into(), steps);
    }
    if let Some(sections) = section_hint(&r.spec.plan.root) {
        options.insert("sections".into(), sections);
    }
    if !options.is_empty() {
        ui.insert("ui:options".into(), Value::Object(options));
    }
    let mut submit_text = r.submit_label();
    if let Some(prompt) = approval {
        let field = super::data_path(&prompt.pointer)
            .iter()
            .try_fold(&mut ui, |map, name| {
                map.get_mut(name.as_str()).and_then(Value::as_object_mut)
            });
        if let Some(field) = field {
            field.insert(
                "ui:description".into(),
                crate::render::text::plain(&prompt.text()).into(),
            );
        }
        submit_text = r.lang().text(super::words::Text::Confirm);
    }
    // A display takes no submission.
    let tables = r.spec.plan.root.tables();
    let submit = if tables.is_empty() {
        json!({"submitText": submit_text})
    } else {
        json!({"norender": true})
    };
    ui.insert("ui:submitButtonOptions".into(), submit);
    tables.iter().for_each(|t| read_only_table(t, &mut ui));
    ui
}

/// The provenance, with the DGUI version (and `kind` for a display).
fn metadata(r: &RenderInput<'_>, display: bool) -> Map<String, Value> {
    let mut metadata = r.meta.clone();
    metadata.insert("version".into(), "0.1".into());
    if display {
        metadata.insert("kind".into(), "display".into());
    }
    metadata
}

/// A display table's field: read-only, no adding, removing or ordering,
/// and the ids of its charts.
fn read_only_table(t: &Table, ui: &mut Map<String, Value>) {
    let path = super::data_path(&t.dataset.schema_pointer);
    let field = path.iter().try_fold(ui, |map, name| {
        map.get_mut(name.as_str()).and_then(Value::as_object_mut)
    });
    let Some(field) = field else { return };
    field.insert("ui:readonly".into(), true.into());
    if let Value::Object(options) = field.entry("ui:options").or_insert_with(|| json!({})) {
        options.insert("addable".into(), false.into());
        options.insert("removable".into(), false.into());
        options.insert("orderable".into(), false.into());
        options.insert(
            "charts".into(),
            json!(chart_id(&t.dataset).into_iter().collect::<Vec<_>>()),
        );
    }
}

/// The schema a layer's pointers are relative to (the form, or an item).
struct Layer<'a> {
    doc: &'a SchemaDoc<'a>,
    base: &'a Value,
    /// The request's operator catalog, which compiles the plan's bindings.
    catalog: Option<&'a crate::Catalog>,
}

impl Layer<'_> {
    /// Writes every control of a layer into `ui`.
    fn add(&self, root: &Node, ui: &mut Map<String, Value>) {
        for control in root.controls() {
            let node = self.doc.resolve_scope(self.base, &control.pointer);
            let field = self.field_ui(control, node);
            let target = at_path(ui, &super::data_path(&control.pointer));
            target.extend(field);
        }
        let mut rows = Vec::new();
        collect_rows(root, &mut rows);
        for row in rows {
            let count = row.len();
            for (index, pointer) in row.into_iter().enumerate() {
                let target = at_path(ui, &super::data_path(pointer));
                target.insert("ui:style".into(), row_style(index, count));
                target.insert(
                    "ui:classNames".into(),
                    format!("genui-row genui-row-{count}").into(),
                );
            }
        }
    }

    fn field_ui(&self, control: &Control, node: Option<&Value>) -> Map<String, Value> {
        // RJSF draws alternatives itself, and a branch's `const` (a
        // discriminator) is set by its option selector.
        let own_widget = node.is_some_and(|n| {
            n.get("anyOf").is_some() || n.get("oneOf").is_some() || n.get("const").is_some()
        });
        let mut ui = field_ui(control, !own_widget);
        // An enum over the count limit (a `large_enum` warning): a text
        // input over RJSF's datalist of the schema's `examples` (the rjsf
        // copy lists the values there); the enum still validates.
        let choices = node
            .and_then(|n| self.doc.resolve(n).ok())
            .and_then(|v| v.kind().choices);
        if choices.is_some_and(|c| {
            c.len() > crate::terms::limits::Limits::default().max_enum_values
                && c.iter().all(|(v, _)| v.is_string())
        }) {
            ui.insert("ui:widget".into(), "text".into());
        }
        // A bound component: the `ui:widget` name the app registers, its props as `ui:options`.
        if let Some(entry) = control
            .component
            .as_deref()
            .zip(self.catalog)
            .and_then(|(name, cat)| cat.entry(name))
        {
            ui.insert("ui:widget".into(), entry.rjsf.widget.clone().into());
            if let Some(props) = entry.props_for(control.component_props.as_ref()) {
                ui.insert("ui:options".into(), Value::Object(props.clone()));
            }
        }
        if crate::plan::conditions::discriminator_choices(self.doc, self.base, &control.pointer)
            .is_some()
        {
            // RJSF's option selector chooses the branch and sets its const;
            // the const's own text input would only repeat it.
            ui.insert("ui:widget".into(), "hidden".into());
        }
        if let (Some(detail), Some(items)) = (
            &control.detail,
            node.and_then(|n| self.doc.resolve_scope(n, "/items")),
        ) {
            let mut item_ui = Map::new();
            Layer {
                doc: self.doc,
                base: items,
                catalog: self.catalog,
            }
            .add(detail, &mut item_ui);
            ui.insert("items".into(), Value::Object(item_ui));
        }
        if control.widget == Widget::Array {
            let items = ui
                .entry("items")
                .or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(items) = items {
                items
                    .entry("ui:title")
                    .or_insert_with(|| control.label.clone().into());
            }
        }
        ui
    }
}

/// The uiSchema object for a data path, created (with `ui:order` entries
/// along the way) as needed. The empty path is the root itself.
fn at_path<'u>(ui: &'u mut Map<String, Value>, path: &[String]) -> &'u mut Map<String, Value> {
    let mut target = ui;
    for name in path {
        push_order(target, name);
        let entry = target
            .entry(name.clone())
            .or_insert_with(|| Value::Object(Map::new()));
        if !entry.is_object() {
            *entry = Value::Object(Map::new());
        }
        target = entry.as_object_mut().expect("made an object above");
    }
    target
}

/// A group whose controls all sit under one object gets that object's
/// `ui:title` (semantic sections of a flat form have no object to name).
fn add_group_titles(node: &Node, ui: &mut Map<String, Value>) {
    let children: &[Node] = match node {
        Node::Vertical { elements } | Node::Horizontal { elements } => elements,
        Node::Group {
            label, elements, ..
        } => {
            let pointers: Vec<Vec<String>> = node
                .controls()
                .iter()
                .map(|c| super::data_path(&c.pointer))
                .collect();
            if let Some(object) = common_parent(&pointers) {
                at_path(ui, &object)
                    .entry("ui:title")
                    .or_insert_with(|| label.clone().into());
            }
            elements
        }
        Node::Steps { steps } => {
            steps
                .iter()
                .flat_map(|s| &s.elements)
                .for_each(|child| add_group_titles(child, ui));
            return;
        }
        Node::Control(_) | Node::Table(_) => return,
    };
    children
        .iter()
        .for_each(|child| add_group_titles(child, ui));
}

/// The pointers of each row's fields (rows hold controls only).
fn collect_rows<'n>(node: &'n Node, out: &mut Vec<Vec<&'n str>>) {
    match node {
        Node::Horizontal { elements } => {
            out.push(
                elements
                    .iter()
                    .flat_map(Node::controls)
                    .map(|c| c.pointer.as_str())
                    .collect(),
            );
        }
        Node::Vertical { elements } | Node::Group { elements, .. } => {
            elements.iter().for_each(|n| collect_rows(n, out))
        }
        Node::Steps { steps } => steps
            .iter()
            .flat_map(|s| &s.elements)
            .for_each(|n| collect_rows(n, out)),
        Node::Control(_) | Node::Table(_) => {}
    }
}

/// An equal share of the width, the gaps between fields included.
fn row_style(index: usize, count: usize) -> Value {
    let gap_em = (count - 1) as f64 / count as f64;
    let mut style = json!({
        "display": "inline-block",
        "verticalAlign": "top",
        "boxSizing": "border-box",
        "width": format!("calc({:.4}% - {gap_em:.3}em)", 100.0 / count as f64),
    });
    if index + 1 < count {
        style["marginRight"] = json!("1em");
    }
    style
}

/// The top-level sections of a flat form as `{label, fields}` (top-level
/// property names), in order: the root's groups whose fields do not all
/// sit under one object (such a group is that object's `ui:title`).
/// `None` when there are none.
fn section_hint(root: &Node) -> Option<Value> {
    let Node::Vertical { elements } = root else {
        return None;
    };
    let hint: Vec<Value> = elements
        .iter()
        .filter_map(|node| match node {
            Node::Group { label, .. } if !under_one_object(node) => {
                Some((label, top_level_fields(node)))
            }
            _ => None,
        })
        .filter(|(_, fields)| !fields.is_empty())
        .map(|(label, fields)| json!({"label": label, "fields": fields}))
        .collect();
    (!hint.is_empty()).then_some(Value::Array(hint))
}

/// Whether every control of a node sits under one object (whose
/// `ui:title` names the node; see [`add_group_titles`]).
fn under_one_object(node: &Node) -> bool {
    let paths: Vec<Vec<String>> = node
        .controls()
        .iter()
        .map(|c| super::data_path(&c.pointer))
        .collect();
    common_parent(&paths).is_some()
}

/// The top-level property names of a node's controls, each once, in order.
fn top_level_fields(node: &Node) -> Vec<String> {
    let mut fields: Vec<String> = Vec::new();
    for control in node.controls() {
        if let Some(first) = super::data_path(&control.pointer).into_iter().next() {
            if !fields.contains(&first) {
                fields.push(first);
            }
        }
    }
    fields
}

/// The wizard's steps as `{label, fields}` (top-level property names).
fn step_hint(root: &Node) -> Option<Value> {
    let Node::Vertical { elements } = root else {
        return None;
    };
    let steps = elements.iter().find_map(|n| match n {
        Node::Steps { steps } => Some(steps),
        _ => None,
    })?;
    let hint: Vec<Value> = steps
        .iter()
        .map(|step| {
            let mut fields: Vec<String> = Vec::new();
            for node in &step.elements {
                for control in node.controls() {
                    if let Some(first) = super::data_path(&control.pointer).into_iter().next() {
                        if !fields.contains(&first) {
                            fields.push(first);
                        }
                    }
                }
            }
            json!({"label": step.label, "fields": fields})
        })
        .collect();
    Some(Value::Array(hint))
}

fn common_parent(paths: &[Vec<String>]) -> Option<Vec<String>> {
    let first = paths.first()?;
    let mut len = first.len().saturating_sub(1);
    for path in paths {
        len = len.min(path.len().saturating_sub(1));
        len = first
            .iter()
            .zip(path)
            .take(len)
            .take_while(|(a, b)| a == b)
            .count();
    }
    (len > 0).then(|| first[..len].to_vec())
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

fn field_ui(control: &Control, may_set_widget: bool) -> Map<String, Value> {
    let mut ui = Map::new();
    ui.insert("ui:title".into(), control.label.clone().into());
    if let Some(widget) = widget_name(control.widget).filter(|_| may_set_widget) {
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
    ui
}

/// RJSF's built-in widget names where they differ from what RJSF picks by
/// itself from the type and `format` (the widget table's RJSF column);
/// `None` leaves RJSF's choice.
fn widget_name(widget: Widget) -> Option<&'static str> {
    widget.row().rjsf
}

/// react-jsonschema-form as a DGUI `dgui_form` (`format=rjsf`, or `dgui`).
pub(crate) struct Rjsf;

impl super::FormatCompiler for Rjsf {
    fn names(&self) -> &'static [&'static str] {
        &["rjsf", "dgui"]
    }

    fn format(&self) -> crate::Format {
        crate::Format::Rjsf
    }

    fn contract(&self) -> crate::Contract {
        crate::Contract::DguiForm
    }

    fn render(&self, r: &RenderInput<'_>, _: crate::Format) -> Value {
        render(r)
    }

    fn render_text(&self, r: &RenderInput<'_>, _: crate::Format) -> String {
        render_text(r)
    }
}
