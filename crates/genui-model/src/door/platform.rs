//! The one trait a front door runs on: every effect a request can have,
//! and nothing else. The worker shell implements it over workers-rs (the
//! request, `Env`, KV, `fetch`, Workers AI, timers, Durable Objects); the
//! doors' tests implement it in memory.
//!
//! A platform value is cheap to clone and owns what it reaches (`Clone +
//! 'static`), so the remainder of a stream can be moved into
//! [`Platform::after_response`]. Its futures need not be `Send`: a Worker
//! runs one request on one thread.

use crate::{AiCall, Event, Generators, HttpRequest};
use futures::future::LocalBoxFuture;
use futures::stream::LocalBoxStream;
use futures::Stream;
use genui_core::{CachePut, Error, Limits};
use serde_json::Value;
use std::fmt::Display;

/// A streamed answer's status, `Content-Type` and body chunks
/// ([`Platform::send_streaming`]).
pub(crate) type Streaming = (
    u16,
    Option<String>,
    LocalBoxStream<'static, Result<Vec<u8>, Error>>,
);

/// The effects of one request, performed by the runtime the worker runs on.
#[allow(async_fn_in_trait)]
pub trait Platform: Clone + 'static {
    // The request's facts.

    /// The request's method (`GET`, `POST`, ...).
    fn method(&self) -> String;

    /// The request's path (no query).
    fn path(&self) -> String;

    /// A request header's value (`None` when absent).
    fn header(&self, name: &str) -> Option<String>;

    /// The first value of a query parameter.
    fn query(&self, name: &str) -> Option<String>;

    /// The request's id (`cf-ray`, or one the worker made), for answers
    /// and log lines.
    fn request_id(&self) -> String;

    /// The request's origin (`https://host[:port]`), where links point.
    fn origin(&self) -> String;

    /// The request body, read until it ends or passes `max_bytes`: at most
    /// `max_bytes + 1` bytes, so a body that never announced its length
    /// (chunked) is not buffered whole before the door refuses it. A door
    /// checks `Content-Length` against its [`Limits`] before asking, so an
    /// announced oversize body is never read. A runtime hands its body's
    /// chunks to [`Platform::read_chunks_at_most`], which keeps that bound.
    async fn read_body(&self, max_bytes: usize) -> Result<Vec<u8>, Error>;

    /// The request body in one read. A door asks only when `Content-Length`
    /// announced a length within its [`Limits`], which the runtime holds the
    /// body to; the bytes read are checked against the limit again.
    async fn read_announced_body(&self) -> Result<Vec<u8>, Error>;

    /// The bytes of a body's `chunks` until they end or pass `max_bytes`:
    /// at most `max_bytes + 1` kept, even from one huge chunk, the rest
    /// never read; a chunk that fails is an `invalid_request`.
    async fn read_chunks_at_most<S, B, E>(chunks: S, max_bytes: usize) -> Result<Vec<u8>, Error>
    where
        Self: Sized,
        S: Stream<Item = Result<B, E>>,
        B: AsRef<[u8]>,
        E: Display,
    {
        super::read_at_most(chunks, max_bytes).await
    }

    /// The error of a request body that could not be read, and why.
    fn unreadable_body(why: &dyn Display) -> Error
    where
        Self: Sized,
    {
        super::unreadable_body(why)
    }

    // The isolate.

    /// A secret or var (secrets win), trimmed; `None` when unset or blank.
    fn setting(&self, name: &'static str) -> Option<String>;

    /// The isolate's limits and configuration.
    fn limits(&self) -> Limits;

    /// The isolate's generator registry.
    fn generators(&self) -> Generators;

    /// The MCP form view served as `ui://genui/form`, built into the
    /// worker (`scripts/build-mcp-view.sh`); `None` when it has none.
    fn mcp_view(&self) -> Option<&'static str>;

    /// The isolate's memory in bytes (wasm linear memory, which never shrinks).
    fn memory_bytes(&self) -> usize;

    /// Milliseconds since the Unix epoch.
    fn now_ms(&self) -> u64;

    /// Fills `bytes` from a cryptographic source.
    fn random_bytes(&self, bytes: &mut [u8]) -> Result<(), Error>;

    /// Writes one log line (JSON, no data, no secrets).
    fn log(&self, line: &str);

    /// Writes one log line of a failure (JSON, no data, no secrets).
    fn log_error(&self, line: &str);

    // The spec cache (KV).

    /// A cached value; a miss or a failed read is `None`.
    async fn cache_get(&self, key: &str) -> Option<String>;

    /// Stores a value now (a failed write is logged, not returned: the
    /// cache is an optimisation).
    async fn cache_put(&self, put: CachePut);

    /// How long stored specs live, in seconds.
    fn cache_ttl_seconds(&self) -> u64;

    /// Runs `work` after the response is sent (`ctx.waitUntil`).
    fn after_response(&self, work: LocalBoxFuture<'static, ()>);

    // The generation machine's calls.

    /// Sends a provider request; its response, or why there is none
    /// (`Event::TimedOut` when `timeout_ms` passed first).
    async fn send(&self, request: HttpRequest, timeout_ms: u64) -> Event;

    /// Sends a request whose answer is read as it comes (proxy mode's
    /// upstream agent): once its head is in, its status, its
    /// `Content-Type` and its body's chunks. Dropping the body, or this
    /// future before it is ready, aborts the request.
    async fn send_streaming(&self, request: HttpRequest) -> Result<Streaming, Error>;

    /// Runs a Workers AI model; its result as a response event.
    async fn run_ai(&self, call: AiCall, timeout_ms: u64) -> Event;

    /// Waits `ms` milliseconds.
    async fn wait(&self, ms: u64);

    /// Whether the binding `name` (a rate limiter, a Durable Object) is configured.
    fn has_binding(&self, name: &str) -> bool;

    /// Asks the rate limiter `binding` whether `key` is within its budget.
    async fn within_rate_limit(&self, binding: &str, key: &str) -> Result<bool, Error>;

    // Durable Objects.

    /// Asks the object `name` of the Durable Object `binding` to do
    /// `action`: a GET without `body`, a POST of `body` as JSON. Its
    /// status and JSON answer (`Value::Null` when the answer is not JSON).
    async fn call_object(
        &self,
        binding: &str,
        name: &str,
        action: &str,
        body: Option<&Value>,
    ) -> Result<(u16, Value), Error>;
}
