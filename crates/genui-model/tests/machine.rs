//! The generation machine driven natively through every path, with a
//! `HashMap` as KV and scripted provider answers: deterministic miss and
//! hit, model-key hit, proven model plan, fallback, deadline, 429, client
//! gone, forced failure, misuse; and, for every fixture and every format,
//! the stream's `ui` plus its patches equal the JSON endpoint's answer.

use genui_core::{Format, GenerateJob, Limits};
use genui_model::{
    model_plan, Effect, Encoder, Event, GenerateEvents, Generation, Generators, Input, Mode,
    ModelConfig, Provider, Summary, Update,
};
use serde_json::{json, Value};
use std::collections::{HashMap, VecDeque};
use std::path::Path;

const NOW_MS: u64 = 1_795_305_600_000;

fn seed() -> Value {
    let text = std::fs::read_to_string(fixture_dir().join("seed-address.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn fixture_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../genui-core/tests/fixtures/generate")
}

fn config() -> ModelConfig {
    ModelConfig {
        deadline_ms: 10_000,
        attempt_timeout_ms: 4_000,
        ..ModelConfig::new(Provider::OpenAi, "m-1")
    }
}

/// The worker's limits with no memory of specs, so every hit reads KV.
fn forgetful() -> Limits {
    Limits {
        spec_memory_bytes: 0,
        ..Limits::default()
    }
}

fn job(body: &Value, format: Option<&str>) -> GenerateJob {
    job_under(body, format, &forgetful())
}

fn job_under(body: &Value, format: Option<&str>, limits: &Limits) -> GenerateJob {
    GenerateJob::prepare(&serde_json::to_vec(body).unwrap(), format, limits).unwrap()
}

/// An OpenAI chat completion carrying `content`, 200 ms after sending.
fn openai(content: &str) -> Event {
    let body = json!({"id": "c", "object": "chat.completion", "created": 1, "model": "m-1",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5}});
    Event::Response {
        status: 200,
        headers: Vec::new(),
        body: body.to_string(),
        elapsed_ms: 200,
    }
}

/// A plan the model might write for a request: the deterministic one with
/// a title of its own, so the refinement differs from the first UI.
fn refined_plan(body: &Value) -> String {
    let request = genui_core::GenerateRequest::from_value(body.clone()).unwrap();
    let plan = genui_core::Plan::generate_for(
        &request.output,
        &request.description,
        request.wants_confirm(),
        request.device,
        &Limits::default(),
    )
    .unwrap();
    let mut value = model_plan(&plan, false);
    value["title"] = json!("Refined by the model");
    value.to_string()
}

/// What one run did.
#[derive(Debug, Default)]
struct Run {
    updates: Vec<Update>,
    puts: Vec<String>,
    gets: Vec<String>,
    sends: Vec<u64>,
    waits: Vec<u64>,
}

impl Run {
    fn ui_bodies(&self) -> Vec<Value> {
        self.updates
            .iter()
            .filter_map(|u| match u {
                Update::Ui(r) | Update::Refined(r) => Some(serde_json::from_str(&r.body).unwrap()),
                _ => None,
            })
            .collect()
    }

    fn kinds(&self) -> Vec<&'static str> {
        self.updates
            .iter()
            .map(|u| match u {
                Update::Base(_) => "base",
                Update::Ui(_) => "ui",
                Update::Refined(_) => "refined",
                Update::Error(_) => "error",
                Update::Done(_) => "done",
            })
            .collect()
    }

    fn summary(&self) -> &Summary {
        match self.updates.last() {
            Some(Update::Done(summary)) => summary,
            other => panic!("the last update is not done: {other:?}"),
        }
    }

    fn error(&self) -> Value {
        match &self.updates[0] {
            Update::Error(r) => serde_json::from_str(&r.body).unwrap(),
            other => panic!("expected an error, got {other:?}"),
        }
    }
}

/// The shell's loop, natively: KV is a map, the provider a script, the
/// clock moves by what each answer says it took. `gone_after` reports the
/// client gone after that many emitted updates.
fn drive(
    mut generation: Generation,
    kv: &mut HashMap<String, String>,
    script: Vec<Event>,
    gone_after: Option<usize>,
) -> Run {
    drive_in_place(&mut generation, kv, script, gone_after)
}

/// [`drive`], keeping the machine to ask it afterwards.
fn drive_in_place(
    generation: &mut Generation,
    kv: &mut HashMap<String, String>,
    script: Vec<Event>,
    gone_after: Option<usize>,
) -> Run {
    let mut script = VecDeque::from(script);
    let mut now = NOW_MS;
    let mut run = Run::default();
    while let Some(effect) = generation.poll() {
        match effect {
            Effect::CacheGet(key) => {
                run.gets.push(key.clone());
                generation.input(Input::Cached(kv.get(&key).cloned()), now);
            }
            Effect::CachePut(put) => {
                run.puts.push(put.key.clone());
                kv.insert(put.key, put.value);
            }
            Effect::Send(_, timeout) => {
                run.sends.push(timeout);
                let event = script.pop_front().expect("the script ran out");
                now += match &event {
                    Event::Response { elapsed_ms, .. } => *elapsed_ms,
                    Event::TimedOut => timeout,
                    _ => 0,
                };
                generation.input(Input::Provider(event), now);
            }
            Effect::RunAi(..) => panic!("no Workers AI here"),
            Effect::Wait(ms) => {
                run.waits.push(ms);
                now += ms;
                generation.input(Input::Provider(Event::Waited), now);
            }
            Effect::Emit(update) => {
                run.updates.push(update);
                if gone_after == Some(run.updates.len()) {
                    generation.input(Input::ClientGone, now);
                }
            }
        }
    }
    run
}

fn generation(body: &Value, model: Option<ModelConfig>, mode: Mode) -> Generation {
    generation_under(body, model, mode, &forgetful())
}

fn generation_under(
    body: &Value,
    model: Option<ModelConfig>,
    mode: Mode,
    limits: &Limits,
) -> Generation {
    let generators = Generators::with_model(model);
    Generation::new(
        job_under(body, None, limits),
        &generators,
        mode,
        limits,
        NOW_MS,
    )
}

#[test]
fn deterministic_miss_then_hit() {
    let mut kv = HashMap::new();
    let miss = drive(
        generation(&seed(), None, Mode::Stream),
        &mut kv,
        vec![],
        None,
    );
    assert_eq!(miss.kinds(), ["ui", "done"]);
    assert_eq!((miss.gets.len(), miss.puts.len()), (1, 1));
    assert_eq!(miss.summary().cache, "miss");
    let hit = drive(
        generation(&seed(), None, Mode::Answer),
        &mut kv,
        vec![],
        None,
    );
    assert_eq!(hit.kinds(), ["ui", "done"]);
    assert_eq!(
        (
            hit.summary().cache.as_str(),
            hit.summary().generator.as_str()
        ),
        ("hit", "deterministic")
    );
    assert!(hit.puts.is_empty());
}

#[test]
fn the_answered_spec_is_what_was_stored_or_read() {
    let mut kv = HashMap::new();
    // Kept only when asked for: a spec may be large.
    let mut unkept = generation(&seed(), None, Mode::Answer);
    drive_in_place(&mut unkept, &mut HashMap::new(), vec![], None);
    assert_eq!(unkept.answered_spec(), None);
    let mut miss = generation(&seed(), None, Mode::Answer).keeping_answered_spec();
    drive_in_place(&mut miss, &mut kv, vec![], None);
    let stored = kv.get(miss.job().cache_key()).cloned();
    assert!(stored.is_some());
    assert_eq!(miss.answered_spec(), stored.as_deref());
    // A hit: the value read from KV, with nothing in the isolate's memory.
    let mut hit = generation(&seed(), None, Mode::Answer).keeping_answered_spec();
    let run = drive_in_place(&mut hit, &mut kv, vec![], None);
    assert!(run.puts.is_empty());
    assert_eq!(hit.answered_spec(), stored.as_deref());
    // A model's proven plan: the spec stored under the model's key.
    let mut model = generation(&seed(), Some(config()), Mode::Answer).keeping_answered_spec();
    drive_in_place(
        &mut model,
        &mut kv,
        vec![openai(&refined_plan(&seed()))],
        None,
    );
    let model_spec = kv.get(model.job().cache_key()).cloned();
    assert!(model_spec
        .as_deref()
        .is_some_and(|s| s.contains("Refined by the model")));
    assert_eq!(model.answered_spec(), model_spec.as_deref());
    // An error answers no spec.
    let mut bad = seed();
    bad["output"] = json!({"type": "object", "properties": {"x": {"type": "nonsense"}}});
    let mut failed = generation(&bad, None, Mode::Answer).keeping_answered_spec();
    let run = drive_in_place(&mut failed, &mut kv, vec![], None);
    assert_eq!(run.kinds(), ["error", "done"]);
    assert_eq!(failed.answered_spec(), None);
}

#[test]
fn a_spec_the_isolate_remembers_is_kept_when_answered_at_once() {
    let remembering = Limits {
        spec_memory_bytes: 8 << 20,
        ..Limits::default()
    };
    let mut kv = HashMap::new();
    let mut first =
        generation_under(&seed(), None, Mode::Answer, &remembering).keeping_answered_spec();
    drive_in_place(&mut first, &mut kv, vec![], None);
    // Answered from memory inside `Generation::new`, before any effect.
    let mut remembered =
        generation_under(&seed(), None, Mode::Answer, &remembering).keeping_answered_spec();
    let run = drive_in_place(&mut remembered, &mut kv, vec![], None);
    assert!(run.gets.is_empty(), "no KV read: {:?}", run.gets);
    assert!(remembered.answered_spec().is_some());
    assert_eq!(remembered.answered_spec(), first.answered_spec());
}

#[test]
fn proven_model_plan_streams_a_first_ui_then_the_refinement() {
    let body = seed();
    let answer = drive(
        generation(&body, Some(config()), Mode::Answer),
        &mut HashMap::new(),
        vec![openai(&refined_plan(&body))],
        None,
    );
    assert_eq!(answer.kinds(), ["ui", "done"]);
    let mut kv = HashMap::new();
    let streamed = drive(
        generation(&body, Some(config()), Mode::Stream),
        &mut kv,
        vec![openai(&refined_plan(&body))],
        None,
    );
    assert_eq!(streamed.kinds(), ["ui", "refined", "done"]);
    let bodies = streamed.ui_bodies();
    assert_eq!(bodies[0]["meta"]["generator"], "deterministic");
    assert_eq!(bodies[1]["meta"]["generator"], "model");
    assert_eq!(
        bodies[1],
        answer.ui_bodies()[0],
        "the refinement is the JSON endpoint's answer"
    );
    // The model key first, then the deterministic key for the first UI; both stored.
    assert_eq!(streamed.gets.len(), 2);
    assert_eq!(streamed.puts.len(), 2);
    let summary = streamed.summary();
    assert!(!summary.fell_back && summary.generator == "model");
    assert_eq!(summary.first_ui_ms, Some(0));
    assert_eq!(summary.total_ms, 200);
    assert_eq!(summary.provenance.as_ref().unwrap()["attempts"], 1);
    // Next time the model's spec is a hit: one ui, no provider call.
    let again = drive(
        generation(&body, Some(config()), Mode::Stream),
        &mut kv,
        vec![],
        None,
    );
    assert_eq!(again.kinds(), ["ui", "done"]);
    assert_eq!(again.ui_bodies()[0]["meta"]["generator"], "model");
    assert_eq!(again.summary().cache, "hit");
    assert!(again.sends.is_empty());
}

#[test]
fn a_bad_model_falls_back_and_stores_the_deterministic_spec_once() {
    let mut kv = HashMap::new();
    let run = drive(
        generation(&seed(), Some(config()), Mode::Stream),
        &mut kv,
        vec![openai("not json"), openai("{\"still\": \"wrong\"}")],
        None,
    );
    assert_eq!(run.kinds(), ["ui", "refined", "done"]);
    assert_eq!(run.sends.len(), 2, "one repair attempt");
    let bodies = run.ui_bodies();
    assert_eq!(bodies[1]["meta"]["generator"], "fallback");
    assert_eq!(
        bodies[0]["ui"], bodies[1]["ui"],
        "a fallback changes provenance, not the form"
    );
    assert!(run.summary().fell_back);
    assert_eq!(run.puts.len(), 1, "{:?}", run.puts);
    assert_eq!(
        run.summary().provenance.as_ref().unwrap()["error"],
        "model_output_invalid"
    );
}

#[test]
fn the_wall_clock_deadline_ends_the_model() {
    let slow = Event::Response {
        status: 200,
        headers: Vec::new(),
        body: String::new(),
        elapsed_ms: 10_500,
    };
    let run = drive(
        generation(&seed(), Some(config()), Mode::Stream),
        &mut HashMap::new(),
        vec![slow],
        None,
    );
    assert_eq!(run.kinds(), ["ui", "refined", "done"]);
    assert_eq!(run.sends, [4_000], "the attempt timeout fits the deadline");
    assert!(run.summary().fell_back);
    assert_eq!(
        run.summary().provenance.as_ref().unwrap()["error"],
        "model_timeout"
    );
    // A hanging model: the timeouts given never pass the deadline in total.
    let hangs = drive(
        generation(&seed(), Some(config()), Mode::Answer),
        &mut HashMap::new(),
        vec![Event::TimedOut],
        None,
    );
    assert!(hangs.sends.iter().sum::<u64>() <= 10_000);
    assert_eq!(hangs.ui_bodies()[0]["meta"]["generator"], "fallback");
}

#[test]
fn a_429_waits_then_the_plan_is_proven() {
    let body = seed();
    let limited = Event::Response {
        status: 429,
        headers: vec![("retry-after".into(), "2".into())],
        body: json!({"error": {"message": "slow down", "type": "rate_limit"}}).to_string(),
        elapsed_ms: 30,
    };
    let run = drive(
        generation(&body, Some(config()), Mode::Stream),
        &mut HashMap::new(),
        vec![limited, openai(&refined_plan(&body))],
        None,
    );
    assert_eq!(run.waits, [2_000]);
    assert_eq!(run.sends.len(), 2);
    assert_eq!(run.ui_bodies()[1]["meta"]["generator"], "model");
}

#[test]
fn a_client_gone_mid_stream_still_caches_the_proven_spec() {
    let body = seed();
    let mut kv = HashMap::new();
    let run = drive(
        generation(&body, Some(config()), Mode::Stream),
        &mut kv,
        vec![openai(&refined_plan(&body))],
        Some(1),
    );
    assert_eq!(
        run.kinds(),
        ["ui"],
        "nothing is emitted after the client left"
    );
    assert_eq!(run.puts.len(), 2, "the model's spec is still stored");
    let again = drive(
        generation(&body, Some(config()), Mode::Answer),
        &mut kv,
        vec![],
        None,
    );
    assert_eq!(again.ui_bodies()[0]["meta"]["generator"], "model");
}

#[test]
fn forced_model_failure_is_an_error_without_a_first_ui() {
    let mut body = seed();
    body["generator"] = json!("model");
    let run = drive(
        generation(&body, Some(config()), Mode::Stream),
        &mut HashMap::new(),
        vec![openai("no"), openai("no")],
        None,
    );
    assert_eq!(run.kinds(), ["error", "done"]);
    assert_eq!(run.error()["code"], "model_output_invalid");
    let none = drive(
        generation(&body, None, Mode::Stream),
        &mut HashMap::new(),
        vec![],
        None,
    );
    assert_eq!(
        none.error()["payload"]["pointer"],
        "/generator",
        "{}",
        none.error()
    );
}

#[test]
fn an_answer_to_nothing_asked_ends_with_an_internal_error() {
    let mut generation = generation(&seed(), None, Mode::Answer);
    assert!(matches!(generation.poll(), Some(Effect::CacheGet(_))));
    generation.input(Input::Provider(Event::Waited), NOW_MS);
    let Some(Effect::Emit(Update::Error(response))) = generation.poll() else {
        panic!()
    };
    assert_eq!(response.status, 500);
    assert!(matches!(
        generation.poll(),
        Some(Effect::Emit(Update::Done(_)))
    ));
    assert!(generation.poll().is_none());
}

/// Parses an SSE text into (event, data) pairs.
fn events(text: &str) -> Vec<(String, Value)> {
    text.split("\n\n")
        .filter(|frame| !frame.is_empty() && !frame.starts_with(':'))
        .map(|frame| {
            let mut lines = frame.lines();
            let event = lines
                .next()
                .unwrap()
                .strip_prefix("event: ")
                .unwrap()
                .to_owned();
            let data = lines.next().unwrap().strip_prefix("data: ").unwrap();
            (event, serde_json::from_str(data).unwrap())
        })
        .collect()
}

fn without_cache_status(mut body: Value) -> Value {
    if let Some(meta) = body.get_mut("meta").and_then(Value::as_object_mut) {
        meta.remove("cache");
    }
    body
}

#[test]
fn every_fixture_and_format_patches_to_the_json_answer() {
    let mut checked = 0;
    for entry in std::fs::read_dir(fixture_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|x| x != "json") {
            continue;
        }
        let body: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for format in Format::names() {
            let Ok(answer_job) = GenerateJob::prepare(
                &serde_json::to_vec(&body).unwrap(),
                Some(format),
                &forgetful(),
            ) else {
                continue;
            };
            let script = || vec![openai(&refined_plan(&body)), openai(&refined_plan(&body))];
            let answer = drive(
                Generation::new(
                    answer_job,
                    &Generators::with_model(Some(config())),
                    Mode::Answer,
                    &forgetful(),
                    NOW_MS,
                ),
                &mut HashMap::new(),
                script(),
                None,
            );
            let streamed = drive(
                Generation::new(
                    job(&body, Some(format)),
                    &Generators::with_model(Some(config())),
                    Mode::Stream,
                    &forgetful(),
                    NOW_MS,
                ),
                &mut HashMap::new(),
                script(),
                None,
            );
            let mut writer = GenerateEvents::default();
            let text: String = streamed.updates.iter().map(|u| writer.frames(u)).collect();
            let events = events(&text);
            let name = format!("{} as {format}", path.display());
            let expected = match &answer.updates[0] {
                // format=html answers a page, carried as a JSON string.
                Update::Ui(r) => serde_json::from_str::<Value>(&r.body)
                    .unwrap_or_else(|_| Value::String(r.body.clone())),
                Update::Error(r) => {
                    assert_eq!(
                        events[0],
                        ("error".to_owned(), serde_json::from_str(&r.body).unwrap()),
                        "{name}"
                    );
                    continue;
                }
                other => panic!("{name}: {other:?}"),
            };
            assert_eq!(events[0].0, "ui", "{name}");
            let mut doc = events[0].1.clone();
            for (event, data) in &events[1..events.len() - 1] {
                assert_eq!(event, "patch", "{name}");
                let patch: json_patch::Patch = serde_json::from_value(data.clone()).unwrap();
                json_patch::patch(&mut doc, &patch).unwrap();
            }
            assert_eq!(events.last().unwrap().0, "done", "{name}");
            assert_eq!(
                without_cache_status(doc),
                without_cache_status(expected),
                "{name}"
            );
            checked += 1;
        }
    }
    assert!(
        checked >= 200,
        "only {checked} fixture x format pairs were compared"
    );
}

/// A display's spec is its data's shape, whose column names are request
/// words: with or without a model configured, the machine neither reads
/// nor writes KV for it, and a repeat without the isolate's memory is
/// simply built again.
#[test]
fn a_display_neither_reads_nor_writes_kv() {
    let secret = "customer_4417123456789113_ssn_123456789";
    let body = json!({"description": "Accounts", "data": [{secret: "x", "balance": 12.5}, {secret: "y", "balance": 3}]});
    let mut kv = HashMap::new();
    for (model, mode) in [
        (None, Mode::Answer),
        (Some(config()), Mode::Stream),
        (None, Mode::Stream),
    ] {
        let run = drive(generation(&body, model, mode), &mut kv, vec![], None);
        assert_eq!(run.kinds(), ["ui", "done"]);
        assert_eq!(run.ui_bodies()[0]["meta"]["kind"], "display");
        assert_eq!(run.summary().cache, "miss", "built again, not read");
        assert_eq!((run.gets.len(), run.puts.len(), run.sends.len()), (0, 0, 0));
    }
    assert!(
        kv.is_empty(),
        "KV holds nothing of the display: {:?}",
        kv.keys()
    );
}

/// An edit in place (`previousSpecHash`): the machine reads the edited
/// spec first, a stream opens with the edited form rendered with the
/// request's data (the person's current values) and sends the new form as
/// a patch from it, which ends where the JSON answer is; the JSON answer
/// reads the same keys and never carries the edited form.
#[test]
fn an_edit_streams_the_edited_form_then_a_patch_to_the_new_one() {
    let mut kv = HashMap::new();
    let first = drive(
        generation(&seed(), None, Mode::Answer),
        &mut kv,
        vec![],
        None,
    );
    let first_body = &first.ui_bodies()[0];
    let hash = first_body["meta"]["specHash"].as_str().unwrap().to_owned();
    let mut edit = seed();
    edit["output"]["properties"]["phone"] = json!({"type": "string", "title": "Phone"});
    edit["data"]["phone"] = json!("+44 20 7946 0000");
    edit["previousSpecHash"] = json!(hash);
    let answer = drive(
        generation(&edit, None, Mode::Answer),
        &mut kv.clone(),
        vec![],
        None,
    );
    assert_eq!(answer.kinds(), ["ui", "done"]);
    let streamed = drive(generation(&edit, None, Mode::Stream), &mut kv, vec![], None);
    assert_eq!(streamed.kinds(), ["base", "ui", "done"]);
    assert_eq!(
        streamed.gets[0],
        format!("{}{hash}", genui_core::UiSpec::KEY_PREFIX)
    );
    assert_eq!(answer.gets, streamed.gets);
    let mut writer = GenerateEvents::default();
    let text: String = streamed.updates.iter().map(|u| writer.frames(u)).collect();
    let events = events(&text);
    let names: Vec<&str> = events.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, ["ui", "patch", "done"]);
    let mut doc = events[0].1.clone();
    assert_eq!(
        doc["meta"]["specHash"],
        json!(hash),
        "it opens with the edited form"
    );
    assert_eq!(
        doc["jsonSchema"]["properties"]["phone"],
        json!(null),
        "the edited form has no phone"
    );
    assert_eq!(
        doc["initialData"]["firstName"], "Ada",
        "with the person's values"
    );
    let patch: json_patch::Patch = serde_json::from_value(events[1].1.clone()).unwrap();
    json_patch::patch(&mut doc, &patch).unwrap();
    assert_eq!(
        without_cache_status(doc),
        without_cache_status(answer.ui_bodies()[0].clone())
    );
}
