//! Canonical hashing: any JSON value hashes, and re-serialising it (pretty,
//! or keys in another order) never changes the hash.
#![no_main]

use genui_core::GeneratorId;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fn reversed(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .rev()
                .map(|(k, v)| (k.clone(), reversed(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(reversed).collect()),
        other => other.clone(),
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(value) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let id = GeneratorId {
        generator: "deterministic".into(),
        generator_version: "fuzz".into(),
    };
    let Ok(a) = id.spec_hash(&value, "d") else {
        return;
    };
    let again: Value =
        serde_json::from_str(&serde_json::to_string_pretty(&reversed(&value)).unwrap()).unwrap();
    assert_eq!(a, id.spec_hash(&again, "d").unwrap());
});
