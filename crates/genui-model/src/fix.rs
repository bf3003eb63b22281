//! Deterministic repair of common model mistakes, each recorded by name.
//!
//! Two passes. On the raw JSON, before conversion ([`prepare_value`]):
//!
//! - `extra_keys_dropped`: keys the plan does not have (`enum`, `required`,
//!   `schema`, ...): the model cannot add fields or enum values this way;
//! - `pointer_corrected`: a pointer close to a real field: `#/properties/a`,
//!   `a`, `/a`, `a/b` or `a.b` (missing `/properties/` segments), a case
//!   difference, or a unique nearest field within a small edit distance;
//! - `row_dropped`: a section row the plan format refuses (a field not in
//!   the section, not adjacent or out of order, a lone field, more than
//!   four, a field already in a row): its fields stay stacked;
//! - `widget_renamed`: a known alias (`dropdown` -> `select`, `toggle` ->
//!   `checkbox`, ...); `widget_replaced`: an unknown widget name falls back
//!   to the field's default.
//!
//! On the plan ([`repair`]):
//!
//! - `pointer_corrected` (as above, for plans that skipped the first pass);
//! - `unknown_control_dropped`: controls for fields the schema does not have
//!   (only when at most half the controls are unknown: a plan that is mostly
//!   invented is sent back to the model instead);
//! - `duplicate_dropped` / `overlap_dropped`: a later control for a field
//!   already shown, or for part of (or the whole of) one already shown;
//! - `widget_replaced`: a widget that does not fit its field's type gets
//!   genui-core's choice;
//! - `label_filled`: an empty label gets the field's default label;
//! - `empty_section_dropped`: sections left empty by the above;
//! - `required_added`: required fields left out get the deterministic
//!   generator's controls, appended at the end (only when the model's own
//!   valid controls are at least as many as the added ones).
//!
//! The ladder records `text_sanitized` besides these when
//! [`Plan::sanitize`] had to change display text.
//!
//! A field without an override shows with its default control
//! ([`Context::default_control`]): the deterministic generator's, with its
//! label, widget, help, placeholder, read-only flag and array item layout.

use crate::plan_schema::{
    drop_invalid_rows, field_lists_mut, overrides_mut, strip_unknown, widget_named,
};
use genui_core::Limits;
use genui_core::Pointer;
use genui_core::SchemaDoc;
use genui_core::{Control, Node, Plan, Widget};
use serde_json::Value;

/// What a plan is repaired against: the schema and the deterministic plan.
#[derive(Debug)]
pub(crate) struct Context<'a> {
    output: &'a Value,
    doc: SchemaDoc<'a>,
    limits: Limits,
    deterministic: &'a Plan,
    /// Field pointers a control may name: the deterministic plan's controls
    /// and the object properties above them.
    candidates: Vec<String>,
}

impl<'a> Context<'a> {
    /// A context for `output`, whose deterministic plan is `deterministic`.
    pub(crate) fn new(output: &'a Value, deterministic: &'a Plan, limits: &Limits) -> Self {
        let mut candidates: Vec<String> = Vec::new();
        for control in deterministic.root.controls() {
            for prefix in ancestors(&control.pointer) {
                if !candidates.contains(&prefix) {
                    candidates.push(prefix);
                }
            }
        }
        Self {
            output,
            doc: SchemaDoc::new(output, limits),
            limits: limits.clone(),
            deterministic,
            candidates,
        }
    }

    fn det_control(&self, at: &str) -> Option<&'a Control> {
        self.deterministic
            .root
            .controls()
            .into_iter()
            .find(|c| c.pointer == at)
    }

    /// A field a control may point at: a `/properties/...` path that
    /// resolves (or the root, when the deterministic plan shows the root).
    fn is_field(&self, at: &str) -> bool {
        if at.is_empty() {
            return self.det_control("").is_some();
        }
        let Some(tokens) = Pointer::tokens(at) else {
            return false;
        };
        tokens.len() % 2 == 0
            && tokens.iter().step_by(2).all(|t| t == "properties")
            && self.doc.resolve_scope(self.output, at).is_some()
    }

    /// The field a pointer most likely means, if it is not one already.
    pub(crate) fn correct_pointer(&self, raw: &str) -> Option<String> {
        let trimmed = raw.trim().trim_start_matches('#');
        let slashed = if trimmed.starts_with('/') || trimmed.is_empty() {
            trimmed.to_owned()
        } else {
            format!("/{trimmed}")
        };
        let with_properties = insert_properties(&slashed);
        for guess in [&slashed, &with_properties] {
            if self.is_field(guess) {
                return Some(guess.clone());
            }
        }
        let lower = with_properties.to_lowercase();
        if let Some(found) = self.candidates.iter().find(|c| c.to_lowercase() == lower) {
            return Some(found.clone());
        }
        self.nearest(&with_properties)
    }

    /// The unique candidate within a small edit distance.
    fn nearest(&self, guess: &str) -> Option<String> {
        let last = guess.rsplit('/').next().unwrap_or_default().chars().count();
        let limit = if last <= 4 { 1 } else { 2 };
        let mut best: Option<(usize, &String)> = None;
        let mut tie = false;
        for candidate in &self.candidates {
            let Some(d) = bounded_distance(guess, candidate, limit) else {
                continue;
            };
            match best {
                Some((b, _)) if d > b => {}
                Some((b, _)) if d == b => tie = true,
                _ => {
                    best = Some((d, candidate));
                    tie = false;
                }
            }
        }
        best.filter(|_| !tie).map(|(_, c)| c.clone())
    }

    /// Whether `widget` fits the field at `at`.
    pub(crate) fn fits(&self, widget: Widget, at: &str) -> bool {
        let Some((view, items)) = self.doc.field_views(self.output, at) else {
            return false;
        };
        let kind = self.doc.control_kind(self.output, at, &view);
        widget.fits(
            &view,
            &kind,
            items.as_ref().map(|items| items.kind()).as_ref(),
        )
    }

    /// The deterministic generator's widget for the field at `at`.
    pub(crate) fn default_widget(&self, at: &str) -> Option<Widget> {
        if let Some(control) = self.det_control(at) {
            return Some(control.widget);
        }
        let (view, items) = self.doc.field_views(self.output, at)?;
        let name = Pointer::unescape(at.rsplit('/').next().unwrap_or_default());
        Some(Widget::choose(
            &name,
            &view,
            &view.kind(),
            items.as_ref().map(|items| items.kind()).as_ref(),
        ))
    }

    /// The label the deterministic generator would use.
    fn default_label(&self, at: &str) -> String {
        if let Some(control) = self.det_control(at) {
            return control.label.clone();
        }
        let name = Pointer::unescape(at.rsplit('/').next().unwrap_or_default());
        let title = self
            .doc
            .field_views(self.output, at)
            .and_then(|(v, _)| v.str("title").map(str::to_owned));
        title.unwrap_or_else(|| Control::humanize(&name))
    }
}

impl Context<'_> {
    /// The control a field shows with when the model plan does not override
    /// it: the deterministic plan's, or for fields it does not show as one
    /// control (an object it expands, say), genui-core's widget choice with
    /// the schema's title, description, first example and read-only flag.
    pub(crate) fn default_control(&self, at: &str) -> Control {
        if let Some(control) = self.det_control(at) {
            return control.clone();
        }
        let view = self.doc.field_views(self.output, at).map(|(v, _)| v);
        let text = |key: &str| view.as_ref().and_then(|v| v.str(key)).map(str::to_owned);
        let example = view
            .as_ref()
            .and_then(|v| v.get("examples"))
            .and_then(Value::as_array)
            .and_then(|e| e.first());
        Control {
            pointer: at.to_owned(),
            label: self.default_label(at),
            widget: self.default_widget(at).unwrap_or(Widget::Text),
            help: text("description"),
            placeholder: example.and_then(Value::as_str).map(str::to_owned),
            read_only: view.as_ref().is_some_and(|v| {
                v.get("readOnly") == Some(&Value::Bool(true)) || v.get("const").is_some()
            }),
            rule: None,
            detail: None,
            component: None,
            component_props: None,
        }
    }
}

/// Every `/properties/x` prefix of a pointer, the pointer itself last.
fn ancestors(at: &str) -> Vec<String> {
    let Some(tokens) = Pointer::tokens(at) else {
        return vec![at.to_owned()];
    };
    let mut out = Vec::new();
    let mut current = String::new();
    for token in tokens {
        current.push('/');
        current.push_str(&Pointer::escape(&token));
        if current.matches('/').count() % 2 == 0 {
            out.push(current.clone());
        }
    }
    if out.last().map(String::as_str) != Some(at) {
        out.push(at.to_owned());
    }
    out
}

/// `/a/b` or `/a.b` -> `/properties/a/properties/b`, unless it already
/// names `properties`.
fn insert_properties(slashed: &str) -> String {
    let Some(tokens) = Pointer::tokens(slashed) else {
        return slashed.to_owned();
    };
    if tokens.is_empty() || tokens.iter().any(|t| t == "properties") {
        return slashed.to_owned();
    }
    let names: Vec<String> = match tokens.as_slice() {
        [single] if single.contains('.') => single.split('.').map(str::to_owned).collect(),
        _ => tokens,
    };
    names
        .iter()
        .fold(String::new(), |at, name| Pointer::property(&at, name))
}

/// Optimal-string-alignment distance, or `None` above `limit`.
fn bounded_distance(a: &str, b: &str, limit: usize) -> Option<usize> {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.len().abs_diff(b.len()) > limit {
        return None;
    }
    let mut rows = vec![(0..=b.len()).collect::<Vec<usize>>(); 3];
    for i in 1..=a.len() {
        let (cur, prev, prev2) = (i % 3, (i + 2) % 3, (i + 1) % 3);
        rows[cur][0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (rows[prev][j] + 1)
                .min(rows[cur][j - 1] + 1)
                .min(rows[prev][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(rows[prev2][j - 2] + 1);
            }
            rows[cur][j] = d;
        }
        if rows[cur].iter().min().is_some_and(|m| *m > limit) {
            return None;
        }
    }
    Some(rows[a.len() % 3][b.len()]).filter(|d| *d <= limit)
}

/// Widget names models use that mean one of ours.
fn widget_alias(name: &str) -> Option<Widget> {
    let key: String = name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase();
    let widget = match key.as_str() {
        "dropdown" | "combobox" | "combo" | "selectbox" | "picklist" | "enum" | "choice" => {
            Widget::Select
        }
        "radiogroup" | "radiobuttons" | "radios" | "segmented" => Widget::Radio,
        "toggle" | "switch" | "bool" | "boolean" | "check" | "checkbox" => Widget::Checkbox,
        "multiselect" | "checkboxes" | "multichoice" | "tags" | "checkboxgroup" => {
            Widget::MultiSelect
        }
        "datetime" | "datetimelocal" | "timestamp" => Widget::DateTime,
        "multiline" | "longtext" | "richtext" | "textarea" | "paragraph" => Widget::Textarea,
        "string" | "input" | "textfield" | "textinput" | "shorttext" | "text" => Widget::Text,
        "int" | "integer" => Widget::Integer,
        "float" | "decimal" | "numeric" | "number" => Widget::Number,
        "range" | "slider" => Widget::Slider,
        "list" | "repeater" | "table" | "array" => Widget::Array,
        "group" | "fieldset" | "nested" | "object" => Widget::Object,
        "uri" | "link" | "url" => Widget::Url,
        "mail" | "emailaddress" | "email" => Widget::Email,
        "datepicker" | "date" => Widget::Date,
        "timepicker" | "time" => Widget::Time,
        _ => return None,
    };
    Some(widget)
}

/// The raw-JSON pass: drops unknown keys, corrects pointers and settles
/// widget names.
pub(crate) fn prepare_value(plan: &mut Value, ctx: &Context<'_>) -> Vec<&'static str> {
    let mut fixes = Vec::new();
    if strip_unknown(plan) > 0 {
        fixes.push("extra_keys_dropped");
    }
    for fields in field_lists_mut(plan) {
        for field in fields.iter_mut() {
            if let Some(fixed) = field.as_str().and_then(|p| corrected(ctx, p)) {
                *field = Value::String(fixed);
                fixes.push("pointer_corrected");
            }
        }
    }
    if drop_invalid_rows(plan) > 0 {
        fixes.push("row_dropped");
    }
    for entry in overrides_mut(plan) {
        if let Some(fixed) = entry
            .get("pointer")
            .and_then(Value::as_str)
            .and_then(|p| corrected(ctx, p))
        {
            entry.insert("pointer".into(), Value::String(fixed));
            fixes.push("pointer_corrected");
        }
        let Some(name) = entry
            .get("widget")
            .and_then(Value::as_str)
            .map(str::to_owned)
        else {
            continue;
        };
        if widget_named(&name).is_some() {
            continue;
        }
        match widget_alias(&name) {
            Some(widget) => {
                entry.insert("widget".into(), widget.as_str().into());
                fixes.push("widget_renamed");
            }
            None => {
                entry.insert("widget".into(), Value::Null);
                fixes.push("widget_replaced");
            }
        }
    }
    dedup(fixes)
}

/// The corrected pointer, when `raw` is not a field but is close to one.
fn corrected(ctx: &Context<'_>, raw: &str) -> Option<String> {
    if ctx.is_field(raw) {
        return None;
    }
    ctx.correct_pointer(raw)
}

/// A repaired plan and the names of the fixes applied, in order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Repaired {
    /// The plan after repair (still to be checked).
    pub plan: Plan,
    /// Fix names, each once.
    pub fixes: Vec<&'static str>,
}

/// The plan pass (see the module docs for the fixes, in order).
pub(crate) fn repair(plan: &Plan, ctx: &Context<'_>) -> Repaired {
    let mut plan = plan.clone();
    let mut fixes = Vec::new();
    correct_pointers(&mut plan.root, ctx, &mut fixes);
    drop_unknown(&mut plan.root, ctx, &mut fixes);
    drop_repeats(&mut plan.root, &mut fixes);
    for_each_control_mut(&mut plan.root, &mut |c| fit_control(c, ctx, &mut fixes));
    drop_empty(&mut plan.root, &mut fixes);
    add_required(&mut plan, ctx, &mut fixes);
    Repaired {
        plan,
        fixes: dedup(fixes),
    }
}

fn correct_pointers(root: &mut Node, ctx: &Context<'_>, fixes: &mut Vec<&'static str>) {
    for_each_control_mut(root, &mut |control| {
        if ctx.is_field(&control.pointer) {
            return;
        }
        if let Some(found) = ctx.correct_pointer(&control.pointer) {
            *control = ctx.default_control(&found);
            fixes.push("pointer_corrected");
        }
    });
}

fn drop_unknown(root: &mut Node, ctx: &Context<'_>, fixes: &mut Vec<&'static str>) {
    let controls = root.controls();
    let unknown = controls
        .iter()
        .filter(|c| !ctx.is_field(&c.pointer))
        .count();
    if unknown == 0 || unknown * 2 > controls.len() {
        return;
    }
    retain_controls(root, &mut |c| ctx.is_field(&c.pointer));
    fixes.push("unknown_control_dropped");
}

fn drop_repeats(root: &mut Node, fixes: &mut Vec<&'static str>) {
    let mut kept: Vec<String> = Vec::new();
    retain_controls(root, &mut |c| {
        if kept.contains(&c.pointer) {
            fixes.push("duplicate_dropped");
            return false;
        }
        if kept.iter().any(|k| overlaps(k, &c.pointer)) {
            fixes.push("overlap_dropped");
            return false;
        }
        kept.push(c.pointer.clone());
        true
    });
}

/// One pointer is strictly inside the other's field.
fn overlaps(a: &str, b: &str) -> bool {
    let inside = |inner: &str, outer: &str| {
        inner.len() > outer.len()
            && inner.starts_with(outer)
            && inner.as_bytes()[outer.len()] == b'/'
    };
    inside(a, b) || inside(b, a)
}

/// Widget fit and label.
fn fit_control(control: &mut Control, ctx: &Context<'_>, fixes: &mut Vec<&'static str>) {
    if !ctx.is_field(&control.pointer) {
        return;
    }
    if !ctx.fits(control.widget, &control.pointer) {
        let default = ctx.default_control(&control.pointer);
        control.widget = default.widget;
        control.detail = default.detail;
        fixes.push("widget_replaced");
    }
    if control.label.trim().is_empty() {
        control.label = Control::plain_text(
            &ctx.default_label(&control.pointer),
            Control::MAX_LABEL_CHARS,
        );
        fixes.push("label_filled");
    }
}

fn add_required(plan: &mut Plan, ctx: &Context<'_>, fixes: &mut Vec<&'static str>) {
    let issues = Plan::check(plan, ctx.output, &ctx.limits);
    let missing: Vec<&str> = issues
        .iter()
        .filter(|i| i.code == "missing_required" && !i.pointer.contains("/items"))
        .map(|i| i.pointer.as_str())
        .collect();
    if missing.is_empty() {
        return;
    }
    let present: Vec<String> = plan
        .root
        .controls()
        .iter()
        .map(|c| c.pointer.clone())
        .collect();
    let added: Vec<Node> = ctx
        .deterministic
        .root
        .controls()
        .into_iter()
        .filter(|c| {
            missing
                .iter()
                .any(|m| c.pointer == *m || c.pointer.starts_with(&format!("{m}/")))
        })
        .filter(|c| {
            !present
                .iter()
                .any(|p| p == &c.pointer || overlaps(p, &c.pointer))
        })
        .map(|c| Node::Control(c.clone()))
        .collect();
    let valid = present.iter().filter(|p| ctx.is_field(p)).count();
    if added.is_empty() || added.len() > valid {
        return;
    }
    append(&mut plan.root, added);
    fixes.push("required_added");
}

/// Appends at the end of the form: the last step of a wizard, else the root.
fn append(root: &mut Node, nodes: Vec<Node>) {
    if let Node::Vertical { elements } = root {
        if let Some(Node::Steps { steps }) = elements.last_mut() {
            if let Some(last) = steps.last_mut() {
                last.elements.extend(nodes);
                return;
            }
        }
        elements.extend(nodes);
    }
}

fn drop_empty(root: &mut Node, fixes: &mut Vec<&'static str>) {
    let mut dropped = false;
    prune(root, &mut dropped);
    if dropped {
        fixes.push("empty_section_dropped");
    }
}

/// Removes layout nodes without controls below them.
fn prune(node: &mut Node, dropped: &mut bool) {
    let keep = |n: &Node| !n.controls().is_empty() || matches!(n, Node::Control(_));
    match node {
        Node::Vertical { elements }
        | Node::Horizontal { elements }
        | Node::Group { elements, .. } => {
            elements.iter_mut().for_each(|n| prune(n, dropped));
            let before = elements.len();
            elements.retain(keep);
            *dropped |= elements.len() != before;
        }
        Node::Steps { steps } => {
            steps
                .iter_mut()
                .flat_map(|s| s.elements.iter_mut())
                .for_each(|n| prune(n, dropped));
            let before = steps.len();
            steps.retain(|s| s.elements.iter().any(keep));
            *dropped |= steps.len() != before;
        }
        Node::Control(_) | Node::Table(_) => {}
    }
}

fn for_each_control_mut(node: &mut Node, f: &mut impl FnMut(&mut Control)) {
    match node {
        Node::Vertical { elements }
        | Node::Horizontal { elements }
        | Node::Group { elements, .. } => {
            elements.iter_mut().for_each(|n| for_each_control_mut(n, f));
        }
        Node::Steps { steps } => steps
            .iter_mut()
            .flat_map(|s| s.elements.iter_mut())
            .for_each(|n| for_each_control_mut(n, f)),
        Node::Control(control) => f(control),
        Node::Table(table) => f(&mut table.control),
    }
}

/// Keeps the controls `keep` accepts, visiting them in document order.
fn retain_controls(node: &mut Node, keep: &mut impl FnMut(&Control) -> bool) {
    let elements = match node {
        Node::Vertical { elements }
        | Node::Horizontal { elements }
        | Node::Group { elements, .. } => elements,
        Node::Steps { steps } => {
            steps
                .iter_mut()
                .for_each(|s| retain_list(&mut s.elements, keep));
            return;
        }
        Node::Control(_) | Node::Table(_) => return,
    };
    retain_list(elements, keep);
}

fn retain_list(elements: &mut Vec<Node>, keep: &mut impl FnMut(&Control) -> bool) {
    let mut out = Vec::with_capacity(elements.len());
    for mut node in elements.drain(..) {
        match &node {
            Node::Control(control) => {
                if keep(control) {
                    out.push(node);
                }
            }
            _ => {
                retain_controls(&mut node, keep);
                out.push(node);
            }
        }
    }
    *elements = out;
}

fn dedup(fixes: Vec<&'static str>) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for fix in fixes {
        if !out.contains(&fix) {
            out.push(fix);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan_schema::to_plan;
    use genui_core::Plan;
    use serde_json::json;

    fn output() -> Value {
        json!({"type": "object", "required": ["firstName", "email", "country", "home"], "properties": {
            "firstName": {"type": "string", "title": "First Name"},
            "email": {"type": "string", "format": "email"},
            "country": {"enum": ["GB", "US", "DE", "AT"]},
            "agree": {"type": "boolean"},
            "home": {"type": "object", "required": ["city"], "properties": {"city": {"type": "string"}, "zip": {"type": "string"}}},
            "items": {"type": "array", "items": {"type": "object", "required": ["sku"], "properties": {"sku": {"type": "string"}}}},
            "id": {"type": "string", "readOnly": true, "description": "Assigned by the system"}
        }})
    }

    fn o(pointer: &str, label: Option<&str>, widget: Option<&str>) -> Value {
        json!({"pointer": pointer, "label": label, "widget": widget, "help": null, "placeholder": null})
    }

    fn run(
        fields: &[&str],
        overrides: Vec<Value>,
    ) -> (Repaired, Vec<&'static str>, Vec<&'static str>) {
        let out = output();
        let limits = Limits::default();
        let det = Plan::generate(&out, "", false, &limits).unwrap();
        let ctx = Context::new(&out, &det, &limits);
        let mut value = json!({"title": null, "steps": false, "overrides": overrides,
            "sections": [{"label": null, "layout": "vertical", "fields": fields}]});
        let early = prepare_value(&mut value, &ctx);
        let plan = to_plan(&value, &|p| ctx.default_control(p)).unwrap();
        let repaired = repair(&plan, &ctx);
        let issues = Plan::check(&repaired.plan, &out, &limits)
            .into_iter()
            .map(|i| i.code)
            .collect();
        (repaired, early, issues)
    }

    fn pointers(plan: &Plan) -> Vec<String> {
        plan.root
            .controls()
            .iter()
            .map(|c| c.pointer.clone())
            .collect()
    }

    #[test]
    fn corrects_close_pointers() {
        let fields = [
            "firstName",
            "#/properties/email",
            "/Country",
            "home/city",
            "/properties/agre",
            "/properties/items",
            "/properties/id",
        ];
        let (r, early, issues) = run(&fields, vec![o("email", Some("Mail"), None)]);
        assert_eq!(
            pointers(&r.plan),
            [
                "/properties/firstName",
                "/properties/email",
                "/properties/country",
                "/properties/home/properties/city",
                "/properties/agree",
                "/properties/items",
                "/properties/id",
            ]
        );
        assert_eq!(early, ["pointer_corrected"]);
        assert!(r.fixes.is_empty(), "{:?}", r.fixes);
        assert!(issues.is_empty(), "{issues:?}");
        let controls = r.plan.root.controls();
        assert_eq!(
            (controls[0].label.as_str(), controls[1].label.as_str()),
            ("First Name", "Mail")
        );
        assert!(
            controls[5].detail.is_some(),
            "array item layout comes with the default control"
        );
        assert!(controls[6].read_only);
        assert_eq!(controls[6].help.as_deref(), Some("Assigned by the system"));
    }

    /// The raw pass on a labelled section with `rows`, then conversion.
    fn run_rows(fields: &[&str], rows: Value) -> (Plan, Vec<&'static str>) {
        let out = output();
        let limits = Limits::default();
        let det = Plan::generate(&out, "", false, &limits).unwrap();
        let ctx = Context::new(&out, &det, &limits);
        let mut value = json!({"title": null, "steps": false, "overrides": [],
            "sections": [{"label": "You", "layout": "vertical", "fields": fields, "rows": rows}]});
        let early = prepare_value(&mut value, &ctx);
        (to_plan(&value, &|p| ctx.default_control(p)).unwrap(), early)
    }

    fn has_row(plan: &Plan) -> bool {
        let Node::Vertical { elements } = &plan.root else {
            return false;
        };
        elements.iter().any(|n| {
            matches!(n, Node::Group { elements, .. }
                if elements.iter().any(|e| matches!(e, Node::Horizontal { .. })))
        })
    }

    #[test]
    fn row_pointers_are_corrected_like_fields_and_bad_rows_dropped() {
        let (plan, early) = run_rows(
            &["firstName", "#/properties/email"],
            json!([["firstName", "/email"]]),
        );
        assert_eq!(early, ["pointer_corrected"]);
        assert!(has_row(&plan), "the corrected row is kept");
        let (plan, early) = run_rows(
            &[
                "/properties/firstName",
                "/properties/email",
                "/properties/agree",
            ],
            json!([["/properties/firstName", "/properties/agree"]]),
        );
        assert_eq!(early, ["row_dropped"]);
        assert!(!has_row(&plan), "the fields stay stacked");
        assert_eq!(plan.root.controls().len(), 3);
    }

    #[test]
    fn drops_unknown_and_repeated_controls() {
        let fields = [
            "/properties/firstName",
            "/properties/firstName",
            "/properties/email",
            "/properties/country",
            "/properties/home",
            "/properties/home/properties/city",
            "/properties/middleName",
            "/properties/items/items/properties/sku",
        ];
        let (r, _, issues) = run(&fields, vec![]);
        assert_eq!(
            r.fixes,
            [
                "unknown_control_dropped",
                "duplicate_dropped",
                "overlap_dropped"
            ]
        );
        assert_eq!(
            pointers(&r.plan),
            [
                "/properties/firstName",
                "/properties/email",
                "/properties/country",
                "/properties/home"
            ]
        );
        assert_eq!(
            r.plan.root.controls()[3].widget,
            Widget::Object,
            "an expanded object's default is one object control"
        );
        assert!(issues.is_empty(), "{issues:?}");
    }

    #[test]
    fn mostly_invented_plans_are_not_fixed() {
        let (r, _, issues) = run(
            &[
                "/properties/firstName",
                "/properties/nope1",
                "/properties/nope2",
            ],
            vec![],
        );
        assert!(!r.fixes.contains(&"unknown_control_dropped"));
        assert!(!r.fixes.contains(&"required_added"));
        assert!(issues.contains(&"unresolved_pointer"));
    }

    #[test]
    fn fixes_widgets_and_adds_required() {
        let overrides = vec![
            o("/properties/firstName", Some(""), Some("slider")),
            o("/properties/email", None, Some("Dropdown")),
            o("/properties/agree", None, Some("fancy-toggle-thing")),
        ];
        let (r, early, issues) = run(
            &[
                "/properties/firstName",
                "/properties/email",
                "/properties/agree",
            ],
            overrides,
        );
        assert_eq!(early, ["widget_renamed", "widget_replaced"]);
        assert_eq!(r.fixes, ["widget_replaced", "required_added"]);
        let controls = r.plan.root.controls();
        let widgets: Vec<Widget> = controls.iter().map(|c| c.widget).collect();
        assert_eq!(
            widgets,
            [
                Widget::Text,
                Widget::Email,
                Widget::Checkbox,
                Widget::Select,
                Widget::Text,
                Widget::Text
            ]
        );
        assert_eq!(
            controls[0].label, "First Name",
            "a blank override keeps the default label"
        );
        let added = [
            "/properties/country",
            "/properties/home/properties/city",
            "/properties/home/properties/zip",
        ];
        assert_eq!(pointers(&r.plan)[3..], added);
        assert!(issues.is_empty(), "{issues:?}");
    }

    #[test]
    fn empty_model_plan_is_not_padded() {
        let (r, _, issues) = run(&["/properties/agree"], vec![]);
        assert!(!r.fixes.contains(&"required_added"));
        assert!(issues.contains(&"missing_required"));
    }

    #[test]
    fn plan_level_pointer_correction_and_labels() {
        let out = output();
        let limits = Limits::default();
        let det = Plan::generate(&out, "", false, &limits).unwrap();
        let ctx = Context::new(&out, &det, &limits);
        let mut plan = det.clone();
        // The first top-level control, inside its section when the form
        // is sectioned.
        fn first_control(nodes: &mut [Node]) -> Option<&mut genui_core::Control> {
            nodes.iter_mut().find_map(|n| match n {
                Node::Control(c) => Some(c),
                Node::Group { elements, .. } | Node::Horizontal { elements } => {
                    first_control(elements)
                }
                _ => None,
            })
        }
        let Node::Vertical { elements } = &mut plan.root else {
            panic!()
        };
        let first = first_control(elements).expect("a control");
        first.pointer = first.pointer.trim_start_matches("/properties/").to_owned();
        first.label = " ".into();
        let r = repair(&plan, &ctx);
        assert_eq!(r.fixes, ["pointer_corrected"]);
        assert_eq!(r.plan, det);
        let mut blank = det.clone();
        let Node::Vertical { elements } = &mut blank.root else {
            panic!()
        };
        first_control(elements).expect("a control").label = String::new();
        assert_eq!(repair(&blank, &ctx).fixes, ["label_filled"]);
    }

    #[test]
    fn helpers() {
        assert_eq!(bounded_distance("firstName", "fristName", 2), Some(1));
        assert_eq!(bounded_distance("kitten", "sitting", 2), None);
        assert_eq!(bounded_distance("abc", "abc", 0), Some(0));
        assert_eq!(insert_properties("/a.b"), "/properties/a/properties/b");
        assert_eq!(insert_properties("/properties/a"), "/properties/a");
        assert_eq!(
            ancestors("/properties/a/properties/b"),
            ["/properties/a", "/properties/a/properties/b"]
        );
        assert_eq!(ancestors(""), [""]);
        assert_eq!(widget_alias("Multi-Select"), Some(Widget::MultiSelect));
        assert_eq!(widget_alias("hologram"), None);
    }
}
