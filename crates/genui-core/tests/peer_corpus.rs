//! The peer benchmark's real-world corpus (~480 SchemaStore schemas, see
//! scripts/peer.sh and bench/peer/corpus.py) through the worker's whole
//! cache-miss path. A generated plan that fails our own checker is a 500
//! `internal_error` a user would hit, so none may.
//!
//! The corpus is downloaded, never committed, so this test is ignored by
//! default: `cargo test -p genui-core --test peer_corpus -- --ignored`
//! (`PEER_CORPUS=<dir>` for a corpus elsewhere than `target/peer-corpus`).

use genui_core::GenerateJob;
use genui_core::Limits;
use serde_json::{json, Value};
use std::path::PathBuf;

fn corpus_dir() -> PathBuf {
    match std::env::var_os("PEER_CORPUS") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/peer-corpus"),
    }
}

#[test]
#[ignore = "needs the downloaded corpus: ./scripts/peer.sh fetches it"]
fn no_generated_plan_fails_the_checker() {
    let dir = corpus_dir();
    let manifest = std::fs::read(dir.join("manifest.json")).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run ./scripts/peer.sh once, or set PEER_CORPUS)",
            dir.display()
        )
    });
    let manifest: Value = serde_json::from_slice(&manifest).unwrap();
    let limits = Limits::default();
    let mut failures = Vec::new();
    let entries = manifest["schemas"].as_array().unwrap();
    for entry in entries {
        let schema: Value = serde_json::from_slice(
            &std::fs::read(dir.join(entry["file"].as_str().unwrap())).unwrap(),
        )
        .unwrap();
        let body = serde_json::to_vec(&json!({"output": schema})).unwrap();
        let Ok(job) = GenerateJob::prepare(&body, None, &limits) else {
            continue;
        }; // refused as a 4xx: not our bug
        let outcome = job.answer(None);
        let error: Value = serde_json::from_str(&outcome.response.body).unwrap_or_default();
        if error["code"] == "internal_error" {
            let first = &error["payload"]["issues"][0];
            failures.push(format!("{} ({}): {first}", entry["name"], entry["id"]));
        }
    }
    assert!(
        entries.len() > 100,
        "the corpus looks truncated: {} schemas",
        entries.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} schemas fail our own checker:\n{}",
        failures.len(),
        entries.len(),
        failures.join("\n")
    );
}

/// Issue 17's measure: how many corpus schemas get a form, and every
/// refusal with its code and reason, as markdown on stdout
/// (`-- --ignored --nocapture refusals_by_code`; bench-results/corpus.md).
#[test]
#[ignore = "needs the downloaded corpus: ./scripts/peer.sh fetches it"]
fn refusals_by_code() {
    let dir = corpus_dir();
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).expect("corpus manifest"))
            .unwrap();
    let limits = Limits::default();
    let entries = manifest["schemas"].as_array().unwrap();
    let (mut forms, mut refusals) = (0usize, Vec::new());
    let mut by_code = std::collections::BTreeMap::<String, usize>::new();
    for entry in entries {
        let schema: Value = serde_json::from_slice(
            &std::fs::read(dir.join(entry["file"].as_str().unwrap())).unwrap(),
        )
        .unwrap();
        let body = serde_json::to_vec(&json!({"output": schema})).unwrap();
        let outcome = match GenerateJob::prepare(&body, None, &limits) {
            Ok(job) => job.answer(None),
            Err(e) => genui_core::Outcome::failed(&e),
        };
        if outcome.response.status == 200 {
            forms += 1;
            continue;
        }
        let error: Value = serde_json::from_str(&outcome.response.body).unwrap_or_default();
        let code = error["code"].as_str().unwrap_or("?").to_owned();
        *by_code.entry(code.clone()).or_default() += 1;
        let message = error["message"]
            .as_str()
            .unwrap_or_default()
            .replace('|', "\\|")
            .chars()
            .take(160)
            .collect::<String>();
        refusals.push(format!(
            "| {} | `{code}` ({}) | {message} |",
            entry["name"].as_str().unwrap_or("?"),
            outcome.response.status
        ));
    }
    let share = 100.0 * forms as f64 / entries.len() as f64;
    println!("forms: {forms} of {} ({share:.1} %)\n", entries.len());
    println!("| code | count |\n|---|---:|");
    for (code, n) in &by_code {
        println!("| `{code}` | {n} |");
    }
    println!(
        "\n| schema | refusal | reason |\n|---|---|---|\n{}",
        refusals.join("\n")
    );
    assert!(
        !by_code.contains_key("internal_error"),
        "internal errors in the corpus"
    );
}

/// Every corpus schema through the deterministic generator in every
/// format: a form or a refusal of the schema, never a 500
/// (`-- --ignored every_format`; `PEER_CORPUS_EVERY=10` takes every tenth
/// schema, a deterministic sample, since the whole corpus in six formats
/// takes long on a small machine).
#[test]
#[ignore = "needs the downloaded corpus: ./scripts/peer.sh fetches it"]
fn every_format_answers_without_internal_error() {
    let dir = corpus_dir();
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).expect("corpus manifest"))
            .unwrap();
    let limits = Limits::default();
    let entries = manifest["schemas"].as_array().unwrap();
    let every: usize = std::env::var("PEER_CORPUS_EVERY")
        .ok()
        .and_then(|n| n.parse().ok())
        .filter(|n| *n > 0)
        .unwrap_or(1);
    let mut failures = Vec::new();
    for entry in entries.iter().step_by(every) {
        let schema: Value = serde_json::from_slice(
            &std::fs::read(dir.join(entry["file"].as_str().unwrap())).unwrap(),
        )
        .unwrap();
        for format in genui_core::Format::names() {
            let body = serde_json::to_vec(&json!({"output": schema, "format": format})).unwrap();
            let outcome = match GenerateJob::prepare(&body, None, &limits) {
                Ok(job) => job.answer(None),
                Err(e) => genui_core::Outcome::failed(&e),
            };
            if outcome.response.status >= 500 {
                let body: String = outcome.response.body.chars().take(300).collect();
                failures.push(format!(
                    "{} ({}) as {format}: {} {body}",
                    entry["name"], entry["id"], outcome.response.status
                ));
            }
        }
    }
    assert!(
        entries.len() > 100,
        "the corpus looks truncated: {} schemas",
        entries.len()
    );
    assert!(
        failures.is_empty(),
        "{} answers of {} schemas were 500s:\n{}",
        failures.len(),
        entries.len(),
        failures.join("\n")
    );
}
