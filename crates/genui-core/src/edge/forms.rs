//! Hosted forms: the signed link a person opens (`/f/<token>`) and the
//! pages the worker serves there, sans-IO (the shell keeps the spec and
//! the submission in the token's Durable Object and does the delivery).
//!
//! A token is `<payload>.<signature>`, both base64url without padding: the
//! payload is compact JSON of a [`FormToken`], the signature HMAC-SHA256
//! under `WEBHOOK_SECRET` of `"genui-form-token.<expiresAt>.<payload>"`
//! ([`crate::edge::webhook::Purpose::FormToken`]), so a webhook's or a
//! callback's signature never passes for a token. Nothing a person fills
//! in is in the token: pre-fill travels in the URL fragment (`#data=`),
//! which browsers never send; where the shown values matter, the token
//! carries the SHA-256 of that fragment's JSON text and the page refuses a
//! fragment that differs.

use crate::edge::webhook::{mac, Purpose};
use crate::error::{Error, ErrorCode, Result};
use base64::Engine as _;
use hmac::Mac as _;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Longest token accepted (a longer one is refused unread).
pub(crate) const MAX_TOKEN_CHARS: usize = 4096;

/// Longest life of a link, in seconds (never past the spec's own TTL).
pub(crate) const MAX_LIFETIME_SECONDS: u64 = 24 * 3600;

const B64: base64::engine::GeneralPurpose = base64::engine::general_purpose::URL_SAFE_NO_PAD;

/// What a hosted form's link carries, signed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FormToken {
    /// The spec's hash (`meta.specHash`).
    #[serde(rename = "s")]
    pub spec_hash: String,
    /// The tool call the answer goes back to.
    #[serde(rename = "t", default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// Where the signed tool message is POSTed.
    #[serde(rename = "u")]
    pub callback_url: String,
    /// Unix seconds after which the link is refused (410).
    #[serde(rename = "e")]
    pub expires_at: u64,
    /// The language of the page (BCP 47).
    #[serde(rename = "l", default, skip_serializing_if = "Option::is_none")]
    pub locale: Option<String>,
    /// SHA-256 (hex) of the fragment's JSON text, when the shown values matter.
    #[serde(rename = "d", default, skip_serializing_if = "Option::is_none")]
    pub data_hash: Option<String>,
    /// Makes two links for the same call distinct (the shell's random id).
    #[serde(rename = "n")]
    pub nonce: String,
}

/// Why a token is refused: `not_found` (404) for a forged, malformed or
/// oversized one, `form_expired` (410) for an expired one.
fn refused(expired: bool) -> Error {
    match expired {
        true => Error::new(ErrorCode::FormExpired, "this form link has expired"),
        false => Error::new(ErrorCode::NotFound, "this form link is not valid"),
    }
}

impl FormToken {
    /// The signed token.
    pub fn sign(&self, secret: &str) -> String {
        let payload = B64.encode(serde_json::to_vec(self).unwrap_or_default());
        let digest = mac(Purpose::FormToken, secret, self.expires_at, payload.as_bytes()).finalize().into_bytes();
        format!("{payload}.{}", B64.encode(digest))
    }

    /// The token's fields, when its signature is valid and it has not
    /// expired at `now` (Unix seconds).
    pub fn verify(token: &str, secret: &str, now: u64) -> Result<Self> {
        if token.len() > MAX_TOKEN_CHARS {
            return Err(refused(false));
        }
        let (payload, signature) = token.split_once('.').ok_or_else(|| refused(false))?;
        let signature = B64.decode(signature).map_err(|_| refused(false))?;
        let fields: FormToken = B64.decode(payload).ok().and_then(|bytes| serde_json::from_slice(&bytes).ok()).ok_or_else(|| refused(false))?;
        // Constant-time comparison (`verify_slice`), over the payload as sent.
        mac(Purpose::FormToken, secret, fields.expires_at, payload.as_bytes()).verify_slice(&signature).map_err(|_| refused(false))?;
        if now >= fields.expires_at {
            return Err(refused(true));
        }
        Ok(fields)
    }

    /// The name of the token's Durable Object: the hex SHA-256 of the
    /// whole token (one object per link).
    pub fn object_name(token: &str) -> String {
        use sha2::Digest as _;
        hex::encode(sha2::Sha256::digest(token.as_bytes()))
    }

    /// The fragment's JSON text for `data` and its hash: what the link
    /// carries after `#data=`, and what the token binds.
    pub fn fragment(data: &Value) -> Option<(String, String)> {
        use sha2::Digest as _;
        if data.is_null() {
            return None;
        }
        let text = data.to_string();
        let hash = hex::encode(sha2::Sha256::digest(text.as_bytes()));
        Some((text, hash))
    }

    /// The link's path and fragment: `/f/<token>#data=<JSON, percent-encoded>`.
    pub fn path(token: &str, fragment: Option<&str>) -> String {
        match fragment {
            Some(text) => format!("/f/{token}#data={}", percent_encoding::utf8_percent_encode(text, percent_encoding::NON_ALPHANUMERIC)),
            None => format!("/f/{token}"),
        }
    }

    /// When a link made at `now` expires: `MAX_LIFETIME_SECONDS` later,
    /// never after the spec's time to live.
    pub fn expiry(now: u64, spec_ttl_seconds: u64) -> u64 {
        now + MAX_LIFETIME_SECONDS.min(spec_ttl_seconds)
    }

    /// `expiresAt` as an RFC 3339 UTC timestamp.
    pub fn expires_at_text(&self) -> String {
        rfc3339(self.expires_at)
    }
}

/// Unix seconds as `YYYY-MM-DDTHH:MM:SSZ` (civil-from-days, proleptic Gregorian).
fn rfc3339(seconds: u64) -> String {
    let days = (seconds / 86_400) as i64;
    let rest = seconds % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z", rest / 3600, rest % 3600 / 60, rest % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token() -> FormToken {
        FormToken {
            spec_hash: "a".repeat(64),
            tool_call_id: Some("call_1".into()),
            callback_url: "https://agent.example.com/hook".into(),
            expires_at: 2_000,
            locale: Some("de-AT".into()),
            data_hash: None,
            nonce: "n1".into(),
        }
    }

    #[test]
    fn tokens_round_trip_and_refuse_forgery_and_expiry() {
        let signed = token().sign("s3cret");
        assert_eq!(FormToken::verify(&signed, "s3cret", 1_000).unwrap(), token());
        assert_eq!(FormToken::verify(&signed, "other", 1_000).unwrap_err().http_status(), 404);
        assert_eq!(FormToken::verify(&signed, "s3cret", 2_000).unwrap_err().http_status(), 410);
        // Another payload under the old signature: a later expiry, another callback.
        let (_, signature) = signed.split_once('.').unwrap();
        let mut forged = token();
        forged.expires_at = 9_999;
        let forged_payload = B64.encode(serde_json::to_vec(&forged).unwrap());
        assert_eq!(FormToken::verify(&format!("{forged_payload}.{signature}"), "s3cret", 1_000).unwrap_err().http_status(), 404);
        for bad in ["", ".", "x.y", "%%%.%%%", &"a".repeat(MAX_TOKEN_CHARS + 1)] {
            assert_eq!(FormToken::verify(bad, "s3cret", 1_000).unwrap_err().http_status(), 404, "{bad:.20}");
        }
    }

    #[test]
    fn a_webhook_or_callback_signature_is_no_token() {
        let t = token();
        let payload = B64.encode(serde_json::to_vec(&t).unwrap());
        for purpose in [Purpose::Webhook, Purpose::Callback] {
            let digest = mac(purpose, "s3cret", t.expires_at, payload.as_bytes()).finalize().into_bytes();
            let other = format!("{payload}.{}", B64.encode(digest));
            assert_eq!(FormToken::verify(&other, "s3cret", 1_000).unwrap_err().http_status(), 404);
        }
    }

    #[test]
    fn links_carry_data_in_the_fragment_and_times_in_utc() {
        let (text, hash) = FormToken::fragment(&serde_json::json!({"to": "Bob", "eur": 10})).unwrap();
        assert_eq!(text, r#"{"to":"Bob","eur":10}"#);
        assert_eq!(hash.len(), 64);
        assert_eq!(FormToken::path("tok", Some(&text)), "/f/tok#data=%7B%22to%22%3A%22Bob%22%2C%22eur%22%3A10%7D");
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(1795564800), "2026-11-25T00:00:00Z");
        assert_eq!(FormToken::expiry(100, 60), 160);
        assert_eq!(FormToken::expiry(100, 10 * 86_400), 100 + MAX_LIFETIME_SECONDS);
    }
}
