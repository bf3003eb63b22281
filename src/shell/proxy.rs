//! Proxy mode's effects (`genui_model::Proxy` decides): the request to the
//! upstream agent named in `forwardedProps.upstream`, its event stream
//! relayed as it comes, all within the agent's deadline, and the forms of
//! the interrupts of its `RUN_FINISHED`, made by the generation machine as
//! `forwardedProps.interrupts` gets them (`agent::interrupt_job`).

use super::agent::interrupt_job;
use super::clock::unix_ms;
use super::model;
use super::platform::Worker;
use futures::channel::mpsc::{self, UnboundedSender};
use futures::future::{select, Either};
use futures::StreamExt;
use genui_model::{AgentEvents, Answer, Door, Generation, Mode, Proxy, RunInput};
use std::time::Duration;
use worker::{console_error, AbortController, Delay, Env, Fetch};

/// Starts the relay: the stream's head at once, its frames as the
/// upstream sends them (the request runs under `ctx.wait_until`).
pub(super) fn run(proxy: Proxy, input: &RunInput, door: &Door<Worker>, worker: &Worker) -> Answer {
    let (tx, rx) = mpsc::unbounded();
    let relay = Relay {
        events: AgentEvents::new(input),
        env: worker.env().clone(),
        door: door.clone(),
        tx,
    };
    worker.ctx().wait_until(relay.run(proxy));
    Answer::event_stream(rx)
}

/// How the exchange with the upstream ended.
enum Ended {
    /// Everything is written (the run ended, failed, or the client left).
    Written,
    /// The run ended with interrupts: their `/v1/interrupt` bodies, whose
    /// forms go out before the held `RUN_FINISHED`.
    WithForms(Vec<Vec<u8>>, String),
    /// The deadline passed first.
    TimedOut,
}

/// The relay's side of the response: where frames go, and what makes the
/// forms of the upstream's interrupts.
struct Relay {
    events: AgentEvents,
    env: Env,
    door: Door<Worker>,
    tx: UnboundedSender<String>,
}

impl Relay {
    /// The whole exchange with the upstream, raced against its deadline
    /// (the upstream's request is aborted when the deadline wins); then
    /// the forms of the interrupts its run ended with, and its held
    /// `RUN_FINISHED` (the generation machine bounds its own time).
    async fn run(mut self, mut proxy: Proxy) {
        let controller = AbortController::default();
        let signal = controller.signal();
        let deadline = Delay::from(Duration::from_millis(proxy.deadline_ms()));
        let exchange = self.exchange(&mut proxy, &signal);
        // Matched in one statement, so the losing future (and its borrows)
        // is dropped before the frames are written.
        let ended = match select(Box::pin(exchange), Box::pin(deadline)).await {
            Either::Left((ended, _)) => ended,
            Either::Right(_) => Ended::TimedOut,
        };
        match ended {
            Ended::WithForms(interrupts, held) => {
                for body in &interrupts {
                    // A client that left needs no more forms.
                    if self.tx.is_closed() {
                        break;
                    }
                    let form = self.form(body).await;
                    self.write(form);
                }
                self.write(held);
            }
            Ended::TimedOut => {
                controller.abort();
                self.write(proxy.timed_out());
            }
            Ended::Written => {}
        }
        self.tx.close_channel();
    }

    /// Relays the upstream's events until its run ends, the stream fails
    /// or closes, or the client leaves.
    async fn exchange(&mut self, proxy: &mut Proxy, signal: &worker::AbortSignal) -> Ended {
        let sent = match model::to_worker_request(&proxy.request()) {
            Ok(request) => Fetch::Request(request).send_with_signal(signal).await,
            Err(error) => Err(error),
        };
        let mut response = match sent {
            Ok(response) => response,
            Err(error) => return self.end(proxy.unreachable(&error.to_string())),
        };
        let content_type = response.headers().get("content-type").ok().flatten();
        if let Some(end) = proxy.answered(response.status_code(), content_type.as_deref()) {
            return self.end(end);
        }
        let body = match response.stream() {
            Ok(body) => body,
            Err(error) => return self.end(proxy.unreachable(&error.to_string())),
        };
        let mut events = Box::pin(Proxy::events(body));
        while let Some(event) = events.next().await {
            let relayed = proxy.relay(event);
            self.write(relayed.frames);
            if !relayed.interrupts.is_empty() {
                return Ended::WithForms(relayed.interrupts, relayed.held);
            }
            self.write(relayed.held);
            if proxy.is_over() || self.tx.is_closed() {
                return Ended::Written;
            }
        }
        self.end(proxy.closed())
    }

    /// Writes the frames that end the run; nothing is left to do.
    fn end(&self, frames: String) -> Ended {
        self.write(frames);
        Ended::Written
    }

    /// The form activity answering one interrupt (empty, and one log
    /// line, when it cannot be made: the interrupt still reaches the
    /// client in `RUN_FINISHED`).
    async fn form(&mut self, body: &[u8]) -> String {
        let limits = super::settings::limits(&self.env);
        let job = match interrupt_job(body, None, &limits, &self.env) {
            Ok(job) => job,
            Err(error) => {
                let logged = serde_json::json!({"event": "proxy_interrupt_unanswered", "error": error.to_dgui_error()});
                console_error!("{logged}");
                return String::new();
            }
        };
        let generators = model::generators(&self.env);
        let mut generation = Generation::new(job, &generators, Mode::Answer, &limits, unix_ms());
        let answer = self.door.answer_in_stream(&mut generation).await;
        self.events.form(&answer)
    }

    /// Writes frames; a client that left is not an error (the upstream's
    /// run still ends on its own).
    fn write(&self, text: String) {
        if !text.is_empty() {
            let _ = self.tx.unbounded_send(text);
        }
    }
}
