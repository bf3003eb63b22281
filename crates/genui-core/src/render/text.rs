//! Every string a format shows to a person, made safe for the way that
//! format's renderer reads it. The request's `description`, the titles of a
//! schema's choices (`oneOf`/`anyOf` `const` + `title`), an approval's
//! `action`, labels, section names, help and messages all come from a
//! caller or a schema, and are hostile until written here.
//!
//! Labels, help and section names are already plain text in the plan
//! ([`crate::plan::sanitize`]); this module is the last step, at render
//! time, so that one cached spec serves every format. One function per
//! target, each with the table of what it changes:
//!
//! | target | read as | function | changed |
//! |---|---|---|---|
//! | A2UI `Text` | markdown | [`markdown`] | `\` `[` `]` `<` `>` backslash-escaped, so no link, image, autolink or HTML forms; the text shows literally |
//! | LMUI, RJSF, A2UI option labels | plain text | [`plain`], [`option_label`] | markup removed as labels are (tags, `<script>`/`<style>` with content, markdown links to their text, `javascript:`/`data:`/`vbscript:` words, non-http(s) URLs), then control characters other than tab and newline removed |
//! | `format=html` | HTML | [`html`], [`html_attribute`] | `&` `<` `>` (and `"` in an attribute) as entities |
//! | `format=react` | JSX / JavaScript | [`js_string`], [`jsx`] | a JSON string literal (quotes, backslashes, controls escaped), U+2028/U+2029 as `\u` escapes, `</` as `<\/`, `<!--` as `<\!--`; JSX text only inside `{"..."}` |
//!
//! Text that needs no change is returned as it is (borrowed), so an
//! ordinary form's answer is byte for byte what it was.

use crate::plan::check::markup_in;
use std::borrow::Cow;

/// Characters markdown gives a meaning that can make a link, an image, an
/// autolink or raw HTML (and the escape character itself): [`markdown`]
/// puts a backslash before each.
const MARKDOWN_ESCAPED: [char; 5] = ['\\', '[', ']', '<', '>'];

/// Text for a component that renders markdown (A2UI `Text`): shown
/// literally, with no live link, image, autolink or HTML.
pub(crate) fn markdown(text: &str) -> Cow<'_, str> {
    if !text.contains(MARKDOWN_ESCAPED) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if MARKDOWN_ESCAPED.contains(&c) {
            out.push('\\');
        }
        out.push(c);
    }
    Cow::Owned(out)
}

/// Text for a renderer that shows plain strings (LMUI, RJSF, option
/// labels): markup removed the way labels are cleaned
/// ([`crate::plan::sanitize::plain_text`], without its length cap), and
/// control characters other than tab and newline dropped. Text without
/// markup (as the checker defines it, [`markup_in`]) keeps its whitespace
/// and length.
pub(crate) fn plain(text: &str) -> Cow<'_, str> {
    let has_controls = text.chars().any(is_stray_control);
    if markup_in(text).is_none() && !has_controls {
        return Cow::Borrowed(text);
    }
    let without_controls: String = text.chars().filter(|c| !is_stray_control(*c)).collect();
    if markup_in(&without_controls).is_none() {
        return Cow::Owned(without_controls);
    }
    Cow::Owned(crate::plan::sanitize::plain_text(
        &without_controls,
        usize::MAX,
    ))
}

/// The words a choice is shown with: its title, else its value's text, as
/// [`plain`] text; the value's text as it is when nothing else is left
/// (a choice is never shown blank).
pub(crate) fn option_label(title: Option<&str>, value_text: &str) -> String {
    [title, Some(value_text)]
        .into_iter()
        .flatten()
        .map(plain)
        .find(|label| !label.trim().is_empty())
        .map_or_else(|| value_text.to_owned(), Cow::into_owned)
}

/// A control character other than the whitespace text may hold.
fn is_stray_control(c: char) -> bool {
    c.is_control() && !matches!(c, '\t' | '\n' | '\r')
}

/// HTML element content.
pub(crate) fn html(text: &str) -> String {
    html_escape::encode_text(text).into_owned()
}

/// A double-quoted HTML attribute value.
pub(crate) fn html_attribute(text: &str) -> String {
    html_escape::encode_double_quoted_attribute(text).into_owned()
}

/// A double-quoted JavaScript string literal.
pub(crate) fn js_string(text: &str) -> String {
    js_harden(serde_json::to_string(text).unwrap_or_else(|_| "\"\"".to_owned()))
}

/// JSX text: `{"..."}`, so braces and `<` stay text.
pub(crate) fn jsx(text: &str) -> String {
    format!("{{{}}}", js_string(text))
}

/// JSON text made safe as JavaScript source that may be inlined into a
/// `<script>`: line terminators old engines end a line at, and `</`/`<!--`.
pub(crate) fn js_harden(json: String) -> String {
    if !json.contains(['\u{2028}', '\u{2029}']) && !json.contains("</") && !json.contains("<!--") {
        return json;
    }
    json.replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
        .replace("</", "<\\/")
        .replace("<!--", "<\\!--")
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOSTILE: &str = "Pay [x](javascript:alert(1)) <img src=x onerror=alert(1)>";

    #[test]
    fn markdown_shows_markup_literally() {
        assert_eq!(
            markdown(HOSTILE),
            r"Pay \[x\](javascript:alert(1)) \<img src=x onerror=alert(1)\>"
        );
        assert_eq!(
            markdown("<javascript:alert(1)>"),
            r"\<javascript:alert(1)\>"
        );
        assert_eq!(markdown(r"\[x](y)"), r"\\\[x\](y)");
        assert_eq!(markdown("![i](data:x)"), r"!\[i\](data:x)");
        assert!(matches!(
            markdown("Shipping (2 days), 10 * 3_000"),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn plain_removes_markup_and_controls_only() {
        assert_eq!(plain(HOSTILE), "Pay x");
        assert_eq!(plain("<script>alert(1)</script>Hi"), "Hi");
        assert_eq!(plain("a\u{0}b\u{1b}[31m"), "ab[31m");
        assert_eq!(plain("a\u{0}<b>x</b>"), "a x");
        assert!(matches!(
            plain("Line one\n\nline  two (a < b)"),
            Cow::Borrowed(_)
        ));
        assert_eq!(markup_in(&plain(HOSTILE)), None);
    }

    #[test]
    fn option_labels_are_plain_and_never_blank() {
        assert_eq!(option_label(Some(HOSTILE), "card"), "Pay x");
        assert_eq!(option_label(Some("<b></b>"), "card"), "card");
        assert_eq!(option_label(None, "Card (Visa)"), "Card (Visa)");
        assert_eq!(option_label(None, "javascript:x"), "javascript:x");
    }

    #[test]
    fn html_and_js_keep_text_inside_its_literal() {
        assert_eq!(
            html(HOSTILE),
            "Pay [x](javascript:alert(1)) &lt;img src=x onerror=alert(1)&gt;"
        );
        assert_eq!(html_attribute("\"><x"), "&quot;&gt;&lt;x");
        assert_eq!(js_string("a\"b`${x}`"), "\"a\\\"b`${x}`\"");
        assert_eq!(js_string("</script><!--"), "\"<\\/script><\\!--\"");
        assert_eq!(js_string("x\u{2028}y\u{2029}"), "\"x\\u2028y\\u2029\"");
        assert_eq!(jsx("{a}"), "{\"{a}\"}");
    }
}
