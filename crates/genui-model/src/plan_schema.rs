//! The plan a model writes (`schemas/model-plan.schema.json`), and its
//! conversion to and from genui-core's [`Plan`].
//!
//! The model plan is deliberately small and closed, so every provider's
//! structured-output mode accepts its schema (no `$ref`, no `oneOf`/`anyOf`,
//! every property required and nullable where optional,
//! `additionalProperties: false`), and so the model writes as little as
//! possible: sections list field pointers, and a field shows with its
//! default control (the deterministic generator's label, widget, help and
//! placeholder) unless an override changes one of them:
//!
//! ```json
//! {"title": "Shipping address", "steps": false,
//!  "sections": [{"label": "Address", "layout": "vertical",
//!                "fields": ["/properties/street", "/properties/city", "/properties/postalCode"],
//!                "rows": [["/properties/city", "/properties/postalCode"]]}],
//!  "overrides": [{"pointer": "/properties/country", "label": null, "widget": "radio", "help": null, "placeholder": null}]}
//! ```
//!
//! Sections with a label become [`Node::Group`]s, unlabelled ones splice
//! their controls into the root, `layout: "horizontal"` wraps a section's
//! controls in [`Node::Horizontal`], each of a vertical section's `rows`
//! (2-4 of its fields, adjacent and in the order `fields` lists them) wraps
//! those controls in a [`Node::Horizontal`] inside the section, and
//! `steps: true` turns the sections
//! into a [`Node::Steps`] wizard. Array item layouts (`detail`) and
//! read-only flags come with the default control: they are not the model's
//! to write.

use genui_core::Issue;
use genui_core::{Control, Node, Plan, Widget, WizardStep};
use serde_json::{json, Map, Value};
use std::sync::OnceLock;

/// The schema text, as published in `schemas/`.
pub(crate) const SOURCE: &str = include_str!("../../../schemas/model-plan.schema.json");

/// Name of the plan in provider requests (OpenAI `json_schema.name`).
pub(crate) const NAME: &str = "ui_plan";

/// Keys each object level of the model plan may carry.
const ROOT_KEYS: [&str; 4] = ["title", "steps", "sections", "overrides"];
const SECTION_KEYS: [&str; 4] = ["label", "layout", "fields", "rows"];

/// How many fields one row of a section shows side by side.
pub(crate) const ROW_FIELDS: std::ops::RangeInclusive<usize> = 2..=4;
const OVERRIDE_KEYS: [&str; 6] = [
    "pointer",
    "label",
    "widget",
    "help",
    "placeholder",
    "component",
];

/// The published schema, parsed once.
pub(crate) fn schema() -> &'static Value {
    static SCHEMA: OnceLock<Value> = OnceLock::new();
    SCHEMA.get_or_init(|| serde_json::from_str(SOURCE).unwrap_or(Value::Null))
}

/// The schema as sent to providers: without `$schema`, `$id`, `title` and
/// the top-level `description` (about the schema, not for the model), which
/// some structured-output implementations refuse.
pub(crate) fn for_provider() -> Value {
    let mut schema = schema().clone();
    if let Value::Object(map) = &mut schema {
        for key in ["$schema", "$id", "title", "description"] {
            map.shift_remove(key);
        }
    }
    schema
}

/// The widget with this wire name.
pub(crate) fn widget_named(name: &str) -> Option<Widget> {
    Widget::all().find(|w| w.as_str() == name)
}

/// The sections' field lists and the field lists of their rows, for
/// in-place edits of the raw plan (a pointer corrected in `fields` is
/// corrected the same way in `rows`, so the rows stay valid).
pub(crate) fn field_lists_mut(plan: &mut Value) -> impl Iterator<Item = &mut Vec<Value>> {
    sections_mut(plan).flat_map(|section| {
        let (fields, rows) = section_lists_mut(section);
        fields
            .into_iter()
            .chain(rows.into_iter().flatten().filter_map(Value::as_array_mut))
    })
}

/// The raw plan's section objects.
fn sections_mut(plan: &mut Value) -> impl Iterator<Item = &mut Map<String, Value>> {
    let sections = plan
        .get_mut("sections")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten();
    sections.filter_map(Value::as_object_mut)
}

/// One raw section's `fields` and `rows` arrays, where they are arrays.
fn section_lists_mut(
    section: &mut Map<String, Value>,
) -> (Option<&mut Vec<Value>>, Option<&mut Vec<Value>>) {
    let mut fields = None;
    let mut rows = None;
    for (key, value) in section.iter_mut() {
        match key.as_str() {
            "fields" => fields = value.as_array_mut(),
            "rows" => rows = value.as_array_mut(),
            _ => {}
        }
    }
    (fields, rows)
}

/// Drops the rows [`to_plan`] would refuse (a field not in the section, not
/// adjacent or out of order, a lone field, more than four, a field already
/// in a row): their fields stay stacked. Returns how many went.
pub(crate) fn drop_invalid_rows(plan: &mut Value) -> usize {
    let mut dropped = 0;
    for section in sections_mut(plan) {
        let (Some(fields), Some(rows)) = section_lists_mut(section) else {
            continue;
        };
        let fields: Vec<&str> = fields.iter().filter_map(Value::as_str).collect();
        let mut taken = vec![false; fields.len()];
        let before = rows.len();
        rows.retain(|row| claim_row(row, &fields, &mut taken).is_ok());
        dropped += before - rows.len();
    }
    dropped
}

/// The overrides, for in-place edits of the raw plan.
pub(crate) fn overrides_mut(plan: &mut Value) -> impl Iterator<Item = &mut Map<String, Value>> {
    let overrides = plan
        .get_mut("overrides")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten();
    overrides.filter_map(Value::as_object_mut)
}

/// Removes keys the plan does not have (a model in JSON-object mode may add
/// `enum`, `required`, `schema`, ...); returns how many went.
pub(crate) fn strip_unknown(plan: &mut Value) -> usize {
    let mut removed = retain_keys(plan, &ROOT_KEYS);
    let sections = plan
        .get_mut("sections")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten();
    removed += sections
        .map(|s| retain_keys(s, &SECTION_KEYS))
        .sum::<usize>();
    let overrides = plan
        .get_mut("overrides")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten();
    removed += overrides
        .map(|o| retain_keys(o, &OVERRIDE_KEYS))
        .sum::<usize>();
    removed
}

fn retain_keys(value: &mut Value, keys: &[&str]) -> usize {
    let Value::Object(map) = value else { return 0 };
    let before = map.len();
    map.retain(|k, _| keys.contains(&k.as_str()));
    before - map.len()
}

/// Converts a model plan into a genui-core plan. `default` gives the
/// control a field shows with when no override says otherwise (the
/// deterministic generator's; see [`crate::fix::Context::default_control`]).
///
/// Lenient where nothing is lost (a missing `steps`, `layout` or
/// `overrides`, an empty label take their defaults), strict where the
/// intent is unknown (a pointer that is not a string, an unknown widget,
/// wrong types); errors are `invalid_plan` issues whose pointer is the place
/// in the model plan. An override for a field no section lists adds the
/// field at the end.
pub(crate) fn to_plan(
    model_plan: &Value,
    default: &dyn Fn(&str) -> Control,
) -> Result<Plan, Vec<Issue>> {
    let mut issues = Vec::new();
    let Some(root) = model_plan.as_object() else {
        return Err(vec![invalid("", "the plan must be a JSON object")]);
    };
    let title = optional_text(root, "title", "", &mut issues);
    let steps = match root.get("steps") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => {
            issues.push(invalid("/steps", "`steps` must be true or false"));
            false
        }
    };
    let Some(sections) = root.get("sections").and_then(Value::as_array) else {
        return Err(vec![invalid(
            "/sections",
            "`sections` must be an array of sections",
        )]);
    };
    let overrides = overrides(root.get("overrides"), &mut issues);
    let mut parsed: Vec<Section> = sections
        .iter()
        .enumerate()
        .filter_map(|(i, s)| section(s, &format!("/sections/{i}"), &mut issues))
        .collect();
    if !issues.is_empty() {
        return Err(issues);
    }
    add_unlisted(&mut parsed, &overrides);
    let build = |pointer: &String| {
        Node::Control(apply(
            default(pointer),
            overrides.iter().find(|o| &o.pointer == pointer),
        ))
    };
    let sections = parsed
        .into_iter()
        .filter(|s| !s.fields.is_empty())
        .map(|s| {
            let elements = if s.horizontal && s.fields.len() > 1 {
                vec![Node::Horizontal {
                    elements: s.fields.iter().map(build).collect(),
                }]
            } else {
                section_elements(&s, &build)
            };
            (s.label, elements)
        })
        .collect();
    Ok(Plan {
        title,
        root: Node::Vertical {
            elements: layout(sections, steps),
        },
    })
}

/// A vertical section's controls: stacked, each row's in a [`Node::Horizontal`].
fn section_elements(section: &Section, build: &dyn Fn(&String) -> Node) -> Vec<Node> {
    let mut elements = Vec::with_capacity(section.fields.len());
    let mut next = 0;
    while next < section.fields.len() {
        match section.rows.iter().find(|row| row.start == next) {
            Some(row) => {
                elements.push(Node::Horizontal {
                    elements: section.fields[row.clone()].iter().map(build).collect(),
                });
                next = row.end;
            }
            None => {
                elements.push(build(&section.fields[next]));
                next += 1;
            }
        }
    }
    elements
}

/// One parsed section.
struct Section {
    label: Option<String>,
    horizontal: bool,
    fields: Vec<String>,
    /// The rows, as ranges of `fields`.
    rows: Vec<std::ops::Range<usize>>,
}

/// One parsed override.
struct Override {
    pointer: String,
    label: Option<String>,
    widget: Option<Widget>,
    help: Option<String>,
    placeholder: Option<String>,
    /// A catalog component (genui-core proves the binding).
    component: Option<String>,
}

fn section(value: &Value, at: &str, issues: &mut Vec<Issue>) -> Option<Section> {
    let Some(map) = value.as_object() else {
        issues.push(invalid(at, "a section must be an object"));
        return None;
    };
    let label = optional_text(map, "label", at, issues);
    let horizontal = match map.get("layout") {
        None | Some(Value::Null) => false,
        Some(Value::String(s)) if s == "vertical" => false,
        Some(Value::String(s)) if s == "horizontal" => true,
        Some(_) => {
            issues.push(invalid(
                &format!("{at}/layout"),
                "`layout` must be \"vertical\" or \"horizontal\"",
            ));
            false
        }
    };
    let Some(fields) = map.get("fields").and_then(Value::as_array) else {
        issues.push(invalid(
            &format!("{at}/fields"),
            "`fields` must be an array of field pointers",
        ));
        return None;
    };
    let mut pointers = Vec::with_capacity(fields.len());
    for (i, field) in fields.iter().enumerate() {
        match field.as_str() {
            Some(pointer) => pointers.push(pointer.to_owned()),
            None => issues.push(invalid(
                &format!("{at}/fields/{i}"),
                "a field must be a pointer string",
            )),
        }
    }
    let rows = section_rows(map.get("rows"), &pointers, at, issues);
    Some(Section {
        label,
        horizontal,
        fields: pointers,
        rows,
    })
}

/// A section's `rows`: absent or null is none; each row must be valid.
fn section_rows(
    value: Option<&Value>,
    fields: &[String],
    at: &str,
    issues: &mut Vec<Issue>,
) -> Vec<std::ops::Range<usize>> {
    let list = match value {
        None | Some(Value::Null) => return Vec::new(),
        Some(Value::Array(list)) => list,
        Some(_) => {
            issues.push(invalid(
                &format!("{at}/rows"),
                "`rows` must be an array of rows or null",
            ));
            return Vec::new();
        }
    };
    let fields: Vec<&str> = fields.iter().map(String::as_str).collect();
    let mut taken = vec![false; fields.len()];
    let mut rows = Vec::with_capacity(list.len());
    for (i, row) in list.iter().enumerate() {
        match claim_row(row, &fields, &mut taken) {
            Ok(range) => rows.push(range),
            Err(problem) => issues.push(invalid(&format!("{at}/rows/{i}"), problem)),
        }
    }
    rows
}

/// The range of `fields` one row covers, marked in `taken`; or why the row
/// is not valid.
fn claim_row(
    row: &Value,
    fields: &[&str],
    taken: &mut [bool],
) -> Result<std::ops::Range<usize>, &'static str> {
    let Some(row) = row.as_array() else {
        return Err("a row must be an array of field pointers");
    };
    let pointers: Vec<&str> = row.iter().filter_map(Value::as_str).collect();
    if pointers.len() != row.len() {
        return Err("a row's fields must be pointer strings");
    }
    if !ROW_FIELDS.contains(&pointers.len()) {
        return Err("a row shows 2 to 4 fields side by side");
    }
    if !pointers.iter().all(|p| fields.contains(p)) {
        return Err("a row's fields must be listed in the section's `fields`");
    }
    // Every place `fields` lists the row's pointers in its order (a pointer
    // listed twice gives two), the first not yet in a row.
    let n = pointers.len();
    let mut places = (0..fields.len().saturating_sub(n - 1))
        .filter(|&i| fields[i..i + n] == pointers[..])
        .peekable();
    if places.peek().is_none() {
        return Err("a row's fields must be adjacent in `fields`, in its order");
    }
    let Some(start) = places.find(|&i| !taken[i..i + n].iter().any(|t| *t)) else {
        return Err("a field can be in one row only");
    };
    let range = start..start + n;
    taken[range.clone()].iter_mut().for_each(|t| *t = true);
    Ok(range)
}

fn overrides(value: Option<&Value>, issues: &mut Vec<Issue>) -> Vec<Override> {
    let list = match value {
        None | Some(Value::Null) => return Vec::new(),
        Some(Value::Array(list)) => list,
        Some(_) => {
            issues.push(invalid("/overrides", "`overrides` must be an array"));
            return Vec::new();
        }
    };
    let mut out: Vec<Override> = Vec::new();
    for (i, item) in list.iter().enumerate() {
        let at = format!("/overrides/{i}");
        if let Some(parsed) = one_override(item, &at, issues) {
            if !out.iter().any(|o| o.pointer == parsed.pointer) {
                out.push(parsed);
            }
        }
    }
    out
}

fn one_override(value: &Value, at: &str, issues: &mut Vec<Issue>) -> Option<Override> {
    let Some(map) = value.as_object() else {
        issues.push(invalid(at, "an override must be an object"));
        return None;
    };
    let Some(pointer) = map.get("pointer").and_then(Value::as_str) else {
        issues.push(invalid(
            &format!("{at}/pointer"),
            "`pointer` must be a field pointer",
        ));
        return None;
    };
    let widget = match map.get("widget") {
        None | Some(Value::Null) => None,
        Some(Value::String(name)) => match widget_named(name) {
            Some(widget) => Some(widget),
            None => {
                issues.push(invalid(
                    &format!("{at}/widget"),
                    &format!("unknown widget {name:?}"),
                ));
                return None;
            }
        },
        Some(_) => {
            issues.push(invalid(
                &format!("{at}/widget"),
                "`widget` must be a widget name or null",
            ));
            return None;
        }
    };
    Some(Override {
        pointer: pointer.to_owned(),
        label: optional_text(map, "label", at, issues),
        widget,
        help: optional_text(map, "help", at, issues),
        placeholder: optional_text(map, "placeholder", at, issues),
        component: optional_text(map, "component", at, issues),
    })
}

/// Fields that only have an override join the last section.
fn add_unlisted(sections: &mut Vec<Section>, overrides: &[Override]) {
    let listed = |p: &str| sections.iter().any(|s| s.fields.iter().any(|f| f == p));
    let extra: Vec<String> = overrides
        .iter()
        .filter(|o| !listed(&o.pointer))
        .map(|o| o.pointer.clone())
        .collect();
    if extra.is_empty() {
        return;
    }
    match sections.last_mut() {
        Some(last) => last.fields.extend(extra),
        None => sections.push(Section {
            label: None,
            horizontal: false,
            fields: extra,
            rows: Vec::new(),
        }),
    }
}

fn apply(mut control: Control, change: Option<&Override>) -> Control {
    let Some(change) = change else { return control };
    if let Some(label) = &change.label {
        control.label = label.clone();
    }
    if let Some(widget) = change.widget.filter(|w| *w != control.widget) {
        control.widget = widget;
        control.detail = None;
    }
    if change.help.is_some() {
        control.help = change.help.clone();
    }
    if change.placeholder.is_some() {
        control.placeholder = change.placeholder.clone();
    }
    if change.component.is_some() {
        control.component = change.component.clone();
    }
    control
}

/// A string member: absent, null and blank are `None`; other types are issues.
fn optional_text(
    map: &Map<String, Value>,
    key: &str,
    at: &str,
    issues: &mut Vec<Issue>,
) -> Option<String> {
    match map.get(key) {
        None | Some(Value::Null) => None,
        Some(Value::String(text)) => Some(text.trim().to_owned()).filter(|t| !t.is_empty()),
        Some(_) => {
            issues.push(invalid(
                &format!("{at}/{key}"),
                &format!("`{key}` must be a string or null"),
            ));
            None
        }
    }
}

/// The root's elements: steps when asked for and there are two or more
/// sections, otherwise groups for labelled sections and loose controls.
fn layout(sections: Vec<(Option<String>, Vec<Node>)>, steps: bool) -> Vec<Node> {
    if steps && sections.len() >= 2 {
        let steps = sections
            .into_iter()
            .enumerate()
            .map(|(i, (label, elements))| WizardStep {
                label: label.unwrap_or_else(|| format!("Step {}", i + 1)),
                section: None,
                elements,
            })
            .collect();
        return vec![Node::Steps { steps }];
    }
    let mut elements = Vec::new();
    for (label, section) in sections {
        match label {
            Some(label) => elements.push(Node::Group {
                label,
                section: None,
                elements: section,
                rule: None,
            }),
            None => elements.extend(section),
        }
    }
    elements
}

fn invalid(at: &str, message: &str) -> Issue {
    Issue {
        code: "invalid_plan",
        pointer: at.to_owned(),
        message: message.to_owned(),
    }
}

/// The model plan a good model would write for `plan`: top-level groups and
/// steps become sections, runs of loose controls unlabelled sections, nested
/// groups are flattened into their section, and the rows of 2-4 controls
/// directly inside a vertical section become its `rows`. Without `with_overrides` the
/// controls are assumed to be the defaults (true of the deterministic plan);
/// with it every control gets a full override, as a model that rewrites
/// every label would write. Used by the benchmark and tests.
pub fn from_plan(plan: &Plan, with_overrides: bool) -> Value {
    let mut sections = Vec::new();
    let mut steps = false;
    let mut loose = Vec::new();
    let top = match &plan.root {
        Node::Vertical { elements } => elements.as_slice(),
        other => std::slice::from_ref(other),
    };
    for node in top {
        match node {
            Node::Group {
                label, elements, ..
            } => {
                flush_loose(&mut loose, &mut sections);
                let row = matches!(elements.as_slice(), [Node::Horizontal { .. }]);
                sections.push(model_section(
                    Some(label),
                    if row { "horizontal" } else { "vertical" },
                    elements,
                ));
            }
            Node::Steps { steps: list } => {
                flush_loose(&mut loose, &mut sections);
                steps = true;
                sections.extend(
                    list.iter()
                        .map(|s| model_section(Some(&s.label), "vertical", &s.elements)),
                );
            }
            Node::Horizontal { elements } => {
                flush_loose(&mut loose, &mut sections);
                sections.push(model_section(None, "horizontal", elements));
            }
            other => loose.push(other.clone()),
        }
    }
    flush_loose(&mut loose, &mut sections);
    let overrides: Vec<Value> = if with_overrides {
        plan.root
            .controls()
            .into_iter()
            .map(full_override)
            .collect()
    } else {
        Vec::new()
    };
    json!({"title": plan.title, "steps": steps, "sections": sections, "overrides": overrides})
}

fn flush_loose(loose: &mut Vec<Node>, sections: &mut Vec<Value>) {
    if !loose.is_empty() {
        sections.push(model_section(None, "vertical", loose));
        loose.clear();
    }
}

fn model_section(label: Option<&String>, layout: &str, elements: &[Node]) -> Value {
    let fields: Vec<&str> = elements
        .iter()
        .flat_map(Node::controls)
        .map(|c| c.pointer.as_str())
        .collect();
    let rows = if layout == "vertical" {
        model_rows(elements)
    } else {
        Vec::new()
    };
    let rows = Some(rows).filter(|r| !r.is_empty());
    json!({"label": label, "layout": layout, "fields": fields, "rows": rows})
}

/// The pointers of each row of 2-4 controls among a section's elements.
fn model_rows(elements: &[Node]) -> Vec<Vec<&str>> {
    elements
        .iter()
        .filter(|n| matches!(n, Node::Horizontal { .. }))
        .map(|row| {
            row.controls()
                .into_iter()
                .map(|c| c.pointer.as_str())
                .collect::<Vec<_>>()
        })
        .filter(|row| ROW_FIELDS.contains(&row.len()))
        .collect()
}

fn full_override(control: &Control) -> Value {
    json!({
        "pointer": control.pointer,
        "label": control.label,
        "widget": control.widget.as_str(),
        "help": control.help,
        "placeholder": control.placeholder,
        "component": control.component,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walk_objects<'a>(value: &'a Value, out: &mut Vec<&'a Map<String, Value>>) {
        match value {
            Value::Object(map) => {
                out.push(map);
                map.values().for_each(|v| walk_objects(v, out));
            }
            Value::Array(items) => items.iter().for_each(|v| walk_objects(v, out)),
            _ => {}
        }
    }

    fn default(pointer: &str) -> Control {
        Control {
            pointer: pointer.to_owned(),
            label: format!("Default {pointer}"),
            widget: Widget::Text,
            help: Some("from the schema".into()),
            placeholder: None,
            read_only: false,
            rule: None,
            detail: None,
            component: None,
            component_props: None,
        }
    }

    #[test]
    fn schema_is_the_strict_subset() {
        let schema = for_provider();
        assert!(schema.get("$schema").is_none() && schema.get("title").is_none());
        let text = schema.to_string();
        for banned in [
            "$ref",
            "oneOf",
            "anyOf",
            "allOf",
            "$defs",
            "patternProperties",
        ] {
            assert!(!text.contains(banned), "{banned}");
        }
        let mut objects = Vec::new();
        walk_objects(&schema, &mut objects);
        let typed_objects: Vec<_> = objects
            .iter()
            .filter(|o| o.get("type") == Some(&json!("object")))
            .collect();
        assert_eq!(typed_objects.len(), 3);
        for object in typed_objects {
            assert_eq!(object.get("additionalProperties"), Some(&json!(false)));
            let props: Vec<&String> = object["properties"].as_object().unwrap().keys().collect();
            let required: Vec<&str> = object["required"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(Value::as_str)
                .collect();
            assert_eq!(props.len(), required.len());
            assert!(props.iter().all(|p| required.contains(&p.as_str())));
        }
    }

    #[test]
    fn widget_enum_matches_genui_core() {
        let names: Vec<&str> = schema()["properties"]["overrides"]["items"]["properties"]["widget"]
            ["enum"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        let ours: Vec<&str> = Widget::all().map(Widget::as_str).collect();
        assert_eq!(names, ours);
        for w in Widget::all() {
            let parsed: Widget = serde_json::from_value(json!(w.as_str())).unwrap();
            assert_eq!(parsed, w);
        }
    }

    #[test]
    fn sections_become_groups_rows_and_steps() {
        let value = json!({"title": "T", "steps": false, "overrides": [], "sections": [
            {"label": null, "layout": "vertical", "fields": ["/properties/a"]},
            {"label": "Where", "layout": "horizontal", "fields": ["/properties/b", "/properties/c"]},
            {"label": "Empty", "layout": "vertical", "fields": []}
        ]});
        let plan = to_plan(&value, &default).unwrap();
        let Node::Vertical { elements } = &plan.root else {
            panic!()
        };
        assert!(
            matches!(&elements[0], Node::Control(c) if c.pointer == "/properties/a" && c.label == "Default /properties/a")
        );
        let Node::Group {
            label,
            elements: inner,
            ..
        } = &elements[1]
        else {
            panic!()
        };
        assert_eq!(label, "Where");
        assert!(matches!(&inner[0], Node::Horizontal { elements } if elements.len() == 2));
        assert_eq!(elements.len(), 2);
        let mut steps = value.clone();
        steps["steps"] = json!(true);
        let plan = to_plan(&steps, &default).unwrap();
        let Node::Vertical { elements } = &plan.root else {
            panic!()
        };
        let Node::Steps { steps } = &elements[0] else {
            panic!()
        };
        assert_eq!(
            steps.iter().map(|s| s.label.as_str()).collect::<Vec<_>>(),
            ["Step 1", "Where"]
        );
    }

    #[test]
    fn overrides_change_only_what_they_name() {
        let value = json!({"title": null, "steps": false, "sections": [{"label": null, "layout": "vertical", "fields": ["/properties/a"]}],
        "overrides": [
            {"pointer": "/properties/a", "label": "Mine", "widget": "textarea", "help": null, "placeholder": "e.g. x"},
            {"pointer": "/properties/a", "label": "Ignored", "widget": null, "help": null, "placeholder": null},
            {"pointer": "/properties/b", "label": "Late", "widget": null, "help": null, "placeholder": null}
        ]});
        let plan = to_plan(&value, &default).unwrap();
        let controls = plan.root.controls();
        assert_eq!(controls.len(), 2);
        assert_eq!(
            (controls[0].label.as_str(), controls[0].widget),
            ("Mine", Widget::Textarea)
        );
        assert_eq!(controls[0].help.as_deref(), Some("from the schema"));
        assert_eq!(controls[0].placeholder.as_deref(), Some("e.g. x"));
        assert_eq!(
            (controls[1].pointer.as_str(), controls[1].label.as_str()),
            ("/properties/b", "Late")
        );
    }

    #[test]
    fn structural_errors_are_issues() {
        let bad = json!({"title": 3, "steps": "yes", "sections": [
            {"label": null, "layout": "diagonal", "fields": ["/a", 7]}
        ], "overrides": [{"label": "x"}, {"pointer": "/a", "widget": "dropdown"}]});
        let issues = to_plan(&bad, &default).unwrap_err();
        let at: Vec<&str> = issues.iter().map(|i| i.pointer.as_str()).collect();
        assert_eq!(
            at,
            [
                "/title",
                "/steps",
                "/overrides/0/pointer",
                "/overrides/1/widget",
                "/sections/0/layout",
                "/sections/0/fields/1"
            ]
        );
        assert!(issues.iter().all(|i| i.code == "invalid_plan"));
        assert_eq!(to_plan(&json!([1]), &default).unwrap_err()[0].pointer, "");
        assert_eq!(
            to_plan(&json!({"title": null}), &default).unwrap_err()[0].pointer,
            "/sections"
        );
    }

    #[test]
    fn unknown_keys_are_stripped() {
        let mut value = json!({"title": null, "steps": false, "required": ["x"], "jsonSchema": {}, "sections": [
            {"label": null, "layout": "vertical", "type": "group", "fields": ["/properties/a"]}],
            "overrides": [{"pointer": "/properties/a", "label": "A", "widget": "select", "help": null, "placeholder": null, "enum": ["new"]}]});
        assert_eq!(strip_unknown(&mut value), 4);
        assert!(value.get("required").is_none());
        assert!(value["overrides"][0].get("enum").is_none());
    }

    /// A labelled section of fields a..e with `rows`.
    fn with_rows(rows: Value) -> Value {
        let fields: Vec<String> = "abcde"
            .chars()
            .map(|c| format!("/properties/{c}"))
            .collect();
        json!({"title": null, "steps": false, "overrides": [], "sections": [
            {"label": "S", "layout": "vertical", "fields": fields, "rows": rows}]})
    }

    /// Each element of the first group: a pointer, or a row of pointers.
    fn group_shape(plan: &Plan) -> Vec<Vec<String>> {
        let Node::Vertical { elements } = &plan.root else {
            return Vec::new();
        };
        let Some(Node::Group { elements, .. }) = elements.first() else {
            return Vec::new();
        };
        elements
            .iter()
            .map(|n| n.controls().iter().map(|c| c.pointer.clone()).collect())
            .collect()
    }

    fn p(names: &str) -> Vec<String> {
        names.chars().map(|c| format!("/properties/{c}")).collect()
    }

    #[test]
    fn rows_become_horizontals_inside_the_group() {
        let plan = to_plan(
            &with_rows(json!([["/properties/b", "/properties/c"]])),
            &default,
        )
        .unwrap();
        assert_eq!(group_shape(&plan), [p("a"), p("bc"), p("d"), p("e")]);
        let Node::Vertical { elements } = &plan.root else {
            panic!()
        };
        let Node::Group { elements, .. } = &elements[0] else {
            panic!()
        };
        assert!(matches!(&elements[1], Node::Horizontal { elements } if elements.len() == 2));
        assert!(matches!(&elements[0], Node::Control(_)));
    }

    #[test]
    fn missing_or_null_rows_stack_the_section() {
        let mut plan = with_rows(Value::Null);
        let stacked = to_plan(&plan, &default).unwrap();
        assert_eq!(
            group_shape(&stacked),
            [p("a"), p("b"), p("c"), p("d"), p("e")]
        );
        plan["sections"][0]
            .as_object_mut()
            .unwrap()
            .shift_remove("rows");
        assert_eq!(to_plan(&plan, &default).unwrap(), stacked);
    }

    #[test]
    fn a_row_is_found_where_its_fields_are_adjacent_after_a_repeated_pointer() {
        let fields = [
            "/properties/a",
            "/properties/b",
            "/properties/a",
            "/properties/c",
        ];
        let mut taken = [false; 4];
        let row = json!(["/properties/a", "/properties/c"]);
        assert_eq!(claim_row(&row, &fields, &mut taken), Ok(2..4));
        assert_eq!(taken, [false, false, true, true]);
    }

    #[test]
    fn each_invalid_row_is_an_issue_and_is_dropped_to_a_stack() {
        let bad_rows = [
            (
                json!([["/properties/a", "/properties/z"]]),
                "listed in the section",
            ),
            (json!([["/properties/a", "/properties/c"]]), "adjacent"),
            (json!([["/properties/b", "/properties/a"]]), "adjacent"),
            (json!([["/properties/a"]]), "2 to 4"),
            (json!([p("abcde")]), "2 to 4"),
            (json!([["/properties/a", 3]]), "pointer strings"),
            (json!(["/properties/a"]), "array of field pointers"),
        ];
        for (rows, says) in bad_rows {
            let mut plan = with_rows(json!([p("de"), rows[0].clone()]));
            let issues = to_plan(&plan, &default).unwrap_err();
            assert_eq!(issues.len(), 1, "{rows}");
            assert_eq!(issues[0].pointer, "/sections/0/rows/1", "{rows}");
            assert!(
                issues[0].message.contains(says),
                "{rows}: {}",
                issues[0].message
            );
            assert_eq!(drop_invalid_rows(&mut plan), 1, "{rows}");
            let repaired = to_plan(&plan, &default).unwrap();
            assert_eq!(
                group_shape(&repaired),
                [p("a"), p("b"), p("c"), p("de")],
                "{rows}"
            );
        }
        let mut twice = with_rows(json!([p("ab"), p("bc"), p("de")]));
        let issues = to_plan(&twice, &default).unwrap_err();
        assert_eq!(issues[0].pointer, "/sections/0/rows/1");
        assert!(issues[0].message.contains("one row only"));
        assert_eq!(drop_invalid_rows(&mut twice), 1);
        assert_eq!(
            group_shape(&to_plan(&twice, &default).unwrap()),
            [p("ab"), p("c"), p("de")]
        );
        let mut not_a_list = with_rows(json!("a,b"));
        let issues = to_plan(&not_a_list, &default).unwrap_err();
        assert_eq!(issues[0].pointer, "/sections/0/rows");
        assert_eq!(drop_invalid_rows(&mut not_a_list), 0);
    }

    #[test]
    fn rows_round_trip_through_the_core_plan() {
        let value = with_rows(json!([p("ab"), p("cde")]));
        let plan = to_plan(&value, &default).unwrap();
        assert_eq!(from_plan(&plan, false), value);
        assert_eq!(to_plan(&from_plan(&plan, true), &default).unwrap(), plan);
    }

    #[test]
    fn the_published_schema_takes_rows_and_null_rows() {
        let validator = jsonschema::validator_for(schema()).unwrap();
        let with = with_rows(json!([p("ab")]));
        assert!(validator.is_valid(&with));
        assert!(validator.is_valid(&with_rows(Value::Null)));
        assert!(!validator.is_valid(&with_rows(json!("a,b"))));
        let mut without = with.clone();
        without["sections"][0]
            .as_object_mut()
            .unwrap()
            .shift_remove("rows");
        assert!(
            !validator.is_valid(&without),
            "the schema keeps `rows` required"
        );
    }

    #[test]
    fn from_plan_round_trips() {
        let value = json!({"title": "T", "steps": false, "overrides": [], "sections": [
            {"label": null, "layout": "vertical", "fields": ["/properties/a"], "rows": null},
            {"label": "Where", "layout": "horizontal", "fields": ["/properties/b", "/properties/c"], "rows": null}]});
        let plan = to_plan(&value, &default).unwrap();
        assert_eq!(from_plan(&plan, false), value);
        let full = from_plan(&plan, true);
        assert_eq!(full["overrides"].as_array().map(Vec::len), Some(3));
        assert_eq!(to_plan(&full, &default).unwrap(), plan);
    }
}
