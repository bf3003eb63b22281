//! Bench only: the same core as the worker, in a bare V8 (node), through a
//! small wasm-bindgen entry. `scripts/bench-wasm.sh` builds it with the
//! shipped module's profile and times it with `bench/wasm-node/run.mjs`.
//!
//! The calls mirror the worker shell with KV unbound: a generate request is
//! answered from the isolate's memory when it remembers the spec, else as a
//! miss (`answer(None)`); a submission carries its schema inline. The body
//! goes back to JS as a string, as the shell hands it to a `Response`.
//! `Limits::default()` sizes the spec memory as the worker does by default.
//!
//! Natively this crate compiles to nothing.

#![cfg(target_arch = "wasm32")]

use genui_core::Limits;
use genui_core::{GenerateJob, Outcome, SubmitJob};
use std::sync::atomic::{AtomicU32, Ordering};
use wasm_bindgen::prelude::*;

/// `POST /v1/generate?format=<format>` (empty format: the body's or the
/// default). Returns the response body; [`last_outcome`] tells the status.
#[wasm_bindgen]
pub fn generate(body: &[u8], format: &str) -> String {
    let limits = Limits::default();
    let format = (!format.is_empty()).then_some(format);
    let outcome = match GenerateJob::prepare(body, format, &limits) {
        Ok(job) => job.remembered().unwrap_or_else(|| job.answer(None)),
        Err(e) => Outcome::failed(&e),
    };
    summary(outcome)
}

/// `POST /v1/submit` with the schema inline. Same answer.
#[wasm_bindgen]
pub fn submit(body: &[u8]) -> String {
    let outcome = match SubmitJob::prepare(body, &Limits::default()) {
        Ok(job) => job.answer(None, "bench"),
        Err(e) => Outcome::failed(&e),
    };
    summary(outcome)
}

/// The module's linear memory in bytes (it only grows).
#[wasm_bindgen(js_name = wasmMemoryBytes)]
pub fn wasm_memory_bytes() -> f64 {
    (core::arch::wasm32::memory_size(0) * 65536) as f64
}

/// Whether jsonschema hands out one meta-schema validator per draft for
/// the module's life (the patch in vendor/jsonschema) rather than building
/// one anew on every call, as upstream 0.60 does on wasm: every compile of a
/// new schema checks it against one. `run.mjs` refuses to time a module
/// where this is false.
#[wasm_bindgen(js_name = metaValidatorsShared)]
pub fn meta_validators_shared() -> bool {
    type Handout = fn() -> jsonschema::meta::MetaValidator<'static>;
    let drafts: [Handout; 5] = [
        jsonschema::draft4::meta::validator,
        jsonschema::draft6::meta::validator,
        jsonschema::draft7::meta::validator,
        jsonschema::draft201909::meta::validator,
        jsonschema::draft202012::meta::validator,
    ];
    drafts.iter().all(|handout| {
        let (first, second) = (handout(), handout());
        std::ptr::eq(first.as_ref(), second.as_ref())
    })
}

/// Status of the last call, and 1000 added when it was a hit.
static LAST: AtomicU32 = AtomicU32::new(0);

/// `status + 1000 * hit` of the last call.
#[wasm_bindgen(js_name = lastOutcome)]
pub fn last_outcome() -> u32 {
    LAST.load(Ordering::Relaxed)
}

/// Keeps the status, and hands the body to JS (one copy into a JS string,
/// as the shell hands it to `Response`).
fn summary(outcome: Outcome) -> String {
    let response = outcome.response;
    let hit = response
        .headers
        .iter()
        .any(|(k, v)| k == "x-genui-cache" && v == "hit");
    LAST.store(
        u32::from(response.status) + if hit { 1000 } else { 0 },
        Ordering::Relaxed,
    );
    response.body
}
