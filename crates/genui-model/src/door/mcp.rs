//! `POST /mcp`: the MCP server's effects. The core reads and answers the
//! protocol (`genui_core::Mcp`); a tool call comes back as the same
//! generate job or submission `/v1` runs, which this door runs with the
//! same effects (KV, the model ladder) before the core wraps the answer as
//! the tool's result; a host without the form view gets a hosted link
//! ([`forms::issue`]) whose object keeps the answer for a later read.

use super::{forms, generate, read_body, submit, unix_s, Platform, SECRET};
use genui_core::{Error, ErrorCode, FormToken, HttpResponse, Mcp, McpSettings};

/// `POST /mcp`.
pub(super) async fn mcp<P: Platform>(platform: &P) -> HttpResponse {
    let limits = platform.limits();
    let body = match read_body(platform, &limits).await {
        Ok(body) => body,
        // A refusal is a JSON-RPC error (413 for size).
        Err(error) => return Mcp::refuse(&error),
    };
    let header = |name: &str| platform.header(name);
    let hosts = platform.setting("MCP_ALLOWED_HOSTS");
    let origins = platform.setting("MCP_ALLOWED_ORIGINS");
    let cors_origins = super::cors_origins(platform);
    let secret = platform.setting(SECRET);
    let settings = McpSettings {
        hosts: hosts.as_deref(),
        origins: origins.as_deref(),
        cors_origins: cors_origins.as_deref(),
        secret: secret.as_deref(),
        now: unix_s(platform),
        view: platform.mcp_view(),
    };
    match Mcp::read(&body, &header, settings, &limits) {
        Mcp::Answer(response) => response,
        Mcp::Generate(job, call) => call.tool_result(&generate::generate_job(platform, *job).await),
        Mcp::Submit(submission, call) => {
            let request_id = platform.request_id();
            let answer = submit::submitted(platform, *submission, &request_id).await;
            call.tool_result(&answer.into_response())
        }
        // A host without the form view: the form behind a hosted link
        // whose object keeps the answer.
        Mcp::Link(job, link) => match forms::issue(platform, *job, None).await {
            Ok((answer, issued)) => {
                let token = issued.token.sign(secret.as_deref().unwrap_or_default());
                let path = FormToken::path(&token, issued.fragment.as_deref());
                let url = format!("{}{path}", platform.origin());
                link.tool_result(&answer, Some(&url), settings)
            }
            Err(answer) => link.tool_result(&answer, None, settings),
        },
        Mcp::Read(read) => match forms::kept_answer(platform, read.object_name()).await {
            Ok(kept) => read.answer(kept.as_deref()),
            Err(e) => Mcp::refuse(&Error::new(
                ErrorCode::Internal,
                format!("the form's answer could not be read: {}", e.message()),
            )),
        },
    }
}
