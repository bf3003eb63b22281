//! Human labels and titles from machine names and descriptions.

/// Turns a property name into a sentence-case label: `postalCode` ->
/// "Postal code", `date_of_birth` -> "Date of birth", `homePageURL` ->
/// "Home page URL". Acronyms keep their capitals.
pub fn humanize(name: &str) -> String {
    let words: Vec<String> = split_words(name)
        .into_iter()
        .enumerate()
        .map(|(i, word)| {
            if is_acronym(&word) {
                word
            } else if i == 0 {
                capitalize(&word.to_lowercase())
            } else {
                word.to_lowercase()
            }
        })
        .collect();
    if words.is_empty() {
        return name.to_owned();
    }
    words.join(" ")
}

/// Lower-cased words of a name, for matching against vocabularies.
pub fn words(name: &str) -> Vec<String> {
    split_words(name).into_iter().map(|w| w.to_lowercase()).collect()
}

fn is_acronym(word: &str) -> bool {
    word.chars().count() >= 2 && word.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
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
    let chars: Vec<char> = name.chars().collect();
    let mut words = Vec::new();
    let mut current = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            continue;
        }
        if let Some(&prev) = current.chars().last().as_ref() {
            let next = chars.get(i + 1).copied();
            let boundary = (prev.is_lowercase() && c.is_uppercase())
                || (prev.is_uppercase() && c.is_uppercase() && next.is_some_and(char::is_lowercase))
                || (prev.is_ascii_digit() != c.is_ascii_digit());
            if boundary {
                words.push(std::mem::take(&mut current));
            }
        }
        current.push(c);
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// A short form title from `output.title` or the description: "A form that
/// collects a user's shipping address." -> "Shipping address".
pub fn form_title(schema_title: Option<&str>, description: &str) -> Option<String> {
    if let Some(title) = schema_title.map(str::trim).filter(|t| !t.is_empty()) {
        return Some(title.to_owned());
    }
    let first_sentence = description.split(['.', '\n', '!', '?']).next()?.trim();
    let mut text = first_sentence.to_owned();
    const LEADS: [&str; 12] = [
        "a form that collects ", "a form that lets the user enter ", "a form that asks for ",
        "a form to collect ", "a form to enter ", "a form to ", "a form for ", "form for ",
        "a form with ", "please provide ", "collect ", "enter ",
    ];
    const ARTICLES: [&str; 7] = ["a user's ", "the user's ", "the ", "a ", "an ", "your ", "their "];
    for prefixes in [&LEADS[..], &ARTICLES[..]] {
        if let Some(p) = prefixes.iter().find(|p| text.to_lowercase().starts_with(*p)) {
            text = text[p.len()..].to_owned();
        }
    }
    let text = text.trim();
    if text.is_empty() || text.chars().count() > 60 {
        return None;
    }
    Some(capitalize(text))
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
        assert_eq!(form_title(None, "A form that collects a user's shipping address.").as_deref(), Some("Shipping address"));
        assert_eq!(form_title(Some("Booking"), "whatever").as_deref(), Some("Booking"));
        assert_eq!(form_title(None, "").as_deref(), None);
    }
}
