//! The JSON Schema Test Suite through `/v1/submit`'s code path.
//!
//! Every case of the suite's required tests (tests/vendor/JSON-Schema-Test-Suite,
//! drafts 4, 6, 7, 2019-09 and 2020-12) is posted as `{"output": schema,
//! "data": instance}` to the core's submit ([`SubmitJob`]), exactly as the
//! worker's `/v1/submit` takes it. The draft is told as a caller tells it:
//! the suite's folder names it, so a schema without `$schema` gets that
//! draft's `$schema` at its root (as the suite's official runners do).
//!
//! Each case ends as one of:
//! - agreed: 200 for a valid instance, 422 `submission_invalid` for an invalid one;
//! - remote: the answer names an unchecked place (`metadata.genuiUnchecked`):
//!   a `$ref` to a document the worker does not hold (the suite's `remotes/`,
//!   which the worker never fetches), so the case is not judged; pinned in
//!   `json_schema_suite/remote.txt`, which may shrink but never grow;
//! - format-excepted: a valid instance refused only by `format` (the worker
//!   asserts formats, which the suite leaves to its optional tests);
//! - refused: the schema itself was refused (any other error). This set may
//!   shrink but never grow: it is pinned in `json_schema_suite/refused.txt`
//!   (first computed on the code before references by `$id` were resolved:
//!   114 cases; since then 82, boolean schemas and custom meta-schemas);
//! - disagreed: anything else. There must be none.
//!
//! `cargo test -p genui-core --test json_schema_suite -- --nocapture` prints
//! the table per draft. `GENUI_SUITE_PIN=1` rewrites the pinned lists (refused,
//! remote, format-excepted).

#[path = "json_schema_suite/cases.rs"]
mod cases;

use cases::DRAFTS;
use genui_core::{Limits, SubmitJob};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// How one case ended.
#[derive(Debug, Clone, PartialEq)]
enum Verdict {
    Agreed,
    Disagreed(String),
    Refused(String),
    Remote,
    FormatExcepted,
}

#[derive(Default)]
struct Tally {
    cases: usize,
    agreed: usize,
    refused: Vec<String>,
    remote: Vec<String>,
    format_excepted: Vec<String>,
    disagreed: Vec<String>,
}

fn suite_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/vendor/JSON-Schema-Test-Suite/tests")
}

fn pinned_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/json_schema_suite/refused.txt")
}

/// The cases left unjudged as remote: each names a document of the suite's
/// `remotes/`, which the worker never fetches. Pinned like the refused
/// ones, so a case the worker wrongly leaves unchecked cannot hide there.
fn pinned_remote_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/json_schema_suite/remote.txt")
}

/// The valid instances refused by `format` alone (the worker asserts
/// formats; the suite leaves them to its optional tests). Pinned too, so a
/// format check that starts refusing other valid values fails here.
fn pinned_format_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/json_schema_suite/format-excepted.txt")
}

/// Pinned labels from `path`.
fn pinned(path: &Path) -> BTreeSet<String> {
    std::fs::read_to_string(path)
        .expect("a pinned list")
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Writes labels to a pinned list (`GENUI_SUITE_PIN=1`).
fn pin(path: &Path, labels: &BTreeSet<String>) {
    let text: String = labels.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(path, text).expect("writing a pinned list");
}

/// Posts one case through the core's submit and says how it ended.
fn judge(schema: &Value, data: &Value, valid: bool) -> Verdict {
    let body = serde_json::to_vec(&json!({"output": schema, "data": data})).expect("a JSON body");
    let job = match SubmitJob::prepare(&body, &Limits::default()) {
        Ok(job) => job,
        Err(error) => return Verdict::Refused(format!("{:?}: {}", error.code(), error.message())),
    };
    let response = job.answer(None, "suite").response;
    let answer: Value = serde_json::from_str(&response.body).unwrap_or_default();
    match response.status {
        200 => {
            let marked = answer["metadata"]["genuiUnchecked"]
                .as_array()
                .is_some_and(|p| !p.is_empty());
            if marked
                || response
                    .headers
                    .iter()
                    .any(|(k, _)| k == "x-genui-unchecked")
            {
                Verdict::Remote
            } else if valid {
                Verdict::Agreed
            } else {
                Verdict::Disagreed("accepted an invalid instance".into())
            }
        }
        422 if answer["code"] == "submission_invalid" => {
            let errors = answer["payload"]["errors"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            if !valid {
                Verdict::Agreed
            } else if !errors.is_empty() && errors.iter().all(|e| e["keyword"] == "format") {
                Verdict::FormatExcepted
            } else {
                Verdict::Disagreed(format!("refused a valid instance: {}", answer["message"]))
            }
        }
        status => Verdict::Refused(format!(
            "{status} {}: {}",
            answer["code"], answer["message"]
        )),
    }
}

fn run_draft(folder: &str, meta: &str) -> Tally {
    let mut tally = Tally::default();
    for case in cases::cases(&suite_root(), folder, meta) {
        tally.cases += 1;
        match judge(&case.schema, &case.data, case.valid) {
            Verdict::Agreed => tally.agreed += 1,
            Verdict::Refused(why) => tally.refused.push(format!("{} [{why}]", case.label)),
            Verdict::Remote => tally.remote.push(case.label),
            Verdict::FormatExcepted => tally.format_excepted.push(case.label),
            Verdict::Disagreed(why) => tally.disagreed.push(format!("{}: {why}", case.label)),
        }
    }
    tally
}

/// The label of a refused entry, without the reason in brackets.
fn label_of(entry: &str) -> &str {
    entry.rsplit_once(" [").map_or(entry, |(label, _)| label)
}

#[test]
fn the_suite_agrees_through_submit() {
    let mut refused = BTreeSet::new();
    let mut remote = BTreeSet::new();
    let mut format_excepted = BTreeSet::new();
    let mut disagreed = Vec::new();
    println!("| draft | cases | judged | agreed | agreed % | refused | remote | format-excepted |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for (folder, meta) in DRAFTS {
        let tally = run_draft(folder, meta);
        let judged = tally.agreed + tally.disagreed.len();
        let percent = if judged == 0 {
            100.0
        } else {
            100.0 * tally.agreed as f64 / judged as f64
        };
        println!(
            "| {folder} | {} | {judged} | {} | {percent:.1} | {} | {} | {} |",
            tally.cases,
            tally.agreed,
            tally.refused.len(),
            tally.remote.len(),
            tally.format_excepted.len()
        );
        for list in [
            ("refused", &tally.refused),
            ("remote", &tally.remote),
            ("format-excepted", &tally.format_excepted),
        ] {
            for entry in list.1 {
                eprintln!("{}: {entry}", list.0);
            }
        }
        refused.extend(tally.refused.iter().map(|e| label_of(e).to_owned()));
        remote.extend(tally.remote.iter().cloned());
        format_excepted.extend(tally.format_excepted.iter().cloned());
        disagreed.extend(tally.disagreed);
    }
    if std::env::var_os("GENUI_SUITE_PIN").is_some() {
        pin(&pinned_path(), &refused);
        pin(&pinned_remote_path(), &remote);
        pin(&pinned_format_path(), &format_excepted);
    }
    let pinned_lists = [
        ("refused", &refused, pinned_path()),
        ("left unchecked as remote", &remote, pinned_remote_path()),
        (
            "refused by format alone",
            &format_excepted,
            pinned_format_path(),
        ),
    ];
    for (what, found, path) in pinned_lists {
        let before = pinned(&path);
        let grown: Vec<&String> = found.difference(&before).collect();
        assert!(
            grown.is_empty(),
            "{} case(s) {what} that were not before:\n{}",
            grown.len(),
            grown
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
    assert!(
        disagreed.is_empty(),
        "{} case(s) disagree with the suite:\n{}",
        disagreed.len(),
        disagreed.join("\n")
    );
}
