//! Turning core responses into worker responses, and the per-request log line.

use genui_core::HttpResponse;
use serde_json::json;
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

pub(super) fn into_response(response: HttpResponse, info: &RequestInfo) -> Result<Response> {
    let headers = Headers::new();
    headers.set("content-type", "application/json; charset=utf-8")?;
    headers.set("cache-control", "no-store")?;
    headers.set("x-request-id", &info.id)?;
    let elapsed = super::clock::now_ms() - info.started_ms;
    headers.set("server-timing", &format!("total;dur={elapsed}"))?;
    for (name, value) in &response.headers {
        headers.set(name, value)?;
    }
    // A 204 must carry no body at all (not even an empty one).
    let base = if response.status == 204 {
        Response::empty()?
    } else if info.method == "HEAD" {
        Response::from_bytes(Vec::new())?
    } else {
        Response::from_bytes(response.body.into_bytes())?
    };
    Ok(base.with_status(response.status).with_headers(headers))
}

/// One JSON line per request: no bodies, no data, no secrets.
pub(super) fn log_line(info: &RequestInfo, response: &HttpResponse) {
    // Provenance travels in the answer's headers; the log reads it there.
    let header = |wanted: &str| {
        response
            .headers
            .iter()
            .find(|(name, _)| name == wanted)
            .map(|(_, v)| v.as_str())
    };
    let (generator, cache) = (header("x-genui-generator"), header("x-genui-cache"));
    let line = json!({
        "requestId": info.id,
        "method": info.method,
        "route": info.path,
        "status": response.status,
        "cache": cache,
        "generator": generator,
        "durationMs": super::clock::now_ms() - info.started_ms,
    });
    console_log!("{line}");
}
