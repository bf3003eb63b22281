//! Display text (from a model, or from titles in a schema) becomes plain text: HTML tags stripped
//! (`<script>`/`<style>` with their content), markdown links and images
//! reduced to their text, `javascript:`/`data:`/`vbscript:` and any other
//! non-http(s) URL removed, whitespace collapsed, length capped.
//!
//! The result always passes genui-core's `check::markup_in`, which the
//! checker applies to every label, help text and placeholder.

use crate::plan::check::markup_in;
use crate::plan::{Control, Node, Plan};

/// Longest label or title kept, in characters.
pub(crate) const MAX_LABEL_CHARS: usize = 200;
/// Longest help text or placeholder kept, in characters.
pub(crate) const MAX_HELP_CHARS: usize = 1000;

/// Script-like schemes, removed with the rest of their word.
const SCRIPT_SCHEMES: [&str; 3] = ["javascript:", "data:", "vbscript:"];

/// Sanitises every piece of display text in a plan; returns whether
/// anything besides whitespace changed.
pub(crate) fn sanitize_plan(plan: &mut Plan) -> bool {
    let mut changed = false;
    if let Some(title) = &mut plan.title {
        changed |= clean_in_place(title, MAX_LABEL_CHARS);
    }
    sanitize_node(&mut plan.root, &mut changed);
    changed
}

fn sanitize_node(node: &mut Node, changed: &mut bool) {
    match node {
        Node::Vertical { elements } | Node::Horizontal { elements } => {
            elements.iter_mut().for_each(|n| sanitize_node(n, changed));
        }
        Node::Group {
            label, elements, ..
        } => {
            *changed |= clean_in_place(label, MAX_LABEL_CHARS);
            elements.iter_mut().for_each(|n| sanitize_node(n, changed));
        }
        Node::Steps { steps } => {
            for step in steps {
                *changed |= clean_in_place(&mut step.label, MAX_LABEL_CHARS);
                step.elements
                    .iter_mut()
                    .for_each(|n| sanitize_node(n, changed));
            }
        }
        Node::Control(control) => sanitize_control(control, changed),
        Node::Table(table) => sanitize_control(&mut table.control, changed),
    }
}

fn sanitize_control(control: &mut Control, changed: &mut bool) {
    *changed |= clean_in_place(&mut control.label, MAX_LABEL_CHARS);
    for text in [&mut control.help, &mut control.placeholder] {
        if let Some(value) = text {
            *changed |= clean_in_place(value, MAX_HELP_CHARS);
            if value.is_empty() {
                *text = None;
            }
        }
    }
    if let Some(detail) = &mut control.detail {
        sanitize_node(detail, changed);
    }
}

/// Cleans one text; returns whether more than whitespace changed.
fn clean_in_place(text: &mut String, max_chars: usize) -> bool {
    if is_already_plain(text, max_chars) {
        return false;
    }
    if !needs_passes(text) {
        // Only whitespace and length to fix: what plain_text would return,
        // without running its passes.
        let collapsed = squash(text);
        let clean = truncate_chars(&collapsed, max_chars);
        let changed = clean != collapsed;
        *text = clean;
        return changed;
    }
    let clean = plain_text(text, max_chars);
    let changed = squash(&clean) != squash(text);
    *text = clean;
    changed
}

/// Whether any of [`plain_text`]'s passes would act on `text`: a `<`, a
/// markdown link, a script scheme or a non-http(s) URL. When none would,
/// `plain_text` only collapses whitespace and caps the length.
fn needs_passes(text: &str) -> bool {
    text.contains('<')
        || text.contains("](")
        || (text.contains(':')
            && (find_script_scheme(text).is_some()
                || (text.contains("://") && text.split(' ').any(is_foreign_url))))
}

/// Whether [`plain_text`] would return `text` unchanged: no pass acts on
/// it, whitespace is already single spaces, and it is within the length
/// cap. Most labels are like this, and one scan is much cheaper than the
/// passes' allocations.
fn is_already_plain(text: &str, max_chars: usize) -> bool {
    if needs_passes(text) {
        return false;
    }
    let mut previous_space = true; // no leading whitespace
    let mut chars = 0usize;
    for c in text.chars() {
        if c.is_whitespace() && (c != ' ' || previous_space) {
            return false;
        }
        previous_space = c == ' ';
        chars += 1;
    }
    (!previous_space || text.is_empty()) && chars <= max_chars
}

fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The plain-text form of one piece of display text.
pub(crate) fn plain_text(text: &str, max_chars: usize) -> String {
    let mut current = text.to_owned();
    for _ in 0..4 {
        let next = drop_urls(&markdown_links(&strip_tags(&drop_blocks(&current))));
        if next == current {
            break;
        }
        current = next;
    }
    if markup_in(&current).is_some() {
        current = drop_urls(&current.replace(['<', '>'], " ").replace("](", "] ("));
    }
    truncate_chars(&squash(&current), max_chars)
}

/// The first `max_chars` characters of collapsed text, without a trailing space.
fn truncate_chars(collapsed: &str, max_chars: usize) -> String {
    match collapsed.char_indices().nth(max_chars) {
        Some((at, _)) => collapsed[..at].trim_end().to_owned(),
        None => collapsed.to_owned(),
    }
}

/// Removes `<script>` and `<style>` elements with their content.
fn drop_blocks(text: &str) -> String {
    let mut out = text.to_owned();
    for name in ["script", "style"] {
        let open = format!("<{name}");
        let close = format!("</{name}");
        while let Some(start) = out.to_ascii_lowercase().find(&open) {
            let lower = out.to_ascii_lowercase();
            let end = match lower[start..].find(&close) {
                Some(at) => lower[start + at..]
                    .find('>')
                    .map_or(out.len(), |gt| start + at + gt + 1),
                None => out.len(),
            };
            out.replace_range(start..end, " ");
        }
    }
    out
}

/// Removes tags: `<` followed by a letter, `/`, `!` or `?`, up to `>` (or the
/// end of the text). A lone `<` as in `a < b` stays.
fn strip_tags(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('<') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let is_tag = after
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || matches!(c, '/' | '!' | '?'));
        if !is_tag {
            out.push('<');
            rest = after;
            continue;
        }
        out.push(' ');
        rest = after.find('>').map_or("", |gt| &after[gt + 1..]);
    }
    out.push_str(rest);
    out
}

/// `[text](url)` and `![alt](url)` become `text` / `alt`.
fn markdown_links(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(mid) = rest.find("](") {
        let Some(open) = rest[..mid].rfind('[') else {
            out.push_str(&rest[..mid + 1]);
            out.push(' ');
            rest = &rest[mid + 1..];
            continue;
        };
        let before = rest[..open].strip_suffix('!').unwrap_or(&rest[..open]);
        out.push_str(before);
        out.push_str(&rest[open + 1..mid]);
        let after = &rest[mid + 2..];
        rest = closing_paren(after).map_or("", |close| &after[close + 1..]);
    }
    out.push_str(rest);
    out
}

/// The `)` that closes a link target, counting nested parentheses.
fn closing_paren(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (at, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => return Some(at),
            ')' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// Removes words that carry a script scheme anywhere, and URLs whose scheme
/// is not http(s).
fn drop_urls(text: &str) -> String {
    let mut out = text.to_owned();
    while let Some((start, _)) = find_script_scheme(&out) {
        let end = out[start..]
            .find(char::is_whitespace)
            .map_or(out.len(), |w| start + w);
        out.replace_range(start..end, "");
    }
    out.split(' ')
        .filter(|word| !is_foreign_url(word))
        .collect::<Vec<_>>()
        .join(" ")
}

fn find_script_scheme(text: &str) -> Option<(usize, &'static str)> {
    let lower = text.to_ascii_lowercase();
    SCRIPT_SCHEMES
        .iter()
        .filter_map(|s| lower.find(s).map(|at| (at, *s)))
        .min()
}

fn is_foreign_url(word: &str) -> bool {
    let Some((scheme, _)) = word.split_once("://") else {
        return false;
    };
    let scheme = scheme
        .trim_start_matches(|c: char| !c.is_ascii_alphanumeric())
        .to_ascii_lowercase();
    !scheme.is_empty() && scheme != "http" && scheme != "https"
}

impl Plan {
    /// Makes every label, help and placeholder plain text; returns whether
    /// anything changed ([`sanitize_plan`]).
    pub fn sanitize(&mut self) -> bool {
        sanitize_plan(self)
    }
}

impl crate::plan::Control {
    /// At most this many characters of a label.
    pub const MAX_LABEL_CHARS: usize = MAX_LABEL_CHARS;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clean(text: &str) -> String {
        plain_text(text, MAX_HELP_CHARS)
    }

    #[test]
    fn strips_markup() {
        assert_eq!(clean("<b>First</b> name"), "First name");
        assert_eq!(clean("<script>alert(1)</script>Shipping"), "Shipping");
        assert_eq!(clean("Name <img src=x onerror=alert(1)"), "Name");
        assert_eq!(
            clean("see [the docs](https://x.example) now"),
            "see the docs now"
        );
        assert_eq!(
            clean("![logo](data:image/png;base64,xx) Brand"),
            "logo Brand"
        );
        assert_eq!(clean("[click](javascript:alert(1))"), "click");
        assert_eq!(clean("javascript:alert(1)"), "");
        assert_eq!(clean("Go to JavaScript:void(0) now"), "Go to now");
        assert_eq!(
            clean("ftp://files.example/x or https://ok.example"),
            "or https://ok.example"
        );
        assert_eq!(clean("a < b and c > d"), "a < b and c > d");
        assert_eq!(clean("  many\n\n spaces "), "many spaces");
        assert_eq!(plain_text("abcdef", 3), "abc");
    }

    #[test]
    fn the_fast_path_agrees_with_the_passes() {
        let texts = [
            "",
            "Name",
            "First name",
            " lead",
            "trail ",
            "two  spaces",
            "tab\there",
            "line\nbreak",
            "a < b",
            "<b>x</b>",
            "[a](b)",
            "see https://x.example",
            "ftp://x",
            "JavaScript:void(0)",
            "Default: 3",
            "data: yes",
            "abcdef",
            "non\u{a0}breaking",
        ];
        let more = [
            "see https://x.example  and\n http://y",
            "a\tb: c",
            "ftp://x and  y",
            "long  text here",
        ];
        for text in texts.iter().chain(&more) {
            for max in [3, 10, MAX_HELP_CHARS] {
                if is_already_plain(text, max) {
                    assert_eq!(plain_text(text, max), *text, "{text:?} at {max}");
                }
                // The whitespace-only path of clean_in_place matches plain_text.
                let mut cleaned = text.to_string();
                clean_in_place(&mut cleaned, max);
                assert_eq!(cleaned, plain_text(text, max), "{text:?} at {max}");
            }
        }
        assert!(is_already_plain("Postal code", MAX_LABEL_CHARS));
        assert!(is_already_plain("Default: 3", MAX_LABEL_CHARS));
    }

    #[test]
    fn output_always_passes_the_checker() {
        let nasty = [
            "<<b>b>x",
            "<scr<script>ipt>alert(1)</script>",
            "[a](b) [c](d",
            "]( x",
            "<!-- c -->",
            "dAtA:text/html,x",
            "javascriptjavascript::",
            "[x](javascript:y)<a href=\"javascript:z\">w</a>",
            "<",
            "<a",
            "[",
            "](",
            "x](y",
            "<style>p{}</style>ok",
            "java\nscript:x",
        ];
        for text in nasty {
            let out = clean(text);
            assert_eq!(markup_in(&out), None, "{text:?} -> {out:?}");
        }
    }
}
