//! A `format=html` form posted to `/v1/submit` by a person's browser: which
//! answer for which `Accept` and body ([`Submission`]), and the pages
//! (a thank-you that carries the tool message for the framing page, or
//! the form again with each error beside its field, the input kept and
//! escaped, in the form's language). The form is the one the worker
//! serves, read by an HTML parser; the post is its hidden fields plus the
//! person's input, urlencoded as a browser sends it.

use genui_core::{GenerateJob, HttpResponse, Limits, Outcome, Submission, SubmitJob};
use serde_json::{json, Value};

const BROWSER: &str = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
const HOSTILE: &str = r#"</textarea><script>alert("x")</script><img src=x onerror=alert(1)>&amp;'"#;

/// A form served as `format=html` (for `locale`), and its spec as cached.
struct Served {
    page: String,
    spec: String,
}

fn serve(locale: Option<&str>) -> Served {
    let mut body = json!({"toolCallId": "call_html_7",
        "description": "Sign up for the newsletter",
        "output": {"type": "object", "required": ["name", "email"], "properties": {
            "name": {"type": "string", "title": "Name"},
            "email": {"type": "string", "format": "email", "title": "E-mail"},
            "age": {"type": "integer", "minimum": 18, "title": "Age"}}}});
    if let Some(locale) = locale {
        body["locale"] = json!(locale);
    }
    let job = GenerateJob::prepare(
        &serde_json::to_vec(&body).unwrap(),
        Some("html"),
        &Limits::default(),
    )
    .unwrap();
    let outcome = job.clone().answer(None);
    assert_eq!(outcome.response.status, 200, "{}", outcome.response.body);
    // Fresh, it is to be cached; served again, this isolate remembers it.
    let spec = outcome
        .cache_put
        .map(|put| put.value)
        .or_else(|| job.spec_json());
    Served {
        page: outcome.response.body,
        spec: spec.expect("the spec as stored"),
    }
}

fn sel(css: &str) -> scraper::Selector {
    scraper::Selector::parse(css).unwrap()
}

/// The form's hidden fields, as a browser posts them.
fn hidden_fields(page: &str) -> Vec<(String, String)> {
    let dom = scraper::Html::parse_document(page);
    dom.select(&sel(r#"form input[type="hidden"]"#))
        .map(|el| {
            let v = el.value();
            (
                v.attr("name").unwrap().to_owned(),
                v.attr("value").unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

fn urlencoded(pairs: &[(String, String)]) -> Vec<u8> {
    let mut out = form_urlencoded::Serializer::new(String::new());
    for (name, value) in pairs {
        out.append_pair(name, value);
    }
    out.finish().into_bytes()
}

/// `body` posted to `/v1/submit` with `accept` and `accept_language`,
/// answered by the submission machine as the shell drives it (the spec
/// read is `cached`).
fn submit(
    body: &[u8],
    accept: Option<&str>,
    accept_language: Option<&str>,
    cached: Option<&str>,
) -> HttpResponse {
    let header = |name: &str| match name {
        "content-type" => Some("application/x-www-form-urlencoded".to_owned()),
        "accept" => accept.map(str::to_owned),
        "accept-language" => accept_language.map(str::to_owned),
        _ => None,
    };
    Submission::api(Ok(body), header, &Limits::default())
        .answer(cached, "r1")
        .into_response()
}

/// `served`'s form posted with `fields` (the person's input), answered
/// for `accept` and `accept_language` as the shell answers it.
fn post(
    served: &Served,
    fields: &[(&str, &str)],
    accept: Option<&str>,
    accept_language: Option<&str>,
) -> HttpResponse {
    let mut pairs = hidden_fields(&served.page);
    pairs.extend(fields.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    submit(
        &urlencoded(&pairs),
        accept,
        accept_language,
        Some(&served.spec),
    )
}

/// Today's JSON answer to the same post: [`SubmitJob::answer`].
fn json_answer(served: &Served, fields: &[(&str, &str)]) -> Outcome {
    let mut pairs = hidden_fields(&served.page);
    pairs.extend(fields.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    SubmitJob::prepare_form(&urlencoded(&pairs), None, None, &Limits::default())
        .unwrap()
        .answer(Some(&served.spec), "r1")
}

fn header<'a>(response: &'a HttpResponse, name: &str) -> Option<&'a str> {
    response
        .headers
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

const VALID: [(&str, &str); 3] = [
    ("/name", "Ada"),
    ("/email", "ada@example.com"),
    ("/age", "36"),
];

#[test]
fn the_form_carries_its_locale_beside_its_spec_hash() {
    let fields = hidden_fields(&serve(Some("de-AT")).page);
    let names: Vec<&str> = fields.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(names, ["_specHash", "_toolCallId", "_locale"]);
    assert_eq!(fields[2].1, "de-AT");
    let plain = hidden_fields(&serve(None).page);
    assert!(
        plain.iter().all(|(k, _)| k != "_locale"),
        "no locale asked, none sent: {plain:?}"
    );
}

#[test]
fn a_json_caller_gets_todays_tool_message_and_errors_byte_for_byte() {
    let served = serve(Some("de"));
    for accept in [
        None,
        Some("application/json"),
        Some("*/*"),
        Some("text/html, application/json"),
    ] {
        for fields in [&VALID[..], &[("/name", ""), ("/email", "nope")][..]] {
            let today = json_answer(&served, fields).response;
            let now = post(&served, fields, accept, None);
            assert_eq!(now, today, "{accept:?} {fields:?}");
            assert!(header(&now, "content-type").is_none(), "JSON, not a page");
        }
    }
    // The form's `_locale` is the page's language only: a JSON caller's
    // messages follow `Accept-Language` as before (none: the validator's).
    let refused = post(
        &served,
        &[("/email", "nope")],
        Some("application/json"),
        None,
    );
    assert!(
        refused.body.contains(r#"is not a \"email\""#) && !refused.body.contains("Geben Sie"),
        "{}",
        refused.body
    );
    let asked = post(&served, &[("/email", "nope")], None, Some("fr"));
    assert!(
        asked.body.contains("Saisissez une valeur au format email."),
        "{}",
        asked.body
    );
    let ok: Value = serde_json::from_str(&json_answer(&served, &VALID).response.body).unwrap();
    assert_eq!(ok["role"], "tool");
    assert_eq!(ok["toolCallId"], "call_html_7");
}

#[test]
fn a_browser_gets_a_thank_you_that_hands_the_tool_message_to_its_parent() {
    let served = serve(Some("de"));
    let page = post(&served, &VALID, Some(BROWSER), None);
    assert_eq!(page.status, 200, "{}", page.body);
    assert_eq!(
        header(&page, "content-type"),
        Some("text/html; charset=utf-8")
    );
    let csp = header(&page, "content-security-policy").unwrap();
    assert!(csp.starts_with("default-src 'none';") && csp.ends_with("frame-ancestors *"));
    assert!(!csp.contains("unsafe-inline"));
    let dom = scraper::Html::parse_document(&page.body);
    let html = dom.select(&sel("html")).next().unwrap();
    assert_eq!(html.value().attr("lang"), Some("de"));
    let notice = dom.select(&sel(r#"[role="status"]"#)).next().unwrap();
    assert_eq!(
        notice.text().collect::<String>(),
        "Vielen Dank. Ihre Antwort ist eingegangen."
    );
    // The tool message, exactly as a JSON caller gets it.
    let holder = dom.select(&sel("#genui-tool-message")).next().unwrap();
    let carried = holder.value().attr("data-message").unwrap();
    assert_eq!(carried, json_answer(&served, &VALID).response.body);
    // The script that posts it is the one the policy allows, and it posts
    // to the parent only.
    let script: String = dom.select(&sel("script")).next().unwrap().text().collect();
    use base64::Engine as _;
    use sha2::Digest as _;
    let hash = base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(&script));
    assert!(csp.contains(&hash), "{csp}");
    assert!(script.contains("window.parent.postMessage({ type: \"genui:tool_message\""));
}

#[test]
fn a_refused_post_shows_the_form_again_with_errors_beside_fields_and_the_input_kept() {
    let served = serve(Some("de"));
    let fields = [
        ("/name", HOSTILE),
        ("/email", "not-an-email"),
        ("/age", "3"),
    ];
    let page = post(&served, &fields, Some(BROWSER), None);
    assert_eq!(page.status, 422, "{}", page.body);
    assert_eq!(
        header(&page, "content-type"),
        Some("text/html; charset=utf-8")
    );
    assert!(
        !page.body.contains("<script>alert") && !page.body.contains("<img src=x"),
        "the person's input is escaped"
    );
    let dom = scraper::Html::parse_document(&page.body);
    let control = |name: &str| {
        dom.select(&sel(&format!(r#"form [name="{name}"]"#)))
            .next()
            .unwrap_or_else(|| panic!("no control {name}"))
    };
    // The input kept, to the byte (the parser decodes what was escaped).
    assert_eq!(control("/name").value().attr("value"), Some(HOSTILE));
    assert_eq!(
        control("/email").value().attr("value"),
        Some("not-an-email")
    );
    assert_eq!(control("/age").value().attr("value"), Some("3"));
    // Each error beside its field, in the form's language.
    let error_of = |name: &str| {
        let described = control(name).value().attr("aria-describedby")?.to_owned();
        dom.select(&sel("p.genui-error"))
            .find(|p| {
                described
                    .split(' ')
                    .any(|id| Some(id) == p.value().attr("id"))
            })
            .map(|p| p.text().collect::<String>())
    };
    assert_eq!(
        error_of("/email").as_deref(),
        Some("Geben Sie einen Wert im Format email ein.")
    );
    assert_eq!(
        error_of("/age").as_deref(),
        Some("Geben Sie 18 oder mehr ein.")
    );
    assert_eq!(error_of("/name"), None, "a valid field has no error");
    assert_eq!(control("/email").value().attr("aria-invalid"), Some("true"));
    let summary: String = dom
        .select(&sel("[role=\"alert\"]"))
        .next()
        .unwrap()
        .text()
        .collect();
    assert!(
        summary.contains("Bitte prüfen Sie Ihre Eingaben"),
        "{summary}"
    );
    // The form posts to the same place again, with the same hidden fields.
    let form = dom.select(&sel("form")).next().unwrap();
    assert_eq!(form.value().attr("action"), Some("/v1/submit"));
    assert_eq!(hidden_fields(&page.body), hidden_fields(&served.page));
    // A missing required field is named beside it.
    let missing = post(
        &served,
        &[("/name", ""), ("/email", "a@b.co")],
        Some(BROWSER),
        None,
    );
    assert_eq!(missing.status, 422);
    assert!(missing.body.contains("Dieses Feld ist erforderlich."));
}

#[test]
fn the_page_speaks_the_forms_language_whatever_the_browser_asks() {
    // The form's `_locale` wins over `Accept-Language`.
    let german = serve(Some("de-AT"));
    let page = post(&german, &VALID, Some(BROWSER), Some("fr-FR, en;q=0.5"));
    assert!(page.body.contains(r#"<html lang="de">"#), "{}", page.body);
    assert!(page.body.contains("Vielen Dank."));
    for (locale, thanks) in [
        ("ja", "ありがとうございます。回答を受け付けました。"),
        ("zh-CN", "谢谢。您的回答已收到。"),
        ("pt-BR", "Obrigado. A sua resposta foi recebida."),
    ] {
        let page = post(&serve(Some(locale)), &VALID, Some(BROWSER), None);
        assert!(page.body.contains(thanks), "{locale}: {}", page.body);
    }
    // A form without a locale: the browser's language, else English.
    let plain = serve(None);
    let french = post(&plain, &[("/email", "x")], Some(BROWSER), Some("fr"));
    assert_eq!(french.status, 422);
    assert!(french.body.contains(r#"<html lang="fr">"#));
    assert!(french.body.contains("Ce champ est obligatoire."));
    let english = post(&plain, &VALID, Some(BROWSER), None);
    assert!(english
        .body
        .contains("Thank you. Your answer has been received."));
}

#[test]
fn a_post_with_no_form_to_show_again_gets_a_page_that_says_so() {
    let served = serve(Some("es"));
    // A spec no longer cached (here: one never made): 404, in the form's language.
    let mut pairs = hidden_fields(&served.page);
    pairs[0].1 = "0".repeat(64);
    pairs.extend([("/name".to_owned(), "Ada".to_owned())]);
    let expired = submit(&urlencoded(&pairs), Some(BROWSER), None, None);
    assert_eq!(expired.status, 404, "{}", expired.body);
    assert!(expired.body.contains(r#"<html lang="es">"#));
    assert!(expired.body.contains("No se pudo enviar este formulario."));
    assert!(expired.body.contains(r#"role="alert""#));
    // A post that names no form: 400, in the browser's language.
    let page = submit(b"%2Fname=Ada", Some(BROWSER), Some("ja"), None);
    assert_eq!(page.status, 400);
    assert!(page.body.contains("このフォームを送信できませんでした。"));
    assert_eq!(
        header(&page, "content-type"),
        Some("text/html; charset=utf-8")
    );
    // The same refusal for a JSON caller: the dgui_error, naming the field.
    let json = submit(b"%2Fname=Ada", Some("application/json"), Some("ja"), None);
    let error: Value = serde_json::from_str(&json.body).unwrap();
    assert_eq!(
        (json.status, &error["code"], &error["payload"]["pointer"]),
        (400, &json!("invalid_request"), &json!("/_specHash"))
    );
}
