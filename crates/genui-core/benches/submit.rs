//! Submission validation, the whole `POST /v1/submit` core path: parse the
//! body, read the cached spec named by `specHash`, validate the data (the
//! compiled validator is memoised per isolate, so this is the warm case),
//! and build the tool message or the error listing.
//!
//! - `submit/valid/<size>`: every field filled correctly;
//! - `submit/invalid/<size>`: every 7th field of the wrong type and one
//!   required field missing, so the time includes listing every violation;
//! - `submit/inline/<size>`: the schema sent inline instead of `specHash`,
//!   which proves and compiles it on every request.

mod support;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use genui_core::Outcome;
use genui_core::SubmitJob;
use std::hint::black_box;

fn run(body: &[u8], cached: Option<&str>) -> Outcome {
    match SubmitJob::prepare(body, &support::limits()) {
        Ok(job) => job.answer(cached, "bench"),
        Err(e) => Outcome::failed(&e),
    }
}

fn submissions(c: &mut Criterion) {
    let mut group = c.benchmark_group("submit");
    for case in support::cases() {
        let prepared = case.prepare();
        let cached = Some(prepared.cached.as_str());
        let valid = case.submit_body(&prepared.spec_hash, &case.valid);
        let invalid = case.submit_body(&prepared.spec_hash, &case.invalid);
        let inline = case.submit_inline_body();
        for (name, body, cached, status) in [
            ("valid", &valid, cached, 200),
            ("invalid", &invalid, cached, 422),
            ("inline", &inline, None, 200),
        ] {
            let outcome = run(body, cached);
            assert_eq!(
                outcome.response.status, status,
                "submit/{name}/{}: {}",
                case.name, outcome.response.body
            );
            group.bench_with_input(BenchmarkId::new(name, case.name), body, |b, body| {
                b.iter(|| run(black_box(body), cached))
            });
        }
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = support::criterion();
    targets = submissions
}
criterion_main!(benches);
