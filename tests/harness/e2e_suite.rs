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

use genui_core::{HttpResponse, Limits, SubmitJob};
use genui_harness::{project_root, Options, WranglerDev};
use serde_json::{json, Value};
use std::path::PathBuf;

/// The suite's draft folders, and the `$schema` a caller names each with.
const DRAFTS: [(&str, &str); 5] = [
    ("draft4", "http://json-schema.org/draft-04/schema#"),
    ("draft6", "http://json-schema.org/draft-06/schema#"),
    ("draft7", "http://json-schema.org/draft-07/schema#"),
    ("draft2019-09", "https://json-schema.org/draft/2019-09/schema"),
    ("draft2020-12", "https://json-schema.org/draft/2020-12/schema"),
];

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
        Verdict { status, code: answer["code"].clone(), unchecked: answer["metadata"]["genuiUnchecked"].clone() }
    }
}

/// The schema as a caller names its draft: `$schema` added at an object root without one.
fn with_draft(schema: &Value, meta: &str) -> Value {
    match schema {
        Value::Object(map) if !map.contains_key("$schema") => {
            let mut map = map.clone();
            map.insert("$schema".into(), meta.into());
            Value::Object(map)
        }
        other => other.clone(),
    }
}

/// The native core's answer to one submission body.
fn native(body: &Value) -> Verdict {
    let bytes = serde_json::to_vec(body).expect("a JSON body");
    let response = match SubmitJob::prepare(&bytes, &Limits::default()) {
        Ok(job) => job.finish(None, "suite").response,
        Err(error) => HttpResponse::error(&error),
    };
    Verdict::of(response.status, &response.body)
}

fn draft_files(folder: &str) -> Vec<PathBuf> {
    let dir = project_root().join("tests/vendor/JSON-Schema-Test-Suite/tests").join(folder);
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir).expect("the vendored suite").flatten().map(|e| e.path()).collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "json"));
    files.sort();
    files
}

#[test]
#[ignore = "needs wrangler dev"]
fn the_worker_judges_the_suite_as_the_core_does() {
    let dev = WranglerDev::start(Options::default()).unwrap_or_else(|e| panic!("{e}"));
    let (mut cases, mut differ) = (0usize, Vec::new());
    for (folder, meta) in DRAFTS {
        for file in draft_files(folder) {
            let groups: Value = serde_json::from_slice(&std::fs::read(&file).expect("a suite file")).expect("suite JSON");
            let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            for group in groups.as_array().into_iter().flatten() {
                let schema = with_draft(&group["schema"], meta);
                for case in group["tests"].as_array().into_iter().flatten() {
                    cases += 1;
                    let body = json!({"output": schema, "data": case["data"]});
                    let reply = dev.post_json("/v1/submit", &body);
                    let (worker, core) = (Verdict::of(reply.status, &reply.body), native(&body));
                    if worker != core {
                        differ.push(format!("{folder}/{name} :: {} :: {}: worker {worker:?}, core {core:?}", group["description"], case["description"]));
                    }
                }
            }
        }
    }
    println!("{cases} suite cases through /v1/submit in workerd; {} differ from the core", differ.len());
    assert!(cases > 4_000, "the vendored suite went missing: {cases} cases");
    assert!(differ.is_empty(), "{} case(s) answered otherwise by the worker:\n{}", differ.len(), differ.join("\n"));
}
