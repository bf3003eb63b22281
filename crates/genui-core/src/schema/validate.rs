//! Proving that `output` is a usable JSON Schema before anything is built on it.
//!
//! Three checks, cheapest first: `$schema` names a draft we know; the
//! document validates against that draft's meta-schema (jsonschema's
//! meta validators, built once per isolate); every `#` reference of
//! the root resource resolves and is not a cycle. Then the schema is
//! compiled (every other reference the document holds resolved by
//! jsonschema's registry, schema/external.rs) into a
//! [`jsonschema::Validator`] with the linear-time `regex` engine (so a
//! hostile `pattern` cannot backtrack) and a size limit on compiled regexes;
//! that compiled validator is returned for reuse. The compile is part of the
//! proof: over the peer and fuzz corpora, 22 of 2,028 schemas that pass the
//! checks above are refused only by it (invalid patterns, `$ref` targets
//! outside any keyword the meta-schema reaches). [`build`] says why jsonschema
//! compiles a small wrapper rather than `output` itself.

use super::{unresolved, SchemaDoc};
use crate::error::{Detail, Error, ErrorCode, Result};
use crate::terms::limits::Limits;
use serde_json::Value;

pub(crate) use jsonschema::Draft;

/// Backtracks one `patternProperties` match may take (see `pattern.rs` for `pattern`).
const PROPERTY_NAME_BACKTRACKS: usize = 10_000;

/// Validates `output` and returns the draft it was proven under and its
/// compiled validator. `base` is the JSON Pointer of `output` in the body.
pub(crate) fn check_output(
    output: &Value,
    base: &str,
    limits: &Limits,
) -> Result<(Draft, jsonschema::Validator)> {
    // `$ref`s that a URI must percent-encode are read encoded (external.rs).
    let draft = meta_validate(&super::encode_local_refs(output), base)?;
    check_refs(output, base, limits)?;
    // The meta-schema check above is the one jsonschema's build would repeat.
    let validator = build(output, draft, MetaCheck::Done).map_err(|e| {
        Error::new(
            ErrorCode::InvalidSchema,
            format!("output does not compile as a JSON Schema: {e}"),
        )
        .at(format!("{base}{}", schema_pointer(&e)))
    })?;
    Ok((draft, validator))
}

/// Compiles a schema already known to be valid (for example one read back
/// from the cache) with the same options as [`check_output`].
pub(crate) fn compile(
    output: &Value,
    draft: Draft,
) -> std::result::Result<jsonschema::Validator, jsonschema::ValidationError<'static>> {
    build(output, draft, MetaCheck::Needed)
}

/// Whether [`build`] still has to check the schema against its draft's
/// meta-schema ([`check_output`] has done it already).
#[derive(Clone, Copy, PartialEq)]
enum MetaCheck {
    Needed,
    Done,
}

/// Where a proven `output` sits in the registry of [`build`]'s wrapper
/// when it has no `$id` of its own: the base jsonschema itself gives one.
const OUTPUT_BASE: &str = "json-schema:///";
/// The wrapper's own base, so it never takes the place of `output`.
const WRAPPER_BASE: &str = "urn:genui:output-wrapper";
/// The draft of the wrapper, whose meta-schema validator jsonschema checks
/// it against: the cheapest to build on an isolate's first compile (draft-04:
/// 0.24 ms native, against 1.2 ms for 2020-12 and 5.9 ms for 2019-09).
const WRAPPER_SCHEMA: &str = "http://json-schema.org/draft-04/schema#";

/// Compiles `output` under `draft` into the validator every step shares.
///
/// jsonschema checks a schema against its draft's meta-schema inside every
/// build, which [`check_output`] has made already (and which costs more
/// than compiling most forms). So the check is made once, with the
/// isolate's meta validators ([`with_meta_validator`]), and jsonschema
/// compiles a two-keyword draft-04 wrapper
/// that `$ref`s `output`, registered as a resource of its own draft: the
/// crate compiles a reference target under the target's draft and
/// vocabularies, so `output` means what it meant as the root. A document
/// that embeds resources with their own `$schema` is built directly, so
/// each keeps the meta-schema check of its own draft that jsonschema makes.
fn build(
    output: &Value,
    draft: Draft,
    meta: MetaCheck,
) -> std::result::Result<jsonschema::Validator, jsonschema::ValidationError<'static>> {
    // A `$ref` to a document not held accepts any JSON (schema/external.rs);
    // the document's own resources and the meta-schemas resolve.
    let output = super::encode_local_refs(output);
    let output = super::without_unheld(&output, draft, &super::unheld_refs(&output, draft));
    let output = super::pattern::ascii_pattern_properties(&output);
    if !output.is_object() || declares_nested_schema(&output) || uses_dynamic_scope(&output) {
        return options(draft)
            .with_registry(&referencing::SPECIFICATIONS)
            .build(&output);
    }
    if meta == MetaCheck::Needed {
        with_meta_validator(draft, |m| m.validate(&output).map_err(|e| e.to_owned()))?;
    }
    let resource = draft.create_resource_ref(&output);
    let base = match resource.id() {
        Some(id) => referencing::uri::from_str(id).map_err(jsonschema::ValidationError::from)?,
        None => {
            referencing::uri::from_str(OUTPUT_BASE).map_err(jsonschema::ValidationError::from)?
        }
    };
    let registry = referencing::SPECIFICATIONS
        .add(base.as_str(), resource)
        .and_then(|builder| builder.draft(draft).prepare())
        .map_err(jsonschema::ValidationError::from)?;
    let wrapper = serde_json::json!({"$schema": WRAPPER_SCHEMA, "$ref": base.as_str()});
    options(Draft::Draft4)
        .with_base_uri(WRAPPER_BASE)
        .with_registry(&registry)
        .build(&wrapper)
}

/// The options every compiled `output` shares.
fn options<'a>(draft: Draft) -> jsonschema::ValidationOptions<'a> {
    jsonschema::options()
        .with_draft(draft)
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
}

/// Whether `schema` resolves references by dynamic scope (`$dynamicRef`,
/// `$recursiveRef` and their anchors): the wrapper would be the outermost
/// scope, where the document's root must be, so such a schema is built
/// directly (and pays jsonschema's own meta-schema check).
fn uses_dynamic_scope(schema: &Value) -> bool {
    const DYNAMIC: [&str; 4] = [
        "$dynamicRef",
        "$dynamicAnchor",
        "$recursiveRef",
        "$recursiveAnchor",
    ];
    super::walk::any_key(schema, &DYNAMIC)
}

/// Whether `$schema` appears anywhere below the root (jsonschema's own
/// test for embedded resources, over-approximate and cheap).
fn declares_nested_schema(schema: &Value) -> bool {
    schema.as_object().is_some_and(|map| {
        map.values()
            .any(|child| super::walk::any_key(child, &["$schema"]))
    })
}

/// The schema location of a compile error, as a pointer into `output`
/// (without the wrapper's `/$ref` step).
fn schema_pointer(error: &jsonschema::ValidationError<'_>) -> String {
    let path = error.schema_path().to_string();
    match path.strip_prefix("/$ref") {
        Some(rest) if rest.is_empty() || rest.starts_with('/') => rest.to_owned(),
        _ => path,
    }
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
    if parts.len() != 3
        || !parts.iter().all(two_digits)
        || fraction.is_empty()
        || !fraction.bytes().all(|b| b.is_ascii_digit())
    {
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

/// The draft a schema declares with `$schema`, if any; an unknown one is
/// `invalid_schema` at `{base}/$schema` (`base`: where `output` is).
pub(super) fn declared_draft(output: &Value, base: &str) -> Result<Option<Draft>> {
    let invalid = |message: String| {
        Error::new(ErrorCode::InvalidSchema, message).at(format!("{base}/$schema"))
    };
    let Some(uri) = output.get("$schema") else {
        return Ok(None);
    };
    let Some(uri) = uri.as_str() else {
        return Err(invalid("`$schema` must be a string".into()));
    };
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
        _ => return Err(invalid(format!("`$schema` \"{uri}\" is not a JSON Schema draft this worker knows (draft-04 to 2020-12)"))),
    }))
}

/// Checks `output` against its draft's meta-schema; without `$schema`,
/// 2020-12 first, then draft-07 (agents often emit draft-07 without saying so).
fn meta_validate(output: &Value, base: &str) -> Result<Draft> {
    let declared = declared_draft(output, base)?;
    let candidates: &[Draft] = match declared {
        Some(ref d) => std::slice::from_ref(d),
        None => &[Draft::Draft202012, Draft::Draft7],
    };
    let mut first_error = None;
    for draft in candidates {
        let outcome = with_meta_validator(*draft, |meta| {
            meta.validate(output).map_err(|e| {
                let at = format!("{base}{}", e.instance_path());
                Error::new(
                    ErrorCode::InvalidSchema,
                    format!("output is not a valid JSON Schema: {e} (at {at})"),
                )
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
    Err(first_error.unwrap_or_else(|| {
        Error::new(
            ErrorCode::InvalidSchema,
            "output is not a valid JSON Schema",
        )
    }))
}

/// Runs `f` with the isolate's meta-schema validator for `draft`: natively
/// a static of jsonschema's, on wasm one built once per isolate (the
/// patched jsonschema in vendor/jsonschema keeps it; upstream 0.60 builds
/// it anew on every call there, which cost several milliseconds of every
/// miss in the worker). jsonschema's own `build()` draws on the same one.
fn with_meta_validator<R>(
    draft: Draft,
    f: impl FnOnce(&jsonschema::meta::MetaValidator<'static>) -> R,
) -> R {
    let validator = match draft {
        Draft::Draft4 => jsonschema::draft4::meta::validator(),
        Draft::Draft6 => jsonschema::draft6::meta::validator(),
        Draft::Draft7 => jsonschema::draft7::meta::validator(),
        Draft::Draft201909 => jsonschema::draft201909::meta::validator(),
        _ => jsonschema::draft202012::meta::validator(),
    };
    f(&validator)
}

/// Every `#` reference of the root resource must resolve and not start a
/// cycle in the document's views ([`SchemaDoc`], which read `#` from the
/// root). A reference through a URI, and any reference inside an embedded
/// resource (where `#` means that resource), is resolved by jsonschema's
/// registry when the schema compiles, which refuses one that names nothing.
fn check_refs(output: &Value, base: &str, limits: &Limits) -> Result<()> {
    let doc = SchemaDoc::new(output, limits);
    let embedded = embedded_resources(output, base);
    let inside_embedded = |pointer: &str| {
        embedded.iter().any(|at| {
            pointer
                .strip_prefix(at.as_str())
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
        })
    };
    crate::pointer::walk(output, base, |node, pointer| {
        let Some(reference) = node.get("$ref").and_then(Value::as_str) else {
            return Ok(());
        };
        let at = format!("{pointer}/$ref");
        if super::external::is_external(reference) || inside_embedded(pointer) {
            return Ok(()); // resolved (or left unchecked) at compile time (schema/external.rs)
        }
        if doc.lookup(reference).is_none() {
            return Err(unresolved(reference).at(at));
        }
        doc.resolve(node).map(drop).map_err(|e| e.at(at))
    })
}

/// The pointers (after `base`) of the objects below the root that name a
/// resource of their own (`$id`, or draft-04's `id`, not a bare fragment).
fn embedded_resources(output: &Value, base: &str) -> Vec<String> {
    let mut found = Vec::new();
    let _ = crate::pointer::walk(output, base, |node, pointer| {
        let names_resource = |key: &str| {
            node.get(key)
                .and_then(Value::as_str)
                .is_some_and(|id| !id.starts_with('#'))
        };
        if pointer != base && (names_resource("$id") || names_resource("id")) {
            found.push(pointer.to_owned());
        }
        Ok::<(), ()>(())
    });
    found
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
        assert_eq!(
            (e.code(), e.pointer()),
            (ErrorCode::UnresolvedRef, Some("/output/properties/a/$ref"))
        );
        // A remote `$ref` is any JSON; a meta-schema `$ref` is enforced.
        let v =
            check(json!({"properties": {"a": {"$ref": "https://example.com/s.json"}}})).unwrap();
        assert!(v.is_valid(&json!({"a": {"anything": [1]}})));
        let v = check(
            json!({"properties": {"s": {"$ref": "http://json-schema.org/draft-07/schema#"}}}),
        )
        .unwrap();
        assert!(
            v.is_valid(&json!({"s": {"type": "string"}}))
                && !v.is_valid(&json!({"s": {"type": "strng"}}))
        );
        let e = check(json!({"$defs": {"a": {"$ref": "#/$defs/a"}}, "properties": {"x": {"$ref": "#/$defs/a"}}})).unwrap_err();
        assert_eq!(e.code(), ErrorCode::UnresolvedRef);
    }

    #[test]
    fn references_inside_embedded_resources_and_anchors_resolve() {
        // `#` inside a resource with a relative `$id` means that resource.
        let v = check(json!({"$id": "http://example.com/a.json", "$ref": "b.json",
            "properties": {"foo": {"$id": "b.json", "$defs": {"inner": {"properties": {"bar": {"type": "string"}}}}, "$ref": "#/$defs/inner"}}})).unwrap();
        assert!(v.is_valid(&json!({"bar": "x"})) && !v.is_valid(&json!({"bar": 1})));
        // draft-04's fragment `id` and 2020-12's `$dynamicAnchor` are anchors.
        let v = check(json!({"$schema": "http://json-schema.org/draft-04/schema#", "allOf": [{"$ref": "#foo"}], "definitions": {"a": {"id": "#foo", "type": "integer"}}})).unwrap();
        assert!(v.is_valid(&json!(1)) && !v.is_valid(&json!("a")));
        let v = check(json!({"properties": {"n": {"$ref": "#items"}}, "$defs": {"i": {"$dynamicAnchor": "items", "type": "integer"}}})).unwrap();
        assert!(v.is_valid(&json!({"n": 1})) && !v.is_valid(&json!({"n": "a"})));
    }

    #[test]
    fn times_with_or_without_offset() {
        for ok in [
            "08:30:00",
            "08:30:00Z",
            "23:59:60+01:00",
            "08:30:00.123-05:30",
        ] {
            assert!(is_time(ok), "{ok}");
        }
        for bad in [
            "8:30:00",
            "08:30",
            "24:00:00",
            "08:30:00+1",
            "08:30:00.",
            "noon",
            "08:30:00Zx",
        ] {
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
            let e = check(json!({"properties": {"a": {"type": "string", "pattern": bad}}}))
                .unwrap_err();
            assert_eq!(
                (e.code(), e.pointer()),
                (
                    ErrorCode::InvalidSchema,
                    Some("/output/properties/a/pattern")
                ),
                "{bad}"
            );
        }
        let v = check(json!({"type": "string", "pattern": "^(a+)+$"})).unwrap();
        assert!(!v.is_valid(&json!(
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"
        )));
    }

    /// The validator jsonschema builds from `output` as its own root: what
    /// [`build`]'s wrapper must agree with.
    fn direct(output: &Value, draft: Draft) -> jsonschema::Validator {
        let output = crate::schema::encode_local_refs(output);
        let output = crate::schema::without_unheld(
            &output,
            draft,
            &crate::schema::unheld_refs(&output, draft),
        );
        let output = crate::schema::pattern::ascii_pattern_properties(&output);
        options(draft)
            .with_registry(&referencing::SPECIFICATIONS)
            .build(&output)
            .unwrap()
    }

    /// Every error (message and instance path), sorted.
    fn errors(validator: &jsonschema::Validator, instance: &Value) -> Vec<String> {
        let mut out: Vec<String> = crate::schema::bounded(|| {
            validator
                .iter_errors(instance)
                .map(|e| format!("{e} at {}", e.instance_path()))
                .collect()
        });
        out.sort();
        out
    }

    #[test]
    fn the_wrapper_validates_as_the_schema_itself_would() {
        let cases: Vec<(Value, Draft, Vec<Value>)> = vec![
            // 2019-09 recursion: `$recursiveRef` finds the root's anchor.
            (
                json!({"$schema": "https://json-schema.org/draft/2019-09/schema", "$recursiveAnchor": true, "type": "object",
                "properties": {"name": {"type": "string"}, "children": {"type": "array", "items": {"$recursiveRef": "#"}}}}),
                Draft::Draft201909,
                vec![
                    json!({"name": "a", "children": [{"name": 1}]}),
                    json!({"children": [{"children": [{"name": "x"}]}]}),
                ],
            ),
            // 2020-12 dynamic scope, and `unevaluatedProperties` across a `$ref`.
            (
                json!({"$dynamicAnchor": "node", "type": "object", "$defs": {"base": {"properties": {"a": {"type": "integer"}}}},
                "$ref": "#/$defs/base", "properties": {"kids": {"type": "array", "items": {"$dynamicRef": "#node"}}},
                "unevaluatedProperties": false}),
                Draft::Draft202012,
                vec![
                    json!({"a": 1, "kids": [{"a": "x", "z": 1}]}),
                    json!({"a": 1, "b": 2}),
                ],
            ),
            // A root `$id` with relative references, an `$anchor`, formats and patterns.
            (
                json!({"$id": "https://example.com/forms/order.json", "type": "object",
                "$defs": {"when": {"$anchor": "when", "type": "string", "format": "time"}, "code": {"type": "string", "pattern": "^\\d{3}$"}},
                "properties": {"at": {"$ref": "#when"}, "code": {"$ref": "order.json#/$defs/code"},
                    "email": {"type": "string", "format": "email"}},
                "patternProperties": {"^x-\\d+$": {"type": "boolean"}}, "required": ["at"]}),
                Draft::Draft202012,
                vec![
                    json!({"at": "25:00:00", "code": "12a", "email": "no", "x-1": "yes"}),
                    json!({"at": "08:30:00", "code": "123", "x-\u{663}": 1}),
                ],
            ),
            // draft-04: `id`, boolean `exclusiveMaximum`, `definitions`.
            (
                json!({"$schema": "http://json-schema.org/draft-04/schema#", "id": "http://example.com/root.json",
                "definitions": {"pct": {"type": "number", "maximum": 100, "exclusiveMaximum": true}},
                "properties": {"p": {"$ref": "#/definitions/pct"}, "q": {"enum": ["a", "b"]}}}),
                Draft::Draft4,
                vec![json!({"p": 100, "q": "c"}), json!({"p": 99.5, "q": "a"})],
            ),
            // draft-07 `$ref` siblings are ignored; tuple `items`; a meta-schema `$ref`.
            (
                json!({"$schema": "http://json-schema.org/draft-07/schema#", "definitions": {"s": {"type": "string"}},
                "properties": {"r": {"$ref": "#/definitions/s", "minLength": 5}, "t": {"items": [{"type": "integer"}], "additionalItems": false},
                    "meta": {"$ref": "http://json-schema.org/draft-07/schema#"}}}),
                Draft::Draft7,
                vec![
                    json!({"r": "ab", "t": [1, 2], "meta": {"type": "strng"}}),
                    json!({"r": 3, "t": ["x"]}),
                ],
            ),
        ];
        let mut refused = 0;
        for (schema, draft, instances) in cases {
            let (ours, theirs) = (
                build(&schema, draft, MetaCheck::Needed).unwrap(),
                direct(&schema, draft),
            );
            for instance in instances {
                let expected = errors(&theirs, &instance);
                refused += usize::from(!expected.is_empty());
                assert_eq!(errors(&ours, &instance), expected, "{schema} on {instance}");
                assert_eq!(
                    ours.is_valid(&instance),
                    theirs.is_valid(&instance),
                    "{schema} on {instance}"
                );
            }
        }
        // The first instance of every case is written to fail: the lists compared are not empty.
        assert!(refused >= 5, "only {refused} instances were refused");
    }

    #[test]
    fn the_wrapper_keeps_refusals_and_their_pointers() {
        // A meta-schema violation, from the isolate's meta validator.
        let e = compile(
            &json!({"properties": {"a": {"type": "strng"}}}),
            Draft::Draft202012,
        )
        .unwrap_err();
        assert!(e.to_string().contains("strng"), "{e}");
        // A compile refusal inside a `$ref` target, pointed at in `output`.
        let e = check(json!({"$defs": {"c": {"type": "string", "pattern": "(?i)x"}}, "properties": {"a": {"$ref": "#/$defs/c"}}})).unwrap_err();
        assert_eq!(
            (e.code(), e.pointer()),
            (ErrorCode::InvalidSchema, Some("/output/$defs/c/pattern"))
        );
        // A document that declares `$schema` below its root (an embedded
        // resource, or here just a value that looks like one) is built
        // directly, so jsonschema checks each resource under its own draft.
        let nested = json!({"properties": {"k": {"const": {"$schema": "http://json-schema.org/draft-04/schema#"}}, "n": {"type": "integer"}}});
        assert!(
            declares_nested_schema(&nested)
                && !declares_nested_schema(&json!({"$schema": "x", "type": "object"}))
        );
        let (ours, theirs) = (
            compile(&nested, Draft::Draft202012).unwrap(),
            direct(&nested, Draft::Draft202012),
        );
        for instance in [
            json!({"n": 1.5, "k": 1}),
            json!({"k": {"$schema": "http://json-schema.org/draft-04/schema#"}}),
        ] {
            assert_eq!(errors(&ours, &instance), errors(&theirs, &instance));
        }
    }

    /// The wrapper against jsonschema's own build over the peer corpus and
    /// the fuzz corpora: same compile refusals (message and pointer) and the
    /// same errors on `{}`, the schema's defaults, its `examples` and the
    /// fuzz inputs' data. `-- --ignored` after ./scripts/peer.sh and a fuzz run.
    #[test]
    #[ignore = "needs the downloaded corpus (./scripts/peer.sh) and target/fuzz-corpus"]
    fn the_wrapper_agrees_with_jsonschema_over_the_corpora() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target");
        let mut files = Vec::new();
        for dir in [
            "peer-corpus/schemas",
            "fuzz-corpus/generate",
            "fuzz-corpus/submit",
        ] {
            files.extend(
                std::fs::read_dir(root.join(dir))
                    .into_iter()
                    .flatten()
                    .flatten()
                    .map(|e| e.path()),
            );
        }
        let (limits, mut schemas, mut differences) = (Limits::default(), 0, Vec::new());
        for file in files {
            let Ok(body) = serde_json::from_slice::<Value>(&std::fs::read(&file).unwrap()) else {
                continue;
            };
            let arguments = body
                .get("arguments")
                .filter(|a| a.get("output").is_some())
                .unwrap_or(&body);
            let (output, mut instances) = match arguments.get("output") {
                Some(output) => (
                    output.clone(),
                    vec![
                        arguments.get("data").cloned().unwrap_or_default(),
                        arguments.get("values").cloned().unwrap_or_default(),
                    ],
                ),
                None => (body.clone(), Vec::new()),
            };
            if limits.check_schema_size(&output, "/output").is_err() {
                continue;
            }
            let output = crate::schema::rebase_embedded(output);
            let Ok(draft) = meta_validate(&crate::schema::encode_local_refs(&output), "/output")
            else {
                continue;
            };
            if check_refs(&output, "/output", &limits).is_err() {
                continue;
            }
            schemas += 1;
            instances.extend([
                json!({}),
                crate::render::initial_data::schema_defaults(&output, &limits),
            ]);
            instances.extend(
                output
                    .get("examples")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .cloned(),
            );
            let direct = {
                let output = crate::schema::encode_local_refs(&output);
                let output = crate::schema::without_unheld(
                    &output,
                    draft,
                    &crate::schema::unheld_refs(&output, draft),
                );
                let output = crate::schema::pattern::ascii_pattern_properties(&output);
                options(draft)
                    .with_registry(&referencing::SPECIFICATIONS)
                    .build(&output)
            };
            match (direct, build(&output, draft, MetaCheck::Needed)) {
                (Ok(theirs), Ok(ours)) => {
                    for instance in &instances {
                        if errors(&theirs, instance) != errors(&ours, instance) {
                            differences.push(format!("{}: errors on {instance}", file.display()));
                        }
                    }
                }
                (Err(theirs), Err(ours))
                    if theirs.to_string() == ours.to_string()
                        && theirs.schema_path().to_string() == schema_pointer(&ours) => {}
                (theirs, ours) => differences.push(format!(
                    "{}: {:?} / {:?}",
                    file.display(),
                    theirs.err().map(|e| e.to_string()),
                    ours.err().map(|e| e.to_string())
                )),
            }
        }
        assert!(schemas > 400, "the corpora look missing: {schemas} schemas");
        assert!(
            differences.is_empty(),
            "{} of {schemas} schemas differ:\n{}",
            differences.len(),
            differences.join("\n")
        );
    }
}
