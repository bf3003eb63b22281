//! Human-in-the-loop approvals (seed 002's `confirmAction`): an `output`
//! that is a yes/no decision is shown as Approve and Reject buttons.
//!
//! A decision is a boolean, or a choice of exactly two values one of which
//! reads as approval ("approved", "accept", "yes", ...). It is recognised at
//! the root of `output`, or as a required property with an approval-like
//! name or values; `kind: "confirm"` in the request forces the first
//! candidate even without such names.

use super::labels::words;
use crate::schema::{Kind, Resolved, SchemaDoc};
use serde_json::Value;

/// The decision field and its two values.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Decision {
    /// Schema pointer of the field (`""` for the root).
    pub pointer: String,
    /// The value that approves.
    pub approve: Value,
    /// The value that rejects.
    pub reject: Value,
}

const APPROVING: [&str; 12] = [
    "approve",
    "approved",
    "accept",
    "accepted",
    "yes",
    "confirm",
    "confirmed",
    "ok",
    "allow",
    "proceed",
    "agree",
    "consent",
];

/// Most fields an approval form has besides nothing else.
const MAX_APPROVAL_FIELDS: usize = 3;

fn approving(text: &str) -> bool {
    words(text).iter().any(|w| APPROVING.contains(&w.as_str()))
}

/// The two values of a decision field, approving one first.
fn decision_values(view: &Resolved, name_approves: bool) -> Option<(Value, Value)> {
    let kind = view.kind();
    if kind.constant.is_some() {
        return None;
    }
    if kind.kind == Kind::Boolean && kind.choices.is_none() {
        return name_approves.then_some((Value::Bool(true), Value::Bool(false)));
    }
    let choices = kind.choices?;
    let [(a, _), (b, _)] = choices.as_slice() else {
        return None;
    };
    let reads = |v: &Value| v.as_str().is_some_and(approving) || v == &Value::Bool(true);
    match (reads(a), reads(b)) {
        (true, false) => Some((a.clone(), b.clone())),
        (false, true) => Some((b.clone(), a.clone())),
        _ if name_approves => Some((a.clone(), b.clone())),
        _ => None,
    }
}

/// Finds the decision of an approval form, if `output` is one.
pub(crate) fn find(doc: &SchemaDoc<'_>, root: &Resolved, forced: bool) -> Option<Decision> {
    let root_kind = root.kind().kind;
    let root_decides = forced || root_kind == Kind::Boolean;
    if let Some((approve, reject)) =
        decision_values(root, root_decides).filter(|_| root_kind != Kind::Object)
    {
        return Some(Decision {
            pointer: String::new(),
            approve,
            reject,
        });
    }
    // An object is an approval only when the decision is what it is about:
    // a few fields at most (the decision, a reason, a comment), not a
    // sign-up form that happens to have an "accept terms" box.
    if root.properties().count() > MAX_APPROVAL_FIELDS {
        return None;
    }
    let mut first_candidate = None;
    for (name, schema) in root.properties() {
        let Ok(view) = doc.resolve(schema) else {
            continue;
        };
        let pointer = crate::pointer::property("", name);
        if root.requires(name) {
            if let Some((approve, reject)) = decision_values(&view, approving(name)) {
                return Some(Decision {
                    pointer,
                    approve,
                    reject,
                });
            }
        }
        if forced && first_candidate.is_none() {
            first_candidate = decision_values(&view, true).map(|(approve, reject)| Decision {
                pointer,
                approve,
                reject,
            });
        }
    }
    first_candidate
}

/// The approve and reject values of the decision field at `pointer`.
pub(crate) fn values_at(
    output: &Value,
    pointer: &str,
    limits: &crate::terms::limits::Limits,
) -> Option<(Value, Value)> {
    let doc = SchemaDoc::new(output, limits);
    let view = doc.resolve(doc.resolve_scope(output, pointer)?).ok()?;
    decision_values(&view, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::terms::limits::Limits;
    use serde_json::json;

    fn decide(output: Value, forced: bool) -> Option<Decision> {
        let limits = Limits::default();
        let doc = SchemaDoc::new(&output, &limits);
        let root = doc.resolve(&output).ok()?;
        find(&doc, &root, forced)
    }

    #[test]
    fn recognises_decisions() {
        let d = decide(
            json!({"type": "string", "enum": ["rejected", "approved"]}),
            false,
        )
        .unwrap();
        assert_eq!(
            (d.pointer.as_str(), d.approve, d.reject),
            ("", json!("approved"), json!("rejected"))
        );
        assert_eq!(
            decide(json!({"type": "boolean"}), false).unwrap().approve,
            json!(true)
        );
        let d = decide(
            json!({"type": "object", "required": ["approved"], "properties": {
            "approved": {"type": "boolean"}, "reason": {"type": "string"}}}),
            false,
        )
        .unwrap();
        assert_eq!(d.pointer, "/properties/approved");
    }

    #[test]
    fn ordinary_forms_are_not_approvals() {
        assert!(decide(json!({"type": "object", "required": ["newsletter"], "properties": {"newsletter": {"type": "boolean"}}}), false).is_none());
        assert!(decide(json!({"type": "string", "enum": ["red", "blue"]}), false).is_none());
        let signup = json!({"type": "object", "required": ["acceptTerms"], "properties": {
            "acceptTerms": {"type": "boolean"}, "email": {"type": "string"}, "name": {"type": "string"}, "plan": {"type": "string"}}});
        assert!(
            decide(signup, false).is_none(),
            "a form with an accept box is not an approval"
        );
        let forced = decide(
            json!({"type": "object", "properties": {"newsletter": {"type": "boolean"}}}),
            true,
        );
        assert_eq!(forced.unwrap().pointer, "/properties/newsletter");
    }
}
