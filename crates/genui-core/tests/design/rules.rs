//! The two pinned rules of the design measure that read text rather than
//! layout: when an option's visible label is a raw code, and when a title
//! or lead text echoes the agent's request (the core's rule, re-exported).
//!
//! Each rule is a small table of words plus a few character tests, and each
//! is unit-tested below with the cases it is meant to tell apart.

/// The echo rule is the core's own (`genui_core::Issue::echoes`, pinned by
/// its unit tests in `plan/title`): the scorer and the checker share it.
pub fn echoes(text: &str, request: &str) -> bool {
    genui_core::Issue::echoes(text, request)
}

/// Whether a visible option label is a raw code: it is the enum value
/// itself, the value looks like a code ([`looks_like_code`]), and the
/// reference design does not show that value verbatim too (`SUV`, `UTC`,
/// `XL` are words a designer keeps).
pub fn is_raw_label(value: &str, label: &str, reference_label: Option<&str>) -> bool {
    label == value && looks_like_code(value) && reference_label != Some(value)
}

/// Whether a string reads as an identifier rather than words: no spaces, and
/// one of: an underscore (`premium_economy`, `HATE_SPEECH`); a camelCase hump
/// (`afterDelay`); two or more letters all in capitals (`GB`, `USD`,
/// `DD/MM/YYYY`); letters mixed with digits (`24h`, `S1`, `CS101`); a
/// lower-case hyphenated word (`gluten-free`); a `/` or `.` inside a word
/// (`Europe/London`, `com.example`). A single ordinary word in any case
/// (`economy`, `Economy`, `mg`) and any phrase with spaces are not codes.
pub fn looks_like_code(value: &str) -> bool {
    if value.is_empty() || value.chars().any(char::is_whitespace) {
        return false;
    }
    let letters: Vec<char> = value.chars().filter(|c| c.is_alphabetic()).collect();
    let has_digit = value.chars().any(|c| c.is_ascii_digit());
    let underscore = value.contains('_');
    let hump = value
        .chars()
        .zip(value.chars().skip(1))
        .any(|(a, b)| a.is_lowercase() && b.is_uppercase());
    let all_caps = letters.len() >= 2 && letters.iter().all(|c| c.is_uppercase());
    let mixed = has_digit && !letters.is_empty();
    let kebab = value.contains('-')
        && value
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    let separated = inner_separator(value, '/') || inner_separator(value, '.');
    underscore || hump || all_caps || mixed || kebab || separated
}

/// `sep` between two letters or digits (not only at an end).
fn inner_separator(value: &str, sep: char) -> bool {
    let chars: Vec<char> = value.chars().collect();
    chars
        .windows(3)
        .any(|w| w[1] == sep && w[0].is_alphanumeric() && w[2].is_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_identifiers_not_words() {
        for code in [
            "premium_economy",
            "HATE_SPEECH",
            "afterDelay",
            "GB",
            "USD",
            "DD/MM/YYYY",
            "24h",
            "S1",
            "CS101",
            "gluten-free",
            "Europe/London",
            "2026-12-01T09:00",
        ] {
            assert!(looks_like_code(code), "{code} should read as a code");
        }
        for word in [
            "economy",
            "Economy",
            "mg",
            "S",
            "Full-time",
            "Premium economy",
            "Other",
            "",
            "3",
        ] {
            assert!(!looks_like_code(word), "{word:?} should read as a word");
        }
    }

    #[test]
    fn a_label_is_raw_only_when_it_is_the_code_itself_and_the_reference_relabels_it() {
        assert!(is_raw_label(
            "premium_economy",
            "premium_economy",
            Some("Premium economy")
        ));
        assert!(is_raw_label("GB", "GB", None));
        assert!(!is_raw_label(
            "premium_economy",
            "Premium economy",
            Some("Premium economy")
        ));
        assert!(
            !is_raw_label("SUV", "SUV", Some("SUV")),
            "the designer keeps SUV"
        );
        assert!(
            !is_raw_label("economy", "economy", Some("Economy")),
            "a plain word is not a code"
        );
    }
}
