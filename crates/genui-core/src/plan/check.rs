//! The checker: proves a plan against the `output` contract before anything
//! is returned or cached, whoever wrote the plan.
//!
//! Findings are machine-readable [`Issue`]s (a stable code, the control's
//! pointer, a message), so a model can be told exactly what to fix. The rules:
//!
//! - every control (and rule) pointer resolves in the schema;
//! - no field has two controls, and no control sits inside another's field;
//! - every required field has a control (recursively inside shown objects);
//! - each widget fits its field's type and format;
//! - labels, help and placeholders are plain text (no markup, no links);
//! - every rule (on a control or a section) reads a field that resolves,
//!   with a condition that is a valid, self-contained JSON Schema, never
//!   reads the field it hides, and never hides a field the schema requires
//!   unconditionally (the user could not submit).

use crate::plan::widgets;
use crate::plan::{Control, Effect, Node, Plan, Rule, Table, Widget};
use crate::pointer;
use crate::schema::{Resolved, SchemaDoc};
use crate::terms::limits::Limits;
use serde::Serialize;
use serde_json::Value;
use std::collections::{HashMap, HashSet};

use crate::plan::condition_proof;

/// One finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Issue {
    /// Stable code: `unresolved_pointer`, `duplicate_control`,
    /// `overlapping_control`, `missing_required`, `widget_mismatch`,
    /// `markup_in_text`, `invalid_rule`, `hidden_required`.
    pub code: &'static str,
    /// Schema path the issue is about.
    pub pointer: String,
    /// What is wrong.
    pub message: String,
}

impl Plan {
    /// Checks the plan against `output`; an empty list means proven.
    pub fn check(&self, output: &Value, limits: &Limits) -> Vec<Issue> {
        check_plan(self, output, limits)
    }
}

impl Issue {
    /// What markup, if any, a piece of display text contains (the checker
    /// refuses it as `markup_in_text`).
    pub fn markup_in(text: &str) -> Option<&'static str> {
        markup_in(text)
    }
}

/// Checks a plan against `output`; an empty list means proven.
pub(crate) fn check_plan(plan: &Plan, output: &Value, limits: &Limits) -> Vec<Issue> {
    let doc = SchemaDoc::new(output, limits);
    let mut issues = Vec::new();
    check_text("", plan.title.as_deref(), &mut issues);
    condition_proof::prove_together(&plan.root);
    check_layer(&doc, output, &plan.root, "", &mut issues, 0);
    issues
}

/// Checks the controls of one layer (the form, or one array item's detail)
/// against the schema `base` they are relative to.
fn check_layer(
    doc: &SchemaDoc<'_>,
    base: &Value,
    root: &Node,
    at: &str,
    issues: &mut Vec<Issue>,
    depth: usize,
) {
    check_layout_labels(root, issues);
    check_rules(doc, base, root, at, issues);
    let controls = root.controls();
    let fields = Fields::new(controls.iter().map(|c| c.pointer.as_str()));
    let mut seen = HashSet::new();
    for control in &controls {
        let full = format!("{at}{}", control.pointer);
        if !seen.insert(control.pointer.as_str()) {
            issues.push(issue(
                "duplicate_control",
                &full,
                "more than one control edits this field",
            ));
        }
        if let Some(other) = fields.holder_of(&control.pointer) {
            let msg = format!("this control edits part of the field of the control at {other}");
            issues.push(issue("overlapping_control", &full, &msg));
        }
        check_control(doc, base, control, &full, issues, depth);
    }
    if let Ok(view) = doc.resolve(base) {
        check_required(doc, base, &view, "", &fields, at, issues, &mut Vec::new());
    }
}

fn check_control(
    doc: &SchemaDoc<'_>,
    base: &Value,
    control: &Control,
    full: &str,
    issues: &mut Vec<Issue>,
    depth: usize,
) {
    for text in [
        Some(control.label.as_str()),
        control.help.as_deref(),
        control.placeholder.as_deref(),
    ] {
        check_text(full, text, issues);
    }
    let Some(node) = doc.resolve_scope(base, &control.pointer) else {
        issues.push(issue(
            "unresolved_pointer",
            full,
            "no field of the schema has this path",
        ));
        return;
    };
    let Ok(view) = doc.resolve(node) else {
        issues.push(issue(
            "unresolved_pointer",
            full,
            "the field's schema does not resolve",
        ));
        return;
    };
    // A discriminator: each branch fixes one value, the control offers all.
    let kind = crate::plan::conditions::control_kind(doc, base, &control.pointer, &view);
    let items_node = doc.resolve_scope(node, "/items").filter(|n| n.is_object());
    let items = items_node.and_then(|n| doc.resolve(n).ok());
    let items_kind = items.as_ref().map(Resolved::kind);
    if !widgets::fits(control.widget, &view, &kind, items_kind.as_ref()) {
        let msg = format!(
            "widget `{}` does not fit a field of kind {:?}{}",
            control.widget.as_str(),
            kind.kind,
            kind.format
                .as_deref()
                .map(|f| format!(" with format {f}"))
                .unwrap_or_default()
        );
        issues.push(issue("widget_mismatch", full, &msg));
    }
    if let (Some(detail), Some(items_node)) = (&control.detail, items_node) {
        if depth < 64 {
            check_layer(
                doc,
                items_node,
                detail,
                &format!("{full}/items"),
                issues,
                depth + 1,
            );
        }
    }
}

/// `inner` is strictly below `outer` in the schema tree.
fn is_inside(inner: &str, outer: &str) -> bool {
    inner.len() > outer.len() && inner.starts_with(outer) && inner.as_bytes()[outer.len()] == b'/'
}

/// The control pointers of one layer, sorted, so that "is there a control
/// at or below this field" and "which control holds this field" take a
/// binary search each instead of a scan of every control (a plan of 5,000
/// fields asked both of each field).
struct Fields<'a> {
    sorted: Vec<&'a str>,
    /// Each pointer's first position in the plan, to name the first holder
    /// in plan order.
    first_at: HashMap<&'a str, usize>,
}

impl<'a> Fields<'a> {
    fn new(pointers: impl Iterator<Item = &'a str>) -> Self {
        let mut first_at = HashMap::new();
        for (index, pointer) in pointers.enumerate() {
            first_at.entry(pointer).or_insert(index);
        }
        let mut sorted: Vec<&str> = first_at.keys().copied().collect();
        sorted.sort_unstable();
        Self { sorted, first_at }
    }

    fn contains(&self, pointer: &str) -> bool {
        self.first_at.contains_key(pointer)
    }

    /// Some control sits strictly below `field`.
    fn has_below(&self, field: &str) -> bool {
        let prefix = format!("{field}/");
        let start = self.sorted.partition_point(|p| *p < prefix.as_str());
        self.sorted
            .get(start)
            .is_some_and(|p| p.starts_with(&prefix))
    }

    /// A control at `field` or below it.
    fn covers(&self, field: &str) -> bool {
        self.contains(field) || self.has_below(field)
    }

    /// The first control, in plan order, whose field holds `pointer`
    /// strictly inside it.
    fn holder_of(&self, pointer: &str) -> Option<&'a str> {
        pointer
            .match_indices('/')
            .filter_map(|(end, _)| self.first_at.get_key_value(&pointer[..end]))
            .min_by_key(|(_, index)| **index)
            .map(|(holder, _)| *holder)
    }
}

/// Every required property of `view` (`raw` as written) has a control at or
/// below it, and so does every property a condition may require; objects
/// that are shown through their children are checked the same way inside.
#[allow(clippy::too_many_arguments)]
fn check_required(
    doc: &SchemaDoc<'_>,
    raw: &Value,
    view: &Resolved,
    at: &str,
    fields: &Fields<'_>,
    layer: &str,
    issues: &mut Vec<Issue>,
    seen_refs: &mut Vec<String>,
) {
    for name in crate::plan::conditions::Analysis::of(doc, raw).required_names(view) {
        let field = pointer::property(at, &name);
        if !view.requires(&name) && !fields.covers(&field) {
            let msg = format!("field `{name}` is required when a condition of the schema holds, and has no control");
            issues.push(issue("missing_required", &format!("{layer}{field}"), &msg));
        }
    }
    for (name, schema) in view.properties() {
        let field = pointer::property(at, name);
        if view.requires(name) && !fields.covers(&field) {
            let msg = format!("required field `{name}` has no control");
            issues.push(issue("missing_required", &format!("{layer}{field}"), &msg));
            continue;
        }
        let shown_by_children = !fields.contains(&field) && fields.has_below(&field);
        if !shown_by_children {
            continue;
        }
        let Ok(child) = doc.resolve(schema) else {
            continue;
        };
        if child.refs.iter().any(|r| seen_refs.contains(r)) {
            continue;
        }
        let mark = seen_refs.len();
        seen_refs.extend(child.refs.iter().cloned());
        check_required(
            doc, schema, &child, &field, fields, layer, issues, seen_refs,
        );
        seen_refs.truncate(mark);
    }
}

/// Rules on controls and sections: see the module doc.
fn check_rules(doc: &SchemaDoc<'_>, base: &Value, node: &Node, at: &str, issues: &mut Vec<Issue>) {
    match node {
        Node::Vertical { elements } | Node::Horizontal { elements } => {
            elements
                .iter()
                .for_each(|n| check_rules(doc, base, n, at, issues));
        }
        Node::Group { elements, rule, .. } => {
            if let Some(rule) = rule {
                check_rule(doc, base, rule, &node.controls(), at, issues);
            }
            elements
                .iter()
                .for_each(|n| check_rules(doc, base, n, at, issues));
        }
        Node::Steps { steps } => steps
            .iter()
            .flat_map(|s| &s.elements)
            .for_each(|n| check_rules(doc, base, n, at, issues)),
        Node::Control(control) => {
            if let Some(rule) = &control.rule {
                check_rule(doc, base, rule, &[control], at, issues);
            }
        }
        Node::Table(table) => {
            if let Some(rule) = &table.control.rule {
                check_rule(doc, base, rule, &[&table.control], at, issues);
            }
        }
    }
}

fn check_rule(
    doc: &SchemaDoc<'_>,
    base: &Value,
    rule: &Rule,
    controls: &[&Control],
    at: &str,
    issues: &mut Vec<Issue>,
) {
    let scope = format!("{at}{}", rule.pointer);
    if doc.resolve_scope(base, &rule.pointer).is_none() {
        issues.push(issue(
            "unresolved_pointer",
            &scope,
            "the rule reads a field the schema does not have",
        ));
    }
    if let Some(why) = invalid_condition(&rule.schema) {
        issues.push(issue(
            "invalid_rule",
            &scope,
            &format!("the rule's condition {why}"),
        ));
    }
    for control in controls {
        let full = format!("{at}{}", control.pointer);
        let reads_itself = !rule.pointer.is_empty()
            && (rule.pointer == control.pointer || is_inside(&rule.pointer, &control.pointer));
        if reads_itself {
            issues.push(issue(
                "invalid_rule",
                &full,
                "the rule reads the field it changes, so it could never change back",
            ));
        }
        let hides = matches!(rule.effect, Effect::Show | Effect::Hide);
        if hides && always_required(doc, base, &control.pointer) {
            issues.push(issue(
                "hidden_required",
                &full,
                "a rule may hide this field, but the schema always requires it",
            ));
        }
    }
}

/// Why a condition schema is unusable, if it is: it must compile on its
/// own, so no `$ref` (there is no document around it).
fn invalid_condition(schema: &Value) -> Option<String> {
    if !schema.is_object() && !schema.is_boolean() {
        return Some("is not a JSON Schema".to_owned());
    }
    let text = schema.to_string();
    if text.contains("\"$ref\"") {
        return Some("uses `$ref`, which cannot resolve outside the form's schema".to_owned());
    }
    if condition_proof::compiled(&text) {
        return None;
    }
    // The worker's own compile: linear-time regexes with a size limit.
    let why = crate::schema::compile(schema, jsonschema::Draft::Draft202012)
        .err()
        .map(|e| format!("is not a valid JSON Schema: {e}"));
    if why.is_none() {
        condition_proof::remember(text);
    }
    why
}

/// Whether the field at `pointer` is listed in `required` of its parent
/// object and of every object above it (so it must always be filled).
fn always_required(doc: &SchemaDoc<'_>, base: &Value, pointer: &str) -> bool {
    let mut at = pointer;
    while let Some((parent, name)) = at.rsplit_once("/properties/") {
        let view = doc
            .resolve_scope(base, parent)
            .and_then(|n| doc.resolve(n).ok());
        if !view.is_some_and(|v| v.requires(&pointer::unescape(name))) {
            return false;
        }
        at = parent;
    }
    at.is_empty()
}

fn check_layout_labels(node: &Node, issues: &mut Vec<Issue>) {
    match node {
        Node::Group {
            label, elements, ..
        } => {
            check_text("", Some(label), issues);
            elements.iter().for_each(|n| check_layout_labels(n, issues));
        }
        Node::Vertical { elements } | Node::Horizontal { elements } => {
            elements.iter().for_each(|n| check_layout_labels(n, issues));
        }
        Node::Steps { steps } => {
            for step in steps {
                check_text("", Some(&step.label), issues);
                step.elements
                    .iter()
                    .for_each(|n| check_layout_labels(n, issues));
            }
        }
        Node::Control(_) => {}
        Node::Table(table) => check_table(table, issues),
    }
}

/// A display table: its control is the read-only array of its dataset
/// (the control itself is checked with every other control), and its chart
/// plots columns the table has (or fields the chart derives itself).
fn check_table(table: &Table, issues: &mut Vec<Issue>) {
    let (control, dataset) = (&table.control, &table.dataset);
    if control.pointer != dataset.schema_pointer
        || control.widget != Widget::Array
        || !control.read_only
    {
        let message = format!(
            "a table must be the read-only array control of its dataset `{}`",
            dataset.schema_pointer
        );
        issues.push(Issue {
            code: "bad_table",
            pointer: control.pointer.clone(),
            message,
        });
    }
    let Some(chart) = &dataset.chart else { return };
    let derived: Vec<&str> = chart
        .transform
        .iter()
        .flat_map(|t| t.fields_made())
        .collect();
    let channels = [Some(&chart.x), Some(&chart.y), chart.color.as_ref()];
    for channel in channels.into_iter().flatten() {
        let known = dataset.columns.iter().any(|c| c.key == channel.field)
            || derived.contains(&channel.field.as_str());
        if !known {
            let message = format!(
                "the chart of `{}` plots `{}`, which is not one of its columns",
                dataset.id, channel.field
            );
            issues.push(Issue {
                code: "bad_table",
                pointer: control.pointer.clone(),
                message,
            });
        }
    }
}

/// Text shown to people must be plain: no HTML tags, no markdown links, no
/// script URLs.
fn check_text(at: &str, text: Option<&str>, issues: &mut Vec<Issue>) {
    let Some(text) = text else { return };
    if let Some(why) = markup_in(text) {
        issues.push(issue(
            "markup_in_text",
            at,
            &format!("text {text:?} contains {why}"),
        ));
    }
}

/// What markup, if any, a piece of display text contains.
pub(crate) fn markup_in(text: &str) -> Option<&'static str> {
    let bytes = text.as_bytes();
    let tag = bytes
        .windows(2)
        .any(|w| w[0] == b'<' && (w[1].is_ascii_alphabetic() || w[1] == b'/' || w[1] == b'!'));
    if tag {
        return Some("an HTML tag");
    }
    if text.contains("](") {
        return Some("a markdown link");
    }
    let lower = text.to_ascii_lowercase();
    if ["javascript:", "data:", "vbscript:"]
        .iter()
        .any(|s| lower.contains(s))
    {
        return Some("a script URL");
    }
    None
}

fn issue(code: &'static str, pointer: &str, message: &str) -> Issue {
    Issue {
        code,
        pointer: pointer.to_owned(),
        message: message.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The index answers as the scans it replaces did, on pointers that
    /// share prefixes, escapes, the root and repeats.
    #[test]
    fn the_field_index_answers_as_a_scan_of_every_control() {
        let plan = [
            "/a", "/ab", "/a/b", "/a/b/c", "/a~1b", "/b/0", "", "/a/b", "/c/d/e", "/a/bc",
        ];
        let fields = Fields::new(plan.iter().copied());
        let probes = [
            "", "/a", "/a/b", "/a/b/c/d", "/ab", "/a~1b/x", "/b", "/c", "/c/d", "/z",
        ];
        for probe in probes.iter().chain(plan.iter()) {
            let covered = plan.iter().any(|p| p == probe || is_inside(p, probe));
            let below = plan.iter().any(|p| is_inside(p, probe));
            let holder = plan.iter().find(|o| is_inside(probe, o)).copied();
            assert_eq!(fields.covers(probe), covered, "covers {probe:?}");
            assert_eq!(fields.has_below(probe), below, "has_below {probe:?}");
            assert_eq!(fields.holder_of(probe), holder, "holder_of {probe:?}");
        }
    }
    use crate::plan::Widget;
    use serde_json::json;

    fn control(pointer: &str, widget: Widget) -> Node {
        Node::Control(Control::new(pointer, "L", widget))
    }

    fn codes(plan: &Plan, output: &Value) -> Vec<&'static str> {
        check_plan(plan, output, &Limits::default())
            .into_iter()
            .map(|i| i.code)
            .collect()
    }

    fn plan(elements: Vec<Node>) -> Plan {
        Plan {
            title: None,
            root: Node::Vertical { elements },
        }
    }

    #[test]
    fn catches_each_rule() {
        let output = json!({"type": "object", "required": ["a", "b"], "properties": {
            "a": {"type": "string"}, "b": {"type": "object", "required": ["c"], "properties": {"c": {"type": "integer"}, "d": {"type": "string"}}}
        }});
        let good = plan(vec![
            control("/properties/a", Widget::Text),
            control("/properties/b/properties/c", Widget::Integer),
        ]);
        assert!(
            codes(&good, &output).is_empty(),
            "{:?}",
            codes(&good, &output)
        );
        let missing_nested = plan(vec![
            control("/properties/a", Widget::Text),
            control("/properties/b/properties/d", Widget::Text),
        ]);
        assert_eq!(codes(&missing_nested, &output), ["missing_required"]);
        let bad = plan(vec![
            control("/properties/a", Widget::Slider),
            control("/properties/a", Widget::Text),
            control("/properties/zz", Widget::Text),
            control("/properties/b", Widget::Object),
            control("/properties/b/properties/c", Widget::Integer),
        ]);
        let found = codes(&bad, &output);
        for code in [
            "widget_mismatch",
            "duplicate_control",
            "unresolved_pointer",
            "overlapping_control",
        ] {
            assert!(found.contains(&code), "{code} not in {found:?}");
        }
    }

    #[test]
    fn proves_rules() {
        use crate::plan::{Effect, Rule};
        let output = json!({"type": "object", "required": ["a"], "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
            "dependentRequired": {"b": ["c"]}, "dependentSchemas": {"b": {"properties": {"c": {"type": "string"}}}}});
        let with_rule = |pointer: &str, rule: Rule| {
            let Node::Control(mut c) = control(pointer, Widget::Text) else {
                unreachable!()
            };
            c.rule = Some(rule);
            Node::Control(c)
        };
        let show = |pointer: &str, schema: Value| Rule {
            effect: Effect::Show,
            pointer: pointer.into(),
            schema,
        };
        let good = plan(vec![
            control("/properties/a", Widget::Text),
            control("/properties/b", Widget::Text),
            with_rule("/properties/c", show("", json!({"required": ["b"]}))),
        ]);
        assert!(
            codes(&good, &output).is_empty(),
            "{:?}",
            codes(&good, &output)
        );
        let missing = plan(vec![
            control("/properties/a", Widget::Text),
            control("/properties/b", Widget::Text),
        ]);
        assert_eq!(
            codes(&missing, &output),
            ["missing_required"],
            "c is required once b is there"
        );
        let bad = plan(vec![
            with_rule("/properties/a", show("/properties/b", json!({"const": 1}))),
            with_rule(
                "/properties/b",
                show("/properties/b", json!({"$ref": "#/x"})),
            ),
            with_rule(
                "/properties/c",
                show("/properties/zz", json!({"minimum": "x"})),
            ),
        ]);
        let found = codes(&bad, &output);
        for code in ["hidden_required", "invalid_rule", "unresolved_pointer"] {
            assert!(found.contains(&code), "{code} not in {found:?}");
        }
        assert_eq!(
            found.iter().filter(|c| **c == "invalid_rule").count(),
            3,
            "{found:?}"
        );
    }

    #[test]
    fn rejects_markup() {
        assert_eq!(markup_in("Name <b>here</b>"), Some("an HTML tag"));
        assert_eq!(markup_in("see [docs](http://x)"), Some("a markdown link"));
        assert_eq!(markup_in("JavaScript:alert(1)"), Some("a script URL"));
        assert_eq!(markup_in("a < b and c > d"), None);
    }
}
