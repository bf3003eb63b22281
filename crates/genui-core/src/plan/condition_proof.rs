//! Proving rule conditions compile (a check of `plan::check`) without one
//! jsonschema build per condition.
//!
//! Each rule's condition must compile on its own as a 2020-12 schema. In
//! wasm every jsonschema build also builds the draft's meta-schema
//! validator (the crate caches it natively only), about 2 ms of CPU, so a
//! plan with ten rules spent 20 ms proving them: a fifth of all CPU over
//! the peer corpus. Two savings, neither of which skips a condition:
//!
//! - conditions with no `$` keyword at all are proved together, as the
//!   members of one `anyOf`: the meta-schema checks every member of `anyOf`
//!   as it checks a root, and without `$id`, `$schema`, `$anchor`, `$ref` or
//!   `$dynamic*` a member compiles exactly as it would alone; when the whole
//!   fails, each condition is compiled alone as before, so the issue names
//!   the right rule with the same message;
//! - a condition that compiled is remembered by its text for the isolate's
//!   life (bounded in bytes), as compiling depends on nothing else.

use crate::plan::Node;
use serde_json::Value;
use std::cell::RefCell;
use std::collections::HashSet;

/// Bytes of condition text remembered; past it the memo starts over.
const COMPILED_BYTES: usize = 256 * 1024;

thread_local! {
    static COMPILED: RefCell<(HashSet<String>, usize)> = RefCell::new((HashSet::new(), 0));
}

/// Whether this isolate already compiled the condition with this JSON text.
pub(crate) fn compiled(text: &str) -> bool {
    COMPILED.with(|memo| memo.borrow().0.contains(text))
}

/// Remembers that the condition with this JSON text compiled.
pub(crate) fn remember(text: String) {
    if text.len() > COMPILED_BYTES / 4 {
        return;
    }
    COMPILED.with(|memo| {
        let (set, bytes) = &mut *memo.borrow_mut();
        if *bytes + text.len() > COMPILED_BYTES {
            set.clear();
            *bytes = 0;
        }
        *bytes += text.len();
        set.insert(text);
    });
}

/// Compiles the plan's `$`-free conditions (not yet remembered) as one
/// `anyOf`; when that compiles, each is remembered as compiled. Nothing is
/// reported here: `check_rule` still asks about every condition.
pub(crate) fn prove_together(root: &Node) {
    let mut conditions = Vec::new();
    collect(root, &mut conditions, 0);
    let mut texts = HashSet::new();
    let members: Vec<Value> = conditions
        .into_iter()
        .filter(|c| c.is_object() || c.is_boolean())
        .filter_map(|c| {
            let text = c.to_string();
            (!text.contains("\"$") && !compiled(&text) && texts.insert(text)).then(|| c.clone())
        })
        .collect();
    if members.len() < 2 {
        return;
    }
    let together = serde_json::json!({ "anyOf": members });
    if crate::schema::compile(&together, jsonschema::Draft::Draft202012).is_ok() {
        texts.into_iter().for_each(remember);
    }
}

/// Every rule condition in the plan, array items' details included (as
/// deep as the checker goes).
fn collect<'a>(node: &'a Node, out: &mut Vec<&'a Value>, depth: usize) {
    match node {
        Node::Vertical { elements } | Node::Horizontal { elements } => {
            elements.iter().for_each(|n| collect(n, out, depth))
        }
        Node::Group { elements, rule, .. } => {
            out.extend(rule.as_ref().map(|r| &r.schema));
            elements.iter().for_each(|n| collect(n, out, depth));
        }
        Node::Steps { steps } => steps
            .iter()
            .flat_map(|s| &s.elements)
            .for_each(|n| collect(n, out, depth)),
        Node::Control(control) => {
            out.extend(control.rule.as_ref().map(|r| &r.schema));
            if let (Some(detail), true) = (&control.detail, depth < 64) {
                collect(detail, out, depth + 1);
            }
        }
        Node::Table(table) => out.extend(table.control.rule.as_ref().map(|r| &r.schema)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn plan(conditions: Vec<Value>) -> Node {
        let with_rule = |schema: Value| {
            let mut control =
                crate::plan::Control::new("/properties/a", "A", crate::plan::Widget::Text);
            control.rule = Some(crate::plan::Rule {
                effect: crate::plan::Effect::Show,
                pointer: "/properties/b".into(),
                schema,
            });
            Node::Control(control)
        };
        Node::Vertical {
            elements: conditions.into_iter().map(with_rule).collect(),
        }
    }

    #[test]
    fn conditions_that_compile_together_are_remembered() {
        let (a, b) = (
            json!({"const": "proof-a"}),
            json!({"minLength": 7, "pattern": "^proof-b$"}),
        );
        prove_together(&plan(vec![a.clone(), b.clone()]));
        assert!(compiled(&a.to_string()) && compiled(&b.to_string()));
    }

    #[test]
    fn a_failing_batch_remembers_nothing() {
        let (good, bad) = (json!({"const": "proof-c"}), json!({"pattern": "(unclosed"}));
        prove_together(&plan(vec![good.clone(), bad.clone()]));
        assert!(!compiled(&good.to_string()) && !compiled(&bad.to_string()));
    }

    #[test]
    fn dollar_keywords_are_left_to_the_single_compile() {
        let (a, b) = (
            json!({"$id": "urn:x", "const": 1}),
            json!({"const": "proof-d"}),
        );
        prove_together(&plan(vec![
            a.clone(),
            b.clone(),
            json!({"const": "proof-e"}),
        ]));
        assert!(!compiled(&a.to_string()) && compiled(&b.to_string()));
    }
}
