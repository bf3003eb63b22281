//! Edit in place: a fresh plan laid out like the plan of the form it edits
//! (a request's `previousSpecHash`), so a person who is filling the form
//! sees it change only where the contract changed.
//!
//! A field survives when its data pointer is the same in both plans (a
//! renamed field is a new one). [`keep_layout`] starts from the previous
//! tree: each surviving field keeps its section, its order and its row
//! partners, and shows as the fresh plan draws it (label, widget, rule,
//! item layout); removed fields leave, and a row or section left empty goes
//! with them. New fields go where the fresh plan puts them: into their
//! section when the previous layout has it (after the field that precedes
//! them in the fresh plan), else into a new section after the kept ones.
//!
//! A section's identity is its concept id ([`Node::Group`]'s `section`),
//! else its label; fields outside any section belong to the root.
//! Displays (tables) are not edited: their layout is their data's shape.

use crate::plan::{Control, Node, Plan, WizardStep};
use std::collections::{HashMap, HashSet};

/// The identity of the root, for fields outside any section.
const ROOT: &str = "";

/// `fresh` laid out like `previous` for every field both have; the title
/// and each field's own drawing are `fresh`'s. The result is a plan like
/// any other: the caller proves it against `output`.
pub(crate) fn keep_layout(previous: &Plan, fresh: Plan) -> Plan {
    if previous.is_display() || fresh.is_display() {
        return fresh;
    }
    let drawn: HashMap<&str, &Control> = fresh
        .root
        .controls()
        .into_iter()
        .map(|control| (control.pointer.as_str(), control))
        .collect();
    let sections = fresh_sections(&fresh.root);
    let mut placed = HashSet::new();
    let kept = kept_node(&previous.root, &drawn, &sections, &mut placed);
    let mut root = kept.unwrap_or(Node::Vertical {
        elements: Vec::new(),
    });
    place_new_fields(&mut root, &fresh.root, &mut placed);
    Plan {
        title: fresh.title,
        root,
    }
}

/// A section as the fresh plan draws it: its label, concept and rule.
#[derive(Debug, Clone)]
struct Section {
    label: String,
    concept: Option<String>,
    rule: Option<crate::plan::Rule>,
}

impl Section {
    fn id(&self) -> &str {
        self.concept.as_deref().unwrap_or(&self.label)
    }
}

/// The identity of a group or step: its concept id, else its label.
fn identity<'a>(label: &'a str, concept: Option<&'a String>) -> &'a str {
    concept.map_or(label, String::as_str)
}

/// The fresh plan's sections by identity.
fn fresh_sections(root: &Node) -> HashMap<String, Section> {
    let mut out = HashMap::new();
    for_each_section(root, &mut |section| {
        out.entry(section.id().to_owned())
            .or_insert_with(|| section.clone());
    });
    out
}

fn for_each_section(node: &Node, f: &mut impl FnMut(Section)) {
    match node {
        Node::Group {
            label,
            section,
            elements,
            rule,
        } => {
            f(Section {
                label: label.clone(),
                concept: section.clone(),
                rule: rule.clone(),
            });
            elements.iter().for_each(|n| for_each_section(n, f));
        }
        Node::Steps { steps } => steps.iter().for_each(|step| {
            f(Section {
                label: step.label.clone(),
                concept: step.section.clone(),
                rule: None,
            });
            step.elements.iter().for_each(|n| for_each_section(n, f));
        }),
        Node::Vertical { elements } | Node::Horizontal { elements } => {
            elements.iter().for_each(|n| for_each_section(n, f))
        }
        Node::Control(_) | Node::Table(_) => {}
    }
}

/// The previous `node` with every surviving field drawn as the fresh plan
/// draws it, removed fields gone, and emptied rows and sections dropped
/// (`None` when nothing is left). A row left with one field is that field.
fn kept_node(
    node: &Node,
    drawn: &HashMap<&str, &Control>,
    sections: &HashMap<String, Section>,
    placed: &mut HashSet<String>,
) -> Option<Node> {
    let mut kept_children = |elements: &[Node]| -> Vec<Node> {
        elements
            .iter()
            .filter_map(|n| kept_node(n, drawn, sections, placed))
            .collect()
    };
    match node {
        Node::Control(control) => {
            let fresh = drawn.get(control.pointer.as_str())?;
            placed
                .insert(control.pointer.clone())
                .then(|| Node::Control((*fresh).clone()))
        }
        Node::Table(_) => None,
        Node::Vertical { elements } => {
            let elements = kept_children(elements);
            (!elements.is_empty()).then_some(Node::Vertical { elements })
        }
        Node::Horizontal { elements } => {
            let mut elements = kept_children(elements);
            match elements.len() {
                0 => None,
                1 => elements.pop(),
                _ => Some(Node::Horizontal { elements }),
            }
        }
        Node::Group {
            label,
            section,
            elements,
            rule,
        } => {
            let elements = kept_children(elements);
            if elements.is_empty() {
                return None;
            }
            // The fresh plan's words and condition for a section it still has.
            let fresh = sections.get(identity(label, section.as_ref()));
            Some(Node::Group {
                label: fresh.map_or_else(|| label.clone(), |s| s.label.clone()),
                section: section.clone(),
                elements,
                rule: fresh.map_or_else(|| rule.clone(), |s| s.rule.clone()),
            })
        }
        Node::Steps { steps } => {
            let steps: Vec<WizardStep> = steps
                .iter()
                .filter_map(|step| {
                    let elements = kept_children(&step.elements);
                    let fresh = sections.get(identity(&step.label, step.section.as_ref()));
                    (!elements.is_empty()).then(|| WizardStep {
                        label: fresh.map_or_else(|| step.label.clone(), |s| s.label.clone()),
                        section: step.section.clone(),
                        elements,
                    })
                })
                .collect();
            (!steps.is_empty()).then_some(Node::Steps { steps })
        }
    }
}

/// One element of a fresh section: a field, or a row of fields.
#[derive(Debug)]
struct Unit<'a> {
    section: Option<Section>,
    node: &'a Node,
}

/// The fresh plan's fields and rows in document order, with their section.
fn units(node: &Node) -> Vec<Unit<'_>> {
    let mut out = Vec::new();
    collect_units(node, None, &mut out);
    out
}

fn collect_units<'a>(node: &'a Node, section: Option<&Section>, out: &mut Vec<Unit<'a>>) {
    match node {
        Node::Control(_) | Node::Horizontal { .. } | Node::Table(_) => out.push(Unit {
            section: section.cloned(),
            node,
        }),
        Node::Vertical { elements } => elements.iter().for_each(|n| collect_units(n, section, out)),
        Node::Group {
            label,
            section: concept,
            elements,
            rule,
        } => {
            let own = Section {
                label: label.clone(),
                concept: concept.clone(),
                rule: rule.clone(),
            };
            elements
                .iter()
                .for_each(|n| collect_units(n, Some(&own), out));
        }
        Node::Steps { steps } => steps.iter().for_each(|step| {
            let own = Section {
                label: step.label.clone(),
                concept: step.section.clone(),
                rule: None,
            };
            step.elements
                .iter()
                .for_each(|n| collect_units(n, Some(&own), out));
        }),
    }
}

/// Where a new piece goes in its section.
#[derive(Debug, Clone, Copy)]
enum Anchor<'a> {
    /// After the element holding this field.
    After(&'a str),
    /// Before the element holding this field.
    Before(&'a str),
    /// At the section's end.
    End,
}

/// Adds the fields of `fresh` that `root` does not place yet: a row whose
/// fields are all new comes whole, after the field that precedes it in its
/// fresh section; a new field of a row with surviving partners comes alone,
/// beside the partner it follows (or precedes) in the fresh row.
fn place_new_fields(root: &mut Node, fresh: &Node, placed: &mut HashSet<String>) {
    let mut predecessor: HashMap<String, String> = HashMap::new();
    for unit in units(fresh) {
        let id = unit
            .section
            .as_ref()
            .map_or(ROOT.to_owned(), |s| s.id().to_owned());
        let controls = unit.node.controls();
        let last_before = predecessor.get(&id).cloned();
        let section = unit.section.as_ref();
        if controls.iter().all(|c| !placed.contains(&c.pointer)) {
            let anchor = last_before.as_deref().map_or(Anchor::End, Anchor::After);
            insert(root, &id, section, anchor, unit.node.clone());
        } else {
            let first_kept = controls.iter().find(|c| placed.contains(&c.pointer));
            let mut anchor = match (first_kept, last_before.as_deref()) {
                (Some(kept), _) => Anchor::Before(kept.pointer.as_str()),
                (None, Some(before)) => Anchor::After(before),
                (None, None) => Anchor::End,
            };
            for control in &controls {
                if !placed.contains(&control.pointer) {
                    insert(
                        root,
                        &id,
                        section,
                        anchor,
                        Node::Control((*control).clone()),
                    );
                }
                anchor = Anchor::After(control.pointer.as_str());
            }
        }
        placed.extend(controls.iter().map(|c| c.pointer.clone()));
        if let Some(last) = controls.last() {
            predecessor.insert(id, last.pointer.clone());
        }
    }
}

/// Inserts `piece` into the section `id` of `root` at `anchor` (at the
/// section's end when the anchor is not in it); a section the layout lacks
/// is added after the others.
fn insert(root: &mut Node, id: &str, section: Option<&Section>, anchor: Anchor<'_>, piece: Node) {
    if let Some(elements) = section_elements(root, id) {
        let position = |pointer: &str| elements.iter().position(|n| holds(n, pointer));
        let at = match anchor {
            Anchor::After(pointer) => position(pointer).map(|i| i + 1),
            Anchor::Before(pointer) => position(pointer),
            Anchor::End => None,
        };
        let at = at.unwrap_or(elements.len());
        elements.insert(at, piece);
        return;
    }
    add_section(root, section, piece);
}

/// Appends a new section holding `piece` (the root's own elements when
/// `section` is `None`) at the end of `root`.
fn add_section(root: &mut Node, section: Option<&Section>, piece: Node) {
    let node = match section {
        None => piece,
        Some(section) => match root {
            Node::Steps { steps } => {
                steps.push(WizardStep {
                    label: section.label.clone(),
                    section: section.concept.clone(),
                    elements: vec![piece],
                });
                return;
            }
            _ => Node::Group {
                label: section.label.clone(),
                section: section.concept.clone(),
                elements: vec![piece],
                rule: section.rule.clone(),
            },
        },
    };
    match root {
        Node::Vertical { elements } => elements.push(node),
        Node::Steps { steps } => match steps.last_mut() {
            Some(step) => step.elements.push(node),
            None => steps.push(WizardStep {
                label: String::new(),
                section: None,
                elements: vec![node],
            }),
        },
        other => {
            let previous = std::mem::replace(
                other,
                Node::Vertical {
                    elements: Vec::new(),
                },
            );
            *other = Node::Vertical {
                elements: vec![previous, node],
            };
        }
    }
}

/// The elements of the first section named `id` in `node` (the root's own
/// elements for [`ROOT`] when the root is a vertical list).
fn section_elements<'a>(node: &'a mut Node, id: &str) -> Option<&'a mut Vec<Node>> {
    if id == ROOT {
        return match node {
            Node::Vertical { elements } => Some(elements),
            _ => None,
        };
    }
    match node {
        Node::Group {
            label,
            section,
            elements,
            ..
        } => {
            if identity(label, section.as_ref()) == id {
                return Some(elements);
            }
            elements.iter_mut().find_map(|n| section_elements(n, id))
        }
        Node::Steps { steps } => steps.iter_mut().find_map(|step| {
            if identity(&step.label, step.section.as_ref()) == id {
                return Some(&mut step.elements);
            }
            step.elements
                .iter_mut()
                .find_map(|n| section_elements(n, id))
        }),
        Node::Vertical { elements } | Node::Horizontal { elements } => {
            elements.iter_mut().find_map(|n| section_elements(n, id))
        }
        Node::Control(_) | Node::Table(_) => None,
    }
}

/// Whether `node` holds the field at `pointer`.
fn holds(node: &Node, pointer: &str) -> bool {
    node.controls().iter().any(|c| c.pointer == pointer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::check::check_plan;
    use crate::plan::Widget;
    use crate::terms::limits::Limits;
    use serde_json::json;

    fn field(name: &str) -> Node {
        let pointer = format!("/properties/{name}");
        Node::Control(Control::new(pointer, name, Widget::Text))
    }

    fn row(names: &[&str]) -> Node {
        Node::Horizontal {
            elements: names.iter().map(|n| field(n)).collect(),
        }
    }

    fn group(id: &str, elements: Vec<Node>) -> Node {
        Node::Group {
            label: id.to_uppercase(),
            section: Some(id.to_owned()),
            elements,
            rule: None,
        }
    }

    fn plan(sections: Vec<Node>) -> Plan {
        Plan {
            title: Some("T".into()),
            root: Node::Vertical { elements: sections },
        }
    }

    fn previous() -> Plan {
        plan(vec![
            group("personal", vec![row(&["first", "last"]), field("email")]),
            group("address", vec![field("street"), row(&["city", "zip"])]),
        ])
    }

    #[test]
    fn surviving_fields_keep_section_order_and_row() {
        // The fresh generator moved `email` to its own section, split the
        // name row and reordered the address.
        let fresh = plan(vec![
            group("personal", vec![field("last"), field("first")]),
            group("contact", vec![field("email")]),
            group("address", vec![row(&["zip", "city"]), field("street")]),
        ]);
        assert_eq!(keep_layout(&previous(), fresh), previous());
    }

    #[test]
    fn a_new_field_goes_into_its_section_after_its_predecessor() {
        let fresh = plan(vec![
            group(
                "personal",
                vec![row(&["first", "last"]), field("phone"), field("email")],
            ),
            group("address", vec![field("street"), row(&["city", "zip"])]),
            group("payment", vec![row(&["iban", "bic"])]),
        ]);
        let expected = plan(vec![
            group(
                "personal",
                vec![row(&["first", "last"]), field("phone"), field("email")],
            ),
            group("address", vec![field("street"), row(&["city", "zip"])]),
            group("payment", vec![row(&["iban", "bic"])]),
        ]);
        let mut previous = previous();
        // The previous layout has `email` first: `phone` follows `last`'s row.
        if let Node::Vertical { elements } = &mut previous.root {
            elements[0] = group("personal", vec![row(&["first", "last"]), field("email")]);
        }
        assert_eq!(keep_layout(&previous, fresh), expected);
    }

    #[test]
    fn a_removed_field_leaves_and_its_row_partner_stands_alone() {
        let fresh = plan(vec![
            group("personal", vec![field("first"), field("email")]),
            group("address", vec![row(&["street", "city"])]),
        ]);
        let expected = plan(vec![
            group("personal", vec![field("first"), field("email")]),
            group("address", vec![field("street"), field("city")]),
        ]);
        assert_eq!(keep_layout(&previous(), fresh), expected);
    }

    #[test]
    fn a_renamed_field_is_new_and_each_field_is_drawn_as_the_fresh_plan_draws_it() {
        let mut fresh = plan(vec![
            group("personal", vec![row(&["given", "last"]), field("email")]),
            group("address", vec![field("street"), row(&["city", "zip"])]),
        ]);
        if let Node::Vertical { elements } = &mut fresh.root {
            if let Node::Group { elements, .. } = &mut elements[0] {
                elements[1] =
                    Node::Control(Control::new("/properties/email", "E-mail", Widget::Email));
            }
        }
        let kept = keep_layout(&previous(), fresh);
        let controls = kept.root.controls();
        // `given` stands where the fresh row has it: before its partner.
        let pointers: Vec<&str> = controls.iter().map(|c| c.pointer.as_str()).collect();
        assert_eq!(
            pointers,
            [
                "/properties/given",
                "/properties/last",
                "/properties/email",
                "/properties/street",
                "/properties/city",
                "/properties/zip"
            ]
        );
        assert_eq!(controls[2].widget, Widget::Email);
        assert_eq!(controls[2].label, "E-mail");
    }

    #[test]
    fn a_kept_plan_of_generated_forms_passes_the_proof() {
        let limits = Limits::default();
        let before = json!({"type": "object", "required": ["email"], "properties": {
            "firstName": {"type": "string"}, "lastName": {"type": "string"},
            "email": {"type": "string", "format": "email"},
            "street": {"type": "string"}, "city": {"type": "string"}, "postalCode": {"type": "string"},
            "startDate": {"type": "string", "format": "date"}, "endDate": {"type": "string", "format": "date"}}});
        let mut after = before.clone();
        let properties = after["properties"].as_object_mut().unwrap();
        properties.remove("city");
        properties.insert("phone".into(), json!({"type": "string"}));
        properties.insert(
            "country".into(),
            json!({"type": "string", "enum": ["DE", "FR"]}),
        );
        after["required"] = json!(["email", "phone"]);
        let previous = super::super::generate(&before, "", false, &limits).unwrap();
        let fresh = super::super::generate(&after, "", false, &limits).unwrap();
        let kept = keep_layout(&previous, fresh);
        assert_eq!(check_plan(&kept, &after, &limits), []);
        let pointers: HashSet<&str> = kept
            .root
            .controls()
            .iter()
            .map(|c| c.pointer.as_str())
            .collect();
        assert!(pointers.contains("/properties/phone") && !pointers.contains("/properties/city"));
    }
}
