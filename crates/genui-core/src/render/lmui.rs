//! The LMUI projection (seed 003): `{response_text, ui_components}`.
//!
//! Every control becomes one component. The seed's `text_input` and
//! `interactive_select` are used where they fit; the extended components the
//! seed lists (buttons, date/time pickers, sliders, checkboxes and radio
//! buttons, file uploads) cover the rest, plus `repeating_group` for arrays
//! of objects and `json_input` for values no simple component can edit.
//!
//! Layout and conditions, which LMUI's flat list has no containers for,
//! travel as optional attributes a client may use and may ignore (the form
//! still works as one column with every field shown):
//!
//! - `group`: the enclosing section's (or step's) label;
//! - `row`: components with the same `row` (the first one's id) sit side by
//!   side; mobile layouts have none;
//! - `wizard_step`: the 1-based wizard step the component belongs to;
//! - `rule`: `{effect, field, schema}`: `show`/`hide`/`enable`/`disable` the
//!   component when the value of component `field` (or, for an object, the
//!   nested values under that id prefix; no `field`: the whole form's values
//!   as nested data) validates against the JSON Schema `schema`.
//!
//! Component ids are the field's data path joined with `.`; inside a name,
//! `~` is written `~0` and `.` is written `~1` (as in JSON Pointer), so ids
//! are reversible: [`unflatten`] turns submitted `values` back into data.
//! Items of a `repeating_group` use ids relative to the item.
//!
//! A layout without tables is the same for every request of a spec but for
//! the components' `value`s, so its components are kept per spec as JSON
//! text without them ([`data_free_components`], in the isolate's projection
//! memo) and each answer splices the request's values in ([`render_text`]).

use super::RenderInput;
use crate::error::Result;
use crate::plan::display::table;
use crate::plan::{Control, Effect, Node, Rule, Widget};
use crate::render::choices::{plain_choice_labels, FieldHints};
use crate::render::words::Lang;
use crate::schema::{FieldKind, Resolved, SchemaDoc};
use crate::terms::limits::Limits;
use serde_json::{json, Map, Value};

/// The assistant's words above the components, to the person: the lead
/// line where the form has one, else its title (never the request).
fn response_text(r: &RenderInput<'_>) -> String {
    r.lead().unwrap_or_else(|| r.title())
}

/// The LMUI message.
pub(crate) fn render(r: &RenderInput<'_>) -> Value {
    let limits = Limits::default();
    let doc = SchemaDoc::new(&r.spec.schema, &limits);
    let mut components = Vec::new();
    layer(
        &doc,
        &r.spec.schema,
        &r.spec.plan.root,
        &r.initial_data,
        &Place::in_lang(r.lang()),
        &mut components,
    );
    let approval = r.approval();
    let mut response_text = match &approval {
        Some(prompt) => prompt.text(),
        None => response_text(r),
    };
    response_text = crate::render::text::plain(&response_text).into_owned();
    let tables = r.spec.plan.root.tables();
    if !tables.is_empty()
        && tables
            .iter()
            .all(|t| table::rows(&t.dataset, &r.initial_data).is_empty())
    {
        response_text = format!(
            "{}: no data to display.",
            response_text.trim_end_matches('.')
        );
    }
    match approval {
        // A display takes no submission.
        _ if !tables.is_empty() => {}
        // The decision's buttons submit the form with their value.
        Some(prompt) => {
            let id = flatten_id(&super::data_path(&prompt.pointer));
            components.retain(|c| c["id"] != id.as_str());
            components.push(json!({"type": "button", "id": id, "label": r.lang().text(super::words::Text::Approve), "action": "approve", "value": prompt.approve, "style": "primary"}));
            components.push(json!({"type": "button", "id": id, "label": r.lang().text(super::words::Text::Reject), "action": "reject", "value": prompt.reject, "style": "secondary"}));
        }
        None => components.push(json!({"type": "button", "id": "submit", "label": r.submit_label(), "action": "submit"})),
    }
    // Built by hand: `json!` would serialise every component into a copy.
    let mut message = Map::new();
    message.insert("response_text".into(), response_text.into());
    message.insert("ui_components".into(), Value::Array(components));
    message.insert("metadata".into(), Value::Object(r.meta()));
    Value::Object(message)
}

/// The LMUI message as JSON text: the same bytes as [`render`] serialised.
/// A form without tables or a decision (the answers whose components do not
/// depend on the data but for their values) is written from its components'
/// text kept per spec ([`data_free_components`]) with this request's values
/// spliced in; any other is rendered as a value.
pub(crate) fn render_text(r: &RenderInput<'_>) -> String {
    let approval = r.approval();
    if approval.is_some() || has_table(&r.spec.plan.root) {
        return serde_json::to_string(&render(r)).unwrap_or_default();
    }
    let response_text = response_text(r);
    let response_text = crate::render::text::plain(&response_text);
    let submit =
        json!({"type": "button", "id": "submit", "label": r.submit_label(), "action": "submit"});
    let slots = data_free_components(r);
    let mut out =
        String::with_capacity(slots.iter().map(|(text, _)| text.len() + 32).sum::<usize>() + 512);
    out.push_str("{\"response_text\":");
    out.push_str(&serde_json::to_string(&response_text).unwrap_or_default());
    out.push_str(",\"ui_components\":[");
    for (text, path) in slots.iter() {
        // `text` is the component without its closing brace; `value` is its last field.
        out.push_str(text);
        if let Some(value) = value_at(&r.initial_data, path) {
            out.push_str(",\"value\":");
            out.push_str(&serde_json::to_string(value).unwrap_or_default());
        }
        out.push_str("},");
    }
    out.push_str(&serde_json::to_string(&submit).unwrap_or_default());
    out.push_str("],\"metadata\":");
    out.push_str(&serde_json::to_string(&r.meta()).unwrap_or_default());
    out.push('}');
    out
}

/// A control's component as JSON text without its `value` and closing
/// brace, and the data path its value is read from.
type Slot = (String, Vec<String>);

/// The components of a spec without tables, written once per spec: resolving
/// every control's schema node (kind, choices, required) and serialising it
/// was most of an LMUI hit, and none of it depends on the request's data.
fn data_free_components(r: &RenderInput<'_>) -> std::rc::Rc<Vec<Slot>> {
    let make = || {
        let limits = Limits::default();
        let doc = SchemaDoc::new(&r.spec.schema, &limits);
        let mut slots = Vec::new();
        controls(
            &doc,
            &r.spec.schema,
            &r.spec.plan.root,
            &Place::in_lang(r.lang()),
            &mut slots,
        );
        slots
    };
    let bytes = |slots: &Vec<Slot>| {
        slots
            .iter()
            .map(|(text, path)| text.len() + 48 + path.iter().map(|p| p.len() + 24).sum::<usize>())
            .sum()
    };
    crate::cache::memo::projection(&r.memo_key(), "lmui", make, bytes)
}

/// Whether a table (whose rows and chart come from the data) sits in the
/// form's layout; array items' details are drawn without data.
fn has_table(node: &Node) -> bool {
    match node {
        Node::Vertical { elements }
        | Node::Horizontal { elements }
        | Node::Group { elements, .. } => elements.iter().any(has_table),
        Node::Steps { steps } => steps.iter().any(|step| step.elements.iter().any(has_table)),
        Node::Control(_) => false,
        Node::Table(_) => true,
    }
}

/// [`layer`] for a layout without tables, keeping each component's data path.
fn controls<'p>(
    doc: &SchemaDoc<'_>,
    base: &Value,
    node: &'p Node,
    place: &Place<'p>,
    out: &mut Vec<Slot>,
) {
    match node {
        Node::Control(control) => {
            let (component, path) = data_free_component(doc, base, control, place);
            let mut text = serde_json::to_string(&component).unwrap_or_default();
            text.pop(); // the closing brace: the request's `value` may follow
            out.push((text, path));
        }
        Node::Table(_) => {}
        _ => children(node, place, &mut |child, inner| {
            controls(doc, base, child, inner, out)
        }),
    }
}

/// Where a control sits: enclosing section, wizard step, row, and the rule
/// of an enclosing section.
#[derive(Debug, Clone, Default)]
struct Place<'p> {
    /// The language option labels are written in.
    lang: Lang,
    group: Option<&'p str>,
    step: Option<usize>,
    row: Option<String>,
    rule: Option<&'p Rule>,
}

impl Place<'_> {
    /// The root of a form whose option labels are in `lang`.
    fn in_lang(lang: Lang) -> Self {
        Self {
            lang,
            ..Self::default()
        }
    }
}

/// Appends the components of one layer.
fn layer<'p>(
    doc: &SchemaDoc<'_>,
    base: &Value,
    node: &'p Node,
    data: &Value,
    place: &Place<'p>,
    out: &mut Vec<Value>,
) {
    match node {
        Node::Control(control) => out.push(component(doc, base, control, data, place)),
        Node::Table(t) => {
            // LMUI has no array renderer to draw a table with: our `table`
            // and `chart` components.
            out.push(table::lmui_table(&t.dataset, table::rows(&t.dataset, data)));
            if let (Some(id), Some(spec)) =
                (table::chart_id(&t.dataset), table::draw(&t.dataset, data))
            {
                out.push(
                    json!({"type": "chart", "id": id, "label": t.dataset.title, "vega_lite": spec}),
                );
            }
        }
        _ => children(node, place, &mut |child, inner| {
            layer(doc, base, child, data, inner, out)
        }),
    }
}

/// Calls `visit` on each child of a container node with the place it sits in.
fn children<'p>(node: &'p Node, place: &Place<'p>, visit: &mut dyn FnMut(&'p Node, &Place<'p>)) {
    match node {
        Node::Vertical { elements } => elements.iter().for_each(|n| visit(n, place)),
        Node::Horizontal { elements } => {
            let first = elements.first().and_then(|n| {
                n.controls()
                    .first()
                    .map(|c| flatten_id(&super::data_path(&c.pointer)))
            });
            let inner = Place {
                row: first,
                ..place.clone()
            };
            elements.iter().for_each(|n| visit(n, &inner));
        }
        Node::Group {
            label,
            elements,
            rule,
            ..
        } => {
            let inner = Place {
                group: Some(label),
                rule: rule.as_ref().or(place.rule),
                ..place.clone()
            };
            elements.iter().for_each(|n| visit(n, &inner));
        }
        Node::Steps { steps } => {
            for (index, step) in steps.iter().enumerate() {
                let inner = Place {
                    group: Some(&step.label),
                    step: Some(index + 1),
                    ..place.clone()
                };
                step.elements.iter().for_each(|n| visit(n, &inner));
            }
        }
        Node::Control(_) | Node::Table(_) => {}
    }
}

/// A plan rule as a component's `rule`.
fn rule_json(rule: &Rule) -> Value {
    let effect = match rule.effect {
        Effect::Show => "show",
        Effect::Hide => "hide",
        Effect::Enable => "enable",
        Effect::Disable => "disable",
    };
    let mut out = json!({"effect": effect, "schema": rule.schema});
    let path = super::data_path(&rule.pointer);
    if !path.is_empty() {
        out["field"] = flatten_id(&path).into();
    }
    out
}

fn component(
    doc: &SchemaDoc<'_>,
    base: &Value,
    control: &Control,
    data: &Value,
    place: &Place<'_>,
) -> Value {
    let (mut c, path) = data_free_component(doc, base, control, place);
    if let Some(value) = value_at(data, &path) {
        c.insert("value".into(), value.clone());
    }
    Value::Object(c)
}

/// A control's component without its `value`, and the value's data path.
fn data_free_component(
    doc: &SchemaDoc<'_>,
    base: &Value,
    control: &Control,
    place: &Place<'_>,
) -> (Map<String, Value>, Vec<String>) {
    let path = super::data_path(&control.pointer);
    let node = doc.resolve_scope(base, &control.pointer);
    let view = node.and_then(|n| doc.resolve(n).ok()).unwrap_or_default();
    let kind = crate::plan::conditions::control_kind(doc, base, &control.pointer, &view);
    let mut c = Map::new();
    c.insert("type".into(), component_type(control.widget, &kind).into());
    c.insert("id".into(), flatten_id(&path).into());
    c.insert("label".into(), control.label.clone().into());
    add_specifics(&mut c, doc, control, &view, &kind, node, place.lang);
    if let Some(row) = &place.row {
        c.insert("row".into(), row.clone().into());
    }
    if let Some(step) = place.step {
        c.insert("wizard_step".into(), step.into());
    }
    if let Some(rule) = control.rule.as_ref().or(place.rule) {
        c.insert("rule".into(), rule_json(rule));
    }
    if let Some(help) = &control.help {
        c.insert("help".into(), help.clone().into());
    }
    if let Some(placeholder) = &control.placeholder {
        c.insert("placeholder".into(), placeholder.clone().into());
    }
    if control.read_only {
        c.insert("read_only".into(), true.into());
    }
    if is_required(doc, base, &control.pointer) {
        c.insert("required".into(), true.into());
    }
    if let Some(group) = place.group {
        c.insert("group".into(), group.into());
    }
    (c, path)
}

/// Whether the field at `pointer` is listed in its parent's `required`.
pub(crate) fn is_required(doc: &SchemaDoc<'_>, base: &Value, pointer: &str) -> bool {
    let Some((parent, name)) = pointer.rsplit_once("/properties/") else {
        return false;
    };
    let parent = doc.resolve_scope(base, parent);
    parent.is_some_and(|p| doc.node_requires(p, &crate::pointer::unescape(name)))
}

/// The widget table's LMUI column, except that a widget on a field it
/// cannot edit (a model's `select` without choices, an `array` control on
/// something else) falls back to raw JSON.
fn component_type(widget: Widget, kind: &FieldKind) -> &'static str {
    match widget {
        Widget::Select if kind.choices.is_none() => "json_input",
        Widget::Array if kind.kind != crate::schema::Kind::Array => "json_input",
        // An external `$ref`: any JSON (schema/external.rs).
        Widget::Textarea if kind.kind == crate::schema::Kind::Any => "json_input",
        _ => widget.row().lmui,
    }
}

fn add_specifics(
    c: &mut Map<String, Value>,
    doc: &SchemaDoc<'_>,
    control: &Control,
    view: &Resolved,
    kind: &FieldKind,
    node: Option<&Value>,
    lang: Lang,
) {
    let hints = FieldHints::at(&control.pointer, view.str("title"), view.str("format"));
    let input_type = control.widget.row().lmui_input;
    if let Some(t) = input_type {
        c.insert("input_type".into(), t.into());
    }
    if let Some(choices) = &kind.choices {
        c.insert("options".into(), options(choices, hints, lang));
    }
    if control.widget == Widget::MultiSelect {
        c.insert("multiple".into(), true.into());
        let items = node
            .and_then(|n| doc.resolve_scope(n, "/items"))
            .and_then(|n| doc.resolve(n).ok());
        if let Some(choices) = items.as_ref().and_then(|i| i.kind().choices) {
            c.insert("options".into(), options(&choices, hints, lang));
        }
    }
    for (keyword, key) in [
        ("minimum", "min"),
        ("maximum", "max"),
        ("multipleOf", "step"),
    ] {
        if let Some(v) = view.get(keyword) {
            c.insert(key.into(), v.clone());
        }
    }
    if control.widget == Widget::File {
        if let Some(accept) = view.str("contentMediaType") {
            c.insert("accept".into(), accept.into());
        }
    }
    if let (Some(detail), Some(items)) = (
        &control.detail,
        node.and_then(|n| doc.resolve_scope(n, "/items")),
    ) {
        let mut inner = Vec::new();
        layer(
            doc,
            items,
            detail,
            &Value::Null,
            &Place::in_lang(lang),
            &mut inner,
        );
        c.insert("components".into(), Value::Array(inner));
    }
}

/// LMUI options: each choice's label ([`crate::render::choices`]) as `text`.
fn options(choices: &[(Value, Option<String>)], hints: FieldHints<'_>, lang: Lang) -> Value {
    let labels = plain_choice_labels(hints, choices, lang);
    let list: Vec<Value> = choices
        .iter()
        .zip(labels)
        .map(|((value, _), text)| json!({"text": text, "value": value}))
        .collect();
    Value::Array(list)
}

fn value_at<'a>(data: &'a Value, path: &[String]) -> Option<&'a Value> {
    path.iter()
        .try_fold(data, |value, key| value.get(key.as_str()))
}

/// A data path as a component id: names joined with `.`, `~` -> `~0`,
/// `.` -> `~1`. The root value is `value`.
pub(crate) fn flatten_id(path: &[String]) -> String {
    if path.is_empty() {
        return "value".to_owned();
    }
    path.iter()
        .map(|name| name.replace('~', "~0").replace('.', "~1"))
        .collect::<Vec<_>>()
        .join(".")
}

/// The data path of a component id (inverse of [`flatten_id`]).
pub(crate) fn split_id(id: &str) -> Vec<String> {
    id.split('.')
        .map(|part| part.replace("~1", ".").replace("~0", "~"))
        .collect()
}

/// How many objects an id nests its value in: one per `.`-separated name
/// (none for the root id `value`).
pub(crate) fn id_depth(id: &str) -> usize {
    if id == "value" {
        0
    } else {
        id.bytes().filter(|&b| b == b'.').count() + 1
    }
}

/// Rebuilds nested data from LMUI `values` keyed by component id. Values of
/// a `repeating_group` are arrays of objects keyed by item-relative ids.
///
/// `at` is the pointer of `values` in the request body and `above` the
/// number of arrays and objects the rebuilt object sits in. Each id's depth
/// is counted before its objects are made: one too deep for
/// `limits` is refused (`body_too_deep`, at that id's pointer).
pub(crate) fn unflatten(
    values: &Map<String, Value>,
    at: &str,
    above: usize,
    limits: &Limits,
) -> Result<Value> {
    limits.check_built_depth(above + 1, at)?;
    let mut out = Value::Object(Map::new());
    for (id, value) in values {
        let pointer = format!("{at}/{}", crate::pointer::escape(id));
        let depth = above + id_depth(id);
        let value = match value {
            Value::Array(items) if items.iter().all(Value::is_object) && !items.is_empty() => {
                limits.check_built_depth(depth + 1, &pointer)?;
                let rows = items.iter().filter_map(Value::as_object).enumerate();
                Value::Array(
                    rows.map(|(i, item)| {
                        unflatten(item, &format!("{pointer}/{i}"), depth + 1, limits)
                    })
                    .collect::<Result<_>>()?,
                )
            }
            other => {
                limits.check_value_depth(other, depth, &pointer)?;
                other.clone()
            }
        };
        if id == "value" {
            return Ok(value);
        }
        insert_path(&mut out, &split_id(id), value);
    }
    Ok(out)
}

fn insert_path(target: &mut Value, path: &[String], value: Value) {
    let Some((last, parents)) = path.split_last() else {
        return;
    };
    let mut cursor = target;
    for parent in parents {
        if !cursor.get(parent.as_str()).is_some_and(Value::is_object) {
            if let Value::Object(map) = cursor {
                map.insert(parent.clone(), Value::Object(Map::new()));
            }
        }
        cursor = match cursor.get_mut(parent.as_str()) {
            Some(next) => next,
            None => return,
        };
    }
    if let Value::Object(map) = cursor {
        map.insert(last.clone(), value);
    }
}

/// LMUI `ui_components` (`format=lmui`).
pub(crate) struct Lmui;

impl super::FormatCompiler for Lmui {
    fn names(&self) -> &'static [&'static str] {
        &["lmui"]
    }

    fn format(&self) -> crate::Format {
        crate::Format::Lmui
    }

    fn contract(&self) -> crate::Contract {
        crate::Contract::LmuiMessage
    }

    fn render(&self, r: &RenderInput<'_>, _: crate::Format) -> Value {
        render(r)
    }

    fn render_text(&self, r: &RenderInput<'_>, _: crate::Format) -> String {
        render_text(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text answer written from the kept components is the serialised
    /// value [`render`] builds, for every generate fixture, first and
    /// remembered, with the fixture's data and with none.
    #[test]
    fn text_from_kept_components_is_the_serialised_value() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/generate");
        let mut spliced = 0;
        for file in std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
        {
            let args: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
            let body = json!({"tool": "generateUserInterface", "arguments": args});
            let job = crate::GenerateJob::prepare(
                &serde_json::to_vec(&body).unwrap(),
                Some("lmui"),
                &Limits::default(),
            )
            .unwrap();
            let Some(put) = job.clone().answer(None).cache_put else {
                continue;
            };
            let spec = crate::UiSpec::from_cached(&put.value, job.spec_hash()).unwrap();
            for data in [args["data"].clone(), Value::Null] {
                let input = RenderInput {
                    spec: &spec,
                    initial_data: data.clone(),
                    meta: Map::new(),
                    raw_data: &data,
                    locale: None,
                    catalog: None,
                    prompt: None,
                };
                let whole = serde_json::to_string(&render(&input)).unwrap();
                for pass in ["first", "remembered"] {
                    assert_eq!(render_text(&input), whole, "{} {pass}", file.display());
                }
                spliced += usize::from(input.approval().is_none() && !has_table(&spec.plan.root));
            }
        }
        assert!(
            spliced > 20,
            "only {spliced} answers were written from kept components"
        );
    }

    #[test]
    fn ids_round_trip() {
        let path = vec!["a.b".to_owned(), "c~d".to_owned(), "e".to_owned()];
        assert_eq!(flatten_id(&path), "a~1b.c~0d.e");
        assert_eq!(split_id(&flatten_id(&path)), path);
    }

    #[test]
    fn unflattens_nested_and_repeating_values() {
        let values = json!({"name": "Ada", "address.city": "London", "address.geo.lat": 1.5,
            "items": [{"name": "x", "qty": 2}], "odd~1key": true});
        let data = unflatten(
            values.as_object().unwrap(),
            "/interaction/values",
            0,
            &Limits::default(),
        )
        .unwrap();
        assert_eq!(
            data,
            json!({"name": "Ada", "address": {"city": "London", "geo": {"lat": 1.5}},
            "items": [{"name": "x", "qty": 2}], "odd.key": true})
        );
    }
}
