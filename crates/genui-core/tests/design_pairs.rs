//! Fields a designer puts side by side stay together: a known pair of
//! neighbours is never split by a section boundary, and money words beyond
//! "amount" and "price" pair with the currency after them.

use genui_core::{Limits, Node, Plan};
use serde_json::{json, Value};

fn plan(properties: Value) -> Plan {
    let output = json!({"type": "object", "properties": properties});
    Plan::generate(&output, "Register a vehicle", false, &Limits::default()).unwrap()
}

/// The pointers of each row of the plan, in order.
fn rows(node: &Node, out: &mut Vec<Vec<String>>) {
    match node {
        Node::Horizontal { elements } => out.push(
            elements
                .iter()
                .filter_map(|e| match e {
                    Node::Control(c) => Some(c.pointer.clone()),
                    _ => None,
                })
                .collect(),
        ),
        Node::Vertical { elements } | Node::Group { elements, .. } => {
            elements.iter().for_each(|e| rows(e, out))
        }
        _ => {}
    }
}

fn has_row(plan: &Plan, a: &str, b: &str) -> bool {
    let mut found = Vec::new();
    rows(&plan.root, &mut found);
    let (a, b) = (format!("/properties/{a}"), format!("/properties/{b}"));
    found.iter().any(|row| row.contains(&a) && row.contains(&b))
}

#[test]
fn a_make_and_its_model_share_a_section_and_a_row() {
    let plan = plan(json!({
        "ownerFirstName": {"type": "string"},
        "ownerLastName": {"type": "string"},
        "ownerPostcode": {"type": "string"},
        "vin": {"type": "string"},
        "make": {"type": "string"},
        "model": {"type": "string"},
        "year": {"type": "integer"},
        "fuelType": {"type": "string", "enum": ["petrol", "diesel"]}
    }));
    assert!(has_row(&plan, "make", "model"), "{plan:?}");
}

#[test]
fn an_estimate_pairs_with_its_currency() {
    let plan = plan(json!({
        "policy_number": {"type": "string"},
        "first_name": {"type": "string"},
        "last_name": {"type": "string"},
        "vehicle_registration": {"type": "string"},
        "damage_estimate": {"type": "number"},
        "currency": {"type": "string", "enum": ["EUR", "GBP"]},
        "injuries": {"type": "boolean"}
    }));
    assert!(has_row(&plan, "damage_estimate", "currency"), "{plan:?}");
}
