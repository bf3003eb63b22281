//! The A2UI v0.9 projection: `{"messages": [createSurface,
//! updateComponents, updateDataModel]}`, A2UI's own
//! `server_to_client_list_wrapper` (vendored in `schemas/vendor/a2ui-v0.9/`),
//! built from the basic catalog only.
//!
//! The split matches ours: `updateComponents` is a pure function of the
//! cached plan and schema (no data), `updateDataModel` carries the request's
//! data. Provenance cannot travel in the messages (every envelope is
//! `additionalProperties: false`), so it goes in the `x-genui-*` headers.
//!
//! - Surface id: `genui-` + the request's `toolCallId` when it has one, else
//!   `genui-` + the first 16 hex digits of the `specHash`.
//! - Every input is bound to its data path (`/a/b`; inside a `List`
//!   template, relative to the item). Constraints of `output` become
//!   `checks` (`required`, `regex`, `length`, `numeric`, `email`), optional
//!   fields' checks wrapped as `or(not(required(v)), check)`. Required
//!   checks are mirrored on the submit `Button`, which the renderer keeps
//!   disabled until they pass.
//! - The submit `Button` fires the event [`SUBMIT_EVENT`] with the context
//!   `{specHash, toolCallId?, data: {"path": "/"}}`: the renderer resolves
//!   `data` to the whole data model, and `/v1/submit` finds the spec by hash.
//! - A2UI v0.9 has no visibility: fields that a rule would show or hide stay
//!   visible; a rule that makes a field required is a check
//!   `or(not(condition), required(v))`, when its condition is a `const`,
//!   `enum` or `required` test (others are left to `/v1/submit`).
//!
//! Renderers write some values in their own types (a `TextField` writes
//! strings, a single `ChoicePicker` writes `["x"]`); [`coerce`] turns them
//! back by the schema before `/v1/submit` validates.

use super::RenderInput as Rendered;
use crate::error::{Error, ErrorCode, Result};
use crate::plan::{Control, Effect, Node, Rule, Table, Widget};
use crate::pointer::escape;
use crate::request::limits::Limits;
use crate::schema::{FieldKind, Kind, Resolved, SchemaDoc};
use std::rc::Rc;
use serde_json::{json, Map, Value};
use std::collections::HashSet;

/// The protocol version every envelope names.
pub(crate) const VERSION: &str = "v0.9";
/// The basic catalog's `catalogId` (and `$id`).
pub(crate) const BASIC_CATALOG_ID: &str = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";
/// The event the submit (and approval) buttons fire.
pub(crate) const SUBMIT_EVENT: &str = "genui.submit";
/// The event an array's Add button fires; context `{array: "/path"}`.
pub(crate) const ADD_ITEM_EVENT: &str = "genui.addItem";
/// The event an item's Remove button fires; context `{array, item}`.
pub(crate) const REMOVE_ITEM_EVENT: &str = "genui.removeItem";

/// The whole answer: the list wrapper.
pub(crate) fn render(r: &Rendered<'_>) -> Value {
    let mut wrapper = Map::new();
    wrapper.insert("messages".into(), Value::Array(messages(r)));
    Value::Object(wrapper)
}

/// The three messages, in order.
pub(crate) fn messages(r: &Rendered<'_>) -> Vec<Value> {
    let surface = surface_id(&r.meta);
    let projection = Projection::of(r);
    let model = projection.data_model(&r.initial_data);
    // A projection too large for the memo is not shared: take it whole.
    let (mut components, actions) = match Rc::try_unwrap(projection) {
        Ok(projection) => (projection.components, projection.actions),
        Err(shared) => (shared.components.clone(), shared.actions.clone()),
    };
    if let Some(id) = r.meta.get("toolCallId") {
        add_tool_call_id(&mut components, &actions, id);
    }
    vec![
        envelope("createSurface", json!({"surfaceId": surface, "catalogId": BASIC_CATALOG_ID, "sendDataModel": true})),
        envelope("updateComponents", object([("surfaceId", surface.clone().into()), ("components", Value::Array(components))])),
        envelope("updateDataModel", object([("surfaceId", surface.into()), ("path", "/".into()), ("value", model)])),
    ]
}

/// Puts `toolCallId` second in each action button's context, after `specHash`.
fn add_tool_call_id(components: &mut [Value], actions: &[usize], id: &Value) {
    for &index in actions {
        let context = components.get_mut(index).and_then(|c| c.pointer_mut("/action/event/context")).and_then(Value::as_object_mut);
        if let Some(context) = context {
            context.shift_insert(1, "toolCallId".into(), id.clone());
        }
    }
}

/// The data-free part of an answer: the components, and how the data
/// model is adapted to them. It depends only on the spec and the texts the
/// worker writes, so an isolate builds it once per spec (the memo key holds
/// both) and each request only clones it, like JSON Forms' schema copy.
struct Projection {
    components: Vec<Value>,
    adapts: Vec<(Vec<Step>, Adapt)>,
    /// The buttons whose action context carries the request's `toolCallId`.
    actions: Vec<usize>,
}

impl Projection {
    fn of(r: &Rendered<'_>) -> Rc<Self> {
        // Every per-request input the builder reads besides the spec goes
        // into the key; `toolCallId` is added per request instead.
        let key = format!("{}\u{0}{}", r.spec.spec_hash, r.submit_label());
        crate::cache::memo::projection(&key, "a2ui", || Builder::new(r).build(r), Self::bytes)
    }

    fn bytes(&self) -> usize {
        self.components.iter().map(crate::cache::memo::value_bytes).sum::<usize>()
            + self.adapts.iter().map(|(steps, _)| 32 + steps.len() * 32).sum::<usize>()
    }

    /// The data model: the initial data, with values that a component
    /// edits as text written as that text.
    fn data_model(&self, data: &Value) -> Value {
        let mut model = if data.is_null() { Value::Object(Map::new()) } else { data.clone() };
        for (steps, how) in &self.adapts {
            apply(&mut model, steps, *how);
        }
        model
    }
}

/// The surface id: from the tool call when there is one, else from the
/// spec hash (so two answers for one call update the same surface).
pub(crate) fn surface_id(meta: &Map<String, Value>) -> String {
    match meta.get("toolCallId").and_then(Value::as_str) {
        Some(id) => format!("genui-{id}"),
        None => {
            let hash = meta.get("specHash").and_then(Value::as_str).unwrap_or_default();
            format!("genui-{}", hash.chars().take(16).collect::<String>())
        }
    }
}

/// The same messages one per line (`Accept: application/jsonl`, A2UI's
/// stream transport); `None` when `body` is not a list wrapper.
pub(crate) fn to_jsonl(body: &str) -> Option<String> {
    let value: Value = serde_json::from_str(body).ok()?;
    let messages = value.get("messages")?.as_array()?;
    Some(messages.iter().map(|m| format!("{m}\n")).collect())
}

/// Whether an `Accept` header asks for JSON Lines (`application/jsonl`).
pub(crate) fn wants_jsonl(accept: Option<&str>) -> bool {
    accept.is_some_and(|a| a.split(',').any(|t| t.trim().starts_with("application/jsonl")))
}

fn envelope(kind: &str, body: Value) -> Value {
    let mut out = Map::new();
    out.insert("version".into(), VERSION.into());
    out.insert(kind.into(), body);
    Value::Object(out)
}

/// Where a control's data path starts: the root, or an array item (the
/// `List` template's scope, where paths are relative).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Scope {
    Root,
    Item,
}

impl Scope {
    fn path(self, tokens: &[String]) -> String {
        let joined = tokens.iter().map(|t| escape(t)).collect::<Vec<_>>().join("/");
        match (self, joined.is_empty()) {
            (Scope::Root, true) => "/".to_owned(),
            (Scope::Root, false) => format!("/{joined}"),
            (Scope::Item, true) => ".".to_owned(),
            (Scope::Item, false) => joined,
        }
    }
}

/// How a value sits in the data model when the component edits it as text.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Adapt {
    /// A choice whose values are not strings: the value's JSON text.
    Choice,
    /// A multiple choice of non-string values: each value's JSON text.
    Choices,
    /// A list of scalars edited one per line.
    Lines,
    /// A value edited as JSON text.
    Json,
    /// A boolean the form has no value for: `false`, so that a CheckBox
    /// left alone still submits its value.
    False,
    /// A text the form has no value for: `""`. The basic catalog's check
    /// functions reject an absent value outright (`length`, `regex`,
    /// `numeric` and `email` require `value`), so an empty optional field
    /// would block the submit button; [`coerce`] drops the `""` again.
    Empty,
    /// A multiple choice the form has no value for: `[]` (as for `Empty`).
    NoItems,
}

/// Whether a field must be filled: always (its `required` check), or only
/// under a rule's condition (its check, when the condition is expressible).
enum Required {
    Always(Value),
    When(Option<Value>),
}

/// One step of a data path for [`Adapt`]: a key, or every array item.
#[derive(Debug, Clone, PartialEq)]
enum Step {
    Key(String),
    Each,
}

struct Builder<'s> {
    doc: SchemaDoc<'s>,
    components: Vec<Value>,
    used: HashSet<String>,
    /// Checks mirrored on the submit button (root-scope fields only).
    submit_checks: Vec<Value>,
    adapts: Vec<(Vec<Step>, Adapt)>,
    /// The data path of the enclosing arrays, for [`Builder::adapts`].
    prefix: Vec<Step>,
    /// Indices of the submit and decision buttons.
    actions: Vec<usize>,
}

impl<'s> Builder<'s> {
    fn new(r: &Rendered<'s>) -> Self {
        Self {
            doc: SchemaDoc::new(&r.spec.schema, &Limits::default()),
            components: Vec::new(),
            used: HashSet::new(),
            submit_checks: Vec::new(),
            adapts: Vec::new(),
            prefix: Vec::new(),
            actions: Vec::new(),
        }
    }

    /// A fresh component id from a readable hint.
    fn id(&mut self, hint: &str) -> String {
        let mut id = hint.to_owned();
        let mut n = 1;
        while !self.used.insert(id.clone()) {
            n += 1;
            id = format!("{hint}~{n}");
        }
        id
    }

    fn push(&mut self, id: &str, component: &str, mut props: Map<String, Value>) -> String {
        props.insert("id".into(), id.into());
        props.insert("component".into(), component.into());
        self.components.push(Value::Object(props));
        id.to_owned()
    }

    fn text(&mut self, hint: &str, text: &str, variant: Option<&str>) -> String {
        let id = self.id(hint);
        let mut props = Map::new();
        props.insert("text".into(), text.into());
        if let Some(variant) = variant {
            props.insert("variant".into(), variant.into());
        }
        self.push(&id, "Text", props)
    }

    fn column(&mut self, hint: &str, children: Vec<String>) -> String {
        let id = self.id(hint);
        self.push(&id, "Column", props([("children", ids(children))]))
    }

    /// The root column: title, prompt, body, then the submit or decision
    /// buttons (a display has none).
    fn surface(&mut self, r: &Rendered<'s>) {
        self.used.insert("root".into());
        let mut children = vec![self.text("title", &r.title(), Some("h2"))];
        let approval = r.approval();
        if let Some(prompt) = &approval {
            children.push(self.text("prompt", &prompt.text(), None));
        } else if !r.spec.description.is_empty() && r.spec.plan.title.as_deref() != Some(r.spec.description.as_str()) {
            children.push(self.text("description", &r.spec.description, Some("caption")));
        }
        let schema = &r.spec.schema;
        let body = self.node(schema, &r.spec.plan.root, Scope::Root, None);
        children.extend(body);
        let mut context = Map::new();
        context.insert("specHash".into(), r.spec.spec_hash.clone().into());
        context.insert("data".into(), json!({"path": "/"}));
        match approval {
            _ if r.spec.plan.is_display() => {}
            Some(prompt) => {
                let field = Scope::Root.path(&super::data_path(&prompt.pointer));
                let mut buttons = Vec::new();
                for (label, value, variant) in [("Approve", &prompt.approve, "primary"), ("Reject", &prompt.reject, "default")] {
                    let mut context = context.clone();
                    context.insert("decisionPath".into(), field.clone().into());
                    // A context value is a DynamicValue: no null, no object.
                    context.insert("decision".into(), dynamic_literal(value));
                    buttons.push(self.button(&label.to_lowercase(), label, variant, context, Vec::new()));
                }
                let row = self.id("decision");
                children.push(self.push(&row, "Row", props([("children", ids(buttons))])));
            }
            None => {
                let checks = std::mem::take(&mut self.submit_checks);
                children.push(self.button("submit", r.submit_label(), "primary", context, checks));
            }
        }
        let mut root = props([("children", ids(children))]);
        root.insert("align".into(), "stretch".into());
        self.push("root", "Column", root);
    }

    fn button(&mut self, hint: &str, label: &str, variant: &str, context: Map<String, Value>, checks: Vec<Value>) -> String {
        let text = self.text(&format!("{hint}-label"), label, None);
        let id = self.id(hint);
        let mut p = props([("child", text.into()), ("variant", variant.into())]);
        p.insert("action".into(), event(SUBMIT_EVENT, Value::Object(context)));
        if !checks.is_empty() {
            p.insert("checks".into(), Value::Array(checks));
        }
        self.actions.push(self.components.len());
        self.push(&id, "Button", p)
    }

    /// The components of a plan node; `rule` is the enclosing section's.
    fn node(&mut self, base: &'s Value, node: &Node, scope: Scope, rule: Option<&Rule>) -> Vec<String> {
        match node {
            Node::Vertical { elements } => self.nodes(base, elements, scope, rule),
            Node::Horizontal { elements } => {
                let children = self.nodes(base, elements, scope, rule);
                let id = self.id("row");
                let mut p = props([("children", ids(children))]);
                p.insert("align".into(), "start".into());
                vec![self.push(&id, "Row", p)]
            }
            Node::Group { label, elements, rule: own } => {
                let heading = self.text("heading", label, Some("h3"));
                let mut children = vec![heading];
                children.extend(self.nodes(base, elements, scope, own.as_ref().or(rule)));
                let column = self.column("section", children);
                let id = self.id("card");
                vec![self.push(&id, "Card", props([("child", column.into())]))]
            }
            Node::Steps { steps } => {
                let mut tabs = Vec::new();
                for step in steps {
                    let children = self.nodes(base, &step.elements, scope, rule);
                    let child = self.column("step", children);
                    tabs.push(object([("title", step.label.clone().into()), ("child", child.into())]));
                }
                if tabs.is_empty() {
                    return Vec::new();
                }
                let id = self.id("steps");
                vec![self.push(&id, "Tabs", props([("tabs", Value::Array(tabs))]))]
            }
            Node::Control(control) => self.control(base, control, scope, rule).into_iter().collect(),
            Node::Table(t) => self.table(t),
        }
    }

    fn nodes(&mut self, base: &'s Value, nodes: &[Node], scope: Scope, rule: Option<&Rule>) -> Vec<String> {
        nodes.iter().flat_map(|n| self.node(base, n, scope, rule)).collect()
    }

    /// A display table: a header row of labels and a `List` whose template
    /// row binds each column relative to the record; the chart, which the
    /// basic catalog cannot draw, is named in a caption.
    fn table(&mut self, t: &Table) -> Vec<String> {
        let dataset = &t.dataset;
        let heading = self.text("table-title", &dataset.title, Some("h3"));
        let labels: Vec<String> = dataset.columns.iter().map(|c| c.label.clone()).collect();
        let header_cells: Vec<String> = labels.iter().map(|l| self.text("th", l, Some("caption"))).collect();
        let header_id = self.id("table-header");
        let header = self.push(&header_id, "Row", props([("children", ids(header_cells))]));
        let cells: Vec<String> = dataset
            .columns
            .iter()
            .map(|c| {
                let id = self.id("td");
                let path = if dataset.shape == crate::plan::data::Shape::Numbers { ".".to_owned() } else { escape(&c.key) };
                self.push(&id, "Text", props([("text", bound(&path))]))
            })
            .collect();
        let row_id = self.id("table-row");
        let row = self.push(&row_id, "Row", props([("children", ids(cells))]));
        let list_id = self.id("table");
        let path = if dataset.data_pointer.is_empty() { "/".to_owned() } else { dataset.data_pointer.clone() };
        let list = self.push(&list_id, "List", props([("children", object([("componentId", row.into()), ("path", path.into())]))]));
        let mut out = vec![heading, header, list];
        if dataset.chart.is_some() {
            let text = format!("Chart \"{}\": not drawn (the A2UI basic catalog has no chart); its data is the table above.", dataset.title);
            out.push(self.text("chart", &text, Some("caption")));
        }
        out
    }

    /// One input (or a read-only text), its checks, and its help caption.
    fn control(&mut self, base: &'s Value, c: &Control, scope: Scope, inherited: Option<&Rule>) -> Option<String> {
        if c.widget == Widget::Approval {
            return None; // the decision buttons stand in for it
        }
        let tokens = super::data_path(&c.pointer);
        let path = scope.path(&tokens);
        let node = self.doc.resolve_scope(base, &c.pointer);
        let view = node.and_then(|n| self.doc.resolve(n).ok()).unwrap_or_default();
        let kind = crate::plan::conditions::control_kind(&self.doc, base, &c.pointer, &view);
        let hint = format!("field:{path}");
        let input = if c.read_only {
            self.read_only(&hint, c, &path)
        } else {
            let rule = c.rule.as_ref().or(inherited);
            // A conditional requirement leaves the field optional for its
            // other checks: they must pass on an empty field.
            let required = match rule {
                Some(rule) if matches!(rule.effect, Effect::Show | Effect::Hide) => {
                    Required::When(self.conditional_required(base, c, rule, scope, &path))
                }
                _ if self.is_required(base, &c.pointer) => Required::Always(call("required", object([("value", bound(&path))]))),
                _ => Required::When(None),
            };
            self.input(&hint, c, &tokens, &path, &view, &kind, node, required, scope)
        };
        let Some(help) = &c.help else { return Some(input) };
        let caption = self.text(&format!("{hint}-help"), help, Some("caption"));
        Some(self.column(&format!("{hint}-group"), vec![input, caption]))
    }

    /// A read-only field: its label and its value as text (the basic
    /// catalog's inputs cannot be made read-only).
    fn read_only(&mut self, hint: &str, c: &Control, path: &str) -> String {
        let label = self.text(&format!("{hint}-label"), &c.label, Some("caption"));
        let id = self.id(hint);
        let value = self.push(&id, "Text", props([("text", bound(path))]));
        self.column(&format!("{hint}-group"), vec![label, value])
    }

    #[allow(clippy::too_many_arguments)]
    fn input(&mut self, hint: &str, c: &Control, tokens: &[String], path: &str, view: &Resolved<'s>, kind: &FieldKind, node: Option<&'s Value>, required: Required, scope: Scope) -> String {
        let binding = bound(path);
        let mut p = props([("label", c.label.clone().into())]);
        let mut checks = Vec::new();
        let (optional, required) = match required {
            Required::Always(check) => (false, Some(check)),
            Required::When(check) => (true, check),
        };
        let guard = |check: Value| if optional { call("or", object([("values", Value::Array(vec![call("not", object([("value", call("required", object([("value", bound(path))])))])), check]))])) } else { check };
        let component = match c.widget {
            Widget::Checkbox => {
                self.adapt(tokens, Adapt::False);
                p.insert("value".into(), binding);
                "CheckBox"
            }
            Widget::Select | Widget::Radio if kind.choices.is_some() => {
                let choices = kind.choices.as_deref().unwrap_or_default();
                if choices.iter().any(|(v, _)| !v.is_string()) {
                    self.adapt(tokens, Adapt::Choice);
                }
                p.insert("options".into(), options(choices));
                p.insert("value".into(), binding);
                p.insert("variant".into(), "mutuallyExclusive".into());
                // An enum over the count limit (a `large_enum` warning):
                // the basic catalog's search box over the options.
                if choices.len() > Limits::default().max_enum_values {
                    p.insert("filterable".into(), true.into());
                }
                "ChoicePicker"
            }
            Widget::MultiSelect => {
                let items = node.and_then(|n| self.doc.resolve_scope(n, "/items")).and_then(|n| self.doc.resolve(n).ok());
                let choices = items.as_ref().and_then(|i| i.kind().choices).unwrap_or_default();
                if choices.iter().any(|(v, _)| !v.is_string()) {
                    self.adapt(tokens, Adapt::Choices);
                }
                self.adapt(tokens, Adapt::NoItems);
                p.insert("options".into(), options(&choices));
                p.insert("value".into(), binding);
                p.insert("variant".into(), "multipleSelection".into());
                let (min, max) = (count(view.get("minItems")), count(view.get("maxItems")));
                if min.is_some() || max.is_some() {
                    checks.push(check(guard(length(path, min, max)), &format!("{}: choose {}", c.label, bounds_text(min, max))));
                }
                "ChoicePicker"
            }
            Widget::Date | Widget::DateTime | Widget::Time => {
                p.insert("value".into(), binding);
                p.insert("enableDate".into(), (c.widget != Widget::Time).into());
                p.insert("enableTime".into(), (c.widget != Widget::Date).into());
                "DateTimeInput"
            }
            Widget::Slider if number(view.get("maximum")).is_some() => {
                p.insert("value".into(), binding);
                p.insert("min".into(), number(view.get("minimum")).unwrap_or(0.0).into());
                p.insert("max".into(), number(view.get("maximum")).unwrap_or_default().into());
                "Slider"
            }
            Widget::Array if c.detail.is_some() && node.is_some() => {
                return self.list(hint, c, tokens, path, node, scope);
            }
            _ => {
                self.text_field(c, tokens, view, kind, path, &mut p, &mut checks, &guard);
                "TextField"
            }
        };
        if let Some(required) = required {
            checks.insert(0, check(required, &format!("{} is required", c.label)));
        }
        if scope == Scope::Root {
            self.submit_checks.extend(checks.iter().cloned());
        }
        if !checks.is_empty() {
            p.insert("checks".into(), Value::Array(checks));
        }
        let id = self.id(hint);
        self.push(&id, component, p)
    }

    /// A `TextField` and its variant and checks.
    #[allow(clippy::too_many_arguments)]
    fn text_field(&mut self, c: &Control, tokens: &[String], view: &Resolved<'s>, kind: &FieldKind, path: &str, p: &mut Map<String, Value>, checks: &mut Vec<Value>, guard: &dyn Fn(Value) -> Value) {
        p.insert("value".into(), bound(path));
        self.adapt(tokens, Adapt::Empty);
        let label = &c.label;
        let variant = match (c.widget, kind.kind) {
            (Widget::Number | Widget::Integer | Widget::Slider, _) | (_, Kind::Number | Kind::Integer) => {
                let (min, max) = (number(view.get("minimum")), number(view.get("maximum")));
                if min.is_some() || max.is_some() {
                    checks.push(check(guard(numeric(path, min, max)), &format!("{label}: a number {}", bounds_text(min, max))));
                }
                let pattern = if kind.kind == Kind::Integer { r"^\s*-?\d+\s*$" } else { r"^\s*-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$" };
                let what = if kind.kind == Kind::Integer { "a whole number" } else { "a number" };
                checks.push(check(guard(regex(path, pattern)), &format!("{label}: enter {what}")));
                "number"
            }
            // A list of scalars is typed one per line; a list of anything
            // else (objects past the recursion cut-off) as JSON, below.
            (Widget::Array, _) if scalar_items(&self.doc, view) => {
                self.adapt(tokens, Adapt::Lines);
                p.insert("label".into(), format!("{label} (one per line)").into());
                "longText"
            }
            // An external `$ref` (schema/external.rs) is any JSON: typed as JSON too.
            (Widget::Alternatives | Widget::Object | Widget::Array, _) | (_, Kind::Object | Kind::Array | Kind::Alternatives) | (Widget::Textarea, Kind::Any) => {
                self.adapt(tokens, Adapt::Json);
                p.insert("label".into(), format!("{label} (JSON)").into());
                "longText"
            }
            (Widget::Textarea, _) => "longText",
            _ if kind.format.as_deref() == Some("password") || view.get("writeOnly") == Some(&Value::Bool(true)) => "obscured",
            _ => "shortText",
        };
        p.insert("variant".into(), variant.into());
        if kind.kind == Kind::String {
            let (min, max) = (count(view.get("minLength")), count(view.get("maxLength")));
            if min.is_some() || max.is_some() {
                checks.push(check(guard(length(path, min, max)), &format!("{label}: {} characters", bounds_text(min, max))));
            }
            if let Some(pattern) = view.str("pattern") {
                checks.push(check(guard(regex(path, pattern)), &format!("{label} does not have the expected form")));
            }
            if c.widget == Widget::Email || kind.format.as_deref() == Some("email") {
                checks.push(check(guard(call("email", object([("value", bound(path))]))), &format!("{label}: enter an e-mail address")));
            }
        }
    }

    /// An array of objects: a `List` whose template is the item's layout
    /// (paths relative to the item) with a Remove button, and an Add button.
    /// Both fire events the host applies to its data model: the basic
    /// catalog has no function that changes data.
    fn list(&mut self, hint: &str, c: &Control, tokens: &[String], path: &str, node: Option<&'s Value>, scope: Scope) -> String {
        let items = node.and_then(|n| self.doc.resolve_scope(n, "/items"));
        let heading = self.text(&format!("{hint}-label"), &c.label, Some("h4"));
        let mut children = vec![heading];
        if let (Some(detail), Some(items)) = (&c.detail, items) {
            let saved = self.prefix.len();
            self.prefix.extend(tokens.iter().map(|t| Step::Key(t.clone())));
            self.prefix.push(Step::Each);
            let mut fields = self.node(items, detail, Scope::Item, None);
            self.prefix.truncate(saved);
            let remove_text = self.text(&format!("{hint}-remove-label"), "Remove", None);
            let remove = self.id(&format!("{hint}-remove"));
            let absolute = if scope == Scope::Root { path.to_owned() } else { String::new() };
            let context = object([("array", absolute.clone().into()), ("item", bound("."))]);
            let mut p = props([("child", remove_text.into()), ("variant", "borderless".into())]);
            p.insert("action".into(), event(REMOVE_ITEM_EVENT, context));
            fields.push(self.push(&remove, "Button", p));
            let template = self.column(&format!("{hint}-item"), fields);
            let card = self.id(&format!("{hint}-card"));
            let card = self.push(&card, "Card", props([("child", template.into())]));
            let list = self.id(hint);
            children.push(self.push(&list, "List", props([("children", object([("componentId", card.into()), ("path", path.into())]))])));
            let add_text = self.text(&format!("{hint}-add-label"), &format!("Add {}", c.label), None);
            let add = self.id(&format!("{hint}-add"));
            let mut p = props([("child", add_text.into()), ("variant", "default".into())]);
            p.insert("action".into(), event(ADD_ITEM_EVENT, object([("array", absolute.into())])));
            children.push(self.push(&add, "Button", p));
        }
        self.column(&format!("{hint}-group"), children)
    }

    fn adapt(&mut self, tokens: &[String], how: Adapt) {
        let mut steps = self.prefix.clone();
        steps.extend(tokens.iter().map(|t| Step::Key(t.clone())));
        self.adapts.push((steps, how));
    }

    fn is_required(&self, base: &'s Value, pointer: &str) -> bool {
        let Some((parent, name)) = pointer.rsplit_once("/properties/") else { return false };
        let parent = self.doc.resolve_scope(base, parent);
        parent.is_some_and(|p| self.doc.node_requires(p, &crate::pointer::unescape(name)))
    }

    /// A field under a show/hide rule: required when the rule's branch
    /// requires it and the condition holds, if the condition is expressible.
    fn conditional_required(&self, base: &'s Value, c: &Control, rule: &Rule, scope: Scope, path: &str) -> Option<Value> {
        let (parent, name) = c.pointer.rsplit_once("/properties/")?;
        let parent = self.doc.resolve_scope(base, parent)?;
        if !branch_requires(&self.doc, parent, &crate::pointer::unescape(name), 0, true) {
            return None;
        }
        let holds = condition(&rule.schema, &super::data_path(&rule.pointer), scope)?;
        let shown = if rule.effect == Effect::Show { holds } else { call("not", object([("value", holds)])) };
        let hidden = call("not", object([("value", shown)]));
        Some(call("or", object([("values", Value::Array(vec![hidden, call("required", object([("value", bound(path))]))]))])))
    }

    /// The surface's components, adaptations and action buttons.
    fn build(mut self, r: &Rendered<'s>) -> Projection {
        self.surface(r);
        Projection { components: self.components, adapts: self.adapts, actions: self.actions }
    }
}

/// Whether an array's items are strings, numbers or booleans (typed one per
/// line); unknown items count as text.
fn scalar_items(doc: &SchemaDoc<'_>, view: &Resolved<'_>) -> bool {
    let items = view.get("items").and_then(|i| doc.resolve(i).ok());
    items.is_none_or(|i| matches!(i.kind().kind, Kind::String | Kind::Number | Kind::Integer | Kind::Boolean | Kind::Any))
}

fn apply(value: &mut Value, steps: &[Step], how: Adapt) {
    match steps.split_first() {
        Some((Step::Each, rest)) => {
            if let Value::Array(items) = value {
                items.iter_mut().for_each(|item| apply(item, rest, how));
            }
        }
        Some((Step::Key(key), [])) => {
            let Value::Object(map) = value else { return };
            match (how, map.get_mut(key)) {
                (Adapt::False, None) => {
                    map.insert(key.clone(), false.into());
                }
                (Adapt::Empty, None) => {
                    map.insert(key.clone(), "".into());
                }
                (Adapt::NoItems, None) => {
                    map.insert(key.clone(), Value::Array(Vec::new()));
                }
                (_, Some(slot)) => *slot = adapted(slot, how),
                (_, None) => {}
            }
        }
        Some((Step::Key(key), rest)) => {
            // A seed also needs the objects above it (so that a check's
            // path resolves to the seeded value).
            let seeds = matches!(how, Adapt::False | Adapt::Empty | Adapt::NoItems) && !matches!(rest.first(), Some(Step::Each));
            if let Value::Object(map) = value {
                if seeds && !map.contains_key(key) {
                    map.insert(key.clone(), Value::Object(Map::new()));
                }
            }
            if let Some(next) = value.get_mut(key.as_str()) {
                apply(next, rest, how);
            }
        }
        None => *value = adapted(value, how),
    }
}

fn adapted(value: &Value, how: Adapt) -> Value {
    match (how, value) {
        (Adapt::Choice, v) if !v.is_string() && !v.is_null() => value_text(v).into(),
        (Adapt::Choices, Value::Array(items)) => Value::Array(items.iter().map(|v| Value::String(value_text(v))).collect()),
        (Adapt::Lines, Value::Array(items)) => items.iter().map(value_text).collect::<Vec<_>>().join("\n").into(),
        (Adapt::Json, v) if !v.is_string() && !v.is_null() => v.to_string().into(),
        _ => value.clone(),
    }
}

/// Whether `name` is listed in a `required` of a conditional branch of an
/// object schema (`then`, `else`, `allOf`, `oneOf`, `anyOf`, dependencies),
/// not in its own top-level `required`.
fn branch_requires(doc: &SchemaDoc<'_>, node: &Value, name: &str, depth: usize, top: bool) -> bool {
    let Value::Object(map) = node else { return false };
    if depth > 8 {
        return false;
    }
    let lists = |v: &Value| v.as_array().is_some_and(|a| a.iter().any(|n| n.as_str() == Some(name)));
    if !top && map.get("required").is_some_and(lists) {
        return true;
    }
    if let Some(target) = map.get("$ref").and_then(Value::as_str).and_then(|r| doc.lookup(r)) {
        if branch_requires(doc, target, name, depth + 1, top) {
            return true;
        }
    }
    let branches = ["then", "else"].iter().filter_map(|k| map.get(*k));
    let listed = ["allOf", "oneOf", "anyOf"].iter().filter_map(|k| map.get(*k)?.as_array()).flatten();
    let dependent = ["dependentRequired", "dependentSchemas", "dependencies"].iter().filter_map(|k| map.get(*k)?.as_object()).flat_map(|m| m.values());
    let mut all = branches.chain(listed).chain(dependent);
    all.any(|b| lists(b) || branch_requires(doc, b, name, depth + 1, false))
}

/// A rule's condition as an A2UI boolean call, for the shapes v0.9's
/// functions can test: `const`, `enum` (as an anchored `regex`), `required`,
/// `not`, and an object's `properties` of those.
fn condition(schema: &Value, at: &[String], scope: Scope) -> Option<Value> {
    let Value::Object(map) = schema else { return None };
    let path = scope.path(at);
    let mut parts = Vec::new();
    for (key, value) in map {
        match key.as_str() {
            "const" => parts.push(regex(&path, &alternatives(std::slice::from_ref(value))?)),
            "enum" => parts.push(regex(&path, &alternatives(value.as_array()?)?)),
            "not" => parts.push(call("not", object([("value", condition(value, at, scope)?)]))),
            "required" => {
                for name in value.as_array()? {
                    let mut field = at.to_vec();
                    field.push(name.as_str()?.to_owned());
                    parts.push(call("required", object([("value", bound(&scope.path(&field)))])));
                }
            }
            "properties" => {
                for (name, sub) in value.as_object()? {
                    let mut field = at.to_vec();
                    field.push(name.clone());
                    parts.push(condition(sub, &field, scope)?);
                }
            }
            "type" | "title" | "description" | "$comment" => {}
            _ => return None,
        }
    }
    match parts.len() {
        0 => None,
        1 => parts.pop(),
        _ => Some(call("and", object([("values", Value::Array(parts))]))),
    }
}

/// `^(a|b)$` over the values' text, regex-escaped; scalars only.
fn alternatives(values: &[Value]) -> Option<String> {
    let texts: Option<Vec<String>> = values
        .iter()
        .map(|v| match v {
            Value::String(_) | Value::Number(_) | Value::Bool(_) => Some(regex_escape(&value_text(v))),
            _ => None,
        })
        .collect();
    let texts = texts.filter(|t| !t.is_empty())?;
    Some(format!("^({})$", texts.join("|")))
}

fn regex_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        if r"\^$.|?*+()[]{}/".contains(ch) {
            out.push('\\');
        }
        out.push(ch);
    }
    out
}

/// A value as the string a component shows and writes.
fn value_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A literal allowed as an action context value (no null, no object).
fn dynamic_literal(value: &Value) -> Value {
    match value {
        Value::Null | Value::Object(_) => value.to_string().into(),
        other => other.clone(),
    }
}

fn options(choices: &[(Value, Option<String>)]) -> Value {
    let list = choices.iter().map(|(value, title)| {
        let text = value_text(value);
        object([("label", title.clone().unwrap_or_else(|| text.clone()).into()), ("value", text.into())])
    });
    Value::Array(list.collect())
}

fn props<const N: usize>(pairs: [(&str, Value); N]) -> Map<String, Value> {
    pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
}

/// A JSON object from owned values. `json!` would copy every embedded
/// `Value` through the serializer, which made this projection 17x slower
/// than JSON Forms.
fn object<const N: usize>(pairs: [(&str, Value); N]) -> Value {
    Value::Object(props(pairs))
}

/// A data binding, `{"path": ...}`.
fn bound(path: &str) -> Value {
    object([("path", path.into())])
}

/// A list of component ids.
fn ids(children: Vec<String>) -> Value {
    Value::Array(children.into_iter().map(Value::String).collect())
}

/// A button's action: an event with its context.
fn event(name: &str, context: Value) -> Value {
    object([("event", object([("name", name.into()), ("context", context)]))])
}

fn call(name: &str, args: Value) -> Value {
    object([("call", name.into()), ("args", args)])
}

fn check(condition: Value, message: &str) -> Value {
    object([("condition", condition), ("message", message.into())])
}

fn regex(path: &str, pattern: &str) -> Value {
    // A renderer may compile with `u`: an Annex B pattern goes escaped.
    let escaped = crate::schema::annex_b_escaped(pattern);
    call("regex", object([("value", bound(path)), ("pattern", escaped.as_deref().unwrap_or(pattern).into())]))
}

fn length(path: &str, min: Option<u64>, max: Option<u64>) -> Value {
    let mut args = props([("value", bound(path))]);
    min.map(|m| args.insert("min".into(), m.into()));
    max.map(|m| args.insert("max".into(), m.into()));
    call("length", Value::Object(args))
}

fn numeric(path: &str, min: Option<f64>, max: Option<f64>) -> Value {
    let mut args = props([("value", bound(path))]);
    min.map(|m| args.insert("min".into(), m.into()));
    max.map(|m| args.insert("max".into(), m.into()));
    call("numeric", Value::Object(args))
}

fn number(value: Option<&Value>) -> Option<f64> {
    value?.as_f64().filter(|n| n.is_finite())
}

fn count(value: Option<&Value>) -> Option<u64> {
    value?.as_u64()
}

fn bounds_text<T: std::fmt::Display>(min: Option<T>, max: Option<T>) -> String {
    match (min, max) {
        (Some(min), Some(max)) => format!("from {min} to {max}"),
        (Some(min), None) => format!("at least {min}"),
        (None, Some(max)) => format!("at most {max}"),
        (None, None) => String::new(),
    }
}

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
pub(crate) fn read_client_message(body: &Map<String, Value>, data_model: Option<&Value>) -> Result<Option<ClientSubmission>> {
    if body.contains_key("userAction") && !body.contains_key("action") && !body.contains_key("error") {
        return read_user_action(body, data_model).map(Some);
    }
    if !body.contains_key("action") && !body.contains_key("error") {
        return Ok(None);
    }
    if let Some(key) = body.keys().find(|k| !matches!(k.as_str(), "version" | "action" | "error" | "metadata")) {
        return Err(bad(&format!("/{}", escape(key)), "an A2UI client message is exactly {version, action} or {version, error} (plus `metadata` for the data model)"));
    }
    match body.get("version") {
        Some(Value::String(v)) if v == VERSION => {}
        Some(other) => return Err(bad("/version", &format!("`version` must be \"{VERSION}\", not {other}"))),
        None => return Err(bad("/version", &format!("an A2UI client message needs `version: \"{VERSION}\"`"))),
    }
    match (body.get("action"), body.get("error")) {
        (Some(_), Some(_)) => Err(bad("", "an A2UI client message carries `action` or `error`, not both")),
        (None, Some(error)) => Err(client_error(error)),
        (Some(Value::Object(action)), None) => read_action(body, action, "action", data_model).map(Some),
        (Some(_), None) | (None, None) => Err(bad("/action", "`action` must be an object")),
    }
}

/// CopilotKit's shape: `@copilotkit/a2ui-renderer` hands its host
/// `{userAction}` (the v0.8 wrapper) for a v0.9 surface's action, and
/// CopilotKit forwards it as is, so it is read like `{version, action}`.
fn read_user_action(body: &Map<String, Value>, data_model: Option<&Value>) -> Result<ClientSubmission> {
    if let Some(key) = body.keys().find(|k| !matches!(k.as_str(), "userAction" | "metadata")) {
        return Err(bad(&format!("/{}", escape(key)), "a CopilotKit A2UI action is exactly {userAction} (plus `metadata` for the data model)"));
    }
    match body.get("userAction") {
        Some(Value::Object(action)) => read_action(body, action, "userAction", data_model),
        _ => Err(bad("/userAction", "`userAction` must be an object")),
    }
}

/// The submission an action carries; `key` is where it sits in the body
/// (`action` or `userAction`), for the pointers of its errors.
fn read_action(body: &Map<String, Value>, action: &Map<String, Value>, key: &str, data_model: Option<&Value>) -> Result<ClientSubmission> {
    let at = |field: &str| format!("/{key}/{field}");
    let text = |field: &str| match action.get(field) {
        Some(Value::String(s)) if !s.is_empty() => Ok(s.as_str()),
        _ => Err(bad(&at(field), &format!("`{key}.{field}` must be a non-empty string"))),
    };
    let (name, surface, _source, timestamp) = (text("name")?, text("surfaceId")?, text("sourceComponentId")?, text("timestamp")?);
    if !looks_like_date_time(timestamp) {
        return Err(bad(&at("timestamp"), &format!("`{key}.timestamp` must be an ISO 8601 date-time")));
    }
    let Some(Value::Object(context)) = action.get("context") else {
        return Err(bad(&at("context"), &format!("`{key}.context` must be an object")));
    };
    if context.len() > MAX_CONTEXT_KEYS {
        return Err(bad(&at("context"), &format!("`{key}.context` has {} keys; a submit button's context has at most {MAX_CONTEXT_KEYS}", context.len())));
    }
    if name != SUBMIT_EVENT {
        return Err(bad(&at("name"), &format!("the action `{name}` is not a submission: only `{SUBMIT_EVENT}` is ({ADD_ITEM_EVENT} and {REMOVE_ITEM_EVENT} are for the host to apply)")));
    }
    let spec_hash = match context.get("specHash") {
        Some(Value::String(h)) if h.len() == 64 && h.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)) => h.clone(),
        _ => return Err(bad(&at("context/specHash"), &format!("`{key}.context.specHash` must be the 64 hex digits the submit button carries"))),
    };
    let tool_call_id = match context.get("toolCallId") {
        None => None,
        Some(Value::String(id)) => Some(id.clone()),
        Some(_) => return Err(bad(&at("context/toolCallId"), &format!("`{key}.context.toolCallId` must be a string"))),
    };
    let mut meta = Map::new();
    meta.insert("specHash".into(), spec_hash.clone().into());
    if let Some(id) = &tool_call_id {
        meta.insert("toolCallId".into(), id.clone().into());
    }
    if surface != surface_id(&meta) {
        return Err(Error::new(ErrorCode::SpecNotFound, format!("surface `{surface}` was not made for this spec (its surface is `{}`)", surface_id(&meta)))
            .at(&at("surfaceId")));
    }
    let mut data = match context.get("data") {
        Some(data) => data.clone(),
        None => model_data(body.get("metadata"), data_model, surface)?,
    };
    if let Some(path) = context.get("decisionPath") {
        let (Some(path), Some(decision)) = (path.as_str(), context.get("decision")) else {
            return Err(bad(&at("context/decisionPath"), "an approval's context has a `decisionPath` string and its `decision`"));
        };
        set_path(&mut data, path, decision.clone()).ok_or_else(|| bad(&at("context/decisionPath"), "`decisionPath` must be a JSON Pointer into an object"))?;
    }
    Ok(ClientSubmission { spec_hash, tool_call_id, data })
}

/// The surface's data from an `a2uiClientDataModel`
/// (`{version, surfaces: {<surfaceId>: data}}`).
fn model_data(metadata: Option<&Value>, header: Option<&Value>, surface: &str) -> Result<Value> {
    let (model, at) = match (metadata.and_then(|m| m.get("a2uiClientDataModel")), header) {
        (Some(model), _) => (model, "/metadata/a2uiClientDataModel"),
        (None, Some(model)) => (model, "a2ui-client-data-model"),
        (None, None) => {
            return Err(bad("/action/context/data", "no data: the submit button's context resolves `data`, or send the data model as `metadata.a2uiClientDataModel`"));
        }
    };
    if model.get("version").and_then(Value::as_str) != Some(VERSION) {
        return Err(bad(&format!("{at}/version"), &format!("the client data model's `version` must be \"{VERSION}\"")));
    }
    let Some(surfaces) = model.get("surfaces").and_then(Value::as_object) else {
        return Err(bad(&format!("{at}/surfaces"), "the client data model needs `surfaces`, an object by surface id"));
    };
    surfaces.get(surface).cloned().ok_or_else(|| bad(&format!("{at}/surfaces/{}", escape(surface)), "the client data model has no data for the action's surface"))
}

/// A2UI's client `error` message: the renderer could not run the surface.
fn client_error(error: &Value) -> Error {
    let field = |key: &str| error.get(key).and_then(Value::as_str).unwrap_or("?");
    let at = error.get("path").and_then(Value::as_str).map(|p| format!(" at {p}")).unwrap_or_default();
    let message = format!(
        "the A2UI client reported an error instead of an action: {} on surface `{}`{at}: {} (nothing was submitted)",
        field("code"),
        field("surfaceId"),
        field("message")
    );
    Error::new(ErrorCode::InvalidRequest, message).at("/error").with(crate::error::Detail::A2uiError(error.clone()))
}

fn bad(pointer: &str, what: &str) -> Error {
    Error::new(ErrorCode::InvalidRequest, format!("{what} (at {})", if pointer.is_empty() { "the root" } else { pointer })).at(pointer)
}

/// `YYYY-MM-DDTHH:MM...`: the shape the renderer's `toISOString` writes.
fn looks_like_date_time(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() >= 16 && b[4] == b'-' && b[7] == b'-' && matches!(b[10], b'T' | b't' | b' ') && b[13] == b':'
        && [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15].iter().all(|&i| b[i].is_ascii_digit())
}

/// Sets `value` at a JSON Pointer, creating objects on the way; `None`
/// when the pointer is malformed or crosses a non-object.
fn set_path(target: &mut Value, pointer: &str, value: Value) -> Option<()> {
    // A2UI names the data model's root `/` (JSON Pointer's `""`).
    let tokens = if pointer == "/" { Vec::new() } else { crate::pointer::tokens(pointer)? };
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
        cursor = map.entry(token.clone()).or_insert_with(|| Value::Object(Map::new()));
    }
    cursor.as_object_mut()?.insert(last.clone(), value);
    Some(())
}

/// Turns values an A2UI renderer wrote back into the schema's types: a
/// number or boolean typed as text, a single choice sent as `["x"]`, a
/// non-string choice by its text, a list written one per line, JSON text
/// for objects, a date-time or time without an offset (read as UTC), and
/// an empty text in a field that is not a string (dropped, as if unset).
pub(crate) fn coerce(schema: &Value, data: &Value, limits: &Limits) -> Value {
    let doc = SchemaDoc::new(schema, limits);
    coerce_at(&doc, schema, data, 0).unwrap_or(Value::Null)
}

/// `None`: drop the value (an empty text where no text belongs).
fn coerce_at(doc: &SchemaDoc<'_>, node: &Value, value: &Value, depth: usize) -> Option<Value> {
    if depth > 64 {
        return Some(value.clone());
    }
    let Ok(view) = doc.resolve(node) else { return Some(value.clone()) };
    let kind = view.kind();
    match value {
        Value::Array(items) if kind.kind != Kind::Array && kind.kind != Kind::Any && items.len() == 1 => {
            coerce_at(doc, node, &items[0], depth + 1)
        }
        Value::Array(items) if kind.kind == Kind::Array => {
            let item_schema = doc.resolve_scope(node, "/items");
            let coerced = items.iter().filter_map(|item| match item_schema {
                Some(s) => coerce_at(doc, s, item, depth + 1),
                None => Some(item.clone()),
            });
            Some(Value::Array(coerced.collect()))
        }
        Value::Object(map) => {
            let mut out = Map::new();
            for (key, item) in map {
                let child = doc.resolve_scope(node, &format!("/properties/{}", escape(key)));
                let coerced = match child {
                    Some(child) => coerce_at(doc, child, item, depth + 1),
                    None => Some(item.clone()),
                };
                // An optional field left empty is unset: `""`, `[]`, or an
                // object all of whose fields were left empty.
                let emptied = |v: &Value| match v {
                    Value::String(s) => s.is_empty(),
                    Value::Array(a) => a.is_empty(),
                    Value::Object(m) => m.is_empty() && item.as_object().is_some_and(|o| !o.is_empty()),
                    _ => false,
                };
                match coerced {
                    Some(v) if emptied(&v) && !doc.node_requires(node, key) => {}
                    Some(v) => {
                        out.insert(key.clone(), v);
                    }
                    None => {}
                }
            }
            Some(Value::Object(out))
        }
        Value::String(text) => coerce_text(doc, node, &kind, text, depth),
        other => Some(other.clone()),
    }
}

fn coerce_text(doc: &SchemaDoc<'_>, node: &Value, kind: &FieldKind, text: &str, depth: usize) -> Option<Value> {
    if let Some(choices) = &kind.choices {
        if let Some((value, _)) = choices.iter().find(|(v, _)| value_text(v) == text) {
            return Some(value.clone());
        }
    }
    let trimmed = text.trim();
    match kind.kind {
        Kind::String | Kind::Any | Kind::Null => Some(Value::String(offset_time(kind.format.as_deref(), text))),
        _ if trimmed.is_empty() => None,
        Kind::Integer => Some(trimmed.parse::<i64>().map(Value::from).unwrap_or_else(|_| text.into())),
        Kind::Number => Some(match trimmed.parse::<f64>().ok().and_then(serde_json::Number::from_f64) {
            Some(n) if n.as_f64().is_some_and(|f| f.fract() == 0.0 && f.abs() < 9e15) => Value::from(n.as_f64().unwrap_or_default() as i64),
            Some(n) => Value::Number(n),
            None => text.into(),
        }),
        Kind::Boolean => Some(match trimmed {
            "true" => true.into(),
            "false" => false.into(),
            _ => text.into(),
        }),
        Kind::Array => match serde_json::from_str::<Value>(trimmed) {
            Ok(list @ Value::Array(_)) => coerce_at(doc, node, &list, depth + 1),
            _ => {
                let lines = text.lines().map(str::trim).filter(|l| !l.is_empty()).map(|l| Value::String(l.to_owned()));
                coerce_at(doc, node, &Value::Array(lines.collect()), depth + 1)
            }
        },
        Kind::Object | Kind::Alternatives => match serde_json::from_str::<Value>(trimmed) {
            Ok(parsed) => coerce_at(doc, node, &parsed, depth + 1),
            Err(_) => Some(text.into()),
        },
    }
}

/// A `DateTimeInput` writes local wall-clock values without an offset
/// (`2026-01-02T10:30:00`, `10:30`); JSON Schema's `date-time` and `time`
/// need one, so they are read as UTC.
fn offset_time(format: Option<&str>, text: &str) -> String {
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let clock = |t: &str| {
        let parts: Vec<&str> = t.split(':').collect();
        (2..=3).contains(&parts.len()) && parts.iter().all(|p| p.len() == 2 && digits(p))
    };
    let with_seconds = |t: &str| if t.len() == 5 { format!("{t}:00") } else { t.to_owned() };
    match format {
        Some("date-time") => match text.split_once('T') {
            Some((date, time)) if date.len() == 10 && clock(time) => format!("{date}T{}Z", with_seconds(time)),
            _ => text.to_owned(),
        },
        Some("time") if clock(text) => format!("{}Z", with_seconds(text)),
        _ => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renderer_values_are_coerced_by_the_schema() {
        let schema = json!({"type": "object", "properties": {
            "age": {"type": "integer"}, "score": {"type": "number"}, "size": {"type": "string", "enum": ["s", "m"]},
            "level": {"enum": [1, 2, 3]}, "tags": {"type": "array", "items": {"type": "string"}},
            "at": {"type": "string", "format": "date-time"}, "alarm": {"type": "string", "format": "time"},
            "extra": {"type": "object"}, "ok": {"type": "boolean"}, "empty": {"type": "number"},
            "note": {"type": "string"}, "many": {"type": "array"}, "box": {"type": "object", "properties": {"zip": {"type": "string"}}}},
            "required": ["name"]});
        let data = json!({"age": " 42 ", "score": "1.5", "size": ["m"], "level": ["2"], "tags": "a\n\n b \n",
            "at": "2026-01-02T10:30", "alarm": "07:15", "extra": "{\"k\": 1}", "ok": "true", "empty": "", "free": "x",
            "note": "", "many": [], "box": {"zip": ""}, "name": ""});
        let out = coerce(&schema, &data, &Limits::default());
        assert_eq!(out, json!({"age": 42, "score": 1.5, "size": "m", "level": 2, "tags": ["a", "b"],
            "at": "2026-01-02T10:30:00Z", "alarm": "07:15:00Z", "extra": {"k": 1}, "ok": true, "free": "x", "name": ""}));
    }

    #[test]
    fn conditions_compile_to_v09_functions_or_not_at_all() {
        let at = vec!["country".to_owned()];
        assert_eq!(condition(&json!({"const": "U.S."}), &at, Scope::Root).unwrap(), regex("/country", r"^(U\.S\.)$"));
        let both = condition(&json!({"properties": {"a": {"enum": [1, 2]}}, "required": ["a"]}), &[], Scope::Root).unwrap();
        assert_eq!(both["call"], "and");
        assert!(condition(&json!({"minimum": 3}), &at, Scope::Root).is_none());
    }

    #[test]
    fn surface_ids_follow_the_tool_call_else_the_hash() {
        let mut meta = Map::new();
        meta.insert("specHash".into(), "0123456789abcdef0123".into());
        assert_eq!(surface_id(&meta), "genui-0123456789abcdef");
        meta.insert("toolCallId".into(), "call_1".into());
        assert_eq!(surface_id(&meta), "genui-call_1");
    }
}
