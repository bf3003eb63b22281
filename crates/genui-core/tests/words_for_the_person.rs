//! The words above a form speak to the person, in every format: a short
//! title derived from the agent's request (or `output`'s own title), an
//! optional lead line (`output`'s own `description`), never the request
//! itself; a title for the kind of form, in the person's language, where
//! the request gives none; and a model's title that echoes the request is
//! replaced.

use genui_core::{GenerateJob, Issue, Limits, Plan};
use serde_json::{json, Map, Value};

const REQUEST: &str = "Ask the user for their flight search criteria so I can find flights";

fn flight_output() -> Value {
    json!({
        "type": "object",
        "properties": {
            "origin": {"type": "string"},
            "destination": {"type": "string"},
            "departure": {"type": "string", "format": "date"}
        },
        "required": ["origin", "destination"]
    })
}

fn body(description: &str, output: Value, format: &str, locale: Option<&str>) -> Vec<u8> {
    let mut request = json!({"description": description, "output": output, "format": format});
    if let Some(locale) = locale {
        request["locale"] = locale.into();
    }
    serde_json::to_vec(&request).unwrap()
}

fn answer_text(description: &str, output: Value, format: &str, locale: Option<&str>) -> String {
    let job = GenerateJob::prepare(
        &body(description, output, format, locale),
        None,
        &Limits {
            spec_memory_bytes: 0,
            ..Limits::default()
        },
    )
    .unwrap();
    let outcome = job.answer(None);
    assert_eq!(outcome.response.status, 200, "{}", outcome.response.body);
    outcome.response.body
}

fn answer(description: &str, output: Value, format: &str, locale: Option<&str>) -> Value {
    serde_json::from_str(&answer_text(description, output, format, locale)).unwrap()
}

#[test]
fn every_format_shows_the_title_for_the_person_and_never_the_request() {
    for format in ["jsonforms", "rjsf", "lmui", "a2ui", "react", "html"] {
        let text = answer_text(REQUEST, flight_output(), format, None);
        assert!(
            !text.contains("Ask the user"),
            "{format} shows the request: {text}"
        );
        assert!(
            text.contains("Flight search"),
            "{format} has no title: {text}"
        );
    }
    let forms = answer(REQUEST, flight_output(), "jsonforms", None);
    assert_eq!(forms["meta"]["title"], "Flight search");
    let rjsf = answer(REQUEST, flight_output(), "rjsf", None);
    assert_eq!(rjsf["title"], "Flight search");
    assert_eq!(
        rjsf.get("description"),
        None,
        "no lead unless `output` gives one"
    );
    let lmui = answer(REQUEST, flight_output(), "lmui", None);
    assert_eq!(lmui["response_text"], "Flight search");
    let react = answer(REQUEST, flight_output(), "react", None);
    assert_eq!(react["fileName"], "FlightSearchForm.tsx");
    let module = react["module"].as_str().unwrap();
    assert!(
        module.contains("export default function FlightSearchForm("),
        "{module}"
    );
    let page = answer_text(REQUEST, flight_output(), "html", None);
    assert!(page.contains("<h1>Flight search</h1>"), "{page}");
    assert!(
        !page.contains(r#"<p class="genui-description">"#),
        "no lead paragraph: {page}"
    );
}

#[test]
fn output_s_own_title_and_description_win() {
    let mut output = flight_output();
    output["title"] = "Where to?".into();
    output["description"] = "Tell us where and when you would like to fly.".into();
    let lead = "Tell us where and when you would like to fly.";
    let rjsf = answer(REQUEST, output.clone(), "rjsf", None);
    assert_eq!(
        (rjsf["title"].as_str(), rjsf["description"].as_str()),
        (Some("Where to?"), Some(lead))
    );
    let lmui = answer(REQUEST, output.clone(), "lmui", None);
    assert_eq!(lmui["response_text"], lead);
    let page = answer_text(REQUEST, output.clone(), "html", None);
    assert!(
        page.contains(&format!(r#"<p class="genui-description">{lead}</p>"#)),
        "{page}"
    );
    let a2ui = answer_text(REQUEST, output, "a2ui", None);
    assert!(a2ui.contains(lead) && a2ui.contains("Where to?"), "{a2ui}");
}

#[test]
fn a_request_without_a_title_gets_one_for_the_kind_of_form_in_the_person_s_language() {
    let german = "Bitte geben Sie Ihre Flugdaten und Reisedaten hier ein";
    let forms = answer(german, flight_output(), "jsonforms", Some("de-DE"));
    assert_eq!(forms["meta"]["title"], "Ihre Angaben");
    let forms = answer(german, flight_output(), "jsonforms", None);
    assert_eq!(forms["meta"]["title"], "Your details");
    let react = answer(german, flight_output(), "react", Some("ja"));
    assert_eq!(react["fileName"], "YourDetailsForm.tsx");
    assert_eq!(react["meta"]["title"], "ご入力内容");
    let text = answer_text(german, flight_output(), "html", Some("fr"));
    assert!(
        text.contains("<h1>Vos informations</h1>") && !text.contains("Bitte"),
        "{text}"
    );
}

#[test]
fn a_short_name_in_another_script_is_the_title_and_the_module_is_named_in_ascii() {
    let react = answer("航班搜索", flight_output(), "react", None);
    assert_eq!(react["meta"]["title"], "航班搜索");
    assert_eq!(react["fileName"], "YourDetailsForm.tsx");
}

#[test]
fn a_model_title_that_echoes_the_request_is_replaced_with_a_warning() {
    let job = GenerateJob::prepare(
        &body(REQUEST, flight_output(), "jsonforms", None),
        None,
        &Limits {
            spec_memory_bytes: 0,
            ..Limits::default()
        },
    )
    .unwrap();
    let proven = job.prove_schema().unwrap();
    let plan = Plan {
        title: Some("Ask the user for their flight search criteria".into()),
        ..genui_core::Plan::generate(&flight_output(), REQUEST, false, &Limits::default()).unwrap()
    };
    let outcome = job.complete(plan, &proven, Map::new());
    let answer: Value = serde_json::from_str(&outcome.response.body).unwrap();
    assert_eq!(answer["meta"]["title"], "Flight search");
    assert!(!Issue::echoes("Flight search", REQUEST));
    let warnings = answer["meta"]["warnings"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(
        warnings
            .iter()
            .any(|w| w["code"] == "title_replaced" && w["pointer"] == "/output"),
        "{warnings:?}"
    );
}

#[test]
fn a_display_without_a_title_is_not_titled_as_a_form_asking_for_details() {
    // Nothing to send: a table of what the agent shows, from a request
    // that gives no title.
    let request = json!({
        "description": "Bitte zeigen Sie dem Nutzer die aktuellen Lagerbestände aller Filialen hier an",
        "output": {},
        "data": {"items": [{"fruit": "Apples", "count": 12}, {"fruit": "Pears", "count": 7}]},
    });
    for (locale, expected) in [(None, "Overview"), (Some("de"), "Übersicht")] {
        let mut request = request.clone();
        if let Some(tag) = locale {
            request["locale"] = tag.into();
        }
        let job = GenerateJob::prepare(
            &serde_json::to_vec(&request).unwrap(),
            Some("jsonforms"),
            &Limits {
                spec_memory_bytes: 0,
                ..Limits::default()
            },
        )
        .unwrap();
        let outcome = job.answer(None);
        assert_eq!(outcome.response.status, 200, "{}", outcome.response.body);
        let forms: Value = serde_json::from_str(&outcome.response.body).unwrap();
        assert_eq!(forms["meta"]["kind"], "display", "{forms}");
        assert_eq!(forms["meta"]["title"], expected, "{locale:?}");
    }
}
