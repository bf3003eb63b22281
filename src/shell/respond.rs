//! Turning a door's answer into the worker's response.

use futures::StreamExt;
use genui_core::HttpResponse;
use worker::{Headers, Request, Response, Result};

/// What the log line and headers need from the request.
pub(super) struct RequestInfo {
    pub(super) id: String,
    pub(super) method: String,
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
        Self {
            id,
            method: req.method().to_string(),
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

/// The frames of an event stream, as a door writes them.
pub(super) type SseBody = futures::channel::mpsc::UnboundedReceiver<String>;

/// The worker response of a stream: the head's headers (content type,
/// `cache-control`, request id, CORS: the door set them all) and the
/// frames as they come.
pub(super) fn into_sse_response(head: HttpResponse, body: SseBody) -> Result<Response> {
    let headers = Headers::new();
    for (name, value) in &head.headers {
        headers.set(name, value)?;
    }
    let frames = body.map(|text| Ok::<Vec<u8>, worker::Error>(text.into_bytes()));
    Ok(Response::from_stream(frames)?
        .with_status(head.status)
        .with_headers(headers))
}
