//! Options written as the initials of the field's own name and a number,
//! named by that name: `S1` in a `severity` field -> "Severity 1", `P0` in
//! `priority` -> "Priority 0", `FY2026` in `fiscal_year` -> "Fiscal year
//! 2026", `T2` in a `support_tier` field -> "Tier 2" (the initials of the
//! name's last words).
//!
//! Only where every value (beside an "Other", [`super::is_escape`]) is the
//! same initials and a number: a code list whose letters say something the
//! field's name does not (`LON1`, `CS101`) keeps its codes. Nor where two
//! values would read the same (`P1` and `p1`), or where the name's last
//! word says the value is a name ([`NAMED_BY_CODE`]: `M3` in a `model`
//! field, `v2` in `api_version`).

use super::FieldHints;
use crate::plan::generate::labels::{humanize, words};
use std::collections::HashSet;

/// Last words of a field's name whose values are names of their own: a
/// product's model (`M3`), a version or release (`v2`, `R12`), an edition,
/// a build. People know such a value as it is written; "Model 3" or
/// "Version 2" would be another name for it. (A rank or level, such as a
/// severity, priority, tier or fiscal year, is read by its number.)
const NAMED_BY_CODE: [&str; 9] = [
    "model", "version", "release", "revision", "edition", "build", "variant", "series", "firmware",
];

/// The words a field's options are numbered by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Numbered {
    /// The initials, in capitals (`FY`).
    initials: String,
    /// The words they stand for, as a label shows them ("Fiscal year").
    name: String,
}

impl Numbered {
    /// The numbering of a field, if its title's or its name's last words
    /// have as initials the letters every one of its `values` opens with.
    pub(super) fn of_field<'v>(
        hints: FieldHints<'_>,
        values: impl Iterator<Item = &'v str> + Clone,
    ) -> Option<Self> {
        let numbered: Vec<&str> = values.filter(|v| !super::is_escape(v)).collect();
        let (initials, _) = split_code(numbered.first()?)?;
        let initials = initials.to_uppercase();
        let same = |v: &&str| split_code(v).is_some_and(|(i, _)| i.to_uppercase() == initials);
        if !numbered.iter().all(same) {
            return None;
        }
        let named = [hints.title, Some(hints.name)]
            .into_iter()
            .flatten()
            .find_map(|text| words_with_initials(text, &initials))?;
        if named_by_code(&named) {
            return None;
        }
        let numbering = Self {
            initials,
            name: humanize(&named.join(" ")),
        };
        let mut labels = HashSet::new();
        let distinct = numbered
            .iter()
            .filter_map(|v| numbering.words(v))
            .all(|label| labels.insert(label.to_lowercase()));
        distinct.then_some(numbering)
    }

    /// `value` as the field's words and its number, if it is numbered so.
    pub(super) fn words(&self, value: &str) -> Option<String> {
        let (initials, number) = split_code(value)?;
        (initials.to_uppercase() == self.initials).then(|| format!("{} {number}", self.name))
    }
}

/// A code's letters and its number (`FY2026-27` -> `FY`, `2026-27`): one
/// to three letters, then a digit, then digits and `-`, `/` or `.`.
fn split_code(value: &str) -> Option<(&str, &str)> {
    let at = value.find(|c: char| !c.is_ascii_alphabetic())?;
    let (letters, number) = value.split_at(at);
    let number_ok = number.starts_with(|c: char| c.is_ascii_digit())
        && number
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '-' | '/' | '.'));
    ((1..=3).contains(&letters.len()) && number_ok).then_some((letters, number))
}

/// The last words of `text` whose initials are `initials` (`support_tier`,
/// `T` -> `tier`).
fn words_with_initials(text: &str, initials: &str) -> Option<Vec<String>> {
    let all = words(text);
    let count = initials.chars().count();
    let last = all.get(all.len().checked_sub(count)?..)?;
    let theirs: String = last
        .iter()
        .filter_map(|w| w.chars().next())
        .flat_map(char::to_uppercase)
        .collect();
    (theirs == initials).then(|| last.to_vec())
}

/// Whether the last of a field's `words` says its values are names
/// ([`NAMED_BY_CODE`]).
fn named_by_code(words: &[String]) -> bool {
    words.last().is_some_and(|w| {
        [w.as_str(), crate::text::singular(w)]
            .iter()
            .any(|w| NAMED_BY_CODE.contains(w))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(name: &str, title: Option<&str>, values: &[&str]) -> Vec<Option<String>> {
        let hints = FieldHints {
            name,
            title,
            format: None,
        };
        let numbered = Numbered::of_field(hints, values.iter().copied());
        values
            .iter()
            .map(|v| numbered.as_ref().and_then(|n| n.words(v)))
            .collect()
    }

    fn some(labels: &[&str]) -> Vec<Option<String>> {
        labels.iter().map(|l| Some((*l).to_owned())).collect()
    }

    #[test]
    fn the_fields_initials_and_a_number_read_as_its_name_and_the_number() {
        assert_eq!(
            labels("severity", None, &["S1", "S2"]),
            some(&["Severity 1", "Severity 2"])
        );
        assert_eq!(
            labels("fiscal_year", None, &["FY2026", "FY2027-28"]),
            some(&["Fiscal year 2026", "Fiscal year 2027-28"])
        );
        assert_eq!(
            labels("support_tier", None, &["t1", "t2"]),
            some(&["Tier 1", "Tier 2"])
        );
        assert_eq!(
            labels("prio", Some("Priority"), &["P0", "other"]),
            vec![Some("Priority 0".to_owned()), None],
            "an \"Other\" keeps its own words"
        );
    }

    #[test]
    fn codes_whose_letters_are_not_the_fields_initials_stay() {
        assert_eq!(
            labels("warehouse_code", Some("Warehouse"), &["LON1"]),
            [None]
        );
        assert_eq!(labels("course", None, &["CS101"]), [None]);
        assert_eq!(labels("severity", None, &["S1", "P2"]), [None, None]);
        assert_eq!(labels("severity", None, &["S1", "high"]), [None, None]);
        assert_eq!(labels("size", None, &["S", "M"]), [None, None]);
    }

    #[test]
    fn values_that_would_read_the_same_keep_their_codes() {
        assert_eq!(labels("priority", None, &["P1", "p1"]), [None, None]);
        assert_eq!(
            labels("fiscal_year", None, &["FY2026", "fy2026", "FY2027"]),
            [None, None, None]
        );
    }

    #[test]
    fn a_code_that_is_the_things_own_name_stays() {
        assert_eq!(labels("model", None, &["M3", "M5"]), [None, None]);
        assert_eq!(labels("api_version", None, &["v1", "v2"]), [None, None]);
        assert_eq!(
            labels("supported_versions", None, &["v1", "v2"]),
            [None, None]
        );
        assert_eq!(
            labels("sku", Some("Release"), &["R12", "R13"]),
            [None, None]
        );
        // Only the last word says what the value is: a model year is a year.
        assert_eq!(
            labels("model_year", None, &["MY2025", "MY2026"]),
            some(&["Model year 2025", "Model year 2026"])
        );
    }
}
