//! `format=react` end to end in the core: hostile text from the schema (and
//! the request) goes through parse, generate, check and the React
//! projection, and every piece of it lands inside a string literal of the
//! module, never in code, JSX text or a template literal. The toolchain
//! half (the same fixture typechecked by tsc, its zod schema run in node)
//! is `tests/react/run.sh`.

use genui_core::{GenerateJob, Limits};
use serde_json::{json, Value};

const HOSTILE: &str = include_str!("../../../tests/react/fixtures/hostile-text.json");

/// Fragments of the fixture's hostile strings that would do something if
/// they escaped their literal.
const FRAGMENTS: &[&str] = &[
    "`${globalThis",
    "${b}",
    "</script",
    "pwned",
    "{braces}",
    "{c}",
    "{x}",
    "\u{2028}",
    "\u{2029}",
    "\"d\"",
];

fn answer(body: &str) -> Value {
    let job = GenerateJob::prepare(body.as_bytes(), Some("react"), &Limits::default())
        .expect("the fixture is a valid request");
    let outcome = job.answer(None);
    assert_eq!(outcome.response.status, 200, "{}", outcome.response.body);
    serde_json::from_str(&outcome.response.body).expect("JSON answer")
}

/// Byte ranges of the double-quoted string literals on each code line
/// (`//` comment lines count as one inert range).
fn inert_ranges(source: &str) -> Vec<(usize, usize)> {
    let mut ranges = Vec::new();
    let mut offset = 0;
    for line in source.split_inclusive('\n') {
        if line.trim_start().starts_with("//") {
            ranges.push((offset, offset + line.len()));
        } else {
            let mut start = None;
            let mut escaped = false;
            for (i, c) in line.char_indices() {
                match (start, c) {
                    (Some(_), _) if escaped => escaped = false,
                    (Some(_), '\\') => escaped = true,
                    (Some(s), '"') => {
                        ranges.push((offset + s, offset + i + 1));
                        start = None;
                    }
                    (None, '"') => start = Some(i),
                    _ => {}
                }
            }
        }
        offset += line.len();
    }
    ranges
}

#[test]
fn hostile_text_stays_inside_string_literals() {
    let answer = answer(HOSTILE);
    let module = answer["module"].as_str().expect("module source");
    assert!(!module.contains("</script"), "`</` must be written `<\\/`");
    assert!(
        !module.contains(['\u{2028}', '\u{2029}']),
        "line separators must be escaped"
    );
    let inert = inert_ranges(module);
    for fragment in FRAGMENTS {
        for (at, _) in module.match_indices(fragment) {
            assert!(
                inert
                    .iter()
                    .any(|(s, e)| *s <= at && at + fragment.len() <= *e),
                "`{fragment}` at byte {at} is outside a string literal:\n{}",
                module[module[..at].rfind('\n').unwrap_or(0)..]
                    .lines()
                    .nth(1)
                    .unwrap_or_default()
            );
        }
    }
    // The enum values are there, escaped, as option values and text.
    assert!(
        module.contains(r#"<option value={"PWN <\/script>"}>{"PWN <\/script>"}</option>"#),
        "{module}"
    );
    assert!(module.contains(r#""PWN \u2028e""#));
}

#[test]
fn the_module_holds_no_request_data() {
    let answer = answer(HOSTILE);
    let module = answer["module"].as_str().expect("module source");
    assert!(
        !module.contains("PWN data"),
        "request data leaked into the module"
    );
    assert_eq!(
        answer["initialData"]["note"], "PWN data </script> ${x}",
        "pre-fill travels beside the module"
    );
}

#[test]
fn a_lookahead_pattern_travels_as_a_literal() {
    let answer = answer(HOSTILE);
    let module = answer["module"].as_str().expect("module source");
    // A lookahead is ECMA-262: the module compiles it inside `pattern()`
    // from a string literal, so its `${` never reaches a template.
    assert!(module.contains(r#"pattern("^(?!\\$\\{)PWN$")"#), "{module}");
    assert!(module.contains(
        "const matches = (re: RegExp | null, s: string): boolean => re !== null && re.test(s)"
    ));
}

#[test]
fn a_pattern_javascript_cannot_compile_is_refused_before_the_module() {
    // `(?i)` is a Rust inline flag, a syntax error in JavaScript: refused
    // with its pointer (issue 17), so no module ever holds it.
    let body = HOSTILE.replace(r#""^(?!\\$\\{)PWN$""#, r#""(?i)^PWN$""#);
    assert_ne!(body, HOSTILE);
    let outcome = GenerateJob::prepare(body.as_bytes(), Some("react"), &Limits::default())
        .expect("parses")
        .answer(None);
    assert_eq!(outcome.response.status, 422, "{}", outcome.response.body);
    let error: Value = serde_json::from_str(&outcome.response.body).expect("JSON");
    assert_eq!(error["code"], "invalid_schema");
    assert!(
        error["payload"]["pointer"]
            .as_str()
            .is_some_and(|p| p.ends_with("/properties/code/pattern")),
        "{error}"
    );
}

#[test]
fn switching_to_react_keeps_the_spec_hash() {
    let react = answer(HOSTILE);
    let job = GenerateJob::prepare(HOSTILE.as_bytes(), Some("jsonforms"), &Limits::default())
        .expect("valid");
    let jsonforms: Value = serde_json::from_str(&job.answer(None).response.body).expect("JSON");
    assert_eq!(react["meta"]["specHash"], jsonforms["meta"]["specHash"]);
    assert_eq!(react["packages"]["zod"], "^4.6.0");
}

/// Past 12 objects and arrays deep, TypeScript may stop inferring the
/// schema's type (TS2589): the first level past it is typed unknown, once,
/// and still validated by zod.
#[test]
fn types_stop_at_twelve_levels_and_validation_does_not() {
    let mut schema = json!({"type": "object", "properties": {"leaf": {"type": "string", "minLength": 2}}, "required": ["leaf"]});
    for _ in 0..15 {
        schema = json!({"type": "object", "properties": {"next": schema}, "required": ["next"]});
    }
    let body = json!({"output": schema}).to_string();
    let module = answer(&body)["module"].as_str().unwrap().to_owned();
    assert_eq!(
        module.matches("as z.ZodType<unknown>)").count(),
        1,
        "{module}"
    );
    assert!(
        module.contains("chars(s) >= 2"),
        "the deepest field is still checked"
    );
    let shallow = json!({"output": {"type": "object", "properties": {"a": {"type": "object", "properties": {"b": {"type": "string"}}}}}}).to_string();
    assert!(!answer(&shallow)["module"]
        .as_str()
        .unwrap()
        .contains("z.ZodType<unknown>"));
}

/// The answer of `body` in `format` (a request in the person's language).
fn answer_in(body: &Value, format: &str) -> Value {
    let job = GenerateJob::prepare(
        body.to_string().as_bytes(),
        Some(format),
        &Limits::default(),
    )
    .expect("a valid request");
    let outcome = job.answer(None);
    assert_eq!(outcome.response.status, 200, "{}", outcome.response.body);
    serde_json::from_str(&outcome.response.body).expect("JSON answer")
}

#[test]
fn option_labels_follow_the_form_s_language_as_in_the_other_formats() {
    let body = json!({
        "description": "Spesenabrechnung",
        "locale": "de",
        "output": {"type": "object", "required": ["amount", "currency", "language"], "properties": {
            "amount": {"type": "number"},
            "currency": {"type": "string", "enum": ["USD", "EUR", "JPY"]},
            "language": {"type": "string", "enum": ["en", "de", "fr", "es", "ja", "zh", "pt"]}}}
    });
    let react = answer_in(&body, "react");
    let module = react["module"].as_str().unwrap();
    // The labels RJSF shows for the same request, in the same language.
    let rjsf = answer_in(&body, "rjsf");
    for field in ["currency", "language"] {
        for option in rjsf["schema"]["properties"][field]["oneOf"]
            .as_array()
            .unwrap()
        {
            let (value, title) = (&option["const"], option["title"].as_str().unwrap());
            // An `<option>` or a radio's line: the value, then the label.
            let (value, shown) = (
                format!("value={{{value}}}"),
                format!("{{{}}}", Value::from(title)),
            );
            let line = module
                .lines()
                .find(|l| l.contains(&value) && l.contains(&shown));
            assert!(
                line.is_some(),
                "{field}: {value} shown as {shown} not in\n{module}"
            );
        }
    }
    assert!(
        module.contains("Bitte wählen…") && !module.contains("Choose…"),
        "the empty choice in German"
    );
    assert!(!module.contains("\"US Dollar\""), "no English label left");
}
