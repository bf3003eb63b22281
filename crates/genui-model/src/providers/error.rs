//! Provider failures and their stable codes; HTTP error bodies of every
//! provider; `Retry-After` (seconds or HTTP date, resolved against a `now`
//! the caller passes).

use serde_json::{json, Value};
use std::fmt;

/// What went wrong, by what the caller can do about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// No answer in time (attempt timeout or overall deadline).
    Timeout,
    /// Unreachable, 5xx, or a request the server would not serve.
    Unavailable,
    /// 429: try again later.
    RateLimited,
    /// An answer, but no usable plan: not JSON, truncated, refused, or a
    /// plan that failed its checks after the retry.
    OutputInvalid,
    /// 401/403: the key is missing, wrong or not allowed.
    Auth,
    /// The server rejected `response_format: json_schema`.
    FormatUnsupported,
}

impl ErrorKind {
    /// The stable `dgui_error.code`.
    pub fn code(self) -> &'static str {
        match self {
            Self::Timeout => "model_timeout",
            Self::Unavailable | Self::FormatUnsupported => "model_unavailable",
            Self::RateLimited => "model_rate_limited",
            Self::OutputInvalid => "model_output_invalid",
            Self::Auth => "model_auth",
        }
    }

    /// The HTTP status of a `dgui_error` with this code (the model is an
    /// upstream: its failures are gateway errors, except rate limits).
    pub fn http_status(self) -> u16 {
        match self {
            Self::Timeout => 504,
            Self::RateLimited => 429,
            _ => 502,
        }
    }
}

/// When a rate-limited request may be retried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RetryAfter {
    /// After this many milliseconds.
    Delay(u64),
    /// At this Unix time in milliseconds (an HTTP date).
    At(u64),
}

/// A provider failure. Messages come from the provider's error body where
/// there is one, with anything that looks like a key redacted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderError {
    /// The kind (and through it the code).
    pub kind: ErrorKind,
    /// What happened, for logs and `dgui_error.message`.
    pub message: String,
    /// The HTTP status, when there was a response.
    pub status: Option<u16>,
    /// `Retry-After`, for rate limits.
    pub retry_after: Option<RetryAfter>,
    /// The model's raw output, when it answered with something unusable (fed
    /// back in the retry turn; capped).
    pub output: Option<String>,
}

/// Raw output kept for a retry is cut at this many bytes.
const MAX_OUTPUT_BYTES: usize = 16 * 1024;

impl ProviderError {
    /// A new error; the message is redacted.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Self { kind, message: redact(&message.into()), status: None, retry_after: None, output: None }
    }

    /// Records the HTTP status.
    pub fn with_status(mut self, status: u16) -> Self {
        self.status = Some(status);
        self
    }

    /// Records the model's raw output (cut to a bounded size).
    pub fn with_output(mut self, output: &str) -> Self {
        let mut end = output.len().min(MAX_OUTPUT_BYTES);
        while !output.is_char_boundary(end) {
            end -= 1;
        }
        self.output = Some(output[..end].to_owned());
        self
    }

    /// The stable code.
    pub fn code(&self) -> &'static str {
        self.kind.code()
    }

    /// The HTTP status for a `dgui_error` of this error.
    pub fn http_status(&self) -> u16 {
        self.kind.http_status()
    }

    /// Milliseconds to wait before retrying, given the current time.
    pub fn retry_after_ms(&self, now_ms: u64) -> Option<u64> {
        match self.retry_after? {
            RetryAfter::Delay(ms) => Some(ms),
            RetryAfter::At(at) => Some(at.saturating_sub(now_ms)),
        }
    }

    /// Removes every occurrence of `secret` (the configured key) from the
    /// message and output.
    pub fn without_secret(mut self, secret: Option<&str>) -> Self {
        let Some(secret) = secret.filter(|s| s.len() >= 4) else { return self };
        self.message = self.message.replace(secret, "[redacted]");
        self.output = self.output.map(|o| o.replace(secret, "[redacted]"));
        self
    }

    /// The `dgui_error` body.
    pub fn to_dgui_error(&self) -> Value {
        let mut payload = json!({"provider_status": self.status});
        if let Some(RetryAfter::Delay(ms)) = self.retry_after {
            payload["retry_after_ms"] = json!(ms);
        }
        json!({"type": "dgui_error", "code": self.code(), "message": self.message, "payload": payload})
    }
}

impl fmt::Display for ProviderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code(), self.message)
    }
}

impl std::error::Error for ProviderError {}

/// The error for a non-2xx response, from its status, headers and body.
/// The JSON of a 2xx answer: a non-2xx status is the provider's error
/// (from its body and headers), and a body that is not JSON is an
/// `Unavailable` error naming `what` it should have been.
pub(crate) fn success_json(status: u16, headers: &[(String, String)], body: &str, what: &str) -> Result<Value, ProviderError> {
    if !(200..300).contains(&status) {
        return Err(status_error(status, headers, body));
    }
    serde_json::from_str(body)
        .map_err(|e| ProviderError::new(ErrorKind::Unavailable, format!("{what} is not JSON: {e}")).with_status(status))
}

pub(crate) fn status_error(status: u16, headers: &[(String, String)], body: &str) -> ProviderError {
    let detail = error_body_message(body).unwrap_or_else(|| format!("HTTP {status}"));
    let lower = detail.to_ascii_lowercase();
    let (kind, what) = match status {
        401 | 403 => (ErrorKind::Auth, "the provider refused the credentials"),
        408 => (ErrorKind::Timeout, "the provider timed out"),
        429 => (ErrorKind::RateLimited, "the provider is rate limiting"),
        400 | 422 if lower.contains("response_format") || lower.contains("json_schema") => {
            (ErrorKind::FormatUnsupported, "the server does not support response_format json_schema")
        }
        500..=599 => (ErrorKind::Unavailable, "the provider failed"),
        _ => (ErrorKind::Unavailable, "the provider rejected the request"),
    };
    let mut error = ProviderError::new(kind, format!("{what} (HTTP {status}): {detail}")).with_status(status);
    if kind == ErrorKind::RateLimited {
        error.retry_after = retry_after(headers);
    }
    error
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
            let message = e.get("message").and_then(Value::as_str).unwrap_or("no message");
            match e.get("type").or_else(|| e.get("code")).and_then(Value::as_str) {
                Some(kind) => format!("{kind}: {message}"),
                None => message.to_owned(),
            }
        }
        _ => cloudflare_errors(&value).or_else(|| value.get("detail").and_then(Value::as_str).map(str::to_owned))?,
    };
    Some(cut(&text, 300))
}

fn cloudflare_errors(value: &Value) -> Option<String> {
    let errors = value.get("errors")?.as_array()?;
    let texts: Vec<String> = errors
        .iter()
        .map(|e| {
            let code = e.get("code").map(|c| format!("{c}: ")).unwrap_or_default();
            format!("{code}{}", e.get("message").and_then(Value::as_str).unwrap_or("no message"))
        })
        .collect();
    (!texts.is_empty()).then(|| texts.join("; "))
}

/// `retry-after-ms` (OpenAI), else `retry-after` in seconds or as an HTTP date.
pub fn retry_after(headers: &[(String, String)]) -> Option<RetryAfter> {
    let header = |name: &str| headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.trim());
    if let Some(ms) = header("retry-after-ms").and_then(|v| v.parse::<f64>().ok()).filter(|v| v.is_finite() && *v >= 0.0) {
        return Some(RetryAfter::Delay(ms.ceil() as u64));
    }
    let value = header("retry-after")?;
    if let Ok(seconds) = value.parse::<f64>() {
        return (seconds.is_finite() && seconds >= 0.0).then(|| RetryAfter::Delay((seconds * 1000.0).ceil() as u64));
    }
    http_date_ms(value).map(RetryAfter::At)
}

/// Parses an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) to Unix ms.
pub(crate) fn http_date_ms(text: &str) -> Option<u64> {
    let parts: Vec<&str> = text.split_whitespace().collect();
    let [_, day, month, year, time, "GMT"] = parts.as_slice() else { return None };
    const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    let month = MONTHS.iter().position(|m| m == month)? as u32 + 1;
    let (day, year) = (day.parse::<u32>().ok()?, year.parse::<i64>().ok()?);
    let clock: Vec<u64> = time.split(':').map(|p| p.parse::<u64>().ok()).collect::<Option<_>>()?;
    let [h, m, s] = clock.as_slice() else { return None };
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
        let bare = word.trim_matches(|c: char| !c.is_ascii_alphanumeric() && c != '-' && c != '_' && c != '*');
        let keyish = bare.starts_with("sk-") || bare.starts_with("sk_") || (bare.len() >= 32 && is_token(bare));
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
    word.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
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
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn http_dates() {
        assert_eq!(http_date_ms("Sun, 06 Nov 1994 08:49:37 GMT"), Some(784_111_777_000));
        assert_eq!(http_date_ms("Thu, 01 Jan 1970 00:00:00 GMT"), Some(0));
        assert_eq!(http_date_ms("Sat, 29 Feb 2020 12:00:00 GMT"), Some(1_582_977_600_000));
        assert_eq!(http_date_ms("Sunday, 06-Nov-94 08:49:37 GMT"), None);
        assert_eq!(http_date_ms("Sun, 06 Nov 1994 25:49:37 GMT"), None);
        assert_eq!(http_date_ms("Sun, 06 Nov 99999999999999 08:49:37 GMT"), None);
    }

    #[test]
    fn retry_after_forms() {
        assert_eq!(retry_after(&h(&[("Retry-After", "2")])), Some(RetryAfter::Delay(2000)));
        assert_eq!(retry_after(&h(&[("retry-after", "0.5")])), Some(RetryAfter::Delay(500)));
        assert_eq!(retry_after(&h(&[("retry-after-ms", "150"), ("retry-after", "9")])), Some(RetryAfter::Delay(150)));
        let at = retry_after(&h(&[("retry-after", "Sun, 06 Nov 1994 08:49:37 GMT")]));
        assert_eq!(at, Some(RetryAfter::At(784_111_777_000)));
        let error = ProviderError { retry_after: at, ..ProviderError::new(ErrorKind::RateLimited, "x") };
        assert_eq!(error.retry_after_ms(784_111_775_500), Some(1500));
        assert_eq!(error.retry_after_ms(784_111_999_000), Some(0));
        assert_eq!(retry_after(&h(&[("retry-after", "soon")])), None);
        assert_eq!(retry_after(&h(&[("retry-after", "-1")])), None);
    }

    #[test]
    fn status_mapping() {
        let kinds: Vec<ErrorKind> = [401, 403, 408, 429, 500, 503, 529, 404]
            .iter()
            .map(|s| status_error(*s, &[], "").kind)
            .collect();
        use ErrorKind::*;
        assert_eq!(kinds, [Auth, Auth, Timeout, RateLimited, Unavailable, Unavailable, Unavailable, Unavailable]);
        let body = r#"{"error": {"message": "'response_format' of type 'json_schema' is not supported", "type": "invalid_request_error"}}"#;
        assert_eq!(status_error(400, &[], body).kind, FormatUnsupported);
        assert_eq!(status_error(400, &[], r#"{"error": {"message": "bad"}}"#).kind, Unavailable);
    }

    #[test]
    fn error_bodies() {
        assert_eq!(error_body_message(r#"{"error": "boom"}"#).as_deref(), Some("boom"));
        assert_eq!(error_body_message(r#"{"detail": "nope"}"#).as_deref(), Some("nope"));
        assert_eq!(
            error_body_message(r#"{"success": false, "errors": [{"code": 7003, "message": "No route"}]}"#).as_deref(),
            Some("7003: No route")
        );
        assert_eq!(error_body_message("<html>"), None);
    }

    #[test]
    fn keys_are_redacted() {
        let text = redact("Incorrect API key provided: sk-proj-abc*****************xyz9. You can find...");
        assert!(!text.contains("sk-proj") && text.contains("[redacted]"), "{text}");
        assert_eq!(redact("Authorization: Bearer abc123"), "Authorization: Bearer [redacted]");
        assert_eq!(redact("plain words stay"), "plain words stay");
        let e = ProviderError::new(ErrorKind::Auth, "key my-secret-value leaked").without_secret(Some("my-secret-value"));
        assert!(!e.to_string().contains("my-secret-value"));
        assert_eq!(e.to_string(), "model_auth: key [redacted] leaked");
    }
}
