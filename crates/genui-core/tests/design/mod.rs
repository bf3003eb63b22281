//! The design measure: a development set of agent requests with reference
//! designs (`dev/`), what a person sees of an answer ([`seen`]), the
//! scorer ([`score`], with the text rules in [`rules`]) and the tables
//! ([`report`]). Used by `tests/design.rs` (regression floors) and
//! `examples/design_score.rs` (bench-results/design.md).

pub mod case;
pub mod reference_plan;
pub mod report;
pub mod rules;
pub mod score;
pub mod seen;
