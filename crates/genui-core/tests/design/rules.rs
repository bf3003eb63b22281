//! The two pinned rules of the design measure that read text rather than
//! layout: when an option's visible label is a raw code, and when a title
//! or lead text echoes the agent's request.
//!
//! Each rule is a small table of words plus a few character tests, and each
//! is unit-tested below with the cases it is meant to tell apart.

/// Words an agent opens a request to the UI with. A title that starts with
/// the request's own opening word addresses the wrong reader.
const IMPERATIVES: [&str; 21] = [
    "ask", "collect", "let", "get", "have", "prompt", "request", "gather", "obtain", "capture",
    "show", "display", "present", "render", "create", "generate", "build", "make", "please",
    "need", "want",
];

/// Openings that speak to someone other than the person filling the form,
/// whatever the request said.
const AGENT_OPENINGS: [&[&str]; 7] = [
    &["please"],
    &["i", "need"],
    &["we", "need"],
    &["i", "want"],
    &["we", "want"],
    &["i", "would"],
    &["we", "would"],
];

/// Words that carry no content when comparing a text with the request.
const STOPWORDS: [&str; 52] = [
    "a", "an", "the", "and", "or", "but", "of", "for", "to", "from", "in", "on", "at", "by",
    "with", "about", "into", "as", "so", "that", "this", "these", "those", "their", "they", "them",
    "his", "her", "its", "our", "us", "we", "you", "your", "i", "me", "my", "it", "is", "are",
    "be", "can", "will", "would", "should", "what", "which", "when", "how", "who", "where",
    "please",
];

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

/// Whether a visible text (a title or lead) echoes the agent's request: it
/// opens as an agent speaks ([`AGENT_OPENINGS`]), or with the request's own
/// opening imperative ([`IMPERATIVES`]), or it repeats more than half of the
/// request's content words (words outside [`STOPWORDS`], a plural `s`
/// dropped, each counted once). "Search flights" for "Ask the user for
/// their flight search criteria" repeats 2 of 5 and does not echo.
pub fn echoes(text: &str, request: &str) -> bool {
    let said = words(text);
    if said.is_empty() {
        return false;
    }
    let opens_with = |opening: &[&str]| {
        said.len() >= opening.len() && said.iter().zip(opening).all(|(w, o)| w == o)
    };
    if AGENT_OPENINGS.iter().any(|o| opens_with(o)) {
        return true;
    }
    if let Some(verb) = opening_imperative(request) {
        if opens_with(&[verb.as_str()]) {
            return true;
        }
    }
    let asked = content_words(request);
    let repeated = content_words(text)
        .iter()
        .filter(|w| asked.contains(w))
        .count();
    !asked.is_empty() && repeated * 2 > asked.len()
}

/// The imperative a request opens with, after a leading "please".
fn opening_imperative(request: &str) -> Option<String> {
    let all = words(request);
    let first = all.iter().find(|w| *w != "please")?;
    IMPERATIVES.contains(&first.as_str()).then(|| first.clone())
}

/// Lower-case words, split at anything but letters and digits; one-letter
/// fragments (the `s` of `user's`) are dropped, except `i`.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() > 1 || *w == "i" || *w == "I")
        .map(str::to_lowercase)
        .collect()
}

/// The distinct content words of a text, plural `s` dropped.
fn content_words(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for word in words(text)
        .into_iter()
        .filter(|w| !STOPWORDS.contains(&w.as_str()))
    {
        let stem = singular(&word);
        if !out.contains(&stem) {
            out.push(stem);
        }
    }
    out
}

fn singular(word: &str) -> String {
    match word.strip_suffix('s') {
        Some(stem) if word.len() > 3 && !word.ends_with("ss") => stem.to_owned(),
        _ => word.to_owned(),
    }
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

    #[test]
    fn a_title_echoes_when_it_opens_like_the_agent() {
        let request = "Ask the user for their flight search criteria";
        assert!(echoes(request, request));
        assert!(echoes("Ask for flight details", request));
        assert!(echoes(
            "Please provide your flight details",
            "Collect the flight"
        ));
        assert!(echoes("I need your trip", "Collect the trip"));
        assert!(!echoes("Search flights", request));
        // "Request a refund" speaks to the user; the request opened with "get".
        assert!(!echoes(
            "Request a refund",
            "Get the details of the customer's refund request"
        ));
        assert!(echoes(
            "Get refund details",
            "Get the details of the customer's refund request"
        ));
        assert!(
            !echoes("Create your account", "Ask the user to create an account"),
            "2 of 4 content words is not more than half"
        );
    }

    #[test]
    fn a_title_echoes_when_it_repeats_most_content_words() {
        let request = "Ask the user for their flight search criteria";
        assert!(
            echoes("Flight search criteria of the user", request),
            "4 of 5"
        );
        assert!(echoes("Flight search criteria", request), "3 of 5");
        assert!(!echoes("Flight search", request), "2 of 5");
        assert!(echoes("The user's flight search criteria", request));
        assert!(!echoes("", request));
        assert!(!echoes("Where and when would you like to fly?", request));
    }
}
