//! The inputs of `scripts/bench-wasm.sh`, and their native timings.
//!
//! `cargo run --profile bench -p genui-core --example wasm_bench -- inputs <corpus dir> <out.json>`
//! writes every request the wasm bench sends, as request bodies, so that the
//! three drivers (workerd over HTTP: `tests/harness/src/bin/bench_wasm.rs`;
//! bare V8: `bench/wasm-node/run.mjs`; natively: `time` below) send the
//! same bytes:
//!
//! - the bench forms of 5, 50 and 500 fields (`benches/support`, the ones
//!   criterion times), by kind (`hit`, `miss`, `coldmiss`, `submit`) and
//!   format (`jsonforms`, `rjsf`, `lmui`, `a2ui`, `react`);
//! - one cold miss per schema of the peer corpus (`bench/peer/corpus.py`);
//! - the worst inputs of issue 13's "Bad input" list, each accepted at the
//!   limit or refused just past it.
//!
//! A body holds the placeholder `@@N@@` where a driver puts a number it has
//! not used before, so that a request is a miss on purpose:
//! - `miss`: a new `description` only. The spec is new, but the schema is
//!   the same, so the isolate's memos of schema digests and compiled
//!   validators answer (what a tool called with one schema many times sees);
//! - `coldmiss`: also a new `$comment` at the schema's root, so the schema's
//!   digest, proof and validator are computed again: nothing is remembered.
//!
//! `... time <inputs.json> <out.json>` drives the core natively the way the
//! worker shell does with KV unbound (the isolate's memory, else
//! `answer(None)`), and writes each call's CPU time (this thread's, from
//! `CLOCK_THREAD_CPUTIME_ID`).
//! Build it with `--profile bench`, the profile criterion uses.

#[path = "../benches/support/mod.rs"]
mod support;

use genui_core::Limits;
use genui_core::{GenerateJob, Outcome, SubmitJob};
use serde_json::{json, Map, Value};
use std::path::Path;

/// Placeholder for a number never used before in the same isolate.
const FRESH: &str = "@@N@@";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["inputs", corpus, out] => write_json(Path::new(out), &inputs(Path::new(corpus))),
        ["time", inputs, out] => {
            let inputs: Value =
                serde_json::from_slice(&std::fs::read(inputs).expect("read inputs"))
                    .expect("inputs are JSON");
            write_json(Path::new(out), &time(&inputs));
        }
        _ => {
            eprintln!(
                "usage: wasm_bench inputs <corpus dir> <out.json> | time <inputs.json> <out.json>"
            );
            std::process::exit(2);
        }
    }
}

fn write_json(path: &Path, value: &Value) {
    std::fs::write(
        path,
        serde_json::to_string_pretty(value).expect("serialises"),
    )
    .expect("write output");
    eprintln!("wasm_bench: wrote {}", path.display());
}

// ------------------------------------------------------------------ inputs

/// One request kind: what the drivers need to send it `n` times. One
/// argument per key of the row the drivers read.
#[allow(clippy::too_many_arguments)] // a table row; a struct would restate its keys
fn case(
    id: String,
    group: &str,
    kind: &str,
    format: &str,
    route: &str,
    body: Value,
    n: usize,
    expect: u16,
) -> Value {
    json!({"id": id, "group": group, "kind": kind, "format": format, "route": route,
           "body": body.to_string(), "n": n, "warmup": (n / 5).max(1), "expect": expect})
}

fn inputs(corpus: &Path) -> Value {
    let mut cases = Vec::new();
    for c in support::cases() {
        let size = support::leaf_count(&c.output, &c.output);
        // Calls per kind: enough for a stable mean, bounded in time (a
        // 500-field miss is about 100 ms in workerd).
        let (n_hit, n_miss) = match size {
            0..=10 => (200, 40),
            11..=100 => (100, 20),
            _ => (20, 6),
        };
        let body = |description: String, fresh_schema: bool| {
            let mut output = c.output.clone();
            if fresh_schema {
                output["$comment"] = json!(FRESH);
            }
            json!({"tool": "generateUserInterface", "toolCallId": "call_bench",
                   "arguments": {"description": description, "data": c.valid, "output": output}})
        };
        for format in ["jsonforms", "rjsf", "lmui", "a2ui", "react"] {
            let id = |kind: &str| format!("{kind}/{format}/{size}");
            cases.push(case(
                id("hit"),
                "forms",
                "hit",
                format,
                "generate",
                body(c.description.to_owned(), false),
                n_hit,
                200,
            ));
            let fresh = format!("{} {FRESH}", c.description);
            cases.push(case(
                id("miss"),
                "forms",
                "miss",
                format,
                "generate",
                body(fresh.clone(), false),
                n_miss,
                200,
            ));
            cases.push(case(
                id("coldmiss"),
                "forms",
                "coldmiss",
                format,
                "generate",
                body(fresh, true),
                n_miss,
                200,
            ));
        }
        let submit = json!({"type": "dgui_response", "toolCallId": "call_bench", "output": c.output, "data": c.valid});
        cases.push(case(
            format!("submit/inline/{size}"),
            "forms",
            "submit",
            "",
            "submit",
            submit,
            n_hit,
            200,
        ));
    }
    cases.extend(worst());
    cases.extend(corpus_cases(corpus));
    json!({"placeholder": FRESH, "cases": cases})
}

/// One request per corpus schema, a cold miss: the drivers send each once
/// per pass, so the figures are a distribution over schemas.
fn corpus_cases(corpus: &Path) -> Vec<Value> {
    let manifest: Value = serde_json::from_slice(
        &std::fs::read(corpus.join("manifest.json")).expect("read manifest.json"),
    )
    .expect("manifest.json is JSON");
    let entries = manifest["schemas"]
        .as_array()
        .expect("manifest lists schemas");
    entries
        .iter()
        .map(|entry| {
            let file = corpus.join(entry["file"].as_str().expect("file"));
            let mut schema: Value = serde_json::from_slice(&std::fs::read(file).expect("read schema")).expect("schema is JSON");
            schema["$comment"] = json!(FRESH);
            let name = entry["name"].as_str().unwrap_or("a form");
            let body = json!({"description": format!("A form for {name}. {FRESH}"), "data": {}, "output": schema});
            // The expected status is whatever the core says natively (some
            // corpus schemas are refused by our limits or proof).
            case(format!("corpus/{}", entry["id"].as_str().expect("id")), "corpus", "coldmiss", "jsonforms", "generate", body, 1, 0)
        })
        .collect()
}

/// The "Bad input" list of issue 13: each at the limit (answered) and just
/// past it (refused early), as cold misses.
fn worst() -> Vec<Value> {
    let limits = Limits::default();
    let gen = |id: &str, output: Value, data: Value, expect: u16, n: usize| {
        let mut output = output;
        output["$comment"] = json!(FRESH);
        let body = json!({"description": format!("{id} {FRESH}"), "data": data, "output": output});
        case(
            format!("worst/{id}"),
            "worst",
            "coldmiss",
            "jsonforms",
            "generate",
            body,
            n,
            expect,
        )
    };
    let object =
        |properties: Map<String, Value>| json!({"type": "object", "properties": properties});
    let strings = |n: usize| {
        (0..n)
            .map(|i| (format!("f{i:04}"), json!({"type": "string"})))
            .collect::<Map<_, _>>()
    };
    let mut out = vec![
        gen(
            "largest-schema-under-limits",
            largest_schema(&limits),
            json!({}),
            200,
            3,
        ),
        gen(
            "5000-properties",
            object(strings(limits.max_controls)),
            json!({}),
            200,
            3,
        ),
        gen(
            "5001-properties",
            object(strings(limits.max_controls + 1)),
            json!({}),
            0,
            3,
        ),
    ];
    let choices = |n: usize| (0..n).map(|i| format!("choice {i}")).collect::<Vec<_>>();
    // Issue 17: an enum over the count limit is a searchable choice while
    // it fits the byte cap (2,000 short values), refused past the cap.
    let long_choices =
        |n: usize, width: usize| (0..n).map(|i| format!("{i:0width$}")).collect::<Vec<_>>();
    let width = limits.max_enum_bytes / (limits.max_enum_values * 2) + 1;
    for (id, n, expect) in [
        ("1000-enum-values", limits.max_enum_values, 200),
        ("1001-enum-values", limits.max_enum_values + 1, 200),
        ("2000-enum-values", 2_000, 200),
    ] {
        let mut p = Map::new();
        p.insert(
            "choice".into(),
            json!({"type": "string", "enum": choices(n)}),
        );
        out.push(gen(id, object(p), json!({}), expect, 5));
    }
    let mut p = Map::new();
    p.insert(
        "choice".into(),
        json!({"type": "string", "enum": long_choices(limits.max_enum_values * 2, width)}),
    );
    out.push(gen("enum-over-byte-cap", object(p), json!({}), 413, 5));
    // A form over the input limit: optional sections reusing a 100-field
    // definition (6,000 inputs) collapse into JSON inputs (issue 17).
    let sections: Map<String, Value> = (0..60)
        .map(|i| {
            (
                format!("s{i:02}"),
                json!({"type": "object", "properties": {"inner": {"$ref": "#/$defs/inner"}}}),
            )
        })
        .collect();
    let mut huge = object(sections);
    huge["$defs"] = json!({"inner": object(strings(100))});
    out.push(gen("6000-inputs-collapsed", huge, json!({}), 200, 3));
    for (id, hops, expect) in [
        ("ref-chain-32", limits.max_ref_chain, 200),
        ("ref-chain-33", limits.max_ref_chain + 1, 0),
    ] {
        out.push(gen(id, ref_chain(hops), json!({}), expect, 5));
    }
    // The ReDoS patterns of the security tests (schema/validate.rs): a
    // nested quantifier, answered in linear time by the regex crate, and a
    // backreference, on the bounded backtracking engine (issue 17).
    let redos =
        json!({"type": "object", "properties": {"code": {"type": "string", "pattern": "^(a+)+$"}}});
    out.push(gen(
        "redos-nested-quantifier",
        redos.clone(),
        json!({}),
        200,
        5,
    ));
    let backref = json!({"type": "object", "properties": {"code": {"type": "string", "pattern": "(a+)+\\1"}}});
    out.push(gen("redos-backreference", backref, json!({}), 200, 5));
    let evil = format!("{}!", "a".repeat(4096));
    let submit = json!({"type": "dgui_response", "toolCallId": "call_bench", "output": redos, "data": {"code": evil}});
    out.push(case(
        "worst/redos-submit-4k-a".into(),
        "worst",
        "submit",
        "",
        "submit",
        submit,
        5,
        0,
    ));
    // Hostile lookaround/backreference patterns (issue 17): the form, and
    // 10,000 hostile strings in one submission against the per-request
    // backtrack budget (every one refused, none hangs).
    let hostile = json!({"type": "object", "properties": {
        "tags": {"type": "array", "items": {"type": "string", "pattern": "^(?:(a)\\1?|a)*b$"}},
        "name": {"type": "string", "pattern": "^(?!(?:a+)+!)(?=.*\\d)(?<=^)[a-z0-9!]*$"},
        "sarif": {"type": "string", "pattern": "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$"}}});
    out.push(gen("hostile-patterns", hostile.clone(), json!({}), 200, 5));
    let tags: Vec<String> = (0..10_000)
        .map(|i| format!("{}!", "a".repeat(30 + i % 10)))
        .collect();
    let submit = json!({"type": "dgui_response", "toolCallId": "call_bench", "output": hostile, "data": {"tags": tags}});
    out.push(case(
        "worst/hostile-submit-10k".into(),
        "worst",
        "submit",
        "",
        "submit",
        submit,
        3,
        422,
    ));
    out
}

/// A flat form of string fields with long descriptions, sized to just
/// under the body limit (and under the property, node and control limits).
fn largest_schema(limits: &Limits) -> Value {
    let fields = limits.max_controls * 4 / 5;
    let per_field = (limits.max_body_bytes - 16 * 1024) / fields;
    let filler =
        "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(per_field / 57 + 1);
    let overhead = r#""f0000":{"type":"string","title":"Field 0000","description":""},"#.len();
    let text = &filler[..per_field.saturating_sub(overhead)];
    let properties: Map<String, Value> = (0..fields)
        .map(|i| {
            (
                format!("f{i:04}"),
                json!({"type": "string", "title": format!("Field {i:04}"), "description": text}),
            )
        })
        .collect();
    json!({"type": "object", "properties": properties})
}

/// A field reached through `hops` `$ref`s: `#/$defs/d0` -> `d1` -> ... -> a string.
fn ref_chain(hops: usize) -> Value {
    let mut defs = Map::new();
    for i in 0..hops - 1 {
        defs.insert(
            format!("d{i}"),
            json!({"$ref": format!("#/$defs/d{}", i + 1)}),
        );
    }
    defs.insert(format!("d{}", hops - 1), json!({"type": "string"}));
    json!({"type": "object", "$defs": defs, "properties": {"x": {"$ref": "#/$defs/d0"}}})
}

// -------------------------------------------------------------------- time

/// This thread's CPU time in nanoseconds: `clock_gettime(CLOCK_THREAD_CPUTIME_ID)`
/// from the C library std already links (Linux; the bench runs there).
/// `/proc/thread-self/schedstat` is not used: for the running thread it
/// lags until the next scheduler tick.
fn thread_cpu_ns() -> u64 {
    #[repr(C)]
    struct Timespec {
        tv_sec: i64,
        tv_nsec: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, tp: *mut Timespec) -> i32;
    }
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    let mut t = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a valid out-pointer to a timespec-shaped struct.
    let rc = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut t) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
}

/// The shell's way through the core with KV unbound: the isolate's memory,
/// else a miss. Returns the status and whether it was a hit.
fn call(route: &str, format: &str, body: &[u8], limits: &Limits) -> (u16, bool) {
    let outcome = if route == "submit" {
        match SubmitJob::prepare(body, limits) {
            Ok(job) => job.answer(None, "bench"),
            Err(e) => Outcome::failed(&e),
        }
    } else {
        let format = (!format.is_empty()).then_some(format);
        match GenerateJob::prepare(body, format, limits) {
            Ok(job) => job.remembered().unwrap_or_else(|| job.answer(None)),
            Err(e) => Outcome::failed(&e),
        }
    };
    let hit = outcome
        .response
        .headers
        .iter()
        .any(|(k, v)| k == "x-genui-cache" && v == "hit");
    std::hint::black_box(&outcome.response.body);
    (outcome.response.status, hit)
}

fn time(inputs: &Value) -> Value {
    let limits = Limits::default();
    let placeholder = inputs["placeholder"].as_str().expect("placeholder");
    let mut fresh = 0u64;
    let mut results = Vec::new();
    for c in inputs["cases"].as_array().expect("cases") {
        let (route, format, body) = (
            c["route"].as_str().unwrap(),
            c["format"].as_str().unwrap(),
            c["body"].as_str().unwrap(),
        );
        let n = c["n"].as_u64().unwrap() as usize;
        let warmup = if c["group"] == "corpus" {
            0
        } else {
            c["warmup"].as_u64().unwrap() as usize
        };
        let mut samples = Vec::with_capacity(n);
        let mut statuses = Map::new();
        let mut hits = 0;
        for i in 0..warmup + n {
            fresh += 1;
            let bytes = body.replace(placeholder, &format!("#{fresh}")).into_bytes();
            let t = thread_cpu_ns();
            let (status, hit) = call(route, format, &bytes, &limits);
            let spent = thread_cpu_ns() - t;
            if i >= warmup {
                samples.push(spent as f64 / 1e6);
                *statuses.entry(status.to_string()).or_insert(json!(0)) = json!(
                    statuses
                        .get(&status.to_string())
                        .and_then(Value::as_u64)
                        .unwrap_or(0)
                        + 1
                );
                hits += usize::from(hit);
            }
        }
        results.push(json!({"id": c["id"], "ms": samples, "status": statuses, "hits": hits}));
    }
    json!({"driver": "native", "profile": "bench (the release profile's opt-level, no LTO, 16 codegen units)", "results": results})
}
