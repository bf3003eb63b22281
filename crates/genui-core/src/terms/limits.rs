//! Limits on untrusted input, checked before any heavy work.
//!
//! The order matters: the byte size is checked before parsing, the nesting
//! depth by a linear scan of the raw bytes before parsing (so serde_json's
//! recursion never runs deep), and the schema's node, property and enum
//! counts by one walk over the parsed `output` before it is validated or
//! compiled. Generation itself bounds `$ref` expansion and nesting depth.
//!
//! The same depth limit holds for values the worker builds from request
//! input rather than parses: data nested from LMUI dotted ids, A2UI and
//! form-post JSON Pointers, and JSON text read out of strings. Each builder
//! counts the levels it is about to create ([`Limits::check_built_depth`])
//! before it creates them, so no value deeper than the limit ever exists
//! (dropping, cloning or validating one recurses once per level, and a
//! wasm isolate's stack is small).

use crate::error::{Detail, Error, ErrorCode, Result};
use serde_json::Value;
use std::sync::Arc;

/// Bytes of proven specs an isolate remembers between requests unless
/// configured otherwise ([`Limits::spec_memory_bytes`]).
pub(crate) const DEFAULT_SPEC_MEMORY_BYTES: usize = 6 * 1024 * 1024;

/// The limits in force, and the rest of an isolate's configuration: the
/// one value every entry point takes. The shell builds it once per isolate
/// ([`Limits::default`] with the operator's catalogs, spec memory and
/// contract checking) and hands it to each job, which carries it to the
/// stages that read it; nothing is configured through global state, so
/// two differently configured values answer side by side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Maximum request body size in bytes.
    pub max_body_bytes: usize,
    /// Maximum nesting of arrays and objects in the body, and in any value
    /// built from it. The default, 127, is what serde_json parses (its
    /// recursion limit of 128 refuses the 128th level), so a body the scan
    /// passes always parses, and nothing built is deeper than a parsed value.
    pub max_body_depth: usize,
    /// Maximum number of JSON values inside `output`.
    pub max_schema_nodes: usize,
    /// Number of values in one `enum` above which it must also fit
    /// [`Limits::max_enum_bytes`] (the form then offers it as a searchable
    /// choice, with a warning).
    pub max_enum_values: usize,
    /// Maximum size in bytes (as JSON) of an `enum` over `max_enum_values`.
    pub max_enum_bytes: usize,
    /// Maximum nesting of rendered objects, counting `$ref` expansion.
    pub max_field_depth: usize,
    /// Maximum number of `$ref` hops to reach a non-reference schema.
    pub max_ref_chain: usize,
    /// Maximum number of controls a generated UI may hold.
    pub max_controls: usize,
    /// Maximum length in bytes of any string inside `output`, and of `description`.
    pub max_string_bytes: usize,
    /// Maximum size in bytes of a request's `instructions` (checked before
    /// any generator runs; the operator's own are bounded apart).
    pub max_instructions_bytes: usize,
    /// The operator's component catalogs a request may name by `catalog`,
    /// as `(name, text)` of each valid one ([`Limits::with_catalogs`] reads
    /// and proves them). This layer sits below the catalog stage, so it
    /// carries their texts; that stage remembers each one read (a memo
    /// keyed by the text's digest, like the isolate's other memos).
    pub catalogs: Vec<(String, Arc<str>)>,
    /// Bytes of proven specs the isolate remembers between requests
    /// (0: every hit reads the cache).
    pub spec_memory_bytes: usize,
    /// Whether each answer is checked against its published contract
    /// before it is sent (debug builds, so every native test, check by
    /// default; the worker when `CHECK_CONTRACTS` is `true`).
    pub check_contracts: bool,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_body_bytes: 1024 * 1024,
            max_body_depth: 127,
            max_schema_nodes: 50_000,
            max_enum_values: 1_000,
            max_enum_bytes: 256 * 1024,
            max_field_depth: 48,
            max_ref_chain: 32,
            max_controls: 5_000,
            max_string_bytes: 16 * 1024,
            max_instructions_bytes: 4 * 1024,
            catalogs: Vec::new(),
            spec_memory_bytes: DEFAULT_SPEC_MEMORY_BYTES,
            check_contracts: cfg!(debug_assertions),
        }
    }
}

impl Limits {
    /// Whether the bounds on input are the defaults, whatever the rest of
    /// the configuration: the isolate's memos of proofs and defaults are
    /// kept only for what was proven under the default bounds.
    pub(crate) fn bounds_are_default(&self) -> bool {
        // Spelled out (not a clone compared), so a new bound must be
        // listed here and no request copies the catalogs to ask.
        let Limits {
            max_body_bytes,
            max_body_depth,
            max_schema_nodes,
            max_enum_values,
            max_enum_bytes,
            max_field_depth,
            max_ref_chain,
            max_controls,
            max_string_bytes,
            max_instructions_bytes,
            catalogs: _,
            spec_memory_bytes: _,
            check_contracts: _,
        } = *self;
        let d = Limits::default();
        (
            max_body_bytes,
            max_body_depth,
            max_schema_nodes,
            max_enum_values,
            max_enum_bytes,
        ) == (
            d.max_body_bytes,
            d.max_body_depth,
            d.max_schema_nodes,
            d.max_enum_values,
            d.max_enum_bytes,
        ) && (
            max_field_depth,
            max_ref_chain,
            max_controls,
            max_string_bytes,
            max_instructions_bytes,
        ) == (
            d.max_field_depth,
            d.max_ref_chain,
            d.max_controls,
            d.max_string_bytes,
            d.max_instructions_bytes,
        )
    }

    /// The default limits with the isolate's settings read through `setting`
    /// (a var or secret by name, `None` when unset): `SPEC_MEMORY_BYTES`, the
    /// bytes of proven specs the isolate keeps (0: every hit reads KV; not a
    /// number: the default), and `CHECK_CONTRACTS` (`true` checks each
    /// answer against its contract; unset, a deployment checks none, unlike
    /// [`Limits::default`], which tests use).
    pub fn from_settings(setting: impl Fn(&'static str) -> Option<String>) -> Self {
        let defaults = Limits::default();
        let spec_memory_bytes = setting("SPEC_MEMORY_BYTES")
            .and_then(|value| value.trim().parse::<usize>().ok())
            .unwrap_or(defaults.spec_memory_bytes);
        Limits {
            spec_memory_bytes,
            check_contracts: setting("CHECK_CONTRACTS").is_some_and(|v| v.trim() == "true"),
            ..defaults
        }
    }

    /// How long a stored spec lives in KV, in seconds: `SPEC_TTL_SECONDS`
    /// (`setting`), at least 60 (KV's floor); a week when unset or not a number.
    pub fn spec_ttl_seconds(setting: Option<&str>) -> u64 {
        const A_WEEK: u64 = 7 * 24 * 3600;
        setting
            .and_then(|value| value.trim().parse::<u64>().ok())
            .map_or(A_WEEK, |ttl| ttl.max(60))
    }

    /// Rejects a body over the byte limit. Call with the `Content-Length`
    /// header first when there is one, then with the bytes actually read.
    pub fn check_body_size(&self, len: usize) -> Result<()> {
        if len > self.max_body_bytes {
            return Err(Error::new(
                ErrorCode::BodyTooLarge,
                format!(
                    "request body is {len} bytes; the limit is {} bytes",
                    self.max_body_bytes
                ),
            )
            .with(Detail::Limit(self.max_body_bytes))
            .with(Detail::Actual(len)));
        }
        Ok(())
    }

    /// Rejects a body read only as far as one byte past the limit (a body
    /// without `Content-Length` is never read further): `read` bytes over
    /// the limit say only that it is larger, not how large.
    pub fn check_body_read(&self, read: usize) -> Result<()> {
        if read > self.max_body_bytes {
            return Err(Error::new(
                ErrorCode::BodyTooLarge,
                format!(
                    "request body is larger than the limit of {} bytes (it was read no further)",
                    self.max_body_bytes
                ),
            )
            .with(Detail::Limit(self.max_body_bytes)));
        }
        Ok(())
    }

    /// The length a body's `Content-Length` header announces, refused before
    /// the body is read when it is over the byte limit; a missing or
    /// unreadable header is no announcement (`None`: the bytes read are
    /// checked then).
    pub fn check_content_length(&self, header: Option<&str>) -> Result<Option<usize>> {
        match header.and_then(|value| value.parse::<usize>().ok()) {
            Some(length) => self.check_body_size(length).map(|()| Some(length)),
            None => Ok(None),
        }
    }

    /// Rejects a body whose arrays/objects nest deeper than the limit, by a
    /// linear scan that skips string contents. Malformed JSON is left for the
    /// parser to report.
    pub fn check_body_depth(&self, body: &[u8]) -> Result<()> {
        let mut depth = 0usize;
        let mut offset = 0;
        while let Some(&byte) = body.get(offset) {
            match byte {
                b'"' => {
                    offset = after_string(body, offset + 1);
                    continue;
                }
                b'[' | b'{' => {
                    depth += 1;
                    if depth > self.max_body_depth {
                        return Err(self.too_deep(offset));
                    }
                }
                b']' | b'}' => depth = depth.saturating_sub(1),
                _ => {}
            }
            offset += 1;
        }
        Ok(())
    }

    fn too_deep(&self, offset: usize) -> Error {
        Error::new(
            ErrorCode::BodyTooDeep,
            format!(
                "request body nests deeper than {} levels (at byte {offset})",
                self.max_body_depth
            ),
        )
        .with(Detail::Limit(self.max_body_depth))
        .with(Detail::Offset(offset))
    }

    /// Refuses a value that would nest `depth` arrays and objects deep
    /// (counted as [`Limits::check_body_depth`] counts them), built from
    /// the request input at `pointer`. Call before building it.
    pub(crate) fn check_built_depth(&self, depth: usize, pointer: &str) -> Result<()> {
        if depth <= self.max_body_depth {
            return Ok(());
        }
        let limit = self.max_body_depth;
        let message = format!(
            "the value at {} would nest {depth} levels deep; the limit is {limit}",
            clip_pointer(pointer)
        );
        Err(Error::new(ErrorCode::BodyTooDeep, message)
            .at(pointer)
            .with(Detail::Limit(limit))
            .with(Detail::Actual(depth)))
    }

    /// Refuses a value nesting deeper than the limit once placed `above`
    /// levels deep; the pointer names its first container over the limit,
    /// below `base`. The walk uses no recursion.
    pub(crate) fn check_value_depth(&self, value: &Value, above: usize, base: &str) -> Result<()> {
        let depth = above + nesting(value);
        if depth <= self.max_body_depth {
            return Ok(());
        }
        let mut first_over = base.to_owned();
        let _ = crate::pointer::walk(value, base, |node, pointer| {
            // Escaped tokens hold no `/`: the count of `/` is the level.
            let level = above + pointer[base.len()..].bytes().filter(|&b| b == b'/').count() + 1;
            if (node.is_object() || node.is_array()) && level > self.max_body_depth {
                first_over = pointer.to_owned();
                return Err(());
            }
            Ok(())
        });
        self.check_built_depth(depth, &first_over)
    }

    /// Counts nodes, string and enum sizes of `output` in one walk.
    /// `base` is the JSON Pointer of `output` in the request body.
    pub fn check_schema_size(&self, output: &Value, base: &str) -> Result<()> {
        // No count of properties: the node count bounds the work, and a form
        // with more fields than `max_controls` folds its optional objects
        // into JSON inputs (`subtree_collapsed`) before it is refused.
        let mut nodes = 0usize;
        crate::pointer::walk(output, base, |value, pointer| {
            nodes += 1;
            if nodes > self.max_schema_nodes {
                return Err(too_large("JSON values", self.max_schema_nodes, pointer));
            }
            if let Value::String(text) = value {
                if text.len() > self.max_string_bytes {
                    return Err(too_large(
                        "bytes in one string",
                        self.max_string_bytes,
                        pointer,
                    ));
                }
            }
            if let Some(Value::Array(values)) = value.get("enum") {
                if values.len() > self.max_enum_values {
                    let bytes: usize = values.iter().map(|v| v.to_string().len() + 1).sum();
                    if bytes > self.max_enum_bytes {
                        return Err(too_large(
                            "bytes in one enum (of over max_enum_values values)",
                            self.max_enum_bytes,
                            &format!("{pointer}/enum"),
                        ));
                    }
                }
            }
            Ok(())
        })
    }
}

/// How many arrays and objects nest in `value` (0 for a scalar), counted
/// without recursion.
pub(crate) fn nesting(value: &Value) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(value, 1usize)];
    let containers = |c: &&Value| c.is_object() || c.is_array();
    while let Some((value, level)) = stack.pop() {
        match value {
            Value::Object(map) => {
                stack.extend(map.values().filter(containers).map(|c| (c, level + 1)))
            }
            Value::Array(items) => {
                stack.extend(items.iter().filter(containers).map(|c| (c, level + 1)))
            }
            _ => continue,
        }
        deepest = deepest.max(level);
    }
    deepest
}

/// A pointer short enough for a message (the payload keeps it whole).
fn clip_pointer(pointer: &str) -> String {
    const SHOWN: usize = 96;
    match pointer.char_indices().nth(SHOWN) {
        Some((end, _)) => format!("{}… ({} bytes)", &pointer[..end], pointer.len()),
        None if pointer.is_empty() => "the root".to_owned(),
        None => pointer.to_owned(),
    }
}

fn too_large(what: &str, limit: usize, pointer: &str) -> Error {
    Error::new(
        ErrorCode::SchemaTooLarge,
        format!("output has more than {limit} {what} (exceeded at {pointer})"),
    )
    .at(pointer)
    .with(Detail::Limit(limit))
}

/// The offset just past the string whose contents start at `from` (its
/// opening quote read), or the body's end when it is not closed. Strings
/// are most of a body's bytes, so they are skipped with `memchr` rather
/// than a byte at a time; a backslash escapes the byte after it.
fn after_string(body: &[u8], mut from: usize) -> usize {
    while let Some(found) = body
        .get(from..)
        .and_then(|rest| memchr::memchr2(b'"', b'\\', rest))
    {
        let at = from + found;
        if body[at] == b'"' {
            return at + 1;
        }
        from = at + 2;
    }
    body.len()
}

#[cfg(test)]
mod tests {
    #[test]
    fn settings_set_the_spec_memory_and_contract_checks_and_nothing_else() {
        let set = |name: &str| match name {
            "SPEC_MEMORY_BYTES" => Some(" 0 ".to_owned()),
            "CHECK_CONTRACTS" => Some("true".to_owned()),
            _ => None,
        };
        let limits = Limits::from_settings(set);
        assert_eq!(limits.spec_memory_bytes, 0);
        assert!(limits.check_contracts);
        assert!(limits.bounds_are_default());
        // Unset, a deployment checks no contract (the tests' default does).
        let unset = Limits::from_settings(|_| None);
        assert_eq!(unset.spec_memory_bytes, Limits::default().spec_memory_bytes);
        assert!(!unset.check_contracts && unset.bounds_are_default());
        let garbled = Limits::from_settings(|_| Some("lots".to_owned()));
        assert_eq!(
            garbled.spec_memory_bytes,
            Limits::default().spec_memory_bytes
        );
        assert!(!garbled.check_contracts);
    }

    #[test]
    fn a_spec_lives_a_week_unless_set_and_never_under_a_minute() {
        assert_eq!(Limits::spec_ttl_seconds(None), 7 * 24 * 3600);
        assert_eq!(
            Limits::spec_ttl_seconds(Some("not a number")),
            7 * 24 * 3600
        );
        assert_eq!(Limits::spec_ttl_seconds(Some("5")), 60);
        assert_eq!(Limits::spec_ttl_seconds(Some(" 3600 ")), 3600);
    }

    use super::*;

    #[test]
    fn an_announced_oversize_body_is_refused_and_no_announcement_is_not() {
        let limits = Limits {
            max_body_bytes: 10,
            ..Limits::default()
        };
        let refused = limits.check_content_length(Some("11")).unwrap_err();
        assert_eq!(
            (refused.code(), refused.http_status()),
            (ErrorCode::BodyTooLarge, 413)
        );
        assert_eq!(limits.check_content_length(Some("10")).ok(), Some(Some(10)));
        assert_eq!(limits.check_content_length(Some("0")).ok(), Some(Some(0)));
        for unannounced in [None, Some("ten"), Some("-1")] {
            let read = limits.check_content_length(unannounced).ok();
            assert_eq!(read, Some(None), "{unannounced:?}");
        }
    }
    use serde_json::json;

    /// The memos of proofs and defaults are kept under the default bounds
    /// whatever else is configured (catalogs, spec memory, contract
    /// checks), so the worker's configured value still uses them; any
    /// other bound turns them off.
    #[test]
    fn configuration_beside_the_bounds_keeps_them_default() {
        let configured = Limits {
            spec_memory_bytes: 0,
            check_contracts: !cfg!(debug_assertions),
            ..crate::catalog::tests::configured()
        };
        assert!(!configured.catalogs.is_empty());
        assert!(configured.bounds_are_default());
        let tighter = Limits {
            max_controls: 3,
            ..configured
        };
        assert!(!tighter.bounds_are_default());
    }

    #[test]
    fn depth_scan_ignores_brackets_in_strings() {
        let limits = Limits {
            max_body_depth: 2,
            ..Limits::default()
        };
        assert!(limits.check_body_depth(br#"{"a": "[[[[{{{{\"[["}"#).is_ok());
        // Escapes: an escaped backslash ends before the quote; a body
        // ending inside a string or an escape is read to its end.
        assert!(limits.check_body_depth(br#"{"a": "\\", "b": [1]}"#).is_ok());
        assert!(limits.check_body_depth(br#"{"a": "\\"}[[["#).is_err());
        assert!(limits.check_body_depth(br#"{"a": "[[[\"#).is_ok());
        assert!(limits.check_body_depth(br#"{"a": "\"#).is_ok());
        assert!(limits.check_body_depth(br#"{"a": [1]}"#).is_ok());
        let err = limits.check_body_depth(br#"{"a": [[1]]}"#).unwrap_err();
        assert_eq!(err.code(), ErrorCode::BodyTooDeep);
    }

    #[test]
    fn built_values_are_refused_where_they_cross_the_depth_limit() {
        let limits = Limits {
            max_body_depth: 3,
            ..Limits::default()
        };
        assert_eq!(
            (
                nesting(&json!(1)),
                nesting(&json!([])),
                nesting(&json!({"a": [1, {"b": {}}], "c": {}}))
            ),
            (0, 1, 4)
        );
        assert!(limits
            .check_value_depth(&json!({"a": [{}]}), 0, "/data")
            .is_ok());
        assert!(limits.check_value_depth(&json!([1]), 2, "/data").is_ok());
        let e = limits
            .check_value_depth(&json!({"a": 1, "b": [{"c": 1}, {"d": {}}]}), 0, "/data")
            .unwrap_err();
        assert_eq!(
            (e.code(), e.http_status(), e.pointer()),
            (ErrorCode::BodyTooDeep, 413, Some("/data/b/1/d"))
        );
        // A scalar placed too deep is refused where it was to be placed.
        let e = limits
            .check_value_depth(&json!("x"), 4, "/values/a.b.c.d")
            .unwrap_err();
        assert_eq!(e.pointer(), Some("/values/a.b.c.d"));
        assert!(
            e.message().contains("4 levels deep; the limit is 3"),
            "{}",
            e.message()
        );
        // A long pointer is cut in the message, kept whole in the payload.
        let long = "/a".repeat(500);
        let e = limits.check_built_depth(500, &long).unwrap_err();
        assert!(e.message().len() < 300 && e.pointer() == Some(long.as_str()));
    }

    #[test]
    fn size_limit() {
        let limits = Limits {
            max_body_bytes: 10,
            ..Limits::default()
        };
        assert!(limits.check_body_size(10).is_ok());
        assert_eq!(
            limits.check_body_size(11).unwrap_err().code(),
            ErrorCode::BodyTooLarge
        );
    }

    #[test]
    fn long_strings_are_refused_where_they_are() {
        let limits = Limits {
            max_string_bytes: 8,
            ..Limits::default()
        };
        let long = json!({"properties": {"a": {"title": "far too long a title"}}});
        let e = limits.check_schema_size(&long, "/output").unwrap_err();
        assert_eq!(
            (e.code(), e.pointer()),
            (
                ErrorCode::SchemaTooLarge,
                Some("/output/properties/a/title")
            )
        );
    }

    #[test]
    fn schema_counts() {
        let limits = Limits {
            max_schema_nodes: 8,
            max_enum_values: 3,
            ..Limits::default()
        };
        let ok = json!({"properties": {"a": {}, "b": {"enum": [1, 2, 3]}}});
        assert!(limits.check_schema_size(&ok, "/output").is_ok());
        // Many properties are no refusal by themselves (the form folds what
        // is over max_controls); many JSON values are.
        let many =
            json!({"properties": {"a": {}, "b": {}, "c": {}, "d": {}, "e": {}, "f": {}, "g": {}}});
        assert_eq!(
            limits
                .check_schema_size(&many, "/output")
                .unwrap_err()
                .code(),
            ErrorCode::SchemaTooLarge
        );
        let limits = Limits {
            max_schema_nodes: 50_000,
            ..limits
        };
        // Over the count, an enum is kept while it fits the byte cap.
        let big_enum = json!({"properties": {"a": {"enum": [1, 2, 3, 4]}}});
        assert!(limits.check_schema_size(&big_enum, "/output").is_ok());
        let limits = Limits {
            max_enum_bytes: 7,
            ..limits
        };
        let err = limits.check_schema_size(&big_enum, "/output").unwrap_err();
        assert_eq!(err.pointer(), Some("/output/properties/a/enum"));
    }
}
