//! The JSON Schema Test Suite through the real `/v1/submit`, in workerd.
//!
//! `crates/genui-core/tests/json_schema_suite.rs` holds the core's submit to
//! the suite (every case of drafts 4, 6, 7, 2019-09 and 2020-12, agreement
//! 100 % on every case it judges). This layer posts the same cases, as a
//! caller would (`{"output", "data"}`, JSON), to `/v1/submit` of the
//! shipped wasm under `wrangler dev`, and requires each answer to be the
//! native core's answer: the same status, the same error code, the same
//! unchecked places. So the worker the platform runs judges the suite
//! exactly as the core the native test checks.
//!
//! Run: `cargo test -p genui-harness --test e2e-suite -- --ignored --nocapture`.

#[path = "../../crates/genui-core/tests/json_schema_suite/cases.rs"]
mod suite;

use genui_core::{HttpResponse, Limits, SubmitJob};
use genui_harness::{project_root, Options, WranglerDev};
use serde_json::{json, Value};
use suite::DRAFTS;

/// What a submission's answer says, for comparing two answers.
#[derive(Debug, PartialEq)]
struct Verdict {
    status: u16,
    code: Value,
    unchecked: Value,
}

impl Verdict {
    fn of(status: u16, body: &str) -> Verdict {
        let answer: Value = serde_json::from_str(body).unwrap_or_default();
        Verdict {
            status,
            code: answer["code"].clone(),
            unchecked: answer["metadata"]["genuiUnchecked"].clone(),
        }
    }
}

/// The native core's answer to one submission body.
fn native(body: &Value) -> Verdict {
    let bytes = serde_json::to_vec(body).expect("a JSON body");
    let response = match SubmitJob::prepare(&bytes, &Limits::default()) {
        Ok(job) => job.answer(None, "suite").response,
        Err(error) => HttpResponse::error(&error),
    };
    Verdict::of(response.status, &response.body)
}

#[test]
#[ignore = "needs wrangler dev"]
fn the_worker_judges_the_suite_as_the_core_does() {
    let dev = WranglerDev::start(Options::default()).unwrap_or_else(|e| panic!("{e}"));
    let (mut cases, mut differ) = (0usize, Vec::new());
    let suite = project_root().join("tests/vendor/JSON-Schema-Test-Suite/tests");
    for (folder, meta) in DRAFTS {
        for case in suite::cases(&suite, folder, meta) {
            cases += 1;
            let body = json!({"output": case.schema, "data": case.data});
            let reply = dev.post_json("/v1/submit", &body);
            let (worker, core) = (Verdict::of(reply.status, &reply.body), native(&body));
            if worker != core {
                differ.push(format!(
                    "{} (valid: {}): worker {worker:?}, core {core:?}",
                    case.label, case.valid
                ));
            }
        }
    }
    println!(
        "{cases} suite cases through /v1/submit in workerd; {} differ from the core",
        differ.len()
    );
    assert!(
        cases > 4_000,
        "the vendored suite went missing: {cases} cases"
    );
    assert!(
        differ.is_empty(),
        "{} case(s) answered otherwise by the worker:\n{}",
        differ.len(),
        differ.join("\n")
    );
}
