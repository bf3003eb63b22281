//! The design measure's tables: per case, and summed per half of the
//! development set (tuning, held out).

use super::case::Case;
use super::score::{ratio, Scores};
use super::seen::Seen;
use std::fmt::Write;

/// One case's scores.
#[derive(Debug, Clone)]
pub struct Scored {
    pub name: String,
    pub held_out: bool,
    /// The round the case joined the set in (`Case::added_for`).
    pub added_for: Option<String>,
    /// The title shown.
    pub title: Option<String>,
    pub scores: Scores,
}

impl Scored {
    /// Scores one answer to a case.
    pub fn new(case: &Case, seen: &Seen) -> Self {
        let scores = super::score::score(case, seen);
        Self {
            name: case.name.clone(),
            held_out: case.held_out,
            added_for: case.added_for.clone(),
            title: seen.title.clone(),
            scores,
        }
    }
}

/// One half's figures: section F1 is the mean over cases; rows and order
/// are pooled over the half's pairs; the rest are counts.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Summary {
    pub cases: usize,
    pub mean_section_f1: f64,
    pub row_pairs_kept: usize,
    pub row_pairs: usize,
    pub extra_row_pairs: usize,
    pub raw_labels: usize,
    pub options: usize,
    pub title_echoes: usize,
    pub titles_missing: usize,
    pub lead_echoes: usize,
    pub order_kept: usize,
    pub order_pairs: usize,
    pub missing_fields: usize,
}

impl Summary {
    /// The figures of the cases in one half.
    pub fn of(scored: &[Scored], held_out: bool) -> Self {
        Self::of_cases(scored.iter().filter(|s| s.held_out == held_out))
    }

    /// The figures of the cases of one half that joined the set in one
    /// round (`None`: the first rounds' cases).
    pub fn of_round(scored: &[Scored], held_out: bool, added_for: Option<&str>) -> Self {
        Self::of_cases(
            scored
                .iter()
                .filter(|s| s.held_out == held_out && s.added_for.as_deref() == added_for),
        )
    }

    /// The figures of the whole set.
    pub fn of_all(scored: &[Scored]) -> Self {
        Self::of_cases(scored.iter())
    }

    fn of_cases<'a>(cases: impl Iterator<Item = &'a Scored>) -> Self {
        let half: Vec<&Scores> = cases.map(|s| &s.scores).collect();
        let sum = |f: fn(&Scores) -> usize| half.iter().map(|s| f(s)).sum::<usize>();
        Summary {
            cases: half.len(),
            mean_section_f1: half.iter().map(|s| s.section_f1).sum::<f64>()
                / half.len().max(1) as f64,
            row_pairs_kept: sum(|s| s.row_pairs_kept),
            row_pairs: sum(|s| s.row_pairs),
            extra_row_pairs: sum(|s| s.extra_row_pairs),
            raw_labels: sum(|s| s.raw_labels),
            options: sum(|s| s.options),
            title_echoes: sum(|s| usize::from(s.title_echoes)),
            titles_missing: sum(|s| usize::from(s.title_missing)),
            lead_echoes: sum(|s| usize::from(s.lead_echoes)),
            order_kept: sum(|s| s.order_kept),
            order_pairs: sum(|s| s.order_pairs),
            missing_fields: sum(|s| s.missing_fields),
        }
    }

    /// Share of the reference's side-by-side pairs kept, in per cent.
    pub fn rows_percent(&self) -> f64 {
        100.0 * ratio(self.row_pairs_kept, self.row_pairs)
    }

    /// Share of order pairs kept.
    pub fn order(&self) -> f64 {
        ratio(self.order_kept, self.order_pairs)
    }
}

/// The two halves as a Markdown table, one line per half, then the whole
/// set, then each half split by the round its cases joined the set in.
pub fn halves_table(scored: &[Scored]) -> String {
    let mut out = String::from(
        "| half | cases | section F1 (mean) | side-by-side pairs kept | extra row pairs | raw option labels | echoing titles | no title | echoing leads | order | missing fields |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for (name, held_out) in [("tuning", false), ("held out", true)] {
        summary_line(&mut out, name, &Summary::of(scored, held_out));
    }
    let rounds = rounds(scored);
    if rounds.len() > 1 {
        summary_line(&mut out, "whole set", &Summary::of_all(scored));
        for (name, held_out) in [("tuning", false), ("held out", true)] {
            for round in &rounds {
                let label = match round {
                    Some(version) => format!("{name}, added for {version}"),
                    None => format!("{name}, first rounds"),
                };
                summary_line(
                    &mut out,
                    &label,
                    &Summary::of_round(scored, held_out, round.as_deref()),
                );
            }
        }
    }
    out
}

/// The rounds the cases joined the set in, the first rounds first, then by
/// version number (1.9.0 before 1.10.0).
fn rounds(scored: &[Scored]) -> Vec<Option<String>> {
    let mut rounds: Vec<Option<String>> = scored.iter().map(|s| s.added_for.clone()).collect();
    rounds.sort_by_key(|round| round.as_deref().map(version_numbers));
    rounds.dedup();
    rounds
}

/// `1.10.0` -> `[1, 10, 0]`, so versions sort as numbers.
fn version_numbers(version: &str) -> Vec<u32> {
    version.split('.').filter_map(|n| n.parse().ok()).collect()
}

fn summary_line(out: &mut String, name: &str, s: &Summary) {
    let _ = writeln!(
        out,
        "| {name} | {} | {:.3} | {}/{} ({:.1} %) | {} | {}/{} | {}/{} | {}/{} | {}/{} | {:.3} ({}/{}) | {} |",
        s.cases,
        s.mean_section_f1,
        s.row_pairs_kept,
        s.row_pairs,
        s.rows_percent(),
        s.extra_row_pairs,
        s.raw_labels,
        s.options,
        s.title_echoes,
        s.cases,
        s.titles_missing,
        s.cases,
        s.lead_echoes,
        s.cases,
        s.order(),
        s.order_kept,
        s.order_pairs,
        s.missing_fields
    );
}

/// One line per case, as a Markdown table. A held-out case is named, so
/// no one tunes on its file, but its figures are not shown: the held-out
/// half is read only as a whole.
pub fn cases_table(scored: &[Scored]) -> String {
    let mut out = String::from(
        "| case | half | section F1 | pairs kept | extra pairs | raw labels | title shown | title echoes | lead echoes | order |\n|---|---|---:|---:|---:|---:|---|---|---|---:|\n",
    );
    for s in scored {
        if s.held_out {
            let _ = writeln!(
                out,
                "| {} | held out | – | – | – | – | – | – | – | – |",
                s.name
            );
        } else {
            case_line(&mut out, s);
        }
    }
    out
}

fn case_line(out: &mut String, s: &Scored) {
    let c = &s.scores;
    let yes = |b: bool| if b { "yes" } else { "no" };
    let _ = writeln!(
        out,
        "| {} | tuning | {:.3} | {}/{} | {} | {}/{} | {} | {} | {} | {:.3} |",
        s.name,
        c.section_f1,
        c.row_pairs_kept,
        c.row_pairs,
        c.extra_row_pairs,
        c.raw_labels,
        c.options,
        s.title.as_deref().unwrap_or("(none)").replace('|', "\\|"),
        yes(c.title_echoes),
        yes(c.lead_echoes),
        c.order()
    );
}
