//! The deterministic generator (`genui_core::Plan::generate`): schema in,
//! plan out. The target: a 50-field form (`generate/medium`) in
//! at most 2 ms.

mod support;

use criterion::{criterion_group, criterion_main, Criterion};
use genui_core::Plan;
use std::hint::black_box;

fn generator(c: &mut Criterion) {
    let limits = support::limits();
    let mut group = c.benchmark_group("generate");
    for case in support::cases() {
        case.prepare();
        group.bench_function(case.name, |b| {
            b.iter(|| {
                Plan::generate(
                    black_box(&case.output),
                    black_box(case.description),
                    false,
                    &limits,
                )
                .expect("generates")
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = support::criterion();
    targets = generator
}
criterion_main!(benches);
