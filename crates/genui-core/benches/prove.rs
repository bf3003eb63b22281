//! The schema proof on a miss (`SchemaDoc::check_output`): the
//! meta-schema check, the `$ref` walk, and compiling the `output` validator.

mod support;

use criterion::{criterion_group, criterion_main, Criterion};
use genui_core::SchemaDoc;
use std::hint::black_box;

fn prove(c: &mut Criterion) {
    let limits = support::limits();
    let mut group = c.benchmark_group("prove");
    for case in support::cases() {
        case.prepare();
        group.bench_function(case.name, |b| {
            b.iter(|| {
                SchemaDoc::check_output(black_box(&case.output), "/output", &limits)
                    .expect("proves")
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = support::criterion();
    targets = prove
}
criterion_main!(benches);
