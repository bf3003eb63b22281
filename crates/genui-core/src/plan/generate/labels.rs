//! Human labels from machine names (the form's title: `plan::title`).

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
        if crate::text::is_in_capitals(word) {
            out.push_str(word);
        } else if i == 0 {
            out.push_str(&crate::text::capitalize_first(&word.to_lowercase()));
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
}
