//! `POST /mcp`: the shell's half of the MCP server. The core reads and
//! answers the protocol (`genui_core::Mcp`); a tool call comes back as the
//! same generate job or submission `/v1` runs, which this module runs with the
//! same effects (isolate memory, KV, the model ladder) before the core wraps
//! the answer as the tool's result.

use super::platform::Worker;
use genui_core::{Error, ErrorCode, HttpResponse, Limits, Mcp, McpSettings};
use genui_model::{Door, Platform};
use worker::Env;

/// The form view `ui://genui/form`, built by scripts/build-mcp-view.sh
/// (which scripts/build-wasm.sh runs first).
const VIEW_HTML: &str = include_str!("../../mcp-view/dist/view.html");

pub(super) async fn handle(
    door: &Door<Worker>,
    worker: &Worker,
    env: &Env,
    request_id: &str,
) -> HttpResponse {
    let limits = super::settings::limits(env);
    let body = match read_body(door, &limits).await {
        Ok(body) => body,
        Err(response) => return response,
    };
    let header = |name: &str| worker.header(name);
    let hosts = super::settings::setting(env, "MCP_ALLOWED_HOSTS");
    let origins = super::settings::setting(env, "MCP_ALLOWED_ORIGINS");
    let cors_origins = super::settings::cors_origins(env);
    let secret = super::settings::setting(env, "WEBHOOK_SECRET");
    let settings = McpSettings {
        hosts: hosts.as_deref(),
        origins: origins.as_deref(),
        cors_origins: cors_origins.as_deref(),
        secret: secret.as_deref(),
        now: super::clock::unix_s(),
        view: Some(VIEW_HTML),
    };
    match Mcp::read(&body, &header, settings, &limits) {
        Mcp::Answer(response) => response,
        Mcp::Generate(job, call) => call.tool_result(&door.generate_job(*job).await),
        Mcp::Submit(submission, call) => {
            let answer = door.submitted(*submission, request_id).await;
            call.tool_result(&answer.into_response())
        }
        // A host without the form view: the form behind a hosted link
        // whose object keeps the answer.
        Mcp::Link(job, link) => match super::forms::issue(*job, door, env, None).await {
            Ok((answer, issued)) => {
                let token = issued.token.sign(secret.as_deref().unwrap_or_default());
                let path = genui_core::FormToken::path(&token, issued.fragment.as_deref());
                let url = format!("{}{path}", worker.origin());
                link.tool_result(&answer, Some(&url), settings)
            }
            Err(answer) => link.tool_result(&answer, None, settings),
        },
        Mcp::Read(read) => match super::forms::kept_answer(env, read.object_name()).await {
            Ok(kept) => read.answer(kept.as_deref()),
            Err(e) => Mcp::refuse(&Error::new(
                ErrorCode::Internal,
                format!("the form's answer could not be read: {e}"),
            )),
        },
    }
}

/// The body, refusing an announced oversize body before reading it; a
/// refusal is a JSON-RPC error (413 for size).
async fn read_body(door: &Door<Worker>, limits: &Limits) -> Result<Vec<u8>, HttpResponse> {
    door.body(limits).await.map_err(|e| Mcp::refuse(&e))
}
