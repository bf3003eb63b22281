//! JavaScript literals for text that comes from the schema or a model.
//!
//! Every label, description, enum value and pattern is hostile until it is
//! written here: as a JSON string (quotes, backslashes and control
//! characters escaped by serde_json), with U+2028/U+2029 escaped too (old
//! engines end a line there) and `</` written `<\/` (the module may be
//! inlined into a `<script>`). A backtick or `${` inside a double-quoted
//! string is inert. JSX text is never written raw: it goes inside `{...}`
//! as such a literal, so braces and `<` stay text.

use serde_json::Value;

/// A double-quoted JavaScript string literal of `text`.
pub(crate) fn string(text: &str) -> String {
    harden(serde_json::to_string(text).unwrap_or_else(|_| "\"\"".to_owned()))
}

/// A JavaScript literal of a JSON value (JSON is JavaScript, once hardened).
pub(crate) fn value(value: &Value) -> String {
    harden(serde_json::to_string(value).unwrap_or_else(|_| "null".to_owned()))
}

/// JSX text: `{"..."}`.
pub(crate) fn text(text: &str) -> String {
    format!("{{{}}}", string(text))
}

fn harden(json: String) -> String {
    if !json.contains(['\u{2028}', '\u{2029}']) && !json.contains("</") && !json.contains("<!--") {
        return json;
    }
    json.replace('\u{2028}', "\\u2028").replace('\u{2029}', "\\u2029").replace("</", "<\\/").replace("<!--", "<\\!--")
}

/// Text safe inside a `//` comment: one line, no terminators.
pub(crate) fn comment(text: &str) -> String {
    text.chars().map(|c| if c.is_control() || c == '\u{2028}' || c == '\u{2029}' { ' ' } else { c }).collect()
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
