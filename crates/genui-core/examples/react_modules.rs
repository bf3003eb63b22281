//! Writes the `format=react` module of each request file, for the
//! toolchain tests in `tests/react/`: `cargo run -p genui-core --example
//! react_modules -- <out dir> <request.json>...`. For `x.json` it writes
//! `x.tsx` (the module) and `x.case.json` (`output`, `initialData`,
//! `meta.warnings`), with no worker and no KV. A request the worker
//! refuses (4xx) is skipped; any other missing module fails.

use serde_json::{json, Value};
use std::path::Path;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(out_dir) = args.next() else {
        eprintln!("usage: react_modules <out dir> <request.json>...");
        std::process::exit(2);
    };
    let limits = genui_core::Limits::default();
    let mut failed = false;
    for path in args {
        let stem = Path::new(&path)
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("form")
            .to_owned();
        let body = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let outcome = match genui_core::GenerateJob::prepare(&body, Some("react"), &limits) {
            Ok(job) => job.answer(None),
            Err(e) => genui_core::Outcome::failed(&e),
        };
        let answer: Value = serde_json::from_str(&outcome.response.body).unwrap_or(Value::Null);
        if (400..500).contains(&outcome.response.status) {
            // Refused with its code (too large, invalid): no module, as it should be.
            eprintln!("{path}: refused: {}", answer["code"]);
            continue;
        }
        let Some(module) = answer.get("module").and_then(Value::as_str) else {
            eprintln!("{path}: no module: {}", outcome.response.body);
            failed = true;
            continue;
        };
        let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        let output = request
            .pointer("/arguments/output")
            .or_else(|| request.get("output"))
            .cloned()
            .unwrap_or(Value::Null);
        let case = json!({
            "name": stem,
            "fileName": answer["fileName"],
            "output": output,
            "initialData": answer["initialData"],
            "warnings": answer.pointer("/meta/warnings").cloned().unwrap_or(json!([])),
            "specHash": answer.pointer("/meta/specHash"),
        });
        let dir = Path::new(&out_dir);
        std::fs::write(dir.join(format!("{stem}.tsx")), module)
            .unwrap_or_else(|e| panic!("{out_dir}: {e}"));
        std::fs::write(
            dir.join(format!("{stem}.case.json")),
            serde_json::to_string_pretty(&case).unwrap_or_default(),
        )
        .unwrap_or_else(|e| panic!("{out_dir}: {e}"));
    }
    if failed {
        std::process::exit(1);
    }
}
