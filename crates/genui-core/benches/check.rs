//! The checker (`genui_core::Plan::check`): proves the generated plan
//! against `output` before it is returned or cached.

mod support;

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

fn checker(c: &mut Criterion) {
    let limits = support::limits();
    let mut group = c.benchmark_group("check");
    for case in support::cases() {
        let prepared = case.prepare();
        group.bench_function(case.name, |b| {
            b.iter(|| {
                let issues = genui_core::Plan::check(
                    black_box(&prepared.plan),
                    black_box(&case.output),
                    &limits,
                );
                debug_assert!(issues.is_empty());
                issues
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = support::criterion();
    targets = checker
}
criterion_main!(benches);
