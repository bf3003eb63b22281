//! The design measure's bench entry point:
//! `cargo run -p genui-core --example design_score [-- <output file>]`
//! scores the development set (`tests/design/dev/`) and writes the figures,
//! per half and per case, to bench-results/design.md (or the file given).
//!
//! Two answers are scored per case: the deterministic generator's, and the
//! plan laid out exactly as the reference (the generator's controls moved
//! into the reference's sections and rows, titled as the reference), proven
//! and rendered the way the pipeline completes a model's plan: the best a
//! model's plan can do with what a plan can express today.

// The tests' module; this binary reads only part of it.
#[allow(dead_code)]
#[path = "../tests/design/mod.rs"]
mod design;

use design::case::{dev_dir, load};
use design::reference_plan::reference_plan;
use design::report::{cases_table, halves_table, Scored};
use design::seen::{generated, planned};
use std::path::PathBuf;
use std::time::Instant;

/// Where the hand-written part of the report starts: everything from this
/// line on in the file being replaced is kept as it is.
const NOTES_MARKER: &str = "<!-- design_score keeps what follows: written by hand -->";

/// The hand-written notes of the report being replaced, from
/// [`NOTES_MARKER`] on (nothing when there are none).
fn kept_notes(out: &std::path::Path) -> String {
    let old = std::fs::read_to_string(out).unwrap_or_default();
    old.find(NOTES_MARKER)
        .map(|at| format!("\n{}", &old[at..]))
        .unwrap_or_default()
}

fn main() {
    let out = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../bench-results/design.md")
        });
    let started = Instant::now();
    let cases = load(&dev_dir());
    let mut ours = Vec::new();
    let mut laid_out = Vec::new();
    for case in &cases {
        let seen = generated(case);
        let plan = reference_plan(case, &seen.plan);
        ours.push(Scored::new(case, &seen));
        laid_out.push(Scored::new(case, &planned(case, &plan)));
    }
    let elapsed = started.elapsed();
    let held_out = cases.iter().filter(|c| c.held_out).count();
    let report = format!(
        "# Design measure\n\n\
         `cargo run -p genui-core --example design_score` ({} cases: {} tuning, {held_out} held out; {:.2} s for both answers of every case, {} build).\n\
         The measure and the development set are described in docs/design-measure.md; the floors the generator must hold are in \
         crates/genui-core/tests/design_measure.rs.\n\n\
         ## Deterministic generator\n\n{}\n\
         ## The reference layout as a plan\n\n\
         The generator's controls laid out in the reference's sections and rows with its title, proven and rendered as a model's plan \
         is: what a plan can reach today. Option labels and the lead text are not part of a plan, so they stay as the generator's. \
         (A model writes a smaller plan format, without rows inside sections: its figures are in bench-results/design-model.md.)\n\n{}\n\
         ## Deterministic generator, per case\n\n{}",
        cases.len(),
        cases.len() - held_out,
        elapsed.as_secs_f64(),
        if cfg!(debug_assertions) { "debug" } else { "release" },
        halves_table(&ours),
        halves_table(&laid_out),
        cases_table(&ours),
    );
    let report = report + &kept_notes(&out);
    if let Err(e) = std::fs::write(&out, report) {
        eprintln!("design_score: cannot write {}: {e}", out.display());
        std::process::exit(1);
    }
    println!("{}", halves_table(&ours));
    println!("wrote {}", out.display());
}
