//! Every answer the core gives over the fixtures and the peer corpus, one
//! file per request, so two revisions can be diffed byte for byte
//! (`scripts/answers-diff.sh` does the diff; issue 14 asks for it):
//!
//! ```text
//! cargo run -p genui-core --example answers -- <out dir> [<corpus dir>] [--cached-from <dir>]
//! ```
//!
//! Requests: every file of `tests/fixtures/{generate,errors,display}/*.json`
//! as a body, and each corpus schema (see `bench/peer/corpus.py`) as
//! `{"output": schema}`. Each request is answered in every format, and the
//! answer file holds, per format: the miss (status, headers, body), the KV
//! write (key and stored spec), the hit answer from that stored spec, and a
//! submission of the request's `data` by `specHash` against it. With
//! `--cached-from`, the hit and the submission read the stored spec another
//! run wrote instead, which proves the stored format is still readable.
//!
//! This file only uses names that every revision since it was written
//! exports, so the diff script can build it against an older base.

use serde_json::{json, Value};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

const FORMATS: [&str; 5] = ["jsonforms", "rjsf", "lmui", "a2ui", "react"];

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let cached_from = match args.iter().position(|a| a == "--cached-from") {
        Some(i) if i + 1 < args.len() => {
            let dir = PathBuf::from(args.remove(i + 1));
            args.remove(i);
            Some(dir)
        }
        Some(_) => usage(),
        None => None,
    };
    let (out, corpus) = match args.as_slice() {
        [out] => (PathBuf::from(out), None),
        [out, corpus] => (PathBuf::from(out), Some(PathBuf::from(corpus))),
        _ => usage(),
    };
    // Every answer must come from the request and the given cache value, not
    // from what an earlier request left in this process's spec memory.
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut count = 0;
    for group in ["generate", "errors", "display"] {
        for (name, body) in json_files(&fixtures.join(group)) {
            count += answer_all(&out, cached_from.as_deref(), group, &name, &body);
        }
    }
    if let Some(corpus) = corpus {
        count += corpus_answers(&out, cached_from.as_deref(), &corpus);
    }
    println!("answers: {count} answer files in {}", out.display());
}

fn usage() -> ! {
    eprintln!("usage: answers <out dir> [<corpus dir>] [--cached-from <dir>]");
    std::process::exit(2);
}

/// The corpus schemas, each sent as `{"output": schema}`.
fn corpus_answers(out: &Path, cached_from: Option<&Path>, corpus: &Path) -> usize {
    let manifest: Value = serde_json::from_slice(&read(&corpus.join("manifest.json")))
        .expect("manifest.json is JSON");
    let mut count = 0;
    for entry in manifest["schemas"]
        .as_array()
        .expect("manifest lists schemas")
    {
        let id = entry["id"].as_str().expect("ids are strings");
        let file = corpus.join(entry["file"].as_str().expect("files are strings"));
        let schema: Value =
            serde_json::from_slice(&read(&file)).expect("the corpus holds only JSON");
        let body = serde_json::to_vec(&json!({"output": schema})).expect("serialises");
        count += answer_all(out, cached_from, "peer", id, &body);
    }
    count
}

/// Writes `<out>/<group>/<name>.txt` with every format's answers.
fn answer_all(
    out: &Path,
    cached_from: Option<&Path>,
    group: &str,
    name: &str,
    body: &[u8],
) -> usize {
    let dir = out.join(group);
    std::fs::create_dir_all(&dir).expect("create out dir");
    let mut text = String::new();
    for format in FORMATS {
        let stored_elsewhere =
            cached_from.map(|d| d.join(group).join(format!("{name}.{format}.spec")));
        answer(
            &mut text,
            &dir,
            name,
            format,
            body,
            stored_elsewhere.as_deref(),
        );
    }
    std::fs::write(dir.join(format!("{name}.txt")), text).expect("write answers");
    1
}

fn answer(
    text: &mut String,
    dir: &Path,
    name: &str,
    format: &str,
    body: &[u8],
    stored_elsewhere: Option<&Path>,
) {
    let limits = forgetful();
    let _ = writeln!(text, "=== {format}");
    let job = match genui_core::GenerateJob::prepare(body, Some(format), &limits) {
        Ok(job) => job,
        Err(e) => {
            let outcome = genui_core::Outcome::failed(&e);
            return response(text, "refused", &outcome.response);
        }
    };
    let spec_hash = job.spec_hash().to_owned();
    let _ = writeln!(text, "--- key {}", job.cache_key());
    let missed = job.answer(None);
    response(text, "miss", &missed.response);
    let Some(put) = missed.cache_put else { return };
    let _ = writeln!(text, "--- stored under {}\n{}", put.key, put.value);
    std::fs::write(dir.join(format!("{name}.{format}.spec")), &put.value).expect("write spec");
    // The hit path reads the stored spec: ours, or the one another revision stored.
    // A request the other revision refused (issue 17 answers more) has no
    // spec stored there: ours stands in, and the diff shows the refusal.
    let stored = match stored_elsewhere.filter(|path| path.exists()) {
        Some(path) => String::from_utf8(read(path)).expect("specs are UTF-8"),
        None => put.value,
    };
    let job = genui_core::GenerateJob::prepare(body, Some(format), &limits)
        .expect("prepared once already");
    response(text, "hit", &job.answer(Some(&stored)).response);
    submit(text, body, &spec_hash, &stored, &limits);
}

/// Submits the request's own `data` against the stored spec.
fn submit(
    text: &mut String,
    body: &[u8],
    spec_hash: &str,
    stored: &str,
    limits: &genui_core::Limits,
) {
    let request: Value = serde_json::from_slice(body).unwrap_or_default();
    let data = request
        .get("data")
        .or_else(|| request.pointer("/arguments/data"))
        .cloned()
        .unwrap_or(json!({}));
    let submission =
        serde_json::to_vec(&json!({"specHash": spec_hash, "data": data})).expect("serialises");
    let outcome = match genui_core::SubmitJob::prepare(&submission, limits) {
        Ok(job) => job.answer(Some(stored), "message-id"),
        Err(e) => genui_core::Outcome::failed(&e),
    };
    response(text, "submit", &outcome.response);
}

fn response(text: &mut String, label: &str, response: &genui_core::HttpResponse) {
    let _ = writeln!(text, "--- {label} {}", response.status);
    for (name, value) in &response.headers {
        let _ = writeln!(text, "{name}: {value}");
    }
    let _ = writeln!(text, "{}", response.body);
}

/// `(file stem, bytes)` of each `*.json` in `dir`, by name.
fn json_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| {
            (
                p.file_stem()
                    .expect("a file name")
                    .to_string_lossy()
                    .into_owned(),
                read(&p),
            )
        })
        .collect();
    files.sort();
    files
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The worker's limits with no memory of specs: every answer comes from
/// the request and the given cache value, not from an earlier request.
fn forgetful() -> genui_core::Limits {
    genui_core::Limits {
        spec_memory_bytes: 0,
        ..genui_core::Limits::default()
    }
}
