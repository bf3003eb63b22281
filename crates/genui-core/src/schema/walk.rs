//! The one question several schema checks ask of a whole document: does
//! any object in it, at any depth, satisfy a test? Arrays and objects are
//! entered alike and keywords are not interpreted, so the answer may
//! over-approximate (an `enum` value that looks like a schema counts),
//! which every caller wants from a cheap first look before real work.

use serde_json::{Map, Value};

/// Whether `value`, or any object nested anywhere in it, satisfies `found`.
pub(crate) fn any_object(value: &Value, found: &dyn Fn(&Map<String, Value>) -> bool) -> bool {
    match value {
        Value::Object(map) => found(map) || map.values().any(|child| any_object(child, found)),
        Value::Array(items) => items.iter().any(|item| any_object(item, found)),
        _ => false,
    }
}

/// Whether any object in `value` has one of `keys`.
pub(crate) fn any_key(value: &Value, keys: &[&str]) -> bool {
    any_object(value, &|map| keys.iter().any(|key| map.contains_key(*key)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn objects_are_found_at_any_depth_through_arrays() {
        let doc = json!({"a": [{"b": {"$ref": "x"}}], "c": 1});
        assert!(any_key(&doc, &["$ref"]));
        assert!(any_key(&doc, &["nope", "b"]));
        assert!(!any_key(&doc, &["$id"]));
        assert!(!any_key(&json!(["$ref", 1, null]), &["$ref"]));
        let has_ref_x = |map: &Map<String, Value>| map.get("$ref") == Some(&json!("x"));
        assert!(any_object(&doc, &has_ref_x));
        assert!(!any_object(&json!({"$ref": "y"}), &has_ref_x));
    }
}
