//! Proving that `output` is a usable JSON Schema before anything is built on it.
//!
//! Three checks, cheapest first: `$schema` names a draft we know; the
//! document validates against that draft's meta-schema (jsonschema's
//! built-in meta validators, compiled once per isolate by the crate); every
//! `$ref` is local, resolves and is not a cycle. Then the schema is compiled
//! into a [`jsonschema::Validator`] with the linear-time `regex` engine (so a
//! hostile `pattern` cannot backtrack) and a size limit on compiled regexes;
//! that compiled validator is returned for reuse.

use super::{unresolved, SchemaDoc};
use crate::error::{Detail, Error, ErrorCode, Result};
use crate::request::limits::Limits;
use serde_json::Value;

pub(crate) use jsonschema::Draft;

/// Backtracks one `patternProperties` match may take (see `pattern.rs` for `pattern`).
const PROPERTY_NAME_BACKTRACKS: usize = 10_000;

/// Validates `output` and returns the draft it was proven under and its
/// compiled validator. `base` is the JSON Pointer of `output` in the body.
pub fn check_output(output: &Value, base: &str, limits: &Limits) -> Result<(Draft, jsonschema::Validator)> {
    // `$ref`s that a URI must percent-encode are read encoded (external.rs).
    let draft = meta_validate(&super::encode_local_refs(output), base)?;
    check_refs(output, base, limits)?;
    let validator = compile(output, draft).map_err(|e| {
        Error::new(ErrorCode::InvalidSchema, format!("output does not compile as a JSON Schema: {e}"))
            .at(format!("{base}{}", e.schema_path()))
    })?;
    Ok((draft, validator))
}

/// Compiles a schema already known to be valid (for example one read back
/// from the cache) with the same options as [`check_output`].
pub(crate) fn compile(output: &Value, draft: Draft) -> std::result::Result<jsonschema::Validator, jsonschema::ValidationError<'static>> {
    // An unresolvable `$ref` accepts any JSON (schema/external.rs); the
    // meta-schemas resolve from jsonschema's embedded registry.
    let output = super::encode_local_refs(output);
    let output = super::without_refs(&output, super::is_unresolvable);
    let output = super::pattern::ascii_pattern_properties(&output);
    jsonschema::options()
        .with_draft(draft)
        .with_registry(&referencing::SPECIFICATIONS)
        .with_keyword("pattern", super::pattern::factory)
        // `patternProperties` keys match property names, which the request
        // body bounds; a name that needs more backtracking fails to match.
        .with_pattern_options(
            jsonschema::PatternOptions::fancy_regex()
                .backtrack_limit(PROPERTY_NAME_BACKTRACKS)
                .size_limit(super::pattern::REGEX_SIZE_LIMIT)
                .dfa_size_limit(super::pattern::REGEX_SIZE_LIMIT),
        )
        .should_validate_formats(true)
        .with_format("time", is_time)
        .build(&output)
}

/// `format: time` as the renderers' own validator (ajv-formats) reads it:
/// `HH:MM:SS[.frac]` with an optional `Z` or `±HH:MM` offset. RFC 3339's
/// full-time requires the offset, but browsers' time inputs (and JSON Forms'
/// and RJSF's time widgets) produce local times without one; rejecting them
/// would refuse what the form itself accepted.
pub(super) fn is_time(text: &str) -> bool {
    let (clock, offset) = match text.find(['Z', 'z', '+', '-']) {
        Some(i) => text.split_at(i),
        None => (text, ""),
    };
    let (hms, fraction) = clock.split_once('.').unwrap_or((clock, "0"));
    let parts: Vec<&str> = hms.split(':').collect();
    let two_digits = |p: &&str| p.len() == 2 && p.bytes().all(|b| b.is_ascii_digit());
    if parts.len() != 3 || !parts.iter().all(two_digits) || fraction.is_empty() || !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    let n = |p: &str| p.parse::<u32>().unwrap_or(99);
    let clock_ok = n(parts[0]) < 24 && n(parts[1]) < 60 && n(parts[2]) <= 60;
    let offset_ok = match offset {
        "" | "Z" | "z" => true,
        _ => {
            let body = &offset[1..];
            let (h, m) = body.split_once(':').unwrap_or(("xx", "xx"));
            two_digits(&h) && two_digits(&m) && n(h) < 24 && n(m) < 60
        }
    };
    clock_ok && offset_ok
}

/// The draft a schema declares with `$schema`, if any.
pub(super) fn declared_draft(output: &Value) -> Result<Option<Draft>, String> {
    let Some(uri) = output.get("$schema") else { return Ok(None) };
    let Some(uri) = uri.as_str() else { return Err("`$schema` must be a string".into()) };
    let normalized = uri.trim_end_matches('#').replace("https://", "http://");
    Ok(Some(match normalized.as_str() {
        // "The latest draft", as older tools wrote it: no draft named, so
        // the same candidates as a schema without `$schema`.
        "http://json-schema.org/schema" => return Ok(None),
        "http://json-schema.org/draft-04/schema" => Draft::Draft4,
        "http://json-schema.org/draft-06/schema" => Draft::Draft6,
        "http://json-schema.org/draft-07/schema" => Draft::Draft7,
        "http://json-schema.org/draft/2019-09/schema" => Draft::Draft201909,
        "http://json-schema.org/draft/2020-12/schema" => Draft::Draft202012,
        _ => return Err(format!("`$schema` \"{uri}\" is not a JSON Schema draft this worker knows (draft-04 to 2020-12)")),
    }))
}

/// Checks `output` against its draft's meta-schema; without `$schema`,
/// 2020-12 first, then draft-07 (agents often emit draft-07 without saying so).
fn meta_validate(output: &Value, base: &str) -> Result<Draft> {
    let declared = declared_draft(output)
        .map_err(|why| Error::new(ErrorCode::InvalidSchema, why).at(format!("{base}/$schema")))?;
    let candidates: &[Draft] = match declared {
        Some(ref d) => std::slice::from_ref(d),
        None => &[Draft::Draft202012, Draft::Draft7],
    };
    let mut first_error = None;
    for draft in candidates {
        let outcome = with_meta_validator(*draft, |meta| {
            meta.validate(output).map_err(|e| {
                let at = format!("{base}{}", e.instance_path());
                Error::new(ErrorCode::InvalidSchema, format!("output is not a valid JSON Schema: {e} (at {at})"))
                    .at(at)
                    .with(Detail::Keyword(e.schema_path().to_string()))
            })
        });
        match outcome {
            Ok(()) => return Ok(*draft),
            Err(error) => {
                first_error.get_or_insert(error);
            }
        }
    }
    Err(first_error.unwrap_or_else(|| Error::new(ErrorCode::InvalidSchema, "output is not a valid JSON Schema")))
}

thread_local! {
    /// One meta-schema validator per draft for the isolate's life. On wasm,
    /// jsonschema builds a draft's meta validator anew on every call to
    /// `draftX::meta::validator()` (natively it borrows a static), which
    /// cost several milliseconds of every miss in the worker.
    static META_VALIDATORS: [std::cell::OnceCell<jsonschema::meta::MetaValidator<'static>>; 5] = Default::default();
}

/// Runs `f` with the isolate's meta-schema validator for `draft`.
fn with_meta_validator<R>(draft: Draft, f: impl FnOnce(&jsonschema::meta::MetaValidator<'static>) -> R) -> R {
    let (index, build): (usize, fn() -> jsonschema::meta::MetaValidator<'static>) = match draft {
        Draft::Draft4 => (0, jsonschema::draft4::meta::validator),
        Draft::Draft6 => (1, jsonschema::draft6::meta::validator),
        Draft::Draft7 => (2, jsonschema::draft7::meta::validator),
        Draft::Draft201909 => (3, jsonschema::draft201909::meta::validator),
        _ => (4, jsonschema::draft202012::meta::validator),
    };
    META_VALIDATORS.with(|cells| f(cells[index].get_or_init(build)))
}

/// Every `$ref` must be local, resolve, and not start a cycle.
fn check_refs(output: &Value, base: &str, limits: &Limits) -> Result<()> {
    let doc = SchemaDoc::new(output, limits);
    crate::pointer::walk(output, base, |node, pointer| {
        let Some(reference) = node.get("$ref").and_then(Value::as_str) else { return Ok(()) };
        let at = format!("{pointer}/$ref");
        if super::external::is_external(reference) {
            return Ok(()); // a meta-schema, or any JSON (schema/external.rs)
        }
        if doc.lookup(reference).is_none() {
            return Err(unresolved(reference).at(at));
        }
        doc.resolve(node).map(drop).map_err(|e| e.at(at))
    })
}

/// The name a draft is recorded under in a spec.
pub(crate) fn draft_name(draft: Draft) -> &'static str {
    match draft {
        Draft::Draft4 => "draft-04",
        Draft::Draft6 => "draft-06",
        Draft::Draft7 => "draft-07",
        Draft::Draft201909 => "2019-09",
        _ => "2020-12",
    }
}

/// The draft recorded under `name` (2020-12 for anything unknown).
pub(crate) fn draft_from_name(name: &str) -> Draft {
    match name {
        "draft-04" => Draft::Draft4,
        "draft-06" => Draft::Draft6,
        "draft-07" => Draft::Draft7,
        "2019-09" => Draft::Draft201909,
        _ => Draft::Draft202012,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(v: Value) -> Result<jsonschema::Validator> {
        check_output(&v, "/output", &Limits::default()).map(|(_, v)| v)
    }

    #[test]
    fn accepts_drafts() {
        assert!(check(json!({"type": "object", "properties": {"a": {"type": "string"}}})).is_ok());
        assert!(check(json!({"$schema": "http://json-schema.org/draft-07/schema#", "definitions": {"x": {"type": "string"}},
            "properties": {"a": {"$ref": "#/definitions/x"}}})).is_ok());
        // "http://json-schema.org/schema#" (the latest draft, unnamed): as no `$schema`.
        assert!(check(json!({"$schema": "http://json-schema.org/schema#", "properties": {"a": {"type": "string"}}})).is_ok());
        // draft-07 tuple items without $schema: not 2020-12, but draft-07 is fine.
        assert!(check(json!({"type": "array", "items": [{"type": "string"}]})).is_ok());
    }

    #[test]
    fn rejects_with_pointers() {
        let e = check(json!({"properties": {"age": {"type": "strng"}}})).unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidSchema);
        assert_eq!(e.pointer(), Some("/output/properties/age/type"));
        let e = check(json!({"$schema": "http://example.com/my-meta"})).unwrap_err();
        assert_eq!(e.pointer(), Some("/output/$schema"));
        let e = check(json!({"properties": {"a": {"$ref": "#/$defs/missing"}}})).unwrap_err();
        assert_eq!((e.code(), e.pointer()), (ErrorCode::UnresolvedRef, Some("/output/properties/a/$ref")));
        // A remote `$ref` is any JSON; a meta-schema `$ref` is enforced.
        let v = check(json!({"properties": {"a": {"$ref": "https://example.com/s.json"}}})).unwrap();
        assert!(v.is_valid(&json!({"a": {"anything": [1]}})));
        let v = check(json!({"properties": {"s": {"$ref": "http://json-schema.org/draft-07/schema#"}}})).unwrap();
        assert!(v.is_valid(&json!({"s": {"type": "string"}})) && !v.is_valid(&json!({"s": {"type": "strng"}})));
        let e = check(json!({"$defs": {"a": {"$ref": "#/$defs/a"}}, "properties": {"x": {"$ref": "#/$defs/a"}}})).unwrap_err();
        assert_eq!(e.code(), ErrorCode::UnresolvedRef);
    }

    #[test]
    fn times_with_or_without_offset() {
        for ok in ["08:30:00", "08:30:00Z", "23:59:60+01:00", "08:30:00.123-05:30"] {
            assert!(is_time(ok), "{ok}");
        }
        for bad in ["8:30:00", "08:30", "24:00:00", "08:30:00+1", "08:30:00.", "noon", "08:30:00Zx"] {
            assert!(!is_time(bad), "{bad}");
        }
    }

    #[test]
    fn patterns_compile_linear_time_or_fail_cleanly() {
        // Backreferences run on the bounded backtracking engine; what is
        // not ECMA-262 is refused even where a Rust engine would take it.
        let v = check(json!({"type": "string", "pattern": "^(a+)-\\1$"})).unwrap();
        assert!(v.is_valid(&json!("aa-aa")) && !v.is_valid(&json!("aa-a")));
        for bad in ["(?i)abc", "abc\\z"] {
            let e = check(json!({"properties": {"a": {"type": "string", "pattern": bad}}})).unwrap_err();
            assert_eq!((e.code(), e.pointer()), (ErrorCode::InvalidSchema, Some("/output/properties/a/pattern")), "{bad}");
        }
        let v = check(json!({"type": "string", "pattern": "^(a+)+$"})).unwrap();
        assert!(!v.is_valid(&json!("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!")));
    }
}
