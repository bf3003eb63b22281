//! Every moved door driven natively over an in-memory platform: KV is a
//! map, the provider a script, the work after the response a queue the
//! test runs (as the runtime would once the head is sent), and every
//! effect is recorded so a test can say what a door did and in what order.

use super::platform::Streaming;
use super::{serve, Answer, Platform};
use crate::{AiCall, Event, Generators, HttpRequest, ModelConfig, Provider};
use futures::channel::mpsc::UnboundedReceiver;
use futures::executor::block_on;
use futures::future::LocalBoxFuture;
use futures::{Stream, StreamExt};
use genui_core::{AttemptResult, CachePut, Error, ErrorCode, FormObjectHost, HttpResponse, Limits};
use serde_json::{json, Value};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet, VecDeque};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

const NOW_MS: u64 = 1_795_305_600_000;

/// The test worker's `WEBHOOK_SECRET`.
const SECRET: &str = "ssssssssssssssssssssssssssssssss";

/// The test platform: one request's facts over an isolate's state.
#[derive(Clone)]
struct TestPlatform {
    request: Rc<Request>,
    isolate: Rc<RefCell<Isolate>>,
}

/// One request as it came.
#[derive(Default)]
struct Request {
    method: &'static str,
    path: &'static str,
    headers: Vec<(&'static str, String)>,
    query: Vec<(&'static str, String)>,
    body: Vec<u8>,
    /// The body's chunks as the runtime hands them over (`None`: `body`
    /// in one chunk).
    chunks: Option<Vec<Result<Vec<u8>, String>>>,
}

/// What outlives a request: KV, configuration, the provider's script, and
/// the record of effects.
struct Isolate {
    limits: Limits,
    generators: Generators,
    kv: HashMap<String, String>,
    script: VecDeque<Event>,
    /// How many times a provider call is pending before it answers.
    send_polls: usize,
    after_response: Vec<LocalBoxFuture<'static, ()>>,
    effects: Vec<String>,
    settings: HashMap<&'static str, String>,
    bindings: HashSet<&'static str>,
    /// The replay guard's memory: the claims it has seen.
    claims_seen: HashSet<String>,
    /// The rate limiter's answer.
    within_budget: bool,
    /// The Durable Objects' storage, by object name.
    objects: HashMap<String, HashMap<&'static str, String>>,
    /// An action every object answers 500 to, as a failing object would.
    refused_action: Option<&'static str>,
    /// The upstream agent's SSE body, in chunks (`None`: unreachable).
    upstream: Option<Vec<String>>,
    /// How many chunks the upstream sends before it pauses once.
    upstream_pauses_after: Option<usize>,
    /// Whether the upstream, its chunks sent, never ends its body.
    upstream_hangs: bool,
    /// The byte bound each body read was given.
    read_bounds: Vec<usize>,
}

impl Isolate {
    fn new(limits: Limits, model: Option<ModelConfig>) -> Rc<RefCell<Self>> {
        Rc::new(RefCell::new(Self {
            limits,
            generators: Generators::with_model(model),
            kv: HashMap::new(),
            script: VecDeque::new(),
            send_polls: 0,
            after_response: Vec::new(),
            effects: Vec::new(),
            settings: HashMap::from([("WEBHOOK_SECRET", SECRET.to_owned())]),
            bindings: HashSet::from(["FORMS", "REPLAY_GUARD"]),
            claims_seen: HashSet::new(),
            within_budget: true,
            objects: HashMap::new(),
            refused_action: None,
            upstream: None,
            upstream_pauses_after: None,
            upstream_hangs: false,
            read_bounds: Vec::new(),
        }))
    }
}

impl TestPlatform {
    fn new(isolate: &Rc<RefCell<Isolate>>, request: Request) -> Self {
        Self {
            request: Rc::new(request),
            isolate: Rc::clone(isolate),
        }
    }

    fn record(&self, effect: String) {
        self.isolate.borrow_mut().effects.push(effect);
    }
}

impl Platform for TestPlatform {
    fn method(&self) -> String {
        self.request.method.into()
    }

    fn path(&self) -> String {
        self.request.path.into()
    }

    fn header(&self, name: &str) -> Option<String> {
        let found = self.request.headers.iter().find(|(n, _)| *n == name);
        found.map(|(_, value)| value.clone())
    }

    fn query(&self, name: &str) -> Option<String> {
        let found = self.request.query.iter().find(|(n, _)| *n == name);
        found.map(|(_, value)| value.clone())
    }

    fn request_id(&self) -> String {
        "r1".into()
    }

    fn origin(&self) -> String {
        "https://genui.test".into()
    }

    async fn read_body(&self, max_bytes: usize) -> Result<Vec<u8>, Error> {
        self.record("read_body".into());
        self.isolate.borrow_mut().read_bounds.push(max_bytes);
        let whole = || vec![Ok(self.request.body.clone())];
        let chunks = self.request.chunks.clone().unwrap_or_else(whole);
        Self::read_chunks_at_most(futures::stream::iter(chunks), max_bytes).await
    }

    /// As a runtime does: the body held to its announced length.
    async fn read_announced_body(&self) -> Result<Vec<u8>, Error> {
        self.record("read_announced_body".into());
        let announced = self.header("content-length").and_then(|v| v.parse().ok());
        let length = announced.unwrap_or(0).min(self.request.body.len());
        Ok(self.request.body[..length].to_vec())
    }

    fn setting(&self, name: &'static str) -> Option<String> {
        self.isolate.borrow().settings.get(name).cloned()
    }

    fn limits(&self) -> Limits {
        self.isolate.borrow().limits.clone()
    }

    fn generators(&self) -> Generators {
        self.isolate.borrow().generators.clone()
    }

    fn mcp_view(&self) -> Option<&'static str> {
        Some(VIEW)
    }

    fn memory_bytes(&self) -> usize {
        1 << 20
    }

    fn now_ms(&self) -> u64 {
        NOW_MS
    }

    fn random_bytes(&self, bytes: &mut [u8]) -> Result<(), Error> {
        self.record("random_bytes".into());
        bytes.fill(7);
        Ok(())
    }

    fn log(&self, line: &str) {
        self.record(format!("log {line}"));
    }

    fn log_error(&self, line: &str) {
        self.record(format!("log_error {line}"));
    }

    async fn cache_get(&self, key: &str) -> Option<String> {
        self.record(format!("get {key}"));
        self.isolate.borrow().kv.get(key).cloned()
    }

    async fn cache_put(&self, put: CachePut) {
        self.record(format!("put {}", put.key));
        self.isolate.borrow_mut().kv.insert(put.key, put.value);
    }

    fn cache_ttl_seconds(&self) -> u64 {
        3600
    }

    fn after_response(&self, work: LocalBoxFuture<'static, ()>) {
        self.isolate.borrow_mut().after_response.push(work);
    }

    async fn send(&self, _request: HttpRequest, _timeout_ms: u64) -> Event {
        self.record("send".into());
        let polls = self.isolate.borrow().send_polls;
        Pending(polls).await;
        let next = self.isolate.borrow_mut().script.pop_front();
        next.unwrap_or(Event::NetworkError("the script ran out".into()))
    }

    async fn send_streaming(&self, request: HttpRequest) -> Result<Streaming, Error> {
        self.record(format!("send_streaming {}", request.url));
        let Some(chunks) = self.isolate.borrow().upstream.clone() else {
            return Err(Error::new(ErrorCode::Internal, "connection refused"));
        };
        let isolate = self.isolate.borrow();
        let body = UpstreamBody {
            chunks: chunks.into(),
            sent: 0,
            pauses_after: isolate.upstream_pauses_after,
            hangs: isolate.upstream_hangs,
            isolate: Rc::clone(&self.isolate),
        };
        let content_type = Some("text/event-stream".to_owned());
        Ok((200, content_type, Box::pin(body)))
    }

    async fn run_ai(&self, _call: AiCall, _timeout_ms: u64) -> Event {
        Event::NetworkError("no Workers AI here".into())
    }

    async fn wait(&self, ms: u64) {
        self.record(format!("wait {ms}"));
        Pending(1).await;
    }

    fn has_binding(&self, name: &str) -> bool {
        self.isolate.borrow().bindings.contains(name)
    }

    async fn within_rate_limit(&self, binding: &str, key: &str) -> Result<bool, Error> {
        self.record(format!("rate_limit {binding} {key}"));
        Ok(self.isolate.borrow().within_budget)
    }

    async fn call_object(
        &self,
        binding: &str,
        name: &str,
        action: &str,
        body: Option<&Value>,
    ) -> Result<(u16, Value), Error> {
        self.record(format!("object {binding} {action}"));
        if self.isolate.borrow().refused_action == Some(action) {
            return Ok((500, Value::Null));
        }
        match (binding, action, body) {
            // The replay guard's one question: seen before? (recorded if not)
            ("REPLAY_GUARD", "claim", Some(claim)) => {
                let first = self
                    .isolate
                    .borrow_mut()
                    .claims_seen
                    .insert(format!("{name} {claim}"));
                Ok((200, json!({"seen": !first})))
            }
            ("FORMS", _, _) => Ok(self.form_object(name, action, body).await),
            _ => Err(Error::new(ErrorCode::Internal, "no such object call here")),
        }
    }
}

impl TestPlatform {
    /// One request to the form object `name`, through genui_core's own
    /// perform loop over the object's storage in memory (alarms and signed
    /// POSTs are only recorded).
    async fn form_object(&self, name: &str, action: &str, body: Option<&Value>) -> (u16, Value) {
        let (storage, secret) = {
            let mut isolate = self.isolate.borrow_mut();
            let storage = isolate.objects.remove(name).unwrap_or_default();
            (storage, isolate.settings.get("WEBHOOK_SECRET").cloned())
        };
        let mut object = MemoryObject {
            storage,
            effects: Vec::new(),
        };
        let method = if body.is_some() { "POST" } else { "GET" };
        let body = body.map(Value::to_string).unwrap_or_default();
        let path = format!("/{action}");
        let served = object.serve_request(secret, method, &path, body.as_bytes());
        let (status, answer) = match served.await {
            Ok(answer) => answer,
            Err(never) => match never {},
        };
        let mut isolate = self.isolate.borrow_mut();
        isolate.objects.insert(name.to_owned(), object.storage);
        isolate.effects.extend(object.effects);
        (status, serde_json::from_str(&answer).unwrap_or(Value::Null))
    }
}

/// A form object's storage in memory, and what it did beyond storing.
struct MemoryObject {
    storage: HashMap<&'static str, String>,
    effects: Vec<String>,
}

impl FormObjectHost for MemoryObject {
    type Error = std::convert::Infallible;

    async fn get(&mut self, keys: &[&'static str]) -> Result<Vec<Option<String>>, Self::Error> {
        Ok(keys
            .iter()
            .map(|key| self.storage.get(key).cloned())
            .collect())
    }

    async fn put(&mut self, key: &'static str, value: String) -> Result<(), Self::Error> {
        self.storage.insert(key, value);
        Ok(())
    }

    async fn delete(&mut self, key: &'static str) -> Result<(), Self::Error> {
        self.storage.remove(key);
        Ok(())
    }

    async fn delete_all(&mut self) -> Result<(), Self::Error> {
        self.storage.clear();
        Ok(())
    }

    async fn alarm(&mut self) -> Result<Option<i64>, Self::Error> {
        Ok(None)
    }

    async fn set_alarm(&mut self, at_ms: i64) -> Result<(), Self::Error> {
        self.effects.push(format!("alarm {at_ms}"));
        Ok(())
    }

    async fn post_signed(&mut self, url: &str, _: &str, _: &str, _: &str) -> AttemptResult {
        self.effects.push(format!("post {url}"));
        AttemptResult::Status(200)
    }

    fn log(&mut self, line: &str) {
        self.effects.push(format!("log {line}"));
    }

    fn now_ms(&mut self) -> u64 {
        NOW_MS
    }
}

/// A future pending `n` times (waking itself) before it is ready, so a
/// select between two of them is decided by their counts.
struct Pending(usize);

impl Future for Pending {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.0 == 0 {
            return Poll::Ready(());
        }
        self.0 -= 1;
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}

/// The upstream agent's body as the test platform hands it over: its
/// chunks (each recorded as `upstream chunk`), then its end, or nothing
/// ever when it hangs. Dropping it records `upstream dropped`, where the
/// shell's guard aborts the request to the agent.
struct UpstreamBody {
    chunks: VecDeque<String>,
    sent: usize,
    pauses_after: Option<usize>,
    hangs: bool,
    isolate: Rc<RefCell<Isolate>>,
}

impl Stream for UpstreamBody {
    type Item = Result<Vec<u8>, Error>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let body = self.get_mut();
        if body.pauses_after == Some(body.sent) {
            body.pauses_after = None;
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        match body.chunks.pop_front() {
            Some(chunk) => {
                body.sent += 1;
                body.isolate
                    .borrow_mut()
                    .effects
                    .push("upstream chunk".into());
                Poll::Ready(Some(Ok(chunk.into_bytes())))
            }
            None if body.hangs => Poll::Pending,
            None => Poll::Ready(None),
        }
    }
}

impl Drop for UpstreamBody {
    fn drop(&mut self) {
        self.isolate
            .borrow_mut()
            .effects
            .push("upstream dropped".into());
    }
}

/// Runs the work queued for after the response, as the runtime would.
fn run_after_response(isolate: &Rc<RefCell<Isolate>>) {
    let work = std::mem::take(&mut isolate.borrow_mut().after_response);
    for future in work {
        block_on(future);
    }
}

fn effects(isolate: &Rc<RefCell<Isolate>>) -> Vec<String> {
    std::mem::take(&mut isolate.borrow_mut().effects)
}

fn seed() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../genui-core/tests/fixtures/generate/seed-address.json"
    );
    let text = std::fs::read_to_string(path).expect("the seed fixture");
    serde_json::from_str(&text).expect("the seed fixture is JSON")
}

/// The worker's limits with no memory of specs, so every hit reads KV.
fn forgetful() -> Limits {
    Limits {
        spec_memory_bytes: 0,
        ..Limits::default()
    }
}

fn remembering() -> Limits {
    Limits {
        spec_memory_bytes: 8 << 20,
        ..Limits::default()
    }
}

fn model() -> ModelConfig {
    ModelConfig {
        deadline_ms: 10_000,
        attempt_timeout_ms: 4_000,
        ..ModelConfig::new(Provider::OpenAi, "m-1")
    }
}

/// An OpenAI chat completion whose plan is the deterministic one under a
/// title of its own, so the refinement differs from the first UI.
fn refined_completion(body: &Value) -> Event {
    let request = genui_core::GenerateRequest::from_value(body.clone()).expect("a request");
    let plan = genui_core::Plan::generate_for(
        &request.output,
        &request.description,
        request.wants_confirm(),
        request.device,
        &Limits::default(),
    )
    .expect("a plan");
    let mut plan = crate::model_plan(&plan, false);
    plan["title"] = json!("Refined by the model");
    let completion = json!({"id": "c", "object": "chat.completion", "created": 1, "model": "m-1",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": plan.to_string()},
        "finish_reason": "stop"}], "usage": {"prompt_tokens": 10, "completion_tokens": 5}});
    Event::Response {
        status: 200,
        headers: Vec::new(),
        body: completion.to_string(),
        elapsed_ms: 200,
    }
}

fn json_request(body: &Value) -> Request {
    Request {
        body: serde_json::to_vec(body).expect("JSON"),
        ..Request::default()
    }
}

fn streaming_request(body: &Value) -> Request {
    Request {
        headers: vec![("accept", "text/event-stream".into())],
        ..json_request(body)
    }
}

fn whole(answer: Answer) -> HttpResponse {
    match answer {
        Answer::Whole(response) => response,
        Answer::Stream { head, .. } => panic!("a stream, {}", head.status),
    }
}

fn stream(answer: Answer) -> (HttpResponse, UnboundedReceiver<String>) {
    match answer {
        Answer::Stream { head, frames } => (head, frames),
        Answer::Whole(response) => panic!("a whole answer: {}", response.body),
    }
}

fn body_of(response: &HttpResponse) -> Value {
    serde_json::from_str(&response.body).expect("a JSON body")
}

fn gets_and_puts(effects: &[String]) -> (usize, usize) {
    let count = |prefix: &str| effects.iter().filter(|e| e.starts_with(prefix)).count();
    (count("get "), count("put "))
}

fn generate(isolate: &Rc<RefCell<Isolate>>, request: Request) -> Answer {
    block_on(super::generate::generate(&TestPlatform::new(
        isolate, request,
    )))
}

#[test]
fn generate_misses_stores_after_the_response_then_hits() {
    let isolate = Isolate::new(forgetful(), None);
    let miss = whole(generate(&isolate, json_request(&seed())));
    assert_eq!(miss.status, 200, "{}", miss.body);
    assert_eq!(
        gets_and_puts(&effects(&isolate)),
        (1, 0),
        "no put before the response"
    );
    run_after_response(&isolate);
    assert_eq!(gets_and_puts(&effects(&isolate)), (0, 1));
    let hit = whole(generate(&isolate, json_request(&seed())));
    run_after_response(&isolate);
    assert_eq!(
        gets_and_puts(&effects(&isolate)),
        (1, 0),
        "a hit stores nothing"
    );
    assert_eq!(body_of(&hit)["meta"]["cache"], "hit");
    assert_eq!(
        body_of(&hit)["meta"]["specHash"],
        body_of(&miss)["meta"]["specHash"]
    );
}

/// The worker's start sends the warm-up form through `serve` where the
/// runtime refuses I/O, timers and random bytes: it must be answered with
/// none of them, only the body read and the spec cache (which the
/// worker's start leaves unbound).
#[test]
fn the_warm_up_form_is_served_without_an_effect_a_module_start_cannot_have() {
    let isolate = Isolate::new(forgetful(), None);
    let body = crate::WARM_UP_REQUEST.as_bytes().to_vec();
    let request = Request {
        method: "POST",
        path: "/v1/generate",
        headers: vec![("content-length", body.len().to_string())],
        body,
        ..Request::default()
    };
    let answer = whole(block_on(serve(TestPlatform::new(&isolate, request))));
    assert_eq!(answer.status, 200, "{}", answer.body);
    run_after_response(&isolate);
    let allowed = ["read_announced_body", "get ", "put ", "log "];
    let others: Vec<String> = effects(&isolate)
        .into_iter()
        .filter(|effect| !allowed.iter().any(|a| effect.starts_with(a)))
        .collect();
    assert!(others.is_empty(), "{others:?}");
}

#[test]
fn an_oversize_content_length_is_refused_before_the_body_is_read() {
    let isolate = Isolate::new(forgetful(), None);
    let mut request = json_request(&seed());
    let too_long = Limits::default().max_body_bytes + 1;
    request
        .headers
        .push(("content-length", too_long.to_string()));
    let refused = whole(generate(&isolate, request));
    assert_eq!(refused.status, 413, "{}", refused.body);
    assert_eq!(body_of(&refused)["code"], "body_too_large");
    assert!(effects(&isolate).is_empty(), "nothing read, nothing asked");
}

#[test]
fn an_announced_body_within_the_limit_is_read_in_one_call() {
    let isolate = Isolate::new(forgetful(), None);
    let mut request = json_request(&seed());
    let length = request.body.len().to_string();
    request.headers.push(("content-length", length));
    let answered = whole(generate(&isolate, request));
    assert_eq!(answered.status, 200, "{}", answered.body);
    let effects = effects(&isolate);
    assert_eq!(
        effects.first().map(String::as_str),
        Some("read_announced_body")
    );
    assert!(!effects.contains(&"read_body".to_owned()), "{effects:?}");
    assert!(isolate.borrow().read_bounds.is_empty(), "nothing streamed");
}

#[test]
fn a_body_announced_shorter_than_it_is_is_read_to_its_announcement() {
    let isolate = Isolate::new(forgetful(), None);
    let mut request = json_request(&seed());
    request.headers.push(("content-length", "0".into()));
    let refused = whole(generate(&isolate, request));
    assert_eq!(refused.status, 400, "{}", refused.body);
    assert_eq!(body_of(&refused)["code"], "invalid_json", "an empty body");
    assert_eq!(
        effects(&isolate).first().map(String::as_str),
        Some("read_announced_body")
    );
}

/// A `/v1/generate` request whose body (the seed padded with spaces)
/// comes in chunks of `sizes`, under a body limit of 4096 bytes.
fn generate_in_chunks(sizes: &[usize]) -> HttpResponse {
    let mut limits = forgetful();
    limits.max_body_bytes = 4096;
    let isolate = Isolate::new(limits, None);
    let mut padded = serde_json::to_vec(&seed()).expect("the seed serialises");
    padded.resize(sizes.iter().sum(), b' ');
    let mut rest = padded.as_slice();
    let mut chunks = Vec::new();
    for size in sizes {
        let (chunk, after) = rest.split_at(*size);
        chunks.push(Ok(chunk.to_vec()));
        rest = after;
    }
    let request = Request {
        method: "POST",
        path: "/v1/generate",
        chunks: Some(chunks),
        ..json_request(&seed())
    };
    whole(routed(&isolate, request))
}

#[test]
fn a_body_one_byte_over_the_limit_across_chunks_is_refused() {
    let refused = generate_in_chunks(&[4095, 2]);
    assert_eq!(refused.status, 413, "{}", refused.body);
    assert_eq!(body_of(&refused)["code"], "body_too_large");
}

#[test]
fn a_body_of_exactly_the_limit_is_accepted() {
    let accepted = generate_in_chunks(&[4096]);
    assert_eq!(accepted.status, 200, "{}", accepted.body);
}

#[test]
fn one_huge_chunk_is_refused_and_kept_only_to_one_byte_over_the_limit() {
    let refused = generate_in_chunks(&[40960]);
    assert_eq!(refused.status, 413, "{}", refused.body);
    let huge: Vec<Result<Vec<u8>, String>> = vec![Ok(vec![b' '; 40960])];
    let kept = block_on(super::read_at_most(futures::stream::iter(huge), 4096));
    let kept = kept.expect("the chunk reads");
    assert_eq!(kept.len(), 4097);
    assert!(kept.capacity() <= 4097, "kept {} bytes", kept.capacity());
}

#[test]
fn a_body_whose_stream_fails_is_an_invalid_request() {
    let isolate = Isolate::new(forgetful(), None);
    let request = Request {
        method: "POST",
        path: "/v1/generate",
        chunks: Some(vec![
            Ok(b"{\"seed\": ".to_vec()),
            Err("connection reset".into()),
        ]),
        ..json_request(&seed())
    };
    let refused = whole(routed(&isolate, request));
    assert_eq!(refused.status, 400, "{}", refused.body);
    assert_eq!(body_of(&refused)["code"], "invalid_request");
    let message = body_of(&refused)["message"].to_string();
    assert!(message.contains("connection reset"), "{message}");
}

#[test]
fn a_chunked_body_over_the_limit_is_read_only_to_the_limit_then_refused() {
    let mut limits = forgetful();
    limits.max_body_bytes = 4096;
    let isolate = Isolate::new(limits, None);
    let mut padded = serde_json::to_vec(&seed()).expect("the seed serialises");
    padded.resize(3 * 4096, b' ');
    let mut request = json_request(&seed());
    request.body = padded;
    request.method = "POST";
    request.path = "/v1/generate";
    let refused = whole(routed(&isolate, request));
    assert_eq!(refused.status, 413, "{}", refused.body);
    assert_eq!(body_of(&refused)["code"], "body_too_large");
    let message = body_of(&refused)["message"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(
        message.contains("larger than the limit of 4096 bytes"),
        "it says no size it never read: {message}"
    );
    assert_eq!(
        isolate.borrow().read_bounds,
        vec![4096],
        "read within the limit"
    );
    let effects = effects(&isolate);
    assert!(
        !effects.iter().any(|e| e.starts_with("get ")),
        "{effects:?}"
    );
}

#[test]
fn a_stream_writes_its_frames_with_a_heartbeat_while_the_model_works() {
    let isolate = Isolate::new(forgetful(), Some(model()));
    isolate
        .borrow_mut()
        .script
        .push_back(refined_completion(&seed()));
    isolate.borrow_mut().send_polls = 2;
    let (head, mut frames) = stream(generate(&isolate, streaming_request(&seed())));
    assert_eq!(head.status, 200);
    assert_eq!(head.headers[0].1, "text/event-stream; charset=utf-8");
    run_after_response(&isolate);
    let text: String = block_on(frames.by_ref().collect::<Vec<_>>()).concat();
    let kinds: Vec<&str> = text
        .lines()
        .filter(|line| line.starts_with("event: ") || line.starts_with(':'))
        .collect();
    assert_eq!(
        kinds,
        ["event: ui", ": heartbeat", "event: patch", "event: done"]
    );
    let (_, puts) = gets_and_puts(&effects(&isolate));
    assert_eq!(puts, 2, "the first UI's spec and the model's");
}

#[test]
fn a_client_that_leaves_mid_stream_still_gets_the_models_spec_stored() {
    let isolate = Isolate::new(forgetful(), Some(model()));
    isolate
        .borrow_mut()
        .script
        .push_back(refined_completion(&seed()));
    let (_, frames) = stream(generate(&isolate, streaming_request(&seed())));
    drop(frames);
    run_after_response(&isolate);
    let stored: Vec<String> = isolate.borrow().kv.values().cloned().collect();
    assert!(
        stored
            .iter()
            .any(|spec| spec.contains("Refined by the model")),
        "the model's spec is stored though nobody reads it"
    );
    // The next JSON call is the model's hit, with no provider call.
    effects(&isolate);
    let hit = whole(generate(&isolate, json_request(&seed())));
    assert_eq!(body_of(&hit)["meta"]["generator"], "model");
    assert!(!effects(&isolate).contains(&"send".to_owned()));
}

#[test]
fn an_error_before_the_first_event_is_a_plain_answer_not_a_stream() {
    let isolate = Isolate::new(forgetful(), None);
    let mut bad = seed();
    bad["output"] = json!({"type": "object", "properties": {"x": {"type": "nonsense"}}});
    let refused = whole(generate(&isolate, streaming_request(&bad)));
    assert_eq!(refused.status, 422, "{}", refused.body);
    assert_eq!(body_of(&refused)["code"], "invalid_schema");
}

fn render(isolate: &Rc<RefCell<Isolate>>, spec_hash: &str) -> HttpResponse {
    let request = json_request(&json!({"format": "html"}));
    let platform = TestPlatform::new(isolate, request);
    whole(block_on(super::render_spec::render_spec(
        &platform, spec_hash,
    )))
}

#[test]
fn render_spec_reads_kv_only_when_the_isolate_forgot_the_spec() {
    let isolate = Isolate::new(forgetful(), None);
    let made = whole(generate(&isolate, json_request(&seed())));
    run_after_response(&isolate);
    let spec_hash = body_of(&made)["meta"]["specHash"]
        .as_str()
        .expect("a hash")
        .to_owned();
    effects(&isolate);
    let rendered = render(&isolate, &spec_hash);
    assert_eq!(rendered.status, 200, "{}", rendered.body);
    assert_eq!(gets_and_puts(&effects(&isolate)), (1, 0));
    // An isolate that remembers the specs it made answers from memory.
    isolate.borrow_mut().limits = remembering();
    whole(generate(&isolate, json_request(&seed())));
    run_after_response(&isolate);
    effects(&isolate);
    let remembered = render(&isolate, &spec_hash);
    assert_eq!(remembered.body, rendered.body);
    assert_eq!(gets_and_puts(&effects(&isolate)), (0, 0));
}

#[test]
fn submit_reads_its_spec_then_answers() {
    let isolate = Isolate::new(forgetful(), None);
    let made = whole(generate(&isolate, json_request(&seed())));
    run_after_response(&isolate);
    let spec_hash = body_of(&made)["meta"]["specHash"].clone();
    effects(&isolate);
    // Empty data: the spec's schema names what is missing.
    let body = json!({"specHash": spec_hash, "toolCallId": "t1", "data": {}});
    let platform = TestPlatform::new(&isolate, json_request(&body));
    let answer = whole(block_on(super::submit::submit(&platform)));
    let done = effects(&isolate);
    assert_eq!(done[0], "read_body");
    assert!(done[1].starts_with("get spec:"), "{done:?}");
    // Checked against the spec it read (a spec not found is a 404).
    assert_eq!(answer.status, 422, "{}", answer.body);
    assert_eq!(body_of(&answer)["code"], "submission_invalid");
    assert_eq!(
        body_of(&answer)["payload"]["errors"][0]["pointer"],
        "/firstName"
    );
}

/// A webhook request: `body` signed now with the isolate's secret.
fn signed(body: &Value, accept: Option<&str>) -> Request {
    let bytes = serde_json::to_vec(body).expect("JSON");
    let signature = genui_core::Webhook::sign(SECRET, NOW_MS / 1000, &bytes);
    let mut headers = vec![(genui_core::Webhook::SIGNATURE_HEADER, signature)];
    if let Some(accept) = accept {
        headers.push(("accept", accept.to_owned()));
    }
    Request {
        headers,
        body: bytes,
        ..Request::default()
    }
}

fn webhook(isolate: &Rc<RefCell<Isolate>>, request: Request) -> Answer {
    block_on(super::webhook::webhook(&TestPlatform::new(
        isolate, request,
    )))
}

fn enqueued(effects: &[String]) -> usize {
    effects
        .iter()
        .filter(|e| *e == "object FORMS enqueue")
        .count()
}

fn with_callback(mut body: Value) -> Value {
    body["callbackUrl"] = json!("https://hooks.acme-corp.com/genui");
    body
}

#[test]
fn a_webhook_is_accepted_once_and_its_replay_refused() {
    let isolate = Isolate::new(forgetful(), None);
    let first = whole(webhook(&isolate, signed(&seed(), None)));
    assert_eq!(first.status, 200, "{}", first.body);
    let replayed = whole(webhook(&isolate, signed(&seed(), None)));
    assert_eq!(replayed.status, 409, "{}", replayed.body);
    assert_eq!(body_of(&replayed)["code"], "webhook_replayed");
}

#[test]
fn a_webhook_without_its_replay_guard_is_not_served() {
    let isolate = Isolate::new(forgetful(), None);
    isolate.borrow_mut().bindings.remove("REPLAY_GUARD");
    let refused = whole(webhook(&isolate, signed(&seed(), None)));
    assert_eq!(refused.status, 404, "{}", refused.body);
    assert!(
        !effects(&isolate).iter().any(|e| e.starts_with("get ")),
        "no generation"
    );
}

#[test]
fn a_webhook_callback_is_enqueued_only_for_a_200() {
    let isolate = Isolate::new(forgetful(), None);
    let answered = whole(webhook(&isolate, signed(&with_callback(seed()), None)));
    assert_eq!(answered.status, 200, "{}", answered.body);
    assert_eq!(
        enqueued(&effects(&isolate)),
        1,
        "enqueued before the answer"
    );
    // A generation that fails after the job is accepted: no callback.
    let mut failing = with_callback(seed());
    failing["generator"] = json!("model");
    let failed = whole(webhook(&isolate, signed(&failing, None)));
    assert_ne!(failed.status, 200, "{}", failed.body);
    run_after_response(&isolate);
    assert_eq!(enqueued(&effects(&isolate)), 0, "an error is never POSTed");
}

#[test]
fn a_streamed_webhook_enqueues_its_last_answer_once_written() {
    let isolate = Isolate::new(forgetful(), Some(model()));
    isolate
        .borrow_mut()
        .script
        .push_back(refined_completion(&seed()));
    let request = signed(&with_callback(seed()), Some("text/event-stream"));
    let (_, frames) = stream(webhook(&isolate, request));
    assert_eq!(
        enqueued(&effects(&isolate)),
        0,
        "not before the stream is written"
    );
    run_after_response(&isolate);
    let text: String = block_on(frames.collect::<Vec<_>>()).concat();
    assert!(text.contains("event: done"), "{text}");
    let done = effects(&isolate);
    assert_eq!(enqueued(&done), 1, "{done:?}");
    let puts = done
        .iter()
        .position(|e| e.starts_with("put "))
        .expect("a put");
    let enqueue = done
        .iter()
        .position(|e| e == "object FORMS enqueue")
        .expect("an enqueue");
    assert!(
        puts < enqueue,
        "the spec is stored before the callback goes out"
    );
}

fn routed(isolate: &Rc<RefCell<Isolate>>, request: Request) -> Answer {
    block_on(serve(TestPlatform::new(isolate, request)))
}

#[test]
fn serve_routes_to_the_door_and_logs_one_line_with_cors() {
    let isolate = Isolate::new(forgetful(), None);
    isolate
        .borrow_mut()
        .settings
        .insert("ALLOWED_ORIGINS", "https://app.example".into());
    let mut request = json_request(&seed());
    request.method = "POST";
    request.path = "/v1/generate";
    request
        .headers
        .push(("origin", "https://app.example".into()));
    let response = whole(routed(&isolate, request));
    assert_eq!(response.status, 200, "{}", response.body);
    let allowed = response
        .headers
        .iter()
        .find(|(n, _)| n == "access-control-allow-origin");
    assert_eq!(
        allowed.map(|(_, v)| v.as_str()),
        Some("https://app.example")
    );
    let logs: Vec<String> = effects(&isolate)
        .into_iter()
        .filter(|e| e.starts_with("log "))
        .collect();
    assert_eq!(logs.len(), 1, "{logs:?}");
    assert!(
        logs[0].contains("/v1/generate") && logs[0].contains("\"status\":200"),
        "{logs:?}"
    );
}

#[test]
fn serve_refuses_a_caller_over_budget_before_its_door() {
    let isolate = Isolate::new(forgetful(), None);
    isolate.borrow_mut().bindings.insert("RATE_LIMITER");
    isolate.borrow_mut().within_budget = false;
    let mut request = json_request(&seed());
    request.method = "POST";
    request.path = "/v1/generate";
    let limited = whole(routed(&isolate, request));
    assert_eq!(limited.status, 429, "{}", limited.body);
    assert!(!effects(&isolate).contains(&"read_body".to_owned()));
}

#[test]
fn serve_never_logs_a_hosted_forms_link() {
    let isolate = Isolate::new(forgetful(), None);
    let request = Request {
        method: "GET",
        path: "/f/secret-token",
        ..Request::default()
    };
    let page = whole(routed(&isolate, request));
    assert_eq!(page.status, 404, "{}", page.body);
    let logs = effects(&isolate);
    assert!(
        logs.iter().all(|line| !line.contains("secret-token")),
        "{logs:?}"
    );
    let lines: Vec<&String> = logs.iter().filter(|e| e.starts_with("log ")).collect();
    assert_eq!(lines.len(), 1, "one log line: {logs:?}");
    assert!(
        lines[0].contains("/f/"),
        "the route is logged, redacted: {lines:?}"
    );
}

/// The values of every `name` header of `response`.
fn header_values<'r>(response: &'r HttpResponse, name: &str) -> Vec<&'r str> {
    let named = response.headers.iter().filter(|(n, _)| n == name);
    named.map(|(_, value)| value.as_str()).collect()
}

#[test]
fn serve_gates_a_request_without_its_api_key_and_a_wrong_method() {
    let isolate = Isolate::new(forgetful(), None);
    isolate
        .borrow_mut()
        .settings
        .insert("API_KEYS", "k-one,k-two".into());
    let mut keyless = json_request(&seed());
    keyless.method = "POST";
    keyless.path = "/v1/generate";
    let refused = whole(routed(&isolate, keyless));
    assert_eq!(refused.status, 401, "{}", refused.body);
    assert_eq!(
        header_values(&refused, "www-authenticate").len(),
        1,
        "{refused:?}"
    );
    assert!(!effects(&isolate).contains(&"read_body".to_owned()));
    let wrong_method = Request {
        method: "GET",
        path: "/v1/generate",
        headers: vec![("authorization", "Bearer k-one".into())],
        ..Request::default()
    };
    let refused = whole(routed(&isolate, wrong_method));
    assert_eq!(refused.status, 405, "{}", refused.body);
    assert_eq!(header_values(&refused, "allow").len(), 1, "{refused:?}");
}

#[test]
fn an_interrupt_becomes_a_generate_answer_carrying_its_signed_token() {
    let isolate = Isolate::new(forgetful(), None);
    let schema = json!({"type": "object", "required": ["quarter"], "properties": {
        "quarter": {"type": "string", "enum": ["Q1", "Q2", "Q3", "Q4"]}}});
    let interrupt = json!({"interrupt": {"id": "int-form", "reason": "input_required",
        "message": "Which quarter?", "toolCallId": "call_42", "responseSchema": schema,
        "expiresAt": "2026-11-22T01:00:00Z"}});
    let mut request = json_request(&interrupt);
    request.method = "POST";
    request.path = "/v1/interrupt";
    let answer = whole(routed(&isolate, request));
    assert_eq!(answer.status, 200, "{}", answer.body);
    let body = body_of(&answer);
    let token = body["meta"]["interrupt"]["token"]
        .as_str()
        .expect("a token");
    assert!(
        token.starts_with("1795309200."),
        "expires at expiresAt: {token}"
    );
    assert_eq!(
        header_values(&answer, "x-genui-interrupt-token"),
        vec![token]
    );
    assert_eq!(body["jsonSchema"]["required"], json!(["quarter"]), "{body}");
    assert_eq!(body["meta"]["toolCallId"], "call_42", "{body}");
}

#[test]
fn a_stream_head_is_never_cached_and_carries_the_request_id() {
    let isolate = Isolate::new(forgetful(), None);
    let mut request = streaming_request(&seed());
    request.method = "POST";
    request.path = "/v1/generate";
    let (head, _frames) = stream(routed(&isolate, request));
    assert_eq!(head.status, 200);
    assert_eq!(header_values(&head, "cache-control"), vec!["no-store"]);
    assert_eq!(header_values(&head, "x-request-id"), vec!["r1"]);
}

/// The seed's form as a hosted link's request, its answer going to a callback.
fn form_request() -> Request {
    let mut body = seed();
    body["callbackUrl"] = json!("https://hooks.genui.dev/answer");
    Request {
        method: "POST",
        path: "/v1/forms",
        ..json_request(&body)
    }
}

fn create_form(isolate: &Rc<RefCell<Isolate>>) -> HttpResponse {
    block_on(super::forms::create(&TestPlatform::new(
        isolate,
        form_request(),
    )))
}

/// A visit of the link's page: a GET, or a POST of `answer` (form fields).
fn visit(isolate: &Rc<RefCell<Isolate>>, token: &str, answer: Option<&str>) -> HttpResponse {
    let request = match answer {
        None => Request {
            method: "GET",
            ..Request::default()
        },
        Some(answer) => Request {
            method: "POST",
            headers: vec![("content-type", "application/x-www-form-urlencoded".into())],
            body: answer.as_bytes().to_vec(),
            ..Request::default()
        },
    };
    block_on(super::forms::hosted(
        &TestPlatform::new(isolate, request),
        token,
    ))
}

/// The signed token of a link's URL (`<origin>/f/<token>#<fragment>`).
fn token_of(url: &str) -> String {
    let path = url
        .strip_prefix("https://genui.test/f/")
        .expect("a link here");
    path.split('#').next().unwrap_or_default().to_owned()
}

const ANSWER: &str = "/firstName=Ada&/lastName=Lovelace&/street=1+Road&/city=London\
                      &/postalCode=N1&/country=GB";

#[test]
fn a_form_link_is_made_then_visited_and_its_answer_stored_once() {
    let isolate = Isolate::new(forgetful(), None);
    let made = create_form(&isolate);
    assert_eq!(made.status, 201, "{}", made.body);
    let url = body_of(&made)["url"].as_str().expect("a url").to_owned();
    let token = token_of(&url);
    assert_eq!(
        isolate.borrow().objects.len(),
        1,
        "the link's object holds it"
    );
    let page = visit(&isolate, &token, None);
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("<form"), "{}", page.body);
    effects(&isolate);
    let taken = visit(&isolate, &token, Some(ANSWER));
    assert_eq!(taken.status, 202, "{}", taken.body);
    assert!(taken.body.contains(r#"data-state="received""#));
    let done = effects(&isolate);
    let calls: Vec<&str> = done
        .iter()
        .filter_map(|e| e.strip_prefix("object FORMS "))
        .map(|call| call.rsplit(' ').next().unwrap_or_default())
        .collect();
    assert_eq!(calls, ["state", "submit"], "{done:?}");
    assert!(
        done.iter().any(|e| e.starts_with("alarm ")),
        "its delivery is the alarm's"
    );
    let again = visit(&isolate, &token, Some(ANSWER));
    assert_eq!(
        again.status, 409,
        "a second answer is refused: {}",
        again.body
    );
    // Refused from the link's state: the second post's body is never read,
    // so a body that stalls cannot hold the answer back.
    let second = effects(&isolate);
    assert!(
        !second.iter().any(|e| e.starts_with("read_body")),
        "{second:?}"
    );
}

#[test]
fn a_link_whose_object_refuses_init_gives_no_link() {
    let isolate = Isolate::new(forgetful(), None);
    isolate.borrow_mut().refused_action = Some("init");
    let refused = create_form(&isolate);
    assert_eq!(refused.status, 500, "{}", refused.body);
    assert_eq!(body_of(&refused)["code"], "internal_error");
    assert!(body_of(&refused).get("url").is_none(), "{}", refused.body);
    assert!(
        refused.body.contains("its object answered 500"),
        "{}",
        refused.body
    );
}

/// The MCP revision the tests speak (stateless: no session to open).
const MCP_VERSION: &str = "2026-07-28";

/// The form view a worker is built with.
const VIEW: &str = "<!DOCTYPE html><html><head><title>view</title></head><body></body></html>";

/// One MCP `tools/call` of `tool` by a host that shows no form view; its result.
fn mcp_call(isolate: &Rc<RefCell<Isolate>>, tool: &'static str, arguments: Value) -> Value {
    let meta = json!({"io.modelcontextprotocol/protocolVersion": MCP_VERSION,
        "io.modelcontextprotocol/clientCapabilities": {}});
    let params = json!({"name": tool, "arguments": arguments, "_meta": meta});
    let body = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": params});
    let request = Request {
        method: "POST",
        path: "/mcp",
        headers: vec![
            ("host", "127.0.0.1:8787".into()),
            ("mcp-protocol-version", MCP_VERSION.into()),
            ("mcp-method", "tools/call".into()),
            ("mcp-name", tool.into()),
        ],
        ..json_request(&body)
    };
    let answer = block_on(super::mcp::mcp(&TestPlatform::new(isolate, request)));
    assert_eq!(answer.status, 200, "{}", answer.body);
    let answer = body_of(&answer);
    assert_eq!(answer["id"], 7, "{answer}");
    answer["result"].clone()
}

/// The seed's form filled in whole.
fn seed_answer() -> Value {
    json!({"firstName": "Ada", "lastName": "Lovelace", "street": "1 Road", "city": "London",
        "postalCode": "N1", "country": "GB"})
}

#[test]
fn an_mcp_generate_call_stores_its_spec_and_a_submit_call_reads_it() {
    // No WEBHOOK_SECRET: no hosted links, so the form comes back itself.
    let isolate = Isolate::new(forgetful(), None);
    isolate.borrow_mut().settings.clear();
    let generated = mcp_call(&isolate, "generate_user_interface", seed());
    assert_eq!(generated.get("isError"), None, "{generated}");
    let spec_hash = generated["structuredContent"]["specHash"].clone();
    assert_eq!(spec_hash.as_str().map(str::len), Some(64), "{generated}");
    run_after_response(&isolate);
    let (_, puts) = gets_and_puts(&effects(&isolate));
    assert_eq!(puts, 1, "the spec is stored after the response");
    let arguments = json!({"specHash": spec_hash, "data": seed_answer(), "toolCallId": "c1"});
    let submitted = mcp_call(&isolate, "submit_user_interface", arguments);
    assert_eq!(submitted.get("isError"), None, "{submitted}");
    let message = &submitted["structuredContent"]["toolMessage"];
    assert_eq!(message["toolCallId"], "c1", "{submitted}");
    let (gets, _) = gets_and_puts(&effects(&isolate));
    assert_eq!(gets, 1, "the submission read its spec");
}

#[test]
fn an_mcp_host_without_the_view_gets_a_hosted_link_that_works() {
    let isolate = Isolate::new(forgetful(), None);
    let result = mcp_call(&isolate, "generate_user_interface", seed());
    let text = result["content"][0]["text"].as_str().unwrap_or_default();
    let url = text
        .split_whitespace()
        .find(|word| word.starts_with("https://genui.test/f/"))
        .unwrap_or_else(|| panic!("a link in {result}"));
    assert_eq!(isolate.borrow().objects.len(), 1, "its object keeps it");
    let page = visit(&isolate, &token_of(url), None);
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("<form"), "{}", page.body);
}

/// One `POST /v1/agent` run with `forwarded_props`.
fn agent_run(isolate: &Rc<RefCell<Isolate>>, run_id: &str, forwarded_props: Value) -> Answer {
    let input = json!({"threadId": "t", "runId": run_id, "messages": [],
        "forwardedProps": forwarded_props});
    let request = Request {
        method: "POST",
        path: "/v1/agent",
        ..json_request(&input)
    };
    block_on(super::agent::agent(&TestPlatform::new(isolate, request)))
}

/// The AG-UI event types of a stream's frames, once it is written.
fn event_types(isolate: &Rc<RefCell<Isolate>>, answer: Answer) -> (Vec<String>, String) {
    let (head, mut frames) = stream(answer);
    assert_eq!(head.status, 200);
    run_after_response(isolate);
    let text: String = block_on(frames.by_ref().collect::<Vec<_>>()).concat();
    let types = text
        .lines()
        .filter_map(|line| line.strip_prefix("data: "))
        .filter_map(|data| serde_json::from_str::<Value>(data).ok())
        .map(|event| event["type"].as_str().unwrap_or_default().to_owned())
        .collect();
    (types, text)
}

#[test]
fn an_agent_run_streams_its_form_then_takes_its_submission() {
    let isolate = Isolate::new(forgetful(), None);
    let props = json!({"generateUserInterface": seed(), "format": "a2ui"});
    let (types, text) = event_types(&isolate, agent_run(&isolate, "r1", props));
    assert_eq!(types.first().map(String::as_str), Some("RUN_STARTED"));
    assert_eq!(
        types.last().map(String::as_str),
        Some("RUN_FINISHED"),
        "{text}"
    );
    let (_, puts) = gets_and_puts(&effects(&isolate));
    assert_eq!(puts, 1, "the form's spec is stored");
    let spec_hash = isolate
        .borrow()
        .kv
        .keys()
        .next()
        .and_then(|key| key.rsplit(':').next().map(str::to_owned))
        .expect("a stored spec");
    // The surface `/v1/generate` names the spec's A2UI form with.
    let surface = format!("genui-{}", &spec_hash[..16]);
    let context = json!({"specHash": spec_hash, "data": seed_answer()});
    let action = json!({"name": "genui.submit", "surfaceId": surface,
        "sourceComponentId": "submit", "timestamp": "2026-11-28T00:00:00Z", "context": context});
    let props = json!({"a2uiAction": {"userAction": action}});
    let (types, text) = event_types(&isolate, agent_run(&isolate, "r2", props));
    assert_eq!(
        types.last().map(String::as_str),
        Some("RUN_FINISHED"),
        "{text}"
    );
    assert!(text.contains(r#""accepted":true"#), "{text}");
    let (gets, _) = gets_and_puts(&effects(&isolate));
    assert_eq!(gets, 1, "the submission read its spec");
}

#[test]
fn a_bad_genui_agents_setting_refuses_a_proxied_run_before_any_upstream_call() {
    let isolate = Isolate::new(forgetful(), None);
    let setting = ("GENUI_AGENTS", "{not json".to_owned());
    isolate.borrow_mut().settings.extend([setting]);
    let refused = whole(agent_run(&isolate, "r1", json!({"upstream": "graph"})));
    assert_eq!(refused.status, 500, "{}", refused.body);
    assert_eq!(body_of(&refused)["code"], "internal_error");
    assert!(
        refused.body.contains("GENUI_AGENTS setting"),
        "{}",
        refused.body
    );
    let done = effects(&isolate);
    assert!(
        !done.iter().any(|e| e.starts_with("send_streaming")),
        "{done:?}"
    );
}

#[test]
fn a_proxied_run_relays_the_upstreams_events() {
    let isolate = Isolate::new(forgetful(), None);
    let setting = r#"{"graph": {"url": "https://agents.genui.dev/run"}}"#;
    isolate
        .borrow_mut()
        .settings
        .extend([("GENUI_AGENTS", setting.to_owned())]);
    let started = r#"{"type":"RUN_STARTED","threadId":"t","runId":"r1"}"#;
    let finished = r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r1"}"#;
    let chunks = [
        format!("data: {started}\n\n"),
        format!("data: {finished}\n\n"),
    ];
    isolate.borrow_mut().upstream = Some(chunks.to_vec());
    let (types, text) = event_types(
        &isolate,
        agent_run(&isolate, "r1", json!({"upstream": "graph"})),
    );
    assert_eq!(types, ["RUN_STARTED", "RUN_FINISHED"], "{text}");
    let done = effects(&isolate);
    assert!(
        done.contains(&"send_streaming https://agents.genui.dev/run".to_owned()),
        "{done:?}"
    );
}

/// An isolate whose `GENUI_AGENTS` names `graph`, whose agent sends
/// `events`, one SSE frame per chunk.
fn proxied(events: &[Value]) -> Rc<RefCell<Isolate>> {
    let isolate = Isolate::new(forgetful(), None);
    let setting = r#"{"graph": {"url": "https://agents.genui.dev/run"}}"#;
    let chunks = events.iter().map(|event| format!("data: {event}\n\n"));
    let mut state = isolate.borrow_mut();
    state
        .settings
        .extend([("GENUI_AGENTS", setting.to_owned())]);
    state.upstream = Some(chunks.collect());
    drop(state);
    isolate
}

/// Polls the work queued for after the response once, as the runtime
/// would until it is woken again; whether it is done.
fn poll_once(work: &mut LocalBoxFuture<'static, ()>) -> bool {
    let mut cx = Context::from_waker(futures::task::noop_waker_ref());
    work.as_mut().poll(&mut cx).is_ready()
}

#[test]
fn an_upstream_that_never_ends_is_dropped_when_its_deadline_passes() {
    let started = json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r1"});
    let isolate = proxied(&[started]);
    isolate.borrow_mut().upstream_hangs = true;
    let (_, mut frames) = stream(agent_run(&isolate, "r1", json!({"upstream": "graph"})));
    let mut work = isolate
        .borrow_mut()
        .after_response
        .pop()
        .expect("the relay");
    let mut received = String::new();
    for _ in 0..8 {
        let done = poll_once(&mut work);
        while let Ok(frame) = frames.try_recv() {
            received.push_str(&frame);
        }
        if received.contains("upstream_timeout") {
            let done_so_far = effects(&isolate);
            assert!(
                done_so_far.contains(&"upstream dropped".to_owned()),
                "dropped by the time the client hears of the timeout: {done_so_far:?}"
            );
            assert!(done, "the relay ends with the timeout");
            return;
        }
        assert!(!done, "the relay ended without a timeout: {received}");
    }
    panic!("the deadline never passed: {received}");
}

#[test]
fn a_client_that_leaves_after_run_started_makes_the_relay_drop_the_upstream() {
    let started = json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r1"});
    let text =
        |delta: &str| json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": delta});
    let isolate = proxied(&[started, text("a"), text("b")]);
    isolate.borrow_mut().upstream_pauses_after = Some(1);
    isolate.borrow_mut().upstream_hangs = true;
    let (_, mut frames) = stream(agent_run(&isolate, "r1", json!({"upstream": "graph"})));
    let mut work = isolate
        .borrow_mut()
        .after_response
        .pop()
        .expect("the relay");
    assert!(
        !poll_once(&mut work),
        "the upstream paused after RUN_STARTED"
    );
    let first = frames.try_recv().unwrap_or_default();
    assert!(first.contains("RUN_STARTED"), "{first}");
    drop(frames);
    assert!(
        poll_once(&mut work),
        "the relay ends once it sees the client left"
    );
    let done = effects(&isolate);
    let chunks_read = done.iter().filter(|e| *e == "upstream chunk").count();
    assert_eq!(
        chunks_read, 2,
        "nothing read after the client left: {done:?}"
    );
    assert!(done.contains(&"upstream dropped".to_owned()), "{done:?}");
    assert_eq!(
        done.last().map(String::as_str),
        Some("upstream dropped"),
        "{done:?}"
    );
}

/// A configured catalog the core finds malformed when a request first
/// names it: both requests naming it get a 400, and `serve` logs one
/// `catalog_refused` line for the isolate.
#[test]
fn a_malformed_catalog_is_refused_to_its_requests_and_logged_once() {
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/../../catalogs/example.json");
    let text = std::fs::read_to_string(example).expect("the example catalog");
    let mut catalog: Value = serde_json::from_str(&text).expect("JSON");
    catalog["name"] = json!("door-broken");
    catalog["components"][0]["fits"] = json!({"type": "integer", "minimum": "zero"});
    let text = catalog.to_string();
    let (limits, refused) = forgetful().with_catalogs(&[("broken.json", text.as_str())]);
    assert!(refused.is_empty(), "set-up reads names only: {refused:?}");
    let isolate = Isolate::new(limits, None);
    let mut body = seed();
    body["catalog"] = json!("door-broken");
    for _ in 0..2 {
        let mut request = json_request(&body);
        request.method = "POST";
        request.path = "/v1/generate";
        let answer = whole(routed(&isolate, request));
        assert_eq!(answer.status, 400, "{}", answer.body);
        assert_eq!(body_of(&answer)["code"], "unsupported_catalog");
    }
    let refusals: Vec<String> = effects(&isolate)
        .into_iter()
        .filter(|e| e.starts_with("log_error ") && e.contains("catalog_refused"))
        .collect();
    assert_eq!(refusals.len(), 1, "{refusals:?}");
}
