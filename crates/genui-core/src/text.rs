//! Word-level facts shared by the plan and the renderers, each in one
//! place: a word's singular, a text's first letter raised, and what an
//! acronym is (by its letters, or by the list of known ones).

/// A word without a plural `s` (`guests` -> `guest`; `status`, `address`,
/// `analysis`, `glass`, words the same in both numbers (`species`,
/// `series`) and words of three letters or fewer stay).
pub(crate) fn singular(word: &str) -> &str {
    let keeps = word.len() <= 3
        || ["ss", "us", "is"].iter().any(|end| word.ends_with(end))
        || SAME_IN_BOTH_NUMBERS.contains(&word);
    match word.strip_suffix('s') {
        Some(stem) if !keeps => stem,
        _ => word,
    }
}

/// Words whose singular is their plural.
const SAME_IN_BOTH_NUMBERS: [&str; 2] = ["species", "series"];

/// The first letter in upper case, the rest as written (acronyms and
/// proper names inside the text stay).
pub(crate) fn capitalize_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A word written in capitals (two or more, digits allowed: `URL`, `ID`,
/// `S3`): how a machine name spells an acronym.
pub(crate) fn is_in_capitals(word: &str) -> bool {
    word.chars().count() >= 2
        && word
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
        && word.chars().any(|c| c.is_ascii_uppercase())
}

/// Capitals that are read as letters, kept in capitals wherever they stand.
const ACRONYMS: [&str; 88] = [
    "AI", "AM", "API", "ASAP", "ATM", "AWS", "BIC", "CD", "CEO", "CET", "CFO", "CSV", "CTO", "CV",
    "DIY", "DM", "DNS", "DVD", "EU", "FAQ", "FTP", "GB", "GCP", "GIF", "GMT", "GPS", "GST", "HD",
    "HDMI", "HR", "HTML", "HTTP", "HTTPS", "IBAN", "ID", "IOS", "IP", "ISO", "IT", "JPEG", "JPG",
    "JSON", "KB", "KPI", "LED", "LLC", "MB", "MFA", "NDA", "NFC", "OK", "OTP", "PC", "PDF", "PIN",
    "PM", "PNG", "QA", "RFID", "ROI", "RSVP", "SEPA", "SLA", "SMS", "SQL", "SSH", "SSO", "SUV",
    "SVG", "SWIFT", "TB", "TV", "UI", "UK", "UN", "URL", "US", "USA", "USB", "UTC", "UX", "VAT",
    "VIP", "VPN", "XL", "XML", "XS", "ZIP",
];

/// A known acronym, in capitals (`SUV`, `UTC`): unlike a shouted word
/// (`MEDIUM`), it stays in capitals in a label.
pub(crate) fn is_known_acronym(word: &str) -> bool {
    ACRONYMS.contains(&word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn singular_drops_only_a_plural_s() {
        assert_eq!(singular("guests"), "guest");
        for kept in ["status", "address", "analysis", "bus", "gas", "glass"] {
            assert_eq!(singular(kept), kept);
        }
    }

    #[test]
    fn acronyms_by_letters_and_by_list() {
        assert!(is_in_capitals("URL") && is_in_capitals("S3"));
        assert!(!is_in_capitals("A") && !is_in_capitals("Url") && !is_in_capitals("42"));
        assert!(is_known_acronym("SUV") && !is_known_acronym("MEDIUM"));
        assert_eq!(capitalize_first("order summary"), "Order summary");
        assert_eq!(capitalize_first("éclair"), "Éclair");
    }
}
