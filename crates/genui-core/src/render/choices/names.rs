//! Country, currency and language codes, time zone ids and days of the week
//! shown by name, in the form's language, from CLDR ([`super::cldr_names`]).
//!
//! Only where the field's concept is a country, currency, language, time
//! zone or day (a word of its name, title or format, [`CONCEPT_WORDS`]) and
//! every value is a valid code of that kind: a yes/no enum's `NO` never becomes Norway,
//! and a "language level" of `beginner`/`fluent` keeps its words.

use super::cldr_names::{CURRENCIES, LANGUAGES, LOCALE_PATTERNS, REGIONS, TIME_ZONES, WEEKDAYS};
use super::FieldHints;
use crate::render::words::Lang;

/// The kinds of code shown by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Codes {
    /// ISO 3166-1 alpha-2 (`GB`).
    Country,
    /// ISO 4217 (`EUR`).
    Currency,
    /// ISO 639-1 or a BCP 47 tag built on one (`en`, `pt-BR`, `zh-Hans`).
    Language,
    /// An IANA time zone id (`Europe/London`), shown by its city; `UTC`
    /// and `GMT` as they are.
    TimeZone,
    /// A day of the week in English (`MON`, `monday`), shown by its name.
    Weekday,
}

/// Words of a field's name, title or format that name its concept, in the
/// languages the worker ships where they differ from English.
const CONCEPT_WORDS: [(Codes, &[&str]); 5] = [
    (Codes::Country, &COUNTRY_WORDS),
    (Codes::Currency, &CURRENCY_WORDS),
    (Codes::Language, &LANGUAGE_WORDS),
    (Codes::TimeZone, &TIME_ZONE_WORDS),
    (Codes::Weekday, &WEEKDAY_WORDS),
];

#[rustfmt::skip]
const COUNTRY_WORDS: [&str; 13] = [
    "country", "countries", "nationality", "citizenship", "territory", "pays", "país", "pais",
    "land", "staat", "国", "国家", "国籍",
];
#[rustfmt::skip]
const CURRENCY_WORDS: [&str; 10] = [
    "currency", "currencies", "ccy", "devise", "moneda", "moeda", "währung", "通貨", "货币", "币种",
];
#[rustfmt::skip]
const LANGUAGE_WORDS: [&str; 12] = [
    "language", "languages", "lang", "locale", "locales", "langue", "sprache", "idioma", "língua",
    "lingua", "言語", "语言",
];
#[rustfmt::skip]
const TIME_ZONE_WORDS: [&str; 9] = [
    "timezone", "timezones", "tz", "zone", "zeitzone", "fuseau", "zona", "タイムゾーン", "时区",
];
#[rustfmt::skip]
const WEEKDAY_WORDS: [&str; 16] = [
    "day", "days", "weekday", "weekdays", "dow", "tag", "tage", "wochentag", "jour", "jours", "dia",
    "dias", "día", "días", "曜日", "星期",
];

/// Codes that are valid but, in a choice, stand for "any" or "none" (`ALL`
/// is also the Albanian lek): a field holding one is not a code list.
const SENTINELS: [&str; 3] = ["ALL", "XXX", "ZZ"];

/// Time zone ids that are their own name.
const PLAIN_ZONES: [&str; 4] = ["UTC", "GMT", "Etc/UTC", "Etc/GMT"];

impl Codes {
    /// The kind of code a field holds, if its concept names one and every
    /// one of its `values` is such a code.
    pub(super) fn of_field<'v>(
        hints: FieldHints<'_>,
        values: impl Iterator<Item = &'v str> + Clone,
    ) -> Option<Self> {
        let words = concept_words(hints);
        let codes = CONCEPT_WORDS
            .iter()
            .find(|(_, names)| words.iter().any(|w| names.contains(&w.as_str())))?
            .0;
        let mut all = values.clone().peekable();
        all.peek()?;
        // "All" in a filter, "no currency", "unknown region": a value that
        // stands for none of the codes says the field is not a list of them.
        if values.clone().any(|v| SENTINELS.contains(&v)) {
            return None;
        }
        let is_code = |v: &str| codes.name(v, Lang::default()).is_some();
        let all_known = values.clone().all(|v| is_code(v) || super::is_escape(v));
        // Escapes only beside codes: a field of "Other" alone is no list of codes.
        let codes_count = values.filter(|v| is_code(v)).count();
        (all_known && codes_count > 0).then_some(codes)
    }

    /// The name of `code` in `lang`, if it is a valid code of this kind.
    pub(super) fn name(self, code: &str, lang: Lang) -> Option<String> {
        match self {
            Codes::Country => lookup(REGIONS, code, lang).map(str::to_owned),
            Codes::Currency => lookup(CURRENCIES, code, lang).map(str::to_owned),
            Codes::Language => language_name(code, lang),
            Codes::TimeZone if PLAIN_ZONES.contains(&code) => Some(code.to_owned()),
            Codes::TimeZone => lookup(TIME_ZONES, code, lang).map(str::to_owned),
            Codes::Weekday => weekday_name(code, lang),
        }
    }
}

/// The lower-case words of a field's name, title and format
/// (`billingCountry` -> `billing`, `country`).
fn concept_words(hints: FieldHints<'_>) -> Vec<String> {
    let mut out = Vec::new();
    for text in [Some(hints.name), hints.title, hints.format]
        .into_iter()
        .flatten()
    {
        let mut word = String::new();
        let mut prev_lower = false;
        for c in text.chars() {
            let boundary = !c.is_alphanumeric() || (c.is_uppercase() && prev_lower);
            if boundary && !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            if c.is_alphanumeric() {
                word.extend(c.to_lowercase());
            }
            prev_lower = c.is_lowercase();
        }
        if !word.is_empty() {
            out.push(word);
        }
        // Scripts without spaces: the whole text as one word too (`国籍`).
        if !text.is_ascii() {
            out.push(text.trim().to_owned());
        }
    }
    out
}

/// A row's name in `lang`, by binary search on the sorted codes.
fn lookup(table: &'static [(&str, [&str; 7])], code: &str, lang: Lang) -> Option<&'static str> {
    let at = table.binary_search_by(|(c, _)| (*c).cmp(code)).ok()?;
    Some(table[at].1[lang.column()])
}

/// A day's name from its English name or three-letter abbreviation, in
/// any case (`MON`, `Monday`, `mon`).
fn weekday_name(day: &str, lang: Lang) -> Option<String> {
    let day = day.to_lowercase();
    WEEKDAYS
        .iter()
        .find(|(abbr, names)| day == *abbr || day == names[0].to_lowercase())
        .map(|(_, names)| names[lang.column()].to_owned())
}

/// A language tag's name: CLDR's own name for the tag (`en-GB` -> "British
/// English"), else its language and region joined by the language's
/// pattern (`fr-CH` -> "French (Switzerland)").
fn language_name(tag: &str, lang: Lang) -> Option<String> {
    let tag = tag.replace('_', "-");
    if let Some(name) = lookup(LANGUAGES, &tag, lang) {
        return Some(name.to_owned());
    }
    let (language, region) = tag.split_once('-')?;
    let language = lookup(LANGUAGES, language, lang)?;
    let region = lookup(REGIONS, region, lang)?;
    Some(
        LOCALE_PATTERNS[lang.column()]
            .replace("{0}", language)
            .replace("{1}", region),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(name: &str, values: &[&str]) -> Option<Codes> {
        let hints = FieldHints {
            name,
            ..FieldHints::default()
        };
        Codes::of_field(hints, values.iter().copied())
    }

    #[test]
    fn codes_are_named_only_where_the_field_means_them_and_all_are_valid() {
        assert_eq!(field("country", &["GB", "NO"]), Some(Codes::Country));
        assert_eq!(field("billingCountry", &["DE"]), Some(Codes::Country));
        assert_eq!(
            field("answer", &["YES", "NO"]),
            None,
            "NO is not Norway here"
        );
        assert_eq!(field("country", &["GB", "XX"]), None, "XX is no country");
        assert_eq!(
            field("nationality", &["DE", "IT", "Other"]),
            Some(Codes::Country),
            "a choice of none of these beside the codes"
        );
        assert_eq!(field("country", &["Other"]), None);
        assert_eq!(field("country", &["GB", "Maybe"]), None);
        assert_eq!(field("country", &[]), None);
        assert_eq!(field("currency", &["EUR", "USD"]), Some(Codes::Currency));
        assert_eq!(
            field("language", &["en", "pt-BR", "zh_Hans"]),
            Some(Codes::Language)
        );
        assert_eq!(field("language_level", &["beginner", "fluent"]), None);
        assert_eq!(
            field("timezone", &["Europe/London", "UTC"]),
            Some(Codes::TimeZone)
        );
        assert_eq!(field("timezone", &["Mars/Olympus"]), None);
        assert_eq!(
            field("available_days", &["MON", "tue"]),
            Some(Codes::Weekday)
        );
        assert_eq!(field("days", &["MON", "holiday"]), None);
        let hints = FieldHints {
            name: "x",
            title: Some("Währung"),
            format: None,
        };
        assert_eq!(
            Codes::of_field(hints, ["CHF"].into_iter()),
            Some(Codes::Currency)
        );
    }

    #[test]
    fn names_are_in_the_forms_language() {
        let [en, de, fr, ja] = ["en", "de", "fr", "ja"].map(|t| Lang::pick(Some(t)));
        assert_eq!(
            Codes::Country.name("GB", en).as_deref(),
            Some("United Kingdom")
        );
        assert_eq!(
            Codes::Country.name("GB", de).as_deref(),
            Some("Vereinigtes Königreich")
        );
        assert_eq!(Codes::Currency.name("JPY", ja).as_deref(), Some("日本円"));
        assert_eq!(
            Codes::Language.name("en-GB", en).as_deref(),
            Some("British English")
        );
        assert_eq!(Codes::Language.name("de", fr).as_deref(), Some("Allemand"));
        assert_eq!(
            Codes::Language.name("it-CH", en).as_deref(),
            Some("Italian (Switzerland)")
        );
        assert_eq!(Codes::Language.name("xx", en), None);
        assert_eq!(
            Codes::Country.name("gb", en),
            None,
            "codes are matched as written"
        );
    }
}
