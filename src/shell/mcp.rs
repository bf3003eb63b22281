//! `POST /mcp`: the MCP server is a front door (`genui_model::Door::mcp`);
//! the shell only gives it the form view the worker is built with.

use super::platform::Worker;
use genui_core::HttpResponse;
use genui_model::Door;

/// The form view `ui://genui/form`, built by scripts/build-mcp-view.sh
/// (which scripts/build-wasm.sh runs first).
const VIEW_HTML: &str = include_str!("../../mcp-view/dist/view.html");

pub(super) async fn handle(door: &Door<Worker>) -> HttpResponse {
    door.mcp(Some(VIEW_HTML)).await
}
