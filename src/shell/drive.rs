//! Performs what the generation machine (`genui_model::Generation`) asks for:
//! KV reads and writes, provider calls and waits. It writes the machine's
//! updates either as one JSON answer ([`answer`]) or as Server-Sent Events
//! ([`stream`]); every decision stays in the machine.
//!
//! A stream: the effects before the first event run in the fetch handler,
//! so an error there is a plain `dgui_error` response. The rest runs under
//! `ctx.wait_until`, writing frames into a channel that is the response
//! body; a write to a closed channel (the client left) is reported to the
//! machine, which then emits nothing but still stores the model's spec.

use super::kv::SpecCache;
use super::model;
use futures::channel::mpsc::{self, UnboundedReceiver, UnboundedSender};
use futures::future::{select, Either, LocalBoxFuture};
use futures::StreamExt;
use genui_core::{CachePut, Error, ErrorCode, HttpResponse};
use genui_model::{
    Effect, Encoder, Event, Generation, Input, Update, EVENT_STREAM_CONTENT_TYPE, HEARTBEAT,
    HEARTBEAT_MS,
};
use std::time::Duration;
use worker::{Context, Delay, Env, Headers, Response};

/// The body of an event stream: frames as they are written.
pub(super) type SseBody = UnboundedReceiver<String>;

/// What to do with a webhook's final answer body (POST it to the callback).
pub(super) type OnAnswer = Box<dyn FnOnce(String) -> LocalBoxFuture<'static, ()>>;

/// Runs a generation to its one answer (the JSON endpoint).
pub(super) async fn answer(generation: &mut Generation, env: &Env, ctx: &Context) -> HttpResponse {
    let cache = SpecCache::open(env);
    let (answer, puts) = answer_and_puts(generation, env, &cache).await;
    for put in puts {
        cache.put_after_response(ctx, put);
    }
    answer
}

/// Runs a generation to its one answer inside a response already under
/// way (no fetch context left): the cache writes are made before the
/// answer is handed back, so the spec is stored when the client sees it.
pub(super) async fn answer_in_stream(generation: &mut Generation, env: &Env) -> HttpResponse {
    let cache = SpecCache::open(env);
    let (answer, puts) = answer_and_puts(generation, env, &cache).await;
    for put in puts {
        cache.put(put).await;
    }
    answer
}

/// A generation's one answer, and the cache writes it asked for.
async fn answer_and_puts(
    generation: &mut Generation,
    env: &Env,
    cache: &SpecCache,
) -> (HttpResponse, Vec<CachePut>) {
    let mut answer = None;
    let mut puts = Vec::new();
    while let Some(effect) = generation.poll() {
        match effect {
            Effect::Emit(
                Update::Ui(response) | Update::Refined(response) | Update::Error(response),
            ) => answer = Some(response),
            Effect::Emit(Update::Done(_) | Update::Base(_)) => {}
            Effect::CachePut(put) => puts.push(put),
            other => {
                let input = perform(other, env, cache).await;
                generation.input(input, now())
            }
        }
    }
    let answer = answer.unwrap_or_else(|| {
        HttpResponse::error(&Error::new(
            ErrorCode::Internal,
            "the generation ended without an answer",
        ))
    });
    (answer, puts)
}

/// Runs a generation as an event stream: `Err` is a plain response (an
/// error before the first event); `Ok` the stream's head and body.
pub(super) async fn stream<E: Encoder + 'static>(
    mut generation: Generation,
    mut events: E,
    env: &Env,
    ctx: &Context,
    on_answer: Option<OnAnswer>,
) -> Result<(HttpResponse, SseBody), HttpResponse> {
    let cache = SpecCache::open(env);
    let mut first = String::new();
    let mut last_body = None;
    let pending = loop {
        match generation.poll() {
            None => break None,
            Some(Effect::CachePut(put)) => cache.put_after_response(ctx, put),
            Some(Effect::CacheGet(key)) => {
                let value = cache.get(&key).await;
                generation.input(Input::Cached(value), now());
            }
            Some(Effect::Emit(Update::Error(response))) => return Err(response),
            Some(Effect::Emit(update)) => {
                remember_body(&update, &mut last_body);
                first.push_str(&events.frames(&update));
            }
            Some(other) => break Some(other),
        }
    };
    let (tx, rx) = mpsc::unbounded();
    let _ = tx.unbounded_send(events.open() + &first);
    match pending {
        Some(effect) => {
            let rest = Rest {
                env: env.clone(),
                cache,
                events,
                tx,
                last_body,
                on_answer,
            };
            ctx.wait_until(rest.run(generation, effect));
        }
        None => {
            drop(tx);
            if let (Some(on_answer), Some(body)) = (on_answer, last_body) {
                ctx.wait_until(on_answer(body));
            }
        }
    }
    Ok((stream_head(), rx))
}

/// A stream whose frames are all known: written at once, then closed.
pub(super) fn written(text: String) -> (HttpResponse, SseBody) {
    let (tx, rx) = mpsc::unbounded();
    let _ = tx.unbounded_send(text);
    (stream_head(), rx)
}

pub(super) fn stream_head() -> HttpResponse {
    HttpResponse {
        status: 200,
        headers: vec![("content-type".into(), EVENT_STREAM_CONTENT_TYPE.into())],
        body: String::new(),
    }
}

/// The part of a stream that runs after the response has started.
struct Rest<E> {
    env: Env,
    cache: SpecCache,
    events: E,
    tx: UnboundedSender<String>,
    last_body: Option<String>,
    on_answer: Option<OnAnswer>,
}

impl<E: Encoder> Rest<E> {
    async fn run(mut self, mut generation: Generation, first: Effect) {
        let mut next = Some(first);
        // Written after the last event: the client does not wait for KV.
        let mut puts: Vec<CachePut> = Vec::new();
        while let Some(effect) = next.take().or_else(|| generation.poll()) {
            match effect {
                Effect::Emit(update) => {
                    remember_body(&update, &mut self.last_body);
                    let text = self.events.frames(&update);
                    if !text.is_empty() && self.tx.unbounded_send(text).is_err() {
                        generation.input(Input::ClientGone, now());
                    }
                }
                Effect::CachePut(put) => puts.push(put),
                other => {
                    let input =
                        with_heartbeats(perform(other, &self.env, &self.cache), &self.tx).await;
                    generation.input(input, now());
                }
            }
        }
        self.tx.close_channel();
        for put in puts {
            self.cache.put(put).await;
        }
        if let (Some(on_answer), Some(body)) = (self.on_answer, self.last_body) {
            on_answer(body).await;
        }
    }
}

/// Keeps the last complete answer's body (a webhook delivers it).
fn remember_body(update: &Update, last: &mut Option<String>) {
    if let Update::Ui(response) | Update::Refined(response) = update {
        *last = Some(response.body.clone());
    }
}

/// Performs a KV read, a provider call or a wait, and says what happened.
async fn perform(effect: Effect, env: &Env, cache: &SpecCache) -> Input {
    match effect {
        Effect::CacheGet(key) => Input::Cached(cache.get(&key).await),
        Effect::Send(request, timeout_ms) => {
            Input::Provider(model::send(request, timeout_ms).await)
        }
        Effect::RunAi(call, timeout_ms) => {
            Input::Provider(model::run_ai(env, call, timeout_ms).await)
        }
        Effect::Wait(ms) => {
            Delay::from(Duration::from_millis(ms)).await;
            Input::Provider(Event::Waited)
        }
        // Emits and puts are the caller's: the machine reports the misuse.
        Effect::Emit(_) | Effect::CachePut(_) => Input::Provider(Event::NetworkError(
            "the shell performed an emit or a put as a call".into(),
        )),
    }
}

/// Writes a comment every few seconds while `work` runs, so proxies and
/// clients keep an idle stream open.
async fn with_heartbeats(
    work: impl std::future::Future<Output = Input>,
    tx: &UnboundedSender<String>,
) -> Input {
    let beats = async {
        loop {
            Delay::from(Duration::from_millis(HEARTBEAT_MS)).await;
            let _ = tx.unbounded_send(HEARTBEAT.to_owned());
        }
    };
    match select(Box::pin(work), Box::pin(beats)).await {
        Either::Left((input, _)) => input,
        // The heartbeat loop never ends; this arm cannot be taken.
        Either::Right(_) => Input::Provider(Event::TimedOut),
    }
}

/// The worker response of a stream: the head's headers (CORS, content
/// type) and the frames as they come.
pub(super) fn into_sse_response(
    head: HttpResponse,
    body: SseBody,
    request_id: &str,
) -> worker::Result<Response> {
    let headers = Headers::new();
    headers.set("cache-control", "no-store")?;
    headers.set("x-request-id", request_id)?;
    for (name, value) in &head.headers {
        headers.set(name, value)?;
    }
    let frames = body.map(|text| Ok::<Vec<u8>, worker::Error>(text.into_bytes()));
    Ok(Response::from_stream(frames)?
        .with_status(head.status)
        .with_headers(headers))
}

fn now() -> u64 {
    super::clock::unix_ms()
}
