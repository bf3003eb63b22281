//! Identifiers as words: `premium_economy` -> "Premium economy",
//! `afterDelay` -> "After delay", `HATE_SPEECH` -> "Hate speech",
//! `gluten-free` -> "Gluten free", `economy` -> "Economy"; numbers with a
//! unit as measures: `5ghz` -> "5 GHz"; and date
//! patterns as an example date: `DD/MM/YYYY` -> "31/12/2026".
//!
//! Left as they are: known acronyms (`crate::text::is_known_acronym`:
//! `SUV`, `UTC`, `XL`), short capitals in a field whose other values are
//! not shouted words (`GB`, `EU`), units among units ([`UNITS`]: `mg`,
//! `kg`; a lone `m` among `f` and `x` is a word, "M"), words with digits
//! kept whole (`24h`, `4k`; only the first letter of a label is raised),
//! brand casing (`iOS`, `eBay`, `LinkedIn`), and anything with spaces or
//! other punctuation (`Europe/London`, `2024-01-15`, `UTC+1`).

use crate::text::is_known_acronym;

/// Lower-case words that are also acronyms in capitals; kept as words.
const ALSO_WORDS: [&str; 9] = ["am", "in", "it", "ok", "pin", "swift", "un", "us", "zip"];

/// Unit symbols, kept in lower case among units.
const UNITS: [&str; 26] = [
    "g", "kg", "mg", "lb", "lbs", "oz", "ml", "l", "cl", "km", "m", "cm", "mm", "mi", "ft", "in",
    "px", "pt", "em", "rem", "h", "min", "s", "ms", "kwh", "mph",
];

/// Units of a measured quantity written after a number in codes (`5ghz`,
/// `100mbps`, `2_4ghz`), with how they are written in a label.
const MEASURES: [(&str, &str); 13] = [
    ("ghz", "GHz"),
    ("mhz", "MHz"),
    ("hz", "Hz"),
    ("tb", "TB"),
    ("gb", "GB"),
    ("mb", "MB"),
    ("kb", "KB"),
    ("gbps", "Gbps"),
    ("mbps", "Mbps"),
    ("kw", "kW"),
    ("kwh", "kWh"),
    ("mah", "mAh"),
    ("mp", "MP"),
];

/// Capitals this long or longer, not known acronyms, are shouted words.
const SHOUTED_WORD_LETTERS: usize = 5;

/// How a field writes its values, decided from all of them at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Style {
    /// Values in capitals are words shouted (`LOW`, `MEDIUM`, `HIGH`;
    /// `HATE_SPEECH`), not acronyms (`GB`, `SUV`).
    shouted: bool,
    /// Every value is a unit symbol (`kg`, `lb`): units stay in lower
    /// case. Among other options (`m`, `f`, `x` for a sex) a one-letter
    /// value that happens to be a unit is a word like its neighbours.
    units: bool,
}

impl Style {
    /// The style of a field whose string values are `values`.
    pub(super) fn of<'v>(values: impl Iterator<Item = &'v str>) -> Self {
        let mut style = Self {
            shouted: false,
            units: true,
        };
        for value in values {
            style.shouted |= is_shouted(value);
            style.units &= UNITS.contains(&value);
        }
        style
    }
}

/// A value in capitals that cannot be an acronym: snake case in capitals,
/// or a long word in capitals that is no known acronym.
fn is_shouted(value: &str) -> bool {
    let letters = value.chars().filter(|c| c.is_alphabetic()).count();
    let caps = letters > 0 && !value.chars().any(char::is_lowercase);
    caps && (value.contains('_')
        || (letters >= SHOUTED_WORD_LETTERS
            && value.chars().all(char::is_alphabetic)
            && !is_known_acronym(value)))
}

/// An acronym written in lower case inside an identifier (`api_key`),
/// unless it is also an ordinary word ([`ALSO_WORDS`]).
fn is_lower_acronym(word: &str) -> bool {
    let upper = word.to_ascii_uppercase();
    word == word.to_ascii_lowercase() && is_known_acronym(&upper) && !ALSO_WORDS.contains(&word)
}

/// The date every date pattern is shown with: day 31 and month 12 tell
/// the day and the month apart.
const EXAMPLE_DATE: [(&str, &str); 6] = [
    ("YYYY", "2026"),
    ("YY", "26"),
    ("MM", "12"),
    ("DD", "31"),
    ("M", "12"),
    ("D", "31"),
];

/// A date pattern (`DD/MM/YYYY`, `yyyy-mm-dd`) as an example date
/// (`31/12/2026`, `2026-12-31`): how a date will look reads better than
/// the letters that describe it.
pub(super) fn date_example(value: &str) -> Option<String> {
    let upper = value.to_ascii_uppercase();
    let has_all = ["Y", "M", "D"].iter().all(|c| upper.contains(c));
    let only_pattern = upper.chars().all(|c| "YMD/.- ".contains(c));
    if !has_all || !only_pattern {
        return None;
    }
    let mut out = String::new();
    let mut rest = upper.as_str();
    'outer: while let Some(c) = rest.chars().next() {
        for (token, example) in EXAMPLE_DATE {
            if let Some(after) = rest.strip_prefix(token) {
                if after.starts_with(&token[..1]) {
                    return None; // `MMM`, `DDD`: no pattern this knows
                }
                out.push_str(example);
                rest = after;
                continue 'outer;
            }
        }
        if c.is_ascii_alphabetic() {
            return None; // `YYY`, `DDD`: no pattern this knows
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    Some(out)
}

/// `value` in words, or `None` when it reads as it is.
pub(super) fn words(value: &str, style: Style) -> Option<String> {
    if let Some(example) = date_example(value) {
        return Some(example);
    }
    if value.is_empty()
        || value.chars().any(char::is_whitespace)
        || is_brand(value)
        || is_proper_name(value)
    {
        return None;
    }
    if let Some(measure) = measure(value) {
        return Some(measure);
    }
    let parts = split(value)?;
    let words: Vec<String> = parts.iter().map(|w| word(w, style)).collect();
    let joined = sentence_case(&words.join(" "), style);
    (joined != value).then_some(joined)
}

/// A number with a unit of [`MEASURES`] after it, as a label: `5ghz` ->
/// "5 GHz", `2_4ghz` -> "2.4 GHz" (an underscore between digits stands for
/// the decimal point a code cannot hold).
fn measure(value: &str) -> Option<String> {
    let lower = value.to_ascii_lowercase();
    let (number, unit) = MEASURES
        .iter()
        .find_map(|(code, unit)| Some((lower.strip_suffix(code)?, *unit)))?;
    let (whole, fraction) = number.split_once('_').unwrap_or((number, ""));
    let digits = |d: &str| d.chars().all(|c| c.is_ascii_digit());
    let valid = !whole.is_empty()
        && digits(whole)
        && digits(fraction)
        && fraction.is_empty() != number.contains('_');
    valid.then(|| match fraction {
        "" => format!("{whole} {unit}"),
        _ => format!("{whole}.{fraction} {unit}"),
    })
}

/// The parts of an identifier, or `None` for text that is not one.
fn split(value: &str) -> Option<Vec<&str>> {
    if !value
        .chars()
        .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
    {
        return None;
    }
    // A hyphen separates words only in lower-case kebab case (`gluten-free`),
    // never in dates or codes (`2024-01-15`, `UTF-8`).
    let kebab = value.contains('-')
        && value.chars().any(char::is_alphabetic)
        && !value.chars().any(char::is_uppercase);
    if value.contains('-') && !kebab {
        return None;
    }
    let mut parts = Vec::new();
    for chunk in value.split(['_', '-']).filter(|c| !c.is_empty()) {
        camel_parts(chunk, &mut parts);
    }
    (!parts.is_empty()).then_some(parts)
}

/// Splits `afterDelay` -> `after`, `Delay` and `HTTPServer` -> `HTTP`,
/// `Server`; digits stay with their letters (`s1`, `24h`).
fn camel_parts<'a>(chunk: &'a str, out: &mut Vec<&'a str>) {
    let chars: Vec<(usize, char)> = chunk.char_indices().collect();
    let mut start = 0;
    for i in 1..chars.len() {
        let (at, c) = chars[i];
        let prev = chars[i - 1].1;
        let next_lower = chars.get(i + 1).is_some_and(|(_, n)| n.is_lowercase());
        let hump = c.is_uppercase() && (prev.is_lowercase() || (prev.is_uppercase() && next_lower));
        if hump {
            out.push(&chunk[start..at]);
            start = at;
        }
    }
    out.push(&chunk[start..]);
}

/// One word of a label: acronyms and (unless shouted) capitals kept,
/// everything else in lower case.
fn word(part: &str, style: Style) -> String {
    let letters = part.chars().filter(|c| c.is_alphabetic()).count();
    let caps = letters > 0 && !part.chars().any(char::is_lowercase);
    let keep_caps = caps && (is_known_acronym(part) || !style.shouted);
    if keep_caps || part.chars().any(|c| c.is_ascii_digit()) && !style.shouted {
        return part.to_owned();
    }
    if is_lower_acronym(part) {
        return part.to_ascii_uppercase();
    }
    part.to_lowercase()
}

/// `iOS`, `eBay`, `macOS`: one lower-case lead before capitals, kept as written.
fn is_brand(value: &str) -> bool {
    let lower_lead = value.chars().take_while(|c| c.is_lowercase()).count();
    let rest = &value[value
        .char_indices()
        .nth(lower_lead)
        .map_or(value.len(), |(i, _)| i)..];
    (1..=3).contains(&lower_lead)
        && rest.chars().next().is_some_and(char::is_uppercase)
        && (rest.chars().all(char::is_uppercase) || lower_lead == 1)
        && value.chars().all(char::is_alphabetic)
}

/// A name written with capitals inside it, as brands and products are
/// (`LinkedIn`, `YouTube`, `PayPal`): a capital, then lower case, then
/// another capital, letters only. Kept as written, never split into words.
/// (`HTTPServer` opens with an acronym and is split; `afterDelay` opens in
/// lower case and is split.)
fn is_proper_name(value: &str) -> bool {
    let mut chars = value.chars();
    let opens = chars.next().is_some_and(char::is_uppercase)
        && chars.next().is_some_and(char::is_lowercase);
    opens && chars.any(char::is_uppercase) && value.chars().all(char::is_alphabetic)
}

/// The first letter raised, unless the label is a unit among units or
/// starts with a word holding digits (`24h`, `4k`: a number, not a
/// sentence).
fn sentence_case(text: &str, style: Style) -> String {
    let first_word = text.split(' ').next().unwrap_or("");
    let unit = style.units && UNITS.contains(&first_word) && !text.contains(' ');
    if unit || first_word.starts_with(|c: char| c.is_ascii_digit()) {
        return text.to_owned();
    }
    crate::text::capitalize_first(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn label(value: &str, others: &[&str]) -> String {
        let style = Style::of(others.iter().copied().chain([value]));
        words(value, style).unwrap_or_else(|| value.to_owned())
    }

    #[test]
    fn identifiers_become_sentence_case_words() {
        assert_eq!(label("premium_economy", &[]), "Premium economy");
        assert_eq!(label("s1_critical", &[]), "S1 critical");
        assert_eq!(label("afterDelay", &[]), "After delay");
        assert_eq!(label("gluten-free", &[]), "Gluten free");
        assert_eq!(label("HATE_SPEECH", &[]), "Hate speech");
        assert_eq!(label("economy", &[]), "Economy");
        assert_eq!(label("HTTPServer", &[]), "HTTP server");
        assert_eq!(label("MEDIUM", &["LOW", "HIGH"]), "Medium");
        assert_eq!(label("LOW", &["MEDIUM", "HIGH"]), "Low");
        assert_eq!(label("api_key", &[]), "API key");
        assert_eq!(label("DD/MM/YYYY", &[]), "31/12/2026");
        assert_eq!(label("yyyy-mm-dd", &[]), "2026-12-31");
        assert_eq!(label("M/D/YY", &[]), "12/31/26");
        assert_eq!(
            label("YYY-MM-DD", &[]),
            "YYY-MM-DD",
            "no pattern this knows"
        );
        assert_eq!(label("DD MMM YYYY", &[]), "DD MMM YYYY");
    }

    #[test]
    fn acronyms_units_numbers_and_brands_stay() {
        for kept in [
            "SUV",
            "UTC",
            "XL",
            "GB",
            "24h",
            "4k",
            "mg",
            "kg",
            "iOS",
            "eBay",
            "macOS",
            "2024-01-15",
            "UTF-8",
            "Europe/London",
            "UTC+1",
            "Premium economy",
            "Economy",
            "",
        ] {
            assert_eq!(label(kept, &[]), kept, "{kept}");
        }
        assert_eq!(
            label("SUV", &["MINIVAN"]),
            "SUV",
            "an acronym among shouted words"
        );
        assert_eq!(label("under_18", &[]), "Under 18");
    }

    #[test]
    fn a_number_with_a_unit_reads_as_a_measure() {
        assert_eq!(label("5ghz", &["2_4ghz"]), "5 GHz");
        assert_eq!(label("2_4ghz", &["5ghz"]), "2.4 GHz");
        assert_eq!(label("100mbps", &[]), "100 Mbps");
        assert_eq!(label("16GB", &[]), "16 GB");
        assert_eq!(
            label("dual_band", &[]),
            "Dual band",
            "no number, no measure"
        );
        assert_eq!(label("ghz", &[]), "Ghz", "a unit alone is a word");
        assert_eq!(label("2__4ghz", &[]), "2 4ghz");
    }

    #[test]
    fn proper_names_keep_their_capitals() {
        for kept in ["LinkedIn", "YouTube", "PayPal", "GitHub", "WhatsApp"] {
            assert_eq!(label(kept, &["Email", "Twitter"]), kept, "{kept}");
        }
        assert_eq!(label("HTTPServer", &[]), "HTTP server");
        assert_eq!(label("afterDelay", &[]), "After delay");
    }

    #[test]
    fn a_unit_among_words_is_a_word() {
        assert_eq!(label("m", &["f", "x"]), "M");
        assert_eq!(label("f", &["m", "x"]), "F");
        assert_eq!(label("m", &["km", "mi"]), "m", "a unit among units");
        assert_eq!(label("kg", &["lb"]), "kg");
        assert_eq!(label("mg", &[]), "mg");
    }
}
