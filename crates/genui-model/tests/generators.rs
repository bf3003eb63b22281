//! The generator registry and the operator's `http` generators, natively:
//! the request a generator receives (data-free, signed under its own
//! purpose), its answers (a plan, a JSON Forms uischema, garbage, a misfit)
//! through the same ladder as a model's, and instructions that reach the
//! model as quoted data and the cache key, never the deterministic one.

use genui_core::{GenerateJob, Limits, Plan, Webhook, Widget};
use genui_model::{
    Effect, Event, Generation, Generators, Input, Ladder, LadderResult, Mode, ModelConfig, Pick,
    Provider, Step, Update,
};
use serde_json::{json, Value};
use std::collections::HashMap;

const NOW_MS: u64 = 1_795_305_600_000;
const SECRET: &str = "whsec-generators-test";

fn body(extra: Value) -> Value {
    let mut body = json!({"description": "A sign-up form.", "data": {"name": "Ada Lovelace"}, "output": {"type": "object", "required": ["name", "email"], "properties": {
        "name": {"type": "string"}, "email": {"type": "string", "format": "email"}, "age": {"type": "integer", "minimum": 0, "maximum": 130}, "news": {"type": "boolean"}}}});
    if let (Value::Object(b), Value::Object(e)) = (&mut body, extra) {
        b.extend(e);
    }
    body
}

fn job(body: &Value) -> GenerateJob {
    GenerateJob::prepare(body.to_string().as_bytes(), None, &Limits::default()).unwrap()
}

fn table() -> Generators {
    let vars: HashMap<&str, &str> = HashMap::from([
        (
            "GENUI_GENERATORS",
            r#"{"mine": {"url": "https://gen.example.com/plan", "deadlineMs": 4000, "timeoutMs": 2000}}"#,
        ),
        ("WEBHOOK_SECRET", SECRET),
        ("MODEL_PROVIDER", "openai"),
        ("MODEL_NAME", "m-1"),
        ("GENUI_INSTRUCTIONS", "House style: sentence case."),
    ]);
    let (generators, problems) =
        Generators::from_vars(|name| vars.get(name).map(|v| v.to_string()));
    assert!(problems.is_empty(), "{problems:?}");
    generators
}

fn http_config() -> ModelConfig {
    match table().pick(Some("mine")).unwrap() {
        Pick::Generator { config, .. } => config,
        Pick::Deterministic => panic!("mine is an http generator"),
    }
}

fn answer(body: &Value, elapsed_ms: u64) -> Event {
    Event::Response {
        status: 200,
        headers: Vec::new(),
        body: body.to_string(),
        elapsed_ms,
    }
}

#[test]
fn the_request_is_data_free_and_signed_under_its_own_purpose() {
    let request = job(&body(
        json!({"instructions": "Email first.", "device": "mobile"}),
    ))
    .request()
    .clone();
    let mut ladder = Ladder::new(&http_config(), &request, &Limits::default(), NOW_MS).unwrap();
    let Step::Send(sent, timeout) = ladder.start() else {
        panic!("a send")
    };
    assert_eq!(
        (sent.url.as_str(), timeout),
        ("https://gen.example.com/plan", 2000)
    );
    let call: Value = serde_json::from_str(&sent.body).unwrap();
    assert!(
        call.get("data").is_none() && !sent.body.contains("Ada Lovelace"),
        "never the data: {}",
        sent.body
    );
    assert_eq!(
        (
            call["generator"].as_str(),
            call["device"].as_str(),
            call["format"].as_str()
        ),
        (Some("mine"), Some("mobile"), Some("jsonforms"))
    );
    assert_eq!(
        call["instructions"],
        json!({"operator": "House style: sentence case.", "caller": "Email first."})
    );
    assert_eq!(call["output"], request.output);
    assert_eq!(
        call["fields"][1],
        json!({"pointer": "/properties/email", "type": "string", "required": true, "widgets": ["email", "text"]})
    );
    assert!(call.get("catalog").is_none(), "no catalog bound");
    let signature = sent.header("x-genui-signature").unwrap();
    let now_s = NOW_MS / 1000;
    assert!(
        Webhook::verify_generator(Some(signature), sent.body.as_bytes(), SECRET, now_s).is_ok()
    );
    assert!(
        Webhook::verify(Some(signature), sent.body.as_bytes(), SECRET, now_s).is_err(),
        "not a webhook signature"
    );
    assert!(!format!("{sent:?}").contains(SECRET));
}

#[test]
fn a_uischema_answer_is_converted_and_proven() {
    let request = job(&body(json!({}))).request().clone();
    let mut ladder = Ladder::new(&http_config(), &request, &Limits::default(), NOW_MS).unwrap();
    ladder.start();
    let ui = json!({"uischema": {"type": "VerticalLayout", "elements": [
        {"type": "Group", "label": "Contact", "elements": [{"type": "Control", "scope": "#/properties/email", "label": "<b>Mail</b>"}]},
        {"type": "Control", "scope": "#/properties/age", "options": {"slider": true}}]}});
    let Step::Done(outcome) = ladder.next(answer(&ui, 30)) else {
        panic!("done")
    };
    let LadderResult::Model(plan) = &outcome.result else {
        panic!("proven: {:?}", outcome.result)
    };
    assert!(Plan::check(plan, &request.output, &Limits::default()).is_empty());
    let controls = plan.root.controls();
    let email = controls
        .iter()
        .find(|c| c.pointer == "/properties/email")
        .unwrap();
    assert_eq!(email.label, "Mail", "sanitised");
    assert!(
        controls.iter().any(|c| c.pointer == "/properties/name"),
        "a required field the uischema left out is added"
    );
    assert!(
        outcome.provenance.fixes.contains(&"required_added"),
        "{:?}",
        outcome.provenance.fixes
    );
    assert_eq!(
        controls
            .iter()
            .find(|c| c.pointer == "/properties/age")
            .unwrap()
            .widget,
        Widget::Slider
    );
    let p = &outcome.provenance;
    assert_eq!(
        (p.generator, p.provider, p.model.as_str()),
        ("model", "http", "mine")
    );
}

#[test]
fn garbage_twice_falls_back_with_the_reason_and_a_misfit_is_repaired() {
    let request = job(&body(json!({}))).request().clone();
    let mut ladder = Ladder::new(&http_config(), &request, &Limits::default(), NOW_MS).unwrap();
    ladder.start();
    let garbage = Event::Response {
        status: 200,
        headers: Vec::new(),
        body: "<html>oops</html>".into(),
        elapsed_ms: 10,
    };
    let Step::Send(retry, _) = ladder.next(garbage.clone()) else {
        panic!("one retry")
    };
    let call: Value = serde_json::from_str(&retry.body).unwrap();
    assert!(
        call["retry"]["problems"]
            .as_str()
            .unwrap()
            .contains("output_invalid"),
        "{call}"
    );
    let Step::Done(outcome) = ladder.next(garbage) else {
        panic!("done")
    };
    assert!(
        matches!(&outcome.result, LadderResult::Fallback { reason, .. } if reason.code().as_str() == "model_output_invalid")
    );
    assert_eq!(
        (outcome.provenance.generator, outcome.provenance.error),
        ("fallback", Some("model_output_invalid"))
    );

    let mut ladder = Ladder::new(&http_config(), &request, &Limits::default(), NOW_MS).unwrap();
    ladder.start();
    let misfit = json!({"title": null, "steps": false, "sections": [{"label": null, "layout": "vertical", "fields": ["/properties/name", "/properties/email", "/properties/age", "/properties/news"]}],
        "overrides": [{"pointer": "/properties/name", "label": null, "widget": "checkbox", "help": null, "placeholder": null}]});
    let Step::Done(outcome) = ladder.next(answer(&misfit, 10)) else {
        panic!("done")
    };
    let LadderResult::Model(plan) = &outcome.result else {
        panic!("{:?}", outcome.result)
    };
    assert_eq!(
        plan.root.controls()[0].widget,
        Widget::Text,
        "the checkbox never reaches the answer"
    );
    assert!(
        outcome.provenance.fixes.contains(&"widget_replaced"),
        "{:?}",
        outcome.provenance.fixes
    );
}

/// Drives a generation with one scripted answer per send; returns the
/// sends, the last answer's body and the `done` summary's generator.
fn drive(mut generation: Generation, answers: Vec<Event>) -> (Vec<(String, u64)>, Value, String) {
    let mut answers = answers.into_iter();
    let (mut sends, mut last, mut done) = (Vec::new(), Value::Null, String::new());
    let mut now = NOW_MS;
    while let Some(effect) = generation.poll() {
        match effect {
            Effect::CacheGet(_) => generation.input(Input::Cached(None), now),
            Effect::Send(request, timeout) => {
                sends.push((request.body.clone(), timeout));
                let event = answers.next().unwrap_or(Event::TimedOut);
                now += if event == Event::TimedOut {
                    timeout
                } else {
                    10
                };
                generation.input(Input::Provider(event), now);
            }
            Effect::Wait(ms) => {
                now += ms;
                generation.input(Input::Provider(Event::Waited), now);
            }
            Effect::Emit(Update::Ui(r) | Update::Refined(r) | Update::Error(r)) => {
                last = serde_json::from_str(&r.body).unwrap_or(Value::Null)
            }
            Effect::Emit(Update::Done(summary)) => done = summary.generator,
            Effect::CachePut(_) | Effect::RunAi(..) | Effect::Emit(Update::Base(_)) => {}
        }
    }
    (sends, last, done)
}

#[test]
fn the_table_picks_and_an_unknown_name_is_a_400_at_generator() {
    let pick = |name: &str, answers: Vec<Event>| {
        drive(
            Generation::new(
                job(&body(json!({"generator": name}))),
                &table(),
                Mode::Answer,
                &Limits::default(),
                NOW_MS,
            ),
            answers,
        )
    };
    let (sends, answer, _) = pick("nope", vec![]);
    assert!(sends.is_empty());
    assert_eq!(
        (
            answer["code"].as_str(),
            answer["payload"]["pointer"].as_str()
        ),
        (Some("invalid_request"), Some("/generator")),
        "{answer}"
    );
    assert!(
        answer["message"].as_str().unwrap().contains("mine"),
        "names the configured ones: {answer}"
    );
    let (sends, answer, done) = pick("deterministic", vec![]);
    assert!(sends.is_empty() && done == "deterministic", "{answer}");
    // A hung generator: the attempt's timeout, then the deterministic form.
    let (sends, answer, done) = pick("mine", vec![Event::TimedOut]);
    assert_eq!(sends.len(), 1);
    assert_eq!(sends[0].1, 2000);
    assert_eq!(
        (
            done.as_str(),
            answer["meta"]["error"].as_str(),
            answer["meta"]["provider"].as_str()
        ),
        ("fallback", Some("model_timeout"), Some("http")),
        "{answer}"
    );
    // The http generator's specs are keyed apart from the model's and the deterministic ones.
    let keys: Vec<String> = ["mine", "openai", "deterministic"]
        .iter()
        .map(|name| {
            let mut job = job(&body(json!({"generator": name})));
            if let Ok(Pick::Generator { config, .. }) = table().pick(Some(name)) {
                job.rekey(genui_core::GeneratorId {
                    generator: "model".into(),
                    generator_version: config.cache_identity(),
                })
                .unwrap();
            }
            job.cache_key().to_owned()
        })
        .collect();
    assert!(
        keys[0] != keys[1] && keys[1] != keys[2] && keys[0] != keys[2],
        "{keys:?}"
    );
}

#[test]
fn instructions_key_the_model_path_only() {
    let key = |instructions: Option<&str>, model: bool| {
        let extra = instructions.map_or(json!({}), |i| json!({"instructions": i}));
        let mut job = job(&body(extra));
        if model {
            job.rekey(genui_core::GeneratorId {
                generator: "model".into(),
                generator_version: http_config().cache_identity(),
            })
            .unwrap();
        }
        job.cache_key().to_owned()
    };
    assert_eq!(
        key(Some("Email first."), false),
        key(None, false),
        "the deterministic key ignores them"
    );
    assert_ne!(
        key(Some("Email first."), true),
        key(None, true),
        "a generator's key does not"
    );
    assert_ne!(
        key(Some("Email first."), true),
        key(Some("Name first."), true)
    );
    assert!(
        !http_config().cache_identity().contains("sentence"),
        "the operator's words are digested, not spelled out"
    );
    let plain = ModelConfig::new(Provider::Http, "mine");
    assert_ne!(
        plain.cache_identity(),
        ModelConfig {
            instructions: Some("x".into()),
            ..plain.clone()
        }
        .cache_identity()
    );
}

#[test]
fn the_docs_show_the_example_generator_the_e2e_runs() {
    let page = include_str!("../../../docs/operator.md");
    let example = include_str!("../../../examples/http-generator.mjs");
    assert!(
        page.contains(&format!("```js\n{example}```")),
        "the example in docs/operator.md differs from examples/http-generator.mjs"
    );
    assert!(
        example.contains("genui-generator."),
        "the example checks the generator purpose label"
    );
}

#[test]
fn a_stream_gets_the_deterministic_form_first_then_the_generators() {
    let mut generation = Generation::new(
        job(&body(json!({"generator": "mine"}))),
        &table(),
        Mode::Stream,
        &Limits::default(),
        NOW_MS,
    );
    let plan = json!({"title": "Theirs", "steps": false, "sections": [{"label": null, "layout": "vertical", "fields": ["/properties/email", "/properties/name"]}], "overrides": []});
    let mut kinds = Vec::new();
    while let Some(effect) = generation.poll() {
        match effect {
            Effect::CacheGet(_) => generation.input(Input::Cached(None), NOW_MS),
            Effect::Send(..) => generation.input(Input::Provider(answer(&plan, 10)), NOW_MS + 10),
            Effect::Emit(Update::Ui(r)) => kinds.push((
                "ui",
                serde_json::from_str::<Value>(&r.body).unwrap()["meta"]["generator"].clone(),
            )),
            Effect::Emit(Update::Refined(r)) => kinds.push((
                "refined",
                serde_json::from_str::<Value>(&r.body).unwrap()["meta"]["title"].clone(),
            )),
            Effect::Emit(Update::Done(summary)) => kinds.push(("done", json!(summary.generator))),
            other => assert!(matches!(other, Effect::CachePut(_)), "{other:?}"),
        }
    }
    assert_eq!(
        kinds,
        [
            ("ui", json!("deterministic")),
            ("refined", json!("Theirs")),
            ("done", json!("model"))
        ]
    );
}
