//! DNS-rebinding protection for `/mcp`, as the Streamable HTTP transport
//! asks: the `Host` must be one this deployment serves, and an `Origin`, when
//! a browser or a host sends one, must be such a host or an origin the
//! settings let in. Anything else is 403 before the body is looked at, with
//! a message that names the refused value.
//!
//! `MCP_ALLOWED_HOSTS` (comma-separated host names, ports ignored) names the
//! hosts; unset, only `localhost`, `127.0.0.1` and `[::1]` are served, which
//! is right under `wrangler dev` and must be set for a deployment (e.g.
//! `genui.example.workers.dev`).
//!
//! `MCP_ALLOWED_ORIGINS` lists the origins of MCP hosts (`https://claude.ai`)
//! for `/mcp` alone, in the grammar of `ALLOWED_ORIGINS`
//! (`crate::edge::access`: exact origins, a `:*` port wildcard, no host
//! wildcard). The `/v1` CORS list (`ALLOWED_ORIGINS`, or the local default
//! when it is unset) lets an origin in here too, as it always has, so a
//! deployment that listed its hosts there keeps working.

use crate::edge::access::origin_allowed;
use crate::error::{Error, ErrorCode, Result};

const LOCAL_HOSTS: [&str; 3] = ["localhost", "127.0.0.1", "[::1]"];

/// What `/mcp` needs beyond the request, as the shell read it (`None`:
/// unset): the host and origin lists the guard checks, the secret and
/// time an elicitation's signed `requestState` needs, and the form view
/// the worker was built with.
#[derive(Clone, Copy, Default)]
pub struct McpSettings<'a> {
    /// `MCP_ALLOWED_HOSTS`: the host names `/mcp` answers on.
    pub hosts: Option<&'a str>,
    /// `MCP_ALLOWED_ORIGINS`: origins let in to `/mcp` only.
    pub origins: Option<&'a str>,
    /// The `/v1` CORS list (`ALLOWED_ORIGINS`, else `DEV_ALLOWED_ORIGINS`),
    /// which lets an origin in to `/mcp` too.
    pub cors_origins: Option<&'a str>,
    /// `WEBHOOK_SECRET`, which signs a `requestState` (none: elicitations
    /// carry no state).
    pub secret: Option<&'a str>,
    /// Unix seconds.
    pub now: u64,
    /// The built MCP App view served as `ui://genui/form`
    /// (`scripts/build-mcp-view.sh`); `None` when the worker has none, and
    /// `resources/read` of it is then an `internal_error`.
    pub view: Option<&'a str>,
}

/// Never prints the secret.
impl std::fmt::Debug for McpSettings<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpSettings")
            .field("hosts", &self.hosts)
            .field("origins", &self.origins)
            .field("cors_origins", &self.cors_origins)
            .field("secret", &self.secret.map(|_| "[redacted]"))
            .field("now", &self.now)
            .field("view", &self.view.map(str::len))
            .finish()
    }
}

impl<'a> McpSettings<'a> {
    /// What elicitation state needs of these settings.
    pub(super) fn forms(&self) -> super::McpForms<'a> {
        super::McpForms {
            secret: self.secret,
            now: self.now,
        }
    }
}

/// Checks `Host` and `Origin` (header values, already trimmed).
pub(super) fn check(
    host: Option<&str>,
    origin: Option<&str>,
    guard: McpSettings<'_>,
) -> Result<()> {
    let served = |name: &str| match guard.hosts.filter(|h| !h.trim().is_empty()) {
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
        let ok = origin_allowed(origin, guard.origins)
            || origin_allowed(origin, guard.cors_origins)
            || origin_host.is_some_and(|h| served(&h));
        if !ok {
            return Err(forbidden(format!(
                "the Origin `{origin}` may not call /mcp; list it in MCP_ALLOWED_ORIGINS"
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

    /// A guard with `MCP_ALLOWED_HOSTS` and the `/v1` CORS list.
    fn hosts_and_cors<'a>(hosts: Option<&'a str>, cors: Option<&'a str>) -> McpSettings<'a> {
        McpSettings {
            hosts,
            origins: None,
            cors_origins: cors,
            ..McpSettings::default()
        }
    }

    const LOCAL: Option<&str> = Some("127.0.0.1:8787");

    #[test]
    fn debug_never_prints_the_secret() {
        let settings = McpSettings {
            secret: Some("whsec_do_not_print"),
            ..McpSettings::default()
        };
        let printed = format!("{settings:?}");
        assert!(!printed.contains("whsec_do_not_print"), "{printed}");
        assert!(printed.contains("[redacted]"), "{printed}");
    }

    #[test]
    fn local_hosts_by_default() {
        let unset = McpSettings::default();
        assert!(check(LOCAL, None, unset).is_ok());
        assert!(check(Some("localhost"), Some("http://localhost:8787"), unset).is_ok());
        assert!(check(Some("[::1]:8787"), Some("http://[::1]:8787"), unset).is_ok());
        let e = check(
            Some("evil.example.com"),
            Some("http://evil.example.com"),
            unset,
        )
        .unwrap_err();
        assert_eq!((e.code(), e.http_status()), (ErrorCode::Forbidden, 403));
        assert!(check(None, None, unset).is_err(), "HTTP/1.1 requires Host");
    }

    #[test]
    fn configured_hosts_and_origins() {
        let hosts = Some("genui.example.workers.dev");
        let deployed = hosts_and_cors(hosts, None);
        assert!(check(Some("genui.example.workers.dev"), None, deployed).is_ok());
        assert!(
            check(LOCAL, None, deployed).is_err(),
            "the list replaces the default"
        );
        let unset = McpSettings::default();
        assert!(check(LOCAL, Some("http://evil.example"), unset).is_err());
        let cors = hosts_and_cors(None, Some("https://app.example"));
        assert!(check(LOCAL, Some("https://app.example"), cors).is_ok());
        assert!(check(LOCAL, Some("null"), unset).is_err());
    }

    #[test]
    fn mcp_allowed_origins_let_hosts_in() {
        let guard = McpSettings {
            hosts: Some("genui.example.workers.dev"),
            origins: Some("https://claude.ai, https://vscode.dev, http://localhost:*"),
            ..McpSettings::default()
        };
        let host = Some("genui.example.workers.dev");
        for origin in [
            "https://claude.ai",
            "https://vscode.dev",
            "http://localhost:6274",
        ] {
            assert!(check(host, Some(origin), guard).is_ok(), "{origin}");
        }
        for origin in [
            "https://evil.example",
            "https://insiders.vscode.dev",
            "https://claude.ai.evil.example",
        ] {
            let e = check(host, Some(origin), guard).unwrap_err();
            assert_eq!(e.http_status(), 403, "{origin}");
            assert!(
                e.message().contains(origin) && e.message().contains("MCP_ALLOWED_ORIGINS"),
                "the refusal names the Origin and the setting: {}",
                e.message()
            );
        }
    }

    #[test]
    fn the_cors_list_still_applies_and_wildcards_are_ports_only() {
        let legacy = hosts_and_cors(None, Some("https://claude.ai"));
        assert!(
            check(LOCAL, Some("https://claude.ai"), legacy).is_ok(),
            "ALLOWED_ORIGINS keeps letting an origin in to /mcp"
        );
        let dev = hosts_and_cors(
            Some("tunnel.example"),
            Some("http://localhost:*,http://127.0.0.1:*"),
        );
        assert!(check(Some("tunnel.example"), Some("http://localhost:3000"), dev).is_ok());
        assert!(check(Some("tunnel.example"), Some("http://evil.example"), dev).is_err());
        let host_wildcard = McpSettings {
            origins: Some("https://*.example.com"),
            ..McpSettings::default()
        };
        assert!(check(LOCAL, Some("https://app.example.com"), host_wildcard).is_err());
    }
}
