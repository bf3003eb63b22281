//! Turning core responses into worker responses, and the per-request log line.

use genui_core::HttpResponse;
use worker::{console_log, Headers, Request, Response, Result};

/// What the log line and headers need from the request.
pub(super) struct RequestInfo {
    pub(super) id: String,
    pub(super) method: String,
    pub(super) path: String,
    pub(super) started_ms: f64,
}

impl RequestInfo {
    pub(super) fn new(req: &Request) -> Self {
        let started_ms = super::clock::now_ms();
        let id = req
            .headers()
            .get("cf-ray")
            .ok()
            .flatten()
            .unwrap_or_else(|| format!("{:x}-{:x}", started_ms as u64, next_counter()));
        // A hosted form's path is its link (a capability): never logged.
        let path = genui_core::FormToken::redact_path(&req.path()).into_owned();
        Self {
            id,
            method: req.method().to_string(),
            path,
            started_ms,
        }
    }
}

fn next_counter() -> u32 {
    use std::cell::Cell;
    thread_local!(static COUNTER: Cell<u32> = const { Cell::new(0) });
    COUNTER.with(|c| {
        c.set(c.get().wrapping_add(1));
        c.get()
    })
}

/// The worker's response of `response`, with the headers and body the
/// core sends for the request's method.
pub(super) fn into_response(response: HttpResponse, info: &RequestInfo) -> Result<Response> {
    let headers = Headers::new();
    let elapsed = super::clock::now_ms() - info.started_ms;
    for (name, value) in response.wire_headers(&info.id, elapsed) {
        headers.set(&name, &value)?;
    }
    let status = response.status;
    let base = match response.wire_body(&info.method) {
        None => Response::empty()?,
        Some(body) => Response::from_bytes(body.into_bytes())?,
    };
    Ok(base.with_status(status).with_headers(headers))
}

/// One JSON line per request: no bodies, no data, no secrets.
pub(super) fn log_line(info: &RequestInfo, response: &HttpResponse) {
    let duration = super::clock::now_ms() - info.started_ms;
    let line = response.log_line(&info.id, &info.method, &info.path, duration);
    console_log!("{line}");
}
