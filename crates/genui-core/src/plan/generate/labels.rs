//! Human labels and titles from machine names and descriptions.

/// Turns a property name into a sentence-case label: `postalCode` ->
/// "Postal code", `date_of_birth` -> "Date of birth", `homePageURL` ->
/// "Home page URL". Acronyms keep their capitals.
pub(crate) fn humanize(name: &str) -> String {
    // One output string, words sliced from `name`: this runs for every
    // field without a title, so it avoids a String per word.
    let spans = word_spans(name);
    if spans.is_empty() {
        return name.to_owned();
    }
    let mut out = String::with_capacity(name.len() + spans.len());
    for (i, span) in spans.into_iter().enumerate() {
        let word = &name[span];
        if i > 0 {
            out.push(' ');
        }
        if is_acronym(word) {
            out.push_str(word);
        } else if i == 0 {
            out.push_str(&capitalize(&word.to_lowercase()));
        } else {
            out.push_str(&word.to_lowercase());
        }
    }
    out
}

/// Lower-cased words of a name, for matching against vocabularies.
pub(crate) fn words(name: &str) -> Vec<String> {
    split_words(name)
        .into_iter()
        .map(|w| w.to_lowercase())
        .collect()
}

fn is_acronym(word: &str) -> bool {
    word.chars().count() >= 2
        && word
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
        && word.chars().any(|c| c.is_ascii_uppercase())
}

fn capitalize(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Splits on separators, lower-to-upper changes, the end of an acronym
/// (`XMLHttp` -> `XML`, `Http`) and letter/digit changes.
fn split_words(name: &str) -> Vec<String> {
    word_spans(name)
        .into_iter()
        .map(|span| name[span].to_owned())
        .collect()
}

/// The byte ranges of [`split_words`]' words.
fn word_spans(name: &str) -> Vec<std::ops::Range<usize>> {
    let mut spans = Vec::new();
    let mut start: Option<usize> = None;
    let mut prev: Option<char> = None; // last character of the current word
    let mut chars = name.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if !c.is_alphanumeric() {
            if let Some(s) = start.take() {
                spans.push(s..i);
            }
            prev = None;
            continue;
        }
        match (start, prev) {
            (Some(s), Some(p)) => {
                let next = chars.peek().map(|&(_, n)| n);
                let boundary = (p.is_lowercase() && c.is_uppercase())
                    || (p.is_uppercase()
                        && c.is_uppercase()
                        && next.is_some_and(char::is_lowercase))
                    || (p.is_ascii_digit() != c.is_ascii_digit());
                if boundary {
                    spans.push(s..i);
                    start = Some(i);
                }
            }
            _ => start = Some(i),
        }
        prev = Some(c);
    }
    if let Some(s) = start {
        spans.push(s..name.len());
    }
    spans
}

/// A short form title from `output.title` or the description: "A form that
/// collects a user's shipping address." -> "Shipping address".
pub(crate) fn form_title(schema_title: Option<&str>, description: &str) -> Option<String> {
    if let Some(title) = schema_title.map(str::trim).filter(|t| !t.is_empty()) {
        return Some(title.to_owned());
    }
    let first_sentence = description.split(['.', '\n', '!', '?']).next()?.trim();
    let mut text = first_sentence.to_owned();
    const LEADS: [&str; 12] = [
        "a form that collects ",
        "a form that lets the user enter ",
        "a form that asks for ",
        "a form to collect ",
        "a form to enter ",
        "a form to ",
        "a form for ",
        "form for ",
        "a form with ",
        "please provide ",
        "collect ",
        "enter ",
    ];
    const ARTICLES: [&str; 7] = [
        "a user's ",
        "the user's ",
        "the ",
        "a ",
        "an ",
        "your ",
        "their ",
    ];
    for prefixes in [&LEADS[..], &ARTICLES[..]] {
        if let Some(p) = prefixes
            .iter()
            .find(|p| text.to_lowercase().starts_with(*p))
        {
            text = text[p.len()..].to_owned();
        }
    }
    let text = text.trim();
    if text.is_empty() || text.chars().count() > 60 {
        return None;
    }
    Some(capitalize(text))
}

impl crate::plan::Control {
    /// The label a field gets from its property name when it has no title.
    pub fn humanize(name: &str) -> String {
        humanize(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn humanizes() {
        assert_eq!(humanize("postalCode"), "Postal code");
        assert_eq!(humanize("date_of_birth"), "Date of birth");
        assert_eq!(humanize("homePageURL"), "Home page URL");
        assert_eq!(humanize("userID"), "User ID");
        assert_eq!(humanize("XMLHttpTimeout"), "XML http timeout");
        assert_eq!(humanize("phone_number_2"), "Phone number 2");
        assert_eq!(humanize("first-name"), "First name");
        assert_eq!(humanize("field001"), "Field 001");
        assert_eq!(humanize("___"), "___");
        assert_eq!(humanize("straße"), "Straße");
    }

    #[test]
    fn titles() {
        assert_eq!(
            form_title(None, "A form that collects a user's shipping address.").as_deref(),
            Some("Shipping address")
        );
        assert_eq!(
            form_title(Some("Booking"), "whatever").as_deref(),
            Some("Booking")
        );
        assert_eq!(form_title(None, "").as_deref(), None);
    }
}
