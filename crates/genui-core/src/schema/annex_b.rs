//! Patterns written in ECMA-262's web-compatibility grammar (Annex B).
//!
//! Without the `u` flag, ECMA-262 (Annex B.1.2) reads a `]`, `{` or `}`
//! that opens or closes nothing as the character itself: SARIF writes
//! `^[a-zA-Z]{2}-[a-zA-Z]{2}]?$`, architect.yml `^\${{\s*if(.*?)\s*}}$`.
//! Browsers take them; Ajv (which compiles with `u`), zod's module and the
//! worker's own ECMA parser do not. Escaping exactly those characters gives
//! the same language in the grammar every one of them reads, so such a
//! pattern is escaped, enforced and rendered like any other, and
//! `meta.warnings` says so (`pattern_escaped`). A pattern that stays
//! invalid after the escape (`(?i)`, `\z`) is still refused.

use serde_json::{Map, Value};

/// Keywords whose values are data, not schemas: never rewritten.
const DATA_KEYWORDS: [&str; 5] = ["enum", "const", "default", "examples", "example"];
/// Keywords whose values map names to schemas: a name is not a keyword
/// (a property may be called `default`).
const NAME_MAPS: [&str; 6] = [
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
    "dependencies",
];

/// Whether the value under `key` of a schema may hold schemas.
fn is_schema_position(key: &str) -> bool {
    !DATA_KEYWORDS.contains(&key)
}

/// The `u`-grammar spelling of an Annex B pattern: `None` when `pattern` is
/// already valid, or when escaping its lone `]`, `{`, `}` does not make it so.
pub(crate) fn escaped(pattern: &str) -> Option<String> {
    if jsonschema_regex::is_valid_ecma_regex(pattern) {
        return None;
    }
    let out = escape_lone_brackets(pattern);
    (out != pattern && jsonschema_regex::is_valid_ecma_regex(&out)).then_some(out)
}

/// `pattern` with every `]`, `{`, `}` outside a class that is not part of
/// a class or a `{n}`, `{n,}`, `{n,m}` quantifier escaped.
fn escape_lone_brackets(pattern: &str) -> String {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::with_capacity(pattern.len() + 4);
    let (mut i, mut in_class) = (0, false);
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' => {
                out.push(c);
                if let Some(next) = chars.get(i + 1) {
                    out.push(*next);
                }
                i += 2;
                continue;
            }
            '[' if !in_class => in_class = true,
            ']' if in_class => in_class = false,
            ']' | '}' if !in_class => out.push('\\'),
            '{' if !in_class => match quantifier_len(&chars[i..]) {
                Some(len) => {
                    out.extend(&chars[i..i + len]);
                    i += len;
                    continue;
                }
                None => out.push('\\'),
            },
            _ => {}
        }
        out.push(c);
        i += 1;
    }
    out
}

/// Length of a quantifier `{n}`, `{n,}` or `{n,m}` at the start of `s`.
fn quantifier_len(s: &[char]) -> Option<usize> {
    let digits = |from: usize| s[from..].iter().take_while(|c| c.is_ascii_digit()).count();
    let n = digits(1);
    if n == 0 {
        return None;
    }
    let mut at = 1 + n;
    if s.get(at) == Some(&',') {
        at += 1 + digits(at + 1);
    }
    (s.get(at) == Some(&'}')).then_some(at + 1)
}

/// Whether any schema node of `value` has a pattern [`escaped`] rewrites.
pub(crate) fn has_annex_b(value: &Value) -> bool {
    match value {
        Value::Object(map) => {
            map.get("pattern")
                .and_then(Value::as_str)
                .is_some_and(|p| escaped(p).is_some())
                || map
                    .get("patternProperties")
                    .and_then(Value::as_object)
                    .is_some_and(|ps| ps.keys().any(|k| escaped(k).is_some()))
                || map.iter().any(|(k, v)| match v {
                    Value::Object(named) if NAME_MAPS.contains(&k.as_str()) => {
                        named.values().any(has_annex_b)
                    }
                    _ => is_schema_position(k) && has_annex_b(v),
                })
        }
        Value::Array(items) => items.iter().any(has_annex_b),
        _ => false,
    }
}

/// Schema pointers of every rewritten pattern (`.../pattern`, or the
/// `patternProperties` key), for `meta.warnings`.
pub(crate) fn annex_b_patterns(value: &Value) -> Vec<String> {
    let mut out = Vec::new();
    visit(value, "", &mut |pointer, _| out.push(pointer.to_owned()));
    out
}

fn visit(value: &Value, pointer: &str, found: &mut dyn FnMut(&str, &str)) {
    match value {
        Value::Object(map) => {
            if let Some(p) = map
                .get("pattern")
                .and_then(Value::as_str)
                .filter(|p| escaped(p).is_some())
            {
                found(&format!("{pointer}/pattern"), p);
            }
            if let Some(Value::Object(patterns)) = map.get("patternProperties") {
                for key in patterns.keys().filter(|k| escaped(k).is_some()) {
                    found(
                        &format!(
                            "{pointer}/patternProperties/{}",
                            crate::pointer::Pointer::escape(key)
                        ),
                        key,
                    );
                }
            }
            for (key, child) in map.iter().filter(|(k, _)| is_schema_position(k)) {
                let at = format!("{pointer}/{}", crate::pointer::Pointer::escape(key));
                match child {
                    Value::Object(named) if NAME_MAPS.contains(&key.as_str()) => {
                        for (name, schema) in named {
                            visit(
                                schema,
                                &format!("{at}/{}", crate::pointer::Pointer::escape(name)),
                                found,
                            );
                        }
                    }
                    _ => visit(child, &at, found),
                }
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                visit(child, &format!("{pointer}/{i}"), found);
            }
        }
        _ => {}
    }
}

/// `value` with every Annex B pattern (and `patternProperties` key) escaped.
pub(crate) fn escape_annex_b(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut out = Map::with_capacity(map.len());
            for (key, child) in map {
                let child = match key.as_str() {
                    k if DATA_KEYWORDS.contains(&k) => child.clone(),
                    "pattern" => match child.as_str().and_then(escaped) {
                        Some(fixed) => Value::String(fixed),
                        None => escape_annex_b(child),
                    },
                    "patternProperties" => match child {
                        Value::Object(patterns) => Value::Object(
                            patterns
                                .iter()
                                .map(|(k, v)| {
                                    (escaped(k).unwrap_or_else(|| k.clone()), escape_annex_b(v))
                                })
                                .collect(),
                        ),
                        other => escape_annex_b(other),
                    },
                    k if NAME_MAPS.contains(&k) => match child {
                        Value::Object(named) => Value::Object(
                            named
                                .iter()
                                .map(|(n, v)| (n.clone(), escape_annex_b(v)))
                                .collect(),
                        ),
                        other => escape_annex_b(other),
                    },
                    _ => escape_annex_b(child),
                };
                out.insert(key.clone(), child);
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(escape_annex_b).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn lone_brackets_are_escaped_and_nothing_else() {
        assert_eq!(
            escaped("^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$").as_deref(),
            Some("^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}\\]?$")
        );
        assert_eq!(
            escaped("^\\${{\\s*if(.*?)\\s*}}$").as_deref(),
            Some("^\\$\\{\\{\\s*if(.*?)\\s*\\}\\}$")
        );
        assert_eq!(escaped("([$][{].+})").as_deref(), Some("([$][{].+\\})"));
        // Valid already, or invalid for another reason: untouched.
        for p in ["^a{2,3}$", "[{}]", "(?i)abc", "abc\\z", "(?i)a]"] {
            assert_eq!(escaped(p), None, "{p}");
        }
    }

    #[test]
    fn only_schema_positions_are_rewritten() {
        let schema = json!({"properties": {"a": {"type": "string", "pattern": "x]", "default": {"pattern": "x]"}},
            "default": {"type": "string", "pattern": "y]"}},
            "patternProperties": {"^{a}$": {"type": "string"}}});
        let fixed = escape_annex_b(&schema);
        assert_eq!(fixed["properties"]["a"]["pattern"], "x\\]");
        assert_eq!(fixed["properties"]["a"]["default"]["pattern"], "x]");
        assert!(fixed["patternProperties"].get("^\\{a\\}$").is_some());
        assert_eq!(
            fixed["properties"]["default"]["pattern"], "y\\]",
            "a property named `default` is a schema"
        );
        let mut found = annex_b_patterns(&schema);
        found.sort();
        assert_eq!(
            found,
            [
                "/patternProperties/^{a}$",
                "/properties/a/pattern",
                "/properties/default/pattern"
            ]
        );
        assert!(!has_annex_b(&fixed));
    }

    proptest::proptest! {
        /// Escaping never changes which strings a pattern matches (read as
        /// Annex B does: fancy-regex on the escaped form vs. literal text).
        #[test]
        fn escaping_keeps_the_language(prefix in "[a-c]{0,4}", lone in "[\\]{}]", suffix in "[a-c]{0,4}", text in "[a-c\\]{}]{0,10}") {
            let pattern = format!("^{prefix}{lone}{suffix}$");
            if let Some(fixed) = escaped(&pattern) {
                proptest::prop_assert!(jsonschema_regex::is_valid_ecma_regex(&fixed));
                let literal = format!("{prefix}{lone}{suffix}");
                let re = regex::Regex::new(&jsonschema_regex::to_rust_regex(&fixed).unwrap()).unwrap();
                proptest::prop_assert_eq!(re.is_match(&text), text == literal, "{} on {}", fixed, text);
                proptest::prop_assert!(re.is_match(&literal));
            }
        }
    }
}
