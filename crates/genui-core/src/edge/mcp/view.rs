//! The MCP App view `ui://genui/form`: one static HTML page (MCP Apps,
//! `text/html;profile=mcp-app`) that renders the form markup of a
//! `generate_user_interface` result inside the host's sandboxed iframe.
//!
//! The page is built at build time (`scripts/build-mcp-view.sh` bundles
//! `mcp-view/` with `@modelcontextprotocol/ext-apps`'s `App`) and handed to
//! the core by the shell in [`super::McpSettings::view`], so the core stays free
//! of build output. It holds no request data (pre-fill values arrive via
//! the host's tool-input notification), so it is the same for every call and
//! can be cached publicly for a long time.

use serde_json::{json, Value};

pub(crate) const URI: &str = "ui://genui/form";
pub(crate) const MIME_TYPE: &str = "text/html;profile=mcp-app";
/// How long hosts may cache the view and the lists (2026-07-28 `ttlMs`):
/// a day; a deployment that changes the view changes nothing else a host
/// keeps, and the tool result always carries fresh markup.
pub(crate) const TTL_MS: u64 = 86_400_000;

/// `_meta.ui` of the resource: a CSP that allows no outside origin (the
/// page inlines its script and style and talks only to the host).
fn ui_meta() -> Value {
    json!({"ui": {
        "csp": {"connectDomains": [], "resourceDomains": [], "frameDomains": [], "baseUriDomains": []},
        "prefersBorder": true
    }})
}

/// The entry of `resources/list`.
pub(crate) fn listed() -> Value {
    json!({
        "uri": URI,
        "name": "genui-form",
        "title": "Form view",
        "description": "Renders a generate_user_interface form inside an MCP Apps host and submits it with submit_user_interface.",
        "mimeType": MIME_TYPE,
        "_meta": ui_meta()
    })
}

/// The `contents` entry of `resources/read`.
pub(crate) fn contents(html: &str) -> Value {
    json!({"uri": URI, "mimeType": MIME_TYPE, "text": html, "_meta": ui_meta()})
}
