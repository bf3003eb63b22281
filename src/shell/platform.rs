//! The worker's [`Platform`]: each effect a front door asks for, performed
//! with workers-rs (the request, vars and secrets, KV, `fetch`, Workers AI,
//! timers, Durable Objects). Nothing here decides; the doors
//! (`genui_model::Door`) do.

use super::kv::SpecCache;
use super::{clock, deliver, model, rate_limit, settings};
use futures::future::LocalBoxFuture;
use futures::stream::LocalBoxStream;
use futures::StreamExt;
use genui_core::{CachePut, Error, ErrorCode, Limits};
use genui_model::{AiCall, Event, Generators, HttpRequest, Platform};
use serde_json::Value;
use std::cell::{Cell, OnceCell};
use std::rc::Rc;
use std::time::Duration;
use worker::js_sys::{Object, Reflect};
use worker::wasm_bindgen::closure::Closure;
use worker::wasm_bindgen::{JsCast, JsValue};
use worker::{
    console_error, console_log, AbortController, Context, Delay, Env, Fetch, Headers, Method,
    Request, RequestInit, Url,
};

/// A streamed answer's status, `Content-Type` and body chunks.
type Streaming = (
    u16,
    Option<String>,
    LocalBoxStream<'static, Result<Vec<u8>, Error>>,
);

/// The form view `ui://genui/form`, built by scripts/build-mcp-view.sh
/// (which scripts/build-wasm.sh runs first).
const VIEW_HTML: &str = include_str!("../../mcp-view/dist/view.html");

/// One request's platform: the request, the isolate's `Env` and the
/// fetch event's context. Cloning shares them.
#[derive(Clone)]
pub(super) struct Worker {
    env: Env,
    ctx: Rc<Context>,
    request: Rc<RequestFacts>,
    cache: Rc<OnceCell<SpecCache>>,
    /// For the module start's own request ([`Worker::warming`]), the
    /// default configuration it is answered with; `None` for every real
    /// request.
    warming: Option<Rc<Limits>>,
}

/// What the doors read of the request; the body is taken once.
struct RequestFacts {
    id: String,
    method: Method,
    path: String,
    headers: Headers,
    url: Option<Url>,
    body: Cell<Option<Body>>,
}

/// A request's body, taken once: the request's own stream, or the bytes of
/// the module start's warm-up request (the runtime builds no body stream
/// outside a request, so that request is sent without one).
enum Body {
    Stream(Request),
    Bytes(&'static [u8]),
}

impl Worker {
    pub(super) fn new(req: Request, env: &Env, ctx: Rc<Context>, request_id: &str) -> Self {
        let request = RequestFacts {
            id: request_id.to_owned(),
            method: req.method(),
            path: req.path(),
            headers: req.headers().clone(),
            url: req.url().ok(),
            body: Cell::new(Some(Body::Stream(req))),
        };
        Self {
            env: env.clone(),
            ctx,
            request: Rc::new(request),
            cache: Rc::new(OnceCell::new()),
            warming: None,
        }
    }

    /// The platform of the request the module's start sends through the
    /// fetch path (the shell's `warm` module), with `body` as its body: an
    /// `Env` and a context with nothing bound, the default configuration
    /// (no var, secret or catalog read, so none is remembered for the
    /// requests after it, and nothing logged), no KV and no access line.
    /// Every effect the runtime refuses outside a request (I/O, timers,
    /// random bytes) is refused here first ([`Worker::refused_at_start`]).
    pub(super) fn warming(req: Request, body: &'static [u8], request_id: &str) -> Self {
        let worker = Self::new(req, &unbound_env(), Rc::new(idle_context()), request_id);
        worker.request.body.set(Some(Body::Bytes(body)));
        let _ = worker.cache.set(SpecCache::none());
        Self {
            warming: Some(Rc::new(Limits::from_settings(|_| None))),
            ..worker
        }
    }

    /// The error of an effect the module start's request asks for, which
    /// the runtime would refuse outside a request; `None` for a real one.
    fn refused_at_start(&self, effect: &str) -> Option<Error> {
        self.warming.as_ref().map(|_| {
            Error::new(
                ErrorCode::Internal,
                format!("{effect} is not available to the module start's request"),
            )
        })
    }

    /// The request's body, which only the first reader gets.
    fn take_body(&self) -> Result<Body, Error> {
        self.request
            .body
            .take()
            .ok_or_else(|| Self::unreadable_body(&"it was read before"))
    }

    /// The spec cache, opened on first use.
    fn cache(&self) -> &SpecCache {
        self.cache.get_or_init(|| SpecCache::open(&self.env))
    }
}

impl Platform for Worker {
    fn method(&self) -> String {
        self.request.method.to_string()
    }

    fn path(&self) -> String {
        self.request.path.clone()
    }

    fn header(&self, name: &str) -> Option<String> {
        self.request.headers.get(name).ok().flatten()
    }

    fn query(&self, name: &str) -> Option<String> {
        let url = self.request.url.as_ref()?;
        url.query_pairs()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.into_owned())
    }

    fn request_id(&self) -> String {
        self.request.id.clone()
    }

    fn origin(&self) -> String {
        self.request
            .url
            .as_ref()
            .map(|u| u.origin().ascii_serialization())
            .unwrap_or_default()
    }

    async fn read_body(&self, max_bytes: usize) -> Result<Vec<u8>, Error> {
        let mut req = match self.take_body()? {
            Body::Stream(req) => req,
            Body::Bytes(bytes) => return Ok(bytes.to_vec()),
        };
        if req.inner().body().is_none() {
            return Ok(Vec::new());
        }
        let chunks = req.stream().map_err(|e| Self::unreadable_body(&e))?;
        Self::read_chunks_at_most(chunks, max_bytes).await
    }

    async fn read_announced_body(&self) -> Result<Vec<u8>, Error> {
        match self.take_body()? {
            Body::Stream(mut req) => req.bytes().await.map_err(|e| Self::unreadable_body(&e)),
            Body::Bytes(bytes) => Ok(bytes.to_vec()),
        }
    }

    fn setting(&self, name: &'static str) -> Option<String> {
        if self.warming.is_some() {
            return None;
        }
        settings::setting(&self.env, name)
    }

    fn limits(&self) -> Limits {
        match &self.warming {
            Some(defaults) => Limits::clone(defaults),
            None => settings::limits(&self.env),
        }
    }

    fn generators(&self) -> Generators {
        if self.warming.is_some() {
            return Generators::from_vars(|_| None).0;
        }
        model::generators(&self.env)
    }

    fn mcp_view(&self) -> Option<&'static str> {
        Some(VIEW_HTML)
    }

    fn memory_bytes(&self) -> usize {
        core::arch::wasm32::memory_size(0) * 65536
    }

    fn now_ms(&self) -> u64 {
        clock::unix_ms()
    }

    fn random_bytes(&self, bytes: &mut [u8]) -> Result<(), Error> {
        if let Some(refused) = self.refused_at_start("a random source") {
            return Err(refused);
        }
        deliver::fill_random(bytes).map_err(|e| {
            Error::new(
                ErrorCode::Internal,
                format!("random bytes could not be drawn: {e}"),
            )
        })
    }

    fn log(&self, line: &str) {
        if self.warming.is_none() {
            console_log!("{line}");
        }
    }

    fn log_error(&self, line: &str) {
        console_error!("{line}");
    }

    async fn cache_get(&self, key: &str) -> Option<String> {
        self.cache().get(key).await
    }

    async fn cache_put(&self, put: CachePut) {
        self.cache().put(put).await
    }

    fn cache_ttl_seconds(&self) -> u64 {
        self.cache().ttl_seconds()
    }

    fn after_response(&self, work: LocalBoxFuture<'static, ()>) {
        self.ctx.wait_until(work);
    }

    async fn send(&self, request: HttpRequest, timeout_ms: u64) -> Event {
        if let Some(refused) = self.refused_at_start("the network") {
            return Event::NetworkError(refused.message().to_owned());
        }
        model::send(request, timeout_ms).await
    }

    async fn send_streaming(&self, request: HttpRequest) -> Result<Streaming, Error> {
        if let Some(refused) = self.refused_at_start("the network") {
            return Err(refused);
        }
        let unreachable = |e: worker::Error| Error::new(ErrorCode::Internal, e.to_string());
        // Aborts the request when the body (or this future) is dropped.
        let controller = AbortController::default();
        let signal = controller.signal();
        let abort = AbortOnDrop(Some(controller));
        let request = model::to_worker_request(&request).map_err(unreachable)?;
        let sent = Fetch::Request(request).send_with_signal(&signal).await;
        let mut response = sent.map_err(unreachable)?;
        let content_type = response.headers().get("content-type").ok().flatten();
        let body = response.stream().map_err(unreachable)?;
        let body = body.map(move |chunk| {
            let _request = &abort;
            chunk.map_err(unreachable)
        });
        Ok((response.status_code(), content_type, Box::pin(body)))
    }

    async fn run_ai(&self, call: AiCall, timeout_ms: u64) -> Event {
        if let Some(refused) = self.refused_at_start("Workers AI") {
            return Event::NetworkError(refused.message().to_owned());
        }
        model::run_ai(&self.env, call, timeout_ms).await
    }

    async fn wait(&self, ms: u64) {
        // A timer outside a request is refused (and workers-rs unwraps it).
        if self.warming.is_none() {
            Delay::from(Duration::from_millis(ms)).await;
        }
    }

    fn has_binding(&self, name: &str) -> bool {
        Reflect::get(&self.env, &JsValue::from_str(name)).is_ok_and(|v| !v.is_undefined())
    }

    async fn within_rate_limit(&self, binding: &str, key: &str) -> Result<bool, Error> {
        if let Some(refused) = self.refused_at_start("a rate limiter") {
            return Err(refused);
        }
        rate_limit::within(&self.env, binding, key)
            .await
            .map_err(|e| Error::new(ErrorCode::Internal, format!("{e:?}")))
    }

    async fn call_object(
        &self,
        binding: &str,
        name: &str,
        action: &str,
        body: Option<&Value>,
    ) -> Result<(u16, Value), Error> {
        if let Some(refused) = self.refused_at_start("a Durable Object") {
            return Err(refused);
        }
        call_object(&self.env, binding, name, action, body)
            .await
            .map_err(|e| Error::new(ErrorCode::Internal, e.to_string()))
    }
}

/// An `Env` with no var, secret or binding.
fn unbound_env() -> Env {
    JsValue::from(Object::new()).unchecked_into()
}

/// A fetch context whose `waitUntil` only lets the work run (it starts on
/// its own) and whose `passThroughOnException` does nothing.
fn idle_context() -> Context {
    let context = Object::new();
    let ignore = Closure::<dyn Fn(JsValue)>::new(|_: JsValue| {});
    for method in ["waitUntil", "passThroughOnException"] {
        let _ = Reflect::set(&context, &JsValue::from_str(method), ignore.as_ref());
    }
    ignore.forget();
    Context::new(JsValue::from(context).unchecked_into())
}

/// A streamed request's abort controller, which aborts it when dropped.
struct AbortOnDrop(Option<AbortController>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        if let Some(controller) = self.0.take() {
            controller.abort();
        }
    }
}

/// Asks the object `name` of `binding`: a GET without a body, a POST with
/// one; its status and JSON answer (`Null` when not JSON).
async fn call_object(
    env: &Env,
    binding: &str,
    name: &str,
    action: &str,
    body: Option<&Value>,
) -> worker::Result<(u16, Value)> {
    let stub = env.durable_object(binding)?.get_by_name(name)?;
    let mut init = RequestInit::new();
    match body {
        Some(body) => init
            .with_method(Method::Post)
            .with_body(Some(body.to_string().into())),
        None => init.with_method(Method::Get),
    };
    let request = Request::new_with_init(&format!("https://form.internal/{action}"), &init)?;
    let mut response = stub.fetch_with_request(request).await?;
    let status = response.status_code();
    let value = response.json::<Value>().await.unwrap_or(Value::Null);
    Ok((status, value))
}
