//! What `/v1/submit` answers when a person's browser posts a `format=html`
//! form: whether its `Accept` asks for a page ([`prefers_html`]; the
//! answer's row is chosen by the submission machine,
//! [`crate::edge::submission`]), and the pages themselves, built from the same pieces as the form's own page and
//! a hosted link's pages.
//!
//! - Accepted: a thank-you in the form's language ([`accepted`]). The
//!   message (the AG-UI tool message, or the `dgui_response` of a form
//!   made for no tool call) rides along in a `data-message` attribute, and
//!   `posted.js` hands it to the page that frames the form with
//!   `window.parent.postMessage({type: "genui:tool_message", message},
//!   "*")`. The target is `*` because a stateless worker that sends no
//!   referrer cannot know who frames the form; the message holds only what
//!   the person typed into that frame. The embedder checks `event.source`
//!   (its iframe), `event.origin` (where the form posted) and `type`.
//! - Refused: the form again, the errors beside their fields and in the
//!   summary, the person's input kept ([`refused`]); or, when there is no
//!   form to show again (it expired from the cache, or the post names
//!   none), a page that says so ([`unavailable`]).
//!
//! Every page has the form's Content-Security-Policy, except that it may
//! be framed ([`csp`]): the form it answers may sit in an embedder's frame.

use super::{form, form_markup, page, with_hidden_fields, Notice, Words, SCRIPT};
use crate::render::words::{Lang, Text};
use crate::render::RenderInput;
use crate::terms::response::HttpResponse;
use crate::{Error, UiSpec};
use serde_json::{Map, Value};
use std::sync::OnceLock;

/// The success page's script: posts the tool message to the parent frame.
const POSTED_SCRIPT: &str = include_str!("posted.js");

/// Whether `accept` ranks `text/html` above `application/json`, as a
/// browser's navigation does (not for a tie, no `Accept`, or `*/*`).
pub(crate) fn prefers_html(accept: Option<&str>) -> bool {
    let accept = accept.unwrap_or_default();
    quality(accept, "text", "html") > quality(accept, "application", "json")
}

/// The weight `accept` gives `ty/subty`: that of the most specific range
/// that matches it (`ty/subty`, then `ty/*`, then `*/*`), 0 when none does.
fn quality(accept: &str, ty: &str, subty: &str) -> f32 {
    let mut best: Option<(u8, f32)> = None;
    for range in mediatype::MediaTypeList::new(accept).flatten() {
        let (rty, rsub) = (range.ty.as_str(), range.subty.as_str());
        let specificity = match (
            rty.eq_ignore_ascii_case(ty),
            rsub.eq_ignore_ascii_case(subty),
        ) {
            (true, true) if range.suffix.is_none() => 2,
            (true, _) if rsub == "*" => 1,
            _ if rty == "*" && rsub == "*" => 0,
            _ => continue,
        };
        let q = range
            .params
            .iter()
            .find(|(name, _)| name.as_str().eq_ignore_ascii_case("q"))
            .map_or(1.0, |(_, v)| v.unquoted_str().parse::<f32>().unwrap_or(0.0))
            .clamp(0.0, 1.0);
        if best.is_none_or(|(s, w)| specificity > s || (specificity == s && q > w)) {
            best = Some((specificity, q));
        }
    }
    best.map_or(0.0, |(_, q)| q)
}

/// The Content-Security-Policy of the pages after a post: the form's,
/// with [`POSTED_SCRIPT`] allowed beside its script, and framing allowed.
pub(crate) fn csp() -> &'static str {
    static CSP: OnceLock<String> = OnceLock::new();
    CSP.get_or_init(|| super::policy(&[SCRIPT, POSTED_SCRIPT], "*"))
}

fn respond(status: u16, page: String) -> HttpResponse {
    HttpResponse::html_with_csp(status, page, csp())
}

/// 200: the thank-you for an accepted post of `spec`'s form, in `locale`'s
/// language, carrying `message` (the tool message's JSON) for the frame's parent.
pub(crate) fn accepted(spec: Option<&UiSpec>, locale: Option<&str>, message: &str) -> HttpResponse {
    let lang = Lang::pick(locale);
    let title = spec
        .and_then(|s| s.plan.title.clone())
        .unwrap_or_else(|| lang.text(Text::Form).to_owned());
    let notice = Notice {
        lang,
        title: &title,
        text: lang.text(Text::SubmitThanks),
        role: "status",
        state: "submitted",
    };
    let tail = format!(
        r#"<div id="genui-tool-message" hidden data-message="{}"></div><script>{POSTED_SCRIPT}</script>"#,
        form::attr(message)
    );
    respond(200, notice.page(&tail))
}

/// The form of `spec` again after `error`, in `locale`'s language: each
/// error beside its field and in the summary, `data` (the post as read)
/// in the fields, the same hidden fields; the error's status (422 for data
/// the schema refuses).
pub(crate) fn refused(
    spec: &UiSpec,
    locale: Option<&str>,
    tool_call_id: Option<&str>,
    data: &Value,
    error: &Error,
) -> HttpResponse {
    let none = Value::Null;
    let r = RenderInput {
        spec,
        initial_data: data.clone(),
        meta: Map::new(),
        raw_data: &none,
        locale,
        catalog: None,
        prompt: None,
    };
    let words = Words::of(r.lang());
    let errors = super::field_errors(error);
    let markup = with_hidden_fields(
        form_markup(&r, super::SUBMIT_ACTION, &errors, &words),
        &r,
        tool_call_id,
    );
    respond(error.http_status(), page(&r, &markup, &words))
}

/// A post with no form to show again: a page that says so, in `locale`'s
/// language, with `error`'s status.
pub(crate) fn unavailable(locale: Option<&str>, error: &Error) -> HttpResponse {
    let lang = Lang::pick(locale);
    let notice = Notice {
        lang,
        title: lang.text(Text::Form),
        text: lang.text(Text::SubmitUnavailable),
        role: "alert",
        state: "unavailable",
    };
    respond(error.http_status(), notice.page(""))
}

#[cfg(test)]
mod tests {
    use super::*;

    const BROWSER: &str =
        "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";

    #[test]
    fn a_browser_ranks_html_above_json_and_everyone_else_does_not() {
        for html in [
            Some(BROWSER),
            Some("text/html"),
            Some("TEXT/HTML; charset=utf-8"),
            Some("application/json;q=0.5, text/*"),
        ] {
            assert!(prefers_html(html), "{html:?}");
        }
        for json in [
            None,
            Some(""),
            Some("*/*"),
            Some("application/json"),
            Some("text/html, application/json"),
            Some("text/html;q=0.5, application/json"),
            Some("text/html;q=0"),
            Some("text/html;q=nonsense"),
            Some("application/*, text/html;q=0.9"),
            Some(";;;,,,/"),
        ] {
            assert!(!prefers_html(json), "{json:?}");
        }
    }

    #[test]
    fn the_pages_after_a_post_may_be_framed_and_run_only_their_scripts() {
        let policy = csp();
        assert!(policy.contains("frame-ancestors *"), "{policy}");
        assert!(policy.contains(&super::super::csp_hash(POSTED_SCRIPT)));
        assert!(policy.contains(&super::super::csp_hash(SCRIPT)));
        assert!(policy.starts_with("default-src 'none';"));
        assert!(super::super::csp().ends_with("frame-ancestors 'none'"));
    }
}
