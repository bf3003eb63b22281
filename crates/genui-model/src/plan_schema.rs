//! The plan a model writes (`schemas/model-plan.schema.json`), and its
//! conversion to and from genui-core's [`Plan`].
//!
//! The model plan is deliberately shallow and closed, so every provider's
//! structured-output mode accepts its schema (no `$ref`, no `oneOf`/`anyOf`,
//! every property required and nullable where optional,
//! `additionalProperties: false`):
//!
//! ```json
//! {"title": "Shipping address", "steps": false, "sections": [
//!   {"label": "Address", "layout": "vertical", "controls": [
//!     {"pointer": "/properties/city", "label": "City", "widget": "text", "help": null, "placeholder": null}]}]}
//! ```
//!
//! Sections with a label become [`Node::Group`]s, unlabelled ones splice
//! their controls into the root, `layout: "horizontal"` wraps a section's
//! controls in [`Node::Horizontal`], and `steps: true` turns the sections
//! into a [`Node::Steps`] wizard. Item layouts of arrays (`detail`) and
//! read-only flags are not the model's to write: the fix step fills them in
//! from the schema ([`crate::fix`]).

use genui_core::check::Issue;
use genui_core::plan::{Control, Node, Plan, Step, Widget};
use serde_json::{json, Map, Value};
use std::sync::OnceLock;

/// The schema text, as published in `schemas/`.
pub const SOURCE: &str = include_str!("../../../schemas/model-plan.schema.json");

/// Name of the plan in provider requests (OpenAI `json_schema.name`).
pub const NAME: &str = "ui_plan";

/// Every widget, in the schema's enum order.
pub const WIDGETS: [Widget; 17] = [
    Widget::Text,
    Widget::Textarea,
    Widget::Email,
    Widget::Url,
    Widget::Number,
    Widget::Integer,
    Widget::Slider,
    Widget::Checkbox,
    Widget::Select,
    Widget::Radio,
    Widget::MultiSelect,
    Widget::Date,
    Widget::DateTime,
    Widget::Time,
    Widget::Array,
    Widget::Alternatives,
    Widget::Object,
];

/// Keys each object level of the model plan may carry.
const ROOT_KEYS: [&str; 3] = ["title", "steps", "sections"];
const SECTION_KEYS: [&str; 3] = ["label", "layout", "controls"];
const CONTROL_KEYS: [&str; 5] = ["pointer", "label", "widget", "help", "placeholder"];

/// The published schema, parsed once.
pub fn schema() -> &'static Value {
    static SCHEMA: OnceLock<Value> = OnceLock::new();
    SCHEMA.get_or_init(|| serde_json::from_str(SOURCE).unwrap_or(Value::Null))
}

/// The schema as sent to providers: without `$schema`, `$id` and `title`,
/// which some structured-output implementations refuse.
pub fn for_provider() -> Value {
    let mut schema = schema().clone();
    if let Value::Object(map) = &mut schema {
        for key in ["$schema", "$id", "title"] {
            map.shift_remove(key);
        }
    }
    schema
}

/// The widget with this wire name.
pub fn widget_named(name: &str) -> Option<Widget> {
    WIDGETS.iter().copied().find(|w| w.as_str() == name)
}

/// Removes keys the model plan does not have (a model in JSON-object mode
/// may add `enum`, `required`, `schema`, ...); returns how many went.
pub fn strip_unknown(plan: &mut Value) -> usize {
    let mut removed = retain_keys(plan, &ROOT_KEYS);
    let sections = plan.get_mut("sections").and_then(Value::as_array_mut).into_iter().flatten();
    for section in sections {
        removed += retain_keys(section, &SECTION_KEYS);
        let controls = section.get_mut("controls").and_then(Value::as_array_mut).into_iter().flatten();
        for control in controls {
            removed += retain_keys(control, &CONTROL_KEYS);
        }
    }
    removed
}

fn retain_keys(value: &mut Value, keys: &[&str]) -> usize {
    let Value::Object(map) = value else { return 0 };
    let before = map.len();
    map.retain(|k, _| keys.contains(&k.as_str()));
    before - map.len()
}

/// Converts a model plan into a genui-core plan. Lenient where nothing is
/// lost (a missing `steps`, `layout`, `help` or `label` takes its default),
/// strict where the intent is unknown (no pointer, an unknown widget, wrong
/// types); errors are `invalid_plan` issues whose pointer is the place in the
/// model plan.
pub fn to_plan(model_plan: &Value) -> Result<Plan, Vec<Issue>> {
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
    let sections = match root.get("sections") {
        Some(Value::Array(sections)) => sections,
        _ => return Err(vec![invalid("/sections", "`sections` must be an array of sections")]),
    };
    let parsed: Vec<Section> =
        sections.iter().enumerate().filter_map(|(i, s)| section(s, &format!("/sections/{i}"), &mut issues)).collect();
    if !issues.is_empty() {
        return Err(issues);
    }
    Ok(Plan { title, root: Node::Vertical { elements: layout(parsed, steps) } })
}

/// One parsed section.
struct Section {
    label: Option<String>,
    elements: Vec<Node>,
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
            issues.push(invalid(&format!("{at}/layout"), "`layout` must be \"vertical\" or \"horizontal\""));
            false
        }
    };
    let Some(controls) = map.get("controls").and_then(Value::as_array) else {
        issues.push(invalid(&format!("{at}/controls"), "`controls` must be an array of controls"));
        return None;
    };
    let controls: Vec<Node> = controls
        .iter()
        .enumerate()
        .filter_map(|(i, c)| control(c, &format!("{at}/controls/{i}"), issues))
        .map(Node::Control)
        .collect();
    if controls.is_empty() {
        return None;
    }
    let elements = if horizontal && controls.len() > 1 { vec![Node::Horizontal { elements: controls }] } else { controls };
    Some(Section { label, elements })
}

fn control(value: &Value, at: &str, issues: &mut Vec<Issue>) -> Option<Control> {
    let Some(map) = value.as_object() else {
        issues.push(invalid(at, "a control must be an object"));
        return None;
    };
    let Some(pointer) = map.get("pointer").and_then(Value::as_str) else {
        issues.push(invalid(&format!("{at}/pointer"), "`pointer` must be a field pointer from the field list"));
        return None;
    };
    let widget = match map.get("widget").and_then(Value::as_str).map(|w| (w, widget_named(w))) {
        Some((_, Some(widget))) => widget,
        Some((name, None)) => {
            issues.push(invalid(&format!("{at}/widget"), &format!("unknown widget {name:?}")));
            return None;
        }
        None => {
            issues.push(invalid(&format!("{at}/widget"), "`widget` must be one of the field's widgets"));
            return None;
        }
    };
    Some(Control {
        pointer: pointer.to_owned(),
        label: optional_text(map, "label", at, issues).unwrap_or_default(),
        widget,
        help: optional_text(map, "help", at, issues),
        placeholder: optional_text(map, "placeholder", at, issues),
        read_only: false,
        rule: None,
        detail: None,
    })
}

/// A string member: absent, null and blank are `None`; other types are issues.
fn optional_text(map: &Map<String, Value>, key: &str, at: &str, issues: &mut Vec<Issue>) -> Option<String> {
    match map.get(key) {
        None | Some(Value::Null) => None,
        Some(Value::String(text)) => Some(text.trim().to_owned()).filter(|t| !t.is_empty()),
        Some(_) => {
            issues.push(invalid(&format!("{at}/{key}"), &format!("`{key}` must be a string or null")));
            None
        }
    }
}

/// The root's elements: steps when asked for and there are two or more
/// sections, otherwise groups for labelled sections and loose controls.
fn layout(sections: Vec<Section>, steps: bool) -> Vec<Node> {
    if steps && sections.len() >= 2 {
        let steps = sections
            .into_iter()
            .enumerate()
            .map(|(i, s)| Step { label: s.label.unwrap_or_else(|| format!("Step {}", i + 1)), elements: s.elements })
            .collect();
        return vec![Node::Steps { steps }];
    }
    let mut elements = Vec::new();
    for section in sections {
        match section.label {
            Some(label) => elements.push(Node::Group { label, elements: section.elements }),
            None => elements.extend(section.elements),
        }
    }
    elements
}

fn invalid(at: &str, message: &str) -> Issue {
    Issue { code: "invalid_plan", pointer: at.to_owned(), message: message.to_owned() }
}

/// The model plan a good model would write for `plan`: top-level groups and
/// steps become sections, runs of loose controls unlabelled sections, nested
/// groups are flattened into their section. Used by the benchmark and tests.
pub fn from_plan(plan: &Plan) -> Value {
    let mut sections = Vec::new();
    let mut steps = false;
    let mut loose = Vec::new();
    let top = match &plan.root {
        Node::Vertical { elements } => elements.as_slice(),
        other => std::slice::from_ref(other),
    };
    for node in top {
        match node {
            Node::Group { label, elements } => {
                flush_loose(&mut loose, &mut sections);
                sections.push(model_section(Some(label), "vertical", elements));
            }
            Node::Steps { steps: list } => {
                flush_loose(&mut loose, &mut sections);
                steps = true;
                sections.extend(list.iter().map(|s| model_section(Some(&s.label), "vertical", &s.elements)));
            }
            Node::Horizontal { elements } => {
                flush_loose(&mut loose, &mut sections);
                sections.push(model_section(None, "horizontal", elements));
            }
            other => loose.push(other.clone()),
        }
    }
    flush_loose(&mut loose, &mut sections);
    json!({"title": plan.title, "steps": steps, "sections": sections})
}

fn flush_loose(loose: &mut Vec<Node>, sections: &mut Vec<Value>) {
    if !loose.is_empty() {
        sections.push(model_section(None, "vertical", loose));
        loose.clear();
    }
}

fn model_section(label: Option<&String>, layout: &str, elements: &[Node]) -> Value {
    let controls: Vec<Value> = elements.iter().flat_map(Node::controls).map(model_control).collect();
    json!({"label": label, "layout": layout, "controls": controls})
}

fn model_control(control: &Control) -> Value {
    json!({
        "pointer": control.pointer,
        "label": control.label,
        "widget": control.widget.as_str(),
        "help": control.help,
        "placeholder": control.placeholder,
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

    #[test]
    fn schema_is_the_strict_subset() {
        let schema = for_provider();
        assert!(schema.get("$schema").is_none() && schema.get("title").is_none());
        let text = schema.to_string();
        for banned in ["$ref", "oneOf", "anyOf", "allOf", "$defs", "patternProperties"] {
            assert!(!text.contains(banned), "{banned}");
        }
        let mut objects = Vec::new();
        walk_objects(&schema, &mut objects);
        let typed_objects: Vec<_> = objects.iter().filter(|o| o.get("type") == Some(&json!("object"))).collect();
        assert_eq!(typed_objects.len(), 3);
        for object in typed_objects {
            assert_eq!(object.get("additionalProperties"), Some(&json!(false)));
            let props: Vec<&String> = object["properties"].as_object().unwrap().keys().collect();
            let required: Vec<&str> = object["required"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
            assert_eq!(props.len(), required.len());
            assert!(props.iter().all(|p| required.contains(&p.as_str())));
        }
    }

    #[test]
    fn widget_enum_matches_genui_core() {
        let names: Vec<&str> = schema()["properties"]["sections"]["items"]["properties"]["controls"]["items"]["properties"]
            ["widget"]["enum"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        let ours: Vec<&str> = WIDGETS.iter().map(|w| w.as_str()).collect();
        assert_eq!(names, ours);
        for w in WIDGETS {
            let parsed: Widget = serde_json::from_value(json!(w.as_str())).unwrap();
            assert_eq!(parsed, w);
        }
    }

    #[test]
    fn sections_become_groups_rows_and_steps() {
        let value = json!({"title": "T", "steps": false, "sections": [
            {"label": null, "layout": "vertical", "controls": [c("/properties/a")]},
            {"label": "Where", "layout": "horizontal", "controls": [c("/properties/b"), c("/properties/c")]},
            {"label": "Empty", "layout": "vertical", "controls": []}
        ]});
        let plan = to_plan(&value).unwrap();
        let Node::Vertical { elements } = &plan.root else { panic!() };
        assert!(matches!(&elements[0], Node::Control(c) if c.pointer == "/properties/a"));
        let Node::Group { label, elements: inner } = &elements[1] else { panic!() };
        assert_eq!(label, "Where");
        assert!(matches!(&inner[0], Node::Horizontal { elements } if elements.len() == 2));
        assert_eq!(elements.len(), 2);
        let mut steps = value.clone();
        steps["steps"] = json!(true);
        let plan = to_plan(&steps).unwrap();
        let Node::Vertical { elements } = &plan.root else { panic!() };
        let Node::Steps { steps } = &elements[0] else { panic!() };
        assert_eq!(steps.iter().map(|s| s.label.as_str()).collect::<Vec<_>>(), ["Step 1", "Where"]);
    }

    #[test]
    fn structural_errors_are_issues() {
        let bad = json!({"title": 3, "steps": "yes", "sections": [
            {"label": null, "layout": "diagonal", "controls": [{"label": "x", "widget": "text"}, {"pointer": "/a", "widget": "dropdown"}]}
        ]});
        let issues = to_plan(&bad).unwrap_err();
        let at: Vec<&str> = issues.iter().map(|i| i.pointer.as_str()).collect();
        assert_eq!(at, ["/title", "/steps", "/sections/0/layout", "/sections/0/controls/0/pointer", "/sections/0/controls/1/widget"]);
        assert!(issues.iter().all(|i| i.code == "invalid_plan"));
        assert_eq!(to_plan(&json!([1])).unwrap_err()[0].pointer, "");
        assert_eq!(to_plan(&json!({"title": null})).unwrap_err()[0].pointer, "/sections");
    }

    #[test]
    fn unknown_keys_are_stripped() {
        let mut value = json!({"title": null, "steps": false, "required": ["x"], "jsonSchema": {}, "sections": [
            {"label": null, "layout": "vertical", "type": "group", "controls": [
                {"pointer": "/properties/a", "label": "A", "widget": "select", "help": null, "placeholder": null, "enum": ["new"]}]}]});
        assert_eq!(strip_unknown(&mut value), 4);
        assert!(value.get("required").is_none());
        assert!(value["sections"][0]["controls"][0].get("enum").is_none());
    }

    fn c(pointer: &str) -> Value {
        json!({"pointer": pointer, "label": "L", "widget": "text", "help": null, "placeholder": null})
    }
}
