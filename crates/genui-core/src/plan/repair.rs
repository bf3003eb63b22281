//! The safety net under every plan before it is proven: a control whose
//! widget does not fit its field (the checker's `widget_mismatch`) gets the
//! plain widget for that field instead, and the answer says so in a
//! `widget_replaced` warning. A wrong widget is a presentation slip, never
//! a reason to refuse the form with a 500.
//!
//! The plain widget is the first of these that fits the field, as the
//! checker sees it (a discriminator's kind offers every branch's value):
//!
//! | tried | why |
//! |---|---|
//! | the deterministic generator's choice for the field | what the form shows when nothing went wrong |
//! | `text` | a single-line input takes any string |
//! | `textarea` | JSON text: takes any value |
//!
//! A control none of them fits keeps its widget, and the checker refuses
//! the plan as before.

use crate::plan::conditions::control_kind;
use crate::plan::widgets::fits;
use crate::plan::{Control, Node, Plan, Widget};
use crate::pointer;
use crate::schema::{Resolved, SchemaDoc};
use crate::terms::limits::Limits;
use crate::terms::warning::Warning;
use serde_json::Value;

/// Item details nest at most this deep (the checker's bound).
const MAX_DETAIL_DEPTH: usize = 64;

/// Gives every control whose widget does not fit its field the plain
/// widget; one `widget_replaced` warning per control changed, its pointer
/// `output_at` + the control's schema path.
pub(crate) fn plain_widgets_where_misfit(
    plan: &mut Plan,
    output: &Value,
    limits: &Limits,
    output_at: &str,
) -> Vec<Warning> {
    let doc = SchemaDoc::new(output, limits);
    let mut warnings = Vec::new();
    repair_layer(
        &doc,
        output,
        &mut plan.root,
        "",
        0,
        &mut |full, from, to| {
            warnings.push(Warning {
                code: "widget_replaced",
                pointer: format!("{output_at}{full}"),
                message: format!(
                    "widget `{}` does not fit this field; the plain `{}` widget shows it",
                    from.as_str(),
                    to.as_str()
                ),
            });
        },
    );
    warnings
}

fn repair_layer(
    doc: &SchemaDoc<'_>,
    base: &Value,
    node: &mut Node,
    at: &str,
    depth: usize,
    report: &mut dyn FnMut(&str, Widget, Widget),
) {
    match node {
        Node::Vertical { elements }
        | Node::Horizontal { elements }
        | Node::Group { elements, .. } => {
            elements
                .iter_mut()
                .for_each(|n| repair_layer(doc, base, n, at, depth, report));
        }
        Node::Steps { steps } => {
            steps
                .iter_mut()
                .flat_map(|s| s.elements.iter_mut())
                .for_each(|n| repair_layer(doc, base, n, at, depth, report));
        }
        Node::Control(control) => repair_control(doc, base, control, at, depth, report),
        Node::Table(_) => {}
    }
}

fn repair_control(
    doc: &SchemaDoc<'_>,
    base: &Value,
    control: &mut Control,
    at: &str,
    depth: usize,
    report: &mut dyn FnMut(&str, Widget, Widget),
) {
    let Some(node) = doc.resolve_scope(base, &control.pointer) else {
        return;
    };
    let Ok(view) = doc.resolve(node) else { return };
    let full = format!("{at}{}", control.pointer);
    if let Some(plain) = plain_widget(doc, base, node, &view, &control.pointer, control.widget) {
        report(&full, control.widget, plain);
        control.widget = plain;
    }
    let items = doc.resolve_scope(node, "/items").filter(|n| n.is_object());
    if let (Some(detail), Some(items), true) = (
        control.detail.as_deref_mut(),
        items,
        depth < MAX_DETAIL_DEPTH,
    ) {
        repair_layer(
            doc,
            items,
            detail,
            &format!("{full}/items"),
            depth + 1,
            report,
        );
    }
}

/// The widget to show instead of `widget`, when `widget` does not fit the
/// field and one of the table's does.
fn plain_widget(
    doc: &SchemaDoc<'_>,
    base: &Value,
    node: &Value,
    view: &Resolved,
    at: &str,
    widget: Widget,
) -> Option<Widget> {
    let kind = control_kind(doc, base, at, view);
    let items = doc
        .resolve_scope(node, "/items")
        .filter(|n| n.is_object())
        .and_then(|n| doc.resolve(n).ok());
    let items_kind = items.as_ref().map(Resolved::kind);
    if fits(widget, view, &kind, items_kind.as_ref()) {
        return None;
    }
    let name = pointer::unescape(at.rsplit('/').next().unwrap_or_default());
    let chosen = Widget::choose(&name, view, &kind, items_kind.as_ref());
    [chosen, Widget::Text, Widget::Textarea]
        .into_iter()
        .find(|w| fits(*w, view, &kind, items_kind.as_ref()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::check::check_plan;
    use serde_json::json;

    #[test]
    fn a_misfit_widget_becomes_the_plain_one_with_a_warning() {
        let output = json!({"type": "object", "properties": {
            "name": {"type": "string"},
            "size": {"enum": ["s", "m", "l", "xl"]},
            "rows": {"type": "array", "items": {"type": "object", "properties": {"n": {"type": "integer"}}}}}});
        let limits = Limits::default();
        let mut plan = crate::plan::generate::generate(&output, "", false, &limits).unwrap();
        let mut slip = |node: &mut Node| {
            if let Node::Control(c) = node {
                c.widget = Widget::Slider;
                if let Some(Node::Vertical { elements }) = c.detail.as_deref_mut() {
                    elements.iter_mut().for_each(|n| {
                        if let Node::Control(c) = n {
                            c.widget = Widget::Checkbox
                        }
                    });
                }
            }
        };
        let Node::Vertical { elements } = &mut plan.root else {
            panic!("a vertical root")
        };
        // Short fields may share a row: reach the controls inside it.
        for element in elements.iter_mut() {
            match element {
                Node::Horizontal { elements } => elements.iter_mut().for_each(&mut slip),
                other => slip(other),
            }
        }
        assert_eq!(
            check_plan(&plan, &output, &limits).len(),
            4,
            "every control misfits before"
        );
        let warnings = plain_widgets_where_misfit(&mut plan, &output, &limits, "/output");
        let pointers: Vec<&str> = warnings.iter().map(|w| w.pointer.as_str()).collect();
        assert_eq!(
            pointers,
            [
                "/output/properties/name",
                "/output/properties/size",
                "/output/properties/rows",
                "/output/properties/rows/items/properties/n"
            ]
        );
        assert!(warnings.iter().all(|w| w.code == "widget_replaced"));
        let widgets: Vec<Widget> = plan.root.controls().iter().map(|c| c.widget).collect();
        assert_eq!(widgets[..3], [Widget::Text, Widget::Select, Widget::Array]);
        assert_eq!(check_plan(&plan, &output, &limits), []);
    }

    #[test]
    fn a_fitting_plan_is_left_alone() {
        let output = json!({"type": "object", "properties": {"a": {"type": "boolean"}, "b": {"enum": [1, 2]}}});
        let limits = Limits::default();
        let mut plan = crate::plan::generate::generate(&output, "", false, &limits).unwrap();
        let before = plan.clone();
        assert!(plain_widgets_where_misfit(&mut plan, &output, &limits, "").is_empty());
        assert_eq!(plan, before);
    }
}
