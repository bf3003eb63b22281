//! DNS-rebinding protection for `/mcp`, as the Streamable HTTP transport
//! asks: the `Host` must be one this deployment serves, and an `Origin`, when
//! a browser sends one, must be that host or an origin `ALLOWED_ORIGINS`
//! lets in. Anything else is 403 before the body is looked at.
//!
//! `MCP_ALLOWED_HOSTS` (comma-separated host names, ports ignored) names the
//! hosts; unset, only `localhost`, `127.0.0.1` and `[::1]` are served, which
//! is right under `wrangler dev` and must be set for a deployment (e.g.
//! `genui.example.workers.dev`).

use crate::edge::access::origin_allowed;
use crate::error::{Error, ErrorCode, Result};

const LOCAL_HOSTS: [&str; 3] = ["localhost", "127.0.0.1", "[::1]"];

/// Checks `Host` and `Origin` (header values, already trimmed).
pub(super) fn check(
    host: Option<&str>,
    origin: Option<&str>,
    allowed_hosts: Option<&str>,
    allowed_origins: Option<&str>,
) -> Result<()> {
    let served = |name: &str| match allowed_hosts.filter(|h| !h.trim().is_empty()) {
        Some(list) => list
            .split(',')
            .map(str::trim)
            .any(|h| h.eq_ignore_ascii_case(name)),
        None => LOCAL_HOSTS.iter().any(|h| h.eq_ignore_ascii_case(name)),
    };
    let host_name = host.map(without_port).unwrap_or_default();
    if !served(host_name) {
        return Err(forbidden(format!("the Host `{}` is not served by /mcp; set MCP_ALLOWED_HOSTS to the names this worker answers on", host.unwrap_or_default())).at("Host"));
    }
    if let Some(origin) = origin {
        let origin_host = url::Url::parse(origin)
            .ok()
            .and_then(|u| u.host_str().map(str::to_owned));
        let ok = origin_allowed(origin, allowed_origins) || origin_host.is_some_and(|h| served(&h));
        if !ok {
            return Err(forbidden(format!(
                "the Origin `{origin}` may not call /mcp; list it in ALLOWED_ORIGINS"
            ))
            .at("Origin"));
        }
    }
    Ok(())
}

fn forbidden(message: String) -> Error {
    Error::new(ErrorCode::Forbidden, message)
}

/// `example.com:8787` -> `example.com`, `[::1]:8787` -> `[::1]`.
fn without_port(host: &str) -> &str {
    match host.rfind(':') {
        Some(colon)
            if !host[colon..].contains(']')
                && host[colon + 1..].bytes().all(|b| b.is_ascii_digit()) =>
        {
            &host[..colon]
        }
        _ => host,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_hosts_by_default() {
        assert!(check(Some("127.0.0.1:8787"), None, None, None).is_ok());
        assert!(check(Some("localhost"), Some("http://localhost:8787"), None, None).is_ok());
        assert!(check(Some("[::1]:8787"), Some("http://[::1]:8787"), None, None).is_ok());
        let e = check(
            Some("evil.example.com"),
            Some("http://evil.example.com"),
            None,
            None,
        )
        .unwrap_err();
        assert_eq!((e.code(), e.http_status()), (ErrorCode::Forbidden, 403));
        assert!(
            check(None, None, None, None).is_err(),
            "HTTP/1.1 requires Host"
        );
    }

    #[test]
    fn configured_hosts_and_origins() {
        let hosts = Some("genui.example.workers.dev");
        assert!(check(Some("genui.example.workers.dev"), None, hosts, None).is_ok());
        assert!(
            check(Some("127.0.0.1:8787"), None, hosts, None).is_err(),
            "the list replaces the default"
        );
        assert!(check(
            Some("127.0.0.1:8787"),
            Some("http://evil.example"),
            None,
            None
        )
        .is_err());
        assert!(check(
            Some("127.0.0.1:8787"),
            Some("https://app.example"),
            None,
            Some("https://app.example")
        )
        .is_ok());
        assert!(check(Some("127.0.0.1:8787"), Some("null"), None, None).is_err());
    }
}
