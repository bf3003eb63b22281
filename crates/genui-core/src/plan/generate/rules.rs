//! Conditional rules on a plan, derived from the `output` schema's own
//! conditionals as [`crate::plan::conditions`] reads them (its module doc
//! has the table). [`derive`] runs on every plan (deterministic and model);
//! the checker proves the result.

use crate::plan::conditions::Analysis;
use crate::plan::{Control, Node, Plan, Rule};
use crate::pointer;
use crate::schema::{Resolved, SchemaDoc};
use crate::terms::limits::Limits;
use serde_json::Value;
use std::collections::HashMap;

/// Sets every control's and section's rule from the schema, replacing what
/// was there. `output` is the schema the plan's pointers are relative to.
pub(crate) fn derive(plan: &mut Plan, output: &Value, limits: &Limits) {
    // Plans are built without rules (a model cannot write one), so a schema
    // with no conditional keyword anywhere has nothing to derive.
    if !has_conditionals(output, 0) {
        return;
    }
    let doc = SchemaDoc::new(output, limits);
    let mut memo = HashMap::new();
    derive_layer(&doc, output, &mut plan.root, &mut memo, 0);
}

type Memo<'a> = HashMap<String, Option<(Analysis, Resolved<'a>)>>;

/// Whether any object in `value` has a keyword rules come from.
fn has_conditionals(value: &Value, depth: usize) -> bool {
    const KEYWORDS: [&str; 6] = [
        "if",
        "dependentRequired",
        "dependentSchemas",
        "dependencies",
        "oneOf",
        "anyOf",
    ];
    depth <= 128
        && match value {
            Value::Object(map) => {
                KEYWORDS.iter().any(|k| map.contains_key(*k))
                    || map.values().any(|v| has_conditionals(v, depth + 1))
            }
            Value::Array(items) => items.iter().any(|v| has_conditionals(v, depth + 1)),
            _ => false,
        }
}

fn derive_layer<'a>(
    doc: &SchemaDoc<'a>,
    base: &'a Value,
    node: &mut Node,
    memo: &mut Memo<'a>,
    depth: usize,
) {
    match node {
        Node::Vertical { elements } | Node::Horizontal { elements } => {
            elements
                .iter_mut()
                .for_each(|n| derive_layer(doc, base, n, memo, depth));
        }
        Node::Group { elements, rule, .. } => {
            *rule = None;
            elements
                .iter_mut()
                .for_each(|n| derive_layer(doc, base, n, memo, depth));
            // A nested object's section follows the object's own condition.
            let object = common_object(elements);
            *rule =
                hoist(elements).or_else(|| rule_for_pointer(doc, base, object.as_deref()?, memo));
        }
        Node::Steps { steps } => {
            for step in steps {
                step.elements
                    .iter_mut()
                    .for_each(|n| derive_layer(doc, base, n, memo, depth));
            }
        }
        Node::Control(control) => derive_control(doc, base, control, memo, depth),
        Node::Table(table) => derive_control(doc, base, &mut table.control, memo, depth),
    }
}

fn derive_control<'a>(
    doc: &SchemaDoc<'a>,
    base: &'a Value,
    control: &mut Control,
    memo: &mut Memo<'a>,
    depth: usize,
) {
    control.rule = rule_for_pointer(doc, base, &control.pointer, memo);
    let Some(detail) = control.detail.as_deref_mut() else {
        return;
    };
    let items = doc
        .resolve_scope(base, &control.pointer)
        .and_then(|n| doc.resolve_scope(n, "/items"));
    if let Some(items) = items {
        if depth < 64 {
            // Item pointers are relative to the item: a memo of their own.
            derive_layer(doc, items, detail, &mut HashMap::new(), depth + 1);
        }
    }
}

fn rule_for_pointer<'a>(
    doc: &SchemaDoc<'a>,
    base: &'a Value,
    at: &str,
    memo: &mut Memo<'a>,
) -> Option<Rule> {
    let (object, name) = at.rsplit_once("/properties/")?;
    let entry = memo.entry(object.to_owned()).or_insert_with(|| {
        let node = doc.resolve_scope(base, object)?;
        Some((Analysis::of(doc, node), doc.resolve(node).ok()?))
    });
    let (analysis, view) = entry.as_ref()?;
    analysis.rule_for(&pointer::unescape(name), object, view)
}

/// The nested object every control of a section edits part of, if any
/// (a section of a flat form has none).
fn common_object(elements: &[Node]) -> Option<String> {
    let mut common: Option<String> = None;
    for element in elements {
        for control in element.controls() {
            let (parent, _) = control.pointer.rsplit_once("/properties/")?;
            let shared = match &common {
                None => parent.to_owned(),
                Some(c) => shared_object(c, parent),
            };
            common = Some(shared);
        }
    }
    common.filter(|c| !c.is_empty())
}

/// The longest object pointer both `a` and `b` are at or below.
fn shared_object(a: &str, b: &str) -> String {
    let (ta, tb) = (
        pointer::tokens(a).unwrap_or_default(),
        pointer::tokens(b).unwrap_or_default(),
    );
    let same = ta.iter().zip(&tb).take_while(|(x, y)| x == y).count();
    let pairs = same / 2 * 2;
    ta[..pairs]
        .iter()
        .map(|t| format!("/{}", pointer::escape(t)))
        .collect()
}

/// When every control of a section has the same rule, the section carries
/// it instead (so an empty frame never shows).
fn hoist(elements: &mut [Node]) -> Option<Rule> {
    let mut shared: Option<Rule> = None;
    let mut count = 0;
    for element in elements.iter() {
        let mut same = true;
        element.for_each_control(&mut |c| {
            count += 1;
            match (&c.rule, &shared) {
                (None, _) => same = false,
                (Some(rule), None) => shared = Some(rule.clone()),
                (Some(rule), Some(s)) => same &= rule == s,
            }
        });
        if !same {
            return None;
        }
    }
    let rule = shared.filter(|_| count > 1)?;
    for element in elements.iter_mut() {
        clear_rules(element);
    }
    Some(rule)
}

fn clear_rules(node: &mut Node) {
    match node {
        Node::Vertical { elements }
        | Node::Horizontal { elements }
        | Node::Group { elements, .. } => elements.iter_mut().for_each(clear_rules),
        Node::Steps { steps } => steps
            .iter_mut()
            .flat_map(|s| &mut s.elements)
            .for_each(clear_rules),
        Node::Control(control) => control.rule = None,
        Node::Table(table) => table.control.rule = None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_nested_object_only_in_then_is_a_conditional_section() {
        let output = json!({"type": "object", "properties": {"gift": {"type": "boolean"}},
            "if": {"properties": {"gift": {"const": true}}, "required": ["gift"]},
            "then": {"properties": {"recipient": {"type": "object", "properties": {"name": {"type": "string"}, "note": {"type": "string"}}}}}});
        let plan = crate::plan::generate::generate(&output, "", false, &Limits::default()).unwrap();
        let Node::Vertical { elements } = &plan.root else {
            panic!()
        };
        let Some(Node::Group {
            rule: Some(rule), ..
        }) = elements.get(1)
        else {
            panic!("{elements:?}")
        };
        assert_eq!(
            (rule.pointer.as_str(), &rule.schema),
            ("/properties/gift", &json!({"const": true}))
        );
        assert!(crate::plan::check::check_plan(&plan, &output, &Limits::default()).is_empty());
    }
}
