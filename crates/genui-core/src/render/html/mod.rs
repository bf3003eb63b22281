//! The HTML projection (`format=html`): a self-contained, server-rendered
//! page with a native `<form>` that works without JavaScript.
//!
//! - [`form`]: the `<form>` markup alone, no page chrome, reusable by any
//!   page that wraps it (the hosted link's, an MCP App view's);
//! - [`reply`]: what `/v1/submit` answers a browser that posted the form
//!   (a page, or JSON for a caller that asks for it);
//! - [`post`]: a form post (`application/x-www-form-urlencoded`, names
//!   are JSON Pointers) read back into typed JSON data;
//! - `form.css` and `form.js`: the page's only style and script, inline
//!   and allowed by their hashes in a strict Content-Security-Policy
//!   ([`csp`]); the script only enhances (array rows, rules, pre-fill from
//!   the URL fragment) and the form works without it.
//!
//! As JSON, a `format=html` answer is `{type: "html_page", html, form,
//! meta}` (`schemas/html-page.schema.json`); the service answers it as
//! `text/html` with the CSP header ([`crate::HttpResponse`]).

pub(crate) mod form;
pub(crate) mod post;
pub(crate) mod prefill;
pub(crate) mod reply;

use super::RenderInput;
use serde_json::{Map, Value};
use std::fmt::Write as _;
use std::sync::OnceLock;

/// The page's style sheet.
pub(crate) const STYLE: &str = include_str!("form.css");

/// The page's script (progressive: the form works without it).
pub(crate) const SCRIPT: &str = include_str!("form.js");

/// The texts the worker writes itself on a form.
#[derive(Debug, Clone)]
pub(crate) struct Words {
    pub(crate) submit: String,
    pub(crate) approve: String,
    pub(crate) reject: String,
    pub(crate) add: String,
    pub(crate) remove: String,
    pub(crate) required: String,
    pub(crate) choose: String,
    pub(crate) error_summary: String,
    pub(crate) json_hint: String,
    pub(crate) form_label: String,
    pub(crate) approval_needed: String,
    pub(crate) approval_needed_level: String,
    pub(crate) lang: String,
}

impl Words {
    /// The texts in one language ([`super::words`]).
    pub(crate) fn of(lang: super::words::Lang) -> Self {
        use super::words::Text;
        let t = |id| lang.text(id).to_owned();
        Self {
            submit: t(Text::Submit),
            approve: t(Text::Approve),
            reject: t(Text::Reject),
            add: t(Text::Add),
            remove: t(Text::Remove),
            required: t(Text::Required),
            choose: t(Text::Choose),
            error_summary: t(Text::ErrorSummary),
            json_hint: t(Text::JsonHint),
            form_label: t(Text::Form),
            approval_needed: t(Text::ApprovalNeeded),
            approval_needed_level: t(Text::ApprovalNeededLevel),
            lang: lang.tag().to_owned(),
        }
    }
}

/// `sha256-<base64>` of a text, as CSP names an inline element.
fn csp_hash(source: &str) -> String {
    use base64::Engine as _;
    use sha2::Digest as _;
    format!(
        "'sha256-{}'",
        base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(source.as_bytes()))
    )
}

/// A page's Content-Security-Policy: nothing from anywhere, except the
/// inline style and `scripts` by their hashes, and posting the form to the
/// page's own origin; framed only by `frame_ancestors`.
fn policy(scripts: &[&str], frame_ancestors: &str) -> String {
    let scripts: Vec<String> = scripts.iter().map(|s| csp_hash(s)).collect();
    format!(
        "default-src 'none'; style-src {}; script-src {}; img-src data:; form-action 'self'; base-uri 'none'; frame-ancestors {frame_ancestors}",
        csp_hash(STYLE),
        scripts.join(" ")
    )
}

/// The Content-Security-Policy of a form's page (and of a hosted link's
/// pages): [`policy`] for the form's script, framed by no one.
pub(crate) fn csp() -> &'static str {
    static CSP: OnceLock<String> = OnceLock::new();
    CSP.get_or_init(|| policy(&[SCRIPT], "'none'"))
}

/// The `<form>` markup ([`form`]), with errors (data pointer, message)
/// shown next to their fields and in a summary at the top.
pub(crate) fn form_markup(
    r: &RenderInput<'_>,
    action: &str,
    errors: &[(String, String)],
    words: &Words,
) -> String {
    let limits = crate::terms::limits::Limits::default();
    match super::localized(r) {
        Some(spec) => {
            let r = RenderInput {
                spec: &spec,
                ..r.clone()
            };
            form::markup(&r, &limits, action, errors, words)
        }
        None => form::markup(r, &limits, action, errors, words),
    }
}

/// A whole page around a form's markup.
pub(crate) fn page(r: &RenderInput<'_>, body: &str, words: &Words) -> String {
    let title = r.title();
    let mut out = String::with_capacity(body.len() + STYLE.len() + SCRIPT.len() + 512);
    let _ = write!(
        out,
        r#"<!doctype html><html lang="{}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer"><title>{}</title><style>{STYLE}</style></head><body><main class="genui-page"><h1>{}</h1>"#,
        form::attr(&words.lang),
        form::text(&title),
        form::text(&title)
    );
    if let Some(lead) = r.lead() {
        let _ = write!(
            out,
            r#"<p class="genui-description">{}</p>"#,
            form::text(&lead)
        );
    }
    out.push_str(body);
    let _ = write!(out, "</main><script>{SCRIPT}</script></body></html>");
    out
}

/// Where a `format=html` form posts (a hosted link's page posts to its own URL).
pub(crate) const SUBMIT_ACTION: &str = "/v1/submit";

/// `markup` (a `<form>`) with the hidden fields that name what a post to
/// [`SUBMIT_ACTION`] answers: the spec's hash, the tool call's id and the
/// form's locale (so the page after the post speaks the form's language).
pub(crate) fn with_hidden_fields(
    mut markup: String,
    r: &RenderInput<'_>,
    tool_call_id: Option<&str>,
) -> String {
    let Some(at) = markup.find('>') else {
        return markup;
    };
    let mut hidden = format!(
        r#"<input type="hidden" name="_specHash" value="{}">"#,
        form::attr(&r.spec.spec_hash)
    );
    let named = [("_toolCallId", tool_call_id), ("_locale", r.locale)];
    for (name, value) in named {
        if let Some(value) = value {
            let _ = write!(
                hidden,
                r#"<input type="hidden" name="{name}" value="{}">"#,
                form::attr(value)
            );
        }
    }
    markup.insert_str(at + 1, &hidden);
    markup
}

/// The `format=html` answer: `{type, html, form, meta}`. The form posts
/// to [`SUBMIT_ACTION`] with its hidden fields ([`with_hidden_fields`]);
/// a hosted link's page posts to its own URL instead.
pub(crate) fn render(r: &RenderInput<'_>) -> Value {
    let words = Words::of(r.lang());
    let tool_call_id = r.meta.get("toolCallId").and_then(Value::as_str);
    let markup = with_hidden_fields(form_markup(r, SUBMIT_ACTION, &[], &words), r, tool_call_id);
    let html = page(r, &markup, &words);
    let mut message = Map::new();
    message.insert("type".into(), "html_page".into());
    message.insert("html".into(), html.into());
    message.insert("form".into(), markup.into());
    message.insert("csp".into(), csp().into());
    message.insert("meta".into(), Value::Object(r.meta()));
    Value::Object(message)
}

/// Errors of a rejected submission as (data pointer, message) pairs.
pub(crate) fn field_errors(error: &crate::Error) -> Vec<(String, String)> {
    let listed = error.details().iter().find_map(|d| match d {
        crate::error::Detail::Errors(list) => Some(
            list.iter()
                .map(|e| (e.pointer.clone(), e.message.clone()))
                .collect::<Vec<_>>(),
        ),
        _ => None,
    });
    listed.unwrap_or_else(|| {
        vec![(
            error
                .pointer()
                .filter(|p| p.starts_with('/') && !p.starts_with("/data"))
                .unwrap_or("")
                .to_owned(),
            error.message().to_owned(),
        )]
    })
}

impl RenderInput<'_> {
    /// The `format=html` form markup alone (`<form class="genui-form"
    /// method="post" action=...>`, no page chrome), posting to `action`:
    /// what a page of one's own (an MCP App view, a hosted link) wraps.
    /// Pass a `RenderInput` whose data is `null` for markup free of data,
    /// and fill it in the browser with `window.genuiForm.fill(form, data)`
    /// from [`Format::HTML_SCRIPT`]. The page around it must carry
    /// [`Format::HTML_STYLE`] and [`Format::HTML_SCRIPT`] (allowed by
    /// [`Format::html_csp`]'s hashes) for its look and enhancements.
    pub fn html_form(&self, action: &str) -> String {
        form_markup(self, action, &[], &Words::of(self.lang()))
    }

    /// [`RenderInput::html_form`] after a rejected submission: each error
    /// of `error` (a `submission_invalid`'s list, or its one message) next
    /// to its field and in a summary at the top.
    pub fn html_form_with_errors(&self, action: &str, error: &crate::Error) -> String {
        form_markup(self, action, &field_errors(error), &Words::of(self.lang()))
    }

    /// A whole page (doctype, title, description, style, script) around
    /// `body`, for instance [`RenderInput::html_form`]'s markup.
    pub fn html_page(&self, body: &str) -> String {
        page(self, body, &Words::of(self.lang()))
    }
}

impl crate::terms::format::Format {
    /// The style sheet of the HTML form (inline in its page).
    pub const HTML_STYLE: &'static str = STYLE;

    /// The script of the HTML form: progressive enhancement (array rows,
    /// rules, pre-fill). It defines `window.genuiForm = {init, fill,
    /// collect, rules}` and initialises every `form.genui-form` it finds.
    pub const HTML_SCRIPT: &'static str = SCRIPT;

    /// The Content-Security-Policy of the HTML page: nothing but the
    /// inline [`Format::HTML_STYLE`] and [`Format::HTML_SCRIPT`], by hash.
    pub fn html_csp() -> &'static str {
        csp()
    }
}

/// The page of a hosted form's state (delivered, retrying, failed, already
/// submitted) or of a link that leads nowhere (expired, not valid): one
/// message in `locale`'s language, `role=status` (`alert` for failures).
pub(crate) fn notice_page(locale: Option<&str>, which: &str) -> Option<String> {
    use super::words::Text;
    let lang = super::words::Lang::pick(locale);
    let (id, role) = match which {
        "received" => (Text::Received, "status"),
        "delivered" => (Text::Delivered, "status"),
        "retrying" => (Text::Retrying, "status"),
        "failed" => (Text::Failed, "alert"),
        "already_submitted" => (Text::AlreadySubmitted, "status"),
        "expired" => (Text::Expired, "alert"),
        "not_found" => (Text::NotFound, "alert"),
        "data_mismatch" => (Text::DataMismatch, "alert"),
        _ => return None,
    };
    let notice = Notice {
        lang,
        title: lang.text(Text::Form),
        text: lang.text(id),
        role,
        state: which,
    };
    Some(notice.page(""))
}

/// One message on a page of its own: a hosted form's state, or the page
/// after a `format=html` form is posted to `/v1/submit`.
pub(crate) struct Notice<'a> {
    pub(crate) lang: super::words::Lang,
    /// The page's `<title>` (escaped here).
    pub(crate) title: &'a str,
    /// The message (escaped here).
    pub(crate) text: &'a str,
    /// `status`, or `alert` for a failure.
    pub(crate) role: &'a str,
    /// `data-state`, for scripts and tests (a fixed identifier).
    pub(crate) state: &'a str,
}

impl Notice<'_> {
    /// The page, with `tail` (markup already escaped) after the message.
    pub(crate) fn page(&self, tail: &str) -> String {
        format!(
            r#"<!doctype html><html lang="{}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer"><title>{}</title><style>{STYLE}</style></head><body><main class="genui-page"><p class="genui-notice" role="{}" data-state="{}">{}</p>{tail}</main></body></html>"#,
            self.lang.tag(),
            form::text(self.title),
            self.role,
            self.state,
            form::text(self.text)
        )
    }
}

/// A hosted form's page (`/f/<token>`): the form posting to `action`, in
/// `locale`'s language. Fresh, it is empty and the script fills it from
/// the URL fragment, refusing a fragment whose salted SHA-256 is not the
/// record's `prefill` digest; after a rejected post it shows the posted
/// values and the errors.
pub(crate) fn hosted_page(
    spec: &crate::UiSpec,
    action: &str,
    locale: Option<&str>,
    prefill: Option<&prefill::Prefill>,
    posted: Option<(&Value, &crate::Error)>,
) -> String {
    let none = Value::Null;
    let initial_data = posted.map_or(Value::Null, |(data, _)| data.clone());
    let r = RenderInput {
        spec,
        initial_data,
        meta: Map::new(),
        raw_data: &none,
        locale,
        catalog: None,
        prompt: None,
    };
    let words = Words::of(r.lang());
    let errors = posted.map(|(_, e)| field_errors(e)).unwrap_or_default();
    let mut markup = form_markup(&r, action, &errors, &words);
    if let (Some(prefill), None) = (prefill, posted) {
        let mismatch = r.lang().text(super::words::Text::DataMismatch);
        let attrs = format!(
            r#"<form data-expect="{}" data-salt="{}" data-mismatch="{}" "#,
            form::attr(&prefill.digest),
            form::attr(&prefill.salt),
            form::attr(mismatch)
        );
        markup = markup.replacen("<form ", &attrs, 1);
    }
    page(&r, &markup, &words)
}

/// A self-contained HTML page with a native form (`format=html`).
pub(crate) struct Html;

impl super::FormatCompiler for Html {
    fn names(&self) -> &'static [&'static str] {
        &["html"]
    }

    fn format(&self) -> crate::Format {
        crate::Format::Html
    }

    fn contract(&self) -> crate::Contract {
        crate::Contract::HtmlPage
    }

    fn render(&self, r: &RenderInput<'_>, _: crate::Format) -> Value {
        render(r)
    }
}
