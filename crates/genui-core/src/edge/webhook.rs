//! Signed agent webhooks: `POST /v1/webhook` takes a tool call signed with
//! HMAC-SHA256, Stripe style, and may send the answer to a callback URL,
//! signed the same way.
//!
//! The header `X-Genui-Signature: t=<unix seconds>,v1=<hex>` carries the
//! timestamp and one or more signatures (several `v1` during a secret
//! rotation); each is HMAC-SHA256 under `WEBHOOK_SECRET` of
//! `"<purpose>.<t>.<raw body>"`, the purpose `genui-webhook` for requests
//! to `/v1/webhook`, `genui-callback` for the worker's callbacks and
//! `genui-form-token` for hosted form links, `genui-generator` for the
//! worker's requests to an operator's `http` generators, `genui-interrupt`
//! for interrupt tokens and `genui-resume` for signed resume entries
//! ([`Purpose`]): one secret, and
//! a signature made for one use is never accepted for another. A signature is accepted for 300 s after its
//! timestamp, and from 30 s before it (clocks differ a little; a signature
//! is not made for later); comparison is constant time (`hmac`'s
//! `verify_slice`). A webhook request is also accepted only once: the
//! signature that verified becomes a [`ReplayClaim`] the shell makes once
//! ([`super::replay`]). The clock is an argument: this module never reads it.
//!
//! Callbacks go only to `https` URLs with a public destination
//! ([`callback_target`], the one check every callback URL passes; the
//! tables are [`super::destination`]'s). The dev setting
//! `WEBHOOK_ALLOW_HTTP_CALLBACKS` allows `http` and local destinations.

use super::destination;
use super::replay::{ReplayClaim, MAX_CLOCK_SKEW_SECONDS, TOLERANCE_SECONDS};
use crate::error::{Error, ErrorCode, Result};
use crate::terms::response::HttpResponse;
use crate::terms::signing::{mac, sign, Purpose};
use hmac::Mac;

/// The signature header.
pub(crate) const SIGNATURE_HEADER: &str = "x-genui-signature";

/// Verifies a signature header against the raw body at time `now` (Unix s).
pub(crate) fn verify(
    purpose: Purpose,
    header: Option<&str>,
    body: &[u8],
    secret: &str,
    now: u64,
) -> Result<()> {
    verified_mac(purpose, header, body, secret, now).map(|_| ())
}

/// Verifies like [`verify`] and returns the timestamp and the `v1` MAC
/// that matched (the one a replay would carry again).
fn verified_mac(
    purpose: Purpose,
    header: Option<&str>,
    body: &[u8],
    secret: &str,
    now: u64,
) -> Result<(u64, Vec<u8>)> {
    let header =
        header.ok_or_else(|| bad(&format!("the `{SIGNATURE_HEADER}` header is missing")))?;
    let mut timestamp = None;
    let mut signatures = Vec::new();
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", t)) => timestamp = t.parse::<u64>().ok(),
            Some(("v1", sig)) => signatures.extend(hex::decode(sig).ok()),
            _ => {}
        }
    }
    let timestamp =
        timestamp.ok_or_else(|| bad("the signature header has no valid `t=` timestamp"))?;
    check_fresh(timestamp, now)?;
    let matched = signatures.into_iter().find(|sig| {
        mac(purpose, secret, timestamp, body)
            .verify_slice(sig)
            .is_ok()
    });
    let matched = matched.ok_or_else(|| bad("no `v1=` signature matches the body"))?;
    Ok((timestamp, matched))
}

/// A timestamp at most [`TOLERANCE_SECONDS`] old and at most
/// [`MAX_CLOCK_SKEW_SECONDS`] ahead of `now`.
fn check_fresh(timestamp: u64, now: u64) -> Result<()> {
    if timestamp > now.saturating_add(MAX_CLOCK_SKEW_SECONDS) {
        let ahead = timestamp - now;
        return Err(bad(&format!("the signature timestamp is {ahead}s ahead of the worker's clock; at most {MAX_CLOCK_SKEW_SECONDS}s is allowed")));
    }
    let age = now.saturating_sub(timestamp);
    if age > TOLERANCE_SECONDS {
        return Err(bad(&format!(
            "the signature timestamp is {age}s old; at most {TOLERANCE_SECONDS}s is allowed"
        )));
    }
    Ok(())
}

fn bad(why: &str) -> Error {
    Error::new(
        ErrorCode::InvalidSignature,
        format!("webhook signature rejected: {why}"),
    )
}

/// Checks a callback URL: https (or http with `allow_http`), no
/// credentials, and a public destination (any destination with
/// `allow_http`, the dev setting). Every callback URL passes here.
pub(crate) fn callback_target(raw: &str, allow_http: bool) -> Result<url::Url> {
    let refuse = |why: &str| {
        Error::new(
            ErrorCode::InvalidRequest,
            format!("/callbackUrl {raw:?} is refused: {why}"),
        )
        .at("/callbackUrl")
    };
    let url = url::Url::parse(raw).map_err(|e| refuse(&e.to_string()))?;
    match url.scheme() {
        "https" => {}
        "http" if allow_http => {}
        _ => return Err(refuse("only https callbacks are allowed")),
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(refuse("credentials in the URL are not allowed"));
    }
    if !allow_http {
        if let Some(why) = destination::why_not_public(url.host()) {
            return Err(refuse(&format!(
                "{why}; callbacks go only to public destinations"
            )));
        }
    }
    Ok(url)
}

/// Signed agent webhooks (this module's functions, as the shell calls them).
#[derive(Debug, Clone, Copy)]
pub struct Webhook;

impl Webhook {
    /// The signature header.
    pub const SIGNATURE_HEADER: &'static str = SIGNATURE_HEADER;

    /// `t=<timestamp>,v1=<hex HMAC>` for a webhook request's `body`.
    pub fn sign(secret: &str, timestamp: u64, body: &[u8]) -> String {
        sign(Purpose::Webhook, secret, timestamp, body)
    }

    /// Checks a webhook request's signature header against `body` at the
    /// clock `now` (seconds).
    pub fn verify(header: Option<&str>, body: &[u8], secret: &str, now: u64) -> Result<()> {
        verify(Purpose::Webhook, header, body, secret, now)
    }

    /// Checks a webhook request like [`Webhook::verify`] and returns the
    /// claim the shell must make before answering: the request is accepted
    /// only if its signature was not accepted before ([`ReplayClaim`]).
    pub fn verify_once(
        header: Option<&str>,
        body: &[u8],
        secret: &str,
        now: u64,
    ) -> Result<ReplayClaim> {
        let (timestamp, mac) = verified_mac(Purpose::Webhook, header, body, secret, now)?;
        Ok(ReplayClaim::new(&mac, timestamp))
    }

    /// The signature header of a callback the worker POSTs to an agent.
    pub fn sign_callback(secret: &str, timestamp: u64, body: &[u8]) -> String {
        sign(Purpose::Callback, secret, timestamp, body)
    }

    /// Checks a callback's signature (what an agent's endpoint does).
    pub fn verify_callback(
        header: Option<&str>,
        body: &[u8],
        secret: &str,
        now: u64,
    ) -> Result<()> {
        verify(Purpose::Callback, header, body, secret, now)
    }

    /// The signature header of a data-free request the worker POSTs to an
    /// operator's `http` generator (its own purpose label).
    pub fn sign_generator(secret: &str, timestamp: u64, body: &[u8]) -> String {
        sign(Purpose::Generator, secret, timestamp, body)
    }

    /// Checks a generator request's signature (what an `http` generator does).
    pub fn verify_generator(
        header: Option<&str>,
        body: &[u8],
        secret: &str,
        now: u64,
    ) -> Result<()> {
        verify(Purpose::Generator, header, body, secret, now)
    }

    /// A callback URL the worker may POST to.
    pub fn callback_target(raw: &str, allow_http: bool) -> Result<url::Url> {
        callback_target(raw, allow_http)
    }

    /// The webhook's secret (the `WEBHOOK_SECRET` setting), or why the
    /// webhook is answered 404 without one.
    pub fn configured(secret: Option<String>) -> Result<String> {
        secret.ok_or_else(|| {
            Error::new(
                ErrorCode::NotFound,
                "the webhook is not configured (set the WEBHOOK_SECRET secret)",
            )
        })
    }

    /// Where a webhook's answer also goes: the request's `callbackUrl`
    /// (`raw`) when it is one the worker may POST to; `None` without one.
    pub fn callback_of(raw: Option<&str>, allow_http: bool) -> Result<Option<url::Url>> {
        raw.map(|raw| callback_target(raw, allow_http)).transpose()
    }

    /// What goes into the callback's outbox once the webhook is answered:
    /// the `callback` URL and the answer's body, only for a 200 answer (an
    /// error is the caller's to read, never POSTed to its callback).
    pub fn callback_delivery(
        callback: Option<url::Url>,
        answer: &HttpResponse,
    ) -> Option<(url::Url, String)> {
        callback
            .filter(|_| answer.status == 200)
            .map(|url| (url, answer.body.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_200_answer_is_posted_to_the_webhook_s_callback() {
        let url = url::Url::parse("https://agents.acme.com/cb").unwrap();
        let answer = |status| HttpResponse {
            status,
            headers: Vec::new(),
            body: format!("{{\"status\":{status}}}"),
        };
        assert_eq!(
            Webhook::callback_delivery(Some(url.clone()), &answer(200)),
            Some((url.clone(), "{\"status\":200}".to_owned()))
        );
        for status in [400, 422, 500, 502] {
            assert_eq!(
                Webhook::callback_delivery(Some(url.clone()), &answer(status)),
                None
            );
        }
        assert_eq!(Webhook::callback_delivery(None, &answer(200)), None);
    }

    #[test]
    fn a_webhook_needs_its_secret_and_sends_back_only_to_a_callback_it_may_post_to() {
        let unset = Webhook::configured(None).unwrap_err();
        assert_eq!(
            (unset.code(), unset.http_status()),
            (ErrorCode::NotFound, 404)
        );
        assert_eq!(Webhook::configured(Some("s".into())).unwrap(), "s");
        assert_eq!(Webhook::callback_of(None, false).unwrap(), None);
        let url = Webhook::callback_of(Some("https://agents.acme.com/cb"), false).unwrap();
        assert_eq!(
            url.map(String::from).as_deref(),
            Some("https://agents.acme.com/cb")
        );
        let http = Some("http://127.0.0.1:9/cb");
        assert_eq!(
            Webhook::callback_of(http, false).unwrap_err().http_status(),
            400
        );
        assert!(
            Webhook::callback_of(http, true).unwrap().is_some(),
            "the dev setting"
        );
    }

    #[test]
    fn signatures_round_trip_within_tolerance() {
        let header = Webhook::sign("s3cret", 1_000_000, b"{\"a\":1}");
        let verify = |h: Option<&str>, b: &[u8], s: &str, now| Webhook::verify(h, b, s, now);
        assert!(verify(Some(&header), b"{\"a\":1}", "s3cret", 1_000_100).is_ok());
        let callback = Webhook::sign_callback("s3cret", 1_000_000, b"{\"a\":1}");
        assert!(
            verify(Some(&callback), b"{\"a\":1}", "s3cret", 1_000_100).is_err(),
            "a callback's signature is no webhook's"
        );
        assert!(
            Webhook::verify_callback(Some(&header), b"{\"a\":1}", "s3cret", 1_000_100).is_err(),
            "nor the other way round"
        );
        assert!(
            Webhook::verify_callback(Some(&callback), b"{\"a\":1}", "s3cret", 1_000_100).is_ok()
        );
        let generator = Webhook::sign_generator("s3cret", 1_000_000, b"{\"a\":1}");
        assert!(
            Webhook::verify_generator(Some(&generator), b"{\"a\":1}", "s3cret", 1_000_100).is_ok()
        );
        assert!(
            Webhook::verify_generator(Some(&callback), b"{\"a\":1}", "s3cret", 1_000_100).is_err(),
            "a callback's signature is no generator request's"
        );
        assert!(
            verify(Some(&generator), b"{\"a\":1}", "s3cret", 1_000_100).is_err(),
            "nor a webhook's"
        );
        assert!(
            verify(Some(&header), b"{\"a\":2}", "s3cret", 1_000_100).is_err(),
            "body changed"
        );
        assert!(
            verify(Some(&header), b"{\"a\":1}", "other", 1_000_100).is_err(),
            "wrong secret"
        );
        assert!(
            verify(Some(&header), b"{\"a\":1}", "s3cret", 1_000_300).is_ok(),
            "the window's last second"
        );
        assert!(
            verify(Some(&header), b"{\"a\":1}", "s3cret", 1_000_301).is_err(),
            "too late"
        );
        assert!(
            verify(Some(&header), b"{\"a\":1}", "s3cret", 1_000_000 - 30).is_ok(),
            "30 s ahead: clocks differ"
        );
        assert!(
            verify(Some(&header), b"{\"a\":1}", "s3cret", 1_000_000 - 31).is_err(),
            "more than 30 s ahead"
        );
        assert!(verify(None, b"", "s3cret", 0).is_err());
        let rotated = format!("{},v1=00ff", header.replace("v1=", "v1=abcd,v1="));
        assert!(
            verify(Some(&rotated), b"{\"a\":1}", "s3cret", 1_000_000).is_ok(),
            "any v1 may match"
        );
        let e = verify(Some("t=x,v1=zz"), b"", "s", 0).unwrap_err();
        assert_eq!(
            (e.code(), e.http_status()),
            (ErrorCode::InvalidSignature, 401)
        );
    }

    #[test]
    fn callbacks_only_to_public_https() {
        assert!(callback_target("https://agent.example.com/hook", false).is_ok());
        for refused in [
            "http://agent.example.com/hook",
            "https://127.0.0.1/x",
            "https://10.1.2.3/",
            "https://[::1]/",
            "https://localhost:8443/",
            "https://169.254.169.254/latest",
            "https://user:pw@agent.example.com/",
            "ftp://x/",
            "https://[::ffff:192.168.0.1]/",
            "https://100.64.0.1/",
            "https://[::127.0.0.1]/",
            "https://[::ffff:0:127.0.0.1]/",
            "https://[64:ff9b::a9fe:a9fe]/",
            "https://[2002:7f00:1::]/",
            "https://[fec0::1]/",
            "https://[ff02::1]/",
            "https://0.0.0.1/",
            "https://198.18.0.1/",
            "https://192.0.0.1/",
            "https://metadata/",
            "https://localhost./",
            "http://2130706433/",
        ] {
            assert!(
                callback_target(refused, false).is_err(),
                "{refused} must be refused"
            );
        }
        let error = callback_target("https://[64:ff9b::a9fe:a9fe]/latest", false).unwrap_err();
        let body = error.to_dgui_error();
        assert_eq!(
            (error.code(), error.http_status()),
            (ErrorCode::InvalidRequest, 400)
        );
        assert_eq!(body["payload"]["pointer"], "/callbackUrl");
        let message = body["message"].as_str().unwrap_or_default();
        assert!(
            message.starts_with("/callbackUrl ") && message.contains("169.254.169.254"),
            "{message}"
        );
        assert!(
            callback_target("http://127.0.0.1:9000/hook", true).is_ok(),
            "a dev setting allows local http"
        );
    }
}
