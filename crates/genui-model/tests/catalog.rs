//! The model and the operator's catalog: the prompt shows the catalog's
//! components, the model binds fields to them with an override's
//! `component`, and every binding it writes is proven when the job
//! completes: a rating bound to a field up to 11, or a colour picker bound
//! to plain text, is repaired to the built-in widget with a warning.

use genui_core::{GenerateJob, Limits};
use genui_model::{Event, HttpRequest, Ladder, LadderResult, ModelConfig, Provider, Step};
use serde_json::{json, Map, Value};

/// The worker's limits with the example catalog configured.
fn configured() -> Limits {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../catalogs/example.json"
    ))
    .unwrap();
    let (limits, refused) = Limits::default().with_catalogs(&[("catalogs/example.json", &text)]);
    assert!(refused.is_empty(), "{refused:?}");
    limits
}

fn body() -> Value {
    json!({"description": "Rate our paints", "catalog": "example", "output": {"type": "object", "required": ["gloss", "finish"], "properties": {
        "gloss": {"type": "integer", "minimum": 0, "maximum": 11, "title": "Gloss"},
        "finish": {"type": "integer", "minimum": 1, "maximum": 5, "title": "Finish"},
        "note": {"type": "string", "title": "Note"},
        "shade": {"type": "string", "format": "color", "title": "Shade"}}}})
}

fn answer(plan: &Value) -> Event {
    let body = json!({"id": "c1", "object": "chat.completion", "created": 1, "model": "m-1",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": plan.to_string(), "refusal": null}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 300, "completion_tokens": 100, "total_tokens": 400}});
    Event::Response {
        status: 200,
        headers: Vec::new(),
        body: body.to_string(),
        elapsed_ms: 50,
    }
}

fn bind(pointer: &str, component: &str) -> Value {
    json!({"pointer": pointer, "label": null, "widget": null, "help": null, "placeholder": null, "component": component})
}

#[test]
fn the_model_is_shown_the_catalog_and_its_bindings_are_proven() {
    let limits = configured();
    let job =
        GenerateJob::prepare(body().to_string().as_bytes(), Some("jsonforms"), &limits).unwrap();
    let config = ModelConfig {
        api_key: Some("sk-test".into()),
        ..ModelConfig::new(Provider::OpenAi, "m-1")
    };
    let mut ladder = Ladder::new(&config, job.request(), &limits, 0).unwrap();
    let Step::Send(request, _) = ladder.start() else {
        panic!("expected a model call")
    };
    let request: HttpRequest = request;
    assert!(
        request.body.contains("starRating") && request.body.contains("colorPicker"),
        "the prompt lists the catalog"
    );
    assert!(
        request.body.contains("\\\"maximum\\\":10"),
        "with each component's fits"
    );

    let plan = json!({"title": "Paints", "steps": false,
        "sections": [{"label": null, "layout": "vertical", "fields": ["/properties/gloss", "/properties/finish", "/properties/note", "/properties/shade"]}],
        "overrides": [bind("/properties/gloss", "starRating"), bind("/properties/finish", "starRating"), bind("/properties/note", "colorPicker")]});
    let Step::Done(outcome) = ladder.next(answer(&plan)) else {
        panic!("expected the end")
    };
    let LadderResult::Model(plan) = outcome.result.clone() else {
        panic!("expected the model's plan: {:?}", outcome.result)
    };
    let proven = job.prove_schema().unwrap();
    let done = job.complete(plan, &proven, Map::new());
    assert_eq!(done.response.status, 200, "{}", done.response.body);
    let forms: Value = serde_json::from_str(&done.response.body).unwrap();
    let mut refused: Vec<&str> = forms["meta"]["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["code"] == "component_refused")
        .map(|w| w["pointer"].as_str().unwrap())
        .collect();
    refused.sort();
    assert_eq!(
        refused,
        ["/output/properties/gloss", "/output/properties/note"]
    );
    let options = |scope: &str| {
        forms["uiSchema"]
            .to_string()
            .contains(&format!("\"scope\":\"#{scope}\""))
            .then(|| {
                find(&forms["uiSchema"], &format!("#{scope}"))
                    .and_then(|c| c.get("options").cloned())
            })
            .flatten()
    };
    assert_eq!(
        options("/properties/finish").and_then(|o| o.get("genui").cloned()),
        Some(json!("starRating")),
        "a fitting binding stays"
    );
    assert_eq!(
        options("/properties/shade").and_then(|o| o.get("genui").cloned()),
        Some(json!("colorPicker")),
        "asked for by its format"
    );
    assert!(options("/properties/gloss").is_none_or(|o| o.get("genui").is_none()));
}

/// The UI schema element whose scope is `scope`.
fn find<'a>(ui: &'a Value, scope: &str) -> Option<&'a Value> {
    if ui.get("scope").and_then(Value::as_str) == Some(scope) {
        return Some(ui);
    }
    ui.get("elements")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .find_map(|e| find(e, scope))
}

/// An operator's `http` generator is sent the catalog the request names
/// (never the data), and a binding it answers is proven like a model's:
/// the 0-10 rating on the field up to 11 is refused with a warning.
#[test]
fn an_http_generator_is_sent_the_catalog_and_its_misfit_binding_is_refused() {
    use genui_model::{Generators, Pick};
    let limits = configured();
    let vars = [
        (
            "GENUI_GENERATORS",
            r#"{"mine": {"url": "https://gen.example.com/plan"}}"#,
        ),
        ("WEBHOOK_SECRET", "whsec-catalog-test"),
    ];
    let (generators, problems) = Generators::from_vars(|name| {
        vars.iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.to_string())
    });
    assert!(problems.is_empty(), "{problems:?}");
    let Ok(Pick::Generator { config, .. }) = generators.pick(Some("mine")) else {
        panic!("mine is an http generator")
    };
    let job = GenerateJob::prepare(body().to_string().as_bytes(), Some("rjsf"), &limits).unwrap();
    let mut ladder = Ladder::new(&config, job.request(), &limits, 0).unwrap();
    let Step::Send(sent, _) = ladder.start() else {
        panic!("expected a generator call")
    };
    let call: Value = serde_json::from_str(&sent.body).unwrap();
    assert_eq!(call["catalog"]["name"], "example");
    let rating = call["catalog"]["components"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "starRating")
        .unwrap();
    assert_eq!(
        rating["fits"]["maximum"], 10,
        "each component with its fits"
    );

    let plan = json!({"title": "Paints", "steps": false,
        "sections": [{"label": null, "layout": "vertical", "fields": ["/properties/gloss", "/properties/finish", "/properties/note", "/properties/shade"]}],
        "overrides": [bind("/properties/gloss", "starRating"), bind("/properties/finish", "starRating")]});
    let answer = Event::Response {
        status: 200,
        headers: Vec::new(),
        body: plan.to_string(),
        elapsed_ms: 5,
    };
    let Step::Done(outcome) = ladder.next(answer) else {
        panic!("expected the end")
    };
    let LadderResult::Model(plan) = outcome.result.clone() else {
        panic!("expected the generator's plan: {:?}", outcome.result)
    };
    let done = job.complete(plan, &job.prove_schema().unwrap(), Map::new());
    assert_eq!(done.response.status, 200, "{}", done.response.body);
    let forms: Value = serde_json::from_str(&done.response.body).unwrap();
    let refused: Vec<&str> = forms["metadata"]["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["code"] == "component_refused")
        .map(|w| w["pointer"].as_str().unwrap())
        .collect();
    assert_eq!(refused, ["/output/properties/gloss"]);
    assert_eq!(
        forms["uiSchema"]["finish"]["ui:widget"], "starRating",
        "the fitting binding stays: {}",
        forms["uiSchema"]
    );
    assert_ne!(forms["uiSchema"]["gloss"]["ui:widget"], "starRating");
}
