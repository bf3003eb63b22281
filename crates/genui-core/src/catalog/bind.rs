//! Controls bound to catalog components: the deterministic generator's
//! choice ([`suggest`]), and the proof every binding passes, whoever wrote
//! the plan ([`prove`]).
//!
//! A binding is a control's `component` (an entry's name) and optional
//! `componentProps`; the control keeps its built-in `widget`, which stands
//! in for the component in the formats that cannot show it. A binding is
//! proven when the catalog has the component, the field's schema satisfies
//! its `fits` (`fits.rs`), and its props validate. The field keeps its
//! control either way, so every required field stays reachable; the
//! checker then proves the stand-in widget like any other. An unproven
//! binding is removed (the built-in widget shows the field) and a warning
//! says why.

use super::{fits, Catalog, Entry};
use crate::error::{Error, ErrorCode};
use crate::plan::{widgets, Control, Node, Plan};
use crate::schema::{Resolved, SchemaDoc};
use crate::terms::limits::Limits;
use crate::terms::warning::Warning;
use serde_json::{Map, Value};

/// Binds each control whose field asks for a component of `catalog`: by
/// name (`x-genui-widget`), or by a `format` the entry lists. The stand-in
/// becomes the control's widget when it fits the field. [`prove`] still
/// decides whether the binding stays.
pub(crate) fn suggest(plan: &mut Plan, output: &Value, catalog: &Catalog, limits: &Limits) {
    let doc = SchemaDoc::new(output, limits);
    walk(
        &doc,
        output,
        &mut plan.root,
        "",
        0,
        &mut |control, view, _| {
            let Some(view) = view else { return };
            let asked = view
                .str("x-genui-widget")
                .and_then(|name| catalog.entry(name));
            let by_format = || {
                view.str("format").and_then(|f| {
                    catalog
                        .entries()
                        .iter()
                        .find(|e| e.formats.iter().any(|g| g == f))
                })
            };
            let Some(entry) = asked.or_else(by_format) else {
                return;
            };
            control.component = Some(entry.name.clone());
            if stand_in_fits(&doc, entry, view) {
                control.widget = entry.stand_in;
            }
        },
    );
}

/// Proves every binding of `plan` against `catalog` (none configured:
/// every binding is refused); refused bindings are removed, each with a
/// `component_refused` warning whose pointer is `output_at` + the field.
pub(crate) fn prove(
    plan: &mut Plan,
    output: &Value,
    catalog: Option<&Catalog>,
    limits: &Limits,
    output_at: &str,
) -> Vec<Warning> {
    if !binds_any(&plan.root) {
        return Vec::new(); // nothing to prove, and the walk resolves every field
    }
    let doc = SchemaDoc::new(output, limits);
    let mut warnings = Vec::new();
    walk(
        &doc,
        output,
        &mut plan.root,
        "",
        0,
        &mut |control, view, full| {
            let Some(name) = control.component.clone() else {
                return;
            };
            if let Err(why) = proven(catalog, &name, control.component_props.as_ref(), view) {
                control.component = None;
                control.component_props = None;
                warnings.push(Warning {
                code: "component_refused",
                pointer: format!("{output_at}{full}"),
                message: format!("component `{name}` was not bound: {}; the built-in `{}` widget shows the field", why.message(), control.widget.as_str()),
            });
            }
        },
    );
    warnings
}

/// The warnings for the bindings a spec's schema asks for (as [`suggest`]
/// binds them) that its plan does not have because [`prove`] refused them:
/// what a cache hit says, since the stored plan keeps only proven bindings.
pub(crate) fn refused_requests(
    plan: &Plan,
    output: &Value,
    catalog: &Catalog,
    limits: &Limits,
    output_at: &str,
) -> Vec<Warning> {
    let doc = SchemaDoc::new(output, limits);
    let mut bound = Vec::new();
    let mut stored = plan.clone();
    walk(&doc, output, &mut stored.root, "", 0, &mut |c, _, full| {
        if c.component.is_some() {
            bound.push(format!("{output_at}{full}"));
        }
    });
    let mut asked = stored;
    strip(&mut asked.root);
    suggest(&mut asked, output, catalog, limits);
    let mut warnings = prove(&mut asked, output, Some(catalog), limits, output_at);
    warnings.retain(|w| !bound.contains(&w.pointer));
    warnings
}

/// Whether any control (item details included) names a component.
fn binds_any(node: &Node) -> bool {
    match node {
        Node::Vertical { elements }
        | Node::Horizontal { elements }
        | Node::Group { elements, .. } => elements.iter().any(binds_any),
        Node::Steps { steps } => steps.iter().flat_map(|s| &s.elements).any(binds_any),
        Node::Control(control) => {
            control.component.is_some() || control.detail.as_deref().is_some_and(binds_any)
        }
        Node::Table(_) => false,
    }
}

/// Removes every binding (item details included).
fn strip(node: &mut Node) {
    match node {
        Node::Vertical { elements }
        | Node::Horizontal { elements }
        | Node::Group { elements, .. } => elements.iter_mut().for_each(strip),
        Node::Steps { steps } => steps
            .iter_mut()
            .flat_map(|s| s.elements.iter_mut())
            .for_each(strip),
        Node::Control(control) => {
            control.component = None;
            if let Some(detail) = control.detail.as_deref_mut() {
                strip(detail);
            }
        }
        Node::Table(_) => {}
    }
}

fn proven(
    catalog: Option<&Catalog>,
    name: &str,
    props: Option<&Map<String, Value>>,
    view: Option<&Resolved<'_>>,
) -> Result<(), Error> {
    let refused = |message: String| Error::new(ErrorCode::InvalidRequest, message);
    let catalog = catalog.ok_or_else(|| refused("the request names no catalog".into()))?;
    let entry = catalog.entry(name).ok_or_else(|| {
        refused(format!(
            "catalog `{}` has no such component",
            catalog.name()
        ))
    })?;
    let view = view.ok_or_else(|| refused("the field's schema does not resolve".into()))?;
    fits::satisfies(&field_schema(view), &entry.fits)?;
    entry.check_props(props)
}

/// The field's schema as one object for the proof: the merged view, with
/// `null` added to its types when a nullable `anyOf`/`oneOf` was collapsed
/// (the view drops that member; the proof must not).
fn field_schema(view: &Resolved<'_>) -> Value {
    let mut schema = view.to_schema();
    if view.nullable {
        let types = match schema.get("type") {
            Some(Value::String(t)) => vec![Value::String(t.clone())],
            Some(Value::Array(ts)) => ts.clone(),
            _ => Vec::new(),
        };
        if !types.is_empty() && !types.iter().any(|t| t == "null") {
            schema.insert(
                "type".into(),
                Value::Array(
                    types
                        .into_iter()
                        .chain([Value::String("null".into())])
                        .collect(),
                ),
            );
        }
    }
    Value::Object(schema)
}

fn stand_in_fits(doc: &SchemaDoc<'_>, entry: &Entry, view: &Resolved<'_>) -> bool {
    let kind = view.kind();
    let items = view
        .get("items")
        .filter(|i| i.is_object())
        .and_then(|i| doc.resolve(i).ok());
    widgets::fits(
        entry.stand_in,
        view,
        &kind,
        items.as_ref().map(Resolved::kind).as_ref(),
    )
}

/// Visits every control (item details included, tables not) with its
/// field's resolved view and its pointer from the root schema.
fn walk<'d>(
    doc: &SchemaDoc<'d>,
    base: &'d Value,
    node: &mut Node,
    at: &str,
    depth: usize,
    f: &mut dyn FnMut(&mut Control, Option<&Resolved<'d>>, &str),
) {
    if depth > 64 {
        return;
    }
    match node {
        Node::Vertical { elements }
        | Node::Horizontal { elements }
        | Node::Group { elements, .. } => {
            elements
                .iter_mut()
                .for_each(|n| walk(doc, base, n, at, depth + 1, f));
        }
        Node::Steps { steps } => steps
            .iter_mut()
            .flat_map(|s| s.elements.iter_mut())
            .for_each(|n| walk(doc, base, n, at, depth + 1, f)),
        Node::Control(control) => {
            let full = format!("{at}{}", control.pointer);
            let field = doc.resolve_scope(base, &control.pointer);
            let view = field.and_then(|n| doc.resolve(n).ok());
            f(control, view.as_ref(), &full);
            let items = field
                .and_then(|n| doc.resolve_scope(n, "/items"))
                .filter(|n| n.is_object());
            if let (Some(detail), Some(items)) = (control.detail.as_deref_mut(), items) {
                walk(doc, items, detail, &format!("{full}/items"), depth + 1, f);
            }
        }
        Node::Table(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::tests::example;
    use crate::plan::Widget;
    use serde_json::json;

    fn plan_for(output: &Value) -> Plan {
        crate::plan::generate::generate(output, "", false, &Limits::default()).unwrap()
    }

    fn bound(plan: &Plan) -> Vec<(String, Option<String>, Widget)> {
        plan.root
            .controls()
            .iter()
            .map(|c| (c.pointer.clone(), c.component.clone(), c.widget))
            .collect()
    }

    #[test]
    fn fields_that_ask_for_a_component_get_it_and_its_stand_in() {
        let output = json!({"type": "object", "required": ["stars"], "properties": {
            "stars": {"type": "integer", "minimum": 0, "maximum": 10, "x-genui-widget": "starRating"},
            "shade": {"type": "string", "format": "color"},
            "note": {"type": "string"}}});
        let catalog = example();
        let mut plan = plan_for(&output);
        suggest(&mut plan, &output, &catalog, &Limits::default());
        assert!(prove(
            &mut plan,
            &output,
            Some(&catalog),
            &Limits::default(),
            "/output"
        )
        .is_empty());
        assert_eq!(
            bound(&plan),
            vec![
                (
                    "/properties/stars".into(),
                    Some("starRating".into()),
                    Widget::Integer
                ),
                (
                    "/properties/shade".into(),
                    Some("colorPicker".into()),
                    Widget::Text
                ),
                ("/properties/note".into(), None, Widget::Textarea),
            ]
        );
        assert!(crate::plan::check::check_plan(&plan, &output, &Limits::default()).is_empty());
    }

    #[test]
    fn a_rating_bound_to_a_field_up_to_eleven_is_refused_and_repaired() {
        let output = json!({"type": "object", "required": ["stars"], "properties": {
            "stars": {"type": "integer", "minimum": 0, "maximum": 11, "x-genui-widget": "starRating"}}});
        let catalog = example();
        let mut plan = plan_for(&output);
        suggest(&mut plan, &output, &catalog, &Limits::default());
        assert_eq!(
            plan.root.controls()[0].component.as_deref(),
            Some("starRating"),
            "asked for"
        );
        let warnings = prove(
            &mut plan,
            &output,
            Some(&catalog),
            &Limits::default(),
            "/output",
        );
        assert_eq!(warnings.len(), 1);
        assert_eq!(
            (warnings[0].code, warnings[0].pointer.as_str()),
            ("component_refused", "/output/properties/stars")
        );
        assert!(
            warnings[0].message.contains("maximum"),
            "{}",
            warnings[0].message
        );
        assert_eq!(plan.root.controls()[0].component, None);
        assert!(
            crate::plan::check::check_plan(&plan, &output, &Limits::default()).is_empty(),
            "the built-in widget still proves"
        );
    }

    #[test]
    fn nullable_fields_props_and_unknown_components_are_refused() {
        let output = json!({"type": "object", "properties": {
            "a": {"anyOf": [{"type": "integer", "minimum": 0, "maximum": 10}, {"type": "null"}]},
            "b": {"type": "integer", "minimum": 1, "maximum": 5},
            "c": {"type": "integer", "minimum": 1, "maximum": 5},
            "d": {"type": "integer", "minimum": 1, "maximum": 5},
            "items": {"type": "array", "items": {"type": "object", "properties": {"r": {"type": "integer", "minimum": 0, "maximum": 3}}}}}});
        let catalog = example();
        let mut plan = plan_for(&output);
        let mut stars = 0;
        let bind = |c: &mut Control, props: Option<Value>| {
            c.component = Some(if c.pointer.ends_with("/d") {
                "signature".into()
            } else {
                "starRating".into()
            });
            c.component_props = props.and_then(|p| p.as_object().cloned());
        };
        let mut root = std::mem::replace(&mut plan.root, Node::Vertical { elements: vec![] });
        walk(
            &SchemaDoc::new(&output, &Limits::default()),
            &output,
            &mut root,
            "",
            0,
            &mut |c, _, _| {
                stars += 1;
                match c.pointer.as_str() {
                    "/properties/c" => bind(c, Some(json!({"stars": 0}))),
                    "/properties/b" => bind(c, Some(json!({"stars": 5}))),
                    _ => bind(c, None),
                }
            },
        );
        plan.root = root;
        let mut warnings = prove(&mut plan, &output, Some(&catalog), &Limits::default(), "");
        warnings.sort_by(|a, b| a.pointer.cmp(&b.pointer));
        let refused: Vec<&str> = warnings.iter().map(|w| w.pointer.as_str()).collect();
        assert_eq!(
            refused,
            [
                "/properties/a",
                "/properties/c",
                "/properties/d",
                "/properties/items"
            ],
            "{warnings:?}"
        );
        assert!(
            warnings[1].message.contains("props"),
            "{}",
            warnings[1].message
        );
        let kept: Vec<String> = plan
            .root
            .controls()
            .iter()
            .filter(|c| c.component.is_some())
            .map(|c| c.pointer.clone())
            .collect();
        assert_eq!(kept, ["/properties/b"]);
        let detail = plan
            .root
            .controls()
            .iter()
            .find_map(|c| c.detail.clone())
            .unwrap();
        assert_eq!(
            detail.controls()[0].component.as_deref(),
            Some("starRating"),
            "an item's field is proven against the item schema"
        );
        assert!(stars >= 6);
        let mut plan2 = plan.clone();
        plan2.root.controls().first().unwrap();
        assert_eq!(
            prove(&mut plan2, &output, None, &Limits::default(), "").len(),
            2,
            "no catalog: nothing stays bound"
        );
    }
}
