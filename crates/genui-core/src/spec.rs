//! The data-free UI spec that is cached, and the key it is cached under.
//!
//! The key is `spec:v1:` + SHA-256 (hex) of the RFC 8785 (JCS) canonical JSON
//! of exactly the inputs that decide the spec: `output`, `description`, the
//! generator's id and version, and the [`KeyOptions`] that change the plan
//! (`kind: confirm`, `device: mobile`, and a model's `locale`). `data` is never part of the key or the
//! value, so one cached spec serves every user of the same form and no
//! personal data sits in the shared cache. JCS sorts keys and normalises
//! numbers, so reordered keys or other whitespace give the same key.

use crate::error::{Error, ErrorCode, Result};
use crate::plan::Plan;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

/// Version of the spec format and of the key scheme.
pub const SPEC_VERSION: u32 = 1;

/// Prefix of every spec key in KV.
pub const KEY_PREFIX: &str = "spec:v1:";

/// Identity of a generator, as recorded in keys and provenance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GeneratorId {
    /// `deterministic` (later: `model`, `fallback`).
    pub generator: String,
    /// The generator's version.
    pub generator_version: String,
}

/// The cached, data-free, format-neutral UI definition.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UiSpec {
    /// Always [`SPEC_VERSION`].
    pub spec_version: u32,
    /// Hex SHA-256 of the canonical inputs (the KV key without prefix).
    pub spec_hash: String,
    /// Who generated it.
    #[serde(flatten)]
    pub generator: GeneratorId,
    /// The JSON Schema draft `schema` was validated under (`2020-12`, `draft-07`, ...).
    pub draft: String,
    /// The request's description.
    pub description: String,
    /// The `output` schema, unchanged.
    pub schema: Value,
    /// The plan every format is compiled from.
    pub plan: Plan,
    /// Values the schema itself supplies (`default`, `const`), laid out like
    /// the data; request data is merged over these at render time.
    pub defaults: Value,
}

/// Request options that change the plan, so they are part of the key.
/// Defaults add nothing to the keyed JSON.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct KeyOptions<'a> {
    /// `kind: "confirm"`: approve/reject buttons.
    pub confirm: bool,
    /// `device: "mobile"`: one column.
    pub mobile: bool,
    /// A non-English locale, for generators that write text in it (models);
    /// the deterministic generator keeps the schema's titles, so its callers
    /// pass `None`.
    pub locale: Option<&'a str>,
}

/// The canonical hash of a request's data-free part.
pub fn spec_hash(output: &Value, description: &str, options: KeyOptions<'_>, generator: &GeneratorId) -> Result<String> {
    let mut keyed = json!({
        "description": description,
        "generator": generator.generator,
        "generatorVersion": generator.generator_version,
        "output": output,
    });
    if options.confirm {
        keyed["kind"] = json!("confirm");
    }
    if options.mobile {
        keyed["device"] = json!("mobile");
    }
    if let Some(locale) = options.locale {
        keyed["locale"] = json!(locale);
    }
    let canonical = serde_jcs::to_vec(&keyed).map_err(|e| {
        Error::new(ErrorCode::InvalidRequest, format!("output cannot be canonicalised (RFC 8785): {e}"))
    })?;
    Ok(hex::encode(Sha256::digest(&canonical)))
}

/// The KV key for a spec hash.
pub fn cache_key(spec_hash: &str) -> String {
    format!("{KEY_PREFIX}{spec_hash}")
}

impl UiSpec {
    /// Serialises for KV.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a cached value back; `None` for anything that is not a spec of
    /// this version with the expected hash (treated as a cache miss).
    pub fn from_cached(text: &str, expected_hash: &str) -> Option<Self> {
        let spec: UiSpec = serde_json::from_str(text).ok()?;
        (spec.spec_version == SPEC_VERSION && spec.spec_hash == expected_hash).then_some(spec)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id() -> GeneratorId {
        GeneratorId { generator: "deterministic".into(), generator_version: "1".into() }
    }

    #[test]
    fn hash_ignores_key_order_and_number_spelling() {
        let a: Value = serde_json::from_str(r#"{"type":"object","properties":{"a":{"minimum":1.0},"b":{}}}"#).unwrap();
        let b: Value = serde_json::from_str(r#"{ "properties" : { "b" : {}, "a" : { "minimum" : 1 } }, "type" : "object" }"#).unwrap();
        let plain = KeyOptions::default();
        assert_eq!(spec_hash(&a, "d", plain, &id()).unwrap(), spec_hash(&b, "d", plain, &id()).unwrap());
        assert_ne!(spec_hash(&a, "d", plain, &id()).unwrap(), spec_hash(&a, "e", plain, &id()).unwrap());
        assert_eq!(spec_hash(&a, "d", plain, &id()).unwrap().len(), 64);
        let mobile = KeyOptions { mobile: true, ..plain };
        let german = KeyOptions { locale: Some("de-DE"), ..plain };
        assert_ne!(spec_hash(&a, "d", mobile, &id()).unwrap(), spec_hash(&a, "d", plain, &id()).unwrap());
        assert_ne!(spec_hash(&a, "d", german, &id()).unwrap(), spec_hash(&a, "d", plain, &id()).unwrap());
    }

    #[test]
    fn cached_values_must_match_their_key() {
        let spec = UiSpec {
            spec_version: SPEC_VERSION,
            spec_hash: "ab".into(),
            generator: id(),
            draft: "2020-12".into(),
            description: String::new(),
            schema: json!({}),
            plan: Plan { title: None, root: crate::plan::Node::Vertical { elements: vec![] } },
            defaults: json!({}),
        };
        let text = spec.to_json();
        assert_eq!(UiSpec::from_cached(&text, "ab"), Some(spec));
        assert_eq!(UiSpec::from_cached(&text, "cd"), None);
        assert_eq!(UiSpec::from_cached("garbage", "ab"), None);
    }
}
