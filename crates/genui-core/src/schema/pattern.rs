//! `pattern`: ECMA-262 syntax, enforced under a hard bound on work.
//!
//! JSON Schema's `pattern` dialect is ECMA-262, so a pattern is valid when
//! it parses as ECMA-262 (jsonschema-regex's parser: the `u`-flag grammar
//! widened with the identity escapes non-`u` patterns allow), not when some
//! Rust engine accepts it: `(?i)` or `\z` would pass `fancy-regex` and then
//! break Ajv, zod and the browser.
//!
//! A valid pattern is matched by the linear-time `regex` engine when that
//! engine can express it. Lookaround and backreferences need backtracking:
//! those patterns run on `fancy-regex`, bounded twice:
//!
//! - per match, by a backtrack limit ([`MATCH_LIMIT`]);
//! - per validation run, by a budget of backtracks shared by every match in
//!   it ([`RUN_BUDGET`]). fancy-regex does not report how many steps a
//!   match took, so each match is tried first with a small limit
//!   ([`PROBE_LIMIT`], what ordinary values need) and charged that; only a
//!   value that exceeds it is retried with [`MATCH_LIMIT`] and charged that
//!   too. The charge is an upper bound, so the budget is a hard bound.
//!
//! A match that hits either bound is a validation failure with its own
//! message, never a pass. The budget is per thread and set by [`bounded`]
//! around each validation run (a submission, the pre-fill check), so one
//! request cannot spend another's. The keyword replaces jsonschema's own
//! `pattern` in every validator the worker compiles: `output`, rule
//! conditions and submissions share it.

use crate::error::{Error, ErrorCode};
use jsonschema::{Keyword, ValidationError};
use serde_json::{Map, Value};
use std::cell::Cell;

/// Backtracks an ordinary value may take: the first try of every match.
const PROBE_LIMIT: usize = 200;
/// Backtracks one match may take at most.
pub(crate) const MATCH_LIMIT: usize = 20_000;
/// Backtracks all backtracking matches of one validation run may take.
pub(crate) const RUN_BUDGET: u64 = 250_000;
/// Compiled regexes (and the DFA of a delegated one) may use this many bytes.
pub(crate) const REGEX_SIZE_LIMIT: usize = 1 << 20;

thread_local! {
    /// Backtracks left in the current validation run; `None` outside [`bounded`].
    static BUDGET: Cell<Option<u64>> = const { Cell::new(None) };
}

/// Runs `f` (one validation run) with a fresh budget of [`RUN_BUDGET`]
/// backtracks, restoring the enclosing budget after.
pub(crate) fn bounded<T>(f: impl FnOnce() -> T) -> T {
    let outer = BUDGET.with(|b| b.replace(Some(RUN_BUDGET)));
    let out = f();
    BUDGET.with(|b| b.set(outer));
    out
}

/// Takes `cost` backtracks from the budget; false when it cannot.
/// Outside [`bounded`] only the per-match limit applies.
fn charge(cost: usize) -> bool {
    BUDGET.with(|b| match b.get() {
        None => true,
        Some(left) if left >= cost as u64 => {
            b.set(Some(left - cost as u64));
            true
        }
        Some(_) => {
            b.set(Some(0));
            false
        }
    })
}

/// Why `pattern` is not valid ECMA-262, if it is not.
pub(crate) fn ecma_error(pattern: &str) -> Option<String> {
    (!jsonschema_regex::is_valid_ecma_regex(pattern))
        .then(|| format!("pattern \"{pattern}\" is not a valid ECMA-262 regular expression"))
}

/// `\d` and `\w` as ECMA-262 reads them (ASCII only, also with `u`), not as
/// Rust's Unicode classes: the same matches as Ajv and the browser, and a
/// `[\w.-]{0,127}` compiles to kilobytes instead of past the size limit.
fn ascii_classes(translated: &str) -> String {
    let mut out = String::with_capacity(translated.len() + 16);
    let (mut chars, mut in_class) = (translated.chars(), false);
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('d') => out.push_str(if in_class { "0-9" } else { "[0-9]" }),
                Some('w') => out.push_str(if in_class {
                    "0-9A-Za-z_"
                } else {
                    "[0-9A-Za-z_]"
                }),
                Some('D') if !in_class => out.push_str("[^0-9]"),
                Some('W') if !in_class => out.push_str("[^0-9A-Za-z_]"),
                Some(next) => {
                    out.push('\\');
                    out.push(next);
                }
                None => out.push('\\'),
            },
            '[' if !in_class => {
                in_class = true;
                out.push(c);
            }
            ']' if in_class => {
                in_class = false;
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

/// `schema` with [`ascii_classes`] applied to every `patternProperties`
/// key that has a `\d` or `\w` (the same ECMA-262 language, spelled so the
/// Rust engine jsonschema compiles keys with reads it as ECMA does);
/// borrowed when there is none. Only the compiled validator's copy.
pub(crate) fn ascii_pattern_properties(schema: &Value) -> std::borrow::Cow<'_, Value> {
    fn needs(key: &str) -> bool {
        key.contains("\\d") || key.contains("\\w") || key.contains("\\D") || key.contains("\\W")
    }
    fn has(value: &Value) -> bool {
        match value {
            Value::Object(map) => {
                map.get("patternProperties")
                    .and_then(Value::as_object)
                    .is_some_and(|p| p.keys().any(|k| needs(k)))
                    || map.values().any(has)
            }
            Value::Array(items) => items.iter().any(has),
            _ => false,
        }
    }
    fn fix(value: &Value) -> Value {
        match value {
            Value::Object(map) => Value::Object(
                map.iter()
                    .map(|(k, v)| match (k.as_str(), v) {
                        ("patternProperties", Value::Object(p)) => (
                            k.clone(),
                            Value::Object(
                                p.iter()
                                    .map(|(key, s)| {
                                        (
                                            if needs(key) {
                                                ascii_classes(key)
                                            } else {
                                                key.clone()
                                            },
                                            fix(s),
                                        )
                                    })
                                    .collect(),
                            ),
                        ),
                        _ => (k.clone(), fix(v)),
                    })
                    .collect(),
            ),
            Value::Array(items) => Value::Array(items.iter().map(fix).collect()),
            other => other.clone(),
        }
    }
    if has(schema) {
        std::borrow::Cow::Owned(fix(schema))
    } else {
        std::borrow::Cow::Borrowed(schema)
    }
}

/// The two engines a pattern can run on.
enum Engine {
    Linear(regex::Regex),
    Backtracking {
        probe: fancy_regex::Regex,
        full: fancy_regex::Regex,
    },
}

/// Why a match gave no answer.
enum Unchecked {
    MatchLimit,
    Budget,
}

/// A compiled `pattern` keyword.
pub(crate) struct Pattern {
    source: String,
    engine: Engine,
}

impl Pattern {
    /// Compiles an ECMA-262 pattern; the error (`invalid_schema`) says why
    /// it cannot be used. jsonschema places it in the schema.
    pub(crate) fn new(source: &str) -> Result<Self, Error> {
        if let Some(why) = ecma_error(source) {
            return Err(Error::new(ErrorCode::InvalidSchema, why));
        }
        let unusable = || {
            Error::new(
                ErrorCode::InvalidSchema,
                format!("pattern \"{source}\" cannot be compiled within the worker's regex limits"),
            )
        };
        let translated =
            ascii_classes(&jsonschema_regex::to_rust_regex(source).map_err(|()| unusable())?);
        let linear = regex::RegexBuilder::new(&translated)
            .size_limit(REGEX_SIZE_LIMIT)
            .dfa_size_limit(REGEX_SIZE_LIMIT)
            .build();
        let engine = match linear {
            Ok(regex) => Engine::Linear(regex),
            Err(_) => {
                let fancy = |limit| {
                    fancy_regex::RegexBuilder::new(&translated)
                        .backtrack_limit(limit)
                        .delegate_size_limit(REGEX_SIZE_LIMIT)
                        .delegate_dfa_size_limit(REGEX_SIZE_LIMIT)
                        .build()
                        .map_err(|_| unusable())
                };
                Engine::Backtracking {
                    probe: fancy(PROBE_LIMIT)?,
                    full: fancy(MATCH_LIMIT)?,
                }
            }
        };
        Ok(Self {
            source: source.to_owned(),
            engine,
        })
    }

    /// Whether the pattern needs the backtracking engine.
    #[cfg(test)]
    pub(crate) fn backtracks(&self) -> bool {
        matches!(self.engine, Engine::Backtracking { .. })
    }

    /// Matches `text`; `Err` when a bound stopped the match.
    fn find(&self, text: &str) -> Result<bool, Unchecked> {
        let (probe, full) = match &self.engine {
            Engine::Linear(regex) => return Ok(regex.is_match(text)),
            Engine::Backtracking { probe, full } => (probe, full),
        };
        if !charge(PROBE_LIMIT) {
            return Err(Unchecked::Budget);
        }
        if let Ok(found) = probe.is_match(text) {
            return Ok(found);
        }
        if !charge(MATCH_LIMIT) {
            return Err(Unchecked::Budget);
        }
        full.is_match(text).map_err(|_| Unchecked::MatchLimit)
    }

    fn error(&self, why: Result<bool, Unchecked>) -> Option<ValidationError<'static>> {
        let message = match why {
            Ok(true) => return None,
            Ok(false) => format!("does not match pattern \"{}\"", self.source),
            Err(Unchecked::MatchLimit) => format!(
                "could not be checked against pattern \"{}\": the match needs more than {MATCH_LIMIT} backtracking steps, so the value is not accepted",
                self.source
            ),
            Err(Unchecked::Budget) => format!(
                "was not checked against pattern \"{}\": this request spent its pattern-matching budget ({RUN_BUDGET} backtracking steps), so the value is not accepted",
                self.source
            ),
        };
        Some(ValidationError::custom(message))
    }
}

impl<'i> Keyword<'i> for Pattern {
    fn validate(&self, instance: &'i Value) -> Result<(), ValidationError<'i>> {
        match instance.as_str() {
            Some(text) => self.error(self.find(text)).map_or(Ok(()), Err),
            None => Ok(()),
        }
    }

    fn is_valid(&self, instance: &'i Value) -> bool {
        instance
            .as_str()
            .is_none_or(|text| matches!(self.find(text), Ok(true)))
    }
}

/// The factory jsonschema calls for every `pattern` keyword it compiles.
pub(crate) fn factory<'a>(
    _parent: &'a Map<String, Value>,
    value: &'a Value,
    _path: jsonschema::paths::Location,
) -> Result<Box<dyn for<'i> Keyword<'i>>, ValidationError<'a>> {
    let Some(source) = value.as_str() else {
        return Err(ValidationError::custom("`pattern` must be a string"));
    };
    Pattern::new(source)
        .map(|p| Box::new(p) as Box<dyn for<'i> Keyword<'i>>)
        .map_err(|e| ValidationError::custom(e.message().to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ecma_syntax_decides_validity() {
        for ok in [
            "^(?!foo).*$",
            "(?<=a)b",
            "^(a)\\1$",
            "^[\\w.-]+$",
            "\\p{L}+",
            "^\\d{3}$",
        ] {
            assert!(Pattern::new(ok).is_ok(), "{ok}");
        }
        for bad in ["(?i)abc", "abc\\z", "a{2,1}", "(", "\\A"] {
            let error = Pattern::new(bad).err().expect(bad);
            assert_eq!(error.code(), ErrorCode::InvalidSchema, "{bad}");
        }
    }

    #[test]
    fn digit_and_word_classes_are_ascii_as_in_ecma() {
        // architect.yml: named groups, lookbehind and `[\w\.-]{0,127}`,
        // past the size limit with Rust's Unicode `\w`.
        let p = Pattern::new(r"^(?:(?<account>(?!-)[a-z0-9-]{1,32}(?<!-))\/)?(?<name>(?!-)[a-z0-9-]{1,32}(?<!-))(?:@(?<instance>[\w][\w\.-]{0,127}))?$").unwrap();
        assert_eq!(p.find("acct/api@v1.2").ok(), Some(true));
        assert_eq!(p.find("api-").ok(), Some(false));
        assert_eq!(p.find("api@\u{e9}").ok(), Some(false));
        let d = Pattern::new(r"^\d+[^\W]$").unwrap();
        assert_eq!(
            (
                d.find("12a").ok(),
                d.find("\u{663}a").ok(),
                d.find("1\u{e9}").ok()
            ),
            (Some(true), Some(false), Some(false))
        );
        assert_eq!(
            ascii_classes(r"[\w.-]\d\\w\W"),
            r"[0-9A-Za-z_.-][0-9]\\w[^0-9A-Za-z_]"
        );
    }

    proptest::proptest! {
        /// `\d`, `\w`, `\D`, `\W`, in and out of classes, match exactly the
        /// ASCII sets ECMA-262 defines, whatever the text.
        #[test]
        fn class_escapes_match_ecma_sets(text in "[0-9a-zA-Z_ \\-\u{e9}\u{663}\u{3b1}]{0,8}", which in 0usize..6) {
            let digit = |c: char| c.is_ascii_digit();
            let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
            let (pattern, member): (&str, &dyn Fn(char) -> bool) = match which {
                0 => ("^\\d*$", &digit),
                1 => ("^\\w*$", &word),
                2 => ("^\\D*$", &|c| !digit(c)),
                3 => ("^\\W*$", &|c| !word(c)),
                4 => ("^[\\w-]*$", &|c| word(c) || c == '-'),
                _ => ("^[^\\d]*$", &|c| !digit(c)),
            };
            let p = Pattern::new(pattern).unwrap();
            proptest::prop_assert_eq!(p.find(&text).ok(), Some(text.chars().all(member)), "{} on {:?}", pattern, text);
        }
    }

    #[test]
    fn lookahead_is_enforced_and_linear_patterns_stay_linear() {
        let p = Pattern::new("^(?!admin$)[a-z]+$").unwrap();
        assert!(p.backtracks());
        assert_eq!(p.find("ada").ok(), Some(true));
        assert_eq!(p.find("admin").ok(), Some(false));
        assert!(!Pattern::new("^(a+)+$").unwrap().backtracks());
    }

    #[test]
    fn a_bound_is_a_failure_never_a_pass() {
        let p = Pattern::new("^(?:(a)\\1?|a)*b$").unwrap();
        let hostile = "a".repeat(40);
        assert!(matches!(p.find(&hostile), Err(Unchecked::MatchLimit)));
        assert!(p.error(p.find(&hostile)).is_some());
        // In a run, the budget runs out and every later match fails.
        bounded(|| {
            let outcomes: Vec<_> = (0..200).map(|_| p.find(&hostile)).collect();
            assert!(outcomes.iter().all(Result::is_err));
            assert!(outcomes.iter().any(|o| matches!(o, Err(Unchecked::Budget))));
        });
    }

    proptest::proptest! {
        /// Any pattern text either compiles or is refused with a reason,
        /// and any value against a compiled one gives an answer or a
        /// bound, inside one budget: never a panic or a hang.
        #[test]
        fn arbitrary_patterns_and_values_terminate(pattern in "[a-c()?!=<:|*+\\\\1{}\\[\\]^$.]{0,16}", values in proptest::collection::vec("[a-c!]{0,40}", 0..50)) {
            if let Ok(p) = Pattern::new(&pattern) {
                bounded(|| for value in &values {
                    let _ = p.error(p.find(value));
                });
            }
        }
    }
}
