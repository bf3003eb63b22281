//! The data-free UI spec that is cached, and the key it is cached under.
//!
//! The key is `spec:v3:` + the spec hash: the hex SHA-256 of the canonical
//! JSON ([`canonical`]) of an envelope holding exactly the inputs that
//! decide the spec:
//!
//! | member                   | value                                                       |
//! |--------------------------|-------------------------------------------------------------|
//! | `outputSha256`           | hex SHA-256 of `output`'s canonical JSON ([`OutputDigest`]) |
//! | `description`            | the request's description                                   |
//! | `generator`              | the generator's id (`deterministic`, `model`)               |
//! | `generatorVersion`       | its version (a model's provider, model and prompt version)  |
//! | `kind`                   | `confirm` or `display`, when asked                          |
//! | `display`                | a display's shape (datasets, columns, chart)                |
//! | `device`                 | `mobile`, when asked                                        |
//! | `locale`, `instructions` | when the generator writes text (models)                     |
//! | `catalogSha256`          | the named catalog's content hash (of its canonical JSON)    |
//! | `previousSpecHash`       | the edited spec's hash, when it was found (its layout kept) |
//!
//! The canonical JSON is RFC 8785 (JCS) with one change: integers are
//! written with all their digits, where JCS rounds them to a double. So
//! reordered keys, other whitespace and other spellings of one value (`1`,
//! `1.0`, `1e0`) share a key, while schemas that differ in any string,
//! name or number value (`9007199254740993` and `9007199254740992`,
//! `u64::MAX` and `u64::MAX - 1`) never do. For schemas without integers
//! beyond 2^53 the hash is the plain JCS one. `spec:v2:` keys were hashed
//! over plain JCS, under which such integers collided; they are never read.
//!
//! `data` is never part of the key or the value, so one cached spec serves
//! every user of the same form and no personal data sits in the shared
//! cache. A display's spec is never written to KV at all: its shape is the
//! data's column names, which are request words (see `service`).
//!
//! Canonicalising `output` is the dearest step of a cache hit (sorting
//! every object's members), so it is done once per request (the
//! model path re-keys from the same [`OutputDigest`]) and remembered per
//! isolate by the digest of `output`'s exact serialisation: a client that
//! sends the same form again skips canonicalisation entirely.

use super::canonical::{self, Hashing};
use crate::error::{Error, ErrorCode, Result};
use crate::plan::Plan;
use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

/// Version of the spec format.
pub(crate) const SPEC_VERSION: u32 = 1;

/// Prefix of every spec key in KV (v3: integers beyond 2^53 are keyed by
/// their exact digits; a v2 key may name a spec cached for another
/// schema, so none is read).
pub(crate) const KEY_PREFIX: &str = "spec:v3:";

/// Whether `text` is a spec hash: 64 lowercase hex digits.
pub(crate) fn is_spec_hash(text: &str) -> bool {
    text.len() == 64
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// Identity of a generator, as recorded in keys and provenance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GeneratorId {
    /// `deterministic` (later: `model`, `fallback`).
    pub generator: String,
    /// The generator's version.
    pub generator_version: String,
}

impl GeneratorId {
    /// The spec hash (the KV key without its prefix) this generator's
    /// spec for `output` and `description` is kept under, for a request
    /// with no option that changes the plan (no `kind`, `device`, locale,
    /// catalog, instructions or edited spec).
    pub fn spec_hash(&self, output: &Value, description: &str) -> Result<String> {
        spec_hash(output, description, KeyOptions::default(), self)
    }
}

/// The cached, data-free, format-neutral UI definition. Stored as
/// [`StoredSpec`]'s flat JSON object (see `schemas/ui-spec.schema.json`).
#[derive(Debug, Clone, PartialEq)]
pub struct UiSpec {
    /// Always [`SPEC_VERSION`].
    pub spec_version: u32,
    /// Hex SHA-256 of the canonical inputs (the KV key without prefix).
    pub spec_hash: String,
    /// Who generated it.
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

/// The stored shape of a [`UiSpec`], generic over how `schema` is read: a
/// cache hit already holds an equal `output` (the key covers it), so it
/// reads past the stored copy with [`IgnoredAny`] instead of building it.
///
/// The generator fields are spelled out rather than `#[serde(flatten)]`ed:
/// flatten buffers the whole object before deserialising it, which made
/// reading a spec about three times dearer.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct StoredSpec<Id, Text, Schema, P, D, Disp> {
    spec_version: u32,
    spec_hash: Text,
    generator: Id,
    generator_version: Id,
    draft: Text,
    description: Text,
    schema: Schema,
    plan: P,
    defaults: D,
    #[serde(default = "none", skip_serializing_if = "Option::is_none")]
    display: Option<Disp>,
}

/// An absent `display` (a form), without asking `Disp` for a `Default`.
fn none<T>() -> Option<T> {
    None
}

type OwnedSpec<Schema> =
    StoredSpec<String, String, Schema, Plan, Value, crate::plan::display::DisplaySpec>;

impl<Schema> OwnedSpec<Schema> {
    /// The spec, with `schema` made from the stored field by `schema`;
    /// `None` when a stored display does not match its plan.
    fn into_spec(self, schema: impl FnOnce(Schema) -> Value) -> Option<UiSpec> {
        // A display's tables are stored as controls beside `display`.
        let plan = match self.display {
            Some(display) => crate::plan::display::from_stored(self.plan, display)?,
            None => self.plan,
        };
        Some(UiSpec {
            spec_version: self.spec_version,
            spec_hash: self.spec_hash,
            generator: GeneratorId {
                generator: self.generator,
                generator_version: self.generator_version,
            },
            draft: self.draft,
            description: self.description,
            schema: schema(self.schema),
            plan,
            defaults: self.defaults,
        })
    }
}

impl Serialize for UiSpec {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        let (plan, display) = crate::plan::display::to_stored(&self.plan);
        StoredSpec {
            spec_version: self.spec_version,
            spec_hash: &self.spec_hash,
            generator: &self.generator.generator,
            generator_version: &self.generator.generator_version,
            draft: &self.draft,
            description: &self.description,
            schema: &self.schema,
            plan: &*plan,
            defaults: &self.defaults,
            display,
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for UiSpec {
    fn deserialize<D: serde::Deserializer<'de>>(
        deserializer: D,
    ) -> std::result::Result<Self, D::Error> {
        OwnedSpec::<Value>::deserialize(deserializer)?
            .into_spec(|schema| schema)
            .ok_or_else(|| {
                serde::de::Error::custom("a stored display's datasets do not match its plan")
            })
    }
}

/// Canonical digests an isolate remembers (keyed by SHA-256 of `output`'s
/// exact bytes; saves canonicalisation on every repeat request).
const DIGEST_ENTRIES: usize = 256;
/// Bytes the digest memo holds at most: [`DIGEST_ENTRIES`] fixed-size
/// entries (two 32-byte digests and the LRU's node, about 128 bytes).
#[cfg(test)] // counted into the memos' total by its budget test
pub(crate) const DIGEST_BYTES: usize = DIGEST_ENTRIES * 128;

thread_local! {
    static DIGESTS: std::cell::RefCell<lru::LruCache<[u8; 32], [u8; 32]>> = std::cell::RefCell::new(lru_cache(DIGEST_ENTRIES));
}

fn lru_cache<K: std::hash::Hash + Eq, V>(entries: usize) -> lru::LruCache<K, V> {
    lru::LruCache::new(std::num::NonZeroUsize::new(entries).unwrap_or(std::num::NonZeroUsize::MIN))
}

/// The canonical digest remembered for an exact-bytes digest.
fn digest(exact: &[u8; 32]) -> Option<[u8; 32]> {
    DIGESTS.with(|memo| memo.borrow_mut().get(exact).copied())
}

/// Remembers a canonical digest.
fn remember_digest(exact: [u8; 32], canonical: [u8; 32]) {
    DIGESTS.with(|memo| memo.borrow_mut().put(exact, canonical));
}

/// Forgets every remembered digest (tests and benches compare fresh and
/// remembered digests).
pub(crate) fn forget_digests() {
    DIGESTS.with(|memo| memo.borrow_mut().clear());
}

impl GeneratorId {
    /// Forgets the canonical digests of `output` schemas this isolate
    /// remembers, so the next [`GeneratorId::spec_hash`] computes afresh
    /// (for tests and benches comparing fresh and remembered hashes).
    pub fn forget_digests() {
        forget_digests();
    }
}

/// SHA-256 of an `output` schema's canonical JSON ([`canonical`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct OutputDigest([u8; 32]);

impl OutputDigest {
    /// The canonical digest of `output`. Equal values give equal bytes from
    /// `serde_json`, so the exact-bytes digest is a sound memo key.
    pub(crate) fn of(output: &Value) -> Result<Self> {
        // Streamed into the hasher through a small buffer: no copy of a
        // (possibly large) schema's bytes.
        let mut hashing = Hashing(Sha256::new());
        let mut buffered = std::io::BufWriter::with_capacity(4096, &mut hashing);
        serde_json::to_writer(&mut buffered, output)
            .map_err(|e| Error::new(ErrorCode::Internal, e.to_string()))?;
        std::io::Write::flush(&mut buffered)
            .map_err(|e| Error::new(ErrorCode::Internal, e.to_string()))?;
        drop(buffered);
        let exact: [u8; 32] = hashing.0.finalize().into();
        if let Some(found) = digest(&exact) {
            return Ok(Self(found));
        }
        let digest = Self(canonical::sha256(output)?);
        remember_digest(exact, digest.0);
        Ok(digest)
    }

    /// Hex form.
    pub(crate) fn to_hex(self) -> String {
        hex::encode(self.0)
    }
}

/// Request options that change the plan, so they are part of the key.
/// Defaults add nothing to the keyed JSON.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct KeyOptions<'a> {
    /// `kind: "confirm"`: approve/reject buttons.
    pub(crate) confirm: bool,
    /// `device: "mobile"`: one column.
    pub(crate) mobile: bool,
    /// A non-English locale, for generators that write text in it (models);
    /// the deterministic generator keeps the schema's titles, so its callers
    /// pass `None`.
    pub(crate) locale: Option<&'a str>,
    /// A read-only display's spec (its data's shape; see `display`):
    /// keyed with `kind: "display"`, since the chart depends on the shape.
    pub(crate) display: Option<&'a Value>,
    /// The content hash of the operator catalog the request names: a
    /// changed catalog never serves a form proven against the old one.
    pub(crate) catalog: Option<&'a str>,
    /// A request's `instructions`, for generators that read them (models,
    /// `http` generators); the deterministic generator ignores them, so its
    /// callers pass `None` and its key is unchanged.
    pub(crate) instructions: Option<&'a str>,
    /// The spec hash of the form this one edits in place, when that spec
    /// was found: the layout is kept from it, so it decides the plan. An
    /// edit of an unknown spec is the fresh spec and is keyed without it.
    pub(crate) previous: Option<&'a str>,
}

/// The canonical hash of a request's data-free part.
pub(crate) fn spec_hash(
    output: &Value,
    description: &str,
    options: KeyOptions<'_>,
    generator: &GeneratorId,
) -> Result<String> {
    spec_hash_of(OutputDigest::of(output)?, description, options, generator)
}

/// [`spec_hash`] from an already computed output digest.
pub(crate) fn spec_hash_of(
    output: OutputDigest,
    description: &str,
    options: KeyOptions<'_>,
    generator: &GeneratorId,
) -> Result<String> {
    let mut keyed = json!({
        "description": description,
        "generator": generator.generator,
        "generatorVersion": generator.generator_version,
        "outputSha256": output.to_hex(),
    });
    if options.confirm {
        keyed["kind"] = json!("confirm");
    }
    if let Some(display) = options.display {
        keyed["kind"] = json!("display");
        keyed["display"] = display.clone();
    }
    if options.mobile {
        keyed["device"] = json!("mobile");
    }
    if let Some(locale) = options.locale {
        keyed["locale"] = json!(locale);
    }
    if let Some(catalog) = options.catalog {
        keyed["catalogSha256"] = json!(catalog);
    }
    if let Some(instructions) = options.instructions {
        keyed["instructions"] = json!(instructions);
    }
    if let Some(previous) = options.previous {
        keyed["previousSpecHash"] = json!(previous);
    }
    Ok(hex::encode(canonical::sha256(&keyed)?))
}

/// The KV key for a spec hash.
pub(crate) fn cache_key(spec_hash: &str) -> String {
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

    /// [`UiSpec::from_cached`] for a request whose `output` is `schema`: the
    /// stored copy is skipped, not parsed (equal hashes mean equal schemas).
    pub fn from_cached_for(text: &str, expected_hash: &str, schema: &Value) -> Option<Self> {
        let stored: OwnedSpec<IgnoredAny> = serde_json::from_str(text).ok()?;
        if stored.spec_version != SPEC_VERSION || stored.spec_hash != expected_hash {
            return None;
        }
        stored.into_spec(|_| schema.clone())
    }
}

impl UiSpec {
    /// The KV key prefix; the key is the prefix and the spec hash.
    pub const KEY_PREFIX: &'static str = KEY_PREFIX;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id() -> GeneratorId {
        GeneratorId {
            generator: "deterministic".into(),
            generator_version: "1".into(),
        }
    }

    #[test]
    fn hash_ignores_key_order_and_number_spelling() {
        let a: Value =
            serde_json::from_str(r#"{"type":"object","properties":{"a":{"minimum":1.0},"b":{}}}"#)
                .unwrap();
        let b: Value = serde_json::from_str(
            r#"{ "properties" : { "b" : {}, "a" : { "minimum" : 1 } }, "type" : "object" }"#,
        )
        .unwrap();
        let plain = KeyOptions::default();
        assert_eq!(
            spec_hash(&a, "d", plain, &id()).unwrap(),
            spec_hash(&b, "d", plain, &id()).unwrap()
        );
        assert_ne!(
            spec_hash(&a, "d", plain, &id()).unwrap(),
            spec_hash(&a, "e", plain, &id()).unwrap()
        );
        assert_eq!(spec_hash(&a, "d", plain, &id()).unwrap().len(), 64);
        let mobile = KeyOptions {
            mobile: true,
            ..plain
        };
        let german = KeyOptions {
            locale: Some("de-DE"),
            ..plain
        };
        assert_ne!(
            spec_hash(&a, "d", mobile, &id()).unwrap(),
            spec_hash(&a, "d", plain, &id()).unwrap()
        );
        assert_ne!(
            spec_hash(&a, "d", german, &id()).unwrap(),
            spec_hash(&a, "d", plain, &id()).unwrap()
        );
        let told = KeyOptions {
            instructions: Some("fewest sections"),
            ..plain
        };
        assert_ne!(
            spec_hash(&a, "d", told, &id()).unwrap(),
            spec_hash(&a, "d", plain, &id()).unwrap()
        );
        let (bars, lines) = (json!({"chart": "bar"}), json!({"chart": "line"}));
        let (bar, line) = (
            KeyOptions {
                display: Some(&bars),
                ..plain
            },
            KeyOptions {
                display: Some(&lines),
                ..plain
            },
        );
        assert_ne!(
            spec_hash(&a, "d", bar, &id()).unwrap(),
            spec_hash(&a, "d", plain, &id()).unwrap()
        );
        assert_ne!(
            spec_hash(&a, "d", bar, &id()).unwrap(),
            spec_hash(&a, "d", line, &id()).unwrap()
        );
    }

    /// The two `output`s of the cache-poisoning report: integers a JCS
    /// canonicaliser rounds to one f64 (2^53 + 1 and 2^53; u64::MAX and
    /// u64::MAX - 1).
    #[test]
    fn integers_beyond_2_pow_53_get_their_own_keys() {
        let key = |text: &str| {
            let body: Value = serde_json::from_str(text).unwrap();
            spec_hash(
                &body["output"],
                body["description"].as_str().unwrap(),
                KeyOptions::default(),
                &id(),
            )
            .unwrap()
        };
        let pay = |id: &str| {
            format!(
                r#"{{"description":"Pay","output":{{"type":"object","required":["id"],"properties":{{"id":{{"type":"integer","const":{id}}}}}}}}}"#
            )
        };
        assert_ne!(key(&pay("9007199254740993")), key(&pay("9007199254740992")));
        let most = |n: &str| {
            format!(r#"{{"description":"Pay","output":{{"type":"integer","maximum":{n}}}}}"#)
        };
        assert_ne!(
            key(&most("18446744073709551615")),
            key(&most("18446744073709551614"))
        );
        assert_ne!(
            key(&most("-9223372036854775808")),
            key(&most("-9223372036854775807"))
        );
    }

    /// Schemas without integers beyond 2^53 keep the hash they had under
    /// plain RFC 8785 (pinned from `serde_jcs`), so only the prefix moved.
    #[test]
    fn ordinary_schemas_keep_their_hash() {
        let output: Value = serde_json::from_str(
            r#"{"type":"object","required":["n"],"properties":{"n":{"type":"number","minimum":-1.5,"maximum":1e21,"multipleOf":0.01},
                "\u00e9t\u00e9":{"type":"string","pattern":"^[a-z]\\d\n\t\"/$","maxLength":9007199254740992},
                "\ud83d\ude00":{"const":null},"\uff61":{"enum":[true,false,1e-7,123456789012]}}}"#,
        )
        .unwrap();
        assert_eq!(
            spec_hash(&output, "Pay \u{1}", KeyOptions::default(), &id()).unwrap(),
            "1fc3220fb6d0e03cc779515aa97610a4b9292feec9bf94072e80b04238f358f3"
        );
    }

    #[test]
    fn memoised_digest_equals_a_fresh_one() {
        let a: Value =
            serde_json::from_str(r#"{"type":"object","properties":{"n":{"maximum":1e3}}}"#)
                .unwrap();
        let first = OutputDigest::of(&a).unwrap();
        forget_digests();
        assert_eq!(OutputDigest::of(&a).unwrap(), first);
        assert_eq!(OutputDigest::of(&a).unwrap(), first, "served from the memo");
        let b: Value =
            serde_json::from_str(r#"{"properties":{"n":{"maximum":1000}},"type":"object"}"#)
                .unwrap();
        assert_eq!(
            OutputDigest::of(&b).unwrap(),
            first,
            "another spelling, same canonical digest"
        );
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
            plan: Plan {
                title: None,
                root: crate::plan::Node::Vertical { elements: vec![] },
            },
            defaults: json!({}),
        };
        let text = spec.to_json();
        assert_eq!(UiSpec::from_cached(&text, "ab"), Some(spec));
        assert_eq!(UiSpec::from_cached(&text, "cd"), None);
        assert_eq!(UiSpec::from_cached("garbage", "ab"), None);
        assert_eq!(
            UiSpec::from_cached_for(&text, "ab", &json!({})),
            UiSpec::from_cached(&text, "ab")
        );
        assert_eq!(UiSpec::from_cached_for(&text, "cd", &json!({})), None);
        let with_extra = text.replacen('{', r#"{"extra":1,"#, 1);
        assert_eq!(
            UiSpec::from_cached(&with_extra, "ab"),
            None,
            "unknown fields are refused"
        );
    }
}
