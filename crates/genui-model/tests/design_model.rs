//! A model's plan on the design measure (genui-core's `tests/design/`): for
//! each development case, the plan a model that agreed with the designer
//! would write, in the model-plan format (the reference's title, and one
//! labelled section per reference section with its fields in order and its
//! rows), is
//! answered as an OpenAI reply through the real ladder (parse, repair,
//! check), rendered by the pipeline as a model's plan is, and scored.
//!
//! The plan writes the designer's side-by-side rows as each section's
//! `rows` (where the row's fields are adjacent in the section, as the
//! format asks); option labels and the lead text are not the model's to
//! write. `cargo test -p genui-model --test design_model --
//! --ignored` writes the figures to bench-results/design-model.md.

// genui-core's scorer; this test reads only part of it.
#[allow(dead_code)]
#[path = "../../genui-core/tests/design/mod.rs"]
mod design;

use design::case::{load, Case};
use design::report::{cases_table, halves_table, Scored, Summary};
use design::seen::planned;
use genui_core::{GenerateRequest, Limits, Plan};
use genui_model::{Event, Ladder, LadderResult, ModelConfig, Provider, Step};
use serde_json::{json, Value};

/// 2026-11-22T00:00:00Z.
const NOW_MS: u64 = 1_795_305_600_000;

/// The model plan for a case's reference design.
fn scripted_plan(case: &Case) -> Value {
    scripted_plan_titled(case, &case.reference.title)
}

/// The reference design's plan under another title.
fn scripted_plan_titled(case: &Case, title: &str) -> Value {
    let sections: Vec<Value> = case
        .reference
        .sections
        .iter()
        .map(|s| {
            let rows: Vec<&Vec<String>> = case
                .reference
                .rows
                .iter()
                .filter(|row| adjacent_in(row, &s.fields))
                .collect();
            json!({"label": s.name, "layout": "vertical", "fields": s.fields, "rows": rows})
        })
        .collect();
    json!({"title": title, "steps": false, "sections": sections, "overrides": []})
}

/// Whether `row` is a run of `fields`, in order: the only rows the format
/// holds (a reference row across fields the designer lists apart is left
/// out, its fields stacked).
fn adjacent_in(row: &[String], fields: &[String]) -> bool {
    fields.windows(row.len()).any(|run| run == row)
}

/// An OpenAI chat completion carrying `plan`.
fn openai_reply(plan: &Value) -> Event {
    let body = json!({
        "id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "m-1",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": plan.to_string(), "refusal": null}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 300, "completion_tokens": 100, "total_tokens": 400}
    });
    Event::Response {
        status: 200,
        headers: Vec::new(),
        body: body.to_string(),
        elapsed_ms: 120,
    }
}

/// The plan the ladder accepts from the scripted reply, and the fixes it made.
fn through_the_ladder(case: &Case) -> (Plan, Vec<&'static str>) {
    through_the_ladder_with(case, &scripted_plan(case))
}

/// [`through_the_ladder`] for the model's reply `plan`.
fn through_the_ladder_with(case: &Case, plan: &Value) -> (Plan, Vec<&'static str>) {
    ladder_plan(case, case.request.clone(), plan)
}

/// [`through_the_ladder_with`] for the case's form asked for as `request`.
fn ladder_plan(case: &Case, request: Value, plan: &Value) -> (Plan, Vec<&'static str>) {
    let request =
        GenerateRequest::from_value(request).unwrap_or_else(|e| panic!("{}: {e:?}", case.name));
    let config = ModelConfig {
        api_key: Some("sk-design-0001".into()),
        ..ModelConfig::new(Provider::OpenAi, "m-1")
    };
    let mut ladder = Ladder::new(&config, &request, &Limits::default(), NOW_MS)
        .unwrap_or_else(|e| panic!("{}: {e:?}", case.name));
    assert!(
        matches!(ladder.start(), Step::Send(..)),
        "{}: the ladder asks the model first",
        case.name
    );
    let Step::Done(outcome) = ladder.next(openai_reply(plan)) else {
        panic!("{}: one reply ends the ladder", case.name)
    };
    match outcome.result {
        LadderResult::Model(plan) => (plan, outcome.provenance.fixes),
        other => panic!(
            "{}: the model's plan was not taken: {other:?} {:?}",
            case.name, outcome.issues
        ),
    }
}

fn scored() -> Vec<Scored> {
    load(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../genui-core/tests/design/dev"))
        .iter()
        .map(|case| {
            let (plan, fixes) = through_the_ladder(case);
            assert!(
                fixes.is_empty(),
                "{}: the scripted plan needed fixes {fixes:?}",
                case.name
            );
            Scored::new(case, &planned(case, &plan))
        })
        .collect()
}

#[test]
fn a_model_plan_in_the_designers_sections_keeps_them_through_the_ladder() {
    let scored = scored();
    println!("{}", halves_table(&scored));
    for s in &scored {
        assert_eq!(s.scores.section_f1, 1.0, "{}: {:?}", s.name, s.scores);
        assert!(
            !s.scores.title_echoes && !s.scores.title_missing,
            "{}",
            s.name
        );
        assert_eq!(s.scores.missing_fields, 0, "{}", s.name);
    }
    let whole = Summary::of_all(&scored);
    assert!(
        whole.rows_percent() >= 90.0,
        "side-by-side pairs kept: {}/{}",
        whole.row_pairs_kept,
        whole.row_pairs
    );
}

/// The same plans for a phone: every row the model wrote is stacked, as
/// the pipeline stacks rows on mobile whoever wrote them.
#[test]
fn a_model_plans_rows_stack_on_mobile() {
    let cases = load(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../genui-core/tests/design/dev"),
    );
    let with_rows = cases.iter().filter(|c| !c.reference.rows.is_empty());
    for case in with_rows.take(5) {
        let scripted = scripted_plan(case);
        let wrote_rows = scripted["sections"].as_array().into_iter().flatten();
        let wrote_rows = wrote_rows.filter(|s| s["rows"].as_array().is_some_and(|r| !r.is_empty()));
        assert!(
            wrote_rows.count() > 0,
            "{}: the plan writes rows",
            case.name
        );
        let mut request = case.request.clone();
        request["device"] = json!("mobile");
        let (plan, fixes) = ladder_plan(case, request, &scripted);
        assert!(fixes.is_empty(), "{}: {fixes:?}", case.name);
        let scores = Scored::new(case, &planned(case, &plan)).scores;
        assert_eq!(scores.row_pairs_kept, 0, "{}: a row on mobile", case.name);
        assert_eq!(scores.section_f1, 1.0, "{}", case.name);
    }
}

/// A model that titles every form with the request itself ("Ask the user
/// for their flight search criteria"): the pipeline replaces each title
/// with one for the person, so none echoes and none is missing.
#[test]
fn a_model_title_that_echoes_the_request_never_reaches_the_person() {
    let cases = load(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../genui-core/tests/design/dev"),
    );
    for case in cases.iter().filter(|c| !c.held_out) {
        let (plan, _) =
            through_the_ladder_with(case, &scripted_plan_titled(case, case.description()));
        let scores = Scored::new(case, &planned(case, &plan)).scores;
        assert!(
            !scores.title_echoes,
            "{}: the request's words shown as the title",
            case.name
        );
        assert!(!scores.title_missing, "{}: no title", case.name);
    }
}

#[test]
#[ignore = "writes bench-results/design-model.md"]
fn write_design_model_report() {
    let scored = scored();
    let tuning = Summary::of(&scored, false);
    let out = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../bench-results/design-model.md");
    let report = format!(
        "# Design measure: a model's plan\n\n\
         `cargo test -p genui-model --test design_model -- --ignored` ({} tuning cases and the held-out rest).\n\n\
         For each development case, the plan a model that agreed with the designer would write in today's model-plan format \
         (the reference's title, one labelled section per reference section with the designer's side-by-side rows as its `rows` \
         where their fields are adjacent in the section, as the format asks) \
         is answered as an OpenAI reply through genui-model's ladder (parse, repair, check) and rendered as the pipeline renders a \
         model's plan (desktop). Option labels and the lead text are not part of a plan.\n\n{}\n\
         ## Per case\n\n{}",
        tuning.cases,
        halves_table(&scored),
        cases_table(&scored)
    );
    std::fs::write(&out, report).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
}
