//! The worker's own texts follow `locale` on every path, the deterministic
//! one included, chosen at render time: one cached spec answers a German
//! caller, then an English one, each in their language.

use genui_core::{GenerateJob, Limits, Outcome, SubmitJob};
use serde_json::{json, Value};

fn generate(body: &Value, format: &str, cached: Option<&str>) -> Outcome {
    GenerateJob::prepare(
        &serde_json::to_vec(body).unwrap(),
        Some(format),
        &Limits::default(),
    )
    .unwrap()
    .answer(cached)
}

fn approval(locale: Option<&str>) -> Value {
    let mut body = json!({"description": "Delete 14 stale branches", "data": {"action": "Delete 14 stale branches"},
        "output": {"type": "object", "required": ["approved"], "properties": {"approved": {"type": "boolean", "title": "Approve?"}}}});
    if let Some(tag) = locale {
        body["locale"] = tag.into();
    }
    body
}

#[test]
fn one_cached_spec_answers_in_german_then_in_english() {
    let german = generate(&approval(Some("de-AT")), "lmui", None);
    let spec = german
        .cache_put
        .clone()
        .expect("a miss stores the spec")
        .value;
    assert!(
        !spec.contains("Genehmig"),
        "the cached spec holds no localized text"
    );
    let lmui: Value = serde_json::from_str(&german.response.body).unwrap();
    let labels: Vec<&str> = lmui["ui_components"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["label"].as_str())
        .collect();
    assert!(
        labels.contains(&"Genehmigen") && labels.contains(&"Ablehnen"),
        "{labels:?}"
    );
    assert!(lmui["response_text"]
        .as_str()
        .unwrap()
        .starts_with("Genehmigung erforderlich"));

    let english = generate(&approval(None), "lmui", Some(&spec));
    assert!(
        english.cache_put.is_none(),
        "the English request is a hit on the German one's spec"
    );
    let lmui: Value = serde_json::from_str(&english.response.body).unwrap();
    let labels: Vec<&str> = lmui["ui_components"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["label"].as_str())
        .collect();
    assert!(
        labels.contains(&"Approve") && labels.contains(&"Reject"),
        "{labels:?}"
    );

    for (format, german_text, english_text) in [
        ("rjsf", "Bestätigen", "Confirm"),
        ("a2ui", "Genehmigen", "Approve"),
        ("html", "Genehmigen", "Approve"),
        ("jsonforms", "Genehmigung erforderlich", "Approval needed"),
    ] {
        let de = generate(&approval(Some("de")), format, Some(&spec))
            .response
            .body;
        let en = generate(&approval(Some("en-GB")), format, Some(&spec))
            .response
            .body;
        assert!(
            de.contains(german_text) && !de.contains(english_text),
            "{format} in de: {de}"
        );
        assert!(
            en.contains(english_text) && !en.contains(german_text),
            "{format} in en: {en}"
        );
    }
    let page = generate(&approval(Some("ja")), "html", Some(&spec))
        .response
        .body;
    assert!(page.starts_with(r#"<!doctype html><html lang="ja">"#) && page.contains("承認"));
}

#[test]
fn submit_messages_follow_the_language_and_keep_their_code() {
    let output = json!({"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}, "age": {"type": "integer", "minimum": 18}}});
    let body = json!({"output": output, "data": {"age": 3}}).to_string();
    let answer = |job: SubmitJob| {
        serde_json::from_str::<Value>(&job.answer(None, "r").response.body).unwrap()
    };
    let german = answer(
        SubmitJob::prepare(body.as_bytes(), &Limits::default())
            .unwrap()
            .with_accept_language(Some("de-CH, en;q=0.5")),
    );
    assert_eq!(german["code"], "submission_invalid");
    assert!(
        german["message"]
            .as_str()
            .unwrap()
            .starts_with("Die gesendeten Daten haben 2 Fehler"),
        "{german}"
    );
    let messages: Vec<&str> = german["payload"]["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["message"].as_str().unwrap())
        .collect();
    assert!(
        messages.contains(&"Dieses Feld ist erforderlich.")
            && messages.contains(&"Geben Sie 18 oder mehr ein."),
        "{messages:?}"
    );
    let plain = answer(
        SubmitJob::prepare(body.as_bytes(), &Limits::default())
            .unwrap()
            .with_accept_language(Some("nl")),
    );
    assert_eq!(plain["code"], "submission_invalid");
    assert!(
        plain["message"]
            .as_str()
            .unwrap()
            .starts_with("the submitted data breaks"),
        "no shipped language: as before"
    );
}

fn flight_search(locale: Option<&str>) -> Value {
    let mut body = json!({"description": "Flight search", "output": {"type": "object",
        "required": ["origin", "destination", "departDate", "adults"],
        "properties": {
            "origin": {"type": "string"}, "destination": {"type": "string"},
            "departDate": {"type": "string", "format": "date"},
            "returnDate": {"type": "string", "format": "date"},
            "adults": {"type": "integer", "minimum": 1}, "children": {"type": "integer", "minimum": 0},
            "cabinClass": {"type": "string", "enum": ["economy", "business", "first", "premium"]}}}});
    if let Some(tag) = locale {
        body["locale"] = tag.into();
    }
    body
}

/// The group labels of a JSON Forms answer, in order.
fn group_labels(body: &str) -> Vec<String> {
    let answer: Value = serde_json::from_str(body).unwrap();
    answer["uiSchema"]["elements"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == "Group")
        .map(|e| e["label"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn sections_are_named_in_the_request_language_from_one_cached_spec() {
    let german = generate(&flight_search(Some("de")), "jsonforms", None);
    let spec = german
        .cache_put
        .clone()
        .expect("a miss stores the spec")
        .value;
    assert!(
        spec.contains(r#""section":"trip""#),
        "the plan keeps the concept id"
    );
    assert!(
        !spec.contains("Reise"),
        "the cached spec holds no localized name"
    );
    assert_eq!(group_labels(&german.response.body), ["Reise", "Reisende"]);

    let english = generate(&flight_search(None), "jsonforms", Some(&spec));
    assert!(
        english.cache_put.is_none(),
        "a hit on the German request's spec"
    );
    assert_eq!(group_labels(&english.response.body), ["Trip", "Travellers"]);

    for (format, german_name) in [("lmui", "Reise"), ("a2ui", "Reise"), ("html", "Reise")] {
        let answer = generate(&flight_search(Some("de")), format, Some(&spec));
        assert!(
            answer.response.body.contains(german_name),
            "{format}: {}",
            answer.response.body
        );
        let answer = generate(&flight_search(Some("en")), format, Some(&spec));
        assert!(
            !answer.response.body.contains(german_name),
            "{format} in English"
        );
    }
}

#[test]
fn rjsf_names_each_section_of_a_flat_form_for_the_host_to_head_in_the_request_language() {
    for (locale, names) in [
        (Some("de"), ["Reise", "Reisende"]),
        (None, ["Trip", "Travellers"]),
    ] {
        let jsonforms = generate(&flight_search(locale), "jsonforms", None);
        assert_eq!(group_labels(&jsonforms.response.body), names);
        let rjsf = generate(&flight_search(locale), "rjsf", None);
        let form: Value = serde_json::from_str(&rjsf.response.body).unwrap();
        let sections = form["uiSchema"]["ui:options"]["sections"]
            .as_array()
            .unwrap_or_else(|| panic!("no ui:options.sections: {}", form["uiSchema"]));
        let labels: Vec<&str> = sections
            .iter()
            .map(|s| s["label"].as_str().unwrap())
            .collect();
        assert_eq!(labels, names, "the sections JSON Forms shows as groups");
        // Every field once, in the order RJSF shows them.
        let fields: Vec<&Value> = sections
            .iter()
            .flat_map(|s| s["fields"].as_array().unwrap())
            .collect();
        let order: Vec<&Value> = form["uiSchema"]["ui:order"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|n| *n != "*")
            .collect();
        assert_eq!(fields, order);
        assert_eq!(
            sections[0]["fields"],
            json!(["origin", "destination", "departDate", "returnDate"])
        );
    }
}

#[test]
fn rjsf_names_no_section_that_an_object_s_title_already_heads() {
    let body = json!({"description": "Company", "output": {"type": "object", "properties": {
        "company": {"type": "object", "title": "Company", "properties": {
            "name": {"type": "string"}, "vatId": {"type": "string"}, "website": {"type": "string", "format": "uri"}}},
        "contact": {"type": "object", "title": "Contact", "properties": {
            "email": {"type": "string", "format": "email"}, "phone": {"type": "string"}, "fax": {"type": "string"}}}}}});
    let rjsf = generate(&body, "rjsf", None);
    let form: Value = serde_json::from_str(&rjsf.response.body).unwrap();
    assert_eq!(
        form["uiSchema"]["company"]["ui:title"], "Company",
        "{}",
        form["uiSchema"]
    );
    assert!(
        form["uiSchema"]["ui:options"]["sections"].is_null(),
        "{}",
        form["uiSchema"]
    );
}
