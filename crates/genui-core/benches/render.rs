//! The format compilers, spec (with initial data) in, the answer's JSON
//! text out, as the service sends it (`Format::render_text`):
//! `render/{jsonforms,rjsf,lmui,a2ui,react}/<size>`. Each response is also validated
//! against its published contract by the service; `render/contract/<size>`
//! times that check for the JSON Forms answer.

mod support;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use genui_core::Format;
use std::hint::black_box;

fn compilers(c: &mut Criterion) {
    let mut group = c.benchmark_group("render");
    for case in support::cases() {
        let prepared = case.prepare();
        for (name, format) in [
            ("jsonforms", Format::JsonForms),
            ("rjsf", Format::Rjsf),
            ("lmui", Format::Lmui),
            ("a2ui", Format::A2ui(Default::default())),
            ("react", Format::React),
        ] {
            let rendered =
                prepared
                    .spec
                    .render_input(&case.valid, Some(&prepared.validator), prepared.meta());
            assert_eq!(rendered.initial_data, prepared.initial_data);
            let message = format.render(&rendered);
            format
                .contract()
                .check(&message)
                .unwrap_or_else(|why| panic!("{name}/{}: {why}", case.name));
            group.bench_with_input(
                BenchmarkId::new(name, case.name),
                &rendered,
                |b, rendered| b.iter(|| format.render_text(black_box(rendered))),
            );
        }
        let input =
            prepared
                .spec
                .render_input(&case.valid, Some(&prepared.validator), prepared.meta());
        let message = Format::JsonForms.render(&input);
        let contract = Format::JsonForms.contract();
        group.bench_with_input(
            BenchmarkId::new("contract", case.name),
            &message,
            |b, message| {
                b.iter(|| {
                    contract
                        .check(black_box(message))
                        .expect("meets the contract")
                })
            },
        );
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = support::criterion();
    targets = compilers
}
criterion_main!(benches);
