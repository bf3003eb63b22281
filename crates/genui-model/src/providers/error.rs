//! Provider failures as the core's one [`Error`] (a nested
//! [`ModelFailure`] kind, typed details): HTTP error bodies of every
//! provider, `Retry-After` (seconds or HTTP date, resolved later against a
//! `now` the caller passes), and redaction of anything key-like. Codes,
//! statuses and the `dgui_error` body are the core's (`genui_core::error`).

use genui_core::{Error, ModelFailure};
use serde_json::Value;

/// A model failure whose message is redacted (providers echo masked keys).
pub(crate) fn failure(kind: ModelFailure, message: impl Into<String>) -> Error {
    Error::model(kind, redact(&message.into()))
}

/// The JSON of a 2xx answer: a non-2xx status is the provider's error
/// (from its body and headers), and a body that is not JSON is an
/// `Unavailable` error naming `what` it should have been.
/// A 2xx answer that holds no usable plan: `model_output_invalid`.
pub(crate) fn invalid_output(message: &str) -> Error {
    failure(ModelFailure::OutputInvalid, message).with_provider_status(200)
}

/// The same error, its message prefixed by where it was found.
pub(crate) fn in_context(error: Error, context: &str) -> Error {
    let message = format!("{context}{}", error.message());
    error.with_message(message)
}

pub(crate) fn success_json(
    status: u16,
    headers: &[(String, String)],
    body: &str,
    what: &str,
) -> Result<Value, Error> {
    if !(200..300).contains(&status) {
        return Err(status_error(status, headers, body));
    }
    serde_json::from_str(body).map_err(|e| {
        failure(
            ModelFailure::Unavailable,
            format!("{what} is not JSON: {e}"),
        )
        .with_provider_status(status)
    })
}

/// The error for a non-2xx response, from its status, headers and body.
pub(crate) fn status_error(status: u16, headers: &[(String, String)], body: &str) -> Error {
    let detail = error_body_message(body).unwrap_or_else(|| format!("HTTP {status}"));
    let lower = detail.to_ascii_lowercase();
    let (kind, what) = match status {
        401 | 403 => (ModelFailure::Auth, "the provider refused the credentials"),
        408 => (ModelFailure::Timeout, "the provider timed out"),
        429 => (ModelFailure::RateLimited, "the provider is rate limiting"),
        400 | 422 if lower.contains("response_format") || lower.contains("json_schema") => (
            ModelFailure::FormatUnsupported,
            "the server does not support response_format json_schema",
        ),
        500..=599 => (ModelFailure::Unavailable, "the provider failed"),
        _ => (
            ModelFailure::Unavailable,
            "the provider rejected the request",
        ),
    };
    let error =
        failure(kind, format!("{what} (HTTP {status}): {detail}")).with_provider_status(status);
    match kind {
        ModelFailure::RateLimited => with_retry_after(error, headers),
        _ => error,
    }
}

/// The message of a provider error body: OpenAI `{"error": {"message",
/// "type", "code"}}`, Anthropic `{"type": "error", "error": {"type",
/// "message"}}`, Cloudflare `{"errors": [{"code", "message"}]}`, or a plain
/// `{"error": "..."}` / `{"detail": "..."}` from compatible servers.
pub(crate) fn error_body_message(body: &str) -> Option<String> {
    let value: Value = serde_json::from_str(body).ok()?;
    let error = value.get("error");
    let text = match error {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Object(e)) => {
            let message = e
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or("no message");
            match e
                .get("type")
                .or_else(|| e.get("code"))
                .and_then(Value::as_str)
            {
                Some(kind) => format!("{kind}: {message}"),
                None => message.to_owned(),
            }
        }
        _ => cloudflare_errors(&value).or_else(|| {
            value
                .get("detail")
                .and_then(Value::as_str)
                .map(str::to_owned)
        })?,
    };
    Some(cut(&text, 300))
}

fn cloudflare_errors(value: &Value) -> Option<String> {
    let errors = value.get("errors")?.as_array()?;
    let texts: Vec<String> = errors
        .iter()
        .map(|e| {
            let code = e.get("code").map(|c| format!("{c}: ")).unwrap_or_default();
            format!(
                "{code}{}",
                e.get("message")
                    .and_then(Value::as_str)
                    .unwrap_or("no message")
            )
        })
        .collect();
    (!texts.is_empty()).then(|| texts.join("; "))
}

/// `error` with when to ask again, when the headers say: `retry-after-ms`
/// (OpenAI), else `retry-after` in seconds or as an HTTP date.
pub(crate) fn with_retry_after(error: Error, headers: &[(String, String)]) -> Error {
    let header = |name: &str| {
        headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.trim())
    };
    if let Some(ms) = header("retry-after-ms")
        .and_then(|v| v.parse::<f64>().ok())
        .filter(|v| v.is_finite() && *v >= 0.0)
    {
        return error.with_retry_after_ms(ms.ceil() as u64);
    }
    let Some(value) = header("retry-after") else {
        return error;
    };
    if let Ok(seconds) = value.parse::<f64>() {
        return match seconds.is_finite() && seconds >= 0.0 {
            true => error.with_retry_after_ms((seconds * 1000.0).ceil() as u64),
            false => error,
        };
    }
    match http_date_ms(value) {
        Some(at) => error.with_retry_at_ms(at),
        None => error,
    }
}

/// Parses an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) to Unix ms.
pub(crate) fn http_date_ms(text: &str) -> Option<u64> {
    let parts: Vec<&str> = text.split_whitespace().collect();
    let [_, day, month, year, time, "GMT"] = parts.as_slice() else {
        return None;
    };
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let month = MONTHS.iter().position(|m| m == month)? as u32 + 1;
    let (day, year) = (day.parse::<u32>().ok()?, year.parse::<i64>().ok()?);
    let clock: Vec<u64> = time
        .split(':')
        .map(|p| p.parse::<u64>().ok())
        .collect::<Option<_>>()?;
    let [h, m, s] = clock.as_slice() else {
        return None;
    };
    if !(1..=31).contains(&day) || *h > 23 || *m > 59 || *s > 60 || year < 1970 {
        return None;
    }
    if year > 9999 {
        return None;
    }
    let days = u64::try_from(days_from_civil(year, month, day)).ok()?;
    let seconds = days * 86_400 + h * 3600 + m * 60 + s;
    seconds.checked_mul(1000)
}

/// Days since 1970-01-01 (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let yoe = year - era * 400;
    let month = i64::from(month);
    let doy = (153 * (if month > 2 { month - 3 } else { month + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Replaces anything that looks like an API key (`sk-...`, `Bearer ...`)
/// with `[redacted]`. Providers echo masked keys in 401 messages.
pub(crate) fn redact(text: &str) -> String {
    let mut out = Vec::new();
    let mut after_bearer = false;
    for word in text.split(' ') {
        let bare = word
            .trim_matches(|c: char| !c.is_ascii_alphanumeric() && c != '-' && c != '_' && c != '*');
        let keyish = bare.starts_with("sk-")
            || bare.starts_with("sk_")
            || (bare.len() >= 32 && is_token(bare));
        if after_bearer || keyish {
            out.push(word.replace(bare, "[redacted]"));
        } else {
            out.push(word.to_owned());
        }
        after_bearer = word.eq_ignore_ascii_case("bearer");
    }
    out.join(" ")
}

fn is_token(word: &str) -> bool {
    word.chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        && word.chars().any(|c| c.is_ascii_digit())
        && word.chars().any(|c| c.is_ascii_alphabetic())
}

fn cut(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn http_dates() {
        assert_eq!(
            http_date_ms("Sun, 06 Nov 1994 08:49:37 GMT"),
            Some(784_111_777_000)
        );
        assert_eq!(http_date_ms("Thu, 01 Jan 1970 00:00:00 GMT"), Some(0));
        assert_eq!(
            http_date_ms("Sat, 29 Feb 2020 12:00:00 GMT"),
            Some(1_582_977_600_000)
        );
        assert_eq!(http_date_ms("Sunday, 06-Nov-94 08:49:37 GMT"), None);
        assert_eq!(http_date_ms("Sun, 06 Nov 1994 25:49:37 GMT"), None);
        assert_eq!(
            http_date_ms("Sun, 06 Nov 99999999999999 08:49:37 GMT"),
            None
        );
    }

    #[test]
    fn retry_after_forms() {
        let after = |headers: &[(&str, &str)], now: u64| {
            let error = failure(ModelFailure::RateLimited, "x");
            with_retry_after(error, &h(headers)).retry_after_ms(now)
        };
        assert_eq!(after(&[("Retry-After", "2")], 0), Some(2000));
        assert_eq!(after(&[("retry-after", "0.5")], 0), Some(500));
        assert_eq!(
            after(&[("retry-after-ms", "150"), ("retry-after", "9")], 0),
            Some(150)
        );
        let date = [("retry-after", "Sun, 06 Nov 1994 08:49:37 GMT")];
        assert_eq!(after(&date, 784_111_775_500), Some(1500));
        assert_eq!(after(&date, 784_111_999_000), Some(0));
        assert_eq!(after(&[("retry-after", "soon")], 0), None);
        assert_eq!(after(&[("retry-after", "-1")], 0), None);
    }

    #[test]
    fn status_mapping() {
        let kinds: Vec<Option<ModelFailure>> = [401, 403, 408, 429, 500, 503, 529, 404]
            .iter()
            .map(|s| status_error(*s, &[], "").code().model_failure())
            .collect();
        use ModelFailure::*;
        assert_eq!(
            kinds,
            [
                Auth,
                Auth,
                Timeout,
                RateLimited,
                Unavailable,
                Unavailable,
                Unavailable,
                Unavailable
            ]
            .map(Some)
        );
        let body = r#"{"error": {"message": "'response_format' of type 'json_schema' is not supported", "type": "invalid_request_error"}}"#;
        assert_eq!(
            status_error(400, &[], body).code(),
            genui_core::ErrorCode::Model(FormatUnsupported)
        );
        assert_eq!(
            status_error(400, &[], r#"{"error": {"message": "bad"}}"#).code(),
            genui_core::ErrorCode::Model(Unavailable)
        );
    }

    #[test]
    fn error_bodies() {
        assert_eq!(
            error_body_message(r#"{"error": "boom"}"#).as_deref(),
            Some("boom")
        );
        assert_eq!(
            error_body_message(r#"{"detail": "nope"}"#).as_deref(),
            Some("nope")
        );
        assert_eq!(
            error_body_message(
                r#"{"success": false, "errors": [{"code": 7003, "message": "No route"}]}"#
            )
            .as_deref(),
            Some("7003: No route")
        );
        assert_eq!(error_body_message("<html>"), None);
    }

    #[test]
    fn keys_are_redacted() {
        let text =
            redact("Incorrect API key provided: sk-proj-abc*****************xyz9. You can find...");
        assert!(
            !text.contains("sk-proj") && text.contains("[redacted]"),
            "{text}"
        );
        assert_eq!(
            redact("Authorization: Bearer abc123"),
            "Authorization: Bearer [redacted]"
        );
        assert_eq!(redact("plain words stay"), "plain words stay");
        let e = failure(ModelFailure::Auth, "key my-secret-value leaked")
            .without_secret(Some("my-secret-value"));
        assert!(!e.to_string().contains("my-secret-value"));
        assert_eq!(e.to_string(), "model_auth: key [redacted] leaked");
    }
}
