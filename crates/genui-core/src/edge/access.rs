//! Who may call, and from which web origins: bearer API keys and CORS.
//!
//! Keys: when `API_KEYS` (a secret, comma-separated) is set,
//! `/v1/generate`, `/v1/submit` and `/v1/tool` need `Authorization: Bearer
//! <key>` (`Route::needs_key`; the scheme in any case, read by
//! [`bearer_token`] here and in the shell's rate limiter); `/v1/webhook` is
//! authenticated by its signature instead (`crate::edge::webhook`), and
//! `/healthz`, `/openapi.json` and `/schemas/` stay public. Keys are compared as SHA-256
//! digests with `subtle`'s constant-time equality, against every configured
//! key, so timing says nothing about how much of a key matched or which.
//! Unset means open: for local use only.
//!
//! CORS: `ALLOWED_ORIGINS` is `*` or a comma-separated list of origins, each
//! exact (`https://app.example`) or with a port wildcard
//! (`http://localhost:*`: that scheme and host on any port; [`origin_allowed`]).
//! There is no host wildcard: `https://*.example.com` lets nothing in. When
//! `ALLOWED_ORIGINS` is unset, `DEV_ALLOWED_ORIGINS`, the local default
//! `./scripts/dev.sh` passes, stands in for it ([`cors_origins`]), so an
//! explicit list from any source (`.dev.vars`, `--var`, `[vars]`) wins over
//! the default. An allowed origin gets `Access-Control-Allow-*` headers and
//! preflights are answered; any other origin gets no CORS headers at all, so
//! browsers refuse to share the answer.

use crate::error::{Detail, Error, ErrorCode, Result};
use crate::terms::response::HttpResponse;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;
use url::Url;

/// Checks the `Authorization` header against the configured keys. `keys`
/// is the `API_KEYS` value; `None` or blank means no authentication.
pub(crate) fn authorize(authorization: Option<&str>, keys: Option<&str>) -> Result<()> {
    let configured: Vec<&str> = keys
        .unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|k| !k.is_empty())
        .collect();
    if configured.is_empty() {
        return Ok(());
    }
    let presented = authorization.and_then(bearer_token).unwrap_or_default();
    let presented_digest = Sha256::digest(presented.as_bytes());
    let mut matched = subtle::Choice::from(0);
    for key in configured {
        matched |= Sha256::digest(key.as_bytes()).ct_eq(&presented_digest);
    }
    if presented.is_empty() || !bool::from(matched) {
        let why = if presented.is_empty() {
            "no bearer key was sent"
        } else {
            "the bearer key is not valid"
        };
        return Err(Error::new(
            ErrorCode::Unauthorized,
            format!("this endpoint needs `Authorization: Bearer <key>`: {why}"),
        ));
    }
    Ok(())
}

/// The token of an `Authorization: Bearer <token>` header, for every
/// reader of the header (keys here, rate-limit buckets in the shell). The
/// scheme is case-insensitive (RFC 7235 §2.1: `bearer`, `BEARER` and
/// `Bearer` are one scheme); the token is trimmed; an empty token or another
/// scheme is `None`.
pub(crate) fn bearer_token(authorization: &str) -> Option<&str> {
    let (scheme, token) = authorization.split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

/// A short, stable, non-reversible name for a key (rate-limit buckets, logs).
pub(crate) fn key_fingerprint(key: &str) -> String {
    hex::encode(&Sha256::digest(key.trim().as_bytes())[..8])
}

/// The origin list CORS applies: `ALLOWED_ORIGINS` when it is set, else
/// `DEV_ALLOWED_ORIGINS` (the local default of `./scripts/dev.sh`). An
/// explicit list replaces the default rather than adding to it.
pub(crate) fn cors_origins<'a>(
    allowed: Option<&'a str>,
    dev_default: Option<&'a str>,
) -> Option<&'a str> {
    allowed
        .filter(|list| !list.trim().is_empty())
        .or(dev_default)
}

/// Whether `origin` (an `Origin` header) is in `allowed`: `*`, or a
/// comma-separated list whose entries are an origin written out
/// (`https://app.example`, compared without regard to case) or an `http(s)`
/// origin with the port wildcard `:*` (`http://localhost:*`).
pub(crate) fn origin_allowed(origin: &str, allowed: Option<&str>) -> bool {
    allowed
        .unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|entry| !entry.is_empty())
        .any(|entry| entry_admits(entry, origin))
}

/// One entry of an origin list against an `Origin`.
fn entry_admits(entry: &str, origin: &str) -> bool {
    if entry == "*" || entry.eq_ignore_ascii_case(origin) {
        return true;
    }
    entry
        .strip_suffix(":*")
        .is_some_and(|base| same_scheme_and_host(base, origin))
}

/// `base` (an entry without its `:*`) and `origin` name the same scheme and
/// host; the origin's port is free. `base` must be a bare `http(s)` origin
/// with no port of its own and no `*` in its host.
fn same_scheme_and_host(base: &str, origin: &str) -> bool {
    let (Some(base), Some(origin)) = (bare_origin(base), bare_origin(origin)) else {
        return false;
    };
    base.port().is_none() && base.scheme() == origin.scheme() && base.host() == origin.host()
}

/// `text` parsed as a bare `http` or `https` origin: scheme, host and
/// optional port, nothing else (no user, path, query or fragment), and no
/// `*` in the host, so a wildcard never stands for a host.
fn bare_origin(text: &str) -> Option<Url> {
    let url = Url::parse(text).ok()?;
    let bare = matches!(url.scheme(), "http" | "https")
        && url.username().is_empty()
        && url.password().is_none()
        && url.path() == "/"
        && url.query().is_none()
        && url.fragment().is_none()
        && url.host_str().is_some_and(|host| !host.contains('*'));
    bare.then_some(url)
}

/// The answer headers a browser page may read: every header the worker
/// answers with that a client acts on.
pub(crate) const EXPOSED_HEADERS: [&str; 9] = [
    "x-request-id",
    "server-timing",
    "x-genui-generator",
    "x-genui-cache",
    "x-genui-spec-hash",
    "x-genui-warnings",
    "x-genui-unchecked",
    crate::interrupt::TOKEN_HEADER,
    "mcp-session-id",
];

/// CORS headers for an answer to `origin` (none for a disallowed origin).
pub(crate) fn cors_headers(origin: Option<&str>, allowed: Option<&str>) -> Vec<(String, String)> {
    let Some(origin) = origin.filter(|o| origin_allowed(o, allowed)) else {
        return Vec::new();
    };
    vec![
        ("access-control-allow-origin".into(), origin.to_owned()),
        ("vary".into(), "Origin".into()),
        (
            "access-control-expose-headers".into(),
            EXPOSED_HEADERS.join(", "),
        ),
    ]
}

/// Extra headers of a preflight answer to an allowed origin.
pub(crate) fn preflight_headers(
    origin: Option<&str>,
    allowed: Option<&str>,
) -> Vec<(String, String)> {
    let mut headers = cors_headers(origin, allowed);
    if !headers.is_empty() {
        headers.push((
            "access-control-allow-methods".into(),
            "GET, POST, OPTIONS".into(),
        ));
        headers.push(("access-control-allow-headers".into(), "authorization, content-type, a2ui-client-data-model, mcp-protocol-version, mcp-method, mcp-name, mcp-session-id".into()));
        headers.push(("access-control-max-age".into(), "86400".into()));
    }
    headers
}

/// The period of the rate limiter's `simple` rule in wrangler.toml, in
/// seconds (a limited caller's `Retry-After`).
const RATE_LIMIT_PERIOD_SECONDS: u32 = 60;

/// Who may call and from which origins (this module's functions, as the
/// shell calls them).
#[derive(Debug, Clone, Copy)]
pub struct Access;

impl Access {
    /// Checks an `Authorization` header against the configured keys.
    pub fn authorize(authorization: Option<&str>, keys: Option<&str>) -> Result<()> {
        authorize(authorization, keys)
    }

    /// The token of an `Authorization: Bearer <token>` header (the scheme
    /// in any case), the one parser for keys and rate-limit buckets.
    pub fn bearer_token(authorization: &str) -> Option<&str> {
        bearer_token(authorization)
    }

    /// A short, non-reversible name for a key (rate-limit buckets, logs).
    pub fn key_fingerprint(key: &str) -> String {
        key_fingerprint(key)
    }

    /// The rate limiter's bucket for a caller: `key:<fingerprint>` for a
    /// bearer key (never the key itself), else `ip:<client address>`
    /// (`unknown` without one).
    pub fn rate_limit_bucket(authorization: Option<&str>, client_ip: Option<&str>) -> String {
        match authorization.and_then(bearer_token) {
            Some(key) => format!("key:{}", key_fingerprint(key)),
            None => format!("ip:{}", client_ip.unwrap_or("unknown")),
        }
    }

    /// The answer to a caller over its budget: 429 `rate_limited`, with
    /// `Retry-After` the period of the limiter's rule (wrangler.toml).
    pub fn over_budget() -> HttpResponse {
        let error = Error::new(
            ErrorCode::RateLimited,
            format!("too many requests; try again in {RATE_LIMIT_PERIOD_SECONDS} s"),
        )
        .with(Detail::RetryAfterSeconds(RATE_LIMIT_PERIOD_SECONDS));
        let mut answer = HttpResponse::error(&error);
        let retry_after = RATE_LIMIT_PERIOD_SECONDS.to_string();
        answer.headers.push(("retry-after".into(), retry_after));
        answer
    }

    /// The origin list CORS applies: `ALLOWED_ORIGINS` (`allowed`) when set,
    /// else `DEV_ALLOWED_ORIGINS` (`dev_default`, `./scripts/dev.sh`'s).
    pub fn cors_origins<'a>(
        allowed: Option<&'a str>,
        dev_default: Option<&'a str>,
    ) -> Option<&'a str> {
        cors_origins(allowed, dev_default)
    }

    /// CORS headers for an answer to `origin`.
    pub fn cors_headers(origin: Option<&str>, allowed: Option<&str>) -> Vec<(String, String)> {
        cors_headers(origin, allowed)
    }

    /// The answer headers to a CORS preflight from `origin`.
    pub fn preflight_headers(origin: Option<&str>, allowed: Option<&str>) -> Vec<(String, String)> {
        preflight_headers(origin, allowed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_caller_is_limited_by_its_keys_fingerprint_else_its_address() {
        let by_key = Access::rate_limit_bucket(Some("Bearer k1"), Some("203.0.113.9"));
        assert_eq!(by_key, format!("key:{}", key_fingerprint("k1")));
        assert!(
            !by_key["key:".len()..].contains("k1"),
            "never the key itself"
        );
        assert_eq!(
            Access::rate_limit_bucket(Some("Basic k1"), Some("203.0.113.9")),
            "ip:203.0.113.9"
        );
        assert_eq!(Access::rate_limit_bucket(None, None), "ip:unknown");
        let limited = Access::over_budget();
        assert_eq!(limited.status, 429);
        assert_eq!(
            limited.headers.last(),
            Some(&("retry-after".into(), "60".into()))
        );
        let body: serde_json::Value = serde_json::from_str(&limited.body).unwrap();
        assert_eq!(body["code"], "rate_limited");
    }

    #[test]
    fn bearer_scheme_is_case_insensitive() {
        for header in ["Bearer k1", "bearer k1", "BEARER k1", "BeArEr   k1 "] {
            assert_eq!(bearer_token(header), Some("k1"), "{header}");
        }
        for header in [
            "Basic k1",
            "Bearer",
            "Bearer ",
            "Bearerk1",
            "",
            "Token Bearer k1",
        ] {
            assert_eq!(bearer_token(header), None, "{header}");
        }
        assert!(authorize(Some("BEARER k2"), Some("k1, k2")).is_ok());
    }

    #[test]
    fn keys() {
        assert!(authorize(None, None).is_ok());
        assert!(authorize(None, Some(" ")).is_ok());
        assert!(authorize(Some("Bearer k2"), Some("k1, k2")).is_ok());
        let e = authorize(Some("Bearer k3"), Some("k1,k2")).unwrap_err();
        assert_eq!((e.code(), e.http_status()), (ErrorCode::Unauthorized, 401));
        assert!(authorize(None, Some("k1")).is_err());
        assert!(
            authorize(Some("k1"), Some("k1")).is_err(),
            "the Bearer scheme is required"
        );
        assert!(authorize(Some("Bearer "), Some("k1")).is_err());
    }

    #[test]
    fn a_page_may_read_the_interrupt_token_header() {
        let headers = cors_headers(Some("https://app.example"), Some("https://app.example"));
        let exposed = headers
            .iter()
            .find(|(name, _)| name == "access-control-expose-headers")
            .map(|(_, value)| value.as_str())
            .unwrap_or_default();
        assert!(
            exposed.split(", ").any(|h| h == "x-genui-interrupt-token"),
            "{exposed}"
        );
        assert!(
            exposed.split(", ").any(|h| h == "x-genui-spec-hash"),
            "{exposed}"
        );
    }

    #[test]
    fn cors() {
        assert!(cors_headers(Some("https://app.example"), None).is_empty());
        assert!(cors_headers(Some("https://evil.example"), Some("https://app.example")).is_empty());
        let h = cors_headers(
            Some("https://app.example"),
            Some("https://other.example, https://app.example"),
        );
        assert_eq!(
            h[0],
            (
                "access-control-allow-origin".into(),
                "https://app.example".into()
            )
        );
        assert_eq!(preflight_headers(Some("http://x"), Some("*")).len(), 6);
        assert!(cors_headers(None, Some("*")).is_empty());
    }

    /// The list `./scripts/dev.sh` passes as `DEV_ALLOWED_ORIGINS`, read
    /// from the file it reads it from.
    fn dev_default() -> String {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../scripts/lib/dev-defaults.vars"
        );
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let value = text
            .lines()
            .find_map(|line| line.strip_prefix("DEV_ALLOWED_ORIGINS:"))
            .unwrap_or_else(|| panic!("{path} sets no DEV_ALLOWED_ORIGINS"));
        value.to_owned()
    }

    #[test]
    fn a_port_wildcard_admits_its_scheme_and_host_on_any_port() {
        let dev = dev_default();
        for origin in [
            "http://localhost:3000",
            "http://localhost:5173",
            "http://localhost",
            "http://LOCALHOST:8080",
            "http://127.0.0.1:3000",
        ] {
            assert!(origin_allowed(origin, Some(dev.as_str())), "{origin}");
        }
        let h = cors_headers(Some("http://localhost:3000"), Some(dev.as_str()));
        assert_eq!(
            h[0],
            (
                "access-control-allow-origin".into(),
                "http://localhost:3000".into()
            )
        );
        for origin in [
            "https://localhost:3000",
            "http://localhost.evil.example:3000",
            "http://evil.example",
            "http://127.0.0.2:3000",
            "http://[::1]:3000",
            "http://user@localhost:3000",
            "http://localhost:3000/path",
            "null",
            "",
        ] {
            assert!(!origin_allowed(origin, Some(dev.as_str())), "{origin}");
        }
    }

    #[test]
    fn a_wildcard_never_stands_for_a_host() {
        for entry in [
            "https://*.example.com:*",
            "https://*.example.com",
            "http://*:*",
            "*:*",
            "https://*",
        ] {
            for origin in [
                "https://app.example.com",
                "https://example.com",
                "http://localhost:3000",
            ] {
                assert!(
                    !origin_allowed(origin, Some(entry)),
                    "{entry} let {origin} in"
                );
            }
        }
        // Not even an `Origin` spelled with the `*` itself (no browser sends
        // one; a script can).
        for (entry, origin) in [
            ("http://*:*", "http://*:3000"),
            ("https://*.example.com:*", "https://*.example.com"),
        ] {
            assert!(
                !origin_allowed(origin, Some(entry)),
                "{entry} let {origin} in"
            );
        }
        // A wildcard entry that is not a bare origin lets nothing in either.
        for entry in [
            "http://localhost:8080:*",
            "http://localhost/app:*",
            "http://user@localhost:*",
            "ftp://localhost:*",
        ] {
            assert!(
                !origin_allowed("http://localhost:3000", Some(entry)),
                "{entry}"
            );
        }
    }

    #[test]
    fn an_explicit_list_replaces_the_dev_default() {
        let dev = dev_default();
        let explicit = Some("https://app.example");
        let list = cors_origins(explicit, Some(dev.as_str()));
        assert!(origin_allowed("https://app.example", list));
        assert!(
            !origin_allowed("http://localhost:3000", list),
            "the explicit list wins over the default, it does not add to it"
        );
        let list = cors_origins(None, Some(dev.as_str()));
        assert!(origin_allowed("http://localhost:3000", list));
        assert!(!origin_allowed("https://app.example", list));
        let list = cors_origins(Some("  "), Some(dev.as_str()));
        assert!(
            origin_allowed("http://localhost:3000", list),
            "a blank list is unset"
        );
        assert_eq!(cors_origins(None, None), None);
    }
}
