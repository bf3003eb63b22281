//! The cache key (`GeneratorId::spec_hash`): SHA-256 of a small canonical
//! envelope holding the SHA-256 of `output`'s canonical JSON (RFC 8785 with
//! exact integers, `cache/canonical.rs`). Every request pays it, hit or
//! miss. Two cases per size:
//!
//! - `hash/<size>`: a form this isolate has seen (the canonical digest is
//!   remembered by the digest of the exact bytes; canonicalisation is skipped);
//! - `hash_fresh/<size>`: a form it has not (the memo is emptied first, so
//!   canonicalisation runs, as on the first request for a form in a new
//!   isolate).

mod support;

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

fn hash(c: &mut Criterion) {
    let generator = support::generator();
    let mut group = c.benchmark_group("hash");
    for case in support::cases() {
        case.prepare();
        group.bench_function(case.name, |b| {
            b.iter(|| {
                generator
                    .spec_hash(black_box(&case.output), black_box(case.description))
                    .expect("hashes")
            })
        });
    }
    group.finish();
    let mut group = c.benchmark_group("hash_fresh");
    for case in support::cases() {
        group.bench_function(case.name, |b| {
            b.iter(|| {
                genui_core::GeneratorId::forget_digests();
                generator
                    .spec_hash(black_box(&case.output), black_box(case.description))
                    .expect("hashes")
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = support::criterion();
    targets = hash
}
criterion_main!(benches);
