//! The cache key: RFC 8785 canonical JSON of the data-free inputs, then
//! SHA-256 (`genui_core::spec::spec_hash`). Every request pays it, hit or miss.

mod support;

use criterion::{criterion_group, criterion_main, Criterion};
use genui_core::spec::spec_hash;
use std::hint::black_box;

fn hash(c: &mut Criterion) {
    let generator = support::generator();
    let mut group = c.benchmark_group("hash");
    for case in support::cases() {
        case.prepare();
        group.bench_function(case.name, |b| {
            b.iter(|| spec_hash(black_box(&case.output), black_box(case.description), false, &generator).expect("hashes"))
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
