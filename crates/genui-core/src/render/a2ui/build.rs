//! The component tree of a surface, built from the cached plan and schema:
//! layouts, inputs with their checks, lists with their item template, the
//! submit or decision buttons. The revisions' basic catalogs differ in one
//! place this tree uses: v1.0's `Text` has no `h1`-`h5` variants, so a
//! heading is written as a Markdown heading there, as v1.0's examples do.

use super::calls::*;
use super::model::{Adapt, Step};
use super::Projection;
use super::{ADD_ITEM_EVENT, REMOVE_ITEM_EVENT, SUBMIT_EVENT};
use crate::plan::widgets::{A2uiComponent, A2uiText};
use crate::plan::{Control, Effect, Node, Rule, Table};
use crate::pointer::escape;
use crate::render::choices::FieldHints;
use crate::render::{data_path, RenderInput as Rendered};
use crate::schema::{FieldKind, Kind, Resolved, SchemaDoc};
use crate::terms::format::A2uiVersion;
use crate::terms::limits::Limits;
use serde_json::{json, Map, Value};
use std::collections::HashSet;

/// Whether a field must be filled: always (its `required` check), or only
/// under a rule's condition (its check, when the condition is expressible).
enum Required {
    Always(Value),
    When(Option<Value>),
}

pub(super) struct Builder<'s> {
    doc: SchemaDoc<'s>,
    components: Vec<Value>,
    used: HashSet<String>,
    /// Checks mirrored on the submit button (root-scope fields only).
    submit_checks: Vec<Value>,
    adapts: Vec<(Vec<Step>, Adapt)>,
    /// The data path of the enclosing arrays, for [`Builder::adapts`].
    prefix: Vec<Step>,
    /// The request's operator catalog, when it has an A2UI `catalogId`.
    catalog: Option<&'s crate::Catalog>,
    /// Whether a component of that catalog was used (the surface then
    /// names its `catalogId` instead of the basic one).
    used_catalog: bool,
    /// The language option labels are written in.
    lang: crate::render::words::Lang,
    /// The revision whose basic catalog the components follow.
    version: A2uiVersion,
}

impl<'s> Builder<'s> {
    pub(super) fn new(r: &Rendered<'s>, version: A2uiVersion) -> Self {
        Self {
            doc: SchemaDoc::new(&r.spec.schema, &Limits::default()),
            components: Vec::new(),
            used: HashSet::new(),
            submit_checks: Vec::new(),
            adapts: Vec::new(),
            prefix: Vec::new(),
            catalog: r.catalog.filter(|c| c.a2ui_catalog_id().is_some()),
            used_catalog: false,
            lang: r.lang(),
            version,
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
        let text = crate::render::text::markdown(text);
        match (self.version, variant.and_then(heading_level)) {
            (A2uiVersion::V1_0, Some(level)) => {
                props.insert(
                    "text".into(),
                    format!("{} {text}", "#".repeat(level)).into(),
                );
            }
            _ => {
                props.insert("text".into(), text.into());
                if let Some(variant) = variant {
                    props.insert("variant".into(), variant.into());
                }
            }
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
        } else if let Some(lead) = r.lead() {
            children.push(self.text("description", &lead, Some("caption")));
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
                let field = Scope::Root.path(&data_path(&prompt.pointer));
                let mut buttons = Vec::new();
                let lang = r.lang();
                let choices = [
                    (
                        "approve",
                        crate::render::words::Text::Approve,
                        &prompt.approve,
                        "primary",
                    ),
                    (
                        "reject",
                        crate::render::words::Text::Reject,
                        &prompt.reject,
                        "default",
                    ),
                ];
                for (hint, text, value, variant) in choices {
                    let label = lang.text(text);
                    let mut context = context.clone();
                    context.insert("decisionPath".into(), field.clone().into());
                    // A context value is a DynamicValue: no null, no object.
                    context.insert("decision".into(), dynamic_literal(value));
                    buttons.push(self.button(hint, label, variant, context, Vec::new()));
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

    fn button(
        &mut self,
        hint: &str,
        label: &str,
        variant: &str,
        context: Map<String, Value>,
        checks: Vec<Value>,
    ) -> String {
        let text = self.text(&format!("{hint}-label"), label, None);
        let id = self.id(hint);
        let mut p = props([("child", text.into()), ("variant", variant.into())]);
        p.insert("action".into(), event(SUBMIT_EVENT, Value::Object(context)));
        if !checks.is_empty() {
            p.insert("checks".into(), Value::Array(checks));
        }
        self.push(&id, "Button", p)
    }

    /// The components of a plan node; `rule` is the enclosing section's.
    fn node(
        &mut self,
        base: &'s Value,
        node: &Node,
        scope: Scope,
        rule: Option<&Rule>,
    ) -> Vec<String> {
        match node {
            Node::Vertical { elements } => self.nodes(base, elements, scope, rule),
            Node::Horizontal { elements } => {
                let children = self.nodes(base, elements, scope, rule);
                let id = self.id("row");
                let mut p = props([("children", ids(children))]);
                p.insert("align".into(), "start".into());
                vec![self.push(&id, "Row", p)]
            }
            Node::Group {
                label,
                elements,
                rule: own,
                ..
            } => {
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
                    tabs.push(object([
                        ("title", step.label.clone().into()),
                        ("child", child.into()),
                    ]));
                }
                if tabs.is_empty() {
                    return Vec::new();
                }
                let id = self.id("steps");
                vec![self.push(&id, "Tabs", props([("tabs", Value::Array(tabs))]))]
            }
            Node::Control(control) => self
                .control(base, control, scope, rule)
                .into_iter()
                .collect(),
            Node::Table(t) => self.table(t),
        }
    }

    fn nodes(
        &mut self,
        base: &'s Value,
        nodes: &[Node],
        scope: Scope,
        rule: Option<&Rule>,
    ) -> Vec<String> {
        nodes
            .iter()
            .flat_map(|n| self.node(base, n, scope, rule))
            .collect()
    }

    /// A display table: a header row of labels and a `List` whose template
    /// row binds each column relative to the record; the chart, which the
    /// basic catalog cannot draw, is named in a caption.
    fn table(&mut self, t: &Table) -> Vec<String> {
        let dataset = &t.dataset;
        let heading = self.text("table-title", &dataset.title, Some("h3"));
        let labels: Vec<String> = dataset.columns.iter().map(|c| c.label.clone()).collect();
        let header_cells: Vec<String> = labels
            .iter()
            .map(|l| self.text("th", l, Some("caption")))
            .collect();
        let header_id = self.id("table-header");
        let header = self.push(&header_id, "Row", props([("children", ids(header_cells))]));
        let cells: Vec<String> = dataset
            .columns
            .iter()
            .map(|c| {
                let id = self.id("td");
                let path = if dataset.shape == crate::plan::data::Shape::Numbers {
                    ".".to_owned()
                } else {
                    escape(&c.key)
                };
                self.push(&id, "Text", props([("text", bound(&path))]))
            })
            .collect();
        let row_id = self.id("table-row");
        let row = self.push(&row_id, "Row", props([("children", ids(cells))]));
        let list_id = self.id("table");
        let path = if dataset.data_pointer.is_empty() {
            "/".to_owned()
        } else {
            dataset.data_pointer.clone()
        };
        let list = self.push(
            &list_id,
            "List",
            props([(
                "children",
                object([("componentId", row.into()), ("path", path.into())]),
            )]),
        );
        let mut out = vec![heading, header, list];
        if dataset.chart.is_some() {
            let text = format!("Chart \"{}\": not drawn (the A2UI basic catalog has no chart); its data is the table above.", dataset.title);
            out.push(self.text("chart", &text, Some("caption")));
        }
        out
    }

    /// One input (or a read-only text), its checks, and its help caption.
    fn control(
        &mut self,
        base: &'s Value,
        c: &Control,
        scope: Scope,
        inherited: Option<&Rule>,
    ) -> Option<String> {
        let cell = c.widget.row().a2ui;
        if cell == A2uiComponent::Buttons {
            return None; // the decision buttons stand in for it
        }
        let tokens = data_path(&c.pointer);
        let path = scope.path(&tokens);
        let node = self.doc.resolve_scope(base, &c.pointer);
        let view = node
            .and_then(|n| self.doc.resolve(n).ok())
            .unwrap_or_default();
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
                _ if self.is_required(base, &c.pointer) => {
                    Required::Always(call("required", object([("value", bound(&path))])))
                }
                _ => Required::When(None),
            };
            self.input(
                &hint, c, &tokens, &path, &view, &kind, node, required, scope,
            )
        };
        let Some(help) = &c.help else {
            return Some(input);
        };
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
    fn input(
        &mut self,
        hint: &str,
        c: &Control,
        tokens: &[String],
        path: &str,
        view: &Resolved<'s>,
        kind: &FieldKind,
        node: Option<&'s Value>,
        required: Required,
        scope: Scope,
    ) -> String {
        let binding = bound(path);
        let mut p = props([("label", c.label.clone().into())]);
        let mut checks = Vec::new();
        let (optional, required) = match required {
            Required::Always(check) => (false, Some(check)),
            Required::When(check) => (true, check),
        };
        let guard = |check: Value| {
            if optional {
                call(
                    "or",
                    object([(
                        "values",
                        Value::Array(vec![
                            call(
                                "not",
                                object([(
                                    "value",
                                    call("required", object([("value", bound(path))])),
                                )]),
                            ),
                            check,
                        ]),
                    )]),
                )
            } else {
                check
            }
        };
        let custom = c
            .component
            .as_deref()
            .zip(self.catalog)
            .and_then(|(name, cat)| cat.entry(name))
            .and_then(|e| Some((e, e.a2ui.as_ref()?)));
        let component: std::borrow::Cow<'static, str> = if let Some((entry, a2ui)) = custom {
            // An operator component: props first, so the value and label it binds win.
            let mut own: Map<String, Value> = entry
                .props_for(c.component_props.as_ref())
                .cloned()
                .unwrap_or_default();
            own.insert(a2ui.label_property.clone(), c.label.clone().into());
            own.insert(a2ui.value_property.clone(), binding);
            p = own;
            self.used_catalog = true;
            a2ui.component.clone().into()
        } else {
            match c.widget.row().a2ui {
                A2uiComponent::CheckBox => {
                    self.adapt(tokens, Adapt::False);
                    p.insert("value".into(), binding);
                    "CheckBox"
                }
                A2uiComponent::Choice if kind.choices.is_some() => {
                    let choices = kind.choices.as_deref().unwrap_or_default();
                    if choices.iter().any(|(v, _)| !v.is_string()) {
                        self.adapt(tokens, Adapt::Choice);
                    }
                    let hints = FieldHints::at(&c.pointer, view.str("title"), view.str("format"));
                    p.insert("options".into(), options(choices, hints, self.lang));
                    p.insert("value".into(), binding);
                    p.insert("variant".into(), "mutuallyExclusive".into());
                    // An enum over the count limit (a `large_enum` warning):
                    // the basic catalog's search box over the options.
                    if choices.len() > Limits::default().max_enum_values {
                        p.insert("filterable".into(), true.into());
                    }
                    "ChoicePicker"
                }
                A2uiComponent::MultiChoice => {
                    let items = node
                        .and_then(|n| self.doc.resolve_scope(n, "/items"))
                        .and_then(|n| self.doc.resolve(n).ok());
                    let choices = items
                        .as_ref()
                        .and_then(|i| i.kind().choices)
                        .unwrap_or_default();
                    if choices.iter().any(|(v, _)| !v.is_string()) {
                        self.adapt(tokens, Adapt::Choices);
                    }
                    self.adapt(tokens, Adapt::NoItems);
                    let hints = FieldHints::at(&c.pointer, view.str("title"), view.str("format"));
                    p.insert("options".into(), options(&choices, hints, self.lang));
                    p.insert("value".into(), binding);
                    p.insert("variant".into(), "multipleSelection".into());
                    let (min, max) = (count(view.get("minItems")), count(view.get("maxItems")));
                    if min.is_some() || max.is_some() {
                        checks.push(check(
                            guard(length(path, min, max)),
                            &format!("{}: choose {}", c.label, bounds_text(min, max)),
                        ));
                    }
                    "ChoicePicker"
                }
                A2uiComponent::DateTime { date, time } => {
                    p.insert("value".into(), binding);
                    p.insert("enableDate".into(), date.into());
                    p.insert("enableTime".into(), time.into());
                    "DateTimeInput"
                }
                A2uiComponent::Slider if number(view.get("maximum")).is_some() => {
                    p.insert("value".into(), binding);
                    p.insert(
                        "min".into(),
                        number(view.get("minimum")).unwrap_or(0.0).into(),
                    );
                    p.insert(
                        "max".into(),
                        number(view.get("maximum")).unwrap_or_default().into(),
                    );
                    "Slider"
                }
                A2uiComponent::List if c.detail.is_some() && node.is_some() => {
                    return self.list(hint, c, tokens, path, node, scope);
                }
                _ => {
                    self.text_field(c, tokens, view, kind, path, &mut p, &mut checks, &guard);
                    "TextField"
                }
            }
            .into()
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
        self.push(&id, &component, p)
    }

    /// A `TextField` and its variant and checks.
    #[allow(clippy::too_many_arguments)]
    fn text_field(
        &mut self,
        c: &Control,
        tokens: &[String],
        view: &Resolved<'s>,
        kind: &FieldKind,
        path: &str,
        p: &mut Map<String, Value>,
        checks: &mut Vec<Value>,
        guard: &dyn Fn(Value) -> Value,
    ) {
        p.insert("value".into(), bound(path));
        self.adapt(tokens, Adapt::Empty);
        let label = &c.label;
        let text = c.widget.row().a2ui_text;
        let variant = match (text, kind.kind) {
            (A2uiText::Number, _) | (_, Kind::Number | Kind::Integer) => {
                let (min, max) = (number(view.get("minimum")), number(view.get("maximum")));
                if min.is_some() || max.is_some() {
                    checks.push(check(
                        guard(numeric(path, min, max)),
                        &format!("{label}: a number {}", bounds_text(min, max)),
                    ));
                }
                let pattern = if kind.kind == Kind::Integer {
                    r"^\s*-?\d+\s*$"
                } else {
                    r"^\s*-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$"
                };
                let what = if kind.kind == Kind::Integer {
                    "a whole number"
                } else {
                    "a number"
                };
                checks.push(check(
                    guard(regex(path, pattern)),
                    &format!("{label}: enter {what}"),
                ));
                "number"
            }
            // A list of scalars is typed one per line; a list of anything
            // else (objects past the recursion cut-off) as JSON, below.
            (A2uiText::Items, _) if scalar_items(&self.doc, view) => {
                self.adapt(tokens, Adapt::Lines);
                p.insert("label".into(), format!("{label} (one per line)").into());
                "longText"
            }
            // An external `$ref` (schema/external.rs) is any JSON: typed as JSON too.
            (A2uiText::Json | A2uiText::Items, _)
            | (_, Kind::Object | Kind::Array | Kind::Alternatives)
            | (A2uiText::Long, Kind::Any) => {
                self.adapt(tokens, Adapt::Json);
                p.insert("label".into(), format!("{label} (JSON)").into());
                "longText"
            }
            (A2uiText::Long, _) => "longText",
            _ if kind.format.as_deref() == Some("password")
                || view.get("writeOnly") == Some(&Value::Bool(true)) =>
            {
                "obscured"
            }
            _ => "shortText",
        };
        p.insert("variant".into(), variant.into());
        if kind.kind == Kind::String {
            let (min, max) = (count(view.get("minLength")), count(view.get("maxLength")));
            if min.is_some() || max.is_some() {
                checks.push(check(
                    guard(length(path, min, max)),
                    &format!("{label}: {} characters", bounds_text(min, max)),
                ));
            }
            if let Some(pattern) = view.str("pattern") {
                checks.push(check(
                    guard(regex(path, pattern)),
                    &format!("{label} does not have the expected form"),
                ));
            }
            if text == A2uiText::Email || kind.format.as_deref() == Some("email") {
                checks.push(check(
                    guard(call("email", object([("value", bound(path))]))),
                    &format!("{label}: enter an e-mail address"),
                ));
            }
        }
    }

    /// An array of objects: a `List` whose template is the item's layout
    /// (paths relative to the item) with a Remove button, and an Add button.
    /// Both fire events the host applies to its data model: the basic
    /// catalog has no function that changes data.
    fn list(
        &mut self,
        hint: &str,
        c: &Control,
        tokens: &[String],
        path: &str,
        node: Option<&'s Value>,
        scope: Scope,
    ) -> String {
        let items = node.and_then(|n| self.doc.resolve_scope(n, "/items"));
        let heading = self.text(&format!("{hint}-label"), &c.label, Some("h4"));
        let mut children = vec![heading];
        if let (Some(detail), Some(items)) = (&c.detail, items) {
            let saved = self.prefix.len();
            self.prefix
                .extend(tokens.iter().map(|t| Step::Key(t.clone())));
            self.prefix.push(Step::Each);
            let mut fields = self.node(items, detail, Scope::Item, None);
            self.prefix.truncate(saved);
            let remove_text = self.text(&format!("{hint}-remove-label"), "Remove", None);
            let remove = self.id(&format!("{hint}-remove"));
            let absolute = if scope == Scope::Root {
                path.to_owned()
            } else {
                String::new()
            };
            let context = object([("array", absolute.clone().into()), ("item", bound("."))]);
            let mut p = props([
                ("child", remove_text.into()),
                ("variant", "borderless".into()),
            ]);
            p.insert("action".into(), event(REMOVE_ITEM_EVENT, context));
            fields.push(self.push(&remove, "Button", p));
            let template = self.column(&format!("{hint}-item"), fields);
            let card = self.id(&format!("{hint}-card"));
            let card = self.push(&card, "Card", props([("child", template.into())]));
            let list = self.id(hint);
            children.push(self.push(
                &list,
                "List",
                props([(
                    "children",
                    object([("componentId", card.into()), ("path", path.into())]),
                )]),
            ));
            let add_text = self.text(
                &format!("{hint}-add-label"),
                &format!("Add {}", c.label),
                None,
            );
            let add = self.id(&format!("{hint}-add"));
            let mut p = props([("child", add_text.into()), ("variant", "default".into())]);
            p.insert(
                "action".into(),
                event(ADD_ITEM_EVENT, object([("array", absolute.into())])),
            );
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
        let Some((parent, name)) = pointer.rsplit_once("/properties/") else {
            return false;
        };
        let parent = self.doc.resolve_scope(base, parent);
        parent.is_some_and(|p| self.doc.node_requires(p, &crate::pointer::unescape(name)))
    }

    /// A field under a show/hide rule: required when the rule's branch
    /// requires it and the condition holds, if the condition is expressible.
    fn conditional_required(
        &self,
        base: &'s Value,
        c: &Control,
        rule: &Rule,
        scope: Scope,
        path: &str,
    ) -> Option<Value> {
        let (parent, name) = c.pointer.rsplit_once("/properties/")?;
        let parent = self.doc.resolve_scope(base, parent)?;
        if !branch_requires(&self.doc, parent, &crate::pointer::unescape(name), 0, true) {
            return None;
        }
        let holds = condition(&rule.schema, &data_path(&rule.pointer), scope)?;
        let shown = if rule.effect == Effect::Show {
            holds
        } else {
            call("not", object([("value", holds)]))
        };
        let hidden = call("not", object([("value", shown)]));
        Some(call(
            "or",
            object([(
                "values",
                Value::Array(vec![
                    hidden,
                    call("required", object([("value", bound(path))])),
                ]),
            )]),
        ))
    }

    /// The surface's components, adaptations and action buttons.
    pub(super) fn build(mut self, r: &Rendered<'s>) -> Projection {
        self.surface(r);
        let catalog_id = self
            .catalog
            .filter(|_| self.used_catalog)
            .and_then(|c| c.a2ui_catalog_id())
            .map(str::to_owned);
        Projection {
            components: Value::Array(self.components).to_string(),
            adapts: self.adapts,
            catalog_id,
        }
    }
}

/// Whether an array's items are strings, numbers or booleans (typed one per
/// line); unknown items count as text.
fn scalar_items(doc: &SchemaDoc<'_>, view: &Resolved<'_>) -> bool {
    let items = view.get("items").and_then(|i| doc.resolve(i).ok());
    items.is_none_or(|i| {
        matches!(
            i.kind().kind,
            Kind::String | Kind::Number | Kind::Integer | Kind::Boolean | Kind::Any
        )
    })
}

/// The level of a v0.9 heading variant (`h1`-`h5`); `None` for the others.
fn heading_level(variant: &str) -> Option<usize> {
    match variant.as_bytes() {
        [b'h', level @ b'1'..=b'5'] => Some(usize::from(level - b'0')),
        _ => None,
    }
}
