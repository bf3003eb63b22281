//! Durations and moments as words, in the form's language: `24h` -> "24
//! hours", `P7D` -> "7 days", `2026-12-01T09:00` -> "2026-12-01 (Tuesday)
//! 09:00".
//!
//! Only where every value of a field is of one kind ([`Moments::of_field`]):
//! a field of `24h`, `7d` and `30d` is a choice of durations, while `4k`
//! among `1080p` says nothing of time and keeps its text.

use super::cldr_names::WEEKDAYS;
use crate::render::words::Lang;

/// What every value of a field is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Moments {
    /// A number and a unit of time (`24h`, `7d`, `PT15M`).
    Durations,
    /// A local date and time (`2026-12-01T09:00`, seconds and `Z` allowed).
    DateTimes,
}

/// A unit of time: the letters that write it, and its words (singular,
/// plural) per language of `render::words::LANGS`.
struct Unit {
    symbols: &'static [&'static str],
    words: [(&'static str, &'static str); 7],
}

/// Units of time; `m` alone is left out (minutes or months).
const UNITS: [Unit; 7] = [
    Unit {
        symbols: &["s", "sec", "secs"],
        words: [
            ("second", "seconds"),
            ("Sekunde", "Sekunden"),
            ("seconde", "secondes"),
            ("segundo", "segundos"),
            ("segundo", "segundos"),
            ("秒", "秒"),
            ("秒", "秒"),
        ],
    },
    Unit {
        symbols: &["min", "mins"],
        words: [
            ("minute", "minutes"),
            ("Minute", "Minuten"),
            ("minute", "minutes"),
            ("minuto", "minutos"),
            ("minuto", "minutos"),
            ("分", "分"),
            ("分钟", "分钟"),
        ],
    },
    Unit {
        symbols: &["h", "hr", "hrs"],
        words: [
            ("hour", "hours"),
            ("Stunde", "Stunden"),
            ("heure", "heures"),
            ("hora", "horas"),
            ("hora", "horas"),
            ("時間", "時間"),
            ("小时", "小时"),
        ],
    },
    Unit {
        symbols: &["d"],
        words: [
            ("day", "days"),
            ("Tag", "Tage"),
            ("jour", "jours"),
            ("día", "días"),
            ("dia", "dias"),
            ("日", "日"),
            ("天", "天"),
        ],
    },
    Unit {
        symbols: &["w", "wk", "wks"],
        words: [
            ("week", "weeks"),
            ("Woche", "Wochen"),
            ("semaine", "semaines"),
            ("semana", "semanas"),
            ("semana", "semanas"),
            ("週間", "週間"),
            ("周", "周"),
        ],
    },
    Unit {
        symbols: &["mo", "mos"],
        words: [
            ("month", "months"),
            ("Monat", "Monate"),
            ("mois", "mois"),
            ("mes", "meses"),
            ("mês", "meses"),
            ("か月", "か月"),
            ("个月", "个月"),
        ],
    },
    Unit {
        symbols: &["y", "yr", "yrs"],
        words: [
            ("year", "years"),
            ("Jahr", "Jahre"),
            ("an", "ans"),
            ("año", "años"),
            ("ano", "anos"),
            ("年", "年"),
            ("年", "年"),
        ],
    },
];

/// Languages whose numbers meet their unit without a space (`24時間`).
const NO_SPACE: [&str; 2] = ["ja", "zh"];

impl Moments {
    /// The kind of `values`, when at least two of them are of one kind and
    /// every other is an escape (`any`, `other`: `super::is_escape`).
    pub(super) fn of_field<'v>(values: impl Iterator<Item = &'v str> + Clone) -> Option<Self> {
        [Moments::Durations, Moments::DateTimes]
            .into_iter()
            .find(|kind| {
                let is_kind = |v: &str| kind.words(v, Lang::default()).is_some();
                values.clone().all(|v| is_kind(v) || super::is_escape(v))
                    && values.clone().filter(|v| is_kind(v)).nth(1).is_some()
            })
    }

    /// `value` in words in `lang`, if it is of this kind.
    pub(super) fn words(self, value: &str, lang: Lang) -> Option<String> {
        match self {
            Moments::Durations => duration(value, lang),
            Moments::DateTimes => date_time(value, lang),
        }
    }
}

/// A number, then a unit's symbol (`24h`, `15min`), or an ISO 8601
/// duration of one part (`P7D`, `PT24H`), in words.
fn duration(value: &str, lang: Lang) -> Option<String> {
    let (number, unit) = iso_duration(value).or_else(|| short_duration(value))?;
    let (one, many) = unit.words[lang.column()];
    let word = if number == "1" { one } else { many };
    let space = if NO_SPACE.contains(&lang.tag()) {
        ""
    } else {
        " "
    };
    Some(format!("{number}{space}{word}"))
}

fn short_duration(value: &str) -> Option<(&str, &'static Unit)> {
    let digits = value.chars().take_while(char::is_ascii_digit).count();
    let (number, symbol) = value.split_at(digits);
    if digits == 0 || number.starts_with('0') && digits > 1 {
        return None;
    }
    let symbol = symbol.to_ascii_lowercase();
    let unit = UNITS
        .iter()
        .find(|u| u.symbols.contains(&symbol.as_str()))?;
    Some((number, unit))
}

/// `P7D`, `P2W`, `P1M`, `P1Y`, `PT24H`, `PT15M`, `PT30S`.
fn iso_duration(value: &str) -> Option<(&str, &'static Unit)> {
    let (rest, time) = match value.strip_prefix("PT") {
        Some(rest) => (rest, true),
        None => (value.strip_prefix('P')?, false),
    };
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    let (number, letter) = rest.split_at(digits);
    let index = match (time, letter) {
        (true, "S") => 0,
        (true, "M") => 1,
        (true, "H") => 2,
        (false, "D") => 3,
        (false, "W") => 4,
        (false, "M") => 5,
        (false, "Y") => 6,
        _ => return None,
    };
    (digits > 0).then(|| (number, &UNITS[index]))
}

/// `2026-12-01T09:00` (seconds, and a `Z` for UTC, allowed) as
/// "2026-12-01 (Tuesday) 09:00": the date as written, which reads the same
/// in every language, its day by name, and the time without seconds of
/// zero.
fn date_time(value: &str, lang: Lang) -> Option<String> {
    let (date, time) = value.split_once('T')?;
    let (time, utc) = match time.strip_suffix('Z') {
        Some(time) => (time, true),
        None => (time, false),
    };
    let (year, month, day) = parse_date(date)?;
    let time = parse_time(time)?;
    let weekday = WEEKDAYS[weekday_from_monday(year, month, day)].1[lang.column()];
    let zone = if utc { " UTC" } else { "" };
    Some(format!("{date} ({weekday}) {time}{zone}"))
}

fn parse_date(date: &str) -> Option<(i64, u32, u32)> {
    let mut parts = date.split('-');
    let (y, m, d) = (parts.next()?, parts.next()?, parts.next()?);
    let fixed = |s: &str, n: usize| s.len() == n && s.chars().all(|c| c.is_ascii_digit());
    if parts.next().is_some() || !fixed(y, 4) || !fixed(m, 2) || !fixed(d, 2) {
        return None;
    }
    let (year, month, day) = (y.parse().ok()?, m.parse().ok()?, d.parse().ok()?);
    ((1..=12).contains(&month) && (1..=days_in(year, month)).contains(&day))
        .then_some((year, month, day))
}

/// `HH:MM` or `HH:MM:SS` -> `HH:MM` (`HH:MM:SS` when the seconds are not zero).
fn parse_time(time: &str) -> Option<&str> {
    let parts: Vec<&str> = time.split(':').collect();
    let two = |s: &str, max: u32| {
        let digits = s.len() == 2 && s.chars().all(|c| c.is_ascii_digit());
        (digits && s.parse::<u32>().is_ok_and(|n| n <= max)).then_some(())
    };
    match parts.as_slice() {
        [h, m] => {
            two(h, 23)?;
            two(m, 59)?;
            Some(time)
        }
        [h, m, s] => {
            two(h, 23)?;
            two(m, 59)?;
            two(s, 59)?;
            Some(if *s == "00" { &time[..5] } else { time })
        }
        _ => None,
    }
}

fn days_in(year: i64, month: u32) -> u32 {
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// The day of the week of a Gregorian date, 0 for Monday (days counted
/// from 1970-01-01, a Thursday).
fn weekday_from_monday(year: i64, month: u32, day: u32) -> usize {
    // Howard Hinnant's days_from_civil.
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    // 1970-01-01 was a Thursday: index 3 counting from Monday.
    (days + 3).rem_euclid(7) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lang(tag: &str) -> Lang {
        Lang::pick(Some(tag))
    }

    #[test]
    fn durations_in_words() {
        let kind = Moments::of_field(["24h", "7d", "30d"].into_iter());
        assert_eq!(kind, Some(Moments::Durations));
        let en = lang("en");
        assert_eq!(duration("24h", en).as_deref(), Some("24 hours"));
        assert_eq!(duration("1d", en).as_deref(), Some("1 day"));
        assert_eq!(duration("15min", en).as_deref(), Some("15 minutes"));
        assert_eq!(duration("PT24H", en).as_deref(), Some("24 hours"));
        assert_eq!(duration("P1M", en).as_deref(), Some("1 month"));
        assert_eq!(duration("P2W", lang("de")).as_deref(), Some("2 Wochen"));
        assert_eq!(duration("24h", lang("ja")).as_deref(), Some("24時間"));
        assert_eq!(duration("7d", lang("fr")).as_deref(), Some("7 jours"));
        for not in ["4k", "10m", "h", "007d", "24 h", "1080p", "PT", "P7X"] {
            assert_eq!(duration(not, en), None, "{not}");
        }
    }

    #[test]
    fn only_a_field_of_one_kind_is_read_as_moments() {
        assert_eq!(Moments::of_field(["24h", "4k"].into_iter()), None);
        assert_eq!(Moments::of_field(["24h"].into_iter()), None, "one value");
        assert_eq!(Moments::of_field(["24h", "any"].into_iter()), None);
        assert_eq!(
            Moments::of_field(["24h", "7d", "Any"].into_iter()),
            Some(Moments::Durations),
            "no limit beside the durations"
        );
        assert_eq!(
            Moments::of_field(["2026-12-01T09:00", "2026-12-02T10:30:00Z"].into_iter()),
            Some(Moments::DateTimes)
        );
        assert_eq!(
            Moments::of_field(["2026-12-01T09:00", "tomorrow"].into_iter()),
            None
        );
    }

    #[test]
    fn date_times_keep_their_date_and_name_their_day() {
        let en = lang("en");
        assert_eq!(
            date_time("2026-12-01T09:00", en).as_deref(),
            Some("2026-12-01 (Tuesday) 09:00")
        );
        assert_eq!(
            date_time("2024-02-29T23:59:30Z", lang("de")).as_deref(),
            Some("2024-02-29 (Donnerstag) 23:59:30 UTC")
        );
        assert_eq!(
            date_time("2000-01-01T00:00:00", en).as_deref(),
            Some("2000-01-01 (Saturday) 00:00")
        );
        for not in [
            "2026-02-30T09:00",
            "2026-12-01T24:00",
            "2026-12-01",
            "2026-12-01T09:00+01:00",
            "26-12-01T09:00",
        ] {
            assert_eq!(date_time(not, en), None, "{not}");
        }
    }
}
