//! The front doors: each HTTP endpoint's flow, from the request's facts
//! to its answer, written once over the effects of one [`Platform`].
//!
//! A door decides the order of the steps (read the body within the
//! limits, prepare the job, ask the cache, run the generation machine,
//! store, answer); the platform only performs them. The worker shell
//! implements [`Platform`] over workers-rs and turns an [`Answer`] into
//! its response; the tests in `tests.rs` implement it in memory, so every
//! door's order runs natively.
//!
//! `serve` routes a request to its door. One module per door (`generate`,
//! `render_spec`, `submit`, `webhook`, `forms`, `mcp`, `agent` with proxy
//! mode's `relay`), and the drive loops they share (`drive`: the generation
//! machine's effects performed, as one answer or as an event stream).

mod agent;
mod drive;
mod forms;
mod generate;
mod mcp;
mod platform;
mod relay;
mod render_spec;
mod serve;
mod submit;
#[cfg(test)]
mod tests;
mod warm;
mod webhook;

pub use platform::Platform;
pub use serve::serve;
pub use warm::{warm_up, WARM_UP_REQUEST};

use crate::stream::CONTENT_TYPE as EVENT_STREAM_CONTENT_TYPE;
use futures::channel::mpsc::{self, UnboundedReceiver};
use futures::{Stream, StreamExt};
use genui_core::{Access, Error, ErrorCode, HttpResponse, Limits};
use std::fmt::Display;

/// What a door answers: a whole response, or the head of an event stream
/// and its frames as they are written.
#[derive(Debug)]
pub enum Answer {
    /// The whole response.
    Whole(HttpResponse),
    /// An event stream: its head (status, headers), then its frames.
    Stream {
        /// Status and headers; the body is the frames.
        head: HttpResponse,
        /// The frames, in order; the stream ends when the sender closes.
        frames: UnboundedReceiver<String>,
    },
}

impl Answer {
    /// An event stream whose frames come through `frames`.
    pub fn event_stream(frames: UnboundedReceiver<String>) -> Self {
        Answer::Stream {
            head: HttpResponse {
                status: 200,
                headers: vec![("content-type".into(), EVENT_STREAM_CONTENT_TYPE.into())],
                body: String::new(),
            },
            frames,
        }
    }

    /// An event stream whose frames are all known: written at once, then closed.
    pub fn written(text: String) -> Self {
        let (tx, rx) = mpsc::unbounded();
        let _ = tx.unbounded_send(text);
        Self::event_stream(rx)
    }

    /// Gives a stream's head the headers every whole answer gets from
    /// [`HttpResponse::wire_headers`] and a stream needs too: never cached,
    /// and the request's id. They come first, so the head's own win.
    fn stamp_stream_head(&mut self, request_id: &str) {
        if let Answer::Stream { head, .. } = self {
            let stamped = [
                ("cache-control".to_owned(), "no-store".to_owned()),
                ("x-request-id".to_owned(), request_id.to_owned()),
            ];
            head.headers.splice(0..0, stamped);
        }
    }

    /// The response, or a stream's head.
    fn head_mut(&mut self) -> &mut HttpResponse {
        match self {
            Answer::Whole(response) => response,
            Answer::Stream { head, .. } => head,
        }
    }

    /// The response (a stream's head), and a stream's frames.
    pub fn into_parts(self) -> (HttpResponse, Option<UnboundedReceiver<String>>) {
        match self {
            Answer::Whole(response) => (response, None),
            Answer::Stream { head, frames } => (head, Some(frames)),
        }
    }
}

/// The request body within the byte limit: an announced oversize body is
/// refused before reading it, an unannounced one (chunked) as soon as the
/// bytes read pass the limit, with the same `body_too_large` error. An
/// announced body within the limit is read in one call (the runtime holds
/// it to its length): chunk by chunk costs a promise and a copy per chunk.
async fn read_body<P: Platform>(platform: &P, limits: &Limits) -> Result<Vec<u8>, Error> {
    let announced = limits.check_content_length(platform.header("content-length").as_deref())?;
    let body = match announced {
        Some(_) => platform.read_announced_body().await?,
        None => platform.read_body(limits.max_body_bytes).await?,
    };
    limits.check_body_read(body.len())?;
    Ok(body)
}

/// The bytes of a request body's `chunks` until they end or pass
/// `max_bytes`: at most `max_bytes + 1` bytes are ever kept (only the part
/// of a chunk that still fits is copied, so one huge chunk is not buffered
/// whole) and the rest is never read, so the door can refuse the body as
/// too large. A chunk that fails is an `invalid_request`.
async fn read_at_most<S, B, E>(chunks: S, max_bytes: usize) -> Result<Vec<u8>, Error>
where
    S: Stream<Item = Result<B, E>>,
    B: AsRef<[u8]>,
    E: Display,
{
    let kept_at_most = max_bytes.saturating_add(1);
    let mut body = Vec::new();
    let mut chunks = std::pin::pin!(chunks);
    while let Some(chunk) = chunks.next().await {
        let chunk = chunk.map_err(|e| unreadable_body(&e))?;
        let chunk = chunk.as_ref();
        let remaining = kept_at_most - body.len();
        body.extend_from_slice(&chunk[..chunk.len().min(remaining)]);
        if body.len() == kept_at_most {
            break;
        }
    }
    Ok(body)
}

/// The error of a request body that could not be read, and why.
fn unreadable_body(why: &dyn Display) -> Error {
    Error::new(
        ErrorCode::InvalidRequest,
        format!("the request body could not be read: {why}"),
    )
}

/// The secret that signs webhooks, hosted links, interrupt tokens and
/// resume entries.
const SECRET: &str = "WEBHOOK_SECRET";

/// The Durable Object binding of hosted forms' links and of every outbox
/// (a hosted form's answer, a webhook's callback).
const FORMS_BINDING: &str = "FORMS";

/// Whether callbacks may go to `http` and local URLs (a dev setting).
fn allow_http_callbacks<P: Platform>(platform: &P) -> bool {
    platform.setting("WEBHOOK_ALLOW_HTTP_CALLBACKS").as_deref() == Some("true")
}

/// Whole seconds since the epoch, at the platform's clock.
fn unix_s<P: Platform>(platform: &P) -> u64 {
    platform.now_ms() / 1000
}

/// The origins CORS allows: `ALLOWED_ORIGINS`, or `./scripts/dev.sh`'s
/// `DEV_ALLOWED_ORIGINS` when that is unset.
fn cors_origins<P: Platform>(platform: &P) -> Option<String> {
    let allowed = platform.setting("ALLOWED_ORIGINS");
    let dev_default = platform.setting("DEV_ALLOWED_ORIGINS");
    Access::cors_origins(allowed.as_deref(), dev_default.as_deref()).map(str::to_owned)
}
