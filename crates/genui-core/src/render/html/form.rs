//! The `<form>` markup of a plan, without page chrome: what `format=html`
//! puts in its page, what a hosted link serves, and what an MCP App view
//! wraps in its own page.
//!
//! Every control is a native input named by its data's JSON Pointer
//! (`/address/city`, `/items/0/qty`), with a `<label for>`, its help and
//! error linked by `aria-describedby`, and the schema's constraints as
//! native attributes. Sections are `<fieldset>`s with a `<legend>`, rows a
//! CSS class, wizard steps `<section>`s one below the other. An array is a
//! list of rows: the data's items plus [`EMPTY_ROWS`] empty ones (so it can
//! grow without JavaScript), a `<template>` row the script clones, and add
//! and remove buttons that stay `hidden` until the script shows them. Rules
//! travel as `data-rule` attributes the script evaluates; without it every
//! field is shown. Every text is HTML-escaped by [`text`] and [`attr`].
//!
//! Rows repeat their item's controls, so arrays nested in arrays multiply
//! them (three rows a level when empty). A form holds at most as many
//! controls as a plan may ([`crate::Limits::max_controls`]): past that it
//! is written again with the arrays nested deepest edited as one JSON
//! input each ([`markup`]), as the plan collapses its deepest objects.

use super::Words;
use crate::plan::widgets::HtmlElement;
use crate::plan::{Control, Effect, Node, Rule, Table, Widget};
use crate::render::choices::FieldHints;
use crate::render::RenderInput;
use crate::schema::{FieldKind, Kind, Resolved, SchemaDoc};
use serde_json::Value;
use std::collections::HashMap;
use std::fmt::Write as _;

/// Empty rows after an array's items, so that a person without
/// JavaScript can add that many (fewer when `maxItems` says so).
pub(crate) const EMPTY_ROWS: usize = 2;

/// The index token of a template row (never a number, so never posted:
/// a `<template>`'s content is inert).
pub(crate) const TEMPLATE_INDEX: &str = "__N__";

/// Escapes text content and double-quoted attribute values
/// ([`crate::render::text`] owns every format's escaping).
pub(crate) use crate::render::text::{html as text, html_attribute as attr};

/// The element id of a data pointer: `f` then the pointer with `/` as
/// `.` and every other character outside `[A-Za-z0-9_]` as `-` and its
/// UTF-16 code in hex (the script's `enc` is the same function).
pub(crate) fn id_of(pointer: &str) -> String {
    let mut out = String::from("f");
    for unit in pointer.encode_utf16() {
        match unit {
            0x2f => out.push('.'),
            u if u < 0x80 && ((u as u8).is_ascii_alphanumeric() || u == 0x5f) => {
                out.push(u as u8 as char)
            }
            u => {
                let _ = write!(out, "-{u:x}-");
            }
        }
    }
    out
}

/// The deepest array nesting tried first when a form with every array as
/// rows would hold more than `max_controls` controls: arrays inside this
/// many other arrays' rows become one JSON input each; then one level
/// less each try, down to 0 (every array one JSON input: the form holds
/// only the plan's own controls).
const FIRST_ROWS_NEST: usize = 8;

/// The `<form>` markup of `r`'s plan, posting to `action`, with `errors`
/// (data pointer, message) next to their fields: every array as rows if
/// the form then holds at most `max_controls` controls, else with the
/// arrays nested deepest collapsed ([`FIRST_ROWS_NEST`]). Each try stops
/// as soon as it passes the limit, so the work is bounded by the limit.
pub(crate) fn markup(
    r: &RenderInput<'_>,
    limits: &crate::Limits,
    action: &str,
    errors: &[(String, String)],
    words: &Words,
) -> String {
    let mut writer = FormWriter::new(r, limits, errors, words);
    let mut nest = usize::MAX;
    loop {
        writer.restart(nest);
        if let Some(markup) = writer.form(r, action, errors) {
            return markup;
        }
        // A try allowing deeper rows than this one met would stop at the
        // same place: skip to the depth of the deepest array it met.
        nest = nest
            .saturating_sub(1)
            .min(FIRST_ROWS_NEST)
            .min(writer.deepest_rows);
    }
}

/// The writer of one form.
pub(crate) struct FormWriter<'a> {
    doc: SchemaDoc<'a>,
    data: &'a Value,
    errors: HashMap<String, Vec<String>>,
    words: &'a Words,
    out: String,
    /// The names of the controls written so far, in order (the names
    /// under a pointer are one range: [`FormWriter::carry`] asks per value).
    names: std::collections::BTreeSet<String>,
    /// Controls written so far, the most this try may write (past it the
    /// writer stops and [`FormWriter::form`] gives nothing), and the most
    /// a form may hold ([`crate::Limits::max_controls`]).
    controls: usize,
    max_controls: usize,
    limit: usize,
    /// Arrays inside this many array rows are one JSON input each.
    rows_nest: usize,
    /// The array rows the writer is inside now, and the most rows any
    /// array it wrote as rows was inside.
    in_rows: usize,
    deepest_rows: usize,
    /// What the schema says of each control, by the schema node its
    /// pointer starts from (an array's items) and that pointer.
    schemas: HashMap<(*const Value, String), ControlSchema<'a>>,
}

/// What the schema says of one control: the same in every row of an
/// array, so found once per form (resolving a large `allOf` is costly).
#[derive(Clone)]
struct ControlSchema<'a> {
    node: Option<&'a Value>,
    view: Resolved<'a>,
    kind: FieldKind,
    required: bool,
}

/// Appends `pointer` (a data path of names) to a data pointer.
fn join(prefix: &str, path: &[String]) -> String {
    let mut out = prefix.to_owned();
    for name in path {
        out.push('/');
        out.push_str(&crate::pointer::escape(name));
    }
    out
}

/// The text of a value in an input (`""` for none).
pub(crate) fn value_text(value: Option<&Value>) -> String {
    match value {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    }
}

impl<'a> FormWriter<'a> {
    /// A writer over the spec's schema, the values to show, and the errors
    /// to show next to their fields (data pointer, message).
    pub(crate) fn new(
        r: &'a RenderInput<'a>,
        limits: &crate::Limits,
        errors: &[(String, String)],
        words: &'a Words,
    ) -> Self {
        let mut by_field: HashMap<String, Vec<String>> = HashMap::new();
        for (pointer, message) in errors {
            by_field
                .entry(pointer.clone())
                .or_default()
                .push(message.clone());
        }
        Self {
            doc: SchemaDoc::new(&r.spec.schema, limits),
            data: &r.initial_data,
            errors: by_field,
            words,
            out: String::new(),
            names: Default::default(),
            controls: 0,
            max_controls: limits.max_controls,
            limit: limits.max_controls,
            rows_nest: usize::MAX,
            in_rows: 0,
            deepest_rows: 0,
            schemas: HashMap::new(),
        }
    }

    /// The schema of the control at `pointer` below `base` ([`ControlSchema`]).
    fn control_schema(&mut self, base: &'a Value, pointer: &str) -> ControlSchema<'a> {
        let key = (base as *const Value, pointer.to_owned());
        if let Some(found) = self.schemas.get(&key) {
            return found.clone();
        }
        let node = self.doc.resolve_scope(base, pointer);
        let view = node
            .and_then(|n| self.doc.resolve(n).ok())
            .unwrap_or_default();
        let kind = crate::plan::conditions::control_kind(&self.doc, base, pointer, &view);
        let required = crate::render::lmui::is_required(&self.doc, base, pointer);
        let found = ControlSchema {
            node,
            view,
            kind,
            required,
        };
        self.schemas.insert(key, found.clone());
        found
    }

    /// Starts the form again, with arrays in `rows_nest` rows collapsed;
    /// with none as rows (0), the form holds only the plan's controls, so
    /// it is written whole. What is known of the schema is kept.
    fn restart(&mut self, rows_nest: usize) {
        self.out.clear();
        self.names.clear();
        self.controls = 0;
        self.in_rows = 0;
        self.deepest_rows = 0;
        self.rows_nest = rows_nest;
        self.max_controls = if rows_nest == 0 {
            usize::MAX
        } else {
            self.limit
        };
    }

    /// Counts one control; false once the form holds too many.
    fn take_control(&mut self) -> bool {
        self.controls += 1;
        self.controls <= self.max_controls
    }

    fn over_limit(&self) -> bool {
        self.controls > self.max_controls
    }

    /// The whole `<form>`: error summary, fields, buttons; `None` if it
    /// would hold more than `max_controls` controls.
    fn form(
        &mut self,
        r: &'a RenderInput<'a>,
        action: &str,
        errors: &[(String, String)],
    ) -> Option<String> {
        let root = &r.spec.plan.root;
        let _ = write!(
            self.out,
            r#"<form class="genui-form" method="post" action="{}" accept-charset="utf-8""#,
            attr(action)
        );
        let _ = write!(
            self.out,
            r#" data-spec-hash="{}">"#,
            attr(&r.spec.spec_hash)
        );
        self.summary(errors, root);
        let base = &r.spec.schema;
        let approval = r.approval();
        self.node(base, root, "");
        if self.over_limit() {
            return None;
        }
        if let Some(prompt) = &approval {
            self.names
                .insert(join("", &crate::render::data_path(&prompt.pointer)));
        }
        self.carry(self.data, "");
        self.out.push_str(r#"<div class="genui-actions">"#);
        match approval {
            Some(prompt) => {
                let name = attr(&join("", &crate::render::data_path(&prompt.pointer)));
                // The templates let the script show `data.action` from a
                // hosted link's fragment (checked against the token's hash).
                let _ = write!(
                    self.out,
                    r#"<p class="genui-prompt" data-template="{}" data-template-level="{}">{}</p>"#,
                    attr(&self.words.approval_needed),
                    attr(&self.words.approval_needed_level),
                    text(&prompt.text())
                );
                let _ = write!(
                    self.out,
                    r#"<button type="submit" name="{name}" value="{}" class="genui-primary">{}</button>"#,
                    attr(&value_text(Some(&prompt.approve))),
                    text(&self.words.approve)
                );
                let _ = write!(
                    self.out,
                    r#"<button type="submit" name="{name}" value="{}">{}</button>"#,
                    attr(&value_text(Some(&prompt.reject))),
                    text(&self.words.reject)
                );
            }
            None if !root.tables().is_empty() => {}
            None => {
                let _ = write!(
                    self.out,
                    r#"<button type="submit" class="genui-primary">{}</button>"#,
                    text(&self.words.submit)
                );
            }
        }
        self.out.push_str("</div></form>");
        Some(std::mem::take(&mut self.out))
    }

    /// Hidden inputs for the values of `data` no control shows (a field
    /// past a recursion cut-off), so that posting the form keeps them as
    /// the JSON formats' `initialData` does. Template rows never count.
    fn carry(&mut self, value: &Value, pointer: &str) {
        if pointer.contains(TEMPLATE_INDEX) || self.names.contains(pointer) {
            return;
        }
        let below = format!("{pointer}/");
        let inside = self
            .names
            .range(below.clone()..)
            .next()
            .is_some_and(|n| n.starts_with(&below));
        match value {
            Value::Object(map) if inside || pointer.is_empty() => {
                for (key, item) in map {
                    self.carry(item, &format!("{below}{}", crate::pointer::escape(key)));
                }
            }
            Value::Array(items) if inside => {
                for (index, item) in items.iter().enumerate() {
                    self.carry(item, &format!("{below}{index}"));
                }
            }
            Value::Null => {}
            other => {
                let text = match other {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                let _ = write!(
                    self.out,
                    r#"<input type="hidden" name="{}" value="{}">"#,
                    attr(pointer),
                    attr(&text)
                );
            }
        }
    }

    /// The error summary at the top: each error links to its field.
    fn summary(&mut self, errors: &[(String, String)], root: &Node) {
        if errors.is_empty() {
            return;
        }
        let labels: HashMap<String, String> = root
            .controls()
            .iter()
            .map(|c| {
                (
                    join("", &crate::render::data_path(&c.pointer)),
                    c.label.clone(),
                )
            })
            .collect();
        let _ = write!(
            self.out,
            r#"<div class="genui-summary" role="alert" tabindex="-1" id="genui-summary"><h2>{}</h2><ul>"#,
            text(&self.words.error_summary)
        );
        for (pointer, message) in errors {
            let label = labels.get(pointer).cloned().unwrap_or_else(|| {
                if pointer.is_empty() {
                    self.words.form_label.clone()
                } else {
                    pointer.clone()
                }
            });
            let _ = write!(
                self.out,
                r##"<li><a href="#{}">{}: {}</a></li>"##,
                attr(&id_of(pointer)),
                text(&label),
                text(message)
            );
        }
        self.out.push_str("</ul></div>");
    }

    fn node(&mut self, base: &'a Value, node: &Node, prefix: &str) {
        if self.over_limit() {
            return;
        }
        match node {
            Node::Vertical { elements } => elements.iter().for_each(|n| self.node(base, n, prefix)),
            Node::Horizontal { elements } => {
                self.out.push_str(r#"<div class="genui-row">"#);
                elements.iter().for_each(|n| self.node(base, n, prefix));
                self.out.push_str("</div>");
            }
            Node::Group {
                label,
                elements,
                rule,
                ..
            } => {
                // A section's rule sits on its fieldset: the script hides
                // (or disables) everything inside at once.
                self.out.push_str(r#"<fieldset class="genui-group""#);
                if let Some(rule) = rule {
                    self.rule_attrs(rule, prefix);
                }
                let _ = write!(self.out, "><legend>{}</legend>", text(label));
                elements.iter().for_each(|n| self.node(base, n, prefix));
                self.out.push_str("</fieldset>");
            }
            Node::Steps { steps } => {
                for (index, step) in steps.iter().enumerate() {
                    let heading = format!("genui-step-{}{}", id_of(prefix), index + 1);
                    let _ = write!(
                        self.out,
                        r#"<section class="genui-step" aria-labelledby="{heading}"><h2 id="{heading}">{}</h2>"#,
                        text(&step.label)
                    );
                    step.elements
                        .iter()
                        .for_each(|n| self.node(base, n, prefix));
                    self.out.push_str("</section>");
                }
            }
            Node::Control(control) => self.control(base, control, prefix),
            Node::Table(table) => self.table(table),
        }
    }

    /// `data-rule` (effect and schema) and `data-rule-on` (the data
    /// pointer it reads) for the script.
    fn rule_attrs(&mut self, rule: &Rule, prefix: &str) {
        let effect = match rule.effect {
            Effect::Show => "SHOW",
            Effect::Hide => "HIDE",
            Effect::Enable => "ENABLE",
            Effect::Disable => "DISABLE",
        };
        let on = join(prefix, &crate::render::data_path(&rule.pointer));
        let _ = write!(
            self.out,
            r#" data-rule="{}" data-rule-effect="{effect}" data-rule-on="{}""#,
            attr(&rule.schema.to_string()),
            attr(&on)
        );
    }

    fn control(&mut self, base: &'a Value, control: &Control, prefix: &str) {
        let element = control.widget.row().html;
        if element == HtmlElement::Buttons {
            return; // its buttons end the form
        }
        if !self.take_control() {
            return;
        }
        let pointer = join(prefix, &crate::render::data_path(&control.pointer));
        let ControlSchema {
            node,
            view,
            kind,
            required,
        } = self.control_schema(base, &control.pointer);
        let field = Field {
            required,
            in_item: prefix_has_index(prefix),
            pointer,
            control,
            view,
            kind,
        };
        self.out.push_str(r#"<div class="genui-field""#);
        if let Some(rule) = &control.rule {
            self.rule_attrs(rule, prefix);
        }
        self.out.push('>');
        match (element, &field.kind) {
            (HtmlElement::Checkbox, _) => self.checkbox(&field),
            (HtmlElement::Select, k) if k.choices.is_some() => self.select(&field),
            (HtmlElement::Radios, k) if k.choices.is_some() => self.radios(&field),
            (HtmlElement::Multi, _) => self.multi(&field, node),
            (HtmlElement::Rows, k) if k.kind == Kind::Array && self.in_rows < self.rows_nest => {
                self.array(&field, node)
            }
            (
                HtmlElement::Json | HtmlElement::Select | HtmlElement::Radios | HtmlElement::Rows,
                _,
            ) => self.json(&field),
            (HtmlElement::Textarea, _) => self.textarea(&field),
            _ => self.input(&field),
        }
        self.out.push_str("</div>");
    }

    /// The label, then help and error paragraphs; returns `aria-describedby`.
    fn label(&mut self, f: &Field<'_>, id: &str) -> String {
        let _ = write!(self.out, r#"<label for="{id}">{}"#, text(&f.control.label));
        self.required_mark(f);
        self.out.push_str("</label>");
        let (html, described) = self.help_and_error(f, id);
        self.out.push_str(&html);
        described
    }

    fn required_mark(&mut self, f: &Field<'_>) {
        if f.required {
            let _ = write!(
                self.out,
                r#"<span class="genui-required" aria-hidden="true"> *</span><span class="genui-hidden"> ({})</span>"#,
                text(&self.words.required)
            );
        }
    }

    /// Help and error paragraphs, and their ids for `aria-describedby`.
    fn help_and_error(&self, f: &Field<'_>, id: &str) -> (String, String) {
        let mut html = String::new();
        let mut described = Vec::new();
        if let Some(help) = &f.control.help {
            let _ = write!(
                html,
                r#"<p class="genui-help" id="{id}-h">{}</p>"#,
                text(help)
            );
            described.push(format!("{id}-h"));
        }
        if let Some(messages) = self.errors.get(&f.pointer) {
            let _ = write!(
                html,
                r#"<p class="genui-error" id="{id}-e">{}</p>"#,
                text(&messages.join("; "))
            );
            described.push(format!("{id}-e"));
        }
        (html, described.join(" "))
    }

    /// Attributes every control shares: id, name, describedby, invalid,
    /// required (outside array rows, whose empty rows must not block the
    /// form: there `aria-required`), read-only.
    fn common(&mut self, f: &Field<'_>, id: &str, described: &str, required_ok: bool) {
        self.names.insert(f.pointer.clone());
        let _ = write!(self.out, r#" id="{id}" name="{}""#, attr(&f.pointer));
        if !described.is_empty() {
            let _ = write!(self.out, r#" aria-describedby="{described}""#);
        }
        if self.errors.contains_key(&f.pointer) {
            self.out.push_str(r#" aria-invalid="true""#);
        }
        if f.required && required_ok {
            self.out.push_str(if f.in_item {
                r#" aria-required="true""#
            } else {
                " required"
            });
        }
        if f.control.read_only {
            self.out.push_str(" readonly");
        }
    }

    fn value(&self, f: &Field<'_>) -> Option<&'a Value> {
        self.data.pointer(&f.pointer)
    }

    fn input(&mut self, f: &Field<'_>) {
        let id = id_of(&f.pointer);
        let described = self.label(f, &id);
        let mut value = value_text(self.value(f)).to_owned();
        if value.is_empty() {
            if let Some(c) = &f.kind.constant {
                value = value_text(Some(c));
            }
        }
        let (kind, data_kind) = input_type(f, &mut value);
        let _ = write!(self.out, r#"<input type="{kind}""#);
        self.common(f, &id, &described, true);
        if let Some(k) = data_kind {
            let _ = write!(self.out, r#" data-kind="{k}""#);
        }
        constraints(&mut self.out, &f.view, &f.kind, kind);
        if let Some(p) = &f.control.placeholder {
            let _ = write!(self.out, r#" placeholder="{}""#, attr(p));
        }
        let _ = write!(self.out, r#" value="{}">"#, attr(&value));
    }

    fn textarea(&mut self, f: &Field<'_>) {
        let id = id_of(&f.pointer);
        let described = self.label(f, &id);
        self.out.push_str(r#"<textarea rows="4""#);
        self.common(f, &id, &described, true);
        constraints(&mut self.out, &f.view, &f.kind, "textarea");
        if let Some(p) = &f.control.placeholder {
            let _ = write!(self.out, r#" placeholder="{}""#, attr(p));
        }
        let value = value_text(self.value(f));
        let _ = write!(self.out, ">{}</textarea>", text(&value));
    }

    /// A value no native control edits (alternatives, free-form objects):
    /// JSON text, parsed by the schema on the way back.
    fn json(&mut self, f: &Field<'_>) {
        let id = id_of(&f.pointer);
        let described = self.label(f, &id);
        let _ = write!(
            self.out,
            r#"<p class="genui-help">{}</p>"#,
            text(&self.words.json_hint)
        );
        self.out
            .push_str(r#"<textarea rows="4" data-kind="json" spellcheck="false""#);
        self.common(f, &id, &described, true);
        let value = match self.value(f) {
            None | Some(Value::Null) => String::new(),
            Some(v) => serde_json::to_string_pretty(v).unwrap_or_default(),
        };
        let _ = write!(self.out, ">{}</textarea>", text(&value));
    }

    /// A boolean: the checkbox's `true`, after a hidden `false` when the
    /// data holds a value (the checked box wins; the reader of a post
    /// knows the pair).
    fn checkbox(&mut self, f: &Field<'_>) {
        let id = id_of(&f.pointer);
        let checked = self.value(f) == Some(&Value::Bool(true));
        let (help, described) = self.help_and_error(f, &id);
        // Only a value the data has is posted as `false` when unchecked:
        // an untouched box stays unset, as in the JSON formats.
        if matches!(self.value(f), Some(Value::Bool(_))) {
            let _ = write!(
                self.out,
                r#"<input type="hidden" name="{}" value="false">"#,
                attr(&f.pointer)
            );
        }
        self.out.push_str(
            r#"<div class="genui-check"><input type="checkbox" value="true" data-kind="boolean""#,
        );
        self.common(f, &id, &described, false);
        if checked {
            self.out.push_str(" checked");
        }
        let _ = write!(self.out, r#"><label for="{id}">{}"#, text(&f.control.label));
        self.required_mark(f);
        self.out.push_str("</label></div>");
        self.out.push_str(&help);
    }

    fn select(&mut self, f: &Field<'_>) {
        let id = id_of(&f.pointer);
        let described = self.label(f, &id);
        self.out.push_str("<select");
        self.common(f, &id, &described, true);
        self.out.push('>');
        let current = self.value(f).map(|v| value_text(Some(v)));
        let _ = write!(
            self.out,
            r#"<option value="">{}</option>"#,
            text(&self.words.choose)
        );
        let choices = f.kind.choices.as_deref().unwrap_or_default();
        for ((value, _), label) in choices.iter().zip(self.option_labels(f, choices)) {
            let v = value_text(Some(value));
            let selected = if current.as_deref() == Some(v.as_str()) && self.value(f).is_some() {
                " selected"
            } else {
                ""
            };
            let _ = write!(
                self.out,
                r#"<option value="{}"{selected}{}>{}</option>"#,
                attr(&v),
                typed_value(value),
                text(&label)
            );
        }
        self.out.push_str("</select>");
    }

    /// The words each of a field's choices is shown with, in the page's
    /// language ([`crate::render::choices`]).
    fn option_labels(&self, f: &Field<'_>, choices: &[(Value, Option<String>)]) -> Vec<String> {
        let hints = FieldHints::at(
            &f.control.pointer,
            f.view.str("title"),
            f.view.str("format"),
        );
        let lang = crate::render::words::Lang::pick(Some(&self.words.lang));
        crate::render::choices::choice_labels(hints, choices, lang)
    }

    /// Radio buttons or checkboxes in a fieldset whose legend is the label.
    fn choices(&mut self, f: &Field<'_>, choices: &[(Value, Option<String>)], multiple: bool) {
        self.names.insert(f.pointer.clone());
        let id = id_of(&f.pointer);
        let _ = write!(
            self.out,
            r#"<fieldset class="genui-choices" id="{id}"><legend>{}"#,
            text(&f.control.label)
        );
        self.required_mark(f);
        self.out.push_str("</legend>");
        let (help, described) = self.help_and_error(f, &id);
        self.out.push_str(&help);
        let current: Vec<String> = match self.value(f) {
            Some(Value::Array(items)) if multiple => {
                items.iter().map(|v| value_text(Some(v))).collect()
            }
            Some(v) if !multiple => vec![value_text(Some(v))],
            _ => Vec::new(),
        };
        let labels = self.option_labels(f, choices);
        for (index, ((value, _), label)) in choices.iter().zip(labels).enumerate() {
            let v = value_text(Some(value));
            let option_id = format!("{id}-{index}");
            let kind = if multiple { "checkbox" } else { "radio" };
            let _ = write!(
                self.out,
                r#"<div class="genui-check"><input type="{kind}" id="{option_id}" name="{}" value="{}""#,
                attr(&f.pointer),
                attr(&v)
            );
            self.out.push_str(&typed_value(value));
            if !described.is_empty() {
                let _ = write!(self.out, r#" aria-describedby="{described}""#);
            }
            if f.required && !multiple && !f.in_item {
                self.out.push_str(" required");
            }
            if multiple {
                self.out.push_str(r#" data-multi="true""#);
            }
            if f.control.read_only {
                self.out.push_str(" disabled");
            }
            if current.contains(&v) {
                self.out.push_str(" checked");
            }
            let _ = write!(
                self.out,
                r#"><label for="{option_id}">{}</label></div>"#,
                text(&label)
            );
        }
        self.out.push_str("</fieldset>");
    }

    fn radios(&mut self, f: &Field<'_>) {
        let choices = f.kind.choices.clone().unwrap_or_default();
        self.choices(f, &choices, false);
    }

    fn multi(&mut self, f: &Field<'_>, node: Option<&'a Value>) {
        let items = node
            .and_then(|n| self.doc.resolve_scope(n, "/items"))
            .and_then(|n| self.doc.resolve(n).ok());
        match items.and_then(|i| i.kind().choices) {
            Some(choices) => self.choices(f, &choices, true),
            None => self.json(f),
        }
    }

    /// An array: its items and empty rows, a template row, add and remove.
    fn array(&mut self, f: &Field<'_>, node: Option<&'a Value>) {
        let Some(items) = node.and_then(|n| self.doc.resolve_scope(n, "/items")) else {
            return self.json(f);
        };
        self.names.insert(f.pointer.clone());
        let id = id_of(&f.pointer);
        let present = match self.value(f) {
            Some(Value::Array(list)) => list.len(),
            _ => 0,
        };
        let max = f
            .view
            .get("maxItems")
            .and_then(Value::as_u64)
            .map_or(usize::MAX, |m| m as usize);
        let min = f.view.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
        let rows = (present + EMPTY_ROWS)
            .min(max.max(present))
            .max(min)
            .min(present + 50);
        let _ = write!(
            self.out,
            r#"<fieldset class="genui-array" id="{id}" data-pointer="{}" data-next="{rows}" data-max="{}"><legend>{}"#,
            attr(&f.pointer),
            if max == usize::MAX {
                String::new()
            } else {
                max.to_string()
            },
            text(&f.control.label)
        );
        self.required_mark(f);
        self.out.push_str("</legend>");
        let (help, _) = self.help_and_error(f, &id);
        self.out.push_str(&help);
        self.out.push_str(r#"<ol class="genui-items">"#);
        self.deepest_rows = self.deepest_rows.max(self.in_rows);
        self.in_rows += 1;
        for index in 0..rows {
            self.row(f, items, &index.to_string(), index + 1);
        }
        self.out.push_str("</ol><template>");
        self.row(f, items, TEMPLATE_INDEX, 0);
        self.in_rows -= 1;
        let _ = write!(
            self.out,
            r#"</template><button type="button" class="genui-add" hidden>{} <span class="genui-hidden">({})</span></button></fieldset>"#,
            text(&self.words.add),
            text(&f.control.label)
        );
    }

    /// One row of an array: the item's controls (its `detail`, or one
    /// input for a scalar item) under `/<array>/<index>`.
    fn row(&mut self, f: &Field<'_>, items: &'a Value, index: &str, number: usize) {
        let prefix = format!("{}/{index}", f.pointer);
        let legend = format!(
            "{} {}",
            f.control.label,
            if number == 0 {
                String::new()
            } else {
                number.to_string()
            }
        );
        let _ = write!(
            self.out,
            r#"<li class="genui-item"><fieldset><legend data-label="{}">{}</legend>"#,
            attr(&f.control.label),
            text(legend.trim_end())
        );
        let item_view = self.doc.resolve(items).ok().unwrap_or_default();
        let item_kind = item_view.kind();
        match &f.control.detail {
            Some(detail) => self.node(items, detail, &prefix),
            None if !self.take_control() => {}
            None => {
                let widget = item_widget(&item_kind);
                let mut control = Control::new(
                    "",
                    format!(
                        "{} {}",
                        f.control.label,
                        if number == 0 {
                            String::new()
                        } else {
                            number.to_string()
                        }
                    )
                    .trim_end(),
                    widget,
                );
                control.read_only = f.control.read_only;
                let field = Field {
                    pointer: prefix.clone(),
                    control: &control,
                    view: item_view,
                    kind: item_kind,
                    required: false,
                    in_item: true,
                };
                self.out.push_str(r#"<div class="genui-field">"#);
                match widget.row().html {
                    HtmlElement::Checkbox => self.checkbox(&field),
                    HtmlElement::Select => self.select(&field),
                    HtmlElement::Json => self.json(&field),
                    _ => self.input(&field),
                }
                self.out.push_str("</div>");
            }
        }
        let _ = write!(
            self.out,
            r#"<button type="button" class="genui-remove" hidden>{} <span class="genui-hidden">{}</span></button></fieldset></li>"#,
            text(&self.words.remove),
            text(legend.trim_end())
        );
    }

    /// A display's table: caption, header row, one row per record.
    fn table(&mut self, t: &Table) {
        let rows = crate::plan::display::table::rows(&t.dataset, self.data);
        let _ = write!(
            self.out,
            r#"<div class="genui-table"><table><caption>{}</caption><thead><tr>"#,
            text(&t.dataset.title)
        );
        let columns = serde_json::to_value(&t.dataset.columns).unwrap_or_default();
        let columns: Vec<(String, String)> = columns
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| {
                let key = c
                    .get("key")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned();
                let label = c
                    .get("label")
                    .and_then(Value::as_str)
                    .map(str::to_owned)
                    .unwrap_or_else(|| key.clone());
                (key, label)
            })
            .collect();
        for (_, label) in &columns {
            let _ = write!(self.out, r#"<th scope="col">{}</th>"#, text(label));
        }
        self.out.push_str("</tr></thead><tbody>");
        for row in &rows {
            self.out.push_str("<tr>");
            for (key, _) in &columns {
                let _ = write!(
                    self.out,
                    "<td>{}</td>",
                    text(&value_text(row.get(key.as_str())))
                );
            }
            self.out.push_str("</tr>");
        }
        self.out.push_str("</tbody></table></div>");
    }
}

/// ` data-value="<JSON>"` for a choice that is not a string, so the
/// script reads it with its type (the server types it by the schema).
fn typed_value(value: &Value) -> String {
    match value {
        Value::String(_) => String::new(),
        other => format!(r#" data-value="{}""#, attr(&other.to_string())),
    }
}

/// Whether a data pointer runs through an array item (a number token).
fn prefix_has_index(prefix: &str) -> bool {
    prefix
        .split('/')
        .any(|t| !t.is_empty() && (t.bytes().all(|b| b.is_ascii_digit()) || t == TEMPLATE_INDEX))
}

/// The widget of a scalar array item.
fn item_widget(kind: &FieldKind) -> Widget {
    match kind.kind {
        _ if kind.choices.is_some() => Widget::Select,
        Kind::Boolean => Widget::Checkbox,
        Kind::Integer => Widget::Integer,
        Kind::Number => Widget::Number,
        Kind::String => match kind.format.as_deref() {
            Some("email" | "idn-email") => Widget::Email,
            Some("uri" | "url" | "iri") => Widget::Url,
            Some("date") => Widget::Date,
            Some("date-time") => Widget::DateTime,
            Some("time") => Widget::Time,
            _ => Widget::Text,
        },
        _ => Widget::Object,
    }
}

/// One control being written.
struct Field<'c> {
    pointer: String,
    control: &'c Control,
    view: Resolved<'c>,
    kind: FieldKind,
    required: bool,
    in_item: bool,
}

/// The input `type` (and `data-kind` for the script) of a control; a
/// date-time or time value is shown without its `Z`, as the browser's
/// pickers take it, and read back as UTC. A value such a picker cannot
/// show (another offset) keeps a text input.
fn input_type(f: &Field<'_>, value: &mut String) -> (&'static str, Option<&'static str>) {
    let number_kind = if f.kind.kind == Kind::Integer {
        "integer"
    } else {
        "number"
    };
    let HtmlElement::Input(input) = f.control.widget.row().html else {
        return by_kind(f, number_kind);
    };
    match input {
        Some("number") => ("number", Some(number_kind)),
        Some("datetime-local") => match value.strip_suffix('Z') {
            Some(v) if v.len() >= 16 && v.as_bytes().get(10) == Some(&b'T') => {
                *value = v.to_owned();
                ("datetime-local", None)
            }
            None if value.is_empty() => ("datetime-local", None),
            _ => ("text", None),
        },
        Some("time") => match value.strip_suffix('Z') {
            Some(v) if (5..=12).contains(&v.len()) => {
                *value = v.to_owned();
                ("time", None)
            }
            None if value.is_empty() => ("time", None),
            _ => ("text", None),
        },
        Some(other) => (other, None),
        None => by_kind(f, number_kind),
    }
}

/// The input `type` of a control whose widget names none: a number for a
/// numeric field, text else.
fn by_kind(f: &Field<'_>, number_kind: &'static str) -> (&'static str, Option<&'static str>) {
    match f.kind.kind {
        Kind::Integer | Kind::Number => ("number", Some(number_kind)),
        _ => ("text", None),
    }
}

/// The schema's constraints as native attributes, where the browser reads
/// them as JSON Schema does.
fn constraints(out: &mut String, view: &Resolved<'_>, kind: &FieldKind, input: &str) {
    let number = |key: &str| view.get(key).and_then(Value::as_f64).map(|n| n.to_string());
    if input == "number" {
        if let Some(min) = number("minimum") {
            let _ = write!(out, r#" min="{min}""#);
        }
        if let Some(max) = number("maximum") {
            let _ = write!(out, r#" max="{max}""#);
        }
        let step = number("multipleOf").unwrap_or_else(|| {
            if kind.kind == Kind::Integer {
                "1".into()
            } else {
                "any".into()
            }
        });
        let _ = write!(out, r#" step="{step}""#);
    }
    if matches!(input, "text" | "email" | "url" | "textarea") {
        if let Some(max) = view.get("maxLength").and_then(Value::as_u64) {
            let _ = write!(out, r#" maxlength="{max}""#);
        }
        if let Some(min) = view.get("minLength").and_then(Value::as_u64) {
            let _ = write!(out, r#" minlength="{min}""#);
        }
    }
    if matches!(input, "text" | "email" | "url") {
        if let Some(pattern) = view.str("pattern").and_then(html_pattern) {
            let _ = write!(out, r#" pattern="{}""#, attr(&pattern));
        }
    }
}

/// A JSON Schema `pattern` as an HTML `pattern`, when both read it alike:
/// HTML anchors the whole value and compiles with the `v` flag, so only an
/// anchored pattern (`^...$`) whose character classes hold nothing the
/// `v` flag reads differently is passed on; the server checks the rest.
pub(crate) fn html_pattern(pattern: &str) -> Option<String> {
    let inner = pattern.strip_prefix('^')?.strip_suffix('$')?;
    if inner.ends_with('\\')
        || inner.contains("(?<")
        || inner.contains("\\p")
        || inner.contains("\\P")
    {
        return None;
    }
    let mut in_class = false;
    let mut escaped = false;
    let mut previous = ' ';
    for c in inner.chars() {
        if escaped {
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if in_class {
            match c {
                ']' => in_class = false,
                '(' | ')' | '[' | '{' | '}' | '/' | '|' => return None,
                '-' if previous == '[' => return None,
                '&' | '!' | '#' | '$' | '%' | '*' | '+' | ',' | '.' | ':' | ';' | '<' | '='
                | '>' | '?' | '@' | '^' | '`' | '~'
                    if previous == c =>
                {
                    return None
                }
                _ => {}
            }
        } else if c == '[' {
            in_class = true;
        }
        previous = if in_class && c == '[' { '[' } else { c };
    }
    if in_class || escaped {
        return None;
    }
    // A class ending in `-` (`[a-]`) is also a `v`-flag syntax error.
    if inner.contains("-]") {
        return None;
    }
    Some(inner.to_owned())
}
