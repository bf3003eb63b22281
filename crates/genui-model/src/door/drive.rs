//! The drive loops: they perform what the generation machine
//! (`crate::Generation`) asks for (KV reads and writes, provider calls,
//! waits) through the [`Platform`], and write its updates either as one
//! answer ([`answer`]) or as Server-Sent Events ([`stream`]); every
//! decision stays in the machine.
//!
//! A stream: the effects before the first event run before the response
//! starts, so an error there is a plain `dgui_error` response. The rest
//! runs after the response has started ([`Platform::after_response`]),
//! writing frames into a channel that is the response body, with a
//! heartbeat comment while a call is under way; a write to a closed
//! channel (the client left) is reported to the machine, which then emits
//! nothing but still stores the model's spec.

use super::{Answer, Platform};
use crate::stream::{HEARTBEAT, HEARTBEAT_MS};
use crate::{Effect, Encoder, Event, Generation, Input, Update};
use futures::channel::mpsc::{self, UnboundedSender};
use futures::future::{select, Either, LocalBoxFuture};
use genui_core::{CachePut, Error, ErrorCode, HttpResponse};

/// What to do with a stream's last complete answer body once the stream
/// is written (a webhook POSTs it to its callback).
pub(crate) type OnAnswer = Box<dyn FnOnce(String) -> LocalBoxFuture<'static, ()>>;

/// Runs a generation to its one answer; its cache writes run after the
/// response is sent.
pub(super) async fn answer<P: Platform>(platform: &P, generation: &mut Generation) -> HttpResponse {
    let (answer, puts) = answer_and_puts(platform, generation).await;
    for put in puts {
        put_after_response(platform, put);
    }
    answer
}

/// Runs a generation to its one answer inside a response already under
/// way: the cache writes are made before the answer is handed back, so
/// the spec is stored when the client sees it.
pub(super) async fn answer_in_stream<P: Platform>(
    platform: &P,
    generation: &mut Generation,
) -> HttpResponse {
    let (answer, puts) = answer_and_puts(platform, generation).await;
    for put in puts {
        platform.cache_put(put).await;
    }
    answer
}

/// A generation's one answer, and the cache writes it asked for.
async fn answer_and_puts<P: Platform>(
    platform: &P,
    generation: &mut Generation,
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
                let input = perform(platform, other).await;
                generation.input(input, platform.now_ms())
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

/// Stores `put` after the response is sent.
fn put_after_response<P: Platform>(platform: &P, put: CachePut) {
    let writer = platform.clone();
    platform.after_response(Box::pin(async move { writer.cache_put(put).await }));
}

/// Runs a generation as an event stream: `Err` is a plain response (an
/// error before the first event); `Ok` the stream.
pub(super) async fn stream<P: Platform, E: Encoder + 'static>(
    platform: &P,
    mut generation: Generation,
    mut events: E,
    on_answer: Option<OnAnswer>,
) -> Result<Answer, HttpResponse> {
    let mut first = String::new();
    let mut last_body = None;
    let pending = loop {
        match generation.poll() {
            None => break None,
            Some(Effect::CachePut(put)) => put_after_response(platform, put),
            Some(Effect::CacheGet(key)) => {
                let value = platform.cache_get(&key).await;
                generation.input(Input::Cached(value), platform.now_ms());
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
                platform: platform.clone(),
                events,
                tx,
                last_body,
                on_answer,
            };
            platform.after_response(Box::pin(rest.run(generation, effect)));
        }
        None => {
            drop(tx);
            if let (Some(on_answer), Some(body)) = (on_answer, last_body) {
                platform.after_response(on_answer(body));
            }
        }
    }
    Ok(Answer::event_stream(rx))
}

/// The part of a stream that runs after the response has started.
struct Rest<P, E> {
    platform: P,
    events: E,
    tx: UnboundedSender<String>,
    last_body: Option<String>,
    on_answer: Option<OnAnswer>,
}

impl<P: Platform, E: Encoder> Rest<P, E> {
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
                        generation.input(Input::ClientGone, self.platform.now_ms());
                    }
                }
                Effect::CachePut(put) => puts.push(put),
                other => {
                    let work = perform(&self.platform, other);
                    let input = with_heartbeats(&self.platform, work, &self.tx).await;
                    generation.input(input, self.platform.now_ms());
                }
            }
        }
        self.tx.close_channel();
        for put in puts {
            self.platform.cache_put(put).await;
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
async fn perform<P: Platform>(platform: &P, effect: Effect) -> Input {
    match effect {
        Effect::CacheGet(key) => Input::Cached(platform.cache_get(&key).await),
        Effect::Send(request, timeout_ms) => {
            Input::Provider(platform.send(request, timeout_ms).await)
        }
        Effect::RunAi(call, timeout_ms) => Input::Provider(platform.run_ai(call, timeout_ms).await),
        Effect::Wait(ms) => {
            platform.wait(ms).await;
            Input::Provider(Event::Waited)
        }
        // Emits and puts are the loop's own: the machine reports the misuse.
        Effect::Emit(_) | Effect::CachePut(_) => Input::Provider(Event::NetworkError(
            "the door performed an emit or a put as a call".into(),
        )),
    }
}

/// Writes a comment every few seconds while `work` runs, so proxies and
/// clients keep an idle stream open.
async fn with_heartbeats<P: Platform>(
    platform: &P,
    work: impl std::future::Future<Output = Input>,
    tx: &UnboundedSender<String>,
) -> Input {
    let beats = async {
        loop {
            platform.wait(HEARTBEAT_MS).await;
            let _ = tx.unbounded_send(HEARTBEAT.to_owned());
        }
    };
    match select(Box::pin(work), Box::pin(beats)).await {
        Either::Left((input, _)) => input,
        // The heartbeat loop never ends; this arm cannot be taken.
        Either::Right(_) => Input::Provider(Event::TimedOut),
    }
}
