//! Text shown to a person carries no live markup in any format, whatever
//! the schema's own title and `description` (the lead line under the
//! title) and its choice titles hold (src/render/text.rs); the request's
//! `description`, hostile too, is never shown. The hostile request is a generate fixture, so the
//! browser layer renders it too (`hostile-text-description-and-choices`).
//!
//! Per format, the text the worker writes is read the way its renderer
//! reads it: A2UI `Text` as markdown, LMUI and RJSF as plain strings, the
//! HTML page as HTML, the React module as JSX. The `output` schema itself,
//! which JSON Forms and RJSF are handed as the contract, is the caller's
//! and is not rewritten: those renderers show its titles as React text.

use genui_core::{GenerateJob, Issue, Limits};
use serde_json::Value;

const FIXTURE: &str = "hostile-text-description-and-choices";

fn answer(format: &str) -> String {
    let path = format!(
        "{}/tests/fixtures/generate/{FIXTURE}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut body: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    body["format"] = format.into();
    let outcome = GenerateJob::prepare(
        &serde_json::to_vec(&body).unwrap(),
        None,
        &Limits::default(),
    )
    .unwrap()
    .answer(None);
    assert_eq!(
        outcome.response.status, 200,
        "{format}: {}",
        outcome.response.body
    );
    outcome.response.body
}

fn json_answer(format: &str) -> Value {
    serde_json::from_str(&answer(format)).unwrap()
}

/// Every string under `value` with its path, skipping the subtrees named in `skip`.
fn strings<'a>(value: &'a Value, at: &str, skip: &[&str], out: &mut Vec<(String, &'a str)>) {
    match value {
        Value::String(s) => out.push((at.to_owned(), s)),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .for_each(|(i, v)| strings(v, &format!("{at}/{i}"), skip, out)),
        Value::Object(map) => {
            for (k, v) in map.iter().filter(|(k, _)| !skip.contains(&k.as_str())) {
                strings(v, &format!("{at}/{k}"), skip, out);
            }
        }
        _ => {}
    }
}

/// The strings under `value` that hold markup a plain-text renderer could
/// make live (the checker's definition, [`markup_in`]).
fn live_plain_markup<'a>(value: &'a Value, skip: &[&str]) -> Vec<(String, &'a str)> {
    let mut all = Vec::new();
    strings(value, "", skip, &mut all);
    all.into_iter()
        .filter(|(_, s)| Issue::markup_in(s).is_some())
        .collect()
}

/// Whether markdown would read `c` at byte `at` as syntax: it is not
/// escaped by an odd run of backslashes before it.
fn is_unescaped(text: &str, at: usize) -> bool {
    text[..at].bytes().rev().take_while(|b| *b == b'\\').count() % 2 == 0
}

#[test]
fn a2ui_text_shows_markdown_literally_and_choices_as_plain_words() {
    let answer = json_answer("a2ui");
    let components = answer
        .pointer("/messages/1/updateComponents/components")
        .and_then(Value::as_array)
        .unwrap();
    let texts: Vec<&str> = components
        .iter()
        .filter(|c| c["component"] == "Text")
        .filter_map(|c| c["text"].as_str())
        .collect();
    assert!(
        texts.contains(&r"Pay \[x\](javascript:alert(1)) \<img src=x onerror=alert(1)\>"),
        "{texts:?}"
    );
    for text in &texts {
        let live: Vec<usize> = text
            .match_indices(['[', ']', '<', '>'])
            .map(|(at, _)| at)
            .filter(|at| is_unescaped(text, *at))
            .collect();
        assert!(
            live.is_empty(),
            "markdown syntax left live in A2UI Text {text:?} at {live:?}"
        );
    }
    let labels: Vec<&str> = components
        .iter()
        .filter_map(|c| c["options"].as_array())
        .flatten()
        .filter_map(|o| o["label"].as_str())
        .collect();
    assert!(
        labels.contains(&"Card x") && labels.contains(&"Bank") && labels.contains(&"Gold i"),
        "{labels:?}"
    );
    assert!(
        labels.iter().all(|l| Issue::markup_in(l).is_none()),
        "{labels:?}"
    );
}

#[test]
fn lmui_texts_are_plain() {
    let answer = json_answer("lmui");
    assert_eq!(answer["response_text"], "Pay x");
    // `value`s are the data the person submits, not text shown as markup.
    assert_eq!(
        live_plain_markup(&answer, &["value", "metadata"]),
        Vec::<(String, &str)>::new()
    );
}

#[test]
fn rjsf_texts_the_worker_writes_are_plain() {
    let answer = json_answer("rjsf");
    assert_eq!(answer["description"], "Pay x");
    assert_eq!(
        live_plain_markup(&answer, &["schema", "formData", "metadata"]),
        Vec::<(String, &str)>::new()
    );
}

#[test]
fn json_forms_ui_schema_is_plain() {
    let answer = json_answer("jsonforms");
    assert_eq!(
        live_plain_markup(&answer["uiSchema"], &[]),
        Vec::<(String, &str)>::new()
    );
}

#[test]
fn the_html_page_has_no_element_or_link_from_the_request() {
    let page = answer("html");
    let html = scraper::Html::parse_document(&page);
    let select = |css: &str| scraper::Selector::parse(css).unwrap();
    assert_eq!(
        html.select(&select("img, a, iframe, object, embed"))
            .count(),
        0,
        "an element from the request's text"
    );
    assert_eq!(
        html.select(&select("[onerror], [onload], [onclick]"))
            .count(),
        0,
        "an event handler attribute"
    );
    for script in html.select(&select("script")) {
        assert!(
            !script.inner_html().contains("alert(1)"),
            "a script from the request's text"
        );
    }
    assert!(
        page.contains("Pay [x](javascript:alert(1)) &lt;img src=x onerror=alert(1)&gt;"),
        "the lead shows as text"
    );
}

#[test]
fn the_react_module_writes_text_as_string_literals() {
    let answer = json_answer("react");
    let module = answer["module"].as_str().unwrap();
    for live in ["<img", "<script", "<a ", "javascript:"] {
        assert!(!module.contains(live), "`{live}` in the module");
    }
}
