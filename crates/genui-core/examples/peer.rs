//! Ours, for the peer comparison against `@jsonforms/core` (scripts/peer.sh):
//! `cargo run --release -p genui-core --example peer -- <corpus dir> <run dir>`.
//!
//! For each schema of `<corpus dir>/manifest.json` (parsed once, outside the
//! timing, as theirs is) it times two things with the same method as
//! `bench/peer/timing.mjs` (same constants):
//!
//! - `generate`: the work equivalent to `Generate.uiSchema`: the
//!   deterministic plan ([`genui_core::Plan::generate`]) compiled to a
//!   JSON Forms uiSchema ([`genui_core::Plan::jsonforms_ui_schema`]);
//! - `pipeline`: what the worker does on a cache miss, from the request
//!   bytes `{"output": schema}` to the response body: limits, parsing,
//!   hashing, schema proof (meta-schema, references, compile), generation,
//!   plan check, contract checks, rendering.
//!
//! A schema we refuse is a failure with its `dgui_error` code. Results go to
//! `<run dir>/ours.json`, uiSchemas to `<run dir>/ours-ui/<id>.json`
//! (report.mjs measures both generators' uiSchemas with one set of rules).

use genui_core::{Error, GenerateJob, Limits, Plan};
use serde_json::{json, Value};
use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

// The same constants as bench/peer/timing.mjs.
const WARMUP: usize = 5;
const SAMPLES: usize = 15;
const SAMPLE_TARGET_NS: f64 = 100_000.0;
const MAX_REPS: usize = 10_000;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [corpus, run] = args.as_slice() else {
        eprintln!("usage: peer <corpus dir> <run dir>");
        std::process::exit(2);
    };
    let (corpus, run) = (Path::new(corpus), Path::new(run));
    let manifest: Value = serde_json::from_slice(&read(&corpus.join("manifest.json")))
        .expect("manifest.json is JSON");
    std::fs::create_dir_all(run.join("ours-ui")).expect("create run dir");
    let limits = forgetful();
    // The pipeline figure is a cache miss: with the isolate's spec memory on,
    // every repetition after the first would be a remembered hit.
    let results: Vec<Value> = manifest["schemas"]
        .as_array()
        .expect("manifest lists schemas")
        .iter()
        .map(|entry| one_schema(corpus, run, entry, &limits))
        .collect();
    let failed = results.iter().filter(|r| r.get("error").is_some()).count();
    let out =
        json!({"generator": "genui-core deterministic", "profile": profile(), "results": results});
    std::fs::write(run.join("ours.json"), out.to_string()).expect("write ours.json");
    println!(
        "ours: {} schemas, {failed} failed in generate -> {}",
        results.len(),
        run.join("ours.json").display()
    );
    // A plan that fails our own checker is a 500 a user would hit: a bug,
    // not a result (tests/peer_corpus.rs checks the same without timing).
    let internal: Vec<&str> = results
        .iter()
        .filter(|r| r["pipelineError"] == "internal_error")
        .filter_map(|r| r["id"].as_str())
        .collect();
    if !internal.is_empty() {
        eprintln!(
            "peer: internal_error (plan failed our checker) on {}: {}",
            internal.len(),
            internal.join(", ")
        );
        std::process::exit(1);
    }
}

/// Times one schema both ways and keeps its uiSchema.
fn one_schema(corpus: &Path, run: &Path, entry: &Value, limits: &Limits) -> Value {
    let id = entry["id"].as_str().expect("manifest ids are strings");
    let text = read(&corpus.join(entry["file"].as_str().expect("manifest files are strings")));
    let schema: Value = serde_json::from_slice(&text).expect("the corpus holds only valid JSON");
    let mut record = json!({"id": id});
    match generate_ui(&schema, limits) {
        Ok(ui) => {
            std::fs::write(
                run.join("ours-ui").join(format!("{id}.json")),
                ui.to_string(),
            )
            .expect("write uiSchema");
            let (ns, reps) = median_ns(|| generate_ui(&schema, limits));
            record["ns"] = json!(ns);
            record["reps"] = json!(reps);
        }
        Err(error) => record["error"] = json!(error.code().as_str()),
    }
    if std::env::var_os("PEER_SKIP_PIPELINE").is_some() {
        return record; // for profiling the generator alone
    }
    let body = serde_json::to_vec(&json!({"output": schema})).expect("serialises");
    match pipeline(&body, limits) {
        Ok(()) => record["pipelineNs"] = json!(median_ns(|| pipeline(&body, limits)).0),
        Err((code, detail)) => {
            record["pipelineError"] = json!(code);
            if code == "internal_error" {
                record["pipelineDetail"] = detail; // a bug of ours: keep what the checker said
            }
        }
    }
    record
}

/// Plan + uiSchema: the equivalent of `Generate.uiSchema`.
fn generate_ui(schema: &Value, limits: &Limits) -> Result<Value, Error> {
    let plan = Plan::generate(schema, "", false, limits)?;
    Ok(plan.jsonforms_ui_schema())
}

/// The worker's cache-miss path, bytes in, response body out. An error is
/// its code and the `dgui_error` payload.
fn pipeline(body: &[u8], limits: &Limits) -> Result<(), (String, Value)> {
    let outcome = match GenerateJob::prepare(body, None, limits) {
        Ok(job) => job.answer(None),
        Err(e) => return Err((e.code().as_str().to_owned(), Value::Null)),
    };
    if outcome.response.status == 200 {
        black_box(outcome.response.body);
        return Ok(());
    }
    let error: Value = serde_json::from_str(&outcome.response.body).unwrap_or_default();
    Err((
        error["code"].as_str().unwrap_or("unknown").to_owned(),
        error["payload"].clone(),
    ))
}

/// Median nanoseconds per call, as bench/peer/timing.mjs measures it.
fn median_ns<T>(mut f: impl FnMut() -> T) -> (f64, usize) {
    for _ in 0..WARMUP {
        black_box(f());
    }
    let start = Instant::now();
    black_box(f());
    let once = start.elapsed().as_nanos().max(1) as f64;
    let reps = ((SAMPLE_TARGET_NS / once).ceil() as usize).clamp(1, MAX_REPS);
    let mut samples: Vec<f64> = (0..SAMPLES)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..reps {
                black_box(f());
            }
            start.elapsed().as_nanos() as f64 / reps as f64
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    (samples[SAMPLES / 2], reps)
}

fn profile() -> &'static str {
    if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    }
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The worker's limits with no memory of specs: every answer comes from
/// the request and the given cache value, not from an earlier request.
fn forgetful() -> Limits {
    Limits {
        spec_memory_bytes: 0,
        ..Limits::default()
    }
}
