//! A reference design as a plan: the plan a model would return if it laid
//! the form out exactly as the designer did, within what a plan can say
//! (sections, rows, order and title; not option labels or lead text).
//!
//! The controls (label, widget, help, rules, item layouts) are the
//! deterministic generator's, moved into the reference's sections and rows,
//! so the plan differs from the generator's in layout and title only.

use super::case::Case;
use genui_core::{Control, Node, Plan};
use std::collections::BTreeMap;

/// The reference's layout over the generator's controls. Panics when the
/// reference names a field the generator gave no control (the dev-set test
/// checks references cover the schema's fields).
pub fn reference_plan(case: &Case, generated: &Plan) -> Plan {
    let mut controls = BTreeMap::new();
    collect_controls(&generated.root, &mut controls);
    let mut take = |field: &str| -> Node {
        let control = controls
            .remove(field)
            .unwrap_or_else(|| panic!("{}: no control for {field}", case.name));
        Node::Control(control)
    };
    let reference = &case.reference;
    let mut sections = Vec::new();
    for section in &reference.sections {
        let mut elements = Vec::new();
        let mut placed: Vec<&str> = Vec::new();
        for field in &section.fields {
            if placed.contains(&field.as_str()) {
                continue;
            }
            match reference.rows.iter().find(|row| row.first() == Some(field)) {
                Some(row) => {
                    placed.extend(row.iter().map(String::as_str));
                    elements.push(Node::Horizontal {
                        elements: row.iter().map(|f| take(f)).collect(),
                    });
                }
                None => {
                    placed.push(field);
                    elements.push(take(field));
                }
            }
        }
        sections.push(Node::Group {
            label: section.name.clone(),
            section: None,
            elements,
            rule: None,
        });
    }
    Plan {
        title: Some(reference.title.clone()),
        root: Node::Vertical { elements: sections },
    }
}

/// Every control by pointer (an array's item layout stays in its control).
fn collect_controls(node: &Node, out: &mut BTreeMap<String, Control>) {
    match node {
        Node::Vertical { elements }
        | Node::Horizontal { elements }
        | Node::Group { elements, .. } => elements.iter().for_each(|e| collect_controls(e, out)),
        Node::Steps { steps } => steps
            .iter()
            .flat_map(|s| &s.elements)
            .for_each(|e| collect_controls(e, out)),
        Node::Control(control) => {
            out.insert(control.pointer.clone(), control.clone());
        }
        Node::Table(_) => {}
    }
}
