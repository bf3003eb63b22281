//! JavaScript literals for text that comes from the schema or a model
//! (strings through [`crate::render::text`], which owns every target's escaping).
//!
//! Every label, description, enum value and pattern is hostile until it is
//! written here: as a JSON string (quotes, backslashes and control
//! characters escaped by serde_json), with U+2028/U+2029 escaped too (old
//! engines end a line there) and `</` written `<\/` (the module may be
//! inlined into a `<script>`). A backtick or `${` inside a double-quoted
//! string is inert. JSX text is never written raw: it goes inside `{...}`
//! as such a literal, so braces and `<` stay text.

use serde_json::Value;

use crate::render::text::js_harden as harden;
pub(crate) use crate::render::text::{js_string as string, jsx as text};

/// A JavaScript literal of a JSON value (JSON is JavaScript, once hardened).
pub(crate) fn value(value: &Value) -> String {
    harden(serde_json::to_string(value).unwrap_or_else(|_| "null".to_owned()))
}

/// Text safe inside a `//` comment: one line, no terminators.
pub(crate) fn comment(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() || c == '\u{2028}' || c == '\u{2029}' {
                ' '
            } else {
                c
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostile_text_stays_inside_its_literal() {
        assert_eq!(string("a\"b`${x}`"), "\"a\\\"b`${x}`\"");
        assert_eq!(string("</script><!--"), "\"<\\/script><\\!--\"");
        assert_eq!(string("x\u{2028}y\u{2029}"), "\"x\\u2028y\\u2029\"");
        assert_eq!(text("{a}"), "{\"{a}\"}");
        assert_eq!(comment("a\nb\u{2028}c"), "a b c");
    }
}
